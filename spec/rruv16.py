"""RRUV16 -- Rogers, Roth, Ullman, Vadhan, "Privacy Odometers and Filters: Pay-as-you-Go Composition".

Seeds: ``000_6d22f6a3880a066d.txt`` (arXiv text with LaTeX; the reference for every formula here) and
``002_ecc3f503dc6836cc.txt`` (the same paper with formulas stripped; used only to cross-check numbering -- the
theorem, lemma, equation and footnote numbers agree between the two).  "seed line N" below is a line of seed 000.

Reference numbers of the seed: [2] Chen-Wang-Xu-Miao 2014, [4] Dwork-Kenthapadi-McSherry-Mironov-Naor 2006,
[5] de la Pena-Klass-Lai 2004, [6] Dwork-McSherry-Nissim-Smith 2006, [7] Dwork-Rothblum 2016 (Concentrated DP),
[8] Dwork-Rothblum-Vadhan 2010, [10] Kairouz-Oh-Viswanath 2015, [11] Kasiviswanathan-Smith 2014,
[12] Ledoux-Talagrand 1991, [15] RRUV NIPS 2016, [16] van de Geer 2002 (listed only in seed 002; the reference
list of seed 000 stops at [15]).

Conventions: log is natural; log2(n) is written ``log(n)/log(2)``.  V = sum eps_i^2, A = sum eps_i (e^eps_i - 1)/2,
S = sum eps_i, D = sum delta_i, KOV = sum eps_i tanh(eps_i/2); V2, A2, S2 are the same at 2 eps_i and LIFT =
sum 2 delta_i/(eps_i e^eps_i) (see :mod:`spec.aggregates`).  For the Section 4 martingale bounds, V stands for
U_k^2/4 (Theorems 4.4, 4.5) or B^2 (Theorem 4.1): in the privacy application U_k^2 = 4 sum eps_i^2 (seed line 344).
"""

from __future__ import annotations

import sympy as sp

from .core import Kind, Source, SpecEntry, register, sym

SEED = "000_6d22f6a3880a066d.txt"
PAPER = "RRUV16"

eps_g, delta_g, delta_dprime, x = sym("eps_g"), sym("delta_g"), sym("delta_dprime"), sym("x")
V, A, S, D, KOV, V2, A2, S2, LIFT = (sym(n) for n in ("V", "A", "S", "D", "KOV", "V2", "A2", "S2", "LIFT"))
eps, delta, k, dhat, n, gamma = sym("eps"), sym("delta"), sym("k"), sym("dhat"), sym("n"), sym("gamma")
s_, t_, beta = sym("s"), sym("t"), sym("beta")

#: the constant of Theorem 5.1, eq. (6): x = eps_g^2 / (28.04 log(1/delta_g))
C_THM5_1 = sp.Rational(2804, 100)
DELTA_SMALL = (delta_g > 0, delta_g < sp.exp(-1))
PURE_ROUNDS = (sp.Eq(delta, 0),)
#: Lemma 3.3: "for every delta_g' >= 0" (seed line 194 / 198)
LIFT_BUDGET = (delta_dprime >= 0,)
_LIFT_CLAIMS = ("rruv16.lemma2_3.second_conversion",)
#: the mark every as-stated Lemma 3.3 lift carries (warned on each use: dpbounds.RefutedConstantWarning)
LIFT_CAVEAT = ("rests on RRUV16 Lemma 2.3's second constant 2 delta/(eps e^eps), refuted by proofs_check "
               "(rruv16.lemma2_3.second_conversion); use the '.corrected' variant")
_LIFT_NOTE = ("  Validity rests on Lemma 2.3's second conversion (the constant 2 delta_i/(eps_i e^eps_i) in LIFT), which "
              "proofs_check refutes as printed (rruv16.lemma2_3.second_conversion); the entry implements the paper.")


def src(where: str) -> Source:
    return Source(PAPER, where, SEED)


def thm4_4_bound(Vsum: sp.Expr, xx: sp.Expr, L: sp.Expr) -> sp.Expr:
    """sqrt(2 (V + x)(1 + log(V/x + 1)/2) L): Theorem 4.4 with U_k^2/4 = V (the shape used in 5.1 and 6.4)."""
    return sp.sqrt(2 * (Vsum + xx) * (1 + sp.log(Vsum / xx + 1) / 2) * L)


# ------------------------------------------------------------------------------------------ Lemma 2.3
register(SpecEntry(
    id="rruv16.lemma2_3.pointwise_to_dp", title="(eps, delta)-pointwise indistinguishable => (eps, delta)-indist.",
    kind=Kind.CONVERSION, source=src("Lemma 2.3 ([11] Kasiviswanathan-Smith), first part"), params=("eps", "delta"),
    expr=eps, domain=(eps >= 0, delta >= 0, delta < 1), extra={"delta": delta}, monotone={"eps": +1},
    notes="Seed line 67: 'If X and Y are (eps, delta)-point-wise indistinguishable, then X ~_{eps,delta} Y.'  Output: "
          "(eps, delta) unchanged.  WRRW23 quotes the same lemma as its Lemma 2 (only the second part is registered "
          "there, as wrrw23.lemma2.dp_to_pointwise)."))
register(SpecEntry(
    id="rruv16.lemma2_3.dp_to_pointwise", title="(eps, delta)-indist. => (2 eps, 2 delta/(e^eps eps))-pointwise",
    kind=Kind.CONVERSION, source=src("Lemma 2.3 ([11] Kasiviswanathan-Smith), second part"), params=("eps", "delta"),
    expr=2 * eps, domain=(eps > 0, delta >= 0, delta < 1), extra={"delta": 2 * delta / (sp.exp(eps) * eps)},
    monotone={"eps": +1}, same_as=("wrrw23.lemma2.dp_to_pointwise",),
    proof_claims=("rruv16.lemma2_3.second_conversion",),
    notes="Seed line 67: '(2 eps, 2 delta/(e^eps eps))-point-wise indistinguishable'.  The delta blows up as eps -> 0 "
          "(a round with eps = 0 < delta cannot be converted): the source of the +oo term in Lemma 3.3's lift.  "
          "proofs_check finds the printed constant too small (a three-point counterexample; the standard "
          "Kasiviswanathan-Smith argument gives about delta e^eps/(e^eps - 1))."))

# ------------------------------------------------------------------------------------------ Thm 2.9, 2.10
register(SpecEntry(
    id="rruv16.thm2_9", title="basic composition (fixed parameters): sum eps_i, sum delta_i", kind=Kind.COMPOSITION,
    source=src("Theorem 2.9 (Basic Composition [6], [4])"), params=(), aggregates=("S", "D"), expr=S,
    extra={"delta": D}, domain=(S >= 0, D >= 0), monotone={"S": +1},
    notes="Seed line 121-123: the sequences eps_1..eps_k, delta_1..delta_k satisfy (eps_g, delta_g)-DP under adaptive "
          "composition with eps_g = sum eps_i, delta_g = sum delta_i.  Written with the aggregates S = sum eps_i and "
          "D = sum delta_i (the theorem is heterogeneous); expr = eps_g, extra delta = delta_g.  The parameters must "
          "be fixed in advance (Definition 2.8, delta_i in [0, 1)); the adaptive-parameter analogue is Theorem 3.4 "
          "(pure rounds) and its Lemma 3.3 lift.  Nikolov's Theorem 1 (nikolov17.thm1) is the homogeneous pure case "
          "k eps.", same_as=("nikolov17.thm1",)))
_drv = eps * (sp.exp(eps) - 1) * k + eps * sp.sqrt(2 * k * sp.log(1 / dhat))
register(SpecEntry(
    id="rruv16.thm2_10", title="advanced composition (Dwork-Rothblum-Vadhan), homogeneous fixed parameters",
    kind=Kind.COMPOSITION, source=src("Theorem 2.10 (Advanced Composition, [8])"), params=("eps", "delta", "k", "dhat"),
    expr=_drv, domain=(eps >= 0, delta >= 0, delta < 1, k >= 1, dhat > 0, dhat < 1), extra={"delta": k * delta + dhat},
    monotone={"eps": +1, "k": +1, "dhat": -1}, proof_claims=("rruv16.thm2_10.vs_kov",),
    same_as=("nikolov17.thm2.as_derived",),
    notes="Seed line 129-131: for any dhat > 0, eps_i = eps, delta_i = delta: eps_g = eps (e^eps - 1) k + "
          "eps sqrt(2 k log(1/dhat)), delta_g = k delta + dhat.  The seed only says dhat > 0; dhat < 1 is added "
          "because log(1/dhat) must be positive for the square root (dhat >= 1 makes delta_g >= 1, vacuous).  "
          "Nikolov's Theorem 2 as derived in its proof (eq. (6)) is the delta = 0 case; its statement drops both "
          "factors eps (nikolov17.thm2.as_stated).  KOV15's heterogeneous form (conversions.kov15.heterogeneous) has "
          "the smaller first term k eps tanh(eps/2).  The introduction (seed line 20) also quotes the simplified "
          "eps sqrt(8 k ln(1/delta)) 'provided that eps is sufficiently small'; seed line 338: it holds when "
          "k eps^2 <= 1/(8 log(1/delta_g))."))

# ------------------------------------------------------------------------------------------ Thm 3.4
register(SpecEntry(
    id="rruv16.thm3_4.odometer", title="basic composition odometer (pure DP)", kind=Kind.ODOMETER,
    source=src("Theorem 3.4"), params=(), aggregates=("S",), expr=S, per_round_domain=PURE_ROUNDS,
    monotone={"S": +1},
    notes="Seed line 230-232: for each nonnegative delta_g, COMP(eps_1, 0, ..., eps_k, 0) = sum eps_i is a valid "
          "odometer (it holds with probability 1).  With delta_i > 0 use the Lemma 3.3 lift "
          "(rruv16.lemma3_3.odometer.thm3_4)."))
register(SpecEntry(
    id="rruv16.thm3_4.filter", title="basic composition filter (pure DP)", kind=Kind.FILTER,
    source=src("Theorem 3.4"), params=("eps_g",), aggregates=("S",), expr=S, halt=S > eps_g,
    domain=(eps_g > 0,), per_round_domain=PURE_ROUNDS, monotone={"S": +1},
    notes="HALT iff the next round would make sum eps_i exceed eps_g (seed line 236).  The seed allows eps_g >= 0; "
          "the project keeps eps_g > 0 (canonical; eps_g = 0 halts on every round with eps_i > 0)."))

# ------------------------------------------------------------------------------------------ Sec. 4 concentration
register(SpecEntry(
    id="rruv16.thm4_1", title="de la Pena et al. self-normalized bound: the deviation threshold", kind=Kind.BOUNDARY,
    source=src("Theorem 4.1 (Corollary 2.2 in [5])"), params=("beta", "delta"), aggregates=("V",),
    expr=sp.sqrt((V + beta) * (2 + sp.log(V / beta + 1)) * sp.log(1 / delta)), extra={"probability": delta},
    domain=(beta > 0, delta > 0, delta <= sp.exp(-1)), monotone={"V": +1, "delta": -1},
    notes="Seed line 251-257: if E exp(lambda A - lambda^2 B^2/2) <= 1 for all real lambda (eq. (2)), then for all "
          "delta <= 1/e, beta > 0: P(|A| >= sqrt((B^2 + beta)(2 + log(B^2/beta + 1)) log(1/delta))) <= delta.  "
          "expr = the deviation threshold with V standing for B^2; extra 'probability' = delta.  delta > 0 is "
          "implicit (log(1/delta))."))
register(SpecEntry(
    id="rruv16.thm4_2", title="Chen et al. (corrected): probability bound 2 sqrt(e)(1 + 2 s log t) e^{-s^2/2}",
    kind=Kind.BOUNDARY, source=src("Theorem 4.2 (Theorem 2.4 in [2], corrected per footnote 5)"),
    params=("s", "t"), expr=2 * sp.sqrt(sp.E) * (1 + 2 * s_ * sp.log(t_)) * sp.exp(-s_**2 / 2),
    domain=(s_ >= 1, t_ >= 1), monotone={"s": -1, "t": +1}, example={"s": "3"},
    notes="Seed line 267-269: if A, B > 0 satisfy (2), then for all c > 0 and s, t >= 1: P(|A| >= s B and "
          "c <= B <= t c) <= 2 sqrt(e)(1 + 2 s log(t)) e^{-s^2/2}.  expr = the probability bound (deviation threshold "
          "s B; c does not enter the bound).  Footnote 5: the statement in [2] has sqrt(B) where B is meant (a "
          "personal communication [13] confirms).  Non-increasing in s on s >= 1: d/ds = e^{-s^2/2}(2 log t - s - "
          "2 s^2 log t) < 0."))
register(SpecEntry(
    id="rruv16.thm4_4", title="martingale form of Theorem 4.1: deviation threshold for |M_k|", kind=Kind.BOUNDARY,
    source=src("Theorem 4.4"), params=("x", "delta"), aggregates=("V",),
    expr=sp.sqrt((V + x) * (2 + sp.log(V / x + 1)) * sp.log(1 / delta)), extra={"probability": delta},
    domain=(x > 0, delta > 0, delta <= sp.exp(-1)), monotone={"V": +1, "delta": -1},
    notes="Seed line 299-301: for every fixed k >= 1, x > 0 and delta <= 1/e: P(|M_k| >= sqrt((U_k^2/4 + x)(2 + "
          "log(U_k^2/(4x) + 1)) log(1/delta))) <= delta, M_k as in (3) with the hypotheses of Theorem 4.3 "
          "(van de Geer [16]: exp(lambda M_k - lambda^2 U_k^2/8) is a supermartingale).  expr = the threshold with "
          "V = U_k^2/4, equal to sqrt(2 (V + x)(1 + log(V/x + 1)/2) log(1/delta)), the shape used in Theorem 5.1 and "
          "Lemma 6.4; extra 'probability' = delta.  It is a fixed-k bound, not time-uniform."))
register(SpecEntry(
    id="rruv16.thm4_5", title="probability bound 2 sqrt(e)(beta + 2 log(t) sqrt(0.74 beta))", kind=Kind.BOUNDARY,
    source=src("Theorem 4.5"), params=("beta", "t"),
    expr=2 * sp.sqrt(sp.E) * (beta + 2 * sp.log(t_) * sp.sqrt(sp.Rational(74, 100) * beta)),
    extra={"threshold_over_sqrt_V": sp.sqrt(2 * sp.log(1 / beta))},
    domain=(beta > 0, beta < 1, t_ >= 1), monotone={"beta": +1, "t": +1},
    proof_claims=("rruv16.thm4_5.constant_0_74",),
    notes="Seed line 307-309: for every fixed k >= 1, 0 < beta < 1, c > 0, t >= 1: P(|M_k| >= sqrt(U_k^2/2 "
          "log(1/beta)) and c <= sqrt(U_k^2/4) <= t c) <= 2 sqrt(e)(beta + 2 log(t) sqrt(0.74 beta)).  expr = the "
          "probability bound; the deviation threshold is sqrt(U_k^2/2 log(1/beta)) = sqrt(V) sqrt(2 log(1/beta)) "
          "with V = U_k^2/4 (extra 'threshold_over_sqrt_V').  It is Theorem 4.2 at s = sqrt(2 log(1/beta)); the "
          "one-line proof (seed line 312) uses x log(1/x) <= 0.37, i.e. s e^{-s^2/2} <= sqrt(0.74 beta)."))
register(SpecEntry(
    id="rruv16.lemma4_6", title="mean privacy loss mu_i <= eps_i (e^eps_i - 1)/2", kind=Kind.LEMMA,
    source=src("Lemma 4.6 ([7] Dwork-Rothblum 2016)"), params=("eps",), lhs=eps * sp.tanh(eps / 2),
    expr=eps * (sp.exp(eps) - 1) / 2, domain=(eps >= 0,), monotone={"eps": +1}, same_as=("wrrw23.lemma10",),
    proof_claims=("rruv16.lemma4_6.vs_bun_steinke",),
    notes="Seed line 318-322: mu_i = E[Loss_i | V_<i] <= eps_i (e^eps_i - 1)/2, from [7] (Dwork-Rothblum, "
          "Concentrated DP), 'improves on an earlier result from [8] (Dwork-Rothblum-Vadhan) by a factor of 2' -- "
          "that earlier bound eps (e^eps - 1) is Nikolov's Lemma 6 (nikolov17.lemma6, the mean loss is a KL "
          "divergence).  lhs: the exact conditional mean privacy loss of eps-randomized response, eps tanh(eps/2) = "
          "eps (e^eps - 1)/(e^eps + 1), which is the largest mean loss of any eps-DP mechanism (every eps-DP "
          "mechanism is a post-processing of RR_eps, Theorem 2.7, and KL divergence does not increase under "
          "post-processing).  Bun-Steinke's eps^2/2 (WRRW23 Lemma 10, wrrw23.lemma10) bounds the same quantity and is "
          "tighter for every eps > 0; same_as links the two statements about mu_i although the constants differ."))

# ------------------------------------------------------------------------------------------ Thm 5.1
_x51 = eps_g**2 / (C_THM5_1 * sp.log(1 / delta_g))
_K51 = A + thm4_4_bound(V, _x51, sp.log(1 / delta_g))
register(SpecEntry(
    id="rruv16.thm5_1", title="advanced-composition filter for pure-DP rounds", kind=Kind.FILTER,
    source=src("Theorem 5.1, eq. (6)"), params=("eps_g", "delta_g"), aggregates=("A", "V"),
    expr=_K51, halt=_K51 > eps_g, domain=(eps_g > 0,) + DELTA_SMALL, per_round_domain=PURE_ROUNDS,
    extra={"x": _x51}, monotone={"A": +1, "V": +1},
    proof_claims=("rruv16.thm5_1.statement_vs_proof", "rruv16.thm5_1.near_optimal_28_04"),
    notes="Seed line 330-336: K = sum_j eps_j (e^{eps_j}-1)/2 + sqrt(2 (V + x)(1 + log(V/x + 1)/2) log(1/delta_g)) "
          "with x = eps_g^2/(28.04 log(1/delta_g)); HALT iff K (including the next round) > eps_g; valid for "
          "delta_g in (0, 1/e), eps_g > 0.  Footnote 6: the constant was corrected from an earlier version.  The "
          "proof (seed line 353) ends with sum eps_i (e^eps_i - 1) -- without the /2 -- see rruv16.thm5_1.as_derived; "
          "the statement is what the proof's penultimate line and Lemma 4.6 give, so the statement is kept.  The "
          "remark after the theorem (seed line 338) says 'for every i in [n]' where [k] is meant.  Rounds must be "
          "pure DP; approximate-DP rounds go through rruv16.lemma3_3.filter.thm5_1."))
_K51_derived = 2 * A + thm4_4_bound(V, _x51, sp.log(1 / delta_g))
register(SpecEntry(
    id="rruv16.thm5_1.as_derived", title="Theorem 5.1's filter statistic as the proof's last line writes it "
    "(sum eps_i (e^eps_i - 1), no 1/2)", kind=Kind.FILTER, source=src("proof of Theorem 5.1, last display"),
    params=("eps_g", "delta_g"), aggregates=("A", "V"), expr=_K51_derived, halt=_K51_derived > eps_g,
    domain=(eps_g > 0,) + DELTA_SMALL, per_round_domain=PURE_ROUNDS, extra={"x": _x51},
    monotone={"A": +1, "V": +1}, proof_claims=("rruv16.thm5_1.statement_vs_proof",),
    notes="Seed line 352-353: |Loss(v)| <= sum mu_i + sqrt(...) <= sum_i eps_i (e^eps_i - 1) + sqrt(2 (V + x)(1 + "
          "log(V/x + 1)/2) log(1/delta_g)), i.e. 2A + the Theorem 4.4 term.  Eq. (6) has sum eps_j (e^eps_j - 1)/2 = "
          "A.  The last line is valid (weaker: it bounds mu_i by the pre-[7] constant eps (e^eps - 1), cf. "
          "nikolov17.lemma6) but it is not the statement; by Lemma 4.6 the statement's A is justified.  Registered "
          "so the two can be compared; as a filter it halts at least as early as rruv16.thm5_1 (2A >= A)."))

# ------------------------------------------------------------------------------------------ Lemma 3.3 filter lifts
_K51_lift = _K51.subs({A: A2, V: V2}, simultaneous=True)
register(SpecEntry(
    id="rruv16.lemma3_3.filter.thm5_1", title="Theorem 5.1 filter lifted to approximate-DP rounds",
    kind=Kind.FILTER, source=src("Lemma 3.3 (filter part) applied to Theorem 5.1"),
    params=("eps_g", "delta_g", "delta_dprime"), aggregates=("A2", "V2", "LIFT"), expr=_K51_lift,
    halt=sp.Or(_K51_lift > eps_g, LIFT > delta_dprime),
    domain=(eps_g > 0,) + DELTA_SMALL + LIFT_BUDGET, monotone={"A2": +1, "V2": +1, "LIFT": +1},
    proof_claims=_LIFT_CLAIMS, caveat=LIFT_CAVEAT,
    notes="Seed line 198-200: a valid (eps_g, delta_g + delta_dprime) filter: HALT iff sum 2 delta_i/(eps_i e^{eps_i}) "
          "> delta_dprime, else the pure filter at (2 eps_1, 0, ..., 2 eps_k, 0), i.e. HALT iff the Theorem 5.1 "
          "statistic at 2 eps_i exceeds eps_g.  delta_dprime is the seed's delta_g' (any value >= 0).  A round with "
          "eps_i = 0 < delta_i makes the lifted sum +oo, hence HALT." + _LIFT_NOTE))
register(SpecEntry(
    id="rruv16.lemma3_3.filter.thm3_4", title="basic filter lifted to approximate-DP rounds",
    kind=Kind.FILTER, source=src("Lemma 3.3 (filter part) applied to Theorem 3.4"),
    params=("eps_g", "delta_dprime"), aggregates=("S2", "LIFT"), expr=S2,
    halt=sp.Or(S2 > eps_g, LIFT > delta_dprime), domain=(eps_g > 0,) + LIFT_BUDGET,
    monotone={"S2": +1, "LIFT": +1}, proof_claims=_LIFT_CLAIMS, caveat=LIFT_CAVEAT,
    notes="The pure basic filter at 2 eps_i; a valid (eps_g, delta_dprime) filter (Theorem 3.4's filter holds for "
          "every delta_g >= 0, so delta_g = 0 here).  Plain basic composition (sum eps_i, sum delta_i) of Theorem 2.9 "
          "needs fixed parameters; for adaptive parameters the lift is what RRUV16 proves." + _LIFT_NOTE))

# ------------------------------------------------------------------------------------------ Thm 6.1
register(SpecEntry(
    id="rruv16.thm6_1", title="no odometer KOV-mean + o(sqrt(V log(log(n)/delta_g))): the ruled-out leading form",
    kind=Kind.LOWER_BOUND, source=src("Theorem 6.1, eq. (7)"), params=("n", "delta_g"), aggregates=("KOV", "V"),
    expr=KOV + sp.sqrt(V * sp.log(sp.log(n) / delta_g)), domain=(n >= 3, delta_g > 0, delta_g < 1),
    monotone={"KOV": +1, "V": +1, "delta_g": -1},
    notes="Seed line 361-363: for any delta_g in (0, O(1)) there is no valid odometer COMP_{delta_g}(eps_1, 0, ..., "
          "eps_k, 0) = sum eps_i (e^eps_i - 1)/(e^eps_i + 1) + o(sqrt(sum eps_i^2 log(log(n)/delta_g))).  The o(.) "
          "and the O(1) cannot be formulas: expr is the leading form KOV + sqrt(V log(log(n)/delta_g)) (the o-term "
          "at unit scale); the theorem says any valid odometer must exceed KOV by a non-vanishing multiple of the "
          "square-root term, for the stopping-time adversary of Algorithm 4 with k = n rounds of eps = 1/n (seed line "
          "422).  The domain n >= 3, delta_g < 1 only keeps log(log(n)/delta_g) > 0; the theorem's delta_g range is "
          "'(0, O(1))'.  The section introduction (seed line 357) states the ruled-out rate as "
          "o(eps sqrt(k log(log(n)/delta_g))) for eps = o(sqrt(log(log(n)/delta_g)/k)) without the KOV term.  The "
          "proof (seed line 432) writes COMP_{eps_g} for the odometer COMP_{delta_g}."))

# ------------------------------------------------------------------------------------------ Lemma 6.4
_U64 = A + thm4_4_bound(V, x, sp.log(2 / delta_g))
register(SpecEntry(
    id="rruv16.lemma6_4", title="odometer with a fixed tuning parameter x", kind=Kind.ODOMETER,
    source=src("Lemma 6.4"), params=("x", "delta_g"), aggregates=("A", "V"), expr=_U64,
    domain=(x > 0,) + DELTA_SMALL, per_round_domain=PURE_ROUNDS,
    monotone={"A": +1, "V": +1, "x": 0, "delta_g": -1},
    notes="Seed line 443-445: valid odometer for delta_g in (0, 1/e), any x > 0: sum eps_j (e^{eps_j}-1)/2 + "
          "sqrt(2 (V + x)(1 + log(V/x + 1)/2) log(2/delta_g)).  The proof (seed line 448-450) says 'for any beta > 0' "
          "where x > 0 is meant, and writes log(2/delta_g) although Theorem 4.4 at delta = delta_g gives "
          "log(1/delta_g) (the 2 is unexplained slack, on the safe side).  x must be fixed in advance (not a "
          "function of the realized eps_i, seed line 452).  'x': 0 = not monotone in x."))

# ------------------------------------------------------------------------------------------ Thm 6.5
_LOG2N = sp.log(n) / sp.log(2)
_eq11 = A + sp.sqrt(2 * V * (sp.log(110 * sp.E) + 2 * sp.log(sp.log(n) / delta_g)))
_eq12 = A + sp.sqrt(2 * (1 / n**2 + V) * (1 + sp.log(1 + n**2 * V) / 2) * sp.log(4 * _LOG2N / delta_g))
#: the line of the proof that yields (12) (seed line 480), without its stray sum_{j=1}^k in front of the root
_eq12_proof = A + sp.sqrt(2 * (1 / n**2 + V) * (1 + sp.log(1 + n**2 * V) / 2) * sp.log(2 * _LOG2N / delta_g))
_IN = sp.And(V >= 1 / n**2, V <= 1)
_beta = sp.Rational(74, 100) * sp.log(n)**2 * (sp.sqrt(1 + delta_g / (sp.Rational(296, 100) * sp.sqrt(sp.E) *
                                                                      sp.log(n)**2)) - 1)**2
_beta_lb = sp.Rational(74, 100) * sp.log(n)**2 * (delta_g / (9 * sp.sqrt(sp.E) * sp.log(n)**2))**2
_x_sqrt = delta_g / (sp.Rational(296, 100) * sp.sqrt(sp.E) * sp.log(n)**2)
_T65 = dict(params=("n", "delta_g"), aggregates=("A", "V"), domain=(n >= 2,) + DELTA_SMALL,
            per_round_domain=PURE_ROUNDS)
register(SpecEntry(
    id="rruv16.thm6_5", title="advanced privacy odometer (eq. (11) on [1/n^2, 1], eq. (12) elsewhere)",
    kind=Kind.ODOMETER, source=src("Theorem 6.5, eqs. (11)-(12)"), expr=sp.Piecewise((_eq11, _IN), (_eq12, True)),
    extra={"beta": _beta, "beta_lower": _beta_lb, "sqrt_ineq_x": _x_sqrt,
           "beta_equation_rhs": 2 * sp.sqrt(sp.E) * (_beta + 2 * sp.log(n) * sp.sqrt(sp.Rational(74, 100) * _beta))},
    monotone={"A": +1, "delta_g": -1}, same_as=("wrrw23.lemma3",),
    proof_claims=("rruv16.thm6_5.beta_solves", "rruv16.thm6_5.sqrt_ineq", "rruv16.thm6_5.log110e",
                  "rruv16.thm6_5.eq12_vs_proof", "rruv16.thm6_5.granularity", "rruv16.thm6_5.footnote7_improvement"),
    notes="Seed line 458-464: valid odometer for delta_g in (0, 1/e): eq. (11) if V in [1/n^2, 1], eq. (12) if "
          "V not in [1/n^2, 1]; n is the dataset size.  log2 is written log(n)/log(2) (only in (12)); every other "
          "log is natural.  The seed puts no condition on n; n >= 2 keeps log(n) > 0.  Proof constants (extra): beta "
          "solves delta_g/2 = 2 sqrt(e)(beta + 2 log(n) sqrt(0.74 beta)) (Theorem 4.5 with c = 1/n, t = n; "
          "beta_equation_rhs is the right side at that beta), beta_lower = 0.74 log^2(n)(delta_g/(9 sqrt(e) "
          "log^2 n))^2 is the stated lower bound via sqrt(1 + x) >= 1 + x/3 on (0, 1) at x = sqrt_ineq_x; "
          "log(1/beta_lower) <= log(110 e) + 2 log(log(n)/delta_g) gives (11).  The proof of (12) (seed line 480) "
          "reaches log(2 log2(n)/delta_g) with a stray sum_{j=1}^k where the statement has log(4 log2(n)/delta_g) "
          "(rruv16.thm6_5.eq12, extra 'as_derived').  Not monotone in V: the branches jump at V = 1/n^2 and V = 1.  "
          "WRRW23 Lemma 3 restates it with mean term V/2 and |x| for n (wrrw23.lemma3).",
    **_T65))
register(SpecEntry(id="rruv16.thm6_5.eq11", title="Theorem 6.5, eq. (11) (valid for V in [1/n^2, 1])",
                   kind=Kind.ODOMETER, source=src("Theorem 6.5, eq. (11)"), expr=_eq11,
                   monotone={"A": +1, "V": +1, "delta_g": -1},
                   proof_claims=("rruv16.thm6_5.beta_solves", "rruv16.thm6_5.sqrt_ineq", "rruv16.thm6_5.log110e"),
                   notes="Seed line 460.  Valid only while sum eps_i^2 lies in [1/n^2, 1] (the theorem's first case); "
                         "outside it use rruv16.thm6_5 (which switches to eq. (12)).", **_T65))
register(SpecEntry(id="rruv16.thm6_5.eq12", title="Theorem 6.5, eq. (12) (V outside [1/n^2, 1])",
                   kind=Kind.ODOMETER, source=src("Theorem 6.5, eq. (12)"), expr=_eq12, extra={"as_derived": _eq12_proof},
                   monotone={"A": +1, "V": +1, "delta_g": -1}, proof_claims=("rruv16.thm6_5.eq12_vs_proof",),
                   notes="Seed line 464: log(4 log2(n)/delta_g).  extra 'as_derived': the proof's line (seed line 480, "
                         "Lemma 6.4 with x = 1/n^2) has log(2 log2(n)/delta_g) and a stray sum_{j=1}^k in front of the "
                         "root (dropped here); Lemma 6.4 itself gives log(2/delta_g), so neither log2(n) factor is "
                         "derived in the text.  The stated 4 log2(n) is the largest of the three.", **_T65))
register(SpecEntry(
    id="rruv16.thm6_5.footnote7", title="the earlier version of eq. (11) quoted in footnote 7", kind=Kind.ODOMETER,
    source=src("Theorem 6.5, footnote 7 (the version in the earlier paper [15])"),
    expr=A + 2 * sp.sqrt(V * (1 + sp.log(sp.sqrt(3))) * sp.log(4 * _LOG2N / delta_g)),
    monotone={"A": +1, "V": +1, "delta_g": -1}, proof_claims=("rruv16.thm6_5.footnote7_improvement",),
    notes="Footnote 7 (seed line 456): 'This bound is different from what appeared in [15], which had "
          "2 sqrt(sum eps_i^2 (1 + log(sqrt 3)) log(4 log2(n)/delta_g)) instead of the term "
          "sqrt(2 sum eps_i^2 (log(110 e) + 2 log(log(n)/delta_g))) in (11), which is an improvement when n >= 10 and "
          "delta_g < 1/2.'  The mean term A is kept as in (11).  Note delta_g < 1/2 reaches beyond Theorem 6.5's "
          "delta_g < 1/e; this entry keeps Theorem 6.5's domain.", **_T65))
# Text after the proof (seed line 482): replace 1/n^2 by gamma, require V in [gamma, 1]; "log2(n^2)/delta_g in (11)
# will be replaced with log2(1/gamma)/delta_g" -- i.e. n^2 -> 1/gamma.
_eq11_gamma = _eq11.subs(n, 1 / sp.sqrt(gamma))
register(SpecEntry(
    id="rruv16.thm6_5.granularity", title="eq. (11) with a granularity gamma in place of 1/n^2 (V required in "
    "[gamma, 1])", kind=Kind.ODOMETER, source=src("Theorem 6.5, remark after the proof (granularity parameter)"),
    params=("gamma", "delta_g"), aggregates=("A", "V"),
    expr=sp.Piecewise((_eq11_gamma, sp.And(V >= gamma, V <= 1)), (sp.oo, True)), extra={"in_range": _eq11_gamma},
    domain=(gamma > 0, gamma <= sp.Rational(1, 4)) + DELTA_SMALL, per_round_domain=PURE_ROUNDS,
    monotone={"A": +1, "delta_g": -1}, proof_claims=("rruv16.thm6_5.granularity",),
    notes="Seed line 482: 'More generally, we can replace 1/n^2 with an arbitrary granularity parameter gamma and "
          "require that sum eps_i^2 in [gamma, 1].  When doing so, log2(n^2)/delta_g in (11) will be replaced with "
          "log2(1/gamma)/delta_g.  For example, we could require that eps_1 >= delta_g, in which case we can choose "
          "gamma = delta_g^2.'  Implemented as the text's substitution n^2 -> 1/gamma in (11): log(n) becomes "
          "log(1/gamma)/2, i.e. log(log(1/gamma)/(2 delta_g)) -- the same as re-deriving with Theorem 4.5 at "
          "c = sqrt(gamma), t = 1/sqrt(gamma); equal to (11) at gamma = 1/n^2 (extra 'in_range').  Discrepancy: (11) "
          "contains log(n)/delta_g, not 'log2(n^2)/delta_g' (log2(n^2) = 2 log2(n) matches the proof's "
          "log(2 log2(n)/delta_g) line for (12), not (11)).  The text gives no bound for V outside [gamma, 1]: expr is "
          "+oo there (the (12)-analogue is not stated).  gamma <= 1/4 mirrors n >= 2; the text's example "
          "gamma = delta_g^2 lies in it.", example={"gamma": "0.01", "V": "0.5"}))

# ------------------------------------------------------------------------------------------ Lemma 3.3 odometer lifts
_U64_lift = _U64.subs({A: A2, V: V2}, simultaneous=True)
register(SpecEntry(
    id="rruv16.lemma3_3.odometer.thm3_4", title="basic odometer lifted to approximate-DP rounds",
    kind=Kind.ODOMETER, source=src("Lemma 3.3 (odometer part) applied to Theorem 3.4"), params=("delta_dprime",),
    aggregates=("S2", "LIFT"), expr=sp.Piecewise((sp.oo, LIFT > delta_dprime), (S2, True)),
    domain=LIFT_BUDGET, monotone={"S2": +1, "LIFT": +1}, proof_claims=_LIFT_CLAIMS, caveat=LIFT_CAVEAT,
    notes="Seed line 194-196 with Theorem 3.4 (valid for every delta_g >= 0, so delta_g = 0): a (sum 2 eps_i, "
          "delta_dprime) odometer; +oo once sum 2 delta_i/(eps_i e^{eps_i}) exceeds delta_dprime (the seed's "
          "delta_g')." + _LIFT_NOTE))
register(SpecEntry(
    id="rruv16.lemma3_3.odometer.lemma6_4", title="Lemma 6.4 odometer lifted to approximate-DP rounds",
    kind=Kind.ODOMETER, source=src("Lemma 3.3 (odometer part) applied to Lemma 6.4"),
    params=("x", "delta_g", "delta_dprime"), aggregates=("A2", "V2", "LIFT"),
    expr=sp.Piecewise((sp.oo, LIFT > delta_dprime), (_U64_lift, True)),
    domain=(x > 0,) + DELTA_SMALL + LIFT_BUDGET, monotone={"A2": +1, "V2": +1, "LIFT": +1}, proof_claims=_LIFT_CLAIMS, caveat=LIFT_CAVEAT,
    notes="A valid (u, delta_g + delta_dprime) odometer: Lemma 6.4 at 2 eps_i (aggregates A2, V2 = 4V); +oo once "
          "LIFT > delta_dprime." + _LIFT_NOTE))
_T65_lift = {A: A2, V: V2}
register(SpecEntry(
    id="rruv16.lemma3_3.odometer.thm6_5", title="Theorem 6.5 odometer lifted to approximate-DP rounds",
    kind=Kind.ODOMETER, source=src("Lemma 3.3 (odometer part) applied to Theorem 6.5"),
    params=("n", "delta_g", "delta_dprime"), aggregates=("A2", "V2", "LIFT"),
    expr=sp.Piecewise((sp.oo, LIFT > delta_dprime),
                      (sp.Piecewise((_eq11, _IN), (_eq12, True)).subs(_T65_lift, simultaneous=True), True)),
    domain=(n >= 2,) + DELTA_SMALL + LIFT_BUDGET, monotone={"A2": +1, "LIFT": +1}, proof_claims=_LIFT_CLAIMS, caveat=LIFT_CAVEAT,
    notes="Theorem 6.5 at 2 eps_i (A2, V2 = 4V; the range test [1/n^2, 1] applies to V2, the base odometer's "
          "sum of squared epsilons); +oo once sum 2 delta_i/(eps_i e^{eps_i}) exceeds delta_dprime.  A valid "
          "(u, delta_g + delta_dprime) odometer." + _LIFT_NOTE))
