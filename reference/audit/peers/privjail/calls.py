"""privjail calls (imports only privjail and the stdlib)."""

from privjail import mechanism as m
from privjail.accountants import rdp as _rdp
from privjail.accountants import zcdp as _zcdp


def sigma_from_eps_delta(sensitivity: float, eps: float, delta: float) -> float:
    """``privjail.mechanism.sigma_from_eps_delta``: the sigma privjail's Gaussian mechanism uses under approx DP."""
    return float(m.sigma_from_eps_delta(sensitivity, eps, delta))


def eps_from_sigma_delta(sensitivity: float, sigma: float, delta: float) -> float:
    """``eps_from_sigma_delta``: the eps privjail charges for a Gaussian of scale sigma at delta."""
    return float(m.eps_from_sigma_delta(sensitivity, sigma, delta))


def subsampled_rdp(q: float, sigma: float, alpha: float) -> float:
    """``subsampled_rdp_eps_from_sigma(1, sigma, alpha, q)``: the RDP privjail charges (integer alpha >= 2)."""
    return float(m.subsampled_rdp_eps_from_sigma(1.0, sigma, alpha, q))


def rdp_to_approx_eps(alpha: float, R: float, delta: float) -> float:
    """``accountants.rdp.rdp_to_approx_eps({alpha: R}, delta)`` (Mironov 2017 Prop. 3)."""
    return float(_rdp.rdp_to_approx_eps({alpha: R}, delta))


def eps_from_rho_delta(rho: float, delta: float) -> float:
    """``accountants.zcdp.eps_from_rho_delta`` (Bun-Steinke 2016 Prop. 1.3)."""
    return float(_zcdp.eps_from_rho_delta(rho, delta))


def sigma_from_rho(sensitivity: float, rho: float) -> float:
    return float(m.sigma_from_rho(sensitivity, rho))
