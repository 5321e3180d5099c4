"""`dpbounds check-proofs`: run every proof-constant check and print the verdict table."""

from __future__ import annotations

import argparse
import sys

from dpbounds.util.io import atomic_write_text, check_output_path

VERDICTS_MD = "VERDICTS.md"  # in the current directory: never inside the installed package


EPILOG = """\
exit status: 0 when every check ran (a finding such as an erratum is a result, not a failure), 1 when a check
crashed, 2 for bad input.

examples:
  dpbounds check-proofs                                   # the verdict table
  dpbounds check-proofs --claim rruv16.thm5_1.near_optimal_28_04 --format json
  dpbounds check-proofs --format md --out VERDICTS.md     # Markdown, written atomically
"""


def add_parser(sub) -> None:
    p = sub.add_parser("check-proofs", help="check every constant and derivation step of the sources",
                       description=__doc__, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--format", choices=("text", "json", "md"), default="text",
                   help="text table (default), json, or md (Markdown, written to --out)")
    p.add_argument("--claim", action="append", metavar="CLAIM_ID",
                   help="run only this claim id (repeatable; default: every claim)")
    p.add_argument("--out", metavar="FILE", help="with --format md: where to write, atomically (default "
                   "./VERDICTS.md; the repository copy is proofs_check/VERDICTS.md)")
    p.set_defaults(func=run)


def run(args) -> int:
    from dpbounds.proofs_check.core import all_claims, run_all
    from dpbounds.proofs_check.render import render_json, render_markdown, render_text
    from dpbounds.spec import DomainError

    if args.out is not None and args.format != "md":
        raise DomainError("--out", args.out, "only with --format md", "command line")
    out = check_output_path(args.out if args.out is not None else VERDICTS_MD, "--out") \
        if args.format == "md" else None
    if args.claim:
        known = all_claims()
        for c in args.claim:
            if c not in known:
                import difflib
                near = difflib.get_close_matches(c, list(known), n=3, cutoff=0.6)
                raise DomainError("--claim", c, "a registered claim id", "proofs_check",
                                  f"did you mean {', '.join(near)}?" if near else "unknown claim")
    results = run_all(args.claim)
    if args.format == "json":
        sys.stdout.write(render_json(results))
    elif args.format == "md":
        atomic_write_text(out, render_markdown(results), "--out")
        sys.stdout.write(f"wrote {out}\n")
    else:
        sys.stdout.write(render_text(results))
    crashed = [r.id for r in results if r.crashed]
    if crashed:
        sys.stderr.write(f"dpbounds: error: {len(crashed)} check(s) crashed: {', '.join(crashed)}\n")
        return 1
    return 0
