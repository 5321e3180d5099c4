"""A peer that lies in its return type: a string, None, NaN, a list, a generator, a complex, a Fraction, a bool, an
int beyond float64.  Each is a row the report renders (JSON, markdown, HTML) with its value cut to a short repr,
and a function none of whose rows was judged fails the gate (exit 2): an error is never a pass."""

from __future__ import annotations

import json
import math
import textwrap
from fractions import Fraction

import pytest

from dpbounds.audit.run import exit_status, not_judged, render_html, render_markdown, to_json
from dpbounds.testing.results import Comparison, PeerResult
from dpbounds.testing.verdicts import REPR_LIMIT, judge_upper

LO, HI = Fraction(23, 4), Fraction(23, 4) + Fraction(1, 10**20)
#: what a hostile peer may return instead of a float
GARBAGE = ["5.75", None, math.nan, [1.0] * 100_000, complex(1, 1), Fraction(10**20, 3), True, b"5.75", {"eps": 1.0}]


def _row(value, function="lie.eps"):
    j = judge_upper(value, LO, HI, role="formula", reference="conversions.bs16", description="d")
    return Comparison("lie", function, "value", {"rho": "0.5"}, peer_value=value, formula=j)


@pytest.mark.parametrize("value", GARBAGE, ids=lambda v: type(v).__name__)
def test_a_non_number_is_an_error_row_every_format_renders_and_the_gate_fails(value):
    res = PeerResult("lie", "1.0", comparisons=[_row(value)])
    doc = json.loads(to_json([res]))  # was: TypeError (math.isfinite of a str) -> "internal error", no report
    (c,) = doc["peers"][0]["comparisons"]
    assert c["verdict"] == "error" and c["peer_value"] is None and c["peer_value_is_inf"] is False
    assert len(c["peer_output"]) <= REPR_LIMIT and len(c["formula"]["detail"]) <= REPR_LIMIT + 40
    assert len(render_markdown([res])) < 20_000 and len(render_html([res])) < 40_000  # a 100,000-element list is cut
    assert exit_status([res]) == 2 and not_judged([res])  # was 0: nothing of lie.eps was judged


def test_one_unjudged_row_beside_judged_ones_is_a_finding_not_a_gate_failure():
    res = PeerResult("lie", "1.0", comparisons=[_row(None), _row(6.0)])
    assert exit_status([res]) == 0 and not not_judged([res])
    assert exit_status([res], "error") == 1


def test_a_search_that_judged_no_example_fails_the_gate():
    res = PeerResult("lie", "1.0", comparisons=[], search=[{"function": "lie.eps", "verdict": "error", "examples": 0,
                                                             "detail": "0 of 200 examples judged"}])
    assert exit_status([res]) == 2 and "lie.eps" in not_judged([res])[0]


INIT = '''
from dpbounds.testing import Declaration, Peer

PEER = Peer("NAME", dist="dpbounds", module="json")


def declarations():
    return [Declaration(peer=PEER.name, function=f"NAME.{f}", call=__name__ + f".calls:{f}",
                        reference="conversions.bs16", inputs={"rho": (1e-3, 10.0), "delta": (1e-12, 0.1)},
                        examples=({"rho": 0.5, "delta": 1e-6},), cites="Bun, Steinke 2016, Prop. 1.3",
                        against="cited") for f in ("as_str", "huge_int", "as_list", "as_none")]
'''
CALLS = '''
def as_str(rho, delta):
    return "5.756521769756932"


def huge_int(rho, delta):
    return 10 ** 5000


def as_list(rho, delta):
    return [1.0] * 100_000


def as_none(rho, delta):
    return None
'''


@pytest.mark.parametrize("where", ["in-process", "own-interpreter"])
def test_an_audited_peer_returning_a_string_a_huge_int_or_a_list_gets_a_report(tmp_path, monkeypatch, where):
    # in its own interpreter (--python) the peer's answer crosses as JSON: a non-number must still arrive as the
    # peer's answer, not as an exception of our driver (an adapter-error)
    import sys

    from dpbounds.audit import peers
    import dpbounds.audit.run as run
    pkg = tmp_path / "lying_peer"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(textwrap.dedent(INIT).replace("NAME", "lying_peer"))
    (pkg / "calls.py").write_text(textwrap.dedent(CALLS))
    monkeypatch.setattr(peers, "__path__", [*peers.__path__, str(tmp_path)])
    monkeypatch.setattr(run, "ADAPTERS", run.discover_peers())
    pythons = {"lying_peer": sys.executable} if where == "own-interpreter" else None
    (r,) = run.audit_peers(peers=["lying_peer"], pythons=pythons, timeout=None)
    doc = json.loads(to_json([r]))  # was: internal error (a str peer value), no report
    rows = {c["function"]: c for c in doc["peers"][0]["comparisons"]}
    for f in ("as_str", "as_list", "as_none"):
        assert rows[f"lying_peer.{f}"]["verdict"] == "error", rows[f"lying_peer.{f}"]
    assert "None, not a number" in rows["lying_peer.as_none"]["formula"]["detail"]
    # an int beyond float64 is +inf, a sound (if useless) upper bound: the peer's answer, not our error
    assert rows["lying_peer.huge_int"]["verdict"] == "conservative", rows["lying_peer.huge_int"]
    assert exit_status([r]) == 2


def _bs16(rho, delta):
    return rho + 2 * math.sqrt(rho * math.log(1 / delta))


def test_seconds_inf_means_no_cap_and_judges():
    from dpbounds.testing import check_conversion
    r = check_conversion(_bs16, "conversions.bs16", inputs={"rho": (1e-3, 10.0), "delta": (1e-12, 0.1)},
                         max_examples=3, seconds=math.inf)  # was: every call an OverflowError charged to fn
    assert r.verdict not in ("error", "adapter-error") and r.examples >= 3, r.detail


@pytest.mark.parametrize("which", ["check_conversion", "check_filter", "check_odometer"])
def test_an_implementation_that_cannot_be_called_is_a_type_error(which):
    import dpbounds.testing as T
    kw = {"check_conversion": dict(inputs={"rho": (0.1, 1.0), "delta": (1e-6, 0.1)}),
          "check_filter": dict(budget={"eps_g": 1.0, "delta_g": 1e-6}),
          "check_odometer": dict(params={"delta_g": 1e-6, "n": 1000})}[which]
    ref = {"check_conversion": "conversions.bs16", "check_filter": "rruv16.thm5_1", "check_odometer": "rruv16.thm6_5"}
    with pytest.raises(TypeError, match="must be callable"):  # was an adapter-error row blaming our wrapper
        getattr(T, which)(42, ref[which], max_examples=2, **kw)


@pytest.mark.tier("slow")
def test_a_python_that_cannot_run_the_peer_fails_the_gate(tmp_path):
    """--python PEER=/bin/false: the peer was asked for in that interpreter and nothing was judged (it was
    'skipped, not installed' and the audit exited 0)."""
    import os
    import subprocess
    import sys
    pkg = tmp_path / "asked_peer"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(textwrap.dedent(INIT).replace("NAME", "asked_peer"))
    (pkg / "calls.py").write_text(textwrap.dedent(CALLS))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]),
           "DPBOUNDS_PROGRESS": "0"}
    r = subprocess.run([sys.executable, "-m", "dpbounds", "audit", "--peers", "none", "--adapter", "asked_peer",
                        "--python", "asked_peer=/bin/false", "--timeout", "120", "--format", "json"],
                       env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert r.returncode == 2, (r.returncode, r.stdout[-800:], r.stderr[-800:])
    (peer,) = json.loads(r.stdout)["peers"]
    assert peer["status"] == "error" and "--python asked_peer=/bin/false" in peer["reason"]


def test_a_python_that_cannot_run_the_peer_is_an_error_in_process(tmp_path, monkeypatch):
    from dpbounds.audit import peers
    import dpbounds.audit.run as run
    pkg = tmp_path / "asked_peer2"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(textwrap.dedent(INIT).replace("NAME", "asked_peer2"))
    (pkg / "calls.py").write_text(textwrap.dedent(CALLS))
    monkeypatch.setattr(peers, "__path__", [*peers.__path__, str(tmp_path)])
    monkeypatch.setattr(run, "ADAPTERS", run.discover_peers())
    (r,) = run.audit_peers(peers=["asked_peer2"], pythons={"asked_peer2": "/bin/false"}, timeout=None)
    assert r.status == "error" and exit_status([r]) == 2, (r.status, r.reason)
