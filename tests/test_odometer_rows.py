"""An odometer declared in a peer package is judged through the audit's own path (``audit_peers``, whose
``rejudge`` recomputes every verdict from the row's numbers): its example rows carry the peer's running value and the
certified enclosure of the reference's, so a correct odometer gives judged rows (exact, conservative) and an
under-reporting one an ``unsound`` row -- never an ``adapter-error`` for a judgement of ours that lacked its numbers.

The reference is Rogers, Roth, Ullman, Vadhan 2016 (arXiv:1605.08294v3), Thm. 3.4: the running value of the basic
composition odometer is sum eps_i, so on the stream 0.5, 0.25, 1.0 (dyadic: every partial sum is a float64) it is
0.5, 0.75, 1.75 exactly."""

from __future__ import annotations

import textwrap
from fractions import Fraction
from pathlib import Path

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


def _audit(tmp_path: Path, monkeypatch, name: str) -> dict:
    from dpbounds.audit import peers
    pkg = tmp_path / name
    pkg.mkdir()
    (pkg / "__init__.py").write_text(textwrap.dedent(INIT).replace("NAME", name))
    (pkg / "calls.py").write_text(textwrap.dedent(CALLS))
    monkeypatch.setattr(peers, "__path__", [*peers.__path__, str(tmp_path)])
    import dpbounds.audit.run as run
    monkeypatch.setattr(run, "ADAPTERS", {name: f"dpbounds.audit.peers.{name}"})
    (r,) = run.audit_peers(peers=[name], timeout=None)
    peer = r.as_json()
    assert peer["status"] == "ran", peer
    return peer


def test_odometer_rows_are_judged_from_their_numbers_through_the_audit(tmp_path, monkeypatch):
    peer = _audit(tmp_path, monkeypatch, "odometer_rows_peer")
    rows: dict[str, list[dict]] = {}
    for c in peer["comparisons"]:
        rows.setdefault(c["function"].rsplit(".", 1)[1], []).append(c)
    assert not [c for c in peer["comparisons"] if c["verdict"] == "adapter-error"], peer["comparisons"]
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
