"""conversions.rdp.* and tradeoff.* (issue 27 items 3-4): certified enclosures against INDEPENDENT derivations.

Nothing here reuses dpbounds' solvers: the optimal conversion is recomputed by brute force over binary pairs (the
Renyi divergence written from its definition, a bisection for the largest feasible p at each q, a scan and a
golden-section search over q), the trade-off curves by the Neyman-Pearson lemma on the Gaussian and the four-point
(eps, delta) pairs (quadrature and a generic discrete Neyman-Pearson curve), all in private mpmath contexts.
"""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from dpbounds import enclose
from dpbounds.accounting import rdp_conversions as rc
from dpbounds.evaluation.evaluate import fast_interval
from dpbounds.spec import DomainError


def _ctx(dps: int = 30) -> mpmath.MPContext:
    c = mpmath.MPContext()
    c.dps = dps
    return c


def _f(enc_end: Fraction, ctx):
    return ctx.mpf(enc_end.numerator) / enc_end.denominator


# ------------------------------------------------------------------------------------------ brute force (binary pairs)

def _renyi(ctx, a, p, q):
    """D_alpha(Bern(p) || Bern(q)) from the definition (sum over the two outcomes)."""
    s = ctx.mpf(0)
    for u, v in ((p, q), (1 - p, 1 - q)):
        if u > 0:
            s += u**a * v**(1 - a)
    return ctx.log(s) / (a - 1)


def _p_plus(ctx, a, R, q):
    """The largest p in [q, 1] with D_alpha(Bern(p)||Bern(q)) <= R (the divergence increases in p above q)."""
    if _renyi(ctx, a, ctx.mpf(1), q) <= R:
        return ctx.mpf(1)
    lo, hi = q, ctx.mpf(1)
    for _ in range(int(ctx.prec) + 10):
        m = (lo + hi) / 2
        if _renyi(ctx, a, m, q) <= R:
            lo = m
        else:
            hi = m
    return lo


def _brute_max(ctx, fn, lo_exp, hi_exp, n=90):
    """max of fn over q = 10^t, t in [lo_exp, hi_exp]: a scan, then golden-section search around the best cell."""
    ts = [lo_exp + (hi_exp - lo_exp) * i / n for i in range(n + 1)]
    vals = [(fn(ctx.mpf(10) ** t), t) for t in ts]
    best, tb = max((v, t) for v, t in vals if v is not None)
    step = (hi_exp - lo_exp) / n
    lo, hi = ctx.mpf(tb - step), ctx.mpf(min(tb + step, hi_exp))
    g = (ctx.sqrt(5) - 1) / 2
    for _ in range(50):
        m1, m2 = hi - g * (hi - lo), lo + g * (hi - lo)
        f1, f2 = fn(ctx.mpf(10) ** m1), fn(ctx.mpf(10) ** m2)
        if f1 is None or (f2 is not None and f2 > f1):
            lo = m1
        else:
            hi = m2
    v = fn(ctx.mpf(10) ** ((lo + hi) / 2))
    return max(best, v) if v is not None else best


def brute_eps(a_s: str, R_s: str, d_s: str, symmetric: bool = False):
    ctx = _ctx(22)
    a, R, d = ctx.mpf(a_s), ctx.mpf(R_s), ctx.mpf(d_s)

    def val(q):
        p = _p_plus(ctx, a, R, q)
        if symmetric:  # also D_alpha(Q||P) <= R: shrink p until it holds (it increases in p above q)
            if _renyi(ctx, a, q, p) > R if p < 1 else True:
                lo, hi = q, p
                for _ in range(110):
                    m = (lo + hi) / 2
                    if _renyi(ctx, a, q, m) <= R:
                        lo = m
                    else:
                        hi = m
                p = min(p, lo)
        return ctx.log((p - d) / q) if p > d else None
    return ctx, max(ctx.mpf(0), _brute_max(ctx, val, float(ctx.log10(d)) - 14, -1e-9))


def brute_delta(a_s: str, R_s: str, e_s: str):
    ctx = _ctx(22)
    a, R, g = ctx.mpf(a_s), ctx.mpf(R_s), ctx.exp(ctx.mpf(e_s))
    return ctx, max(ctx.mpf(0), _brute_max(ctx, lambda q: _p_plus(ctx, a, R, q) - g * q, -40, -1e-9))


OPT_POINTS = [("2", "0.5", "1e-5"), ("8", "1", "1e-6"), ("32", "0.2", "1e-10"), ("1.5", "0.1", "0.001"),
              ("3", "2", "0.01"), ("256", "0.05", "1e-12"), ("1.1", "0.001", "1e-3"), ("8", "1", "0.2"),
              ("4", "10", "1e-9")]


@pytest.mark.tier("slow")
@pytest.mark.parametrize("a,R,d", OPT_POINTS)
@pytest.mark.tier("properties")
def test_optimal_eps_contains_brute_force_over_binary_pairs(a, R, d):
    enc = enclose("conversions.rdp.optimal", {"alpha": a, "R": R, "delta": d}, rel_tol=1e-12)
    ctx, b = brute_eps(a, R, d)
    # a brute-force maximum is a feasible value: never above the certified upper end; and near-optimal
    assert b <= _f(enc.hi, ctx) * (1 + ctx.mpf("1e-18")) + ctx.mpf("1e-18")
    assert b >= _f(enc.lo, ctx) - ctx.mpf("1e-9") * max(1, abs(b)), (float(b), float(enc.lo))
    assert enc.rel_width() <= 1e-3


@pytest.mark.parametrize("a,R,d", [("2", "0.5", "1e-5"), ("8", "1", "1e-6")])
def test_optimal_eps_equals_the_symmetric_optimum_at_these_points(a, R, d):
    """The one-sided optimum's extremal pair also has D_alpha(Q||P) <= R here: the symmetric (mechanism) optimum is
    the same number."""
    enc = enclose("conversions.rdp.optimal", {"alpha": a, "R": R, "delta": d}, rel_tol=1e-12)
    ctx, b = brute_eps(a, R, d, symmetric=True)
    assert abs(b - _f(enc.hi, ctx)) <= ctx.mpf("1e-9") * b


@pytest.mark.parametrize("a,R,e", [("8", "1", "2.5"), ("2", "0.5", "1"), ("1.5", "0.001", "0.01"), ("8", "1", "0.5"),
                                   ("32", "3", "3.2")])
@pytest.mark.tier("properties")
def test_optimal_delta_contains_brute_force(a, R, e):
    enc = enclose("conversions.rdp.optimal.delta", {"alpha": a, "R": R, "eps_g": e}, rel_tol=1e-12)
    ctx, b = brute_delta(a, R, e)
    assert b <= _f(enc.hi, ctx) * (1 + ctx.mpf("1e-18"))
    assert b >= _f(enc.lo, ctx) * (1 - ctx.mpf("1e-9"))


def test_closed_form_regime_delta_at_least_one_over_alpha():
    """delta >= 1/alpha: eps* = max(0, R + log(1 - delta)) (typed here from the definition's y = 0 pair)."""
    ctx = _ctx(40)
    for a, R, d in (("8", "1", "0.2"), ("2", "3", "0.5"), ("4", "0.1", "0.3")):
        enc = enclose("conversions.rdp.optimal", {"alpha": a, "R": R, "delta": d}, rel_tol=1e-20)
        want = max(ctx.mpf(0), ctx.mpf(R) + ctx.log(1 - ctx.mpf(d)))
        assert _f(enc.lo, ctx) <= want <= _f(enc.hi, ctx)


def _pts(n=12, seed=27):
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        a = rnd.choice(["1.05", "1.5", "2", "3.7", "8", "32", "100", "1000"])
        R = rnd.choice(["0", "0.0001", "0.01", "0.3", "1", "5", "40"])
        d = rnd.choice(["1e-15", "1e-9", "1e-5", "0.01", "0.2", "0.6"])
        out.append((a, R, d))
    return out


@pytest.mark.parametrize("a,R,d", _pts())
def test_ordering_optimal_le_cks20_le_mironov(a, R, d):
    p = {"alpha": a, "R": R, "delta": d}
    o = enclose("conversions.rdp.optimal", p, rel_tol=1e-10)
    c = enclose("conversions.rdp.cks20", p, rel_tol=1e-12)
    m = enclose("conversions.rdp.mironov", p, rel_tol=1e-12)
    assert o.lo >= 0
    assert o.lo <= c.hi and c.lo <= m.hi
    assert o.hi <= c.hi * (1 + Fraction(1, 10**9)) + Fraction(1, 10**12)


def test_cks20_matches_dp_accounting_formula_typed_here():
    """dp_accounting's compute_epsilon per order: r + log1p(-1/a) - log(delta a)/(a - 1), clipped at 0."""
    ctx = _ctx(40)
    for a, R, d in (("8", "1", "1e-6"), ("2", "0.001", "0.3"), ("32", "0.2", "1e-10")):
        A, r, D = ctx.mpf(a), ctx.mpf(R), ctx.mpf(d)
        want = max(0, r + ctx.log1p(-1 / A) - ctx.log(D * A) / (A - 1))
        enc = enclose("conversions.rdp.cks20", {"alpha": a, "R": R, "delta": d}, rel_tol=1e-25)
        assert _f(enc.lo, ctx) <= want + ctx.mpf("1e-35") and want - ctx.mpf("1e-35") <= _f(enc.hi, ctx)


@pytest.mark.tier("slow")
def test_r_max_is_the_inverse_of_the_optimal_conversion():
    for a, e, d in (("8", "1", "1e-6"), ("2", "3", "1e-5"), ("32", "0.5", "1e-10"), ("4", "1", "0.4")):
        r = rc.r_max_enclosure(a, e, d)
        assert r.rel_width() <= 1e-6
        at_lo = rc.eps_enclosure(a, r.lo, d)
        at_hi = rc.eps_enclosure(a, r.hi, d)
        assert at_lo.lo <= Fraction(e) <= at_hi.hi
        # the optimal conversion admits at least the budget CKS20 admits: R_cks = eps - log(1 - 1/a) + log(delta a)/(a-1)
        ctx = _ctx(30)
        A, E, D = ctx.mpf(a), ctx.mpf(e), ctx.mpf(d)
        r_cks = E - ctx.log1p(-1 / A) + ctx.log(D * A) / (A - 1)
        assert _f(r.hi, ctx) >= r_cks
        assert rc.r_max_lower(a, e, d) <= float(r.lo) + 1e-300


def test_public_functions_and_domain_errors():
    assert rc.eps_upper(8, 1, 1e-6) >= float(enclose("conversions.rdp.optimal",
                                                     {"alpha": 8, "R": 1, "delta": 1e-6}).hi)
    assert rc.delta_upper(8, 1, 2.5) > 0
    with pytest.raises(DomainError, match="alpha"):
        rc.eps_enclosure(1, 1, 1e-6)
    with pytest.raises(DomainError, match="delta"):
        rc.eps_enclosure(2, 1, 0)
    with pytest.raises(DomainError, match="R"):
        enclose("conversions.rdp.optimal", {"alpha": 2, "R": -1, "delta": 1e-6})
    assert enclose("conversions.rdp.optimal", {"alpha": 2, "R": 0, "delta": 1e-6}).hi == 0


# ------------------------------------------------------------------------------------------ trade-off curves

@pytest.mark.parametrize("mu,fpr", [("1", "0.05"), ("0.1", "0.5"), ("3", "1e-6"), ("2", "0.99"), ("0.5", "1e-12")])
@pytest.mark.tier("slow")
def test_gdp_curve_against_neyman_pearson_by_quadrature(mu, fpr):
    ctx = _ctx(25)
    dens = lambda u: ctx.exp(-u * u / 2) / ctx.sqrt(2 * ctx.pi)  # noqa: E731
    f = ctx.mpf(fpr)
    # threshold t with P(N(0,1) > t) = fpr: bisection on the quadrature (no erfc, no erfinv)
    lo, hi = ctx.mpf(-40), ctx.mpf(40)
    for _ in range(100):
        m = (lo + hi) / 2
        if ctx.quad(dens, [m, ctx.inf]) > f:
            lo = m
        else:
            hi = m
    beta = ctx.quad(lambda u: dens(u - ctx.mpf(mu)), [-ctx.inf, (lo + hi) / 2])
    enc = enclose("tradeoff.gdp", {"mu": mu, "fpr": fpr}, rel_tol=1e-20)
    assert abs(beta - _f(enc.lo, ctx)) <= ctx.mpf("1e-15") * beta
    assert enc.rel_width() <= 1e-3


def _np_curve(ctx, P, Q, x):
    """T(P, Q)(x) for finite P, Q: reject outcomes in decreasing order of Q/P (the Neyman-Pearson lemma),
    randomizing on the boundary outcome."""
    order = sorted(range(len(P)), key=lambda i: -(Q[i] / P[i] if P[i] > 0 else ctx.inf))
    used, power = ctx.mpf(0), ctx.mpf(0)
    for i in order:
        if P[i] == 0:
            power += Q[i]
            continue
        take = min(P[i], x - used)
        if take <= 0:
            break
        used += take
        power += Q[i] * take / P[i]
    return max(ctx.mpf(0), 1 - power)


@pytest.mark.parametrize("eps,delta,fpr", [("1", "1e-5", "0.05"), ("0.1", "0", "0.5"), ("3", "0.01", "0.001"),
                                           ("2", "0.2", "0.3"), ("1", "0.5", "0.9")])
def test_dp_curve_is_the_neyman_pearson_curve_of_the_four_point_pair(eps, delta, fpr):
    ctx = _ctx(40)
    E, d = ctx.exp(ctx.mpf(eps)), ctx.mpf(delta)
    P = [d, (1 - d) * E / (1 + E), (1 - d) / (1 + E), ctx.mpf(0)]
    Q = [ctx.mpf(0), (1 - d) / (1 + E), (1 - d) * E / (1 + E), d]
    want = _np_curve(ctx, P, Q, ctx.mpf(fpr))
    enc = enclose("tradeoff.dp", {"eps": eps, "delta": delta, "fpr": fpr}, rel_tol=1e-25)
    assert _f(enc.lo, ctx) - ctx.mpf("1e-30") <= want <= _f(enc.hi, ctx) + ctx.mpf("1e-30")


RDP_POINTS = [("8", "1", "0.05"), ("2", "0.1", "0.3"), ("1.5", "3", "0.001"), ("32", "0.001", "1e-6"),
              ("100", "0.5", "0.5"), ("1.01", "0.01", "0.2")]


@pytest.mark.parametrize("a,R,fpr", RDP_POINTS)
def test_rdp_curve_is_the_smallest_feasible_bernoulli_point(a, R, fpr):
    """The upper end is a feasible point of the region (both Bernoulli divergences <= R, from the definition); just
    below the lower end one of them exceeds R (so no smaller beta is feasible)."""
    ctx = _ctx(40)
    A, Rm, x = ctx.mpf(a), ctx.mpf(R), ctx.mpf(fpr)
    enc = enclose("tradeoff.rdp", {"alpha": a, "R": R, "fpr": fpr}, rel_tol=1e-20)
    bh = _f(enc.hi, ctx)
    assert _renyi(ctx, A, x, 1 - bh) <= Rm * (1 + ctx.mpf("1e-30")) and \
        _renyi(ctx, A, 1 - bh, x) <= Rm * (1 + ctx.mpf("1e-30"))
    bl = _f(enc.lo, ctx) * (1 - ctx.mpf("1e-15"))
    if bl > 0:
        assert _renyi(ctx, A, x, 1 - bl) > Rm or _renyi(ctx, A, 1 - bl, x) > Rm
    assert enc.rel_width() <= 1e-3


@pytest.mark.parametrize("a,mu,fpr", [("2", "1", "0.05"), ("8", "0.5", "0.3"), ("1.5", "2", "1e-4"),
                                      ("32", "0.1", "0.5")])
def test_rdp_curve_is_below_the_gaussian_mechanisms_exact_curve(a, mu, fpr):
    """The Gaussian mechanism is (alpha, alpha mu^2/2)-RDP, so the RDP-implied curve must lie below G_mu."""
    R = Fraction(a) * Fraction(mu) ** 2 / 2
    f = enclose("tradeoff.rdp", {"alpha": a, "R": str(R), "fpr": fpr}, rel_tol=1e-15)
    g = enclose("tradeoff.gdp", {"mu": mu, "fpr": fpr}, rel_tol=1e-15)
    assert f.hi <= g.lo


@pytest.mark.parametrize("a,eps,fpr", [("2", "1", "0.05"), ("8", "0.5", "0.3"), ("1.5", "2", "0.01")])
def test_rdp_curve_is_below_randomized_responses_curve(a, eps, fpr):
    """RR_eps is pure eps-DP (its curve is tradeoff.dp at delta = 0) and (alpha, D_alpha(RR))-RDP (D_alpha typed
    from the definition), so f_{alpha, D_alpha(RR)} <= f_{eps, 0}."""
    ctx = _ctx(40)
    p = ctx.exp(ctx.mpf(eps)) / (1 + ctx.exp(ctx.mpf(eps)))
    D = _renyi(ctx, ctx.mpf(a), p, 1 - p)
    Rq = Fraction(ctx.nstr(D * (1 + ctx.mpf("1e-30")), 35))  # rounded up: a larger R only lowers the RDP curve
    f = enclose("tradeoff.rdp", {"alpha": a, "R": Rq, "fpr": fpr}, rel_tol=1e-15)
    g = enclose("tradeoff.dp", {"eps": eps, "delta": "0", "fpr": fpr}, rel_tol=1e-15)
    assert f.hi <= g.lo * (1 + Fraction(1, 10**12))


def test_advantages_against_a_scan_of_the_curves():
    ctx = _ctx(30)
    mu = ctx.mpf(1)
    # GDP: max over fpr of 1 - fpr - G_mu(fpr), scanning thresholds
    best = max(ctx.ncdf(t) - ctx.ncdf(t - mu) for t in [ctx.mpf(i) / 1000 for i in range(-3000, 3000)])
    enc = enclose("tradeoff.gdp.advantage", {"mu": "1"}, rel_tol=1e-20)
    assert best <= _f(enc.hi, ctx) and best >= _f(enc.lo, ctx) - ctx.mpf("1e-6")
    E, d = ctx.exp(1), ctx.mpf("1e-5")
    scan = max(1 - x - max(0, 1 - d - E * x, (1 - d - x) / E) for x in [ctx.mpf(i) / 20000 for i in range(20001)])
    enc = enclose("tradeoff.dp.advantage", {"eps": "1", "delta": "0.00001"}, rel_tol=1e-20)
    assert scan <= _f(enc.hi, ctx) and scan >= _f(enc.lo, ctx) - ctx.mpf("1e-4")


def test_gdp_delta_is_the_gaussian_curve_in_mu():
    for mu, e in (("1", "1"), ("0.3", "0.1"), ("3", "5")):
        a = enclose("conversions.gdp.delta", {"mu": mu, "eps_g": e}, rel_tol=1e-20)
        rho = Fraction(mu) ** 2 / 2
        b = enclose("conversions.gauss.delta", {"rho": rho, "eps_g": e}, rel_tol=1e-20)
        assert a.lo <= b.hi and b.lo <= a.hi


# ------------------------------------------------------------------------------------------ fast paths (outward)

def test_fast_paths_bracket_the_exact_values():
    ctx = _ctx(40)
    al = np.array([1.5, 2.0, 8.0, 32.0, 256.0])
    R = np.array([0.001, 0.5, 1.0, 0.2, 3.0])
    d = np.array([1e-3, 1e-5, 1e-6, 1e-10, 1e-12])
    for eid in ("conversions.rdp.mironov", "conversions.rdp.cks20", "conversions.rdp.optimal"):
        lo, hi = fast_interval(eid, alpha=al, R=R, delta=d)
        for i in range(al.size):
            enc = enclose(eid, {"alpha": float(al[i]), "R": float(R[i]), "delta": float(d[i])}, rel_tol=1e-20)
            assert lo[i] <= float(enc.lo) and float(enc.hi) <= hi[i] or (lo[i] <= _f(enc.lo, ctx) and
                                                                         _f(enc.hi, ctx) <= hi[i])
    x = np.array([1e-6, 0.05, 0.5, 0.999])
    for eid, kw in (("tradeoff.gdp", dict(mu=np.array([0.1, 1.0, 2.0, 3.0]))),
                    ("tradeoff.dp", dict(eps=np.array([0.1, 1.0, 2.0, 3.0]), delta=1e-5)),
                    ("tradeoff.rdp", dict(alpha=np.array([2.0, 8.0, 1.5, 32.0]), R=np.array([0.1, 1.0, 3.0, 0.5])))):
        lo, hi = fast_interval(eid, fpr=x, **kw)
        for i in range(x.size):
            p = {k: float(np.broadcast_to(v, x.shape)[i]) for k, v in kw.items()}
            enc = enclose(eid, {**p, "fpr": float(x[i])}, rel_tol=1e-20)
            assert _f(enc.lo, ctx) >= lo[i] and _f(enc.hi, ctx) <= hi[i]


@pytest.mark.parametrize("rho,fpr", [("0.5", "0.05"), ("0.02", "0.3")])
@pytest.mark.tier("slow")
def test_zcdp_curve_between_one_order_and_the_gaussian_mechanism(rho, fpr):
    """sup over orders >= the order-2 curve (a valid lower bound), <= G_sqrt(2 rho) (the Gaussian mechanism is
    rho-zCDP); and the certified upper end is a Bernoulli point that is rho-zCDP at every order checked here by
    brute force in mpmath (a fine grid of orders, the divergences from the definition)."""
    from dpbounds.evaluation.tradeoff import zcdp_enclosure
    z = zcdp_enclosure(rho, fpr)
    assert z.rel_width() <= 1e-3
    mu = str(float(mpmath.sqrt(2 * mpmath.mpf(rho))))
    g = enclose("tradeoff.gdp", {"mu": mu, "fpr": fpr}, rel_tol=1e-12)
    f2 = enclose("tradeoff.rdp", {"alpha": "2", "R": str(2 * Fraction(rho)), "fpr": fpr}, rel_tol=1e-12)
    assert f2.lo <= z.hi and z.hi <= g.hi
    ctx = _ctx(30)
    x, b, r = ctx.mpf(fpr), _f(z.hi, ctx), ctx.mpf(rho)
    for i in range(1, 400):
        A = 1 + ctx.mpf(i) / 40
        assert _renyi(ctx, A, x, 1 - b) <= A * r and _renyi(ctx, A, 1 - b, x) <= A * r


def test_golden_records_for_the_new_entries():
    import json

    from dpbounds.outputs.golden import golden_files
    ids = ["conversions.rdp.optimal", "conversions.rdp.cks20", "tradeoff.rdp", "tradeoff.gdp"]
    files = golden_files(bounds=ids, grid="sample", digits=30, streams=False, conversions=False)
    for i in ids:
        recs = [json.loads(line) for line in files[f"bounds/{i}.jsonl"].splitlines()]
        assert len(recs) == 1 and recs[0]["digits"] == 30
        enc = enclose(i, recs[0]["params"], rel_tol=1e-35)
        assert Fraction(recs[0]["lo"]) <= enc.lo and enc.hi <= Fraction(recs[0]["hi"])
