"""CONTRIBUTING's "Add a peer" recipe, followed once: a throwaway peer package in a temporary directory -- its
declarations (``__init__.py``), its calls module (``calls.py``) and its recorded witnesses (``witnesses.json``) -- is
discovered and audited, both ways the recipe gives: as a package of ``dpbounds.audit.peers`` (discovery by
``pkgutil``, the in-repository way) and as an installed distribution's entry point ``dpbounds.audit_adapters``
(``dpbounds audit --peers NAME``, the out-of-repository way)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

#: the recipe's three files (CONTRIBUTING.md, "Add a peer"), for a peer named NAME whose calls need only the stdlib
INIT = '''
"""A throwaway peer: the zCDP -> (eps, delta) conversion of Bun and Steinke 2016, Prop. 1.3."""

from dpbounds.testing import Declaration, Peer

PEER = Peer("NAME", dist="dpbounds", module="json")


def declarations():
    return [Declaration(peer=PEER.name, function="NAME.eps", call=__name__ + ".calls:eps",
                        reference="conversions.bs16", inputs={"rho": (1e-3, 10.0), "delta": (1e-12, 0.1)},
                        examples=({"rho": 0.5, "delta": 1e-6},),
                        cites="Bun, Steinke 2016, arXiv:1605.02065v1, Prop. 1.3", against="cited")]
'''
CALLS = '''
import math


def eps(rho, delta):
    return rho + 2 * math.sqrt(rho * math.log(1 / delta))
'''
WITNESSES = [{"call": "calls:eps", "ref": "conversions.bs16", "inputs": {"rho": 0.1, "delta": 1e-5}}]


def _package(where: Path, name: str) -> Path:
    pkg = where / name
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(textwrap.dedent(INIT).replace("NAME", name))
    (pkg / "calls.py").write_text(textwrap.dedent(CALLS))
    (pkg / "witnesses.json").write_text(json.dumps(WITNESSES))
    return pkg


def _rows(peer: dict) -> list[dict[str, str]]:
    return [c["inputs"] for c in peer["comparisons"]]


def test_a_peer_package_under_dpbounds_audit_peers_is_discovered_and_audited(tmp_path, monkeypatch):
    from dpbounds.audit import peers
    from dpbounds.audit.run import audit_peers, discover_peers
    _package(tmp_path, "throwaway_peer")
    monkeypatch.setattr(peers, "__path__", [*peers.__path__, str(tmp_path)])
    found = discover_peers()
    assert found["throwaway_peer"] == "dpbounds.audit.peers.throwaway_peer"
    import dpbounds.audit.run as run
    monkeypatch.setattr(run, "ADAPTERS", found)
    (r,) = audit_peers(peers=["throwaway_peer"], timeout=None)
    peer = r.as_json()
    assert peer["status"] == "ran", peer
    assert {"rho": "0.1", "delta": "1e-05"} in _rows(peer) and {"rho": "0.5", "delta": "1e-06"} in _rows(peer)
    assert all(c["formula"]["reference"] == "conversions.bs16" for c in peer["comparisons"])


def test_a_peer_outside_the_repository_is_discovered_through_its_entry_point(tmp_path):
    _package(tmp_path, "my_dp_peer")
    info = tmp_path / "my_dp_peer-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: my-dp-peer\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[dpbounds.audit_adapters]\nmy_dp_peer = my_dp_peer\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]),
           "DPBOUNDS_PROGRESS": "0"}
    out = tmp_path / "audit.json"
    r = subprocess.run([sys.executable, "-m", "dpbounds", "audit", "--peers", "my_dp_peer", "--timeout", "300",
                        "--format", "json", "--out", str(out)], env=env, cwd=tmp_path, capture_output=True, text=True,
                       timeout=600)
    assert out.exists(), r.stderr[-1000:]
    (peer,) = json.loads(out.read_text())["peers"]
    assert peer["peer"] == "my_dp_peer" and peer["status"] == "ran", peer
    assert {"rho": "0.1", "delta": "1e-05"} in _rows(peer) and {"rho": "0.5", "delta": "1e-06"} in _rows(peer)
