"""`dpbounds bench`: throughput numbers (printed, never asserted in tests).

Each benchmark is a function returning a dict row; a benchmark whose component is missing reports 'skipped'.
"""

from __future__ import annotations

import time
from typing import Callable

import numpy as np


def _timeit(fn: Callable[[], int], min_time: float = 0.3) -> tuple[float, int]:
    """(seconds per call, calls) with at least ``min_time`` seconds in total; fn returns the work count."""
    n = 0
    work = 0
    t0 = time.perf_counter()
    while True:
        work += fn()
        n += 1
        dt = time.perf_counter() - t0
        if dt >= min_time:
            return dt, work


def bench_fast_path(quick: bool) -> list[dict]:
    import spec
    from spec.core import Kind

    from .evaluate import fast_interval
    rows = []
    size = 100_000 if quick else 1_000_000
    rng = np.random.default_rng(0)
    for e in spec.registry().values():
        if e.kind is Kind.AGGREGATE or e.optimize is not None or e.expr.is_Boolean:
            continue
        pt = e.sample_point()
        arrays = {}
        for k, v in pt.items():
            base = float(v)
            if k in ("n", "k", "l"):
                arrays[k] = base
            elif k in e.aggregates:
                arrays[k] = base * rng.uniform(0.5, 1.5, size)
            else:
                arrays[k] = base
        try:
            fast_interval(e.id, **{k: (v[:10] if isinstance(v, np.ndarray) else v) for k, v in arrays.items()})
        except Exception as exc:  # noqa: BLE001 - report, don't crash the benchmark
            rows.append({"bench": "fast path", "id": e.id, "rate": None, "note": f"skipped: {exc}"[:80]})
            continue
        if not any(isinstance(v, np.ndarray) for v in arrays.values()):
            arrays[next(iter(arrays))] = np.full(size, float(next(iter(arrays.values()))))
        dt, work = _timeit(lambda: (fast_interval(e.id, check_domain=False, **arrays), size)[1])
        rows.append({"bench": "fast path (float64 intervals)", "id": e.id, "rate": work / dt, "unit": "evals/s"})
    return rows


def bench_certified(quick: bool) -> list[dict]:
    import spec
    from spec.core import Kind

    from .evaluate import enclose_inputs, prepare
    rows = []
    for e in spec.registry().values():
        if e.kind is Kind.AGGREGATE or e.optimize is not None or e.expr.is_Boolean:
            continue
        pt = e.sample_point()
        params = {k: v for k, v in pt.items() if k in e.params}
        aggs = {k: v for k, v in pt.items() if k in e.aggregates}
        try:
            inp = prepare(e, params, aggregates=aggs)
            enclose_inputs(e, inp, rel_tol=1e-50)
        except Exception as exc:  # noqa: BLE001
            rows.append({"bench": "certified 50 digits", "id": e.id, "rate": None, "note": f"skipped: {exc}"[:80]})
            continue
        dt, work = _timeit(lambda: (enclose_inputs(e, inp, rel_tol=1e-50, start_bits=200), 1)[1], 0.2)
        rows.append({"bench": "certified 50 digits", "id": e.id, "rate": work / dt, "unit": "evals/s"})
    return rows


BENCHES: list[tuple[str, Callable[[bool], list[dict]]]] = [
    ("fast path", bench_fast_path),
    ("certified", bench_certified),
]


def register(name: str, fn: Callable[[bool], list[dict]]) -> None:
    """Other modules add their benchmarks here (filters, B*, exact engine, peers)."""
    BENCHES.append((name, fn))


def run_benchmarks(quick: bool = False, only: list[str] | None = None) -> list[dict]:
    import importlib
    for mod in ("reference.accountants", "reference.individual", "reference.conversions", "reference.exact",
                "reference.audit.bench"):
        try:
            m = importlib.import_module(mod)
        except ImportError:
            continue
        for name, fn in getattr(m, "BENCHMARKS", []):
            if name not in [b[0] for b in BENCHES]:
                BENCHES.append((name, fn))
    rows = []
    for name, fn in BENCHES:
        if only and name not in only:
            continue
        try:
            rows.extend(fn(quick))
        except Exception as exc:  # noqa: BLE001
            rows.append({"bench": name, "id": "", "rate": None, "note": f"failed: {type(exc).__name__}: {exc}"[:120]})
    return rows
