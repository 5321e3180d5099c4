"""The field's bug history as a benchmark: install each reproducible case's affected release in its own venv and
audit it through the peer's interpreter; print flagged / reproducible (recall).

    python tools/history.py                      # every reproducible case
    python tools/history.py --case opendp-621    # one case
    python tools/history.py --json out.json --seconds 120 --venvs ~/.cache/dpbounds/history

The cases are data, reference/audit/history.json (peer, affected and fixed versions, input, wrong value, the issue:
repository and number, the law it breaks, why a case is not reproducible yet).  For each reproducible case: a venv
``<venvs>/<peer>-<version>`` made with ``~/.pyenv/versions/<python>*/bin/python`` (or python3), ``pip install
<dist>==<affected>``; then the laws of the peer's declarations named by ``declaration`` are checked in that
interpreter (dpbounds.audit.laws.run_laws, what ``dpbounds audit --search S --python PEER=<venv>/bin/python`` runs
for them).  A case is flagged when the audit reports a violation of the case's law on that declaration.  The peer's
calls module runs unchanged in every release; where a release's API differs, the calls module has the older path
(OpenDP before 0.8, prv-accountant 0.1)."""

from __future__ import annotations

import argparse
import glob
import importlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "reference" / "audit" / "history.json"
PEER_PYTHONS = Path(os.environ.get("DPBOUNDS_PEERS", ".peers"))


def interpreter(version: str) -> str:
    found = sorted(glob.glob(os.path.expanduser(f"~/.pyenv/versions/{version}*/bin/python")))
    return found[-1] if found else sys.executable


def venv_for(case: dict, root: Path) -> Path:
    """The case's venv with the affected release (made once, reused)."""
    installed = PEER_PYTHONS / case["peer"] / "bin" / "python"
    if case.get("use_peer_venv") and installed.exists():  # the affected release is the one installed for the audit
        return installed
    d = root / f"{case['peer']}-{case['affected']}"
    py = d / "bin" / "python"
    if not py.exists():
        subprocess.run([interpreter(case.get("python", "3.11")), "-m", "venv", str(d)], check=True)
        subprocess.run([str(py), "-m", "pip", "install", "-q", f"{case['dist']}=={case['affected']}",
                        *case.get("extra", [])], check=True)
    return py


def run_case(case: dict, root: Path, seconds: float, examples: int) -> dict:
    from dpbounds.audit.laws import run_laws
    t0 = time.monotonic()
    py = str(venv_for(case, root))
    mod = importlib.import_module(f"dpbounds.audit.peers.{case['peer']}")
    decls = [d for d in mod.declarations() if case["declaration"] in d.function]
    seen, found, laws = set(), [], []
    for d in decls:
        if d.function in seen:
            continue
        seen.add(d.function)
        r = run_laws(d, python=py, seconds=seconds, seed=0, max_examples=examples)
        if r is None:
            continue
        laws.append(r.as_json())
        found += [{"function": d.function, "law": v.law, "detail": v.detail} for v in r.violations]
    flagged = any(f["law"] == case["law"] for f in found)
    return {"id": case["id"], "peer": case["peer"], "affected": case["affected"], "law": case["law"],
            "flagged": flagged, "declarations": len(seen), "violations": found,
            "seconds": round(time.monotonic() - t0, 1), "laws": laws}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--case", action="append", help="a case id (repeatable; default: every reproducible case)")
    ap.add_argument("--seconds", type=float, default=180.0, help="cap of each declaration's laws check")
    ap.add_argument("--examples", type=int, default=40, help="examples per law group")
    ap.add_argument("--venvs", default=os.path.expanduser("~/.cache/dpbounds/history"))
    ap.add_argument("--json", help="write the results here")
    a = ap.parse_args(argv)
    cases = json.loads(DATA.read_text())["cases"]
    todo = [c for c in cases if (a.case and c["id"] in a.case) or (not a.case and c["status"] == "reproducible")]
    root = Path(a.venvs)
    root.mkdir(parents=True, exist_ok=True)
    results = []
    for c in todo:
        r = run_case(c, root, a.seconds, a.examples)
        results.append(r)
        print(f"{r['id']:22s} {c['peer']} {c['affected']}: {'FLAGGED' if r['flagged'] else 'missed'} "
              f"(law {c['law']}; {len(r['violations'])} violation(s) in {r['declarations']} declaration(s), "
              f"{r['seconds']} s)", flush=True)
        for v in r["violations"]:
            print(f"    {v['law']}: {v['detail'][:160]}")
    flagged = sum(r["flagged"] for r in results)
    unreached = [c["id"] for c in cases if c["status"] != "reproducible"]
    print(f"recall: {flagged} / {len(results)} reproducible cases flagged; not reproducible: {', '.join(unreached)}")
    if a.json:
        Path(a.json).write_text(json.dumps({"recall": [flagged, len(results)], "results": results,
                                            "not_reproducible": unreached}, indent=1))
    return 0 if results and flagged == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
