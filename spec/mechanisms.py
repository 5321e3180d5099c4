"""Per-round privacy curves of the mechanisms the field's accountants price (not seeds).

* ``mechanisms.sgm.rdp`` -- the Renyi divergence of the Poisson-subsampled Gaussian mechanism (DP-SGD's step), the
  larger of the two directions, through the opaque log-moment :class:`sgm_log_moment` (its defining integral is
  :func:`sgm_log_moment_definition`; dpbounds.exact.sgm encloses it: binomial sum at integer orders, rigorous
  quadrature with proved tail bounds otherwise).
* ``mechanisms.laplace.rdp`` -- the Laplace mechanism's Renyi curve (Mironov 2017).
* ``mechanisms.laplace.delta`` -- the Laplace mechanism's exact privacy curve delta(eps) (derived and proved in
  proofs_check).
"""

from __future__ import annotations

import sympy as sp

from .core import Kind, Source, SpecEntry, register, sym

q, sigma, alpha, b, eps_g = sym("q"), sym("sigma"), sym("alpha"), sym("b"), sym("eps_g")


class sgm_log_moment(sp.Function):  # noqa: N801  (a sympy function: lower-case like sp.erfc)
    """K(q, sigma, s) = log E_{x ~ N(0, sigma^2)}[(1 - q + q exp((2x - 1)/(2 sigma^2)))^s]: the log of the s-th
    moment of the likelihood ratio mu_1/mu_0 of the subsampled Gaussian pair under mu_0 (definition:
    :func:`sgm_log_moment_definition`).  Opaque to sympy; the evaluators call ``dpbounds_eval`` (certified arb
    enclosure and mpmath value, dpbounds.evaluation.sgm)."""

    nargs = 3
    dpbounds_eval = "dpbounds.evaluation.sgm:log_moment"

    def _eval_is_real(self) -> bool:
        return True

    def _eval_evalf(self, prec: int) -> sp.Float | None:
        """sympy's evalf: mpmath quadrature of the definition (a high-precision value, not a certified one)."""
        if not all(a.is_number for a in self.args):
            return None
        import mpmath
        ctx = mpmath.MPContext()
        ctx.prec = prec + 20
        qv, sv, s = (ctx.mpf(sp.Rational(a).p) / sp.Rational(a).q if a.is_Rational else ctx.mpf(str(a.evalf(prec)))
                     for a in self.args)
        if qv == 1:
            return sp.Float((s * s - s) / (2 * sv * sv), mpmath.libmp.prec_to_dps(prec))

        def f(x):  # phi_sigma(x) w(x)^s, written in logs
            u = (2 * x - 1) / (2 * sv * sv)
            return ctx.exp(-x * x / (2 * sv * sv) + s * ctx.log(1 - qv + qv * ctx.exp(u))) / (sv * ctx.sqrt(2 * ctx.pi))
        pts = sorted({ctx.mpf(c) + k * sv for c in (0, s) for k in (-30, -6, 0, 6, 30)})
        return sp.Float(ctx.log(ctx.quad(f, [-ctx.inf] + pts + [ctx.inf])), mpmath.libmp.prec_to_dps(prec))

    def _latex(self, printer) -> str:  # noqa: ANN001  (sympy's printer protocol)
        return r"K_{\mathrm{SGM}}\left(%s\right)" % ", ".join(printer._print(a) for a in self.args)


def sgm_log_moment_definition(q_: sp.Expr, sigma_: sp.Expr, s_: sp.Expr) -> sp.Expr:
    """The defining integral of :class:`sgm_log_moment` (a sympy expression; x is the integration variable)."""
    x = sp.Symbol("x", real=True)
    phi = sp.exp(-x**2 / (2 * sigma_**2)) / (sigma_ * sp.sqrt(2 * sp.pi))
    w = 1 - q_ + q_ * sp.exp((2 * x - 1) / (2 * sigma_**2))
    return sp.log(sp.Integral(phi * w**s_, (x, -sp.oo, sp.oo)))


#: the domain of mechanisms.sgm.rdp: the theorem holds for every q in (0, 1], sigma > 0, alpha > 1; the evaluator's
#: certified range (window search, quadrature effort, binomial sum length) is the box below -- a limit of the
#: implementation, named in every DomainError
SGM_DOMAIN = (q > 0, q <= 1, q >= sp.Rational(1, 10**8), sigma >= sp.Rational(1, 10), sigma <= 10**4, alpha > 1,
              alpha <= 10**4)

register(SpecEntry(
    id="mechanisms.sgm.rdp",
    title="Renyi divergence of the Poisson-subsampled Gaussian mechanism (add/remove, sensitivity 1): "
          "max(D_alpha(mu_1||mu_0), D_alpha(mu_0||mu_1)) = log(A_alpha)/(alpha - 1)",
    kind=Kind.CONVERSION,
    source=Source("MTZ19", "Section 3 (A_alpha, B_alpha; Section 3.3 for log A_alpha, as Opacus and dp_accounting "
                  "cite it)",
                  theorem="Section 3"),
    params=("q", "sigma", "alpha"),
    # max(D_alpha(mu_1||mu_0), D_alpha(mu_0||mu_1)) = K(q, sigma, alpha)/(alpha - 1): the first direction is the
    # larger for every alpha > 1, q in (0, 1], sigma > 0 (MTZ19's A_alpha >= B_alpha, proved in proofs_check
    # mechanisms.sgm.rdp.a_ge_b)
    expr=sgm_log_moment(q, sigma, alpha) / (alpha - 1),
    domain=SGM_DOMAIN, monotone={"q": +1, "sigma": -1, "alpha": +1},
    proof_claims=("mechanisms.sgm.rdp.directions", "mechanisms.sgm.rdp.binomial", "mechanisms.sgm.rdp.tail_bounds",
                  "mechanisms.sgm.rdp.a_ge_b"),
    example={"q": "0.01", "sigma": "1", "alpha": "8"},
    notes="Returns the (alpha, R)-RDP parameter R of one step of the sampled Gaussian mechanism: output f(S) + "
          "N(0, sigma^2) where S includes each record independently with probability q and f has l2-sensitivity 1 "
          "(sigma is the noise multiplier).  Add/remove neighbours reduce to the pair mu_0 = N(0, sigma^2), mu_1 = "
          "(1-q) N(0, sigma^2) + q N(1, sigma^2) (MTZ19 Section 3; proofs_check mechanisms.sgm.rdp.directions), in "
          "both orders: D_alpha(mu_1||mu_0) = K(q, sigma, alpha)/(alpha-1) and D_alpha(mu_0||mu_1) = K(q, sigma, "
          "1-alpha)/(alpha-1) with K = sgm_log_moment, K(q, sigma, s) = log int phi_sigma(x) (1 - q + q e^{(2x-1)/(2 "
          "sigma^2)})^s dx (phi_sigma the N(0, sigma^2) density; K at s = alpha and s = 1 - alpha are the logs of "
          "MTZ19's A_alpha and B_alpha).  The value is the larger, which is always the first: A_alpha >= B_alpha for "
          "every alpha > 1, q in (0, 1], sigma > 0, as MTZ19 state -- proved in proofs_check "
          "(mechanisms.sgm.rdp.a_ge_b: in t = (2x-1)/(2 sigma^2) the law g of t under mu_0 has g(-t) = e^t g(t); "
          "pairing t with -t writes A - B as the integral over t > 0 of [F(P, 1) - F(u, Q)] g(t), u = e^t, P = 1 - q "
          "+ q u, Q = q + (1-q) u, F(a, b) = a^alpha b^(1-alpha) - a^(1-alpha) b^alpha; (u, Q) = (P + d, 1 + d) with "
          "d = (1-q)(u-1) >= 0 and F(a + d, b + d) is nonincreasing in d when a >= b; checked besides at 125 "
          "certified grid points).  Integer alpha: A_alpha = sum_k C(alpha,k) (1-q)^(alpha-k) q^k exp((k^2-k)/(2 "
          "sigma^2)) exactly (proofs_check mechanisms.sgm.rdp.binomial); fractional orders: rigorous "
          "quadrature (arb) of the defining integral with the tails beyond the window bounded analytically "
          "(proofs_check mechanisms.sgm.rdp.tail_bounds).  q = 1 gives alpha/(2 sigma^2) exactly.  Domain: the "
          "result holds for all q in (0, 1], sigma > 0, alpha > 1; the certified evaluator is offered on q >= "
          "1e-8, 1/10 <= sigma <= 1e4, alpha <= 1e4 (a limit of the implementation, not of the theorem)."))

# ------------------------------------------------------------------------------------------ Laplace
#: Mironov's formula as printed (Table II's Laplace row), in 1/b
LAPLACE_RDP_PAPER = sp.log(alpha / (2 * alpha - 1) * sp.exp((alpha - 1) / b)
                           + (alpha - 1) / (2 * alpha - 1) * sp.exp(-alpha / b)) / (alpha - 1)
# the same value with e^{(alpha-1)/b} factored out (proofs_check mechanisms.laplace.rdp.from_definition): no
# overflow for large alpha/b, log(1 + y) and e^y - 1 evaluated as log1p and expm1
_laplace_rdp = 1 / b + sp.log(1 + (alpha - 1) * (sp.exp(-(2 * alpha - 1) / b) - 1) / (2 * alpha - 1)) / (alpha - 1)

register(SpecEntry(
    id="mechanisms.laplace.rdp",
    title="Renyi divergence of the Laplace mechanism: log(alpha/(2 alpha-1) e^{(alpha-1)/b} + (alpha-1)/(2 alpha-1) "
          "e^{-alpha/b})/(alpha-1)",
    kind=Kind.CONVERSION,
    source=Source("Mir17", "Table II (the Laplace mechanism's row; the Proposition dp_accounting cites as "
                  "'Proposition 6 of Mironov (2017)')", theorem="Table II"),
    params=("b", "alpha"), expr=_laplace_rdp, domain=(b > 0, alpha > 1),
    monotone={"b": -1, "alpha": +1},
    proof_claims=("mechanisms.laplace.rdp.from_definition",), example={"b": "1", "alpha": "2"},
    notes="Returns R with the Laplace mechanism (output f(D) + Lap(b), l1-sensitivity 1; b is the scale per unit "
          "sensitivity) (alpha, R)-RDP, exactly: R = D_alpha(Lap(0, b) || Lap(1, b)), the same in both directions "
          "(the reflection x -> 1 - x swaps the pair).  Written as 1/b + log(1 + (alpha-1)(e^{-(2alpha-1)/b} - "
          "1)/(2alpha-1))/(alpha-1), equal to Mironov's printed form (LAPLACE_RDP_PAPER) -- proofs_check "
          "mechanisms.laplace.rdp.from_definition derives both from the defining integral.  Tends to 1/b "
          "(pure 1/b-DP) as alpha -> oo.  Mironov's version and the table/proposition number were not checked "
          "against a copy (dp_accounting's _laplace_rdp cites Proposition 6)."))

register(SpecEntry(
    id="mechanisms.laplace.delta",
    title="exact privacy curve of the Laplace mechanism: delta(eps) = 1 - exp((eps - 1/b)/2) for eps < 1/b, else 0",
    kind=Kind.CONVERSION,
    source=Source("BBG18", "the Laplace mechanism's privacy profile (location in the paper not verified; derived and "
                  "proved in proofs_check mechanisms.laplace.delta.from_definition)", theorem="privacy profile"),
    params=("b", "eps_g"),
    expr=sp.Piecewise((1 - sp.exp((eps_g - 1 / b) / 2), eps_g < 1 / b), (0, True)),
    domain=(b > 0, eps_g >= 0), monotone={"b": -1, "eps_g": -1},
    proof_claims=("mechanisms.laplace.delta.from_definition",), example={"b": "1", "eps_g": "0.5"},
    notes="Returns delta(eps_g) = sup_S P[M(D) in S] - e^eps_g P[M(D') in S] for the Laplace mechanism with scale b "
          "per unit l1-sensitivity: the hockey-stick divergence of Lap(0, b) and Lap(1, b) (symmetric).  The privacy "
          "loss log(p/q)(x) = (|x - 1| - |x|)/b is 1/b for x <= 0, (1 - 2x)/b on [0, 1] and -1/b for x >= 1, so for "
          "0 <= eps < 1/b the optimal set is x < t = (1 - eps b)/2 and delta = (1 - e^{-t/b}/2) - e^eps e^{(t-1)/b}/2 "
          "= 1 - e^{(eps - 1/b)/2}; for eps >= 1/b the mechanism is eps-DP and delta = 0.  Proved from the definition "
          "(sympy integrals) in proofs_check."))
