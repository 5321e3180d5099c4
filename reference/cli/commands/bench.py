"""`dpbounds bench [--quick] [--format text|json]`: throughput numbers (printed, not asserted)."""

from __future__ import annotations

import sys

from dpbounds.cli.commands import emit_json


def add_parser(sub) -> None:
    p = sub.add_parser("bench", help="throughput of the fast path, certified evaluation, filters, B*, ...")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--only", action="append", help="run only these benchmarks")
    p.add_argument("--format", choices=("text", "json"), default="text")
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
