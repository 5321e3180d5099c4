"""check_laws: planted violations of every law class are found (with a shrunk witness and a reproducer that shows
the violation when run), correct functions of the same shapes pass, and a check that cannot judge is an error."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from scipy.special import ndtr, ndtri

from dpbounds.testing import check_laws

FAST = dict(seconds=120, max_examples=150, call_seconds=2.0, warmup_seconds=0.5)
DELTA = {"delta": (0.0, 1.0), "sigma": (0.1, 100.0)}


# correct functions (independent closed forms)
def gauss_eps(delta, sigma):
    """eps of the Gaussian mechanism (sensitivity 1) by the classical bound, inf at delta 0, 0 for large delta."""
    if delta <= 0:
        return math.inf
    if delta >= 0.5:
        return 0.0
    return max(0.0, -ndtri(delta) / sigma + 1 / (2 * sigma * sigma))


def gauss_delta(eps, mu):
    """delta(eps) of mu-GDP (Dong, Roth, Su 2019, Cor. 2.13): in [0, 1], non-increasing in eps."""
    return float(ndtr(-eps / mu + mu / 2) - math.exp(eps) * ndtr(-eps / mu - mu / 2)) if math.isfinite(
        math.exp(eps)) else 0.0


def gauss_tradeoff(alpha, mu):
    """The mu-GDP trade-off curve Phi(Phi^-1(1 - alpha) - mu), <= 1 - alpha."""
    return float(ndtr(ndtri(1 - alpha) - mu))


def rdp(alpha, q, sigma):
    return alpha * q * q / (2 * sigma * sigma)


def composed(k, sigma):
    return k / (2 * sigma * sigma) + math.sqrt(2 * k * math.log(1e5)) / sigma


# planted faults of the same shapes
def eps_drops(delta, sigma):           # prv_accountant #17's shape: eps collapses for tiny delta
    return gauss_eps(delta, sigma) * (1e-3 if 0 < delta < 1e-18 else 1.0)


def eps_grows(delta, sigma):           # opendp PR #2009's shape: eps grows with delta
    return 1.0 / sigma + delta


def eps_negative(delta, sigma):        # opendp #621's shape: a negative eps for delta near 1
    return -ndtri(delta) / sigma


def delta_over_one(eps, mu):
    return gauss_delta(eps, mu) + 1e-3 if eps < 1e-3 else gauss_delta(eps, mu)


def delta_nan(eps, mu):
    return math.nan if eps > 700 else gauss_delta(eps, mu)


def eps_inf(delta, sigma):
    return math.inf if 0 < delta < 1e-250 else gauss_eps(max(delta, 1e-300), sigma)


def tradeoff_above(alpha, mu):
    return 1.0 - alpha + 1e-4 if alpha > 0.99 else gauss_tradeoff(alpha, mu)


def rdp_dips(alpha, q, sigma):
    return rdp(alpha, q, sigma) if alpha < 64 else rdp(64, q, sigma) * 64 / alpha


def rdp_div0(alpha, q, sigma):         # Opacus #49's shape: a ZeroDivisionError at alpha = 1
    return q * q / (2 * sigma * sigma) * alpha / (alpha - 1) * (alpha - 1) if alpha != 1 else 1 / (alpha - 1)


def log_of_zero(q, sigma):            # Opacus #74's shape: log(0) at q = 1
    return math.log(1 - q) + 1 / sigma if q < 1 else math.log(1 - q)


def refuses_q_one(q, sigma):           # a deliberate refusal is not a crash
    if q >= 1:
        raise ValueError("q must be < 1")
    return -math.log(1 - q) + 1 / sigma


def composed_wraps(k, sigma):          # a composed eps that drops for many steps
    return composed(k % 4096, sigma)


def hangs_at_zero(delta, sigma):       # opendp #844's shape: never returns at delta = 0
    while delta == 0:
        time.sleep(0.01)
    return gauss_eps(delta, sigma)


def gauss_eps_zero_ok(delta, sigma):
    return gauss_eps(delta, sigma)


PLANTED = [
    (eps_drops, DELTA, "nonincreasing:delta"),
    (eps_grows, DELTA, "nonincreasing:delta"),
    (eps_negative, DELTA, "nonnegative"),
    (delta_over_one, {"eps": (0.0, 1e4), "mu": (0.01, 10.0)}, "at_most_one"),
    (delta_nan, {"eps": (0.0, 1e4), "mu": (0.01, 10.0)}, "not_nan"),
    (eps_inf, DELTA, "finite"),
    (tradeoff_above, {"alpha": (0.0, 1.0), "mu": (0.01, 10.0)}, "at_most_one_minus:alpha"),
    (rdp_dips, {"alpha": (1.0, 1e4), "q": (1e-6, 1.0), "sigma": (0.3, 100.0)}, "nondecreasing:alpha"),
    (rdp_div0, {"alpha": (1.0, 1e4), "q": (1e-6, 1.0), "sigma": (0.3, 100.0)}, "returns"),
    (rdp_div0, {"alpha": (1.0, 1e4), "q": (1e-6, 1.0), "sigma": (0.3, 100.0)}, "no_crash"),
    (log_of_zero, {"q": (1e-6, 1.0), "sigma": (0.3, 100.0)}, "no_crash"),
    (composed_wraps, {"k": (1, 10 ** 6), "sigma": (0.3, 100.0)}, "nondecreasing:k"),
    (hangs_at_zero, DELTA, "terminates"),
]

CORRECT = [
    (gauss_eps, DELTA, ["nonincreasing:delta", "nonnegative", "not_nan", "terminates", "returns"]),
    (gauss_delta, {"eps": (0.0, 1e4), "mu": (0.01, 10.0)}, ["at_most_one", "nonnegative", "finite",
                                                            "nonincreasing:eps"]),
    (gauss_tradeoff, {"alpha": (0.0, 1.0), "mu": (0.01, 10.0)}, ["at_most_one_minus:alpha", "nonnegative",
                                                                 "nonincreasing:alpha"]),
    (rdp, {"alpha": (1.0, 1e4), "q": (1e-6, 1.0), "sigma": (0.3, 100.0)},
     ["nondecreasing:alpha", "nondecreasing:q", "nonincreasing:sigma", "finite", "returns"]),
    (composed, {"k": (1, 10 ** 6), "sigma": (0.3, 100.0)}, ["nondecreasing:k", "nonincreasing:sigma", "finite"]),
    (refuses_q_one, {"q": (1e-6, 1.0), "sigma": (0.3, 100.0)}, ["no_crash", "nondecreasing:q"]),
]


def _run(src: str, tmp_path) -> subprocess.CompletedProcess:
    f = tmp_path / "repro.py"
    f.write_text(src)
    root = Path(__file__).resolve().parent.parent  # the reproducer imports the planted function by its module
    return subprocess.run([sys.executable, str(f)], capture_output=True, text=True, timeout=30, cwd=root,
                          env={**os.environ, "PYTHONPATH": str(root)})


@pytest.mark.tier("slow")
@pytest.mark.parametrize("fn, inputs, law", PLANTED, ids=[f"{p[0].__name__}-{p[2]}" for p in PLANTED])
def test_planted_violation_found_with_a_reproducer(fn, inputs, law, tmp_path):
    r = check_laws(fn, inputs=inputs, laws=[law], **FAST)
    assert r.verdict == "inconsistent", r.summary()
    (v,) = r.violations
    assert v.law == law and r.law == law
    if law.startswith(("nonincreasing", "nondecreasing")):
        p = law.partition(":")[2]
        a, b = v.witness["a"], v.witness["b"]
        assert a[p] < b[p] and {k: a[k] for k in a if k != p} == {k: b[k] for k in b if k != p}
        fa, fb = fn(**a), fn(**b)  # the pair shows the violation, recomputed here
        assert (fb > fa) if law.startswith("nonincreasing") else (fb < fa)
    # the reproducer, with the planted function bound by import, fails when run (or hangs: terminates)
    src = v.reproducer
    assert f"import {fn.__name__} as fn" in src
    if law == "terminates":
        assert "signal.alarm" in src
        out = _run(src, tmp_path)
        assert out.returncode != 0 and "TimeoutError" in out.stderr
    else:
        out = _run(src, tmp_path)
        assert out.returncode != 0 and ("AssertionError" in out.stderr or "Error" in out.stderr), out


@pytest.mark.tier("slow")
@pytest.mark.parametrize("fn, inputs, laws", CORRECT, ids=[c[0].__name__ for c in CORRECT])
def test_correct_functions_are_consistent(fn, inputs, laws):
    r = check_laws(fn, inputs=inputs, laws=laws, **{**FAST, "max_examples": 80})
    assert r.verdict == "consistent", r.summary()
    assert all(n > 0 for n in r.judged.values()) and r.examples > 0


@pytest.mark.tier("slow")
def test_deterministic_for_a_seed():
    a = check_laws(eps_drops, inputs=DELTA, laws=["nonincreasing:delta", "nonnegative"], seed=3, **FAST)
    b = check_laws(eps_drops, inputs=DELTA, laws=["nonincreasing:delta", "nonnegative"], seed=3,
                   **{**FAST, "seconds": 600})
    assert a.as_json() == b.as_json()


@pytest.mark.tier("slow")
def test_a_hanging_call_does_not_hang_the_check():
    t = time.monotonic()
    r = check_laws(hangs_at_zero, inputs=DELTA, laws=["finite", "nonnegative"], seconds=30, call_seconds=1,
                   warmup_seconds=0.5, max_examples=60)
    assert time.monotonic() - t < 60
    assert r.verdict in ("consistent", "incomplete")  # delta = 0 hangs: not judged, not a pass of terminates


@pytest.mark.parametrize("kw, why", [
    (dict(laws=["monotone:delta"]), "unknown law"),
    (dict(laws=["nonincreasing:eps"]), "not one of the inputs"),
    (dict(laws=["nonincreasing"]), "names no input"),
    (dict(laws=[]), "no laws"),
    (dict(laws=["finite"], inputs={"delta": (0.0, 1.0), "sigma": (0.1, 1.0), "k": (1, 3)}), "takes no 'k'"),
    (dict(laws=["finite"], inputs={"delta": (0.0, 1.0)}), "required 'sigma'"),
    (dict(laws=["finite"], max_examples=0), "no example"),
])
def test_what_cannot_be_judged_is_an_error(kw, why):
    r = check_laws(gauss_eps, **{"inputs": DELTA, **kw, "seconds": 30})
    assert r.verdict == "error" and why in r.detail, r.detail


def test_no_example_judged_is_an_error():
    def always_raises(delta, sigma):
        raise ValueError("no")
    r = check_laws(always_raises, inputs=DELTA, laws=["finite", "nonincreasing:delta"], **FAST)
    assert r.verdict == "error" and "no example judged" in r.detail


@pytest.mark.tier("slow")
def test_inputs_outside_a_function_s_care_raise_but_returns_is_only_checked_when_asked():
    r = check_laws(rdp_div0, inputs={"alpha": (1.0, 1e4), "q": (1e-6, 1.0), "sigma": (0.3, 100.0)},
                   laws=["finite", "nondecreasing:alpha"], **FAST)
    assert r.verdict == "consistent", r.summary()


def slow_region(delta, sigma):         # slow everywhere for small sigma: not a hang
    if sigma < 0.2:
        time.sleep(3)
    return gauss_eps(delta, sigma)


@pytest.mark.tier("slow")
def test_a_slow_region_is_not_a_hang():
    r = check_laws(slow_region, inputs={"delta": (0.0, 1.0), "sigma": (0.1, 0.3)}, laws=["terminates"], seconds=40,
                   call_seconds=1, warmup_seconds=0.5, max_examples=30)
    assert r.verdict in ("consistent", "incomplete"), r.summary()


def test_fast_twin_a_planted_violation_and_a_correct_function():
    small = dict(seconds=60, max_examples=25, call_seconds=5.0, warmup_seconds=1.0)
    bad = check_laws(eps_grows, inputs=DELTA, laws=["nonincreasing:delta", "nonnegative"], **small)
    assert bad.verdict == "inconsistent" and bad.law == "nonincreasing:delta"
    assert check_laws(gauss_eps, inputs=DELTA, laws=["nonincreasing:delta"], **small).verdict == "consistent"


def eps_float_noise_below_1e16(delta, sigma):
    """A correct Gaussian eps down to delta 1e-16; below it (1 - cdf under the float resolution) a value that jumps
    between decades, as prv_accountant 0.1.0's did (microsoft/prv_accountant#17)."""
    if 0 < delta < 1e-16:
        return 0.07 if int(-math.log10(delta)) % 2 else 3.8
    return gauss_eps(delta, sigma)


def test_a_scan_at_the_examples_finds_a_violation_at_tiny_deltas_the_search_budget_misses():
    kw = dict(seconds=60, max_examples=3, call_seconds=5.0, warmup_seconds=1.0, seed=0)
    ex = ({"delta": 1e-5, "sigma": 1.0},)
    alone = check_laws(eps_float_noise_below_1e16, inputs=DELTA, laws=["nonincreasing:delta"], **kw)
    assert alone.verdict != "inconsistent"  # three random pairs do not reach it
    r = check_laws(eps_float_noise_below_1e16, inputs=DELTA, laws=["nonincreasing:delta"], examples=ex, **kw)
    assert r.verdict == "inconsistent", r.summary()
    w = r.violations[0].witness
    assert w["a"]["delta"] < 1e-16 and w["a"]["delta"] < w["b"]["delta"] and w["a"]["sigma"] == w["b"]["sigma"] == 1.0
    a, b = r.violations[0].values
    # the scan calls the example's value first, then the ends and outward: the pair is still ordered a < b in delta
    assert a < b and (a, b) == (eps_float_noise_below_1e16(**w["a"]), eps_float_noise_below_1e16(**w["b"]))
    # the same scan of the correct function: consistent (every pair of the grid judged)
    ok = check_laws(gauss_eps, inputs=DELTA, laws=["nonincreasing:delta"], examples=ex, **kw)
    assert ok.verdict == "consistent" and ok.judged["nonincreasing:delta"] > 100, ok.summary()


def test_scan_grid_spans_the_decades_and_keeps_the_ends():
    from dpbounds.testing.laws import scan_grid
    g = scan_grid((0.0, 1.0))
    assert g[0] == 0.0 and g[-1] == 1.0 and 1e-300 in g and all(10.0 ** -e in g for e in range(0, 21))
    assert scan_grid((1, 10)) == list(range(1, 11)) and scan_grid([3, 2, 2.5]) == [2, 2.5, 3]
    lin = scan_grid((0.5, 50.0))
    assert lin[0] == 0.5 and lin[-1] == 50.0 and len(lin) == 16


def test_a_scan_of_a_correct_function_in_every_parameter_is_consistent():
    # the scan calls its grid out of order (nearest the example first): every pair it judges is ordered in the
    # law's parameter, so a correct function increasing in one input and decreasing in another passes both laws
    def eps(q, sigma, delta):
        return gauss_eps(delta, sigma) * q
    dom = {"q": (1e-4, 1.0), "sigma": (0.5, 50.0), "delta": (0.0, 1.0)}
    ex = ({"q": 0.01, "sigma": 1.0, "delta": 1e-5}, {"q": 1.0, "sigma": 2.0, "delta": 1e-8})
    r = check_laws(eps, inputs=dom, laws=["nonincreasing:delta", "nondecreasing:q", "nonincreasing:sigma"],
                   examples=ex, seconds=60, max_examples=3, call_seconds=5.0, warmup_seconds=1.0)
    assert r.verdict == "consistent", r.summary()
    assert all(r.judged[law] >= 20 for law in r.laws), r.judged


def slow_gauss_eps(delta, sigma):
    """gauss_eps, 0.05 s a call (a slow accountant)."""
    time.sleep(0.05)
    return gauss_eps(delta, sigma)


def test_the_scans_visit_their_fixed_points_whatever_the_time_cap():
    # the examples depend on the seed alone: every scan visits all its points (the grid of delta nearest the example
    # first, down to 1e-300) whether the cap is a minute or ten, and the results are identical
    from dpbounds.testing.laws import scan_points
    ex = ({"delta": 1e-5, "sigma": 1.0}, {"delta": 1e-8, "sigma": 3.0})
    kw = dict(inputs=DELTA, laws=["nonincreasing:delta", "nonnegative"], examples=ex, max_examples=3,
              call_seconds=5.0, warmup_seconds=1.0, seed=0)
    a = check_laws(gauss_eps, seconds=60, **kw)
    b = check_laws(gauss_eps, seconds=600, **kw)
    assert a.as_json() == b.as_json() and a.verdict == "consistent" and a.stopped == "examples"
    pts = scan_points(DELTA["delta"], 1e-5)
    assert 1e-18 in pts and 1e-300 in pts and 0.0 in pts and pts[0] == 1e-5
    # every pair of both scans judged (the random search adds its own pairs)
    assert a.judged["nonincreasing:delta"] >= 2 * len(pts) * (len(pts) - 1) // 2 - len(pts)
    assert a.examples >= 2 * len(pts) - 2


def test_a_check_the_cap_cuts_short_says_so():
    ex = ({"delta": 1e-5, "sigma": 1.0},)
    r = check_laws(slow_gauss_eps, inputs=DELTA, laws=["nonincreasing:delta", "nonnegative"], examples=ex,
                   max_examples=3, seconds=0.3, call_seconds=5.0, warmup_seconds=1.0)
    assert r.verdict == "incomplete" and r.stopped == "time", r.summary()
    assert "cut short by the 0.3 s cap" in r.detail and "scan points not visited" in r.detail, r.detail


def test_scan_points_sample_a_long_list_by_the_seed():
    from dpbounds.testing.laws import scan_points
    vals = list(range(100))
    a, b = scan_points(vals, 5, seed=0, n=10), scan_points(vals, 5, seed=1, n=10)
    assert a == scan_points(vals, 5, seed=0, n=10) and a != b
    assert len(a) == len(b) == 10 and a[:3] == b[:3] == [5, 0, 99]
    assert scan_points([1, 2, 3], 2) == [2, 1, 3]


def test_a_scan_shows_a_hang_by_its_neighbouring_points():
    # the scan of delta at the example calls delta = 0 (an end of the grid): no answer within the cap, while the
    # next point of the same scan answered at once -- a hang, found without the random search
    ex = ({"delta": 1e-5, "sigma": 1.0},)
    r = check_laws(hangs_at_zero, inputs=DELTA, laws=["nonincreasing:delta", "terminates"], examples=ex,
                   max_examples=1, seconds=60, call_seconds=1.0, warmup_seconds=0.5)
    assert r.verdict == "inconsistent" and r.law == "terminates", r.summary()
    assert r.witness == {"delta": 0.0, "sigma": 1.0} and "answers in" in r.violations[0].detail


@pytest.mark.tier("slow")
def test_a_scan_in_a_slow_region_shows_no_hang():
    # every point of the scan below sigma 0.2 is slow: none answers quickly, so none is a hang
    ok = check_laws(slow_region, inputs={"delta": (0.0, 1.0), "sigma": (0.1, 0.3)}, examples=({"delta": 0.5,
                    "sigma": 0.15},), laws=["nonincreasing:delta", "terminates"], max_examples=1, seconds=60,
                    call_seconds=1.0, warmup_seconds=0.5)
    assert ok.law != "terminates", ok.summary()
