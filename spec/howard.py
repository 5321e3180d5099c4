"""HRMS -- Howard, Ramdas, McAuliffe, Sekhon: the general uniform boundaries behind WRRW23 Theorems 4-6.

Not a seed: literature facts, cited at each formula.  Sub-Gaussian case (c = 0): S_t is a process with
exp(lambda S_t - lambda^2 V_t/2) a supermartingale for lambda >= 0 (one-sided; the two-sided mixture needs all real
lambda), V_t its intrinsic time (the aggregate ``V``), alpha the crossing probability (called ``delta`` here, the
canonical name; ``alpha`` is the Renyi order in this project).

Numbering: Proposition 4 (two-sided normal mixture), Proposition 5 (one-sided normal mixture) and Theorem 1 with the
example after it (polynomial stitching) follow the reference implementation's documentation (confseq README, by the
same first author: "normal (Propositions 4 and 5)", "two-sided variants ... (Propositions 4 and 6)", "polynomial
stitching boundary (see Theorem 1 and the subsequent example)").  Equation numbers are not given because they could
not be checked against the paper here.
"""

from __future__ import annotations

import sympy as sp

from .core import Kind, Source, SpecEntry, register, sym

# Full references (HRMS21, HRMS20): spec/papers.py.

eta, s, v0, delta, gamma, u = sym("eta"), sym("s"), sym("v0"), sym("delta"), sym("gamma"), sym("u")
V = sym("V")


def k1_of(eta_: sp.Expr) -> sp.Expr:
    """k1 = (eta^{1/4} + eta^{-1/4}) / sqrt(2), the leading constant of the stitched boundary."""
    return (eta_**sp.Rational(1, 4) + eta_**sp.Rational(-1, 4)) / sp.sqrt(2)


def ell_of(eta_: sp.Expr, s_: sp.Expr, v: sp.Expr, m: sp.Expr, alpha: sp.Expr) -> sp.Expr:
    """ell(v) = s log log(eta v/m) + log(zeta(s) / (alpha log^s(eta))), polynomial stitching h(k) = (k+1)^s zeta(s)."""
    return s_ * sp.log(sp.log(eta_ * v / m)) + sp.log(sp.zeta(s_) / (alpha * sp.log(eta_)**s_))


k1 = k1_of(eta)
ell = ell_of(eta, s, V, v0, delta)
_STITCH_DOMAIN = (eta > 1, s > 1, v0 > 0, delta > 0, delta < 1)
register(SpecEntry(
    id="howard.stitching", title="polynomial stitching boundary, sub-Gaussian (c = 0)", kind=Kind.BOUNDARY,
    source=Source("HRMS21", "Theorem 1 (stitching) with the polynomial stitching function h(k) = (k + 1)^s zeta(s), "
                  "the example after Theorem 1, sub-Gaussian case c = 0"),
    params=("eta", "s", "v0", "delta"), aggregates=("V",),
    expr=sp.Piecewise((sp.oo, V < v0), (k1 * sp.sqrt(V * ell), True)),
    domain=_STITCH_DOMAIN, extra={"k1": k1, "ell": ell}, example={"V": "10"},
    proof_claims=("howard.stitching.k1", "wrrw23.thm6.stitching_constants"), same_as=("wrrw23.thm6",),
    notes="S(v) = k1 sqrt(v ell(v)) + c k2 ell(v) with c = 0, for v >= m (= v0), where ell(v) = s log log(eta v/m) + "
          "log(zeta(s)/(alpha log^s(eta))) and k1 = (eta^{1/4} + eta^{-1/4})/sqrt(2) (k2 = (sqrt(eta) + 1)/2 "
          "multiplies c and drops out); P(exists t : V_t >= m and S_t >= S(V_t)) <= alpha (alpha is delta here).  "
          "ell(v) >= log(zeta(s)/alpha) > 0 on v >= m, because zeta(s) > 1 and the two log log(eta) terms cancel at "
          "v = m.  The theorem says nothing below m: expr is +oo there (confseq's poly_stitching_bound instead "
          "evaluates at max(v, m), which is larger than S(m) only in that it is finite).  With eta = 2, s = 1.4 and "
          "rounding up: howard.stitching.simplified = WRRW23 Theorem 6."))

_SIMPLE = sp.Rational(17, 10) * sp.sqrt(V * (sp.log(sp.log(2 * V / v0)) +
                                             sp.Rational(72, 100) * sp.log(sp.Rational(52, 10) / delta)))
_UNROUNDED = k1_of(sp.Integer(2)) * sp.sqrt(V * ell_of(sp.Integer(2), sp.Rational(7, 5), V, v0, delta))
register(SpecEntry(
    id="howard.stitching.simplified", title="stitching boundary with eta = 2, s = 1.4, rounded (WRRW23 Thm 6)",
    kind=Kind.BOUNDARY,
    source=Source("HRMS21", "Theorem 1, polynomial stitching with eta = 2, s = 1.4, c = 0, constants rounded "
                  "(the simplified form quoted by WRRW23 Theorem 6)"),
    params=("v0", "delta"), aggregates=("V",), expr=sp.Piecewise((sp.oo, V < v0), (_SIMPLE, True)),
    extra={"unrounded": sp.Piecewise((sp.oo, V < v0), (_UNROUNDED, True))},
    domain=(v0 > 0, delta > 0, delta < 1), monotone={"delta": -1}, same_as=("wrrw23.thm6",), example={"V": "10"},
    proof_claims=("howard.stitching.simplified_dominates", "howard.stitching.rounding_directions",
                  "wrrw23.thm6.stitching_constants"),
    notes="1.7 sqrt(v (log log(2v/m) + 0.72 log(5.2/alpha))) for v >= m.  extra 'unrounded' is howard.stitching at "
          "eta = 2, s = 7/5: k1(2) = 1.43546... <= 1.7, k1^2 s = 2.8848 <= 1.7^2 = 2.89 (coefficient of log log), "
          "k1^2 = 2.0606 <= 1.7^2 * 0.72 = 2.0808 (coefficient of log(1/alpha)), and the constant "
          "k1^2 log(zeta(1.4)/log(2)^1.4) - 1.4 k1^2 log log 2 is covered by 2.0808 log 5.2 (margin smallest at "
          "v = m, alpha -> 1).  So the rounded boundary is >= the exact one for all v >= m, alpha in (0, 1): each "
          "rounding goes the safe way (proofs_check wrrw23.thm6.stitching_constants; the margin is only ~1%)."))

_TWO = sp.sqrt(2 * (V + gamma) * sp.log(sp.sqrt((V + gamma) / gamma) / delta))
register(SpecEntry(
    id="howard.normal_mixture.two_sided", title="two-sided normal-mixture boundary", kind=Kind.BOUNDARY,
    source=Source("HRMS21", "Proposition 4 (two-sided normal mixture), sub-Gaussian case"),
    params=("gamma", "delta"), aggregates=("V",), expr=_TWO,
    extra={"log_mixture_at_boundary": sp.log(sp.sqrt(gamma / (V + gamma))) + _TWO**2 / (2 * (V + gamma))},
    domain=(gamma > 0, delta > 0, delta < 1, V >= 0), same_as=("wrrw23.thm5",),
    monotone={"V": +1, "delta": -1},
    proof_claims=("wrrw23.thm5.mixture_integral",),
    notes="Mixing exp(lambda S - lambda^2 V/2) over lambda ~ N(0, 1/rho) gives m(S, V) = sqrt(rho/(V + rho)) "
          "exp(S^2/(2(V + rho))) (extra 'log_mixture_at_boundary' = log m at S = the boundary, which equals "
          "log(1/alpha)); Ville's inequality at level 1/alpha gives the boundary sqrt((V + rho) log((V + rho)/(rho "
          "alpha^2))) = sqrt(2 (V + rho) log(sqrt((V + rho)/rho)/alpha)), two-sided (needs the supermartingale for "
          "all real lambda).  Howard et al. write rho for the mixture precision, WRRW23 gamma.  As a one-sided bound "
          "it is valid but looser than howard.normal_mixture.one_sided.  Tuning (Howard et al. Sec. 3.5, confseq "
          "best_rho): rho = v_opt/(2 log(1/alpha) + log(1 + 2 log(1/alpha))) makes it tightest near V = v_opt.  Not "
          "monotone in gamma: d/drho [(V + rho)(log(1 + V/rho) + 2 log(1/alpha))] = log(1 + V/rho) + 2 log(1/alpha) "
          "- V/rho changes sign."))

Phi = lambda z: sp.erfc(-z / sp.sqrt(2)) / 2  # noqa: E731 - the standard normal CDF
_LOG_M1 = sp.log(2 * sp.sqrt(gamma / (V + gamma))) + u**2 / (2 * (V + gamma)) + sp.log(Phi(u / sp.sqrt(V + gamma)))
register(SpecEntry(
    id="howard.normal_mixture.one_sided", title="one-sided normal-mixture boundary: its defining equation",
    kind=Kind.BOUNDARY,
    source=Source("HRMS21", "Proposition 5 (one-sided normal mixture: half-normal mixing over lambda >= 0), "
                  "sub-Gaussian case"),
    params=("gamma", "delta", "u"), aggregates=("V",), expr=_LOG_M1 - sp.log(1 / delta),
    extra={"log_mixture": _LOG_M1},
    domain=(gamma > 0, delta > 0, delta < 1, u > 0, V >= 0), example={"u": "5"}, monotone={"u": +1, "delta": +1},
    notes="No closed form: the boundary at V is the root u > 0 of expr = 0, where the one-sided mixture "
          "supermartingale (density 2 N(0, 1/rho) restricted to lambda >= 0) at S = u is m1(u, V) = 2 sqrt(rho/(V + "
          "rho)) exp(u^2/(2(V + rho))) Phi(u/sqrt(V + rho)) (extra 'log_mixture' = log m1; confseq's "
          "OneSidedNormalMixture::log_superMG is the same function).  expr = log m1 - log(1/alpha) is increasing "
          "in u, so any u with expr >= 0 is a valid (conservative) one-sided boundary value: P(exists t : S_t >= "
          "u(V_t)) <= alpha.  Since 2 Phi(x) >= 1 for x >= 0, m1 >= the two-sided mixture, so expr >= 0 at u = "
          "howard.normal_mixture.two_sided (the two-sided boundary is a valid, looser one-sided bound).  "
          "Written via its defining equation because the exact closed form could not be confirmed here; the audit "
          "compares confseq's normal_mixture_bound(is_one_sided=True) through this equation.  Needs only the "
          "one-sided (lambda >= 0) sub-Gaussian condition."))
