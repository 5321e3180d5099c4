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
    _grid_limit(_subsampled(q, sigma), k, eps_error, delta / 1000)  # (delta_error depends on delta: none is kept)
    acc = PRVAccountant(prvs=[_subsampled(q, sigma)], max_self_compositions=[int(k)], eps_error=eps_error,
                        delta_error=delta / 1000)
    return float(acc.compute_epsilon(delta, [int(k)])[2])


class DomainLimit(ValueError):
    """An input this wrapper declares it does not run (a declared domain limit, not a peer error)."""


#: the largest PRV grid (points) a call is made with: PRVAccountant discretizes on 2 L / mesh points (L from
#: ``compute_safe_domain_size``, Remark 5.6; mesh = eps_error / sqrt(k/2 log(12 / delta_error)), Thm 5.5 of Gopi,
#: Lee, Wutschitz 2021, arXiv:2106.02848v2), and beyond 2^21 points one call takes more than 5 s and hundreds of MB
#: here (q 1, sigma 2, k 1000: 5.4e6 points at delta_error 1e-10, 20 s; 1e7 at delta 1e-12 with delta_error
#: delta / 1000): such a point is a declared limit of this wrapper (skipped and counted, never judged)
MAX_GRID = 2 ** 21


def _grid_limit(prv, k: int, eps_error: float, delta_error: float) -> None:
    """DomainLimit when PRVAccountant's grid for these arguments exceeds :data:`MAX_GRID` points."""
    import math
    from prv_accountant.accountant import compute_safe_domain_size
    L = compute_safe_domain_size([prv], [int(k)], eps_error=eps_error, delta_error=delta_error)
    n = 2 * L / (eps_error / math.sqrt(int(k) / 2 * math.log(12 / delta_error)))
    if n > MAX_GRID:
        raise DomainLimit(f"PRVAccountant's grid would have {n:.3g} points (> {MAX_GRID}: a declared limit of the "
                          "audit's wrapper, for time and memory)")


def _subsampled(q: float, sigma: float):
    from prv_accountant.privacy_random_variables import PoissonSubsampledGaussianMechanism
    return PoissonSubsampledGaussianMechanism(noise_multiplier=sigma, sampling_probability=q)


_KEPT: dict = {}


def _kept_accountant(q: float, sigma: float, k: int, eps_error: float, delta_error: float):
    """``PRVAccountant(prvs=[PoissonSubsampledGaussianMechanism(sigma, q)], max_self_compositions=[k], eps_error,
    delta_error)``, kept for the last (q, sigma, k, eps_error, delta_error) asked, with its ``compute_composition``
    kept for the last number of steps (it is a function of its argument: the composed PRV that compute_delta /
    compute_epsilon read eps or delta off); the accountant's own methods run on every call."""
    key = (q, sigma, int(k), eps_error, delta_error)
    acc = _KEPT.get(key)
    if acc is None:
        prv = _subsampled(q, sigma)
        _grid_limit(prv, k, eps_error, delta_error)
        acc = PRVAccountant(prvs=[prv], max_self_compositions=[int(k)], eps_error=eps_error, delta_error=delta_error)
        compose, last = acc.compute_composition, {}

        def compute_composition(num_self_compositions):
            n = repr(num_self_compositions)
            if n not in last:
                last.clear()
                last[n] = compose(num_self_compositions)
            return last[n]
        acc.compute_composition = compute_composition
        _KEPT.clear()
        _KEPT[key] = acc
    return acc


def delta_upper(q: float, sigma: float, k: int, eps_g: float) -> float:
    """The upper end of ``compute_delta(eps_g, [k])`` of k Poisson-subsampled Gaussian steps (eps_error 0.01,
    delta_error 1e-10: one accountant and one composition per (q, sigma, k), :func:`_kept_accountant`)."""
    return float(_kept_accountant(q, sigma, k, 0.01, 1e-10).compute_delta(eps_g, [int(k)])[2])


def delta_upper_fresh(q: float, sigma: float, k: int, eps_g: float) -> float:
    """:func:`delta_upper` on a fresh accountant (what the kept one must equal)."""
    acc = PRVAccountant(prvs=[_subsampled(q, sigma)], max_self_compositions=[int(k)], eps_error=0.01,
                        delta_error=1e-10)
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
    _grid_limit(_subsampled(q, sigma), k, 0.1, delta / 1000)
    acc = DPSGDAccountant(noise_multiplier=sigma, sampling_probability=q, max_steps=int(k), delta_error=delta / 1000)
    return float(acc.compute_epsilon(delta=delta, num_steps=int(k))[2])


def legacy_epsilon_upper(q: float, sigma: float, k: int, delta: float) -> float:
    """The upper end of the deprecated ``Accountant(sigma, q, delta, k, eps_error=0.01).compute_epsilon(k)``."""
    import warnings
    from prv_accountant import Accountant
    _grid_limit(_subsampled(q, sigma), k, 0.01, delta / 1000)
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
