"""The catalogue of filters: one :class:`~dpbounds.accounting.registry.FilterSpec` per filter ``make_filter``
builds (at the end of this module), and the accountants of the filters the generic
:class:`~dpbounds.accounting.accountants.Filter` does not build by itself (spec/filters.py states their rules).

Public API
----------
* :class:`GDPFilter` (``make_filter("st22.filter", eps_g=..., delta_g=...)``) -- Smith-Thakurta's Gaussian-DP
  filter; ``try_spend_mu(mu)`` for a mu-GDP round (``try_spend(rho=mu^2/2)`` is the same decision).
  ``make_filter("kth23.individual_filter", ...)`` is the same rule for one person of Koskela-Tobaben-Honkela's
  individual GDP filter (the n-person accountant is :class:`dpbounds.accounting.individual.IndividualGDPFilter`).
* :class:`RenyiRRFilter` (``make_filter("fz21.thm4_3.rr", alpha=..., eps_g=..., delta_g=...)``) -- FZ21's Renyi
  filter at one order with each pure eps-DP round charged its exact RR Renyi divergence; ``try_spend(eps)``.
* ``make_filter("fz21.thm4_3.rr.optimal" | "fz21.thm4_3.optimal" | "fz21.thm4_7.optimal", alpha=..., eps_g=...,
  delta_g=...)`` -- the same Renyi / zCDP filters with the budget R*(alpha, eps_g, delta_g) of the optimal single-order
  RDP -> DP conversion (ALCKS20 Lemma 1) instead of CKS20's (:func:`optimal_budget`; computed once, cached).
* :class:`MultiOrderUnionFilter` (``make_filter("lec21.multi_order", eps_g=..., delta_g=..., orders="2,4,8")``) --
  CONT while SOME order fits its budget, delta_g split evenly across the orders (proofs_check
  ``lec21.multi_order.union_bound``); ``try_spend(eps)`` or ``try_spend(rho={alpha: rho, ...})``.
* ``make_filter("lec21.multi_order.cks20", eps_g=..., delta_g=..., orders=...)`` -- the same with CKS20 budgets at
  delta_g/k per order (proofs_check ``lec21.multi_order.cks20.partition``).
* :class:`LiftedFilter` (``make_filter("kov15.lift", eps_g=..., delta_g=..., delta_dprime=..., base="fz21.thm4_3.rr",
  alpha=...)``) -- (eps_i, delta_i) rounds through a pure-round filter at delta' = delta_g - delta'', halting when
  sum delta_i would exceed delta'' (proofs_check ``kov15.lift.coupling``); ``try_spend(eps, delta)``.
* the catalogue (:func:`dpbounds.accounting.registry.filter_specs`): every filter's builder, round values, test and
  benchmark budgets and family, read by ``make_filter``, ``Filter.from_state``, the tests, ``dpbounds bench`` and
  the report's side-by-side comparison.

Decisions are the generic :class:`~dpbounds.accounting.accountants.Filter`'s (exact sums, certified comparisons); this
module only fixes the budget from the spec's definition and converts the per-round description.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any, Callable

import numpy as np
from dpbounds import spec
from dpbounds.spec import DomainError, parse_exact
from dpbounds.spec.core import Exact
from dpbounds.evaluation.numeric import real_array

from . import accountants as _acc
from .accountants import Decision, Filter, make_filter
from .registry import FilterSpec, Lineup, register_filter
from .conversions import b_star
from dpbounds.accounting import mechanisms as _mech
from dpbounds.evaluation.evaluate import Enclosure, Inputs, decide, enclose
from dpbounds.evaluation.numeric import arb_endpoints, arb_prec, float_down, float_up, fraction_to_arb
from dpbounds.evaluation.rdp_conversions import r_max_lower

__all__ = ["GDPFilter", "LiftedFilter", "MultiOrderUnionFilter", "RenyiRRFilter", "gdp_budget",
           "rr_rdp_upper"]

def _pure_eps(f: Filter, eps, delta) -> Fraction:
    """A pure round's eps, exact: delta must be 0 and eps >= 0 (DomainError naming the round otherwise)."""
    if not (delta in (0, None) or parse_exact(f"delta[{f.rounds}]", delta, f.entry.theorem) == 0):
        raise DomainError(f"delta[{f.rounds}]", delta, "delta_i = 0 (pure-DP rounds)", f.entry.theorem)
    e = parse_exact(f"eps[{f.rounds}]", eps, f.entry.theorem)
    if e < 0:
        raise DomainError(f"eps[{f.rounds}]", e, "eps_i >= 0", f.entry.theorem)
    return e



def gdp_budget(eps_g: Exact, delta_g: Exact, B: Exact | None = None, entry_id: str = "st22.filter") -> Fraction:
    """Return B = mu_g^2/2 for the largest mu_g with delta_gauss(eps_g; mu_g) <= delta_g (certified lower end), or
    the given ``B`` after checking that it does not exceed that.

    Source: spec ``st22.filter`` (Smith-Thakurta, arXiv:2210.17520; the budget through DRS19 Corollary 2.13, i.e.
    ``conversions.gauss.delta`` at rho = mu_g^2/2), used as well by ``kth23.individual_filter``.  The lower end of
    the certified bracket of B*_gauss: the exact Gaussian curve at mu_g = sqrt(2 B) is <= delta_g (decided by arb),
    so B is never overstated; a larger explicit B raises DomainError naming ``entry_id``.
    Domain: eps_g > 0, 0 < delta_g < 1, 0 <= B <= B*_gauss(eps_g, delta_g).
    """
    spec.get(entry_id).check_values({"eps_g": eps_g, "delta_g": delta_g}, need=("eps_g", "delta_g"))
    b: Fraction = b_star(eps_g, delta_g, "gauss").b_star
    if B is not None:
        given = parse_exact("B", B, entry_id)
        if given < 0 or given > b:
            raise DomainError("B", given, f"0 <= B <= B*_gauss(eps_g, delta_g) >= {float(b):.17g} (certified)",
                              entry_id, "a larger B is not certified to give the stated (eps_g, delta_g)-DP guarantee")
        b = given
    return b


class GDPFilter(Filter):
    """Smith-Thakurta's GDP filter: CONT while sum mu_t^2 <= mu_g^2 (HALT: the round must not run).

    The interaction it stops is mu_g-GDP, hence (eps_g, delta_g)-DP with mu_g from :func:`gdp_budget`.  Rounds are
    recorded as rho_t = mu_t^2/2 exactly (spec ``st22.filter``: R = sum rho_t, B = mu_g^2/2).
    """

    def try_spend_mu(self, mu) -> Decision:
        """CONT (recorded) or HALT for a mu-GDP round (mu >= 0: float, int, Fraction, Decimal or decimal string)."""
        m = parse_exact(f"mu[{self.rounds}]", mu, self.entry.theorem)
        if m < 0:
            raise DomainError(f"mu[{self.rounds}]", m, "mu_t >= 0", self.entry.theorem)
        return self.try_spend(rho=m * m / 2)


def _gdp_filter(*, save_path=None, conversion: str | None = None, _lock=None, entry_id: str = "st22.filter",
                **budget) -> GDPFilter:
    if conversion not in (None, "gauss"):
        raise DomainError("conversion", conversion, "none (the budget is the exact Gaussian curve)", entry_id)
    entry = spec.get(entry_id)
    entry.check_values({k: v for k, v in budget.items() if k != "B"}, need=("eps_g", "delta_g"))
    budget = dict(budget)
    budget["B"] = gdp_budget(budget["eps_g"], budget["delta_g"], budget.get("B"), entry_id)
    return GDPFilter(entry_id, budget, save_path=save_path, _lock=_lock, _meta={"conversion": "gauss (exact: the interaction is "
                                                                              "GDP)"})


def _individual_gdp_filter(**kw) -> GDPFilter:
    """One person's filter of kth23.individual_filter (HALT final: stopping at the person's first exceedance is the
    stream the spec and the golden vectors describe; dpbounds.accounting.individual.IndividualGDPFilter lets a person
    rejoin when a smaller mu fits, as the theorem allows)."""
    return _gdp_filter(entry_id="kth23.individual_filter", **kw)


# ------------------------------------------------------------------------------------------------ Renyi, exact RR curve

#: relative error budget of rr_rdp_charge's float program, in units of 2^-52, as (constant, per unit of alpha eps)
_RR_REL = (32.0, 2.0)


def rr_rdp_charge(alpha: Exact, eps: Any) -> np.ndarray:
    """Return float64 upper bounds >= D_alpha(RR_eps) elementwise: the per-round charge of the RR Renyi filters.

    Source: spec ``conversions.rr.rdp`` (Mironov 2017, randomized response; tight by KOV15 dominance) in the form
    D = log1p(y) / (alpha - 1), y = expm1(alpha eps) (-expm1(-(alpha - 1) eps)) / (1 + e^eps) -- every factor
    positive, no cancellation.  alpha is rounded up to float64 (the Renyi divergence is nondecreasing in the order)
    and alpha - 1 up inside y (y grows with it) and down as the divisor.  Error: fl(a eps) errs by one rounding, which expm1 amplifies by at most 1 + a eps; the
    other arguments by at most 1; with the libm kernels (<= 1 ulp each) and five roundings the relative error is
    below (a eps + 12) 2^-53, bounded here by (32 + 2 a eps) 2^-52; an absolute 2^-1068 / min(alpha - 1, 1)
    covers underflow of y (a positive term is never charged 0).  Elementwise ufuncs only, so an element's charge does
    not depend on the array around it: the per-round and the batched paths charge identical floats.  0 where
    eps = 0 (exact); an arb enclosure rounded up where the program overflows (alpha eps of about 700); never
    above eps itself (the Renyi divergence of a pure eps-DP pair is at most eps).
    Domain: alpha > 1, eps >= 0 (float64 values; +inf gives +inf).
    """
    al = parse_exact("alpha", alpha, "conversions.rr.rdp")
    if not al > 1:
        raise DomainError("alpha", al, "alpha > 1", "conversions.rr.rdp")
    a = float_up(al)
    am1_up, am1_dn = float_up(Fraction(a) - 1), float_down(Fraction(a) - 1)  # y grows with a - 1; D = .../(a - 1)
    e = real_array("eps", eps)
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        ae = a * e
        y = np.expm1(ae) * -np.expm1(-(am1_up * e)) / (1.0 + np.exp(e))
        v = np.log1p(y) / am1_dn
        u = v * (1.0 + (_RR_REL[0] + _RR_REL[1] * ae) * 2.0 ** -52) + 2.0 ** -1068 / min(am1_dn, 1.0)
    u = np.where(np.isfinite(u), u, np.inf)
    u[e == 0] = 0.0
    for i in np.flatnonzero(np.isfinite(e) & (u == np.inf)):  # overflow (e^{alpha eps}): arb, rare
        u.flat[i] = float_up(enclose("conversions.rr.rdp", {"alpha": al, "eps": Fraction(float(e.flat[i]))},
                                     rel_tol=Fraction(1, 2**60)).hi)
    return np.minimum(u, e)  # D_alpha <= D_inf = eps: also keeps every charge of a finite eps finite


def rr_rdp_upper(alpha: Exact, eps: Exact) -> Fraction:
    """Return a rational >= D_alpha(RR_eps) (the tight RDP of a pure eps-DP round): :func:`rr_rdp_charge` at eps
    rounded up to float64 (RR_eps' is a post-processing of RR_eps for eps' <= eps, so the charge only grows), as an
    exact rational -- at most (32 + 2 alpha eps) 2^-52 relative above the exact value; eps itself beyond float64.

    Source: spec ``conversions.rr.rdp``.  Domain: alpha > 1, eps >= 0 (exact values).
    """
    e = parse_exact("eps", eps, "conversions.rr.rdp")
    if e < 0:
        raise DomainError("eps", e, "eps >= 0", "conversions.rr.rdp")
    ef = float_up(e)
    return e if ef == np.inf else _rr_charge_one(parse_exact("alpha", alpha, "conversions.rr.rdp"), ef)


@functools.lru_cache(maxsize=4096)  # a pure memo of a pure function: the same value whatever the call order
def _rr_charge_one(alpha: Fraction, eps: float) -> Fraction:
    return Fraction(float(rr_rdp_charge(alpha, np.array([eps]))[0]))


class RenyiRRFilter(Filter):
    """FZ21 Theorem 4.3 at one order alpha, each pure eps_t-DP round charged D_alpha(RR_eps_t) (spec fz21.thm4_3.rr).

    ``try_spend(eps)`` (pure rounds; delta must be 0) or ``try_spend(rho=...)`` for a round with a known RDP value
    at this order.  The charge is :func:`rr_rdp_charge`, a float64 upper bound of the exact curve (~1e-14 relative
    above it), so a HALT of the exact rule is never turned into a CONT; the batched path charges the same floats.
    """

    def try_spend(self, eps=None, delta=0, rho=None) -> Decision:
        if rho is None and eps is not None:
            e = _pure_eps(self, eps, delta)
            return super().try_spend(rho=rr_rdp_upper(self.budget["alpha"], e))
        return super().try_spend(eps=eps, delta=delta, rho=rho)

    def try_spend_many(self, eps: Any = None, delta: Any = None, rho: Any = None) -> int:
        """k: rounds 0..k-1 CONT (recorded), the rest HALT -- exactly try_spend round by round.  Pure eps rounds
        are charged :func:`rr_rdp_charge` -- the same floats the per-round path charges -- and decided on the
        batched path; every value is checked before any round is recorded."""
        if eps is None or rho is not None:
            return super().try_spend_many(eps=eps, delta=delta, rho=rho)
        th = self.entry.theorem
        arrs = [real_array("eps", eps)] + ([] if delta is None else [real_array("delta", delta)])
        flat = [np.ascontiguousarray(a).reshape(-1) for a in np.broadcast_arrays(*arrs)]
        e = flat[0]
        bad = np.flatnonzero(~((e >= 0) & (e < np.inf)))
        if bad.size:
            i = int(bad[0])
            raise DomainError(f"eps[{self.rounds + i}]", float(e[i]), "eps_i >= 0 (finite)", th)
        if len(flat) > 1 and np.any(flat[1] != 0):
            i = int(np.flatnonzero(flat[1])[0])
            raise DomainError(f"delta[{self.rounds + i}]", float(flat[1][i]), "delta_i = 0 (pure-DP rounds)", th)
        return super().try_spend_many(rho=rr_rdp_charge(self.budget["alpha"], e))  # (finite: <= eps)


def _rr_filter(*, save_path=None, conversion: str | None = None, _lock=None, **budget) -> RenyiRRFilter:
    if conversion is not None:
        raise DomainError("conversion", conversion, "none (CKS20 Prop. 12 at the given order is built in)",
                          "fz21.thm4_3.rr")
    return RenyiRRFilter("fz21.thm4_3.rr", budget, save_path=save_path, _lock=_lock)


# ------------------------------------------------------------------------------------------------ optimal conversion

@functools.lru_cache(maxsize=64)  # R* takes seconds; a pure function of exact arguments, so the memo is harmless
def _r_max_budget(alpha: Fraction, eps_g: Fraction, delta_g: Fraction) -> Fraction:
    """The larger of two certified lower bounds of R*: the float lower end of its enclosure (relative width 1e-9)
    and CKS20's budget (one Lagrange-dual certificate of the same problem, proofs_check conversions.rdp.cks20.via_dual;
    at large orders R* exceeds it by less than the enclosure's width), so never fewer rounds than fz21.thm4_3.rr."""
    from flint import arb

    with arb_prec(128):
        A, E, D = (fraction_to_arb(x) for x in (alpha, eps_g, delta_g))
        cks = E - ((1 / D).log() + (A - 1) * (-1 / A).log1p() - A.log()) / (A - 1)
        ends = arb_endpoints(cks)
    cks_lo = Fraction(float_down(ends[0])) if ends is not None else Fraction(0)
    return max(Fraction(r_max_lower(alpha, eps_g, delta_g)), cks_lo, Fraction(0))


def optimal_budget(entry_id: str, alpha: Exact, eps_g: Exact, delta_g: Exact, B: Exact | None = None) -> Fraction:
    """Return the filter budget of ``fz21.thm4_3.optimal`` / ``fz21.thm4_3.rr.optimal`` (B <= R*) or
    ``fz21.thm4_7.optimal`` (B <= R*/alpha): the float64 lower end of the certified R*(alpha, eps_g, delta_g)
    (spec extra B_max; dpbounds.evaluation.rdp_conversions.r_max_lower), divided by alpha for the zCDP entry, or the
    given ``B`` after checking it does not exceed that.  Computed once per (alpha, eps_g, delta_g) and cached.

    Source: ALCKS20 Lemma 1 (arXiv:2001.05990v1) through conversions.rdp.optimal; FZ21 Theorem 4.3 / 4.7.
    Domain: alpha > 1, eps_g > 0, 0 < delta_g < 1, 0 <= B <= that value.
    """
    entry = spec.get(entry_id)
    v = entry.check_values({"alpha": alpha, "eps_g": eps_g, "delta_g": delta_g},
                           need=("alpha", "eps_g", "delta_g"))
    a = v["alpha"]
    b = _r_max_budget(a, v["eps_g"], v["delta_g"])
    what = "R*(alpha, eps_g, delta_g)"
    if entry_id == "fz21.thm4_7.optimal":
        b, what = b / a, "R*(alpha, eps_g, delta_g)/alpha"
    if B is not None:
        given = parse_exact("B", B, entry.theorem)
        if given < 0 or given > b:
            raise DomainError("B", given, f"0 <= B <= {what} >= {float(b):.17g} (certified)", entry_id,
                              "a larger B is not certified to give the stated (eps_g, delta_g)-DP guarantee")
        b = given
    return b


class ZCDPOptimalFilter(Filter):
    """FZ21 Theorem 4.7's zCDP filter with B = R*(alpha)/alpha (spec fz21.thm4_7.optimal): ``try_spend(rho=...)``
    for a rho-zCDP round (e.g. Gaussian), ``try_spend(eps)`` for a pure eps-DP round (charged eps^2/2 exactly, BS16
    Proposition 3.3)."""

    def try_spend(self, eps=None, delta=0, rho=None) -> Decision:
        if rho is None and eps is not None:
            e = _pure_eps(self, eps, delta)
            return super().try_spend(rho=e * e / 2)
        return super().try_spend(eps=eps, delta=delta, rho=rho)

    def try_spend_many(self, eps: Any = None, delta: Any = None, rho: Any = None) -> int:
        """k: rounds 0..k-1 CONT (recorded), the rest HALT; pure eps rounds decided round by round (exact eps^2/2)."""
        if eps is None or rho is not None:
            return super().try_spend_many(eps=eps, delta=delta, rho=rho)
        e = real_array("eps", eps).reshape(-1)
        d = np.zeros_like(e) if delta is None else np.broadcast_to(real_array("delta", delta), e.shape)
        k = 0
        for x, y in zip(e.tolist(), d.tolist()):
            if not self.try_spend(x, y):
                break
            k += 1
        return k


def _optimal_filter(entry_id: str, cls: type):
    def build(*, save_path=None, conversion: str | None = None, _lock=None, **budget) -> Filter:
        if conversion not in (None, "optimal"):
            raise DomainError("conversion", conversion, "none (the optimal single-order conversion is built in)",
                              entry_id)
        budget = dict(budget)
        for key in ("alpha", "eps_g", "delta_g"):
            if key not in budget:
                raise DomainError(key, spec.core.MISSING, "a value is required", entry_id, "missing parameter")
        budget["B"] = optimal_budget(entry_id, budget["alpha"], budget["eps_g"], budget["delta_g"], budget.get("B"))
        return cls(entry_id, budget, save_path=save_path, _lock=_lock,
                   _meta={"conversion": "optimal (ALCKS20 Lemma 1, R* certified lower end)"})
    return build


OPTIMAL_IDS = {"fz21.thm4_3.optimal": Filter, "fz21.thm4_3.rr.optimal": RenyiRRFilter,
               "fz21.thm4_7.optimal": ZCDPOptimalFilter}


class MultiOrderUnionFilter:
    """Multi-order Renyi filter: CONT iff SOME order alpha has sum_t rho_t(alpha) <= B(alpha), the component budget of
    ``entry_id``: eps_g - log(k/delta_g)/(alpha-1) (``lec21.multi_order``, tail bound) or the CKS20 budget at
    delta_g/k (``lec21.multi_order.cks20``).

    Source: spec ``lec21.multi_order`` (Lecuyer's construction; the delta_g/k split per order proved in proofs_check
    ``lec21.multi_order.union_bound``; the CKS20 budgets in ``lec21.multi_order.cks20.partition``).  Every accepted round is charged at every order (exact rationals; pure
    eps-DP rounds at their exact RR curve, rounded up).  Decisions are certified (:func:`decide` on each order's
    component entry).  Domain: distinct orders alpha > 1, eps_g > 0, 0 < delta_g < 1.
    """

    def close(self) -> None:
        """Nothing to release: this filter keeps no state file (no save_path)."""

    def __init__(self, eps_g, delta_g, orders, entry_id: str = "lec21.multi_order"):
        self.entry = spec.get(entry_id)
        th = self.entry.theorem
        if isinstance(orders, str):
            orders = [o for o in orders.split(",") if o.strip()]
        alphas = [parse_exact("orders", a, th) for a in orders]
        if not alphas:
            raise DomainError("orders", orders, "at least one order alpha > 1", th)
        if len(set(alphas)) != len(alphas):
            raise DomainError("orders", orders, "distinct orders", th, "repeated order")
        k = len(alphas)
        self.params = {a: self.entry.check_values({"alpha": a, "eps_g": eps_g, "delta_g": delta_g, "k": k})
                       for a in alphas}
        self.spent = {a: Fraction(0) for a in alphas}
        self.budget = {"eps_g": parse_exact("eps_g", eps_g, th), "delta_g": parse_exact("delta_g", delta_g, th),
                       "orders": tuple(alphas)}
        self.halted = False
        self.rounds = 0
        self.last_candidate: dict | None = None
        self.accepting_order: Fraction | None = None

    @property
    def orders(self) -> list[Fraction]:
        return list(self.spent)

    def try_spend_mechanism(self, mechanism: str, **params: Exact) -> Decision:
        """A round of a mechanism charged its Renyi divergence at every order, each rounded up
        (:func:`dpbounds.accounting.mechanisms.rdp_upper`)."""
        return self.try_spend(rho={a: _mech.rdp_upper(mechanism, a, **params) for a in self.spent})

    def _fits(self, a: Fraction, r: Fraction) -> bool:
        return not decide(self.entry, Inputs(self.params[a], {"R": (r, r)}))

    def try_spend(self, eps=None, delta=0, rho=None) -> Decision:
        """CONT (the round is charged at every order and may run) or HALT (nothing recorded; final)."""
        th = self.entry.theorem
        if self.halted:
            return Decision.HALT
        if rho is not None:
            if not isinstance(rho, dict):
                raise DomainError("rho", rho, "a mapping {alpha: rho_alpha} over the filter's orders", th)
            given = {parse_exact("alpha", a, th): parse_exact(f"rho[{self.rounds}]", v, th) for a, v in rho.items()}
            if set(given) != set(self.spent) or any(v < 0 for v in given.values()):
                want = f"one rho >= 0 per order {sorted(map(str, self.spent))}"
                raise DomainError("rho", sorted(map(str, given)), want, th)
        elif eps is not None:
            if not (delta in (0, None) or parse_exact(f"delta[{self.rounds}]", delta, th) == 0):
                raise DomainError(f"delta[{self.rounds}]", delta, "delta_i = 0 (pure-DP rounds)", th)
            e = parse_exact(f"eps[{self.rounds}]", eps, th)
            if e < 0:
                raise DomainError(f"eps[{self.rounds}]", e, "eps_i >= 0", th)
            given = {a: rr_rdp_upper(a, e) for a in self.spent}
        else:
            raise DomainError(f"eps[{self.rounds}]", None, "a per-round eps (pure DP) or rho per order", th,
                              "missing per-round value")
        new = {a: self.spent[a] + given[a] for a in self.spent}
        fit = next((a for a in self.spent if self._fits(a, new[a])), None)
        if fit is None:
            self.halted = True
            self.last_candidate = new
            return Decision.HALT
        self.spent = new
        self.accepting_order = fit
        self.rounds += 1
        return Decision.CONT

    def statistic(self, *, candidate: bool = False):
        """Exact enclosure of the spend sum_t rho_t(alpha) at the order that accepted the last round (with
        ``candidate=True`` after a HALT: the smallest candidate spend over the orders, none of which fits)."""
        if candidate and self.last_candidate is not None:
            v = min(self.last_candidate.values())
        else:
            v = self.spent[self.accepting_order if self.accepting_order is not None else self.orders[0]]
        return Enclosure(v, v, 0)


def _multi_order(*, save_path=None, conversion: str | None = None, _lock=None, entry_id: str = "lec21.multi_order",
                 **budget):
    if conversion is not None or save_path is not None:
        raise DomainError("conversion" if conversion is not None else "save_path", conversion or save_path,
                          "not supported by the multi-order filter", entry_id)
    if "orders" in budget:
        extra = set(budget) - {"eps_g", "delta_g", "orders"}
        if extra:
            raise DomainError(sorted(extra)[0], budget[sorted(extra)[0]], "eps_g, delta_g, orders", entry_id,
                              "unknown parameter")
        for key in ("eps_g", "delta_g"):
            if key not in budget:
                raise DomainError(key, spec.core.MISSING, "a value is required", entry_id, "missing parameter")
        return MultiOrderUnionFilter(budget["eps_g"], budget["delta_g"], budget["orders"], entry_id)
    # one component (alpha, k given): the per-order rule of the spec, pure rounds at their RR curve
    return RenyiRRFilter(entry_id, budget)


def _multi_order_cks20(**kw):
    return _multi_order(entry_id="lec21.multi_order.cks20", **kw)


#: the pure-round filters kov15.lift accepts as its base (each reads the rounds' eps only)
LIFT_BASES = ("fz21.thm4_3.rr", "lec21.multi_order", "lec21.multi_order.cks20", "fz21.thm4_7", "rruv16.thm5_1",
              "rruv16.thm3_4.filter")


class LiftedFilter:
    """(eps_i, delta_i) rounds through a pure-round filter: CONT iff sum delta_i <= delta'' (candidate included) AND
    the base filter, built at (eps_g, delta' = delta_g - delta''), CONTinues on eps_i.

    Source: spec ``kov15.lift`` (KOV15 Theorem 2.2 / WRRW23 Lemma 11 dominance; the lift proved in proofs_check
    ``kov15.lift.coupling``).  The delta sum is the generic exact accountant of the spec's component (HALT iff D >
    delta''); a round refused by either part is charged to neither, and HALT is final.
    Domain: eps_g > 0, 0 <= delta'' < delta_g < 1, base one of :data:`LIFT_BASES` with its own parameters (default
    rruv16.thm3_4.filter, basic composition sum eps_i <= eps_g: the lift is then basic composition of (eps_i, delta_i)
    rounds; pass base="fz21.thm4_3.rr", alpha=... for the tight RR Renyi base).
    """

    def close(self) -> None:
        """Nothing to release: this filter keeps no state file (no save_path)."""

    def __init__(self, eps_g, delta_g, delta_dprime, base: str = "rruv16.thm3_4.filter", **base_params):
        self.entry = spec.get("kov15.lift")
        th = self.entry.theorem
        if base not in LIFT_BASES:
            raise DomainError("base", base, "one of " + ", ".join(LIFT_BASES), th, "not a pure-round filter")
        self.deltas = Filter("kov15.lift", {"eps_g": eps_g, "delta_g": delta_g, "delta_dprime": delta_dprime})
        b = self.deltas.budget
        self.delta_prime = b["delta_g"] - b["delta_dprime"]
        want = spec.get(base).params
        kw = {"eps_g": b["eps_g"], **({"delta_g": self.delta_prime} if "delta_g" in want or "orders" in base_params
                                      else {}), **base_params}
        self.base = make_filter(base, **kw)
        self.budget = {**b, "delta_prime": self.delta_prime, "base": base, **base_params}
        self.halted = False
        self.rounds = 0

    def try_spend(self, eps=None, delta=0, rho=None) -> Decision:
        """CONT (charged to both parts; the round may run) or HALT (nothing recorded; final)."""
        th = self.entry.theorem
        if self.halted:
            return Decision.HALT
        if eps is None or rho is not None:
            raise DomainError(f"eps[{self.rounds}]", eps if rho is None else rho, "a per-round eps (and delta)", th)
        rnd = self.deltas._round(None, 0 if delta is None else delta, None)  # validates 0 <= delta < 1 (eps: the base)
        halt, used, ups = self.deltas._probe(rnd)
        if halt or not self.base.try_spend(eps):
            self.halted = True
            return Decision.HALT
        self.deltas._record(rnd, used, ups)
        self.rounds += 1
        return Decision.CONT

    def try_spend_many(self, eps=None, delta=None, rho=None) -> int:
        """k: rounds 0..k-1 CONT (recorded), the rest HALT -- try_spend's decisions round by round, every value
        checked (finite, eps >= 0, 0 <= delta < 1) before any round is recorded."""
        th = self.entry.theorem
        if eps is None or rho is not None:
            raise DomainError("eps" if eps is None else "rho", eps if rho is None else "<array>",
                              "per-round eps (and delta) arrays", th)
        arrs = [real_array("eps", eps)] + ([] if delta is None else [real_array("delta", delta)])
        try:
            flat = [np.ascontiguousarray(a).reshape(-1) for a in np.broadcast_arrays(*arrs)]
        except ValueError:
            raise DomainError("eps, delta", "<arrays>", "shapes that broadcast together", th) from None
        e = flat[0]
        d = flat[1] if delta is not None else np.zeros_like(e)
        for name, v, hi in (("eps", e, np.inf), ("delta", d, 1.0)):
            bad = ~((v >= 0) & (v < hi))
            if np.any(bad):
                i = int(np.flatnonzero(bad)[0])
                raise DomainError(f"{name}[{self.rounds + i}]", float(v[i]),
                                  f"{name} >= 0 (finite)" if name == "eps" else "0 <= delta < 1", th)
        k = 0
        for x, y in zip(e.tolist(), d.tolist()):
            if self.try_spend(x, y) is not Decision.CONT:
                break
            k += 1
        return k

    def statistic(self, *, candidate: bool = False):
        """Exact enclosure of the delta spend D = sum delta_i (the spec's statistic; with ``candidate=True`` after a
        HALT: the refused round included when the delta side refused it, else the recorded sum)."""
        return self.deltas.statistic(candidate=candidate)


def _lift(*, save_path=None, conversion: str | None = None, _lock=None, **budget):
    if conversion is not None or save_path is not None:
        raise DomainError("conversion" if conversion is not None else "save_path", conversion or save_path,
                          "not supported by the lifted filter", "kov15.lift")
    for key in ("eps_g", "delta_g", "delta_dprime"):
        if key not in budget:
            raise DomainError(key, spec.core.MISSING, "a value is required", "kov15.lift", "missing parameter")
    return LiftedFilter(**budget)


# ------------------------------------------------------------------------------------------------ the catalogue
# Every filter make_filter builds, one FilterSpec each (dpbounds.accounting.registry): builder, round values, the
# budgets of its tests and of its benchmark, its family.  Adding a filter: its spec entry, and one entry here.

_ZCDP_B = "B from a valid zCDP -> DP conversion (conversion='cks20' by default, or 'bs16')"


def _b_from_conversion(entry_id: str, delta_param: str, need: tuple[str, ...]):
    """Builder of a zCDP filter whose B is the certified lower end of B*_conversion(eps_g, delta) (a given B must
    not exceed it); 'gauss' is refused (not a valid conversion for general rho-zCDP rounds)."""
    def build(*, save_path=None, conversion: str | None = None, _lock=None, **budget) -> Filter:
        conv = conversion or "cks20"
        if entry_id == "wrrw23.thm1.cks20":
            extra = set(budget) - {*need, "B"}
            if extra:
                raise DomainError(sorted(extra)[0], budget[sorted(extra)[0]], "one of " + ", ".join(need) + ", B",
                                  entry_id, "unknown parameter")
            for k in need:
                if k not in budget:
                    raise DomainError(k, spec.core.MISSING, "a value is required", entry_id, "missing parameter")
            return _acc.wrrw23_thm1_cks20(budget["eps_g"], budget["delta_prime"], budget["delta_dprime"],
                                          conversion=conv, B=budget.get("B"), save_path=save_path, _lock=_lock)
        _acc._check_conversion(conv, entry_id)
        spec.get(entry_id).check_values({k: v for k, v in budget.items() if k != "B"}, need=need)
        budget = dict(budget)
        budget["B"] = _acc._b_star_budget(entry_id, budget["eps_g"], budget[delta_param], budget, conv)
        return Filter(entry_id, budget, save_path=save_path, _meta={"conversion": conv}, _lock=_lock)
    return build


def _thm4_7_lineup(eps_g: str, delta_g: str) -> dict[str, str]:
    b = b_star(eps_g, delta_g, "cks20").b_star
    return {"eps_g": eps_g, "delta_g": delta_g, "B": f"{b.numerator}/{b.denominator}"}


_R = {"alpha": "2", "B": "1"}           # a Renyi budget the tests' rho ~ 0.01 streams cross
_R_BENCH = {"alpha": "2", "B": "1e6"}   # ... and one 1e6 benchmark rounds stay inside
_EPS = {"eps_g": "1", "delta_g": "1e-6"}
_EPS_BENCH = {"eps_g": "1000", "delta_g": "1e-6"}
_RR_BENCH = {"alpha": "8", "eps_g": "1e5", "delta_g": "1e-6"}
_MULTI_BENCH = {**_RR_BENCH, "k": "4"}
_OWN = "tests/test_filters.py (its own per-round quantities, against independent computations)"
_OWN_IND = "tests/test_individual_gdp.py (per person, against independent computations)"
_OWN_LIFT = "tests/test_multi_order_lift.py (exact-engine validity, independent round counts)"
_SLOW = "tests/test_optimal_budget.py (the budget R* takes seconds per point)"

for _fs in (
    # Renyi (FZ21): rounds are rho = the round's Renyi divergence at the order alpha
    FilterSpec("fz21.thm4_3", "renyi", "rho", test_budget=_R, bench_budget=_R_BENCH),
    FilterSpec("fz21.thm3_1", "renyi", "rho", test_budget=_R, bench_budget=_R_BENCH),
    FilterSpec("fz21.thm4_5", "renyi", "rho", test_budget=_R, bench_budget=_R_BENCH),
    FilterSpec("fz21.remark4_4", "zcdp", "eps", test_budget={"B": "0.5"}, test_size=0.05,
               bench_budget={"B": "1e6"}, eps_as_zcdp="BS16 Prop. 1.4 (pure rounds)"),
    FilterSpec("fz21.thm4_7", "zcdp", "eps", builder=_b_from_conversion("fz21.thm4_7", "delta_g", ("eps_g", "delta_g")),
               test_budget=_EPS, test_size=0.05, bench_budget=_EPS_BENCH, conversion_delta="delta_g",
               lineup=Lineup(3, "FZ21 Thm 4.7 + CKS20 (B*)", _thm4_7_lineup)),
    FilterSpec("fz21.thm4_7.bs16", "zcdp", "eps", test_budget=_EPS, test_size=0.05, bench_budget=_EPS_BENCH),
    # basic and advanced composition (RRUV16)
    FilterSpec("rruv16.thm3_4.filter", "basic", "eps", test_budget={"eps_g": "1"}, bench_budget={"eps_g": "1e5"},
               lineup=Lineup(4, "basic (RRUV16 Thm 3.4)", lambda eps_g, delta_g: {"eps_g": eps_g})),
    FilterSpec("rruv16.thm5_1", "advanced", "eps", test_budget=_EPS, bench_budget=_EPS_BENCH,
               lineup=Lineup(1, "RRUV16 Thm 5.1", lambda eps_g, delta_g: {"eps_g": eps_g, "delta_g": delta_g})),
    FilterSpec("rruv16.thm5_1.as_derived", "advanced", "eps", test_budget=_EPS, bench_budget=_EPS_BENCH),
    FilterSpec("rruv16.lemma3_3.filter.thm5_1", "advanced", "eps+delta",
               test_budget={**_EPS, "delta_dprime": "1e-6"}, bench_budget={**_EPS_BENCH, "delta_dprime": "1e-3"}),
    FilterSpec("rruv16.lemma3_3.filter.thm3_4", "basic", "eps+delta",
               test_budget={"eps_g": "1", "delta_dprime": "1e-6"}, bench_budget={"eps_g": "1e5", "delta_dprime": "1e-3"}),
    # approximate zCDP (WRRW23)
    FilterSpec("wrrw23.thm1", "approx-zcdp", "rho+delta", test_budget={"B": "1", "delta_g": "1e-6"},
               bench_budget={"B": "1e6", "delta_g": "1e-3"}, eps_as_zcdp="WRRW23 Lemma 1"),
    FilterSpec("wrrw23.thm2", "approx-zcdp", "eps+delta",
               test_budget={"eps_g": "1", "delta_prime": "1e-6", "delta_dprime": "1e-6"},
               bench_budget={"eps_g": "1000", "delta_prime": "1e-6", "delta_dprime": "1e-3"},
               lineup=Lineup(2, "WRRW23 Thm 2", lambda eps_g, delta_g: {"eps_g": eps_g, "delta_prime": delta_g,
                                                                          "delta_dprime": "0"})),
    FilterSpec("wrrw23.thm1.cks20", "approx-zcdp", "eps+delta",
               builder=_b_from_conversion("wrrw23.thm1.cks20", "delta_prime", ("eps_g", "delta_prime", "delta_dprime")),
               test_budget={"eps_g": "1", "delta_prime": "1e-6", "delta_dprime": "1e-6"},
               bench_budget={"eps_g": "1000", "delta_prime": "1e-6", "delta_dprime": "1e-3"},
               conversion_delta="delta_prime"),
    # Gaussian DP: rounds are rho = mu^2/2
    FilterSpec("st22.filter", "gdp", "rho", builder=_gdp_filter, state_class=GDPFilter, tested_by=_OWN,
               bench_budget={"eps_g": "1e5", "delta_g": "1e-6"}),
    FilterSpec("kth23.individual_filter", "gdp", "rho", builder=_individual_gdp_filter, state_class=GDPFilter,
               tested_by=_OWN_IND, bench_budget={"eps_g": "1e5", "delta_g": "1e-6"}),  # one individual's filter
    # the corrected lifts of RRUV16 Lemma 3.3
    FilterSpec("rruv16.lemma3_3.filter.thm5_1.corrected", "lift", "eps+delta",
               test_budget={**_EPS, "delta_dprime": "1e-6"}, bench_budget={**_EPS_BENCH, "delta_dprime": "1e-3"}),
    FilterSpec("rruv16.lemma3_3.filter.thm3_4.corrected", "lift", "eps+delta",
               test_budget={"eps_g": "1", "delta_dprime": "1e-6"}, bench_budget={"eps_g": "1e5", "delta_dprime": "1e-3"}),
    # Renyi with the exact RR curve (pure rounds charged D_alpha(RR_eps)), optimal-conversion budgets, several orders
    FilterSpec("fz21.thm4_3.rr", "renyi", "eps", builder=_rr_filter, state_class=RenyiRRFilter, tested_by=_OWN,
               bench_budget=_RR_BENCH),
    *(FilterSpec(fid, "renyi" if fid != "fz21.thm4_7.optimal" else "zcdp",
                 "rho" if fid == "fz21.thm4_3.optimal" else "eps", builder=_optimal_filter(fid, cls),
                 state_class=cls, tested_by=_SLOW)
      for fid, cls in OPTIMAL_IDS.items()),
    FilterSpec("lec21.multi_order", "multi-order", "eps", builder=_multi_order, state_class=RenyiRRFilter,
               tested_by=_OWN, bench_budget=_MULTI_BENCH),
    FilterSpec("lec21.multi_order.cks20", "multi-order", "eps", builder=_multi_order_cks20,
               state_class=RenyiRRFilter, tested_by=_OWN_LIFT, bench_budget=_MULTI_BENCH),
    FilterSpec("kov15.lift", "lift", "eps+delta", builder=_lift, tested_by=_OWN_LIFT),
):
    register_filter(_fs)
