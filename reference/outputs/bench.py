"""`dpbounds bench`: throughput numbers (printed, never asserted in tests).

Each benchmark is a function returning a dict row; a benchmark whose component is missing reports 'skipped'.
"""

from __future__ import annotations

import time
from typing import Callable

import numpy as np
from dpbounds import spec
from dpbounds.evaluation.evaluate import enclose_inputs, fast_interval, prepare
from dpbounds.spec.core import Kind


def _best_rate(fn: Callable[[], object], work: int, repeats: int) -> float:
    """Evaluations per second of the best of ``repeats`` timed calls (after one warm-up call)."""
    fn()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return work / best


def _class_of(expr) -> str:
    """'closed form', 'special function' (erfc: certified table + per-element arb where the float64 enclosure
    is loose), 'exact sum' (not a closed form: certified per element) or 'implicit function' (a spec function with
    its own certified evaluator, e.g. the subsampled Gaussian's quadrature: per element in arb)."""
    import sympy as sp
    if any(getattr(type(f), "dpbounds_eval", None) for f in expr.atoms(sp.Function)):
        return "implicit function"  # its own certified evaluator (quadrature, a root): per element in arb
    if expr.has(sp.Sum):
        return "exact sum"
    if expr.has(sp.erfc, sp.erf, sp.zeta):
        return "special function"
    return "closed form"


def _bench_entries(quick: bool = False):
    """The entries benchmarked: every bound, or with ``quick`` one per expression class (the classes' rates are
    what --quick is for: a look in seconds, not a table of every entry)."""
    entries = [e for e in spec.registry().values()
               if e.kind is not Kind.AGGREGATE and e.optimize is None and not e.expr.is_Boolean and not e.evaluator]
    if not quick:
        return entries
    seen, out = set(), []
    for e in entries:
        c = _class_of(e.expr)
        if c not in seen:
            seen.add(c)
            out.append(e)
    return out


def bench_fast_path(quick: bool) -> list[dict]:
    """float64 interval fast path on arrays: 10^6 points (10^4 with --quick, one entry per expression class; 10^3
    for exact sums, which are evaluated per element), the aggregates (or, without aggregates, the first parameter)
    varying by +-50% around the entry's sample point; best of 3 calls (1 with --quick), domain checks off (they are
    timed apart)."""
    rows = []
    rng = np.random.default_rng(0)
    for e in _bench_entries(quick):
        cls = _class_of(e.expr)
        size = 1_000 if cls == "exact sum" else 20 if cls == "implicit function" else \
            (10_000 if quick else 1_000_000)
        pt = e.sample_point()
        arrays: dict = {}
        for k, v in pt.items():
            base = float(v)
            if k in e.aggregates:
                arrays[k] = base * rng.uniform(0.5, 1.5, size)
            else:
                arrays[k] = base
        if not any(isinstance(v, np.ndarray) for v in arrays.values()):
            k0 = next((k for k in sorted(arrays) if k not in ("n", "k", "l")), None)
            if k0 is not None:
                arrays[k0] = arrays[k0] * rng.uniform(0.5, 1.5, size)
        try:
            fast_interval(e.id, **{k: (v[:10] if isinstance(v, np.ndarray) else v) for k, v in arrays.items()})
        except Exception as exc:  # noqa: BLE001 - report, don't crash the benchmark
            rows.append({"bench": "fast path", "id": e.id, "rate": None, "note": f"skipped: {exc}"[:80]})
            continue
        rate = _best_rate(lambda: fast_interval(e.id, check_domain=False, **arrays), size, 1 if quick else 3)
        rows.append({"bench": "fast path (float64 intervals)", "id": e.id, "rate": rate, "unit": "evals/s",
                     "note": f"{cls}, arrays of {size:.0e}"})
    return rows


def bench_certified(quick: bool) -> list[dict]:
    """Certified enclosures to 50 significant digits (rel_tol 1e-50, from 200 bits) at the sample point (with
    --quick: one entry per expression class, about 0.02 s each)."""
    rows = []
    for e in _bench_entries(quick):
        pt = e.sample_point()
        params = {k: v for k, v in pt.items() if k in e.params}
        aggs = {k: v for k, v in pt.items() if k in e.aggregates}
        try:
            inp = prepare(e, params, aggregates=aggs)
            enclose_inputs(e, inp, rel_tol=1e-50)
        except Exception as exc:  # noqa: BLE001
            rows.append({"bench": "certified 50 digits", "id": e.id, "rate": None, "note": f"skipped: {exc}"[:80]})
            continue
        t0 = time.perf_counter()
        enclose_inputs(e, inp, rel_tol=1e-50)
        n = max(1, int((0.02 if quick else 0.2) / max(time.perf_counter() - t0, 1e-6)))  # ~0.2 s per timed call
        rate = _best_rate(lambda: [enclose_inputs(e, inp, rel_tol=1e-50) for _ in range(n)], n,
                          1 if quick else 3)
        rows.append({"bench": "certified 50 digits", "id": e.id, "rate": rate, "unit": "evals/s",
                     "note": _class_of(e.expr)})
    return rows


def _stream_run(cmd: list[str], n: int) -> tuple[float, int, int]:
    """(seconds, output lines, peak RSS in bytes) of `dpbounds CMD` fed n rounds of eps = 0.001 through a pipe
    (generated on the fly: the benchmark itself holds no rows either)."""
    import os
    import subprocess
    import sys
    import threading

    p = subprocess.Popen([sys.executable, "-m", "dpbounds", *cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL)

    def feed():
        try:
            p.stdin.write(b"eps\n")
            chunk = b"0.001\n" * 10_000
            left = n
            while left > 0:
                k = min(left, 10_000)
                p.stdin.write(chunk if k == 10_000 else b"0.001\n" * k)
                left -= k
            p.stdin.close()
        except BrokenPipeError:
            pass

    t0 = time.perf_counter()
    w = threading.Thread(target=feed, daemon=True)
    w.start()
    lines = 0
    while True:
        b = p.stdout.read(1 << 16)
        if not b:
            break
        lines += b.count(b"\n")
    _, status, ru = os.wait4(p.pid, 0)  # this child's own rusage (ru_maxrss in KiB on Linux)
    p.returncode = os.waitstatus_to_exitcode(status)
    dt = time.perf_counter() - t0
    w.join()
    return dt, lines, ru.ru_maxrss * 1024


def bench_streaming_memory(quick: bool) -> list[dict]:
    """Peak RSS of `dpbounds filter` (rruv16.thm3_4.filter, a budget never reached) and `dpbounds odometer`
    (rruv16.thm3_4.odometer) over 10^7 rounds and over 1/100 of that: equal peaks mean the commands stream in
    constant memory (rows are read and written one at a time).  --quick: the filter alone, 10^4 and 10^2 rounds (a
    smoke run: the interpreter's start dominates)."""
    rows = []
    n = 10**4 if quick else 10**7
    cmds = [["filter", "rruv16.thm3_4.filter", "--budget", "eps_g=1e300"], ["odometer", "rruv16.thm3_4.odometer"]]
    for cmd in cmds[:1] if quick else cmds:
        for m in (n // 100, n):
            dt, lines, peak = _stream_run(cmd, m)
            rows.append({"bench": "streaming memory", "id": f"{cmd[0]} {cmd[1]}", "rate": m / dt,
                         "unit": "rounds/s", "peak_rss_mib": round(peak / 2**20, 1),
                         "note": f"{m:.0e} rounds, {lines} output lines, peak RSS {peak / 2**20:.0f} MiB"})
    return rows


BENCHES: list[tuple[str, Callable[[bool], list[dict]]]] = [
    ("fast path", bench_fast_path),
    ("certified", bench_certified),
    ("streaming", bench_streaming_memory),
]


def register(name: str, fn: Callable[[bool], list[dict]]) -> None:
    """Other modules add their benchmarks here (filters, B*, exact engine, peers)."""
    BENCHES.append((name, fn))


def run_benchmarks(quick: bool = False, only: list[str] | None = None) -> list[dict]:
    import importlib
    for mod in ("dpbounds.accounting.accountants", "dpbounds.accounting.batch", "dpbounds.accounting.individual",
                "dpbounds.accounting.conversions", "dpbounds.exact.worst_case", "dpbounds.audit.bench",
                "dpbounds.outputs.compare", "dpbounds.testing.bench",
                "dpbounds.evaluation.sgm_pld"):
        try:
            m = importlib.import_module(mod)
        except ImportError:
            continue
        for name, fn in getattr(m, "BENCHMARKS", []):
            if name not in [b[0] for b in BENCHES]:
                BENCHES.append((name, fn))
    if only:
        known = [b[0] for b in BENCHES]
        for name in only:
            if name not in known:
                from dpbounds.spec import DomainError
                raise DomainError("only", name, f"one of {', '.join(known)}", "dpbounds bench", "unknown benchmark")
    rows = []
    for name, fn in BENCHES:
        if only and name not in only:
            continue
        try:
            rows.extend(fn(quick))
        except Exception as exc:  # noqa: BLE001
            rows.append({"bench": name, "id": "", "rate": None, "note": f"failed: {type(exc).__name__}: {exc}"[:120]})
    return rows
