"""`golden --check` and `load_golden` do not trust the tree they read (issue 25): hostile trees built in tmp dirs.

Unusable input (a manifest that is a FIFO, a device, a symlink, too large, not JSON; names outside the tree;
symlinks, FIFOs in the tree) is exit 2 with one line; a tree whose files match their hashes but whose records are
wrong (a value outside its enclosure, lower > upper, a flipped HALT, a schema that is not dpbounds' own) is exit 1
with the problem named -- never "internal error", never a hang.  The pristine tree verifies (a check that fires on
a correct tree is no check)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dpbounds.outputs.golden import write_golden
from dpbounds.outputs.golden_check import BadGoldenInput, check_golden
from dpbounds.outputs.golden_load import GoldenInputError, load_golden

PY = sys.executable
BOUNDS = ["rruv16.thm3_4.filter", "rruv16.thm3_4.odometer", "rruv16.thm5_1"]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    d = tmp_path_factory.mktemp("golden") / "v"
    write_golden(d, bounds=BOUNDS, grid="sample", digits=20)
    return d


@pytest.fixture
def tree(pristine, tmp_path):
    d = tmp_path / "v"
    shutil.copytree(pristine, d)
    return d


def _cli_check(d, timeout=300):
    return subprocess.run([PY, "-m", "dpbounds", "golden", "--check", str(d)], capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def _exit_2(r):
    assert r.returncode == 2, (r.returncode, r.stdout[-500:], r.stderr[-500:])
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dpbounds: error:") and "internal error" not in r.stderr, r.stderr
    return lines[0]


def _manifest(d):
    return json.loads((d / "manifest.json").read_text())


def _rewrite(d, rel, data: bytes, update_hash=True):
    """Replace a file of the tree and (by default) record its new hash in the manifest, as a forger would."""
    (d / rel).write_bytes(data)
    if update_hash:
        m = _manifest(d)
        m["files"][rel]["sha256"] = hashlib.sha256(data).hexdigest()
        (d / "manifest.json").write_text(json.dumps(m, indent=2, sort_keys=True) + "\n")


def _edit_record(d, rel, i, **changes):
    lines = (d / rel).read_text().splitlines()
    rec = json.loads(lines[i])
    rec.update(changes)
    lines[i] = json.dumps(rec, sort_keys=True, separators=(",", ":"))
    _rewrite(d, rel, ("\n".join(lines) + "\n").encode())


@pytest.mark.tier("slow")
def test_the_pristine_tree_verifies_with_every_record_recomputed(pristine):
    assert check_golden(pristine) == []
    assert check_golden(pristine, sample_rate=1.0) == []  # the invariants and the reference agree on every record
    r = _cli_check(pristine)
    assert r.returncode == 0 and r.stdout.strip().endswith("verified"), r.stdout + r.stderr


# ------------------------------------------------------------------ unusable input: exit 2, one line

def test_a_fifo_manifest_is_refused_without_waiting(tree):
    (tree / "manifest.json").unlink()
    os.mkfifo(tree / "manifest.json")
    assert "FIFO" in _exit_2(_cli_check(tree, timeout=120))  # the command line: one line, exit 2, no hang


@pytest.mark.parametrize("target", ["/dev/zero", "elsewhere"])
def test_a_symlinked_manifest_is_refused(tree, tmp_path, target):
    real = tmp_path / "elsewhere.json"
    shutil.copy(tree / "manifest.json", real)
    (tree / "manifest.json").unlink()
    (tree / "manifest.json").symlink_to(real if target == "elsewhere" else target)
    with pytest.raises(BadGoldenInput, match="symbolic link"):
        check_golden(tree)


def test_an_oversized_manifest_is_refused_unread(tree):
    with open(tree / "manifest.json", "ab") as f:
        f.truncate(64 << 20)  # a sparse 64 MiB file: refused from its size
    with pytest.raises(BadGoldenInput, match="bytes"):
        check_golden(tree)


@pytest.mark.parametrize("bad", ["../outside.jsonl", "/etc/passwd", "bounds/../../x.jsonl", "bounds\\..\\x.csv",
                                 "extra/thing.jsonl"])
def test_manifest_entries_outside_the_tree_are_refused(tree, bad):
    (tree.parent / "outside.jsonl").write_text("{}\n")
    m = _manifest(tree)
    m["files"][bad] = {"sha256": hashlib.sha256(b"{}\n").hexdigest(), "kind": "bound", "records": 1}
    (tree / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(BadGoldenInput, match="not a file of a golden tree"):
        check_golden(tree)


def test_a_symlink_in_the_tree_escaping_it_is_refused(tree, tmp_path):
    (tmp_path / "secret.jsonl").write_text("{}\n")
    rel = next(r for r in _manifest(tree)["files"] if r.startswith("bounds/") and r.endswith(".jsonl"))
    (tree / rel).unlink()
    (tree / rel).symlink_to(tmp_path / "secret.jsonl")
    with pytest.raises(BadGoldenInput, match="symbolic link"):
        check_golden(tree)


@pytest.mark.parametrize("content", [b"\xff\xfe not utf-8", b"[" * 100000 + b"]" * 100000, b"{}",
                                     b'{"format": 2, "files": {"a": 1}, "files": {}}', b"NaN"])
def test_a_malformed_manifest_is_unusable_input(tree, content):
    (tree / "manifest.json").write_bytes(content)
    with pytest.raises(BadGoldenInput):
        check_golden(tree)


# ------------------------------------------------------------------ mismatches: exit 1, named

def _first(tree, prefix):
    return next(r for r in sorted(_manifest(tree)["files"]) if r.startswith(prefix) and r.endswith(".jsonl"))


def _problems(tree):
    probs = check_golden(tree)
    assert probs
    return "\n".join(probs)


def _problems_cli(tree):
    r = _cli_check(tree)
    assert r.returncode == 1, (r.returncode, r.stdout[-800:], r.stderr[-800:])
    assert "internal error" not in r.stderr and r.stderr.count("\n") <= 1, r.stderr
    return r.stdout


def test_a_catastrophic_pattern_in_the_trees_schema_is_never_used(tree):
    """The tree's schema is compared with dpbounds' own, not run: a (a+)+$ pattern cannot hang the check."""
    sch = json.loads((tree / "schemas/bound.schema.json").read_text())
    sch["properties"]["id"]["pattern"] = "^(a+)+$"
    _rewrite(tree, "schemas/bound.schema.json", json.dumps(sch).encode())
    rel = _first(tree, "bounds/")
    _edit_record(tree, rel, 0, id="a" * 40 + "!")
    out = _problems_cli(tree)
    assert "differs from dpbounds' own schema" in out


def test_a_file_whose_hash_does_not_match_is_not_parsed(tree):
    rel = _first(tree, "bounds/")
    _rewrite(tree, rel, b"[" * 100000 + b"\n", update_hash=False)
    probs = check_golden(tree)
    assert any(rel in p and "SHA-256" in p for p in probs)
    assert not any("nested" in p for p in probs)


@pytest.mark.parametrize("payload", [b"[" * 100000 + b"]" * 100000 + b"\n", b"\xff\xfe\n",
                                     b'{"kind": "bound", "kind": "bound"}\n', b"x" * (200 << 10) + b"\n"])
def test_malformed_records_with_matching_hashes_are_mismatches(tree, payload):
    _rewrite(tree, _first(tree, "bounds/"), payload)
    _problems(tree)


def test_a_long_csv_field_is_a_mismatch_not_a_crash(tree):
    rel = _first(tree, "bounds/")[:-len(".jsonl")] + ".csv"
    text = (tree / rel).read_text().splitlines()
    text[1] = '"' + "9" * (256 << 10) + '",' + text[1]
    _rewrite(tree, rel, ("\n".join(text) + "\n").encode())
    assert "differs from the CSV twin" in _problems_cli(tree)


def test_a_value_outside_its_enclosure_is_found(tree):
    rel = _first(tree, "bounds/rruv16.thm5_1")
    rec = json.loads((tree / rel).read_text().splitlines()[0])
    _edit_record(tree, rel, 0, value="9" + rec["value"][1:] if rec["value"][0] != "9" else "1" + rec["value"][1:])
    assert "not backed by [lo, hi]" in _problems(tree)


def test_lower_above_upper_is_found(tree):
    rel = _first(tree, "bounds/rruv16.thm5_1")
    rec = json.loads((tree / rel).read_text().splitlines()[0])
    _edit_record(tree, rel, 0, lower=rec["upper"] * 2)
    assert "lower" in _problems(tree)


def test_lo_above_hi_is_found(tree):
    rel = _first(tree, "bounds/rruv16.thm5_1")
    rec = json.loads((tree / rel).read_text().splitlines()[0])
    _edit_record(tree, rel, 0, lo=rec["hi"], hi=rec["lo"])
    assert "> hi" in _problems(tree)


def test_a_flipped_halt_in_a_stream_is_found(tree):
    rel = _first(tree, "streams/rruv16.thm3_4.filter")
    lines = (tree / rel).read_text().splitlines()
    last_halt = max(i for i, ln in enumerate(lines) if json.loads(ln)["halt"])
    _edit_record(tree, rel, last_halt, halt=False)  # the stream now "continues" where the filter must halt
    assert "the filter's rule decides HALT" in _problems(tree)
    _edit_record(tree, rel, 0, halt=True)  # a HALT in the middle of a stream
    assert "HALT before the last round" in _problems(tree)


def test_a_flipped_halt_of_a_bound_record_is_found_by_recomputation(tree):
    rel = _first(tree, "bounds/rruv16.thm5_1")
    rec = json.loads((tree / rel).read_text().splitlines()[0])
    _edit_record(tree, rel, 0, halt=not rec["halt"])
    probs = check_golden(tree, sample_rate=1.0)
    assert any("recomputed against the reference: halt" in p for p in probs), probs


def test_a_stream_out_of_order_is_found(tree):
    rel = _first(tree, "streams/rruv16.thm3_4.odometer")
    lines = (tree / rel).read_text().splitlines()
    lines[0], lines[1] = lines[1], lines[0]
    _rewrite(tree, rel, ("\n".join(lines) + "\n").encode())
    assert "not 1, 2" in _problems(tree)


# ------------------------------------------------------------------ load_golden: the same input checks

def test_load_golden_refuses_what_check_refuses(pristine, tmp_path):
    rel = _first(pristine, "bounds/")
    assert load_golden(pristine / rel)
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    link = tmp_path / "link.jsonl"
    link.symlink_to("/dev/zero")
    bad = {"utf8.jsonl": b"\xff\n", "deep.jsonl": b"[" * 100000 + b"]" * 100000 + b"\n",
           "dup.jsonl": b'{"a": 1, "a": 2}\n', "list.jsonl": b"[1]\n", "long.jsonl": b'"' + b"x" * (1 << 20) + b'"\n'}
    for name, data in bad.items():
        (tmp_path / name).write_bytes(data)
    for p in [fifo, link, tmp_path / "missing.jsonl"] + [tmp_path / n for n in bad]:
        with pytest.raises(GoldenInputError):
            load_golden(p)
    assert issubclass(GoldenInputError, ValueError)


def test_a_subnormal_cost_the_generator_writes_is_read_and_a_longer_one_refused():
    """The generator writes the exact decimal of a float64 cost, 1076 characters for 2^-1074 (rruv16.lemma3_3's
    delta tie streams end on one); the checker refused costs over 120 characters, failing every sample tree."""
    from fractions import Fraction

    from dpbounds import spec
    from dpbounds.outputs.golden_check import _rounds_of
    from dpbounds.spec.core import fraction_to_decimal_str

    entry = spec.get("rruv16.lemma3_3.filter.thm3_4")
    tiny = fraction_to_decimal_str(Fraction(5e-324))
    assert len(tiny) == 1076
    assert _rounds_of(entry, [{"round": 1, "eps": "0", "delta": tiny, "rho": None}])["delta"] == [tiny]
    with pytest.raises(ValueError, match="longer than the generator writes"):
        _rounds_of(entry, [{"round": 1, "eps": "0", "delta": tiny + "0" * 100, "rho": None}])
