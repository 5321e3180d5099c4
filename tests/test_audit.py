"""The peer audit: strict classification (no tolerance below the certified lower end), two references, the
adapter protocol, exit status, JSON types; planted fake peers; installed peers run cleanly."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest

from dpbounds.audit import common
from dpbounds.audit.run import ADAPTERS, audit_peers, exit_status
from dpbounds.cli import main

J = dict(role="truth", reference="r", description="d")
JF = dict(role="formula", reference="r", description="d")  # against the cited formula: below it is a departure


def test_a_value_below_the_lower_end_is_unsound_however_small_the_gap():
    lo = Fraction(2) + Fraction(1, 10**30)  # just above the float 2.0
    hi = lo + Fraction(1, 10**25)
    j = common.judge_upper(2.0, lo, hi, **J)
    assert j.verdict == "unsound-rounding" and j.gap_ulps == 1 and j.gap_rel > 0
    j = common.judge_upper(1.9, lo, hi, **J)
    assert j.verdict == "unsound" and j.gap_ulps > common.ROUNDING_ULPS
    assert common.judge_upper(1.9, lo, hi, **JF).verdict == "formula-departure"
    assert common.judge_upper(2.0, lo, hi, **JF).verdict == "unsound-rounding"


def test_exact_only_inside_the_enclosure_up_to_the_upward_rounding():
    lo, hi = Fraction(1, 3), Fraction(1, 3) + Fraction(1, 10**30)
    up = math.nextafter(float(Fraction(1, 3)), math.inf) if Fraction(float(Fraction(1, 3))) < lo else float(lo)
    assert common.judge_upper(up, lo, hi, **J).verdict == "exact"
    assert common.judge_upper(math.nextafter(up, math.inf), lo, hi, **J).verdict == "conservative"
    assert common.judge_upper(math.nextafter(up, -math.inf), lo, hi, **J).verdict == "unsound-rounding"
    j = common.judge_upper(0.5, lo, hi, **J)
    assert j.verdict == "conservative" and abs(j.ratio - 1.5) < 1e-12
    assert common.judge_upper(float("nan"), lo, hi, **J).verdict == "error"


def test_decisions_unsound_only_under_the_same_theorem():
    assert common.judge_decision(True, False, same_theorem=True, **J).verdict == "unsound"
    assert common.judge_decision(True, False, same_theorem=True, **JF).verdict == "formula-departure"
    assert common.judge_decision(True, False, same_theorem=False, **J).verdict == "unproven"
    assert common.judge_decision(False, True, same_theorem=True, **J).verdict == "conservative"
    assert common.judge_decision(True, True, same_theorem=True, **J).verdict == "exact"


def _run(adapter, *extra):
    import io
    import contextlib
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = main(["audit", "--adapter", adapter, "--format", "json", *extra])
    return rc, json.loads(buf.getvalue())


def test_a_faithful_fake_peer_is_exact_and_exits_0():
    rc, doc = _run("tests.fake_peers.faithful")
    (peer,) = doc["peers"]
    assert rc == 0 and peer["comparisons"]
    assert all(c["formula"]["verdict"] == "exact" for c in peer["comparisons"]), peer["counts"]


@pytest.mark.tier("slow")
def test_a_fake_peer_one_ulp_under_is_unsound_and_exits_1():
    rc, doc = _run("tests.fake_peers.one_ulp_under")
    (peer,) = doc["peers"]
    assert rc == 1 and doc["exit_status"] == 1
    assert all(c["formula"]["verdict"] in common.UNSOUND for c in peer["comparisons"])
    assert all(c["formula"]["gap"]["ulps"] >= 1 for c in peer["comparisons"])
    assert all(c["reproducer"] for c in peer["comparisons"])
    assert _run("tests.fake_peers.one_ulp_under", "--fail-on", "unsound")[0] == 0  # only beyond rounding
    assert _run("tests.fake_peers.one_ulp_under", "--fail-on", "never")[0] == 0


def test_a_wrong_constant_is_unsound_against_its_formula_yet_may_be_safe_against_the_truth():
    rc, doc = _run("tests.fake_peers.wrong_constant")
    (peer,) = doc["peers"]
    assert rc == 1
    assert all(c["formula"]["verdict"] == "formula-departure" for c in peer["comparisons"])
    truth = {c["truth"]["verdict"] for c in peer["comparisons"]}
    assert "conservative" in truth  # (a) and (b) are told apart: the claim is not always false


def test_json_numbers_are_numbers_and_exact_ends_decimal_strings():
    rc, doc = _run("tests.fake_peers.faithful")
    assert isinstance(doc["dpbounds_version"], str) and len(doc["spec_version"]) == 64
    for c in doc["peers"][0]["comparisons"]:
        assert isinstance(c["peer_value"], float)
        lo, hi = c["formula"]["enclosure"]
        assert isinstance(lo, str) and isinstance(hi, str) and Fraction(lo) <= Fraction(hi)
        assert isinstance(c["formula"]["lower"], float) and isinstance(c["formula"]["upper"], float)
        assert Fraction(lo) <= Fraction(c["peer_value"]) <= Fraction(c["formula"]["upper"])


def test_an_adapter_that_breaks_the_protocol_is_a_clear_error():
    (res,) = audit_peers(adapters=["json"], timeout=None)  # importable, but no PEER / audit(): an error row
    assert res.status == "error" and "PEER = dpbounds.testing.Peer(...) and declarations()" in res.reason
    assert main(["audit", "--adapter", "no.such.module"]) == 2  # no such module: bad input


@pytest.mark.parametrize("peer", sorted(set(ADAPTERS) - {"peer_tests"}))  # peer_tests needs no peer installed
def test_missing_peer_is_skipped_with_the_reason(peer, monkeypatch):
    import importlib
    mod = importlib.import_module(ADAPTERS[peer])
    monkeypatch.setattr(mod, "available", lambda name: False, raising=False)
    monkeypatch.setattr(common, "available", lambda name: False)  # (adapters for a peer's own venv ask common)
    (res,) = audit_peers([peer], quick=True, timeout=None)  # in this process, where the monkeypatch applies
    assert res.comparisons == [] and res.status == "skipped" and res.reason


def test_unknown_peer_is_a_domain_error():
    from dpbounds import spec
    with pytest.raises(spec.DomainError):
        audit_peers(["nope"])


@pytest.mark.parametrize("peer,module,at_least", [("opendp", "opendp", 10), ("dp_accounting", "dp_accounting", 10),
                                                  ("prv_accountant", "prv_accountant", 10),
                                                  ("pipeline_dp", "pipeline_dp", 10)])
@pytest.mark.tier("peers")
def test_installed_peer_runs_without_errors(peer, module, at_least):
    pytest.importorskip(module)
    (res,) = audit_peers([peer], quick=True)
    assert res.version and len(res.comparisons) >= at_least, res.notes
    assert not [c for c in res.comparisons if c.verdict == "error"]
    assert exit_status([res], "never") == 0


@pytest.mark.tier("peers")
def test_dp_accounting_pld_count_bug_is_found():
    """dp_accounting 0.6's PLDAccountant.compose(RandomizedResponseDpEvent, count) composes once, whatever the
    count: 10-fold eps-RR at eps = log 3 gets delta(1) = 0.0705 where the exact value is 0.868 (KOV15)."""
    pytest.importorskip("dp_accounting")
    from dpbounds.audit.common import version_of
    if version_of("dp-accounting") != "0.6.0":
        pytest.skip("the count bug was observed in dp_accounting 0.6.0")
    from dpbounds.audit.engine import example_rows
    from dpbounds.audit.peers import dp_accounting as m
    rows = example_rows(m.PEER.name, [d for d in m.declarations() if d.function == m.F_PLD])
    by_form = {}
    for c in rows:
        by_form.setdefault("count=k" in c.check, []).append(c.verdict)
    assert "unsound" in by_form[True]  # the count form under-reports
    assert set(by_form[False]) <= {"exact", "conservative"}  # composing the list is sound


@pytest.mark.tier("peers")
def test_pipeline_dp_gaussian_epsilon_midpoint_is_found():
    """PipelineDP's gaussian_epsilon returns the midpoint of a bisection of width 1e-10, below the minimum eps at
    sigma = 1, delta = 1e-5 (exact eps 4.37717809568122...; the peer returns 4.3771780956594...)."""
    pytest.importorskip("pipeline_dp")
    import dataclasses

    from dpbounds.audit.engine import example_rows
    from dpbounds.audit.peers import pipeline_dp as m
    ds = [dataclasses.replace(d, examples=({"sigma": 1.0, "delta": "1e-5"},)) for d in m.declarations()
          if d.function == m.F_EPS]
    (c,) = example_rows(m.PEER.name, ds)
    assert c.verdict == "unsound" and c.truth.gap_ulps > 1000 and c.truth.gap_rel < 1e-10


@pytest.mark.tier("peers")
def test_pipeline_dp_equal_split_exceeds_the_budget_by_one_ulp():
    """equally_split_budget(1.0, 1e-6, 10) returns nine float 0.1 and a last share 1.0 - fl(9 x 0.1) =
    1 - 0.8999999999999999: the exact sum of the eps shares is 9 x 0.1000000000000000055511151231257827 +
    0.1000000000000000888178419700125232 = 1 + 1.3878e-16, above the total 1.0 that basic composition must meet."""
    pytest.importorskip("pipeline_dp")
    from pipeline_dp import dp_computations as dc

    from dpbounds.audit.peers.pipeline_dp import _answers, _split
    shares = [e for e, _ in dc.equally_split_budget(1.0, 1e-6, 10)]
    assert shares[:9] == [0.1] * 9 and shares[9] == 1.0 - 0.8999999999999999
    answers = iter(_answers(None, [("equally_split_budget", [1.0, 1e-6, 10])]))
    eps_row, delta_row = _split([(1.0, 1e-6, 10)], answers)
    assert eps_row.verdict == "unsound-rounding" and eps_row.formula.gap_ulps == 1
    assert delta_row.verdict == "exact"


def test_peers_pinned_test_values_are_judged_strictly():
    """The peers' own expected values (no peer needed): OpenDP's assert_eq on the conversion's float is the sound
    float answer (exact); PipelineDP's pinned gaussian_epsilon(5, 1.75463e-8) = 1.00000007214 is below the exact
    1.0000000721757... (unsound although its tolerance admits the true value), and every record computes."""
    from dpbounds.audit.peers import peer_tests
    (res,) = audit_peers(["peer_tests"])
    by_path = {c.function.split(": ", 1)[1]: c for c in res.comparisons}
    assert len(res.comparisons) == len(peer_tests.PINNED) and "error" not in {c.verdict for c in res.comparisons}
    assert by_path["rust/src/combinators/measure_cast/zCDP_to_approxDP/test.rs:28"].verdict == "exact"
    c = by_path["tests/dp_computations_test.py:414"]
    assert c.verdict == "unsound" and "admits" in c.formula.detail


def test_peer_calls_run_in_another_interpreter_and_only_json_crosses(tmp_path, monkeypatch):
    import sys

    from dpbounds.testing.declarations import peer_calls, peer_version
    (tmp_path / "probe_calls.py").write_text(
        "import sys\n"
        "def twice(c):\n    print('noise on stdout')\n    return [c * 2, sys.executable]\n"
        "def broken(c):\n    raise ValueError('peer broke')\n"
        "def no_json(c):\n    return {1j}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    (a, b, bad, odd) = peer_calls(sys.executable, "probe_calls",
                                  [("twice", [3]), ("twice", [4]), ("broken", [1]), ("no_json", [1])])
    assert a["ok"][0] == 6 and b["ok"][0] == 8 and a["ok"][1] == sys.executable
    assert bad == {"error": "ValueError: peer broke", "where": "adapter"}  # (raised in the calls module itself)
    assert odd["error"].startswith("TypeError") and "ok" not in odd
    with pytest.raises(RuntimeError, match="peer broke"):
        peer_calls(sys.executable, "probe_calls", [("twice", [3]), ("broken", [1])], strict=True)
    assert peer_calls(None, "probe_calls", [("twice", [5])], strict=True)[0][0] == 10
    assert peer_version(sys.executable, "pytest", "pytest") == (True, pytest.__version__)
    ok, why = peer_version(sys.executable, "no_such_module_here", "pytest")
    assert not ok and "no_such_module_here" in why
    assert peer_version("/bin/false", "pytest", "pytest")[0] is False


@pytest.mark.tier("peers")
def test_smartnoise_homogeneous_odometer_delta_is_below_its_cited_theorem():
    """Recorded from smartnoise-sql 1.0.10's Odometer(Privacy(0.1, 1e-6)).spend(50).spent: delta is computed as
    D (1 - D) + tol with D = 1 - (1 - delta)^k, below KOV15 Thm 3.4's 1 - (1 - delta)^k (1 - tol); at its epsilon
    the exact optimal delta (KOV15 Thm 3.3) is far smaller, so the truth verdict is conservative."""
    from dpbounds.audit.peers.smartnoise_sql import _judge
    eps_row, delta_row = _judge("hom", 0.1, 1e-6, 50, 4.013046346513963, 5.0496275143483774e-05)
    assert eps_row.formula.verdict == "formula-departure"  # log(eps + ...) where the theorem has log(e + ...)
    assert delta_row.formula.verdict == "formula-departure" and delta_row.truth.verdict == "conservative"


def test_python_option_is_refused_for_an_adapter_that_cannot_use_it():
    import sys

    from dpbounds import spec
    with pytest.raises(spec.DomainError, match="python=False"):
        audit_peers(["peer_tests"], pythons={"peer_tests": sys.executable})


@pytest.mark.tier("slow")
def test_findings_name_each_failing_function_once_with_its_worst_witness_and_tell_a_from_b():
    """The digest a maintainer reads first: one finding per failing peer function, the worst witness (largest gap
    below the certified lower end) with its reproducer, and whether the claim itself is false (b) or only the
    cited formula is departed from (a); a faithful peer has none."""
    from dpbounds.audit.run import findings, render_html, render_markdown
    from tests.fake_peers import faithful, one_ulp_under, wrong_constant

    assert findings([faithful.audit()]) == []
    results = [one_ulp_under.audit(), wrong_constant.audit()]
    fs = findings(results)
    assert [f["peer"] for f in fs] == ["fake_wrong_constant", "fake_one_ulp_under"]  # unsound before rounding
    wrong, ulp = fs
    assert wrong["verdict"] == "unsound" and ulp["verdict"] == "unsound-rounding"
    assert wrong["class"] == "claim-false" and ulp["class"] == "rounding" and wrong["relative_gap"] > 0
    rows = [c for c in results[1].comparisons if c.verdict in common.UNSOUND]
    assert wrong["failing"] == len(rows) and wrong["of"] == len(results[1].comparisons)
    gaps = [max(j.gap_rel for j in (c.formula, c.truth) if j is not None and j.gap_rel is not None) for c in rows]
    worst = wrong["worst"]
    assert max((worst["formula"]["gap"] or {}).get("relative") or 0, (worst["truth"]["gap"] or {}).get("relative")
               or 0) == max(gaps)
    assert worst["reproducer"]
    # against the truth the wrong constant is sometimes safe: those rows count as formula-only departures
    assert wrong["formula_only"] + wrong["claim_false"] == wrong["failing"] and wrong["formula_only"] > 0
    md = render_markdown(results)
    assert md.index("## Findings") < md.index("## fake_wrong_constant") and "1. [privacy claim false" in md
    assert "<h2 id='findings'>Findings</h2>" in render_html(results)


def test_judge_lower_mirrors_judge_upper_for_larger_is_more_privacy_claims():
    lo, hi = Fraction(1, 3), Fraction(1, 3) + Fraction(1, 10**30)
    down = float(Fraction(1, 3))
    down = down if Fraction(down) <= lo else math.nextafter(down, -math.inf)
    assert common.judge_lower(down, lo, hi, **J).verdict == "exact"  # the sound float answer
    assert common.judge_lower(math.nextafter(down, -math.inf), lo, hi, **J).verdict == "conservative"
    j = common.judge_lower(math.nextafter(down, math.inf), lo, hi, **J)  # admits one float too much
    assert j.verdict == "unsound-rounding" and j.gap_ulps == 1
    j = common.judge_lower(0.5, lo, hi, **J)
    assert j.verdict == "unsound" and abs(j.ratio - 1.5) < 1e-12
    assert common.judge_lower(0.25, lo, hi, **J).verdict == "conservative"


def test_tmlt_core_judging_of_recorded_answers():
    """Recorded from tmlt.core 0.20.0 (no tmlt needed): RhoZCDPToApproxDP at (1, 1e-6) accepts rho up to the float
    0.017468904769123376 and refuses the next one; BS16 Prop 1.3 inverted is 0.01746890476912337(7...) -- exact --
    and the Gaussian mechanism is (1, 1e-6)-DP up to rho = 0.02801...: conservative.  One float more would admit
    more than the cited proposition; an exact 1/201 for 0.1-DP -> zCDP is below eps^2/2 = 1/200; a queryable that
    continues past the budget breaks the filter rule it implements."""
    from dpbounds.audit.peers import tmlt_core as t
    (c,) = t.judge_conversion("1", "1e-6", 0.017468904769123376, 0.01746890476912338)
    assert c.formula.verdict == "exact" and c.truth.verdict == "conservative" and 0.6 < c.truth.ratio < 0.65
    (c,) = t.judge_conversion("1", "1e-6", 0.01746890476912338, math.nextafter(0.01746890476912338, 1))
    assert c.formula.verdict in common.UNSOUND and c.truth.verdict == "conservative"
    assert [r.verdict for r in t.judge_pure_to_zcdp("0.1", "1/200")] == ["exact"]
    assert t.judge_pure_to_zcdp("0.1", "1/201")[0].verdict == "formula-departure"  # below the cited eps^2/2
    assert t.judge_composition("pure", ["0.1"] * 10, "1")[0].truth.verdict == "exact"
    rows = t.judge_filter("pure", "1", ["1/3"] * 4, [["CONT", "1/3"]] * 3 + [["HALT", "1/3"]])
    assert [r.verdict for r in rows] == ["exact"] * 4  # the exact tie 3 x 1/3 = 1 continues
    rows = t.judge_filter("zcdp", "0.5", ["0.1"] * 6, [["CONT", "1/10"]] * 6)
    assert rows[-1].verdict == "formula-departure" and {r.verdict for r in rows[:5]} == {"exact"}
    calls, judges = t.plan(quick=True)
    assert len(calls) == len(judges) and {c[0] for c in calls} == {"zcdp_to_approx", "pure_to_zcdp", "compose",
                                                                   "filter_rounds"}


@pytest.mark.tier("peers")
def test_tmlt_core_runs_in_its_own_interpreter():
    """Set DPBOUNDS_TMLT_PYTHON to the interpreter of a venv with tmlt.core (it pins numpy 1.26, sympy 1.12)."""
    import os
    python = os.environ.get("DPBOUNDS_TMLT_PYTHON")
    if not python:
        pytest.skip("DPBOUNDS_TMLT_PYTHON is not set (the interpreter of a venv with tmlt.core)")
    (res,) = audit_peers(["tmlt_core"], quick=True, pythons={"tmlt_core": python})
    assert res.status == "ran" and res.version and len(res.comparisons) >= 10, (res.reason, res.notes)
    assert not [c for c in res.comparisons if c.verdict in ("error", "adapter-error")]
    # every declaration and the four exact checks give judged rows
    from dpbounds.audit.peers import tmlt_core
    by_fn = {c.function for c in res.comparisons}
    want = {d.function for d in tmlt_core.declarations()} | {tmlt_core.F_CONV, tmlt_core.F_PURE, tmlt_core.F_COMP,
                                                             tmlt_core.F_FILTER}
    assert by_fn == want, want ^ by_fn
    assert res.coverage and res.coverage["declared"] >= 40


@pytest.mark.tier("peers")
def test_diffprivlib_runs_the_same_in_its_own_interpreter():
    """--python diffprivlib=PATH: the accountant runs on the other side of a JSON pipe and decides as here (rounds
    allowed, and the exact engine's replay-from-scratch filter at a HALT and a CONT)."""
    import sys
    from types import SimpleNamespace

    pytest.importorskip("diffprivlib")
    from dpbounds.audit.peers.diffprivlib import DiffprivlibFilter, rounds_allowed_diffprivlib
    for case in ((1.0, 1e-6, 0.0, 0.01), (1.0, 1e-6, 1e-6, 0.01), (0.5, 1e-6, 1e-7, 0.01)):
        assert rounds_allowed_diffprivlib(*case, 2000) == rounds_allowed_diffprivlib(*case, 2000, sys.executable)
    assert rounds_allowed_diffprivlib(1.0, 1e-6, 0.0, 0.01, 2000) == 99  # basic composition: 99 x fl(0.01) <= 1
    here, there = DiffprivlibFilter(), DiffprivlibFilter(sys.executable)
    try:
        history = SimpleNamespace(params=[(0.4, 0.0), (0.4, 0.0)])
        for cand, want in (((0.2, 0.0), True), ((0.3, 0.0), False)):
            assert here.factory(1.0, 0.0, 0.0)(history, cand) is want
            assert there.factory(1.0, 0.0, 0.0)(history, cand) is want
    finally:
        there.close()


@pytest.mark.tier("peers")
def test_pipeline_dp_extra_rows_come_from_its_own_interpreter_too():
    """--python pipeline_dp=PATH: the calibration and budget-split rows (not declarations) ask the peer in that
    interpreter (pipeline_dp_calls over JSON) and give the rows this interpreter gives -- they were silently
    dropped before (an audit of 12 rows instead of 35)."""
    import sys
    pytest.importorskip("pipeline_dp")
    from dpbounds.audit.peers import pipeline_dp as p
    here, there = p.extra_rows(), p.extra_rows(python=sys.executable)
    assert len(here) == len(there) == 23
    assert [(c.function, c.inputs, c.peer_value, c.verdict) for c in here] == \
        [(c.function, c.inputs, c.peer_value, c.verdict) for c in there]
    assert sum(c.verdict == "unsound-rounding" for c in here) == 5  # equally_split_budget / NaiveBudgetAccountant
