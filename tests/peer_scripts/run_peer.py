"""Run peer calls through reference/audit/peers/_run.py in the peer's venv; used by the witness scripts."""
from __future__ import annotations
import json, os, subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUN = os.path.join(ROOT, "reference", "audit", "peers", "_run.py")
PEERS_DIR = os.environ.get("DPBOUNDS_PEERS", "/work/peers")


def python_for(peer: str) -> str | None:
    p = os.path.join(PEERS_DIR, peer, "bin", "python")
    return p if os.path.exists(p) else None


def run(peer: str, calls: list[tuple[str, dict]], timeout: float = 600) -> list[dict]:
    req = {"calls": [{"call": c, "kwargs": k} for c, k in calls]}
    out = subprocess.run([python_for(peer), RUN], input=json.dumps(req), capture_output=True, text=True,
                         timeout=timeout)
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-2000:])
    return json.loads(out.stdout)["results"]


def probe(peer: str, module: str) -> dict:
    out = subprocess.run([python_for(peer), RUN], input=json.dumps({"probe": module}), capture_output=True,
                         text=True, timeout=120)
    return json.loads(out.stdout)
