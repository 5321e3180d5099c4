"""The spec data model: entries, parameters, sources, domains and the registry.

Every bound of the project is one :class:`SpecEntry`: a sympy expression with the domain on which its
source proves it, its kind and its exact source.  Nothing outside ``spec/`` restates a formula by hand;
``reference/`` evaluates these expressions, ``proofs_check/`` checks the claims made about them.
"""

from __future__ import annotations

import enum
import math
import re
import warnings
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Iterable, Mapping

if TYPE_CHECKING:
    from .papers import Paper

import sympy as sp

# ----------------------------------------------------------------------------------------------
# Errors
# ----------------------------------------------------------------------------------------------


class DomainError(ValueError):
    """A parameter is missing, malformed or outside the domain on which a theorem holds.

    The message names the parameter, its value, the allowed domain and the theorem that imposes it.
    """

    def __init__(self, param: str, value: Any, domain: str, theorem: str = "", reason: str = ""):
        self.param = param
        self.value = value
        self.domain = domain
        self.theorem = theorem
        self.reason = reason
        shown = "<missing>" if value is _MISSING else _show(value)
        msg = f"{param}={shown} is outside the allowed domain: {domain}"
        if theorem:
            msg += f" [{theorem}]"
        if reason:
            msg += f" ({reason})"
        super().__init__(msg)


class RefutedConstantWarning(UserWarning):
    """A bound whose validity rests on a constant that proofs_check refutes is being used (the entry's ``caveat``)."""


class _Missing:
    def __repr__(self) -> str:  # pragma: no cover - cosmetic
        return "<missing>"


_MISSING = _Missing()
MISSING = _MISSING


def _show(value: Any) -> str:
    """The value as shown in an error message: at most 80 characters, built in time bounded by that length (a
    10**5000 must not hit Python's 4300-digit int-to-str limit, nor a 1e-99999 take seconds, while the message
    that rejects it is built)."""
    if isinstance(value, (int, Fraction)) and not isinstance(value, bool):
        q = Fraction(value)
        if max(q.numerator.bit_length(), q.denominator.bit_length()) > 256:
            k = _log10_abs(q)
            return f"a number of about {'-' if q < 0 else ''}1e{k:+d} ({q.numerator.bit_length()}-bit numerator, " \
                   f"{q.denominator.bit_length()}-bit denominator)"
    if isinstance(value, Fraction):
        s = fraction_to_decimal_str(value) if _is_terminating(value) else f"{value.numerator}/{value.denominator}"
    else:
        try:
            s = repr(value)
        except (ValueError, OverflowError, MemoryError):  # a foreign object too large to print
            s = f"<{type(value).__name__}>"
    return s if len(s) <= 80 else s[:77] + "..."


def _log10_abs(q: Fraction) -> int:
    """floor(log10 |q|) up to one, for any nonzero rational (math.log10 of a huge int is exact enough and fast)."""
    if q == 0:
        return 0
    return math.floor(math.log10(abs(q.numerator)) - math.log10(q.denominator))


def _is_terminating(q: Fraction) -> bool:
    d = q.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return d == 1


def int_to_decimal_str(n: int) -> str:
    """str(n) for a nonnegative int of any size, without Python's 4300-digit int-to-str limit (which is global
    state: it is split in halves here instead of raised)."""
    if n < 10**4000:
        return str(n)
    half = max(2000, (int(n.bit_length() * 0.30103) + 1) // 2)
    hi, lo = divmod(n, 10**half)
    return int_to_decimal_str(hi) + int_to_decimal_str(lo).rjust(half, "0")


def fraction_to_decimal_str(q: Fraction) -> str:
    """Exact decimal string of a terminating rational (e.g. 1/8 -> '0.125'); 'p/q' otherwise.

    Linear in the size of ``q``: the number of decimals is read off the powers of 2 and 5 in the denominator
    (one multiplication), not found by scaling by 10 until the denominator divides out (quadratic)."""
    if not _is_terminating(q):
        return f"{q.numerator}/{q.denominator}"
    if q.denominator == 1:
        return str(q.numerator)
    sign = "-" if q < 0 else ""
    d = q.denominator
    twos = (d & -d).bit_length() - 1
    fives = 0
    rest = d >> twos
    step = 1
    while rest > 1:  # strip powers of 5 by repeated squaring-sized chunks: O(log) big divisions
        p = 5 ** step
        if rest % p == 0:
            rest //= p
            fives += step
            step *= 2
        elif step > 1:
            step //= 2
        else:
            break
    k = max(twos, fives)
    scaled = abs(q.numerator) * (10 ** k // d)
    digits = int_to_decimal_str(scaled).rjust(k + 1, "0")
    s = (digits[:-k] + "." + digits[-k:]).rstrip("0").rstrip(".")
    return sign + s


# ----------------------------------------------------------------------------------------------
# Exact parsing of user values (never sympify/eval a user string)
# ----------------------------------------------------------------------------------------------

_ALLOWED_NUM_CHARS = set("0123456789+-.eE/ ")

#: Size limits on every user number (strings, Decimals, ints, Fractions, numpy scalars).  |decimal exponent| <=
#: MAX_EXPONENT reaches 690 orders of magnitude beyond float64's range (1e-308 .. 1e308), so every meaningful
#: privacy parameter fits, underflow tests included (1e-400); a bigger exponent only makes exact rationals so
#: large that domain checks, sums and decimal rendering take minutes (``1e-99999``: 90 s) or forever
#: (``Decimal("1e999999999")``).  A literal has at most MAX_LITERAL_CHARS characters; the exact rational's
#: numerator and denominator have at most MAX_RATIONAL_BITS bits each (10**1400 fits: a 400-digit mantissa at
#: exponent -1000).
MAX_EXPONENT = 1000
MAX_LITERAL_CHARS = 400
MAX_RATIONAL_BITS = 5000

_NUMBER_DOMAIN = "a finite real number written as a decimal literal or p/q"


def _sized(name: str, value: Any, q: Fraction, theorem: str) -> Fraction:
    if q.numerator.bit_length() > MAX_RATIONAL_BITS or q.denominator.bit_length() > MAX_RATIONAL_BITS:
        raise DomainError(name, value, f"a number of magnitude 1e-{MAX_EXPONENT} .. 1e{MAX_EXPONENT} whose exact "
                          f"numerator and denominator have at most {MAX_RATIONAL_BITS} bits", theorem,
                          "number too large to handle exactly")
    return q


#: what the API accepts as an exact number: int, Fraction, Decimal, float (its exact binary value) or a string holding
#: a decimal literal or a ratio of integers (see :func:`parse_exact`)
Exact = int | float | str | Fraction | Decimal


def parse_exact(name: str, value: Any, theorem: str = "") -> Fraction:
    """Return ``value`` as an exact rational, or raise :class:`DomainError`.

    Accepts int, Fraction, Decimal, float (its exact binary value), 0-d numpy arrays and numpy scalars of those
    kinds, and strings holding a decimal literal ('0.1', '1e-300', '-3') or a ratio of integers ('1/3').  NaN and
    infinities are rejected, and so are numbers beyond the size limits above (MAX_EXPONENT, MAX_LITERAL_CHARS,
    MAX_RATIONAL_BITS): checked before any large integer is built, so every input is parsed in bounded time.
    Strings are parsed by hand, never by ``eval`` or ``sympify``.  A wrong type (bytes, complex, a list, an array
    of several values) raises :class:`TypeError`.
    """
    if isinstance(value, bool):
        raise TypeError(f"{name}: expected a real number, got a bool (booleans are not numbers)"
                        + (f" [{theorem}]" if theorem else ""))
    if isinstance(value, Fraction):
        return _sized(name, value, value, theorem)
    if isinstance(value, int):
        return _sized(name, value, Fraction(value), theorem)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise DomainError(name, value, "a finite real number", theorem)
        return Fraction(value)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise DomainError(name, value, "a finite real number", theorem)
        t = value.as_tuple()
        if len(t.digits) > MAX_LITERAL_CHARS or abs(value.adjusted()) > MAX_EXPONENT:
            raise DomainError(name, value, f"a number of at most {MAX_LITERAL_CHARS} digits with |decimal "
                              f"exponent| <= {MAX_EXPONENT}", theorem, "number too large to handle exactly")
        return _sized(name, value, Fraction(value), theorem)
    if isinstance(value, sp.Rational):
        return _sized(name, value, Fraction(int(value.p), int(value.q)), theorem)
    if hasattr(value, "dtype") and hasattr(value, "shape"):  # numpy scalar or array
        return _parse_numpy(name, value, theorem)
    if isinstance(value, str):
        s = value.strip()
        if not s or len(s) > MAX_LITERAL_CHARS or not set(s) <= _ALLOWED_NUM_CHARS:
            raise DomainError(name, value, _NUMBER_DOMAIN, theorem,
                              "malformed number" if len(s) <= MAX_LITERAL_CHARS else
                              f"longer than {MAX_LITERAL_CHARS} characters")
        try:
            if "/" in s:
                num, den = s.split("/", 1)
                q = _decimal_literal(num.strip()) / _decimal_literal(den.strip())
            else:
                q = _decimal_literal(s)
        except _ExponentTooLarge:
            raise DomainError(name, value, f"{_NUMBER_DOMAIN}, with |decimal exponent| <= {MAX_EXPONENT}", theorem,
                              "exponent too large to handle exactly") from None
        except (ValueError, ZeroDivisionError):
            raise DomainError(name, value, _NUMBER_DOMAIN, theorem, "malformed number") from None
        return _sized(name, value, q, theorem)
    raise TypeError(f"{name}: expected a real number (int, float, Fraction, Decimal or a decimal string), "
                    f"got {type(value).__name__}" + (f" [{theorem}]" if theorem else ""))


def _parse_numpy(name: str, value: Any, theorem: str) -> Fraction:
    """A numpy scalar or 0-d array of a real kind, exactly (np.longdouble included); TypeError otherwise."""
    import numpy as np  # numpy is a dependency of the reference layer; spec itself only needs it here

    arr = np.asarray(value)
    if arr.ndim != 0:
        raise TypeError(f"{name}: expected a scalar, got an array of shape {arr.shape}"
                        + (f" [{theorem}]" if theorem else ""))
    kind = arr.dtype.kind
    if kind == "b":
        raise TypeError(f"{name}: expected a real number, got a numpy bool (booleans are not numbers)"
                        + (f" [{theorem}]" if theorem else ""))
    if kind in "iu":
        return parse_exact(name, int(arr), theorem)
    if kind == "f":
        x = arr[()]
        if not np.isfinite(x):
            raise DomainError(name, float(x), "a finite real number", theorem)
        if arr.dtype.itemsize <= 8:
            return Fraction(float(x))
        # longdouble: exact through its integer ratio (its .item() is the same object type, recursing forever)
        num, den = x.as_integer_ratio()  # type: ignore[attr-defined]  # a numpy longdouble scalar
        return _sized(name, value, Fraction(int(num), int(den)), theorem)
    raise TypeError(f"{name}: expected a real number, got numpy dtype {arr.dtype}"
                    + (f" [{theorem}]" if theorem else ""))


class _ExponentTooLarge(ValueError):
    pass


def _decimal_literal(s: str) -> Fraction:
    """Parse [sign] digits [. digits] [(e|E) [sign] digits] exactly; ValueError otherwise (no regex, no eval).

    ``s`` holds only the characters of _ALLOWED_NUM_CHARS (ASCII), so ``str.isdigit`` means 0-9 here.  The size
    of the result is checked (MAX_EXPONENT) before any power of ten is built."""
    mant, _, exp_s = s.replace("E", "e").partition("e")
    sign = 1
    if mant[:1] in ("+", "-"):
        sign = -1 if mant[0] == "-" else 1
        mant = mant[1:]
    int_digits, _, frac_digits = mant.partition(".")
    if (int_digits and not int_digits.isdigit()) or (frac_digits and not frac_digits.isdigit()):
        raise ValueError("malformed mantissa")
    if not int_digits and not frac_digits:
        raise ValueError("no digits")
    exp = 0
    if "e" in s or "E" in s:
        es = exp_s[1:] if exp_s[:1] in ("+", "-") else exp_s
        if not es or not es.isdigit():
            raise ValueError("bad exponent")
        exp = (-1 if exp_s[:1] == "-" else 1) * (int(es) if len(es.lstrip("0")) <= 9 else 10**9)
    digits_int = int_digits.lstrip("0")
    if digits_int:  # the exponent of the leading digit, checked before 10**exp is built
        lead = exp + len(digits_int) - 1
    elif frac_digits.strip("0"):
        lead = exp - (len(frac_digits) - len(frac_digits.lstrip("0"))) - 1
    else:
        lead = exp
    if abs(lead) > MAX_EXPONENT:
        raise _ExponentTooLarge(s)
    mant_i = int((int_digits or "0") + frac_digits)
    exp -= len(frac_digits)
    q = Fraction(mant_i * 10**exp) if exp >= 0 else Fraction(mant_i, 10**(-exp))
    return sign * q


# ----------------------------------------------------------------------------------------------
# Canonical symbols
# ----------------------------------------------------------------------------------------------

#: canonical parameter names -> (sympy assumptions, description).  Used identically in spec,
#: reference, CLI and golden vectors.
CANONICAL: dict[str, tuple[dict[str, bool], str]] = {
    "eps_g": ({"positive": True}, "global privacy budget epsilon"),
    "delta_g": ({"positive": True}, "global privacy budget delta"),
    "eps": ({"nonnegative": True}, "a per-round epsilon (realized, adaptively chosen)"),
    "delta": ({"nonnegative": True}, "a per-round delta, or the delta of a conversion"),
    "delta_prime": ({"positive": True}, "WRRW23's delta' (the concentration part of the budget)"),
    "delta_dprime": ({"nonnegative": True}, "WRRW23's delta'' (the part spent on per-round deltas)"),
    "dhat": ({"positive": True}, "delta-hat of advanced composition"),
    "n": ({"positive": True, "integer": True}, "dataset size"),
    "x": ({"positive": True}, "RRUV16 Lemma 6.4 / Thm 4.4 tuning parameter"),
    "gamma": ({"positive": True}, "normal-mixture tuning parameter (also the granularity of RRUV16 Thm 6.5)"),
    "v0": ({"positive": True}, "stitching start (intrinsic time where the boundary becomes finite)"),
    "alpha": ({"positive": True}, "Renyi order (alpha > 1), or a confidence level where stated"),
    "rho": ({"nonnegative": True}, "zCDP parameter"),
    "B": ({"nonnegative": True}, "a zCDP/RDP budget"),
    "k": ({"positive": True, "integer": True}, "number of rounds"),
    "eta": ({"positive": True}, "stitching geometric spacing (eta > 1)"),
    "s": ({"positive": True}, "stitching shape (s > 1), or a deviation multiplier where stated"),
    "beta": ({"positive": True}, "tuning / failure parameter"),
    "c": ({"positive": True}, "a scale (lower end of the variance range)"),
    "t": ({"positive": True}, "a ratio (t >= 1)"),
    "a": ({"positive": True}, "linear boundary intercept"),
    "b": ({"positive": True}, "linear boundary slope"),
    "l": ({"nonnegative": True, "integer": True}, "a count of 'bad' outcomes of randomized response"),
    "sigma": ({"positive": True}, "noise scale"),
    "Delta": ({"positive": True}, "odometer discretization (FZ21 Algorithm 5)"),
    "norm": ({"nonnegative": True}, "||phi(X_i)||, a per-individual norm"),
    "lam": ({"real": True}, "a free real parameter of an exponential moment"),
    "u": ({"positive": True}, "a boundary value (the unknown of a boundary's defining equation)"),
    "m": ({"nonnegative": True, "integer": True}, "completed filter restarts (FZ21 Algorithm 5)"),
    "eps2": ({"nonnegative": True}, "the second distinct per-round epsilon of a heterogeneous sequence"),
    "k2": ({"nonnegative": True, "integer": True}, "the number of rounds with the second epsilon"),
    "l2": ({"nonnegative": True, "integer": True}, "a count of 'bad' outcomes among the rounds with the second epsilon"),
    "q": ({"positive": True}, "sampling rate of Poisson subsampling (0 < q <= 1)"),
}


#: a generic in-domain point used by the registry tests and the docs (entries override it with ``example``)
DEFAULT_SAMPLE: dict[str, str] = {
    "eps_g": "1", "delta_g": "0.000001", "eps": "0.1", "delta": "0.000001", "delta_prime": "0.000001",
    "delta_dprime": "0.000001", "dhat": "0.000001", "n": "1000", "x": "0.01", "gamma": "0.01", "v0": "0.01",
    "alpha": "2", "rho": "0.1", "B": "0.5", "k": "10", "eta": "2", "s": "1.4", "beta": "0.01", "c": "1",
    "t": "2", "a": "1", "b": "1", "u": "5", "m": "3", "l": "3", "sigma": "1", "Delta": "0.5", "norm": "1", "lam": "0.5",
    "V": "0.5", "S": "2", "D": "0.0000001", "A": "0.3", "KOV": "0.25", "LIFT": "0.0000001", "LIFTC": "0.0000001", "V2": "2",
    "A2": "1.2", "S2": "4", "R": "0.4", "q": "0.01",
}

_SYMBOL_CACHE: dict[str, sp.Symbol] = {}


def sym(name: str) -> sp.Symbol:
    """The canonical sympy symbol for a parameter or aggregate name."""
    if name in _SYMBOL_CACHE:
        return _SYMBOL_CACHE[name]
    # Only real (and integer) assumptions: a positivity assumption would make sympy fold a domain relation
    # such as ``eps_g > 0`` to True at construction, and the domain check would silently vanish.  The
    # natural sign assumptions live in CANONICAL and are applied by :func:`assumed` where a proof needs them.
    integer = bool(CANONICAL.get(name, ({}, ""))[0].get("integer"))
    s = sp.Symbol(name, real=True, integer=True) if integer else sp.Symbol(name, real=True)
    _SYMBOL_CACHE[name] = s
    return s


def assumed(expr: sp.Basic) -> sp.Basic:
    """``expr`` with each canonical symbol replaced by one carrying its natural sign assumptions.

    For symbolic work in proofs_check (e.g. ``sqrt(eps_g**2) -> eps_g``); never for domain checking.
    """
    reps = {}
    for s in expr.free_symbols:
        assumptions = dict(CANONICAL.get(s.name, ({"nonnegative": True}, ""))[0])
        reps[s] = sp.Symbol(s.name, real=True, **assumptions)
    return expr.xreplace(reps)


def finite_branch(expr: sp.Expr) -> sp.Expr:
    """The finite branch of an odometer written Piecewise((oo, invalid), (value, True)) (``expr`` otherwise)."""
    if isinstance(expr, sp.Piecewise):
        for val, cond in expr.args:
            if val is not sp.oo:
                return val
    return expr


# ----------------------------------------------------------------------------------------------
# Entries
# ----------------------------------------------------------------------------------------------


class Kind(str, enum.Enum):
    """What a registry entry states: a filter, an odometer, a conversion, a boundary, a lemma, ..."""

    FILTER = "filter"              # a stopping rule: HALT iff ``halt`` holds for the aggregates after the next round
    ODOMETER = "odometer"          # a running high-probability bound on the privacy loss
    CONVERSION = "conversion"      # a map between privacy notions (e.g. zCDP -> (eps, delta)-DP)
    BOUNDARY = "boundary"          # a (time-uniform) concentration boundary
    LEMMA = "lemma"                # an inequality or identity used by a proof
    LOWER_BOUND = "lower_bound"    # an impossibility / lower bound statement
    COMPOSITION = "composition"    # a composition theorem for fixed parameters
    AGGREGATE = "aggregate"        # a per-round sum (V, A, ...)


#: the seed files, by source key
SEEDS = {
    "rruv16": "000_6d22f6a3880a066d.txt",
    "rruv16.stripped": "002_ecc3f503dc6836cc.txt",
    "nikolov17": "001_67d4c89f55229a83.txt",
    "wrrw23": "003_8948d815f0b87bba.txt",
    "fz21": "004_8eb651b0fc92abd6.txt",
}


#: the id prefixes that name a family of results rather than one source: every other id starts with its source's
#: paper key in lower case (``rruv16.thm5_1`` is RRUV16's), so a bound from a new paper needs no list updated
FAMILIES = ("aggregate", "conversions", "mechanisms", "composition", "tradeoff",
            "howard")  # Howard et al.'s uniform boundaries (HRMS20 / HRMS21)


#: the kinds of numbered statement a theorem locator may name (first match in ``Source.where``)
_LOCATOR = re.compile(r"\b(?:Informal Theorem|Theorem|Lemma|Proposition|Corollary|Fact|Remark|Example|Definition|"
                      r"Algorithm|Section|Appendix|footnote)\s+(?:[A-Z]?\d+(?:\.\d+)*|[A-Z]\b)")
_EQUATION = re.compile(r"\beqs?\.\s*\(\d+\)(?:\s*-\s*\(\d+\))?")


@dataclass(frozen=True)
class Source:
    """Where a result is stated: a paper (key into :data:`dpbounds.spec.papers.PAPERS`), the location in it and,
    for results read from a seed text, the seed file as a secondary locator.

    ``theorem`` and ``equation`` are the structured locator; when not given they are read off ``where`` (its first
    "Theorem 6.5" / "Lemma 3.3" / ... and its "eq. (12)").  ``str(source)`` is the full citation
    (:func:`dpbounds.spec.papers.render_citation`); :meth:`short` is the compact "RRUV16 Theorem 5.1, eq. (6)".
    """

    paper: str       # e.g. "RRUV16"
    where: str       # e.g. "Theorem 5.1, eq. (6)"
    seed: str = ""   # seed file name in shared/seeds, or "" for a result from the literature
    theorem: str = ""
    equation: str = ""

    def __post_init__(self) -> None:
        from .papers import paper
        paper(self.paper)  # an unknown key fails at import time, not when rendering
        if not self.theorem:
            m = _LOCATOR.search(self.where)
            object.__setattr__(self, "theorem", m.group(0) if m else "")
        if not self.equation:
            m = _EQUATION.search(self.where)
            object.__setattr__(self, "equation", m.group(0) if m else "")

    @property
    def record(self) -> Paper:
        """The cited paper's record (:class:`dpbounds.spec.papers.Paper`)."""
        from .papers import paper
        return paper(self.paper)

    @property
    def citation(self) -> str:
        """The paper's full reference (authors, title, venue, year, arXiv id and version)."""
        return self.record.citation()

    def short(self) -> str:
        """'RRUV16 Theorem 5.1, eq. (6)': paper key and location."""
        return f"{self.paper} {self.where}"

    def __str__(self) -> str:
        from .papers import render_citation
        return render_citation(self.paper, self.where, self.seed)


@dataclass(frozen=True)
class Optimize:
    """The entry's value is ``inf`` (or ``sup``) of its expression over a free variable in (lo, hi)."""

    mode: str        # "inf" or "sup"
    var: str         # name of the variable optimized over (a symbol of the expression)
    lo: sp.Expr
    hi: sp.Expr
    lo_open: bool = True
    hi_open: bool = True


@dataclass(frozen=True)
class SpecEntry:
    """One bound, written once.

    ``expr`` is the entry's value (the odometer value, the filter statistic, the conversion's output, the
    boundary, or the right-hand side of a lemma).  Per-round sequences enter only through the named
    aggregates in ``aggregates`` (see :mod:`spec.aggregates`).  For a filter, ``halt`` is a sympy boolean in the
    parameters and aggregates *after including the candidate round*: the round must not run when it holds.
    For a lemma, ``lhs`` is set and the claim is ``lhs <= expr`` (or ``relation``) on the domain.
    """

    id: str
    title: str
    kind: Kind
    source: Source
    params: tuple[str, ...]
    expr: sp.Expr
    domain: tuple[sp.Basic, ...] = ()
    aggregates: tuple[str, ...] = ()
    halt: sp.Basic | None = None
    lhs: sp.Expr | None = None
    relation: str = "<="
    optimize: Optimize | None = None
    extra: Mapping[str, sp.Expr] = field(default_factory=dict)
    monotone: Mapping[str, int] = field(default_factory=dict)  # +1 non-decreasing, -1 non-increasing
    per_round_domain: tuple[sp.Basic, ...] = ()
    reconstructed: bool = False
    proof_claims: tuple[str, ...] = ()
    notes: str = ""
    same_as: tuple[str, ...] = ()  # ids of other sources' statements of the same result
    example: Mapping[str, str] = field(default_factory=dict)  # an in-domain point (overrides DEFAULT_SAMPLE)
    caveat: str = ""  # why the entry is not trustworthy as stated (a refuted constant); warned on every use
    # "module:function" in dpbounds of an opaque certified evaluator (params: dict[str, Fraction], rel_tol) ->
    # Enclosure, for an entry whose expression no arb program evaluates (a k-fold hockey-stick divergence); it is
    # the only evaluator of such an entry (no float fast path, no mpmath value) -- see dpbounds.evaluation.evaluate
    evaluator: str = ""
    # word-valued parameters, passed to the evaluator as the word: name -> the allowed words, the first the default
    # when the parameter is not given (composition.sgm.*'s relation and sampling)
    options: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # required free-text parameters: name -> a checker (str -> its canonical form, DomainError on bad input; never
    # eval/sympify), passed to the evaluator as the canonical string (composition.sgm.schedule.*'s phases)
    text_params: Mapping[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        aggs = f"; aggregates {', '.join(self.aggregates)}" if self.aggregates else ""
        return (f"<SpecEntry {self.id} ({self.kind.value}): params {', '.join(self.params) or '-'}{aggs}; "
                f"{self.source.paper} {self.source.where}>")

    def sample_point(self) -> dict[str, str]:
        """An in-domain point: DEFAULT_SAMPLE overridden by ``example``, restricted to params and aggregates."""
        names = set(self.params) | set(self.aggregates)
        if self.optimize is not None:
            names.add(self.optimize.var)
        pt = {k: v for k, v in DEFAULT_SAMPLE.items() if k in names}
        pt.update({k: v for k, v in self.example.items()})
        return pt

    # ------------------------------------------------------------------ helpers
    @property
    def symbols(self) -> tuple[sp.Symbol, ...]:
        return tuple(sym(p) for p in self.params) + tuple(sym(a) for a in self.aggregates)

    @property
    def theorem(self) -> str:
        return f"{self.id}: {self.source.short()}"

    def all_exprs(self) -> dict[str, sp.Basic]:
        out: dict[str, sp.Basic] = {"expr": self.expr}
        if self.lhs is not None:
            out["lhs"] = self.lhs
        if self.halt is not None:
            out["halt"] = self.halt
        for k, v in self.extra.items():
            out[f"extra.{k}"] = v
        return out

    def check_values(self, values: Mapping[str, Any], *, allow_extra: bool = False,
                     need: Iterable[str] | None = None) -> dict[str, Fraction]:
        """Parse and validate parameter values; return them as exact rationals.

        Raises :class:`DomainError` for an unknown, missing, malformed or out-of-domain parameter.  The
        domain relations are decided exactly (sympy on rationals), never in floating point.
        """
        if self.caveat:  # every use of an entry goes through here: evaluation, filters, odometers
            warnings.warn(f"{self.id}: {self.caveat}", RefutedConstantWarning, stacklevel=2)
        names = set(self.params) | set(self.aggregates)
        if self.optimize is not None:
            names.discard(self.optimize.var)
        words = _text_values(self, values)
        values = {k: v for k, v in values.items() if k not in words}
        for key in values:
            if key not in names and not allow_extra:
                raise DomainError(key, values[key], f"one of the parameters {sorted(names)}", self.theorem,
                                  "unknown parameter")
        required = set(need) if need is not None else set(self.params) - (
            {self.optimize.var} if self.optimize is not None else set())
        out: dict[str, Fraction] = {}
        for key in sorted(required):
            if key not in values:
                raise DomainError(key, _MISSING, "a value is required", self.theorem, "missing parameter")
        for key, v in values.items():
            if key in names:
                out[key] = parse_exact(key, v, self.theorem)
        check_domain(self.domain, out, self.theorem)
        check_sum_sizes(self, out)
        out.update(words)  # type: ignore[arg-type]  # word and text parameters stay strings
        return out


#: the longest free-text parameter accepted (a schedule of a few thousand phases)
MAX_TEXT_CHARS = 100_000


def _text_values(entry: "SpecEntry", values: Mapping[str, Any]) -> dict[str, str]:
    """The entry's word and text parameters that are given, checked (an option not given is left out: the evaluator
    takes its default, the first word; a missing text parameter is an error)."""
    out: dict[str, str] = {}
    for name, words in entry.options.items():
        if name not in values:
            continue            # the evaluator takes the default (the first word)
        v = values[name]
        if not isinstance(v, str) or v.strip() not in words:
            raise DomainError(name, v, "one of " + ", ".join(repr(w) for w in words), entry.theorem)
        out[name] = v.strip()
    for name, checker in entry.text_params.items():
        if name not in values:
            raise DomainError(name, _MISSING, "a value is required", entry.theorem, "missing parameter")
        v = values[name]
        if not isinstance(v, str) or len(v) > MAX_TEXT_CHARS:
            raise DomainError(name, v if isinstance(v, str) else type(v).__name__,
                              f"a string of at most {MAX_TEXT_CHARS} characters", entry.theorem)
        out[name] = checker(v)
    return out


#: The exact evaluators expand a finite sum term by term (KOV15's sum over l = 0..k): at most this many terms, so
#: a short input such as ``k=1000000000`` is refused at once instead of running for hours (50,000 terms: ~5 s).
#: A limit of the implementation, not of the theorem.
MAX_SUM_TERMS = 50_000

_SUM_LIMITS: dict[str, tuple[tuple[str, sp.Expr, sp.Expr], ...]] = {}


def sum_limits(entry: "SpecEntry") -> tuple[tuple[str, sp.Expr, sp.Expr], ...]:
    """(index, lower, upper) of every finite ``Sum`` in the entry's expressions (cached by id)."""
    lim = _SUM_LIMITS.get(entry.id)
    if lim is None:
        found: list[tuple[str, sp.Expr, sp.Expr]] = []
        for e in entry.all_exprs().values():
            for s in e.atoms(sp.Sum):
                found.extend((str(v), lo, hi) for v, lo, hi in s.limits)
        lim = _SUM_LIMITS[entry.id] = tuple(found)
    return lim


def check_sum_sizes(entry: "SpecEntry", values: Mapping[str, Fraction]) -> None:
    """Raise :class:`DomainError` if a finite sum of the entry would have more than MAX_SUM_TERMS terms."""
    for var, lo, hi in sum_limits(entry):
        free = sorted(str(x) for x in (lo.free_symbols | hi.free_symbols))
        if not free or not set(free) <= set(values):
            continue
        subs = {sym(k): sp.Rational(values[k].numerator, values[k].denominator) for k in free}
        count = (hi - lo + 1).xreplace(subs)
        if count.is_number and count > MAX_SUM_TERMS:
            name = free[0]
            raise DomainError(name, values[name], f"a sum over {var} of at most {MAX_SUM_TERMS} terms "
                              f"({sp.sstr(hi)} - {sp.sstr(lo)} + 1 <= {MAX_SUM_TERMS})", entry.theorem,
                              "a limit of the exact evaluator, not of the theorem")


def check_domain(domain: Iterable[sp.Basic], values: Mapping[str, Fraction], theorem: str) -> None:
    """Raise :class:`DomainError` if a domain relation is false at ``values`` (decided exactly)."""
    subs = {sym(k): sp.Rational(v.numerator, v.denominator) for k, v in values.items()}
    for rel in domain:
        free = sorted(str(s) for s in rel.free_symbols)
        if not set(free) <= set(values):
            continue  # involves a symbol not given here (e.g. an aggregate checked elsewhere)
        truth = rel.subs(subs)
        if truth is sp.true or truth == True:  # noqa: E712 - sympy booleans
            continue
        if truth is sp.false or truth == False:  # noqa: E712
            bad = free[0] if free else "?"
            for name in free:  # name the first parameter that appears alone on one side, if any
                if sym(name) in (getattr(rel, "lhs", None), getattr(rel, "rhs", None)):
                    bad = name
                    break
            raise DomainError(bad, values.get(bad), render_relation(rel), theorem)
        raise DomainError(free[0] if free else "?", values.get(free[0]) if free else None, render_relation(rel),
                          theorem, "could not decide the domain condition exactly")


def render_relation(rel: sp.Basic) -> str:
    """A plain-text rendering of a domain relation, e.g. 'delta_g < exp(-1)'."""
    return str(sp.sstr(rel))


# ----------------------------------------------------------------------------------------------
# Registry
# ----------------------------------------------------------------------------------------------

_REGISTRY: dict[str, SpecEntry] = {}


def register(entry: SpecEntry) -> SpecEntry:
    """Add an entry to the registry (ids are unique)."""
    if entry.id in _REGISTRY:
        raise ValueError(f"duplicate spec id {entry.id!r}")
    for p in entry.params + entry.aggregates:
        sym(p)
    _REGISTRY[entry.id] = entry
    return entry


def registry() -> dict[str, SpecEntry]:
    """All entries, by id, in registration order (the package imports every source module, in a fixed order)."""
    return dict(_REGISTRY)


def get(entry_id: str) -> SpecEntry:
    """The entry with this id, or a :class:`DomainError` listing the known ids."""
    reg = registry()
    if not isinstance(entry_id, str):
        raise TypeError(f"entry_id: expected a spec id (str), got {type(entry_id).__name__}")
    if entry_id not in reg:
        import difflib
        near = difflib.get_close_matches(entry_id, list(reg), n=3, cutoff=0.6) if isinstance(entry_id, str) else []
        hint = f"did you mean {', '.join(near)}?" if near else "unknown id"
        raise DomainError("id", entry_id, "a registered spec id (see `dpbounds spec --list`)", "spec registry",
                          hint)
    return reg[entry_id]


def select(kind: "Kind | str | None" = None, source: str | None = None) -> list[SpecEntry]:
    """The entries of one kind and/or one source (paper key such as ``"RRUV16"`` or id prefix such as
    ``"rruv16"``), in registration order."""
    if kind is not None and not isinstance(kind, (Kind, str)):
        raise TypeError(f"kind: expected a Kind or its name, got {type(kind).__name__}")
    if source is not None and not isinstance(source, str):
        raise TypeError(f"source: expected a paper key or id prefix (str), got {type(source).__name__}")
    try:
        kind_v = Kind(kind) if kind is not None else None
    except ValueError:
        raise DomainError("kind", kind, f"one of {', '.join(k.value for k in Kind)}", "spec registry") from None
    out = []
    for e in registry().values():
        if kind_v is not None and e.kind is not kind_v:
            continue
        if source is not None and source.lower() not in (e.source.paper.lower(), e.id.split(".")[0]):
            continue
        out.append(e)
    return out
