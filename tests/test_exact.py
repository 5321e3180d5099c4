"""Unit laws of the exact worst-case engine, against closed forms derived by hand."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spec
from reference.exact import adaptive_delta, always_continue, delta_rr
from reference import adversaries as adv


@settings(max_examples=20)
@given(eps=st.sampled_from(["0.01", "0.1", "0.5", "1", "2"]), eg=st.sampled_from(["0", "0.005", "0.05", "0.3", "1.5"]))
def test_single_round_closed_form(eps, eg):
    # one eps-RR round: delta(eps_g) = max(0, (e^eps - e^eps_g)/(1 + e^eps))
    e, g = float(eps), float(eg)
    ref = max(0.0, (math.exp(e) - math.exp(g)) / (1 + math.exp(e)))
    r = delta_rr([eps], eg)
    assert r.lower() <= ref * (1 + 1e-12) + 1e-300 and ref <= r.upper() * (1 + 1e-12) + 1e-300


def test_no_delta_beyond_the_sum_of_epsilons():
    assert delta_rr(["0.1", "0.2", "0.3"], "0.6").hi == 0


def test_eps_g_zero_is_total_variation():
    # two rounds of RR_eps: TV = sum over outcomes of max(0, P - Q)
    e = math.exp(0.5)
    p = e / (1 + e)
    tv = (p * p - (1 - p) ** 2)  # only the 'agree, agree' outcome has P > Q (the mixed ones tie)
    r = delta_rr(["0.5", "0.5"], "0")
    assert abs(float(r.hi) - tv) < 1e-12


def test_approximate_round_adds_its_reveal_probability():
    pure = delta_rr(["0.3"], "0.1")
    approx = delta_rr(["0.3"], "0.1", ["0.01"])
    # 1 - (1 - delta) + (1 - delta) * pure
    exp = Fraction(1, 100) + Fraction(99, 100) * pure.hi
    assert approx.lo <= exp and abs(float(approx.hi) - float(exp)) < 1e-15


def test_heterogeneous_grouping_equals_adaptive_dp_on_a_fixed_sequence():
    seq = ["0.05", "0.3", "0.05", "0.1", "0.3", "0.05"]
    a = delta_rr(seq, "0.2")
    b = adaptive_delta(adv.fixed(seq), always_continue, "0.2")
    assert a.lo <= b.hi and b.lo <= a.hi


def test_bad_input_is_a_domain_error():
    with pytest.raises(spec.DomainError):
        delta_rr(["-0.1"], "1")
    with pytest.raises(spec.DomainError):
        delta_rr(["0.1"], "1", ["1"])
