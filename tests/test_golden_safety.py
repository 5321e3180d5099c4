"""golden --out replaces only a tree it can prove it wrote; golden --check reads files a chunk at a time, checks
every record's invariants and recomputes every borderline record besides its seeded sample (--full: all)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from decimal import Decimal

import pytest

from dpbounds.outputs.golden import write_golden
from dpbounds.outputs.golden_check import borderline, check_golden

PY = sys.executable
BOUNDS = ["rruv16.thm3_4.odometer", "rruv16.thm5_1"]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    d = tmp_path_factory.mktemp("golden") / "v"
    write_golden(d, bounds=BOUNDS, grid="sample", digits=20, conversions=False)
    return d


@pytest.fixture
def tree(pristine, tmp_path):
    d = tmp_path / "v"
    shutil.copytree(pristine, d)
    return d


def _golden(*args, timeout=600):
    return subprocess.run([PY, "-m", "dpbounds", "golden", *args], capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)


def _rewrite_record(d, rel, i, change):
    """Edit record i of a file and record the new hash in the manifest, as a forger would."""
    lines = (d / rel).read_text().splitlines()
    rec = json.loads(lines[i])
    change(rec)
    lines[i] = json.dumps(rec, sort_keys=True, separators=(",", ":"))
    data = ("\n".join(lines) + "\n").encode()
    (d / rel).write_bytes(data)
    m = json.loads((d / "manifest.json").read_text())
    m["files"][rel]["sha256"] = hashlib.sha256(data).hexdigest()
    csv = rel[:-len(".jsonl")] + ".csv"
    from dpbounds.outputs.golden import csv_text
    recs = [json.loads(x) for x in data.decode().splitlines() if x.strip()]
    (d / csv).write_text(csv_text(recs), newline="")
    m["files"][csv]["sha256"] = hashlib.sha256((d / csv).read_bytes()).hexdigest()
    (d / "manifest.json").write_text(json.dumps(m, indent=2, sort_keys=True) + "\n")


# ------------------------------------------------------------------ --out: never over what it did not write

def test_a_folder_whose_manifest_only_names_the_generator_is_not_replaced(tmp_path):
    d = tmp_path / "thesis"
    d.mkdir()
    (d / "thesis.tex").write_text("my thesis")
    (d / "manifest.json").write_text(json.dumps({"generator": "dpbounds.golden"}))
    r = _golden("--out", str(d), "--bounds", "rruv16.thm3_4.odometer", "--grid", "sample", "--no-streams",
                "--no-conversions")
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert (d / "thesis.tex").read_text() == "my thesis"


def test_a_golden_tree_with_an_extra_file_is_not_replaced(tree):
    (tree / "bounds" / "notes.txt").write_text("mine")
    r = _golden("--out", str(tree), "--bounds", "rruv16.thm3_4.odometer", "--grid", "sample", "--no-streams",
                "--no-conversions")
    assert r.returncode == 2, r.stderr
    assert (tree / "bounds" / "notes.txt").read_text() == "mine"


def test_a_tree_it_wrote_is_replaced(tree):
    r = _golden("--out", str(tree), "--bounds", "rruv16.thm3_4.odometer", "--grid", "sample", "--no-streams",
                "--no-conversions")
    assert r.returncode == 0, r.stderr
    assert sorted(json.loads((tree / "manifest.json").read_text())["files"])[0].startswith("bounds/rruv16.thm3_4")


@pytest.mark.parametrize("kind", ["fifo", "dev_zero", "symlink_elsewhere"])
def test_a_special_manifest_is_refused_without_waiting_or_reading(tmp_path, kind):
    d = tmp_path / "out"
    d.mkdir()
    if kind == "fifo":
        os.mkfifo(d / "manifest.json")
    elif kind == "dev_zero":
        os.symlink("/dev/zero", d / "manifest.json")
    else:
        (tmp_path / "real.json").write_text("{}")
        os.symlink(tmp_path / "real.json", d / "manifest.json")
    r = _golden("--out", str(d), "--bounds", "rruv16.thm3_4.odometer", "--grid", "sample", "--no-streams",
                "--no-conversions", timeout=120)
    assert r.returncode == 2 and "internal error" not in r.stderr and r.stderr.count("\n") == 1, r.stderr
    assert os.path.lexists(d / "manifest.json")


def test_repeated_bounds_write_a_tree_that_verifies(tmp_path):
    d = tmp_path / "v"
    write_golden(d, bounds=["rruv16.thm3_4.odometer", "rruv16.thm3_4.odometer"], grid="sample", digits=20,
                 streams=False, conversions=False)
    assert check_golden(d) == []


# ------------------------------------------------------------------ --check: invariants, borderline, --full

def test_a_finite_bound_marked_infinite_is_found_outside_the_sample(tree):
    rel = "bounds/rruv16.thm5_1.jsonl"

    def forge(rec):
        rec.update(infinite=True, value=None, lo=None, hi=None, upper=None, lower=None, digits=0, exact=False)
    _rewrite_record(tree, rel, 0, forge)
    probs = check_golden(tree, sample_rate=0.0, sample_min=0)  # no sampled record: only the borderline ones
    assert any("infinite" in p and "recomputed" in p for p in probs), probs


def test_a_halved_odometer_value_is_found_outside_the_sample(tree):
    rel = "streams/rruv16.thm3_4.odometer.jsonl"
    lines = (tree / rel).read_text().splitlines()
    i = len(lines) // 2  # a middle round: neither the first nor the last of its stream

    def halve(rec):
        for k in ("value", "lo", "hi"):
            rec[k] = str(Decimal(rec[k]) / 2)
        rec["value"] = f"{Decimal(rec['value']):.{rec['digits'] - 1}E}"
        rec["lower"] = rec["lower"] / 2
        rec["upper"] = rec["upper"] / 2
    _rewrite_record(tree, rel, i, halve)
    probs = check_golden(tree, sample_rate=0.0, sample_min=0)
    assert any("recomputed" in p for p in probs), probs


def test_full_recomputes_every_record_and_the_pristine_tree_verifies(pristine):
    assert check_golden(pristine, full=True) == []
    r = _golden("--check", str(pristine), "--full")
    assert r.returncode == 0, (r.stdout[-500:], r.stderr)


def test_borderline_flags_claims_that_a_sample_could_miss():
    assert borderline({"infinite": True}, "bound") == "infinite"
    assert borderline({"infinite": False, "exact": True}, "bound") == "exact"
    near = {"infinite": False, "exact": False, "value": "1.5", "digits": 2, "lo": "1.4500001", "hi": "1.5"}
    assert borderline(near, "bound") == "near a rounding edge"
    mid = {"infinite": False, "exact": False, "value": "1.5", "digits": 2, "lo": "1.49", "hi": "1.51"}
    assert borderline(mid, "bound") == ""


def _peak_kb_of_check(d) -> int:
    code = ("import resource, sys\nfrom dpbounds.outputs.golden_check import check_golden\n"
            f"probs = check_golden({str(d)!r}, sample_rate=0.0, sample_min=0)\n"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n")
    r = subprocess.run([PY, "-c", code], capture_output=True, text=True, timeout=1200)
    assert r.returncode == 0, r.stderr[-1000:]
    return int(r.stdout.strip().splitlines()[-1])


@pytest.mark.tier("slow")
def test_check_memory_does_not_grow_with_the_tree(pristine, tree):
    """A tree made large by a long (valid) bound file: the check's peak memory is that of the small tree's check
    plus far less than the file (it held every record: +200 MB for this 60 MB file)."""
    rel = "bounds/rruv16.thm5_1.jsonl"
    line = (tree / rel).read_text().splitlines()[0]
    n = 60_000
    data = ("\n".join([line] * n) + "\n").encode()
    (tree / rel).write_bytes(data)
    m = json.loads((tree / "manifest.json").read_text())
    m["files"][rel].update(sha256=hashlib.sha256(data).hexdigest(), records=n)
    m["records"] += n - 1
    (tree / "manifest.json").write_text(json.dumps(m, indent=2, sort_keys=True) + "\n")
    small, large = _peak_kb_of_check(pristine), _peak_kb_of_check(tree)
    assert (large - small) * 1024 < 30 << 20, (small, large, len(data))


# ------------------------------------------------------------------ --check: where a record sits, stream length

def _write_file(d, rel, lines):
    """Replace a JSONL file and its CSV twin, re-hashed in the manifest, as a forger would."""
    from dpbounds.outputs.golden import csv_text
    data = "".join(x + "\n" for x in lines).encode()
    (d / rel).write_bytes(data)
    m = json.loads((d / "manifest.json").read_text())
    delta = len(lines) - m["files"][rel]["records"]
    m["files"][rel].update(sha256=hashlib.sha256(data).hexdigest(), records=len(lines))
    m["records"] += delta
    csv = rel[:-len(".jsonl")] + ".csv"
    (d / csv).write_text(csv_text([json.loads(x) for x in lines]), newline="")
    m["files"][csv]["sha256"] = hashlib.sha256((d / csv).read_bytes()).hexdigest()
    (d / "manifest.json").write_text(json.dumps(m, indent=2, sort_keys=True) + "\n")


def test_a_record_filed_under_another_entry_or_with_a_foreign_parameter_is_found_even_with_full(tree):
    rel = "bounds/rruv16.thm5_1.jsonl"
    other = (tree / "bounds/rruv16.thm3_4.odometer.jsonl").read_text().splitlines()
    _write_file(tree, rel, other)  # a self-consistent record of another entry, under this entry's file name
    probs = check_golden(tree, full=True)
    assert any("a record of rruv16.thm3_4.odometer in the file of rruv16.thm5_1" in p for p in probs), probs


def test_a_parameter_the_entry_does_not_take_is_found(tree):
    _rewrite_record(tree, "bounds/rruv16.thm5_1.jsonl", 0, lambda r: r["params"].update(zzz="1"))
    probs = check_golden(tree, full=True)  # was verified: the recomputation ignored the unknown name
    assert any("parameter zzz is not one of rruv16.thm5_1's" in p for p in probs), probs


def test_two_records_at_the_same_parameters_are_found(tree):
    rel = "bounds/rruv16.thm5_1.jsonl"
    (line,) = (tree / rel).read_text().splitlines()
    rec = json.loads(line)
    rec["caveat"] = "x"  # a second, different line at the same point (exact duplicates are dropped on writing)
    _write_file(tree, rel, [line, json.dumps(rec, sort_keys=True, separators=(",", ":"))])
    probs = check_golden(tree, sample_rate=0.0, sample_min=0)
    assert any("a second record at the same parameters" in p for p in probs), probs


def test_a_stream_longer_than_the_generator_writes_is_found_and_not_held(tree):
    from dpbounds.outputs.golden import MAX_ROUNDS
    rel = "streams/rruv16.thm5_1.jsonl"
    first = json.loads((tree / rel).read_text().splitlines()[0])
    first.update(halt=False)
    lines = []
    for i in range(1, MAX_ROUNDS + 3):
        first["round"] = i
        lines.append(json.dumps(first, sort_keys=True, separators=(",", ":")))
    _write_file(tree, rel, lines)
    probs = check_golden(tree, sample_rate=0.0, sample_min=0)
    assert any(f"longer than the {MAX_ROUNDS} rounds" in p for p in probs), probs


def test_a_manifest_listing_files_golden_never_writes_proves_nothing(tmp_path):
    d = tmp_path / "thesis"
    d.mkdir()
    (d / "thesis.tex").write_text("years of work")
    (d / "manifest.json").write_text(json.dumps({"format": 2, "generator": "dpbounds.golden/2",
                                                 "files": {"thesis.tex": {}}}))
    r = _golden("--out", str(d), "--bounds", "rruv16.thm5_1", "--grid", "sample", "--no-streams",
                "--no-conversions")
    assert r.returncode == 2 and (d / "thesis.tex").read_text() == "years of work", (r.returncode, r.stderr)
