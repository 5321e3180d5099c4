"""`dpbounds eval ID --param NAME=VALUE ...`: one bound, certified -- its value at the digits asked for, a certified
enclosure of the exact value, and the float64 bracket around it."""

from __future__ import annotations

import argparse
import sys

from dpbounds.spec import DomainError

from dpbounds.evaluation.evaluate import evaluate
from dpbounds.cli.commands import (MAX_LIST_VALUES, capped, emit_json, parse_assignments, parse_list,
                                   read_list_file)

EPILOG = f"""\
numbers are exact decimals or ratios (0.1, 1e-6, 1/3; |exponent| <= 1000), never evaluated as code.  An entry
with aggregates (V = sum eps_i^2, A, ...) takes either per-round values (--eps, --delta, --rho, or --eps-file)
or the aggregate values themselves (--param V=0.5 --param A=0.3; an aggregate may be 'inf').

examples:
  dpbounds eval rruv16.thm5_1 --param eps_g=1 --param delta_g=1e-6 --eps 0.1,0.2,0.05
  dpbounds eval rruv16.thm5_1 --param eps_g=1 --param delta_g=1e-6 --param V=0.5 --param A=0.3 --digits 50
  dpbounds eval conversions.cks20 --param rho=0.5 --param delta=1e-6 --format json
  dpbounds eval fz21.thm4_7 --param eps_g=1 --param delta_g=1e-6 --param B=0.02 --eps-file eps.txt

--eps-file / --delta-file: a UTF-8 text file of numbers separated by commas, blanks or newlines ('#' starts a
comment line), at most {MAX_LIST_VALUES} values (longer streams: `dpbounds filter` / `dpbounds odometer`).
"""


def add_parser(sub) -> None:
    p = sub.add_parser("eval", help="evaluate one spec entry (value, certified enclosure, float64 bracket)",
                       description=__doc__, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("id", help="a spec id, e.g. rruv16.thm5_1 (`dpbounds spec --list` lists them; a near miss gets "
                   "a 'did you mean' suggestion)")
    p.add_argument("--param", action="append", metavar="NAME=VALUE", help="a parameter or aggregate value, an exact "
                   "decimal (e.g. delta_g=1e-6); repeatable")
    p.add_argument("--eps", metavar="E1,E2,...", help="per-round epsilons, comma-separated")
    p.add_argument("--delta", metavar="D1,D2,...", help="per-round deltas, comma-separated (default: all 0)")
    p.add_argument("--rho", metavar="R1,R2,...", help="per-round zCDP costs, comma-separated")
    p.add_argument("--eps-file", metavar="FILE", help="per-round epsilons from a text file (see below)")
    p.add_argument("--delta-file", metavar="FILE", help="per-round deltas from a text file (see below)")
    p.add_argument("--digits", type=int, default=30, metavar="N",
                   help="significant digits of the value, 1..5000 (default 30); the enclosure is certified to "
                   "relative width 10^-(N+3)")
    p.add_argument("--what", default="expr", metavar="EXPR",
                   help="which expression: expr (default), lhs (of a lemma) or extra.<name>; for a filter, expr "
                   "also prints the decision (CONT/HALT) at these rounds")
    p.add_argument("--format", choices=("text", "json"), default="text", help="text (default) or json")
    p.set_defaults(func=run)


def run(args) -> int:
    if not 1 <= args.digits <= 5000:
        raise DomainError("--digits", args.digits, "an integer in [1, 5000]", "command line")
    params = parse_assignments(args.param)
    eps = parse_list(args.eps, "--eps")
    delta = parse_list(args.delta, "--delta")
    rho = parse_list(args.rho, "--rho")
    if args.eps_file is not None:
        if eps is not None:
            raise DomainError("--eps-file", args.eps_file, "either --eps or --eps-file", "command line")
        eps = read_list_file(args.eps_file, "--eps-file")
    if args.delta_file is not None:
        if delta is not None:
            raise DomainError("--delta-file", args.delta_file, "either --delta or --delta-file", "command line")
        delta = read_list_file(args.delta_file, "--delta-file")
    shown = {**params, **{f"--{k}": _count(v) for k, v in (("eps", eps), ("delta", delta), ("rho", rho))},
             "--digits": args.digits}

    def work():
        r = evaluate(args.id, params, digits=args.digits, eps=eps, delta=delta, rho=rho, what=args.what)
        return r, (_decision(args.id, params, eps, delta, rho) if args.what == "expr" else None)
    r, decision = capped(args.id, shown, work)
    if args.format == "json":
        emit_json({**r.as_dict(), **({"decision": decision} if decision else {})})
    else:
        sys.stdout.write(f"{r.id} = {r.value}\n")  # (the first line stays `ID = VALUE`: scripts read it)
        if decision:
            sys.stdout.write(f"  decision: {decision} -- {_MEANING[decision]} (certified: the filter's HALT rule "
                             f"on these rounds)\n")
        sys.stdout.write(f"  enclosure [{r.enclosure[0]}, {r.enclosure[1]}]\n  float64 [{r.lower!r}, {r.upper!r}]\n")
        sys.stdout.write(f"  source: {r.source}\n")
    return 0


def _count(seq) -> str | None:
    return None if seq is None else (seq[0] if len(seq) == 1 else f"<{len(seq)} values>")


_MEANING = {"CONT": "the rounds so far fit the budget; the last one may run",
            "HALT": "the budget is exceeded; the last round must not run"}


def _decision(entry_id: str, params, eps, delta, rho) -> str | None:
    """CONT/HALT of a filter entry at these inputs (its spec's HALT condition, decided by arb); None otherwise."""
    from dpbounds import spec
    from dpbounds.evaluation.evaluate import decide, prepare

    entry = spec.get(entry_id)
    if entry.kind is not spec.Kind.FILTER or entry.halt is None:
        return None
    return "HALT" if decide(entry, prepare(entry, params or {}, eps=eps, delta=delta, rho=rho)) else "CONT"
