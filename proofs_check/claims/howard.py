"""Claims about Howard, Ramdas, McAuliffe, Sekhon's polynomial stitching boundary (HRMS21) and the rounded form
WRRW23 Theorem 6 uses (eta = 2, s = 1.4 -> 1.7, 0.72, 5.2).

The simplified boundary is safe iff it is >= the general one for every v >= m and delta in (0, 1).  Squared and
divided by v both are affine in LL = log log(2 v/m) in [log log 2, oo) and u = log(1/delta) in (0, oo):

    simplified^2 / v = K^2 (LL + c log(a) + c u),          K, c, a = 1.7, 0.72, 5.2
    general^2 / v    = k1^2 (s LL + log(zeta(s)/log(2)^s) + u),  k1 = (2^(1/4) + 2^(-1/4))/sqrt 2, s = 1.4

so the margin simplified^2/v - general^2/v = c_LL LL + c_u u + c_0 with exact coefficients, and it is >= 0 on the
whole domain iff c_LL >= 0, c_u >= 0 and the corner value c_LL log log 2 + c_0 >= 0 (an affine function on a
quadrant-like region is minimized at its corner when both slopes are >= 0; a negative slope sends it to -oo).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import sympy as sp
from flint import arb

from dpbounds import spec
from dpbounds.spec.core import assumed, finite_branch
from dpbounds.evaluation.numeric import arb_prec, fraction_to_arb

from ..core import Verdict, claim

HOW = "HRMS21 (Howard, Ramdas, McAuliffe, Sekhon, Ann. Statist. 2021), Theorem 1 with polynomial stitching"
WRRW = "WRRW23, seed 003_8948d815f0b87bba.txt, Theorem 6"

ETA, S_EXP = Fraction(2), Fraction(7, 5)          # eta = 2, s = 1.4 (exact)
K_ROUND, C_ROUND, A_ROUND = Fraction(17, 10), Fraction(72, 100), Fraction(52, 10)


def k1_squared_exact() -> sp.Expr:
    """k1^2 at eta = 2 in closed form: ((2^(1/4) + 2^(-1/4))/sqrt 2)^2 = 1 + 3 sqrt(2)/4 (sympy)."""
    k1 = (sp.Integer(2) ** sp.Rational(1, 4) + sp.Integer(2) ** sp.Rational(-1, 4)) / sp.sqrt(2)
    return sp.nsimplify(sp.expand(k1**2))


@dataclass
class StitchingMargin:
    """Coefficients (arb balls) of (simplified^2 - general^2)/v = c_LL LL + c_u log(1/delta) + c_0."""
    c_LL: arb
    c_u: arb
    c_0: arb
    corner: arb          # value at LL = log log 2 (v = m), log(1/delta) = 0 (delta -> 1)
    safe: bool           # certified >= 0 on the whole domain
    unsafe_point: tuple | None   # exact (v/m, delta) where simplified < general is certified, if unsafe

    def summary(self) -> str:
        f = lambda b: f"{float(b.mid()):.6f}"  # noqa: E731
        return (f"c_LL = {f(self.c_LL)}, c_u = {f(self.c_u)}, c_0 = {f(self.c_0)}, corner (v = m, delta -> 1) = "
                f"{f(self.corner)}")


def _consts(K: Fraction, c: Fraction, a: Fraction, s: Fraction = S_EXP, eta: Fraction = ETA):
    two = fraction_to_arb(eta)
    k1 = (two ** fraction_to_arb(Fraction(1, 4)) + two ** fraction_to_arb(Fraction(-1, 4))) / two.sqrt()
    sa = fraction_to_arb(s)
    Kb, cb, ab = fraction_to_arb(K), fraction_to_arb(c), fraction_to_arb(a)
    c_LL = Kb**2 - k1**2 * sa
    c_u = Kb**2 * cb - k1**2
    c_0 = Kb**2 * cb * ab.log() - k1**2 * (sa.zeta() / two.log() ** sa).log()
    return k1, c_LL, c_u, c_0


def stitching_boundaries(v_over_m: Fraction, delta: Fraction, K: Fraction = K_ROUND, c: Fraction = C_ROUND,
                         a: Fraction = A_ROUND) -> tuple[arb, arb]:
    """(simplified^2/v, general^2/v) at exact v/m, delta (arb balls, eta = 2, s = 1.4)."""
    with arb_prec(128):
        two = arb(2)
        k1 = (two ** fraction_to_arb(Fraction(1, 4)) + two ** fraction_to_arb(Fraction(-1, 4))) / two.sqrt()
        s = fraction_to_arb(S_EXP)
        LL = (two * fraction_to_arb(v_over_m)).log().log()
        d = fraction_to_arb(delta)
        general = k1**2 * (s * LL + (s.zeta() / (d * two.log() ** s)).log())
        simp = fraction_to_arb(K) ** 2 * (LL + fraction_to_arb(c) * (fraction_to_arb(a) / d).log())
        return simp, general


def stitching_margin(v_over_m: Fraction, delta: Fraction, k1_round: Fraction = K_ROUND, c_round: Fraction = C_ROUND,
                     a_round: Fraction = A_ROUND) -> arb:
    """(simplified^2 - general^2)/v at one exact point (arb): > 0 means the simplified boundary is larger there."""
    simp, gen = stitching_boundaries(Fraction(v_over_m), Fraction(delta), k1_round, c_round, a_round)
    with arb_prec(128):
        return simp - gen


def stitching_margin_decision(K: Fraction = K_ROUND, c: Fraction = C_ROUND, a: Fraction = A_ROUND) -> StitchingMargin:
    """Decide, over all v >= m and delta in (0, 1), whether K sqrt(v (LL + c log(a/delta))) >= HRMS21's boundary.

    Certified with arb: the margin is affine in (LL, log 1/delta) with the returned coefficients.  When unsafe, an
    exact witness (v/m, delta) is searched along the offending direction and certified pointwise.
    """
    K, c, a = Fraction(K), Fraction(c), Fraction(a)
    with arb_prec(128):
        two = arb(2)
        _, c_LL, c_u, c_0 = _consts(K, c, a)
        LLmin = two.log().log()
        corner = c_LL * LLmin + c_0
        safe = bool(c_LL >= 0) and bool(c_u >= 0) and bool(corner >= 0)
    witness = None
    if not safe:
        # walk out along the negative direction(s) until a point is certified unsafe
        # v/m = 2^(2^e) (log log grows linearly in e) crossed with delta from near 1 down to 1e-200
        cands = [(Fraction(1), Fraction(999, 1000))] + [
            (Fraction(2) ** (2 ** e), d) for e in range(12)
            for d in (Fraction(999, 1000), Fraction(1, 2), Fraction(1, 10**6), Fraction(1, 10**30), Fraction(1, 10**200))]
        for vm, d in cands:
            if stitching_margin(vm, d, K, c, a) < 0:
                witness = (vm, d)
                break
    return StitchingMargin(c_LL, c_u, c_0, corner, safe, witness)


def simplified_constants_from_spec(entry_id: str, delta_name: str = "delta", minus_half_V: bool = False):
    """(K, c, a) as Fractions, read off a spec entry of the form K sqrt(V (log log(2V/v0) + c log(a/delta))).

    Substitutes V = v0 exp(exp(W))/2 (so log log(2V/v0) = W) and delta = exp(-u); then expr^2/V = K^2 W + K^2 c u +
    K^2 c log a is a polynomial in (W, u) whose coefficients give the constants.  Raises ValueError when the entry is
    not of that form (e.g. a different eta inside the log log)."""
    e = assumed(finite_branch(spec.get(entry_id).expr))
    syms = {x.name: x for x in e.free_symbols}
    W, u = sp.Symbol("W", real=True), sp.Symbol("u", positive=True)
    Vs, v0s, ds = syms.get("V"), syms.get("v0"), syms.get(delta_name)
    if Vs is None or v0s is None or ds is None:
        raise ValueError(f"{entry_id}: free symbols {sorted(syms)}")
    if minus_half_V:
        e = e - Vs / 2
    q = sp.expand(sp.expand_log((e**2 / Vs).subs(ds, sp.exp(-u)), force=True))
    q = sp.expand(sp.expand_log(q.subs(Vs, v0s * sp.exp(sp.exp(W)) / 2), force=True))
    q = sp.simplify(q)
    poly = sp.Poly(sp.expand(q), W, u)
    if poly.total_degree() != 1 or set(poly.monoms()) - {(1, 0), (0, 1), (0, 0)}:
        raise ValueError(f"{entry_id}: expr^2/V is not affine in (log log, log 1/delta): {q}")
    K2, K2c, K2clog = poly.coeff_monomial(W), poly.coeff_monomial(u), poly.coeff_monomial(1)
    K = sp.sqrt(K2)
    c = sp.nsimplify(K2c / K2)
    a = sp.simplify(sp.exp(K2clog / K2c))
    if not all(x.is_Rational for x in (K, c, a)):
        raise ValueError(f"{entry_id}: constants not rational: K = {K}, c = {c}, a = {a}")
    return tuple(Fraction(int(x.p), int(x.q)) for x in (K, c, a))


def general_matches_spec() -> bool:
    """The spec's howard.stitching at eta = 2, s = 7/5 equals k1 sqrt(v (1.4 log log(2v/m) + log(zeta(1.4)/(delta
    log(2)^1.4)))) written here independently (and so does howard.stitching.simplified's extra 'unrounded', if any)."""
    pos = lambda ex: ex.xreplace({x: sp.Symbol(x.name, positive=True) for x in ex.free_symbols})  # noqa: E731
    g = pos(assumed(finite_branch(spec.get("howard.stitching").expr)))
    n = {x.name: x for x in g.free_symbols}
    g = g.subs({n["eta"]: 2, n["s"]: sp.Rational(7, 5)})
    V, m, d = n["V"], n["v0"], n["delta"]
    k1 = (sp.Integer(2) ** sp.Rational(1, 4) + sp.Integer(2) ** sp.Rational(-1, 4)) / sp.sqrt(2)
    mine = k1 * sp.sqrt(V * (sp.Rational(7, 5) * sp.log(sp.log(2 * V / m)) +
                             sp.log(sp.zeta(sp.Rational(7, 5)) / (d * sp.log(2) ** sp.Rational(7, 5)))))
    ok = sp.simplify(sp.expand_log(g**2 - mine**2, force=True)) == 0
    ex = spec.get("howard.stitching.simplified").extra or {}
    if ok and "unrounded" in ex:
        un = pos(assumed(finite_branch(ex["unrounded"])))
        nn = {x.name: x for x in un.free_symbols}
        un = un.xreplace({nn[k]: n[k] for k in ("V", "v0", "delta") if k in nn})
        ok = sp.simplify(sp.expand_log(un**2 - mine**2, force=True)) == 0
    return ok


@claim("howard.stitching.k1", spec_id="howard.stitching",
       quotes=("wrrw23.thm6",),
       statement="at eta = 2, k1 = (2^(1/4) + 2^(-1/4))/sqrt 2 = sqrt(1 + 3 sqrt(2)/4) ~ 1.43550, and sqrt(1.4) k1 ~ "
                 "1.69851 <= 1.7 (the 1.7 of WRRW23 Theorem 6 absorbs s = 1.4 into the leading constant)",
       source=f"{HOW}; {WRRW}", method="sympy (exact algebraic numbers)")
def _k1() -> Verdict:
    e = spec.get("howard.stitching")
    k1_spec = e.extra.get("k1") if e.extra else None
    eta = next((x for x in (k1_spec.free_symbols if k1_spec is not None else ()) if x.name == "eta"), None)
    k1_sq = k1_squared_exact()
    ok_form = sp.simplify(k1_sq - (1 + 3 * sp.sqrt(2) / 4)) == 0
    ok_spec = k1_spec is not None and eta is not None and sp.simplify(sp.expand(k1_spec.subs(eta, 2) ** 2) - k1_sq) == 0
    # 1.7^2 - 1.4 k1^2 = 289/100 - 7/5 - 21 sqrt(2)/20 = 149/100 - 21 sqrt 2/20 > 0  <=>  (149/100)^2 > 2 (21/20)^2
    gap = sp.Rational(289, 100) - sp.Rational(7, 5) * k1_sq
    a_, b_ = sp.Rational(149, 100), sp.Rational(21, 20)
    ok_gap = sp.simplify(gap - (a_ - b_ * sp.sqrt(2))) == 0 and a_**2 > 2 * b_**2
    ok_plain = sp.Rational(289, 100) > k1_sq  # 1.89 > 3 sqrt 2 / 4 <=> 1.89^2 > 9/8
    ok_plain = ok_plain and sp.Rational(189, 100) ** 2 > sp.Rational(9, 8)
    if ok_form and ok_spec and ok_gap and ok_plain:
        return Verdict("proved", "k1^2 = (sqrt 2 + 2 + 1/sqrt 2)/2 = 1 + 3 sqrt(2)/4 (~2.060660, k1 ~ 1.435503), the spec's "
                       "howard.stitching extra['k1'] at eta = 2 squares to the same (sympy).  1.7^2 - 1.4 k1^2 = 149/100 - "
                       "21 sqrt(2)/20 > 0 since (149/100)^2 = 2.2201 > 2 (21/20)^2 = 2.205: so 1.7 >= sqrt(1.4) k1 "
                       f"~ {float(sp.sqrt(sp.Rational(7, 5) * k1_sq)):.6f}, rounded UP (safe), slack 0.09%.  In particular "
                       "k1 <= 1.7 with ample slack; the tight comparison is with sqrt(s) k1, because the simplified form "
                       "has coefficient 1 on log log where the general one has s = 1.4.", "sympy")
    return Verdict("refuted", f"form={ok_form}, spec k1 matches={ok_spec}, 1.7^2 >= 1.4 k1^2: {ok_gap}, 1.7 >= k1: "
                   f"{ok_plain}", "sympy")


@claim("howard.stitching.simplified_dominates", spec_id="howard.stitching.simplified",
       quotes=("wrrw23.thm6",),
       statement="for every v >= m and delta in (0, 1): 1.7 sqrt(v (log log(2v/m) + 0.72 log(5.2/delta))) >= k1 sqrt(v "
                 "(1.4 log log(2v/m) + log(zeta(1.4)/(delta log(2)^1.4)))) (HRMS21 at eta = 2, s = 1.4)",
       source=f"{HOW}; {WRRW}", method="arb (exact rational constants; affine margin, corner certified)")
def _dominates() -> Verdict:
    try:
        K, c, a = simplified_constants_from_spec("howard.stitching.simplified")
    except ValueError as ex:
        return Verdict("inconclusive", f"could not read the spec's constants: {ex}", "sympy")
    r = stitching_margin_decision(K, c, a)
    ok_gen = general_matches_spec()
    # the general boundary's ell must be > 0 on the domain (so sqrt is real): ell(m, delta -> 1) in arb
    with arb_prec(128):
        two, s = arb(2), fraction_to_arb(S_EXP)
        ell_corner = s * two.log().log() + (s.zeta() / two.log() ** s).log()
    if r.safe and ok_gen and ell_corner > 0:
        return Verdict("proved", f"The spec's howard.stitching.simplified reads K = {K}, c = {c}, a = {a} (sympy, from its "
                       "expression); its howard.stitching at eta = 2, s = 7/5 equals the independently written k1 sqrt(v "
                       "(1.4 log log(2v/m) + log(zeta(1.4)/(delta log(2)^1.4)))).  Squared and divided by v, simplified - "
                       "general = c_LL log log(2v/m) + c_u log(1/delta) + c_0 with (arb, exact rational constants) "
                       f"{r.summary()}.  Both slopes are > 0 and log log(2v/m) >= log log 2, log(1/delta) > 0 on the "
                       "domain, so the margin is >= its corner value > 0 everywhere: the simplified boundary dominates "
                       f"the general one for all v >= m, delta in (0, 1) (and the general ell >= "
                       f"{float(ell_corner.lower()):.4f} > 0, so both square roots are real).", "sympy + arb")
    why = []
    if not ok_gen:
        why.append("the spec's howard.stitching at eta = 2, s = 1.4 differs from HRMS21's boundary as written here")
    if not r.safe:
        why.append(f"with the spec's constants K = {K}, c = {c}, a = {a} the margin is not >= 0: {r.summary()}; witness "
                   f"(v/m, delta) = {tuple(str(x) for x in r.unsafe_point) if r.unsafe_point else 'none found'}")
    return Verdict("refuted" if not r.safe else "erratum", "; ".join(why), "sympy + arb")


@claim("howard.stitching.rounding_directions", spec_id="howard.stitching.simplified",
       quotes=("wrrw23.thm6",),
       statement="each rounding of WRRW23 Theorem 6 goes the safe way: 1.7 >= sqrt(1.4) k1, 0.72 >= 1/1.4, "
                 "5.2 >= zeta(1.4)/log(2)^1.4 (the exact constants of sqrt(1.4) k1 sqrt(v (LL + (1/1.4) log(a/delta))))",
       source=f"{HOW}; {WRRW}", method="arb")
def _directions() -> Verdict:
    with arb_prec(128):
        two, s = arb(2), fraction_to_arb(S_EXP)
        k1, _, _, _ = _consts(K_ROUND, C_ROUND, A_ROUND)
        K_exact = s.sqrt() * k1
        c_exact = 1 / s
        a_exact = s.zeta() / two.log() ** s
        rows = [("K", K_ROUND, K_exact), ("c", C_ROUND, c_exact), ("a", A_ROUND, a_exact)]
        ok = all(fraction_to_arb(r) > x for _, r, x in rows)
        txt = "; ".join(f"{n}: exact {float(x.mid()):.6f} -> {float(r)} (UP, +{float((fraction_to_arb(r) / x - 1).mid()) * 100:.3f}%)"
                        for n, r, x in rows)
    if ok:
        return Verdict("proved", "Writing HRMS21 at eta = 2, s = 1.4 as K sqrt(v (LL + c log(a/delta))) gives exact K = "
                       "sqrt(1.4) k1, c = 1/1.4, a = zeta(1.4)/log(2)^1.4; each is rounded up: " + txt + ".  Rounding "
                       "K, c and a up raises the boundary for log log(2v/m) >= 0 termwise; for v/m in [1, e/2) (log log < "
                       "0) the raised coefficient on log log is covered by the other roundings' slack "
                       "(howard.stitching.simplified_dominates).", "arb")
    return Verdict("refuted", txt, "arb")
