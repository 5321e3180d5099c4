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


#: rows transformed together: a working set of about this many bytes stays in the cache (the arithmetic of every
#: row is the same whatever the grouping)
_CHUNK_BYTES = 1 << 20


def fft(x: np.ndarray) -> np.ndarray:
    """Unnormalized DFT y_k = sum_j x_j exp(-2 pi i jk/N) of a complex array of length N = 2^t (radix-2 DIT);
    a 2-d array is transformed row by row (each row by exactly the operations of a 1-d call), a few rows at a time.

    The first stage's weight is exactly 1: its products w y_odd are y_odd exactly, so they are not formed (the
    result is bit for bit the same)."""
    rows = x.shape[0] if x.ndim == 2 else None
    n = x.shape[-1]
    if n & (n - 1):
        raise ValueError("fft: length must be a power of two")
    if n == 1:
        return x.astype(np.complex128).copy()
    tw = twiddles(n)
    X = np.ascontiguousarray(x, dtype=np.complex128).reshape(-1, n)
    R = X.shape[0]
    cr = max(1, min(R, _CHUNK_BYTES // (16 * n)))
    res = None if cr == R else np.empty((R, n), dtype=np.complex128)
    buf_a = np.empty(cr * n, dtype=np.complex128)
    buf_b = np.empty_like(buf_a)
    buf_t = np.empty(cr * n // 2, dtype=np.complex128)
    for r0 in range(0, R, cr):
        rr = min(cr, R - r0)
        y = buf_a[:rr * n].reshape(rr, n)
        y[...] = X[r0:r0 + rr]
        out = buf_b[:rr * n].reshape(rr, n)
        half = 1          # current sub-transform length L/2
        r = n // 2        # number of sub-transforms of length L after this stage
        while r >= 1:
            # y holds 2r transforms of length `half` (row j = transform of x[j::2r]); out: r transforms of length
            # 2 half
            Y = y.reshape(rr, 2 * r, half)
            ev, od = Y[:, :r], Y[:, r:]
            O = out.reshape(rr, r, 2, half)
            if half == 1:
                t = od                                   # w = 1 exactly
            else:
                t = buf_t[:rr * r * half].reshape(rr, r, half)
                np.multiply(od, tw[::r][:half], out=t)   # exp(-2 pi i k / (2 half)), k < half
            np.add(ev, t, out=O[:, :, 0, :])
            np.subtract(ev, t, out=O[:, :, 1, :])
            y, out = out, y
            half *= 2
            r //= 2
        if res is None:
            return y.copy() if rows is not None else y[0].copy()
        res[r0:r0 + rr] = y
    return res if rows is not None else res[0]


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


def _eps_n(n: int) -> Fraction:
    """eps_N = t eta / (1 - t eta) of Higham's Theorem 24.2 for n = 2^t (module docstring)."""
    t = n.bit_length() - 1
    eta = _MU + _gamma(4) * (_SQRT2_UP + _MU)
    if t * eta >= Fraction(1, 2):
        raise ArithmeticError("fft: transform too long for the error bound")
    return t * eta / (1 - t * eta)


def error_bound(n: int, a1: Fraction, a2: Fraction, b1: Fraction, b2: Fraction) -> float:
    """E of the module docstring for transform length n = 2^t and norm bounds of the two inputs."""
    t = n.bit_length() - 1
    eps = _eps_n(n)
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


def _bound_coefficients(n: int) -> tuple[float, float, float, float, float]:
    """error_bound's constants for transform length n, each rounded up to a float: (eps_N, sqrt n bound,
    sqrt2 gamma_2 + eps_N (1 + sqrt2 gamma_2), 1 + eps_N, the underflow term)."""
    from dpbounds.evaluation.numeric import float_up
    t = n.bit_length() - 1
    eps = _eps_n(n)
    g2 = _SQRT2_UP * _gamma(2)
    return (float_up(eps), float(math.isqrt(n) + 1), float_up(g2 + eps * (1 + g2)), float_up(1 + eps),
            float_up(Fraction(n * max(t, 1), 2 ** 1066)))


def _block_norms(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Upper bounds of the 1- and 2-norms of each row of the nonnegative float array X: a float sum of m
    nonnegative terms is >= (1 - gamma_{m-1}) times the exact one (Higham eq. (4.4)) and each square adds one
    rounding, so the float results times (1 + 2 (m + 2) u) (m u < 1/4), plus m 2^-1074 for subnormal squares,
    bound them; the square root (correctly rounded) is moved up two ulps."""
    m = X.shape[1]
    if (m + 2) * 2.0 ** -53 > 0.25:
        raise ArithmeticError("blocks too long for the norm bound")
    f = 1.0 + 2.0 * (m + 2) * 2.0 ** -53
    s1 = np.nextafter(X.sum(axis=1) * f, np.inf)
    sq = np.nextafter(np.einsum("ij,ij->i", X, X) * f, np.inf) + m * 2.0 ** -1074
    s2 = np.nextafter(np.nextafter(np.sqrt(np.nextafter(sq, np.inf)), np.inf), np.inf)
    return s1, s2


def blocked_convolution(a: np.ndarray, b: np.ndarray | None = None, s: int = 256) -> tuple[np.ndarray, np.ndarray]:
    """(lo, hi): elementwise lower and upper bounds of the exact linear convolution of the nonnegative float arrays
    a and b (b = None: a with itself), whose absolute errors are local to the masses involved.

    a and b are cut into blocks a_I, b_J of s entries (s a power of two; zero padding), N = 2s.  The exact
    convolution is the sum over K of the block sums c_K = sum_{I+J=K} a_I * b_J placed at offset K s (each c_K a
    nonnegative vector of length 2s - 1, no wrap-around at length N).  Computed: the forward transforms
    A~_I = fl(F x_I), B~_J as in :func:`fft_convolution`, the products P~_IJ = fl(A~_I B~_J), their sums
    S~_K = fl(sum_{I+J=K} P~_IJ) (m <= min(#blocks) terms) and c~_K = fl(F^-1 S~_K).  With the bounds of the module
    docstring per pair (alpha_I, a2_I the block's norms, alpha~_I = alpha_I + eps_N sqrt N a2_I,
    ||P~_IJ - P_IJ||_2 <= sqrt N D_IJ with D_IJ = sqrt2 gamma_2 alpha~_I (1 + eps_N) b2_J + eps_N (beta~_J a2_I +
    alpha_I b2_J), and ||P~_IJ||_2 <= sqrt N R_IJ with R_IJ = (1 + sqrt2 gamma_2) alpha~_I (1 + eps_N) b2_J), the
    complex recursive sum errs componentwise by at most gamma_{m-1} sum |P~_IJ| in each of the real and imaginary
    parts (Higham eq. (4.4)), i.e. by sqrt2 gamma_{m-1} sum_IJ ||P~_IJ||_2 in 2-norm, and the inverse transform by
    eps_N ||S~_K||_2 / sqrt N; as ||F^-1 v||_2 = ||v||_2 / sqrt N, every entry of c~_K is within

        E_K = sum_{I+J=K} D_IJ + (sqrt2 gamma_{m-1} + eps_N (1 + sqrt2 gamma_{m-1})) sum_{I+J=K} R_IJ

    of c_K's (plus the underflow term of the module docstring).  E_K is computed in float from constants rounded up
    (nonnegative terms only; the sums times 1 + 2^-30, more than their rounding error): it is small where the
    blocks' masses are, so tails stay tails.  Each entry of the result is the sum of at most two block sums' bounds
    max(c~ -+ E_K, 0), rounded outward."""
    sq = b is None
    bb = a if sq else b
    na, nb = a.size, bb.size
    Ba, Bb = -(-na // s), -(-nb // s)
    N = 2 * s
    Xa = np.zeros((Ba, s))
    Xa.reshape(-1)[:na] = a
    Xb = Xa if sq else np.zeros((Bb, s))
    if not sq:
        Xb.reshape(-1)[:nb] = bb
    Ca = np.zeros((Ba, N), dtype=np.complex128)
    Ca.real[:, :s] = Xa
    A = fft(Ca)
    if sq:
        B = A
    else:
        Cb = np.zeros((Bb, N), dtype=np.complex128)
        Cb.real[:, :s] = Xb
        B = fft(Cb)
    a1, a2 = _block_norms(Xa)
    b1, b2 = (a1, a2) if sq else _block_norms(Xb)
    eps, rt, _, c1e, tiny = _bound_coefficients(N)
    m = min(Ba, Bb)
    if (m + 2) * 2.0 ** -53 > 2.0 ** -40:
        raise ArithmeticError("too many blocks for the summation bound")
    from dpbounds.evaluation.numeric import float_up
    g2 = float_up(_SQRT2_UP * _gamma(2))
    gm = float_up(_SQRT2_UP * _gamma(max(m - 1, 1)))
    tail_coef = np.nextafter((gm + eps * (1.0 + gm)) * (1.0 + g2) * c1e, np.inf)
    at = a1 + eps * rt * a2
    bt = b1 + eps * rt * b2
    K = Ba + Bb - 1
    S = np.zeros((K, N), dtype=np.complex128)
    D = np.zeros(K)
    R = np.zeros(K)
    d_rows = (g2 * c1e) * np.outer(at, b2) + eps * (np.outer(a2, bt) + np.outer(a1, b2))
    r_rows = np.outer(at, b2)
    if sq:
        # a = b: P~_IJ and P~_JI are the same float products (complex multiplication commutes exactly), so the pair
        # is added once, doubled (exact): the same m terms summed in another order, within the same bound
        for I in range(Ba):
            S[2 * I] += A[I] * A[I]
            if I + 1 < Ba:
                S[2 * I + 1:I + Ba] += 2.0 * (A[I][None, :] * A[I + 1:])
        for I in range(Ba):
            D[I:I + Bb] += d_rows[I]
            R[I:I + Bb] += r_rows[I]
    else:
        for I in range(Ba):
            S[I:I + Bb] += A[I][None, :] * B
            D[I:I + Bb] += d_rows[I]
            R[I:I + Bb] += r_rows[I]
    E = D * (1.0 + 2.0 ** -30) + tail_coef * (R * (1.0 + 2.0 ** -30)) + tiny
    E = np.nextafter(E * (1.0 + 2.0 ** -40), np.inf)
    c = fft(np.conj(S)).real * (1.0 / N)
    e = E[:, None]
    u = np.maximum(np.nextafter(c + e, np.inf), 0.0)
    d = np.maximum(np.nextafter(c - e, -np.inf), 0.0)
    hi = np.zeros((K + 1, s))
    lo = np.zeros((K + 1, s))
    hi[:K] = u[:, :s]
    lo[:K] = d[:, :s]
    hi[1:] += u[:, s:]
    lo[1:] += d[:, s:]
    mo = na + nb - 1
    hi = np.nextafter(hi.reshape(-1)[:mo], np.inf)
    lo = np.maximum(np.nextafter(lo.reshape(-1)[:mo], -np.inf), 0.0)
    return lo, hi


def power_error_bound(n: int, k: int, a1: Fraction, a2: Fraction) -> float:
    """A bound E on every entry's error of :func:`cyclic_power`'s result against the exact k-fold cyclic convolution
    (length n = 2^t) of the nonnegative float array a, from upper bounds a1 >= ||a||_1, a2 >= ||a||_2.

    With A = F a exact and A~ = fl(F a): ||A~ - A||_2 <= eps_N sqrt n a2 (Higham Thm. 24.2, module docstring), so
    every |A_j|, |A~_j| <= R = a1 + eps_N sqrt n a2.  The power P~_j of A~_j by repeated squaring is the exact power
    times a product of factors (1 + d_i), |d_i| <= g = sqrt2 gamma_2 (Higham Lemma 3.5), whose exponents sum to k - 1
    (x^(2^l) carries 2^l - 1, and the popcount - 1 products of those one each): |P~_j - A~_j^k| <= ((1 + g)^(k-1) - 1)
    R^k; and |A~_j^k - A_j^k| <= k R^(k-1) |A~_j - A_j|.  So ||P~ - A^k||_2 <= sqrt n [((1 + g)^(k-1) - 1) R^k +
    k R^(k-1) eps_N a2] and ||P~||_2 <= sqrt n (1 + g)^(k-1) R^k.  The inverse transform c~ = conj(fl(F conj P~)) / n
    errs by eps_N ||P~||_2 / sqrt n, and F^-1 A^k is the exact cyclic k-fold convolution, ||F^-1 v||_2 = ||v||_2 /
    sqrt n: every entry of c~ is within

        E = ((1 + g)^(k-1) - 1) R^k + k R^(k-1) eps_N a2 + eps_N (1 + g)^(k-1) R^k

    of it (each entry's error at most the 2-norm; the real part's at most the complex one's).  Underflow: every
    real operation whose result is subnormal errs by at most 2^-1074 more; a complex product has 6, at most 2k
    products lie on an entry's path, and an absolute error through the later squarings and products grows by at
    most 2 k R'^k (R' = max(R, 1)): at most 24 k^2 R'^k 2^-1074 an entry, n times that in 2-norm; the two transforms
    add n t 2^-1066 (module docstring).  E includes (24 k^2 R'^k + t) n 2^-1066, more than both."""
    from flint import arb
    from dpbounds.evaluation.numeric import arb_prec, float_up
    t = n.bit_length() - 1
    eps = _eps_n(n)
    rt = Fraction(math.isqrt(n) + 1)                       # >= sqrt n
    g = _SQRT2_UP * _gamma(2)
    R = a1 + eps * rt * a2
    with arb_prec(128):
        def A(x: Fraction):
            return arb(x.numerator) / arb(x.denominator)
        Rb = A(max(R, Fraction(1)))
        Rk = A(R) ** k
        Rk1 = A(R) ** (k - 1)
        G = (1 + A(g)) ** (k - 1)
        e = (G - 1) * Rk + k * Rk1 * A(eps) * A(a2) + A(eps) * G * Rk
        e += (24 * k * k * Rb ** k + t) * n * arb(2) ** -1066
        return float_up(e)


def cyclic_power(a: np.ndarray, k: int, n: int) -> tuple[np.ndarray, float]:
    """(c, E): the computed k-fold cyclic convolution (length n = 2^t, a zero-padded; len(a) <= n) of the nonnegative
    float array a -- forward transform, the pointwise k-th power by repeated squaring (squares low bits first, the
    products in the order of the set bits), inverse transform -- and a bound E on every entry's error against the
    exact one (:func:`power_error_bound`)."""
    if n & (n - 1) or a.size > n or k < 1:
        raise ValueError("cyclic_power: n a power of two >= len(a), k >= 1")
    x = np.zeros(n, dtype=np.complex128)
    x.real[:a.size] = a
    X = fft(x)
    result = None
    base = X
    kk = k
    while True:
        if kk & 1:
            result = base.copy() if result is None else result * base
        kk >>= 1
        if not kk:
            break
        base = base * base
    c = fft(np.conj(result)).real * (1.0 / n)
    a1, a2 = _norm_bounds(a)
    return c, power_error_bound(n, k, a1, a2)
