"""A peer function stated once -- :class:`Declaration` -- and the runner that searches it
(:func:`run_declaration`), in this interpreter or in the peer's own (JSON lines over stdin/stdout).

The contract (shared with the audit's peers, ``reference/audit/peers/<peer>/``)::

    Declaration(
        peer="opacus", function="opacus.accountants.analysis.rdp.compute_rdp",
        call="dpbounds.audit.peers.opacus.calls:compute_rdp",  # "<module>:<func>"; imports only the peer + stdlib
        reference="mechanisms.sgm.rdp",    # a registry id, or a certified callable (**inputs) -> Enclosure
        inputs={"q": (1e-8, 1.0), "sigma": (0.3, 100.0), "alpha": [2, 3, 4.5, 32, 256]},
        kind="conversion",                 # "conversion" | "filter" | "odometer"
        claim="upper", fixed={}, budget=None, costs=("eps",),
        examples=(),                       # explicit points run first (grid points, found witnesses)
        cites="Mironov, Talwar, Zhang 2019, arXiv:1908.10530v1, Sec. 3.3", against="truth")

``call``: conversion/odometer ``func(**inputs) -> float``; filter ``func(**budget) -> object`` with
``try_spend(**costs) -> truthy``; odometer ``func(**budget) -> object`` with ``step(**costs) -> float``.  The
module is imported by its full name.
"""

from __future__ import annotations

import importlib
import importlib.util
import threading
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from dpbounds.spec import DomainError
from dpbounds.testing.checks import check_conversion, check_filter, check_odometer
from dpbounds.testing.results import CheckResult, RaisedElsewhere
from dpbounds.testing.verdicts import PASS

#: the time cap of an assert_sound search when not given (``--dpbounds-seconds`` under pytest): only a cap -- the
#: examples are the check's budget (``max_examples``), and a search the cap cuts short fails as ``incomplete``
DEFAULT_SECONDS = 600.0

KINDS = ("conversion", "filter", "odometer")


@dataclass(frozen=True)
class Declaration:
    """One peer function: what its users call, over which domain, against which reference, with which claim."""

    peer: str
    function: str
    call: str | Callable[..., Any]
    reference: str | Callable[..., Any]
    inputs: Mapping[str, Any] = field(default_factory=dict)
    kind: str = "conversion"
    claim: str = "upper"
    fixed: Mapping[str, Any] = field(default_factory=dict)
    budget: Mapping[str, Any] | None = None
    costs: tuple[str, ...] = ("eps",)
    examples: tuple[Any, ...] = ()
    cites: str = ""
    against: str = "truth"
    check: str = ""                    # what is compared, in words (the audit row's "check"; optional)
    max_rounds: int | None = None      # a filter's / odometer's longest searched stream (None: the check's default)
    #: examples per second of ``dpbounds audit --search`` budget at most (None: what judging one costs decides,
    #: dpbounds.audit.engine.RATES): a function whose own call takes the peer tenths of a second says so, so that
    #: its deterministic budget fits the search's time cap instead of being cut by it
    rate: float | None = None
    #: the most seconds one call of the peer may take in a search of ``dpbounds audit --search`` and in its laws
    #: check (None: the audit's default, dpbounds.audit.engine.CALL_CAP): a function whose calls take the peer seconds
    #: at some corner of its domain says so, so that which points are judged depends on the seed, not on the clock
    #: (a call over it is not judged: the search is ``incomplete``, naming the input)
    call_seconds: float | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise DomainError("kind", self.kind, " | ".join(KINDS), "dpbounds.testing.Declaration")
        if self.claim not in ("upper", "lower"):
            raise DomainError("claim", self.claim, "'upper' or 'lower'", "dpbounds.testing.Declaration")
        if self.against not in ("cited", "truth"):
            raise DomainError("against", self.against, "'cited' or 'truth'", "dpbounds.testing.Declaration")
        if self.max_rounds is not None and (isinstance(self.max_rounds, bool) or not isinstance(self.max_rounds, int)
                                            or self.max_rounds < 1):
            raise DomainError("max_rounds", self.max_rounds, "a positive integer or None",
                              "dpbounds.testing.Declaration")
        if self.rate is not None and (isinstance(self.rate, bool) or not isinstance(self.rate, (int, float))
                                      or not 0 < self.rate < float("inf")):
            raise DomainError("rate", self.rate, "a positive number of examples per second or None",
                              "dpbounds.testing.Declaration")
        if self.call_seconds is not None and (isinstance(self.call_seconds, bool) or
                                              not isinstance(self.call_seconds, (int, float))
                                              or not 0 < self.call_seconds < float("inf")):
            raise DomainError("call_seconds", self.call_seconds, "a positive number of seconds or None",
                              "dpbounds.testing.Declaration")
        if self.kind != "conversion" and self.budget is None:
            raise DomainError("budget", None, f"a budget (the {self.kind}'s parameters)",
                              "dpbounds.testing.Declaration")

    @property
    def label(self) -> str:
        return f"{self.peer}: {self.function} vs {self.reference if isinstance(self.reference, str) else 'callable'}"


@dataclass(frozen=True)
class Peer:
    """What the audit needs to know about a peer besides its declarations (a peer package's ``PEER``).

    ``name``: as shown in the audit (and in ``--peers`` / ``--python NAME=PATH``); ``dist``: its distribution on PyPI,
    for the version (default ``name``); ``module``: the import name probed for presence and version (default
    ``name``); ``install``: how to install it, shown when it is missing (default ``pip install DIST``);
    ``probe_import``: False when importing ``module`` needs a framework the calls do not (presence is then looked up
    without importing it); ``note``: shown with the peer's results; ``python``: whether the peer can run in its own
    interpreter (``--python NAME=PATH``; declarations always can, a hand-written ``audit()`` only when it takes
    ``python``)."""

    name: str
    dist: str = ""
    module: str = ""
    install: str = ""
    probe_import: bool = True
    note: str = ""
    python: bool = True

    def __post_init__(self) -> None:
        for f in ("name", "dist", "module", "install", "note"):
            if not isinstance(getattr(self, f), str):
                raise DomainError(f, getattr(self, f), "a string", "dpbounds.testing.Peer")
        if not self.name:
            raise DomainError("name", self.name, "a non-empty string", "dpbounds.testing.Peer")
        if not self.dist:
            object.__setattr__(self, "dist", self.name)
        if not self.module:
            object.__setattr__(self, "module", self.name)
        if not self.install:
            object.__setattr__(self, "install", f"not installed; pip install {self.dist}")


def describe(mod: Any) -> Peer:
    """The :class:`Peer` of an adapter module: its ``PEER`` when that is a Peer; for a module written to the older
    protocol (``PEER: str`` with optional ``DIST``, ``MODULE``, ``NOT_INSTALLED``, ``PROBE_IMPORT``, ``NOTE``,
    ``SUPPORTS_PYTHON``), a Peer built from those.  Raises TypeError when the module has no usable ``PEER``."""
    p = getattr(mod, "PEER", None)
    if isinstance(p, Peer):
        return p
    if not isinstance(p, str) or not p:
        raise TypeError(f"{getattr(mod, '__name__', mod)}: PEER must be a dpbounds.testing.Peer (or a name)")

    def text(attr: str) -> str:
        v = getattr(mod, attr, "")
        return v if isinstance(v, str) else ""
    declarative = callable(getattr(mod, "declarations", None))
    return Peer(p, dist=text("DIST"), module=text("MODULE"), install=text("NOT_INSTALLED"),
                probe_import=getattr(mod, "PROBE_IMPORT", True) is not False, note=text("NOTE"),
                python=declarative or getattr(mod, "SUPPORTS_PYTHON", False) is True)


def resolve_call(call: str | Callable[..., Any]) -> Callable[..., Any]:
    """The callable named by ``"<module>:<func>"`` (the module by its full name), or ``call`` itself."""
    if callable(call):
        return call
    mod_name, _, func = str(call).partition(":")
    if not mod_name or not func:
        raise DomainError("call", call, "'<module>:<func>'", "dpbounds.testing.Declaration")
    try:
        mod = importlib.import_module(mod_name)
    except ModuleNotFoundError as e:
        if not (e.name and (mod_name == e.name or mod_name.startswith(e.name + "."))):
            raise  # the module exists, a peer it imports does not
        raise DomainError("call", call, "an importable module", "dpbounds.testing.Declaration", str(e)) from None
    return getattr(mod, func)


def call_module_file(call: str) -> Path:
    """The source file of the ``call`` module (to run it in another interpreter)."""
    mod_name = str(call).partition(":")[0]
    try:
        spec = importlib.util.find_spec(mod_name)
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.origin:
        return Path(spec.origin)
    raise DomainError("call", call, "a module file to run in the peer's interpreter", "dpbounds.testing")


# ------------------------------------------------------------------------------------------------ another interpreter

_DRIVER = r'''
import importlib, importlib.metadata, importlib.util, json, math, os, sys
_answers = os.fdopen(os.dup(1), "w")      # the answers' channel; what the peer prints goes to stderr
os.dup2(2, 1)
sys.stdout = sys.stderr
mod = fn = None
if sys.argv[1]:  # (no calls module: only the "version" op)
    # the calls module's own directory never on sys.path (a module there named like the peer would shadow the
    # real package); the module is loaded by its file path instead
    _here = os.path.dirname(os.path.abspath(sys.argv[1]))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.getcwd()) != _here]
    spec = importlib.util.spec_from_file_location("peer_calls", os.path.abspath(sys.argv[1]))
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    fn = getattr(mod, sys.argv[2]) if sys.argv[2] else None
def num(v):
    # the implementation's answer: a number (int, float, a numpy integer or float) as a float (an int beyond
    # float64's range as +-inf, a non-finite one as its repr); anything else (None, a str, a bool, a list) as
    # {"$returned": its repr}, judged on the other side as a non-number, the peer's error -- converting it here
    # would raise in this driver, and be charged to the adapter
    if type(v).__module__ == "numpy" and getattr(getattr(v, "dtype", None), "kind", "") in ("i", "u", "f"):
        v = v.item()
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        try:
            text = repr(v)
        except Exception:
            text = "<" + type(v).__name__ + " whose repr raised>"
        return {"$returned": text[:200]}
    try:
        v = float(v)
    except OverflowError:
        v = math.inf if v > 0 else -math.inf
    return v if math.isfinite(v) else repr(v)
def one(req):
    try:
        op = req["op"]
        f = getattr(mod, req["func"]) if req.get("func") else fn  # (one interpreter serves a calls module's functions)
        if op == "call":
            return {"ok": num(f(**req["inputs"]))}
        if op == "json":  # a function of the calls module, by name, on JSON arguments, answering JSON
            v = getattr(mod, req["func"])(*req["args"])
            json.dumps(v)  # (a TypeError here, in the driver: the calls module's answer is no JSON)
            return {"ok": v}
        if op == "version":  # the peer's presence (imported, or only found) and its distribution's version
            if req["import"]:
                importlib.import_module(req["module"])
            elif importlib.util.find_spec(req["module"]) is None:
                raise ModuleNotFoundError("no module " + req["module"])
            return {"ok": importlib.metadata.version(req["dist"])}
        obj = f(**req["budget"])
        out = []
        for costs in req["rounds"]:
            if op == "filter":
                d = bool(obj.try_spend(**costs)); out.append(d)
                if not d: break
            else:
                v = obj.step(**costs)
                out.append(num(obj.value() if v is None and callable(getattr(obj, "value", None)) else v))
        return {"ok": out}
    except Exception as e:
        return {"error": type(e).__name__ + ": " + str(e)[:200], "where": where(e)}
def where(e):
    # whose code raised it: the innermost frame in this driver or the calls module is ours ("adapter"); a class
    # named DomainLimit is an input the wrapper declares it cannot express ("limit"); else the peer's
    if type(e).__name__ == "DomainLimit":
        return "limit"
    tb = e.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    f = tb.tb_frame.f_code.co_filename if tb is not None else ""
    return "adapter" if f in ("<string>", CALLS) else "peer"
CALLS = os.path.abspath(sys.argv[1])
_answers.write('{"ready": true}\n')  # started: the calls module is loaded (its imports are not a call's time)
_answers.flush()
for line in sys.stdin:
    _answers.write(json.dumps([one(r) for r in json.loads(line)]) + "\n")
    _answers.flush()
'''


def _importable(call: str) -> str:
    """The module of ``call`` as a reproducer imports it."""
    return str(call).partition(":")[0]


class Returned:
    """A non-number an implementation returned in another interpreter, shown by its repr there (the judgement calls
    it "not a number": the peer's error)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _from_json(v: Any) -> Any:
    """A value the driver sent: a filter's decision (a bool), a float, or a :class:`Returned` for the non-number an
    implementation returned."""
    if isinstance(v, bool):
        return v
    if isinstance(v, str) and v in ("inf", "-inf", "nan"):
        return float(v)
    if isinstance(v, dict) and isinstance(v.get("$returned"), str):
        return Returned(v["$returned"])
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    return Returned(repr(v))


#: the most seconds a peer's interpreter may take to start (load its calls module, with the peer's imports) before it
#: says it is ready: never counted against a call's time limit; a start that takes longer is an error (ours to see)
STARTUP_SECONDS = 300.0
#: a kept interpreter (:func:`reuse_interpreters`) whose resident memory exceeds this many bytes is not reused (a fresh
#: one starts): what a peer caches across calls stays bounded
REUSE_MAX_RSS = 1 << 30

_reused: Any = None  # the interpreters kept in the running reuse_interpreters() scope (a ContextVar, made lazily)


def _reuse_var() -> Any:
    global _reused
    if _reused is None:
        import contextvars
        _reused = contextvars.ContextVar("dpbounds_testing_reused_interpreters", default=None)
    return _reused


class reuse_interpreters:
    """A scope (``with reuse_interpreters():``) in which a peer's interpreter is kept when a :class:`Remote` closes,
    and taken up by the next Remote of the same interpreter and calls module -- one start (and one import of the
    peer) for a peer's explicit examples, searches and laws in this process instead of one per function and check.
    What crosses is unchanged (one JSON line per batch; each request names its function); a kept interpreter that
    died, or grew past :data:`REUSE_MAX_RSS`, is replaced by a fresh one.  The kept interpreters are closed when the
    scope ends; a scope inside another is the outer one's."""

    def __enter__(self) -> "reuse_interpreters":
        var = _reuse_var()
        self.token = var.set({}) if var.get() is None else None
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.token is None:
            return
        var = _reuse_var()
        kept = var.get() or {}
        var.reset(self.token)
        for slot in kept.values():
            slot.close()


class _Slot:
    """One interpreter running the driver on a calls module (a :class:`~dpbounds.testing.proc.Child` on the leash),
    replaced by a fresh one when a call is not answered in time; which functions it has answered (a function's first
    call in a fresh interpreter may take its lazy imports: :attr:`Remote.warmup`)."""

    def __init__(self, python: str, path: str, func: str) -> None:
        self.python, self.path, self.func = python, path, func
        self.lock = threading.Lock()
        self.kept = False
        self.start()

    def start(self) -> None:
        from dpbounds.testing.proc import Child
        self.child = Child.python(self.python, _DRIVER, [self.path, self.func])
        self.ready = False
        self.answered: set[str] = set()

    def wait_ready(self) -> None:
        """Until the interpreter has loaded the calls module (at most :data:`STARTUP_SECONDS`): RuntimeError with
        its stderr when it could not."""
        if self.ready:
            return
        from dpbounds.testing.proc import NoAnswer
        try:
            line = self.child.receive(STARTUP_SECONDS)
        except NoAnswer:
            raise RuntimeError(f"{self.python}: the peer's interpreter did not start within {STARTUP_SECONDS:g} s "
                               f"(loading {self.path or 'the driver'}; killed)") from None
        if not (isinstance(line, dict) and line.get("ready") is True):
            self.child.kill()
            raise RuntimeError(f"{self.python} started with {str(line)[:200]!r}, not the driver's ready line")
        self.ready = True

    def usable(self) -> bool:
        """Alive, and within :data:`REUSE_MAX_RSS` (when it can be read: Linux)."""
        if not self.child.alive():
            return False
        try:
            with open(f"/proc/{self.child.proc.pid}/statm") as f:
                import os
                return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") <= REUSE_MAX_RSS
        except (OSError, ValueError, IndexError):
            return True

    def close(self) -> None:
        self.child.close()


def _slot(python: str, path: str, func: str) -> _Slot:
    """The interpreter a new :class:`Remote` uses: the one kept in the running :class:`reuse_interpreters` scope for
    this interpreter and calls module (replaced when not :meth:`_Slot.usable`), else a fresh one."""
    kept = _reuse_var().get()
    if kept is None:
        return _Slot(python, path, func)
    key = (python, path)
    slot = kept.get(key)
    if slot is not None:
        if slot.lock.acquire(blocking=False):  # (busy: a call the engine abandoned still runs there)
            try:
                if slot.usable():
                    return slot
            finally:
                slot.lock.release()
            slot.close()
        else:
            kept[(python, path, id(slot))] = slot  # left to its call; closed with the scope
    slot = kept[key] = _Slot(python, path, func)
    slot.kept = True
    return slot


class Remote:
    """The ``call`` function running in another interpreter (a peer in its own environment): one child process on
    the leash (:class:`dpbounds.testing.proc.Child`), one JSON line per batch of requests.  Only JSON crosses: the
    peer's side never imports dpbounds.  ``timeout``: the most seconds one batch may take (None: no limit; none either
    for a search's explicit examples and replayed witnesses, :data:`~dpbounds.testing.engine.UNLIMITED`); a batch
    that takes longer kills the process (the next batch starts a fresh one) and raises
    :class:`~dpbounds.testing.engine.Unjudged` -- the search skips that point, and :attr:`slow` keeps its inputs.

    The interpreter's start (loading the calls module: the peer's imports) is awaited apart, at most
    :data:`STARTUP_SECONDS`, never under ``timeout``; ``warmup``: the extra seconds the function's first call in a
    fresh interpreter may take (the imports a calls module makes lazily, inside the function).  Inside
    :class:`reuse_interpreters` the interpreter is shared with the scope's other Remotes of the same calls module."""

    def __init__(self, python: str, call: str, timeout: float | None = None, warmup: float = 0.0) -> None:
        self.path = call_module_file(call) if str(call).partition(":")[0] else ""  # "": no calls module
        self.python, self.call, self.timeout, self.warmup = python, call, timeout, warmup
        self.func = str(call).partition(":")[2]
        self.slot = _slot(python, str(self.path), self.func)
        self.slow: list[Any] = []  # what the batches not answered in time asked (a search's slow inputs)

    def ready(self) -> None:
        """Wait for the interpreter's start (at most :data:`STARTUP_SECONDS`): before a search, so that it is not
        on the search's clock.  RuntimeError when it could not start (each call would say so too)."""
        with self.slot.lock:
            self.slot.wait_ready()

    def batch(self, reqs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        from dpbounds.testing.engine import UNLIMITED, Unjudged
        from dpbounds.testing.proc import NoAnswer
        limit = None if self.timeout is None or UNLIMITED.get() else self.timeout
        reqs = [{**r, "func": self.func} if self.func and r.get("op") != "json" else r for r in reqs]
        slot = self.slot
        with slot.lock:
            child = slot.child
            if not child.alive():
                raise RuntimeError(f"{self.python} exited {child.proc.returncode}: {child.stderr_tail()}")
            slot.wait_ready()
            if limit is not None and self.func not in slot.answered:
                limit += self.warmup
            try:
                answer = child.ask(reqs, timeout=limit)
            except NoAnswer:
                slot.start()
                self.slow.append(reqs[0] if len(reqs) == 1 else reqs)
                raise Unjudged(f"{self.call} gave no answer within {limit:g} s (not judged)") from None
            slot.answered.add(self.func)
        if not isinstance(answer, list):
            raise RuntimeError(f"{self.python} answered {type(answer).__name__}, not a list")
        return answer

    def close(self) -> None:
        if not self.slot.kept:
            self.slot.close()

    def answers(self, reqs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """:meth:`batch` outside a search: a batch not answered within the timeout is a RuntimeError."""
        from dpbounds.testing.engine import Unjudged
        try:
            return self.batch(reqs)
        except Unjudged:
            raise RuntimeError(f"{self.python}: no answer within {self.timeout:g} s (killed with its children)") \
                from None

    # the three shapes the engine calls
    def function(self) -> Callable[..., float]:
        def fn(**inputs: Any) -> float:
            r = self.batch([{"op": "call", "inputs": inputs}])[0]
            if "error" in r:
                raise RaisedElsewhere(str(r["error"]), str(r.get("where") or "peer"))
            v: float = _from_json(r["ok"])  # a Returned where the implementation returned a non-number
            return v
        fn.__qualname__ = fn.__name__ = self.call.partition(":")[2]
        fn.__module__ = _importable(self.call)
        return fn

    def stateful(self, op: str, budget: Mapping[str, Any]) -> Callable[[], Any]:
        """make() for a filter (op 'filter') or an odometer ('odometer') on the other side: the rounds are sent as
        one batch the first time the engine asks for a decision beyond those already known."""
        remote = self

        class _Proxy:
            def __init__(self) -> None:
                self.rounds: list[dict[str, Any]] = []
                self.cache: list[Any] = []

            def _ask(self, costs: dict[str, Any]) -> Any:
                self.rounds.append(costs)
                i = len(self.rounds) - 1
                if i >= len(self.cache):
                    r = remote.batch([{"op": op, "budget": dict(budget), "rounds": self.rounds}])[0]
                    if "error" in r:
                        raise RaisedElsewhere(str(r["error"]), str(r.get("where") or "peer"))
                    self.cache = [_from_json(v) for v in r["ok"]]
                    if i >= len(self.cache):
                        raise RuntimeError("the peer stopped answering before this round")
                return self.cache[i]

            def try_spend(self, **costs: Any) -> bool:
                return bool(self._ask(costs))

            def try_spend_stream(self, rounds: list[dict[str, Any]]) -> list[bool]:
                """The decisions on a whole stream, in one batch (the peer stops at its first HALT)."""
                r = remote.batch([{"op": op, "budget": dict(budget), "rounds": rounds}])[0]
                if "error" in r:
                    raise RaisedElsewhere(str(r["error"]), str(r.get("where") or "peer"))
                return [bool(v) for v in r["ok"]]

            def step(self, **costs: Any) -> float:
                v: float = self._ask(costs)  # a Returned where the implementation returned a non-number
                return v

        _Proxy.__qualname__ = _Proxy.__name__ = remote.call.partition(":")[2]
        _Proxy.__module__ = _importable(remote.call)
        return _Proxy


#: how long a peer's own interpreter may take to answer :func:`peer_calls` or :func:`peer_version`
PROBE_TIMEOUT_S = 300


def peer_calls(python: str | None, module: str, calls: Sequence[tuple[str, Sequence[Any]]],
               timeout: float = PROBE_TIMEOUT_S, strict: bool = False) -> list[Any]:
    """Each ``(function, args)`` of the calls module ``module`` (a peer package's ``calls``: it imports only the peer
    and the standard library) answered in the interpreter ``python`` (None: this one's executable, still in a child)
    through :class:`Remote`: one batch, at most ``timeout`` seconds, JSON only.  Per call ``{"ok": <JSON value>}``,
    or ``{"error": "<Type>: <message>", "where": "peer" | "adapter" | "limit"}`` when it raised; ``strict``: the
    values alone, and RuntimeError at the first call that raised.  RuntimeError (with the child's stderr tail) when
    the interpreter cannot run the module or gives no answer in time."""
    import sys
    if not calls:
        return []
    remote = Remote(python or sys.executable, f"{module}:", timeout=timeout)
    try:
        answer = remote.answers([{"op": "json", "func": f, "args": list(args)} for f, args in calls])
    finally:
        remote.close()
    if len(answer) != len(calls) or not all(isinstance(a, dict) for a in answer):
        raise RuntimeError(f"{python}: {len(answer)} answers to {len(calls)} calls")
    if strict:
        for a in answer:
            if "error" in a:
                raise RuntimeError(f"{python or sys.executable}: {a['error']}")
        return [a["ok"] for a in answer]
    return answer


def peer_version(python: str, module: str, dist: str, import_module: bool = True,
                 timeout: float = PROBE_TIMEOUT_S) -> tuple[bool, str]:
    """(True, the version of ``dist``) when ``module`` imports in the interpreter ``python`` (is found there, without
    importing it, when ``import_module`` is False: a peer whose package imports a framework its calls do not need),
    else (False, why)."""
    try:
        remote = Remote(python, "", timeout=timeout)
    except RuntimeError as e:
        return False, str(e)
    try:
        (a,) = remote.answers([{"op": "version", "module": module, "dist": dist, "import": import_module}])
    except (RuntimeError, ValueError) as e:
        return False, str(e)
    finally:
        remote.close()
    if "error" in a:
        return False, f"{python}: {a['error']}"
    return True, str(a["ok"])


def _peer_budget(budget: Mapping[str, Any]) -> dict[str, Any]:
    """The budget as the peer's users pass it: floats (exact decimals rounded to nearest)."""
    out = {}
    for k, v in budget.items():
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            out[k] = v
        else:
            out[k] = float(Fraction(str(v)))
    return out


def run_declaration(decl: Declaration, *, seconds: float = 60, seed: int = 0, max_examples: int | None = None,
                    python: str | None = None, extra_examples: Sequence[Any] = (),
                    call_timeout: float | None = None) -> CheckResult:
    """Search one declaration: its ``examples`` (and ``extra_examples``, e.g. replayed witnesses) first, then the
    domain.  ``python``: run the peer's ``call`` in that interpreter instead of this one; ``call_timeout``: there,
    the most seconds one call (a point, a stream) may take -- a point that takes longer is not judged, and makes
    the search ``incomplete``.  A declaration ``against="cited"`` judges below its reference as a
    ``formula-departure``, ``"truth"`` as ``unsound``."""
    if call_timeout is not None and (isinstance(call_timeout, bool) or not isinstance(call_timeout, (int, float))
                                     or not call_timeout > 0):
        raise DomainError("call_timeout", call_timeout, "a positive number of seconds or None", "run_declaration")
    from dpbounds.testing.laws import WARMUP
    remote = Remote(python, str(decl.call), timeout=call_timeout, warmup=WARMUP) if python else None
    try:
        if remote:
            try:
                remote.ready()  # the interpreter's start is not on the search's clock
            except RuntimeError:
                pass  # every call says why
        r = _run_declaration(decl, remote, seconds=seconds, seed=seed, max_examples=max_examples,
                             examples=list(decl.examples) + list(extra_examples))
        return _slow_input(r, remote.slow if remote else [], call_timeout)
    finally:
        if remote:
            remote.close()


def _slow_input(r: CheckResult, slow: list[Any], cap: float | None) -> CheckResult:
    """A search the clock made ``incomplete`` names the first input the peer did not answer within ``cap`` seconds
    (:attr:`CheckResult.slow`, in its detail and as its row's inputs): what to look at, or to give a larger
    ``Declaration.call_seconds``."""
    first = next((q for q in slow if isinstance(q, dict)), None)
    if first is None or r.verdict != "incomplete":
        return r
    point = first.get("inputs") if first.get("op") == "call" else {"budget": first.get("budget"),
                                                                    "rounds": first.get("rounds")}
    if not isinstance(point, dict):
        return r
    import json
    shown = ", ".join(f"{k}={v!r}" if first.get("op") == "call" else f"{k}={json.dumps(v)}" for k, v in point.items())
    import dataclasses
    detail = (r.detail + "; " if r.detail else "") + (
        f"first point not answered within the call time limit{'' if cap is None else f' of {cap:g} s'}: {shown}")
    r = dataclasses.replace(r, slow=dict(point), detail=detail)
    if r.row is not None and r.witness is None:
        r.row.inputs = {k: v if isinstance(v, str) else (repr(v) if first.get("op") == "call" else json.dumps(v))
                        for k, v in point.items()}
        r.row.error = r.detail
    return r


def _run_declaration(decl: Declaration, remote: Remote | None, *, seconds: float, seed: int,
                     max_examples: int | None, examples: list[Any]) -> CheckResult:
    """The check of ``decl`` (its peer ``remote``, or called here)."""
    if decl.kind == "conversion":
        fn = remote.function() if remote else resolve_call(decl.call)
        return check_conversion(fn, decl.reference, inputs=decl.inputs, fixed=decl.fixed, claim=decl.claim,
                                seconds=seconds, seed=seed, examples=examples, max_examples=max_examples,
                                against=decl.against)
    budget = dict(decl.budget or {})
    pb = _peer_budget(budget)
    if remote:
        make = remote.stateful(decl.kind, pb)
    else:
        func = resolve_call(decl.call)

        def make() -> Any:
            return func(**pb)
        make.__qualname__ = make.__name__ = getattr(func, "__qualname__", "make")
        make.__module__ = getattr(func, "__module__", "?")
    if decl.kind == "filter":
        return check_filter(make, decl.reference, budget=budget, costs=decl.costs, seconds=seconds, seed=seed,
                            examples=examples, max_examples=max_examples, max_rounds=decl.max_rounds,
                            against=decl.against)
    return check_odometer(make, decl.reference, params=budget, costs=decl.costs, seconds=seconds, seed=seed,
                          examples=examples, max_examples=max_examples, against=decl.against,
                          **({} if decl.max_rounds is None else {"max_rounds": decl.max_rounds}))


# ------------------------------------------------------------------------------------------------ assertions


class Unsound(AssertionError):
    """A check did not pass: an under-report, an error, or a verdict it could not reach (incomplete, undecided)."""


def assert_sound(result: CheckResult | None = None, /, *, allow_error: bool = False, allow_undecided: bool = False,
                 **check: Any) -> CheckResult:
    """Fail (:class:`Unsound`, an AssertionError) unless ``result`` -- or the check described by the keywords --
    passed: ``exact`` or ``conservative``.  The message is the verdict, the shrunk witness and its reproducer; an
    ``error`` (the implementation raised, or the check could not judge: the reason says which), ``incomplete``
    (the time cap came first) and ``undecided`` fail too, unless ``allow_error`` / ``allow_undecided``.

    ``assert_sound(check_filter(...))``, or ``assert_sound(conversion=fn, reference=..., inputs=...)`` /
    ``filter=make, budget=...`` / ``odometer=make, params=...`` (``seconds``, a cap, defaults to
    ``--dpbounds-seconds``; the example budget is the check's ``max_examples``)."""
    __tracebackhide__ = True  # pytest shows the message, not this function's source
    if result is None:
        check = dict(check)
        check.setdefault("seconds", DEFAULT_SECONDS)
        if "conversion" in check:
            result = check_conversion(check.pop("conversion"), check.pop("reference"), **check)
        elif "filter" in check:
            result = check_filter(check.pop("filter"), check.pop("reference"), **check)
        elif "odometer" in check:
            result = check_odometer(check.pop("odometer"), check.pop("reference"), **check)
        else:
            raise TypeError("assert_sound: pass a CheckResult, or conversion=/filter=/odometer= with its check's "
                            "keywords")
    if not isinstance(result, CheckResult):
        raise TypeError(f"assert_sound: a CheckResult, not {type(result).__name__}")
    ok = set(PASS) | ({"error"} if allow_error else set()) | ({"undecided"} if allow_undecided else set())
    if result.verdict not in ok:
        raise Unsound(result.summary())
    return result
