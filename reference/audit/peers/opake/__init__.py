"""opake-accounting 0.16.1 (Rust PLD): epsilon, delta and type-II error of the Poisson-subsampled Gaussian.  Runs
in its own interpreter: ``--python opake=$DPBOUNDS_PEERS/opake/bin/python``."""

from dpbounds.testing.declarations import Peer
from .. import _refs
from .._common import DISCRETIZED, FPR, Q1_EPS_EXAMPLES, decl, sgm_domain

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
             __name__ + ".calls:epsilon", "composition.sgm.eps", sgm_domain("delta", **DISCRETIZED),
             examples=({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5}, {"q": 0.01, "sigma": 1.0, "k": 1,
                                                                           "delta": 1e-5}, *Q1_EPS_EXAMPLES[2:5]),
             cites="Doroshenko et al. 2022, arXiv:2207.04380v1 (PLD)", against="truth", rate=1),
        decl(PEER.name, "opake_accounting Pld.delta_at", __name__ + ".calls:delta", "composition.sgm.delta",
             sgm_domain("eps_g", **DISCRETIZED),
             examples=({"q": 1.0, "sigma": 1.0, "k": 10, "eps_g": 3.0}, {"q": 1.0, "sigma": 2.0, "k": 10, "eps_g": 1.0},
                       {"q": 1.0, "sigma": 1.0, "k": 100, "eps_g": 5.0}),
             cites="Doroshenko et al. 2022 (PLD)", against="truth", rate=2),
        decl(PEER.name, "opake_accounting Pld.beta_at", __name__ + ".calls:beta", _refs.sgm_tradeoff,
             {"q": [1.0], "sigma": (0.5, 20.0), "k": (1, 1000), "fpr": FPR}, claim="lower",
             examples=({"q": 1.0, "sigma": 1.0, "k": 10, "fpr": 1e-4}, {"q": 1.0, "sigma": 2.0, "k": 10, "fpr": 0.1}),
             cites="DRS19 Prop. 2.12 (PLD -> trade-off)", against="truth"),
    ] + _eps_delta()


def kfold_eps_delta(eps, delta, k, eps_g):
    """The exact delta(eps_g) of k-fold (eps, delta)-DP: 1 - (1 - delta)^k (1 - D(eps_g)) with D the k-fold
    eps-randomized-response curve (Kairouz, Oh, Viswanath 2015, arXiv:1311.0776v4, Thm 3.3; D is the registry's
    conversions.kov15.exact), increasing in D: exact rationals around D's certified enclosure."""
    from fractions import Fraction

    from dpbounds.evaluation.enclosure import Enclosure
    from dpbounds.evaluation.evaluate import enclose
    d = enclose("conversions.kov15.exact", {"eps": Fraction(eps), "k": int(k), "eps_g": Fraction(eps_g)},
                rel_tol=Fraction(1, 10**30))
    p = (1 - Fraction(delta)) ** int(k)
    return Enclosure(1 - p * (1 - d.lo), 1 - p * (1 - d.hi), 130)


kfold_eps_delta.ref_id = "KOV15 Thm 3.3 (k-fold (eps, delta), via conversions.kov15.exact)"  # type: ignore[attr-defined]


def _eps_delta():
    """``eps_delta(eps, delta)`` (the fixed (eps, delta) process of the core API, no torch needed): its PLD
    (``EpsDelta.pld``) and the k-fold one (``repeated_pld``, DpProcess's), queried with ``delta_at``."""
    return [
        decl(PEER.name, "opake.api.accounting.core.mechanisms._eps_delta.eps_delta + EpsDelta.pld / repeated_pld "
             "[Pld.delta_at]", __name__ + ".calls:eps_delta_delta", kfold_eps_delta,
             {"eps": (0.01, 3.0), "delta": (0.0, 1e-3), "k": (1, 50), "eps_g": (0.0, 10.0)},
             examples=({"eps": 1.0, "delta": 1e-6, "k": 1, "eps_g": 0.5}, {"eps": 1.0, "delta": 1e-6, "k": 10,
                                                                           "eps_g": 3.0},
                       {"eps": 0.5, "delta": 0.0, "k": 4, "eps_g": 1.0}),
             cites="Kairouz, Oh, Viswanath 2015, arXiv:1311.0776v4, Thm 3.3 (the optimal k-fold composition)",
             against="truth"),
        decl(PEER.name, "opake.api.accounting.core.composition._repeated.Repeated(eps_delta(eps, delta), k).pld "
             "[Pld.delta_at]", __name__ + ".calls:repeated_delta", kfold_eps_delta,
             {"eps": (0.01, 3.0), "delta": (0.0, 1e-3), "k": (1, 50), "eps_g": (0.0, 10.0)},
             examples=({"eps": 1.0, "delta": 1e-6, "k": 10, "eps_g": 3.0}, {"eps": 0.5, "delta": 0.0, "k": 4,
                                                                           "eps_g": 1.0}),
             cites="Kairouz, Oh, Viswanath 2015, arXiv:1311.0776v4, Thm 3.3 (the optimal k-fold composition)",
             against="truth"),
        decl(PEER.name, "opake.api.accounting.core.composition._cached.CachedProcess.pld / "
             "opake.api.accounting.core.composition._cached.CachedProcess.repeated_pld (cached(eps_delta(eps, "
             "delta))) [Pld.delta_at]", __name__ + ".calls:cached_delta", kfold_eps_delta,
             {"eps": (0.01, 3.0), "delta": (0.0, 1e-3), "k": (1, 50), "eps_g": (0.0, 10.0)},
             examples=({"eps": 1.0, "delta": 1e-6, "k": 1, "eps_g": 0.5}, {"eps": 1.0, "delta": 1e-6, "k": 10,
                                                                           "eps_g": 3.0}),
             cites="Kairouz, Oh, Viswanath 2015, arXiv:1311.0776v4, Thm 3.3 (the optimal k-fold composition)",
             against="truth"),
        decl(PEER.name, "opake.api.accounting.core.composition._composed.Composed(eps_delta(eps), eps_delta(eps2)).pld"
             " [Pld.delta_at]", __name__ + ".calls:composed_delta", "conversions.mv16.exact",
             {"eps": (0.01, 3.0), "k": [1], "eps2": (0.01, 3.0), "k2": [1], "eps_g": (0.0, 6.0)},
             examples=({"eps": 1.0, "k": 1, "eps2": 0.5, "k2": 1, "eps_g": 0.7},
                       {"eps": 2.0, "k": 1, "eps2": 0.1, "k2": 1, "eps_g": 1.0}),
             cites="Murtagh, Vadhan, TCC 2016, arXiv:1507.03113 (revision unchecked; the optimal composition, "
                   "pure case; KOV15's randomized response is the worst case)", against="truth"),
    ]
