"""Side-by-side comparisons used by the report and the figures: how many homogeneous rounds each filter allows.

For a homogeneous stream (every round eps, delta = 0) every filter here HALTs monotonically in the number of
rounds k (its statistic is non-decreasing in the aggregates), so the largest k that CONTinues is found by
bisection on certified decisions (:func:`dpbounds.evaluation.evaluate.decide`), with the aggregates of k rounds computed
exactly (V = k eps^2) or as certified enclosures (A = k eps (e^eps - 1)/2).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable

from dpbounds import spec

from dpbounds.evaluation.evaluate import Inputs, decide, prepare
from dpbounds.evaluation.sequences import aggregate_exact
from dpbounds.accounting.accountants import make_filter
from dpbounds.accounting.conversions import _gauss_test, b_star
from dpbounds.accounting.filters import gdp_budget, rr_rdp_upper
from dpbounds.accounting.individual import IndividualGDPFilter
from dpbounds.accounting.registry import filter_specs
from dpbounds.exact.worst_case import delta_rr


def _homogeneous_aggregates(entry: spec.SpecEntry, eps: Fraction, k: int) -> dict:
    rounds = {"eps": [eps], "delta": [Fraction(0)], "rho": [eps * eps / 2]}
    out = {}
    for a in entry.aggregates:
        lo, hi = aggregate_exact(a, rounds)  # one round, exactly or certified
        out[a] = (lo * k, hi * k)
    return out


def largest_ok(ok: Callable[[int], bool], max_k: int) -> int:
    """The largest k in [0, max_k] with ok(k), for an ok that holds up to some k and fails after it (ok(0) is taken
    to hold): galloping from 1, then bisection -- O(log k) calls of ok."""
    if max_k < 1 or not ok(1):
        return 0
    lo, hi = 1, 2  # invariant: ok(lo); hi is either beyond max_k or fails
    while hi <= max_k and ok(hi):
        lo, hi = hi, hi * 2
    hi = min(hi, max_k + 1)  # max_k + 1 stands for "beyond the cap": never returned
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return lo


def halts_after(entry_id: str, budget: dict, eps, k: int) -> bool:
    """Certified: does the filter HALT when asked for round k of a homogeneous eps stream (rounds 1..k)?"""
    entry = spec.get(entry_id)
    inp0 = prepare(entry, budget, aggregates={a: "0" for a in entry.aggregates})
    inp = Inputs(inp0.params, _homogeneous_aggregates(entry, spec.parse_exact("eps", eps), k))
    return decide(entry, inp)


def rounds_allowed(entry_id: str, budget: dict, eps, max_rounds: int = 10**7) -> int:
    """The number of homogeneous rounds of ``eps`` the filter allows before it HALTs (capped at max_rounds)."""
    return largest_ok(lambda k: not halts_after(entry_id, budget, eps, k), max_rounds)


def rounds_allowed_optimal(eps, eps_g, delta_g, max_rounds: int = 100000) -> int:
    """The largest k with k-fold eps-RR (the exact worst case, KOV15) being (eps_g, delta_g)-DP: the limit any
    valid filter for fixed homogeneous parameters can reach."""
    dg = spec.parse_exact("delta_g", delta_g)

    def ok(k: int) -> bool:
        # the exact engine's convolution (tests/test_validity.py checks it against the spec's conversions.kov15.exact)
        return delta_rr([eps] * k, eps_g).hi <= dg  # certified: exact delta <= delta_g

    return largest_ok(ok, max_rounds)


def filter_lineup(eps_g: str, delta_g: str) -> list[tuple[str, str, dict]]:
    """(label, filter id, budget) for the side-by-side comparison at total budget (eps_g, delta_g): the filters of
    the filter registry with a ``lineup`` (:class:`dpbounds.accounting.registry.Lineup`), in its rank order."""
    ranked = sorted((fs.lineup.rank, fs.lineup.label, fid, fs.lineup.budget)
                    for fid, fs in filter_specs().items() if fs.lineup is not None)
    return [(label, fid, budget(eps_g, delta_g)) for _, label, fid, budget in ranked]


#: the per-round eps of the 'Filters side by side' table and figure (quick: a subset)
EPS_GRID = ("0.001", "0.003", "0.01", "0.03", "0.05", "0.1", "0.2")
EPS_GRID_QUICK = ("0.01", "0.05", "0.1", "0.2")  # seconds, not minutes: the optimum at 0.001 is the slow one


def compare_filters_table(quick: bool = False, eps_g: str = "1", delta_g: str = "1e-6",
                          tick: Callable[[str], None] | None = None):
    """Rounds allowed per filter for several homogeneous eps (the report's 'Filters side by side');
    ``tick(note)`` is called before each cell with what it computes (progress for a caller)."""
    eps_list = list(EPS_GRID_QUICK if quick else EPS_GRID)
    lineup = filter_lineup(eps_g, delta_g)
    headers = ["eps per round"] + [lab for lab, _, _ in lineup] + [
        "FZ21 Thm 4.3 + exact RR curve (best single order)", "multi-order Renyi, RR curve (orders 2..64)",
        "multi-order Renyi, RR curve, CKS20 at delta/k (orders 2..64)", "exact optimum (KOV15, fixed params)"]
    rows, best_orders = [], []
    for eps in eps_list:
        row = [eps]
        for _, fid, budget in lineup:
            if tick:
                tick(f"eps={eps} {fid}")
            row.append(str(rounds_allowed(fid, budget, eps)))
        if tick:
            tick(f"eps={eps} Renyi filters, RR curve")
        best, multi, best_a = rr_renyi_rounds(eps, eps_g, delta_g)
        multi_cks = rr_renyi_rounds(eps, eps_g, delta_g, "lec21.multi_order.cks20")[1]
        row += [str(best), str(multi), str(multi_cks)]  # numbers only: the figure plots these cells
        best_orders.append(f"{best_a} at eps = {eps}")
        if tick:
            tick(f"eps={eps} exact optimum")
        row.append(str(rounds_allowed_optimal(eps, eps_g, delta_g)))
        rows.append(row)
    note = (f"Homogeneous rounds allowed at total budget (eps_g, delta_g) = ({eps_g}, {delta_g}); pure-DP rounds. "
            "The last column is the exact optimum for k-fold eps-randomized response with fixed parameters: no "
            "valid filter can exceed it. The best single Renyi order: " + ", ".join(best_orders) + ".")
    return headers, rows, note


# ------------------------------------------------------------------------------------------------ later filters


def rounds_allowed_charge(entry_id: str, params: dict, charge: Fraction, max_rounds: int = 10**7) -> int:
    """Homogeneous rounds a one-aggregate (R) filter allows when each round adds exactly ``charge`` to R.

    The accountants charge the same exact rational per round (e.g. ``rr_rdp_upper``, mu^2/2), so this is the count the
    streaming filter reaches; found by bisection on certified decisions (HALT is monotone in R)."""
    entry = spec.get(entry_id)
    inp0 = prepare(entry, params, aggregates={"R": "0"})
    charge = Fraction(charge)

    def halts(k: int) -> bool:
        r = charge * k
        return decide(entry, Inputs(inp0.params, {"R": (r, r)}))

    if charge == 0:
        return 0 if halts(1) else max_rounds
    return largest_ok(lambda k: not halts(k), max_rounds)


#: the orders of the multi-order Renyi filter in the comparisons (fixed before any interaction)
ORDERS = ("2", "4", "8", "16", "32", "64")


def rr_renyi_rounds(eps, eps_g: str, delta_g: str, multi_id: str = "lec21.multi_order") -> tuple[int, int, str]:
    """(rounds of the one-order RR-curve Renyi filter at its best order in ORDERS, rounds of the multi-order union
    filter ``multi_id`` (lec21.multi_order or lec21.multi_order.cks20) over ORDERS, the best order) for homogeneous
    pure eps rounds."""
    single = [(rounds_allowed_charge("fz21.thm4_3.rr", {"alpha": a, "eps_g": eps_g, "delta_g": delta_g},
                                     rr_rdp_upper(a, eps)), a) for a in ORDERS]
    best, best_a = max(single, key=lambda t: t[0])
    multi = max(rounds_allowed_charge(multi_id, {"alpha": a, "eps_g": eps_g, "delta_g": delta_g,
                                                            "k": str(len(ORDERS))}, rr_rdp_upper(a, eps))
                for a in ORDERS)  # CONT iff some order fits; each order's fit is monotone in k
    return best, multi, best_a


def _gauss_ok(mu2_total: Fraction, eps_g: str, delta_g: str) -> bool:
    """Certified: is sqrt(mu2_total)-GDP (eps_g, delta_g)-DP?  (the exact Gaussian curve, DRS19 Cor. 2.13)"""
    r = _gauss_test(mu2_total / 2, spec.parse_exact("eps_g", eps_g), spec.parse_exact("delta_g", delta_g))
    return r is True


def gdp_optimum_prefix(mus, eps_g: str, delta_g: str) -> int:
    """The longest prefix of the fixed sequence ``mus`` whose (non-adaptive) composition, exactly
    sqrt(sum mu_i^2)-GDP (DRS19 Cor. 3.3), is (eps_g, delta_g)-DP: what any valid filter can reach on it."""
    mus = [spec.parse_exact("mu", m) for m in mus]
    pref = [Fraction(0)]
    for m in mus:
        pref.append(pref[-1] + m * m)
    return largest_ok(lambda n: _gauss_ok(pref[n], eps_g, delta_g), len(mus))  # ok is monotone in n


def _gaussian_lineup(eps_g: str, delta_g: str):
    """(label, homogeneous(mu) -> rounds, stream(mus) -> rounds) for Gaussian (mu-GDP) rounds.  Homogeneous counts
    by bisection on the same exact per-round charges the accountants record; streams through the accountants."""

    def run(factory, charge):
        def go(mus):
            f, n = factory(), 0
            for m in mus:
                if not f.try_spend(**charge(spec.parse_exact("mu", m))):
                    break
                n += 1
            return n
        return go

    bz = b_star(eps_g, delta_g, "cks20").b_star
    bg = gdp_budget(eps_g, delta_g)
    k = str(len(ORDERS))
    return [
        ("GDP filter (Smith-Thakurta)",
         lambda m: rounds_allowed_charge("st22.filter", {"eps_g": eps_g, "delta_g": delta_g, "B": bg}, m * m / 2),
         run(lambda: make_filter("st22.filter", eps_g=eps_g, delta_g=delta_g), lambda m: {"rho": m * m / 2})),
        ("zCDP filter + CKS20 (FZ21 Rem. 4.4)",
         lambda m: rounds_allowed_charge("fz21.remark4_4", {"B": bz}, m * m / 2),
         run(lambda: make_filter("fz21.remark4_4", B=bz), lambda m: {"rho": m * m / 2})),
        ("multi-order Renyi (orders 2..64)",
         lambda m: max(rounds_allowed_charge("lec21.multi_order", {"alpha": a, "eps_g": eps_g, "delta_g": delta_g,
                                                                   "k": k}, Fraction(a) * m * m / 2) for a in ORDERS),
         run(lambda: make_filter("lec21.multi_order", eps_g=eps_g, delta_g=delta_g, orders=",".join(ORDERS)),
             lambda m: {"rho": {a: Fraction(a) * m * m / 2 for a in ORDERS}})),
    ]


def compare_gaussian_table(quick: bool = False, eps_g: str = "1", delta_g: str = "1e-6"):
    """Rounds allowed on Gaussian workloads: homogeneous mu-GDP rounds and a mixed stream, against the optimum for the
    same fixed sequence (exact GDP composition)."""
    mu_list = ["0.01", "0.03", "0.1"] if quick else ["0.003", "0.01", "0.03", "0.1"]
    mixed = ["0.01", "0.03", "0.005", "0.02", "0.05"]
    lineup = _gaussian_lineup(eps_g, delta_g)
    headers = ["workload"] + [lab for lab, _, _ in lineup] + ["optimum (exact GDP composition, fixed sequence)"]
    rows = []
    for m in mu_list:
        mq = spec.parse_exact("mu", m)
        rows.append([f"mu = {m}"] + [str(h(mq)) for _, h, _ in lineup] +
                    [str(_homogeneous_gdp_optimum(mq, eps_g, delta_g))])  # k rounds are sqrt(k) mu-GDP exactly
    seq = mixed * 40
    opt = gdp_optimum_prefix(seq, eps_g, delta_g)
    seq = seq[:opt + 2] if opt + 2 <= len(seq) else seq
    rows.append(["mixed: " + ", ".join(mixed) + ", ... (cyclic)"] + [str(go(seq)) for _, _, go in lineup] + [str(opt)])
    note = (f"Gaussian rounds (each mu_t-GDP, e.g. a Gaussian mechanism with sensitivity/sigma = mu_t) at total budget "
            f"(eps_g, delta_g) = ({eps_g}, {delta_g}).  The GDP filter's budget is the exact Gaussian curve (the "
            "interaction is GDP); the zCDP filter charges mu^2/2 and converts with CKS20; the multi-order filter charges "
            "the Gaussian RDP alpha mu^2/2 at each order with delta_g split over the orders.  The last column is the "
            "longest prefix of the same fixed sequence whose non-adaptive composition is (eps_g, delta_g)-DP: no valid "
            "filter exceeds it, and the GDP filter reaches it.")
    return headers, rows, note


def compare_individual_gdp_table(quick: bool = False, eps_g: str = "1", delta_g: str = "1e-6"):
    """Rounds each individual takes part in, on a DP-SGD-like workload, under the worst-case GDP filter and the
    individual filters, against each individual's own optimum.

    Individual i's clipped contribution is c_i C and the noise sigma, so its rounds are mu_i-GDP for i with mu_i =
    c_i mu_worst (mu_worst = C/sigma = 0.05); the worst-case filter charges mu_worst every round and stops everyone."""
    mu_worst = Fraction(1, 20)
    cs = ["1", "0.5", "0.2"] if quick else ["1", "0.5", "0.2", "0.1"]
    mus = [mu_worst * spec.parse_exact("c", c) for c in cs]
    opts = [_homogeneous_gdp_optimum(m, eps_g, delta_g) for m in mus]
    worst = rounds_allowed_charge("st22.filter", {"eps_g": eps_g, "delta_g": delta_g, "B": gdp_budget(eps_g, delta_g)},
                                  mu_worst * mu_worst / 2)
    f = IndividualGDPFilter(len(mus), eps_g, delta_g)
    counts = [0] * len(mus)
    row_mu = [spec.core.fraction_to_decimal_str(m) for m in mus]  # exact decimals (the accountant rounds them up)
    for _ in range(max(opts) + 1):  # one round past the longest optimum: every individual is refused by then
        for i, a in enumerate(f.step(row_mu)):
            counts[i] += bool(a)
    renyi = [max(rounds_allowed_charge("fz21.thm4_3.rr", {"alpha": a, "eps_g": eps_g, "delta_g": delta_g},
                                       Fraction(a) * m * m / 2) for a in ORDERS) for m in mus]
    headers = ["individual (mu_i = c_i C/sigma, C/sigma = 0.05)", "worst-case GDP filter (every round at C/sigma)",
               "individual GDP filter (Koskela-Tobaben-Honkela)", "individual Renyi filter (FZ21 Alg. 3, best order "
               "2..64, CKS20)", "optimum (i's own fixed sequence, exact GDP composition)"]
    rows = [[f"c_i = {c}", str(worst), str(n), str(r), str(o)] for c, n, r, o in zip(cs, counts, renyi, opts)]
    note = (f"Individual accounting at (eps_g, delta_g) = ({eps_g}, {delta_g}) per individual: rounds in which "
            "individual i takes part when every round's contribution of i is mu_i-GDP for i.  The worst-case filter "
            "charges everyone C/sigma and stops the whole run; the individual filters leave out only the individuals "
            "whose own budget is spent (the run goes on for the others).  The last column is the largest number of "
            "i's rounds whose composition is (eps_g, delta_g)-DP for i: the individual GDP filter reaches it.")
    return headers, rows, note


def _homogeneous_gdp_optimum(mu: Fraction, eps_g: str, delta_g: str, max_rounds: int = 10**8) -> int:
    """The largest k (capped) with k rounds of mu-GDP, exactly sqrt(k) mu-GDP, being (eps_g, delta_g)-DP."""
    return largest_ok(lambda k: _gauss_ok(k * mu * mu, eps_g, delta_g), max_rounds)

# ------------------------------------------------------------------------------------------------ heterogeneous streams


def rr_optimum_prefix(eps_seq, eps_g, delta_g) -> int:
    """The longest prefix of the fixed pure sequence ``eps_seq`` whose composition is (eps_g, delta_g)-DP: certified
    delta(eps_g) of RR_eps_1 x ... x RR_eps_n (spec ``conversions.mv16.exact``, evaluated by the exact engine's
    grouped convolution) <= delta_g.  No valid filter can continue further on that stream: a filter is in particular
    valid for the non-adaptive analyst that plays the sequence, and RR attains each round's worst case (KOV15).
    Monotone in n (dropping a round is a post-processing), so found by bisection."""
    seq = [spec.parse_exact("eps", e) for e in eps_seq]
    dg = spec.parse_exact("delta_g", delta_g)
    n = largest_ok(lambda n: delta_rr(seq[:n], eps_g).hi <= dg, len(seq))
    if n < len(seq) and not delta_rr(seq[:n + 1], eps_g).lo > dg:  # certified both ways: n is exactly the optimum
        raise ArithmeticError(f"delta of the first {n + 1} rounds is not separated from delta_g = {delta_g}")
    return n


#: the heterogeneous workloads: (label, values, how the stream is built); fixed seed, so the streams are reproducible
HETERO_VALUES = ("0.005", "0.01", "0.02")


#: the round after which the switching stream goes from the smallest to the largest value (the same for --quick)
SWITCH_AT = 250


def hetero_streams(n: int = 2000) -> list[tuple[str, list[str]]]:
    """(label, stream) for the tightness benchmark: per-round sizes drawn uniformly from HETERO_VALUES (numpy seed 29),
    and a stream that switches from the smallest to the largest value after SWITCH_AT rounds (inside the optimum's
    length, so that both scales matter)."""
    import numpy as np
    rng = np.random.default_rng(29)
    draw = [HETERO_VALUES[i] for i in rng.integers(0, len(HETERO_VALUES), n)]
    half = min(SWITCH_AT, n)  # about two thirds of the pure optimum at (1, 1e-6) for these scales
    switch = [HETERO_VALUES[0]] * half + [HETERO_VALUES[-1]] * (n - half)
    return [(f"drawn from {{{', '.join(HETERO_VALUES)}}} (seed 29)", draw),
            (f"{HETERO_VALUES[0]} for {half} rounds, then {HETERO_VALUES[-1]}", switch)]


def _run_stream(make, values, per_round) -> int:
    f, n = make(), 0
    for v in values:
        if not f.try_spend(**per_round(v)):
            break
        n += 1
    return n


def _pure_lineup(eps_g: str, delta_g: str):
    """(label, factory) of the filters compared on pure heterogeneous streams (each fed try_spend(eps=...))."""
    lineup = []
    for lab, fid, budget in filter_lineup(eps_g, delta_g)[:3]:
        lineup.append((lab, lambda fid=fid, budget=budget: make_filter(fid, **budget)))
    orders = ",".join(ORDERS)
    lineup += [
        ("multi-order Renyi, RR curve, tail bound (lec21.multi_order)",
         lambda: make_filter("lec21.multi_order", eps_g=eps_g, delta_g=delta_g, orders=orders)),
        ("multi-order Renyi, RR curve, CKS20 at delta/k (lec21.multi_order.cks20)",
         lambda: make_filter("lec21.multi_order.cks20", eps_g=eps_g, delta_g=delta_g, orders=orders)),
    ]
    return lineup


def _cell(n: int, opt: int) -> str:
    return f"{n} ({100 * n / opt:.1f}%)" if opt else str(n)


def compare_heterogeneous_table(quick: bool = False, eps_g: str = "1", delta_g: str = "1e-6"):
    """Tightness on heterogeneous streams: each filter's rounds on the same stream as a fraction of the optimum of
    that fixed sequence (pure: exact RR composition, conversions.mv16.exact; Gaussian: exact GDP composition).
    Pure streams also show FZ21 Thm 4.3 with the RR curve at the best single order of ORDERS chosen in hindsight
    (an order must be fixed in advance, so this column is an upper reference, not a filter one could deploy)."""
    streams = hetero_streams(1200 if quick else 2000)
    pure = _pure_lineup(eps_g, delta_g)
    headers = ["workload"] + [lab for lab, _ in pure] + ["FZ21 Thm 4.3 + RR curve (best order in hindsight)",
                                                         "optimum (exact, same fixed sequence)"]
    rows, best = [], {}
    for label, seq in streams:
        opt = rr_optimum_prefix(seq, eps_g, delta_g)
        cells = [_cell(_run_stream(mk, seq, lambda v: {"eps": v}), opt) for _, mk in pure]
        single = [(_run_stream(lambda a=a: make_filter("fz21.thm4_3.rr", alpha=a, eps_g=eps_g, delta_g=delta_g),
                               seq, lambda v: {"eps": v}), a) for a in ORDERS]
        n1, a1 = max(single)
        rows.append([f"pure, {label}"] + cells + [f"{_cell(n1, opt)} at alpha = {a1}", str(opt)])
        best[f"pure, {label}"] = max(int(c.split()[0]) for c in cells) / opt if opt else 0.0
    g_headers, g_rows = ["workload"] + [lab for lab, _, _ in _gaussian_lineup(eps_g, delta_g)] + [
        "multi-order Renyi, CKS20 at delta/k", "optimum (exact GDP composition)"], []
    for label, seq in streams:
        opt = gdp_optimum_prefix(seq, eps_g, delta_g)
        cells = [_cell(go(seq), opt) for _, _, go in _gaussian_lineup(eps_g, delta_g)]
        mk = lambda: make_filter("lec21.multi_order.cks20", eps_g=eps_g, delta_g=delta_g, orders=",".join(ORDERS))
        n = _run_stream(mk, seq, lambda m: {"rho": {a: Fraction(a) * spec.parse_exact("mu", m) ** 2 / 2
                                                    for a in ORDERS}})
        cells.append(_cell(n, opt))
        g_rows.append([f"Gaussian mu_t, {label}"] + cells + [str(opt)])
        best[f"Gaussian, {label}"] = max(int(c.split()[0]) for c in cells) / opt if opt else 0.0
    note = (f"Heterogeneous streams at (eps_g, delta_g) = ({eps_g}, {delta_g}): rounds each filter continues through "
            "on the same stream, and in brackets as a fraction of the optimum for that fixed sequence (the longest "
            "prefix whose non-adaptive composition is (eps_g, delta_g)-DP: exact RR composition for pure rounds, "
            "Murtagh-Vadhan / KOV15, conversions.mv16.exact; exact GDP composition for Gaussian rounds).  No valid "
            "filter exceeds the optimum.  Best proven filter's fraction per workload: "
            + "; ".join(f"{w}: {100 * v:.1f}%" for w, v in best.items()) + ".")
    return headers, rows, g_headers, g_rows, note, best


def _bench_tightness(quick: bool) -> list[dict]:
    """`dpbounds bench --only tightness`: each filter's rounds on the heterogeneous streams as a fraction of the
    optimum (numbers, not rates)."""
    headers, rows, g_headers, g_rows, _, _ = compare_heterogeneous_table(quick=quick)
    out = []
    for hs, rs in ((headers, rows), (g_headers, g_rows)):
        for r in rs:
            for h, c in zip(hs[1:-1], r[1:-1]):
                out.append({"bench": "tightness (heterogeneous)", "id": f"{r[0]} | {h}"[:120], "rate": None,
                            "note": f"{c} of optimum {r[-1]}"})
    return out


BENCHMARKS = [("tightness", _bench_tightness)]
