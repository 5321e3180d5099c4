"""Run peer calls in this interpreter, JSON over stdin/stdout (stdlib only; never imports dpbounds).

stdin:  {"probe": "opacus"} or {"calls": [{"call": "opacus_calls:compute_rdp", "kwargs": {...}}, ...]}
stdout: {"version": "1.6.0"} / {"results": [{"value": 0.12} | {"error": "TypeError: ..."}]}

Used as ``/work/peers/<peer>/bin/python reference/audit/peers/_run.py < request.json``.  The peers directory is
taken OFF sys.path before anything is imported: its adapter ``opacus.py`` would otherwise shadow the real
``opacus`` package; the calls modules are loaded by file path instead."""

from __future__ import annotations

import importlib.util
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.getcwd()) != HERE]
_loaded: dict[str, object] = {}


def load_calls(name: str):
    """The calls module ``name`` (a file in this directory), loaded by path under a private module name."""
    if name not in _loaded:
        spec = importlib.util.spec_from_file_location(f"_dpbounds_peer_{name}", os.path.join(HERE, name + ".py"))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        _loaded[name] = mod
    return _loaded[name]


def version(module: str) -> str:
    try:
        from importlib import metadata
        dists = metadata.packages_distributions().get(module.split(".")[0], [])
        return metadata.version(dists[0]) if dists else "unknown"
    except Exception as e:  # noqa: BLE001
        return f"not installed ({type(e).__name__})"


def run_one(call: str, kwargs: dict) -> dict:
    mod, func = call.split(":")
    try:
        v = getattr(load_calls(mod), func)(**kwargs)
        v = float(v)
        return {"value": v if math.isfinite(v) else repr(v)}
    except Exception as e:  # noqa: BLE001
        return {"error": f"{type(e).__name__}: {e}"[:500]}


def main() -> int:
    req = json.load(sys.stdin)
    if "probe" in req:
        out = {"version": version(req["probe"]), "python": sys.version.split()[0]}
    else:
        out = {"results": [run_one(c["call"], c.get("kwargs", {})) for c in req["calls"]]}
    json.dump(out, sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
