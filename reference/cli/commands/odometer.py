"""`dpbounds odometer ID --param NAME=VALUE ... [--format json] < stream.csv`: the running bound per round.

The CSV has a header naming its columns (eps, delta and/or rho; ``fz21.prop5_2`` takes rho).  Each output line has
the round and the bound (float64 rounded up; 'inf' once the bound is no longer valid).  Rows are read and written
one at a time (constant memory; ``--format json`` streams its ``rounds`` array).
"""

from __future__ import annotations

import sys

from dpbounds.cli.commands import parse_assignments
from dpbounds.cli.commands._stream import RowWriter, read_rounds


def add_parser(sub) -> None:
    p = sub.add_parser("odometer", help="run a privacy odometer over a stream of rounds (CSV on stdin)")
    p.add_argument("id")
    p.add_argument("--param", action="append", metavar="NAME=VALUE")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run)


def run(args) -> int:
    from dpbounds.accounting.accountants import RenyiOdometer, make_odometer
    from dpbounds.evaluation.numeric import float_up
    params = parse_assignments(args.param)
    o = make_odometer(args.id, **params)
    w = RowWriter(sys.stdout, args.format, {"id": args.id, "params": params},
                  lambda r: f"{r['round']}\t{r['bound_upper']!r}")
    for i, rec in enumerate(read_rounds(sys.stdin), start=1):
        if isinstance(o, RenyiOdometer):
            v = float_up(o.step(rec.get("rho"), rec.get("delta", "0"), eps=rec.get("eps")))
        else:
            v = o.step(rec.get("eps"), rec.get("delta", "0"), rec.get("rho"))
        w.row({"round": i, **rec, "bound_upper": v})
    w.close({})
    return 0
