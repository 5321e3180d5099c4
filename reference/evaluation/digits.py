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
from dpbounds.evaluation.enclosure import entry_expr

#: the largest number of summands a symbolic Sum may expand to in :func:`exact_value` (bounded work)
MAX_EXACT_TERMS = 32


def decimal_round(q: Fraction, digits: int, rounding: str) -> str:
    """``q`` rounded to ``digits`` significant digits ('floor', 'ceiling' or 'nearest' half-even), as a decimal
    string in the format of dpbounds.evaluation.evaluate.decimal_str (an exact result keeps only its digits).

    Integer arithmetic whose quotients have ~digits digits, so an end near 2**-(2**20) costs one power of ten, not
    a quadratic conversion of a million-digit integer.  Domain: digits >= 1."""
    if q == 0:
        return "0"
    sign = 1 if q < 0 else 0
    n, d = abs(q.numerator), q.denominator
    e = int((n.bit_length() - d.bit_length()) * 0.30102999566398120)  # ~ floor(log10 |q|), corrected below
    while True:
        m = digits - 1 - e  # N = floor(|q| 10^m) should have exactly `digits` digits
        num, den = (n * 10**m, d) if m >= 0 else (n, d * 10**(-m))
        N, r = divmod(num, den)
        if N >= 10**digits:
            e += 1
        elif N < 10**(digits - 1):
            e -= 1
        else:
            break
    up = {"floor": sign == 1, "ceiling": sign == 0}.get(rounding)
    if r and (up if up is not None else (2 * r > den or (2 * r == den and N % 2 == 1))):
        N += 1
        if N == 10**digits:  # 9.99.. rounded up to 10.0..: one digit fewer, same value
            N //= 10
            m -= 1
    exp = -m
    if r == 0:  # exact: drop trailing zeros down to exponent 0, as Decimal's ideal exponent does
        while N % 10 == 0 and N and exp < 0:
            N //= 10
            exp += 1
    # the digits of N through Decimal (no int-to-str conversion: --digits 5000 is past Python's 4300-digit limit)
    x = decimal.Decimal((sign, decimal.Decimal(N).as_tuple().digits, exp))
    return format(x, "E") if (x.adjusted() < -6 or x.adjusted() > 20) else format(x, "f")


def round_nearest(q: Fraction, digits: int) -> str:
    """``q`` rounded to nearest (half-even) at ``digits`` significant digits, as a decimal string ('0' for 0)."""
    return decimal_round(q, digits, "nearest")


def backed_decimal(lo: Fraction, hi: Fraction, digits: int) -> tuple[str, int] | None:
    """(value, d): the largest d <= digits at which lo and hi round to the same decimal, or None if none does.

    Source: the definition above (monotone rounding).  Domain: lo <= hi, digits >= 1.  An enclosure containing 0
    in its interior backs no digit (None)."""
    if lo == hi:
        return round_nearest(lo, digits), digits  # exact when lo terminates within `digits` digits
    if lo < 0 < hi or lo == 0 or hi == 0:
        return None
    # the ends rounded outward at digits + 10 digits, once: every point of [lo, hi] lies between them, so when
    # both round to one d-digit decimal, all of [lo, hi] does (rounding twice only ever loses digits, never
    # claims one)
    lo_d = decimal.Decimal(decimal_round(lo, digits + 10, "floor"))
    hi_d = decimal.Decimal(decimal_round(hi, digits + 10, "ceiling"))
    with decimal.localcontext() as dctx:
        dctx.rounding = decimal.ROUND_HALF_EVEN
        dctx.Emax = 10**9
        dctx.Emin = -10**9
        for d in range(digits, 0, -1):
            dctx.prec = d
            a, b = dctx.plus(lo_d), dctx.plus(hi_d)
            if a == b:
                return (format(a, "E") if (a.adjusted() < -6 or a.adjusted() > 20) else format(a, "f")), d
    return None


def exact_value(entry: SpecEntry, params: dict[str, Fraction], aggregates: dict, what: str = "expr",
                simplify: bool = True) -> Fraction | None:
    """The exact value of the entry's expression as a rational, or None when the spec does not decide it so.

    Substitutes the exact inputs into the spec's sympy expression (a Sum is expanded only up to
    :data:`MAX_EXACT_TERMS` summands) and returns the result when sympy reduces it to a Rational.  Aggregates known
    only to an enclosure (lo < hi) or infinite make the value undecided (None); ``simplify=False`` skips the
    costly steps (Sum expansion, simplification) for a quick look.  Domain: prepared inputs."""
    subs = {sym(k): sp.Rational(v.numerator, v.denominator) for k, v in params.items()}
    for k, v in aggregates.items():
        if not isinstance(v, tuple) or v[0] != v[1]:
            return None
        subs[sym(k)] = sp.Rational(v[0].numerator, v[0].denominator)
    expr = entry_expr(entry, what)
    try:
        with sp.evaluate(False):  # look before sympy evaluates: 1000**(10**1000) would never finish
            raw = expr.xreplace(subs)
        if not _exact_work_bounded(raw):
            return None
        v = expr.xreplace(subs)
        for s in v.atoms(sp.Sum):
            for _, a, b in s.limits:
                if not (a.is_Integer and b.is_Integer) or b - a + 1 > MAX_EXACT_TERMS:
                    return None
        if not simplify:
            return Fraction(int(v.p), int(v.q)) if v.is_Rational else None
        if v.has(sp.Sum):
            v = v.doit()
        if not v.is_Rational and v.count_ops() <= 200 and _small_rationals(v):
            v = sp.simplify(v)  # (logcombine turns c log t into log(t**c): only for small c)
    except (TypeError, ValueError, ArithmeticError, RecursionError):
        return None
    return Fraction(int(v.p), int(v.q)) if v.is_Rational else None


#: the largest |exponent| of an exact power, and the largest numerator/denominator (bits) that sp.simplify sees:
#: exact work that grows with a value (t**s at s = 1e1000, log-combined powers) is skipped, not attempted
_MAX_EXACT_EXPONENT = 4096
_MAX_SIMPLIFY_BITS = 12  # (an exponent logcombine builds from such a coefficient stays <= 4096)


def _exact_work_bounded(raw: sp.Expr) -> bool:
    """Whether evaluating the unevaluated substitution ``raw`` exactly stays small: no numeric power with an
    exponent beyond _MAX_EXACT_EXPONENT in magnitude (the exact result's size grows with the exponent's value)."""
    for p in raw.atoms(sp.Pow):
        b, e = p.args
        if b.free_symbols or e.free_symbols or b in (sp.S.Zero, sp.S.One, sp.S.NegativeOne):
            continue
        try:
            mag = abs(float(sp.N(e, 5)))  # an exponent beyond float64 is +inf: too large
        except (TypeError, ValueError, OverflowError):
            return False
        if not mag <= _MAX_EXACT_EXPONENT:
            return False
    return True


def _small_rationals(v: sp.Expr) -> bool:
    return all(max(abs(r.p).bit_length(), r.q.bit_length()) <= _MAX_SIMPLIFY_BITS for r in v.atoms(sp.Rational))


def backed_floor_digits(lo: Fraction, hi: Fraction, digits: int) -> int:
    """The largest d <= digits at which lo and hi round down to the same decimal (0 if none).

    Source: a quantity in [lo, hi] then rounds down to that decimal too, which is <= lo (never overstated: the
    rule for B*).  Domain: lo <= hi."""
    for d in range(digits, 0, -1):
        if decimal_round(lo, d, "floor") == decimal_round(hi, d, "floor"):
            return d
    return 0
