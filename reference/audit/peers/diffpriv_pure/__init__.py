"""diffpriv-pure 0.1.0: its Gaussian calibration (the classical sigma = Delta sqrt(2 ln(1.25/delta))/eps of Dwork,
Roth 2014 Thm A.1, proved only for eps < 1, applied for every eps > 0), ``PrivacyBudget.advanced_composition``
(DRV10 without its n eps (e^eps - 1) term and without the slack delta) and ``PrivacyBudget`` as a filter."""

from dpbounds.testing.declarations import Peer
from .. import _refs
from .._common import decl

PEER = Peer(
    "diffpriv_pure",
    dist="diffpriv-pure",
    module="diffpriv_pure",
    install="not installed; its own venv (docs/peers.md): python3.11 -m venv $DPBOUNDS_PEERS/diffpriv_pure && p"
        "eers/diffpriv_pure/bin/pip install diffpriv-pure==0.1.0 ; then --python diffpriv_pure=$DPBOUNDS_PEERS/di"
        "ffpriv_pure/bin/python",
)


def declarations():
    return [
        decl(PEER.name, "diffpriv_pure.gaussian_sigma", __name__ + ".calls:gaussian_sigma", _refs.gauss_sigma_min,
             {"sensitivity": [1.0], "eps": (1e-3, 50.0), "delta": (1e-12, 0.5)},
             examples=({"sensitivity": 1.0, "eps": 50.0, "delta": 1e-10},
                       {"sensitivity": 1.0, "eps": 20.0, "delta": 1e-5},
                       {"sensitivity": 1.0, "eps": 10.0, "delta": 1e-5},
                       {"sensitivity": 1.0, "eps": 0.5, "delta": 1e-5}),
             cites="Balle, Wang 2018 (docstring); the formula is Dwork, Roth 2014 Thm A.1 (eps < 1 only)",
             against="truth"),
        decl(PEER.name, "diffpriv_pure.PrivacyBudget.advanced_composition", __name__ + ".calls:advanced_composition_eps",
             _refs.adv_comp_eps, {"n": (1, 10000), "ei": (1e-3, 2.0), "di": (1e-10, 1e-2)},
             examples=({"n": 100, "ei": 0.1, "di": 1e-5}, {"n": 50, "ei": 0.5, "di": 1e-3},
                       {"n": 10, "ei": 0.1, "di": 1e-6}),
             cites="Dwork, Rothblum, Vadhan 2010 (advanced composition), stated without its n eps (e^eps - 1) term",
             against="truth"),
        decl(PEER.name, "diffpriv_pure.PrivacyBudget.spend", __name__ + ".calls:pure_filter", "rruv16.thm3_4.filter",
             {"eps_g": (0.01, 10.0)}, kind="filter", claim="lower", budget={"eps_g": 1.0}, costs=("eps",),
             examples=({"eps_g": 1.0, "spends": [{"eps": 0.1}] * 10},),
             cites="basic composition (sum of eps_i <= total_epsilon; RRUV16 Thm 3.4's filter)", against="truth"),
        # ten spends of 0.1 pass (float sum 0.9999999999999999 <= 1.0) though the exact sum of float(0.1) x 10 is
        # 1 + 5.55e-17 > 1: an unsound-rounding acceptance
    ] + budget_declarations()


def _left(total, spend, n):
    """max(0, total - n spend) exactly (the binary values of the floats): the budget basic composition leaves."""
    from fractions import Fraction
    v = max(Fraction(0), Fraction(total) - int(n) * Fraction(spend))
    return _refs._enclosure(v, v)


def remaining_eps(total_epsilon, ei, n):
    """The epsilon left of total_epsilon after n spends of ei, exactly (basic composition)."""
    return _left(total_epsilon, ei, n)


def remaining_dl(total_delta, di, n):
    """The delta left of total_delta after n spends of di, exactly (basic composition)."""
    return _left(total_delta, di, n)


def budget_declarations():
    """``PrivacyBudget.remaining_epsilon`` / ``remaining_delta`` after n spends: larger than the exact remainder
    claims budget that basic composition (Dwork, Roth 2014, Thm 3.16) does not leave -- a lower claim."""
    m = __name__ + ".calls:"
    basic = "basic composition, Dwork, Roth 2014 (Foundations and Trends), Thm 3.16"
    return [
        decl(PEER.name, "diffpriv_pure.PrivacyBudget.remaining_epsilon (after n spends)", m + "remaining_epsilon",
             remaining_eps, {"total_epsilon": (0.5, 10.0), "ei": (1e-3, 0.2), "n": (1, 50)}, claim="lower",
             examples=({"total_epsilon": 1.0, "ei": 0.1, "n": 9}, {"total_epsilon": 2.0, "ei": 0.2, "n": 7}),
             cites=basic, against="truth"),
        decl(PEER.name, "diffpriv_pure.PrivacyBudget.remaining_delta (after n spends)", m + "remaining_delta",
             remaining_dl, {"total_delta": (1e-8, 0.1), "di": (1e-10, 1e-3), "n": (1, 50)}, claim="lower",
             examples=({"total_delta": 1e-5, "di": 1e-6, "n": 9}, {"total_delta": 0.01, "di": 1e-3, "n": 7}),
             cites=basic, against="truth"),
    ]
