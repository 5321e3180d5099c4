"""Golden test vectors, format 2: certified values any test suite, in any language, reads without special cases.

Layout of ``DIR`` (deterministic: two runs give byte-identical trees; replaced as a whole, atomically):

* ``bounds/<id>.jsonl``            kind ``bound``: every bound on a grid of exact parameters;
* ``streams/<id>.jsonl``           kind ``filter_stream`` / ``odometer_stream``: per-round decisions / values of every
  filter and odometer fed by per-round costs, at several budgets, with streams built to end at the HALT boundary;
  every cost is the exact decimal of a float64 (so a float implementation receives exactly the record's cost), and
  the tie streams end on adjacent float64 costs (``*_tie_below`` the largest that continues, ``*_tie_above`` the
  next); ``exact_tie_*`` use a power-of-two cost, landing exactly on the budget for the sum rules;
* ``conversions/<conv>.<direction>.jsonl``  kind ``conversion``: CKS20 and BS16 eps(delta) and delta(eps), log grids;
* ``bstar/<conv>.jsonl``           kind ``bstar``: B*(eps_g, delta_g) of CKS20 and BS16, log grid;
* a ``.csv`` twin beside every ``.jsonl`` (same records, same order);
* the entries with no closed form, evaluated only by a certified evaluator (composition.sgm.delta/eps,
  tradeoff.zcdp), at the fixed points :data:`OPAQUE_POINTS`, certified to relative width :data:`OPAQUE_REL_TOL`,
  which their records state in the field ``rel_tol`` (only backed digits in ``value``, as everywhere);
* ``schemas/<kind>.schema.json``   one JSON Schema (draft 2020-12, with ``$id``) per kind, the manifest's included;
* ``manifest.json``                format, versions, grid and the SHA-256, kind and record count of every other file.

One type per field, in every kind (docs/tutorials/golden.md is the reader's copy of these rules):
exact quantities (parameters, budgets, per-round costs, values, enclosure ends, B*) are decimal strings
(``-?D+(.D+)?(E[+-]D+)?``, read by Fraction/Decimal/BigDecimal/big.Float as they are); float64 bounds ``upper`` /
``lower`` are JSON numbers, and ``null`` in a numeric or decimal field always means +infinity (``infinite`` = true
says the exact value itself is +inf); booleans are JSON booleans (``true``/``false`` in CSV; null is an empty cell).
A ``value`` shows ``digits`` significant digits, each backed by the certified enclosure (the exact value correctly
rounded), or is the exact value the spec decides (``exact`` = true); see :mod:`dpbounds.evaluation.digits`.
"""

from __future__ import annotations

import csv
import decimal
import functools
import hashlib
import io
import itertools
import json
import math
import os
import random
import re
import shutil
import struct
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterable

from dpbounds.outputs.golden_load import load_golden as load_golden  # re-exported (consumers' entry point)
from dpbounds import __version__ as DPBOUNDS_VERSION
from dpbounds import spec
from dpbounds.spec.aggregates import AGGREGATES
from dpbounds.spec.core import Kind, fraction_to_decimal_str
from dpbounds.spec.render import registry_hash

from dpbounds.accounting.accountants import make_filter
from dpbounds.accounting.conversions import b_star_to_digits, delta_of, eps_of
from dpbounds.evaluation.digits import backed_decimal, decimal_round, exact_value, round_nearest
from dpbounds.evaluation.evaluate import CertificationError, Enclosure, Inputs, decide, enclose_inputs, \
    prepare
from dpbounds.evaluation.interp import POS_INF, NotCertified
from dpbounds.evaluation.sequences import aggregates_for
from dpbounds.evaluation.numeric import float_down, float_up
from dpbounds.util.progress import Progress
import dpbounds.proofs_check as pc

FORMAT = 2
GENERATOR = f"dpbounds.outputs.golden/{FORMAT}"
SCHEMA_ID = "urn:dpbounds:golden:2:"
KINDS = ("bound", "filter_stream", "odometer_stream", "conversion", "bstar", "manifest")
#: the committed copies of the schemas (package data; a test checks they equal :data:`SCHEMAS`)
SCHEMA_DIR = Path(__file__).with_name("schemas")

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
    "q": ["1e-8", "0.0001", "0.01", "0.5", "1"],
    "sigma": ["0.1", "0.5", "1", "10", "1000"],
    "b": ["0.1", "1", "10", "1000"],
    "mu": ["0.1", "1", "3"],
    "fpr": ["0", "1e-6", "0.05", "0.5", "1"],
}

#: filters whose budget costs seconds per (alpha, eps_g, delta_g) (R* of the optimal conversion): bound records at
#: the sample point only, on every grid (their streams still vary eps_g / B)
SAMPLE_POINT_ONLY = {"fz21.thm4_3.optimal", "fz21.thm4_3.rr.optimal", "fz21.thm4_7.optimal"}

#: The relative width of the enclosures of the entries with no closed form, evaluated only by their opaque certified
#: evaluator (``SpecEntry.evaluator``: composition.sgm.*, tradeoff.zcdp): their records carry it as ``rel_tol``
#: (the enclosure [lo, hi] is certified to (hi - lo) <= rel_tol * max(|lo|, |hi|)) and ``value`` shows only the
#: digits [lo, hi] backs.  1e-3 is what the evaluators certify quickly.
OPAQUE_REL_TOL = "0.001"


def _opaque_grid(names: tuple[str, ...], *axes: Iterable[str]) -> list[dict[str, str]]:
    return [dict(zip(names, values)) for values in itertools.product(*axes)]


_SGM_D, _SGM_E = ("q", "sigma", "k", "eps_g"), ("q", "sigma", "k", "delta")
#: The fixed points of the opaque entries, per grid ("sample"; "full" is added on the default and dense grids): the
#: evaluators' cost depends on the point, not on a digit count, so the points are chosen, not gridded.  q = 1 is a
#: closed form in arb (milliseconds at any k); q < 1 composes a privacy-loss grid (about a second at k <= 10 and
#: q >= 0.01 with sigma >= 1 here, 20 s at q = 0.01, sigma = 1, k = 100, but over a minute at q = 0.01,
#: sigma = 0.5, k = 10, and minutes at k = 1000);
#: tradeoff.zcdp costs about 5 s of CPU per point with 0 < fpr < 1 (fpr = 0 and 1 are exact).  The sample grid
#: (which CI generates) keeps all three entries under 20 s of CPU.
OPAQUE_POINTS: dict[str, dict[str, list[dict[str, str]]]] = {
    "composition.sgm.delta": {
        "sample": _opaque_grid(_SGM_D, ["1"], ["1"], ["10"], ["1"]) + _opaque_grid(_SGM_D, ["1"], ["10"], ["1000"],
                                                                                  ["0.1"])
        + [{"q": "0.01", "sigma": "1", "k": "1", "eps_g": "1"}, {"q": "0.1", "sigma": "1", "k": "10", "eps_g": "1"},
           {"q": "0.5", "sigma": "2", "k": "10", "eps_g": "0.1"},
           {"q": "0.1", "sigma": "1", "k": "1", "eps_g": "0.7", "relation": "substitution"},
           {"q": "0.1", "sigma": "1", "k": "1", "eps_g": "0.9", "relation": "substitution", "sampling": "fixed_size"}],
        "full": _opaque_grid(_SGM_D, ["1"], ["0.5", "1", "10"], ["1", "100", "1000"], ["0", "0.1", "1", "3"])
        + [{"q": "0.01", "sigma": "1", "k": "10", "eps_g": "1"}, {"q": "0.01", "sigma": "1", "k": "100", "eps_g": "1"},
           {"q": "0.1", "sigma": "1", "k": "10", "eps_g": "0.1"},
           {"q": "0.1", "sigma": "2", "k": "5", "eps_g": "1"}, {"q": "0.5", "sigma": "2", "k": "10", "eps_g": "1"}]},
    "composition.sgm.eps": {
        "sample": _opaque_grid(_SGM_E, ["1"], ["1"], ["10"], ["0.00001"]) + _opaque_grid(_SGM_E, ["1"], ["10"],
                                                                                        ["1000"], ["1e-10"])
        + [{"q": "0.01", "sigma": "1", "k": "1", "delta": "0.00001"},
           {"q": "0.1", "sigma": "1", "k": "10", "delta": "0.00001"},
           {"q": "0.5", "sigma": "2", "k": "10", "delta": "1e-10"}],
        "full": _opaque_grid(_SGM_E, ["1"], ["0.5", "1", "10"], ["1", "100", "1000"], ["1e-12", "0.00001", "0.01"])
        + [{"q": "0.01", "sigma": "1", "k": "10", "delta": "0.00001"},
           {"q": "0.01", "sigma": "1", "k": "100", "delta": "0.00001"},
           {"q": "0.1", "sigma": "1", "k": "10", "delta": "1e-10"},
           {"q": "0.1", "sigma": "2", "k": "5", "delta": "0.00001"},
           {"q": "0.5", "sigma": "2", "k": "10", "delta": "0.00001"}]},
    # the schedules: q = 1 (mu-GDP in closed form) and two one-step phases at different q (a grid); the substitution
    # relation and fixed-size batches at one step (distinct eps_g: records are told apart by params)
    "composition.sgm.schedule.delta": {
        "sample": [{"phases": "1:2:3,1:3:5", "eps_g": "1"},
                   {"phases": "1:3:2,1:5:4", "eps_g": "2", "relation": "substitution"}],
        "full": [{"phases": "0.1:1:1,0.3:1:1", "eps_g": "0.5"}, {"phases": "0.01:1:5,0.02:1.2:3", "eps_g": "0.9"}]},
    "composition.sgm.schedule.eps": {
        "sample": [{"phases": "1:2:3,1:3:5", "delta": "0.00001"}],
        "full": [{"phases": "0.01:1:5,0.02:1.2:3", "delta": "0.00001"}]},
    "tradeoff.zcdp": {
        "sample": [{"rho": "0.5", "fpr": "0.05"}, {"rho": "0.01", "fpr": "0.5"}, {"rho": "0.5", "fpr": "0"},
                   {"rho": "0.5", "fpr": "1"}],
        "full": _opaque_grid(("rho", "fpr"), ["0.001", "0.1", "1", "10"], ["1e-6", "0.05", "0.5"])},
}

#: budgets of the stream vectors: the entry's sample budget, and these values of its main budget parameter
BUDGET_VALUES = {"eps_g": ["0.1", "1", "3"], "B": ["0.01", "0.1", "1"]}
#: odometer stream parameters: the sample point, and these values of the first parameter listed here it has
ODOMETER_VALUES = {"gamma": ["0.0001", "1"], "x": ["0.0001", "1"], "v0": ["0.0001", "1"], "n": ["10", "1000000"],
                   "eps_g": ["0.1", "3"], "delta_dprime": ["1e-12", "0.01"]}
#: the relative gap of the tie streams' last round: tie_below is CONT, tie_above HALT, within this of each other
TIE_REL = Fraction(1, 10**16)
MAX_ROUNDS = 400


def _log_grid(lo_exp: int, hi_exp: int, per_decade: int) -> list[str]:
    """Exact decimals near 10^(k/per_decade) (2 significant digits), from 10^lo_exp to 10^hi_exp."""
    out = []
    for k in range(lo_exp * per_decade, hi_exp * per_decade + 1):
        e, r = divmod(k, per_decade)
        out.append(fraction_to_decimal_str(Fraction(f"{10 ** (r / per_decade):.2g}") * Fraction(10) ** e))
    return out


#: conversion grids per --grid: (rho, delta) for eps(delta), (rho, eps) for delta(eps), (eps_g, delta_g) for B*
CONVERSION_GRIDS = {
    "sample": {"rho": ["0.01", "1"], "delta": ["1e-10", "0.001"], "eps": ["0.1", "3"],
               "eps_g": ["0.1", "1"], "delta_g": ["1e-10", "1e-6"]},
    "default": {"rho": _log_grid(-6, 2, 2), "delta": _log_grid(-15, -1, 1), "eps": _log_grid(-3, 1, 2),
                "eps_g": _log_grid(-3, 1, 2), "delta_g": _log_grid(-15, -1, 1)},
    "dense": {"rho": _log_grid(-8, 3, 4), "delta": _log_grid(-20, -1, 2), "eps": _log_grid(-4, 2, 4),
              "eps_g": _log_grid(-4, 2, 4), "delta_g": _log_grid(-20, -1, 2)},
}
CONVERSIONS = ("cks20", "bs16")
BSTAR_DIGITS = 20


# ------------------------------------------------------------------------------------------------
# Schemas
# ------------------------------------------------------------------------------------------------

_DEC_PATTERN = r"^-?[0-9]+(\.[0-9]+)?(E[+-]?[0-9]+)?$"
_DEC = {"type": "string", "pattern": _DEC_PATTERN, "description": "an exact decimal"}
_DEC_OR_INF = {"type": ["string", "null"], "pattern": _DEC_PATTERN, "description": "an exact decimal; null = +inf"}
_FLOAT_OR_INF = {"type": ["number", "null"], "description": "a float64; null = +inf"}
_DEC_MAP = {"type": "object", "additionalProperties": _DEC}
_COMMON = {
    "id": {"type": "string", "description": "spec id, e.g. rruv16.thm5_1"},
    "source": {"type": "string", "description": "paper, theorem/equation and citation (arXiv id and version "
               "where known)"},
    "caveat": {"type": "string", "description": "empty, or why the entry is not trustworthy as stated (a constant "
               "that proofs_check refutes) and which corrected variant to use; dpbounds warns on every use of such "
               "an entry (RefutedConstantWarning)"},
    "dpbounds_version": {"type": "string"},
    "spec_version": {"type": "string", "pattern": "^[0-9a-f]{64}$", "description": "SHA-256 of the spec registry"},
}
_VALUE = {
    "value": dict(_DEC_OR_INF, description="the exact value correctly rounded to `digits` significant digits "
                  "(every digit backed by [lo, hi]), or exact (`exact`); null iff `infinite`"),
    "digits": {"type": "integer", "minimum": 0, "description": "significant digits shown in `value` (0 iff infinite)"},
    "exact": {"type": "boolean", "description": "true iff `value` is the exact value (then lo = hi = value)"},
    "infinite": {"type": "boolean", "description": "true iff the exact value is +inf (value, lo, hi, upper, lower "
                 "are then null)"},
    "lo": dict(_DEC_OR_INF, description="certified lower end of the exact value (rounded down)"),
    "hi": dict(_DEC_OR_INF, description="certified upper end of the exact value (rounded up)"),
    "upper": dict(_FLOAT_OR_INF, description="the smallest float64 >= the exact value (null: none, +inf)"),
    "lower": dict(_FLOAT_OR_INF, description="the largest float64 <= the exact value (null only when infinite)"),
}
_ROUND_INPUT = {"type": ["string", "null"], "pattern": _DEC_PATTERN,
                "description": "this round's cost: the exact decimal of a float64 (a float implementation receives "
                               "exactly this value); null: not an input of this entry"}
_STREAM = {
    "stream": {"type": "string", "description": "name of the stream (constant, mixed, zeros, tie_below, ...; "
               "exact_tie_below ends on the largest float64 cost that continues, for the sum rules exactly on the "
               "budget; exact_tie_above on the next float64)"},
    "round": {"type": "integer", "minimum": 1},
    "eps": _ROUND_INPUT, "delta": _ROUND_INPUT, "rho": _ROUND_INPUT,
}


def _schema(kind: str, title: str, props: dict, optional: dict | None = None) -> dict:
    """Every field of ``props`` required; those of ``optional`` allowed (present in some files only)."""
    props = {"kind": {"const": kind}, **props}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": f"{SCHEMA_ID}{kind}",
            "title": title, "type": "object", "required": sorted(props), "additionalProperties": False,
            "properties": {**props, **(optional or {})}}


SCHEMAS: dict[str, dict] = {
    "bound": _schema("bound", "dpbounds golden: a bound at one grid point", {
        **_COMMON, "params": dict(_DEC_MAP, description="parameters and aggregates, exact decimal strings (a "
                                  "filter's budget is always one dpbounds' own filter accepts)"),
        **_VALUE,
        "halt": {"type": ["boolean", "null"], "description": "filters: the certified HALT decision at this point "
                 "(the value exceeds the budget); null for an entry that is not a filter"}},
        {"options": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 100000},
                     "description": "the entry's word and text parameters given at this point (composition.sgm.*: "
                     "relation, sampling; composition.sgm.schedule.*: phases as q:sigma:k,...; an option not shown "
                     "takes its default): pass them with `params` to recompute the record"},
         "rel_tol": dict(_DEC, description="present exactly in the records of an entry with no closed form, "
                         "evaluated only by its certified evaluator (composition.sgm.delta, composition.sgm.eps, "
                         "tradeoff.zcdp): [lo, hi] is certified to relative width rel_tol, (hi - lo) <= rel_tol * "
                         "max(|lo|, |hi|), and `value` shows only the digits [lo, hi] backs (a float is judged as against any "
                         "value: below `lower` fails; tight means within rel_tol of `upper`)")}),
    "filter_stream": _schema("filter_stream", "dpbounds golden: one round of a filter stream", {
        **_COMMON, "budget": dict(_DEC_MAP, description="the filter's budget parameters, "
                                                 "always one dpbounds' own filter accepts (a B never above the "
                                                 "certified B* of the conversion the theorem needs)"), **_STREAM,
        "halt": {"type": "boolean", "description": "the certified decision after this round: true = HALT (the "
                 "round must not run; the stream ends here).  Float contract: an implementation that continues "
                 "where halt is true is unsound; one that halts where halt is false is conservative (allowed)"}}),
    "odometer_stream": _schema("odometer_stream", "dpbounds golden: one round of an odometer stream", {
        **_COMMON, "params": dict(_DEC_MAP, description="the odometer's parameters"), **_STREAM, **_VALUE}),
    "conversion": _schema("conversion", "dpbounds golden: a zCDP -> (eps, delta)-DP conversion at one point", {
        **_COMMON, "conversion": {"enum": list(CONVERSIONS)},
        "direction": {"enum": ["eps_of_delta", "delta_of_eps"], "description": "eps_of_delta: params rho, delta; "
                      "value eps.  delta_of_eps: params rho, eps; value delta"},
        "params": _DEC_MAP, **_VALUE}),
    "bstar": _schema("bstar", "dpbounds golden: B*(eps_g, delta_g), the largest zCDP budget a conversion accepts", {
        **_COMMON, "conversion": {"enum": list(CONVERSIONS)}, "params": _DEC_MAP,
        "b_star": dict(_DEC, description="B* rounded down to `digits` digits (never overstated; every digit backed)"),
        "digits": {"type": "integer", "minimum": 1},
        "lo": dict(_DEC, description="certified lower end of B* (feasible)"),
        "hi": dict(_DEC, description="certified upper end of B* (infeasible above)"),
        "lower": {"type": "number", "description": "the largest float64 <= lo"},
        "valid_conversion": {"type": "boolean"}}),
    "manifest": {
        "$schema": "https://json-schema.org/draft/2020-12/schema", "$id": f"{SCHEMA_ID}manifest",
        "title": "dpbounds golden: manifest.json", "type": "object", "additionalProperties": False,
        "required": ["format", "generator", "dpbounds_version", "spec_version", "grid", "digits", "records",
                     "files"],
        "properties": {
            "format": {"const": FORMAT}, "generator": {"type": "string"}, "dpbounds_version": {"type": "string"},
            "spec_version": _COMMON["spec_version"], "grid": {"enum": ["sample", "default", "dense"]},
            "digits": {"type": "integer"}, "records": {"type": "integer", "minimum": 0},
            "files": {"type": "object", "additionalProperties": {
                "type": "object", "additionalProperties": False, "required": ["sha256", "kind", "records"],
                "properties": {"sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
                               "kind": {"enum": list(KINDS) + ["schema"]},
                               "records": {"type": "integer", "minimum": 0}}}}}},
}


def schema_text(kind: str) -> str:
    """The schema file of one kind, as written (and committed under dpbounds/outputs/schemas/)."""
    return json.dumps(SCHEMAS[kind], indent=2, sort_keys=True) + "\n"


def validate(schema: dict, obj: Any, where: str = "$") -> list[str]:
    """Violations of ``obj`` against the subset of JSON Schema the golden schemas use (empty when valid).

    The tests check every file with the independent ``jsonschema`` package too; this one serves ``--check``
    without a dependency."""
    errs: list[str] = []
    types = schema.get("type")
    if types is not None:
        names = [types] if isinstance(types, str) else types
        ok = {"string": isinstance(obj, str), "null": obj is None, "boolean": isinstance(obj, bool),
              "object": isinstance(obj, dict), "array": isinstance(obj, list),
              "integer": isinstance(obj, int) and not isinstance(obj, bool),
              "number": isinstance(obj, (int, float)) and not isinstance(obj, bool)}
        if not any(ok[t] for t in names):
            return [f"{where}: {obj!r} is not of type {types}"]
    if "const" in schema and obj != schema["const"]:
        errs.append(f"{where}: {obj!r} != {schema['const']!r}")
    if "enum" in schema and obj not in schema["enum"]:
        errs.append(f"{where}: {obj!r} not in {schema['enum']}")
    if isinstance(obj, str) and "pattern" in schema and not re.search(schema["pattern"], obj):
        errs.append(f"{where}: {obj!r} does not match {schema['pattern']}")
    if isinstance(obj, (int, float)) and not isinstance(obj, bool) and "minimum" in schema \
            and obj < schema["minimum"]:
        errs.append(f"{where}: {obj!r} < {schema['minimum']}")
    if isinstance(obj, dict):
        props = schema.get("properties", {})
        errs += [f"{where}: missing {k}" for k in schema.get("required", []) if k not in obj]
        extra = schema.get("additionalProperties", True)
        for k, v in obj.items():
            if k in props:
                errs += validate(props[k], v, f"{where}.{k}")
            elif extra is False:
                errs.append(f"{where}: unexpected key {k}")
            elif isinstance(extra, dict):
                errs += validate(extra, v, f"{where}.{k}")
    return errs


# ------------------------------------------------------------------------------------------------
# Provenance and value blocks
# ------------------------------------------------------------------------------------------------

def source_of(entry: spec.SpecEntry) -> str:
    """The citation a golden file gives for an entry: "[KEY] " and the spec's full citation (authors, title, venue,
    arXiv id and version, theorem and equation; the seed file as a secondary locator).  One function, so a richer spec citation
    reaches every golden record."""
    return f"[{entry.source.paper}] {entry.source}"


def _common(entry: spec.SpecEntry, kind: str, version: str) -> dict:
    return {"kind": kind, "id": entry.id, "source": source_of(entry), "caveat": entry.caveat,
            "dpbounds_version": DPBOUNDS_VERSION, "spec_version": version}


def _float_or_none(x: float) -> float | None:
    if x != x or x == float("-inf"):
        raise CertificationError(f"no float64 bracket for {x}")
    return None if x == float("inf") else x


def _representable(q: Fraction) -> bool:
    """q = 0 or 2**-(2**20) < |q| < 2**(2**20) (the range of dpbounds.evaluation.evaluate's enclosure ends)."""
    return q == 0 or abs(q.numerator.bit_length() - q.denominator.bit_length()) < (1 << 20)


def value_block(enc: Enclosure, digits: int, exact_q: Fraction | None = None) -> dict | None:
    """The value fields of a record: only backed digits, the exact value when known; None if no digit is backed.

    ``exact_q`` (optional) is the exact rational value (from the spec); it must lie in the enclosure."""
    if enc.pos_inf:
        return {"value": None, "digits": 0, "exact": False, "infinite": True, "lo": None, "hi": None,
                "upper": None, "lower": None}
    if not (_representable(enc.lo) and _representable(enc.hi)):
        return None  # an end beyond 2**(+-2**20): no decimal is rendered for it (bounded work), the record is left out
    if exact_q is None and enc.lo == enc.hi:
        exact_q = enc.lo
    if exact_q is not None:
        if not enc.lo <= exact_q <= enc.hi:
            raise CertificationError(f"exact value {exact_q} outside its enclosure")
        s = round_nearest(exact_q, digits)
        if Fraction(s) == exact_q:  # a terminating decimal within `digits` digits: shown exactly
            d = len(s.lstrip("-").split("E")[0].replace(".", "").lstrip("0")) or 1
            return {"value": s, "digits": d, "exact": True, "infinite": False, "lo": s, "hi": s,
                    "upper": _float_or_none(float_up(exact_q)), "lower": _float_or_none(float_down(exact_q))}
    b = backed_decimal(enc.lo, enc.hi, digits)
    if b is None:
        return None
    return {"value": b[0], "digits": b[1], "exact": False, "infinite": False,
            "lo": decimal_round(enc.lo, digits + 5, "floor"), "hi": decimal_round(enc.hi, digits + 5, "ceiling"),
            "upper": _float_or_none(enc.upper()), "lower": _float_or_none(enc.lower())}


def _certified_block(entry: spec.SpecEntry, inp, digits: int, max_bits: int) -> dict | None:
    """value_block of the entry at prepared inputs, with the spec's exact value when it decides one.

    An exact value is only reported inside a certified enclosure (a value at 0 is enclosed in absolute terms,
    which may need more bits than ``max_bits``: then, and only when the spec decides the value, up to 2^13)."""
    q = exact_value(entry, inp.params, inp.aggregates, simplify=False) if entry.optimize is None else None
    try:
        enc = enclose_inputs(entry, inp, rel_tol=Fraction(1, 10 ** (digits + 3)), max_bits=max_bits)
    except CertificationError:
        if q is None:
            q = exact_value(entry, inp.params, inp.aggregates) if entry.optimize is None else None
        if q is None:
            raise
        enc = enclose_inputs(entry, inp, rel_tol=Fraction(1, 10 ** (digits + 3)), max_bits=max(max_bits, 1 << 13))
    if q is None and not enc.pos_inf and entry.optimize is None:
        b = backed_decimal(enc.lo, enc.hi, digits)
        if b is None or b[1] < digits:
            q = exact_value(entry, inp.params, inp.aggregates)
    return value_block(enc, digits, q if q is not None and not enc.pos_inf and enc.lo <= q <= enc.hi else None)


# ------------------------------------------------------------------------------------------------
# Bound records
# ------------------------------------------------------------------------------------------------

def _grid_points(entry: spec.SpecEntry, grid: str) -> Iterable[dict[str, str]]:
    """Grid points for an entry: the sample point, each name varied alone (default), or products (dense); an entry
    with only an opaque evaluator: its :data:`OPAQUE_POINTS` (its sample point if it has none)."""
    if entry.evaluator:
        pts = OPAQUE_POINTS.get(entry.id, {"sample": [entry.sample_point()], "full": []})
        yield from (dict(p) for p in pts["sample"] + (pts["full"] if grid != "sample" else []))
        return
    base = entry.sample_point()
    if entry.optimize is not None:
        base.pop(entry.optimize.var, None)
    names = sorted(base)
    yield dict(base)
    if grid == "sample" or (entry.optimize is not None and grid == "default") or entry.id in SAMPLE_POINT_ONLY:
        # an infimum is certified by branch and bound (and the delta form by bisection on top): on the default
        # grid these entries get their sample point only; --grid dense covers them fully
        return
    for nm in names:
        for v in GRID.get(nm, []):
            yield {**base, nm: v}
    width = 2 if grid == "default" else len(names)
    cap = 60 if grid == "default" else 400
    count = 0
    for combo in itertools.combinations(names, min(width, len(names))):
        for values in itertools.product(*[GRID.get(nm, [base[nm]]) for nm in combo]):
            yield {**base, **dict(zip(combo, values))}
            count += 1
            if count >= cap:
                return


def _sci_if_ambiguous(value: str, digits: int) -> str:
    """``value`` in scientific notation when its plain form shows trailing zeros that are not digits (few backed
    digits of a large value: "2440" with 3 digits becomes "2.44E+3"), else unchanged."""
    if len(value.lstrip("-").split("E")[0].replace(".", "").lstrip("0")) == digits:
        return value
    return format(decimal.Decimal(value), f".{digits - 1}E")


def opaque_block(entry: spec.SpecEntry, inp: Inputs, digits: int, rel_tol: str = OPAQUE_REL_TOL) -> dict | None:
    """The value fields of an entry evaluated only by its opaque certified evaluator, plus ``rel_tol``: the enclosure
    certified to relative width ``rel_tol`` (a decimal string), ``value`` the digits it backs (at most ``digits``);
    None when no digit is backed or the outward-rounded ends exceed the width."""
    tol = Fraction(rel_tol)
    enc = enclose_inputs(entry, inp, rel_tol=tol)  # -> the entry's evaluator (enclose_opaque checks the width)
    block = value_block(enc, digits)
    if block is None:
        return None
    if not block["infinite"] and not block["exact"]:
        block["value"] = _sci_if_ambiguous(block["value"], block["digits"])
    if not block["infinite"]:  # the written (outward-rounded) ends must still meet the stated width
        lo, hi = Fraction(block["lo"]), Fraction(block["hi"])
        if hi - lo > tol * max(abs(lo), abs(hi)):
            return None
    return {**block, "rel_tol": rel_tol}


def _bound_record(entry: spec.SpecEntry, pt: dict[str, str], digits: int, version: str,
                  rel_tol: str = OPAQUE_REL_TOL) -> dict | None:
    """The bound record at a grid point (None if the point is refused or nothing is certified there); an entry with
    only an opaque evaluator is certified to relative width ``rel_tol`` (see :func:`opaque_block`)."""
    params = {k: v for k, v in pt.items() if k in entry.params}
    aggs = {k: v for k, v in pt.items() if k in entry.aggregates}
    opts = {k: v for k, v in pt.items() if k in entry.options or k in entry.text_params}
    try:
        inp = prepare(entry, {**params, **opts}, aggregates=aggs)
        # a bounded precision budget: a point whose value cannot be certified within it is left out, not guessed
        block = opaque_block(entry, inp, digits, rel_tol) if entry.evaluator else \
            _certified_block(entry, inp, digits, max(512, 8 * digits + 256))
    except (spec.DomainError, CertificationError, NotCertified):
        return None
    if block is None or any(v is POS_INF for v in inp.aggregates.values()):
        return None
    shown = {k: fraction_to_decimal_str(v) for k, v in inp.params.items() if k not in opts}
    shown.update({k: fraction_to_decimal_str(v[0]) for k, v in inp.aggregates.items()})
    rec = {**_common(entry, "bound", version), "params": dict(sorted(shown.items())), **block, "halt": None}
    if opts:
        rec["options"] = {k: inp.params[k] for k in sorted(opts)}
    if entry.kind is Kind.FILTER and entry.halt is not None:
        rec["halt"] = decide(entry, inp)
    return rec


# ------------------------------------------------------------------------------------------------
# Streams
# ------------------------------------------------------------------------------------------------

def round_inputs(entry: spec.SpecEntry) -> tuple[str, ...]:
    """The per-round inputs (of eps, delta, rho) that feed the entry's aggregates; delta with eps (0 if pure)."""
    names = set()
    for a in entry.aggregates:
        names |= {s.name for s in AGGREGATES[a].expr.free_symbols}
    if "eps" in names:
        names.add("delta")
    return tuple(n for n in ("eps", "delta", "rho") if n in names)


def _is_pure(entry: spec.SpecEntry) -> bool:
    return any(str(r) == "Eq(delta, 0)" for r in entry.per_round_domain)


def _spend_name(entry: spec.SpecEntry) -> str:
    names = round_inputs(entry)
    return "eps" if "eps" in names else "rho" if "rho" in names or not names else "delta"  # delta: kov15.lift


def _float_exact(x: str | Fraction) -> str:
    """The exact decimal of the float64 nearest to ``x`` (canonical: 1e-12 -> 0.000000000001...)."""
    return fraction_to_decimal_str(Fraction(float(Fraction(x))))


class _Stream:
    """Per-round costs of one stream, as exact decimal strings of float64 values, per input name."""

    def __init__(self, names: tuple[str, ...]):
        self.names = names
        self.rounds: dict[str, list[str]] = {n: [] for n in names}

    def add(self, **costs: str) -> None:
        for n in self.names:  # the exact decimal of the nearest float64 (float contract: a float implementation
            # receives exactly the record's cost, so its decisions can be judged against the record's)
            self.rounds[n].append(_float_exact(costs.get(n, "0")))

    @classmethod
    def of(cls, other: "_Stream", n: int) -> "_Stream":
        """A copy of the first n rounds of ``other``."""
        s = cls(other.names)
        s.rounds = {k: list(v[:n]) for k, v in other.rounds.items()}
        return s

    def __len__(self) -> int:
        return len(self.rounds[self.names[0]])

    def prefix(self, i: int) -> dict[str, list[str]]:
        return {n: v[:i] for n, v in self.rounds.items()}


def _stream_inputs(entry, params: dict[str, str], rounds: dict[str, list[str]]) -> Inputs:
    """Inputs of the entry after the rounds: the exact parameters and each aggregate summed as count x (the
    certified enclosure of one round's term), over the distinct rounds (sound: c lo <= c term <= c hi)."""
    names = tuple(rounds)
    aggs: dict[str, Any] = {a: (Fraction(0), Fraction(0)) for a in entry.aggregates}
    for row, c in Counter(zip(*(rounds[n] for n in names))).items():
        for a, t in _round_term(entry.id, names, row).items():
            if aggs[a] is POS_INF or t is POS_INF:
                aggs[a] = POS_INF
            else:
                aggs[a] = (aggs[a][0] + c * t[0], aggs[a][1] + c * t[1])
    return Inputs(dict(_checked(entry.id, tuple(sorted(params.items())))), aggs)


@functools.lru_cache(maxsize=4096)
def _round_term(entry_id: str, names: tuple[str, ...], row: tuple[str, ...]) -> dict:
    """The entry's aggregates of one round (a pure function, memoized: streams repeat few distinct rounds)."""
    return aggregates_for(spec.get(entry_id), **{n: [Fraction(x)] for n, x in zip(names, row)})


@functools.lru_cache(maxsize=256)
def _checked(entry_id: str, params: tuple) -> dict:
    return spec.get(entry_id).check_values(dict(params))


def _halts(entry, budget, rounds: dict[str, list[str]]) -> bool:
    return decide(entry, _stream_inputs(entry, budget, rounds))


def _dec(q: Fraction, digits: int = 20) -> str:
    return decimal_round(q, digits, "nearest")


def _scale(entry, budget, spend: str, names, n_target: int = 30) -> Fraction | None:
    """The largest cost v on a 1-2-5 grid such that n_target rounds of v continue (None if none does)."""
    cands = [Fraction(m) * Fraction(10) ** k for k in range(-6, 2) for m in (1, 2, 5)]
    ok = None
    lo, hi = 0, len(cands) - 1
    while lo <= hi:  # the decision at n_target rounds is monotone in v: bisect the index
        mid = (lo + hi) // 2
        rounds = {n: [fraction_to_decimal_str(cands[mid]) if n == spend else "0"] * n_target for n in names}
        if _halts(entry, budget, rounds):
            hi = mid - 1
        else:
            ok = cands[mid]
            lo = mid + 1
    return ok


def _tie(entry, budget, stream: _Stream, name: str, top: Fraction) -> tuple[str, str] | None:
    """(x_cont, x_halt): last-round costs in [0, top] for ``name`` on which the decision flips, within TIE_REL."""
    def halts_with(x: str) -> bool:
        r = stream.prefix(len(stream))
        r[name] = r[name] + [x]
        for n in stream.names:
            if n != name:
                r[n] = r[n] + ["0"]
        return _halts(entry, budget, r)
    lo, hi = Fraction(0), top
    if halts_with("0") or not halts_with(fraction_to_decimal_str(top)):
        return None
    for _ in range(200):
        if hi - lo <= hi * TIE_REL:
            break
        mid = Fraction(_dec((lo + hi) / 2, 22))
        if mid in (lo, hi):
            break
        if halts_with(fraction_to_decimal_str(mid)):
            hi = mid
        else:
            lo = mid
    for d in range(1, 26):  # snap the CONT end to the shortest decimal that still continues: an exact tie shows
        c = Fraction(decimal_round(hi, d, "floor"))  # as itself (e.g. the round that brings the sum to the budget)
        if c > lo and not halts_with(fraction_to_decimal_str(c)):
            lo = c
            break
    # float64 ends, outward (CONT and HALT are monotone in the cost), then bisected to adjacent floats: the CONT end
    # is the largest float64 that continues, the HALT end the next one up
    a, b = float_down(lo), float_up(hi)
    while math.nextafter(a, math.inf) < b:
        mid = _float_mid(a, b)
        if halts_with(fraction_to_decimal_str(Fraction(mid))):
            b = mid
        else:
            a = mid
    return fraction_to_decimal_str(Fraction(a)), fraction_to_decimal_str(Fraction(b))


def _float_mid(a: float, b: float) -> float:
    """A float64 strictly between a < b (not adjacent, both >= 0): the midpoint in float64 order."""
    ia, ib = struct.unpack("<q", struct.pack("<d", a))[0], struct.unpack("<q", struct.pack("<d", b))[0]
    return struct.unpack("<d", struct.pack("<q", (ia + ib) // 2))[0]


def _filter_streams(entry, budget, seed: int) -> list[tuple[str, _Stream]]:
    """Named streams for a filter at one budget: constant, mixed, zeros, tie_below/above and the delta side."""
    names = round_inputs(entry)
    spend = _spend_name(entry)
    v = _scale(entry, budget, spend, names)
    if v is None:
        return []
    vs = fraction_to_decimal_str(v)
    out = []
    const = _Stream(names)
    for _ in range(MAX_ROUNDS):
        const.add(**{spend: vs})
    out.append(("constant", const))
    rng = random.Random(seed)
    mixed = _Stream(names)
    for _ in range(MAX_ROUNDS):
        costs = {spend: fraction_to_decimal_str(v * rng.choice([Fraction(1, 10), Fraction(1, 2), 1, 2]))}
        if "delta" in names and spend != "delta" and not _is_pure(entry):
            costs["delta"] = rng.choice(["0", "1e-12", "1e-9"])
        mixed.add(**costs)
    out.append(("mixed", mixed))
    zeros = _Stream(names)
    for i in range(MAX_ROUNDS):
        zeros.add(**{spend: vs if i % 3 == 1 else "0"})
    out.append(("zeros", zeros))
    # the boundary: a stream's CONT prefix, then a last round within TIE_REL of HALT (the constant prefix often
    # lands exactly on the budget: CONT at equality, HALT just above; the mixed one does not)
    # exact ties: a constant power-of-two cost, so that for the sum rules at a budget that is a multiple of it the
    # CONT end of the last round lands exactly on the budget (labelled exact_tie_below / exact_tie_above)
    dyadic = _Stream(names)
    for _ in range(MAX_ROUNDS):
        dyadic.add(**{spend: fraction_to_decimal_str(Fraction(2) ** math.floor(math.log2(v)))})
    for label, base in (("tie", const), ("mixed_tie", mixed), ("exact_tie", dyadic)):
        h = _first_halt(entry, budget, base)
        if h is not None and h >= 2:  # the last round: in (0, 2v], the boundary strictly inside
            out += _tie_streams(entry, budget, label, _Stream.of(base, h - 2), spend, v * 4)
    if "delta" in names and spend != "delta" and not _is_pure(entry):
        out += _delta_side(entry, budget, names, spend, v)
    return out


def _delta_side(entry, budget, names, spend, v) -> list[tuple[str, _Stream]]:
    """Streams that HALT on the delta side: a small cost per round and deltas that exhaust the delta budget."""
    small = fraction_to_decimal_str(v / 1000)
    cands = [Fraction(m) * Fraction(10) ** k for k in range(-16, 0) for m in (1, 2, 5)]
    d = None
    for c in reversed(cands):  # the largest delta of which 10 rounds continue
        if not _halts(entry, budget, {n: [small if n == spend else fraction_to_decimal_str(c) if n == "delta"
                                          else "0"] * 10 for n in names}):
            d = c
            break
    if d is None:
        return []
    ds = fraction_to_decimal_str(d)
    s = _Stream(names)
    for _ in range(MAX_ROUNDS):
        s.add(**{spend: small, "delta": ds})
    h = _first_halt(entry, budget, s)
    if h is None:
        return []
    # on the delta side: the same rounds with delta = 0 continue
    no_delta = {n: (["0"] * h if n == "delta" else s.rounds[n][:h]) for n in names}
    if _halts(entry, budget, no_delta):
        return []
    return [("delta_side", s)] + (_tie_streams(entry, budget, "delta_tie", _Stream.of(s, h - 2), "delta", 2 * d)
                                  if h >= 2 else [])


def _tie_streams(entry, budget, label: str, prefix: "_Stream", name: str, top: Fraction) -> list:
    """<label>_below (CONT) and <label>_above (HALT): ``prefix`` plus one round of ``name`` at the two ends of a
    certified bracket of the flip point, within TIE_REL relative of each other."""
    t = _tie(entry, budget, prefix, name, top)
    if t is None:
        return []
    out = []
    for suffix, x in zip(("below", "above"), t):
        s = _Stream.of(prefix, len(prefix))
        s.add(**{name: x})
        out.append((f"{label}_{suffix}", s))
    return out


def _first_halt(entry, budget, stream: _Stream) -> int | None:
    """The first round (1-based) at which the filter says HALT on the stream, by bisection (monotone)."""
    n = len(stream)
    if not _halts(entry, budget, stream.prefix(n)):
        return None
    lo, hi = 0, n  # prefix lo continues (0: nothing spent), prefix hi halts
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _halts(entry, budget, stream.prefix(mid)):
            hi = mid
        else:
            lo = mid
    return hi


def _round_fields(entry, stream: _Stream, i: int) -> dict:
    names = stream.names
    return {n: (stream.rounds[n][i] if n in names else None) for n in ("eps", "delta", "rho")}


def _filter_stream_records(entry, budget, version, seed) -> list[dict]:
    """Per-round certified decisions from scratch on every prefix (independent of dpbounds.accounting), up to and
    including the first HALT."""
    recs = []
    for name, s in _filter_streams(entry, budget, seed):
        for i in range(1, len(s) + 1):
            halt = _halts(entry, budget, s.prefix(i))
            recs.append({**_common(entry, "filter_stream", version), "budget": dict(sorted(budget.items())),
                         "stream": name, "round": i, **_round_fields(entry, s, i - 1), "halt": halt})
            if halt:
                break
    return recs


def _odometer_stream_records(entry, params, version, digits, seed) -> list[dict]:
    names = round_inputs(entry)
    spend = _spend_name(entry)
    rng = random.Random(seed)
    streams = []
    s = _Stream(names)
    for _ in range(30):
        s.add(**{spend: "0.05"})
    streams.append(("constant", s))
    s = _Stream(names)
    for _ in range(40):
        costs = {spend: rng.choice(["0.001", "0.01", "0.05", "0.1", "0.3"])}
        if "delta" in names and not _is_pure(entry):
            costs["delta"] = rng.choice(["0", "1e-12", "1e-9"])
        s.add(**costs)
    streams.append(("mixed", s))
    s = _Stream(names)
    for i in range(20):
        s.add(**{spend: "0.1" if i % 3 == 1 else "0"})
    streams.append(("zeros", s))
    recs = []
    for name, s in streams:
        for i in range(1, len(s) + 1):
            try:
                block = _certified_block(entry, _stream_inputs(entry, params, s.prefix(i)), digits, 1 << 13)
            except (spec.DomainError, CertificationError, NotCertified):
                break
            if block is None:
                break
            recs.append({**_common(entry, "odometer_stream", version), "params": dict(sorted(params.items())),
                         "stream": name, "round": i, **_round_fields(entry, s, i - 1), **block})
    return recs


def _variants(entry, values: dict[str, list[str]], limit: int) -> list[dict[str, str]]:
    """The sample parameters, then the first name of ``values`` the entry has set to each listed value."""
    base = {k: v for k, v in entry.sample_point().items() if k in entry.params}
    out = [base]
    for nm, vals in values.items():
        if nm in base:
            for v in vals:
                out.append({**base, nm: v})
            break
    good, seen = [], set()
    for b in out:
        try:
            key = tuple(sorted((k, fraction_to_decimal_str(q)) for k, q in entry.check_values(b).items()))
        except spec.DomainError:
            continue
        if key not in seen:
            seen.add(key)
            good.append(dict(key))
    return good[:limit]


#: significant digits of a budget's B when it is replaced by the certified B* (rounded down: still valid)
BUDGET_B_DIGITS = 6


def _certified_budget(entry, budget: dict[str, str]) -> dict[str, str] | None:
    """The budget as dpbounds' own filter accepts it, so that no record certifies a budget the theorem does not.

    Where B must not exceed B*(eps_g, delta) of a valid conversion (fz21.thm4_7, wrrw23.thm1.cks20, st22.filter,
    kth23.individual_filter) and the grid's B does, B becomes the certified lower end of B* rounded down to
    :data:`BUDGET_B_DIGITS` digits; a budget refused for any other reason is left out (None)."""
    try:
        make_filter(entry.id, **budget)
        return budget
    except spec.DomainError as e:
        if e.param != "B":
            return None
    try:
        b = make_filter(entry.id, **{k: v for k, v in budget.items() if k != "B"}).budget["B"]
        fixed = {**budget, "B": decimal_round(Fraction(b), BUDGET_B_DIGITS, "floor")}
        make_filter(entry.id, **fixed)
    except spec.DomainError:
        return None
    return fixed


# ------------------------------------------------------------------------------------------------
# Conversions and B*
# ------------------------------------------------------------------------------------------------

def _canon(x: str) -> str:
    return fraction_to_decimal_str(Fraction(x))


def _conversion_records(conv: str, direction: str, grid: dict, version: str, digits: int) -> list[dict]:
    entry = spec.get(f"conversions.{conv}" if direction == "eps_of_delta" or conv == "bs16"
                     else "conversions.cks20.delta")
    other = "delta" if direction == "eps_of_delta" else "eps"
    recs = []
    for rho, x in itertools.product(grid["rho"], grid[other]):
        try:
            enc = (eps_of(rho, x, conv, rel_tol=Fraction(1, 10 ** (digits + 3))) if direction == "eps_of_delta"
                   else delta_of(rho, x, conv))
            block = value_block(enc, digits)
        except (spec.DomainError, CertificationError, NotCertified):
            continue
        if block is None:
            continue
        recs.append({**_common(entry, "conversion", version), "conversion": conv, "direction": direction,
                     "params": {"rho": _canon(rho), other: _canon(x)}, **block})
    return recs


def _bstar_records(conv: str, grid: dict, version: str) -> list[dict]:
    entry = spec.get("conversions.bs16.b_star" if conv == "bs16" else "conversions.cks20")
    recs = []
    for eps_g, delta_g in itertools.product(grid["eps_g"], grid["delta_g"]):
        try:
            b, d = b_star_to_digits(eps_g, delta_g, conv, BSTAR_DIGITS)
        except (spec.DomainError, CertificationError, NotCertified):
            continue
        if d < 1:
            continue
        lo, hi = b.bracket
        recs.append({**_common(entry, "bstar", version), "conversion": conv,
                     "params": {"delta_g": _canon(delta_g), "eps_g": _canon(eps_g)}, "b_star": decimal_round(lo, d, "floor"),
                     "digits": d, "lo": decimal_round(lo, BSTAR_DIGITS + 5, "floor"),
                     "hi": decimal_round(hi, BSTAR_DIGITS + 5, "ceiling"), "lower": float_down(lo),
                     "valid_conversion": b.valid_conversion})
    return recs


# ------------------------------------------------------------------------------------------------
# Files
# ------------------------------------------------------------------------------------------------

def _dumps(rec: dict) -> str:
    return json.dumps(rec, sort_keys=True, separators=(",", ":"), allow_nan=False)


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return json.dumps(v)  # the shortest repr that round-trips, as in the JSON twin
    return str(v)


def csv_text(records: list[dict]) -> str:
    """The CSV twin of a list of records: nested objects flattened as ``params.NAME`` columns, null as an empty
    cell, booleans as true/false, numbers as in JSON."""
    top = sorted({k for r in records for k, v in r.items() if not isinstance(v, dict)})
    nested = sorted({f"{k}.{n}" for r in records for k, v in r.items() if isinstance(v, dict) for n in v})
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(top + nested)
    for r in records:
        w.writerow([_cell(r.get(k)) for k in top] +
                   [_cell(r.get(c.split(".", 1)[0], {}).get(c.split(".", 1)[1])) for c in nested])
    return buf.getvalue()


def _add(files: dict, kinds: dict, rel: str, kind: str, records: list[dict]) -> int:
    """Add a JSONL file and its CSV twin, dropping exact duplicate records; the number of records kept."""
    seen, uniq = set(), []
    for r in records:
        line = _dumps(r)
        if line not in seen:
            seen.add(line)
            uniq.append(r)
    if not uniq:
        return 0
    files[rel + ".jsonl"] = "".join(_dumps(r) + "\n" for r in uniq)
    files[rel + ".csv"] = csv_text(uniq)
    kinds[rel + ".jsonl"] = kinds[rel + ".csv"] = (kind, len(uniq))
    return len(uniq)


def golden_files(bounds: list[str] | None = None, grid: str = "default", digits: int = 40,
                 streams: bool = True, conversions: bool = True) -> dict[str, str]:
    """Every file of the golden tree (relative path -> text), manifest.json included."""
    if grid not in ("sample", "default", "dense"):
        raise spec.DomainError("grid", grid, "one of sample, default, dense", "dpbounds golden")
    if isinstance(digits, bool) or not isinstance(digits, int) or not 5 <= digits <= 1000:
        raise spec.DomainError("digits", digits, "an integer in [5, 1000]", "dpbounds golden")
    reg = spec.registry()
    if bounds is not None and (isinstance(bounds, (str, bytes)) or not all(isinstance(b, str) for b in bounds)):
        raise TypeError("bounds: expected a list of spec ids (str)")
    if bounds:
        entries = [spec.get(b) for b in dict.fromkeys(bounds)]  # a repeated id once (its file is written once)
    else:
        entries = [e for e in reg.values() if e.kind is not Kind.AGGREGATE and not e.expr.is_Boolean]
    version = registry_hash()
    files: dict[str, str] = {}
    kinds: dict[str, tuple[str, int]] = {}
    n = 0
    limit = 1 if grid == "sample" else 3
    sdigits = min(digits, 30)
    with Progress(len(entries) + (2 * len(CONVERSIONS) if conversions else 0), "golden vectors") as bar:
        for e in entries:
            recs, seen = [], set()
            for pt in _grid_points(e, grid):
                if e.kind is Kind.FILTER:  # a filter's point at a budget its theorem certifies (as the streams)
                    b = _certified_budget(e, {k: v for k, v in pt.items() if k in e.params})
                    if b is None:
                        continue
                    pt = {**pt, **b}
                r = _bound_record(e, pt, digits, version)
                if r is not None and _dumps([r["params"], r.get("options")]) not in seen:
                    seen.add(_dumps([r["params"], r.get("options")]))
                    recs.append(r)
            n += _add(files, kinds, f"bounds/{e.id}", "bound", recs)
            if streams and e.aggregates and e.kind is Kind.FILTER and e.halt is not None:
                seed = int(hashlib.sha256(e.id.encode()).hexdigest()[:8], 16)
                budgets: list[dict[str, str]] = []
                for b in _variants(e, BUDGET_VALUES, limit):
                    cb = _certified_budget(e, b)
                    if cb is not None and cb not in budgets:  # (two grid B's can become the same B*)
                        budgets.append(cb)
                srecs = [r for b in budgets for r in _filter_stream_records(e, b, version, seed)]
                n += _add(files, kinds, f"streams/{e.id}", "filter_stream", srecs)
            elif streams and e.aggregates and e.kind is Kind.ODOMETER:
                seed = int(hashlib.sha256(e.id.encode()).hexdigest()[:8], 16)
                srecs = [r for p in _variants(e, ODOMETER_VALUES, limit)
                         for r in _odometer_stream_records(e, p, version, sdigits, seed)]
                n += _add(files, kinds, f"streams/{e.id}", "odometer_stream", srecs)
            bar.update(1, e.id)
        if conversions:
            cg = CONVERSION_GRIDS[grid]
            for conv in CONVERSIONS:
                for direction in ("eps_of_delta", "delta_of_eps"):
                    n += _add(files, kinds, f"conversions/{conv}.{direction}", "conversion",
                              _conversion_records(conv, direction, cg, version, min(digits, 20)))
                bar.update(1, f"conversions {conv}")
                n += _add(files, kinds, f"bstar/{conv}", "bstar", _bstar_records(conv, cg, version))
                bar.update(1, f"bstar {conv}")
    for kind in KINDS:
        files[f"schemas/{kind}.schema.json"] = schema_text(kind)
        kinds[f"schemas/{kind}.schema.json"] = ("schema", 1)
    manifest = {"format": FORMAT, "generator": GENERATOR, "dpbounds_version": DPBOUNDS_VERSION,
                "spec_version": version, "grid": grid, "digits": digits, "records": n,
                "files": {rel: {"sha256": hashlib.sha256(text.encode()).hexdigest(), "kind": kinds[rel][0],
                                "records": kinds[rel][1]} for rel, text in sorted(files.items())}}
    files["manifest.json"] = json.dumps(manifest, indent=2, sort_keys=True) + "\n"
    return files


def write_golden(out_dir: str | Path, bounds: list[str] | None = None, grid: str = "default", digits: int = 40,
                 streams: bool = True, conversions: bool = True) -> str:
    """Write the golden vectors to ``out_dir``, replacing it as a whole; returns a one-line summary."""
    check_target(out_dir)  # before the work, so a bad --out is refused at once
    files = golden_files(bounds, grid, digits, streams, conversions)
    replace_tree(out_dir, files)
    m = json.loads(files["manifest.json"])
    return f"{m['records']} records in {len(files)} files, spec version {m['spec_version'][:12]}"


#: the file names a golden tree may hold (relative to its root): nothing else is written, opened or replaced
LAYOUT_NAME = re.compile(r"(?:(?:bounds|streams|conversions|bstar)/[A-Za-z0-9][A-Za-z0-9_.+-]{0,200}\.(?:jsonl|csv)"
                         r"|schemas/[a-z_]{1,40}\.schema\.json)")


def layout_name(rel: Any) -> bool:
    """Whether ``rel`` is a name of the golden layout (no ``..``, no absolute path, nothing outside the tree)."""
    return isinstance(rel, str) and LAYOUT_NAME.fullmatch(rel) is not None and ".." not in rel.split("/")


def _owned_by_us(d: Path) -> bool:
    """True iff ``d`` is an empty directory or a tree this generator wrote: its ``manifest.json`` a regular file
    (never read through a symlink, FIFO or device) naming this generator family, and the files present exactly the
    manifest's list plus the manifest -- regular files and directories only.  A folder holding anything the
    manifest does not list (a user's thesis.tex) is not ours: replacing it would delete that file."""
    import stat

    from dpbounds.outputs.golden_load import GoldenInputError, decode_text, parse_json, read_regular_bytes
    try:
        if not any(d.iterdir()):
            return True
        present: set[str] = set()
        stack = [(d, "")]
        while stack:  # lstat only: a symlink, FIFO, device or socket anywhere means not ours
            top, prefix = stack.pop()
            for ent in os.scandir(top):
                st = ent.stat(follow_symlinks=False)
                if stat.S_ISDIR(st.st_mode):
                    stack.append((Path(ent.path), prefix + ent.name + "/"))
                elif stat.S_ISREG(st.st_mode):
                    present.add(prefix + ent.name)
                else:
                    return False
                if len(present) + len(stack) > 100_000:
                    return False
        text = decode_text(read_regular_bytes(d / "manifest.json", 16 << 20), "manifest.json")
        m = parse_json(text, "manifest.json", 16 << 20)
    except (OSError, GoldenInputError):
        return False
    # every name a file of the golden layout: a manifest listing a user's thesis.tex proves nothing
    return (isinstance(m, dict) and m.get("format") == FORMAT and isinstance(m.get("files"), dict)
            and str(m.get("generator", "")).startswith("dpbounds.")
            and present == set(m["files"]) | {"manifest.json"} and all(layout_name(n) for n in m["files"]))


def _package_dirs() -> list[Path]:
    """The directories of the installed package: dpbounds itself and the subpackages that an editable install maps
    elsewhere (dpbounds.spec -> spec/, dpbounds.proofs_check -> proofs_check/)."""

    return [Path(__file__).resolve().parents[1], Path(spec.__file__).resolve().parent,
            Path(pc.__file__).resolve().parent]


def check_target(out_dir: str | Path) -> None:
    """DomainError unless ``out_dir`` may be replaced by a golden tree: not empty, not a symlink, file or device, not
    inside the installed package, and new, empty or an earlier golden tree (anything else would be deleted)."""
    if str(out_dir).strip() == "":
        raise spec.DomainError("--out", out_dir, "a directory path", "dpbounds golden")
    out = Path(out_dir)
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise spec.DomainError("--out", str(out), "a directory (not a symlink, file or device)", "dpbounds golden")
    if any(out.resolve() == pkg or pkg in out.resolve().parents for pkg in _package_dirs()):
        raise spec.DomainError("--out", str(out), "a directory outside the installed dpbounds package",
                               "dpbounds golden")
    if out.exists() and not _owned_by_us(out):
        raise spec.DomainError("--out", str(out), "a new or empty directory, or a tree dpbounds golden wrote "
                               "(its regular manifest.json lists every file present; this one has other files or no "
                               "such manifest, which the replacement would delete)", "dpbounds golden")
    try:  # the parent must exist or be creatable, before any work (the tree itself is swapped in at the end)
        out.absolute().parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise spec.DomainError("--out", str(out), "a writable directory path", "dpbounds golden",
                               e.strerror or type(e).__name__) from None


def replace_tree(out_dir: str | Path, files: dict[str, str]) -> None:
    """Replace directory ``out_dir`` by exactly ``files``, atomically as a whole.

    The tree is written into a fresh sibling directory (``mkdtemp``: a new name, never an existing one; fsynced),
    then swapped in: the old tree is renamed onto a second fresh empty directory, the new one renamed in, the old
    one removed.  A crash leaves the old complete tree, or the new complete tree at ``out`` -- or, killed between
    the two renames, the old complete tree beside it as ``.NAME.golden-old-XXXXXXXX`` (rename it back).  Only the
    directories this call created are ever removed: nothing else beside ``out`` is touched, whatever its name.
    Refuses (DomainError) a target that is a symlink or not a directory, and a non-empty directory that is not a
    golden tree (it would be deleted)."""
    import tempfile

    check_target(out_dir)
    out = Path(out_dir)
    parent = out.absolute().parent
    tmp = old = None
    moved_aside = False
    try:
        parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.golden-new-", dir=parent))
        for rel, text in sorted(files.items()):
            p = tmp / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            with open(p, "x", encoding="utf-8", newline="") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
        if out.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}.golden-old-", dir=parent))
            os.rename(out, old)  # onto our own empty directory (rename(2) replaces an empty directory)
            moved_aside = True
        os.rename(tmp, out)
        tmp = None
        moved_aside = False
        _fsync_dir(parent)
    except OSError as e:
        if moved_aside and not out.exists():  # the new tree did not go in: put the old one back
            try:
                os.rename(old, out)
                old = None
            except OSError:
                pass
        raise spec.DomainError("--out", str(out), "a writable directory path", "dpbounds golden",
                               e.strerror or str(e)) from None
    finally:
        for d in (tmp, old):  # ours (made by mkdtemp above), and only when the swap no longer needs them
            if d is not None and not (moved_aside and d == old):
                shutil.rmtree(d, ignore_errors=True)


def _fsync_dir(d: Path) -> None:
    try:
        fd = os.open(d, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        pass


# Reading and checking: dpbounds.outputs.golden_check (check_golden, verify_manifest) and golden_load (load_golden).
