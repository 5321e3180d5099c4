"""Certified trade-off curves (spec ``tradeoff.*``): the evaluators of the spec's implicit functions, and the public
functions that return the sound (LOWER) end of a type-II error.

* :func:`beta_enclosure` (entry id, **params) -> Enclosure of beta; :func:`beta_lower` -> the float64 <= beta (a
  type-II error that is never overstated: what a peer reporting beta may be checked against).
* :func:`rdp_tradeoff_ends` -- the single-order RDP curve f_{alpha,R}(fpr) = max(b1, b2), each b_i the smallest b in
  [0, 1 - fpr] with K_i(b) <= c = e^{(alpha-1)R}, where K_1(b) = K(1 - b, fpr) (D_alpha(Q||P)) and K_2(b) = K(fpr,
  1 - b) (D_alpha(P||Q)), K(p, q) = p^a q^(1-a) + (1-p)^a (1-q)^(1-a).  Each K_i is convex in b with minimum 1 at b =
  1 - fpr (proofs_check ``tradeoff.rdp.monotone_roots``), so it is decreasing on [0, 1 - fpr]: a point with K_i > c
  certified in arb is below b_i, a point with K_i <= c is above it.  The roots are located in a private mpmath
  context (never trusted) and bracketed in arb.
* :func:`normal_quantile_upper_backend` -- Phi^{-1}(1 - fpr) = sqrt(2) erfcinv(2 fpr) with arb's certified erfcinv.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

from flint import arb, ctx as _flint_ctx

from dpbounds.evaluation.enclosure import Enclosure
from dpbounds.evaluation.interp import NotCertified
from dpbounds.evaluation.numeric import arb_endpoints, arb_prec, fraction_to_arb, mp_context

_WHERE = "tradeoff.rdp (dpbounds.accounting.tradeoff)"


def _exact(vals) -> list[Fraction]:
    out = []
    for v in vals:
        if not isinstance(v, arb) or not v.is_exact():
            raise NotCertified("an implicit trade-off curve needs exact arguments (no interval extension)")
        m, e = v.mid().man_exp()
        out.append(Fraction(int(m)) * (Fraction(2) ** int(e)))
    return out


def _ends(v: arb) -> tuple[Fraction, Fraction]:
    e = arb_endpoints(v)
    if e is None:
        raise NotCertified(f"non-finite ball {v}")
    return e


# ------------------------------------------------------------------------------------------ Phi^{-1}(1 - fpr)

def normal_quantile_upper_backend(B: Any, vals: list, exact: list | None = None) -> Any:
    """sqrt(2) erfcinv(2 fpr) (arb: certified ball from arb's erfcinv; mp: a Newton solve of Phi(-z) = fpr)."""
    if B.name == "arb":
        x = vals[0]
        if not (x > 0 and x < 1):
            raise NotCertified(f"Phi^-1(1 - fpr) needs 0 < fpr < 1 (got {x})")
        v = (2 * x).erfcinv() * arb(2).sqrt()
        if not v.is_finite():
            raise NotCertified("erfcinv did not converge")
        return v
    if B.name == "mp":
        ctx = B.ctx
        x = ctx.mpf(vals[0])
        z = -ctx.sqrt(2) * ctx.erfinv(2 * x - 1) if 1e-8 < x < 1 - 1e-8 else ctx.sqrt(-2 * ctx.log(min(x, 1 - x)))
        if x > 0.5 and not 1e-8 < x < 1 - 1e-8:
            z = -z
        for _ in range(200):  # Newton on log Phi(-z) = log fpr, started from the asymptotic guess
            phi = ctx.erfc(z / ctx.sqrt(2)) / 2
            dz = (ctx.log(phi) - ctx.log(x)) * phi / (ctx.exp(-z * z / 2) / ctx.sqrt(2 * ctx.pi))
            z += dz
            if abs(dz) <= ctx.eps * (1 + abs(z)) * 4:
                break
        return z
    raise NotImplementedError("normal_quantile_upper has no vectorized evaluator (the fast path uses arb)")


# ------------------------------------------------------------------------------------------ RDP trade-off curve

def _K(a: arb, p: arb, q: arb) -> arb:
    """K(p, q) = p^a q^(1-a) + (1-p)^a (1-q)^(1-a) for 0 < q < 1, 0 <= p <= 1 (arb)."""
    def term(u, v):
        if u == 0:
            return arb(0)
        if not (u > 0 and v > 0):
            raise NotCertified("K of a ball not certainly inside (0, 1)")
        return (a * u.log() + (1 - a) * v.log()).exp()
    return term(p, q) + term(1 - p, 1 - q)


def _k_fns(a: Fraction, x: Fraction):
    """(K_1, K_2) as functions of b (exact rational) in arb: K_1(b) = K(1 - b, x), K_2(b) = K(x, 1 - b)."""
    A, X = fraction_to_arb(a), fraction_to_arb(x)

    def k1(b: Fraction) -> arb:
        B = fraction_to_arb(b)
        return _K(A, 1 - B, X)

    def k2(b: Fraction) -> arb:
        B = fraction_to_arb(b)
        if b == 0:
            raise NotCertified("K_2 is infinite at b = 0")
        return _K(A, X, 1 - B)
    return k1, k2


def _mp_root(ctx, kfun, x, lo_b, hi_b):
    """The b in (lo_b, hi_b) with kfun(b) = 0 (kfun decreasing through 0), bisection in log(b - lo_b... ) space."""
    lo, hi = lo_b, hi_b
    # geometric phase: the root may be many orders of magnitude below hi
    t = hi
    while t > ctx.ldexp(1, -3000) and kfun(t / 2) <= 0:
        t /= 2
    lo, hi = t / 2, t
    if kfun(lo) <= 0:
        return lo
    for _ in range(int(ctx.prec) + 20):
        m = (lo + hi) / 2
        if kfun(m) <= 0:
            hi = m
        else:
            lo = m
        if hi - lo <= ctx.ldexp(hi, -int(ctx.prec) + 4):
            break
    return (lo + hi) / 2


def _frac(ctx, v) -> Fraction:
    man, exp = ctx.mpf(v).man_exp
    return Fraction(int(man)) * (Fraction(2) ** int(exp))


@lru_cache(maxsize=1024)
def rdp_tradeoff_ends(a: Fraction, R: Fraction, x: Fraction, bits: int) -> tuple[Fraction, Fraction]:
    """Certified [lo, hi] of f_{a,R}(x) for 0 < x < 1 (module docstring), relative width about 2^-(bits/2)."""
    if not (a > 1 and R >= 0 and 0 < x < 1):
        raise NotCertified(f"outside the domain alpha > 1, R >= 0, 0 < fpr < 1 ({a}, {R}, {x})")
    top = 1 - x
    if R == 0:
        return top, top
    ctx = mp_context(int(bits * 0.30103) + 20)
    am, Rm, xm = (ctx.mpf(v.numerator) / v.denominator for v in (a, R, x))
    cm = ctx.exp((am - 1) * Rm)

    def Kmp(p, q):
        s = ctx.mpf(0)
        if p > 0:
            s += ctx.exp(am * ctx.log(p) + (1 - am) * ctx.log(q))
        if p < 1:
            s += ctx.exp(am * ctx.log1p(-p) + (1 - am) * ctx.log1p(-q))
        return s
    fns = (lambda b: Kmp(1 - b, xm) - cm, lambda b: Kmp(xm, 1 - b) - cm)
    k1, k2 = _k_fns(a, x)
    los, his = [], []
    with arb_prec(bits):
        c = ((fraction_to_arb(a) - 1) * fraction_to_arb(R)).exp()
        for i, (kf, ka) in enumerate(((fns[0], k1), (fns[1], k2))):
            if i == 0:
                k0 = ka(Fraction(0))
                if k0 <= c:  # b_1 = 0 (the constraint holds at b = 0 already)
                    los.append(Fraction(0))
                    his.append(Fraction(0))
                    continue
            tm = ctx.mpf(top.numerator) / top.denominator
            r = _mp_root(ctx, kf, xm, ctx.mpf(0), tm)
            rq = _frac(ctx, r)
            lo = hi = None
            for k in (bits // 2, bits // 3, 24, 12, 6, 3):
                m = Fraction(1, 2**k)
                if lo is None:
                    cand = rq * (1 - m)
                    if cand <= 0:
                        if i == 0 and not ka(Fraction(0)) <= c:
                            lo = Fraction(0)
                    elif ka(cand) > c:
                        lo = cand
                if hi is None:
                    cand = min(rq * (1 + m), top)
                    if cand > 0 and ka(cand) <= c:
                        hi = cand
                if lo is not None and hi is not None:
                    break
            if lo is None:
                lo = Fraction(0)  # b_i >= 0 always: a valid (loose) lower end
            if hi is None:
                hi = top  # b_i <= 1 - fpr always
            los.append(lo)
            his.append(hi)
    return max(los), max(his)


def rdp_tradeoff_backend(B: Any, vals: list, exact: list | None = None) -> Any:
    """The interpreter's evaluator of spec.tradeoff.rdp_tradeoff (arb: certified ball; mp: a value)."""
    if B.name == "arb":
        a, R, x = exact or _exact(vals)
        bits = max(64, int(_flint_ctx.prec) * 2 + 16)
        lo, hi = rdp_tradeoff_ends(a, R, x, bits)
        return fraction_to_arb(lo).union(fraction_to_arb(hi))
    if B.name == "mp":
        ctx = B.ctx
        a, R, x = (_frac(ctx, v) for v in vals)
        lo, hi = rdp_tradeoff_ends(a, R, x, int(ctx.prec) + 16)
        return (ctx.mpf(lo.numerator) / lo.denominator + ctx.mpf(hi.numerator) / hi.denominator) / 2
    raise NotImplementedError("rdp_tradeoff has no vectorized evaluator (the fast path evaluates it in arb)")


# ------------------------------------------------------------------------------------------ public functions

def beta_enclosure(entry_id: str, rel_tol: float = 1e-12, **params: Any) -> Enclosure:
    """Certified Enclosure of a trade-off entry's beta (``tradeoff.gdp``, ``tradeoff.dp``, ``tradeoff.rdp``)."""
    from dpbounds.evaluation.evaluate import enclose
    return enclose(entry_id, params, rel_tol=rel_tol)


def beta_lower(entry_id: str, **params: Any) -> float:
    """The largest float64 <= the entry's beta: the sound type-II error to report (claim direction 'lower')."""
    return beta_enclosure(entry_id, rel_tol=1e-9, **params).lower()
