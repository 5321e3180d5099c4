"""`dpbounds calibrate --eps E --delta D (--q Q --k K | --q Q --sigma S | --phases P)`: certified DP-SGD calibration --
the smallest noise multiplier sigma (or schedule multiplier) whose certified epsilon at delta is at most eps, or the
largest number of steps k.  Prints an enclosure [lo, hi]: for sigma, hi is certified sufficient and lo certified
insufficient; for k, lo is certified sufficient and hi + 1 certified insufficient."""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction

from dpbounds.cli.commands import emit_json
from dpbounds.spec import DomainError

EPILOG = """\
examples:
  dpbounds calibrate --eps 1 --delta 1e-5 --q 0.01 --k 1000                 # sigma_min for 1000 steps
  dpbounds calibrate --eps 8 --delta 1e-5 --q 0.01 --k 1000 --relation substitution --sampling fixed_size
  dpbounds calibrate --eps 1 --delta 1e-5 --q 0.01 --sigma 1.1              # the largest k
  dpbounds calibrate --eps 2 --delta 1e-5 --phases 0.01:1:500,0.02:1:300    # one multiplier for a schedule
"""


def add_parser(sub) -> None:
    p = sub.add_parser("calibrate", help="certified DP-SGD calibration: the smallest sigma or the largest k for a "
                       "target (eps, delta)", description=__doc__, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--eps", required=True, metavar="E", help="target epsilon, an exact decimal > 0")
    p.add_argument("--delta", required=True, metavar="D", help="target delta, an exact decimal in (0, 1)")
    p.add_argument("--q", metavar="Q", help="sampling rate (batch size / data set size), 0 < q <= 1")
    p.add_argument("--k", metavar="K", help="number of steps (calibrates sigma)")
    p.add_argument("--sigma", metavar="S", help="noise multiplier (calibrates the largest k)")
    p.add_argument("--phases", metavar="P", help="a schedule q:sigma:k,... (calibrates one multiplier of every "
                   "phase's sigma; write sigma 1 to calibrate a common noise multiplier)")
    p.add_argument("--relation", default="add_remove", metavar="R",
                   help="add_remove (default) or substitution (one example replaced by another)")
    p.add_argument("--sampling", default="poisson", metavar="S",
                   help="poisson (default) or fixed_size (batches of b of n without replacement, q = b/n; "
                   "substitution only)")
    p.add_argument("--rel-tol", default="1e-3", metavar="T", help="relative width of the sigma enclosure "
                   "(default 1e-3; 1e-12 .. 0.5: below about 1e-6 only where the curve is a closed form, q = 1 or k = 1)")
    p.add_argument("--format", choices=("text", "json"), default="text", help="text (default) or json")
    p.set_defaults(func=run)


def run(args) -> int:
    from dpbounds.evaluation import sgm_calibrate as C
    if args.relation not in ("add_remove", "substitution"):
        raise DomainError("--relation", args.relation, "add_remove or substitution", "dpbounds calibrate")
    if args.sampling not in ("poisson", "fixed_size"):
        raise DomainError("--sampling", args.sampling, "poisson or fixed_size", "dpbounds calibrate")
    opts = {"relation": args.relation, "sampling": args.sampling}
    modes = [m for m, given in (("k", args.k is not None), ("sigma", args.sigma is not None),
                                ("phases", args.phases is not None)) if given]
    if len(modes) != 1:
        raise DomainError("--k/--sigma/--phases", ",".join(modes) or "none",
                          "exactly one of --k (calibrate sigma), --sigma (calibrate k), --phases (a schedule)",
                          "dpbounds calibrate")
    mode = modes[0]
    if mode != "phases" and args.q is None:
        raise DomainError("--q", None, "a sampling rate 0 < q <= 1 (required with --k or --sigma)",
                          "dpbounds calibrate")
    if mode == "phases" and args.q is not None:
        raise DomainError("--q", args.q, "not given with --phases (each phase has its own q)", "dpbounds calibrate")
    if mode == "k":
        enc = C.calibrate_sgm(args.eps, args.delta, args.q, args.k, rel_tol=_tol(args.rel_tol), **opts)
        what, meaning = "sigma", "smallest noise multiplier"
    elif mode == "sigma":
        enc = C.calibrate_sgm_steps(args.eps, args.delta, args.q, args.sigma, **opts)
        what, meaning = "k", "largest number of steps"
    else:
        enc = C.calibrate_sgm_schedule(args.eps, args.delta, args.phases, rel_tol=_tol(args.rel_tol), **opts)
        what, meaning = "multiplier", "smallest multiplier of every phase's sigma"
    lo, hi = enc.lo, enc.hi
    rec = {"calibrate": what, "eps": args.eps, "delta": args.delta, "q": args.q, "k": args.k, "sigma": args.sigma,
           "phases": args.phases, "relation": args.relation, "sampling": args.sampling,
           "lo": str(int(lo)) if what == "k" else repr(float(lo)),
           "hi": str(int(hi)) if what == "k" else repr(float(hi)),
           "lo_exact": f"{lo.numerator}/{lo.denominator}", "hi_exact": f"{hi.numerator}/{hi.denominator}",
           "guarantee": ("lo certified sufficient, hi + 1 certified insufficient" if what == "k" else
                         "hi certified sufficient (certified upper delta(eps) <= delta), lo certified insufficient "
                         "(certified lower delta(eps) > delta; 0 = not bounded below the evaluator's box)")}
    if args.format == "json":
        emit_json(rec)
        return 0
    if what == "k":
        sys.stdout.write(f"{meaning}: k in [{int(lo)}, {int(hi)}]  ({rec['guarantee']})\n")
    else:
        sys.stdout.write(f"{meaning}: {what} in [{float(lo):.6g}, {float(hi):.6g}]  (use {what} = "
                         f"{float(hi):.17g}: certified sufficient; {float(lo):.6g}: certified insufficient)\n")
    return 0


def _tol(text: str) -> float:
    from dpbounds.evaluation import sgm_calibrate as C
    from dpbounds.spec import parse_exact
    t = parse_exact("--rel-tol", text, "dpbounds calibrate")
    if not Fraction(C.MIN_REL_TOL) <= t <= Fraction(1, 2):
        raise DomainError("--rel-tol", text, f"{C.MIN_REL_TOL:g} <= rel_tol <= 0.5", "dpbounds calibrate")
    return float(t)
