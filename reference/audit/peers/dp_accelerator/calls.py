"""dp-accelerator calls (imports only dp_accelerator and the stdlib)."""

import dp_accelerator
from dp_accelerator import _core


def _orders():
    return dp_accelerator.DPSGDAccountant(1.0, 1, 1).orders


def epsilon(q: float, sigma: float, k: int, delta: float) -> float:
    """``compute_epsilon_batch(q, sigma, [k], DPSGDAccountant.orders, delta)[0]`` (what ``get_epsilon`` runs)."""
    return float(_core.compute_epsilon_batch(q, sigma, [int(k)], _orders(), delta)[0])


def epsilon_at_order(q: float, sigma: float, k: int, alpha: float, delta: float) -> float:
    """``compute_epsilon_batch`` with the single order alpha: its RDP at alpha pushed through its conversion."""
    return float(_core.compute_epsilon_batch(q, sigma, [int(k)], [float(alpha)], delta)[0])


def rdp_curve(q: float, sigma: float, alpha: float) -> float:
    """``DPSGDAccountant(sigma, batch_size, dataset_size).get_rdp_curve(steps=1)[alpha]`` with q = batch_size /
    dataset_size (dataset 10**6, so q a multiple of 1e-6) at one of its orders (``alpha`` must be one)."""
    n = 10 ** 6
    b = round(q * n)
    if b < 1 or abs(b / n - q) > 1e-15 * max(q, 1e-300):
        raise ValueError(f"q={q!r} is not batch_size / 10**6 for an integer batch_size")
    curve = dp_accelerator.DPSGDAccountant(sigma, b, n).get_rdp_curve(steps=1)
    if alpha not in curve:
        raise ValueError(f"alpha={alpha!r} is not one of DPSGDAccountant's orders")
    return float(curve[alpha])


_N = 10 ** 6


def _batch(q: float) -> int:
    """The batch size b with b / 10**6 == q (the public API takes batch and dataset sizes, not q)."""
    b = round(q * _N)
    if b < 1 or b / _N != q:
        raise DomainLimit(f"q={q!r} is not batch_size / 10**6 for an integer batch_size")
    return b


def epsilon_batch(q: float, sigma: float, k: int, delta: float) -> float:
    """``DPSGDAccountant(sigma, b, 10**6).get_epsilon_batch([k], delta)[0]`` with q = b / 10**6."""
    return float(dp_accelerator.DPSGDAccountant(sigma, _batch(q), _N).get_epsilon_batch([int(k)], delta)[0])


def jax_privacy_epsilon(q: float, sigma: float, k: int, delta: float) -> float:
    """``dp_accelerator.jax_privacy.compute_epsilon(sigma, b, 10**6, k, delta)`` with q = b / 10**6."""
    from dp_accelerator import jax_privacy
    return float(jax_privacy.compute_epsilon(sigma, _batch(q), _N, int(k), delta))


def jax_privacy_rdp_curve(q: float, sigma: float, k: int, alpha: float) -> float:
    """``dp_accelerator.jax_privacy.compute_rdp_curve(sigma, b, 10**6, k)[alpha]``: the RDP of k steps at one of
    its orders."""
    from dp_accelerator import jax_privacy
    curve = jax_privacy.compute_rdp_curve(sigma, _batch(q), _N, int(k))
    if alpha not in curve:
        raise ValueError(f"alpha={alpha!r} is not one of DPSGDAccountant's orders")
    return float(curve[alpha])


class DomainLimit(ValueError):
    """A point the wrapper cannot express (skipped by the audit, never charged to the peer)."""
