"""WRRW23 -- Whitehouse, Ramdas, Rogers, Wu, "Fully-Adaptive Composition in Differential Privacy" (ICML 2023).

Seed: ``003_8948d815f0b87bba.txt``.  Its text extraction lost most displayed formulas; every entry whose formula
had to be reconstructed (from surviving fragments, ``THEOREMS.md`` and the derivation the paper describes) is
``reconstructed=True`` and names the proofs_check claim that re-derives it from first principles.
"""

from __future__ import annotations

import sympy as sp

from .core import Kind, Source, SpecEntry, register, sym

SEED = "003_8948d815f0b87bba.txt"
PAPER = "WRRW23"

eps_g, eps, delta, rho = sym("eps_g"), sym("eps"), sym("delta"), sym("rho")
delta_g, delta_prime, delta_dprime = sym("delta_g"), sym("delta_prime"), sym("delta_dprime")
gamma, v0, n, a, b, B = sym("gamma"), sym("v0"), sym("n"), sym("a"), sym("b"), sym("B")
V, D, R = sym("V"), sym("D"), sym("R")

L1 = sp.log(1 / delta_prime)  # log(1/delta')
DP_SPLIT = (delta_prime > 0, delta_prime < 1, delta_dprime >= 0)


def src(where: str) -> Source:
    return Source(PAPER, where, SEED)


# ------------------------------------------------------------------------------------------ Lemma 1, 2
register(SpecEntry(
    id="wrrw23.lemma1.dp_to_zcdp", title="(eps, delta)-DP => delta-approximate (eps^2/2)-zCDP", kind=Kind.CONVERSION,
    source=src("Lemma 1 (Bun and Steinke 2016), first part"), params=("eps", "delta"), expr=eps**2 / 2,
    domain=(eps >= 0, delta >= 0, delta < 1), extra={"delta": delta}, monotone={"eps": +1},
    notes="Output: rho = eps^2/2 with the same delta (approximate zCDP in the convex-mixture form of "
          "Papernot-Steinke, seed Definition 3 and Appendix C.1)."))
register(SpecEntry(
    id="wrrw23.lemma1.zcdp_to_dp", title="delta-approximate rho-zCDP => (rho + 2 sqrt(rho ln(1/delta')), "
    "delta + (1 - delta) delta')-DP", kind=Kind.CONVERSION,
    source=src("Lemma 1 (Bun and Steinke 2016), second part"), params=("rho", "delta", "delta_prime"),
    expr=rho + 2 * sp.sqrt(rho * L1), domain=(rho >= 0, delta >= 0, delta < 1, delta_prime > 0, delta_prime < 1),
    extra={"delta": delta + (1 - delta) * delta_prime}, monotone={"rho": +1, "delta_prime": -1},
    same_as=("conversions.bs16",),
    notes="With delta = 0 this is Bun-Steinke Prop. 1.3 (conversions.bs16)."))
register(SpecEntry(
    id="wrrw23.lemma2.dp_to_pointwise", title="(eps, delta)-DP => (2 eps, 2 delta/(eps e^eps))-pDP (Lemma 2)",
    kind=Kind.CONVERSION, source=src("Lemma 2 (Kasiviswanathan and Smith 2014)"), params=("eps", "delta"),
    expr=2 * eps, domain=(eps > 0, delta >= 0, delta < 1), extra={"delta": 2 * delta / (eps * sp.exp(eps))},
    same_as=("rruv16.lemma2_3.dp_to_pointwise",),
    notes="The same statement as RRUV16 Lemma 2.3 (second part); WRRW23 quotes it to explain why its filter avoids "
          "the pDP conversion."))

# ------------------------------------------------------------------------------------------ Thm 1, Thm 2
register(SpecEntry(
    id="wrrw23.thm1", title="approximate-zCDP filter", kind=Kind.FILTER, source=src("Theorem 1"),
    params=("B", "delta_g"), aggregates=("R", "D"), expr=R, halt=sp.Or(R > B, D > delta_g),
    domain=(B > 0, delta_g >= 0, delta_g < 1), monotone={"R": +1, "D": +1},
    notes="N = inf{n : rho < sum_{m<=n+1} rho_m or delta < sum_{m<=n+1} delta_m}: never run a round that would push "
          "either sum past its budget; the interaction is delta-approximate rho-zCDP.  Rounds give (rho_m, delta_m); "
          "an (eps_m, delta_m)-DP round has rho_m = eps_m^2/2 (Lemma 1).  Per-round rho enters as the sequence "
          "'rho', per-round delta as 'delta'."))

_STAT2 = sp.sqrt(2 * L1 * V) + V / 2
register(SpecEntry(
    id="wrrw23.thm2", title="(eps, delta)-DP filter matching advanced composition", kind=Kind.FILTER,
    source=src("Theorem 2 (and Informal Theorem 1)"), params=("eps_g", "delta_prime", "delta_dprime"),
    aggregates=("V", "D"), expr=_STAT2, halt=sp.Or(_STAT2 > eps_g, D > delta_dprime),
    domain=(eps_g > 0,) + DP_SPLIT, monotone={"V": +1, "D": +1}, reconstructed=True,
    proof_claims=("wrrw23.thm2.from_lemma1_thm1", "fz21.thm4_7.equals_wrrw23_thm2"),
    same_as=("fz21.thm4_7.bs16",),
    notes="[R] N = inf{n : eps < sqrt(2 log(1/delta') sum_{m<=n+1} eps_m^2) + (1/2) sum_{m<=n+1} eps_m^2 or "
          "delta'' < sum_{m<=n+1} delta_m}; the interaction is (eps, delta' + delta'')-DP.  Reconstructed: the seed "
          "keeps only fragments of Informal Theorem 1; it is Lemma 1 applied to Theorem 1 with rho = V/2.  With "
          "delta'' = 0 it decides exactly as FZ21 Thm 4.7 with the BS16 closed-form B* (proved in proofs_check).  "
          "The lower-order term V/2 replaces KOV's sum eps tanh(eps/2) (<= eps^2/2, difference O(eps^4))."))

# dpbounds' own composition (beyond the papers): Lemma 1 + Theorem 1 + the CKS20 zCDP->DP conversion.
register(SpecEntry(
    id="wrrw23.thm1.cks20", title="(eps, delta)-DP filter: Lemma 1 + Theorem 1 + CKS20 conversion (dpbounds)",
    kind=Kind.FILTER, source=Source(PAPER, "Theorem 1 with Lemma 1 (DP -> zCDP) and CKS20 Prop. 12 (zCDP -> DP)",
                                    SEED),
    params=("eps_g", "delta_prime", "delta_dprime", "B"), aggregates=("V", "D"), expr=V / 2,
    halt=sp.Or(V / 2 > B, D > delta_dprime), domain=(eps_g > 0, B >= 0) + DP_SPLIT, monotone={"V": +1, "D": +1},
    same_as=("fz21.thm4_7",),
    notes="B must be B*_cks20(eps_g, delta') = sup{rho : CKS20's conversion gives (eps_g, delta')-DP}, computed by "
          "reference.conversions.b_star (certified lower end, never overstated).  Validity: each (eps_m, delta_m)-DP "
          "round is delta_m-approximate (eps_m^2/2)-zCDP conditioned on the past (Lemma 1); Theorem 1 with rho "
          "budget B and delta budget delta'' makes the stopped interaction delta''-approximate B-zCDP: in the "
          "convex-mixture form (Definition 3) the output laws are (1 - delta'') P' + delta'' P'' and "
          "(1 - delta'') Q' + delta'' Q'' with P', Q' B-zCDP.  CKS20's conversion (valid for every B-zCDP pair) "
          "makes P', Q' (eps_g, delta')-DP, hence the mixture is (eps_g, delta'' + (1 - delta'') delta')-DP -- "
          "Lemma 1's second part with CKS20 in place of "
"BS16.  CKS20 dominates BS16, so this filter continues whenever wrrw23.thm2 does."))

# ------------------------------------------------------------------------------------------ Thm 3 odometers
_y_star = (sp.sqrt(2 * L1 + 2 * eps_g) - sp.sqrt(2 * L1))**2
_uF = sp.sqrt(L1 / (2 * _y_star)) * (_y_star + V) + V / 2
_INVALID = D > delta_dprime
register(SpecEntry(
    id="wrrw23.thm3.filter", title="filter odometer (tangent to advanced composition at y*)", kind=Kind.ODOMETER,
    source=src("Theorem 3, item 1"), params=("eps_g", "delta_prime", "delta_dprime"), aggregates=("V", "D"),
    expr=sp.Piecewise((sp.oo, _INVALID), (_uF, True)), domain=(eps_g > 0,) + DP_SPLIT,
    extra={"y_star": _y_star}, monotone={"V": +1, "D": +1}, reconstructed=True,
    proof_claims=("wrrw23.thm3.filter.y_star_root", "wrrw23.thm3.filter.tangent"),
    notes="[R] u^F_n = sqrt(log(1/delta')/(2 y*)) (y* + V_n) + V_n/2 with y* = (sqrt(2 log(1/delta') + 2 eps) - "
          "sqrt(2 log(1/delta')))^2; +oo for n > N (N: first time delta'' < sum delta_m).  It equals eps at V = y* "
          "and is the tangent there to sqrt(2 V log(1/delta')) + V/2 (Theorem 4 with a = y*/... ; proofs_check)."))

_uM = sp.sqrt(2 * (V + gamma) * sp.log(sp.sqrt((gamma + V) / gamma) / delta_prime)) + V / 2
register(SpecEntry(
    id="wrrw23.thm3.mixture", title="normal-mixture odometer", kind=Kind.ODOMETER, source=src("Theorem 3, item 2"),
    params=("gamma", "delta_prime", "delta_dprime"), aggregates=("V", "D"),
    expr=sp.Piecewise((sp.oo, _INVALID), (_uM, True)), domain=(gamma > 0,) + DP_SPLIT,
    monotone={"V": +1, "D": +1}, reconstructed=True, proof_claims=("wrrw23.thm5.mixture_integral",),
    notes="[R] u^M_n = sqrt(2 (V_n + gamma) log((1/delta') sqrt((gamma + V_n)/gamma))) + V_n/2; +oo for n > N."))

_STITCH = sp.Rational(17, 10) * sp.sqrt(V * (sp.log(sp.log(2 * V / v0)) + sp.Rational(72, 100) *
                                             sp.log(sp.Rational(52, 10) / delta_prime)))
register(SpecEntry(
    id="wrrw23.thm3.stitched", title="stitched odometer", kind=Kind.ODOMETER, source=src("Theorem 3, item 3"),
    params=("v0", "delta_prime", "delta_dprime"), aggregates=("V", "D"),
    expr=sp.Piecewise((sp.oo, sp.Or(_INVALID, V < v0)), (_STITCH + V / 2, True)), domain=(v0 > 0,) + DP_SPLIT,
    monotone={"D": +1}, reconstructed=True, proof_claims=("wrrw23.thm6.stitching_constants",),
    notes="[R] u^S_n = +oo if n > N or V_n < v0, else 1.7 sqrt(V_n (log log(2 V_n / v0) + 0.72 log(5.2/delta'))) "
          "+ V_n/2 (seed fragment at offset ~29800 keeps 'log log 2Vn + 0.72 log 5.2').  Not monotone at V = v0, "
          "where it drops from +oo to finite."))

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
    domain=(n >= 2, delta_prime > 0, delta_prime < sp.exp(-1), delta_dprime >= 0), reconstructed=True,
    same_as=("rruv16.thm6_5",), proof_claims=("wrrw23.lemma3.vs_rruv16",),
    notes="[R] Surviving fragments (seed offset ~31280): 'u^R_n := sqrt(2 V_n (log(110e) + 2 log(log(|x|)/delta'))) "
          "if V_n in [1/|x|^2, 1], else sqrt(2 (1/|x|^2 + V_n)(1 + 1/2 log(1 + |x|^2 V_n)) log(4 log2(|x|)/delta')) "
          "... + 1/2 V_n', with 1/e > delta' > 0, delta'' >= 0.  Differences from RRUV16 Thm 6.5 eqs. (11)/(12): "
          "(i) the mean term is V_n/2 (WRRW23's pDP setting, Bun-Steinke's eps^2/2) instead of RRUV16's "
          "sum eps (e^eps - 1)/2; (ii) the budget is split delta = delta' + delta'' (delta'' for per-round deltas) "
          "instead of RRUV16's Lemma 3.3 lift; (iii) n is written |x|."))

# ------------------------------------------------------------------------------------------ Thm 4, 5, 6
register(SpecEntry(
    id="wrrw23.thm4", title="linear boundary: P(exists n: M_n >= a + b V_n) <= exp(-2ab)", kind=Kind.BOUNDARY,
    source=src("Theorem 4 (Appendix D; Howard et al. 2020)"), params=("a", "b"), expr=sp.exp(-2 * a * b),
    domain=(a > 0, b > 0), reconstructed=True, proof_claims=("wrrw23.thm3.filter.tangent",),
    monotone={"a": -1, "b": -1},
    notes="[R] The value is the crossing probability for the line a + b V_n (Ville's inequality applied to "
          "exp(2b M_n - 2b^2 V_n))."))
register(SpecEntry(
    id="wrrw23.thm5", title="normal-mixture boundary", kind=Kind.BOUNDARY, source=src("Theorem 5 (Appendix D)"),
    params=("gamma", "delta"), aggregates=("V",),
    expr=sp.sqrt(2 * (V + gamma) * sp.log(sp.sqrt((V + gamma) / gamma) / delta)),
    domain=(gamma > 0, delta > 0, delta < 1), reconstructed=True, monotone={"V": +1, "delta": -1},
    proof_claims=("wrrw23.thm5.mixture_integral",), same_as=("howard.normal_mixture.two_sided",),
    notes="[R] P(exists n : M_n >= sqrt(2 (V_n + gamma) log((1/delta) sqrt((V_n + gamma)/gamma)))) <= delta."))
register(SpecEntry(
    id="wrrw23.thm6", title="stitched boundary (eta = 2, s = 1.4, rounded)", kind=Kind.BOUNDARY,
    source=src("Theorem 6 (Appendix D; Howard et al. 2021, simplified)"), params=("v0", "delta"), aggregates=("V",),
    expr=sp.Piecewise((sp.oo, V < v0), (_STITCH.subs(delta_prime, delta), True)),
    domain=(v0 > 0, delta > 0, delta < 1), reconstructed=True, same_as=("howard.stitching.simplified",),
    proof_claims=("wrrw23.thm6.stitching_constants",),
    notes="[R] P(exists n : V_n >= v0 and M_n >= 1.7 sqrt(V_n (log log(2 V_n/v0) + 0.72 log(5.2/delta)))) <= delta "
          "(both M_n and -M_n increments sigma_n^2-sub-Gaussian)."))

# ------------------------------------------------------------------------------------------ lemmas of Sec. 3 / App.
register(SpecEntry(
    id="wrrw23.sec3.kov_le_zcdp", title="eps (e^eps - 1)/(e^eps + 1) <= eps^2/2", kind=Kind.LEMMA,
    source=src("Section 1.2, after Informal Theorem 1"), params=("eps",),
    lhs=eps * (sp.exp(eps) - 1) / (sp.exp(eps) + 1), expr=eps**2 / 2, domain=(eps >= 0,),
    proof_claims=("wrrw23.sec3.kov_le_zcdp",),
    notes="The paper also states the difference is O(eps^4) (Taylor expansion: eps^4/24 + O(eps^6))."))
register(SpecEntry(
    id="wrrw23.lemma10", title="E[privacy loss | past] <= eps^2/2 for eps-DP (Bun-Steinke Prop 3.3)",
    kind=Kind.LEMMA, source=src("Lemma 10 (Proposition 3.3 in Bun and Steinke 2016)"), params=("eps",),
    lhs=eps * sp.tanh(eps / 2), expr=eps**2 / 2, domain=(eps >= 0,), same_as=("rruv16.lemma4_6",),
    proof_claims=("wrrw23.sec3.kov_le_zcdp",),
    notes="lhs: the exact mean privacy loss of eps-randomized response, eps tanh(eps/2), the largest mean loss of "
          "any eps-DP mechanism (KOV15's reduction); rhs: the lemma's bound."))
register(SpecEntry(
    id="wrrw23.def7", title="(eps, delta)-randomized response: probability of the true bit", kind=Kind.LEMMA,
    source=src("Definition 7 (conditional randomized response)"), params=("eps", "delta"),
    lhs=sp.Integer(0), expr=(1 - delta) * sp.exp(eps) / (1 + sp.exp(eps)), domain=(eps >= 0, delta >= 0, delta < 1),
    extra={"p_flip": (1 - delta) / (1 + sp.exp(eps)), "p_reveal": delta},
    notes="Outputs: b w.p. (1-delta) e^eps/(1+e^eps); 1-b w.p. (1-delta)/(1+e^eps); a symbol revealing b w.p. "
          "delta.  The exact engine (reference.exact) composes it."))
