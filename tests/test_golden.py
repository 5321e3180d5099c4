"""Golden vectors: deterministic, self-consistent, verified by the manifest, and independently re-derivable."""

from __future__ import annotations

import json
from fractions import Fraction

import mpmath
import pytest

from dpbounds.outputs.golden import SCHEMA, load_golden, verify_manifest, write_golden

BOUNDS = ["rruv16.thm5_1", "rruv16.lemma6_4"]


@pytest.fixture(scope="module")
def golden_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("golden")
    write_golden(d, bounds=BOUNDS, grid="default", digits=30)
    return d


def test_two_runs_are_byte_identical(golden_dir, tmp_path):
    write_golden(tmp_path, bounds=BOUNDS, grid="default", digits=30)
    for p in sorted(golden_dir.rglob("*")):
        if p.is_file():
            q = tmp_path / p.relative_to(golden_dir)
            assert q.read_bytes() == p.read_bytes(), p.name


def test_manifest_lists_every_file_with_its_hash(golden_dir):
    assert verify_manifest(golden_dir) == []
    (golden_dir / "bounds" / "rruv16.thm5_1.csv").write_text("tampered\n")
    assert verify_manifest(golden_dir) == ["bounds/rruv16.thm5_1.csv"]


def test_records_follow_the_schema_and_bracket_their_value(golden_dir):
    for path in (golden_dir / "bounds").glob("*.jsonl"):
        for rec in load_golden(path):
            assert set(SCHEMA["required"]) <= set(rec)
            if rec["value"] == "inf":
                assert rec["upper"] == "inf"
                continue
            lo, hi = (Fraction(x) for x in rec["enclosure"])
            v = Fraction(rec["value"])
            assert lo <= hi
            assert abs(v - (lo + hi) / 2) <= (hi - lo) + abs(v) * Fraction(1, 10**29)
            assert rec["lower"] <= float(lo) and float(hi) <= rec["upper"]


def test_thm5_1_vectors_match_the_formula_typed_from_the_paper(golden_dir):
    """Independent derivation: RRUV16 Thm 5.1, eq. (6), typed here from the seed text, in mpmath at 60 digits."""
    ctx = mpmath.MPContext()
    ctx.dps = 60
    for rec in load_golden(golden_dir / "bounds" / "rruv16.thm5_1.jsonl"):
        p = {k: ctx.mpf(Fraction(v).numerator) / Fraction(v).denominator for k, v in rec["params"].items()}
        L = ctx.log(1 / p["delta_g"])
        x = p["eps_g"] ** 2 / (ctx.mpf("28.04") * L)
        K = p["A"] + ctx.sqrt(2 * (p["V"] + x) * (1 + ctx.log(p["V"] / x + 1) / 2) * L)
        lo, hi = (ctx.mpf(s) for s in rec["enclosure"])
        assert lo <= K <= hi, (rec["params"], K, rec["enclosure"])
        assert rec["halt"] == bool(K > p["eps_g"])


def test_streams_stop_at_first_halt(golden_dir):
    recs = load_golden(golden_dir / "streams" / "rruv16.thm5_1.jsonl")
    by_stream = {}
    for r in recs:
        by_stream.setdefault(r["stream"], []).append(r["decision"])
    for name, decisions in by_stream.items():
        assert "HALT" not in decisions[:-1], name
    assert any(d[-1] == "HALT" for d in by_stream.values())


def test_schema_is_valid_json(golden_dir):
    assert json.loads((golden_dir / "schema.json").read_text())["title"].startswith("dpbounds")
