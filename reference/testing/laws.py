"""Laws every accountant obeys, checked without a reference: :func:`check_laws`.

A privacy accountant's output obeys laws that need no certified value to check: a delta is a probability
(``at_most_one``), epsilon does not drop when delta shrinks (``nonincreasing:delta``), an RDP curve does not
decrease in the order (``nondecreasing:alpha``), a call returns (``terminates``).  Many of the bugs the trackers of
DP libraries record break one of them (an epsilon that drops by 60x between two neighbouring deltas, a negative
epsilon for delta near 1, a call that never returns at delta = 0).  :func:`check_laws` searches an implementation's
whole input domain (the :mod:`dpbounds.testing.strategies` values: boundaries and their float neighbours,
subnormals, short decimals, log-uniform) for a violation, shrinks it, and returns a :class:`LawResult`.

Laws (``laws=``, any of)::

    returns                   every call inside the domain returns a value (no exception)
    no_crash                  a call returns, or raises an input-validation error -- not an arithmetic or
                              programming error (:data:`CRASHES`; ``ValueError: math domain error``)
    terminates                every call returns (or raises) within ``call_seconds`` -- a point over the cap is
                              a violation when a point next to it answers within a quarter of the cap (a hang at
                              that value: delta = 0 exactly), not judged when its neighbours are slow too
    not_nan                   the value is a number (an infinity is allowed)
    finite                    the value is a finite number
    nonnegative               value >= 0
    at_most_one               value <= 1
    at_most_one_minus:<p>     value <= 1 - p (a trade-off curve: beta(alpha) <= 1 - alpha)
    nonincreasing:<p>         p1 < p2 (the other inputs equal) gives f(p1) >= f(p2)
    nondecreasing:<p>         p1 < p2 gives f(p1) <= f(p2)

The monotonicity laws are searched first, each on pairs of points that differ in ``p`` only (every point a pair
search calls is also judged by the point laws), then the point laws left, on points of their own.  When
``examples`` are given (typical points: a declaration's explicit examples), each monotonicity law is first scanned
at each of them: ``p`` over a fixed grid of its domain (:func:`scan_grid`: decades when the domain spans more than
three, else evenly spaced; :func:`scan_points`: every point of it, nearest the example first), every other input
at the example's value, and every pair of the scan compared.  A slow accountant is judged this way at its edges
(delta down to 1e-300) in a few calls, where a random search over every input at once would spend its time at slow
points.  A monotonicity law's pairs differ in ``p`` only (the second value drawn from the domain, or a float
neighbour of the first: relative steps 2**-52 to 1); its witness is the pair.  Differences
within ``rtol`` (relative to the larger magnitude) plus ``atol`` are not violations: an accountant that states its
own error (a PRV or PLD discretization) is checked at that error.

Verdicts: ``inconsistent`` (a law is violated: each violated law gives a :class:`Violation` with the shrunk witness
and a runnable reproducer), ``consistent`` (every law judged on the whole example budget without a violation),
``incomplete`` (the ``seconds`` cap expired before the budget was judged, nothing violated), ``error`` (the check
could not judge: an unknown law, a law naming no input, input names the function does not take, or a law judged on
no example).  Deterministic: the examples depend on the seed, the examples given and the budget (every scan's
points, ``max_examples`` per law group of the search, default :data:`DEFAULT_EXAMPLES`) only; ``seconds`` is a cap,
and a check it cuts short says so (``stopped`` ``"time"``, the scan points visited and the searches not completed
in ``detail``), whatever its verdict.

Calls run in a forked worker process (``isolate=True``, the default) so that a call that does not return can be
abandoned and killed; the check returns within ``seconds`` plus one call cap.  ``fn`` may also be a *runner*: an
object with ``call(inputs, timeout) -> ("ok", value) | ("raise", text) | ("timeout", None)`` (a peer in its own
interpreter).
"""

from __future__ import annotations

import inspect
import math
import multiprocessing as mp
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from dpbounds.testing.verdicts import short_repr

#: examples per law group when ``max_examples`` is not given
DEFAULT_EXAMPLES = 200
#: the most seconds one call may take before ``terminates`` calls it a violation (default of ``call_seconds``)
CALL_SECONDS = 10.0
#: extra seconds a fresh worker's first call may take (its imports) before it counts against ``terminates``
WARMUP = 10.0
#: relative float steps tried between the two points of a monotonicity pair
STEPS = (2.0 ** -52, 1e-12, 1e-9, 1e-6, 1e-3, 0.03, 0.3, 1.0)

#: exceptions that are never a deliberate refusal of an input (law ``no_crash``), and the messages of a ValueError
#: that is not one either (the math module's)
CRASHES = ("ZeroDivisionError", "OverflowError", "FloatingPointError", "IndexError", "KeyError", "AttributeError",
           "UnboundLocalError", "NameError", "RecursionError", "MemoryError", "SystemError")
CRASH_MESSAGES = ("math domain error", "math range error",
                  # scipy's bracketing root finders (brentq, brenth, ridder, bisect) when the bracket holds no root:
                  # the implementation's own search failed, not a refusal of the input
                  "f(a) and f(b) must have different signs")

POINT_LAWS = ("returns", "no_crash", "terminates", "not_nan", "finite", "nonnegative", "at_most_one")
PARAM_LAWS = ("at_most_one_minus", "nonincreasing", "nondecreasing")
VERDICTS = ("inconsistent", "error", "incomplete", "consistent")


# ------------------------------------------------------------------------------------------------ results


@dataclass(frozen=True)
class Violation:
    """One law broken: ``witness`` the shrunk input (for a monotonicity law ``{"a": {...}, "b": {...}}`` with
    a < b in the law's parameter), ``values`` what the implementation returned there (a number, ``"raised ..."`` or
    ``"no answer within N s"``), ``gap`` the size of the violation (relative for monotonicity: (f(b) - f(a)) / max
    |f|, signed so that positive is a violation), ``reproducer`` runnable Python."""

    law: str
    witness: dict[str, Any]
    values: tuple[Any, ...]
    gap: float | None
    detail: str
    reproducer: str

    def as_json(self) -> dict[str, Any]:
        return {"law": self.law, "witness": _jsonable(self.witness), "values": [_jsonable(v) for v in self.values],
                "gap": self.gap if self.gap is None or math.isfinite(self.gap) else repr(self.gap),
                "detail": self.detail, "reproducer": self.reproducer}


@dataclass(frozen=True)
class LawResult:
    """What :func:`check_laws` found: the ``verdict``, the violations (one per violated law, the shrunk witness of
    each), ``judged`` examples per law, and why the search stopped."""

    function: str
    laws: tuple[str, ...]
    verdict: str
    violations: tuple[Violation, ...] = ()
    judged: dict[str, int] = field(default_factory=dict)
    examples: int = 0
    skipped: int = 0
    unanswered: int = 0
    seed: int = 0
    stopped: str = ""
    detail: str = ""

    @property
    def witness(self) -> dict[str, Any] | None:
        return self.violations[0].witness if self.violations else None

    @property
    def reproducer(self) -> str:
        return self.violations[0].reproducer if self.violations else ""

    @property
    def law(self) -> str | None:
        return self.violations[0].law if self.violations else None

    def summary(self) -> str:
        head = (f"{self.function} laws {', '.join(self.laws)}: {self.verdict} ({self.examples} examples, "
                f"seed {self.seed}{', ' + self.detail if self.detail else ''})")
        parts = [head]
        for v in self.violations:
            parts.append(f"law {v.law}: {v.detail}\nreproducer:\n{v.reproducer}")
        return "\n".join(parts)

    def as_json(self) -> dict[str, Any]:
        return {"function": self.function, "laws": list(self.laws), "verdict": self.verdict,
                "violations": [v.as_json() for v in self.violations], "judged": dict(self.judged),
                "examples": self.examples, "skipped": self.skipped, "unanswered": self.unanswered,
                "seed": self.seed, "stopped": self.stopped, "detail": self.detail}


def _jsonable(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _jsonable(x) for k, x in v.items()}
    if isinstance(v, float) and not math.isfinite(v):
        return repr(v)
    return v if isinstance(v, (int, float, str, type(None))) else repr(v)


# ------------------------------------------------------------------------------------------------ calling


class _Timeout:
    pass


TIMEOUT = _Timeout()


def _worker(fn: Callable[..., Any], conn: Any) -> None:
    while True:
        try:
            inputs = conn.recv()
        except EOFError:
            return
        try:
            v = fn(**inputs)
            try:
                out: tuple[str, Any] = ("ok", float(v)) if not isinstance(v, bool) else ("ok", repr(v))
            except (TypeError, ValueError):
                out = ("ok", repr(v))
        except BaseException as e:  # noqa: BLE001 - the implementation's exception is reported, not raised
            out = ("raise", f"{type(e).__name__}: {str(e)[:200]}")
        try:
            conn.send(out)
        except Exception:  # noqa: BLE001
            conn.send(("ok", repr(out[1])))


class Forked:
    """``fn`` in a forked worker process: a call that exceeds its timeout kills the worker (a fresh one serves the
    next call)."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn
        self.ctx = mp.get_context("fork")
        self.proc: Any = None
        self.conn: Any = None

    def _start(self) -> None:
        parent, child = self.ctx.Pipe()
        self.proc = self.ctx.Process(target=_worker, args=(self.fn, child), daemon=True)
        self.proc.start()
        child.close()
        self.conn = parent

    def call(self, inputs: Mapping[str, Any], timeout: float | None) -> tuple[str, Any]:
        if self.proc is None or not self.proc.is_alive():
            self._start()
        self.conn.send(dict(inputs))
        if self.conn.poll(timeout):
            try:
                return self.conn.recv()
            except EOFError:
                self.close()
                return ("raise", "the worker process died during the call")
        self.close()
        return ("timeout", None)

    def close(self) -> None:
        if self.proc is not None:
            if self.proc.is_alive():
                self.proc.kill()
            self.proc.join(5)
            self.conn.close()
            self.proc = self.conn = None


class InProcess:
    """``fn`` called in this process (no call cap: ``terminates`` cannot be checked this way)."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn

    def call(self, inputs: Mapping[str, Any], timeout: float | None) -> tuple[str, Any]:
        try:
            v = self.fn(**inputs)
        except Exception as e:  # noqa: BLE001
            return ("raise", f"{type(e).__name__}: {str(e)[:200]}")
        try:
            return ("ok", float(v)) if not isinstance(v, bool) else ("ok", repr(v))
        except (TypeError, ValueError):
            return ("ok", repr(v))

    def close(self) -> None:
        pass


# ------------------------------------------------------------------------------------------------ laws


def _parse(law: str, names: Sequence[str]) -> tuple[str, str | None] | str:
    """(kind, parameter) of a law, or the reason it is not one."""
    if not isinstance(law, str):
        return f"a law is a string, not {law!r}"
    kind, sep, p = law.partition(":")
    if kind in POINT_LAWS and not sep:
        return kind, None
    if kind in PARAM_LAWS:
        if not p:
            return f"law {law!r} names no input ('{kind}:<input>')"
        if p not in names:
            return f"law {law!r} names {p!r}, which is not one of the inputs {sorted(names)}"
        return kind, p
    return (f"unknown law {law!r} (laws: {', '.join(POINT_LAWS)}, "
            f"{', '.join(k + ':<input>' for k in PARAM_LAWS)})")


def _point_violation(kind: str, p: str | None, x: Mapping[str, Any], v: Any) -> tuple[float, str] | None:
    """(gap, what) when value ``v`` at ``x`` breaks the point law; None when it holds."""
    num = isinstance(v, float)
    if kind == "not_nan":
        return None if num and not math.isnan(v) else (math.inf, f"returned {short_repr(v)}, not a number")
    if kind == "finite":
        return None if num and math.isfinite(v) else (math.inf, f"returned {short_repr(v)}, not a finite number")
    if not num or math.isnan(v):
        return (math.inf, f"returned {short_repr(v)}, not a number")
    if kind == "nonnegative":
        return None if v >= 0 else (-v, f"returned {v!r} < 0")
    if kind == "at_most_one":
        return None if v <= 1 else (v - 1, f"returned {v!r} > 1")
    if kind == "at_most_one_minus":
        bound = 1.0 - float(x[p])  # type: ignore[index]
        return None if v <= bound else (v - bound, f"returned {v!r} > 1 - {p} = {bound!r}")
    raise AssertionError(kind)


def _crash(text: str) -> bool:
    """Whether an exception ``"Type: message"`` is a crash (law ``no_crash``), not a refusal of the input."""
    name, _, msg = str(text).partition(":")
    name = name.strip().rpartition(".")[2]
    return name in CRASHES or (name == "ValueError" and msg.strip().lower() in CRASH_MESSAGES)


def _signature_problem(fn: Any, names: Sequence[str]) -> str | None:
    """Why ``fn`` cannot take ``names`` as keywords (None when it can, or when its signature is not known)."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    params = sig.parameters.values()
    if any(p.kind == p.VAR_KEYWORD for p in params):
        return None
    takes = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    extra = [n for n in names if n not in takes]
    needed = [p.name for p in params if p.default is p.empty and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
              and p.name not in names]
    if not extra and not needed:
        return None
    parts = []
    if extra:
        parts.append(f"it takes no {', '.join(map(repr, extra))}")
    if needed:
        parts.append(f"its required {', '.join(map(repr, needed))} not given")
    return f"the inputs {sorted(names)} do not match {_name(fn)}{sig}: " + "; ".join(parts)


def _name(obj: Any) -> str:
    mod = getattr(obj, "__module__", None) or "?"
    return f"{mod}.{getattr(obj, '__qualname__', None) or type(obj).__qualname__}"


def _import_line(obj: Any) -> str:
    mod, qn = getattr(obj, "__module__", None), getattr(obj, "__qualname__", "")
    if mod and qn and "<" not in qn and "." not in qn and mod != "__main__":
        return f"from {mod} import {qn} as fn"
    return f"fn = ...  # bind to {_name(obj)} (not importable by name)"


def _args(x: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in x.items())


def _reproducer(fn: Any, law: str, kind: str, p: str | None, pts: Sequence[Mapping[str, Any]],
                call_seconds: float) -> str:
    head = f"# dpbounds.testing.check_laws witness: law {law}\n{_import_line(fn)}\n"
    if kind in ("nonincreasing", "nondecreasing"):
        a, b = pts
        op = ">=" if kind == "nonincreasing" else "<="
        return (head + f"a = fn({_args(a)})\nb = fn({_args(b)})\n"
                f"# {p} = {a[p]!r} < {b[p]!r}: {kind} in {p} requires a {op} b\n"
                f"print(a, b)\nassert a {op} b, (a, b)\n")
    x = pts[0]
    if kind == "terminates":
        return (head + "import signal\n"
                "signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError('no answer')))\n"
                f"signal.alarm({max(1, math.ceil(call_seconds))})\n"
                f"print(fn({_args(x)}))  # does not return within {call_seconds:g} s\n")
    if kind in ("returns", "no_crash"):
        return head + f"print(fn({_args(x)}))  # raises on an input inside the documented domain\n"
    check = {"not_nan": "v == v", "finite": "math.isfinite(v)", "nonnegative": "v >= 0", "at_most_one": "v <= 1",
             "at_most_one_minus": f"v <= 1 - {x.get(p)!r}"}[kind]
    return head + f"import math\nv = fn({_args(x)})\nprint(v)\nassert {check}, v\n"


# ------------------------------------------------------------------------------------------------ the search


class _Found(Exception):
    pass


class _Search:
    def __init__(self, runner: Any, fixed: Mapping[str, Any], call_seconds: float, t_end: float,
                 rtol: float, atol: float, warmup: float = WARMUP) -> None:
        self.warmup = warmup
        self.runner, self.fixed, self.call_seconds, self.t_end = runner, dict(fixed), call_seconds, t_end
        self.rtol, self.atol = rtol, atol
        self.cache: dict[tuple[Any, ...], tuple[str, Any]] = {}
        self.durations: dict[tuple[Any, ...], float] = {}  # seconds of each point's (last) call
        self.calls = self.skipped = self.unanswered = 0
        self.out_of_time = False
        self.cold = True                      # the next call is a fresh worker's first (imports not yet done)
        self.hangs: set[tuple[str, str]] = set()  # (input, repr(value)) where a hang was shown
        self.last_ok: dict[str, Any] | None = None

    def value(self, x: Mapping[str, Any]) -> tuple[str, Any] | None:
        """("ok", v) | ("raise", text) | ("timeout", None); None when the cap left no time for the call."""
        key = tuple(sorted((k, repr(v)) for k, v in x.items()))
        if key in self.cache:
            return self.cache[key]
        if any((k, repr(v)) in self.hangs for k, v in x.items()):
            self.skipped += 1  # a value already shown to hang: not called again (each would cost a call cap)
            return None
        left = self.t_end - time.monotonic()
        if left <= 0:
            self.out_of_time = True
            return None
        cold = self.cold
        t0 = time.monotonic()
        r = self._call(x, self.call_seconds + (self.warmup if cold else 0.0), left)
        if r is not None and r[0] == "timeout" and not cold and self.last_ok is not None:
            # confirmed on a fresh worker, warmed first by the last point answered (its imports, its caches)
            self._call(self.last_ok, self.call_seconds + self.warmup, self.t_end - time.monotonic())
            t0 = time.monotonic()
            r = self._call(x, self.call_seconds + (self.warmup if self.cold else 0.0), self.t_end - time.monotonic())
        self.durations[key] = time.monotonic() - t0
        if r is None:
            self.unanswered += 1  # the check's own cap expired, not the call's: not judged
            self.out_of_time = True
            return None
        self.calls += 1
        self.cache[key] = r
        return r

    def took(self, x: Mapping[str, Any]) -> float:
        """The seconds of the call that answered at ``x`` (+inf when it was not called)."""
        return self.durations.get(tuple(sorted((k, repr(v)) for k, v in x.items())), math.inf)

    def nearby_answer(self, x: Mapping[str, Any], inputs: Mapping[str, Any]
                      ) -> tuple[str, dict[str, Any], float] | None:
        """(input, point, seconds) of a point next to ``x`` -- one input nudged by a relative 1e-6, 0 moved to
        1e-300, an integer by one, a listed value to its neighbour -- that answers within a quarter of the call cap:
        evidence that ``x`` hangs rather than sits in a slow region.  None when no neighbour answers."""
        cap = max(2.0, self.call_seconds / 4)
        for name, dom in inputs.items():
            for v in _nudges(x[name], dom):
                y = {**x, name: v}
                if self.cold and self.last_ok is not None:  # warm the fresh worker first: time the call alone
                    self._call(self.last_ok, self.call_seconds + self.warmup, self.t_end - time.monotonic())
                t0 = time.monotonic()
                r = self._call(y, cap + (self.warmup if self.cold else 0.0), self.t_end - time.monotonic())
                if r is not None and r[0] != "timeout":
                    return name, y, time.monotonic() - t0
                if self.t_end <= time.monotonic():
                    return None
        return None

    def _call(self, x: Mapping[str, Any], cap: float, left: float) -> tuple[str, Any] | None:
        """The runner's answer; None when the check's cap, not the call's, cut the call short."""
        if left <= 0:
            return None
        r = self.runner.call({**self.fixed, **x}, min(cap, left + 1.0))
        if r[0] == "timeout":
            self.cold = True
            return None if left + 1.0 < cap else r
        self.cold = False
        if r[0] == "ok":
            self.last_ok = dict(x)
        return r


def _nudges(v: Any, dom: Any) -> list[Any]:
    """Values next to ``v`` inside ``dom`` (see :meth:`_Search.nearby_answer`)."""
    if isinstance(dom, tuple) and len(dom) == 2:
        lo, hi = dom
        if isinstance(lo, int) and isinstance(hi, int) and isinstance(v, int):
            cands: list[Any] = [v - 1, v + 1]
        elif v == 0:
            cands = [1e-300, -1e-300]
        else:
            cands = [v * (1 - 1e-6), v * (1 + 1e-6)]
        return [c for c in cands if lo <= c <= hi and c != v]
    vals = sorted(set(dom))
    if v not in vals:
        return []
    i = vals.index(v)
    return [vals[j] for j in (i - 1, i + 1) if 0 <= j < len(vals)]


#: points of a grid spread evenly (a domain spanning at most three decades): see :func:`scan_grid`
SCAN_POINTS = 16
#: the most points one scan visits (a monotonicity law at one example): every point of a :func:`scan_grid` of an
#: interval (at most 33 with the example's value); a longer list of values is sampled (:func:`scan_points`)
SCAN_BUDGET = 40


def scan_grid(domain: Any, n: int = SCAN_POINTS) -> list[Any]:
    """A fixed grid of ``domain`` (``(lo, hi)`` or a list of values) for the scan of a monotonicity law: every listed
    value; integers and floats spanning more than three decades by powers of ten (and both ends, 0 included); else
    ``n`` evenly spaced values."""
    if not (isinstance(domain, tuple) and len(domain) == 2):
        return sorted(set(domain))
    lo, hi = domain
    if isinstance(lo, int) and isinstance(hi, int) and not isinstance(lo, bool):
        if hi - lo <= n:
            return list(range(lo, hi + 1))
        pts = {lo, hi}
        base = max(lo, 1)
        if hi / base > 1e3:
            step = (math.log10(hi) - math.log10(base)) / (n - 1)
            pts |= {min(hi, max(lo, int(round(10 ** (math.log10(base) + i * step))))) for i in range(n)}
        else:
            pts |= {lo + (hi - lo) * i // (n - 1) for i in range(n)}
        return sorted(pts)
    lo, hi = float(lo), float(hi)
    pos = lo if lo > 0 else (1e-300 if hi > 0 else 0.0)
    if pos > 0 and hi / pos > 1e3:
        e_lo, e_hi = math.ceil(math.log10(pos)), math.floor(math.log10(hi))
        # every decade of the top twenty (where accountants are used, and where float error sets in: 1 - cdf
        # below 1e-16), then n // 2 decades spread over the rest, down to the lower end
        dense = max(e_lo, e_hi - 20)
        pts = {10.0 ** e for e in range(dense, e_hi + 1)}
        if dense > e_lo:
            step = max(1, math.ceil((dense - e_lo) / max(1, n // 2)))
            pts |= {10.0 ** e for e in range(e_lo, dense, step)}
        pts |= {lo, hi, pos}
        return sorted(v for v in pts if lo <= v <= hi)
    return sorted({lo + (hi - lo) * i / (n - 1) for i in range(n)})


def _scan_order(grid: Sequence[Any], v: Any) -> list[Any]:
    """The order a scan calls its grid: the example's own value, the two ends, then the rest coarse to fine (the
    middle point, then the middles of the two halves, of the four quarters, ...) -- every part of the domain, its
    far edges included, early in the scan, so that a scan the cap cuts short has seen all of it coarsely."""
    vals = sorted({*grid, v})
    head = [v] + [x for x in (vals[0], vals[-1]) if x != v]
    rest = [x for x in vals if x not in head]
    out: list[Any] = []
    spans = [(0, len(rest))]
    while spans:
        nxt = []
        for lo, hi in spans:
            if lo < hi:
                mid = (lo + hi) // 2
                out.append(rest[mid])
                nxt += [(lo, mid), (mid + 1, hi)]
        spans = nxt
    return head + out


def scan_points(domain: Any, v: Any, seed: int = 0, n: int = SCAN_BUDGET) -> list[Any]:
    """The points, in calling order, of a scan at an example whose law parameter is ``v``: :func:`scan_grid` of
    ``domain`` in :func:`_scan_order`, all of it when it has at most ``n`` points, else the example's value, the two
    ends and a sample of the rest fixed by ``seed``.  A function of its arguments only (never of the time)."""
    vals = _scan_order(scan_grid(domain), v)
    if len(vals) <= n:
        return vals
    ends = sorted(vals)
    k = 1 + sum(1 for x in (ends[0], ends[-1]) if x != v)  # _scan_order calls the value, then the ends
    head, rest = vals[:k], vals[k:]
    keep = set(map(repr, random.Random(f"{seed}:{len(vals)}:{v!r}").sample(rest, n - len(head))))
    return head + [x for x in rest if repr(x) in keep]


def _pairs(strategy_point: Any, p: str, domain: Any) -> Any:
    """Pairs of points differing in ``p``: the second value from the domain, or a float step from the first."""
    from hypothesis import strategies as st

    from dpbounds.testing import strategies as S

    def step(v: Any, r: float, up: bool) -> Any:
        if isinstance(v, bool):
            return v
        if isinstance(v, int) and isinstance(domain, tuple) and all(isinstance(e, int) for e in domain):
            k = max(1, int(round(abs(v) * r)))
            return v + k if up else v - k
        v = float(v)
        if r <= 2.0 ** -52:
            return math.nextafter(v, math.inf if up else -math.inf)
        if v == 0.0:
            return (r if up else -r)
        return v * (1 + r) if up else v * (1 - min(r, 0.5))

    def within(v: Any) -> bool:
        if isinstance(domain, tuple) and len(domain) == 2:
            return domain[0] <= v <= domain[1] and not (isinstance(v, float) and math.isnan(v))
        return v in list(domain)

    other = S.values(domain)
    near = st.tuples(st.sampled_from(STEPS), st.booleans())

    @st.composite
    def build(draw: Any) -> tuple[dict[str, Any], dict[str, Any]] | None:
        x = draw(strategy_point)
        if draw(st.booleans()) or not (isinstance(domain, tuple) and len(domain) == 2):
            v2 = draw(other)
        else:
            r, up = draw(near)
            v2 = step(x[p], r, up)
        if not within(v2) or v2 == x[p]:
            return None
        y = dict(x)
        y[p] = v2
        return (x, y) if x[p] < v2 else (y, x)

    return build()


def check_laws(fn: Callable[..., Any] | Any, *, inputs: Mapping[str, Any], laws: Sequence[str],
               seconds: float = 60, seed: int = 0, max_examples: int | None = None,
               fixed: Mapping[str, Any] | None = None, call_seconds: float = CALL_SECONDS,
               rtol: float = 1e-9, atol: float = 0.0, isolate: bool = True,
               warmup_seconds: float = WARMUP, examples: Sequence[Mapping[str, Any]] = ()) -> LawResult:
    """Search ``fn(**inputs) -> float`` over the whole domain ``inputs`` (name -> ``(lo, hi)`` or a list of values,
    as for :func:`dpbounds.testing.check_conversion`) for a violation of any of ``laws`` (module docstring).

    ``fixed``: keywords passed to every call.  ``max_examples``: examples per law group (the point laws together,
    each monotonicity law on its own; default :data:`DEFAULT_EXAMPLES`); ``seconds``: a cap on the whole check
    (expiry before the budget: ``incomplete``); ``call_seconds``: one call's cap (``terminates``).  ``rtol``,
    ``atol``: a monotonicity or range difference within ``rtol * max(|values|) + atol`` is not a violation.
    ``isolate``: run calls in a forked worker (needed for ``terminates``); ``warmup_seconds``: the extra time a
    fresh worker's first call may take (its imports).  A call over its cap on a warm worker is confirmed once on a
    fresh one before it counts.  ``examples``: points (every input named) at which each monotonicity law is first
    scanned over a fixed grid of its parameter (module docstring); a scan's violation is reported unshrunk."""
    try:
        from hypothesis import HealthCheck, Phase, given, settings, target
        from hypothesis import seed as hseed

        from dpbounds.testing.strategies import isolated_generation
    except ImportError as e:  # pragma: no cover
        raise ImportError(f"dpbounds.testing searches with hypothesis: pip install 'dpbounds[testing]' ({e})") from e
    from dpbounds.testing import strategies as S

    runner = fn if hasattr(fn, "call") and not callable(fn) else None
    name = _name(getattr(fn, "fn", fn)) if runner is not None else _name(fn)
    laws = tuple(laws)
    fixed = dict(fixed or {})

    def error(why: str, **kw: Any) -> LawResult:
        return LawResult(name, laws, "error", seed=seed, detail=why, **kw)

    if not laws:
        return error("no laws to check")
    parsed = []
    for law in laws:
        r = _parse(law, list(inputs))
        if isinstance(r, str):
            return error(r)
        parsed.append((law, *r))
    if not inputs:
        return error("no inputs to search")
    if runner is None:
        why = _signature_problem(fn, list(inputs) + list(fixed))
        if why:
            return error(why)
    if any(k == "terminates" for _, k, _ in parsed) and runner is None and not isolate:
        return error("law 'terminates' needs isolate=True (a call that does not return is abandoned in a worker)")
    budget = DEFAULT_EXAMPLES if max_examples is None else int(max_examples)
    if budget < 1:
        return error(f"max_examples={max_examples!r}: no example to judge")
    try:
        strategy = S.points(inputs, batched=False)  # (single points: a Grid's batch is for searches)
    except (ValueError, TypeError) as e:
        return error(f"inputs: {e}")

    t_end = time.monotonic() + max(0.0, float(seconds))
    own = runner is None
    runner = runner or (Forked(fn) if isolate else InProcess(fn))
    state = _Search(runner, fixed, float(call_seconds), t_end, float(rtol), float(atol), float(warmup_seconds))
    judged = {law: 0 for law in laws}
    found: dict[str, Violation] = {}
    point_laws = [(law, k, p) for law, k, p in parsed if k in POINT_LAWS or k == "at_most_one_minus"]
    mono_laws = [(law, k, p) for law, k, p in parsed if k in ("nonincreasing", "nondecreasing")]

    def point_check(x: Mapping[str, Any], pending: Sequence[tuple[str, str, str | None]], targets: bool = True,
                    hangs: bool = True) -> tuple[str, str, str | None, float, str, Any] | None:
        """The first point law of ``pending`` broken at ``x``; ``hangs=False``: a call over its cap is left to the
        caller (a scan judges it from its own neighbouring points)."""
        r = state.value(x)
        if r is None:
            return None
        status, v = r
        worst = None
        for law, kind, p in pending:
            if kind == "terminates":
                if status == "timeout" and not hangs:
                    continue
                if status == "timeout":
                    near = state.nearby_answer(x, inputs)
                    if near is None:  # slow all around this point: not judged (a slow region is not a hang)
                        state.skipped += 1
                        continue
                    judged[law] += 1
                    q, y, t = near
                    state.hangs.add((q, repr(x[q])))
                    what = (f"no answer within {state.call_seconds:g} s, while {q}={y[q]!r} (the other inputs "
                            f"equal) answers in {t:.2g} s")
                    return (law, kind, p, math.inf, what, f"no answer within {state.call_seconds:g} s")
                judged[law] += 1
                continue
            if status == "timeout":
                continue
            if kind == "returns":
                judged[law] += 1
                if status == "raise":
                    return (law, kind, p, math.inf, f"raised {v}", f"raised {v}")
                continue
            if kind == "no_crash":
                judged[law] += 1
                if status == "raise" and _crash(v):
                    return (law, kind, p, math.inf, f"raised {v}", f"raised {v}")
                continue
            if status != "ok":
                continue
            judged[law] += 1
            bad = _point_violation(kind, p, x, v)
            if bad is not None and (kind in ("not_nan", "finite") or not isinstance(v, float) or math.isnan(v)
                                    or bad[0] > state.rtol * max(1.0, abs(v)) + state.atol):
                if worst is None:
                    worst = (law, kind, p, bad[0], bad[1], v)
            elif isinstance(v, float) and math.isfinite(v):
                tgt = {"nonnegative": -v, "at_most_one": v - 1}.get(kind)
                if kind == "at_most_one_minus":
                    tgt = v - (1.0 - float(x[p]))  # type: ignore[index]
                if tgt is not None and targets:
                    target(max(-1e300, min(1e300, tgt)), label=law)
        return worst

    def piggyback(x: Mapping[str, Any], hangs: bool = True) -> None:
        """The point laws not yet violated, judged at a point a pair search called anyway."""
        pending = [t for t in point_laws if t[0] not in found]
        if not pending:
            return
        hit = point_check(x, pending, targets=False, hangs=hangs)
        if hit is not None:
            law, kind, p, gap, what, v = hit
            found[law] = Violation(law, dict(x), (v,), gap, f"at {_args(x)}: {what}",
                                   _reproducer(getattr(fn, "fn", fn), law, kind, p, [x], state.call_seconds))

    def mono_check(pair: tuple[dict[str, Any], dict[str, Any]], law: str, kind: str, p: str
                   ) -> tuple[float, str, tuple[Any, Any]] | None:
        a, b = pair
        ra = state.value(a)
        rb = state.value(b) if ra is not None else None
        for x, r in ((a, ra), (b, rb)):
            if r is not None:
                piggyback(x)
        if ra is None or rb is None:
            return None
        if ra[0] != "ok" or rb[0] != "ok" or not isinstance(ra[1], float) or not isinstance(rb[1], float) \
                or math.isnan(ra[1]) or math.isnan(rb[1]):
            state.skipped += 1
            return None
        judged[law] += 1
        fa, fb = ra[1], rb[1]
        up = fb - fa if kind == "nonincreasing" else fa - fb  # > 0: a violation
        if fa == fb or (math.isinf(fa) and math.isinf(fb) and (fa > 0) == (fb > 0)):
            up = 0.0
        scale = max(abs(fa), abs(fb))
        rel = up / scale if scale > 0 and math.isfinite(scale) else (math.inf if up > 0 else 0.0)
        if math.isfinite(rel):
            target(max(-1e300, min(1e300, rel)), label=law)
        if up > state.rtol * (scale if math.isfinite(scale) else 0.0) + state.atol or (up > 0 and math.isinf(up)):
            op = ">=" if kind == "nonincreasing" else "<="
            return (rel, f"{p} {a[p]!r} -> {fa!r}, {p} {b[p]!r} -> {fb!r}: {kind} in {p} needs {fa!r} {op} {fb!r}"
                         f" (relative gap {rel:.3g})", (fa, fb))
        return None

    def run_group(strategy_: Any, check: Callable[[Any], Any], k: int) -> tuple[Any, Any] | None:
        """One hypothesis run of at most ``budget`` examples; (example, result) of the shrunk violation."""
        hits: list[tuple[Any, Any]] = []

        def test(x: Any) -> None:
            if x is None:
                return
            res = check(x)
            if res is not None:
                hits.append((x, res))
                raise _Found

        run = settings(database=None, deadline=None, max_examples=budget, derandomize=False, print_blob=False,
                       report_multiple_bugs=False, suppress_health_check=list(HealthCheck),
                       phases=(Phase.explicit, Phase.generate, Phase.target, Phase.shrink))(
            hseed(seed * 1_000_003 + k)(given(strategy_)(test)))
        try:
            with isolated_generation():  # the seed alone decides the points, not what the process imported
                run()
        except _Found:
            pass
        except Exception:  # noqa: BLE001 - hypothesis' Flaky after a call cap changed an answer mid-shrink
            if not hits:
                raise
        return hits[-1] if hits else None

    def worst_pair(kind: str, p: str, got: Sequence[tuple[dict[str, Any], float]]
                   ) -> tuple[tuple[float, dict[str, Any], dict[str, Any], float, float] | None, int]:
        """The worst violating pair of a scan's answers (a[p] < b[p]) and the number of pairs compared."""
        pts = sorted(got, key=lambda t: t[0][p])  # the scan calls its points in another order
        worst, n = None, 0
        for i, (a, fa) in enumerate(pts):
            for b, fb in pts[i + 1:]:
                n += 1
                up = fb - fa if kind == "nonincreasing" else fa - fb
                if fa == fb or (math.isinf(fa) and math.isinf(fb) and (fa > 0) == (fb > 0)):
                    continue
                scale = max(abs(fa), abs(fb))
                rel = up / scale if scale > 0 and math.isfinite(scale) else (math.inf if up > 0 else 0.0)
                if (up > state.rtol * (scale if math.isfinite(scale) else 0.0) + state.atol
                        or (up > 0 and math.isinf(up))) and (worst is None or rel > worst[0]):
                    worst = (rel, a, b, fa, fb)
        return worst, n

    def scan(law: str, kind: str, p: str) -> None:
        """The law at every example: ``p`` over each example's scan points (:func:`scan_points`), visited pass by
        pass -- the first point of every example's scan, then the second of each, ... -- so that a slow example
        does not hold back the others' far edges; after each pass every pair of each scan compared, the worst
        violation recorded (the law's scans end there).  Only the check's cap cuts the scans short (counted in
        ``progress``).  A point that gives no answer within the call cap is judged for ``terminates`` at once
        (:func:`hang_in_scan`), its grid neighbours visited first; an example with two such points ends its scan
        (left to the search)."""
        scans = [(base, scan_points(inputs[p], base[p], seed)) for base in bases]
        todo = [list(pts) for _, pts in scans]
        got: list[list[tuple[dict[str, Any], float]]] = [[] for _ in scans]
        slow = [0] * len(scans)
        worst = None

        def visit(j: int, v: Any) -> tuple[str, Any] | None:
            todo[j].remove(v)
            x = {**scans[j][0], p: v}
            r = state.value(x)
            if r is None:  # the check's cap (or a value already shown to hang)
                if state.out_of_time:
                    progress["scan_cut"] += len(todo[j]) + 1
                    todo[j].clear()
                return None
            progress["scan_done"] += 1
            piggyback(x, hangs=False)
            if r[0] == "ok" and isinstance(r[1], float) and not math.isnan(r[1]):
                got[j].append((x, r[1]))
            return r

        while any(todo):
            for j, (base, pts) in enumerate(scans):
                if not todo[j]:
                    continue
                v = todo[j][0]
                r = visit(j, v)
                if r is None or r[0] != "timeout":
                    continue
                grid = sorted(pts)
                i = grid.index(v)
                slow[j] += 1
                for nb in (grid[k] for k in (i - 1, i + 1) if 0 <= k < len(grid)):
                    if nb in todo[j]:
                        rn = visit(j, nb)
                        slow[j] += rn is not None and rn[0] == "timeout"
                hang_in_scan(p, pts, {**base, p: v}, [y for y, _ in got[j]])
                if slow[j] >= 2 and todo[j]:  # slow at this example: the rest of its scan is left to the search
                    progress["scan_slow"] += len(todo[j])
                    todo[j].clear()
            results = [worst_pair(kind, p, g) for g in got]
            worst = max((w for w, _ in results if w is not None), key=lambda w: w[0], default=None)
            if worst is not None or not any(todo):
                judged[law] += sum(n for _, n in results)
                break
        if worst is not None:
            progress["scan_found"] += sum(len(t) for t in todo)
            rel, a, b, fa, fb = worst
            op = ">=" if kind == "nonincreasing" else "<="
            found[law] = Violation(law, {"a": dict(a), "b": dict(b)}, (fa, fb), rel,
                                   f"{p} {a[p]!r} -> {fa!r}, {p} {b[p]!r} -> {fb!r}: {kind} in {p} needs {fa!r} "
                                   f"{op} {fb!r} (relative gap {rel:.3g}; scanned at an example)",
                                   _reproducer(getattr(fn, "fn", fn), law, kind, p, [a, b], state.call_seconds))

    def hang_in_scan(p: str, pts: Sequence[Any], x: Mapping[str, Any], answered: Sequence[dict[str, Any]]) -> None:
        """``terminates`` at a scan's point ``x`` that gave no answer.  Judged only where a neighbour of the point in
        the scan's grid (``pts``) returned a value within a quarter of the call cap -- else the point sits in a slow
        region, not judged, and no call is spent on it -- and then as the search judges a point: broken when a point
        next to it (one input nudged, :meth:`_Search.nearby_answer`) answers within a quarter of the cap."""
        law = next((t[0] for t in point_laws if t[1] == "terminates"), None)
        if law is None or law in found:
            return
        quick = max(2.0, state.call_seconds / 4)
        grid = sorted(pts)
        ok = {repr(y[p]) for y in answered if state.took(y) <= quick}
        i = grid.index(x[p])
        if not any(0 <= j < len(grid) and repr(grid[j]) in ok for j in (i - 1, i + 1)):
            state.skipped += 1  # slow around it in the scan: a slow region is not a hang
            return
        near = state.nearby_answer(x, inputs)
        if near is None:
            state.skipped += 1
            return
        judged[law] += 1
        q, y, t = near
        state.hangs.add((q, repr(x[q])))
        found[law] = Violation(law, dict(x), (f"no answer within {state.call_seconds:g} s",), math.inf,
                               f"at {_args(x)}: no answer within {state.call_seconds:g} s, while {q}={y[q]!r} "
                               f"(the other inputs equal) answers in {t:.2g} s",
                               _reproducer(getattr(fn, "fn", fn), law, "terminates", None, [x], state.call_seconds))

    def _num(name: str, v: Any) -> Any:  # an example's decimal string as the domain's number type
        if not isinstance(v, str):
            return v
        dom = inputs[name]
        ints = isinstance(dom, tuple) and len(dom) == 2 and all(isinstance(e, int) for e in dom)
        return int(v) if ints else float(v)

    bases = [{n: _num(n, e[n]) for n in inputs} for e in examples if set(e) >= set(inputs)]
    progress: dict[str, Any] = {"scan_done": 0, "scan_cut": 0, "scan_slow": 0, "scan_found": 0, "unsearched": []}
    try:
        # every scan visits its fixed points, law by law (the quantity's own argument first: laws_for puts it
        # first): the examples depend on the seed alone, the time is only the check's cap
        for law, kind, p in mono_laws:
            assert p is not None
            if law in found:
                continue
            if state.out_of_time:
                progress["scan_cut"] += sum(len(scan_points(inputs[p], b[p], seed)) for b in bases)
                continue
            scan(law, kind, p)
        k = 0
        for law, kind, p in mono_laws:
            if law in found:
                continue
            if state.out_of_time:
                progress["unsearched"].append(law)
                continue
            assert p is not None
            hit = run_group(_pairs(strategy, p, inputs[p]), lambda pr, law=law, kind=kind, p=p:
                            mono_check(pr, law, kind, p), 1000 + k)
            k += 1
            if hit is not None:
                (a, b), (rel, what, vals) = hit
                found[law] = Violation(law, {"a": dict(a), "b": dict(b)}, vals, rel, what,
                                       _reproducer(getattr(fn, "fn", fn), law, kind, p, [a, b],
                                                   state.call_seconds))
            elif state.out_of_time:
                progress["unsearched"].append(law)
        pending = [t for t in point_laws if t[0] not in found]
        while pending and not state.out_of_time:
            hit = run_group(strategy, lambda x: point_check(x, pending), k)
            k += 1
            if hit is None:
                break
            x, (law, kind, p, gap, what, v) = hit
            found[law] = Violation(law, dict(x), (v,), gap, f"at {_args(x)}: {what}",
                                   _reproducer(getattr(fn, "fn", fn), law, kind, p, [x], state.call_seconds))
            pending = [t for t in pending if t[0] != law]
        if state.out_of_time:
            progress["unsearched"] += [t[0] for t in pending if t[0] not in found]
    finally:
        if own:
            runner.close()

    violations = tuple(found[law] for law in laws if law in found)
    common = dict(judged=judged, examples=state.calls, skipped=state.skipped, unanswered=state.unanswered,
                  seed=seed)
    notes = []
    if progress["scan_slow"]:
        notes.append(f"{progress['scan_slow']} scan points left to the search at examples where two calls went "
                     f"unanswered within {call_seconds:g} s")
    if state.out_of_time:  # the cap cut the budget short: said, never silently fewer examples
        cut = (f"cut short by the {seconds:g} s cap: {progress['scan_cut']} scan points not visited "
               f"({progress['scan_done']} visited)"
               + (f"; the search of {', '.join(progress['unsearched'])} not completed"
                  if progress["unsearched"] else "") + f" (budget {budget} examples per law group)")
        notes.insert(0, cut)
    detail = "; ".join(notes)
    if violations:
        return LawResult(name, laws, "inconsistent", violations, stopped="time" if state.out_of_time else "found",
                         detail=detail, **common)
    if state.out_of_time:
        return LawResult(name, laws, "incomplete", stopped="time", detail=detail, **common)
    unjudged = [law for law in laws if judged[law] == 0]
    if unjudged:
        return LawResult(name, laws, "error", stopped="examples",
                         detail=f"no example judged for {', '.join(unjudged)} (every call raised or gave no number)",
                         **common)
    return LawResult(name, laws, "consistent", stopped="examples", detail=detail, **common)
