"""prv_accountant's side of its audit: imports only prv_accountant and the standard library.  Each call returns the
UPPER end of the (lower, estimate, upper) the accountant returns: its privacy claim."""

try:
    from prv_accountant import PRVAccountant
    from prv_accountant.privacy_random_variables import GaussianMechanism, PureDPMechanism
except ImportError:  # prv-accountant 0.1 (its Accountant class only: epsilon_upper runs)
    PRVAccountant = GaussianMechanism = PureDPMechanism = None

EPS_ERROR, DELTA_ERROR = 0.01, 1e-10


def _acc(prvs, ks):
    return PRVAccountant(prvs=prvs, max_self_compositions=ks, eps_error=EPS_ERROR, delta_error=DELTA_ERROR)


def gaussian_eps(noise_multiplier, k, delta):
    """compute_epsilon(delta) of k Gaussian mechanisms: the upper end."""
    return float(_acc([GaussianMechanism(noise_multiplier)], [k]).compute_epsilon(delta, [k])[2])


def gaussian_delta(noise_multiplier, k, eps):
    """compute_delta(eps) of k Gaussian mechanisms: the upper end."""
    return float(_acc([GaussianMechanism(noise_multiplier)], [k]).compute_delta(eps, [k])[2])


def heterogeneous_eps(s1, k1, s2, k2, delta):
    """compute_epsilon(delta) of k1 + k2 Gaussian mechanisms of two noise multipliers: the upper end."""
    return float(_acc([GaussianMechanism(s1), GaussianMechanism(s2)], [k1, k2]).compute_epsilon(delta, [k1, k2])[2])


def pure_delta(eps, k, eps_g):
    """compute_delta(eps_g) of k pure eps-DP mechanisms: the upper end."""
    return float(_acc([PureDPMechanism(eps)], [k]).compute_delta(eps_g, [k])[2])


# ------------------------------------------------------------------ the Poisson-subsampled Gaussian (DP-SGD)

def epsilon_upper(q: float, sigma: float, k: int, delta: float, eps_error: float = 0.01) -> float:
    """The upper end of ``PRVAccountant(PoissonSubsampledGaussianMechanism(sigma, q), k).compute_epsilon(delta,
    [k])`` (eps_error 0.01, delta_error delta/1000: the README's settings)."""
    if PRVAccountant is None:  # prv-accountant 0.1: Accountant(sigma, q, delta, max_compositions, eps_error)
        from prv_accountant import Accountant
        return float(Accountant(sigma, q, delta, int(k), eps_error=eps_error).compute_epsilon(int(k))[2])
    from prv_accountant.privacy_random_variables import PoissonSubsampledGaussianMechanism
    acc = PRVAccountant(prvs=[PoissonSubsampledGaussianMechanism(noise_multiplier=sigma, sampling_probability=q)],
                        max_self_compositions=[int(k)], eps_error=eps_error, delta_error=delta / 1000)
    return float(acc.compute_epsilon(delta, [int(k)])[2])


def delta_upper(q: float, sigma: float, k: int, eps_g: float) -> float:
    """The upper end of ``compute_delta(eps_g, [k])`` of k Poisson-subsampled Gaussian steps."""
    from prv_accountant.privacy_random_variables import PoissonSubsampledGaussianMechanism
    acc = PRVAccountant(prvs=[PoissonSubsampledGaussianMechanism(noise_multiplier=sigma, sampling_probability=q)],
                        max_self_compositions=[int(k)], eps_error=0.01, delta_error=1e-10)
    return float(acc.compute_delta(eps_g, [int(k)])[2])
