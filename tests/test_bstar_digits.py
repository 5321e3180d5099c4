"""Issue 25: B* to any number of certified digits (a bracket that narrows on request), checked against an independent
mpmath solution of the CKS20 equations; --digits beyond float64's exponent range no longer crash."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

import dpbounds
from dpbounds.cli import main
from dpbounds.evaluation.enclosure import CertificationError  # noqa: F401 - the documented refusal


def cks20_b_star_mp(eps_g: str, delta_g: str, dps: int = 70) -> mpmath.mpf:
    """B*_cks20 by mpmath alone: the (alpha, rho) with eps(alpha) = eps_g and d eps / d alpha = 0, where (Canonne,
    Kamath, Steinke, arXiv:2004.00010v5, Prop. 12 / Cor. 13 as conversions.cks20 states it)
    eps(alpha) = alpha rho + (log(1/delta) + (alpha - 1) log(1 - 1/alpha) - log alpha) / (alpha - 1).
    Newton on the two equations in (log(alpha - 1), log rho), from a float start found by nested bisection."""
    ctx = mpmath.mp.clone() if hasattr(mpmath.mp, "clone") else mpmath.MPContext()
    ctx.dps = dps
    e, L = ctx.mpf(Fraction(eps_g).numerator) / Fraction(eps_g).denominator, -ctx.log(ctx.mpf(delta_g))

    def eps(a, r):
        return a * r + (L + (a - 1) * ctx.log(1 - 1 / a) - ctx.log(a)) / (a - 1)

    def min_eps(r):  # golden section over u = log(alpha - 1): quasi-convex
        lo, hi, g = ctx.mpf(-200), ctx.mpf(200), (ctx.sqrt(5) - 1) / 2
        for _ in range(300):
            x1, x2 = hi - g * (hi - lo), lo + g * (hi - lo)
            if eps(1 + ctx.exp(x1), r) <= eps(1 + ctx.exp(x2), r):
                hi = x2
            else:
                lo = x1
        u = (lo + hi) / 2
        return eps(1 + ctx.exp(u), r), u

    lr, hr = ctx.mpf(-700), ctx.mpf(30)  # log rho: min_eps increases in rho
    for _ in range(60):
        m = (lr + hr) / 2
        if min_eps(ctx.exp(m))[0] < e:
            lr = m
        else:
            hr = m
    _, u0 = min_eps(ctx.exp(lr))

    def F(u, v):
        a, r = 1 + ctx.exp(u), ctx.exp(v)
        return [eps(a, r) - e, ctx.diff(lambda uu: eps(1 + ctx.exp(uu), r), u)]
    u, v = ctx.findroot(F, (u0, lr), tol=ctx.mpf(10) ** (-dps + 8))
    return ctx.exp(v)


POINTS = [("0.8765", "3.7e-7"), ("0.8765", "1e-300"), ("1e-12", "3.7e-7"), ("1e-12", "1e-300"),
          ("10000000000", "1e-6"), ("1", "1e-1000"), ("1", "0.999999")]  # the last three: the domain's extremes


@pytest.mark.parametrize("eps_g,delta_g", POINTS)
@pytest.mark.tier("slow")
def test_b_star_cks20_to_40_certified_digits(eps_g, delta_g):
    b = dpbounds.b_star(eps_g, delta_g, "cks20", digits=40)
    lo, hi = b.bracket
    assert lo == b.b_star and lo <= hi
    from dpbounds.evaluation.digits import backed_floor_digits
    assert backed_floor_digits(lo, hi, 40) == 40
    truth = cks20_b_star_mp(eps_g, delta_g)
    t = Fraction(int(truth.man) * 2**int(truth.exp)) if truth.exp >= 0 else \
        Fraction(int(truth.man), 2**int(-truth.exp))
    width = hi * Fraction(1, 10**55)  # the mpmath root's own error at 70 digits, with room
    assert lo - width <= t <= hi + width, (float(lo), float(t), float(hi))


@pytest.mark.parametrize("conversion,digits", [("cks20", 400), ("gauss", 400), ("bs16", 1000)])
def test_bstar_digits_beyond_float64s_exponent_range(capsys, conversion, digits):
    rc = main(["bstar", "--conversion", conversion, "--digits", str(digits), "--eps-g", "1", "--delta-g", "1e-6",
               "--format", "json"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    import json
    rec = json.loads(out)
    lo, hi = (Fraction(x) for x in rec["bracket"])
    assert lo <= hi and (hi - lo) <= hi * Fraction(1, 10 ** (digits - 1))


def test_b_star_digits_argument_is_checked():
    with pytest.raises(dpbounds.DomainError):
        dpbounds.b_star("1", "1e-6", digits=0)
    with pytest.raises(dpbounds.DomainError):
        dpbounds.b_star("1", "1e-6", digits=1001)


def test_eval_cks20_to_400_digits(capsys):
    """--digits 400 on conversions.cks20 crashed with 'math domain error' (log10 of a rel_tol of 1e-415 taken on
    its float, 0.0).  Expected prefix: mpmath at 60 digits, findroot of d eps / d alpha = 0 at rho = 1, delta = 1e-6."""
    rc = main(["eval", "conversions.cks20", "--param", "rho=1", "--param", "delta=1e-6", "--digits", "400"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert out.split("=", 1)[1].split()[0].startswith("7.766216625311720736435484004726935539969")
