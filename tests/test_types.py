"""The public API is typed: every name in ``dpbounds.__all__`` has complete annotations, and ``mypy --strict`` passes
on the package (configuration: ``[tool.mypy]`` in pyproject.toml) and on a program that uses every public name.

mypy cannot follow the editable install's import hook, so the test builds a tree of symbolic links that lays the
sources out as installed (``dpbounds/`` = ``reference/`` with ``spec/`` and ``proofs_check/`` inside) and runs mypy
there.  Skipped when mypy is not installed (it is in the ``test`` extra).
"""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
from pathlib import Path

import pytest

import dpbounds

ROOT = Path(__file__).resolve().parents[1]


def _public_callables() -> list[tuple[str, object]]:
    out: list[tuple[str, object]] = []
    for name in dpbounds.__all__:
        obj = getattr(dpbounds, name)
        if inspect.isfunction(obj):
            out.append((name, obj))
        elif inspect.isclass(obj) and not issubclass(obj, BaseException) and obj.__module__.startswith("dpbounds"):
            members: dict[str, object] = {}
            for c in reversed(obj.__mro__):         # inherited public methods too (Filter.aggregates)
                if c.__module__.startswith("dpbounds"):
                    members.update(vars(c))
            for attr, member in members.items():
                if attr.startswith("_") and attr != "__init__":
                    continue
                fn = member.__func__ if isinstance(member, (classmethod, staticmethod)) else member
                if isinstance(fn, property):
                    fn = fn.fget
                if inspect.isfunction(fn):
                    out.append((f"{name}.{attr}", fn))
    return out


def test_public_callables_are_found():
    names = {n for n, _ in _public_callables()}
    assert {"evaluate", "make_filter", "b_star", "Filter.try_spend", "Odometer.step", "Enclosure.upper",
            "IndividualFilter.step", "load_golden", "SpecEntry.check_values", "Filter.aggregates"} <= names


@pytest.mark.parametrize("name,fn", _public_callables(), ids=lambda x: x if isinstance(x, str) else "")
def test_every_public_signature_is_fully_annotated(name, fn):
    sig = inspect.signature(fn)
    missing = [p.name for i, p in enumerate(sig.parameters.values())
               if p.annotation is inspect.Parameter.empty and not (i == 0 and p.name in ("self", "cls"))]
    assert not missing, f"{name}: parameters without annotation: {missing}"
    assert sig.return_annotation is not inspect.Signature.empty, f"{name}: no return annotation"


def _mypy_tree(tmp: Path) -> Path:
    pkg = tmp / "dpbounds"
    pkg.mkdir()
    for f in (ROOT / "reference").iterdir():
        if f.name != "__pycache__":
            (pkg / f.name).symlink_to(f)
    (pkg / "spec").symlink_to(ROOT / "spec")
    (pkg / "proofs_check").symlink_to(ROOT / "proofs_check")
    (tmp / "consumer.py").symlink_to(ROOT / "tests" / "typing" / "consumer.py")
    return tmp


@pytest.mark.tier("slow")
def test_mypy_strict_passes_on_the_public_api(tmp_path):
    pytest.importorskip("mypy")
    tree = _mypy_tree(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "MYPYPATH"}
    r = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                        "--cache-dir", str(tmp_path / ".mypy_cache"), "dpbounds", "consumer.py"],
                       cwd=tree, capture_output=True, text=True, env=env, timeout=900)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-2000:]
    assert "Success: no issues found" in r.stdout


@pytest.mark.tier("slow")
def test_mypy_strict_catches_a_type_error(tmp_path):
    # the check is not vacuous: a wrong use of the public API fails under the same configuration
    pytest.importorskip("mypy")
    tree = _mypy_tree(tmp_path)
    (tree / "bad.py").write_text("import dpbounds\n\nx: int = dpbounds.evaluate('rruv16.thm5_1', {}).value\n")
    r = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                        "--cache-dir", str(tmp_path / ".mypy_cache"), "bad.py"],
                       cwd=tree, capture_output=True, text=True, timeout=900)
    assert r.returncode == 1 and 'bad.py:3: error: Incompatible types in assignment' in r.stdout, r.stdout


def test_the_consumer_uses_every_public_name():
    import ast
    tree = ast.parse((ROOT / "tests" / "typing" / "consumer.py").read_text())
    used = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)
            and isinstance(n.value, ast.Name) and n.value.id == "dpbounds"}
    assert set(dpbounds.__all__) <= used, sorted(set(dpbounds.__all__) - used)
