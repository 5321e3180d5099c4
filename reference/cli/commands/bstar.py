"""`dpbounds bstar --eps-g E --delta-g D [--conversion bs16|cks20|gauss]`: the largest zCDP budget B* that a
conversion turns into (eps_g, delta_g)-DP, as a certified bracket (its lower end is the usable budget)."""

from __future__ import annotations

import argparse
import sys

from dpbounds.cli.commands import capped, emit_json
from dpbounds.spec import DomainError

MAX_DIGITS = 1000


def certified_b_star(eps_g, delta_g, conversion: str, digits: int):
    """B* with a bracket that backs ``digits`` digits, or DomainError('--digits') saying how many it backs."""
    from dpbounds.accounting.conversions import b_star_to_digits
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= MAX_DIGITS:
        raise DomainError("--digits", digits, f"an integer in [1, {MAX_DIGITS}]", "dpbounds bstar")
    b, got = b_star_to_digits(eps_g, delta_g, conversion, digits)
    if got < digits:
        raise DomainError("--digits", digits, f"at most {got} digits: the certified B* bracket for {conversion} at "
                          f"eps_g={eps_g}, delta_g={delta_g} backs no more", "dpbounds bstar", "digits not certified")
    return b


EPILOG = """\
examples:
  dpbounds bstar --eps-g 1 --delta-g 1e-6                      # CKS20 (the default, the tightest valid one)
  dpbounds bstar --eps-g 1 --delta-g 1e-6 --conversion bs16 --digits 30
  dpbounds bstar --eps-g 0.5 --delta-g 1e-9 --conversion gauss --format json
"""


def add_parser(sub) -> None:
    p = sub.add_parser("bstar", help="B* = the largest zCDP budget that a conversion turns into (eps_g, delta_g)-DP",
                       description=__doc__, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--eps-g", required=True, metavar="E",
                   help="target epsilon, an exact decimal (e.g. 1 or 0.5); 0 < eps_g <= 1e10")
    p.add_argument("--delta-g", required=True, metavar="D", help="target delta, an exact decimal, 0 < delta_g < 1")
    p.add_argument("--conversion", choices=("bs16", "cks20", "gauss"), default="cks20",
                   help="zCDP -> DP conversion: bs16 (Bun-Steinke 2016), cks20 (Canonne-Kamath-Steinke 2020, "
                   "default) or gauss (the Gaussian limit: not a valid general conversion)")
    p.add_argument("--digits", type=int, default=20, metavar="N",
                   help=f"significant digits of B*, 1..{MAX_DIGITS} (default 20): each backed by a certified bracket "
                   "narrowed until it does, or exit 2 saying how many digits are backed")
    p.add_argument("--format", choices=("text", "json"), default="text", help="text (default) or json")
    p.set_defaults(func=run)


def run(args) -> int:
    b = capped({"bs16": "conversions.bs16.b_star", "gauss": "conversions.gauss.delta"}.get(args.conversion,
                                                                                         "conversions.cks20"),
               {"eps_g": args.eps_g, "delta_g": args.delta_g, "conversion": args.conversion, "digits": args.digits},
               lambda: certified_b_star(args.eps_g, args.delta_g, args.conversion, args.digits))
    rec = b.as_dict(args.digits)
    if args.format == "json":
        emit_json(rec)
    else:
        note = "" if b.valid_conversion else "  (the Gaussian limit: not a valid general conversion)"
        sys.stdout.write(f"B*_{b.conversion}(eps_g={args.eps_g}, delta_g={args.delta_g}) >= {rec['b_star']}\n"
                         f"  certified bracket [{rec['bracket'][0]}, {rec['bracket'][1]}]{note}\n")
    return 0
