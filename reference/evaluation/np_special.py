"""Certified vectorized special functions for the float64 fast path: ``erfc`` on interval arrays.

numpy has no erfc, and a libm erfc has no error bound we could cite; so erfc is evaluated here from a table of
Taylor polynomials whose every error term is *computed* (with arb, rounded outward) when the table is built:

* Cells of width 1/256 centred on ``x_j = j/256`` for ``j = -6*256 .. 27*256``.  ``t = rint(256 x)`` is exact (a
  power-of-two scaling and an exact rounding to an integer), ``|256 x - t| <= 1/2``, so ``h = x - t/256`` satisfies
  ``|h| <= 1/512``; and ``h`` is computed exactly: if ``t = 0`` then ``h = x``, otherwise ``|x| >= 2^-9`` so ``x``
  and ``t/256`` are multiples of ``ulp(x) >= 2^-61`` and ``|h| <= 2^-9 = 2^52 * 2^-61`` is representable.
* ``erfc(x_j + h) = sum_{k<=n} c_k h^k + R`` with ``n = DEG``.  The coefficients come from ``erfc' = -(2/sqrt(pi))
  g``, ``g = exp(-x^2)``, ``g' = -2 x g``: ``(k+1) g_{k+1} = -2 x_j g_k - 2 g_{k-1}`` and ``c_{k+1} = -(2/sqrt(pi))
  g_k / (k+1)``, in arb at 128 bits.  Lagrange: ``|R| <= sup_{xi in cell} |c_{n+1}(xi)| |h|^{n+1}``, and the same
  recurrence run on the ball ``xi = [x_j +- 1/512]`` encloses ``c_{n+1}(xi)`` over the whole cell.
* The stored float coefficients ``c~_k`` differ from the exact ``c_k`` by an arb-computed amount.  Horner's rule in
  float64 (no FMA) on the exact ``h``: write ``p = c~_0 + h q`` with ``q`` the inner Horner of ``c~_1..c~_n``, which
  errs by at most ``gamma_{2n-2} sum_{k>=1} |c~_k| |h|^{k-1}`` (Higham, *Accuracy and Stability of Numerical
  Algorithms*, 2nd ed., eq. (5.3)), ``gamma_m = m u / (1 - m u)``, ``u = 2^-53``.  The last product and sum add
  ``|h q~ delta_1| + |p~ delta_2 / (1 + delta_2)|``, so ``|p~ - p| <= gamma_{2n} S_1 + u/(1-u) (1 + gamma_{2n}) S``
  with ``S_1 = sum_{k>=1} |c~_k| r^k``, ``S = |c~_0| + S_1``, ``r = 1/512``: the large leading coefficient carries only
  one rounding.  Where results are subnormal each operation may add up to ``2^-1075`` more (``4 n 2^-1074`` in all).
* The per-cell total ``E_j`` (all four terms with ``|h| = 1/512``) plus ``2 u (1 + gamma) S + 2^-1073`` (room for the
  half-ulp rounding of the final ``p~ -+ E_j``, as ``|p~ -+ E_j| <= (1 + gamma) S + E_j``) is rounded up to a float.
* Outside the table: ``erfc(x) in [2 - 2^-52, 2]`` for ``x < -6 - 1/512`` (``erfc(6) < 2.2e-17``) and
  ``erfc(x) in [0, erfc(27)]`` for ``x > 27 + 1/512`` (monotone; ``erfc(27)`` rounded up, a subnormal); NaN gives
  ``[0, 2]``, the range of erfc.

An interval ``[a, b]`` maps to ``[lower(erfc(b)), upper(erfc(a))]`` (erfc is decreasing).  The tests compare every
end with arb's erfc at hundreds of points per cell class.  The table (8449 cells) is built once, on first use.
"""

from __future__ import annotations

import threading

import numpy as np
from dpbounds.evaluation.numeric import arb_prec, float_up

DEG = 10
SCALE = 256
JMIN = -6 * SCALE
JMAX = 27 * SCALE
_TABLE: list = []
_LOCK = threading.Lock()


def _build() -> tuple[np.ndarray, np.ndarray, float, np.ndarray]:
    from flint import arb

    n = DEG
    cells = JMAX - JMIN + 1
    coefs = np.empty((n + 1, cells))
    err = np.empty(cells)
    slope = np.empty(cells)
    with arb_prec(128):
        k2 = -2 / arb.pi().sqrt()
        r = arb(1) / 512
        u = arb(2) ** -53
        gamma = 2 * n * u / (1 - 2 * n * u)
        tiny_total = 4 * n * arb(2) ** -1074

        def taylor(x0, upto):
            """[c_0 (None), c_1, ..., c_upto] of erfc at x0 (a point or a ball)."""
            g = [(-x0 * x0).exp()]
            g.append(-2 * x0 * g[0])
            for k in range(1, upto - 1):
                g.append((-2 * x0 * g[k] - 2 * g[k - 1]) / (k + 1))
            return [None] + [k2 * g[k - 1] / k for k in range(1, upto + 1)]

        for i, j in enumerate(range(JMIN, JMAX + 1)):
            x0 = arb(j) / SCALE
            c = taylor(x0, n)
            c[0] = x0.erfc()
            rem = abs(taylor(arb(x0, r), n + 1)[n + 1]) * r ** (n + 1)
            s1 = arb(0)      # sum_{k>=1} |c~_k| r^k
            cerr = arb(0)
            rk = arb(1)
            for k in range(n + 1):
                cf = float(c[k].mid())
                coefs[k, i] = cf
                if k:
                    s1 += abs(arb(cf)) * rk
                cerr += abs(c[k] - arb(cf)) * rk
                rk *= r
            s = abs(arb(coefs[0, i])) + s1
            # the error bound of p~, plus room for the rounding of p~ -+ err (see erfc_interval)
            err[i] = float_up(3 * u / (1 - u) * s * (1 + gamma) + gamma * s1 + cerr + rem + tiny_total
                              + 2 * arb(2) ** -1074)
            # sup |erfc'| = (2/sqrt(pi)) exp(-xi^2) over [x_j - 1/512, x_j + 3/512] (the cell and one more 1/512
            # to its right), times 1 + 2^-40 for the roundings of the width, the product and the sum it enters
            xi = arb(x0 + r, 2 * r)  # [x_j - 1/512, x_j + 3/512]
            slope[i] = float_up(abs(k2 * (-xi * xi).exp()).upper() * (1 + arb(2) ** -40))
        tail = float_up(arb(27).erfc())
    return coefs, err, tail, slope


def _table():
    if not _TABLE:
        with _LOCK:
            if not _TABLE:
                _TABLE.append(_build())
    return _TABLE[0]


def erfc_point_bounds(x: np.ndarray, want_lo: bool = True, want_hi: bool = True):
    """(lo, hi) float64 arrays with lo <= erfc(x) <= hi elementwise, x a float64 array of exact points.

    Either end may be skipped (returned as None) when the caller needs only one side.
    """
    x = np.asarray(x, dtype=np.float64)
    lo, hi = erfc_interval(x, x)
    return (lo if want_lo else None), (hi if want_hi else None)


def _locate(x):
    """(t, idx, h, inside): the cell index t = rint(256 x), its table row, the exact offset h, in-table mask."""
    t = np.rint(x * SCALE)
    inside = (t >= JMIN) & (t <= JMAX)          # False for NaN
    all_in = bool(inside.all())
    tt = t if all_in else np.where(inside, t, 0.0)
    idx = (tt - JMIN).astype(np.intp)
    h = x - tt * (1.0 / SCALE)                  # exact (module docstring)
    return t, idx, h, (None if all_in else inside)


def _horner(cols, h):
    p = cols[DEG] * h
    for k in range(DEG - 1, 0, -1):
        p += cols[k]
        p *= h
    p += cols[0]
    return p


_NARROW = 2.0 ** -10   # intervals no wider than this (computed) use the one-Horner path


def erfc_interval(x_lo: np.ndarray, x_hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sound float64 enclosure of erfc over the intervals [x_lo, x_hi] (elementwise): erfc is decreasing, so the
    lower end is a lower bound at x_hi and the upper end an upper bound at x_lo.

    ``p~ -+ E'_j`` needs no further outward step: ``E'_j`` includes ``2 u (1 + gamma) S_j + 2^-1073`` beyond the
    error bound ``E_j`` of ``p~``, more than the half-ulp rounding of the final subtraction or addition.

    Narrow intervals (every ``a = x_lo`` in the table and ``fl(b - a) <= 2^-10``, so ``b - a <= 2^-9``): one Horner
    at ``a`` gives both ends, ``erfc(b) >= erfc(a) - D_j (b - a)`` with ``D_j`` the table's bound on ``|erfc'|``
    over ``[x_j - 1/512, x_j + 3/512]`` (which contains ``[a, b]``), inflated by ``1 + 2^-40`` to cover the
    roundings of ``b - a``, of the product and of ``E_j + D_j w``.
    """
    coefs, err, tail, slope = _table()
    a = np.asarray(x_lo, dtype=np.float64)
    b = np.asarray(x_hi, dtype=np.float64)
    shape = np.broadcast_shapes(a.shape, b.shape)
    a = np.broadcast_to(a, shape).reshape(-1)
    b = np.broadcast_to(b, shape).reshape(-1)
    with np.errstate(all="ignore"):  # out-of-table lanes (inf, NaN) compute garbage that is overwritten below
        ta, ia, ha, ina = _locate(a)
        w = b - a
        cols_a = [c.take(ia) for c in coefs]
        p = _horner(cols_a, ha)
        e = err.take(ia)
        if ina is None and bool((w <= _NARROW).all()):   # NaN widths fail the test
            w *= slope.take(ia)
            w += e
            lo = p - w
            p += e
            hi = p
        else:
            hi = p + e
            tb, ib, hb, inb = _locate(b)
            cols_b = cols_a if np.array_equal(ia, ib) else [c.take(ib) for c in coefs]
            lo = _horner(cols_b, hb)
            lo -= err.take(ib) if cols_b is not cols_a else e
            if inb is not None:
                lo[tb > JMAX] = 0.0
                lo[tb < JMIN] = 2.0 - 2.0 ** -52
                lo[np.isnan(b)] = 0.0
            if ina is not None:
                hi[ta > JMAX] = tail
                hi[ta < JMIN] = 2.0
                hi[np.isnan(a)] = 2.0
    np.maximum(lo, 0.0, out=lo)
    np.minimum(hi, 2.0, out=hi)
    return lo.reshape(shape), hi.reshape(shape)
