"""Certified enclosures of inf (or sup) over the free variable of an :class:`spec.Optimize` entry (CKS20's alpha).

Returned: an :class:`dpbounds.evaluation.enclosure.Enclosure` [lo, hi] of ``inf_{a in (a_lo, oo)} g(a)`` (``sup`` is handled
as ``-inf(-g)``), where ``g`` is the entry's expression at the given parameters.  Domain: entries whose optimization
range is ``(a_lo, oo)`` with ``a_lo`` rational and whose objective passes the quasi-convexity proof below; anything
else raises :class:`dpbounds.evaluation.enclosure.CertificationError` (a fixed value of the variable still gives a valid upper
bound of an infimum through the ordinary evaluator).

How it is certified
-------------------
1. **Quasi-convexity, proved symbolically once per entry** (:func:`quasiconvexity`).  With sympy, from the spec
   expression: ``g'(a) = N(a)/D(a)`` (``together(simplify(diff(g, a)))``); the variable is written ``a = a_lo + x``
   with ``x > 0`` and each parameter carries the sign its spec domain gives it (``rho >= 0`` -> nonnegative, ...).
   The factors of ``N`` that sympy's assumption system proves positive are dropped; what remains is one factor
   ``S``; sympy must prove ``D > 0`` and ``dS/dx >= 0``.  Then ``sign g'(a) = sign S(a)`` with ``S``
   nondecreasing on the whole range: ``g`` decreases while ``S < 0`` and increases once ``S > 0``.
   (For ``conversions.cks20``: ``S = rho (a-1)^2 + log a - log(1/delta)``, ``D = (a-1)^2``; for the delta form
   ``conversions.cks20.delta``: ``S = (2a - 1) rho - eps + log(1 - 1/a)``, times positive factors.)
2. **A near-optimal point** ``c``: the sign change of ``S`` located in a private mpmath context (geometric search
   on ``a - a_lo = 2^k``, then bracketed root finding).  A heuristic only: nothing below trusts it.
3. **The enclosure** (python-flint arb).  Let ``a- = c - w``, ``a+ = c + w``.  If arb certifies ``S(a-) < 0`` and
   ``S(a+) > 0`` then, by step 1, ``g`` is decreasing on ``(a_lo, a-]`` and increasing on ``[a+, oo)``, so the
   infimum over the *whole* range equals the minimum over ``[a-, a+]``; by the mean-value theorem
   ``g(a) >= g(c) - sup|g'([a-, a+])| * w`` there.  That is ``lo``; ``hi`` is the upper end of ``g(c)`` (any point
   bounds an infimum from above).  The loss ``sup|g'| w ~ g'' w^2`` is tiny for a tight window; ``w`` shrinks and
   the precision grows until the requested relative width is met, or CertificationError.

No tail argument beyond step 1 is needed: monotonicity on ``(a_lo, a-]`` and ``[a+, oo)`` covers both tails.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Callable

import sympy as sp

from dpbounds.spec import DomainError, get
from dpbounds.spec.core import SpecEntry, sym

from dpbounds.evaluation.enclosure import CertificationError, Enclosure, entry_expr
from dpbounds.evaluation.interp import ArbBackend, MpBackend, NotCertified, compile_expr
from dpbounds.evaluation.numeric import arb_endpoints, arb_prec, fraction_to_arb, log10_of, mp_context

_ARB = ArbBackend()


# ------------------------------------------------------------------------------------------ analysis (sympy, once)

@dataclass(frozen=True)
class Analysis:
    """The symbolic facts behind an entry's certified optimum (see the module docstring, step 1)."""

    entry_id: str
    what: str
    var: str
    sign: int                 # +1 for inf, -1 for sup (the objective is sign * expr, minimized)
    a_lo: Fraction            # the open lower end of the range
    g: sp.Expr                # objective, in the canonical symbols
    dg: sp.Expr               # d g / d var (simplified)
    s: sp.Expr                # the sign factor S: sign(g') = sign(S), S nondecreasing
    proof: str                # what sympy proved, in words
    f_arb: Callable
    df_arb: Callable
    s_arb: Callable

    def mp_fns(self, ctx):
        """(g, S) compiled for an mpmath context (private to this module; cached per context)."""
        key = (self.entry_id, self.what, id(ctx))
        fns = _MP_FNS.get(key)
        if fns is None:
            b = MpBackend(ctx)
            fns = _MP_FNS[key] = (compile_expr(self.g, b), compile_expr(self.s, b))
        return fns


_MP_FNS: dict = {}
_CTXS: dict = {}


def _ctx(dps: int):
    """A private mpmath context at ``dps`` digits, created once per precision (creating one costs ~1 ms).

    Its precision is never changed after creation, so sharing it within this module is safe."""
    c = _CTXS.get(dps)
    if c is None:
        c = _CTXS[dps] = mp_context(dps)
    return c


def _domain_assumptions(entry: SpecEntry) -> dict[str, dict]:
    """Sign assumptions each parameter gets from the entry's own domain relations (p > 0, p >= 0, 0 < p, ...)."""
    out: dict[str, dict] = {}
    for rel in entry.domain:
        if not isinstance(rel, sp.Rel):
            continue
        lhs, rhs = rel.lhs, rel.rhs
        if isinstance(rel, (sp.StrictLessThan, sp.LessThan)):  # normalize to lhs >(=) rhs
            lhs, rhs = rhs, lhs
        strict = isinstance(rel, (sp.StrictGreaterThan, sp.StrictLessThan))
        if isinstance(lhs, sp.Symbol) and rhs == 0:
            kind = "positive" if strict else "nonnegative"
            if out.get(lhs.name) != {"positive": True}:
                out[lhs.name] = {kind: True}
    return out


@lru_cache(maxsize=None)
def quasiconvexity(entry_id: str, what: str = "expr") -> Analysis:
    """The sympy proof that the entry's objective is quasi-convex on its range (module docstring, step 1).

    Raises CertificationError (naming what could not be proved) for entries outside this method's domain."""
    entry = get(entry_id)
    opt = entry.optimize
    if opt is None or opt.mode not in ("inf", "sup"):
        raise DomainError("id", entry_id, "an entry with an 'inf' or 'sup' optimization", entry.theorem)
    if not (opt.hi == sp.oo and opt.lo.is_Rational):
        raise CertificationError(f"{entry_id}: only ranges (a_lo, oo) with rational a_lo are supported")
    sign = 1 if opt.mode == "inf" else -1
    a = sym(opt.var)
    g = sign * entry_expr(entry, what)
    dg = sp.simplify(sp.diff(g, a))
    num, den = sp.fraction(sp.together(dg))
    x = sp.Symbol("x_", positive=True)
    assume = _domain_assumptions(entry)
    reps = {sym(p): sp.Symbol(p, real=True, **assume.get(p, {})) for p in entry.params if p != opt.var}
    back = {v: sym(k.name) for k, v in reps.items()}
    reps[a] = sp.Rational(opt.lo) + x
    num_x, den_x = num.xreplace(reps), den.xreplace(reps)
    factors = sp.Mul.make_args(sp.factor_terms(num_x))
    coeff = sp.Integer(1)
    rest = []
    for f in factors:
        if f.is_positive:
            continue
        if f.is_number and f.is_negative:
            coeff = -coeff
            continue
        rest.append(f)
    if den_x.is_negative:
        coeff, den_x = -coeff, -den_x
    if not den_x.is_positive:
        raise CertificationError(f"{entry_id}: could not prove the derivative's denominator {den} positive")
    if len(rest) != 1:
        raise CertificationError(f"{entry_id}: the derivative's numerator {num} is not one sign factor times "
                                 f"provably positive factors")
    s_x = coeff * rest[0]
    ds = sp.diff(s_x, x)
    if not (ds.is_nonnegative or sp.together(ds).is_nonnegative or sp.simplify(ds).is_nonnegative):
        raise CertificationError(f"{entry_id}: could not prove the sign factor {s_x} nondecreasing")
    s = s_x.xreplace({x: a - sp.Rational(opt.lo)}).xreplace(back)
    proof = (f"g' = N/D with D = {den} > 0 on the range; N = (positive factors) * S, S = {sp.sstr(s)}, "
             f"dS/d{opt.var} = {sp.sstr(sp.simplify(ds))} >= 0 (sympy assumptions, {opt.var} = {opt.lo} + x, x > 0)")
    return Analysis(entry_id, what, opt.var, sign, Fraction(int(opt.lo.p), int(opt.lo.q)), g, dg, s, proof,
                    compile_expr(g, _ARB), compile_expr(dg, _ARB), compile_expr(s, _ARB))


# ------------------------------------------------------------------------------------------ the near-optimal point

def _root_mp(an: Analysis, params: dict, dps: int, hint: Fraction | None = None):
    """(ctx, c): the sign change of S in a private mpmath context, or None when S has no sign change found.

    Heuristic: the certification does not rely on it."""
    ctx = _ctx(dps)
    _, s_fn = an.mp_fns(ctx)
    env = {k: ctx.mpf(v.numerator) / v.denominator for k, v in params.items()}
    a_lo = ctx.mpf(an.a_lo.numerator) / an.a_lo.denominator

    def sfn(a):
        e = dict(env)
        e[an.var] = a
        try:
            v = s_fn(e)
        except (ValueError, ZeroDivisionError, OverflowError):
            return None
        return v if ctx.isfinite(v) else None

    lo = hi = None
    if hint is not None and hint > an.a_lo:
        h = ctx.mpf(hint.numerator) / hint.denominator
        d = (h - a_lo) * ctx.mpf("1e-6")
        for _ in range(12):
            sl, sh = sfn(h - d), sfn(h + d)
            if sl is not None and sh is not None and sl < 0 < sh:
                lo, hi = h - d, h + d
                break
            d *= 64
            if h - d <= a_lo:
                break
    if lo is None:  # geometric search for the sign change of the nondecreasing S over a - a_lo = 2^k
        # smallest step that a_lo + 2^k still resolves at this precision
        kl, kh = -int(ctx.prec) + 8 + (int(ctx.mag(a_lo)) if a_lo != 0 else -1000), 3400
        sl, sh = sfn(a_lo + ctx.ldexp(1, kl)), sfn(a_lo + ctx.ldexp(1, kh))
        if sl is None or sh is None or not (sl < 0 < sh):
            return None
        while kh - kl > 1:
            km = (kl + kh) // 2
            sm = sfn(a_lo + ctx.ldexp(1, km))
            if sm is None:
                return None
            if sm < 0:
                kl = km
            elif sm > 0:
                kh = km
            else:
                return ctx, a_lo + ctx.ldexp(1, km)
        lo, hi = a_lo + ctx.ldexp(1, kl), a_lo + ctx.ldexp(1, kh)
    c = _illinois(sfn, lo, hi, ctx)
    return ctx, c


def _illinois(sfn, lo, hi, ctx):
    """A root of the nondecreasing S in [lo, hi] (S(lo) < 0 < S(hi)) by the Illinois variant of regula falsi,
    falling back to bisection steps; stops at the context's precision."""
    flo, fhi = sfn(lo), sfn(hi)
    side = 0
    eps = ctx.ldexp(1, -int(ctx.prec) + 3)
    for i in range(4 * int(ctx.prec)):
        if hi - lo <= eps * abs(hi):
            break
        if i % 4 == 3 or flo is None or fhi is None:  # a bisection step now and then guarantees progress
            c = (lo + hi) / 2
        else:
            c = (lo * fhi - hi * flo) / (fhi - flo)
            if not lo < c < hi:
                c = (lo + hi) / 2
        fc = sfn(c)
        if fc is None:
            return (lo + hi) / 2
        if fc == 0:
            return c
        if fc < 0:
            lo, flo = c, fc
            if side == -1 and fhi is not None:
                fhi /= 2
            side = -1
        else:
            hi, fhi = c, fc
            if side == +1 and flo is not None:
                flo /= 2
            side = +1
    return (lo + hi) / 2


def argmin(entry: SpecEntry, params: dict, *, what: str = "expr", digits: int = 20,
           hint: Fraction | None = None) -> Fraction | None:
    """A near-optimal value of the Optimize variable (a rational; a heuristic, never trusted by a certificate)."""
    an = quasiconvexity(entry.id, what)
    r = _root_mp(an, params, digits + 5, hint)
    if r is None:
        return None
    ctx, c = r
    return _mp_to_fraction(ctx, c)


def _mp_to_fraction(ctx, v) -> Fraction:
    man, exp = ctx.mpf(v).man_exp
    return Fraction(int(man)) * (Fraction(2) ** int(exp))


# ------------------------------------------------------------------------------------------ certification (arb)

def _lower_bound_at(an: Analysis, env_arb: dict, c: Fraction, w: Fraction) -> tuple[Fraction, Fraction] | None:
    """(certified lower bound of inf g over the whole range, certified upper end of g(c)), or None.

    Valid only inside an arb precision context.  None when S(c - w) < 0 < S(c + w) cannot be certified."""
    var = an.var
    lo_pt, hi_pt = c - w, c + w
    if lo_pt <= an.a_lo:
        return None
    e = dict(env_arb)
    try:
        e[var] = fraction_to_arb(lo_pt)
        if not an.s_arb(e) < 0:
            return None
        e[var] = fraction_to_arb(hi_pt)
        if not an.s_arb(e) > 0:
            return None
        e[var] = fraction_to_arb(c)
        gc = an.f_arb(e)
        e[var] = fraction_to_arb(lo_pt).union(fraction_to_arb(hi_pt))
        d = an.df_arb(e)
        low = gc - abs(d) * fraction_to_arb(w)
    except (NotCertified, ZeroDivisionError, ValueError):
        return None
    ends_l, ends_h = arb_endpoints(low), arb_endpoints(gc)
    if ends_l is None or ends_h is None:
        return None
    return ends_l[0], ends_h[1]


def _digits_of(rel_tol: Fraction) -> int:
    rel_tol = Fraction(rel_tol)
    if rel_tol <= 0:
        return 60
    return max(1, math.ceil(-log10_of(rel_tol)) if rel_tol < 1 else 1)


def certify(entry: SpecEntry, params: dict, *, what: str = "expr", rel_tol=Fraction(1, 10**30),
            hint: Fraction | None = None) -> tuple[Fraction, Fraction, int]:
    """(lo, hi, bits): certified ends of min over the range of sign * expr (see the module docstring, step 3).

    ``params`` are exact rationals.  Raises CertificationError when the width ``rel_tol`` cannot be certified."""
    an = quasiconvexity(entry.id, what)
    rel_tol = Fraction(rel_tol)
    digits = _digits_of(rel_tol)
    best = None
    for attempt in range(4):
        dps = digits + 15 + 20 * attempt
        root = _root_mp(an, params, dps, hint)
        if root is None:
            raise CertificationError(f"{entry.id}: the objective has no interior minimum at these parameters "
                                     f"(its derivative's sign factor does not change sign)")
        ctx, cm = root
        c = _mp_to_fraction(ctx, cm)
        hint = c
        span = c - an.a_lo
        bits = 4 * dps + 64
        # window: wide enough that S changes sign across it, narrow enough that g'' w^2 is below the tolerance
        for wexp in (digits // 2 + 3 + 10 * attempt, digits // 2 + 1, digits // 3 + 1, 6, 3):
            w = span / 10**wexp
            w = Fraction(math.ldexp(float(w), 0)) if Fraction(1, 10**300) < w < 10**300 else w  # a short rational
            with arb_prec(bits):
                env = {k: fraction_to_arb(v) for k, v in params.items()}
                r = _lower_bound_at(an, env, c, w)
            if r is None:
                continue
            lo, hi = r
            if best is None or hi - lo < best[1] - best[0]:
                best = (lo, hi, bits)
            if hi - lo <= abs(hi) * rel_tol or hi - lo <= Fraction(1, 10**300):
                return lo, hi, bits
            break  # the window was certified but too loose: retry with a finer root and window
    if best is not None and rel_tol >= 1:
        return best
    raise CertificationError(f"{entry.id}: could not certify the optimum to relative width {float(rel_tol):.3g}"
                             + (f" (best {float((best[1] - best[0]) / abs(best[1])) if best[1] else 0:.3g})"
                                if best else ""))


def enclose_optimum(entry: SpecEntry, inp, *, what: str = "expr", rel_tol=1e-30,
                    hint: Fraction | None = None) -> Enclosure:
    """Certified Enclosure of inf (sup) over the entry's Optimize variable at ``inp`` (module docstring)."""
    params = dict(inp.params)
    if inp.aggregates:
        for k, v in inp.aggregates.items():  # aggregates enter as exact values only
            if not (isinstance(v, tuple) and v[0] == v[1]):
                raise CertificationError(f"{entry.id}: optimization over an aggregate enclosure is not supported")
            params[k] = v[0]
    rel = Fraction(rel_tol) if not isinstance(rel_tol, Fraction) else rel_tol
    lo, hi, bits = certify(entry, params, what=what, rel_tol=rel, hint=hint)
    an = quasiconvexity(entry.id, what)
    if an.sign < 0:
        lo, hi = -hi, -lo
    return Enclosure(lo, hi, bits)


def value_mp_optimum(entry: SpecEntry, inp, digits: int, what: str = "expr"):
    """(ctx, value): the optimum computed by mpmath alone (private context, ``digits`` + guard digits).

    Independent of the arb certificate: the sign change of S found to full precision, then g there."""
    an = quasiconvexity(entry.id, what)
    params = dict(inp.params)
    for k, v in (inp.aggregates or {}).items():
        params[k] = (v[0] + v[1]) / 2
    r = _root_mp(an, params, digits + 20)
    if r is None:
        raise CertificationError(f"{entry.id}: the objective has no interior minimum at these parameters")
    ctx, c = r
    g_fn, _ = an.mp_fns(ctx)
    env = {k: ctx.mpf(v.numerator) / v.denominator for k, v in params.items()}
    env[an.var] = c
    return ctx, an.sign * g_fn(env)


def lower_bound_exceeds(entry: SpecEntry, params: dict, threshold: Fraction, *, what: str = "expr",
                        hint: Fraction | None = None, bits: int = 160, digits: int = 35,
                        search: bool = True) -> bool:
    """True iff arb certifies inf over the range of (sign * expr) > threshold (False = not certified).

    With a ``hint`` (a near-optimal point) the window is first tried there; ``search=False`` stops at that."""
    an = quasiconvexity(entry.id, what)
    cands = [hint] if hint is not None and hint > an.a_lo else []
    for c in cands + ([None] if search or not cands else []):
        if c is None:  # the hint did not certify: locate the optimum in mpmath
            root = _root_mp(an, params, digits, hint)
            if root is None:
                return False
            c = _mp_to_fraction(*root)
        span = c - an.a_lo
        with arb_prec(bits):
            env = {k: fraction_to_arb(v) for k, v in params.items()}
            # the window's loss is ~ g'' w^2: a threshold within 10^-digits of the optimum needs w ~ 10^-(digits/2)
            for wexp in sorted({max(11, digits // 2 + 3), 11, 8, 5}, reverse=True):
                r = _lower_bound_at(an, env, c, span / 10**wexp)
                if r is not None and r[0] > threshold:
                    return True
                if r is not None:
                    break  # window certified but not above the threshold: a narrower one will not help much
    return False


def value_at_arb(an: Analysis, params: dict, point: Fraction, bits: int = 160) -> tuple[Fraction, Fraction]:
    """Certified ends of (sign * expr) at one value of the variable (an upper bound of the infimum: its hi)."""
    with arb_prec(bits):
        env = {k: fraction_to_arb(v) for k, v in params.items()}
        env[an.var] = fraction_to_arb(point)
        ends = arb_endpoints(an.f_arb(env))
    if ends is None:
        raise NotCertified("non-finite value")
    return ends
