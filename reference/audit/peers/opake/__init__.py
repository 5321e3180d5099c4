"""opake-accounting 0.16.1 (Rust PLD): epsilon, delta and type-II error of the Poisson-subsampled Gaussian.  Runs
in its own interpreter: ``--python opake=$DPBOUNDS_PEERS/opake/bin/python``."""

from dpbounds.testing.declarations import Peer
from .. import _refs
from .._common import FPR, Q1_EPS_EXAMPLES, SGM_EPS, decl

PEER = Peer(
    "opake",
    dist="opake-accounting",
    module="opake",
    install="not installed; its own venv (docs/peers.md): python3.13 -m venv "
        "peers/opake && $DPBOUNDS_PEERS/opake/bin/pip install opake-accounting==0.16.1 ; then --python opake=/wor"
        "k/peers/opake/bin/python",
)


def declarations():
    return [
        decl(PEER.name, "opake.api.accounting.core.opake_accounting gaussian_pld + poisson_pld, Pld.epsilon_at",
             __name__ + ".calls:epsilon", "composition.sgm.eps", SGM_EPS,
             examples=({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5}, {"q": 0.01, "sigma": 1.0, "k": 1,
                                                                           "delta": 1e-5}, *Q1_EPS_EXAMPLES[2:5]),
             cites="Doroshenko et al. 2022, arXiv:2207.04380v1 (PLD)", against="truth"),
        decl(PEER.name, "opake_accounting Pld.delta_at", __name__ + ".calls:delta", "composition.sgm.delta",
             {"q": (1e-6, 1.0), "sigma": (0.5, 50.0), "k": (1, 10000), "eps_g": (0.0, 10.0)},
             examples=({"q": 1.0, "sigma": 1.0, "k": 10, "eps_g": 3.0}, {"q": 1.0, "sigma": 2.0, "k": 10, "eps_g": 1.0},
                       {"q": 1.0, "sigma": 1.0, "k": 100, "eps_g": 5.0}),
             cites="Doroshenko et al. 2022 (PLD)", against="truth"),
        decl(PEER.name, "opake_accounting Pld.beta_at", __name__ + ".calls:beta", _refs.sgm_tradeoff,
             {"q": [1.0], "sigma": (0.5, 20.0), "k": (1, 1000), "fpr": FPR}, claim="lower",
             examples=({"q": 1.0, "sigma": 1.0, "k": 10, "fpr": 1e-4}, {"q": 1.0, "sigma": 2.0, "k": 10, "fpr": 0.1}),
             cites="DRS19 Prop. 2.12 (PLD -> trade-off)", against="truth"),
    ]
