"""diffprivlib: BudgetAccountant used as a privacy filter with adaptively chosen eps.

diffprivlib's accountant composes spent budgets with Kairouz-Oh-Viswanath's heterogeneous advanced composition
(slack > 0) or basic composition (slack = 0) -- theorems for *fixed* parameters.  Here it is used as a filter
(CONT iff ``check(eps, delta)`` passes, then ``spend``) and compared round by round with the valid fully
adaptive filters; then, with the exact worst-case engine, an adaptive adversary is run against it to find out
whether the interaction it allows can exceed its own budget.
"""

from __future__ import annotations

from .common import Comparison, PeerResult, available

PEER = "diffprivlib"


class DiffprivlibFilter:
    """diffprivlib.accountant.BudgetAccountant wrapped as a CONT/HALT filter."""

    def __init__(self, eps_g: float, delta_g: float, slack: float):
        from diffprivlib.accountant import BudgetAccountant
        self.acc = BudgetAccountant(epsilon=eps_g, delta=delta_g, slack=slack)

    def cont(self, eps: float, delta: float = 0.0) -> bool:
        from diffprivlib.utils import BudgetError
        try:
            self.acc.check(eps, delta)
        except BudgetError:
            return False
        self.acc.spend(eps, delta)
        return True


def rounds_allowed_diffprivlib(eps_g: float, delta_g: float, slack: float, eps: float, max_rounds: int = 100000) -> int:
    f = DiffprivlibFilter(eps_g, delta_g, slack)
    n = 0
    while n < max_rounds and f.cont(eps):
        n += 1
    return n


def audit(quick: bool = False) -> PeerResult:
    res = PeerResult(PEER)
    if not available("diffprivlib"):
        res.notes.append("diffprivlib: skipped (not installed; pip install 'dpbounds[audit]')")
        return res
    try:
        import diffprivlib  # noqa: F401
    except Exception as e:  # noqa: BLE001 - e.g. an incompatible scikit-learn
        res.notes.append(f"diffprivlib: error importing it ({type(e).__name__}: {str(e)[:120]})")
        return res
    res.notes.append("diffprivlib: BudgetAccountant as a filter (homogeneous streams) vs wrrw23.thm2 and the exact "
                     "optimum for fixed parameters; adaptive adversaries through reference.exact")
    from dpbounds.evaluation.evaluate import decide, prepare
    from dpbounds.spec import get
    wrrw = get("wrrw23.thm2")
    for eps_g, delta_g, slack, eps in (("1", "1e-6", "0", "0.01"), ("1", "1e-6", "1e-6", "0.01"),
                                       ("1", "1e-6", "1e-6", "0.05"), ("2", "1e-5", "1e-5", "0.1")):
        n_peer = rounds_allowed_diffprivlib(float(eps_g), float(delta_g), float(slack), float(eps), 20000)
        # the valid fully adaptive filter with the same total delta split as the peer's slack
        dp_ = slack if float(slack) > 0 else delta_g
        n_ref = 0
        lo, hi = 0, 20000
        while lo < hi:  # largest n with CONT (HALT is monotone in n for homogeneous streams)
            mid = (lo + hi + 1) // 2
            inp = prepare(wrrw, {"eps_g": eps_g, "delta_prime": dp_, "delta_dprime": "0"},
                          aggregates={"V": str(mid * float(eps) ** 2), "D": "0"})
            if decide(wrrw, inp):
                hi = mid - 1
            else:
                lo = mid
        n_ref = lo
        verdict = "exact" if n_peer == n_ref else ("conservative" if n_peer < n_ref else "unsound")
        detail = ("allows more rounds than the valid fully adaptive filter: sound for fixed parameters (KOV), "
                  "not proven for adaptively chosen ones" if verdict == "unsound" else "")
        res.comparisons.append(Comparison(
            PEER, "BudgetAccountant as a filter vs wrrw23.thm2 (rounds allowed)",
            {"eps_g": eps_g, "delta_g": delta_g, "slack": slack, "eps": eps}, str(n_peer), str(n_ref),
            "not-proven-adaptive" if verdict == "unsound" else verdict, detail))
    try:
        res.comparisons += _adaptive_attack(quick)
    except ImportError as e:
        res.notes.append(f"diffprivlib adaptive attack skipped: {e}")
    return res


def _adaptive_attack(quick: bool) -> list[Comparison]:
    from .attack import diffprivlib_attack
    return diffprivlib_attack(quick=quick)
