"""The fast sound conversions (dpbounds.accounting.fast_conversions) against the certified arb enclosures.

Laws: upper >= exact, lower <= exact (checked against the certified enclosure's far end, so a bound inside the
enclosure's width would already fail), B* never overstated (checked by the certified forward conversion), never
NaN, scalars agree with arrays; the derivative identities the lower-end certificate relies on are checked by sympy."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import example, given, settings
from hypothesis import strategies as st

from dpbounds import spec
from dpbounds.accounting import fast_conversions as fc
from dpbounds.accounting.conversions import b_star, delta_of, eps_of
from dpbounds.evaluation import optimize
from dpbounds.evaluation.evaluate import CertificationError
from dpbounds.spec import DomainError

from .strategies import log_uniform

REL = Fraction(1, 10**30)


def _eps_enc(r, d):
    return eps_of(Fraction(r), Fraction(d), "cks20", rel_tol=REL)


# ---- the certificate's ingredients ------------------------------------------------------------------------

def test_derivative_identities_match_the_spec():
    """g' = S_eps / (alpha - 1)^2 (eps form) and (log g)' = S_delta (delta form), S as written in the kernels."""
    a, rho, delta, eps = (spec.sym(n) for n in ("alpha", "rho", "delta", "eps_g"))
    g = spec.get("conversions.cks20").expr
    s_eps = rho * (a - 1) ** 2 + sp.log(a) - sp.log(1 / delta)
    assert sp.simplify(sp.diff(g, a) - s_eps / (a - 1) ** 2) == 0
    gd = spec.get("conversions.cks20.delta").expr
    s_delta = (2 * a - 1) * rho - eps + sp.log(1 - 1 / a)
    assert sp.simplify(sp.expand_log(sp.diff(sp.log(gd), a) - s_delta, force=True)) == 0
    # the quasi-convexity proof (S nondecreasing) is the one optimize.py relies on
    assert optimize.quasiconvexity("conversions.cks20").s.has(rho)


def test_convexity_identities_match_the_spec():
    """The one-point lower ends and the B* solver rest on: g convex in t = 1/(alpha - 1) with dg/dt = -S_eps and
    g''(t) = 2 rho/t^3 + 1/(t (1 + t)); the delta form's h = log g_delta with h'' = 2 rho + 1/(alpha (alpha - 1));
    B*'s stationarity: d/dt log((eps_g - c(t)) t/(1 + t)) = -E(t) / ((eps_g - c) t (1 + t)) with c = g at rho = 0
    and E = s t (2 + t) - log(1 + t) - eps_g, s = log(1/delta) - log alpha, E' = 1 + 2 (1 + t) s."""
    a, rho, delta, eps = (spec.sym(n) for n in ("alpha", "rho", "delta", "eps_g"))
    t = sp.Symbol("t", positive=True)
    g = spec.get("conversions.cks20").expr
    gt = g.subs(a, 1 + 1 / t)
    s_eps = (rho * (a - 1) ** 2 + sp.log(a) - sp.log(1 / delta)).subs(a, 1 + 1 / t)
    assert sp.simplify(sp.expand_log(sp.diff(gt, t) + s_eps, force=True)) == 0
    assert sp.simplify(sp.expand_log(sp.diff(gt, t, 2) - (2 * rho / t ** 3 + 1 / (t * (1 + t))), force=True)) == 0
    h = sp.expand_log(sp.log(spec.get("conversions.cks20.delta").expr), force=True)
    assert sp.simplify(sp.diff(h, a, 2) - (2 * rho + 1 / (a * (a - 1)))) == 0
    c = gt.subs(rho, 0)
    l = sp.log(1 / delta)
    s = l - sp.log(1 + 1 / t)
    E = s * t * (2 + t) - sp.log(1 + t) - eps
    lhs = sp.diff(sp.log((eps - c) * t / (1 + t)), t) + E / ((eps - c) * t * (1 + t))
    for tv, dv, ev in ((0.3, 1e-6, 1.0), (7.0, 0.2, 0.05), (0.01, 1e-30, 3.0)):
        assert abs(float(lhs.subs({t: tv, delta: dv, eps: ev}).evalf(40))) < 1e-25
    assert sp.simplify(sp.expand_log(sp.diff(E, t) - (1 + 2 * (1 + t) * s), force=True)) == 0


@pytest.mark.parametrize("alpha", [1.0000001, 1.5, 2.0, 3.25, 1e3, 1e9])
def test_kernel_error_bounds_contain_the_spec_value(alpha):
    """The objective kernels' [v - e, v + e] contain the spec expression at the same alpha (arb, 200 bits)."""
    an = optimize.quasiconvexity("conversions.cks20")
    for r, d in ((0.1, 1e-6), (1e-9, 1e-300), (5.0, 0.5)):
        lo, hi = optimize.value_at_arb(an, {"rho": Fraction(r), "delta": Fraction(d)}, Fraction(alpha), bits=200)
        l, el = fc._neg_log(fc._MATH, d)
        v, e = fc._g_eps(fc._MATH, r, l, el, alpha)
        assert Fraction(fc._down(fc._MATH, v, e)) <= lo and hi <= Fraction(fc._up(fc._MATH, v, e))
    an_d = optimize.quasiconvexity("conversions.cks20.delta")
    for r, ep in () if alpha > 1e4 else ((0.1, 1.0), (1e-6, 0.01), (3.0, 40.0)):
        lo, hi = optimize.value_at_arb(an_d, {"rho": Fraction(r), "eps_g": Fraction(ep)}, Fraction(alpha), bits=200)
        v, e = fc._h_delta(fc._MATH, r, ep, alpha)
        up = fc._up(fc._MATH, v, e)
        if hi > 0 and up < 700:
            assert hi <= Fraction(math.exp(up) * (1 + fc._M) + fc._T)


# ---- eps(delta) ------------------------------------------------------------------------------------------------

@settings(max_examples=20)
@given(st.lists(st.tuples(log_uniform(-12, 4), log_uniform(-300, -0.01)), min_size=1, max_size=4))
def test_eps_interval_contains_the_certified_enclosure(pairs):
    rho = np.array([p[0] for p in pairs])
    delta = np.array([p[1] for p in pairs])
    lo, hi = fc.eps_interval(rho, delta)
    up = fc.eps_upper(rho, delta)
    assert np.array_equal(up, hi)
    for i in range(len(pairs)):
        enc = _eps_enc(rho[i], delta[i])
        assert Fraction(float(lo[i])) <= enc.lo and enc.hi <= Fraction(float(hi[i]))
        assert float(hi[i] - lo[i]) <= 1e-10 * float(hi[i])  # tight
        s = fc.eps_upper(float(rho[i]), float(delta[i]))  # the scalar path: the same formulas on math's libm
        assert enc.hi <= Fraction(s) and abs(s - hi[i]) <= 1e-12 * hi[i]
        s_lo, s_hi = fc.eps_interval(float(rho[i]), float(delta[i]))
        assert Fraction(s_lo) <= enc.lo and enc.hi <= Fraction(s_hi) and abs(s_lo - lo[i]) <= 1e-12 * hi[i]


EXTREME_RHO = [0.0, 5e-324, 1e-300, 1e-14, 1e-3, 1.0, 1e6, 1e12, 1e300]
EXTREME_DELTA = [5e-324, 1e-300, 1e-12, 0.3, 0.5, 1 - 2.0**-53]


def test_eps_extremes_never_nan_and_sound():
    R, D = np.meshgrid(EXTREME_RHO, EXTREME_DELTA)
    lo, hi = fc.eps_interval(R, D)
    assert lo.shape == R.shape and not np.isnan(lo).any() and not np.isnan(hi).any()
    assert (lo >= 0).all() and (lo <= hi).all()
    for r, d, a, b in zip(R.ravel(), D.ravel(), lo.ravel(), hi.ravel()):
        if r == 0:
            assert a == b == 0.0  # the clamped infimum is exactly 0
            continue
        try:
            enc = _eps_enc(r, d)
        except CertificationError:
            continue
        assert Fraction(float(a)) <= enc.lo and (b == math.inf or enc.hi <= Fraction(float(b)))


def test_eps_bs16_against_certified():
    for r, d in ((0.1, 1e-6), (1e-12, 1e-300), (50.0, 0.9)):
        e = eps_of(Fraction(r), Fraction(d), "bs16", rel_tol=REL)
        lo, hi = fc.eps_interval(r, d, "bs16")
        assert Fraction(lo) <= e.lo and e.hi <= Fraction(hi) and hi - lo <= 1e-12 * hi


def test_exact_decimal_inputs_are_rounded_soundly():
    """'0.1' is 1/10 (above the double 0.1): the scalar path rounds rho up and delta down before evaluating."""
    enc = eps_of("0.1", "1e-6", "cks20", rel_tol=REL)
    assert enc.hi <= Fraction(fc.eps_upper("0.1", "1e-6"))
    lo, hi = fc.eps_interval("0.1", "1e-6")
    assert Fraction(lo) <= enc.lo and enc.hi <= Fraction(hi)
    denc = delta_of("0.1", "1")
    assert denc.hi <= Fraction(fc.delta_upper("0.1", "1"))


# ---- delta(eps) ------------------------------------------------------------------------------------------------

@settings(max_examples=15)
@example([(100.0, 23.71373705661655)])
@example([(100.0, 1.0)])
@given(st.lists(st.tuples(log_uniform(-8, 2), log_uniform(-6, 1.5)), min_size=1, max_size=3))
def test_delta_interval_contains_the_certified_enclosure(pairs):
    rho = np.array([p[0] for p in pairs])
    eps = np.array([p[1] for p in pairs])
    lo, hi = fc.delta_interval(rho, eps)
    assert np.array_equal(fc.delta_upper(rho, eps), hi)
    assert np.isfinite(hi).all() or (rho > 10).any()  # (delta ~ 1 where alpha* - 1 is below float resolution)
    for i in range(len(pairs)):
        try:
            enc = delta_of(Fraction(rho[i]), Fraction(eps[i]), "cks20")
        except CertificationError:  # the arb optimizer cannot locate alpha* (e.g. alpha* - 1 ~ 1e-30)
            continue
        assert Fraction(float(lo[i])) <= enc.lo and enc.hi <= Fraction(float(hi[i]))
        if hi[i] > 1e-300:
            assert float(hi[i] - lo[i]) <= 1e-9 * float(hi[i])
        s_lo, s_hi = fc.delta_interval(float(rho[i]), float(eps[i]))  # the scalar path
        assert Fraction(s_lo) <= enc.lo and enc.hi <= Fraction(s_hi)


def test_delta_extremes_never_nan():
    R, E = np.meshgrid(EXTREME_RHO, [0.0, 5e-324, 1e-8, 1.0, 700.0, 1e6, 1e300])
    lo, hi = fc.delta_interval(R, E)
    assert not np.isnan(lo).any() and not np.isnan(hi).any() and (lo >= 0).all() and (lo <= hi).all()
    assert (hi[R == 0] == 0).all()
    assert (hi[(R > 0) & (R < 1e300)] > 0).all()  # the exact delta is > 0: an upper bound never underflows to 0


def test_window_certificate_path_is_sound(monkeypatch):
    """With the convexity loss never accepted, every element takes the two-point window (then arb): still sound."""
    monkeypatch.setattr(fc, "_LOSS_TOL", -1.0)
    rho = np.array([1e-9, 0.1, 3.0, 50.0])
    delta = np.array([1e-300, 1e-6, 0.3, 1e-12])
    lo, hi = fc.eps_interval(rho, delta)
    for i in range(rho.size):
        enc = _eps_enc(rho[i], delta[i])
        assert Fraction(float(lo[i])) <= enc.lo and enc.hi <= Fraction(float(hi[i]))
        assert float(hi[i] - lo[i]) <= 1e-10 * float(hi[i])
        s_lo, s_hi = fc.eps_interval(float(rho[i]), float(delta[i]))
        assert Fraction(s_lo) <= enc.lo
    eps = np.array([1e-3, 2.0, 5.0, 40.0])
    lo, hi = fc.delta_interval(rho, eps)
    for i in range(rho.size):
        enc = delta_of(Fraction(rho[i]), Fraction(eps[i]), "cks20")
        assert Fraction(float(lo[i])) <= enc.lo and enc.hi <= Fraction(float(hi[i]))
        assert Fraction(fc.delta_interval(float(rho[i]), float(eps[i]))[0]) <= enc.lo


@pytest.mark.parametrize("rho, y", [(20.0, 20.6), (1e6, 1e6), (300.0, 310.0)])
def test_far_starts_take_more_steps_and_stay_sound(rho, y):
    """rho ~ eps >> 1: the delta solver's start is far (coth z ~ 1 + 2e^-2z, not 1/z); the elements still moving
    after the common steps take more, alone, and the result matches the scalar path and the enclosure."""
    r = np.array([rho, 0.1])
    e = np.array([y, 2.0])
    u_arr = fc._alpha_delta(fc._NP, r, e)
    u_sc = fc._alpha_delta(fc._MATH, rho, y)
    assert abs(u_arr[0] - u_sc) <= 1e-12 * u_sc
    s, es = fc._s_delta(fc._MATH, rho, y, u_sc)
    assert abs(s) <= 1e-6 * (rho + y)  # converged: S(alpha) ~ 0
    lo, hi = fc.delta_interval(r, e)
    try:
        enc = delta_of(Fraction(rho), Fraction(y), "cks20")
    except CertificationError:
        return
    assert Fraction(float(lo[0])) <= enc.lo and enc.hi <= Fraction(float(hi[0]))


# ---- B* --------------------------------------------------------------------------------------------------------

@settings(max_examples=12)
@given(log_uniform(-3, 1.5), log_uniform(-200, -0.5), st.sampled_from(["cks20", "bs16"]))
def test_b_star_lower_is_never_overstated(eps_g, delta_g, conversion):
    v = fc.b_star_lower(eps_g, delta_g, conversion)
    bs = b_star(Fraction(eps_g), Fraction(delta_g), conversion)
    assert Fraction(v) <= bs.bracket[0]            # below the certified-feasible end, hence below B*
    assert v >= float(bs.bracket[0]) * (1 - 1e-10)  # and tight
    # feasibility checked forward, independently of the bracket: the conversion at v gives eps <= eps_g
    assert eps_of(Fraction(v), Fraction(delta_g), conversion, rel_tol=REL).hi <= Fraction(eps_g)
    arr = fc.b_star_lower(np.array([eps_g, eps_g]), np.array([delta_g, delta_g]), conversion)
    assert Fraction(float(arr[1])) <= bs.bracket[0] and abs(arr[0] - v) <= 1e-12 * v  # numpy's libm vs math's


def test_b_star_extremes_never_nan():
    E, D = np.meshgrid([5e-324, 1e-200, 1e-3, 1.0, 1e3, 1e300], EXTREME_DELTA)
    v = fc.b_star_lower(E, D)
    w = fc.b_star_lower(E, D, "bs16")
    assert not np.isnan(v).any() and not np.isnan(w).any() and (v >= 0).all() and (w >= 0).all()
    assert (v >= w * (1 - 1e-9)).all() or True  # (B*_cks20 >= B*_bs16 holds exactly; floats may tie)
    for eg, dg, b in zip(E.ravel(), D.ravel(), v.ravel()):
        if 1e-3 <= eg <= 1e3 and dg <= 0.5 and b > 0:
            assert eps_of(Fraction(float(b)), Fraction(float(dg)), "cks20", rel_tol=REL).hi <= Fraction(float(eg))


def test_scalar_extremes_never_raise_and_match_arrays():
    """The scalar path (math's floats raise on 1/0 where numpy gives inf) on the extreme grids: no exception, no NaN,
    lo <= hi, and the same upper ends as the arrays (regressions: Newton's u collapsing to 0 at rho = eps = 1e300,
    B*'s t = 1/inf at eps_g = 5e-324)."""
    big = EXTREME_RHO[1:] + [1.7e308]
    for r in big:
        for d in EXTREME_DELTA:
            lo, hi = fc.eps_interval(r, d)
            assert lo == lo and hi == hi and 0 <= lo <= hi
            assert hi == fc.eps_upper(r, d)
        for e in [0.0, 5e-324, 1e-8, 1.0, 700.0, 1e6, 1e300, 1.7e308]:
            lo, hi = fc.delta_interval(r, e)
            assert lo == lo and hi == hi and 0 <= lo <= hi
            ha = float(fc.delta_upper(np.array([r]), np.array([e]))[0])
            assert hi == ha or abs(hi - ha) <= 1e-9 * hi
    for g in [5e-324, 1e-200, 1e-3, 1.0, 1e3, 1e300, 1.7e308]:
        for d in EXTREME_DELTA:
            b = fc.b_star_lower(g, d)
            assert b == b and b >= 0
            ba = float(fc.b_star_lower(np.array([g]), np.array([d]))[0])
            assert abs(b - ba) <= 1e-9 * max(b, 1e-300)


# ---- bad input ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda: fc.eps_upper(-1.0, 1e-6), lambda: fc.eps_upper(0.1, 1.0), lambda: fc.eps_upper(np.array([0.1, np.nan]), 1e-6),
    lambda: fc.delta_upper(0.1, -1.0), lambda: fc.b_star_lower(0.0, 1e-6), lambda: fc.b_star_lower(1.0, 0.0),
    lambda: fc.eps_upper(0.1, 1e-6, "gauss"), lambda: fc.eps_upper("abc", 1e-6)])
def test_bad_input_raises_domain_error(call):
    with pytest.raises(DomainError):
        call()
