"""Digits that are true (dpbounds.evaluation.digits): the rendering, the backed-digits rule and exactness."""

from __future__ import annotations

import decimal
import random
from fractions import Fraction

import mpmath
import pytest

from dpbounds import spec
from dpbounds.evaluation.digits import backed_decimal, backed_floor_digits, decimal_round, exact_value
from dpbounds.evaluation.evaluate import prepare


def _decimal_module(q: Fraction, digits: int, rounding: str) -> decimal.Decimal:
    mode = {"floor": decimal.ROUND_FLOOR, "ceiling": decimal.ROUND_CEILING, "nearest": decimal.ROUND_HALF_EVEN}
    with decimal.localcontext() as ctx:
        ctx.prec, ctx.rounding, ctx.Emax, ctx.Emin = digits, mode[rounding], 10**9, -10**9
        return decimal.Decimal(q.numerator) / decimal.Decimal(q.denominator)


Decimal = decimal.Decimal  # noqa: E305 - short name for the assertions


def test_decimal_round_equals_the_decimal_module_on_random_rationals():
    rng = random.Random(7)
    for _ in range(3000):
        q = Fraction(rng.randint(-10**rng.randint(1, 25), 10**rng.randint(1, 25)),
                     rng.randint(1, 10**rng.randint(1, 25))) * Fraction(10) ** rng.randint(-50, 50)
        if q == 0:
            continue
        for digits in (1, 3, 17, 40):
            for mode in ("floor", "ceiling", "nearest"):
                assert Decimal(decimal_round(q, digits, mode)) == _decimal_module(q, digits, mode), (q, digits, mode)


def test_decimal_round_of_an_end_near_the_enclosure_limit():
    q = Fraction(3, 2**1048576)
    ctx = mpmath.MPContext()
    ctx.prec = 200
    ref = ctx.nstr(ctx.mpf(3) / ctx.mpf(2) ** 1048576, 30, strip_zeros=False)
    got = decimal_round(q, 30, "nearest")
    assert got.split("E")[1] == "-315653" and abs(float(got.split("E")[0]) - float(ref.split("e")[0])) < 1e-25


def test_backed_decimal_is_the_rounding_of_every_point_of_the_enclosure():
    rng = random.Random(11)
    for _ in range(500):
        x = Fraction(rng.randint(1, 10**30), 10**rng.randint(0, 40))
        w = x * Fraction(rng.randint(1, 1000), 10**rng.randint(3, 35))
        lo, hi = x - w, x + w
        got = backed_decimal(lo, hi, 25)
        if got is None:
            continue
        value, d = got
        for t in (lo, hi, x, lo + (hi - lo) * Fraction(rng.randint(0, 100), 100)):
            assert Decimal(value) == _decimal_module(t, d, "nearest")


def test_an_enclosure_touching_zero_backs_no_digit_and_floor_digits_never_overstate():
    assert backed_decimal(Fraction(0), Fraction(1, 10**400), 10) is None
    assert backed_decimal(Fraction(-1, 10**400), Fraction(1, 10**400), 10) is None
    lo, hi = Fraction(123456789, 10**9), Fraction(123456791, 10**9)
    d = backed_floor_digits(lo, hi, 12)
    assert d == 7 and decimal_round(lo, d, "floor") == "0.1234567"  # 0.12345678 vs 0.12345679 at 8 digits


@pytest.mark.parametrize("entry_id, params, expected", [
    ("conversions.kov15.exact", {"eps_g": "1", "eps": "0.1", "k": "10"}, Fraction(0)),  # k eps = eps_g: RR^k
    ("conversions.kov15.exact", {"eps_g": "1", "eps": "0.1", "k": "3"}, Fraction(0)),   # eps_g > k eps
    ("rruv16.thm3_4.filter", {"eps_g": "1", "S": "0.3"}, Fraction(3, 10)),
    ("rruv16.thm5_1", {"eps_g": "1", "delta_g": "1e-6", "V": "0.1", "A": "0.01"}, None),  # transcendental
])
def test_exact_value_decides_what_the_spec_decides(entry_id, params, expected):
    e = spec.get(entry_id)
    inp = prepare(e, {k: v for k, v in params.items() if k in e.params},
                  aggregates={k: v for k, v in params.items() if k in e.aggregates})
    assert exact_value(e, inp.params, inp.aggregates) == expected
