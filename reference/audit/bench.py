"""Side-by-side timings against installed peers on the same inputs (printed by `dpbounds bench`).

Every dpbounds row carries its ratio to each peer measured in the same run (rates, so > 1 means dpbounds is faster).
The conversion is CKS20 Prop. 12 at rho = 0.1 (OpenDP: Gaussian mechanism with scale 1/sqrt(0.2), which is
0.1-zCDP; dp_accounting: the RDP curve alpha * 0.1 on its default-style grid of orders)."""

from __future__ import annotations

import math
import time

import numpy as np

from dpbounds.audit.common import available

RHO, DELTA, EPS = 0.1, 1e-6, 2.0


def _rate(fn, min_time=0.3, windows: int = 5) -> float:
    """Calls per second: the best of ``windows`` windows of ``min_time / windows`` seconds each (the same rule for
    dpbounds and the peers, so a burst of load on the shared machine hits neither side's figure alone)."""
    fn()
    best = 0.0
    for _ in range(windows):
        n, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < min_time / windows:
            fn()
            n += 1
        best = max(best, n / (time.perf_counter() - t0))
    return best


def _peer_fns():
    """{peer: (eps(delta) call, delta(eps) call)} for the installed peers."""
    out = {}
    if available("opendp"):
        import opendp.prelude as dp
        dp.enable_features("contrib")
        space = (dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float))
        m = dp.c.make_zCDP_to_approxDP(dp.m.make_gaussian(*space, scale=1 / math.sqrt(2 * RHO)))
        out["opendp"] = (lambda: m.map(1.0).epsilon(DELTA), lambda: m.map(1.0).delta(EPS),
                         "opendp make_zCDP_to_approxDP")
    if available("dp_accounting"):
        from dp_accounting.rdp import rdp_privacy_accountant as rdp
        orders = [1 + x / 10.0 for x in range(1, 100)] + list(range(12, 64))
        curve = [a * RHO for a in orders]
        out["dp_accounting"] = (lambda: rdp.compute_epsilon(orders, curve, DELTA),
                                lambda: rdp.compute_delta(orders, curve, EPS), "dp_accounting compute_epsilon/delta")
    return out


def _ratios(rate: float, peers: dict) -> str:
    return ", ".join(f"{rate / r:.3g}x {p}" for p, r in peers.items())


def bench_peers(quick: bool) -> list[dict]:
    from dpbounds.accounting.conversions import b_star, delta_of, eps_of
    from dpbounds.accounting.fast_conversions import b_star_lower, delta_upper, eps_upper
    t = 0.1 if quick else 1.0
    rows = []
    peers = _peer_fns()
    for what, idx in (("eps(delta)", 0), ("delta(eps)", 1)):
        bench = f"peers: zCDP->DP {what}"
        prates = {p: _rate(fns[idx], t) for p, fns in peers.items()}
        ours = [("dpbounds certified float upper (default)",
                 (lambda: eps_upper(RHO, DELTA)) if idx == 0 else (lambda: delta_upper(RHO, EPS)),
                 "float64 >= exact; same float inputs as the peers"),
                ("dpbounds certified enclosure (arb, 1e-20)",
                 (lambda: eps_of("0.1", "1e-6", "cks20")) if idx == 0 else (lambda: delta_of("0.1", "2")),
                 "exact decimal inputs, enclosure of relative width 1e-20")]
        for name, fn, note in ours:
            r = _rate(fn, t)
            rows.append({"bench": bench, "id": name, "rate": r, "unit": "calls/s",
                         "note": f"{note}; {_ratios(r, prates)}" if prates else note})
        for p, r in prates.items():
            rows.append({"bench": bench, "id": peers[p][2], "rate": r, "unit": "calls/s"})
    rows.append({"bench": "peers: B* solve", "id": "dpbounds b_star_lower cks20 (float, never overstated)",
                 "rate": _rate(lambda: b_star_lower(1.0, 1e-6), t), "unit": "solves/s"})
    rows.append({"bench": "peers: B* solve", "id": "dpbounds b_star cks20 (certified bracket)",
                 "rate": _rate(lambda: b_star("1", "1e-6", "cks20"), t), "unit": "solves/s"})
    # vectorized: elements/s against the peers' scalar calls/s (they have no array API)
    from dpbounds.accounting import fast_conversions as fc
    n = 100_000 if quick else 1_000_000
    rng = np.random.default_rng(0)
    rho = RHO * rng.uniform(0.5, 1.5, n)
    delta = 10.0 ** rng.uniform(-12, -3, n)
    eps = rng.uniform(0.5, 4.0, n)
    prate_eps = {p: _rate(fns[0], t) for p, fns in peers.items()}
    for name, fn in (("eps_upper cks20", lambda: fc.eps_upper(rho, delta)),
                     ("eps_interval cks20", lambda: fc.eps_interval(rho, delta)),
                     ("delta_upper cks20", lambda: fc.delta_upper(rho, eps)),
                     ("delta_interval cks20", lambda: fc.delta_interval(rho, eps)),
                     ("b_star_lower cks20", lambda: fc.b_star_lower(eps, delta)),
                     ("eps_upper bs16", lambda: fc.eps_upper(rho, delta, "bs16")),
                     ("b_star_lower bs16", lambda: fc.b_star_lower(eps, delta, "bs16"))):
        fn()
        best = min(_timed(fn) for _ in range(2 if quick else 7))
        r = n / best
        rows.append({"bench": f"vectorized conversions (arrays of {n:.0e})", "id": f"dpbounds {name}", "rate": r,
                     "unit": "elements/s", "note": _ratios(r, prate_eps)})
    if available("confseq"):
        from confseq import boundaries

        from dpbounds.evaluation.evaluate import fast_upper
        v = np.logspace(0, 6, 10000)
        rc = _rate(lambda: boundaries.poly_stitching_bound(v, 0.05, 1.0, c=0.0, s=1.4, eta=2.0))
        ro = _rate(lambda: fast_upper("howard.stitching.simplified", v0=1.0, delta=0.05, V=v))
        rows.append({"bench": "peers: stitching boundary (1e4 points)", "id": "confseq poly_stitching_bound",
                     "rate": rc * 1e4, "unit": "points/s"})
        rows.append({"bench": "peers: stitching boundary (1e4 points)", "id": "dpbounds sound fast path",
                     "rate": ro * 1e4, "unit": "points/s", "note": f"{ro / rc:.3g}x confseq"})
    return rows


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


# ------------------------------------------------------------------------------------------ vs dp_accounting
#
# Every measurement of the certified-speed work beside the peer's float computation of the same quantity, timed in
# the same run by the same rule: a row's ratio is (dpbounds calls/s) / (peer calls/s), > 1 meaning dpbounds is
# faster; its width is the relative width of dpbounds' enclosure (the peer's value is a float, never certified);
# "peer value" says where the peer's value lies against the enclosure (inside, above = conservative for an upper
# bound, below = under-reported).

PEER_BENCH = "vs dp_accounting"

#: peer -> interpreter for the peers timed in their own interpreter (riskcal), set by `dpbounds bench --python`;
#: without one, $DPBOUNDS_PEERS/<peer>/bin/python when it exists
PYTHONS: dict[str, str] = {}

#: the PLD points when dpbounds.evaluation.sgm_pld declares none (PEER_BENCH_POINTS there: (measurement, spec id,
#: inputs, rel_tol)); the one step at k = 1 is asked at rel_tol 1e-10
DEFAULT_PLD_POINTS = [
    ("DP-SGD composed eps, k = 1e3", "composition.sgm.eps", {"q": "0.01", "sigma": "1", "k": 1000, "delta": "1e-5"},
     1e-3),
    ("DP-SGD composed eps, k = 1e4", "composition.sgm.eps", {"q": "0.001", "sigma": "0.8", "k": 10000,
                                                           "delta": "1e-5"}, 1e-3),
    ("DP-SGD composed eps, k = 1e5", "composition.sgm.eps", {"q": "0.004", "sigma": "1.1", "k": 100000,
                                                           "delta": "1e-5"}, 1e-3),
    ("DP-SGD one step eps, k = 1", "composition.sgm.eps", {"q": "0.01", "sigma": "1", "k": 1, "delta": "1e-5"},
     1e-10),
]

#: dp_accounting's RDP orders for a zCDP curve (its RdpAccountant default grid: 1.1 .. 10.9 by 0.1, 12 .. 63)
DPA_ORDERS = [1 + x / 10.0 for x in range(1, 100)] + list(range(12, 64))

#: distinct scalar points per measurement (the calls rotate through them: nothing is served from a cache)
_ZCDP_POINTS = [(f"{r:g}", f"{d:g}") for r in (0.01, 0.1, 0.5, 2.0) for d in (1e-3, 1e-5, 1e-6, 1e-9)]
_DELTA_POINTS = [(f"{r:g}", f"{e:g}") for r in (0.01, 0.1, 0.5, 2.0) for e in (0.5, 1.0, 2.0, 4.0)]
_TRADEOFF_POINTS = [(f"{r:g}", f"{x:g}") for r in (0.05, 0.5, 2.0) for x in (1e-3, 0.05, 0.3)]


def _paired_rates(ours, peer, min_time: float, windows: int = 5) -> tuple[float, float]:
    """(calls/s of ours, calls/s of peer): windows of min_time/windows seconds taken alternately, the best of each
    side (a burst of load on the shared machine hits both, or neither)."""
    rates = [0.0, 0.0]
    for f in (ours, peer):
        if f is not None:
            f()
    for _ in range(windows):
        for i, f in enumerate((ours, peer)):
            if f is None:
                continue
            n, t0 = 0, time.perf_counter()
            while time.perf_counter() - t0 < min_time / windows:
                f()
                n += 1
            rates[i] = max(rates[i], n / (time.perf_counter() - t0))
    return rates[0], rates[1]


def _rotating(fns: list):
    it = [0]

    def call():
        f = fns[it[0] % len(fns)]
        it[0] += 1
        return f()
    return call


def _row(measurement: str, point: str, ours_name: str, peer_name: str, r_ours: float, r_peer: float | None,
         enc, peer_value: float | None, note: str = "", claim: str = "upper") -> dict:
    """One comparison row; ``enc``: dpbounds' Enclosure at the first point (its relative width is the row's);
    ``claim``: 'upper' (eps, delta: a value above the enclosure is conservative) or 'lower' (a trade-off beta)."""
    lo, hi, width = float(enc.lo), float(enc.hi), enc.rel_width()
    if peer_value is not None and peer_value == peer_value:
        from fractions import Fraction
        v = Fraction(peer_value)
        side = "inside" if enc.contains(v) else ("above" if v > enc.hi else "below")
        if side != "inside":
            side += " (conservative)" if (side == "above") == (claim == "upper") else " (under-reported)"
    else:
        side = "n/a"
    return {"bench": PEER_BENCH, "id": measurement, "point": point, "dpbounds": ours_name, "peer": peer_name,
            "rate": r_ours, "unit": "calls/s", "peer_rate": r_peer,
            "ratio": (r_ours / r_peer) if r_peer else None, "width": width, "lo": lo, "hi": hi,
            "peer_value": peer_value, "peer_side": side, "note": note}


def _dpa_pld(q: float, sigma: float, k: int, delta: float | None, eps: float | None, vdi: float | None = None):
    import dp_accounting

    def run():
        acc = dp_accounting.pld.PLDAccountant() if vdi is None else \
            dp_accounting.pld.PLDAccountant(value_discretization_interval=vdi)
        acc.compose(dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma)), k)
        return acc.get_epsilon(delta) if delta is not None else acc.get_delta(eps)
    return run


#: dp_accounting's value_discretization_interval for the equal-width run, coarsest first: the first whose pessimistic
#: value lies inside dpbounds' certified enclosure [lo, hi].  Its pessimistic value is >= the truth >= lo, so inside
#: means its error (value - truth) is <= hi - lo: provably no larger than the width dpbounds certifies
EQUAL_WIDTH_VDI = (1e-4, 5e-5, 2e-5, 1e-5, 5e-6, 2e-6, 1e-6, 5e-7, 2e-7, 1e-7, 5e-8, 2e-8, 1e-8)
#: the equal-width ladder stops before a call predicted this long (seconds; the last call's time times the ratio
#: of the intervals): the row says which interval it reached
EQUAL_WIDTH_STOP = 60.0
#: an equal-width call longer than this (seconds) is not repeated for the best of 3
EQUAL_WIDTH_ONE = 10.0
#: no equal-width row below this rel_tol (the one-step rows at 1e-10: no discretization of the ladder gets there)
EQUAL_WIDTH_MIN_TOL = 1e-6


def _best_of(fn, n: int, first: float | None = None) -> float:
    """The least of n timed calls (``first``: a call already timed, counted as one)."""
    best = math.inf if first is None else first
    for _ in range(n - (first is not None)):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def _equal_width(q: float, sigma: float, k: int, delta: float | None, eps: float | None, enc, calls: int):
    """(vdi, value, seconds (best of ``calls``), reached): dp_accounting at the coarsest interval of EQUAL_WIDTH_VDI
    whose pessimistic value lies inside the enclosure (see there); reached False when the ladder ended first (the
    list exhausted, or the next call predicted longer than EQUAL_WIDTH_STOP from the last one's time)."""
    from fractions import Fraction
    v, dt, vdi = None, None, None
    for nxt in EQUAL_WIDTH_VDI:
        if dt is not None and dt * vdi / nxt > EQUAL_WIDTH_STOP:
            break       # the next call is predicted past the stop (its time grows about like 1/interval)
        vdi = nxt
        run = _dpa_pld(q, sigma, k, delta, eps, vdi)
        t0 = time.perf_counter()
        v = float(run())
        dt = time.perf_counter() - t0
        if v == v and enc.contains(Fraction(v)):
            return vdi, v, _best_of(run, calls if dt <= EQUAL_WIDTH_ONE else 1, dt), True
    return vdi, v, dt, False


def _pld_rows(quick: bool) -> list[dict]:
    """The PLD bracket against dp_accounting's PLDAccountant, each point twice: at its default discretization (its
    pessimistic value) and at equal width (the coarsest discretization whose pessimistic value lies inside the
    certified enclosure, :func:`_equal_width`).  Every call cold (dpbounds' caches cleared before it, untimed); best
    of 3 calls each side (1 with --quick, or when one call of ours takes over 30 s)."""
    from dpbounds.evaluation import sgm_pld
    from dpbounds.evaluation.evaluate import enclose
    points = list(getattr(sgm_pld, "PEER_BENCH_POINTS", DEFAULT_PLD_POINTS))
    reset = getattr(sgm_pld, "bench_reset", None)
    cold = reset is not None   # without the module's own reset only the first call at a point is known to be cold
    if reset is None:
        reset = getattr(getattr(sgm_pld, "_cached_bracket", None), "cache_clear", lambda: None)
    if quick:
        seen, short = set(), []
        for p in points:
            if p[0] not in seen and int(p[2]["k"]) <= 1000:
                seen.add(p[0])
                short.append(p)
        points = short
    rows = []
    have_peer = available("dp_accounting")
    for measurement, sid, inputs, tol in points:
        q, sigma, k = float(inputs["q"]), float(inputs["sigma"]), int(inputs["k"])
        delta = float(inputs["delta"]) if "delta" in inputs else None
        eps_in = inputs.get("eps_g", inputs.get("eps"))     # (delta rows: the spec's name is eps_g)
        eps = float(eps_in) if eps_in is not None else None
        point = ", ".join(f"{n} {v}" for n, v in inputs.items()) + f", rel_tol {tol:g}"
        peer = _dpa_pld(q, sigma, k, delta, eps) if have_peer else None
        best_o, best_p, enc, pv, err = math.inf, math.inf, None, None, ""
        calls = 1 if quick or not cold else 3
        for i in range(calls):
            reset()
            t0 = time.perf_counter()
            try:
                enc = enclose(sid, inputs, rel_tol=tol)
            except Exception as exc:  # noqa: BLE001 - a benchmark reports, it does not crash
                err = f"{type(exc).__name__}: {exc}"[:320]
                break
            best_o = min(best_o, time.perf_counter() - t0)
            if peer is not None:
                t0 = time.perf_counter()
                pv = float(peer())
                best_p = min(best_p, time.perf_counter() - t0)
            if i == 0 and best_o > 30.0:
                calls = 1
                break
        reset()
        peer_name = "dp_accounting PLDAccountant (default discretization, pessimistic)"
        if enc is None:
            rows.append({"bench": PEER_BENCH, "id": measurement, "point": point, "dpbounds": f"enclose {sid}",
                         "peer": peer_name, "rate": None, "note": err or "not computed"})
            continue
        n = "one cold call each (caches cleared)" if calls == 1 else f"best of {calls} cold calls each (caches cleared)"
        row = _row(measurement, point, f"enclose {sid}", peer_name, 1 / best_o,
                   (1 / best_p) if peer is not None else None, enc, pv, n)
        if row["peer_side"].startswith("above"):
            row["note"] += (f"; its default-discretization value {pv:.9g} lies above the certified upper end "
                            f"{float(enc.hi):.9g}: the pessimism of its discretization, not a width of ours")
        rows.append(row)
        if peer is None or tol < EQUAL_WIDTH_MIN_TOL:
            continue
        vdi, v, dt, reached = _equal_width(q, sigma, k, delta, eps, enc, calls)
        name = f"dp_accounting PLDAccountant (value_discretization_interval {vdi:g}: equal width, pessimistic)"
        ladder = ", ".join(f"{x:g}" for x in EQUAL_WIDTH_VDI)
        if reached:
            once = f" (theirs: one call, over {EQUAL_WIDTH_ONE:.0f} s)" if dt > EQUAL_WIDTH_ONE else ""
            note = f"{n}{once}; the coarsest of {ladder} whose pessimistic value lies inside the certified enclosure"
        else:
            why = ("no interval of the list" if vdi == EQUAL_WIDTH_VDI[-1] else
                   f"stopped after a {dt:.0f} s call, the next predicted over {EQUAL_WIDTH_STOP:.0f} s")
            note = (f"equal width not reached: {why}; at value_discretization_interval {vdi:g} its pessimistic value "
                    f"{v:.9g} is still outside the certified enclosure [{float(enc.lo):.9g}, {float(enc.hi):.9g}]; "
                    f"ratio against that call")
        rows.append(_row(measurement, point, f"enclose {sid}", name, 1 / best_o, 1 / dt, enc, v, note))
    return rows


def _riskcal_child(python: str, points: list, min_time: float) -> tuple[float, list[float]] | None:
    """riskcal's get_beta_from_zcdp timed in its own interpreter (its pins conflict with dpbounds'): (calls/s over
    the points in rotation, the values at them), or None."""
    from dpbounds.testing.proc import NoAnswer, run_json
    code = ("import json, sys, time\n"
            "from riskcal.analysis.conversions import get_beta_from_zcdp as f\n"
            "req = json.loads(sys.stdin.readline())\n"
            "pts = [(float(r), float(x)) for r, x in req['points']]\n"
            "vals = [float(f(r, x)) for r, x in pts]\n"
            "best = 0.0\n"
            "for _ in range(5):\n"
            "    n, t0 = 0, time.perf_counter()\n"
            "    while time.perf_counter() - t0 < req['t'] / 5:\n"
            "        r, x = pts[n % len(pts)]; f(r, x); n += 1\n"
            "    best = max(best, n / (time.perf_counter() - t0))\n"
            "print(json.dumps({'rate': best, 'values': vals}), flush=True)\n")
    try:
        ans = run_json([python, "-c", code], {"points": points, "t": min_time}, timeout=120 + 10 * min_time)
    except (NoAnswer, OSError, ValueError):
        return None
    if not isinstance(ans, dict) or "rate" not in ans:
        return None
    return float(ans["rate"]), [float(v) for v in ans["values"]]


def _tradeoff_row(quick: bool, pythons: dict) -> dict:
    """tradeoff.zcdp (certified, relative width <= 1e-6) against riskcal's get_beta_from_zcdp: dp_accounting has no
    trade-off curve; riskcal's is the field's float computation of the same sup over orders (1000 orders up to 1024,
    each order's curve by bisection: Zhu et al. 2022 App. F.1, Riess et al. 2026)."""
    from dpbounds.evaluation.tradeoff import zcdp_enclosure
    pts = _TRADEOFF_POINTS[:3] if quick else _TRADEOFF_POINTS
    t = 0.5 if quick else 3.0
    ours = _rotating([(lambda r=r, x=x: zcdp_enclosure(r, x)) for r, x in pts])
    r_ours = _paired_rates(ours, None, t)[0]
    enc = zcdp_enclosure(*pts[0])
    peer_name = "riskcal get_beta_from_zcdp (float; dp_accounting has no trade-off curve)"
    r_peer, pv, note = None, None, ""
    if available("riskcal"):
        from riskcal.analysis.conversions import get_beta_from_zcdp as f
        peer = _rotating([(lambda r=float(r), x=float(x): f(r, x)) for r, x in pts])
        r_ours, r_peer = _paired_rates(ours, peer, t)
        pv = float(f(float(pts[0][0]), float(pts[0][1])))
    elif pythons.get("riskcal"):
        got = _riskcal_child(pythons["riskcal"], pts, t)
        if got is not None:
            r_peer, pv = got[0], got[1][0]
            note = "riskcal in its own interpreter"
    else:
        note = "riskcal not installed here: --python riskcal=PATH"
    widths = [zcdp_enclosure(r, x).rel_width() for r, x in pts]
    return _row("tradeoff.zcdp beta", f"{len(pts)} points rho x fpr, first rho {pts[0][0]}, fpr {pts[0][1]}",
                "zcdp_enclosure", peer_name, r_ours, r_peer, enc, pv,
                (note + "; " if note else "") + f"widest enclosure {max(widths):.1g}", claim="lower")


def _scalar_rows(quick: bool) -> list[dict]:
    """eps_of / delta_of (certified CKS20, width 1e-20) against dp_accounting's compute_epsilon / compute_delta on
    the curve alpha rho over its RDP orders (the same CKS20 Prop. 12 bound, minimized over a grid of orders)."""
    from dpbounds.accounting.conversions import delta_of, eps_of
    t = 0.2 if quick else 1.5
    rows = []
    have = available("dp_accounting")
    if have:
        from dp_accounting.rdp import rdp_privacy_accountant as rdp
    for what, pts, ours_f, peer_f, name in (
            ("zCDP -> eps (CKS20)", _ZCDP_POINTS, lambda r, d: eps_of(r, d),
             (lambda c, d: rdp.compute_epsilon(DPA_ORDERS, c, d)[0]) if have else None,
             ("eps_of", "dp_accounting compute_epsilon")),
            ("zCDP -> delta (CKS20)", _DELTA_POINTS, lambda r, e: delta_of(r, e),
             (lambda c, e: rdp.compute_delta(DPA_ORDERS, c, e)[0]) if have else None,
             ("delta_of", "dp_accounting compute_delta"))):
        curves = [[a * float(r) for a in DPA_ORDERS] for r, _ in pts]
        ours = _rotating([(lambda r=r, y=y: ours_f(r, y)) for r, y in pts])
        peer = _rotating([(lambda c=c, y=float(y): peer_f(c, y)) for c, (_, y) in zip(curves, pts)]) if have else None
        r_o, r_p = _paired_rates(ours, peer, t)
        enc = ours_f(*pts[0])
        pv = float(peer_f(curves[0], float(pts[0][1]))) if have else None
        rows.append(_row(what, f"{len(pts)} points, first rho {pts[0][0]}, {pts[0][1]}", name[0], name[1], r_o,
                         r_p if have else None, enc, pv,
                         "exact decimal inputs, width <= 1e-20; the peer on 150 orders"))
    return rows


def _pythons(pythons: dict | None) -> dict:
    import os
    out = dict(PYTHONS if pythons is None else pythons)
    base = os.environ.get("DPBOUNDS_PEERS")
    if base and "riskcal" not in out and os.path.exists(os.path.join(base, "riskcal", "bin", "python")):
        out["riskcal"] = os.path.join(base, "riskcal", "bin", "python")
    return out


def bench_vs_dp_accounting(quick: bool, pythons: dict | None = None) -> list[dict]:
    """Every measurement beside the peer in one run (module comment above): the scalar conversions, tradeoff.zcdp,
    the PLD bracket (one step and composed)."""
    rows = _scalar_rows(quick)
    rows += _rdp_rows(quick)
    rows.append(_tradeoff_row(quick, _pythons(pythons)))
    rows += _pld_rows(quick)
    return rows


def _rdp_rows(quick: bool) -> list[dict]:
    """RDP -> eps over a list of orders: rdp_conversions.cks20_eps_enclosure (certified, width <= 1e-12) against
    dp_accounting's compute_epsilon on the same orders and curves (the Poisson-subsampled Gaussian's RDP from
    dp_accounting itself, at 16 (q, sigma) pairs; alpha rho curves when dp_accounting is missing)."""
    from dpbounds.evaluation.rdp_conversions import cks20_eps_enclosure
    t = 0.2 if quick else 1.5
    have = available("dp_accounting")
    pairs = [(q, sg) for q in (0.001, 0.004, 0.01, 0.02) for sg in (1.0, 1.5, 2.0, 5.0)]
    if have:
        from dp_accounting.rdp import rdp_privacy_accountant as rdp
        curves = [[float(v) for v in rdp._compute_rdp_poisson_subsampled_gaussian(q, sg, DPA_ORDERS) * 1000]
                  for q, sg in pairs]
    else:
        curves = [[a * 0.5 / sg**2 for a in DPA_ORDERS] for _, sg in pairs]
    deltas = ["1e-5", "1e-6", "1e-9", "1e-12"]
    pts = [(c, deltas[i % 4]) for i, c in enumerate(curves)]
    ours = _rotating([(lambda c=c, d=d: cks20_eps_enclosure(DPA_ORDERS, c, d)) for c, d in pts])
    peer = _rotating([(lambda c=c, d=float(d): rdp.compute_epsilon(DPA_ORDERS, c, d)) for c, d in pts]) \
        if have else None
    r_o, r_p = _paired_rates(ours, peer, t)
    enc = cks20_eps_enclosure(DPA_ORDERS, pts[0][0], pts[0][1])
    pv = float(rdp.compute_epsilon(DPA_ORDERS, pts[0][0], float(pts[0][1]))[0]) if have else None
    return [_row("RDP -> eps over 150 orders (CKS20)", "16 curves: DP-SGD (q, sigma) x 1000 steps, delta 1e-5 .. "
                 "1e-12", "rdp_conversions.cks20_eps_enclosure", "dp_accounting compute_epsilon", r_o,
                 r_p if have else None, enc, pv, "the same orders and RDP values on both sides")]


BENCHMARKS = [("peers", bench_peers), (PEER_BENCH, bench_vs_dp_accounting)]
