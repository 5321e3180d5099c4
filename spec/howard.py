"""HRMS -- Howard, Ramdas, McAuliffe, Sekhon: the general uniform boundaries behind WRRW23 Theorems 4-6.

Not a seed: literature facts, cited precisely.  Sub-Gaussian case (c = 0), intrinsic time V (the aggregate).
"""

from __future__ import annotations

import sympy as sp

from .core import Kind, Source, SpecEntry, register, sym

CIT_2021 = ("Howard, Ramdas, McAuliffe, Sekhon, 'Time-uniform, nonparametric, nonasymptotic confidence sequences', "
            "Annals of Statistics 49(2), 2021 (arXiv:1810.08240)")
CIT_2020 = ("Howard, Ramdas, McAuliffe, Sekhon, 'Time-uniform Chernoff bounds via nonnegative supermartingales', "
            "Probability Surveys 17, 2020 (arXiv:1808.03204)")

eta, s, v0, delta, gamma, u = sym("eta"), sym("s"), sym("v0"), sym("delta"), sym("gamma"), sym("u")
V = sym("V")

k1 = (eta**sp.Rational(1, 4) + eta**sp.Rational(-1, 4)) / sp.sqrt(2)
ell = s * sp.log(sp.log(eta * V / v0)) + sp.log(sp.zeta(s) / (delta * sp.log(eta)**s))
register(SpecEntry(
    id="howard.stitching", title="polynomial stitching boundary, sub-Gaussian (c = 0)", kind=Kind.BOUNDARY,
    source=Source("HRMS21", "Theorem 1 with the polynomial stitching function, eq. (6)/(10), c = 0", citation=CIT_2021),
    params=("eta", "s", "v0", "delta"), aggregates=("V",),
    expr=sp.Piecewise((sp.oo, V < v0), (k1 * sp.sqrt(V * ell), True)),
    domain=(eta > 1, s > 1, v0 > 0, delta > 0, delta < 1), extra={"k1": k1, "ell": ell},
    proof_claims=("wrrw23.thm6.stitching_constants",), example={"V": "10"},
    notes="S(v) = k1 sqrt(v ell(v)) for v >= m (= v0), with ell(v) = s log log(eta v/m) + log(zeta(s)/(alpha "
          "log^s(eta))) and k1 = (eta^{1/4} + eta^{-1/4})/sqrt(2); P(exists t : S_t >= S(V_t), V_t >= m) <= alpha "
          "(alpha is called delta here).  With eta = 2, s = 1.4 WRRW23 rounds it to howard.stitching.simplified."))
register(SpecEntry(
    id="howard.stitching.simplified", title="stitching boundary with eta = 2, s = 1.4 rounded (WRRW23 Thm 6)",
    kind=Kind.BOUNDARY, source=Source("HRMS21", "eq. (11) simplified, as used by WRRW23 Theorem 6", citation=CIT_2021),
    params=("v0", "delta"), aggregates=("V",),
    expr=sp.Piecewise((sp.oo, V < v0), (sp.Rational(17, 10) * sp.sqrt(V * (sp.log(sp.log(2 * V / v0)) +
                                                                          sp.Rational(72, 100) *
                                                                          sp.log(sp.Rational(52, 10) / delta))),
                                       True)),
    domain=(v0 > 0, delta > 0, delta < 1), same_as=("wrrw23.thm6",), example={"V": "10"},
    proof_claims=("wrrw23.thm6.stitching_constants",),
    notes="1.7 sqrt(v (log log(2v/m) + 0.72 log(5.2/alpha))).  Must be >= howard.stitching at eta=2, s=1.4 for all "
          "v >= m, alpha in (0, 1) for the rounding to be safe (decided in proofs_check)."))
register(SpecEntry(
    id="howard.normal_mixture.two_sided", title="two-sided normal-mixture boundary", kind=Kind.BOUNDARY,
    source=Source("HRMS21", "Proposition 5 / eq. (14) (two-sided normal mixture)", citation=CIT_2021),
    params=("gamma", "delta"), aggregates=("V",),
    expr=sp.sqrt(2 * (V + gamma) * sp.log(sp.sqrt((V + gamma) / gamma) / delta)),
    domain=(gamma > 0, delta > 0, delta < 1), same_as=("wrrw23.thm5",), monotone={"V": +1, "delta": -1},
    proof_claims=("wrrw23.thm5.mixture_integral",),
    notes="Mixing N(0, 1/gamma) over lambda of exp(lambda S - lambda^2 V/2) and Ville's inequality: "
          "sqrt((V + gamma) log((V + gamma)/(gamma alpha^2))).  As a one-sided bound it is valid but looser than "
          "howard.normal_mixture.one_sided.  (Howard et al. parametrize by rho = gamma.)"))
Phi = lambda z: sp.erfc(-z / sp.sqrt(2)) / 2  # noqa: E731 - the standard normal CDF
register(SpecEntry(
    id="howard.normal_mixture.one_sided", title="one-sided normal-mixture boundary: its defining equation",
    kind=Kind.BOUNDARY,
    source=Source("HRMS21", "Proposition 6 / eq. (15) (one-sided normal mixture, half-normal mixing)", citation=CIT_2021),
    params=("gamma", "delta", "u"), aggregates=("V",),
    expr=sp.log(2 * sp.sqrt(gamma / (V + gamma))) + u**2 / (2 * (V + gamma)) + sp.log(Phi(u / sp.sqrt(V + gamma)))
    - sp.log(1 / delta),
    domain=(gamma > 0, delta > 0, delta < 1, u > 0), example={"u": "5"},
    notes="The one-sided mixture supermartingale (mixing density 2 N(0, 1/gamma) on lambda >= 0) at S = u is "
          "2 sqrt(gamma/(V + gamma)) exp(u^2/(2(V + gamma))) Phi(u/sqrt(V + gamma)); the boundary is the root u of "
          "expr = log(mixture) - log(1/alpha) = 0 (no closed form).  Any u with expr >= 0 is a valid boundary "
          "value; the audit checks confseq's normal_mixture_bound(one_sided) this way."))
