"""The peer side of tests.fake_peers.declared: standard library only (runs in any interpreter)."""

import math


def eps(rho, delta):
    """BS16 Prop. 1.3, rounded up -- except a planted shortcut below rho = 1e-6 (drops the sqrt term)."""
    if rho < 1e-6:
        return rho
    v = rho + 2 * math.sqrt(rho * -math.log(delta))
    return math.nextafter(v * (1 + 1e-13), math.inf)


eps_again = eps_once_more = eps  # the same function under other names: three calls, three peer interpreters


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


def slow_above_10(rho, delta):
    """BS16 Prop. 1.3 rounded up (sound), but 3 s to answer above rho = 10 (a slow corner of a domain)."""
    if rho > 10:
        import time
        time.sleep(3)
    v = rho + 2 * math.sqrt(rho * -math.log(delta))
    return math.nextafter(v * (1 + 1e-13), math.inf)


def slow_above_10_planted(rho, delta):
    """slow_above_10 with the planted shortcut of eps below rho = 1e-6."""
    return rho if rho < 1e-6 else slow_above_10(rho, delta)


class _Recording:
    """A sound float filter (basic composition, sum rounded up) that records the longest stream it was fed."""

    longest = [0]

    def __init__(self, eps_g):
        self.budget, self.spent, self.n = eps_g, 0.0, 0

    def try_spend(self, eps):
        s = math.nextafter(self.spent + eps, math.inf)
        if s > self.budget:
            return False
        self.spent, self.n = s, self.n + 1
        _Recording.longest[0] = max(_Recording.longest[0], self.n)
        return True


def recording_filter(eps_g):
    return _Recording(eps_g)
