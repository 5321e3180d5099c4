"""diffpriv-pure calls (imports only diffpriv_pure and the stdlib)."""

import diffpriv_pure as dp


def gaussian_sigma(sensitivity: float, eps: float, delta: float) -> float:
    """The sigma ``gaussian_sigma`` calibrates for (epsilon, delta)-DP (what ``private_sum``/``private_mean`` use)."""
    return dp.gaussian_sigma(sensitivity, eps, delta)


def advanced_composition_eps(n: int, ei: float, di: float) -> float:
    """The epsilon ``PrivacyBudget.advanced_composition(n, ei, di)`` claims for n-fold (ei, di)-DP, its delta being
    ``advanced_composition_delta``."""
    return dp.PrivacyBudget(1.0, 0.5).advanced_composition(int(n), ei, di)[0]


def advanced_composition_delta(n: int, ei: float, di: float) -> float:
    return dp.PrivacyBudget(1.0, 0.5).advanced_composition(int(n), ei, di)[1]


def basic_composition_eps(n: int, ei: float, di: float = 0.0) -> float:
    return dp.PrivacyBudget(1.0, 0.5).basic_composition(int(n), ei, di)[0]


class _Filter:
    def __init__(self, total_epsilon: float, total_delta: float = 0.0) -> None:
        self.b = dp.PrivacyBudget(total_epsilon, total_delta)

    def try_spend(self, eps: float, delta: float = 0.0) -> bool:
        try:
            self.b.spend(eps, delta)
            return True
        except dp.PrivacyBudgetExhausted:
            return False


def budget(total_epsilon: float, total_delta: float = 0.0) -> _Filter:
    """``PrivacyBudget(total_epsilon, total_delta)`` as a filter: ``try_spend`` is ``spend`` that reports refusal."""
    return _Filter(total_epsilon, total_delta)


def pure_filter(eps_g: float) -> _Filter:
    """``PrivacyBudget(total_epsilon=eps_g, total_delta=0)``: the budget under the reference filter's name."""
    return _Filter(eps_g, 0.0)


def _spent(total_epsilon, total_delta, ei, di, n):
    if int(n) * ei > total_epsilon or int(n) * di > total_delta:
        raise DomainLimit("n spends of (ei, di) exceed the budget: not a remaining-budget point")
    b = dp.PrivacyBudget(total_epsilon, total_delta)
    for _ in range(int(n)):
        b.spend(ei, di)
    return b


def remaining_epsilon(total_epsilon: float, ei: float, n: int) -> float:
    """``PrivacyBudget(total_epsilon)`` after n spends of ei: ``remaining_epsilon``."""
    return float(_spent(total_epsilon, 0.0, ei, 0.0, n).remaining_epsilon)


def remaining_delta(total_delta: float, di: float, n: int) -> float:
    """``PrivacyBudget(1.0, total_delta)`` after n spends of (1e-9, di): ``remaining_delta``."""
    return float(_spent(1.0, total_delta, 1e-9, di, n).remaining_delta)


class DomainLimit(ValueError):
    """A point the wrapper cannot express (skipped by the audit, never charged to the peer)."""
