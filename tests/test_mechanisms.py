"""mechanisms.sgm.rdp and mechanisms.laplace.*: certified enclosures against independent derivations.

Expected values come from (a) mpmath quadrature of the defining integrals written here (not the package's code),
(b) the integer-order binomial sum written with Python's exact binomials and mpmath, (c) q = 1 -> alpha/(2 sigma^2),
and (d) the quadrature path forced at integer orders against the closed form.  Each enclosure must have relative
width <= 1e-3 (asked for 1e-10 here) and contain the independent value.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest

from dpbounds import spec
from dpbounds.accounting.accountants import make_filter
from dpbounds.accounting.individual import IndividualFilter
from dpbounds.accounting.mechanisms import rdp_upper
from dpbounds.evaluation.evaluate import enclose, fast_interval
from dpbounds.evaluation import sgm
from dpbounds.evaluation.numeric import arb_prec


def _mp(v, ctx):
    return ctx.mpf(Fraction(v).numerator) / Fraction(v).denominator


def sgm_rdp_by_quadrature(q, sigma, alpha, dps=30):
    """max of both directions' Renyi divergences, by mpmath quadrature of the two densities (independent)."""
    ctx = mpmath.MPContext()
    ctx.dps = dps
    q, s, a = _mp(spec.parse_exact("q", q), ctx), _mp(spec.parse_exact("s", sigma), ctx), \
        _mp(spec.parse_exact("a", alpha), ctx)

    def logpdf(x, m):
        return -(x - m) ** 2 / (2 * s * s) - ctx.log(s * ctx.sqrt(2 * ctx.pi))

    def log_mu1(x):
        return ctx.log((1 - q) * ctx.exp(logpdf(x, 0)) + q * ctx.exp(logpdf(x, 1)))

    pts = [-ctx.inf] + [c + k * s for c in (0, 1) for k in (-12, -4, -1, 0, 1, 4, 12)] + [ctx.inf]
    pts = sorted(set(pts), key=lambda v: (v != -ctx.inf, v))
    d10 = ctx.quad(lambda x: ctx.exp(a * log_mu1(x) + (1 - a) * logpdf(x, 0)), pts)
    d01 = ctx.quad(lambda x: ctx.exp(a * logpdf(x, 0) + (1 - a) * log_mu1(x)), pts)
    return max(ctx.log(d10), ctx.log(d01)) / (a - 1)


def sgm_binomial(q, sigma, n):
    """The integer-order closed form with exact binomials (MTZ19 Sec. 3.1), in mpmath at 50 digits."""
    ctx = mpmath.MPContext()
    ctx.dps = 50
    qq, ss = _mp(spec.parse_exact("q", q), ctx), _mp(spec.parse_exact("s", sigma), ctx)
    l1q, lq, inv = ctx.log1p(-qq), ctx.log(qq), 1 / (2 * ss * ss)
    logs = [ctx.log(math.comb(n, k)) + (n - k) * l1q + k * lq + (k * k - k) * inv for k in range(n + 1)]
    top = max(logs)
    return (top + ctx.log(ctx.fsum(ctx.exp(v - top) for v in logs))) / (n - 1)


def _inside(enc, v, slack=Fraction(1, 10**18)):
    f = Fraction(mpmath.nstr(v, 25, strip_zeros=False)) if not isinstance(v, Fraction) else v
    width = enc.hi - enc.lo
    return enc.lo - slack * abs(f) - width <= f <= enc.hi + slack * abs(f) + width


@pytest.mark.parametrize("q,sigma,alpha", [("0.01", "1", "8"), ("0.01", "1", "8.5"), ("0.1", "2", "1.5"),
                                           ("0.5", "0.7", "3.25"), ("0.001", "5", "64")])
def test_sgm_enclosure_contains_quadrature_of_the_definition(q, sigma, alpha):
    enc = enclose("mechanisms.sgm.rdp", {"q": q, "sigma": sigma, "alpha": alpha}, rel_tol=1e-10)
    assert enc.rel_width() <= 1e-10
    v = sgm_rdp_by_quadrature(q, sigma, alpha)
    assert enc.lo <= Fraction(mpmath.nstr(v, 20)) * (1 + Fraction(1, 10**15)) and \
        Fraction(mpmath.nstr(v, 20)) * (1 - Fraction(1, 10**15)) <= enc.hi


def sgm_binomial_float(q, sigma, n):
    """The same sum in float64 log-sum-exp with math.lgamma (relative error ~1e-12 at n = 1e4): fast, for large n."""
    q, s2 = float(q), float(sigma) ** 2
    logs = [math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) + (n - k) * math.log1p(-q)
            + k * math.log(q) + (k * k - k) / (2 * s2) for k in range(n + 1)]
    top = max(logs)
    return (top + math.log(math.fsum(math.exp(v - top) for v in logs))) / (n - 1)


@pytest.mark.parametrize("q,sigma,n", [("1e-8", "0.1", 10000), ("1e-3", "3", 10000), ("1e-4", "2", 9999)])
def test_sgm_largest_integer_orders_against_a_float_log_sum_exp(q, sigma, n):
    enc = enclose("mechanisms.sgm.rdp", {"q": q, "sigma": sigma, "alpha": n}, rel_tol=1e-12)
    v = sgm_binomial_float(q, sigma, n)
    assert abs(v - float(enc.lo)) <= 1e-9 * abs(v) + 1e-300 and enc.rel_width() <= 1e-12


@pytest.mark.parametrize("q,sigma,n", [("1e-8", "0.1", 300), ("1e-4", "0.5", 256), ("0.01", "1", 32),
                                       ("0.9", "3", 2)])
def test_sgm_integer_orders_equal_the_binomial_sum(q, sigma, n):
    enc = enclose("mechanisms.sgm.rdp", {"q": q, "sigma": sigma, "alpha": n}, rel_tol=1e-20)
    v = Fraction(mpmath.nstr(sgm_binomial(q, sigma, n), 40))
    assert enc.lo * (1 - Fraction(1, 10**30)) <= v <= enc.hi * (1 + Fraction(1, 10**30))
    assert enc.rel_width() <= 1e-20


@pytest.mark.parametrize("q,sigma,s", [(Fraction(1, 100), Fraction(1), 6), (Fraction(1, 10**6), Fraction(1, 2), 40),
                                       (Fraction(1, 3), Fraction(2), -5)])
def test_sgm_quadrature_path_agrees_with_the_closed_form_at_integer_orders(q, sigma, s):
    with arb_prec(128):
        closed = sgm.log_moment_arb(q, sigma, Fraction(s)) if s >= 0 else None
        quad = sgm.log_moment_arb(q, sigma, Fraction(s), quadrature=True)
    if closed is not None:
        assert closed.overlaps(quad)
    assert quad.rad() < 1e-20 * (1 + abs(quad.mid()))


@pytest.mark.parametrize("sigma,alpha", [("0.1", "2"), ("1", "7.5"), ("30", "10000"), ("1000", "1.01")])
def test_sgm_q1_is_the_gaussian_curve(sigma, alpha):
    enc = enclose("mechanisms.sgm.rdp", {"q": 1, "sigma": sigma, "alpha": alpha}, rel_tol=1e-20)
    exact = Fraction(alpha) / (2 * Fraction(sigma) ** 2)
    assert enc.lo <= exact <= enc.hi


def test_sgm_small_q_large_alpha_fractional():
    # q = 1e-8, alpha near 1e4 (fractional): between the integer orders around it (monotone in alpha) and tight
    e = enclose("mechanisms.sgm.rdp", {"q": "1e-8", "sigma": "0.1", "alpha": "9999.5"}, rel_tol=1e-6)
    lo = enclose("mechanisms.sgm.rdp", {"q": "1e-8", "sigma": "0.1", "alpha": 9999}, rel_tol=1e-12)
    hi = enclose("mechanisms.sgm.rdp", {"q": "1e-8", "sigma": "0.1", "alpha": 10000}, rel_tol=1e-12)
    assert lo.lo <= e.hi and e.lo <= hi.hi and e.rel_width() <= 1e-6


def test_sgm_domain_is_refused_naming_the_theorem():
    for bad in ({"q": "0", "sigma": "1", "alpha": "2"}, {"q": "1e-9", "sigma": "1", "alpha": "2"},
                {"q": "0.1", "sigma": "0.05", "alpha": "2"}, {"q": "0.1", "sigma": "1", "alpha": "1"},
                {"q": "0.1", "sigma": "1", "alpha": "10001"}, {"q": "1.5", "sigma": "1", "alpha": "2"}):
        with pytest.raises(spec.DomainError, match="MTZ19"):
            enclose("mechanisms.sgm.rdp", bad)


def test_sgm_fast_path_brackets_the_certified_value():
    lo, hi = fast_interval("mechanisms.sgm.rdp", q=0.01, sigma=1.0, alpha=8.0)
    enc = enclose("mechanisms.sgm.rdp", {"q": 0.01, "sigma": 1.0, "alpha": 8.0}, rel_tol=1e-20)
    assert lo <= float(enc.lo) and float(enc.hi) <= hi


# ------------------------------------------------------------------------------------------ Laplace

def laplace_rdp_by_quadrature(b, alpha):
    ctx = mpmath.MPContext()
    ctx.dps = 40
    B, A = ctx.mpf(b), ctx.mpf(alpha)
    f = lambda x: ctx.exp(-A * abs(x) / B - (1 - A) * abs(x - 1) / B) / (2 * B)  # noqa: E731
    return ctx.log(ctx.quad(f, [-ctx.inf, 0, 1, ctx.inf])) / (A - 1)


@pytest.mark.parametrize("b,alpha", [("1", "2"), ("0.1", "1.5"), ("10", "32"), ("1000", "3"), ("0.5", "10000")])
def test_laplace_rdp_against_quadrature(b, alpha):
    enc = enclose("mechanisms.laplace.rdp", {"b": b, "alpha": alpha}, rel_tol=1e-20)
    v = Fraction(mpmath.nstr(laplace_rdp_by_quadrature(b, alpha), 30))
    assert enc.lo * (1 - Fraction(1, 10**25)) <= v <= enc.hi * (1 + Fraction(1, 10**25))


@pytest.mark.parametrize("b,eps", [("1", "0.5"), ("0.1", "0"), ("2", "0.2"), ("1", "1"), ("1", "2")])
def test_laplace_delta_against_the_hockey_stick_integral(b, eps):
    ctx = mpmath.MPContext()
    ctx.dps = 40
    B, E = ctx.mpf(b), ctx.mpf(eps)
    f = lambda x: max(ctx.mpf(0), (ctx.exp(-abs(x) / B) - ctx.exp(E - abs(x - 1) / B)) / (2 * B))  # noqa: E731
    t = max(ctx.mpf(0), min(ctx.mpf(1), (1 - E * B) / 2))
    v = Fraction(mpmath.nstr(ctx.quad(f, [-ctx.inf, 0, t, 1, ctx.inf]), 30))
    enc = enclose("mechanisms.laplace.delta", {"b": b, "eps_g": eps}, rel_tol=1e-20)
    assert enc.lo - Fraction(1, 10**28) <= v <= enc.hi + Fraction(1, 10**28)


def test_laplace_fast_paths_are_rounded_outward():
    import numpy as np
    b = np.array([0.1, 1.0, 10.0, 1000.0])
    a = np.array([1.5, 2.0, 32.0, 10000.0])
    lo, hi = fast_interval("mechanisms.laplace.rdp", b=b, alpha=a)
    for i in range(4):
        enc = enclose("mechanisms.laplace.rdp", {"b": float(b[i]), "alpha": float(a[i])}, rel_tol=1e-25)
        assert lo[i] <= enc.lo and enc.hi <= hi[i]
    lo, hi = fast_interval("mechanisms.laplace.delta", b=b, eps_g=np.array([0.05, 0.5, 0.09, 2.0]))
    for i, e in enumerate([0.05, 0.5, 0.09, 2.0]):
        enc = enclose("mechanisms.laplace.delta", {"b": float(b[i]), "eps_g": e}, rel_tol=1e-25)
        assert lo[i] <= enc.lo and enc.hi <= hi[i]


# ------------------------------------------------------------------------------------------ filters (item 6)

def test_renyi_filter_charges_the_upper_end_of_the_sgm_curve():
    f = make_filter("fz21.thm4_3", alpha=8, B="0.05")
    c = rdp_upper("mechanisms.sgm.rdp", 8, q="0.01", sigma="1.1")
    k = 0
    while f.try_spend_mechanism("mechanisms.sgm.rdp", q="0.01", sigma="1.1").name == "CONT":
        k += 1
    assert k == math.floor(Fraction("0.05") / c)  # the exact charge c, added k times, then one more exceeds B
    exact = sgm_binomial("0.01", "1.1", 8)
    assert c >= Fraction(mpmath.nstr(exact, 30)) * (1 - Fraction(1, 10**25))


def test_individual_filter_spends_per_individual_sgm_costs():
    ind = IndividualFilter(3, 8, "0.002")
    act = ind.step_mechanism("mechanisms.sgm.rdp", q="0.01", sigma=["1", "2", "0.5"])
    assert list(act) == [True, True, False]  # sigma 0.5 costs more than the budget at order 8
    assert ind.spent_hi[0] >= float(sgm_binomial("0.01", "1", 8))


def test_a_filter_without_an_order_refuses_a_mechanism():
    f = make_filter("fz21.thm4_7", eps_g=1, delta_g="1e-6")
    with pytest.raises(spec.DomainError, match="Renyi filter"):
        f.try_spend_mechanism("mechanisms.sgm.rdp", q="0.01", sigma=1)
    g = make_filter("fz21.thm4_3", alpha=8, B="0.5")
    with pytest.raises(spec.DomainError, match="mechanism"):
        g.try_spend_mechanism("conversions.rr.rdp", eps=1)


def test_full_batch_step_is_fz21_example_2_7():
    # FZ21's noisy gradient descent (q = 1): person i's step with clipped-gradient norm c_i is the Gaussian mechanism
    # at noise multiplier sigma / c_i, whose Renyi divergence is FZ21 Example 2.7's alpha c_i^2 / (2 sigma^2)
    for alpha, norm, sigma in (("8", "0.5", "2"), ("2.5", "1", "1"), ("64", "0.25", "10")):
        ex = enclose("fz21.example2_7", {"alpha": alpha, "norm": norm, "sigma": sigma}, rel_tol=1e-25)
        c = rdp_upper("mechanisms.sgm.rdp", alpha, q=1, sigma=Fraction(sigma) / Fraction(norm))
        assert ex.lo <= c <= ex.hi * (1 + Fraction(1, 10**12))


def test_a_request_beyond_the_quadrature_precision_is_refused_at_once():
    from dpbounds import CertificationError, evaluate
    with pytest.raises(CertificationError, match="2048 bits"):
        evaluate("mechanisms.sgm.rdp", {"q": "0.01", "sigma": "1", "alpha": "8.5"}, digits=1000)


def test_golden_vectors_of_the_mechanisms_verify(tmp_path):
    from dpbounds.outputs.golden import write_golden
    from dpbounds.outputs.golden_check import check_golden
    ids = ["mechanisms.sgm.rdp", "mechanisms.laplace.rdp", "mechanisms.laplace.delta"]
    write_golden(tmp_path / "v", bounds=ids, grid="sample", digits=30, streams=False, conversions=False)
    assert check_golden(tmp_path / "v") == []
    assert sorted(p.name for p in (tmp_path / "v" / "bounds").glob("*.jsonl")) == sorted(f"{i}.jsonl" for i in ids)


def test_multi_order_filters_charge_every_order():
    from dpbounds import MultiOrderRenyiFilter
    from dpbounds.accounting.filters import MultiOrderUnionFilter
    m = MultiOrderRenyiFilter({4: "0.2", 8: "1.0"})
    assert m.try_spend_mechanism("mechanisms.sgm.rdp", q="0.01", sigma="1.1").name == "CONT"
    for a, f in m.filters.items():  # each order recorded its own charge (>= the exact binomial value)
        assert f.aggregates()["R"][1] >= Fraction(mpmath.nstr(sgm_binomial("0.01", "1.1", int(a)), 30)) * \
            (1 - Fraction(1, 10**25))
    u = MultiOrderUnionFilter(3, "1e-6", [8, 32])
    assert u.try_spend_mechanism("mechanisms.laplace.rdp", b=10).name == "CONT"
    assert u.spent[Fraction(8)] == rdp_upper("mechanisms.laplace.rdp", 8, b=10)
