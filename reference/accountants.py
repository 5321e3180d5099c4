"""Streaming privacy filters and odometers built from spec entries.

A :class:`Filter` answers ``try_spend(eps, delta)`` round by round: CONT (the round is recorded and may run) or
HALT (nothing is recorded; the round must not run), exactly as the theorem's stopping rule: the spec's ``halt``
condition evaluated, with certified arithmetic, on the aggregates *including the candidate round*.  An undecidable
comparison counts as HALT.  Once a filter has said HALT the interaction is over and it keeps saying HALT.

An :class:`Odometer` answers ``step(eps, delta)`` with the running bound (an upper float64 rounded up from a
certified enclosure); +inf once the bound is no longer valid (e.g. WRRW23 Thm 3 after N).

Running sums are exact: polynomial per-round terms (V = sum eps^2, S, D, R, ...) are kept as exact rationals
(dyadic integers for float inputs), transcendental ones (A, KOV, LIFT) as arb balls at 256 bits -- so a 10^7-round
stream gets the decisions a 50-digit recomputation gets.  State is JSON-serializable (exact values as strings);
with ``save_path`` it is written atomically after every recorded spend, *before* CONT is returned, so a crash never
forgets a spend that was allowed to run.
"""

from __future__ import annotations

import enum
import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any, Mapping

from flint import arb

import spec
from spec import DomainError, parse_exact
from spec.aggregates import AGGREGATES
from spec.core import Kind, fraction_to_decimal_str

from .evaluate import Inputs, decide, enclose_inputs
from .interp import POS_INF, ArbBackend, NotCertified, compile_expr, eval_rational_poly
from .io import atomic_write_json
from .numeric import arb_endpoints, arb_prec, float_up

STATE_VERSION = 1


class Decision(enum.Enum):
    CONT = "CONT"
    HALT = "HALT"

    def __bool__(self) -> bool:  # `if f.try_spend(...)` reads as "may run"
        return self is Decision.CONT


# ------------------------------------------------------------------------------------------------ running sums


class _Sum:
    """An exact running sum of one aggregate's per-round term."""

    def __init__(self, name: str):
        self.name = name
        self.term = AGGREGATES[name].expr
        self.vars = sorted(s.name for s in self.term.free_symbols)
        from .sequences import _poly_terms
        self.poly = _poly_terms(name)
        self.exact = Fraction(0)        # polynomial terms
        self.ball = None                # transcendental terms: arb
        self.inf = False
        self._fn = None if self.poly is not None else compile_expr(self.term, ArbBackend())

    def term_value(self, rnd: Mapping[str, Fraction]):
        """The candidate round's term: a Fraction, an arb ball, or POS_INF."""
        if self.poly is not None:
            return eval_rational_poly(*self.poly, rnd)
        with arb_prec(256):
            return self._fn({nm: arb(rnd[nm].numerator) / arb(rnd[nm].denominator) for nm in self.vars})

    def with_term(self, t) -> Any:
        """The aggregate (lo, hi) Fractions or POS_INF after adding t (without committing)."""
        if self.inf or t is POS_INF:
            return POS_INF
        if self.poly is not None:
            v = self.exact + t
            return (v, v)
        with arb_prec(256):
            b = t if self.ball is None else self.ball + t
            ends = arb_endpoints(b)
        if ends is None:
            raise NotCertified(f"aggregate {self.name} is not finite")
        return (max(ends[0], Fraction(0)), ends[1])

    def commit(self, t) -> None:
        if self.inf or t is POS_INF:
            self.inf = True
            return
        if self.poly is not None:
            self.exact += t
        else:
            with arb_prec(256):
                self.ball = t if self.ball is None else self.ball + t

    def current(self) -> Any:
        if self.inf:
            return POS_INF
        if self.poly is not None:
            return (self.exact, self.exact)
        if self.ball is None:
            return (Fraction(0), Fraction(0))
        with arb_prec(256):
            ends = arb_endpoints(self.ball)
        return (max(ends[0], Fraction(0)), ends[1])


def _round_values(entry: spec.SpecEntry, eps, delta, rho, index: int) -> dict[str, Fraction]:
    theorem = entry.theorem
    out = {}
    for name, v in (("eps", eps), ("delta", delta), ("rho", rho)):
        if v is None:
            continue
        try:
            q = parse_exact(name, v, theorem)
        except DomainError as e:
            raise DomainError(f"{name}[{index}]", v, e.domain, theorem, e.reason) from None
        if q < 0 or (name == "delta" and q >= 1):
            dom = "0 <= delta_i < 1" if name == "delta" else f"{name}_i >= 0"
            raise DomainError(f"{name}[{index}]", q, dom, theorem)
        out[name] = q
    out.setdefault("delta", Fraction(0))
    for rel in entry.per_round_domain:  # pure-DP bounds
        names = {s.name for s in rel.free_symbols}
        if names == {"delta"} and out["delta"] != 0:
            raise DomainError(f"delta[{index}]", out["delta"], str(rel), theorem,
                              "this bound needs pure-DP rounds; use its Lemma 3.3 lift")
    return out


def _encode(v) -> Any:
    if v is POS_INF:
        return "inf"
    if isinstance(v, Fraction):
        return f"{v.numerator}/{v.denominator}"
    return v


def _decode(v) -> Any:
    if v == "inf":
        return POS_INF
    n, d = v.split("/")
    return Fraction(int(n), int(d))


# ------------------------------------------------------------------------------------------------ filters


class Filter:
    """A privacy filter for one spec entry of kind FILTER, with its budget fixed at construction."""

    def __init__(self, entry_id: str, budget: Mapping[str, Any], *, save_path: str | Path | None = None,
                 _meta: dict | None = None):
        entry = spec.get(entry_id)
        if entry.kind is not Kind.FILTER or entry.halt is None:
            raise DomainError("id", entry_id, "a spec entry of kind filter", "reference.accountants")
        self.entry = entry
        self.budget = entry.check_values(dict(budget))  # refuses an out-of-domain budget (e.g. delta_g >= 1/e)
        self.meta = dict(_meta or {})
        self.sums = {a: _Sum(a) for a in entry.aggregates}
        self.rounds = 0
        self.halted = False
        self.save_path = Path(save_path) if save_path else None
        # HALT is monotone in the aggregates when every aggregate is declared non-decreasing (tested in
        # tests/test_monotonicity.py): then a point certified CONT vouches for every point below it.
        self._monotone = bool(entry.aggregates) and all(entry.monotone.get(a) == 1 for a in entry.aggregates)
        self._safe: dict | None = None

    def _refresh_safe_point(self, cand: dict) -> None:
        """After a certified CONT at ``cand``, certify a point above it (headroom), so that later rounds whose
        aggregates stay below it are CONT by monotonicity without re-evaluating the bound."""
        self._safe = None
        for g in (Fraction(1, 2), Fraction(1, 16), Fraction(1, 256), Fraction(1, 8192)):
            point = {a: hi + hi * g for a, (lo, hi) in cand.items()}
            if not decide(self.entry, Inputs(self.budget, {a: (v, v) for a, v in point.items()})):
                self._safe = point
                return

    # -- the stopping rule
    def try_spend(self, eps=None, delta=0, rho=None) -> Decision:
        """CONT (recorded; the round may run) or HALT (not recorded; the round must not run)."""
        if self.halted:
            return Decision.HALT
        rnd = _round_values(self.entry, eps, delta, rho, self.rounds)
        missing = {v for s in self.sums.values() for v in s.vars} - set(rnd)
        if missing:
            raise DomainError(sorted(missing)[0], None, "a value for this round", self.entry.theorem,
                              "missing per-round value")
        terms = {a: s.term_value(rnd) for a, s in self.sums.items()}
        cand = {a: s.with_term(terms[a]) for a, s in self.sums.items()}
        if self._safe is not None and all(v is not POS_INF and v[1] <= self._safe[a] for a, v in cand.items()):
            halt = False  # below a point certified CONT, and HALT is monotone in the aggregates
        else:
            halt = decide(self.entry, Inputs(self.budget, cand))
            if not halt and self._monotone and all(v is not POS_INF for v in cand.values()):
                self._refresh_safe_point(cand)
        if halt:
            self.halted = True
            self._save()
            return Decision.HALT
        for a, s in self.sums.items():
            s.commit(terms[a])
        self.rounds += 1
        self._save()  # persisted before CONT is returned
        return Decision.CONT

    def statistic(self):
        """Certified enclosure of the filter's statistic (its spec ``expr``) on the recorded rounds."""
        return enclose_inputs(self.entry, Inputs(self.budget, self.aggregates()), rel_tol=1e-20)

    def aggregates(self) -> dict:
        return {a: s.current() for a, s in self.sums.items()}

    # -- state
    def state(self) -> dict:
        sums = {}
        for a, s in self.sums.items():
            if s.inf:
                sums[a] = {"inf": True}
            elif s.poly is not None:
                sums[a] = {"exact": _encode(s.exact)}
            else:
                lo, hi = s.current()
                sums[a] = {"ball": [_encode(lo), _encode(hi)] if s.ball is not None else None}
        return {"version": STATE_VERSION, "kind": "filter", "id": self.entry.id,
                "budget": {k: _encode(v) for k, v in self.budget.items()}, "rounds": self.rounds,
                "halted": self.halted, "sums": sums, "meta": self.meta}

    def _save(self) -> None:
        if self.save_path is not None:
            atomic_write_json(self.save_path, self.state())

    @classmethod
    def from_state(cls, state: Mapping | str | Path, *, save_path: str | Path | None = None) -> "Filter":
        """Restore a filter; it continues exactly as the saved one would have."""
        if isinstance(state, (str, Path)):
            try:
                state = json.loads(Path(state).read_text())
            except (OSError, json.JSONDecodeError) as e:
                raise DomainError("state", str(state), "a readable filter state file", "reference.accountants",
                                  str(e)) from None
        try:
            if state.get("kind") != "filter" or state.get("version") != STATE_VERSION:
                raise KeyError("kind/version")
            budget = {k: _decode(v) for k, v in state["budget"].items()}
            f = cls(state["id"], budget, save_path=save_path, _meta=state.get("meta"))
            f.rounds = int(state["rounds"])
            f.halted = bool(state["halted"])
            for a, rec in state["sums"].items():
                s = f.sums[a]
                if rec.get("inf"):
                    s.inf = True
                elif "exact" in rec:
                    s.exact = _decode(rec["exact"])
                elif rec.get("ball") is not None:
                    lo, hi = (_decode(x) for x in rec["ball"])
                    with arb_prec(256):
                        s.ball = (arb(lo.numerator) / arb(lo.denominator)).union(arb(hi.numerator) / arb(hi.denominator))
        except (KeyError, ValueError, TypeError, AttributeError) as e:
            raise DomainError("state", "<state>", "a filter state written by dpbounds", "reference.accountants",
                              f"malformed: {e}") from None
        return f


def make_filter(entry_id: str, *, save_path=None, conversion: str | None = None, **budget) -> Filter:
    """A filter for a spec id.  ``fz21.thm4_7`` and ``wrrw23.thm1.cks20`` compute their B from a *valid*
    conversion (``conversion='cks20'`` default, or 'bs16'); the Gaussian curve is refused."""
    if entry_id in ("fz21.thm4_7", "wrrw23.thm1.cks20") and "B" not in budget:
        from .conversions import b_star
        conv = conversion or "cks20"
        if conv not in ("bs16", "cks20"):
            raise DomainError("conversion", conv, "a valid zCDP->DP conversion: bs16 or cks20 (the Gaussian curve "
                              "is only the limit for Gaussian mechanisms)", entry_id)
        if entry_id == "fz21.thm4_7":
            b = b_star(budget["eps_g"], budget["delta_g"], conv)
        else:
            b = b_star(budget["eps_g"], budget["delta_prime"], conv)
        budget = dict(budget)
        budget["B"] = b.b_star
        return Filter(entry_id, budget, save_path=save_path, _meta={"conversion": conv})
    if conversion is not None:
        raise DomainError("conversion", conversion, "only for fz21.thm4_7 and wrrw23.thm1.cks20", entry_id)
    return Filter(entry_id, budget, save_path=save_path)


class MultiOrderRenyiFilter:
    """FZ21 Theorem 4.3 at several orders: CONT only while *every* order stays within its budget.

    (The intersection of valid filters is valid; "some order still fits" is not proven.)
    """

    def __init__(self, budgets: Mapping[Any, Any]):
        if not budgets:
            raise DomainError("budgets", budgets, "at least one (alpha, B) pair", "fz21.thm4_3")
        self.filters = {parse_exact("alpha", a): Filter("fz21.thm4_3", {"alpha": a, "B": b}) for a, b in budgets.items()}
        self.halted = False

    def try_spend(self, rho_by_order: Mapping[Any, Any]) -> Decision:
        if self.halted:
            return Decision.HALT
        rho = {parse_exact("alpha", a): v for a, v in rho_by_order.items()}
        if set(rho) != set(self.filters):
            raise DomainError("rho_by_order", sorted(map(str, rho)), f"one rho per order {sorted(map(str, self.filters))}",
                              "fz21.thm4_3")
        # decide every order before recording anything
        for a, f in self.filters.items():
            rnd = _round_values(f.entry, None, 0, rho[a], f.rounds)
            t = f.sums["R"].term_value(rnd)
            if decide(f.entry, Inputs(f.budget, {"R": f.sums["R"].with_term(t)})):
                self.halted = True
                return Decision.HALT
        for a, f in self.filters.items():
            assert f.try_spend(rho=rho[a]) is Decision.CONT
        return Decision.CONT


# ------------------------------------------------------------------------------------------------ odometers


class Odometer:
    """A privacy odometer for one spec entry of kind ODOMETER (parameters fixed at construction)."""

    def __init__(self, entry_id: str, params: Mapping[str, Any]):
        entry = spec.get(entry_id)
        if entry.kind is not Kind.ODOMETER:
            raise DomainError("id", entry_id, "a spec entry of kind odometer", "reference.accountants")
        if entry_id in ("fz21.prop5_2", "fz21.cor5_3"):
            raise DomainError("id", entry_id, "use RenyiOdometer for FZ21 Algorithm 5", "reference.accountants")
        self.entry = entry
        self.params = entry.check_values(dict(params))
        self.sums = {a: _Sum(a) for a in entry.aggregates}
        self.rounds = 0

    def step(self, eps=None, delta=0, rho=None) -> float:
        """Record a round; return the running bound (float64 >= the exact value; +inf when invalid)."""
        rnd = _round_values(self.entry, eps, delta, rho, self.rounds)
        for a, s in self.sums.items():
            s.commit(s.term_value(rnd))
        self.rounds += 1
        return self.value().upper()

    def value(self):
        """Certified enclosure of the current bound."""
        inp = Inputs(self.params, {a: s.current() for a, s in self.sums.items()})
        return enclose_inputs(self.entry, inp, rel_tol=1e-15)


class RenyiOdometer:
    """FZ21 Algorithm 5 / Proposition 5.2: restart a Delta-budget Renyi filter whenever it halts.

    The odometer is (m + 1) Delta after m restarts; the round that made the filter halt opens the new segment.
    Requires rho_t <= Delta for every round.
    """

    def __init__(self, Delta, alpha=None):
        self.Delta = parse_exact("Delta", Delta, "fz21.prop5_2")
        if not self.Delta > 0:
            raise DomainError("Delta", self.Delta, "Delta > 0", "fz21.prop5_2")
        self.alpha = alpha
        self.m = 0
        self.segment = Fraction(0)
        self.rounds = 0

    def step(self, rho) -> Fraction:
        r = parse_exact(f"rho[{self.rounds}]", rho, "fz21.prop5_2")
        if r < 0 or r > self.Delta:
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


def make_odometer(entry_id: str, **params):
    if entry_id == "fz21.prop5_2":
        return RenyiOdometer(params.get("Delta"))
    return Odometer(entry_id, params)


# ------------------------------------------------------------------------------------------------ comparisons


def rounds_allowed(filter_factory, eps, max_rounds: int = 100000, delta=0) -> int:
    """How many homogeneous rounds (eps, delta) a fresh filter from ``filter_factory()`` allows."""
    f = filter_factory()
    n = 0
    while n < max_rounds and f.try_spend(eps, delta) is Decision.CONT:
        n += 1
    return n


def _bench_filter(quick: bool) -> list[dict]:
    import time
    f = make_filter("wrrw23.thm2", eps_g="1000", delta_prime="1e-6", delta_dprime="0")
    n = 2000 if quick else 20000
    t0 = time.perf_counter()
    for _ in range(n):
        f.try_spend(0.001)
    dt = time.perf_counter() - t0
    return [{"bench": "streaming filter decisions", "id": "wrrw23.thm2", "rate": n / dt, "unit": "decisions/s"}]


BENCHMARKS = [("filter", _bench_filter)]
