"""Hypothesis strategies over an accountant's whole input domain (the ones :mod:`dpbounds.testing` searches with).

* :func:`values` -- one input over an interval ``(lo, hi)`` or a list: boundaries and their float neighbours,
  subnormals, near-overflow, powers of two, short decimals (0.1, 3e-7: the values users type), the reference's
  regime changes, then log-uniform (where ``lo > 0``) and uniform floats.  Integer ends give integers.
* :func:`points` -- a dict of such inputs (a whole call).  Inputs given as a :class:`Grid` are drawn from their
  values, except in a seeded minority of points (the grid's ``share``) where all of them are drawn together from
  their continuous spans: a search that mostly reuses what the reference computed for a grid point still reaches
  every corner of the domain.
* :func:`costs` -- one per-round cost relative to a budget scale: 0, the scale itself, scale/k (float quotients
  whose float sum differs from the exact sum), short decimals, subnormals, log-uniform tiny to above the budget.
* :func:`streams` -- per-round cost streams for filters and odometers, as segments ``(costs, repeat)``: every
  shape a caller can produce -- empty, one round, homogeneous and very long, mixed, rounds of cost 0, a repeat
  count that lands the running exact sum on the budget (and one round past it), a last round that closes the
  budget exactly or to the nearest float, delta-side and rho-side costs, underflow.

Strategies shrink toward the start of each ``one_of``: boundaries and simple decimals first, so a shrunk
witness reads like an input a person would type.
"""

from __future__ import annotations

import contextlib
import functools
import math
import threading
from fractions import Fraction
from typing import Any, Iterator, Mapping, Sequence

from hypothesis import strategies as st

from dpbounds.testing.domains import Batch, Grid

_ISOLATION = threading.Lock()
_isolated = [0, None]  # [runs under way, hypothesis' own _get_local_constants]


@contextlib.contextmanager
def isolated_generation() -> Iterator[None]:
    """Hypothesis runs whose draws depend on the seed alone: same seed, same points, whatever else the process
    imported.  Hypothesis (6.131 and later, PR HypothesisWorks/hypothesis#4356) also draws literal constants
    found in the *local* modules loaded in the process (any module outside site-packages and the standard library:
    the user's code, a test file, an editable install), so the points a seed gives changed with the process'
    history -- an audit's laws check drew 264 points in a fresh process and 283 after importing one more local
    module of dpbounds.  Inside this context the local constants are empty (hypothesis' global constants remain);
    without that hook (another hypothesis version) it does nothing."""
    try:
        from hypothesis.internal.conjecture import providers as P
        P._get_local_constants, P.CONSTANTS_CACHE.cache, P.Constants  # noqa: B018 - the hooks this relies on
    except (ImportError, AttributeError):
        yield
        return
    with _ISOLATION:
        if _isolated[0] == 0:
            _isolated[1] = P._get_local_constants
            empty = P.Constants()
            P._get_local_constants = lambda: empty
            P.CONSTANTS_CACHE.cache.clear()  # allowed constants computed with local ones before
        _isolated[0] += 1
    try:
        yield
    finally:
        with _ISOLATION:
            _isolated[0] -= 1
            if _isolated[0] == 0:
                P._get_local_constants = _isolated[1]
                P.CONSTANTS_CACHE.cache.clear()

#: the smallest positive subnormal, the smallest normal and the largest finite float64
TINY, MIN_NORMAL, HUGE = 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308
#: the longest stream :func:`streams` builds (rounds)
MAX_ROUNDS = 1 << 15

Segment = tuple[tuple[tuple[str, float], ...], int]


def _in(x: float, lo: float, hi: float) -> bool:
    return lo <= x <= hi


def _specials(lo: float, hi: float, breakpoints: Sequence[float] = ()) -> list[float]:
    """Boundary and structural values inside [lo, hi], simplest first."""
    out: list[float] = [lo, hi]
    for b in breakpoints:
        out += [b, math.nextafter(b, -math.inf), math.nextafter(b, math.inf)]
    out += [1.0, 0.5, 2.0, 0.1, 0.01, 1e-6, 10.0, 100.0]
    out += [math.nextafter(lo, math.inf), math.nextafter(hi, -math.inf), TINY, 2 * TINY, MIN_NORMAL,
            math.nextafter(MIN_NORMAL, -math.inf), HUGE, 1e300, 1e-300, 2.0 ** -1022, 2.0 ** 1023]
    if lo > 0 and math.isfinite(hi):
        a, b = math.ceil(math.log2(lo)), math.floor(math.log2(hi))
        for e in sorted({a, b, (a + b) // 2, a + 1, b - 1}):
            if -1074 <= e <= 1023:
                out.append(2.0 ** e)
    seen: list[float] = []
    for x in out:
        if math.isfinite(x) and _in(x, lo, hi) and x not in seen:
            seen.append(x)
    return seen


def _clamp(x: float, lo: float, hi: float) -> float:
    return min(max(x, lo), hi)


def values(domain: tuple[Any, Any] | Sequence[Any], breakpoints: Sequence[float] = ()) -> st.SearchStrategy[Any]:
    """One input: ``(lo, hi)`` searched whole (log-scale where lo > 0; integers when both ends are ints), or a list
    of values (sampled).  ``breakpoints``: values where the reference changes regime (tried with neighbours)."""
    if isinstance(domain, tuple) and len(domain) == 2 and all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                                              for x in domain):
        lo, hi = domain
        if isinstance(lo, int) and isinstance(hi, int):
            return _integers(lo, hi, breakpoints)
        lo, hi = float(lo), float(hi)
        if not lo <= hi:
            raise ValueError(f"an empty interval ({lo}, {hi})")
        top = min(hi, HUGE)
        parts: list[st.SearchStrategy[float]] = [st.sampled_from(_specials(lo, top, breakpoints) or [lo])]
        if top > 0:  # short decimals k e j, the exponents j that can land in [lo, top] (a filter keeps the ends)
            j_lo = max(-320, math.floor(math.log10(lo)) - 2) if lo > 0 else -320
            j_hi = min(308, math.floor(math.log10(top)))
            dec = st.builds(lambda k, j: float(f"{k}e{j}"), st.integers(1, 99), st.integers(min(j_lo, j_hi), j_hi))
            parts.append(dec.filter(lambda x: _in(x, lo, top)))
        if lo > 0:
            a, b = math.log2(lo), math.log2(top)
            parts.append(st.floats(a, b).map(lambda e: _clamp(2.0 ** e if e < 1024 else HUGE, lo, top)))
        elif top > 0:
            parts.append(st.floats(-1074.0, math.log2(top)).map(lambda e: _clamp(2.0 ** e, lo, top)))
        parts.append(st.floats(lo, top, allow_nan=False, allow_infinity=False))
        return st.one_of(parts)
    vals = list(domain)
    if not vals:
        raise ValueError("an empty list of values")
    return st.sampled_from(vals)


def _integers(lo: int, hi: int, breakpoints: Sequence[float]) -> st.SearchStrategy[int]:
    spec = [v for v in [lo, hi, lo + 1, hi - 1, *[int(b) for b in breakpoints if math.isfinite(b)],
                        *[1 << k for k in range(0, 64)], 10, 100, 1000] if lo <= v <= hi]
    parts: list[st.SearchStrategy[int]] = [st.sampled_from(list(dict.fromkeys(spec)))]
    parts.append(st.integers(lo, min(hi, lo + 32)))
    if lo >= 1 and hi > lo:
        parts.append(st.floats(0.0, math.log2(hi / lo)).map(lambda e: max(lo, min(hi, int(lo * 2.0 ** e)))))
    parts.append(st.integers(lo, hi))
    return st.one_of(parts)


def points(inputs: Mapping[str, Any], breakpoints: Mapping[str, Sequence[float]] | None = None,
           batched: bool = True) -> st.SearchStrategy[Any]:
    """A whole call: one value per input name (see :func:`values`); with :class:`Grid` inputs, one point in
    ``round(1 / share)`` (the smallest share among them) off the grid: every Grid input from its span.  The draw
    that decides it shrinks toward the grid.  With a Grid's ``batch`` above 1 (the largest applies) a draw is a
    :class:`~dpbounds.testing.domains.Batch` of that many points sharing the Grid inputs' values (on the grid or
    off it together), the other inputs drawn for each point; ``batched=False``: one point per draw whatever the
    Grids say (a laws check compares single points)."""
    bps = breakpoints or {}
    grids = [v for v in inputs.values() if isinstance(v, Grid)]
    batch = max((g.batch for g in grids), default=1) if batched else 1
    shared = [k for k, v in inputs.items() if isinstance(v, Grid)] if batch > 1 else list(inputs)
    on = st.fixed_dictionaries({k: values(inputs[k], bps.get(k, ())) for k in shared})
    if not grids:
        return on
    off = st.fixed_dictionaries({k: values(inputs[k].span if isinstance(inputs[k], Grid) else inputs[k],
                                           bps.get(k, ())) for k in shared})
    n = max(2, round(1 / min(g.share for g in grids)))
    head = st.integers(0, n - 1).flatmap(lambda c: off if c == n - 1 else on)
    if batch == 1:
        return head
    names = list(inputs)
    free = st.fixed_dictionaries({k: values(v, bps.get(k, ())) for k, v in inputs.items() if k not in shared})

    def together(h: dict[str, Any], rest: list[dict[str, Any]]) -> Batch:
        return Batch({k: {**h, **r}[k] for k in names} for r in rest)
    return st.builds(together, head, st.lists(free, min_size=batch, max_size=batch))


@functools.lru_cache(maxsize=256)
def costs(scale: float) -> st.SearchStrategy[float]:
    """One per-round cost for a budget of size ``scale`` (> 0)."""
    s = float(scale)
    simple = [0.0, s, s / 2, s / 4, s / 10, s / 3, s / 50, s / 100, s / 1000, TINY, MIN_NORMAL]
    return st.one_of(
        st.sampled_from([x for x in simple if math.isfinite(x)]),
        st.integers(1, 4096).map(lambda k: s / k),                                    # float quotients
        st.builds(lambda k, j: float(f"{k}e{j}") * s, st.integers(1, 99), st.integers(-6, 0)),  # short decimals
        st.floats(-40.0, 1.5).map(lambda e: s * 2.0 ** e),                            # log-uniform
        st.floats(0.0, 2 * s, allow_nan=False, allow_infinity=False),
    )


_HOW = st.sampled_from(["mixed", "tie", "close", "long", "zeros"])
_TIE_OFFSET = st.sampled_from([0, 1, -1, 2])


@st.composite
def streams(draw: Any, names: Sequence[str], scales: Mapping[str, float], max_rounds: int = MAX_ROUNDS,
            max_segments: int = 6) -> list[Segment]:
    """A stream of rounds as segments ``((name, cost), ...), repeat)``; every round carries every name in
    ``names`` (0 where a segment does not spend it).  The running exact sum per name is tracked so that a repeat
    count can land the sum on its scale (the budget) or one round past it, and a closing round can hit the
    remaining budget exactly (or its float neighbours)."""
    names = list(names)
    remaining = {n: Fraction(scales.get(n, 1.0)) for n in names}
    out: list[Segment] = []
    total = 0
    for _ in range(draw(st.integers(0, max_segments))):
        if total >= max_rounds:
            break
        main = draw(st.sampled_from(names))
        how = draw(_HOW)
        row = {n: 0.0 for n in names}
        if how == "close":  # one round that closes the remaining budget of `main` (exactly when representable)
            r = max(remaining[main], Fraction(0))
            x = float(r)
            row[main] = draw(st.sampled_from([x, math.nextafter(x, math.inf), math.nextafter(x, 0.0)]))
            count = 1
        elif how == "zeros":
            count = draw(st.integers(1, 50))
        else:
            for n in names:
                if n == main or draw(st.booleans()):
                    row[n] = draw(costs(float(scales.get(n, 1.0))))
            c = Fraction(row[main])
            if how == "tie" and c > 0 and remaining[main] > 0:
                count = int(remaining[main] / c) + draw(_TIE_OFFSET)
            elif how == "long":  # log-uniform length: long streams often, very long ones sometimes
                count = int(2.0 ** draw(st.floats(0.0, math.log2(max_rounds))))
            else:
                count = draw(st.integers(1, 12))
        count = max(1, min(count, max_rounds - total))
        for n in names:
            remaining[n] -= Fraction(row[n]) * count
        total += count
        out.append((tuple(sorted(row.items())), count))
    return out


def expand(stream: Sequence[Segment], limit: int | None = None) -> list[dict[str, float]]:
    """The rounds of a segment stream (the first ``limit``), one dict of costs per round."""
    out: list[dict[str, float]] = []
    for row, count in stream:
        d = dict(row)
        for _ in range(count if limit is None else min(count, limit - len(out))):
            out.append(dict(d))
        if limit is not None and len(out) >= limit:
            break
    return out


def stream_length(stream: Sequence[Segment]) -> int:
    return sum(c for _, c in stream)
