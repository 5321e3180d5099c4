"""prv_accountant's side of its audit: imports only prv_accountant and the standard library.  Each call returns the
UPPER end of the (lower, estimate, upper) the accountant returns: its privacy claim."""

from prv_accountant import PRVAccountant
from prv_accountant.privacy_random_variables import GaussianMechanism, PureDPMechanism

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
