"""The quotations every proof-check claim rests on, stored in the package (nothing is read from outside it).

Each :class:`Quote` is an exact, short quotation from one of the seed texts (the papers as the project received
them, in ``shared/seeds/`` beside the repository): the paper key (see :mod:`dpbounds.spec.papers`), the location in
the paper, the seed file and where in it (a line number, or a character offset for the WRRW23 seed, which is a
single line), and the text.  Claims cite quotes by key (``@claim(..., quotes=(...))``) and decide "does the paper
write X" questions on the stored text, so the verdicts are the same on every install.

Verbatim, up to whitespace: a quote matches its seed after both are normalised by :func:`normalize` (every run of
whitespace, newlines included, becomes one space; nothing else changes -- no case folding, no Unicode
normalisation).  A quote may elide: its parts are separated by ``" [...] "`` and occur in the seed in this order,
each within 3000 normalised characters of the end of the previous part.  ``tests/test_quotes.py`` checks every quote
against the seed texts when they are present.  The seed texts are HTML/PDF extractions: formulas appear as LaTeX
(seeds 000, 001, 004) or as the flattened text that survived (seed 003), and are quoted as they stand.
"""

from __future__ import annotations

from dataclasses import dataclass
from dpbounds.spec.papers import render_citation

#: seed files stored as a single line: a quote's ``at`` is a character offset into them, not a line number
ONE_LINE_SEEDS = frozenset({"003_8948d815f0b87bba.txt"})
ELISION = " [...] "


def normalize(text: str) -> str:
    """``text`` with every run of whitespace replaced by one space and the ends stripped."""
    return " ".join(text.split())


@dataclass(frozen=True)
class Quote:
    """An exact quotation: paper key, location in the paper, seed file, line (or offset) in it, and the text."""

    key: str
    paper: str    # key into dpbounds.spec.papers.PAPERS
    where: str    # location in the paper: theorem, equation, proof line
    seed: str     # the seed file the text is quoted from
    at: int       # 1-based line of the seed where the quote starts (character offset for ONE_LINE_SEEDS)
    text: str     # verbatim up to whitespace; ELISION separates parts quoted in order

    @property
    def unit(self) -> str:
        return "offset" if self.seed in ONE_LINE_SEEDS else "line"

    def parts(self) -> list[str]:
        """The normalised parts of the quotation (one unless it elides)."""
        return [normalize(p) for p in self.text.split(ELISION)]

    def contains(self, fragment: str) -> bool:
        """True iff ``fragment`` (normalised) occurs in one part of the quotation."""
        frag = normalize(fragment)
        return any(frag in p for p in self.parts())

    def locator(self) -> str:
        """'seed 000_6d22f6a3880a066d.txt, line 352' (or ', offset 19500')."""
        return f"seed {self.seed}, {self.unit} {self.at}"

    def citation(self) -> str:
        """The paper's full citation with this quote's location (dpbounds.spec.papers.render_citation)."""
        return render_citation(self.paper, self.where) + f" [{self.locator()}]"

    def record(self) -> dict:
        return {"key": self.key, "paper": self.paper, "where": self.where, "seed": self.seed, "at": self.at,
                "unit": self.unit, "text": self.text, "citation": self.citation()}


_R = "000_6d22f6a3880a066d.txt"
_N = "001_67d4c89f55229a83.txt"
_W = "003_8948d815f0b87bba.txt"
_F = "004_8eb651b0fc92abd6.txt"

QUOTES: dict[str, Quote] = {q.key: q for q in (
    # ---------------------------------------------------------------------------------- RRUV16
    Quote('rruv16.lemma2_3', 'RRUV16', 'Lemma 2.3, second sentence', _R, 67,
          'Also, if [...] X\\approx_{\\varepsilon,\\delta}Y then [...] \\left(2\\varepsilon,\\frac{2\\delta}{e^{\\varepsilon}\\varepsilon}\\right)-point-wise indistinguishable.'),
    Quote('rruv16.thm2_10', 'RRUV16', 'Theorem 2.10 (Advanced Composition), display', _R, 131,
          '\\varepsilon_{g}=\\varepsilon\\left(e^{\\varepsilon}-1\\right)k+\\varepsilon\\sqrt{2k\\log(1/\\hat{\\delta})},\\quad\\text{ and }\\quad\\delta_{g}=k\\delta+\\hat{\\delta}.'),
    Quote('rruv16.thm4_5.statement', 'RRUV16', 'Theorem 4.5, display', _R, 309,
          '\\mathbb{P}\\left[|M_{k}|\\geq\\sqrt{\\frac{U^{2}_{k}}{2}\\log(1/\\beta)}\\quad\\text{ and }\\quad c\\leq\\sqrt{\\frac{U^{2}_{k}}{4}}\\leq t\\cdot c\\right]\\leq 2\\sqrt{e}\\left(\\beta+2\\log(t)\\sqrt{0.74\\ \\beta}\\right)'),
    Quote('rruv16.thm4_5.proof', 'RRUV16', 'proof of Theorem 4.5 (one line)', _R, 312,
          'We use the fact that [...] is maximized at [...] and has value no more than 0.37'),
    Quote('rruv16.lemma4_6', 'RRUV16', 'Lemma 4.6', _R, 322,
          '\\mu_{i}\\leq\\varepsilon_{i}\\left(e^{\\varepsilon_{i}}-1\\right)/2.'),
    Quote('rruv16.thm5_1.x', 'RRUV16', 'Theorem 5.1, the choice of x before eq. (6)', _R, 330,
          'x=\\frac{\\varepsilon_{g}^{2}}{28.04\\cdot\\log(1/\\delta_{g})}'),
    Quote('rruv16.thm5_1.eq6', 'RRUV16', 'Theorem 5.1, eq. (6)', _R, 332,
          '\\mathcal{K}\\stackrel{{\\scriptstyle\\text{def}}}{{=}}\\sum_{j=1}^{k}\\varepsilon_{j}\\left(\\frac{e^{\\varepsilon_{j}}-1}{2}\\right)+\\sqrt{2\\left(\\sum_{i=1}^{k}\\varepsilon_{i}^{2}+x\\right)\\left(1+\\frac{1}{2}\\log\\left(\\frac{\\sum_{i=1}^{k}\\varepsilon_{i}^{2}}{x}+1\\right)\\right)\\log(1/\\delta_{g})}. (6)'),
    Quote('rruv16.thm5_1.proof_penultimate', 'RRUV16', 'proof of Theorem 5.1, last display, first line', _R, 352,
          '\\displaystyle\\leq\\sum_{i=1}^{k}\\mu_{i}+\\sqrt{2\\left(\\sum_{i=1}^{k}\\varepsilon_{i}^{2}+x\\right)'),
    Quote('rruv16.thm5_1.proof_last', 'RRUV16', 'proof of Theorem 5.1, last display, last line', _R, 353,
          '\\displaystyle\\leq\\sum_{i=1}^{k}\\varepsilon_{i}\\left(e^{\\varepsilon_{i}}-1\\right)+\\sqrt{2\\left(\\sum_{i=1}^{k}\\varepsilon_{i}^{2}+x\\right)\\left(1+\\frac{1}{2}\\log\\left(\\frac{\\sum_{i=1}^{k}\\varepsilon_{i}^{2}}{x}+1\\right)\\right)\\log(1/\\delta_{g})}.'),
    Quote('rruv16.thm5_1.remark_near_optimal', 'RRUV16', 'remark after Theorem 5.1', _R, 338,
          'Note that there may be better choices for the constant 28.04 [...] but for the case when [...] \\varepsilon_{g}=\\varepsilon\\sqrt{8k\\log(1/\\delta_{g})} and [...] it is nearly optimal.'),
    Quote('rruv16.lemma6_4', 'RRUV16', 'Lemma 6.4, display', _R, 445,
          '\\mathtt{COMP}_{\\delta_{g}}(\\varepsilon_{1},0,\\varepsilon_{2},0,\\cdots,\\varepsilon_{k},0)=\\sum_{j=1}^{k}\\varepsilon_{j}\\left(e^{\\varepsilon_{j}}-1\\right)/2+\\sqrt{2\\left(\\sum_{i=1}^{k}\\varepsilon_{i}^{2}+x\\right)\\left(1+\\frac{1}{2}\\log\\left(\\frac{\\sum_{i=1}^{k}\\varepsilon_{i}^{2}}{x}+1\\right)\\right)\\log(2/\\delta_{g})}.'),
    Quote('rruv16.thm6_5.footnote7', 'RRUV16', 'Theorem 6.5, footnote 7', _R, 456,
          'This bound is different from what appeared in [15], which had [...] 2\\sqrt{\\sum_{i=1}^{k}\\varepsilon_{i}^{2}\\left(1+\\log(\\sqrt{3})\\right)\\log\\left(\\frac{4\\log_{2}(n)}{\\delta_{g}}\\right)} instead of the term [...] in (11), which is an improvement when [...] n\\geq 10 and [...] \\delta_{g}<1/2'),
    Quote('rruv16.thm6_5.eq11', 'RRUV16', 'Theorem 6.5, eq. (11)', _R, 460,
          '\\sqrt{2\\sum_{i=1}^{k}\\varepsilon_{i}^{2}\\left(\\log(110e)+2\\log\\left(\\frac{\\log(n)}{\\delta_{g}}\\right)\\right)} (11)'),
    Quote('rruv16.thm6_5.eq12', 'RRUV16', 'Theorem 6.5, eq. (12)', _R, 464,
          '\\sqrt{2\\left(1/n^{2}+\\sum_{i=1}^{k}\\varepsilon_{i}^{2}\\right)\\left(1+\\frac{1}{2}\\log\\left(1+n^{2}\\sum_{i=1}^{k}\\varepsilon_{i}^{2}\\right)\\right)\\log(4\\log_{2}(n)/\\delta_{g})}. (12)'),
    Quote('rruv16.thm6_5.proof_beta_solve', 'RRUV16', 'proof of Theorem 6.5, the equation for beta', _R, 472,
          '\\delta_{g}/2=2\\sqrt{e}\\left(\\beta+2\\log(n)\\sqrt{0.74\\ \\beta}\\right), which yields,'),
    Quote('rruv16.thm6_5.proof_beta', 'RRUV16', 'proof of Theorem 6.5, the value of beta and its lower bound', _R, 474,
          '\\beta=0.74\\ \\log^{2}(n)\\left(\\sqrt{1+\\frac{\\delta_{g}}{2.96\\sqrt{e}\\log^{2}(n)}}-1\\right)^{2}\\geq 0.74\\ \\log^{2}(n)\\left(\\frac{\\delta_{g}}{9\\sqrt{e}\\log^{2}(n)}\\right)^{2}'),
    Quote('rruv16.thm6_5.proof_sqrt_ineq', 'RRUV16', 'proof of Theorem 6.5, after the value of beta', _R, 476,
          'where the inequality is due to [...] \\sqrt{1+x}\\geq 1+x/3 for [...] This gives the stated bound in (11).'),
    Quote('rruv16.thm6_5.proof_eq12', 'RRUV16', 'proof of Theorem 6.5, the display for (12)', _R, 480,
          '|M_{k}|\\leq\\sum_{j=1}^{k}\\sqrt{2\\left(1/n^{2}+\\sum_{i=1}^{k}\\varepsilon_{i}^{2}\\right)\\left(1+\\frac{1}{2}\\log\\left(1+n^{2}\\sum_{i=1}^{k}\\varepsilon_{i}^{2}\\right)\\right)\\log(2\\log_{2}(n)/\\delta_{g})}.'),
    Quote('rruv16.thm6_5.granularity_remark', 'RRUV16', 'remark after the proof of Theorem 6.5 (granularity parameter)', _R, 482,
          'More generally, we can replace [...] with an arbitrary “granularity parameter” [...] When doing so, [...] \\log_{2}(n^{2})/\\delta_{g} in (11) will be replaced with [...] \\log_{2}(1/\\gamma)/\\delta_{g}.'),
    # ---------------------------------------------------------------------------------- Nikolov17
    Quote('nikolov17.thm2', 'Nikolov17', 'Theorem 2 (Advanced Composition), statement', _N, 13,
          "then M(x) is (ϵ', δ) -DP for all δ and $\\epsilon' = \\sqrt{2k \\log 1/\\delta} + k(e^{\\epsilon} - 1)$."),
    Quote('nikolov17.thm2.proof_eq6', 'Nikolov17', 'proof of Theorem 2, eq. (6)', _N, 88,
          '$$\\mathbb{P}\\left(\\sum_{i=1}^{k} Z_i > k\\epsilon(e^{\\epsilon} - 1) + \\epsilon\\sqrt{2\\log 1/\\delta k}\\right) < \\delta,\\tag{6}$$'),
    Quote('nikolov17.lemma6', 'Nikolov17', 'Lemma 6, statement', _N, 46,
          'It follows that $D_{KL}(X||Y) \\leq \\epsilon(e^{\\epsilon}-1) \\approx \\epsilon^2$.'),
    Quote('nikolov17.lemma6.proof_last', 'Nikolov17', 'proof of Lemma 6, last display', _N, 58,
          '\\leq \\epsilon \\sum_{r} (e^{\\epsilon} - 1) \\cdot \\min \\left\\{ q_r, p_r \\right\\} \\leq \\epsilon (e^{\\epsilon} - 1)$$'),
    Quote('nikolov17.thm7', 'Nikolov17', 'Theorem 7 (Azuma), eq. (4)', _N, 60,
          'Let $Z_1, ..., Z_k \\in \\mathbb{R}$ be random variables such that $\\forall i |Z_i| \\leq \\alpha$ and $\\mathbb{E}[Z_i|Z_1 = z_1, ..., Z_{i-1} = z_{i-1}] \\leq \\beta$. Then : $$\\mathbb{P}\\left(\\sum_{i} Z_{i} > k\\beta + t\\sqrt{k\\alpha}\\right) \\le \\exp\\left(-\\frac{t^{2}}{2}\\right)$$'),
    # ---------------------------------------------------------------------------------- FZ21
    Quote('fz21.fact2_4', 'FZ21', 'Fact 2.4', _F, 93,
          'If algorithm \\mathcal{A} is (α, ρ) -RDP, then it is also $(\\rho + \\frac{\\log(1/\\delta)}{\\alpha-1}, \\delta)$ -DP, for any $\\delta \\in (0, 1)$.'),
    Quote('fz21.thm4_7.statement', 'FZ21', 'Theorem 4.7, statement', _F, 424,
          '\\text{CONT, if } \\frac{1}{2} \\sum_{t=1}^k \\varepsilon_t^2 \\leq B^*, \\\\ \\text{HALT, if } \\frac{1}{2} \\sum_{t=1}^k \\varepsilon_t^2 > B^*.'),
    Quote('fz21.thm4_7.proof', 'FZ21', 'proof of Theorem 4.7', _F, 434,
          'Optimizing over α and solving for B^* such that $\\min_{\\alpha} \\alpha B^* + \\frac{\\log(1/\\delta_g)}{\\alpha-1} = \\varepsilon_g$ yields $B^* = \\left(-\\sqrt{\\log(1/\\delta_g)} + \\sqrt{\\log(1/\\delta_g) + \\varepsilon_g} \\right)^2$.'),
    Quote('fz21.thm4_7.fixed_rate', 'FZ21', 'paragraph after the proof of Theorem 4.7', _F, 438,
          '$$\\left(\\frac{1}{2} k \\varepsilon^2 + \\sqrt{2k \\log(1/\\delta)} \\varepsilon, \\delta \\right) \\text{-differential privacy,}$$'),
    Quote('fz21.thm4_7.rruv_rate', 'FZ21', 'paragraph after the proof of Theorem 4.7 (on Rogers et al.)', _F, 442,
          'their rate is greater than $\\left(\\frac{1}{2} k \\varepsilon (e^\\varepsilon - 1) + \\sqrt{2k \\log(1/\\delta)} \\varepsilon, \\delta \\right)$ by a significant constant factor.'),
    Quote('fz21.prop6_1', 'FZ21', 'Proposition 6.1', _F, 594,
          'Private gradient descent (Algorithm 7) satisfies $\\frac{k}{2\\sigma^2}$ -zCDP'),
    Quote('fz21.sec6.delta', 'FZ21', 'Section 6, first paragraph', _F, 608,
          'We set $\\delta = 10^{-5}$, and vary the value of ε .'),
    Quote('fz21.sec6.mnist_eps0_3', 'FZ21', 'Section 6.1 (MNIST), eps = 0.3', _F, 623,
          'For $\\epsilon = 0.3$, we set $\\sigma = 170$, $C = 10$, $\\eta_t \\equiv \\eta = 0.2$, and $k = 104$ for private GD without filtering. [...] we set $B_{\\text{norm}} = kC^2 = 10400$, and we increase the total number of steps by 20%, i.e. $k_{\\max} = 125 \\approx 1.2k$.'),
    Quote('fz21.sec6.mnist_eps0_5', 'FZ21', 'Section 6.1 (MNIST), eps = 0.5', _F, 625,
          'For $\\epsilon = 0.5$, we set $\\sigma = 130$, $C = 15$, $\\eta_t \\equiv \\eta = 0.15$, and $k = 180$ for private GD without filtering. [...] we set $B_{\\text{norm}} = kC^2 = 40500$, and we increase the total number of steps by 10%, i.e. $k_{\\max} = 1.1k = 198$.'),
    Quote('fz21.sec6.mnist_eps1_2', 'FZ21', 'Section 6.1 (MNIST), eps = 1.2', _F, 630,
          'For $\\epsilon = 1.2$, we set $\\sigma = 88$, $C = 10$, $\\eta_t \\equiv \\eta = 0.25$, and $k = 460$ for private GD without filtering.'),
    Quote('fz21.sec6.mnist_eps3_0', 'FZ21', 'Section 6.1 (MNIST), eps = 3.0', _F, 634,
          'For $\\varepsilon = 3.0$, we set $\\sigma = 50$, $C = 10$, $\\eta_t \\equiv \\eta = 0.25$, and $k = 875$ for private GD without filtering.'),
    Quote('fz21.sec6.adult_eps0_3', 'FZ21', 'Section 6.2 (Adult), eps = 0.3', _F, 652,
          'For $\\varepsilon = 0.3$, we set $\\sigma = 455.34$, $C = 3.70$, $\\eta_t \\equiv \\eta = 1.5$, and $k = 800$ for private GD without filtering. [...] i.e. $k_{\\text{max}} = 960 = 1.2k$.'),
    Quote('fz21.sec6.adult_eps0_5', 'FZ21', 'Section 6.2 (Adult), eps = 0.5', _F, 654,
          'For $\\varepsilon = 0.5$, we set $\\sigma = 433.80$, $C = 3.70$, $\\eta_t \\equiv \\eta = 1.5$, and $k = 2000$ for private GD without filtering. [...] i.e. $k_{\\text{max}} = 1.05k = 2100$.'),
    Quote('fz21.sec6.adult_eps1_0', 'FZ21', 'Section 6.2 (Adult), eps = 1.0', _F, 656,
          'For $\\varepsilon = 1.0$, we set $\\sigma = 613.49$, $C = 3.70$, $\\eta_t \\equiv \\eta = 2$, and $k = 4000$ for private GD without filtering. [...] i.e. $k_{\\text{max}} = 1.2k = 4800$.'),
    Quote('fz21.sec6.adult_eps1_2', 'FZ21', 'Section 6.2 (Adult), eps = 1.2', _F, 658,
          'For $\\varepsilon = 1.2$, we set $\\sigma = 259.33$, $C = 3.70$, $\\eta_t \\equiv \\eta = 2$, and $k = 4000$ for private GD without filtering, [...] i.e. $k_{\\text{max}} = 1.03k = 4120$.'),
    Quote('fz21.sec6.odometer', 'FZ21', 'Section 6.1, the paragraph before Figure 2', _F, 636,
          'We set $\\alpha = 63$ (which approximately optimizes the conversion from RDP to DP via Fact 2.4), and $\\Delta = 0.00109 \\approx \\alpha/\\sigma^2$. [...] the highest individual odometer values are around 0.135, and RDP loss of 0.135 translates to $\\varepsilon \\approx 0.32$'),
    Quote('fz21.sec6.figure2', 'FZ21', 'Figure 2 caption', _F, 639,
          'Figure 2: Histogram of individual privacy odometers at step $k/2 = 52$ (left), $k = 104$ (middle), and $k_{\\text{max}} = 125$ (right).'),
    # ---------------------------------------------------------------------------------- WRRW23
    Quote('wrrw23.informal_thm1', 'WRRW23', 'Section 1, Informal Theorem 1', _W, 10736,
          'If a data analyst stops in- teracting with the data before q m n+1 ϵ2m + m n+1 ϵ2 m > ϵ, then the entire interaction is (ϵ, δ)-DP.'),
    Quote('wrrw23.slight_gap', 'WRRW23', 'Section 1, after Informal Theorem 1', _W, 11002,
          'The only difference is a slight gap in the lower order term, as ϵ eϵ 1 eϵ+1 1 2ϵ2. (In fact the difference between the left and right hand sides is O(ϵ4), as can be checked with a Taylor expansion.)'),
    Quote('wrrw23.lemma1', 'WRRW23', 'Lemma 1 (Bun and Steinke, 2016)', _W, 18906,
          'If A satisfies (ϵ, δ)-DP, then A satisfies δ-approximate 1 2ϵ2-z CDP. If A satisfies δ-approximate ρ-z CDP, then A satisfies (ρ + 2 p ρ ln(1/δ ), δ + (1 δ)δ )-DP.'),
    Quote('wrrw23.thm2', 'WRRW23', 'Theorem 2 ((eps, delta)-DP filter)', _W, 19500,
          'Let ϵ > 0 and δ = δ + δ be target privacy parameters such that δ > 0, δ 0. Let N : R 0 R 0 N be given by N((ϵn)n 1, (δn)n 1) := v u u t2 log 1 m n+1 ϵ2m + 1 m n+1 ϵ2 m or δ < X Then, the algorithm A1:N( )( ) : X Y is (ϵ, δ)-DP'),
    Quote('wrrw23.thm3', 'WRRW23', 'Theorem 3, items 1-3', _W, 29394,
          '1. Filter odometer. For any ϵ > 0, let y := q δ + ϵ 2 . Define the functions (u F n )n 1 by u F n (ϵ1:n, δ1:n) := δ ) 2 y Vn + 1 2Vn otherwise. 2. Mixture odometer. For any γ > 0, define the sequence of functions (u M n )n 1 by u M n (ϵ1:n, δ1:n) := 2 log 1 δ q γ (γ + Vn) + 1 2Vn otherwise. 3. Stitched odometer. For any v0 > 0, define the sequence of functions (u S n)n 1 by u S n(ϵ1:n, δ1:n) := n > N or Vn < v0 Vn log log 2Vn + 0.72 log 5.2'),
    Quote('wrrw23.thm3.tangent', 'WRRW23', 'Section 4, after Theorem 3 (Figure 3)', _W, 35479,
          'Our filter [...] odometer lies tangent to the advanced composition curve, as expected from Section 5.2 of Howard et al. (2020).'),
    Quote('wrrw23.lemma3', 'WRRW23', 'Lemma 3 (Theorem 6.5 in Rogers et al. (2016))', _W, 31454,
          'u R n (ϵ1:n, δ1:n) := 2Vn log(110e) + 2 log log(|x|) 2 Vn n N, Vn 1 |x|2 , 1 2 1 |x|2 + Vn 2 log 1 + |x|2Vn log log 4 δ log2(|x|) + 1 where |x| denotes the number of elements in dataset x.'),
    Quote('wrrw23.thm4', 'WRRW23', 'Appendix B, Theorem 4', _W, 49635,
          'The following Theorem 4 is just a special case of the main result in Howard et al. (2020), and we include the proof for completeness.'),
    Quote('wrrw23.thm5', 'WRRW23', 'Appendix B, Theorem 5', _W, 52508,
          'Define Vn := P m n σ2 m and choose a tuning parameter γ > 0. Then, for any δ > 0, we have v u u t2(Vn + γ) log'),
    Quote('wrrw23.thm6', 'WRRW23', 'Appendix B, Theorem 6 and the note after it', _W, 53374,
          'Then, for any δ (0, 1), we have n N : Mn 1.7 log log 2Vn + .72 log 5.2 Note that the original version of Theorem 6 as found in Howard et al. (2021) has more free parameters to optimize over, but we have already simplified the expression to make the result more readable.'),
    Quote('wrrw23.lemma10', 'WRRW23', 'Appendix D, Lemma 10 (Proposition 3.3 in Bun and Steinke (2016))', _W, 59135,
          'Suppose A and B are algorithms such that A is ϵdifferentially private conditioned on B. Then, for any input dataset x X and neighboring dataset x x, we have that E (L(x, x )|B(x)) 1 2 (ϵ(B(x)))2 .'),
    Quote('wrrw23.appF', 'WRRW23', 'Appendix F', _W, 72957,
          'In this appendix, we construct a simple algorithm taking binary inputs that satisfies (ϵ, δ)-DP but not (ϵ, δ)-p DP.'),
)}


def quote(key: str) -> Quote:
    """The stored quotation with this key; KeyError naming the key otherwise."""
    try:
        return QUOTES[key]
    except KeyError:
        raise KeyError(f"unknown quote {key!r}") from None
