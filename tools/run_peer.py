"""Run peer calls in the peer's venv through the audit engine's cross-interpreter runner
(``dpbounds.testing.declarations.Remote``: JSON lines, the peer side never imports dpbounds); used by the witness
scripts."""
from __future__ import annotations

import os

from dpbounds.audit.common import probe_version
from dpbounds.testing.declarations import Remote

PEERS_DIR = os.environ.get("DPBOUNDS_PEERS", ".peers")


def python_for(peer: str) -> str | None:
    p = os.path.join(PEERS_DIR, peer, "bin", "python")
    return p if os.path.exists(p) else None


def run(peer: str, calls: list[tuple[str, dict]], timeout: float = 600) -> list[dict]:
    """[{"value": float | "inf" | "nan"} or {"error": "..."}] per (call, kwargs)."""
    out: list[dict] = []
    remotes: dict[str, Remote] = {}
    try:
        for call, kwargs in calls:
            if call not in remotes:
                remotes[call] = Remote(python_for(peer), call, timeout=timeout)
            r = remotes[call].batch([{"op": "call", "inputs": kwargs}])[0]
            out.append({"value": r["ok"]} if "ok" in r else {"error": r["error"]})
    finally:
        for r in remotes.values():
            r.close()
    return out


def probe(peer: str, module: str, dist: str | None = None) -> dict:
    ok, version = probe_version(python_for(peer), module, dist or module)
    return {"version": version} if ok else {"error": version}
