"""Filter/odometer state files: bounded, strictly validated reading, one writer at a time, no stray files.

* :func:`read_state_file` -> the JSON object of a state file, or a one-line :class:`DomainError` for anything that is
  not a small UTF-8 JSON object of bounded nesting with short integers and no duplicated key (never RecursionError,
  UnicodeDecodeError, ValueError or OverflowError; a device or FIFO is refused before it is read).
* :class:`StateLock` -- one writer per state file, held by the kernel, not by a file's existence:

  1. ``fcntl.flock`` (exclusive, non-blocking) on the sidecar ``FILE.lock`` for as long as a filter uses FILE: a
     second dpbounds process (or a second filter in this process) is refused at once with a clear error.  The
     holder removes ``FILE.lock`` when it releases the lock (after a clean exit nothing is left); a process that
     was killed leaves it behind, and that leftover is harmless: the lock lives in the kernel and dies with its
     process, so a leftover file locks nothing and the next run simply takes it.
  2. Every write is a compare-and-swap under a short ``flock`` on the state file's *directory* (an inode whose
     identity never changes while the state is in use): the state file must still be the very file this filter
     last read or wrote (device, inode, size, mtime), or the write is refused and the round is not recorded (so
     not reported as CONT).  So even with ``FILE.lock`` deleted by hand while a filter runs, two processes can
     never both spend from one budget: the second to write is refused, and no CONT is ever printed for a round
     that is not in the file.
* :func:`exact_int` -> a decimal integer string of bounded length as int.

Temporary files: :func:`dpbounds.util.io.atomic_write_bytes` writes into an unnamed file and names it only for the
final rename, and nothing here ever deletes a file this process did not create (a user's ``.FILE.x.tmp`` is safe).

The lock is advisory: it binds dpbounds processes, not other programs writing the file.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from dpbounds.spec import DomainError
from dpbounds.util.io import unique_keys, atomic_write_json

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
        obj = json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant,
                         object_pairs_hook=unique_keys)
    except (ValueError, RecursionError) as e:  # JSONDecodeError is a ValueError
        raise _bad(path, f"not valid: {str(e)[:120]}", kind) from None
    if not isinstance(obj, dict):
        raise _bad(path, "not a JSON object", kind)
    if _depth(obj, MAX_DEPTH) > MAX_DEPTH:
        raise _bad(path, f"JSON nested deeper than {MAX_DEPTH}", kind)
    return obj


def _identity(path: Path) -> tuple | None:
    """What tells one version of the state file from another (atomic writes give each a new inode); None if absent."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


class StateLock:
    """One writer per state file (see the module docstring): an exclusive ``flock`` on ``FILE.lock`` held until
    :meth:`release` or until the process ends (the kernel drops it even on SIGKILL), and compare-and-swap writes
    (:meth:`write_json`).  Refuses with a one-line DomainError when another filter holds the lock."""

    def __init__(self, path) -> None:
        import fcntl

        self.path = Path(path)
        self.lock_path = self.path.with_name(self.path.name + ".lock")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise DomainError("state", str(path), "a state file in a directory that can be created", _WHERE,
                              e.strerror or str(e)) from None
        for _ in range(100):
            try:
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
            # the path must still name the file we locked: a holder that releases removes it, and we may have
            # opened it just before that (then our lock is on a file nobody else will open: take a fresh one)
            if _identity(self.lock_path) is not None and os.lstat(self.lock_path).st_ino == os.fstat(fd).st_ino:
                break
            os.close(fd)
        else:
            raise DomainError("state", str(path), "a state file no other filter is using", _WHERE,
                              f"{self.lock_path} keeps changing; another process is using it")
        self._fd: int | None = fd
        self._seen = _identity(self.path)  # the version of the state file this filter reads (None: a new file)

    def write_json(self, obj: Any) -> None:
        """Write ``obj`` to the state file atomically, iff the file is still the version this lock last saw.

        The check and the rename happen under ``flock`` on the state file's directory, so two writers (say, one
        that started after ``FILE.lock`` was removed by hand) cannot both pass the check: the second is refused
        with a DomainError and its round is not recorded."""
        import fcntl


        try:
            dfd = os.open(self.path.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        except OSError as e:
            raise DomainError("state", str(self.path), "a state file in a readable directory", _WHERE,
                              e.strerror or str(e)) from None
        try:
            fcntl.flock(dfd, fcntl.LOCK_EX)
            if _identity(self.path) != self._seen:
                raise DomainError("state", str(self.path), "a state file only this filter writes", _WHERE,
                                  "another process changed it since this filter read it (was its .lock file "
                                  "removed?); this round is not recorded")
            atomic_write_json(self.path, obj, "state")
            self._seen = _identity(self.path)
        finally:
            os.close(dfd)  # drops the directory lock

    def release(self) -> None:
        """Drop the lock and remove ``FILE.lock`` if it is still ours (idempotent)."""
        if self._fd is not None:
            try:  # removed while we hold the lock, so no other dpbounds process can be relying on this file
                if os.lstat(self.lock_path).st_ino == os.fstat(self._fd).st_ino:
                    os.unlink(self.lock_path)
            except OSError:
                pass
            os.close(self._fd)
            self._fd = None

    def __del__(self) -> None:
        try:
            self.release()
        except Exception:
            pass
