"""Spec entries of FZ21 (seed 004) and of the zCDP -> DP conversions: evaluable, in-domain, and checked against
independently typed formulas (mpmath private contexts, sympy) -- never against values produced by reference/.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from dpbounds import spec
from dpbounds.spec.core import Kind, sym

IDS = [i for i in spec.registry() if i.startswith(("fz21.", "conversions."))]

REQUIRED = {
    "fz21.fact2_4", "fz21.thm3_1", "fz21.thm4_3", "fz21.remark4_4", "fz21.thm4_7", "fz21.thm4_7.bs16",
    "fz21.thm4_7.fixed", "fz21.thm4_7.rruv_rate", "fz21.prop5_2", "fz21.example2_7", "fz21.thm4_5", "fz21.cor5_3",
    "conversions.bs16", "conversions.bs16.b_star", "conversions.mironov", "conversions.cks20",
    "conversions.cks20.delta", "conversions.gauss.delta", "conversions.kov15.exact",
    "conversions.kov15.heterogeneous",
}


def _ctx(dps: int = 50) -> mpmath.MPContext:
    c = mpmath.MPContext()
    c.dps = dps
    return c


def _q(s: str) -> sp.Rational:
    f = spec.parse_exact("x", s)
    return sp.Rational(f.numerator, f.denominator)


def _value(entry_id: str, point: dict[str, str], what: str = "expr", digits: int = 40) -> sp.Float:
    """sympy evaluation of the entry's expression at an exact point (Sum indices are bound, doit() expands them)."""
    e = spec.get(entry_id)
    expr = e.all_exprs()[what]
    return sp.N(expr.xreplace({sym(k): _q(v) for k, v in point.items()}).doit(), digits)


# ------------------------------------------------------------------------------------------ registry laws


def test_required_ids_are_registered():
    assert REQUIRED <= set(IDS), sorted(REQUIRED - set(IDS))


@pytest.mark.parametrize("entry_id", IDS)
@pytest.mark.tier("properties")
def test_entry_evaluates_to_a_finite_real_at_its_sample_point(entry_id):
    e = spec.get(entry_id)
    pt = e.sample_point()
    if e.optimize is not None:
        assert e.optimize.var in pt, "an Optimize entry's example must fix its variable"
    e.check_values({k: v for k, v in pt.items() if k in e.params})
    for name in e.all_exprs():
        if name == "halt":
            continue
        v = _value(entry_id, pt, name)
        assert v.is_real and math.isfinite(float(v)), (entry_id, name, v)
    if e.kind is Kind.FILTER:
        h = e.halt.xreplace({sym(k): _q(v) for k, v in pt.items()})
        assert h in (sp.true, sp.false), (entry_id, h)


@pytest.mark.parametrize("entry_id", IDS)
def test_entry_cites_its_source(entry_id):
    e = spec.get(entry_id)
    assert e.source.where
    if entry_id.startswith("fz21."):
        assert e.source.seed == spec.SEEDS["fz21"]
    else:
        assert e.source.citation and not e.source.seed


BAD = [
    ("fz21.fact2_4", {"alpha": "1", "rho": "0.1", "delta": "1e-6"}, "alpha"),
    ("fz21.fact2_4", {"alpha": "2", "rho": "0.1", "delta": "1"}, "delta"),
    ("fz21.fact2_4", {"alpha": "2", "rho": "-0.1", "delta": "1e-6"}, "rho"),
    ("fz21.thm4_3", {"alpha": "0.5", "B": "1"}, "alpha"),
    ("fz21.thm3_1", {"alpha": "2", "B": "-1"}, "B"),
    ("fz21.remark4_4", {"B": "-0.5"}, "B"),
    ("fz21.thm4_7", {"eps_g": "1", "delta_g": "1e-6", "B": "-0.1"}, "B"),
    ("fz21.thm4_7", {"eps_g": "0", "delta_g": "1e-6", "B": "0.1"}, "eps_g"),
    ("fz21.thm4_7.bs16", {"eps_g": "1", "delta_g": "1.5"}, "delta_g"),
    ("fz21.thm4_7.bs16", {"eps_g": "1", "delta_g": "0"}, "delta_g"),
    ("fz21.thm4_7.fixed", {"eps": "0.1", "k": "0", "delta": "1e-6"}, "k"),
    ("fz21.thm4_7.rruv_rate", {"eps": "-0.1", "k": "10", "delta": "1e-6"}, "eps"),
    ("fz21.prop5_2", {"Delta": "0", "m": "3"}, "Delta"),
    ("fz21.prop5_2", {"Delta": "0.5", "m": "-1"}, "m"),
    ("fz21.cor5_3", {"Delta": "-1", "m": "0"}, "Delta"),
    ("fz21.example2_7", {"alpha": "2", "norm": "1", "sigma": "0"}, "sigma"),
    ("fz21.example2_7", {"alpha": "0.5", "norm": "1", "sigma": "1"}, "alpha"),
    ("fz21.thm4_5", {"alpha": "2", "B": "-2"}, "B"),
    ("conversions.bs16", {"rho": "-1", "delta": "1e-6"}, "rho"),
    ("conversions.bs16", {"rho": "0.1", "delta": "1"}, "delta"),
    ("conversions.bs16.b_star", {"eps_g": "-1", "delta_g": "1e-6"}, "eps_g"),
    ("conversions.mironov", {"alpha": "1", "rho": "0.1", "delta": "1e-6"}, "alpha"),
    ("conversions.cks20", {"rho": "0.1", "delta": "0"}, "delta"),
    ("conversions.cks20.delta", {"rho": "0.1", "eps_g": "-1"}, "eps_g"),
    ("conversions.gauss.delta", {"rho": "0", "eps_g": "1"}, "rho"),
    ("conversions.kov15.exact", {"eps": "0.1", "k": "0", "eps_g": "1"}, "k"),
    ("conversions.kov15.heterogeneous", {"dhat": "0"}, "dhat"),
    ("conversions.kov15.heterogeneous", {"dhat": "1.5"}, "dhat"),
]


@pytest.mark.parametrize("entry_id,values,param", BAD, ids=[f"{b[0]}:{b[2]}" for b in BAD])
def test_out_of_domain_values_raise_domain_error(entry_id, values, param):
    with pytest.raises(spec.DomainError) as ei:
        spec.get(entry_id).check_values(values)
    assert ei.value.param == param
    assert entry_id in str(ei.value)


@pytest.mark.parametrize("entry_id", ["conversions.cks20", "conversions.cks20.delta"])
def test_optimized_variable_is_not_a_user_parameter(entry_id):
    e = spec.get(entry_id)
    pt = {k: v for k, v in e.sample_point().items() if k in e.params and k != "alpha"}
    with pytest.raises(spec.DomainError):
        e.check_values({**pt, "alpha": "2"})


# ------------------------------------------------------------------------------------------ BS16 / Mironov


def test_bs16_b_star_inverts_bs16_symbolically():
    L, eg = sp.symbols("L eps_g", positive=True)
    bstar = spec.get("conversions.bs16.b_star").expr.xreplace({sym("eps_g"): eg, sym("delta_g"): sp.exp(-L)})
    bstar = sp.simplify(sp.expand_log(bstar, force=True))
    eps_of = spec.get("conversions.bs16").expr.xreplace({sym("rho"): bstar, sym("delta"): sp.exp(-L)})
    eps_of = sp.expand_log(eps_of, force=True)
    # sqrt(b*) = sqrt(L + eps_g) - sqrt(L) > 0: rewrite the square root of the square by hand, then compare
    t = sp.sqrt(L + eg) - sp.sqrt(L)
    eps_of = eps_of.xreplace({sp.sqrt(bstar * L): t * sp.sqrt(L)}).subs(sp.sqrt(L * bstar), t * sp.sqrt(L))
    assert sp.simplify(sp.expand(eps_of - eg)) == 0


@given(eg=st.fractions(Fraction(1, 1000), Fraction(20)), d=st.fractions(Fraction(1, 10**12), Fraction(999, 1000)))
@settings(max_examples=40, deadline=None)
def test_bs16_b_star_inverts_bs16_at_50_digits(eg, d):
    c = _ctx(60)
    eg_, d_ = c.mpf(eg.numerator) / eg.denominator, c.mpf(d.numerator) / d.denominator
    L = c.log(1 / d_)
    b = (c.sqrt(L + eg_) - c.sqrt(L)) ** 2           # typed from FZ21 Thm 4.7 (l. 428), not from the spec
    assert abs(b + 2 * c.sqrt(b * L) - eg_) <= c.mpf(10) ** -50 * (1 + eg_)  # BS16 Prop 1.3
    # and the spec's expressions agree with the typed ones
    pt = {"eps_g": str(eg), "delta_g": str(d)}
    assert abs(c.mpf(str(_value("conversions.bs16.b_star", pt, digits=55))) - b) <= c.mpf(10) ** -48 * (1 + b)
    assert abs(c.mpf(str(_value("fz21.thm4_7.bs16", {**pt, "V": "0"}, "extra.b_star", 55))) - b) <= \
        c.mpf(10) ** -48 * (1 + b)


@pytest.mark.parametrize("rho,delta", [("0.1", "1e-6"), ("0.001", "1e-5"), ("3", "0.5"), ("0.0017993", "1e-5")])
def test_mironov_at_its_optimal_alpha_equals_bs16(rho, delta):
    c = _ctx(50)
    r, L = c.mpf(rho), c.log(1 / c.mpf(delta))
    a_star = 1 + c.sqrt(L / r)
    mir = _value("conversions.mironov", {"alpha": str(a_star), "rho": rho, "delta": delta}, digits=45)
    bs = _value("conversions.bs16", {"rho": rho, "delta": delta}, digits=45)
    assert abs(c.mpf(str(mir)) - c.mpf(str(bs))) <= c.mpf(10) ** -35
    # alpha* is the minimizer: both neighbours are larger (Mironov is convex in alpha)
    for a in (a_star * c.mpf("0.99"), a_star * c.mpf("1.01")):
        assert a * r + L / (a - 1) > c.mpf(str(bs))


def test_fact2_4_is_mironov_at_the_rdp_value_alpha_rho():
    pt = {"alpha": "3", "rho": "0.2", "delta": "1e-5"}
    f = _value("fz21.fact2_4", {"alpha": "3", "rho": "0.6", "delta": "1e-5"})
    m = _value("conversions.mironov", pt)
    assert abs(f - m) < 1e-30
    assert abs(float(f) - (0.6 + math.log(1e5) / 2)) < 1e-12


def test_fixed_rate_is_bs16_at_k_eps_squared_over_two():
    for eps, k, d in (("0.1", "50", "1e-6"), ("0.01", "2000", "1e-5"), ("1", "3", "0.01")):
        fixed = _value("fz21.thm4_7.fixed", {"eps": eps, "k": k, "delta": d})
        e, kk, dd = float(eps), int(k), float(d)
        typed = 0.5 * kk * e * e + math.sqrt(2 * kk * math.log(1 / dd)) * e  # FZ21 l. 438
        assert abs(float(fixed) - typed) <= 1e-12 * typed
        bs = _value("conversions.bs16", {"rho": str(_q(k) * _q(eps) ** 2 / 2), "delta": d})
        assert abs(fixed - bs) < 1e-30
        rr = _value("fz21.thm4_7.rruv_rate", {"eps": eps, "k": k, "delta": d})
        assert rr > fixed  # e^eps - 1 > eps


# ------------------------------------------------------------------------------------------ CKS20


def _cks_eps(c, a, r, L):
    """CKS20 eps form at one alpha, typed here (THEOREMS.md)."""
    return a * r + (L + (a - 1) * c.log(1 - 1 / a) - c.log(a)) / (a - 1)


def _cks_inf(c, r, L):
    """inf over alpha > 1 by golden-section search on a bracket around the BS16 optimum (convex in practice)."""
    lo, hi = c.mpf("1.000001"), 4 * (1 + c.sqrt(L / r)) + 10
    g = (c.sqrt(5) - 1) / 2
    for _ in range(300):
        m1, m2 = hi - g * (hi - lo), lo + g * (hi - lo)
        if _cks_eps(c, m1, r, L) < _cks_eps(c, m2, r, L):
            hi = m2
        else:
            lo = m1
    a = (lo + hi) / 2
    return _cks_eps(c, a, r, L), a


@pytest.mark.parametrize("rho,delta", [("0.1", "1e-6"), ("0.0017993", "1e-5"), ("0.5", "1e-3"), ("2", "1e-10")])
def test_cks20_is_between_its_infimum_and_bs16(rho, delta):
    c = _ctx(40)
    r, L = c.mpf(rho), c.log(1 / c.mpf(delta))
    inf_val, a_opt = _cks_inf(c, r, L)
    bs = c.mpf(str(_value("conversions.bs16", {"rho": rho, "delta": delta})))
    a_bs = 1 + c.sqrt(L / r)
    at_bs = c.mpf(str(_value("conversions.cks20", {"rho": rho, "delta": delta, "alpha": str(a_bs)})))
    assert at_bs <= bs  # CKS20 < Mironov pointwise, Mironov(alpha*) = BS16
    assert inf_val <= at_bs
    for a in ("1.01", "1.5", "2", "7", "40", "300", "1e4", str(a_opt)):
        v = c.mpf(str(_value("conversions.cks20", {"rho": rho, "delta": delta, "alpha": a})))
        assert v >= inf_val - c.mpf(10) ** -25, a
        assert abs(v - _cks_eps(c, c.mpf(a), r, L)) <= c.mpf(10) ** -25 * (1 + abs(v))


@pytest.mark.parametrize("alpha", ["1.5", "3", "17", "250"])
def test_cks20_delta_form_inverts_the_eps_form_at_each_alpha(alpha):
    c = _ctx(50)
    rho, delta = "0.05", "1e-7"
    e = _value("conversions.cks20", {"rho": rho, "delta": delta, "alpha": alpha}, digits=50)
    d = _value("conversions.cks20.delta", {"rho": rho, "eps_g": str(sp.nsimplify(e, rational=True)), "alpha": alpha},
               digits=45)
    assert abs(c.mpf(str(d)) / c.mpf(delta) - 1) < c.mpf(10) ** -30


# ------------------------------------------------------------------------------------------ Gaussian


def _gauss_delta(c, r, e):
    """Balle-Wang exact curve, typed here with mpmath's ncdf (mu = sqrt(2 rho))."""
    mu = c.sqrt(2 * r)
    return c.ncdf(-e / mu + mu / 2) - c.exp(e) * c.ncdf(-e / mu - mu / 2)


@pytest.mark.parametrize("rho,delta", [("0.1", "1e-6"), ("0.0017993", "1e-5"), ("1", "1e-3"), ("0.01", "0.1")])
def test_gauss_delta_at_the_bs16_eps_is_at_most_the_target(rho, delta):
    c = _ctx(50)
    eps = _value("conversions.bs16", {"rho": rho, "delta": delta}, digits=50)
    eps_q = str(sp.nsimplify(eps, rational=True))
    gd = c.mpf(str(_value("conversions.gauss.delta", {"rho": rho, "eps_g": eps_q}, digits=45)))
    assert abs(gd - _gauss_delta(c, c.mpf(rho), c.mpf(str(eps)))) <= c.mpf(10) ** -35
    assert 0 <= gd <= c.mpf(delta)
    # and CKS20's delta at the same eps sits between the Gaussian curve and the target
    r, L = c.mpf(rho), c.log(1 / c.mpf(delta))
    a = 1 + c.sqrt(L / r)
    cks = c.mpf(str(_value("conversions.cks20.delta", {"rho": rho, "eps_g": eps_q, "alpha": str(a)}, digits=45)))
    assert gd <= cks <= c.mpf(delta) * (1 + c.mpf(10) ** -30)


def test_gauss_delta_is_exactly_the_gaussian_hockey_stick_divergence():
    # independent: integrate max(0, p - e^eps q) for N(mu, 1) vs N(0, 1)
    c = _ctx(30)
    rho, eps = c.mpf("0.3"), c.mpf("0.7")
    mu = c.sqrt(2 * rho)
    x0 = eps / mu + mu / 2  # p/q = exp(mu x - mu^2/2) > e^eps  <=>  x > x0
    hs = c.quad(lambda x: c.npdf(x, mu, 1) - c.exp(eps) * c.npdf(x, 0, 1), [x0, c.inf])
    v = c.mpf(str(_value("conversions.gauss.delta", {"rho": "0.3", "eps_g": "0.7"}, digits=30)))
    assert abs(v - hs) <= c.mpf(10) ** -20


# ------------------------------------------------------------------------------------------ KOV15


@given(eps=st.fractions(Fraction(0), Fraction(3)), eps_g=st.fractions(Fraction(0), Fraction(4)))
@settings(max_examples=30, deadline=None)
@pytest.mark.tier("slow")
def test_kov15_exact_at_k1_is_randomized_response(eps, eps_g):
    c = _ctx(40)
    v = _value("conversions.kov15.exact", {"eps": str(eps), "k": "1", "eps_g": str(eps_g)}, digits=35)
    e, eg = c.mpf(eps.numerator) / eps.denominator, c.mpf(eps_g.numerator) / eps_g.denominator
    typed = max(c.mpf(0), (c.exp(e) - c.exp(eg)) / (1 + c.exp(e)))
    assert abs(c.mpf(str(v)) - typed) <= c.mpf(10) ** -30


def test_kov15_exact_on_the_grid_matches_kov_theorem_3_3():
    # KOV15 Thm 3.3 (pure rounds): at eps_g = (k - 2i) eps,
    # delta_i = sum_{l<i} C(k,l)(e^{(k-l)eps} - e^{(k-2i+l)eps})/(1+e^eps)^k
    c = _ctx(40)
    e, k = c.mpf("0.3"), 7
    for i in range(0, 4):
        di = sum(c.binomial(k, j) * (c.exp((k - j) * e) - c.exp((k - 2 * i + j) * e))
                 for j in range(i)) / (1 + c.exp(e)) ** k
        v = _value("conversions.kov15.exact", {"eps": "0.3", "k": str(k), "eps_g": str(_q("0.3") * (k - 2 * i))},
                   digits=35)
        assert abs(c.mpf(str(v)) - di) <= c.mpf(10) ** -30, i


def test_kov15_exact_is_below_the_fixed_rate_budget():
    # FZ21's fixed-parameter rate is valid, so the exact optimum delta at that eps is <= delta
    for eps, k, d in (("0.1", 20, "1e-3"), ("0.3", 10, "1e-2")):
        eg = _value("fz21.thm4_7.fixed", {"eps": eps, "k": str(k), "delta": d}, digits=40)
        v = _value("conversions.kov15.exact", {"eps": eps, "k": str(k), "eps_g": str(sp.nsimplify(eg, rational=True))})
        assert 0 <= v <= float(d)


def test_kov15_heterogeneous_matches_diffprivlibs_formula():
    epss = [0.1, 0.05, 0.2, 0.01, 0.3]
    dhat = 1e-6
    S = sum(epss)
    KOV = sum((1 - math.exp(-e)) * e / (1 + math.exp(-e)) for e in epss)  # diffprivlib's way of writing it
    V = sum(e * e for e in epss)
    drv = KOV + math.sqrt(2 * V * math.log(1 / dhat))
    kov = KOV + math.sqrt(2 * V * math.log(math.e + math.sqrt(V) / dhat))
    typed = min(S, drv, kov)
    v = _value("conversions.kov15.heterogeneous", {"dhat": "1e-6", "S": repr(S), "KOV": repr(KOV), "V": repr(V)})
    assert abs(float(v) - typed) <= 1e-12 * typed
    # a long stream of tiny eps: the basic sum wins
    v2 = _value("conversions.kov15.heterogeneous", {"dhat": "1e-6", "S": "0.01", "KOV": "0.0000005", "V": "0.0001"})
    assert abs(float(v2) - 0.01) < 1e-15


# ------------------------------------------------------------------------------------------ FZ21 filters and odometers


def test_renyi_filters_halt_exactly_above_the_budget():
    for entry_id in ("fz21.thm4_3", "fz21.thm3_1", "fz21.thm4_5"):
        h = spec.get(entry_id).halt
        assert h.xreplace({sym("R"): _q("0.5"), sym("B"): _q("0.5"), sym("alpha"): 2}) is sp.false
        assert h.xreplace({sym("R"): _q("0.5000001"), sym("B"): _q("0.5"), sym("alpha"): 2}) is sp.true
    h = spec.get("fz21.remark4_4").halt
    assert h.xreplace({sym("R"): 1, sym("B"): 1}) is sp.false and h.xreplace({sym("R"): 2, sym("B"): 1}) is sp.true


def test_dp_filter_closed_form_halts_between_the_two_sides_of_b_star():
    c = _ctx(50)
    L = c.log(10**6)
    b = (c.sqrt(L + 1) - c.sqrt(L)) ** 2
    h = spec.get("fz21.thm4_7.bs16").halt
    below = sp.Rational(str(c.nstr(2 * b * (1 - c.mpf(10) ** -20), 45)))
    above = sp.Rational(str(c.nstr(2 * b * (1 + c.mpf(10) ** -20), 45)))
    pt = {sym("eps_g"): 1, sym("delta_g"): sp.Rational(1, 10**6)}
    assert h.xreplace({**pt, sym("V"): below}).doit() in (sp.false, False)
    assert bool(sp.N((h.lhs - h.rhs).xreplace({**pt, sym("V"): above}), 40) > 0)
    assert bool(sp.N((h.lhs - h.rhs).xreplace({**pt, sym("V"): below}), 40) < 0)
    g = spec.get("fz21.thm4_7").halt
    assert g.xreplace({sym("V"): 1, sym("B"): sp.Rational(1, 2)}) is sp.false
    assert g.xreplace({sym("V"): sp.Rational(1001, 1000), sym("B"): sp.Rational(1, 2)}) is sp.true


def _algorithm5(rhos, Delta):
    """FZ21 Algorithm 5, typed from the seed (l. 476-494): returns (O_t) and the restart count m_t."""
    O, T, out = Delta, 0, []
    m = 0
    for t in range(len(rhos)):
        if sum(rhos[T:t + 1]) > Delta:  # F_{alpha, Delta}(rho_T, ..., rho_t) = HALT
            O += Delta
            T = t
            m += 1
        out.append((O, m))
    return out


@given(st.lists(st.fractions(Fraction(0), Fraction(1, 2)), min_size=1, max_size=40))
@settings(max_examples=40, deadline=None)
def test_odometer_formula_tracks_algorithm5_and_bounds_the_renyi_sum(rhos):
    Delta = Fraction(1, 2)
    for t, (O, m) in enumerate(_algorithm5(rhos, Delta)):
        for entry_id in ("fz21.prop5_2", "fz21.cor5_3"):
            v = spec.get(entry_id).expr.xreplace({sym("Delta"): sp.Rational(1, 2), sym("m"): m})
            assert v == sp.Rational(O.numerator, O.denominator)
        # the odometer bounds the plain RDP composition sum_{j<=t} rho_j (segments each carry at most Delta)
        assert sum(rhos[:t + 1]) <= O


def test_example2_7_is_the_gaussian_renyi_divergence():
    c = _ctx(30)
    a, nrm, s = c.mpf(3), c.mpf("0.7"), c.mpf("1.3")
    # D_alpha(N(nrm, s^2) || N(0, s^2)) = log(int p^a q^(1-a)) / (a - 1), by quadrature
    integ = c.quad(lambda x: c.npdf(x, nrm, s) ** a * c.npdf(x, 0, s) ** (1 - a), [-c.inf, c.inf])
    d = c.log(integ) / (a - 1)
    v = _value("fz21.example2_7", {"alpha": "3", "norm": "0.7", "sigma": "1.3"}, digits=30)
    assert abs(c.mpf(str(v)) - d) <= c.mpf(10) ** -20


def test_prop6_1_at_the_mnist_setting_gives_the_stated_eps_under_bs16():
    rho = _value("fz21.prop6_1", {"k": "104", "sigma": "170"})
    assert abs(float(rho) - 104 / (2 * 170**2)) < 1e-15
    eps = _value("conversions.bs16", {"rho": str(sp.Rational(104, 2 * 170**2)), "delta": "1e-5"})
    assert 0.28 < eps <= 0.3
