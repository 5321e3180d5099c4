"""`dpbounds bench [--quick] [--only NAME] [--format text|json]`: throughput numbers (printed, never asserted)."""

from __future__ import annotations

import argparse
import sys

from dpbounds.cli.commands import emit_json

EPILOG = """\
examples:
  dpbounds bench --quick                       # every benchmark, small sizes
  dpbounds bench --only "fast path" --only certified --format json
"""


def add_parser(sub) -> None:
    p = sub.add_parser("bench", help="throughput of the fast path, certified evaluation, filters, B*, ...",
                       description=__doc__, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="smaller sizes (seconds instead of minutes)")
    p.add_argument("--only", action="append", metavar="NAME",
                   help="run only this benchmark (repeatable), e.g. 'fast path' or 'certified'; an unknown name "
                   "is an error listing the known ones")
    p.add_argument("--format", choices=("text", "json"), default="text", help="text table (default) or json")
    p.set_defaults(func=run)


def run(args) -> int:
    from dpbounds.outputs.bench import run_benchmarks
    rows = run_benchmarks(quick=args.quick, only=args.only)
    if args.format == "json":
        emit_json(rows)
        return 0
    for r in rows:
        rate = "-" if r.get("rate") is None else f"{r['rate']:.3g} {r.get('unit', '')}"
        sys.stdout.write(f"{r['bench']:<34} {r.get('id', ''):<40} {rate:<22} {r.get('note', '')}\n")
    return 0
