"""fourier-accountant 0.12.11 (Koskela, Jalko, Honkela 2020): epsilon and delta of the Poisson-subsampled
Gaussian by FFT of the PLD, remove/add (``_R``) and substitute (``_S``) relations, the library's defaults
nx = 1e6, L = 20.  q = 1 raises OverflowError (log(1 - q)), so the domain stops at q = 0.99."""

from dpbounds.testing.declarations import Peer
from .._common import K1_EPS_EXAMPLES, decl

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
             {"q": (1e-6, 0.99), "sigma": (0.5, 50.0), "k": (1, 10000), "delta": (1e-12, 0.1)},
             examples=({"q": 0.01, "sigma": 1.0, "k": 1, "delta": 1e-5}, {"q": 0.1, "sigma": 1.0, "k": 1,
                                                                           "delta": 1e-5},
                       {"q": 0.01, "sigma": 0.8, "k": 1, "delta": 1e-6},
                       *K1_EPS_EXAMPLES),
             cites="Koskela, Jalko, Honkela 2020, arXiv:1906.03049v3, Thm 6 (error bound)", against="truth"),
        decl(PEER.name, "fourier_accountant.get_delta_R", __name__ + ".calls:delta_R", "composition.sgm.delta",
             {"q": (1e-6, 0.99), "sigma": (0.5, 50.0), "k": (1, 10000), "eps_g": (0.0, 10.0)},
             examples=({"q": 0.01, "sigma": 1.0, "k": 1, "eps_g": 0.5}, {"q": 0.1, "sigma": 1.0, "k": 1,
                                                                          "eps_g": 1.0},
                       {"q": 0.5, "sigma": 1.5, "k": 1, "eps_g": 1.0},
                       {"q": 0.2, "sigma": 0.8, "k": 1, "eps_g": 2.0}),
             cites="Koskela, Jalko, Honkela 2020, arXiv:1906.03049v3, Thm 6", against="truth"),
    ]
