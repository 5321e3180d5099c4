"""Certified log-moments of the Poisson-subsampled Gaussian mechanism (the evaluator of ``mechanisms.sgm.rdp``).

With mu_0 = N(0, sigma^2), mu_1 = (1 - q) N(0, sigma^2) + q N(1, sigma^2) and the likelihood ratio
w(x) = mu_1/mu_0 (x) = 1 - q + q exp(u(x)), u(x) = (2x - 1)/(2 sigma^2),

    K(q, sigma, s) = log E_{x ~ mu_0}[w(x)^s],

so D_alpha(mu_1 || mu_0) = K(q, sigma, alpha)/(alpha - 1) and D_alpha(mu_0 || mu_1) = K(q, sigma, 1 - alpha)/(alpha - 1)
(spec.mechanisms, MTZ19 Section 3; the first is the larger, proofs_check mechanisms.sgm.rdp.a_ge_b).
:func:`log_moment_arb` returns a certified arb enclosure of K:

* q = 1: K = (s^2 - s)/(2 sigma^2) exactly (E[e^{s u}] for a Gaussian u).
* s a nonnegative integer n: the binomial expansion E[w^n] = sum_k C(n,k) (1-q)^(n-k) q^k exp((k^2 - k)/(2 sigma^2))
  (MTZ19 Section 3.3), all terms positive -- evaluated in arb, no cancellation.
* otherwise: rigorous quadrature (arb's ``acb.integral``) on a window [L, R], split at z0 = sigma^2 log((1-q)/q) + 1/2
  where q e^u = 1 - q, with w written as (1-q)(1 + K e^u) left of z0 and q e^u (1 + e^{-u}/K) right of it
  (K = q/(1-q)), so the only branch point near the path is at z0 +- i pi sigma^2 -- plus the two tails, bounded
  analytically (every bound proved in proofs_check ``mechanisms.sgm.rdp.tail_bounds``):

  s > 0, x >= R: w(x) e^{-u(x)} decreases, so w^s <= (w(R) e^{-u(R)})^s e^{s u} and
                 int_R^oo phi w^s <= (q + (1-q) e^{-u(R)})^s e^{(s^2-s)/(2 sigma^2)} Phic((R - s)/sigma);
  s > 0, x <= L: w increases, so int_-oo^L phi w^s <= w(L)^s Phi(L/sigma);
  s < 0, x >= R: w^s <= w(R)^s, so int_R^oo phi w^s <= w(R)^s Phic(R/sigma);
  s < 0, x <= L: w >= w(L) e^{-u(L)} e^u and w >= 1 - q, so int_-oo^L phi w^s <= min((q + (1-q) e^{-u(L)})^s
                 e^{(s^2-s)/(2 sigma^2)} Phi((L - s)/sigma), (1-q)^s Phi(L/sigma)).

  (phi the N(0, sigma^2) density; e^{s u} phi(x) = e^{(s^2 - s)/(2 sigma^2)} phi(x - s).)  L and R are chosen (in
  floating point: only the effort depends on them) so that each tail bound is below 2^-(p+4); E[w^s] >= 1 for s >= 1
  and s <= 0 (Jensen), so the tails' relative contribution is below 2^-(p+3).

The window is found by a float search and the quadrature's tolerances steer only the effort: the returned ball is
certified whatever they are.  Domain enforced by the spec entry (sigma in [1/10, 10^4], alpha <= 10^4, q >= 10^-8).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
from flint import acb, arb, ctx as _flint_ctx

from dpbounds.evaluation.numeric import arb_prec, fraction_to_arb
from dpbounds.evaluation.interp import NotCertified

#: acb.integral's effort limits (per piece); beyond them the piece's ball is wide and the caller retries / refuses
_EVAL_LIMIT = 200_000
_DEPTH_LIMIT = 400
#: the quadrature's largest working precision (about 600 digits; tens of seconds, and each doubling costs about
#: 8x): a finer request is refused ("could not certify") instead of running for hours -- bounded time
MAX_QUAD_BITS = 2048


class QuadratureFailed(ArithmeticError):
    """The rigorous integrator did not reach the asked width within its effort limits (the ball is still valid)."""


def _arb(q: Fraction) -> arb:
    return fraction_to_arb(q)


# ------------------------------------------------------------------------------------------ closed forms

def gaussian_log_moment(sigma: Fraction, s: Fraction) -> arb:
    """(s^2 - s)/(2 sigma^2): K at q = 1 (exact rational, rounded once)."""
    return _arb((s * s - s) / (2 * sigma * sigma))


def binomial_log_moment(q: Fraction, sigma: Fraction, n: int) -> arb:
    """log sum_{k=0}^n C(n,k) (1-q)^(n-k) q^k exp((k^2 - k)/(2 sigma^2)) at the current precision (0 < q < 1).

    The terms are computed by the exact ratio t_k/t_{k-1} = (n-k+1)/k * q/(1-q) * exp((k-1)/sigma^2) in arb (guard
    bits for the n-step recursion are added by the caller's precision)."""
    qa, pa = _arb(q), _arb(1 - q)
    inv_s2 = _arb(1 / (sigma * sigma))
    ratio = qa / pa
    t = pa ** n
    total = t
    for k in range(1, n + 1):
        t = t * arb(n - k + 1) / arb(k) * ratio * (inv_s2 * (k - 1)).exp()
        total = total + t
    return total.log()


# ------------------------------------------------------------------------------------------ the float window search

def _mp_logs(q: float, sigma: float, s: float):
    """Float (mpmath, 64 bits) log tail bounds as functions of R and L (the same formulas as the certified ones)."""
    m = mpmath.MPContext()
    m.prec = 64
    q_, s2, s_ = m.mpf(q), m.mpf(sigma) ** 2, m.mpf(s)
    sig = m.mpf(sigma)

    def u(x):
        return (2 * x - 1) / (2 * s2)

    def logw(x):
        ux = u(x)
        if q_ == 1:
            return ux
        a, b = m.log(1 - q_), m.log(q_) + ux
        hi = max(a, b)
        return hi + m.log(1 + m.exp(min(a, b) - hi))

    def log_phic(t):  # log P[N(0,1) > t]
        return m.log(m.erfc(t / m.sqrt(2)) / 2)

    def log_rw(x):  # log(q + (1-q) e^{-u(x)})
        a, b = m.log(q_), (m.log(1 - q_) - u(x)) if q_ < 1 else m.ninf
        hi = max(a, b)
        return hi + m.log(1 + m.exp(min(a, b) - hi))

    gauss = (s_ * s_ - s_) / (2 * s2)
    if s > 0:
        def tail_r(R):
            return s_ * log_rw(R) + gauss + log_phic((R - s_) / sig)

        def tail_l(L):
            return s_ * logw(L) + log_phic(-L / sig)
    else:
        def tail_r(R):
            return s_ * logw(R) + log_phic(R / sig)

        def tail_l(L):
            a = s_ * log_rw(L) + gauss + log_phic((s_ - L) / sig)
            b = (s_ * m.log(1 - q_) + log_phic(-L / sig)) if q_ < 1 else m.inf
            return min(a, b)
    return m, tail_r, tail_l, logw


def _peaks(q: float, sigma: float, s: float) -> list[float]:
    """Float estimates of the local maxima of h(x) = -x^2/(2 sigma^2) + s log w(x): h'(x) = (s p(x) - x)/sigma^2 with
    p = q e^u / w in (0, 1) increasing, so they are stable fixed points of x -> s p(x) (iterated from 0 and from s;
    for s < 0, h is concave and the unique root of s p(x) - x in [s, 0] is bisected)."""
    m, _, _, logw = _mp_logs(q, sigma, s)
    s2 = m.mpf(sigma) ** 2

    def p(x):
        return m.exp(m.log(q) + (2 * x - 1) / (2 * s2) - logw(x)) if q < 1 else m.mpf(1)

    if s < 0:
        lo, hi = m.mpf(s), m.mpf(0)
        for _ in range(80):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if s * p(mid) - mid > 0 else (lo, mid)
        return [float(lo)]
    out = []
    for x in (m.mpf(0), m.mpf(s)):
        for _ in range(200):
            nx = s * p(x)
            if abs(nx - x) <= 1e-12 * (1 + abs(x)):
                x = nx
                break
            x = nx
        out.append(float(x))
    return out


def _hmax(q: float, sigma: float, s: float) -> tuple[float, list[float]]:
    """max of h at its local maxima (a float estimate of log of the integrand's peak times sigma sqrt(2 pi))."""
    m, _, _, logw = _mp_logs(q, sigma, s)
    peaks = _peaks(q, sigma, s)
    return max(float(-(m.mpf(x) ** 2) / (2 * m.mpf(sigma) ** 2) + s * logw(m.mpf(x))) for x in peaks), peaks


def _window(q: float, sigma: float, s: float, target: float, peaks: list[float]) -> tuple[float, float]:
    """[L, R] with both float tail bounds <= target (a natural log); found by doubling then bisection."""
    m, tail_r, tail_l, _ = _mp_logs(q, sigma, s)

    def search(f, start, direction):
        if f(start) <= target:
            return start
        step = sigma
        x = start
        for _ in range(200):
            x = start + direction * step
            if f(x) <= target:
                break
            step *= 2
        else:
            raise QuadratureFailed("no integration window found")
        lo, hi = (start, x) if direction > 0 else (x, start)
        for _ in range(60):  # bisect: the bound decreases away from the centre
            mid = (lo + hi) / 2
            ok = f(mid) <= target
            if direction > 0:
                hi, lo = (mid, lo) if ok else (hi, mid)
            else:
                lo, hi = (mid, hi) if ok else (lo, mid)
            if hi - lo < sigma / 64:
                break
        return hi if direction > 0 else lo

    R = search(tail_r, max(peaks + [0.5]) + sigma, +1)
    L = search(tail_l, min(peaks + [0.0]) - sigma, -1)
    return float(L), float(R)


# ------------------------------------------------------------------------------------------ certified tails

def _tails(q: Fraction, sigma: Fraction, s: Fraction, L: Fraction, R: Fraction) -> arb:
    """Certified upper bound (an arb ball whose upper end bounds it) of int_{x<L} + int_{x>R} phi w^s."""
    qa, sa = _arb(q), _arb(s)
    sig = _arb(sigma)
    s2 = sig * sig
    rt2 = arb(2).sqrt()
    La, Ra = _arb(L), _arb(R)

    def u(x):
        return (2 * x - 1) / (2 * s2)

    def w(x):
        return 1 - qa + qa * u(x).exp()

    def phic(t):  # P[N(0,1) > t]
        return (t / rt2).erfc() / 2

    gauss = ((sa * sa - sa) / (2 * s2)).exp()
    if s > 0:
        right = (qa + (1 - qa) * (-u(Ra)).exp()) ** sa * gauss * phic((Ra - sa) / sig)
        left = w(La) ** sa * phic(-La / sig)
    else:
        right = w(Ra) ** sa * phic(Ra / sig)
        left = (qa + (1 - qa) * (-u(La)).exp()) ** sa * gauss * phic((sa - La) / sig)
        if q < 1:
            left = left.min((1 - qa) ** sa * phic(-La / sig))
    return right + left


# ------------------------------------------------------------------------------------------ certified quadrature

def _integral(q: Fraction, sigma: Fraction, s: Fraction, L: Fraction, R: Fraction, z0: float, shift: arb,
              goal_bits: int) -> arb:
    """Certified int_L^R phi(x) w(x)^s e^{-shift} dx (0 < q < 1), split at z0 (a dyadic point; any split is exact)."""
    qa, sa = _arb(q), _arb(s)
    sig = _arb(sigma)
    s2 = sig * sig
    Kc = acb(qa / (1 - qa))
    Kinv = acb((1 - qa) / qa)
    log_p, log_q = acb((1 - qa).log()), acb(qa.log())
    norm = -(sig * (2 * arb.pi()).sqrt()).log() - shift
    inv2s2 = acb(1 / (2 * s2))
    sc, nc = acb(sa), acb(norm)

    # h written without the dependency x^2 vs s x (a completed square right of z0): tight on wide balls
    gshift = acb((sa * sa - sa) / (2 * s2)) + sc * log_q
    sz = acb(sa)

    def left(z, analytic):
        u = (2 * z - 1) * inv2s2
        return (-(z * z) * inv2s2 + sc * (log_p + (1 + Kc * u.exp()).log(analytic=analytic)) + nc).exp()

    def right(z, analytic):
        u = (2 * z - 1) * inv2s2
        d = z - sz
        return (-(d * d) * inv2s2 + gshift + sc * (1 + Kinv * (-u).exp()).log(analytic=analytic) + nc).exp()

    pieces = []
    zc = Fraction(z0).limit_denominator(1 << 30) if math.isfinite(z0) else None
    if zc is None or zc >= R:
        pieces.append((left, L, R))
    elif zc <= L:
        pieces.append((right, L, R))
    else:
        pieces += [(left, L, zc), (right, zc, R)]
    tol = arb(2) ** (-goal_bits)
    total = arb(0)
    for f, a, b in pieces:
        v = acb.integral(f, acb(_arb(a)), acb(_arb(b)), rel_tol=tol, abs_tol=tol * arb("1e-6"),
                         eval_limit=_EVAL_LIMIT, depth_limit=_DEPTH_LIMIT)
        total = total + v.real
    return total


def quadrature_log_moment(q: Fraction, sigma: Fraction, s: Fraction, bits: int) -> arb:
    """Certified K(q, sigma, s) by quadrature plus analytic tails (0 < q < 1, s real); ~2^-bits relative width goal."""
    if bits > MAX_QUAD_BITS:
        raise QuadratureFailed(f"{bits} bits asked: the quadrature is offered up to {MAX_QUAD_BITS} bits (about 600 "
                               "digits), a limit of the evaluator")
    qf, sf, sgf = float(q), float(s), float(sigma)
    hmax, peaks = _hmax(qf, sgf, sf)
    # E[w^s] >= 1, and about e^hmax / (sigma sqrt(2 pi)) times the peak's width: tails below 2^-(bits+4) of that
    target = max(0.0, hmax - 10.0) - (bits + 4) * math.log(2)
    L, R = _window(qf, sgf, sf, target, peaks)
    Lq, Rq = Fraction(L).limit_denominator(1 << 20), Fraction(R).limit_denominator(1 << 20)
    if Lq > L:
        Lq -= Fraction(1, 1 << 20)
    if Rq < R:
        Rq += Fraction(1, 1 << 20)
    z0 = sgf * sgf * (math.log1p(-qf) - math.log(qf)) + 0.5
    shift = hmax - math.log(sgf * math.sqrt(2 * math.pi))
    work = bits + 20
    with arb_prec(work):
        sh = arb(shift)
        core = _integral(q, sigma, s, Lq, Rq, z0, sh, bits + 8)
        tails = _tails(q, sigma, s, Lq, Rq)
        if not tails.is_finite() or not core.is_finite():
            raise QuadratureFailed("non-finite enclosure")
        # the tails are nonnegative: add [0, upper bound]; scale back by e^{shift}
        t_hi = arb(tails.upper())
        scaled_tail = (t_hi * (-sh).exp())
        enc = core.union(core + scaled_tail)
        if not enc > 0:
            raise QuadratureFailed(f"enclosure {enc} not certainly positive")
        out = enc.log() + sh
    return out


# ------------------------------------------------------------------------------------------ dispatch

def _integer(s: Fraction) -> int | None:
    return int(s) if s.denominator == 1 else None


def log_moment_arb(q: Fraction, sigma: Fraction, s: Fraction, *, quadrature: bool = False) -> arb:
    """Certified enclosure of K(q, sigma, s) at the current arb precision (``quadrature=True`` forces the
    quadrature path, for tests: the closed form and the quadrature are independent routes to the same number)."""
    bits = _flint_ctx.prec
    if q == 1:
        return gaussian_log_moment(sigma, s)
    if q <= 0:
        return arb(0)
    n = _integer(s)
    if not quadrature and n is not None and n >= 0:
        if n == 0:
            return arb(0)
        guard = 2 * max(1, n.bit_length()) + 20
        with arb_prec(bits + guard):
            v = binomial_log_moment(q, sigma, n)
        return +v
    if n is not None and n == 1:
        return arb(0)  # E[w] = 1
    return +quadrature_log_moment(q, sigma, s, bits)


def log_moment(backend, vals: list, exact: list[Fraction] | None):
    """The evaluator of the spec function ``sgm_log_moment`` (interp's ``dpbounds_eval`` protocol): a certified arb
    ball at the current precision (ArbBackend; the exact arguments, or exact balls, are required: NotCertified
    otherwise) or mpmath's quadrature of the definition (MpBackend); NotImplementedError for other backends (the
    fast path then evaluates per element in arb)."""
    name = getattr(backend, "name", "")
    if name == "arb":
        if exact is None:
            exact = []
            for v in vals:
                if not isinstance(v, arb) or not v.is_exact():
                    raise NotCertified("sgm_log_moment needs exact arguments (it has no interval extension)")
                m, e = v.mid().man_exp()
                exact.append(Fraction(int(m)) * Fraction(2) ** int(e))
        q, sigma, s = exact
        try:
            v = log_moment_arb(q, sigma, s)
        except QuadratureFailed as exc:
            raise NotCertified(str(exc)) from exc
        if not v.is_finite():
            raise NotCertified(f"non-finite ball {v}")
        return v
    if name == "mp":
        return log_moment_mp(backend.ctx, *vals)
    raise NotImplementedError(f"sgm_log_moment has no {name} evaluator (the fast path evaluates it per element in arb)")


def log_moment_mp(ctx: mpmath.MPContext, q, sigma, s):
    """K(q, sigma, s) by mpmath's quadrature of the defining integral (high precision, not certified): the
    independent route the tests compare the certified enclosure with."""
    if q == 1:
        return (s * s - s) / (2 * sigma * sigma)
    s2 = sigma * sigma

    def logw(x):
        u = (2 * x - 1) / (2 * s2)
        a, b = ctx.log(1 - q), ctx.log(q) + u
        hi = a if a > b else b
        return hi + ctx.log1p(ctx.exp(-abs(a - b)))

    def h(x):
        return -x * x / (2 * s2) + s * logw(x)

    # breakpoints: around 0, s, z0 and the integrand's peaks, at multiples of sigma (mpmath's tanh-sinh per piece)
    qf, sf, sgf = float(q), float(s), float(sigma)
    peaks = _peaks(qf, sgf, sf)
    z0 = s2 * (ctx.log(1 - q) - ctx.log(q)) + ctx.mpf(1) / 2
    centres = [ctx.mpf(c) for c in [0, 1] + peaks] + [s, z0]
    ks = [0, 0.5, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64]
    pts = sorted({c + sign * k * sigma for c in centres for k in ks for sign in (1, -1)})
    hmax = max(h(x) for x in pts)
    val = ctx.quad(lambda x: ctx.exp(h(x) - hmax), [-ctx.inf] + pts + [ctx.inf])
    return ctx.log(val) + hmax - ctx.log(sigma * ctx.sqrt(2 * ctx.pi))
