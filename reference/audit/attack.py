"""diffprivlib's BudgetAccountant used as a fully adaptive filter, attacked with the exact engine's adversaries.

For each budget and adversary the exact delta(eps_g) of the whole interaction is computed (reference.exact, certified)
and compared with the accountant's own delta budget: above it is a witness of unsoundness; below it means no
violation was found by that adversary (KOV's theorem covers fixed parameters only, so this is evidence, not proof).
"""

from __future__ import annotations

from fractions import Fraction

from .common import Comparison


def diffprivlib_filter_fn(eps_g: float, delta_g: float, slack: float):
    from .diffprivlib_adapter import DiffprivlibFilter

    def cont(history, candidate) -> bool:
        f = DiffprivlibFilter(eps_g, delta_g, slack)
        for e, d in history.params:
            if not f.cont(float(e), float(d)):
                return False
        return f.cont(float(candidate[0]), float(candidate[1]))

    return cont


def diffprivlib_attack(quick: bool = True) -> list[Comparison]:
    from dpbounds.exact import adversaries as adv
    from dpbounds.exact.worst_case import adaptive_delta
    k = 16 if quick else 30
    out = []
    for eg, dg, sl in ((1.0, 0.05, 0.05), (0.5, 0.1, 0.1)):
        for name, a in (("greedy(0.05 -> 0.3 when loss >= 0.1)", adv.greedy("0.05", "0.3", "0.1", k)),
                        ("random policy over {0.05, 0.2, 0.4}", adv.random_policy(["0.05", "0.2", "0.4"], k, seed=1)),
                        ("RRUV16 Algorithm 4 (eps = 0.1, C = 0.3)", adv.rruv_algorithm4("0.1", "0.3", 100, dg, k))):
            r = adaptive_delta(a, diffprivlib_filter_fn(eg, dg, sl), str(eg), max_rounds=k + 1)
            budget = Fraction(dg)
            if r.lo > budget:
                verdict, detail = "unsound", "the interaction's exact delta exceeds the accountant's own budget"
            else:
                verdict = "conservative"
                detail = (f"no violation found by this adversary (exact delta {float(r.hi):.3g} <= {dg}); KOV is a "
                          "fixed-parameter theorem, so this is evidence, not a proof")
            out.append(Comparison("diffprivlib", f"BudgetAccountant under adaptive adversary: {name}",
                                  {"eps_g": eg, "delta_g": dg, "slack": sl, "rounds": k},
                                  f"claims ({eg}, {dg})-DP", f"exact delta(eps_g) in [{float(r.lo):.3g}, "
                                  f"{float(r.hi):.3g}]", verdict, detail))
    return out
