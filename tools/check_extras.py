"""Install the extras in every relative order and require `pip check` to be clean after each install.

Run from the repository root (CI: ``python tools/check_extras.py``; it needs the package index, so it is not part
of the pytest suite).  The extras are installed one after another in the order of ``pyproject.toml`` in one fresh
venv and in the reverse order in another, so for every pair of extras (a, b) some venv installs b after a; a third
venv installs ``.[all]`` at once.  A later install that up- or downgrades a dependency an earlier extra needs (the
old conflict: `.[audit]` after `.[test]` downgraded attrs below what crosshair-tool's pygls needs) makes `pip check`
fail.  Exit status 0 when every check is clean, 1 otherwise.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def extras() -> list[str]:
    """The optional-dependency groups of pyproject.toml, in file order, without the aggregate `all`."""
    doc = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return [e for e in doc["project"]["optional-dependencies"] if e != "all"]


def run_order(order: list[str], where: Path) -> list[str]:
    """Install `.[x]` for x in order into a fresh venv at `where`; the failures of `pip check` after each step."""
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True)
    py = str(where / "bin" / "python")
    failures = []
    for extra in order:
        subprocess.run([py, "-m", "pip", "install", "--quiet", f"{ROOT}[{extra}]"], check=True)
        chk = subprocess.run([py, "-m", "pip", "check"], capture_output=True, text=True)
        line = f"after {' then '.join(order[:order.index(extra) + 1])}: "
        print(line + ("pip check clean" if chk.returncode == 0 else chk.stdout.strip()), flush=True)
        if chk.returncode != 0:
            failures.append(line + chk.stdout.strip())
    return failures


def main() -> int:
    names = extras()
    failures = []
    with tempfile.TemporaryDirectory(prefix="dpbounds-extras-") as tmp:
        for i, order in enumerate((names, names[::-1], ["all"])):
            failures += run_order(order, Path(tmp) / f"v{i}")
    print(f"check_extras: {len(failures)} failing pip check(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
