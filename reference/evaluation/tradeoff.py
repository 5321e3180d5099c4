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

import math

import numpy as np
from flint import arb, ctx as _flint_ctx

from dpbounds.evaluation.rdp_conversions import _as_not_certified, _ball, _bits
from dpbounds.evaluation.enclosure import Enclosure, CertificationError
from dpbounds.evaluation.interp import NotCertified
from dpbounds.evaluation.npfast import TRANSCENDENTAL_ULPS
from dpbounds.evaluation.numeric import arb_endpoints, arb_prec, float_down, float_up, fraction_to_arb, mp_context
from dpbounds.evaluation.evaluate import enclose
from dpbounds.spec import DomainError, parse_exact

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

@_as_not_certified
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
    sign, man, exp, _ = ctx.mpf(v)._mpf_  # (mpf.man_exp drops the sign)
    return (-1 if sign else 1) * Fraction(int(man)) * (Fraction(2) ** int(exp))


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
                try:
                    k0_ok = ka(Fraction(0)) <= c
                except NotCertified:
                    k0_ok = False
                if k0_ok:  # b_1 = 0 (the constraint holds at b = 0 already)
                    los.append(Fraction(0))
                    his.append(Fraction(0))
                    continue
            tm = ctx.mpf(top.numerator) / top.denominator
            r = _mp_root(ctx, kf, xm, ctx.mpf(0), tm)
            rq = _frac(ctx, r)
            lo = hi = None
            def above(b: Fraction) -> bool | None:  # K_i(b) > c certified (True), <= c certified (False), or None
                try:
                    v = ka(b)
                except (NotCertified, ZeroDivisionError, ValueError):
                    return None
                return True if v > c else (False if v <= c else None)
            for k in (bits // 2, bits // 3, 24, 12, 6, 3):
                m = Fraction(1, 2**k)
                if lo is None:
                    cand = rq * (1 - m)
                    if cand > 0 and above(cand) is True:
                        lo = cand
                if hi is None:
                    cand = min(rq * (1 + m), top)
                    if cand > 0 and above(cand) is False:
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


@_as_not_certified
def rdp_tradeoff_backend(B: Any, vals: list, exact: list | None = None) -> Any:
    """The interpreter's evaluator of spec.tradeoff.rdp_tradeoff (arb: certified ball; mp: a value)."""
    if B.name == "arb":
        a, R, x = exact or _exact(vals)
        lo, hi = rdp_tradeoff_ends(a, R, x, _bits())
        return _ball(lo, hi)
    if B.name == "mp":
        ctx = B.ctx
        a, R, x = (_frac(ctx, v) for v in vals)
        lo, hi = rdp_tradeoff_ends(a, R, x, 2 * int(ctx.prec) + 16)  # width about 2^-(prec + 8)
        return (ctx.mpf(lo.numerator) / lo.denominator + ctx.mpf(hi.numerator) / hi.denominator) / 2
    raise NotImplementedError("rdp_tradeoff has no vectorized evaluator (the fast path evaluates it in arb)")


# ------------------------------------------------------------------------------------------ public functions

def beta_enclosure(entry_id: str, rel_tol: float = 1e-12, **params: Any) -> Enclosure:
    """Certified Enclosure of a trade-off entry's beta (``tradeoff.gdp``, ``tradeoff.dp``, ``tradeoff.rdp``)."""
    return enclose(entry_id, params, rel_tol=rel_tol)


def beta_lower(entry_id: str, **params: Any) -> float:
    """The largest float64 <= the entry's beta: the sound type-II error to report (claim direction 'lower')."""
    return beta_enclosure(entry_id, rel_tol=1e-9, **params).lower()


# ------------------------------------------------------------------------------------------ zCDP: sup over orders

def _renyi_bern(A: arb, p: Fraction, q: Fraction) -> arb:
    """D_alpha(Bern(p) || Bern(q)) in arb (0 < q < 1, 0 <= p <= 1), at the order A (a ball > 1)."""
    return _K(A, fraction_to_arb(p), fraction_to_arb(q)).log() / (A - 1)


def _zcdp_feasible(rho: Fraction, x: Fraction, b: Fraction, bits: int, max_cells: int = 4000) -> bool:
    """True iff arb certifies that the pair (Bern(x), Bern(1 - b)) is rho-zCDP in both directions: D_alpha <=
    alpha rho for EVERY alpha > 1 (then f_zcdp(x) <= b).  D_alpha is nondecreasing in alpha (proofs_check
    tradeoff.zcdp.cells), so on a cell [a0, a1] it suffices that D_{a1} <= a0 rho; on (1, a1] that D_{a1} <= rho;
    on [aN, oo) that D_inf <= aN rho.  Cells are split (geometrically in alpha - 1) until each is decided."""
    q = 1 - b
    pairs = ((x, q), (q, x))

    def dmax(alpha: Fraction) -> arb:
        A = fraction_to_arb(alpha)
        d1, d2 = (_renyi_bern(A, p_, q_) for p_, q_ in pairs)
        return d1 if d1 > d2 else (d2 if d2 > d1 else d1.union(d2))
    R = fraction_to_arb(rho)
    with arb_prec(bits):
        # the tail: D_inf = max log-likelihood ratio over both directions and both outcomes
        ratios = [fraction_to_arb(u) / fraction_to_arb(v) for u, v in ((x, q), (q, x), (1 - x, b), (b, 1 - x))]
        dinf = max((r.log() for r in ratios), key=lambda v: float(v.upper()))
        a_top = Fraction(int(float((dinf / R).upper())) + 2)
        # the head: some a1 > 1 with D_{a1} <= rho
        a1 = Fraction(3, 2)
        for _ in range(80):
            if dmax(a1) <= R:
                break
            a1 = 1 + (a1 - 1) / 4
        else:
            return False
        if a_top <= a1:
            return True
        # the middle: [a1, a_top] in cells geometric in alpha - 1
        n0 = 32
        ratio = (a_top - 1) / (a1 - 1)
        edges = [a1] + [1 + (a1 - 1) * Fraction(round(float(ratio) ** (i / n0) * 2**20), 2**20)
                        for i in range(1, n0)] + [a_top]
        edges = sorted(set(e for e in edges if a1 <= e <= a_top))
        stack = list(zip(edges[:-1], edges[1:]))
        cells = 0
        while stack:
            lo, hi = stack.pop()
            cells += 1
            if cells > max_cells:
                return False
            if dmax(hi) <= fraction_to_arb(lo) * R:
                continue
            mid = 1 + Fraction(round(float((lo - 1) * (hi - 1)) ** 0.5 * 2**40), 2**40) if hi - lo > (lo - 1) / 2**30 \
                else (lo + hi) / 2
            if not lo < mid < hi:
                mid = (lo + hi) / 2
            if hi - lo < Fraction(1, 2**(bits // 2)) * lo:
                return False
            stack += [(lo, mid), (mid, hi)]
    return True


@lru_cache(maxsize=512)
def zcdp_tradeoff_ends(rho: Fraction, x: Fraction, bits: int) -> tuple[Fraction, Fraction]:
    """Certified [lo, hi] of f_zcdp(rho, x) = sup over alpha > 1 of f_{alpha, alpha rho}(x) (0 < x < 1).

    lo: the best certified lower end of f_{alpha, alpha rho}(x) over orders near the maximizer (any order's value
    is a lower bound of the sup); hi: a b certified by :func:`_zcdp_feasible` (the Bernoulli pair at (x, b) is
    rho-zCDP, so the sup is <= b).  The maximizer is searched in a private mpmath context (a heuristic only)."""
    top = 1 - x
    if rho == 0:
        return top, top
    inner = max(64, bits // 2)

    def at(u: float) -> tuple[Fraction, Fraction, Fraction]:
        al = 1 + Fraction(round(2.0**u * 2**40), 2**40)
        lo, hi = rdp_tradeoff_ends(al, al * rho, x, inner)
        return lo, hi, al
    us = [i * 1.25 for i in range(-20, 21)]  # alpha - 1 from 2^-25 to 2^25
    vals = [(at(u)[0], u) for u in us]
    best, ub = max(vals)
    lo_u, hi_u = ub - 1.25, ub + 1.25
    g = (5 ** 0.5 - 1) / 2
    for _ in range(48):
        m1, m2 = hi_u - g * (hi_u - lo_u), lo_u + g * (hi_u - lo_u)
        if at(m1)[0] >= at(m2)[0]:
            hi_u = m2
        else:
            lo_u = m1
    blo, bhi, _ = at((lo_u + hi_u) / 2)
    blo = max(blo, best)
    for k in (bits // 2, bits // 3, 40, 30, 20, 14, 10, 6):
        cand = min(bhi * (1 + Fraction(1, 2**k)), top)
        if _zcdp_feasible(rho, x, cand, bits):
            return blo, cand
    raise NotCertified("could not certify the zCDP trade-off's upper end")


# ------------------------------------------------------------------------------------------ zCDP: float64 certificate
#
# The same two certificates as above, evaluated on arrays of orders in float64 with every rounding bounded (the
# error model of dpbounds.evaluation.npfast: + - * / rounded outward by one step, exp/log/log1p/expm1 by
# TRANSCENDENTAL_ULPS), and one arb check for the lower end.  With beta = alpha - 1 and a pair (Bern(p), Bern(q)),
# u = log(p/q), v = log((1-p)/(1-q)):  K(alpha) = p e^{beta u} + (1-p) e^{beta v} (p + (1-p) = 1), so
#     log K(alpha) = log1p(p expm1(beta u) + (1 - p) expm1(beta v)),
# accurate as beta -> 0 (no cancellation between log K and (alpha - 1)), and D_alpha = log K / beta.

_K1 = 2.0 ** -53 * (1 + 2.0 ** -20)   # one rounding of + - * / (npfast's module docstring)
_TINY = 2.0 ** -1074
_KU = TRANSCENDENTAL_ULPS * 2.0 ** -52
_KTINY = TRANSCENDENTAL_ULPS * _TINY


def _up(r, k=_K1, tiny=_TINY):
    """r moved outward (up) by one rounding (k = _K1) or by a libm kernel's error (k = _KU, tiny = _KTINY)."""
    return r + (np.abs(r) * k + tiny)


def _dn(r, k=_K1, tiny=_TINY):
    return r - (np.abs(r) * k + tiny)


def _float_ends(v: arb) -> tuple[float, float]:
    return float_down(v), float_up(v)


def _pair_consts(p: arb, q: arb) -> tuple[float, ...]:
    """(p_lo, p_hi, pc_lo, pc_hi, u_lo, u_hi, v_lo, v_hi, lp_hi, lpc_hi): float ends of p, 1 - p, u = log(p/q),
    v = log((1-p)/(1-q)) and the upper ends of log p, log(1 - p) (arb at 128 bits, then rounded outward: the only
    error is that rounding)."""
    with arb_prec(128):
        return (*_float_ends(p), *_float_ends(1 - p), *_float_ends((p / q).log()),
                *_float_ends(((1 - p) / (1 - q)).log()), float_up(p.log()), float_up((1 - p).log()))


def _logk_upper(c, beta):
    """An upper bound of log K(1 + beta) for the pair with float ends ``c`` (:func:`_pair_consts`), elementwise
    over the exact float array beta >= 0: the smaller of two upper bounds, each rounded outward at every step.
    (1) log1p(p expm1(beta u) + (1 - p) expm1(beta v)) (accurate as beta -> 0): expm1, log1p increase, so each is
    taken at its argument's upper end; a product with p > 0 takes p's upper end when the other factor's upper end is
    >= 0, its lower end otherwise.  (2) logaddexp(log p + beta u, log(1 - p) + beta v) = m + log1p(exp(n - m)) at
    the arguments' upper ends (m their max, n their min; logaddexp increases in both): finite where (1) overflows."""
    p_lo, p_hi, pc_lo, pc_hi, u_lo, u_hi, v_lo, v_hi, lp_hi, lpc_hi = c
    with np.errstate(over="ignore", invalid="ignore"):
        eu = _up(np.expm1(_up(beta * u_hi)), _KU, _KTINY)
        ev = _up(np.expm1(_up(beta * v_hi)), _KU, _KTINY)
        a = _up(np.where(eu >= 0, p_hi, p_lo) * eu)
        b = _up(np.where(ev >= 0, pc_hi, pc_lo) * ev)
        one = _up(np.log1p(_up(a + b)), _KU, _KTINY)  # (a + b > -1: K > 0; NaN only from inf - inf)
        A = _up(lp_hi + _up(beta * u_hi))
        B = _up(lpc_hi + _up(beta * v_hi))
        m, n = np.maximum(A, B), np.minimum(A, B)
        corr = _up(np.log1p(_up(np.exp(_up(n - m)), _KU, _KTINY)), _KU, _KTINY)
        two = _up(m + corr)
        out = np.fmin(one, two)
    return np.where(np.isnan(out), np.inf, out)


def _logk_float(x: float, b: np.ndarray, beta: np.ndarray, rho: float) -> np.ndarray:
    """The heuristic's objective (plain float64, never trusted): max over both directions of log K(1 + beta) -
    beta (1 + beta) rho for the pair (Bern(x), Bern(1 - b)); > 0 iff that order rules b out (the sign of D_alpha -
    alpha rho).  b: a column, beta: a row.  log K as in :func:`_logk_upper` (the log1p form where beta |u|, beta |v|
    < 1, logaddexp elsewhere)."""
    with np.errstate(all="ignore"):
        lx, lcx, lb, lcb = math.log(x), math.log1p(-x), np.log(b), np.log1p(-b)
        u, v = lx - lcb, lcx - lb                              # (Bern(x) || Bern(1 - b)); the reverse: -u, -v
        small = beta * np.maximum(np.abs(u), np.abs(v)) < 1
        k1 = np.where(small, np.log1p(x * np.expm1(beta * u) + (1 - x) * np.expm1(beta * v)),
                      np.logaddexp(lx + beta * u, lcx + beta * v))
        k2 = np.where(small, np.log1p((1 - b) * np.expm1(-beta * u) + b * np.expm1(-beta * v)),
                      np.logaddexp(lcb - beta * u, lb - beta * v))
        g = np.maximum(k1, k2) - beta * (1 + beta) * rho
        g = np.where(np.isnan(g), np.inf, g)
        return g, k1 >= k2


def _roots_float(x: float, beta: np.ndarray, rho: float, lo: np.ndarray, hi: np.ndarray, steps: int):
    """For each order beta: bisection in log b on [lo, hi] for the largest b some direction rules out (g > 0 at
    lo, g <= 0 at hi, g decreasing in b); returns the bracket (lo, hi) after ``steps`` halvings."""
    top = 1.0 - x
    for _ in range(steps):
        mid = 0.5 * (lo + hi)
        out = _logk_float(x, np.minimum(np.exp(mid), top), beta, rho)[0] > 0
        lo = np.where(out, mid, lo)
        hi = np.where(out, hi, mid)
    return lo, hi


def _g_scalar(x: float, t: float, beta: float, rho: float) -> tuple[float, int]:
    """:func:`_logk_float` at one (log b, beta) in plain floats: (the sign function, the direction that binds)."""
    top = 1.0 - x
    b = math.exp(t) if t < math.log(top) else top
    lb, lcb, lx, lcx = math.log(b), math.log1p(-b), math.log(x), math.log1p(-x)
    u, v = lx - lcb, lcx - lb
    try:
        if beta * max(abs(u), abs(v)) < 1:
            k1 = math.log1p(x * math.expm1(beta * u) + (1 - x) * math.expm1(beta * v))
            k2 = math.log1p((1 - b) * math.expm1(-beta * u) + b * math.expm1(-beta * v))
        else:
            a1, a2 = lx + beta * u, lcx + beta * v
            k1 = max(a1, a2) + math.log1p(math.exp(-abs(a1 - a2)))
            a1, a2 = lcb - beta * u, lb - beta * v
            k2 = max(a1, a2) + math.log1p(math.exp(-abs(a1 - a2)))
    except (OverflowError, ValueError):
        return math.inf, 0
    return max(k1, k2) - beta * (1 + beta) * rho, 0 if k1 >= k2 else 1


def _root_scalar(x: float, beta: float, rho: float, lo: float, hi: float, steps: int = 60) -> tuple[float, float]:
    """The bracket in log b of one order's root (lo ruled out, hi not; a heuristic): the Illinois variant of false
    position, a bisection step wherever an end's value is not finite, until the bracket is below 1e-13."""
    glo, ghi = _g_scalar(x, lo, beta, rho)[0], _g_scalar(x, hi, beta, rho)[0]
    if not glo > 0:
        return lo, lo
    if ghi > 0:
        return hi, hi
    side = 0
    for _ in range(steps):
        if hi - lo <= 1e-13 * max(1.0, abs(lo)):
            break
        if math.isfinite(glo) and math.isfinite(ghi) and glo != ghi:
            mid = hi - ghi * (hi - lo) / (ghi - glo)
            if not lo < mid < hi:
                mid = 0.5 * (lo + hi)
        else:
            mid = 0.5 * (lo + hi)
        gm = _g_scalar(x, mid, beta, rho)[0]
        if gm > 0:
            lo, glo = mid, gm
            if side > 0:
                ghi *= 0.5
            side = 1
        else:
            hi, ghi = mid, gm
            if side < 0:
                glo *= 0.5
            side = -1
    return lo, hi


def _zcdp_float_solve(x: float, rho: float) -> tuple[float, float, int] | None:
    """(b_hat, beta_star, direction): a float estimate of f_zcdp(x) = max over orders of the order's root b(beta),
    the order (alpha - 1) where the max is reached and the direction that binds there (0: D(Bern(x)||Bern(1 - b)),
    1: the reverse) -- a heuristic, never trusted.  The roots on a grid of orders (vectorized bisection in log b),
    then twice on 5 orders around the best with a 4x finer step, then at the vertex of the parabola through the
    best three (b(beta) is smooth at its max: the max of the max of two smooth functions is one of theirs)."""
    top = 1.0 - x
    lt = math.log(top)
    lbeta = np.linspace(math.log(1e-9), math.log(1e9), 97)
    lo, hi = _roots_float(x, np.exp(lbeta), rho, np.full(lbeta.shape, lt - 745.0), np.full(lbeta.shape, lt), 40)
    j = int(np.argmax(lo))
    if not (lo[j] > lt - 740.0 and j < lbeta.size - 1):
        return None
    if j == 0:  # the sup is approached as alpha -> 1 (the KL constraint binds): the smallest order on the grid
        beta_star = float(np.exp(lbeta[0]))
        g, direction = _g_scalar(x, float(lo[0]), beta_star, rho)
        if not g > 0:
            return None
        r_lo, r_hi = _root_scalar(x, beta_star, rho, float(lo[0]), float(hi[0]))
        return math.exp(r_hi), beta_star, _g_scalar(x, r_lo, beta_star, rho)[1]
    step = float(lbeta[1] - lbeta[0])
    c, best = float(lbeta[j]), float(lo[j])
    span = max(1e-2, 1e-3 * abs(best))
    for rnd in range(3):  # 9 points over +-1 coarse step, then 5 points over +-1/2 of the previous step, twice
        step /= 4
        pts = [c + k * step for k in ((-4, -3, -2, -1, 0, 1, 2, 3, 4) if rnd == 0 else (-2, -1, 0, 1, 2))]
        roots = []
        for lbt in pts:
            r_lo, r_hi = _root_scalar(x, math.exp(lbt), rho, best - span, min(lt, best + span))
            if r_hi >= min(lt, best + span) and min(lt, best + span) < lt:   # above the bracket: widen once
                r_lo, r_hi = _root_scalar(x, math.exp(lbt), rho, r_lo, lt)
            roots.append(r_lo)
        k = max(range(len(pts)), key=roots.__getitem__)
        c, best = pts[k], roots[k]
    if 0 < k < len(pts) - 1:  # parabola vertex through (pts[k-1..k+1], roots[k-1..k+1])
        y0, y1, y2 = roots[k - 1], roots[k], roots[k + 1]
        den = y0 - 2 * y1 + y2
        if den < 0:
            v = pts[k] + 0.5 * step * (y0 - y2) / den
            if abs(v - pts[k]) <= step:
                r_lo, _ = _root_scalar(x, math.exp(v), rho, best - span, min(lt, best + span))
                if r_lo > best:
                    c, best = v, r_lo
    # polish: an order near the best that still rules out the estimate (a sharp or misplaced max) moves it up
    for _ in range(6):
        lb = c + np.linspace(-0.5, 0.5, 129)
        g, _first = _logk_float(x, np.array([[min(math.exp(best + 1e-9), top)]]), np.exp(lb)[None, :], rho)
        j = int(np.argmax(g[0]))
        if not g[0, j] > 0:
            break
        r_lo, _ = _root_scalar(x, math.exp(float(lb[j])), rho, best, lt)
        if not r_lo > best:
            break
        c, best = float(lb[j]), r_lo
    beta_star = math.exp(c)
    g, direction = _g_scalar(x, best, beta_star, rho)
    if not g > 0:
        return None
    _, hi_t = _root_scalar(x, beta_star, rho, best, min(lt, best + 1e-9))
    return math.exp(hi_t), beta_star, direction


def _cells_feasible(consts: list, rho_lo: float, rho_hi: float, beta_max: float, max_cells: int = 200_000,
                    rounds: int = 40) -> bool:
    """True iff the float64 bounds prove D_alpha <= alpha rho, i.e. log K(1 + beta) <= beta (1 + beta) rho, for every
    beta = alpha - 1 > 0 and each pair in ``consts``.  Cells [b0, b1] cover [0, beta_max]; a cell is decided by
    either rule (proofs_check tradeoff.zcdp.cells):
    * monotone: log K(1 + b1) <= b1 (1 + b0) rho (D_alpha is nondecreasing in alpha: D <= D_{1+b1} <= (1 + b0) rho
      <= alpha rho on the cell; with b0 = 0 this is the head);
    * chord: log K(1 + beta) is convex in beta (psi'' >= 0), so below its chord on the cell, and beta (1 + beta) rho
      is above its tangent at the midpoint m, which lies below it by rho (beta - m)^2 <= rho w^2/4 (w = b1 - b0); so
      log K(1 + b_j) <= b_j (1 + b_j) rho - rho w^2/4 at both ends puts the chord under the tangent: its loss is
      quadratic in w (the monotone rule's is linear), which is what decides the cells next to the binding order.
    and the tail [beta_max, oo): D_inf = max(u, v) <= (1 + beta_max) rho.  An undecided cell is split in 8
    (geometrically; the head at b1 8^-7, ..., b1/8) until every cell is decided, or a budget is spent (False)."""
    tail_rhs = _dn(_dn(1.0 + beta_max) * rho_lo)
    if not all(max(c[5], c[7]) <= tail_rhs for c in consts):
        return False

    def logk(beta):
        out = _logk_upper(consts[0], beta)
        for c in consts[1:]:
            out = np.maximum(out, _logk_upper(c, beta))
        return out

    def quad(beta, loss):  # a lower bound of (beta (1 + beta) - loss) rho
        inner = _dn(_dn(beta * _dn(1.0 + beta)) - loss)
        return np.where(inner >= 0, _dn(inner * rho_lo), _dn(inner * rho_hi))

    edges = np.concatenate(([0.0], np.geomspace(beta_max * 2.0 ** -40, beta_max, 96)))
    L = logk(edges)
    b0, b1, l0, l1 = edges[:-1], edges[1:], L[:-1], L[1:]
    total = b0.size
    for _ in range(rounds):
        w = _up(b1 - b0)
        loss = _up(_up(w * w) * 0.25)
        mono = l1 <= _dn(_dn(b1 * _dn(1.0 + b0)) * rho_lo)
        chord = (l0 <= quad(b0, loss)) & (l1 <= quad(b1, loss))
        bad = ~(mono | chord)
        if not bad.any():
            return True
        b0, b1, l0, l1 = b0[bad], b1[bad], l0[bad], l1[bad]
        if np.any(l1 > b1 * (1 + b1) * rho_hi * (1 + 2.0 ** -30)) or b0.size > 4096:
            return False     # an order rules b out (up to rounding), or too many cells: give up early
        if np.any(b1 - b0 <= b1 * 2.0 ** -42):
            return False     # a cell this narrow that is still undecided: b is (numerically) not feasible
        t = np.arange(1, 8)[None, :] / 8.0
        pos = b0 > 0
        safe0 = np.where(pos, b0, b1)
        mids = np.where(pos[:, None], safe0[:, None] * (b1 / safe0)[:, None] ** t, b1[:, None] * 8.0 ** (7 * (t - 1)))
        lm = logk(mids.ravel()).reshape(mids.shape)
        pts = np.concatenate((b0[:, None], mids, b1[:, None]), axis=1)
        lv = np.concatenate((l0[:, None], lm, l1[:, None]), axis=1)
        b0, b1, l0, l1 = pts[:, :-1].ravel(), pts[:, 1:].ravel(), lv[:, :-1].ravel(), lv[:, 1:].ravel()
        keep = b1 > b0
        b0, b1, l0, l1 = b0[keep], b1[keep], l0[keep], l1[keep]
        total += b0.size
        if total > max_cells:
            return False
    return False


def _ruled_out_arb(rho: Fraction, x: Fraction, b: Fraction, beta: float, direction: int) -> bool:
    """True iff arb certifies that the order alpha = 1 + beta rules b out in ``direction``: K_i(b) > e^{(alpha-1)
    alpha rho}, so b < b_i(alpha) <= f_zcdp(x) (tradeoff.rdp.monotone_roots: K_i decreases on [0, 1 - x])."""
    with arb_prec(128):
        A = arb(1.0) + arb(beta)
        X, Q = fraction_to_arb(x), 1 - fraction_to_arb(b)
        try:
            k = _K(A, X, Q) if direction == 0 else _K(A, Q, X)
        except NotCertified:
            return False
        return bool(k > ((A - 1) * A * fraction_to_arb(rho)).exp())


def zcdp_fast_ends(rho: Fraction, x: Fraction, rel_tol: float = 1e-6) -> tuple[Fraction, Fraction] | None:
    """Certified [lo, hi] of f_zcdp(rho, x) (0 < x < 1, rho > 0) of relative width <= rel_tol (>= 2^-30) from the
    float64 certificates above, or None (then :func:`zcdp_tradeoff_ends`, in arb).  lo: a b that one order rules
    out, checked in arb (:func:`_ruled_out_arb`); hi: a float b whose Bernoulli pair the cells prove rho-zCDP
    (:func:`_cells_feasible`).  Only the search for them is heuristic (:func:`_zcdp_float_solve`)."""
    try:
        xf, rf = float(x), float(rho)
    except OverflowError:
        return None
    if not (1e-300 < xf < 1 and 1e-300 < rf < 1e300) or rel_tol < 2.0 ** -30:
        return None
    top = 1 - x
    sol = _zcdp_float_solve(xf, rf)
    if sol is None:
        return None
    b_hat, beta_star, direction = sol
    lo = None
    for eta in (2.0 ** -40, 2.0 ** -30, 2.0 ** -20, rel_tol / 8):
        cand = Fraction(b_hat * (1 - eta))
        if 0 < cand < top and _ruled_out_arb(rho, x, cand, beta_star, direction):
            lo = cand
            break
    if lo is None:
        return None
    rho_lo, rho_hi = float_down(rho), float_up(rho)
    x_arb = fraction_to_arb(x)
    for eta in (rel_tol / 64, rel_tol / 8, rel_tol / 2):
        b_hi = b_hat * (1 + eta)
        hi = Fraction(b_hi)
        if hi >= top:
            hi, b_hi = top, None
        if hi - lo > rel_tol * hi:
            break
        with arb_prec(128):
            q = 1 - fraction_to_arb(hi)
        consts = [_pair_consts(x_arb, q), _pair_consts(q, x_arb)]
        dinf = max(c[k] for c in consts for k in (5, 7))
        beta_max = max(2.0 * dinf / rf, 1.0)
        if _cells_feasible(consts, rho_lo, rho_hi, beta_max):
            return lo, hi
    return None


def zcdp_enclosure(rho: Any, fpr: Any, rel_tol: float = 1e-6) -> Enclosure:
    """Certified Enclosure of the best trade-off curve implied by rho-zCDP at type-I error ``fpr``: sup over alpha > 1
    of tradeoff.rdp(alpha, alpha rho, fpr) (Bun-Steinke's D_alpha <= alpha rho at every order, both directions; a
    Bernoulli pair in every order's region is itself rho-zCDP, so no larger curve is implied -- RGCSK26).  At most
    tradeoff.gdp at mu = sqrt(2 rho).  Claim direction 'lower': the sound beta to report is ``.lower()``.
    The float64 certificate (:func:`zcdp_fast_ends`, relative width about rel_tol / 64, milliseconds) first; where
    it does not decide, the arb certificate (:func:`zcdp_tradeoff_ends`, relative width about 1e-4, seconds)."""
    r = parse_exact("rho", rho, "tradeoff.zcdp")
    x = parse_exact("fpr", fpr, "tradeoff.zcdp")
    if r < 0:
        raise DomainError("rho", rho, "rho >= 0", "tradeoff.zcdp (dpbounds.accounting.tradeoff)")
    if not 0 <= x <= 1:
        raise DomainError("fpr", fpr, "0 <= fpr <= 1", "tradeoff.zcdp (dpbounds.accounting.tradeoff)")
    if x == 0 or x == 1 or r == 0:
        v = Fraction(1) - x
        return Enclosure(v, v, 0)
    tol = max(float(rel_tol), 2.0 ** -30)
    for t in (tol, 1e-4) if tol < 1e-4 else (tol,):  # (where the float objective is flat in b, a wider window)
        fast = zcdp_fast_ends(r, x, t)
        if fast is not None:
            return Enclosure(fast[0], fast[1], 53)
    for bits in (128, 256):
        try:
            lo, hi = zcdp_tradeoff_ends(r, x, bits)
            return Enclosure(lo, hi, bits)
        except NotCertified:
            continue
    raise CertificationError(f"tradeoff.zcdp: could not certify rho={rho}, fpr={fpr}")


def enclose_zcdp(params: dict[str, Fraction], rel_tol: float) -> Enclosure:
    """The opaque evaluator of tradeoff.zcdp (``SpecEntry.evaluator``): :func:`zcdp_enclosure` at exact parameters;
    CertificationError when its width exceeds ``rel_tol`` (the float64 certificate reaches about 1e-9 at best, the
    arb one about 1e-4)."""
    enc = zcdp_enclosure(params["rho"], params["fpr"], rel_tol=min(float(rel_tol), 1e-6))
    if enc.rel_width() > rel_tol:
        raise CertificationError(f"tradeoff.zcdp is certified to relative width {enc.rel_width():.1e} here (asked "
                                 f"{float(rel_tol):.1e}): ask for rel_tol >= {enc.rel_width():.0e}")
    return enc
