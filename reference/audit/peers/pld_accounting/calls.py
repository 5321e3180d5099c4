"""pld-accounting (PLD_accounting) calls (imports only PLD_accounting and the stdlib)."""

import functools

import PLD_accounting as pa

#: the PLDs kept per (sigma, k) for the next delta or eps asked (bounded: the last few)
KEEP = 4


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


@functools.lru_cache(maxsize=KEEP)
def _allocation_pld(sigma: float, k: int):
    """``gaussian_allocation_pld(params=PrivacyParams(sigma, 1, 1, k), config=AllocationSchemeConfig())``, kept per
    (sigma, k): what ``gaussian_allocation_epsilon_configurable`` / ``_delta_configurable`` build before they read
    ``params.delta`` / ``params.epsilon`` off it (``full_pld.get_epsilon_for_delta(params.delta)``; the PLD's
    construction does not read them)."""
    from PLD_accounting import random_allocation_api as r
    p, c = _degenerate(sigma, k)
    return r.gaussian_allocation_pld(params=p, config=c)


def epsilon_configurable(q: float, sigma: float, k: int, delta: float) -> float:
    """``gaussian_allocation_epsilon_configurable(params=PrivacyParams(sigma, 1, 1, k, delta=delta),
    config=AllocationSchemeConfig())`` (its default DOMINATES bound), read off the PLD kept for (sigma, k)."""
    _q_one(q)
    _degenerate(sigma, k, delta=delta)  # (the peer's own validation of the arguments)
    return float(_allocation_pld(sigma, int(k)).get_epsilon_for_delta(delta))


def delta_configurable(q: float, sigma: float, k: int, eps_g: float) -> float:
    """``gaussian_allocation_delta_configurable(params=PrivacyParams(sigma, 1, 1, k, epsilon=eps_g), ...)``, read off
    the PLD kept for (sigma, k)."""
    _q_one(q)
    _degenerate(sigma, k, epsilon=eps_g)
    return float(_allocation_pld(sigma, int(k)).get_delta_for_epsilon(eps_g))


def epsilon_from_pld(q: float, sigma: float, k: int, delta: float) -> float:
    """``gaussian_allocation_pld(params=PrivacyParams(sigma, 1, 1, k, delta=delta), ...).get_epsilon_for_delta(delta)``
    (the PLD kept for (sigma, k))."""
    _q_one(q)
    _degenerate(sigma, k, delta=delta)
    return float(_allocation_pld(sigma, int(k)).get_epsilon_for_delta(delta))


def epsilon_configurable_fresh(q: float, sigma: float, k: int, delta: float) -> float:
    """The peer's own call behind :func:`epsilon_configurable` (what the kept PLD must equal)."""
    from PLD_accounting import random_allocation_api as r
    p, c = _degenerate(sigma, k, delta=delta)
    return float(r.gaussian_allocation_epsilon_configurable(params=p, config=c))


def delta_configurable_fresh(q: float, sigma: float, k: int, eps_g: float) -> float:
    from PLD_accounting import random_allocation_api as r
    p, c = _degenerate(sigma, k, epsilon=eps_g)
    return float(r.gaussian_allocation_delta_configurable(params=p, config=c))


# ------------------------------------------------------------------ the realization API, subsampling, adaptive bounds

def _gaussian_realizations(sigma: float):
    """The remove and add PLD realizations of N(0, sigma^2) vs N(1, sigma^2) (sensitivity 1): the package's own
    ``mechanisms.gaussian_distribution(scale=sigma)`` (DOMINATES), the same for both directions (the Gaussian's
    privacy loss has the same law in both)."""
    from PLD_accounting.mechanisms import gaussian_distribution
    r = gaussian_distribution(scale=sigma)
    return r, r


def _general_kwargs(sigma: float, k: int):
    from PLD_accounting import types as t
    rem, add = _gaussian_realizations(sigma)
    return {"num_steps": 1, "num_selected": 1, "num_epochs": int(k), "remove_realization": rem,
            "add_realization": add, "config": t.AllocationSchemeConfig()}


@functools.lru_cache(maxsize=KEEP)
def _general_pld(sigma: float, k: int):
    """``general_allocation_pld(**_general_kwargs(sigma, k))``, kept per (sigma, k): what
    ``general_allocation_epsilon`` / ``_delta`` build before they read delta / eps off it."""
    from PLD_accounting import random_allocation_api as r
    return r.general_allocation_pld(**_general_kwargs(sigma, k))


def _general_checks(delta: float | None = None, epsilon: float | None = None) -> None:
    """The argument checks ``general_allocation_epsilon`` / ``_delta`` make before they build the PLD."""
    from PLD_accounting import validation as v
    if delta is not None:
        v.require_open_unit_interval(value=delta, name="delta")
    if epsilon is not None:
        v.require_positive_real(value=epsilon, name="epsilon")


def general_epsilon(q: float, sigma: float, k: int, delta: float) -> float:
    """``general_allocation_epsilon(delta, num_steps=1, num_selected=1, num_epochs=k, <the Gaussian's remove and add
    realizations>, AllocationSchemeConfig())``: k-fold Gaussian (q must be 1); read off the PLD kept for (sigma, k)."""
    _q_one(q)
    _general_checks(delta=delta)
    return float(_general_pld(sigma, int(k)).get_epsilon_for_delta(delta))


def general_delta(q: float, sigma: float, k: int, eps_g: float) -> float:
    """``general_allocation_delta(epsilon=eps_g, ...)`` on the Gaussian's realizations (as general_epsilon)."""
    _q_one(q)
    _general_checks(epsilon=eps_g)
    return float(_general_pld(sigma, int(k)).get_delta_for_epsilon(eps_g))


def general_pld_epsilon(q: float, sigma: float, k: int, delta: float) -> float:
    """``general_allocation_pld(...)`` on the Gaussian's realizations, ``.get_epsilon_for_delta(delta)`` (the PLD kept
    for (sigma, k))."""
    _q_one(q)
    return float(_general_pld(sigma, int(k)).get_epsilon_for_delta(delta))


def general_epsilon_fresh(q: float, sigma: float, k: int, delta: float) -> float:
    """The peer's own call behind :func:`general_epsilon` (what the kept PLD must equal)."""
    from PLD_accounting import random_allocation_api as r
    return float(r.general_allocation_epsilon(delta=delta, **_general_kwargs(sigma, k)))


def general_delta_fresh(q: float, sigma: float, k: int, eps_g: float) -> float:
    from PLD_accounting import random_allocation_api as r
    return float(r.general_allocation_delta(epsilon=eps_g, **_general_kwargs(sigma, k)))


def _adaptive(sigma: float, k: int, delta: float):
    from PLD_accounting import random_allocation_api as r
    from PLD_accounting import types as t
    from PLD_accounting.adaptive_random_allocation import optimize_allocation_epsilon_range
    p = t.PrivacyParams(sigma=sigma, num_steps=1, num_selected=1, num_epochs=int(k), delta=delta)
    return optimize_allocation_epsilon_range(params=p, target_accuracy=-1.0, pld_builder=r.gaussian_allocation_pld)


def adaptive_upper(q: float, sigma: float, k: int, delta: float) -> float:
    """``optimize_allocation_epsilon_range(PrivacyParams(sigma, 1, 1, k, delta=delta), target_accuracy=-1,
    pld_builder=gaussian_allocation_pld).upper_bound`` (k-fold Gaussian; q must be 1)."""
    _q_one(q)
    return float(_adaptive(sigma, k, delta).upper_bound)


def adaptive_lower(q: float, sigma: float, k: int, delta: float) -> float:
    """The same ``optimize_allocation_epsilon_range(...)``'s ``lower_bound``."""
    _q_one(q)
    return float(_adaptive(sigma, k, delta).lower_bound)


def subsampled_gaussian_epsilon(q: float, sigma: float, k: int, delta: float) -> float:
    """``subsample_pld(pld=PrivacyLossDistribution(<the Gaussian's PMF>), sampling_probability=q)`` -- the PMF of
    ``mechanisms.gaussian_distribution(scale=sigma)`` by the package's ``linear_dist_to_dp_accounting_pmf`` --
    composed k times (``self_compose``), ``get_epsilon_for_delta`` (the composed PLD kept per (q, sigma, k))."""
    return float(_subsampled_pld(q, sigma, int(k)).get_epsilon_for_delta(delta))


@functools.lru_cache(maxsize=KEEP)
def _subsampled_pld(q: float, sigma: float, k: int):
    from PLD_accounting.dp_accounting_support import linear_dist_to_dp_accounting_pmf
    from PLD_accounting.mechanisms import gaussian_distribution
    from PLD_accounting.subsample_pld import PrivacyLossDistribution, subsample_pld
    from PLD_accounting.types import BoundType
    pmf = linear_dist_to_dp_accounting_pmf(dist=gaussian_distribution(scale=sigma), bound_type=BoundType.DOMINATES)
    out = subsample_pld(pld=PrivacyLossDistribution(pmf_remove=pmf), sampling_probability=q)
    if int(k) > 1:
        out = out.self_compose(int(k))
    return out
