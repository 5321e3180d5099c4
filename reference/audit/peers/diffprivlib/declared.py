"""diffprivlib's declarations beside its hand-written filter audit: ``audit()`` runs these on the dpbounds.testing
engine too (a module with ``declarations()`` would be run instead of ``audit()``, so they live here).

``BudgetAccountant.total()`` after k spends: its epsilon is KOV15 Thm 3.5's heterogeneous bound (the minimum of
basic composition and the two advanced forms, the registry's conversions.kov15.heterogeneous), its delta
1 - (1 - slack) prod(1 - delta_i) (the same theorem's delta).  ``remaining(k)`` after j spends of eps0: the largest
per-query eps whose k further spends keep that total within the budget (the same inverse as PyDP's port,
``python_dp.kov15_remaining``)."""

from __future__ import annotations

from fractions import Fraction

from dpbounds.testing.declarations import Peer

from .._common import decl

#: the package's peer (named again here, not imported from it: the package imports this module)
PEER = Peer("diffprivlib", dist="diffprivlib")

KOV15 = "Kairouz, Oh, Viswanath 2015, arXiv:1311.0776v4, Thm 3.5"


def total_delta(di, k, slack):
    """1 - (1 - slack) (1 - di)^k, exactly (the binary values of di and slack): KOV15 Thm 3.5's total delta of k
    (eps, di) spends at slack."""
    from dpbounds.audit.peers._refs import _enclosure
    v = 1 - (1 - Fraction(slack)) * (1 - Fraction(di)) ** int(k)
    return _enclosure(v, v)


total_delta.ref_id = "KOV15 Thm 3.5 delta: 1 - (1 - slack) prod(1 - delta_i)"  # type: ignore[attr-defined]


def declarations():
    from .._refs import BOUNDED_LAPLACE, BOUNDED_LAPLACE_EXAMPLES, HOLOHAN18, bounded_laplace_eff_eps
    from ..python_dp import kov15_remaining, kov15_total
    m = "dpbounds.audit.peers.diffprivlib.calls:"
    return [
        decl(PEER.name, "diffprivlib.accountant.BudgetAccountant.total [epsilon] (k spends of (eps, 0))",
             m + "total_epsilon", kov15_total, {"eps": (1e-3, 1.0), "k": (1, 1000), "slack": (1e-10, 0.1)},
             examples=({"eps": 0.1, "k": 100, "slack": 1e-5}, {"eps": 0.5, "k": 10, "slack": 1e-6},
                       {"eps": 0.01, "k": 1000, "slack": 1e-3}), cites=KOV15, against="cited"),
        decl(PEER.name, "diffprivlib.accountant.BudgetAccountant.total [delta] (k spends of (0.1, di))",
             m + "total_delta", total_delta, {"di": (1e-12, 1e-3), "k": (1, 1000), "slack": (0.0, 0.1)},
             examples=({"di": 1e-6, "k": 100, "slack": 1e-5}, {"di": 1e-4, "k": 10, "slack": 0.0}),
             cites=KOV15 + " (its total delta)", against="cited"),
        decl(PEER.name, "diffprivlib.accountant.BudgetAccountant.remaining [epsilon] (after j spends of eps0, for k)",
             m + "remaining_epsilon", kov15_remaining, {"budget": (0.1, 10.0), "eps0": (1e-3, 0.1), "j": (0, 20),
                                                        "k": (1, 100), "slack": (1e-10, 0.1)}, claim="lower",
             examples=({"budget": 1.0, "eps0": 0.05, "j": 4, "k": 10, "slack": 1e-5},
                       {"budget": 2.0, "eps0": 0.01, "j": 0, "k": 100, "slack": 1e-6}),
             cites=KOV15 + ", inverted in the per-query eps (the largest eps whose k spends keep the total within "
                   "the budget)", against="cited"),
        decl(PEER.name, "diffprivlib.mechanisms.laplace.LaplaceBoundedDomain.effective_epsilon (delta 0, domain "
             "[0, upper])", m + "bounded_laplace_effective_epsilon", bounded_laplace_eff_eps, BOUNDED_LAPLACE,
             fixed={"lower": 0.0}, claim="lower", examples=BOUNDED_LAPLACE_EXAMPLES, cites=HOLOHAN18,
             against="truth", check="Delta/b of the scale it calibrates: above the largest eps-DP one, less noise "
                                    "than eps-DP needs"),
    ]
