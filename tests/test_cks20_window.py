"""The one-window CKS20 certificates behind the scalar ``eps_of`` / ``delta_of`` (their fast path).

Yardstick: the two CKS20 Proposition 12 objectives re-typed from THEOREMS.md and minimized over alpha with mpmath at
60 digits by a bisection written here (the sign of the derivative), never through the spec or reference code.
Planted faults: a float-optimal alpha moved off the optimum must be refused by the window (its derivative-sign
test), and the enclosure the window would have given without that test is shown to exclude the truth, so the
containment assertions above it can fail."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from dpbounds.accounting import conversions as conv
from dpbounds.accounting.conversions import delta_of, eps_of

MP = mpmath.MPContext()
MP.dps = 60


def mpq(q) -> mpmath.mpf:
    q = Fraction(q)
    return MP.mpf(q.numerator) / q.denominator


def eps_at(a, rho, delta):
    """CKS20 Prop. 12 at rho-zCDP (tau = alpha rho): alpha rho + (log(1/delta) + (alpha-1) log(1-1/alpha) - log
    alpha)/(alpha - 1)."""
    a, r, L = MP.mpf(a), mpq(rho), MP.log(1 / mpq(delta))
    return a * r + (L + (a - 1) * MP.log(1 - 1 / a) - MP.log(a)) / (a - 1)


def delta_at(a, rho, eps):
    """CKS20 Prop. 12, delta form: exp((alpha-1)(alpha rho - eps)) / (alpha - 1) * (1 - 1/alpha)^alpha."""
    a, r, e = MP.mpf(a), mpq(rho), mpq(eps)
    return MP.exp((a - 1) * (a * r - e)) / (a - 1) * (1 - 1 / a) ** a


def argmin(f, lo=MP.mpf(1) + MP.mpf(10) ** -30, hi=MP.mpf(10) ** 12):
    """The minimizer of a function decreasing then increasing on (lo, hi): bisection on the sign of a centred
    difference (f is unimodal in alpha for both forms), geometric while the bracket spans decades."""
    for _ in range(600):
        m = MP.sqrt(lo * hi) if hi / lo > 4 else (lo + hi) / 2
        h = m * MP.mpf(10) ** -25
        if f(m + h) > f(m - h):
            hi = m
        else:
            lo = m
        if hi - lo < lo * MP.mpf(10) ** -28:
            break
    return (lo + hi) / 2


def eps_truth(rho, delta):
    return max(MP.mpf(0), eps_at(argmin(lambda a: eps_at(a, rho, delta)), rho, delta))


def delta_truth(rho, eps):
    return delta_at(argmin(lambda a: MP.log(delta_at(a, rho, eps))), rho, eps)


def inside(enc, v, slack=MP.mpf(10) ** -40):
    lo, hi = mpq(enc.lo), mpq(enc.hi)
    return lo - slack * abs(v) <= v <= hi + slack * abs(v)


EPS_POINTS = [("0.1", "1e-6"), ("5", "1e-3"), ("1e-6", "1e-10"), ("100", "0.5"), ("0.003", "1e-12"),
              (0.1, 1e-5), ("1/3", "1/7"), ("20000", "1e-100")]
DELTA_POINTS = [("0.1", "2"), ("5", "1"), ("1e-6", "0.01"), ("0.5", "0"), ("2", "30"), (0.25, 1.5)]


@pytest.mark.parametrize("rho,delta", EPS_POINTS)
def test_eps_window_contains_the_independent_optimum(rho, delta):
    r, d = Fraction(rho), Fraction(delta)
    enc = conv._cks20_eps_window(r, d, Fraction(1, 10**20))
    assert enc is not None, "the window should certify these points (else eps_of falls back to the slow path)"
    truth = eps_truth(rho, delta)
    assert inside(enc, truth)
    assert enc.rel_width() <= 1e-20
    pub = eps_of(rho, delta)  # the public function takes the same window and agrees
    assert inside(pub, truth) and pub.rel_width() <= 1e-20


@pytest.mark.parametrize("rho,eps", DELTA_POINTS)
def test_delta_window_contains_the_independent_optimum(rho, eps):
    r, e = Fraction(rho), Fraction(eps)
    enc = conv._cks20_delta_window(r, e, Fraction(1, 10**20))
    assert enc is not None
    truth = delta_truth(rho, eps)
    assert inside(enc, truth)
    assert enc.rel_width() <= 1e-20
    pub = delta_of(rho, eps)
    assert inside(pub, truth) and pub.rel_width() <= 1e-20


def test_eps_of_honours_a_looser_rel_tol():
    enc = eps_of("0.1", "1e-6", rel_tol="1e-6")
    assert enc.rel_width() <= 1e-6 and inside(enc, eps_truth("0.1", "1e-6"))


def test_a_misplaced_alpha_is_refused_and_the_test_would_see_it(monkeypatch):
    """Planted fault: the float solver returns 1.5x the optimal alpha.  The window must refuse (S(c - w) > 0 there),
    eps_of must still return a true enclosure (its general path), and the enclosure an unchecked window would give
    ([g(c) - loss, g(c)] at the wrong c) lies above the truth: the containment test above would catch it."""
    rho, delta = "0.1", "1e-6"
    good = conv.fc._alpha_eps
    monkeypatch.setattr(conv.fc, "_alpha_eps", lambda *a, **k: 1.5 * good(*a, **k))
    assert conv._cks20_eps_window(Fraction(rho), Fraction(delta), Fraction(1, 10**20)) is None
    truth = eps_truth(rho, delta)
    assert inside(eps_of(rho, delta), truth)
    c = 1.5 * good(conv.fc._MATH, 0.1, float(MP.log(1e6)), None, 3)
    unchecked_lo = eps_at(MP.mpf(c), rho, delta) * (1 - MP.mpf(10) ** -12)  # any loss of the window's size
    assert unchecked_lo > truth


def test_a_misplaced_delta_alpha_is_refused(monkeypatch):
    good = conv.fc._alpha_delta
    monkeypatch.setattr(conv.fc, "_alpha_delta", lambda *a, **k: 0.7 * good(*a, **k) + 0.3)
    assert conv._cks20_delta_window(Fraction("0.1"), Fraction(2), Fraction(1, 10**20)) is None
    assert inside(delta_of("0.1", "2"), delta_truth("0.1", "2"))
