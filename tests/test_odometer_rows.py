"""An odometer declared in a peer package is judged through the audit's own path (``audit_peers``, whose
``rejudge`` recomputes every verdict from the row's numbers): its example rows carry the peer's running value and the
certified enclosure of the reference's, so a correct odometer gives judged rows (exact, conservative) and an
under-reporting one an ``unsound`` row -- never an ``adapter-error`` for a judgement of ours that lacked its numbers.

The reference is Rogers, Roth, Ullman, Vadhan 2016 (arXiv:1605.08294v3), Thm. 3.4: the running value of the basic
composition odometer is sum eps_i, so on the stream 0.5, 0.25, 1.0 (dyadic: every partial sum is a float64) it is
0.5, 0.75, 1.75 exactly."""

from __future__ import annotations

import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest

INIT = '''
"""A throwaway peer: three odometers of pure-DP basic composition."""

from dpbounds.testing import Declaration, Peer

PEER = Peer("NAME", dist="dpbounds", module="json")
STREAM = ({"eps": 0.5}, {"eps": 0.25}, {"eps": 1.0})


def declarations():
    return [Declaration(peer=PEER.name, function=f"NAME.{n}", call=__name__ + f".calls:{n}",
                        reference="rruv16.thm3_4.odometer", kind="odometer", budget={}, examples=(STREAM,),
                        cites="Rogers, Roth, Ullman, Vadhan 2016, arXiv:1605.08294v3, Thm. 3.4")
            for n in ("Summed", "Padded", "Shaved")]
'''
CALLS = '''
class Summed:
    """sum eps_i: the reference's value."""

    def __init__(self):
        self.total = 0.0

    def step(self, eps):
        self.total += eps
        return self.total


class Padded(Summed):
    """sum eps_i doubled: sound, looser."""

    def step(self, eps):
        return 2 * super().step(eps)


class Shaved(Summed):
    """a planted under-report: 0.9 sum eps_i."""

    def step(self, eps):
        return 0.9 * super().step(eps)
'''


def test_odometer_rows_are_judged_from_their_numbers_through_the_audit(tmp_path, monkeypatch):
    rows = _audit_peer(tmp_path, monkeypatch, "odometer_rows_peer", INIT, CALLS)
    assert not [c for cs in rows.values() for c in cs if c["verdict"] == "adapter-error"], rows
    # the correct odometer: one exact row per round, each at that round's value and enclosing it
    assert [c["verdict"] for c in rows["Summed"]] == ["exact"] * 3
    assert [c["peer_value"] for c in rows["Summed"]] == [0.5, 0.75, 1.75]
    for c, truth in zip(rows["Summed"], ("0.5", "0.75", "1.75")):
        lo, hi = (Fraction(x) for x in c["truth"]["enclosure"])
        assert lo <= Fraction(truth) <= hi and c["truth"]["claim"] == "upper"
    # a sound but looser odometer: conservative at round 1 (its rows stop at the first round that is not exact)
    (padded,) = rows["Padded"]
    assert padded["verdict"] == "conservative" and padded["peer_value"] == 1.0
    # the planted under-report: unsound, with its gap
    (shaved,) = rows["Shaved"]
    assert shaved["verdict"] == "unsound" and shaved["peer_value"] == 0.45
    assert abs(shaved["truth"]["gap"]["relative"] - 0.1) < 1e-12


def test_rejudge_still_refuses_a_hand_built_judgement_without_numbers():
    from dpbounds.testing.results import Comparison, PeerResult, rejudge
    from dpbounds.testing.verdicts import Judgement
    c = Comparison("p", "p.f", "odometer round 1", {"history": "0.5"}, peer_value=0.5,
                   truth=Judgement("truth", "rruv16.thm3_4.odometer", "basic composition", "exact"))
    (c,) = rejudge(PeerResult("p", "1", comparisons=[c])).comparisons
    assert c.verdict == "adapter-error"


# A lifted odometer (Lemma 3.3 applied to Thm. 3.4 with the corrected per-round charge,
# rruv16.lemma3_3.odometer.thm3_4.corrected): sum 2 eps_i while LIFTC = sum delta_i (1 + e^{-2 eps_i}) /
# (1 - e^{-eps_i}) <= delta_dprime, +oo once it exceeds it.  On the stream below LIFTC is 0 at round 1 (value
# 2 * 0.5 = 1) and 0.5 (1 + e^-1) / (1 - e^-0.5) ~ 1.74 > 0.01 at round 2: the reference is +oo there.
LIFTED_INIT = '''
"""A throwaway peer: lifted odometers, one that voids itself and one that does not, and odometers that return None."""

from dpbounds.testing import Declaration, Peer

PEER = Peer("NAME", dist="dpbounds", module="json")
STREAM = ({"eps": 0.5, "delta": 0.0}, {"eps": 0.5, "delta": 0.5})


def declarations():
    lifted = [Declaration(peer=PEER.name, function=f"NAME.{n}", call=__name__ + f".calls:{n}",
                          reference="rruv16.lemma3_3.odometer.thm3_4.corrected", kind="odometer",
                          budget={"delta_dprime": 0.01}, costs=("eps", "delta"), examples=(STREAM,),
                          cites="Rogers, Roth, Ullman, Vadhan 2016, arXiv:1605.08294v3, Lemma 3.3 (the corrected "
                                "charge) and Thm. 3.4")
              for n in ("Voided", "Unvoided")]
    silent = [Declaration(peer=PEER.name, function=f"NAME.{n}", call=__name__ + f".calls:{n}",
                          reference="rruv16.thm3_4.odometer", kind="odometer", budget={},
                          examples=(({"eps": 0.5}, {"eps": 0.25}),),
                          cites="Rogers, Roth, Ullman, Vadhan 2016, arXiv:1605.08294v3, Thm. 3.4")
              for n in ("Silent", "SilentValue")]
    return lifted + silent
'''
LIFTED_CALLS = '''
import math


class Voided:
    """sum 2 eps_i, +inf once sum delta_i (1 + e^{-2 eps_i}) / (1 - e^{-eps_i}) exceeds delta_dprime: the
    reference's value."""

    def __init__(self, delta_dprime):
        self.dd, self.total, self.lift = delta_dprime, 0.0, 0.0

    def step(self, eps, delta):
        self.total += 2 * eps
        self.lift += delta * (1 + math.exp(-2 * eps)) / (1 - math.exp(-eps))
        return math.inf if self.lift > self.dd else self.total


class Unvoided(Voided):
    """a planted fault: never voids (a finite value where the reference has no guarantee)."""

    def step(self, eps, delta):
        super().step(eps, delta)
        return self.total


class Silent:
    """a faulty odometer: step returns None and there is no value() to ask."""

    def step(self, eps):
        return None


class SilentValue(Silent):
    """a faulty odometer: step returns None and value() returns None too."""

    def value(self):
        return None
'''


def _audit_peer(tmp_path: Path, monkeypatch, name: str, init: str, calls: str,
                python: str | None = None) -> dict[str, list[dict]]:
    from dpbounds.audit import peers
    pkg = tmp_path / name
    pkg.mkdir()
    (pkg / "__init__.py").write_text(textwrap.dedent(init).replace("NAME", name))
    (pkg / "calls.py").write_text(textwrap.dedent(calls))
    monkeypatch.setattr(peers, "__path__", [*peers.__path__, str(tmp_path)])
    import dpbounds.audit.run as run
    monkeypatch.setattr(run, "ADAPTERS", {name: f"dpbounds.audit.peers.{name}"})
    (r,) = run.audit_peers(peers=[name], pythons={name: python} if python else None, timeout=None)
    peer = r.as_json()
    assert peer["status"] == "ran", peer
    rows: dict[str, list[dict]] = {}
    for c in peer["comparisons"]:
        rows.setdefault(c["function"].rsplit(".", 1)[1], []).append(c)
    return rows


def test_a_reference_of_plus_infinity_is_judged_not_charged_to_the_adapter(tmp_path, monkeypatch):
    rows = _audit_peer(tmp_path, monkeypatch, "odometer_inf_peer", LIFTED_INIT, LIFTED_CALLS)
    # the correct lifted odometer: exact at round 1 (value 1) and at round 2, where both are +inf
    assert [c["verdict"] for c in rows["Voided"]] == ["exact", "exact"], rows["Voided"]
    assert rows["Voided"][1]["peer_value_is_inf"]
    # the one that never voids claims a guarantee (2.0) where the reference has none: unsound, the peer's
    assert [c["verdict"] for c in rows["Unvoided"]] == ["exact", "unsound"], rows["Unvoided"]
    assert rows["Unvoided"][1]["peer_value"] == 2.0
    assert rows["Unvoided"][1]["truth"]["enclosure"] == ["inf", "inf"]


@pytest.mark.parametrize("where", ["in-process", "own-interpreter"])
def test_an_odometer_that_returns_none_is_the_peers_error(tmp_path, monkeypatch, where):
    # None from step() (and no value(), or a value() that returns None too) is the implementation's answer: a
    # non-number, the peer's error -- in its own interpreter (--python) as in this one
    python = sys.executable if where == "own-interpreter" else None
    rows = _audit_peer(tmp_path, monkeypatch, "odometer_none_peer", LIFTED_INIT, LIFTED_CALLS, python)
    for name in ("Silent", "SilentValue"):
        (c,) = rows[name]
        assert c["verdict"] == "error", c
        assert "returned None, not a number" in (c["error"] or ""), c


def test_rejudge_accepts_an_infinite_upper_end():
    from math import inf

    from dpbounds.testing.results import Comparison, PeerResult, rejudge
    from dpbounds.testing.verdicts import Judgement

    def rejudged(peer_value: float, lo, hi, verdict: str = "exact", claim: str = "upper") -> str:
        c = Comparison("p", "p.f", "odometer round 2", {"history": "0.5"}, peer_value=peer_value,
                       truth=Judgement("truth", "ref", "a reference", verdict, lo, hi, claim=claim))
        (c,) = rejudge(PeerResult("p", "1", comparisons=[c])).comparisons
        return c.verdict

    # the reference is exactly +oo: only +inf is exact; any finite value claims a guarantee there is not
    assert rejudged(inf, inf, inf) == "exact"
    assert rejudged(3.0, inf, inf) == "unsound"
    assert rejudged(3.0, inf, inf, verdict="conservative") == "unsound"   # an adapter cannot clear it
    # [lo, +oo): a value at or above lo is not shown unsound (nor sound); below lo it is
    assert rejudged(3.0, Fraction(2), inf) == "undecided"
    assert rejudged(inf, Fraction(2), inf) == "conservative"
    assert rejudged(1.0, Fraction(2), inf) == "unsound"
    # a lower claim (larger is more privacy) against +oo: every finite value is sound
    assert rejudged(3.0, inf, inf, claim="lower") == "conservative"
    # still strict: missing or reversed ends, a -inf end, a finite float end are not numbers to judge
    for lo, hi in ((None, inf), (inf, Fraction(2)), (-inf, inf), (2.0, inf)):
        assert rejudged(3.0, lo, hi) == "adapter-error", (lo, hi)


def test_a_search_witness_against_plus_infinity_is_judged_not_charged_to_the_adapter(tmp_path, monkeypatch):
    from dpbounds.testing.checks import check_odometer
    from dpbounds.testing.results import PeerResult, comparison_from_wire, rejudge, to_wire
    (tmp_path / "lifted_calls.py").write_text(textwrap.dedent(LIFTED_CALLS))
    monkeypatch.syspath_prepend(str(tmp_path))
    import lifted_calls
    stream = [{"eps": 0.5, "delta": 0.0}, {"eps": 0.5, "delta": 0.5}]
    res = check_odometer(lifted_calls.Unvoided, "rruv16.lemma3_3.odometer.thm3_4.corrected",
                         budget={"delta_dprime": 0.01}, costs=("eps", "delta"), examples=[stream], max_examples=1)
    r = res.as_json()
    assert r["verdict"] == "unsound" and r["enclosure"] == ["inf", "inf"], r
    # the witness's row, as the audit receives it from a search task (JSON across the process boundary)
    row = comparison_from_wire(to_wire(res.row))
    (c,) = rejudge(PeerResult("p", "1", comparisons=[row])).comparisons
    assert c.verdict == "unsound" and c.peer_value == 2.0, c
    assert c.truth.lo == c.truth.hi == float("inf") and c.truth.claim == "upper", c.truth
