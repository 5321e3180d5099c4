"""`dpbounds filter ID --budget NAME=VALUE ... [--format json] < stream.csv`: CONT/HALT per round.

The CSV has a header naming its columns (eps, delta and/or rho); one line per round.  Each output line has the
round, the decision and an upper bound on the running statistic (the spec ``expr``: on the recorded rounds, or for
the refused round on the aggregates it would have made).  After HALT the filter stops reading.  With ``--state FILE``
the filter's state is persisted after every recorded round (before CONT is printed) and resumed from FILE if it
exists: FILE is locked while the command runs (a second command on it exits 2; the kernel holds the lock, on
FILE.lock, which is removed at exit -- one left by a killed process is harmless and may be deleted; even with it
deleted by hand a second writer is refused and no round is lost), and on resume a
``--budget``/``--conversion`` given must equal the recorded one (exit 2 otherwise; give none to keep the recorded
budget).  Rows are read and written one at a time (constant memory; ``--format json`` streams its ``rounds`` array).

The Gaussian-DP filters (st22.filter, kth23.individual_filter) also read a ``mu`` column: a mu_t-GDP round (e.g. a
Gaussian mechanism with sensitivity/sigma = mu_t) is recorded as rho_t = mu_t^2/2, so ``mu`` and ``rho`` are two
names for one cost (the filter continues while sum mu_t^2 <= mu_g^2, i.e. sum rho_t <= B = mu_g^2/2); give one of
the two columns.
"""

from __future__ import annotations

import sys

from dpbounds.cli.commands import parse_assignments
from dpbounds.cli.commands._stream import ALLOWED, RowWriter, read_rounds
from dpbounds.spec import DomainError


def add_parser(sub) -> None:
    import argparse

    from dpbounds.cli.commands import STREAM_FORMAT
    epilog = STREAM_FORMAT + """
output: one line per round, 'ROUND<TAB>CONT|HALT<TAB>statistic<=UPPER' (or one JSON document with --format json);
after HALT the filter stops reading.

examples:
  dpbounds filter rruv16.thm5_1 --budget eps_g=1 --budget delta_g=1e-6 < stream.csv
  dpbounds filter fz21.thm4_7 --budget eps_g=1 --budget delta_g=1e-6 --conversion cks20 --state f.json < eps.csv
  printf 'mu\\n0.1\\n0.2\\n' | dpbounds filter st22.filter --budget eps_g=1 --budget delta_g=1e-6
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
        gdp = hasattr(f, "try_spend_mu")  # the Gaussian-DP filters: a mu column (rho = mu^2/2)
        try:
            for i, rec in enumerate(read_rounds(sys.stdin, ALLOWED + ("mu",) if gdp else ALLOWED),
                                    start=f.rounds + 1):
                if "mu" in rec:
                    if "rho" in rec:
                        raise DomainError("header", "mu,rho", "one of the columns mu and rho (rho = mu^2/2)",
                                          f.entry.id)
                    d = f.try_spend_mu(rec["mu"])
                else:
                    d = f.try_spend(rec.get("eps"), rec.get("delta", "0"), rec.get("rho"))
                stat = _upper(f.statistic(candidate=d is Decision.HALT))
                w.row({"round": i, **rec, "decision": d.value, "statistic_upper": stat})
                if d is Decision.HALT:
                    halt_round = i
                    break
        except BaseException as e:  # a bad later row: the JSON document is closed, with the error, not cut
            w.abort(e)
            raise
        w.close({"halt_round": halt_round})
    finally:
        f.close()
    return 0
