"""PyDP (python-dp) calls (imports only pydp and the stdlib)."""

from pydp.algorithms import numerical_mechanisms as nm
from pydp.ml.util.accountant import BudgetAccountant


def gaussian_std(sensitivity: float, eps: float, delta: float) -> float:
    """``GaussianMechanism(epsilon, delta, sensitivity).std``: the sigma Google's C++ library calibrates."""
    return float(nm.GaussianMechanism(epsilon=eps, delta=delta, sensitivity=sensitivity).std)


def laplace_diversity(sensitivity: float, eps: float) -> float:
    """``LaplaceMechanism(epsilon, sensitivity).diversity``: the Laplace scale b (eps-DP needs b >= sens/eps)."""
    return float(nm.LaplaceMechanism(epsilon=eps, sensitivity=sensitivity).diversity)


def total_epsilon(eps: float, k: int, slack: float) -> float:
    """``BudgetAccountant(slack=slack, spent_budget=[(eps, 0)] * k).total()[0]`` (KOV15 Thm 3.5 as in
    diffprivlib)."""
    acc = BudgetAccountant(slack=slack, spent_budget=[(eps, 0.0)] * int(k))
    return float(acc.total()[0])


class _Filter:
    def __init__(self, epsilon: float, delta: float = 1.0, slack: float = 0.0) -> None:
        self.acc = BudgetAccountant(epsilon=epsilon, delta=delta, slack=slack)

    def try_spend(self, eps: float, delta: float = 0.0) -> bool:
        try:
            self.acc.spend(eps, delta)
            return True
        except Exception:  # noqa: BLE001  (pydp raises BudgetError)
            return False


def budget(epsilon: float, delta: float = 1.0, slack: float = 0.0) -> _Filter:
    """``BudgetAccountant(epsilon, delta, slack)`` as a filter: ``try_spend`` is ``spend`` that reports refusal."""
    return _Filter(epsilon, delta, slack)


def pure_filter(eps_g: float) -> _Filter:
    """``BudgetAccountant(epsilon=eps_g, delta=1, slack=0)``, spends of (eps, 0): basic composition of pure DP."""
    return _Filter(eps_g, 1.0, 0.0)


def remaining_epsilon(budget: float, eps0: float, j: int, k: int, slack: float) -> float:
    """``BudgetAccountant(epsilon=budget, delta=1, slack=slack, spent_budget=[(eps0, 0)] * j).remaining(k)[0]``: the
    eps each of k further queries may spend."""
    acc = BudgetAccountant(epsilon=budget, delta=1.0, slack=slack, spent_budget=[(eps0, 0.0)] * int(j))
    return float(acc.remaining(int(k))[0])


def bounded_laplace_effective_epsilon(eps: float, sensitivity: float, upper: float, lower: float = 0.0) -> float:
    """``LaplaceBoundedDomain().set_epsilon(eps).set_sensitivity(sensitivity).set_bounds(lower, upper)
    .get_effective_epsilon()`` (delta 0): sensitivity over the scale it calibrates."""
    from pydp.ml.mechanisms.laplace import LaplaceBoundedDomain
    m = LaplaceBoundedDomain().set_epsilon(eps).set_sensitivity(sensitivity).set_bounds(lower, upper)
    return float(m.get_effective_epsilon())
