"""Tumult Core's side of its audit: imports only tmlt.core, numpy and the standard library (runs in the peer's own
interpreter, ``--python tmlt_core=PATH``; only JSON crosses over, exact values as strings)."""

import math
from fractions import Fraction as F


def _meas(kind, p):
    """A round whose exact cost is p: Laplace scale 1/eps (pure DP), Gaussian sigma^2 = 1/(2 rho) (zCDP)."""
    from tmlt.core.domains.numpy_domains import NumpyFloatDomain
    from tmlt.core.measurements.noise_mechanisms import AddGaussianNoise, AddLaplaceNoise
    dom = NumpyFloatDomain()
    return AddLaplaceNoise(dom, scale=1 / F(p)) if kind == "pure" else AddGaussianNoise(dom, 1 / (2 * F(p)))


def zcdp_to_approx(a, b, eps, delta):
    """The largest float rho ``RhoZCDPToApproxDP(AddGaussianNoise).privacy_relation(1, (eps, delta))`` accepts, and
    the next float (refused), by bisection from the bracket [a, b]."""
    from tmlt.core.domains.numpy_domains import NumpyFloatDomain
    from tmlt.core.measurements.converters import RhoZCDPToApproxDP
    from tmlt.core.measurements.noise_mechanisms import AddGaussianNoise
    dom = NumpyFloatDomain()

    def ok(r):
        return bool(RhoZCDPToApproxDP(AddGaussianNoise(dom, 1 / (2 * F(r)))).privacy_relation(
            1, (F(eps), F(delta))))
    a, b = float(a), float(b)
    for _ in range(64):
        if ok(a):
            break
        a /= 2
    for _ in range(64):
        if not ok(b):
            break
        b *= 2
    while math.nextafter(a, math.inf) < b:
        m = (a + b) / 2
        if not a < m < b:
            m = math.nextafter(a, math.inf)
        if ok(m):
            a = m
        else:
            b = m
    return [a, b]


def pure_to_zcdp(eps):
    """``PureDPToRhoZCDP(AddLaplaceNoise(scale 1/eps)).privacy_function(1)``, exact, as a string."""
    from tmlt.core.measurements.converters import PureDPToRhoZCDP
    return str(PureDPToRhoZCDP(_meas("pure", eps)).privacy_function(1))


def compose(kind, costs):
    """``Composition`` of one round per cost: its ``privacy_function(1)``, exact, as a string."""
    from tmlt.core.measurements.composition import Composition
    return str(Composition([_meas(kind, p) for p in costs]).privacy_function(1))


def filter_rounds(kind, budget, costs):
    """``SequentialComposition``'s queryable, one round per cost, until it refuses one: per round [CONT or HALT,
    the round's exact charge]."""
    import numpy as np
    from tmlt.core.domains.numpy_domains import NumpyFloatDomain
    from tmlt.core.measurements.interactive_measurements import (MakeInteractive, MeasurementQuery,
                                                                 SequentialComposition)
    from tmlt.core.measures import InsufficientBudgetError, PureDP, RhoZCDP
    from tmlt.core.metrics import AbsoluteDifference
    q = SequentialComposition(NumpyFloatDomain(), AbsoluteDifference(), PureDP() if kind == "pure" else RhoZCDP(), 1,
                              F(budget))(np.float64(0.0))
    out = []
    for p in costs:
        mm = _meas(kind, p)
        charged = str(mm.privacy_function(1))
        try:
            q(MeasurementQuery(MakeInteractive(mm)))
            out.append(["CONT", charged])
        except InsufficientBudgetError:
            out.append(["HALT", charged])
            break
    return out
