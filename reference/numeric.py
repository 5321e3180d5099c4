"""Numeric plumbing shared by every evaluator: local precision contexts and safe float rounding.

* mpmath: :func:`mp_context` returns a *private* ``MPContext``; the global ``mpmath.mp`` is never touched.
* python-flint: ``flint.ctx.prec`` is process-global, so :func:`arb_prec` serializes arb work behind one
  re-entrant lock and restores the precision on exit.  Results therefore never depend on call order or on
  other threads.
* :func:`float_up` / :func:`float_down` turn exact rationals or arb balls into float64 values on the safe side.
"""

from __future__ import annotations

import math
import threading
from fractions import Fraction
import mpmath
from flint import arb, ctx as _flint_ctx

_ARB_LOCK = threading.RLock()


class arb_prec:  # noqa: N801 - used like a function: ``with arb_prec(bits): ...``
    """Run a block of arb arithmetic at ``bits`` of working precision, isolated from other threads.

    Holds the process-wide re-entrant lock for the whole block and restores the previous precision on exit (also
    on an exception).  A plain class rather than ``contextlib.contextmanager``: this sits on the certified
    evaluator's hot path.  Re-entrant, and one object may be entered more than once (a stack of old precisions).
    """

    __slots__ = ("bits", "_old")

    def __init__(self, bits: int) -> None:
        bits = int(bits)
        if bits < 16:
            raise ValueError(f"precision {bits} bits is too small")
        self.bits = bits
        self._old: list[int] = []

    def __enter__(self) -> None:
        _ARB_LOCK.acquire()
        try:
            self._old.append(_flint_ctx.prec)
            _flint_ctx.prec = self.bits
        except BaseException:
            _ARB_LOCK.release()
            raise

    def __exit__(self, *exc) -> None:
        try:
            _flint_ctx.prec = self._old.pop()
        finally:
            _ARB_LOCK.release()


def mp_context(dps: int) -> mpmath.MPContext:
    """A fresh mpmath context at ``dps`` decimal digits (private: the global ``mpmath.mp`` is untouched)."""
    c = mpmath.MPContext()
    c.dps = int(dps)
    return c


def dps_to_bits(dps: int) -> int:
    return int(math.ceil(dps * 3.3219280948873626)) + 8


# ------------------------------------------------------------------------------------------ rationals

def fraction_to_arb(q: Fraction) -> arb:
    """An arb ball containing the rational ``q`` (exact when the denominator is a power of two)."""
    return arb(q.numerator) / arb(q.denominator)


def float_up(v) -> float:
    """The smallest float64 >= v, for v a Fraction, int, float or arb (upper end of the ball); +inf if none."""
    if isinstance(v, arb):
        if v.is_nan():
            return math.inf
        if not v.is_finite():
            return math.inf
        v = _arb_endpoint_fraction(v, upper=True)
        if v is None:
            return math.inf
    if isinstance(v, float):
        return v
    q = Fraction(v)
    try:
        f = float(q)
    except OverflowError:
        return math.inf if q > 0 else -1.7976931348623157e308
    if Fraction(f) < q:
        f = math.nextafter(f, math.inf)
    return f


def float_down(v) -> float:
    """The largest float64 <= v, for v a Fraction, int, float or arb (lower end of the ball); -inf if none."""
    if isinstance(v, arb):
        if v.is_nan() or not v.is_finite():
            return -math.inf
        v = _arb_endpoint_fraction(v, upper=False)
        if v is None:
            return -math.inf
    if isinstance(v, float):
        return v
    q = Fraction(v)
    try:
        f = float(q)
    except OverflowError:
        return 1.7976931348623157e308 if q > 0 else -math.inf
    if Fraction(f) > q:
        f = math.nextafter(f, -math.inf)
    return f


def _arb_endpoint_fraction(v: arb, upper: bool) -> Fraction | None:
    """The exact rational value of an arb ball's upper (or lower) endpoint."""
    end = v.upper() if upper else v.lower()
    man, exp = end.man_exp()
    man, exp = int(man), int(exp)
    if exp > 4000:
        return None  # far beyond float range; callers map to +-inf
    if exp < -4000:
        # astronomically small: only the sign matters for float rounding
        return Fraction(0) if man == 0 else Fraction(man, 1) / (Fraction(2) ** 4000)
    return Fraction(man) * (Fraction(2) ** exp)


def dyadic_fraction(man: int, exp: int) -> Fraction:
    """The exact rational ``man * 2**exp``."""
    man, exp = int(man), int(exp)
    return Fraction(man << exp) if exp >= 0 else Fraction(man, 1 << -exp)


def arb_end_pairs(v: arb) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The ends of a finite arb ball as exact (mantissa, exponent) integer pairs, or None if it is not finite.

    ``lower()``/``upper()`` round outward to the *current* precision: call inside :func:`arb_prec`.
    """
    if not v.is_finite():  # False for NaN balls as well
        return None
    lm, le = v.lower().man_exp()
    hm, he = v.upper().man_exp()
    return (int(lm), int(le)), (int(hm), int(he))


def arb_endpoints(v: arb) -> tuple[Fraction, Fraction] | None:
    """Exact rational endpoints of a finite arb ball, or None if the ball is not finite."""
    ends = arb_end_pairs(v)
    if ends is None:
        return None
    (lm, le), (hm, he) = ends
    return dyadic_fraction(lm, le), dyadic_fraction(hm, he)
