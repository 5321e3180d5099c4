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


def ctd_mu(q: float, sigma: float, k: int) -> float:
    """``CTDAccountant`` stepped k times, ``get_mu_and_regret()[0]``."""
    return float(_ctd(q, sigma, k).get_mu_and_regret()[0])


def _converter(q: float, sigma: float, k: int):
    """``PLDConverter`` of the PLD ``CTDAccountant`` builds for k Gaussian steps (q = 1: dp_accounting's
    connect-the-dots PLD of the k-fold Gaussian mechanism)."""
    from gdpnum import converter
    return converter.PLDConverter(_ctd(q, sigma, k).get_pld())


def converter_mu(q: float, sigma: float, k: int) -> float:
    """``PLDConverter(pld).get_mu()``."""
    return float(_converter(q, sigma, k).get_mu())


def converter_mu_and_regret(q: float, sigma: float, k: int) -> float:
    """``PLDConverter(pld).get_mu_and_regret()[0]``."""
    return float(_converter(q, sigma, k).get_mu_and_regret()[0])


def converter_beta(q: float, sigma: float, k: int, fpr: float) -> float:
    """``PLDConverter(pld).get_beta(fpr)``."""
    return float(_converter(q, sigma, k).get_beta(fpr))


def converter_tradeoff(q: float, sigma: float, k: int, fpr: float) -> float:
    """``PLDConverter(pld).tradeoff_function([fpr])[0]``."""
    return float(_converter(q, sigma, k).tradeoff_function([fpr])[0])


def converter_inverse_tradeoff(q: float, sigma: float, k: int, fpr: float) -> float:
    """``PLDConverter(pld).inverse_tradeoff_function([fpr])[0]``."""
    return float(_converter(q, sigma, k).inverse_tradeoff_function([fpr])[0])
