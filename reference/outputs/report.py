"""`dpbounds report`: everything the project knows, gathered in DIR/index.html and DIR/README.md.

Sections: proof checks, the registry evaluated at its sample points, filters side by side, B* against eps_g,
a small set of golden vectors, the audit of whatever peers are installed, and the figures.  Each section is
built independently; a section whose optional dependency is missing says so ("skipped"), a section that
crashes is reported as FAILED and makes the command exit 1.
"""

from __future__ import annotations

import html
import time
import traceback
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from dpbounds.util.io import atomic_write_text, ensure_output_dir
from dpbounds.util.progress import Progress


@dataclass
class Section:
    title: str
    blocks: list = field(default_factory=list)   # ("p", text) | ("table", headers, rows) | ("img", file, caption)
    failed: bool = False
    seconds: float = 0.0

    def p(self, text: str) -> None:
        self.blocks.append(("p", text))

    def table(self, headers: list[str], rows: list[list]) -> None:
        self.blocks.append(("table", headers, [[str(c) for c in r] for r in rows]))

    def img(self, file: str, caption: str) -> None:
        self.blocks.append(("img", file, caption))


# ------------------------------------------------------------------------------------------------ sections


def section_proofs(sec: Section, out: Path, quick: bool) -> None:
    from dpbounds.proofs_check.core import run_all
    from dpbounds.proofs_check.render import FINDINGS_HEADERS, findings_rows
    results = run_all()
    crashed = [r.id for r in results if r.crashed]
    sec.table(["claim", "spec id", "verdict", "evidence (abridged)"],
              [[r.id, r.spec_id, r.verdict, " ".join(r.evidence.split())[:180]] for r in results])
    rows = findings_rows(results)
    if rows:
        sec.p("Findings (errata and refutations), each next to the exact text of the paper it is about "
              "(quotation, citation with arXiv id and version, and location):")
        sec.table(FINDINGS_HEADERS, rows)
    if crashed:
        raise RuntimeError(f"proof checks crashed: {crashed}")


def section_registry(sec: Section, out: Path, quick: bool) -> None:
    from dpbounds import spec
    from dpbounds.spec.core import Kind

    from dpbounds.evaluation.evaluate import CertificationError, evaluate
    rows = []
    for e in spec.registry().values():
        if e.kind is Kind.AGGREGATE or e.expr.is_Boolean:
            continue
        pt = e.sample_point()
        params = {k: v for k, v in pt.items() if k in e.params}
        if e.optimize is not None:
            params.pop(e.optimize.var, None)
        aggs = {k: v for k, v in pt.items() if k in e.aggregates}
        label = e.id + (" [caveat: refuted constant]" if e.caveat else "")  # the mark of spec.SpecEntry.caveat
        try:
            with warnings.catch_warnings():  # the caveat is shown in the table instead
                warnings.simplefilter("ignore", spec.RefutedConstantWarning)
                r = evaluate(e.id, params, aggregates=aggs, digits=20)
            shown = ", ".join(f"{k}={v}" for k, v in {**params, **aggs}.items())
            rows.append([label, e.kind.value, shown, r.value, f"[{r.enclosure[0]}, {r.enclosure[1]}]"])
        except (spec.DomainError, CertificationError, NotImplementedError, ImportError) as exc:
            rows.append([label, e.kind.value, "", "not evaluated", f"{type(exc).__name__}: {exc}"[:160]])
    sec.p("Every entry at its sample point (the spec's DEFAULT_SAMPLE overridden by the entry's example), "
          "20 digits, with the certified enclosure.  '[caveat: refuted constant]' marks an entry whose validity rests "
          "on a constant proofs_check refutes (its caveat says which, and the corrected variant).")
    sec.table(["id", "kind", "point", "value", "enclosure"], rows)


def section_filters(sec: Section, out: Path, quick: bool) -> None:
    from dpbounds.outputs.compare import compare_filters_table
    headers, rows, note = compare_filters_table(quick=quick)
    sec.p(note)
    sec.table(headers, rows)
    from dpbounds.outputs.compare import compare_gaussian_table
    headers, rows, note = compare_gaussian_table(quick=quick)
    sec.p(note)
    sec.table(headers, rows)


def section_bstar(sec: Section, out: Path, quick: bool) -> None:
    from dpbounds.accounting.conversions import b_star
    from dpbounds.evaluation.evaluate import decimal_str
    rows = []
    for eps_g in ("0.1", "0.5", "1", "2", "5"):
        row = [eps_g]
        for conv in ("bs16", "cks20", "gauss"):
            b = b_star(eps_g, "1e-6", conv)
            row.append(decimal_str(b.b_star, 12, "floor"))
        rows.append(row)
    sec.p("B* = sup{rho : rho-zCDP => (eps_g, 1e-6)-DP}, certified lower ends (never overstated). "
          "'gauss' is the Gaussian mechanism's exact curve: the limit no general conversion can beat, not a valid "
          "conversion.")
    sec.table(["eps_g", "bs16", "cks20", "gauss (limit)"], rows)


def section_golden(sec: Section, out: Path, quick: bool) -> None:
    from dpbounds.outputs.golden import write_golden  # provided by dpbounds.outputs.golden
    summary = write_golden(out / "golden", bounds=None, grid="sample")
    sec.p(f"A sample of golden vectors written to `golden/` ({summary}). Generate the full set with "
          "`dpbounds golden --out DIR`.")


def section_audit(sec: Section, out: Path, quick: bool) -> None:
    from dpbounds.audit.run import run_audit
    headers, rows, notes = run_audit(peers=None, quick=True)
    for n in notes:
        sec.p(n)
    if rows:
        sec.table(headers, rows)


def section_figures(sec: Section, out: Path, quick: bool) -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        sec.p("skipped: matplotlib is not installed (pip install 'dpbounds[plot]').")
        return
    from dpbounds.outputs.figures import make_figures
    failed = []
    for file, caption in make_figures(out):
        if file:
            sec.img(file, caption)
        else:
            sec.p(caption)
            failed.append(caption.split(":")[0])
    if failed:
        raise RuntimeError(f"figures failed: {failed}")


SECTIONS: list[tuple[str, Callable]] = [
    ("Proof checks", section_proofs),
    ("The registry at its sample points", section_registry),
    ("B* against eps_g", section_bstar),
    ("Filters side by side", section_filters),
    ("Golden vectors (sample)", section_golden),
    ("Audit of installed peers", section_audit),
    ("Figures", section_figures),
]


# ------------------------------------------------------------------------------------------------ rendering


def _md(sections: list[Section], header: str) -> str:
    out = [header, ""]
    for s in sections:
        out += [f"## {s.title}", ""]
        for b in s.blocks:
            if b[0] == "p":
                out += [b[1], ""]
            elif b[0] == "table":
                _, headers, rows = b
                out.append("| " + " | ".join(headers) + " |")
                out.append("|" + "---|" * len(headers))
                for r in rows:
                    out.append("| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in r) + " |")
                out.append("")
            elif b[0] == "img":
                out += [f"![{b[2]}]({b[1]})", "", f"*{b[2]}*", ""]
    return "\n".join(out) + "\n"


def _html(sections: list[Section], header: str) -> str:
    e = html.escape
    out = ["<!doctype html><html><head><meta charset='utf-8'><title>dpbounds report</title>",
           "<style>body{font-family:sans-serif;max-width:1200px;margin:auto;padding:1em}"
           "table{border-collapse:collapse;font-size:0.85em}td,th{border:1px solid #ccc;padding:2px 6px;"
           "vertical-align:top}th{background:#eee}.failed{color:#b00}img{max-width:100%}</style></head><body>",
           f"<h1>{e(header.lstrip('# '))}</h1>"]
    for s in sections:
        out.append(f"<h2 class='{'failed' if s.failed else ''}'>{e(s.title)}</h2>")
        for b in s.blocks:
            if b[0] == "p":
                out.append(f"<p>{e(b[1])}</p>")
            elif b[0] == "table":
                _, headers, rows = b
                out.append("<table><tr>" + "".join(f"<th>{e(h)}</th>" for h in headers) + "</tr>")
                for r in rows:
                    out.append("<tr>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>")
                out.append("</table>")
            elif b[0] == "img":
                out.append(f"<figure><img src='{e(b[1])}' alt='{e(b[2])}'><figcaption>{e(b[2])}</figcaption>"
                           "</figure>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def build_report(out_dir: str | Path, *, quick: bool = False, only: list[str] | None = None) -> list[Section]:
    """Build every section and write DIR/README.md and DIR/index.html (atomically). Returns the sections."""
    from dpbounds.spec import DomainError
    known = [t for t, _ in SECTIONS] + [f.__name__ for _, f in SECTIONS]
    for name in only or ():
        if name not in known:
            raise DomainError("section", name, f"a section title or function name: {', '.join(known)}",
                              "dpbounds report", "unknown section")
    out = ensure_output_dir(out_dir, "out")
    chosen = [(t, f) for t, f in SECTIONS if not only or t in only or f.__name__ in only]
    sections: list[Section] = []
    with Progress(len(chosen), "dpbounds report") as bar:
        for title, fn in chosen:
            sec = Section(title)
            t0 = time.monotonic()
            try:
                fn(sec, out, quick)
            except ImportError as exc:
                sec.p(f"skipped: this build lacks a component ({exc}).")
            except Exception:
                sec.failed = True
                sec.p("FAILED:\n" + traceback.format_exc(limit=6))
            sec.seconds = time.monotonic() - t0
            sections.append(sec)
            bar.update(1, title)
    from dpbounds import spec
    from dpbounds.spec.render import registry_hash
    header = (f"# dpbounds report\n\nSpec version {registry_hash()[:16]} ({len(spec.registry())} entries). "
              + "Section timings: " + ", ".join(f"{s.title} {s.seconds:.1f}s" for s in sections) + ".")
    atomic_write_text(out / "README.md", _md(sections, header))
    atomic_write_text(out / "index.html", _html(sections, header))
    return sections
