"""dpbounds.evaluation.rdp_conversions.cks20_eps_enclosure: CKS20 Proposition 12 minimized over a list of orders
(dp_accounting's compute_epsilon, certified) against the formula typed here from THEOREMS.md and evaluated with
mpmath at 60 digits at the exact binary values of the inputs, never through the reference code.  Planted fault: the
same float program without its error bound is shown to miss the truth, so the containment assertions can fail."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest

from dpbounds.evaluation import rdp_conversions as rc
from dpbounds.spec import DomainError

MP = mpmath.MPContext()
MP.dps = 60


def mpq(v) -> mpmath.mpf:
    q = Fraction(v)
    return MP.mpf(q.numerator) / q.denominator


def truth(orders, rdp, delta):
    """max(0, min over orders of R + log((a - 1)/a) - (log delta + log a)/(a - 1))."""
    d = mpq(delta)
    vals = [mpq(r) + MP.log((mpq(a) - 1) / mpq(a)) - (MP.log(d) + MP.log(mpq(a))) / (mpq(a) - 1)
            for a, r in zip(orders, rdp)]
    return max(MP.mpf(0), min(vals))


def inside(enc, v):
    return mpq(enc.lo) <= v <= mpq(enc.hi)


DPA = [1 + x / 10.0 for x in range(1, 100)] + list(range(12, 64))
rng = np.random.default_rng(7)
CASES = [
    (DPA, [a * 0.1 for a in DPA], "1e-6"),
    (DPA, [a * 2.5 for a in DPA], "1e-9"),
    ([1 + 2.0 ** -40, 1.5, 1e6], [1e-9, 0.3, 1e3], "1e-300"),
    ([2.0, 3.0], [0.0, 0.0], "0.5"),                      # eps < 0 at every order: clipped to exactly 0
    (list(1 + 10 ** rng.uniform(-3, 3, 64)), list(10 ** rng.uniform(-6, 2, 64)), "1e-5"),
    (np.linspace(1.01, 200, 300), np.linspace(1.01, 200, 300) * 1e-3, 1e-12),
]


@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("rel_tol", [1e-12, 1e-25])
def test_contains_the_independent_minimum(case, rel_tol):
    orders, rdp, delta = CASES[case]
    enc = rc.cks20_eps_enclosure(orders, rdp, delta, rel_tol=rel_tol)
    v = truth(orders, rdp, delta)
    assert inside(enc, v), (float(enc.lo), float(v), float(enc.hi))
    assert enc.rel_width() <= rel_tol
    assert rc.cks20_eps_upper(orders, rdp, delta) >= v


def test_without_the_error_bound_the_float_program_misses(monkeypatch):
    """Planted fault: the float program's value as both ends (no error bound) excludes the exact minimum here, so the
    containment test above would catch a bound that is too small."""
    orders, rdp, delta = CASES[4]
    real = rc._cks20_orders_float

    def no_bound(a, r, ld):
        lo, hi = real(a, r, ld)
        mid = (lo + hi) / 2
        return mid, mid
    monkeypatch.setattr(rc, "_cks20_orders_float", no_bound)
    missed = 0
    for k in range(20):
        o = list(1 + 10 ** rng.uniform(-3, 3, 8))
        r = list(10 ** rng.uniform(-6, 2, 8))
        enc = rc.cks20_eps_enclosure(o, r, "1e-5", rel_tol=1e-12)
        missed += not inside(enc, truth(o, r, "1e-5"))
    assert missed > 0


def test_inputs_are_taken_exactly_or_refused():
    # an RDP value that is not a float is rounded up (eps increases in R), an order must be a float64 value
    enc = rc.cks20_eps_enclosure([2.0], [Fraction(1, 10)], "1e-3", rel_tol=1e-25)
    assert inside(enc, truth([2.0], [Fraction(1, 10)], "1e-3"))
    with pytest.raises(DomainError, match="float64"):
        rc.cks20_eps_enclosure([Fraction(21, 10)], [0.1], "1e-3")
    with pytest.raises(TypeError):
        rc.cks20_eps_enclosure(["2.0"], [0.1], "1e-3")
    with pytest.raises(TypeError):
        rc.cks20_eps_enclosure([2.0], [True], "1e-3")
    with pytest.raises(DomainError):
        rc.cks20_eps_enclosure([1.0, 2.0], [0.1, 0.1], "1e-3")   # alpha > 1
    with pytest.raises(DomainError):
        rc.cks20_eps_enclosure([2.0], [0.1, 0.2], "1e-3")        # one value per order
    with pytest.raises(DomainError):
        rc.cks20_eps_enclosure([2.0], [0.1], "1")                # 0 < delta < 1
    with pytest.raises(DomainError):
        rc.cks20_eps_enclosure([2.0], [float("nan")], "1e-3")
    # +inf: that order bounds nothing (dp_accounting writes it where its series does not converge)
    inf = float("inf")
    enc = rc.cks20_eps_enclosure([2.0, 3.0], [inf, 0.5], "1e-3", rel_tol=1e-25)
    assert inside(enc, truth([3.0], [0.5], "1e-3"))
    assert rc.cks20_eps_enclosure([2.0], [inf], "1e-3").pos_inf
