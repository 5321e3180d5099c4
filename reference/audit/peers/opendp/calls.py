"""OpenDP's side of the OpenDP audit: imports only opendp and the standard library (runs in any interpreter).

The conversion and the filters are fed measurements whose privacy map returns exactly the audited number
(``make_user_measurement``), so the audited input is OpenDP's own rho / eps; with ``scale`` the conversion is
called on ``make_gaussian(scale)`` itself (today's grid rows), whose rho must then be the ``rho`` given."""

import opendp.prelude as dp

dp.enable_features("contrib", "honest-but-curious")
SPACE = (dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float))


def _charged(measure, cost):
    """A measurement whose privacy map charges exactly ``cost`` (OpenDP's own number for a real mechanism)."""
    return dp.m.make_user_measurement(*SPACE, measure, lambda x: x, lambda d_in: cost)


def zcdp_to_approxdp_eps(rho, delta, scale=None):
    """``make_zCDP_to_approxDP(m).map(1.0).epsilon(delta)`` for a rho-zCDP measurement m (the Gaussian mechanism
    of that scale when given, and then OpenDP's rho for it must be ``rho``)."""
    if scale is None:
        m = _charged(dp.zero_concentrated_divergence(), float(rho))
    else:
        m = dp.m.make_gaussian(*SPACE, scale=float(scale))
        if m.map(1.0) != rho:
            raise ValueError(f"OpenDP's rho for scale {scale!r} is {m.map(1.0)!r}, not {rho!r}")
    return float(dp.c.make_zCDP_to_approxDP(m).map(1.0).epsilon(float(delta)))


class _Filter:
    """``make_fully_adaptive_composition`` + ``make_privacy_filter(d_out=budget)``; ``try_spend`` submits a
    measurement charging that cost and is False iff OpenDP rejects it (HALT)."""

    def __init__(self, measure, budget):
        self.measure = measure
        od = dp.c.make_fully_adaptive_composition(*SPACE, measure)
        self.q = dp.c.make_privacy_filter(od, d_in=1.0, d_out=float(budget))(0.0)

    def spend(self, cost):
        try:
            self.q(_charged(self.measure, float(cost)))
            return True
        except Exception:  # noqa: BLE001 - OpenDP rejects the query: HALT
            return False


class ZcdpFilter(_Filter):
    def try_spend(self, rho):
        return self.spend(rho)


class PureFilter(_Filter):
    def try_spend(self, eps):
        return self.spend(eps)


def zcdp_filter(B):
    """A zCDP privacy filter with budget rho = B."""
    return ZcdpFilter(dp.zero_concentrated_divergence(), B)


def pure_filter(eps_g):
    """A pure-DP privacy filter with budget eps = eps_g."""
    return PureFilter(dp.max_divergence(), eps_g)


# ---------------------------------------------------------------------------------------------------- DP-SGD paths (issue 28)
def gaussian_kfold_eps(q: float, sigma: float, k: int, delta: float) -> float:
    """``make_fix_delta(make_zCDP_to_approxDP(make_composition([make_gaussian(scale=sigma)] * k)), delta)
    .map(1.0)[0]`` (q must be 1)."""
    if float(q) != 1.0:
        raise ValueError("OpenDP composes plain Gaussians: q must be 1")
    space = dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float)
    m = dp.m.make_gaussian(*space, scale=sigma)
    comp = dp.c.make_composition([m] * int(k))
    return float(dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(comp), delta).map(1.0)[0])


def gaussian_rho(sigma: float) -> float:
    """``make_gaussian(scale=sigma).map(1.0)``: the zCDP rho OpenDP charges (1/(2 sigma^2), rounded up)."""
    space = dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float)
    return float(dp.m.make_gaussian(*space, scale=sigma).map(1.0))
