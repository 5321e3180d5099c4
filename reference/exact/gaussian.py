"""Certified hockey-stick divergence of two-round adaptive Gaussian interactions (validity checks of GDP filters).

The interaction: round 1 releases Y1 ~ N(mu1 b, 1) (b = 1 on one dataset, 0 on its neighbour); an adversary then
picks mu2 as a *piecewise-constant* function of y1 and asks a filter; if the filter says CONT, round 2 releases
Y2 ~ N(mu2 b, 1), else nothing.  Given y1, the second round's privacy loss is N(mu2^2/2, mu2^2) under b = 1 and
N(-mu2^2/2, mu2^2) under b = 0, so (exactly)

    delta_{P||Q}(eps) = int phi(y - mu1) H(eps - (mu1 y - mu1^2/2); m(y)) dy,
    delta_{Q||P}(eps) = int phi(y)       H(eps + (mu1 y - mu1^2/2); m(y)) dy,

with H(e; m) = Phi(-e/m + m/2) - e^e Phi(-e/m - m/2) for m > 0 (any real e) and H(e; 0) = max(0, 1 - e^e).  On each
piece the integrand is entire in y (erfc, exp), except H(.; 0)'s kink at e = 0 (split there): arb's rigorous
integrator (acb.integral) encloses each piece; the two tails beyond |y - centre| > T are bounded by the Gaussian mass
erfc(T/sqrt 2) (0 <= H <= 1).  Every returned enclosure is certified.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Sequence

from flint import acb, arb

from dpbounds.evaluation.numeric import arb_prec, fraction_to_arb

#: half-width of the integration window (tail mass erfc(12/sqrt 2) < 4e-33)
T_WINDOW = 12
_BITS = 160


@dataclass(frozen=True)
class Policy:
    """A piecewise-constant choice of mu2 as a function of the first output y1.

    ``cuts`` are increasing breakpoints c_1 < ... < c_{n-1}; ``mu2[j]`` is used on (c_j, c_{j+1}) (c_0 = -oo,
    c_n = +oo).  Values are exact rationals (the filter decides each piece's proposal exactly).
    """

    cuts: tuple[Fraction, ...]
    mu2: tuple[Fraction, ...]

    def __post_init__(self):
        if len(self.mu2) != len(self.cuts) + 1 or any(b <= a for a, b in zip(self.cuts, self.cuts[1:])):
            raise ValueError("a Policy needs len(mu2) == len(cuts) + 1 and increasing cuts")


def _H(e: acb, m: arb | None) -> acb:
    """H(e; m) for m > 0 (entire in e)."""
    s2 = arb(2).sqrt()
    phi_up = (-(-e / m + m / 2) / s2).erfc() / 2
    phi_dn = (-(-e / m - m / 2) / s2).erfc() / 2
    return phi_up - e.exp() * phi_dn


def _piece(lo: arb, hi: arb, centre: arb, sign: int, mu1: arb, m2: Fraction, eps: arb) -> arb:
    """int_lo^hi phi(y - centre) H(eps - sign (mu1 y - mu1^2/2); sqrt(m2)) dy, certified (real part of acb.integral).
    ``m2``: the squared mu of everything released after round 1 on this piece (Gaussian rounds whose mu's depend on
    y only compose exactly, DRS19 Cor. 3.3: Gaussian losses add, mu's in quadrature)."""
    if not lo < hi:
        return arb(0)
    inv = 1 / (2 * arb.pi()).sqrt()
    mm = fraction_to_arb(m2).sqrt() if m2 > 0 else None

    def f(y, analytic):
        e = eps - sign * (mu1 * y - mu1 * mu1 / 2)
        dens = inv * (-(y - centre) ** 2 / 2).exp()
        return dens * (_H(e, mm) if mm is not None else (1 - e.exp()))

    if mm is None:
        # H(.; 0) = (1 - e^e)_+ : nonzero where e < 0, i.e. sign (mu1 y - mu1^2/2) > eps
        if mu1 == 0:
            return arb(0) if eps >= 0 else _piece_const(lo, hi, centre, 1 - eps.exp())
        y0 = (sign * eps / mu1) + mu1 / 2  # e = 0 at y = y0
        a, b = (max_arb(lo, y0), hi) if sign > 0 else (lo, min_arb(hi, y0))
        if not a < b:
            return arb(0)
        return _integral(f, a, b)
    return _integral(f, lo, hi)


def _integral(f, a: arb, b: arb) -> arb:
    """int_a^b f, certified, split into unit subintervals (arb's integrator converges fast on short pieces)."""
    n = max(1, int(float((b - a).upper())) + 1)
    step = (b - a) / n
    total = arb(0)
    for i in range(n):
        total += acb.integral(f, a + i * step, a + (i + 1) * step if i + 1 < n else b).real
    return total


def max_arb(a: arb, b: arb) -> arb:
    return a if a > b else (b if b > a else a.union(b))


def min_arb(a: arb, b: arb) -> arb:
    return a if a < b else (b if b < a else a.union(b))


def _piece_const(lo: arb, hi: arb, centre: arb, c: arb) -> arb:
    s2 = arb(2).sqrt()
    return c * (((lo - centre) / s2).erfc() - ((hi - centre) / s2).erfc()) / 2


def two_round_delta(mu1, policy: Policy, eps, decide: Callable[[Fraction, Fraction], bool],
                    bits: int = _BITS, mu0=0) -> arb:
    """Return a certified enclosure of max(delta_{P||Q}(eps), delta_{Q||P}(eps)) of the two-round interaction.

    ``decide(mu1, mu2)`` is the filter's answer for round 2 (True = CONT) given round 1 ran with mu1; a HALTed piece
    releases nothing in round 2 (m = 0).  Domain: mu1 >= 0, eps >= 0, policy values >= 0.

    ``mu0 > 0`` prepends a round of mu0 whose output the policy ignores (the three-round interaction mu0, mu1, then
    mu2 chosen from the round-mu1 output; ``decide(mu1, mu2)`` must then account for mu0 too): given y, that round
    and the last compose to sqrt(mu0^2 + m^2)-GDP exactly, so the formula keeps its one-dimensional form.
    """
    fixed2 = Fraction(mu0) ** 2
    ms = [m if decide(Fraction(mu1), m) else Fraction(0) for m in policy.mu2]
    return piecewise_delta(mu1, policy.cuts, [m * m + fixed2 for m in ms], eps, bits)


def piecewise_delta(mu1, cuts: Sequence[Fraction], m2s: Sequence[Fraction], eps, bits: int = _BITS) -> arb:
    """Return a certified enclosure of max(delta_{P||Q}(eps), delta_{Q||P}(eps)) of the interaction: round 1
    releases N(mu1 b, 1); on the j-th piece of y1 (``cuts`` increasing, as in :class:`Policy`) everything released
    afterwards is Gaussian with mu's fixed by y1, sqrt(m2s[j])-GDP in total (m2s[j] = 0: nothing more about b).

    Rounds after round 1 whose mu's depend on y1 only (several of them, some left out by a filter) compose exactly
    to one Gaussian round of squared mu the sum of theirs, so the formula stays one-dimensional.  Domain: mu1 >= 0,
    eps >= 0, m2s[j] >= 0, len(m2s) == len(cuts) + 1.
    """
    mu1 = Fraction(mu1)
    eps = Fraction(eps)
    if len(m2s) != len(cuts) + 1:
        raise ValueError("piecewise_delta needs one m2 per piece: len(m2s) == len(cuts) + 1")
    with arb_prec(bits):
        a_mu1, a_eps = fraction_to_arb(mu1), fraction_to_arb(eps)
        a_cuts = [fraction_to_arb(Fraction(c)) for c in cuts]
        out = []
        for sign, centre in ((1, a_mu1), (-1, arb(0))):
            T = arb(T_WINDOW)
            lo_end, hi_end = centre - T, centre + T
            edges = [lo_end] + [min_arb(max_arb(c, lo_end), hi_end) for c in a_cuts] + [hi_end]
            total = arb(0)
            for j, m2 in enumerate(m2s):
                total += _piece(edges[j], edges[j + 1], centre, sign, a_mu1, Fraction(m2), a_eps)
            tail = (T / arb(2).sqrt()).erfc()  # mass outside the window; 0 <= H <= 1
            total = total.union(total + tail)
            out.append(total)
        return max_arb(out[0], out[1])


def gaussian_delta(mu, eps, bits: int = _BITS) -> arb:
    """Certified delta_gauss(eps; mu) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (DRS19 Cor. 2.13), mu > 0."""
    with arb_prec(bits):
        m, e = fraction_to_arb(Fraction(mu)), fraction_to_arb(Fraction(eps))
        return _H(acb(e), m).real


def sqrt_upper(q: Fraction, bits: int = 120) -> Fraction:
    """A rational >= sqrt(q) (within 2^-bits relative), for exact mu proposals from a squared budget."""
    import math
    if q <= 0:
        return Fraction(0)
    num = q.numerator << (2 * bits)
    r = math.isqrt(num // q.denominator) + 1
    return Fraction(r, 1 << bits)


def sqrt_lower(q: Fraction, bits: int = 120) -> Fraction:
    """A rational <= sqrt(q) (within 2^-bits relative)."""
    import math
    if q <= 0:
        return Fraction(0)
    num = q.numerator << (2 * bits)
    return Fraction(math.isqrt(num // q.denominator), 1 << bits)


def policies(remaining: Fraction, cuts: Sequence[Fraction] = (Fraction(-1), Fraction(0), Fraction(1))) -> dict:
    """A family of adaptive adversaries spending up to ``remaining`` (a mu2) as a function of y1."""
    z = Fraction(0)
    out = {"full": Policy((), (remaining,))}
    for c in cuts:
        out[f"spend_above_{c}"] = Policy((c,), (z, remaining))
        out[f"spend_below_{c}"] = Policy((c,), (remaining, z))
    out["middle_half"] = Policy((Fraction(-1), Fraction(1)), (remaining / 2, remaining, remaining / 2))
    return out
