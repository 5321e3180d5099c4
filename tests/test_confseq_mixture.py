"""The beta-binomial mixture references of the confseq peer (``dpbounds.audit.peers.confseq``: ``bb_log_mixture``,
``bb_bound``) against an independent derivation: the mixture integral itself, by quadrature over lambda of the
sub-Bernoulli supermartingale exp(lambda s - V psi_B(lambda)), psi_B(lambda) = log((g e^{h lambda} + h e^{-g lambda})
/ (g + h)) / (g h), mixed by the beta law of u = h e^{-g lambda} / (g e^{h lambda} + h e^{-g lambda}) (Beta(r/(g(g+h)),
r/(h(g+h))), restricted to lambda >= 0 one-sided) -- not the closed form in incomplete beta functions the references
evaluate.  And the check on them: a correct float boundary passes, a planted under-report is found."""

from __future__ import annotations

import math

import mpmath as M
import pytest

from dpbounds.audit.peers.confseq import ALPHA_OPT, bb_bound, bb_log_mixture
from dpbounds.testing import check_conversion


def _r(v_opt, g, h, one_sided):
    # confseq's tuning, restated: rho of the normal mixture optimal at (v_opt, alpha_opt), less g h, >= 1e-3 g h
    a = M.mpf(ALPHA_OPT) * (2 if one_sided else 1)
    L = M.log(1 / a)
    rho = M.mpf(v_opt) / (2 * L + M.log(1 + 2 * L))
    return max(rho - g * h, g * h / 1000)


def _log_m_quad(s, V, v_opt, g, h, one_sided):
    """log of the mixture integral over lambda (the lower end -oo two-sided, 0 one-sided)."""
    s, V, g, h = (M.mpf(x) for x in (s, V, g, h))
    r = _r(v_opt, g, h, one_sided)
    a0, b0 = r / (g * (g + h)), r / (h * (g + h))

    def psi(lam):
        return M.log((g * M.exp(h * lam) + h * M.exp(-g * lam)) / (g + h)) / (g * h)

    def density(lam):  # the beta density of u(lambda) times |du/dlambda| = (g + h) u (1 - u)
        u = h * M.exp(-g * lam) / (g * M.exp(h * lam) + h * M.exp(-g * lam))
        return (g + h) * u ** a0 * (1 - u) ** b0

    def f(lam):
        return M.exp(lam * s - V * psi(lam)) * density(lam)
    # the beta law of u peaks near u(0) = h/(g + h) for a large r: a fine partition around lambda = 0
    cuts = [M.mpf(k) / 10 for k in range(31)] + [M.inf]
    pts = cuts if one_sided else [-x for x in reversed(cuts[1:])] + cuts
    (num, e1), (den, e2) = M.quad(f, pts, error=True), M.quad(density, pts, error=True)
    assert e1 < num * 1e-16 and e2 < den * 1e-16, (e1 / num, e2 / den)  # the quadrature is trusted only then
    return M.log(num / den)


POINTS = [(5.0, 100.0, 100.0, 0.5, 0.5), (-3.0, 50.0, 20.0, 0.2, 0.8), (2.0, 10.0, 30.0, 0.9, 0.3)]


def _agrees(points, one_sided):
    M.mp.dps = 40
    for s, V, v_opt, g, h in points:
        e = bb_log_mixture(s, V, v_opt, g, h, one_sided)
        assert e.hi - e.lo < abs(e.lo) * 1e-30
        want = _log_m_quad(s, V, v_opt, g, h, one_sided)
        assert abs(M.mpf(float(e.lo)) - want) <= abs(want) * 1e-14, (s, V, v_opt, g, h, one_sided, e.lo, want)


def test_log_mixture_is_the_mixture_integral():
    _agrees(POINTS[:1], 1)


@pytest.mark.tier("slow")
@pytest.mark.parametrize("one_sided", [1, 0])
def test_log_mixture_is_the_mixture_integral_everywhere(one_sided):
    _agrees(POINTS, one_sided)


def test_bound_is_the_cap_where_the_mixture_stays_below_the_threshold():
    # up to V/g (the largest value S_t can take) the mixture stays below log(1/delta): the boundary is V/g
    M.mp.dps = 30
    c = bb_bound(1.0, 0.05, 10.0, 0.5, 0.5, 1)
    assert c.lo == c.hi == 2 and _log_m_quad(2.0, 1.0, 10.0, 0.5, 0.5, 1) < M.log(20)


@pytest.mark.tier("slow")
def test_bound_is_the_root_of_the_mixture():
    M.mp.dps = 30
    V, delta, v_opt, g, h = 100.0, 1e-6, 100.0, 0.5, 0.5
    e = bb_bound(V, delta, v_opt, g, h, 1)
    root = M.findroot(lambda s: _log_m_quad(s, V, v_opt, g, h, 1) - M.log(1 / M.mpf(delta)), float(e.lo))
    assert abs(root - M.mpf(float(e.lo))) <= root * 1e-12 and e.hi - e.lo < e.lo * 1e-25


def _log_m_mpmath(s, V, v_opt, g, h, one_sided):
    """The closed form evaluated with mpmath's incomplete beta (another library than the reference's arb)."""
    s, V, g, h = (M.mpf(x) for x in (s, V, g, h))
    r = _r(v_opt, g, h, one_sided)
    x = h / (g + h) if one_sided else 1
    gg, hh = g * (g + h), h * (g + h)
    return (V / (g * h) * M.log(g + h) - (V + h * s) / hh * M.log(g) - (V - g * s) / gg * M.log(h)
            + M.log(M.betainc((r + V - g * s) / gg, (r + V + h * s) / hh, 0, x) / M.betainc(r / gg, r / hh, 0, x)))


def _float_bound(V, delta, v_opt, g, h, one_sided=1):
    """A correct float implementation: the root, by bisection at 30 digits, rounded up to a float."""
    M.mp.dps = 30
    cap = M.mpf(V) / g
    T = M.log(1 / M.mpf(delta))
    if _log_m_mpmath(cap, V, v_opt, g, h, one_sided) < T:
        return float(cap)
    lo, hi = M.mpf(0), cap
    for _ in range(120):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _log_m_mpmath(mid, V, v_opt, g, h, one_sided) < T else (lo, mid)
    return math.nextafter(float(hi), math.inf)


def _planted(V, delta, v_opt, g, h, one_sided=1):
    return _float_bound(V, delta, v_opt, g, h, one_sided) * (1 - 1e-9)


EXAMPLES = ({"V": 100.0, "delta": 1e-6, "v_opt": 100.0, "g": 0.5, "h": 0.5},
            {"V": 50.0, "delta": 0.01, "v_opt": 20.0, "g": 0.2, "h": 0.8})


@pytest.mark.tier("slow")
def test_the_check_passes_a_correct_float_boundary_and_finds_a_planted_under_report():
    kw = dict(inputs={"V": [50.0, 100.0], "delta": [1e-6, 0.01], "v_opt": [20.0, 100.0], "g": [0.2, 0.5],
                      "h": [0.5, 0.8]}, fixed={"one_sided": 1}, examples=EXAMPLES, max_examples=len(EXAMPLES),
              seconds=600, against="cited")
    good = check_conversion(_float_bound, bb_bound, **kw)
    assert good.verdict in ("exact", "conservative"), good.summary()
    bad = check_conversion(_planted, bb_bound, **kw)
    assert bad.verdict == "formula-departure", bad.summary()
