"""`dpbounds spec`: list, show and render the registry."""

from __future__ import annotations

import sys
from pathlib import Path

from dpbounds.spec import get
from dpbounds.spec.render import entry_record, render_list, render_markdown

from dpbounds.util.io import atomic_write_text
from dpbounds.cli.commands import emit_json

SPEC_MD = "SPEC.md"  # in the current directory: never inside the installed package


def add_parser(sub) -> None:
    p = sub.add_parser("spec", help="list, show or render the formal specification")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--list", action="store_true", help="id, kind and source of every entry")
    g.add_argument("--show", metavar="ID", help="one entry")
    p.add_argument("--format", choices=("text", "json", "md"), default="text")
    p.add_argument("--out", help="with --format md: where to write (default ./SPEC.md; the repository copy is spec/SPEC.md)")
    p.set_defaults(func=run)


def run(args) -> int:
    if args.show:
        e = get(args.show)
        rec = entry_record(e)
        if args.format == "json":
            emit_json(rec)
        else:
            sys.stdout.write(f"{e.id}: {e.title}\n  kind: {e.kind.value}\n  source: {e.source}\n"
                             f"  params: {', '.join(e.params)}\n  aggregates: {', '.join(e.aggregates)}\n"
                             f"  domain: {'; '.join(d['text'] for d in rec['domain'])}\n"
                             f"  expr: {rec['expression']['latex']}\n")
        return 0
    if args.format == "md":
        text = render_markdown()
        out = Path(args.out) if args.out else SPEC_MD
        atomic_write_text(out, text)
        sys.stdout.write(f"wrote {out}\n")
        return 0
    if args.format == "json":
        from dpbounds.spec import registry
        emit_json([entry_record(e) for e in registry().values()])
        return 0
    sys.stdout.write(render_list())
    return 0
