"""jax_privacy 2.0.0 accounting: ``DpsgdTrainingAccountant`` with its RDP and PLD configs (dp_accounting inside)
and ``calibrate_noise_multiplier``."""

from fractions import Fraction

from dpbounds.testing.declarations import Peer
from .._common import DISCRETIZED, DISCRETIZED_STEPS, Q1_EPS_EXAMPLES, SGM_EPS, batched, decl, sgm_domain
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
             __name__ + ".calls:rdp_epsilon", "composition.sgm.eps", batched(SGM_EPS),
             examples=({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5}, {"q": 0.01, "sigma": 1.0, "k": 1,
                                                                           "delta": 1e-5}, *Q1_EPS_EXAMPLES[2:5]),
             cites="Mironov, Talwar, Zhang 2019, arXiv:1908.10530v1 (dp_accounting RdpAccountant)", against="truth"),
        decl(PEER.name, "jax_privacy.accounting.DpsgdTrainingAccountant(PldAccountantConfig).compute_epsilon",
             __name__ + ".calls:pld_epsilon", "composition.sgm.eps",
             batched(sgm_domain("delta", DISCRETIZED_STEPS, **DISCRETIZED)),
             examples=({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5}, {"q": 0.01, "sigma": 1.0, "k": 1,
                                                                           "delta": 1e-5}, *Q1_EPS_EXAMPLES[2:5],
                       # the DP-SGD search's finding: 0.3399890 where the certified eps is in [0.3401457, 0.3403473]
                       # (dp_accounting's PLD under-report at tiny delta, inherited)
                       {"q": 0.001, "sigma": 1.2, "k": 1000, "delta": 1e-12}),
             cites="Doroshenko et al. 2022, arXiv:2207.04380v1 (dp_accounting PLDAccountant)", against="truth"),
        decl(PEER.name, "jax_privacy.accounting.analysis.CachedExperimentAccountant(DpsgdTrainingAccountant("
             "RdpAccountantConfig)).compute_epsilon", __name__ + ".calls:cached_rdp_epsilon", "composition.sgm.eps",
             batched({**SGM_EPS, "k": (1, 1000)}),
             examples=({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5}, {"q": 0.01, "sigma": 1.0, "k": 1,
                                                                           "delta": 1e-5}),
             cites="Mironov, Talwar, Zhang 2019, arXiv:1908.10530v1 (cached, documented as over-estimated)",
             against="truth"),
    ] + [d for cfg, call in (("RdpAccountantConfig", "calibrate_sigma"), ("PldAccountantConfig", "calibrate_sigma_pld"))
         for d in _C.calibration_declarations(PEER, f"jax_privacy.accounting.calibrate_noise_multiplier({cfg})",
                                              __name__ + f".calls:{call}")] + mc_declarations()


# ---------------------------------------------------------------------------------------------------- Monte Carlo
# verification (jax_privacy.experimental.monte_carlo.delta_calculation)

_MC = "jax_privacy.experimental.monte_carlo.delta_calculation."


def mc_rr_delta(eps, eps_g):
    """delta(eps_g) of binary randomized response at eps from its privacy-loss distribution as the call passes it:
    samples +eps and -eps with counts w = float64(e^eps) and 1 (the hockey-stick divergence of RR_eps is the
    average of max(0, 1 - e^{eps_g - L}) at the weights e^eps : 1, KOV15 Thm 3.3 at k = 1; with the weight the call
    rounds, the exact value of that average, so that the call's rounding of e^eps is not charged to the peer).  In
    arb."""
    import math

    from dpbounds.audit.peers._refs import _arb_enclosure, _q
    from dpbounds.evaluation.numeric import arb_prec, fraction_to_arb
    e, g = _q(eps), _q(eps_g)
    w = Fraction(math.exp(float(eps)))
    from flint import arb
    with arb_prec(256):
        G, E = fraction_to_arb(g), fraction_to_arb(e)
        tot = arb(0)
        for loss, L, weight in ((e, E, w), (-e, -E, Fraction(1))):
            if loss > g:
                tot += fraction_to_arb(weight) * (1 - (G - L).exp())
        return _arb_enclosure(tot / fraction_to_arb(w + 1), "jax_privacy.mc_rr_delta")


mc_rr_delta.ref_id = "jax_privacy.mc_rr_delta (RR's PLD at the weights passed)"  # type: ignore[attr-defined]


def mc_declarations():
    """The Monte Carlo verification's estimator on randomized response's exact privacy-loss distribution (samples
    +-eps with counts e^eps : 1, the documented counts form) against RR's exact curve."""
    m = __name__ + ".calls:"
    return [
        decl(PEER.name, _MC + "delta_from_epsilon_and_samples (randomized response's exact PLD as samples + counts)",
             m + "mc_delta_rr", mc_rr_delta, {"eps": (0.01, 10.0), "eps_g": (0.0, 10.0)},
             examples=({"eps": 1.0, "eps_g": 0.5}, {"eps": 3.0, "eps_g": 1.0}, {"eps": 0.2, "eps_g": 0.0}),
             cites="KOV15 arXiv:1311.0776v4 Thm 3.3 (k = 1): the hockey-stick divergence of RR_eps, at the weights "
                   "passed", against="cited",
             check="delta(eps_g) from privacy-loss samples weighted by their exact probabilities"),
    ]
