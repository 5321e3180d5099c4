"""The one way the engine runs code in another process: a child interpreter on a leash.

Every out-of-process call of dpbounds -- a peer's calls module in the peer's own interpreter
(:class:`~dpbounds.testing.declarations.Remote`), a probe of a peer's version, an adapter run apart from the audit
(``dpbounds audit --timeout``) -- goes through :class:`Child`:

* **JSON only** crosses the boundary, one JSON document per line (requests on stdin, answers on stdout); nothing is
  pickled, and the other side never needs dpbounds;
* **time**: every answer is awaited at most ``timeout`` seconds; past it the child's whole process group is killed
  (:class:`NoAnswer`);
* **bytes**: an answer line longer than :data:`MAX_LINE` bytes is refused (the child is killed), and of stderr only the
  last :data:`STDERR_TAIL` bytes are kept -- a child flooding either costs bounded memory;
* **lifetime**: a child never outlives its parent, however the parent dies: on Linux the kernel signals it when the
  parent exits (``prctl(PR_SET_PDEATHSIG)``), and every child dpbounds starts also runs a watchdog that kills its own
  process group when its parent process is gone (:data:`WATCHDOG`, prepended to the child's source).  A child that
  runs dpbounds itself (an adapter run apart) calls :func:`leash_self`: on SIGTERM, or when its parent is gone, it
  kills the process groups of every child it started, then exits.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from typing import Any, Sequence

#: the longest answer line read from a child (bytes); a longer one kills the child
MAX_LINE = 64 * 1024 * 1024
#: the bytes of a child's stderr kept (its tail, for the error message); the rest is read and discarded
STDERR_TAIL = 64 * 1024

#: Python source run first in every child dpbounds starts: exit when the parent process is gone (a parent killed with
#: SIGKILL cannot kill its children; PR_SET_PDEATHSIG covers Linux, this covers the rest and a re-parented child)
WATCHDOG = r'''
import os as _os, threading as _th, time as _time
def _dpbounds_watchdog(ppid=_os.getppid()):
    while True:
        _time.sleep(0.5)
        if _os.getppid() != ppid:
            try:
                _os.killpg(_os.getpgrp(), 9)
            finally:
                _os._exit(137)
_th.Thread(target=_dpbounds_watchdog, daemon=True).start()
del _os, _th, _time
'''

#: the process groups of the children started here that may still run (each child leads a group of its own)
_GROUPS: set[int] = set()


class NoAnswer(RuntimeError):
    """The child gave no answer within its time limit (it was killed with its process group)."""


def _death_signal(sig: int) -> Any:
    def set_it() -> None:  # pragma: no cover - runs in the child between fork and exec
        """``prctl(PR_SET_PDEATHSIG, sig)``: the kernel signals this process when its parent exits (Linux only)."""
        try:
            import ctypes
            ctypes.CDLL(None, use_errno=True).prctl(1, sig, 0, 0, 0)  # PR_SET_PDEATHSIG = 1
        except Exception:  # noqa: BLE001 - not Linux: the watchdog still applies
            pass
    return set_it


def popen(argv: Sequence[str], *, new_session: bool = True, death_signal: int = signal.SIGKILL,
          **kw: Any) -> subprocess.Popen[bytes]:
    """``subprocess.Popen`` of a child that is sent ``death_signal`` when its parent dies (PR_SET_PDEATHSIG on
    Linux), by default in a process group of its own (so that :func:`kill_group` reaches what it starts).  Binary
    pipes on stdin/stdout/stderr unless given."""
    for k in ("stdin", "stdout", "stderr"):
        kw.setdefault(k, subprocess.PIPE)
    preexec = _death_signal(death_signal) if sys.platform.startswith("linux") else None
    proc = subprocess.Popen(list(argv), start_new_session=new_session, preexec_fn=preexec, **kw)
    if new_session:
        _GROUPS.add(proc.pid)
    return proc


def kill_group(proc: subprocess.Popen[Any], term_grace: float = 0.0) -> None:
    """End the process group of ``proc`` (its own session: everything it started there): SIGTERM first when
    ``term_grace`` > 0 (a dpbounds child then kills the groups of its own children, :func:`leash_self`) and up to that
    many seconds to exit, then SIGKILL; reap it."""
    import time
    if term_grace > 0:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            end = time.monotonic() + term_grace
            while time.monotonic() < end and proc.poll() is None:
                time.sleep(0.05)
        except (ProcessLookupError, PermissionError):
            pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        try:
            proc.kill()
        except OSError:
            pass
    _GROUPS.discard(proc.pid)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:  # pragma: no cover - a process in uninterruptible sleep
        pass


def _kill_children_and_exit(code: int) -> None:
    for g in list(_GROUPS):
        try:
            os.killpg(g, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    try:
        os.killpg(os.getpgrp(), signal.SIGKILL)
    finally:
        os._exit(code)


def leash_self() -> None:
    """In a dpbounds child (started with ``death_signal=SIGTERM``): on SIGTERM -- its parent's timeout, or its
    parent's death -- and when a watchdog sees its parent gone, kill the process groups of every child started here
    (:data:`_GROUPS`) and its own group, then exit."""
    ppid = os.getppid()
    signal.signal(signal.SIGTERM, lambda signum, frame: _kill_children_and_exit(143))

    def watch() -> None:
        import time
        while True:
            time.sleep(0.5)
            if os.getppid() != ppid:
                _kill_children_and_exit(137)
    threading.Thread(target=watch, daemon=True, name="dpbounds-leash").start()


class _Tail:
    """A reader thread keeping the last :data:`STDERR_TAIL` bytes of a stream (the rest is discarded)."""

    def __init__(self, stream: Any) -> None:
        self.buf = bytearray()
        self.thread = threading.Thread(target=self._run, args=(stream,), daemon=True)
        self.thread.start()

    def _run(self, stream: Any) -> None:
        try:
            while True:
                chunk = stream.read1(65536) if hasattr(stream, "read1") else stream.read(65536)
                if not chunk:
                    return
                self.buf += chunk
                if len(self.buf) > 2 * STDERR_TAIL:
                    del self.buf[:-STDERR_TAIL]
        except (OSError, ValueError):
            return

    def text(self, join: float = 1.0) -> str:
        self.thread.join(join)
        return bytes(self.buf[-STDERR_TAIL:]).decode("utf-8", errors="replace")


class _Lines:
    """A reader thread splitting a stream into lines of at most :data:`MAX_LINE` bytes (a longer one ends the stream
    with an error), handed over through a queue."""

    def __init__(self, stream: Any) -> None:
        import queue
        self.q: queue.Queue[bytes | BaseException | None] = queue.Queue()
        self.thread = threading.Thread(target=self._run, args=(stream,), daemon=True)
        self.thread.start()

    def _run(self, stream: Any) -> None:
        buf = bytearray()
        try:
            while True:
                chunk = stream.read1(65536) if hasattr(stream, "read1") else stream.read(65536)
                if not chunk:
                    self.q.put(None)
                    return
                buf += chunk
                while True:
                    i = buf.find(b"\n")
                    if i < 0:
                        break
                    self.q.put(bytes(buf[:i]))
                    del buf[:i + 1]
                if len(buf) > MAX_LINE:
                    self.q.put(OverflowError(f"an answer longer than {MAX_LINE} bytes"))
                    return
        except (OSError, ValueError) as e:
            self.q.put(e)

    def get(self, timeout: float | None) -> bytes | BaseException | None:
        import queue
        try:
            return self.q.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError from None


class Child:
    """A child process answering JSON lines: ``ask(obj)`` writes ``obj`` as one line to its stdin and returns the
    JSON of its next stdout line.  ``argv`` is the command (for Python source: ``[python, "-c", source, *args]``;
    :data:`WATCHDOG` is prepended to the source by :meth:`python`).  ``timeout``: the most seconds one answer may
    take (None: no limit); past it the child's group is killed and :class:`NoAnswer` raised.  Any other failure
    (the child exited, an over-long line, not JSON) raises RuntimeError with the tail of its stderr."""

    def __init__(self, argv: Sequence[str], *, timeout: float | None = None, new_session: bool = True,
                 death_signal: int = signal.SIGKILL, term_grace: float = 0.0) -> None:
        self.argv, self.timeout, self.term_grace = list(argv), timeout, term_grace
        try:
            self.proc = popen(self.argv, new_session=new_session, death_signal=death_signal)
        except OSError as e:
            raise RuntimeError(f"{self.argv[0]}: {type(e).__name__}: {e}") from None
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self.lines = _Lines(self.proc.stdout)
        self.err = _Tail(self.proc.stderr)
        self.lock = threading.Lock()

    @classmethod
    def python(cls, python: str, source: str, args: Sequence[str] = (), **kw: Any) -> "Child":
        """A child running Python ``source`` (after :data:`WATCHDOG`) in the interpreter ``python``."""
        return cls([python, "-c", WATCHDOG + source, *args], **kw)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stderr_tail(self, n: int = 300) -> str:
        return self.err.text(0.5 if self.proc.poll() is not None else 0.0).strip()[-n:]

    def send(self, obj: Any) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(obj, allow_nan=False).encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # the child has gone: receive() says why

    def receive(self, timeout: float | None = None) -> Any:
        t = self.timeout if timeout is None else timeout
        try:
            line = self.lines.get(t)
        except TimeoutError:
            self.kill()
            raise NoAnswer(f"{self.argv[0]}: no answer within {t:g} s (killed with its children)") from None
        if line is None or isinstance(line, BaseException):
            self.kill()
            why = f"exited {self.proc.returncode}" if line is None else f"{type(line).__name__}: {line}"
            raise RuntimeError(f"{self.argv[0]} {why}: {self.stderr_tail()}".rstrip(": "))
        try:
            return json.loads(line)
        except ValueError:
            self.kill()
            raise RuntimeError(f"{self.argv[0]} answered no JSON: {line[-200:]!r}") from None

    def ask(self, obj: Any, timeout: float | None = None) -> Any:
        with self.lock:
            if not self.alive():
                raise RuntimeError(f"{self.argv[0]} exited {self.proc.returncode}: {self.stderr_tail()}")
            self.send(obj)
            return self.receive(timeout)

    def kill(self) -> None:
        kill_group(self.proc, self.term_grace)

    def close(self, grace: float = 10.0) -> None:
        """End the child: close its stdin, give it ``grace`` seconds to exit, then kill its group."""
        if self.proc.poll() is None:
            try:
                if self.proc.stdin:
                    self.proc.stdin.close()
                self.proc.wait(timeout=grace)
            except (OSError, subprocess.TimeoutExpired):
                pass
        kill_group(self.proc, self.term_grace)


def run_json(argv: Sequence[str], payload: Any, *, timeout: float | None, **kw: Any) -> Any:
    """One request, one answer: ``payload`` as a JSON line to a fresh child, its first JSON line back; the child and
    its group are killed afterwards whatever happened (:class:`NoAnswer` after ``timeout`` seconds).  ``kw``: see
    :class:`Child`."""
    child = Child(argv, timeout=timeout, **kw)
    try:
        return child.ask(payload)
    finally:
        child.kill()
