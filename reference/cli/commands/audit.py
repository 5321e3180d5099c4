"""`dpbounds audit [--peers ...] [--format md|json] [--out F]`: run peer DP libraries against the reference."""

from __future__ import annotations

import json
import sys

from dpbounds.util.io import atomic_write_text
from dpbounds.cli.commands import jsonable, parse_list


def add_parser(sub) -> None:
    p = sub.add_parser("audit", help="audit installed peer libraries (OpenDP, dp_accounting, autodp, diffprivlib, "
                       "confseq) against the reference")
    p.add_argument("--peers", help="comma-separated subset (default: all; missing peers are 'skipped')")
    p.add_argument("--format", choices=("md", "json"), default="md")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--out", help="write to this file (atomically) instead of stdout")
    p.set_defaults(func=run)


def run(args) -> int:
    from dpbounds.audit.run import audit_peers, render_markdown
    peers = parse_list(args.peers, "--peers") if args.peers else None
    results = audit_peers(peers, quick=args.quick)
    if args.format == "json":
        text = json.dumps(jsonable([{"peer": r.peer, "notes": r.notes,
                                     "comparisons": [c.as_dict() for c in r.comparisons]} for r in results]),
                          indent=2) + "\n"
    else:
        text = render_markdown(results)
    if args.out:
        atomic_write_text(args.out, text)
        sys.stdout.write(f"wrote {args.out}\n")
    else:
        sys.stdout.write(text)
    return 0
