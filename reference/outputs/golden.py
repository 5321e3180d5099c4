"""Golden test vectors: certified values of every bound on a grid, and per-round decisions on streams.

Layout of ``DIR`` (all files deterministic, written atomically, listed with their SHA-256 in manifest.json):

* ``bounds/<id>.jsonl`` and ``bounds/<id>.csv`` -- one record per grid point (schema: ``schema.json``):
  ``id, source, params (exact decimal strings), value (decimal string), enclosure [lo, hi], upper, lower
  (float64 outward from the enclosure), digits, spec_version`` and, for filters, ``halt`` (the certified decision).
* ``streams/<id>.jsonl`` -- for filters: a per-round sequence of (eps, delta) with each round's decision; for
  odometers: each round's certified value.
* ``manifest.json`` -- spec version, generator, grid, digits and the SHA-256 of every other file.
"""

from __future__ import annotations

import csv
import hashlib
import io
import itertools
import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterable

from dpbounds import spec
from dpbounds.spec.core import CANONICAL, Kind, fraction_to_decimal_str
from dpbounds.spec.render import registry_hash

from dpbounds.evaluation.evaluate import CertificationError, Inputs, decide, enclose_inputs, evaluate, prepare
from dpbounds.evaluation.interp import NotCertified
from dpbounds.util.io import atomic_write_text
from dpbounds.util.progress import Progress

GENERATOR = "dpbounds.dpbounds.outputs.golden/1"

#: grid values per parameter name (exact decimal strings): typical and extreme regimes
GRID: dict[str, list[str]] = {
    "eps_g": ["0.01", "0.1", "1", "3", "10"],
    "delta_g": ["1e-15", "1e-10", "1e-6", "0.001", "0.3"],
    "delta_prime": ["1e-15", "1e-6", "0.001", "0.3"],
    "delta_dprime": ["1e-12", "1e-6", "0.01"],
    "dhat": ["1e-12", "1e-6", "0.01"],
    "delta": ["1e-15", "1e-6", "0.01", "0.3"],
    "eps": ["0.000001", "0.001", "0.1", "1", "10"],
    "rho": ["0.000001", "0.001", "0.1", "1", "10"],
    "B": ["0.001", "0.1", "1", "10"],
    "n": ["10", "1000", "1000000", "1000000000"],
    "k": ["1", "10", "100", "1000"],
    "x": ["0.0001", "0.01", "1"],
    "gamma": ["0.0001", "0.01", "1"],
    "v0": ["0.0001", "0.01", "1"],
    "alpha": ["1.5", "2", "8", "32"],
    "eta": ["1.5", "2", "3"],
    "s": ["1.1", "1.4", "2"],
    "V": ["1e-8", "0.0001", "0.01", "1", "100", "1000000"],
    "A": ["5e-9", "0.00005", "0.005", "0.6", "80", "1000000"],
    "S": ["0.0001", "0.1", "1", "10", "1000"],
    "D": ["0", "1e-12", "1e-7"],
    "KOV": ["5e-9", "0.00005", "0.005", "0.5"],
    "LIFT": ["0", "1e-9", "1e-7"],
    "V2": ["4e-8", "0.0004", "0.04", "4", "400"],
    "A2": ["2e-8", "0.0002", "0.02", "3", "500"],
    "S2": ["0.0002", "0.2", "2", "20"],
    "R": ["0.001", "0.1", "1", "10"],
}


def _grid_points(entry: spec.SpecEntry, grid: str) -> Iterable[dict[str, str]]:
    """Grid points for an entry: the sample point, each name varied alone (default), or products (dense)."""
    base = entry.sample_point()
    if entry.optimize is not None:
        base.pop(entry.optimize.var, None)
    names = sorted(base)
    seen = set()

    def emit(pt: dict[str, str]) -> bool:
        key = tuple(sorted(pt.items()))
        if key not in seen:
            seen.add(key)
            return True
        return False

    if emit(dict(base)):
        yield dict(base)
    if grid == "sample" or (entry.optimize is not None and grid == "default"):
        # an infimum is certified by branch and bound (and the delta form by bisection on top): on the default
        # grid these entries get their sample point only; --grid dense covers them fully
        return
    # one-at-a-time variations
    for nm in names:
        for v in GRID.get(nm, []):
            pt = dict(base)
            pt[nm] = v
            if emit(pt):
                yield pt
    # pairs (default) or the full product capped (dense)
    width = 2 if grid == "default" else len(names)
    cap = 60 if grid == "default" else 400
    count = 0
    for combo in itertools.combinations(names, min(width, len(names))):
        lists = [GRID.get(nm, [base[nm]]) for nm in combo]
        for values in itertools.product(*lists):
            pt = dict(base)
            pt.update(dict(zip(combo, values)))
            if emit(pt):
                yield pt
                count += 1
                if count >= cap:
                    return


def _record(entry: spec.SpecEntry, pt: dict[str, str], digits: int, version: str) -> dict[str, Any] | None:
    params = {k: v for k, v in pt.items() if k in entry.params}
    aggs = {k: v for k, v in pt.items() if k in entry.aggregates}
    try:
        # a bounded precision budget: a point whose value cannot be certified to `digits` within it (e.g. a
        # Gaussian-curve delta of 10^-(10^6) cancelling catastrophically) is left out rather than guessed
        r = evaluate(entry.id, params, aggregates=aggs, digits=digits, max_bits=max(512, 8 * digits + 256))
    except (spec.DomainError, CertificationError, NotCertified):
        return None
    rec = {"id": entry.id, "source": str(entry.source), "params": dict(sorted(r.params.items())),
           "value": r.value, "enclosure": list(r.enclosure), "upper": _jf(r.upper), "lower": _jf(r.lower),
           "digits": digits, "spec_version": version}
    if entry.kind is Kind.FILTER and entry.halt is not None:
        inp = prepare(entry, params, aggregates=aggs)
        rec["halt"] = decide(entry, inp)
    return rec


def _jf(x: float) -> float | str:
    if x == float("inf"):
        return "inf"
    if x == float("-inf"):
        return "-inf"
    return x


def _dumps(rec: dict[str, Any]) -> str:
    return json.dumps(rec, sort_keys=True, separators=(",", ":"))


def _csv(records: list[dict[str, Any]]) -> str:
    pnames = sorted({k for r in records for k in r["params"]})
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    extra = ["halt"] if any("halt" in r for r in records) else []
    w.writerow(["id"] + pnames + ["value", "enclosure_lo", "enclosure_hi", "upper", "lower", "digits"] + extra)
    for r in records:
        params = [r["params"].get(p, "") if not isinstance(r["params"].get(p), list) else
                  "[" + ";".join(r["params"][p]) + "]" for p in pnames]
        w.writerow([r["id"]] + params + [r["value"], r["enclosure"][0], r["enclosure"][1], repr(r["upper"]),
                                         repr(r["lower"]), r["digits"]] + ([r.get("halt")] if extra else []))
    return buf.getvalue()


SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "dpbounds golden vector record",
    "type": "object",
    "required": ["id", "source", "params", "value", "enclosure", "upper", "lower", "digits", "spec_version"],
    "properties": {
        "id": {"type": "string", "description": "spec id, e.g. rruv16.thm5_1"},
        "source": {"type": "string", "description": "paper, theorem/equation and seed file"},
        "params": {"type": "object", "description": "exact decimal strings (an aggregate known only to an "
                   "enclosure is a [lo, hi] pair)",
                   "additionalProperties": {"oneOf": [{"type": "string"},
                                                      {"type": "array", "items": {"type": "string"}}]}},
        "value": {"type": "string", "description": "decimal string, `digits` significant digits, or 'inf'"},
        "enclosure": {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2,
                      "description": "certified [lo, hi] containing the exact value (rounded outward)"},
        "upper": {"oneOf": [{"type": "number"}, {"const": "inf"}], "description": "smallest float64 >= exact"},
        "lower": {"oneOf": [{"type": "number"}, {"const": "inf"}, {"const": "-inf"}],
                  "description": "largest float64 <= exact"},
        "digits": {"type": "integer"},
        "spec_version": {"type": "string", "description": "SHA-256 of the spec registry"},
        "halt": {"type": "boolean", "description": "filters: the certified HALT decision at this point"},
    },
}

STREAM_SCHEMA_NOTE = ("streams/<id>.jsonl: one record per round {id, round, eps, delta, decision (CONT|HALT) or "
                      "value/enclosure, spec_version}; a filter's stream stops at its first HALT.")


def _streams() -> list[tuple[str, list[str], list[str]]]:
    """Deterministic (seeded) per-round sequences: (name, eps list, delta list) as exact decimal strings."""
    rng = random.Random(20161122)
    out = [("homogeneous_0.05", ["0.05"] * 400, ["0"] * 400),
           ("homogeneous_0.2", ["0.2"] * 120, ["0"] * 120)]
    eps = [f"{rng.choice([0.01, 0.02, 0.05, 0.1, 0.3]):g}" for _ in range(200)]
    out.append(("mixed_pure", eps, ["0"] * len(eps)))
    eps = [f"{rng.choice([0.01, 0.05, 0.1]):g}" for _ in range(120)]
    dl = [rng.choice(["0", "1e-10", "1e-9"]) for _ in range(120)]
    out.append(("mixed_approx", eps, dl))
    return out


def _stream_records(entry: spec.SpecEntry, budget: dict[str, str], version: str,
                    digits: int) -> list[dict[str, Any]]:
    """Per-round records computed from scratch on every prefix (independent of dpbounds.accounting.accountants)."""
    recs = []
    pure = any(str(r) == "Eq(delta, 0)" for r in entry.per_round_domain)
    for name, eps, dl in _streams():
        if pure and any(d != "0" for d in dl):
            continue
        for i in range(1, len(eps) + 1):
            try:
                inp = prepare(entry, budget, eps=eps[:i], delta=dl[:i])
            except spec.DomainError:
                break
            rec = {"id": entry.id, "stream": name, "round": i, "eps": eps[i - 1], "delta": dl[i - 1],
                   "budget": budget, "spec_version": version}
            if entry.kind is Kind.FILTER:
                halt = decide(entry, inp)
                rec["decision"] = "HALT" if halt else "CONT"
                recs.append(rec)
                if halt:
                    break
            else:
                enc = enclose_inputs(entry, inp, rel_tol=Fraction(1, 10 ** (digits + 3)))
                rec["value_enclosure"] = (["inf", "inf"] if enc.pos_inf or enc.lo is None or enc.hi is None else
                                          [_dec(enc.lo, digits, "floor"), _dec(enc.hi, digits, "ceiling")])
                rec["upper"] = _jf(enc.upper())
                recs.append(rec)
                if enc.pos_inf:
                    break
    return recs


def _dec(q: Fraction, digits: int, rounding: str) -> str:
    from dpbounds.evaluation.evaluate import decimal_str
    return decimal_str(q, digits, rounding)


def _stream_budget(entry: spec.SpecEntry) -> dict[str, str] | None:
    pt = entry.sample_point()
    budget = {k: v for k, v in pt.items() if k in entry.params}
    try:
        entry.check_values(budget)
    except spec.DomainError:
        return None
    return budget


def write_golden(out_dir: str | Path, bounds: list[str] | None = None, grid: str = "default", digits: int = 40,
                 streams: bool = True) -> str:
    """Write the golden vectors to ``out_dir``; returns a one-line summary."""
    if grid not in ("sample", "default", "dense"):
        raise spec.DomainError("grid", grid, "one of sample, default, dense", "dpbounds golden")
    if not isinstance(digits, int) or not 5 <= digits <= 1000:
        raise spec.DomainError("digits", digits, "an integer in [5, 1000]", "dpbounds golden")
    reg = spec.registry()
    if bounds:
        for b in bounds:
            spec.get(b)
        entries = [reg[b] for b in bounds]
    else:
        entries = [e for e in reg.values() if e.kind is not Kind.AGGREGATE and not e.expr.is_Boolean]
    out = Path(out_dir)
    version = registry_hash()
    files: dict[str, str] = {}
    n_records = 0
    with Progress(len(entries), "golden vectors") as bar:
        for e in entries:
            recs = [r for r in (_record(e, pt, digits, version) for pt in _grid_points(e, grid)) if r is not None]
            if recs:
                files[f"bounds/{e.id}.jsonl"] = "".join(_dumps(r) + "\n" for r in recs)
                files[f"bounds/{e.id}.csv"] = _csv(recs)
                n_records += len(recs)
            if streams and e.aggregates and e.kind in (Kind.FILTER, Kind.ODOMETER) and grid != "sample":
                budget = _stream_budget(e)
                if budget is not None:
                    srecs = _stream_records(e, budget, version, min(digits, 30))
                    if srecs:
                        files[f"streams/{e.id}.jsonl"] = "".join(_dumps(r) + "\n" for r in srecs)
            bar.update(1, e.id)
    files["schema.json"] = json.dumps(SCHEMA, indent=2, sort_keys=True) + "\n"
    for rel, text in sorted(files.items()):
        atomic_write_text(out / rel, text)
    manifest = {"generator": GENERATOR, "spec_version": version, "grid": grid, "digits": digits,
                "records": n_records, "streams_note": STREAM_SCHEMA_NOTE,
                "files": {rel: hashlib.sha256(text.encode()).hexdigest() for rel, text in sorted(files.items())}}
    atomic_write_text(out / "manifest.json", json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return f"{n_records} records in {len(files)} files, spec version {version[:12]}"


def load_golden(path: str | Path) -> list[dict[str, Any]]:
    """Load one JSON Lines file of golden records (for consumers' test suites)."""
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def verify_manifest(out_dir: str | Path) -> list[str]:
    """Files whose SHA-256 does not match the manifest (empty when all match)."""
    out = Path(out_dir)
    manifest = json.loads((out / "manifest.json").read_text())
    bad = []
    for rel, digest in manifest["files"].items():
        p = out / rel
        if not p.exists() or hashlib.sha256(p.read_bytes()).hexdigest() != digest:
            bad.append(rel)
    return bad
