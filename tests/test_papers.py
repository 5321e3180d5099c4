"""Every spec entry cites a paper record with authors, venue, arXiv id and version, and a theorem locator."""

from __future__ import annotations

import re

import pytest

from dpbounds import spec
from dpbounds.spec.papers import PAPERS, paper, render_citation

ENTRIES = list(spec.registry().values())


@pytest.mark.parametrize("key", sorted(PAPERS))
def test_paper_record_is_complete(key):
    p = PAPERS[key]
    assert p.key == key
    assert p.authors and all(a.strip() for a in p.authors)
    assert p.title and p.venue and 1990 < p.year < 2100
    assert p.checked, f"{key}: say how the id and version were checked"
    if p.arxiv:
        assert re.fullmatch(r"\d{4}\.\d{4,5}", p.arxiv), p.arxiv
        if p.version_verified:
            assert re.fullmatch(r"v\d+", p.version), f"{key}: a verified version is written vN"
        else:
            assert p.version, f"{key}: an unverified version must say so"
        assert f"arXiv:{p.arxiv}" in p.citation()
    else:
        assert "not on arXiv" in p.citation()


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.id for e in ENTRIES])
def test_entry_cites_a_paper_with_a_theorem_locator(entry):
    src = entry.source
    rec = paper(src.paper)
    assert src.theorem, f"{entry.id}: no theorem/lemma/proposition in {src.where!r}"
    assert src.theorem in src.where
    text = str(src)
    assert rec.authors[0] in text and rec.title in text and rec.venue in text
    assert (f"arXiv:{rec.arxiv}" in text) if rec.arxiv else ("not on arXiv" in text)
    if src.seed:  # the seed file stays as a secondary locator, and belongs to the cited paper
        assert src.seed in rec.seeds and f"[seed {src.seed}]" in text


def test_equation_locator_is_read_from_where():
    e = spec.get("rruv16.thm5_1")
    assert (e.source.theorem, e.source.equation) == ("Theorem 5.1", "eq. (6)")
    assert spec.get("rruv16.thm6_5").source.equation == "eqs. (11)-(12)"


def test_unknown_paper_key_is_refused():
    with pytest.raises(KeyError, match="unknown paper key"):
        spec.Source("XYZ99", "Theorem 1")
    with pytest.raises(KeyError):
        render_citation("XYZ99")
