"""Proof checks for RRUV16 and the Nikolov notes: every claim runs and returns a valid verdict, the verdicts are the
ones derived by hand (see each claim's docstring/evidence), and the checking functions refute deliberately wrong
constants (so the checks can fail)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from flint import arb

from dpbounds.proofs_check.core import VERDICTS, all_claims, run_claim

# Hand-derived expectations (independent of the code under test):
#  - Lemma 2.3: the sharp constant for threshold 2 eps is delta (e^eps + e^-eps)/(e^eps - 1) > 2 delta/(eps e^eps).
#  - Thm 5.1: the proof's last display has sum eps_i (e^eps_i - 1), the statement has the /2.
#  - (12): the proof line has log(2 log2(n)/delta_g) and a stray sum; the statement log(4 log2(n)/delta_g).
#  - granularity: (11) has no log2(n^2)/delta_g.
#  - Nikolov Thm 2: derived = eps * stated.  Azuma as written fails for alpha = 100, k = 1, t = 2.
EXPECTED = {
    "rruv16.lemma2_3.second_conversion": "refuted",
    "rruv16.thm4_5.constant_0_74": "proved",
    "rruv16.lemma4_6.vs_bun_steinke": "proved",
    "rruv16.thm5_1.statement_vs_proof": "erratum",
    "rruv16.thm5_1.near_optimal_28_04": "verified",
    "rruv16.thm6_5.beta_solves": "proved",
    "rruv16.thm6_5.sqrt_ineq": "proved",
    "rruv16.thm6_5.log110e": "proved",
    "rruv16.thm6_5.eq12_vs_proof": "erratum",
    "rruv16.thm6_5.granularity": "erratum",
    "rruv16.thm6_5.footnote7_improvement": "proved",
    "rruv16.thm2_10.vs_kov": "proved",
    "nikolov17.thm2.stated_vs_derived": "erratum",
    "nikolov17.lemma6": "proved",
    "nikolov17.thm7.azuma": "refuted",
}


@pytest.fixture(scope="module")
def results():
    claims = all_claims()
    mine = {cid: c for cid, c in claims.items() if cid.startswith(("rruv16.", "nikolov17."))}
    return {cid: run_claim(c) for cid, c in mine.items()}


def test_every_claim_of_these_modules_is_registered(results):
    assert set(EXPECTED) <= set(results)


@pytest.mark.parametrize("cid", sorted(EXPECTED))
def test_claim_runs_and_returns_a_valid_verdict(results, cid):
    r = results[cid]
    assert not r.crashed, r.evidence
    assert r.verdict in VERDICTS
    assert len(r.evidence.strip()) > 80  # self-contained evidence, not a bare flag


@pytest.mark.parametrize("cid", sorted(EXPECTED))
def test_claim_verdict_matches_the_hand_derivation(results, cid):
    assert results[cid].verdict == EXPECTED[cid], results[cid].evidence


def test_claims_point_at_registered_spec_entries(results):
    from dpbounds import spec
    reg = spec.registry()
    for r in results.values():
        assert r.spec_id in reg, r.id


# ------------------------------------------------------------------ wrong constants are refuted by the same checks


def test_x_log_x_constant_0_37_holds_and_0_36_is_refuted():
    from dpbounds.proofs_check.claims.rruv16 import xlogx_max_below
    assert xlogx_max_below(Fraction(37, 100)).decided
    r = xlogx_max_below(Fraction(36, 100))
    assert not r.decided and r.counterexample is not None
    (x,) = r.counterexample
    # independent check of the counterexample: x log(1/x) > 0.36 there (max 1/e = 0.3679 near x = 0.3679)
    assert float(x) * math.log(1 / float(x)) > 0.36


def test_log110e_constant_is_safe_and_109_is_not():
    from dpbounds.proofs_check.claims.rruv16 import log_constant_margin
    assert log_constant_margin(Fraction(110)) == Fraction(110) - Fraction(8100, 74) > 0
    assert log_constant_margin(Fraction(109)) < 0          # 81/0.74 = 109.46 > 109
    assert log_constant_margin(Fraction(107), D=Fraction(888, 100)) > 0  # without the 8.88 -> 9 rounding


def test_beta_lower_bound_denominator_9_holds_and_6_is_refuted():
    from dpbounds.proofs_check.claims.rruv16 import beta_lower_ratio_check
    assert beta_lower_ratio_check(Fraction(9)).decided
    r = beta_lower_ratio_check(Fraction(6))
    assert r.counterexample is not None
    (x,) = r.counterexample
    # (sqrt(1+x) - 1)/x < 2.96/6 there, i.e. the lower bound with 6 would exceed beta
    assert (math.sqrt(1 + float(x)) - 1) / float(x) < 2.96 / 6


def test_lemma2_3_counterexample_beats_the_stated_constant_but_not_the_sharp_one():
    from dpbounds.proofs_check.claims.rruv16 import lemma2_3_counterexample
    ce = lemma2_3_counterexample(Fraction(1), Fraction(1, 100))
    assert ce is not None
    p, q, mass, _ = ce
    e = math.e
    # independent float checks of the construction (with margins far above float error)
    assert p - e * q <= 0.01 + 1e-12 and q - e * p <= 0      # (1, 1/100)-indistinguishable both ways
    assert p / q > e ** 2                                    # |log-ratio| > 2 eps on two outcomes
    assert float(mass) > 2 * 0.01 / e                        # more than the stated 2 delta/(eps e^eps)

    def sharp(eps, delta):
        return delta * (eps.exp() + (-eps).exp()) / (eps.exp() - 1)

    for eps, delta in [(Fraction(1), Fraction(1, 100)), (Fraction(1, 10), Fraction(1, 1000)), (Fraction(2), Fraction(1, 50))]:
        assert lemma2_3_counterexample(eps, delta, bound=sharp) is None
        assert lemma2_3_counterexample(eps, delta) is not None  # the stated constant fails at every eps > 0


def test_near_optimal_bracket_is_certified_and_a_wrong_bracket_is_not():
    from dpbounds.proofs_check.claims.rruv16 import near_optimal_constant
    ok, gC, gI, _ = near_optimal_constant()
    assert ok
    wrong, *_ = near_optimal_constant(lo=Fraction(27), hi=Fraction(28))  # c* ~ 28.0419 is not in [27, 28]
    assert not wrong
    # independent float check of the fixed point c = 16 + 8 log(1 + c/8)
    c = 28.0
    for _ in range(100):
        c = 16 + 8 * math.log(1 + c / 8)
    assert 28.04193 < c < 28.04194


def test_footnote7_margin_is_positive_on_the_stated_domain_and_negative_outside_any_useful_range():
    from dpbounds.proofs_check.claims.rruv16 import footnote7_margin
    assert footnote7_margin(Fraction(10), Fraction(1, 2)) > 0
    assert footnote7_margin(Fraction(10**6), Fraction(1, 10**9)) > 0
    # the margin changes sign only where log(log(n)/delta_g) < 0.245: e.g. n = 3, delta_g = 0.9 (outside the theorem)
    m = footnote7_margin(Fraction(3), Fraction(9, 10))
    lnn = math.log(3)
    old = 4 * (1 + math.log(math.sqrt(3))) * math.log(4 * math.log2(3) / 0.9)
    new = 2 * (math.log(110 * math.e) + 2 * math.log(lnn / 0.9))
    assert (m < 0) == (old - new < 0)


def test_azuma_as_written_is_refuted_and_the_standard_form_is_not():
    from dpbounds.proofs_check.claims.nikolov17 import azuma_as_written_counterexample, azuma_standard_threshold
    ce = azuma_as_written_counterexample()
    assert ce is not None
    thr, prob, bound = ce
    assert thr == 20 and prob == Fraction(1, 2) and float(bound) == pytest.approx(math.exp(-2))
    assert azuma_as_written_counterexample(threshold=azuma_standard_threshold(1, 100, 0, 2)) is None
    # alpha <= 1: the written threshold is at least the standard one, no counterexample from this family
    for k in (1, 4, 9):
        assert azuma_as_written_counterexample(k=k, alpha=Fraction(1, 2), t=Fraction(2)) is None


def test_arb_precision_is_restored_by_the_checks():
    from flint import ctx
    before = ctx.prec
    from dpbounds.proofs_check.claims.rruv16 import xlogx_max_below
    xlogx_max_below(Fraction(37, 100))
    assert ctx.prec == before
    assert arb(1) + arb(1) == 2
