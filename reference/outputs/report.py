"""`dpbounds report`: everything the project knows, gathered in DIR/index.html and DIR/README.md.

Sections: proof checks, the registry evaluated at its sample points, B* against eps_g, filters side by side, a
small set of golden vectors, the audit of whatever peers are installed, and the figures.  Each section is built
independently; a section whose optional dependency is missing says so ("skipped"), a section that crashes is
reported as FAILED and makes the command exit 1.

The page is self-contained and works offline: no script, no CDN; formulas are MathML written here by sympy's
presentation printer (browsers render MathML natively), figures are SVG files in DIR/figures/.  Nothing is cut:
a long cell shows its first sentence and opens (<details>) to the full text.
"""

from __future__ import annotations

import datetime
import functools
import html
import re
import subprocess
import time
import traceback
import warnings
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from dpbounds.util.io import atomic_write_text, ensure_output_dir
from dpbounds.util.progress import Progress
import dpbounds
from dpbounds import spec
from dpbounds.accounting.conversions import b_star
from dpbounds.audit.common import version_of
from dpbounds.audit.run import (ADAPTERS, _detail as audit_detail, audit_peers, finding_line,
                                findings_with_witness, summary_counts)
from dpbounds.evaluation.evaluate import CertificationError, decimal_str, enclose, evaluate
from dpbounds.outputs import figures
from dpbounds.outputs.compare import (compare_filters_table, compare_gaussian_table, compare_heterogeneous_table,
                                      compare_individual_gdp_table)
from dpbounds.outputs.figures import make_figures
from dpbounds.outputs.golden import write_golden
from dpbounds.proofs_check.core import all_claims, run_claim
from dpbounds.proofs_check.render import FINDINGS_HEADERS, findings_rows
from dpbounds.spec import DomainError, registry
from dpbounds.spec.core import Kind
from dpbounds.spec.render import registry_hash

#: seconds of silence after which the progress display says it is still working
HEARTBEAT = 3.0
#: a cell longer than this (or with a line break) shows its first sentence and opens to the full text
LONG_CELL = 140
#: a table with more rows than this is folded (details on demand): the page stays a summary first
OPEN_ROWS = 8


@dataclass(frozen=True)
class Cell:
    """A table cell: ``text`` for Markdown (and as the plain fallback), ``html`` when the page shows more
    (MathML, links); ``cls`` a CSS class (verdict colours)."""

    text: str
    html: str | None = None
    cls: str = ""


@dataclass
class Section:
    title: str
    key: str = ""                  # the section function's name: the HTML anchor
    blocks: list = field(default_factory=list)   # ("p"|"items"|"table"|"img", ...)
    facts: dict = field(default_factory=dict)    # what the summary box shows (verdict counts, versions)
    failed: bool = False
    seconds: float = 0.0
    tick: Callable[[str], None] = lambda note: None  # progress within a long section: what starts now

    def p(self, text: str) -> None:
        """A paragraph; inline `code`, **bold** and [label](#anchor) are rendered (never shown raw)."""
        self.blocks.append(("p", text))

    def items(self, texts: list) -> None:
        """A bulleted list: each a str (inline marks as in :meth:`p`) or a :class:`Cell`."""
        self.blocks.append(("items", list(texts)))

    def table(self, headers: list[str], rows: list[list], ids: list[str] | None = None,
              classes: list[str] | None = None, collapse: bool | None = None) -> None:
        """A table; on the page one of more than :data:`OPEN_ROWS` rows (or ``collapse``) is folded behind a
        <details> line saying what it holds (it opens by itself when a link points into it)."""
        rows = [[c if isinstance(c, Cell) else Cell(str(c)) for c in r] for r in rows]
        cites = [i for i, h in enumerate(headers) if re.search(r"source|citation|where", h)]
        rows = [[Cell(_reader_citation(c.text), None if c.html is None else _reader_citation(c.html), c.cls)
                 if i in cites else c for i, c in enumerate(r)] for r in rows]
        fold = len(rows) > OPEN_ROWS if collapse is None else collapse
        self.blocks.append(("table", list(headers), rows, ids, classes, fold))

    def img(self, file: str, caption: str, fold: bool = False) -> None:
        """A figure; ``fold``: behind a <details> line with the caption's first sentence (details on demand)."""
        self.blocks.append(("img", file, caption, fold))


def anchor(*parts: str) -> str:
    """An HTML id from parts (ids of claims, entries, audit rows): letters, digits, '.', '-' and '_'."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", "-".join(parts)).strip("-")


def citation(source) -> str:
    """The citation of a spec entry's or claim's source as a reader uses it, one line: authors, title, venue, year,
    arXiv id (with its version where known) and the location in the paper.  The repository's own locators (the
    seed file a result was read from, "[seed 004_....txt]") and bookkeeping notes ("version not verified": the
    version is then simply not given) are left out; ``dpbounds spec --show ID`` prints them."""
    return _reader_citation(" ".join(str(source).split()))


def _reader_citation(text: str) -> str:
    """``text`` without the repository's internal locators ("[seed 004_....txt, line 12]") and notes ("version not
    verified"): what a reader of the page can use to find the paper."""
    text = re.sub(r"\s*\[seed [^\]]*\]", "", text)
    return re.sub(r",?\s*version not verified", "", text)


# ------------------------------------------------------------------------------------------------ math


_GREEK = {"eps": "ε", "eps_g": "ε_g", "delta_prime": "δ′", "delta_dprime": "δ″", "dhat": "δ̂", "v0": "v_0"}


def mathml(expr) -> str:
    """A sympy expression or relation as inline presentation MathML (escaped for HTML)."""
    import sympy as sp
    from sympy.printing.mathml import mathml as to_mathml
    subs = {s: sp.Symbol(_GREEK[s.name], **s.assumptions0) for s in expr.free_symbols
            if isinstance(s, sp.Symbol) and s.name in _GREEK}
    body = to_mathml(expr.xreplace(subs) if subs else expr, printer="presentation")
    # sympy writes relations' operators unescaped
    body = body.replace("<mo><</mo>", "<mo>&lt;</mo>").replace("<mo>></mo>", "<mo>&gt;</mo>")
    return f"<math display='inline'>{body}</math>"


def _citation_cell(source) -> Cell:
    """A source in full (a citation is never folded)."""
    text = citation(source)
    return Cell(text, html.escape(text))


def _formula_cell(e) -> Cell:
    import sympy as sp
    expr = e.expr
    if e.lhs is not None and e.relation in ("<=", ">=", "<", ">"):
        expr = sp.Rel(e.lhs, e.expr, e.relation)  # a lemma: the inequality
    try:
        return Cell(f"${sp.latex(expr)}$", f"<div class='math'>{mathml(expr)}</div>")
    except Exception:  # noqa: BLE001 - a printer gap shows the plain form, never breaks the report
        return Cell(sp.sstr(expr))


# ------------------------------------------------------------------------------------------------ sections


def section_proofs(sec: Section, out: Path, quick: bool) -> None:
    results = []
    for c in all_claims().values():
        sec.tick(c.id)
        results.append(run_claim(c))
    crashed = [r.id for r in results if r.crashed]
    entries = registry()
    sec.facts["proof_verdicts"] = dict(sorted(Counter(r.verdict for r in results).items()))
    sec.p("Every constant and derivation step of the proofs, decided by the method shown: **proved** (symbolic), "
          "**verified** (certified numerics over the whole stated domain), **refuted** (counterexample), "
          "**erratum** (statement and proof disagree). Open a row's evidence for the full record; the same text is "
          "committed in `proofs_check/VERDICTS.md`.")
    findings = [r for r in results if r.verdict in ("erratum", "refuted")]
    sec.facts["checked"] = [f"{len(results)} proof claims of the source papers, each decided (symbolic proof, "
                            "certified numerics or a counterexample)"]
    sec.facts["wrong"] = _at_most([(f"{r.id} ({r.verdict}): {_first_sentence(r.evidence, 90)}",
                                    anchor("claim", r.id)) for r in findings], "proof findings", "section_proofs")
    caveats = sorted(e.id for e in entries.values() if e.caveat)
    if caveats:
        sec.facts["todo"] = [(f"Use the '.corrected' variants of the {len(caveats)} entries whose constant is "
                              f"refuted (marked [caveat: refuted constant] in the registry): "
                              f"{', '.join(caveats[:4])}{', ...' if len(caveats) > 4 else ''}", "section_registry")]
    if findings:
        sec.p("Findings (errata and refutations); each opens to its full evidence and links to its row:")
        sec.items([Cell(f"`{r.id}` ({r.verdict}): {' '.join(r.evidence.split())}",
                        f"<a href='#{anchor('claim', r.id)}'>{_code(r.id)}</a> ({html.escape(r.verdict)}): "
                        + _details(_first_sentence(r.evidence, 160), f"<pre>{html.escape(r.evidence.strip())}</pre>"))
                   for r in findings])
    rows = []
    for r in results:
        spec_link = Cell(r.spec_id, f"<a href='#{anchor('entry', r.spec_id)}'>{_code(r.spec_id)}</a>"
                         if r.spec_id in entries else None)
        rows.append([Cell(r.id, f"<a href='#{anchor('claim', r.id)}'>{_code(r.id)}</a>"),
                     spec_link, Cell(r.verdict, cls=f"v {r.verdict}"), r.method, _citation_cell(r.source),
                     Cell(f"{r.claim} Evidence: {' '.join(r.evidence.split())}",
                          _details(r.claim, f"<p>{html.escape(r.claim)}</p><pre>{html.escape(r.evidence.strip())}"
                                            "</pre>"), cls="wide")])
    sec.table(["claim", "spec id", "verdict", "method", "source", "statement and evidence"], rows,
              ids=[anchor("claim", r.id) for r in results], classes=[r.verdict for r in results])
    if findings:
        sec.p("Each finding next to the exact text of the paper it is about (quotation, citation with arXiv id and "
              "version, and location), so it can be checked against the paper without this repository:")
        sec.table(FINDINGS_HEADERS, findings_rows(results))
    if crashed:
        raise RuntimeError(f"proof checks crashed: {crashed}")



def _opaque_evaluation(e, params):
    """An Evaluation-like record of an entry with an opaque certified evaluator: its enclosure at relative width
    1e-3, ends rounded outward to 6 digits, the value the digits both ends share."""
    from types import SimpleNamespace

    enc = enclose(e.id, params, rel_tol=1e-3)
    lo, hi = decimal_str(enc.lo, 6, "floor"), decimal_str(enc.hi, 6, "ceiling")
    return SimpleNamespace(value=f"in [{lo}, {hi}] (certified bracket)", enclosure=(lo, hi))

def section_registry(sec: Section, out: Path, quick: bool) -> None:

    rows, ids = [], []
    for e in spec.registry().values():
        if e.kind is Kind.AGGREGATE or e.expr.is_Boolean:
            continue
        pt = e.sample_point()
        params = {k: v for k, v in pt.items() if k in e.params}
        if e.optimize is not None:
            params.pop(e.optimize.var, None)
        aggs = {k: v for k, v in pt.items() if k in e.aggregates}
        shown = ", ".join(f"{k}={v}" for k, v in {**params, **aggs}.items())
        sec.tick(e.id)
        label = e.id + (" [caveat: refuted constant]" if e.caveat else "")  # the mark of spec.SpecEntry.caveat
        try:
            with warnings.catch_warnings():  # the caveat is shown in the table instead
                warnings.simplefilter("ignore", spec.RefutedConstantWarning)
                if e.evaluator:  # no closed form: its certified evaluator at relative width 1e-3, 6 digits
                    r = _opaque_evaluation(e, params)
                else:
                    r = evaluate(e.id, params, aggregates=aggs, digits=20)
            lo, hi = str(r.enclosure[0]), str(r.enclosure[1])
            value = Cell(f"{r.value} (enclosure [{lo}, {hi}])",
                         f"{html.escape(str(r.value))}<div class='encl'>enclosure [{html.escape(lo)},<br>"
                         f"{html.escape(hi)}]</div>")
        except (spec.DomainError, CertificationError, NotImplementedError, ImportError) as exc:
            value = Cell(f"not evaluated: {type(exc).__name__}: {exc}")
        rows.append([Cell(label, _code(e.id) + (" <em>[caveat: refuted constant]</em>" if e.caveat else "")),
                     e.kind.value, _citation_cell(e.source), _formula_cell(e),
                     Cell(shown, "<br>".join(html.escape(f"{k}={v}") for k, v in {**params, **aggs}.items())),
                     value])
        ids.append(anchor("entry", e.id))
    sec.facts["entries"] = len(spec.registry())
    sec.p("Every entry at its sample point (the spec's DEFAULT_SAMPLE overridden by the entry's example), "
          "20 digits, with the certified enclosure. The formula is the entry's value (for a lemma: the inequality); "
          "`dpbounds spec --show ID` prints its domain. '[caveat: refuted constant]' marks an entry whose validity "
          "rests on a constant proofs_check refutes (its caveat says which, and the corrected variant).")
    sec.table(["id", "kind", "source", "formula", "point", "value (20 digits) and certified enclosure"], rows,
              ids=ids)


def section_bstar(sec: Section, out: Path, quick: bool) -> None:
    grid = ("0.1", "0.5", "1", "2", "5")
    rows = []
    for eps_g in grid:
        row = [eps_g]
        for conv in ("bs16", "cks20", "gauss"):
            b = b_star(eps_g, "1e-6", conv)
            row.append(decimal_str(b.b_star, 12, "floor"))
        rows.append(row)
    sec.p("B* = sup{rho : rho-zCDP => (eps_g, 1e-6)-DP}, certified lower ends (never overstated). "
          "'gauss' is the Gaussian mechanism's exact curve: the limit no general conversion can beat, not a valid "
          "conversion.")
    sec.table(["eps_g", "bs16", "cks20", "gauss (limit)"], rows)
    _figure(sec, "fig_bstar", out, list(grid))


def section_dpsgd(sec: Section, out: Path, quick: bool) -> None:
    from dpbounds.evaluation.evaluate import enclose
    from dpbounds.evaluation.sgm_calibrate import calibrate_sgm
    phases = "0.01:1:40,0.02:1.2:20"
    rows = []
    for relation, sampling in (("add_remove", "poisson"), ("substitution", "poisson"), ("substitution", "fixed_size")):
        enc = enclose("composition.sgm.schedule.eps", {"phases": phases, "delta": "1e-5", "relation": relation,
                                                       "sampling": sampling}, rel_tol=1e-3)
        rows.append([relation, sampling, f"[{float(enc.lo):.6g}, {float(enc.hi):.6g}]"])
    sec.p(f"A DP-SGD schedule (`composition.sgm.schedule.eps`, phases `{phases}`: 40 steps at q = 0.01, sigma = 1, "
          "then 20 at q = 0.02, sigma = 1.2), eps at delta = 1e-5 as certified enclosures, for each neighbouring "
          "relation and sampler (substitution: one example replaced; fixed_size: batches drawn without "
          "replacement, q = b/n).")
    sec.table(["relation", "sampling", "eps (certified)"], rows)
    enc = calibrate_sgm("2", "1e-5", "0.05", 5)
    sec.p("Calibration (`dpbounds.calibrate_sgm`, `dpbounds calibrate`): the smallest noise multiplier for "
          f"(eps, delta) = (2, 1e-5) after 5 steps at q = 0.05 lies in [{float(enc.lo):.6g}, {float(enc.hi):.6g}]: "
          "the upper end is certified sufficient, the lower end certified insufficient.")


def section_filters(sec: Section, out: Path, quick: bool) -> None:
    headers, rows, note = compare_filters_table(quick=quick, tick=sec.tick)
    sec.p(note)
    sec.table(headers, rows)
    _figure(sec, "fig_filters_rounds", out, headers, rows)
    headers, rows, note = compare_gaussian_table(quick=quick)
    sec.p(note)
    sec.table(headers, rows)
    headers, rows, g_headers, g_rows, note, _ = compare_heterogeneous_table(quick=quick)
    sec.p(note)
    sec.table(headers, rows)
    sec.table(g_headers, g_rows)
    headers, rows, note = compare_individual_gdp_table(quick=quick)
    sec.p(note)
    sec.table(headers, rows)


def section_golden(sec: Section, out: Path, quick: bool) -> None:
    import json

    summary = write_golden(out / "golden", bounds=None, grid="sample")
    sec.facts["checked"] = [f"golden vectors written and self-checked: {summary.split(',')[0]}"]
    sec.facts["todo"] = [("Library authors: test against the golden vectors -- `dpbounds golden --out vectors/`, then "
                          "`dpbounds golden --check vectors/`; docs/tutorials/golden.md shows a consumer.",
                          "section_golden")]
    sec.p(f"A sample of golden vectors written to `golden/` ({summary}). Generate the full set with "
          "`dpbounds golden --out DIR` and verify any copy with `dpbounds golden --check DIR`.")
    sample = out / "golden" / "bounds" / "rruv16.thm5_1.jsonl"
    if sample.is_file():
        rec = json.loads(sample.read_text(encoding="utf-8").splitlines()[0])
        sec.p("One record (`golden/bounds/rruv16.thm5_1.jsonl`, line 1), as a test suite reads it: exact inputs "
              "as decimal strings, the value with only certified digits, the certified enclosure [lo, hi] and the "
              "float64 bracket [lower, upper] an implementation's float result must respect.")
        keys = ["id", "params", "value", "digits", "lo", "hi", "lower", "upper", "halt", "source"]
        def shown(k: str) -> Cell:
            text = citation(rec[k]) if k == "source" else (json.dumps(rec[k]) if not isinstance(rec[k], str)
                                                           else rec[k])
            return Cell(text, html.escape(text), cls="brk")
        sec.table(["field", "value"], [[k, shown(k)] for k in keys if k in rec], collapse=False)


def audit_results() -> list:
    """The quick audit of every known peer (a peer that is not installed is ``skipped``), its adapters run at once:
    each is a subprocess, so this thread only waits for them."""
    import os
    return audit_peers(quick=True, jobs=max(2, os.cpu_count() or 1))


def section_audit(sec: Section, out: Path, quick: bool, results: Callable[[], list] = audit_results) -> None:
    """``results``: the audit's results (build_report starts the audit first and passes its future's result)."""
    sec.tick("the installed peers")
    results = results()
    sec.facts["audit_counts"] = summary_counts(results)
    sec.facts["peers"] = {r.peer: (r.version or version_of(r.peer)) if r.status != "skipped" else "not installed"
                          for r in results}
    ran = [r for r in results if r.status != "skipped"]
    sec.p("Each installed peer library is run on chosen inputs and its value judged against (a) the formula it "
          "implements and (b) the true guarantee, both as certified enclosures. A value below a certified lower end "
          "is **unsound** however small the gap; **conservative** is sound and looser. "
          f"Peers: {', '.join(f'{p} {v}' for p, v in sec.facts['peers'].items())}. "
          "Run `dpbounds audit --format html` for the stand-alone audit with reproducers.")
    if not ran:
        sec.p("No peer is installed, so nothing was compared: install them with `pip install 'dpbounds[report]'` "
              f"(peers known here: {', '.join(sorted(ADAPTERS))}).")
    skipped = [r for r in results if r.status == "skipped"]
    for r in results:
        if r.status != "skipped":
            for n in r.notes:
                sec.p(n)
    if skipped:
        sec.p("Not installed, so not compared: " + "; ".join(" ".join(n for n in r.notes) or r.peer
                                                            for r in skipped) + ".")
    comps = [(r, c) for r in results for c in r.comparisons]
    ids = [anchor("audit", str(i + 1)) for i in range(len(comps))]
    row_of = {id(c): i for i, (_, c) in enumerate(comps)}
    found = findings_with_witness(results)
    sec.facts["checked"] = [f"{len(comps)} values of {len(ran)} installed peer libraries "
                            f"({', '.join(f'{r.peer} {r.version}'.strip() for r in ran) or 'none installed'}) against "
                            "certified enclosures"]
    sec.facts["wrong"] = _at_most([(f"{f['peer']} {'.'.join(f['function'].split('.')[-2:])}: {f['verdict']} in "
                                    f"{f['failing']} of {f['of']} values"
                                    + (" -- the privacy claim is false" if f["claim_false"] else
                                       " -- departs from the formula it cites" if f["formula_only"] else ""),
                                    ids[row_of[id(w)]]) for f, w in found], "audit findings", "section_audit")
    if found:
        sec.facts["todo"] = [("Peer maintainers: each finding links to its row, with a reproducer; a float bound "
                              "below the certified value by a few ulps (unsound-rounding) is fixed by rounding it "
                              "up (docs/tutorials/audit.md, 'Rounding a float bound up').",
                              ids[row_of[id(found[0][1])]])]
    if found:
        sec.p("Findings: one per failing peer function (unsound, unsound-rounding, unproven or raising), most severe "
              "first, each linked to the row of its worst witness:")
        sec.items([f"[row {row_of[id(w)] + 1}](#{ids[row_of[id(w)]]}) {finding_line(f)}" for f, w in found])
    rows = []
    for i, (r, c) in enumerate(comps):
        refs = []
        for tag, j in (("a", c.formula), ("b", c.truth)):
            if j is not None:
                refs.append(f"({tag}) {j.reference} {j.short()}: {j.verdict}")
        detail = audit_detail(c)
        detail_html = html.escape(detail) + (f"<pre>{html.escape(c.reproducer.rstrip())}</pre>" if c.reproducer
                                             else "")
        rows.append([Cell(str(i + 1), f"<a href='#{ids[i]}'>{i + 1}</a>"),
                     Cell(f"{c.peer} {r.version}".strip(), cls="nw"),
                     Cell(f"{c.function}: {c.check}", f"{_code(c.function)}<br>"
                                                       f"{html.escape(c.check)}"),
                     Cell(", ".join(f"{k}={v}" for k, v in c.inputs.items()),
                          "<br>".join(html.escape(f"{k}={v}").replace(",", ",<wbr>") for k, v in c.inputs.items()),
                          cls="brk"),
                     Cell(c.shown_value(), cls="nw" if len(c.shown_value()) <= 24 else "brk"),  # a long output wraps
                     Cell(" ".join(refs), "<br>".join(html.escape(x) for x in refs), cls="brk"),
                     Cell(c.verdict, cls=f"v {c.verdict}"),
                     Cell(detail + (f" Reproducer: {' '.join(c.reproducer.split())}" if c.reproducer else ""),
                          _details(_first_sentence(detail) or "reproducer", detail_html) if detail or c.reproducer
                          else "", cls="wide")])
    if rows:
        sec.table(["#", "peer", "function and check", "inputs", "peer value", "references", "verdict",
                   "detail and reproducer"], rows, ids=ids, classes=[c.verdict for _, c in comps])
        _figure(sec, "fig_audit", out, results)


def section_figures(sec: Section, out: Path, quick: bool) -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        sec.p("skipped: matplotlib is not installed (pip install 'dpbounds[report]').")
        return
    failed = []
    sec.p("Each figure opens from its line; the captions say what it shows.")
    for file, caption in make_figures(out):
        if file:
            sec.img(file, caption, fold=True)
        else:
            sec.p(caption)
            failed.append(caption.split(":")[0])
    if failed:
        raise RuntimeError(f"figures failed: {failed}")


def _figure(sec: Section, name: str, out: Path, *args) -> None:
    """A section's own figure (drawn from its table's rows); a note instead when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        sec.p("(figure skipped: matplotlib is not installed; pip install 'dpbounds[report]')")
        return
    made = figures.draw(getattr(figures, name), out, *args)
    if made:
        sec.img(*made, fold=name == "fig_audit")  # one row per comparison: tall, so on demand


SECTIONS: list[tuple[str, Callable]] = [
    ("Proof checks", section_proofs),
    ("The registry at its sample points", section_registry),
    ("B* against eps_g", section_bstar),
    ("Filters side by side", section_filters),
    ("DP-SGD: schedules, relations, calibration", section_dpsgd),
    ("Golden vectors (sample)", section_golden),
    ("Audit of installed peers", section_audit),
    ("Figures", section_figures),
]


# ------------------------------------------------------------------------------------------------ text helpers


def _first_sentence(text: str, limit: int = 110) -> str:
    """The first sentence of ``text``; when longer than ``limit``, its first clauses up to ``limit`` (cut only at a
    clause boundary -- ', ', '; ', ': ', ' -- ' -- outside any parenthesis), so a summary never ends mid-word or
    mid-formula; a sentence with no such boundary is kept whole."""
    one = " ".join(text.split())
    m = re.match(r"(.+?[.;])(?=\s+[A-Z]|\s*$)", one)  # a sentence ends before a capital, not at "Prop. 6"
    head = m.group(1) if m else one
    if len(head) > limit:
        cuts = [mm.start() for mm in re.finditer(r"(,|;|:| --) ", head[:limit + 1])
                if _first_unclosed(head[:mm.start()]) is None and mm.start() >= 24]
        if cuts:
            head = head[:cuts[-1]]
    return head


def _first_unclosed(text: str) -> int | None:
    """The index of the first bracket of ``text`` that is not closed within it (None when all are)."""
    stack = []
    for i, ch in enumerate(text):
        if ch in "([{":
            stack.append(i)
        elif ch in ")]}" and stack:
            stack.pop()
    return stack[0] if stack else None


def _code(name: str) -> str:
    """A dotted name as <code>, with line-break opportunities after its dots, underscores, opening parentheses and
    commas (a peer function like ``RdpAccountant(PoissonSampledDpEvent(GaussianDpEvent))``)."""
    return "<code>" + re.sub(r"([._(,])", r"\1<wbr>", html.escape(name)) + "</code>"


def _details(summary: str, body_html: str) -> str:
    return (f"<details><summary>{html.escape(summary)} <span class='more'>[full text]</span></summary>"
            f"<div class='full'>{body_html}</div></details>")


_INLINE = re.compile(r"`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\((#[A-Za-z0-9._-]+)\)")


def _inline_html(text: str) -> str:
    """Escape ``text``, rendering its inline `code`, **bold** and [label](#anchor) marks (no raw markdown)."""
    out, pos = [], 0
    for m in _INLINE.finditer(text):
        out.append(html.escape(text[pos:m.start()]))
        if m.group(1) is not None:
            out.append(f"<code>{html.escape(m.group(1))}</code>")
        elif m.group(2) is not None:
            out.append(f"<strong>{html.escape(m.group(2))}</strong>")
        else:
            out.append(f"<a href='{html.escape(m.group(4))}'>{_inline_html(m.group(3))}</a>")
        pos = m.end()
    out.append(html.escape(text[pos:]))
    return "".join(out)


def _cell_html(c: Cell) -> str:
    if c.html is not None:
        return c.html
    if len(c.text) > LONG_CELL or "\n" in c.text:
        return _details(_first_sentence(c.text), f"<pre>{html.escape(c.text)}</pre>" if "\n" in c.text
                        else html.escape(c.text))
    return html.escape(c.text)


# ------------------------------------------------------------------------------------------------ summary


def _git_head(cwd: Path) -> str:
    """``abc123def456`` (``+ local changes`` when dirty) of the git checkout at ``cwd``, or ""."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=cwd, capture_output=True, text=True,
                              timeout=10)
        if head.returncode != 0:
            return ""
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=cwd,
                               capture_output=True, text=True, timeout=10)
        return head.stdout.strip() + (" + local changes" if dirty.returncode == 0 and dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return ""


def _tracked(f: Path) -> bool:
    """Whether the file is tracked by the git checkout around it."""
    try:
        r = subprocess.run(["git", "ls-files", "--error-unmatch", f.name], cwd=f.parent, capture_output=True,
                           text=True, timeout=10)
        return r.returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def _is_dpbounds_clone(d: Path) -> bool:
    try:
        text = (d / "pyproject.toml").read_text(encoding="utf-8")[:4000]
    except (OSError, UnicodeDecodeError):
        return False
    return re.search(r'^name\s*=\s*"dpbounds"', text, re.M) is not None and (d / "reference").is_dir()


def git_commit(where: Path | None = None) -> str:
    """The git commit dpbounds was built from, or "" when there is no way to know: never fails.

    In order: the checkout the package runs from (an editable install); the commit pip recorded for a
    ``pip install git+URL`` (``direct_url.json``, PEP 610); the clone a ``pip install .`` was made from (its
    ``direct_url.json`` names the directory; its HEAD now, said so); the current directory when it is a dpbounds
    clone (said so).  ``where`` (tests): look only there."""
    if where is not None:
        return _git_head(where)
    pkg = Path(dpbounds.__file__).resolve().parent
    # the package's own files must be tracked there: a venv inside some other checkout (site-packages under a clone,
    # untracked) is not the commit dpbounds was built from
    found = _git_head(pkg) if _tracked(pkg / "__init__.py") else ""
    if found:
        return found
    try:
        import json
        from importlib.metadata import PackageNotFoundError, distribution
        from urllib.parse import unquote, urlparse
        text = distribution("dpbounds").read_text("direct_url.json")
        info = json.loads(text) if text else {}
        commit = (info.get("vcs_info") or {}).get("commit_id")
        if isinstance(commit, str) and commit:
            return f"{commit[:12]} (recorded by pip at install)"
        url = urlparse(str(info.get("url", "")))
        if url.scheme == "file":
            src = Path(unquote(url.path))
            found = _git_head(src) if _is_dpbounds_clone(src) else ""
            if found:
                return f"{found} (the clone installed from, {src}, at report time)"
    except (ImportError, PackageNotFoundError, OSError, ValueError, AttributeError):
        pass
    cwd = Path.cwd()
    if _is_dpbounds_clone(cwd):
        found = _git_head(cwd)
        if found:
            return f"{found} (the dpbounds clone in the current directory)"
    return ""


def summary_facts(sections: list[Section]) -> list[tuple[str, str, str]]:
    """(label, text, link target) of the summary box."""
    facts: dict = {}
    keys = {s.key: s for s in sections}
    for s in sections:
        facts.update(s.facts)

    def counts(d: dict) -> str:
        return ", ".join(f"{k} {v}" for k, v in d.items()) or "none"

    rows = []
    if "proof_verdicts" in facts:
        rows.append(("Proof checks", f"{counts(facts['proof_verdicts'])} ({sum(facts['proof_verdicts'].values())} "
                                     "claims)", "section_proofs"))
    if "audit_counts" in facts:
        rows.append(("Audit verdicts", counts(facts["audit_counts"]), "section_audit"))
    rows.append(("dpbounds", dpbounds.__version__, ""))
    rows.append(("Spec version", f"{registry_hash()[:16]} ({len(spec.registry())} entries)",
                 "section_registry" if "section_registry" in keys else ""))
    if "peers" in facts:
        rows.append(("Peers", ", ".join(f"{p} {v}" for p, v in facts["peers"].items()), "section_audit"))
    rows.append(("Generated", datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), ""))
    rows.append(("Git commit", git_commit() or "not available (not a git checkout, or git is not installed)", ""))
    failed = [s.title for s in sections if s.failed]
    rows.append(("Sections", ("FAILED: " + ", ".join(failed) + "; ") * bool(failed)
                 + ", ".join(f"{s.title} {s.seconds:.1f} s" for s in sections), ""))
    return rows


#: items of one kind in the first screen's "what is wrong" before the rest is only counted (with a link)
GLANCE_ITEMS = 6


def _at_most(items: list[tuple[str, str]], what: str, section: str) -> list[tuple[str, str]]:
    if len(items) <= GLANCE_ITEMS:
        return items
    return items[:GLANCE_ITEMS] + [(f"... and {len(items) - GLANCE_ITEMS} more {what}: see the section", section)]


def glance(sections: list[Section]) -> dict[str, list[tuple[str, str]]]:
    """The page's first screen: what was checked, what is wrong where, what to do -- each a list of (text, anchor
    or ""), gathered from the sections' facts (``checked``, ``wrong``, ``todo``) and their failures."""
    out: dict[str, list[tuple[str, str]]] = {"checked": [], "wrong": [], "todo": []}
    for s in sections:
        out["checked"] += [(t, s.key) for t in s.facts.get("checked", [])]
        out["wrong"] += list(s.facts.get("wrong", []))
        out["todo"] += list(s.facts.get("todo", []))
        if s.failed:
            out["wrong"].insert(0, (f"the section '{s.title}' FAILED (its traceback is in the section)", s.key))
    if not out["wrong"]:
        out["wrong"] = [("nothing: no erratum, refutation or audit finding in what ran", "")]
    out["todo"].append(("Terms (B*, zCDP, RDP, filter, odometer, CONT/HALT, ulp, enclosure) are explained in the "
                        "glossary at the end.", "glossary"))
    return out


#: the glossary at the end of the page (term, explanation)
GLOSSARY = [
    ("(eps, delta)-DP", "differential privacy: for neighbouring inputs, every event's probability grows by at most "
     "a factor e^eps, plus delta."),
    ("zCDP (rho-zCDP)", "zero-concentrated DP (Bun-Steinke 2016): every Renyi divergence of order alpha > 1 between "
     "neighbouring output laws is at most rho * alpha. Composes by adding rho."),
    ("RDP", "Renyi DP (Mironov 2017): the Renyi divergence of one order alpha is at most a given value."),
    ("GDP (mu-GDP)", "Gaussian DP (Dong-Roth-Su): as hard to tell apart as N(0,1) from N(mu,1); a mu-GDP round is "
     "(mu^2/2)-zCDP."),
    ("filter", "a stopping rule for adaptively chosen rounds: before each round it answers CONT (run it) or HALT "
     "(do not), so that the whole interaction meets a fixed budget."),
    ("odometer", "a running bound on the privacy loss spent so far, valid at every round of an adaptive "
     "interaction (no budget fixed in advance)."),
    ("CONT / HALT", "a filter's decision: CONT records the round (it may run); HALT refuses it and ends the "
     "interaction."),
    ("B*", "the largest zCDP budget rho that a given conversion still turns into (eps_g, delta_g)-DP: "
     "B* = sup{rho : conversion(rho) is (eps_g, delta_g)-DP}. Reported as a certified lower end (never "
     "overstated)."),
    ("conversion", "a theorem turning zCDP or RDP into (eps, delta)-DP: BS16 (Bun-Steinke), CKS20 (Canonne-"
     "Kamath-Steinke, tighter); 'gauss' is the Gaussian mechanism's exact curve, a limit, not a general conversion."),
    ("enclosure", "an interval [lo, hi] proved (by interval arithmetic, arb) to contain the exact value: every "
     "digit printed is backed by it."),
    ("ulp", "unit in the last place: the gap between a float64 and the next one (about 2.2e-16 relative). A float "
     "bound below the certified value by a few ulps is 'unsound-rounding'."),
    ("unsound / unsound-rounding / conservative / exact", "audit verdicts: below the certified value (by more than "
     "rounding / by rounding only), above it (sound, looser), or equal within the enclosure."),
    ("erratum / refuted / proved / verified", "proof-check verdicts: statement and proof disagree / a "
     "counterexample / a symbolic proof / certified numerics over the whole stated domain."),
    ("golden vectors", "certified values with their enclosures (JSON Lines + CSV + schemas) for other libraries' "
     "test suites."),
]


TITLE = "dpbounds report: privacy filters, odometers and conversions, checked"
LEAD = ("What this project knows about fully adaptive composition in differential privacy: the verdict on every "
        "proof step of the source papers, every bound at a sample point with its certified enclosure, B* and the "
        "filters side by side, and an audit of other libraries against the certified values.")


# ------------------------------------------------------------------------------------------------ rendering


def _md(sections: list[Section]) -> str:
    out = [f"# {TITLE}", "", LEAD, ""]
    g = glance(sections)
    for key, head in (("checked", "What was checked"), ("wrong", "What is wrong, where"), ("todo", "What to do")):
        out += [f"**{head}**", ""] + [f"- {t}" for t, _ in g[key]] + [""]
    out += [f"- **{k}:** {v}" for k, v, _ in summary_facts(sections)] + [""]
    out += ["Contents: " + " · ".join(f"[{s.title}](#{anchor(s.title.lower())})" for s in sections), ""]
    for s in sections:
        out += [f"## {s.title}", ""]
        for b in s.blocks:
            if b[0] == "p":
                out += [b[1], ""]
            elif b[0] == "items":
                out += [f"- {t.text if isinstance(t, Cell) else t}" for t in b[1]] + [""]
            elif b[0] == "table":
                _, headers, rows, _ids, _cls, _fold = b
                out.append("| " + " | ".join(headers) + " |")
                out.append("|" + "---|" * len(headers))
                for r in rows:
                    out.append("| " + " | ".join(" ".join(c.text.replace("|", "\\|").split()) for c in r) + " |")
                out.append("")
            elif b[0] == "img":
                out += [f"![{b[2]}]({b[1]})", "", f"*{b[2]}*", ""]
    out += ["## Glossary", ""] + [f"- **{t}**: {d}" for t, d in GLOSSARY]
    return "\n".join(out) + "\n"


CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;line-height:1.45;color:#222;max-width:1320px;
 margin:0 auto;padding:0 1.5em 3em}
h1{font-size:1.7em;margin:.8em 0 .3em}h2{margin-top:2em;border-bottom:1px solid #ddd;padding-bottom:.2em}
.lead{font-size:1.05em;color:#444;max-width:60em}
.summary{border:1px solid #cbd5e1;background:#f8fafc;border-radius:6px;padding:.6em 1em;margin:1em 0}
.glance{display:grid;grid-template-columns:1fr 1.4fr 1fr;gap:1em;margin:1em 0}
.glance>div{border:1px solid #cbd5e1;border-radius:6px;padding:.4em 1em;background:#f8fafc}
.glance h3{margin:.3em 0}.glance ul{padding-left:1.2em;margin:.3em 0}.glance li{margin:.25em 0}
.glance .g-wrong{background:#fff5f5;border-color:#f5c2c2}.glance .g-todo{background:#f3faf4;border-color:#bfe3c6}
details.tbl>summary{font-weight:600;color:#1d4ed8;margin:.4em 0}
dl dt{font-weight:600;margin-top:.5em}dl dd{margin-left:1.5em;max-width:60em}
.summary table{font-size:.95em}.summary th{text-align:left;background:none;border:none;padding-right:1em;
 white-space:nowrap}.summary td{border:none}
nav.toc ol{columns:2;max-width:50em}
.scroll{overflow-x:auto;max-width:100%;margin:.5em 0}
table{border-collapse:collapse;font-size:13px}
td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top;text-align:left;overflow-wrap:break-word}
td.v,td.nw{white-space:nowrap}td.wide{min-width:24em}td.brk{overflow-wrap:anywhere}
th{background:#eef1f4;position:sticky;top:0}
tr:target td{outline:2px solid #f59e0b;background:#fff7e0}
math{font-size:1.2em}.math{max-width:24em;overflow-x:auto}.encl{color:#555;font-size:.92em}
td details{max-width:34em}td pre,td details{overflow-wrap:anywhere}
code{font-size:.95em;background:#f3f4f6;padding:0 2px;border-radius:3px}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f6f6;padding:6px;margin:.3em 0;font-size:12px}
details summary{cursor:pointer}.more{color:#2563eb;font-size:.9em}.full{max-width:60em}
.failed{color:#b00}
.erratum,.refuted,.unsound,.unsound-rounding{background:#fde2e2}.proved,.verified,.exact{background:#e6f4ea}
.conservative{background:#e8eefc}.unproven,.error,.inconclusive{background:#fff4cc}
figure{margin:1.2em 0}figure img{width:100%;max-width:1000px;height:auto;border:1px solid #eee}
figcaption{max-width:60em;color:#333;font-size:.95em}
"""


def _html(sections: list[Section]) -> str:
    e = html.escape
    out = ["<!doctype html>", "<html lang='en'><head><meta charset='utf-8'>",
           "<meta name='viewport' content='width=device-width, initial-scale=1'>",
           f"<title>{e(TITLE)}</title><style>{CSS}</style></head><body>",
           f"<header><h1>{e(TITLE)}</h1><p class='lead'>{e(LEAD)}</p>"]

    def linked(text: str, target: str) -> str:  # the label (before the first ': ') is the link, the rest plain
        label, sep, rest = text.partition(": ")
        if not target:
            return _inline_html(text)
        if not sep or len(label) > 60 or _first_unclosed(label) is not None:
            return f"<a href='#{e(target)}'>{_inline_html(text)}</a>"
        return f"<a href='#{e(target)}'>{_inline_html(label)}</a>: {_inline_html(rest)}"
    g = glance(sections)
    out.append("<section class='glance' id='glance'>")
    for key, head in (("checked", "What was checked"), ("wrong", "What is wrong, where"), ("todo", "What to do")):
        out.append(f"<div class='g-{key}'><h3>{head}</h3><ul>"
                   + "".join(f"<li>{linked(t, a)}</li>" for t, a in g[key]) + "</ul></div>")
    out.append("</section>")
    out.append("<section class='summary' id='summary'><details><summary>Build facts: version, spec, peers, commit, "
               "timings</summary><table>")
    for k, v, target in summary_facts(sections):
        val = f"<a href='#{target}'>{e(v)}</a>" if target else e(v)
        out.append(f"<tr><th>{e(k)}</th><td>{val}</td></tr>")
    out.append("</table></details></section>")
    out.append("<nav class='toc' id='contents'><h2>Contents</h2><ol>"
               + "".join(f"<li><a href='#{s.key}'>{e(s.title)}</a>{' (FAILED)' if s.failed else ''}</li>"
                         for s in sections) + "<li><a href='#glossary'>Glossary</a></li></ol></nav></header><main>")
    for s in sections:
        out.append(f"<section id='{s.key}'><h2 class='{'failed' if s.failed else ''}'>{e(s.title)}</h2>")
        for b in s.blocks:
            if b[0] == "p":
                out.append(f"<pre>{e(b[1])}</pre>" if "\n" in b[1] else f"<p>{_inline_html(b[1])}</p>")
            elif b[0] == "items":
                out.append("<ul>" + "".join(f"<li>{t.html if isinstance(t, Cell) else _inline_html(t)}</li>"
                                            for t in b[1]) + "</ul>")
            elif b[0] == "table":
                _, headers, rows, ids, classes, fold = b
                if fold:
                    out.append(f"<details class='tbl'><summary>Show the table: {len(rows)} rows ("
                               f"{e(', '.join(headers))})</summary>")
                out.append("<div class='scroll'><table><thead><tr>" + "".join(f"<th>{e(h)}</th>" for h in headers)
                           + "</tr></thead><tbody>")
                for i, r in enumerate(rows):
                    rid = f" id='{e(ids[i])}'" if ids else ""
                    rcls = f" class='row-{e(classes[i])}'" if classes else ""
                    out.append(f"<tr{rid}{rcls}>" + "".join(
                        f"<td{f' class={chr(39)}{e(c.cls)}{chr(39)}' if c.cls else ''}>{_cell_html(c)}</td>"
                        for c in r) + "</tr>")
                out.append("</tbody></table></div>" + ("</details>" if fold else ""))
            elif b[0] == "img":
                fig = (f"<figure><img src='{e(b[1])}' alt='{e(b[2])}' loading='lazy'>"
                       f"<figcaption>{_inline_html(b[2])}</figcaption></figure>")
                out.append(f"<details class='tbl'><summary>Figure: {_inline_html(_first_sentence(b[2], 120))}"
                           f"</summary>{fig}</details>" if b[3] else fig)
        out.append("</section>")
    out.append("<section id='glossary'><h2>Glossary</h2><dl>"
               + "".join(f"<dt>{e(t)}</dt><dd>{e(d)}</dd>" for t, d in GLOSSARY) + "</dl></section>")
    out.append("</main></body></html>")
    return "\n".join(out) + "\n"


def check_report_target(out_dir: str | Path) -> None:
    """DomainError unless ``out_dir`` may receive a report: absent, empty, or one a report wrote -- its README.md a
    regular file under the report's title, and nothing else in it but index.html, figures/ of SVG files and a
    golden/ tree (which has its own check).  ``--out .`` in a project must not replace the project's README.md."""
    import os
    import stat

    from dpbounds.outputs.golden import check_target
    d = Path(out_dir)
    try:
        names = set(os.listdir(d))
    except (FileNotFoundError, NotADirectoryError):
        return  # absent (created later), or not a directory (ensure_output_dir says so)
    why = ""
    if names:
        try:
            st = os.lstat(d / "README.md")
            ours = stat.S_ISREG(st.st_mode) and (d / "README.md").open("rb").read(len(TITLE) + 2) == \
                f"# {TITLE}".encode()
        except OSError:
            ours = False
        extra = sorted(names - {"README.md", "index.html", "figures", "golden"})
        if not ours:
            why = "its README.md is not one a report wrote"
        elif extra:
            why = f"it also holds {', '.join(extra[:3])}"
        elif "figures" in names:
            try:
                figs = os.listdir(d / "figures")
            except OSError:
                figs = ["?"]
            if any(not f.endswith(".svg") for f in figs):
                why = "its figures/ holds other files than SVG figures"
    if why:
        raise DomainError("--out", str(d), "a new or empty directory, or one a report wrote", "dpbounds report",
                          f"{why}: nothing there is replaced")
    if "golden" in names:
        check_target(d / "golden")


def build_report(out_dir: str | Path, *, quick: bool = False, only: list[str] | None = None) -> list[Section]:
    """Build every section and write DIR/README.md and DIR/index.html (atomically). Returns the sections.

    Progress goes to stderr (a line per step off a terminal; ``DPBOUNDS_PROGRESS=0`` silences it)."""
    known = [t for t, _ in SECTIONS] + [f.__name__ for _, f in SECTIONS]
    for name in only or ():
        if name not in known:
            raise DomainError("section", name, f"a section title or function name: {', '.join(known)}",
                              "dpbounds report", "unknown section")
    check_report_target(out_dir)
    out = ensure_output_dir(out_dir, "out")
    chosen = [(t, f) for t, f in SECTIONS if not only or t in only or f.__name__ in only]
    sections: list[Section] = []
    # the audit's peers run in subprocesses from the start, while this process builds the other sections
    pool = ThreadPoolExecutor(max_workers=1)
    if any(f is section_audit for _, f in chosen):
        audit = pool.submit(audit_results)
        chosen = [(t, functools.partial(f, results=audit.result) if f is section_audit else f) for t, f in chosen]
    with pool, Progress(len(chosen), "dpbounds report", heartbeat=HEARTBEAT) as bar:
        for title, fn in chosen:
            name = getattr(fn, "func", fn).__name__
            sec = Section(title, key=name, tick=lambda note, t=title: bar.update(0, f"{t}: {note}"))
            bar.update(0, f"{title} ...")
            t0 = time.monotonic()
            try:
                with warnings.catch_warnings():  # the report marks refuted constants itself ('[caveat: ...]')
                    from dpbounds.spec import RefutedConstantWarning
                    warnings.simplefilter("ignore", RefutedConstantWarning)
                    fn(sec, out, quick)
            except ImportError as exc:
                sec.p(f"skipped: this build lacks a component ({exc}).")
            except Exception:
                sec.failed = True
                sec.p("FAILED:\n" + traceback.format_exc(limit=6))
            sec.seconds = time.monotonic() - t0
            sections.append(sec)
            bar.update(1, f"{title} done ({sec.seconds:.1f} s)")
    atomic_write_text(out / "README.md", _md(sections))
    atomic_write_text(out / "index.html", _html(sections))
    return sections
