"""Digits that are true: the decimal a certified enclosure backs, and the exact value when the spec decides it.

A value printed with ``d`` significant digits is *backed* when both ends of its certified enclosure [lo, hi] round
(to nearest, half-even) to the same ``d``-digit decimal: rounding is monotone, so every point of [lo, hi] -- the exact
value included -- rounds to it; the printed string is the exact value correctly rounded to ``d`` digits.  An
enclosure that straddles zero backs no digit; there :func:`exact_value` asks the spec itself (sympy, exact rational
inputs) whether the value is a rational number, e.g. ``conversions.kov15.exact`` at k eps = eps_g is exactly 0.
"""

from __future__ import annotations

import decimal
from fractions import Fraction

import sympy as sp

from dpbounds.spec.core import SpecEntry, sym

#: the largest number of summands a symbolic Sum may expand to in :func:`exact_value` (bounded work)
MAX_EXACT_TERMS = 32


def round_nearest(q: Fraction, digits: int) -> str:
    """``q`` rounded to nearest (half-even) at ``digits`` significant digits, as a decimal string ('0' for 0)."""
    if q == 0:
        return "0"
    with decimal.localcontext() as dctx:
        dctx.prec = digits
        dctx.rounding = decimal.ROUND_HALF_EVEN
        dctx.Emax = 10**9
        dctx.Emin = -10**9
        d = decimal.Decimal(q.numerator) / decimal.Decimal(q.denominator)
        return format(d, "E") if (d.adjusted() < -6 or d.adjusted() > 20) else format(d, "f")


def backed_decimal(lo: Fraction, hi: Fraction, digits: int) -> tuple[str, int] | None:
    """(value, d): the largest d <= digits at which lo and hi round to the same decimal, or None if none does.

    Source: the definition above (monotone rounding).  Domain: lo <= hi, digits >= 1.  An enclosure containing 0
    in its interior backs no digit (None)."""
    if lo == hi:
        return round_nearest(lo, digits), digits  # exact when lo terminates within `digits` digits
    if lo < 0 < hi or lo == 0 or hi == 0:
        return None
    for d in range(digits, 0, -1):
        s = round_nearest(lo, d)
        if s == round_nearest(hi, d):
            return s, d
    return None


def exact_value(entry: SpecEntry, params: dict[str, Fraction], aggregates: dict, what: str = "expr") -> Fraction | None:
    """The exact value of the entry's expression as a rational, or None when the spec does not decide it so.

    Substitutes the exact inputs into the spec's sympy expression (a Sum is expanded only up to
    :data:`MAX_EXACT_TERMS` summands) and returns the result when sympy reduces it to a Rational.  Aggregates known
    only to an enclosure (lo < hi) or infinite make the value undecided (None).  Domain: prepared inputs."""
    from dpbounds.evaluation.evaluate import entry_expr
    subs = {sym(k): sp.Rational(v.numerator, v.denominator) for k, v in params.items()}
    for k, v in aggregates.items():
        if not isinstance(v, tuple) or v[0] != v[1]:
            return None
        subs[sym(k)] = sp.Rational(v[0].numerator, v[0].denominator)
    expr = entry_expr(entry, what)
    try:
        v = expr.xreplace(subs)
        for s in v.atoms(sp.Sum):
            for _, a, b in s.limits:
                if not (a.is_Integer and b.is_Integer) or b - a + 1 > MAX_EXACT_TERMS:
                    return None
        if v.has(sp.Sum):
            v = v.doit()
        if not v.is_Rational:
            v = sp.simplify(v) if v.count_ops() <= 200 else v
    except (TypeError, ValueError, ArithmeticError, RecursionError):
        return None
    return Fraction(int(v.p), int(v.q)) if v.is_Rational else None
