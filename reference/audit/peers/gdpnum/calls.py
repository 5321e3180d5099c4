"""gdpnum calls (imports only gdpnum, its dp_accounting/numpy and the stdlib)."""

import gdpnum
from gdpnum import dpsgd


def mu_for_dpsgd(q: float, sigma: float, k: int) -> float:
    """``gdpnum.dpsgd.get_mu_and_regret_for_dpsgd(...)[0]``: the GDP mu gdpnum reports for DP-SGD."""
    return float(dpsgd.get_mu_and_regret_for_dpsgd(noise_multiplier=sigma, sample_rate=q, num_steps=int(k))[0])


def regret_for_dpsgd(q: float, sigma: float, k: int) -> float:
    return float(dpsgd.get_mu_and_regret_for_dpsgd(noise_multiplier=sigma, sample_rate=q, num_steps=int(k))[1])


def _ctd(q: float, sigma: float, k: int) -> "gdpnum.CTDAccountant":
    acc = gdpnum.CTDAccountant()
    for _ in range(int(k)):
        acc.step(noise_multiplier=sigma, sample_rate=q)
    return acc


def ctd_epsilon(q: float, sigma: float, k: int, delta: float) -> float:
    """``CTDAccountant`` stepped k times, ``get_epsilon(delta=delta)`` (connect-the-dots PLD)."""
    return float(_ctd(q, sigma, k).get_epsilon(delta=delta))


def ctd_beta(q: float, sigma: float, k: int, fpr: float) -> float:
    """``CTDAccountant.get_beta(alpha=fpr)``: DP-SGD's type-II error at fpr."""
    return float(_ctd(q, sigma, k).get_beta(alpha=fpr))
