"""FZ21 -- Feldman, Zrnic, "Individual Privacy Accounting via a Renyi Filter" (NeurIPS 2021).

Seed: ``004_8eb651b0fc92abd6.txt`` (text with LaTeX).  Numbering follows the seed: Theorem 3.1 (adaptive
composition with sum rho_t <= B a.s.), Theorem 4.3 (Renyi filter), Remark 4.4, Theorem 4.5 (Algorithm 3),
Theorem 4.7 (DP filter), Proposition 5.2 (Algorithm 5), Corollary 5.3 (Algorithm 6), Example 2.7.
"""

from __future__ import annotations

import sympy as sp

from .core import Kind, Source, SpecEntry, register, sym

SEED = "004_8eb651b0fc92abd6.txt"
PAPER = "FZ21"

alpha, rho, delta, B, eps, k = sym("alpha"), sym("rho"), sym("delta"), sym("B"), sym("eps"), sym("k")
eps_g, delta_g, Delta, m, norm, sigma = sym("eps_g"), sym("delta_g"), sym("Delta"), sym("m"), sym("norm"), sym("sigma")
R, V = sym("R"), sym("V")
Lg = sp.log(1 / delta_g)


def src(where: str) -> Source:
    return Source(PAPER, where, SEED)


register(SpecEntry(
    id="fz21.fact2_4", title="(alpha, rho)-RDP => (rho + log(1/delta)/(alpha - 1), delta)-DP", kind=Kind.CONVERSION,
    source=src("Fact 2.4 (Mironov 2017)"), params=("alpha", "rho", "delta"),
    expr=rho + sp.log(1 / delta) / (alpha - 1), domain=(alpha > 1, rho >= 0, delta > 0, delta < 1),
    monotone={"rho": +1, "delta": -1}, same_as=("conversions.mironov",),
    notes="The seed states it for delta in (0, 1) and alpha > 1 implicitly (alpha - 1 in a denominator)."))

_renyi_note = ("CONT iff sum_{t<=k} rho_t <= B (the sum including the round about to run); the adaptive composition "
               "stopped by it is (alpha, B)-RDP.  Over several orders a filter may only continue while every order is "
               "within its budget (the intersection of valid filters).")
register(SpecEntry(
    id="fz21.thm4_3", title="Renyi privacy filter at one order alpha", kind=Kind.FILTER,
    source=src("Theorem 4.3 (with Theorem 3.1 for fixed-length composition)"), params=("alpha", "B"),
    aggregates=("R",), expr=R, halt=R > B, domain=(alpha >= 1, B >= 0), monotone={"R": +1}, notes=_renyi_note))
register(SpecEntry(
    id="fz21.thm3_1", title="adaptive RDP composition with sum rho_t <= B almost surely", kind=Kind.FILTER,
    source=src("Theorem 3.1 / Theorem 1.1"), params=("alpha", "B"), aggregates=("R",), expr=R, halt=R > B,
    domain=(alpha >= 1, B >= 0), same_as=("fz21.thm4_3",),
    notes="Stated for a fixed number k of rounds with sum rho_t <= B a.s.; Theorem 4.3 extends it to a random "
          "stopping time (the filter)."))
register(SpecEntry(
    id="fz21.remark4_4", title="zCDP filter: CONT iff sum kappa_t <= kappa", kind=Kind.FILTER,
    source=src("Remark 4.4"), params=("B",), aggregates=("R",), expr=R, halt=R > B, domain=(B >= 0,),
    monotone={"R": +1}, same_as=("wrrw23.thm1",),
    notes="The seed writes kappa_t (per-round zCDP) and kappa (budget); here they are the per-round 'rho' sequence "
          "(aggregate R) and B.  WRRW23 Theorem 1 with delta = 0 is the same rule."))
register(SpecEntry(
    id="fz21.thm4_7", title="DP filter through zCDP: CONT iff (1/2) sum eps_t^2 <= B*", kind=Kind.FILTER,
    source=src("Theorem 4.7 (general B*)"), params=("eps_g", "delta_g", "B"), aggregates=("V",), expr=V / 2,
    halt=V / 2 > B, domain=(eps_g > 0, delta_g > 0, delta_g < 1, B >= 0), monotone={"V": +1},
    proof_claims=("fz21.thm4_7.b_star_minimization",),
    notes="B* is the largest B such that B-zCDP implies (eps_g, delta_g)-DP; the caller supplies B = B* from a VALID "
          "zCDP->DP conversion (reference.conversions.b_star with 'bs16' or 'cks20'; the certified lower end, never "
          "overstated).  The Gaussian mechanism's exact curve is not a valid general conversion.  Rounds are pure "
          "eps_t-DP (eps_t-DP => eps_t^2/2-zCDP)."))
_bstar = (-sp.sqrt(Lg) + sp.sqrt(Lg + eps_g))**2
register(SpecEntry(
    id="fz21.thm4_7.bs16", title="DP filter with the closed-form B* (Fact 2.4 optimized over alpha)",
    kind=Kind.FILTER, source=src("Theorem 4.7, the example after the statement"), params=("eps_g", "delta_g"),
    aggregates=("V",), expr=V / 2, halt=V / 2 > _bstar, domain=(eps_g > 0, delta_g > 0, delta_g < 1),
    extra={"b_star": _bstar}, monotone={"V": +1}, same_as=("wrrw23.thm2",),
    proof_claims=("fz21.thm4_7.b_star_minimization", "fz21.thm4_7.equals_wrrw23_thm2"),
    notes="B* = (-sqrt(log(1/delta_g)) + sqrt(log(1/delta_g) + eps_g))^2.  Decides exactly like WRRW23 Theorem 2 "
          "with delta' = delta_g, delta'' = 0 (WRRW23 additionally allows approximate-DP rounds through delta'')."))
register(SpecEntry(
    id="fz21.thm4_7.fixed", title="fixed-parameter consequence: k eps^2/2 + sqrt(2 k log(1/delta)) eps",
    kind=Kind.COMPOSITION, source=src("Theorem 4.7, paragraph after the proof"), params=("eps", "k", "delta"),
    expr=k * eps**2 / 2 + sp.sqrt(2 * k * sp.log(1 / delta)) * eps, domain=(eps >= 0, k >= 1, delta > 0, delta < 1),
    extra={"delta": delta}, monotone={"eps": +1, "k": +1, "delta": -1},
    proof_claims=("fz21.thm4_7.fixed_rate",),
    notes="(1/2 k eps^2 + sqrt(2k log(1/delta)) eps, delta)-DP for k eps-DP rounds, 'for all delta > 0' in the seed "
          "(the formula needs delta < 1 for the log to be positive)."))
register(SpecEntry(
    id="fz21.thm4_7.rruv_rate", title="the rate FZ21 says RRUV16 exceeds: k eps (e^eps - 1)/2 + sqrt(2k log(1/delta)) eps",
    kind=Kind.COMPOSITION, source=src("Theorem 4.7, paragraph after the proof (claim about Rogers et al. [28])"),
    params=("eps", "k", "delta"), expr=k * eps * (sp.exp(eps) - 1) / 2 + sp.sqrt(2 * k * sp.log(1 / delta)) * eps,
    domain=(eps >= 0, k >= 1, delta > 0, delta < 1), proof_claims=("fz21.thm4_7.rruv_rate_claim",),
    notes="'their rate is greater than (1/2 k eps (e^eps - 1) + sqrt(2k log(1/delta)) eps, delta) by a significant "
          "constant factor'."))
register(SpecEntry(
    id="fz21.prop5_2", title="Renyi privacy odometer (Algorithm 5): (m + 1) Delta", kind=Kind.ODOMETER,
    source=src("Proposition 5.2 / Algorithm 5"), params=("Delta", "m"), expr=(m + 1) * Delta,
    domain=(Delta > 0, m >= 0),
    notes="m = number of completed restarts: a Delta-budget Renyi filter is restarted (at the round that made it "
          "HALT) each time it halts; O_t = (m + 1) Delta bounds the order-alpha Renyi divergence at time t.  Needs "
          "rho_j <= Delta for every round.  Not a function of a single aggregate: reference.accountants runs the "
          "algorithm."))
register(SpecEntry(
    id="fz21.example2_7", title="individual RDP of a Gaussian linear query: alpha ||phi(X_i)||^2 / (2 sigma^2)",
    kind=Kind.CONVERSION, source=src("Example 2.7"), params=("alpha", "norm", "sigma"),
    expr=alpha * norm**2 / (2 * sigma**2), domain=(alpha >= 1, norm >= 0, sigma > 0),
    monotone={"norm": +1, "sigma": -1}))
register(SpecEntry(
    id="fz21.thm4_5", title="individual privacy filter (Algorithm 3): point i active while sum_t rho_t^(i) <= B",
    kind=Kind.FILTER, source=src("Theorem 4.5 / Algorithm 3"), params=("alpha", "B"), aggregates=("R",), expr=R,
    halt=R > B, domain=(alpha >= 1, B >= 0), same_as=("fz21.thm4_3",),
    notes="Applied per individual: R is that individual's sum of rho_t^(i) including the candidate round; a point "
          "whose next individual cost would exceed B is dropped from the active set (reference.individual)."))
register(SpecEntry(
    id="fz21.cor5_3", title="individual Renyi odometer (Algorithm 6): (m_i + 1) Delta", kind=Kind.ODOMETER,
    source=src("Corollary 5.3 / Algorithm 6"), params=("Delta", "m"), expr=(m + 1) * Delta,
    domain=(Delta > 0, m >= 0), same_as=("fz21.prop5_2",),
    notes="Algorithm 5 run separately on each individual's rho_t^(i) (needs rho_j^(i) <= Delta)."))
