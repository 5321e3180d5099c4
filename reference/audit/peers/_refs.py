"""Certified references the registry has no id for: Gaussian and Laplace calibration, the exact k-fold (eps, delta)
composition solved for eps, and DP-SGD at q = 1 as a GDP mu and a trade-off curve.  Each is a callable
(**inputs) -> :class:`dpbounds.Enclosure` built from what dpbounds already certifies -- registry curves
(``dpbounds.enclose``) and the Gaussian curve's B* and eps(delta) (:mod:`dpbounds.accounting.conversions`) -- with
arb ball arithmetic and exact rationals; advanced composition is KOV15's exact curve solved in closed form on the
segment that holds the root, in arb.  Outside what a reference covers (q < 1 for the q = 1 references) it raises
:class:`DomainError` (the example is skipped, never judged)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any


#: relative width asked of each certified evaluation
_TOL = Fraction(1, 10 ** 40)


def _q(v: Any) -> Fraction:
    """The exact value of an input (a float is its binary value; a decimal string its decimal value)."""
    return Fraction(v) if isinstance(v, (int, float, Fraction)) else Fraction(str(v))


def _enc(ref_id: str, **params: Any):
    from dpbounds.evaluation.evaluate import enclose
    return enclose(ref_id, params, rel_tol=_TOL)


def _enclosure(lo: Fraction, hi: Fraction):
    from dpbounds.evaluation.enclosure import Enclosure
    return Enclosure(lo=lo, hi=hi, bits=130)


def _named(ref: str, doc: str):
    def wrap(fn):
        fn.__name__ = fn.__qualname__ = ref.split(".")[-1]
        fn.ref_id = ref  # type: ignore[attr-defined]
        fn.__doc__ = doc
        return fn
    return wrap


# ------------------------------------------------------------------------------------------------ Gaussian, Laplace

@_named("refs.gauss_sigma_min", "The smallest sigma with which N(0, sigma^2) noise on sensitivity Delta is "
        "(eps, delta)-DP (Balle, Wang 2018, arXiv:1805.06530v2, Thm 8): Delta/sqrt(2 B*) with B* the largest rho "
        "whose Gaussian curve conversions.gauss.delta meets (eps, delta) (dpbounds.accounting.conversions.b_star, "
        "'gauss': a certified bracket), in arb.")
def gauss_sigma_min(sensitivity: Any, eps: Any, delta: Any):
    from flint import arb

    from dpbounds.accounting.conversions import b_star
    from dpbounds.evaluation.numeric import arb_endpoints, arb_prec, fraction_to_arb
    lo, hi = b_star(_q(eps), _q(delta), "gauss", rel_tol=_TOL).bracket
    d_ = fraction_to_arb(_q(sensitivity))
    with arb_prec(256):   # sigma = Delta/sqrt(2 rho) decreases in rho: the ends swap
        s_lo = arb_endpoints(d_ / (2 * fraction_to_arb(hi)).sqrt())[0]
        s_hi = arb_endpoints(d_ / (2 * fraction_to_arb(lo)).sqrt())[1]
    return _enclosure(s_lo, s_hi)


@_named("refs.gauss_eps_of_sigma", "The smallest eps with which N(0, sigma^2) noise on sensitivity Delta is "
        "(eps, delta)-DP (Balle, Wang 2018, arXiv:1805.06530v2, Thm 8: the Gaussian curve of rho = Delta^2/(2 "
        "sigma^2)), certified (dpbounds.accounting.conversions.eps_of, 'gauss').")
def gauss_eps_of_sigma(sensitivity: Any, sigma: Any, delta: Any):
    from dpbounds.accounting.conversions import eps_of
    return eps_of(_q(sensitivity) ** 2 / (2 * _q(sigma) ** 2), _q(delta), "gauss")


@_named("refs.laplace_scale_min", "The smallest Laplace scale b with which Lap(b) noise on sensitivity Delta is "
        "eps-DP: Delta/eps exactly (Dwork, McSherry, Nissim, Smith 2006; the privacy loss of Lap(b) is at most "
        "Delta/b, with equality attained).")
def laplace_scale_min(sensitivity: Any, eps: Any):
    v = _q(sensitivity) / _q(eps)
    return _enclosure(v, v)


# ------------------------------------------------------------------------------------------------ composition

@_named("refs.adv_comp_eps", "The smallest eps with n-fold (ei, di)-DP being (eps, n di)-DP: the exact optimal "
        "composition (Kairouz, Oh, Viswanath 2015, arXiv:1311.0776v4, Thm 3.3; its pure part is the registry's "
        "conversions.kov15.exact) solved for eps in closed form on the segment holding the root, in arb.")
def adv_comp_eps(n: Any, ei: Any, di: Any):
    """delta(x) = 1 - (1 - di)^n (1 - D(x)), D(x) = sum_l max(0, t_l - e^x s_l) with t_l = C(n, l) p^(n-l) (1-p)^l,
    s_l = C(n, l) p^l (1-p)^(n-l), p = e^ei/(1 + e^ei) (conversions.kov15.exact, divided through by (1 + e^ei)^n).
    Term l is positive iff x < x_l = (n - 2l) ei, so on [x_{L+1}, x_L] D(x) = A_L - e^x B_L (A_L, B_L the partial
    sums of t and s up to L): delta is continuous and decreasing, and delta(x) = T = n di is solved there exactly,
    x = log(((1 - T)/P - 1 + A_L)/B_L) with P = (1 - di)^n.  L is the last index with delta(x_L) <= T (delta(x_L)
    increases with L); a ball that cannot decide a comparison raises CertificationError (the example is skipped)."""
    from flint import arb

    from dpbounds.evaluation.enclosure import CertificationError
    from dpbounds.evaluation.numeric import arb_endpoints, arb_prec, fraction_to_arb
    k, e0, d0 = int(_q(n)), _q(ei), _q(di)
    if k < 1 or not 0 < e0 or not 0 <= d0 < 1:
        from dpbounds.spec import DomainError
        raise DomainError("n, ei, di", (n, ei, di), "n >= 1, ei > 0, 0 <= di < 1", "refs.adv_comp_eps (KOV15 Thm 3.3)")
    with arb_prec(256):
        E = fraction_to_arb(e0)
        T = fraction_to_arb(k * d0)
        P = (1 - fraction_to_arb(d0)) ** k
        p = E.exp() / (1 + E.exp())
        t, s = p ** k, (1 - p) ** k          # t_0, s_0
        rt, rs = (1 - p) / p, p / (1 - p)
        A, B = arb(0), arb(0)
        # delta(x_0) = 1 - P <= n di = T (Bernoulli's inequality): the root is at or below x_0 = n ei
        for L in range(0, k + 1):
            A, B = A + t, B + s                # terms l <= L: delta = 1 - P (1 - A + e^x B) on [x_{L+1}, x_L]
            xb = k - 2 * (L + 1)
            bottom = E * xb if xb > 0 else arb(0)
            above = _lt(T, 1 - P * (1 - A + bottom.exp() * B))   # delta(bottom) > T: the root is in this segment
            if above is None:
                raise CertificationError("refs.adv_comp_eps: delta at a breakpoint is too close to n di to tell")
            if above:
                ends = arb_endpoints((((1 - T) / P - 1 + A) / B).log())
                if ends is None:
                    raise CertificationError("refs.adv_comp_eps: the root's ball is not finite")
                return _enclosure(max(ends[0], Fraction(0)), max(ends[1], Fraction(0)))
            if xb <= 0:                        # delta(0) <= T
                return _enclosure(Fraction(0), Fraction(0))
            t, s = t * rt * (k - L) / (L + 1), s * rs * (k - L) / (L + 1)
    raise CertificationError("refs.adv_comp_eps: no segment holds the root")


def _lt(a, b):
    """a < b for arb balls: True, False, or None when the balls overlap."""
    if a < b:
        return True
    if a >= b:
        return False
    return None


# ------------------------------------------------------------------------------------------------ DP-SGD at q = 1

def _q_one(q: Any, what: str) -> None:
    from dpbounds.spec import DomainError
    if _q(q) != 1:
        raise DomainError("q", q, "q = 1 (this reference covers only the unsubsampled Gaussian)", what)


def _mu_ends(sigma: Any, k: Any) -> tuple[Fraction, Fraction]:
    """Certified rational ends of mu = sqrt(k)/sigma (k steps of N(0, sigma^2) on sensitivity 1 are exactly
    mu-GDP: Dong, Roth, Su 2022, arXiv:1905.02383v3, Cor. 3.3)."""
    from flint import arb

    from dpbounds.evaluation.numeric import arb_endpoints, arb_prec, fraction_to_arb
    with arb_prec(256):
        lo, hi = arb_endpoints(arb(int(_q(k))).sqrt() / fraction_to_arb(_q(sigma)))
    return lo, hi


@_named("refs.sgm_mu", "The exact GDP mu of k steps of the Gaussian mechanism at q = 1: sqrt(k)/sigma (Dong, Roth, "
        "Su 2022, arXiv:1905.02383v3, Cor. 3.3), in arb.")
def sgm_mu(q: Any, sigma: Any, k: Any):
    _q_one(q, "refs.sgm_mu")
    return _enclosure(*_mu_ends(sigma, k))


@_named("refs.sgm_tradeoff", "The type-II error at fpr of k steps of the Gaussian mechanism at q = 1: the registry's "
        "tradeoff.gdp at mu = sqrt(k)/sigma (Dong, Roth, Su 2022, arXiv:1905.02383v3, Cor. 3.3), decreasing in mu: "
        "its enclosures at the two certified ends of mu.")
def sgm_tradeoff(q: Any, sigma: Any, k: Any, fpr: Any):
    _q_one(q, "refs.sgm_tradeoff")
    mu_lo, mu_hi = _mu_ends(sigma, k)
    f = _q(fpr)
    return _enclosure(_enc("tradeoff.gdp", mu=mu_hi, fpr=f).lo, _enc("tradeoff.gdp", mu=mu_lo, fpr=f).hi)


def ref_id(reference: Any) -> str:
    """The id of a reference: the string itself, or a ``_refs`` callable's ``ref_id``."""
    return reference if isinstance(reference, str) else getattr(reference, "ref_id", repr(reference))


@_named("refs.sgm_rdp_k", "k times the certified RDP of one Poisson-subsampled Gaussian step at order alpha "
        "(mechanisms.sgm.rdp, in arb): RDP composes additively (Mironov 2017, arXiv:1702.07476v3, Prop. 1).")
def sgm_rdp_k(q: Any, sigma: Any, k: Any, alpha: Any):
    e = _enc("mechanisms.sgm.rdp", q=q, sigma=sigma, alpha=alpha)
    return _enclosure(e.lo * int(k), e.hi * int(k))


@_named("refs.gauss_rdp", "The Gaussian mechanism's RDP alpha / (2 sigma^2) (sensitivity 1; Mironov 2017, "
        "arXiv:1702.07476v3, Prop. 7): mechanisms.sgm.rdp at q = 1, exactly.")
def gauss_rdp(sigma: Any, alpha: Any):
    return _enc("mechanisms.sgm.rdp", q=1, sigma=sigma, alpha=alpha)


@_named("refs.zcdp_rdp", "The RDP curve of rho-zCDP, rho alpha at every order (Bun, Steinke 2016, "
        "arXiv:1605.02065v1, Def. 1.1), exactly.")
def zcdp_rdp(rho: Any, alpha: Any):
    v = _q(rho) * _q(alpha)
    return _enclosure(v, v)


@_named("refs.gauss_delta_rho", "delta(eps_g) of the Gaussian mechanism with this rho: the least curve any valid "
        "rho-zCDP -> (eps, delta) conversion may report (the Gaussian mechanism is rho-zCDP with equality; "
        "conversions.gauss.delta, BW18 Thm 8).")
def gauss_delta_rho(rho: Any, eps_g: Any):
    return _enc("conversions.gauss.delta", rho=rho, eps_g=eps_g)


@_named("refs.gauss_delta_of_sigma", "The Gaussian mechanism's exact delta(eps_g) at noise sigma, sensitivity 1: "
        "conversions.gauss.delta at rho = 1 / (2 sigma^2) (the binary value of sigma, exactly; BW18 Thm 8).")
def gauss_delta_of_sigma(sigma: Any, eps_g: Any):
    return _enc("conversions.gauss.delta", rho=1 / (2 * _q(sigma) ** 2), eps_g=eps_g)
