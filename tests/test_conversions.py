"""zCDP -> DP conversions and the B* solver: brackets are certified, B* is never overstated."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings

import spec
from reference.conversions import b_star, delta_of, eps_of
from reference.evaluate import enclose

from .strategies import log_uniform


@settings(max_examples=8)
@given(eps_g=log_uniform(-1.5, 1), dg=log_uniform(-12, -2))
def test_b_star_bracket_is_feasible_below_and_infeasible_above(eps_g, dg):
    eg, d = Fraction(f"{eps_g:.6g}"), Fraction(f"{dg:.6g}")
    b = b_star(eg, d, "cks20")
    assert eps_of(b.bracket[0], d, "cks20", rel_tol=Fraction(1, 10**20)).hi <= eg
    assert eps_of(b.bracket[1], d, "cks20", rel_tol=Fraction(1, 10**20)).lo > eg or b.bracket[1] == b.bracket[0]


def test_bs16_b_star_matches_an_independent_50_digit_computation():
    ctx = mpmath.MPContext()
    ctx.dps = 50
    for eg, dg in (("1", "1e-6"), ("0.1", "1e-10"), ("5", "0.01")):
        L = ctx.log(1 / ctx.mpf(dg))
        ref = (ctx.sqrt(L + ctx.mpf(eg)) - ctx.sqrt(L)) ** 2
        b = b_star(eg, dg, "bs16")
        assert ctx.mpf(b.bracket[0].numerator) / b.bracket[0].denominator <= ref
        assert abs(ctx.mpf(b.b_star.numerator) / b.b_star.denominator - ref) < ref * ctx.mpf("1e-25")


def test_gaussian_curve_at_the_bs16_eps_is_below_delta():
    for rho, d in (("0.01", "1e-6"), ("0.5", "1e-3"), ("2", "1e-9")):
        e = eps_of(rho, d, "bs16").hi
        assert delta_of(rho, e, "gauss").hi <= Fraction(d)


def test_cks20_infimum_lower_end_is_below_the_value_at_any_alpha():
    enc = enclose("conversions.cks20", {"rho": "0.1", "delta": "1e-6"}, rel_tol=1e-20)
    for a in ("1.5", "3", "7.9", "8", "12", "100"):
        v = enclose("conversions.cks20", {"rho": "0.1", "delta": "1e-6", "alpha": a}, rel_tol=1e-20)
        assert enc.lo <= v.hi


def test_eps_of_is_monotone_in_rho_and_delta():
    a = eps_of("0.1", "1e-6", "cks20")
    assert eps_of("0.2", "1e-6", "cks20").lo > a.hi
    assert eps_of("0.1", "1e-3", "cks20").hi < a.lo


def test_bad_conversion_inputs_raise_domain_error():
    with pytest.raises(spec.DomainError):
        b_star("1", "1e-6", "renyi")
    with pytest.raises(spec.DomainError):
        eps_of("-1", "1e-6")
    with pytest.raises(spec.DomainError):
        eps_of("0.1", "0", "bs16")
