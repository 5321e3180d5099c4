"""riskcal calls (imports only riskcal, its numpy and the stdlib)."""

import functools

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


def epsilon_from_err_rates(delta: float, fpr: float, fnr: float) -> float:
    """``analysis.get_epsilon_from_err_rates(delta, alpha=fpr, beta=fnr)``."""
    return float(analysis.get_epsilon_from_err_rates(delta, fpr, fnr))


def bayes_risk_from_gdp(mu: float, prior: float) -> float:
    """``analysis.get_bayes_risk_from_gdp(mu, prior)``."""
    return float(analysis.get_bayes_risk_from_gdp(mu, prior))


def beta_from_zcdp_approx(rho: float, fpr: float) -> float:
    """``analysis.conversions.get_beta_from_zcdp_approx(rho, fpr)`` (deprecated; its warning swallowed)."""
    import warnings
    from riskcal.analysis import conversions
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(conversions.get_beta_from_zcdp_approx(rho, fpr))


def _gaussian_pld(sigma: float):
    pld_module = cal.pld_module  # dp_accounting's PLD module, as riskcal's calibration imports it
    return pld_module.from_gaussian_mechanism(standard_deviation=sigma, use_connect_dots=True,
                                              value_discretization_interval=1e-4)


def beta_from_gaussian_pld(sigma: float, fpr: float) -> float:
    """``get_beta_from_pld(pld, fpr)`` of dp_accounting's connect-the-dots PLD of one Gaussian mechanism N(0,
    sigma^2) (grid 1e-4, riskcal's own setting)."""
    return float(analysis.get_beta_from_pld(_gaussian_pld(sigma), fpr))


def advantage_from_gaussian_pld(sigma: float) -> float:
    """``get_advantage_from_pld`` of one Gaussian mechanism's PLD."""
    return float(analysis.get_advantage_from_pld(_gaussian_pld(sigma)))


def bayes_risk_from_gaussian_pld(sigma: float, prior: float) -> float:
    """``get_bayes_risk_from_pld(pld, prior)`` of one Gaussian mechanism's PLD."""
    return float(analysis.get_bayes_risk_from_pld(_gaussian_pld(sigma), prior))


def _ctd(q: float, sigma: float, k: int):
    from riskcal.accountants import CTDAccountant
    acc = CTDAccountant()
    for _ in range(int(k)):
        acc.step(noise_multiplier=sigma, sample_rate=q)
    return acc


def ctd_beta(q: float, sigma: float, k: int, fpr: float) -> float:
    """``CTDAccountant`` stepped k times, ``get_beta(alpha=fpr)``."""
    return float(_ctd(q, sigma, k).get_beta(alpha=fpr))


@functools.lru_cache(maxsize=4)
def _ctd_pld(q: float, sigma: float, k: int):
    """``CTDAccountant`` stepped k times, ``get_pld()``: the composed PLD its ``get_epsilon(delta=d)`` reads d off
    (that method is ``self.get_pld().get_epsilon_for_delta(d)``), kept per (q, sigma, k) for the next delta asked
    (reading it does not change it)."""
    return _ctd(q, sigma, k).get_pld()


def ctd_epsilon(q: float, sigma: float, k: int, delta: float) -> float:
    """``CTDAccountant`` stepped k times, ``get_epsilon(delta=delta)``: ``get_pld().get_epsilon_for_delta(delta)``
    on the PLD kept for (q, sigma, k)."""
    return float(_ctd_pld(q, sigma, k).get_epsilon_for_delta(delta))


def ctd_epsilon_fresh(q: float, sigma: float, k: int, delta: float) -> float:
    """``ctd_epsilon`` without the kept PLD (a fresh accountant's ``get_epsilon``: what the kept one must equal)."""
    return float(_ctd(q, sigma, k).get_epsilon(delta=delta))


def ctd_advantage(q: float, sigma: float, k: int) -> float:
    """``CTDAccountant`` stepped k times, ``get_advantage()``."""
    return float(_ctd(q, sigma, k).get_advantage())


def dpsgd_epsilon_evaluator_fresh(q: float, sigma: float, k: int, delta: float) -> float:
    """``create_dpsgd_epsilon_evaluator(q, k, delta)(sigma).epsilon``."""
    return float(cal.create_dpsgd_epsilon_evaluator(sample_rate=q, num_steps=int(k), target_delta=delta)(sigma).epsilon)


@functools.lru_cache(maxsize=4)
def _evaluator_pld(q: float, sigma: float, k: int):
    """The PLD ``create_dpsgd_epsilon_evaluator(q, k, delta)(sigma)`` composes before it reads delta off it:
    ``pld_module.from_gaussian_mechanism(standard_deviation=sigma, sampling_prob=q, use_connect_dots=True,
    value_discretization_interval=1e-4).self_compose(k)`` (the evaluator's own module and default grid step), kept
    per (q, sigma, k); the first one kept in a process is checked against the evaluator itself
    (:func:`dpsgd_epsilon_evaluator`)."""
    import inspect
    grid = inspect.signature(cal.create_dpsgd_epsilon_evaluator).parameters["grid_step"].default
    return cal.pld_module.from_gaussian_mechanism(standard_deviation=sigma, sampling_prob=q, use_connect_dots=True,
                                                  value_discretization_interval=grid).self_compose(int(k))


_EVALUATOR_CHECKED = []


def dpsgd_epsilon_evaluator(q: float, sigma: float, k: int, delta: float) -> float:
    """``create_dpsgd_epsilon_evaluator(q, k, delta)(sigma).epsilon``, read off the PLD kept for (q, sigma, k)
    (:func:`_evaluator_pld`); at the first call of a process the evaluator's own value is computed too and must be
    the same float (else RuntimeError: this wrapper no longer follows the evaluator)."""
    v = float(_evaluator_pld(q, sigma, int(k)).get_epsilon_for_delta(delta))
    if not _EVALUATOR_CHECKED:
        fresh = dpsgd_epsilon_evaluator_fresh(q, sigma, k, delta)
        if not (v == fresh or (v != v and fresh != fresh)):
            raise RuntimeError(f"the kept PLD gives {v!r} where create_dpsgd_epsilon_evaluator gives {fresh!r}")
        _EVALUATOR_CHECKED.append(True)
    return v


def sigma_for_epsilon_delta(eps_g: float, delta: float, q: float, k: int) -> float:
    """``calibration.blackbox.find_noise_multiplier_for_epsilon_delta(CTDAccountant, q, k, eps_g, delta)``."""
    from riskcal.accountants import CTDAccountant
    from riskcal.calibration import blackbox
    return float(blackbox.find_noise_multiplier_for_epsilon_delta(CTDAccountant, sample_rate=q, num_steps=int(k),
                                                                    epsilon=eps_g, delta=delta))


def sigma_for_err_rates(q: float, k: int, fpr: float, fnr: float) -> float:
    """``calibration.dpsgd.find_noise_multiplier_for_err_rates(alpha=fpr, beta=fnr, sample_rate=q, num_steps=k)``."""
    return float(cal.find_noise_multiplier_for_err_rates(alpha=fpr, beta=fnr, sample_rate=q, num_steps=int(k)))


def sigma_for_advantage_blackbox(q: float, k: int, advantage: float) -> float:
    """``calibration.blackbox.find_noise_multiplier_for_advantage(CTDAccountant, advantage, q, k)``."""
    from riskcal.accountants import CTDAccountant
    from riskcal.calibration import blackbox
    return float(blackbox.find_noise_multiplier_for_advantage(CTDAccountant, advantage=advantage, sample_rate=q,
                                                                num_steps=int(k)))



def beta_from_plrvs(sigma: float, fpr: float) -> float:
    """``analysis.get_beta_from_plrvs(analysis.plrvs_from_pld(pld), alpha=fpr)`` (``_plrv.get_beta``) on one
    Gaussian mechanism's PLD."""
    return float(analysis.get_beta_from_plrvs(analysis.plrvs_from_pld(_gaussian_pld(sigma)), alpha=fpr))


def advantage_from_zcdp(rho: float) -> float:
    """``analysis.get_advantage_from_zcdp(rho)`` (its defaults)."""
    return float(analysis.get_advantage_from_zcdp(rho))


def advantage_from_zcdp_approx(rho: float) -> float:
    """``analysis.get_advantage_from_zcdp_approx(rho)`` (deprecated; calls get_advantage_from_zcdp)."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return float(analysis.get_advantage_from_zcdp_approx(rho))
