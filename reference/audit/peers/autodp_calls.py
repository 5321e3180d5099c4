"""autodp's side of the autodp audit: imports only autodp and the standard library (runs in any interpreter)."""

from autodp import converter


def eps_bbghs(rho, delta):
    """``converter.rdp_to_approxdp`` with the BBGHS improvement, on the zCDP curve alpha -> alpha * rho."""
    return float(converter.rdp_to_approxdp(lambda a: a * rho, BBGHS_conversion=True)(delta))


def eps_classic(rho, delta):
    """``converter.rdp_to_approxdp`` without it (the optimized Mironov conversion)."""
    return float(converter.rdp_to_approxdp(lambda a: a * rho, BBGHS_conversion=False)(delta))
