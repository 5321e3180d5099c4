"""The certified FFT convolutions of dpbounds.evaluation.fftconv against the exact rational convolution of the same
float inputs, computed here by the definition: every entry inside its bounds, the bounds tight where the masses are,
and the blocked form's error local (a tail entry's bounds scale with the tail's masses, not the bulk's)."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from dpbounds.evaluation import fftconv


def _exact(a, b, j):
    na, nb = len(a), len(b)
    return sum((a[i] * b[j - i] for i in range(max(0, j - nb + 1), min(j, na - 1) + 1)), F(0))


def _inputs(na, nb, seed):
    rng = np.random.default_rng(seed)
    x = np.linspace(-8, 8, na)
    a = np.exp(-x * x / 2) * rng.random(na) ** 3       # masses over about 15 orders of magnitude
    a /= a.sum()
    y = np.linspace(-5, 9, nb)
    b = np.exp(-(y - 1) ** 2) * rng.random(nb)
    b /= b.sum()
    b[::7] = 0.0
    return a, b


@pytest.mark.parametrize("na,nb,s,square", [(100, 77, 16, False), (300, 300, 32, True),
                                            pytest.param(257, 1000, 64, False, marks=pytest.mark.tier("slow")),
                                            (5, 3, 4, False)])
def test_blocked_convolution_contains_the_exact_one(na, nb, s, square):
    a, b = _inputs(na, nb, na + nb)
    if square:
        b = a
    lo, hi = fftconv.blocked_convolution(a, None if square else b, s)
    assert lo.size == hi.size == na + nb - 1
    af, bf = [F(float(v)) for v in a], [F(float(v)) for v in b]
    for j in range(na + nb - 1):
        ex = _exact(af, bf, j)
        assert F(float(lo[j])) <= ex <= F(float(hi[j])), j
        if ex > F(1, 1000):
            assert (F(float(hi[j])) - F(float(lo[j]))) <= ex * F(1, 10 ** 9), j      # tight where mass is


def test_blocked_error_is_local_to_the_masses():
    """A block of masses near 1e-200 far from the bulk: its convolution entries keep bounds of their own size (one
    FFT over the whole array would put an error of about 1e-16 on them)."""
    a = np.zeros(512)
    a[:64] = 1.0 / 64
    a[448:] = 1e-200
    lo, hi = fftconv.blocked_convolution(a, None, 64)
    j = 448 + 450                       # only tail x tail products land here
    af = [F(float(v)) for v in a]
    ex = _exact(af, af, j)
    assert F(float(lo[j])) <= ex <= F(float(hi[j]))
    assert hi[j] < 1e-300
    c, e = fftconv.fft_convolution(a)
    assert e > 1e-20                    # the unblocked bound there is absolute


def test_fft_convolution_contains_the_exact_one():
    a, b = _inputs(700, 900, 11)
    c, e = fftconv.fft_convolution(a, b)
    af, bf = [F(float(v)) for v in a], [F(float(v)) for v in b]
    for j in range(0, 1599, 13):
        assert abs(F(float(c[j])) - _exact(af, bf, j)) <= F(e)


def _exact_power(a, k):
    out = [F(1)]
    for _ in range(k):
        new = [F(0)] * (len(out) + len(a) - 1)
        for i, x in enumerate(out):
            for j, y in enumerate(a):
                new[i + j] += x * y
        out = new
    return out


@pytest.mark.parametrize("na, k, n", [(12, 5, 64), (7, 11, 32), (20, 3, 128)])
def test_cyclic_power_is_within_its_bound_of_the_exact_cyclic_power(na, k, n):
    rng = np.random.default_rng(na + k)
    a = rng.random(na) ** 3
    a[1::4] = 0.0
    a /= a.sum() * 1.01
    c, e = fftconv.cyclic_power(a, k, n)
    exact = _exact_power([F(float(v)) for v in a], k)
    cyc = [F(0)] * n
    for j, v in enumerate(exact):
        cyc[j % n] += v                    # aliased when k (na - 1) + 1 > n
    assert all(abs(F(float(c[j])) - cyc[j]) <= F(e) for j in range(n))
    assert e < 1e-12                       # and the bound is not vacuous


def test_cyclic_power_bound_catches_a_planted_fault():
    a = np.array([0.5, 0.25, 0.125])
    c, e = fftconv.cyclic_power(a, 4, 16)
    exact = _exact_power([F(float(v)) for v in a], 4)
    c[3] += 1e-9                           # a wrong entry is outside [exact - E, exact + E]
    assert abs(F(float(c[3])) - exact[3]) > F(e)
