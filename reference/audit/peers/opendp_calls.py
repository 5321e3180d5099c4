"""OpenDP calls (imports only opendp and the stdlib).  OpenDP has no Poisson-subsampled Gaussian (its
amplification combinator covers pure and approximate DP only); its DP-SGD-shaped path is the k-fold composition
of Gaussian measurements under zCDP, converted by ``make_zCDP_to_approxDP`` (q = 1)."""

import opendp.prelude as dp

dp.enable_features("contrib")


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
