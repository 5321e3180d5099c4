"""A minimal progress display on stderr (no dependency): a bar on a terminal, plain lines elsewhere.

Off a terminal (a log, CI, a pipe) it writes one line per update, at most one a second; with ``heartbeat=s`` a
helper thread also writes a "still working" line when nothing was written for s seconds, so that a long step
is never silent.  The thread only writes to the stream: no result depends on it.  ``DPBOUNDS_PROGRESS=0``
silences it, ``DPBOUNDS_PROGRESS=1`` forces it on.
"""

from __future__ import annotations

import os
import sys
import threading
import time

#: off a terminal, at most one progress line per this many seconds (the last update is always written)
LINE_INTERVAL = 1.0


class Progress:
    def __init__(self, total: int, label: str, stream=None, force: bool | None = None,
                 heartbeat: float | None = None):
        self.total = max(1, int(total))
        self.label = label
        self.n = 0
        self.stream = stream or sys.stderr
        env = os.environ.get("DPBOUNDS_PROGRESS")
        self.enabled = force if force is not None else env != "0"
        try:
            self.tty = bool(self.stream.isatty())
        except (AttributeError, ValueError):
            self.tty = False
        self.t0 = time.monotonic()
        self._last = -LINE_INTERVAL
        self._note = ""
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._beat = None
        if self.enabled and heartbeat:
            self._beat = threading.Thread(target=self._heartbeat, args=(float(heartbeat),), daemon=True)
            self._beat.start()

    def _heartbeat(self, every: float) -> None:
        while not self._stop.wait(every / 4):
            with self._lock:
                now = time.monotonic()
                if now - self._last >= every:
                    self._write(now, f"{self._note} (still working)" if self._note else "still working")

    def update(self, k: int = 1, note: str = "") -> None:
        """Advance by k steps (k = 0: only show ``note``, e.g. a sub-step of a long step)."""
        self.n = min(self.total, self.n + k)
        if not self.enabled:
            return
        with self._lock:
            self._note = note
            now = time.monotonic()
            if now - self._last < (0.1 if self.tty else LINE_INTERVAL) and self.n < self.total:
                return
            self._write(now, note)

    def _write(self, now: float, note: str) -> None:
        self._last = now
        if self.tty:
            frac = self.n / self.total
            bar = "#" * int(30 * frac) + "-" * (30 - int(30 * frac))
            self.stream.write(f"\r{self.label:<18} [{bar}] {self.n}/{self.total} {now - self.t0:6.1f}s "
                              f"{note[:30]:<30}")
            if self.n >= self.total:
                self.stream.write("\n")
        else:
            self.stream.write(f"{self.label}: {self.n}/{self.total} {now - self.t0:.1f}s {note}".rstrip() + "\n")
        self.stream.flush()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._stop.set()
        if self._beat is not None:
            self._beat.join()
        if self.enabled and self.tty and self.n < self.total:
            self.stream.write("\n")
        return False
