"""Filters built on the seeds' results and later literature (GDP, the exact RR curve, optimal budgets, several orders,
lifts), written once like the seeds' bounds.

* ``st22.filter`` -- Smith, Thakurta: the Gaussian-DP filter (continue while sum mu_t^2 <= mu_g^2).
* ``conversions.rr.rdp`` -- the tight Renyi curve of a pure eps-DP round (randomized response).
* ``fz21.thm4_3.rr`` -- FZ21's Renyi filter at one order fed with that curve, budget from the CKS20 RDP conversion.
* ``kth23.individual_filter`` -- Koskela, Tobaben, Honkela: the individual (per-person) GDP filter, next to FZ21's
  individual Renyi filter (``fz21.thm4_5``).
* ``lec21.multi_order`` -- a multi-order Renyi filter (Lecuyer's construction) with the delta split proved in
  proofs_check (``lec21.multi_order.union_bound``).

Why no "natural" f-DP / PLD filter is offered (survey of arXiv:2602.15815 and arXiv:2602.06756):
see the notes of ``st22.filter``.
"""

from __future__ import annotations

import sympy as sp

from . import conversions, rruv16  # noqa: F401  (registered first: the corrected lifts derive from rruv16's)
from .core import Kind, Source, SpecEntry, register, sym
from .rdp_conversions import rdp_optimal_r_max

eps_g, delta_g, B, R, alpha, eps = sym("eps_g"), sym("delta_g"), sym("B"), sym("R"), sym("alpha"), sym("eps")

ST22 = ("Smith, Thakurta, 'Fully Adaptive Composition for Gaussian Differential Privacy', arXiv:2210.17520 (first "
        "posted 31 Oct 2022; read: the abstract and the opening of the ar5iv rendering)")
DRS19 = ("Dong, Roth, Su, 'Gaussian Differential Privacy', J. R. Stat. Soc. B 84(1):3-37, 2022 (arXiv:1905.02383)")
MIR17 = "Mironov, 'Renyi Differential Privacy', IEEE CSF 2017, pp. 263-275 (arXiv:1702.07476)"
KOV15 = ("Kairouz, Oh, Viswanath, 'The Composition Theorem for Differential Privacy', ICML 2015 / IEEE TIT 63(6), "
         "2017 (arXiv:1311.0776)")
LEC21 = ("Lecuyer, 'Practical Privacy Filters and Odometers with Renyi Differential Privacy and Applications to "
         "Differentially Private Deep Learning', arXiv:2103.01379")
TRKH26 = ("Tran, Raisa, Koskela, Honkela, 'f-Differential Privacy Filters: Validity and Approximate Solutions', "
          "arXiv:2602.06756 (v1 6 Feb 2026, v2 12 May 2026)")
RHLMTL26 = ("Regehr, Hu, Leeman, Manurangsi, Tholoniat, Lecuyer, 'Privacy Filters are Captured by Residues: A "
            "Characterization of Free Natural Filters and the Cost of Adaptivity', arXiv:2602.15815 (v1 17 Feb 2026, "
            "v2 16 Apr 2026)")

_SURVEY = (
    "Later work, surveyed (abstracts read through the search tool, full texts not "
    "available here).  (a) " + RHLMTL26 + ": residue filters unify existing filters; a 'GDP residue filter' strictly "
    "improves on the naive GDP filter (this entry); natural filters (accounting the whole privacy profile of every "
    "query) are NOT free in general -- only families of mechanisms that are totally ordered under composition admit "
    "free natural filters for an arbitrary budget; the natural approximate-DP filter can fail under an adaptive "
    "adversary, by at most poly-logarithmic factors.  (b) " + TRKH26 + ": the natural f-DP filter (compose the "
    "trade-off curves along each path, stop when the target curve is crossed) is invalid in general (necessary and "
    "sufficient conditions given); a fully adaptive CLT and an approximate GDP filter for subsampled Gaussians.  What "
    "dpbounds states exactly: the GDP family is totally ordered under composition (mu's add in quadrature), which is "
    "why its natural filter is valid and is this entry.  What it does not offer, and why: a natural PLD / f-DP / "
    "(eps, delta)-profile filter -- invalid in general by (a) and (b), since the mixture over adaptively realized "
    "sequences of curves need not be dominated by any one sequence's composition, and a family of per-round "
    "profiles is in general not totally ordered under composition (the condition (a) characterizes); the "
    "CLT-based approximate GDP filter of (b) -- approximate, not a bound (rule 1); the GDP residue filter of (a) -- its exact statement could not be read here, so it cannot be "
    "transcribed with its theorem number.  Pure-DP rounds are accounted through RDP (fz21.thm4_3.rr, "
    "lec21.multi_order) or zCDP filters.")

#: the GDP filter's rule, shared by st22.filter and (applied per person) kth23.individual_filter: rounds recorded as
#: rho_t = mu_t^2/2, HALT iff R = sum rho_t > B = mu_g^2/2; the example's B is below B*_gauss(1, 1e-6) = 0.0280...
#: (a budget the theorem certifies)
_GDP_RULE = dict(
    params=("eps_g", "delta_g", "B"), aggregates=("R",), expr=R, halt=R > B,
    domain=(eps_g > 0, delta_g > 0, delta_g < 1, B >= 0), monotone={"R": +1}, extra={"mu_g": sp.sqrt(2 * B)},
    example={"B": "0.02", "R": "0.01"})

register(SpecEntry(
    id="st22.filter", title="Gaussian-DP filter: CONT iff sum mu_t^2 <= mu_g^2 (as R = sum mu_t^2/2 <= B)",
    kind=Kind.FILTER, source=Source("ST22", "main theorem (the GDP filter; Definition of the filter with "
                                    "sum_t mu_t^2 <= mu^2)",
                                    theorem="main theorem"),
    **_GDP_RULE,
    proof_claims=("st22.filter.budget_is_gaussian_curve", "st22.filter.matches_fixed_optimum",
                  "st22.filter.two_round_adaptive"),
    notes="Rounds are mu_t-GDP (DRS19 Definition 2.6; e.g. a Gaussian mechanism with sensitivity/sigma = mu_t), "
          "chosen adaptively from the past outputs.  Smith-Thakurta: the interaction stopped before any round that "
          "would make sum mu_t^2 exceed mu_g^2 is mu_g-GDP -- the same parameter as non-adaptive composition (DRS19 "
          "Corollary 3.3: mu_1..mu_k-GDP compose to sqrt(sum mu_t^2)-GDP).  Bookkeeping: each round is recorded as "
          "rho_t = mu_t^2/2 (so the statistic R = sum mu_t^2/2 and B = mu_g^2/2; extra mu_g = sqrt(2 B)); for "
          "rational mu_t the sums are exact.  Budget: mu_g-GDP is (eps, delta_gauss(eps; mu_g))-DP for every eps "
          "(DRS19 Corollary 2.13; conversions.gauss.delta with rho = mu_g^2/2), so the largest admissible B is "
          "B*_gauss(eps_g, delta_g) = sup{rho : conversions.gauss.delta(rho, eps_g) <= delta_g}; the accountant "
          "uses its certified lower end (never overstated).  This is the one case where the Gaussian curve IS a "
          "valid conversion: the interaction itself is GDP, not merely zCDP.  Theorem number: the stored abstract "
          "(search tool, arcxiv/tomesphere/aitopics copies of arXiv:2210.17520) confirms the statement ('a filter "
          "for GDP with the same parameters as for nonadaptive composition'); the theorem's number in the paper was "
          "not checked against a copy.  " + _SURVEY))

# ------------------------------------------------------------------------------------------ individual GDP filter
register(SpecEntry(
    id="kth23.individual_filter",
    title="individual GDP filter: person i takes part in round t iff sum_s mu_{i,s}^2 <= mu_g^2 over its own "
          "rounds (as R = sum mu_{i,s}^2/2 <= B)",
    kind=Kind.FILTER,
    source=Source("KTH23", "the individual GDP filter theorem (theorem number not verified; the GDP analogue of "
                  "FZ21 Theorem 4.5 / Algorithm 3)", theorem="the individual GDP filter theorem"),
    **_GDP_RULE,
    proof_claims=("kth23.individual_filter.reduction", "kth23.individual_filter.adaptive_quadrature"),
    notes="Applied per person, like FZ21's individual Renyi filter (fz21.thm4_5): in round t person i's "
          "contribution is mu_{i,t}-GDP with respect to i (e.g. a Gaussian mechanism whose output moves by i's "
          "clipped contribution g_t(x_i), mu_{i,t} = ||g_t(x_i)||/sigma_t; mu_{i,t} may depend on x_i and on every "
          "earlier output).  R is i's sum of rho_{i,s} = mu_{i,s}^2/2 over the rounds in which i took part, plus the "
          "candidate round; HALT means i is left out of round t (its contribution is not computed, mu_{i,t} counts "
          "0) and may rejoin later if a smaller mu fits -- the filter is asked again every round.  Guarantee "
          "(individual GDP): for every dataset X and every element x_i of it, the outputs on X and on X without x_i "
          "are mu_g-GDP-indistinguishable, mu_g = sqrt(2 B) (extra mu_g), hence (eps, delta_gauss(eps; mu_g)) for "
          "every eps (DRS19 Corollary 2.13).  Budget: as st22.filter, the largest B with conversions.gauss.delta(B, "
          "eps_g) <= delta_g (certified lower end; dpbounds.accounting.individual.IndividualGDPFilter).  Why it "
          "holds (proofs_check kth23.individual_filter.reduction): seen from one pair (X, X without x_i), the run is "
          "an adaptive composition whose round t is mu_{i,t}-GDP when i takes part and 0-GDP (the same output law "
          "on both datasets) when i is left out; the participation decision is a function of the earlier outputs "
          "and of x_i, which is fixed for this pair, so it is a predictable choice and the realized sum of squares "
          "never exceeds mu_g^2 -- the Smith-Thakurta theorem (st22.filter) for an analyst that never needs to be "
          "halted.  Tight: a person whose contributions have the same mu in every round is allowed exactly the "
          "rounds non-adaptive composition allows, and the Gaussian mechanism attains the curve.  The paper's "
          "theorem number and wording could not be read here (only the abstract and the opening of the "
          "introduction): the statement above is the one proofs_check checks, not a transcription."))

# ------------------------------------------------------------------------------------------ Lemma 3.3, corrected
#: the as-stated lifts (RRUV16 Lemma 3.3 on Lemma 2.3's refuted constant) and their corrected twins
LIFT_IDS = ("rruv16.lemma3_3.filter.thm5_1", "rruv16.lemma3_3.filter.thm3_4", "rruv16.lemma3_3.odometer.thm3_4",
            "rruv16.lemma3_3.odometer.lemma6_4", "rruv16.lemma3_3.odometer.thm6_5")


def _corrected(stated: SpecEntry) -> SpecEntry:
    """The lift with LIFT (2 delta/(eps e^eps)) replaced by LIFTC (the conversion proved in proofs_check)."""
    import dataclasses
    swap = {sym("LIFT"): sym("LIFTC")}
    return dataclasses.replace(
        stated, id=stated.id + ".corrected", title=stated.title + ", with the corrected pointwise conversion",
        source=Source(stated.source.paper, stated.source.where + ", with Lemma 2.3's second part replaced by the "
                      "conversion proved in proofs_check (rruv16.lemma2_3.corrected_conversion)", stated.source.seed),
        aggregates=tuple("LIFTC" if a == "LIFT" else a for a in stated.aggregates),
        expr=stated.expr.xreplace(swap), halt=None if stated.halt is None else stated.halt.xreplace(swap),
        monotone={("LIFTC" if k == "LIFT" else k): v for k, v in stated.monotone.items()},
        proof_claims=("rruv16.lemma2_3.corrected_conversion",), caveat="", same_as=(stated.id,),
        example={("LIFTC" if k == "LIFT" else k): v for k, v in stated.example.items()},
        notes="Lemma 3.3's lift exactly as RRUV16 states it (" + stated.id + "), except that each round's delta_i is "
              "charged delta_i (1 + e^{-2 eps_i})/(1 - e^{-eps_i}) (aggregate LIFTC) -- the probability, under either "
              "draw, that an (eps_i, delta_i)-indistinguishable round's privacy loss exceeds 2 eps_i in absolute value, "
              "proved in proofs_check (rruv16.lemma2_3.corrected_conversion) and sharp (the three-point family "
              "approaches it).  Everything else in Lemma 3.3's argument is unchanged; its only use of Lemma 2.3's "
              "second part is this per-round bad-event probability.  Halts (or turns +oo) earlier than the as-stated "
              "lift: the corrected constant exceeds 2 delta/(eps e^eps) for every eps > 0.")


def _register_corrected() -> None:
    from .core import _REGISTRY
    for sid in LIFT_IDS:
        register(_corrected(_REGISTRY[sid]))


_register_corrected()

# ------------------------------------------------------------------------------------------ Renyi, exact curves
# written as log(1 + t)/(alpha - 1), t = (e^{(alpha-1)eps} - 1)(e^{alpha eps} - 1) e^{-(alpha-1)eps}/(1 + e^eps) >= 0:
# the same value as eps + log((1 + e^{-(2alpha-1)eps})/(1 + e^{-eps}))/(alpha - 1) (proofs_check), without its
# cancellation
_rr_rdp = sp.log(1 + (sp.exp((alpha - 1) * eps) - 1) * (sp.exp(alpha * eps) - 1) * sp.exp(-(alpha - 1) * eps)
                 / (1 + sp.exp(eps))) / (alpha - 1)
register(SpecEntry(
    id="conversions.rr.rdp", title="tight Renyi divergence of a pure eps-DP round: D_alpha(RR_eps) = eps + "
    "log((1 + e^{-(2 alpha - 1) eps})/(1 + e^{-eps}))/(alpha - 1)", kind=Kind.CONVERSION,
    source=Source("Mir17", "Section on randomized response (RDP of RR, the table of basic mechanisms); dominance: "
                  "KOV15 (every eps-DP pair is a post-processing of RR_eps)",
                  theorem="Section on randomized response"),
    params=("alpha", "eps"), expr=_rr_rdp, domain=(alpha > 1, eps >= 0), monotone={"eps": +1, "alpha": +1},
    proof_claims=("conversions.rr.rdp.from_definition",),
    notes="Returns the (alpha, rho)-RDP parameter rho of a pure eps-DP round: D_alpha(P||Q) = log(p^alpha q^{1-alpha} "
          "+ q^alpha p^{1-alpha})/(alpha - 1) with p = e^eps/(1 + e^eps), q = 1 - p (symmetric in P, Q).  Tight: "
          "randomized response attains it, and every eps-DP pair of output laws is a post-processing of RR_eps "
          "(KOV15), so by data processing no eps-DP round has a larger Renyi divergence at any order.  Smaller than "
          "the zCDP route alpha eps^2/2 for large eps (it is <= eps) and equal to it to second order as eps -> 0.  The "
          "table's exact numbering in Mironov's paper was not checked against a copy; proofs_check re-derives the "
          "formula from the definition."))

_cks_rdp_B = eps_g - (sp.log(1 / delta_g) + (alpha - 1) * sp.log(1 - 1 / alpha) - sp.log(alpha)) / (alpha - 1)
register(SpecEntry(
    id="fz21.thm4_3.rr", title="Renyi filter at one order fed with the exact RR curve, budget from CKS20",
    kind=Kind.FILTER,
    source=Source("FZ21", "Theorem 4.3 (Renyi filter) with per-round rho_t = D_alpha(RR_eps_t) "
                  "(conversions.rr.rdp) and the CKS20 Proposition 12 RDP->DP conversion", "004_8eb651b0fc92abd6.txt"),
    params=("alpha", "eps_g", "delta_g"), aggregates=("R",), expr=R, halt=R > _cks_rdp_B,
    domain=(alpha > 1, eps_g > 0, delta_g > 0, delta_g < 1), extra={"B": _cks_rdp_B}, monotone={"R": +1},
    proof_claims=("conversions.rr.rdp.from_definition", "fz21.thm4_3.rr.exact_engine"),
    example={"alpha": "8", "R": "0.2"},
    notes="CONT iff sum_t D_alpha(RR_{eps_t}) <= B(alpha) = eps_g - (log(1/delta_g) + (alpha - 1) log(1 - 1/alpha) - "
          "log alpha)/(alpha - 1) (extra B; the round about to run included).  FZ21 Theorem 4.3 makes the stopped "
          "interaction (alpha, B)-RDP; CKS20 Proposition 12 (valid for (alpha, tau)-RDP at one order, the form "
          "conversions.cks20 specializes with tau = alpha rho) then gives (eps_g, delta_g)-DP.  If B(alpha) < 0 the "
          "filter halts at once.  The accountant records each pure round's rho_t as a rational upper bound of "
          "D_alpha(RR_eps_t) (certified arb enclosure, < 2^-120 relative above): a HALT is never turned into a CONT.  "
          "Rounds are pure (delta_t = 0); the order alpha is fixed before the interaction."))

# ------------------------------------------------------------------------------------------ Renyi, optimal conversion
#: B_max = R*(alpha, eps_g, delta_g): the largest order-alpha Renyi budget the optimal single-order conversion
#: (conversions.rdp.optimal, ALCKS20 Lemma 1) turns into (eps_g, delta_g)-DP; the accountant's B is its certified
#: lower end (dpbounds.evaluation.rdp_conversions.r_max_lower), a given B must not exceed it
_r_max = rdp_optimal_r_max(alpha, eps_g, delta_g)
_OPT_RULE = dict(
    params=("alpha", "eps_g", "delta_g", "B"), aggregates=("R",), expr=R, halt=R > B,
    domain=(alpha > 1, eps_g > 0, delta_g > 0, delta_g < 1, B >= 0), monotone={"R": +1},
    proof_claims=("fz21.thm4_3.optimal.stopped_pair", "fz21.thm4_3.optimal.validity"),
    example={"alpha": "22", "eps_g": "1", "delta_g": "0.000001", "B": "0.5", "R": "0.2"})
_OPT_WHY = (
    "Why it is (eps_g, delta_g)-DP (proofs_check fz21.thm4_3.optimal.stopped_pair): FZ21 Theorem 4.3's proof (seed l. "
    "294-306) bounds the STOPPED transcript pair itself, not only a supermartingale: with Q the law of the stopped "
    "transcript a^(T) on one input and P on the other, E_Q[(dP/dQ)^alpha] = E[Loss^(T)] <= e^{(alpha-1) B} by optional "
    "stopping of M_t = Loss^(t) e^{-(alpha-1) sum rho_j} and sum_{j<=T} rho_j <= B, i.e. D_alpha(P||Q) <= B, and the "
    "same with the inputs swapped (rho_t bounds both directions).  The optimal conversion holds for EVERY pair with "
    "D_alpha(P||Q) <= B, so E_{e^eps_g}(P||Q) <= delta*(alpha, B, e^eps_g) <= delta_g for B <= R*, in each direction: "
    "(eps_g, delta_g)-DP.  CKS20's budget eps_g - (log(1/delta_g) + (alpha-1) log(1-1/alpha) - log alpha)/(alpha-1) "
    "is one dual certificate of the same problem, so R* >= it (conversions.rdp.ordering): never fewer rounds.  The "
    "decision compares the exact sum of rational charges (each >= the round's Renyi divergence) with B (a rational "
    "<= R*, certified by a Lagrange-dual bound on delta*): a HALT of the exact rule is never a CONT.  B is computed "
    "once per (alpha, eps_g, delta_g) (seconds) and cached.  The order alpha is fixed before the interaction.")
register(SpecEntry(
    id="fz21.thm4_3.optimal", title="Renyi filter at one order, budget from the optimal single-order RDP -> DP "
    "conversion: CONT iff sum rho_t <= B <= R*(alpha, eps_g, delta_g)", kind=Kind.FILTER,
    source=Source("FZ21", "Theorem 4.3 (Renyi filter; the stopped transcript's D_alpha in both directions, l. 288-306) "
                  "with the budget from ALCKS20 Lemma 1 (conversions.rdp.optimal, arXiv:2001.05990v1)",
                  "004_8eb651b0fc92abd6.txt", theorem="Theorem 4.3"),
    extra={"B_max": _r_max}, **_OPT_RULE,
    notes="Rounds report rho_t >= D_alpha of the round in both directions given the past (FZ21 eq. (1)), e.g. a "
          "Gaussian mechanism's alpha Delta^2/(2 sigma^2).  " + _OPT_WHY))
register(SpecEntry(
    id="fz21.thm4_3.rr.optimal", title="Renyi filter at one order fed with the exact RR curve, budget from the "
    "optimal single-order RDP -> DP conversion", kind=Kind.FILTER,
    source=Source("FZ21", "Theorem 4.3 (Renyi filter) with per-round rho_t = D_alpha(RR_eps_t) (conversions.rr.rdp) "
                  "and the budget from ALCKS20 Lemma 1 (conversions.rdp.optimal, arXiv:2001.05990v1)",
                  "004_8eb651b0fc92abd6.txt", theorem="Theorem 4.3"),
    extra={"B_max": _r_max}, **_OPT_RULE, same_as=("fz21.thm4_3.optimal",),
    notes="fz21.thm4_3.rr with CKS20's budget replaced by R*: pure eps_t-DP rounds charged D_alpha(RR_eps_t) rounded "
          "up (every eps-DP pair is a post-processing of RR_eps, KOV15, so this bounds both directions).  "
          "Measured gain: small where CKS20 is already nearly optimal.  At (eps_g, delta_g) = (1, 1e-6), eps_t = 0.01 "
          "the best order (alpha ~ 22) allows 490 rounds, as with CKS20's budget (R*(22) = 0.53583168 exceeds "
          "CKS20's 0.53583106 by 1.2e-6 relative; 0.15% at alpha = 16), the fixed-sequence optimum being 562.  The "
          "gain is large at small orders and large delta_g: R*(4, 1, 1e-2) = 0.3408 vs CKS20's 0.2147; R*(2, 0.5, "
          "0.1) = 0.262 where CKS20's budget is negative (no round at all).  " + _OPT_WHY))
register(SpecEntry(
    id="fz21.thm4_7.optimal", title="zCDP filter (FZ21 Theorem 4.7) with B* = R*(alpha, eps_g, delta_g)/alpha from "
    "the optimal single-order conversion at one order alpha", kind=Kind.FILTER,
    source=Source("FZ21", "Theorem 4.7 (DP filter through zCDP, l. 422-432) with B* from ALCKS20 Lemma 1 at the order "
                  "alpha (conversions.rdp.optimal, arXiv:2001.05990v1)", "004_8eb651b0fc92abd6.txt",
                  theorem="Theorem 4.7"),
    params=("alpha", "eps_g", "delta_g", "B"), aggregates=("R",), expr=R, halt=R > B,
    domain=(alpha > 1, eps_g > 0, delta_g > 0, delta_g < 1, B >= 0), monotone={"R": +1},
    extra={"B_max": _r_max / alpha},
    proof_claims=("fz21.thm4_3.optimal.stopped_pair", "fz21.thm4_3.optimal.validity"),
    example={"alpha": "22", "eps_g": "1", "delta_g": "0.000001", "B": "0.02", "R": "0.01"},
    notes="R = sum of the rounds' zCDP parameters rho_t (a Gaussian round: Delta^2/(2 sigma^2); a pure eps_t-DP "
          "round: eps_t^2/2, BS16 Proposition 3.3, as FZ21 Theorem 4.7's proof).  FZ21 Remark 4.4: the rule sum "
          "rho_t <= B makes the stopped interaction (alpha', alpha' B)-RDP at every order alpha', in particular at "
          "the fixed order alpha, where alpha B <= R*(alpha, eps_g, delta_g) gives (eps_g, delta_g)-DP by the "
          "optimal conversion (the argument of fz21.thm4_3.optimal at budget alpha B).  B* of Theorem 4.7 is the "
          "largest B for which B-zCDP implies (eps_g, delta_g)-DP; this entry uses one order only, so its B is a "
          "valid (not necessarily the largest) B*: never above what every order together would allow.  The "
          "accountant's B is the certified lower end of R*/alpha (seconds to compute, cached).  Choosing alpha "
          "after seeing the data is not allowed; the order is a parameter fixed up front.  Measured: pure eps_t = "
          "0.01 rounds at (1, 1e-6) and alpha = 22 (the best order): 487 rounds, as fz21.thm4_7 with CKS20's B* "
          "(487); R*(alpha)/alpha at alpha = 22 is 0.0243598 (the ratio to 5e-5 is 487.12).  " + _OPT_WHY))

_k = sym("k")
register(SpecEntry(
    id="lec21.multi_order", title="multi-order Renyi filter: CONT iff SOME order alpha in a fixed set of k orders "
    "has sum_t rho_t(alpha) <= eps_g - log(k/delta_g)/(alpha - 1)", kind=Kind.FILTER,
    source=Source("LEC21", "multi-order Renyi filter (the construction of Section 3; delta split across orders proved "
                  "here, proofs_check lec21.multi_order.union_bound)"),
    params=("alpha", "eps_g", "delta_g", "k"), aggregates=("R",), expr=R,
    halt=R > eps_g - sp.log(_k / delta_g) / (alpha - 1),
    domain=(alpha > 1, eps_g > 0, delta_g > 0, delta_g < 1, _k >= 1),
    extra={"B": eps_g - sp.log(_k / delta_g) / (alpha - 1)},
    monotone={"R": +1}, proof_claims=("lec21.multi_order.union_bound",), example={"alpha": "8", "R": "0.1", "k": "4"},
    notes="The spec states ONE order's component (R = that order's spend, B its budget, k the number of orders): the "
          "multi-order filter (dpbounds.accounting.filters.MultiOrderUnionFilter, make_filter(..., orders=...)) "
          "CONTinues iff at least one of its k components would CONTinue.  Validity (proved step by step in "
          "proofs_check): for each order, exp((alpha - 1)(L_t - R_t(alpha))) is a nonnegative supermartingale under "
          "either neighbouring input, so by Ville's inequality P[L_T > eps_g and R_T(alpha) <= B(alpha)] <= delta_g/k; "
          "at the stopping time some order is within budget (the last accepted round was accepted by one), so "
          "P[L_T > eps_g] <= k (delta_g/k) = delta_g, and a tail bound on the privacy loss gives (eps_g, delta_g)-DP.  "
          "The split is a union bound over the orders: each order is charged delta_g/k (any weights summing to "
          "delta_g work; equal weights here).  Without the split (every order at delta_g) the proof gives only "
          "k delta_g.  The conversion used per order is the tail bound (Mironov).  The union does NOT need tail "
          "events: partitioning the hockey-stick integrand by the "
          "first order that fits at the stopping time allows CKS20's sharper budgets at delta_g/k -- "
          "lec21.multi_order.cks20, proved in lec21.multi_order.cks20.partition, allows more rounds.  dpbounds' MultiOrderRenyiFilter (accountants) is the "
          "INTERSECTION (CONT only while every order fits): valid at every order without any split, and never "
          "continuing longer than its best single order."))

# ------------------------------------------------------------------------------------------ tighter filters
#: log C_alpha, C_alpha = (1/alpha)(1 - 1/alpha)^(alpha - 1) = max_{x} (1 - e^{-x})_+ e^{-(alpha - 1) x} (the constant of
#: the pointwise bound behind CKS20 Proposition 12; proofs_check lec21.multi_order.cks20.partition)
_log_C = (alpha - 1) * sp.log(1 - 1 / alpha) - sp.log(alpha)
_B_cks_k = eps_g - (sp.log(_k / delta_g) + _log_C) / (alpha - 1)
register(SpecEntry(
    id="lec21.multi_order.cks20", title="multi-order Renyi filter with CKS20 per-order budgets at delta_g/k: CONT iff "
    "SOME order alpha of k has sum_t rho_t(alpha) <= eps_g - (log(k/delta_g) + log C_alpha)/(alpha - 1)",
    kind=Kind.FILTER,
    source=Source("LEC21", "multi-order Renyi filter (Section 3), each order's budget CKS20 Prop. 12 at delta_g/k; "
                  "validity proved here"),
    params=("alpha", "eps_g", "delta_g", "k"), aggregates=("R",), expr=R, halt=R > _B_cks_k,
    domain=(alpha > 1, eps_g > 0, delta_g > 0, delta_g < 1, _k >= 1), extra={"B": _B_cks_k}, monotone={"R": +1},
    proof_claims=("lec21.multi_order.cks20.partition", "lec21.multi_order.cks20.exact_engine"),
    same_as=("lec21.multi_order",), example={"alpha": "8", "R": "0.1", "k": "4"},
    notes="As lec21.multi_order, ONE order's component (R = that order's spend, B its budget, extra B; k = the "
          "number of orders fixed before the interaction); the filter (make_filter('lec21.multi_order.cks20', "
          "eps_g=..., delta_g=..., orders='2,4,...')) CONTinues iff at least one component would.  Budget: "
          "B(alpha) = eps_g - (log(k/delta_g) + (alpha - 1) log(1 - 1/alpha) - log alpha)/(alpha - 1), i.e. CKS20 "
          "Proposition 12 (arXiv:2004.00010v4) at delta_g/k -- larger than the tail-bound budget eps_g - "
          "log(k/delta_g)/(alpha - 1) of lec21.multi_order by -log(C_alpha)/(alpha - 1) > 0.  Validity (proved in "
          "proofs_check, lec21.multi_order.cks20.partition): delta(eps_g) = E_P[(1 - e^{eps_g - L_T})_+] at the "
          "stopping time T; partition the outcomes by the FIRST order J whose spend fits at T (some order fits: the "
          "last accepted round was accepted by one); on {J = j}, (1 - e^{-x})_+ <= C_alpha e^{(alpha - 1) x} at x = "
          "L_T - eps_g and R_T(alpha_j) <= B(alpha_j) give the integrand <= C_j e^{(alpha_j - 1)(B_j - eps_g)} "
          "M_T(alpha_j) with M_t(alpha) = exp((alpha - 1)(L_t - R_t(alpha))); E_P[M_T(alpha)] <= 1 by optional "
          "stopping of that nonnegative supermartingale; summing the k pieces, each <= delta_g/k, gives delta_g.  "
          "The note of lec21.multi_order ('the union needs tail events') is what this corrects: the union is taken "
          "over a partition of the hockey-stick integrand, not over tail events.  At (1, 1e-6) on orders "
          "2, 4, ..., 64: 406 rounds of pure eps = 0.01 (315 with the tail-bound budgets)."))

_Dsum, _dpp = sym("D"), sym("delta_dprime")
register(SpecEntry(
    id="kov15.lift", title="(eps_i, delta_i) rounds through a pure-round filter: HALT when sum delta_i would exceed "
    "delta'' or the pure filter (at delta' = delta_g - delta'') halts on the eps_i",
    kind=Kind.FILTER,
    source=Source("KOV15", "Theorem 2.2 (dominance by (eps, delta)-RR; adaptive form WRRW23 Lemma 11); the lift "
                  "proved here", theorem="Theorem 2.2"),
    params=("eps_g", "delta_g", "delta_dprime"), aggregates=("D",), expr=_Dsum, halt=_Dsum > _dpp,
    domain=(eps_g > 0, delta_g > 0, delta_g < 1, _dpp >= 0, _dpp < delta_g),
    extra={"delta_prime": delta_g - _dpp}, monotone={"D": +1},
    proof_claims=("kov15.lift.coupling", "kov15.lift.exact_engine"),
    example={"delta_g": "0.001", "delta_dprime": "0.0005", "D": "0.0001"},
    notes="The spec states the delta component (D = sum delta_i with the candidate round, HALT iff D > delta''); "
          "the filter (make_filter('kov15.lift', eps_g=..., delta_g=..., delta_dprime=..., base=<pure filter id>, "
          "<the base's own parameters>)) also runs the base filter, built at (eps_g, delta' = delta_g - delta''), on "
          "the rounds' eps_i, and CONTinues iff both do (a round refused by either is not charged to either).  "
          "Bases: fz21.thm4_3.rr (alpha=...), lec21.multi_order / lec21.multi_order.cks20 (orders=...), "
          "fz21.thm4_7 (B defaults to B*(eps_g, delta')), rruv16.thm5_1, rruv16.thm3_4.filter (the default: basic composition, sum eps_i <= eps_g).  Validity (proofs_check kov15.lift.coupling): each (eps_i, "
          "delta_i)-DP round, given the past, is a post-processing of (eps_i, delta_i)-randomized response (KOV15 "
          "Theorem 2.2; WRRW23 Lemma 11 for adaptively chosen parameters), i.e. of a coin C_i ~ Bernoulli(delta_i) "
          "that reveals the input and otherwise pure RR_{eps_i}; on the event N that no coin fires the transcript "
          "is that of the all-pure interaction, whose law has the same weight prod_i (1 - delta_i) (a function of "
          "the transcript) under both inputs, so P(E) - e^eps_g Q(E) <= [pure interaction's delta, <= delta' since "
          "the base is valid for pure rounds and halting also on D only stops earlier] + P(N^c), and P(N^c) <= "
          "E[sum of the delta_i of the rounds run] <= delta''.  At (1, 1e-6) with delta'' = 5e-8 and base "
          "fz21.thm4_3.rr at alpha = 22: 488 rounds of (0.01, 1e-10) (WRRW23 Theorem 2: 349)."))

# ------------------------------------------------------------------------------------------ heterogeneous optimum
_eps2, _k2, _l2 = sym("eps2"), sym("k2"), sym("l2")
_lk = sym("l")
_w1 = sp.binomial(_k, _lk) * sp.binomial(_k2, _l2) / ((1 + sp.exp(eps))**_k * (1 + sp.exp(_eps2))**_k2)
_Ph = _w1 * sp.exp((_k - _lk) * eps + (_k2 - _l2) * _eps2)
_Qh = _w1 * sp.exp(_lk * eps + _l2 * _eps2)
register(SpecEntry(
    id="conversions.mv16.exact", title="exact delta(eps_g) of composing k rounds of RR(eps) and k2 rounds of RR(eps2) "
    "(the optimal composition of a fixed heterogeneous pure-DP sequence with two distinct eps)",
    kind=Kind.CONVERSION,
    source=Source("MV16", "the optimal composition theorem (Section 1; number not checked), pure case; RR "
                  "dominance: KOV15 Theorem 2.2", theorem="optimal composition theorem"),
    params=("eps", "k", "eps2", "k2", "eps_g"),
    expr=sp.Sum(sp.Sum(sp.Max(0, _Ph - sp.exp(eps_g) * _Qh), (_l2, 0, _k2)), (_lk, 0, _k)),
    domain=(eps >= 0, _k >= 1, _eps2 >= 0, _k2 >= 0, eps_g >= 0),
    monotone={"k": +1, "k2": +1, "eps": +1, "eps2": +1, "eps_g": -1},
    proof_claims=("conversions.mv16.exact.brute_force",),
    same_as=("conversions.kov15.exact",), example={"eps": "0.1", "k": "6", "eps2": "0.3", "k2": "4", "eps_g": "1"},
    notes="Returns delta.  Every eps-DP round is a post-processing of RR_eps (KOV15), so the exact privacy curve of a "
          "FIXED sequence eps_1, ..., eps_n of pure rounds is that of RR_eps_1 x ... x RR_eps_n: an outcome sign "
          "pattern S (the rounds whose output 'disagrees') has loss sum_{i not in S} eps_i - sum_{i in S} eps_i, "
          "P = prod e^{eps_i [i not in S]}/(1 + e^eps_i), Q = prod e^{eps_i [i in S]}/(1 + e^eps_i), and delta(eps_g) "
          "= sum_S (P - e^eps_g Q)_+ (Murtagh-Vadhan's optimal composition, pure case; #P-complete in general).  "
          "Grouping the rounds by their value makes it polynomial when the eps take few distinct values: only the "
          "number l_j of 'disagree' outputs per group matters, weight prod_j C(k_j, l_j).  The spec states two "
          "groups (k rounds of eps, k2 of eps2; l, l2 the summation indices); dpbounds.exact.worst_case.delta_rr "
          "evaluates any number of groups (certified, arb) and the tests compare both with brute-force enumeration "
          "of the 2^n sign patterns.  The longest prefix of a stream whose value is <= delta_g is what no valid "
          "filter can exceed on that stream (dpbounds.outputs.compare.rr_optimum_prefix)."))
