"""Reduce per-round sequences (eps_i, delta_i, rho_i) to an entry's aggregates, exactly or with certified bounds.

* Python sequences (of str, int, Fraction, Decimal or float) are taken exactly.  Polynomial per-round terms
  (V = sum eps^2, S, D, ...) are summed in exact rationals; transcendental terms (A, KOV, LIFT, ...) are
  summed as arb balls at 128+ bits.
* numpy float64 arrays take the vectorized path: each term is an outward-rounded float interval
  (:class:`dpbounds.evaluation.interp.NpIntervalBackend`) and the ends are summed with ``math.fsum`` (correctly rounded),
  then moved one float outward.  So a 10^7-round stream gets an enclosure a few ulps wide that contains the
  exact sum -- the same certified value a 50-digit recomputation gives.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from typing import Any, Sequence

import numpy as np
import sympy as sp
from flint import arb

from dpbounds.spec import DomainError
from dpbounds.spec.aggregates import AGGREGATES
from dpbounds.spec.core import SpecEntry, parse_exact, sym

from dpbounds.evaluation.enclosure import CertificationError
from dpbounds.evaluation.interp import (POS_INF, ArbBackend, NpIntervalBackend, compile_expr, eval_rational_poly, rational_poly)
from dpbounds.evaluation.numeric import arb_endpoints, arb_prec

_ROUND_NAMES = ("eps", "delta", "rho")


def _as_exact_list(name: str, seq: Any, theorem: str) -> list[Fraction]:
    out = []
    seen: dict[str, Fraction] = {}  # a long stream repeats few literals: parse each once, share the Fraction
    for i, v in enumerate(seq):
        if isinstance(v, str) and v in seen:
            out.append(seen[v])
            continue
        try:
            q = parse_exact(name, v, theorem)
        except DomainError as e:
            raise DomainError(f"{name}[{i}]", v, e.domain, theorem, e.reason) from None
        if isinstance(v, str):
            seen[v] = q
        out.append(q)
    return out


def _check_round_values(name: str, vals, theorem: str) -> None:
    """Per-round domain: eps_i >= 0, rho_i >= 0, 0 <= delta_i < 1."""
    if isinstance(vals, np.ndarray):
        bad = np.isnan(vals) | np.isinf(vals) | (vals < 0)
        if name == "delta":
            bad |= vals >= 1
        if np.any(bad):
            i = int(np.flatnonzero(bad)[0])
            raise DomainError(f"{name}[{i}]", float(vals[i]), _ROUND_DOMAIN[name], theorem)
        return
    for i, v in enumerate(vals):
        if v < 0 or (name == "delta" and v >= 1):
            raise DomainError(f"{name}[{i}]", v, _ROUND_DOMAIN[name], theorem)


_ROUND_DOMAIN = {"eps": "eps_i >= 0 (a per-round epsilon)", "delta": "0 <= delta_i < 1 (a per-round delta)",
                 "rho": "rho_i >= 0 (a per-round zCDP/RDP cost)"}


def _is_float_array(x) -> bool:
    # float64 and narrower only: a longdouble array would be rounded by the float64 path; it is taken exactly
    return isinstance(x, np.ndarray) and x.dtype.kind == "f" and x.dtype.itemsize <= 8


def normalize_rounds(entry: SpecEntry, eps=None, delta=None, rho=None) -> dict:
    """Validated per-round sequences for the entry: exact lists, or float64 arrays for the vectorized path."""
    theorem = entry.theorem
    given = {"eps": eps, "delta": delta, "rho": rho}
    needed = set()
    for a in entry.aggregates:
        needed |= {s.name for s in AGGREGATES[a].expr.free_symbols}
    for name, seq in given.items():  # a sequence the entry does not use is refused, never silently ignored
        if seq is not None and name not in needed and not (name == "delta" and "eps" in needed):
            raise DomainError(name, "<sequence>", "per-round sequences among "
                              f"{', '.join(sorted(needed | ({'delta'} if 'eps' in needed else set())))} "
                              f"(the aggregates {', '.join(entry.aggregates)} use no '{name}')", theorem,
                              "unknown column")
    rounds: dict[str, Any] = {}
    n = None
    for name, seq in given.items():
        if seq is None:
            continue
        if isinstance(seq, (bytes, bytearray, memoryview)):  # (iterating one would read its bytes as numbers)
            raise TypeError(f"{name}: expected a sequence of real numbers, got {type(seq).__name__}")
        if isinstance(seq, str) or not hasattr(seq, "__len__") or \
                (isinstance(seq, np.ndarray) and seq.ndim == 0):
            raise DomainError(name, seq, "a sequence of per-round values", theorem)
        if len(seq) == 0:
            raise DomainError(name, "[]", "a non-empty sequence of per-round values (give the aggregates "
                              "directly, e.g. V=0, for the empty interaction)", theorem, "empty sequence")
        if n is not None and len(seq) != n:
            raise DomainError(name, f"<{len(seq)} values>", f"the same length as the other sequences ({n})",
                              theorem, "mismatched lengths")
        n = len(seq)
        if _is_float_array(seq) or (isinstance(seq, np.ndarray) and seq.dtype.kind in "iu"):
            arr = np.asarray(seq, dtype=np.float64).ravel()
            _check_round_values(name, arr, theorem)
            rounds[name] = arr
        else:
            vals = _as_exact_list(name, seq, theorem)
            _check_round_values(name, vals, theorem)
            rounds[name] = vals
    if n is None:
        raise DomainError("eps", None, "per-round sequences", theorem, "missing sequence")
    if "eps" in rounds:
        needed.add("delta")  # an omitted delta sequence means pure-DP rounds
    for name in needed:
        if name not in rounds:
            if name == "delta":  # pure rounds by default
                rounds["delta"] = np.zeros(n) if any(isinstance(v, np.ndarray) for v in rounds.values()) \
                    else [Fraction(0)] * n
            else:
                raise DomainError(name, None, f"a per-round sequence '{name}' (needed by {sorted(entry.aggregates)})",
                                  theorem, "missing sequence")
    # mixed numpy / exact inputs: make everything exact if any is exact, else all numpy
    if any(isinstance(v, np.ndarray) for v in rounds.values()) and not all(isinstance(v, np.ndarray)
                                                                           for v in rounds.values()):
        rounds = {k: (v if not isinstance(v, np.ndarray) else [Fraction(float(x)) for x in v])
                  for k, v in rounds.items()}
    _check_per_round_domain(entry, rounds)
    return rounds


def _check_per_round_domain(entry: SpecEntry, rounds: dict) -> None:
    for rel in entry.per_round_domain:
        names = sorted(s.name for s in rel.free_symbols)
        if isinstance(rel, sp.Eq) and len(names) == 1 and rel.rhs == 0 and names[0] in rounds:
            seq = rounds[names[0]]
            arr = seq if isinstance(seq, np.ndarray) else None
            if arr is not None:
                bad = np.flatnonzero(arr != 0)
                if bad.size:
                    i = int(bad[0])
                    raise DomainError(f"{names[0]}[{i}]", float(arr[i]), str(rel), entry.theorem,
                                      "this bound needs pure-DP rounds; use its Lemma 3.3 lift")
            else:
                for i, v in enumerate(seq):
                    if v != 0:
                        raise DomainError(f"{names[0]}[{i}]", v, str(rel), entry.theorem,
                                          "this bound needs pure-DP rounds; use its Lemma 3.3 lift")
            continue
        # generic per-round relation: decide exactly per round with sympy (small sequences only)
        m = len(next(iter(rounds.values())))
        for i in range(m):
            subs = {}
            for nm in names:
                v = rounds[nm][i]
                q = Fraction(float(v)) if isinstance(v, (float, np.floating)) else Fraction(v)
                subs[sym(nm)] = sp.Rational(q.numerator, q.denominator)
            if rel.xreplace(subs) is sp.false:
                raise DomainError(f"{names[0]}[{i}]", rounds[names[0]][i], str(rel), entry.theorem)


# ------------------------------------------------------------------------------------------------
# Summation
# ------------------------------------------------------------------------------------------------

_poly_cache: dict[str, Any] = {}


def _poly_terms(agg_name: str):
    """Coefficients of a polynomial per-round term (interp.rational_poly), or None when it is transcendental."""
    if agg_name not in _poly_cache:
        _poly_cache[agg_name] = rational_poly(AGGREGATES[agg_name].expr)
    return _poly_cache[agg_name]


def _unique_rows(rounds: dict, names: list[str]) -> list[tuple[tuple[Fraction, ...], int]]:
    """Distinct per-round rows (exact Fractions) of the named columns, with their multiplicities."""
    cols = [rounds[nm] for nm in names]
    if cols and isinstance(cols[0], np.ndarray):
        stacked = np.stack(cols, axis=1)
        uniq, counts = np.unique(stacked, axis=0, return_counts=True)
        return [(tuple(Fraction(float(x)) for x in row), int(c)) for row, c in zip(uniq, counts)]
    counter = Counter(zip(*cols))
    return list(counter.items())


def aggregate_exact(agg_name: str, rounds: dict, bits: int = 256) -> Any:
    """(lo, hi) Fractions (lo == hi when exact) or POS_INF, computed from the exact per-round values.

    Rounds are grouped by distinct value, so a long stream of few distinct parameters is cheap.  Polynomial
    terms are summed exactly in rationals; transcendental ones as arb balls at ``bits`` bits (the ball's width
    is the only error, and it is certified; callers asking for many digits pass more bits).
    """
    term = AGGREGATES[agg_name].expr
    names = sorted(s.name for s in term.free_symbols)
    rows = _unique_rows(rounds, names)
    poly = _poly_terms(agg_name)
    if poly is not None:
        pnames, terms = poly
        total = Fraction(0)
        for row, count in rows:
            total += eval_rational_poly(pnames, terms, dict(zip(names, row))) * count
        return (total, total)
    fn = compile_expr(term, ArbBackend())
    with arb_prec(bits):
        acc = arb(0)
        for row, count in rows:
            env = {nm: arb(q.numerator) / arb(q.denominator) for nm, q in zip(names, row)}
            t = fn(env)
            if t is POS_INF:
                return POS_INF
            acc = acc + t * count
        ends = arb_endpoints(acc)
    if ends is None:
        raise CertificationError(f"aggregate {agg_name} of these rounds has no finite certified enclosure")
    return ends


def aggregate_numpy(agg_name: str, rounds: dict) -> Any:
    """(lo, hi) Fractions or POS_INF for float64 arrays, with outward-rounded terms and fsum'ed ends."""
    term = AGGREGATES[agg_name].expr
    fn = compile_expr(term, NpIntervalBackend())
    env = {s.name: (rounds[s.name], rounds[s.name]) for s in term.free_symbols}
    lo, hi = fn(env)
    n = len(next(iter(rounds.values())))
    lo = np.broadcast_to(lo, (n,))
    hi = np.broadcast_to(hi, (n,))
    if np.any(np.isposinf(lo)):
        return POS_INF
    if np.any(~np.isfinite(hi)) or np.any(~np.isfinite(lo)):
        raise CertificationError(f"aggregate {agg_name}: a per-round term is not finite")
    s_lo = math.fsum(lo.tolist())
    s_hi = math.fsum(hi.tolist())
    s_lo = math.nextafter(s_lo, -math.inf)
    s_hi = math.nextafter(s_hi, math.inf)
    if math.isinf(s_hi):
        raise CertificationError(f"aggregate {agg_name} overflows float64")
    # every per-round term is >= 0, so the exact sum is >= 0 whatever the rounding of the lower end
    return (Fraction(max(s_lo, 0.0)), Fraction(s_hi))


def aggregates_for(entry: SpecEntry, *, eps=None, delta=None, rho=None, exact: bool = False,
                   bits: int = 256) -> dict:
    """The entry's aggregates from per-round sequences: name -> (lo, hi) Fractions or POS_INF.

    float64 arrays take the fast outward-rounded path unless ``exact`` (then they are summed exactly,
    grouped by distinct value, like Python sequences).
    """
    rounds = normalize_rounds(entry, eps=eps, delta=delta, rho=rho)
    numpy_path = all(isinstance(v, np.ndarray) for v in rounds.values()) and not exact
    out = {}
    for a in entry.aggregates:
        out[a] = aggregate_numpy(a, rounds) if numpy_path else aggregate_exact(a, rounds, bits)
    return out
