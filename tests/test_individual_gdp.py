"""Koskela-Tobaben-Honkela's individual GDP filter (spec kth23.individual_filter): the n-individual accountant
against the exact per-individual rule, its budget against an independent mpmath solve, its soundness in float64,
rejoining, and the certified adaptive validity check with a deliberately broken budget that is caught."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpbounds import IndividualGDPFilter, spec
from dpbounds.accounting.accountants import Filter, make_filter
from dpbounds.accounting.filters import GDPFilter

from .test_filters import _gdp_fixed_optimum, _mp_gauss_delta


@settings(max_examples=10)
@given(seed=st.integers(0, 10**6), n=st.integers(1, 10), rounds=st.integers(1, 20))
def test_accountant_matches_the_exact_per_individual_rule(seed, n, rounds):
    rng = np.random.default_rng(seed)
    f = IndividualGDPFilter(n, "1", "1e-3")
    cap = 2 * f.B  # mu_g^2, exact
    spent = [Fraction(0)] * n
    for _ in range(rounds):
        mu = rng.choice([0.0, 0.0625, 0.125, 0.25, 0.375, 0.5], size=n)  # dyadic: exact squares and sums
        active = f.step(mu)
        for i in range(n):
            # the theorem's rule: i takes part iff its own admitted rounds' mu^2 plus this one stay <= mu_g^2;
            # a left-out round counts 0 (and i may rejoin later)
            want = spent[i] + Fraction(mu[i]) ** 2 <= cap
            assert bool(active[i]) == want
            if want:
                spent[i] += Fraction(mu[i]) ** 2


@pytest.mark.parametrize("eps_g,delta_g", [("1", "1e-6"), ("0.5", "1e-5"), ("2", "1e-9")])
def test_budget_is_the_largest_mu_g_with_the_gaussian_curve_below_delta(eps_g, delta_g):
    f = IndividualGDPFilter(2, eps_g, delta_g)
    ctx = mpmath.mp.clone()
    ctx.dps = 60
    mu_g = ctx.sqrt(2 * ctx.mpf(f.B.numerator) / f.B.denominator)
    assert _mp_gauss_delta(mu_g, eps_g, ctx) <= ctx.mpf(delta_g)                  # never overstated
    assert _mp_gauss_delta(mu_g * (1 + ctx.mpf("1e-12")), eps_g, ctx) > ctx.mpf(delta_g)  # and tight


def test_float_decisions_are_sound_and_tight_for_non_dyadic_mu():
    rng = np.random.default_rng(7)
    n = 50
    f = IndividualGDPFilter(n, "1", "1e-6")
    cap = 2 * f.B
    spent = [Fraction(0)] * n
    for _ in range(400):
        mu = rng.uniform(0, 0.05, n)
        active = f.step(mu)
        for i in range(n):
            new = spent[i] + Fraction(mu[i]) ** 2
            if active[i]:
                assert new <= cap  # never CONT where exact arithmetic says HALT
                spent[i] = new
            else:
                assert new > cap * (1 - Fraction(1, 10**12))  # refused only within 1e-12 of the budget


def test_a_left_out_individual_rejoins_when_a_smaller_mu_fits():
    f = IndividualGDPFilter(2, "1", "1e-3")
    mu_g = float(2 * f.B) ** 0.5
    assert f.step([0.9 * mu_g, 0.1]).tolist() == [True, True]
    assert f.step([0.5 * mu_g, 0.1]).tolist() == [False, True]  # 0.81 + 0.25 > 1: left out of this round
    assert f.step([0.4 * mu_g, 0.1]).tolist() == [True, True]   # 0.81 + 0.16 <= 1: rejoins (the refused round cost 0)
    assert f.step([0.2 * mu_g, 0.0]).tolist() == [False, True]  # 0.97 + 0.04 > 1


def test_each_individual_gets_its_own_fixed_parameter_optimum():
    # individuals with constant mu_i per round: i takes part in exactly k_i rounds, the largest k with k rounds of mu_i
    # (sqrt(k) mu_i-GDP exactly) (eps_g, delta_g)-DP -- mpmath bisection, independent of dpbounds
    mus = [Fraction(1, 100), Fraction(1, 50), Fraction(1, 20), Fraction(0)]
    f = IndividualGDPFilter(len(mus), "1", "1e-6")
    counts = np.zeros(len(mus), dtype=int)
    for _ in range(700):
        counts += f.step(np.array([float(m) for m in mus]))
    want = [_gdp_fixed_optimum(m, "1", "1e-6") for m in mus[:3]]
    assert counts[:3].tolist() == want and counts[3] == 700
    assert want[0] == 560  # the workload: the same count as the GDP filter st22.filter


@pytest.mark.tier("slow")
def test_adaptive_interactions_meet_mu_g_gdp_and_a_10_percent_larger_budget_is_caught():
    from dpbounds.proofs_check.claims.filters import individual_gdp_report
    ok, above, rows = individual_gdp_report()
    assert ok and not above, rows
    ok_bad, caught, bad_rows = individual_gdp_report(Fraction(11, 10))
    assert caught and not ok_bad, bad_rows


def test_individual_gdp_claims_hold():
    from dpbounds.proofs_check.core import all_claims, run_claim
    claims = all_claims()
    got = {i: run_claim(claims[i]).verdict for i in spec.get("kth23.individual_filter").proof_claims}
    assert got == {"kth23.individual_filter.reduction": "proved",
                   "kth23.individual_filter.adaptive_quadrature": "verified"}


def test_make_filter_gives_one_individuals_gdp_filter():
    f = make_filter("kth23.individual_filter", eps_g="1", delta_g="1e-6")
    g = make_filter("st22.filter", eps_g="1", delta_g="1e-6")
    assert isinstance(f, GDPFilter) and f.budget["B"] == g.budget["B"] == IndividualGDPFilter(1, "1", "1e-6").B
    k = 0
    while f.try_spend_mu("0.01"):
        k += 1
    assert k == 560
    again = Filter.from_state(make_filter("kth23.individual_filter", eps_g="1", delta_g="1e-6").state())
    assert isinstance(again, GDPFilter) and again.entry.id == "kth23.individual_filter"


def test_bad_input_is_refused():
    with pytest.raises(spec.DomainError):
        IndividualGDPFilter(0, "1", "1e-6")
    with pytest.raises(spec.DomainError):
        IndividualGDPFilter(True, "1", "1e-6")
    with pytest.raises(spec.DomainError):
        IndividualGDPFilter(2, "1", "1")
    with pytest.raises(spec.DomainError, match="B"):
        IndividualGDPFilter(2, "1", "1e-6", B="0.03")  # above B*_gauss(1, 1e-6) ~ 0.028
    with pytest.raises(spec.DomainError, match="B"):
        make_filter("kth23.individual_filter", eps_g="1", delta_g="1e-6", B="0.03")
    f = IndividualGDPFilter(3, "1", "1e-6", B="0.01")
    assert f.B == Fraction(1, 100)
    with pytest.raises(spec.DomainError, match="mu"):
        f.step([0.1, -0.1, 0.1])
    with pytest.raises(spec.DomainError):
        f.step([0.1, 0.1])
    with pytest.raises(spec.DomainError):
        f.step([0.1, float("nan"), 0.1])
    assert f.step(["1e-400", "0.1", "0"]).tolist() == [True, True, True]  # exact decimals, rounded up


def test_report_table_individual_gdp_filter_reaches_each_individuals_optimum():
    from dpbounds.outputs.compare import compare_individual_gdp_table
    headers, rows, _ = compare_individual_gdp_table(quick=True)
    ind = headers.index("individual GDP filter (Koskela-Tobaben-Honkela)")
    for row in rows:
        worst, opt = int(row[1]), int(row[-1])
        assert int(row[ind]) == opt, row
        assert worst <= opt and all(int(v) <= opt for v in row[1:-1]), row
    # each row's optimum, independently: k rounds of c_i 0.05 (mpmath bisection)
    assert [int(r[-1]) for r in rows] == [_gdp_fixed_optimum(Fraction(c) / 20, "1", "1e-6") for c in (1, "1/2", "1/5")]


@settings(max_examples=200)
@given(x=st.floats(min_value=0, max_value=1e300, allow_nan=False, allow_infinity=False))
def test_square_up_is_an_upper_bound_and_exact_when_representable(x):
    from dpbounds.accounting.individual import _square_up
    u = float(_square_up(np.array([x]))[0])
    exact = Fraction(x) ** 2
    assert Fraction(u) >= exact if u != float("inf") else exact > Fraction(1.7e308)
    if 2.0 ** -450 <= x <= 2.0 ** 450 and Fraction(x * x) == exact:
        assert u == x * x  # no needless ulp when the product was exact
    assert u <= np.nextafter(x * x, np.inf)  # at most one ulp above the rounded product
