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


def rdp_eps_from_sigma(sensitivity: float, sigma: float, alpha: float) -> float:
    """``mechanism.rdp_eps_from_sigma(sensitivity, sigma, alpha)``: the Gaussian's RDP at order alpha."""
    from privjail import mechanism
    return float(mechanism.rdp_eps_from_sigma(sensitivity, sigma, alpha))


def rho_from_sigma(sensitivity: float, sigma: float) -> float:
    """``mechanism.rho_from_sigma(sensitivity, sigma)``: the Gaussian's zCDP rho."""
    from privjail import mechanism
    return float(mechanism.rho_from_sigma(sensitivity, sigma))


def resolve_zcdp_rho(sensitivity: float, sigma: float) -> float:
    """``mechanism.resolve_gaussian_params_zcdp(sensitivity, scale=sigma)[0]``: the rho charged for that scale."""
    from privjail import mechanism
    return float(mechanism.resolve_gaussian_params_zcdp(sensitivity, scale=sigma)[0])


def resolve_rdp(q: float, sigma: float, alpha: float) -> float:
    """``mechanism.resolve_gaussian_params_rdp(1.0, [alpha], scale=sigma, sampling_rate=q)[0][alpha]``."""
    from privjail import mechanism
    budget, _ = mechanism.resolve_gaussian_params_rdp(1.0, [alpha], scale=sigma, sampling_rate=q)
    return float(budget[alpha])


def subsampled_spend(q: float, sigma: float, alpha: float) -> float:
    """``RDPSubsamplingAccountant(sampling_rate=q, parent=root)`` under a root ``RDPAccountant(alpha=[alpha])``,
    ``mechanism.spend_gaussian`` on its child ``RDPAccountant`` (sensitivity 1, scale sigma): the RDP at alpha that
    the subsampling accountant's ``spend`` forwards to the root (``root.budget_spent[alpha]``)."""
    from privjail import mechanism
    from privjail.accountants.rdp import RDPAccountant, RDPSubsamplingAccountant
    root = RDPAccountant(alpha=[float(alpha)], budget_limit=None)
    child = RDPAccountant(parent=RDPSubsamplingAccountant(sampling_rate=q, parent=root))
    mechanism.spend_gaussian(child, sensitivity=1.0, scale=sigma, delta=None)
    return float(root.budget_spent[float(alpha)])


def spend_gaussian_zcdp(sensitivity: float, sigma: float) -> float:
    """``mechanism.spend_gaussian(zCDPAccountant(), sensitivity, scale=sigma, delta=None)``, then the accountant's
    ``budget_spent``: the rho one Gaussian release is charged."""
    from privjail import mechanism
    from privjail.accountants.zcdp import zCDPAccountant
    acc = zCDPAccountant(budget_limit=None)
    mechanism.spend_gaussian(acc, sensitivity=sensitivity, scale=sigma, delta=None)
    return float(acc.budget_spent)


class _Filter:
    def __init__(self, acc):
        self.acc = acc

    def _spend(self, cost) -> bool:
        from privjail.accountants.util import BudgetExceededError
        try:
            self.acc.spend(cost)
            return True
        except BudgetExceededError:
            return False


class PureFilter(_Filter):
    def try_spend(self, eps: float) -> bool:
        return self._spend(float(eps))


class ZcdpFilter(_Filter):
    def try_spend(self, rho: float) -> bool:
        return self._spend(float(rho))


def pure_filter(eps_g: float) -> PureFilter:
    """``PureDPAccountant(budget_limit=eps_g)``: ``spend(eps)`` raises BudgetExceededError to refuse (HALT)."""
    from privjail.accountants.pure import PureDPAccountant
    return PureFilter(PureDPAccountant(budget_limit=eps_g, register=False))


def zcdp_filter(B: float) -> ZcdpFilter:
    """``zCDPAccountant(budget_limit=B)``: ``spend(rho)`` raises BudgetExceededError to refuse (HALT)."""
    from privjail.accountants.zcdp import zCDPAccountant
    return ZcdpFilter(zCDPAccountant(budget_limit=B))


def _spent(acc, cost, k: int):
    for _ in range(int(k)):
        acc.spend(cost)
    return acc.budget_spent


def pure_spent(x: float, k: int) -> float:
    """``PureDPAccountant()``, k ``spend(x)``, then ``budget_spent``."""
    from privjail.accountants.pure import PureDPAccountant
    return float(_spent(PureDPAccountant(), float(x), k))


def approx_spent_eps(x: float, k: int) -> float:
    """``ApproxDPAccountant()``, k ``spend((x, 1e-9))``, then ``budget_spent[0]`` (the epsilon total)."""
    from privjail.accountants.approx import ApproxDPAccountant
    return float(_spent(ApproxDPAccountant(), (float(x), 1e-9), k)[0])


def approx_spent_delta(x: float, k: int) -> float:
    """``ApproxDPAccountant()``, k ``spend((1.0, x))``, then ``budget_spent[1]`` (the delta total)."""
    from privjail.accountants.approx import ApproxDPAccountant
    return float(_spent(ApproxDPAccountant(), (1.0, float(x)), k)[1])


def zcdp_spent(x: float, k: int) -> float:
    """``zCDPAccountant()``, k ``spend(x)`` (rho), then ``budget_spent``."""
    from privjail.accountants.zcdp import zCDPAccountant
    return float(_spent(zCDPAccountant(), float(x), k))


def rdp_spent(x: float, k: int) -> float:
    """``RDPAccountant(alpha=[2.0])``, k ``spend({2.0: x})``, then ``budget_spent[2.0]``."""
    from privjail.accountants.rdp import RDPAccountant
    return float(_spent(RDPAccountant(alpha=[2.0]), {2.0: float(x)}, k)[2.0])
