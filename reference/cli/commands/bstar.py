"""`dpbounds bstar --eps-g E --delta-g D [--conversion bs16|cks20|gauss]`: the largest zCDP budget B* that a
conversion turns into (eps_g, delta_g)-DP, as a certified bracket (its lower end is the usable budget)."""

from __future__ import annotations

import argparse
import sys

from dpbounds.cli.commands import emit_json
from dpbounds.spec import DomainError

#: printed digits: the certified bracket is about 1e-20 relative wide, so more digits would be noise
MIN_DIGITS, MAX_DIGITS = 5, 60

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
                   help=f"significant digits printed, {MIN_DIGITS}..{MAX_DIGITS} (default 20); every digit is "
                   "rounded outward from the certified bracket")
    p.add_argument("--format", choices=("text", "json"), default="text", help="text (default) or json")
    p.set_defaults(func=run)


def run(args) -> int:
    from dpbounds.accounting.conversions import b_star
    if not MIN_DIGITS <= args.digits <= MAX_DIGITS:
        raise DomainError("--digits", args.digits, f"an integer in [{MIN_DIGITS}, {MAX_DIGITS}]", "dpbounds bstar",
                          "the certified bracket is about 1e-20 relative wide")
    b = b_star(args.eps_g, args.delta_g, args.conversion)
    rec = b.as_dict(args.digits)
    if args.format == "json":
        emit_json(rec)
    else:
        note = "" if b.valid_conversion else "  (the Gaussian limit: not a valid general conversion)"
        sys.stdout.write(f"B*_{b.conversion}(eps_g={args.eps_g}, delta_g={args.delta_g}) >= {rec['b_star']}\n"
                         f"  certified bracket [{rec['bracket'][0]}, {rec['bracket'][1]}]{note}\n")
    return 0
