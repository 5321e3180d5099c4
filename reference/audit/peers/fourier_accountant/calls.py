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



# ------------------------------------------------------------------ the deprecated heterogeneous API (one phase)

def epsilon_R_var(q: float, sigma: float, k: int, delta: float) -> float:
    """``compute_eps_var.get_epsilon_R(sigma_t=[sigma], q_t=[q], k=[k], target_delta=delta)`` (one phase)."""
    from fourier_accountant import compute_eps_var
    return float(compute_eps_var.get_epsilon_R(sigma_t=[sigma], q_t=[q], k=[int(k)],
                                               target_delta=delta))


def epsilon_S_var(q: float, sigma: float, k: int, delta: float) -> float:
    """``compute_eps_var.get_epsilon_S(...)`` (one phase)."""
    from fourier_accountant import compute_eps_var
    return float(compute_eps_var.get_epsilon_S(sigma_t=[sigma], q_t=[q], k=[int(k)],
                                               target_delta=delta))


def delta_R_var(q: float, sigma: float, k: int, eps_g: float) -> float:
    """``compute_delta_var.get_delta_R(sigma_t=[sigma], q_t=[q], k=[k], target_eps=eps_g)`` (one phase)."""
    from fourier_accountant import compute_delta_var
    return float(compute_delta_var.get_delta_R(sigma_t=[sigma], q_t=[q], k=[int(k)],
                                               target_eps=eps_g))


def delta_S_var(q: float, sigma: float, k: int, eps_g: float) -> float:
    """``compute_delta_var.get_delta_S(...)`` (one phase)."""
    from fourier_accountant import compute_delta_var
    return float(compute_delta_var.get_delta_S(sigma_t=[sigma], q_t=[q], k=[int(k)],
                                               target_eps=eps_g))


# ------------------------------------------------------------------ the experimental exponential mechanism

def _quiet(fn, **kw) -> float:
    """Call fn with its progress prints (to stdout) discarded: stdout carries the remote protocol."""
    import contextlib
    import io
    with contextlib.redirect_stdout(io.StringIO()):
        return float(fn(**kw))


def em_delta_upper(eps_em: float, k: int, eps_g: float, m: int, n: int) -> float:
    """``experimental.exponential_mechanism.get_delta_upper(target_eps=eps_g, eps_em, ncomp=k, m=m, n=n)``."""
    from fourier_accountant.experimental import exponential_mechanism as em
    return _quiet(em.get_delta_upper, target_eps=eps_g, eps_em=eps_em, ncomp=int(k), m=int(m), n=int(n))


def em_delta_lower(eps_em: float, k: int, eps_g: float, m: int, n: int) -> float:
    """``experimental.exponential_mechanism.get_delta_lower(...)`` (same arguments)."""
    from fourier_accountant.experimental import exponential_mechanism as em
    return _quiet(em.get_delta_lower, target_eps=eps_g, eps_em=eps_em, ncomp=int(k), m=int(m), n=int(n))
