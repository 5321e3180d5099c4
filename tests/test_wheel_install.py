"""A wheel installed in a fresh venv and run from an empty directory gives exactly the committed VERDICTS.md.

Builds the wheel offline from a copy of the sources (``pip wheel --no-deps --no-build-isolation``), installs it with
``--no-deps --no-index`` into a new venv whose dependencies come from this interpreter's site directories (a .pth
file), and runs ``dpbounds check-proofs --format md`` with an empty working directory.  Nothing beside the installed
package (no seed texts, no repository) is reachable from there, so the verdicts must come from the package alone.
Under CI=true a missing build backend is a failure, elsewhere a skip.
"""

from __future__ import annotations

import os
import re
import shutil
import site
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("pyproject.toml", "README.md", "reference", "spec", "proofs_check")
_ROW = re.compile(r"^\| `([^`]+)` \| `[^`]*` \| \*\*(\w+)\*\*", re.M)

pytestmark = pytest.mark.tier("wheel")


def _need(cond: bool, why: str) -> None:
    if not cond:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(why + " -- required under CI=true")
        pytest.skip(why)


def _can_build_wheels() -> bool:
    try:
        import setuptools
    except ImportError:
        return False
    major, minor = (int(x) for x in setuptools.__version__.split(".")[:2])
    if (major, minor) >= (70, 1):  # bdist_wheel is part of setuptools from 70.1
        return True
    import importlib.util
    return importlib.util.find_spec("wheel") is not None


def _run(cmd, **kw) -> subprocess.CompletedProcess:
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=900, **kw)
    assert r.returncode == 0, f"{cmd[:4]} exited {r.returncode}:\n{r.stdout[-2000:]}\n{r.stderr[-4000:]}"
    return r


def _verdicts(md: str) -> dict[str, str]:
    return dict(_ROW.findall(md))


def test_wheel_in_a_fresh_venv_from_an_empty_directory_reproduces_verdicts_md(tmp_path):
    _need((ROOT / "reference").is_dir(), "not a source checkout")
    _need(_can_build_wheels(), "no wheel build backend offline (install `wheel` or setuptools >= 70.1)")
    src = tmp_path / "src"
    for name in SOURCES:  # build from a copy: an in-tree build would leave build/ and *.egg-info in the checkout
        p = ROOT / name
        if p.is_dir():
            shutil.copytree(p, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build"))
        else:
            src.mkdir(exist_ok=True)
            shutil.copy2(p, src / name)
    dist = tmp_path / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q",
          "-w", str(dist), str(src)])
    (whl,) = dist.glob("dpbounds-*.whl")
    import zipfile
    names = set(zipfile.ZipFile(whl).namelist())
    for peer in (ROOT / "reference" / "audit" / "peers").iterdir():  # every peer package ships, with its witnesses
        for f in ("__init__.py", "calls.py", "witnesses.json"):
            if (peer / "__init__.py").exists() and (peer / f).exists():
                assert f"dpbounds/audit/peers/{peer.name}/{f}" in names, (peer.name, f)

    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = Path(_run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())
    # the dependencies (sympy, flint, numpy, ...) from this interpreter, after the venv's own site-packages
    deps = [p for p in dict.fromkeys(site.getsitepackages() + [sysconfig.get_paths()["purelib"]] +
                                      [p for p in sys.path if p.endswith("site-packages")]) if Path(p).is_dir()]
    (purelib / "_dpbounds_test_deps.pth").write_text("\n".join(deps) + "\n")
    # --ignore-installed: the dependency path above may hold an installed dpbounds (CI's non-editable install),
    # which pip would otherwise take as "already satisfied" and the import would then find instead of the wheel
    _run([sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps", "--no-index", "--ignore-installed",
          "-q", str(whl)])

    empty = tmp_path / "empty"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
    where = _run([str(py), "-c", "import dpbounds; print(dpbounds.__file__)"], cwd=empty, env=env).stdout.strip()
    assert Path(where).resolve().is_relative_to(purelib.resolve()), f"dpbounds imported from {where}, not the wheel"
    exe = py.parent / ("dpbounds.exe" if os.name == "nt" else "dpbounds")  # the installed console script
    _run([str(exe), "check-proofs", "--format", "md", "--out", "V.md"], cwd=empty, env=env)
    got = (empty / "V.md").read_text(encoding="utf-8")
    assert sorted(p.name for p in empty.iterdir()) == ["V.md"], "check-proofs wrote something besides its --out"

    committed = (ROOT / "proofs_check" / "VERDICTS.md").read_text(encoding="utf-8")
    want = _verdicts(committed)
    assert len(want) >= 25
    assert _verdicts(got) == want
    assert got == committed, "the installed package renders a different VERDICTS.md (evidence or quotations differ)"
