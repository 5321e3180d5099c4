"""Claims about the Nikolov CSC2419 lecture 5 notes, "Advanced Composition" (seed 001_67d4c89f55229a83.txt).

Statement sides come from the spec (``spec/nikolov17.py``); the other side is re-derived here from the notes' own
proof or from first principles.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from dpbounds import spec
from dpbounds.spec.core import assumed

from ..core import Verdict, claim
from .rruv16 import _is_zero, _rr_mean_loss

NIK = "Nikolov17, seed 001_67d4c89f55229a83.txt"


def _by_name(expr: sp.Expr, **repl: sp.Symbol) -> sp.Expr:
    e = assumed(expr)
    return e.xreplace({s: repl[s.name] for s in e.free_symbols if s.name in repl})


def azuma_standard_threshold(k, alpha, beta, t):
    """Azuma-Hoeffding: |Z_i| <= alpha and E[Z_i | past] <= beta give P(sum Z_i > k beta + t alpha sqrt(k)) <=
    exp(-t^2/2) (the increments Z_i - E[Z_i | past] lie in an interval of length 2 alpha)."""
    return k * beta + t * alpha * sp.sqrt(k)


@claim("nikolov17.thm2.stated_vs_derived", spec_id="nikolov17.thm2.as_stated",
       quotes=("nikolov17.thm2", "nikolov17.thm2.proof_eq6"),
       statement="Theorem 2 as stated (eps' = sqrt(2k log 1/delta) + k(e^eps - 1)) equals what its proof derives",
       source=f"{NIK}, Theorem 2 and its proof (eqs. (5)-(6))", method="sympy + exact point")
def _nik_thm2() -> Verdict:
    e = sp.Symbol("eps", nonnegative=True)
    k = sp.Symbol("k", positive=True, integer=True)
    d = sp.Symbol("delta", positive=True)
    L = sp.Symbol("L", positive=True)          # log(1/delta), delta in (0, 1)
    stated = _by_name(spec.get("nikolov17.thm2.as_stated").expr, eps=e, k=k, delta=d).subs(d, sp.exp(-L))
    # the proof: Azuma with t = sqrt(2 log 1/delta), alpha = eps (|Z_i| <= eps), beta = eps(e^eps - 1) (Lemma 6)
    derived = azuma_standard_threshold(k, e, e * (sp.exp(e) - 1), sp.sqrt(2 * L))
    ratio_ok = _is_zero(derived - e * stated)          # derived = eps * stated
    diff = sp.factor(sp.simplify(stated - derived))
    spec_derived = _by_name(spec.get("nikolov17.thm2.as_derived").expr, eps=e, k=k, delta=d).subs(d, sp.exp(-L))
    eq6_ok = _is_zero(spec_derived - derived)
    # what the notes' own Theorem 7 (as written: t sqrt(k alpha)) would have given
    as_written = k * e * (sp.exp(e) - 1) + sp.sqrt(2 * L) * sp.sqrt(k * e)
    # the statement is nonetheless TRUE: stated >= k eps (k(e^eps - 1) >= k eps), and k eps is Theorem 1's bound
    basic_gap = sp.simplify(stated - k * e - sp.sqrt(2 * k * L))
    basic_ok = _is_zero(basic_gap - k * (sp.exp(e) - 1 - e))
    pt = {e: sp.Rational(1, 10), k: 100, L: sp.log(10 ** 6)}
    a, b = stated.subs(pt).evalf(20), derived.subs(pt).evalf(20)
    if ratio_ok and diff != 0 and basic_ok:
        return Verdict(
            "erratum",
            "The proof applies Azuma with t = sqrt(2 log 1/delta), alpha = eps, beta = eps(e^eps - 1) and reaches (6): "
            "k eps(e^eps - 1) + eps sqrt(2k log 1/delta) (the standard Azuma-Hoeffding threshold k beta + t alpha "
            "sqrt(k); " + ("equal to the spec's as_derived entry, sympy" if eq6_ok else "DIFFERENT from the spec's "
            "as_derived entry") + ").  The statement drops the factor eps from both terms: derived = eps * stated "
            f"exactly (sympy), stated - derived = {sp.sstr(diff)} with L = log(1/delta); at eps = 1/10, k = 100, "
            f"delta = 10^-6 the statement gives {float(a):.6f}, the proof {float(b):.6f}.  The statement is still a TRUE "
            "(but weak) theorem: stated - k eps = k(e^eps - 1 - eps) + sqrt(2k log 1/delta) >= 0, so it follows from "
            "Theorem 1 (k eps-DP) for every eps; for eps < 1 it is weaker than (6) by the factor 1/eps.  (Theorem 7 as "
            "written would have given k eps(e^eps-1) + sqrt(2 k eps log 1/delta), not (6).)  Also 'for all delta' "
            "needs delta in (0, 1).",
            "sympy")
    if _is_zero(diff):
        return Verdict("proved", "statement equals the derivation (sympy)", "sympy")
    return Verdict("inconclusive", f"ratio check {ratio_ok}, basic-composition check {basic_ok}, diff {diff}")


@claim("nikolov17.lemma6", spec_id="nikolov17.lemma6",
       quotes=("nikolov17.lemma6", "nikolov17.lemma6.proof_last"),
       statement="D_KL(X||Y) <= eps (e^eps - 1) when D_inf(X||Y), D_inf(Y||X) <= eps; is it tight?",
       source=f"{NIK}, Lemma 6 and its proof", method="sympy (each step of the proof; RR as the extremal pair)")
def _nik_lemma6() -> Verdict:
    e = sp.Symbol("eps", nonnegative=True)
    p, q = sp.symbols("p q", positive=True)
    u, a = sp.symbols("u a", nonnegative=True)
    bound = _by_name(spec.get("nikolov17.lemma6").expr, eps=e)
    ok_bound = _is_zero(bound - e * (sp.exp(e) - 1))
    # step 1: p log(p/q) + q log(q/p) = (q - p) log(q/p)
    ok_sym = _is_zero(sp.expand_log(p * sp.log(p / q) + q * sp.log(q / p) - (q - p) * sp.log(q / p), force=True))
    # step 2 (pointwise): with q = p e^u, |u| <= eps:  (q - p) log(q/p) = p (e^u - 1) u <= eps (e^eps - 1) min(p, q).
    #   u >= 0: min = p and f(u) = (e^u - 1) u is increasing (f' = e^u - 1 + u e^u >= 0), so f(u) <= f(eps);
    #   u = -a < 0: min = p e^-a and (1 - e^-a) a = e^-a f(a) <= e^-a f(eps).
    f = (sp.exp(u) - 1) * u
    ok_inc = _is_zero(sp.diff(f, u) - (sp.exp(u) - 1 + u * sp.exp(u)))
    ok_neg = _is_zero(((1 - sp.exp(-a)) * a) - sp.exp(-a) * f.subs(u, a))
    # step 3: sum_r min(p_r, q_r) <= 1.  Steps 1-3 give D_KL(X||Y) <= D_KL(X||Y) + D_KL(Y||X) <= eps(e^eps - 1).
    # tightness: eps-randomized response (log-ratios exactly +-eps) has D_KL = eps tanh(eps/2)
    pr = sp.exp(e) / (1 + sp.exp(e))
    kl_rr = pr * sp.log(pr / (1 - pr)) + (1 - pr) * sp.log((1 - pr) / pr)
    ok_rr = _is_zero(sp.simplify(sp.expand_log(kl_rr, force=True) - _rr_mean_loss(e)).rewrite(sp.exp)) and \
        _is_zero((_rr_mean_loss(e) - e * sp.tanh(e / 2)).rewrite(sp.exp))
    lhs = spec.get("nikolov17.lemma6").lhs
    ok_lhs = lhs is not None and _is_zero((_by_name(lhs, eps=e) - e * sp.tanh(e / 2)).rewrite(sp.exp))
    ratio = sp.simplify((bound / (e * sp.tanh(e / 2))).rewrite(sp.exp))
    ok_ratio = _is_zero(ratio - (sp.exp(e) + 1))
    if ok_bound and ok_sym and ok_inc and ok_neg and ok_rr and ok_ratio:
        return Verdict(
            "proved",
            "Each step of the proof checks (sympy): p log(p/q) + q log(q/p) = (q - p) log(q/p); with q = p e^u, |u| <= "
            "eps, (q - p) log(q/p) = p (e^u - 1) u <= eps (e^eps - 1) min(p, q) (f(u) = (e^u - 1) u is increasing on "
            "u >= 0, f' = e^u - 1 + u e^u; for u = -a < 0, (1 - e^-a) a = e^-a f(a)); summing, min(p,q) sums to <= 1.  "
            "So D_KL <= eps(e^eps - 1) holds (the spec's bound" + ("" if ok_lhs else "; NOTE: the spec's lhs is not "
            "eps tanh(eps/2)") + ").  NOT tight: eps-randomized response, whose log-ratios are exactly +-eps, has "
            "D_KL = eps (e^eps - 1)/(e^eps + 1) = eps tanh(eps/2) (sympy), and bound/that = e^eps + 1 >= 2.  Since every "
            "pair with D_inf <= eps both ways is a post-processing of RR_eps (KOV; data processing), eps tanh(eps/2) "
            "is the sharp bound (<= eps^2/2 <= eps(e^eps - 1)/2 < eps(e^eps - 1)).",
            "sympy")
    return Verdict("inconclusive", f"checks: bound {ok_bound}, symmetric sum {ok_sym}, increasing {ok_inc}, negative "
                   f"side {ok_neg}, RR KL {ok_rr}, ratio {ok_ratio}")


def azuma_as_written_counterexample(k: int = 1, alpha: Fraction = Fraction(100), beta: Fraction = Fraction(0),
                                    t: Fraction = Fraction(2), threshold=None):
    """(threshold, probability, bound) if Z_i = +-alpha with probability 1/2 each (independent; |Z_i| <= alpha,
    E[Z_i | past] = 0 <= beta) violates P(sum Z_i > threshold) <= exp(-t^2/2) for the given threshold (default: the
    spec's as-written k beta + t sqrt(k alpha)); None otherwise.  Exact: the law of sum Z_i is alpha (2 Bin(k,1/2) - k)."""
    if threshold is None:
        thr_expr = spec.get("nikolov17.thm7.as_stated").expr
        vals = {"k": sp.Integer(k), "alpha": sp.Rational(alpha), "a": sp.Rational(alpha), "beta": sp.Rational(beta),
                "b": sp.Rational(beta), "t": sp.Rational(t)}
        threshold = thr_expr.xreplace({s: vals[s.name] for s in thr_expr.free_symbols if s.name in vals})
        if threshold.free_symbols:
            raise ValueError(f"unexpected symbols in the spec's Azuma threshold: {threshold.free_symbols}")
    prob = sum((sp.binomial(k, j) for j in range(k + 1) if sp.Rational(alpha) * (2 * j - k) > threshold),
               sp.Integer(0)) / sp.Integer(2) ** k
    bound = sp.exp(-sp.Rational(t) ** 2 / 2)
    if bool(prob > bound):       # exact comparison of a rational with exp(-rational) (sympy decides it)
        return threshold, prob, bound
    return None


@claim("nikolov17.thm7.azuma", spec_id="nikolov17.thm7.as_stated",
       quotes=("nikolov17.thm7",),
       statement="Azuma as written: |Z_i| <= alpha, E[Z_i | past] <= beta => P(sum Z_i > k beta + t sqrt(k alpha)) "
                 "<= exp(-t^2/2)", source=f"{NIK}, Theorem 7", method="exact counterexample + sympy comparison")
def _nik_azuma() -> Verdict:
    ce = azuma_as_written_counterexample()
    std = azuma_as_written_counterexample(threshold=azuma_standard_threshold(1, 100, 0, 2))
    kk, al, t = sp.Symbol("k", positive=True), sp.Symbol("alpha", positive=True), sp.Symbol("t", positive=True)
    # written threshold >= standard one iff sqrt(alpha) >= alpha iff alpha <= 1
    ratio = sp.simplify((t * sp.sqrt(kk * al)) / (t * al * sp.sqrt(kk)))
    ok_ratio = _is_zero(ratio - 1 / sp.sqrt(al))
    if ce is not None and std is None and ok_ratio:
        thr, prob, bound = ce
        return Verdict(
            "refuted",
            f"k = 1, alpha = 100, beta = 0, t = 2, Z_1 = +-100 with probability 1/2 each (|Z_1| <= alpha, E Z_1 = 0 <= "
            f"beta): P(Z_1 > k beta + t sqrt(k alpha) = {thr}) = P(Z_1 = 100) = {prob} > exp(-2) = "
            f"{float(bound):.5f}.  The standard Azuma-Hoeffding threshold is k beta + t alpha sqrt(k) (= 200 here, "
            "exceeded with probability 0).  Written / standard deviation term = 1/sqrt(alpha) (sympy), so the "
            "written form is implied by the standard one exactly when alpha <= 1 and fails for large alpha.  The "
            "proof of Theorem 2 uses the standard form (its (6) has eps sqrt(2k log 1/delta) = t alpha sqrt(k)).",
            "exact + sympy")
    return Verdict("inconclusive", f"counterexample {ce}, standard-form check {std}, ratio {ratio}")
