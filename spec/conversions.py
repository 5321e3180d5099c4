"""zCDP -> (eps, delta)-DP conversions and exact worst-case formulas from the literature (not seeds).

Each entry cites the paper and proposition.  B*(eps_g, delta_g; conv) = sup{rho : conv(rho) gives
(eps_g, delta_g)-DP} is solved by reference.conversions from these entries.
"""

from __future__ import annotations

import sympy as sp

from .core import Kind, Optimize, Source, SpecEntry, register, sym

rho, delta, eps_g, delta_g, alpha, eps, k, l, dhat = (sym(n) for n in
                                                      ("rho", "delta", "eps_g", "delta_g", "alpha", "eps", "k", "l",
                                                       "dhat"))
V, KOV = sym("V"), sym("KOV")
L = sp.log(1 / delta)

BS16 = "Bun, Steinke, 'Concentrated Differential Privacy: Simplifications, Extensions, and Lower Bounds', TCC 2016"
CKS20 = ("Canonne, Kamath, Steinke, 'The Discrete Gaussian for Differential Privacy', NeurIPS 2020 "
         "(arXiv:2004.00010v5)")
MIR17 = "Mironov, 'Renyi Differential Privacy', CSF 2017"
BW18 = "Balle, Wang, 'Improving the Gaussian Mechanism for Differential Privacy', ICML 2018"
KOV15 = "Kairouz, Oh, Viswanath, 'The Composition Theorem for Differential Privacy', ICML 2015 / IEEE TIT 2017"

register(SpecEntry(
    id="conversions.bs16", title="rho-zCDP => (rho + 2 sqrt(rho log(1/delta)), delta)-DP", kind=Kind.CONVERSION,
    source=Source("BS16", "Proposition 1.3", citation=BS16), params=("rho", "delta"),
    expr=rho + 2 * sp.sqrt(rho * L), domain=(rho >= 0, delta > 0, delta < 1), monotone={"rho": +1, "delta": -1},
    same_as=("wrrw23.lemma1.zcdp_to_dp", "fz21.fact2_4"),
    notes="Mironov's conversion (fz21.fact2_4) at rho-zCDP = (alpha, alpha rho)-RDP minimized over alpha > 1."))
register(SpecEntry(
    id="conversions.bs16.b_star", title="B* for BS16: (sqrt(log(1/delta_g) + eps_g) - sqrt(log(1/delta_g)))^2",
    kind=Kind.CONVERSION, source=Source("BS16", "Proposition 1.3, inverted (FZ21 Theorem 4.7)", citation=BS16),
    params=("eps_g", "delta_g"), expr=(sp.sqrt(sp.log(1 / delta_g) + eps_g) - sp.sqrt(sp.log(1 / delta_g)))**2,
    domain=(eps_g > 0, delta_g > 0, delta_g < 1), monotone={"eps_g": +1, "delta_g": +1},
    proof_claims=("fz21.thm4_7.b_star_minimization",)))
register(SpecEntry(
    id="conversions.mironov", title="rho-zCDP => (alpha rho + log(1/delta)/(alpha - 1), delta)-DP at one alpha",
    kind=Kind.CONVERSION, source=Source("Mir17", "Proposition 3", citation=MIR17), params=("alpha", "rho", "delta"),
    expr=alpha * rho + L / (alpha - 1), domain=(alpha > 1, rho >= 0, delta > 0, delta < 1),
    monotone={"rho": +1, "delta": -1}, same_as=("fz21.fact2_4",)))
_cks_eps = alpha * rho + (L + (alpha - 1) * sp.log(1 - 1 / alpha) - sp.log(alpha)) / (alpha - 1)
register(SpecEntry(
    id="conversions.cks20", title="CKS20 conversion: eps = inf_alpha [alpha rho + (log(1/delta) + (alpha-1) "
    "log(1 - 1/alpha) - log alpha)/(alpha - 1)]", kind=Kind.CONVERSION,
    source=Source("CKS20", "Proposition 12 (RDP -> approximate DP), specialized to rho-zCDP", citation=CKS20),
    params=("rho", "delta"), expr=_cks_eps, domain=(rho >= 0, delta > 0, delta < 1),
    optimize=Optimize("inf", "alpha", sp.Integer(1), sp.oo), monotone={"rho": +1, "delta": -1},
    example={"alpha": "5"},
    notes="Every alpha > 1 gives a valid eps (so any alpha is an upper bound of the infimum); dp_accounting and OpenDP "
          "implement this conversion.  Equivalent delta form: conversions.cks20.delta."))
register(SpecEntry(
    id="conversions.cks20.delta", title="CKS20 conversion, delta form: delta = inf_alpha exp((alpha-1)(alpha rho - "
    "eps))/(alpha-1) (1 - 1/alpha)^alpha", kind=Kind.CONVERSION,
    source=Source("CKS20", "Proposition 12, specialized to rho-zCDP", citation=CKS20), params=("rho", "eps_g"),
    expr=sp.exp((alpha - 1) * (alpha * rho - eps_g)) / (alpha - 1) * (1 - 1 / alpha)**alpha,
    domain=(rho >= 0, eps_g >= 0), optimize=Optimize("inf", "alpha", sp.Integer(1), sp.oo),
    monotone={"rho": +1, "eps_g": -1}, example={"alpha": "5"},
    proof_claims=("conversions.cks20.forms_agree",)))
_mu = sp.sqrt(2 * rho)
_Phi = lambda z: sp.erfc(-z / sp.sqrt(2)) / 2  # noqa: E731 - standard normal CDF
register(SpecEntry(
    id="conversions.gauss.delta", title="the Gaussian mechanism's exact privacy curve (mu = sqrt(2 rho))",
    kind=Kind.CONVERSION, source=Source("BW18", "Theorem 8 (analytic Gaussian mechanism)", citation=BW18),
    params=("rho", "eps_g"), expr=_Phi(-eps_g / _mu + _mu / 2) - sp.exp(eps_g) * _Phi(-eps_g / _mu - _mu / 2),
    domain=(rho > 0, eps_g >= 0), monotone={"rho": +1, "eps_g": -1},
    notes="delta(eps) of the Gaussian mechanism with sensitivity/sigma = mu = sqrt(2 rho), which is exactly "
          "rho-zCDP.  The limit no general zCDP->DP conversion can beat -- NOT a valid conversion for other rho-zCDP "
          "mechanisms.  Containment: B*_bs16 <= B*_cks20 <= B*_gauss."))
_P = sp.binomial(k, l) * sp.exp((k - l) * eps) / (1 + sp.exp(eps))**k
_Q = sp.binomial(k, l) * sp.exp(l * eps) / (1 + sp.exp(eps))**k
register(SpecEntry(
    id="conversions.kov15.exact", title="exact delta(eps_g) of k-fold eps-randomized response (optimal composition)",
    kind=Kind.CONVERSION, source=Source("KOV15", "Theorem 3.3 (optimal homogeneous composition)", citation=KOV15),
    params=("eps", "k", "eps_g"), expr=sp.Sum(sp.Max(0, _P - sp.exp(eps_g) * _Q), (l, 0, k)),
    domain=(eps >= 0, k >= 1, eps_g >= 0), monotone={"k": +1, "eps_g": -1},
    notes="Every eps-DP mechanism is a post-processing of RR_eps, so k-fold composition's exact privacy region is "
          "that of RR; privacy loss (k - 2l) eps with P(l) = C(k,l) e^{(k-l) eps}/(1+e^eps)^k, Q(l) = C(k,l) "
          "e^{l eps}/(1+e^eps)^k.  Fixed parameters only."))
register(SpecEntry(
    id="conversions.kov15.heterogeneous", title="KOV heterogeneous advanced composition (diffprivlib's accountant)",
    kind=Kind.COMPOSITION, source=Source("KOV15", "Theorem 3.5 (heterogeneous advanced composition)", citation=KOV15),
    params=("dhat",), aggregates=("KOV", "V"),
    expr=KOV + sp.Min(sp.sqrt(2 * V * sp.log(1 / dhat)), sp.sqrt(2 * V * sp.log(sp.E + sp.sqrt(V) / dhat))),
    domain=(dhat > 0, dhat < 1), monotone={"KOV": +1, "V": +1},
    notes="sum eps_i (e^eps_i - 1)/(e^eps_i + 1) + min(sqrt(2 V log(1/dhat)), sqrt(2 V log(e + sqrt(V)/dhat))), with "
          "total delta = 1 - (1 - dhat) prod (1 - delta_i).  Valid for FIXED parameters; no proof is known for "
          "adaptively chosen ones (RRUV16 Section 6 shows its odometer version fails).  diffprivlib's "
          "BudgetAccountant implements it."))
