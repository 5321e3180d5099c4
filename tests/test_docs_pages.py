"""The README is a front door (at most 250 lines, every link resolves, its Quick start test command is what CI
runs), and the generated docs pages are current: docs/audit-findings.md and the README's findings summary are what
`python tools/audit_section.py page` renders from the committed run record docs/data/audit.json."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _tool():
    spec = importlib.util.spec_from_file_location("audit_section", ROOT / "tools" / "audit_section.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_readme_is_at_most_250_lines():
    assert len(README.splitlines()) <= 250


def test_readme_quick_start_is_two_commands_and_ci_runs_the_test_command():
    block = README.split("## Quick start", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    commands = block.strip().splitlines()
    assert commands == ["pip install '.[report]' && dpbounds report",
                        "pip install '.[test]' && python -m pytest -q"], commands
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert any(line.strip() == commands[1] for line in ci.splitlines()), "CI must run the README's test command"
    assert "--all-tiers" in ci


def test_every_relative_link_of_the_readme_and_the_docs_resolves():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    generated = {"cli.md", "changelog.md"}  # written by docs/hooks.py when the site is built
    bad = []
    for page in pages:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            path = target.split("#", 1)[0]
            if path.startswith("sources/") or path.startswith("../sources/") or Path(path).name in generated:
                continue
            if not (page.parent / path).exists():
                bad.append(f"{page.relative_to(ROOT)}: {target}")
    assert not bad, bad


def test_audit_findings_page_and_readme_summary_are_current():
    tool = _tool()
    rec = json.loads((ROOT / "docs" / "data" / "audit.json").read_text(encoding="utf-8"))
    stale = "stale: regenerate with `python tools/audit_section.py page`"
    assert (ROOT / "docs" / "audit-findings.md").read_text(encoding="utf-8") == tool.page(rec), stale
    assert tool.with_summary(README, rec) == README, stale


def test_audit_page_shows_every_finding_with_its_reproducer_and_the_table_adds_up():
    tool = _tool()
    rec = json.loads((ROOT / "docs" / "data" / "audit.json").read_text(encoding="utf-8"))
    text = tool.page(rec)
    assert rec["findings"], "the record holds the findings the page shows"
    for i, f in enumerate(tool.graded(rec["findings"]), 1):  # graded: claim false first, by relative gap
        line = text.split(f"\n{i}. [", 1)[1].split("\n", 1)[0]
        assert f["peer"] in line and f"`{f['function']}`" in line, (i, f["function"])
    assert text.count("<summary>reproducer</summary>") == sum(bool(f["worst"].get("reproducer"))
                                                             for f in rec["findings"])
    ran = [p for p in rec["peers"] if p["status"] == "ran"]
    total = re.search(r"^\| total \((\d+) peers\) \| \| (\d+) \|", text, re.M)
    assert total and int(total.group(1)) == len(ran) and int(total.group(2)) == sum(p["comparisons"] for p in ran)
    assert sum(rec["summary"].values()) == sum(p["comparisons"] for p in ran)
    # the README summary names the first findings and links the page
    for f in tool.graded(rec["findings"])[:3]:
        assert f"`{f['function']}`" in README
    assert "(docs/audit-findings.md)" in README
