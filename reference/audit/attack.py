"""Adaptive adversaries against a peer's budget accountant used as a fully adaptive filter.

For each budget and adversary the exact delta(eps_g) of the whole interaction is computed by the exact engine
(:func:`dpbounds.exact.worst_case.adaptive_delta`, certified; WRRW23 Lemma 11 makes conditional randomized
response the worst case of each round) and judged against the accountant's own delta budget: above it is a
witness that the accountant's claim is false for adaptively chosen parameters.  The delta-maximizing adversary
(:func:`dpbounds.exact.worst_case.optimal_adversary`, backward induction over a menu of eps) is the strongest
policy over its menu and horizon; the achieved delta is reported whether or not it exceeds the budget.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable

from dpbounds.audit.common import Comparison, judge_upper

#: a filter as the exact engine calls it: (history, candidate (eps, delta)) -> CONT?
FilterFactory = Callable[[float, float, float], Callable]


class _History:
    """The minimal history the filter factories read: the (eps, delta) of the rounds so far."""

    def __init__(self, params):
        self.params = params


def attack(peer: str, function: str, make_filter: FilterFactory, quick: bool = True) -> list[Comparison]:
    """Exact delta of adaptive interactions against ``make_filter(eps_g, delta_g, slack)``'s filter."""
    from dpbounds.exact import adversaries as adv
    from dpbounds.evaluation.evaluate import enclose
    from dpbounds.exact.worst_case import adaptive_delta, optimal_adversary
    out = []
    budgets = ((1.0, 0.05, 0.05), (0.5, 0.1, 0.1)) if quick else ((1.0, 0.05, 0.05), (0.5, 0.1, 0.1),
                                                                  (1.0, 1e-3, 1e-3))
    for eg, dg, sl in budgets:
        filt = make_filter(eg, dg, sl)
        k = 10 if quick else 14
        menu = ["0.05", "0.2", "0.4"]
        runs: list[tuple[str, Fraction, Fraction]] = []
        for name, a in (("greedy (0.05 -> 0.3 once the loss reaches 0.1)", adv.greedy("0.05", "0.3", "0.1", 3 * k)),
                        ("RRUV16 Algorithm 4 (eps = 0.1, C = 0.3)", adv.rruv_algorithm4("0.1", "0.3", 100, dg, 3 * k))):
            r = adaptive_delta(a, filt, str(eg), max_rounds=3 * k + 1)
            runs.append((name, r.lo, r.hi))
        _, r = optimal_adversary(menu, filt, str(eg), max_rounds=k)
        runs.append((f"delta-maximizing policy over eps in {{{', '.join(menu)}}}, {k} rounds", r.lo, r.hi))
        for eps in ("0.05", "0.2"):  # the homogeneous stream run to the accountant's own limit
            n = 0
            while n < 5000 and filt(_History([(eps, "0")] * n), (eps, "0")):
                n += 1
            if n:
                ex = enclose("conversions.kov15.exact", {"eps": eps, "k": n, "eps_g": Fraction(eg)},
                             rel_tol=Fraction(1, 10**12))
                runs.append((f"eps = {eps} every round until the accountant halts ({n} rounds; exact KOV15 "
                             "delta)", max(ex.lo, Fraction(0)), max(ex.hi, Fraction(0))))
        for name, lo, hi in runs:
            j = judge_upper(float(dg), lo, hi, role="truth", reference="dpbounds.exact.worst_case.adaptive_delta",
                            description="the exact delta(eps_g) of the adaptive interaction the accountant allows")
            if j.verdict in ("conservative", "exact"):
                j.verdict = "conservative"
                j.detail = (f"no violation by this adversary: achieved delta {float(hi):.4g} <= the budget {dg:g} "
                            f"({float(hi) / dg:.1%} of it); evidence, not proof")
            else:
                j.detail = (f"the interaction's exact delta {float(lo):.6g} exceeds the accountant's own budget "
                            f"{dg:g}: its claim is false under adaptively chosen parameters")
            out.append(Comparison(peer, function, f"adaptive adversary: {name}",
                                  {"eps_g": repr(eg), "delta_g": repr(dg), "slack": repr(sl)},
                                  peer_value=float(dg), peer_output=f"claims ({eg:g}, {dg:g})-DP", truth=j))
    return out
