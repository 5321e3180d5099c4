"""CrossHair targets (assert-style contracts) on the pure helpers and the input validators.

Run: crosshair check --analysis_kind=asserts tests/contracts/crosshair_targets.py --per_condition_timeout 4
Each function's leading asserts are preconditions; the trailing asserts are the contract CrossHair tries to
break with symbolic inputs.
"""

from __future__ import annotations

from fractions import Fraction

from dpbounds.evaluation.numeric import float_down, float_up
from dpbounds.spec.core import DomainError, fraction_to_decimal_str, parse_exact


def float_up_is_above(p: int, q: int) -> None:
    assert q > 0
    assert -10**30 < p < 10**30 and q < 10**30
    x = Fraction(p, q)
    f = float_up(x)
    assert Fraction(f) >= x


def float_down_is_below(p: int, q: int) -> None:
    assert q > 0
    assert -10**30 < p < 10**30 and q < 10**30
    x = Fraction(p, q)
    f = float_down(x)
    assert Fraction(f) <= x


def parse_exact_float_is_exact(x: float) -> None:
    try:
        q = parse_exact("eps", x)
    except DomainError:
        assert x != x or x in (float("inf"), float("-inf"))
        return
    assert Fraction(x) == q


def parse_exact_string_raises_only_domain_error(s: str) -> None:
    assert len(s) <= 12
    try:
        q = parse_exact("eps", s)
    except DomainError:
        return
    assert isinstance(q, Fraction)


def decimal_rendering_round_trips(p: int, k: int) -> None:
    assert 0 <= k <= 12 and -10**15 < p < 10**15
    q = Fraction(p, 10**k)
    assert parse_exact("x", fraction_to_decimal_str(q)) == q
