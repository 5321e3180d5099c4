"""autodp calls for the Poisson-subsampled Gaussian (imports only autodp and the stdlib)."""

from autodp import rdp_acct, rdp_bank


def _acct(q: float, sigma: float, k: int):
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
