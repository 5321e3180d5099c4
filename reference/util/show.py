"""Short readable text for numbers and results: directed decimal rounding and the helpers of the ``__repr__``\\s.

A repr never shows an 80-digit fraction: an exact value is shown exactly when its decimal form is short, otherwise
to about 17 significant digits; an enclosure ``[lo, hi]`` is shown with its ends rounded *outward* (lo down, hi up),
so the shown interval still contains the exact value (the digits are true).
"""

from __future__ import annotations

import decimal
from fractions import Fraction
from typing import Any, Mapping

#: significant digits of a number in a repr (enough to tell float64 values apart)
REPR_DIGITS = 17


def decimal_str(q: Fraction, digits: int, rounding: str) -> str:
    """``q`` rounded to ``digits`` significant digits, ``rounding`` in {'floor', 'ceiling', 'nearest'}."""
    if q == 0:
        return "0"
    mode = {"floor": decimal.ROUND_FLOOR, "ceiling": decimal.ROUND_CEILING,
            "nearest": decimal.ROUND_HALF_EVEN}[rounding]
    with decimal.localcontext() as dctx:
        dctx.prec = digits
        dctx.rounding = mode
        dctx.Emax = 10**9
        dctx.Emin = -10**9
        d = decimal.Decimal(q.numerator) / decimal.Decimal(q.denominator)
        s = format(d, "E") if (d.adjusted() < -6 or d.adjusted() > 20) else format(d, "f")
    return s


def number(v: Any, digits: int = REPR_DIGITS, rounding: str = "nearest") -> str:
    """A value as short text: a rational exactly when it has at most ``digits`` significant digits, else rounded to
    ``digits`` digits ('~' marks a nearest rounding; 'floor'/'ceiling' give a lower/upper bound for the caller to
    label); a pair ``(lo, hi)`` as an :func:`interval` (one number when lo == hi); anything else as its repr."""
    if isinstance(v, str):
        return v
    if isinstance(v, (tuple, list)) and len(v) == 2:
        return number(v[0], digits, rounding) if v[0] == v[1] else interval(v[0], v[1], digits)
    try:
        q = Fraction(v)
    except (TypeError, ValueError, OverflowError):  # inf, nan, sentinels such as +oo
        return repr(v)
    s = _trim(decimal_str(q, digits, "floor" if rounding == "nearest" else rounding))
    if Fraction(decimal.Decimal(s)) == q:
        return s
    return "~" + _trim(decimal_str(q, digits, "nearest")) if rounding == "nearest" else s


def _trim(s: str) -> str:
    """Drop the trailing zeros of a fixed-point decimal string (the value is unchanged)."""
    if "." in s and "E" not in s:
        s = s.rstrip("0").rstrip(".")
    return s


def rounds(n: int) -> str:
    """'1 round', '2 rounds'."""
    return f"{n} round" + ("" if n == 1 else "s")


def interval(lo: Any, hi: Any, digits: int = REPR_DIGITS) -> str:
    """'[lo, hi]' with the ends rounded outward to ``digits`` significant digits (still an enclosure)."""
    def end(v: Any, rounding: str) -> str:
        q = Fraction(decimal.Decimal(v)) if isinstance(v, str) else Fraction(v)
        return _trim(decimal_str(q, digits, rounding))
    return f"[{end(lo, 'floor')}, {end(hi, 'ceiling')}]"


def enclosure(enc: Any) -> str:
    """An :class:`~dpbounds.Enclosure` as '[lo, hi]' rounded outward, or '+inf'."""
    return "+inf" if enc.pos_inf else interval(enc.lo, enc.hi)


def mapping(values: Mapping[str, Any], limit: int = 6) -> str:
    """'name=value, ...' of a parameter mapping (each value as :func:`number`), at most ``limit`` items."""
    items = [f"{k}={number(v)}" for k, v in values.items()]
    return ", ".join(items[:limit]) + (f", ... ({len(items) - limit} more)" if len(items) > limit else "")
