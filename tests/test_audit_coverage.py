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


def test_a_declaration_names_an_entry_by_its_module_not_its_last_name_alone():
    # riskcal defines find_noise_multiplier_for_advantage in two modules: declaring one declares only that one
    dpsgd = {"name": "riskcal.calibration.dpsgd.find_noise_multiplier_for_advantage",
             "key": "find_noise_multiplier_for_advantage"}
    blackbox = {"name": "riskcal.calibration.blackbox.find_noise_multiplier_for_advantage",
                "key": "find_noise_multiplier_for_advantage"}
    (n,) = C._names("riskcal.calibration.dpsgd.find_noise_multiplier_for_advantage [q < 1]")
    assert C.names_entry(n, dpsgd, True) and not C.names_entry(n, blackbox, True)
    # a method of the same name is not the function: CTDAccountant.get_beta does not declare _plrv.get_beta
    (m,) = C._names("riskcal.accountants.ctd.CTDAccountant(steps).get_beta")
    assert not C.names_entry(m, {"name": "riskcal.analysis._plrv.get_beta", "key": "get_beta"}, False)
    assert C.names_entry(m, {"name": "riskcal.accountants.ctd.CTDAccountant.get_beta",
                             "key": "CTDAccountant.get_beta"}, False)
    # a re-export from a parent package, and a module named alone, name the defining module's entry
    conv = {"name": "riskcal.analysis.conversions.get_beta_from_rdp", "key": "get_beta_from_rdp"}
    assert C.names_entry(("riskcal", "analysis", "get_beta_from_rdp"), conv, False)
    lib = {"name": "tensorflow_privacy.privacy.analysis.compute_dp_sgd_privacy_lib.compute_dp_sgd_privacy",
           "key": "compute_dp_sgd_privacy"}
    assert C.names_entry(("compute_dp_sgd_privacy_lib", "compute_dp_sgd_privacy"), lib, False)
    assert not C.names_entry(("gdp_accountant", "compute_dp_sgd_privacy"), lib, False)
    # a bare name (after '+' in a composite declaration) names its entry only when no other entry has its key
    assert C.names_entry(("find_noise_multiplier_for_advantage",), dpsgd, False)
    assert not C.names_entry(("find_noise_multiplier_for_advantage",), dpsgd, True)


def test_two_modules_defining_one_name_are_counted_apart(tmp_path, monkeypatch):
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "surface.json").write_text(json.dumps([
        {"name": f"p.calibration.{m}.find_noise_multiplier_for_err_rates", "key": "find_noise_multiplier_for_err_rates",
         "kind": "function", "reason": "no reference yet"} for m in ("blackbox", "dpsgd")]))
    monkeypatch.setattr(C, "DIR", tmp_path)
    one = C.coverage("p", ["p.calibration.dpsgd.find_noise_multiplier_for_err_rates"])
    assert one["declared"] == 1 and [e["name"] for e in one["not_declared"]] == [
        "p.calibration.blackbox.find_noise_multiplier_for_err_rates"]


def test_every_peer_with_a_surface_gives_each_entry_a_reason_or_its_declaration():
    # the hand-written adapters (audit(), no declarations()) keep their surface too
    peers = sorted(f.parent.name for f in C.DIR.glob("*/surface.json"))
    assert {"smartnoise_sql", "tmlt_core", "diffprivlib"} <= set(peers)
    for name in peers:
        for e in C.surface(name):
            assert e["name"].endswith(e["key"]) and e["kind"] in ("function", "method"), e
            assert e.get("declared_by") or any(e["reason"].startswith(r) for r in C.REASONS), e


def test_a_hand_written_adapter_reports_its_coverage():
    import types

    from dpbounds.audit.peers import tmlt_core
    from dpbounds.audit.run import _run_adapter
    mod = types.ModuleType("hand_written_tmlt")
    mod.PEER = tmlt_core.PEER
    mod.audit = lambda quick=False: PeerResult("tmlt_core", functions=[tmlt_core.F_CONV])
    r = _run_adapter(mod, True, None, None)
    want = C.coverage("tmlt_core", [tmlt_core.F_CONV])
    assert r.coverage == want and want["public"] > want["declared"] > 0
    # what the filter rows judge (the queryable's budget check) is declared through declared_by
    assert "tmlt.core.measures.PureDPBudget.assert_can_spend_budget" not in {e["name"] for e in want["not_declared"]}
    skipped = types.ModuleType("hand_written_skipped")
    skipped.PEER = tmlt_core.PEER
    skipped.audit = lambda quick=False: PeerResult("tmlt_core").skip("not installed")
    assert _run_adapter(skipped, True, None, None).coverage is None
