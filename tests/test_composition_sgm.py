"""composition.sgm.delta / composition.sgm.eps: the certified PLD bracket contains values derived independently.

Quick by construction: small k and coarse grids (the bracket is sound at every grid step, only wider); speed and the
issue's width targets live in `dpbounds bench`.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest

import dpbounds
from dpbounds.evaluation import sgm_pld as S
from dpbounds.spec import DomainError


def gauss_delta(mu: float, eps: float) -> float:
    """mu-GDP curve (Balle-Wang 2018 Theorem 8), by mpmath at 40 digits: Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)."""
    ctx = mpmath.mp.clone() if hasattr(mpmath.mp, "clone") else mpmath.MPContext()
    ctx.dps = 40
    Phi = lambda z: ctx.erfc(-z / ctx.sqrt(2)) / 2  # noqa: E731
    m, e = ctx.mpf(mu), ctx.mpf(eps)
    return Phi(-e / m + m / 2) - ctx.exp(e) * Phi(-e / m - m / 2)


def one_step_quad(q: float, sigma: float, eps: float) -> tuple:
    """delta of ONE step in both directions by mpmath quadrature of the defining integral int (p - e^eps r)_+ dx
    (the positive part's support split at its zero, found by findroot): independent of sgm_pld's discretization."""
    ctx = mpmath.MPContext()
    ctx.dps = 30
    s, qq, e = ctx.mpf(sigma), ctx.mpf(q), ctx.exp(ctx.mpf(eps))
    phi0 = lambda x: ctx.npdf(x, 0, s)  # noqa: E731
    phi1 = lambda x: ctx.npdf(x, 1, s)  # noqa: E731
    mix = lambda x: (1 - qq) * phi0(x) + qq * phi1(x)  # noqa: E731
    out = []
    for p, r in ((mix, phi0), (phi0, mix)):
        f = lambda x: p(x) - e * r(x)  # noqa: E731,B023
        # the likelihood ratio is monotone in x: one sign change (if any) in [-60 s, 60 s]
        xs = [ctx.mpf(-60) * s + i * ctx.mpf(120) * s / 4000 for i in range(4001)]
        vals = [f(x) for x in xs]
        cuts = [xs[i] for i in range(4000) if (vals[i] > 0) != (vals[i + 1] > 0)]
        pts = [-ctx.inf] + [ctx.findroot(f, c) for c in cuts] + [ctx.inf]
        tot = ctx.mpf(0)
        for a, b in zip(pts, pts[1:]):
            mid = (a + b) / 2 if ctx.isfinite(a) and ctx.isfinite(b) else (b - 1 if ctx.isfinite(b) else a + 1)
            if f(mid) > 0:
                tot += ctx.quad(f, [a, b])
        out.append(tot)
    return tuple(out)


def _brk(q, sigma, k, h):
    return S.bracket(F(q), F(sigma), k, F(h))


@pytest.mark.parametrize("sigma,k", [(1, 1), (2, 3), (F(1, 2), 2)])
def test_q_one_contains_the_gaussian_curve(sigma, k):
    b = _brk(1, sigma, k, F(1, 50))
    mu = math.sqrt(k) / float(sigma)
    for eps in (0, F(1, 2), 1, 2, 4):
        lo, hi = b.delta(F(eps))
        g = gauss_delta(mu, float(eps))
        assert lo <= g <= hi, (sigma, k, eps, lo, float(g), hi)
        assert hi - lo < 1e-2 * max(float(g), 1e-6) + 1e-12


def test_q_one_contains_the_registry_gaussian_curve():
    b = _brk(1, 1, 4, F(1, 50))
    for eps in ("0.5", "3"):
        g = dpbounds.enclose("conversions.gauss.delta", {"rho": "2", "eps_g": eps}, rel_tol=1e-20)
        lo, hi = b.delta(F(eps))
        assert F(lo) <= g.lo and g.hi <= F(hi)


@pytest.mark.parametrize("q,sigma", [(F(1, 10), 1), (F(1, 2), F(1, 2)), (F(1, 100), 2)])
@pytest.mark.tier("slow")
def test_one_step_contains_quadrature_of_the_definition(q, sigma):
    b = _brk(q, sigma, 1, F(1, 100))
    for eps in (0, F(1, 10), F(1, 2), 1):
        rem, add = one_step_quad(float(q), float(sigma), float(eps))
        want = max(rem, add)
        lo, hi = b.delta(F(eps))
        assert lo <= want <= hi, (q, sigma, eps, lo, float(want), hi)
        # each direction separately too
        for d, v in (("remove", rem), ("add", add)):
            (gu, wu), (gl, wl) = b.up[d], b.lo[d]
            assert S.delta_bound(gl, wl, F(eps)) <= v <= S.delta_bound(gu, wu, F(eps)), (d, eps)


@pytest.mark.tier("slow")
def test_small_q_lower_end_is_not_zero():
    # the dominated pair certifies no group when the first grid point lies above loss 0 (h > -log(1 - q)): at
    # q = 1e-4 with h = 1/6000 its lower end was 0 and its k-fold squarings doubled a zero array; the search now
    # caps h at q, and there the one-step bracket holds the quadrature with a lower end above 0
    q = F(1, 10000)
    enc = dpbounds.enclose("composition.sgm.delta", {"q": q, "sigma": "1", "k": "1", "eps_g": "0.0001"}, rel_tol=1e-2)
    rem, add = one_step_quad(float(q), 1.0, 1e-4)
    want = F(str(max(rem, add)))
    assert enc.lo > 0 and enc.lo <= want <= enc.hi, (enc, rem, add)
    assert enc.rel_width() <= 1e-2
    g = S.step_lower(S.one_step(q, F(1), F(1, 6000), None, 1), "remove")
    assert g.m.sum() < 1e-6      # the (nearly) degenerate grid: why the cap exists
    assert S._truncate(g, 1e-6).m.size == 1                       # collapsed, not convolved


def test_brackets_are_monotone_and_nested_in_eps():
    b = _brk(F(1, 20), 1, 8, F(1, 40))
    eps = [F(i, 4) for i in range(0, 17)]
    br = [b.delta(e) for e in eps]
    for (lo1, hi1), (lo2, hi2) in zip(br, br[1:]):
        assert lo2 <= hi1          # delta is nonincreasing: a later lower end never exceeds an earlier upper end
        assert lo1 <= hi1
    his = [hi for _, hi in br]
    assert all(x >= y for x, y in zip(his, his[1:]))   # the upper ends themselves are nonincreasing


def test_finer_grid_brackets_overlap_and_tighten():
    coarse, fine = _brk(F(1, 20), 1, 16, F(1, 20)), _brk(F(1, 20), 1, 16, F(1, 80))
    for e in (F(1, 2), 1, 2):
        (a, b_), (c, d) = coarse.delta(e), fine.delta(e)
        assert max(a, c) <= min(b_, d)            # both contain the truth
        assert d - c <= b_ - a


def test_eps_bracket_inverts_the_delta_bracket():
    b = _brk(1, 1, 4, F(1, 50))
    for delta in (F(1, 10**3), F(1, 10**6)):
        lo, hi = b.eps(delta)
        # the Gaussian's exact eps(delta) (mu = 2) by mpmath root-finding
        e = mpmath.findroot(lambda x: gauss_delta(2.0, float(x)) - float(delta), 3.0)
        assert lo <= e <= hi
        assert b.delta_upper(F(hi)) <= delta < b.delta_lower(F(lo)) or lo == 0


def _gauss40(mu2, eps) -> F:
    """The mu-GDP curve at mu = sqrt(mu2) and the exact rational eps, by mpmath at 40 digits, as an exact Fraction of
    the 40-digit value (independent of dpbounds' arb: mpmath's erfc)."""
    ctx = mpmath.mp.clone() if hasattr(mpmath.mp, "clone") else mpmath.MPContext()
    ctx.dps = 40
    e = ctx.mpf(F(eps).numerator) / F(eps).denominator
    m = ctx.sqrt(ctx.mpf(F(mu2).numerator) / F(mu2).denominator)
    g = ctx.erfc(-(-e / m + m / 2) / ctx.sqrt(2)) / 2 - ctx.exp(e) * ctx.erfc(-(-e / m - m / 2) / ctx.sqrt(2)) / 2
    man, exp = g.man_exp
    return F(int(man)) * F(2) ** int(exp)


def test_enclose_entry_points():
    slack = F(1, 10**30)                              # mpmath's 40 digits
    enc = dpbounds.enclose("composition.sgm.delta", {"q": "1", "sigma": "1", "k": "2", "eps_g": "1"}, rel_tol=1e-2)
    g = _gauss40(2, 1)
    assert enc.lo - slack <= g <= enc.hi + slack and enc.rel_width() <= 1e-2
    enc = dpbounds.enclose("composition.sgm.eps", {"q": "1", "sigma": "2", "k": "1", "delta": "0.01"}, rel_tol=1e-2)
    e = mpmath.findroot(lambda x: gauss_delta(0.5, float(x)) - 0.01, 1.0)
    assert enc.lo <= F(float(e)) <= enc.hi


@pytest.mark.parametrize("sigma,k,eps", [("1", 10, "3"), ("0.5", 100, "3"), ("2", 1000, "0"), ("50", 1, "10")])
def test_q_one_is_the_gaussian_curve_to_many_digits(sigma, k, eps):
    """q = 1 is evaluated by the closed form (mu-GDP, mu = sqrt(k)/sigma), not the grid: narrow and inside the 40-digit
    mpmath value; k = 1000 would take the grid minutes."""
    enc = dpbounds.enclose("composition.sgm.delta", {"q": "1", "sigma": sigma, "k": str(k), "eps_g": eps},
                           rel_tol=1e-12)
    g = _gauss40(F(k) / F(sigma) ** 2, F(eps))
    assert enc.rel_width() <= 1e-12 and enc.lo - g * F(1, 10**30) <= g <= enc.hi + g * F(1, 10**30)
    # the inverse: eps(delta) at delta = that value comes back to eps
    if F(1, 10**300) < g < F(1, 2):
        inv = dpbounds.enclose("composition.sgm.eps", {"q": "1", "sigma": sigma, "k": str(k),
                                                        "delta": str(float(g))}, rel_tol=1e-6)
        assert inv.rel_width() <= 1e-6 or inv.hi == 0
        if F(eps) > 0:
            assert abs(float(inv.lo) - float(eps)) <= 1e-5 * float(eps) + 1e-9


def test_enclose_refuses_unreachable_tolerances_and_fast_paths():
    with pytest.raises(dpbounds.CertificationError):
        dpbounds.enclose("composition.sgm.eps", {"q": "0.01", "sigma": "1", "k": "10", "delta": "1e-5"})
    from dpbounds.evaluation.evaluate import fast_interval, value_mp
    with pytest.raises(DomainError):
        fast_interval("composition.sgm.delta", q=0.01, sigma=1.0, k=10, eps_g=1.0)
    with pytest.raises(DomainError):
        value_mp("composition.sgm.delta", {"q": "0.01", "sigma": "1", "k": "10", "eps_g": "1"})


@pytest.mark.parametrize("bad", [{"q": "0"}, {"q": "1.5"}, {"k": "0"}, {"k": "1.5"}, {"sigma": "0"},
                                 {"sigma": "-1"}, {"eps_g": "-1"}])
def test_domain_errors_name_the_parameter(bad):
    params = {"q": "0.01", "sigma": "1", "k": "10", "eps_g": "1", **bad}
    with pytest.raises(DomainError) as ei:
        dpbounds.enclose("composition.sgm.delta", params, rel_tol=1e-2)
    assert next(iter(bad)) in str(ei.value)


def test_convolution_bounds_contain_the_exact_rational_convolution():
    rng = np.random.default_rng(7)
    for n in (5, 300, 700):   # numpy's loop and the blocked BLAS path
        a = rng.random(n) ** 8
        b = rng.random(n - 3) ** 8
        a[::7] = 0.0
        a[1] = 1e-310          # subnormal
        exact = [sum((F(float(a[i])) * F(float(b[j - i])) for i in range(max(0, j - b.size + 1), min(j, a.size - 1) + 1)),
                     F(0)) for j in range(a.size + b.size - 1)] if n < 400 else None
        up = S.convolve(S.GridPLD(F(1), 0, a.copy(), upper=True), S.GridPLD(F(1), 0, b.copy(), upper=True), tau=-1.0)
        lo = S.convolve(S.GridPLD(F(1), 0, a.copy(), upper=False), S.GridPLD(F(1), 0, b.copy(), upper=False), tau=-1.0)
        ref = np.convolve(a, b)
        assert up.off == lo.off == 0 and up.m.size == lo.m.size == ref.size
        if exact is not None:
            assert all(F(float(lo.m[j])) <= exact[j] <= F(float(up.m[j])) for j in range(ref.size))
        assert np.all(lo.m <= ref) and np.all(ref <= up.m)


def test_planted_fault_is_caught_by_the_gaussian_check(monkeypatch):
    """The q = 1 check must fire on a wrong discretization: the dominated pair used as the upper end."""
    def wrong_upper(step, direction):
        g = S.step_lower(step, direction)
        g.upper = True
        return g
    monkeypatch.setattr(S, "step_upper", wrong_upper)
    b = S.bracket(F(1), F(1), 3, F(1, 10))
    misses = [e for e in (0, F(1, 2), 1, 2) if not b.delta(F(e))[1] >= gauss_delta(math.sqrt(3), float(e))]
    assert misses


def test_dp_accounting_pld_estimates_against_the_bracket():
    """dp_accounting's pessimistic PLD estimate is never below our lower end, its optimistic one never above our
    upper end (up to dp_accounting's own discretization being coarser: both are checked at the same point)."""
    pld = pytest.importorskip("dp_accounting.pld.privacy_loss_distribution")
    q, sigma, k = 0.05, 1.0, 16
    b = _brk(F(1, 20), 1, k, F(1, 100))
    for pess in (True, False):
        d = pld.from_gaussian_mechanism(standard_deviation=sigma, sensitivity=1.0, sampling_prob=q,
                                        value_discretization_interval=1e-3, pessimistic_estimate=pess)
        dk = d.self_compose(k)
        for eps in (0.5, 1.0, 2.0):
            v = dk.get_delta_for_epsilon(eps)
            lo, hi = b.delta(F(eps))
            if pess:
                assert v >= lo * (1 - 1e-9), (eps, v, lo)
            else:
                assert v <= hi * (1 + 1e-9), (eps, v, hi)


def test_claim_helpers_catch_planted_faults():
    """The proofs_check instances are able to fail: a split with its two shares swapped is not dominating, and a
    garbling whose groups overshoot their grid loss (q not raised enough) is not dominated, on some instance."""
    import random
    from dpbounds.proofs_check.claims import composition as C
    rng = random.Random(3)
    atoms = C._random_pair(rng, 4)
    lrs = sorted(a / b for a, b in atoms)
    r = sorted({lrs[0] / 2, lrs[0], (lrs[0] + lrs[-1]) / 2, lrs[-1], 2 * lrs[-1]})
    good = C.split_onto_grid(atoms, r)
    # planted: every atom rounded DOWN to the grid ratio below it, P-mass kept (an optimistic rounding as "upper")
    bad = [(p, p / max(x for x in r if x <= p / q)) for p, q in atoms]
    ts = [F(1, 2), F(1), F(3, 2), F(4)]
    assert all(C._H(good, t, 2) >= C._H(atoms, t, 2) for t in ts)
    assert any(C._H(bad, t, 2) < C._H(atoms, t, 2) for t in ts)
    g = C.garble_onto_grid(atoms, r)
    assert all(C._H(g, t, 2) <= C._H(atoms, t, 2) for t in ts)
    up = [(p, p / (ri * 4)) for (p, _), ri in zip(g, sorted(r, reverse=True))]   # losses pushed up: not dominated
    assert any(C._H(up, t, 2) > C._H(atoms, t, 2) for t in ts)


def test_evaluate_refuses_more_digits_than_the_bracket_backs():
    from dpbounds.evaluation.evaluate import OPAQUE_MAX_DIGITS, evaluate
    with pytest.raises(DomainError) as ei:
        evaluate("composition.sgm.delta", {"q": "1", "sigma": "1", "k": "1", "eps_g": "1"}, digits=OPAQUE_MAX_DIGITS + 1)
    assert "digits" in str(ei.value)


def test_work_limit_refuses_a_large_convolution_and_binds_only_inside():
    # the audit's search bounds what one point may cost by the point alone (never the clock): inside
    # work_limit a convolution beyond the bound is refused before it starts; outside, the same point is enclosed
    from dpbounds.evaluation.enclosure import CertificationError
    from dpbounds.evaluation.evaluate import enclose
    from dpbounds.evaluation import sgm_pld
    pt = {"q": "0.02", "sigma": "1.1", "k": 37, "delta": "1e-5"}
    enclose("composition.sgm.eps", pt, rel_tol=1e-3)  # cached without the bound: never served inside it
    with sgm_pld.work_limit(1e4):
        with pytest.raises(CertificationError, match="work bound"):
            enclose("composition.sgm.eps", pt, rel_tol=1e-3)
    assert sgm_pld._WORK_LIMIT[0] is None
    e = enclose("composition.sgm.eps", pt, rel_tol=1e-3)
    assert 0 < e.lo < e.hi
    with sgm_pld.work_limit(1e12):   # a bound the point stays within changes nothing
        assert enclose("composition.sgm.eps", pt, rel_tol=1e-3) == e


@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("k, eps, sds, tail", [(6, 0.2, 1.0, 0.0), (8, 0.4, 2.0, 1e-3), (5, 0.1, 50.0, 0.0)])
def test_power_compose_dominates_the_exact_k_fold(upper, k, eps, sds, tail):
    # the one-transform k-fold against the exact rational one: every tail sum sum_{j >= J} (the +oo mass included)
    # is on the safe side -- first-order dominance, so every hockey-stick divergence is (windows narrower than the
    # support: aliasing, mass below and above the window; a tail moved first)
    rng = np.random.default_rng(k)
    m = rng.random(13) ** 2
    m[2] = 0.0
    m /= m.sum() * 1.03
    g = S.GridPLD(F(1, 8), -3, m, 0.02 if upper else 0.0, upper)
    out = S.power_compose(g, k, eps, sds, tail)
    ex = [F(1)]
    for _ in range(k):
        new = [F(0)] * (len(ex) + m.size - 1)
        for i, x in enumerate(ex):
            for j, y in enumerate(m):
                new[i + j] += x * F(float(y))
        ex = new
    s = sum((F(float(v)) for v in m), F(0))
    ex_inf = (s + F(g.inf)) ** k - s ** k
    J0 = out.off - k * g.off
    mm = [F(float(v)) for v in out.m]
    for J in range(len(ex) + 1):
        got = F(out.inf) + (sum(mm[min(max(J - J0, 0), len(mm)):], F(0)) if J <= J0 + len(mm) else F(0))
        want = sum(ex[J:], F(0)) + ex_inf
        assert (got >= want) if upper else (got <= want), (J, float(got), float(want))


def test_power_path_and_squarings_agree():
    # the same grid composed both ways: two certified brackets of one value overlap, and at this grid both are
    # about as narrow (the transform's error is far below the discretization's)
    q, s, k, d = F(1, 100), F(2), 300, F(1, 10 ** 5)
    h = F(1, 400)
    plan = S._power_plan(q, s, k, float(d), None, 1e-3)
    a = S.bracket(q, s, k, h, power=plan)
    b = S.bracket(q, s, k, h, budget=5e-11)
    la, ha = a.eps(d)
    lb, hb = b.eps(d)
    assert max(la, lb) <= min(ha, hb)
    assert (ha - la) <= 1.1 * (hb - lb)


def test_lower_and_upper_sums_bracket_the_exact_sum():
    rng = np.random.default_rng(5)
    for m in (rng.random(1000), rng.random(5000) ** 30, np.array([1.0, 2.0 ** -1074, 2.0 ** -1060] * 50),
              np.zeros(3), np.array([1e300, 1e-300])):
        exact = sum((F(float(v)) for v in m), F(0))
        assert F(S._lower_sum(m)) <= exact <= F(S._upper_sum(m))
