"""The README's audit section from one ``dpbounds audit --format json`` document, and the check that a rerun found
the same.

    python tools/audit_section.py render RUN.json > section.md
    python tools/audit_section.py same RUN1.json RUN2.json     # exit 1 when the findings differ

``render`` prints a table of the peers (version, comparisons by verdict, functions searched, examples, seconds),
the skipped peers with their reasons, and one finding per failing peer function, most severe first (the order of
``dpbounds.audit.run.findings``), each with its worst witness's reproducer.  ``same`` compares what a finding is --
peer, version, function, verdict, how many of how many comparisons fail, the worst witness's inputs, the peer's
value and the certified ends -- and the search summaries without their wall-clock seconds; a search that reached a
time limit in either run (its wall-clock cap, or a peer call not answered in time) is compared without what the
time limit decides (examples, skipped and unanswered points, why it stopped, the worst margin): its verdict and
witness must still be the same.
"""

from __future__ import annotations

import json
import sys
from typing import Any

VERDICT_COLUMNS = ("unsound", "unsound-rounding", "unproven", "error", "conservative", "exact")


def render(doc: dict[str, Any]) -> str:
    from dpbounds.audit.run import finding_line
    ran = [p for p in doc["peers"] if p["status"] == "ran"]
    other = [p for p in doc["peers"] if p["status"] != "ran"]
    out = ["| peer | version | comparisons | " + " | ".join(VERDICT_COLUMNS)
           + " | functions searched | examples searched | search s |",
           "|---" * (len(VERDICT_COLUMNS) + 6) + "|"]
    for p in ran:
        srch = p.get("search") or []
        out.append(f"| {p['peer']} | {p['version']} | {len(p['comparisons'])} | "
                   + " | ".join(str(p["counts"].get(v, 0)) for v in VERDICT_COLUMNS)
                   + f" | {len(srch)} | {sum(s['examples'] for s in srch)} | "
                   f"{sum(s.get('seconds') or 0 for s in srch):.0f} |")
    total = sum(len(p["comparisons"]) for p in ran)
    out.append(f"| total ({len(ran)} peers) | | {total} | "
               + " | ".join(str(sum(p["counts"].get(v, 0) for p in ran)) for v in VERDICT_COLUMNS) + " | | | |")
    out.append("")
    for p in other:
        out.append(f"- {p['peer']}: {p['status']} ({p.get('reason') or ''})")
    if other:
        out.append("")
    for i, f in enumerate(doc["findings"], 1):
        out.append(f"{i}. " + finding_line(f).replace("\n", " "))
        repro = (f["worst"].get("reproducer") or "").rstrip()
        if repro:
            out += ["", "   <details><summary>reproducer</summary>", "", "   ```python"]
            out += [f"   {line}".rstrip() for line in repro.splitlines()]
            out += ["   ```", "   </details>"]
        out.append("")
    return "\n".join(out)


def _finding_key(f: dict[str, Any]) -> tuple[Any, ...]:
    w = f["worst"]
    ends = tuple((j or {}).get(k) for j in (w.get("formula"), w.get("truth")) for k in ("lo", "hi"))
    return (f["peer"], f["version"], f["function"], f["verdict"], f["failing"], f["of"],
            json.dumps(w["inputs"], sort_keys=True), w.get("peer_value"), w.get("peer_output"), ends)


#: what a time limit decides in a search summary (besides its seconds)
TIMED = ("examples", "skipped", "unanswered", "stopped", "worst_margin")


def _timed(s: dict[str, Any]) -> bool:
    return "time" in (s.get("stopped") or []) or bool(s.get("unanswered"))


def _search_key(doc: dict[str, Any], timed: set[int] = frozenset()) -> list[tuple[str, str]]:
    """(peer, summary without seconds) per search summary; those at the positions ``timed`` also without TIMED."""
    out = []
    for i, (p, s) in enumerate((p, s) for p in doc["peers"] for s in p.get("search") or []):
        drop = ("seconds",) + (TIMED if i in timed else ())
        out.append((p["peer"], json.dumps({k: v for k, v in s.items() if k not in drop}, sort_keys=True)))
    return out


def same(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """The differences between two runs' findings and search summaries (empty: the same)."""
    diffs = []
    fa, fb = [_finding_key(f) for f in a["findings"]], [_finding_key(f) for f in b["findings"]]
    for k in fa:
        if k not in fb:
            diffs.append(f"only in the first run: {k[:6]}")
    for k in fb:
        if k not in fa:
            diffs.append(f"only in the second run: {k[:6]}")
    if not diffs and fa != fb:
        diffs.append("the same findings in another order")
    timed = {i for doc in (a, b) for i, s in enumerate(s for p in doc["peers"] for s in p.get("search") or [])
             if _timed(s)}
    sa, sb = _search_key(a, timed), _search_key(b, timed)
    for x, y in zip(sa, sb):
        if x != y:
            diffs.append(f"search summary differs: {x[0]} {x[1][:200]} / {y[1][:200]}")
    if len(sa) != len(sb):
        diffs.append(f"{len(sa)} search summaries against {len(sb)}")
    return diffs


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "render":
        print(render(json.load(open(argv[1]))))
        return 0
    if len(argv) == 3 and argv[0] == "same":
        a, b = (json.load(open(p)) for p in argv[1:])
        diffs = same(a, b)
        print("\n".join(diffs) if diffs else f"the same {len(a['findings'])} findings and "
              f"{len(_search_key(a))} search summaries")
        return 1 if diffs else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
