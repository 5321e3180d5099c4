"""Streaming filters and odometers: decisions equal an independent from-scratch certified recomputation, HALT is
monotone, state survives save/restore and a kill mid-stream, eps = 0 < delta is handled."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpbounds import spec
from dpbounds.accounting.accountants import (Decision, Filter, MultiOrderRenyiFilter, RenyiOdometer, make_filter, make_odometer)
from dpbounds.evaluation.evaluate import decide, prepare

ROOT = Path(__file__).resolve().parents[1]

FILTERS = [
    ("rruv16.thm5_1", {"eps_g": "1", "delta_g": "1e-6"}, False),
    ("rruv16.thm3_4.filter", {"eps_g": "1"}, False),
    ("rruv16.lemma3_3.filter.thm5_1", {"eps_g": "1", "delta_g": "1e-6", "delta_dprime": "1e-6"}, True),
    ("wrrw23.thm2", {"eps_g": "1", "delta_prime": "1e-6", "delta_dprime": "1e-7"}, True),
    ("fz21.thm4_7.bs16", {"eps_g": "1", "delta_g": "1e-6"}, False),
]

eps_strs = st.sampled_from(["0", "0.001", "0.01", "0.05", "0.1", "0.2", "0.3"])
delta_strs = st.sampled_from(["0", "0", "1e-10", "1e-9", "1e-8"])


@pytest.mark.parametrize("fid,budget,approx", FILTERS, ids=[f[0] for f in FILTERS])
@settings(max_examples=8)
@given(data=st.data())
def test_decisions_equal_from_scratch_certified_recomputation(fid, budget, approx, data):
    n = data.draw(st.integers(1, 40))
    eps = [data.draw(eps_strs) for _ in range(n)]
    delta = [data.draw(delta_strs) if approx else "0" for _ in range(n)]
    f = make_filter(fid, **budget)
    entry = spec.get(fid)
    for i in range(n):
        d = f.try_spend(eps[i], delta[i])
        halt_ref = decide(entry, prepare(entry, budget, eps=eps[: i + 1], delta=delta[: i + 1]))
        assert (d is Decision.HALT) == halt_ref, (fid, i, eps[: i + 1])
        if halt_ref:
            break


@pytest.mark.parametrize("fid,budget,approx", FILTERS[:2] + FILTERS[3:], ids=[f[0] for f in FILTERS[:2] + FILTERS[3:]])
@settings(max_examples=8)
@given(data=st.data())
def test_halt_is_monotone_in_eps_and_rounds(fid, budget, approx, data):
    eps = [data.draw(st.sampled_from(["0.01", "0.05", "0.1", "0.2"])) for _ in range(60)]

    def halt_round(seq):
        f = make_filter(fid, **budget)
        for i, e in enumerate(seq):
            if f.try_spend(e) is Decision.HALT:
                return i
        return len(seq)

    h = halt_round(eps)
    j = data.draw(st.integers(0, len(eps) - 1))
    bigger = list(eps)
    bigger[j] = str(Fraction(eps[j]) * 2)
    assert halt_round(bigger) <= h


def test_save_and_restore_continue_identically(tmp_path):
    f = make_filter("wrrw23.thm2", eps_g="3", delta_prime="1e-6", delta_dprime="1e-7", save_path=tmp_path / "s.json")
    for e in ["0.1", "0.05", "0.2"]:
        assert f.try_spend(e, "1e-9")
    g = Filter.from_state(tmp_path / "s.json")
    seq = ["0.1"] * 30
    assert [f.try_spend(e) for e in seq] == [g.try_spend(e) for e in seq]


def test_restored_transcendental_sums_decide_like_the_original():
    f = make_filter("rruv16.thm5_1", eps_g="1", delta_g="1e-6")
    for _ in range(50):
        f.try_spend("0.02")
    g = Filter.from_state(json.loads(json.dumps(f.state())))
    seq = ["0.02"] * 200
    assert [f.try_spend(e) for e in seq] == [g.try_spend(e) for e in seq]


def test_killed_mid_stream_never_forgets_a_recorded_spend(tmp_path):
    state = tmp_path / "state.json"
    log = tmp_path / "log.txt"
    script = f"""
import sys, time
sys.path.insert(0, {str(ROOT)!r})
from dpbounds.accounting.accountants import make_filter
f = make_filter("wrrw23.thm2", eps_g="1000", delta_prime="1e-6", delta_dprime="0", save_path={str(state)!r})
with open({str(log)!r}, "a") as log:
    i = 0
    while True:
        if f.try_spend("0.01"):
            log.write(f"{{i}}\\n"); log.flush()   # the round 'runs' only after CONT was returned
        i += 1
"""
    p = subprocess.Popen([sys.executable, "-c", script])
    deadline = time.time() + 60
    while time.time() < deadline:
        if log.exists() and len(log.read_text().splitlines()) > 30:
            break
        time.sleep(0.05)
    p.send_signal(signal.SIGKILL)
    p.wait()
    ran = len(log.read_text().splitlines())
    assert ran > 30
    st = json.loads(state.read_text())  # never half-written
    assert st["rounds"] >= ran  # every round that ran was recorded before it ran
    f = Filter.from_state(state)
    assert f.rounds == st["rounds"]
    # a SIGKILL during a write may leave an orphaned temp file, never a truncated state file
    assert f.try_spend("0.01") is Decision.CONT and f.rounds == st["rounds"] + 1


def test_eps_zero_with_positive_delta_halts_lifted_filter_and_voids_odometer():
    f = make_filter("rruv16.lemma3_3.filter.thm5_1", eps_g="3", delta_g="1e-6", delta_dprime="1e-6")
    assert f.try_spend("0.1") is Decision.CONT
    assert f.try_spend("0", "1e-12") is Decision.HALT
    o = make_odometer("wrrw23.thm3.mixture", gamma="0.01", delta_prime="1e-6", delta_dprime="1e-6")
    assert o.step("0", "1e-7") < float("inf")
    assert o.step("0.1", "1e-6") == float("inf")  # sum delta > delta'': past N, no longer valid


def test_pure_filter_rejects_approximate_round_with_a_clear_error():
    f = make_filter("rruv16.thm5_1", eps_g="1", delta_g="1e-6")
    with pytest.raises(spec.DomainError, match="delta\\[0\\].*Lemma 3.3"):
        f.try_spend("0.1", "1e-9")


@pytest.mark.parametrize("bad", [{"eps_g": "1", "delta_g": "0.5"}, {"eps_g": "-1", "delta_g": "1e-6"}])
def test_out_of_domain_budget_is_refused_at_construction(bad):
    with pytest.raises(spec.DomainError):
        make_filter("rruv16.thm5_1", **bad)


def test_gaussian_curve_is_refused_as_a_filter_conversion():
    with pytest.raises(spec.DomainError, match="valid"):
        make_filter("fz21.thm4_7", eps_g="1", delta_g="1e-6", conversion="gauss")


def test_cks20_filter_continues_at_least_as_long_as_bs16_and_wrrw23():
    def rounds(f):
        n = 0
        while f.try_spend("0.02"):
            n += 1
        return n
    cks = rounds(make_filter("fz21.thm4_7", eps_g="1", delta_g="1e-6", conversion="cks20"))
    bs = rounds(make_filter("fz21.thm4_7", eps_g="1", delta_g="1e-6", conversion="bs16"))
    w = rounds(make_filter("wrrw23.thm2", eps_g="1", delta_prime="1e-6", delta_dprime="0"))
    assert cks >= bs == w


def test_multi_order_renyi_filter_is_the_intersection():
    f = MultiOrderRenyiFilter({"2": "1", "8": "2"})
    assert f.try_spend({"2": "0.5", "8": "1.5"}) is Decision.CONT
    assert f.try_spend({"2": "0.5", "8": "0.6"}) is Decision.HALT  # order 8 would exceed while order 2 fits
    g = MultiOrderRenyiFilter({"2": "1", "8": "2"})
    assert g.try_spend({"2": "0.5", "8": "1"}) and g.try_spend({"2": "0.5", "8": "1"})


def test_renyi_odometer_restarts_like_algorithm_5():
    o = RenyiOdometer("1")
    vals = [o.step(r) for r in ["0.6", "0.3", "0.2", "0.9", "0.1"]]
    # segments: [0.6, 0.3]; 0.2 would exceed 1 -> restart [0.2]; 0.9 would exceed -> restart [0.9, 0.1]
    assert vals == [1, 1, 2, 3, 3]
    with pytest.raises(spec.DomainError):
        o.step("1.5")


# ---------------------------------------------------------------------------------------------- added: streaming engine

import math
import random
from decimal import Decimal

from flint import arb

from dpbounds.accounting.accountants import Odometer, rounds_allowed, wrrw23_thm1_cks20
from dpbounds.evaluation.evaluate import enclose


@pytest.mark.parametrize("fid,budget", [
    ("rruv16.thm5_1", {"eps_g": "0.6", "delta_g": "1e-6"}),
    ("wrrw23.thm2", {"eps_g": "0.6", "delta_prime": "1e-6", "delta_dprime": "1e-7"}),
    ("rruv16.lemma3_3.filter.thm5_1", {"eps_g": "1.5", "delta_g": "1e-6", "delta_dprime": "1e-6"}),
])
@settings(max_examples=5)
@given(seed=st.integers(0, 10**6))
def test_random_float_streams_decide_like_a_certified_recomputation(fid, budget, seed):
    # floats are taken as their exact binary values; the reference re-sums every prefix from scratch (sequences)
    rng = random.Random(seed)
    approx = "delta_dprime" in budget
    f = make_filter(fid, **budget)
    entry = spec.get(fid)
    eps, delta = [], []
    for i in range(400):
        e = rng.uniform(0, 0.05)
        d = rng.choice([0.0, rng.uniform(0, 1e-9)]) if approx else 0.0
        eps.append(e)
        delta.append(d)
        got = f.try_spend(e, d)
        ref = decide(entry, prepare(entry, budget, eps=eps, delta=delta))
        assert (got is Decision.HALT) == ref, (fid, i)
        if ref:
            assert f.rounds == i
            return
    pytest.fail("the stream never reached the budget")


def test_fast_path_and_certified_path_agree_on_every_round():
    rng = random.Random(7)
    eps = [rng.uniform(0, 0.02) for _ in range(3000)]
    a = make_filter("rruv16.thm5_1", eps_g="2", delta_g="1e-6")
    b = make_filter("rruv16.thm5_1", eps_g="2", delta_g="1e-6")
    b._monotone = False  # no safe point: every round is decided by arb
    da = [a.try_spend(e) for e in eps]
    db = [b.try_spend(e) for e in eps]
    assert da == db and Decision.HALT in da
    assert 10 * a.certified_decisions < b.certified_decisions  # the fast path did most of the work


def test_inputs_of_every_exact_type_give_the_same_decisions():
    vals = ["0.1", "0.25", "0.3", "0.125"] * 6
    forms = [lambda s: s, Fraction, Decimal, lambda s: float(Fraction(s)) if Fraction(s).denominator in (4, 8) else s]
    out = []
    for form in forms:
        f = make_filter("wrrw23.thm2", eps_g="1.2", delta_prime="1e-6", delta_dprime="0")
        out.append([f.try_spend(form(v)) for v in vals])
    assert all(o == out[0] for o in out) and Decision.HALT in out[0]


@pytest.mark.parametrize("eps,delta,param", [(float("nan"), 0, "eps"), (float("inf"), 0, "eps"), (-0.1, 0, "eps"),
                                             ("abc", 0, "eps"), (0.1, 1.0, "delta"), (0.1, float("nan"), "delta"),
                                             (0.1, "-1e-9", "delta")])
def test_bad_round_values_raise_domain_error_naming_the_parameter(eps, delta, param):
    f = make_filter("wrrw23.thm2", eps_g="1", delta_prime="1e-6", delta_dprime="1e-6")
    f.try_spend(0.1)
    with pytest.raises(spec.DomainError) as ei:
        f.try_spend(eps, delta)
    assert ei.value.param == f"{param}[1]"
    assert f.rounds == 1  # nothing recorded


def test_exact_budget_tie_continues_as_the_theorem_says():
    f = make_filter("rruv16.thm3_4.filter", eps_g="0.3")
    assert [f.try_spend("0.1") for _ in range(4)] == [Decision.CONT] * 3 + [Decision.HALT]  # sum 0.3 <= 0.3 exactly


def test_cks20_composed_filter_is_at_least_wrrw23_thm2_and_bs16_variant_matches_it():
    def count(f, e="0.01"):
        n = 0
        while f.try_spend(e, "1e-12"):
            n += 1
        return n
    w = count(make_filter("wrrw23.thm2", eps_g="1", delta_prime="1e-6", delta_dprime="1e-9"))
    c = count(make_filter("wrrw23.thm1.cks20", eps_g="1", delta_prime="1e-6", delta_dprime="1e-9"))
    b = count(wrrw23_thm1_cks20("1", "1e-6", "1e-9", conversion="bs16"))
    assert c > w and b == w
    with pytest.raises(spec.DomainError, match="gauss|valid"):
        wrrw23_thm1_cks20("1", "1e-6", "0", conversion="gauss")
    with pytest.raises(spec.DomainError, match="B"):
        make_filter("fz21.thm4_7", eps_g="1", delta_g="1e-6", B="1")  # exceeds B*: not certified


def test_rounds_allowed_matches_an_independent_bisection():
    from dpbounds.outputs.compare import rounds_allowed as by_bisection
    for e in ("0.01", "0.05"):
        a = rounds_allowed(lambda: make_filter("wrrw23.thm2", eps_g="1", delta_prime="1e-6", delta_dprime="0"), e)
        b = by_bisection("wrrw23.thm2", {"eps_g": "1", "delta_prime": "1e-6", "delta_dprime": "0"}, e)
        assert a == b > 0


def test_zcdp_filters_take_rho_or_convert_dp_rounds():
    f = make_filter("wrrw23.thm1", B="0.01", delta_g="1e-6")
    assert f.try_spend("0.1", "1e-7")  # eps -> rho = eps^2/2 = 0.005 exactly (WRRW23 Lemma 1)
    assert f.try_spend(rho="0.005")
    assert not f.try_spend(rho="0.0000001")  # R would exceed B = 0.01
    g0 = make_filter("wrrw23.thm1", B="0.01", delta_g="1e-6")
    assert g0.try_spend(0.1) and not g0.try_spend(rho="0.005")  # float 0.1 is slightly above 1/10: exact binary value
    g = make_filter("fz21.thm4_3", alpha="2", B="1")
    with pytest.raises(spec.DomainError, match="rho"):
        g.try_spend(0.1)
    h = make_filter("fz21.remark4_4", B="1")
    with pytest.raises(spec.DomainError, match="pure"):
        h.try_spend(0.1, 1e-9)


def test_handwritten_transcendental_terms_match_the_spec():
    from dpbounds.accounting.accountants import _TRANS_FAST, _value
    from dpbounds.evaluation.interp import ArbBackend, POS_INF, compile_expr
    from dpbounds.evaluation.numeric import arb_prec
    from dpbounds.spec.aggregates import AGGREGATES
    rng = random.Random(3)
    for name, (term_arb, term_up) in _TRANS_FAST.items():
        fn = compile_expr(AGGREGATES[name].expr, ArbBackend())
        for _ in range(40):
            e = rng.choice([0.0, 1e-12, rng.uniform(0, 3), rng.uniform(0, 1e-4), "0.1"])
            d = rng.choice([0.0, rng.uniform(0, 0.5), "1e-9"])
            rnd = {"eps": _value("eps", e, 0, ""), "delta": _value("delta", d, 0, "")}
            with arb_prec(200):
                ref = fn({"eps": arb(Fraction(e).numerator) / arb(Fraction(e).denominator),
                          "delta": arb(Fraction(d).numerator) / arb(Fraction(d).denominator)})
                mine = term_arb(rnd)
            if ref is POS_INF:
                assert mine is POS_INF and term_up(rnd) == math.inf
                continue
            assert mine.overlaps(ref) and mine.rad() <= 1e-40 * abs(mine.mid()) + 1e-300
            assert term_up(rnd) >= float(ref.upper())  # the fast bound is an upper bound


def test_odometer_steps_equal_from_scratch_enclosures_and_void_after_n():
    params = {"eps_g": "1", "delta_prime": "1e-6", "delta_dprime": "1e-8"}
    o = make_odometer("wrrw23.thm3.filter", **params)
    eps, delta = [], []
    for e, d in [("0.1", "0"), ("0.2", "5e-9"), ("0.05", "4e-9"), ("0.1", "2e-9"), ("0.1", "0")]:
        eps.append(e)
        delta.append(d)
        v = o.step(e, d)
        ref = enclose("wrrw23.thm3.filter", params, eps=eps, delta=delta, rel_tol=1e-20)
        if ref.pos_inf:
            assert v == math.inf
        else:
            assert ref.hi <= Fraction(v) <= ref.hi * (1 + Fraction(1, 10**11))
    assert v == math.inf  # sum delta = 1.1e-8 > delta'': past N, and it stays void
    p = Odometer.from_state(json.loads(json.dumps(o.state())))
    assert p.step("0.01") == math.inf


def test_lifted_odometer_is_infinite_after_eps_zero_with_positive_delta():
    o = make_odometer("rruv16.lemma3_3.odometer.lemma6_4", x="0.01", delta_g="1e-6", delta_dprime="1e-6")
    assert o.step("0.1", "1e-12") < math.inf
    assert o.step("0", "1e-12") == math.inf
    assert o.step("0.1") == math.inf


def _cli(args, stdin):
    return subprocess.run([sys.executable, "-m", "dpbounds", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT)


def test_cli_filter_json_matches_the_api_and_stops_reading_after_halt():
    stream = "eps,delta\n" + "0.1,0\n" * 3 + "0.5,0\n" + "garbage\n"
    r = _cli(["filter", "wrrw23.thm2", "--budget", "eps_g=1", "--budget", "delta_prime=1e-6", "--budget",
              "delta_dprime=0", "--format", "json"], stream)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    f = make_filter("wrrw23.thm2", eps_g="1", delta_prime="1e-6", delta_dprime="0")
    expected = next(i for i, e in enumerate(["0.1"] * 3 + ["0.5"], start=1) if not f.try_spend(e))
    assert out["halt_round"] == expected == 4
    assert [row["decision"] for row in out["rounds"]] == ["CONT"] * 3 + ["HALT"]


@pytest.mark.parametrize("cmd", [["filter", "rruv16.thm3_4.filter", "--budget", "eps_g=10"],
                                 ["odometer", "rruv16.thm3_4.odometer"]])
@pytest.mark.parametrize("bad", ["0.1,0\n", "nan\n", "-1\n", "0.1;\n"])
@pytest.mark.tier("slow")
def test_cli_malformed_row_exits_2_naming_the_row(cmd, bad):
    r = _cli(cmd, "eps\n0.1\n0.2\n" + bad)
    assert r.returncode == 2
    assert "row 3" in r.stderr or "eps[2]" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


@pytest.mark.tier("slow")
def test_cli_state_file_resumes(tmp_path):
    st_file = tmp_path / "f.json"
    args = ["filter", "rruv16.thm3_4.filter", "--budget", "eps_g=1", "--state", str(st_file)]
    assert _cli(args, "eps\n0.3\n0.3\n").returncode == 0
    r = _cli(args, "eps\n0.3\n0.3\n")
    assert r.stdout.splitlines()[0].startswith("3\tCONT") and r.stdout.splitlines()[1].startswith("4\tHALT")
