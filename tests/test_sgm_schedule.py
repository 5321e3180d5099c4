"""DP-SGD schedules, the substitution relation and fixed-size batches (composition.sgm.schedule.*, the relation and
sampling options of composition.sgm.*): the certified brackets contain values computed here independently from the
definitions with mpmath (no dpbounds code), at relative width <= 1e-3."""

from __future__ import annotations

from fractions import Fraction

import mpmath as mp
import pytest

import dpbounds
from dpbounds import DomainError, enclose



@pytest.fixture(autouse=True)
def _forty_digits():
    """The independent truths at 40 digits, restored after each test (never the process's global precision)."""
    with mp.workdps(40):
        yield


def _gdp_delta(mu, eps):
    """delta(eps) of mu-GDP: Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (the Gaussian shift pair)."""
    mu, eps = mp.mpf(mu), mp.mpf(eps)
    return mp.ncdf(-eps / mu + mu / 2) - mp.e ** eps * mp.ncdf(-eps / mu - mu / 2)


def _gdp_eps(mu, delta):
    lo, hi = mp.mpf(0), mp.mpf(60)      # delta(.) decreases: bisection
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _gdp_delta(mu, mid) > mp.mpf(delta) else (lo, mid)
    return (lo + hi) / 2


def _hockey(p, q, gamma, x0):
    """int (p - gamma q)_+ for a pair whose likelihood ratio p/q increases in x: the integral beyond the crossing."""
    xs = mp.findroot(lambda x: p(x) - gamma * q(x), x0)
    return mp.quad(lambda x: p(x) - gamma * q(x), [xs, xs + 5, mp.inf])


def _phi(x, m, s):
    return mp.npdf(x, m, s)


def _inside(enc, truth, tol=1e-3):
    assert enc.lo <= Fraction(str(mp.nstr(truth, 30, min_fixed=-100, max_fixed=100))) * (1 + Fraction(1, 10**25)) \
        and Fraction(str(mp.nstr(truth, 30, min_fixed=-100, max_fixed=100))) * (1 - Fraction(1, 10**25)) <= enc.hi, \
        (float(enc.lo), float(truth), float(enc.hi))
    assert enc.rel_width() <= tol


# ------------------------------------------------------------------------------------ q = 1 schedules: closed form

@pytest.mark.parametrize("phases, eps, relation", [
    ("1:2:3,1:3:5", "1", "add_remove"),
    ("1:1.5:1,1:4:10,1:2.5:2", "0.5", "add_remove"),
    ("1:3:3,1:5:4", "2", "substitution"),
])
def test_q1_schedule_delta_is_gdp(phases, eps, relation):
    ph = [(mp.mpf(p.split(":")[1]), int(p.split(":")[2])) for p in phases.split(",")]
    shift = 2 if relation == "substitution" else 1
    mu = mp.sqrt(sum(k * (shift / s) ** 2 for s, k in ph))
    enc = enclose("composition.sgm.schedule.delta", {"phases": phases, "eps_g": eps, "relation": relation},
                  rel_tol=1e-3)
    _inside(enc, _gdp_delta(mu, eps))


def test_q1_schedule_eps_is_gdp():
    mu = mp.sqrt(mp.mpf(3) / 4 + mp.mpf(5) / 9)
    enc = enclose("composition.sgm.schedule.eps", {"phases": "1:2:3,1:3:5", "delta": "1e-5"}, rel_tol=1e-3)
    _inside(enc, _gdp_eps(mu, "1e-5"))


def test_q1_fixed_size_substitution_is_sensitivity_two():
    # b = n: every batch is the whole data set, the step is the Gaussian mechanism at sensitivity 2
    enc = enclose("composition.sgm.delta", {"q": "1", "sigma": "3", "k": "4", "eps_g": "1",
                                            "relation": "substitution", "sampling": "fixed_size"}, rel_tol=1e-3)
    _inside(enc, _gdp_delta(mp.sqrt(4 * mp.mpf(4) / 9), 1))


# ------------------------------------------------------------------------------------ one-step substitution curves

@pytest.mark.parametrize("q, sigma, eps", [("0.1", "1", "1"), ("0.01", "0.8", "0.5"), ("0.5", "2", "0.2")])
def test_one_step_substitution_poisson(q, sigma, eps):
    """Poisson sampling, one example replaced: P = (1-q) N(0,s^2) + q N(1,s^2) vs Q = (1-q) N(0,s^2) + q N(-1,s^2)."""
    qq, s = mp.mpf(q), mp.mpf(sigma)
    P = lambda x: (1 - qq) * _phi(x, 0, s) + qq * _phi(x, 1, s)  # noqa: E731
    Q = lambda x: (1 - qq) * _phi(x, 0, s) + qq * _phi(x, -1, s)  # noqa: E731
    truth = _hockey(P, Q, mp.e ** mp.mpf(eps), 1)
    enc = enclose("composition.sgm.delta", {"q": q, "sigma": sigma, "k": "1", "eps_g": eps,
                                            "relation": "substitution"}, rel_tol=1e-3)
    _inside(enc, truth)


@pytest.mark.parametrize("q, sigma, eps", [("0.1", "1", "1"), ("0.02", "1.5", "0.3")])
def test_one_step_substitution_fixed_size(q, sigma, eps):
    """Batches of b of n without replacement, one example replaced: one step's curve is, for eps >= 0, the remove
    pair at sensitivity 2, ((1 - q) N(0, s^2) + q N(2, s^2), N(0, s^2)) (a data set whose other examples all have the
    replacement's gradient attains it)."""
    qq, s = mp.mpf(q), mp.mpf(sigma)
    P = lambda x: (1 - qq) * _phi(x, 0, s) + qq * _phi(x, 2, s)  # noqa: E731
    Q = lambda x: _phi(x, 0, s)  # noqa: E731
    truth = _hockey(P, Q, mp.e ** mp.mpf(eps), 2)
    enc = enclose("composition.sgm.delta", {"q": q, "sigma": sigma, "k": "1", "eps_g": eps,
                                            "relation": "substitution", "sampling": "fixed_size"}, rel_tol=1e-3)
    _inside(enc, truth)


@pytest.mark.parametrize("sampling, shift, x0", [("poisson", -1, 1), ("fixed_size", None, 2)])
def test_one_step_substitution_narrow(sampling, shift, x0):
    """k = 1 is a closed form (no grid): certified to 1e-12, and eps(delta) too, against the same integrals."""
    qq, s, eps = mp.mpf("0.1"), mp.mpf(1), mp.mpf("0.7")
    if sampling == "poisson":
        P = lambda x: (1 - qq) * _phi(x, 0, s) + qq * _phi(x, 1, s)  # noqa: E731
        Q = lambda x: (1 - qq) * _phi(x, 0, s) + qq * _phi(x, -1, s)  # noqa: E731
    else:
        P = lambda x: (1 - qq) * _phi(x, 0, s) + qq * _phi(x, 2, s)  # noqa: E731
        Q = lambda x: _phi(x, 0, s)  # noqa: E731
    truth = _hockey(P, Q, mp.e ** eps, x0)
    params = {"q": "0.1", "sigma": "1", "k": "1", "relation": "substitution", "sampling": sampling}
    _inside(enclose("composition.sgm.delta", {**params, "eps_g": "0.7"}, rel_tol=1e-12), truth, 1e-12)
    enc = enclose("composition.sgm.eps", {**params, "delta": mp.nstr(truth, 30)}, rel_tol=1e-10)
    _inside(enc, eps, 1e-10)


@pytest.mark.tier("slow")
def test_two_step_fixed_size_product_pair():
    """k = 2 under fixed-size substitution: H(P*^2 || Q*^2) = E_{L1 ~ P*}[delta_1(eps - L1)] with delta_1 the one-step
    curve of the symmetric pair P* (the remove pair at sensitivity 2 above the loss 0, mirrored below it, the rest of
    the mass at loss 0), delta_1(e) in closed form for e >= 0 and by H_t = 1 - t + t H_{1/t} (symmetry) below."""
    q, s, eps = mp.mpf("0.2"), mp.mpf(2), mp.mpf("0.3")
    P = lambda x: (1 - q) * _phi(x, 0, s) + q * _phi(x, 2, s)  # noqa: E731   (x > 1: loss > 0)
    Q = lambda x: _phi(x, 0, s)  # noqa: E731
    L = lambda x: mp.log((1 - q) + q * mp.e ** ((4 * x - 4) / (2 * s * s)))  # noqa: E731
    atom = (1 - q) * (1 - 2 * mp.ncdf(-1 / s))

    def d_top(e):      # e >= 0: P(L > e) - e^e Q(L > e), L increasing in x
        x = s * s * mp.log((mp.e ** e - (1 - q)) / q) / 2 + 1
        return (1 - q) * mp.ncdf(-x / s) + q * mp.ncdf(-(x - 2) / s) - mp.e ** e * mp.ncdf(-x / s)

    def d1(e):
        return d_top(e) if e >= 0 else 1 - mp.e ** e + mp.e ** e * d_top(-e)

    top = mp.quad(lambda x: P(x) * d1(eps - L(x)), [1, 2, 4, 8, mp.inf])
    bottom = mp.quad(lambda x: Q(x) * d1(eps + L(x)), [1, 2, 4, 8, mp.inf])
    truth = top + bottom + atom * d1(eps)
    enc = enclose("composition.sgm.delta", {"q": "0.2", "sigma": "2", "k": "2", "eps_g": "0.3",
                                            "relation": "substitution", "sampling": "fixed_size"}, rel_tol=1e-3)
    _inside(enc, truth)


# ------------------------------------------------------------------------------------ schedules against one phase

@pytest.mark.tier("slow")
def test_two_equal_phases_overlap_the_single_composition():
    a = enclose("composition.sgm.schedule.eps", {"phases": "0.02:1.1:20,0.02:1.1:20", "delta": "1e-5"},
                rel_tol=1e-3)
    b = enclose("composition.sgm.eps", {"q": "0.02", "sigma": "1.1", "k": "40", "delta": "1e-5"}, rel_tol=1e-3)
    assert a.lo <= b.hi and b.lo <= a.hi
    c = enclose("composition.sgm.schedule.delta", {"phases": "0.05:2:10,0.05:2:10", "eps_g": "0.5",
                                                   "relation": "substitution"}, rel_tol=1e-3)
    d = enclose("composition.sgm.delta", {"q": "0.05", "sigma": "2", "k": "20", "eps_g": "0.5",
                                          "relation": "substitution"}, rel_tol=1e-3)
    assert c.lo <= d.hi and d.lo <= c.hi


def test_one_phase_schedule_is_the_single_composition():
    a = enclose("composition.sgm.schedule.delta", {"phases": "0.01:1:10", "eps_g": "1"}, rel_tol=1e-3)
    b = enclose("composition.sgm.delta", {"q": "0.01", "sigma": "1", "k": "10", "eps_g": "1"}, rel_tol=1e-3)
    assert (a.lo, a.hi) == (b.lo, b.hi)


@pytest.mark.tier("slow")
def test_heterogeneous_schedule_between_its_bounds():
    """A schedule is dominated by the same number of steps at its worst phase and dominates its mildest one."""
    mid = enclose("composition.sgm.schedule.delta", {"phases": "0.01:1.2:10,0.03:1:10", "eps_g": "0.5"},
                  rel_tol=1e-3)
    lo = enclose("composition.sgm.delta", {"q": "0.01", "sigma": "1.2", "k": "20", "eps_g": "0.5"}, rel_tol=1e-3)
    hi = enclose("composition.sgm.delta", {"q": "0.03", "sigma": "1", "k": "20", "eps_g": "0.5"}, rel_tol=1e-3)
    assert lo.lo <= mid.hi and mid.lo <= hi.hi
    assert lo.hi < mid.lo and mid.hi < hi.lo      # strictly between: the phases differ enough to separate


# ------------------------------------------------------------------------------------ bad input

@pytest.mark.parametrize("phases", ["", "0.01:1", "0.01:1:5,", "0.01:1:0", "2:1:5", "0.01:0.1:5", "0.01:1:1.5",
                                    "0.01:1:5;0.02:1:5", "__import__('os'):1:1", "0.01:1:2000000", "a:b:c"])
def test_bad_phases_are_refused_naming_the_parameter(phases):
    with pytest.raises(DomainError) as ei:
        enclose("composition.sgm.schedule.delta", {"phases": phases, "eps_g": "1"}, rel_tol=1e-3)
    assert ei.value.param == "phases"
    assert "q:sigma:k" in str(ei.value)


def test_undefined_combination_is_refused_with_the_reason():
    with pytest.raises(DomainError) as ei:
        enclose("composition.sgm.delta", {"q": "0.01", "sigma": "1", "k": "1", "eps_g": "1",
                                          "sampling": "fixed_size"}, rel_tol=1e-3)
    assert ei.value.param == "sampling" and "n fixed" in str(ei.value)
    with pytest.raises(DomainError) as ei:
        enclose("composition.sgm.delta", {"q": "0.01", "sigma": "1", "k": "1", "eps_g": "1",
                                          "relation": "replace"}, rel_tol=1e-3)
    assert ei.value.param == "relation"


def test_options_are_words_only():
    with pytest.raises(DomainError):
        enclose("composition.sgm.delta", {"q": "0.01", "sigma": "1", "k": "1", "eps_g": "1", "relation": 1},
                rel_tol=1e-3)
    assert "relation" in dpbounds.get("composition.sgm.eps").options


# ------------------------------------------------------------------------------------ calibration

def _sigma_min_q1(eps, delta, k, shift=1):
    """q = 1: k Gaussian steps are mu-GDP with mu = shift sqrt(k)/sigma; sigma_min = shift sqrt(k)/mu_max with
    mu_max the mu at which the GDP curve at eps equals delta (delta(eps; mu) increases in mu)."""
    lo, hi = mp.mpf("1e-6"), mp.mpf(100)
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _gdp_delta(mid, eps) <= mp.mpf(delta) else (lo, mid)
    return shift * mp.sqrt(k) / lo


@pytest.mark.parametrize("eps, delta, k, relation", [("1", "1e-5", 10, "add_remove"), ("0.5", "1e-8", 1, "add_remove"),
                                                     ("3", "1e-6", 200, "substitution")])
def test_sigma_min_at_q1(eps, delta, k, relation):
    enc = dpbounds.calibrate_sgm(eps, delta, "1", k, relation=relation, rel_tol=1e-3)
    _inside(enc, _sigma_min_q1(eps, delta, k, 2 if relation == "substitution" else 1))
    # hi is certified sufficient, lo certified insufficient: the curve itself says so
    up = enclose("composition.sgm.delta", {"q": "1", "sigma": enc.hi, "k": k, "eps_g": eps, "relation": relation},
                 rel_tol=1e-6)
    low = enclose("composition.sgm.delta", {"q": "1", "sigma": enc.lo, "k": k, "eps_g": eps, "relation": relation},
                  rel_tol=1e-6)
    assert up.hi <= Fraction(delta) < low.lo


def test_schedule_multiplier_at_q1():
    # phases 1:1:3 and 1:2:4 scaled by m: mu^2 = (3 + 4/4) / m^2 = 4 / m^2
    enc = dpbounds.calibrate_sgm_schedule("1", "1e-5", "1:1:3,1:2:4", rel_tol=1e-3)
    _inside(enc, _sigma_min_q1("1", "1e-5", 4))


def test_largest_k_at_q1():
    # sigma = 5: k steps are sqrt(k)/5-GDP; the largest k with delta(1) <= 1e-5
    mu_max = mp.sqrt(4) / _sigma_min_q1("1", "1e-5", 4)
    k_max = int(mp.floor((5 * mu_max) ** 2))
    enc = dpbounds.calibrate_sgm_steps("1", "1e-5", "1", "5")
    assert enc.lo == enc.hi == k_max


def test_audit_narrows_the_calibration_reference():
    """The audit's sigma_min reference (a certified callable with rel_tols) is narrowed where a peer's value lies
    inside its first enclosure: a float just above the true sigma_min is sound, one 1e-9 below it unsound (both
    undecided at the first width, 1e-5)."""
    from dpbounds.audit.peers import _sgm_calibration as C
    from dpbounds.testing.oracle import Oracle
    truth = _sigma_min_q1("1", "1e-5", 10)
    pt = {"eps_g": 1.0, "delta": 1e-5, "q": 1.0, "k": 10}
    o = Oracle(C.sigma_min)
    first = o.enclosure(pt)
    for value, want in ((float(truth * (1 + mp.mpf("1e-9"))), "conservative"),
                        (float(truth * (1 - mp.mpf("1e-9"))), "unsound")):
        assert o.judge(value, first).verdict == "undecided"
        assert o.judge(value, o.narrowed(pt, value)).verdict == want


def test_calibrate_refuses_bad_input():
    with pytest.raises(DomainError) as ei:
        dpbounds.calibrate_sgm("1", "2", "0.01", 10)
    assert ei.value.param == "delta"
    with pytest.raises(DomainError) as ei:
        dpbounds.calibrate_sgm("1", "1e-5", "0.01", "1.5")
    assert ei.value.param == "k"
    with pytest.raises(DomainError) as ei:
        dpbounds.calibrate_sgm("1", "1e-5", "0.01", 10, sampling="fixed_size")
    assert ei.value.param == "sampling"


@pytest.mark.tier("slow")
def test_calibrate_cli(tmp_path):
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-m", "dpbounds", "calibrate", "--eps", "1", "--delta", "1e-5", "--q", "1",
                        "--k", "10", "--format", "json"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    import json
    rec = json.loads(r.stdout)
    truth = _sigma_min_q1("1", "1e-5", 10)
    assert Fraction(rec["lo_exact"]) <= Fraction(str(truth)) <= Fraction(rec["hi_exact"])
    # the CLI reaches the API's narrowest width where the curve is a closed form (q = 1)
    r = subprocess.run([sys.executable, "-m", "dpbounds", "calibrate", "--eps", "1", "--delta", "1e-5", "--q", "1",
                        "--k", "10", "--rel-tol", "1e-12", "--format", "json"], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    rec = json.loads(r.stdout)
    lo, hi = Fraction(rec["lo_exact"]), Fraction(rec["hi_exact"])
    assert lo <= Fraction(str(truth)) <= hi and hi - lo <= Fraction(1, 10**12) * hi
    for argv in (["--eps", "1", "--delta", "1e-5", "--q", "1"],                       # neither --k nor --sigma
                 ["--eps", "1", "--delta", "1e-5", "--q", "1", "--k", "10", "--sampling", "wor"],
                 ["--eps", "1", "--delta", "1e-5", "--phases", "0.1:1"],
                 ["--eps", "1", "--delta", "1e-5", "--q", "1", "--k", "10", "--rel-tol", "1e-13"]):
        r = subprocess.run([sys.executable, "-m", "dpbounds", "calibrate", *argv], capture_output=True, text=True,
                           timeout=300)
        assert r.returncode == 2 and r.stderr.count("\n") == 1, (argv, r.stderr)
