"""The declarative peers (``reference/audit/peers/<peer>/``): every declaration is well formed against the contract
(``dpbounds.testing.Declaration``, re-exported by ``_contract``), its call resolves to a function in the peer's
``calls.py`` that imports only its peer and the stdlib, and -- for peers installed (in this interpreter or in
``$DPBOUNDS_PEERS/<peer>/bin/python``, default $DPBOUNDS_PEERS) -- the call runs at its first example and returns a
float.  The recorded witnesses are re-derived from ``_truth`` (mpmath, 60 digits) and must still be on the unsafe
side."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import json
import math
import os
import pathlib
import subprocess
import sys

import pytest

from dpbounds.audit import peers as peers_pkg
from dpbounds.testing import Grid
from dpbounds.audit.engine import peer_witnesses
from dpbounds.audit.peers import _common, _contract, _refs
from dpbounds.audit.run import discover_peers
from dpbounds.testing import Peer

PEERS_DIR = pathlib.Path(peers_pkg.__file__).parent
ADAPTERS = sorted(name for name, module in discover_peers().items()
                  if callable(getattr(importlib.import_module(module), "declarations", None)))
VENVS = pathlib.Path(os.environ.get("DPBOUNDS_PEERS", ".peers"))
STDLIB = set(sys.stdlib_module_names)


def _registry_ids() -> set[str]:
    from dpbounds import spec
    try:
        return set(spec.registry())
    except Exception:  # noqa: BLE001
        return set()


def _decls():
    for name in ADAPTERS:
        mod = importlib.import_module(f"dpbounds.audit.peers.{name}")
        for d in mod.declarations():
            yield name, mod, d


def test_every_adapter_exports_the_contract():
    assert len(ADAPTERS) >= 15
    for name in ADAPTERS:
        mod = importlib.import_module(f"dpbounds.audit.peers.{name}")
        assert isinstance(mod.PEER, Peer) and mod.PEER.name == name
        assert mod.PEER.dist and mod.PEER.module
        ds = mod.declarations()
        assert ds and all(isinstance(d, _contract.Declaration) for d in ds)


@pytest.mark.parametrize("name", ADAPTERS)
def test_declarations_are_well_formed(name):
    ids = set(_common.CONTRACT_IDS) | _registry_ids()
    mod = importlib.import_module(f"dpbounds.audit.peers.{name}")
    for d in mod.declarations():
        modname, func = d.call.split(":")
        assert modname == f"dpbounds.audit.peers.{name}.calls", d.call
        tree = ast.parse((PEERS_DIR / name / "calls.py").read_text())
        funcs = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        assert func in funcs, d.call
        assert d.kind in ("conversion", "filter", "odometer") and d.claim in ("upper", "lower")
        assert d.against in ("cited", "truth") and d.cites
        ref = d.reference
        assert (isinstance(ref, str) and ref in ids) or (callable(ref) and (
            _refs.ref_id(ref).startswith("refs.") or ref.__module__ == mod.__name__)), ref
        assert d.inputs
        for k, dom in d.inputs.items():
            assert isinstance(k, str)
            if isinstance(dom, tuple):
                assert len(dom) == 2 and dom[0] <= dom[1], (k, dom)
            else:
                assert isinstance(dom, list) and dom, (k, dom)
        for ex in d.examples:
            if not isinstance(ex, dict):  # a filter's stream of per-round costs (its budget is d.budget)
                continue
            for k, v in ex.items():
                if k in d.inputs and isinstance(d.inputs[k], tuple):
                    lo, hi = d.inputs[k]
                    assert lo <= float(v) <= hi, (d.call, k, v, d.inputs[k])  # (grid points: exact decimals)
                elif k in d.inputs and isinstance(d.inputs[k], Grid):
                    # a grid with a continuous span (the DP-SGD pool, _common.SGM_POOL, or a peer's narrower one):
                    # an explicit example need not be a grid point (the reference's domain checks it)
                    assert isinstance(v, (int, float)), (d.call, k, v)
                elif k in d.inputs:
                    assert v in d.inputs[k], (d.call, k, v)


@pytest.mark.parametrize("name", ADAPTERS)
def test_calls_modules_import_only_their_peer_and_the_stdlib(name):
    mod = importlib.import_module(f"dpbounds.audit.peers.{name}")
    top = mod.PEER.module.split(".")[0]
    tree = ast.parse((PEERS_DIR / name / "calls.py").read_text())
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
            assert node.level == 0, "no relative imports: the file runs in the peer's own interpreter"
        for n in names:
            root = n.split(".")[0]
            assert root in STDLIB or root == top, (name, n)
            assert root != "dpbounds"


def _interpreter(mod) -> str | None:
    if importlib.util.find_spec(mod.PEER.module.split(".")[0]) is not None and mod.PEER.name not in ("opake",):
        return sys.executable
    py = VENVS / mod.PEER.name / "bin" / "python"
    return str(py) if py.exists() else None


def _run(py: str, calls: list[tuple[str, dict]]) -> list[dict]:
    """Each call in ``py`` through the engine's cross-interpreter runner (``Remote``)."""
    from dpbounds.testing.declarations import Remote
    out = []
    for c, k in calls:
        r = Remote(py, c, timeout=900)
        try:
            a = r.batch([{"op": "call", "inputs": dict(k)}])[0]
        finally:
            r.close()
        out.append({"value": a["ok"]} if "ok" in a else a)
    return out


@pytest.mark.parametrize("name", ADAPTERS)
@pytest.mark.tier("peers")
def test_each_conversion_runs_at_its_first_example(name):
    mod = importlib.import_module(f"dpbounds.audit.peers.{name}")
    py = _interpreter(mod)
    if py is None:
        pytest.skip(f"{mod.PEER.dist} not installed here (docs/peers.md gives its recipe)")
    ds = [d for d in mod.declarations() if d.kind == "conversion" and d.examples]
    from dpbounds.testing.checks import peer_args   # (grid points as exact decimals: the floats the peer gets)
    res = _run(py, [(d.call, peer_args(dict(d.examples[0]))) for d in ds])
    from dpbounds.audit.expect import expected_errors
    raises = expected_errors(str(PEERS_DIR.parent / "witnesses.json"))  # recorded findings: the peer raises there
    for d, r in zip(ds, res):
        if r.get("where") == "peer" and (mod.PEER.name, d.function) in raises:
            continue  # e.g. fourier_accountant 0.12.11's one-phase functions under numpy 2 (np.VisibleDeprecationWarning)
        assert "value" in r, (d.call, r)
        v = r["value"]
        assert isinstance(v, float) or v in ("inf", "nan"), (d.call, v)


def test_runner_keeps_the_peers_directory_off_sys_path(tmp_path):
    # the adapter peers/opacus.py must never shadow a real package when its calls module runs in another
    # interpreter: plant a fake "json_peer" package shadow next to a calls module and run from that directory
    (tmp_path / "shadow_calls.py").write_text("import fractions\ndef f():\n    return float(fractions.Fraction(1, 2))\n")
    (tmp_path / "fractions.py").write_text("raise ImportError('the calls directory is on sys.path')\n")
    from dpbounds.testing.declarations import Remote
    import dpbounds.testing.declarations as D
    old = D.call_module_file
    D.call_module_file = lambda call: tmp_path / "shadow_calls.py"
    cwd = os.getcwd()
    try:
        os.chdir(tmp_path)
        r = Remote(sys.executable, "shadow_calls:f", timeout=60)
        try:
            assert r.batch([{"op": "call", "inputs": {}}])[0] == {"ok": 0.5}
        finally:
            r.close()
    finally:
        os.chdir(cwd)
        D.call_module_file = old


def _witnesses():
    for name in ADAPTERS:
        mod = importlib.import_module(f"dpbounds.audit.peers.{name}")
        for w in peer_witnesses(mod):
            yield name, w


@pytest.mark.parametrize("name,w", list(_witnesses()), ids=lambda x: x if isinstance(x, str) else x["call"])
@pytest.mark.tier("slow")
def test_witness_is_an_under_report_by_the_independent_derivation(name, w):
    from dpbounds.audit.peers import _truth
    t = _truth.TRUTH[w["ref"]](**w["inputs"])
    if w.get("truth"):
        assert abs(t - _truth.mp.mpf(w["truth"])) <= abs(t) * 1e-9, (w, t)
    unsafe = _unsafe(w["peer"], t, w["claim"])
    assert unsafe > 0, (w, t)
    assert math.isclose(float(unsafe / abs(t)), w["rel_gap"], rel_tol=0.05, abs_tol=1e-17), (w, t)


def _unsafe(peer: float, truth, claim: str):
    """How far ``peer`` lies on the unsafe side of ``truth`` (> 0: an under-report)."""
    return (truth - peer) if claim == "upper" else (peer - truth)


@pytest.mark.parametrize("claim", ["upper", "lower"])
def test_the_witness_rule_fires_on_a_planted_fault_and_not_on_a_correct_value(claim):
    # the subsampled Gaussian's RDP (upper claim) and the GDP trade-off (lower claim): a value rounded to the safe
    # side by 1e-12 is not a finding, the same value moved 1e-12 to the other side is
    from dpbounds.audit.peers import _truth
    t = _truth.sgm_rdp(0.01, 1.0, 4.5) if claim == "upper" else _truth.tradeoff_gdp(1.0, 0.1)
    safe = float(t * (1 + 1e-12)) if claim == "upper" else float(t * (1 - 1e-12))
    planted = float(t * (1 - 1e-12)) if claim == "upper" else float(t * (1 + 1e-12))
    assert _unsafe(safe, t, claim) < 0 < _unsafe(planted, t, claim)


def test_truth_derivations_agree_with_closed_forms():
    from dpbounds.audit.peers import _truth as T
    mp = T.mp
    # q = 1: the Gaussian's RDP alpha/(2 sigma^2), by the binomial sum and by quadrature (fractional order)
    assert abs(T.sgm_rdp(1.0, 0.7, 3) - mp.mpf(3) / (2 * mp.mpf(0.7) ** 2)) < mp.mpf(10) ** -40
    assert abs(T.sgm_rdp(1.0, 0.7, 2.5) - mp.mpf(2.5) / (2 * mp.mpf(0.7) ** 2)) < mp.mpf(10) ** -30
    # quadrature and the binomial sum agree at an integer order with q < 1
    assert abs(T.sgm_log_a_quad(0.01, 1.0, 8) - T.sgm_log_a_int(0.01, 1.0, 8)) < mp.mpf(10) ** -40
    # one step at q = 1 is the Gaussian mechanism (BW18 Thm 8)
    assert abs(T.sgm1_delta(1.0, 2.0, 0.5) - T.gauss_delta(0.5, 0.5)) < mp.mpf(10) ** -40
    # 1-fold (eps0, 0)-DP: delta(eps_g) = max(0, (e^eps0 - e^eps_g)/(1 + e^eps0)) (randomized response)
    e0, eg = mp.mpf(1), mp.mpf("0.25")
    assert abs(T.kov15_delta(1.0, 0.0, 1, 0.25) - (mp.e ** e0 - mp.e ** eg) / (1 + mp.e ** e0)) < mp.mpf(10) ** -40
    # the single-order RDP trade-off at R -> 0 is the identity 1 - fpr; the GDP curve at mu = 0 too
    assert abs(T.tradeoff_gdp(0.0, 0.3) - mp.mpf("0.7")) < mp.mpf(10) ** -15
    assert abs(T.tradeoff_rdp(2.0, 1e-30, 0.3) - mp.mpf("0.7")) < mp.mpf(10) ** -12
    # the Gaussian's eps(delta) inverts its delta(eps)
    e = T.gauss_eps(1.0, 1e-5)
    assert abs(T.gauss_delta(1.0, e) - mp.mpf(1e-5)) < mp.mpf(10) ** -30   # the float 1e-5, as given


def _within(e, t, rel):
    """t (the mpmath derivation, ~36+ digits) inside the certified enclosure e, up to its own error rel."""
    from fractions import Fraction
    t = Fraction(str(t))
    slack = abs(t) * Fraction(rel)
    return e.lo - slack <= t <= e.hi + slack


@pytest.mark.parametrize("sens,eps,delta", [(1.0, 1.0, 1e-5), (1.0, 50.0, 1e-10), (1.0, 1e-3, 1e-12), (2.0, 0.3, 0.5),
                                            (1.0, 20.0, 1e-5)])
def test_gauss_sigma_min_is_certified_around_the_derivation(sens, eps, delta):
    from fractions import Fraction

    from dpbounds.audit.peers import _truth
    e = _refs.gauss_sigma_min(sensitivity=sens, eps=eps, delta=delta)
    assert e.lo > 0 and (e.hi - e.lo) / e.lo < Fraction(1, 10**25)
    assert _within(e, _truth.gauss_sigma_min(sens, eps, delta), "1e-45")       # 200 bisection steps: ~1e-54
    # the bracket is a proof: the registry's Gaussian curve is above delta at lo and at or below it at hi
    import dpbounds
    lo = dpbounds.enclose("conversions.gdp.delta", {"mu": Fraction(sens) / e.lo, "eps_g": Fraction(eps)}, rel_tol=1e-40)
    hi = dpbounds.enclose("conversions.gdp.delta", {"mu": Fraction(sens) / e.hi, "eps_g": Fraction(eps)}, rel_tol=1e-40)
    assert lo.lo > Fraction(delta) >= hi.hi


@pytest.mark.parametrize("n,ei,di", [(100, 0.1, 1e-5), (50, 0.5, 1e-3), (10, 0.1, 1e-6), (1, 2.0, 1e-2),
                                     (7, 0.3, 0.01), (300, 0.01, 1e-6), (2, 1.0, 1e-10)])
@pytest.mark.tier("slow")
def test_adv_comp_eps_closed_form_agrees_with_bisection_of_the_exact_curve(n, ei, di):
    from dpbounds.audit.peers import _truth
    e = _refs.adv_comp_eps(n=n, ei=ei, di=di)
    # _truth bisects KOV15 Thm 3.3's curve 120 times from [0, 2^j]: its error is below 2^-120 x 64 (~5e-35)
    assert _within(e, _truth.adv_comp_eps(n, ei, di), "1e-33"), (float(e.lo), _truth.adv_comp_eps(n, ei, di))
    assert e.rel_width() < 1e-40


def test_adv_comp_eps_edges():
    # one round: (ei, di) itself is optimal, eps = ei exactly (up to the ball)
    e = _refs.adv_comp_eps(n=1, ei=0.5, di=1e-6)
    assert abs(float(e.lo) - 0.5) < 1e-30
    # a vacuous delta budget (n di >= 1): eps = 0
    e = _refs.adv_comp_eps(n=10000, ei=2.0, di=1e-2)
    assert e.lo == e.hi == 0
    # n = 1e4, below DRV10's advanced composition (eps', n di + d')-DP, eps' = sqrt(2 n log(1/d')) ei + n ei (e^ei - 1),
    # at d' = 1e-13 <= n di - (1 - (1 - di)^n) (about n^2 di^2 / 2 = 5e-13), so a valid claim at total delta n di
    import math
    e = _refs.adv_comp_eps(n=10000, ei=1e-3, di=1e-10)
    drv = math.sqrt(2 * 10000 * math.log(1 / 1e-13)) * 1e-3 + 10000 * 1e-3 * math.expm1(1e-3)
    assert 0 < float(e.hi) < drv


def test_q_one_references_are_gdp_with_mu_sqrt_k_over_sigma():
    from fractions import Fraction

    from dpbounds.audit.peers import _truth
    from dpbounds.spec import DomainError
    assert _refs.ref_id(_refs.sgm_mu) == "refs.sgm_mu" and _refs.ref_id("tradeoff.gdp") == "tradeoff.gdp"
    m = _refs.sgm_mu(q=1.0, sigma=0.5, k=4)
    assert m.lo <= 4 <= m.hi and m.hi - m.lo < Fraction(1, 10**70)
    m = _refs.sgm_mu(q=1.0, sigma=3.0, k=2)
    assert _within(m, _truth.mp.sqrt(2) / 3, "1e-55")
    for sigma, k, fpr in ((1.0, 10, 1e-4), (0.7, 1, 0.3), (20.0, 1000, 1e-6)):
        e = _refs.sgm_tradeoff(q=1.0, sigma=sigma, k=k, fpr=fpr)
        assert _within(e, _truth.sgm_tradeoff(1.0, sigma, k, fpr), "1e-45") and e.rel_width() < 1e-35
    with pytest.raises(DomainError):
        _refs.sgm_tradeoff(q=0.5, sigma=1.0, k=10, fpr=0.1)
    e = _refs.laplace_scale_min(sensitivity=1.0, eps=0.3)
    assert e.lo == e.hi == Fraction(1.0) / Fraction(0.3)
    e = _refs.gauss_eps_of_sigma(sensitivity=1.0, sigma=2.0, delta=1e-6)
    assert _within(e, _truth.gauss_eps_of_sigma(1.0, 2.0, 1e-6), "1e-30")


