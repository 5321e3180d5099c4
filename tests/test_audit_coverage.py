"""Coverage of the peers' public accounting surface: every audited peer has its surface listed as data, every entry
not declared says why, and the audit's JSON and markdown carry per peer ``coverage`` (read back by a consumer that
did not write it)."""

from __future__ import annotations

import importlib
import json
import pkgutil

import dpbounds.audit.peers as P
from dpbounds.audit import coverage as C
from dpbounds.testing.results import PeerResult


def _declarative():
    for m in pkgutil.iter_modules(P.__path__):
        if m.name.startswith("_"):
            continue
        mod = importlib.import_module(f"dpbounds.audit.peers.{m.name}")
        if callable(getattr(mod, "declarations", None)):
            yield m.name, mod


def test_every_declarative_peer_has_its_surface_with_reasons():
    for name, mod in _declarative():
        data = C.surface(name)
        assert data, f"{name}: no reference/audit/peers/{name}/surface.json (tools/surface.py lists it)"
        for e in data:
            assert e["name"].endswith(e["key"]) and e["kind"] in ("function", "method")
            assert e.get("declared_by") or any(e["reason"].startswith(r) for r in C.REASONS), e
        cov = C.coverage(name, [d.function for d in mod.declarations()])
        assert cov["public"] >= cov["declared"] >= 0 and len(cov["not_declared"]) == cov["public"] - cov["declared"]


def test_a_declaration_moves_its_entry_to_declared():
    funcs = ["dp_accelerator.DPSGDAccountant.get_epsilon"]
    before = C.coverage("dp_accelerator", funcs)
    after = C.coverage("dp_accelerator", funcs + ["dp_accelerator.DPSGDAccountant.get_rdp_curve"])
    assert after["declared"] == before["declared"] + 1
    names = {e["name"] for e in after["not_declared"]}
    assert "dp_accelerator.DPSGDAccountant.get_rdp_curve" not in names
    # argument lists and [..] tags in a declaration's function text do not hide the name
    assert "PRVAccountant.compute_epsilon" in C._keys(
        "prv_accountant.PRVAccountant(PoissonSubsampledGaussianMechanism(q)).compute_epsilon [upper]")


def test_the_audit_document_carries_coverage():
    from dpbounds.audit.run import document, render_markdown
    r = PeerResult("dp_accelerator", "0.1.0")
    r.coverage = C.coverage("dp_accelerator", ["dp_accelerator.DPSGDAccountant.get_epsilon"])
    doc = json.loads(json.dumps(document([r])))
    cov = doc["peers"][0]["coverage"]
    assert cov["public"] == r.coverage["public"] and all("reason" in e for e in cov["not_declared"])
    md = render_markdown([r])
    assert f"Coverage: {cov['declared']} of {cov['public']}" in md and "get_rdp_curve" in md
