"""Run the peer adapters and render their findings (JSON, markdown, HTML: one document, three views)."""

from __future__ import annotations

import html
import importlib
import json
import math
import warnings
from fractions import Fraction
from types import ModuleType
from typing import Any

from dpbounds.audit.common import version_of
from dpbounds.testing.results import Comparison, PeerResult
from dpbounds.testing.verdicts import NOT_JUDGED, UNSOUND, VERDICTS, _ratio

def discover_peers() -> dict[str, str]:
    """The peers of this repository, by name: every package ``dpbounds.audit.peers.<name>`` (found on disk, not
    imported; names starting with ``_`` are shared helpers)."""
    import pkgutil

    from dpbounds.audit import peers
    return {m.name: f"{peers.__name__}.{m.name}" for m in sorted(pkgutil.iter_modules(peers.__path__),
                                                                 key=lambda m: m.name)
            if m.ispkg and not m.name.startswith("_")}


#: the peers of this repository, by name (:func:`discover_peers`)
ADAPTERS = discover_peers()

#: --fail-on levels: the verdicts that make `dpbounds audit` exit 1 (whatever the level, a row or peer that could not
#: be judged -- adapter-error, incomplete, an adapter that did not run -- makes it exit 2, or 1 with findings too)
FAIL_ON = {
    "unsound": ("unsound",),                                            # only privacy claims shown false
    "formula-departure": ("unsound", "formula-departure", "law-violation"),  # also departures from the cited formula
                                                                        # and broken laws
    "unsound-rounding": UNSOUND,                                        # the default: any under-report, however small
    "unproven": UNSOUND + ("unproven",),                                # also decisions no theorem here proves valid
    "undecided": UNSOUND + ("unproven", "undecided"),                   # also values the reference could not decide
    "error": UNSOUND + ("unproven", "undecided", "error"),              # also a peer raising on valid input
    "never": (),
}


def load_adapter(spec: str) -> ModuleType:
    """An adapter module from a peer name of this repository or a module path (``pkg.mod``) of your own.

    Raises DomainError when the module cannot be found or does not follow the adapter protocol; any other
    failure of its import (a SyntaxError, an exception at import time) propagates, for :func:`run_adapter` to
    turn into an ``error`` row."""
    from dpbounds.spec import DomainError
    name = ADAPTERS.get(spec, spec)
    try:
        mod = importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name is not None and not name.startswith(e.name + ".") and e.name != name:
            raise  # the adapter exists but imports something missing: an error of the adapter, not of the input
        raise DomainError("--adapter", spec, f"a peer in {sorted(ADAPTERS)} or an importable module path",
                          "dpbounds audit", str(e)) from None
    from dpbounds.audit.engine import is_declarative
    from dpbounds.testing.declarations import describe
    if is_declarative(mod):  # PEER and declarations(): runs on the dpbounds.testing engine
        return mod
    try:
        describe(mod)
    except TypeError:
        ok = False
    else:
        ok = callable(getattr(mod, "audit", None))
    if not ok:
        raise DomainError("--adapter", spec, "a peer: PEER = dpbounds.testing.Peer(...) and declarations() -> "
                          "list[dpbounds.testing.Declaration] (or audit(quick: bool) -> PeerResult)",
                          "dpbounds audit (the adapter protocol: docs/adapters.md)")
    return mod


def _check_adapter_name(spec: str) -> None:
    """DomainError unless ``spec`` is a peer of this repository or a dotted module path that can be found (found
    from the current directory too, as ``python -m`` would) -- without importing the module itself."""
    import importlib.util
    import re

    from dpbounds.spec import DomainError
    if spec in ADAPTERS:
        return
    where = f"a peer in {sorted(ADAPTERS)} or an importable module path such as mylib.audit_adapter"
    if not isinstance(spec, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*", spec):
        raise DomainError("--adapter", spec, where, "dpbounds audit")
    with _cwd_on_path():
        try:
            found = importlib.util.find_spec(spec) is not None
        except ModuleNotFoundError:
            found = False
        except Exception:  # noqa: BLE001 - a parent package that fails to import: the run reports it as an error row
            found = True
    if not found:
        raise DomainError("--adapter", spec, where, "dpbounds audit", "no such module (searched sys.path and the "
                          "current directory)")


class _cwd_on_path:
    """The current directory first on sys.path for the duration (an adapter next to the user's package, as
    ``python -m`` would find it; the console script does not put it there)."""

    def __enter__(self):
        import os
        import sys
        self.added = os.getcwd() not in sys.path and "" not in sys.path
        if self.added:
            sys.path.insert(0, os.getcwd())

    def __exit__(self, *exc):
        import os
        import sys
        if self.added and os.getcwd() in sys.path:
            sys.path.remove(os.getcwd())


def _run_adapter(mod: ModuleType, quick: bool, python: str | None, search: Any, part: str | int | None = None
                 ) -> PeerResult:
    """One adapter's PeerResult: a declarative adapter on the engine (with the --search options; ``part``: see
    :func:`dpbounds.audit.engine.audit_declarations`), else audit()."""
    from dpbounds.audit.engine import audit_declarations, is_declarative
    if is_declarative(mod):
        return audit_declarations(mod, quick=quick, python=python, search=search, part=part)
    r = mod.audit(quick=quick, **({"python": python} if python else {}))
    if isinstance(r, PeerResult) and r.status == "ran" and r.coverage is None:
        # a hand-written adapter's coverage: the surface entries its functions name or its declared_by lists
        from dpbounds.audit.coverage import coverage
        from dpbounds.testing.declarations import describe
        r.coverage = coverage(describe(mod).name, list(r.functions))
    return r


def entry_point_adapters() -> dict[str, str]:
    """Adapters that installed packages register under the entry-point group ``dpbounds.audit_adapters``."""
    import importlib.metadata as md
    try:
        eps = md.entry_points(group="dpbounds.audit_adapters")
    except Exception:  # noqa: BLE001 - broken metadata of some other distribution
        return {}
    return {ep.name: ep.value for ep in eps}


#: the default of ``--timeout``: seconds one peer's adapter (with its own interpreter, if any) may run before it
#: is an ``error`` row and its process tree is killed (the slowest full adapter today takes about 3 minutes)
DEFAULT_TIMEOUT = 900.0


def audit_peers(peers: list[str] | None = None, quick: bool = False,
                adapters: list[str] | None = None, pythons: dict[str, str] | None = None,
                search: Any = None, timeout: float | None = DEFAULT_TIMEOUT, jobs: int = 1) -> list[PeerResult]:
    """Run the chosen peers' adapters (default: every adapter of this repository and of the entry points) and
    any extra adapter modules; a peer that is not installed is ``skipped`` with the reason.  ``peers=["none"]``
    (or ``[]`` with ``adapters``) runs only the extra adapters.  ``pythons`` maps a peer to the interpreter of
    its own environment (for peers whose pins conflict with ours; only peers whose ``Peer.python`` allows it run
    that way: the peer's answers come back as JSON).

    Each adapter runs in a subprocess of its own process group; after ``timeout`` seconds (None: in this process,
    without a limit) it is an ``error`` row and the whole group -- the adapter, the peer interpreters it started
    and their children -- is killed.  An adapter that raises, fails to import or returns something other than a
    PeerResult is an ``error`` row too, and every numeric verdict it returns is recomputed here from its numbers
    (:func:`dpbounds.testing.results.rejudge`): an adapter's own verdict is never trusted.  ``jobs`` > 1 (with a
    timeout) runs up to that many adapters at once; the results keep the order of the peers."""
    import os

    from dpbounds.spec import DomainError
    known = {**ADAPTERS, **entry_point_adapters()}
    if peers is not None and list(peers) == ["none"]:
        peers = []
    chosen = list(peers) if peers else ([] if adapters or peers == [] else list(known))
    if timeout is not None and not (isinstance(timeout, (int, float)) and 0 < timeout < math.inf):
        raise DomainError("--timeout", timeout, "a positive number of seconds", "dpbounds audit")
    infos: dict[tuple[str, bool], dict[str, Any]] = {}
    peers_package = "dpbounds.audit.peers"

    def info(module: str, own: bool) -> dict[str, Any]:
        """What the adapter says of itself (name, --python support, its search units): a foreign adapter (an
        --adapter module, an entry point) is asked in a child on the leash, never imported in this process when
        there is a --timeout; a peer of this repository is part of dpbounds and asked here."""
        if (module, own) not in infos:
            here = timeout is None or (not own and module.startswith(f"{peers_package}."))
            infos[(module, own)] = _describe(module, own) if here else _describe_isolated(module, own, timeout)
        return infos[(module, own)]
    adapter_names: dict[str, str] = {}  # --adapter module -> its peer's name (for --python NAME=PATH)
    for a in adapters or []:
        if timeout is None:
            _check_adapter_name(a)
        i = info(a, True)
        if "missing" in i:
            raise DomainError("--adapter", a, i["missing"], "dpbounds audit", i.get("reason", ""))
        if "name" in i:  # (a broken one is an error row of its run)
            adapter_names[a] = i["name"]
            known.setdefault(i["name"], a)
    for p in chosen:
        if p not in known:
            raise DomainError("--peers", p, f"a comma-separated subset of {', '.join(sorted(known))}, or none "
                              "(only the --adapter modules)", "dpbounds audit")
    pythons = dict(pythons or {})
    for p, path in pythons.items():
        if p not in known:
            raise DomainError("--python", p, f"PEER=PATH with PEER one of {sorted(known)}", "dpbounds audit")
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise DomainError("--python", path, "an executable Python interpreter", "dpbounds audit")
    runs = [(p, known[p], False) for p in chosen] + [(a, a, True) for a in adapters or []]
    for p in pythons:
        own = known[p] in adapter_names
        i = info(known[p], own)
        if i.get("python") is False:
            raise DomainError("--python", p, "a peer that runs in another interpreter (its Peer says python=False)",
                              "dpbounds audit")
        if p not in chosen and peers and not own:
            runs.append((p, known[p], False))

    def one(run: tuple[str, str, bool], part: str | int | None = None) -> PeerResult:
        label, module, own = run
        python = pythons.get(adapter_names.get(module, label) if own else label)
        if timeout is None:
            res = run_adapter(module, quick, python, label=label, cwd_first=own, search=search, part=part)
        else:
            res = _run_isolated(module, quick, python, label=label, cwd_first=own, timeout=timeout, search=search,
                                part=part)
        if python and res.status == "skipped":
            # the peer was asked for in this interpreter and it cannot run there (not a Python, or the peer is not
            # importable in it): nothing was judged, which is an error, never a skip that exits 0
            res.status, res.reason = "error", f"--python {label}={python} cannot run it: {res.reason}"[:600]
        return res
    if jobs > 1 and timeout is not None and len(runs) > 1:
        # each adapter is a subprocess: threads only wait for them; the peers' own tasks then run one at a time (N
        # peers of N tasks each would put N^2 processes on N cores, and a task's wall-clock cap would bite sooner)
        if search is not None and getattr(search, "jobs", 1) > 1 and not getattr(search, "scheduler", None):
            import dataclasses
            search = dataclasses.replace(search, jobs=1)
        if search is not None and search.seconds > 0 and not search.scheduler:
            return _scheduled(runs, one, jobs, [info(r[1], r[2]) for r in runs])
        from concurrent.futures import ThreadPoolExecutor
        with ThreadPoolExecutor(max_workers=jobs) as ex:
            return list(ex.map(one, runs))
    return [one(r) for r in runs]


def _describe(module: str, own: bool) -> dict[str, Any]:
    """What the adapter ``module`` says of itself, never an exception: {"name", "python", "declarative", "units" (its
    search units), "decls" (what a failed search unit's row needs)}; {"missing": why} when there is no such module,
    {"broken": why} when it fails to load (its run reports it as an ``error`` row)."""
    import contextlib

    from dpbounds.audit.engine import _ref_id, effective_declarations, is_declarative, search_units
    from dpbounds.spec import DomainError
    from dpbounds.testing.declarations import describe
    if own:
        try:
            _check_adapter_name(module)
        except DomainError as e:
            return {"missing": e.domain, "reason": e.reason}
    try:
        with _cwd_on_path() if own else contextlib.nullcontext():
            mod = load_adapter(module)
        p = describe(mod)
        out: dict[str, Any] = {"name": p.name, "python": p.python, "declarative": is_declarative(mod)}
        if out["declarative"]:
            aligned, _ = effective_declarations(mod)
            out["units"] = [list(u) for u in search_units(mod)]
            out["decls"] = [None if d is None else {
                "function": d.function, "check": d.check, "kind": d.kind, "call": str(d.call),
                "reference": _ref_id(d.reference) or str(d.reference), "against": d.against} for d in aligned]
        return out
    except KeyboardInterrupt:
        raise
    except BaseException as e:  # noqa: BLE001 - SystemExit at import too: reported by the adapter's run
        return {"broken": f"{type(e).__name__}: {e}"[:300]}


def _describe_isolated(module: str, own: bool, timeout: float) -> dict[str, Any]:
    """:func:`_describe` in a child on the leash (at most ``timeout`` seconds)."""
    answer = _child({"op": "describe", "module": module, "cwd_first": own}, timeout)
    d = answer.get("describe")
    return d if isinstance(d, dict) else {"broken": str(answer.get("error", "no answer"))[:300]}


def _scheduled(runs: list[tuple[str, str, bool]], one: Any, jobs: int, infos: list[dict[str, Any]]
               ) -> list[PeerResult]:
    """``--jobs N --search``: one pool of N workers over units rather than peers, so that no peer is the critical
    path.  A declarative peer is its rows (every check but the search) and then one unit per declaration, queued
    once its rows say the peer ran; other adapters are one unit.  Adapters and rows go first, then the searches
    costliest first (:data:`dpbounds.audit.engine.COST_ORDER`).  Each task is deterministic in its arguments, and
    the units are folded back in declaration order, so the result is the one ``--jobs 1`` gives."""
    import heapq
    import threading

    import types

    from dpbounds.audit.engine import COST_ORDER
    from dpbounds.util.progress import Progress
    declarative = [bool(i.get("declarative")) for i in infos]
    bar = Progress(len(runs), "audit units", heartbeat=60)
    base: list[PeerResult | None] = [None] * len(runs)
    parts: dict[tuple[int, int], PeerResult] = {}
    heap: list[tuple[int, int, int, int | None]] = [(0, k, k, None) for k in range(len(runs))]
    seq = [len(runs)]
    busy = [0]
    cond = threading.Condition()

    def worker() -> None:
        while True:
            with cond:
                while not heap and busy[0]:
                    cond.wait()
                if not heap:
                    cond.notify_all()
                    return
                _, _, k, i = heapq.heappop(heap)
                busy[0] += 1
            try:
                if i is None:
                    r = one(runs[k], "rows" if declarative[k] else None)
                else:
                    r = one(runs[k], i)
            except Exception as e:  # noqa: BLE001 - one() returns error rows; this is a bug of the scheduler
                r = _error_result(runs[k][0], f"the audit could not run this unit: {type(e).__name__}: {e}")
            with cond:
                if i is None:
                    base[k] = r
                    if declarative[k] and r.status == "ran":
                        for j, cost in infos[k].get("units", []):
                            heapq.heappush(heap, (1 + COST_ORDER.index(cost), seq[0], k, j))
                            seq[0] += 1
                            bar.total += 1
                    note = f"{r.peer}: {r.status}, {len(r.comparisons)} rows"
                else:
                    parts[(k, i)] = r
                    s = r.search[0] if r.search else None
                    note = f"{r.peer} {s['function']}: {s['verdict']}, {s['examples']} examples, {s['seconds']} s" \
                        if s else f"{r.peer} #{i}: {r.status} {r.reason}"[:120]
                busy[0] -= 1
                bar.update(1, note)
                cond.notify_all()

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(jobs)]
    with bar:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    out = [b if b is not None else _error_result(runs[k][0], "the audit did not run this adapter")
           for k, b in enumerate(base)]
    for (k, i), u in sorted(parts.items()):
        _fold(out[k], u, types.SimpleNamespace(**infos[k]["decls"][i]))
    return out


def _fold(res: PeerResult, unit: PeerResult, decl: Any) -> None:
    """A search unit's summaries and witness rows into its peer's result; a unit that failed (a timeout, a crash)
    is an ``error`` row and summary of that function."""
    if unit.status == "ran":
        res.search += unit.search
        res.comparisons += unit.comparisons
        res.notes += [n for n in unit.notes if n not in res.notes]
        return
    res.comparisons.append(Comparison(res.peer, decl.function, f"{decl.check or decl.kind} (search)", {},
                                      error=unit.reason, error_class="adapter-error"))
    from dpbounds.audit.engine import _ref_id
    res.search.append({"function": decl.function, "call": str(decl.call),
                       "reference": _ref_id(decl.reference) or str(decl.reference),
                       "against": decl.against, "check": decl.check, "verdict": "adapter-error", "examples": 0,
                       "seeds": [],
                       "skipped": 0, "seconds": None, "stopped": ["error"], "worst_margin": None,
                       "witness": {"error": unit.reason}, "reproducer": None})


def _error_result(label: str, reason: str) -> PeerResult:
    r = PeerResult(label, status="error", reason=reason[:300])
    r.notes.append(f"{label}: {r.reason}")
    return r


def _loadable(specs: list[str]) -> list[ModuleType]:
    """The adapter modules among ``specs`` that load in this process (the others are error rows or DomainErrors
    of their own run)."""
    out = []
    for a in specs:
        try:
            with _cwd_on_path():
                out.append(load_adapter(a))
        except Exception:  # noqa: BLE001 - reported when the adapter runs
            pass
    return out


def run_adapter(module: str, quick: bool, python: str | None = None, *, label: str | None = None,
                cwd_first: bool = False, search: Any = None, part: str | int | None = None) -> PeerResult:
    """One adapter's PeerResult in this process, never an exception: a failed import, a raising ``audit()`` or a
    result that is not a PeerResult is an ``error`` row; the comparisons' verdicts are recomputed (rejudge)."""
    from dpbounds.testing.declarations import describe
    from dpbounds.testing.results import rejudge
    label = label or module
    try:
        if cwd_first:
            with _cwd_on_path():
                mod = load_adapter(module)
        else:
            mod = load_adapter(module)
    except Exception as e:  # noqa: BLE001 - a broken adapter is an 'error' row, never a crash of the audit
        return _error_result(label, f"the adapter {module} could not be loaded: {type(e).__name__}: {str(e)[:200]}")
    label = describe(mod).name
    try:
        with warnings.catch_warnings():  # peers' numerical warnings are not the audit's output
            warnings.simplefilter("ignore")
            r = _run_adapter(mod, quick, python, search, part)
    except Exception as e:  # noqa: BLE001 - a peer that breaks is an 'error' row, never a crash
        return _error_result(label, f"the adapter raised {type(e).__name__}: {str(e)[:200]}")
    if not isinstance(r, PeerResult):
        return _error_result(label, f"the adapter's audit() returned {type(r).__name__}, not a PeerResult")
    if isinstance(r.comparisons, list) and len(r.comparisons) > MAX_COMPARISONS:
        return _error_result(label, f"the adapter returned {len(r.comparisons)} comparisons, more than the "
                             f"{MAX_COMPARISONS} an adapter run may return")
    try:
        r = rejudge(r)
        if not r.version:
            r.version = version_of(describe(mod).dist)
    except Exception as e:  # noqa: BLE001 - garbage inside the PeerResult
        return _error_result(label, f"the adapter's result is malformed: {type(e).__name__}: {str(e)[:200]}")
    return r


#: the most comparisons one adapter run may return (a larger result is an ``error`` row, not sent back)
MAX_COMPARISONS = 50_000

_CHILD = """
import json, os, sys
_out = os.fdopen(os.dup(1), "w")          # the answer's channel; the adapter's own prints go to stderr
os.dup2(2, 1)
sys.stdout = sys.stderr
spec = json.loads(sys.stdin.readline())
sys.path[:] = spec["path"]
from dpbounds.testing.proc import leash_self
leash_self()
try:
    from dpbounds.audit.run import _child_main
    answer = _child_main(spec)
except BaseException as e:
    answer = {"error": type(e).__name__ + ": " + str(e)[:200]}
_out.write(json.dumps(answer, allow_nan=False) + "\\n")
_out.flush()
os._exit(0)
"""


def _child_main(spec: dict[str, Any]) -> dict[str, Any]:
    """The adapter child's work (:data:`_CHILD`): ``spec["op"]`` "run" (:func:`run_adapter`, the result on the wire)
    or "describe" (:func:`_describe`)."""
    from dpbounds.testing.results import to_wire
    if spec.get("op") == "describe":
        return {"describe": _describe(spec["module"], spec["cwd_first"])}
    search = None
    if spec["search"] is not None:
        from dpbounds.audit.engine import SearchOptions
        search = SearchOptions(**spec["search"])
    r = run_adapter(spec["module"], spec["quick"], spec["python"], label=spec["label"], cwd_first=spec["cwd_first"],
                    search=search, part=spec["part"])
    return {"result": to_wire(r)}


def _child(spec: dict[str, Any], timeout: float) -> dict[str, Any]:
    """:data:`_CHILD` on ``spec`` in a fresh interpreter on the leash (:mod:`dpbounds.testing.proc`): its answer, or
    {"error": why} when it gave none within ``timeout`` seconds (killed with everything it started), died, or answered
    garbage."""
    import os
    import sys

    import signal

    from dpbounds.testing.proc import NoAnswer, run_json
    spec = {**spec, "path": [p if p else os.getcwd() for p in sys.path]}
    try:
        answer = run_json([sys.executable, "-c", _CHILD], spec, timeout=timeout, death_signal=signal.SIGTERM,
                          term_grace=2.0)
    except NoAnswer:
        return {"error": f"timed out after {timeout:g} s (--timeout); the adapter and every process it started were "
                "killed", "timeout": True}
    except RuntimeError as e:
        return {"error": f"the adapter's process ended without a result: {str(e)[-300:]}"}
    return answer if isinstance(answer, dict) else {"error": "the adapter's process answered no JSON object"}


def _run_isolated(module: str, quick: bool, python: str | None, *, label: str, cwd_first: bool,
                  timeout: float, search: Any = None, part: str | int | None = None) -> PeerResult:
    """:func:`run_adapter` in a child interpreter in its own session (process group); after ``timeout`` seconds the
    group is killed and the peer is an ``error`` row.  The result comes back as JSON (its wire form)."""
    import dataclasses

    import time

    from dpbounds.audit.engine import DEADLINE_MARGIN
    from dpbounds.testing.results import result_from_wire
    if search is not None and part is None:
        # a whole peer in one child: its searches end before the timeout, each one not run saying so, rather than
        # every result lost to it (a unit of --jobs is its own child: a timeout names its function already)
        search = dataclasses.replace(search, deadline=time.time() + timeout - min(DEADLINE_MARGIN, timeout / 4))
    answer = _child({"op": "run", "module": module, "quick": quick, "python": python, "label": label,
                     "cwd_first": cwd_first, "part": part,
                     "search": None if search is None else dataclasses.asdict(search)}, timeout)
    if "result" not in answer:
        why = str(answer.get("error", "no result"))
        return _error_result(label, why if answer.get("timeout") or why.startswith("the adapter")
                             else f"the adapter could not run: {why}")
    try:
        return result_from_wire(answer["result"])
    except Exception as e:  # noqa: BLE001 - a malformed answer
        return _error_result(label, f"the adapter's process sent back no PeerResult ({type(e).__name__}: {e})")


def summary_counts(results: list[PeerResult]) -> dict[str, int]:
    """Comparisons per verdict (a peer that was skipped, or whose adapter could not run, counts once as
    ``skipped`` / ``adapter-error``), most severe first."""
    counts = {v: 0 for v in VERDICTS}
    for r in results:
        if r.status == "skipped":
            counts["skipped"] += 1
        elif r.status == "error":
            counts["adapter-error"] += 1
        for c in r.comparisons:
            counts[c.verdict] += 1
    return {k: v for k, v in counts.items() if v}


def not_judged(results: list[PeerResult], expected: frozenset[tuple[str, str]] = frozenset()) -> list[str]:
    """What prevented judging, one line each: an adapter that did not run, rows that are ours to fix
    (``adapter-error``) or cut short by the clock (``incomplete``), a function on which the peer raised every time.
    ``expected``: (peer, function) pairs whose errors are recorded findings (``--expect-findings``): a peer that
    raises on every input there is the recorded finding, still present, not a gap in the judging."""
    out = [f"{r.peer}: the adapter did not run: {r.reason}" for r in results if r.status == "error"]
    for r in results:
        for c in r.comparisons:
            if c.verdict in NOT_JUDGED:
                out.append(f"{c.peer} `{c.function}` ({c.check}): {c.verdict}: {c.error or _detail(c)}"[:400])
        for s in r.search:
            if s.get("verdict") in NOT_JUDGED:
                out.append(f"{r.peer} `{s['function']}` (search): {s['verdict']}: {s.get('detail') or ''}"[:400])
        # a function none of whose rows or searches was judged (the peer raised or returned a non-number on every
        # input, a search judged no example) was not judged at all: an error is never a pass
        verdicts: dict[str, list[str]] = {}
        for c in r.comparisons:
            verdicts.setdefault(c.function, []).append(c.verdict)
        for s in r.search:
            ok = s.get("verdict") not in ("error", *NOT_JUDGED) and s.get("examples", 1) != 0
            verdicts.setdefault(str(s.get("function")), []).append(s.get("verdict") if ok else "error")
        for fn, vs in verdicts.items():
            if all(v == "error" for v in vs) and (r.peer, fn) not in expected:
                out.append(f"{r.peer} `{fn}`: nothing judged: every row is an error (the peer raised or returned "
                           "no number on every input)"[:400])
    return list(dict.fromkeys(out))


def recorded_errors(results: list[PeerResult], expected: frozenset[tuple[str, str]]) -> list[str]:
    """The functions on which the peer raised on every input where that error is a recorded finding
    (``--expect-findings``: ``expected`` pairs, :func:`dpbounds.audit.expect.expected_errors`), one line each: the
    recorded finding, still present -- no gap in the judging (:func:`not_judged` leaves them out)."""
    out = []
    for r in results:
        rows: dict[str, list[Comparison]] = {}
        for c in r.comparisons:
            rows.setdefault(c.function, []).append(c)
        for fn, cs in rows.items():
            if (r.peer, fn) in expected and cs and all(c.verdict == "error" for c in cs):
                why = next((c.error for c in cs if c.error), "")
                out.append(f"{r.peer} `{fn}`: the peer raises on every input ({len(cs)} rows): the recorded error "
                           f"finding, still present" + (f" ({why})" if why else "")[:300])
    return out


def exit_status(results: list[PeerResult], fail_on: str = "unsound-rounding") -> int:
    """1 when any comparison's verdict is in the --fail-on level; else 2 when anything could not be judged
    (:func:`not_judged`: an error is never a pass); else 0."""
    bad = FAIL_ON[fail_on]
    if any(c.verdict in bad for r in results for c in r.comparisons):
        return 1
    return 2 if not_judged(results) else 0


#: finding classes, in the order findings are listed: what a maintainer must do first
FINDING_CLASSES = ("claim-false", "formula-departure", "law-violation", "rounding", "unproven", "undecided", "error")
#: the verdict of each class
CLASS_OF = {"unsound": "claim-false", "formula-departure": "formula-departure", "law-violation": "law-violation",
            "unsound-rounding": "rounding",
            "unproven": "unproven", "error": "error"}
#: the verdicts a maintainer must act on, each one a finding (adapter-error and incomplete are ours: not_judged)
FINDING_VERDICTS = tuple(CLASS_OF)


def _gap(c: Comparison) -> float:
    """How far the peer's value lies on the unsound side of its references (the largest relative gap; 0 without
    one)."""
    return max((j.gap_rel for j in (c.formula, c.truth) if j is not None and j.gap_rel is not None), default=0.0)


def findings(results: list[PeerResult]) -> list[dict[str, Any]]:
    """The findings as JSON-able dicts (see :func:`findings_with_witness`)."""
    return [f for f, _ in findings_with_witness(results)]


def findings_with_witness(results: list[PeerResult]) -> list[tuple[dict[str, Any], Comparison]]:
    """One finding per peer function with a verdict to act on, graded: the privacy claim false first
    (``unsound`` against the true guarantee), by the worst relative gap, descending; then departures from the cited
    formula (same order); then rounding (a few ulps); then unproven decisions and the peer's own errors.  Each
    carries its ``class``, its ``relative_gap`` (the worst of its rows; for a search also the worst margin found),
    the worst witness (the row of the largest gap) and, when the search shrank another, the ``shrunk`` one."""
    groups: dict[tuple[str, str], list[Comparison]] = {}
    versions = {r.peer: r.version for r in results}
    searched: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in results:
        for c in r.comparisons:
            groups.setdefault((c.peer, c.function), []).append(c)
        for s in r.search:
            searched.setdefault((r.peer, s.get("function", "")), []).append(s)
    out: list[tuple[dict[str, Any], Comparison]] = []
    for (peer, function), cs in groups.items():
        bad = [c for c in cs if c.verdict in FINDING_VERDICTS]
        if not bad:
            continue
        verdict = min((c.verdict for c in bad), key=VERDICTS.index)
        cls = CLASS_OF[verdict]
        mine = [c for c in bad if c.verdict == verdict]
        worst = max(mine, key=_gap)
        gap = _gap(worst)
        for s in searched.get((peer, function), []):
            m = s.get("worst_margin")
            if s.get("verdict") == verdict and isinstance(m, (int, float)) and m < 0:
                gap = max(gap, -m)
        shrunk = next((c for c in mine if "search witness" in c.check and c is not worst), None)
        counts: dict[str, int] = {}
        for c in cs:
            counts[c.verdict] = counts.get(c.verdict, 0) + 1
        out.append(({
            "peer": peer, "version": versions.get(peer) or None, "function": function,
            "checks": sorted({c.check for c in bad}),
            "verdict": verdict, "class": cls, "relative_gap": float(gap) if math.isfinite(gap) else None,
            "failing": len(bad), "of": len(cs), "counts": counts,
            # against (b): the claim is false; against (a) only: the code departs from its theorem, the claim holds
            "claim_false": sum(1 for c in bad if c.truth is not None and c.truth.verdict in FINDING_VERDICTS),
            "formula_only": sum(1 for c in bad if c.formula is not None and c.formula.verdict in FINDING_VERDICTS
                                and (c.truth is None or c.truth.verdict not in FINDING_VERDICTS)),
            "worst": worst.as_json(),
            **({"shrunk": shrunk.as_json()} if shrunk is not None else {})}, worst))

    def key(fw: tuple[dict[str, Any], Comparison]) -> tuple[Any, ...]:
        f = fw[0]
        g = f["relative_gap"]
        return (FINDING_CLASSES.index(f["class"]), -(math.inf if g is None else g), f["peer"], f["function"])
    out.sort(key=key)
    return out


#: how a finding's class reads in a sentence
CLASS_WORDS = {"claim-false": "privacy claim false", "formula-departure": "departs from the formula it cites",
               "law-violation": "breaks a law", "rounding": "rounding", "unproven": "unproven decisions",
               "error": "raises on valid input"}


def finding_line(f: dict[str, Any]) -> str:
    """A finding in one sentence: peer, function (and the worst witness's check), class and relative gap, how many,
    the worst witness (and the shrunk one)."""
    w = f["worst"]
    where = ", ".join(f"{k}={v}" for k, v in w["inputs"].items())
    cls = f.get("class") or ("formula-departure" if f["verdict"] == "unsound" and not f.get("claim_false")
                             and f.get("formula_only") else CLASS_OF.get(f["verdict"], f["verdict"]))
    gap = f.get("relative_gap")
    head = f"[{CLASS_WORDS.get(cls, cls)}" + (f", relative gap {gap:.3g}]" if gap else "]")
    if f["claim_false"]:
        what = f"the privacy claim is false (against the true guarantee) in {f['claim_false']}"
    elif f["formula_only"]:
        what = (f"departs from the formula it cites in {f['formula_only']} (the true guarantee is not shown "
                "violated)")
    else:
        what = f"{f['verdict']} in {f['failing']}"
    worst = "; ".join(dict.fromkeys(j["detail"] for j in (w["formula"], w["truth"])
                                    if j and j["verdict"] in FINDING_VERDICTS))
    sh = f.get("shrunk")
    shrunk = ("; shrunk witness " + ", ".join(f"{k}={v}" for k, v in sh["inputs"].items())
              + f": peer {sh['peer_output'] or sh['error']}") if sh else ""
    return (f"{head} {f['peer']} {f['version'] or ''}".rstrip() + f" `{f['function']}` ({w['check']}): "
            f"**{f['verdict']}** in {f['failing']} of {f['of']}; {what}. Worst witness {where}: peer "
            f"{w['peer_output'] or w['error']}; {worst or w['error'] or ''}".rstrip("; ") + shrunk + ".")


def document(results: list[PeerResult], fail_on: str = "unsound-rounding", *,
             expected: frozenset[tuple[str, str]] | None = None, status: int | None = None) -> dict[str, Any]:
    """The audit as one JSON-able document: versions, summary, the findings to act on, every peer's comparisons.
    ``expected`` (``--expect-findings``: the functions whose every-input error is a recorded finding) moves those
    from ``not_judged`` to ``recorded_errors``, and ``status`` is the exit status the command returns, so that the
    document says what the exit code says."""
    import dpbounds
    from dpbounds.spec.render import registry_hash
    exp = expected or frozenset()
    return {"tool": "dpbounds audit", "dpbounds_version": dpbounds.__version__, "spec_version": registry_hash(),
            "fail_on": fail_on, "exit_status": exit_status(results, fail_on) if status is None else status,
            "summary": summary_counts(results), "findings": findings(results), "not_judged": not_judged(results, exp),
            **({"recorded_errors": recorded_errors(results, exp)} if expected is not None else {}),
            "peers": [r.as_json() for r in results]}


def to_json(results: list[PeerResult], fail_on: str = "unsound-rounding", **kw: Any) -> str:
    return json.dumps(document(results, fail_on, **kw), indent=2, allow_nan=False) + "\n"


HEADERS = ["peer", "function", "check", "inputs", "peer value", "(a) formula", "(a) verdict", "(b) truth",
           "(b) verdict", "verdict", "detail"]


def _detail(c: Comparison) -> str:
    parts = [c.error] if c.error else []
    for j in (c.formula, c.truth):
        if j is not None and j.verdict != "exact" and j.detail:
            parts.append(f"({'a' if j.role == 'formula' else 'b'}) {j.detail}")
    return "; ".join(parts)


def rows_of(results: list[PeerResult]) -> list[list[str]]:
    rows = []
    for r in results:
        for c in r.comparisons:
            a, b = c.formula, c.truth
            rows.append([f"{c.peer} {r.version}".strip(), c.function, c.check,
                         ", ".join(f"{k}={v}" for k, v in c.inputs.items()), c.shown_value(),
                         f"{a.reference} {a.short()}" if a else "", a.verdict if a else "",
                         f"{b.reference} {b.short()}" if b else "", b.verdict if b else "", c.verdict, _detail(c)])
    return rows


def run_audit(peers: list[str] | None = None, quick: bool = False):
    """(headers, rows, notes) of a table of every comparison (the report's view)."""
    results = audit_peers(peers, quick)
    notes = [n for r in results for n in r.notes]
    return HEADERS, rows_of(results), notes


def _md_cell(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def render_markdown(results: list[PeerResult], fail_on: str = "unsound-rounding", **kw: Any) -> str:
    doc = document(results, fail_on, **kw)
    expect = "recorded_errors" in doc
    out = ["# dpbounds audit", "",
           f"dpbounds {doc['dpbounds_version']}, spec {doc['spec_version'][:16]}; verdicts: "
           + ", ".join(f"{k} {v}" for k, v in doc["summary"].items()) + f"; exit status {doc['exit_status']} "
           + ("(--expect-findings: the recorded findings are expected)." if expect else f"(--fail-on {fail_on})."),
           "",
           "(a) is the formula the peer implements or cites; (b) is the true guarantee where it can be computed. "
           "A value below a certified lower end is unsound however small the gap.", ""]
    if doc["not_judged"]:
        out += ["## Not judged (ours to fix)", "", "Adapter defects and runs cut short: these are no peer finding, "
                "and they fail the gate (exit 2).", ""] + [f"- {_md_cell(x)}" for x in doc["not_judged"]] + [""]
    if doc.get("recorded_errors"):
        out += ["## Recorded findings still present", "", "Functions on which the peer raises on every input, as the "
                "witness file records: the peer's error is the finding (listed below), still present -- no gap in "
                "the judging, and no change (--expect-findings).", ""] + \
               [f"- {_md_cell(x)}" for x in doc["recorded_errors"]] + [""]
    if doc["findings"]:
        out += ["## Findings", "", "One line per peer function with a verdict to act on: privacy claims shown false "
                "first (by relative gap), then departures from the cited formula, then rounding, then unproven "
                "decisions and errors; the worst witness's reproducer follows each.", ""]
        for i, f in enumerate(doc["findings"], 1):
            out += [f"{i}. {_md_cell(finding_line(f))}", ""]
            if f["worst"]["reproducer"]:
                out += ["   ```python"] + [f"   {ln}" for ln in f["worst"]["reproducer"].rstrip().splitlines()] + \
                       ["   ```", ""]
    for r in results:
        out += [f"## {r.peer} {r.version}".rstrip(), ""]
        if r.functions:
            out += ["Functions: " + ", ".join(f"`{f}`" for f in r.functions), ""]
        out += [f"- {n}" for n in r.notes] + [""]
        out += coverage_markdown(r)
        out += search_markdown(r)
        if r.comparisons:
            out.append("| " + " | ".join(HEADERS[1:]) + " |")
            out.append("|" + "---|" * (len(HEADERS) - 1))
            for row in rows_of([r]):
                out.append("| " + " | ".join(_md_cell(c) for c in row[1:]) + " |")
            out.append("")
        repro = [c for c in r.comparisons if c.verdict != "exact" and c.reproducer]
        for c in repro[:20]:
            out += [f"Reproducer ({c.verdict}: {c.check}, " + ", ".join(f"{k}={v}" for k, v in c.inputs.items())
                    + "):", "", "```python", c.reproducer.rstrip(), "```", ""]
    return "\n".join(out) + "\n"


def coverage_markdown(r: PeerResult) -> list[str]:
    """The peer's public accounting surface: how much is declared, and why the rest is not."""
    c = getattr(r, "coverage", None)
    if not c:
        return []
    out = [f"Coverage: {c['declared']} of {c['public']} public functions and methods returning a privacy quantity "
           f"declared ({c['outside']} more listed as not a privacy quantity); not declared:", ""]
    out += [f"- `{e['name']}`: {e['reason']}" for e in c["not_declared"]]
    return out + [""]


def search_markdown(r: PeerResult) -> list[str]:
    """``--search``: one line per searched function -- verdict, examples tried, seconds, worst margin (negative:
    an under-report, relative)."""
    if not r.search:
        return []
    out = ["Search (`--search`): function, reference, verdict, examples tried, worst relative margin", ""]
    for s in r.search:
        m = s["worst_margin"]
        also = "".join(f", {a}" for a in s.get("also_against") or [])
        out.append(f"- `{s['function']}` {s['check']} vs {s['reference']} ({s['against']}{also}): {s['verdict']}, "
                   f"{s['examples']} examples (seeds {', '.join(map(str, s['seeds']))})"
                   + (f", {s['skipped']} skipped (not judged: outside the reference's domain or its search work "
                      "bound" + (f"; {s['unanswered']} not answered by the peer in time" if s.get("unanswered")
                                 else "") + ")" if s.get("skipped") else "")
                   + (f" in {s['seconds']:g} s" if isinstance(s.get("seconds"), (int, float)) else "")
                   + (" (stopped at its wall-clock cap)" if "time" in (s.get("stopped") or []) else "")
                   + ("; not answered within its call time limit at " + ", ".join(
                       f"{k}={v}" for k, v in s["slow"].items()) if isinstance(s.get("slow"), dict) else "")
                   + ", worst margin "
                   + ("n/a" if m is None else f"{m:.3g}")
                   + _laws_text(s.get("laws")))
    return out + [""]


def _laws_text(laws: dict[str, Any] | None) -> str:
    """A search line's laws: the verdict, the laws violated (dpbounds.audit.laws)."""
    if not laws:
        return ""
    bad = laws.get("violated") or []
    return (f"; laws ({len(laws.get('laws', []))}, {laws.get('examples', 0)} calls): {laws['verdict']}"
            + (f", violated: {', '.join(bad)}" if bad else "")
            + (f" ({laws['detail']})" if laws.get("detail") and laws["verdict"] != "consistent" else ""))


def render_html(results: list[PeerResult], fail_on: str = "unsound-rounding", **kw: Any) -> str:
    """A self-contained HTML page of the same document (no scripts, no external resources)."""
    doc = document(results, fail_on, **kw)
    e = html.escape
    css = ("body{font-family:system-ui,sans-serif;max-width:1300px;margin:1em auto;padding:0 1em}"
           ".scroll{overflow-x:auto}table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;"
           "padding:3px 6px;vertical-align:top;overflow-wrap:anywhere}.unsound,.unsound-rounding,.formula-departure"
           "{background:#fdd}.conservative{background:#eef}.exact{background:#efe}.unproven,.error,.undecided,"
           ".adapter-error,.incomplete{background:#ffd}"
           "pre{background:#f6f6f6;padding:6px;overflow-x:auto}")
    out = [f"<!doctype html><html><head><meta charset='utf-8'><title>dpbounds audit</title><style>{css}</style>"
           "</head><body><h1>dpbounds audit</h1>",
           f"<p>dpbounds {e(doc['dpbounds_version'])}, spec {e(doc['spec_version'][:16])}; verdicts: "
           + e(", ".join(f"{k} {v}" for k, v in doc["summary"].items())) + f"; exit status {doc['exit_status']}.</p>"]
    if doc["not_judged"]:
        out.append("<h2 id='not-judged'>Not judged (ours to fix)</h2><ul>"
                   + "".join(f"<li>{e(x)}</li>" for x in doc["not_judged"]) + "</ul>")
    if doc.get("recorded_errors"):
        out.append("<h2 id='recorded-errors'>Recorded findings still present</h2><ul>"
                   + "".join(f"<li>{e(x)}</li>" for x in doc["recorded_errors"]) + "</ul>")
    if doc["findings"]:
        out.append("<h2 id='findings'>Findings</h2><ol>")
        for f in doc["findings"]:
            repro = (f"<details><summary>reproducer</summary><pre>{e(f['worst']['reproducer'])}</pre></details>"
                     if f["worst"]["reproducer"] else "")
            out.append(f"<li class='{e(f['verdict'])}'>{e(finding_line(f).replace('**', ''))}{repro}</li>")
        out.append("</ol>")
    for r in results:
        out.append(f"<h2 id='{e(r.peer)}'>{e(r.peer)} {e(r.version)}</h2>")
        out += [f"<p>{e(n)}</p>" for n in r.notes]
        if r.comparisons:
            out.append("<div class='scroll'><table><tr>" + "".join(f"<th>{e(h)}</th>" for h in HEADERS[1:])
                       + "</tr>")
            for c, row in zip(r.comparisons, rows_of([r])):
                out.append(f"<tr class='{e(c.verdict)}'>" + "".join(f"<td>{e(x)}</td>" for x in row[1:]) + "</tr>")
                if c.verdict != "exact" and c.reproducer:
                    out.append(f"<tr><td colspan='{len(HEADERS) - 1}'><details><summary>reproducer</summary><pre>"
                               f"{e(c.reproducer)}</pre></details></td></tr>")
            out.append("</table></div>")
    out.append("</body></html>\n")
    return "".join(out)


def ratio_of(c: Comparison) -> float | None:
    """peer value / reference (the formula's, else the truth's) for figures; None for decisions.

    The quotient is taken in exact arithmetic (a reference far below float64's range, e.g. a delta of 1e-400,
    must not underflow to 0 before dividing) and rounded to float64 once: 0.0 or +inf where it leaves the range."""
    for j in (c.formula, c.truth):
        if j is not None and j.lo is not None and j.hi is not None and c.peer_value is not None:
            mid = (j.lo + j.hi) / 2
            if mid > 0 and isinstance(c.peer_value, float) and math.isfinite(c.peer_value):
                return _ratio(Fraction(c.peer_value), mid)
    return None
