"""`dpbounds bench [--quick] [--only NAME] [--format text|json]`: throughput numbers (printed, never asserted)."""

from __future__ import annotations

import argparse
import sys

from dpbounds.cli.commands import emit_json

EPILOG = """\
examples:
  dpbounds bench --quick                       # every benchmark, small sizes
  dpbounds bench --only "fast path" --only certified --format json
  dpbounds bench --only "vs dp_accounting" --python riskcal=/opt/riskcal/bin/python   # ratios to the peers
"""


def add_parser(sub) -> None:
    p = sub.add_parser("bench", help="throughput of the fast path, certified evaluation, filters, B*, ...",
                       description=__doc__, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="smaller sizes (seconds instead of minutes)")
    p.add_argument("--only", action="append", metavar="NAME",
                   help="run only this benchmark (repeatable), e.g. 'fast path' or 'certified'; an unknown name "
                   "is an error listing the known ones")
    p.add_argument("--format", choices=("text", "json"), default="text", help="text table (default) or json")
    p.add_argument("--python", action="append", metavar="PEER=PATH", default=[],
                   help="run PEER's side of a comparison in this interpreter (repeatable; riskcal: its pins conflict "
                   "with dpbounds'); default $DPBOUNDS_PEERS/PEER/bin/python when it exists")
    p.set_defaults(func=run)


def run(args) -> int:
    from dpbounds.audit import bench as peer_bench
    from dpbounds.outputs.bench import run_benchmarks
    from dpbounds.spec import DomainError
    for item in args.python:
        name, sep, path = item.partition("=")
        if not sep or not name or not path:
            raise DomainError("--python", item, "PEER=PATH", "dpbounds bench")
        peer_bench.PYTHONS[name] = path
    rows = run_benchmarks(quick=args.quick, only=args.only)
    if args.format == "json":
        emit_json(rows)
        return 0
    plain = [r for r in rows if "peer_rate" not in r]
    pairs = [r for r in rows if "peer_rate" in r or r.get("bench") == peer_bench.PEER_BENCH]
    for r in plain:
        rate = "-" if r.get("rate") is None else f"{r['rate']:.3g} {r.get('unit', '')}"
        sys.stdout.write(f"{r['bench']:<34} {r.get('id', ''):<40} {rate:<22} {r.get('note', '')}\n")
    if pairs:
        sys.stdout.write(comparison_table(pairs))
    return 0


def comparison_table(rows: list[dict]) -> str:
    """The comparison rows side by side: calls/s of dpbounds and of the peer measured in the same run, their ratio
    (> 1: dpbounds is faster), dpbounds' relative width and where the peer's value lies against the enclosure."""
    def g(v, fmt="{:.3g}"):
        return "-" if v is None else fmt.format(v)
    head = f"{'measurement':<36} {'dpbounds/s':>11} {'peer/s':>11} {'ratio':>7} {'width':>8} {'peer value':<10} peer"
    out = ["", "# dpbounds and its peer on the same inputs, one run (ratio > 1: dpbounds is faster)", head]
    for r in rows:
        if r.get("rate") is None:
            out.append(f"{r.get('id', ''):<36} {'-':>11} {'-':>11} {'-':>7} {'-':>8} {'-':<10} {r.get('note', '')}")
            continue
        out.append(f"{r.get('id', ''):<36} {g(r.get('rate')):>11} {g(r.get('peer_rate')):>11} "
                   f"{g(r.get('ratio'), '{:.2f}'):>7} {g(r.get('width'), '{:.1g}'):>8} {r.get('peer_side', '-'):<10} "
                   f"{r.get('peer', '')}")
        out.append(f"{'':<4}{r.get('point', '')}; dpbounds: {r.get('dpbounds', '')}"
                   + (f"; {r['note']}" if r.get("note") else ""))
    return "\n".join(out) + "\n"
