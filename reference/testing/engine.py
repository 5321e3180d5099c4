"""The search: hypothesis over an accountant's whole input domain, judged against the certified reference.

One search is a sequence of hypothesis runs ("chunks") of at most :data:`CHUNK` examples each, the k-th seeded
with ``(seed, k)``: for a given seed the examples (and so the findings) depend only on how many chunks run, never
on the machine.  A run stops at ``seconds`` of wall clock, or after ``max_examples`` examples (the deterministic
budget the audit uses).  In each example the margin toward an under-report is passed to ``hypothesis.target``;
the first example whose verdict is in the current "failing" set (``unsound``, ``unsound-rounding``, ``error``)
makes hypothesis shrink it to a minimal witness of at least that severity; the search then goes on looking only
for something worse, until ``unsound`` is found or the budget is spent.
"""

from __future__ import annotations

import contextvars
import math
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from dpbounds.testing.verdicts import severity

#: examples per hypothesis run (one chunk of a search)
CHUNK = 100
#: verdicts that make hypothesis shrink, most severe first
FAILING = ("unsound", "unsound-rounding", "error")
#: extra wall clock allowed for shrinking a witness found late (fraction of the budget, at least 2 s)
SHRINK_GRACE = 0.25


@dataclass
class Outcome:
    """One example's result: the verdict, its signed margin (negative: an under-report), and what the result
    object shows for a witness (the peer's value, the reference enclosure or decision, the judgement)."""

    verdict: str
    margin: float
    peer_value: Any = None
    enclosure: Any = None
    decision: str | None = None
    judgement: Any = None
    detail: str = ""
    witness: Any = None       # what the result shows as the witness (defaults to the example itself)


@dataclass
class SearchState:
    tried: int = 0
    skipped: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    worst_margin: float | None = None
    worst_example: Any = None
    worst_outcome: Outcome | None = None
    witness: Any = None
    witness_outcome: Outcome | None = None
    chunks: int = 0
    stopped: str = "examples"
    unanswered: int = 0       # of the skipped: points the implementation did not answer in time (Unjudged)

    def record(self, x: Any, out: Outcome | None) -> None:
        if out is None:
            self.skipped += 1
            return
        self.tried += 1
        self.counts[out.verdict] = self.counts.get(out.verdict, 0) + 1
        if out.verdict != "error" and not math.isnan(out.margin) and \
                (self.worst_margin is None or out.margin < self.worst_margin):
            self.worst_margin, self.worst_example, self.worst_outcome = out.margin, x, out

    def verdict(self) -> str:
        return min(self.counts, key=severity) if self.counts else "exact"

    def take_witness(self, x: Any, out: Outcome) -> None:
        if self.witness_outcome is None or severity(out.verdict) < severity(self.witness_outcome.verdict):
            self.witness, self.witness_outcome = x, out


class Unjudged(Exception):
    """The implementation gave no answer at this point within its per-call time limit (a peer in another interpreter
    under ``dpbounds audit --search``): the point is not judged, it counts as skipped -- neither a finding nor a
    pass."""


#: the monotonic time by which the running search must end (set by :func:`search`); a call of the implementation
#: under test (:func:`guarded`) is abandoned past it (+ :data:`CALL_GRACE`), so a check returns even when the
#: implementation hangs
DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar("dpbounds_testing_deadline", default=None)
#: seconds a call may run past the search's end before it is abandoned (at least this long for every call)
CALL_GRACE = 5.0


class CallFailed(RuntimeError):
    """The implementation under test raised something that is not an Exception (SystemExit, GeneratorExit): judged
    as the implementation raising, never allowed to end the check."""


class _Worker:
    """A daemon thread running the calls of one caller thread; abandoned (left to finish or hang on its own) when a
    call outlives its cap."""

    def __init__(self) -> None:
        import queue
        self.q: Any = queue.SimpleQueue()
        threading.Thread(target=self._run, daemon=True, name="dpbounds-testing-call").start()

    def _run(self) -> None:
        while True:
            f, box, done = self.q.get()
            try:
                box.append((True, f()))
            except BaseException as e:  # noqa: BLE001 - handed to the caller
                box.append((False, e))
            done.set()


_workers = threading.local()


def guarded(f: Callable[[], Any]) -> Any:
    """``f()`` -- a call of the implementation under test -- in a worker thread the check can abandon: it gets until
    the running search's :data:`DEADLINE` (at least :data:`CALL_GRACE` seconds); past it the call is left behind and
    :class:`Unjudged` raised (the point is not judged, the search ends on its clock).  Outside a search the call runs
    here, unguarded.  A SystemExit (or another non-Exception) from ``f`` becomes :class:`CallFailed`."""
    deadline = DEADLINE.get()
    if deadline is None:
        return f()
    cap = max(CALL_GRACE, deadline + CALL_GRACE - time.monotonic())
    worker = getattr(_workers, "w", None)
    if worker is None:
        worker = _workers.w = _Worker()
    box: list[tuple[bool, Any]] = []
    done = threading.Event()
    ctx = contextvars.copy_context()
    worker.q.put((lambda: ctx.run(f), box, done))
    if not done.wait(cap):
        _workers.w = None  # this worker is stuck in the call: the next call gets a fresh one
        raise Unjudged(f"the implementation did not return within {cap:.3g} s (abandoned, not judged)")
    ok, v = box[0]
    if ok:
        return v
    if isinstance(v, Exception):
        raise v
    if isinstance(v, KeyboardInterrupt):
        raise v
    raise CallFailed(f"raised {type(v).__name__}({', '.join(map(repr, getattr(v, 'args', ())))})")


#: set while the explicit examples run: a peer call then has no time limit (a replayed witness is judged whatever the
#: machine's load, so that a seed and a witness file give the same findings anywhere)
UNLIMITED = contextvars.ContextVar("dpbounds_testing_unlimited_calls", default=False)


class _Found(Exception):
    """Raised inside the hypothesis test to make it shrink the current example."""


def _score(margin: float) -> float:
    """hypothesis.target maximizes: the under-report, as a finite float."""
    if math.isnan(margin):
        return 0.0
    return max(-1e300, min(1e300, -margin))


def _answered(evaluate: Callable[[Any], Outcome | None], state: SearchState) -> Callable[[Any], Outcome | None]:
    """``evaluate`` with a point the implementation did not answer in time (:class:`Unjudged`) skipped and counted."""
    def ev(x: Any) -> Outcome | None:
        try:
            return evaluate(x)
        except Unjudged:
            state.unanswered += 1
            return None
    return ev


def search(strategy: Any, evaluate: Callable[[Any], Outcome | None], *, seconds: float, seed: int,
           max_examples: int | None = None, examples: Sequence[Any] = (),
           progress: Callable[[SearchState], None] | None = None) -> SearchState:
    """Run ``examples`` first, then hypothesis on ``strategy`` (module docstring); ``evaluate`` returns None for a
    point outside the reference's domain (skipped)."""
    try:
        import hypothesis  # noqa: F401
    except ImportError as e:
        raise ImportError(f"dpbounds.testing searches with hypothesis: pip install 'dpbounds[testing]' ({e})") from e

    state = SearchState()
    t0 = time.monotonic()
    t_end = t0 + max(0.0, float(seconds))
    deadline_token = DEADLINE.set(t_end + max(2.0, SHRINK_GRACE * seconds))
    try:
        return _search(strategy, evaluate, state, t_end, seconds=seconds, seed=seed, max_examples=max_examples,
                       examples=examples, progress=progress)
    finally:
        DEADLINE.reset(deadline_token)


def _search(strategy: Any, evaluate: Callable[[Any], Outcome | None], state: SearchState, t_end: float, *,
            seconds: float, seed: int, max_examples: int | None, examples: Sequence[Any],
            progress: Callable[[SearchState], None] | None) -> SearchState:
    from hypothesis import HealthCheck, Phase, given, settings, target
    from hypothesis import seed as hseed
    evaluate = _answered(evaluate, state)
    token = UNLIMITED.set(True)
    try:
        explicit = [(x, evaluate(x)) for x in examples]
    finally:
        UNLIMITED.reset(token)
    for x, out in explicit:
        state.record(x, out)
        if out is not None and out.verdict in FAILING:
            state.take_witness(x, out)

    def worse_than_found() -> tuple[str, ...]:
        w = state.witness_outcome
        return FAILING if w is None else tuple(v for v in FAILING if severity(v) < severity(w.verdict))

    levels = worse_than_found()
    k = 0
    while levels:
        if time.monotonic() >= t_end:
            state.stopped = "time"
            break
        if max_examples is not None and state.tried + state.skipped >= max_examples:
            state.stopped = "examples"
            break
        n = CHUNK if max_examples is None else max(1, min(CHUNK, max_examples - state.tried - state.skipped))
        found: list[tuple[Any, Outcome]] = []
        shrink_until = [t_end]
        cur = [levels]

        def test(x: Any) -> None:
            if time.monotonic() > shrink_until[0]:
                return
            out = evaluate(x)
            state.record(x, out)
            if out is None:
                return
            target(_score(out.margin), label="under-report")
            if out.verdict in cur[0]:
                if not found:  # shrink to a witness at least this severe, with some time for it
                    cur[0] = tuple(v for v in cur[0] if severity(v) <= severity(out.verdict))
                    shrink_until[0] = max(t_end, time.monotonic()) + max(2.0, SHRINK_GRACE * seconds)
                found.append((x, out))
                raise _Found

        run = settings(database=None, deadline=None, max_examples=n, derandomize=False, print_blob=False,
                       report_multiple_bugs=False, suppress_health_check=list(HealthCheck),
                       phases=(Phase.generate, Phase.target, Phase.shrink))(
            hseed(seed * 1_000_003 + k)(given(strategy)(test)))
        try:
            run()
        except _Found:
            pass
        except Exception:  # noqa: BLE001 - hypothesis' Flaky when the shrink budget ran out mid-replay
            if not found:
                raise
        if found:
            x, out = found[-1]  # the shrinker's last failing call is its current minimal example
            state.take_witness(x, out)
            levels = worse_than_found()
        state.chunks = k = k + 1
        if progress is not None:
            progress(state)
    else:
        state.stopped = "found"
    return state
