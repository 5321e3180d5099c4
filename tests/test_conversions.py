"""zCDP -> DP conversions, the certified optimum over alpha and the B* solver.

Independent yardsticks: the CKS20 / BS16 / Gaussian formulas are re-typed below from THEOREMS.md
("zCDP -> (eps, delta) conversions") and evaluated with mpmath at 50 digits, never through the spec or
reference code; every other assertion is a certified inequality that a wrong bracket would violate."""

from __future__ import annotations

import json
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpbounds import spec
from dpbounds.accounting.conversions import b_star, delta_of, eps_of
from dpbounds.evaluation.evaluate import CertificationError, enclose, value_mp
from dpbounds.evaluation import optimize

from .strategies import log_uniform

MP = mpmath.MPContext()
MP.dps = 50


def mpq(q) -> mpmath.mpf:
    q = Fraction(q)
    return MP.mpf(q.numerator) / q.denominator


# ---- independent formulas (THEOREMS.md), mpmath at 50 digits -----------------------------------------------

def cks20_at(alpha, rho, delta):
    a, r, L = MP.mpf(alpha), mpq(rho), MP.log(1 / mpq(delta))
    return a * r + (L + (a - 1) * MP.log(1 - 1 / a) - MP.log(a)) / (a - 1)


def gauss_delta(rho, eps):
    mu, e = MP.sqrt(2 * mpq(rho)), mpq(eps)
    return MP.ncdf(-e / mu + mu / 2) - MP.exp(e) * MP.ncdf(-e / mu - mu / 2)


def bs16_bstar(eps_g, delta_g):
    L = MP.log(1 / mpq(delta_g))
    return (MP.sqrt(L + mpq(eps_g)) - MP.sqrt(L)) ** 2


def dec(x: float) -> Fraction:
    return Fraction(f"{x:.6g}")


budgets = st.tuples(log_uniform(-1.5, 1).map(dec), log_uniform(-12, -2).map(dec))


# ---- B* -------------------------------------------------------------------------------------------------------

@settings(max_examples=12)
@given(budgets)
def test_b_star_is_ordered_bs16_below_cks20_below_gauss(b):
    eg, dg = b
    b1, b2, b3 = (b_star(eg, dg, c) for c in ("bs16", "cks20", "gauss"))
    # certified separation: the whole bracket of the weaker conversion lies below the stronger one's
    assert b1.bracket[1] <= b2.bracket[0]
    assert b2.bracket[1] <= b3.bracket[0]
    assert (b1.valid_conversion, b2.valid_conversion, b3.valid_conversion) == (True, True, False)


@settings(max_examples=8)
@given(budgets, st.sampled_from(["bs16", "cks20", "gauss"]))
def test_b_star_increases_in_eps_g_and_delta_g(b, conv):
    eg, dg = b
    base = b_star(eg, dg, conv)
    assert b_star(eg * Fraction(101, 100), dg, conv).bracket[0] > base.bracket[1]
    assert b_star(eg, dg * 2, conv).bracket[0] > base.bracket[1]


@settings(max_examples=10)
@given(budgets)
def test_cks20_b_star_bracket_is_feasible_below_and_infeasible_above(b):
    eg, dg = b
    bs = b_star(eg, dg, "cks20")
    assert bs.b_star == bs.bracket[0] < bs.bracket[1]
    assert eps_of(bs.b_star, dg, "cks20", rel_tol=Fraction(1, 10**30)).hi <= eg
    assert eps_of(bs.bracket[1], dg, "cks20", rel_tol=Fraction(1, 10**30)).lo > eg
    # and independently: some alpha gives eps <= eg at the lower end (the float optimum of the retyped formula)
    f = lambda t: cks20_at(1 + MP.exp(t), bs.b_star, dg)  # noqa: E731
    t = MP.findroot(lambda t: MP.diff(f, t), MP.log(MP.sqrt(MP.log(1 / mpq(dg)) / mpq(bs.b_star))))
    assert f(t) <= mpq(eg)


@settings(max_examples=8)
@given(budgets)
def test_gauss_b_star_bracket_straddles_the_exact_curve(b):
    eg, dg = b
    bs = b_star(eg, dg, "gauss")
    assert delta_of(bs.bracket[0], eg, "gauss").hi <= dg < delta_of(bs.bracket[1], eg, "gauss").lo
    assert gauss_delta(bs.bracket[0], eg) <= mpq(dg) < gauss_delta(bs.bracket[1], eg)


@pytest.mark.parametrize("eg,dg", [("1", "1e-6"), ("0.1", "1e-10"), ("5", "0.01"), ("0.01", "0.5"), ("3", "1e-100")])
def test_bs16_b_star_matches_an_independent_50_digit_computation(eg, dg):
    ref = bs16_bstar(eg, dg)
    b = b_star(eg, dg, "bs16")
    assert mpq(b.bracket[0]) <= ref <= mpq(b.bracket[1])
    assert mpq(b.bracket[1] - b.bracket[0]) <= ref * MP.mpf("1e-25")
    tight = Fraction(1, 10**50)
    assert eps_of(b.b_star, dg, "bs16", rel_tol=tight).hi <= Fraction(eg) < eps_of(b.bracket[1], dg, "bs16",
                                                                                     rel_tol=tight).lo


# ---- eps_of / delta_of ----------------------------------------------------------------------------------------

@settings(max_examples=10)
@given(log_uniform(-4, 1).map(dec), log_uniform(-12, -2).map(dec), st.sampled_from(["bs16", "cks20", "gauss"]))
def test_eps_of_increases_in_rho_and_decreases_in_delta(rho, d, conv):
    e = eps_of(rho, d, conv)
    assert eps_of(rho * Fraction(11, 10), d, conv).lo > e.hi
    assert eps_of(rho, d * 10, conv).hi < e.lo


@settings(max_examples=10)
@given(log_uniform(-4, 1).map(dec), log_uniform(-12, -2).map(dec))
def test_conversions_are_ordered_gauss_below_cks20_below_bs16(rho, d):
    g, c, b = (eps_of(rho, d, conv) for conv in ("gauss", "cks20", "bs16"))
    assert g.hi <= c.lo and c.hi <= b.lo


@settings(max_examples=10)
@given(log_uniform(-4, 1).map(dec), log_uniform(-12, -1).map(dec))
def test_gaussian_curve_at_the_bs16_eps_is_below_delta(rho, d):
    e = eps_of(rho, d, "bs16").hi
    assert delta_of(rho, e, "gauss").hi <= d
    assert gauss_delta(rho, e) <= mpq(d)


@settings(max_examples=8)
@given(log_uniform(-4, 1).map(dec), log_uniform(-12, -2).map(dec))
def test_delta_of_inverts_eps_of(rho, d):
    for conv in ("bs16", "cks20"):
        e = eps_of(rho, d, conv, rel_tol=Fraction(1, 10**25))
        if e.lo == 0:
            continue
        back = delta_of(rho, e.hi, conv)
        assert back.lo <= d  # at eps >= the true eps the conversion certifies delta or less
        assert delta_of(rho, e.lo * (1 - Fraction(1, 10**9)), conv).lo > d


def test_gauss_eps_of_is_zero_when_the_curve_starts_below_delta():
    # rho tiny: delta_gauss(eps = 0) = 2 Phi(mu/2) - 1 ~ mu / sqrt(2 pi) < delta
    assert eps_of("1e-14", "1e-3", "gauss").hi == 0
    assert gauss_delta("1e-14", 0) <= MP.mpf("1e-3")


# ---- the certified optimum over alpha ------------------------------------------------------------------------

@settings(max_examples=10)
@given(log_uniform(-6, 2).map(dec), log_uniform(-30, -1).map(dec))
def test_cks20_optimum_lower_end_is_below_the_value_at_every_sampled_alpha(rho, d):
    enc = enclose("conversions.cks20", {"rho": rho, "delta": d}, rel_tol=1e-25)
    a_star = 1 + MP.sqrt(MP.log(1 / mpq(d)) / mpq(rho))
    alphas = [Fraction(str(MP.nstr(a_star * MP.mpf(2) ** (k / 4), 20))) for k in range(-24, 25)]
    alphas += [Fraction(1) + Fraction(1, 10**k) for k in (1, 3, 6)] + [Fraction(10**k) for k in (3, 6, 12)]
    best = None
    for a in alphas:
        if a <= 1:
            continue
        v = enclose("conversions.cks20", {"rho": rho, "delta": d, "alpha": a}, rel_tol=1e-25)
        assert enc.lo <= v.hi  # else the lower end would exceed a certified value of g: unsound
        ind = cks20_at(MP.mpf(a.numerator) / a.denominator, rho, d)
        assert mpq(enc.lo) <= ind
        best = ind if best is None else min(best, ind)
    # the upper end is a near-optimal value: within 1e-20 of an independent 50-digit minimization
    f = lambda t: cks20_at(1 + MP.exp(t), rho, d)  # noqa: E731
    t_opt = MP.findroot(lambda t: MP.diff(f, t), MP.log(a_star - 1))
    m = f(t_opt)
    assert mpq(enc.lo) <= m <= best
    assert abs(mpq(enc.hi) - m) <= abs(m) * MP.mpf("1e-20")


@pytest.mark.parametrize("params", [{"rho": "0.1", "eps_g": "1"}, {"rho": "1e-4", "eps_g": "0.5"},
                                    {"rho": "2", "eps_g": "0"}])
def test_cks20_delta_form_optimum_agrees_with_an_independent_minimization(params):
    enc = enclose("conversions.cks20.delta", params, rel_tol=1e-20)
    r, e = mpq(params["rho"]), mpq(params["eps_g"])
    h = lambda t: (lambda a: MP.exp((a - 1) * (a * r - e)) / (a - 1) * (1 - 1 / a) ** a)(1 + MP.exp(t))  # noqa
    # the sign factor of the log-derivative, (2a - 1) rho - eps + log(1 - 1/a), vanishes at the optimum
    t = MP.findroot(lambda t: (2 * (1 + MP.exp(t)) - 1) * r - e + MP.log(1 - 1 / (1 + MP.exp(t))), (-20, 20),
                    solver="anderson")
    m = h(t)  # >= the true minimum, up to the 50-digit rounding of this computation
    assert mpq(enc.lo) <= m <= mpq(enc.hi) + abs(m) * MP.mpf("1e-45")
    for k in range(-20, 21):
        assert mpq(enc.lo) <= h(t + MP.mpf(k) / 5)


def test_value_mp_optimum_agrees_with_the_certified_enclosure():
    for p in ({"rho": "0.1", "delta": "1e-6"}, {"rho": "3", "delta": "0.2"}, {"rho": "1e-9", "delta": "1e-300"}):
        enc = enclose("conversions.cks20", p, rel_tol=1e-35)
        v = Fraction(value_mp("conversions.cks20", p, digits=40))
        assert abs(v - (enc.lo + enc.hi) / 2) <= abs(enc.hi) * Fraction(1, 10**38)


def test_quasiconvexity_proof_names_the_sign_factor():
    an = optimize.quasiconvexity("conversions.cks20")
    a, r, d = spec.sym("alpha"), spec.sym("rho"), spec.sym("delta")
    import sympy as sp
    # sign(g') = sign(rho (a-1)^2 + log a - log(1/delta)) for CKS20 (derived by hand from the retyped formula)
    assert sp.simplify(an.s - (r * (a - 1) ** 2 + sp.log(a) - sp.log(1 / d))) == 0


def test_entries_without_an_interior_minimum_are_refused_not_guessed():
    # rho = 0 in the delta form: h decreases to 0 as alpha -> oo, no interior minimum to certify
    with pytest.raises(CertificationError):
        enclose("conversions.cks20.delta", {"rho": "0", "eps_g": "1"}, rel_tol=1e-10)
    assert delta_of("0", "1", "cks20").hi == 0


# ---- bad input and the CLI -----------------------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda: b_star("1", "1e-6", "renyi"), lambda: b_star("0", "1e-6"), lambda: b_star("1", "1"),
    lambda: b_star("1", "0", "bs16"), lambda: b_star("-1", "0.1", "gauss"), lambda: b_star("1", "1e-6", "mironov"),
    lambda: eps_of("-1", "1e-6"), lambda: eps_of("0.1", "0", "bs16"), lambda: eps_of("0.1", "1", "cks20"),
    lambda: eps_of("0.1", "1e-6", "mironov"), lambda: delta_of("0.1", "-1", "gauss"),
    lambda: eps_of("0.1", "__import__('os')", "bs16"),
])
def test_bad_conversion_inputs_raise_domain_error(call):
    with pytest.raises(spec.DomainError):
        call()


def test_bstar_cli_json_reports_the_certified_lower_end():
    import io
    from contextlib import redirect_stdout

    from dpbounds.cli import main
    out = io.StringIO()
    with redirect_stdout(out):
        rc = main(["bstar", "--eps-g", "1", "--delta-g", "1e-6", "--conversion", "bs16", "--format", "json"])
    assert rc == 0
    rec = json.loads(out.getvalue())
    assert set(rec) == {"b_star", "bracket", "conversion", "valid_conversion"}
    lo, hi = (MP.mpf(s) for s in rec["bracket"])
    ref = bs16_bstar(1, "1e-6")
    assert MP.mpf(rec["b_star"]) <= ref and lo <= ref <= hi
    assert rec["conversion"] == "bs16" and rec["valid_conversion"] is True
