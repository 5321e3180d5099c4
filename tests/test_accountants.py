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

import spec
from reference.accountants import Decision, Filter, MultiOrderRenyiFilter, RenyiOdometer, make_filter, make_odometer
from reference.evaluate import decide, prepare

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
from reference.accountants import make_filter
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
