"""`dpbounds golden --out DIR [--bounds ID,...] [--grid sample|default|dense] [--digits 40]` and
`dpbounds golden --check DIR` (exit 0 verified, 1 mismatch, 2 not a usable golden tree)."""

from __future__ import annotations

import argparse
import sys

from dpbounds.cli.commands import parse_list
from dpbounds.spec import DomainError
from dpbounds.util.io import ensure_output_dir

EPILOG = """\
examples:
  dpbounds golden --out golden/                               # every bound, default grid
  dpbounds golden --out g/ --bounds rruv16.thm5_1,fz21.thm4_7 --grid sample --digits 30
  dpbounds golden --out g/ --grid dense --no-streams
  dpbounds golden --check golden/      # verify a tree: hashes, dpbounds' own schemas, invariants, a recomputed sample
"""


def add_parser(sub) -> None:
    p = sub.add_parser("golden", help="write golden test vectors (JSON Lines + CSV + schemas + manifest), or "
                                      "check a directory of them",
                       description=__doc__, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--out", metavar="DIR", help="output directory (replaced as a whole, atomically)")
    g.add_argument("--check", metavar="DIR", help="verify DIR without trusting it: manifest hashes, dpbounds' own "
                   "schemas, every record's invariants, HALT flags and a seeded sample recomputed against the "
                   "reference (exit 0 verified, 1 mismatch, 2 not a usable golden tree)")
    p.add_argument("--full", action="store_true", help="with --check: recompute every record against the "
                   "reference (default: a seeded sample plus every borderline record)")
    p.add_argument("--bounds", metavar="ID,ID", help="comma-separated spec ids (default: every bound; a repeated "
                   "id is written once)")
    p.add_argument("--grid", choices=("sample", "default", "dense"), default="default",
                   help="parameter grid: sample (one point per bound), default, or dense")
    p.add_argument("--digits", type=int, default=40, metavar="N",
                   help="significant digits of each value, 5..1000 (default 40); only digits the enclosure backs")
    p.add_argument("--no-streams", action="store_true", help="skip the per-round stream vectors")
    p.add_argument("--no-conversions", action="store_true", help="skip the conversion and B* vectors")
    p.set_defaults(func=run)


def run(args) -> int:
    from dpbounds.outputs.golden import write_golden
    from dpbounds.outputs.golden_check import BadGoldenInput, check_golden
    if args.check is not None:
        try:
            problems = check_golden(args.check, full=args.full)
        except BadGoldenInput as e:
            raise DomainError("--check", args.check, "a directory written by dpbounds golden --out", "dpbounds golden",
                              str(e)) from None
        for p in problems:
            sys.stdout.write(p + "\n")
        sys.stdout.write(f"{args.check}: {'verified' if not problems else f'{len(problems)} problems'}\n")
        return 1 if problems else 0
    if args.full:
        raise DomainError("--full", True, "--full together with --check", "dpbounds golden")
    bounds = parse_list(args.bounds, "--bounds") if args.bounds is not None else None
    ensure_output_dir(args.out, "--out", create=False)  # write_golden creates it once its arguments are checked
    summary = write_golden(args.out, bounds=bounds, grid=args.grid, digits=args.digits, streams=not args.no_streams,
                           conversions=not args.no_conversions)
    sys.stdout.write(f"wrote {args.out}: {summary}\n")
    return 0
