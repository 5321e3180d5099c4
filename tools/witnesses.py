"""Run every declaration's examples in its peer's venv and compare with the independent derivation (``_truth``).

    python tools/witnesses.py [peer ...]

Prints one line per example: the peer value, the truth (60 digits, mpmath) where ``_truth`` has one, the signed
relative gap in the unsafe direction, and UNDER when the peer claims more privacy than the truth allows."""
from __future__ import annotations

import importlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "reference"))  # so that "audit.peers" imports as a package

import mpmath as mp  # noqa: E402

from run_peer import python_for, run  # noqa: E402

PEERS = ["diffpriv_pure", "riskcal", "gdpnum", "python_dp", "privjail", "opacus", "tensorflow_privacy",
         "dp_accelerator", "fourier_accountant", "jax_privacy", "pld_accounting", "opake", "dp_accounting",
         "prv_accountant", "autodp", "opendp"]


def main(peers: list[str]) -> None:
    from audit.peers import _truth
    from audit.peers._refs import ref_id
    for peer in peers:
        mod = importlib.import_module(f"audit.peers.{peer}")
        if python_for(peer) is None:
            print(f"{peer}: SKIP (no venv)")
            continue
        for d in mod.declarations():
            if d.kind != "conversion":
                continue
            rid = ref_id(d.reference)
            exs = list(d.examples)
            try:
                res = run(peer, [(d.call, ex) for ex in exs])
            except Exception as e:  # noqa: BLE001
                print(f"{peer} {d.call}: RUN ERROR {e}")
                continue
            for ex, r in zip(exs, res):
                v = r.get("value")
                t = None
                fn = _truth.TRUTH.get(rid)
                if fn is not None:
                    try:
                        t = fn(**{**ex, **{k: v2 for k, v2 in d.fixed.items() if not isinstance(v2, str)}})
                    except Exception as e:  # noqa: BLE001
                        t = f"no truth ({e})"
                flag, gap = "", ""
                if isinstance(v, float) and isinstance(t, mp.mpf):
                    unsafe = (t - v) if d.claim == "upper" else (v - t)
                    gap = mp.nstr(unsafe / abs(t), 3) if t != 0 else mp.nstr(unsafe, 3)
                    flag = "UNDER" if unsafe > 0 else "ok"
                print(f"{peer} {d.call} {ex} peer={v if v is not None else r} truth="
                      f"{mp.nstr(t, 17) if isinstance(t, mp.mpf) else t} {flag} {gap}", flush=True)
                if flag == "UNDER":
                    w = {"package": peer, "call": "calls:" + str(d.call).partition(":")[2], "inputs": ex, "peer": v, "truth": mp.nstr(t, 20), "ref": rid,
                         "claim": d.claim, "rel_gap": float(mp.nstr(unsafe / abs(t) if t != 0 else unsafe, 6))}
                    with open(os.environ.get("WITNESS_OUT", "witnesses.jsonl"), "a") as fh:
                        fh.write(json.dumps(w) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:] or PEERS)
