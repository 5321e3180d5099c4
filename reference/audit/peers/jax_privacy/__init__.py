"""jax_privacy 2.0.0 accounting: ``DpsgdTrainingAccountant`` with its RDP and PLD configs (dp_accounting inside)
and ``calibrate_noise_multiplier``."""

from dpbounds.testing.declarations import Peer
from .._common import Q1_EPS_EXAMPLES, SGM_EPS, decl
from .. import _sgm_calibration as _C

PEER = Peer(
    "jax_privacy",
    dist="jax-privacy",
    module="jax_privacy",
    install="not installed; its own venv (docs/peers.md): python3.11 -m venv $DPBOUNDS_PEERS/jax_privacy && pee"
        "rs/jax_privacy/bin/pip install jax-privacy==2.0.0 (jax, optax, chex: CPU) ; then --python jax_privac"
        "y=$DPBOUNDS_PEERS/jax_privacy/bin/python",
)


def declarations():
    return [
        decl(PEER.name, "jax_privacy.accounting.DpsgdTrainingAccountant(RdpAccountantConfig).compute_epsilon",
             __name__ + ".calls:rdp_epsilon", "composition.sgm.eps", SGM_EPS,
             examples=({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5}, {"q": 0.01, "sigma": 1.0, "k": 1,
                                                                           "delta": 1e-5}, *Q1_EPS_EXAMPLES[2:5]),
             cites="Mironov, Talwar, Zhang 2019, arXiv:1908.10530v1 (dp_accounting RdpAccountant)", against="truth"),
        decl(PEER.name, "jax_privacy.accounting.DpsgdTrainingAccountant(PldAccountantConfig).compute_epsilon",
             __name__ + ".calls:pld_epsilon", "composition.sgm.eps", SGM_EPS,
             examples=({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5}, {"q": 0.01, "sigma": 1.0, "k": 1,
                                                                           "delta": 1e-5}, *Q1_EPS_EXAMPLES[2:5]),
             cites="Doroshenko et al. 2022, arXiv:2207.04380v1 (dp_accounting PLDAccountant)", against="truth"),
        decl(PEER.name, "jax_privacy.accounting.analysis.CachedExperimentAccountant(DpsgdTrainingAccountant("
             "RdpAccountantConfig)).compute_epsilon", __name__ + ".calls:cached_rdp_epsilon", "composition.sgm.eps",
             {**SGM_EPS, "k": (1, 1000)},
             examples=({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5}, {"q": 0.01, "sigma": 1.0, "k": 1,
                                                                           "delta": 1e-5}),
             cites="Mironov, Talwar, Zhang 2019, arXiv:1908.10530v1 (cached, documented as over-estimated)",
             against="truth"),
    ] + [d for cfg, call in (("RdpAccountantConfig", "calibrate_sigma"), ("PldAccountantConfig", "calibrate_sigma_pld"))
         for d in _C.calibration_declarations(PEER, f"jax_privacy.accounting.calibrate_noise_multiplier({cfg})",
                                              __name__ + f".calls:{call}")]
