"""Batched filter decisions: a whole stream of rounds decided with one vectorized pre-check, the certified per-round
rule only near the boundary.

:func:`spend_many(filter, eps=None, delta=None, rho=None) <spend_many>` -> ``k``, the number of leading rounds that
are CONT (recorded, may run); rounds ``k, k+1, ...`` are HALT (not recorded) -- exactly what calling
``filter.try_spend`` on each round in turn returns (a filter that halted keeps halting).  Also as
``Filter.try_spend_many``.  Inputs: numpy arrays or scalars (broadcast), each element read as its exact binary64
value.

Why the decisions are the certified ones
----------------------------------------
After a certified CONT the filter holds a *safe point* p (arb proved halt(p) False) and a float headroom
``p - current`` per aggregate (:mod:`dpbounds.accounting.accountants`, module docstring).  HALT is non-decreasing
in every aggregate (:func:`halt_monotone`: declared in the spec, or proved here by sympy), so every round whose
running aggregates stay <= p is CONT.  Here that test is run on a block of rounds at once:

* each round's term is bounded **above** in float64: polynomial terms ``c x^p`` as ``fl(fl(x^p) c) (1 + 2^-50) +
  2^-1074`` (a positive term never rounds to 0: the 2^-1074 is added after the product, so an underflowed x^2 still
  counts), transcendental terms by the outward-rounded interval program of the spec's term
  (:func:`dpbounds.evaluation.evaluate.fast_interval` on ``aggregate.X``);
* the running sums are the float ``cumsum`` of those bounds times ``1 + (k + 3) 2^-52`` at index k: for k + 1
  nonnegative terms any summation order errs by at most gamma_k = k u / (1 - k u) relatively, u = 2^-53, which
  the factor covers with room for its own rounding;
* the first round whose bound leaves the headroom (in any aggregate) and every later one go to the certified
  per-round rule (``try_spend``), which also certifies the next safe point.  So the decisions near the boundary
  are the per-round path's own.

The recorded aggregates stay exact where the per-round path keeps them exact: polynomial sums are added as exact
integers (:func:`exact_power_sum`: binary64 mantissas split into limbs whose per-exponent sums are exact in float64,
then assembled in Python integers).  Transcendental sums (arb balls) get the block's terms in arb when the block
has few distinct values (homogeneous streams: identical to the per-round path), else the float64 enclosure
[sum of lower ends rounded down, sum of upper ends rounded up] -- a ball a few ulps wider, which can only turn a
later comparison within ~1e-15 relative of the threshold from certified into undecided, i.e. HALT (never CONT).
"""

from __future__ import annotations

from typing import Any

import math
from functools import lru_cache

import numpy as np
import sympy as sp
from flint import arb

from dpbounds.evaluation.numeric import real_array
from dpbounds.spec import DomainError
from dpbounds.spec.core import SpecEntry, sym, Kind
from dpbounds import spec
from dpbounds.accounting.registry import filter_specs
from dpbounds.evaluation.evaluate import fast_interval
from dpbounds.evaluation.interp import POS_INF
from dpbounds.evaluation.numeric import arb_prec
from dpbounds.spec.aggregates import AGGREGATES

_U2 = 2.0 ** -52
_TINY = 2.0 ** -1074
#: largest block of rounds pre-checked at once (also bounds exact_power_sum's chunks)
BLOCK = 1 << 16
#: a block with at most this many distinct values adds its transcendental terms in arb (exactly as per round)
_ARB_GROUPS = 64


# ------------------------------------------------------------------------------------------ monotonicity

@lru_cache(maxsize=None)
def _proved_nondecreasing(halt: sp.Basic, agg: str, params: tuple, aggs: tuple) -> bool:
    """sympy proves every relation of ``halt`` (And/Or of inequalities) nondecreasing in ``agg``: d(lhs - rhs)/d agg
    >= 0 (for ``>``/``>=``; the reverse for ``<``/``<=``) with every aggregate nonnegative and parameters positive."""
    reps = {sym(p): sp.Symbol(p, positive=True) for p in params}
    reps.update({sym(a): sp.Symbol(a, nonnegative=True) for a in aggs})
    x = reps[sym(agg)]
    for rel in halt.atoms(sp.Rel):
        if isinstance(rel, (sp.Eq, sp.Ne)):
            return False
        f = rel.lhs - rel.rhs if isinstance(rel, (sp.StrictGreaterThan, sp.GreaterThan)) else rel.rhs - rel.lhs
        f = f.xreplace(reps)
        if not f.has(x):
            continue
        d = sp.diff(f, x)
        if not (d.is_nonnegative or sp.simplify(d).is_nonnegative):
            return False
    return isinstance(halt, (sp.Or, sp.And, sp.Rel))


def halt_monotone(entry: SpecEntry) -> bool:
    """True iff HALT is non-decreasing in every aggregate: declared (``monotone``: +1, tested in
    tests/test_monotonicity.py) or proved by sympy from the halt condition (:func:`_proved_nondecreasing`)."""
    if not entry.aggregates or entry.halt is None:
        return False
    return all(entry.monotone.get(a) == 1 or
               _proved_nondecreasing(entry.halt, a, tuple(entry.params), tuple(entry.aggregates))
               for a in entry.aggregates)


# ------------------------------------------------------------------------------------------ exact sums

def exact_power_sum(x: np.ndarray, p: int) -> tuple[int, int]:
    """(N, K) with sum_i x_i^p = N / 2^K exactly, for finite x_i >= 0 (binary64) and p in (1, 2).

    x = M 2^E with M < 2^53 an integer (frexp).  M is split into limbs (p = 1: 27 + 26 bits; p = 2: three 18-bit
    limbs, whose products grouped by weight are < 3 2^36); per exponent, ``np.bincount`` sums each group in float64,
    exactly since the sums stay below 2^53 (chunks of 2^15 elements); the few per-exponent sums are then shifted
    together in Python integers."""
    x = np.ascontiguousarray(x, dtype=np.float64).reshape(-1)
    parts = []
    step = BLOCK if p == 1 else 1 << 15
    for s in range(0, x.size, step):
        xs = x[s:s + step]
        xs = xs[xs != 0]
        if xs.size == 0:
            continue
        m, e = np.frexp(xs)
        M = np.ldexp(m, 53).astype(np.int64)
        E = (e.astype(np.int64) - 53) * p
        e0 = int(E.min())
        idx = E - e0
        if p == 1:
            limbs = [(M & ((1 << 26) - 1), 0), (M >> 26, 26)]
        else:
            mask = (1 << 18) - 1
            L0, L1, L2 = M & mask, (M >> 18) & mask, M >> 36
            limbs = [(L0 * L0, 0), (2 * (L0 * L1), 18), (2 * (L0 * L2) + L1 * L1, 36), (2 * (L1 * L2), 54),
                     (L2 * L2, 72)]
        nb = int(idx.max()) + 1
        sums = [(np.bincount(idx, weights=lb.astype(np.float64), minlength=nb), sh) for lb, sh in limbs]
        nz = np.zeros(nb, dtype=bool)
        for sm, _ in sums:
            nz |= sm != 0
        for k in np.flatnonzero(nz):
            v = 0
            for sm, sh in sums:
                v += int(sm[k]) << sh
            parts.append((v, e0 + int(k)))
    if not parts:
        return 0, 0
    emin = min(e for _, e in parts)
    total = sum(v << (e - emin) for v, e in parts)
    return (total << emin, 0) if emin >= 0 else (total, -emin)


def _poly_add(s, n: int, k: int) -> None:
    """Add n / 2^k to the exact running sum (N / 2^K) of a polynomial aggregate (accountants._PolySum)."""
    if n == 0:
        return
    if k <= s.K:
        s.N += n << (s.K - k)
    else:
        s.N = (s.N << (k - s.K)) + n
        s.K = k


# ------------------------------------------------------------------------------------------ the stream

#: the accountants module, set by it when it is imported (it imports this module; the reverse lookup goes through
#: this attribute, so the modules do not import each other)
_ACC: Any = None

def _validate(f, name: str, x: np.ndarray, start: int) -> None:
    _ROUND_DOMAIN = _ACC._ROUND_DOMAIN
    bad = ~((x >= 0) & (x < (1.0 if name == "delta" else np.inf)))
    if np.any(bad):
        i = int(np.flatnonzero(bad)[0])
        raise DomainError(f"{name}[{start + i}]", float(x[i]), _ROUND_DOMAIN[name], f.entry.theorem,
                          "NaN is not a number" if x[i] != x[i] else "")


def _plan(f, have_rho: bool):
    """Per aggregate: ('poly', var, p, coefficient, (cn, ck)) or ('trans', name), or None (no batched plan)."""
    _PolySum, _TransSum = _ACC._PolySum, _ACC._TransSum
    plan = []
    for s in f.sums:
        if isinstance(s, _PolySum) and s.simple is not None:
            (nm, p), = s.simple[0]
            cf, (cn, ck) = s.simple[3], s.simple[2]
            if nm == "rho" and not have_rho and f._eps_as_zcdp:
                # an (eps, delta)-DP round is eps^2/2-zCDP (WRRW23 Lemma 1 / BS16 Prop 1.4): rho = eps^2 / 2
                plan.append(("poly", "eps", 2 * p, cf / 2, (cn, ck + 1)) if p == 1 else None)
                if plan[-1] is None:
                    return None
            else:
                plan.append(("poly", nm, p, cf, (cn, ck)))
        elif isinstance(s, _TransSum):
            plan.append(("trans", s.name))
        else:
            return None
    return plan


def _term_bounds(step, vals: dict):
    """(lower or None, upper) float64 bounds of each round's term (module docstring)."""
    if step[0] == "poly":
        _, var, p, cf, _ = step
        x = vals[var]
        t = x * x if p == 2 else x
        return None, (t * cf) * (1.0 + 2.0 * _U2) + _TINY
    return _trans_interval(step[1], vals)


def _trans_interval(name: str, vals: dict):
    args = {k: vals[k] for k in AGGREGATES[name].params}
    return fast_interval(f"aggregate.{name}", check_domain=False, **args)


def _few_groups(cols: np.ndarray):
    """(rows, counts) of the distinct rows when there are at most _ARB_GROUPS of them, else None (a sample of the
    first rows decides first, so a random stream never pays for a sort)."""
    head = cols[:4 * _ARB_GROUPS]
    if (head == head[0]).all() and (cols == cols[0]).all():
        return cols[:1], np.array([cols.shape[0]])
    if len(np.unique(head, axis=0)) > _ARB_GROUPS // 2:
        return None
    rows, counts = np.unique(cols, axis=0, return_counts=True)
    return (rows, counts) if len(rows) <= _ARB_GROUPS else None


def _commit(f, plan, vals: dict, bounds: list, j: int, used_new: list) -> None:
    """Record rounds [0, j) of the block (all certified CONT) into the filter's running sums."""
    TRANS_BITS, _value = _ACC.TRANS_BITS, _ACC._value
    if j <= 0:
        return
    sl = {k: v[:j] for k, v in vals.items()}
    for s, step, (lo, hi) in zip(f.sums, plan, bounds):
        if step[0] == "poly":
            _, var, p, _, (cn, ck) = step
            n, k = exact_power_sum(sl[var], p)
            _poly_add(s, n * cn, k + ck)
            continue
        if s.inf:
            continue
        s._flush()
        names = s.vars
        groups = _few_groups(np.stack([sl[nm] for nm in names], axis=1))
        with arb_prec(TRANS_BITS):
            if groups is not None:  # few distinct rounds: their terms in arb, as the per-round path adds them
                ball = s.ball
                for row, c in zip(*groups):
                    rnd = {nm: _value(nm, float(v), 0, f.entry.theorem) for nm, v in zip(names, row)}
                    t = s.term_arb(rnd)
                    if t is POS_INF:  # (LIFT at eps = 0 < delta: its bound is +inf, so never pre-checked CONT)
                        s.inf = True
                        break
                    ball = ball + t * int(c)
                s.ball = ball
            else:
                # every exact term is >= 0, so lower ends clamped at 0 stay lower ends (and the sum's error bound
                # gamma_j * sum |t| is then gamma_j * sum t)
                slo = float(np.sum(np.maximum(lo[:j], 0.0))) * (1.0 - (j + 3) * _U2)
                shi = float(np.sum(hi[:j])) * (1.0 + (j + 3) * _U2) + _TINY
                if not math.isfinite(shi):
                    s.inf = True
                    continue
                s.ball = s.ball + arb(max(slo, 0.0)).union(arb(shi))
    f._used = used_new
    f.rounds += j


def spend_many(f, eps=None, delta=None, rho=None) -> int:
    """The number k of leading CONT rounds of the stream (recorded); rounds from k on are HALT (module docstring).

    Exactly the decisions of ``f.try_spend(eps[i], delta[i], rho[i])`` called for i = 0, 1, ...  Domain: every
    value finite and >= 0, delta < 1 (delta = 0 for pure-DP filters); a bad value raises DomainError naming the
    round, before any round is recorded."""
    arrs = {k: v for k, v in (("eps", eps), ("delta", delta), ("rho", rho)) if v is not None}
    if not arrs:
        raise DomainError("eps", None, "per-round values (eps, delta or rho arrays)", f.entry.theorem)
    bc = np.broadcast_arrays(*[real_array(k, v) for k, v in arrs.items()])
    vals = {k: np.ascontiguousarray(v).reshape(-1) for k, v in zip(arrs, bc)}
    n = next(iter(vals.values())).size
    if "delta" not in vals:
        vals["delta"] = np.zeros(n)
    for k, v in vals.items():
        _validate(f, k, v, f.rounds)
    if f.pure and np.any(vals["delta"] != 0):
        i = int(np.flatnonzero(vals["delta"])[0])
        raise DomainError(f"delta[{f.rounds + i}]", float(vals["delta"][i]), "delta_i = 0 (pure-DP rounds)",
                          f.entry.theorem)
    if f.halted or n == 0:
        return 0
    have_rho = "rho" in vals
    plan = _plan(f, have_rho) if f._monotone else None
    e_, d_, r_ = vals.get("eps"), vals["delta"], vals.get("rho")

    def one(i: int) -> bool:
        """Round i through the certified per-round rule."""
        return f.try_spend(None if e_ is None else float(e_[i]), float(d_[i]),
                           None if r_ is None else float(r_[i])).name == "CONT"

    pos, size, save = 0, 256, f.save_path
    f.save_path = None  # saved once at the end (before returning), not after every round of the block
    try:
        while pos < n:
            if plan is None or f._head is None:
                if not one(pos):
                    return pos
                pos += 1
                continue
            end = min(n, pos + size)
            blk = {k: v[pos:end] for k, v in vals.items()}
            ok = np.ones(end - pos, dtype=bool)
            tots, bounds = [], []
            for step, used, head in zip(plan, f._used, f._head):
                lo_hi = _term_bounds(step, blk)
                bounds.append(lo_hi)
                cs = np.cumsum(lo_hi[1])
                cs *= 1.0 + (np.arange(cs.size) + 3.0) * _U2
                tot = (cs + used) * (1.0 + _U2)
                ok &= tot <= head           # (NaN compares False)
                tots.append(tot)
            j = int(np.argmin(ok)) if not ok.all() else end - pos
            _commit(f, plan, blk, bounds, j, [float(t[j - 1]) for t in tots] if j else list(f._used))
            pos += j
            if pos == end:
                size = min(size * 4, BLOCK)
                continue
            if not one(pos):
                return pos
            pos += 1
            size = 256
        return n
    finally:
        f.save_path = save
        if save is not None:
            f._save()


# ------------------------------------------------------------------------------------------ benchmark

def _bench_stream(quick: bool, ids: list[str] | None = None) -> list[dict]:
    """Filter.try_spend_many on a homogeneous (eps = 0.005) and a random (eps ~ U(0.001, 0.01), delta in
    {0, 1e-13}) stream of 1e6 rounds (1e4 with --quick), every filter of the filter registry at its bench_budget;
    the per-round try_spend on the same random stream (first 2e4 rounds, 2e3 with --quick) for the ratio.  ``ids``:
    only these filters."""
    import time

    make_filter = _ACC.make_filter
    n = 10_000 if quick else 1_000_000
    rng = np.random.default_rng(0)
    rows = []
    specs = filter_specs()  # each filter's bench_budget: one its 1e6 rounds stay inside, and its round values
    if ids is None:
        ids = sorted({e.id for e in spec.registry().values() if e.kind is Kind.FILTER} | set(specs))
    for fid in ids:
        fs = specs.get(fid)
        if fs is None or fs.bench_budget is None:
            rows.append({"bench": "streaming decisions (batched)", "id": fid, "rate": None,
                         "note": "skipped: no benchmark budget"})
            continue
        budget, kind = dict(fs.bench_budget), fs.rounds
        rates = {}
        for label, x, d in (("homogeneous", np.full(n, 0.005), np.full(n, 1e-13)),
                            ("random", rng.uniform(0.001, 0.01, n), rng.choice([0.0, 1e-13], n))):
            vals = {"rho" if kind.startswith("rho") else "eps": x}
            if kind.endswith("delta"):
                vals["delta"] = d
            dt = math.inf
            for _ in range(1 if quick else 2):  # best of two fresh filters (the machine is shared)
                f = make_filter(fid, **budget)
                t0 = time.perf_counter()
                k = f.try_spend_many(**vals)
                dt = min(dt, time.perf_counter() - t0)
            rates[label] = n / dt
            note = f"{k} CONT, {f.certified_decisions} certified decisions"
            if label == "random":
                g = make_filter(fid, **budget)
                m = min(n, 2_000 if quick else 20_000)
                one = {nm: v[:m].tolist() for nm, v in vals.items()}
                t0 = time.perf_counter()
                for i in range(m):
                    g.try_spend(one["eps"][i] if "eps" in one else None, one["delta"][i] if "delta" in one else 0,
                                one["rho"][i] if "rho" in one else None)
                per_round = m / (time.perf_counter() - t0)
                note += f"; {rates[label] / per_round:.3g}x per-round try_spend ({per_round:.3g}/s)"
            rows.append({"bench": f"streaming decisions ({label})", "id": fid, "rate": rates[label],
                         "unit": "decisions/s", "note": note})
    return rows


BENCHMARKS = [("stream", _bench_stream)]
