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


def _homogeneous_aggregates(entry: spec.SpecEntry, eps: Fraction, k: int) -> dict:
    rounds = {"eps": [eps], "delta": [Fraction(0)], "rho": [eps * eps / 2]}
    out = {}
    for a in entry.aggregates:
        lo, hi = aggregate_exact(a, rounds)  # one round, exactly or certified
        out[a] = (lo * k, hi * k)
    return out


def halts_after(entry_id: str, budget: dict, eps, k: int) -> bool:
    """Certified: does the filter HALT when asked for round k of a homogeneous eps stream (rounds 1..k)?"""
    entry = spec.get(entry_id)
    inp0 = prepare(entry, budget, aggregates={a: "0" for a in entry.aggregates})
    inp = Inputs(inp0.params, _homogeneous_aggregates(entry, spec.parse_exact("eps", eps), k))
    return decide(entry, inp)


def rounds_allowed(entry_id: str, budget: dict, eps, max_rounds: int = 10**7) -> int:
    """The number of homogeneous rounds of ``eps`` the filter allows before it HALTs (capped at max_rounds)."""
    if halts_after(entry_id, budget, eps, 1):
        return 0
    lo, hi = 1, 2
    while hi <= max_rounds and not halts_after(entry_id, budget, eps, hi):
        lo, hi = hi, hi * 2
    if hi > max_rounds:
        return max_rounds
    while hi - lo > 1:  # invariant: CONT at lo, HALT at hi
        mid = (lo + hi) // 2
        if halts_after(entry_id, budget, eps, mid):
            hi = mid
        else:
            lo = mid
    return lo


def rounds_allowed_optimal(eps, eps_g, delta_g, max_rounds: int = 100000) -> int:
    """The largest k with k-fold eps-RR (the exact worst case, KOV15) being (eps_g, delta_g)-DP: the limit any
    valid filter for fixed homogeneous parameters can reach."""
    from dpbounds.exact.worst_case import delta_rr
    dg = spec.parse_exact("delta_g", delta_g)

    def ok(k: int) -> bool:
        # the exact engine's convolution (tests/test_validity.py checks it against the spec's conversions.kov15.exact)
        return delta_rr([eps] * k, eps_g).hi <= dg  # certified: exact delta <= delta_g

    if not ok(1):
        return 0
    lo, hi = 1, 2
    while hi <= max_rounds and ok(hi):
        lo, hi = hi, hi * 2
    if hi > max_rounds:
        return max_rounds
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            lo = mid
        else:
            hi = mid
    return lo


def filter_lineup(eps_g: str, delta_g: str) -> list[tuple[str, str, dict]]:
    """(label, filter id, budget) for the side-by-side comparison at total budget (eps_g, delta_g)."""
    from dpbounds.accounting.conversions import b_star
    b = b_star(eps_g, delta_g, "cks20")
    return [
        ("RRUV16 Thm 5.1", "rruv16.thm5_1", {"eps_g": eps_g, "delta_g": delta_g}),
        ("WRRW23 Thm 2", "wrrw23.thm2", {"eps_g": eps_g, "delta_prime": delta_g, "delta_dprime": "0"}),
        ("FZ21 Thm 4.7 + CKS20 (B*)", "fz21.thm4_7", {"eps_g": eps_g, "delta_g": delta_g,
                                                     "B": str(b.b_star.numerator) + "/" + str(b.b_star.denominator)}),
        ("basic (RRUV16 Thm 3.4)", "rruv16.thm3_4.filter", {"eps_g": eps_g}),
    ]


#: the per-round eps of the 'Filters side by side' table and figure (quick: a subset)
EPS_GRID = ("0.001", "0.003", "0.01", "0.03", "0.05", "0.1", "0.2")
EPS_GRID_QUICK = ("0.01", "0.05", "0.1", "0.2")  # seconds, not minutes: the optimum at 0.001 is the slow one


def compare_filters_table(quick: bool = False, eps_g: str = "1", delta_g: str = "1e-6",
                          tick: Callable[[str], None] | None = None):
    """Rounds allowed per filter for several homogeneous eps (the report's 'Filters side by side');
    ``tick(note)`` is called before each cell with what it computes (progress for a caller)."""
    eps_list = list(EPS_GRID_QUICK if quick else EPS_GRID)
    lineup = filter_lineup(eps_g, delta_g)
    headers = ["eps per round"] + [lab for lab, _, _ in lineup] + ["exact optimum (KOV15, fixed params)"]
    rows = []
    for eps in eps_list:
        row = [eps]
        for _, fid, budget in lineup:
            if tick:
                tick(f"eps={eps} {fid}")
            row.append(str(rounds_allowed(fid, budget, eps)))
        if tick:
            tick(f"eps={eps} exact optimum")
        row.append(str(rounds_allowed_optimal(eps, eps_g, delta_g)))
        rows.append(row)
    note = (f"Homogeneous rounds allowed at total budget (eps_g, delta_g) = ({eps_g}, {delta_g}); pure-DP rounds. "
            "The last column is the exact optimum for k-fold eps-randomized response with fixed parameters: no "
            "valid filter can exceed it.")
    return headers, rows, note
