"""diffprivlib calls (imports only diffprivlib and the stdlib): its ``BudgetAccountant`` used as a filter."""


class BudgetFilter:
    """``BudgetAccountant(epsilon, delta, slack)``: a round may run iff ``check(eps, delta)`` passes; then it is
    ``spend``-ed."""

    def __init__(self, eps_g: float, delta_g: float, slack: float) -> None:
        from diffprivlib.accountant import BudgetAccountant
        self.acc = BudgetAccountant(epsilon=eps_g, delta=delta_g, slack=slack)

    def try_spend(self, eps: float, delta: float = 0.0) -> bool:
        from diffprivlib.utils import BudgetError
        try:
            self.acc.check(eps, delta)
        except BudgetError:
            return False
        self.acc.spend(eps, delta)
        return True


def budget_filter(eps_g: float, delta_g: float, slack: float) -> BudgetFilter:
    return BudgetFilter(eps_g, delta_g, slack)


def total_epsilon(eps: float, k: int, slack: float) -> float:
    """``BudgetAccountant(slack=slack, spent_budget=[(eps, 0)] * k).total()[0]``."""
    from diffprivlib.accountant import BudgetAccountant
    return float(BudgetAccountant(slack=slack, spent_budget=[(eps, 0.0)] * int(k)).total()[0])


def total_delta(di: float, k: int, slack: float) -> float:
    """``BudgetAccountant(slack=slack, spent_budget=[(0.1, di)] * k).total()[1]``."""
    from diffprivlib.accountant import BudgetAccountant
    return float(BudgetAccountant(slack=slack, spent_budget=[(0.1, di)] * int(k)).total()[1])


def remaining_epsilon(budget: float, eps0: float, j: int, k: int, slack: float) -> float:
    """``BudgetAccountant(epsilon=budget, delta=1, slack=slack, spent_budget=[(eps0, 0)] * j).remaining(k)[0]``: the
    eps each of k further queries may spend."""
    from diffprivlib.accountant import BudgetAccountant
    acc = BudgetAccountant(epsilon=budget, delta=1.0, slack=slack, spent_budget=[(eps0, 0.0)] * int(j))
    return float(acc.remaining(int(k))[0])


def bounded_laplace_effective_epsilon(eps: float, sensitivity: float, upper: float, lower: float = 0.0) -> float:
    """``LaplaceBoundedDomain(epsilon=eps, delta=0, sensitivity, lower, upper).effective_epsilon()``: sensitivity
    over the scale it calibrates."""
    from diffprivlib.mechanisms import LaplaceBoundedDomain
    m = LaplaceBoundedDomain(epsilon=eps, delta=0.0, sensitivity=sensitivity, lower=lower, upper=upper)
    return float(m.effective_epsilon())
