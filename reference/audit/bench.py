"""Side-by-side timings against installed peers on the same inputs (printed by `dpbounds bench`)."""

from __future__ import annotations

import math
import time

from dpbounds.audit.common import available


def _rate(fn, min_time=0.3) -> float:
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < min_time:
        fn()
        n += 1
    return n / (time.perf_counter() - t0)


def bench_peers(quick: bool) -> list[dict]:
    from dpbounds.accounting.conversions import b_star, eps_of
    rows = []
    ours = _rate(lambda: eps_of("0.1", "1e-6", "cks20", rel_tol=1e-12))
    rows.append({"bench": "peers: zCDP->DP eps(delta)", "id": "dpbounds certified cks20", "rate": ours, "unit": "calls/s"})
    rows.append({"bench": "peers: B* solve", "id": "dpbounds certified cks20 B*", "rate": _rate(lambda: b_star("1", "1e-6", "cks20")),
                 "unit": "solves/s"})
    if available("opendp"):
        import opendp.prelude as dp
        dp.enable_features("contrib")
        space = (dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float))
        m = dp.c.make_zCDP_to_approxDP(dp.m.make_gaussian(*space, scale=1 / math.sqrt(0.2)))
        r = _rate(lambda: m.map(1.0).epsilon(1e-6))
        rows.append({"bench": "peers: zCDP->DP eps(delta)", "id": "opendp make_zCDP_to_approxDP", "rate": r,
                     "unit": "calls/s", "note": f"dpbounds/opendp time ratio {r / ours:.2f}"})
    if available("dp_accounting"):
        from dp_accounting.rdp import rdp_privacy_accountant as rdp
        orders = [1 + x / 10.0 for x in range(1, 100)] + list(range(12, 64))
        r = _rate(lambda: rdp.compute_epsilon(orders, [a * 0.1 for a in orders], 1e-6))
        rows.append({"bench": "peers: zCDP->DP eps(delta)", "id": "dp_accounting compute_epsilon", "rate": r,
                     "unit": "calls/s", "note": f"dpbounds/dp_accounting time ratio {r / ours:.2f}"})
    if available("confseq"):
        import numpy as np
        from confseq import boundaries

        from dpbounds.evaluation.evaluate import fast_upper
        v = np.logspace(0, 6, 10000)
        rc = _rate(lambda: boundaries.poly_stitching_bound(v, 0.05, 1.0, c=0.0, s=1.4, eta=2.0))
        ro = _rate(lambda: fast_upper("howard.stitching.simplified", v0=1.0, delta=0.05, V=v))
        rows.append({"bench": "peers: stitching boundary (1e4 points)", "id": "confseq poly_stitching_bound", "rate": rc * 1e4,
                     "unit": "points/s"})
        rows.append({"bench": "peers: stitching boundary (1e4 points)", "id": "dpbounds sound fast path", "rate": ro * 1e4,
                     "unit": "points/s"})
    return rows


BENCHMARKS = [("peers", bench_peers)]
