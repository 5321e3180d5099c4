"""The peer adapters of issue 28 (``reference/audit/peers``): every declaration is well formed against the contract
(``dpbounds.testing.Declaration``, stood in by ``_contract``), its call resolves to a function in a ``*_calls.py``
that imports only its peer and the stdlib, and -- for peers installed (in this interpreter or in
``$DPBOUNDS_PEERS/<peer>/bin/python``, default /work/peers) -- the call runs at its first example and returns a
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
from dpbounds.audit.peers import _common, _contract, _refs

PEERS_DIR = pathlib.Path(peers_pkg.__file__).parent
ADAPTERS = sorted(p.stem for p in PEERS_DIR.glob("*.py") if not p.stem.startswith("_") and not p.stem.endswith("_calls"))
VENVS = pathlib.Path(os.environ.get("DPBOUNDS_PEERS", "/work/peers"))
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
        assert mod.PEER == name and isinstance(mod.DIST, str) and isinstance(mod.MODULE, str)
        ds = mod.declarations()
        assert ds and all(isinstance(d, _contract.Declaration) for d in ds)


@pytest.mark.parametrize("name", ADAPTERS)
def test_declarations_are_well_formed(name):
    ids = set(_common.CONTRACT_IDS) | _registry_ids()
    mod = importlib.import_module(f"dpbounds.audit.peers.{name}")
    for d in mod.declarations():
        modname, func = d.call.split(":")
        assert modname == f"{name}_calls", d.call
        tree = ast.parse((PEERS_DIR / f"{modname}.py").read_text())
        funcs = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        assert func in funcs, d.call
        assert d.kind in ("conversion", "filter", "odometer") and d.claim in ("upper", "lower")
        assert d.against in ("cited", "truth") and d.cites
        ref = d.reference
        assert (isinstance(ref, str) and ref in ids) or (callable(ref) and _refs.ref_id(ref).startswith("refs.")), ref
        assert d.inputs
        for k, dom in d.inputs.items():
            assert isinstance(k, str)
            if isinstance(dom, tuple):
                assert len(dom) == 2 and dom[0] <= dom[1], (k, dom)
            else:
                assert isinstance(dom, list) and dom, (k, dom)
        for ex in d.examples:
            for k, v in ex.items():
                if k in d.inputs and isinstance(d.inputs[k], tuple):
                    lo, hi = d.inputs[k]
                    assert lo <= v <= hi, (d.call, k, v, d.inputs[k])
                elif k in d.inputs:
                    assert v in d.inputs[k], (d.call, k, v)


@pytest.mark.parametrize("name", ADAPTERS)
def test_calls_modules_import_only_their_peer_and_the_stdlib(name):
    mod = importlib.import_module(f"dpbounds.audit.peers.{name}")
    top = mod.MODULE.split(".")[0]
    tree = ast.parse((PEERS_DIR / f"{name}_calls.py").read_text())
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
    if importlib.util.find_spec(mod.MODULE.split(".")[0]) is not None and mod.PEER not in ("opake",):
        return sys.executable
    py = VENVS / mod.PEER / "bin" / "python"
    return str(py) if py.exists() else None


def _run(py: str, calls: list[tuple[str, dict]]) -> list[dict]:
    req = json.dumps({"calls": [{"call": c, "kwargs": k} for c, k in calls]})
    out = subprocess.run([py, str(PEERS_DIR / "_run.py")], input=req, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout)["results"]


@pytest.mark.parametrize("name", ADAPTERS)
def test_each_conversion_runs_at_its_first_example(name):
    mod = importlib.import_module(f"dpbounds.audit.peers.{name}")
    py = _interpreter(mod)
    if py is None:
        pytest.skip(f"{mod.DIST} not installed here (docs/peers.md gives its recipe)")
    ds = [d for d in mod.declarations() if d.kind == "conversion" and d.examples]
    res = _run(py, [(d.call, d.examples[0]) for d in ds])
    for d, r in zip(ds, res):
        assert "value" in r, (d.call, r)
        v = r["value"]
        assert isinstance(v, float) or v in ("inf", "nan"), (d.call, v)


def test_runner_keeps_the_peers_directory_off_sys_path():
    # peers/opacus.py must never shadow the real opacus when _run.py runs as a script
    code = ("import runpy, sys; sys.argv = ['_run.py']; import io; sys.stdin = io.StringIO('{\"probe\": \"json\"}'); "
            f"runpy.run_path({str(PEERS_DIR / '_run.py')!r}, run_name='__main__')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "version" in json.loads(out.stdout)


def _witnesses():
    for name in ADAPTERS:
        mod = importlib.import_module(f"dpbounds.audit.peers.{name}")
        for w in getattr(mod, "WITNESSES", []):
            yield name, w


@pytest.mark.parametrize("name,w", list(_witnesses()), ids=lambda x: x if isinstance(x, str) else x["call"])
def test_witness_is_an_under_report_by_the_independent_derivation(name, w):
    from dpbounds.audit.peers import _truth
    t = _truth.TRUTH[w["ref"]](**w["inputs"])
    if w.get("truth"):
        assert abs(t - _truth.mp.mpf(w["truth"])) <= abs(t) * 1e-9, (w, t)
    unsafe = (t - w["peer"]) if w["claim"] == "upper" else (w["peer"] - t)
    assert unsafe > 0, (w, t)
    assert math.isclose(float(unsafe / abs(t)), w["rel_gap"], rel_tol=0.05, abs_tol=1e-17), (w, t)
