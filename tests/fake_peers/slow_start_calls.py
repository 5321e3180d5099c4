"""The peer side of tests.fake_peers.slow_start: standard library only (runs in any interpreter).  Its interpreter is
as slow to start as the environment says: ``DPBOUNDS_TEST_IMPORT_DELAY`` seconds when the module loads (a peer whose
import is slow: Spark under tmlt.core), ``DPBOUNDS_TEST_FIRST_CALL_DELAY`` seconds in each function's first call (a
lazy import inside the function); ``DPBOUNDS_TEST_CALL_DELAY`` seconds in every call of ``slow_eps``."""

import math
import os
import time

time.sleep(float(os.environ.get("DPBOUNDS_TEST_IMPORT_DELAY", "0")))
_called: set = set()


def _first(name):
    if name not in _called:
        _called.add(name)
        time.sleep(float(os.environ.get("DPBOUNDS_TEST_FIRST_CALL_DELAY", "0")))


def _bs16(rho, delta):
    v = rho + 2 * math.sqrt(rho * -math.log(delta))
    return math.nextafter(v * (1 + 1e-13), math.inf)


def eps(rho, delta):
    """BS16 Prop. 1.3, rounded up (sound)."""
    _first("eps")
    return _bs16(rho, delta)


def slow_eps(rho, delta):
    """The same, ``DPBOUNDS_TEST_CALL_DELAY`` seconds a call (a peer slower than any call cap given)."""
    time.sleep(float(os.environ.get("DPBOUNDS_TEST_CALL_DELAY", "0")))
    return _bs16(rho, delta)


def slow_above_10(rho, delta):
    """Sound, but ``DPBOUNDS_TEST_CALL_DELAY`` seconds to answer above rho = 10 (a slow corner of the domain:
    PRV's compute_epsilon at delta 1e-12)."""
    if rho > 10:
        time.sleep(float(os.environ.get("DPBOUNDS_TEST_CALL_DELAY", "0")))
    return _bs16(rho, delta)
