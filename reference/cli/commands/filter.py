"""`dpbounds filter ID --budget NAME=VALUE ... [--format json] < stream.csv`: CONT/HALT per round.

The CSV has a header naming its columns (eps, delta and/or rho); one line per round.  Each output line has the
round, the decision and an upper bound on the running statistic (the spec ``expr``: on the recorded rounds, or for
the refused round on the aggregates it would have made).  After HALT the filter stops reading.  With ``--state FILE``
the filter's state is persisted after every recorded round (before CONT is printed) and resumed from FILE if it
exists: FILE is locked (FILE.lock) while the command runs (a second command on it exits 2), and on resume a
``--budget``/``--conversion`` given must equal the recorded one (exit 2 otherwise; give none to keep the recorded
budget).  Rows are read and written one at a time (constant memory; ``--format json`` streams its ``rounds`` array).
"""

from __future__ import annotations

import sys

from dpbounds.cli.commands import parse_assignments
from dpbounds.cli.commands._stream import RowWriter, read_rounds


def add_parser(sub) -> None:
    import argparse

    from dpbounds.cli.commands import STREAM_FORMAT
    epilog = STREAM_FORMAT + """
output: one line per round, 'ROUND<TAB>CONT|HALT<TAB>statistic<=UPPER' (or one JSON document with --format json);
after HALT the filter stops reading.

examples:
  dpbounds filter rruv16.thm5_1 --budget eps_g=1 --budget delta_g=1e-6 < stream.csv
  dpbounds filter fz21.thm4_7 --budget eps_g=1 --budget delta_g=1e-6 --conversion cks20 --state f.json < eps.csv
  printf 'eps\\n0.1\\n0.2\\n' | dpbounds filter wrrw23.thm2 --budget eps_g=1 --budget delta_prime=1e-6 \\
      --budget delta_dprime=0 --format json
"""
    p = sub.add_parser("filter", help="run a privacy filter over a stream of rounds (CSV on stdin)",
                       description=__doc__, epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("id", help="a filter id (`dpbounds spec --list` shows the kind of each entry)")
    p.add_argument("--budget", action="append", metavar="NAME=VALUE",
                   help="a budget parameter of the filter, an exact decimal (e.g. eps_g=1, delta_g=1e-6); repeatable")
    p.add_argument("--conversion", choices=("bs16", "cks20"), help="for fz21.thm4_7 / wrrw23.thm1.cks20: the "
                   "zCDP -> DP conversion that defines B*")
    p.add_argument("--state", metavar="FILE", help="persist the state after every recorded round (resume if present)")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text, one line per round as it is decided (default), or one json document at the end")
    p.set_defaults(func=run)


def _upper(enc) -> float:
    return float("inf") if enc.pos_inf else enc.upper()


def run(args) -> int:
    from dpbounds.accounting.accountants import Decision, Filter, make_filter
    budget = parse_assignments(args.budget, "--budget")
    if args.state:  # locked while we run; a resumed budget/conversion must equal the recorded one (else exit 2)
        f = Filter.open(args.state, args.id, conversion=args.conversion, **budget)
    else:
        f = make_filter(args.id, conversion=args.conversion, **budget)
    try:
        w = RowWriter(sys.stdout, args.format, {"id": f.entry.id, "budget": budget},
                      lambda r: f"{r['round']}\t{r['decision']}\tstatistic<={r['statistic_upper']!r}")
        halt_round = None
        for i, rec in enumerate(read_rounds(sys.stdin), start=f.rounds + 1):
            d = f.try_spend(rec.get("eps"), rec.get("delta", "0"), rec.get("rho"))
            stat = _upper(f.statistic(candidate=d is Decision.HALT))
            w.row({"round": i, **rec, "decision": d.value, "statistic_upper": stat})
            if d is Decision.HALT:
                halt_round = i
                break
        w.close({"halt_round": halt_round})
    finally:
        f.close()
    return 0
