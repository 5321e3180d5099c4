"""`dpbounds golden --out DIR [--bounds ID,...] [--grid sample|default|dense] [--digits 40]`."""

from __future__ import annotations

import sys

from dpbounds.cli.commands import parse_list


def add_parser(sub) -> None:
    p = sub.add_parser("golden", help="write golden test vectors (JSON Lines + CSV + schema + manifest)")
    p.add_argument("--out", required=True, help="output directory")
    p.add_argument("--bounds", help="comma-separated spec ids (default: every bound)")
    p.add_argument("--grid", choices=("sample", "default", "dense"), default="default")
    p.add_argument("--digits", type=int, default=40)
    p.add_argument("--no-streams", action="store_true", help="skip the per-round stream vectors")
    p.set_defaults(func=run)


def run(args) -> int:
    from dpbounds.outputs.golden import write_golden
    bounds = parse_list(args.bounds, "--bounds") if args.bounds else None
    summary = write_golden(args.out, bounds=bounds, grid=args.grid, digits=args.digits, streams=not args.no_streams)
    sys.stdout.write(f"wrote {args.out}: {summary}\n")
    return 0
