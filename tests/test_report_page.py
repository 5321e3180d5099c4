"""The report page as a person reads it: read back by consumers that did not write it -- the standard library's
html.parser (title, contents, summary, anchors, no truncated cell, no raw markdown, every figure a file) and, when one
is installed, a real headless browser at 1400 px (no table overflows, every figure loads, a screenshot is saved).

The page is built once per module from a quick subset: a handful of fast proof claims (one erratum, one refuted), the
registry, B*, the filters, the audit (installed peers plus a planted unsound fake peer) and the figures.
"""

from __future__ import annotations

import html
import io
import json
import os
import re
import shutil
import subprocess
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest

from dpbounds.outputs import report as rep
from dpbounds.util.progress import Progress

FAST_CLAIMS = ("fz21.sec6.adult_eps1_0", "fz21.sec6.mnist_eps0_3", "howard.stitching.k1", "nikolov17.thm7.azuma")
SECTIONS = ["section_proofs", "section_registry", "section_bstar", "section_filters", "section_golden",
            "section_audit", "section_figures"]


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """(report dir, sections, index.html text), built once."""
    from dpbounds.audit import run as audit_run
    from dpbounds.proofs_check import core
    out = tmp_path_factory.mktemp("report")
    claims = {k: v for k, v in core.all_claims().items() if k in FAST_CLAIMS}
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DPBOUNDS_PROGRESS", "0")
        mp.setattr(core, "all_claims", lambda: claims)
        if hasattr(rep, "all_claims"):  # imported by name into the report module
            mp.setattr(rep, "all_claims", lambda: claims)
        # the audit section on two real peers (run when installed; opendp is quick), one that is never installed
        # here (opacus lives in its own venv: a skipped row) and a fake with findings -- the whole audit of every
        # installed peer is the CI's `dpbounds report` step and tests/test_audit.py, not this page's fixture
        keep = ("opendp", "diffprivlib", "opacus")
        mp.setattr(audit_run, "ADAPTERS", {**{k: audit_run.ADAPTERS[k] for k in keep},
                                           "fake": "tests.fake_peers.wrong_constant"})
        from dpbounds.outputs import golden
        small = golden.write_golden  # the golden section on one bound (the sample grid of all takes a minute)
        one = lambda d, **kw: small(d, **{**kw, "bounds": ["rruv16.thm5_1"]}, streams=False,  # noqa: E731
                                    conversions=False)
        mp.setattr(golden, "write_golden", one)
        if hasattr(rep, "write_golden"):
            mp.setattr(rep, "write_golden", one)
        sections = rep.build_report(out, quick=True, only=SECTIONS)
    return out, sections, (out / "index.html").read_text(encoding="utf-8")


class _Page(HTMLParser):
    """Collects what the tests read: elements with ids, links, images, table cells' text, stray text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.ids: set[str] = set()
        self.hrefs: list[str] = []
        self.imgs: list[str] = []
        self.cells: list[str] = []       # each <td>'s visible text outside <details> bodies
        self.prose: list[str] = []       # text outside <pre>, <code>, <math>, <style>
        self.h1: list[str] = []
        self.title = ""
        self.math = 0
        self.toc_links: list[str] = []
        self._cell: list[str] | None = None
        self._in_toc = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag not in ("br", "wbr", "img", "meta", "input"):
            self.stack.append(tag)
        if "id" in a:
            assert a["id"] not in self.ids, f"duplicate id {a['id']}"
            self.ids.add(a["id"])
        if tag == "a" and "href" in a:
            self.hrefs.append(a["href"])
            if self._in_toc:
                self.toc_links.append(a["href"])
        if tag == "img":
            self.imgs.append(a.get("src", ""))
        if tag == "td":
            self._cell = []
        if tag == "math":
            self.math += 1
        if tag == "nav" and "toc" in (a.get("class") or ""):
            self._in_toc = True

    def handle_endtag(self, tag):
        if tag == "td" and self._cell is not None:
            self.cells.append(" ".join("".join(self._cell).split()))
            self._cell = None
        if tag == "nav":
            self._in_toc = False
        if tag in self.stack:
            while self.stack and self.stack.pop() != tag:
                pass

    def handle_data(self, data):
        if "h1" in self.stack:
            self.h1.append(data)
        if self.stack and self.stack[-1] == "title":
            self.title += data
        if self._cell is not None and ("summary" in self.stack or "details" not in self.stack):
            self._cell.append(data)
        if not {"pre", "code", "math", "style", "script", "title"} & set(self.stack):
            self.prose.append(data)


def _parse(text: str) -> _Page:
    p = _Page()
    p.feed(text)
    p.close()
    return p


@pytest.mark.tier("slow")
def test_no_section_fails_and_the_page_has_a_title_summary_and_contents(page):
    out, sections, text = page
    assert [s.title for s in sections if s.failed] == []
    p = _parse(text)
    assert p.title == rep.TITLE
    assert "".join(p.h1).strip() == rep.TITLE  # the <h1> is the title only, not the intro
    assert "summary" in p.ids and "contents" in p.ids
    assert sorted(p.toc_links) == sorted([f"#{s}" for s in SECTIONS] + ["#glossary"])
    summary = text[text.index("id='summary'"):text.index("id='contents'")]
    assert "Proof checks" in summary and "Audit verdicts" in summary and "Git commit" in summary
    # the verdict counts of the claims that ran, as the summary box shows them
    assert "erratum 1" in summary and "refuted 1" in summary and "verified 1" in summary
    import dpbounds
    assert dpbounds.__version__ in summary and "Spec version" in summary and "Generated" in summary


@pytest.mark.tier("slow")
def test_every_link_resolves_and_every_claim_and_finding_links_to_its_row(page):
    out, sections, text = page
    p = _parse(text)
    local = [h[1:] for h in p.hrefs if h.startswith("#")]
    assert local and set(local) <= p.ids, sorted(set(local) - p.ids)
    for cid in FAST_CLAIMS:
        assert f"claim-{cid}" in p.ids and f"#claim-{cid}" in p.hrefs
    # the planted unsound peer is a finding that links to its full audit row
    audit = text[text.index("id='section_audit'"):]
    findings = audit[:audit.index("<table")]
    assert "unsound" in findings and re.search(r"href='#audit-\d+'", findings)


@pytest.mark.tier("slow")
def test_no_cell_is_cut_and_no_markdown_is_shown_raw(page):
    out, sections, text = page
    p = _parse(text)
    assert p.cells
    cut = [c for c in p.cells if c.endswith(("...", "…"))]
    assert cut == [], cut[:3]
    prose = " ".join(p.prose)
    for mark in ("`", "**", "](#"):
        assert mark not in prose, prose[max(0, prose.index(mark) - 80):prose.index(mark) + 80]
    # a long evidence is in the page in full, behind <details>
    proofs = next(s for s in sections if s.key == "section_proofs")
    rows = next(b for b in proofs.blocks if b[0] == "table")[2]
    longest = max((r[-1].text for r in rows), key=len)
    assert len(longest) > rep.LONG_CELL
    assert html.escape(longest.split(" Evidence: ", 1)[1].split()[-1]) in text


@pytest.mark.tier("slow")
def test_formulas_are_mathml_and_the_page_needs_nothing_from_the_network(page):
    out, sections, text = page
    p = _parse(text)
    assert p.math >= 10
    assert not re.search(r"""(src|href)=['"]?(https?:)?//""", text)  # no CDN, works offline
    assert "<script" not in text


@pytest.mark.tier("slow")
def test_every_figure_is_a_file_in_the_report_and_an_svg(page):
    pytest.importorskip("matplotlib")
    out, sections, text = page
    p = _parse(text)
    names = {Path(s).name for s in p.imgs}
    assert {"fig_bstar.svg", "fig_filters_rounds.svg", "fig_individual_filtering.svg"} <= names
    for src in p.imgs:
        f = (out / src).resolve()
        assert f.is_file() and out.resolve() in f.parents, src
        assert b"<svg" in f.read_bytes()[:2000], src


@pytest.mark.tier("slow")
def test_the_filters_figure_uses_the_table_grid_and_says_how_it_shows_zero(page):
    pytest.importorskip("matplotlib")
    from dpbounds.outputs.compare import EPS_GRID_QUICK
    out, sections, text = page
    filt = next(s for s in sections if s.key == "section_filters")
    table = next(b for b in filt.blocks if b[0] == "table")
    assert [r[0].text for r in table[2]] == list(EPS_GRID_QUICK)
    caption = next(b[2] for b in filt.blocks if b[0] == "img")
    zero = any(c.text == "0" for r in table[2] for c in r[1:])
    assert zero == ("cannot show 0" in caption)  # the quick grid's eps = 0.2 allows no round for some filter


@pytest.mark.tier("slow")
def test_the_fz21_example_shows_its_effect_and_the_caption_says_so(page):
    from dpbounds.outputs.examples.private_gd import run_example
    a7, a8 = run_example().values()
    assert a8["steps"] > a7["steps"] and a8["B"] == a7["B"]  # same (alpha, B), more steps
    # the figure exists to show that individual filtering trains further with the same (alpha, B)
    assert a8["final_loss"] < a7["final_loss"]
    pytest.importorskip("matplotlib")
    out, sections, text = page
    figs = next(s for s in sections if s.key == "section_figures")
    caption = next(b[2] for b in figs.blocks if b[0] == "img" and "individual" in b[1])
    assert f"log-loss {a8['final_loss']:.4f} against {a7['final_loss']:.4f}" in caption


def test_progress_writes_lines_off_a_terminal_and_a_heartbeat_when_a_step_is_long():
    s = io.StringIO()
    with Progress(2, "job", stream=s, force=True, heartbeat=0.05) as bar:
        bar.update(1, "first")
        for _ in range(200):  # wait (bounded) for the heartbeat thread's line
            if "first (still working)" in s.getvalue():
                break
            time.sleep(0.02)
        bar.update(1, "second")
    lines = s.getvalue().splitlines()
    assert lines[0].startswith("job: 1/2") and lines[0].endswith("first")
    assert any(ln.endswith("first (still working)") for ln in lines)
    assert lines[-1].startswith("job: 2/2") and "\r" not in s.getvalue()


@pytest.mark.tier("slow")
def test_the_first_screen_says_what_was_checked_what_is_wrong_where_and_what_to_do(page):
    """Issue 25: a DP maintainer gets the message in two minutes -- a summary before anything else."""
    out, sections, text = page
    glance = text[text.index("id='glance'"):text.index("id='summary'")]
    assert text.index("id='glance'") < text.index("id='contents'") < text.index("id='section_proofs'")
    for head in ("What was checked", "What is wrong, where", "What to do"):
        assert head in glance
    p = _parse(glance)
    local = [h[1:] for h in p.hrefs if h.startswith("#")]
    assert "claim-rruv16.lemma2_3.second_conversion" not in local  # not in the fast subset ...
    assert any(h.startswith("claim-") for h in local)            # ... but the subset's erratum/refutation is
    assert any(h.startswith("audit-") for h in local)            # the planted unsound peer, linked to its row
    assert "fake" in glance and "unsound" in glance and "glossary" in local
    for mark in ("`", "**"):
        assert mark not in " ".join(p.prose)


@pytest.mark.tier("slow")
def test_details_on_demand_long_tables_and_figures_are_folded(page):
    out, sections, text = page
    for s in sections:
        for b in s.blocks:
            if b[0] == "table":
                assert b[5] == (len(b[2]) > rep.OPEN_ROWS) or s.key == "section_golden"
    assert text.count("<details class='tbl'>") >= 3
    audit = text[text.index("id='section_audit'"):text.index("id='section_figures'")]
    assert "Show the table:" in audit and audit.index("Show the table:") < audit.index("<table")


@pytest.mark.tier("slow")
def test_source_cells_hold_the_citation_a_reader_uses_not_internal_strings(page):
    out, sections, text = page
    p = _parse(text)
    for cell in p.cells:
        assert "[seed " not in cell and "version not verified" not in cell, cell[:200]
    assert "arXiv:1605.08294" in text  # the citation itself stays


@pytest.mark.tier("slow")
def test_the_peer_column_never_wraps_and_the_golden_section_shows_a_record(page):
    out, sections, text = page
    assert re.search(r"<td class='nw'>fake", text) and re.search(r"<td class='nw'>opendp", text) or \
        "opendp" not in text.split("id='section_audit'")[1][:20000]
    golden = text[text.index("id='section_golden'"):text.index("id='section_audit'")]
    for field in ("value", "lo", "hi", "lower", "upper", "params"):
        assert f"<td>{field}</td>" in golden
    assert "rruv16.thm5_1" in golden and "dpbounds golden --check" in golden


@pytest.mark.tier("slow")
def test_the_glossary_explains_the_terms(page):
    out, sections, text = page
    g = text[text.index("id='glossary'"):]
    for term in ("B*", "zCDP", "RDP", "filter", "odometer", "CONT / HALT", "ulp", "enclosure"):
        assert f"<dt>{html.escape(term)}" in g, term
    assert "## Glossary" in (out / "README.md").read_text(encoding="utf-8")


def test_git_commit_is_found_after_a_plain_pip_install_from_a_clone(tmp_path, monkeypatch):
    """Issue 25: "Git commit: not available" after `pip install .` from a git clone: pip's direct_url.json names the
    clone (PEP 610); its HEAD is read there."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    clone = tmp_path / "clone"
    (clone / "reference").mkdir(parents=True)
    (clone / "pyproject.toml").write_text('[project]\nname = "dpbounds"\n')
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t", "PATH": os.environ.get("PATH", "")}
    for cmd in (["init", "-q"], ["add", "."], ["commit", "-qm", "x"]):
        subprocess.run(["git", *cmd], cwd=clone, env=env, check=True, capture_output=True)
    head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=clone, capture_output=True,
                          text=True).stdout.strip()

    class Dist:
        def read_text(self, name):
            return json.dumps({"url": clone.as_uri(), "dir_info": {}}) if name == "direct_url.json" else None
    import importlib.metadata
    real_head = rep._git_head
    monkeypatch.setattr(rep, "_git_head", lambda d: "" if "reference" in str(d) or d == Path.cwd() else real_head(d))
    monkeypatch.setattr(importlib.metadata, "distribution", lambda name: Dist())
    got = rep.git_commit()
    assert got.startswith(head) and "installed from" in got
    monkeypatch.setattr(Dist, "read_text", lambda self, name: json.dumps(
        {"url": "https://example.invalid/x.git", "vcs_info": {"vcs": "git", "commit_id": "a" * 40}}))
    assert rep.git_commit().startswith("a" * 12)


def test_a_finding_summary_is_never_cut_inside_a_formula():
    ev = ("The bound fails at P(Z_1 > t) = exp(-t^2/2) for every t larger than the stated constant, which the "
          "lemma needs; see the proof.")
    head = rep._first_sentence(ev, 40)
    assert ev.startswith(head) and head.count("(") == head.count(")")
    assert not head.rstrip().endswith(("=", "(", "P(Z_1")) and "P(Z_1 > t) = exp(-t^2/2)" in head


def test_git_commit_never_fails(tmp_path, monkeypatch):
    assert rep.git_commit(tmp_path) == ""          # not a checkout
    monkeypatch.setenv("PATH", str(tmp_path))       # no git at all
    assert rep.git_commit() == ""


def test_first_sentence_never_cuts_a_word():
    text = "alpha " * 40
    head = rep._first_sentence(text, 50)
    assert text.startswith(head) and text[len(head)] == " "
    assert rep._first_sentence("Short one. Then more.") == "Short one."


# ------------------------------------------------------------------------------------------------ browser

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")

_MEASURE = """window.addEventListener('load', () => {
  const vw = document.documentElement.clientWidth;
  const res = {viewport: vw, pageWidth: document.documentElement.scrollWidth,
               height: document.documentElement.scrollHeight, tables: [], images: []};
  document.querySelectorAll('table').forEach(t => {
    const r = t.getBoundingClientRect(), box = t.parentElement;
    res.tables.push({section: (t.closest('section') || {}).id, right: r.right,
                     hidden: box.scrollWidth - box.clientWidth});
  });
  document.querySelectorAll('img').forEach(im => res.images.push(
    {src: im.getAttribute('src'), loaded: im.complete && im.naturalWidth > 0}));
  const pre = document.createElement('pre');
  pre.id = 'dpbounds-measure';
  pre.textContent = JSON.stringify(res);
  document.body.appendChild(pre);
});"""


def _browser() -> str | None:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


def _run_browser(exe: str, profile: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           "--no-first-run", f"--user-data-dir={profile}", "--virtual-time-budget=10000", *args],
                          capture_output=True, text=True, timeout=180)


@pytest.mark.tier("browser")
def test_the_page_in_a_headless_browser_at_1400_px(page, tmp_path):
    exe = _browser()
    if exe is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but no headless browser on PATH ({', '.join(BROWSERS)}): apt-get install chromium")
        pytest.skip("no headless browser installed (apt-get install chromium)")
    out, sections, text = page
    probe = out / "_measure.html"  # the page plus a script that measures it (the page itself has none)
    probe.write_text(text.replace("</body>", f"<script>{_MEASURE}</script></body>").replace(" loading='lazy'", ""),
                     encoding="utf-8")
    r = _run_browser(exe, tmp_path / "profile", "--window-size=1400,1000", "--dump-dom", probe.as_uri())
    m = re.search(r'<pre id="dpbounds-measure">([^<]*)</pre>', r.stdout)
    assert m, (r.returncode, r.stderr[-2000:])
    res = json.loads(html.unescape(m.group(1)))
    assert res["pageWidth"] <= res["viewport"], res
    assert res["height"] < 12000, res["height"]  # a summary first, details folded (it was 30000 px)
    wide = [t for t in res["tables"] if t["right"] > res["viewport"] + 1 or t["hidden"] > 1]
    assert wide == [], wide
    assert any(t["section"] == "section_audit" for t in res["tables"])
    assert res["images"] == [] or all(i["loaded"] for i in res["images"]), res["images"]
    if _has_matplotlib():
        assert len(res["images"]) >= 3
    # the screenshot artefact: the whole page (capped), kept in $DPBOUNDS_ARTIFACTS when set
    keep = Path(os.environ.get("DPBOUNDS_ARTIFACTS") or out)
    keep.mkdir(parents=True, exist_ok=True)
    shot = keep / "report-1400px.png"
    r = _run_browser(exe, tmp_path / "profile", f"--window-size=1400,{min(int(res['height']) + 20, 20000)}",
                     f"--screenshot={shot}", (out / "index.html").as_uri())
    assert shot.is_file() and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", (r.returncode, r.stderr[-2000:])
    probe.unlink()


def _has_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
        return True
    except ImportError:
        return False
