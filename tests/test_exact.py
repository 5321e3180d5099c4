"""Unit laws of the exact worst-case engine, against closed forms and brute-force enumerations derived by hand.

The references here are written independently of dpbounds.exact.worst_case: mpmath (a private 60-digit context) enumerating
every outcome of the composed randomized responses, and closed forms (one RR round, total variation, first-step
crossing).  Theorems used as checks: KOV15 advanced composition and post-processing (a stopped transcript is a
function of the full one).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpbounds import spec
from dpbounds.exact import adversaries as adv
from dpbounds.exact.worst_case import (Certified, History, adaptive_delta, adaptive_laws, always_continue, crossing_probability, crossing_probability_adaptive, crossing_probability_bounds, crossing_probability_mc, delta_rr, delta_rr_homogeneous, optimal_adversary)
from dpbounds.evaluation.numeric import mp_context

MP = mp_context(60)
EPS = st.sampled_from(["0.01", "0.05", "0.1", "0.25", "0.5", "1", "2", "1/3"])
EPS_G = st.sampled_from(["0", "0.005", "0.05", "0.2", "0.3", "0.7", "1.5", "3"])
DELTA = st.sampled_from(["0", "0", "0.001", "0.05"])


def mpf(s) -> object:
    q = Fraction(s)
    return MP.mpf(q.numerator) / q.denominator


def brute_delta(eps_list, eps_g, deltas=None):
    """sum over every outcome of (eps_i, delta_i)-RR^k of max(0, P - e^eps_g Q), enumerating all 4^k outcomes."""
    k = len(eps_list)
    deltas = deltas or ["0"] * k
    eg = MP.exp(mpf(eps_g))
    per = []
    for e, d in zip(eps_list, deltas):
        x, dd = MP.exp(mpf(e)), mpf(d)
        # outcomes: agree, disagree, reveal-x, reveal-x'   (P under x, Q under x')
        per.append([((1 - dd) * x / (1 + x), (1 - dd) / (1 + x)), ((1 - dd) / (1 + x), (1 - dd) * x / (1 + x)),
                    (dd, MP.mpf(0)), (MP.mpf(0), dd)])
    tot = MP.mpf(0)
    for outcome in itertools.product(*per):
        p = q = MP.mpf(1)
        for a, b in outcome:
            p *= a
            q *= b
        tot += max(MP.mpf(0), p - eg * q)
    return tot


def encloses(c: Certified, v, rel=Fraction(1, 10**25)) -> bool:
    v = Fraction(MP.nstr(v, 50))  # 50 significant digits: rounding error far below rel
    slack = rel * abs(v) + Fraction(1, 10**45)
    return c.lo - slack <= v <= c.hi + slack


# ------------------------------------------------------------------------------------------------ fixed parameters


@given(eps=EPS, eg=EPS_G)
def test_single_round_closed_form(eps, eg):
    # one eps-RR round: delta(eps_g) = max(0, (e^eps - e^eps_g) / (1 + e^eps))
    ref = max(MP.mpf(0), (MP.exp(mpf(eps)) - MP.exp(mpf(eg))) / (1 + MP.exp(mpf(eps))))
    assert encloses(delta_rr([eps], eg), ref)
    assert encloses(delta_rr_homogeneous(eps, 1, eg), ref)


@given(seq=st.lists(EPS, min_size=1, max_size=6), extra=st.sampled_from(["0", "0.001", "1"]))
def test_no_delta_at_or_beyond_the_sum_of_epsilons(seq, extra):
    eg = sum(Fraction(e) for e in seq) + Fraction(extra)
    r = delta_rr(seq, eg)
    assert r.lo == 0 and r.hi == 0
    assert delta_rr_homogeneous(seq[0], len(seq), Fraction(seq[0]) * len(seq) + Fraction(extra)).hi == 0


@given(seq=st.lists(EPS, min_size=1, max_size=6))
def test_eps_g_zero_is_total_variation(seq):
    # TV(P, Q) = sum over the 2^k outcomes of max(0, P - Q)
    assert encloses(delta_rr(seq, 0), brute_delta(seq, 0))


def test_total_variation_two_rounds_by_hand():
    p = math.exp(0.5) / (1 + math.exp(0.5))
    tv = p * p - (1 - p) ** 2  # only 'agree, agree' has P > Q; the mixed outcomes tie
    r = delta_rr(["0.5", "0.5"], "0")
    assert abs(float(r.hi) - tv) < 1e-14 and r.lower() <= r.upper()


@given(seq=st.lists(EPS, min_size=1, max_size=7), eg=EPS_G)
def test_heterogeneous_convolution_equals_brute_force(seq, eg):
    assert encloses(delta_rr(seq, eg), brute_delta(seq, eg))


@given(seq=st.lists(st.tuples(EPS, DELTA), min_size=1, max_size=4), eg=EPS_G)
def test_approximate_rounds_equal_brute_force(seq, eg):
    eps, dl = [e for e, _ in seq], [d for _, d in seq]
    assert encloses(delta_rr(eps, eg, dl), brute_delta(eps, eg, dl))


@given(eps=EPS, k=st.integers(0, 40), eg=EPS_G, d=DELTA)
def test_kov_binomial_formula_equals_convolution(eps, k, eg, d):
    a = delta_rr_homogeneous(eps, k, eg, d)
    b = delta_rr([eps] * k, eg, [d] * k)
    assert a.lo <= b.hi and b.lo <= a.hi
    assert a.hi - a.lo <= Fraction(1, 10**12) * a.hi + Fraction(1, 10**40)


def test_approximate_round_adds_its_reveal_probability():
    pure = delta_rr(["0.3"], "0.1")
    approx = delta_rr(["0.3"], "0.1", ["0.01"])
    exp_lo = Fraction(1, 100) + Fraction(99, 100) * pure.lo
    exp_hi = Fraction(1, 100) + Fraction(99, 100) * pure.hi
    assert approx.lo <= exp_hi and exp_lo <= approx.hi


@pytest.mark.parametrize("k,eps,d", [(100, "0.1", "1e-3"), (300, "0.05", "1e-5"), (200, "0.02", "1e-6"),
                                     (1000, "0.01", "1e-9"), (30, "0.5", "0.01")])
def test_advanced_composition_kov_bound_holds(k, eps, d):
    # KOV15 Thm 3.5 (a theorem, independent of the engine):
    # eps_g = k eps (e^eps - 1)/(e^eps + 1) + eps sqrt(2 k log(1/d))  =>  k-fold eps-DP is (eps_g, d)-DP
    e = mpf(eps)
    eg = k * e * (MP.exp(e) - 1) / (MP.exp(e) + 1) + e * MP.sqrt(2 * k * MP.log(1 / mpf(d)))
    eg_q = Fraction(MP.nstr(eg, 40)) - Fraction(1, 10**30)  # a hair below: conservative for the check
    r = delta_rr([eps] * k, eg_q)
    assert r.hi <= Fraction(d)
    if eg_q < k * Fraction(eps):
        assert r.lo > 0  # the exact delta is not trivially zero there (a nontrivial check)


def test_tiny_deltas_keep_relative_accuracy():
    # no cancellation: a delta of order 1e-30 is still enclosed to 12 relative digits
    r = delta_rr_homogeneous("0.1", 100, "6")
    assert 0 < r.lo and r.hi - r.lo <= Fraction(1, 10**12) * r.hi
    assert encloses(r, brute_sum_homogeneous("0.1", 100, "6"))


def brute_sum_homogeneous(eps, k, eg):
    e, g = mpf(eps), MP.exp(mpf(eg))
    z = (1 + MP.exp(e)) ** k
    return sum(max(MP.mpf(0), MP.binomial(k, l) * (MP.exp((k - l) * e) - g * MP.exp(l * e)) / z)
               for l in range(k + 1))


def test_bad_input_is_a_domain_error():
    with pytest.raises(spec.DomainError):
        delta_rr(["-0.1"], "1")
    with pytest.raises(spec.DomainError):
        delta_rr(["0.1"], "1", ["1"])
    with pytest.raises(spec.DomainError):
        delta_rr(["0.1", "0.2"], "1", ["0"])
    with pytest.raises(spec.DomainError):
        delta_rr_homogeneous("0.1", -1, "1")
    with pytest.raises(spec.DomainError):
        adaptive_delta(lambda h: ("0.1", "1.5") if h.rounds == 0 else None, always_continue, "1")
    with pytest.raises(spec.DomainError):
        crossing_probability(lambda n: 1.0, 0.0, 10)
    with pytest.raises(spec.DomainError):
        crossing_probability(lambda n: float("nan"), 0.1, 10)


# ------------------------------------------------------------------------------------------------ adaptive


@settings(max_examples=15)
@given(seq=st.lists(st.tuples(EPS, DELTA), min_size=0, max_size=6), eg=EPS_G)
def test_dp_for_non_adaptive_adversary_equals_convolution(seq, eg):
    eps, dl = [e for e, _ in seq], [d for _, d in seq]
    a = adaptive_delta(adv.fixed(eps, dl), always_continue, eg)
    b = delta_rr(eps, eg, dl)
    assert a.lo <= b.hi and b.lo <= a.hi


def test_heterogeneous_grouping_equals_adaptive_dp_on_a_fixed_sequence():
    seq = ["0.05", "0.3", "0.05", "0.1", "0.3", "0.05"]
    a = delta_rr(seq, "0.2")
    b = adaptive_delta(adv.fixed(seq), always_continue, "0.2")
    assert a.lo <= b.hi and b.lo <= a.hi


@given(m=st.integers(0, 8), eg=EPS_G)
def test_filter_halting_after_m_rounds_equals_the_prefix(m, eg):
    seq = ["0.1", "0.3", "0.2", "0.1", "0.5", "0.1", "0.2", "0.3"]

    def filt(history, candidate):  # a list-of-tuples filter: CONT for the first m rounds
        assert all(isinstance(t, tuple) and len(t) == 2 for t in list(history))
        return len(history) < m

    a = adaptive_delta(adv.fixed(seq), filt, eg)
    b = delta_rr(seq[:m], eg)
    assert a.lo <= b.hi and b.lo <= a.hi


@pytest.mark.parametrize("make", [lambda: adv.random_policy([("0.1", "0.01"), "0.3", "0.05"], 9, seed=2),
                                  lambda: adv.greedy("0.1", ("0.4", "0.001"), "0.1", 10),
                                  lambda: adv.rruv_algorithm4("0.2", "0.3", 100, "0.01", 14)])
def test_interaction_laws_are_probability_distributions(make):
    law = adaptive_laws(make())
    assert law.total_p().contains(1) and law.total_q().contains(1)
    # delta is nonincreasing in eps_g and equals TV-like mass at eps_g = 0
    vals = [law.delta(g) for g in ("0", "0.2", "0.5", "1", "2")]
    assert all(b.lo <= a.hi for a, b in zip(vals, vals[1:]))


def test_states_kept_match_the_by_loss_law():
    law = adaptive_laws(adv.greedy("0.1", "0.3", "0.1", 6), keep_states=True)
    assert law.states and all(isinstance(h, History) for h, _, _ in law.states)
    for h, p, q in law.states:
        assert len(h) <= 6 and h.agree <= len(h)


def test_stopping_time_adversary_is_a_post_processing_of_the_full_run():
    # Algorithm 4 plays eps each round and only decides when to stop: its transcript is a function of the k-round
    # transcript, so its delta cannot exceed that of k fixed rounds (post-processing), at every eps_g
    k, eps = 24, "0.2"
    law = adaptive_laws(adv.rruv_algorithm4(eps, "0.3", 100, "0.01", k))
    for eg in ("0", "0.3", "1", "2"):
        assert law.delta(eg).lo <= delta_rr([eps] * k, eg).hi
    # and the adversary really stops early on some path (the laws differ from the fixed run)
    assert law.delta("0.3").hi < delta_rr([eps] * k, "0.3").lo


def test_algorithm4_stop_rule_matches_the_paper():
    eps, C, n, dg = Fraction(1, 5), Fraction(3, 10), 100, Fraction(1, 100)
    a = adv.rruv_algorithm4(eps, C, n, dg, 50)
    e = mpf(eps)
    mu = e * (MP.exp(e) - 1) / (MP.exp(e) + 1)
    for i in (1, 4, 9):
        for agree in range(i + 1):
            loss = (2 * agree - i) * eps
            stop = mpf(loss) - i * mu >= mpf(C) * e * MP.sqrt(i * MP.log(MP.log(n) / mpf(dg)))
            h = History(((eps, Fraction(0)),) * i, loss, agree)
            assert (a(h) is None) == bool(stop)


def test_optimal_adversary_dominates_every_fixed_sequence_and_greedy():
    menu, R, eg = ["0.1", "0.4"], 5, "0.5"
    best_adv, best = optimal_adversary(menu, always_continue, eg, R)
    for r in range(R + 1):
        for seq in itertools.product(menu, repeat=r):
            assert delta_rr(list(seq), eg).lo <= best.hi
    for a in (adv.greedy("0.1", "0.4", "0.2", R), adv.random_policy(menu, R, seed=5), adv.loss_ladder(menu, ["0"], R)):
        assert adaptive_delta(a, always_continue, eg, R).lo <= best.hi * (1 + Fraction(1, 10**9))


def test_basic_composition_filter_has_zero_delta_against_the_optimal_adversary():
    # basic filter (RRUV16 Thm 3.4): CONT iff sum eps_i (with the candidate) <= eps_g  =>  pure (eps_g, 0)-DP
    def basic(history, candidate):
        return sum(e for e, _ in history) + Fraction(candidate[0]) <= Fraction("0.6")

    _, v = optimal_adversary(["0.1", "0.25", "0.4"], basic, "0.6", 8)
    assert v.hi == 0
    _, v2 = optimal_adversary(["0.1", "0.25", "0.4"], basic, "0.5", 8)
    assert v2.lo > 0  # at a smaller eps_g the same filter does leak


# ------------------------------------------------------------------------------------------------ odometers


def test_crossing_first_step_closed_form():
    # threshold 0 after round 1, +oo afterwards: crossed iff the first output agrees, P = e^eps/(1+e^eps)
    for eps in (0.1, 0.7):
        b = crossing_probability_bounds(lambda n: 0.0 if n == 1 else math.inf, eps, 50)
        ref = Fraction(MP.nstr(MP.exp(mpf(eps)) / (1 + MP.exp(mpf(eps))), 40))
        assert b.lo <= ref + Fraction(1, 10**30) and ref - Fraction(1, 10**30) <= b.hi
        assert b.hi - b.lo < 1e-12


def test_crossing_infinite_and_minus_infinite_thresholds():
    assert crossing_probability(lambda n: math.inf, 0.1, 100) < 1e-12
    b = crossing_probability_bounds(lambda n: -math.inf, 0.1, 100)
    assert b.lo > 1 - 1e-12


def brute_crossing(eps, N, u):
    e = mpf(eps)
    p = MP.exp(e) / (1 + MP.exp(e))
    tot = MP.mpf(0)
    for steps in itertools.product((1, -1), repeat=N):
        s, prob, crossed = 0, MP.mpf(1), False
        for n, x in enumerate(steps, 1):
            s += x
            prob *= p if x > 0 else 1 - p
            if Fraction(s) * Fraction(eps) > Fraction(u(n)):
                crossed = True
        if crossed:
            tot += prob
    return tot


@pytest.mark.parametrize("eps", ["0.5", "0.1"])
def test_crossing_dp_equals_brute_force_enumeration(eps):
    u = lambda n: 0.6 * math.sqrt(n) * float(eps) + 0.01  # noqa: E731
    N = 11
    ref = Fraction(MP.nstr(brute_crossing(eps, N, u), 40))
    b = crossing_probability_bounds(u, Fraction(eps), N)
    assert Fraction(b.lo) - Fraction(1, 10**30) <= ref <= Fraction(b.hi) + Fraction(1, 10**30)
    c = crossing_probability_adaptive(adv.fixed([eps] * N), lambda h: u(h.rounds), N)
    assert c.lo - Fraction(1, 10**30) <= ref <= c.hi + Fraction(1, 10**30)


def test_crossing_float_dp_contains_the_certified_adaptive_dp():
    eps, N = Fraction(1, 10), 80
    u = lambda n: 0.9 * math.sqrt(n) * 0.1 + n * 0.005  # noqa: E731
    b = crossing_probability_bounds(u, eps, N)
    c = crossing_probability_adaptive(adv.fixed([eps] * N), lambda h: u(h.rounds), N)
    assert b.lo <= c.hi and c.lo <= b.hi


@given(n1=st.integers(1, 300), n2=st.integers(1, 300))
def test_crossing_probability_is_monotone_in_n(n1, n2):
    u = lambda n: 0.8 * math.sqrt(n) * 0.1 + n * 0.004  # noqa: E731
    lo_n, hi_n = sorted((n1, n2))
    a, b = crossing_probability_bounds(u, 0.1, lo_n), crossing_probability_bounds(u, 0.1, hi_n)
    assert a.lo <= b.hi
    # the exact absorbed sums (same float operations on a common prefix) are monotone too
    assert a.absorbed_possible <= b.absorbed_possible


@pytest.mark.parametrize("method", ["hoeffding", "clopper-pearson"])
@pytest.mark.tier("slow")
def test_crossing_dp_agrees_with_monte_carlo(method):
    eps = 0.1
    bound = lambda n: 0.9 * math.sqrt(n) * eps + n * eps * eps / 2  # noqa: E731 - an aggressive (invalid) curve
    b = crossing_probability_bounds(bound, eps, 400)
    est, lo, hi = crossing_probability_mc(bound, eps, 400, paths=4000, seed=1, method=method)
    assert lo <= b.hi and b.lo <= hi
    assert crossing_probability_mc(bound, eps, 400, paths=4000, seed=1, method=method) == (est, lo, hi)


def test_crossing_with_enclosure_thresholds_gives_two_ends():
    eps = Fraction(1, 10)
    exact = crossing_probability_bounds(lambda n: 0.3, eps, 40)
    wide = crossing_probability_bounds(lambda n: (0.25, 0.35), eps, 40)
    assert wide.lo <= exact.lo and exact.hi <= wide.hi and wide.lo < wide.hi
    assert crossing_probability_bounds(lambda n: 0.25, eps, 40).hi <= wide.hi


def test_crossing_error_bound_is_small_for_large_n():
    b = crossing_probability_bounds(lambda n: 3.0 * math.sqrt(n) * 0.01 + n * 0.0001, 0.01, 10000)
    assert 0 < b.hi - b.lo < 1e-10 and 0 <= b.lo <= b.hi <= 1


def test_adaptive_crossing_with_approximate_rounds_counts_reveals():
    # one (eps, delta) round, threshold +oo for the loss lattice but finite: crossed iff revealed or loss > u
    c = crossing_probability_adaptive(adv.fixed(["0.2"], ["0.1"]), lambda h: 1.0, 1)
    assert c.contains(Fraction(1, 10))
    c2 = crossing_probability_adaptive(adv.fixed(["0.2"], ["0.1"]), lambda h: math.inf, 1)
    assert c2.hi == 0
