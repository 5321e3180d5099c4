"""The search: hypothesis over an accountant's whole input domain, judged against the certified reference.

One search is a sequence of hypothesis runs ("chunks") of at most :data:`CHUNK` examples each, the k-th seeded
with ``(seed, k)``, until ``max_examples`` examples are judged (the budget, :data:`DEFAULT_EXAMPLES` when not
given): the examples, and so the verdict, depend only on the seed and the budget, never on the machine or its
load.  A run ends as soon as the budget is judged, and when it gives :data:`STALE` points in a row that were
judged before (the next run, seeded afresh, draws on).  A draw may be a
:class:`~dpbounds.testing.domains.Batch` of points (a domain with batched Grid inputs,
:func:`dpbounds.testing.strategies.points`): its points are judged in order, each an example of its own (counted,
memoized, stopped at the budget and shrunk like one), and the search counts the distinct values of the shared inputs
among the examples judged (``groups``: DP-SGD's compositions).  ``seconds`` is only a cap: a search it cuts short (or a point the implementation did not answer within its
call time limit) is ``incomplete`` -- never a different verdict.  Points outside the reference's domain are skipped
and not counted; a search that judged fewer than its budget because too many points were skipped (more than
:data:`MAX_SKIP_FACTOR` x the budget drawn) is an ``error`` naming why, as is one that judged nothing.  A domain
with fewer distinct points than the budget is judged whole ("exhausted").  In each example the margin toward an
under-report is passed to ``hypothesis.target``; the first example whose verdict is in the current "failing" set
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

from dpbounds.testing.domains import Batch
from dpbounds.testing.results import CheckResult, Comparison
from dpbounds.testing.verdicts import PASS, Judgement, severity

#: examples per hypothesis run (one chunk of a search)
CHUNK = 100
#: the example budget of a search that does not give one (judged examples; the same on every machine)
DEFAULT_EXAMPLES = 200
#: a search stops drawing after this many times its budget of points (judged or skipped)
MAX_SKIP_FACTOR = 5
#: verdicts that make hypothesis shrink, most severe first
FAILING = ("unsound", "formula-departure", "unsound-rounding", "error", "adapter-error")
#: extra wall clock allowed for shrinking a witness found late (fraction of the budget, at least 2 s)
SHRINK_GRACE = 0.25
#: a hypothesis run (a chunk) that gives this many draws in a row already judged (every point of a batch) ends, and the next chunk, seeded
#: afresh, draws on: hypothesis' target phase climbs by small mutations, most of which land on a point judged
#: before (a grid value, a special value), and each costs hypothesis milliseconds of its own -- many times what
#: judging a point costs when a cached bracket decides it.  A function of the points drawn alone (deterministic)
STALE = 12


@dataclass
class Outcome:
    """One example's result: the verdict, its signed margin (negative: an under-report), the judgement where the
    certified reference decided it (:meth:`dpbounds.testing.oracle.Oracle.verdict` returns one), and what the result
    shows for a witness (the peer's value, the reference enclosure or decision)."""

    verdict: str
    margin: float
    peer_value: Any = None
    enclosure: Any = None
    decision: str | None = None
    judgement: Any = None
    detail: str = ""
    witness: Any = None       # what the result shows as the witness (defaults to the example itself)


@dataclass
class _State:
    """What a search found so far (the engine's own record; a check returns a :class:`CheckResult`)."""

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
    cut: bool = False         # the time cap cut the search (or its shrinking) short
    budget: int = 0           # the examples the search was to judge
    limits: int = 0           # of the skipped: points the implementation's wrapper declares it cannot express
    exact_ulps: int | None = None  # the most ulps between an 'exact' value and its certified enclosure
    undecided: Any = None     # (example, outcome) of the first undecided example
    shared: tuple[str, ...] = ()  # the inputs a batch of points shares (a Grid's batch): ``groups`` counts them
    heads: set[str] = field(default_factory=set)

    @property
    def groups(self) -> int:
        """Distinct values of the :attr:`shared` inputs among the examples judged (0 when none are shared)."""
        return len(self.heads)

    def record(self, x: Any, out: Outcome | None) -> None:
        if out is None:
            self.skipped += 1
            return
        self.tried += 1
        if self.shared and isinstance(x, dict):
            self.heads.add(repr(tuple(x.get(k) for k in self.shared)))
        self.counts[out.verdict] = self.counts.get(out.verdict, 0) + 1
        if out.verdict == "undecided" and self.undecided is None:
            self.undecided = (x, out)
        u = getattr(out.judgement, "ulps", None)
        if out.verdict == "exact" and u is not None:
            self.exact_ulps = max(u, self.exact_ulps or 0)
        if out.verdict not in ("error", "adapter-error") and not math.isnan(out.margin) and \
                (self.worst_margin is None or out.margin < self.worst_margin):
            self.worst_margin, self.worst_example, self.worst_outcome = out.margin, x, out

    def found(self) -> str:
        """The worst verdict among the examples judged (None-safe: 'exact' when none)."""
        return min(self.counts, key=severity) if self.counts else "exact"

    def shortfall(self) -> str:
        """Why the search did not judge its budget ('' when it did, or judged its whole domain)."""
        if self.tried == 0:
            return (f"no example was judged ({self.skipped} point(s) drawn, all skipped: outside the reference's "
                    "domain, or not certified there)")
        if self.stopped == "skipped" and self.tried < self.budget:
            return (f"only {self.tried} of the budget's {self.budget} examples were judged: {self.skipped} point(s) "
                    "were skipped (outside the reference's domain, or not certified there)"
                    + (f"; {self.limits} are declared limits of the wrapper" if self.limits else ""))
        return ""

    def timed_out(self) -> bool:
        """The clock decided something: the time cap cut the search short, or a call was not answered in time."""
        return self.cut or self.stopped == "time" or self.unanswered > 0

    def verdict(self) -> str:
        """The search's verdict: ``incomplete`` when the clock decided something (unless a finding -- unsound ..
        error: the peer raised on valid input -- was made first: no budget can clear it; the clock only left it less
        shrunk), ``error`` when too few examples were judged, else the worst found."""
        worst = self.found()
        if worst == "unsound" and self.stopped == "found":
            return worst
        if self.timed_out():
            return worst if self.counts and severity(worst) <= severity("error") else "incomplete"
        if self.shortfall() and severity(worst) > severity("error"):
            return "error"
        return worst

    def take_witness(self, x: Any, out: Outcome) -> None:
        if self.witness_outcome is None or severity(out.verdict) < severity(self.witness_outcome.verdict):
            self.witness, self.witness_outcome = x, out


class Limited(Exception):
    """The implementation's wrapper declares this point one it cannot express (a domain limit of the wrapper, not a
    failure of the implementation): skipped, counted apart."""


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
    if not done.wait(cap if math.isfinite(cap) else None):  # seconds=inf: no cap (Event.wait(inf) overflows)
        _workers.w = None  # this worker is stuck in the call: the next call gets a fresh one
        raise Unjudged(f"the implementation did not return within {cap:.3g} s (abandoned, not judged)")
    ok, v = box[0]
    if ok:
        return v
    if isinstance(v, Exception):
        raise v
    if isinstance(v, KeyboardInterrupt):
        raise v
    raise CallFailed(f"raised {type(v).__name__}({', '.join(map(repr, getattr(v, 'args', ())))})") from v


#: set while the explicit examples run: a peer call then has no time limit (a replayed witness is judged whatever the
#: machine's load, so that a seed and a witness file give the same findings anywhere)
UNLIMITED = contextvars.ContextVar("dpbounds_testing_unlimited_calls", default=False)


class _Found(Exception):
    """Raised inside the hypothesis test to make it shrink the current example."""


class _Stop(BaseException):
    """Raised inside the hypothesis test to end the hypothesis run at once: when the budget is judged and no witness
    is being shrunk (nothing after that point could change the state -- a point past the budget is not judged, and
    a replayed point's verdict is below the chunk's failing levels, or it would have been shrunk when first judged
    -- so the search judges the same points as when the run drew on to its ``max_examples``, without hypothesis'
    own cost of those draws and of its target phase); when :data:`STALE` points in a row were judged before; and
    when the clock has cut the search.  A BaseException that is not Exception, SystemExit or GeneratorExit is no
    test failure to hypothesis: it leaves the run without a shrink."""


class _SearchFailed(RuntimeError):
    """Hypothesis itself failed (not the implementation under test): the check reports it as an error."""


def _score(margin: float) -> float:
    """hypothesis.target maximizes: the under-report, as a finite float."""
    if math.isnan(margin):
        return 0.0
    return max(-1e300, min(1e300, -margin))


def _answered(evaluate: Callable[[Any], Outcome | None], state: _State) -> Callable[[Any], Outcome | None]:
    """``evaluate`` with a point the implementation did not answer in time (:class:`Unjudged`) skipped and counted."""
    def ev(x: Any) -> Outcome | None:
        try:
            return evaluate(x)
        except Unjudged:
            state.unanswered += 1
            return None
        except Limited:
            state.limits += 1
            return None
    return ev


def search(strategy: Any, evaluate: Callable[[Any], Outcome | None], *, seconds: float, seed: int,
           max_examples: int | None = None, examples: Sequence[Any] = (),
           progress: Callable[[_State], None] | None = None, shared: Sequence[str] = ()) -> _State:
    """Run ``examples`` first, then hypothesis on ``strategy`` (module docstring); ``evaluate`` returns None for a
    point outside the reference's domain (skipped).  ``max_examples``: the budget of judged examples (None:
    :data:`DEFAULT_EXAMPLES`); ``seconds``: the wall-clock cap (its expiry makes the search ``incomplete``);
    ``shared``: the inputs whose distinct values :attr:`_State.groups` counts."""
    try:
        import hypothesis  # noqa: F401
    except ImportError as e:
        raise ImportError(f"dpbounds.testing searches with hypothesis: pip install 'dpbounds[testing]' ({e})") from e

    budget = DEFAULT_EXAMPLES if max_examples is None else int(max_examples)
    state = _State(budget=budget, shared=tuple(shared))
    t0 = time.monotonic()
    t_end = t0 + max(0.0, float(seconds))
    deadline_token = DEADLINE.set(t_end + max(2.0, SHRINK_GRACE * seconds))
    try:
        return _search(strategy, evaluate, state, t_end, seconds=seconds, seed=seed, max_examples=max_examples,
                       examples=examples, progress=progress)
    finally:
        DEADLINE.reset(deadline_token)


def _search(strategy: Any, evaluate: Callable[[Any], Outcome | None], state: _State, t_end: float, *,
            seconds: float, seed: int, max_examples: int | None, examples: Sequence[Any],
            progress: Callable[[_State], None] | None) -> _State:
    from hypothesis import HealthCheck, Phase, given, settings, target
    from hypothesis import seed as hseed

    from dpbounds.testing.strategies import isolated_generation
    budget = state.budget
    evaluate = _answered(evaluate, state)
    token = UNLIMITED.set(True)
    try:
        explicit = [(x, evaluate(x)) for x in examples]
    finally:
        UNLIMITED.reset(token)
    memo: dict[str, Outcome | None] = {}  # each point judged and counted once: hypothesis' replays reuse its outcome
    ex_skipped = 0  # explicit points count toward the budget, judged or not
    for x, out in explicit:
        if repr(x) in memo:
            continue
        memo[repr(x)] = out
        ex_skipped += out is None
        state.record(x, out)
        if out is not None and out.verdict in FAILING:
            state.take_witness(x, out)

    def worse_than_found() -> tuple[str, ...]:
        w = state.witness_outcome
        return FAILING if w is None else tuple(v for v in FAILING if severity(v) < severity(w.verdict))

    levels = worse_than_found()
    k = 0
    idle = 0  # chunks in a row cut for staleness before they gave a new point
    while levels:
        if state.tried + ex_skipped >= budget:
            state.stopped = "examples"
            break
        if state.tried + state.skipped >= MAX_SKIP_FACTOR * budget:
            state.stopped = "skipped"
            break
        if time.monotonic() >= t_end:
            state.stopped = "time"
            break
        n = CHUNK  # (the points past the budget are not judged: a chunk of one would only replay the first draw)
        found: list[tuple[Any, Outcome]] = []
        shrink_until = [t_end]
        cur = [levels]
        new = [0]
        stale = [0]   # draws in a row whose points were all judged before
        stale_cut = [False]

        def test(xs: Any) -> None:
            score: list[float] = []  # hypothesis.target once per draw: the worst under-report among its points
            before = new[0]
            try:
                for x in (xs if isinstance(xs, Batch) else (xs,)):
                    one(x, score)
            finally:
                if score:
                    target(max(score), label="under-report")
            if new[0] > before:
                stale[0] = 0
                return
            stale[0] += 1  # a draw whose every point was judged before
            if stale[0] >= STALE and not found:
                stale_cut[0] = True
                raise _Stop  # hypothesis draws only what was judged: a fresh chunk draws on

        def one(x: Any, score: list[float]) -> None:
            if time.monotonic() > shrink_until[0]:
                state.cut = True  # the clock, not the seed, ends this example: the search is incomplete
                raise _Stop
            key = repr(x)
            if key in memo:
                out = memo[key]
            elif not found and state.tried + ex_skipped >= budget:
                raise _Stop  # the budget is judged and no witness is being shrunk: this run ends here
            else:
                new[0] += 1
                out = memo[key] = evaluate(x)
                state.record(x, out)
            if out is None:
                return
            score.append(_score(out.margin))
            if out.verdict in cur[0]:
                if not found:  # shrink to a witness at least this severe, with some time for it
                    cur[0] = tuple(v for v in cur[0] if severity(v) <= severity(out.verdict))
                    shrink_until[0] = max(t_end, time.monotonic()) + max(2.0, SHRINK_GRACE * min(seconds, 3600))
                found.append((x, out))
                raise _Found

        run = settings(database=None, deadline=None, max_examples=n, derandomize=False, print_blob=False,
                       report_multiple_bugs=False, suppress_health_check=list(HealthCheck),
                       phases=(Phase.generate, Phase.target, Phase.shrink))(
            hseed(seed * 1_000_003 + k)(given(strategy)(test)))
        try:
            with isolated_generation():  # the seed alone decides the points, not what the process imported
                run()
        except (_Found, _Stop):
            pass
        except BaseException as e:  # noqa: BLE001 - hypothesis' Flaky (a replay judged otherwise), its errors
            if isinstance(e, KeyboardInterrupt):
                raise
            if not found:
                raise _SearchFailed(f"{type(e).__name__}: {str(e)[:300]}") from e
        if found:
            x, out = found[-1]  # the shrinker's last failing call is its current minimal example
            state.take_witness(x, out)
            levels = worse_than_found()
        state.chunks = k = k + 1
        if progress is not None:
            progress(state)
        idle = idle + 1 if stale_cut[0] and not new[0] else 0
        if not new[0] and not found and (not stale_cut[0] or idle >= 3):
            # hypothesis had no new point to give (in a whole run, or in three runs in a row seeded apart): the
            # domain is judged whole
            state.stopped = "exhausted"
            break
    else:
        state.stopped = "found"
    return state


# ------------------------------------------------------------------------------------------------ the result


def run_check(kind: str, function: str, reference: str, claim: str, role: str, strategy: Any,
              evaluate: Callable[[Any], Outcome | None], finish: Callable[[Any, Outcome], str], *, seconds: float,
              seed: int, budget: int, examples: Sequence[Any] = (), certify_pass: bool = False,
              shared: Sequence[str] = ()) -> CheckResult:
    """One check: :func:`search` ``strategy`` with ``evaluate``, then its :class:`CheckResult`.  ``finish(x, out)``
    certifies the example shown (fills ``out.enclosure``, ``out.judgement``, ``out.detail``) and returns its
    reproducer.  ``role``: the role of the reference in the result's row ("formula": the formula the implementation
    cites; "truth").  ``certify_pass``: a result that passed also shows the peer's value and the certified enclosure
    at its worst example (an odometer's worst round), when that example carries the verdict.  ``shared``: the inputs
    a batch of points shares (the result's ``groups`` counts their distinct values)."""
    try:
        st = search(strategy, evaluate, seconds=seconds, seed=seed, max_examples=budget, examples=examples,
                    shared=shared)
    except _SearchFailed as e:
        return not_judged(kind, function, reference, claim, seed, budget, f"the search failed: {e}")
    w, out = st.witness, st.witness_outcome
    if out is None and st.undecided is not None and st.verdict() == "undecided":
        w, out = st.undecided  # where the reference could not decide: shown as the witness
    worst = None
    if st.worst_example is not None and st.worst_outcome is not None:
        worst = st.worst_outcome.witness if st.worst_outcome.witness is not None else dict(st.worst_example)
    verdict = st.verdict()
    why = _why(st, seconds) if verdict in ("incomplete", "error") else ""
    if verdict == "exact" and st.exact_ulps is not None:
        why = (f"exact: every value judged within {st.exact_ulps} ulp(s) of its certified value "
               f"({st.tried} examples)")
    common = dict(counts=dict(st.counts), skipped=st.skipped, seed=seed, stopped=st.stopped,
                  unanswered=st.unanswered, budget=st.budget, limits=st.limits, groups=st.groups)
    if out is None:
        # no witness: ``decision`` is the (shared) last decision of the worst example, a filter's CONT / HALT
        best = st.worst_outcome
        pv = enc = None
        if certify_pass and verdict in PASS and best is not None and best.verdict == verdict and \
                isinstance(best.peer_value, float):
            finish(None, best)
            if best.enclosure is not None:
                pv, enc = best.peer_value, best.enclosure
        shown = best if kind != "conversion" else None  # (a conversion's pass certified nothing to show)
        row = _row(kind, function, reference, claim, role, verdict, why, worst, shown, "", st.tried)
        return CheckResult(kind, function, reference, claim, verdict, None, pv, enc, st.tried, "",
                           st.worst_margin, decision=best.decision if best is not None else None, worst=worst,
                           detail=why, row=row, **common)
    shown_w = out.witness if out.witness is not None else dict(w)
    text = finish(w, out)  # certifies the witness first (fills out.enclosure, out.judgement)
    detail = out.detail if not why else f"{why}; at the witness: {out.detail}"
    return CheckResult(kind, function, reference, claim, verdict, shown_w, out.peer_value, out.enclosure,
                       st.tried, text, st.worst_margin, decision=out.decision, detail=detail, worst=worst,
                       row=_row(kind, function, reference, claim, role, verdict, detail, shown_w, out, text, st.tried),
                       **common)


def not_judged(kind: str, function: str, reference: str, claim: str, seed: int, budget: int, why: str
               ) -> CheckResult:
    """The result of a check that judged nothing (the search could not run, or the inputs cannot be judged):
    ``error``, with why."""
    return CheckResult(kind, function, reference, claim, "error", None, None, None, 0, "", None, detail=why,
                       seed=seed, stopped="error", budget=budget,
                       row=_row(kind, function, reference, claim, "truth", "error", why, None, None, "", 0))


def _why(st: _State, seconds: float) -> str:
    """What the clock or the skipped points decided, for a result whose verdict says so."""
    parts = []
    if st.timed_out():
        parts.append(f"incomplete: {st.tried} of the budget's {st.budget} examples judged before the time cap of "
                     f"{seconds:g} s" + (f" ({st.unanswered} point(s) not answered within the call time limit)"
                                          if st.unanswered else "")
                     + f"; worst found so far: {st.found()}")
    short = st.shortfall()
    if short:
        parts.append(short)
    return "; ".join(parts)


def _text(v: Any) -> str:
    return v if isinstance(v, str) else repr(v)


def _row(kind: str, function: str, reference: str, claim: str, role: str, verdict: str, detail: str,
         shown: Any, out: Outcome | None, reproducer: str, tried: int) -> Comparison:
    """The result's example as a :class:`Comparison` (``peer`` empty): a conversion's inputs, or a stream
    (``{"witness": <JSON of {"stream", "round"}>}``); judged with the result's verdict against the certified enclosure
    (a conversion, an odometer) or the reference's decision (a filter) -- numbers :func:`~dpbounds.testing.results.
    rejudge` recomputes the verdict from.  A result that could not judge (``error``, ``adapter-error``,
    ``incomplete``) is an error row: the implementation's (``error`` with examples judged) or ours."""
    import json
    inputs: dict[str, str] = {}
    if isinstance(shown, dict):
        inputs = {k: _text(v) for k, v in shown.items()} if kind == "conversion" else {"witness": json.dumps(shown)}
    pv = None if out is None else out.peer_value
    c = Comparison("", function, kind, inputs, peer_value=pv if isinstance(pv, float) else None,
                   peer_output="" if pv is None or isinstance(pv, float) else str(pv), reproducer=reproducer)
    if verdict in ("error", "adapter-error", "incomplete"):
        c.error = str(detail or pv or verdict)
        c.error_class = "adapter-error" if verdict != "error" or tried == 0 else ""
        return c
    enc = None if out is None else out.enclosure
    if out is None or (kind == "filter" and out.decision is None) or \
            (kind != "filter" and (enc is None or not isinstance(pv, float))):
        c.error_class = "adapter-error"
        c.error = f"the {kind} check returned {verdict} without a value and a certified reference to judge it by"
        return c
    lo = hi = None
    if enc is not None:
        lo, hi = (math.inf, math.inf) if enc.pos_inf or enc.lo is None or enc.hi is None else (enc.lo, enc.hi)
    j = Judgement(role, reference, reference, verdict, lo=lo, hi=hi, decision=out.decision,
                  detail=detail or out.detail, claim=claim)  # (a pass has no result detail: the example's words)
    setattr(c, role, j)
    return c
