"""`dpbounds filter ID --budget NAME=VALUE ... [--format json] < stream.csv`: CONT/HALT per round."""

from __future__ import annotations

import sys

from . import emit_json, parse_assignments
from ._stream import read_rounds


def add_parser(sub) -> None:
    p = sub.add_parser("filter", help="run a privacy filter over a stream of rounds (CSV on stdin)")
    p.add_argument("id")
    p.add_argument("--budget", action="append", metavar="NAME=VALUE")
    p.add_argument("--conversion", choices=("bs16", "cks20"), help="for fz21.thm4_7 / wrrw23.thm1.cks20")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..accountants import Decision, make_filter
    budget = parse_assignments(args.budget, "--budget")
    f = make_filter(args.id, conversion=args.conversion, **budget)
    rounds = []
    halt_round = None
    for i, rec in enumerate(read_rounds(sys.stdin), start=1):
        d = f.try_spend(rec.get("eps"), rec.get("delta", "0"), rec.get("rho"))
        stat = f.statistic()
        row = {"round": i, **rec, "decision": d.value,
               "statistic_upper": stat.upper() if not stat.pos_inf else float("inf")}
        rounds.append(row)
        if args.format == "text":
            sys.stdout.write(f"{i}\t{d.value}\tstatistic<={row['statistic_upper']!r}\n")
        if d is Decision.HALT:
            halt_round = i
            break
    if args.format == "json":
        emit_json({"id": f.entry.id, "budget": budget, "halt_round": halt_round, "rounds": rounds})
    return 0
