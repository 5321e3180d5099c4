"""autodp's side of the autodp audit: imports only autodp and the standard library (runs in any interpreter)."""

from autodp import converter


def eps_bbghs(rho, delta):
    """``converter.rdp_to_approxdp`` with the BBGHS improvement, on the zCDP curve alpha -> alpha * rho."""
    return float(converter.rdp_to_approxdp(lambda a: a * rho, BBGHS_conversion=True)(delta))


def eps_classic(rho, delta):
    """``converter.rdp_to_approxdp`` without it (the optimized Mironov conversion)."""
    return float(converter.rdp_to_approxdp(lambda a: a * rho, BBGHS_conversion=False)(delta))


# ------------------------------------------------------------------ the Poisson-subsampled Gaussian (DP-SGD)

def _acct(q: float, sigma: float, k: int):
    from autodp import rdp_acct, rdp_bank
    a = rdp_acct.anaRDPacct()
    a.compose_poisson_subsampled_mechanisms(lambda x: rdp_bank.RDP_gaussian({"sigma": sigma}, x), q, coeff=int(k))
    return a


def rdp(q: float, sigma: float, alpha: float) -> float:
    """``anaRDPacct().compose_poisson_subsampled_mechanisms(RDP_gaussian(sigma), q).evalRDP(alpha)``: its RDP of
    one Poisson-subsampled Gaussian step at order alpha."""
    a = _acct(q, sigma, 1)
    a.build_zeroth_oracle()   # what get_eps does first; evalRDP is a stub returning 0 until then
    a.flag = True
    return float(a.evalRDP(alpha))


def epsilon(q: float, sigma: float, k: int, delta: float) -> float:
    """``anaRDPacct`` composed k times, ``get_eps(delta)``."""
    return float(_acct(q, sigma, k).get_eps(delta))
