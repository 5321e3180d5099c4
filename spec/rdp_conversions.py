"""RDP -> (eps, delta)-DP at ONE order, as the accountants write it.

The parameters are the Renyi order ``alpha`` (> 1), the RDP value ``R`` (>= 0: the pair has D_alpha(P||Q) <= R)
and the target ``delta`` (eps forms) or ``eps_g`` (delta forms).  Three conversions, in increasing strength:

* ``conversions.rdp.mironov`` -- Mironov 2017 Proposition 3 (TF Privacy's and Opacus's original formula);
* ``conversions.rdp.cks20`` -- Canonne-Kamath-Steinke 2020 Proposition 12 = Balle et al. 2020 Theorem 21 (what
  dp_accounting, Opacus, autodp and prv_accountant use today);
* ``conversions.rdp.optimal`` -- the smallest eps valid for EVERY pair with D_alpha(P||Q) <= R (Asoodeh, Liao,
  Calmon, Kosut, Sankar 2020, Lemma 1, from the joint range of E_gamma and D_alpha); an implicit value, written as
  an opaque function whose certified evaluator (dpbounds.evaluation.rdp_conversions) encloses it between a
  two-point witness (lower end) and a Lagrange-dual certificate (upper end), both proved in proofs_check
  (``conversions.rdp.optimal.*``).

For every (alpha, R, delta): optimal <= cks20 <= mironov (proofs_check ``conversions.rdp.ordering``).

Clipping conventions of the libraries (checked in their sources through the search tool):
dp_accounting's ``compute_epsilon`` returns ``max(0, min over orders)`` and, when ``delta**2 + expm1(-R) > 0``,
eps = 0 for that order (Bretagnolle-Huber: TV <= sqrt(1 - exp(-KL)), KL <= D_alpha) -- a valid rule that this
module's ``conversions.rdp.optimal`` implies (it is 0 there); it skips orders alpha <= 1.01.  autodp's
``rdp_to_approxdp`` (BBGHS_conversion=True) clips each order's value at 0 (``np.maximum(..., 0)``).  Opacus's
``get_privacy_spent`` writes the same CKS20 expression without clipping.  Clipping at 0 is sound: an (eps, delta)
guarantee with eps < 0 implies (0, delta).  ``conversions.rdp.cks20`` is stated clipped (Max(0, .)).
"""

from __future__ import annotations

import sympy as sp

from .core import Kind, Source, SpecEntry, register, sym

alpha, R, delta, eps_g = sym("alpha"), sym("R"), sym("delta"), sym("eps_g")

_DOMAIN = (alpha > 1, R >= 0, delta > 0, delta < 1)
_DOMAIN_D = (alpha > 1, R >= 0, eps_g >= 0)
_EX = {"alpha": "8", "R": "1", "delta": "0.000001"}
_EX_D = {"alpha": "8", "R": "1", "eps_g": "2.5"}

_CLAIM = ("Claim direction: 'upper' -- eps (or delta) is an upper bound on the privacy loss; a SMALLER value claims "
          "MORE privacy, so a peer's value below the certified lower end of the optimal conversion is an under-report.")


class ImplicitFunction(sp.Function):
    """A spec function with no closed form (a root or an optimum): spec states its definition (the entry's notes,
    proved in proofs_check) and ``dpbounds_eval`` names, as a string resolved at run time, the function ``f(backend,
    args, exact)`` of the reference layer that evaluates it (certified arb balls; mpmath values).  sympy's evalf
    goes through the same mpmath evaluator, so ``expr.evalf()`` gives a number (uncertified, like any evalf)."""

    dpbounds_eval = ""

    def _eval_is_real(self) -> bool:
        return True

    def _eval_evalf(self, prec: int):  # type: ignore[override]
        if not all(a.is_Rational for a in self.args):
            return None
        import importlib
        import types

        import mpmath
        mod, _, name = self.dpbounds_eval.partition(":")
        f = getattr(importlib.import_module(mod), name)  # a string, so spec imports nothing of reference
        ctx = mpmath.MPContext()
        ctx.prec = prec + 30
        vals = [ctx.mpf(int(a.p)) / int(a.q) for a in self.args]
        v = f(types.SimpleNamespace(name="mp", ctx=ctx), vals, None)
        return sp.Float(ctx.nstr(v, int(prec * 0.30103) + 5), int(prec * 0.30103) + 3)


class rdp_optimal_eps(ImplicitFunction):  # noqa: N801  (a sympy function: lower-case like sp.erfc)
    """eps*(alpha, R, delta): the optimal single-order RDP -> DP conversion (module docstring).  Opaque to sympy;
    evaluated by ``dpbounds.evaluation.rdp_conversions`` through the interpreter's ``dpbounds_eval`` dispatch."""

    nargs = 3
    dpbounds_eval = "dpbounds.evaluation.rdp_conversions:opt_eps_backend"


class rdp_optimal_delta(ImplicitFunction):  # noqa: N801
    """delta*(alpha, R, eps) = sup{E_{e^eps}(P||Q) : D_alpha(P||Q) <= R} (module docstring); opaque to sympy."""

    nargs = 3
    dpbounds_eval = "dpbounds.evaluation.rdp_conversions:opt_delta_backend"


class rdp_optimal_r_max(ImplicitFunction):  # noqa: N801
    """R*(alpha, eps, delta) = sup{R >= 0 : delta*(alpha, R, e^eps) <= delta}: the largest order-alpha Renyi budget
    the optimal conversion turns into (eps, delta)-DP (the filters' budget, spec fz21.thm4_3.optimal); opaque."""

    nargs = 3
    dpbounds_eval = "dpbounds.evaluation.rdp_conversions:r_max_backend"


# ------------------------------------------------------------------------------------------ Mironov
register(SpecEntry(
    id="conversions.rdp.mironov", title="(alpha, R)-RDP => (R + log(1/delta)/(alpha - 1), delta)-DP",
    kind=Kind.CONVERSION,
    source=Source("Mir17", "Proposition 3 (From RDP to (eps, delta)-DP; 'Proposition 3 in v3' as dp_accounting "
                  "cites arXiv:1702.07476)", theorem="Proposition 3"),
    params=("alpha", "R", "delta"), expr=R + sp.log(1 / delta) / (alpha - 1), domain=_DOMAIN,
    extra={"delta": delta}, monotone={"R": +1, "delta": -1}, example=_EX,
    same_as=("conversions.mironov", "fz21.fact2_4"), proof_claims=("conversions.rdp.ordering",),
    notes="Returns eps.  The formula of TF Privacy's first RDP accountant ('Basic bound (see "
          "https://arxiv.org/abs/1702.07476 Proposition 3 in v3): eps = min(rdp_vec - log(delta)/(orders_vec - "
          "1))' in dp_accounting's comments) and of Opacus before 2021 (issue pytorch/opacus#157).  Always >= 0, so "
          "no clipping question.  conversions.mironov is this entry at R = alpha rho.  " + _CLAIM))
register(SpecEntry(
    id="conversions.rdp.mironov.delta", title="(alpha, R)-RDP => (eps_g, exp((alpha - 1)(R - eps_g)))-DP",
    kind=Kind.CONVERSION, source=Source("Mir17", "Proposition 3, solved for delta", theorem="Proposition 3"),
    params=("alpha", "R", "eps_g"), expr=sp.exp((alpha - 1) * (R - eps_g)), domain=_DOMAIN_D,
    monotone={"R": +1, "eps_g": -1}, example=_EX_D, proof_claims=("conversions.rdp.ordering",),
    notes="Returns delta for the target eps_g (eps_g is the canonical name of the target epsilon): the delta at "
          "which conversions.rdp.mironov gives exactly eps_g.  May exceed 1 (then vacuous).  " + _CLAIM))

# ------------------------------------------------------------------------------------------ CKS20 = BBGHS20 Thm 21
_cks = R + sp.log((alpha - 1) / alpha) - (sp.log(delta) + sp.log(alpha)) / (alpha - 1)
register(SpecEntry(
    id="conversions.rdp.cks20", title="(alpha, R)-RDP => (max(0, R + log((alpha-1)/alpha) - (log delta + log alpha)"
    "/(alpha - 1)), delta)-DP", kind=Kind.CONVERSION,
    source=Source("CKS20", "Proposition 12 (in v4, as dp_accounting cites it) = BBGHS20 Theorem 21 "
                  "(arXiv:1905.09982v2) = ALCKS20 eq. (20) (in v1)", theorem="Proposition 12"),
    params=("alpha", "R", "delta"), expr=sp.Max(0, _cks), domain=_DOMAIN, extra={"unclipped": _cks},
    monotone={"R": +1, "delta": -1}, example=_EX, same_as=("conversions.cks20",),
    proof_claims=("conversions.rdp.ordering", "conversions.rdp.cks20.via_dual"),
    notes="Returns eps.  dp_accounting's compute_epsilon ('Improved bound from https://arxiv.org/abs/2004.00010 "
          "Proposition 12 (in v4). Also appears in https://arxiv.org/abs/2001.05990 Equation 20 (in v1).'): eps = "
          "r + log1p(-1/a) - log(delta a)/(a - 1), the same expression; Opacus's get_privacy_spent (since PR "
          "pytorch/opacus#167, citing Balle et al. 2020 Theorem 21) and prv_accountant's RDP fallback (PR "
          "microsoft/prv_accountant#16, 'Theorem 21 of arXiv:1905.09982v2') write it too.  Clipped at 0 as "
          "dp_accounting (max(0, .) of the minimum) and autodp (np.maximum(., 0) per order) do; extra 'unclipped' "
          "is the raw expression.  Below conversions.rdp.mironov by (log alpha - (alpha - 1) log(1 - 1/alpha))/"
          "(alpha - 1) > 0.  proofs_check re-derives it as the value of one Lagrange-dual certificate of the "
          "optimal conversion (so it is >= conversions.rdp.optimal; equality at delta = 1/alpha).  " + _CLAIM))
register(SpecEntry(
    id="conversions.rdp.cks20.delta", title="(alpha, R)-RDP => (eps_g, exp((alpha-1)(R - eps_g)) (1 - 1/alpha)^"
    "(alpha-1)/alpha)-DP", kind=Kind.CONVERSION,
    source=Source("CKS20", "Proposition 12 (in v4), solved for delta (dp_accounting's compute_delta)",
                  theorem="Proposition 12"),
    params=("alpha", "R", "eps_g"),
    expr=sp.exp((alpha - 1) * (R - eps_g)) * (1 - 1 / alpha)**(alpha - 1) / alpha, domain=_DOMAIN_D,
    monotone={"R": +1, "eps_g": -1}, example=_EX_D, same_as=("conversions.cks20.delta",),
    proof_claims=("conversions.rdp.ordering", "conversions.rdp.cks20.via_dual"),
    notes="Returns delta at the target eps_g: dp_accounting's compute_delta writes log delta = (a - 1)(r - eps + "
          "log1p(-1/a)) - log(a) (and takes the min with the Bretagnolle-Huber bound 0.5 log1p(-exp(-r)), skipping "
          "orders a <= 1.01).  Solving it for eps gives conversions.rdp.cks20's unclipped expression.  " + _CLAIM))

# ------------------------------------------------------------------------------------------ optimal (ALCKS20)
_OPT_NOTES = (
    "Definition (the value the evaluator encloses): with c = exp((alpha - 1) R) and K(p, q) = p^alpha q^(1-alpha) "
    "+ (1-p)^alpha (1-q)^(1-alpha) (so D_alpha(Bern(p)||Bern(q)) = log K/(alpha - 1)), delta*(gamma) = sup{E_gamma"
    "(P||Q) : D_alpha(P||Q) <= R} = sup{p - gamma q : K(p, q) <= c} (binary pairs suffice: the indicator of {dP > "
    "gamma dQ} is a post-processing, and D_alpha does not increase under it), and eps* = inf{eps >= 0 : "
    "delta*(e^eps) <= delta} = max(0, sup{log((p - delta)/q) : K(p, q) <= c, p > delta}).  Closed form for "
    "delta >= 1/alpha: eps* = max(0, R + log(1 - delta)) (the pair P = point mass, Q(A) = e^-R; CKS20 is tight "
    "there).  Certified enclosure (dpbounds.evaluation.rdp_conversions): lower end = log((p - delta)/q) of a "
    "two-point pair checked feasible in arb; upper end = the eps of a Lagrange-dual certificate: for any mu1 real, "
    "mu2 > 0, mu0 = max over t >= 0 of [(t - gamma)_+ - mu1 t - mu2 t^alpha] (a closed form), delta*(gamma) <= mu0 "
    "+ mu1 + mu2 c (weak duality for the moment problem sup E_Q[(L - gamma)_+], E_Q L = 1, E_Q L^alpha <= c; "
    "proofs_check conversions.rdp.optimal.dual_bound).  One-sided: valid for every pair with D_alpha(P||Q) <= R "
    "alone (e.g. a per-person Renyi bound); a mechanism's RDP bounds both directions, whose optimum can only be "
    "smaller -- it coincides whenever the extremal pair also has D_alpha(Q||P) <= R (the tests check this at the "
    "golden points).  Version and number: 'Lemma 1 of https://arxiv.org/abs/2001.05990v1' as cited by "
    "microsoft/prv_accountant PR #16 ('weaker than the optimal conversion in Lemma 1 ...'); the paper's text was "
    "not read here (only its abstract: 'We derive the optimal differential privacy (DP) parameters of a mechanism "
    "that satisfies a given level of Renyi differential privacy (RDP). Our result is based on the joint range of "
    "two f-divergences'), so the statement above is the one proofs_check proves, not a transcription.")
register(SpecEntry(
    id="conversions.rdp.optimal", title="optimal single-order RDP -> DP: the smallest eps such that every pair with "
    "D_alpha(P||Q) <= R is (eps, delta)-DP", kind=Kind.CONVERSION,
    source=Source("ALCKS20", "Lemma 1 (in v1, as microsoft/prv_accountant cites it): the joint range of E_gamma and "
                  "D_alpha", theorem="Lemma 1"),
    params=("alpha", "R", "delta"), expr=rdp_optimal_eps(alpha, R, delta), domain=_DOMAIN,
    extra={"delta": delta}, monotone={"R": +1, "delta": -1}, example=_EX,
    proof_claims=("conversions.rdp.optimal.binary_reduction", "conversions.rdp.optimal.dual_bound",
                  "conversions.rdp.optimal.witness", "conversions.rdp.ordering"),
    notes="Returns eps (certified enclosure; the float upper end is the one a filter may spend).  " + _OPT_NOTES
          + "  " + _CLAIM))
register(SpecEntry(
    id="conversions.rdp.optimal.delta", title="optimal single-order RDP -> DP, delta form: sup E_{e^eps_g}(P||Q) "
    "over all pairs with D_alpha(P||Q) <= R", kind=Kind.CONVERSION,
    source=Source("ALCKS20", "Lemma 1 (in v1), the privacy profile form", theorem="Lemma 1"),
    params=("alpha", "R", "eps_g"), expr=rdp_optimal_delta(alpha, R, eps_g), domain=_DOMAIN_D,
    monotone={"R": +1, "eps_g": -1}, example=_EX_D,
    proof_claims=("conversions.rdp.optimal.binary_reduction", "conversions.rdp.optimal.dual_bound",
                  "conversions.rdp.optimal.witness", "conversions.rdp.ordering"),
    notes="Returns delta*(e^eps_g) (the delta of the definition in conversions.rdp.optimal's notes; closed form "
          "1 - e^(eps_g - R) for eps_g <= R + log(1 - 1/alpha)); delta* <= 1.  " + _CLAIM))
