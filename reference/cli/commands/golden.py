"""`dpbounds golden --out DIR [--bounds ID,...] [--grid sample|default|dense] [--digits 40]`: golden test vectors
(JSON Lines + CSV + JSON schema + a manifest with SHA-256 hashes) for other implementations to test against."""

from __future__ import annotations

import argparse
import sys

from dpbounds.cli.commands import parse_list
from dpbounds.util.io import ensure_output_dir

EPILOG = """\
examples:
  dpbounds golden --out golden/                               # every bound, default grid
  dpbounds golden --out g/ --bounds rruv16.thm5_1,fz21.thm4_7 --grid sample --digits 30
  dpbounds golden --out g/ --grid dense --no-streams
"""


def add_parser(sub) -> None:
    p = sub.add_parser("golden", help="write golden test vectors (JSON Lines + CSV + schema + manifest)",
                       description=__doc__, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True, metavar="DIR", help="output directory (created if absent)")
    p.add_argument("--bounds", metavar="ID,ID", help="comma-separated spec ids (default: every bound)")
    p.add_argument("--grid", choices=("sample", "default", "dense"), default="default",
                   help="parameter grid: sample (one point per bound), default, or dense")
    p.add_argument("--digits", type=int, default=40, metavar="N",
                   help="significant digits of each value, 5..1000 (default 40); enclosures are rounded outward")
    p.add_argument("--no-streams", action="store_true", help="skip the per-round stream vectors")
    p.set_defaults(func=run)


def run(args) -> int:
    from dpbounds.outputs.golden import write_golden
    bounds = parse_list(args.bounds, "--bounds") if args.bounds is not None else None
    ensure_output_dir(args.out, "--out", create=False)  # write_golden creates it once its arguments are checked
    summary = write_golden(args.out, bounds=bounds, grid=args.grid, digits=args.digits, streams=not args.no_streams)
    sys.stdout.write(f"wrote {args.out}: {summary}\n")
    return 0
