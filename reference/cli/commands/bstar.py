"""`dpbounds bstar --eps-g E --delta-g D --conversion bs16|cks20|gauss [--format json]`."""

from __future__ import annotations

import sys

from dpbounds.cli.commands import emit_json


def add_parser(sub) -> None:
    p = sub.add_parser("bstar", help="B* = the largest zCDP budget that a conversion turns into (eps_g, delta_g)-DP")
    p.add_argument("--eps-g", required=True)
    p.add_argument("--delta-g", required=True)
    p.add_argument("--conversion", choices=("bs16", "cks20", "gauss"), default="cks20")
    p.add_argument("--digits", type=int, default=20)
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run)


def run(args) -> int:
    from dpbounds.accounting.conversions import b_star
    b = b_star(args.eps_g, args.delta_g, args.conversion)
    rec = b.as_dict(max(5, min(args.digits, 60)))
    if args.format == "json":
        emit_json(rec)
    else:
        note = "" if b.valid_conversion else "  (the Gaussian limit: not a valid general conversion)"
        sys.stdout.write(f"B*_{b.conversion}(eps_g={args.eps_g}, delta_g={args.delta_g}) >= {rec['b_star']}\n"
                         f"  certified bracket [{rec['bracket'][0]}, {rec['bracket'][1]}]{note}\n")
    return 0
