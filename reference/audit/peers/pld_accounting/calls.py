"""pld-accounting (PLD_accounting) calls (imports only PLD_accounting and the stdlib)."""

import PLD_accounting as pa


def allocation_epsilon_upper(sigma: float, num_steps: int, num_selected: int, num_epochs: int,
                             delta: float) -> float:
    """``gaussian_allocation_epsilon_range(...)[0]``: its upper bound on eps for Gaussian random allocation (each
    example in num_selected of num_steps steps, num_epochs epochs)."""
    return float(pa.gaussian_allocation_epsilon_range(delta=delta, sigma=sigma, num_steps=int(num_steps),
                                                      num_selected=int(num_selected),
                                                      num_epochs=int(num_epochs))[0])


def epsilon_upper(q: float, sigma: float, k: int, delta: float) -> float:
    """The degenerate allocation num_steps = num_selected = 1 over k epochs is k-fold Gaussian (q must be 1): the
    form in which the q = 1 closed form is the truth."""
    if float(q) != 1.0:
        raise ValueError("pld_accounting's allocation is not Poisson subsampling: q must be 1 here")
    return allocation_epsilon_upper(sigma=sigma, num_steps=1, num_selected=1, num_epochs=int(k), delta=delta)


def _degenerate(sigma: float, k: int, **target):
    from PLD_accounting import types as t
    return t.PrivacyParams(sigma=sigma, num_steps=1, num_selected=1, num_epochs=int(k), **target), \
        t.AllocationSchemeConfig()


def _q_one(q: float) -> None:
    if float(q) != 1.0:
        raise ValueError("pld_accounting's allocation is not Poisson subsampling: q must be 1 here")


def epsilon_configurable(q: float, sigma: float, k: int, delta: float) -> float:
    """``gaussian_allocation_epsilon_configurable(params=PrivacyParams(sigma, 1, 1, k, delta=delta),
    config=AllocationSchemeConfig())`` (its default DOMINATES bound)."""
    from PLD_accounting import random_allocation_api as r
    _q_one(q)
    p, c = _degenerate(sigma, k, delta=delta)
    return float(r.gaussian_allocation_epsilon_configurable(params=p, config=c))


def delta_configurable(q: float, sigma: float, k: int, eps_g: float) -> float:
    """``gaussian_allocation_delta_configurable(params=PrivacyParams(sigma, 1, 1, k, epsilon=eps_g), ...)``."""
    from PLD_accounting import random_allocation_api as r
    _q_one(q)
    p, c = _degenerate(sigma, k, epsilon=eps_g)
    return float(r.gaussian_allocation_delta_configurable(params=p, config=c))


def epsilon_from_pld(q: float, sigma: float, k: int, delta: float) -> float:
    """``gaussian_allocation_pld(params=PrivacyParams(sigma, 1, 1, k, delta=delta), ...).get_epsilon_for_delta(delta)``."""
    from PLD_accounting import random_allocation_api as r
    _q_one(q)
    p, c = _degenerate(sigma, k, delta=delta)
    return float(r.gaussian_allocation_pld(params=p, config=c).get_epsilon_for_delta(delta))
