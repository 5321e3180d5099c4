"""zCDP -> (eps, delta)-DP conversions and exact worst-case formulas from the literature (not seeds).

Each entry cites the paper and the proposition.  B*(eps_g, delta_g; conv) = sup{rho >= 0 : conv(rho) gives
(eps_g, delta_g)-DP} is solved by dpbounds.accounting.conversions from these entries.  Order of strength, for a fixed
target (eps_g, delta_g): B*_bs16 <= B*_cks20 <= B*_gauss, where only the first two are valid general conversions.
"""

from __future__ import annotations

import sympy as sp

from .core import Kind, Optimize, Source, SpecEntry, register, sym

rho, delta, eps_g, delta_g, alpha, eps, k, l, dhat = (sym(n) for n in
                                                      ("rho", "delta", "eps_g", "delta_g", "alpha", "eps", "k", "l",
                                                       "dhat"))
V, KOV, S = sym("V"), sym("KOV"), sym("S")
L = sp.log(1 / delta)
Lg = sp.log(1 / delta_g)

# The papers' full references (authors, venue, arXiv id and version) are in spec/papers.py.
DIFFPRIVLIB = "diffprivlib (IBM), diffprivlib/accountant.py, BudgetAccountant.total"

_CKS_WHERE_NOTE = ("Numbering: dp_accounting's rdp_privacy_accountant cites 'arXiv:2004.00010 Proposition 12 (in v4)'; "
                   "Steinke's cdp2adp.py points at page 13 of v3.  The RDP form is Proposition 12; the rho-zCDP "
                   "specialization (inf over alpha of the same expression with tau = alpha rho) is, to our best "
                   "recollection, the corollary right after it (Corollary 13) -- not checked against a copy of the "
                   "paper here.")

# ------------------------------------------------------------------------------------------ Bun-Steinke
register(SpecEntry(
    id="conversions.bs16", title="rho-zCDP => (rho + 2 sqrt(rho log(1/delta)), delta)-DP", kind=Kind.CONVERSION,
    source=Source("BS16", "Proposition 1.3"),
    params=("rho", "delta"), expr=rho + 2 * sp.sqrt(rho * L), domain=(rho >= 0, delta > 0, delta < 1),
    extra={"delta": delta}, monotone={"rho": +1, "delta": -1},
    same_as=("wrrw23.lemma1.zcdp_to_dp", "fz21.thm4_7.fixed"),
    proof_claims=("fz21.thm4_7.b_star_minimization",),
    notes="Returns eps.  Equals conversions.mironov (= FZ21 Fact 2.4 at rho-zCDP = (alpha, alpha rho)-RDP) minimized "
          "over alpha > 1: the minimizer is alpha* = 1 + sqrt(log(1/delta)/rho).  BS16 states it 'for all delta > 0'; "
          "for delta >= 1 the statement is vacuous and the log is <= 0, so the domain is 0 < delta < 1.  WRRW23 "
          "Lemma 1 is the delta-approximate version (delta' there)."))
register(SpecEntry(
    id="conversions.bs16.b_star", title="B* for BS16: (sqrt(log(1/delta_g) + eps_g) - sqrt(log(1/delta_g)))^2",
    kind=Kind.CONVERSION, source=Source("BS16", "Proposition 1.3, inverted (as in FZ21 Theorem 4.7's proof)"),
    params=("eps_g", "delta_g"), expr=(sp.sqrt(Lg + eps_g) - sp.sqrt(Lg))**2,
    domain=(eps_g > 0, delta_g > 0, delta_g < 1), monotone={"eps_g": +1, "delta_g": +1},
    same_as=("fz21.thm4_7.bs16",), proof_claims=("fz21.thm4_7.b_star_minimization",),
    notes="Returns rho: the largest rho with rho + 2 sqrt(rho L) <= eps_g, L = log(1/delta_g) (the unique root of the "
          "increasing map rho -> rho + 2 sqrt(rho L)).  FZ21 writes it (-sqrt(L) + sqrt(L + eps_g))^2 (extra b_star "
          "of fz21.thm4_7.bs16)."))
register(SpecEntry(
    id="conversions.bs16.pure_to_zcdp", title="eps-DP => (eps^2/2)-zCDP", kind=Kind.CONVERSION,
    source=Source("BS16", "Proposition 1.4 (formal version: Proposition 3.3, as WRRW23 cites it)"),
    params=("eps",),
    expr=eps**2 / 2, domain=(eps >= 0,), monotone={"eps": +1}, same_as=("wrrw23.lemma1.dp_to_zcdp",),
    notes="Returns rho.  The step FZ21 Theorem 4.7's proof uses to feed pure eps_t-DP rounds to the zCDP filter "
          "(hence the statistic (1/2) sum eps_t^2 = V/2)."))

# ------------------------------------------------------------------------------------------ Mironov
register(SpecEntry(
    id="conversions.mironov", title="rho-zCDP => (alpha rho + log(1/delta)/(alpha - 1), delta)-DP at one alpha",
    kind=Kind.CONVERSION, source=Source("Mir17", "Proposition 3 (RDP -> (eps, delta)-DP) at (alpha, alpha rho)-RDP"),
    params=("alpha", "rho", "delta"), expr=alpha * rho + L / (alpha - 1),
    domain=(alpha > 1, rho >= 0, delta > 0, delta < 1), extra={"delta": delta},
    monotone={"rho": +1, "delta": -1, "alpha": 0}, same_as=("fz21.fact2_4",),
    notes="Returns eps.  FZ21 Fact 2.4 with rho replaced by the order-alpha RDP value alpha rho of a rho-zCDP "
          "mechanism.  Valid at every alpha > 1; its minimum over alpha is conversions.bs16 (at alpha* = 1 + "
          "sqrt(log(1/delta)/rho)).  Convex in alpha, not monotone."))

# ------------------------------------------------------------------------------------------ CKS20
_cks_eps = alpha * rho + (L + (alpha - 1) * sp.log(1 - 1 / alpha) - sp.log(alpha)) / (alpha - 1)
register(SpecEntry(
    id="conversions.cks20", title="CKS20 conversion: eps = inf_alpha [alpha rho + (log(1/delta) + (alpha-1) "
    "log(1 - 1/alpha) - log alpha)/(alpha - 1)]", kind=Kind.CONVERSION,
    source=Source("CKS20", "Proposition 12 (RDP -> approximate DP), specialized to rho-zCDP (tau = alpha rho)"),
    params=("rho", "delta"), expr=_cks_eps, domain=(rho >= 0, delta > 0, delta < 1),
    optimize=Optimize("inf", "alpha", sp.Integer(1), sp.oo), extra={"delta": delta},
    monotone={"rho": +1, "delta": -1}, example={"alpha": "5"}, proof_claims=("conversions.cks20.forms_agree",),
    notes="Returns eps.  Every alpha > 1 gives a valid eps (so any fixed alpha is an upper bound of the infimum); at "
          "each alpha it is below conversions.mironov by (log alpha - (alpha - 1) log(1 - 1/alpha))/(alpha - 1) > 0, "
          "so the infimum is <= conversions.bs16.  dp_accounting and OpenDP implement this conversion.  Equivalent "
          "delta form: conversions.cks20.delta.  " + _CKS_WHERE_NOTE))
register(SpecEntry(
    id="conversions.cks20.delta", title="CKS20 conversion, delta form: delta = inf_alpha exp((alpha-1)(alpha rho - "
    "eps))/(alpha-1) (1 - 1/alpha)^alpha", kind=Kind.CONVERSION,
    source=Source("CKS20", "Proposition 12, specialized to rho-zCDP (tau = alpha rho)"),
    params=("rho", "eps_g"),
    expr=sp.exp((alpha - 1) * (alpha * rho - eps_g)) / (alpha - 1) * (1 - 1 / alpha)**alpha,
    domain=(rho >= 0, eps_g >= 0), optimize=Optimize("inf", "alpha", sp.Integer(1), sp.oo),
    monotone={"rho": +1, "eps_g": -1}, example={"alpha": "5"},
    proof_claims=("conversions.cks20.forms_agree",),
    notes="Returns delta for the target eps = eps_g (eps_g is the canonical name of the target epsilon).  At each "
          "alpha, solving this for eps gives the eps form (conversions.cks20), so the two infima describe the same "
          "curve.  rho = 0 gives delta = 0 (the infimum is approached as alpha -> oo).  Steinke's cdp2adp.py notes the "
          "optimal alpha is at least (1 + eps/rho)/2.  " + _CKS_WHERE_NOTE))

# ------------------------------------------------------------------------------------------ Gaussian (limit)
_mu = sp.sqrt(2 * rho)


def _Phi(z: sp.Expr) -> sp.Expr:
    """Standard normal CDF written with erfc (accurate in the tails)."""
    return sp.erfc(-z / sp.sqrt(2)) / 2


register(SpecEntry(
    id="conversions.gauss.delta", title="the Gaussian mechanism's exact privacy curve (mu = sqrt(2 rho))",
    kind=Kind.CONVERSION, source=Source("BW18", "Theorem 8 (analytic Gaussian mechanism)"),
    params=("rho", "eps_g"), expr=_Phi(-eps_g / _mu + _mu / 2) - sp.exp(eps_g) * _Phi(-eps_g / _mu - _mu / 2),
    domain=(rho > 0, eps_g >= 0), monotone={"rho": +1, "eps_g": -1},
    notes="the limit no general conversion can beat; not a valid general conversion.  Returns delta(eps_g) = "
          "Phi(-eps_g/mu + mu/2) - e^eps_g Phi(-eps_g/mu - mu/2) of the Gaussian mechanism with sensitivity/sigma = "
          "mu = sqrt(2 rho), which is exactly rho-zCDP (BW18 Theorem 8 with Delta/sigma = mu; the same curve as "
          "mu-GDP, Dong-Roth-Su 2019 Corollary 2.13).  Since that mechanism is rho-zCDP, every valid zCDP->DP "
          "conversion must give delta >= this curve; it is NOT a conversion for other rho-zCDP mechanisms.  "
          "Containment: B*_bs16 <= B*_cks20 <= B*_gauss.  Phi(z) = erfc(-z/sqrt 2)/2."))

# ------------------------------------------------------------------------------------------ KOV15
_P = sp.binomial(k, l) * sp.exp((k - l) * eps) / (1 + sp.exp(eps))**k
_Q = sp.binomial(k, l) * sp.exp(l * eps) / (1 + sp.exp(eps))**k
register(SpecEntry(
    id="conversions.kov15.exact", title="exact delta(eps_g) of k-fold eps-randomized response (optimal composition)",
    kind=Kind.CONVERSION,
    source=Source("KOV15", "Theorem 3.3 (optimal homogeneous composition) with the RR dominance of Section 2"),
    params=("eps", "k", "eps_g"), expr=sp.Sum(sp.Max(0, _P - sp.exp(eps_g) * _Q), (l, 0, k)),
    domain=(eps >= 0, k >= 1, eps_g >= 0), monotone={"k": +1, "eps_g": -1, "eps": +1},
    notes="Returns delta.  Every eps-DP mechanism is a post-processing of RR_eps, so k-fold (adaptive, fixed-eps) "
          "composition's exact privacy region is that of RR^k: privacy loss (k - 2l) eps with probability P(l) = "
          "C(k,l) e^{(k-l) eps}/(1+e^eps)^k under one input and Q(l) = C(k,l) e^{l eps}/(1+e^eps)^k under the other; "
          "delta_opt(eps_g) = sum_l max(0, P(l) - e^{eps_g} Q(l)) is its hockey-stick divergence.  KOV15 Theorem "
          "3.3 states the values at the grid eps_g = (k - 2i) eps (delta_i = sum_{l<i} C(k,l)(e^{(k-l)eps} - "
          "e^{(k-2i+l)eps})/(1+e^eps)^k, for pure rounds); this formula interpolates them exactly.  Fixed parameters "
          "only; a valid filter that continues through k rounds of eps at (eps_g, delta_g) must have delta_opt(eps_g) "
          "<= delta_g.  l is the summation index (bound, not a parameter)."))
register(SpecEntry(
    id="conversions.kov15.heterogeneous", title="KOV heterogeneous advanced composition (diffprivlib's accountant)",
    kind=Kind.COMPOSITION,
    source=Source("KOV15", "Theorem 3.5 (heterogeneous advanced composition); as implemented in " + DIFFPRIVLIB),
    params=("dhat",), aggregates=("S", "KOV", "V"),
    expr=sp.Min(S, KOV + sp.Min(sp.sqrt(2 * V * sp.log(1 / dhat)),
                                sp.sqrt(2 * V * sp.log(sp.E + sp.sqrt(V) / dhat)))),
    domain=(dhat > 0, dhat < 1), extra={"delta": dhat}, per_round_domain=(sp.Eq(sym("delta"), 0),),
    monotone={"S": +1, "KOV": +1, "V": +1, "dhat": -1},
    notes="Returns eps = min(sum eps_i, sum eps_i (e^eps_i - 1)/(e^eps_i + 1) + min(sqrt(2 V log(1/dhat)), "
          "sqrt(2 V log(e + sqrt(V)/dhat)))), valid ONLY for fixed (non-adaptive) parameters; for adaptively chosen "
          "ones no proof is known (RRUV16 Section 6 shows its odometer version fails).  KOV15 Theorem 3.5 and "
          "diffprivlib's BudgetAccountant.total (min(total_epsilon_naive, total_epsilon_drv, total_epsilon_kov)) "
          "both include the basic-composition term sum eps_i, which THEOREMS.md omits; it only ever lowers the "
          "value.  Total delta = 1 - (1 - dhat) prod_i (1 - delta_i) (extra delta = dhat is for pure rounds; "
          "diffprivlib uses slack = dhat and returns the plain sum eps_i when slack = 0).  KOV15 asks eps_i > 0 and "
          "dhat in (0, 1]."))
