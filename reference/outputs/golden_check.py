"""``dpbounds golden --check DIR``: verify a golden tree without trusting it.

Order of work, so that nothing the tree says is believed before it is checked:

1. the tree's shape: ``manifest.json`` a regular file (not a symlink, FIFO or device) of bounded size, valid
   against dpbounds' *own* manifest schema; every listed name a plain relative path of the golden layout (no
   ``..``, no absolute path, nothing outside the tree); no symlink, device or FIFO anywhere in the tree;
   bounded file count and bytes.  Anything else is unusable input: :class:`BadGoldenInput` (exit 2).
2. every listed file's SHA-256, *before* its content is parsed: a file whose hash does not match is reported and
   never parsed;
3. the schema files equal dpbounds' own (records are validated against dpbounds' installed schemas, never the
   tree's, so a tree cannot bring a catastrophic-backtracking pattern);
4. each record: bounded JSON, dpbounds' own schema of its kind, and its invariants (the value backed by
   ``[lo, hi]``, ``lo <= hi``, ``lower <= upper`` with neither on the wrong side of ``[lo, hi]``, the exact/infinite conventions; a
   stream's rounds 1, 2, ... in order and nothing after a HALT);
5. each CSV twin byte-equal to the twin that dpbounds writes for the JSONL records;
6. against the reference: every filter stream's HALT flags (the last two rounds decided again, certified; with
   HALT non-decreasing along a stream this fixes every flag), and recomputed from their parameters: a seeded
   sample of the other records (:data:`SAMPLE_RATE`, about :data:`SAMPLE_MIN` per kind at least), every
   borderline record (:func:`borderline`: an ``infinite`` or ``exact`` claim, an enclosure near a rounding edge;
   in an odometer stream also its first and last rounds and a round below the one before), one record of each
   entry evaluated only by its opaque certified evaluator (at its own ``rel_tol``, judged by consistency with the
   new enclosure: :func:`_opaque_recompute`); with ``full``, every record.

Every problem found is one line; the exit status is 1 when there is any, 0 when none (2 for unusable input).
Files are read a chunk and a line at a time (memory does not grow with the tree: one stream's records at most);
time is bounded by the size limits (:data:`MAX_TREE_BYTES`, :data:`MAX_FILES`, and those of
:mod:`dpbounds.outputs.golden_load`).
"""

from __future__ import annotations

import decimal
import functools
import hashlib
import json
import math
import os
import re
import stat
from collections import defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

from dpbounds.outputs.golden_load import GoldenInputError, decode_text, parse_json, read_regular_bytes
from dpbounds import spec
from dpbounds.accounting.accountants import make_filter
from dpbounds.accounting.conversions import b_star_to_digits, delta_of, eps_of
from dpbounds.evaluation.evaluate import enclose_inputs, prepare
from dpbounds.outputs import golden as G
from dpbounds.outputs.golden import (FORMAT, KINDS, OPAQUE_POINTS, SCHEMAS, _canon, _halts, round_inputs,
                                     schema_text, validate)

#: the most bytes of all files of one tree (a --grid dense tree is far below)
MAX_TREE_BYTES = 2 << 30
#: the most files and directories in one tree
MAX_FILES = 20000
#: the manifest's size limit (a dense tree's manifest is a few hundred KiB)
MAX_MANIFEST_BYTES = 16 << 20
#: the fraction of records of each kind recomputed against the reference, and the least number per kind
SAMPLE_RATE = 0.02
SAMPLE_MIN = 3
#: problems listed before the rest are only counted (bounded output)
MAX_PROBLEMS = 1000

#: the file names a golden tree may hold (relative to its root): nothing else is ever opened
_NAME = G.LAYOUT_NAME
_DIR_KIND = {"bounds": ("bound",), "streams": ("filter_stream", "odometer_stream"), "conversions": ("conversion",),
             "bstar": ("bstar",)}
#: an exact decimal the checker computes with: bounded length and exponent (the grid's are far inside)
_MAX_DEC_CHARS = 1200
_MAX_EXP = 400000
#: the longest per-round cost the generator writes: the exact decimal of a float64, 1076 characters for a
#: subnormal such as 2^-1074 (a delta tie stream can end on one); was 120, which refused the generator's own
#: rruv16.lemma3_3 delta_tie_above streams in every sample tree
_MAX_COST_CHARS = 1100


class BadGoldenInput(ValueError):
    """The directory given to check_golden is not a usable golden tree (exit 2, not a mismatch)."""


class _Problems(list):
    def add(self, msg: str) -> None:
        if len(self) < MAX_PROBLEMS:
            self.append(msg)
        else:
            self.dropped = getattr(self, "dropped", 0) + 1


# ------------------------------------------------------------------ 1. shape

_safe_rel = G.layout_name


def _walk(out: Path) -> tuple[set[str], int]:
    """Relative names of the regular files under ``out`` and their total size; BadGoldenInput on a symlink,
    device, FIFO or socket anywhere, or a tree beyond the limits (os.scandir never follows a link)."""
    files, total, count = set(), 0, 0
    stack = [(out, "")]
    while stack:
        d, prefix = stack.pop()
        try:
            entries = list(os.scandir(d))
        except OSError as e:
            raise BadGoldenInput(f"{d}: {e.strerror or e}") from None
        for ent in entries:
            count += 1
            if count > MAX_FILES:
                raise BadGoldenInput(f"{out}: more than {MAX_FILES} files (not a golden tree)")
            rel = prefix + ent.name
            st = ent.stat(follow_symlinks=False)
            if stat.S_ISDIR(st.st_mode):
                if rel.count("/") >= 2:
                    raise BadGoldenInput(f"{out}/{rel}: nested deeper than a golden tree")
                stack.append((Path(ent.path), rel + "/"))
            elif stat.S_ISREG(st.st_mode):
                files.add(rel)
                total += st.st_size
                if total > MAX_TREE_BYTES:
                    raise BadGoldenInput(f"{out}: more than {MAX_TREE_BYTES} bytes (not a golden tree)")
            else:
                what = "symbolic link" if stat.S_ISLNK(st.st_mode) else "special file (FIFO, device or socket)"
                raise BadGoldenInput(f"{out}/{rel}: a {what} in the tree; a golden tree holds regular files only")
    return files, total


def _manifest(out: Path) -> dict:

    try:
        text = decode_text(read_regular_bytes(out / "manifest.json", MAX_MANIFEST_BYTES), "manifest.json")
        m = parse_json(text, "manifest.json", MAX_MANIFEST_BYTES)
    except GoldenInputError as e:
        raise BadGoldenInput(f"{out}/{e}") from None
    if not isinstance(m, dict) or m.get("format") != FORMAT or not isinstance(m.get("files"), dict):
        raise BadGoldenInput(f"{out}/manifest.json: not a golden manifest of format {FORMAT}")
    for rel in m["files"]:
        if not _safe_rel(rel):
            raise BadGoldenInput(f"{out}/manifest.json: lists {str(rel)[:80]!r}, not a file of a golden tree "
                                 f"(a relative path under bounds/, streams/, conversions/, bstar/ or schemas/; "
                                 f"nothing outside the tree)")
    errs = validate(SCHEMAS["manifest"], m)
    if errs:
        raise BadGoldenInput(f"{out}/manifest.json: {errs[0][:200]}")
    return m


# ------------------------------------------------------------------ 4. record invariants

def _dec(s: Any, what: str) -> decimal.Decimal:
    if not isinstance(s, str) or len(s) > _MAX_DEC_CHARS:
        raise ValueError(f"{what} is not a decimal string of at most {_MAX_DEC_CHARS} characters")
    d = decimal.Decimal(s)
    if not d.is_finite() or abs(d.adjusted()) > _MAX_EXP:
        raise ValueError(f"{what} = {s[:40]} is out of range")
    return d


def _sig_digits(s: str) -> int:
    return len(s.lstrip("-").split("E")[0].replace(".", "").lstrip("0")) or 1


def _half_units(value: decimal.Decimal, digits: int) -> tuple[decimal.Decimal, decimal.Decimal]:
    """(below, above): how far the reals that round to ``value`` at ``digits`` significant digits reach below and
    above it (closed; below a power of ten the next smaller decade's unit)."""
    unit = decimal.Decimal(1).scaleb(value.copy_abs().adjusted() - digits + 1)
    half = unit / 2
    mant = value.copy_abs().scaleb(-value.copy_abs().adjusted())
    small = half / 10 if mant == 1 else half  # 1000 is reached from 999.95, not from 999.5
    return (small, half) if value > 0 else (half, small)


def _value_problems(rec: dict) -> list[str]:
    """The value block's invariants (kinds bound, odometer_stream, conversion)."""
    if rec["infinite"]:
        bad = [k for k in ("value", "lo", "hi", "upper", "lower") if rec[k] is not None]
        return [f"infinite, but {', '.join(bad)} not null"] if bad or rec["digits"] != 0 else []
    if rec["value"] is None or rec["lo"] is None or rec["hi"] is None or rec["lower"] is None:
        return ["a finite value with a null value, lo, hi or lower"]
    with decimal.localcontext() as ctx:
        ctx.prec, ctx.Emax, ctx.Emin = 1200, 10**9, -10**9
        v, lo, hi = _dec(rec["value"], "value"), _dec(rec["lo"], "lo"), _dec(rec["hi"], "hi")
        out = []
        if lo > hi:
            out.append(f"lo {rec['lo'][:30]} > hi {rec['hi'][:30]}")
        if rec["exact"]:
            if not lo == v == hi:
                out.append("exact, but lo, value and hi differ")
        else:
            if rec["digits"] < 1 or _sig_digits(rec["value"]) != rec["digits"]:
                out.append(f"value {rec['value'][:30]} does not have digits = {rec['digits']} significant digits")
            elif v == 0:
                out.append("a value of 0 that is not exact (no digit of it is backed)")
            else:
                below, above = _half_units(v, rec["digits"])
                if not (v - below <= lo and hi <= v + above):
                    out.append(f"value {rec['value'][:30]} is not backed by [lo, hi] = [{rec['lo'][:30]}, "
                               f"{rec['hi'][:30]}] (every digit must be the exact value's, correctly rounded)")
        lower, upper = rec["lower"], rec["upper"]
        if upper is not None and lower > upper:
            out.append(f"lower {lower!r} > upper {upper!r}")
        elif decimal.Decimal(lower) > hi:
            out.append(f"lower {lower!r} > hi: not a lower bound of the value")
        elif upper is not None and decimal.Decimal(upper) < lo:
            out.append(f"upper {upper!r} < lo: not an upper bound of the value")
        elif upper is None and lower != 1.7976931348623157e308:
            out.append("upper is null (+inf) below the largest float64")
    return out


def _bstar_problems(rec: dict) -> list[str]:
    with decimal.localcontext() as ctx:
        ctx.prec, ctx.Emax, ctx.Emin = 1200, 10**9, -10**9
        b, lo, hi = _dec(rec["b_star"], "b_star"), _dec(rec["lo"], "lo"), _dec(rec["hi"], "hi")
        out = []
        if not 0 <= lo <= hi:
            out.append(f"not 0 <= lo <= hi ({rec['lo'][:30]}, {rec['hi'][:30]})")
        if _sig_digits(rec["b_star"]) > rec["digits"]:
            out.append(f"b_star {rec['b_star'][:30]} has more than digits = {rec['digits']} digits")
        if b > lo:
            out.append(f"b_star {rec['b_star'][:30]} > lo {rec['lo'][:30]}: overstated")
        elif b > 0 and lo - b >= decimal.Decimal(1).scaleb(b.adjusted() - rec["digits"] + 1):
            out.append(f"b_star {rec['b_star'][:30]} is not lo rounded down to {rec['digits']} digits")
        if decimal.Decimal(rec["lower"]) > lo:
            out.append(f"lower {rec['lower']!r} > lo")
    return out


def _width_problems(rec: dict) -> list[str]:
    """A record of an opaque entry (field ``rel_tol``): 0 < rel_tol < 1 and (hi - lo) <= rel_tol max(|lo|, |hi|)."""
    with decimal.localcontext() as ctx:
        ctx.prec, ctx.Emax, ctx.Emin = 1200, 10**9, -10**9
        tol = _dec(rec["rel_tol"], "rel_tol")
        if not 0 < tol < 1:
            return [f"rel_tol {rec['rel_tol'][:30]} is not in (0, 1)"]
        if rec["infinite"] or rec["lo"] is None or rec["hi"] is None:
            return []
        lo, hi = _dec(rec["lo"], "lo"), _dec(rec["hi"], "hi")
        if hi - lo > tol * max(abs(lo), abs(hi)):
            return [f"[lo, hi] = [{rec['lo'][:30]}, {rec['hi'][:30]}] is wider than rel_tol = {rec['rel_tol'][:30]}"]
    return []


def record_problems(rec: dict, kind: str) -> list[str]:
    """Violations of a record's own invariants (beyond its schema); empty when it is consistent."""
    try:
        if kind == "bound" and "rel_tol" in rec:
            return _value_problems(rec) + _width_problems(rec)
        if kind in ("bound", "odometer_stream", "conversion"):
            return _value_problems(rec)
        if kind == "bstar":
            return _bstar_problems(rec)
    except (ValueError, ArithmeticError, TypeError) as e:
        return [str(e)[:200]]
    return []


def _identity_problems(rec: dict, kind: str, rel: str) -> list[str]:
    """Where a record sits must agree with what it says it is: ``bounds/<id>.jsonl`` and ``streams/<id>.jsonl``
    hold records of that registry entry only, ``conversions/<conv>.<direction>.jsonl`` and ``bstar/<conv>.jsonl``
    of that conversion only, and a record's parameters are names the entry (or conversion) takes -- a consumer
    reads a vector by its file and its parameters, so a record filed under another entry, or with a parameter the
    reference ignores, would verify only where it is recomputed."""
    stem = rel.rsplit("/", 1)[-1][:-len(".jsonl")]
    if kind in ("bound", "filter_stream", "odometer_stream"):
        if rec["id"] != stem:
            return [f"a record of {str(rec['id'])[:60]} in the file of {stem}"]
        try:
            entry = spec.get(rec["id"])
        except (spec.DomainError, KeyError, ValueError):
            return []  # an unknown id is reported with the record's other invariants
        names = {str(p) for p in entry.params}
        if kind == "bound":
            names |= {str(a) for a in entry.aggregates}
        given = rec["budget"] if kind == "filter_stream" else rec["params"]
        extra = sorted(set(given) - names)
        return [f"parameter {', '.join(extra)[:80]} is not one of {entry.id}'s ({', '.join(sorted(names))})"] \
            if extra else []
    if kind == "conversion":
        want_rel, want = f"{rec['conversion']}.{rec['direction']}", {
            "rho", "delta" if rec["direction"] == "eps_of_delta" else "eps"}
    else:  # bstar
        want_rel, want = str(rec["conversion"]), {"eps_g", "delta_g"}
    if stem != want_rel:
        return [f"a {kind} record of {want_rel[:60]} in the file of {stem}"]
    if set(rec["params"]) != want:
        return [f"parameters {', '.join(sorted(rec['params']))[:80]}, not {', '.join(sorted(want))}"]
    return []


def _record_key(rec: dict, kind: str) -> str | None:
    """What a consumer looks a non-stream record up by (None for a stream round: streams are checked as streams)."""
    if kind in ("filter_stream", "odometer_stream"):
        return None
    return json.dumps([rec.get("id"), rec.get("conversion"), rec.get("direction"), rec["params"]], sort_keys=True)


# ------------------------------------------------------------------ 6. against the reference

def _stream_key(rec: dict, kind: str) -> tuple:
    side = rec["budget"] if kind == "filter_stream" else rec["params"]
    return rec["id"], json.dumps(side, sort_keys=True), rec["stream"]


def _stream_problems(groups: dict[tuple, list[dict]], kind: str, rel: str, probs: _Problems) -> None:
    """Rounds 1, 2, ... in file order per stream; a filter stream ends at its first HALT."""
    for key, recs in groups.items():
        where = f"{rel}: stream {key[2]!r} of {key[0]} at {key[1]}"
        if [r["round"] for r in recs] != list(range(1, len(recs) + 1)):
            probs.add(f"{where}: rounds are not 1, 2, ..., {len(recs)} in order")
            continue
        if kind == "filter_stream" and any(r["halt"] for r in recs[:-1]):
            probs.add(f"{where}: a HALT before the last round (a filter stream ends at its first HALT)")


def _rounds_of(entry, recs: list[dict]) -> dict[str, list[str]]:

    names = round_inputs(entry)
    for r in recs:
        for n in ("eps", "delta", "rho"):
            if (r[n] is None) != (n not in names):
                raise ValueError(f"round {r['round']}: {n} is {'null' if r[n] is None else 'given'}, but the "
                                 f"entry's per-round inputs are {', '.join(names)}")
            if r[n] is not None:
                _dec(r[n], n)
                if len(r[n]) > _MAX_COST_CHARS:
                    raise ValueError(f"round {r['round']}: {n} longer than the generator writes")
    return {n: [r[n] for r in recs] for n in names}


def _short(params: Any) -> str:
    return json.dumps(params, sort_keys=True)[:120]


def _check_params(params: dict) -> None:
    for k, v in params.items():
        d = _dec(v, k)
        if len(v) > 60 or abs(d.adjusted()) > 400:
            raise ValueError(f"parameter {k} = {v[:40]} is outside the range the generator writes")


@functools.lru_cache(maxsize=256)
def _accepted_budget(entry_id: str, budget_json: str) -> None:
    """DomainError unless dpbounds' own filter accepts the budget (a B above the certified B* certifies nothing)."""

    make_filter(entry_id, **json.loads(budget_json)).close()


def _filter_stream_recompute(groups, rel: str, probs: _Problems) -> None:

    for key, recs in groups.items():
        where = f"{rel}: stream {key[2]!r} of {key[0]} at {key[1]}"
        try:
            entry = spec.get(key[0])
            _check_params(recs[0]["budget"])
            _accepted_budget(key[0], key[1])
            rounds = _rounds_of(entry, recs)
            n = len(recs)
            for i in ([n - 1, n] if n > 1 else [n]):  # HALT is non-decreasing: these two fix every flag
                got = _halts(entry, recs[0]["budget"], {k: v[:i] for k, v in rounds.items()})
                if got != recs[i - 1]["halt"]:
                    probs.add(f"{where}: round {i} says {'HALT' if recs[i - 1]['halt'] else 'CONT'}, the filter's "
                              f"rule decides {'HALT' if got else 'CONT'} (certified)")
        except Exception as e:  # a hostile record (unknown id, refused budget) is a mismatch, never a crash
            probs.add(f"{where}: cannot be decided again ({type(e).__name__}: {str(e)[:160]})")


_COMPARED = ("value", "digits", "exact", "infinite", "lo", "hi", "upper", "lower")


def _recompute(rec: dict, kind: str, manifest: dict, stream: list[dict] | None) -> list[str]:
    """Differences between a record and the same record computed again now (empty when equal)."""

    digits = manifest["digits"]
    if kind == "bound":
        entry = spec.get(rec["id"])
        _check_params(rec["params"])
        if _rel_tol_mismatch(rec):
            return [_rel_tol_mismatch(rec)]
        if entry.evaluator:
            return _opaque_recompute(rec, entry, digits)
        again = G._bound_record(entry, rec["params"], digits, rec["spec_version"])
        fields = _COMPARED + ("halt",)
    elif kind == "odometer_stream":
        entry = spec.get(rec["id"])
        _check_params(rec["params"])
        rounds = _rounds_of(entry, stream[:rec["round"]])
        inp = G._stream_inputs(entry, rec["params"], rounds)
        again = G._certified_block(entry, inp, min(digits, 30), 1 << 13)
        fields = _COMPARED
    elif kind == "conversion":
        _check_params(rec["params"])
        p = rec["params"]
        d = min(digits, 20)
        if rec["direction"] == "eps_of_delta":
            enc = eps_of(p["rho"], p["delta"], rec["conversion"], rel_tol=Fraction(1, 10 ** (d + 3)))
        else:
            enc = delta_of(p["rho"], p["eps"], rec["conversion"])
        again = G.value_block(enc, d)
        fields = _COMPARED
    else:  # bstar
        _check_params(rec["params"])
        b, d = b_star_to_digits(rec["params"]["eps_g"], rec["params"]["delta_g"], rec["conversion"],
                                G.BSTAR_DIGITS)
        again = {"b_star": G.decimal_round(b.bracket[0], d, "floor"), "digits": d}
        fields = ("b_star", "digits")
    if again is None:
        return ["the reference certifies no value at this point now"]
    return [f"{k} = {str(rec.get(k))[:40]}, the reference gives {str(again.get(k))[:40]}" for k in fields
            if rec.get(k) != again.get(k)]


def _rel_tol_mismatch(rec: dict) -> str:
    """Why a bound record's ``rel_tol`` field does not fit its entry ('' when it does): present exactly for an entry
    evaluated only by its opaque certified evaluator."""

    try:
        opaque = bool(spec.get(rec["id"]).evaluator)
    except Exception as e:  # an unknown id is a mismatch, never a crash
        return f"unknown entry ({type(e).__name__}: {str(e)[:120]})"
    if opaque == ("rel_tol" in rec):
        return ""
    return (f"rel_tol is missing, but {rec['id']} is evaluated only by its certified evaluator" if opaque else
            f"rel_tol is given, but {rec['id']} has a closed form")


def _opaque_recompute(rec: dict, entry, digits: int) -> list[str]:
    """A record of an entry with only an opaque evaluator, against a new enclosure at the record's ``rel_tol`` (not
    at 10^-(digits + 3), which the evaluator refuses).  The PLD bracket composes by BLAS matrix products, whose last
    bits may differ on another machine, so the ends are not compared digit for digit: every claim of the record must
    be consistent with the new certified enclosure [lo', hi'] (the exact value lies in both): [lo, hi] and the
    interval of reals that round to ``value`` each meet [lo', hi'] -- together, in one point -- ``lower`` <= hi' and
    ``upper`` >= lo'; an exact or infinite value must be the same again."""

    tol = _dec(rec["rel_tol"], "rel_tol")
    if not Fraction(1, 10**9) <= tol < 1:  # the evaluators' range (1e-7 at best): a bounded recomputation
        return [f"rel_tol {rec['rel_tol'][:30]} is outside [1e-9, 1)"]
    if set(rec["params"]) != set(entry.params):
        return [f"params {sorted(rec['params'])}, the entry's are {sorted(entry.params)}"]
    opts = rec.get("options") or {}
    if not isinstance(opts, dict) or not set(opts) <= set(entry.options) | set(entry.text_params):
        return [f"options {sorted(opts) if isinstance(opts, dict) else opts!r} are not the entry's word parameters"]
    enc = enclose_inputs(entry, prepare(entry, {**rec["params"], **opts}), rel_tol=Fraction(tol))  # may cost seconds
    again = G.value_block(enc, digits)
    if again is None:
        return ["the reference certifies no value at this point now"]
    out = [f"{k} = {rec.get(k)}, the reference gives {again.get(k)}" for k in ("exact", "infinite")
           if rec.get(k) != again.get(k)] + ([] if rec["halt"] is None else ["halt is not null (not a filter)"])
    if out or rec["infinite"]:
        return out
    if rec["exact"]:
        return [] if rec["value"] == again["value"] else [f"value = {rec['value'][:40]}, the reference gives the "
                                                          f"exact value {again['value'][:40]}"]
    lo2, hi2 = enc.lo, enc.hi
    with decimal.localcontext() as ctx:
        ctx.prec, ctx.Emax, ctx.Emin = 1200, 10**9, -10**9
        v = _dec(rec["value"], "value")
        below, above = _half_units(v, rec["digits"])
        lo, hi = Fraction(_dec(rec["lo"], "lo")), Fraction(_dec(rec["hi"], "hi"))
        vlo, vhi = Fraction(v - below), Fraction(v + above)
    shown = f"[{G.decimal_round(lo2, 12, 'floor')}, {G.decimal_round(hi2, 12, 'ceiling')}]"
    if max(lo, lo2) > min(hi, hi2):
        out.append(f"[lo, hi] = [{rec['lo'][:30]}, {rec['hi'][:30]}] misses the certified enclosure {shown}")
    elif max(lo, lo2, vlo) > min(hi, hi2, vhi):
        out.append(f"value {rec['value'][:30]} ({rec['digits']} digits) is not the rounding of any point of the "
                   f"certified enclosure {shown} within [lo, hi]")
    if Fraction(rec["lower"]) > hi2:
        out.append(f"lower {rec['lower']!r} is above the certified enclosure {shown}")
    if rec["upper"] is not None and Fraction(rec["upper"]) < lo2:
        out.append(f"upper {rec['upper']!r} is below the certified enclosure {shown}")
    return out


# ------------------------------------------------------------------ the check (streamed: memory independent of the tree)

_CHUNK = 1 << 20


def _open_regular(path: Path) -> int:
    """A read-only descriptor of the regular file ``path`` (not a symlink, FIFO or device: refused without
    waiting); BadGoldenInput otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise BadGoldenInput(f"{path}: {e.strerror or e}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise BadGoldenInput(f"{path}: not a regular file")
    except BaseException:
        os.close(fd)
        raise
    return fd


def _chunks(path: Path):
    fd = _open_regular(path)
    try:
        while True:
            try:
                b = os.read(fd, _CHUNK)
            except OSError as e:
                raise BadGoldenInput(f"{path}: {e.strerror or e}") from None
            if not b:
                return
            yield b
    finally:
        os.close(fd)


def _sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    for b in _chunks(path):
        h.update(b)
    return h.hexdigest()


def _lines(path: Path, rel: str, probs: "_Problems"):
    """(line number, text) of each non-blank line, read a chunk at a time (a line over MAX_LINE_CHARS, invalid
    UTF-8 or a NUL is a problem of that line, and the rest of the file is still read)."""
    from dpbounds.outputs.golden_load import MAX_LINE_CHARS

    buf, i, skipping = b"", 0, False
    for b in _chunks(path):
        buf += b
        while True:
            j = buf.find(b"\n")
            if j < 0:
                if len(buf) > 4 * MAX_LINE_CHARS:
                    if not skipping:
                        probs.add(f"{rel}:{i + 1}: a line longer than {MAX_LINE_CHARS} characters")
                    skipping, buf = True, b""
                break
            line, buf = buf[:j], buf[j + 1:]
            i += 1
            if skipping:
                skipping = False
                continue
            yield from _decoded(rel, i, line, probs)
    if buf and not skipping:
        yield from _decoded(rel, i + 1, buf, probs)


def _decoded(rel: str, i: int, line: bytes, probs: "_Problems"):
    if not line.strip():
        return
    try:
        text = decode_text(line, f"{rel}:{i}")
    except GoldenInputError as e:
        probs.add(str(e))
        return
    yield i, text


def _u(seed: int, rel: str, i: int) -> float:
    """A seeded uniform number per record (the sample is a pure function of the seed and the record's place)."""
    h = hashlib.sha256(f"{seed}\0{rel}\0{i}".encode()).digest()
    return int.from_bytes(h[:8], "big") / 2.0**64


def borderline(rec: dict, kind: str) -> str:
    """Why a record is recomputed whatever the sample ('' when it is not): an ``infinite`` claim (it must be the
    entry's own), an ``exact`` claim, or a value whose enclosure comes within a thousandth of a unit of the edge
    of the rounding interval of its value (a value one unit off is consistent with an end moved that little)."""
    if kind not in ("bound", "odometer_stream", "conversion"):
        return ""
    if rec.get("infinite"):
        return "infinite"
    if rec.get("exact"):
        return "exact"
    try:
        with decimal.localcontext() as ctx:
            ctx.prec, ctx.Emax, ctx.Emin = 1200, 10**9, -10**9
            v, lo, hi = _dec(rec["value"], "value"), _dec(rec["lo"], "lo"), _dec(rec["hi"], "hi")
            below, above = _half_units(v, rec["digits"])
            unit = below + above
            if min(lo - (v - below), (v + above) - hi) < unit / 1000:
                return "near a rounding edge"
    except (ValueError, ArithmeticError, TypeError, KeyError):
        return "unreadable value"
    return ""


class _Sampler:
    """Which records are recomputed: a seeded fraction ``rate`` of each kind (at least about ``least`` of a kind,
    from the manifest's record counts), every borderline record, and everything when ``full``."""

    def __init__(self, seed: int, rate: float, least: int, counts: dict[str, int], full: bool) -> None:
        self.seed, self.full = seed, full
        self.rate = {k: (1.0 if full or n <= 0 else min(1.0, max(rate, 2.0 * least / n))) for k, n in counts.items()}

    def chosen(self, kind: str, rel: str, i: int) -> bool:
        return self.full or _u(self.seed, rel, i) < self.rate.get(kind, 1.0)


def _csv_columns(cols: tuple[set, set], rec: dict) -> None:
    for k, v in rec.items():
        if isinstance(v, dict):
            cols[1].update(f"{k}.{n}" for n in v)
        else:
            cols[0].add(k)


def _csv_sha256(path: Path, rel: str, cols: tuple[set, set]) -> str:
    """SHA-256 of the CSV twin dpbounds writes for the JSONL records of ``path`` (golden.csv_text, row by row)."""
    import csv
    import io

    from dpbounds.outputs.golden import _cell

    top, nested = sorted(cols[0]), sorted(cols[1])
    h = hashlib.sha256()
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(top + nested)
    quiet = _Problems()
    for _, line in _lines(path, rel, quiet):
        r = json.loads(line)
        w.writerow([_cell(r.get(k)) for k in top] +
                   [_cell(r.get(c.split(".", 1)[0], {}).get(c.split(".", 1)[1])) for c in nested])
        if buf.tell() > _CHUNK:
            h.update(buf.getvalue().encode())
            buf.seek(0)
            buf.truncate()
    h.update(buf.getvalue().encode())
    return h.hexdigest()


def check_golden(out_dir: str | Path, *, seed: int = 0, sample_rate: float = SAMPLE_RATE,
                 sample_min: int = SAMPLE_MIN, full: bool = False) -> list[str]:
    """Problems of a golden tree (empty when it verifies); see the module docstring for what is checked.

    Raises BadGoldenInput (exit 2) when ``out_dir`` is not a usable golden tree.  Every record's invariants are
    checked; the records recomputed against the reference are a seeded sample (``seed``, ``sample_rate``, about
    ``sample_min`` per kind at least) plus every borderline record (:func:`borderline`; in a stream also its first
    and last round and a round whose value falls below the round before), or all of them with ``full``.  The same
    tree and seed give the same check.  Files are read a chunk and a line at a time: the memory used does not
    grow with the size of the tree (one stream's records are held at a time)."""
    import warnings

    with warnings.catch_warnings():  # recomputing a refuted entry's record is not a use of it: no warning per record
        warnings.simplefilter("ignore")
        return _check(Path(out_dir), seed, sample_rate, sample_min, full)


def _recompute_into(probs: "_Problems", rec: dict, kind: str, manifest: dict, stream, rel: str, why: str) -> None:
    where = f"{rel}: round {rec['round']} of stream {rec['stream']!r}" if stream else f"{rel}: {rec.get('params')}"
    try:
        diffs = _recompute(rec, kind, manifest, stream)
    except Exception as e:  # a hostile record is a mismatch, never a crash
        diffs = [f"cannot be recomputed ({type(e).__name__}: {str(e)[:160]})"]
    for d in diffs:
        probs.add(f"{where}: recomputed against the reference{f' ({why})' if why else ''}: {d}")


def _check(out: Path, seed: int, sample_rate: float, sample_min: int, full: bool = False) -> list[str]:
    from dpbounds.outputs.golden import KINDS, SCHEMAS, schema_text, validate

    try:
        if not out.is_dir():
            raise BadGoldenInput(f"{out}: not a directory")
    except OSError as e:
        raise BadGoldenInput(f"{out}: {e.strerror or e}") from None
    present, _ = _walk(out)
    manifest = _manifest(out)
    listed: dict[str, dict] = manifest["files"]
    probs = _Problems()
    for rel in sorted(present - set(listed) - {"manifest.json"}):
        probs.add(f"{rel}: not listed in the manifest")
    for kind in KINDS:
        if f"schemas/{kind}.schema.json" not in listed:
            probs.add(f"schemas/{kind}.schema.json: not listed in the manifest")
    counts: dict[str, int] = defaultdict(int)
    for rel, meta in listed.items():
        if rel.endswith(".jsonl") and isinstance(meta.get("records"), int):
            counts[str(meta.get("kind"))] += meta["records"]
    sampler = _Sampler(seed, sample_rate, sample_min, counts, full)
    total = 0
    csv_actual: dict[str, str] = {}
    csv_expected: dict[str, str] = {}
    jsonl_ok: set[str] = set()
    opaque: dict[str, tuple] = {}  # entry id -> (cheap?, u, rel, rec): one record of each opaque entry recomputed
    for rel, meta in sorted(listed.items()):
        if rel not in present:
            probs.add(f"{rel}: missing")
            continue
        path = out / rel
        if _sha256_of(path) != meta["sha256"]:
            probs.add(f"{rel}: SHA-256 does not match the manifest (not parsed)")
            continue
        top = rel.split("/", 1)[0]
        if top == "schemas":
            kind = rel[len("schemas/"):-len(".schema.json")]
            if meta["kind"] != "schema":
                probs.add(f"{rel}: listed as kind {meta['kind']!r}, it is a schema")
            elif kind not in KINDS or meta["sha256"] != hashlib.sha256(schema_text(kind).encode()).hexdigest():
                probs.add(f"{rel}: differs from dpbounds' own schema (records are validated against dpbounds' "
                          f"installed schemas, never the tree's)")
            continue
        kind = meta["kind"]
        if kind not in _DIR_KIND[top]:
            probs.add(f"{rel}: listed as kind {kind!r}, which does not belong under {top}/")
            continue
        if rel.endswith(".csv"):
            csv_actual[rel] = meta["sha256"]
            continue
        n, bad = 0, False
        cols: tuple[set, set] = (set(), set())
        seen_keys: set = set()
        seen_records: set[bytes] = set()
        group: list[dict] = []
        gkey = None

        def finish_group() -> None:
            if not group or "__overlong" in group[-1]:
                return
            g = {gkey: list(group)}
            _stream_problems(g, kind, rel, probs)
            if kind == "filter_stream":
                _filter_stream_recompute(g, rel, probs)
                return
            prev_hi = None
            for j, r in enumerate(group):
                why = borderline(r, kind) or ("first round" if j == 0 else "") or \
                    ("last round" if j == len(group) - 1 else "")
                try:
                    if not why and prev_hi is not None and r["hi"] is not None and \
                            _dec(r["hi"], "hi") < prev_hi:
                        why = "below the round before"
                    prev_hi = None if r["lo"] is None else _dec(r["lo"], "lo")
                except (ValueError, ArithmeticError, TypeError):
                    prev_hi = None
                if why or sampler.chosen(kind, rel, r["__line"]):
                    _recompute_into(probs, r, kind, manifest, group, rel, why)

        for i, line in _lines(path, rel, probs):
            try:
                rec = parse_json(line, f"{rel}:{i}")
            except GoldenInputError as e:
                probs.add(str(e))
                bad = True
                continue
            errs = validate(SCHEMAS[kind], rec)
            if errs:
                probs.add(f"{rel}:{i}: {errs[0][:200]}" + (f" (and {len(errs) - 1} more)" if len(errs) > 1 else ""))
                bad = True
                continue
            n += 1
            _csv_columns(cols, rec)
            if rec["spec_version"] != manifest["spec_version"]:
                probs.add(f"{rel}:{i}: spec_version differs from the manifest's")
            if kind == "bound" and (why := _rel_tol_mismatch(rec)):
                probs.add(f"{rel}:{i}: {why}")
            for p in record_problems(rec, kind) + _identity_problems(rec, kind, rel):
                probs.add(f"{rel}:{i}: {p}")
            if (rk := _record_key(rec, kind)) is not None:
                digest = hashlib.sha256(rk.encode()).digest()[:16]
                if digest in seen_records:
                    probs.add(f"{rel}:{i}: a second record at the same parameters {_short(rec['params'])}")
                seen_records.add(digest)
            if kind in ("filter_stream", "odometer_stream"):
                key = _stream_key(rec, kind)
                if key != gkey:
                    finish_group()
                    if key in seen_keys:
                        probs.add(f"{rel}:{i}: stream {key[2]!r} of {key[0]} resumes after another stream (a "
                                  f"stream's rounds are consecutive lines)")
                    seen_keys.add(key)
                    group, gkey = [], key
                if len(group) >= G.MAX_ROUNDS:  # held in memory until the stream ends: bounded by what is written
                    if len(group) == G.MAX_ROUNDS:
                        probs.add(f"{rel}:{i}: stream {key[2]!r} of {key[0]} is longer than the {G.MAX_ROUNDS} "
                                  "rounds the generator writes (its later rounds are not checked)")
                        group.append({"__overlong": True})
                    continue
                rec["__line"] = i
                group.append(rec)
                continue
            if kind == "bound" and "rel_tol" in rec:  # opaque: one of each entry recomputed (cheap points first)
                _note_opaque(opaque, rec, rel, sampler.seed, i)
                continue
            why = borderline(rec, kind)
            if why or sampler.chosen(kind, rel, i):
                _recompute_into(probs, rec, kind, manifest, None, rel, why)
        finish_group()
        if n != meta["records"] and not bad:
            probs.add(f"{rel}: {n} records, the manifest says {meta['records']}")
        total += n
        if not bad:
            jsonl_ok.add(rel)
            twin = rel[:-len(".jsonl")] + ".csv"
            if twin in listed:
                csv_expected[twin] = _csv_sha256(path, rel, cols)
    for eid, (_, _, rel, rec) in sorted(opaque.items()):
        _recompute_into(probs, rec, "bound", manifest, None, rel, "")
    if total != manifest["records"]:
        probs.add(f"manifest.json: records = {manifest['records']}, the files hold {total}")
    for rel, sha in sorted(csv_actual.items()):
        twin = rel[:-len(".csv")] + ".jsonl"
        if twin not in jsonl_ok:
            probs.add(f"{rel}: no verified JSONL twin {twin}")
        elif csv_expected.get(rel) != sha:
            probs.add(f"{rel}: differs from the CSV twin of {twin} (same records, same order)")
    for rel in listed:
        if rel.endswith(".jsonl") and rel[:-len(".jsonl")] + ".csv" not in listed:
            probs.add(f"{rel}: no CSV twin")
    if getattr(probs, "dropped", 0):
        probs.append(f"... and {probs.dropped} more problems")
    return list(probs)


def _note_opaque(opaque: dict, rec: dict, rel: str, seed: int, i: int) -> None:
    """Keep, per opaque entry, the record to recompute: at a cheap sample-grid point if there is one, else any;
    among those the one with the smallest seeded number."""
    from dpbounds.outputs.golden import OPAQUE_POINTS, _canon

    eid = str(rec.get("id"))
    try:
        cheap_pts = [{k: _canon(v) for k, v in p.items()} for p in OPAQUE_POINTS.get(eid, {}).get("sample", [])]
    except (ValueError, ZeroDivisionError):
        cheap_pts = []
    cand = (rec.get("params") in cheap_pts, _u(seed, rel, i), rel, rec)
    cur = opaque.get(eid)
    if cur is None or (cand[0], -cand[1]) > (cur[0], -cur[1]):
        opaque[eid] = cand


def verify_manifest(out_dir: str | Path) -> list[str]:
    """Files whose SHA-256 does not match the manifest, missing files, and files the manifest does not list (empty
    when all match); BadGoldenInput for a tree that cannot be read safely (see :func:`check_golden`)."""
    out = Path(out_dir)
    present, _ = _walk(out)
    listed = _manifest(out)["files"]
    bad = []
    for rel, meta in listed.items():
        ok = rel in present and _sha256_of(out / rel) == meta["sha256"]
        if not ok:
            bad.append(rel)
    return bad + sorted(present - set(listed) - {"manifest.json"})
