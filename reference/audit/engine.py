"""The audit on the :mod:`dpbounds.testing` engine: a peer adapter is a list of declarations
(:class:`dpbounds.testing.Declaration`; the contract in :mod:`dpbounds.testing.declarations`), and this module
turns them into the audit's rows and searches.

* **Rows** (always): every explicit example of a declaration is called once on the peer and judged, in arb,
  against every declaration of the same call -- the formula the peer cites (``against="cited"``, the row's (a)) and
  the truth (``"truth"``, (b)) -- one :class:`Comparison` per example, exactly as the hand-written adapters did.
* **Search** (``dpbounds audit --search SECONDS``): every declaration is searched with ``check_conversion`` /
  ``check_filter`` / ``check_odometer``; each (declaration, seed) is an independent task with a deterministic
  budget of ``SECONDS x`` :data:`RATES` examples (by what one costs; the wall clock only caps it, at
  ``WALL_CAP x SECONDS + 30`` s), so a seed gives the same findings wherever
  it runs -- in this process, in ``--jobs N`` processes, or on a Dask cluster (``--scheduler ADDRESS``).  Per
  function the audit reports examples tried and the worst margin; a witness found becomes a row, and with
  ``--witnesses FILE`` it is kept and replayed first next time.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import math
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from dpbounds.audit import common
from dpbounds.audit.laws import law_rows, law_summary, laws_json
from dpbounds.testing.results import Comparison, PeerResult, comparison_from_wire, error_comparison, to_wire
from dpbounds.testing.verdicts import severity

#: examples per second of --search budget (the deterministic size of one search task), by what judging an example
#: costs on this 2-core machine (measured): a conversion against a closed form or a certified ``_refs`` callable is
#: judged by a float interval, arb only near the border (milliseconds); DP-SGD (composition.sgm.eps|delta) by the
#: cheap certified bounds of dpbounds.evaluation.sgm_quick, or a PLD bracket cached per (q, sigma, k) and grid step
#: (tens of milliseconds once the pool's brackets are computed); against another opaque certified evaluator
#: (tradeoff.zcdp, a certified bisection) seconds; a filter or odometer stream runs up to thousands of rounds
#: through the peer (OpenDP: about a millisecond a round).  A declaration whose own call costs more says so
#: (``Declaration.rate``, the smaller rate is used)
RATES = {"closed": 40, "sgm": 12, "opaque": 0.25, "stream": 0.5}
#: a task's wall clock is capped at WALL_CAP x its seconds + 30 s (an example under way ends first; a peer call in
#: another interpreter is bounded by CALL_CAP); only a task that reaches the cap (its JSON says
#: ``"stopped": "time"``) depends on the machine
WALL_CAP = 1
#: a peer run in another interpreter (``--python``) gets at most CALL_CAP x SECONDS (at least 5 s) per call during a
#: search; a point it does not answer in time is skipped (counted, not judged: dpbounds.testing.engine.Unjudged),
#: so that one slow corner of a peer's domain cannot hold a task far beyond its cap (measured: PRV Accountant
#: calls of minutes at small noise multipliers with thousands of compositions)
CALL_CAP = 0.25
#: a task's laws check (dpbounds.audit.laws) has a fixed example budget (laws.EXAMPLES), so its examples depend on
#: the seed alone; its time is only a cap (reached, the check is `incomplete`): the search's seconds, at least
#: LAWS_FLOOR s (so that a short search still completes the budget on a loaded machine) and at most LAWS_CAP s
LAWS_CAP = 30.0
LAWS_FLOOR = 10.0


def laws_cap(seconds: float) -> float:
    """The time cap of a search task's laws check (LAWS_FLOOR <= cap <= LAWS_CAP)."""
    return min(max(seconds, LAWS_FLOOR), LAWS_CAP)
#: a search example against the certified PLD bracket (composition.sgm.*) whose bracket would need a convolution of
#: more than this many pairs of grid points is skipped, not judged (dpbounds.evaluation.sgm_pld.work_limit): at most about
#: 8 s a point here, decided by the point alone (measured: q = 0.01, sigma = 1, k = 1000 is judged in 3 s; k = 1e4
#: or eps in the hundreds are skipped after 1-8 s); the explicit examples are never bounded
SEARCH_WORK_LIMIT = 3e8


def cost_class(decl: Any) -> str:
    """'stream' (a filter or odometer), 'sgm' (a conversion judged against composition.sgm.eps|delta: the cheap
    certified bounds and cached brackets of dpbounds.evaluation.sgm_quick), 'opaque' (a conversion whose registry
    reference has only an opaque certified evaluator, or whose callable reference says ``cost_class = "opaque"``)
    or 'closed'."""
    if decl.kind != "conversion":
        return "stream"
    if isinstance(decl.reference, str):
        from dpbounds.evaluation.sgm_quick import ENTRIES
        from dpbounds.spec import get
        if decl.reference in ENTRIES:
            return "sgm"
        try:
            return "opaque" if get(decl.reference).evaluator else "closed"
        except Exception:  # noqa: BLE001 - an unknown id is skipped elsewhere
            return "closed"
    # a callable reference says what one evaluation costs (``cost_class = "opaque"``: a certified search of its own)
    return getattr(decl.reference, "cost_class", "closed")


@dataclass(frozen=True)
class SearchOptions:
    """``dpbounds audit --search SECONDS --seed S --seeds K --jobs N --scheduler ADDR --witnesses FILE``."""

    seconds: float = 0.0
    seed: int = 0
    seeds: int = 1
    jobs: int = 1
    scheduler: str | None = None
    witnesses: str | None = None
    examples: int | None = None   # every task's example budget, whatever its cost (None: SECONDS x its rate)
    deadline: float | None = None  # the epoch second by which a peer's searches end (its --timeout; search_task)

    def examples_for(self, cost: str, rate: float | None = None) -> int:
        """The deterministic example budget of one task of this cost class (:data:`RATES`), at most ``rate``
        examples a second (a declaration's own, :attr:`dpbounds.testing.Declaration.rate`); :attr:`examples` when
        given (then ``seconds`` is only the cap)."""
        if self.examples is not None:
            return max(1, int(self.examples))
        r = RATES[cost] if rate is None else min(RATES[cost], rate)
        return max(1, int(self.seconds * r))


def is_declarative(mod: ModuleType) -> bool:
    """A module of declarations (``PEER`` and ``declarations()``) rather than a hand-written ``audit()``."""
    from dpbounds.testing.declarations import describe
    try:
        describe(mod)
    except TypeError:
        return False
    return callable(getattr(mod, "declarations", None))


def peer_name(mod: ModuleType) -> str:
    from dpbounds.testing.declarations import describe
    return describe(mod).name


def _text(v: Any) -> str:
    return v if isinstance(v, str) else repr(v)


def _oracle(decl: Any) -> Any:
    """The declaration's oracle, judging in its role: below a cited formula is a formula departure, below the truth
    a false claim (as run_declaration judges the same declaration)."""
    from dpbounds.testing.oracle import Oracle
    return Oracle(decl.reference, decl.fixed, decl.claim, role="formula" if decl.against == "cited" else "truth")


def _description(decl: Any, oracle: Any) -> str:
    if decl.cites and decl.against == "cited":
        return f"{decl.cites} (the formula the peer cites), certified"
    if not isinstance(decl.reference, str) and getattr(decl.reference, "__doc__", None):
        return decl.reference.__doc__.strip().splitlines()[0]
    return oracle.description


def _peer_fn(decl: Any, python: str | None, remotes: dict[str, Any]) -> Callable[..., Any]:
    from dpbounds.testing.declarations import Remote, resolve_call
    if python is None:
        return resolve_call(decl.call)
    key = str(decl.call)
    if key not in remotes:
        remotes[key] = Remote(python, key)
    return remotes[key].function()


def example_rows(peer: str, decls: list[Any], python: str | None = None) -> list[Comparison]:
    """One row per explicit example of each call: the peer's value judged against every declaration of that call
    (conversions; a filter's or odometer's example stream becomes one row of its per-stream check)."""
    groups: dict[tuple[str, str, str], list[Any]] = {}
    for d in decls:
        groups.setdefault((str(d.call), d.function, d.check), []).append(d)
    rows: list[Comparison] = []
    remotes: dict[str, Any] = {}
    last = {call: i for i, (call, _, _) in enumerate(groups)}  # a call's interpreter is closed after its last group
    try:
        for i, ((call, function, check), ds) in enumerate(groups.items()):
            if ds[0].kind != "conversion":
                rows += _stream_rows(peer, ds, python)
                continue
            try:
                rows += _conversion_rows(peer, call, function, check, ds, python, remotes)
            finally:
                if last[call] == i and call in remotes:
                    remotes.pop(call).close()  # no idle interpreter per call piles up over a peer's many calls
    finally:
        for r in remotes.values():
            r.close()
    return rows


def _conversion_rows(peer: str, call: str, function: str, check: str, ds: list[Any], python: str | None,
                     remotes: dict[str, Any]) -> list[Comparison]:
    """The rows of one call's explicit examples, each judged against every declaration of that call."""
    from dpbounds.testing.checks import _conversion_reproducer, peer_args
    from dpbounds.testing.oracle import Undecided
    from dpbounds.spec import DomainError
    rows: list[Comparison] = []
    fn = _peer_fn(ds[0], python, remotes)
    seen: list[dict[str, Any]] = []
    for d in ds:
        for e in d.examples:
            if dict(e) not in seen:
                seen.append(dict(e))
    try:
        oracles = [(d, _oracle(d)) for d in ds]
    except Exception as e:  # noqa: BLE001 - a reference that cannot be set up is this call's row, not a crash
        rows.append(Comparison(peer, function, check or "value", {}, error_class="adapter-error",
                               error=f"the reference could not be set up: {type(e).__name__}: {e}"[:400]))
        return rows
    for point in seen:
        inputs = {k: _text(v) for k, v in point.items()}
        first = oracles[0]
        try:
            pv = _as_float(fn(**peer_args(point)))
        except Exception as e:  # noqa: BLE001 - the peer's failure is a row (ours when our wrapper raised)
            from dpbounds.testing.results import raised_by
            if raised_by(e) == "limit":  # an input the wrapper declares it cannot express: not judged
                continue
            row = error_comparison(peer, function, check or "value", inputs, e, _repro(first, fn, point, None))
            row.call = call
            rows.append(row)
            continue
        c = Comparison(peer, function, check or "value", inputs, peer_value=pv, call=call)
        for d, o in oracles:
            if point not in [dict(x) for x in d.examples]:
                continue
            try:
                enc, j = o.certified(point, pv, _description(d, o))
            except (DomainError, Undecided) as e:
                c.error, c.error_class = f"the reference could not be evaluated: {e}", "adapter-error"
                break
            role = "formula" if d.against == "cited" else "truth"
            j.role = role
            setattr(c, role, j)
            if not c.reproducer or role == "formula":
                c.reproducer = _conversion_reproducer(fn, d.reference, point, o.fixed, d.claim, j.verdict,
                                                      pv, enc, j.detail)
        rows.append(c)
    return rows


def _as_float(v: Any) -> Any:
    """A peer's int or float answer as a float (an int beyond float64 is +-inf); anything else as it is, for the
    judgement to call it "not a number"."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return v
    try:
        return float(v)
    except OverflowError:
        return math.inf if v > 0 else -math.inf


def _repro(pair: Any, fn: Any, point: dict[str, Any], enc: Any) -> str:
    from dpbounds.testing.checks import _conversion_reproducer
    d, o = pair
    return _conversion_reproducer(fn, d.reference, point, o.fixed, d.claim, "error", None, enc, "the peer raised")


def _stream_example(d: Any, ex: Any) -> tuple[Any, list[Any]]:
    """(the declaration at this example's budget, the stream): an example is a stream of per-round cost dicts, or a
    dict ``{<budget parameters>..., "spends": [<cost dicts>]}`` (a stream at its own budget)."""
    if isinstance(ex, dict) and "spends" in ex:
        budget = {k: v for k, v in ex.items() if k != "spends"}
        return dataclasses.replace(d, budget=budget or d.budget), list(ex["spends"])
    return d, list(ex)


def _stream_rows(peer: str, ds: list[Any], python: str | None) -> list[Comparison]:
    """A filter's or odometer's example stream: one row per round (the stream up to that round, judged decision by
    decision), up to the first round where the peer halts or the verdict is not exact -- as the hand-written
    adapters reported them."""
    rows = []
    for d0 in ds:
        for ex in d0.examples:
            d, stream = _stream_example(d0, ex)
            stream = tuple(stream)
            for i in range(1, len(stream) + 1):
                try:
                    c, stop = _stream_row(peer, d, stream[:i], python)
                except Exception as e:  # noqa: BLE001 - e.g. a reference of the wrong kind: this row, not the peer
                    rows.append(Comparison(peer, d.function, d.check or d.kind,
                                           {"stream": json.dumps(list(stream[:i]))}, error_class="adapter-error",
                                           error=f"the check could not run: {type(e).__name__}: {e}"[:400]))
                    break
                c.check = f"{d.check or d.kind} round {i}"
                rows.append(c)
                if stop:
                    break
    return rows


def _stream_row(peer: str, d: Any, stream: tuple[Any, ...], python: str | None) -> tuple[Comparison, bool]:
    """The check of one example stream, its row (:attr:`CheckResult.row`: the peer's last decision, or its running
    value at the worst round, judged) named for the peer, and whether the stream's rows stop here."""
    from dpbounds.testing.declarations import run_declaration
    r = run_declaration(dataclasses.replace(d, examples=(stream,)), seconds=3600, max_examples=1, python=python)
    budget = {k: _text(v) for k, v in (d.budget or {}).items()}
    hist = [",".join(_text(rd[c]) for rd in stream) for c in d.costs] if all(
        c in rd for rd in stream for c in d.costs) else [json.dumps(list(stream))]
    inputs = {"budget": next(iter(budget.values())) if len(budget) == 1 else json.dumps(budget),
              "history": hist[0] if len(hist) == 1 else json.dumps(dict(zip(d.costs, hist)))}
    c = _named(r.row, d, d.check or d.kind, inputs=inputs, call="")
    return c, r.verdict != "exact" or (d.kind == "filter" and c.peer_output == "HALT")


def _named(row: Comparison, d: Any, check: str, *, inputs: dict[str, str] | None = None,
           call: str | None = None) -> Comparison:
    """A check's row (``peer`` empty, the implementation's name) as the audit shows it: the declaration's peer,
    function and words, the formula it cites as its reference's description."""
    row = dataclasses.replace(row, peer=d.peer, function=d.function, check=check,
                              inputs=row.inputs if inputs is None else inputs,
                              call=(str(d.call) if isinstance(d.call, str) else "") if call is None else call)
    for j in (row.formula, row.truth):
        if j is not None:
            j.description = d.cites or j.reference
    return row


# ------------------------------------------------------------------------------------------------ search tasks


def call_key(call: Any) -> str:
    """The call as witness files name it: ``<peer>_calls:<func>`` for the calls module of a peer package
    (``<...>.<peer>.calls:<func>``), else the call itself."""
    s = str(call)
    mod, _, func = s.partition(":")
    parts = mod.split(".")
    return f"{parts[-2]}_calls:{func}" if len(parts) >= 2 and parts[-1] == "calls" else s


def witness_key(d: Any) -> str:
    ref = d.reference if isinstance(d.reference, str) else \
        f"{getattr(d.reference, '__module__', '?')}.{getattr(d.reference, '__qualname__', '?')}"
    return f"{d.peer}|{d.function}|{call_key(d.call)}|{ref}|{d.against}|{d.check}"


def load_witnesses(path: str | None) -> dict[str, list[Any]]:
    if not path or not Path(path).exists():
        return {}
    from dpbounds.util.io import read_text_bounded
    data = json.loads(read_text_bounded(path, "--witnesses"))
    if not isinstance(data, dict) or not isinstance(data.get("witnesses"), dict):
        from dpbounds.spec import DomainError
        raise DomainError("--witnesses", path, "a witness file written by dpbounds audit", "dpbounds audit")
    return {k: list(v) for k, v in data["witnesses"].items()}


def merge_witnesses(path: str, additions: dict[str, list[Any]]) -> None:
    """Add witnesses to the file under an exclusive lock, re-reading it first: peers searched at once (``--jobs``)
    each add their own functions' witnesses without losing the others'."""
    import fcntl
    import os
    fd = os.open(f"{path}.lock", os.O_CREAT | os.O_WRONLY | os.O_NOFOLLOW, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        known = load_witnesses(path)
        for k, lst in additions.items():
            cur = known.setdefault(k, [])
            cur.extend(w for w in lst if w not in cur)
        save_witnesses(path, known)
    finally:
        os.close(fd)  # releases the lock


def save_witnesses(path: str, w: dict[str, list[Any]]) -> None:
    """Write the search witnesses, keeping the file's other keys (its recorded ``findings``)."""
    from dpbounds.util.io import atomic_write_text
    data: dict[str, Any] = {}
    if Path(path).exists():
        from dpbounds.util.io import read_text_bounded
        old = json.loads(read_text_bounded(path, "--witnesses"))
        data = old if isinstance(old, dict) else {}
    data.update({"version": 1, "witnesses": w})
    atomic_write_text(path, json.dumps(data, indent=1, sort_keys=True) + "\n", "--witnesses")


def _ref_id(reference: Any) -> str:
    return reference if isinstance(reference, str) else getattr(reference, "ref_id", "")


def peer_witnesses(mod: ModuleType) -> list[dict[str, Any]]:
    """The recorded witnesses of a peer package: its ``witnesses.json``, a list of ``{"call", "ref", "inputs",
    ...}`` whose ``call`` is relative to the package (``"calls:<func>"``); none for a peer without the file."""
    import importlib.resources
    if not hasattr(mod, "__path__"):
        return []
    try:
        text = importlib.resources.files(mod.__name__).joinpath("witnesses.json").read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):
        return []
    data = json.loads(text)
    if not isinstance(data, list):
        raise ValueError(f"{mod.__name__}/witnesses.json: a list of witnesses expected")
    return [w for w in data if isinstance(w, dict)]


def _local_call(call: Any, mod: ModuleType) -> str:
    """``call`` relative to the peer package ``mod`` (``calls:<func>``), as its witnesses.json names it."""
    s = str(call)
    return s[len(mod.__name__) + 1:] if s.startswith(mod.__name__ + ".") else s


def effective_declarations(mod: ModuleType) -> tuple[list[Any], list[str]]:
    """The adapter's declarations as the audit runs them, aligned with ``mod.declarations()`` (None: skipped), and
    the notes saying why: the peer's recorded witnesses (:func:`peer_witnesses`) of a declaration become its first
    examples; a declaration whose registry id this dpbounds does not have is skipped ("reference X not
    available")."""
    from dpbounds.spec import get
    known = peer_witnesses(mod)
    out: list[Any] = []
    notes: dict[str, str] = {}
    for d in mod.declarations():
        rid = _ref_id(d.reference)
        wit = [dict(w["inputs"]) for w in known if w.get("call") == _local_call(d.call, mod) and w.get("ref") == rid
               and isinstance(w.get("inputs"), dict)]
        if wit and d.kind == "conversion":
            ex = list(wit) + [e for e in d.examples if dict(e) not in wit]
            d = dataclasses.replace(d, examples=tuple(ex))
        if isinstance(d.reference, str):
            try:
                get(d.reference)
            except Exception:  # noqa: BLE001 - an id this dpbounds does not have (yet)
                notes[f"skip {d.reference}"] = (f"reference {d.reference} not available in this dpbounds: "
                                                f"skipped `{d.function}` ({d.against})")
                out.append(None)
                continue
        out.append(d)
    return out, list(notes.values())


def _search_identity(d: Any) -> tuple[Any, ...]:
    """What a search of ``d`` depends on: two declarations equal here (the same call against the same reference
    object over the same domain -- an adapter that names one certified function as both the cited formula and the
    truth) run the same search, so it runs once."""
    ref = d.reference if isinstance(d.reference, str) else id(d.reference)
    return (str(d.call), ref, repr(sorted(d.inputs.items())), repr(sorted(d.fixed.items())), d.claim, d.kind,
            repr(sorted((d.budget or {}).items())), tuple(d.costs), d.max_rounds)


def search_groups(aligned: list[Any]) -> dict[int, list[int]]:
    """The declarations searched (index -> every index whose search it is, itself first): a declaration whose
    search is another's (:func:`_search_identity`) is not searched again; its witnesses are replayed in that one."""
    first: dict[tuple[Any, ...], int] = {}
    out: dict[int, list[int]] = {}
    for i, d in enumerate(aligned):
        if d is None:
            continue
        j = first.setdefault(_search_identity(d), i)
        out.setdefault(j, []).append(i)
    return out


def call_cap(decl: Any, seconds: float) -> float:
    """The most seconds one peer call may take in a search of ``decl`` (``--python``): its own
    ``Declaration.call_seconds`` when it states one, else CALL_CAP x SECONDS (at least 5 s)."""
    own = getattr(decl, "call_seconds", None)
    return float(own) if own is not None else max(5.0, CALL_CAP * seconds)


#: a search task left with fewer seconds than this before the peer's deadline (its ``--timeout``) is not started:
#: its summary says so (``incomplete``), rather than the timeout killing every unit's result
MIN_TASK_SECONDS = 15.0
#: the seconds of a peer's ``--timeout`` kept for what follows its searches (the result's rows, sending it back)
DEADLINE_MARGIN = 60.0
#: the most seconds the warm-up call before a search (:func:`_warm`) may take
WARM_CALL_SECONDS = 60.0


def _warm(decl: Any, python: str | None) -> None:
    """Before a search in the peer's interpreter: its start awaited, and its first explicit example called once
    (the answer discarded) -- the peer's imports, lazy ones included, are then not on the search's clock nor
    under its per-call cap.  Never raises: a peer that cannot start or answer says so in the search."""
    if not python:
        return
    from dpbounds.testing.checks import peer_args
    from dpbounds.testing.declarations import Remote
    try:
        remote = Remote(python, str(decl.call), timeout=WARM_CALL_SECONDS)
    except Exception:  # noqa: BLE001 - the search reports it
        return
    try:
        remote.ready()
        if decl.kind == "conversion" and decl.examples and isinstance(decl.examples[0], dict):
            remote.batch([{"op": "call", "inputs": peer_args(dict(decl.examples[0]))}])
    except Exception:  # noqa: BLE001 - (the search judges the same point again, and says what failed)
        pass
    finally:
        remote.close()


def _not_run(decl: Any, index: int, seed: int, why: str, verdict: str = "adapter-error") -> dict[str, Any]:
    """A search task's JSON when it judged nothing (it could not run, or was not started): ``verdict`` with why, a
    row saying so (ours)."""
    row = Comparison("", decl.function, decl.kind, {"error": why} if decl.kind == "conversion" else
                     {"witness": json.dumps({"error": why})}, error=why, error_class="adapter-error")
    return {"declaration": index, "key": witness_key(decl), "function": decl.function, "seed": seed,
            "reference": _ref_id(decl.reference) or str(decl.reference), "verdict": verdict, "examples": 0,
            "margin": None, "witness": {"error": why}, "peer_value": why, "enclosure": None, "detail": why,
            "reproducer": "", "row": to_wire(row), "laws": None,
            **({"stopped": "time"} if verdict == "incomplete" else {})}


def search_task(module: str, index: int, seed: int, seconds: float, max_examples: int, python: str | None,
                replay: list[Any], against: str | None = None, deadline: float | None = None) -> dict[str, Any]:
    """One (declaration, seed) search; module-level and pure in its arguments, so it runs the same in this
    process, a worker process or a Dask worker.  ``against``: the role the search judges with (the most severe of
    the declarations it stands for, :func:`search_groups`); ``deadline``: the epoch second by which it must end (the
    peer's ``--timeout``): the clock caps the search and its laws there, and a task with less than
    :data:`MIN_TASK_SECONDS` left is not started (``incomplete``, saying so).  A peer in another interpreter
    (``python``) is warmed first (:func:`_warm`: its start and imports are not on the clock) and kept for the laws
    (:class:`~dpbounds.testing.declarations.reuse_interpreters`); each call is capped at :func:`call_cap`.  Returns
    the CheckResult as JSON."""
    import warnings
    from dpbounds.testing.declarations import reuse_interpreters, run_declaration
    mod = importlib.import_module(module)
    decl = effective_declarations(mod)[0][index]
    if against is not None and against != decl.against:
        decl = dataclasses.replace(decl, against=against)

    def left() -> float:
        return math.inf if deadline is None else deadline - time.time()
    if left() < MIN_TASK_SECONDS:
        return _not_run(decl, index, seed, "not searched: the peer's --timeout came first (this search was not "
                        "started)", "incomplete")
    from dpbounds.evaluation.sgm_pld import work_limit
    t0 = time.perf_counter()
    with reuse_interpreters():
        _warm(decl, python)
        try:
            with warnings.catch_warnings(), work_limit(SEARCH_WORK_LIMIT):
                warnings.simplefilter("ignore")
                r = run_declaration(dataclasses.replace(decl, examples=()),
                                    seconds=min(WALL_CAP * seconds + 30, max(1.0, 0.75 * left())), seed=seed,
                                    max_examples=max_examples, python=python, extra_examples=replay,
                                    call_timeout=call_cap(decl, seconds))
        except Exception as e:  # noqa: BLE001 - the search could not run (a reference of the wrong kind, a dead peer)
            out = _not_run(decl, index, seed, f"the search could not run: {type(e).__name__}: {e}"[:400])
            # the laws need no reference: a search that could not run (ours) does not also hide the peer's law
            # violations
            out["laws"] = _laws(decl, python, seconds, seed, left())
            return out
        out = r.as_json()
        out["search_seconds"] = round(time.perf_counter() - t0, 2)  # (the warm-up and the search; not the laws)
        out["row"] = to_wire(r.row)  # the witness's row (CheckResult.row), across the process boundary as JSON
        out["laws"] = _laws(decl, python, seconds, seed, left())
    out["declaration"] = index
    out["key"] = witness_key(decl)
    out["seconds"] = round(time.perf_counter() - t0, 2)
    return out


def _laws(decl: Any, python: str | None, seconds: float, seed: int, left: float) -> dict[str, Any] | None:
    """The task's laws check (:func:`dpbounds.audit.laws.laws_json`), capped at :func:`laws_cap` and at the time
    ``left`` before the peer's deadline."""
    if left < MIN_TASK_SECONDS / 3:
        from dpbounds.audit.laws import laws_for
        laws = laws_for(decl)
        return {"function": decl.function, "laws": laws, "verdict": "incomplete", "violations": [], "examples": 0,
                "seed": seed, "detail": "not checked: the peer's --timeout came first"} if laws else None
    return laws_json(decl, python=python, seconds=min(laws_cap(seconds), max(1.0, left / 2)), seed=seed)


def run_tasks(tasks: list[tuple[Any, ...]], opts: SearchOptions, progress: Callable[[str], None] | None = None
              ) -> list[dict[str, Any]]:
    """Run search tasks here, in ``opts.jobs`` processes, or on the Dask scheduler ``opts.scheduler``; results in
    task order (identical wherever they ran: each task is deterministic in its arguments)."""
    if opts.scheduler:
        try:
            from distributed import Client
        except ImportError:
            from dpbounds.spec import DomainError
            raise DomainError("--scheduler", opts.scheduler, "an installed dask.distributed "
                              "(pip install 'dpbounds[dask]')", "dpbounds audit") from None
        with Client(opts.scheduler) as client:
            futures = client.map(lambda t: search_task(*t), tasks, pure=False)
            out = client.gather(futures)
        return list(out)
    if opts.jobs > 1:
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(max_workers=opts.jobs) as ex:
            futs = [ex.submit(search_task, *t) for t in tasks]
            res = []
            for f in futs:
                res.append(f.result())
                if progress:
                    progress(_task_line(res[-1]))
            return res
    res = []
    for t in tasks:
        res.append(search_task(*t))
        if progress:
            progress(_task_line(res[-1]))
    return res


def _task_line(r: dict[str, Any]) -> str:
    m = r.get("margin")
    return f"{r['function'].rsplit('.', 1)[-1]}: {r['verdict']}, {r['examples']} examples" + \
        ("" if m is None else f", worst margin {m:.3g}")


def search_peer(mod: ModuleType, decls: list[Any], opts: SearchOptions, python: str | None,
                res: PeerResult, only: int | None = None) -> None:
    """Search every declaration of one peer (``opts.seeds`` tasks each; declarations with the same search once,
    :func:`search_groups`), or only declaration ``only``; summaries into ``res.search`` (``also_against``: the
    other declarations the search stands for), found witnesses as rows and into the witness file."""
    from dpbounds.util.progress import Progress
    known = load_witnesses(opts.witnesses)
    groups = search_groups(decls)
    tasks = []
    for i, same in groups.items():
        if only is not None and i != only:
            continue
        d = decls[i]
        replay = list(dict.fromkeys(json.dumps(w, sort_keys=True) for j in same
                                    for w in known.get(witness_key(decls[j]), [])))
        against = "truth" if any(decls[j].against == "truth" for j in same) else d.against
        for s in range(opts.seeds):
            budget = opts.examples_for(cost_class(d), d.rate)
            tasks.append((mod.__name__, i, opts.seed + s, opts.seconds, budget, python,
                          [json.loads(w) for w in replay], against, opts.deadline))
    with Progress(len(tasks), f"search {peer_name(mod)}") as bar:
        results = run_tasks(tasks, opts, lambda line: bar.update(1, line))
    by_decl: dict[int, list[dict[str, Any]]] = {}
    for r in results:
        by_decl.setdefault(r["declaration"], []).append(r)
    added: dict[str, list[Any]] = {}
    for i, rs in sorted(by_decl.items()):
        d = decls[i]
        margins = [r["margin"] for r in rs if r["margin"] is not None]
        worst = min(rs, key=lambda r: severity(r["verdict"]))
        also = [decls[j].against for j in groups[i][1:]]
        res.search.append({"function": d.function, "call": str(d.call), "reference": worst["reference"],
                           "against": d.against, **({"also_against": also} if also else {}),
                           "check": d.check, "verdict": worst["verdict"],
                           "examples": sum(r["examples"] for r in rs), "seeds": [r["seed"] for r in rs],
                           "skipped": sum(r.get("skipped") or 0 for r in rs),
                           "unanswered": sum(r.get("unanswered") or 0 for r in rs),
                           "seconds": round(sum(r.get("seconds", 0.0) for r in rs), 2),
                           "search_seconds": round(sum(r.get("search_seconds", 0.0) for r in rs), 2),
                           "groups": sum(r.get("groups") or 0 for r in rs),
                           "limits": sum(r.get("limits") or 0 for r in rs),
                           "stopped": sorted({r.get("stopped", "examples") for r in rs}),
                           "worst_margin": min(margins) if margins else None, "witness": worst["witness"],
                           "worst_example": worst.get("worst"), "budget": sum(r.get("budget") or 0 for r in rs),
                           "detail": worst.get("detail") or "", "reproducer": worst["reproducer"] or None,
                           **({"slow": next(r["slow"] for r in rs if r.get("slow"))}
                              if any(r.get("slow") for r in rs) else {}),
                           **({"laws": law_summary([r.get("laws") for r in rs])}
                              if any(r.get("laws") for r in rs) else {})})
        res.comparisons += [c for r in rs if r.get("laws") for c in law_rows(d, r["laws"])]
        for r in rs:
            w = r["witness"]
            if w is None or r["verdict"] not in ("unsound", "formula-departure", "unsound-rounding", "error",
                                                 "adapter-error"):
                continue
            c = _named(comparison_from_wire(r["row"]), d, f"{d.check or d.kind} (search witness, seed {r['seed']})")
            res.comparisons.append(c)
            replay = w if d.kind == "conversion" else w.get("stream")  # a point, or the stream to replay
            lst = known.setdefault(r["key"], [])
            if replay and replay not in lst:
                lst.append(replay)
                added.setdefault(r["key"], []).append(replay)
    if opts.witnesses and added:
        merge_witnesses(opts.witnesses, added)


def audit_declarations(mod: ModuleType, *, quick: bool = False, python: str | None = None,
                       search: SearchOptions | None = None, part: str | int | None = None) -> PeerResult:
    """The audit of one declarative adapter: presence and version, its example rows, and (with ``search``) the
    search of every declaration.  ``part`` splits it into units that run apart (``dpbounds audit --jobs``
    schedules them over all peers): ``"rows"`` is everything but the search, an index ``i`` only the search of
    declaration ``i`` of :func:`effective_declarations` (presence is checked by every unit)."""
    from dpbounds.testing.declarations import reuse_interpreters
    with reuse_interpreters():  # one start of the peer's interpreter for its rows, searches and laws
        return _audit_declarations(mod, quick=quick, python=python, search=search, part=part)


def _audit_declarations(mod: ModuleType, *, quick: bool, python: str | None, search: SearchOptions | None,
                        part: str | int | None) -> PeerResult:
    from dpbounds.testing.declarations import describe, peer_version
    info = describe(mod)
    peer, dist, module, install = info.name, info.dist, info.module, info.install
    res = PeerResult(peer)
    if python:
        ok, version = peer_version(python, module, dist, info.probe_import)
        if not ok:
            return res.skip(f"{version}; {install}")
        res.version = version
    elif not common.available(module):  # (looked up at call time: tests replace it)
        return res.skip(install)
    aligned, notes = effective_declarations(mod)
    decls = [d for d in aligned if d is not None]
    if isinstance(part, int):
        if search is not None and search.seconds > 0:
            search_peer(mod, aligned, search, python, res, only=part)
        return res
    res.functions = list(dict.fromkeys(d.function for d in decls))
    from dpbounds.audit.coverage import coverage
    res.coverage = coverage(peer, res.functions)
    if info.note:
        res.notes.append(info.note)
    res.notes += notes
    for d0, d in zip(mod.declarations(), aligned):
        if d is None:  # a declaration naming a reference this dpbounds does not have: ours to fix, never a pass
            res.comparisons.append(Comparison(peer, d0.function, d0.check or d0.kind, {}, error_class="adapter-error",
                                              error=f"the declaration names the reference {d0.reference!r}, which "
                                                    "this dpbounds does not have"))
    res.comparisons += example_rows(peer, decls, python)
    if callable(getattr(mod, "extra_rows", None)):  # documented checks that are no declaration (module docstring)
        import inspect
        takes_python = "python" in inspect.signature(mod.extra_rows).parameters
        if python and not takes_python:
            res.notes.append(f"{peer}: extra_rows() cannot take the peer's interpreter (--python): not run")
        else:
            res.comparisons += mod.extra_rows(python=python) if takes_python else mod.extra_rows()
    if search is not None and search.seconds > 0 and part is None:
        search_peer(mod, aligned, search, python, res)
    return res


#: the order in which ``--jobs`` starts search units: the costliest first (longest-processing-time scheduling)
COST_ORDER = ("opaque", "sgm", "stream", "closed")


def search_units(mod: ModuleType) -> list[tuple[int, str]]:
    """(declaration index, cost class) of every declaration of a declarative adapter, the unit of ``--jobs``."""
    aligned, _ = effective_declarations(mod)
    return [(i, cost_class(aligned[i])) for i in search_groups(aligned)]
