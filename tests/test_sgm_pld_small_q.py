"""The certified PLD bracket where one step's privacy loss is tiny (q 1e-4, sigma 10): the dominated pair's group
check in the split form (sgm_pld._split_coef) and the exact sweep over the bulk of the mass, against a two-step
hockey-stick integral by mpmath quadrature (independent of sgm_pld's grids).  Eps beyond float64's e^709:
tests/test_sgm_pld_large_eps.py."""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import numpy as np
import pytest

from dpbounds.evaluation import sgm_pld as S
from dpbounds.evaluation.enclosure import CertificationError


def two_step_quad(q: float, sigma: float, eps: float) -> tuple:
    """(delta_rem, delta_add) of TWO steps by mpmath quadrature: for the remove pair (P = (1 - q) N(0, s^2) +
    q N(1, s^2), Q = N(0, s^2); loss L(x) = log(1 - q + q e^{(2x - 1)/(2 s^2)}), increasing), H_{e^eps}(P^2 || Q^2)
    = int p(x) [P(Y > y*) - e^{eps - L(x)} Q(Y > y*)] dx with L(y*) = eps - L(x) (y* = -oo when no y has L(y) <=
    eps - L(x)); the add pair swaps P and Q (loss -L, region y < y*, L(y*) = L(x) - eps, empty when there is no
    such y).  Each inner integral is a Gaussian tail, in closed form."""
    ctx = mpmath.MPContext()
    ctx.dps = 30
    s, qq, e = ctx.mpf(sigma), ctx.mpf(q), ctx.mpf(eps)
    s2 = s * s

    def L(x):
        return ctx.log(1 - qq + qq * ctx.exp((2 * x - 1) / (2 * s2)))

    def tail(y, m):            # P(N(m, s^2) > y)
        return ctx.erfc((y - m) / (s * ctx.sqrt(2))) / 2

    def cdf(y, m):
        return ctx.erfc(-(y - m) / (s * ctx.sqrt(2))) / 2

    def ystar(t):              # the y with L(y) = t, or None (every L(y) > t)
        r = (ctx.exp(t) - (1 - qq)) / qq
        return None if r <= 0 else s2 * ctx.log(r) + ctx.mpf(1) / 2

    def p(x):
        return (1 - qq) * ctx.npdf(x, 0, s) + qq * ctx.npdf(x, 1, s)

    def rem_inner(x):
        lx = L(x)
        y = ystar(e - lx)
        if y is None:
            return p(x) * (1 - ctx.exp(e - lx))
        return p(x) * ((1 - qq) * tail(y, 0) + qq * tail(y, 1) - ctx.exp(e - lx) * tail(y, 0))

    def add_inner(x):
        lx = L(x)
        y = ystar(lx - e)
        if y is None:
            return ctx.mpf(0)
        return ctx.npdf(x, 0, s) * (cdf(y, 0) - ctx.exp(e + lx) * ((1 - qq) * cdf(y, 0) + qq * cdf(y, 1)))

    pts = [-14 * s + i * (28 * s + 1) / 16 for i in range(17)]
    return ctx.quad(rem_inner, pts), ctx.quad(add_inner, pts)


@pytest.mark.parametrize("eps", ["0", "0.00001", "0.00004"])
def test_two_steps_at_tiny_loss_contain_the_quadrature(eps):
    """q 1e-4, sigma 10: one step's loss spans about 2e-4, a grid step of 1/2e6 puts a group's surplus far below its
    masses' float width (only the split form decides it); the bracket still contains the integral, and is tight."""
    rem, add = two_step_quad(1e-4, 10, float(eps))
    truth = max(rem, add)
    b = S.bracket(F(1, 10000), F(10), 2, F(1, 2000000))
    lo, hi = b.delta(F(eps))
    assert lo <= truth <= hi, (lo, float(truth), hi)
    assert hi - lo <= 5e-3 * hi


def test_lower_grid_keeps_the_mean_loss_where_the_loss_is_tiny():
    """The dominated one-step grid's mean loss under P (q 1e-4, sigma 10; three grid steps) against the KL divergence
    int p log(p/q) by mpmath quadrature: the grouping may lose a little (a garbling lowers it), but no more than
    h^2 times the loss's spread would allow -- the vectorized pairs lost 3e-10 of 5.03e-11 at h = 1/3029140, which
    k = 1e5 steps turn into a lower end 0.5% below the truth."""
    ctx = mpmath.MPContext()
    ctx.dps = 30
    qq, s = ctx.mpf("1e-4"), ctx.mpf(10)
    p = lambda x: (1 - qq) * ctx.npdf(x, 0, s) + qq * ctx.npdf(x, 1, s)  # noqa: E731
    L = lambda x: ctx.log(1 - qq + qq * ctx.exp((2 * x - 1) / (2 * s * s)))  # noqa: E731
    kl = float(ctx.quad(lambda x: p(x) * L(x), [-150, -50, 0, 50, 150]))
    for n in (2154163, 3029140, 6000000):
        h = F(1, n)
        g = S.step_lower(S.one_step(F(1, 10000), F(10), h, 8.25), "remove")
        loss = (g.off + np.arange(g.m.size)) * float(h) + float(g.origin().mid())
        mean = float(np.sum(g.m * loss))
        assert abs(mean - kl) <= 1e-12, (n, mean, kl)


@pytest.mark.tier("slow")
def test_tiny_loss_at_large_k_reaches_the_width():
    """q 1e-4, sigma 10, k 1e4: certified only to 1.06e-3 before the split-form check and the bulk sweep (finer
    grids made the lower end worse); now within 1e-3."""
    enc = S.enclose_eps({"q": F(1, 10000), "sigma": F(10), "k": 10000, "delta": F(1, 100000)}, 1e-3)
    assert enc.rel_width() <= 1e-3


@pytest.mark.parametrize("far", [False, True])
@pytest.mark.parametrize("upper", [True, False])
def test_delta_bound_by_suffix_sums_against_the_exact_sum(upper, far):
    """delta_bound's value (term by term near eps, suffix sums above it) on the right side of the 50-digit sum
    sum_j m_j (1 - e^{eps - s_j})_+ on random grids, including half a grid of mass 1 below eps (the one-transform
    route's capped masses: they must not enter a sum above eps), and within 1e-9 of it (the lower end not collapsed
    to 0).  ``far``: grids at losses 700 .. 70000, where e^eps and e^{-s} alone leave float range (delta_bound's
    weights relative to a reference loss; tests/test_sgm_pld_large_eps.py)."""
    ctx = mpmath.MPContext()
    ctx.dps = 50
    rng = np.random.default_rng(11 + upper + 20 * far)
    for trial in range(8 if far else 12):
        n = int(rng.integers(50, 1500))
        h = F(1, int(rng.integers(20, 500)))
        m = rng.random(n) ** 3 * 10.0 ** rng.uniform(-10, 0, n)
        if trial % 3 == 0:
            m[: n // 2] = 1.0
        if far:
            off = int(float(10.0 ** rng.uniform(np.log10(700), np.log10(70000))) / float(h))
        else:
            off = int(rng.integers(-n // 2, 1))
        g = S.GridPLD(h, off, m, 1e-12 if upper else 0.0, upper)
        w = S.weights(g)
        hm = ctx.mpf(h.numerator) / h.denominator
        for frac in (0.1, 0.5, 0.9):
            e = F(float(max(0.0, (off + frac * n) * float(h))))
            em = ctx.mpf(e.numerator) / e.denominator
            V = ctx.fsum(ctx.mpf(float(m[j])) * max(0, 1 - ctx.exp(em - (off + j) * hm)) for j in range(n)) + g.inf
            got = S.delta_bound(g, w, e)
            assert (got >= V) if upper else (got <= V), (trial, frac, got, V)
            assert abs(got - V) <= 1e-9 * V + (0 if far else 1e-300)
