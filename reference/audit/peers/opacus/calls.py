"""Opacus calls (imports only opacus, its numpy/scipy and the stdlib).

Opacus' package ``__init__`` imports torch, but its accountants' analysis code does not need it: when torch is
absent, ``_opacus()`` registers an empty ``opacus`` package (its real path, so submodules load from the installed
wheel) and a stub ``opacus.optimizers`` (only the name ``DPOptimizer`` is imported, for a type hint), then imports
``opacus.accountants``.  Install: ``pip install --no-deps opacus==1.6.0 numpy scipy``.  With torch installed
(``pip install torch==2.13.0`` takes the CPU wheel on disk) the real package is imported instead."""

import importlib
import importlib.util
import sys
import types


def _opacus():
    if "opacus.accountants" in sys.modules:
        return sys.modules["opacus.accountants"]
    if importlib.util.find_spec("torch") is None and "opacus" not in sys.modules:
        spec = importlib.util.find_spec("opacus")
        pkg = types.ModuleType("opacus")
        pkg.__path__ = list(spec.submodule_search_locations)
        pkg.__spec__ = spec
        sys.modules["opacus"] = pkg
        opt = types.ModuleType("opacus.optimizers")
        opt.DPOptimizer = object
        sys.modules["opacus.optimizers"] = opt
    return importlib.import_module("opacus.accountants")


def _rdp():
    _opacus()
    return importlib.import_module("opacus.accountants.analysis.rdp")


def compute_rdp(q: float, sigma: float, alpha: float, k: int = 1) -> float:
    """``opacus.accountants.analysis.rdp.compute_rdp(q=q, noise_multiplier=sigma, steps=k, orders=[alpha])``."""
    return float(_rdp().compute_rdp(q=q, noise_multiplier=sigma, steps=int(k), orders=[alpha])[0])


def get_privacy_spent(alpha: float, R: float, delta: float) -> float:
    """``get_privacy_spent(orders=[alpha], rdp=[R], delta=delta)[0]``: epsilon from one RDP point."""
    return float(_rdp().get_privacy_spent(orders=[alpha], rdp=[R], delta=delta)[0])


def rdp_epsilon(q: float, sigma: float, k: int, delta: float) -> float:
    """``RDPAccountant`` stepped k times, ``get_epsilon(delta)`` (its default orders)."""
    acc = _opacus().RDPAccountant()
    acc.history = [(sigma, q, int(k))]
    return float(acc.get_epsilon(delta=delta))


def prv_epsilon(q: float, sigma: float, k: int, delta: float) -> float:
    """``PRVAccountant`` with history [(sigma, q, k)], ``get_epsilon(delta)`` (its eps_upper)."""
    acc = _opacus().PRVAccountant()
    acc.history = [(sigma, q, int(k))]
    return float(acc.get_epsilon(delta=delta))


def gdp_epsilon(q: float, sigma: float, k: int, delta: float) -> float:
    """``GaussianAccountant`` (the GDP CLT of Bu et al., Poisson) stepped k times, ``get_epsilon(delta)``."""
    acc = _opacus().GaussianAccountant()
    acc.history = [(sigma, q, int(k))]
    return float(acc.get_epsilon(delta=delta))


def gdp_mu_poisson(q: float, sigma: float, k: int) -> float:
    """``analysis.gdp.compute_mu_poisson``: the CLT's mu."""
    _opacus()
    g = importlib.import_module("opacus.accountants.analysis.gdp")
    return float(g.compute_mu_poisson(steps=int(k), noise_multiplier=sigma, sample_rate=q))


def noise_for_epsilon(q: float, k: int, eps: float, delta: float) -> float:
    """``opacus.accountants.utils.get_noise_multiplier(target_epsilon, target_delta, sample_rate, steps,
    accountant='rdp')``: the sigma Opacus calibrates."""
    _opacus()
    u = importlib.import_module("opacus.accountants.utils")
    return float(u.get_noise_multiplier(target_epsilon=eps, target_delta=delta, sample_rate=q, steps=int(k),
                                        accountant="rdp"))


def get_noise_multiplier(eps_g: float, delta: float, q: float, k: int, accountant: str = "rdp") -> float:
    """``opacus.accountants.utils.get_noise_multiplier(target_epsilon=eps_g, target_delta=delta, sample_rate=q,
    steps=k, accountant=accountant)`` (its default epsilon_tolerance 0.01)."""
    _opacus()
    u = importlib.import_module("opacus.accountants.utils")
    return float(u.get_noise_multiplier(target_epsilon=eps_g, target_delta=delta, sample_rate=q, steps=int(k),
                                        accountant=accountant))


def get_noise_multiplier_prv(eps_g: float, delta: float, q: float, k: int) -> float:
    return get_noise_multiplier(eps_g, delta, q, k, "prv")


def _gdp():
    _opacus()
    return importlib.import_module("opacus.accountants.analysis.gdp")


def gdp_mu_uniform(q: float, sigma: float, k: int) -> float:
    """``analysis.gdp.compute_mu_uniform``: the CLT's mu for uniformly subsampled batches."""
    return float(_gdp().compute_mu_uniform(steps=int(k), noise_multiplier=sigma, sample_rate=q))


def gdp_eps_poisson(q: float, sigma: float, k: int, delta: float) -> float:
    """``analysis.gdp.compute_eps_poisson``."""
    return float(_gdp().compute_eps_poisson(steps=int(k), noise_multiplier=sigma, sample_rate=q, delta=delta))


def gdp_eps_uniform(q: float, sigma: float, k: int, delta: float) -> float:
    """``analysis.gdp.compute_eps_uniform``."""
    return float(_gdp().compute_eps_uniform(steps=int(k), noise_multiplier=sigma, sample_rate=q, delta=delta))


def gdp_delta_eps_mu(mu: float, eps_g: float) -> float:
    """``analysis.gdp.delta_eps_mu(eps=eps_g, mu=mu)``: delta of mu-GDP at eps_g."""
    return float(_gdp().delta_eps_mu(eps=eps_g, mu=mu))


def gdp_eps_from_mu(mu: float, delta: float) -> float:
    """``analysis.gdp.eps_from_mu(mu=mu, delta=delta)``."""
    return float(_gdp().eps_from_mu(mu=mu, delta=delta))


def prv_rdp(q: float, sigma: float, alpha: float) -> float:
    """``analysis.prv.prvs.PoissonSubsampledGaussianPRV(q, sigma).rdp(alpha)``."""
    _opacus()
    m = importlib.import_module("opacus.accountants.analysis.prv.prvs")
    return float(m.PoissonSubsampledGaussianPRV(sample_rate=q, noise_multiplier=sigma).rdp(alpha))


def rdp_privacy_spent(q: float, sigma: float, k: int, delta: float) -> float:
    """``RDPAccountant`` stepped k times, ``get_privacy_spent(delta=delta)[0]`` (its default orders)."""
    acc = _opacus().RDPAccountant()
    acc.history = [(sigma, q, int(k))]
    return float(acc.get_privacy_spent(delta=delta)[0])
