"""`dpbounds eval ID --param NAME=VALUE ...`: one bound, certified."""

from __future__ import annotations

import sys

from dpbounds.spec import DomainError

from dpbounds.evaluation.evaluate import evaluate
from dpbounds.cli.commands import emit_json, parse_assignments, parse_list, read_list_file


def add_parser(sub) -> None:
    p = sub.add_parser("eval", help="evaluate one spec entry (value, certified enclosure, float64 bracket)")
    p.add_argument("id")
    p.add_argument("--param", action="append", metavar="NAME=VALUE", help="a parameter or aggregate value "
                   "(exact decimal, e.g. delta_g=1e-6)")
    p.add_argument("--eps", help="per-round eps, comma-separated")
    p.add_argument("--delta", help="per-round delta, comma-separated")
    p.add_argument("--rho", help="per-round rho, comma-separated")
    p.add_argument("--eps-file", help="file of per-round eps values")
    p.add_argument("--delta-file", help="file of per-round delta values")
    p.add_argument("--digits", type=int, default=30)
    p.add_argument("--what", default="expr", help="expr (default), lhs or extra.<name>")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run)


def run(args) -> int:
    params = parse_assignments(args.param)
    eps = parse_list(args.eps, "--eps")
    delta = parse_list(args.delta, "--delta")
    rho = parse_list(args.rho, "--rho")
    if args.eps_file:
        if eps is not None:
            raise DomainError("--eps-file", args.eps_file, "either --eps or --eps-file", "command line")
        eps = read_list_file(args.eps_file, "--eps-file")
    if args.delta_file:
        if delta is not None:
            raise DomainError("--delta-file", args.delta_file, "either --delta or --delta-file", "command line")
        delta = read_list_file(args.delta_file, "--delta-file")
    if not 1 <= args.digits <= 5000:
        raise DomainError("--digits", args.digits, "an integer in [1, 5000]", "command line")
    r = evaluate(args.id, params, digits=args.digits, eps=eps, delta=delta, rho=rho, what=args.what)
    if args.format == "json":
        emit_json(r.as_dict())
    else:
        sys.stdout.write(f"{r.id} = {r.value}\n  enclosure [{r.enclosure[0]}, {r.enclosure[1]}]\n"
                         f"  float64 [{r.lower!r}, {r.upper!r}]\n  source: {r.source}\n")
    return 0
