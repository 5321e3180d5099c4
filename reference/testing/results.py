"""The result model of a check, from the peer call to the report, each shape holding the one before:
:class:`~dpbounds.testing.verdicts.Judgement` (one reference's verdict on one value) -> :class:`Comparison` (one peer
value on one input, judged against (a) the formula the peer cites and (b) the true guarantee: the audit's row) ->
:class:`CheckResult` (one search: its counts, its witness as a Comparison, a reproducer) -> :class:`PeerResult` (one
peer's comparisons, notes and search summaries); with :func:`rejudge`, which recomputes every verdict of a result
an adapter built by hand from its numbers, and the wire format that carries them across a process boundary."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from dpbounds.testing.verdicts import (PASS, VERDICTS, Judgement, _finite_or_none, judge_decision, judge_lower,
                                       judge_upper, short_repr)

if TYPE_CHECKING:
    from dpbounds.evaluation.enclosure import Enclosure


def rejudge(result: "PeerResult") -> "PeerResult":
    """``result`` with every verdict recomputed from its numbers (an adapter's own verdict is never trusted).

    A numeric judgement is judged again from the peer's value and the certified [lo, hi] in its claim direction
    (:func:`judge_upper` or :func:`judge_lower`), and keeps the adapter's verdict only where that one is more
    severe (an adapter may flag a value, never clear it); a decision judgement keeps its verdict only when it is one of
    :data:`VERDICTS` and agrees with the two decisions it records (the peer's CONT/HALT in ``peer_output``);
    anything else -- a judgement without numbers, a value that is not a float, an unknown verdict -- is an
    ``error``.  Raises TypeError on a malformed result (the caller turns it into an ``error`` row)."""
    if not isinstance(result.comparisons, list) or not all(isinstance(c, Comparison) for c in result.comparisons):
        raise TypeError("comparisons must be a list of Comparison")
    if not isinstance(result.peer, str) or not isinstance(result.version, str):
        raise TypeError("peer and version must be strings")
    result.notes = [str(n) for n in result.notes] if isinstance(result.notes, list) else []
    result.functions = [str(f) for f in result.functions] if isinstance(result.functions, list) else []
    for c in result.comparisons:
        c.inputs = {str(k): str(v) for k, v in c.inputs.items()} if isinstance(c.inputs, dict) else {}
        c.peer, c.function, c.check = str(c.peer), str(c.function), str(c.check)
        c.error = str(c.error) if c.error else ""
        c.peer_output, c.reproducer = str(c.peer_output or ""), str(c.reproducer or "")
        for attr in ("formula", "truth"):
            j = getattr(c, attr)
            if j is not None:
                setattr(c, attr, _rejudged(c, j))
        if not c.error and c.formula is None and c.truth is None:
            c.error = "the adapter returned a comparison with no judgement"
    return result


def _rejudged(c: "Comparison", j: Judgement) -> Judgement:
    if not isinstance(j, Judgement):
        raise TypeError(f"a judgement of {type(j).__name__}, not Judgement")
    role, ref, desc = str(j.role), str(j.reference), str(j.description)
    if j.lo is not None or j.hi is not None:
        lo, hi = _end(j.lo), _end(j.hi)
        if lo is None or hi is None or not lo <= hi:
            return Judgement(role, ref, desc, "adapter-error",
                             detail=f"the adapter's enclosure [{j.lo!r}, {j.hi!r}] is not an interval of exact "
                                    "rationals (or +inf: no finite bound)")
        judge = judge_lower if j.claim == "lower" else judge_upper
        new = judge(c.peer_value, lo, hi, role=role, reference=ref, description=desc)
        if j.verdict in VERDICTS and VERDICTS.index(j.verdict) <= VERDICTS.index(new.verdict):
            # an adapter may flag more severely, never clear; where it agrees, its own words stay
            new.verdict, new.detail = j.verdict, str(j.detail or new.detail)
        return new
    if j.decision in ("CONT", "HALT") and j.verdict in VERDICTS:
        peer = c.peer_output.strip().upper()
        if peer in ("CONT", "HALT"):
            if peer == j.decision and j.verdict != "exact":
                return Judgement(role, ref, desc, "adapter-error", decision=j.decision,
                                 detail=f"the adapter called the same decision {peer} {j.verdict!r}")
            if peer != j.decision and j.verdict == "exact":
                return judge_decision(peer == "CONT", j.decision == "CONT", same_theorem=True, role=role,
                                      reference=ref, description=desc)
        return j
    if j.verdict == "law-violation":
        # a law checked without a reference (dpbounds.audit.laws): it can only flag, never clear, so it is kept
        return j
    return Judgement(role, ref, desc, "adapter-error",
                     detail="the adapter's judgement has neither an enclosure nor a decision with a known verdict")


def _end(x: Any) -> Fraction | float | None:
    """An enclosure end a judgement may carry -- an exact rational, or +inf (the reference has no finite bound
    there) -- else None (a finite float, -inf, a string: not a certified end)."""
    if isinstance(x, (int, Fraction)) and not isinstance(x, bool):
        return Fraction(x)
    return math.inf if isinstance(x, float) and x == math.inf else None


@dataclass
class Comparison:
    """One peer output on one input, judged against (a) the formula it implements and (b) the true guarantee."""

    peer: str
    function: str                   # the peer's function, fully qualified, e.g. "opendp.combinators.make_..."
    check: str                      # what is compared, in words
    inputs: dict[str, str]          # the witness inputs (exact decimal strings)
    peer_value: float | None = None  # the peer's numeric output
    peer_output: str = ""           # the peer's output as text (decisions, messages)
    formula: Judgement | None = None
    truth: Judgement | None = None
    reproducer: str = ""            # a few lines of Python that show the peer's value and the reference's
    error: str = ""                 # the exception, for verdict "error" (the peer's) or "adapter-error" (ours)
    error_class: str = ""           # "adapter-error" when the exception was raised on our side, else the peer's
    call: str = ""                  # the declaration's "<module>:<func>" (issue drafts inline it), when there is one

    @property
    def verdict(self) -> str:
        """The most severe of the two judgements (``error`` when the peer raised, ``adapter-error`` when our side
        did)."""
        if self.error:
            return "adapter-error" if self.error_class == "adapter-error" else "error"
        vs = [j.verdict for j in (self.formula, self.truth) if j is not None]
        return min(vs, key=VERDICTS.index) if vs else "adapter-error"

    def shown_value(self) -> str:
        if self.error:
            return ""
        return short_repr(self.peer_value) if self.peer_value is not None else self.peer_output

    def as_json(self) -> dict[str, Any]:
        # peer_value is whatever the peer returned (a string, a list, a complex): only a float is a number here
        pv = self.peer_value
        return {"peer": self.peer, "function": self.function, "check": self.check, "inputs": self.inputs,
                "peer_value": _finite_or_none(pv),
                "peer_value_is_inf": isinstance(pv, float) and pv == math.inf,
                "peer_output": self.peer_output or (short_repr(pv) if pv is not None else ""),
                "verdict": self.verdict,
                "formula": self.formula.as_json() if self.formula else None,
                "truth": self.truth.as_json() if self.truth else None,
                "error": self.error or None,
                **({"call": self.call} if self.call else {}),
                "reproducer": self.reproducer or None}


@dataclass(frozen=True)
class CheckResult:
    """What a check found.  ``verdict``: the worst found; ``witness``: the shrunk worst case (the inputs; for
    filters and odometers ``{"stream": [...], "round": i}``), None when nothing fell below (or raised);
    ``peer_value`` and ``enclosure`` (or ``decision``, for filters) at the witness (an odometer that passed: at its
    worst round, ``worst``, when that round's verdict is the result's); ``examples``: how many
    examples were judged; ``margin``: the worst relative margin found (negative: an under-report; for filters the
    extra rounds over the reference's, relative); ``reproducer``: runnable Python for the witness; ``counts``:
    examples per verdict (once a conservative example is certified, later examples the float interval proves sound
    are counted conservative without arb); ``skipped``: points outside the reference's domain (or where it could
    not certify), and the ``unanswered`` ones among them (a peer call over its time limit); ``stopped``: "found"
    (unsound), "examples" (the budget), "exhausted" (the whole domain judged), "skipped" (too many points skipped) or
    "time"; ``budget``: the examples the check was to judge; ``limits``: skipped points a wrapper declared it cannot
    express; ``groups``: the distinct values of the inputs a batch of points shares among the examples judged
    (:class:`~dpbounds.testing.Grid` ``batch``: DP-SGD's (q, sigma, k) compositions; 0 when none are shared);
    ``slow``: the first input a peer call did not answer within its time limit (an ``incomplete`` search's, shown
    in its detail); ``row``: the example the result shows as one :class:`Comparison` -- the witness, else (a filter, an
    odometer) the worst example -- judged with the check's verdict (``peer`` is left empty: the caller's to name);
    an ``error`` / ``adapter-error`` / ``incomplete`` result's row carries why.  Not part of :meth:`as_json`."""

    kind: str
    function: str
    reference: str
    claim: str
    verdict: str
    witness: dict[str, Any] | None
    peer_value: Any
    enclosure: Enclosure | None
    examples: int
    reproducer: str
    margin: float | None
    decision: str | None = None
    detail: str = ""
    worst: dict[str, Any] | None = None
    counts: dict[str, int] = field(default_factory=dict)
    skipped: int = 0
    seed: int = 0
    stopped: str = ""
    unanswered: int = 0
    budget: int = 0
    limits: int = 0
    groups: int = 0
    row: Comparison | None = field(default=None, compare=False, repr=False)
    slow: dict[str, Any] | None = None  # the first input a peer call did not answer within its time limit

    @property
    def sound(self) -> bool:
        """The check passed: ``exact`` or ``conservative`` (nothing under-reported, everything judged)."""
        return self.verdict in PASS

    def summary(self) -> str:
        m = "" if self.margin is None else f", worst margin {self.margin:.3g}"
        head = (f"{self.function} vs {self.reference}: {self.verdict} ({self.examples} of {self.budget} examples"
                f"{m}, seed {self.seed})")
        if self.witness is None:
            return head + (f"\n{self.detail}" if self.detail else "")
        return f"{head}\nwitness: {_show_witness(self.witness)}\n{self.detail}\nreproducer:\n{self.reproducer}"

    def as_json(self) -> dict[str, Any]:
        enc = None
        if self.enclosure is not None:
            e = self.enclosure
            enc = ["inf", "inf"] if e.pos_inf else [str(e.lo), str(e.hi)]  # +oo: the reference gives no bound
        return {"kind": self.kind, "function": self.function, "reference": self.reference, "claim": self.claim,
                "verdict": self.verdict, "witness": self.witness, "peer_value": _jsonable(self.peer_value),
                "enclosure": enc, "decision": self.decision, "examples": self.examples,
                "margin": self.margin if self.margin is None or math.isfinite(self.margin) else None,
                "detail": self.detail, "counts": self.counts, "skipped": self.skipped, "seed": self.seed,
                "stopped": self.stopped, "unanswered": self.unanswered, "budget": self.budget,
                "limits": self.limits, "groups": self.groups, "reproducer": self.reproducer,
                **({"slow": self.slow} if self.slow else {})}


def _jsonable(v: Any) -> Any:
    if isinstance(v, float) and not math.isfinite(v):
        return repr(v)
    return v if isinstance(v, (int, float, str, type(None))) else repr(v)


def _show_witness(w: Mapping[str, Any]) -> str:
    if "stream" in w:
        return f"round {w['round']} of a stream of {len(w['stream'])} round(s): {_stream_src(w['stream'])}"
    return ", ".join(f"{k}={v!r}" for k, v in w.items())




def _stream_src(rounds: Sequence[Mapping[str, float]]) -> str:
    """A stream as compact Python: runs of equal rounds as ``[{...}] * n``."""
    parts: list[str] = []
    i = 0
    while i < len(rounds):
        j = i
        while j + 1 < len(rounds) and rounds[j + 1] == rounds[i]:
            j += 1
        item = "{" + ", ".join(f"{k!r}: {v!r}" for k, v in rounds[i].items()) + "}"
        parts.append(f"[{item}] * {j - i + 1}" if j > i else f"[{item}]")
        i = j + 1
    return " + ".join(parts) or "[]"


@dataclass
class PeerResult:
    peer: str
    version: str = ""
    status: str = "ran"             # ran | skipped | error
    reason: str = ""                # why skipped / error
    functions: list[str] = field(default_factory=list)
    comparisons: list[Comparison] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    search: list[dict[str, Any]] = field(default_factory=list)  # dpbounds audit --search: one summary per function
    coverage: dict[str, Any] | None = None  # the public accounting surface declared (dpbounds.audit.coverage)

    def skip(self, reason: str) -> "PeerResult":
        self.status, self.reason = "skipped", reason
        self.notes.append(f"{self.peer}: skipped ({reason})")
        return self

    def as_json(self) -> dict[str, Any]:
        counts: dict[str, int] = {}
        for c in self.comparisons:
            counts[c.verdict] = counts.get(c.verdict, 0) + 1
        return {"peer": self.peer, "version": self.version or None, "status": self.status,
                "reason": self.reason or None, "functions": self.functions, "notes": self.notes,
                "counts": counts, "comparisons": [c.as_json() for c in self.comparisons],
                **({"search": self.search} if self.search else {}),
                **({"coverage": self.coverage} if self.coverage is not None else {})}


def error_comparison(peer: str, function: str, check: str, inputs: dict[str, str], exc: BaseException,
                     reproducer: str = "") -> Comparison:
    """The row for an exception on valid input: the peer's (``error``) when it was raised in the peer's code, ours
    (``adapter-error``) when it was raised in the audit's adapter or wrapper (:func:`raised_by`)."""
    where = raised_by(exc)
    return Comparison(peer, function, check, inputs, error=f"{type(exc).__name__}: {str(exc)[:200]}",
                      reproducer=reproducer, error_class="adapter-error" if where == "adapter" else "")


# ------------------------------------------------------------------------------------------------ the wire format
# A result crosses a process boundary as JSON only (dpbounds.testing.proc), losslessly: exact rationals as
# {"$q": ["<p in hex>", "<q in hex>"]} and integers beyond 2^53 as {"$int": "<hex>"} (hexadecimal: no limit on the
# digits of a decimal conversion applies), non-finite floats as {"$float": "inf"}, anything else that is not JSON as
# {"$repr": ...} (a peer value of a foreign type, shown as text on the other side).


def to_wire(x: Any) -> Any:
    """``x`` (a result, a comparison, a judgement, or what they hold) as JSON-able data; :func:`from_wire` inverts
    it (dataclasses become dicts of their fields)."""
    import dataclasses
    if x is None or isinstance(x, (bool, str)):
        return x
    if isinstance(x, int):
        return int(x) if abs(x) < 2 ** 53 else {"$int": hex(x)}
    if isinstance(x, float):
        return float(x) if math.isfinite(x) else {"$float": repr(float(x))}
    if isinstance(x, Fraction):
        return {"$q": [hex(x.numerator), hex(x.denominator)]}
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return {f.name: to_wire(getattr(x, f.name)) for f in dataclasses.fields(x)}
    if isinstance(x, dict) and all(isinstance(k, str) for k in x):
        return {k: to_wire(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [to_wire(v) for v in x]
    return {"$repr": repr(x)}


def _unwire(x: Any) -> Any:
    if isinstance(x, list):
        return [_unwire(v) for v in x]
    if isinstance(x, dict):
        if len(x) == 1:
            (k, v), = x.items()
            if k == "$q" and isinstance(v, list) and len(v) == 2:
                return Fraction(int(v[0], 16), int(v[1], 16))
            if k == "$int" and isinstance(v, str):
                return int(v, 16)
            if k == "$float" and isinstance(v, str):
                return float(v)
            if k == "$repr" and isinstance(v, str):
                return v
        return {k: _unwire(v) for k, v in x.items()}
    return x


def _judgement_from(d: Any) -> Judgement | None:
    return None if d is None else Judgement(**_unwire(d))


def comparison_from_wire(d: dict[str, Any]) -> Comparison:
    fields = {k: v for k, v in d.items() if k not in ("formula", "truth")}
    return Comparison(**_unwire(fields), formula=_judgement_from(d.get("formula")),
                      truth=_judgement_from(d.get("truth")))


def result_from_wire(d: dict[str, Any]) -> PeerResult:
    """The :class:`PeerResult` of ``to_wire(result)``; raises TypeError/ValueError on anything else."""
    if not isinstance(d, dict):
        raise TypeError("a PeerResult on the wire is a JSON object")
    fields = {k: v for k, v in d.items() if k != "comparisons"}
    return PeerResult(**_unwire(fields), comparisons=[comparison_from_wire(c) for c in d.get("comparisons", [])])



def _our_dirs() -> tuple[str, ...]:
    """The directories of the code that is ours in an audit: the adapters and wrappers (dpbounds.audit) and the
    check engine (dpbounds.testing)."""
    import os

    import dpbounds
    base = os.path.dirname(os.path.abspath(dpbounds.__file__))
    return (os.path.join(base, "audit") + os.sep, os.path.join(base, "testing") + os.sep)


class RaisedElsewhere(RuntimeError):
    """An exception reported by a peer's interpreter: ``where`` says whose code raised it ("peer", "adapter", or
    "limit" for an input the wrapper declares it cannot express)."""

    def __init__(self, message: str, where: str = "peer") -> None:
        super().__init__(message)
        self.where = where


def raised_by(exc: BaseException) -> str:
    """"adapter" when ``exc`` was raised in our code (the innermost traceback frame lies in dpbounds.audit -- the
    adapters and their calls wrappers -- or dpbounds.testing), "limit" for a wrapper's declared domain limit (an
    exception class named DomainLimit), else "peer" (raised in the peer's code, or in a library it called)."""
    if isinstance(exc, RaisedElsewhere):
        return exc.where
    if type(exc).__name__ == "CallFailed" and exc.__cause__ is not None:  # a SystemExit etc. of the implementation
        return raised_by(exc.__cause__)
    if type(exc).__name__ == "DomainLimit":
        return "limit"
    tb = exc.__traceback__
    last = None
    while tb is not None:
        last = tb
        tb = tb.tb_next
    if last is None:
        return "peer"
    import os
    f = os.path.abspath(last.tb_frame.f_code.co_filename)
    return "adapter" if f.startswith(_our_dirs()) else "peer"
