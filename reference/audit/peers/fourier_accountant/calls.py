"""fourier-accountant calls (imports only fourier_accountant and the stdlib).  Defaults nx = 1e6, L = 20 are the
library's own."""

import fourier_accountant as fa


def epsilon_R(q: float, sigma: float, k: int, delta: float, nx: int = 1000000, L: float = 20.0) -> float:
    """``get_epsilon_R(target_delta, sigma, q, ncomp, nx, L)``: remove/add relation."""
    return float(fa.get_epsilon_R(target_delta=delta, sigma=sigma, q=q, ncomp=int(k), nx=int(nx), L=L))


def delta_R(q: float, sigma: float, k: int, eps_g: float, nx: int = 1000000, L: float = 20.0) -> float:
    return float(fa.get_delta_R(target_eps=eps_g, sigma=sigma, q=q, ncomp=int(k), nx=int(nx), L=L))


def epsilon_S(q: float, sigma: float, k: int, delta: float, nx: int = 1000000, L: float = 20.0) -> float:
    """``get_epsilon_S``: substitute relation."""
    return float(fa.get_epsilon_S(target_delta=delta, sigma=sigma, q=q, ncomp=int(k), nx=int(nx), L=L))


def delta_S(q: float, sigma: float, k: int, eps_g: float, nx: int = 1000000, L: float = 20.0) -> float:
    """``get_delta_S``: substitute relation."""
    return float(fa.get_delta_S(target_eps=eps_g, sigma=sigma, q=q, ncomp=int(k), nx=int(nx), L=L))

