"""The certified PLD bracket where eps is beyond float64's e^709 (q 0.5, sigma 0.5 and q = 1, sigma 0.5 at large k):
delta_bound's weights taken relative to a reference loss R (e^{eps - R} e^{R - s}).  Checked against mu-GDP's curve in
mpmath at 60 digits (q = 1 is mu-GDP with mu = sqrt(k)/sigma, Dong, Roth, Su 2022, arXiv:1905.02383v3, Cor. 2.13:
delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2); the PLD route forced at q = 1, which the entry points
answer by the closed form), against dp_accounting's pessimistic PLD value at q 0.5.  delta_bound against 50-digit sums far up the loss axis:
tests/test_sgm_pld_small_q.py (test_delta_bound_by_suffix_sums_against_the_exact_sum, far=True)."""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest

from dpbounds.evaluation import sgm_pld as S


def gdp_delta(mu, eps, ctx):
    return ctx.ncdf(-eps / mu + mu / 2) - ctx.exp(eps) * ctx.ncdf(-eps / mu - mu / 2)


def gdp_eps(k: int, sigma: str, delta: str):
    """eps(delta) of mu-GDP, mu = sqrt(k)/sigma, in mpmath at 60 digits (root of the decreasing curve)."""
    ctx = mpmath.MPContext()
    ctx.dps = 60
    mu = ctx.sqrt(k) / ctx.mpf(sigma)
    d = ctx.mpf(delta)
    return ctx.findroot(lambda e: gdp_delta(mu, e, ctx) - d, mu * (mu / 2 + 4))


def pld_eps_at_q_one(sigma: F, k: int, delta: F, rel_tol: float):
    """The PLD bracket's eps(delta) at q = 1 (enclose_eps answers q = 1 by the closed form: the grid route here)."""
    def width(b):
        lo, hi = b.eps(delta, resolution=rel_tol / 64)
        return S._rel(lo, hi), (lo, hi)
    (lo, hi), _ = S._refine(F(1), sigma, k, rel_tol, width, "composition.sgm.eps", delta=float(delta))
    return lo, hi


def test_q_one_grid_bracket_contains_gdp_beyond_e709_coarse():
    """k 300, sigma 0.5 (mu 34.6): eps(1e-5) = 746.797..., past log(float max) = 709.78; one coarse grid (h 1/100)
    encloses both the mpmath eps(1e-5) and delta at eps 750, its lower ends nonzero."""
    truth = gdp_eps(300, "0.5", "1e-5")
    assert truth > 710
    b = S.bracket(F(1), F(1, 2), 300, F(1, 100))
    lo, hi = b.eps(F(1, 100000))
    assert 0 < lo <= truth <= hi, (lo, float(truth), hi)
    assert hi - lo <= 1e-2 * hi
    ctx = mpmath.MPContext()
    ctx.dps = 60
    d_true = gdp_delta(ctx.sqrt(300) / ctx.mpf("0.5"), ctx.mpf(750), ctx)
    dlo, dhi = b.delta(F(750))
    assert 0 < dlo <= d_true <= dhi, (dlo, float(d_true), dhi)


@pytest.mark.tier("slow")
@pytest.mark.parametrize("k", [300, 1000])
def test_q_one_grid_bracket_contains_gdp_beyond_e709(k):
    """k 1000 (mu 63.2): eps(1e-5) = 2268.77 in mpmath; the refined PLD bracket contains it at width <= 1e-3."""
    truth = gdp_eps(k, "0.5", "1e-5")
    lo, hi = pld_eps_at_q_one(F(1, 2), k, F(1, 100000), 1e-3)
    assert lo <= truth <= hi, (lo, float(truth), hi)
    assert hi - lo <= 1e-3 * hi


def _half_q_k1000():
    return S.enclose_eps({"q": F(1, 2), "sigma": F(1, 2), "k": 1000, "delta": F(1, 100000)}, 1e-3)


@pytest.mark.tier("slow")
def test_half_q_small_sigma_k1000_certified_below_dp_accounting():
    """q 0.5, sigma 0.5, k 1e3: eps(1e-5) was refused (about 880, beyond the float weights); now certified within
    1e-3, above 709.78 and at or below the pessimistic PLDAccountant value 878.6177 that dp_accounting 0.6.0 gave at
    its default discretization (pessimistic: an upper bound of the truth by construction, so our lower end, <= the
    truth, is <= it; the live comparison is the peers-tier test below)."""
    enc = _half_q_k1000()
    assert enc.rel_width() <= 1e-3
    assert 709.79 < enc.lo <= F("878.6177")


@pytest.mark.tier("peers")
def test_half_q_small_sigma_k1000_against_dp_accounting_live():
    """The same point against dp_accounting's PLDAccountant run here (default discretization, pessimistic): its
    value is >= the truth >= our lower end, so it lies inside our enclosure or above it, never below."""
    dp_accounting = pytest.importorskip("dp_accounting")
    acc = dp_accounting.pld.PLDAccountant()
    acc.compose(dp_accounting.PoissonSampledDpEvent(0.5, dp_accounting.GaussianDpEvent(0.5)), 1000)
    theirs = acc.get_epsilon(1e-5)
    enc = _half_q_k1000()
    assert enc.lo <= F(theirs), (float(enc.lo), theirs)


@pytest.mark.tier("slow")
@pytest.mark.parametrize("k, lowest, theirs", [(10000, 6164, "7300.6911"), (100000, 64840, "68419.871")])
def test_half_q_small_sigma_large_k_certified(k, lowest, theirs):
    """q 0.5, sigma 0.5, k 1e4 and 1e5: refused before ("beyond the float weights"); certified within 1e-3, above the
    Cantelli bound k m - 3 sqrt(k v) - 1 of the k-fold loss (6164, 64840) and at or below the pessimistic
    PLDAccountant values dp_accounting 0.6.0 gave at its default discretization (7300.6911, 68419.871)."""
    enc = S.enclose_eps({"q": F(1, 2), "sigma": F(1, 2), "k": k, "delta": F(1, 100000)}, 1e-3)
    assert enc.rel_width() <= 1e-3
    assert lowest < enc.lo <= F(theirs), (float(enc.lo), float(enc.hi))
