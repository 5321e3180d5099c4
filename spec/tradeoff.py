"""Hypothesis-testing trade-off curves (f-DP) and the f-DP <-> DP conversions the audited libraries use.

A trade-off curve T(P, Q)(fpr) is the smallest type-II error beta = Q(S^c) of a (randomized) test of P against Q
with type-I error P(S) <= fpr (Dong, Roth, Su 2022, Definition 2.1).  A mechanism is f-DP when T(M(D), M(D')) >= f
for all neighbours.  Each entry below is the best (largest) f implied by a guarantee; ``fpr`` is the type-I error in
[0, 1].

Claim direction: 'lower'.  A LARGER beta claims MORE privacy (an attacker errs more), so a peer that reports a
trade-off value (or an attack's best type-II error) above the certified upper end of these curves overstates
privacy; the certified LOWER end is the sound value to report.  Advantages (1 - min(fpr + beta)) are the other way
round: 'upper'.
"""

from __future__ import annotations

import sympy as sp

from .core import Kind, Source, SpecEntry, register, sym
from .rdp_conversions import ImplicitFunction

mu, fpr, eps, delta, alpha, R, eps_g = (sym(n) for n in ("mu", "fpr", "eps", "delta", "alpha", "R", "eps_g"))

_LOWER = ("Claim direction: 'lower' -- the value is a type-II error; a LARGER beta claims MORE privacy, so the sound "
          "value to report is the certified LOWER end, and a peer's beta above the certified upper end overstates "
          "privacy.")
_UPPER = ("Claim direction: 'upper' -- an attack advantage; a SMALLER value claims MORE privacy.")


def _Phi(z: sp.Expr) -> sp.Expr:
    """Standard normal CDF written with erfc (accurate in the tails)."""
    return sp.erfc(-z / sp.sqrt(2)) / 2


class normal_quantile_upper(ImplicitFunction):  # noqa: N801  (a sympy function: lower-case like sp.erfc)
    """z(fpr) = Phi^{-1}(1 - fpr) = sqrt(2) erfcinv(2 fpr), for 0 < fpr < 1 (opaque to sympy: the interpreter
    dispatches it to ``dpbounds.evaluation.tradeoff``, which uses arb's certified erfcinv)."""

    nargs = 1
    dpbounds_eval = "dpbounds.evaluation.tradeoff:normal_quantile_upper_backend"


class rdp_tradeoff(ImplicitFunction):  # noqa: N801
    """f_{alpha,R}(fpr): the lower boundary of the single-order RDP privacy region (entry tradeoff.rdp); opaque."""

    nargs = 3
    dpbounds_eval = "dpbounds.evaluation.tradeoff:rdp_tradeoff_backend"


# ------------------------------------------------------------------------------------------ GDP
register(SpecEntry(
    id="tradeoff.gdp", title="mu-GDP trade-off curve G_mu(fpr) = Phi(Phi^{-1}(1 - fpr) - mu)", kind=Kind.CONVERSION,
    source=Source("DRS22", "Definition 2.5 (G_mu = T(N(0,1), N(mu,1)), eq. (2.3)-(2.4) form)",
                  theorem="Definition 2.5"),
    params=("mu", "fpr"),
    expr=sp.Piecewise((1, sp.Eq(fpr, 0)), (0, sp.Eq(fpr, 1)), (_Phi(normal_quantile_upper(fpr) - mu), True)),
    domain=(mu >= 0, fpr >= 0, fpr <= 1), monotone={"mu": -1, "fpr": -1}, example={"mu": "1", "fpr": "0.05"},
    proof_claims=("tradeoff.gdp.neyman_pearson",),
    notes="Returns beta.  G_mu(fpr) = Phi(Phi^{-1}(1 - fpr) - mu): the Neyman-Pearson test of N(0,1) against N(mu,1) "
          "rejects when the observation exceeds Phi^{-1}(1 - fpr) (proofs_check tradeoff.gdp.neyman_pearson).  "
          "G_mu(0) = 1, G_mu(1) = 0.  The Gaussian mechanism with sensitivity/sigma = mu is exactly mu-GDP; its "
          "(eps, delta) curve is conversions.gdp.delta.  The definition's number ('Definition 2.5' for Gaussian "
          "differential privacy, G_mu defined just before) follows DRS's arXiv text as the library docs cite it; "
          "not checked against a copy.  " + _LOWER))
register(SpecEntry(
    id="conversions.gdp.delta", title="mu-GDP => (eps_g, Phi(-eps_g/mu + mu/2) - e^eps_g Phi(-eps_g/mu - mu/2))-DP",
    kind=Kind.CONVERSION, source=Source("DRS22", "Corollary 2.13 (primal-dual: mu-GDP iff (eps, delta(eps))-DP for "
                                        "all eps >= 0)", theorem="Corollary 2.13"),
    params=("mu", "eps_g"), expr=_Phi(-eps_g / mu + mu / 2) - sp.exp(eps_g) * _Phi(-eps_g / mu - mu / 2),
    domain=(mu > 0, eps_g >= 0), monotone={"mu": +1, "eps_g": -1}, example={"mu": "1", "eps_g": "1"},
    same_as=("conversions.gauss.delta",),
    notes="Returns delta at the target eps_g: conversions.gauss.delta written in mu (= sqrt(2 rho)), the form "
          "GDP libraries (riskcal, gdpnum, opacus's GDP accountant) use.  Exact for mu-GDP (both directions of "
          "DRS Corollary 2.13).  'upper': a smaller delta claims more privacy."))

# ------------------------------------------------------------------------------------------ (eps, delta)-DP
_dp = sp.Max(0, 1 - delta - sp.exp(eps) * fpr, sp.exp(-eps) * (1 - delta - fpr))
register(SpecEntry(
    id="tradeoff.dp", title="(eps, delta)-DP trade-off curve max(0, 1 - delta - e^eps fpr, e^-eps (1 - delta - "
    "fpr))", kind=Kind.CONVERSION,
    source=Source("DRS22", "Proposition 2.5 ((eps, delta)-DP is f_{eps,delta}-DP; Wasserman-Zhou 2010, Kairouz-"
                  "Oh-Viswanath 2015)", theorem="Proposition 2.5"),
    params=("eps", "delta", "fpr"), expr=_dp, domain=(eps >= 0, delta >= 0, delta <= 1, fpr >= 0, fpr <= 1),
    monotone={"eps": -1, "delta": -1, "fpr": -1}, example={"eps": "1", "delta": "0.00001", "fpr": "0.05"},
    proof_claims=("tradeoff.dp.rr_attains",),
    notes="Returns beta.  A pair is (eps, delta)-DP iff for every test P(S) <= e^eps Q(S) + delta and Q(S^c) <= e^eps "
          "P(S^c) + delta, both directions, i.e. beta >= 1 - delta - e^eps fpr and beta >= e^-eps (1 - delta - fpr); "
          "the curve is attained by the four-point pair of KOV15 (proofs_check tradeoff.dp.rr_attains), so it is "
          "the best f implied.  The proposition's number follows DRS's arXiv text (not checked against a copy).  "
          + _LOWER))

# ------------------------------------------------------------------------------------------ advantages
register(SpecEntry(
    id="tradeoff.gdp.advantage", title="mu-GDP attack advantage 1 - min(fpr + beta) = 2 Phi(mu/2) - 1",
    kind=Kind.CONVERSION, source=Source("DRS22", "Definition 2.5 with the minimum of fpr + G_mu(fpr) at fpr = "
                                        "Phi(-mu/2)", theorem="Definition 2.5"),
    params=("mu",), expr=2 * _Phi(mu / 2) - 1, domain=(mu >= 0,), monotone={"mu": +1}, example={"mu": "1"},
    proof_claims=("tradeoff.advantage.closed_forms",),
    notes="Returns the largest advantage TPR - FPR = 1 - fpr - G_mu(fpr) over tests, the 'advantage' riskcal and "
          "membership-inference audits report (the total variation distance of N(0,1) and N(mu,1)).  " + _UPPER))
register(SpecEntry(
    id="tradeoff.dp.advantage", title="(eps, delta)-DP attack advantage (e^eps - 1 + 2 delta)/(e^eps + 1)",
    kind=Kind.CONVERSION, source=Source("DRS22", "Proposition 2.5, the kink of f_{eps,delta} at fpr = (1 - delta)/"
                                        "(1 + e^eps)", theorem="Proposition 2.5"),
    params=("eps", "delta"), expr=(sp.exp(eps) - 1 + 2 * delta) / (sp.exp(eps) + 1),
    domain=(eps >= 0, delta >= 0, delta <= 1), monotone={"eps": +1, "delta": +1},
    example={"eps": "1", "delta": "0.00001"}, proof_claims=("tradeoff.advantage.closed_forms",),
    notes="Returns max over fpr of 1 - fpr - tradeoff.dp(eps, delta, fpr): the attack advantage (TPR - FPR) an "
          "(eps, delta)-DP guarantee allows.  " + _UPPER))

# ------------------------------------------------------------------------------------------ RDP, one order
register(SpecEntry(
    id="tradeoff.rdp", title="best trade-off curve implied by one RDP point: the lower boundary of the order-alpha "
    "RDP privacy region", kind=Kind.CONVERSION,
    source=Source("ZDW22", "the single-order RDP -> f-DP conversion (the privacy region of one Renyi constraint, "
                  "Appendix F.3), proved optimal by RGCSK26", theorem="Appendix F.3"),
    params=("alpha", "R", "fpr"),
    expr=sp.Piecewise((1, sp.Eq(fpr, 0)), (0, sp.Eq(fpr, 1)), (rdp_tradeoff(alpha, R, fpr), True)),
    domain=(alpha > 1, R >= 0, fpr >= 0, fpr <= 1), monotone={"R": -1, "fpr": -1},
    example={"alpha": "8", "R": "1", "fpr": "0.05"},
    proof_claims=("tradeoff.rdp.region", "tradeoff.rdp.monotone_roots"),
    notes="Returns beta = f_{alpha,R}(fpr) = min{b in [0, 1 - fpr] : K(fpr, 1 - b) <= c and K(1 - b, fpr) <= c}, "
          "c = exp((alpha - 1) R), K(p, q) = p^alpha q^(1-alpha) + (1-p)^alpha (1-q)^(1-alpha): a mechanism that is "
          "(alpha, R)-RDP has D_alpha(P||Q) <= R and D_alpha(Q||P) <= R for every ordered pair of neighbours, the "
          "test's output is a post-processing (Bern(fpr) under P, Bern(1 - beta) under Q), so both Bernoulli "
          "divergences are <= R; conversely the Bernoulli pair (Bern(fpr), Bern(1 - b)) attains any such point "
          "(proofs_check tradeoff.rdp.region).  Each K is convex in b with its minimum 1 at b = 1 - fpr, so each "
          "constraint holds exactly on an interval [b_i, 1 - fpr] and f = max(b_1, b_2), each b_i a certified root "
          "(tradeoff.rdp.monotone_roots).  Zhu, Dong, Wang 2022 state this conversion and conjecture (their "
          "Appendix F.3, as RGCSK26's abstract cites it) that the intersection over orders is optimal; Riess, "
          "Gomez, Calmon, Schnabel, Kaissis 2026 prove it; the 'single-order RDP privacy region' there is defined "
          "with both directions, as here.  Neither text was read beyond abstracts and a topic summary (search "
          "tool), so the statement is the one proofs_check proves.  " + _LOWER))


# ------------------------------------------------------------------------------------------ zCDP
class zcdp_tradeoff(sp.Function):  # noqa: N801  (a sympy function: lower-case like sp.erfc)
    """f_rho(fpr) = sup over alpha > 1 of f_{alpha, alpha rho}(fpr) (rdp_tradeoff at R = alpha rho); opaque: evaluated
    only by the entry's certified evaluator."""

    nargs = 2

    def _eval_is_real(self) -> bool:
        return True


rho = sym("rho")

# Its certified enclosure reaches a relative width of about 1e-8 (the float64 certificate) or 1e-4 (the arb one,
# where the float one does not decide) -- the cells in alpha near the maximizing order must shrink with the slack --
# not any number of digits: like composition.sgm.*, the entry names an opaque certified evaluator
# (SpecEntry.evaluator), reached through dpbounds.enclose(..., rel_tol); a narrower rel_tol than the point allows
# is a CertificationError that names the width reached; golden vectors at fixed points, certified to relative width
# 1e-3 (dpbounds.outputs.golden.OPAQUE_POINTS, field rel_tol).
register(SpecEntry(
    id="tradeoff.zcdp", title="best trade-off curve implied by rho-zCDP: sup over alpha > 1 of the order-alpha RDP "
    "curve at R = alpha rho", kind=Kind.CONVERSION,
    source=Source("ZDW22", "the single-order RDP -> f-DP conversion at every order (Appendix F.3), with rho-zCDP "
                  "= D_alpha <= alpha rho for all alpha > 1 (Bun-Steinke 2016, Definition 1.1), proved optimal by "
                  "RGCSK26", theorem="Appendix F.3"),
    params=("rho", "fpr"),
    expr=sp.Piecewise((1, sp.Eq(fpr, 0)), (0, sp.Eq(fpr, 1)), (zcdp_tradeoff(rho, fpr), True)),
    domain=(rho > 0, fpr >= 0, fpr <= 1), monotone={"rho": -1, "fpr": -1},
    example={"rho": "0.5", "fpr": "0.05"},
    proof_claims=("tradeoff.zcdp.cells", "tradeoff.rdp.region"),
    evaluator="dpbounds.evaluation.tradeoff:enclose_zcdp",
    notes="Returns beta = sup_{alpha > 1} f_{alpha, alpha rho}(fpr): rho-zCDP bounds D_alpha by alpha rho at every "
          "order in both directions, so every order's curve (tradeoff.rdp) is a valid lower bound on the trade-off "
          "curve, and a Bernoulli pair inside every order's region is itself rho-zCDP, so no larger curve is "
          "implied (RGCSK26).  At most tradeoff.gdp at mu = sqrt(2 rho).  Certified by "
          "dpbounds.evaluation.tradeoff.zcdp_enclosure: the lower end is one order's certified curve, the upper end "
          "a Bernoulli pair certified rho-zCDP on a cover of the orders by cells (proofs_check tradeoff.zcdp.cells), "
          "decided in float64 with every rounding bounded (relative width about 1e-8) or, where that does not "
          "decide, in arb (about 1e-4).  " + _LOWER))
