"""Fast sound zCDP -> DP conversions: float64 bounds of the CKS20 infima and of B*, vectorized or scalar.

Returned (every function takes numpy arrays, broadcast together, and returns float64 arrays of that shape; called
with Python scalars it returns floats, through the same code on the ``math`` module):

* :func:`eps_upper` / :func:`eps_interval` (rho, delta) -- ``conversions.cks20`` (CKS20 Prop. 12 at tau = alpha rho,
  inf over alpha, clamped at 0 as :func:`dpbounds.accounting.conversions.eps_of`) or ``conversions.bs16``;
* :func:`delta_upper` / :func:`delta_interval` (rho, eps) -- ``conversions.cks20.delta`` (the delta form);
* :func:`b_star_lower` (eps_g, delta_g) -- B* = sup{rho : the conversion gives (eps_g, delta_g)-DP} for ``cks20``
  or ``bs16``.

Guarantee (elementwise, for inputs read as their exact binary64 values): ``upper >= exact``, ``lower <= exact``,
``b_star_lower <= B*`` (B* is never overstated: it is a budget a filter may spend).  Never NaN: an end that cannot
be computed is +inf for an upper bound and 0 for a lower one (every quantity here is >= 0).

Why (the same argument as :mod:`dpbounds.evaluation.optimize`, in float64 with error bounds):

1. **Any alpha bounds an infimum from above.**  A near-optimal alpha is found in floats (Newton or Halley steps on
   the sign factor S of the objective's derivative; a heuristic, never trusted), then the objective is evaluated
   *once* at that alpha with an absolute error bound carried through every operation, and the bound is added
   outward.  B*: at any alpha, rho = (eps_g - c(alpha)) / alpha with c's *upper* end, rounded down, satisfies
   alpha rho + c(alpha) <= eps_g, so the infimum over alpha is <= eps_g at that rho: it is feasible, hence <= B*.
2. **The lower end of an infimum** (``*_interval`` only).
   a. *Convexity, one point* (every element): for f convex on an interval holding the evaluation point p and the
      minimizer, with f'' >= mu > 0 there, inf f >= f(p) - f'(p)^2 / (2 mu).  Eps form: the objective is convex in
      t = 1/(alpha - 1) with df/dt = -S_eps and f''(t) = 2 rho x^3 + x^2/(1 + x) (x = 1/t), increasing in x, so
      mu = f''(min(x, x_lo)) with x_lo = 2l/(1 + sqrt(1 + 4 rho l)) <= x* (S_eps(x*) = 0 and log(1 + x) <= x).
      Delta form: h = log of the objective has h' = S_delta and h'' = 2 rho + 1/(alpha (alpha - 1)) >= 2 rho.
      (Identities checked symbolically in tests/test_fast_conversions.py.)  Elements where this loss is not
      negligible (> 2^-40 relative) take b.
   b. *Window, two points*: sympy proves (optimize.quasiconvexity) that the objective's derivative is S(alpha)
      times a positive factor with S nondecreasing; here g'(alpha) = S_eps(alpha) / (alpha - 1)^2 for the eps form
      and (log g)'(alpha) = S_delta(alpha) for the delta form.  If float bounds certify S(c - w) < 0 < S(c + w),
      the infimum over all alpha > 1 is the minimum over [c - w, c + w], which is >= g(c) - sup|g'| w with
      sup|g'| <= max(|S(c - w)|, |S(c + w)|) / (c - w - 1)^2 (S is monotone): the lower end.  Elements where the
      signs cannot be certified get the certified arb enclosure (:func:`dpbounds.accounting.conversions.eps_of`),
      else 0.

Error model (the same as :mod:`dpbounds.evaluation.npfast`): ``+ - * /`` and ``sqrt`` are correctly rounded
(relative error <= 2^-53, bounded here by ``_U2`` = 2^-52); ``log``, ``log1p``, ``exp``, ``expm1`` err by a few ulps,
bounded by ``_M`` = 2^-44 relative (256 ulps); an absolute 2^-1070 covers subnormal results.  Every error term is
itself inflated by 2^-20 before it is added, which covers the roundings of the error arithmetic.

Domain: rho >= 0, 0 < delta < 1, eps >= 0, eps_g > 0, 0 < delta_g < 1 (finite); violations raise
:class:`dpbounds.spec.DomainError` naming the first bad index.
"""

from __future__ import annotations

from typing import Any

import math
from fractions import Fraction

import numpy as np

from dpbounds.spec import DomainError, parse_exact
from dpbounds.evaluation.numeric import float_down, float_up, real_array
from dpbounds.evaluation.evaluate import CertificationError

_U2 = 2.0 ** -52          # one correctly rounded operation, relative (twice the unit roundoff)
_M = 2.0 ** -44           # one libm call, relative
_T = 2.0 ** -1070         # absolute: subnormal results
_INFL = 1.0 + 2.0 ** -20  # inflation of an error bound (covers the roundings of the bound itself)
_HALLEY = 2               # Halley steps of the eps form's solver on every element, then more on the elements whose
_HALLEY_TOL = 2.0 ** -12  # last step exceeded this (relative; the error after it is ~ its cube)
_NEWTON_DELTA = 3         # Newton steps of the delta form's solver on every element (monotone convergence)
_NEWTON_B_STAR = 3        # Newton steps of the B* solver on every element (then more where still moving)
_MORE = 60                # at most this many more steps on the elements still moving
_SQRT8 = math.sqrt(8.0)
_LOSS_TOL = 2.0 ** -40    # a convexity loss above this (relative) sends the element to the window certificate
_WIN = 2.0 ** -24         # half-width of the certification window, relative to alpha - 1
_WHERE = "dpbounds.accounting.fast_conversions"
CHUNK = 32768


class _NP:
    """numpy as the arithmetic namespace of the kernels (arrays)."""

    log, log1p, exp, expm1, sqrt, abs = np.log, np.log1p, np.exp, np.expm1, np.sqrt, np.abs
    where, minimum, maximum = np.where, np.minimum, np.maximum


def _mexp(x: float) -> float:
    return math.exp(x) if x < 709.0 else (math.inf if x == x else x)


def _mexpm1(x: float) -> float:
    return math.expm1(x) if x < 709.0 else (math.inf if x == x else x)


def _mlog(x: float) -> float:
    return math.log(x) if x > 0 else (-math.inf if x == 0 else math.nan)


def _mlog1p(x: float) -> float:
    return math.log1p(x) if x > -1 else (-math.inf if x == -1 else math.nan)


class _MATH:
    """``math`` as the arithmetic namespace of the kernels (Python floats: the scalar path, no array overhead)."""

    log, log1p, exp, expm1, sqrt, abs = staticmethod(_mlog), staticmethod(_mlog1p), staticmethod(_mexp), \
        staticmethod(_mexpm1), staticmethod(math.sqrt), staticmethod(abs)
    minimum, maximum = staticmethod(min), staticmethod(max)

    @staticmethod
    def where(c, a, b):
        return a if c else b


# ------------------------------------------------------------------------------------------ error-bounded kernels
# Each returns (v, e): the computed value and a bound on |v - exact| (exact: the formula at the exact binary64
# inputs).  Comments give the bound's reason; _U2, _M, _T as in the module docstring.

def _neg_log(xp, delta):
    """(l, e): l = log(1/delta) = -log(delta) >= 0."""
    l = -xp.log(delta)
    e = l * _M
    e += _T
    return l, e


def _log_one_minus_inv(xp, a, d):
    """(t, e): t = log(1 - 1/a) < 0 for a > 1, d = fl(a - 1).

    a < 2: log(d/a) with d exact (Sterbenz) and d/a within one rounding, |log(1 + theta)| <= _U2;
    a >= 2: log1p(-r), r = fl(1/a); the slope of log1p(-x) is <= 1/(1 - x) <= 2 (x <= 1/2 + ulp), so the input
    error |r - 1/a| <= r 2^-53 moves it by <= 1.01 _U2 r.  (Arrays: a branch no element takes is not computed.)"""
    if xp is _NP:
        small = a < 2.0
        n_small = np.count_nonzero(small)
        if n_small == 0:
            r = 1.0 / a
            t = np.log1p(-r)
            r *= 1.01 * _U2
            r -= t * _M
            r += _T
            return t, r
        if n_small == small.size:
            t = np.log(d / a)
            return t, _U2 - t * _M + _T
    else:
        small = a < 2.0
    r = 1.0 / a
    t = xp.where(small, xp.log(d / a), xp.log1p(-r))
    e = xp.where(small, _U2, 1.01 * _U2 * r) - t * _M + _T   # t < 0
    return t, e


def _g_eps(xp, rho, l, el, a, d=None, la=None):
    """(v, e) of g(a) = a rho + (l - log a)/(a - 1) + log(1 - 1/a): the conversions.cks20 objective.

    Error terms: a rho one rounding; n = l - log a: el + la _M + one rounding; q = n/d with d = a - 1 within one
    rounding (exact for a <= 2): |N/D - n/d| <= (|N - n| + |n| 2^-53)/d (1 + 2^-52), plus the division's rounding;
    the two additions; an absolute 2^-1000 covers every underflow term (each <= 2^-1070 / d, d >= 2^-40).
    (``d``, ``la``: a - 1 and log a when the caller has them.)"""
    if d is None:
        d, la = a - 1.0, xp.log(a)
    t1 = a * rho
    n = l - la
    q = n / d
    t3, e3 = _log_one_minus_inv(xp, a, d)
    v = t1 + q
    v += t3
    # (in-place arithmetic on fresh temporaries only, here and below: on floats it is the same expression)
    e = xp.abs(q)
    e += t1
    e *= 2.01 * _U2
    f = la * _M
    f += el
    n = xp.abs(n)
    n *= 2.0 * _U2
    f += n
    f /= d
    f *= _INFL
    e += f
    e += e3
    e -= t3 * (1.01 * _U2)
    e += 2.0 ** -1000
    return v, e


def _s_eps(xp, rho, l, el, a, d=None, la=None):
    """(v, e) of S(a) = rho (a - 1)^2 + log a - l (sign of g'; g' = S / (a - 1)^2)."""
    if d is None:
        d, la = a - 1.0, xp.log(a)
    t = rho * (d * d)                  # d: <= 1 rounding, d*d and rho*: 2 more -> <= 4 x 2^-53
    v = t + la
    v -= l
    e = t * (2.01 * _U2)
    e += _T
    e += la * _M
    e += _T
    e += el
    f = t + la
    f += l
    f *= 1.01 * _U2
    e += f
    return v, e


def _h_delta(xp, rho, eps, a):
    """(v, e) of h(a) = log of the conversions.cks20.delta objective
    = (a - 1)(a rho - eps) - log(a - 1) + a log(1 - 1/a)."""
    d = a - 1.0
    p = a * rho
    m = p - eps
    am = xp.abs(m)
    em = p * _U2
    em += _T
    em += am * _U2
    t1 = d * m
    # |D M - d m| <= D |M - m| + |m| |D - d|, D <= d (1 + 2^-53); plus the product's rounding
    e1 = d * em
    e1 *= _INFL
    am *= d
    am *= _U2
    e1 += am
    at1 = xp.abs(t1)
    e1 += at1 * _U2
    t2 = -xp.log(d)                    # d = D (1 + theta): |log D - log d| <= _U2
    at2 = xp.abs(t2)
    e2 = at2 * _M
    e2 += _U2
    e2 += _T
    t3, e3 = _log_one_minus_inv(xp, a, d)
    t4 = a * t3
    e4 = a * e3
    at4 = xp.abs(t4)
    e4 += at4 * _U2
    v = t1 + t2
    v += t4
    e = e1 + e2
    e += e4
    at1 += at2
    at1 += at4
    at1 *= 1.01 * _U2
    e += at1
    return v, e


def _s_delta(xp, rho, eps, a):
    """(v, e) of S(a) = (2a - 1) rho - eps + log(1 - 1/a) = (log g)'(a) for the delta form."""
    d = a - 1.0
    p = a * rho
    pd = d * rho                       # d: <= 1 rounding, times rho: 1 more
    t3, e3 = _log_one_minus_inv(xp, a, d)
    v = p + pd
    v -= eps
    v += t3
    e = p * _U2
    e += pd * (1.01 * _U2)
    e += 2 * _T
    e += e3
    f = p + pd
    f += eps
    f += xp.abs(t3)
    f *= 1.51 * _U2                    # three additions
    e += f
    return v, e


def _up(xp, v, e):
    """The float upper end of [v - e, v + e] (the final addition's rounding covered by |v| _U2)."""
    return v + _margin(xp, v, e)


def _down(xp, v, e):
    return v - _margin(xp, v, e)


def _margin(xp, v, e):
    m = e * _INFL
    av = xp.abs(v)
    av *= _U2
    m += av
    m += _T
    return m


# ------------------------------------------------------------------------------------------ alpha solvers (heuristic)

def _iterate(xp, step, y, params, base: int, tol: float):
    """y after ``base`` (>= 1) applications of ``step(y, *params) -> (y, dy)`` to every element, then up to _MORE
    more on the elements whose last step exceeded tol |y| (only those are computed: the rare far starts)."""
    dy = math.inf
    if xp is _NP:
        for _ in range(base):
            y, dy = step(y, *params)
        idx = np.flatnonzero(~(np.abs(dy) <= tol * y))   # (y > 0 in every solver here)
        for _ in range(_MORE):
            if not idx.size:
                break
            yy, dy = step(y[idx], *[p[idx] if np.ndim(p) else p for p in params])
            y[idx] = yy
            idx = idx[~(np.abs(dy) <= tol * yy)]
        return y
    try:  # (floats raise where numpy gives inf or NaN: the last iterate is still a valid alpha, any alpha is)
        for k in range(base + _MORE):
            if k >= base and abs(dy) <= tol * y:
                break
            y, dy = step(y, *params)
    except ZeroDivisionError:
        pass
    return y


def _alpha_eps(xp, rho, l, y=None, iters: int = _HALLEY, tol: float = _HALLEY_TOL):
    """Near-optimal alpha of the eps form: the root of S = rho x^2 + log1p(x) - l, x = alpha - 1, by Halley's method
    in y = log1p(x) (S is convex and increasing in y) from y0 = min(l, log1p(sqrt(l/rho))) (BS16's optimum), where
    S(y0) >= 0.  The Halley denominator is kept >= S'^2 / 2 (each step at most twice Newton's) and y >= 0; after
    ``iters`` steps, elements whose last step exceeded ``tol`` (relative) take more.  Any result is safe: the
    certificates trust nothing but the evaluation at the alpha returned.  (``y``: a warm start.)"""
    if y is None:
        y = xp.minimum(l, xp.log1p(xp.sqrt(l / rho)))

    def step(y, rho, r2, l):
        em = xp.expm1(y)
        ey = em + 1.0
        s = em * em
        s *= rho
        s += y - l                                  # s = S
        ds = em * ey
        ds *= r2
        ds += 1.0                                   # S'
        dd = ds * ds
        hd2 = ey + ey
        hd2 -= 1.0
        hd2 *= ey
        hd2 *= rho                                  # half of S''
        hd2 *= s
        half = dd * 0.5
        dd -= hd2
        s *= ds
        s /= xp.maximum(dd, half)
        yn = xp.maximum(y - s, 0.0)
        return yn, yn - y

    y = _iterate(xp, step, y, (rho, rho + rho, l), iters, tol)
    return xp.maximum(xp.exp(y), 1.0 + 2.0 ** -40)  # alpha = 1 + x = e^y


def _alpha_delta(xp, rho, eps, tol: float = 2.0 ** -20):
    """Near-optimal alpha of the delta form.  In u = -log(1 - 1/alpha) > 0 its derivative's sign factor is
    F(u) = rho coth(u/2) - u - eps (= S_delta), convex and decreasing, so Newton's method from a point where F >= 0
    increases monotonically to the root.  Start: coth z >= max(1/z, 1) gives F >= 0 at the larger of the positive
    root of u^2 + eps u - 2 rho and rho - eps.  With r = alpha = 1/(1 - e^-u): coth(u/2) = 2r - 1 and
    F'(u) = -(2 rho r (r - 1) + 1).  After _NEWTON_DELTA steps, elements whose last step exceeded ``tol``
    (relative; the error after it is ~ its square) take more (far starts: rho ~ eps >> 1)."""
    q = xp.sqrt(eps * eps + 8.0 * rho)
    if xp is _NP:
        if not np.all(q < math.inf):                # eps^2 or 8 rho overflowed: the rare elements in hypot
            q = np.where(q < math.inf, q, np.hypot(eps, _SQRT8 * np.sqrt(rho)))
    elif not q < math.inf:
        q = math.hypot(eps, _SQRT8 * math.sqrt(rho))
    u = xp.maximum(xp.maximum(4.0 * rho / (eps + q), rho - eps), 2.0 ** -1000)

    def step(u, r2, c):
        r = -1.0 / xp.expm1(-u)
        rr = r2 * r
        du = rr - c
        du -= u
        r -= 1.0
        r *= rr
        r += 1.0
        du /= r
        un = xp.maximum(u + du, u)                  # the iterates increase; a step back is rounding (cancellation
        return un, un - u                           # in rr - c once e^-u < 2^-53), it would collapse u to 0

    u = _iterate(xp, step, u, (rho + rho, rho + eps), _NEWTON_DELTA, tol)
    return xp.maximum(-1.0 / xp.expm1(-u), 1.0 + 2.0 ** -40)


def _alpha_b_star(xp, eps_g, l):
    """Near-optimal alpha at B*_cks20 = sup over t = 1/(alpha - 1) > 0 of (eps_g - c(t)) t/(1 + t), c(t) = t l -
    (1 + t) log(1 + t) + t log t (the objective at rho = 0).  That function is log-concave; its maximum is the root
    of E(t) = s t (2 + t) - log(1 + t) - eps_g, s = c'(t) = l - log alpha, and E' = 1 + 2 (1 + t) s,
    E'' = 2 s + 2/t: E is convex and increasing where s >= 0, which holds at the root and to its right.  Newton's
    method from a point with s > 0 lands right of the root after one step and then decreases to it monotonically.
    Start: BS16's optimal alpha - 1 at BS16's B*, capped at 0.6 (e^l - 1) (alpha* < e^l; s > 0 there)."""
    x0 = xp.minimum(xp.sqrt(l) * (xp.sqrt(l + eps_g) + xp.sqrt(l)) / eps_g, 0.6 * xp.expm1(l))

    def step(t, l, eps_g):
        lt = xp.log1p(t)
        s = l - xp.log1p(1.0 / t)                  # log alpha = log1p(1/t): accurate for large t (delta ~ 1)
        dt = t + 2.0
        dt *= t
        dt *= s
        dt -= lt
        dt -= eps_g                                 # E(t)
        den = t + 1.0
        den *= s
        den *= 2.0
        den += 1.0                                  # E'(t)
        dt /= den
        return xp.maximum(t - dt, 2.0 ** -1000), dt   # (t > 0: a rounding step below 0 is kept out)

    t = _iterate(xp, step, xp.maximum(1.0 / x0, 2.0 ** -1000), (l, eps_g), _NEWTON_B_STAR, 2.0 ** -13)
    return xp.maximum(1.0 + 1.0 / t, 1.0 + 2.0 ** -40)


# ------------------------------------------------------------------------------------------ per-chunk bodies

def _eps_cks20(xp, rho, delta, want_lo: bool):
    l, el = _neg_log(xp, delta)
    a = _alpha_eps(xp, rho, l)
    d, la = a - 1.0, xp.log(a)
    v, e = _g_eps(xp, rho, l, el, a, d, la)
    hi = _up(xp, v, e)
    if not want_lo:
        return None, hi
    # g is convex in t = 1/(a - 1) with dg/dt = -S_eps and g''(t) = 2 rho x^3 + x^2/(1 + x) (x = 1/t), increasing
    # in x; between t and t* it is >= its value at x_m = min(x, x_lo), x_lo = 2l/(1 + sqrt(1 + 4 rho l)) <= x*
    # (log(1 + x) <= x in S_eps(x*) = 0), so g(t*) >= g(t) - S^2 / (2 g''(x_m))  (module docstring, 2a)
    s, es = _s_eps(xp, rho, l, el, a, d, la)
    ld = el * _INFL
    ld += l * _U2
    ld = l - ld                                       # x_lo increases in l: l rounded down
    x1 = d * (1.0 - 2.0 ** -50)
    w = 4.0 * rho
    w *= ld
    w += 1.0
    w = xp.sqrt(w)
    w += 1.0
    x2 = ld + ld
    x2 /= w
    x2 *= 1.0 - 2.0 ** -46                            # x_lo, rounded down
    xm = xp.minimum(x1, x2)
    w = 2.0 * rho
    w *= xm
    w += 1.0 / (xm + 1.0)
    mu = xm * xm
    mu *= w
    mu *= 1.0 - 2.0 ** -48                            # g''(x_m), rounded down
    loss = _sq_over(xp, s, es, mu + mu)
    lo = _down(xp, v, e)
    lo -= loss * _INFL
    return _then_window(xp, loss <= _LOSS_TOL * xp.abs(v), lo, _eps_window_lo, rho, l, el, a), hi


def _sq_over(xp, s, es, den):
    """An upper bound of S^2 / den for S in [s - es, s + es] (den > 0, rounded down by the caller)."""
    m = xp.abs(s)
    m += es * _INFL
    m *= 1.0 + _U2
    m *= m
    if xp is _MATH and den == 0:
        return math.inf                 # (den underflowed; numpy's x/0 is inf too)
    m /= den
    m *= 1.0 + 2.0 ** -48
    return m


def _eps_window_lo(xp, rho, l, el, a):
    """The lower end from the window certificate (module docstring, 2b); NaN where it does not hold."""
    v, e = _g_eps(xp, rho, l, el, a)
    d = a - 1.0
    w = d * _WIN
    am, ap = a - w, a + w                       # a - am, ap - a exact (Sterbenz); am > 1 since w < d/2
    sm, esm = _s_eps(xp, rho, l, el, am)
    sp_, esp = _s_eps(xp, rho, l, el, ap)
    ok = (_up(xp, sm, esm) < 0) & (_down(xp, sp_, esp) > 0)
    smax = xp.maximum(-_down(xp, sm, esm), _up(xp, sp_, esp))
    dm = am - 1.0
    wmax = xp.maximum(a - am, ap - a)
    loss = smax * wmax / (dm * dm * (1.0 - 4 * _U2)) * _INFL
    lo = _down(xp, v, e) - loss * _INFL
    return xp.where(ok, lo, np.nan) if xp is _NP else (lo if ok else math.nan)


def _delta_cks20(xp, rho, eps, want_lo: bool):
    a = _alpha_delta(xp, rho, eps)
    v, e = _h_delta(xp, rho, eps, a)
    hi = xp.exp(_up(xp, v, e)) * (1.0 + _M) + _T
    if not want_lo:
        return None, hi
    # h'' = 2 rho + 1/(a (a - 1)) >= 2 rho: h(a*) >= h(a) - h'(a)^2 / (4 rho), h' = S_delta (module docstring, 2a)
    s, es = _s_delta(xp, rho, eps, a)
    loss = _sq_over(xp, s, es, 4.0 * rho)
    lo = _down(xp, v, e)
    lo -= loss * _INFL
    lo = xp.exp(lo)
    lo *= 1.0 - _M
    lo -= _T
    return _then_window(xp, loss <= _LOSS_TOL * (1.0 + xp.abs(v)), lo, _delta_window_lo, rho, eps, a), hi


def _delta_window_lo(xp, rho, eps, a):
    """The lower end from the window certificate (module docstring, 2b); NaN where it does not hold."""
    v, e = _h_delta(xp, rho, eps, a)
    d = a - 1.0
    w = d * _WIN
    am, ap = a - w, a + w
    sm, esm = _s_delta(xp, rho, eps, am)
    sp_, esp = _s_delta(xp, rho, eps, ap)
    ok = (_up(xp, sm, esm) < 0) & (_down(xp, sp_, esp) > 0)
    smax = xp.maximum(-_down(xp, sm, esm), _up(xp, sp_, esp))
    loss = smax * xp.maximum(a - am, ap - a) * _INFL
    lo = xp.exp(_down(xp, v, e) - loss * _INFL) * (1.0 - _M) - _T
    return xp.where(ok, lo, np.nan) if xp is _NP else (lo if ok else math.nan)


def _then_window(xp, ok, lo, window_lo, *args):
    """``lo`` with the elements not ``ok`` (NaN included) replaced by ``window_lo(xp, *args)`` on those elements
    only (NaN where the window does not certify either: the caller then asks arb)."""
    if xp is _MATH:
        return lo if ok else window_lo(xp, *args)
    idx = np.flatnonzero(~ok)
    if idx.size:
        lo[idx] = window_lo(_NP, *[x[idx] if isinstance(x, np.ndarray) and x.ndim else x for x in args])
    return lo


def _b_star_cks20(xp, eps_g, delta_g):
    l, el = _neg_log(xp, delta_g)
    a = _alpha_b_star(xp, eps_g, l)
    c, ec = _g_eps(xp, 0.0, l, el, a)            # c(a) = g(a) at rho = 0
    num = eps_g - _up(xp, c, ec)
    num = num - xp.abs(num) * _U2 - _T          # rounded down
    r = num / a
    return xp.maximum(r - r * _U2 - _T, 0.0)    # rounded down; B* >= 0 always (rho = 0 is feasible)


def _b_star_bs16(xp, eps_g, delta_g):
    """(sqrt(l + eps_g) - sqrt(l))^2 = eps_g^2 / (sqrt(l + eps_g) + sqrt(l))^2, decreasing in l: l rounded up."""
    l, el = _neg_log(xp, delta_g)
    lu = l + el * _INFL + l * _U2
    s = xp.sqrt(lu + eps_g) * (1 + 2 * _U2) + xp.sqrt(lu) * (1 + 2 * _U2)   # >= the exact sum at lu
    den = (s * s) * (1 + 3 * _U2)
    r = (eps_g * eps_g) * (1 - _U2) / den
    return xp.maximum(r - r * (2 * _U2) - _T, 0.0)


def _eps_bs16(xp, rho, delta, want_lo: bool):
    """rho + 2 sqrt(rho l): increasing in l."""
    l, el = _neg_log(xp, delta)
    lu = l + el * _INFL + l * _U2
    hi = (rho + 2.0 * xp.sqrt(rho * lu) * (1 + 3 * _U2)) * (1 + _U2) + _T
    if not want_lo:
        return None, hi
    ld = xp.maximum(l - el * _INFL - l * _U2, 0.0)
    lo = (rho + 2.0 * xp.sqrt(rho * ld) * (1 - 3 * _U2)) * (1 - _U2) - _T
    return xp.maximum(lo, 0.0), hi


# ------------------------------------------------------------------------------------------ input handling

def _scalar_in(name, v, rnd, where):
    """A scalar input as a float: floats as given; exact values (str, Fraction, int, Decimal) rounded in the
    direction ``rnd`` ('up' or 'down') that keeps the bound sound (the quantity's monotonicity)."""
    if type(v) is float:
        return v
    q = parse_exact(name, v, where) if not isinstance(v, (int, Fraction)) else Fraction(v)
    return float_up(q) if rnd == "up" else float_down(q)


def _check(name, x, ok, domain, where):
    """Arrays: DomainError naming the first element outside the domain, an interval tested by ``ok`` (elementwise);
    its ends are tested first (min and max, NaN-propagating), the elements only when they fail."""
    if x.size == 0 or np.all(ok(np.array([x.min(), x.max()]))):
        return
    ok = ok(x)
    if not np.all(ok):
        i = int(np.flatnonzero(~np.asarray(ok).ravel())[0])
        raise DomainError(name, float(np.ravel(x)[i]), domain, where, f"first violation at index {i}")


def _arrays(*xs, names=("rho", "second")):
    try:
        arrs = np.broadcast_arrays(*[real_array(n, x) for n, x in zip(names, xs)])
    except ValueError:
        raise DomainError(", ".join(names), " and ".join(str(np.shape(x)) for x in xs), "shapes that broadcast "
                          "together", _WHERE) from None
    shape = arrs[0].shape
    return [np.ascontiguousarray(a).reshape(-1) for a in arrs], shape


def _chunked(body, arrays, shape, n_out):
    """Run ``body(xp, *chunk_arrays) -> tuple of arrays`` over cache-sized chunks (NaN-free output is the body's job)."""
    size = arrays[0].size
    outs = [np.empty(size) for _ in range(n_out)]
    with np.errstate(all="ignore"):
        for s in range(0, size, CHUNK):
            res = body(_NP, *[x[s:s + CHUNK] for x in arrays])
            for o, r in zip(outs, res):
                o[s:s + CHUNK] = r
    return [o.reshape(shape) for o in outs]


def _conv(conversion, allowed):
    if conversion not in allowed:
        raise DomainError("conversion", conversion, f"one of {', '.join(allowed)}", _WHERE)


# ------------------------------------------------------------------------------------------ public functions

def _fixup(xp, rho, lo, hi, want_lo: bool):
    """Ends to return: NaN upper ends -> +inf; NaN lower ends stay NaN (the caller refines them in arb); rho = 0
    -> exactly 0 (both infima are 0 there: the objectives -> 0 as alpha -> oo; eps is clamped at 0 as eps_of)."""
    if want_lo:
        lo = xp.maximum(lo, 0.0)          # NaN stays NaN
    if xp is _NP:
        np.copyto(hi, math.inf, where=np.isnan(hi))
        if np.any(rho == 0):
            zero = rho == 0
            hi[zero] = 0.0
            if want_lo:
                lo[zero] = 0.0
    elif hi != hi:
        hi = math.inf
    return (lo, hi) if want_lo else (hi,)


def _eps_body(conversion, want_lo):
    def body(xp, rho, delta):
        if xp is _MATH and rho == 0:
            return (0.0, 0.0) if want_lo else (0.0,)
        kernel = _eps_bs16 if conversion == "bs16" else _eps_cks20
        lo, hi = kernel(xp, rho, delta, want_lo)
        return _fixup(xp, rho, lo, xp.maximum(hi, 0.0), want_lo)
    return body


def _delta_body(conversion, want_lo):
    def body(xp, rho, eps):
        if xp is _MATH and rho == 0:
            return (0.0, 0.0) if want_lo else (0.0,)
        lo, hi = _delta_cks20(xp, rho, eps, want_lo)
        return _fixup(xp, rho, lo, hi, want_lo)
    return body


def _is_scalar(x) -> bool:
    if isinstance(x, bool):  # (a bool is an int to Python; not a number here)
        raise TypeError(f"expected a real number, got a bool ({x!r})")
    return isinstance(x, (float, int, str, Fraction))


def _quantity(kind: str):
    """(second input's name, body, arb refinement, its domain test, its domain text).  Both quantities increase in
    rho and decrease in the second input: an upper end takes rho rounded up and the second input rounded down."""
    if kind == "eps":
        return "delta", _eps_body, _refine_eps, lambda d: (0 < d) & (d < 1), "0 < delta < 1"
    return "eps", _delta_body, _refine_delta, lambda e: (0 <= e) & (e < math.inf), "eps >= 0 (finite)"


def _check_inputs(second: str, ok2, dom2: str, r, y) -> None:
    if _is_scalar(r):
        if not 0 <= r < math.inf:
            raise DomainError("rho", r, "rho >= 0 (finite)", _WHERE)
        if not ok2(y):
            raise DomainError(second, y, dom2, _WHERE)
        return
    _check("rho", r, lambda v: (v >= 0) & (v < np.inf), "rho >= 0 (finite)", _WHERE)
    _check(second, y, ok2, dom2, _WHERE)


def _interval(kind: str, conversion: str, rho, y):
    second, body_of, refine, ok2, dom2 = _quantity(kind)
    if _is_scalar(rho) and _is_scalar(y):
        r_up, y_dn = _scalar_in("rho", rho, "up", _WHERE), _scalar_in(second, y, "down", _WHERE)
        r_dn, y_up = _scalar_in("rho", rho, "down", _WHERE), _scalar_in(second, y, "up", _WHERE)
        _check_inputs(second, ok2, dom2, r_up, y_dn)
        _check_inputs(second, ok2, dom2, r_dn, y_up)
        hi = body_of(conversion, False)(_MATH, r_up, y_dn)[0]
        lo = body_of(conversion, True)(_MATH, r_dn, y_up)[0]
        return (refine(r_dn, y_up) if lo != lo else lo), hi
    (r, yy), shape = _arrays(rho, y, names=("rho", second))
    _check_inputs(second, ok2, dom2, r, yy)
    lo, hi = _chunked(body_of(conversion, True), [r, yy], shape, 2)
    bad = np.isnan(lo)
    if np.any(bad):
        lo_f = lo.reshape(-1)
        for i in np.flatnonzero(bad.ravel()):
            lo_f[i] = refine(float(r[i]), float(yy[i]))
    return lo, hi


def _upper(kind: str, conversion: str, rho, y):
    second, body_of, _, ok2, dom2 = _quantity(kind)
    if _is_scalar(rho) and _is_scalar(y):
        r, yy = _scalar_in("rho", rho, "up", _WHERE), _scalar_in(second, y, "down", _WHERE)
        _check_inputs(second, ok2, dom2, r, yy)
        return body_of(conversion, False)(_MATH, r, yy)[0]
    (r, yy), shape = _arrays(rho, y, names=("rho", second))
    _check_inputs(second, ok2, dom2, r, yy)
    return _chunked(body_of(conversion, False), [r, yy], shape, 1)[0]


def eps_interval(rho: Any, delta: Any, conversion: str = "cks20") -> tuple[Any, Any]:
    """(lo, hi): float64 bounds with lo <= eps <= hi, eps the conversion's epsilon for rho-zCDP at delta (clamped at 0).

    cks20: inf over alpha > 1 of conversions.cks20 (CKS20 Prop. 12, arXiv:2004.00010); bs16: conversions.bs16 (BS16
    Prop. 1.3, arXiv:1605.02065).  hi: the objective at a float-optimal alpha, rounded up; lo: the window certificate
    of the module docstring (step 2), rounded down; elements whose window cannot be certified in floats are
    enclosed in arb (dpbounds.accounting.conversions.eps_of).  Scalars (float, int, decimal string, Fraction) ->
    floats, exact decimals rounded outward for each end; arrays -> arrays.  Domain: rho >= 0 finite, 0 < delta < 1."""
    _conv(conversion, ("cks20", "bs16"))
    return _interval("eps", conversion, rho, delta)


def eps_upper(rho: Any, delta: Any, conversion: str = "cks20") -> Any:
    """float64 upper bound of the conversion's epsilon for rho-zCDP at delta (never below the exact value).

    The fast default of :func:`dpbounds.accounting.conversions.eps_of` (which returns the certified enclosure).
    Scalars in (float, int, decimal string, Fraction) -> float; arrays -> array.  Exact decimal inputs are rounded
    to floats in the direction that keeps the bound sound (eps increases in rho, decreases in delta).  See
    :func:`eps_interval` for the sources and the domain."""
    _conv(conversion, ("cks20", "bs16"))
    return _upper("eps", conversion, rho, delta)


def delta_interval(rho: Any, eps: Any) -> tuple[Any, Any]:
    """(lo, hi) with lo <= delta <= hi, delta = inf over alpha > 1 of conversions.cks20.delta (CKS20 Prop. 12, delta
    form) at rho-zCDP and target eps.  hi: the objective at a float-optimal alpha (in logs), rounded up; lo: the
    window certificate (module docstring), else the arb enclosure (dpbounds.accounting.conversions.delta_of).
    Domain: rho >= 0, eps >= 0 (finite)."""
    return _interval("delta", "cks20", rho, eps)


def delta_upper(rho: Any, eps: Any) -> Any:
    """float64 upper bound of the CKS20 delta at eps for rho-zCDP (conversions.cks20.delta; never below the exact
    value).  The fast default of :func:`dpbounds.accounting.conversions.delta_of`; scalars -> float, arrays -> array;
    exact decimal inputs rounded soundly (delta increases in rho, decreases in eps).  Domain: rho >= 0, eps >= 0."""
    return _upper("delta", "cks20", rho, eps)


def b_star_lower(eps_g: Any, delta_g: Any, conversion: str = "cks20") -> Any:
    """float64 lower bound of B*(eps_g, delta_g) = sup{rho >= 0 : the conversion turns rho-zCDP into
    (eps_g, delta_g)-DP}: never overstated (a budget a filter may spend).

    cks20 (CKS20 Prop. 12): rho = (eps_g - c(alpha))/alpha rounded down at a float-optimal alpha, c's upper end
    (module docstring, step 1); bs16 (conversions.bs16.b_star, BS16 Prop. 1.3 inverted): eps_g^2 / (sqrt(l + eps_g) +
    sqrt(l))^2 with l = log(1/delta_g) rounded up (B* decreases in l).  Scalars -> float (exact decimal inputs rounded
    down: B* increases in eps_g and delta_g); arrays -> array.  Domain: eps_g > 0, 0 < delta_g < 1 (finite)."""
    _conv(conversion, ("cks20", "bs16"))
    body = (lambda xp, e, d: (_b_star_cks20(xp, e, d),)) if conversion == "cks20" else \
        (lambda xp, e, d: (_b_star_bs16(xp, e, d),))
    where = "dpbounds.accounting.fast_conversions.b_star_lower"
    if _is_scalar(eps_g) and _is_scalar(delta_g):
        e, d = _scalar_in("eps_g", eps_g, "down", where), _scalar_in("delta_g", delta_g, "down", where)
        if not 0 < e < math.inf:
            raise DomainError("eps_g", eps_g, "eps_g > 0 (finite)", where)
        if not 0 < d < 1:
            raise DomainError("delta_g", delta_g, "0 < delta_g < 1", where)
        v = body(_MATH, e, d)[0]
        return v if v == v else 0.0
    (e, d), shape = _arrays(eps_g, delta_g, names=("eps_g", "delta_g"))
    _check("eps_g", e, lambda v: (v > 0) & (v < np.inf), "eps_g > 0 (finite)", where)
    _check("delta_g", d, lambda v: (v > 0) & (v < 1), "0 < delta_g < 1", where)
    out = _chunked(body, [e, d], shape, 1)[0]
    np.copyto(out, 0.0, where=np.isnan(out))
    return out


# ------------------------------------------------------------------------------------------ checks and refinement

#: the certified conversions (eps_of, delta_of), set by dpbounds.accounting.conversions when it is imported (it
#: imports this module; the fallback reaches it through this dict, so the modules do not import each other)
CERTIFIED: dict[str, Any] = {}


def _refine_eps(r: float, d: float) -> float:
    """The arb-certified lower end where the float window was not certified (0 if arb cannot either)."""
    eps_of = CERTIFIED.get("eps_of")
    if eps_of is None:
        return 0.0  # (always a lower end)
    try:
        return max(float_down(eps_of(Fraction(r), Fraction(d), "cks20", rel_tol=Fraction(1, 10**12)).lo), 0.0)
    except (CertificationError, DomainError, ValueError, OverflowError, MemoryError):
        return 0.0  # (MemoryError: optimize.py's exact ends of a value like exp(-1e12); 0 is still a lower end)


def _refine_delta(r: float, e: float) -> float:
    delta_of = CERTIFIED.get("delta_of")
    if delta_of is None:
        return 0.0  # (always a lower end)
    try:
        return max(float_down(delta_of(Fraction(r), Fraction(e), "cks20").lo), 0.0)
    except (CertificationError, DomainError, ValueError, OverflowError, MemoryError):
        return 0.0  # (MemoryError: optimize.py's exact ends of a value like exp(-1e12); 0 is still a lower end)
