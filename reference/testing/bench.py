"""`dpbounds bench --only "testing oracle"`: how many examples per second the dpbounds.testing search judges, per
kind of function (a float implementation that is right, so every example is judged and none stops the search)."""

from __future__ import annotations

import math
import time


def _eps_bs16(rho: float, delta: float) -> float:
    return math.nextafter(rho + 2 * math.sqrt(rho * -math.log(delta)), math.inf) * (1 + 1e-12)


class _Filter:
    def __init__(self) -> None:
        self.spent = 0.0

    def try_spend(self, eps: float) -> bool:
        t = math.nextafter(self.spent + eps, math.inf)
        if t > 1.0:
            return False
        self.spent = t
        return True


class _Odometer:
    def __init__(self) -> None:
        self.spent = 0.0

    def step(self, eps: float) -> float:
        self.spent = math.nextafter(self.spent + eps, math.inf)
        return self.spent


def bench_oracle(quick: bool) -> list[dict]:
    from dpbounds.testing import check_conversion, check_filter, check_odometer
    n = 40 if quick else 300
    cases = [
        ("conversions.cks20", lambda: check_conversion(_eps_bs16, "conversions.cks20", inputs={
            "rho": (1e-8, 1e4), "delta": (1e-300, 0.5)}, seconds=120, max_examples=n)),
        ("rruv16.thm3_4.filter", lambda: check_filter(_Filter, "rruv16.thm3_4.filter", budget={"eps_g": "1"},
                                                      seconds=120, max_examples=n // 2)),
        ("rruv16.thm3_4.odometer", lambda: check_odometer(_Odometer, "rruv16.thm3_4.odometer", params={},
                                                          seconds=120, max_examples=n // 4)),
    ]
    out = []
    for fid, run in cases:
        t0 = time.perf_counter()
        r = run()
        dt = time.perf_counter() - t0
        out.append({"bench": "testing oracle", "id": fid, "rate": r.examples / dt if dt > 0 else None,
                    "unit": "examples/s", "note": f"{r.examples} examples, verdict {r.verdict}"})
    return out


BENCHMARKS = [("testing oracle", bench_oracle)]
