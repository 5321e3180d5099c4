"""The peer side of tests.fake_peers.declared: standard library only (runs in any interpreter)."""

import math


def eps(rho, delta):
    """BS16 Prop. 1.3, rounded up -- except a planted shortcut below rho = 1e-6 (drops the sqrt term)."""
    if rho < 1e-6:
        return rho
    v = rho + 2 * math.sqrt(rho * -math.log(delta))
    return math.nextafter(v * (1 + 1e-13), math.inf)


class _ExtraRound:
    """A float basic-composition filter that checks the budget before adding the round (one round too many)."""

    def __init__(self, eps_g):
        self.budget, self.spent = eps_g, 0.0

    def try_spend(self, eps):
        if self.spent > self.budget:
            return False
        self.spent = math.nextafter(self.spent + eps, math.inf)
        return True


def extra_round_filter(eps_g):
    return _ExtraRound(eps_g)


def hang(rho, delta):
    """Never answers (a peer call that blocks): only the audit's per-unit timeout ends it."""
    import time
    time.sleep(3600)
    return rho
