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


def _bounded_laplace_loss(t: Fraction, sensitivity: Fraction, diam: Fraction):
    """t + log DC as an arb ball: the pure-DP privacy loss of Laplace noise of scale b = Delta/t conditioned on the
    domain [l, l + diam] (:func:`bounded_laplace_eff_eps`)."""
    from dpbounds.evaluation.numeric import fraction_to_arb
    T = fraction_to_arb(t)
    a = (-T).exp()                                        # e^{-Delta/b}
    c = (-T * fraction_to_arb((diam - sensitivity) / sensitivity)).exp()   # e^{-(diam - Delta)/b}
    return T + ((2 - a - c) / (1 - a * c)).log()


@_named("refs.bounded_laplace_eff_eps", "The largest Delta/b with which Laplace noise of scale b, conditioned on the "
        "domain [l, u] (the bounded-domain Laplace mechanism, Holohan, Antonatos, Braghin, Mac Aonghusa 2018, "
        "arXiv:1808.10410: the output drawn from the Laplace density restricted to [l, u] and renormalised), is pure "
        "eps-DP for queries of sensitivity Delta <= u - l.  Its privacy loss is exactly Delta/b + log DC(b), "
        "DC(b) = (2 - e^{-Delta/b} - e^{-(d - Delta)/b})/(1 - e^{-d/b}), d = u - l: the density ratio at y is "
        "e^{(|y - x'| - |y - x|)/b} C(x')/C(x) with C(x) = 1 - (e^{-(x - l)/b} + e^{-(u - x)/b})/2 the mass the "
        "noise leaves in [l, u]; log C is concave, so log C(x + Delta) - log C(x) is largest at x = l, where y = l "
        "also gives the first factor its sup e^{Delta/b}.  With t = Delta/b, DC = (2 - a - c)/(1 - a c) (a = e^{-t}, "
        "c = e^{-t (d - Delta)/Delta}) has dDC/da = -(1 - c)^2/(1 - a c)^2 < 0 and likewise in c, so t + log DC "
        "increases in t from 0: the sup is one root, certified by bisection in arb.")
def bounded_laplace_eff_eps(eps: Any, sensitivity: Any, lower: Any, upper: Any):
    from dpbounds.evaluation.numeric import arb_prec, fraction_to_arb
    from dpbounds.spec import DomainError
    e, dq, diam = _q(eps), _q(sensitivity), _q(upper) - _q(lower)
    if not (e > 0 and 0 < dq < diam):
        raise DomainError("eps, sensitivity, upper - lower", (eps, sensitivity, diam),
                          "eps > 0, 0 < sensitivity < upper - lower", "refs.bounded_laplace_eff_eps")
    with arb_prec(256):
        lo = e / 2
        for _ in range(2000):  # t + log DC -> 0 as t -> 0: some lo below the root is decided
            if _bounded_laplace_loss(lo, dq, diam) <= fraction_to_arb(e):
                break
            lo /= 2
        return _sup_below(lambda t: _bounded_laplace_loss(t, dq, diam), e, lo, e, "refs.bounded_laplace_eff_eps",
                          rel=Fraction(1, 10 ** 30))


bounded_laplace_eff_eps.cost_class = "opaque"  # type: ignore[attr-defined]  (a certified bisection)

#: the bounded-domain Laplace declarations' domain (lower = 0: the loss depends on upper - lower only), examples and
#: source
BOUNDED_LAPLACE = {"eps": (0.01, 10.0), "sensitivity": (0.01, 1.0), "upper": (1.0, 100.0)}
BOUNDED_LAPLACE_EXAMPLES = ({"eps": 1.0, "sensitivity": 1.0, "upper": 10.0},
                            {"eps": 0.01, "sensitivity": 0.5, "upper": 1.0},
                            {"eps": 5.0, "sensitivity": 0.1, "upper": 100.0})
HOLOHAN18 = ("Holohan, Antonatos, Braghin, Mac Aonghusa 2018, 'The Bounded Laplace Mechanism in Differential "
             "Privacy', arXiv:1808.10410 (version not verified): its Delta C(b); the exact loss derived in "
             "refs.bounded_laplace_eff_eps")


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


# ------------------------------------------------------------------------------------------------ pure-DP worst case

def _rr_kfold_delta_arb(e0: Fraction, k: int, eg: Fraction, d0: Fraction = Fraction(0)):
    """An arb ball holding delta(eg) of k-fold (e0, d0)-DP, exactly (Kairouz, Oh, Viswanath 2015, arXiv:1311.0776v4,
    Thm 3.3 through the RR dominance of their Sec. 2): 1 - (1 - d0)^k (1 - sum_l max(0, C(k, l) (e^{(k-l) e0} -
    e^{eg + l e0})) / (1 + e^{e0})^k).  Term l is positive iff (k - 2l) e0 > eg, decided in exact rationals."""
    from flint import arb

    from dpbounds.evaluation.numeric import fraction_to_arb
    E, G = fraction_to_arb(e0), fraction_to_arb(eg)
    pure = arb(0)
    for l in range(k + 1):
        if (k - 2 * l) * e0 > eg:
            pure += arb(_binom(k, l)) * (((k - l) * E).exp() - (G + l * E).exp())
    pure /= (1 + E.exp()) ** k
    return 1 - (1 - fraction_to_arb(d0)) ** k * (1 - pure)


def _binom(n: int, k: int) -> int:
    from math import comb
    return comb(n, k)


def _sup_below(f, target: Fraction, lo: Fraction, hi: Fraction, what: str, rel: Fraction = Fraction(1, 10 ** 30)):
    """A certified enclosure of sup{x >= lo : f(x) <= target} for f non-decreasing, given f(lo) <= target: ``hi``
    is doubled until f(hi) > target, then the bracket shrinks by the Illinois variant of regula falsi (on the balls'
    midpoints, safeguarded by bisection), each new end decided only where f's arb ball (at 256 bits) is wholly on
    its side of the target.  A point whose ball straddles the target ends the search (the bracket is what was
    decided)."""
    from dpbounds.evaluation.enclosure import CertificationError
    from dpbounds.evaluation.numeric import arb_prec, fraction_to_arb
    with arb_prec(256):
        T = fraction_to_arb(target)

        def side(x):
            v = f(x)
            return (True if v <= T else False if v > T else None), float((v - T).mid())
        s_lo, g_lo = side(lo)
        for _ in range(200):
            s, g_hi = side(hi)
            if s is False:
                break
            if s is None:
                raise CertificationError(f"{what}: the curve at the upper end is too close to the target to tell")
            lo, g_lo, hi = hi, g_hi, 2 * hi
        else:
            raise CertificationError(f"{what}: no upper end found")
        last = 0
        for i in range(400):
            if hi - lo <= rel * hi:
                break
            t = 0.5
            if i % 3 != 2 and g_hi > g_lo and g_lo <= 0 <= g_hi:   # every third step a bisection: a safeguard
                t = min(max(-g_lo / (g_hi - g_lo), 1e-15), 1 - 1e-15)
            mid = lo + (hi - lo) * Fraction(t)
            s, g = side(mid)
            if s is None:
                break
            if s:
                lo, g_lo = mid, g
                if last == 1:
                    g_hi /= 2
                last = 1
            else:
                hi, g_hi = mid, g
                if last == -1:
                    g_lo /= 2
                last = -1
    return _enclosure(lo, hi)


@_named("refs.dlap_parameter_max", "The largest parameter a with which k releases of discrete Laplace noise "
        "(pmf proportional to e^{-a|x|}) on a sensitivity-1 integer query are (eps, delta)-DP.  With sensitivity 1 "
        "the two outcomes of the privacy loss are +-a with the probabilities of binary randomized response at a, so "
        "the mechanism's curve is RR_a's; k-fold: KOV15 Thm 3.3 (arXiv:1311.0776v4) exactly.  Certified bisection "
        "of that increasing curve in a.")
def dlap_parameter_max(k: Any, eps: Any, delta: Any):
    n, e, d = int(_q(k)), _q(eps), _q(delta)
    if n < 1 or e <= 0 or not 0 <= d < 1:
        from dpbounds.spec import DomainError
        raise DomainError("k, eps, delta", (k, eps, delta), "k >= 1, eps > 0, 0 <= delta < 1",
                          "refs.dlap_parameter_max")
    lo = e / n                      # k a <= eps: every term vanishes, delta = 0
    if d == 0:
        return _enclosure(lo, lo)
    return _sup_below(lambda a: _rr_kfold_delta_arb(a, n, e), d, lo, 2 * lo + 1, "refs.dlap_parameter_max")


@_named("refs.adv_comp_eps_per_query", "The largest per-query eps with which k-fold (eps, di)-DP is (E, D)-DP: the "
        "exact optimal composition (Kairouz, Oh, Viswanath 2015, arXiv:1311.0776v4, Thm 3.3 through RR dominance) "
        "delta(E) = 1 - (1 - di)^k (1 - D_pure(eps)), increasing in eps, inverted by certified bisection.")
def adv_comp_eps_per_query(k: Any, eps_total: Any, delta_total: Any, di: Any):
    from dpbounds.spec import DomainError
    n, E, D, d0 = int(_q(k)), _q(eps_total), _q(delta_total), _q(di)
    if n < 1 or E <= 0 or not 0 <= d0 < 1 or not 0 <= D < 1 or 1 - (1 - d0) ** n > D:
        raise DomainError("k, eps_total, delta_total, di", (k, eps_total, delta_total, di),
                          "k >= 1, eps_total > 0, 1 - (1 - di)^k <= delta_total < 1", "refs.adv_comp_eps_per_query")
    lo = E / n                      # k eps <= E: the pure part vanishes
    return _sup_below(lambda x: _rr_kfold_delta_arb(x, n, E, d0), D, lo, 2 * E + 1, "refs.adv_comp_eps_per_query")


def _arb_enclosure(v, what: str):
    from dpbounds.evaluation.enclosure import CertificationError
    from dpbounds.evaluation.numeric import arb_endpoints
    ends = arb_endpoints(v)
    if ends is None:
        raise CertificationError(f"{what}: the ball is not finite")
    return _enclosure(*ends)


@_named("refs.dp_eps_for_delta", "The smallest eps_g with which one (eps, delta0)-DP mechanism is (eps_g, delta)-DP, "
        "exactly: its worst case is (eps, delta0) randomized response (KOV15 arXiv:1311.0776v4, Sec. 2 dominance), "
        "delta(eps_g) = delta0 + (1 - delta0) (e^eps - e^eps_g)/(1 + e^eps) on [0, eps], so eps_g = log(e^eps - "
        "(delta - delta0)/(1 - delta0) (1 + e^eps)), 0 when that is below 0 (and +oo below delta0), in arb.")
def dp_eps_for_delta(eps: Any, delta0: Any, delta: Any):
    from dpbounds.evaluation.enclosure import Enclosure
    from dpbounds.evaluation.numeric import arb_prec, fraction_to_arb
    e, d0, d = _q(eps), _q(delta0), _q(delta)
    if d < d0:
        return Enclosure(lo=None, hi=None, bits=130, pos_inf=True)
    with arb_prec(256):
        E = fraction_to_arb(e).exp()
        inner = E - fraction_to_arb((d - d0) / (1 - d0)) * (1 + E)
        if inner <= 1:
            return _enclosure(Fraction(0), Fraction(0))
        if not inner > 1:
            from dpbounds.evaluation.enclosure import CertificationError
            raise CertificationError("refs.dp_eps_for_delta: eps_g too close to 0 to tell")
        return _arb_enclosure(inner.log(), "refs.dp_eps_for_delta")


@_named("refs.pure_pair_delta", "delta(eps_g) of two pure-DP mechanisms (eps1 and eps2) composed, exactly: their "
        "worst case is RR_eps1 x RR_eps2 (KOV15 arXiv:1311.0776v4, Sec. 2 dominance), whose privacy loss is "
        "s1 eps1 + s2 eps2 (s_i = +-1, + with probability e^eps_i/(1 + e^eps_i)): the sum over the four outcomes of "
        "P(l) max(0, 1 - e^{eps_g - l}), in arb (the sign of each term decided in exact rationals).")
def pure_pair_delta(eps1: Any, eps2: Any, eps_g: Any):
    from dpbounds.evaluation.numeric import arb_prec, fraction_to_arb
    e1, e2, g = _q(eps1), _q(eps2), _q(eps_g)
    with arb_prec(256):
        G = fraction_to_arb(g)
        A1, A2 = fraction_to_arb(e1), fraction_to_arb(e2)
        p1, p2 = A1.exp() / (1 + A1.exp()), A2.exp() / (1 + A2.exp())
        tot = 0
        for s1 in (1, -1):
            for s2 in (1, -1):
                if s1 * e1 + s2 * e2 > g:
                    P = (p1 if s1 > 0 else 1 - p1) * (p2 if s2 > 0 else 1 - p2)
                    tot += P * (1 - (G - s1 * A1 - s2 * A2).exp())
        from flint import arb
        return _arb_enclosure(arb(tot), "refs.pure_pair_delta")


def _sgm1_direction(q: Any, sigma: Any, eps_g: Any, remove: bool):
    """One direction of one Poisson-subsampled Gaussian step, exactly: the hockey-stick divergence at the half-line
    where the (monotone) likelihood ratio exceeds e^eps_g, Phi by arb's erfc; precision raised until 1e-30 relative."""
    from flint import arb

    from dpbounds.evaluation.enclosure import CertificationError
    from dpbounds.evaluation.numeric import arb_endpoints, arb_prec, fraction_to_arb
    qq, s, g = _q(q), _q(sigma), _q(eps_g)
    for bits in (256, 1024, 4096):
        with arb_prec(bits):
            Q, S, G = fraction_to_arb(qq), fraction_to_arb(s), fraction_to_arb(g)
            phi = lambda x: (-x / arb(2).sqrt()).erfc() / 2   # noqa: E731
            if remove:      # P = (1-q) N(0, s^2) + q N(1, s^2), Q = N(0, s^2): P > e^g Q iff z > z*
                z = S * S * ((G.exp() - (1 - Q)) / Q).log() + arb(1) / 2
                v = (1 - Q) * (1 - phi(z / S)) + Q * (1 - phi((z - 1) / S)) - G.exp() * (1 - phi(z / S))
            else:           # P = N(0, s^2), Q = (1-q) N(0, s^2) + q N(1, s^2): P > e^g Q iff z < z*
                t = ((-G).exp() - (1 - Q)) / Q
                if t <= 0:
                    return _enclosure(Fraction(0), Fraction(0))
                if not t > 0:
                    continue
                z = S * S * t.log() + arb(1) / 2
                v = phi(z / S) - G.exp() * ((1 - Q) * phi(z / S) + Q * phi((z - 1) / S))
            ends = arb_endpoints(v)
        if ends is not None and ends[1] - ends[0] <= abs(ends[1]) / 10 ** 30:
            return _enclosure(max(ends[0], Fraction(0)), max(ends[1], Fraction(0)))
    raise CertificationError("refs.sgm1_delta_*: no enclosure within 1e-30 at 4096 bits")


@_named("refs.sgm1_delta_remove", "delta(eps_g) of ONE Poisson-subsampled Gaussian step (sensitivity 1, noise "
        "sigma, rate q) in the remove direction only: H_{e^eps_g}((1-q) N(0, s^2) + q N(1, s^2) || N(0, s^2)) in "
        "closed form at the crossing z* = s^2 log((e^eps_g - 1 + q)/q) + 1/2 (Zhu, Dong, Wang 2022, "
        "arXiv:2106.08567v3, the Poisson-subsampling dominating pair), in arb.")
def sgm1_delta_remove(q: Any, sigma: Any, eps_g: Any):
    return _sgm1_direction(q, sigma, eps_g, True)


@_named("refs.sgm1_delta_add", "delta(eps_g) of ONE Poisson-subsampled Gaussian step in the add direction only: "
        "H_{e^eps_g}(N(0, s^2) || (1-q) N(0, s^2) + q N(1, s^2)), 0 when e^-eps_g <= 1 - q, else in closed form "
        "at z* = s^2 log((e^-eps_g - 1 + q)/q) + 1/2 (Zhu, Dong, Wang 2022, arXiv:2106.08567v3), in arb.")
def sgm1_delta_add(q: Any, sigma: Any, eps_g: Any):
    return _sgm1_direction(q, sigma, eps_g, False)


@_named("refs.dlap_parameter_pure", "The largest parameter a with which discrete Laplace noise (pmf proportional to "
        "e^{-a|x|}) on an integer query of sensitivity Delta, the record Poisson-sampled with probability q, is "
        "pure eps-DP: the privacy loss's largest value is log(1 - q + q e^{a Delta}) (remove; the add direction's "
        "-log(1 - q + q e^{-a Delta}) is smaller), so a = log(1 + (e^eps - 1)/q)/Delta, in arb.")
def dlap_parameter_pure(sensitivity: Any, eps: Any, sampling_prob: Any = 1):
    from dpbounds.evaluation.numeric import arb_prec, fraction_to_arb
    with arb_prec(256):
        E = fraction_to_arb(_q(eps))
        v = (1 + (E.exp() - 1) / fraction_to_arb(_q(sampling_prob))).log() / fraction_to_arb(_q(sensitivity))
        return _arb_enclosure(v, "refs.dlap_parameter_pure")

@_named("refs.rr_rdp", "The Renyi curve of randomized response RR_eps (privacy loss +eps with probability "
        "e^eps/(1 + e^eps), -eps otherwise), the largest of any pure eps-DP pair at every order: the registry's "
        "conversions.rr.rdp, certified.")
def rr_rdp(eps, alpha):
    return _enc("conversions.rr.rdp", eps=_q(eps), alpha=_q(alpha))
