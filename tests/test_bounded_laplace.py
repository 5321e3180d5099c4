"""The bounded-domain Laplace reference (``dpbounds.audit.peers._refs.bounded_laplace_eff_eps``: the largest
Delta/b with which Laplace noise of scale b conditioned on [l, u] is eps-DP) against an independent derivation: the
mechanism's privacy loss maximised by brute force over a grid of inputs x, x' = x + Delta and outputs y, the mass
left in [l, u] by numerical integration of the Laplace density -- not the closed form DC(b) the reference uses.
And the check on it: a correct float implementation passes, a planted under-noising is found."""

from __future__ import annotations

import math

import mpmath as M
import pytest

from dpbounds.audit.peers._refs import BOUNDED_LAPLACE_EXAMPLES, bounded_laplace_eff_eps
from dpbounds.testing import check_conversion


def _loss_brute(b, dq, lo, up, n=24):
    """max over x on a grid of [lo, up - dq] (x' = x + dq, and x' = x - dq mirrored) and y on a grid of [lo, up] of
    log(p_x(y) / p_x'(y)), p_x the Laplace(x, b) density renormalised on [lo, up] by quadrature."""
    b, dq, lo, up = (M.mpf(v) for v in (b, dq, lo, up))

    def mass(x):
        return M.quad(lambda y: M.exp(-abs(y - x) / b) / (2 * b), [lo, x, up] if lo < x < up else [lo, up])
    best = M.mpf("-inf")
    xs = [lo + (up - dq - lo) * k / n for k in range(n + 1)]
    ys = [lo + (up - lo) * k / n for k in range(n + 1)]
    for x in xs:
        for x2 in (x + dq, ):
            cx, cx2 = mass(x), mass(x2)
            for y in ys:
                for a, c, ca, cc in ((x, x2, cx, cx2), (x2, x, cx2, cx)):
                    v = (abs(y - c) - abs(y - a)) / b + M.log(cc / ca)
                    best = max(best, v)
    return best


def _brute_agrees(examples, n):
    M.mp.dps = 30
    for ex in examples:
        eps, dq, up = ex["eps"], ex["sensitivity"], ex["upper"]
        e = bounded_laplace_eff_eps(eps, dq, 0.0, up)
        t = M.mpf(e.lo.numerator) / e.lo.denominator
        assert (e.hi - e.lo) < e.lo * 1e-25
        at = _loss_brute(dq / t, dq, 0, up, n)
        assert abs(at - eps) < 1e-20, (ex, at)                 # eps-DP exactly at b = Delta/t*
        assert _loss_brute(dq / (t * (1 + M.mpf(1e-6))), dq, 0, up, n) > eps  # and not with less noise


def test_the_largest_eps_dp_scale_is_what_brute_force_finds():
    _brute_agrees(BOUNDED_LAPLACE_EXAMPLES[:1], 6)


@pytest.mark.tier("slow")
def test_the_largest_eps_dp_scale_is_what_brute_force_finds_on_a_fine_grid():
    _brute_agrees(BOUNDED_LAPLACE_EXAMPLES, 24)


def _float_eff_eps(eps, sensitivity, upper, lower=0.0):
    """A correct float implementation: bisection on the brute-force loss (coarse grid: it contains x = l, y = l,
    where the loss is largest), rounded down."""
    M.mp.dps = 25
    lo, hi = M.mpf(0), M.mpf(eps)
    for _ in range(70):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _loss_brute(sensitivity / mid, sensitivity, lower, upper, n=2) <= eps else (lo, mid)
    return math.nextafter(float(lo), 0.0)


def _planted(eps, sensitivity, upper, lower=0.0):
    return _float_eff_eps(eps, sensitivity, upper, lower) * (1 + 1e-9)


@pytest.mark.tier("slow")
def test_the_check_passes_a_correct_float_implementation_and_finds_a_planted_under_noising():
    kw = dict(inputs={"eps": [1.0, 0.01], "sensitivity": [1.0, 0.5], "upper": [10.0, 1.0]}, fixed={"lower": 0.0},
              claim="lower", examples=BOUNDED_LAPLACE_EXAMPLES[:2], max_examples=2, seconds=600)
    good = check_conversion(_float_eff_eps, bounded_laplace_eff_eps, **kw)
    assert good.verdict in ("exact", "conservative"), good.summary()
    bad = check_conversion(_planted, bounded_laplace_eff_eps, **kw)
    assert bad.verdict == "unsound", bad.summary()
