"""Streaming privacy filters and odometers built from spec entries.

Public API
----------
* :func:`make_filter(id, *, save_path=None, conversion=None, **budget) <make_filter>` -> :class:`Filter`; any spec
  entry of kind FILTER.  ``Filter.try_spend(eps, delta=0, rho=None)`` -> :class:`Decision` CONT (the round is recorded
  and may run) or HALT (nothing is recorded; the round must not run).
* :class:`MultiOrderRenyiFilter` -- FZ21 Thm 4.3 at several orders: CONT only while *every* order is within budget.
* :func:`wrrw23_thm1_cks20` -- the (eps, delta)-DP filter Lemma 1 + WRRW23 Thm 1 + CKS20 (validity argument there).
* :func:`make_odometer(id, **params) <make_odometer>` -> :class:`Odometer` (any entry of kind ODOMETER) or
  :class:`RenyiOdometer` (FZ21 Algorithm 5).  ``step(eps, delta=0, rho=None)`` -> the running bound (float64 rounded
  up; +inf once the bound is no longer valid, e.g. WRRW23 Thm 3 after N).
* :func:`rounds_allowed(filter_factory, eps, max_rounds) <rounds_allowed>` -- homogeneous rounds a filter allows.

Semantics
---------
``try_spend`` matches each theorem's stopping rule exactly: the spec's ``halt`` condition is evaluated on the
aggregates *including the candidate round* and an undecidable comparison counts as HALT.  Once a filter said HALT the
interaction is over and it keeps saying HALT.

Exactness and speed
-------------------
Running sums are kept incrementally (history is never re-summed):

* polynomial per-round terms (V = sum eps^2, S, D, R, V2, S2) exactly: float inputs are dyadic rationals, summed as an
  integer numerator over a power of two; other exact inputs (decimal strings, Fractions) in a Fraction remainder;
* transcendental terms (A, A2, KOV, LIFT) as arb balls at :data:`TRANS_BITS` bits (a few rounds are buffered and added
  in one batch), so a 10^7-round stream gets the decisions a 50-digit recomputation gets.

The certified decision (:func:`dpbounds.evaluation.evaluate.decide`, arb) is only needed near the boundary.  Every filter in the
spec declares HALT non-decreasing in each aggregate (``monotone``; tested in tests/test_monotonicity.py), so after a
certified CONT the filter certifies a *safe point* p above the current aggregates (halt(p) is False, decided by arb)
and keeps a float64 headroom ``p - current`` per aggregate.  Later rounds whose float upper bounds of their terms
(rounded up; transcendental terms with a 2^-40 relative margin over libm, far beyond the few-ulp error model of
:class:`dpbounds.evaluation.interp.NpIntervalBackend`) fit in the headroom are CONT by monotonicity without evaluating the
bound.  Anything else takes the certified path.  The safe point's headroom is searched by bisection so that it
shrinks geometrically toward the boundary: a stream crosses O(log) safe points.

Crash safety: with ``save_path`` the state (JSON, exact values as strings) is written atomically
(:func:`dpbounds.util.io.atomic_write_json`) after every recorded spend *before* CONT is returned, and on HALT.
"""

from __future__ import annotations

import enum
import json
import math
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Mapping

from flint import arb

from dpbounds import spec
from dpbounds.spec import DomainError, parse_exact
from dpbounds.spec.aggregates import AGGREGATES
from dpbounds.spec.core import Exact, Kind, SpecEntry, fraction_to_decimal_str

from dpbounds.evaluation.enclosure import Enclosure
from dpbounds.accounting import batch as _batch, mechanisms as _mech
from dpbounds.accounting import registry as _registry
from dpbounds.accounting.batch import halt_monotone, spend_many
from dpbounds.evaluation.evaluate import Inputs, decide, enclose_inputs
from dpbounds.evaluation.interp import POS_INF, ArbBackend, NotCertified, compile_expr, rational_poly
from dpbounds.util import show
from dpbounds.util.io import atomic_write_json
from dpbounds.accounting.statefile import StateLock, exact_int, read_state_file
from dpbounds.evaluation.numeric import arb_endpoints, arb_prec, float_up
from dpbounds.accounting.conversions import b_star

STATE_VERSION = 2
#: precision of the transcendental running sums (a 10^7-round sum keeps ~30 correct digits)
TRANS_BITS = 192
#: pending transcendental rounds are added to the arb ball in batches of this size
_BATCH = 256
_INF = math.inf
_NEXT = math.nextafter
#: relative margin on libm results (exp, expm1, tanh) in the fast float bounds
_LIBM = 1.0 + 2.0 ** -40
_TINY = 2.0 ** -1060
class Decision(enum.Enum):
    """A filter's answer for the next round: CONT (the round may run) or HALT (it must not)."""

    CONT = "CONT"
    HALT = "HALT"

    def __bool__(self) -> bool:  # `if f.try_spend(...)` reads as "may run"
        return self is Decision.CONT

    def __repr__(self) -> str:
        return f"Decision.{self.name}"


# ------------------------------------------------------------------------------------------------ round values
# A validated per-round value is a tuple (x, m, k, q, xe): x a float approximation (xe: x is exact), and either
# m/2^k exactly (q None) or q an exact non-dyadic Fraction (m None).

_ROUND_DOMAIN = {"eps": "eps_i >= 0 (finite)", "delta": "0 <= delta_i < 1", "rho": "rho_i >= 0 (finite)"}


def _value(name: str, v: Any, index: int, theorem: str) -> tuple:
    if type(v) is float:
        if v >= 0.0 and v != _INF and (name != "delta" or v < 1.0):
            m, d = v.as_integer_ratio()
            return (v, m, d.bit_length() - 1, None, True)
        raise DomainError(f"{name}[{index}]", v, _ROUND_DOMAIN[name], theorem,
                          "NaN is not a number" if v != v else "")
    if type(v) is int:
        q = Fraction(v)
    else:
        try:
            q = parse_exact(name, v, theorem)
        except DomainError as e:
            raise DomainError(f"{name}[{index}]", v, e.domain, theorem, e.reason) from None
    if q < 0 or (name == "delta" and q >= 1):
        raise DomainError(f"{name}[{index}]", q, _ROUND_DOMAIN[name], theorem)
    d = q.denominator
    # x rounded UP (never a positive value to 0): the fast float bounds below add only relative margins (2^-40) and
    # an absolute 2^-1060, which a round-to-nearest subnormal would not cover once divided (LIFT) or summed
    x = float_up(q) if q < 10**300 else _INF
    if d & (d - 1) == 0:
        return (x, q.numerator, d.bit_length() - 1, None, x != _INF and Fraction(x) == q)
    return (x, None, 0, q, False)


def _is_zero(val: tuple) -> bool:
    return val[1] == 0 if val[1] is not None else val[3] == 0


def _exact_of(val: tuple) -> Fraction:
    x, m, k, q, xe = val
    return q if m is None else Fraction(m, 1 << k)


_ZERO = (0.0, 0, 0, None, True)


# ------------------------------------------------------------------------------------------------ running sums


class _PolySum:
    """Exact running sum of a polynomial per-round term: N / 2^K (dyadic inputs) + F (other rationals)."""

    exact = True

    def __init__(self, name: str):
        self.name = name
        names, terms = rational_poly(AGGREGATES[name].expr)
        self.vars = names
        mons = []
        for exps, c in terms:
            cd = c.denominator
            dy = (c.numerator, cd.bit_length() - 1) if cd & (cd - 1) == 0 else None
            cf = float(c)
            mons.append((tuple((nm, p) for nm, p in zip(names, exps) if p), c, dy, cf))
        self.mons = mons
        # the common case (every aggregate of the spec): one monomial c * x^p in one variable
        self.simple = mons[0] if len(mons) == 1 and len(mons[0][0]) == 1 and mons[0][2] is not None else None
        self.N = 0
        self.K = 0
        self.F = Fraction(0)
        self.inf = False

    def fast_upper(self, rnd: dict) -> float:
        """A float64 upper bound of the round's term (each float operation errs by <= 2^-53 relative; the margin
        2^-40 covers them, _TINY covers underflow).  0.0 only when the exact term is 0: a positive term whose float
        value underflows to 0 still counts _TINY (the headroom test below never sees a free round)."""
        t = 0.0
        zero = True
        for factors, c, dy, cf in self.mons:
            v = cf
            for nm, p in factors:
                x = rnd[nm][0]
                for _ in range(p):
                    v *= x
            t += v * _LIBM if v > 0 else v / _LIBM
            if zero and c != 0 and not any(_is_zero(rnd[nm]) for nm, _ in factors):
                zero = False
        return 0.0 if zero else t + _TINY

    def _add(self, rnd: dict, N: int, K: int, F: Fraction):
        s = self.simple
        if s is not None:
            (nm, p), = s[0]
            x, m, k, q, xe = rnd[nm]
            if m is not None:
                n, e = s[2][0] * m ** p, s[2][1] + k * p
                if e <= K:
                    N += n << (K - e)
                else:
                    N = (N << (e - K)) + n
                    K = e
                return N, K, F
        for factors, c, dy, cf in self.mons:
            if dy is not None and all(rnd[nm][1] is not None for nm, _ in factors):
                n, e = dy
                for nm, p in factors:
                    x, m, k, q, xe = rnd[nm]
                    n *= m ** p
                    e += k * p
                if e <= K:
                    N += n << (K - e)
                else:
                    N = (N << (e - K)) + n
                    K = e
            else:
                t = c
                for nm, p in factors:
                    t *= _exact_of(rnd[nm]) ** p
                F += t
        return N, K, F

    def commit(self, rnd: dict) -> None:
        self.N, self.K, self.F = self._add(rnd, self.N, self.K, self.F)

    def candidate(self, rnd: dict):
        N, K, F = self._add(rnd, self.N, self.K, self.F)
        v = Fraction(N, 1 << K) + F
        return (v, v)

    def current(self):
        v = Fraction(self.N, 1 << self.K) + self.F
        return (v, v)

    def encode(self) -> dict:
        return {"exact": _encode(self.current()[0])}

    def restore(self, rec: dict) -> None:
        v = _decode(rec["exact"])
        if v is POS_INF or v < 0:
            raise ValueError(f"aggregate {self.name} = {_encode(v)} is not a finite sum of nonnegative terms")
        d = v.denominator
        if d & (d - 1) == 0:
            self.N, self.K, self.F = v.numerator, d.bit_length() - 1, Fraction(0)
        else:
            self.N, self.K, self.F = 0, 0, v


def _arb_of(val: tuple) -> arb:
    x, m, k, q, xe = val
    if xe:
        return arb(x)
    if m is None:
        return arb(q.numerator) / arb(q.denominator)
    return arb(m) / arb(1 << k)


# Hand-written per-round terms of the transcendental aggregates (a test compares each with the spec's expression
# compiled for arb, and the float bounds with certified enclosures): (arb term, float upper bound).

def _a_arb(r):
    e = _arb_of(r["eps"])
    return e * e.expm1() / 2


def _a_up(r):
    e = r["eps"][0]
    return e * math.expm1(e) * 0.5 * _LIBM + _TINY if e < 700 else _INF


def _a2_arb(r):
    e = _arb_of(r["eps"])
    return e * (2 * e).expm1()


def _a2_up(r):
    e = r["eps"][0]
    return e * math.expm1(2 * e) * _LIBM + _TINY if e < 350 else _INF


def _kov_arb(r):
    e = _arb_of(r["eps"])
    return e * (e / 2).tanh()


def _kov_up(r):
    e = r["eps"][0]
    return e * math.tanh(e * 0.5) * _LIBM + _TINY if e < 1e300 else _INF


def _lifted_arb(r, ratio):
    """A lifted per-round term delta_i * ratio(eps_i) in arb: 0 when delta_i = 0, +oo when eps_i = 0 < delta_i."""
    ev, dv = r["eps"], r["delta"]
    if dv[1] == 0 and dv[3] is None:  # delta_i = 0: the round contributes 0 (exactly, as the spec's Piecewise)
        return arb(0)
    if ev[1] == 0 and ev[3] is None:  # eps_i = 0 < delta_i: +oo
        return POS_INF
    return _arb_of(dv) * ratio(_arb_of(ev))


def _lift_arb(r):
    return _lifted_arb(r, lambda e: 2 / (e * e.exp()))


def _liftc_arb(r):
    return _lifted_arb(r, lambda e: (1 + (-2 * e).exp()) / -(-e).expm1())  # 1 - e^-eps as -expm1: no cancellation


def _eps_below(r) -> float:
    """A float <= the round's exact eps (the stored float is rounded UP when inexact: a decreasing term needs the
    lower side, e.g. eps = '1e-400' is stored as 5e-324 and bounded below by 0)."""
    e = r["eps"][0]
    return e if r["eps"][4] else math.nextafter(e, 0.0)


def _lifted_up(r, den_of):
    """A float upper bound of delta_i * 2 / den(eps_i) for a den increasing in eps (so eps is taken from below); 0 when delta_i = 0; +oo (go certified) when eps_i = 0, eps_i underflows or den is not a safe float."""
    e, d = _eps_below(r), r["delta"][0]
    if r["delta"][1] == 0 and r["delta"][3] is None:
        return 0.0
    if e == 0.0:  # eps_i = 0 < delta_i (+oo), or an eps below the smallest float: no float bound, go certified
        return _INF
    den = den_of(e)
    if den is None or den < 2.0 ** -1000:
        return _INF
    return 2.0 * d / den * _LIBM + _TINY  # the 2^-40 margin covers libm and e's rounding


def _lift_up(r):
    if r["eps"][0] > 700 and not (r["delta"][1] == 0 and r["delta"][3] is None):
        return 2.0 ** -900  # 2 delta / (eps e^eps) < 2^-900 for eps > 700
    return _lifted_up(r, lambda e: e * math.exp(e))


def _liftc_up(r):
    # (1 + e^{-2 eps}) <= 2; 1 - e^{-eps} = -expm1(-eps) > 0 for every float eps > 0: no cancellation, no underflow
    return _lifted_up(r, lambda e: -math.expm1(-e))


_TRANS_FAST = {"A": (_a_arb, _a_up), "A2": (_a2_arb, _a2_up), "KOV": (_kov_arb, _kov_up), "LIFT": (_lift_arb, _lift_up),
               "LIFTC": (_liftc_arb, _liftc_up)}


class _TransSum:
    """Certified running sum of a transcendental per-round term: an arb ball at TRANS_BITS bits (+ a pending batch)."""

    exact = False

    def __init__(self, name: str):
        self.name = name
        term = AGGREGATES[name].expr
        self.vars = sorted(s.name for s in term.free_symbols)
        if name in _TRANS_FAST:
            self.term_arb, self.fast_upper_fn = _TRANS_FAST[name]
        else:  # generic: the spec's term compiled for arb (slower, still certified)
            fn = compile_expr(term, ArbBackend())
            vars_ = self.vars
            self.term_arb = lambda r: fn({nm: _arb_of(r[nm]) for nm in vars_})
            self.fast_upper_fn = None
        self.ball = arb(0)
        self.pending: list = []
        self.inf = False

    def fast_upper(self, rnd: dict) -> float:
        if self.fast_upper_fn is not None:
            return self.fast_upper_fn(rnd)
        with arb_prec(64):
            t = self.term_arb(rnd)
        return _INF if t is POS_INF else float_up(t)

    def _flush(self) -> None:
        if not self.pending:
            return
        groups: dict = {}
        for r in self.pending:  # rounds with the same values share one term evaluation
            key = tuple(r[nm][:4] for nm in self.vars)
            g = groups.get(key)
            if g is None:
                groups[key] = [r, 1]
            else:
                g[1] += 1
        with arb_prec(TRANS_BITS):
            b = self.ball
            for r, count in groups.values():
                t = self.term_arb(r)
                if t is POS_INF:
                    self.inf = True
                    break
                b = b + (t if count == 1 else t * count)
            self.ball = b
        self.pending = []

    def commit(self, rnd: dict) -> None:
        if self.inf:
            return
        self.pending.append(rnd)
        if len(self.pending) >= _BATCH:
            self._flush()

    def _ends(self, b):
        ends = arb_endpoints(b)
        if ends is None:  # no finite upper end (e.g. a round eps=1e308): +inf, so the filter HALTs, never CONTs
            return POS_INF
        return (max(ends[0], Fraction(0)), ends[1])

    def candidate(self, rnd: dict):
        self._flush()
        if self.inf:
            return POS_INF
        with arb_prec(TRANS_BITS):
            t = self.term_arb(rnd)
            if t is POS_INF:
                return POS_INF
            return self._ends(self.ball + t)

    def current(self):
        self._flush()
        if self.inf:
            return POS_INF
        with arb_prec(TRANS_BITS):
            return self._ends(self.ball)

    def encode(self) -> dict:
        cur = self.current()
        return {"inf": True} if cur is POS_INF else {"ball": [_encode(cur[0]), _encode(cur[1])]}

    def restore(self, rec: dict) -> None:
        self.pending = []
        if rec.get("inf"):
            self.inf = True
            return
        if rec.get("ball") is None:
            self.ball = arb(0)
            return
        lo, hi = (_decode(x) for x in rec["ball"])
        if not 0 <= lo <= hi:
            raise ValueError("ball ends out of order")
        with arb_prec(TRANS_BITS):
            a = arb(lo.numerator) / arb(lo.denominator)
            self.ball = a if lo == hi else a.union(arb(hi.numerator) / arb(hi.denominator))


def _make_sum(name: str):
    return _PolySum(name) if rational_poly(AGGREGATES[name].expr) is not None else _TransSum(name)


def _encode(v) -> Any:
    if v is POS_INF:
        return "inf"
    if isinstance(v, Fraction):
        return f"{v.numerator}/{v.denominator}"
    return v


def _decode(v) -> Any:
    """A state file's exact value ('p/q' with q > 0, short integers; or 'inf'); ValueError for anything else."""
    if v == "inf":
        return POS_INF
    if not isinstance(v, str) or v.count("/") != 1:
        raise ValueError(f"{str(v)[:40]!r} is not an exact value 'p/q'")
    n, d = v.split("/")
    d = exact_int(d, "a denominator")
    if d <= 0:
        raise ValueError(f"denominator {d} is not positive")
    return Fraction(exact_int(n, "a numerator"), d)


# ------------------------------------------------------------------------------------------------ shared machinery


class _Accountant:
    """Per-round validation and the running sums of one spec entry."""

    def __init__(self, entry: SpecEntry) -> None:
        self.entry = entry
        self.sums = [_make_sum(a) for a in entry.aggregates]
        self.names = list(entry.aggregates)
        needed: set[str] = set()
        for s in self.sums:
            needed |= set(s.vars)
        self.needed = needed
        self.pure = any({x.name for x in rel.free_symbols} == {"delta"} for rel in entry.per_round_domain) or \
            "delta" not in needed
        self.rounds = 0
        fs = _registry.filter_spec(entry.id) if entry.kind is Kind.FILTER else None
        # a zCDP filter that takes (eps, delta)-DP rounds as rho = eps^2/2 (FilterSpec.eps_as_zcdp names the result)
        self._eps_as_zcdp = bool(fs is not None and fs.eps_as_zcdp)

    def _round(self, eps, delta, rho) -> dict:
        """Validate one round's values; return the per-round values the aggregates need."""
        entry, i, th = self.entry, self.rounds, self.entry.theorem
        out = {}
        if eps is not None:
            out["eps"] = _value("eps", eps, i, th)
        if delta is not None and not (type(delta) is int and delta == 0):
            out["delta"] = _value("delta", delta, i, th)
        else:
            out["delta"] = _ZERO
        if rho is not None:
            out["rho"] = _value("rho", rho, i, th)
        if self.pure and not _is_zero(out["delta"]):
            raise DomainError(f"delta[{i}]", _exact_of(out["delta"]), "delta_i = 0 (pure-DP rounds)", th,
                              "this bound accounts pure-DP rounds only; for approximate-DP rounds use its Lemma 3.3 "
                              "lift (rruv16.lemma3_3.*) or wrrw23.thm2 / wrrw23.thm3.*")
        if "rho" in self.needed and "rho" not in out:
            if eps is not None and self._eps_as_zcdp:
                x, m, k, q, xe = out.pop("eps")  # an (eps, delta)-DP round is delta-approximate eps^2/2-zCDP
                out["rho"] = (x * x / 2, None, 0, q * q / 2, False) if m is None else \
                    (x * x / 2, m * m, 2 * k + 1, None, False)
            else:
                raise DomainError(f"rho[{i}]", None, "a per-round rho (zCDP/RDP cost) for this round", th,
                                  "missing per-round value")
        for nm in ("eps", "rho"):
            if nm in out and nm not in self.needed:
                raise DomainError(f"{nm}[{i}]", _exact_of(out[nm]), f"no per-round {nm}: this bound takes "
                                  f"{', '.join(sorted(self.needed - {'delta'})) or 'no'} per-round values", th)
            if nm in self.needed and nm not in out:
                raise DomainError(f"{nm}[{i}]", None, f"a per-round {nm} for this round", th,
                                  "missing per-round value")
        return out

    def aggregates(self) -> dict[str, Any]:
        """Committed aggregates: name -> (lo, hi) exact Fractions (lo == hi when exact) or POS_INF."""
        return {a: s.current() for a, s in zip(self.names, self.sums)}

    def _repr(self, fixed: Mapping[str, Any], status: str) -> str:
        aggs = f"; {show.mapping(self.aggregates())}" if self.names else ""
        return (f"<{type(self).__name__} {self.entry.id}({show.mapping(fixed)}): {status} after "
                f"{show.rounds(self.rounds)}{aggs}>")

    def _sums_state(self) -> dict:
        return {a: s.encode() for a, s in zip(self.names, self.sums)}

    def _restore_sums(self, rec: Mapping) -> None:
        if not isinstance(rec, Mapping) or set(rec) != set(self.names):
            raise ValueError(f"sums must be exactly {sorted(self.names)}")
        for a, s in zip(self.names, self.sums):
            r = rec[a]
            if not isinstance(r, Mapping):
                raise ValueError(f"sum {a} is not an object")
            if r.get("inf") is True:
                s.inf = True
            else:
                s.restore(r)


# ------------------------------------------------------------------------------------------------ filters


class Filter(_Accountant):
    """A privacy filter for one spec entry of kind FILTER, with its budget fixed (and domain-checked) at construction.

    ``try_spend(eps, delta=0, rho=None)``: CONT (recorded) or HALT (not recorded; the round must not run).
    Values: float (its exact binary value), int, Fraction, Decimal or a decimal string.
    """

    def __init__(self, entry_id: str | SpecEntry, budget: Mapping[str, Any], *, save_path: str | Path | None = None,
                 _meta: dict[str, Any] | None = None, _lock: StateLock | None = None) -> None:
        entry = entry_id if isinstance(entry_id, SpecEntry) else spec.get(entry_id)
        if entry.kind is not Kind.FILTER or entry.halt is None:
            raise DomainError("id", entry.id, "a spec entry of kind filter", "dpbounds.accounting.accountants")
        super().__init__(entry)
        if not isinstance(budget, Mapping):
            raise TypeError(f"budget: expected a mapping {{name: value}}, got {type(budget).__name__}")
        self.budget = entry.check_values(dict(budget))  # refuses an out-of-domain budget (e.g. delta_g >= 1/e)
        self.meta = dict(_meta or {})
        self.halted = False
        self.save_path = Path(save_path) if save_path else None
        # one writer per state file: held until close() or the end of the process (statefile.StateLock)
        self._lock = _lock if _lock is not None or self.save_path is None else StateLock(self.save_path)
        self.last_candidate: dict | None = None  # the aggregates of the round that HALTed
        # HALT non-decreasing in every aggregate (declared in the spec, tested) enables the safe-point fast path
        self._monotone = halt_monotone(entry)  # declared in the spec or proved by sympy (dpbounds.accounting.batch)
        self._head: list[float] | None = None   # float headroom above the committed sums, per aggregate
        self._used: list[float] = [0.0] * len(self.sums)
        self._wmax: list[float] = [0.0] * len(self.sums)
        self._j = 0  # last successful headroom exponent (a hint for the search)
        self.certified_decisions = 0

        # a specialized plan for the common case (float eps, float or zero delta) below the safe point
        plan = []
        for s in self.sums:
            if isinstance(s, _PolySum) and s.simple is not None and s.vars[0] in ("eps", "delta"):
                (nm, pw), = s.simple[0]
                plan.append((s, 0 if nm == "eps" else 1, pw, s.simple[2][0], s.simple[2][1], s.simple[3], None))
            elif isinstance(s, _TransSum) and s.fast_upper_fn is not None:
                plan.append((s, None, 0, 0, 0, 0.0, s.fast_upper_fn))
            else:
                plan = None
                break
        self._plan = plan
        self._needs_delta = "delta" in self.needed

    def __repr__(self) -> str:
        return self._repr(self.budget, "HALTED" if self.halted else "CONT")

    # ------------------------------------------------------------------ the stopping rule
    def try_spend(self, eps: Exact | None = None, delta: Exact = 0, rho: Exact | None = None) -> Decision:
        """CONT (the round is recorded and may run) or HALT (nothing recorded; the round must not run)."""
        if self.halted:
            return Decision.HALT
        if self._head is not None and type(eps) is float and rho is None and self._plan is not None:
            d = self._fast(eps, delta)
            if d is not None:
                return d
        rnd = self._round(eps, delta, rho)
        halt, used, ups = self._probe(rnd)
        if halt:
            self.halted = True
            self._save()
            return Decision.HALT
        self._record(rnd, used, ups)
        self._save()  # persisted before CONT is returned
        return Decision.CONT

    def try_spend_many(self, eps: Any = None, delta: Any = None, rho: Any = None) -> int:
        """k: rounds 0..k-1 of the stream are CONT (recorded), the rest HALT -- the decisions of try_spend on each
        round in turn, vectorized away from the boundary (:func:`dpbounds.accounting.batch.spend_many`)."""
        return spend_many(self, eps, delta, rho)

    def try_spend_mechanism(self, mechanism: str, **params: Exact) -> Decision:
        """A round of a mechanism (e.g. ``"mechanisms.sgm.rdp"``, q=..., sigma=...) charged its Renyi divergence at
        this filter's order, rounded up (:func:`dpbounds.accounting.mechanisms.rdp_upper`); Renyi filters only."""
        return self.try_spend(rho=_mech.rdp_upper(mechanism, _mech.filter_order(self), **params))

    def _fast(self, eps: float, delta) -> Decision | None:
        """The safe-point fast path for a float eps (and float or zero delta); None when it does not apply."""
        if not 0.0 <= eps < _INF:
            return None
        if type(delta) is float:
            if not 0.0 <= delta < 1.0:
                return None
            if delta != 0.0:
                if not self._needs_delta:
                    return None  # the general path raises the pure-DP error
                dm, dd = delta.as_integer_ratio()
                dk = dd.bit_length() - 1
            else:
                dm, dk = 0, 0
        elif type(delta) is int and delta == 0:
            delta, dm, dk = 0.0, 0, 0
        else:
            return None
        m, dd = eps.as_integer_ratio()
        k = dd.bit_length() - 1
        plan = self._plan
        used = self._used
        head = self._head
        new = []
        rnd = None
        for i, (s, var, pw, cn, ck, cf, upfn) in enumerate(plan):
            if upfn is None:
                x = eps if var == 0 else delta
                if x == 0.0 and (m if var == 0 else dm) == 0:
                    new.append(used[i])
                    continue
                t = (x * x if pw == 2 else x) * cf * _LIBM + _TINY if pw <= 2 else s.fast_upper(
                    {"eps": (eps, m, k, None, True), "delta": (delta, dm, dk, None, True)})
            else:
                if rnd is None:
                    rnd = {"eps": (eps, m, k, None, True), "delta": (delta, dm, dk, None, True)}
                t = upfn(rnd)
            if t != 0.0:
                u = _NEXT(used[i] + t, _INF)
                if not u <= head[i]:
                    return None
                new.append(u)
            else:
                new.append(used[i])
        # CONT: below the certified safe point; record exactly
        for s, var, pw, cn, ck, cf, upfn in plan:
            if upfn is None:
                if var == 0:
                    if m == 0:
                        continue
                    n, e = cn * (m * m if pw == 2 else m ** pw), ck + k * pw
                else:
                    if dm == 0:
                        continue
                    n, e = cn * (dm * dm if pw == 2 else dm ** pw), ck + dk * pw
                K = s.K
                if e <= K:
                    s.N += n << (K - e)
                else:
                    s.N = (s.N << (e - K)) + n
                    s.K = e
            else:
                if rnd is None:
                    rnd = {"eps": (eps, m, k, None, True), "delta": (delta, dm, dk, None, True)}
                s.commit(rnd)
        self._used = new
        self.rounds += 1
        if self.save_path is not None:
            self._save()
        return Decision.CONT

    def _probe(self, rnd: dict) -> tuple[bool, list | None, list]:
        """(halt, fast-path usage or None, term upper bounds): the decision for the candidate round; records nothing."""
        ups = [s.fast_upper(rnd) for s in self.sums]
        head = self._head
        if head is not None:
            used = self._used
            new = []
            for u, t, h in zip(used, ups, head):
                if t != 0.0:
                    u = _NEXT(u + t, _INF)
                    if not u <= h:  # (also catches NaN)
                        break
                new.append(u)
            else:
                return False, new, ups
        cand = {a: s.candidate(rnd) for a, s in zip(self.names, self.sums)}
        self.certified_decisions += 1
        halt = decide(self.entry, Inputs(self.budget, cand))
        if halt:
            self.last_candidate = cand
        return halt, None, ups

    def _record(self, rnd: dict, new_used: list | None, ups: list) -> None:
        for s in self.sums:
            s.commit(rnd)
        self.rounds += 1
        if new_used is not None:
            self._used = new_used
        else:
            self._wmax = [max(w, t) for w, t in zip(self._wmax, ups)]
            self._refresh_safe_point()

    def _refresh_safe_point(self) -> None:
        """Certify a point p above the committed sums with halt(p) False; keep p - current as float headroom."""
        self._head = None
        self._used = [0.0] * len(self.sums)
        if not self._monotone:
            return
        cur = self.aggregates()
        if any(v is POS_INF for v in cur.values()):
            return
        his = [cur[a][1] for a in self.names]
        base = [float_up(h) + w for h, w in zip(his, self._wmax)]
        if any(not math.isfinite(b) for b in base):
            return

        def heads(j):
            g = 2.0 ** (-2 * j)
            return [g * b for b in base]

        def ok(j):
            hd = heads(j)
            p = {a: (h + Fraction(x), h + Fraction(x)) for a, h, x in zip(self.names, his, hd)}
            return not decide(self.entry, Inputs(self.budget, p))

        # the largest headroom among g = 4^-j, j = 0..25 (monotone in j): start near the last one found
        lo_fail, hi_ok = -1, None
        j0 = max(self._j - 1, 0)
        if ok(j0):
            hi_ok = j0
            while hi_ok > 0 and ok(hi_ok - 1):
                hi_ok -= 1
                if hi_ok == 0:
                    break
        else:
            lo_fail = j0
            step = 1
            while True:
                j = min(lo_fail + step, 25)
                if ok(j):
                    hi_ok = j
                    break
                lo_fail = j
                if j == 25:
                    return
                step *= 2
            while hi_ok - lo_fail > 1:
                mid = (hi_ok + lo_fail) // 2
                if ok(mid):
                    hi_ok = mid
                else:
                    lo_fail = mid
        self._j = hi_ok
        self._head = heads(hi_ok)

    # ------------------------------------------------------------------ reporting
    def statistic(self, *, candidate: bool = False) -> Enclosure:
        """Certified enclosure of the filter's statistic (its spec ``expr``) on the recorded rounds (or, with
        ``candidate=True`` after a HALT, on the aggregates of the round that was refused)."""
        aggs = self.last_candidate if (candidate and self.last_candidate is not None) else self.aggregates()
        return enclose_inputs(self.entry, Inputs(self.budget, aggs), rel_tol=1e-12, start_bits=64)

    # ------------------------------------------------------------------ state
    def state(self) -> dict[str, Any]:
        """JSON-serializable state; exact values as 'p/q' strings."""
        return {"version": STATE_VERSION, "kind": "filter", "id": self.entry.id,
                "budget": {k: _encode(v) for k, v in self.budget.items()}, "rounds": self.rounds,
                "halted": self.halted, "sums": self._sums_state(), "meta": self.meta}

    def _save(self) -> None:
        if self.save_path is not None:
            if self._lock is not None and self._lock.path == self.save_path:
                self._lock.write_json(self.state())  # compare-and-swap: refused if another process wrote it
            else:
                atomic_write_json(self.save_path, self.state())

    def close(self) -> None:
        """Release the state file's lock (the filter keeps deciding, but another process may now take the file)."""
        if self._lock is not None:
            self._lock.release()

    @classmethod
    def from_state(cls, state: Mapping[str, Any] | str | Path, *, save_path: str | Path | None = None,
                   _lock: StateLock | None = None) -> "Filter":
        """Restore a filter (from a state dict or a state file); it continues exactly as the saved one would have.

        Every invariant is checked again: a known filter id, a budget in the theorem's domain (and for B taken from
        a conversion, B <= the certified B* of the recorded conversion), rounds a nonnegative integer, halted a
        boolean, one nonnegative exact sum per aggregate.  With ``save_path`` the file is locked before it is read.
        """
        own = _lock is None and save_path is not None
        lock = StateLock(save_path) if own else _lock
        try:
            where = str(state) if isinstance(state, (str, Path)) else "<state>"
            state = _load_state(state, "filter")
            try:
                f = cls._from_checked_state(state, save_path, lock)
            except (KeyError, ValueError, TypeError, AttributeError, ZeroDivisionError, OverflowError,
                    RecursionError) as e:
                if isinstance(e, DomainError):
                    raise DomainError("state", where, f"a filter state with a valid budget ({e})",
                                      "dpbounds.accounting.accountants") from None
                raise DomainError("state", where, "a filter state written by dpbounds",
                                  "dpbounds.accounting.accountants", f"malformed: {str(e)[:200]}") from None
        except BaseException:
            if own and lock is not None:
                lock.release()
            raise
        return f

    @classmethod
    def _from_checked_state(cls, state: Mapping, save_path, lock) -> "Filter":
        if not isinstance(state.get("budget"), Mapping):
            raise ValueError("budget is not an object")
        budget = {k: _decode(v) for k, v in state["budget"].items()}
        if any(v is POS_INF for v in budget.values()):
            raise ValueError("an infinite budget")
        meta = state.get("meta") or {}
        fid = state["id"]
        if not isinstance(fid, str) or not isinstance(meta, Mapping):
            raise ValueError("id or meta of the wrong type")
        fs = _registry.filter_spec(fid) if isinstance(fid, str) else None
        if fs is not None and fs.conversion_delta:
            if set(meta) - {"conversion"}:
                raise ValueError(f"unknown meta {sorted(set(meta) - {'conversion'})}")
            conv = meta.get("conversion", "cks20")
            if not isinstance(conv, str):
                raise ValueError("conversion is not a string")
            if "B" not in budget:
                raise ValueError("no B")
            # B <= the certified lower end of B* for the recorded conversion (a B > B* certifies nothing)
            _b_star_budget(fid, budget.get("eps_g"), budget.get(fs.conversion_delta), {"B": budget["B"]}, conv)
            meta = {"conversion": conv}
        elif meta and (fs is None or fs.state_class is None):  # a filter with its own class records its budget's origin
            raise ValueError(f"meta {sorted(meta)} for a filter without a conversion")
        rounds, halted = state["rounds"], state["halted"]
        if type(rounds) is not int or rounds < 0:
            raise ValueError(f"rounds = {str(rounds)[:40]} is not a nonnegative integer")
        if type(halted) is not bool:
            raise ValueError("halted is not true/false")
        klass = fs.state_class if cls is Filter and fs is not None and fs.state_class is not None else cls
        f = klass(fid, budget, save_path=save_path, _meta=meta, _lock=lock)
        f.rounds = rounds
        f.halted = halted
        f._restore_sums(state["sums"])
        return f

    @classmethod
    def open(cls, path: str | Path, entry_id: str, *, conversion: str | None = None, **budget: Exact) -> "Filter":
        """The filter persisted at ``path``: resumed when the file exists, else new (``make_filter``).

        The file is locked (``path.lock``) before it is looked at and while the filter lives, so concurrent
        processes never spend from one budget twice.  On resume, a budget or conversion given here must be valid
        and equal the recorded one (a smaller budget after a restart must not be silently ignored, a larger one not
        silently adopted); given none, the recorded budget is kept.
        """
        lock = StateLock(path)
        try:
            p = Path(path)
            if p.exists() or p.is_symlink():
                f = cls.from_state(p, save_path=p, _lock=lock)
                if f.entry.id != entry_id:
                    raise DomainError("state", str(path), f"a state file of filter {entry_id}",
                                      "dpbounds.accounting.accountants", f"it holds {f.entry.id}")
                if budget or conversion is not None:
                    fresh = make_filter(entry_id, conversion=conversion, **budget)  # validated like a new filter
                    if fresh.budget != f.budget or fresh.meta != f.meta:
                        rec = ", ".join(f"{k}={fraction_to_decimal_str(v) if isinstance(v, Fraction) else v}"
                                        for k, v in sorted(f.budget.items()))
                        conv = f" with conversion {f.meta['conversion']}" if f.meta.get("conversion") else ""
                        raise DomainError("budget", ", ".join(f"{k}={v}" for k, v in sorted(budget.items()))
                                          + (f", conversion={conversion}" if conversion else ""),
                                          f"the budget recorded in the state file: {rec}{conv}", entry_id,
                                          "a resumed filter keeps its budget; use a new state file for another one")
            else:
                f = make_filter(entry_id, conversion=conversion, save_path=p, _lock=lock, **budget)
        except BaseException:
            lock.release()
            raise
        return f


def _load_state(state, kind: str) -> Mapping:
    if isinstance(state, (str, Path)):
        state = read_state_file(state, kind)
    if not isinstance(state, Mapping) or state.get("kind") != kind or state.get("version") not in (1, STATE_VERSION):
        raise DomainError("state", "<state>", f"a {kind} state written by dpbounds (version {STATE_VERSION})",
                          "dpbounds.accounting.accountants")
    return state


_VALID_CONVERSIONS = ("bs16", "cks20")


def _check_conversion(conversion: str, theorem: str) -> None:
    if conversion not in _VALID_CONVERSIONS:
        raise DomainError("conversion", conversion, "a valid general zCDP->DP conversion: bs16 or cks20", theorem,
                          "the Gaussian mechanism's exact curve ('gauss') is not a valid conversion for other "
                          "rho-zCDP mechanisms" if conversion == "gauss" else "unknown conversion")


def _b_star_budget(entry_id: str, eps_g, delta, budget: dict, conversion: str) -> Fraction:
    """B from a valid conversion: the certified lower end of B*; a user-given B must not exceed it."""
    _check_conversion(conversion, entry_id)
    b = b_star(eps_g, delta, conversion).b_star
    if "B" in budget:
        given = parse_exact("B", budget["B"], entry_id)
        if given > b:
            raise DomainError("B", given, f"B <= B*_{conversion}(eps_g, delta) >= {float(b):.17g} (certified)",
                              entry_id, "a larger B is not certified to give the stated (eps_g, delta)-DP guarantee")
        return given
    return b


def wrrw23_thm1_cks20(eps_g, delta_prime, delta_dprime, *, conversion: str = "cks20", B=None,
                      save_path: str | Path | None = None, _lock: StateLock | None = None) -> Filter:
    """An (eps_g, delta_dprime + (1 - delta_dprime) delta_prime)-DP filter for (eps_i, delta_i)-DP rounds.

    Rule: HALT iff V/2 > B*_cks20(eps_g, delta_prime) or D > delta_dprime, with V = sum eps_i^2, D = sum delta_i
    including the candidate round (B* is the certified lower end from dpbounds.accounting.conversions.b_star: never overstated).

    Validity (dpbounds' composition of published results; spec id ``wrrw23.thm1.cks20``):

    1. WRRW23 Lemma 1 (Bun-Steinke): a round that is (eps_i, delta_i)-DP conditioned on the past is delta_i-approximate
       (eps_i^2/2)-zCDP conditioned on the past.
    2. WRRW23 Theorem 1 (approximate-zCDP filter): stopping before any round that would push sum rho_i past B or
       sum delta_i past delta'' makes the whole interaction delta''-approximate B-zCDP, i.e. (convex-mixture form) the
       output laws are (1 - delta'') P' + delta'' P'' and (1 - delta'') Q' + delta'' Q'' with (P', Q') B-zCDP.  Here
       rho_i = eps_i^2/2, so sum rho_i = V/2.
    3. CKS20 Prop. 12 is a conversion valid for *every* pair of distributions whose Renyi divergences satisfy the
       zCDP bound; applied to (P', Q') it gives (eps_g, delta')-indistinguishability whenever B <= B*_cks20(eps_g,
       delta').  Mixing with the delta''-part costs at most delta'' in total variation, so the interaction is
       (eps_g, delta'' + (1 - delta'') delta')-DP -- WRRW23 Lemma 1's second part with CKS20 in place of BS16.
    4. B*_cks20 >= B*_bs16, so this filter never stops before wrrw23.thm2 at the same (eps_g, delta', delta'').

    Domain: eps_g > 0, 0 < delta_prime < 1, delta_dprime >= 0.  ``conversion='bs16'`` gives wrrw23.thm2's decisions
    (up to B*'s certified rounding); 'gauss' is refused (not a valid general conversion).
    """
    budget = {"eps_g": eps_g, "delta_prime": delta_prime, "delta_dprime": delta_dprime}
    if B is not None:
        budget["B"] = B
    b = _b_star_budget("wrrw23.thm1.cks20", eps_g, delta_prime, budget, conversion)
    budget["B"] = b
    return Filter("wrrw23.thm1.cks20", budget, save_path=save_path, _meta={"conversion": conversion}, _lock=_lock)


def make_filter(entry_id: str, *, save_path: str | Path | None = None, conversion: str | None = None,
                _lock: StateLock | None = None, **budget: Exact) -> Filter:
    """A filter for a spec id of kind FILTER, budget as NAME=VALUE (exact values).

    Built by the filter's registered builder (:mod:`dpbounds.accounting.registry`; the catalogue is
    :mod:`dpbounds.accounting.filters`), else the generic :class:`Filter` on the spec entry.  ``fz21.thm4_7`` and
    ``wrrw23.thm1.cks20`` take B from a *valid* conversion (``conversion='cks20'`` by default, or 'bs16'): B = the
    certified lower end of B*; a B given explicitly must not exceed it.  'gauss' is refused.
    """
    fs = _registry.filter_spec(entry_id)
    if fs is not None and fs.builder is not None:
        return fs.builder(save_path=save_path, conversion=conversion, _lock=_lock, **budget)
    if conversion is not None:
        takes = [s.id for s in _registry.filter_specs().values() if s.conversion_delta]
        raise DomainError("conversion", conversion, "only for " + " and ".join(takes), entry_id)
    return Filter(entry_id, budget, save_path=save_path, _lock=_lock)


class MultiOrderRenyiFilter:
    """FZ21 Theorem 4.3 at several orders: CONT only while *every* order stays within its budget.

    (Each single-order filter is valid, and the intersection of valid filters is valid; "some order still fits" is
    not what the theorem proves.)  ``try_spend({alpha: rho_alpha, ...})`` with one rho per order.
    """

    def __init__(self, budgets: Mapping[Exact, Exact]) -> None:
        if not isinstance(budgets, Mapping):
            raise TypeError(f"budgets: expected a mapping {{alpha: B, ...}}, got {type(budgets).__name__}")
        if not budgets:
            raise DomainError("budgets", budgets, "at least one (alpha, B) pair", "fz21.thm4_3")
        self.filters = {}
        for a, b in budgets.items():
            alpha = parse_exact("alpha", a, "fz21.thm4_3")
            if alpha in self.filters:
                raise DomainError("alpha", a, "distinct orders", "fz21.thm4_3", "repeated order")
            self.filters[alpha] = Filter("fz21.thm4_3", {"alpha": alpha, "B": b})
        self.halted = False
        self.rounds = 0

    def __repr__(self) -> str:
        orders = ", ".join(f"alpha={show.number(a)}: B={show.number(f.budget['B'])}" for a, f in self.filters.items())
        return f"<MultiOrderRenyiFilter fz21.thm4_3({orders}): {'HALTED' if self.halted else 'CONT'} after " \
               f"{show.rounds(self.rounds)}>"

    def try_spend(self, rho_by_order: Mapping[Exact, Exact]) -> Decision:
        if not isinstance(rho_by_order, Mapping):
            raise TypeError(f"rho_by_order: expected a mapping {{alpha: rho, ...}}, got {type(rho_by_order).__name__}")
        if self.halted:
            return Decision.HALT
        rho = {parse_exact("alpha", a, "fz21.thm4_3"): v for a, v in rho_by_order.items()}
        if set(rho) != set(self.filters):
            raise DomainError("rho_by_order", sorted(map(str, rho)),
                              f"one rho per order {sorted(map(str, self.filters))}", "fz21.thm4_3")
        probes = []
        for a, f in self.filters.items():  # decide every order before recording anything
            rnd = f._round(None, 0, rho[a])
            halt, used, ups = f._probe(rnd)
            if halt:
                self.halted = True
                return Decision.HALT
            probes.append((f, rnd, used, ups))
        for f, rnd, used, ups in probes:
            f._record(rnd, used, ups)
        self.rounds += 1
        return Decision.CONT

    def try_spend_mechanism(self, mechanism: str, **params: Exact) -> Decision:
        """A round of a mechanism charged its Renyi divergence at every order, each rounded up
        (:func:`dpbounds.accounting.mechanisms.rdp_upper`)."""
        return self.try_spend({a: _mech.rdp_upper(mechanism, a, **params) for a in self.filters})


# ------------------------------------------------------------------------------------------------ odometers


class Odometer(_Accountant):
    """A privacy odometer for one spec entry of kind ODOMETER (parameters fixed and domain-checked at construction).

    ``step(eps, delta=0, rho=None)`` records a round and returns the running bound: the smallest float64 >= a
    certified enclosure of the spec expression (+inf once the bound is no longer valid).
    """

    def __init__(self, entry_id: str, params: Mapping[str, Exact]) -> None:
        entry = spec.get(entry_id)
        if not isinstance(params, Mapping):
            raise TypeError(f"params: expected a mapping {{name: value}}, got {type(params).__name__}")
        if entry.kind is not Kind.ODOMETER:
            raise DomainError("id", entry_id, "a spec entry of kind odometer", "dpbounds.accounting.accountants")
        if entry_id in ("fz21.prop5_2", "fz21.cor5_3"):
            raise DomainError("id", entry_id, "use RenyiOdometer (Algorithm 5) or dpbounds.accounting.individual."
                              "IndividualOdometer (Algorithm 6)", "dpbounds.accounting.accountants")
        super().__init__(entry)
        self.params = entry.check_values(dict(params))

    def __repr__(self) -> str:
        return self._repr(self.params, f"bound in {show.enclosure(self.value())}")

    def step(self, eps: Exact | None = None, delta: Exact = 0, rho: Exact | None = None) -> float:
        """Record a round; return the running bound (float64 >= the exact value; +inf when no longer valid)."""
        rnd = self._round(eps, delta, rho)
        for s in self.sums:
            s.commit(rnd)
        self.rounds += 1
        return self.value().upper()

    def value(self) -> Enclosure:
        """Certified enclosure of the current bound (``pos_inf`` when it is +oo)."""
        inp = Inputs(self.params, self.aggregates())
        return enclose_inputs(self.entry, inp, rel_tol=1e-12, start_bits=64)

    def state(self) -> dict[str, Any]:
        """JSON-serializable state; exact values as 'p/q' strings."""
        return {"version": STATE_VERSION, "kind": "odometer", "id": self.entry.id,
                "params": {k: _encode(v) for k, v in self.params.items()}, "rounds": self.rounds,
                "sums": self._sums_state()}

    @classmethod
    def from_state(cls, state: Mapping[str, Any] | str | Path) -> "Odometer":
        state = _load_state(state, "odometer")
        try:
            o = cls(state["id"], {k: _decode(v) for k, v in state["params"].items()})
            if type(state["rounds"]) is not int or state["rounds"] < 0:
                raise ValueError("rounds is not a nonnegative integer")
            o.rounds = state["rounds"]
            o._restore_sums(state["sums"])
        except (KeyError, ValueError, TypeError, AttributeError, ZeroDivisionError, OverflowError) as e:
            raise DomainError("state", "<state>", "an odometer state written by dpbounds", "dpbounds.accounting.accountants",
                              f"malformed: {e}") from None
        return o


class RenyiOdometer:
    """FZ21 Algorithm 5 / Proposition 5.2: restart a Delta-budget Renyi filter whenever it halts.

    O_t = (m + 1) Delta after m restarts; the round that made the filter halt opens the new segment
    (T_restart <- t, and the new filter sees rho_t, ...).  Requires 0 <= rho_t <= Delta for every round (so a fresh
    filter never halts on its first round).  Exact arithmetic.
    """

    def __init__(self, Delta: Exact, alpha: Exact | None = None) -> None:
        self.Delta = parse_exact("Delta", Delta, "fz21.prop5_2")
        if not self.Delta > 0:
            raise DomainError("Delta", self.Delta, "Delta > 0", "fz21.prop5_2")
        self.alpha = None if alpha is None else parse_exact("alpha", alpha, "fz21.prop5_2")
        self.m = 0
        self.segment = Fraction(0)
        self.rounds = 0

    def __repr__(self) -> str:
        return f"<RenyiOdometer fz21.prop5_2(Delta={show.number(self.Delta)}): bound = {show.number(self.value())} " \
               f"after {show.rounds(self.rounds)} ({self.m} restarts)>"

    def step(self, rho: Exact | None = None, delta: Exact = 0, *, eps: Exact | None = None) -> Fraction:
        """Record round t's rho_t; return O_t = (m + 1) Delta (exact)."""
        if rho is None:
            raise DomainError(f"rho[{self.rounds}]", None, "a per-round rho", "fz21.prop5_2", "missing per-round value")
        if delta not in (0, None, "0") and parse_exact("delta", delta) != 0:
            raise DomainError(f"delta[{self.rounds}]", delta, "delta_i = 0", "fz21.prop5_2",
                              "the Renyi odometer accounts RDP costs only")
        r = _exact_of(_value("rho", rho, self.rounds, "fz21.prop5_2"))
        if r > self.Delta:
            raise DomainError(f"rho[{self.rounds}]", r, f"0 <= rho_t <= Delta = {fraction_to_decimal_str(self.Delta)}",
                              "fz21.prop5_2")
        if self.segment + r > self.Delta:  # the Delta-filter HALTs: restart at this round
            self.m += 1
            self.segment = r
        else:
            self.segment += r
        self.rounds += 1
        return self.value()

    def value(self) -> Fraction:
        """O_t = (m + 1) Delta, evaluated from the spec entry fz21.prop5_2 (exact)."""
        enc = enclose_inputs(spec.get("fz21.prop5_2"), Inputs({"Delta": self.Delta, "m": Fraction(self.m)}, {}))
        return enc.hi


def make_odometer(entry_id: str, **params: Exact) -> "Odometer | RenyiOdometer":
    """An odometer for a spec id of kind ODOMETER (``fz21.prop5_2``: :class:`RenyiOdometer`, parameter Delta)."""
    if not isinstance(entry_id, str):
        raise TypeError(f"entry_id: expected a spec id (str), got {type(entry_id).__name__}")
    if entry_id == "fz21.prop5_2":
        extra = set(params) - {"Delta", "alpha"}
        if extra:
            raise DomainError(sorted(extra)[0], params[sorted(extra)[0]], "Delta (and optionally alpha)", entry_id,
                              "unknown parameter")
        if "Delta" not in params:
            raise DomainError("Delta", spec.core.MISSING, "a value is required", entry_id, "missing parameter")
        return RenyiOdometer(params["Delta"], params.get("alpha"))
    return Odometer(entry_id, params)


# ------------------------------------------------------------------------------------------------ comparisons


def rounds_allowed(filter_factory: Callable[[], Any], eps, max_rounds: int = 100000, delta=0) -> int:
    """How many homogeneous rounds (eps, delta) a fresh filter from ``filter_factory()`` allows (capped at max_rounds).

    Streams the rounds through ``try_spend``, so it counts exactly what the filter would do.
    """
    f = filter_factory()
    n = 0
    while n < max_rounds and f.try_spend(eps, delta) is Decision.CONT:
        n += 1
    return n


def _bench_filter(quick: bool) -> list[dict]:
    import random
    import time
    out = []
    n = 20000 if quick else 200000
    rng = random.Random(0)
    for fid, budget in (("wrrw23.thm2", dict(eps_g="1000", delta_prime="1e-6", delta_dprime="1e-6")),
                        ("rruv16.thm5_1", dict(eps_g="1000", delta_g="1e-6"))):
        f = make_filter(fid, **budget)
        eps = [rng.uniform(0, 0.01) for _ in range(n)]
        t0 = time.perf_counter()
        for e in eps:
            f.try_spend(e)
        dt = time.perf_counter() - t0
        out.append({"bench": "streaming filter decisions", "id": fid, "rate": n / dt, "unit": "decisions/s"})
    return out


BENCHMARKS = [("filter", _bench_filter)]


_batch._ACC = sys.modules[__name__]  # the batched decisions use this module's sums and checks (see batch._ACC)
