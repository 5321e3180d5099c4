"""Tumult Core's declarations (reference/audit/peers/tmlt_core): their certified references against independent
derivations (direct sums of the noise distributions in mpmath, brute force over allocations), and the reading of
a privacy relation or a budget check as a number, on planted faults and on correct implementations.  No tmlt.core
needed (its calls module imports the peer inside each function; the bisections are plain Python)."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product

import mpmath
import pytest

from dpbounds.audit.peers import tmlt_core as t
from dpbounds.audit.peers.tmlt_core import calls
from dpbounds.testing import check_conversion

CONV = dict(seconds=600, max_examples=60)


def _contains(enc, x, rel=1e-40):
    return enc.lo - abs(enc.lo) * Fraction(rel) <= x <= enc.hi + abs(enc.hi) * Fraction(rel)


@pytest.mark.parametrize("scale, threshold", [(1.5, 5), (1.0, 1), (2.0, 40), (0.5, -2), (10.0, 2), (3.0, 0)])
def test_partition_delta_is_the_release_probability_summed_from_the_pmf(scale, threshold):
    """P(1 + Z >= threshold) for Z two-sided geometric, pmf (1 - p)/(1 + p) p^|z|, summed term by term."""
    mpmath.mp.dps = 50
    p = mpmath.exp(-1 / mpmath.mpf(Fraction(scale).numerator) * Fraction(scale).denominator)
    c = (1 - p) / (1 + p)
    m = threshold - 1
    total = mpmath.nsum(lambda z: c * p ** abs(int(z)), [m, mpmath.inf]) if m >= 0 else (
        mpmath.nsum(lambda z: c * p ** abs(int(z)), [m, -1]) + mpmath.nsum(lambda z: c * p ** int(z), [0, mpmath.inf]))
    enc = t.partition_delta(scale, threshold)
    assert _contains(enc, Fraction(mpmath.nstr(total, 45)), rel=1e-30)


@pytest.mark.parametrize("sigma, d", [(0.7, 1), (1.5, 2), (0.4, 3)])
def test_discrete_gaussian_rho_is_attained_at_order_two(sigma, d):
    """D_alpha(N_Z(d, s^2) || N_Z(0, s^2)) / alpha, summed in mpmath: alpha = 2 gives d^2/(2 s^2) exactly (the
    reference's tightness), a non-integer order at most that (CKS20's bound)."""
    mpmath.mp.dps = 40
    s2 = mpmath.mpf(sigma) ** 2

    def w(x, mu):
        return mpmath.exp(-(x - mu) ** 2 / (2 * s2))
    z = mpmath.nsum(lambda x: w(x, 0), [-mpmath.inf, mpmath.inf])
    rho = t.gauss_rho(sigma, d)

    def d_alpha(a):
        s = mpmath.nsum(lambda x: (w(x, d) / z) ** a * (w(x, 0) / z) ** (1 - a), [-mpmath.inf, mpmath.inf])
        return mpmath.log(s) / (a - 1)
    assert abs(d_alpha(2) / 2 - mpmath.mpf(rho.lo.numerator) / rho.lo.denominator) < mpmath.mpf(10) ** -30
    assert d_alpha(mpmath.mpf(1.5)) / mpmath.mpf(1.5) <= mpmath.mpf(rho.hi.numerator) / rho.hi.denominator


def test_parallel_laplace_eps_is_the_worst_allocation():
    """max over integer splits d_1 + d_2 + d_3 = d of sum d_i / b_i (brute force) = d / min b."""
    for bs, d in (((1.0, 2.0, 3.0), 4), ((5.0, 0.25, 7.0), 3), ((2.0, 2.0, 0.5), 5)):
        best = max(sum(Fraction(di) / Fraction(b) for di, b in zip(split, bs))
                   for split in product(range(d + 1), repeat=3) if sum(split) == d)
        enc = t.laplace_max_eps(*bs, d)
        assert enc.lo == enc.hi == best


def test_sigma_of_rho_gives_back_rho():
    for d, rho in ((1.0, 0.5), (2.0, 0.01), (0.3, 7.0)):
        enc = t.sigma_of_rho(d, rho)
        assert enc.hi - enc.lo < enc.lo * Fraction(1, 10 ** 60)
        mid = (enc.lo + enc.hi) / 2
        assert abs(Fraction(d) ** 2 / (2 * mid * mid) / Fraction(rho) - 1) < Fraction(1, 10 ** 50)


def test_partition_delta_at_the_threshold_edges():
    """threshold 1: P(Z >= 0) = 1/(1 + p); threshold 2: P(Z >= 1) = p/(1 + p) (exact forms, p = e^{-1/alpha})."""
    for scale in (0.5, 1.0, 4.0):
        p = math.exp(-1 / scale)
        assert abs(float(t.partition_delta(scale, 1).lo) - 1 / (1 + p)) < 1e-15
        assert abs(float(t.partition_delta(scale, 2).lo) - p / (1 + p)) < 1e-15


def test_a_relation_is_read_as_its_smallest_accepted_float():
    third = Fraction(1, 3)
    x = calls._smallest_accepted(lambda v: v == math.inf or Fraction(v) >= third)
    assert Fraction(x) >= third and Fraction(math.nextafter(x, 0)) < third
    assert calls._smallest_accepted(lambda v: True) == 0.0
    assert calls._smallest_accepted(lambda v: v == math.inf) == math.inf
    with pytest.raises(ValueError):
        calls._smallest_accepted(lambda v: False)
    for guess in (1e-300, 0.3, x, math.nextafter(x, 0), 0.34, 5.0, 1e300):  # a start only: the same answer
        assert calls._smallest_accepted(lambda v: v == math.inf or Fraction(v) >= third, guess) == x
    y = calls._largest_accepted(lambda v: Fraction(v) <= third, 1.0)
    assert Fraction(y) <= third and Fraction(math.nextafter(y, 1)) > third
    assert calls._largest_accepted(lambda v: False, 1.0) == -1.0


def _relation(factor):
    """A Laplace privacy relation accepting eps >= factor * d_in / scale (and +inf, as tmlt.core's measures do),
    read as the adapter reads one."""
    def fn(scale, d_in):
        eps = factor * Fraction(d_in) / Fraction(scale)
        return calls._smallest_accepted(lambda v: v == math.inf or Fraction(v) >= eps)
    return fn


def test_correct_relation_passes_and_planted_ones_are_found():
    dom = dict(inputs=t.REAL, examples=t.REAL_EX, **CONV)
    assert check_conversion(_relation(Fraction(1)), t.laplace_eps, **dom).verdict == "exact"
    # a relation admitting 1% below the mechanism's loss, and one admitting one float below its largest float <= loss
    assert check_conversion(_relation(Fraction(99, 100)), t.laplace_eps, **dom).verdict == "unsound"

    def one_float_too_far(scale, d_in):
        eps = Fraction(d_in) / Fraction(scale)
        below = float(eps) if Fraction(float(eps)) <= eps else math.nextafter(float(eps), 0)
        return calls._smallest_accepted(lambda v: v >= math.nextafter(below, 0))
    r = check_conversion(one_float_too_far, t.laplace_eps, **dom)
    assert r.verdict in ("unsound", "unsound-rounding"), r.summary()


def test_a_forwarder_that_drops_d_in_is_found():
    """A wrapper answering the wrapped mechanism's eps at d_in 1 whatever d_in (a forwarding slip)."""
    def forgot(scale, d_in):
        return math.nextafter(1 / scale, math.inf)

    def forwards(scale, d_in):
        v = Fraction(d_in) / Fraction(scale)
        f = float(v)
        return f if Fraction(f) >= v else math.nextafter(f, math.inf)
    dom = dict(inputs=t.REAL, examples=t.REAL_EX, **CONV)
    assert check_conversion(forgot, t.laplace_eps, **dom).verdict == "unsound"
    assert check_conversion(forwards, t.laplace_eps, **dom).verdict == "exact"


def test_a_budget_that_lets_too_much_through_is_found():
    """ApproxDPBudget's check read as the largest eps accepted (a lower claim): a check admitting total + 1e-9."""
    dom = dict(inputs={"total_epsilon": (0.5, 10.0), "total_delta": (1e-6, 0.5), "delta": (0.0, 1e-6)}, claim="lower",
               against="cited", seconds=600, max_examples=20)

    def check(slack):
        def fn(total_epsilon, total_delta, delta):
            top = Fraction(total_epsilon) * (1 + slack)
            return calls._largest_accepted(lambda v: Fraction(v) <= top, 2 * total_epsilon + 1)
        return fn
    assert check_conversion(check(Fraction(0)), t.budget_largest_eps, **dom).verdict == "exact"
    assert check_conversion(check(Fraction(1, 10 ** 9)), t.budget_largest_eps, **dom).verdict in (
        "unsound", "formula-departure")


def test_every_declaration_names_a_surface_entry_and_coverage_reaches_40():
    from dpbounds.audit import coverage
    decls = t.declarations()
    cov = coverage.coverage("tmlt_core", [d.function for d in decls])
    assert cov["declared"] >= 40 and cov["public"] == 44
    data = coverage.surface("tmlt_core")
    for d in decls:  # each declaration names at least one entry (no declaration counts for nothing)
        names = coverage._names(d.function)
        assert any(coverage.names_entry(n, e, False) for n in names for e in data), d.function

