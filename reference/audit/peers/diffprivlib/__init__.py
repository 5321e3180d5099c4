"""diffprivlib: BudgetAccountant used as a privacy filter with adaptively chosen eps.

diffprivlib's accountant composes spent budgets with Kairouz-Oh-Viswanath's heterogeneous advanced composition
(slack > 0) or basic composition (slack = 0) -- theorems for *fixed* parameters.  Here it is used as a filter
(CONT iff ``check(eps, delta)`` passes, then ``spend``) and compared round by round with the valid fully
adaptive filters; then, with the exact worst-case engine, an adaptive adversary is run against it to find out
whether the interaction it allows can exceed its own budget.
"""

from __future__ import annotations

from fractions import Fraction

from dpbounds.audit.common import Comparison, PeerResult, available
from dpbounds.testing.declarations import Peer

PEER = Peer("diffprivlib", dist="diffprivlib")
F_ACC = "diffprivlib.accountant.BudgetAccountant.check + spend"


class DiffprivlibFilter:
    """diffprivlib.accountant.BudgetAccountant wrapped as a CONT/HALT filter, in this interpreter or (``python``)
    in the peer's own (``dpbounds.audit.peers.diffprivlib.calls``; only JSON crosses)."""

    def __init__(self, python: str | None = None) -> None:
        self.remote = None
        if python:
            from dpbounds.testing.declarations import Remote
            self.remote = Remote(python, __name__ + ".calls:budget_filter")

    def decisions(self, eps_g: float, delta_g: float, slack: float, rounds: list[tuple[float, float]]) -> list[bool]:
        """The accountant's decisions on ``rounds`` of (eps, delta) from a fresh start, up to its first HALT."""
        if self.remote is not None:  # the engine's remote filter protocol: the whole stream in one batch
            proxy = self.remote.stateful("filter", {"eps_g": eps_g, "delta_g": delta_g, "slack": slack})()
            return proxy.try_spend_stream([{"eps": e, "delta": d} for e, d in rounds])
        from dpbounds.audit.peers.diffprivlib.calls import budget_filter
        f, out = budget_filter(eps_g, delta_g, slack), []
        for e, d in rounds:
            out.append(f.try_spend(e, d))
            if not out[-1]:
                break
        return out

    def factory(self, eps_g: float, delta_g: float, slack: float):
        """The accountant as the exact engine's filter: (history, candidate) -> CONT?, replayed from scratch."""
        def cont(history, candidate) -> bool:
            rounds = [(float(e), float(d)) for e, d in history.params] + [(float(candidate[0]), float(candidate[1]))]
            ds = self.decisions(eps_g, delta_g, slack, rounds)
            return len(ds) == len(rounds) and all(ds)
        return cont

    def close(self) -> None:
        if self.remote is not None:
            self.remote.close()


def rounds_allowed_diffprivlib(eps_g: float, delta_g: float, slack: float, eps: float, max_rounds: int = 100000,
                               python: str | None = None) -> int:
    f = DiffprivlibFilter(python)
    try:
        ds = f.decisions(eps_g, delta_g, slack, [(eps, 0.0)] * max_rounds)
    finally:
        f.close()
    return next((i for i, d in enumerate(ds) if not d), len(ds))




def audit(quick: bool = False, python: str | None = None) -> PeerResult:
    """The audit in this interpreter, or with the peer in the interpreter ``python`` (``--python
    diffprivlib=PATH``: a venv with diffprivlib; only JSON crosses)."""
    res = PeerResult(PEER.name, functions=[F_ACC])
    if python:
        from dpbounds.audit.common import probe_version
        ok, version = probe_version(python, "diffprivlib", PEER.dist)
        if not ok:
            return res.skip(f"{version}; pip install diffprivlib (in that venv)")
        res.version = version
    elif not available("diffprivlib"):
        return res.skip("not installed; pip install 'dpbounds[audit]'")
    else:
        try:
            import diffprivlib  # noqa: F401
        except Exception as e:  # noqa: BLE001 - e.g. an incompatible scikit-learn
            return res.skip(f"cannot be imported: {type(e).__name__}: {str(e)[:120]}")
    res.notes.append("BudgetAccountant (KOV15 heterogeneous advanced composition, a theorem for FIXED parameters) "
                     "used as a filter: rounds allowed vs wrrw23.thm2 (a valid fully adaptive filter, a different "
                     "theorem: more rounds are 'unproven', not unsound); then the exact engine's adaptive "
                     "adversaries against it, with the exact delta they achieve")
    from dpbounds.audit.common import judge_decision
    from dpbounds.evaluation.evaluate import decide, prepare
    from dpbounds.spec import get
    wrrw = get("wrrw23.thm2")
    cases = (("1", "1e-6", "0", "0.01"), ("1", "1e-6", "1e-6", "0.01"), ("1", "1e-6", "1e-6", "0.05"),
             ("2", "1e-5", "1e-5", "0.1"), ("0.5", "1e-6", "1e-7", "0.01"), ("1", "1e-3", "1e-3", "0.02"))
    for eps_g, delta_g, slack, eps in cases:
        n_peer = rounds_allowed_diffprivlib(float(eps_g), float(delta_g), float(slack), float(eps), 20000, python)
        dp_ = slack if float(slack) > 0 else delta_g
        lo, hi = 0, 20000
        while lo < hi:  # largest n with CONT (HALT is monotone in n for homogeneous streams)
            mid = (lo + hi + 1) // 2
            inp = prepare(wrrw, {"eps_g": eps_g, "delta_prime": dp_, "delta_dprime": "0"},
                          aggregates={"V": Fraction(eps) ** 2 * mid, "D": "0"})
            if decide(wrrw, inp):
                hi = mid - 1
            else:
                lo = mid
        n_ref = lo
        # the round after the shorter run decides: the peer's CONT at round min(n)+1 vs the reference's
        r = min(n_peer, n_ref) + 1
        j = judge_decision(n_peer >= r, n_ref >= r, same_theorem=False, role="truth", reference="wrrw23.thm2",
                           description="WRRW23 Thm 2 (fully adaptive, delta'' = 0, delta' = the peer's slack)")
        j.detail += f" (peer allows {n_peer} rounds of eps = {eps}, wrrw23.thm2 {n_ref})"
        repro = ("from diffprivlib.accountant import BudgetAccountant\n"
                 f"acc = BudgetAccountant(epsilon={float(eps_g)!r}, delta={float(delta_g)!r}, slack={float(slack)!r})\n"
                 "n = 0\n"
                 "while True:\n"
                 f"    try: acc.check({float(eps)!r}, 0)\n"
                 "    except Exception: break\n"
                 f"    acc.spend({float(eps)!r}, 0); n += 1\n"
                 f"print(n)  # rounds diffprivlib allows; wrrw23.thm2 allows {n_ref}\n")
        res.comparisons.append(Comparison(
            PEER.name, F_ACC, "BudgetAccountant as a filter: rounds allowed (homogeneous stream)",
            {"eps_g": eps_g, "delta_g": delta_g, "slack": slack, "eps": eps}, peer_output=f"{n_peer} rounds",
            truth=j, reproducer=repro))
    _run_declared(res, quick, python)
    try:
        from dpbounds.audit.attack import attack
    except ImportError as e:
        res.notes.append(f"adaptive attack skipped: {e}")
        return res
    f = DiffprivlibFilter(python)
    try:
        res.comparisons += attack(PEER.name, F_ACC + " (adaptive)", f.factory, quick)
    finally:
        f.close()
    return res


def _run_declared(res: PeerResult, quick: bool, python: str | None) -> None:
    """The declarations of :mod:`.declared` (BudgetAccountant.total) on the dpbounds.testing engine, their rows and
    functions added to ``res``."""
    from dpbounds.audit.engine import audit_declarations

    from . import declared
    sub = audit_declarations(declared, quick=quick, python=python)
    res.functions = list(dict.fromkeys([*res.functions, *sub.functions]))
    res.comparisons += sub.comparisons
    res.notes += [n for n in sub.notes if n not in res.notes]
