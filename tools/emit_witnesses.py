"""Write the witnesses found by witnesses.py (witnesses.jsonl) into each peer's witnesses.json
(reference/audit/peers/<peer>/witnesses.json: a list of {"call": "calls:<func>", "inputs", "peer", "truth", "ref",
"claim", "rel_gap"}).

    python tools/emit_witnesses.py witnesses.jsonl
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
by_peer: dict = {}
for line in open(sys.argv[1]):
    w = json.loads(line)
    by_peer.setdefault(w.pop("package"), []).append(w)
for peer, ws in by_peer.items():
    path = os.path.join(ROOT, "reference", "audit", "peers", peer, "witnesses.json")
    seen, uniq = set(), []
    for w in ws:
        key = (w["call"], json.dumps(w["inputs"], sort_keys=True))
        if key not in seen:
            seen.add(key)
            uniq.append(w)
    with open(path, "w") as f:
        f.write(json.dumps(uniq, indent=1) + "\n")
    print(peer, len(uniq))
