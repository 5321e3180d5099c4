"""No source file names a machine-specific absolute path: results never depend on where one machine keeps its files.

Scans every text file of spec/, reference/, proofs_check/, tests/ and tools/ (this file excepted), plus pyproject.toml.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("spec", "reference", "proofs_check", "tests", "tools")
SUFFIXES = {".py", ".md", ".toml", ".json", ".txt", ".cfg", ".ini", ".yaml", ".yml", ".html", ".css", ".js"}
#: home and project roots of the machines this was written on, and /tmp used as a place to read or write data
FORBIDDEN = re.compile(r"(?<![\w.])/(?:work|home|root|Users|tmp)/|[A-Za-z]:\\\\(?:Users|work)\\\\")
#: (file, string) pairs allowed with a reason: strings that are inputs under test, never read or written as data
ALLOWED = {
    ("tests/test_cli_hardening.py", "/tmp/pwn"): "an injection payload the CLI must not execute",
    ("tests/test_cli_hardening.py", "/tmp/dpbounds-golden-bad"): "an --out the CLI must refuse before writing",
}


def _sources() -> list[Path]:
    if not (ROOT / "reference").is_dir():
        pytest.skip("not run from a source checkout")
    out = [ROOT / "pyproject.toml"]
    for folder in FOLDERS:
        for p in sorted((ROOT / folder).rglob("*")):
            if p.is_file() and p.suffix in SUFFIXES and "__pycache__" not in p.parts and p.resolve() != Path(
                    __file__).resolve():
                out.append(p)
    return out


def _hits(rel: str, text: str) -> list[str]:
    """'file:line: path' for every forbidden path in ``text`` (the contents of ``rel``) not in ALLOWED."""
    bad = []
    for n, line in enumerate(text.splitlines(), 1):
        for m in FORBIDDEN.finditer(line):
            token = re.match(r"[^\s'\"`)]*", line[m.start():]).group(0)
            if not any(rel == f and token.startswith(s) for f, s in ALLOWED):
                bad.append(f"{rel}:{n}: {token}")
    return bad


def test_no_source_file_names_an_absolute_machine_path():
    bad = [h for p in _sources()
           for h in _hits(p.relative_to(ROOT).as_posix(), p.read_text(encoding="utf-8", errors="replace"))]
    assert not bad, "machine-specific paths:\n" + "\n".join(bad)


def test_the_scan_finds_a_planted_path():
    # the scan can fail: planted absolute paths are reported; an allowed string only in its own file
    text = 'SEEDS = Path("/work/shared/seeds")\nX = "/tmp/pwn"\nY = "C:\\\\Users\\\\me"\nZ = "a/tmp/b"\n'
    assert _hits("spec/x.py", text) == ["spec/x.py:1: /work/shared/seeds", "spec/x.py:2: /tmp/pwn",
                                        "spec/x.py:3: C:\\\\Users\\\\me"]
    assert _hits("tests/test_cli_hardening.py", text) == ["tests/test_cli_hardening.py:1: /work/shared/seeds",
                                                          "tests/test_cli_hardening.py:3: C:\\\\Users\\\\me"]
