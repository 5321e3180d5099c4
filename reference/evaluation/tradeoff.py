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

from dpbounds.evaluation.rdp_conversions import _as_not_certified, _ball, _bits
from dpbounds.evaluation.enclosure import Enclosure, CertificationError
from dpbounds.evaluation.interp import NotCertified
from dpbounds.evaluation.numeric import arb_endpoints, arb_prec, fraction_to_arb, mp_context
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


def zcdp_enclosure(rho: Any, fpr: Any) -> Enclosure:
    """Certified Enclosure of the best trade-off curve implied by rho-zCDP at type-I error ``fpr``: sup over alpha > 1
    of tradeoff.rdp(alpha, alpha rho, fpr) (Bun-Steinke's D_alpha <= alpha rho at every order, both directions; a
    Bernoulli pair in every order's region is itself rho-zCDP, so no larger curve is implied -- RGCSK26).  Relative
    width about 1e-4 (see :func:`zcdp_tradeoff_ends`); at most tradeoff.gdp at mu = sqrt(2 rho).  Claim direction
    'lower': the sound beta to report is ``.lower()``.  Not a registry entry (its width is limited)."""
    r = parse_exact("rho", rho, "tradeoff.zcdp")
    x = parse_exact("fpr", fpr, "tradeoff.zcdp")
    if r < 0:
        raise DomainError("rho", rho, "rho >= 0", "tradeoff.zcdp (dpbounds.accounting.tradeoff)")
    if not 0 <= x <= 1:
        raise DomainError("fpr", fpr, "0 <= fpr <= 1", "tradeoff.zcdp (dpbounds.accounting.tradeoff)")
    if x == 0 or x == 1:
        v = Fraction(1) - x
        return Enclosure(v, v, 0)
    for bits in (128, 256):
        try:
            lo, hi = zcdp_tradeoff_ends(r, x, bits)
            return Enclosure(lo, hi, bits)
        except NotCertified:
            continue
    raise CertificationError(f"tradeoff.zcdp: could not certify rho={rho}, fpr={fpr}")


def enclose_zcdp(params: dict[str, Fraction], rel_tol: float) -> Enclosure:
    """The opaque evaluator of tradeoff.zcdp (``SpecEntry.evaluator``): :func:`zcdp_enclosure` at exact parameters;
    CertificationError when its width (about 1e-4 relative) exceeds ``rel_tol``."""
    enc = zcdp_enclosure(params["rho"], params["fpr"])
    if enc.rel_width() > rel_tol:
        from dpbounds.evaluation.enclosure import CertificationError
        raise CertificationError(f"tradeoff.zcdp is certified to relative width {enc.rel_width():.1e} (asked "
                                 f"{rel_tol:.1e}): ask for rel_tol >= 1e-4")
    return enc
