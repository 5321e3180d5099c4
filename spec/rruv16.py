"""RRUV16 -- Rogers, Roth, Ullman, Vadhan, "Privacy Odometers and Filters: Pay-as-you-Go Composition".

Seeds: ``000_6d22f6a3880a066d.txt`` (arXiv text with LaTeX; the reference for every formula here) and
``002_ecc3f503dc6836cc.txt`` (the same paper with formulas stripped; used only to cross-check numbering).
"""

from __future__ import annotations

import sympy as sp

from .core import Kind, Source, SpecEntry, register, sym

SEED = "000_6d22f6a3880a066d.txt"
PAPER = "RRUV16"

eps_g, delta_g, delta_dprime, x = sym("eps_g"), sym("delta_g"), sym("delta_dprime"), sym("x")
V, A, S, V2, A2, S2, LIFT = (sym(n) for n in ("V", "A", "S", "V2", "A2", "S2", "LIFT"))
eps, delta = sym("eps"), sym("delta")

#: the constant of Theorem 5.1, eq. (6): x = eps_g^2 / (28.04 log(1/delta_g))
C_THM5_1 = sp.Rational(2804, 100)
DELTA_SMALL = (delta_g > 0, delta_g < sp.exp(-1))
PURE_ROUNDS = (sp.Eq(delta, 0),)


def src(where: str) -> Source:
    return Source(PAPER, where, SEED)


def thm4_4_bound(Vsum: sp.Expr, xx: sp.Expr, L: sp.Expr) -> sp.Expr:
    """sqrt(2 (V + x)(1 + log(V/x + 1)/2) L): Theorem 4.4 with U_k^2/4 = V (the shape used in 5.1 and 6.4)."""
    return sp.sqrt(2 * (Vsum + xx) * (1 + sp.log(Vsum / xx + 1) / 2) * L)


# ------------------------------------------------------------------------------------------ Thm 3.4
register(SpecEntry(
    id="rruv16.thm3_4.odometer", title="basic composition odometer (pure DP)", kind=Kind.ODOMETER,
    source=src("Theorem 3.4"), params=(), aggregates=("S",), expr=S, per_round_domain=PURE_ROUNDS,
    monotone={"S": +1},
    notes="A valid (sum eps_i, 0) odometer for pure-DP rounds; with delta_i > 0 use the Lemma 3.3 lift "
          "(rruv16.lemma3_3.odometer.thm3_4)."))
register(SpecEntry(
    id="rruv16.thm3_4.filter", title="basic composition filter (pure DP)", kind=Kind.FILTER,
    source=src("Theorem 3.4"), params=("eps_g",), aggregates=("S",), expr=S, halt=S > eps_g,
    domain=(eps_g > 0,), per_round_domain=PURE_ROUNDS, monotone={"S": +1},
    notes="HALT iff the next round would make sum eps_i exceed eps_g."))

# ------------------------------------------------------------------------------------------ Thm 5.1
_x51 = eps_g**2 / (C_THM5_1 * sp.log(1 / delta_g))
_K51 = A + thm4_4_bound(V, _x51, sp.log(1 / delta_g))
register(SpecEntry(
    id="rruv16.thm5_1", title="advanced-composition filter for pure-DP rounds", kind=Kind.FILTER,
    source=src("Theorem 5.1, eq. (6)"), params=("eps_g", "delta_g"), aggregates=("A", "V"),
    expr=_K51, halt=_K51 > eps_g, domain=(eps_g > 0,) + DELTA_SMALL, per_round_domain=PURE_ROUNDS,
    extra={"x": _x51}, monotone={"A": +1, "V": +1},
    proof_claims=("rruv16.thm5_1.statement_vs_proof", "rruv16.thm5_1.near_optimal_28_04"),
    notes="K = sum_j eps_j (e^{eps_j}-1)/2 + sqrt(2 (V + x)(1 + log(V/x + 1)/2) log(1/delta_g)) with "
          "x = eps_g^2/(28.04 log(1/delta_g)); HALT iff K (including the next round) > eps_g. "
          "Rounds must be pure DP; approximate-DP rounds go through rruv16.lemma3_3.filter.thm5_1."))

# ------------------------------------------------------------------------------------------ Lemma 3.3 lifts
_K51_lift = _K51.subs({A: A2, V: V2}, simultaneous=True)
register(SpecEntry(
    id="rruv16.lemma3_3.filter.thm5_1", title="Theorem 5.1 filter lifted to approximate-DP rounds",
    kind=Kind.FILTER, source=src("Lemma 3.3 applied to Theorem 5.1"),
    params=("eps_g", "delta_g", "delta_dprime"), aggregates=("A2", "V2", "LIFT"), expr=_K51_lift,
    halt=sp.Or(_K51_lift > eps_g, LIFT > delta_dprime),
    domain=(eps_g > 0,) + DELTA_SMALL + (delta_dprime > 0,), monotone={"A2": +1, "V2": +1, "LIFT": +1},
    notes="Valid (eps_g, delta_g + delta_dprime) filter: HALT iff the Theorem 5.1 statistic at 2 eps_i exceeds "
          "eps_g, or sum 2 delta_i/(eps_i e^{eps_i}) exceeds delta_dprime. A round with eps_i = 0 < delta_i "
          "makes the lifted sum +oo, hence HALT."))
register(SpecEntry(
    id="rruv16.lemma3_3.filter.thm3_4", title="basic filter lifted to approximate-DP rounds",
    kind=Kind.FILTER, source=src("Lemma 3.3 applied to Theorem 3.4"),
    params=("eps_g", "delta_dprime"), aggregates=("S2", "LIFT"), expr=S2,
    halt=sp.Or(S2 > eps_g, LIFT > delta_dprime), domain=(eps_g > 0, delta_dprime > 0),
    monotone={"S2": +1, "LIFT": +1},
    notes="The pure base filter at 2 eps_i; valid (eps_g, delta_dprime) filter. (Plain basic composition "
          "sum eps_i, sum delta_i of Thm 2.9 needs fixed parameters; for adaptive parameters the lift is what "
          "RRUV16 proves.)"))

# ------------------------------------------------------------------------------------------ Lemma 6.4
_U64 = A + thm4_4_bound(V, x, sp.log(2 / delta_g))
register(SpecEntry(
    id="rruv16.lemma6_4", title="odometer with a fixed tuning parameter x", kind=Kind.ODOMETER,
    source=src("Lemma 6.4"), params=("x", "delta_g"), aggregates=("A", "V"), expr=_U64,
    domain=(x > 0,) + DELTA_SMALL, per_round_domain=PURE_ROUNDS, monotone={"A": +1, "V": +1, "x": 0},
    notes="(u, delta_g) odometer: sum eps_j (e^{eps_j}-1)/2 + sqrt(2 (V + x)(1 + log(V/x + 1)/2) log(2/delta_g))."))

# ------------------------------------------------------------------------------------------ Lemma 2.3
eps, delta, k, dhat, n, gamma = sym("eps"), sym("delta"), sym("k"), sym("dhat"), sym("n"), sym("gamma")
s_, t_, beta, c_ = sym("s"), sym("t"), sym("beta"), sym("c")
register(SpecEntry(
    id="rruv16.lemma2_3.pointwise_to_dp", title="(eps, delta)-pointwise indistinguishable => (eps, delta)-indist.",
    kind=Kind.CONVERSION, source=src("Lemma 2.3 (Kasiviswanathan-Smith), first part"), params=("eps", "delta"),
    expr=eps, domain=(eps >= 0, delta >= 0, delta < 1), extra={"delta": delta}))
register(SpecEntry(
    id="rruv16.lemma2_3.dp_to_pointwise", title="(eps, delta)-indist. => (2 eps, 2 delta/(e^eps eps))-pointwise",
    kind=Kind.CONVERSION, source=src("Lemma 2.3 (Kasiviswanathan-Smith), second part"), params=("eps", "delta"),
    expr=2 * eps, domain=(eps > 0, delta >= 0, delta < 1), extra={"delta": 2 * delta / (sp.exp(eps) * eps)},
    same_as=("wrrw23.lemma2.dp_to_pointwise",), proof_claims=("rruv16.lemma2_3.second_conversion",),
    notes="The delta blows up as eps -> 0 (a round with eps = 0 < delta cannot be converted): the source of the "
          "+oo term in Lemma 3.3's lift."))

# ------------------------------------------------------------------------------------------ Thm 2.9, 2.10
register(SpecEntry(
    id="rruv16.thm2_9", title="basic composition (fixed parameters): sum eps_i, sum delta_i", kind=Kind.COMPOSITION,
    source=src("Theorem 2.9"), params=(), aggregates=("S", "D"), expr=S, extra={"delta": sym("D")},
    monotone={"S": +1}, notes="(sum eps_i, sum delta_i)-DP for fixed (non-adaptive) parameters."))
_drv = eps * (sp.exp(eps) - 1) * k + eps * sp.sqrt(2 * k * sp.log(1 / dhat))
register(SpecEntry(
    id="rruv16.thm2_10", title="advanced composition (Dwork-Rothblum-Vadhan), homogeneous fixed parameters",
    kind=Kind.COMPOSITION, source=src("Theorem 2.10"), params=("eps", "delta", "k", "dhat"), expr=_drv,
    domain=(eps >= 0, delta >= 0, delta < 1, k >= 1, dhat > 0, dhat < 1), extra={"delta": k * delta + dhat},
    monotone={"eps": +1, "k": +1, "dhat": -1}, proof_claims=("rruv16.thm2_10.vs_kov",),
    notes="eps_g = eps (e^eps - 1) k + eps sqrt(2 k log(1/dhat)), delta_g = k delta + dhat.  KOV15's heterogeneous "
          "form (conversions.kov15.heterogeneous) has the smaller first term eps tanh(eps/2) k."))

# ------------------------------------------------------------------------------------------ Lemma 3.3 odometer lifts
_U64_lift = _U64.subs({A: A2, V: V2}, simultaneous=True)
register(SpecEntry(
    id="rruv16.lemma3_3.odometer.thm3_4", title="basic odometer lifted to approximate-DP rounds",
    kind=Kind.ODOMETER, source=src("Lemma 3.3 applied to Theorem 3.4"), params=("delta_dprime",),
    aggregates=("S2", "LIFT"), expr=sp.Piecewise((sp.oo, LIFT > delta_dprime), (S2, True)),
    domain=(delta_dprime > 0,), monotone={"S2": +1, "LIFT": +1},
    notes="(sum 2 eps_i, delta_dprime) odometer; +oo once sum 2 delta_i/(eps_i e^{eps_i}) exceeds delta_dprime."))
register(SpecEntry(
    id="rruv16.lemma3_3.odometer.lemma6_4", title="Lemma 6.4 odometer lifted to approximate-DP rounds",
    kind=Kind.ODOMETER, source=src("Lemma 3.3 applied to Lemma 6.4"), params=("x", "delta_g", "delta_dprime"),
    aggregates=("A2", "V2", "LIFT"), expr=sp.Piecewise((sp.oo, LIFT > delta_dprime), (_U64_lift, True)),
    domain=(x > 0,) + DELTA_SMALL + (delta_dprime > 0,), monotone={"A2": +1, "V2": +1, "LIFT": +1},
    notes="A valid (u, delta_g + delta_dprime) odometer."))

# ------------------------------------------------------------------------------------------ Sec. 4 concentration
register(SpecEntry(
    id="rruv16.thm4_1", title="de la Pena et al. self-normalized bound: the deviation threshold", kind=Kind.BOUNDARY,
    source=src("Theorem 4.1 (Corollary 2.2 in de la Pena et al.)"), params=("beta", "delta"), aggregates=("V",),
    expr=sp.sqrt((V + beta) * (2 + sp.log(V / beta + 1)) * sp.log(1 / delta)),
    domain=(beta > 0, delta > 0, delta <= sp.exp(-1)), monotone={"V": +1, "delta": -1},
    notes="P(|A| >= sqrt((B^2 + beta)(2 + log(B^2/beta + 1)) log(1/delta))) <= delta; here V stands for B^2."))
register(SpecEntry(
    id="rruv16.thm4_2", title="Chen et al. (corrected): probability bound 2 sqrt(e)(1 + 2 s log t) e^{-s^2/2}",
    kind=Kind.BOUNDARY, source=src("Theorem 4.2 (Theorem 2.4 in Chen et al., corrected per footnote 5)"),
    params=("s", "t"), expr=2 * sp.sqrt(sp.E) * (1 + 2 * s_ * sp.log(t_)) * sp.exp(-s_**2 / 2),
    domain=(s_ >= 1, t_ >= 1), example={"s": "3"},
    notes="P(|A| >= s B and c <= B <= t c) <= 2 sqrt(e)(1 + 2 s log t) e^{-s^2/2} for c > 0, s, t >= 1.  Footnote 5: "
          "the cited statement has sqrt(B) where B is meant."))
register(SpecEntry(
    id="rruv16.thm4_4", title="martingale form of Theorem 4.1: deviation threshold for |M_k|", kind=Kind.BOUNDARY,
    source=src("Theorem 4.4"), params=("x", "delta"), aggregates=("V",),
    expr=sp.sqrt((V + x) * (2 + sp.log(V / x + 1)) * sp.log(1 / delta)),
    domain=(x > 0, delta > 0, delta <= sp.exp(-1)), monotone={"V": +1, "delta": -1},
    notes="With U_k^2/4 = V: sqrt((U^2/4 + x)(2 + log(U^2/(4x) + 1)) log(1/delta)) -- equal to "
          "sqrt(2 (V + x)(1 + log(V/x + 1)/2) log(1/delta)), the shape used in Thm 5.1 and Lemma 6.4."))
register(SpecEntry(
    id="rruv16.thm4_5", title="probability bound 2 sqrt(e)(beta + 2 log(t) sqrt(0.74 beta))", kind=Kind.BOUNDARY,
    source=src("Theorem 4.5"), params=("beta", "t"),
    expr=2 * sp.sqrt(sp.E) * (beta + 2 * sp.log(t_) * sp.sqrt(sp.Rational(74, 100) * beta)),
    domain=(beta > 0, beta < 1, t_ >= 1), proof_claims=("rruv16.thm4_5.constant_0_74",),
    notes="P(|M_k| >= sqrt(U_k^2/2 log(1/beta)) and c <= sqrt(U_k^2/4) <= t c) <= 2 sqrt(e)(beta + 2 log(t) "
          "sqrt(0.74 beta)); the proof uses x log(1/x) <= 0.37."))
register(SpecEntry(
    id="rruv16.lemma4_6", title="mean privacy loss mu_i <= eps_i (e^eps_i - 1)/2", kind=Kind.LEMMA,
    source=src("Lemma 4.6 (Dwork-Rothblum-Vadhan)"), params=("eps",), lhs=eps * sp.tanh(eps / 2),
    expr=eps * (sp.exp(eps) - 1) / 2, domain=(eps >= 0,), same_as=("wrrw23.lemma10",),
    proof_claims=("rruv16.lemma4_6.vs_bun_steinke",),
    notes="lhs: the mean loss of eps-randomized response, eps tanh(eps/2), the largest mean loss of an eps-DP "
          "mechanism.  Bun-Steinke's eps^2/2 (WRRW23 Lemma 10) is tighter for every eps > 0."))

# ------------------------------------------------------------------------------------------ Thm 6.1
register(SpecEntry(
    id="rruv16.thm6_1", title="no odometer KOV-mean + o(sqrt(V log(log(n)/delta_g))): the ruled-out leading form",
    kind=Kind.LOWER_BOUND, source=src("Theorem 6.1, eq. (7)"), params=("n", "delta_g"), aggregates=("KOV", "V"),
    expr=sym("KOV") + sp.sqrt(V * sp.log(sp.log(n) / delta_g)), domain=(n >= 3, delta_g > 0, delta_g < 1),
    notes="Theorem 6.1: for delta_g in (0, O(1)) no valid odometer equals sum eps_i (e^eps_i-1)/(e^eps_i+1) + "
          "o(sqrt(V log(log(n)/delta_g))).  The o(.) cannot be a formula: expr is the rate that any valid odometer "
          "must exceed by a non-vanishing multiple of its second term (shown against Algorithm 4 by the exact "
          "engine)."))

# ------------------------------------------------------------------------------------------ Thm 6.5
_LOG2N = sp.log(n) / sp.log(2)
_eq11 = A + sp.sqrt(2 * V * (sp.log(110 * sp.E) + 2 * sp.log(sp.log(n) / delta_g)))
_eq12 = A + sp.sqrt(2 * (1 / n**2 + V) * (1 + sp.log(1 + n**2 * V) / 2) * sp.log(4 * _LOG2N / delta_g))
_IN = sp.And(V >= 1 / n**2, V <= 1)
_beta = sp.Rational(74, 100) * sp.log(n)**2 * (sp.sqrt(1 + delta_g / (sp.Rational(296, 100) * sp.sqrt(sp.E) *
                                                                      sp.log(n)**2)) - 1)**2
_beta_lb = sp.Rational(74, 100) * sp.log(n)**2 * (delta_g / (9 * sp.sqrt(sp.E) * sp.log(n)**2))**2
_T65 = dict(params=("n", "delta_g"), aggregates=("A", "V"), domain=(n >= 2,) + DELTA_SMALL,
            per_round_domain=PURE_ROUNDS)
register(SpecEntry(
    id="rruv16.thm6_5", title="advanced privacy odometer (eq. (11) on [1/n^2, 1], eq. (12) elsewhere)",
    kind=Kind.ODOMETER, source=src("Theorem 6.5, eqs. (11)-(12)"), expr=sp.Piecewise((_eq11, _IN), (_eq12, True)),
    extra={"beta": _beta, "beta_lower": _beta_lb}, same_as=("wrrw23.lemma3",),
    proof_claims=("rruv16.thm6_5.beta_solves", "rruv16.thm6_5.sqrt_ineq", "rruv16.thm6_5.log110e",
                  "rruv16.thm6_5.eq12_vs_proof", "rruv16.thm6_5.granularity", "rruv16.thm6_5.footnote7_improvement"),
    notes="log2 is written log(n)/log(2).  beta (extra) is the proof's solution of delta_g/2 = 2 sqrt(e)(beta + "
          "2 log(n) sqrt(0.74 beta)); beta_lower its stated lower bound.  The proof of (12) reaches "
          "log(2 log2(n)/delta_g) (and a stray sum over j) where the statement has log(4 log2(n)/delta_g).",
    **_T65))
register(SpecEntry(id="rruv16.thm6_5.eq11", title="Theorem 6.5, eq. (11) (valid for V in [1/n^2, 1])",
                   kind=Kind.ODOMETER, source=src("Theorem 6.5, eq. (11)"), expr=_eq11, **_T65))
register(SpecEntry(id="rruv16.thm6_5.eq12", title="Theorem 6.5, eq. (12) (V outside [1/n^2, 1])",
                   kind=Kind.ODOMETER, source=src("Theorem 6.5, eq. (12)"), expr=_eq12, **_T65))
register(SpecEntry(
    id="rruv16.thm6_5.footnote7", title="the earlier version of eq. (11) quoted in footnote 7", kind=Kind.ODOMETER,
    source=src("Theorem 6.5, footnote 7 (the version in the earlier paper [15])"),
    expr=A + 2 * sp.sqrt(V * (1 + sp.log(sp.sqrt(3))) * sp.log(4 * _LOG2N / delta_g)),
    proof_claims=("rruv16.thm6_5.footnote7_improvement",),
    notes="Footnote 7: '...which had 2 sqrt(sum eps_i^2 (1 + log(sqrt 3)) log(4 log2(n)/delta_g)) instead of the term "
          "sqrt(2 sum eps_i^2 (log(110 e) + 2 log(log(n)/delta_g))) in (11), which is an improvement when n >= 10 and "
          "delta_g < 1/2.'", **_T65))
_eq11_gamma = A + sp.sqrt(2 * V * (sp.log(110 * sp.E) + 2 * sp.log(sp.log(1 / gamma) / (2 * delta_g))))
register(SpecEntry(
    id="rruv16.thm6_5.granularity", title="eq. (11) with a granularity gamma in place of 1/n^2 (valid on [gamma, 1])",
    kind=Kind.ODOMETER, source=src("Theorem 6.5, remark after the proof (granularity parameter)"),
    params=("gamma", "delta_g"), aggregates=("A", "V"), expr=_eq11_gamma,
    domain=(gamma > 0, gamma < sp.exp(-2)) + DELTA_SMALL, per_round_domain=PURE_ROUNDS,
    proof_claims=("rruv16.thm6_5.granularity",),
    notes="Re-derived, not copied: Theorem 4.5 with c = sqrt(gamma), t = 1/sqrt(gamma) has log t = log(1/gamma)/2, so "
          "log(n) in (11) becomes log(1/gamma)/2 (equal to log n at gamma = 1/n^2).  The text says 'log2(n^2)/delta_g "
          "in (11) will be replaced with log2(1/gamma)/delta_g', but (11) contains log(n)/delta_g, not "
          "log2(n^2)/delta_g: the remark's wording does not match the equation (see proofs_check)."))

_T65_lift = {A: A2, V: V2}
register(SpecEntry(
    id="rruv16.lemma3_3.odometer.thm6_5", title="Theorem 6.5 odometer lifted to approximate-DP rounds",
    kind=Kind.ODOMETER, source=src("Lemma 3.3 applied to Theorem 6.5"), params=("n", "delta_g", "delta_dprime"),
    aggregates=("A2", "V2", "LIFT"),
    expr=sp.Piecewise((sp.oo, LIFT > delta_dprime),
                      (sp.Piecewise((_eq11, _IN), (_eq12, True)).subs(_T65_lift, simultaneous=True), True)),
    domain=(n >= 2,) + DELTA_SMALL + (delta_dprime > 0,), monotone={"LIFT": +1},
    notes="Theorem 6.5 at 2 eps_i (A2, V2 = 4V; the range test uses V2); +oo once sum 2 delta_i/(eps_i e^{eps_i}) "
          "exceeds delta_dprime.  A valid (u, delta_g + delta_dprime) odometer as far as Lemma 2.3 holds (see "
          "rruv16.lemma2_3.second_conversion)."))
