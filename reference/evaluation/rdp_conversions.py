"""The optimal single-order RDP -> (eps, delta)-DP conversion, certified (spec ``conversions.rdp.optimal`` and
``conversions.rdp.optimal.delta``), and its inverse for filters.

Public API (exact inputs: int, Fraction, Decimal, float, decimal strings):

* :func:`eps_enclosure` (alpha, R, delta) -> Enclosure of eps*; :func:`eps_upper` -> the float64 >= eps* (what a
  conversion may report);
* :func:`delta_enclosure` (alpha, R, eps) -> Enclosure of delta*(e^eps); :func:`delta_upper` -> float64 >= it;
* :func:`cks20_eps_enclosure` (orders, rdp, delta) -> Enclosure of max(0, min over the orders of
  ``conversions.rdp.cks20``) (dp_accounting's ``compute_epsilon``, certified); :func:`cks20_eps_upper` -> float64;
* :func:`r_max_enclosure` (alpha, eps, delta) -> Enclosure of R* = sup{R : eps*(alpha, R, delta) <= eps}, the largest
  order-alpha Renyi budget that still converts to (eps, delta); :func:`r_max_lower` -> the float64 <= R* (what a
  filter may use as its budget: never overstated).

The mathematics (proved in proofs_check, ``conversions.rdp.optimal.*``).  With c = e^{(alpha-1)R}, a = alpha and L
= dP/dQ, delta*(gamma) = sup{E_Q[(L - gamma)_+] : L >= 0, E_Q L = 1, E_Q L^a <= c}.

* Lower ends: a two-point L (values x > gamma > y >= 0 with Q-probabilities q = (1-y)/(x-y) and 1 - q, so E_Q L = 1
  exactly) with E_Q L^a <= c checked in arb is a feasible pair P = (qx, 1-qx), Q = (q, 1-q): delta* >= q(x - gamma),
  and eps* >= log((qx - delta)/q) = log(x - delta/q).
* Upper ends: for mu1 real and mu2 > 0 let mu0 = max(m1, m2), m1 = (a-1) mu2 (max(0, -mu1)/(a mu2))^{a/(a-1)},
  m2 = -gamma + (a-1) mu2 (max(0, 1 - mu1)/(a mu2))^{a/(a-1)}; then mu0 + mu1 t + mu2 t^a >= (t - gamma)_+ for all t
  >= 0, so delta*(gamma) <= mu0 + mu1 + mu2 c (take expectations).  eps* <= eps_hi once that bound at gamma =
  e^{eps_hi} is <= delta.
* The near-optimal points come from a private mpmath solve (never trusted): the optimum is a two-point L with the
  dual touching (t - gamma)_+ at both atoms, which gives gamma = (a-1)(x^a - y^a)/(a(x^{a-1} - y^{a-1})), mu2 =
  1/(a(x^{a-1} - y^{a-1})), mu1 = -a mu2 y^{a-1}, with x the root of (1-y)x^a + (x-1)y^a = c(x-y); the curve is
  traced by z = 1 - y in (0, 1).  For gamma <= e^R (a-1)/a (delta >= 1/a in the eps form) the optimum is y = 0:
  delta* = 1 - gamma e^{-R} and eps* = max(0, R + log(1 - delta)), in closed form.

The arb backend functions :func:`opt_eps_backend` and :func:`opt_delta_backend` are what the interpreter calls for the
spec's opaque functions (``dpbounds_eval``), so ``dpbounds.enclose("conversions.rdp.optimal", ...)`` works like any
entry.
"""

from __future__ import annotations

import decimal
import math
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
from flint import arb, ctx as _flint_ctx

from dpbounds.spec import DomainError, parse_exact
from dpbounds.spec.core import Exact

from dpbounds.evaluation.enclosure import CertificationError, Enclosure
from dpbounds.evaluation.optimize import _illinois
from dpbounds.evaluation.interp import NotCertified
from dpbounds.evaluation.numeric import arb_endpoints, arb_prec, float_down, float_up, fraction_to_arb, mp_context

_WHERE = "conversions.rdp.optimal (dpbounds.accounting.rdp_conversions)"


# ------------------------------------------------------------------------------------------ mpmath solver (heuristic)

class _Curve:
    """The optimal privacy profile of one (a, R) in a private mpmath context: the two-point optimum by z = 1 - y."""

    def __init__(self, a: Fraction, R: Fraction, dps: int):
        self.ctx = ctx = mp_context(dps)
        self.a = ctx.mpf(a.numerator) / a.denominator
        self.R = ctx.mpf(R.numerator) / R.denominator
        self.c = ctx.exp((self.a - 1) * self.R)
        self.tol = ctx.ldexp(1, -int(ctx.prec) + 8)

    def x_of(self, z):
        """The root x > 1 of z x^a + (x - 1)(1 - z)^a = c (x - 1 + z) (convex in x, negative at x = 1)."""
        ctx, a, c = self.ctx, self.a, self.c
        ya = ctx.exp(a * ctx.log1p(-z)) if z < 1 else ctx.mpf(0)

        def F(x):
            return z * x**a + (x - 1) * ya - c * (x - 1 + z)
        lo = ctx.mpf(1)
        hi = ctx.power(2 * c / z, 1 / (a - 1)) + 2
        while F(hi) <= 0:
            hi *= 2
        # bisection in log x to a few digits, then Newton from the right (monotone for a convex increasing F)
        for _ in range(60):
            m = ctx.sqrt(lo * hi) if lo > 0 else (lo + hi) / 2
            if F(m) > 0:
                hi = m
            else:
                lo = m
            if hi / lo < 1 + ctx.mpf(2) ** -20:
                break
        x = hi
        for _ in range(200):
            fx = F(x)
            d = a * z * x**(a - 1) + ya - c
            if d <= 0:
                break
            nx = x - fx / d
            if nx >= x or nx <= lo:
                break
            if x - nx <= self.tol * x:
                x = nx
                break
            x = nx
        return x

    def point(self, z):
        """(x, y, gamma, delta, mu1, mu2) of the two-point optimum with y = 1 - z."""
        ctx, a = self.ctx, self.a
        x = self.x_of(z)
        y = 1 - z
        xa1 = x**(a - 1)
        ya1 = ctx.exp((a - 1) * ctx.log1p(-z))
        den = a * (xa1 - ya1)
        gamma = (a - 1) * (x * xa1 - y * ya1) / den
        q = z / (x - 1 + z)
        mu2 = 1 / den
        mu1 = -a * mu2 * ya1
        return x, y, gamma, q * (x - gamma), mu1, mu2

    def z_for(self, key: int, target):
        """z in (0, 1) with gamma(z) = target (key 2) or delta(z) = target (key 3): gamma decreases and delta
        increases as z grows (z -> 1 is the y = 0 end, z -> 0 sends gamma to oo and delta to 0).  A bracket in
        t = log z by doubling, then the Illinois iteration (optimize._illinois) on an increasing sign function."""
        ctx = self.ctx

        def sfn(t):
            try:
                v = self.point(ctx.exp(t))[key]
            except (ValueError, ZeroDivisionError, OverflowError):
                return None
            return (target - v) if key == 2 else (v - target)
        hi, lo = ctx.mpf(0), ctx.mpf(-1)
        while True:
            v = sfn(lo)
            if v is None:
                raise CertificationError(f"{_WHERE}: no two-point optimum found (target {target})")
            if v < 0:
                break
            hi = lo
            lo *= 2
            if lo < -1e7:
                raise CertificationError(f"{_WHERE}: no two-point optimum found (target {target})")
        if hi == 0:
            hi = -ctx.ldexp(1, -int(ctx.prec) // 2)  # just inside the y = 0 end
            if not (sfn(hi) or 0) > 0:
                hi = ctx.mpf(0)
        return ctx.exp(_illinois(sfn, lo, hi, ctx))


def _to_frac(ctx, v) -> Fraction:
    sign, man, exp, _ = ctx.mpf(v)._mpf_  # (mpf.man_exp drops the sign)
    return (-1 if sign else 1) * Fraction(int(man)) * (Fraction(2) ** int(exp))


def _mpf(ctx, q: Fraction):
    return ctx.mpf(q.numerator) / q.denominator


# ------------------------------------------------------------------------------------------ certificates (arb)

def _arb(q: Fraction) -> arb:
    return fraction_to_arb(q)


def _pow(x: arb, a: arb) -> arb:
    if not x > 0:
        if x == 0:
            return arb(0)
        raise NotCertified(f"power of a ball not certainly positive {x}")
    return (a * x.log()).exp()


def _dual_upper(a: Fraction, c: arb, gamma: arb, mu1: Fraction, mu2: Fraction) -> arb:
    """mu0 + mu1 + mu2 c with mu0 = max(m1, m2) (module docstring): an upper bound of delta*(gamma) (a ball whose
    upper end is the certified bound).  Needs mu2 > 0."""
    if mu2 <= 0:
        raise NotCertified("dual certificate needs mu2 > 0")
    A, M1, M2 = _arb(a), _arb(mu1), _arb(mu2)
    expo = A / (A - 1)
    m1 = (A - 1) * M2 * _pow(_arb(max(Fraction(0), -mu1)) / (A * M2), expo)
    m2 = -gamma + (A - 1) * M2 * _pow(_arb(max(Fraction(0), 1 - mu1)) / (A * M2), expo)
    (l1, h1), (l2, h2) = _ends(m1), _ends(m2)
    mu0 = _ball(max(l1, l2), max(h1, h2))  # a ball holding max(m1, m2)
    return mu0 + M1 + M2 * c


def _primal_point(a: Fraction, c: arb, x: Fraction, y: Fraction) -> tuple[Fraction, bool]:
    """(q, feasible): the two-point L = x w.p. q, y w.p. 1 - q under Q (E_Q L = 1 exactly); feasible iff arb
    certifies E_Q L^a <= c."""
    q = (1 - y) / (x - y)
    A = _arb(a)
    ela = _arb(q) * _pow(_arb(x), A) + _arb(1 - q) * _pow(_arb(y), A)
    return q, bool(ela <= c)


def _shrunk_feasible(a: Fraction, c: arb, x: Fraction, y: Fraction, bits: int) -> tuple[Fraction, Fraction] | None:
    """(x', q) with x' <= x the largest of x (1 - 2^-k), k = bits - 16, bits - 32, ..., that arb certifies feasible."""
    for k in (bits - 16, bits // 2, bits // 3, 40, 20, 10):
        xs = x * (1 - Fraction(1, 2**max(k, 4)))
        if xs <= max(y, Fraction(1)):
            continue
        q, ok = _primal_point(a, c, xs, y)
        if ok:
            return xs, q
    return None


def _ends(v: arb) -> tuple[Fraction, Fraction]:
    e = arb_endpoints(v)
    if e is None:
        raise NotCertified(f"non-finite ball {v}")
    return e


#: the largest binary exponent of a witness coordinate turned into an exact Fraction (bounded memory)
_FRAC_EXP_LIMIT = 1 << 20


def _refuse_huge(a: Fraction, R: Fraction) -> None:
    """The two-point solver works with c = e^((alpha - 1) R); past (alpha - 1) R = 2^20 ln 2 (c beyond 2^(2^20), where
    the witness would need the Fractions _frac_round refuses) mpmath ran for minutes at R = 1e308 before refusing:
    refuse at once (a refusal, never a value: conversions.rdp.cks20 bounds it from above).  The message says
    'beyond', so the precision loop does not retry."""
    if (a - 1) * R > _FRAC_EXP_LIMIT * Fraction(69314718, 100000000):
        raise CertificationError(f"{_WHERE}: (alpha - 1) R = {float((a - 1) * R):.3g} is beyond the solver's range "
                                 f"(2^20 ln 2); conversions.rdp.cks20 is an upper bound there")


def _frac_round(ctx, v, bits: int) -> Fraction:
    """A short rational near the mpf v (about ``bits`` significant bits)."""
    if v == 0:
        return Fraction(0)
    m, e = ctx.frexp(v)
    if abs(int(e)) > _FRAC_EXP_LIMIT:  # an exact 2^e this size is megabytes (R = 4e9: e^(7R), 2^(4e10)): refuse
        raise NotCertified(f"a witness coordinate of size 2^{int(e)} (beyond 2^+-{_FRAC_EXP_LIMIT}): the parameters "
                           "are too extreme for the certified optimal conversion")
    k = bits
    return Fraction(int(ctx.nint(ctx.ldexp(m, k)))) * Fraction(2) ** (int(e) - k)


def _dps(bits: int) -> int:
    return int(bits * 0.30103) + 25


@lru_cache(maxsize=512)
def _eps_ends(a: Fraction, R: Fraction, delta: Fraction, bits: int) -> tuple[Fraction, Fraction]:
    """Certified [lo, hi] of eps*(a, R, delta) (clipped at 0), relative width about 2^-(bits/2)."""
    if R == 0:
        return Fraction(0), Fraction(0)
    with arb_prec(bits):
        A, Ra, D = _arb(a), _arb(R), _arb(delta)
        if delta * a >= 1:  # y = 0 optimum: eps* = max(0, R + log(1 - delta))  (proofs_check ...optimal.closed_form)
            v = Ra + (-D).log1p()
            lo, hi = _ends(v)
            return max(lo, Fraction(0)), max(hi, Fraction(0))
        c = ((A - 1) * Ra).exp()
    # guard bits: the dual's mu0 cancels against gamma down to the size of delta (m2 = -gamma + ...), so the
    # certificate is computed with log2(1/delta) more bits than the width asked for
    _refuse_huge(a, R)
    tbits = bits
    bits = bits + max(0, delta.denominator.bit_length() - delta.numerator.bit_length()) + 16
    cur = _Curve(a, R, _dps(bits))
    ctx = cur.ctx
    z = cur.z_for(3, _mpf(ctx, delta))
    x_m, y_m, gamma_m = cur.point(z)[:3]
    fbits = bits + 20
    x, y = _frac_round(ctx, x_m, fbits), _frac_round(ctx, y_m, fbits)
    with arb_prec(bits):
        c = ((_arb(a) - 1) * _arb(R)).exp()
        w = _shrunk_feasible(a, c, x, y, bits)
        if w is None:
            raise NotCertified("no feasible two-point witness")
        xs, q = w
        lo_v = (_arb(xs) - _arb(delta) / _arb(q))
        if not lo_v > 0:
            lo = None
        else:
            lo = _ends(lo_v.log())[0]
    # upper end: the dual at a slightly larger gamma (z slightly smaller), re-optimized there
    hi = None
    for k in (tbits // 2, tbits // 3, tbits // 4, 24, 12, 6):
        zh = z * (1 - ctx.ldexp(1, -k))
        xh, yh, gh, dh, mu1, mu2 = cur.point(zh)
        if not dh < _mpf(ctx, delta):
            continue
        eps_h = _to_frac(ctx, ctx.log(gh)) + Fraction(1, 2**(bits + 8)) * (1 + abs(_to_frac(ctx, ctx.log(gh))))
        with arb_prec(bits):
            c = ((_arb(a) - 1) * _arb(R)).exp()
            u = _dual_upper(a, c, _arb(eps_h).exp(), _frac_round(ctx, mu1, fbits), _frac_round(ctx, mu2, fbits))
            if u <= _arb(delta):
                hi = eps_h
                break
    if lo is None or hi is None:
        raise NotCertified("could not certify the optimal conversion at this precision")
    return max(lo, Fraction(0)), max(hi, Fraction(0))


@lru_cache(maxsize=512)
def _delta_ends(a: Fraction, R: Fraction, eps: Fraction, bits: int) -> tuple[Fraction, Fraction]:
    """Certified [lo, hi] of delta*(a, R, e^eps)."""
    if R == 0:
        return Fraction(0), Fraction(0)
    with arb_prec(bits):
        A, Ra, E = _arb(a), _arb(R), _arb(eps)
        # y = 0 optimum iff e^eps <= e^R (a - 1)/a, i.e. eps - R <= log(1 - 1/a)
        t = E - Ra - (-1 / A).log1p()
        if t <= 0:
            lo, hi = _ends(-(E - Ra).expm1())
            return max(lo, Fraction(0)), min(hi, Fraction(1))  # delta* <= 1 (a probability difference)
        if not t > 0:
            raise NotCertified("regime of the optimum undecided at this precision")
    _refuse_huge(a, R)
    cur = _Curve(a, R, _dps(bits + 64))
    ctx = cur.ctx
    gamma_m = ctx.exp(_mpf(ctx, eps))
    z = cur.z_for(2, gamma_m)
    x_m, y_m, _, d_m, mu1, mu2 = cur.point(z)
    # guard bits: the dual cancels against gamma down to delta*, the witness q(x - gamma) against x
    guard = int(ctx.log(gamma_m / d_m, 2)) + int(ctx.log(x_m / (x_m - gamma_m), 2)) + 16 if d_m > 0 else 64
    if guard > 1200:  # delta* below ~2^-1200 e^eps: beyond this evaluator's working range
        raise NotCertified(f"{_WHERE}: delta* about 2^-{guard} relative to e^eps needs too many guard bits")
    if guard > 64:
        cur = _Curve(a, R, _dps(bits + guard))
        ctx = cur.ctx
        z = cur.z_for(2, ctx.exp(_mpf(ctx, eps)))
        x_m, y_m, _, d_m, mu1, mu2 = cur.point(z)
    bits = bits + max(guard, 0)
    fbits = bits + 20
    x, y = _frac_round(ctx, x_m, fbits), _frac_round(ctx, y_m, fbits)
    with arb_prec(bits):
        c = ((_arb(a) - 1) * _arb(R)).exp()
        gamma = _arb(eps).exp()
        w = _shrunk_feasible(a, c, x, y, bits)
        if w is None:
            raise NotCertified("no feasible two-point witness")
        xs, q = w
        lo = _ends(_arb(q) * (_arb(xs) - gamma))[0]
        hi = _ends(_dual_upper(a, c, gamma, _frac_round(ctx, mu1, fbits), _frac_round(ctx, mu2, fbits)))[1]
    return max(lo, Fraction(0)), min(hi, Fraction(1))


# ------------------------------------------------------------------------------------------ interpreter backends

def _exact(vals) -> list[Fraction]:
    out = []
    for v in vals:
        if not isinstance(v, arb) or not v.is_exact():
            raise NotCertified("the optimal conversion needs exact arguments (no interval extension)")
        m, e = v.mid().man_exp()
        out.append(Fraction(int(m)) * (Fraction(2) ** int(e)))
    return out


def _ball(lo: Fraction, hi: Fraction) -> arb:
    """An arb ball holding [lo, hi], built at twice the working precision: built at the working precision, the
    rounding of its midpoint and radius would push an end near 1 (a delta, a beta) above 1, while the caller rounds
    the exact ends outward itself."""
    with arb_prec(2 * int(_flint_ctx.prec) + 64):
        return _arb(lo).union(_arb(hi))


#: the working precision beyond which the evaluators give up (CertificationError, not a longer retry): the outer
#: evaluator doubles its precision up to 32768 bits, which would take hours here for no gain
MAX_BITS = 2048


def _bits() -> int:
    bits = max(64, int(_flint_ctx.prec) * 2 + 16)
    if bits > MAX_BITS:
        raise CertificationError(f"{_WHERE}: precision beyond {MAX_BITS} bits requested")
    return bits


def _check(a: Fraction, R: Fraction) -> None:
    if not a > 1 or R < 0:
        raise NotCertified(f"outside the domain alpha > 1, R >= 0 (alpha={a}, R={R})")


def _as_not_certified(fn):
    """A failure of the solver inside an evaluation is 'not certified at this precision' (the interpreter's fast
    path then reports an unbounded element, enclose retries with more bits up to MAX_BITS)."""
    import functools

    @functools.wraps(fn)
    def wrapped(B, vals, exact=None):
        try:
            return fn(B, vals, exact)
        except CertificationError as exc:
            if "beyond" in str(exc):
                raise
            raise NotCertified(str(exc)) from exc
        except (ZeroDivisionError, OverflowError, ValueError) as exc:
            raise NotCertified(f"{_WHERE}: {exc}") from exc
    return wrapped


@_as_not_certified
def opt_eps_backend(B: Any, vals: list, exact: list | None = None) -> Any:
    """The interpreter's evaluator of spec.rdp_conversions.rdp_optimal_eps (arb: certified ball; mp: a value)."""
    if B.name == "arb":
        a, R, d = exact or _exact(vals)
        _check(a, R)
        if not 0 < d < 1:
            raise NotCertified(f"delta={d} outside (0, 1)")
        return _ball(*_eps_ends(a, R, d, _bits()))
    if B.name == "mp":
        return _mp_eps(B.ctx, *vals)
    raise NotImplementedError("rdp_optimal_eps has no vectorized evaluator (the fast path evaluates it in arb)")


@_as_not_certified
def opt_delta_backend(B: Any, vals: list, exact: list | None = None) -> Any:
    """The interpreter's evaluator of spec.rdp_conversions.rdp_optimal_delta."""
    if B.name == "arb":
        a, R, e = exact or _exact(vals)
        _check(a, R)
        return _ball(*_delta_ends(a, R, e, _bits()))
    if B.name == "mp":
        return _mp_delta(B.ctx, *vals)
    raise NotImplementedError("rdp_optimal_delta has no vectorized evaluator (the fast path evaluates it in arb)")


def _mp_eps(ctx, a, R, d):
    """eps* in mpmath (the independent high-precision value; uncertified)."""
    af, Rf, df = (_to_frac(ctx, v) for v in (a, R, d))
    if Rf == 0:
        return ctx.mpf(0)
    if df * af >= 1:
        return ctx.mpf(max(0, R + ctx.log1p(-d)))
    cur = _Curve(af, Rf, int(ctx.dps) + 10)
    z = cur.z_for(3, cur.ctx.mpf(d))
    g = cur.point(z)[2]
    return ctx.mpf(max(0, ctx.log(ctx.mpf(g))))


def _mp_delta(ctx, a, R, e):
    af, Rf, ef = (_to_frac(ctx, v) for v in (a, R, e))
    if Rf == 0:
        return ctx.mpf(0)
    if e - R <= ctx.log1p(-1 / a):
        return -ctx.expm1(e - R)
    cur = _Curve(af, Rf, int(ctx.dps) + 10)
    z = cur.z_for(2, cur.ctx.exp(cur.ctx.mpf(e)))
    return ctx.mpf(cur.point(z)[3])


# ------------------------------------------------------------------------------------------ public functions

def _args(alpha: Exact, R: Exact, third: Exact, name: str) -> tuple[Fraction, Fraction, Fraction]:
    a = parse_exact("alpha", alpha, _WHERE)
    r = parse_exact("R", R, _WHERE)
    t = parse_exact(name, third, _WHERE)
    if not a > 1:
        raise DomainError("alpha", alpha, "alpha > 1", _WHERE)
    if r < 0:
        raise DomainError("R", R, "R >= 0", _WHERE)
    return a, r, t


def _enclosure(fn, *args, rel_tol: float = 1e-12) -> Enclosure:
    bits = 96
    while bits <= 4096:
        try:
            lo, hi = fn(*args, bits)
            enc = Enclosure(lo, hi, bits)
            if hi == lo or enc.rel_width() <= rel_tol:
                return enc
        except NotCertified:
            pass
        bits *= 2
    raise CertificationError(f"{_WHERE}: could not certify {args} to relative width {rel_tol:.3g}")


def eps_enclosure(alpha: Exact, R: Exact, delta: Exact, rel_tol: float = 1e-12) -> Enclosure:
    """Certified Enclosure of eps*(alpha, R, delta) = the smallest eps such that every pair with D_alpha(P||Q) <= R
    is (eps, delta)-DP (spec conversions.rdp.optimal)."""
    a, r, d = _args(alpha, R, delta, "delta")
    if not 0 < d < 1:
        raise DomainError("delta", delta, "0 < delta < 1", _WHERE)
    return _enclosure(_eps_ends, a, r, d, rel_tol=rel_tol)


def eps_upper(alpha: Exact, R: Exact, delta: Exact) -> float:
    """The smallest float64 >= eps*(alpha, R, delta): a sound eps to report for an (alpha, R)-RDP guarantee."""
    return eps_enclosure(alpha, R, delta, rel_tol=1e-9).upper()


def delta_enclosure(alpha: Exact, R: Exact, eps: Exact, rel_tol: float = 1e-12) -> Enclosure:
    """Certified Enclosure of delta*(alpha, R, e^eps) = sup E_{e^eps}(P||Q) over D_alpha(P||Q) <= R."""
    a, r, e = _args(alpha, R, eps, "eps")
    if e < 0:
        raise DomainError("eps", eps, "eps >= 0", _WHERE)
    return _enclosure(_delta_ends, a, r, e, rel_tol=rel_tol)


def delta_upper(alpha: Exact, R: Exact, eps: Exact) -> float:
    """The smallest float64 >= delta*(alpha, R, e^eps)."""
    return delta_enclosure(alpha, R, eps, rel_tol=1e-9).upper()


@lru_cache(maxsize=256)
def _r_max_ends(a: Fraction, eps: Fraction, delta: Fraction, bits: int) -> tuple[Fraction, Fraction]:
    """Certified [lo, hi] of R* = sup{R >= 0 : delta*(a, R, e^eps) <= delta}: lo with the dual certified <= delta,
    hi with a feasible witness certified > delta (delta* increases in R)."""
    if delta * a >= 1:  # closed form (y = 0 optimum at R*): R* = eps - log(1 - delta)
        with arb_prec(bits):
            return _ends(_arb(eps) - (-_arb(delta)).log1p())
    # locate R* in mpmath (log scale), then certify both sides
    ctx = mp_context(_dps(bits) // 2 + 10)
    dt = _mpf(ctx, delta)

    def dstar(Rq: Fraction):  # a heuristic at half the digits: the certificates below need R* to ~2^-(bits/3)
        cur = _Curve(a, Rq, _dps(bits) // 2 + 10)
        if _mpf(cur.ctx, eps) - cur.R <= cur.ctx.log1p(-1 / cur.a):
            return -cur.ctx.expm1(_mpf(cur.ctx, eps) - cur.R)
        return cur.point(cur.z_for(2, cur.ctx.exp(_mpf(cur.ctx, eps))))[3]
    # the root of the increasing map log R -> delta*(R) - delta: a bracket by doubling, then Illinois (a heuristic:
    # both ends are certified below)
    lo_t, hi_t = ctx.mpf(0), ctx.mpf(0)
    while dstar(_to_frac(ctx, ctx.exp(hi_t))) <= dt:
        hi_t += 2
    lo_t = hi_t - 2
    while dstar(_to_frac(ctx, ctx.exp(lo_t))) > dt:
        lo_t -= 4
        if lo_t < -3000:
            raise NotCertified("R* below e^-3000: not bracketed")

    def sfn(t):
        return dstar(_frac_round(ctx, ctx.exp(t), bits + 8)) - dt
    t_star = _illinois(sfn, lo_t, hi_t, ctx)
    lo = hi = _frac_round(ctx, ctx.exp(t_star), bits + 8)
    r_lo = r_hi = None
    for k in (bits // 2, bits // 3, 24, 12, 6):
        cand = lo * (1 - Fraction(1, 2**k))
        if cand <= 0:
            r_lo = Fraction(0)
            break
        e = _delta_ends(a, cand, eps, bits)
        if e[1] <= delta:
            r_lo = cand
            break
    for k in (bits // 2, bits // 3, 24, 12, 6):
        cand = hi * (1 + Fraction(1, 2**k))
        e = _delta_ends(a, cand, eps, bits)
        if e[0] > delta:
            r_hi = cand
            break
    if r_lo is None or r_hi is None:
        raise NotCertified("could not bracket R*")
    return r_lo, r_hi


def r_max_enclosure(alpha: Exact, eps: Exact, delta: Exact, rel_tol: float = 1e-9) -> Enclosure:
    """Certified Enclosure of R*(alpha, eps, delta) = sup{R >= 0 : conversions.rdp.optimal(alpha, R, delta) <= eps}:
    the largest order-alpha Renyi budget that the optimal conversion turns into (eps, delta)-DP."""
    a = parse_exact("alpha", alpha, _WHERE)
    e = parse_exact("eps", eps, _WHERE)
    d = parse_exact("delta", delta, _WHERE)
    if not a > 1:
        raise DomainError("alpha", alpha, "alpha > 1", _WHERE)
    if e < 0:
        raise DomainError("eps", eps, "eps >= 0", _WHERE)
    if not 0 < d < 1:
        raise DomainError("delta", delta, "0 < delta < 1", _WHERE)
    return _enclosure(_r_max_ends, a, e, d, rel_tol=rel_tol)


def r_max_lower(alpha: Exact, eps: Exact, delta: Exact) -> float:
    """The largest float64 <= R*(alpha, eps, delta): a Renyi budget at order alpha that is never overstated (an
    interaction that is (alpha, R)-RDP with R <= this value is (eps, delta)-DP)."""
    return r_max_enclosure(alpha, eps, delta).lower()


@_as_not_certified
def r_max_backend(B: Any, vals: list, exact: list | None = None) -> Any:
    """The interpreter's evaluator of spec.rdp_conversions.rdp_optimal_r_max (arb: certified ball of R*; mp: the
    midpoint of that certified bracket)."""
    if B.name == "arb":
        a, e, d = exact or _exact(vals)
        if not a > 1 or e < 0 or not 0 < d < 1:
            raise NotCertified(f"outside the domain alpha > 1, eps >= 0, 0 < delta < 1 (alpha={a}, eps={e}, delta={d})")
        return _ball(*_r_max_ends(a, e, d, _bits()))
    if B.name == "mp":
        a, e, d = (_to_frac(B.ctx, v) for v in vals)
        enc = _enclosure(_r_max_ends, a, e, d, rel_tol=1e-12)
        return (B.ctx.mpf(enc.lo.numerator) / enc.lo.denominator + B.ctx.mpf(enc.hi.numerator) / enc.hi.denominator) / 2
    raise NotImplementedError("rdp_optimal_r_max has no vectorized evaluator (the fast path evaluates it in arb)")


# ------------------------------------------------------------------------------------------ CKS20 over many orders

def _floats(name: str, x: Any, up: bool, where: str) -> np.ndarray | tuple[np.ndarray, list[Fraction]]:
    """``x`` (a sequence or a 1-d array of reals) as exact float64 values: floats and float arrays as they are; ints,
    Fractions, Decimals exactly when float64 holds them; otherwise an order is refused (the bound is not monotone in
    it) and an RDP value (``up``) gives (its float64 rounded up, the exact values).  bools, strings, bytes:
    TypeError."""
    if isinstance(x, np.ndarray):
        if x.dtype.kind == "f":
            return x.astype(np.float64, copy=False).ravel() if x.ndim <= 1 else x
        if x.dtype.kind not in "iu":
            raise TypeError(f"{name}: expected real numbers, got numpy dtype {x.dtype}")
        x = x.tolist()
    if isinstance(x, (bytes, bytearray, memoryview, str)) or not isinstance(x, (list, tuple)):
        raise TypeError(f"{name}: expected a sequence of real numbers, got {type(x).__name__}")
    kinds = set(map(type, x))
    if kinds <= {float, int}:
        try:
            arr = np.array(x, dtype=np.float64)
        except OverflowError:
            arr = None
        if arr is not None and (int not in kinds or not arr.size or np.abs(arr).max() < 2.0 ** 53):
            return arr                                  # (floats as they are; ints below 2^53 exactly)
    out, exact, inexact = [], [], False
    for v in x:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, Fraction, decimal.Decimal, np.number)):
            raise TypeError(f"{name}: expected real numbers, got an element of type {type(v).__name__}")
        q = parse_exact(name, v, where)
        try:
            f = float_up(q) if up else float(q)
        except OverflowError:
            f = math.inf
        if f in (math.inf, -math.inf):
            raise DomainError(name, v, "a value within the float64 range (|x| < 1.8e308)", where)
        if Fraction(f) != q:
            if not up:
                raise DomainError(name, v, "a float64 value (the conversion is not monotone in the order: it is not "
                                  "rounded)", where)
            inexact = True
        out.append(f)
        exact.append(q)
    arr = np.array(out, dtype=np.float64)
    return (arr, exact) if inexact else arr


def _orders_args(orders: Any, rdp: Any, delta: Exact) -> tuple[np.ndarray, np.ndarray, Fraction, list | None]:
    """(orders, RDP values rounded up to float64, delta, the exact RDP values when some are not float64 values)."""
    where = "conversions.rdp.cks20 over orders (dpbounds.evaluation.rdp_conversions.cks20_eps_enclosure)"
    a = _floats("orders", orders, False, where)
    r = _floats("rdp", rdp, True, where)
    r_exact = None
    if isinstance(r, tuple):
        r, r_exact = r
    if a.ndim != 1 or r.shape != a.shape or a.size == 0:
        raise DomainError("rdp", f"{r.size} values for {a.size} orders", "one RDP value per order (at least one)",
                          where)
    if not (a.min() > 1 and a.max() < math.inf):  # (a NaN fails both)
        raise DomainError("orders", float(a[~(np.isfinite(a) & (a > 1))][0]), "alpha > 1 (finite)", where)
    if not r.min() >= 0:  # (+inf is allowed: that order bounds nothing; NaN fails)
        raise DomainError("rdp", float(r[~(r >= 0)][0]), "R >= 0 (or +inf: no bound at that order)", where)
    if not r.max() < math.inf:
        keep = r < math.inf
        a, r = a[keep], r[keep]
        r_exact = None if r_exact is None else [q for q, k in zip(r_exact, keep) if k]
    d = parse_exact("delta", delta, where)
    if not 0 < d < 1:
        raise DomainError("delta", delta, "0 < delta < 1", where)
    return a, r, d, r_exact


def _cks20_orders_float(a: np.ndarray, r: np.ndarray, ld: float) -> tuple[np.ndarray, np.ndarray]:
    """Elementwise [lo, hi] of E = R + log1p(-1/a) - (log delta + log a)/(a - 1) at exact float orders a > 1 and
    values R: the float64 program s = fl(fl(R + t) - q), t = fl(log1p(-fl(1/a))), q = fl(fl(ld + fl(log a)) /
    fl(a - 1)), with ld the float nearest log delta, and an a-priori bound of its error.

    Error bound (u = 2^-53; + - * / correctly rounded; log, log1p within 8 ulps <= 16u relative, the error model of
    dpbounds.evaluation.npfast; |ld - log delta| <= 2u |ld|).  fl(1/a) = (1/a)(1 + e), |e| <= u, and |d/dx
    log1p(-x)| = 1/(1 - x), with a - 1 >= 2u for a float a > 1, give |t - log1p(-1/a)| <= 17u|t| + 2u/(a - 1); the
    sum n = fl(ld + log a) is within 2u|n| + 2u|ld| + 17u log a of log delta + log a, and the quotient by fl(a - 1)
    = (a - 1)(1 + e') adds 4.2u|q|, so |q - Q| <= 4.2u|q| + (2u + 2u|ld| + 17u log a)/(a - 1); the two additions
    add 1.01u(|s| + |fl(R + t)|).  Every term is below 2^-48 (|s| + |s1| + |t| + |q| + (2 + |ld| + log a)/(a - 1)),
    and 2^-1000 covers subnormal results; B below uses 2^-47, whose slack covers B's own roundings and those of
    s -+ B.  An overflow gives NaN or infinite ends (the caller reads NaN as unknown)."""
    with np.errstate(over="ignore", under="ignore", invalid="ignore", divide="ignore"):
        t = np.log1p(-(1.0 / a))
        la = np.log(a)
        dm = a - 1.0
        q = (ld + la) / dm
        s1 = r + t
        s = s1 - q
        b = np.abs(s)
        b += np.abs(s1)
        b -= t                           # |t| (t <= 0)
        b += np.abs(q)
        b += (2.0 + abs(ld) + la) / dm
        b *= 2.0 ** -47
        b += 2.0 ** -1000
        return s - b, s + b


def cks20_eps_enclosure(orders: Any, rdp: Any, delta: Exact, rel_tol: float = 1e-12) -> Enclosure:
    """Certified Enclosure of max(0, min over the orders of conversions.rdp.cks20) -- the eps that an RDP curve
    known at a list of orders gives at ``delta`` by CKS20 Proposition 12 (= BBGHS20 Theorem 21), what
    dp_accounting's ``compute_epsilon(orders, rdp, delta)`` computes in floats (without its KL shortcut for tiny
    R).  ``orders`` (each > 1) and ``rdp`` (each >= 0, or +inf where the order bounds nothing: +oo when all do):
    float arrays or sequences, taken as their exact binary values; ``delta`` exact.  Every order in float64 interval arithmetic with outward rounding; where that is wider
    than ``rel_tol``, the orders that can still attain the minimum (their lower end below the smallest upper end)
    again in arb."""
    a, r, d, r_exact = _orders_args(orders, rdp, delta)
    if not a.size:  # every RDP value is +inf: no bound
        return Enclosure(None, None, 0, pos_inf=True)
    with arb_prec(96):
        ld = float(fraction_to_arb(d).log().mid())    # within 2u |ld| of log delta (a 96-bit ball, then nearest)
    lo, hi = _cks20_orders_float(a, r, ld)
    if r_exact is not None:  # r is rounded up and the bound increases in R with slope 1: lower the lower ends
        gap = r - np.array([float_down(q) for q in r_exact])
        lo = lo - gap
        lo = lo - np.abs(lo) * 2.0 ** -52 - 2.0 ** -1074
    top = float(np.fmin.reduce(hi))             # (a NaN upper end bounds nothing: skipped; all NaN: NaN)
    low = float(np.min(lo))                     # (NaN if any lower end is NaN: then the arb path below)
    if top <= 0:  # the clip: some order gives eps <= 0 with certainty
        return Enclosure(Fraction(0), Fraction(0), 53)
    if math.isfinite(low) and math.isfinite(top) and top - low <= rel_tol * top * (1 - 2.0 ** -40):
        return Enclosure(max(Fraction(low), Fraction(0)), Fraction(top), 53)
    if not top == top:
        top = math.inf
    cand = np.flatnonzero(~(lo > top))          # every order whose lower end may be below the smallest upper end
    bits = max(96, int(-math.log2(max(rel_tol, 1e-300))) + 40)
    while bits <= 4096:
        with arb_prec(bits):
            L = -fraction_to_arb(d).log()
            ends = []
            for i in cand:
                A = arb(float(a[i]))
                R = arb(float(r[i])) if r_exact is None else fraction_to_arb(r_exact[i])
                v = R + (-1 / A).log1p() + (L - A.log()) / (A - 1)
                e = arb_endpoints(v)
                if e is None:
                    break
                ends.append(e)
        if len(ends) == len(cand):
            elo, ehi = min(e[0] for e in ends), min(e[1] for e in ends)
            if ehi <= 0:
                return Enclosure(Fraction(0), Fraction(0), bits)
            enc = Enclosure(max(elo, Fraction(0)), ehi, bits)
            if enc.rel_width() <= rel_tol:
                return enc
        bits *= 2
    raise CertificationError(f"{_WHERE}: could not certify CKS20 over {a.size} orders to relative width {rel_tol:.3g}")


def cks20_eps_upper(orders: Any, rdp: Any, delta: Exact) -> float:
    """The smallest float64 >= max(0, min over the orders of conversions.rdp.cks20): a sound eps to report."""
    return cks20_eps_enclosure(orders, rdp, delta, rel_tol=1e-9).upper()
