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
          "1605.08294", "v3", True,
          "The revised arXiv text as rendered by ar5iv, later than the NIPS paper (Theorem 6.5's footnote 7 calls "
          "the NIPS version [15]).  Seed 000 is word for word the ar5iv rendering of arXiv:1605.08294 (which shows the latest revision); "
          "the revision number is not printed in the text.  Revision: the arXiv abstract page of 1605.08294 (read "
          "with the search tool through a proxy copy of arxiv.org/abs/1605.08294) lists three revisions, '[v1] Thu, 26 "
          "May 2016 (127 KB)', '[v2] Wed, 1 Jun 2016 (127 KB)', '[v3] Thu, 5 Aug 2021 (24 KB)' ('last revised 5 Aug "
          "2021 (this version, v3)'); seed 000 cites 'Yu Miao. Personal communication, April 4, 2017' (its reference "
          "[13]) and its acknowledgements say 'The revised version translates pure DP filters/odometers to general DP "
          "filters/odometers', so it postdates v1 and v2: it is v3 (scholarfeed also lists 1605.08294v3).  OpenDP's "
          "make_privacy_filter docs link 1605.08294v1; the theorem numbers here are v3's, read from the seed.  Venue "
          "and pages from the NeurIPS proceedings metadata.",
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
          "differs, so the seed is v1, v2 or v3 -- which one is not known.  v4 is dated 8 January 2022 (a public "
          "research note that read arxiv.org/abs/2008.11193v4 says so, and scholarfeed lists 2008.11193v4); the dates "
          "of v1-v3 and a text matching the seed were not found, so the seed's revision stays unverified.",
          seeds=("004_8eb651b0fc92abd6.txt",)),
    Paper("Nikolov17", ("Aleksandar Nikolov", "Assimakis Kattis (scribe)"),
          "CSC2419: Algorithms and Complexity in Private Data Analysis, Lecture 5 -- Advanced Composition "
          "(February 14, 2017)", "lecture notes, University of Toronto, Winter 2017", 2017, "",
          "not on arXiv (the scribe notes of seed 001)", True,
          "Course notes, not a preprint: not on arXiv.  Course, lecture, date and scribe from the notes' header.",
          seeds=("001_67d4c89f55229a83.txt",)),
    Paper("BS16", ("Mark Bun", "Thomas Steinke"),
          "Concentrated Differential Privacy: Simplifications, Extensions, and Lower Bounds",
          "Theory of Cryptography (TCC 2016-B), LNCS 9985, pp. 635-658", 2016, "1605.02065", "v1", True,
          "arXiv id as in OpenDP's bibliography.  Revision: the only revision found is v1 -- the PDF text of a stored "
          "copy (fdocuments) is stamped 'arXiv:1605.02065v1 [cs.CR] 6 May 2016', and scholarfeed lists 1605.02065v1 "
          "(scholarfeed lists the latest revision: 1605.08294v3, 1702.07476v3 and 2106.08567v3, each "
          "checked against an arXiv listing).  No arXiv listing of 1605.02065's revisions was read, so a later "
          "revision is not excluded by an arXiv page.  Proposition 1.3 (rho-zCDP => (rho + 2 sqrt(rho log(1/delta)), "
          "delta)-DP) is also what privjail's zcdp accountant cites for that formula ('arxiv.org/pdf/1605.02065 "
          "Proposition 1.3'); Propositions 1.4 and 3.3 are the numbers WRRW23 and FZ21 cite, not checked against the "
          "text."),
    Paper("Mir17", ("Ilya Mironov",), "Renyi Differential Privacy",
          "IEEE 30th Computer Security Foundations Symposium (CSF 2017), pp. 263-275", 2017, "1702.07476", "v3",
          True, "dp_accounting's rdp_privacy_accountant (compute_delta and compute_epsilon) cites 'Basic bound (see "
          "https://arxiv.org/abs/1702.07476 Proposition 3 in v3)' for the RDP -> (eps, delta) conversion; an arXiv "
          "API listing stored in a public repository gives arxiv.org/abs/1702.07476v3, published 2017-02-24, "
          "updated 2017-08-25 (the latest revision; scholarfeed also lists 1702.07476v3; a stored v2 PDF is stamped "
          "15 Mar 2017).  'Proposition 3' (page 5 of the arXiv PDF) is also what OpenDP's source cites.  The Laplace "
          "row (Table II) and the randomized-response section cited in spec/ were not checked against v3: "
          "dp_accounting's _laplace_rdp cites 'Proposition 6 of Mironov (2017)' for the same formula, no version."),
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
          "J. R. Stat. Soc. Series B 84(1):3-37 (with discussion)", 2022, "1905.02383", "v3", True,
          "Journal data and arXiv id as cited in spec/filters.py and citing repositories.  Revision: the arXiv abstract "
          "page of 1905.02383 (a mirror of arxiv.org/abs, read with the search tool) says '[Submitted on 7 May 2019 "
          "(v1), last revised 30 May 2019 (this version, v3)]', and its v1 page says 'latest version 30 May 2019 "
          "(v3)'.  The numbers in spec/ are arXiv (2019) numbers, not the journal's: riskcal's conversions cite "
          "'Dong et al. (2019), Corollary 2.13. https://arxiv.org/abs/1905.02383' for delta(eps) = Phi(-eps/mu + "
          "mu/2) - e^eps Phi(-eps/mu - mu/2) and autodp's fdp_to_approxdp 'Proposition 2.12 of Dong, Roth and Su' "
          "for the primal-dual conversion, while the fdp R package cites the same delta(eps) as 'Corollary 1 (p.16) "
          "of Dong et al. (2022)' (the JRSS-B numbering).  Definition 2.5 (G_mu, mu-GDP) and Proposition 2.5 "
          "(f_{eps,delta}) follow the issue's citations and were not checked against v3 (riskcal cites G_mu and "
          "f_{eps,delta} as 'Eq. 6' and 'Eq. 5'); nothing here relies on the numbers: each formula is proved in "
          "proofs_check."),
    Paper("ZDW22", ("Yuqing Zhu", "Jinshuo Dong", "Yu-Xiang Wang"),
          "Optimal Accounting of Differential Privacy via Characteristic Function",
          "Proceedings of the 25th International Conference on Artificial Intelligence and Statistics (AISTATS "
          "2022), PMLR 151", 2022, "2106.08567",
          "v3", True,
          "arXiv id, title and authors from the abstract pages (search tool).  Revision: the export.arxiv.org "
          "abstract page of 2106.08567 reads 'arXiv:2106.08567v3 [cs.LG] for this version' with the submission "
          "history '[v1] Wed, 16 Jun 2021', '[v2] Mon, 1 Nov 2021', '[v3] Tue, 31 May 2022' (scholarfeed and "
          "emergentmind also list 2106.08567v3).  Only abstracts were read: 'Appendix F.3' (the conjecture that the "
          "intersection of single-order RDP regions is the optimal RDP -> f-DP conversion) is where RGCSK26's abstract "
          "locates it, and the Poisson-subsampling dominating-pair statement is cited without a number; neither was "
          "checked against the v3 text."),
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
          "journal version IEEE Trans. Inf. Theory 63(6):4037-4049, 2017", 2015, "1311.0776", "v4", True,
          "Revision: the pith.science record of arXiv:1311.0776 (page and graph.json, read with the search tool) "
          "gives 'arxiv:1311.0776 v4' (source version 4, first submitted 2013-11-04) as the current revision; its "
          "date was not found.  'Theorem 3.3' (optimal homogeneous composition) is what dp_accounting's PLD "
          "accountant and Google's differential-privacy library cite ('Theorem 3.3 of "
          "https://arxiv.org/pdf/1311.0776.pdf', no version) and what the ICML supplementary material proves "
          "('5 Proof of Theorem 3.3', a stored copy); Theorems 2.2 and 3.5 are not checked against v4."),
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
          "number and exact wording were not reached; no arXiv listing of the revisions was found (searched again: "
          "arcxiv, aitopics ('Oct-31-2022'), tomesphere and ar5iv copies only, none with a revision number)."),
    Paper("LEC21", ("Mathias Lecuyer",),
          "Practical Privacy Filters and Odometers with Renyi Differential Privacy and Applications to "
          "Differentially Private Deep Learning", "arXiv preprint", 2021, "2103.01379",
          "v2", True,
          "arXiv id, title and revisions from the arXiv abstract page of arXiv:2103.01379v2 ('Submitted on 2 Mar 2021 "
          "(v1), last revised 4 Jun 2021 (this version, v2)'), read with the search tool: the version cited "
          "is v2, the latest.  Only the "
          "abstract was read, so no theorem number is cited.  The delta split across orders used here is "
          "proved in proofs_check "
          "(lec21.multi_order.union_bound), not taken from the paper."),
    Paper("MV16", ("Jack Murtagh", "Salil Vadhan"),
          "The Complexity of Computing the Optimal Composition of Differential Privacy",
          "Theory of Cryptography (TCC 2016-A), LNCS 9562; journal version Theory of Computing 14(8):1-35, 2018", 2016,
          "1507.03113", _NV, False,
          "Title, authors, venues and the abstract (optimal composition of (eps_1, delta_1), ..., (eps_k, delta_k), "
          "#P-complete in general) from the Theory of Computing abstract page (v014a008) and the Harvard privacy "
          "tools record, read with the search tool; the journal article was 'Received: May 30, 2016; Revised: July 29, "
          "2017; Published: June 2, 2018' (ToC page).  No arXiv listing of 1507.03113's revisions was found, so the "
          "arXiv revision and the theorem number stay unchecked."),
    Paper("MTZ19", ("Ilya Mironov", "Kunal Talwar", "Li Zhang"),
          "Renyi Differential Privacy of the Sampled Gaussian Mechanism", "arXiv preprint", 2019, "1908.10530",
          "v1", True,
          "arXiv id and title from the arxiv-vanity and ar5iv renderings of arXiv:1908.10530 (abstract and opening "
          "read with the search tool).  Revision: scholarfeed lists 'arXiv:1908.10530v1' (Aug 28, 2019) as the "
          "paper's revision, and it lists the latest revision for the papers checked against arXiv listings "
          "(1605.08294v3, 1702.07476v3, 2106.08567v3); no later revision was found anywhere, so the unversioned "
          "links in dp_accounting ('Computation derived in Sec 3.3 of https://arxiv.org/pdf/1908.10530', "
          "_compute_log_a_frac) and Opacus ('Refer to Section 3.3 of https://arxiv.org/pdf/1908.10530.pdf', on both "
          "_compute_log_a_for_int_alpha and _compute_log_a_for_frac_alpha) resolve to v1.  Both libraries cite "
          "Section 3.3 -- Opacus for the integer-order binomial sum too; no source read cites a Section 3.1, so "
          "spec/ cites Section 3 and 3.3.  The section text itself was not read.  A_alpha >= B_alpha is proved here "
          "(proofs_check mechanisms.sgm.rdp.a_ge_b), not taken from the paper."),
    Paper("BBG18", ("Borja Balle", "Gilles Barthe", "Marco Gaboardi"),
          "Privacy Amplification by Subsampling: Tight Analyses via Couplings and Divergences",
          "Advances in Neural Information Processing Systems 31 (NeurIPS 2018)", 2018, "1807.01647", "v2", True,
          "arXiv id and title from the search tool (the LaTeX source text '1807.01647v2' in Google's SPIQA data set, "
          "whose introduction was read, and the deepai/groundai renderings of the abstract and introduction); it "
          "introduces privacy profiles delta_M(eps).  Revision: the pith.science record of arXiv:1807.01647 "
          "(graph.json) gives source version 2 as the current revision (submitted 2018-07-04).  The "
          "Laplace mechanism's profile is not quoted from it: mechanisms.laplace.delta is derived and proved in "
          "proofs_check."),
    Paper("LRKS24", ("Christian Janos Lebeda", "Matthew Regehr", "Gautam Kamath", "Thomas Steinke"),
          "Avoiding Pitfalls for Privacy Accounting of Subsampled Mechanisms under Composition",
          "arXiv preprint", 2024, "2405.20769", "the arXiv revision rendered by ar5iv, number not verified", False,
          "arXiv id, title, authors and abstract from the search tool (the ar5iv rendering of 2405.20769 and the "
          "sciencestack record): Poisson subsampling and sampling without replacement give different guarantees "
          "(eps about 1 against above 10 at DP-SGD-like settings), and the worst-case datasets of one step need not "
          "give the composition.  Only the abstract and the summary were read: no statement is taken from it; the "
          "dominating pairs dpbounds uses under substitution are proved in proofs_check "
          "(composition.sgm.substitution_*)."),
    Paper("KTH23", ("Antti Koskela", "Marlon Tobaben", "Antti Honkela"),
          "Individual Privacy Accounting with Gaussian Differential Privacy",
          "The Eleventh International Conference on Learning Representations (ICLR 2023), OpenReview JmC_Tld3v-f",
          2023, "2209.15596",
          "v2", True,
          "Authors, title, venue and arXiv id from the OpenReview page (forum JmC_Tld3v-f, 'ICLR 2023 poster'), the "
          "ICLR 2023 proceedings text and the authors' repository DPBayes/individual-accounting-gdp (README bibtex: "
          "CoRR abs/2209.15596).  Revisions: an arXiv API listing in a public repository gives "
          "arxiv.org/abs/2209.15596v2, published 2022-09-30, updated 2023-08-24 (the latest revision); the LaTeX "
          "source text '2209.15596v2' in Google's SPIQA data set was read as far as its introduction.  "
          "The search tool shows only the "
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
          "arXiv metadata (arxitics JSON of 1906.03049: 'revisions': [v1, 2019-06-07], title 'Computing Exact "
          "Guarantees for Differential Privacy', as of its crawl) and the scholarfeed page of 1906.03049v2; no arXiv "
          "listing with v2's date was found, so the revision stays unverified.  Only abstracts were read.  "
          "Cited for the PLD/FFT accounting of the subsampled Gaussian that dpbounds "
          "brackets (its float FFT is not used: dpbounds convolves directly, with a proved error bound)."),
    Paper("KJPH21", ("Antti Koskela", "Joonas Jalko", "Lukas Prediger", "Antti Honkela"),
          "Tight Differential Privacy for Discrete-Valued Mechanisms and for the Subsampled Gaussian Mechanism Using "
          "FFT", "Proceedings of the 24th International Conference on Artificial Intelligence and Statistics "
          "(AISTATS 2021), PMLR 130", 2021, "2006.07134", "version not verified (researchtrend lists v2)", False,
          "Abstract pages (deepai, researchtrend 2006.07134v2): rigorous lower and upper bounds for the subsampled "
          "Gaussian's (eps, delta) from moment bounds of the discretized PLD.  deepai shows the first title 'Tight "
          "Approximate Differential Privacy for Discrete-Valued Mechanisms Using FFT' (06/12/2020); the ar5iv "
          "rendering (latest revision) carries the AISTATS title; no arXiv listing of the revisions was found.  Only "
          "the abstract was read."),
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
