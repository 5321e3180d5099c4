"""A minimal progress bar on stderr (no dependency); silent when stderr is not a terminal unless forced."""

from __future__ import annotations

import os
import sys
import time


class Progress:
    def __init__(self, total: int, label: str, stream=None, force: bool | None = None):
        self.total = max(1, int(total))
        self.label = label
        self.n = 0
        self.stream = stream or sys.stderr
        env = os.environ.get("DPBOUNDS_PROGRESS")
        self.enabled = force if force is not None else (env == "1" or (env != "0" and self.stream.isatty()))
        self.t0 = time.monotonic()
        self._last = 0.0

    def update(self, k: int = 1, note: str = "") -> None:
        self.n = min(self.total, self.n + k)
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last < 0.1 and self.n < self.total:
            return
        self._last = now
        frac = self.n / self.total
        bar = "#" * int(30 * frac) + "-" * (30 - int(30 * frac))
        self.stream.write(f"\r{self.label:<18} [{bar}] {self.n}/{self.total} {now - self.t0:6.1f}s {note[:30]:<30}")
        if self.n >= self.total:
            self.stream.write("\n")
        self.stream.flush()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.enabled and self.n < self.total:
            self.stream.write("\n")
        return False
