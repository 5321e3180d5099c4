"""jax_privacy accounting calls (imports only jax_privacy and the stdlib).  DP-SGD with Poisson sampling at
q = batch_size/num_samples; num_samples = 10**6 so that q is exact for the audited q (multiples of 1e-6)."""

from jax_privacy import accounting as A

N = 10**6


def _params(q: float, sigma: float, delta: float):
    b = round(q * N)
    if b <= 0 or abs(b - q * N) > 1e-9 * N:
        raise ValueError(f"q = {q} is not a multiple of 1/{N}")
    return A.DpParams(noise_multipliers=sigma, num_samples=N, delta=delta, batch_size=b)


def rdp_epsilon(q: float, sigma: float, k: int, delta: float) -> float:
    """``DpsgdTrainingAccountant(RdpAccountantConfig()).compute_epsilon(k, DpParams(...))``."""
    acc = A.DpsgdTrainingAccountant(A.RdpAccountantConfig())
    return float(acc.compute_epsilon(int(k), _params(q, sigma, delta)))


def pld_epsilon(q: float, sigma: float, k: int, delta: float) -> float:
    """``DpsgdTrainingAccountant(PldAccountantConfig()).compute_epsilon(k, DpParams(...))``."""
    acc = A.DpsgdTrainingAccountant(A.PldAccountantConfig())
    return float(acc.compute_epsilon(int(k), _params(q, sigma, delta)))


def calibrate_noise(q: float, k: int, eps: float, delta: float) -> float:
    """``calibrate_noise_multiplier(target_epsilon, accountant=RDP, batch_sizes, num_updates, num_samples,
    target_delta)``: the sigma jax_privacy calibrates."""
    b = round(q * N)
    return float(A.calibrate_noise_multiplier(
        target_epsilon=eps, accountant=A.DpsgdTrainingAccountant(A.RdpAccountantConfig()), batch_sizes=b,
        num_updates=int(k), num_samples=N, target_delta=delta))
