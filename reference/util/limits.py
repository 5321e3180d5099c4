"""A CPU-time cap for one command-line evaluation: the backstop behind the per-entry cost models.

Each spec entry whose work grows with its parameters refuses, before any work, the inputs its cost model says are
too costly (a DomainError naming the parameter, value, domain and theorem).  A model is an estimate; this cap is
the guarantee: ``dpbounds eval`` and ``dpbounds bstar`` stop after :data:`CPU_SECONDS` of process CPU time with a
one-line refusal (exit 2) instead of running on.  It uses ``ITIMER_PROF`` (process CPU time, every thread), so it
works only in the main thread of a process on a POSIX system; elsewhere it is a no-op.  A library call is not
capped (a caller's own process is not ours to interrupt); the cost models bound the API.
"""

from __future__ import annotations

import signal
import threading
from typing import Any

#: the CPU seconds one evaluation command may use (the promise is 60 s on 2 cores, start-up included)
CPU_SECONDS = 45.0


class CostLimitExceeded(Exception):
    """Raised inside the capped block when its CPU time runs out."""


class cpu_cap:  # noqa: N801 - used like a function: ``with cpu_cap(45): ...``
    """Raise :class:`CostLimitExceeded` in the block once it has used ``seconds`` of process CPU time."""

    def __init__(self, seconds: float = CPU_SECONDS) -> None:
        self.seconds = float(seconds)
        self._old: Any = None
        self._armed = False

    def __enter__(self) -> "cpu_cap":
        if (threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer")
                or not hasattr(signal, "SIGPROF")):
            return self
        if signal.getitimer(signal.ITIMER_PROF)[0] > 0:  # someone else's timer (a profiler): leave it alone
            return self

        def _raise(signum, frame):  # noqa: ARG001
            raise CostLimitExceeded(f"{self.seconds:g} CPU seconds")
        self._old = signal.signal(signal.SIGPROF, _raise)
        signal.setitimer(signal.ITIMER_PROF, self.seconds)
        self._armed = True
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._armed:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, self._old)
            self._armed = False
