"""PyDP (python-dp 1.1.5): Google's C++ Gaussian and Laplace calibrations and its ``BudgetAccountant`` (a copy of
diffprivlib's, KOV15 Thm 3.5 heterogeneous composition)."""

from dpbounds.testing.declarations import Peer
from .. import _refs
from .._common import decl

PEER = Peer(
    "python_dp",
    dist="python-dp",
    module="pydp",
    install="not installed; its own venv (docs/peers.md): python3.11 -m venv $DPBOUNDS_PEERS/python_dp && $DPBOUNDS_PEERS"
        "/python_dp/bin/pip install python-dp==1.1.5 numpy ; then --python python_dp=$DPBOUNDS_PEERS/python_dp/bi"
        "n/python",
)


def kov15_total(eps, k, slack):
    """KOV15 Thm 3.5's epsilon of k eps-DP mechanisms at slack delta-hat (registry conversions.kov15.heterogeneous,
    certified; as in diffprivlib's and PyDP's ``BudgetAccountant.total``)."""
    from fractions import Fraction

    from dpbounds.evaluation.evaluate import enclose
    return enclose("conversions.kov15.heterogeneous", {"dhat": Fraction(slack)}, eps=[Fraction(eps)] * int(k),
                   rel_tol=Fraction(1, 10**25))


kov15_total.ref_id = "conversions.kov15.heterogeneous"  # type: ignore[attr-defined]


def kov15_remaining(budget, eps0, j, k, slack):
    """The largest eps with which j spends of eps0 and k of eps stay within the budget under KOV15 Thm 3.5's total
    at slack delta-hat (registry conversions.kov15.heterogeneous, certified, increasing in each eps): certified
    bisection (``_refs._sup_below``).  A spent total already above the budget is outside the domain."""
    from fractions import Fraction

    from dpbounds.evaluation.evaluate import enclose
    from dpbounds.evaluation.numeric import fraction_to_arb
    from dpbounds.spec import DomainError
    B, e0, n0, n = _refs._q(budget), _refs._q(eps0), int(_refs._q(j)), int(_refs._q(k))

    def total(x):
        e = enclose("conversions.kov15.heterogeneous", {"dhat": Fraction(slack)},
                    eps=[e0] * n0 + [x] * n, rel_tol=Fraction(1, 10 ** 25))
        return fraction_to_arb(e.lo).union(fraction_to_arb(e.hi))
    if n0 and not total(Fraction(0)) < fraction_to_arb(B):
        raise DomainError("budget, eps0, j", (budget, eps0, j), "the spent total below the budget",
                          "python_dp.kov15_remaining")
    return _refs._sup_below(total, B, Fraction(0), B, "python_dp.kov15_remaining", rel=Fraction(1, 10 ** 25))


kov15_remaining.ref_id = "python_dp.kov15_remaining (conversions.kov15.heterogeneous inverted)"  # type: ignore[attr-defined]
kov15_remaining.cost_class = "opaque"  # type: ignore[attr-defined]  (a certified bisection: tenths of a second)


def declarations():
    return [
        decl(PEER.name, "pydp.algorithms.numerical_mechanisms.GaussianMechanism.std", __name__ + ".calls:gaussian_std",
             _refs.gauss_sigma_min, {"sensitivity": [1.0], "eps": (1e-3, 50.0), "delta": (1e-12, 0.5)},
             examples=({"sensitivity": 1.0, "eps": 1.0, "delta": 1e-5}, {"sensitivity": 1.0, "eps": 20.0,
                                                                         "delta": 1e-5}),
             cites="Balle, Wang 2018, arXiv:1805.06530v2, Thm 8 (analytic Gaussian)", against="cited"),
        decl(PEER.name, "pydp.algorithms.numerical_mechanisms.LaplaceMechanism.diversity",
             __name__ + ".calls:laplace_diversity", _refs.laplace_scale_min,
             {"sensitivity": (1e-3, 1e3), "eps": (1e-3, 50.0)},
             examples=({"sensitivity": 1.0, "eps": 0.1}, {"sensitivity": 3.0, "eps": 0.7}),
             cites="Dwork, McSherry, Nissim, Smith 2006 (b = Delta/eps)", against="cited"),
        decl(PEER.name, "pydp.ml.util.accountant.BudgetAccountant.total", __name__ + ".calls:total_epsilon",
             kov15_total, {"eps": (1e-3, 1.0), "k": (1, 1000), "slack": (1e-10, 0.1)},
             examples=({"eps": 0.1, "k": 100, "slack": 1e-5},),
             cites="Kairouz, Oh, Viswanath 2015, arXiv:1311.0776v4, Thm 3.5 (as in diffprivlib)", against="cited"),
        decl(PEER.name, "pydp.ml.util.accountant.BudgetAccountant.remaining", __name__ + ".calls:remaining_epsilon",
             kov15_remaining, {"budget": (0.1, 10.0), "eps0": (1e-3, 0.1), "j": (0, 20), "k": (1, 100),
                               "slack": (1e-10, 0.1)}, claim="lower",
             examples=({"budget": 1.0, "eps0": 0.05, "j": 4, "k": 10, "slack": 1e-5},
                       {"budget": 2.0, "eps0": 0.01, "j": 0, "k": 100, "slack": 1e-6}),
             cites="Kairouz, Oh, Viswanath 2015, arXiv:1311.0776v4, Thm 3.5 (as in diffprivlib), inverted in the "
                   "per-query eps", against="cited"),
        decl(PEER.name, "pydp.ml.mechanisms.laplace.LaplaceBoundedDomain.get_effective_epsilon (delta 0, domain "
             "[0, upper])", __name__ + ".calls:bounded_laplace_effective_epsilon", _refs.bounded_laplace_eff_eps,
             _refs.BOUNDED_LAPLACE, fixed={"lower": 0.0}, claim="lower", examples=_refs.BOUNDED_LAPLACE_EXAMPLES,
             cites=_refs.HOLOHAN18, against="truth",
             check="Delta/b of the scale it calibrates: above the largest eps-DP one, less noise than eps-DP needs"),
        decl(PEER.name, "pydp.ml.util.accountant.BudgetAccountant.spend", __name__ + ".calls:pure_filter",
             "rruv16.thm3_4.filter", {"eps_g": (0.01, 10.0)}, kind="filter", claim="lower",
             budget={"eps_g": 1.0}, costs=("eps",), examples=({"eps_g": 1.0, "spends": [{"eps": 0.1}] * 10},),
             cites="KOV15 Thm 3.5 at slack 0 = basic composition (RRUV16 Thm 3.4's filter)", against="truth"),
    ]
