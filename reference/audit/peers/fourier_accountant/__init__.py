"""fourier-accountant 0.12.11 (Koskela, Jalko, Honkela 2020): epsilon and delta of the Poisson-subsampled
Gaussian by FFT of the PLD, remove/add (``_R``) and substitute (``_S``) relations, the library's defaults
nx = 1e6, L = 20.  q = 1 raises OverflowError (log(1 - q)), so the domain stops at q = 0.99."""

from dpbounds.testing.declarations import Peer
from .._common import K1_EPS_EXAMPLES, SGM_DELTA, SGM_EPS, decl

PEER = Peer(
    "fourier_accountant",
    dist="fourier-accountant",
    module="fourier_accountant",
    install="not installed; its own venv (docs/peers.md): python3.11 -m venv $DPBOUNDS_PEERS/fourier_accountant && /w"
        "ork/peers/fourier_accountant/bin/pip install fourier-accountant==0.12.11 ; then --python fourier_acc"
        "ountant=$DPBOUNDS_PEERS/fourier_accountant/bin/python",
)


def declarations():
    return [
        decl(PEER.name, "fourier_accountant.get_epsilon_R", __name__ + ".calls:epsilon_R", "composition.sgm.eps",
             SGM_EPS,
             examples=({"q": 0.01, "sigma": 1.0, "k": 1, "delta": 1e-5}, {"q": 0.1, "sigma": 1.0, "k": 1,
                                                                           "delta": 1e-5},
                       {"q": 0.01, "sigma": 0.8, "k": 1, "delta": 1e-6},
                       *K1_EPS_EXAMPLES),
             cites="Koskela, Jalko, Honkela 2020, arXiv:1906.03049v3, Thm 6 (error bound)", against="truth"),
        decl(PEER.name, "fourier_accountant.get_delta_R", __name__ + ".calls:delta_R", "composition.sgm.delta",
             SGM_DELTA,
             examples=({"q": 0.01, "sigma": 1.0, "k": 1, "eps_g": 0.5}, {"q": 0.1, "sigma": 1.0, "k": 1,
                                                                          "eps_g": 1.0},
                       {"q": 0.5, "sigma": 1.5, "k": 1, "eps_g": 1.0},
                       {"q": 0.2, "sigma": 0.8, "k": 1, "eps_g": 2.0}),
             cites="Koskela, Jalko, Honkela 2020, arXiv:1906.03049v3, Thm 6", against="truth"),
    ] + more_declarations()


def substitution_delta(q, sigma, k, eps_g):
    """Certified delta(eps_g) of k Poisson-subsampled Gaussian steps under substitution (composition.sgm.delta,
    relation substitution: dpbounds' dominating pair, proofs_check composition.sgm.substitution_poisson)."""
    from fractions import Fraction

    from dpbounds.evaluation.evaluate import enclose
    return enclose("composition.sgm.delta", {"q": Fraction(q), "sigma": Fraction(sigma), "k": int(k),
                                             "eps_g": Fraction(eps_g), "relation": "substitution",
                                             "sampling": "poisson"}, rel_tol=1e-6)


def more_declarations():
    """The substitute relation (``_S``).  (The heterogeneous ``compute_*_var.get_*`` functions are deprecated and
    raise AttributeError under numpy 2 -- np.VisibleDeprecationWarning is gone -- before computing: not declared.)"""
    from dpbounds.audit.peers import _sgm_calibration as C
    m = __name__ + ".calls:"
    sub_dom = {**C.SUB_DOMAIN, "q": (0.01, 0.99)}
    sub_ex = tuple(e for e in C.SUB_EXAMPLES if e["q"] < 1)
    sub_dex = ({"q": 0.1, "sigma": 1.0, "k": 1, "eps_g": 1.0}, {"q": 0.5, "sigma": 2.0, "k": 2, "eps_g": 0.5})
    sub_ddom = {**{k: v for k, v in sub_dom.items() if k != "delta"}, "eps_g": (0.0, 5.0)}
    kjh = "Koskela, Jalko, Honkela 2020, arXiv:1906.03049v3, Thm 6"
    return [
        decl(PEER.name, "fourier_accountant.get_epsilon_S", m + "epsilon_S", C.substitution_eps, sub_dom,
             examples=sub_ex, cites=kjh + "; " + C.CITES_SUB, against="truth"),
        decl(PEER.name, "fourier_accountant.get_delta_S", m + "delta_S", substitution_delta, sub_ddom,
             examples=sub_dex, cites=kjh + "; " + C.CITES_SUB, against="truth"),
    ]
