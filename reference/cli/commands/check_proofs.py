"""`dpbounds check-proofs`: run every proof-constant check and print the verdict table."""

from __future__ import annotations

import sys
from pathlib import Path

from dpbounds.util.io import atomic_write_text

VERDICTS_MD = "VERDICTS.md"  # in the current directory: never inside the installed package


def add_parser(sub) -> None:
    p = sub.add_parser("check-proofs", help="check every constant and derivation step of the sources")
    p.add_argument("--format", choices=("text", "json", "md"), default="text")
    p.add_argument("--claim", action="append", help="run only these claim ids")
    p.add_argument("--out", help="with --format md: where to write (default ./VERDICTS.md; the repository copy is proofs_check/VERDICTS.md)")
    p.set_defaults(func=run)


def run(args) -> int:
    from dpbounds.proofs_check.core import all_claims, run_all
    from dpbounds.proofs_check.render import render_json, render_markdown, render_text
    from dpbounds.spec import DomainError

    if args.claim:
        known = all_claims()
        for c in args.claim:
            if c not in known:
                raise DomainError("--claim", c, "a registered claim id", "proofs_check")
    results = run_all(args.claim)
    if args.format == "json":
        sys.stdout.write(render_json(results))
    elif args.format == "md":
        out = Path(args.out) if args.out else VERDICTS_MD
        atomic_write_text(out, render_markdown(results))
        sys.stdout.write(f"wrote {out}\n")
    else:
        sys.stdout.write(render_text(results))
    crashed = [r.id for r in results if r.crashed]
    if crashed:
        sys.stderr.write(f"dpbounds: error: {len(crashed)} check(s) crashed: {', '.join(crashed)}\n")
        return 1
    return 0
