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
    import argparse

    from dpbounds.cli.commands import STREAM_FORMAT
    epilog = STREAM_FORMAT + """
output: one line per round, 'ROUND<TAB>UPPER' (or one JSON document with --format json).

examples:
  dpbounds odometer wrrw23.thm3.mixture --param gamma=0.01 --param delta_prime=1e-6 --param delta_dprime=1e-6 < s.csv
  printf 'rho\\n0.01\\n0.02\\n' | dpbounds odometer fz21.prop5_2 --param Delta=0.5 --format json
"""
    p = sub.add_parser("odometer", help="run a privacy odometer over a stream of rounds (CSV on stdin)",
                       description=__doc__, epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("id", help="an odometer id (`dpbounds spec --list` shows the kind of each entry)")
    p.add_argument("--param", action="append", metavar="NAME=VALUE",
                   help="a parameter of the odometer, an exact decimal (e.g. delta_g=1e-6); repeatable")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text, one line per round as it is computed (default), or one json document at the end")
    p.set_defaults(func=run)


def run(args) -> int:
    from dpbounds.accounting.accountants import RenyiOdometer, make_odometer
    from dpbounds.evaluation.numeric import float_up
    params = parse_assignments(args.param)
    o = make_odometer(args.id, **params)
    w = RowWriter(sys.stdout, args.format, {"id": args.id, "params": params},
                  lambda r: f"{r['round']}\t{r['bound_upper']!r}")
    try:
        for i, rec in enumerate(read_rounds(sys.stdin), start=1):
            if isinstance(o, RenyiOdometer):
                v = float_up(o.step(rec.get("rho"), rec.get("delta", "0"), eps=rec.get("eps")))
            else:
                v = o.step(rec.get("eps"), rec.get("delta", "0"), rec.get("rho"))
            w.row({"round": i, **rec, "bound_upper": v})
    except BaseException as e:  # a bad later row: the JSON document is closed, with the error, not cut
        w.abort(e)
        raise
    w.close({})
    return 0
