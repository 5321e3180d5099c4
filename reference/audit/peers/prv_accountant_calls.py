"""prv_accountant calls for the subsampled Gaussian (imports only prv_accountant and the stdlib)."""

from prv_accountant import PRVAccountant
from prv_accountant.privacy_random_variables import PoissonSubsampledGaussianMechanism


def epsilon_upper(q: float, sigma: float, k: int, delta: float, eps_error: float = 0.01) -> float:
    """The upper end of ``PRVAccountant(PoissonSubsampledGaussianMechanism(sigma, q), k).compute_epsilon(delta,
    [k])`` (eps_error 0.01, delta_error delta/1000: the README's settings)."""
    acc = PRVAccountant(prvs=[PoissonSubsampledGaussianMechanism(noise_multiplier=sigma, sampling_probability=q)],
                        max_self_compositions=[int(k)], eps_error=eps_error, delta_error=delta / 1000)
    return float(acc.compute_epsilon(delta, [int(k)])[2])


def delta_upper(q: float, sigma: float, k: int, eps_g: float) -> float:
    acc = PRVAccountant(prvs=[PoissonSubsampledGaussianMechanism(noise_multiplier=sigma, sampling_probability=q)],
                        max_self_compositions=[int(k)], eps_error=0.01, delta_error=1e-10)
    return float(acc.compute_delta(eps_g, [int(k)])[2])
