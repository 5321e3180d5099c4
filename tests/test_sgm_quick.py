"""dpbounds.evaluation.sgm_quick: the cheap certified bounds on composition.sgm.* and the cached, peer-guided PLD
brackets the audit's oracle judges DP-SGD accountants with.  Expected values come from independent derivations
(mpmath quadrature of the Renyi log-moment, the Gaussian curve at q = 1, the k = 1 closed form, the PLD bracket of
sgm_pld's own enclose)."""

from __future__ import annotations

import math
from fractions import Fraction as F

import mpmath as mp
import pytest

from dpbounds.evaluation import sgm_quick as Q
from dpbounds.evaluation.evaluate import enclose
from dpbounds.spec import DomainError
from dpbounds.testing.oracle import Oracle


def _cks20_min(K, k: int, delta: float) -> float:
    """min over Q.ORDERS of CKS20 at k K(n)/(n - 1), in mpmath (50 digits) from log-moments K(n)."""
    mp.mp.dps = 50
    best = mp.inf
    for n in Q.ORDERS:
        R = k * K(n) / (n - 1)
        best = min(best, R + mp.log(1 - mp.mpf(1) / n) - (mp.log(delta) + mp.log(n)) / (n - 1))
    return float(max(best, 0))


def test_rdp_eps_upper_gaussian_closed_form():
    # q = 1: K(n) = n(n - 1)/(2 s^2) exactly (the Gaussian's Renyi divergence)
    s, k, delta = F(3, 2), 20, F(1, 10**6)
    want = _cks20_min(lambda n: mp.mpf(n) * (n - 1) / (2 * mp.mpf(9) / 4), k, 1e-6)
    got = Q.rdp_eps_upper(F(1), s, k, delta)
    assert got >= want * (1 - 1e-13) and got <= want * (1 + 1e-9)


@pytest.mark.tier("slow")
def test_rdp_eps_upper_matches_quadrature_of_the_log_moment():
    # K(n) = log E_{N(0, s^2)}[(1 - q + q exp((2x - 1)/(2 s^2)))^n] by mpmath quadrature, independent of the binomial sum
    q, s, k = 0.01, 1.0, 300
    mp.mp.dps = 30

    def K(n):
        f = lambda x: mp.npdf(x, 0, s) * (1 - q + q * mp.exp((2 * x - 1) / (2 * s * s))) ** n  # noqa: E731
        return mp.log(mp.quad(f, [-mp.inf, -10, 0, 10, 40, mp.inf]))

    orders = [n for n in Q.ORDERS if n <= 24]   # where the quadrature is quick; the minimum lies there
    want = min(float(k * K(n) / (n - 1) + mp.log(1 - mp.mpf(1) / n) - (mp.log(1e-5) + mp.log(n)) / (n - 1))
               for n in orders)
    got = Q.rdp_eps_upper(F(q), F(s), k, F(1e-5))
    assert abs(got - want) <= 1e-9 * want


def test_rdp_delta_upper_is_the_delta_form_of_the_same_bound():
    q, s, k = F(1, 20), F(3, 2), 50
    eps = Q.rdp_eps_upper(q, s, k, F(1, 10**6))
    d = Q.rdp_delta_upper(q, s, k, F(eps))
    assert d <= 1e-6 * (1 + 1e-9)          # at the eps bound the best order's delta form is delta again
    assert d >= 1e-6 * (1 - 1e-6)


def test_bounds_enclose_the_certified_bracket():
    q, s, k = F(1, 50), F(1), 200
    for delta in (F(1, 10**4), F(1, 10**9)):
        enc = enclose("composition.sgm.eps", {"q": q, "sigma": s, "k": k, "delta": delta}, rel_tol=1e-3)
        lo, hi = Q.interval("composition.sgm.eps", {"q": q, "sigma": s, "k": k, "delta": delta})
        assert lo <= enc.hi and hi >= enc.lo and lo < hi
    enc = enclose("composition.sgm.delta", {"q": q, "sigma": s, "k": k, "eps_g": F(1)}, rel_tol=1e-3)
    lo, hi = Q.interval("composition.sgm.delta", {"q": q, "sigma": s, "k": k, "eps_g": 1.0})
    assert lo <= enc.hi and hi >= enc.lo


def test_one_step_lower_is_the_k1_value():
    q, s = F(1, 10), F(1)
    k1 = enclose("composition.sgm.eps", {"q": q, "sigma": s, "k": 1, "delta": F(1, 10**5)}, rel_tol=1e-9)
    lo = Q.one_step_eps_lower(q, s, F(1, 10**5))
    assert lo <= k1.lo and lo >= float(k1.lo) * 0.998
    d1 = enclose("composition.sgm.delta", {"q": q, "sigma": s, "k": 1, "eps_g": F(1, 2)}, rel_tol=1e-9)
    dl = Q.one_step_delta_lower(q, s, F(1, 2))
    assert dl <= d1.lo and dl >= float(d1.lo) * (1 - 2e-3)


def _mp_delta(q, s, k, e):
    """delta(e) of k steps at q = 1 (mu-GDP, mu = sqrt(k)/s: DRS22 Cor. 2.13) or of one step at q < 1 (the
    remove pair (1 - q) N(0, s^2) + q N(1, s^2) vs N(0, s^2) and the add pair, the larger), in mpmath (50 digits),
    from the densities' crossing point -- written here from the definitions, not from dpbounds."""
    mp.mp.dps = 50
    q, s, e = mp.mpf(q), mp.mpf(s), mp.mpf(e)
    E = mp.exp(e)
    if q == 1:
        mu = mp.sqrt(k) / s
        return mp.ncdf(-e / mu + mu / 2) - E * mp.ncdf(-e / mu - mu / 2)
    tail = lambda x, m: mp.ncdf(-(x - m) / s)  # noqa: E731  P(N(m, s^2) > x), without cancelling 1 - cdf
    x = s * s * mp.log((E - (1 - q)) / q) + mp.mpf(1) / 2   # remove: the likelihood ratio exceeds E beyond x
    rem = (1 - q) * tail(x, 0) + q * tail(x, 1) - E * tail(x, 0)
    add = mp.mpf(0)
    t = mp.exp(-e) - (1 - q)
    if t > 0:                                                # add: N(0) vs the mixture, below x
        xa = s * s * mp.log(t / q) + mp.mpf(1) / 2
        add = mp.ncdf(xa / s) - E * ((1 - q) * mp.ncdf(xa / s) + q * mp.ncdf((xa - 1) / s))
    return max(rem, add, mp.mpf(0))


@pytest.mark.parametrize("q,s,k,delta", [(1, 2, 1000, 1e-6), (1, 5, 20, 0.1), (1, 1.2, 1, 1e-12),
                                         (0.01, 1.2, 1, 1e-6), (0.05, 5, 1, 3e-9), (0.5, 0.8, 1, 1e-5)])
def test_closed_forms_are_two_certified_points_around_the_truth(q, s, k, delta):
    # q = 1 or k = 1: the fast interval is the closed form itself, about 2^-30 wide: delta at its ends straddles
    # the target in 50-digit mpmath (eps below its lower end has delta > target, its upper end delta <= target)
    lo, hi = Q.interval("composition.sgm.eps", {"q": q, "sigma": s, "k": k, "delta": delta})
    assert 0 < lo < hi <= lo * (1 + 2 ** -28)
    assert _mp_delta(q, s, k, lo) > delta >= _mp_delta(q, s, k, hi)
    dlo, dhi = Q.interval("composition.sgm.delta", {"q": q, "sigma": s, "k": k, "eps_g": 0.5})
    assert dlo <= _mp_delta(q, s, k, 0.5) <= dhi and dhi - dlo <= 1e-9 * dhi
    # delta(0) <= target: eps is 0 exactly
    assert Q.interval("composition.sgm.eps", {"q": 0.001, "sigma": 1.2, "k": 1, "delta": 0.1}) == (0.0, 0.0)


def test_where_it_does_not_apply_and_outside_the_domain():
    assert Q.narrowed("composition.sgm.delta", {"q": 0.1, "sigma": 1.0, "k": 1, "eps_g": 1.0}, 0.5) is None
    assert Q.narrowed("composition.sgm.eps", {"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5}, 3.0) is None
    assert Q.interval("composition.sgm.eps", {"q": 0.1, "sigma": 1.0, "k": 10, "delta": 1e-5,
                                              "relation": "substitution"}) is None
    with pytest.raises(DomainError):
        Q.interval("composition.sgm.eps", {"q": 0.1, "sigma": 0.1, "k": 10, "delta": 1e-5})
    with pytest.raises(DomainError):
        Q.interval("composition.sgm.eps", {"q": 0.1, "sigma": 1.0, "k": 10, "delta": 1.5})


def test_narrowed_decides_at_the_peer_value_and_contains_the_truth():
    pt = {"q": 0.05, "sigma": 1.2, "k": 20, "delta": 1e-6}
    ref = enclose("composition.sgm.eps", {"q": F(pt["q"]), "sigma": F(pt["sigma"]), "k": 20,
                                          "delta": F(pt["delta"])}, rel_tol=1e-5)
    for rel, side in ((1e-3, "above"), (-1e-3, "below"), (2e-2, "above")):
        peer = float(ref.hi if rel > 0 else ref.lo) * (1 + rel)
        Q._CACHE.clear()
        enc = Q.narrowed("composition.sgm.eps", pt, peer)
        assert enc.lo <= ref.hi and enc.hi >= ref.lo                 # a certified enclosure of the same value
        assert (enc.hi < peer) if side == "above" else (enc.lo > peer)
        assert Q.narrowed("composition.sgm.eps", pt, peer) == enc    # a warm cache gives the same enclosure


def test_oracle_verdicts_on_composition_sgm():
    o = Oracle("composition.sgm.eps")
    pt = {"q": 0.05, "sigma": 1.2, "k": 20, "delta": 1e-6}
    ref = enclose("composition.sgm.eps", {"q": F(0.05), "sigma": F(1.2), "k": 20, "delta": F(1e-6)}, rel_tol=1e-5)
    assert o.verdict(pt, float(ref.hi) * 1.001).verdict == "conservative"
    assert o.verdict(pt, float(ref.lo) * 0.999).verdict == "unsound"
    assert o.verdict(pt, 100.0).verdict == "conservative"          # above the RDP bound: no bracket needed
    od = Oracle("composition.sgm.delta")
    assert od.verdict({"q": 0.05, "sigma": 1.2, "k": 20, "eps_g": 1.0}, 1e-12).verdict == "unsound"


def test_the_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(Q, "CACHE_BRACKETS", 2)
    Q._CACHE.clear()
    for k in (2, 3, 4):
        Q.cached_bracket(F(1, 10), F(2), k, F(1, 20))
    assert len(Q._CACHE) == 2 and all(key[2] in (3, 4) for key in Q._CACHE)
    assert math.isfinite(Q.rdp_eps_upper(F(1, 10), F(2), 4, F(1, 10**5)))


def test_a_refused_bracket_is_remembered_under_the_same_work_bound():
    from dpbounds.evaluation import sgm_pld as S
    from dpbounds.evaluation.enclosure import CertificationError
    Q._CACHE.clear()
    with S.work_limit(10.0):   # any convolution is beyond it
        with pytest.raises(CertificationError):
            Q.cached_bracket(F(1, 10), F(2), 4, F(1, 20))
        with pytest.raises(CertificationError):
            Q.cached_bracket(F(1, 10), F(2), 4, F(1, 20))
    assert Q.cached_bracket(F(1, 10), F(2), 4, F(1, 20)).k == 4   # without the bound: computed


def test_an_undecided_value_against_a_wide_enclosure_is_not_judged():
    # delta(10) of 20 steps at q = 0.001, sigma = 5 is far below every grid's truncation: [0, tiny] decides nothing
    # about 0.0, and the point is left unjudged (as the entry's own evaluator refuses it), not called undecided
    from dpbounds.evaluation.enclosure import CertificationError
    with pytest.raises(CertificationError):
        Q.narrowed("composition.sgm.delta", {"q": 0.001, "sigma": 5.0, "k": 20, "eps_g": 10.0}, 0.0)
    assert Q.narrowed("composition.sgm.delta", {"q": 0.001, "sigma": 5.0, "k": 20, "eps_g": 10.0}, 1.0).hi < 1
