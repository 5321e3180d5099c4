"""Linear convolution of nonnegative float64 arrays by a radix-2 FFT, with a proved a-priori bound on its error.

``fft_convolution(a, b)`` returns ``(c, E)``: ``c[j]`` is the computed convolution and ``|c[j] - (a * b)[j]| <= E``
for every j, where ``a * b`` is the exact convolution of the float inputs.  Callers add ``E`` (upper bounds) or
subtract it (lower bounds): the error is absolute, per output entry.

The FFT is our own: the iterative Cooley-Tukey radix-2 decimation-in-time algorithm (Stockham's autosort ordering
of the same butterflies: each stage forms ``t = w * y_odd`` and then ``y_even + t``, ``y_even - t``, exactly the
operations of Higham's analysis; only where the results are stored differs).  numpy's FFT (pocketfft: mixed radix,
its own twiddle generation) is not used, because no published bound covers its exact operations.

Error bound.  Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed. (SIAM 2002), Theorem 24.2: if the
computed weights satisfy ``|w~ - w| <= mu`` then the computed ``y~ = fl(F_N x)``, ``N = 2^t``, satisfies
``||y~ - y||_2 <= (t eta / (1 - t eta)) ||y||_2``, ``eta = mu + gamma_4 (sqrt 2 + mu)``, ``gamma_m = m u/(1 - m u)``,
``u = 2^-53`` (complex addition errs by at most ``u`` relatively and complex multiplication by ``sqrt 2 gamma_2``,
Higham Lemma 3.5 -- also with fused multiply-adds, whose componentwise error is no larger).  The weights come from
two tables of correctly rounded values (arb, then rounded to nearest: each component within ``2^-53``), multiplied
once: ``|w~ - w| <= sqrt2 2^-53 (2 + sqrt2 2^-53) + sqrt2 gamma_2 (1 + sqrt2 2^-53)^2 < 2^-50 = mu``.

With ``eps_N = t eta / (1 - t eta)``, ``A = F a``, ``alpha = ||a||_1 >= |A_m|``, ``a_2 = ||a||_2`` (so
``||A||_2 = sqrt N a_2``) and the same for ``b``:  ``||A~ - A||_2 <= eps_N sqrt N a_2``, hence
``|A~_m| <= alpha + eps_N sqrt N a_2 =: alpha~``, ``||B~||_2 <= (1 + eps_N) sqrt N b_2``; the pointwise product
``P~ = fl(A~ B~)`` has ``||P~ - A~ B~||_2 <= sqrt2 gamma_2 alpha~ ||B~||_2``;
``A~ B~ - A B = (A~ - A) B~ + A (B~ - B)``;
and the inverse transform ``c~ = fl(F^-1 P~) = conj(fl(F conj P~)) / N`` (conjugation and the power-of-two scaling
are exact) errs by ``eps_N ||P~||_2 / sqrt N``.  Since ``||F^-1 v||_2 = ||v||_2 / sqrt N``:

    ||c~ - c||_2 <= [sqrt2 gamma_2 + eps_N (1 + sqrt2 gamma_2)] alpha~ (1 + eps_N) b_2 + eps_N (beta~ a_2 + alpha b_2)

and every entry's error is at most the 2-norm (the real part's error at most the complex one's).  Higham's model
assumes no underflow; an operation whose result is subnormal errs by at most ``2^-1074`` more in absolute value,
which through the remaining stages (each of 2-norm ``sqrt 2``) and the scaling adds at most ``4 t N 2^-1074`` to
the 2-norm: ``E`` includes ``N t 2^-1066``.  ``E`` is computed in exact rational arithmetic from upper bounds of the
norms and rounded up.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import numpy as np

_U = Fraction(1, 2 ** 53)
_MU = Fraction(1, 2 ** 50)
_SQRT2_UP = Fraction(1414213563, 10 ** 9)       # > sqrt 2
_SPLIT = 1024                                    # two-level weight tables: w_j = HI[j // _SPLIT] * LO[j % _SPLIT]


def _gamma(m: int) -> Fraction:
    return m * _U / (1 - m * _U)


@functools.lru_cache(maxsize=32)
def twiddles(n: int) -> np.ndarray:
    """w_j ~ exp(-2 pi i j / n), j < n/2, each within mu = 2^-50 of the exact value (module docstring)."""
    from flint import arb
    from dpbounds.evaluation.numeric import arb_prec
    half = n // 2
    nlo = min(_SPLIT, max(half, 1))
    nhi = -(-half // nlo)

    def table(idx, scale):
        out = np.empty(len(idx), dtype=np.complex128)
        with arb_prec(80):
            for r, j in enumerate(idx):
                x = arb(-2 * j * scale) / n
                out[r] = complex(float(x.cos_pi().mid()), float(x.sin_pi().mid()))
        return out

    lo = table(range(nlo), 1)
    hi = table(range(nhi), nlo)
    return (hi[:, None] * lo[None, :]).reshape(-1)[:half]


def fft(x: np.ndarray) -> np.ndarray:
    """Unnormalized DFT y_k = sum_j x_j exp(-2 pi i jk/N) of a complex array of length N = 2^t (radix-2 DIT)."""
    n = x.size
    if n & (n - 1):
        raise ValueError("fft: length must be a power of two")
    if n == 1:
        return x.astype(np.complex128).copy()
    tw = twiddles(n)
    y = np.ascontiguousarray(x, dtype=np.complex128).copy()
    out = np.empty_like(y)
    half = 1          # current sub-transform length L/2
    r = n // 2        # number of sub-transforms of length L after this stage
    while r >= 1:
        # y holds 2r transforms of length `half` (row j = transform of x[j::2r]); out: r transforms of length 2 half
        Y = y.reshape(2 * r, half)
        ev, od = Y[:r], Y[r:]
        w = tw[::r][:half]                       # exp(-2 pi i k / (2 half)), k < half
        O = out.reshape(r, 2, half)
        t = od * w
        np.add(ev, t, out=O[:, 0, :])
        np.subtract(ev, t, out=O[:, 1, :])
        y, out = out, y
        half *= 2
        r //= 2
    return y


def _norm_bounds(a: np.ndarray) -> tuple[Fraction, Fraction]:
    """(upper bound of ||a||_1, upper bound of ||a||_2) for a >= 0: a float sum of n nonnegative terms in any order
    is >= (1 - gamma_{n-1}) times the exact one (Higham eq. (4.4)); each square adds one rounding (1 + u), and
    subnormal squares at most 2^-1074 each."""
    n = max(a.size, 2)
    g = _gamma(n + 1)
    s1 = Fraction(float(np.sum(a))) / (1 - g)
    sq = Fraction(float(np.dot(a, a))) / (1 - g) * (1 + _U) + Fraction(a.size, 2 ** 1074)
    r = Fraction(math.sqrt(float(sq)))
    while r * r < sq:
        r = Fraction(math.nextafter(float(r), math.inf))
    return s1, r


def error_bound(n: int, a1: Fraction, a2: Fraction, b1: Fraction, b2: Fraction) -> float:
    """E of the module docstring for transform length n = 2^t and norm bounds of the two inputs."""
    t = n.bit_length() - 1
    eta = _MU + _gamma(4) * (_SQRT2_UP + _MU)
    if t * eta >= Fraction(1, 2):
        raise ArithmeticError("fft_convolution: transform too long for the error bound")
    eps = t * eta / (1 - t * eta)
    rt = Fraction(math.isqrt(n) + 1)                       # >= sqrt n
    g2 = _SQRT2_UP * _gamma(2)
    at = a1 + eps * rt * a2
    bt = b1 + eps * rt * b2
    e = (g2 + eps * (1 + g2)) * at * (1 + eps) * b2 + eps * (bt * a2 + a1 * b2)
    e += Fraction(n * max(t, 1), 2 ** 1066)
    from dpbounds.evaluation.numeric import float_up
    return float_up(e)


def fft_convolution(a: np.ndarray, b: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """(c, E): the computed linear convolution of the nonnegative float arrays a and b (b = None: a with itself) and
    a bound E on the error of every entry (module docstring)."""
    sq = b is None
    nb = a.size if sq else b.size
    m = a.size + nb - 1
    n = 1 << max(1, (m - 1).bit_length())
    xa = np.zeros(n, dtype=np.complex128)
    xa.real[:a.size] = a
    A = fft(xa)
    a1, a2 = _norm_bounds(a)
    if sq:
        P = A * A
        b1, b2 = a1, a2
    else:
        xb = np.zeros(n, dtype=np.complex128)
        xb.real[:b.size] = b
        P = A * fft(xb)
        b1, b2 = _norm_bounds(b)
    c = fft(np.conj(P))
    c = c.real[:m] * (1.0 / n)
    return c, error_bound(n, a1, a2, b1, b2)
