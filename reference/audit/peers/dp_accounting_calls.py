"""dp_accounting calls for its DP-SGD paths (imports only dp_accounting and the stdlib)."""

import dp_accounting
from dp_accounting.rdp import rdp_privacy_accountant as _rdp


def _event(q: float, sigma: float):
    g = dp_accounting.GaussianDpEvent(sigma)
    return g if q >= 1.0 else dp_accounting.PoissonSampledDpEvent(q, g)


def rdp_at_order(q: float, sigma: float, alpha: float) -> float:
    """``RdpAccountant(orders=[alpha]).compose(PoissonSampledDpEvent(q, GaussianDpEvent(sigma)))``: its RDP at
    alpha (read back through ``_rdp``, the accountant's state)."""
    acc = dp_accounting.rdp.RdpAccountant(orders=[float(alpha)])
    acc.compose(_event(q, sigma), 1)
    return float(acc._rdp[0])  # noqa: SLF001  (the RDP the accountant composed; no public getter)


def rdp_epsilon(q: float, sigma: float, k: int, delta: float) -> float:
    """``RdpAccountant().compose(PoissonSampledDpEvent(q, GaussianDpEvent(sigma)), k).get_epsilon(delta)``."""
    acc = dp_accounting.rdp.RdpAccountant()
    acc.compose(_event(q, sigma), int(k))
    return float(acc.get_epsilon(delta))


def pld_epsilon(q: float, sigma: float, k: int, delta: float) -> float:
    """``PLDAccountant().compose(PoissonSampledDpEvent(q, GaussianDpEvent(sigma)), k).get_epsilon(delta)``."""
    acc = dp_accounting.pld.PLDAccountant()
    acc.compose(_event(q, sigma), int(k))
    return float(acc.get_epsilon(delta))


def pld_delta(q: float, sigma: float, k: int, eps_g: float) -> float:
    acc = dp_accounting.pld.PLDAccountant()
    acc.compose(_event(q, sigma), int(k))
    return float(acc.get_delta(eps_g))


def compute_epsilon(alpha: float, R: float, delta: float) -> float:
    """``rdp_privacy_accountant.compute_epsilon([alpha], [R], delta)[0]`` (CKS20 Prop. 12)."""
    return float(_rdp.compute_epsilon([float(alpha)], [R], delta)[0])
