"""The certified vectorized erfc of the fast path (dpbounds.evaluation.np_special), checked against arb's erfc (an
independent implementation, with rigorous error bounds) at 200 bits: every end on the right side, and tight."""

from __future__ import annotations

import math

import numpy as np
import pytest
from flint import arb
from hypothesis import given, settings
from hypothesis import strategies as st

from dpbounds.evaluation import np_special
from dpbounds.evaluation.numeric import arb_prec


def _exact_erfc(x: float):
    with arb_prec(200):
        return arb(x).erfc()


def _check_point(x: float, lo: float, hi: float, tight: bool = True) -> None:
    v = _exact_erfc(x)
    with arb_prec(200):
        # the ball is certainly on the right side, or straddles an end by at most its own radius (erfc(-1e10) =
        # 2 - e^(-1e20) is [2 +- 1e-63] in arb; the end 2.0 is right, the comparison merely undecided)
        assert v.rad() <= abs(v.mid()) * arb(2) ** -150 or v.mid() == 0
        assert not (v < arb(lo)) and not (v > arb(hi)), (x, lo, hi, v)
        assert (arb(lo) <= v or lo == v.mid()) and (v <= arb(hi) or hi == v.mid()), (x, lo, hi, v)
    if tight and lo > 1e-300:
        assert (hi - lo) <= 4e-15 * hi, (x, lo, hi)


# cell edges and centres (x = j/256 +- 1/512), the table's ends, the origin, and signed tiny values
EDGES = sorted({j / 256 + d for j in (-1536, -1, 0, 1, 256, 1000, 6911, 6912) for d in (-1 / 512, 0.0, 1 / 512)}
               | {0.0, -0.0, 5e-324, -5e-324, 1e-300, -1e-300, 2.0 ** -9, -(2.0 ** -9), 2.0 ** -9 - 2.0 ** -62,
                  26.5, 27.0, 27.001953125, 27.01, -6.0, -6.001953125, -6.01, 1e10, -1e10})


@pytest.mark.parametrize("x", EDGES)
def test_erfc_at_cell_edges_and_table_ends(x):
    lo, hi = np_special.erfc_point_bounds(np.array([x]))
    _check_point(x, float(lo[0]), float(hi[0]), tight=-6 <= x <= 26)


@settings(max_examples=200)
@given(x=st.floats(-8.0, 30.0))
def test_erfc_points_bracket_arb(x):
    lo, hi = np_special.erfc_point_bounds(np.array([x]))
    _check_point(x, float(lo[0]), float(hi[0]), tight=-6 <= x <= 26)


@settings(max_examples=100)
@given(a=st.floats(-8.0, 30.0), w=st.floats(0.0, 3.0))
def test_erfc_intervals_bracket_both_ends(a, w):
    b = a + w
    lo, hi = np_special.erfc_interval(np.array([a]), np.array([b]))
    _check_point(b, float(lo[0]), math.inf, tight=False)   # lower end <= erfc(b) = min over [a, b]
    _check_point(a, 0.0, float(hi[0]), tight=False)        # upper end >= erfc(a) = max over [a, b]


def test_erfc_on_large_random_arrays_matches_arb_everywhere():
    rng = np.random.default_rng(7)
    xs = np.concatenate([rng.uniform(-7, 28, 3000), rng.normal(0, 1e-3, 300)])
    lo, hi = np_special.erfc_point_bounds(xs)
    for x, l, h in zip(xs, lo, hi):
        _check_point(float(x), float(l), float(h), tight=-6 <= x <= 26)


def test_erfc_non_finite_inputs_give_the_range_of_erfc_on_the_safe_side():
    lo, hi = np_special.erfc_point_bounds(np.array([np.nan, np.inf, -np.inf]))
    assert not np.isnan(lo).any() and not np.isnan(hi).any()
    assert list(lo) == [0.0, 0.0, 2.0 - 2.0 ** -52] and list(hi)[0] == 2.0 and list(hi)[2] == 2.0
    assert 0.0 < hi[1] < 1e-318                           # erfc(+inf) = 0 <= erfc(27) rounded up


def test_erfc_keeps_shapes_and_scalars():
    lo, hi = np_special.erfc_interval(np.array(0.5), np.array(0.5))
    assert lo.shape == hi.shape == ()
    lo, hi = np_special.erfc_interval(np.zeros((2, 3)), np.array(1.0))
    assert lo.shape == (2, 3)


@pytest.mark.parametrize("width", [0.0, 1e-15, 2.0 ** -11, 2.0 ** -10])
def test_narrow_intervals_one_horner_path_brackets_both_ends(width):
    """All intervals narrow (the one-Horner path with the derivative bound): each end checked against arb."""
    rng = np.random.default_rng(11)
    a = np.concatenate([rng.uniform(-6.0, 27.0, 400), [-6.0, -6.001953125, 0.0, 26.99, 27.0, 27.001953125]])
    b = a + width * (np.abs(a) if width < 1e-10 else 1.0)
    assert (b - a <= np_special._NARROW).all()
    lo, hi = np_special.erfc_interval(a, b)
    for x, y, l, h in zip(a, b, lo, hi):
        _check_point(float(y), float(l), math.inf, tight=False)
        _check_point(float(x), 0.0, float(h), tight=False)
        if width <= 1e-15 and -6 <= x <= 26:
            # still tight: the true variation over [x, y] (|erfc'/erfc| <= 2|x| + 2 there), times at most
            # e^((2|x| + 1)/256) <= 1.3 for the derivative bound taken over the whole cell, plus a few ulps
            assert h - l <= (4e-15 + 1.3 * (2 * abs(x) + 2) * (y - x)) * h, (x, y, l, h)


def test_slope_table_bounds_the_derivative():
    from dpbounds.evaluation.np_special import JMIN, _table
    _, _, _, slope = _table()
    rng = np.random.default_rng(5)
    for i in rng.integers(0, slope.size, 300):
        x0 = (JMIN + int(i)) / 256
        for x in (x0 - 1 / 512, x0, x0 + 3 / 512, min(max(0.0, x0 - 1 / 512), x0 + 3 / 512)):
            with arb_prec(200):
                d = abs(2 / arb.pi().sqrt() * (-arb(x) * arb(x)).exp())
                assert d <= arb(float(slope[i])), (x0, x, slope[i])
