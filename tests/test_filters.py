"""The filters of spec/filters.py (dpbounds.accounting.filters): budgets, exact agreement
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
    from dpbounds.accounting.filters import GDPFilter
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
    from dpbounds.proofs_check.claims.filters import two_round_report
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


# ------------------------------------------------------------------------------ Lemma 3.3, honestly

import warnings  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from dpbounds.spec.filters import LIFT_IDS  # noqa: E402

_LIFT_BUDGETS = {
    "rruv16.lemma3_3.filter.thm5_1": {"eps_g": "1", "delta_g": "1e-6", "delta_dprime": "1e-3"},
    "rruv16.lemma3_3.filter.thm3_4": {"eps_g": "1", "delta_dprime": "1e-3"},
}


@pytest.mark.parametrize("sid", LIFT_IDS)
def test_every_as_stated_lift_carries_a_caveat_and_its_corrected_twin_does_not(sid):
    assert "refuted" in spec.get(sid).caveat
    c = spec.get(sid + ".corrected")
    assert not c.caveat and "LIFTC" in c.aggregates and "LIFT" not in c.aggregates
    assert c.proof_claims == ("rruv16.lemma2_3.corrected_conversion",)


@pytest.mark.parametrize("sid", sorted(_LIFT_BUDGETS))
def test_using_an_as_stated_lift_warns_and_the_corrected_one_is_silent(sid):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        make_filter(sid, **_LIFT_BUDGETS[sid])
    assert [x.category for x in w] == [spec.RefutedConstantWarning]
    assert sid in str(w[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error", spec.RefutedConstantWarning)
        make_filter(sid + ".corrected", **_LIFT_BUDGETS[sid])


def test_evaluating_an_as_stated_lift_odometer_warns():
    from dpbounds import RefutedConstantWarning, make_odometer
    with pytest.warns(RefutedConstantWarning, match="lemma3_3.odometer.thm3_4"):
        make_odometer("rruv16.lemma3_3.odometer.thm3_4", delta_dprime="1e-3")


def test_cli_prints_one_warning_line_for_an_as_stated_lift(tmp_path, capsys, monkeypatch):
    import io
    from dpbounds.cli import main
    monkeypatch.setattr("sys.stdin", io.StringIO("eps,delta\n0.1,0.00001\n0.1,0.00001\n"))
    rc = main(["filter", "rruv16.lemma3_3.filter.thm3_4", "--budget", "eps_g=1", "--budget", "delta_dprime=0.001"])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 0
    assert len(err) == 1 and err[0].startswith("dpbounds: warning: rruv16.lemma3_3.filter.thm3_4") and "refuted" in err[0]


def _charge(eps: float, delta: float) -> float:
    ctx = mpmath.mp.clone()
    ctx.dps = 40
    e, d = ctx.mpf(eps), ctx.mpf(delta)
    return d * (1 + ctx.exp(-2 * e)) / (1 - ctx.exp(-e))


def test_corrected_lift_charges_the_proved_constant_and_halts_no_later_than_the_stated_one():
    budget = {"eps_g": "5", "delta_dprime": "0.01"}
    rounds = [(0.1, 1e-4), (0.05, 2e-4), (0.2, 1e-4)] * 10
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", spec.RefutedConstantWarning)
        stated = make_filter("rruv16.lemma3_3.filter.thm3_4", **budget)
    corr = make_filter("rruv16.lemma3_3.filter.thm3_4.corrected", **budget)
    n_s = next(i for i, (e, d) in enumerate(rounds) if not stated.try_spend(e, d))
    n_c = next(i for i, (e, d) in enumerate(rounds) if not corr.try_spend(e, d))
    # independent: the corrected filter halts at the first round whose cumulative charge passes delta_dprime
    total, expect = 0, None
    for i, (e, d) in enumerate(rounds):
        total += _charge(e, d)
        if total > 0.01 or sum(2 * x for x, _ in rounds[:i + 1]) > 5:
            expect = i
            break
    assert n_c == expect
    assert n_c <= n_s


@settings(max_examples=40, deadline=None)
@given(w=st.lists(st.tuples(st.integers(1, 1000), st.integers(1, 1000)), min_size=2, max_size=5),
       eps=st.fractions(Fraction(1, 100), Fraction(3)))
def test_corrected_pointwise_conversion_holds_for_random_discrete_pairs(w, eps):
    """For random finite X, Y and eps, with delta = their exact hockey-stick divergence (certified upper end, both
    directions), P[|log X/Y| > 2 eps] under X and under Y is <= delta (1 + e^{-2eps})/(1 - e^{-eps})."""
    from flint import arb
    from dpbounds.evaluation.numeric import arb_prec, fraction_to_arb
    sx, sy = sum(a for a, _ in w), sum(b for _, b in w)
    X = [Fraction(a, sx) for a, _ in w]
    Y = [Fraction(b, sy) for _, b in w]
    with arb_prec(200):
        e = fraction_to_arb(eps)
        E, E2 = e.exp(), (2 * e).exp()
        zero = arb(0)
        hs = lambda P, Q: sum(((fraction_to_arb(p) - E * fraction_to_arb(q)).max(zero) for p, q in zip(P, Q)), zero)  # noqa: E731
        delta = hs(X, Y).max(hs(Y, X))
        bound = delta * (1 + (-2 * e).exp()) / (1 - (-e).exp())
        for P, Q in ((X, Y), (Y, X)):
            bad = zero
            for p, q in zip(P, Q):
                pa, qa = fraction_to_arb(p), fraction_to_arb(q)
                if pa > E2 * qa or qa > E2 * pa:
                    bad += pa
                else:
                    assert pa <= E2 * qa and qa <= E2 * pa, "undecided outcome: widen precision"
            assert bad <= bound


def test_three_point_family_beats_the_stated_constant_never_the_corrected_one():
    from dpbounds.proofs_check.claims.filters import three_point_family
    from dpbounds.evaluation.numeric import arb_prec
    fam = three_point_family(Fraction(1, 2), Fraction(1, 1000))
    with arb_prec(256):
        assert all(ind for _, _, _, ind, _, _, _ in fam)
        assert all(mass <= corr for _, _, _, _, mass, _, corr in fam)
        assert any(mass > st_ for _, _, _, _, mass, st_, _ in fam)


# ------------------------------------------------------------------------------ Renyi filters with exact RR curves


def _mp_rr_rdp(alpha, eps, ctx):
    """D_alpha(RR_eps) from the definition (p = e^eps/(1 + e^eps)), independent of the spec's closed form."""
    a, e = ctx.mpf(alpha), ctx.mpf(eps)
    p = ctx.exp(e) / (1 + ctx.exp(e))
    q = 1 - p
    return ctx.log(p**a * q**(1 - a) + q**a * p**(1 - a)) / (a - 1)


def _mp_cks_rdp_budget(alpha, eps_g, delta_g, ctx):
    a = ctx.mpf(alpha)
    return ctx.mpf(eps_g) - (ctx.log(1 / ctx.mpf(delta_g)) + (a - 1) * ctx.log(1 - 1 / a) - ctx.log(a)) / (a - 1)


@pytest.mark.parametrize("alpha,eps", [("16", "0.01"), ("8", "0.1"), ("3", "0.5"), ("32", "0.003")])
def test_rr_renyi_filter_allows_floor_of_budget_over_exact_charge(alpha, eps):
    ctx = mpmath.mp.clone()
    ctx.dps = 50
    expect = int(ctx.floor(_mp_cks_rdp_budget(alpha, "1", "1e-6", ctx) / _mp_rr_rdp(alpha, eps, ctx)))
    f = make_filter("fz21.thm4_3.rr", alpha=alpha, eps_g="1", delta_g="1e-6")
    n = 0
    while f.try_spend(eps) and n < 10**5:
        n += 1
    assert n == max(expect, 0)


def test_rr_renyi_filter_charges_less_than_the_zcdp_route_at_the_same_order():
    from dpbounds.accounting.filters import rr_rdp_upper
    for a, e in (("4", "0.5"), ("16", "0.1"), ("2", "2")):
        assert rr_rdp_upper(a, e) < Fraction(a) * Fraction(e) ** 2 / 2


@pytest.mark.tier("slow")
def test_rr_renyi_filter_is_exactly_private_and_an_undercharging_variant_is_caught():
    from dpbounds.proofs_check.claims.filters import rr_filter_exact_report
    ok, rows = rr_filter_exact_report()
    assert ok, rows
    bad, bad_rows = rr_filter_exact_report(broken=True)
    assert not bad, bad_rows


def test_rr_renyi_filter_refuses_approximate_rounds():
    f = make_filter("fz21.thm4_3.rr", alpha="8", eps_g="1", delta_g="1e-6")
    with pytest.raises(spec.DomainError, match="delta"):
        f.try_spend(0.1, 1e-6)


def test_multi_order_filter_continues_while_some_order_fits_with_delta_split_by_k():
    ctx = mpmath.mp.clone()
    ctx.dps = 50
    orders, eps = ["4", "8", "16", "32"], "0.01"
    k = len(orders)
    # independent: per order, rounds allowed = floor(B(alpha)/D_alpha(RR_eps)) with B = eps_g - log(k/delta_g)/(alpha-1)
    per = [int(ctx.floor((1 - ctx.log(k / ctx.mpf("1e-6")) / (ctx.mpf(a) - 1)) / _mp_rr_rdp(a, eps, ctx)))
           for a in orders]
    f = make_filter("lec21.multi_order", eps_g="1", delta_g="1e-6", orders=",".join(orders))
    n = 0
    while f.try_spend(eps) and n < 10**5:
        n += 1
    assert n == max(per)


def test_multi_order_filter_is_exactly_private_on_fixed_sequences_and_adaptive_adversaries():
    from dpbounds.exact import adversaries as adv
    from dpbounds.exact.worst_case import adaptive_delta, delta_rr, filter_from_spec
    budget = {"eps_g": "1", "delta_g": "0.001", "orders": "4,8,16,32"}
    for e in ("0.05", "0.1", "0.3"):
        f = make_filter("lec21.multi_order", **budget)
        k = 0
        while f.try_spend(e):
            k += 1
        assert delta_rr([e] * k, "1").hi <= Fraction(1, 1000)
    filt = filter_from_spec("lec21.multi_order", **budget)
    for a in (adv.greedy("0.1", "0.3", "0.2", 14), adv.random_policy(["0.05", "0.2", "0.4"], 12, seed=3)):
        assert adaptive_delta(a, filt, "1", max_rounds=20).hi <= Fraction(1, 1000)


def test_multi_order_filter_rejects_bad_orders_and_rho_maps():
    with pytest.raises(spec.DomainError, match="orders"):
        make_filter("lec21.multi_order", eps_g="1", delta_g="1e-6", orders="4,4")
    with pytest.raises(spec.DomainError, match="alpha"):
        make_filter("lec21.multi_order", eps_g="1", delta_g="1e-6", orders="1,4")
    f = make_filter("lec21.multi_order", eps_g="1", delta_g="1e-6", orders="16,32")
    with pytest.raises(spec.DomainError, match="rho"):
        f.try_spend(rho={"16": "0.1"})
    # B(32) = 1 - log(2e6)/31 ~ 0.532: CONT while order 32 fits, whatever order 16 does (B(16) ~ 0.033)
    assert f.try_spend(rho={"16": "0.4", "32": "0.5"}) is Decision.CONT
    assert f.try_spend(rho={"16": "0", "32": "0.04"}) is Decision.HALT


def test_renyi_claims_hold():
    from dpbounds.proofs_check.core import all_claims, run_claim
    claims = all_claims()
    for cid, want in (("conversions.rr.rdp.from_definition", "proved"), ("lec21.multi_order.union_bound", "proved"),
                      ("rruv16.lemma2_3.corrected_conversion", "proved")):
        assert run_claim(claims[cid]).verdict == want, cid


# ------------------------------------------------------------------------------ the report's comparison


def test_gaussian_comparison_gdp_filter_reaches_the_optimum_and_no_filter_exceeds_it():
    from dpbounds.outputs.compare import compare_gaussian_table
    headers, rows, _ = compare_gaussian_table(quick=True)
    gdp = headers.index("GDP filter (Smith-Thakurta)")
    for row in rows:
        opt = int(row[-1])
        assert int(row[gdp]) == opt, row
        assert all(int(v) <= opt for v in row[1:-1]), row
    assert any(r[0].startswith("mixed") for r in rows)


def test_gdp_optimum_prefix_of_a_mixed_stream_matches_mpmath():
    from dpbounds.outputs.compare import gdp_optimum_prefix
    ctx = mpmath.mp.clone()
    ctx.dps = 50
    seq = ["0.01", "0.03", "0.005", "0.02", "0.05"] * 40
    total, n = ctx.mpf(0), 0
    for m in seq:
        total += ctx.mpf(m) ** 2
        if _mp_gauss_delta(ctx.sqrt(total), 1, ctx) > ctx.mpf("1e-6"):
            break
        n += 1
    assert gdp_optimum_prefix(seq, "1", "1e-6") == n


@pytest.mark.parametrize("eps", ["0.01", "0.1"])
def test_rr_renyi_columns_never_exceed_the_kov15_optimum(eps):
    from dpbounds.outputs.compare import rounds_allowed_optimal, rr_renyi_rounds
    best, multi, _ = rr_renyi_rounds(eps, "1", "1e-6")
    opt = rounds_allowed_optimal(eps, "1", "1e-6")
    assert 0 < multi <= best <= opt


def test_saved_states_restore_as_their_later_filter_class():
    from dpbounds.accounting.accountants import Filter
    from dpbounds.accounting.filters import GDPFilter, RenyiRRFilter
    f = make_filter("fz21.thm4_3.rr", alpha="16", eps_g="1", delta_g="1e-6")
    for _ in range(100):
        f.try_spend("0.01")
    g = Filter.from_state(f.state())
    assert isinstance(g, RenyiRRFilter)
    n_f = n_g = 0
    while f.try_spend("0.01"):
        n_f += 1
    while g.try_spend("0.01"):
        n_g += 1
    assert n_f == n_g > 0
    assert isinstance(Filter.from_state(make_filter("st22.filter", eps_g="1", delta_g="1e-6").state()), GDPFilter)


def test_cli_runs_the_multi_order_filter(capsys, monkeypatch):
    import io
    from dpbounds.cli import main
    monkeypatch.setattr("sys.stdin", io.StringIO("eps\n0.1\n0.1\n"))
    rc = main(["filter", "lec21.multi_order", "--budget", "eps_g=1", "--budget", "delta_g=1e-3", "--budget",
               "orders=4,8,16"])
    out = capsys.readouterr().out.splitlines()
    assert rc == 0 and [line.split("\t")[1] for line in out] == ["CONT", "CONT"]


def test_three_round_quadrature_of_a_non_adaptive_policy_is_the_exact_composition():
    mu0, mu1, mu2 = Fraction(1, 10), Fraction(3, 20), Fraction(1, 5)
    q = two_round_delta(mu1, Policy((), (mu2,)), 1, lambda a, b: True, mu0=mu0)
    s2 = mu0 * mu0 + mu1 * mu1 + mu2 * mu2
    assert q.overlaps(gaussian_delta(sqrt_lower(s2), 1, 160).union(gaussian_delta(sqrt_upper(s2), 1, 160)))
    # an adaptive third round (spend only when the second output is above 0) leaks less than spending always
    a = two_round_delta(mu1, Policy((Fraction(0),), (Fraction(0), mu2)), 1, lambda a, b: True, mu0=mu0)
    assert a < q


@pytest.mark.tier("slow")
def test_rr_charge_is_the_same_float_for_one_round_or_a_whole_array_and_never_below_the_curve():
    """The per-round and the batched paths of the RR Renyi filters charge rr_rdp_charge: its value for an element
    must not depend on the array around it (SIMD lanes vs tails), and it bounds the exact curve from above."""
    import numpy as np

    from dpbounds.accounting.filters import rr_rdp_charge, rr_rdp_upper
    from dpbounds.evaluation.evaluate import enclose
    rng = np.random.default_rng(11)
    x = np.concatenate([rng.uniform(0, 3, 50_000), 10.0 ** rng.uniform(-300, 2.5, 50_000), [0.0, 5e-324, 400.0]])
    for alpha in ("1.0001", "1.5", "8", "1000", "1e9"):  # (alpha - 1 < 1 and >> 1: the underflow margin)
        bulk = rr_rdp_charge(alpha, x)
        idx = np.concatenate([rng.integers(0, x.size, 300), np.arange(x.size - 3, x.size)])
        assert all(bulk[i] == rr_rdp_charge(alpha, x[i:i + 1])[0] == float(rr_rdp_upper(alpha, float(x[i])))
                   for i in idx)
        for i in idx[::3]:
            if x[i] > 0:
                assert Fraction(bulk[i]) >= enclose("conversions.rr.rdp", {"alpha": alpha, "eps": Fraction(x[i])},
                                                    rel_tol=Fraction(1, 2**70)).hi
