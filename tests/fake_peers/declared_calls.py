"""The peer side of tests.fake_peers.declared: standard library only (runs in any interpreter)."""

import math


def eps(rho, delta):
    """BS16 Prop. 1.3, rounded up -- except a planted shortcut below rho = 1e-6 (drops the sqrt term)."""
    if rho < 1e-6:
        return rho
    v = rho + 2 * math.sqrt(rho * -math.log(delta))
    return math.nextafter(v * (1 + 1e-13), math.inf)
