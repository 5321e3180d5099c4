"""The quotations proof checks rest on: each occurs verbatim in its seed text at the recorded place, every claim
carries its quotations (or says why it has none), and the claims decide on the stored text, not on a file.

Verbatim means: equal after replacing every run of whitespace by one space (the normalisation documented in
proofs_check/quotes.py); a quote's ``" [...] "`` separates parts that follow each other within 3000 characters.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from dpbounds.proofs_check import quotes as Q
from dpbounds.proofs_check.core import all_claims, run_claim
from dpbounds.spec.papers import PAPERS

from .seeds import ROOT, require_seeds

QUOTES = list(Q.QUOTES.values())


def _squash(raw: str) -> tuple[str, list[int], list[int]]:
    """raw with whitespace runs squashed to one space, and for each kept character its raw offset and line."""
    chars, offs, lines = [], [], []
    line, prev_space = 1, True
    for i, c in enumerate(raw):
        if c.isspace():
            if not prev_space:
                chars.append(" ")
                offs.append(i)
                lines.append(line)
            prev_space = True
        else:
            chars.append(c)
            offs.append(i)
            lines.append(line)
            prev_space = False
        if c == "\n":
            line += 1
    return "".join(chars), offs, lines


_CACHE: dict[str, tuple[str, list[int], list[int]]] = {}


def _seed(name: str):
    if name not in _CACHE:
        _CACHE[name] = _squash((require_seeds() / name).read_text(encoding="utf-8"))
    return _CACHE[name]


def _starts(text: str, name: str) -> list[tuple[int, int]]:
    """(line, offset) of every place where the quotation's parts occur in order in the seed."""
    flat, offs, lines = _seed(name)
    parts = [" ".join(p.split()) for p in text.split(" [...] ")]
    out = []
    for m in re.finditer(re.escape(parts[0]), flat):
        end, ok = m.end(), True
        for part in parts[1:]:
            j = flat.find(part, end)
            if j < 0 or j - end > 3000:
                ok = False
                break
            end = j + len(part)
        if ok:
            out.append((lines[m.start()], offs[m.start()]))
    return out


@pytest.mark.parametrize("q", QUOTES, ids=[q.key for q in QUOTES])
def test_quote_occurs_verbatim_at_its_recorded_place(q):
    places = _starts(q.text, q.seed)
    assert places, f"{q.key}: not found in {q.seed}"
    at = [off if q.unit == "offset" else line for line, off in places]
    assert q.at in at, f"{q.key}: recorded {q.unit} {q.at}, found at {at}"


@pytest.mark.parametrize("q", QUOTES, ids=[q.key for q in QUOTES])
def test_quote_belongs_to_a_cited_paper_that_holds_its_seed(q):
    assert q.paper in PAPERS and q.seed in PAPERS[q.paper].seeds
    assert q.where and q.text.strip() and len(q.text) <= 700, "quotations stay short"
    assert q.key.split(".")[0] == q.paper.lower()


def test_a_changed_quote_is_not_found():
    # the check above can fail: one character changed in a real quotation is no longer in its seed
    q = Q.quote("rruv16.thm6_5.eq12")
    assert _starts(q.text, q.seed)
    assert not _starts(q.text.replace("4\\log_{2}", "2\\log_{2}"), q.seed)


def test_every_claim_carries_quotations_or_says_why_not():
    for c in all_claims().values():
        assert c.quotes or c.unquoted, c.id
        for q in c.quotes:
            assert Q.QUOTES[q.key] is q


def test_every_erratum_and_refutation_in_verdicts_md_is_quoted():
    rows = re.findall(r"^\| `([^`]+)` \| `[^`]*` \| \*\*(\w+)\*\*", (ROOT / "proofs_check" / "VERDICTS.md").read_text(),
                      re.M)
    findings = [cid for cid, verdict in rows if verdict in ("erratum", "refuted")]
    assert len(findings) >= 5
    claims = all_claims()
    for cid in findings:
        assert claims[cid].quotes, cid


@pytest.mark.parametrize("cid, key, old, new", [
    ("rruv16.thm6_5.eq12_vs_proof", "rruv16.thm6_5.proof_eq12", "\\log(2\\log_{2}(n)", "\\log(4\\log_{2}(n)"),
    ("rruv16.thm6_5.granularity", "rruv16.thm6_5.granularity_remark", "\\log_{2}(1/\\gamma)", "\\log(1/\\gamma)"),
])
def test_text_claims_decide_on_the_stored_quotation(monkeypatch, cid, key, old, new):
    # the erratum rests on what the stored quotation says: edit it and the finding is no longer made
    claims = all_claims()
    assert run_claim(claims[cid]).verdict == "erratum"
    q = Q.QUOTES[key]
    assert old in q.text
    monkeypatch.setitem(Q.QUOTES, key, dataclasses.replace(q, text=q.text.replace(old, new)))
    assert run_claim(claims[cid]).verdict == "inconclusive"


def test_verdicts_md_shows_each_finding_next_to_its_quotations():
    md = (ROOT / "proofs_check" / "VERDICTS.md").read_text()
    findings = md.split("\n## Findings\n", 1)[1].split("\n## ", 1)[0]
    claims = all_claims()
    blocks = re.split(r"^### ", findings, flags=re.M)[1:]
    assert len(blocks) >= 5
    for block in blocks:
        cid = block.split(" ", 1)[0]
        assert "*Finding.*" in block
        for q in claims[cid].quotes:
            assert " ".join(q.text.split()) in block, (cid, q.key)
            assert q.locator() in block and q.citation() in block


def test_report_proofs_section_puts_quotations_next_to_findings(tmp_path, monkeypatch):
    import html

    import dpbounds.proofs_check.core as core
    from dpbounds.outputs.report import build_report
    ids = ["rruv16.thm6_5.eq12_vs_proof", "nikolov17.thm7.azuma", "wrrw23.thm4.linear_boundary"]
    real, real_all = core.run_all, core.all_claims
    monkeypatch.setattr(core, "run_all", lambda chosen=None: real(ids))  # three claims are enough here
    monkeypatch.setattr(core, "all_claims", lambda: {k: v for k, v in real_all().items() if k in ids})
    import dpbounds.outputs.report as rep
    if hasattr(rep, "all_claims"):  # imported by name into the report module
        monkeypatch.setattr(rep, "all_claims", core.all_claims)
    (sec,) = build_report(tmp_path, quick=True, only=["section_proofs"])
    assert not sec.failed
    md, page = (tmp_path / "README.md").read_text(), (tmp_path / "index.html").read_text()
    claims = real_all()
    for cid in ids[:2]:  # the erratum and the refutation: every quotation and its arXiv citation is shown
        for q in claims[cid].quotes:
            text = " ".join(q.text.split())
            assert text.replace("|", "\\|") in md and html.escape(text) in page, (cid, q.key)
            assert q.where in md        # the paper's location (the seed-file locator is internal: spec --show)
    assert "arXiv:1605.08294" in md and "not on arXiv" in md  # RRUV16 and the Nikolov notes
    proved = claims["wrrw23.thm4.linear_boundary"].quotes[0]
    assert " ".join(proved.text.split()) not in md  # a proved claim is not listed as a finding
