"""Spec entries of WRRW23 (seed 003) and Howard et al.: evaluable, independently checked, domain-guarded.

Expected values are typed here from the seed text / Howard et al. and computed with a private mpmath context
(numerical integration where a closed form is the claim), independently of spec/ and reference/.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from dpbounds import spec
from dpbounds.spec.core import Kind, sym

MY_IDS = [i for i in spec.registry() if i.startswith(("wrrw23.", "howard."))]
REQUIRED = [
    "wrrw23.lemma1.dp_to_zcdp", "wrrw23.lemma1.zcdp_to_dp", "wrrw23.lemma2.pointwise_to_dp",
    "wrrw23.lemma2.dp_to_pointwise", "wrrw23.thm1", "wrrw23.thm2", "wrrw23.sec3.kov_le_zcdp", "wrrw23.thm3.filter",
    "wrrw23.thm3.mixture", "wrrw23.thm3.stitched", "wrrw23.lemma3", "wrrw23.thm4", "wrrw23.thm5", "wrrw23.thm6",
    "wrrw23.lemma10", "wrrw23.def7", "howard.stitching", "howard.stitching.simplified",
    "howard.normal_mixture.two_sided", "howard.normal_mixture.one_sided",
]


def _ctx(dps: int = 50) -> mpmath.MPContext:
    ctx = mpmath.MPContext()
    ctx.dps = dps
    return ctx


M = _ctx()


def _val(entry_id: str, what: str = "expr", **values):
    """The entry's expression (or lhs / extra.<name>) at exact rational values, as an mpf of this module's context."""
    e = spec.get(entry_id)
    ex = e.all_exprs()[what]
    subs = {sym(k): sp.Rational(str(v)) for k, v in values.items()}
    v = ex.xreplace(subs).doit().evalf(45)
    if v == sp.oo:
        return M.inf
    assert v.is_real, (entry_id, what, values, v)
    return M.mpf(str(v))


def _close(a, b, rel=M.mpf("1e-35")) -> bool:
    a, b = M.mpf(a), M.mpf(b)
    return abs(a - b) <= rel * max(abs(a), abs(b), M.mpf(1))


def _L(d) -> mpmath.mpf:
    return M.log(1 / M.mpf(d))


# ------------------------------------------------------------------------------------------ every entry


def test_required_ids_are_registered():
    reg = spec.registry()
    missing = [i for i in REQUIRED if i not in reg]
    assert not missing, missing


@pytest.mark.parametrize("entry_id", MY_IDS)
def test_entries_cite_their_location(entry_id):
    e = spec.get(entry_id)
    if entry_id.startswith("wrrw23."):
        assert e.source.seed == "003_8948d815f0b87bba.txt" and e.source.paper == "WRRW23"
    else:
        assert e.source.paper == "HRMS21" and "Ann. Statist." in e.source.citation
    if e.reconstructed:
        assert e.proof_claims and "[R]" in e.notes


def test_reconstructed_items_of_the_theorem_sheet_are_marked():
    for i in ("wrrw23.thm2", "wrrw23.thm3.filter", "wrrw23.thm3.mixture", "wrrw23.thm3.stitched", "wrrw23.thm4",
              "wrrw23.thm5", "wrrw23.thm6", "wrrw23.lemma3"):
        assert spec.get(i).reconstructed, i


# ------------------------------------------------------------------------------------------ Lemma 1, Thm 1, Thm 2

def test_lemma1_zcdp_to_dp_matches_the_seed_formula():
    rho, d, dp = "0.3", "0.001", "0.00001"
    want = M.mpf(rho) + 2 * M.sqrt(M.mpf(rho) * _L(dp))
    assert _close(_val("wrrw23.lemma1.zcdp_to_dp", rho=rho, delta=d, delta_prime=dp), want)
    want_d = M.mpf(d) + (1 - M.mpf(d)) * M.mpf(dp)
    assert _close(_val("wrrw23.lemma1.zcdp_to_dp", "extra.delta", rho=rho, delta=d, delta_prime=dp), want_d)
    assert _close(_val("wrrw23.lemma1.dp_to_zcdp", eps="0.7", delta=d), M.mpf("0.245"))


@pytest.mark.parametrize("V", ["0.001", "0.5", "3", "40"])
def test_thm2_statistic_is_lemma1_at_rho_equal_V_over_2(V):
    dp = "0.000001"
    stat = _val("wrrw23.thm2", V=V, delta_prime=dp)
    rho = M.mpf(V) / 2
    assert _close(stat, rho + 2 * M.sqrt(rho * _L(dp)))
    assert _close(stat, M.sqrt(2 * _L(dp) * M.mpf(V)) + M.mpf(V) / 2)


def test_thm2_halts_exactly_when_either_budget_is_exceeded():
    e = spec.get("wrrw23.thm2")
    L = _L("0.000001")
    # the largest V with sqrt(2 L V) + V/2 <= 1 is y* = (sqrt(2L + 2) - sqrt(2L))^2 (solve the quadratic in sqrt V)
    y = (M.sqrt(2 * L + 2) - M.sqrt(2 * L))**2
    below = sp.Rational(str(M.nstr(y * (1 - M.mpf("1e-9")), 30)))
    above = sp.Rational(str(M.nstr(y * (1 + M.mpf("1e-9")), 30)))
    base = {sym("eps_g"): 1, sym("delta_prime"): sp.Rational(1, 10**6), sym("delta_dprime"): sp.Rational(1, 10**7)}
    assert e.halt.xreplace({**base, sym("V"): below, sym("D"): 0}) == sp.false
    assert e.halt.xreplace({**base, sym("V"): above, sym("D"): 0}) == sp.true
    assert e.halt.xreplace({**base, sym("V"): below, sym("D"): sp.Rational(2, 10**7)}) == sp.true


def test_thm1_halts_on_rho_or_delta():
    e = spec.get("wrrw23.thm1")
    base = {sym("B"): sp.Rational(1, 2), sym("delta_g"): sp.Rational(1, 10**6)}
    assert e.halt.xreplace({**base, sym("R"): sp.Rational(1, 2), sym("D"): sp.Rational(1, 10**6)}) == sp.false
    assert e.halt.xreplace({**base, sym("R"): sp.Rational(501, 1000), sym("D"): 0}) == sp.true
    assert e.halt.xreplace({**base, sym("R"): 0, sym("D"): sp.Rational(2, 10**6)}) == sp.true


@pytest.mark.parametrize("eps", ["0.001", "0.1", "0.5", "1", "3"])
def test_kov_mean_term_is_below_the_zcdp_mean_term_with_quartic_gap(eps):
    e = M.mpf(eps)
    lhs = _val("wrrw23.sec3.kov_le_zcdp", "lhs", eps=eps)
    assert _close(lhs, e * (M.exp(e) - 1) / (M.exp(e) + 1))
    assert lhs <= _val("wrrw23.sec3.kov_le_zcdp", eps=eps)
    if e <= M.mpf("0.1"):
        gap = e**2 / 2 - lhs
        assert abs(gap - e**4 / 24) <= e**6  # O(eps^4) with leading coefficient 1/24
    # Lemma 10's lhs (mean loss of RR) is the same quantity
    assert _close(_val("wrrw23.lemma10", "lhs", eps=eps), lhs)


def test_advanced_composition_intro_is_below_thm2_statistic():
    eps, k, dp = M.mpf("0.1"), 100, "0.000001"
    V, KOV = k * eps**2, k * eps * M.tanh(eps / 2)
    ac = _val("wrrw23.intro.advanced_composition", V=M.nstr(V, 40), KOV=M.nstr(KOV, 40), D="0", delta_prime=dp)
    assert _close(ac, M.sqrt(2 * _L(dp) * V) + KOV, rel=M.mpf("1e-30"))
    assert ac < _val("wrrw23.thm2", V=M.nstr(V, 40), delta_prime=dp)


# ------------------------------------------------------------------------------------------ Theorem 3

FILTER_PT = {"eps_g": "1", "delta_prime": "0.000001", "delta_dprime": "0.000001"}


@pytest.mark.parametrize("pt", [FILTER_PT, {"eps_g": "0.3", "delta_prime": "0.01", "delta_dprime": "0"},
                                {"eps_g": "5", "delta_prime": "0.2", "delta_dprime": "0.1"}])
def test_filter_odometer_equals_its_target_at_y_star(pt):
    L, eg = _L(pt["delta_prime"]), M.mpf(pt["eps_g"])
    y = (M.sqrt(2 * L + 2 * eg) - M.sqrt(2 * L))**2
    assert _close(_val("wrrw23.thm3.filter", "extra.y_star", **pt), y)
    assert _close(M.sqrt(2 * L * y) + y / 2, eg)  # y* solves the fixed-time curve = eps (typed from the seed)
    assert _close(_val("wrrw23.thm3.filter", V=M.nstr(y, 45), D="0", **pt), eg, rel=M.mpf("1e-30"))


@pytest.mark.parametrize("V", ["0", "0.0001", "0.01", "0.1", "1", "10", "1000"])
def test_filter_odometer_lies_above_the_fixed_time_curve(V):
    L, v = _L(FILTER_PT["delta_prime"]), M.mpf(V)
    u = _val("wrrw23.thm3.filter", V=V, D="0", **FILTER_PT)
    assert u >= M.sqrt(2 * v * L) + v / 2 - M.mpf("1e-40")


def test_filter_odometer_line_has_crossing_probability_delta_prime():
    a = _val("wrrw23.thm3.filter", "extra.a", **FILTER_PT)
    b = _val("wrrw23.thm3.filter", "extra.b", **FILTER_PT)
    assert _close(_val("wrrw23.thm4", a=M.nstr(a, 45), b=M.nstr(b, 45)), M.mpf(FILTER_PT["delta_prime"]),
                  rel=M.mpf("1e-30"))
    for V in ("0.01", "2"):
        u = _val("wrrw23.thm3.filter", V=V, D="0", **FILTER_PT)
        assert _close(u, a + b * M.mpf(V) + M.mpf(V) / 2, rel=M.mpf("1e-30"))


@pytest.mark.parametrize("entry_id,pt", [
    ("wrrw23.thm3.filter", FILTER_PT),
    ("wrrw23.thm3.mixture", {"gamma": "0.01", "delta_prime": "0.000001", "delta_dprime": "0.000001"}),
    ("wrrw23.thm3.stitched", {"v0": "0.01", "delta_prime": "0.000001", "delta_dprime": "0.000001"}),
    ("wrrw23.lemma3", {"n": "1000", "delta_prime": "0.000001", "delta_dprime": "0.000001"}),
])
def test_odometers_are_infinite_once_delta_double_prime_is_spent(entry_id, pt):
    assert M.isinf(_val(entry_id, V="0.5", D="0.000002", **pt))
    assert M.isfinite(_val(entry_id, V="0.5", D="0.000001", **pt))


def test_mixture_odometer_matches_the_seed_formula():
    g, dp, V = M.mpf("0.05"), "0.001", M.mpf("2")
    want = M.sqrt(2 * (V + g) * M.log(M.sqrt((g + V) / g) / M.mpf(dp))) + V / 2
    got = _val("wrrw23.thm3.mixture", gamma="0.05", delta_prime=dp, delta_dprime="0", V="2", D="0")
    assert _close(got, want)


def test_stitched_odometer_below_v0_is_infinite_and_matches_theorem6_above():
    pt = {"v0": "0.5", "delta_prime": "0.001", "delta_dprime": "0"}
    assert M.isinf(_val("wrrw23.thm3.stitched", V="0.49", D="0", **pt))
    v = M.mpf(3)
    want = M.mpf("1.7") * M.sqrt(v * (M.log(M.log(2 * v / M.mpf("0.5"))) + M.mpf("0.72") * M.log(M.mpf("5.2") /
                                                                                                   M.mpf("0.001"))))
    assert _close(_val("wrrw23.thm3.stitched", V="3", D="0", **pt), want + v / 2)
    assert _close(_val("wrrw23.thm6", V="3", v0="0.5", delta="0.001"), want)


def test_lemma3_differs_from_rruv16_thm6_5_only_in_the_mean_term():
    n, d = "1000", "0.000001"
    for V in ("0.5", "5", "0.0000001"):  # inside [1/n^2, 1] and on both sides of it
        w = _val("wrrw23.lemma3", n=n, delta_prime=d, delta_dprime="0", V=V, D="0")
        r = _val("rruv16.thm6_5", n=n, delta_g=d, V=V, A="0")
        assert _close(w - M.mpf(V) / 2, r)
    # typed from the seed: branch (11) at V = 0.5
    v, L = M.mpf("0.5"), M.log(M.log(1000) / M.mpf(d))
    assert _close(_val("wrrw23.lemma3", n=n, delta_prime=d, delta_dprime="0", V="0.5", D="0"),
                  M.sqrt(2 * v * (M.log(110 * M.e) + 2 * L)) + v / 2)


# ------------------------------------------------------------------------------------------ Theorems 4-6, Howard

def _gauss_mixture(s, v, g, one_sided=False):
    """integral of exp(lam s - lam^2 v/2) against the N(0, 1/g) density (times 2 on lam >= 0 if one-sided)."""
    def f(lam):
        return M.exp(lam * s - lam**2 * v / 2) * M.sqrt(g / (2 * M.pi)) * M.exp(-g * lam**2 / 2)
    if one_sided:
        return 2 * M.quad(f, [0, M.inf])
    return M.quad(f, [-M.inf, 0, M.inf])


@pytest.mark.parametrize("V,gamma,delta", [("1", "0.5", "0.05"), ("10", "0.01", "0.001"), ("0.1", "2", "0.3")])
def test_normal_mixture_boundary_is_where_the_mixture_reaches_one_over_delta(V, gamma, delta):
    b = _val("wrrw23.thm5", V=V, gamma=gamma, delta=delta)
    m = _gauss_mixture(b, M.mpf(V), M.mpf(gamma))
    assert abs(m * M.mpf(delta) - 1) < M.mpf("1e-20")
    assert _close(b, _val("howard.normal_mixture.two_sided", V=V, gamma=gamma, delta=delta))


@pytest.mark.parametrize("V,gamma,delta,u", [("1", "0.5", "0.05", "2"), ("10", "0.01", "0.001", "9")])
def test_one_sided_mixture_equation_matches_the_half_normal_integral(V, gamma, delta, u):
    m1 = _gauss_mixture(M.mpf(u), M.mpf(V), M.mpf(gamma), one_sided=True)
    got = _val("howard.normal_mixture.one_sided", V=V, gamma=gamma, delta=delta, u=u)
    assert abs(got - (M.log(m1) - _L(delta))) < M.mpf("1e-20")


@pytest.mark.parametrize("V,gamma,delta", [("1", "0.5", "0.05"), ("10", "0.01", "0.001"), ("0.001", "1", "0.9")])
def test_two_sided_boundary_is_a_valid_one_sided_value(V, gamma, delta):
    b = _val("howard.normal_mixture.two_sided", V=V, gamma=gamma, delta=delta)
    assert _val("howard.normal_mixture.one_sided", V=V, gamma=gamma, delta=delta, u=M.nstr(b, 45)) >= 0


@pytest.mark.parametrize("a,b", [("1", "1"), ("0.3", "2.5"), ("7", "0.01")])
def test_linear_boundary_probability(a, b):
    assert _close(_val("wrrw23.thm4", a=a, b=b), M.exp(-2 * M.mpf(a) * M.mpf(b)))


def _stitch_general(v, m, alpha, eta=M.mpf(2), s=M.mpf("1.4")):
    """Howard et al. polynomial stitching, c = 0 (typed from the paper's definitions)."""
    k1 = (eta**M.mpf("0.25") + eta**M.mpf("-0.25")) / M.sqrt(2)
    ell = s * M.log(M.log(eta * v / m)) + M.log(M.zeta(s) / (alpha * M.log(eta)**s))
    return k1 * M.sqrt(v * ell)


@pytest.mark.parametrize("ratio", ["1", "1.01", "2", "10", "1000", "1e8"])
@pytest.mark.parametrize("delta", ["0.999", "0.5", "0.05", "0.000001", "1e-30"])
def test_simplified_stitching_dominates_the_general_boundary(ratio, delta):
    v0 = "0.01"
    V = M.nstr(M.mpf(ratio) * M.mpf(v0), 40)
    simp = _val("howard.stitching.simplified", V=V, v0=v0, delta=delta)
    gen = _val("howard.stitching", V=V, v0=v0, delta=delta, eta="2", s="1.4")
    assert _close(gen, _stitch_general(M.mpf(V), M.mpf(v0), M.mpf(delta)))
    assert simp >= gen
    assert _close(_val("howard.stitching.simplified", "extra.unrounded", V=V, v0=v0, delta=delta), gen)
    assert _close(_val("wrrw23.thm6", V=V, v0=v0, delta=delta), simp)


def test_stitching_is_infinite_below_v0():
    assert M.isinf(_val("howard.stitching", V="0.5", v0="1", delta="0.1", eta="3", s="2"))
    assert M.isinf(_val("howard.stitching.simplified", V="0.5", v0="1", delta="0.1"))
    assert M.isinf(_val("wrrw23.thm6", V="0.5", v0="1", delta="0.1"))
    assert M.isfinite(_val("howard.stitching", V="1", v0="1", delta="0.1", eta="3", s="2"))


def test_stitching_general_at_other_eta_s():
    for eta, s in (("1.5", "1.1"), ("3", "2"), ("10", "1.7")):
        got = _val("howard.stitching", V="50", v0="2", delta="0.01", eta=eta, s=s)
        assert _close(got, _stitch_general(M.mpf(50), M.mpf(2), M.mpf("0.01"), M.mpf(eta), M.mpf(s)))


# ------------------------------------------------------------------------------------------ Def. 7, App. F

@pytest.mark.parametrize("eps,delta", [("0.5", "0.1"), ("2", "0"), ("0.01", "0.9")])
def test_randomized_response_law(eps, delta):
    e, d = M.mpf(eps), M.mpf(delta)
    pt = _val("wrrw23.def7", "extra.p_true", eps=eps, delta=delta)
    pf = _val("wrrw23.def7", "extra.p_flip", eps=eps, delta=delta)
    assert _close(pt, (1 - d) * M.exp(e) / (1 + M.exp(e)))
    assert _close(pt + pf + d, 1)
    assert _close(_val("wrrw23.def7", "lhs", eps=eps, delta=delta), 1)
    assert _close(_val("wrrw23.def7", "extra.loss_unrevealed", eps=eps, delta=delta), e)


@pytest.mark.parametrize("eps,delta", [("0.5", "0.1"), ("2", "0.000001"), ("0.01", "0.9")])
def test_appendix_f_postprocessing_is_not_pdp(eps, delta):
    e, d = M.mpf(eps), M.mpf(delta)
    # typed from the seed: P(B(1) = 1) = P(A(1) = 1) + P(A(1) = T); P(B(0) = 1) = P(A(0) = 1) (A(0) never says T)
    p1 = (1 - d) * M.exp(e) / (1 + M.exp(e)) + d
    p0 = (1 - d) / (1 + M.exp(e))
    loss = _val("wrrw23.appF.dp_not_pdp", eps=eps, delta=delta)
    assert _close(loss, M.log(p1 / p0))
    assert loss > e and p1 > d
    assert _close(_val("wrrw23.appF.dp_not_pdp", "extra.probability", eps=eps, delta=delta), p1)


# ------------------------------------------------------------------------------------------ domains

@pytest.mark.parametrize("entry_id,bad", [
    ("wrrw23.thm2", {"eps_g": "1", "delta_prime": "1", "delta_dprime": "0"}),
    ("wrrw23.thm2", {"eps_g": "1", "delta_prime": "0", "delta_dprime": "0"}),
    ("wrrw23.thm2", {"eps_g": "0", "delta_prime": "0.1", "delta_dprime": "0"}),
    ("wrrw23.thm2", {"eps_g": "1", "delta_prime": "0.1", "delta_dprime": "-0.1"}),
    ("wrrw23.thm1", {"B": "0", "delta_g": "0.1"}),
    ("wrrw23.thm3.filter", {"eps_g": "1", "delta_prime": "0.6", "delta_dprime": "0.5"}),
    ("wrrw23.thm3.mixture", {"gamma": "0", "delta_prime": "0.1", "delta_dprime": "0"}),
    ("wrrw23.thm3.stitched", {"v0": "-1", "delta_prime": "0.1", "delta_dprime": "0"}),
    ("wrrw23.lemma3", {"n": "1000", "delta_prime": "0.5", "delta_dprime": "0"}),
    ("wrrw23.lemma3", {"n": "1", "delta_prime": "0.1", "delta_dprime": "0"}),
    ("wrrw23.thm4", {"a": "0", "b": "1"}),
    ("wrrw23.thm5", {"gamma": "1", "delta": "1"}),
    ("wrrw23.thm6", {"v0": "1", "delta": "0"}),
    ("wrrw23.lemma1.zcdp_to_dp", {"rho": "-0.1", "delta": "0", "delta_prime": "0.1"}),
    ("wrrw23.lemma2.dp_to_pointwise", {"eps": "0", "delta": "0.1"}),
    ("wrrw23.appF.dp_not_pdp", {"eps": "1", "delta": "0"}),
    ("howard.stitching", {"eta": "1", "s": "1.4", "v0": "1", "delta": "0.1"}),
    ("howard.stitching", {"eta": "2", "s": "1", "v0": "1", "delta": "0.1"}),
    ("howard.stitching.simplified", {"v0": "1", "delta": "1.5"}),
    ("howard.normal_mixture.two_sided", {"gamma": "-1", "delta": "0.1"}),
    ("howard.normal_mixture.one_sided", {"gamma": "1", "delta": "0.1", "u": "0"}),
])
def test_out_of_domain_values_raise_domain_error(entry_id, bad):
    with pytest.raises(spec.DomainError) as ei:
        spec.get(entry_id).check_values(bad)
    assert entry_id in str(ei.value)


def test_kinds():
    kinds = {i: spec.get(i).kind for i in MY_IDS}
    assert kinds["wrrw23.thm1"] is Kind.FILTER and kinds["wrrw23.thm2"] is Kind.FILTER
    assert all(kinds[f"wrrw23.thm3.{v}"] is Kind.ODOMETER for v in ("filter", "mixture", "stitched"))
    assert all(kinds[i] is Kind.BOUNDARY for i in ("wrrw23.thm4", "wrrw23.thm5", "wrrw23.thm6", "howard.stitching"))
    assert kinds["wrrw23.lemma1.zcdp_to_dp"] is Kind.CONVERSION and kinds["wrrw23.lemma10"] is Kind.LEMMA
