"""The papers every spec entry cites: one record per paper, and the function that renders a citation.

A spec entry's :class:`dpbounds.spec.Source` names a paper by key (``"RRUV16"``), a location in it (theorem, lemma,
equation) and, for the five seed texts, the seed file as a secondary locator.  :func:`render_citation` turns that
into the string shown in SPEC.md, the report, error messages' long form and golden-vector metadata.

Versions.  ``version`` is the version of the text the statements were read from.  It is written as ``vN`` only where
it was checked; otherwise ``version_verified`` is False and ``version`` says what is known (e.g. "the arXiv revision
rendered by ar5iv, number not verified").  How each id and version was checked is in ``checked``.  A paper that is
not on arXiv has ``arxiv=""`` and says so in the citation.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Paper:
    """One cited paper: authors, title, venue, year, arXiv id and the version the statements are taken from."""

    key: str
    authors: tuple[str, ...]
    title: str
    venue: str
    year: int
    arxiv: str                 # "" = not on arXiv
    version: str               # "v4", or a description when not verified
    version_verified: bool
    checked: str               # how the id / version was checked (or why it could not be)
    seeds: tuple[str, ...] = ()  # seed files holding this paper's text (shared/seeds)
    doi: str = ""

    @property
    def on_arxiv(self) -> bool:
        return bool(self.arxiv)

    def arxiv_ref(self) -> str:
        """'arXiv:2004.00010v4', 'arXiv:1605.08294, version not verified', or 'not on arXiv'."""
        if not self.arxiv:
            return "not on arXiv"
        if self.version_verified:
            return f"arXiv:{self.arxiv}{self.version}"
        return f"arXiv:{self.arxiv}, {self.version}"

    def citation(self) -> str:
        """The full reference: authors, 'title', venue year[, doi], arXiv id and version."""
        doi = f", doi:{self.doi}" if self.doi else ""
        return f"{', '.join(self.authors)}, '{self.title}', {self.venue}, {self.year}{doi}; {self.arxiv_ref()}"

    def record(self) -> dict:
        """A JSON-serializable form of the record."""
        return {"key": self.key, "authors": list(self.authors), "title": self.title, "venue": self.venue,
                "year": self.year, "arxiv": self.arxiv or None, "version": self.version,
                "version_verified": self.version_verified, "checked": self.checked, "seeds": list(self.seeds),
                "doi": self.doi or None, "citation": self.citation()}


_NV = "version not verified"

PAPERS: dict[str, Paper] = {p.key: p for p in (
    Paper("RRUV16", ("Ryan Rogers", "Aaron Roth", "Jonathan Ullman", "Salil Vadhan"),
          "Privacy Odometers and Filters: Pay-as-you-Go Composition",
          "Advances in Neural Information Processing Systems 29 (NIPS 2016), pp. 1921-1929", 2016,
          "1605.08294", _NV, False,
          "The revised arXiv text as rendered by ar5iv, later than the NIPS paper (Theorem 6.5's footnote 7 calls "
          "the NIPS version [15]).  Seed 000 is word for word the ar5iv rendering of arXiv:1605.08294 (which shows the latest revision); "
          "the revision number is not printed in the text.  Venue and pages from the NeurIPS proceedings metadata.",
          seeds=("000_6d22f6a3880a066d.txt", "002_ecc3f503dc6836cc.txt")),
    Paper("WRRW23", ("Justin Whitehouse", "Aaditya Ramdas", "Ryan Rogers", "Zhiwei Steven Wu"),
          "Fully-Adaptive Composition in Differential Privacy",
          "Proceedings of the 40th International Conference on Machine Learning (ICML 2023), PMLR 202:36990-37007",
          2023, "2203.05481", "no arXiv version: read from the PMLR 202 proceedings PDF", False,
          "Statements are taken from the proceedings version, not an arXiv version.  Seed 003 is the text of the PMLR proceedings PDF (its header: 'Proceedings of the 40 th International "
          "Conference on Machine Learning, Honolulu, Hawaii, USA. PMLR 202, 2023'); pages from proceedings.mlr.press.  "
          "arXiv id as cited by OpenDP's fully-adaptive composition docs.",
          seeds=("003_8948d815f0b87bba.txt",)),
    Paper("FZ21", ("Vitaly Feldman", "Tijana Zrnic"), "Individual Privacy Accounting via a Renyi Filter",
          "Advances in Neural Information Processing Systems 34 (NeurIPS 2021)", 2021, "2008.11193",
          f"{_NV} (an early revision)", False,
          "An early arXiv revision: its abstract says 'The accounting method relies on a new composition theorem "
          "for Renyi differential privacy'; v4 and the NeurIPS version reword it.  Seed 004 matches an arxiv-vanity rendering of arXiv:2008.11193 with the early abstract; the v4 abstract "
          "differs, so the seed is v1, v2 or v3 -- which one is not known.",
          seeds=("004_8eb651b0fc92abd6.txt",)),
    Paper("Nikolov17", ("Aleksandar Nikolov", "Assimakis Kattis (scribe)"),
          "CSC2419: Algorithms and Complexity in Private Data Analysis, Lecture 5 -- Advanced Composition "
          "(February 14, 2017)", "lecture notes, University of Toronto, Winter 2017", 2017, "",
          "not on arXiv (the scribe notes of seed 001)", True,
          "Course notes, not a preprint: not on arXiv.  Course, lecture, date and scribe from the notes' header.",
          seeds=("001_67d4c89f55229a83.txt",)),
    Paper("BS16", ("Mark Bun", "Thomas Steinke"),
          "Concentrated Differential Privacy: Simplifications, Extensions, and Lower Bounds",
          "Theory of Cryptography (TCC 2016-B), LNCS 9985, pp. 635-658", 2016, "1605.02065", _NV, False,
          "arXiv id as in OpenDP's bibliography; the proposition numbers (1.3, 1.4, 3.3) are those WRRW23 and "
          "FZ21 cite, not checked against a specific arXiv version."),
    Paper("Mir17", ("Ilya Mironov",), "Renyi Differential Privacy",
          "IEEE 30th Computer Security Foundations Symposium (CSF 2017), pp. 263-275", 2017, "1702.07476", _NV,
          False, "arXiv id and 'Proposition 3' (page 5 of the arXiv PDF) as cited by OpenDP's source; the version "
          "is not stated there."),
    Paper("CKS20", ("Clement L. Canonne", "Gautam Kamath", "Thomas Steinke"),
          "The Discrete Gaussian for Differential Privacy",
          "Advances in Neural Information Processing Systems 33 (NeurIPS 2020)", 2020, "2004.00010", "v4", True,
          "dp_accounting's rdp_privacy_accountant cites 'arXiv.org/abs/2004.00010 Proposition 12 (in v4)' for "
          "this conversion (the numbering differs in v3).  The paper itself was not read here."),
    Paper("BBGHS20", ("Borja Balle", "Gilles Barthe", "Marco Gaboardi", "Justin Hsu", "Tetsuya Sato"),
          "Hypothesis Testing Interpretations and Renyi Differential Privacy",
          "Proceedings of the 23rd International Conference on Artificial Intelligence and Statistics (AISTATS "
          "2020), PMLR 108", 2020, "1905.09982", "v2", True,
          "Version from microsoft/prv_accountant PR #16 ('Theorem 21 of https://arxiv.org/abs/1905.09982v2') and "
          "scholarfeed's listing 'arXiv:1905.09982v2'; Theorem 21 (the improved RDP -> DP conversion) as cited by "
          "that PR, pytorch/opacus issue #157 / PR #167 and autodp's converter.  Only the abstract was read here."),
    Paper("ALCKS20", ("Shahab Asoodeh", "Jiachun Liao", "Flavio P. Calmon", "Oliver Kosut", "Lalitha Sankar"),
          "A Better Bound Gives a Hundred Rounds: Enhanced Privacy Guarantees via f-Divergences",
          "2020 IEEE International Symposium on Information Theory (ISIT), pp. 920-925", 2020, "2001.05990", "v1",
          True,
          "Version and locators from the code that cites it: dp_accounting ('https://arxiv.org/abs/2001.05990 "
          "Equation 20 (in v1)' for the CKS20 form) and microsoft/prv_accountant PR #16 ('the optimal conversion in "
          "Lemma 1 of https://arxiv.org/abs/2001.05990v1'); venue and pages from a citing repository's reference "
          "list.  Only the abstract was read here; the optimal conversion is re-derived and proved in proofs_check."),
    Paper("DRS22", ("Jinshuo Dong", "Aaron Roth", "Weijie J. Su"), "Gaussian Differential Privacy",
          "J. R. Stat. Soc. Series B 84(1):3-37 (with discussion)", 2022, "1905.02383", _NV, False,
          "Journal data and arXiv id as cited in spec/later.py and citing repositories; Definition 2.5 (G_mu, "
          "mu-GDP), Proposition 2.5 (f_{eps,delta}) and Corollary 2.13 (the GDP privacy curve) follow the issue's "
          "citations and library documentation, not a specific arXiv version read here.  (DRS numbers a definition "
          "and a proposition 2.5 in different counters in some versions; nothing here relies on the numbers: each "
          "formula is proved in proofs_check.)"),
    Paper("ZDW22", ("Yuqing Zhu", "Jinshuo Dong", "Yu-Xiang Wang"),
          "Optimal Accounting of Differential Privacy via Characteristic Function",
          "Proceedings of the 25th International Conference on Artificial Intelligence and Statistics (AISTATS "
          "2022), PMLR 151", 2022, "2106.08567",
          "version not verified (v3 is the latest revision per scholarfeed and emergentmind listings; only the "
          "abstract was read)", False,
          "arXiv id, title and authors from the abstract pages (search tool); 'Appendix F.3' (the conjecture that the "
          "intersection of single-order RDP regions is the optimal RDP -> f-DP conversion) as RGCSK26's abstract "
          "cites it."),
    Paper("RGCSK26", ("Anneliese Riess", "Juan Felipe Gomez", "Flavio du Pin Calmon", "Julia Anne Schnabel",
                      "Georgios Kaissis"),
          "Optimal conversion from Renyi Differential Privacy to f-Differential Privacy", "arXiv preprint", 2026,
          "2602.04562", "version not verified (only the abstract and a topic summary were read)", False,
          "arXiv id, title, authors and abstract from the sciencestack.ai page of arXiv:2602.04562 and an "
          "emergentmind topic page ('single-order RDP privacy regions': D_tau(P||Q) <= rho and D_tau(Q||P) <= rho, "
          "alpha = P(S), beta = Q(S^c)); the theorem numbers were not reached."),
    Paper("BW18", ("Borja Balle", "Yu-Xiang Wang"),
          "Improving the Gaussian Mechanism for Differential Privacy: Analytical Calibration and Optimal Denoising",
          "Proceedings of the 35th International Conference on Machine Learning (ICML 2018), PMLR 80", 2018,
          "1805.06530", "v2", True,
          "dp_accounting and Google's differential-privacy Go library cite 'arXiv 1805.06530 Theorem 8 (in v2)' "
          "/ 'arxiv.org/abs/1805.06530v2' for the exact Gaussian curve."),
    Paper("KOV15", ("Peter Kairouz", "Sewoong Oh", "Pramod Viswanath"),
          "The Composition Theorem for Differential Privacy",
          "Proceedings of the 32nd International Conference on Machine Learning (ICML 2015), PMLR 37:1376-1385; "
          "journal version IEEE Trans. Inf. Theory 63(6):4037-4049, 2017", 2015, "1311.0776", _NV, False,
          "arXiv id and 'Theorem 3.3' as cited by Google's differential-privacy library (arxiv.org/pdf/1311.0776.pdf, "
          "no version); Theorem 3.5's number is not checked against a version."),
    Paper("HRMS21", ("Steven R. Howard", "Aaditya Ramdas", "Jon McAuliffe", "Jasjeet Sekhon"),
          "Time-uniform, nonparametric, nonasymptotic confidence sequences", "Ann. Statist. 49(2):1055-1080",
          2021, "1810.08240", _NV, False,
          "arXiv id and journal data from several citing repositories; theorem and proposition numbers follow "
          "the confseq README (same first author), not a specific arXiv version.",
          doi="10.1214/20-AOS1991"),
    Paper("HRMS20", ("Steven R. Howard", "Aaditya Ramdas", "Jon McAuliffe", "Jasjeet Sekhon"),
          "Time-uniform Chernoff bounds via nonnegative supermartingales", "Probab. Surveys 17:257-317",
          2020, "1808.03204", _NV, False, "Journal data and arXiv id as cited in the literature; not read here.",
          doi="10.1214/18-PS321"),
    Paper("ST22", ("Adam Smith", "Abhradeep Thakurta"),
          "Fully Adaptive Composition for Gaussian Differential Privacy", "arXiv preprint", 2022, "2210.17520",
          "version not verified (first posted 31 Oct 2022; the text read is the ar5iv rendering, which shows the "
          "latest revision without printing its number)", False,
          "arXiv id, title, authors (Boston University; Google Research - Brain Team) and first-posting date checked "
          "with the search tool (arcxiv/aitopics/tomesphere copies of the abstract and the ar5iv rendering of "
          "arXiv:2210.17520).  The ar5iv text was read as far as the search tool shows it: the definition of mu-GDP "
          "(M(D) ~ F(Z), M(D') ~ F(mu + Z)), the interaction (in round t the analyst picks mu_t and a mu_t-GDP "
          "mechanism, adaptively) and the claim that the filter 'simply sums the squares of privacy budgets and "
          "compares them to a threshold' with 'the same parameters as for nonadaptive composition'.  The theorem's "
          "number and exact wording were not reached; no arXiv listing of the revisions was found."),
    Paper("LEC21", ("Mathias Lecuyer",),
          "Practical Privacy Filters and Odometers with Renyi Differential Privacy and Applications to "
          "Differentially Private Deep Learning", "arXiv preprint", 2021, "2103.01379",
          "version not verified (v2, 4 Jun 2021, is the latest revision; only its abstract was read)", False,
          "arXiv id, title and revisions from the arXiv abstract page of arXiv:2103.01379v2 ('Submitted on 2 Mar 2021 "
          "(v1), last revised 4 Jun 2021 (this version, v2)'), read with the search tool; only the abstract was "
          "read, so no theorem number is cited.  The delta split across orders used here is proved in proofs_check "
          "(lec21.multi_order.union_bound), not taken from the paper."),
    Paper("MV16", ("Jack Murtagh", "Salil Vadhan"),
          "The Complexity of Computing the Optimal Composition of Differential Privacy",
          "Theory of Cryptography (TCC 2016-A), LNCS 9562; journal version Theory of Computing 14(8):1-35, 2018", 2016,
          "1507.03113", _NV, False,
          "Title, authors, venues and the abstract (optimal composition of (eps_1, delta_1), ..., (eps_k, delta_k), "
          "#P-complete in general) from the Theory of Computing abstract page (v014a008) and the Harvard privacy "
          "tools record, read with the search tool; the arXiv revision and the theorem number were not checked."),
    Paper("MTZ19", ("Ilya Mironov", "Kunal Talwar", "Li Zhang"),
          "Renyi Differential Privacy of the Sampled Gaussian Mechanism", "arXiv preprint", 2019, "1908.10530",
          f"{_NV} (v1, 27 Aug 2019, is the revision dp_accounting's code points at; the text was not read here)", False,
          "arXiv id and title from the arxiv-vanity rendering of arXiv:1908.10530 (abstract and opening read with the "
          "search tool) and from dp_accounting's rdp_privacy_accountant ('Computation derived in Sec 3.3 of "
          "https://arxiv.org/pdf/1908.10530'), which also writes the integer-order binomial sum.  Section numbers "
          "(3.1 integer orders, 3.3 fractional orders, A_alpha >= B_alpha) follow that code and the paper's "
          "abstract; they were not checked against a copy.  A_alpha >= B_alpha is proved here (proofs_check "
          "mechanisms.sgm.rdp.a_ge_b), not taken from the paper."),
    Paper("BBG18", ("Borja Balle", "Gilles Barthe", "Marco Gaboardi"),
          "Privacy Amplification by Subsampling: Tight Analyses via Couplings and Divergences",
          "Advances in Neural Information Processing Systems 31 (NeurIPS 2018)", 2018, "1807.01647", _NV, False,
          "arXiv id and title from the search tool (a stored text '1807.01647v2' and the deepai/groundai "
          "renderings of the abstract and introduction); it introduces privacy profiles delta_M(eps).  The "
          "Laplace mechanism's profile is not quoted from it: mechanisms.laplace.delta is derived and proved in "
          "proofs_check."),
    Paper("KTH23", ("Antti Koskela", "Marlon Tobaben", "Antti Honkela"),
          "Individual Privacy Accounting with Gaussian Differential Privacy",
          "The Eleventh International Conference on Learning Representations (ICLR 2023), OpenReview JmC_Tld3v-f",
          2023, "2209.15596",
          "version not verified (v2, updated 24 Aug 2023, is the latest revision; only the abstract and the opening "
          "of the introduction were read)", False,
          "Authors, title, venue and arXiv id from the OpenReview page (forum JmC_Tld3v-f, 'ICLR 2023 poster'), the "
          "ICLR 2023 proceedings text and the authors' repository DPBayes/individual-accounting-gdp (README bibtex: "
          "CoRR abs/2209.15596).  Revisions: an arXiv API listing in a public repository gives "
          "arxiv.org/abs/2209.15596v2, published 2022-09-30, updated 2023-08-24.  The search tool shows only the "
          "abstract and the start of the introduction of v2 and of the ICLR text (individual filters that stop "
          "releasing information about an element once its budget is exceeded, a supermartingale for the "
          "hockey-stick divergence, tight for the Gaussian mechanism); the theorem's number and wording were not "
          "reached, and the authors' code (MIMIC-III experiments) cites no theorem number."),
    Paper("DGKKM22", ("Vadym Doroshenko", "Badih Ghazi", "Pritish Kamath", "Ravi Kumar", "Pasin Manurangsi"),
          "Connect the Dots: Tighter Discrete Approximations of Privacy Loss Distributions",
          "Proceedings on Privacy Enhancing Technologies (PETS) 2022(4)", 2022, "2207.04380", "v1", True,
          "arXiv id, authors, title and venue from the abstract pages (search tool: thelatestinai, research.google "
          "'PETS 2022', ar5iv); scholarfeed lists 'arXiv:2207.04380v1', submitted 10 Jul 2022.  Only the abstract and "
          "the opening of the introduction were read: the pessimistic 'connect the dots' discretization (masses "
          "split onto the two neighbouring grid losses, both measures kept) is re-derived and proved in "
          "proofs_check (composition.sgm.split_dominates); the dominated side used here is dpbounds' own "
          "(composition.sgm.garbling_is_dominated), not the paper's optimistic estimate."),
    Paper("KJH20", ("Antti Koskela", "Joonas Jalko", "Antti Honkela"),
          "Computing Tight Differential Privacy Guarantees Using FFT",
          "Proceedings of the 23rd International Conference on Artificial Intelligence and Statistics (AISTATS "
          "2020), PMLR 108", 2020, "1906.03049", "version not verified (v1 titled 'Computing Exact Guarantees for "
          "Differential Privacy', 7 Jun 2019; scholarfeed lists v2 under the AISTATS title)", False,
          "arXiv metadata (arxitics JSON of 1906.03049: v1, 2019-06-07) and the scholarfeed page of 1906.03049v2; "
          "only abstracts were read.  Cited for the PLD/FFT accounting of the subsampled Gaussian that dpbounds "
          "brackets (its float FFT is not used: dpbounds convolves directly, with a proved error bound)."),
    Paper("KJPH21", ("Antti Koskela", "Joonas Jalko", "Lukas Prediger", "Antti Honkela"),
          "Tight Differential Privacy for Discrete-Valued Mechanisms and for the Subsampled Gaussian Mechanism Using "
          "FFT", "Proceedings of the 24th International Conference on Artificial Intelligence and Statistics "
          "(AISTATS 2021), PMLR 130", 2021, "2006.07134", "version not verified (researchtrend lists v2)", False,
          "Abstract pages (deepai, researchtrend 2006.07134v2): rigorous lower and upper bounds for the subsampled "
          "Gaussian's (eps, delta) from moment bounds of the discretized PLD.  Only the abstract was read."),
)}


def paper(key: str) -> Paper:
    """The record of the paper with this key; KeyError naming the known keys otherwise."""
    try:
        return PAPERS[key]
    except KeyError:
        raise KeyError(f"unknown paper key {key!r}; known: {', '.join(PAPERS)}") from None


def render_citation(key: str, where: str = "", seed: str = "") -> str:
    """The citation string of a result: the paper's full reference, then the location, then the seed file.

    E.g. "Ryan Rogers, ..., 'Privacy Odometers and Filters: ...', ..., 2016; arXiv:1605.08294, version not verified -- Theorem 5.1,
    eq. (6) [seed 000_6d22f6a3880a066d.txt]".  Used by SPEC.md, the report, the CLI and golden-vector metadata.
    """
    out = paper(key).citation()
    if where:
        out += f" -- {where}"
    if seed:
        out += f" [seed {seed}]"
    return out
