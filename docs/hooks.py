"""MkDocs hooks: the pages generated from the sources at build time (``mkdocs build --strict``).

* ``cli.md`` -- the CLI reference, read from the argparse parser of ``dpbounds`` (every subcommand, every option);
* ``sources/index.md`` and ``sources/<paper>.md`` -- one page per source paper: its registry entries with their
  formulas (MathML rendered by the browser, and the LaTeX), domains, kinds, exact locations and the verdicts of the
  proof checks (read from ``proofs_check/VERDICTS.md``, the committed output of ``dpbounds check-proofs``);
* ``changelog.md`` -- ``CHANGELOG.md`` of the repository root.

``on_config`` also lays the sources out as installed (``build/docs-src/dpbounds`` -> ``reference/``, with ``spec/``
and ``proofs_check/`` inside it, as symbolic links) so that mkdocstrings reads the API reference from the working
tree whatever is installed.
"""

from __future__ import annotations

import argparse
import importlib
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "build" / "docs-src"

#: a source paper -> the spec module whose docstring names it (the others cite the literature in each entry)
_PAPER_MODULES = {"RRUV16": "rruv16", "WRRW23": "wrrw23", "FZ21": "fz21", "Nikolov17": "nikolov17", "HRMS21": "howard"}
_VERDICT_ROW = re.compile(r"^\| `([^`]+)` \| `([^`]*)` \| \*\*([a-z-]+)\*\* \|")


# ------------------------------------------------------------------------------------------------ source layout

def _layout_sources() -> None:
    pkg = SRC / "dpbounds"
    if pkg.is_symlink() or pkg.is_file():
        pkg.unlink()
    pkg.mkdir(parents=True, exist_ok=True)
    wanted = {f.name: f for f in (ROOT / "reference").iterdir() if f.name != "__pycache__"}
    wanted["spec"] = ROOT / "spec"
    wanted["proofs_check"] = ROOT / "proofs_check"
    for link in pkg.iterdir():
        if link.name not in wanted or not link.is_symlink() or link.resolve() != wanted[link.name].resolve():
            link.unlink()
    for name, target in wanted.items():
        if not (pkg / name).is_symlink():
            (pkg / name).symlink_to(target)


# ------------------------------------------------------------------------------------------------ CLI reference

def _md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _subcommand_help(parser: argparse.ArgumentParser) -> dict[str, str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return {a.dest: a.help or "" for a in action._choices_actions}
    return {}


def _options_table(parser: argparse.ArgumentParser) -> list[str]:
    rows = ["| option | meaning | default |", "|---|---|---|"]
    for a in parser._actions:
        if isinstance(a, argparse._HelpAction) or a.help == argparse.SUPPRESS:
            continue
        names = ", ".join(f"`{o}`" for o in a.option_strings) or f"`{a.metavar or a.dest}`"
        if a.option_strings and a.nargs != 0:
            names += f" `{a.metavar or a.dest.upper()}`"
        meaning = " ".join((a.help or "").split())
        if "%(" in meaning:  # argparse's own expansion (HelpFormatter._expand_help)
            meaning = meaning % dict(vars(a), prog=parser.prog)
        if a.choices is not None and not isinstance(a.choices, dict):
            meaning += (" " if meaning else "") + "(one of " + ", ".join(f"`{c}`" for c in a.choices) + ")"
        if a.required:
            meaning += " **(required)**"
        default = "" if a.default in (None, False, argparse.SUPPRESS) or a.nargs == 0 else f"`{a.default}`"
        rows.append(f"| {names} | {_md_escape(meaning)} | {default} |")
    return rows


def cli_markdown() -> str:
    """The CLI reference page: the top-level usage, then per subcommand its usage, options and epilog."""
    from dpbounds.cli import build_parser

    parser = build_parser()
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    helps = _subcommand_help(parser)
    out = ["# CLI reference", "",
           "Generated from the `dpbounds` argparse parser when the site is built; `dpbounds COMMAND --help` prints "
           "the same.  Bad input exits with status 2 and one line naming the parameter, its value, the allowed domain "
           "and the theorem.", "", "```text", parser.format_usage().strip(), "```", "",
           "| command | what it does |", "|---|---|"]
    subs = _subparsers(parser)
    for name in subs:
        out.append(f"| [`{name}`](#{name}) | {_md_escape(' '.join(helps.get(name, '').split()))} |")
    for name, sp in subs.items():
        out += ["", f"## {name}", ""]
        if helps.get(name):
            out += [" ".join(helps[name].split()) + ".", ""]
        out += ["```text", sp.format_usage().strip(), "```", ""]
        if sp.description:
            out += [_md_escape(" ".join(sp.description.split())), ""]
        out += _options_table(sp)
        if sp.epilog:
            out += ["", "```text", sp.epilog.strip("\n"), "```"]
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------------------------------------ source papers

def _greek(expr: Any) -> Any:
    """Symbols named eps*/delta*/rho*/... renamed so that sympy prints Greek letters (eps_g -> epsilon_g)."""
    import sympy as sp

    names = {"eps": "epsilon", "delta": "delta", "rho": "rho", "gamma": "gamma", "alpha": "alpha", "eta": "eta",
             "beta": "beta", "dhat": "deltahat"}
    reps = {}
    for s in expr.free_symbols:
        head, sep, tail = s.name.partition("_")
        if head in names and head != names[head]:
            reps[s] = sp.Symbol(names[head] + sep + tail, **s.assumptions0)
    return expr.xreplace(reps) if reps else expr


def _math(expr: Any) -> list[str]:
    """An expression as a MathML block (rendered by the browser, no script) followed by its LaTeX source."""
    import sympy as sp
    from sympy.printing.mathml import mathml

    ml = mathml(_greek(expr), printer="presentation")
    return ['<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">' + ml + "</math>", "",
            "```latex", sp.latex(_greek(expr)), "```"]


def _verdicts() -> dict[str, list[tuple[str, str]]]:
    """spec id -> [(claim id, verdict)], from the table of the committed proofs_check/VERDICTS.md."""
    out: dict[str, list[tuple[str, str]]] = defaultdict(list)
    path = ROOT / "proofs_check" / "VERDICTS.md"
    for line in path.read_text(encoding="utf-8").splitlines():
        m = _VERDICT_ROW.match(line)
        if m:
            out[m.group(2)].append((m.group(1), m.group(3)))
    return out


def _slug(paper: str) -> str:
    return paper.lower()


def papers() -> dict[str, list[Any]]:
    """Source paper -> its registry entries, in registry order."""
    import dpbounds

    by: dict[str, list[Any]] = defaultdict(list)
    for e in dpbounds.registry().values():
        by[e.source.paper].append(e)
    return dict(by)


def _paper_title(paper: str, entries: list[Any]) -> str:
    mod = _PAPER_MODULES.get(paper)
    if mod is not None:
        doc = importlib.import_module(f"dpbounds.spec.{mod}").__doc__ or ""
        first = " ".join(doc.strip().split("\n\n")[0].split())
        return first.split(". ")[0].rstrip(".")
    cites = sorted({e.source.citation for e in entries if e.source.citation}, key=len)
    return cites[0] if cites else paper


def paper_markdown(paper: str, entries: list[Any], verdicts: dict[str, list[tuple[str, str]]]) -> str:
    """One source's page: its entries with formula, domain, kind, exact location and verdicts."""
    import sympy as sp

    out = [f"# {paper}", "", _md_escape(_paper_title(paper, entries)) + ".", "",
           f"{len(entries)} entries.  Each formula is the registry's sympy expression (the single source of truth), "
           "shown as MathML and as LaTeX; *[R]* marks a formula reconstructed from a damaged extraction, re-derived by "
           "its proof check.", "", "| id | kind | where |", "|---|---|---|"]
    for e in entries:
        out.append(f"| [`{e.id}`](#{e.id.replace('.', '')}) | {e.kind.value} | {_md_escape(e.source.where)} |")
    for e in entries:
        out += ["", f"## {e.id} {{#{e.id.replace('.', '')}}}", "",
                f"**{_md_escape(e.title)}** — *{e.kind.value}*{' — *[R]* reconstructed' if e.reconstructed else ''}",
                "", f"- Source: {_md_escape(str(e.source))}"]
        if e.params:
            out.append("- Parameters: " + ", ".join(f"`{p}`" for p in e.params))
        if e.aggregates:
            out.append("- Aggregates (per-round sums): " + ", ".join(f"`{a}`" for a in e.aggregates))
        if e.domain:
            out.append("- Domain: " + ", ".join(f"`{sp.sstr(r)}`" for r in e.domain))
        if e.per_round_domain:
            out.append("- Per-round domain: " + ", ".join(f"`{sp.sstr(r)}`" for r in e.per_round_domain))
        if e.optimize is not None:
            out.append(f"- Value: the {e.optimize.mode} over `{e.optimize.var}` in "
                       f"`({sp.sstr(e.optimize.lo)}, {sp.sstr(e.optimize.hi)})` of the expression below")
        rows = verdicts.get(e.id, [])
        if rows:
            out.append("- Proof checks: " + ", ".join(f"`{c}` **{v}**" for c, v in rows))
        elif e.proof_claims:
            out.append("- Proof checks: " + ", ".join(f"`{c}`" for c in e.proof_claims))
        if e.same_as:
            out.append("- Same result elsewhere: " + ", ".join(f"`{c}`" for c in e.same_as))
        out += [""]
        if e.lhs is not None:
            out += [f"Claim: the left-hand side `{e.relation}` the right-hand side.", "", "Left-hand side:", ""]
            out += _math(e.lhs) + ["", "Right-hand side:", ""]
        out += _math(e.expr)
        if e.halt is not None:
            out += ["", "HALT iff (the aggregates include the candidate round):", ""] + _math(e.halt)
        if e.notes:
            out += ["", _md_escape(" ".join(e.notes.split()))]
    return "\n".join(out) + "\n"


def sources_index(by_paper: dict[str, list[Any]]) -> str:
    out = ["# Sources", "", "Every bound names its source paper, theorem and equation.  One page per source:", "",
           "| source | entries | kinds |", "|---|---|---|"]
    for paper, entries in by_paper.items():
        kinds = ", ".join(sorted({e.kind.value for e in entries}))
        out.append(f"| [{paper}]({_slug(paper)}.md) | {len(entries)} | {kinds} |")
    out += ["", "Verdicts: **proved** (symbolic), **verified** (certified numerics over the whole stated domain), "
            "**refuted** (counterexample), **erratum** (statement and proof disagree), **inconclusive**."]
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------------------------------------ MkDocs events

# Laid out when MkDocs loads this hook, before any plugin reads its configuration (mkdocstrings reads `paths`
# before the hooks' on_config runs).
_layout_sources()


def on_config(config: Any) -> Any:
    by_paper = papers()
    nav = config["nav"]
    for i, item in enumerate(nav):
        if isinstance(item, dict) and "Sources" in item:
            nav[i] = {"Sources": ["sources/index.md"] + [{p: f"sources/{_slug(p)}.md"} for p in by_paper]}
    return config


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    by_paper = papers()
    verdicts = _verdicts()
    pages = {"cli.md": cli_markdown(), "sources/index.md": sources_index(by_paper),
             "changelog.md": (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")}
    for paper, entries in by_paper.items():
        pages[f"sources/{_slug(paper)}.md"] = paper_markdown(paper, entries, verdicts)
    for uri, content in pages.items():
        files.append(File.generated(config, uri, content=content))
    return files


__all__ = ["cli_markdown", "paper_markdown", "papers", "sources_index", "on_config", "on_files"]
