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
