"""Golden vectors v2: deterministic, one type per field, schema-valid (checked by jsonschema), digits backed,
streams right at the HALT boundary, consumed by the golden tutorial's example and by a JavaScript reader."""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import re
import shutil
import subprocess
import sys
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import jsonschema
import mpmath
import pytest

from dpbounds.outputs import golden as G
from dpbounds.spec import DomainError
from dpbounds.spec.rruv16 import LIFT_CAVEAT
from dpbounds.outputs.golden_check import check_golden, verify_manifest
from dpbounds.outputs.golden import KINDS, SCHEMA_DIR, load_golden, schema_text, \
    write_golden

ROOT = Path(__file__).resolve().parents[1]
#: a small set that still has every file kind: eps, rho and rho+delta filters, odometers, an exact zero
BOUNDS = ["rruv16.thm5_1", "rruv16.thm3_4.filter", "fz21.remark4_4", "wrrw23.thm1", "wrrw23.thm2",
          "rruv16.lemma6_4", "conversions.kov15.exact"]


def _run(*args):
    """The CLI in-process: (returncode, stdout, stderr) like a subprocess, without its start-up cost."""
    from dpbounds.cli import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(list(args))
        except SystemExit as e:
            rc = e.code
    return subprocess.CompletedProcess(list(args), rc, out.getvalue(), err.getvalue())


@pytest.fixture(scope="module")
def golden_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("golden") / "vectors"
    write_golden(d, bounds=BOUNDS, grid="sample", digits=30)
    return d


def _jsonl(d: Path):
    return sorted(d.rglob("*.jsonl"))


def _kind_of(d: Path, path: Path) -> str:
    manifest = json.loads((d / "manifest.json").read_text())
    return manifest["files"][str(path.relative_to(d))]["kind"]


# ------------------------------------------------------------------ determinism and atomic replacement

def test_two_runs_are_byte_identical_and_a_rerun_leaves_no_stale_file(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    args = dict(bounds=["rruv16.thm3_4.filter", "conversions.kov15.exact"], grid="sample", digits=20)
    write_golden(a, **args)
    write_golden(b, **args)
    files_a = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    assert files_a == sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    for rel in files_a:
        assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel
    (a / "bounds" / "stale.jsonl").write_text("{}\n")  # a file the manifest does not list: not provably ours
    with pytest.raises(DomainError):
        write_golden(a, bounds=["rruv16.thm3_4.filter"], grid="sample", digits=20, streams=False, conversions=False)
    assert (a / "bounds" / "stale.jsonl").exists()
    (a / "bounds" / "stale.jsonl").unlink()
    write_golden(a, bounds=["rruv16.thm3_4.filter"], grid="sample", digits=20, streams=False, conversions=False)
    assert not (a / "bounds" / "conversions.kov15.exact.jsonl").exists()
    assert verify_manifest(a) == [] and check_golden(a) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b"]  # no temporary tree left beside it


def test_a_failed_swap_keeps_the_old_complete_tree(tmp_path, monkeypatch):
    out = tmp_path / "v"
    write_golden(out, bounds=["rruv16.thm3_4.filter"], grid="sample", digits=20, streams=False, conversions=False)
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    real_rename = os.rename

    def failing_rename(src, dst):  # the new tree cannot be moved in (a crash between the two renames)
        if ".golden-new-" in str(src):
            raise OSError(28, "No space left on device")
        return real_rename(src, dst)
    monkeypatch.setattr(G.os, "rename", failing_rename)
    with pytest.raises(G.spec.DomainError):
        write_golden(out, bounds=["fz21.remark4_4"], grid="sample", digits=20, streams=False, conversions=False)
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["v"]


def test_out_never_touches_a_users_files_beside_the_target(tmp_path):
    """Issue 25: `golden --out D/v2` removed a user's directory D/.v2.golden-mine-999999/ (a dead pid's name)."""
    out = tmp_path / "v2"
    mine = [tmp_path / ".v2.golden-mine-999999", tmp_path / ".v2.golden-old-999999999",
            tmp_path / ".v2.golden-new-1"]
    for d in mine:
        d.mkdir()
        (d / "notes.txt").write_text("precious")
    for _ in range(2):  # a new target, then a replacement
        write_golden(out, bounds=["rruv16.thm3_4.filter"], grid="sample", digits=20, streams=False,
                     conversions=False)
    assert all((d / "notes.txt").read_text() == "precious" for d in mine)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["v2"] + [d.name for d in mine])


@pytest.mark.parametrize("sub", ["spec", "proofs_check"])
def test_out_inside_the_installed_spec_or_proofs_check_is_refused(tmp_path, sub):
    """Issue 25: only reference/ was guarded; an editable install maps dpbounds.spec and .proofs_check elsewhere."""
    import dpbounds.proofs_check as pc
    pkg = Path((G.spec if sub == "spec" else pc).__file__).resolve().parent
    target = pkg / "golden-test-out"
    with pytest.raises(G.spec.DomainError, match="outside the installed dpbounds package"):
        write_golden(target, bounds=["rruv16.thm3_4.filter"], grid="sample", digits=20)
    assert not target.exists()


def test_out_refuses_a_directory_that_is_not_a_golden_tree_a_file_and_a_symlink(tmp_path):
    other = tmp_path / "home"
    other.mkdir()
    (other / "thesis.tex").write_text("precious")
    link = tmp_path / "link"
    link.symlink_to(other)
    file = tmp_path / "file"
    file.write_text("x")
    inside = Path(G.__file__).resolve().parent / "golden-out"
    for target in (other, link, file, "", inside):
        r = _run("golden", "--out", str(target), "--bounds", "rruv16.thm3_4.filter", "--grid", "sample",
                 "--no-streams", "--no-conversions")
        assert r.returncode == 2, (target, r.stderr)
        assert r.stderr.count("\n") == 1 and "--out" in r.stderr
    assert (other / "thesis.tex").read_text() == "precious" and not inside.exists()


# ------------------------------------------------------------------ schemas and types

@pytest.mark.tier("slow")
def test_every_record_validates_against_the_schema_of_its_kind(golden_dir):
    kinds_seen = set()
    for kind in KINDS:
        schema = json.loads((golden_dir / "schemas" / f"{kind}.schema.json").read_text())
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["$id"] == f"urn:dpbounds:golden:2:{kind}"
    jsonschema.Draft202012Validator(json.loads((golden_dir / "schemas/manifest.schema.json").read_text())).validate(
        json.loads((golden_dir / "manifest.json").read_text()))
    for path in _jsonl(golden_dir):
        kind = _kind_of(golden_dir, path)
        kinds_seen.add(kind)
        validator = jsonschema.Draft202012Validator(
            json.loads((golden_dir / "schemas" / f"{kind}.schema.json").read_text()))
        for rec in load_golden(path):
            validator.validate(rec)
            assert G.validate(G.SCHEMAS[kind], rec) == []  # the built-in validator of --check agrees
    assert kinds_seen == set(KINDS) - {"manifest"}


def test_the_builtin_validator_rejects_what_jsonschema_rejects():
    rec = {"kind": "bstar"}
    for bad in ({"upper": "inf"}, {"lo": "1e-5"}, {"digits": True}, {"extra": 1}):
        schema = G.SCHEMAS["conversion" if "upper" in bad or "lo" in bad else "bstar"]
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({**rec, **bad}, schema)
        assert G.validate(schema, {**rec, **bad})


def test_committed_schemas_are_the_generated_ones():
    for kind in KINDS:
        assert (SCHEMA_DIR / f"{kind}.schema.json").read_text() == schema_text(kind), kind


def test_no_field_changes_type_within_a_kind(golden_dir):
    types: dict[str, dict[str, set]] = defaultdict(lambda: defaultdict(set))
    for path in _jsonl(golden_dir):
        for rec in load_golden(path):
            for k, v in rec.items():
                types[rec["kind"]][k].add("number" if isinstance(v, (int, float)) and not isinstance(v, bool)
                                          and k in ("upper", "lower") else type(v).__name__)
    for kind, fields in types.items():
        for k, ts in fields.items():
            assert len(ts - {"NoneType"}) <= 1, (kind, k, ts)


def test_csv_twins_have_lower_case_booleans_and_the_same_records(golden_dir):
    import csv
    for path in _jsonl(golden_dir):
        recs = load_golden(path)
        with open(path.with_suffix(".csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        assert len(rows) == len(recs)
        for rec, row in zip(recs, rows):
            for k, v in rec.items():
                if isinstance(v, bool):
                    assert row[k] == ("true" if v else "false")
                elif v is None:
                    assert row[k] == ""
                elif isinstance(v, dict):
                    assert all(row[f"{k}.{n}"] == x for n, x in v.items())
                elif isinstance(v, float):
                    assert float(row[k]) == v
                else:
                    assert row[k] == str(v)


def test_no_duplicate_records(golden_dir):
    for path in _jsonl(golden_dir):
        lines = path.read_text().splitlines()
        assert len(lines) == len(set(lines)), path.name


def test_every_file_names_versions_and_source(golden_dir):
    from dpbounds import __version__
    for path in _jsonl(golden_dir):
        for rec in load_golden(path):
            assert rec["dpbounds_version"] == __version__ and re.fullmatch("[0-9a-f]{64}", rec["spec_version"])
            assert re.match(r"\[(RRUV16|FZ21|WRRW23|KOV15|BS16|CKS20|BW18|Mir17|HRMS2[01]|Nikolov17|ST22|LEC21|KTH23)\] ",
                            rec["source"]), rec["source"]
            assert "arXiv:" in rec["source"] or "not on arXiv" in rec["source"], rec["source"]


def test_caveated_entries_carry_their_caveat_and_the_cli_warns_once_per_entry(tmp_path):
    """An as-stated Lemma 3.3 lift rests on a refuted constant: its records say so (naming the corrected variant),
    its corrected twin's records carry an empty caveat, and `dpbounds golden` warns once per entry (it printed each
    warning twice: once from the evaluator, once from the grid builder)."""
    ids = "rruv16.lemma3_3.filter.thm5_1,rruv16.lemma3_3.filter.thm5_1.corrected"
    r = _run("golden", "--out", str(tmp_path / "g"), "--bounds", ids, "--grid", "sample", "--no-conversions")
    assert r.returncode == 0, r.stderr
    warned = [ln for ln in r.stderr.splitlines() if ln.startswith("dpbounds: warning:")]
    assert warned == [f"dpbounds: warning: rruv16.lemma3_3.filter.thm5_1: {LIFT_CAVEAT}"], warned
    seen = set()
    for path in _jsonl(tmp_path / "g"):
        for rec in load_golden(path):
            seen.add(rec["id"])
            if rec["id"].endswith(".corrected"):
                assert rec["caveat"] == ""
            else:
                assert rec["caveat"] == LIFT_CAVEAT and "corrected" in rec["caveat"]
    assert seen == set(ids.split(","))


@pytest.mark.tier("slow")
def test_every_filter_budget_in_streams_and_bounds_is_one_the_library_certifies(tmp_path):
    """A stream's budget must be one dpbounds' own filter accepts: B above the certified B*(eps_g, delta) of a valid
    conversion certifies nothing (before, fz21.thm4_7 and wrrw23.thm1.cks20 streams ran at B = 0.5 where B* is
    0.0244, st22/kth23 at B = 0.05 where it is 0.0280: a peer copying them would have validated an over-budget
    filter).  Checked by building each record's filter independently."""
    from dpbounds.accounting.accountants import make_filter
    ids = ["fz21.thm4_7", "wrrw23.thm1.cks20", "st22.filter", "kth23.individual_filter"]
    write_golden(tmp_path / "g", bounds=ids, grid="default", digits=20, conversions=False)
    from dpbounds import spec
    budgets = {}
    for path in _jsonl(tmp_path / "g"):
        for rec in load_golden(path):
            if rec["kind"] == "filter_stream":
                budgets.setdefault(rec["id"], set()).add(json.dumps(rec["budget"], sort_keys=True))
            elif rec["kind"] == "bound":  # a filter's bound records too: their halt is a decision at that budget
                b = {k: v for k, v in rec["params"].items() if k in spec.get(rec["id"]).params}
                budgets.setdefault(rec["id"], set()).add(json.dumps(b, sort_keys=True))
    assert set(budgets) == set(ids)
    for fid, bs in budgets.items():
        assert len(bs) >= 2, (fid, bs)
        for b in bs:
            make_filter(fid, **json.loads(b))  # raises DomainError for a B above the certified B*


# ------------------------------------------------------------------ digits

def _half_ulp(value: Fraction, digits: int) -> Fraction:
    e = math.floor(mpmath.log10(abs(mpmath.mpf(value.numerator) / value.denominator))) if value else 0
    return Fraction(10) ** (e - digits + 1) / 2


def test_values_show_only_digits_their_enclosure_backs(golden_dir):
    n = 0
    for path in _jsonl(golden_dir):
        for rec in load_golden(path):
            if "value" not in rec or rec["infinite"]:
                continue
            v, lo, hi = Fraction(rec["value"]), Fraction(rec["lo"]), Fraction(rec["hi"])
            if rec["exact"]:
                assert lo == v == hi
                continue
            h = _half_ulp(v, rec["digits"])
            # every point of [lo, hi] rounds to v at `digits` digits: the whole enclosure within half an ulp
            assert v - h <= lo and hi <= v + h, rec
            n += 1
    assert n > 100


def test_kov15_exact_zero_is_reported_exactly(golden_dir):
    recs = load_golden(golden_dir / "bounds" / "conversions.kov15.exact.jsonl")
    zero = [r for r in recs if r["params"] == {"eps": "0.1", "eps_g": "1", "k": "10"}]
    assert zero and zero[0]["value"] == "0" and zero[0]["exact"] and zero[0]["upper"] == 0.0
    r = _run("eval", "conversions.kov15.exact", "--param", "eps_g=1", "--param", "eps=0.1", "--param", "k=10",
             "--digits", "20")
    assert r.returncode == 0 and r.stdout.splitlines()[0].endswith("= 0"), r.stdout


def test_eval_refuses_digits_that_nothing_backs():
    # k = 100 > the 32 summands the spec is expanded to: the value (exactly 0) is not decided, the enclosure
    # [-tiny, tiny] backs no digit
    r = _run("eval", "conversions.kov15.exact", "--param", "eps_g=1", "--param", "eps=0.01", "--param", "k=100",
             "--digits", "20")
    assert r.returncode == 2 and "digits" in r.stderr and r.stderr.count("\n") == 1, r.stderr


def test_bstar_digits_are_backed_or_refused():
    r = _run("bstar", "--eps-g", "1", "--delta-g", "1e-6", "--conversion", "bs16", "--digits", "50",
             "--format", "json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    # independent: BS16's B* solves rho + 2 sqrt(rho L) = eps_g, i.e. sqrt(rho) = sqrt(L + eps_g) - sqrt(L)
    ctx = mpmath.MPContext()
    ctx.dps = 90
    L = ctx.log(10**6)
    b = (ctx.sqrt(L + 1) - ctx.sqrt(L)) ** 2
    lo, hi = (ctx.mpf(x) for x in out["bracket"])
    assert lo <= b <= hi
    truncated = ctx.nstr(b, 60, strip_zeros=False)[:len(out["b_star"])]
    assert out["b_star"] == truncated, (out["b_star"], truncated)
    # cks20's certified bracket narrows on request (issue 25): 40 digits are certified; out-of-range counts refused
    r = _run("bstar", "--eps-g", "1", "--delta-g", "1e-6", "--conversion", "cks20", "--digits", "40")
    assert r.returncode == 0, r.stderr
    for digits in ("0", "5000"):
        r = _run("bstar", "--eps-g", "1", "--delta-g", "1e-6", "--conversion", "cks20", "--digits", digits)
        assert r.returncode == 2 and "--digits" in r.stderr and r.stderr.count("\n") == 1, r.stderr


def test_bstar_records_are_never_overstated(golden_dir):
    ctx = mpmath.MPContext()
    ctx.dps = 60
    for rec in load_golden(golden_dir / "bstar" / "bs16.jsonl"):
        L = ctx.log(1 / ctx.mpf(rec["params"]["delta_g"]))
        b = (ctx.sqrt(L + ctx.mpf(rec["params"]["eps_g"])) - ctx.sqrt(L)) ** 2
        assert ctx.mpf(rec["b_star"]) <= b and ctx.mpf(rec["lo"]) <= b <= ctx.mpf(rec["hi"])


# ------------------------------------------------------------------ streams

def _streams(path: Path):
    by = defaultdict(list)
    for r in load_golden(path):
        by[(json.dumps(r.get("budget", r.get("params")), sort_keys=True), r["stream"])].append(r)
    return by


def test_filter_streams_stop_at_the_first_halt_and_match_an_exact_rule(golden_dir):
    """Independent: rruv16.thm3_4.filter halts iff sum eps > eps_g; fz21.remark4_4 iff sum rho > B; wrrw23.thm1
    iff sum delta > delta_g or sum rho > B (the spec's HALT conditions, summed here in Fractions)."""
    rules = {"rruv16.thm3_4.filter": lambda b, s: s["eps"] > b["eps_g"],
             "fz21.remark4_4": lambda b, s: s["rho"] > b["B"],
             "wrrw23.thm1": lambda b, s: s["delta"] > b["delta_g"] or s["rho"] > b["B"]}
    for fid, rule in rules.items():
        streams = _streams(golden_dir / "streams" / f"{fid}.jsonl")
        assert {"constant", "mixed", "zeros", "tie_below", "tie_above"} <= {k[1] for k in streams}
        for (_, name), recs in streams.items():
            sums = defaultdict(Fraction)
            for i, r in enumerate(recs, 1):
                assert r["round"] == i
                for k in ("eps", "delta", "rho"):
                    if r[k] is not None:
                        sums[k] += Fraction(r[k])
                budget = {k: Fraction(v) for k, v in r["budget"].items()}
                assert r["halt"] == rule(budget, sums), (fid, name, i)
            assert not any(r["halt"] for r in recs[:-1])


def test_tie_streams_end_within_1e_15_of_the_halt_boundary(golden_dir):
    n = 0
    for fid in ("rruv16.thm5_1", "rruv16.thm3_4.filter", "fz21.remark4_4", "wrrw23.thm1", "wrrw23.thm2"):
        streams = _streams(golden_dir / "streams" / f"{fid}.jsonl")
        for (budget, name), below in streams.items():
            if not name.endswith("tie_below"):
                continue
            above = streams[(budget, name[:-len("below")] + "above")]
            assert len(below) == len(above) and not below[-1]["halt"] and above[-1]["halt"]
            for k in ("eps", "delta", "rho"):
                assert [r[k] for r in below[:-1]] == [r[k] for r in above[:-1]]
                if below[-1][k] is not None and below[-1][k] != above[-1][k]:
                    x, y = Fraction(below[-1][k]), Fraction(above[-1][k])
                    assert 0 <= x < y and y - x <= y * Fraction(1, 10**15), (fid, name, x, y)
            n += 1
    assert n >= 10


def test_delta_side_streams_halt_on_delta_and_eps_zero_rounds_appear(golden_dir):
    for fid in ("wrrw23.thm1", "wrrw23.thm2"):
        streams = _streams(golden_dir / "streams" / f"{fid}.jsonl")
        names = {k[1] for k in streams}
        assert {"delta_side", "delta_tie_below", "delta_tie_above"} <= names, names
    streams = _streams(golden_dir / "streams" / "rruv16.thm3_4.filter.jsonl")
    zeros = next(v for k, v in streams.items() if k[1] == "zeros")
    assert any(r["eps"] == "0" and not r["halt"] for r in zeros)


def test_odometer_streams_carry_backed_values(golden_dir):
    streams = _streams(golden_dir / "streams" / "rruv16.lemma6_4.jsonl")
    assert {"constant", "mixed", "zeros"} <= {k[1] for k in streams}
    for recs in streams.values():
        assert [r["round"] for r in recs] == list(range(1, len(recs) + 1))


# ------------------------------------------------------------------ --check

def test_check_verifies_detects_tampering_and_refuses_a_non_golden_directory(golden_dir, tmp_path):
    assert _run("golden", "--check", str(golden_dir)).returncode == 0
    copy = tmp_path / "copy"
    shutil.copytree(golden_dir, copy)
    p = copy / "bounds" / "rruv16.thm3_4.filter.jsonl"
    text = p.read_text()
    assert '"infinite":false' in text
    p.write_text(text.replace('"infinite":false', '"infinite":"no"', 1))
    r = _run("golden", "--check", str(copy))
    assert r.returncode == 1 and "rruv16.thm3_4.filter.jsonl" in r.stdout
    (tmp_path / "empty").mkdir()
    for bad in (tmp_path / "empty", tmp_path / "missing"):
        r = _run("golden", "--check", str(bad))
        assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr


# ------------------------------------------------------------------ consumers

def _docs_consumer() -> str:
    text = (ROOT / "docs" / "tutorials" / "golden.md").read_text()
    section = text.split("## A consumer, run by the test suite as printed", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_docs_consumer_example_runs_as_printed_on_every_file(golden_dir, tmp_path):
    code = _docs_consumer()
    assert 'pathlib.Path("vectors")' in code
    script = tmp_path / "consumer.py"
    script.write_text(code)
    r = subprocess.run([sys.executable, str(script)], cwd=golden_dir.parent, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    n = sum(len(load_golden(p)) for p in _jsonl(golden_dir))
    assert f"checked {n} records" in r.stdout


def _node():
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("node is not installed; CI must install it (Debian package nodejs)")
        pytest.skip("node is not installed")
    return node


@pytest.mark.tier("browser")
def test_javascript_consumer_reads_every_file_kind(golden_dir):
    r = subprocess.run([_node(), str(ROOT / "tests/consumers/golden_consumer.mjs"), str(golden_dir)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert "bound, bstar, conversion, filter_stream, odometer_stream: all invariants hold" in r.stdout


@pytest.mark.tier("browser")
def test_javascript_consumer_catches_a_field_that_changes_type(golden_dir, tmp_path):
    node = _node()
    copy = tmp_path / "copy"
    shutil.copytree(golden_dir, copy)
    p = copy / "bounds" / "rruv16.thm5_1.jsonl"
    lines = p.read_text().splitlines()
    rec = json.loads(lines[-1])
    rec["upper"] = "inf"  # the v1 bug: a string among numbers
    lines[-1] = json.dumps(rec, sort_keys=True, separators=(",", ":"))
    p.write_text("\n".join(lines) + "\n")
    r = subprocess.run([node, str(ROOT / "tests/consumers/golden_consumer.mjs"), str(copy)], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 1
    assert "upper is string" in r.stdout and "sha256" in r.stdout


@pytest.mark.skipif(os.environ.get("DPBOUNDS_SLOW") != "1", reason="the full default grid: set DPBOUNDS_SLOW=1")
def test_full_default_grid_checks_and_is_consumed(tmp_path):
    d = tmp_path / "vectors"
    r = _run("golden", "--out", str(d))
    assert r.returncode == 0, r.stderr
    assert _run("golden", "--check", str(d)).returncode == 0
    if shutil.which("node"):
        assert subprocess.run(["node", str(ROOT / "tests/consumers/golden_consumer.mjs"), str(d)],
                              capture_output=True, timeout=600).returncode == 0
