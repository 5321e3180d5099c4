"""`dpbounds spec`: list, show and render the registry."""

from __future__ import annotations

import argparse
import sys

from dpbounds.spec import DomainError, get
from dpbounds.spec.render import entry_record, render_list, render_markdown

from dpbounds.util.io import atomic_write_text, check_output_path
from dpbounds.cli.commands import emit_json

SPEC_MD = "SPEC.md"  # in the current directory: never inside the installed package


EPILOG = """\
examples:
  dpbounds spec --list                          # id, kind and source of every entry
  dpbounds spec --show rruv16.thm5_1            # one entry: parameters, domain, formula, source
  dpbounds spec --show fz21.thm4_7 --format json
  dpbounds spec --format md --out SPEC.md       # the whole specification as Markdown
"""


def add_parser(sub) -> None:
    p = sub.add_parser("spec", help="list, show or render the formal specification", description=__doc__,
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--list", action="store_true", help="id, kind and source of every entry (the default)")
    g.add_argument("--show", metavar="ID", help="one entry by id, e.g. rruv16.thm5_1 (a near miss gets a "
                   "'did you mean' suggestion)")
    p.add_argument("--format", choices=("text", "json", "md"), default="text",
                   help="text (default), json (every entry, or the one of --show) or md (Markdown, written to --out)")
    p.add_argument("--out", metavar="FILE", help="with --format md: where to write, atomically (default ./SPEC.md; "
                   "the repository copy is spec/SPEC.md)")
    p.set_defaults(func=run)


def run(args) -> int:
    if args.out is not None and args.format != "md":
        raise DomainError("--out", args.out, "only with --format md", "command line")
    if args.show is not None:
        e = get(args.show.strip())
        rec = entry_record(e)
        if args.format == "json":
            emit_json(rec)
        elif args.format == "md":
            raise DomainError("--format", "md", "text or json with --show", "command line")
        else:
            sys.stdout.write(f"{e.id}: {e.title}\n  kind: {e.kind.value}\n  source: {e.source}\n"
                             f"  params: {', '.join(e.params)}\n  aggregates: {', '.join(e.aggregates)}\n"
                             f"  domain: {'; '.join(d['text'] for d in rec['domain'])}\n"
                             f"  expr: {rec['expression']['latex']}\n")
        return 0
    if args.format == "md":
        out = check_output_path(args.out if args.out is not None else SPEC_MD, "--out")
        atomic_write_text(out, render_markdown(), "--out")
        sys.stdout.write(f"wrote {out}\n")
        return 0
    if args.format == "json":
        from dpbounds.spec import registry
        emit_json([entry_record(e) for e in registry().values()])
        return 0
    sys.stdout.write(render_list())
    return 0
