"""Filter/odometer state files: bounded, strictly validated reading, an exclusive lock while in use, no stale temps.

* :func:`read_state_file` -> the JSON object of a state file, or a one-line :class:`DomainError` for anything that is
  not a small UTF-8 JSON object of bounded nesting with short integers (never RecursionError, UnicodeDecodeError,
  ValueError or OverflowError; a device or FIFO is refused before it is read).
* :class:`StateLock` -- ``fcntl.flock`` (exclusive, non-blocking) on the sidecar ``FILE.lock`` for as long as a
  filter writes FILE: a second process (or a second filter in this process) on the same state is refused with a
  clear error instead of both spending from the same budget and one overwriting the other's rounds.  Holding the
  lock, it removes the ``.FILE.*.tmp`` files that :func:`dpbounds.util.io.atomic_write_bytes` leaves when a writer
  is killed between creating its temp file and renaming it (no live writer can own them: writers hold the lock).
* :func:`exact_int` -> a decimal integer string of bounded length as int.

The lock is advisory: it binds dpbounds processes, not other programs writing the file.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from dpbounds.spec import DomainError

#: a state file is a few KiB (one exact sum per aggregate); anything much larger is not one of ours
MAX_STATE_BYTES = 1 << 20
#: digits of one integer in a state file (exact sums of decimal inputs stay far below; Python's own limit is 4300)
MAX_INT_DIGITS = 4000
#: JSON nesting depth of a state file (ours is 3)
MAX_DEPTH = 8
_WHERE = "dpbounds.accounting.statefile"


def _bad(path, reason: str, kind: str = "state") -> DomainError:
    return DomainError("state", str(path), f"a {kind} state file written by dpbounds", _WHERE, reason)


def exact_int(s: Any, what: str = "integer") -> int:
    """``s`` (a str of decimal digits with an optional sign, or an int) as int; ValueError if longer than
    MAX_INT_DIGITS or not an integer (bool is not one)."""
    if isinstance(s, bool):
        raise ValueError(f"{what} is a boolean")
    if isinstance(s, int):
        return s
    if not isinstance(s, str):
        raise ValueError(f"{what} is not an integer")
    t = s.strip()
    if len(t.lstrip("+-")) > MAX_INT_DIGITS:
        raise ValueError(f"{what} has more than {MAX_INT_DIGITS} digits")
    if not t.lstrip("+-").isdigit() or not t.isascii():
        raise ValueError(f"{what} {s[:40]!r} is not a decimal integer")
    return int(t)


def _depth(obj: Any, limit: int) -> int:
    stack = [(obj, 1)]
    deepest = 0
    while stack:
        o, d = stack.pop()
        deepest = max(deepest, d)
        if deepest > limit:
            return deepest
        if isinstance(o, dict):
            stack.extend((v, d + 1) for v in o.values())
        elif isinstance(o, list):
            stack.extend((v, d + 1) for v in o)
    return deepest


def _parse_int(s: str) -> int:
    if len(s.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"an integer with {len(s)} digits (at most {MAX_INT_DIGITS})")
    return int(s)


def _parse_float(s: str) -> float:
    if len(s) > 40:
        raise ValueError(f"a JSON number of {len(s)} characters")
    v = float(s)
    if v != v or v in (float("inf"), float("-inf")):
        raise ValueError(f"a JSON number {s!r} out of range")
    return v


def _parse_constant(s: str) -> Any:
    raise ValueError(f"{s} (not JSON)")


def read_state_file(path, kind: str = "filter") -> dict:
    """The JSON object stored in the state file at ``path`` (validated for size, encoding and shape only)."""
    path = Path(path)
    try:
        st = os.stat(path)
    except OSError as e:
        raise _bad(path, e.strerror or str(e), kind) from None
    if not stat.S_ISREG(st.st_mode):
        raise _bad(path, "not a regular file", kind)
    if st.st_size > MAX_STATE_BYTES:
        raise _bad(path, f"{st.st_size} bytes (a state file has at most {MAX_STATE_BYTES})", kind)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # swapped since the stat above
                raise _bad(path, "not a regular file", kind)
            raw = f.read(MAX_STATE_BYTES + 1)
    except OSError as e:
        raise _bad(path, e.strerror or str(e), kind) from None
    if len(raw) > MAX_STATE_BYTES:
        raise _bad(path, f"more than {MAX_STATE_BYTES} bytes", kind)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise _bad(path, f"not UTF-8 text (byte {e.start})", kind) from None
    # nesting is bounded before json recurses: count brackets (strings cannot hide more than they add)
    depth = best = 0
    for ch in text:
        if ch in "[{":
            depth += 1
            if depth > best:
                best = depth
                if best > MAX_DEPTH:
                    raise _bad(path, f"JSON nested deeper than {MAX_DEPTH}", kind)
        elif ch in "]}":
            depth -= 1
    try:
        obj = json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)
    except (ValueError, RecursionError) as e:  # JSONDecodeError is a ValueError
        raise _bad(path, f"not valid: {str(e)[:120]}", kind) from None
    if not isinstance(obj, dict):
        raise _bad(path, "not a JSON object", kind)
    if _depth(obj, MAX_DEPTH) > MAX_DEPTH:
        raise _bad(path, f"JSON nested deeper than {MAX_DEPTH}", kind)
    return obj


class StateLock:
    """An exclusive advisory lock on ``FILE.lock`` (fcntl.flock, non-blocking) held until :meth:`release` or until
    the process ends (the kernel drops it even on SIGKILL).  Refuses with a one-line DomainError when held."""

    def __init__(self, path) -> None:
        import fcntl

        self.path = Path(path)
        self.lock_path = self.path.with_name(self.path.name + ".lock")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
        except OSError as e:
            raise DomainError("state", str(path), "a state file whose lock file can be created", _WHERE,
                              f"{self.lock_path}: {e.strerror or e}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise DomainError("state", str(path), "a state file no other filter is using", _WHERE,
                              f"locked by another process or filter ({self.lock_path}); wait for it to finish")
        self._fd: int | None = fd
        self._remove_stale_temps()

    def _remove_stale_temps(self) -> None:
        # atomic_write_bytes names its temps ".NAME.<random>.tmp" beside NAME; under our lock none is live
        prefix = f".{self.path.name}."
        try:
            names = os.listdir(self.path.parent)
        except OSError:
            return
        for n in names:
            if n.startswith(prefix) and n.endswith(".tmp") and len(n) <= len(prefix) + 40:
                p = self.path.parent / n
                try:
                    if stat.S_ISREG(os.lstat(p).st_mode):
                        os.unlink(p)
                except OSError:
                    pass

    def release(self) -> None:
        """Drop the lock (idempotent)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __del__(self) -> None:
        try:
            self.release()
        except Exception:
            pass
