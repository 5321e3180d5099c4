"""Certified interval branch-and-bound over boxes, with arb balls.

``prove_positive(f, box)`` decides ``f(x) > 0`` (or ``>= 0`` with ``strict=False``) for *every* x in a box by
evaluating ``f`` on arb balls covering sub-boxes (interval extension: the ball result contains f's range over
the sub-box) and bisecting the widest side until every piece is decided.  A piece whose ball lies entirely on
the wrong side at a point is a counterexample; pieces still undecided after the budget make it inconclusive.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Sequence

from flint import arb

from dpbounds.evaluation.numeric import arb_prec, fraction_to_arb

Box = Sequence[tuple[Fraction, Fraction]]


def ball(lo: Fraction, hi: Fraction) -> arb:
    """An arb ball containing the closed interval [lo, hi]."""
    a, b = fraction_to_arb(Fraction(lo)), fraction_to_arb(Fraction(hi))
    return a.union(b)


@dataclass
class BnBResult:
    decided: bool            # every piece proved
    counterexample: tuple | None   # a point (Fractions) where f is certified on the wrong side
    pieces: int              # number of boxes evaluated
    undecided: list          # boxes left undecided (at most a few reported)
    min_lower: float | None  # the smallest certified lower end seen on decided pieces (a margin)

    def summary(self) -> str:
        if self.decided:
            return f"certified on all of the box with {self.pieces} sub-boxes (min lower end {self.min_lower:.6g})"
        if self.counterexample is not None:
            return f"counterexample at {tuple(str(c) for c in self.counterexample)}"
        return f"undecided after {self.pieces} sub-boxes; e.g. {self.undecided[:2]}"


def prove_positive(f: Callable[..., arb], box: Box, *, strict: bool = True, prec: int = 128,
                   max_pieces: int = 200000) -> BnBResult:
    """Decide f > 0 (strict) or f >= 0 on the whole box by certified branch and bound."""
    box = [(Fraction(lo), Fraction(hi)) for lo, hi in box]
    stack = [box]
    pieces = 0
    undecided: list = []
    min_lower = None
    with arb_prec(prec):
        while stack:
            b = stack.pop()
            pieces += 1
            val = f(*[ball(lo, hi) for lo, hi in b])
            ok = (val > 0) if strict else (val >= 0)
            if ok:
                lo_end = float(val.lower())
                min_lower = lo_end if min_lower is None else min(min_lower, lo_end)
                continue
            # test the midpoint for a counterexample
            mid = [(lo + hi) / 2 for lo, hi in b]
            vm = f(*[fraction_to_arb(m) for m in mid])
            bad = (vm <= 0) if strict else (vm < 0)
            if bad:
                return BnBResult(False, tuple(mid), pieces, [], min_lower)
            if pieces >= max_pieces:
                undecided.append(b)
                continue
            widths = [hi - lo for lo, hi in b]
            i = max(range(len(b)), key=lambda j: widths[j])
            lo, hi = b[i]
            m = (lo + hi) / 2
            left, right = list(b), list(b)
            left[i] = (lo, m)
            right[i] = (m, hi)
            stack.extend([left, right])
    return BnBResult(not undecided, None, pieces, undecided, min_lower)
