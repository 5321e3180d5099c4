"""WRRW23 -- Whitehouse, Ramdas, Rogers, Wu, "Fully-Adaptive Composition in Differential Privacy" (ICML 2023, PMLR 202).

Seed: ``003_8948d815f0b87bba.txt``.  The seed is a single line of text (no line breaks), so locations below are
*character offsets* into it ("seed @29394" = ``text[29394:]``).  Its extraction lost most displayed formulas (square
roots, fractions, sums and the left-hand sides of inequalities); every entry whose formula had to be reconstructed
(from the surviving fragments, ``THEOREMS.md`` and the derivation the paper describes) is ``reconstructed=True`` and
names the proofs_check claim that re-derives it from first principles.

Conventions: log is natural; ``L = log(1/delta')``; V = sum eps_m^2 (intrinsic time), D = sum delta_m, R = sum rho_m,
KOV = sum eps_m (e^eps_m - 1)/(e^eps_m + 1) (see :mod:`spec.aggregates`).  Filters HALT on the aggregates *after*
the candidate round (the seed's ``inf{n : ... sum_{m <= n+1} ...}``); odometers are +oo once D > delta'' (the
seed's n > N with N = inf{n : delta'' < sum_{m <= n+1} delta_m}).  The seed writes the confidence split as
delta = delta' + delta'' with delta' > 0, delta'' >= 0; delta' < 1 is added wherever log(1/delta') must be positive.
"""

from __future__ import annotations

import sympy as sp

from .core import Kind, Source, SpecEntry, register, sym

SEED = "003_8948d815f0b87bba.txt"
PAPER = "WRRW23"

eps_g, eps, delta, rho = sym("eps_g"), sym("eps"), sym("delta"), sym("rho")
delta_g, delta_prime, delta_dprime = sym("delta_g"), sym("delta_prime"), sym("delta_dprime")
gamma, v0, n, a, b, B = sym("gamma"), sym("v0"), sym("n"), sym("a"), sym("b"), sym("B")
V, D, R, KOV = sym("V"), sym("D"), sym("R"), sym("KOV")

L1 = sp.log(1 / delta_prime)  # log(1/delta')
DP_SPLIT = (delta_prime > 0, delta_prime < 1, delta_dprime >= 0)
#: Definition 6 (seed @27581): an odometer's target confidence delta = delta' + delta'' lies in (0, 1)
ODO_SPLIT = DP_SPLIT + (delta_prime + delta_dprime < 1,)


def src(where: str) -> Source:
    return Source(PAPER, where, SEED)


# ------------------------------------------------------------------------------------------ Introduction
register(SpecEntry(
    id="wrrw23.intro.advanced_composition", title="advanced composition as quoted in the introduction "
    "(heterogeneous, fixed parameters)", kind=Kind.COMPOSITION,
    source=src("Section 1 (Introduction), the display after eq. (1): advanced composition (Dwork et al. 2010; "
               "Kairouz et al. 2015)"),
    params=("delta_prime",), aggregates=("V", "KOV", "D"), expr=sp.sqrt(2 * L1 * V) + KOV,
    domain=(delta_prime > 0, delta_prime < 1, V >= 0, KOV >= 0, D >= 0), extra={"delta": delta_prime + D},
    monotone={"V": +1, "KOV": +1, "delta_prime": -1}, same_as=("conversions.kov15.heterogeneous",),
    notes="Seed @2664: 'for any delta' > 0, the composed sequence of algorithms is (eps, delta)-DP, where delta = "
          "delta' + sum_{m<=n} delta_m, and eps = sqrt(2 log(1/delta') sum_{m<=n} eps_m^2) + sum_{m<=n} eps_m "
          "(e^{eps_m} - 1)/(e^{eps_m} + 1)' (the root and the second sum survive only as 'v u u t2 log 1 m n eps2m "
          "+ X').  Valid for parameters fixed in advance only.  KOV15 Thm 3.5 as implemented by diffprivlib "
          "(conversions.kov15.heterogeneous) additionally takes the min with sum eps_m and with the log(e + "
          "sqrt(V)/delta') form.  Its mean term KOV is <= V/2 (wrrw23.sec3.kov_le_zcdp), so this value is <= "
          "wrrw23.thm2's statistic at the same V: the 'slight gap in the lower order term' of seed @11000."))

# ------------------------------------------------------------------------------------------ Lemma 1, 2
register(SpecEntry(
    id="wrrw23.lemma1.dp_to_zcdp", title="(eps, delta)-DP => delta-approximate (eps^2/2)-zCDP", kind=Kind.CONVERSION,
    source=src("Lemma 1 (Bun and Steinke 2016), first sentence"), params=("eps", "delta"), expr=eps**2 / 2,
    domain=(eps >= 0, delta >= 0, delta < 1), extra={"delta": delta}, monotone={"eps": +1},
    same_as=("conversions.bs16.pure_to_zcdp",),
    notes="Seed @18871: 'If A satisfies (eps, delta)-DP, then A satisfies delta-approximate 1/2 eps^2-zCDP.'  Output: "
          "rho = eps^2/2 with the same delta (approximate zCDP in the convex-mixture form of Papernot-Steinke, seed "
          "Definition 3 @14929, shown equivalent to Bun-Steinke's event form in Appendix C.1, Theorem 7).  With "
          "delta = 0 it is Bun-Steinke Prop. 1.4 (conversions.bs16.pure_to_zcdp)."))
register(SpecEntry(
    id="wrrw23.lemma1.zcdp_to_dp", title="delta-approximate rho-zCDP => (rho + 2 sqrt(rho ln(1/delta')), "
    "delta + (1 - delta) delta')-DP", kind=Kind.CONVERSION,
    source=src("Lemma 1 (Bun and Steinke 2016), second sentence"), params=("rho", "delta", "delta_prime"),
    expr=rho + 2 * sp.sqrt(rho * L1), domain=(rho >= 0, delta >= 0, delta < 1, delta_prime > 0, delta_prime < 1),
    extra={"delta": delta + (1 - delta) * delta_prime}, monotone={"rho": +1, "delta_prime": -1},
    same_as=("conversions.bs16",),
    notes="Seed @18871-19100: 'If A satisfies delta-approximate rho-zCDP, then A satisfies (rho + 2 sqrt(rho "
          "ln(1/delta')), delta + (1 - delta) delta')-DP' (the root survives as '2 p rho ln(1/delta )').  expr = the "
          "output eps, extra delta = the output delta.  With delta = 0 this is Bun-Steinke Prop. 1.3 "
          "(conversions.bs16).  The seed puts no range on delta'; delta' < 1 keeps ln(1/delta') > 0."))
register(SpecEntry(
    id="wrrw23.lemma2.pointwise_to_dp", title="(eps, delta)-pDP => (eps, delta)-DP (Lemma 2, first part)",
    kind=Kind.CONVERSION, source=src("Lemma 2 (Kasiviswanathan and Smith 2014), first sentence"),
    params=("eps", "delta"), expr=eps, domain=(eps >= 0, delta >= 0, delta < 1), extra={"delta": delta},
    monotone={"eps": +1}, same_as=("rruv16.lemma2_3.pointwise_to_dp",),
    notes="Seed @25449: 'If A is (eps, delta)-pDP, then A is also (eps, delta)-DP.'  RRUV16 Lemma 2.3 first part "
          "(there called point-wise indistinguishability)."))
register(SpecEntry(
    id="wrrw23.lemma2.dp_to_pointwise", title="(eps, delta)-DP => (2 eps, 2 delta/(eps e^eps))-pDP (Lemma 2)",
    kind=Kind.CONVERSION, source=src("Lemma 2 (Kasiviswanathan and Smith 2014), second sentence"),
    params=("eps", "delta"), expr=2 * eps, domain=(eps > 0, delta >= 0, delta < 1),
    extra={"delta": 2 * delta / (eps * sp.exp(eps))}, monotone={"eps": +1},
    same_as=("rruv16.lemma2_3.dp_to_pointwise",), proof_claims=("rruv16.lemma2_3.second_conversion",),
    notes="Seed @25449: 'Conversely, if A is (eps, delta)-DP, then A is (2 eps, 2 delta / (eps e^eps))-pDP' "
          "(fragment '2delta eps e^eps').  The same constant as RRUV16 Lemma 2.3, which proofs_check finds too "
          "small as printed (rruv16.lemma2_3.second_conversion).  WRRW23 quotes it only to explain why its filter "
          "(Theorem 2) avoids the pDP conversion (seed @7000); its odometers (Theorem 3) do assume pDP rounds."))

# ------------------------------------------------------------------------------------------ Thm 1, Thm 2
register(SpecEntry(
    id="wrrw23.thm1", title="approximate-zCDP filter", kind=Kind.FILTER, source=src("Theorem 1"),
    params=("B", "delta_g"), aggregates=("R", "D"), expr=R, halt=sp.Or(R > B, D > delta_g),
    domain=(B > 0, delta_g >= 0, delta_g < 1), monotone={"R": +1},
    notes="Seed @17748: N((rho_n), (delta_n)) := inf{n : rho < sum_{m<=n+1} rho_m or delta < sum_{m<=n+1} "
          "delta_m} (fragment 'm n+1 rho m or delta < X'); then A_{1:N} is delta-approximate rho-zCDP.  Never run a "
          "round that would push either sum past its budget.  B is the seed's rho (the zCDP budget), delta_g its "
          "delta.  Rounds give (rho_m, delta_m) predictably; an (eps_m, delta_m)-DP round has rho_m = eps_m^2/2 "
          "(Lemma 1).  Per-round rho enters as the sequence 'rho', per-round delta as 'delta'.  The proof (seed "
          "@20000-21500, Lemmas 6-8) also gives a filter for approximate RDP; FZ21's Renyi filter (fz21.thm3_1, "
          "Remark 4.4 for zCDP) is the delta = 0 case."))

_STAT2 = sp.sqrt(2 * L1 * V) + V / 2
register(SpecEntry(
    id="wrrw23.thm2", title="(eps, delta)-DP filter matching advanced composition", kind=Kind.FILTER,
    source=src("Theorem 2 (and Informal Theorem 1)"), params=("eps_g", "delta_prime", "delta_dprime"),
    aggregates=("V", "D"), expr=_STAT2, halt=sp.Or(_STAT2 > eps_g, D > delta_dprime),
    domain=(eps_g > 0,) + DP_SPLIT, monotone={"V": +1, "delta_prime": -1}, reconstructed=True,
    proof_claims=("wrrw23.thm2.from_lemma1_thm1", "fz21.thm4_7.equals_wrrw23_thm2"),
    same_as=("fz21.thm4_7.bs16",),
    notes="[R] Seed @19341: 'Let eps > 0 and delta = delta' + delta'' be target privacy parameters such that "
          "delta' > 0, delta'' >= 0.  Let N((eps_n), (delta_n)) := inf{n : eps < sqrt(2 log(1/delta') "
          "sum_{m<=n+1} eps_m^2) + 1/2 sum_{m<=n+1} eps_m^2 or delta'' < sum_{m<=n+1} delta_m}'; the fragment keeps "
          "'v u u t2 log 1 m n+1 eps2m + 1 m n+1 eps2 m or delta < X'.  Then A_{1:N} is (eps, delta)-DP.  It is "
          "Lemma 1 applied to Theorem 1 with rho = V/2 (seed @19100: 'a conversion of individual approximate DP "
          "parameters to approximate zCDP ones, application of the approximate zCDP filter, and the conversion of "
          "approximate zCDP back'); proofs_check re-derives it (wrrw23.thm2.from_lemma1_thm1).  Informal Theorem 1 "
          "(seed @10428) keeps only the eps condition ('stops before sqrt(... sum_{m<=n+1} eps_m^2) + 1/2 "
          "sum_{m<=n+1} eps_m^2 > eps', a single delta > 0, no per-round delta condition).  Other statements: FZ21 "
          "Theorem 4.7 (HALT iff V/2 > B* with B* = (sqrt(log(1/delta) + eps) - sqrt(log(1/delta)))^2) decides "
          "identically when delta'' = 0 and delta_m = 0 (fz21.thm4_7.equals_wrrw23_thm2), but FZ21 needs pDP "
          "rounds, WRRW23 only DP rounds (seed @7000, footnote 3).  Lower-order term V/2 vs advanced composition's "
          "KOV (wrrw23.intro.advanced_composition): the gap is O(eps^4) per round (wrrw23.sec3.kov_le_zcdp).  "
          "Appendix D (seed @58000-71500) gives a second proof via conditional randomized response (Lemmas 9-13)."))

# dpbounds' own composition (beyond the papers): Lemma 1 + Theorem 1 + the CKS20 zCDP->DP conversion.
register(SpecEntry(
    id="wrrw23.thm1.cks20", title="(eps, delta)-DP filter: Lemma 1 + Theorem 1 + CKS20 conversion (dpbounds)",
    kind=Kind.FILTER, source=Source(PAPER, "Theorem 1 with Lemma 1 (DP -> zCDP) and CKS20 Prop. 12 (zCDP -> DP)",
                                    SEED),
    params=("eps_g", "delta_prime", "delta_dprime", "B"), aggregates=("V", "D"), expr=V / 2,
    halt=sp.Or(V / 2 > B, D > delta_dprime), domain=(eps_g > 0, B >= 0) + DP_SPLIT, monotone={"V": +1},
    same_as=("fz21.thm4_7",),
    notes="Not a statement of the paper: dpbounds' composition of its Lemma 1 and Theorem 1 with a tighter zCDP -> "
          "DP conversion.  B must be B*_cks20(eps_g, delta') = sup{rho : CKS20's conversion gives (eps_g, "
          "delta')-DP}, computed by dpbounds.accounting.conversions.b_star (certified lower end, never overstated).  "
          "Validity: each (eps_m, delta_m)-DP round is delta_m-approximate (eps_m^2/2)-zCDP conditioned on the past "
          "(Lemma 1); Theorem 1 with rho budget B and delta budget delta'' makes the stopped interaction "
          "delta''-approximate B-zCDP: in the convex-mixture form (Definition 3) the output laws are (1 - delta'') "
          "P' + delta'' P'' and (1 - delta'') Q' + delta'' Q'' with P', Q' B-zCDP.  CKS20's conversion (valid for "
          "every B-zCDP pair) makes P', Q' (eps_g, delta')-DP, hence the mixture is (eps_g, delta'' + (1 - delta'') "
          "delta')-DP -- Lemma 1's second part with CKS20 in place of BS16.  CKS20 dominates BS16, so this filter "
          "continues whenever wrrw23.thm2 does."))

# ------------------------------------------------------------------------------------------ Thm 3 odometers
_y_star = (sp.sqrt(2 * L1 + 2 * eps_g) - sp.sqrt(2 * L1))**2
_a_lin = sp.sqrt(L1 * _y_star / 2)   # Theorem 4's intercept for the line tangent at y*
_b_lin = sp.sqrt(L1 / (2 * _y_star))  # ... and slope; 2 a b = log(1/delta')
_uF = sp.sqrt(L1 / (2 * _y_star)) * (_y_star + V) + V / 2
_INVALID = D > delta_dprime
register(SpecEntry(
    id="wrrw23.thm3.filter", title="filter odometer (tangent to advanced composition at y*)", kind=Kind.ODOMETER,
    source=src("Theorem 3, item 1 (filter odometer)"), params=("eps_g", "delta_prime", "delta_dprime"),
    aggregates=("V", "D"), expr=sp.Piecewise((sp.oo, _INVALID), (_uF, True)), domain=(eps_g > 0,) + ODO_SPLIT,
    extra={"y_star": _y_star, "a": _a_lin, "b": _b_lin}, monotone={"V": +1, "D": +1}, reconstructed=True,
    proof_claims=("wrrw23.thm3.filter.y_star_root", "wrrw23.thm3.filter.tangent"),
    notes="[R] Seed @29394: 'For any eps > 0, let y* := (sqrt(2 log(1/delta') + 2 eps) - sqrt(2 log(1/delta')))^2' "
          "(fragment 'y := q delta + eps 2'); 'u^F_n := +oo if n > N, sqrt(log(1/delta')/(2 y*)) (y* + V_n) + 1/2 "
          "V_n otherwise' (fragment 'delta ) 2 y Vn + 1 2Vn otherwise').  eps (here eps_g) is a target, not a "
          "budget.  y* is the root of f(y) = sqrt(2 y log(1/delta')) + y/2 = eps (proof of Lemma 9, seed @60524: "
          "'f is a quadratic polynomial in sqrt(y) which is strictly increasing'), so u^F = eps at V = y*; u^F - V/2 "
          "is Theorem 4's line a + b V with a = sqrt(log(1/delta') y*/2), b = sqrt(log(1/delta')/(2 y*)) (extra "
          "'a', 'b'; the seed's 'setting a := ..., b := ...' @60713 lost both values), 2ab = log(1/delta'), and it "
          "is tangent at y* to the fixed-time curve sqrt(2 V log(1/delta')) + V/2 (seed @35479: 'Our filter "
          "odometer lies tangent to the advanced composition curve').  Requires pDP rounds (Theorem 3's hypothesis); "
          "Definition 6 asks delta' + delta'' < 1.  Rate O(V) (seed @33000)."))

_uM = sp.sqrt(2 * (V + gamma) * sp.log(sp.sqrt((gamma + V) / gamma) / delta_prime)) + V / 2
register(SpecEntry(
    id="wrrw23.thm3.mixture", title="normal-mixture odometer", kind=Kind.ODOMETER,
    source=src("Theorem 3, item 2 (mixture odometer)"), params=("gamma", "delta_prime", "delta_dprime"),
    aggregates=("V", "D"), expr=sp.Piecewise((sp.oo, _INVALID), (_uM, True)), domain=(gamma > 0,) + ODO_SPLIT,
    monotone={"V": +1, "D": +1, "delta_prime": -1}, reconstructed=True,
    proof_claims=("wrrw23.thm5.mixture_integral",), same_as=("howard.normal_mixture.two_sided",),
    notes="[R] Seed @29538: 'For any gamma > 0, ... u^M_n := +oo if n > N, sqrt(2 (gamma + V_n) log((1/delta') "
          "sqrt((gamma + V_n)/gamma))) + 1/2 V_n otherwise' (fragment '2 log 1 delta q gamma (gamma + Vn) + 1 2Vn "
          "otherwise').  = Theorem 5's boundary at delta' plus the mean bound V/2 (proof, seed @72284: 'B_n = U_n - "
          "1/2 sum eps_m^2').  The text after the theorem (seed @30600) says the odometer 'can be numerically "
          "optimized, in terms of rho' -- a notation slip for gamma (Howard et al. call the mixture parameter rho).  "
          "Rate O(sqrt(V log V)) (seed @33000)."))

_STITCH = sp.Rational(17, 10) * sp.sqrt(V * (sp.log(sp.log(2 * V / v0)) + sp.Rational(72, 100) *
                                             sp.log(sp.Rational(52, 10) / delta_prime)))
register(SpecEntry(
    id="wrrw23.thm3.stitched", title="stitched odometer", kind=Kind.ODOMETER,
    source=src("Theorem 3, item 3 (stitched odometer)"), params=("v0", "delta_prime", "delta_dprime"),
    aggregates=("V", "D"), expr=sp.Piecewise((sp.oo, sp.Or(_INVALID, V < v0)), (_STITCH + V / 2, True)),
    domain=(v0 > 0,) + ODO_SPLIT, monotone={"D": +1, "delta_prime": -1}, reconstructed=True,
    proof_claims=("wrrw23.thm6.stitching_constants",), same_as=("howard.stitching.simplified",),
    notes="[R] Seed @29686: 'For any v0 > 0, ... u^S_n := +oo if n > N or V_n < v0, 1.7 sqrt(V_n (log log(2 V_n / "
          "v0) + 0.72 log(5.2/delta'))) + 1/2 V_n otherwise'; the fragment keeps 'n > N or Vn < v0 Vn log log 2Vn + "
          "0.72 log 5.2' -- the '/v0' and '/delta'' are lost (restored from Howard et al.'s form, where v/m is the "
          "argument, and from the scaling S/sqrt(v0)).  = Theorem 6's boundary at delta' plus V/2.  Not monotone in "
          "V at V = v0, where it drops from +oo to finite (monotone in V on V >= v0).  Rate O(sqrt(V log log V)) "
          "(seed @33000)."))

# ------------------------------------------------------------------------------------------ Lemma 3
_log2n = sp.log(n) / sp.log(2)
_eq11 = sp.sqrt(2 * V * (sp.log(110 * sp.E) + 2 * sp.log(sp.log(n) / delta_prime)))
_eq12 = sp.sqrt(2 * (1 / n**2 + V) * (1 + sp.log(1 + n**2 * V) / 2) * sp.log(4 * _log2n / delta_prime))
_in_range = sp.And(V >= 1 / n**2, V <= 1)
register(SpecEntry(
    id="wrrw23.lemma3", title="RRUV16 Thm 6.5 as restated by WRRW23 (|x| = dataset size)", kind=Kind.ODOMETER,
    source=src("Lemma 3 (Theorem 6.5 in Rogers et al. 2016)"), params=("n", "delta_prime", "delta_dprime"),
    aggregates=("V", "D"),
    expr=sp.Piecewise((sp.oo, _INVALID), (_eq11 + V / 2, _in_range), (_eq12 + V / 2, True)),
    domain=(n >= 2, delta_prime > 0, delta_prime < sp.exp(-1), delta_dprime >= 0, delta_prime + delta_dprime < 1),
    monotone={"D": +1}, reconstructed=True, same_as=("rruv16.thm6_5",), proof_claims=("wrrw23.lemma3.vs_rruv16",),
    notes="[R] Seed @31278: 'Assume the same setup as Theorem 3, and fix delta = delta' + delta'', where 1/e > "
          "delta' > 0 and delta'' >= 0' (the relation sign between 1/e and delta' is lost: '1 e delta > 0'; read "
          "as RRUV16's delta_g in (0, 1/e)).  Formula fragment: 'u^R_n := 2Vn log(110e) + 2 log log(|x|) 2 Vn n N, "
          "Vn 1 |x|2 , 1 2 1 |x|2 + Vn 2 log 1 + |x|2Vn log log 4 delta log2(|x|) + 1', read as sqrt(2 V_n "
          "(log(110e) + 2 log(log(|x|)/delta'))) + 1/2 V_n if n <= N and V_n in [1/|x|^2, 1]; sqrt(2 (1/|x|^2 + "
          "V_n)(1 + 1/2 log(1 + |x|^2 V_n)) log(4 log2(|x|)/delta')) + 1/2 V_n otherwise (n <= N); +oo for n > N.  "
          "The fragment '1 2 ... 2 log 1 + |x|2Vn' is also consistent with the equal form (1/|x|^2 + V)(2 + log(1 + "
          "|x|^2 V)); the trailing '+ 1' is read as the start of '+ 1/2 V_n'.  Differences from RRUV16 Thm 6.5 "
          "eqs. (11)/(12): (i) the mean term is V_n/2 (Bun-Steinke, WRRW23's pDP setting) instead of RRUV16's "
          "sum eps (e^eps - 1)/2; (ii) delta = delta' + delta'' with +oo after N instead of RRUV16's Lemma 3.3 "
          "lift; (iii) n is written |x|.  The concentration terms are identical (wrrw23.lemma3.vs_rruv16).  The "
          "text after it (seed @31400-32900) criticizes the dependence on |x| and the looseness outside "
          "[1/|x|^2, 1]."))

# ------------------------------------------------------------------------------------------ Thm 4, 5, 6 (App. B)
register(SpecEntry(
    id="wrrw23.thm4", title="linear boundary: P(exists n: M_n >= a + b V_n) <= exp(-2ab)", kind=Kind.BOUNDARY,
    source=src("Theorem 4 (Appendix B; special case of Howard et al. 2020)"), params=("a", "b"),
    expr=sp.exp(-2 * a * b), domain=(a > 0, b > 0), reconstructed=True,
    proof_claims=("wrrw23.thm4.linear_boundary", "wrrw23.thm3.filter.tangent"), monotone={"a": -1, "b": -1},
    notes="[R] Seed @50286: M_n a martingale, M_0 = 0, increments sigma_n^2-sub-Gaussian given F_{n-1} (one-sided: "
          "E e^{lambda X} <= e^{lambda^2 sigma^2/2} for lambda >= 0 only, seed @49800), V_n = sum sigma_m^2; 'for all "
          "a, b > 0, P(exists n : M_n >= a + b V_n) <= exp(-2ab)' -- the display survives only as 'P n N : Mn b'.  "
          "expr = the crossing probability.  The proof (seed @50612) applies Ville's inequality to the "
          "supermartingale exp(2b M_n - 2b^2 V_n) at level e^{2ab}; its surviving words ('exp b2', 'Multiplying both "
          "sides by a b') do not pin the parametrization, so the line a + b V with probability exp(-2ab) is Howard "
          "et al. 2020's (the form the filter odometer needs: a, b of wrrw23.thm3.filter give exp(-2ab) = delta').  "
          "Appendix B labels it a 'special case of the main result in Howard et al. (2020)'."))
register(SpecEntry(
    id="wrrw23.thm5", title="normal-mixture boundary", kind=Kind.BOUNDARY,
    source=src("Theorem 5 (Appendix B; Howard et al. 2021)"), params=("gamma", "delta"), aggregates=("V",),
    expr=sp.sqrt(2 * (V + gamma) * sp.log(sp.sqrt((V + gamma) / gamma) / delta)),
    domain=(gamma > 0, delta > 0, delta < 1, V >= 0), reconstructed=True, monotone={"V": +1, "delta": -1},
    proof_claims=("wrrw23.thm5.mixture_integral",), same_as=("howard.normal_mixture.two_sided",),
    notes="[R] Seed @52253: same martingale setup, tuning parameter gamma > 0; 'for any delta > 0, P(exists n : M_n "
          ">= sqrt(2 (V_n + gamma) log((1/delta) sqrt((V_n + gamma)/gamma)))) <= delta' (fragment 'v u u t2(Vn + "
          "gamma) log').  The seed allows any delta > 0; delta < 1 is added (for delta >= 1 the claim is vacuous "
          "and the logarithm can be negative).  Howard et al. 2021 Proposition 4 (two-sided normal mixture) with "
          "rho = gamma."))
register(SpecEntry(
    id="wrrw23.thm6", title="stitched boundary (eta = 2, s = 1.4, rounded)", kind=Kind.BOUNDARY,
    source=src("Theorem 6 (Appendix B; Howard et al. 2021, simplified)"), params=("v0", "delta"), aggregates=("V",),
    expr=sp.Piecewise((sp.oo, V < v0), (_STITCH.subs(delta_prime, delta), True)),
    domain=(v0 > 0, delta > 0, delta < 1), monotone={"delta": -1}, reconstructed=True,
    same_as=("howard.stitching.simplified",),
    proof_claims=("wrrw23.thm6.stitching_constants", "howard.stitching.simplified_dominates"),
    notes="[R] Seed @53053: both Delta M_n and -Delta M_n sigma_n^2-sub-Gaussian, start v0 > 0; 'for any delta in "
          "(0, 1), P(exists n : V_n >= v0 and M_n >= 1.7 sqrt(V_n (log log(2 V_n/v0) + 0.72 log(5.2/delta)))) <= "
          "delta'; the fragment keeps 'n N : Mn 1.7 log log 2Vn + .72 log 5.2' (written '.72' here, '0.72' in "
          "Theorem 3).  Seed @53445: 'the original version of Theorem 6 as found in Howard et al. (2021) has more "
          "free parameters' -- howard.stitching with eta = 2, s = 1.4, rounded up (each rounding safe: "
          "wrrw23.thm6.stitching_constants).  Howard et al.'s one-sided sub-Gaussian condition suffices for this "
          "upper boundary; the two-sided hypothesis here is stronger than needed.  The boundary is +oo below v0."))

# ------------------------------------------------------------------------------------------ lemmas of Sec. 1/3 / App.
register(SpecEntry(
    id="wrrw23.sec3.kov_le_zcdp", title="eps (e^eps - 1)/(e^eps + 1) <= eps^2/2", kind=Kind.LEMMA,
    source=src("Section 1.2, after Informal Theorem 1"), params=("eps",),
    lhs=eps * (sp.exp(eps) - 1) / (sp.exp(eps) + 1), expr=eps**2 / 2, domain=(eps >= 0,), monotone={"eps": +1},
    proof_claims=("wrrw23.sec3.kov_le_zcdp",),
    notes="Seed @11063: 'a slight gap in the lower order term, as eps (e^eps - 1)/(e^eps + 1) <= 1/2 eps^2.  (In fact "
          "the difference between the left and right hand sides is O(eps^4), as can be checked with a Taylor "
          "expansion.)'  The difference is eps^4/24 + O(eps^6).  The id says sec3 (the project's sheet); the text "
          "is in Section 1.2."))
register(SpecEntry(
    id="wrrw23.lemma10", title="E[privacy loss | past] <= eps^2/2 for eps-DP (Bun-Steinke Prop 3.3)",
    kind=Kind.LEMMA, source=src("Lemma 10 (Proposition 3.3 in Bun and Steinke 2016), Appendix D"), params=("eps",),
    lhs=eps * sp.tanh(eps / 2), expr=eps**2 / 2, domain=(eps >= 0,), monotone={"eps": +1},
    same_as=("rruv16.lemma4_6",), proof_claims=("wrrw23.sec3.kov_le_zcdp",),
    notes="Seed @59081: 'Suppose A is eps-DP conditioned on B.  Then E(L(x, x') | B(x)) <= 1/2 (eps(B(x)))^2.'  lhs: "
          "the exact conditional mean privacy loss of eps-randomized response, eps tanh(eps/2) = eps (e^eps - "
          "1)/(e^eps + 1), the largest mean loss of any eps-DP mechanism (every eps-DP mechanism is a post-processing "
          "of RR_eps, KOV15; KL divergence does not grow under post-processing), so lhs <= expr is the lemma at its "
          "worst case and is the same inequality as wrrw23.sec3.kov_le_zcdp.  RRUV16 Lemma 4.6 bounds the same "
          "mean by eps (e^eps - 1)/2 (weaker)."))

_p_true = (1 - delta) * sp.exp(eps) / (1 + sp.exp(eps))
_p_flip = (1 - delta) / (1 + sp.exp(eps))
register(SpecEntry(
    id="wrrw23.def7", title="(eps, delta)-randomized response: its output law sums to 1", kind=Kind.LEMMA,
    source=src("Definition 7 (Conditional Randomized Response), Appendix D"), params=("eps", "delta"),
    lhs=_p_true + _p_flip + delta, relation="==", expr=sp.Integer(1), domain=(eps >= 0, delta >= 0, delta < 1),
    extra={"p_true": _p_true, "p_flip": _p_flip, "p_reveal": delta, "loss_unrevealed": sp.log(_p_true / _p_flip)},
    notes="Seed @62964: R : {0, 1} -> {0, 1, T, F} outputs, on input b, b w.p. (1 - delta) e^eps/(1 + e^eps) "
          "(extra p_true), 1 - b w.p. (1 - delta)/(1 + e^eps) (p_flip), T w.p. delta if b = 1 and F w.p. delta if "
          "b = 0 (p_reveal; each revealing symbol has probability 0 under the other input).  The privacy loss on "
          "the non-revealing outputs is +-eps (loss_unrevealed = log(p_true/p_flip) = eps), on the revealing ones "
          "+-oo w.p. delta: RR is both (eps, delta)-DP and (eps, delta)-pDP.  Conditional RR uses (eps(z), "
          "delta(z)) given the past z.  The exact engine (dpbounds.exact.worst_case) composes it; this entry records the law "
          "(lhs == 1 checks it is a probability distribution)."))
register(SpecEntry(
    id="wrrw23.appF.dp_not_pdp", title="a post-processing of (eps, delta)-RR that is (eps, delta)-DP but not pDP",
    kind=Kind.LEMMA, source=src("Appendix F (An Algorithm Satisfying (eps, delta)-DP but not (eps, delta)-pDP)"),
    params=("eps", "delta"), lhs=eps, relation="<",
    expr=sp.log(sp.exp(eps) + delta * (1 + sp.exp(eps)) / (1 - delta)),
    extra={"probability": _p_true + delta}, domain=(eps > 0, delta > 0, delta < 1), monotone={"eps": +1, "delta": +1},
    notes="Seed @72900-74598: A is (eps, delta)-RR (wrrw23.def7), B(b) = 1 iff A(b) in {1, T}.  B is (eps, delta)-DP "
          "(post-processing), but on {B(1) = 1} the loss is L_B(1, 0) = log((delta + (1 - delta) e^eps/(1 + e^eps)) "
          "/ ((1 - delta)/(1 + e^eps))) = log(e^eps + delta (1 + e^eps)/(1 - delta)) (expr; fragment '= log delta + "
          "e^eps') > eps (lhs), and P(B(1) = 1) = (1 - delta) e^eps/(1 + e^eps) + delta (extra probability) > delta, "
          "so B is not (eps, delta)-pDP.  Why Theorem 3's odometers assume pDP rounds (seed @26000-27500)."))
