"""Claims about RRUV16 (seed 000_6d22f6a3880a066d.txt) and the Nikolov notes (seed 001_67d4c89f55229a83.txt)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import sympy as sp
from flint import arb

import spec
from spec.core import assumed, sym

from ..bnb import prove_positive
from ..core import Verdict, claim
from reference.numeric import arb_prec, fraction_to_arb

RRUV = "RRUV16, seed 000_6d22f6a3880a066d.txt"
NIK = "Nikolov17, seed 001_67d4c89f55229a83.txt"
SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"


def _seed_text(name: str) -> str:
    for base in (SEEDS, Path("/work/shared/seeds"), Path.cwd().parent / "shared" / "seeds"):
        p = base / name
        if p.exists():
            return p.read_text(encoding="utf-8")
    return ""


def _is_zero(expr: sp.Expr) -> bool:
    return sp.simplify(expr) == 0


# ------------------------------------------------------------------------------------------ Lemma 2.3


def lemma2_3_counterexample(eps: Fraction, delta: Fraction, factor: Fraction = Fraction(99, 100)):
    """Three-point X, Y that are (eps, delta)-indistinguishable (both directions) yet, under a ~ X *and* under a ~ Y,
    |log X(a)/Y(a)| > 2 eps with probability above the stated 2 delta/(eps e^eps).

    X = (p, q, 1-p-q), Y = (q, p, 1-p-q) with q = factor delta/(e^{2eps} - e^eps) and p (rational) just below
    e^eps q + delta.  The hockey-stick divergence either way is max(0, p - e^eps q) + max(0, q - e^eps p) <= delta,
    which is (eps, delta)-indistinguishability on every event; the outcomes a and c have |log-ratio| > 2 eps.
    Returns (p, q, bad_mass, stated_bound) or None.
    """
    with arb_prec(200):
        e = fraction_to_arb(eps).exp()
        d = fraction_to_arb(delta)
        q = Fraction((fraction_to_arb(factor) * d / (e * e - e)).mid().str(30, radius=False))
        qa = fraction_to_arb(q)
        p = Fraction((e * qa + d - arb("1e-25")).mid().str(30, radius=False))
        pa = fraction_to_arb(p)
        zero = arb(0)
        hockey = (pa - e * qa).max(zero) + (qa - e * pa).max(zero)  # the same in both directions by symmetry
        two_eps = (2 * fraction_to_arb(eps)).exp()
        bad_a = pa / qa > two_eps  # |log| > 2 eps at a and (by symmetry) at c
        bad_mass = pa + qa          # under a ~ X and under a ~ Y alike
        stated = 2 * d / (fraction_to_arb(eps) * e)
        if hockey <= d and bad_a and bad_mass > stated and p + q < 1:
            return p, q, bad_mass, stated
    return None


@claim("rruv16.lemma2_3.second_conversion", spec_id="rruv16.lemma2_3.dp_to_pointwise",
       statement="(eps, delta)-indistinguishable => (2 eps, 2 delta/(e^eps eps))-pointwise indistinguishable",
       source=f"{RRUV}, Lemma 2.3 (second part)", method="exact two-point counterexample, certified with arb")
def _lemma2_3() -> Verdict:
    e = spec.get("rruv16.lemma2_3.dp_to_pointwise")
    eps_s, d_s = sym("eps"), sym("delta")
    stated = e.extra["delta"]
    assert sp.simplify(stated - 2 * d_s / (sp.exp(eps_s) * eps_s)) == 0
    ce = lemma2_3_counterexample(Fraction(1), Fraction(1, 100))
    if ce is None:
        return Verdict("inconclusive", "no counterexample found at eps = 1, delta = 0.01")
    p, q, pa, stated_v = ce
    return Verdict("refuted",
                   "At eps = 1, delta = 1/100: X = (p, q, 1-p-q) and Y = (q, p, 1-p-q) with q = " + str(q) + ", p = "
                   + str(p) + " satisfy P[X in E] <= e^eps P[Y in E] + delta and vice versa for every event E (the "
                   "hockey-stick divergence max(0, p - e q) + max(0, q - e p) <= delta, checked in arb), yet "
                   "|log X(a)/Y(a)| > 2 eps on {a, c}, which has probability p + q = " + f"{float(pa.mid()):.6g}"
                   + " under a ~ X and under a ~ Y alike, more than 2 delta/(eps e^eps) = "
                   + f"{float(stated_v.mid()):.6g}" + ".  The standard argument (Kasiviswanathan-Smith) gives "
                   "about delta (e^eps + e^-eps)/(e^eps - 1) here; 2 delta/(eps e^eps) is smaller than delta e^eps/"
                   "(e^eps - 1) for every eps > 0, so the lemma as printed is too strong (it is right to first order "
                   "as eps -> 0).  Downstream: RRUV16 Lemma 3.3's lift (aggregate LIFT) uses this constant.",
                   "exact rationals + arb")


# ------------------------------------------------------------------------------------------ Thm 4.5


def xlogx_max_below(c: Fraction):
    """Certified: x log(1/x) < c on (0, 1] (branch and bound on [2^-60, 1]; below it x log(1/x) < 60 log 2 2^-60)."""
    tiny = Fraction(1, 2**60)
    r = prove_positive(lambda x: fraction_to_arb(c) + x * x.log(), [(tiny, Fraction(1))])
    return r


@claim("rruv16.thm4_5.constant_0_74", spec_id="rruv16.thm4_5",
       statement="x log(1/x) <= 0.37 on (0, 1), hence s e^{-s^2/2} <= sqrt(0.74 beta) at s = sqrt(2 log(1/beta))",
       source=f"{RRUV}, Theorem 4.5 and its proof", method="sympy (maximum at 1/e) + certified branch and bound")
def _thm4_5() -> Verdict:
    x = sp.Symbol("x", positive=True)
    f = x * sp.log(1 / x)
    crit = sp.solve(sp.diff(f, x), x)
    fmax = f.subs(x, crit[0])
    b = sp.Symbol("beta", positive=True)
    s = sp.sqrt(2 * sp.log(1 / b))
    lhs_sq = sp.simplify((s * sp.exp(-s**2 / 2))**2)  # = 2 beta^2 log(1/beta)
    ok_identity = _is_zero(lhs_sq - 2 * b**2 * sp.log(1 / b))
    r = xlogx_max_below(Fraction(37, 100))
    if crit == [sp.exp(-1)] and fmax == sp.exp(-1) and sp.exp(-1) < sp.Rational(37, 100) and ok_identity and r.decided:
        return Verdict("proved", "d/dx[x log(1/x)] = 0 only at x = 1/e, maximum 1/e = 0.36788 < 0.37 (sympy); "
                       "(s e^{-s^2/2})^2 = 2 beta^2 log(1/beta) <= 2 beta * 0.37 = 0.74 beta.  Certified check: "
                       + r.summary(), "sympy + arb")
    return Verdict("refuted", f"maximum {fmax}; bnb: {r.summary()}")


@claim("rruv16.lemma4_6.vs_bun_steinke", spec_id="rruv16.lemma4_6",
       statement="eps tanh(eps/2) <= eps^2/2 <= eps (e^eps - 1)/2 for eps >= 0: Bun-Steinke's mean bound is tighter "
                 "than Lemma 4.6's everywhere (equal only at 0)", source=f"{RRUV}, Lemma 4.6; WRRW23 Lemma 10",
       method="sympy (monotone differences)")
def _lemma4_6() -> Verdict:
    e = sp.Symbol("eps", nonnegative=True)
    entry = spec.get("rruv16.lemma4_6")
    rhs = entry.expr.subs(sym("eps"), e)
    d1 = rhs - e**2 / 2  # (eps/2)(e^eps - 1 - eps) >= 0
    d2 = e**2 / 2 - e * sp.tanh(e / 2)
    ok1 = _is_zero(d1 - e / 2 * (sp.exp(e) - 1 - e))
    # e^x - 1 - x >= 0 and x - tanh(x) >= 0: both vanish at 0 with nonnegative derivative
    g1, g2 = sp.exp(e) - 1 - e, e / 2 - sp.tanh(e / 2)
    ok2 = g1.subs(e, 0) == 0 and sp.simplify(sp.diff(g1, e)) == sp.exp(e) - 1
    ok3 = g2.subs(e, 0) == 0 and _is_zero(sp.diff(g2, e) - sp.tanh(e / 2)**2 / 2)
    if ok1 and ok2 and ok3:
        return Verdict("proved", "eps(e^eps-1)/2 - eps^2/2 = (eps/2)(e^eps - 1 - eps) >= 0 (e^x - 1 - x vanishes at 0, "
                       "derivative e^x - 1 >= 0); eps^2/2 - eps tanh(eps/2) = eps (eps/2 - tanh(eps/2)) >= 0 "
                       "(derivative tanh^2(x/2)/2 >= 0).  The ratio of Lemma 4.6's bound to eps^2/2 is "
                       "(e^eps - 1)/eps: 1.05 at eps = 0.1, 1.72 at eps = 1.", "sympy")
    return Verdict("refuted", "identity check failed")


# ------------------------------------------------------------------------------------------ Thm 5.1


@claim("rruv16.thm5_1.statement_vs_proof", spec_id="rruv16.thm5_1",
       statement="K of eq. (6) equals sum eps_j (e^eps_j - 1)/2 plus the Theorem 4.4 bound with U_k^2/4 = V and the "
                 "stated x", source=f"{RRUV}, Theorem 5.1 and its proof (Theorem 4.4 + Lemma 4.6)", method="sympy")
def _thm5_1() -> Verdict:
    e51, e44 = spec.get("rruv16.thm5_1"), spec.get("rruv16.thm4_4")
    V, A, x, d = sym("V"), sym("A"), sym("x"), sym("delta")
    xs = e51.extra["x"]
    derived = A + e44.expr.subs({x: xs, d: sym("delta_g")})
    if _is_zero(assumed(e51.expr - derived)):
        return Verdict("proved", "eq. (6) - [sum eps(e^eps-1)/2 + sqrt((V + x)(2 + log(V/x + 1)) log(1/delta_g))] "
                       "simplifies to 0 with x = eps_g^2/(28.04 log(1/delta_g)): the privacy-loss increments lie in "
                       "[-eps_i - mu_i, eps_i - mu_i], so U_k^2 = sum (2 eps_i)^2 = 4V and U_k^2/4 = V.", "sympy")
    return Verdict("erratum", f"difference {sp.simplify(e51.expr - derived)}")


def near_optimal_constant(lo: Fraction = Fraction(2804, 100), hi: Fraction = Fraction(28042, 1000)):
    """Certified facts about g(c) = (1/8 + 1/c)(1 + log(1 + c/8)/2), the squared sqrt-term of Theorem 5.1 over
    2 eps_g^2 at V = eps_g^2/(8 L) (eps_g = eps sqrt(8 k L)) and x = eps_g^2/(c L).

    Returns (sign_change, g(28.04), a certified lower bound of g on [lo, hi], max |g'| on [lo, hi]): if g' < 0 at lo
    and > 0 at hi, the minimizer c* lies in (lo, hi) and g(c*) >= g(lo) - max|g'| (hi - lo).
    """
    from reference.interp import ArbBackend, compile_expr
    c = sp.Symbol("c", positive=True)
    g = (sp.Rational(1, 8) + 1 / c) * (1 + sp.log(1 + c / 8) / 2)
    dg = sp.diff(g, c)
    fd = compile_expr(dg.subs(c, sym("x")), ArbBackend())
    fg = compile_expr(g.subs(c, sym("x")), ArbBackend())
    with arb_prec(200):
        sign_change = fd({"x": fraction_to_arb(lo)}) < 0 < fd({"x": fraction_to_arb(hi)})
        I = fraction_to_arb(lo).union(fraction_to_arb(hi))
        dmax = abs(fd({"x": I}))
        g_2804 = fg({"x": fraction_to_arb(Fraction(2804, 100))})
        g_lo = fg({"x": fraction_to_arb(lo)}) - dmax * fraction_to_arb(hi - lo)
    return sign_change, g_2804, g_lo, dmax


@claim("rruv16.thm5_1.near_optimal_28_04", spec_id="rruv16.thm5_1",
       statement="for eps_g = eps sqrt(8 k log(1/delta_g)) and eps_i = eps, the constant 28.04 in x = eps_g^2/(28.04 L) "
                 "is nearly optimal", source=f"{RRUV}, remark after Theorem 5.1",
       method="sympy derivative + certified root bracket (arb)")
def _near_opt() -> Verdict:
    sign_change, g_2804, g_lo, dmax = near_optimal_constant()
    if not sign_change:
        return Verdict("inconclusive", "could not certify the sign change of g' on [28.04, 28.042]")
    with arb_prec(200):
        rel = (g_2804 / g_lo).sqrt() - 1
        rel_up = float(rel.upper())
    verdict = "verified" if rel_up < 1e-3 else "erratum"
    return Verdict(verdict, "With V = eps_g^2/(8L) and x = eps_g^2/(cL) the sqrt term is eps_g sqrt(2 g(c)), "
                   "g(c) = (1/8 + 1/c)(1 + log(1 + c/8)/2).  g' < 0 at c = 28.04 and g' > 0 at c = 28.042 (arb), so the "
                   "optimal constant c* lies in (28.04, 28.042) (numerically 28.04193...), and "
                   f"sqrt(g(28.04)/g(c*)) - 1 <= {rel_up:.2e}: 28.04 is optimal to within {100 * rel_up:.1e}% -- the "
                   "remark's 'nearly optimal' holds (it is the optimum rounded to two decimals).  The mean term "
                   "sum eps (e^eps - 1)/2 is ignored, as in the remark.", "sympy + arb")


# ------------------------------------------------------------------------------------------ Thm 6.5


@claim("rruv16.thm6_5.beta_solves", spec_id="rruv16.thm6_5",
       statement="beta = 0.74 log^2(n)(sqrt(1 + delta_g/(2.96 sqrt(e) log^2 n)) - 1)^2 solves "
                 "delta_g/2 = 2 sqrt(e)(beta + 2 log(n) sqrt(0.74 beta))", source=f"{RRUV}, proof of Theorem 6.5",
       method="sympy (substitution)")
def _beta_solves() -> Verdict:
    beta = assumed(spec.get("rruv16.thm6_5").extra["beta"])
    n, dg = [s for s in sorted(beta.free_symbols, key=lambda s: s.name)][::-1]
    if n.name != "n":
        n, dg = dg, n
    resid = 2 * sp.sqrt(sp.E) * (beta + 2 * sp.log(n) * sp.sqrt(sp.Rational(74, 100) * beta)) - dg / 2
    # with y = sqrt(beta) >= 0 the equation is a quadratic whose nonnegative root is the stated one
    y = sp.sqrt(sp.Rational(74, 100)) * sp.log(n) * (sp.sqrt(1 + dg / (sp.Rational(296, 100) * sp.sqrt(sp.E) *
                                                                       sp.log(n)**2)) - 1)
    ok_sq = _is_zero(sp.expand(y**2 - beta))
    quad = 2 * sp.sqrt(sp.E) * (y**2 + 2 * sp.log(n) * sp.sqrt(sp.Rational(74, 100)) * y) - dg / 2
    ok = ok_sq and _is_zero(sp.expand(sp.simplify(quad)))
    if ok:
        return Verdict("proved", "With y = sqrt(beta) = sqrt(0.74) log(n)(sqrt(1 + delta_g/(2.96 sqrt(e) log^2 n)) - 1) "
                       ">= 0, 2 sqrt(e)(y^2 + 2 log(n) sqrt(0.74) y) - delta_g/2 expands to 0 (4 * 0.74 = 2.96).",
                       "sympy")
    return Verdict("erratum", f"residual {sp.simplify(resid)}")


@claim("rruv16.thm6_5.sqrt_ineq", spec_id="rruv16.thm6_5",
       statement="sqrt(1+x) >= 1 + x/3 on (0,1); the proof's x = delta_g/(2.96 sqrt(e) log^2 n) lies in (0,1) for "
                 "delta_g < 1/e, n >= 2; hence beta >= 0.74 log^2 n (delta_g/(9 sqrt(e) log^2 n))^2",
       source=f"{RRUV}, proof of Theorem 6.5", method="sympy + certified bound on x")
def _sqrt_ineq() -> Verdict:
    x = sp.Symbol("x", positive=True)
    diff = sp.expand((1 + x) - (1 + x / 3)**2)  # = x/3 - x^2/9 = (x/9)(3 - x)
    ok1 = _is_zero(diff - x * (3 - x) / 9)
    with arb_prec(128):
        xmax = arb(-1).exp() / (fraction_to_arb(Fraction(296, 100)) * arb(1).exp().sqrt() * arb(2).log() ** 2)
        ok2 = xmax < 1
    ok3 = sp.Rational(296, 100) * 3 <= 9
    if ok1 and ok2 and ok3:
        return Verdict("proved", "(1+x) - (1 + x/3)^2 = x(3 - x)/9 >= 0 on (0, 3] (sympy), so the inequality even holds "
                       f"on (0, 3]; x is largest at delta_g -> 1/e, n = 2: x < {float(xmax.mid()):.4f} < 1 (arb).  Then "
                       "beta >= 0.74 log^2 n (x/3)^2 = 0.74 log^2 n (delta_g/(8.88 sqrt(e) log^2 n))^2 >= the stated "
                       "bound with 9 >= 8.88 (the rounding goes the safe way).", "sympy + arb")
    return Verdict("refuted", f"checks {ok1, ok2, ok3}")


@claim("rruv16.thm6_5.log110e", spec_id="rruv16.thm6_5",
       statement="log(1/beta) <= log(110 e) + 2 log(log(n)/delta_g), giving eq. (11)",
       source=f"{RRUV}, proof of Theorem 6.5", method="sympy + exact rational comparison")
def _log110e() -> Verdict:
    e = spec.get("rruv16.thm6_5")
    lb = assumed(e.extra["beta_lower"])
    syms = {s.name: s for s in lb.free_symbols}
    n, dg = syms["n"], syms["delta_g"]
    target = sp.log(110 * sp.E) + 2 * sp.log(sp.log(n) / dg)
    gap = sp.simplify(sp.expand_log(target - sp.log(1 / lb), force=True))
    const = sp.nsimplify(gap)
    ok = gap.free_symbols == set() and gap > 0
    if ok:
        return Verdict("proved", f"log(110 e) + 2 log(log(n)/delta_g) - log(1/beta_lower) = {sp.sstr(gap)} "
                       f"= log(110 * 0.74/81) = {float(gap):.6f} > 0: 81/0.74 = 109.46 <= 110, the safe rounding.  "
                       "With beta >= beta_lower and Theorem 4.5's threshold sqrt(U^2/2 log(1/beta)) = "
                       "sqrt(2 V log(1/beta)) this gives eq. (11)'s square-root term.", "sympy")
    return Verdict("erratum", f"gap {gap}")


@claim("rruv16.thm6_5.eq12_vs_proof", spec_id="rruv16.thm6_5.eq12",
       statement="eq. (12) as stated matches the line of its proof", source=f"{RRUV}, proof of Theorem 6.5, eq. (12)",
       method="source text comparison")
def _eq12() -> Verdict:
    text = _seed_text("000_6d22f6a3880a066d.txt")
    stated = "\\log(4\\log_{2}(n)/\\delta_{g})"
    proof = "\\log(2\\log_{2}(n)/\\delta_{g})"
    stray = "|M_{k}|\\leq\\sum_{j=1}^{k}\\sqrt{2\\left(1/n^{2}"
    if not text:
        return Verdict("inconclusive", "seed text not found")
    if stated in text and proof in text:
        return Verdict("erratum", "Statement (12) has log(4 log2(n)/delta_g); the proof line obtained from Lemma 6.4 "
                       "with x = 1/n^2 has log(2 log2(n)/delta_g)" + (" and a stray sum_{j=1}^k in front of the "
                       "square root" if stray in text else "") + ".  Lemma 6.4 itself carries log(2/delta_g) and no "
                       "log2(n) at all, so neither factor is derived in the text; the stated 4 log2(n) is the larger, "
                       "safer constant (it can only make the odometer larger).", "text")
    return Verdict("inconclusive", "could not locate both formulas in the seed text")


@claim("rruv16.thm6_5.granularity", spec_id="rruv16.thm6_5.granularity",
       statement="with a granularity gamma in place of 1/n^2, 'log2(n^2)/delta_g in (11) will be replaced with "
                 "log2(1/gamma)/delta_g'", source=f"{RRUV}, remark after Theorem 6.5",
       method="source text + re-derivation (sympy)")
def _granularity() -> Verdict:
    e11 = spec.get("rruv16.thm6_5.eq11").expr
    eg = spec.get("rruv16.thm6_5.granularity").expr
    n, g = sym("n"), sym("gamma")
    same_at = _is_zero(assumed(eg.subs(g, 1 / n**2) - e11))
    has_log2n2 = any(isinstance(a, sp.log) and a.args[0] == n**2 for a in sp.preorder_traversal(e11))
    if same_at and not has_log2n2:
        return Verdict("erratum", "Eq. (11) contains log(log(n)/delta_g) (natural log of n), not log2(n^2)/delta_g, so "
                       "the remark's replacement has nothing to act on.  Re-deriving with Theorem 4.5 at c = "
                       "sqrt(gamma), t = 1/sqrt(gamma) (log t = log(1/gamma)/2) replaces log(n) by log(1/gamma)/2, which "
                       "equals (11) at gamma = 1/n^2 (sympy); the remark's log2(1/gamma) would be 2 log2(n) = "
                       "2.885 log(n) there, a different (larger) term.  dpbounds implements the re-derived form.",
                       "sympy + text")
    return Verdict("inconclusive", f"same_at={same_at}, has_log2n2={has_log2n2}")


def footnote7_margin(n: Fraction, delta_g: Fraction) -> arb:
    """(old term)^2/V - (new term)^2/V at (n, delta_g): positive means eq. (11)'s new term is smaller."""
    from reference.interp import ArbBackend, compile_expr
    V = sym("V")
    old = (spec.get("rruv16.thm6_5.footnote7").expr - sym("A")) ** 2 / V
    new = (spec.get("rruv16.thm6_5.eq11").expr - sym("A")) ** 2 / V
    f = compile_expr(sp.expand(old - new), ArbBackend())
    with arb_prec(128):
        return f({"n": fraction_to_arb(n), "delta_g": fraction_to_arb(delta_g), "V": arb(1)})


@claim("rruv16.thm6_5.footnote7_improvement", spec_id="rruv16.thm6_5.footnote7",
       statement="the new term of (11) is an improvement over the earlier 2 sqrt(V(1 + log sqrt 3) log(4 log2(n)/"
                 "delta_g)) when n >= 10 and delta_g < 1/2", source=f"{RRUV}, footnote 7",
       method="sympy (V cancels; margin increasing in log log n and log(1/delta_g)) + certified corner value")
def _footnote7() -> Verdict:
    corner = footnote7_margin(Fraction(10), Fraction(1, 2))
    # monotonicity: d margin / d log(1/delta) and d margin / d log log n are constants; check their sign in arb
    with arb_prec(128):
        c_u = 4 * (1 + arb(3).sqrt().log()) - 4  # coefficient of log(1/delta_g)
        c_l = 4 * (1 + arb(3).sqrt().log()) - 4
        ok = corner > 0 and c_u > 0 and c_l > 0
    if ok:
        return Verdict("proved", f"Dividing both squared terms by V, old - new = 4(1 + log sqrt 3)(log 4 + log log2 n + "
                       "log(1/delta_g)) - 2(log(110 e) + 2 log log n + 2 log(1/delta_g)): the coefficients of "
                       f"log log n and log(1/delta_g) are both 4 log sqrt 3 = {float(c_u.mid()):.4f} > 0, so the margin "
                       f"is smallest at the corner n = 10, delta_g = 1/2, where it is {float(corner.mid()):.4f} > 0 "
                       "(arb).  The claimed domain is safe (the improvement holds there and beyond).", "sympy + arb")
    return Verdict("refuted", f"corner margin {corner}")


@claim("rruv16.thm2_10.vs_kov", spec_id="rruv16.thm2_10",
       statement="KOV15's heterogeneous advanced composition, specialized to k rounds of eps, is never larger than "
                 "Theorem 2.10's eps(e^eps - 1)k + eps sqrt(2k log(1/dhat))",
       source=f"{RRUV}, Theorem 2.10; KOV15 Theorem 3.5", method="sympy (termwise)")
def _thm2_10() -> Verdict:
    e = sp.Symbol("eps", nonnegative=True)
    first_kov, first_drv = e * sp.tanh(e / 2), e * (sp.exp(e) - 1)
    # tanh(e/2) <= e/2 <= e <= e^e - 1
    d = sp.exp(e) - 1 - sp.tanh(e / 2)
    ok = d.subs(e, 0) == 0 and _is_zero(sp.diff(d, e) - (sp.exp(e) - (1 - sp.tanh(e / 2)**2) / 2))
    if ok:
        return Verdict("proved", "First terms: k eps tanh(eps/2) <= k eps (e^eps - 1) since e^x - 1 - tanh(x/2) vanishes "
                       "at 0 with derivative e^x - sech^2(x/2)/2 >= 1/2 > 0; second terms: KOV takes the min of "
                       "sqrt(2 V log(1/dhat)) (= eps sqrt(2k log(1/dhat)) here) and another term, so it is <= "
                       "Theorem 2.10's.  KOV's first term is smaller by the factor (e^eps + 1).", "sympy")
    return Verdict("refuted", "derivative check failed")


# ------------------------------------------------------------------------------------------ Nikolov


@claim("nikolov17.thm2.stated_vs_derived", spec_id="nikolov17.thm2.as_stated",
       statement="Theorem 2 as stated (eps' = sqrt(2k log 1/delta) + k(e^eps - 1)) equals what its proof derives "
                 "(eq. (6): k eps (e^eps - 1) + eps sqrt(2k log 1/delta))", source=f"{NIK}, Theorem 2 and eq. (6)",
       method="sympy + exact counterexample point")
def _nik_thm2() -> Verdict:
    st, dv = spec.get("nikolov17.thm2.as_stated").expr, spec.get("nikolov17.thm2.as_derived").expr
    diff = sp.simplify(st - dv)
    pt = {sym("eps"): sp.Rational(1, 10), sym("k"): 100, sym("delta"): sp.Rational(1, 10**6)}
    a, b = st.subs(pt).evalf(20), dv.subs(pt).evalf(20)
    if diff != 0:
        return Verdict("erratum", f"stated - derived = {sp.sstr(diff)} != 0; at eps = 0.1, k = 100, delta = 1e-6 the "
                       f"statement gives {float(a):.6f}, the proof {float(b):.6f} (the statement drops the factor eps "
                       "from both terms; the derived form is Dwork-Rothblum-Vadhan's, RRUV16 Theorem 2.10).", "sympy")
    return Verdict("proved", "identical")


@claim("nikolov17.lemma6", spec_id="nikolov17.lemma6",
       statement="D_KL(X||Y) <= eps (e^eps - 1) when D_inf(X||Y), D_inf(Y||X) <= eps; tight?",
       source=f"{NIK}, Lemma 6", method="sympy on the extremal pair (randomized response)")
def _nik_lemma6() -> Verdict:
    e = sp.Symbol("eps", positive=True)
    p = sp.exp(e) / (1 + sp.exp(e))
    ok_ratio = sp.simplify(p / (1 - p) - sp.exp(e)) == 0  # so log(p/(1-p)) = eps exactly
    kl = p * e + (1 - p) * (-e)  # D_KL(RR_eps(0) || RR_eps(1)) with log-ratios +-eps
    ok = ok_ratio and sp.simplify((kl - e * sp.tanh(e / 2)).rewrite(sp.exp)) == 0
    if ok:
        return Verdict("proved", "The proof's chain (Holder with |log q/p| <= eps and |q - p| <= (e^eps - 1) min(p, q)) "
                       "is sound.  Not tight: for eps-randomized response (p = e^eps/(1+e^eps), log(p/(1-p)) = eps) "
                       "D_KL = (2p - 1) eps = eps tanh(eps/2) (sympy), and the bound / KL = (e^eps - 1)/tanh(eps/2) = "
                       "e^eps + 1 >= 2; the tight bound is eps tanh(eps/2) (<= eps^2/2, Bun-Steinke).", "sympy")
    return Verdict("inconclusive", "KL identity not confirmed")


@claim("nikolov17.thm7.azuma", spec_id="nikolov17.thm7.as_stated",
       statement="Azuma as written: |Z_i| <= alpha, E[Z_i | past] <= beta => P(sum Z_i > k beta + t sqrt(k alpha)) "
                 "<= exp(-t^2/2)", source=f"{NIK}, Theorem 7", method="exact counterexample")
def _nik_azuma() -> Verdict:
    # k = 1, alpha = 100, beta = 0, t = 2: Z = +-100 with probability 1/2 each
    k, alpha, beta, t = 1, 100, 0, 2
    thresh = k * beta + t * sp.sqrt(k * alpha)  # = 20
    prob = sp.Rational(1, 2)  # P(Z > 20) = P(Z = 100)
    bound = sp.exp(-sp.Rational(t * t, 2))
    if prob > bound:
        return Verdict("refuted", f"k = 1, alpha = 100, beta = 0, t = 2, Z = +-100 w.p. 1/2 (|Z| <= alpha, E Z = 0 <= "
                       f"beta): P(Z > k beta + t sqrt(k alpha) = {thresh}) = 1/2 > exp(-2) = {float(bound):.4f}.  The "
                       "standard Azuma-Hoeffding deviation is t alpha sqrt(k) (increments in an interval of length "
                       "2 alpha), which is what the proof of Theorem 2 actually uses (eps sqrt(2 k log(1/delta))); "
                       "with it, P(Z > 200) = 0 <= exp(-2).", "exact")
    return Verdict("inconclusive", "no counterexample")
