"""`dpbounds bstar --eps-g E --delta-g D --conversion bs16|cks20|gauss [--digits N] [--format json]`."""

from __future__ import annotations

import sys

from dpbounds.cli.commands import emit_json
from dpbounds.spec import DomainError

MAX_DIGITS = 1000


def certified_b_star(eps_g, delta_g, conversion: str, digits: int):
    """B* with a bracket that backs ``digits`` digits, or DomainError('--digits') saying how many it backs."""
    from dpbounds.evaluation.digits import b_star_to_digits
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= MAX_DIGITS:
        raise DomainError("--digits", digits, f"an integer in [1, {MAX_DIGITS}]", "dpbounds bstar")
    b, got = b_star_to_digits(eps_g, delta_g, conversion, digits)
    if got < digits:
        raise DomainError("--digits", digits, f"at most {got} digits: the certified B* bracket for {conversion} at "
                          f"eps_g={eps_g}, delta_g={delta_g} backs no more", "dpbounds bstar", "digits not certified")
    return b


def add_parser(sub) -> None:
    p = sub.add_parser("bstar", help="B* = the largest zCDP budget that a conversion turns into (eps_g, delta_g)-DP")
    p.add_argument("--eps-g", required=True)
    p.add_argument("--delta-g", required=True)
    p.add_argument("--conversion", choices=("bs16", "cks20", "gauss"), default="cks20")
    p.add_argument("--digits", type=int, default=20,
                   help="significant digits of B* (each backed by the certified bracket, or exit 2)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run)


def run(args) -> int:
    b = certified_b_star(args.eps_g, args.delta_g, args.conversion, args.digits)
    rec = b.as_dict(args.digits)
    if args.format == "json":
        emit_json(rec)
    else:
        note = "" if b.valid_conversion else "  (the Gaussian limit: not a valid general conversion)"
        sys.stdout.write(f"B*_{b.conversion}(eps_g={args.eps_g}, delta_g={args.delta_g}) >= {rec['b_star']}\n"
                         f"  certified bracket [{rec['bracket'][0]}, {rec['bracket'][1]}]{note}\n")
    return 0
