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

    def __exit__(self, exc_type, *exc) -> None:
        try:
            # another thread that set flint.ctx.prec without this lock has changed the precision of the block's
            # arithmetic: its result is still a valid ball but may differ from the undisturbed one -- refuse it
            tampered = _flint_ctx.prec != self.bits
            _flint_ctx.prec = self._old.pop()
        finally:
            _ARB_LOCK.release()
        if tampered and exc_type is None:
            raise PrecisionTampered(
                f"flint.ctx.prec was changed by another thread during a dpbounds computation at {self.bits} bits; "
                "set it only inside dpbounds.evaluation.numeric.arb_prec (results would depend on thread timing)")


class PrecisionTampered(RuntimeError):
    """flint's process-global precision was changed behind :class:`arb_prec`'s lock during a computation."""


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


_MAXF = 1.7976931348623157e308


def _cmp_dyadic_float(man: int, exp: int, f: float) -> int:
    """Sign of ``man * 2**exp - f``, exactly (f a float, possibly infinite)."""
    if f == math.inf:
        return -1
    if f == -math.inf:
        return 1
    if f == 0.0:
        return (man > 0) - (man < 0)
    fm, fe = math.frexp(f)
    fman, fexp = int(fm * 9007199254740992.0), fe - 53   # f = fman * 2**fexp exactly
    e0 = exp if exp < fexp else fexp
    a = man << (exp - e0)
    b = fman << (fexp - e0)
    return (a > b) - (a < b)


def dyadic_to_float(man: int, exp: int, up: bool) -> float:
    """The smallest float64 >= ``man * 2**exp`` (``up``) or the largest <= it, with integer arithmetic only.

    A first guess from the leading 64 bits is corrected by exact comparisons, one ulp at a time (at most a few
    steps); magnitudes beyond the float range go straight to +-max float / +-inf or to 0 / +-2**-1074.  Rounding
    down is rounding up of the negation (``+ 0.0`` turns a -0.0 into 0.0).
    """
    if not up:
        return -dyadic_to_float(-man, exp, True) + 0.0
    if man == 0:
        return 0.0
    bl = abs(man).bit_length()
    top = exp + bl                       # 2**(top-1) <= |q| < 2**top
    if top > 1025:
        return math.inf if man > 0 else -_MAXF
    if top < -1076:
        return 5e-324 if man > 0 else 0.0
    shift = bl - 64 if bl > 64 else 0
    try:
        f = math.ldexp(float(man >> shift), exp + shift)
    except OverflowError:
        f = math.inf if man > 0 else -math.inf
    while _cmp_dyadic_float(man, exp, f) > 0:        # below q: step up
        f = math.nextafter(f, math.inf)
    while True:                                      # the float below f still >= q: step down
        g = math.nextafter(f, -math.inf)
        if _cmp_dyadic_float(man, exp, g) > 0:
            return f
        f = g


def float_up(v) -> float:
    """The smallest float64 >= v, for v a Fraction, int, float or arb (upper end of the ball); +inf if none."""
    if isinstance(v, arb):
        if not v.is_finite():  # also False for NaN balls
            return math.inf
        man, exp = v.upper().man_exp()
        return dyadic_to_float(int(man), int(exp), True)
    if isinstance(v, float):
        return v
    q = Fraction(v)
    try:
        f = float(q)
    except OverflowError:
        return math.inf if q > 0 else -_MAXF
    if Fraction(f) < q:
        f = math.nextafter(f, math.inf)
    return f


def float_down(v) -> float:
    """The largest float64 <= v, for v a Fraction, int, float or arb (lower end of the ball); -inf if none."""
    if isinstance(v, arb):
        if not v.is_finite():  # also False for NaN balls
            return -math.inf
        man, exp = v.lower().man_exp()
        return dyadic_to_float(int(man), int(exp), False)
    if isinstance(v, float):
        return v
    q = Fraction(v)
    try:
        f = float(q)
    except OverflowError:
        return _MAXF if q > 0 else -math.inf
    if Fraction(f) > q:
        f = math.nextafter(f, -math.inf)
    return f


def _coprime_fraction_factory():
    """A constructor of Fractions from a numerator and denominator *known to be coprime* (no gcd), or None.

    Python 3.12+ has ``Fraction._from_coprime_ints``; 3.11 has the ``_normalize=False`` keyword.  Both are private,
    so each is feature-tested here (the result must equal the normalizing constructor's) and otherwise unused.
    """
    f = getattr(Fraction, "_from_coprime_ints", None)
    if f is None:
        def f(n, d):
            return Fraction(n, d, _normalize=False)
    try:
        probe = f(3, 8)
        if probe == Fraction(3, 8) and probe.numerator == 3 and probe.denominator == 8 and hash(probe) == hash(0.375):
            return f
    except TypeError:
        pass
    return None


_COPRIME = _coprime_fraction_factory()


def dyadic_fraction(man: int, exp: int) -> Fraction:
    """The exact rational ``man * 2**exp``."""
    man, exp = int(man), int(exp)
    if exp >= 0:
        return Fraction(man << exp)
    if man & 1 and _COPRIME is not None:  # an odd mantissa is coprime to the power of two: skip the gcd
        return _COPRIME(man, 1 << -exp)
    return Fraction(man, 1 << -exp)


def arb_end_pairs(v: arb) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The ends of a finite arb ball as exact (mantissa, exponent) integer pairs, or None if it is not finite.

    ``lower()``/``upper()`` round outward to the *current* precision: call inside :func:`arb_prec`.
    """
    if not v.is_finite():  # False for NaN balls as well
        return None
    lm, le = v.lower().man_exp()
    hm, he = v.upper().man_exp()
    return (int(lm), int(le)), (int(hm), int(he))


def log10_of(q) -> float:
    """log10(q) for a positive rational of any size (float(q) underflows to 0.0 below 1e-324, and math.log of that
    raises 'math domain error'; math.log10 of each integer does not)."""
    q = Fraction(q)
    if q <= 0:
        raise ValueError(f"log10_of: {q} is not positive")
    return math.log10(q.numerator) - math.log10(q.denominator)


#: exact rational ends are built only for magnitudes in (2**-EXP_LIMIT, 2**EXP_LIMIT), about 10**(+-2e7), at
#: most 8 MB each: an arb ball's exponent is unbounded (exp(1e308) is a finite ball), and ``man << exp`` of such
#: an end would take gigabytes (``eps=[2**63]``: MemoryError) -- the work must not grow with the value's magnitude.
#: (evaluate's enclosures clamp tighter, at 2**(2**20): dpbounds.evaluation.evaluate._EXP_LIMIT)
EXP_LIMIT = 1 << 26


def arb_endpoints(v: arb) -> tuple[Fraction, Fraction] | None:
    """Exact rational endpoints of a finite arb ball, or None if the ball is not finite or an end is beyond
    2**EXP_LIMIT in magnitude; an end below 2**-EXP_LIMIT in magnitude is rounded outward (to 0 or
    +-2**-EXP_LIMIT), so the rational ends still enclose the ball."""
    ends = arb_end_pairs(v)
    if ends is None:
        return None
    out = []
    for (m, e), upper in zip(ends, (False, True)):
        top = e + abs(m).bit_length()
        if m != 0 and top > EXP_LIMIT:
            return None
        if m != 0 and top < -EXP_LIMIT:
            m, e = (1 if m > 0 else -1, -EXP_LIMIT) if (m > 0) == upper else (0, 0)
        out.append(dyadic_fraction(m, e))
    return out[0], out[1]


def real_array(name: str, x: object):
    """``x`` (a real scalar, a sequence or an array of them) as a float64 numpy array, or TypeError.

    numpy's own conversion would read b"0.1" as 0.1, a datetime64 as a count of days and True as 1: each of these
    (bytes, strings, bools, datetimes and timedeltas, complex numbers, other objects) is refused here, since the
    README promises a TypeError for a wrong type.  Ints, floats, Fractions and Decimals (and numpy arrays of real
    kind) are taken as numpy would (round to nearest; callers that need outward rounding take scalars exactly)."""
    import decimal

    import numpy as np
    if isinstance(x, (bytes, bytearray, memoryview, str)):
        raise TypeError(f"{name}: expected real numbers or a numeric array, got {type(x).__name__}")
    if isinstance(x, (list, tuple)):  # np.asarray([bytearray(b"0.1")]) is a uint8 array of its bytes
        for v in x:
            if isinstance(v, (bytes, bytearray, memoryview, str, bool, np.bool_)):
                raise TypeError(f"{name}: expected real numbers, got an element of type {type(v).__name__}")
    a = np.asarray(x)
    kind = a.dtype.kind
    if kind in "fiu":
        return a.astype(np.float64, copy=False)
    if kind == "O":
        for v in a.ravel().tolist():
            if isinstance(v, bool) or not isinstance(v, (int, float, Fraction, decimal.Decimal)):
                raise TypeError(f"{name}: expected real numbers, got an element of type {type(v).__name__}")
        return a.astype(np.float64)
    what = {"b": "bools", "S": "bytes", "U": "strings", "M": "datetimes", "m": "timedeltas",
            "c": "complex numbers (the imaginary part would be dropped)"}.get(kind, f"numpy dtype {a.dtype}")
    raise TypeError(f"{name}: expected real numbers, got {what}"
                    + (" (pass floats, or exact decimal strings one scalar at a time)" if kind in "SU" else ""))
