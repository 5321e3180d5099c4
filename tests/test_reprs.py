"""Readable reprs of the public result types: short, informative, and every shown interval still encloses the value."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import dpbounds
from dpbounds.util import show

_INTERVAL = re.compile(r"\[([-+0-9.E]+), ([-+0-9.E]+)\]")


def _shown_interval(text: str, k: int = 0) -> tuple[Fraction, Fraction]:
    lo, hi = _INTERVAL.findall(text)[k]
    return Fraction(Decimal(lo)), Fraction(Decimal(hi))


def _short(text: str) -> None:
    assert len(text) <= 300, text
    assert "\n" not in text
    # no run of more than 17 significant digits (no 80-digit Fraction), no Fraction(...) or object at 0x...
    assert not re.search(r"\d{19}", text), text
    assert "Fraction(" not in text and " at 0x" not in text, text


def test_show_number_is_exact_or_marked():
    assert show.number(Fraction(1, 8)) == "0.125"
    assert show.number(Fraction(1, 3)) == "~0.33333333333333333"
    assert show.number(Fraction(2, 3), rounding="ceiling") == "0.66666666666666667"
    assert show.number(Fraction(2, 3), rounding="floor") == "0.66666666666666666"
    assert show.number((Fraction(1, 3), Fraction(1, 3))) == "~0.33333333333333333"
    assert show.number(0.1) == "~0.10000000000000001"   # the float's exact binary value, not '0.1'
    assert show.number(0.5) == "0.5"
    assert show.rounds(1) == "1 round" and show.rounds(0) == "0 rounds"


def test_show_interval_rounds_outward():
    lo, hi = Fraction(1, 3), Fraction(2, 3)
    slo, shi = _shown_interval(show.interval(lo, hi))
    assert slo <= lo and hi <= shi and shi - slo < Fraction(1, 3) + Fraction(2, 10**17)
    assert show.interval(Fraction(1, 4), Fraction(1, 2)) == "[0.25, 0.5]"
    # negative ends round away from the interval's inside as well
    slo, shi = _shown_interval(show.interval(Fraction(-2, 3), Fraction(-1, 3)))
    assert slo <= Fraction(-2, 3) and Fraction(-1, 3) <= shi


def test_enclosure_repr_encloses():
    e = dpbounds.enclose("rruv16.thm5_1", {"eps_g": "1", "delta_g": "1e-6"}, eps=["0.1"] * 20)
    r = repr(e)
    _short(r)
    assert r.startswith("<Enclosure: exact value in [")
    slo, shi = _shown_interval(r)
    assert slo <= e.lo <= e.hi <= shi
    assert shi - slo <= Fraction(2, 10**15) * shi    # ~17 digits, not 3


def test_evaluation_repr_names_entry_params_and_enclosure():
    ev = dpbounds.evaluate("rruv16.thm5_1", {"eps_g": "1", "delta_g": "1e-6"}, eps=["0.1"] * 20, digits=60)
    r = repr(ev)
    _short(r)
    assert r.startswith("<Evaluation rruv16.thm5_1(eps_g=1, delta_g=0.000001")
    lo, hi = (Fraction(Decimal(x)) for x in ev.enclosure)
    slo, shi = _shown_interval(r, k=-1)               # the value's enclosure (an aggregate's may come first)
    assert slo <= lo <= hi <= shi
    assert "60 digits" in r


def test_bstar_repr_says_enclosure_and_lower_end():
    b = dpbounds.b_star("1", "1e-6", "cks20")
    r = repr(b)
    _short(r)
    assert "cks20" in r and "certified enclosure" in r and "lower end" in r
    slo, shi = _shown_interval(r)
    assert slo <= b.bracket[0] <= b.bracket[1] <= shi
    assert "not a valid general conversion" in repr(dpbounds.b_star("1", "1e-6", "gauss"))


def test_filter_repr_tracks_state():
    f = dpbounds.make_filter("wrrw23.thm2", eps_g="1", delta_prime="1e-6", delta_dprime="0")
    assert repr(f) == "<Filter wrrw23.thm2(eps_g=1, delta_prime=0.000001, delta_dprime=0): CONT after 0 rounds; V=0, D=0>"
    n = 0
    while f.try_spend(0.25):
        n += 1
    r = repr(f)
    _short(r)
    assert f"HALTED after {n} rounds" in r
    # 0.25 is exact in binary: V = n / 16 exactly, shown exactly
    assert f"V={show.number(Fraction(n, 16))}" in r and "~" not in r
    assert repr(dpbounds.Decision.CONT) == "Decision.CONT" and repr(dpbounds.Decision.HALT) == "Decision.HALT"


def test_odometer_repr_shows_certified_bound():
    o = dpbounds.make_odometer("wrrw23.thm3.mixture", gamma="0.01", delta_prime="1e-6", delta_dprime="1e-6")
    for e in (0.1, 0.2, 0.05):
        o.step(e)
    r = repr(o)
    _short(r)
    assert "wrrw23.thm3.mixture(gamma=0.01" in r and "after 3 rounds" in r
    enc = o.value()
    slo, shi = _shown_interval(r)
    assert slo <= enc.lo <= enc.hi <= shi


def test_renyi_and_multi_order_reprs():
    m = dpbounds.MultiOrderRenyiFilter({2: "1", 4: "2"})
    m.try_spend({2: "0.1", 4: "0.2"})
    assert repr(m) == "<MultiOrderRenyiFilter fz21.thm4_3(alpha=2: B=1, alpha=4: B=2): CONT after 1 round>"
    o = dpbounds.make_odometer("fz21.prop5_2", Delta="0.5")
    o.step("0.3")
    o.step("0.3")                                      # 0.6 > 0.5: one restart, O = 2 * 0.5
    assert repr(o) == "<RenyiOdometer fz21.prop5_2(Delta=0.5): bound = 1 after 2 rounds (1 restarts)>"


def test_individual_reprs_bound_from_above():
    f = dpbounds.IndividualFilter(5, 2, 1)
    f.step(np.full(5, 0.3))
    r = repr(f)
    _short(r)
    assert "n=5" in r and "1 round" in r
    shown = Fraction(Decimal(r.split("max spend <= ")[1].rstrip(">")))
    assert shown >= Fraction(0.3)                      # an upper bound of the float spend, not '~'
    o = dpbounds.IndividualOdometer(5, "0.5")
    o.step(np.full(5, 0.3))
    r = repr(o)
    _short(r)
    assert Fraction(Decimal(r.split("max bound <= ")[1].rstrip(">"))) >= Fraction(float(o.values().max()))


def test_spec_entry_repr_is_one_line():
    r = repr(dpbounds.get("rruv16.thm5_1"))
    assert r == "<SpecEntry rruv16.thm5_1 (filter): params eps_g, delta_g; aggregates A, V; RRUV16 Theorem 5.1, eq. (6)>"
    for entry in dpbounds.registry().values():
        _short(repr(entry))


@pytest.mark.parametrize("name", [n for n in dpbounds.__all__ if isinstance(getattr(dpbounds, n), type)])
def test_every_public_class_defines_its_repr(name):
    cls = getattr(dpbounds, name)
    if issubclass(cls, BaseException) or name == "Kind":
        return                                         # errors show their message; Kind is a str enum
    assert any("__repr__" in vars(c) for c in cls.__mro__ if c is not object), name
