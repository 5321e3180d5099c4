"""``check_conversion``, ``check_filter``, ``check_odometer``: search an implementation's input domain against the
certified reference and return a :class:`CheckResult` with the worst verdict, a shrunk witness and a reproducer.

Verdicts are the audit's (:mod:`dpbounds.testing.verdicts`), the worst found: ``unsound`` (claims more privacy than
the reference proves), ``unsound-rounding`` (the same, at the scale of float rounding -- still unsound), ``error``
(the implementation raised on an input inside the reference's domain), ``conservative``, ``exact``.

Filters are judged directionally, round by round, against the reference filter stepped with the exact binary
values of the float costs the implementation received: continuing where the reference halts is unsound, halting
where it continues is conservative.  It is ``unsound-rounding`` when the reference would also continue had every
cost of the history been lowered by a relative ``ROUNDING_ULPS * n * 2**-53`` (n: rounds so far; then rounded
down to float64): the most a float64 running sum of n costs loses to rounding (each addition errs by at most
2**-53 relative, Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., Sec. 4.2), with room for a
budget rounded to float.  Anything beyond is ``unsound``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from dpbounds.testing.verdicts import ROUNDING_ULPS, UNSOUND
from dpbounds.evaluation.enclosure import Enclosure
from dpbounds.spec import DomainError
from dpbounds.testing import engine
from dpbounds.testing.engine import Outcome, SearchState, Unjudged
from dpbounds.testing.oracle import Oracle, Undecided, classify, judge_enclosure


@dataclass(frozen=True)
class CheckResult:
    """What a check found.  ``verdict``: the worst found; ``witness``: the shrunk worst case (the inputs; for
    filters and odometers ``{"stream": [...], "round": i}``), None when nothing fell below (or raised);
    ``peer_value`` and ``enclosure`` (or ``decision``, for filters) at the witness; ``examples``: how many
    examples were judged; ``margin``: the worst relative margin found (negative: an under-report; for filters the
    extra rounds over the reference's, relative); ``reproducer``: runnable Python for the witness; ``counts``:
    examples per verdict (once a conservative example is certified, later examples the float interval proves sound
    are counted conservative without arb); ``skipped``: points outside the reference's domain (or where it could
    not certify), and the ``unanswered`` ones among them (a peer call over its time limit); ``stopped``: "found" (unsound), "examples" (the budget) or "time"."""

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

    @property
    def sound(self) -> bool:
        """No under-report (nor error) found."""
        return self.verdict not in UNSOUND and self.verdict != "error"

    def summary(self) -> str:
        m = "" if self.margin is None else f", worst margin {self.margin:.3g}"
        head = f"{self.function} vs {self.reference}: {self.verdict} ({self.examples} examples{m}, seed {self.seed})"
        if self.witness is None:
            return head
        return f"{head}\nwitness: {_show_witness(self.witness)}\n{self.detail}\nreproducer:\n{self.reproducer}"

    def as_json(self) -> dict[str, Any]:
        enc = None
        if self.enclosure is not None:
            e = self.enclosure
            enc = None if e.pos_inf else [str(e.lo), str(e.hi)]
        return {"kind": self.kind, "function": self.function, "reference": self.reference, "claim": self.claim,
                "verdict": self.verdict, "witness": self.witness, "peer_value": _jsonable(self.peer_value),
                "enclosure": enc, "decision": self.decision, "examples": self.examples,
                "margin": self.margin if self.margin is None or math.isfinite(self.margin) else None,
                "detail": self.detail, "counts": self.counts, "skipped": self.skipped, "seed": self.seed,
                "stopped": self.stopped, "unanswered": self.unanswered, "reproducer": self.reproducer}


def _jsonable(v: Any) -> Any:
    if isinstance(v, float) and not math.isfinite(v):
        return repr(v)
    return v if isinstance(v, (int, float, str, type(None))) else repr(v)


def _show_witness(w: Mapping[str, Any]) -> str:
    if "stream" in w:
        return f"round {w['round']} of a stream of {len(w['stream'])} round(s): {_stream_src(w['stream'])}"
    return ", ".join(f"{k}={v!r}" for k, v in w.items())


def _name(obj: Any) -> str:
    mod = getattr(obj, "__module__", None) or "?"
    return f"{mod}.{getattr(obj, '__qualname__', None) or type(obj).__qualname__}"



def _stepped(peer: Any, r: dict[str, Any]) -> Any:
    """An odometer's value after one ``step`` (its return value, else ``value()``)."""
    v = peer.step(**r)
    return peer.value() if v is None else v


def _import_line(obj: Any, alias: str) -> str:
    """``from mod import name as alias`` when importable by name, else a comment saying what to bind."""
    mod, qn = getattr(obj, "__module__", None), getattr(obj, "__qualname__", "")
    if mod and qn and "<" not in qn and "." not in qn and mod != "__main__":
        return f"from {mod} import {qn} as {alias}"
    return f"{alias} = ...  # bind to {_name(obj)} (not importable by name)"


def _ref_src(reference: Any, alias: str = "reference") -> tuple[str, str]:
    """(setup lines, expression prefix) that name the reference in a reproducer."""
    if isinstance(reference, str):
        return "", repr(reference)
    return _import_line(reference, alias) + "\n", alias


def _result(kind: str, fn: Any, oracle_name: str, claim: str, st: SearchState, seed: int,
            repro: Callable[[Any, Outcome], str]) -> CheckResult:
    w, out = st.witness, st.witness_outcome
    worst = None
    if st.worst_example is not None and st.worst_outcome is not None:
        worst = st.worst_outcome.witness if st.worst_outcome.witness is not None else dict(st.worst_example)
    if out is None:
        # no witness: ``decision`` is the (shared) last decision of the worst example, a filter's CONT / HALT
        dec = st.worst_outcome.decision if st.worst_outcome is not None else None
        return CheckResult(kind, _name(fn), oracle_name, claim, st.verdict(), None, None, None, st.tried, "",
                           st.worst_margin, decision=dec, worst=worst, counts=dict(st.counts), skipped=st.skipped,
                           seed=seed, stopped=st.stopped, unanswered=st.unanswered)
    shown = out.witness if out.witness is not None else dict(w)
    text = repro(w, out)  # certifies the witness first (fills out.enclosure, out.judgement)
    return CheckResult(kind, _name(fn), oracle_name, claim, st.verdict(), shown, out.peer_value, out.enclosure,
                       st.tried, text, st.worst_margin, decision=out.decision, detail=out.detail,
                       worst=worst, counts=dict(st.counts), skipped=st.skipped, seed=seed, stopped=st.stopped,
                       unanswered=st.unanswered)


def _as_float(v: Any) -> Any:
    if isinstance(v, float):
        return v
    if isinstance(v, (int, np.integer, np.floating)) and not isinstance(v, bool):
        return float(v)
    return v


def _exc(e: BaseException) -> str:
    return f"{type(e).__name__}: {str(e)[:200]}"


# ------------------------------------------------------------------------------------------------ conversions


def breakpoints_of(reference: Any, names: Sequence[str]) -> dict[str, list[float]]:
    """Where a registry entry changes regime: the constant sides of its domain relations and of the conditions of
    its piecewise parts, per input name they constrain."""
    if not isinstance(reference, str):
        return {}
    import sympy as sp

    from dpbounds.spec import get
    entry = get(reference)
    rels = list(entry.domain)
    for pw in entry.expr.atoms(sp.Piecewise):
        rels += [c for _, c in pw.args if isinstance(c, sp.core.relational.Relational)]
    out: dict[str, list[float]] = {}
    for rel in rels:
        if not isinstance(rel, sp.core.relational.Relational):
            continue
        for side, other in ((rel.lhs, rel.rhs), (rel.rhs, rel.lhs)):
            if side.is_number and other.is_Symbol and str(other) in names:
                try:
                    out.setdefault(str(other), []).append(float(side))
                except (TypeError, ValueError):
                    pass
    return out


def peer_args(point: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments an implementation receives for a point: exact decimal strings (and Fractions) as the nearest
    float64, as its users would pass them; numbers as they are."""
    return {k: (float(Fraction(v)) if isinstance(v, (str, Fraction)) else v) for k, v in point.items()}


def check_conversion(fn: Callable[..., float], reference: str | Callable[..., Enclosure], *,
                     inputs: Mapping[str, Any], fixed: Mapping[str, Any] | None = None, claim: str = "upper",
                     seconds: float = 60, seed: int = 0, examples: Sequence[Mapping[str, Any]] = (),
                     max_examples: int | None = None) -> CheckResult:
    """Search ``fn(**inputs) -> float`` against ``reference`` over the whole declared domain.

    ``reference``: a registry id (its value at the inputs plus ``fixed``) or a certified callable
    ``(**inputs) -> dpbounds.Enclosure``.  ``inputs``: name -> ``(lo, hi)`` (searched whole, log-scale where
    lo > 0; integer ends: integers) or a list of values.  ``claim``: ``"upper"`` (smaller claims more privacy) or
    ``"lower"`` (a budget, a type-II error: larger claims more privacy).  ``examples``: points run first (pinned
    regressions, grid points).  ``max_examples``: a deterministic budget (``seconds`` then only caps the time).
    Points outside the reference's domain are skipped (``CheckResult.skipped``)."""
    from dpbounds.testing import strategies as S
    oracle = Oracle(reference, fixed, claim)
    strategy = S.points(inputs, breakpoints_of(reference, list(inputs)))
    sure = [False]

    def evaluate(x: Mapping[str, Any]) -> Outcome | None:
        point = dict(x)  # an example may give exact decimals: the reference reads them exactly, fn gets floats
        try:
            v = _as_float(engine.guarded(lambda: fn(**peer_args(point))))
        except Unjudged:
            raise  # counted by the engine (SearchState.unanswered)
        except Exception as e:  # noqa: BLE001 - the peer's failure is a finding, if the point is valid
            try:
                if oracle.fast(point) is None:
                    oracle.enclosure(point)
            except (DomainError, Undecided):
                return None
            return Outcome("error", math.nan, detail=f"raised {_exc(e)} on a valid input", peer_value=_exc(e))
        try:
            r = oracle.verdict(point, v, sure_enough=sure[0])
        except (DomainError, Undecided):
            return None
        if r.verdict in ("conservative", "unsound", "unsound-rounding"):
            sure[0] = True
        return Outcome(r.verdict, r.margin, peer_value=v, judgement=r.judgement,
                       detail=r.judgement.detail if r.judgement else "")

    def finish(x: Mapping[str, Any], out: Outcome) -> str:
        """Certify the witness (its enclosure and the full judgement) and write its reproducer."""
        point = dict(x)
        if out.verdict != "error":
            try:
                enc, j = oracle.certified(point, out.peer_value)
                out.enclosure, out.judgement, out.detail = enc, j, j.detail
            except (DomainError, Undecided):
                pass
        return _conversion_reproducer(fn, reference, point, oracle.fixed, claim, out)

    st = engine.search(strategy, evaluate, seconds=seconds, seed=seed, max_examples=max_examples,
                       examples=[dict(e) for e in examples])
    return _result("conversion", fn, oracle.name, claim, st, seed, finish)


def _conversion_reproducer(fn: Any, reference: Any, point: dict[str, Any], fixed: dict[str, Any], claim: str,
                           out: Outcome) -> str:
    setup, ref = _ref_src(reference)
    args = ", ".join(f"{k}={v!r}" for k, v in peer_args(point).items())
    allargs = {**{k: (str(v) if not isinstance(v, (int, float)) else v) for k, v in fixed.items()}, **point}
    what = ""
    if isinstance(reference, str) and claim == "upper" and isinstance(out.peer_value, float) and out.peer_value < 0:
        from dpbounds.spec import get
        if "unclipped" in get(reference).extra:  # a negative eps: judged against the raw expression (Oracle.certified)
            what = ", what='extra.unclipped'"
    call = (f"print(dpbounds.enclose({ref}, {allargs!r}{what}))" if isinstance(reference, str)
            else f"print({ref}(**{allargs!r}))")
    enc = out.enclosure
    expect = ""
    if enc is not None and not enc.pos_inf:
        want = f">= {enc.lower()!r} (the float below the certified lower end)" if claim == "upper" else \
            f"<= {enc.upper()!r} (the float above the certified upper end)"
        expect = f"# {out.verdict}: the implementation returned {out.peer_value!r}; a sound value is {want}\n"
    return (f"# dpbounds.testing witness ({out.verdict}): {out.detail}\n"
            f"import dpbounds\n{_import_line(fn, 'fn')}\n{setup}"
            f"print(fn({args}))  # the implementation under test\n"
            f"{call}  # the certified reference\n{expect}")


# ------------------------------------------------------------------------------------------------ filters

#: budget names that set the scale of each per-round cost, in order of preference
_SCALE_OF = {"eps": ("eps_g", "eps", "B_eps"), "delta": ("delta_g", "delta_prime", "delta"),
             "rho": ("B", "rho_g", "rho", "kappa", "Delta")}


def _scales(costs: Sequence[str], budget: Mapping[str, Any]) -> dict[str, float]:
    out = {}
    for c in costs:
        s = 1.0
        for b in _SCALE_OF.get(c, ()):
            if b in budget:
                try:
                    s = float(Fraction(str(budget[b]))) if not isinstance(budget[b], (int, float, Fraction)) \
                        else float(budget[b])
                except (ValueError, ZeroDivisionError):
                    continue
                if s > 0 and math.isfinite(s):
                    break
                s = 1.0
        out[c] = s
    return out


def _reference_filter(reference: Any, budget: Mapping[str, Any]) -> Callable[[], Any]:
    if isinstance(reference, str):
        from dpbounds.accounting.accountants import make_filter
        make_filter(reference, **budget)  # DomainError now, for a bad id or budget
        return lambda: make_filter(reference, **budget)
    if not callable(reference):
        raise DomainError("reference", reference, "a filter id or a callable (**budget) -> filter", "dpbounds.testing")
    return lambda: reference(**budget)


def _ref_cont(ref: Any, arrays: dict[str, np.ndarray], rounds: list[dict[str, float]]) -> int:
    """How many leading rounds the reference filter continues (DomainError for an invalid stream)."""
    if hasattr(ref, "try_spend_many") and rounds:
        return int(ref.try_spend_many(**arrays))
    k = 0
    for r in rounds:
        if not ref.try_spend(**r):
            break
        k += 1
    return k


def _lowered(arrays: dict[str, np.ndarray], n: int) -> dict[str, np.ndarray]:
    """The first n rounds with every cost lowered by a relative ROUNDING_ULPS * n * 2**-53, rounded down."""
    f = 1.0 - ROUNDING_ULPS * n * 2.0 ** -53
    return {k: np.nextafter(v[:n] * f, 0.0) for k, v in arrays.items()}


def check_filter(make: Callable[[], Any], reference: str | Callable[..., Any], *, budget: Mapping[str, Any],
                 costs: Sequence[str] = ("eps",), seconds: float = 60, seed: int = 0,
                 examples: Sequence[Sequence[Mapping[str, float]]] = (), max_examples: int | None = None,
                 max_rounds: int | None = None) -> CheckResult:
    """Search the streams a caller can feed ``make()`` (a fresh filter whose ``try_spend(**costs)`` is truthy
    when the round may run; only the names in ``costs`` are passed) against the reference filter
    (``make_filter(reference, **budget)``, or ``reference(**budget)`` for a callable).  Judged round by round
    (module docstring): continuing where the reference halts is unsound, halting where it continues
    conservative.  ``examples``: streams (lists of per-round cost dicts) run first."""
    from dpbounds.testing import strategies as S
    new_ref = _reference_filter(reference, budget)
    scales = _scales(costs, getattr(new_ref(), "budget", budget))
    strategy = S.streams(list(costs), scales, max_rounds or S.MAX_ROUNDS)
    ref_name = reference if isinstance(reference, str) else _name(reference)

    def evaluate(stream: Any) -> Outcome | None:
        rounds = S.expand(stream) if stream and isinstance(stream[0], tuple) else [dict(r) for r in stream]
        n = len(rounds)
        arrays = {c: np.array([float(r.get(c, 0.0)) for r in rounds], dtype=np.float64) for c in costs}
        # the implementation first (cheap): h = its first HALT (n: none); then the reference on rounds[:h + 1] only
        # (a certified reference is slow on long runs at an exact tie that the implementation never reaches)
        try:
            peer = engine.guarded(make)
        except Unjudged:
            raise
        except Exception as e:  # noqa: BLE001
            return Outcome("error", math.nan, detail=f"make() raised {_exc(e)}", peer_value=_exc(e),
                           witness={"stream": [], "round": 0})
        h, err = n, None
        if hasattr(peer, "try_spend_stream"):  # a peer in another interpreter: the whole stream in one batch
            try:
                ds = peer.try_spend_stream([{c: float(arrays[c][i]) for c in costs} for i in range(n)])
                h = next((i for i, d in enumerate(ds) if not d), min(len(ds), n))
            except Unjudged:
                raise
            except Exception as e:  # noqa: BLE001
                h, err = 0, e
        else:
            for i in range(n):
                try:
                    if not engine.guarded(lambda: peer.try_spend(**{c: float(arrays[c][i]) for c in costs})):
                        h = i
                        break
                except Unjudged:
                    raise
                except Exception as e:  # noqa: BLE001
                    h, err = i, e
                    break
        m = min(h + 1, n)
        try:
            k = _ref_cont(new_ref(), {c: a[:m] for c, a in arrays.items()}, rounds[:m])
        except DomainError:
            return None
        if k < h:  # the reference halts at round k + 1; the implementation continues there (and to round h)
            w = {"stream": rounds[:k + 1], "round": k + 1}
            extra = h - k
            try:
                rounding = _ref_cont(new_ref(), _lowered(arrays, k + 1), rounds[:k + 1]) == k + 1
            except DomainError:
                rounding = False
            why = (f"within float rounding: {ref_name} continues once every cost is lowered by "
                   f"{ROUNDING_ULPS} x {k + 1} ulps") if rounding else f"{ref_name} halts here"
            return Outcome("unsound-rounding" if rounding else "unsound",
                           -max(extra / (k + 1), 1e-300) if rounding else -extra / (k + 1) - 1,
                           peer_value="CONT", decision="HALT", witness=w,
                           detail=f"continues at round {k + 1} where {ref_name} halts ({why}; it goes on for "
                                  f"{extra} round(s) past it in this stream)")
        if h == n:
            return Outcome("exact", 0.0, peer_value="CONT", decision="CONT", witness={"stream": rounds, "round": n},
                           detail="the same decisions over the whole stream")
        w = {"stream": rounds[:h + 1], "round": h + 1}
        if err is not None:
            return Outcome("error", math.nan, peer_value=_exc(err), decision="CONT" if k > h else "HALT",
                           witness=w, detail=f"try_spend raised {_exc(err)} at round {h + 1}")
        if k > h:
            return Outcome("conservative", 1.0 / (h + 1), peer_value="HALT", decision="CONT", witness=w,
                           detail=f"halts at round {h + 1} where {ref_name} continues")
        return Outcome("exact", 0.0, peer_value="HALT", decision="HALT", witness=w,
                       detail="halts where the reference halts")

    def finish(stream: Any, out: Outcome) -> str:
        return _filter_reproducer(make, reference, budget, costs, out)

    st = engine.search(strategy, evaluate, seconds=seconds, seed=seed, max_examples=max_examples,
                       examples=[[dict(r) for r in e] for e in examples])
    return _result("filter", make, ref_name, "upper", st, seed, finish)


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


def _filter_reproducer(make: Any, reference: Any, budget: Mapping[str, Any], costs: Sequence[str],
                       out: Outcome) -> str:
    w = out.witness or {"stream": [], "round": 0}
    b = {k: (str(v) if not isinstance(v, (int, float)) else v) for k, v in budget.items()}
    setup, ref = _ref_src(reference)
    mk = (f"ref = dpbounds.make_filter({ref}, **{b!r})  # the certified reference filter" if isinstance(reference, str)
          else f"ref = {ref}(**{b!r})  # the certified reference filter")
    return (f"# dpbounds.testing witness ({out.verdict}): {out.detail}\n"
            f"import dpbounds\n{_import_line(make, 'make')}\n{setup}"
            f"stream = {_stream_src(w['stream'])}\n"
            f"mine, {mk.split(' = ', 1)[0]} = make(), {mk.split(' = ', 1)[1]}\n"
            "for i, costs in enumerate(stream, 1):\n"
            "    a, b = bool(mine.try_spend(**costs)), bool(ref.try_spend(**costs))\n"
            "    print(i, 'implementation:', 'CONT' if a else 'HALT', ' reference:', 'CONT' if b else 'HALT')\n"
            "    if not (a and b):\n"
            "        break\n"
            f"# round {w['round']}: the implementation says {out.peer_value}, the reference {out.decision}\n")


# ------------------------------------------------------------------------------------------------ odometers


def _odometer_reference(reference: Any, params: Mapping[str, Any]) -> Callable[[], Any]:
    if isinstance(reference, str):
        from dpbounds.accounting.accountants import make_odometer
        make_odometer(reference, **params)
        return lambda: make_odometer(reference, **params)
    if not callable(reference):
        raise DomainError("reference", reference, "an odometer id or a callable (**params) -> odometer",
                          "dpbounds.testing")
    return lambda: reference(**params)


def _odometer_values(ref: Any, rounds: list[dict[str, float]]) -> list[tuple[tuple[float, float] | None,
                                                                               Callable[[], Enclosure]]]:
    """Per round: (float interval or None, certified enclosure thunk) of the reference odometer's running value."""
    from dpbounds.accounting.accountants import Odometer
    from dpbounds.evaluation.evaluate import Inputs, enclose_inputs
    out: list[Any] = []
    if isinstance(ref, Odometer):
        aggs = []
        for r in rounds:
            rnd = ref._round(r.get("eps"), r.get("delta", 0), r.get("rho"))
            for s in ref.sums:
                s.commit(rnd)
            ref.rounds += 1
            aggs.append(ref.aggregates())
        ivs = _odometer_fast(ref, aggs)
        for a, iv in zip(aggs, ivs):
            inp = Inputs(ref.params, a)
            out.append((iv, (lambda inp=inp: enclose_inputs(ref.entry, inp, rel_tol=1e-20))))
        return out
    for r in rounds:
        v = ref.step(**r)
        if isinstance(v, Enclosure):
            enc = v
        else:
            q = Fraction(v)
            enc = Enclosure(q, q, 0)
        out.append((None, (lambda enc=enc: enc)))
    return out


def _odometer_fast(ref: Any, aggs: list[dict[str, Any]]) -> list[tuple[float, float] | None]:
    """The float interval of every round at once, where every aggregate is an exact point (else None)."""
    from dpbounds.evaluation.evaluate import fast_interval
    from dpbounds.evaluation.interp import POS_INF
    entry = ref.entry
    if entry.optimize is not None or not aggs:
        return [None] * len(aggs)
    ok = [all(v is not POS_INF and v[0] == v[1] for v in a.values()) for a in aggs]
    idx = [i for i, o in enumerate(ok) if o]
    res: list[tuple[float, float] | None] = [None] * len(aggs)
    if not idx:
        return res
    arrays: dict[str, Any] = {k: float(v) for k, v in ref.params.items()}
    for name in entry.aggregates:
        arrays[name] = np.array([float(aggs[i][name][0]) for i in idx])
    try:
        lo, hi = fast_interval(entry.id, rounded_inputs=True, **arrays)
    except (DomainError, ArithmeticError, ValueError):
        return res
    for j, i in enumerate(idx):
        a, b = float(np.ravel(lo)[j] if np.ndim(lo) else lo), float(np.ravel(hi)[j] if np.ndim(hi) else hi)
        if not (math.isnan(a) or math.isnan(b)):
            res[i] = (a, b)
    return res


def check_odometer(make: Callable[[], Any], reference: str | Callable[..., Any], *,
                   params: Mapping[str, Any] | None = None, costs: Sequence[str] = ("eps",), seconds: float = 60,
                   seed: int = 0, examples: Sequence[Sequence[Mapping[str, float]]] = (),
                   max_examples: int | None = None, max_rounds: int = 256,
                   budget: Mapping[str, Any] | None = None) -> CheckResult:
    """Search the streams a caller can feed ``make()`` (a fresh odometer whose ``step(**costs)`` returns its
    running value, or whose ``value()`` does) against the reference odometer (``make_odometer(reference,
    **params)`` or ``reference(**params)``): a running value below the reference's certified value at any round is
    unsound.  The witness is ``{"stream": [...], "round": i}`` (the worst round).  ``budget=`` is accepted for
    ``params`` (as in a :class:`~dpbounds.testing.Declaration`)."""
    from dpbounds.testing import strategies as S
    params = dict(params if params is not None else (budget or {}))
    new_ref = _odometer_reference(reference, params)
    scales = {c: 1.0 for c in costs}
    strategy = S.streams(list(costs), scales, max_rounds, 4)
    ref_name = reference if isinstance(reference, str) else _name(reference)
    desc = f"{ref_name} (the reference odometer's running value)"
    sure = [False]

    def judge(peer: Any, enc: Enclosure) -> Any:
        return judge_enclosure(peer, enc, "upper", ref_name, desc)

    def evaluate(stream: Any) -> Outcome | None:
        rounds = S.expand(stream) if stream and isinstance(stream[0], tuple) else [dict(r) for r in stream]
        if not rounds:
            return None
        rounds = [{c: float(r.get(c, 0.0)) for c in costs} for r in rounds]
        try:
            refs = _odometer_values(new_ref(), rounds)
        except DomainError:
            return None
        try:
            peer = engine.guarded(make)
        except Unjudged:
            raise
        except Exception as e:  # noqa: BLE001
            return Outcome("error", math.nan, detail=f"make() raised {_exc(e)}", peer_value=_exc(e),
                           witness={"stream": [], "round": 0})
        worst: Outcome | None = None
        for i, (r, (iv, enc)) in enumerate(zip(rounds, refs)):
            try:
                v = _as_float(engine.guarded(lambda: _stepped(peer, r)))
            except Unjudged:
                raise
            except Exception as e:  # noqa: BLE001
                return Outcome("error", math.nan, peer_value=_exc(e), witness={"stream": rounds[:i + 1],
                                                                                "round": i + 1},
                               detail=f"step raised {_exc(e)} at round {i + 1}")
            try:
                res = classify("upper", v, iv, enc, judge, sure_enough=sure[0])
            except Undecided:
                continue
            if res.verdict in ("conservative", "unsound", "unsound-rounding"):
                sure[0] = True
            if worst is None or (engine.severity(res.verdict), res.margin) < (engine.severity(worst.verdict),
                                                                                worst.margin):
                worst = Outcome(res.verdict, res.margin, peer_value=v, judgement=res.judgement,
                                witness={"stream": rounds[:i + 1], "round": i + 1},
                                detail=res.judgement.detail if res.judgement else "")
        return worst

    def finish(stream: Any, out: Outcome) -> str:
        w = out.witness
        if out.verdict != "error" and w and w["round"]:
            try:
                enc = _odometer_values(new_ref(), w["stream"])[-1][1]()
                j = judge(out.peer_value, enc)
                out.enclosure, out.judgement, out.detail = enc, j, j.detail
            except (DomainError, Undecided):
                pass
        return _odometer_reproducer(make, reference, params, out)

    st = engine.search(strategy, evaluate, seconds=seconds, seed=seed, max_examples=max_examples,
                       examples=[[dict(r) for r in e] for e in examples])
    return _result("odometer", make, ref_name, "upper", st, seed, finish)


def _odometer_reproducer(make: Any, reference: Any, params: Mapping[str, Any], out: Outcome) -> str:
    w = out.witness or {"stream": [], "round": 0}
    p = {k: (str(v) if not isinstance(v, (int, float)) else v) for k, v in params.items()}
    setup, ref = _ref_src(reference)
    mk = f"dpbounds.make_odometer({ref}, **{p!r})" if isinstance(reference, str) else f"{ref}(**{p!r})"
    enc = out.enclosure
    tail = f"# certified reference at round {w['round']}: {enc!r}\n" if enc is not None else ""
    return (f"# dpbounds.testing witness ({out.verdict}): {out.detail}\n"
            f"import dpbounds\n{_import_line(make, 'make')}\n{setup}"
            f"stream = {_stream_src(w['stream'])}\n"
            f"mine, ref = make(), {mk}\n"
            "for i, costs in enumerate(stream, 1):\n"
            "    v = mine.step(**costs)\n"
            "    ref.step(**costs)\n"
            "    print(i, 'implementation:', v, ' reference:', ref.value())\n"
            f"{tail}")

