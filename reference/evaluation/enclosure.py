"""The result types of the certified evaluators: :class:`Enclosure`, :class:`CertificationError`, and the named
expressions of a spec entry (:func:`entry_expr`).

They sit below both :mod:`dpbounds.evaluation.optimize` and :mod:`dpbounds.evaluation.evaluate` (which re-exports
them), so that evaluate -> optimize -> enclosure is a one-way chain of imports.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

from dpbounds.spec import DomainError
from dpbounds.spec.core import SpecEntry
from dpbounds.util import show

from dpbounds.evaluation.numeric import float_down, float_up


class CertificationError(ArithmeticError):
    """The certified evaluator could not reach the requested accuracy (the answer is withheld, not guessed)."""


#: ends below 2**-TINY_EXP in magnitude are rounded outward (evaluate's own clamp, evaluate._EXP_LIMIT, is the same)
TINY_EXP = 1 << 20


@dataclass(frozen=True)
class Enclosure:
    """[lo, hi] with exact rational ends containing the exact value, or exactly +oo (``pos_inf``)."""

    lo: Fraction | None   # None only when pos_inf
    hi: Fraction | None   # None only when pos_inf
    bits: int
    pos_inf: bool = False

    def __post_init__(self) -> None:
        # an end below 2**-TINY_EXP in magnitude is rounded outward to 0 or +-2**-TINY_EXP (about 1e-315653): the
        # enclosure stays sound, and rendering it costs one power of ten of 315653 digits, not one of 20 million
        # (an optimum's end near 2**-(2**26) took 37 s to print)
        for name, upper in (("lo", False), ("hi", True)):
            x = getattr(self, name)
            if x is not None and x != 0 and x.denominator.bit_length() - abs(x.numerator).bit_length() > TINY_EXP:
                tiny = Fraction(1, 1 << TINY_EXP)
                object.__setattr__(self, name, (tiny if upper else Fraction(0)) if x > 0 else
                                   (Fraction(0) if upper else -tiny))

    def upper(self) -> float:
        """The smallest float64 >= the exact value."""
        return math.inf if self.pos_inf else float_up(self.hi)

    def lower(self) -> float:
        """The largest float64 <= the exact value."""
        return math.inf if self.pos_inf else float_down(self.lo)

    def contains(self, q: Fraction) -> bool:
        """Whether the exact rational ``q`` lies in [lo, hi] (never for +oo)."""
        lo, hi = self.lo, self.hi
        return (not self.pos_inf) and lo is not None and hi is not None and lo <= q <= hi

    def rel_width(self) -> float:
        """(hi - lo) / max(|lo|, |hi|) (0 for +oo and for [0, 0])."""
        lo, hi = self.lo, self.hi
        if self.pos_inf or lo is None or hi is None:
            return 0.0
        m = max(abs(lo), abs(hi))
        return 0.0 if m == 0 else float((hi - lo) / m)

    def __repr__(self) -> str:
        return f"<Enclosure: exact value in {show.enclosure(self)} ({self.bits} bits)>"


def entry_expr(entry: SpecEntry, what: str) -> sp.Basic:
    """The expression named ``what``: 'expr', 'lhs', 'halt' or 'extra.<name>'."""
    if what == "expr":
        return entry.expr
    if what == "lhs" and entry.lhs is not None:
        return entry.lhs
    if what == "halt" and entry.halt is not None:
        return entry.halt
    if what.startswith("extra.") and what[6:] in entry.extra:
        return entry.extra[what[6:]]
    raise DomainError("what", what, f"one of {sorted(entry.all_exprs())}", entry.theorem, "unknown expression")
