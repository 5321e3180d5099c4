"""The audit on the dpbounds.testing engine: declarative adapters give one row per grid example (the verdicts the
hand-written adapters gave), ``--search`` finds what lies between the grid points, witnesses are kept and replayed,
and a seed gives the same findings in this process, in worker processes and in the peer's own interpreter."""

from __future__ import annotations

import json
import sys

import pytest

from dpbounds.audit.engine import SearchOptions
from dpbounds.audit.run import audit_peers

FAKE = "tests.fake_peers.declared"


def _one(search=None, pythons=None):
    (r,) = audit_peers(adapters=[FAKE], search=search, pythons=pythons)
    return r


def test_grid_examples_give_one_row_each_and_no_search_without_the_flag():
    r = _one()
    assert r.status == "ran" and len(r.comparisons) == 6 and not r.search
    assert {c.verdict for c in r.comparisons} == {"conservative"}  # BS16 is above CKS20 at every grid point
    assert all(c.formula is not None and c.formula.reference == "conversions.cks20" for c in r.comparisons)


def test_search_finds_the_planted_under_report_between_the_grid_points(tmp_path):
    wfile = tmp_path / "witnesses.json"
    r = _one(SearchOptions(seconds=3, witnesses=str(wfile)))
    (s,) = r.search
    # the fake peer cites BS16 and is judged against CKS20 as its formula: below it, a formula departure
    assert s["verdict"] == "formula-departure" and s["witness"]["rho"] < 1e-6 and s["examples"] > 0
    assert s["worst_margin"] < 0 and "tests.fake_peers.declared_calls" in s["reproducer"]
    rows = [c for c in r.comparisons if "search witness" in c.check]
    assert len(rows) == 1 and rows[0].verdict == "formula-departure"
    kept = json.loads(wfile.read_text())["witnesses"]
    assert len(kept) == 1 and list(kept.values())[0][0] == s["witness"]
    # replayed first next time: found again at once, whatever the seed
    r2 = _one(SearchOptions(seconds=0.05, seed=7, witnesses=str(wfile)))
    assert r2.search[0]["verdict"] == "formula-departure" and r2.search[0]["witness"] == s["witness"]


def _findings(search):
    """A search summary without its wall-clock seconds (the only machine-dependent field).  The laws' example count
    is compared too: the draws depend on the seed alone (dpbounds.testing.strategies.isolated_generation), not on
    what ran before in the process."""
    return [{k: v for k, v in s.items() if k not in ("seconds", "search_seconds")} for s in search]


#: searches bounded by their examples alone: the budget of a 2-second search (80 examples of a closed-form
#: conversion), with a time cap that no load reaches (so that two runs compared on a busy machine judge the same points)
BOUNDED = dict(seconds=600, examples=80)


@pytest.mark.tier("slow")
def test_jobs_give_the_same_findings_as_one_process():
    one = _one(SearchOptions(**BOUNDED, seeds=2))
    two = _one(SearchOptions(**BOUNDED, seeds=2, jobs=2))
    assert _findings(one.search) == _findings(two.search)
    assert all(s["seconds"] >= 0 and s["stopped"] in (["found"], ["examples"]) for s in one.search)


@pytest.mark.tier("slow")
def test_peers_at_once_keep_their_order_findings_and_witnesses(tmp_path):
    # two adapters searched at once (--jobs 2) write one witness file: each keeps its own witness (merged under a
    # lock), and the results come back in the order of the peers, as with one peer at a time
    peers = [FAKE, "tests.fake_peers.one_ulp_under", "tests.fake_peers.faithful"]
    w1, w2 = tmp_path / "w1.json", tmp_path / "w2.json"
    seq = audit_peers(adapters=peers, search=SearchOptions(**BOUNDED, witnesses=str(w1)))
    par = audit_peers(adapters=peers, search=SearchOptions(**BOUNDED, jobs=2, witnesses=str(w2)), jobs=2)
    assert [r.peer for r in par] == [r.peer for r in seq]
    assert [_findings(r.search) for r in par] == [_findings(r.search) for r in seq]
    assert [[c.verdict for c in r.comparisons] for r in par] == [[c.verdict for c in r.comparisons] for r in seq]
    assert json.loads(w1.read_text())["witnesses"] == json.loads(w2.read_text())["witnesses"]


def test_concurrent_witness_merges_lose_nothing(tmp_path):
    from concurrent.futures import ProcessPoolExecutor

    from dpbounds.audit.engine import load_witnesses
    f = tmp_path / "w.json"
    with ProcessPoolExecutor(2) as ex:
        list(ex.map(_merge_one, [(str(f), i) for i in range(16)]))
    assert load_witnesses(str(f)) == {f"k{i}": [{"x": i}] for i in range(16)}


def _merge_one(arg):
    from dpbounds.audit.engine import merge_witnesses
    path, i = arg
    merge_witnesses(path, {f"k{i}": [{"x": i}]})


@pytest.mark.tier("slow")
def test_the_peer_can_run_in_another_interpreter():
    here = _one(SearchOptions(**BOUNDED))
    there = _one(SearchOptions(**BOUNDED), pythons={"fake_declared": sys.executable})
    assert [c.verdict for c in here.comparisons] == [c.verdict for c in there.comparisons]
    assert here.search[0]["verdict"] == there.search[0]["verdict"] == "formula-departure"
    assert here.search[0]["witness"] == there.search[0]["witness"]


@pytest.mark.tier("slow")
def test_dask_gives_the_same_findings():
    distributed = pytest.importorskip("distributed")
    # the audit runs each adapter in its own process, which connects to the scheduler as a remote client would: the
    # cluster listens on TCP (an in-process cluster's inproc:// address is reachable only from this process)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp://",
                                  host="127.0.0.1") as cluster:
        there = _one(SearchOptions(**BOUNDED, scheduler=cluster.scheduler_address))
    here = _one(SearchOptions(**BOUNDED))
    assert there.status == here.status == "ran", there.notes
    assert here.search and _findings(here.search) == _findings(there.search)
    # bounded by examples, not by the clock: neither the search nor its laws was cut
    assert all(s["stopped"] != ["time"] and s["budget"] == 80 for s in here.search)


def test_a_filter_in_another_interpreter_gives_the_same_witness():
    from dpbounds.testing import Declaration, run_declaration
    d = Declaration(peer="fake", function="fake.filter", call="tests.fake_peers.declared_calls:extra_round_filter",
                    reference="rruv16.thm3_4.filter", kind="filter", budget={"eps_g": "1"})
    here = run_declaration(d, seconds=60, max_examples=40)
    there = run_declaration(d, seconds=60, max_examples=40, python=sys.executable)
    assert here.verdict == there.verdict == "unsound"
    assert here.witness == there.witness and here.examples == there.examples


def test_jobs_schedule_units_and_a_unit_that_hangs_is_an_error_of_its_function_only():
    # --jobs N with --search runs one pool over (peer, function) units: a function whose calls never return times
    # out alone (an error row and summary of that function), the peer's rows and its other function stay
    peers = [FAKE, "tests.fake_peers.declared_hang"]
    fake, hang = audit_peers(adapters=peers, search=SearchOptions(seconds=2), jobs=2, timeout=20)
    assert fake.status == hang.status == "ran"
    assert [s["function"] for s in hang.search] == ["fake.eps", "fake.hang"]
    assert hang.search[0]["verdict"] == "formula-departure" and hang.search[0]["witness"]["rho"] < 1e-6
    # the unit that hung is ours to look at (adapter-error: it fails the gate), never a finding of the peer
    assert hang.search[1]["verdict"] == "adapter-error" and "timed out" in hang.search[1]["witness"]["error"]
    errors = [c for c in hang.comparisons if c.verdict == "adapter-error"]
    assert [c.function for c in errors] == ["fake.hang"] and "timed out" in errors[0].error
    eps_rows = [c for c in hang.comparisons if c.function == "fake.eps"]
    assert len([c for c in eps_rows if c.verdict != "law-violation"]) == 7  # 6 grid rows + the witness
    # besides them, the laws' violations (its eps fails at delta = 0, an edge of the laws' domain) are rows of their own
    assert all(c.verdict == "law-violation" and c.check.startswith("law ") for c in eps_rows
               if c.verdict == "law-violation")
    assert _findings(fake.search)[0]["witness"] == hang.search[0]["witness"]


def test_audit_section_renders_findings_and_tells_a_changed_rerun(tmp_path):
    # tools/audit_section.py reads the audit JSON it did not write: the README section lists each
    # failing function once with its reproducer; `same` finds no difference between a run and itself (nor its
    # seconds), and names a finding that changed
    import copy
    import importlib.util
    import pathlib

    from dpbounds.audit.run import document
    spec = importlib.util.spec_from_file_location(
        "audit_section", pathlib.Path(__file__).parents[1] / "tools" / "audit_section.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    doc = json.loads(json.dumps(document(audit_peers(adapters=[FAKE, "tests.fake_peers.faithful"],
                                                     search=SearchOptions(seconds=2)))))
    text = mod.render(doc)
    assert text.count("fake.eps") == 1 and "**formula-departure**" in text and "<summary>reproducer</summary>" in text
    assert "| fake_declared |" in text and "| total (2 peers) |" in text
    again = copy.deepcopy(doc)
    for p in again["peers"]:
        for s in p.get("search") or []:
            s["seconds"] = s["search_seconds"] = 12345.0
    assert mod.same(doc, again) == []
    again["findings"][0]["worst"]["peer_value"] = 0.5
    assert any("only in the first run" in d for d in mod.same(doc, again))
    again = copy.deepcopy(doc)
    again["peers"][0]["search"][0]["examples"] += 1
    assert any("search summary differs" in d for d in mod.same(doc, again))
    # a search that reached a time limit in either run: its counts are the machine's, its verdict and witness not
    again["peers"][0]["search"][0]["unanswered"] = 2
    assert mod.same(doc, again) == []
    again["peers"][0]["search"][0]["witness"] = {"rho": 0.5, "delta": 1e-6}
    assert any("search summary differs" in d for d in mod.same(doc, again))


def _slow(call, inputs=None, **kw):
    from dpbounds.testing import Declaration, run_declaration
    d = Declaration(peer="fake", function="fake.slow", call=f"tests.fake_peers.declared_calls:{call}",
                    reference="conversions.cks20", inputs=inputs or {"rho": (1e-8, 100.0), "delta": (1e-12, 0.5)})
    return run_declaration(d, seconds=120, python=sys.executable, call_timeout=1.0, **kw)


def test_a_peer_call_beyond_its_time_limit_is_skipped_not_judged():
    # a peer in another interpreter that takes 3 s above rho = 10, searched with a 1 s limit per call: the points it
    # does not answer in time are counted (unanswered), never judged: the clock decided which points were judged, so
    # the search is incomplete -- never a pass, never a finding; the peer process is restarted and the other points
    # are judged -- a correct implementation is never called unsound (no false alarm) ...
    r = _slow("slow_above_10", max_examples=40)
    assert r.verdict == "incomplete" and r.examples >= 1 and set(r.counts) == {"conservative"}
    assert 1 <= r.unanswered <= r.skipped and r.as_json()["unanswered"] == r.unanswered
    # ... and a planted under-report in the fast part is still found
    r = _slow("slow_above_10_planted", max_examples=40, extra_examples=[{"rho": 1e-7, "delta": 1e-6}])
    assert r.verdict == "unsound" and r.witness["rho"] < 1e-6


def test_explicit_examples_and_replayed_witnesses_have_no_call_time_limit():
    # the same slow point is judged when it is an explicit example (a replayed witness must be judged whatever the
    # machine's load) and unanswered when the search draws it
    r = _slow("slow_above_10", inputs={"rho": [50.0], "delta": [1e-6]}, max_examples=3,
              extra_examples=[{"rho": 50.0, "delta": 1e-6}])
    assert r.examples == 1 and r.unanswered >= 1 and r.counts == {"conservative": 1}
    assert r.verdict == "incomplete"  # the drawn copies were not answered in time


def test_max_rounds_bounds_the_searched_streams():
    from dpbounds.spec import DomainError
    from dpbounds.testing import Declaration, run_declaration
    from tests.fake_peers.declared_calls import _Recording
    kw = dict(peer="fake", function="fake.filter", call="tests.fake_peers.declared_calls:recording_filter",
              reference="rruv16.thm3_4.filter", kind="filter", budget={"eps_g": "1000"})
    _Recording.longest[0] = 0
    r = run_declaration(Declaration(**kw, max_rounds=7), seconds=60, max_examples=60)
    assert r.sound and 1 <= _Recording.longest[0] <= 7
    _Recording.longest[0] = 0
    run_declaration(Declaration(**kw), seconds=60, max_examples=60)
    assert _Recording.longest[0] > 7  # the default reaches longer streams (so the bound above is the field's doing)
    with pytest.raises(DomainError, match="max_rounds"):
        Declaration(**kw, max_rounds=0)


def test_declarations_with_the_same_search_are_searched_once(tmp_path):
    # an adapter naming one certified function as both the cited formula and the truth: one search, whose summary
    # says which declarations it stands for, and which replays the witnesses recorded under either
    import types
    from dpbounds.audit.engine import search_units, witness_key
    from tests.fake_peers import declared
    base = declared.declarations()[0]
    import dataclasses
    mod = types.ModuleType("tests.fake_peers._twice")
    mod.PEER, mod.DIST, mod.MODULE = declared.PEER, declared.DIST, declared.MODULE
    twice = [base, dataclasses.replace(base, against="truth")]
    mod.declarations = lambda: twice
    sys.modules[mod.__name__] = mod
    try:
        assert [i for i, _ in search_units(mod)] == [0]
        wfile = tmp_path / "w.json"
        wfile.write_text(json.dumps({"version": 1, "witnesses": {
            witness_key(twice[1]): [{"rho": 5e-7, "delta": 1e-6}]}}))
        from dpbounds.audit.engine import audit_declarations
        r = audit_declarations(mod, search=SearchOptions(seconds=0.01, witnesses=str(wfile)))
        (s,) = r.search
        assert s["against"] == "cited" and s["also_against"] == ["truth"]
        # searched once, as the most severe of the declarations it stands for (the truth: unsound)
        assert s["verdict"] == "unsound" and s["witness"] == {"rho": 5e-7, "delta": 1e-6}  # replayed
    finally:
        del sys.modules[mod.__name__]


def test_explicit_examples_keep_one_peer_interpreter_open_at_a_time(monkeypatch):
    """A peer in its own interpreter: each call's interpreter is closed after that call's examples, so a peer with
    many calls does not keep one idle interpreter per call open until the end (memory is bounded)."""
    import dataclasses

    from dpbounds.audit.engine import example_rows
    from dpbounds.testing import declarations as decl_mod
    from tests.fake_peers import declared

    live, peak = set(), [0]

    class Counting(decl_mod.Remote):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            live.add(id(self))
            peak[0] = max(peak[0], len(live))

        def close(self):
            live.discard(id(self))
            super().close()

    monkeypatch.setattr(decl_mod, "Remote", Counting)
    (d,) = declared.declarations()
    ds = [dataclasses.replace(d, function=f"fake.{name}", call=f"tests.fake_peers.declared_calls:{name}",
                              examples=d.examples[:1]) for name in ("eps", "eps_again", "eps_once_more")]
    rows = example_rows("fake_declared", ds, python=sys.executable)
    assert len(rows) == 3 and all(r.verdict in ("exact", "conservative") for r in rows), rows
    assert peak[0] == 1 and not live  # one at a time, none left open


def test_a_search_that_cannot_run_still_checks_the_laws(monkeypatch):
    """The laws need no reference: when the search raises (ours: adapter-error), the task still carries the laws'
    result, so a peer's law violation is not hidden behind our error."""
    from dpbounds.audit.engine import search_task
    from dpbounds.testing import declarations as decl_mod

    def broken(*a, **k):
        raise RuntimeError("planted: the reference could not be set up")

    monkeypatch.setattr(decl_mod, "run_declaration", broken)
    out = search_task("tests.fake_peers.declared", 0, 0, 2.0, 20, None, [])
    assert out["verdict"] == "adapter-error" and "planted" in out["detail"]
    assert out["laws"] and out["laws"]["examples"] > 0 and out["laws"]["verdict"] in ("consistent", "inconsistent")


def test_an_example_below_a_cited_formula_is_a_formula_departure_as_in_the_search():
    """A declaration against the formula the peer cites: its explicit example below that formula reads
    formula-departure (graded below a false claim), the same verdict the search gives the same point."""
    import dataclasses

    from dpbounds.audit.engine import example_rows
    from dpbounds.testing.declarations import run_declaration
    from tests.fake_peers import declared

    (d,) = declared.declarations()
    d = dataclasses.replace(d, examples=({"rho": 1e-7, "delta": 1e-6},))  # the planted shortcut: eps = rho
    (row,) = example_rows("fake_declared", [d])
    assert d.against == "cited" and row.verdict == "formula-departure", row.as_json()
    r = run_declaration(dataclasses.replace(d, inputs={"rho": [1e-7], "delta": [1e-6]}), seconds=30, max_examples=1)
    assert r.verdict == row.verdict
