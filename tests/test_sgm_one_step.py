"""One step of DP-SGD (k = 1) at relative width 1e-10: the certified enclosures of composition.sgm.delta / .eps
contain the hockey-stick divergence computed here from its definition by mpmath quadrature (no dpbounds code), and
q = 1 agrees with the mu-GDP closed form (Dong, Roth, Su 2022, Cor. 2.13) evaluated here in mpmath."""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest

import dpbounds


def _hockey_stick(q: str, sigma: str, eps, dps: int = 40, scan: int = 8000) -> mpmath.mpf:
    """max over the two directions of int (p(x) - e^eps r(x))_+ dx, p/r the Poisson-subsampled Gaussian pair
    ((1 - q) N(0, s^2) + q N(1, s^2) vs N(0, s^2), and the reverse), by quadrature split at the sign change of the
    integrand (located on a fine scan, refined by findroot)."""
    ctx = mpmath.MPContext()
    ctx.dps = dps
    s, qq = ctx.mpf(sigma), ctx.mpf(q)
    e = ctx.mpf(eps.numerator) / eps.denominator if isinstance(eps, F) else ctx.mpf(eps)
    E = ctx.exp(e)

    def phi(x, m):
        return ctx.exp(-(x - m) ** 2 / (2 * s * s)) / (s * ctx.sqrt(2 * ctx.pi))

    mix = lambda x: (1 - qq) * phi(x, 0) + qq * phi(x, 1)  # noqa: E731
    g0 = lambda x: phi(x, 0)  # noqa: E731
    best = ctx.mpf(0)
    for p, r in ((mix, g0), (g0, mix)):
        f = lambda x: p(x) - E * r(x)  # noqa: E731,B023
        xs = [ctx.mpf(-40) * s + i * ctx.mpf(80) * s / scan for i in range(scan + 1)]
        vals = [f(x) for x in xs]
        cuts = [ctx.findroot(f, (xs[i] + xs[i + 1]) / 2) for i in range(scan) if (vals[i] > 0) != (vals[i + 1] > 0)]
        pts = [-ctx.inf] + cuts + [ctx.inf]
        tot = ctx.mpf(0)
        for a, b in zip(pts, pts[1:]):
            mid = (a + b) / 2 if ctx.isfinite(a) and ctx.isfinite(b) else (b - 1 if ctx.isfinite(b) else a + 1)
            if f(mid) > 0:
                inner = [a] + [x for x in (ctx.mpf(-10) * s, ctx.mpf(0), ctx.mpf(1), ctx.mpf(10) * s)
                               if a < x < b] + [b]
                tot += ctx.quad(f, inner)
        best = max(best, tot)
    return best


POINTS = [("0.01", "1", "0.5"), ("0.1", "0.8", "1"), ("0.5", "2", "0.1"), ("0.001", "0.6", "0.25"),
          ("0.3", "0.5", "2")]


def test_one_step_delta_small_case():
    """The fast tier's case of the check below: a coarser sign-change scan (the integrand changes sign at most twice)."""
    enc = dpbounds.enclose("composition.sgm.delta", {"q": "0.1", "sigma": "1", "k": 1, "eps_g": "0.5"}, rel_tol=1e-10)
    assert enc.rel_width() <= 1e-10
    truth = _hockey_stick("0.1", "1", F(1, 2), dps=30, scan=400)
    lo, hi = mpmath.mpf(enc.lo.numerator) / enc.lo.denominator, mpmath.mpf(enc.hi.numerator) / enc.hi.denominator
    assert lo * (1 - mpmath.mpf("1e-20")) <= truth <= hi * (1 + mpmath.mpf("1e-20")), (enc, truth)


@pytest.mark.tier("slow")
@pytest.mark.parametrize("q,sigma,eps", POINTS)
def test_one_step_delta_at_1e_10_contains_quadrature(q, sigma, eps):
    enc = dpbounds.enclose("composition.sgm.delta", {"q": q, "sigma": sigma, "k": 1, "eps_g": eps}, rel_tol=1e-10)
    assert enc.rel_width() <= 1e-10
    truth = _hockey_stick(q, sigma, eps)
    assert truth > 0
    lo, hi = mpmath.mpf(enc.lo.numerator) / enc.lo.denominator, mpmath.mpf(enc.hi.numerator) / enc.hi.denominator
    # the quadrature's own error is far below 1e-10 relative at 40 digits; a 1e-25 relative allowance covers it
    assert lo * (1 - mpmath.mpf("1e-25")) <= truth <= hi * (1 + mpmath.mpf("1e-25")), (enc, truth)


@pytest.mark.tier("slow")
@pytest.mark.parametrize("q,sigma,delta", [("0.01", "1", "1e-5"), ("0.2", "0.7", "1e-3")])
def test_one_step_eps_at_1e_10_brackets_quadrature(q, sigma, delta):
    enc = dpbounds.enclose("composition.sgm.eps", {"q": q, "sigma": sigma, "k": 1, "delta": delta}, rel_tol=1e-10)
    assert enc.rel_width() <= 1e-10
    d = mpmath.mpf(delta)
    # delta(.) is decreasing: delta(lo) >= delta >= delta(hi) when [lo, hi] contains eps(delta)
    assert _hockey_stick(q, sigma, enc.lo) >= d >= _hockey_stick(q, sigma, enc.hi)


@pytest.mark.parametrize("sigma,k,eps", [("1", 1, "0.5"), ("2", 9, "1"), ("0.8", 100, "3")])
def test_q_one_matches_the_gdp_closed_form(sigma, k, eps):
    enc = dpbounds.enclose("composition.sgm.delta", {"q": 1, "sigma": sigma, "k": k, "eps_g": eps}, rel_tol=1e-10)
    ctx = mpmath.MPContext()
    ctx.dps = 40
    mu = ctx.sqrt(k) / ctx.mpf(sigma)
    e = ctx.mpf(eps)
    Phi = lambda z: ctx.erfc(-z / ctx.sqrt(2)) / 2  # noqa: E731
    truth = Phi(-e / mu + mu / 2) - ctx.exp(e) * Phi(-e / mu - mu / 2)
    assert enc.rel_width() <= 1e-10
    assert F(enc.lo) <= F(ctx.nstr(truth, 35)) * (1 + F(1, 10 ** 25)) and \
        F(ctx.nstr(truth, 35)) * (1 - F(1, 10 ** 25)) <= F(enc.hi)
