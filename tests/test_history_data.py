"""reference/audit/history.json, read as tools/history.py reads it: every case names its issue (repository and
number), a law check_laws knows, and a declaration of the peer; a reproducible case names the affected release and
the wrong value; every other case says why it is not reproducible."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

from dpbounds.testing.laws import PARAM_LAWS, POINT_LAWS

DATA = Path(__file__).resolve().parents[1] / "reference" / "audit" / "history.json"


def test_every_case_is_complete():
    cases = json.loads(DATA.read_text())["cases"]
    assert len({c["id"] for c in cases}) == len(cases) >= 5
    for c in cases:
        assert "/" in c["repository"] and isinstance(c["issue"], int), c["id"]
        kind, _, p = c["law"].partition(":")
        assert kind in POINT_LAWS or (kind in PARAM_LAWS and p), c["id"]
        mod = importlib.import_module(f"dpbounds.audit.peers.{c['peer']}")
        assert any(c["declaration"] in d.function for d in mod.declarations()), c["id"]
        if c["status"] == "reproducible":
            assert c["affected"] and c["wrong_value"] is not None and c["input"], c["id"]
        else:
            assert c["status"].startswith(("not reachable yet: ", "not a bug: ")), c["id"]
