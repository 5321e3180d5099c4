"""Evaluate any spec entry: certified enclosures (arb), high precision (mpmath), and a sound numpy fast path.

Public API (all by spec id, with canonical parameter names):

* :func:`enclose` -> :class:`Enclosure`, guaranteed to contain the exact value, at the relative width asked for,
  or :class:`CertificationError` ("could not certify") -- never a wrong digit.
* :func:`evaluate` -> :class:`Evaluation` (value as a decimal string, enclosure, float64 upper/lower, digits).
* :func:`value_mp` -> the value from mpmath at any number of digits, in a private context.
* :func:`fast_interval` / :func:`fast_upper` / :func:`fast_lower` -> vectorized float64 bounds that bracket the
  exact value elementwise (see :class:`dpbounds.evaluation.interp.NpIntervalBackend` for the error model).
* :func:`decide` -> the certified truth value of a filter's HALT condition (HALT when undecidable).

Sequence inputs (``eps=[...]``, ``delta=[...]``, ``rho=[...]``) are reduced to the entry's aggregates by
:mod:`dpbounds.evaluation.sequences`, exactly or with certified error bounds.
"""

from __future__ import annotations

import decimal
import functools
import math
import threading
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Iterable, Mapping

import numpy as np
import sympy as sp
from flint import arb

from dpbounds.spec import DomainError, get
from dpbounds.spec.core import (CANONICAL, Exact, SpecEntry, fraction_to_decimal_str, parse_exact, check_sum_sizes,
                                sum_limits)
from dpbounds.util import show
from dpbounds.util.show import decimal_str as decimal_str  # re-exported (its home was here)

from dpbounds.evaluation import cost as _cost, npfast, optimize as _opt, sequences
# re-exported: the result types live below optimize (which needs them), so that the imports point one way
from dpbounds.evaluation.enclosure import (CertificationError as CertificationError, Enclosure as Enclosure,
                                           entry_expr as entry_expr)
from dpbounds.evaluation.interp import POS_INF, ArbBackend, MpBackend, NotCertified, NpIntervalBackend, compile_expr
from dpbounds.evaluation.numeric import arb_end_pairs, arb_prec, dyadic_fraction, float_down, float_up, mp_context
from dpbounds.evaluation.digits import backed_decimal, decimal_round, exact_value, round_nearest


# ------------------------------------------------------------------------------------------------
# Compiled expressions (cached per entry, per expression key, per backend kind)
# ------------------------------------------------------------------------------------------------

#: per-round values: a sequence of exact numbers (or floats), or a float64 array
Rounds = Iterable[Exact] | np.ndarray

_ARB = ArbBackend()
_COMPILE_LOCK = threading.Lock()
_compiled: dict[tuple[str, str, str], Any] = {}


def _is_truth(e: sp.Basic) -> bool:
    return bool(e.is_Relational or e.is_Boolean)  # (a Symbol is a sympy Boolean too: not a test)


def _check_value_expr(entry: SpecEntry, what: str) -> None:
    """DomainError unless ``what`` names a numeric expression of the entry (a HALT condition is a truth value)."""
    if not isinstance(what, str):
        raise TypeError(f"what: expected a string such as 'expr', got {type(what).__name__}")
    if _is_truth(entry_expr(entry, what)):
        raise DomainError("what", what, "a numeric expression, one of "
                          f"{sorted(k for k, v in entry.all_exprs().items() if not _is_truth(v))}",
                          entry.theorem, "the HALT condition is a truth value: run the filter (`dpbounds filter`, "
                          "make_filter) to decide it")


def _compiled_fn(entry: SpecEntry, what: str, kind: str, backend: Any = None) -> Callable[[dict[str, Any]], Any]:
    key = (entry.id, what, kind)
    fn = _compiled.get(key)
    if fn is None:
        with _COMPILE_LOCK:
            fn = _compiled.get(key)
            if fn is None:
                fn = compile_expr(entry_expr(entry, what), backend)
                if kind != "mp":
                    _compiled[key] = fn
    return fn


# ------------------------------------------------------------------------------------------------
# Inputs
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Inputs:
    """Validated inputs: exact parameters and aggregate enclosures (lo, hi) or POS_INF."""

    params: dict[str, Fraction]
    aggregates: dict[str, Any]


def prepare(entry: SpecEntry, params: Mapping[str, Any], *, eps: Rounds | None = None, delta: Rounds | None = None,
            rho: Rounds | None = None,
            aggregates: Mapping[str, Any] | None = None, optimize_var_given: bool = False) -> Inputs:
    """Parse and check parameters and sequences for ``entry``; compute its aggregates."""
    if params is not None and not isinstance(params, Mapping):
        raise TypeError(f"params: expected a mapping {{name: value}}, got {type(params).__name__}")
    if aggregates is not None and not isinstance(aggregates, Mapping):
        raise TypeError(f"aggregates: expected a mapping {{name: value}}, got {type(aggregates).__name__}")
    params = dict(params or {})
    opt_val = None
    if entry.optimize is not None and entry.optimize.var in params:
        opt_val = parse_exact(entry.optimize.var, params.pop(entry.optimize.var), entry.theorem)
    agg_given = dict(aggregates or {})
    for a in list(params):
        if a in entry.aggregates:
            agg_given[a] = params.pop(a)
    for a in agg_given:  # an aggregate the entry does not use is refused, never silently ignored
        if a not in entry.aggregates:
            raise DomainError(a, agg_given[a], f"one of the entry's aggregates {sorted(entry.aggregates)}"
                              if entry.aggregates else "no aggregate: this entry takes none", entry.theorem,
                              "unknown aggregate")
    vals = entry.check_values(params)
    if opt_val is not None and entry.optimize is not None:
        vals[entry.optimize.var] = opt_val
    aggs: dict[str, Any] = {}
    have_seq = eps is not None or delta is not None or rho is not None
    if entry.aggregates:
        if have_seq and agg_given:
            raise DomainError("aggregates", sorted(agg_given), "either per-round sequences or aggregate values, "
                              "not both", entry.theorem)
        if have_seq:
            try:
                aggs = sequences.aggregates_for(entry, eps=eps, delta=delta, rho=rho)
            except NotCertified as e:
                raise CertificationError(f"{entry.id}: the aggregates {', '.join(entry.aggregates)} of these "
                                         f"per-round values could not be enclosed ({e})") from None
        else:
            for a in entry.aggregates:
                if a not in agg_given:
                    raise DomainError(a, None, "a value for this aggregate, or the per-round sequences "
                                      "(eps=..., delta=...)", entry.theorem, "missing aggregate")
                v = agg_given[a]
                if isinstance(v, str) and v.strip().lower() in ("inf", "+inf", "oo"):
                    aggs[a] = POS_INF
                    continue
                q = parse_exact(a, v, entry.theorem)
                if q < 0:
                    raise DomainError(a, q, f"{a} >= 0 (a sum of nonnegative per-round terms)", entry.theorem)
                aggs[a] = (q, q)
    elif have_seq:
        raise DomainError("eps", "<sequence>", "no per-round sequence: this entry has no aggregates",
                          entry.theorem)
    return Inputs(vals, aggs)


def _arb_env(inp: Inputs) -> dict[str, Any]:
    env: dict[str, Any] = {k: arb(v.numerator) / arb(v.denominator) for k, v in inp.params.items()}
    exact = dict(inp.params)  # exact rational values, for relations decidable in exact arithmetic
    for k, v in inp.aggregates.items():
        if v is POS_INF:
            env[k] = POS_INF
        else:
            lo, hi = v
            a = arb(lo.numerator) / arb(lo.denominator)
            if lo is hi or lo == hi:
                env[k] = a
                exact[k] = lo
            else:
                env[k] = a.union(arb(hi.numerator) / arb(hi.denominator))
    env["__exact__"] = exact
    return env


# ------------------------------------------------------------------------------------------------
# Certified enclosures
# ------------------------------------------------------------------------------------------------


# Ends are built as exact Fractions only for |value| in (2**-_EXP_LIMIT, 2**_EXP_LIMIT), about 10**(+-315653): a
# smaller end is rounded outward to 0 or +-2**-_EXP_LIMIT (so an exp(-1e30) is enclosed in [0, 2**-_EXP_LIMIT]),
# and a larger one cannot be certified as a Fraction at all.
_EXP_LIMIT = 1 << 20


class MagnitudeOutOfRange(NotCertified):
    """An enclosure end beyond 2**_EXP_LIMIT in magnitude: no exact rational end is built for it."""


def _clamp_pair(m: int, e: int, upper: bool) -> tuple[int, int]:
    """(mantissa, exponent) of an end, rounded outward (up for ``upper``) into the representable range."""
    if m == 0:
        return (0, 0)
    top = e + abs(m).bit_length()  # |m * 2**e| < 2**top
    if top > _EXP_LIMIT:
        raise MagnitudeOutOfRange(f"an enclosure end of magnitude about 2**{top} is beyond 2**{_EXP_LIMIT}")
    if top < -_EXP_LIMIT:
        return (1 if m > 0 else -1, -_EXP_LIMIT) if (m > 0) == upper else (0, 0)
    return (m, e)


def _clamped(ends: tuple[tuple[int, int], tuple[int, int]]) -> tuple[tuple[int, int], tuple[int, int]]:
    (lm, le), (hm, he) = ends
    return _clamp_pair(lm, le, False), _clamp_pair(hm, he, True)


def _clamp_enclosure(entry: SpecEntry, enc: Enclosure) -> Enclosure:
    """``enc`` with ends below 2**-_EXP_LIMIT in magnitude rounded outward (as :func:`_clamped` does for the arb
    path), so an optimum or an opaque evaluator's end near 2**-(2**26) is not rendered as a 20-million-digit
    decimal; an end beyond 2**_EXP_LIMIT is a CertificationError (no decimal of it is printed)."""
    if enc.pos_inf or enc.lo is None or enc.hi is None:
        return enc
    tiny = Fraction(1, 1 << _EXP_LIMIT)
    lo, hi = enc.lo, enc.hi
    for x in (lo, hi):
        if x != 0 and abs(x.numerator).bit_length() - x.denominator.bit_length() > _EXP_LIMIT:
            raise CertificationError(f"{entry.id}: an enclosure end of magnitude about "
                                     f"2**{abs(x.numerator).bit_length() - x.denominator.bit_length()} is beyond "
                                     f"2**{_EXP_LIMIT}")
    if lo != 0 and abs(lo) < tiny:
        lo = Fraction(0) if lo > 0 else -tiny
    if hi != 0 and abs(hi) < tiny:
        hi = tiny if hi > 0 else Fraction(0)
    if lo is enc.lo and hi is enc.hi:
        return enc
    return Enclosure(lo, hi, enc.bits)


def _pairs_to_enclosure(ends: tuple[tuple[int, int], tuple[int, int]], bits: int) -> Enclosure:
    """The Enclosure of ends already in range (:func:`_clamped`)."""
    (lm, le), (hm, he) = ends
    return Enclosure(dyadic_fraction(lm, le), dyadic_fraction(hm, he), bits)


def _ends_rel_width(ends: tuple[tuple[int, int], tuple[int, int]]) -> float:
    """:meth:`Enclosure.rel_width` of the enclosure with these (mantissa, exponent) ends, in integer arithmetic.

    Both ends are scaled to a common power of two, so the ratio (hi - lo) / max(|lo|, |hi|) is one of integers;
    Python's int / int is correctly rounded, as is ``float(Fraction)`` (which divides the reduced integers): the
    two give the same float.
    """
    (lm, le), (hm, he) = ends
    e = le if le < he else he
    lo = lm << (le - e)
    hi = hm << (he - e)
    m = max(abs(lo), abs(hi))
    return 0.0 if m == 0 else (hi - lo) / m


def _evaluate_arb(entry: SpecEntry, what: str, inp: Inputs, bits: int) -> Any:
    """arb value of an expression (or the three-valued truth of a boolean) at ``bits`` of precision."""
    fn = _compiled_fn(entry, what, "arb", _ARB)
    with arb_prec(bits):
        return _with_infinite(inp, fn, _arb_env(inp))


def _with_infinite(inp: Inputs, fn: Callable[[dict[str, Any]], Any], env: dict[str, Any]) -> Any:
    """fn(env); with an infinite aggregate, an operation that has no rule for +oo is NotCertified (a refusal with
    its reason), not an internal TypeError."""
    try:
        return fn(env)
    except TypeError as e:
        if any(v is POS_INF for v in inp.aggregates.values()):
            raise NotCertified(f"an infinite aggregate reaches an operation without a rule for +oo ({e})") from None
        raise


def _arb_ends(entry: SpecEntry, what: str, inp: Inputs, bits: int) -> Any:
    """POS_INF, or the ends of the arb enclosure at ``bits`` as in-range (mantissa, exponent) pairs.

    The ends are read *inside* the precision context: arb's ``lower()``/``upper()`` round (outward) to the current
    precision, which outside would be 53 bits.  A non-finite ball raises NotCertified.
    """
    fn = _compiled_fn(entry, what, "arb", _ARB)
    with arb_prec(bits):
        v = _with_infinite(inp, fn, _arb_env(inp))
        if v is POS_INF:
            return POS_INF
        ends = arb_end_pairs(v)
    if ends is None:
        raise NotCertified(f"non-finite ball {v}")
    return _clamped(ends)


#: the most significant digits evaluate() gives, and the smallest relative tolerance enclose() takes
MAX_DIGITS = 5000
MIN_REL_TOL = Fraction(1, 10 ** (MAX_DIGITS + 3))


def _check_rel_tol(rel_tol: Any) -> Fraction:
    """``rel_tol`` as an exact positive rational, or DomainError (NaN, infinities, <= 0 and non-numbers refused)."""
    if isinstance(rel_tol, (str, bool)) or not isinstance(rel_tol, (int, float, Fraction, decimal.Decimal, np.floating)):
        raise DomainError("rel_tol", rel_tol, "a positive real number (e.g. 1e-30)", "dpbounds.evaluation.evaluate")
    if isinstance(rel_tol, float) and not math.isfinite(rel_tol):
        raise DomainError("rel_tol", rel_tol, "a finite positive real number", "dpbounds.evaluation.evaluate")
    # a Fraction is taken as it is: evaluate() asks for 1/10**(digits + 3), beyond the size limit on user numbers
    q = rel_tol if isinstance(rel_tol, Fraction) else parse_exact("rel_tol", rel_tol, "dpbounds.evaluation.evaluate")
    if q <= 0:
        raise DomainError("rel_tol", rel_tol, "rel_tol > 0", "dpbounds.evaluation.evaluate")
    if q < MIN_REL_TOL:  # the work grows with -log rel_tol without bound: 1e-100000 ran for minutes
        raise DomainError("rel_tol", _show_tol(q), f"rel_tol >= 1e-{MAX_DIGITS + 3} (the {MAX_DIGITS} digits "
                          "evaluate gives at most, plus its 3 guard digits)", "dpbounds.evaluation.evaluate",
                          "too costly")
    return q


def _show_tol(rel_tol: Any) -> str:
    """A short rendering of a tolerance (str(1/10**5003) would exceed Python's int-to-str limit)."""
    q = Fraction(rel_tol)
    if q.numerator == 1 and q.denominator.bit_length() < 1 << 16:
        k = round(q.denominator.bit_length() * 0.30103)
        for e in (k - 1, k, k + 1):
            if e >= 0 and 10 ** e == q.denominator:
                return f"1e-{e}"
    f = float(q) if q.numerator.bit_length() - q.denominator.bit_length() < 1000 else math.inf
    if f == 0 or math.isinf(f):  # beyond float64: its order of magnitude
        return f"about 1e{round((q.numerator.bit_length() - q.denominator.bit_length()) * 0.30103)}"
    return f"{f:.3g}"


@functools.lru_cache(maxsize=256)
def _start_bits_for(rel_tol: Fraction | float) -> int:
    """Working precision for a first attempt at relative width ``rel_tol``: -log2(rel_tol) + 32, at least 64.

    A pure function of its argument (memoized: it sits on the certified hot path)."""
    q = Fraction(rel_tol)
    if q <= 0:
        return 128
    need = q.denominator.bit_length() - q.numerator.bit_length() + 1  # >= -log2(q)
    return max(64, need + 32)


def enclose_inputs(entry: SpecEntry, inp: Inputs, *, what: str = "expr", rel_tol: Fraction | float = 1e-30,
                   start_bits: int | None = None, max_bits: int = 1 << 15) -> Enclosure:
    """Certified enclosure of ``entry``'s expression at prepared inputs, refined until rel. width <= rel_tol.

    The first attempt runs at ``start_bits``; by default enough bits for ``rel_tol`` plus 32 guard bits (so a
    50-digit request is usually one evaluation, not a failed 128-bit one and a 256-bit one); each retry doubles.
    An entry with an opaque certified evaluator (``SpecEntry.evaluator``) is enclosed by it instead.
    """
    if entry.evaluator:
        return _clamp_enclosure(entry, enclose_opaque(entry, inp, rel_tol))
    if entry.optimize is not None and entry.optimize.var not in inp.params:
        # certified inf/sup over the free variable
        enc = _clamp_enclosure(entry, _opt.enclose_optimum(entry, inp, what=what, rel_tol=rel_tol))
        _check_rel_tol(rel_tol)
        lo, hi = enc.lo, enc.hi
        if lo is not None and hi is not None and enc.rel_width() > float(rel_tol) and hi - lo > Fraction(1, 10**300):
            raise CertificationError(f"{entry.id}: the optimum was certified only to relative width "
                                     f"{enc.rel_width():.3g} > {float(rel_tol):.3g}")
        return enc
    _check_rel_tol(rel_tol)
    tol = float(rel_tol)
    if start_bits is None:
        start_bits = _start_bits_for(rel_tol)
    bits = start_bits
    last_err: Exception | None = None
    while bits <= max_bits:
        try:
            ends = _arb_ends(entry, what, inp, bits)
            if ends is POS_INF:
                return Enclosure(None, None, bits, pos_inf=True)
            # the acceptance test of Enclosure.rel_width() <= tol (or lo == hi), without building Fractions
            if _ends_rel_width(ends) <= tol or ends[0] == ends[1]:
                return _pairs_to_enclosure(ends, bits)
            enc = _pairs_to_enclosure(ends, bits)
            lo, hi = enc.lo, enc.hi
            if lo is not None and hi is not None and lo <= 0 <= hi and abs(hi - lo) < Fraction(1, 10**300):
                return enc  # a value at (or astonishingly near) zero: absolute width suffices
        except MagnitudeOutOfRange as exc:
            raise CertificationError(f"{entry.id}: {exc}") from exc
        except NotCertified as exc:
            if any(v is POS_INF for v in inp.aggregates.values()):  # more bits do not help with +oo
                raise CertificationError(f"{entry.id}: not certified with an infinite aggregate ({exc})") from None
            last_err = exc
        bits *= 2
    raise CertificationError(f"{entry.id}: could not certify to relative width {_show_tol(rel_tol)} with {max_bits} bits"
                             + (f" ({last_err})" if last_err else ""))


def opaque_evaluator(entry: SpecEntry) -> Callable[[dict[str, Fraction], float], Enclosure]:
    """The certified evaluator an entry names (``"module:function"`` under dpbounds), imported on first use (the
    spec cannot import the reference package: the imports point one way)."""
    import importlib
    mod, _, fn = entry.evaluator.partition(":")
    if not mod.startswith("dpbounds.") or not fn:
        raise ValueError(f"{entry.id}: evaluator {entry.evaluator!r} is not 'dpbounds.<module>:<function>'")
    return getattr(importlib.import_module(mod), fn)  # type: ignore[no-any-return]


def enclose_opaque(entry: SpecEntry, inp: Inputs, rel_tol: Fraction | float) -> Enclosure:
    """Certified enclosure of an entry with an opaque evaluator, of relative width <= rel_tol, or
    CertificationError (the evaluator's own: it says how narrow it can go)."""
    _check_rel_tol(rel_tol)
    enc = opaque_evaluator(entry)(dict(inp.params), float(rel_tol))
    if enc.rel_width() > float(rel_tol):  # the evaluator's contract, checked here once more
        raise CertificationError(f"{entry.id}: certified only to relative width {enc.rel_width():.3g}")
    return enc


#: evaluate() asks relative width 10^-(digits + 3): an opaque evaluator's bracket (1e-7 at best) backs 4 digits
OPAQUE_MAX_DIGITS = 4


def _no_opaque(entry: SpecEntry, what: str) -> None:
    """DomainError for the float fast path / mpmath value of an entry that only its certified evaluator evaluates."""
    if entry.evaluator:
        raise DomainError("id", entry.id, f"an entry with a closed form ({what} is not available here: use "
                          "dpbounds.enclose with a relative tolerance such as rel_tol=1e-3)", entry.theorem,
                          "no closed form: certified evaluator only")


def enclose(entry_id: str, params: Mapping[str, Any] | None = None, *, eps: Rounds | None = None,
            delta: Rounds | None = None, rho: Rounds | None = None, aggregates: Mapping[str, Any] | None = None,
            what: str = "expr", rel_tol: float = 1e-30) -> Enclosure:
    """Certified enclosure [lo, hi] of the exact value of a spec entry (hi None = +oo).

    Raises :class:`spec.DomainError` on bad input and :class:`CertificationError` when it cannot certify.
    """
    entry = get(entry_id)
    _check_value_expr(entry, what)
    _check_rel_tol(rel_tol)
    digits = _cost.digits_of_tol(rel_tol)
    _cost.check_rounds_cost(entry, digits, eps=eps, delta=delta, rho=rho)
    inp = prepare(entry, {} if params is None else params, eps=eps, delta=delta, rho=rho, aggregates=aggregates)
    _cost.check_cost(entry, inp.params, digits, what)
    return _enclose_refining_streams(entry, inp, what, rel_tol, eps, delta, rho)[0]


def _enclose_refining_streams(entry: SpecEntry, inp: Inputs, what: str, rel_tol: Fraction | float,
                              eps: Rounds | None, delta: Rounds | None, rho: Rounds | None,
                              max_bits: int = 1 << 15) -> tuple[Enclosure, Inputs]:
    """enclose_inputs; if it fails on per-round sequences, once more with the aggregates recomputed exactly (float64
    streams) and their transcendental sums (A, KOV, LIFT) at the precision the asked width needs, not 256 bits."""
    try:
        return enclose_inputs(entry, inp, what=what, rel_tol=rel_tol, max_bits=max_bits), inp
    except CertificationError:
        if all(s is None for s in (eps, delta, rho)):
            raise
        bits = max(256, 2 * _start_bits_for(_check_rel_tol(rel_tol)))
        inp = Inputs(inp.params, sequences.aggregates_for(entry, eps=eps, delta=delta, rho=rho, exact=True,
                                                          bits=bits))
        return enclose_inputs(entry, inp, what=what, rel_tol=rel_tol, max_bits=max_bits), inp


def decide(entry: SpecEntry, inp: Inputs, *, max_bits: int = 1 << 12) -> bool:
    """Certified truth of ``entry.halt`` at the inputs; undecidable at max_bits counts as HALT (True)."""
    if entry.halt is None:
        raise DomainError("id", entry.id, "a filter entry (with a HALT condition)", entry.theorem)
    bits = 64
    while bits <= max_bits:
        try:
            r = _evaluate_arb(entry, "halt", inp, bits)
        except NotCertified:
            r = None
        if r is True or r is False:
            return bool(r)
        bits *= 4
    return True


# ------------------------------------------------------------------------------------------------
# High precision (mpmath) and the combined evaluation record
# ------------------------------------------------------------------------------------------------


def _mp_env(ctx: Any, inp: Inputs) -> dict[str, Any]:
    env = {k: ctx.mpf(v.numerator) / v.denominator for k, v in inp.params.items()}
    for k, v in inp.aggregates.items():
        if v is POS_INF:
            env[k] = ctx.inf
        else:
            lo, hi = v
            env[k] = (ctx.mpf(lo.numerator) / lo.denominator + ctx.mpf(hi.numerator) / hi.denominator) / 2
    return env


def value_mp_inputs(entry: SpecEntry, inp: Inputs, digits: int, what: str = "expr") -> tuple[Any, Any]:
    """The value computed by mpmath in a private context at ``digits`` (+guard) digits, as an mpf of that context."""
    if entry.optimize is not None and entry.optimize.var not in inp.params:
        return _opt.value_mp_optimum(entry, inp, digits, what=what)  # type: ignore[no-any-return]
    ctx = mp_context(digits + 15)
    fn = compile_expr(entry_expr(entry, what), MpBackend(ctx))  # type: ignore[no-untyped-call]
    return ctx, fn(_mp_env(ctx, inp))


def value_mp(entry_id: str, params: Mapping[str, Any] | None = None, *, digits: int = 30, eps: Rounds | None = None,
             delta: Rounds | None = None, rho: Rounds | None = None, aggregates: Mapping[str, Any] | None = None,
             what: str = "expr") -> str:
    """The value at ``digits`` significant digits as a decimal string, computed by mpmath (private context)."""
    entry = get(entry_id)
    _no_opaque(entry, "an mpmath value")
    inp = prepare(entry, {} if params is None else params, eps=eps, delta=delta, rho=rho, aggregates=aggregates)
    ctx, v = value_mp_inputs(entry, inp, digits, what)
    return mp_to_str(ctx, v, digits)


def mp_to_str(ctx: Any, v: Any, digits: int) -> str:
    """An mpf of ``ctx`` as a decimal string of ``digits`` significant digits ('inf', '-inf' when infinite)."""
    if ctx.isinf(v):
        return "inf" if v > 0 else "-inf"
    return str(ctx.nstr(v, digits, strip_zeros=False, min_fixed=-5, max_fixed=20))


@dataclass(frozen=True)
class Evaluation:
    """One certified evaluation: ``value`` (decimal, ``digits`` significant digits), the certified ``enclosure``
    [lo, hi] (decimal strings rounded outward), the float64 bracket ``lower`` <= exact <= ``upper``, the source."""

    id: str
    source: str
    params: dict[str, Any]
    value: str
    enclosure: tuple[str, str]
    upper: float
    lower: float
    digits: int
    infinite: bool = False

    def __repr__(self) -> str:
        shown = "exact value = +inf" if self.infinite else f"exact value in {show.interval(*self.enclosure)}"
        return f"<Evaluation {self.id}({show.mapping(self.params)}): {shown}; .value has {self.digits} digits>"

    def as_dict(self) -> dict[str, Any]:
        """The record as JSON-ready data (the CLI's and the golden vectors' format)."""
        return {"id": self.id, "source": self.source, "params": self.params, "value": self.value,
                "enclosure": list(self.enclosure), "upper": self.upper, "lower": self.lower, "digits": self.digits}


def evaluate(entry_id: str, params: Mapping[str, Any] | None = None, *, digits: int = 30, eps: Rounds | None = None,
             delta: Rounds | None = None, rho: Rounds | None = None, aggregates: Mapping[str, Any] | None = None,
             what: str = "expr", max_bits: int = 1 << 15) -> Evaluation:
    """Value (decimal string at ``digits`` significant digits), certified enclosure and float64 bracket.

    The enclosure's ends are rounded outward to ``digits + 5`` significant digits; ``upper``/``lower`` are the
    next float64 outward from the enclosure.  ``value`` is the enclosure's midpoint rounded to ``digits``
    digits.  :func:`value_mp` is the independent mpmath evaluation of the same spec expression; the tests check
    that every enclosure contains it (tests/test_reference_eval.py), it is not recomputed here.
    """
    if not isinstance(digits, int) or isinstance(digits, bool) or not 1 <= digits <= MAX_DIGITS:
        raise DomainError("digits", digits, f"an integer in [1, {MAX_DIGITS}]", "dpbounds.evaluation.evaluate")
    entry = get(entry_id)
    _check_value_expr(entry, what)
    if entry.evaluator and digits > OPAQUE_MAX_DIGITS:
        raise DomainError("digits", digits, f"at most {OPAQUE_MAX_DIGITS} digits for an entry evaluated only by its "
                          "certified bracket (relative width 1e-7 at best)", entry.theorem,
                          "no closed form: pass --digits 3, or use enclose with rel_tol")
    _cost.check_rounds_cost(entry, digits, eps=eps, delta=delta, rho=rho)
    inp = prepare(entry, {} if params is None else params, eps=eps, delta=delta, rho=rho, aggregates=aggregates)
    _cost.check_cost(entry, inp.params, digits, what)
    rel_tol = Fraction(1, 10 ** (digits + 3))
    enc, inp = _enclose_refining_streams(entry, inp, what, rel_tol, eps, delta, rho, max_bits)
    shown: dict[str, Any] = {k: fraction_to_decimal_str(v) for k, v in inp.params.items()}
    for k, v in inp.aggregates.items():
        if v is POS_INF:
            shown[k] = "inf"
        elif v[0] == v[1] and len(fraction_to_decimal_str(v[0])) <= digits + 10:
            shown[k] = fraction_to_decimal_str(v[0])
        else:  # an enclosure of the aggregate, rounded outward
            shown[k] = [decimal_str(v[0], digits + 5, "floor"), decimal_str(v[1], digits + 5, "ceiling")]
    if enc.pos_inf or enc.lo is None or enc.hi is None:
        return Evaluation(entry.id, str(entry.source), shown, "inf", ("inf", "inf"), math.inf, math.inf, digits,
                          infinite=True)
    value = true_value(entry, inp, enc, digits, what)
    lo_s = decimal_str(enc.lo, digits + 5, "floor")
    hi_s = decimal_str(enc.hi, digits + 5, "ceiling")
    return Evaluation(entry.id, str(entry.source), shown, value, (lo_s, hi_s), enc.upper(), enc.lower(), digits)


def true_value(entry: SpecEntry, inp: Inputs, enc: Enclosure, digits: int, what: str = "expr") -> str:
    """The value correctly rounded to ``digits`` digits (backed by ``enc``), or the exact value the spec decides.

    Raises DomainError('digits') when neither backs ``digits`` digits (see dpbounds.evaluation.digits)."""
    lo, hi = enc.lo, enc.hi
    if lo is None or hi is None:  # +oo: the caller reports it as infinite
        raise DomainError("digits", digits, "a finite value", entry.theorem, "the value is +oo")
    b = backed_decimal(lo, hi, digits)
    if b is not None and b[1] == digits:
        return b[0]
    q = exact_value(entry, inp.params, inp.aggregates, what) if entry.optimize is None else None
    if q is not None and lo <= q <= hi:
        return round_nearest(q, digits)
    try:  # a value near a rounding boundary at `digits` digits: a narrower enclosure usually decides it
        narrow = enclose_inputs(entry, inp, what=what, rel_tol=Fraction(1, 10 ** (digits + 15)))
        b2 = backed_decimal(narrow.lo, narrow.hi, digits) if narrow.lo is not None and narrow.hi is not None \
            else None
        if b2 is not None and b2[1] == digits:
            return b2[0]
    except CertificationError:
        pass
    raise DomainError("digits", digits, f"at most {0 if b is None else b[1]} digits backed by the certified "
                      f"enclosure [{decimal_round(lo, 8, 'floor')}, {decimal_round(hi, 8, 'ceiling')}] "
                      "(and the spec does not decide the value exactly)",
                      entry.theorem, "digits not certified")


# ------------------------------------------------------------------------------------------------
# Fast path
# ------------------------------------------------------------------------------------------------


def _np_pair(name: str, v: Any, rounded_inputs: bool) -> tuple[np.ndarray, np.ndarray]:
    """(lo, hi) float64 arrays enclosing the input: exact for float64/float32/integer inputs (integers beyond 2**53
    and long doubles rounded outward); TypeError for complex, datetime, bytes, strings and other non-real kinds."""
    if isinstance(v, (bytes, bytearray, memoryview)):
        raise TypeError(f"{name}: expected a real number or a numeric array, got {type(v).__name__}")
    if isinstance(v, (list, tuple)) and any(isinstance(x, (bytes, bytearray, memoryview, bool, np.bool_)) for x in v):
        raise TypeError(f"{name}: expected real numbers, got a sequence holding bytes or bools")
    a0 = np.asarray(v, dtype=object) if isinstance(v, str) else np.asarray(v)
    kind = a0.dtype.kind
    if kind == "O":  # Python numbers (ints, Fractions, Decimals): exact values, rounded outward below
        try:
            flat = [parse_exact(name, x, "dpbounds.evaluation.evaluate.fast") for x in a0.ravel().tolist()]
        except TypeError:
            raise TypeError(f"{name}: expected real numbers, got an object array holding other types") from None
        lo = np.array([float_down(q) for q in flat], dtype=np.float64).reshape(a0.shape)
        hi = np.array([float_up(q) for q in flat], dtype=np.float64).reshape(a0.shape)
        return _widen(lo, hi, rounded_inputs)
    if kind not in "fiu":
        raise TypeError(f"{name}: expected real numbers, got numpy dtype {a0.dtype}"
                        + (" (the imaginary part would be dropped)" if kind == "c" else ""))
    a = a0.astype(np.float64)
    if kind != "f" or a0.dtype.itemsize > 8:  # long double or a big integer: float64 may round, so widen outward
        with np.errstate(invalid="ignore"):
            if np.any(np.isnan(a)):
                i = int(np.flatnonzero(np.isnan(a).ravel())[0])
                raise DomainError(name, float("nan"), "a finite real number", "dpbounds.evaluation.evaluate.fast",
                                  f"at index {i}")
            lo = np.where(a > a0, np.nextafter(a, -np.inf), a)
            hi = np.where(a < a0, np.nextafter(a, np.inf), a)
        return _widen(lo, hi, rounded_inputs)
    if np.any(np.isnan(a)):
        i = int(np.flatnonzero(np.isnan(a).ravel())[0])
        raise DomainError(name, float("nan"), "a finite real number", "dpbounds.evaluation.evaluate.fast", f"at index {i}")
    return _widen(a, a, rounded_inputs)


def _widen(lo: np.ndarray, hi: np.ndarray, rounded_inputs: bool) -> tuple[np.ndarray, np.ndarray]:
    if rounded_inputs:  # a nonnegative input stands for a nonnegative real: do not widen below 0
        down = np.nextafter(lo, -np.inf)
        return (np.where(lo >= 0, np.maximum(down, 0.0), down), np.nextafter(hi, np.inf))
    return (lo, hi)


def fast_interval(entry_id: str, *, what: str = "expr", rounded_inputs: bool = False, check_domain: bool = True,
                  **arrays: Any) -> tuple[np.ndarray, np.ndarray]:
    """Vectorized float64 (lo, hi) with lo <= exact value <= hi elementwise.

    ``arrays`` maps parameter and aggregate names to scalars or numpy arrays (broadcast together).  Inputs are
    taken as the exact binary64 values given; with ``rounded_inputs=True`` each input stands for any real within
    one ulp of it (use this when the floats came from rounding decimals).  Domain relations are checked
    elementwise and a violation raises :class:`DomainError` naming the parameter and the first bad index.
    """
    entry = get(entry_id)
    _no_opaque(entry, "a float64 fast path")
    names = set(entry.params) | set(entry.aggregates)
    if entry.optimize is not None:
        if entry.optimize.var not in arrays:
            raise DomainError(entry.optimize.var, None, "the fast path needs an explicit value for the optimized "
                              "variable (any value gives a valid upper bound of an infimum)", entry.theorem)
        names.add(entry.optimize.var)
    for k in arrays:
        if k not in names:
            raise DomainError(k, "<array>", f"one of {sorted(names)}", entry.theorem, "unknown parameter")
    for k in names:
        if k not in arrays:
            raise DomainError(k, None, "a value is required", entry.theorem, "missing parameter")
    env = {k: _np_pair(k, v, rounded_inputs) for k, v in arrays.items()}
    try:
        shape = np.broadcast_shapes(*[np.shape(x[0]) for x in env.values()]) if env else ()
    except ValueError:
        raise DomainError("arrays", {k: np.shape(x[0]) for k, x in env.items()}, "shapes that broadcast together",
                          entry.theorem) from None
    if 0 in shape:  # nothing to evaluate
        return np.empty(shape), np.empty(shape)
    _check_sum_sizes_fast(entry, env)
    nonneg_inputs: set[str] = set()
    # the canonical sign assumptions (aggregates >= 0, eps_g > 0, ...) are part of every entry's domain: the
    # compiled fast path relies on them (products of nonnegative factors), so they are always enforced
    for k, (lo_k, _) in env.items():
        need = "nonnegative" if (k in entry.aggregates or "nonnegative" in CANONICAL.get(k, ({}, ""))[0]) else \
            ("positive" if "positive" in CANONICAL.get(k, ({}, ""))[0] else None)
        bad = (lo_k < 0) if need == "nonnegative" else ((lo_k <= 0) if need == "positive" else None)
        if need is not None:
            nonneg_inputs.add(k)
        if bad is not None and np.any(bad):
            i = int(np.flatnonzero(np.ravel(bad))[0])
            raise DomainError(k, float(np.ravel(lo_k)[i]), f"{k} {'>= 0' if need == 'nonnegative' else '> 0'}",
                              entry.theorem, f"first violation at index {i}")
    B = NpIntervalBackend()  # type: ignore[no-untyped-call]
    expr = entry_expr(entry, what)
    if check_domain:
        for rel in entry.domain:
            t, f = compile_expr(rel, B)(env)
            bad = ~np.broadcast_to(np.asarray(t), np.broadcast_shapes(*[np.shape(x[0]) for x in env.values()]))
            if np.any(bad):
                idx = np.unravel_index(int(np.flatnonzero(bad.ravel())[0]), bad.shape) if bad.ndim else ()
                sym0 = sorted(str(s) for s in rel.free_symbols)[0]
                val = np.broadcast_to(env[sym0][0], bad.shape)[idx] if sym0 in env else None
                raise DomainError(sym0, float(val) if val is not None else None, str(rel), entry.theorem,
                                  f"first violation at index {tuple(int(i) for i in idx)}")
    # the compiled chunked interval program (dpbounds.evaluation.npfast), erfc included (its elements too loose for the
    # 1e-12 bar, where Phi(a) - e^eps Phi(b) cancels, are refined in arb); exact Sums and erf: certified per element
    prog = None
    if not expr.has(sp.erf, sp.Sum):
        try:
            prog = npfast.program_for((entry.id, what, frozenset(nonneg_inputs)), expr, nonneg_inputs)
        except npfast.Unsupported:
            prog = None
    if prog is not None:
        lo, hi = prog.run(env, elementwise=B._elementwise_arb)
        if expr.has(sp.erfc) or entry.id in REFINE_LOOSE:
            _tighten_loose_elements(entry, what, env, lo, hi)
        return lo, hi
    lo, hi = _fast_interval_elementwise(entry, what, env)
    lo = np.where(np.isnan(lo), -np.inf, lo)
    hi = np.where(np.isnan(hi), np.inf, hi)
    shape = np.broadcast_shapes(*[np.shape(x[0]) for x in env.values()]) if env else ()
    return np.broadcast_to(lo, shape).copy(), np.broadcast_to(hi, shape).copy()


def _check_sum_sizes_fast(entry: SpecEntry, env: dict[str, Any]) -> None:
    """spec.core.check_sum_sizes at the largest value of each array (a sum's length grows with its upper limit)."""
    if not sum_limits(entry):
        return
    big = {}
    for k, (_, hi) in env.items():
        m = float(np.max(hi))
        if not math.isfinite(m):
            raise DomainError(k, m, "a finite real number", entry.theorem)
        big[k] = Fraction(math.ceil(m)) if m > 0 else Fraction(0)
    check_sum_sizes(entry, big)


#: closed forms whose float64 evaluation cancels in part of the domain, refined in arb like the erfc entries: the
#: Laplace curves (for large b the Renyi value ~ alpha/(2 b^2) is 1/b plus a log term of size -1/b; delta =
#: 1 - e^{(eps - 1/b)/2} for eps near 1/b)
REFINE_LOOSE = frozenset({"mechanisms.laplace.rdp", "mechanisms.laplace.delta"})

# Elements of an erfc expression whose float64 enclosure is wider than this (relative; the float fast path's quality bar)
# are recomputed in arb.
LOOSE_REL_WIDTH = 1e-12


def _tight_mask(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """hi - lo <= LOOSE_REL_WIDTH * max(|lo|, |hi|) elementwise (False for NaN), in cache-sized chunks."""
    if lo.ndim == 0 or lo.size <= npfast.CHUNK:
        with np.errstate(invalid="ignore"):
            small: np.ndarray = (hi - lo) <= LOOSE_REL_WIDTH * np.maximum(np.abs(lo), np.abs(hi))
            return small
    out = np.empty(lo.shape, dtype=bool)
    fl, fh, fo = lo.reshape(-1), hi.reshape(-1), out.reshape(-1)
    n = fl.size
    c = npfast.CHUNK
    t = np.empty(c)
    u = np.empty(c)
    with np.errstate(invalid="ignore"):
        for i in range(0, n, c):
            j = min(i + c, n)
            m = j - i
            a, b, tt, uu = fl[i:j], fh[i:j], t[:m], u[:m]
            np.abs(a, out=tt)
            np.abs(b, out=uu)
            np.maximum(tt, uu, out=tt)
            tt *= LOOSE_REL_WIDTH
            np.subtract(b, a, out=uu)
            np.less_equal(uu, tt, out=fo[i:j])
    return out


def _tighten_loose_elements(entry: SpecEntry, what: str, env: dict[str, Any], lo: np.ndarray, hi: np.ndarray) -> None:
    """In place: where the vectorized enclosure is loose (the Gaussian curve Phi(a) - e^eps Phi(b) cancels when
    delta is far below its two terms), intersect it with the per-element certified arb enclosure.  Both are sound,
    so their intersection is; elements already tight are left alone."""
    tight = _tight_mask(lo, hi)
    if lo.ndim == 0:
        if not bool(tight):
            slo, shi = _fast_interval_elementwise(entry, what, env)
            lo[...] = np.maximum(lo, slo)
            hi[...] = np.minimum(hi, shi)
        return
    where = np.nonzero(~tight)
    if not where[0].size:
        return
    sub = {k: (np.broadcast_to(a, lo.shape)[where], np.broadcast_to(b, lo.shape)[where]) for k, (a, b) in env.items()}
    slo, shi = _fast_interval_elementwise(entry, what, sub)
    lo[where] = np.maximum(lo[where], slo)
    hi[where] = np.minimum(hi[where], shi)


def _fast_interval_elementwise(entry: SpecEntry, what: str, env: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """Per-element arb evaluation (for expressions whose float evaluation would cancel catastrophically, e.g. the
    Gaussian curve Phi(a) - e^eps Phi(b), or exact Sums): slower, but tight and certified."""
    shape = np.broadcast_shapes(*[np.shape(x[0]) for x in env.values()]) if env else ()
    lo = np.empty(shape)
    hi = np.empty(shape)
    fn = _compiled_fn(entry, what, "arb", _ARB)
    cols = {k: (np.broadcast_to(v[0], shape), np.broadcast_to(v[1], shape)) for k, v in env.items()}
    with arb_prec(128):
        for idx in np.ndindex(shape):
            e = {}
            for k, (a, b) in cols.items():
                x, y = float(a[idx]), float(b[idx])
                e[k] = arb(x) if x == y else arb(x).union(arb(y))
            try:
                v = fn(e)
                if v is POS_INF:
                    lo[idx], hi[idx] = np.inf, np.inf
                else:
                    lo[idx], hi[idx] = float_down(v), float_up(v)
            except (NotCertified, ZeroDivisionError, ValueError):
                lo[idx], hi[idx] = -np.inf, np.inf
    return lo, hi


def fast_upper(entry_id: str, **arrays: Any) -> np.ndarray:
    """Vectorized float64 upper bounds (>= the exact value elementwise); see :func:`fast_interval`."""
    return fast_interval(entry_id, **arrays)[1]


def fast_lower(entry_id: str, **arrays: Any) -> np.ndarray:
    """Vectorized float64 lower bounds (<= the exact value elementwise); see :func:`fast_interval`."""
    return fast_interval(entry_id, **arrays)[0]
