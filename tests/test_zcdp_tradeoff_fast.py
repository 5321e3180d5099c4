"""The float64 certificate of tradeoff.zcdp (dpbounds.evaluation.tradeoff.zcdp_fast_ends) against an independent
truth: f_zcdp(x) = sup over alpha > 1 of the order-alpha RDP curve at R = alpha rho, each order's value the largest
of the two roots b of D_alpha(P||Q) = alpha rho between Bern(x) and Bern(1 - b) (both directions), the divergences
typed here from the definition and solved with mpmath at 30 digits (bisection in b, golden-section search over the
order), never through the reference code.  Planted faults: a float estimate below the truth must be refused, and
the same estimate is accepted -- with an enclosure that misses the truth -- once the cell certificate's float bounds
are made optimistic, so the containment assertions can fail."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest

from dpbounds import enclose
from dpbounds.evaluation import tradeoff as T

MP = mpmath.MPContext()
MP.dps = 30


def renyi(a, p, pc, q, qc):
    """D_alpha(Bern(p) || Bern(q)) from the definition (pc = 1 - p, qc = 1 - q, passed apart: 1 - b is not exact)."""
    return MP.log(p**a * q**(1 - a) + pc**a * qc**(1 - a)) / (a - 1)


def b_of_order(a, rho, x):
    """The order-alpha curve at R = alpha rho: the smallest b in [0, 1 - x] with both divergences <= alpha rho
    (each decreases in b on that interval): bisection on the larger of the two."""
    lo, hi = MP.mpf(0), 1 - x
    for _ in range(105):
        m = (lo + hi) / 2
        if max(renyi(a, x, 1 - x, 1 - m, m), renyi(a, 1 - m, m, x, 1 - x)) > a * rho:
            lo = m
        else:
            hi = m
    return hi


def truth(rho, fpr):
    rho, x = MP.mpf(Fraction(rho).numerator) / Fraction(rho).denominator, MP.mpf(fpr)
    grid = [MP.mpf(10) ** (k / 3) for k in range(-18, 25)]        # alpha - 1 from 1e-6 to 1e8
    vals = [b_of_order(1 + t, rho, x) for t in grid]
    k = max(range(len(grid)), key=vals.__getitem__)
    lo, hi = MP.log(grid[max(k - 1, 0)]), MP.log(grid[min(k + 1, len(grid) - 1)])
    g = (MP.sqrt(5) - 1) / 2
    f = lambda t: b_of_order(1 + MP.exp(t), rho, x)  # noqa: E731
    c, d = hi - g * (hi - lo), lo + g * (hi - lo)
    fc, fd = f(c), f(d)
    for _ in range(52):
        if fc >= fd:
            hi, d, fd = d, c, fc
            c = hi - g * (hi - lo)
            fc = f(c)
        else:
            lo, c, fc = c, d, fd
            d = lo + g * (hi - lo)
            fd = f(d)
    return max(fc, fd, max(vals))


def contains(lo, hi, v):
    return MP.mpf(lo.numerator) / lo.denominator <= v <= MP.mpf(hi.numerator) / hi.denominator


FAST = [("0.5", "0.05")]
SLOW = [("5", "1e-4"), ("0.02", "0.3"), ("0.1", "0.01"), ("1e-4", "0.5"), ("2", "0.5"), ("0.5", "0.999"), ("1e-3", "1e-3")]


def _check(rho, fpr):
    ends = T.zcdp_fast_ends(Fraction(rho), Fraction(fpr))
    assert ends is not None, "the float certificate should decide this point"
    lo, hi = ends
    assert (hi - lo) <= Fraction(1, 10**6) * hi
    v = truth(rho, fpr)
    assert contains(lo, hi, v), (float(lo), float(v), float(hi))
    enc = enclose("tradeoff.zcdp", {"rho": rho, "fpr": fpr}, rel_tol=1e-6)
    assert contains(enc.lo, enc.hi, v) and enc.rel_width() <= 1e-6


@pytest.mark.parametrize("rho,fpr", FAST)
def test_fast_enclosure_contains_the_independent_sup(rho, fpr):
    _check(rho, fpr)


@pytest.mark.tier("slow")
@pytest.mark.parametrize("rho,fpr", SLOW)
def test_fast_enclosure_contains_the_independent_sup_more_points(rho, fpr):
    _check(rho, fpr)


def test_a_low_estimate_is_refused_and_an_optimistic_bound_would_be_caught(monkeypatch):
    rho, fpr = "0.5", "0.05"
    v = truth(rho, fpr)
    good = T._zcdp_float_solve
    low = lambda x, r: (lambda s: (s[0] * (1 - 1e-4), s[1], s[2]))(good(x, r))  # noqa: E731
    monkeypatch.setattr(T, "_zcdp_float_solve", low)
    ends = T.zcdp_fast_ends(Fraction(rho), Fraction(fpr))
    assert ends is None or contains(*ends, v)          # the true certificate refuses a b below the sup
    honest = T._logk_upper
    monkeypatch.setattr(T, "_logk_upper", lambda c, beta: honest(c, beta) - 1e-3 * np.abs(honest(c, beta)))
    ends = T.zcdp_fast_ends(Fraction(rho), Fraction(fpr))
    assert ends is not None and not contains(*ends, v)  # an optimistic divergence bound certifies a wrong end


def test_degenerate_points_are_exact():
    assert T.zcdp_enclosure("0.5", "0").lo == 1 and T.zcdp_enclosure("0.5", "1").hi == 0
    assert T.zcdp_enclosure("0", "0.25").lo == Fraction(3, 4)
