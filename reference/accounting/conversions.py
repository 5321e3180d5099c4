"""zCDP -> (eps, delta)-DP conversions and the B* solver, every formula evaluated from its spec entry.

* :func:`eps_upper` (rho, delta) -> float64 >= the eps the conversion certifies (the fast default: scalars or numpy
  arrays, from :mod:`dpbounds.accounting.fast_conversions`); :func:`eps_of` -> its certified Enclosure when asked;
* :func:`delta_upper` (rho, eps) -> float64 >= the CKS20 delta at eps; :func:`delta_of` -> its Enclosure;
* :func:`b_star_lower` (eps_g, delta_g) -> float64 <= B* (never overstated; scalars or arrays);
* :func:`b_star` (eps_g, delta_g) -> :class:`BStar`, B* = sup{rho >= 0 : the conversion turns rho-zCDP into
  (eps_g, delta_g)-DP}, with a certified bracket [lo, hi]: lo certified feasible, hi certified infeasible.
  ``BStar.b_star`` is lo, so B* is never overstated.

Conversions (spec ids in brackets): ``bs16`` [conversions.bs16, conversions.bs16.b_star] (Bun-Steinke Prop 1.3),
``cks20`` [conversions.cks20, conversions.cks20.delta] (Canonne-Kamath-Steinke Prop 12, inf over alpha, certified
by :mod:`dpbounds.evaluation.optimize`), ``mironov`` [conversions.mironov] (one given alpha), and ``gauss``
[conversions.gauss.delta]: the Gaussian mechanism's exact curve -- the limit no general conversion can beat, NOT a
valid general conversion (``BStar.valid_conversion`` is False).  Containment: B*_bs16 <= B*_cks20 <= B*_gauss.

Method: a floating-point or mpmath solve finds a candidate (never trusted); each end of a bracket is then
decided by a certified arb evaluation of the spec expression, using the monotonicity each entry declares
(``monotone=``): delta_conv increases in rho and decreases in eps; eps_conv decreases in delta.

Domain: rho >= 0, 0 < delta < 1, eps >= 0, eps_g > 0, 0 < delta_g < 1; violations raise spec.DomainError.
"""

from __future__ import annotations

import decimal

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import sympy as sp
from flint import arb

from dpbounds import spec
from dpbounds.spec import DomainError, parse_exact
from dpbounds.spec.core import Exact

from dpbounds.accounting import fast_conversions as _fast, fast_conversions as fc
from dpbounds.accounting.fast_conversions import b_star_lower, delta_upper, eps_interval, eps_upper  # noqa: F401
from dpbounds.evaluation import optimize as _opt
from dpbounds.evaluation.evaluate import CertificationError, Enclosure, Inputs, enclose_inputs, decimal_str
from dpbounds.evaluation.interp import ArbBackend, MpBackend, NotCertified, compile_expr
from dpbounds.evaluation.numeric import arb_endpoints, arb_prec, fraction_to_arb, log10_of, mp_context
from dpbounds.util import show
from dpbounds.evaluation.digits import backed_floor_digits

CONVERSIONS = ("bs16", "cks20", "mironov", "gauss")
VALID = {"bs16": True, "cks20": True, "mironov": True, "gauss": False}
_WHERE = "dpbounds.accounting.conversions"
_ARB = ArbBackend()
_MARGINS = (Fraction(1, 10**24), Fraction(1, 10**20), Fraction(1, 10**16), Fraction(1, 10**12), Fraction(1, 10**8),
            Fraction(1, 10**5), Fraction(1, 10**3))


# ------------------------------------------------------------------------------------------ plumbing

def _check_conv(conversion: str, allowed=CONVERSIONS) -> None:
    if conversion not in allowed:
        raise DomainError("conversion", conversion, f"one of {', '.join(allowed)}", _WHERE)


@lru_cache(maxsize=None)
def _eps_name(entry_id: str) -> str:
    """The name the entry gives its target epsilon (its one parameter other than rho)."""
    return [p for p in spec.get(entry_id).params if p != "rho"][0]


@lru_cache(maxsize=None)
def _arb_fn(entry_id: str):
    return compile_expr(spec.get(entry_id).expr, _ARB)


def _arb_ends(entry_id: str, params: dict, bits: int = 192) -> tuple[Fraction, Fraction] | None:
    """Certified rational ends of the spec expression at exact parameters (None if arb cannot enclose it)."""
    try:
        with arb_prec(bits):
            v = _arb_fn(entry_id)({k: fraction_to_arb(q) for k, q in params.items()})
            return arb_endpoints(v) if v is not None and not isinstance(v, bool) else None
    except (NotCertified, ZeroDivisionError, ValueError):
        return None


def _enc(entry_id: str, params: dict, rel_tol) -> Enclosure:
    """Certified enclosure through dpbounds.evaluation.evaluate (domain checked exactly by the entry)."""
    e = spec.get(entry_id)
    opt = e.optimize.var if e.optimize is not None else None
    vals = e.check_values({k: v for k, v in params.items() if k != opt})
    if opt is not None and opt in params:
        vals[opt] = params[opt]
    return enclose_inputs(e, Inputs(vals, {}), rel_tol=rel_tol)


@lru_cache(maxsize=None)
def _mp_fn(entry_id: str, dps: int):
    """(ctx, fn): the spec expression compiled for a private mpmath context, made once per precision."""
    ctx = mp_context(dps)
    return ctx, compile_expr(spec.get(entry_id).expr, MpBackend(ctx))


def _mp(ctx, q: Fraction):
    return ctx.mpf(q.numerator) / q.denominator


def _to_frac(ctx, v) -> Fraction:
    return _opt._mp_to_fraction(ctx, v)


def _bracket(x_hat: Fraction, test, feasible_below: bool):
    """(lo, hi) around x_hat with test(lo), test(hi) certified on the two sides, or None.

    ``test(x)`` is True (certified feasible), False (certified infeasible) or None (undecided)."""
    want_lo, want_hi = (True, False) if feasible_below else (False, True)
    for m in _MARGINS:
        lo, hi = x_hat * (1 - m), x_hat * (1 + m)
        if test(lo) is want_lo and test(hi) is want_hi:
            return lo, hi
    return None


def _parse(name: str, value, where: str = _WHERE) -> Fraction:
    return parse_exact(name, value, where)


def _check_rho_delta(rho, delta) -> tuple[Fraction, Fraction]:
    rho, delta = _parse("rho", rho), _parse("delta", delta)
    if rho < 0:
        raise DomainError("rho", rho, "rho >= 0", _WHERE)
    if not 0 < delta < 1:
        raise DomainError("delta", delta, "0 < delta < 1", _WHERE)
    return rho, delta


def _clamp0(enc: Enclosure) -> Enclosure:
    """eps < 0 certifies nothing beyond eps = 0 (the bound is then vacuous), so clamp at 0."""
    return Enclosure(max(enc.lo, Fraction(0)), max(enc.hi, Fraction(0)), enc.bits)


# ------------------------------------------------------------------------------------------ fast certificate

def _float_alpha(entry_id: str, params: dict) -> float | None:
    """A near-optimal alpha from the float solvers of dpbounds.accounting.fast_conversions (a heuristic)."""
    try:
        r = float(params["rho"])
        if not 1e-300 < r < 1e300:
            return None
        if entry_id == "conversions.cks20":
            d = float(params["delta"])
            if not 0 < d < 1:
                return None
            a = fc._alpha_eps(fc._MATH, r, -math.log(d), None, 3)  # (3 steps: the window below is 2^-40 wide)
        else:
            a = fc._alpha_delta(fc._MATH, r, float(params["eps_g"]), 2.0 ** -45)  # (the 2^-40 window below)
    except (ValueError, OverflowError, ZeroDivisionError):
        return None
    return a if math.isfinite(a) and a > 1 else None


def _fast_certify(entry_id: str, params: dict, rel_tol: Fraction) -> Enclosure | None:
    """The certified enclosure of the infimum from ONE window at a float-optimal alpha (None: use the full path).

    The certificate is dpbounds.evaluation.optimize's (module docstring, step 3: arb proves S(c - w) < 0 < S(c + w),
    then inf >= g(c) - sup|g'| w, and g(c) bounds it from above), at the precision the width needs; only the
    near-optimal point c comes from floats (Halley's method), which the certificate does not trust.  The window's
    loss is ~ g'' w^2 with w = 2^-k (c - 1), so one float alpha (relative error ~1e-13) certifies widths down to ~1e-24."""
    if rel_tol <= Fraction(1, 10**22):
        return None
    a = _float_alpha(entry_id, params)
    if a is None:
        return None
    an = _opt.quasiconvexity(entry_id)
    c = Fraction(a)
    k = 24 if rel_tol >= Fraction(1, 10**12) else 40
    w = (c - 1) / 2**k
    bits = max(64, int(-log10_of(rel_tol) * 3.33) + 48) if rel_tol < 1 else 64
    with arb_prec(bits):
        r = _opt._lower_bound_at(an, {n: fraction_to_arb(q) for n, q in params.items()}, c, w)
    if r is None:
        return None
    lo, hi = r
    if hi - lo <= abs(hi) * rel_tol:
        return Enclosure(lo, hi, bits)
    return None


@lru_cache(maxsize=64)
def _window_bits(rel_tol: Fraction) -> tuple[int, int, float]:
    """(k, bits, t) of a CKS20 window: half-width w = 2^-k (c - 1), the arb precision for relative width rel_tol,
    and a float t <= rel_tol (the width test below is decided against t, so passing it implies rel_tol)."""
    k = 24 if rel_tol >= Fraction(1, 10**12) else 40
    t = float(rel_tol)
    if Fraction(t) > rel_tol:
        t = math.nextafter(t, 0.0)
    return k, (max(64, int(-log10_of(rel_tol) * 3.33) + 48) if rel_tol < 1 else 64), t


def _window(a: float, k: int) -> tuple[arb, arb, arb, arb] | None:
    """(c, w, c - w, c + w) for the window at the float order c = a, w = 2^-k (c - 1), in arb at the current
    precision (call inside arb_prec); None when a is not a finite order > 1 or an end is not exact (a window whose
    ends are balls would not bound the orders between them)."""
    if not (math.isfinite(a) and a > 1):
        return None
    C = arb(a)
    W = (C - 1) / (1 << k)
    a_lo, a_hi = C - W, C + W
    if not (W.is_exact() and a_lo.is_exact() and a_hi.is_exact()) or not a_lo > 1:
        return None
    return C, W, a_lo, a_hi


def _window_enclosure(low: arb, high: arb, t: float, bits: int) -> Enclosure | None:
    """Enclosure [lower end of low, upper end of high] when arb certifies its width <= t |upper end| (inside
    arb_prec: the ends are the outward roundings at the current precision, exact arbs, so the test is on them)."""
    if not (low.is_finite() and high.is_finite()):
        return None
    lo, hi = low.lower(), high.upper()
    if not (hi - lo <= abs(hi) * t):
        return None
    ends_l, ends_h = arb_endpoints(lo), arb_endpoints(hi)
    if ends_l is None or ends_h is None:
        return None
    return Enclosure(ends_l[0], ends_h[1], bits)


def _cks20_eps_window(rho: Fraction, delta: Fraction, rel_tol: Fraction) -> Enclosure | None:
    """The certified CKS20 eps (inf over alpha > 1 of g(a) = a rho + log(1 - 1/a) + (L - log a)/(a - 1), L =
    log(1/delta)) from one window [c - w, c + w] at a float-optimal c, written out in arb (None: use the general
    path).  The argument is :mod:`dpbounds.evaluation.optimize`'s (module docstring, step 3) on this objective:
    g'(a) = S(a)/(a - 1)^2 with S(a) = rho (a - 1)^2 + log a - L nondecreasing for a > 1 (S' = 2 rho (a - 1) + 1/a
    > 0; the sympy proof is optimize.quasiconvexity("conversions.cks20")).  If arb certifies S(c - w) < 0 < S(c + w),
    g decreases left of the window and increases right of it, so the infimum is min g on the window, which is
    >= g(c) - sup|g'| w by the mean-value theorem; on the window |S| <= max(-S(c - w), S(c + w)) (S monotone) and
    (a - 1)^2 >= (c - w - 1)^2, so sup|g'| needs no further evaluation.  hi: the upper end of g(c) (any order
    bounds an infimum from above).  Only c comes from floats, and nothing trusts it."""
    try:
        r, d = float(rho), float(delta)
    except OverflowError:  # (beyond float64: the general path decides)
        return None
    if not (1e-300 < r < 1e300 and 1e-300 < d < 1):
        return None
    try:
        a = fc._alpha_eps(fc._MATH, r, -math.log(d), None, 3)
    except (ValueError, OverflowError, ZeroDivisionError):
        return None
    k, bits, t = _window_bits(rel_tol)
    with arb_prec(bits):
        window = _window(a, k)
        if window is None:
            return None
        C, W, a_lo, a_hi = window
        R = fraction_to_arb(rho)
        L = -fraction_to_arb(delta).log()
        x_lo = a_lo - 1
        s_lo = R * x_lo * x_lo + a_lo.log() - L
        if not s_lo < 0:
            return None
        x_hi = a_hi - 1
        s_hi = R * x_hi * x_hi + a_hi.log() - L
        if not s_hi > 0:
            return None
        g = R * C + (-1 / C).log1p() + (L - C.log()) / (C - 1)
        return _window_enclosure(g - (-s_lo).max(s_hi) / (x_lo * x_lo) * W, g, t, bits)


def _cks20_delta_window(rho: Fraction, eps: Fraction, rel_tol: Fraction) -> Enclosure | None:
    """The certified CKS20 delta (inf over alpha > 1 of exp((a - 1)(a rho - eps))/(a - 1) (1 - 1/a)^a) from one window
    at a float-optimal c, written out in arb (None: use the general path).  In logs, h(a) = (a - 1)(a rho - eps) -
    log(a - 1) + a log(1 - 1/a) has h'(a) = S(a) = (2a - 1) rho - eps + log(1 - 1/a), increasing for a > 1 (S' =
    2 rho + 1/(a(a - 1)) > 0).  If arb certifies S(c - w) < 0 < S(c + w), the infimum of h is min h on the window,
    >= h(c) - max(-S(c - w), S(c + w)) w (mean-value theorem, S monotone); delta = e^h is increasing in h, so
    [exp(that), exp(h(c))] encloses the infimum of delta."""
    try:
        r, e = float(rho), float(eps)
    except OverflowError:  # (beyond float64: the general path decides)
        return None
    if not (1e-300 < r < 1e300 and 0 <= e < 1e300):
        return None
    try:
        a = fc._alpha_delta(fc._MATH, r, e, 2.0 ** -45)
    except (ValueError, OverflowError, ZeroDivisionError):
        return None
    k, bits, t = _window_bits(rel_tol)
    with arb_prec(bits):
        window = _window(a, k)
        if window is None:
            return None
        C, W, a_lo, a_hi = window
        R, E = fraction_to_arb(rho), fraction_to_arb(eps)
        s_lo = (2 * a_lo - 1) * R - E + (-1 / a_lo).log1p()
        if not s_lo < 0:
            return None
        s_hi = (2 * a_hi - 1) * R - E + (-1 / a_hi).log1p()
        if not s_hi > 0:
            return None
        h = (C - 1) * (C * R - E) - (C - 1).log() + C * (-1 / C).log1p()
        enc = _window_enclosure((h - (-s_lo).max(s_hi) * W).exp(), h.exp(), t, bits)
    return None if enc is None or enc.lo < 0 else enc  # (an exp is > 0: a negative end is a failed ball)


# ------------------------------------------------------------------------------------------ eps_of

def eps_of(rho: Exact, delta: Exact, conversion: str = "cks20", alpha: Exact | None = None,
           rel_tol: Exact = Fraction(1, 10**20)) -> Enclosure:
    """Enclosure of the eps that rho-zCDP gives at delta under the conversion (clamped at 0).

    For the float64 upper bound alone use :func:`eps_upper` (same guarantee: never below the exact value; ~20x
    faster, arrays too).  cks20 here: one arb window at a float-optimal alpha (:func:`_fast_certify`) when it meets
    ``rel_tol``, else the full certified optimizer.
    bs16: rho + 2 sqrt(rho log(1/delta)); mironov: at the given alpha; cks20: inf over alpha (certified);
    gauss: the smallest eps >= 0 with delta_gauss(rho, eps) <= delta (the Gaussian limit, not a conversion).
    Domain: rho >= 0, 0 < delta < 1 (alpha > 1 for mironov)."""
    _check_conv(conversion)
    rho, delta = _check_rho_delta(rho, delta)
    if conversion == "bs16":
        return _enc("conversions.bs16", {"rho": rho, "delta": delta}, rel_tol)
    if conversion == "mironov":
        if alpha is None:
            raise DomainError("alpha", None, "alpha > 1 (the Renyi order) for the 'mironov' conversion",
                              "conversions.mironov")
        return _enc("conversions.mironov", {"rho": rho, "delta": delta, "alpha": _parse("alpha", alpha)}, rel_tol)
    if conversion == "cks20":
        params = {"rho": rho, "delta": delta}
        rel_tol = rel_tol if type(rel_tol) is Fraction else _parse("rel_tol", rel_tol)
        fast = _cks20_eps_window(rho, delta, rel_tol)
        if fast is not None:
            return fast if fast.lo >= 0 else _clamp0(fast)
        fast = _fast_certify("conversions.cks20", params, rel_tol)
        if fast is not None:
            return _clamp0(fast)
        lo, hi, bits = _opt.certify(spec.get("conversions.cks20"), params, rel_tol=Fraction(rel_tol))
        return _clamp0(Enclosure(lo, hi, bits))
    return _gauss_eps(rho, delta)


def _gauss_test(rho: Fraction, eps: Fraction, delta: Fraction, max_bits: int = 512):
    """True iff certified delta_gauss(rho, eps) <= delta; False iff certified >; None otherwise (up to max_bits:
    a rho within 10^-d of B* needs about 3.3 d bits)."""
    if rho == 0:
        return True  # mu = 0: the two Gaussians coincide, delta(eps) = 0 for every eps >= 0
    for bits in sorted({192, 512, max_bits}):
        ends = _arb_ends("conversions.gauss.delta", {"rho": rho, _eps_name("conversions.gauss.delta"): eps}, bits)
        if ends is not None:
            if ends[1] <= delta:
                return True
            if ends[0] > delta:
                return False
    return None


def _gauss_eps(rho: Fraction, delta: Fraction) -> Enclosure:
    """Enclosure of min{eps >= 0 : delta_gauss(rho, eps) <= delta} (delta_gauss decreases in eps)."""
    t0 = _gauss_test(rho, Fraction(0), delta)
    if t0 is True:
        return Enclosure(Fraction(0), Fraction(0), 0)
    ctx, f = _mp_fn("conversions.gauss.delta", 40)
    r, ld = _mp(ctx, rho), ctx.log(_mp(ctx, delta))

    def G(e):  # increasing in e
        try:
            v = f({"rho": r, _eps_name("conversions.gauss.delta"): e})
            return -(ctx.log(v) - ld) if v > 0 else ctx.inf
        except (ValueError, ZeroDivisionError, OverflowError):  # (mpmath's erfc at a huge argument)
            return None
    # bs16's eps is feasible for the Gaussian curve (a valid conversion is never below the limit)
    hi = _mp(ctx, _enc("conversions.bs16", {"rho": rho, "delta": delta}, Fraction(1, 10**20)).hi) + 1
    while G(hi) is not None and G(hi) < 0:
        hi *= 2
    e_hat = _to_frac(ctx, _opt._illinois(G, ctx.mpf(0), hi, ctx))
    br = _bracket(e_hat, lambda e: _gauss_test(rho, e, delta), feasible_below=False) if e_hat > 0 else None
    if br is None:
        br = _bisect(lambda e: _gauss_test(rho, e, delta), Fraction(0), Fraction(_to_frac(ctx, hi)), False)
    return Enclosure(br[0], br[1], 0)


def _bisect(test, lo: Fraction, hi: Fraction, feasible_below: bool, steps: int = 200,
            rel_tol: Fraction = Fraction(1, 10**15)):
    """Certified bisection (slow path): returns (lo, hi) with the ends decided on their sides where possible."""
    good, bad = (True, False) if feasible_below else (False, True)
    for _ in range(steps):
        if hi - lo <= abs(hi) * rel_tol:
            break
        mid = (lo + hi) / 2
        t = test(mid)
        if t is good:
            lo = mid
        elif t is bad:
            hi = mid
        else:
            break
    return lo, hi


# ------------------------------------------------------------------------------------------ delta_of

def delta_of(rho: Exact, eps: Exact, conversion: str = "cks20", alpha: Exact | None = None) -> Enclosure:
    """Enclosure of the delta that rho-zCDP gives at eps under the conversion (for cks20's float64 upper bound alone:
    :func:`delta_upper`).

    gauss: the exact curve; cks20: inf over alpha of the delta form (certified); bs16 / mironov:
    inf{delta in (0, 1) : eps_conv(rho, delta) <= eps} (1 when no delta < 1 works: the vacuous guarantee).
    rho = 0 gives 0 for bs16, cks20 (the infimum as alpha -> oo: each term exp(-(a-1) eps)(1-1/a)^a/(a-1) -> 0)
    and gauss.  Domain: rho >= 0, eps >= 0."""
    _check_conv(conversion)
    rho, eps = _parse("rho", rho), _parse("eps", eps)
    if rho < 0 or eps < 0:
        raise DomainError("rho" if rho < 0 else "eps", rho if rho < 0 else eps, ">= 0", _WHERE)
    if rho == 0 and conversion in ("bs16", "cks20", "gauss"):
        return Enclosure(Fraction(0), Fraction(0), 0)
    if conversion == "gauss":
        return _enc("conversions.gauss.delta", {"rho": rho, _eps_name("conversions.gauss.delta"): eps},
                    Fraction(1, 10**20))
    if conversion == "cks20":
        e = spec.get("conversions.cks20.delta")
        params = {"rho": rho, _eps_name(e.id): eps}
        fast = _cks20_delta_window(rho, eps, Fraction(1, 10**20))
        if fast is None:
            fast = _fast_certify(e.id, params, Fraction(1, 10**20))
        if fast is not None:
            return fast
        lo, hi, bits = _opt.certify(e, params, rel_tol=Fraction(1, 10**20))
        return Enclosure(lo, hi, bits)
    entry_id = "conversions.bs16" if conversion == "bs16" else "conversions.mironov"
    extra = {}
    if conversion == "mironov":
        if alpha is None:
            raise DomainError("alpha", None, "alpha > 1 for the 'mironov' conversion", "conversions.mironov")
        extra["alpha"] = _parse("alpha", alpha)
        if not extra["alpha"] > 1:
            raise DomainError("alpha", extra["alpha"], "alpha > 1", "conversions.mironov")

    def test(d: Fraction):  # feasible iff eps_conv(rho, d) <= eps (eps_conv decreases in d)
        ends = _arb_ends(entry_id, {"rho": rho, "delta": d, **extra})
        return None if ends is None else (True if ends[1] <= eps else (False if ends[0] > eps else None))

    # at delta = 1 (log(1/delta) = 0) the formula is the limit of eps_conv as delta -> 1-: if that is already
    # > eps, no delta < 1 is certified
    at1 = test(Fraction(1))
    if at1 is False:
        return Enclosure(Fraction(1), Fraction(1), 0)
    ctx, f = _mp_fn(entry_id, 40)
    env = {"rho": _mp(ctx, rho), **{k: _mp(ctx, v) for k, v in extra.items()}}
    target = _mp(ctx, eps)

    def H(t):  # eps_conv at delta = e^-t, minus eps: increasing in t
        e = dict(env)
        e["delta"] = ctx.exp(-t)
        return f(e) - target
    hi = ctx.mpf(1)
    while H(hi) < 0:
        hi *= 2
    t_hat = _opt._illinois(H, ctx.mpf(0), hi, ctx)
    d_hat = _to_frac(ctx, ctx.exp(-t_hat))
    br = _bracket(d_hat, test, feasible_below=False)
    if br is None:
        raise CertificationError(f"{entry_id}: could not certify delta at rho={rho}, eps={eps}")
    return Enclosure(br[0], br[1], 0)


# ------------------------------------------------------------------------------------------ B*

class LowerEnd(Fraction):
    """An exact rational that reads as a short decimal: a :class:`~fractions.Fraction` in every respect (compare,
    add, ``float()``, ``Fraction(x)`` give the exact value; arithmetic returns plain Fractions), whose ``str`` is
    its decimal rounded *down* to 21 significant digits (a true lower bound; exact when shorter) and whose ``repr``
    says so.  ``x.exact`` is the plain Fraction.  Used for :attr:`BStar.b_star` (before, an 85-digit fraction)."""

    __slots__ = ()

    @property
    def exact(self) -> Fraction:
        """The exact value as a plain Fraction."""
        return Fraction(self)

    def __str__(self) -> str:
        return show.number(Fraction(self), 21, "floor")

    def __repr__(self) -> str:
        s = str(self)
        tail = "" if Fraction(decimal.Decimal(s)) == self else "... (rounded down; .exact is the Fraction)"
        return f"{s}{tail}"


@dataclass(frozen=True)
class BStar:
    """B* with its certified bracket; ``b_star`` is the lower end (certified feasible), never overstated.

    ``b_star`` is exact (a :class:`LowerEnd`, i.e. a Fraction that prints as its first 21 digits rounded down);
    ``str(b)`` is one readable line; :meth:`as_dict` gives any number of certified digits."""

    b_star: Fraction
    bracket: tuple[Fraction, Fraction]
    conversion: str
    valid_conversion: bool

    def __post_init__(self) -> None:
        object.__setattr__(self, "b_star", LowerEnd(self.b_star))

    def __str__(self) -> str:
        valid = "" if self.valid_conversion else " (the Gaussian limit, not a valid general conversion)"
        return (f"B*_{self.conversion} >= {self.b_star} (certified lower end; B* in "
                f"{show.interval(*self.bracket, digits=21)}){valid}")

    def __repr__(self) -> str:
        valid = "" if self.valid_conversion else "; the Gaussian limit, not a valid general conversion"
        return (f"<BStar {self.conversion}: B* in {show.interval(*self.bracket)} (certified enclosure); "
                f"b_star = its lower end{valid}>")

    def as_dict(self, digits: int = 20) -> dict[str, Any]:
        return {"b_star": decimal_str(self.b_star, digits, "floor"),
                "bracket": [decimal_str(self.bracket[0], digits, "floor"),
                            decimal_str(self.bracket[1], digits, "ceiling")],
                "conversion": self.conversion, "valid_conversion": self.valid_conversion}


#: the largest eps_g for which :func:`b_star` is computed (checked: every conversion certifies up to 1e10; from
#: about 1e20 the float64 Newton starts and the Gaussian curve's exp(eps_g) overflow)
MAX_B_STAR_EPS_G = 10**10
#: the most significant digits b_star(digits=...) is asked for (the cost grows with the digits asked, not beyond)
MAX_B_STAR_DIGITS = 1000


def b_star(eps_g: Exact, delta_g: Exact, conversion: str = "cks20", rel_tol: Exact | None = None, *,
           digits: int | None = None) -> BStar:
    """B*(eps_g, delta_g; conversion) = sup{rho >= 0 : delta_conv(rho, eps_g) <= delta_g}, certified bracket.

    bs16: the closed form conversions.bs16.b_star, each end re-checked through conversions.bs16; cks20: a
    Newton solve in floats on min_alpha eps_cks20(rho) = eps_g, then lo certified by one alpha (any alpha gives a
    valid eps) and hi certified by dpbounds.evaluation.optimize's quasi-convexity window; gauss: an mpmath solve on the exact
    curve, both ends decided by arb.  Domain: eps_g > 0, 0 < delta_g < 1.  ``rel_tol`` (optional): the bracket is
    narrowed by certified bisection until (hi - lo) <= rel_tol * hi, or CertificationError says it cannot be; without
    it the bracket is as tight as the first certificate allows (typically 1e-20 relative).  ``digits`` (optional,
    1..1000): the bracket is narrowed until its two ends agree on that many significant digits (rounded down),
    or CertificationError with the bracket reached (:func:`b_star_to_digits`)."""
    if digits is not None:
        if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= MAX_B_STAR_DIGITS:
            raise DomainError("digits", digits, f"an integer in [1, {MAX_B_STAR_DIGITS}]",
                              "dpbounds.accounting.conversions.b_star")
        b, got = b_star_to_digits(eps_g, delta_g, conversion, digits)
        if got < digits:
            exc = CertificationError(f"conversions.{conversion}: B* certified to {got} of {digits} digits at "
                                     f"eps_g={eps_g}, delta_g={delta_g}")
            exc.bracket = b.bracket
            raise exc
        return b
    _check_conv(conversion, ("bs16", "cks20", "gauss"))
    eps_g = _parse("eps_g", eps_g, "dpbounds.accounting.conversions.b_star")
    delta_g = _parse("delta_g", delta_g, "dpbounds.accounting.conversions.b_star")
    if not eps_g > 0:
        raise DomainError("eps_g", eps_g, "eps_g > 0", "dpbounds.accounting.conversions.b_star")
    if eps_g > MAX_B_STAR_EPS_G:
        raise DomainError("eps_g", eps_g, f"eps_g <= {MAX_B_STAR_EPS_G}", "dpbounds.accounting.conversions.b_star",
                          "a limit of the B* solvers (float64 starting points, exp(eps_g) on the Gaussian curve), "
                          "not of the theorems; such an eps_g is no privacy guarantee anyway")
    if not 0 < delta_g < 1:
        raise DomainError("delta_g", delta_g, "0 < delta_g < 1", "dpbounds.accounting.conversions.b_star")
    if conversion == "bs16":
        lo, hi = _b_star_bs16(eps_g, delta_g)
    elif conversion == "cks20":
        lo, hi = _b_star_cks20(eps_g, delta_g)
    else:
        lo, hi = _b_star_gauss(eps_g, delta_g)
    if rel_tol is not None and hi - lo > hi * _parse("rel_tol", rel_tol):
        lo, hi = _narrow_b_star(eps_g, delta_g, conversion, lo, hi, _parse("rel_tol", rel_tol))
    return BStar(lo, (lo, hi), conversion, VALID[conversion])


def _narrow_b_star(eps_g: Fraction, delta_g: Fraction, conversion: str, lo: Fraction, hi: Fraction,
                   rel_tol: Fraction) -> tuple[Fraction, Fraction]:
    """[lo, hi] narrowed by certified bisection to relative width rel_tol (each end decided on its side)."""
    digits = max(20, -math.floor(log10_of(rel_tol)) + 10) if rel_tol > 0 else 20
    if conversion == "bs16":
        test = _bs16_test(eps_g, delta_g, int(digits * 3.33) + 64)
    elif conversion == "gauss":
        def test(r: Fraction):
            return _gauss_test(r, eps_g, delta_g, int(digits * 3.33) + 64)
    else:
        test = _cks20_test(eps_g, delta_g, digits)
        lo, hi = _narrow_cks20_newton(test, eps_g, delta_g, lo, hi, rel_tol, digits)
    lo, hi = _bisect(test, lo, hi, True, steps=4 * digits + 80, rel_tol=rel_tol)
    if hi - lo > hi * rel_tol:
        exc = CertificationError(f"conversions.{conversion}: B* certified only to relative width "
                                 f"{float((hi - lo) / hi):.3g} > {float(rel_tol):.3g} at eps_g={eps_g}, delta_g={delta_g}")
        exc.bracket = (lo, hi)  # the narrowest certified bracket, for a caller that reports how many digits it backs
        raise exc
    return lo, hi


def _narrow_cks20_newton(test, eps_g: Fraction, delta_g: Fraction, lo: Fraction, hi: Fraction, rel_tol: Fraction,
                         digits: int) -> tuple[Fraction, Fraction]:
    """[lo, hi] narrowed around a high-precision Newton estimate of B*_cks20: two certified tests instead of the
    ~3.3 bisection steps per digit (400 digits: ~1300 tests).  The estimate is a heuristic; only test() decides,
    and each end that it does not certify stays where it was (the caller's bisection goes on from there)."""
    r_hat = _cks20_mp_rho(eps_g, delta_g, (lo + hi) / 2, digits)
    if r_hat is None or not lo < r_hat < hi:
        return lo, hi
    m = rel_tol / 4
    a, b = r_hat * (1 - m), r_hat * (1 + m)
    if test(a) is True:
        lo = a
    if test(b) is False:
        hi = b
    return lo, hi


def _cks20_mp_rho(eps_g: Fraction, delta_g: Fraction, rho0: Fraction, digits: int) -> Fraction | None:
    """B*_cks20 to about ``digits`` digits by Newton on the concave F(rho) = min_alpha g(alpha, rho), whose slope is
    the optimal alpha (g is affine in rho with slope alpha: _cks20_parts); quadratic from a 1e-20 start.  Heuristic."""
    entry = spec.get("conversions.cks20")
    an = _opt.quasiconvexity("conversions.cks20")
    ctx = _opt._ctx(digits + 15)
    bits = int((digits + 20) * 3.33) + 64
    r, a = rho0, None
    for _ in range(40):
        a = _opt.argmin(entry, {"rho": r, "delta": delta_g}, digits=digits + 10, hint=a)
        if a is None:
            return None
        g_lo, g_hi = _opt.value_at_arb(an, {"rho": r, "delta": delta_g}, a, bits=bits)
        r_new = r + (eps_g - (g_lo + g_hi) / 2) / a
        if not r_new > 0:
            return None
        r_new = _to_frac(ctx, _mp(ctx, r_new))  # keep digits + 15 digits, not the growing rational
        if abs(r_new - r) <= r * Fraction(1, 10 ** (digits + 8)):
            return r_new
        r = r_new
    return r


def _cks20_test(eps_g: Fraction, delta_g: Fraction, digits: int = 20):
    """test(rho): True iff certified feasible (one alpha gives eps <= eps_g), False iff certified infeasible."""
    entry = spec.get("conversions.cks20")
    an = _opt.quasiconvexity("conversions.cks20")
    bits = max(160, int(digits * 3.33) + 64)

    def test(r: Fraction):
        a = _opt.argmin(entry, {"rho": r, "delta": delta_g}, digits=digits)
        if a is not None and _opt.value_at_arb(an, {"rho": r, "delta": delta_g}, a, bits=bits)[1] <= eps_g:
            return True
        if _opt.lower_bound_exceeds(entry, {"rho": r, "delta": delta_g}, eps_g, hint=a, bits=bits, digits=digits):
            return False
        return None
    return test


def _bs16_test(eps_g: Fraction, delta_g: Fraction, bits: int = 192):
    def test(r: Fraction):
        ends = _arb_ends("conversions.bs16", {"rho": r, "delta": delta_g}, bits)
        return None if ends is None else (True if ends[1] <= eps_g else (False if ends[0] > eps_g else None))
    return test


def _b_star_bs16(eps_g: Fraction, delta_g: Fraction) -> tuple[Fraction, Fraction]:
    enc = _enc("conversions.bs16.b_star", {"eps_g": eps_g, "delta_g": delta_g}, Fraction(1, 10**30))
    test = _bs16_test(eps_g, delta_g)
    lo, hi = enc.lo, enc.hi
    for m in _MARGINS:  # the closed form's ends, confirmed through the forward conversion (the definition of B*)
        if test(lo) is True and test(hi) is False:
            return lo, hi
        lo, hi = enc.lo * (1 - m), enc.hi * (1 + m)
    raise CertificationError(f"conversions.bs16.b_star: bracket not confirmed at eps_g={eps_g}, delta_g={delta_g}")


@lru_cache(maxsize=None)
def _cks20_parts():
    """Objects derived once from the spec entry conversions.cks20 (sympy): g is affine in rho with slope k(alpha).

    Returns (k_expr, c_expr, float g, float S, float dS, arb k, arb c) where g = k rho + c."""
    e = spec.get("conversions.cks20")
    an = _opt.quasiconvexity("conversions.cks20")
    rho, a, dl = spec.sym("rho"), spec.sym(an.var), spec.sym("delta")
    k = sp.diff(e.expr, rho)
    if k.has(rho) or sp.simplify(e.expr - (k * rho + e.expr.subs(rho, 0))) != 0:
        raise CertificationError("conversions.cks20: the expression is not affine in rho")
    c = e.expr.subs(rho, 0)
    args = (a, rho, dl)
    lam = lambda ex: sp.lambdify(args, ex, "math")  # noqa: E731 - generated from the spec expression
    return (lam(e.expr), lam(an.s), lam(sp.diff(an.s, a)), compile_expr(k, _ARB), compile_expr(c, _ARB))


def _float_root_S(sfn, dS, r: float, d: float, a0: float) -> float:
    """The root of the nondecreasing S(., r, d) by safeguarded Newton in floats (heuristic)."""
    lo, hi = 1.0, None
    a = a0
    for _ in range(200):
        s = sfn(a, r, d)
        if s < 0:
            lo = a
        else:
            hi = a
        if s == 0:
            return a
        ds = dS(a, r, d)
        nxt = a - s / ds if ds > 0 else math.nan
        if not (lo < nxt and (hi is None or nxt < hi)) or not math.isfinite(nxt):
            nxt = (lo + hi) / 2 if hi is not None else 2 * a
        if abs(nxt - a) <= 1e-16 * abs(a):
            return nxt
        a = nxt
    return a


def _cks20_float_solve(eps_g: float, delta_g: float, rho0: float) -> tuple[float, float]:
    """(rho, alpha) with min_alpha eps_cks20(rho) ~ eps_g: Newton on the concave F(rho) = min_alpha g, whose
    slope is k(alpha*) -- monotone from below (each iterate is feasible); floats, heuristic."""
    g, sfn, dS, _, _ = _cks20_parts()
    r = rho0
    a = 1.0 + math.sqrt(math.log(1 / delta_g) / r)
    for _ in range(60):
        a = _float_root_S(sfn, dS, r, delta_g, a)
        gv = g(a, r, delta_g)
        step = (eps_g - gv) / a  # the slope of g in rho is alpha (checked symbolically in _cks20_parts)
        r_new = r + step
        if abs(r_new - r) <= 1e-17 * r:
            r = r_new
            break
        r = r_new
    return r, _float_root_S(sfn, dS, r, delta_g, a)


def _b_star_cks20(eps_g: Fraction, delta_g: Fraction) -> tuple[Fraction, Fraction]:
    entry = spec.get("conversions.cks20")
    an = _opt.quasiconvexity("conversions.cks20")
    _, _, _, k_arb, c_arb = _cks20_parts()
    try:  # start Newton at the BS16 value (feasible: CKS20 is below BS16 at every alpha)
        L = math.log(1 / float(delta_g))
        r0 = (math.sqrt(L + float(eps_g)) - math.sqrt(L)) ** 2
        r_f, a_f = _cks20_float_solve(float(eps_g), float(delta_g), r0)
        ok = math.isfinite(r_f) and math.isfinite(a_f) and r_f > 0 and a_f > 1
    except (ValueError, OverflowError, ZeroDivisionError):
        ok = False
    cands = []
    if ok:
        cands.append(Fraction(a_f))
    best = None
    for a_c in cands + [None]:
        if a_c is None:  # slow path: mpmath Newton with the certified optimizer's root finder
            a_c = _cks20_mp_alpha(entry, eps_g, delta_g, _b_star_bs16(eps_g, delta_g)[0])
            if a_c is None:
                break
        # lo: rho = (eps_g - c(a_c)) / k(a_c) at this alpha, rounded down, confirmed by the spec expression
        with arb_prec(192):
            env = {"delta": fraction_to_arb(delta_g), an.var: fraction_to_arb(a_c), "rho": fraction_to_arb(Fraction(0))}
            try:
                r_ball = (fraction_to_arb(eps_g) - c_arb(env)) / k_arb(env)
            except (NotCertified, ZeroDivisionError):
                continue
            ends = arb_endpoints(r_ball)
        if ends is None:
            continue
        lo, feasible = ends[0], False
        for _ in range(3):  # confirm through the spec expression itself at this alpha (one alpha suffices)
            if lo > 0 and _opt.value_at_arb(an, {"rho": lo, "delta": delta_g}, a_c)[1] <= eps_g:
                feasible = True
                break
            lo = lo * (1 - Fraction(1, 2**90))
        if not feasible:
            continue
        for i, m in enumerate(_MARGINS[1:]):  # a float optimum certifies down to ~1e-20
            hi = lo * (1 + m)
            if _opt.lower_bound_exceeds(entry, {"rho": hi, "delta": delta_g}, eps_g, hint=a_c, search=i >= 2):
                if best is None or (hi - lo) / hi < (best[1] - best[0]) / best[1]:
                    best = (lo, hi)
                break
        if best is not None and (best[1] - best[0]) <= best[1] * Fraction(1, 10**15):
            return best  # tight enough; otherwise (float trouble) try the mpmath path too
    if best is not None:
        return best
    # last resort: certified bisection between the BS16 value and a doubling upper end
    bs_lo = _b_star_bs16(eps_g, delta_g)[0]
    def test(r: Fraction):
        if _opt.lower_bound_exceeds(entry, {"rho": r, "delta": delta_g}, eps_g):
            return False
        a = _opt.argmin(entry, {"rho": r, "delta": delta_g})
        if a is not None and _opt.value_at_arb(an, {"rho": r, "delta": delta_g}, a)[1] <= eps_g:
            return True
        return None
    hi = bs_lo * 2
    while test(hi) is not False:
        hi *= 2
        if hi > 10**12 * (eps_g + 1):
            raise CertificationError(f"conversions.cks20: B* not bracketed at eps_g={eps_g}, delta_g={delta_g}")
    return _bisect(test, bs_lo, hi, True)


def _cks20_mp_alpha(entry, eps_g: Fraction, delta_g: Fraction, rho0: Fraction) -> Fraction | None:
    """The optimal alpha at B*_cks20 by the same Newton iteration as the float solve, in mpmath (slow path)."""
    an = _opt.quasiconvexity(entry.id)
    r = rho0
    a = None
    for _ in range(40):
        a = _opt.argmin(entry, {"rho": r, "delta": delta_g}, digits=40, hint=a)
        if a is None:
            return None
        g_lo, g_hi = _opt.value_at_arb(an, {"rho": r, "delta": delta_g}, a)
        r_new = r + (eps_g - (g_lo + g_hi) / 2) / a
        ctx = _opt._ctx(50)
        r_new = _to_frac(ctx, _mp(ctx, r_new)) if r_new > 0 else r  # keep ~50 digits, not the growing rational
        if abs(r_new - r) <= r * Fraction(1, 10**30):
            break
        r = r_new
    return _opt.argmin(entry, {"rho": r, "delta": delta_g}, digits=40, hint=a)


def _b_star_gauss(eps_g: Fraction, delta_g: Fraction) -> tuple[Fraction, Fraction]:
    def test(r: Fraction):  # delta_gauss increases in rho: feasible below
        return _gauss_test(r, eps_g, delta_g)

    ctx, f = _mp_fn("conversions.gauss.delta", 40)
    e, ld = _mp(ctx, eps_g), ctx.log(_mp(ctx, delta_g))

    def F(u):  # log delta_gauss(e^u) - log delta_g: increasing in u
        v = f({"rho": ctx.exp(u), _eps_name("conversions.gauss.delta"): e})
        return (ctx.log(v) - ld) if v > 0 else -ctx.inf
    bs_lo = _b_star_bs16(eps_g, delta_g)[0]  # a valid conversion's B* is feasible for the Gaussian limit
    u_lo = ctx.log(_mp(ctx, bs_lo))
    u_hi = u_lo + 1
    while F(u_hi) < 0:
        u_hi += 1
    u = _opt._illinois(F, u_lo, u_hi, ctx)
    r_hat = _to_frac(ctx, ctx.exp(u))
    br = _bracket(r_hat, test, feasible_below=True)
    if br is None:
        br = _bisect(test, bs_lo, _to_frac(ctx, ctx.exp(u_hi)), True)
    return br


def b_star_to_digits(eps_g, delta_g, conversion: str, digits: int):
    """(BStar, d): B* solved to a bracket narrow enough for ``digits`` digits where it can be, and the d <= digits
    digits that bracket backs (rounded down).  Source: b_star with
    rel_tol = 10^-(digits+2), then up to two retries each 10^12 narrower for a B* near a digit boundary.  Domain: as
    b_star."""
    best = None
    tol = Fraction(1, 10 ** (digits + 2))
    for _ in range(3):  # a B* near a digit boundary needs a narrower bracket than its digits: narrow, then refuse
        try:
            b = b_star(eps_g, delta_g, conversion, rel_tol=tol)
        except CertificationError as exc:
            br = getattr(exc, "bracket", None)
            if br is None:
                raise
            b = BStar(br[0], br, conversion, VALID[conversion])  # the narrowest certified bracket
            d = backed_floor_digits(br[0], br[1], digits)
            return (b, d) if best is None or d >= best[1] else best
        d = backed_floor_digits(b.bracket[0], b.bracket[1], digits)
        if best is None or d > best[1]:
            best = (b, d)
        if d == digits:
            break
        lo, hi = b.bracket
        tol = min(tol, (hi - lo) / hi) / 10**12
    return best


_fast.CERTIFIED.update(eps_of=eps_of, delta_of=delta_of)  # the fast paths' arb fallback (see fast_conversions)
