"""A peer in its own interpreter is judged by the seed, not by the clock: its start and its imports (a slow import
of the peer, a lazy one inside a function's first call) are not counted against a call's time limit, so a slow start
gives the same rows as a quick one; a call over its cap (the audit's, or the declaration's own ``call_seconds``) is
not judged and makes the search ``incomplete``, naming the input -- never a pass, never another verdict."""

from __future__ import annotations

import sys

import pytest

from dpbounds.testing import Declaration, run_declaration

CALLS = "tests.fake_peers.slow_start_calls:"
SLOW = "tests.fake_peers.slow_start"
DOMAIN = {"rho": (1e-8, 100.0), "delta": (1e-300, 0.5)}


def _search(call, monkeypatch, *, import_delay=0.0, first_call_delay=0.0, call_delay=0.0, cap=0.3, seconds=120,
            **kw):
    monkeypatch.setenv("DPBOUNDS_TEST_IMPORT_DELAY", str(import_delay))
    monkeypatch.setenv("DPBOUNDS_TEST_FIRST_CALL_DELAY", str(first_call_delay))
    monkeypatch.setenv("DPBOUNDS_TEST_CALL_DELAY", str(call_delay))
    d = Declaration(peer="fake", function=f"fake.{call}", call=CALLS + call, reference="conversions.cks20",
                    inputs=DOMAIN)
    return run_declaration(d, seconds=seconds, python=sys.executable, call_timeout=cap, **kw)


def _same(r):
    """What a search shows: its JSON and its row."""
    return r.as_json(), r.row.as_json() if r.row is not None else None


def test_a_slow_start_gives_the_same_rows_as_a_quick_one(monkeypatch):
    # the peer's interpreter takes 0.6 s to import its calls module, or 0.6 s in the function's first call, each
    # over the 0.2 s call cap: the start is awaited apart and the first call has the start-up allowance (as the
    # laws' warm-up), so the same points are judged with the same verdict as without the delay
    quick = _search("eps", monkeypatch, cap=0.2, max_examples=4)
    assert quick.verdict in ("exact", "conservative") and quick.examples == 4 and quick.unanswered == 0
    assert _same(_search("eps", monkeypatch, import_delay=0.6, cap=0.2, max_examples=4)) == _same(quick)
    assert _same(_search("eps", monkeypatch, first_call_delay=0.6, cap=0.2, max_examples=4)) == _same(quick)


def test_a_search_whose_every_call_is_over_its_cap_is_incomplete_naming_the_input(monkeypatch):
    # every call takes 1 s against a 0.3 s cap (no start-up allowance): nothing is judged, and that is never a pass:
    # incomplete, with the first input not answered in the detail and as the row's inputs, the row ours (adapter-error:
    # our cap, not the peer's error)
    from dpbounds.testing import declarations, laws
    from dpbounds.testing.declarations import Unsound, assert_sound
    monkeypatch.setattr(laws, "WARMUP", 0.0)
    r = _search("slow_eps", monkeypatch, call_delay=1.0, max_examples=1, seconds=2)
    assert r.verdict == "incomplete" and r.examples == 0 and r.unanswered >= 1 and not r.counts
    assert set(r.slow) == {"rho", "delta"} and r.as_json()["slow"] == r.slow
    shown = ", ".join(f"{k}={v!r}" for k, v in r.slow.items())
    assert f"not answered within the call time limit of 0.3 s: {shown}" in r.detail
    assert r.row.error_class == "adapter-error" and r.row.verdict == "adapter-error"
    assert r.row.inputs == {k: repr(v) for k, v in r.slow.items()}
    with pytest.raises(Unsound, match="incomplete"):
        assert_sound(r)
    assert declarations.STARTUP_SECONDS > 0.3  # (the start is awaited apart, under its own limit)


def test_a_call_cap_is_a_positive_number_of_seconds():
    from dpbounds.spec import DomainError
    for bad in (0, -1.0, float("nan"), float("inf"), True, "5"):
        with pytest.raises(DomainError, match="call_seconds"):
            Declaration(peer="p", function="f", call=CALLS + "eps", reference="conversions.cks20", call_seconds=bad)
    assert Declaration(peer="p", function="f", call=CALLS + "eps", reference="conversions.cks20",
                       call_seconds=30).call_seconds == 30


def test_the_declarations_call_cap_reaches_the_search_and_the_laws(monkeypatch):
    # Declaration.call_seconds is the search's per-call cap (else CALL_CAP x SECONDS, at least 5 s) and the laws'
    # `terminates` cap is at least it (a slow corner is not read as a hang)
    import dataclasses

    from dpbounds.audit import engine, laws
    from tests.fake_peers import slow_start
    d = slow_start.declarations()[0]
    assert engine.call_cap(d, 60) == 15.0 and engine.call_cap(d, 2) == 5.0
    assert engine.call_cap(dataclasses.replace(d, call_seconds=40.0), 2) == 40.0
    seen = {}

    def capture(runner, **kw):
        seen["call_seconds"] = kw["call_seconds"]
        raise RuntimeError("captured")

    monkeypatch.setattr(laws, "check_laws", capture)
    for own, cap in ((None, laws.CALL_SECONDS), (1.0, laws.CALL_SECONDS), (45.0, 45.0)):
        with pytest.raises(RuntimeError, match="captured"):
            laws.run_laws(dataclasses.replace(d, call_seconds=own), python=None, seconds=1)
        assert seen["call_seconds"] == cap


def _audit(monkeypatch, part=None, **env):
    from dpbounds.audit.engine import SearchOptions, audit_declarations
    from tests.fake_peers import slow_start
    for k in ("IMPORT_DELAY", "FIRST_CALL_DELAY", "CALL_DELAY"):
        monkeypatch.setenv(f"DPBOUNDS_TEST_{k}", str(env.get(k.lower(), 0.0)))
    return audit_declarations(slow_start, python=sys.executable, search=SearchOptions(seconds=2, examples=40),
                              part=part)


def _shown(res):
    return ([{k: v for k, v in s.items() if k not in ("seconds", "search_seconds")} for s in res.search],
            [c.as_json() for c in res.comparisons])


@pytest.mark.tier("slow")
def test_the_audit_of_a_peer_slow_to_start_gives_the_same_rows(monkeypatch):
    # through the audit's search task (its default call cap: 5 s at --search 2): an import of 6 s and a first call of
    # 6 s -- Spark under tmlt.core -- give the same search summary, laws and rows as a quick start
    quick = _audit(monkeypatch, part=0)
    (s,) = quick.search
    assert s["verdict"] in ("exact", "conservative") and s["examples"] == 40 and s["unanswered"] == 0
    assert s["laws"]["examples"] > 0
    assert _shown(_audit(monkeypatch, part=0, import_delay=6.0, first_call_delay=6.0)) == _shown(quick)


@pytest.mark.tier("slow")
def test_a_slow_corner_makes_the_search_incomplete_with_its_input_and_the_audit_exit_2(monkeypatch):
    # a function slow above rho = 10 (3 s a call) with its own call cap of 1 s: the search is incomplete, naming a slow
    # input (rho > 10) -- the verdict the seed gives on the points answered is never replaced by another one -- and
    # the audit lists it as not judged (exit 2 where no finding fails the gate first)
    from dpbounds.audit.run import exit_status, not_judged
    res = _audit(monkeypatch, part=2, call_delay=3.0)
    (s,) = res.search
    assert s["verdict"] == "incomplete" and s["unanswered"] >= 1 and s["examples"] >= 1
    assert s["slow"]["rho"] > 10 and "within the call time limit of 1 s" in s["detail"]
    assert any("fake.slow_above_10" in line and "incomplete" in line for line in not_judged([res]))
    assert exit_status([res], "never") == 2


def test_searches_left_no_time_by_the_peers_timeout_say_so_one_by_one(monkeypatch):
    # a peer audited whole in one child (--jobs 1) ends its searches before its --timeout: a search with no time left
    # is not started, and its summary says so (incomplete: ours, exit 2), one line per function -- not one generic
    # timeout row for the whole peer with every result lost
    import time

    from dpbounds.audit.engine import SearchOptions, audit_declarations
    from dpbounds.audit.run import not_judged
    from tests.fake_peers import slow_start
    res = audit_declarations(slow_start, search=SearchOptions(seconds=2, deadline=time.time() + 1.0))
    assert [s["function"] for s in res.search] == ["fake.eps", "fake.slow_eps", "fake.slow_above_10"]
    for s in res.search:
        assert s["verdict"] == "incomplete" and s["examples"] == 0 and "--timeout came first" in s["detail"]
    lines = not_judged([res])
    assert all(any(f"`{s['function']}` (search): incomplete" in x for x in lines) for s in res.search)


def test_the_peers_deadline_goes_to_its_child_only_when_it_runs_whole(monkeypatch):
    # the child of a whole peer gets the deadline of its --timeout (less a margin for its rows and its answer); a unit
    # of --jobs is a child of its own, whose timeout names its function already: no deadline
    import time

    from dpbounds.audit import run
    from dpbounds.audit.engine import SearchOptions
    sent = []
    monkeypatch.setattr(run, "_child", lambda spec, timeout: sent.append(spec) or {"error": "stub"})
    t0 = time.time()
    run._run_isolated("m", False, None, label="m", cwd_first=False, timeout=400, search=SearchOptions(seconds=2))
    run._run_isolated("m", False, None, label="m", cwd_first=False, timeout=400, search=SearchOptions(seconds=2),
                      part=3)
    whole, unit = (s["search"]["deadline"] for s in sent)
    assert t0 + 400 - 60 <= whole <= time.time() + 400 - 60 and unit is None
