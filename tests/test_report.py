"""The report builds its sections into DIR/README.md and DIR/index.html (a quick subset here; the full report is
the Quick start's first command)."""

from __future__ import annotations

import pytest

from dpbounds.outputs.report import build_report


@pytest.mark.tier("slow")
def test_report_sections_are_written_and_none_fails(tmp_path):
    sections = build_report(tmp_path, quick=True, only=["section_registry", "section_bstar", "section_golden"])
    assert [s.failed for s in sections] == [False, False, False], [s.blocks for s in sections if s.failed]
    md = (tmp_path / "README.md").read_text()
    html = (tmp_path / "index.html").read_text()
    assert "rruv16.thm5_1" in md and "<table>" in html
    assert "B* against eps_g" in md
    assert (tmp_path / "golden" / "manifest.json").exists()
