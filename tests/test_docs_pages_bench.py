"""The speed page and the README's speed lines are current and say what the run measured: docs/benchmarks.md and the
README block are what `python tools/bench_section.py page` renders from the committed run record
docs/data/bench.json; read back here as a consumer would (the tables and the README sentence parsed, not produced by
the tool's functions), every ratio is the record's two rates divided, and the README quotes ratios, never seconds."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
RECORD = json.loads((ROOT / "docs" / "data" / "bench.json").read_text(encoding="utf-8"))
PAGE = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
STALE = "stale: regenerate with `python tools/bench_section.py page`"


def _tool():
    spec = importlib.util.spec_from_file_location("bench_section", ROOT / "tools" / "bench_section.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_page_and_readme_lines_are_current():
    tool = _tool()
    assert PAGE == tool.page(RECORD), STALE
    assert tool.with_lines(README, RECORD) == README, STALE


def test_the_record_holds_each_measurement_with_both_rates_from_one_run():
    ids = [r["id"] for r in RECORD["rows"]]
    for must in ("zCDP -> eps", "RDP -> eps", "tradeoff.zcdp"):
        assert any(must in i for i in ids), (must, ids)
    points = [r["point"] or "" for r in RECORD["rows"]]
    for k in ("1", "1000", "10000", "100000"):   # the DP-SGD bracket: one step and composed at k = 1e3, 1e4, 1e5
        assert any(re.search(rf"\bk {k}\b", p) for p in points), (k, points)
    for r in RECORD["rows"]:
        if r["rate"] is not None and r["peer_rate"] is not None:
            assert abs(r["ratio"] - r["rate"] / r["peer_rate"]) <= 1e-9 * r["ratio"]
        assert r["width"] is None or 0 <= r["width"] < 1e-2


def _ratio(text: str) -> float | None:
    return None if text == "n/a" else float(text.rstrip("x"))


def test_page_ratios_are_the_rates_divided():
    """Parse the page's table: each ratio printed matches rate / peer rate from the record to its printed digits."""
    rows = [line for line in PAGE.splitlines() if line.startswith("| ") and line.count("|") == 8][1:]
    assert len(rows) == len(RECORD["rows"])
    for line, rec in zip(rows, RECORD["rows"]):
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[0] == rec["id"]
        got = _ratio(cells[4])
        if rec["rate"] is None or rec["peer_rate"] is None:
            assert got is None
            continue
        want = rec["rate"] / rec["peer_rate"]
        assert abs(got - want) <= 0.051 * want, (cells[4], want)


def test_readme_quotes_ratios_not_seconds():
    """The README block quotes ratios only, each one of the record's (a span's two ends are its extreme rows), and
    the composed DP-SGD bracket's clause at equal width spans exactly the record's equal-width rows where the peer's
    value lies inside the certified enclosure (where it does not, equal width was not reached)."""
    block = README.split("<!-- speed:", 1)[1].split("<!-- end of the speed lines -->", 1)[0]
    text = block.split("-->", 1)[1]
    assert not re.search(r"\d\s*(s|ms|seconds?)\b", text), block
    ratios = [r["ratio"] for r in RECORD["rows"] if r["ratio"] is not None]
    for q in re.findall(r"(\d+(?:\.\d+)?)x", text):
        assert any(abs(float(q) - x) <= 0.051 * x for x in ratios), (q, block)
    rows = [r for r in RECORD["rows"] if "equal width" in (r["peer"] or "") and r["ratio"] is not None]
    equal = [r["ratio"] for r in rows if r["peer_side"] == "inside"]
    m = re.search(r"at (\d+) points \([^)]*\): (\d+(?:\.\d+)?)x to (\d+(?:\.\d+)?)x dp_accounting PLDAccountant "
                  r"at equal width at the (\d+) where its value lies inside", text)
    assert m, block
    assert int(m.group(1)) == len(rows) and int(m.group(4)) == len(equal)
    assert abs(float(m.group(2)) - min(equal)) <= 0.051 * min(equal)
    assert abs(float(m.group(3)) - max(equal)) <= 0.051 * max(equal)
    for r in RECORD["rows"]:   # every measurement outside the DP-SGD bracket is quoted by name
        if "PLDAccountant" not in (r["peer"] or ""):
            assert r["id"] in text, r["id"]
    assert "docs/benchmarks.md" in block
