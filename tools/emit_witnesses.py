"""Write the witnesses found by witnesses.py (witnesses.jsonl) into each adapter's WITNESSES list.

    python tools/emit_witnesses.py witnesses.jsonl
"""
import json
import os
import pprint
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
by_peer: dict = {}
for line in open(sys.argv[1]):
    w = json.loads(line)
    by_peer.setdefault(w["call"].split("_calls:")[0], []).append(w)
for peer, ws in by_peer.items():
    path = os.path.join(ROOT, "reference", "audit", "peers", f"{peer}.py")
    src = open(path).read()
    seen, uniq = set(), []
    for w in ws:
        key = (w["call"], json.dumps(w["inputs"], sort_keys=True))
        if key not in seen:
            seen.add(key)
            uniq.append(w)
    body = "WITNESSES = " + pprint.pformat(uniq, width=116, sort_dicts=False) + "\n"
    src = re.sub(r"^(# found witnesses.*\n)?WITNESSES(: list)? = \[.*?^\]\n|^WITNESSES: list = \[\]\n", "", src,
                 flags=re.S | re.M)
    src = src.rstrip("\n") + "\n\n\n# found witnesses (tools/witnesses.py): inputs, the peer's value, " \
          "the truth (_truth, mpmath)\n" + body
    open(path, "w").write(src)
    print(peer, len(uniq))
