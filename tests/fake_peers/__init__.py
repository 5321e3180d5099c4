"""Fake peers for the audit's tests, loaded through the public adapter protocol (``--adapter MODULE``).

Each fake "library" implements CKS20's zCDP -> (eps, delta) conversion (Canonne, Kamath, Steinke, arXiv:2004.00010
Prop. 12 at tau = alpha rho):  eps(alpha) = alpha rho + (log(1/delta) + (alpha - 1) log(1 - 1/alpha) - log(alpha))
/ (alpha - 1), minimized over alpha > 1.  The value is computed here with mpmath at 60 digits by golden-section
search (independently of dpbounds' certified optimizer), then rounded UP to float64: the answer a faithful
float64 implementation should give.  The fakes then perturb it.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath

RHOS = ["0.01", "0.1", "1", "3"]
DELTAS = ["1e-10", "1e-6", "1e-3"]


def _eps_at(ctx, rho, delta, a, wrong: bool = False):
    v = a * rho + (ctx.log(1 / delta) + (a - 1) * ctx.log(1 - 1 / a) - ctx.log(a)) / (a - 1)
    if wrong:  # a wrong constant: the -log(alpha)/(alpha - 1) term counted twice
        v -= ctx.log(a) / (a - 1)
    return v


def cks20_float_up(rho_s: str, delta_s: str, wrong: bool = False) -> float:
    """min over alpha of the (possibly wrong) CKS20 expression, at 60 digits, rounded up to float64."""
    ctx = mpmath.MPContext()
    ctx.dps = 60
    rho, delta = ctx.mpf(Fraction(rho_s).numerator) / Fraction(rho_s).denominator, ctx.mpf(delta_s)
    lo, hi = ctx.mpf(1) + ctx.mpf(10) ** -12, ctx.mpf(10) ** 6
    g = (ctx.sqrt(5) - 1) / 2
    for _ in range(400):  # golden-section on log(alpha - 1) (the function is quasi-convex in alpha)
        x1, x2 = hi - g * (hi - lo), lo + g * (hi - lo)
        if _eps_at(ctx, rho, delta, x1, wrong) <= _eps_at(ctx, rho, delta, x2, wrong):
            hi = x2
        else:
            lo = x1
    v = max(_eps_at(ctx, rho, delta, (lo + hi) / 2, wrong), 0)
    q = Fraction(ctx.nstr(v, 55, min_fixed=-100, max_fixed=100)) + Fraction(1, 10**45)  # above the value
    f = float(q)
    return f if Fraction(f) >= q else math.nextafter(f, math.inf)


def fake_audit(peer: str, perturb, wrong: bool = False):
    from dpbounds.accounting.conversions import eps_of
    from dpbounds.audit.common import Comparison, PeerResult, judge_upper
    res = PeerResult(peer, version="0.0-test", functions=[f"{peer}.eps_of"])
    for rho in RHOS:
        for d in DELTAS:
            pv = perturb(cks20_float_up(rho, d, wrong))
            a = eps_of(rho, d, "cks20")
            b = eps_of(rho, d, "gauss")
            res.comparisons.append(Comparison(
                peer, f"{peer}.eps_of", "zCDP -> (eps, delta)", {"rho": rho, "delta": d}, peer_value=pv,
                formula=judge_upper(pv, a.lo, a.hi, role="formula", reference="conversions.cks20",
                                    description="CKS20 Prop. 12"),
                truth=judge_upper(pv, b.lo, b.hi, role="truth", reference="conversions.gauss",
                                  description="the Gaussian mechanism's exact curve"),
                reproducer=f"import {peer}; print({peer}.eps_of({rho!r}, {d!r}))\n"))
    return res
