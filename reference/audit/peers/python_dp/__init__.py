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
        decl(PEER.name, "pydp.ml.util.accountant.BudgetAccountant.spend", __name__ + ".calls:pure_filter",
             "rruv16.thm3_4.filter", {"eps_g": (0.01, 10.0)}, kind="filter", claim="lower",
             budget={"eps_g": 1.0}, costs=("eps",), examples=({"eps_g": 1.0, "spends": [{"eps": 0.1}] * 10},),
             cites="KOV15 Thm 3.5 at slack 0 = basic composition (RRUV16 Thm 3.4's filter)", against="truth"),
    ]
