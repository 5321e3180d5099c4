"""The tutorial "Test your own accountant" (docs/tutorials/testing.md) runs as printed: its four pytest files pass
under the installed plugin (``--dpbounds-seconds``), and the plugin's options and fixture are there."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _blocks() -> list[str]:
    text = (ROOT / "docs" / "tutorials" / "testing.md").read_text()
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_tutorial_examples_are_ten_lines_of_pytest_and_pass(tmp_path):
    blocks = _blocks()
    assert len(blocks) == 4
    for i, code in enumerate(blocks):
        assert "def test_" in code and len(code.strip().splitlines()) <= 16
        (tmp_path / f"test_tutorial_{i}.py").write_text(code)
    # --dpbounds-seconds is only a cap (each check judges its example budget): generous, so that load never cuts a
    # search short (that would be 'incomplete', a failure)
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--dpbounds-seconds", "1200",
                        str(tmp_path)], cwd=tmp_path, capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0 and "4 passed" in r.stdout, r.stdout[-3000:] + r.stderr[-2000:]


@pytest.mark.tier("slow")
def test_a_failing_accountant_fails_with_its_witness_and_reproducer(tmp_path):
    code = _blocks()[1].replace("math.nextafter(self.spent + eps, math.inf)", "self.spent + eps")
    (tmp_path / "test_naive.py").write_text(code)
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--dpbounds-seconds", "1200",
                        str(tmp_path)], cwd=tmp_path, capture_output=True, text=True, timeout=1800)
    assert r.returncode == 1, r.stdout[-2000:]
    assert "unsound-rounding" in r.stdout and "reproducer:" in r.stdout and "stream = " in r.stdout


@pytest.mark.tier("slow")
def test_the_golden_fixture_gives_records_by_kind_and_id(tmp_path):
    (tmp_path / "test_g.py").write_text(
        "def test_g(dpbounds_golden):\n"
        "    recs = dpbounds_golden('filter_stream', 'rruv16.thm3_4.filter')\n"
        "    assert recs and all(r['id'] == 'rruv16.thm3_4.filter' for r in recs)\n"
        "    assert any(r['stream'] == 'exact_tie_below' for r in recs)\n")
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
                       cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
