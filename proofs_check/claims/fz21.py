"""Claims about FZ21 (Feldman, Zrnic, "Individual Privacy Accounting via a Renyi Filter", seed
004_8eb651b0fc92abd6.txt): Theorem 4.7's B*, its equivalence with WRRW23 Theorem 2, the fixed-parameter rate, the
remark about RRUV16's rate, and every number of Section 6.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp
from flint import arb

from dpbounds import spec
from dpbounds.evaluation.numeric import arb_prec, fraction_to_arb, mp_context

from ..bnb import prove_positive
from ..core import Verdict, claim
from .wrrw23 import L_, P, V_, eg_, is_zero, with_L

FZ = "FZ21, seed 004_8eb651b0fc92abd6.txt"
WRRW = "WRRW23, seed 003_8948d815f0b87bba.txt"


def _bstar_spec() -> sp.Expr:
    e = spec.get("fz21.thm4_7.bs16")
    if not e.extra or "b_star" not in e.extra:
        raise KeyError("spec fz21.thm4_7.bs16 has no extra['b_star']")
    return with_L(e.extra["b_star"], "delta_g")


# ------------------------------------------------------------------------------------------ Theorem 4.7
@claim("fz21.thm4_7.b_star_minimization", spec_id="fz21.thm4_7.bs16",
       quotes=("fz21.fact2_4", "fz21.thm4_7.proof"),
       statement="min_{alpha > 1} alpha B + log(1/delta)/(alpha - 1) = B + 2 sqrt(B L); solving B + 2 sqrt(B L) = eps_g "
                 "gives B* = (sqrt(L + eps_g) - sqrt(L))^2", source=f"{FZ}, Theorem 4.7 and its proof (Fact 2.4)",
       method="sympy")
def b_star_minimization() -> Verdict:
    a, B = sp.Symbol("alpha", positive=True), sp.Symbol("B", positive=True)
    f = a * B + L_ / (a - 1)
    crit = [c for c in sp.solve(sp.diff(f, a), a) if sp.simplify(c - 1).is_positive]
    ok_crit = len(crit) == 1 and is_zero(crit[0] - (1 + sp.sqrt(L_ / B)))
    a_star = 1 + sp.sqrt(L_ / B)
    ok_convex = is_zero(sp.diff(f, a, 2) - 2 * L_ / (a - 1) ** 3)   # > 0 on alpha > 1: the critical point is the min
    fmin = sp.simplify(f.subs(a, a_star))
    ok_min = is_zero(fmin - (B + 2 * sp.sqrt(B * L_)))
    # invert: with u = sqrt(B) >= 0, u^2 + 2 sqrt(L) u = eps_g has one nonnegative root
    u = sp.Symbol("u", nonnegative=True)
    roots = [r for r in sp.solve(sp.Eq(u**2 + 2 * sp.sqrt(L_) * u, eg_), u) if r.is_negative is not True]
    ok_inv = len(roots) == 1 and is_zero(roots[0] - (sp.sqrt(L_ + eg_) - sp.sqrt(L_)))
    bs = _bstar_spec()
    ok_spec = ok_inv and is_zero(bs - roots[0] ** 2)
    bs2 = with_L(spec.get("conversions.bs16.b_star").expr, "delta_g")
    ok_conv = is_zero(bs - bs2)
    if ok_crit and ok_convex and ok_min and ok_spec and ok_conv:
        return Verdict("proved", "d/dalpha [alpha B + L/(alpha-1)] = 0 only at alpha* = 1 + sqrt(L/B) on alpha > 1, second "
                       "derivative 2L/(alpha-1)^3 > 0, value B + 2 sqrt(B L) (sympy).  sqrt(B) = u solves u^2 + 2 sqrt(L) u "
                       "= eps_g with unique nonnegative root sqrt(L + eps_g) - sqrt(L), so B* = (sqrt(L + eps_g) - "
                       "sqrt(L))^2 = the spec's fz21.thm4_7.bs16 b_star = conversions.bs16.b_star.  Seed nit: the proof "
                       "calls the RDP bound '(alpha, B*)-RDP for all alpha' where (alpha, alpha B*)-RDP is meant.", "sympy")
    return Verdict("erratum", f"critical point={ok_crit}, convex={ok_convex}, min value={ok_min}, spec B*={ok_spec} "
                   f"({bs}), conversions.bs16.b_star agrees={ok_conv}", "sympy")


@claim("fz21.thm4_7.equals_wrrw23_thm2", spec_id="fz21.thm4_7.bs16",
       quotes=("fz21.thm4_7.statement", "fz21.thm4_7.proof", "wrrw23.thm2"),
       statement="FZ21 Theorem 4.7 with the closed-form B* (HALT iff V/2 > B*) and WRRW23 Theorem 2 with delta'' = 0, "
                 "delta' = delta_g (HALT iff sqrt(2 L V) + V/2 > eps_g) decide identically for all V >= 0",
       source=f"{FZ}, Theorem 4.7; {WRRW}, Theorem 2", method="sympy (strictly increasing statistic, same root)")
def equals_wrrw23_thm2() -> Verdict:
    bs = _bstar_spec()
    stat = with_L(spec.get("wrrw23.thm2").expr, "delta_prime")
    inc = sp.diff(stat, V_)
    ok_inc = inc.is_positive is True
    # f(2 B*) with sqrt(B*) = t > 0 (t = sqrt(L + eps_g) - sqrt(L) > 0 as eps_g > 0): sqrt(2 L 2 t^2) = 2 sqrt(L) t
    t = sp.sqrt(L_ + eg_) - sp.sqrt(L_)
    T = sp.Symbol("T", **P)
    ok_sq = is_zero(bs - t**2)
    ok_root = ok_sq and is_zero(stat.subs(V_, 2 * T**2).subs(T, t) - eg_)
    ok_zero = stat.subs(V_, 0) == 0
    if ok_inc and ok_root and ok_zero:
        return Verdict("proved", "f(V) = sqrt(2 L V) + V/2 (the spec's wrrw23.thm2 statistic) has f' > 0 on V > 0, f(0) = 0, "
                       "and f(2 B*) = eps_g with the spec's B* (sympy; sqrt(B*) = sqrt(L + eps_g) - sqrt(L) > 0).  Hence "
                       "f(V) > eps_g <=> V > 2 B* <=> V/2 > B* for every V >= 0: identical CONT/HALT decisions on every "
                       "history of pure rounds (delta'' = 0, delta' = delta_g).", "sympy")
    return Verdict("erratum", f"increasing={ok_inc}, B* = t^2: {ok_sq}, f(2B*) = eps_g: {ok_root}", "sympy")


@claim("fz21.thm4_7.fixed_rate", spec_id="fz21.thm4_7.fixed",
       quotes=("fz21.thm4_7.fixed_rate",),
       statement="for k rounds of eps fixed up front the filter implies (k eps^2/2 + sqrt(2k log(1/delta)) eps, delta)-DP",
       source=f"{FZ}, paragraph after Theorem 4.7", method="sympy")
def fixed_rate() -> Verdict:
    k, e = sp.Symbol("k", **P), sp.Symbol("eps", **P)
    bs = _bstar_spec()
    # the smallest eps_g with k eps^2/2 <= B*(eps_g): B* is increasing in eps_g, so solve B*(eps_g) = k eps^2/2
    inc = sp.diff(bs, eg_)
    ok_inc = is_zero(inc - (sp.sqrt(L_ + eg_) - sp.sqrt(L_)) / sp.sqrt(L_ + eg_))  # > 0
    sols = [s_ for s_ in sp.solve(sp.Eq(bs, k * e**2 / 2), eg_) if s_.is_negative is not True]
    stated = with_L(spec.get("fz21.thm4_7.fixed").expr, "delta")
    ok = any(is_zero(s_ - stated) for s_ in sols)
    if not ok:  # fall back on the forward identity B*(stated) = k eps^2/2 (t = sqrt(B*) route)
        ok = is_zero(sp.sqrt(L_ + stated) - sp.sqrt(L_) - e * sp.sqrt(k / 2))
    if ok and ok_inc:
        return Verdict("proved", "B*(eps_g) is strictly increasing (dB*/deps_g = (sqrt(L+eps_g) - sqrt L)/sqrt(L+eps_g) > 0) "
                       "and B*(eps_g) = k eps^2/2 at eps_g = k eps^2/2 + sqrt(2 k L) eps = the spec's fz21.thm4_7.fixed "
                       "(sympy): the filter continues through k rounds of eps exactly when eps_g >= that value.", "sympy")
    return Verdict("erratum", f"solutions {sols} vs stated {stated}; increasing={ok_inc}", "sympy")


# ------------------------------------------------------------------------------------------ remark on RRUV16
C_RRUV = Fraction(701, 25)   # 28.04


def _phi_arb(s: arb) -> arb:
    c = fraction_to_arb(C_RRUV)
    return ((s * s + 2 / c) * (1 + (1 + c * s * s / 2).log() / 2)).sqrt()


def rruv_ratio_upper_M(M: Fraction, *, max_pieces: int = 20000):
    """Certify 1 + s - phi(s) < M on s in [0, 1] (bnb); then every RRUV16 rate is >= FZ21's expression times 1/M."""
    return prove_positive(lambda s: fraction_to_arb(M) - 1 - s + _phi_arb(s), [(Fraction(0), Fraction(1))],
                          max_pieces=max_pieces)


def _rruv_K(k: int, eps: Fraction, eps_g: Fraction, delta_g: Fraction) -> arb:
    """RRUV16 Theorem 5.1's statistic after k rounds of eps (arb ball)."""
    with arb_prec(128):
        e, g = fraction_to_arb(eps), fraction_to_arb(eps_g)
        L = fraction_to_arb(1 / delta_g).log()
        A = k * e * (e.exp() - 1) / 2
        V = k * e * e
        x = g * g / (fraction_to_arb(C_RRUV) * L)
        return A + ((2 * V + 2 * x) * (1 + (V / x + 1).log() / 2) * L).sqrt()


def largest_k(rule: str, eps: Fraction, eps_g: Fraction, delta_g: Fraction, k_hi: int = 10**9) -> int:
    """The largest k whose k rounds of eps the filter CONTinues through ('rruv16' Thm 5.1 or 'fz21' Thm 4.7 with the
    closed-form B*), by bisection with certified (arb) decisions; both statistics increase with k."""
    def cont(k: int) -> bool:
        with arb_prec(128):
            if rule == "rruv16":
                v = _rruv_K(k, eps, eps_g, delta_g) <= fraction_to_arb(eps_g)
                w = _rruv_K(k, eps, eps_g, delta_g) > fraction_to_arb(eps_g)
            else:
                L = fraction_to_arb(1 / delta_g).log()
                bstar = ((L + fraction_to_arb(eps_g)).sqrt() - L.sqrt()) ** 2
                lhs = k * fraction_to_arb(eps) ** 2 / 2
                v, w = lhs <= bstar, lhs > bstar
        if not (v or w):
            raise ArithmeticError(f"undecided at k = {k}")
        return bool(v)
    lo, hi = 0, k_hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if cont(mid) else (lo, mid)
    return lo


K_EXAMPLES = [(Fraction(1, 100), Fraction(1), Fraction(1, 10**6)), (Fraction(1, 10), Fraction(1), Fraction(1, 10**6)),
              (Fraction(1, 1000), Fraction(1, 2), Fraction(1, 10**9)), (Fraction(1, 2), Fraction(10), Fraction(1, 10**5))]


@claim("fz21.thm4_7.rruv_rate_claim", spec_id="fz21.thm4_7.rruv_rate",
       quotes=("fz21.thm4_7.rruv_rate",),
       statement="RRUV16's rate (the smallest eps_g at which Theorem 5.1's filter continues through k rounds of eps) is "
                 "greater than (k eps (e^eps - 1)/2 + sqrt(2k log(1/delta)) eps) 'by a significant constant factor'",
       source=f"{FZ}, paragraph after Theorem 4.7 (l. 442); RRUV16 Theorem 5.1",
       method="sympy (reduction to one variable) + arb branch-and-bound")
def rruv_rate_claim() -> Verdict:
    r = spec.get("rruv16.thm5_1")
    a, s, g = sp.Symbol("a", nonnegative=True), sp.Symbol("s", **P), sp.Symbol("g", **P)
    K = with_L(r.expr, "delta_g").xreplace({sp.Symbol("A", **P): a * g})
    K = K.xreplace({s_: a * g for s_ in K.free_symbols if s_.name == "A"})
    # any eps_g = g with K <= g: write A = a g, V = s^2 g^2/(2L) (so sqrt(2 V L) = s g)
    Kg = sp.simplify(K.subs({V_: s**2 * g**2 / (2 * L_), eg_: g}) / g)
    c = sp.Rational(C_RRUV.numerator, C_RRUV.denominator)
    phi = sp.sqrt((s**2 + 2 / c) * (1 + sp.log(1 + c * s**2 / 2) / 2))
    ok_red = is_zero(sp.expand_log(sp.expand(Kg - a - phi), force=True)) or is_zero(
        sp.expand_log((Kg - a) ** 2 - phi**2, force=True))
    # the rate claimed is R = A + sqrt(2 V L) = g (a + s) at homogeneous eps (A = k eps (e^eps - 1)/2, V = k eps^2)
    R = spec.get("fz21.thm4_7.rruv_rate")
    kk, ee = sp.Symbol("k", **P), sp.Symbol("eps", **P)
    Rst = with_L(R.expr, "delta")
    ok_R = is_zero(Rst - (kk * ee * (sp.exp(ee) - 1) / 2 + sp.sqrt(2 * kk * ee**2 * L_)))
    # continuing needs a + phi(s) <= 1; phi increasing; phi(1) > 1 so s < 1; ratio g/R = 1/(a + s) >= 1/(1 + s - phi(s))
    with arb_prec(128):
        phi1 = _phi_arb(arb(1))
        lim0 = 1 / (1 - _phi_arb(arb(0)))            # s -> 0 (A dominates)
    ctx = mp_context(30)
    cc = ctx.mpf(C_RRUV.numerator) / C_RRUV.denominator
    phim = lambda x: ctx.sqrt((x * x + 2 / cc) * (1 + ctx.log(1 + cc * x * x / 2) / 2))  # noqa: E731
    smax = ctx.findroot(lambda x: phim(x) - 1, 0.6)
    s_best = ctx.findroot(lambda x: ctx.diff(lambda y: y - phim(y), x), 0.2)
    M = Fraction(str(ctx.nstr(1 + s_best - phim(s_best) + ctx.mpf("1e-6"), 12)))
    bnb = rruv_ratio_upper_M(M)
    # a certified point of the range (s rational, phi(s) < 1): the infimum of the ratio is <= 1/(1 + s - phi(s)) there
    sq = Fraction(str(ctx.nstr(s_best, 12)))
    with arb_prec(128):
        sb = fraction_to_arb(sq)
        at_best = 1 + sb - _phi_arb(sb)
        inside = _phi_arb(sb) < 1
        lim_max = 1 / fraction_to_arb(Fraction(str(ctx.nstr(smax, 15))))
    ok = ok_red and ok_R and phi1 > 1 and bnb.decided and inside
    ks = []
    for eps_, eg_v, dg in K_EXAMPLES:
        kr, kf = largest_k("rruv16", eps_, eg_v, dg), largest_k("fz21", eps_, eg_v, dg)
        ks.append(f"eps = {float(eps_)}, eps_g = {float(eg_v)}, delta_g = {float(dg):g}: k_RRUV16 = {kr}, k_FZ21 = {kf} "
                  f"(x{kf / max(kr, 1):.2f})")
    if ok:
        lo, hi = 1 / float(M), float((1 / at_best).upper())
        return Verdict("verified", f"With A = a g, V = s^2 g^2/(2L) the spec's RRUV16 statistic is K = g (a + phi(s)), "
                       "phi(s) = sqrt((s^2 + 2/28.04)(1 + log(1 + 28.04 s^2/2)/2)) (sympy), and FZ21's expression is "
                       "R = g (a + s).  Any eps_g = g where RRUV16 continues has a + phi(s) <= 1, so g/R = 1/(a + s) >= "
                       "1/(1 + s - phi(s)); phi is increasing with phi(1) > 1, and 1 + s - phi(s) < M = "
                       f"{M} on all of [0, 1] (arb branch and bound, {bnb.pieces} boxes).  So for every eps, k, delta: "
                       f"RRUV16's rate >= {lo:.4f} x FZ21's expression, and the factor is attained in the limit (a -> 1 - "
                       f"phi(s) realizable with A/V >= 1/2 when L/g is large): inf ratio in [{lo:.4f}, {hi:.4f}] at s ~ "
                       f"{float(s_best):.4f}.  Limits: ratio -> {float(lim0.mid()):.4f} when A dominates (s -> 0) and -> "
                       f"1/s_max = {float(lim_max.mid()):.4f} when k eps^2 << log(1/delta) (a -> 0; the regime FZ21 "
                       "compares, where the number of rounds k a filter allows differs by a factor ~ 2.3 = 1.518^2).  Verdict: 'greater' is "
                       "true for every setting; 'by a constant factor' is true with factor between ~1.20 (worst case) and "
                       "~1.52 (small eps, the usual regime): modest but not negligible.  Largest k each filter allows (certified "
                       "arb decisions at k and k + 1): " + "; ".join(ks) + ".", "sympy + arb")
    return Verdict("inconclusive", f"reduction={ok_red}, FZ21 rate form={ok_R}, phi(1) > 1: {phi1 > 1}, bnb: "
                   f"{bnb.summary()}, point inside={inside}", "sympy + arb")


# ------------------------------------------------------------------------------------------ Section 6
DELTA6 = Fraction(1, 10**5)
# (dataset, stated eps, sigma, C, k, k_max, B_norm as stated or None); Section 6.1 / 6.2 of the seed
SEC6 = [("MNIST", "0.3", "170", "10", 104, 125, 10400), ("MNIST", "0.5", "130", "15", 180, 198, 40500),
        ("MNIST", "1.2", "88", "10", 460, 460, 46000), ("MNIST", "3.0", "50", "10", 875, 875, 87500),
        ("Adult", "0.3", "455.34", "3.70", 800, 960, None), ("Adult", "0.5", "433.80", "3.70", 2000, 2100, None),
        ("Adult", "1.0", "613.49", "3.70", 4000, 4800, None), ("Adult", "1.2", "259.33", "3.70", 4000, 4120, None)]
KMAX_FACTOR = {("MNIST", "0.3"): "1.2", ("MNIST", "0.5"): "1.1", ("MNIST", "1.2"): "1", ("MNIST", "3.0"): "1",
               ("Adult", "0.3"): "1.2", ("Adult", "0.5"): "1.05", ("Adult", "1.0"): "1.2", ("Adult", "1.2"): "1.03"}


def _L_arb() -> arb:
    return fraction_to_arb(1 / DELTA6).log()


def eps_bs16(rho: Fraction) -> arb:
    """Fact 2.4 optimized over alpha = rho + 2 sqrt(rho L) (arb ball)."""
    with arb_prec(128):
        r = fraction_to_arb(rho)
        return r + 2 * (r * _L_arb()).sqrt()


def eps_fact24(rho: Fraction, alpha: Fraction) -> arb:
    """Fact 2.4 at one alpha for rho-zCDP (RDP alpha rho at order alpha): alpha rho + L/(alpha - 1)."""
    with arb_prec(128):
        a = fraction_to_arb(alpha)
        return a * fraction_to_arb(rho) + _L_arb() / (a - 1)


def eps_cks20_at(rho: Fraction, alpha: Fraction) -> arb:
    """CKS20's eps at one alpha (arb): an upper bound on the CKS20 conversion's eps (the inf over alpha)."""
    with arb_prec(128):
        a = fraction_to_arb(alpha)
        return a * fraction_to_arb(rho) + (_L_arb() + (a - 1) * (1 - 1 / a).log() - a.log()) / (a - 1)


def cks20_alpha(rho: Fraction) -> Fraction:
    """The minimizing alpha of CKS20's eps, found in a private mpmath context (golden section on log(alpha - 1))."""
    ctx = mp_context(40)
    r, L = ctx.mpf(rho.numerator) / rho.denominator, ctx.log(10**5)
    f = lambda t: (lambda a: a * r + (L + (a - 1) * ctx.log(1 - 1 / a) - ctx.log(a)) / (a - 1))(1 + ctx.exp(t))  # noqa
    lo, hi = ctx.mpf(-12), ctx.mpf(14)
    gr = (ctx.sqrt(5) - 1) / 2
    for _ in range(200):
        m1, m2 = hi - gr * (hi - lo), lo + gr * (hi - lo)
        if f(m1) < f(m2):
            hi = m2
        else:
            lo = m1
    return Fraction(str(ctx.nstr(1 + ctx.exp((lo + hi) / 2), 12)))


def sec6_row(ds: str, eps_s: str, sigma_s: str, k: int):
    """(rho, BS16 eps ball, CKS20 eps upper ball, CKS20 alpha) for one Section 6 setting (rho = k/(2 sigma^2))."""
    sigma = Fraction(sigma_s)
    rho = Fraction(k) / (2 * sigma * sigma)
    a = cks20_alpha(rho)
    return rho, eps_bs16(rho), eps_cks20_at(rho, a), a


def sec6_status(stated: Fraction, bs: arb, ck: arb) -> tuple[str, bool]:
    """Classify one setting.  Consistent iff (i) a valid conversion (CKS20) certifies eps <= stated, so the stated
    guarantee holds, and (ii) the paper's own conversion (Fact 2.4 optimized = BS16) is within 5% of the stated
    value, so the stated number describes this setting (a setting that is far more private than stated is a typo)."""
    s = fraction_to_arb(stated)
    ck_ok = bool(ck.upper() <= s.lower())
    with arb_prec(128):
        rel = bs / s - 1
    close = bool(abs(rel) < fraction_to_arb(Fraction(5, 100)))
    pct = f"{float((rel * 100).mid()):+.4f}%"
    if ck_ok and close:
        note = f"consistent (BS16 {pct} vs stated"
        if bs > s:
            note += "; BS16 alone does NOT certify the stated eps, CKS20 does"
        return note + ")", True
    if not ck_ok:
        return f"MISMATCH: no conversion certifies the stated eps (BS16 {pct})", False
    return f"MISMATCH: the setting gives eps ~ {float(bs.mid()):.4f} (BS16, {pct}), not {float(stated)}", False


def _row_verdict(row) -> Verdict:
    ds, eps_s, sigma_s, C, k, kmax, bnorm = row
    rho, bs, ck, a = sec6_row(ds, eps_s, sigma_s, k)
    status, ok = sec6_status(Fraction(eps_s), bs, ck)
    txt = (f"{ds} eps = {eps_s}: sigma = {sigma_s}, k = {k} -> rho = k/(2 sigma^2) = {float(rho):.7f} (Prop. 6.1); "
           f"Fact 2.4 optimized over alpha (BS16) eps in [{float(bs.lower()):.5f}, {float(bs.upper()):.5f}]; CKS20 "
           f"eps <= {float(ck.upper()):.5f} (certified at alpha = {float(a):.3f}); delta = 1e-5 -> {status}.")
    if ds == "MNIST" and eps_s == "0.3":
        txt += (f"  BS16's slack here is explained by the alpha = 63 the paper fixes for this setting: Fact 2.4 at "
                f"alpha = 63 gives {float(eps_fact24(rho, Fraction(63)).mid()):.5f} ~ 0.3.")
    if not ok and ds == "Adult" and eps_s == "1.0":
        with arb_prec(128):
            L = _L_arb()
            t = (L + 1).sqrt() - L.sqrt()
            sig_needed = (fraction_to_arb(Fraction(k)) / (2 * t * t)).sqrt()
        txt += (f"  sigma = 613.49 with k = 4000 has the same rho as the eps = 0.5 row (433.80 sqrt 2 = "
                f"{433.80 * 2 ** 0.5:.2f}); eps = 1.0 at k = 4000 needs sigma ~ {float(sig_needed.mid()):.2f} (BS16).  "
                "Likely a typo (sigma or eps) in the paper.")
    return Verdict("verified" if ok else "erratum", txt, "arb (BS16 closed form; CKS20 at a found alpha)")


def _row_quote(ds: str, eps_s: str) -> str:
    """The key of the stored quotation of one Section 6 setting (e.g. 'fz21.sec6.mnist_eps0_3')."""
    return f"fz21.sec6.{ds.lower()}_eps{eps_s.replace('.', '_')}"


def _make_row_claim(row):
    ds, eps_s = row[0], row[1]
    cid = f"fz21.sec6.{ds.lower()}_eps{eps_s.replace('.', '_')}"

    @claim(cid, spec_id="fz21.prop6_1", quotes=(_row_quote(ds, eps_s), "fz21.sec6.delta", "fz21.prop6_1"),
           statement=f"FZ21 Section 6 ({ds}, eps = {eps_s}): sigma = {row[2]}, k = {row[4]} private GD (Prop. 6.1, "
                     f"k/(2 sigma^2)-zCDP) is ({eps_s}, 1e-5)-DP", source=f"{FZ}, Section 6.{1 if ds == 'MNIST' else 2}",
           method="arb (BS16 = Fact 2.4 optimized; CKS20)")
    def _check() -> Verdict:
        return _row_verdict(row)
    _check.__name__ = cid.replace(".", "_")
    return _check


ROW_CHECKS = [_make_row_claim(r) for r in SEC6]


@claim("fz21.sec6.numbers", spec_id="fz21.thm4_7",
       quotes=("fz21.sec6.delta", "fz21.prop6_1") + tuple(_row_quote(r[0], r[1]) for r in SEC6),
       statement="FZ21 Section 6: each (sigma, k) setting of private GD gives the stated eps at delta = 1e-5 (table of "
                 "all eight settings)", source=f"{FZ}, Section 6.1-6.2",
       method="arb (BS16 = Fact 2.4 optimized over alpha; CKS20 certified at a found alpha)")
def sec6_numbers() -> Verdict:
    lines, bad = [], []
    for row, chk in zip(SEC6, ROW_CHECKS):
        v = chk()
        lines.append(v.evidence.split("  sigma = 613.49")[0])
        if v.verdict != "verified":
            bad.append(f"{row[0]} eps = {row[1]}")
    summary = ("Mismatches: " + ", ".join(bad) + ".  The paper's numbers track BS16 (Theorem 4.7's closed form) to <= 0.5% "
               "in the other rows except MNIST 0.3 (which tracks Fact 2.4 at the stated alpha = 63), so BS16 / Fact 2.4 "
               "is the conversion the paper used; CKS20 is much tighter (e.g. MNIST 0.3 "
               "certifies ~0.22).") if bad else "Every setting is consistent."
    return Verdict("erratum" if bad else "verified", " | ".join(lines) + "  " + summary, "arb")


@claim("fz21.sec6.odometer_delta", spec_id="fz21.prop5_2",
       quotes=("fz21.sec6.odometer", "fz21.sec6.figure2", "fz21.sec6.mnist_eps0_3"),
       statement="Section 6.1 odometer: alpha = 63 'approximately optimizes the conversion from RDP to DP via Fact 2.4'; "
                 "'Delta = 0.00109 ~ alpha/sigma^2' (sigma = 170); 'RDP loss 0.135 translates to eps ~ 0.32' (delta = "
                 "1e-5); step k/2 = 52", source=f"{FZ}, Section 6.1 (Figure 2 and the paragraph before it)",
       method="exact rationals + arb + mpmath search (private context)")
def sec6_odometer() -> Verdict:
    a, sigma, k, C = Fraction(63), Fraction(170), 104, Fraction(10)
    rows, bad = [], []
    # Delta
    r1, r2 = a / sigma**2, a / (2 * sigma**2)   # per-step RDP at order alpha of a C-clipped step: alpha C^2/(2 sigma^2 C^2)
    if abs(r1 - Fraction(109, 100000)) < Fraction(1, 10**6):
        rows.append(f"alpha/sigma^2 = {float(r1):.6f} ~ 0.00109: consistent")
    else:
        rows.append(f"'Delta = 0.00109 ~ alpha/sigma^2' is off by a factor 2: alpha/sigma^2 = 63/28900 = {float(r1):.6f}, "
                    f"while alpha/(2 sigma^2) = {float(r2):.7f} ~ 0.00109 -- the per-step RDP alpha ||g||^2/(2 sigma^2 C^2) "
                    "of a step whose gradient is clipped at C (Example 2.7 / Prop. 6.2), so Delta = 0.00109 itself is the "
                    "natural choice and only the '~ alpha/sigma^2' text drops the factor 2")
        bad.append("Delta ~ alpha/sigma^2")
    # 0.135 -> 0.32
    e = eps_fact24(Fraction(135, 1000) / a, a)   # RDP 0.135 at order 63 = alpha * rho with rho = 0.135/63
    ok32 = abs(float(e.mid()) - 0.32) < 0.005
    rows.append(f"Fact 2.4 at alpha = 63: 0.135 + log(1e5)/62 in [{float(e.lower()):.5f}, {float(e.upper()):.5f}] "
                f"{'~ 0.32: consistent' if ok32 else '!= 0.32: MISMATCH'}")
    if not ok32:
        bad.append("0.135 -> 0.32")
    # alpha = 63 'approximately optimizes' Fact 2.4: for rho = k/(2 sigma^2) the optimum is 1 + sqrt(L/rho)
    rho = Fraction(k) / (2 * sigma**2)
    with arb_prec(128):
        a_opt = 1 + (_L_arb() / fraction_to_arb(rho)).sqrt()
    e63, eopt = eps_fact24(rho, a), eps_bs16(rho)
    a_cks = cks20_alpha(rho)
    rows.append(f"alpha = 63 vs the Fact 2.4 optimum for rho = 104/(2*170^2): alpha* = 1 + sqrt(L/rho) = "
                f"{float(a_opt.mid()):.2f}, eps(63) = {float(e63.mid()):.5f} vs eps(alpha*) = {float(eopt.mid()):.5f} "
                f"({float(((e63 / eopt - 1) * 100).mid()):.1f}% worse); CKS20's optimal alpha is {float(a_cks):.1f}, so "
                "63 is near-optimal for CKS20's conversion, only roughly so for Fact 2.4 (both give eps <= 0.3 there: "
                f"{'yes' if e63 < fraction_to_arb(Fraction(3, 10)) else 'NO'})")
    # cap implied by the filter: individual RDP <= alpha B_norm/(2 sigma^2 C^2) = 63 * 104/(2 * 170^2)
    cap = a * Fraction(k) * C**2 / (2 * sigma**2 * C**2)
    rows.append(f"the individual filter caps each point's RDP at alpha B_norm/(2 sigma^2 C^2) = {float(cap):.5f} = 104 "
                f"Delta; the reported odometer maximum ~0.135 = {float(Fraction(135, 1000) / r2):.1f} Delta is the "
                "odometer's discretization overestimate (Prop. 5.2 restarts), not decidable from the text (it depends "
                "on the realized gradient norms)")
    rows.append(f"k/2 = {k // 2} = 52: {'consistent' if k // 2 == 52 else 'MISMATCH'}")
    return Verdict("erratum" if bad else "verified", "; ".join(rows) + ".", "exact + arb")


@claim("fz21.sec6.bnorm_kmax", spec_id="fz21.prop6_1", quotes=tuple(_row_quote(r[0], r[1]) for r in SEC6),
       statement="Section 6: B_norm = k C^2 (10400, 40500, 46000, 87500) and k_max = factor x k (125 ~ 1.2 x 104, 198 = "
                 "1.1 x 180, 960 = 1.2 x 800, 2100 = 1.05 x 2000, 4800 = 1.2 x 4000, 4120 = 1.03 x 4000)",
       source=f"{FZ}, Section 6.1-6.2", method="exact rationals")
def sec6_bnorm_kmax() -> Verdict:
    rows, bad = [], []
    for ds, eps_s, sigma_s, C_s, k, kmax, bnorm in SEC6:
        C = Fraction(C_s)
        if bnorm is not None:
            ok = Fraction(bnorm) == k * C * C
            rows.append(f"{ds} {eps_s}: k C^2 = {k * C * C} vs {bnorm} {'ok' if ok else 'MISMATCH'}")
            if not ok:
                bad.append(f"{ds} {eps_s} B_norm")
        f = Fraction(KMAX_FACTOR[(ds, eps_s)])
        exact = f * k
        ok = exact == kmax or (ds, eps_s) == ("MNIST", "0.3") and abs(exact - kmax) < 1
        rows.append(f"{ds} {eps_s}: {f} x {k} = {exact} vs k_max = {kmax} {'ok' if ok else 'MISMATCH'}"
                    + (" (stated as '~ 1.2k')" if exact != kmax and ok else ""))
        if not ok:
            bad.append(f"{ds} {eps_s} k_max")
    return Verdict("erratum" if bad else "verified", "; ".join(rows) + ".  Note: Algorithm 7 writes the noise inside "
                   "the sum, (1/n) sum_i (g_i + N(0, sigma^2 C^2 I)), which would add n independent noises; Prop. 6.1's "
                   "k/(2 sigma^2) corresponds to ONE N(0, sigma^2 C^2 I) added to the sum (sensitivity C), and Prop. "
                   "6.2's proof writes rho_t = alpha ||g||^2/(2 sigma^2) without the C^2 of the noise variance (the "
                   "statement's B_norm/(2 sigma^2 C^2) has it).", "exact")


# ------------------------------------------------------------------------------------------ CKS20 (used above)
@claim("conversions.cks20.forms_agree", spec_id="conversions.cks20",
       unquoted="CKS20 is not among the seed texts; the claim compares two written forms of its Proposition 12, "
                "both transcribed in spec/conversions.py",
       statement="CKS20's delta form exp((a-1)(a rho - eps))/(a-1) (1-1/a)^a and eps form a rho + (L + (a-1) log(1-1/a) "
                 "- log a)/(a-1) describe the same (eps, delta) pairs at every order a > 1 (so their infima describe "
                 "the same curve), and the eps form is the one evaluated for FZ21 Section 6",
       source="CKS20 (Canonne, Kamath, Steinke 2020, arXiv:2004.00010) Prop. 12, as written in THEOREMS.md",
       method="sympy (solve the delta form for eps at fixed a)")
def cks20_forms_agree() -> Verdict:
    a = sp.Symbol("alpha", positive=True)
    rho, eps = sp.Symbol("rho", positive=True), sp.Symbol("eps", real=True)
    names = {"alpha": a, "rho": rho, "eps_g": eps, "eps": eps}

    def _mine(ex):
        return ex.xreplace({x: names[x.name] for x in ex.free_symbols if x.name in names})
    d_form = _mine(spec.get("conversions.cks20.delta").expr)
    e_form = _mine(with_L(spec.get("conversions.cks20").expr, "delta"))
    # log(delta form) = -L, solved for eps (it is affine in eps: slope -(a - 1) < 0, so decreasing in eps)
    logd = sp.expand_log(sp.log(d_form), force=True)
    ok_aff = is_zero(sp.diff(logd, eps) + (a - 1))
    sol = sp.solve(sp.Eq(logd, -L_), eps)
    ok = len(sol) == 1 and is_zero(sp.expand_log(sol[0] - e_form, force=True))
    # the form evaluated in eps_cks20_at (written independently above)
    mine = a * rho + (L_ + (a - 1) * sp.log(1 - 1 / a) - sp.log(a)) / (a - 1)
    ok_mine = is_zero(sp.expand_log(mine - e_form, force=True))
    if ok and ok_aff and ok_mine:
        return Verdict("proved", "log of the spec's delta form is affine in eps with slope -(alpha - 1) < 0; solving it = "
                       "log(delta) gives eps = alpha rho + (L + (alpha-1) log(1-1/alpha) - log alpha)/(alpha-1), the "
                       "spec's eps form and the formula certified in fz21.sec6.* (sympy).  At each alpha the two forms "
                       "describe the same (eps, delta) pairs, so the infima over alpha describe the same curve.", "sympy")
    return Verdict("erratum", f"affine={ok_aff}, solved={sol}, spec eps form={e_form}, sec6 formula agrees={ok_mine}",
                   "sympy")
