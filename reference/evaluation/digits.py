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


def exact_value(entry: SpecEntry, params: dict[str, Fraction], aggregates: dict, what: str = "expr",
                simplify: bool = True) -> Fraction | None:
    """The exact value of the entry's expression as a rational, or None when the spec does not decide it so.

    Substitutes the exact inputs into the spec's sympy expression (a Sum is expanded only up to
    :data:`MAX_EXACT_TERMS` summands) and returns the result when sympy reduces it to a Rational.  Aggregates known
    only to an enclosure (lo < hi) or infinite make the value undecided (None); ``simplify=False`` skips the
    costly steps (Sum expansion, simplification) for a quick look.  Domain: prepared inputs."""
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
        if not simplify:
            return Fraction(int(v.p), int(v.q)) if v.is_Rational else None
        if v.has(sp.Sum):
            v = v.doit()
        if not v.is_Rational:
            v = sp.simplify(v) if v.count_ops() <= 200 else v
    except (TypeError, ValueError, ArithmeticError, RecursionError):
        return None
    return Fraction(int(v.p), int(v.q)) if v.is_Rational else None


def backed_floor_digits(lo: Fraction, hi: Fraction, digits: int) -> int:
    """The largest d <= digits at which lo and hi round down to the same decimal (0 if none).

    Source: a quantity in [lo, hi] then rounds down to that decimal too, which is <= lo (never overstated: the
    rule for B*).  Domain: lo <= hi."""
    from dpbounds.evaluation.evaluate import decimal_str
    for d in range(digits, 0, -1):
        if decimal_str(lo, d, "floor") == decimal_str(hi, d, "floor"):
            return d
    return 0


def b_star_to_digits(eps_g, delta_g, conversion: str, digits: int):
    """(BStar, d): B* solved to a bracket narrow enough for ``digits`` digits where it can be, and the d <= digits
    digits that bracket backs (rounded down).  Source: dpbounds.accounting.conversions.b_star with
    rel_tol = 10^-(digits+2), one retry at 10^-(digits+8) for a B* near a digit boundary.  Domain: as b_star."""
    from dpbounds.accounting.conversions import VALID, BStar, b_star
    from dpbounds.evaluation.evaluate import CertificationError
    best = None
    for extra in (2, 8):
        try:
            b = b_star(eps_g, delta_g, conversion, rel_tol=Fraction(1, 10 ** (digits + extra)))
        except CertificationError as exc:
            br = getattr(exc, "bracket", None)
            if br is None:
                raise
            b = BStar(br[0], br, conversion, VALID[conversion])  # the narrowest certified bracket
            d = backed_floor_digits(br[0], br[1], digits)
            return (b, d) if best is None or d >= best[1] else best
        d = backed_floor_digits(b.bracket[0], b.bracket[1], digits)
        if best is None or d > best[1]:
            best = (b, d)
        if d == digits:
            break
    return best
