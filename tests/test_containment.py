"""Containment laws among the bounds (each asserted with sound float brackets or certified enclosures)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpbounds.accounting.accountants import make_filter
from dpbounds.accounting.conversions import b_star
from dpbounds.evaluation.evaluate import fast_interval

from .strategies import log_uniform

V_GRID = np.logspace(-6, 4, 400)
ZERO = np.zeros_like(V_GRID)


def lo(id_, **kw):
    return fast_interval(id_, **kw)[0]


def hi(id_, **kw):
    return fast_interval(id_, **kw)[1]


def test_wrrw23_thm2_continues_whenever_rruv16_thm5_1_continues():
    # RRUV16's statistic >= WRRW23's: A >= V/2 and its sqrt term >= sqrt(2 V L) (V from homogeneous eps)
    for eps in (0.001, 0.01, 0.1, 0.5):
        for dg in (1e-9, 1e-6, 1e-3, 0.3):
            k = np.unique(np.logspace(0, 6, 60).astype(int)).astype(float)
            V, A = k * eps**2, k * eps * math.expm1(eps) / 2
            r = lo("rruv16.thm5_1", eps_g=1.0, delta_g=dg, A=A, V=V)
            w = hi("wrrw23.thm2", eps_g=1.0, delta_prime=dg, delta_dprime=0.0, V=V, D=np.zeros_like(V))
            assert np.all(w <= r), (eps, dg)


@settings(max_examples=25)
@given(eps_g=log_uniform(-2, 1), dg=log_uniform(-12, -1), eps=log_uniform(-3, -0.5))
def test_fz21_closed_form_and_wrrw23_thm2_decide_identically(eps_g, dg, eps):
    eg, d, e = f"{eps_g:.6g}", f"{dg:.6g}", f"{eps:.6g}"
    f1 = make_filter("fz21.thm4_7.bs16", eps_g=eg, delta_g=d)
    f2 = make_filter("wrrw23.thm2", eps_g=eg, delta_prime=d, delta_dprime="0")
    for _ in range(400):
        a, b = f1.try_spend(e), f2.try_spend(e)
        assert a == b
        if not a:
            break


@settings(max_examples=10)
@given(eps_g=log_uniform(-1.5, 1), dg=log_uniform(-12, -2))
def test_b_star_containment_bs16_le_cks20_le_gauss(eps_g, dg):
    eg, d = f"{eps_g:.6g}", f"{dg:.6g}"
    b1, b2, b3 = (b_star(eg, d, c) for c in ("bs16", "cks20", "gauss"))
    assert b1.bracket[0] <= b2.bracket[1] and b2.bracket[0] <= b3.bracket[1]
    assert b1.b_star <= b2.b_star <= b3.b_star


@pytest.mark.parametrize("oid,params", [
    ("wrrw23.thm3.filter", {"eps_g": 1.0, "delta_prime": 1e-6, "delta_dprime": 1e-6}),
    ("wrrw23.thm3.mixture", {"gamma": 0.01, "delta_prime": 1e-6, "delta_dprime": 1e-6}),
    ("wrrw23.thm3.stitched", {"v0": 1e-6, "delta_prime": 1e-6, "delta_dprime": 1e-6}),
])
def test_martingale_odometers_dominate_pointwise_advanced_composition(oid, params):
    o = lo(oid, V=V_GRID, D=ZERO, **params)
    curve = hi("wrrw23.thm2", eps_g=1.0, delta_prime=params["delta_prime"], delta_dprime=0.0, V=V_GRID, D=ZERO)
    assert np.all(o >= curve * (1 - 1e-12))


def test_rruv16_odometers_dominate_pointwise_advanced_composition():
    A = V_GRID / 2 * (1 + 1e-3)
    for oid, params in (("rruv16.lemma6_4", {"x": 0.01, "delta_g": 1e-6}), ("rruv16.thm6_5", {"n": 1e6, "delta_g": 1e-6})):
        o = lo(oid, A=A, V=V_GRID, **params)
        curve = hi("wrrw23.thm2", eps_g=1.0, delta_prime=1e-6, delta_dprime=0.0, V=V_GRID, D=ZERO)
        assert np.all(o >= curve), oid


def test_filter_odometer_touches_advanced_composition_at_y_star():
    from dpbounds.evaluation.evaluate import enclose
    y = enclose("wrrw23.thm3.filter", {"eps_g": "1", "delta_prime": "1e-6", "delta_dprime": "1e-6"},
                what="extra.y_star", aggregates={"V": "0", "D": "0"})
    ystar = str((y.lo + y.hi) / 2)
    u = enclose("wrrw23.thm3.filter", {"eps_g": "1", "delta_prime": "1e-6", "delta_dprime": "1e-6"},
                aggregates={"V": ystar, "D": "0"})
    assert abs(float(u.hi) - 1.0) < 1e-12


def test_lifted_bounds_dominate_their_base():
    V = V_GRID
    A = V / 2 * (1 + 1e-3)
    A2 = 4 * A * 1.01  # the lifted aggregates at 2 eps_i: V2 = 4V, A2 >= 4A
    base = hi("rruv16.lemma6_4", x=0.01, delta_g=1e-6, A=A, V=V)
    lifted = lo("rruv16.lemma3_3.odometer.lemma6_4", x=0.01, delta_g=1e-6, delta_dprime=1e-6, A2=A2, V2=4 * V,
                LIFT=np.zeros_like(V))
    assert np.all(lifted >= base)


def test_simplified_stitching_dominates_the_general_form():
    V = np.logspace(-2, 8, 300)
    for d in (1e-9, 1e-3, 0.5):
        simp = lo("howard.stitching.simplified", v0=0.01, delta=d, V=V)
        gen = hi("howard.stitching", eta=2.0, s=1.4, v0=0.01, delta=d, V=V)
        assert np.all(simp >= gen), d
