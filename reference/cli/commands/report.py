"""`dpbounds report [--out DIR]`: the main job -- proof checks, the registry, filters, B*, golden vectors,
the audit of installed peers and the figures, in DIR/index.html (self-contained, offline), DIR/README.md and
DIR/figures/*.svg.  Progress goes to stderr (a line every few seconds off a terminal; DPBOUNDS_PROGRESS=0
silences it)."""

from __future__ import annotations

import argparse
import sys

EPILOG = """\
exit status: 0 when every section was built, 1 when a section failed (it is marked FAILED in the report), 2 for
bad input.

examples:
  dpbounds report                                  # ./report/index.html and ./report/README.md
  dpbounds report --out rep --quick
  dpbounds report --section "Proof checks" --section section_bstar
"""


def add_parser(sub) -> None:
    p = sub.add_parser("report", help="build the full report (HTML + Markdown + SVG figures)", description=__doc__,
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default="report", metavar="DIR",
                   help="output directory, created if absent (default ./report)")
    p.add_argument("--quick", action="store_true", help="smaller grids, seconds instead of minutes (for tests)")
    p.add_argument("--section", action="append", metavar="NAME",
                   help="build only this section, by title or function name (repeatable); an unknown name is an "
                   "error listing the known ones")
    p.set_defaults(func=run)


def run(args) -> int:
    from dpbounds.outputs.report import build_report
    from dpbounds.util.io import ensure_output_dir
    ensure_output_dir(args.out, "--out", create=False)  # created by build_report once its arguments are checked
    sections = build_report(args.out, quick=args.quick, only=args.section)
    for s in sections:
        status = "FAILED" if s.failed else "ok"
        sys.stdout.write(f"{s.title:<40} {status:<7} {s.seconds:6.1f}s\n")
    sys.stdout.write(f"wrote {args.out}/index.html and {args.out}/README.md\n")
    return 1 if any(s.failed for s in sections) else 0
