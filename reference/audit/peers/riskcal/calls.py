"""riskcal calls (imports only riskcal, its numpy and the stdlib)."""

from riskcal import analysis
from riskcal.calibration import dpsgd as cal


def beta_from_gdp(mu: float, fpr: float) -> float:
    """``riskcal.analysis.get_beta_from_gdp(mu, alpha=fpr)``: the type-II error of mu-GDP at type-I error fpr."""
    return float(analysis.get_beta_from_gdp(mu, fpr))


def beta_from_adp(eps: float, delta: float, fpr: float) -> float:
    return float(analysis.get_beta_from_adp(eps, delta, fpr))


def beta_from_rdp(alpha: float, R: float, fpr: float) -> float:
    """``get_beta_from_rdp(epsilon=R, alpha=fpr, order=alpha)``: the trade-off curve of one (alpha, R)-RDP
    guarantee (Riess et al. 2026)."""
    return float(analysis.get_beta_from_rdp(epsilon=R, alpha=fpr, order=alpha))


def beta_from_zcdp(rho: float, fpr: float) -> float:
    return float(analysis.get_beta_from_zcdp(rho, fpr))


def advantage_from_gdp(mu: float) -> float:
    return float(analysis.get_advantage_from_gdp(mu))


def advantage_from_adp(eps: float, delta: float) -> float:
    return float(analysis.get_advantage_from_adp(eps, delta))


def advantage_from_zcdp(rho: float) -> float:
    return float(analysis.get_advantage_from_zcdp(rho))


def beta_for_dpsgd(q: float, sigma: float, k: int, fpr: float) -> float:
    """``riskcal.calibration.dpsgd.get_beta_for_dpsgd``: DP-SGD's type-II error at fpr (via dp_accounting's PLD)."""
    return float(cal.get_beta_for_dpsgd(alpha=fpr, noise_multiplier=sigma, sample_rate=q, num_steps=int(k)))


def advantage_for_dpsgd(q: float, sigma: float, k: int) -> float:
    return float(cal.get_advantage_for_dpsgd(noise_multiplier=sigma, sample_rate=q, num_steps=int(k)))


def sigma_for_advantage(q: float, k: int, advantage: float) -> float:
    """``find_noise_multiplier_for_advantage``: the noise multiplier riskcal calibrates for a target advantage."""
    return float(cal.find_noise_multiplier_for_advantage(advantage=advantage, sample_rate=q, num_steps=int(k)))
