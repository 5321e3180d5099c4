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


# ------------------------------------------------------------------ the PRVs' Renyi curves

def gaussian_rdp(sigma: float, alpha: float) -> float:
    """``GaussianMechanism(noise_multiplier=sigma).rdp(alpha)``."""
    from prv_accountant.privacy_random_variables import GaussianMechanism as G
    return float(G(sigma).rdp(alpha))


def laplace_rdp(mu: float, alpha: float) -> float:
    """``LaplaceMechanism(mu).rdp(alpha)``."""
    from prv_accountant.privacy_random_variables import LaplaceMechanism
    return float(LaplaceMechanism(mu).rdp(alpha))


def subsampled_gaussian_rdp(q: float, sigma: float, alpha: float) -> float:
    """``PoissonSubsampledGaussianMechanism(sampling_probability=q, noise_multiplier=sigma).rdp(alpha)``."""
    from prv_accountant.privacy_random_variables import PoissonSubsampledGaussianMechanism
    return float(PoissonSubsampledGaussianMechanism(sampling_probability=q, noise_multiplier=sigma).rdp(alpha))


def pure_dp_rdp(eps: float, alpha: float) -> float:
    """``PureDPMechanism(eps).rdp(alpha)``."""
    from prv_accountant.privacy_random_variables import PureDPMechanism as P
    return float(P(eps).rdp(alpha))


def approximate_dp_rdp(eps: float, alpha: float) -> float:
    """``ApproximateDPMechanism(eps, 1e-6).rdp(alpha)`` (its value does not depend on delta)."""
    from prv_accountant.privacy_random_variables import ApproximateDPMechanism
    return float(ApproximateDPMechanism(eps, 1e-6).rdp(alpha))


# ------------------------------------------------------------------ DP-SGD entry points

def dpsgd_epsilon_upper(q: float, sigma: float, k: int, delta: float) -> float:
    """The upper end of ``DPSGDAccountant(sigma, q, k, delta_error=delta/1000).compute_epsilon(delta, k)`` (the
    default eps_error 0.1; delta_error as its docstring advises)."""
    from prv_accountant.dpsgd import DPSGDAccountant
    acc = DPSGDAccountant(noise_multiplier=sigma, sampling_probability=q, max_steps=int(k), delta_error=delta / 1000)
    return float(acc.compute_epsilon(delta=delta, num_steps=int(k))[2])


def legacy_epsilon_upper(q: float, sigma: float, k: int, delta: float) -> float:
    """The upper end of the deprecated ``Accountant(sigma, q, delta, k, eps_error=0.01).compute_epsilon(k)``."""
    import warnings
    from prv_accountant import Accountant
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        acc = Accountant(sigma, q, delta, int(k), eps_error=0.01)
    return float(acc.compute_epsilon(int(k))[2])


def rdp_accountant_epsilon(q: float, sigma: float, k: int, delta: float) -> float:
    """``other_accountants.RDP([PoissonSubsampledGaussianMechanism(sigma, q)]).compute_epsilon(delta, [k])``: its
    upper end (the library returns (0, eps, eps))."""
    from prv_accountant.other_accountants import RDP
    from prv_accountant.privacy_random_variables import PoissonSubsampledGaussianMechanism
    acc = RDP([PoissonSubsampledGaussianMechanism(sampling_probability=q, noise_multiplier=sigma)])
    return float(acc.compute_epsilon(delta, [int(k)])[2])


def find_noise_multiplier(eps_g: float, delta: float, q: float, k: int) -> float:
    """``dpsgd.find_noise_multiplier(q, k, eps_g - 0.1, delta, eps_error=0.1)``: the sigma it returns is documented
    (and asserted) to have an upper epsilon below target + eps_error, so asking for eps_g - eps_error makes its
    claim "(eps_g, delta)-DP after k steps"."""
    from prv_accountant.dpsgd import find_noise_multiplier as f
    return float(f(sampling_probability=q, num_steps=int(k), target_epsilon=eps_g - 0.1, target_delta=delta,
                   eps_error=0.1))
