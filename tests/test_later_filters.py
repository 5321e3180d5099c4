"""The filters proved after the seed papers (spec/later.py, dpbounds.accounting.later_filters): budgets, exact agreement
with the fixed-parameter optimum, certified adaptive validity, and a deliberately broken budget that is caught."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from dpbounds import spec
from dpbounds.accounting.accountants import Decision, make_filter
from dpbounds.exact.gaussian import Policy, gaussian_delta, sqrt_lower, sqrt_upper, two_round_delta


def _mp_gauss_delta(mu, eps, ctx):
    """delta of mu-GDP at eps, written independently (DRS19 Cor. 2.13) with ctx.ncdf."""
    mu, eps = ctx.mpf(mu), ctx.mpf(eps)
    return ctx.ncdf(-eps / mu + mu / 2) - ctx.exp(eps) * ctx.ncdf(-eps / mu - mu / 2)


def _gdp_fixed_optimum(mu: Fraction, eps_g, delta_g) -> int:
    """Largest k with k rounds of mu-GDP (= sqrt(k) mu-GDP exactly) being (eps_g, delta_g)-DP; mpmath at 60 digits,
    bisection on k (independent of dpbounds' B* solver)."""
    ctx = mpmath.mp.clone()
    ctx.dps = 60
    m = ctx.mpf(mu.numerator) / mu.denominator
    ok = lambda k: _mp_gauss_delta(ctx.sqrt(k) * m, ctx.mpf(eps_g), ctx) <= ctx.mpf(delta_g)  # noqa: E731
    lo, hi = 1, 2
    while ok(hi):
        lo, hi = hi, 2 * hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return lo


def _run(f, mus) -> int:
    n = 0
    for m in mus:
        if not f.try_spend_mu(m):
            break
        n += 1
    return n


@pytest.mark.parametrize("mu,eps_g,delta_g", [("0.01", "1", "1e-6"), ("0.05", "0.5", "1e-5"), ("0.003", "2", "1e-9")])
def test_gdp_filter_allows_exactly_the_fixed_parameter_optimum(mu, eps_g, delta_g):
    mu_q = Fraction(mu)
    k_opt = _gdp_fixed_optimum(mu_q, eps_g, delta_g)
    f = make_filter("st22.filter", eps_g=eps_g, delta_g=delta_g)
    assert _run(f, [mu] * (k_opt + 10)) == k_opt


def test_gdp_filter_at_the_issue_workload_is_560_rounds_and_beats_pure_dp_filters():
    f = make_filter("st22.filter", eps_g="1", delta_g="1e-6")
    assert _run(f, ["0.01"] * 1000) == 560  # sqrt(560) 0.01-GDP: delta(1) = 9.947e-7 <= 1e-6 < delta at 561


def test_mixed_stream_halts_when_the_sum_of_squares_would_pass_mu_g_squared():
    f = make_filter("st22.filter", eps_g="1", delta_g="1e-6")
    mu_g2 = 2 * f.budget["B"]
    stream = [Fraction(1, 100), Fraction(3, 100), Fraction(1, 20), Fraction(1, 200)] * 200
    used, n = Fraction(0), 0
    for m in stream:
        d = f.try_spend_mu(m)
        if used + m * m > mu_g2:
            assert d is Decision.HALT
            break
        assert d is Decision.CONT
        used += m * m
        n += 1
    assert 0 < n < len(stream)


def test_try_spend_mu_is_try_spend_with_rho_half_mu_squared():
    a = make_filter("st22.filter", eps_g="1", delta_g="1e-3")
    b = make_filter("st22.filter", eps_g="1", delta_g="1e-3")
    for m in ["0.1", "0.05", "0.2", "0.1", "0.3", "0.01"]:
        q = Fraction(m)
        assert a.try_spend_mu(m) is b.try_spend(rho=q * q / 2)


def test_gdp_budget_is_the_largest_mu_with_the_gaussian_curve_below_delta():
    f = make_filter("st22.filter", eps_g="1", delta_g="1e-6")
    B = f.budget["B"]
    d_at = gaussian_delta(sqrt_upper(2 * B, 200), 1, 256)
    d_above = gaussian_delta(sqrt_lower(2 * B * (1 + Fraction(1, 10**12)), 200), 1, 256)
    from dpbounds.evaluation.numeric import arb_prec, fraction_to_arb
    with arb_prec(256):
        assert d_at <= fraction_to_arb(Fraction(1, 10**6))
        assert d_above > fraction_to_arb(Fraction(1, 10**6))


def test_gdp_filter_refuses_a_budget_above_the_gaussian_b_star_and_other_conversions():
    with pytest.raises(spec.DomainError, match="B"):
        make_filter("st22.filter", eps_g="1", delta_g="1e-6", B="0.03")
    with pytest.raises(spec.DomainError, match="conversion"):
        make_filter("st22.filter", eps_g="1", delta_g="1e-6", conversion="cks20")
    with pytest.raises(spec.DomainError, match="delta_g"):
        make_filter("st22.filter", eps_g="1", delta_g="1")
    f = make_filter("st22.filter", eps_g="1", delta_g="1e-6")
    with pytest.raises(spec.DomainError, match="mu"):
        f.try_spend_mu("-0.1")


def test_gdp_filter_state_round_trip_continues_identically():
    from dpbounds.accounting.later_filters import GDPFilter
    f = make_filter("st22.filter", eps_g="1", delta_g="1e-6")
    for _ in range(300):
        f.try_spend_mu("0.01")
    g = GDPFilter.from_state(f.state())
    assert _run(g, ["0.01"] * 1000) == 260 == _run(f, ["0.01"] * 1000)


# ------------------------------------------------------------------------------ certified adaptive validity


def test_quadrature_of_a_non_adaptive_policy_is_the_exact_gdp_composition():
    mu1, mu2 = Fraction(1, 10), Fraction(1, 5)
    q = two_round_delta(mu1, Policy((), (mu2,)), 1, lambda a, b: True)
    lo = gaussian_delta(sqrt_lower(mu1 * mu1 + mu2 * mu2), 1, 160)
    hi = gaussian_delta(sqrt_upper(mu1 * mu1 + mu2 * mu2), 1, 160)
    assert q.overlaps(lo.union(hi))
    assert q.rad() < 1e-30


def test_quadrature_of_a_halted_second_round_is_one_gaussian_round():
    mu1 = Fraction(3, 10)
    q = two_round_delta(mu1, Policy((), (Fraction(1),)), Fraction(1, 2), lambda a, b: False)
    assert q.overlaps(gaussian_delta(mu1, Fraction(1, 2), 160))


def test_adaptive_two_round_interactions_meet_the_budget_and_a_10_percent_larger_budget_is_caught():
    from dpbounds.proofs_check.claims.later import two_round_report
    ok, _, rows = two_round_report()
    assert ok, rows
    _, caught, bad_rows = two_round_report(Fraction(11, 10))
    assert caught, bad_rows


def test_gdp_claims_hold():
    from dpbounds.proofs_check.core import all_claims, run_claim
    claims = all_claims()
    got = {i: run_claim(claims[i]).verdict for i in spec.get("st22.filter").proof_claims}
    assert got == {"st22.filter.budget_is_gaussian_curve": "proved", "st22.filter.matches_fixed_optimum": "verified",
                   "st22.filter.two_round_adaptive": "verified"}
