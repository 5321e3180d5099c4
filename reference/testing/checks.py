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
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from dpbounds.testing.verdicts import ROUNDING_ULPS, short_repr
from dpbounds.evaluation.enclosure import Enclosure
from dpbounds.spec import DomainError
from dpbounds.testing import engine
from dpbounds.testing.engine import Limited, Outcome, Unjudged
from dpbounds.testing.results import CheckResult as CheckResult  # (its public name here too)
from dpbounds.testing.results import _stream_src, raised_by
from dpbounds.testing.oracle import Oracle, Undecided, classify, judge_enclosure


def _name(obj: Any) -> str:
    mod = getattr(obj, "__module__", None) or "?"
    return f"{mod}.{getattr(obj, '__qualname__', None) or type(obj).__qualname__}"



def _stepped(peer: Any, r: dict[str, Any]) -> Any:
    """An odometer's value after one ``step`` (its return value, else ``value()``).  A ``step`` that returns None
    on an odometer with no ``value`` is the implementation's answer, None, judged as a non-number (the peer's
    error): asking for a ``value`` it does not have would raise here, in our code, and be charged to us."""
    v = peer.step(**r)
    if v is None and callable(getattr(peer, "value", None)):
        return peer.value()
    return v


def _import_line(obj: Any, alias: str) -> str:
    """``from mod import name as alias`` when importable by name, else a comment saying what to bind.  A module that
    a fresh interpreter would not find from the current directory (a test module, a script's folder) gets its
    sys.path root added first, so that the reproducer runs from anywhere (the project root too)."""
    obj = getattr(obj, "wrapped", obj)  # a factory that passes the budget: name the user's own
    mod, qn = getattr(obj, "__module__", None), getattr(obj, "__qualname__", "")
    if mod and qn and "<" not in qn and "." not in qn and mod != "__main__":
        return _path_line(mod) + f"from {mod} import {qn} as {alias}"
    return f"{alias} = ...  # bind to {_name(obj)} (not importable by name)"


def _path_line(mod: str) -> str:
    """``import sys; sys.path.insert(0, ROOT)`` when ``mod`` lives outside the installed packages (its root: the
    folder holding its top-level package), else ''."""
    import os
    import sys
    import sysconfig
    m = sys.modules.get(mod)
    f = getattr(m, "__file__", None)
    if not f:
        return ""
    f = os.path.abspath(f)
    installed = {os.path.abspath(p) for p in (sysconfig.get_paths().get("purelib"), sysconfig.get_paths().get(
        "platlib"), sysconfig.get_paths().get("stdlib")) if p}
    root = os.path.dirname(f)
    for _ in range(mod.count(".") + (1 if os.path.basename(f) == "__init__.py" else 0)):
        root = os.path.dirname(root)
    if root in installed or mod.split(".")[0] == "dpbounds":
        return ""
    return f"import sys; sys.path.insert(0, {root!r})  # where {mod} lives\n"


def _width_down(w: float) -> float:
    """``w`` rounded down to two significant digits (a reproducer's rel_tol: no wider than the enclosure judged)."""
    e = math.floor(math.log10(w)) - 1
    return math.floor(w / 10.0 ** e) * 10.0 ** e


def _ref_src(reference: Any, alias: str = "reference") -> tuple[str, str]:
    """(setup lines, expression prefix) that name the reference in a reproducer."""
    if isinstance(reference, str):
        return "", repr(reference)
    return _import_line(reference, alias) + "\n", alias


def _error_result(kind: str, fn: Any, ref_name: str, claim: str, seed: int, budget: int, why: str) -> CheckResult:
    """A check that could not judge at all (nothing was called)."""
    return engine.not_judged(kind, _name(fn), ref_name, claim, seed, budget, why)


def _require_callable(obj: Any, name: str, where: str) -> None:
    """TypeError for an implementation under test that cannot be called (the check would judge nothing)."""
    if not callable(obj):
        raise TypeError(f"{where}: {name} must be callable, not {type(obj).__name__}")


def check_run_args(seconds: Any, max_examples: Any, seed: Any, where: str = "dpbounds.testing") -> int:
    """DomainError unless ``seconds`` is a positive number of seconds (inf: no cap), ``max_examples`` a positive
    integer or None and ``seed`` an integer; returns the example budget."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or math.isnan(seconds) or seconds <= 0:
        raise DomainError("seconds", seconds, "a positive number of seconds (the time cap; inf: none)", where)
    if max_examples is not None and (isinstance(max_examples, bool) or not isinstance(max_examples, int)
                                     or max_examples < 1):
        raise DomainError("max_examples", max_examples, "a positive integer (the example budget) or None", where)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise DomainError("seed", seed, "an integer", where)
    return engine.DEFAULT_EXAMPLES if max_examples is None else max_examples


def _check_inputs(inputs: Any, where: str = "dpbounds.testing") -> None:
    """DomainError unless every input is a (lo, hi) interval of numbers with lo <= hi, or a non-empty list of
    values."""
    if not isinstance(inputs, Mapping) or not inputs:
        raise DomainError("inputs", inputs, "a non-empty mapping name -> (lo, hi) or a list of values", where)
    for k, v in inputs.items():
        if not isinstance(k, str) or not k.isidentifier():
            raise DomainError("inputs", k, "argument names (identifiers)", where)
        if isinstance(v, tuple):
            ok = len(v) == 2 and all(isinstance(x, (int, float, Fraction, str)) and not isinstance(x, bool)
                                     for x in v)
            try:
                ok = ok and Fraction(str(v[0])) <= Fraction(str(v[1]))
            except (ValueError, ZeroDivisionError):
                ok = False
            if not ok:
                raise DomainError(f"inputs[{k!r}]", v, "(lo, hi) with lo <= hi, numbers or exact decimal strings",
                                  where)
        elif isinstance(v, (list, range)):
            if not len(v):
                raise DomainError(f"inputs[{k!r}]", v, "a non-empty list of values", where)
        else:
            raise DomainError(f"inputs[{k!r}]", v, "(lo, hi) or a list of values", where)


def _accepts(fn: Any, names: Sequence[str]) -> str:
    """'' when ``fn`` can be called with exactly the keyword arguments ``names``, else why not (a signature that
    cannot be read is taken on trust)."""
    import inspect
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return ""
    try:
        sig.bind(**{n: 0.0 for n in names})
    except TypeError as e:
        params = [p for p in sig.parameters.values() if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]
        return f"the implementation's signature ({', '.join(p.name for p in params)}) does not take them: {e}"
    return ""


def _names_mismatch(oracle: Oracle, fn: Any, inputs: Mapping[str, Any], fixed: Mapping[str, Any]) -> str:
    """Why the inputs cannot be judged against the reference (their names are not its parameters, one is
    missing), naming the parameters expected and received; '' when they match."""
    import inspect
    got_inputs, got_fixed = sorted(inputs), sorted(fixed)
    got = set(got_inputs) | set(got_fixed)
    if isinstance(oracle.reference, str):
        e = oracle.entry
        skip = {str(e.optimize.var)} if e.optimize is not None else set()
        want = [str(p) for p in e.params if str(p) not in skip]
        required = set(want)
    else:
        try:
            sig = inspect.signature(oracle.reference)
        except (TypeError, ValueError):
            return ""
        ps = [p for p in sig.parameters.values() if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]
        if any(p.kind == p.VAR_KEYWORD for p in sig.parameters.values()):
            return ""
        want = [p.name for p in ps]
        required = {p.name for p in ps if p.default is p.empty}
    missing = sorted(required - got)
    unknown = sorted(got - set(want))
    if not missing and not unknown:
        return _accepts_msg(fn, got_inputs)
    return (f"the inputs do not match the parameters of {oracle.name}: it takes ({', '.join(want)}); the check "
            f"gives inputs ({', '.join(map(repr, got_inputs))})" + (f" and fixed ({', '.join(map(repr, got_fixed))})"
                                                                    if got_fixed else "")
            + (f"; missing: {', '.join(missing)}" if missing else "")
            + (f"; not parameters of the reference: {', '.join(map(repr, unknown))}" if unknown else ""))


def _accepts_msg(fn: Any, names: Sequence[str]) -> str:
    why = _accepts(fn, names)
    return f"the check's inputs are ({', '.join(map(repr, names))}); {why}" if why else ""


def _raised(e: BaseException, what: str) -> tuple[str, str] | None:
    """(verdict, detail) for an exception of the implementation: ``adapter-error`` when our wrapper raised it,
    ``error`` when the implementation did; None for a wrapper's declared domain limit (then :class:`Limited` is
    raised: the point is skipped and counted apart)."""
    where = raised_by(e)
    if where == "limit":
        raise Limited(_exc(e))
    if where == "adapter":
        return "adapter-error", f"our wrapper raised {_exc(e)} {what} (an adapter defect, not the implementation's)"
    return "error", f"raised {_exc(e)} {what}"


def _as_float(v: Any) -> Any:
    if isinstance(v, float):
        return v
    if isinstance(v, (int, np.integer, np.floating)) and not isinstance(v, bool):
        return float(v)
    return v


def _exc(e: BaseException) -> str:
    return f"{type(e).__name__}: {str(e)[:200]}"


def _guard(e: BaseException) -> None:
    """Re-raise what must never be judged as the implementation's answer (an interrupt, our own search signals)."""
    if isinstance(e, (KeyboardInterrupt, Unjudged, Limited)) or type(e).__name__ in ("_Found", "StopTest"):
        raise e


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
                     max_examples: int | None = None, against: str = "truth") -> CheckResult:
    """Search ``fn(**inputs) -> float`` against ``reference`` over the whole declared domain.

    ``reference``: a registry id (its value at the inputs plus ``fixed``) or a certified callable
    ``(**inputs) -> dpbounds.Enclosure``; the names of ``inputs`` and ``fixed`` must be its parameters, all of
    them (else the result is an ``error`` naming the parameters expected and received).  ``inputs``: name ->
    ``(lo, hi)`` (searched whole, log-scale where lo > 0; integer ends: integers) or a list of values.
    ``claim``: ``"upper"`` (smaller claims more privacy) or ``"lower"`` (a budget, a type-II error: larger claims
    more privacy).  ``examples``: points run first (pinned regressions, grid points).  ``max_examples``: the budget
    of judged examples (default :data:`dpbounds.testing.engine.DEFAULT_EXAMPLES`); ``seconds``: a cap only --
    when it expires first the verdict is ``incomplete``.  ``against``: ``"truth"`` (the reference is the true
    guarantee: below it the claim is false, ``unsound``) or ``"cited"`` (the formula the implementation cites:
    below it is a ``formula-departure``).  Points outside the reference's domain are skipped
    (``CheckResult.skipped``) and do not count toward the budget."""
    from dpbounds.testing import strategies as S
    budget = check_run_args(seconds, max_examples, seed, "check_conversion")
    _require_callable(fn, "fn", "check_conversion")
    if against not in ("truth", "cited"):
        raise DomainError("against", against, "'truth' or 'cited'", "check_conversion")
    _check_inputs(inputs, "check_conversion")
    oracle = Oracle(reference, fixed, claim, "formula" if against == "cited" else "truth")
    why = _names_mismatch(oracle, fn, inputs, oracle.fixed)
    if why:
        return _error_result("conversion", fn, oracle.name, claim, seed, budget, why)
    strategy = S.points(inputs, breakpoints_of(reference, list(inputs)))
    sure = [False]

    def evaluate(x: Mapping[str, Any]) -> Outcome | None:
        point = dict(x)  # an example may give exact decimals: the reference reads them exactly, fn gets floats
        try:
            v = _as_float(engine.guarded(lambda: fn(**peer_args(point))))
        except BaseException as e:  # noqa: BLE001 - the implementation's failure is a finding, if the point is valid
            _guard(e)
            verdict, detail = _raised(e, "on a valid input")  # (Limited for a wrapper's declared domain limit)
            try:
                if oracle.fast(point) is None:
                    oracle.enclosure(point)
            except (DomainError, Undecided):
                return None
            return Outcome(verdict, math.nan, detail=detail, peer_value=_exc(e))
        try:
            r = oracle.verdict(point, v, sure_enough=sure[0])
        except (DomainError, Undecided):
            return None
        if r.verdict in ("conservative", "unsound", "unsound-rounding", "formula-departure"):
            sure[0] = True
        return r

    def finish(x: Mapping[str, Any], out: Outcome) -> str:
        """Certify the witness (its enclosure and the full judgement) and write its reproducer."""
        point = dict(x)
        if out.verdict not in ("error", "adapter-error"):
            try:
                enc, j = oracle.certified(point, out.peer_value)
                out.enclosure, out.judgement, out.detail = enc, j, j.detail
            except (DomainError, Undecided):
                pass
        return _conversion_reproducer(fn, reference, point, oracle.fixed, claim, out.verdict, out.peer_value,
                                      out.enclosure, out.detail)

    from dpbounds.testing.domains import Grid
    shared = [n for n, v in inputs.items() if isinstance(v, Grid)]
    return engine.run_check("conversion", _name(fn), oracle.name, claim, oracle.role, strategy, evaluate, finish,
                            seconds=seconds, seed=seed, budget=budget, examples=[dict(e) for e in examples],
                            shared=shared)


def _conversion_reproducer(fn: Any, reference: Any, point: dict[str, Any], fixed: dict[str, Any], claim: str,
                           verdict: str, peer_value: Any, enclosure: Enclosure | None, detail: str) -> str:
    """Runnable Python showing the implementation's value at ``point`` beside the certified reference, headed by the
    verdict and why."""
    setup, ref = _ref_src(reference)
    args = ", ".join(f"{k}={v!r}" for k, v in peer_args(point).items())
    allargs = {**{k: (str(v) if not isinstance(v, (int, float)) else v) for k, v in fixed.items()}, **point}
    what = ""
    if isinstance(reference, str) and claim == "upper" and isinstance(peer_value, float) and peer_value < 0:
        from dpbounds.spec import get
        if "unclipped" in get(reference).extra:  # a negative eps: judged against the raw expression (Oracle.certified)
            what = ", what='extra.unclipped'"
    enc = enclosure
    if isinstance(reference, str) and not what:
        from dpbounds.spec import get
        if get(reference).evaluator:  # an opaque evaluator may refuse enclose's default width: ask for the one judged
            w = enc.rel_width() if enc is not None and not enc.pos_inf else 1e-3
            if w > 1e-30:
                what = f", rel_tol={_width_down(w):.2g}"
    call = (f"print(dpbounds.enclose({ref}, {allargs!r}{what}))" if isinstance(reference, str)
            else f"print({ref}(**{allargs!r}))")
    expect = ""
    if enc is not None and not enc.pos_inf:
        want = f">= {enc.lower()!r} (the float below the certified lower end)" if claim == "upper" else \
            f"<= {enc.upper()!r} (the float above the certified upper end)"
        expect = f"# {verdict}: the implementation returned {short_repr(peer_value)}; a sound value is {want}\n"
    return (f"# dpbounds.testing witness ({verdict}): {detail}\n"
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


def _check_stream_args(costs: Any, max_rounds: Any, budget: Any, against: str, where: str) -> None:
    if isinstance(costs, str) or not isinstance(costs, (tuple, list)) or not costs or \
            not all(isinstance(c, str) and c.isidentifier() for c in costs):
        raise DomainError("costs", costs, "a non-empty tuple of cost names, e.g. ('eps',)", where)
    if max_rounds is not None and (isinstance(max_rounds, bool) or not isinstance(max_rounds, int)
                                   or max_rounds < 1):
        raise DomainError("max_rounds", max_rounds, "a positive integer or None", where)
    if not isinstance(budget, Mapping):
        raise DomainError("budget", budget, "a mapping of the reference's parameters", where)
    if against not in ("truth", "cited"):
        raise DomainError("against", against, "'truth' or 'cited'", where)


def _with_budget(make: Any, budget: Mapping[str, Any]) -> Callable[[], Any]:
    """``make`` as a no-argument factory: ``make(**budget)`` (floats, as its users pass them) when its signature
    takes the budget's names, else ``make`` itself."""
    import inspect
    if not budget or not callable(make):
        return make
    try:
        inspect.signature(make).bind(**{k: 0.0 for k in budget})
    except (TypeError, ValueError):
        return make
    args = {k: (float(Fraction(str(v))) if not isinstance(v, (int, float)) or isinstance(v, bool) else v)
            for k, v in budget.items()}

    def made() -> Any:
        return make(**args)
    made.__qualname__ = made.__name__ = getattr(make, "__qualname__", "make")
    made.__module__ = getattr(make, "__module__", "?")
    made.budget_args = args  # type: ignore[attr-defined]  (the reproducer passes them too)
    made.wrapped = make  # type: ignore[attr-defined]
    return made


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
                 max_rounds: int | None = None, against: str = "truth") -> CheckResult:
    """Search the streams a caller can feed ``make`` (a fresh filter whose ``try_spend(**costs)`` is truthy
    when the round may run; only the names in ``costs`` are passed) against the reference filter
    (``make_filter(reference, **budget)``, or ``reference(**budget)`` for a callable).  ``make`` gets the budget:
    ``make(**budget)`` (as float64, e.g. ``MyFilter(eps_g=1.0)``) when its signature takes those names, else
    ``make()`` -- then its own default budget must be ``budget``.  Judged round by round (module docstring):
    continuing where the reference halts is unsound (a ``formula-departure`` with ``against="cited"``), halting
    where it continues conservative.  ``examples``: streams (lists of per-round cost dicts) run first;
    ``max_examples``: the budget of streams judged, ``seconds`` a cap (``incomplete`` when it expires first)."""
    from dpbounds.testing import strategies as S
    n_budget = check_run_args(seconds, max_examples, seed, "check_filter")
    _require_callable(make, "make", "check_filter")
    _check_stream_args(costs, max_rounds, budget, against, "check_filter")
    make = _with_budget(make, budget)
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
        except BaseException as e:  # noqa: BLE001
            _guard(e)
            verdict, detail = _raised(e, "in make()")
            return Outcome(verdict, math.nan, detail=detail, peer_value=_exc(e), witness={"stream": [], "round": 0})
        h, err = n, None
        if hasattr(peer, "try_spend_stream"):  # a peer in another interpreter: the whole stream in one batch
            try:
                ds = peer.try_spend_stream([{c: float(arrays[c][i]) for c in costs} for i in range(n)])
                h = next((i for i, d in enumerate(ds) if not d), min(len(ds), n))
            except BaseException as e:  # noqa: BLE001
                _guard(e)
                h, err = 0, e
        else:
            for i in range(n):
                try:
                    if not engine.guarded(lambda: peer.try_spend(**{c: float(arrays[c][i]) for c in costs})):
                        h = i
                        break
                except BaseException as e:  # noqa: BLE001
                    _guard(e)
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
            return Outcome("unsound-rounding" if rounding else ("formula-departure" if against == "cited"
                                                                 else "unsound"),
                           -max(extra / (k + 1), 1e-300) if rounding else -extra / (k + 1) - 1,
                           peer_value="CONT", decision="HALT", witness=w,
                           detail=f"continues at round {k + 1} where {ref_name} halts ({why}; it goes on for "
                                  f"{extra} round(s) past it in this stream)")
        if h == n:
            return Outcome("exact", 0.0, peer_value="CONT", decision="CONT", witness={"stream": rounds, "round": n},
                           detail="the same decisions over the whole stream")
        w = {"stream": rounds[:h + 1], "round": h + 1}
        if err is not None:
            verdict, detail = _raised(err, f"in try_spend at round {h + 1}")
            return Outcome(verdict, math.nan, peer_value=_exc(err), decision="CONT" if k > h else "HALT",
                           witness=w, detail=detail)
        if k > h:
            return Outcome("conservative", 1.0 / (h + 1), peer_value="HALT", decision="CONT", witness=w,
                           detail=f"halts at round {h + 1} where {ref_name} continues")
        return Outcome("exact", 0.0, peer_value="HALT", decision="HALT", witness=w,
                       detail="halts where the reference halts")

    def finish(stream: Any, out: Outcome) -> str:
        return _filter_reproducer(make, reference, budget, costs, out)

    return engine.run_check("filter", _name(make), ref_name, "upper", "formula" if against == "cited" else "truth",
                            strategy, evaluate, finish, seconds=seconds, seed=seed, budget=n_budget,
                            examples=[[dict(r) for r in e] for e in examples])


def _kwargs(make: Any) -> str:
    """The budget keyword arguments the check passed to ``make`` (see :func:`_with_budget`), as Python source."""
    return ", ".join(f"{k}={v!r}" for k, v in (getattr(make, "budget_args", None) or {}).items())


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
            f"mine, {mk.split(' = ', 1)[0]} = make({_kwargs(make)}), {mk.split(' = ', 1)[1]}\n"
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
                   budget: Mapping[str, Any] | None = None, against: str = "truth") -> CheckResult:
    """Search the streams a caller can feed ``make()`` (a fresh odometer whose ``step(**costs)`` returns its
    running value, or whose ``value()`` does) against the reference odometer (``make_odometer(reference,
    **params)`` or ``reference(**params)``): a running value below the reference's certified value at any round is
    unsound.  The witness is ``{"stream": [...], "round": i}`` (the worst round).  ``budget=`` is accepted for
    ``params`` (as in a :class:`~dpbounds.testing.Declaration`)."""
    from dpbounds.testing import strategies as S
    n_budget = check_run_args(seconds, max_examples, seed, "check_odometer")
    _require_callable(make, "make", "check_odometer")
    params = dict(params if params is not None else (budget or {}))
    _check_stream_args(costs, max_rounds, params, against, "check_odometer")
    make = _with_budget(make, params)
    new_ref = _odometer_reference(reference, params)
    scales = {c: 1.0 for c in costs}
    strategy = S.streams(list(costs), scales, max_rounds, 4)
    ref_name = reference if isinstance(reference, str) else _name(reference)
    desc = f"{ref_name} (the reference odometer's running value)"
    sure = [False]

    def judge(peer: Any, enc: Enclosure) -> Any:
        return judge_enclosure(peer, enc, "upper", ref_name, desc, "formula" if against == "cited" else "truth")

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
        except BaseException as e:  # noqa: BLE001
            _guard(e)
            verdict, detail = _raised(e, "in make()")
            return Outcome(verdict, math.nan, detail=detail, peer_value=_exc(e), witness={"stream": [], "round": 0})
        worst: Outcome | None = None
        for i, (r, (iv, enc)) in enumerate(zip(rounds, refs)):
            try:
                v = _as_float(engine.guarded(lambda: _stepped(peer, r)))
            except BaseException as e:  # noqa: BLE001
                _guard(e)
                verdict, detail = _raised(e, f"in step at round {i + 1}")
                return Outcome(verdict, math.nan, peer_value=_exc(e), witness={"stream": rounds[:i + 1],
                                                                                "round": i + 1}, detail=detail)
            try:
                res = classify("upper", v, iv, enc, judge, sure_enough=sure[0],
                               role="formula" if against == "cited" else "truth")
            except Undecided:
                continue
            if res.verdict in ("conservative", "unsound", "unsound-rounding", "formula-departure"):
                sure[0] = True
            # the stream's outcome is its worst round: the most severe verdict, then the smallest margin (the first
            # of equals); among exact rounds (margins within rounding: noise) the last, so that an all-exact stream
            # shows its final value
            if worst is None or (engine.severity(res.verdict), res.margin) < (
                    engine.severity(worst.verdict), worst.margin) or (
                    res.verdict == worst.verdict == "exact"):
                res.witness = {"stream": rounds[:i + 1], "round": i + 1}
                worst = res
        return worst

    def finish(stream: Any, out: Outcome) -> str:
        w = out.witness
        if out.verdict not in ("error", "adapter-error") and w and w["round"]:
            try:
                enc = _odometer_values(new_ref(), w["stream"])[-1][1]()
                j = judge(out.peer_value, enc)
                out.enclosure, out.judgement, out.detail = enc, j, j.detail
            except (DomainError, Undecided):
                pass
        return _odometer_reproducer(make, reference, params, out)

    # a pass names its numbers too: the peer's value and the certified enclosure at the worst round (when that round
    # carries the verdict), so that a consumer (the audit's rejudge) recomputes the verdict from them
    return engine.run_check("odometer", _name(make), ref_name, "upper", "formula" if against == "cited" else "truth",
                            strategy, evaluate, finish, seconds=seconds, seed=seed, budget=n_budget,
                            examples=[[dict(r) for r in e] for e in examples], certify_pass=True)


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
            f"mine, ref = make({_kwargs(make)}), {mk}\n"
            "for i, costs in enumerate(stream, 1):\n"
            "    v = mine.step(**costs)\n"
            "    ref.step(**costs)\n"
            "    print(i, 'implementation:', v, ' reference:', ref.value())\n"
            f"{tail}")

