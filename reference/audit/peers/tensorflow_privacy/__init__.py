"""TensorFlow Privacy 0.9.0 analysis, without TensorFlow (``calls._analysis`` loads the
analysis modules as files): ``compute_dp_sgd_privacy`` (RDP), the GDP CLT accountant, tree-aggregation RDP with
restarts, and ``compute_noise``.  Inputs as DP-SGD's (q, sigma, k, delta) with n = 10^6 examples."""

from dpbounds.testing.declarations import Peer
from .._common import Q1_EPS_EXAMPLES, SGM_EPS, decl

PEER = Peer(
    "tensorflow_privacy",
    dist="tensorflow-privacy",
    module="tensorflow_privacy",
    install="not installed; its own venv (docs/peers.md): python3.11 -m venv $DPBOUNDS_PEERS/tensorflow_privacy && /w"
        "ork/peers/tensorflow_privacy/bin/pip install --no-deps tensorflow-privacy==0.9.0 dp-accounting==0.6."
        "0 numpy scipy absl-py attrs mpmath dm-tree ; then --python tensorflow_privacy=$DPBOUNDS_PEERS/tensorflow"
        "_privacy/bin/python",
    probe_import=False,
)
_TF = SGM_EPS


from .. import _sgm_calibration as _C  # noqa: E402


def declarations():
    return [
        decl(PEER.name, "compute_dp_sgd_privacy_lib.compute_dp_sgd_privacy", __name__ + ".calls:dp_sgd_epsilon",
             "composition.sgm.eps", _TF, examples=({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5},
                                                     {"q": 0.01, "sigma": 1.0, "k": 1, "delta": 1e-5},
                                                     *Q1_EPS_EXAMPLES[2:5]),
             cites="Mironov, Talwar, Zhang 2019, arXiv:1908.10530v1 (via dp_accounting RdpAccountant)",
             against="truth", rate=8),
        decl(PEER.name, "gdp_accountant.compute_eps_poisson", __name__ + ".calls:gdp_epsilon",
             "composition.sgm.eps", _TF, examples=({"q": 0.01, "sigma": 1.0, "k": 1, "delta": 1e-5},
                                                     {"q": 0.1, "sigma": 1.0, "k": 1, "delta": 1e-5},
                                                     {"q": 0.001, "sigma": 0.8, "k": 1, "delta": 1e-6}),
             cites="Bu, Dong, Long, Su 2020, arXiv:1911.11607v3, Thm 3 (CLT)", against="truth"),
        decl(PEER.name, "tree_aggregation_accountant.compute_rdp_tree_restart", __name__ + ".calls:tree_restart_rdp",
             "mechanisms.sgm.rdp", {"q": [1.0], "sigma": (0.3, 100.0), "alpha": [2, 3.5, 8, 32]},
             examples=({"q": 1.0, "sigma": 1.0, "alpha": 2}, {"q": 1.0, "sigma": 0.7, "alpha": 3.5},
                       {"q": 1.0, "sigma": 2.0, "alpha": 8}, {"q": 1.0, "sigma": 5.0, "alpha": 32}),
             cites="Kairouz et al. 2021, arXiv:2103.00039v2, App. D (one leaf: the Gaussian mechanism)",
             against="cited"),
    ] + _C.calibration_declarations(PEER, "compute_noise_from_budget_lib.compute_noise", __name__ + ".calls:compute_noise_sigma") \
      + _C.calibration_declarations(PEER, "logistic_regression.multinomial_logistic.compute_dpsgd_noise_multiplier",
                                    __name__ + ".calls:dpsgd_noise_multiplier") + _gdp() + _tree()


#: TF Privacy's GDP functions take (epochs, noise_multi, n, batch_size): the CLT's q = batch_size / n and
#: t = epochs n / batch_size, passed as given (the reference evaluates the formula at the exact t)
_EPOCHS = {"n": [60000, 1000000], "batch_size": [64, 256, 1000], "epochs": (0.01, 100.0), "sigma": (0.5, 50.0)}
_EPOCHS_EX = ({"n": 60000, "batch_size": 256, "epochs": 15.0, "sigma": 1.1},
              {"n": 1000000, "batch_size": 1000, "epochs": 1.0, "sigma": 0.8})


def _gdp():
    """``gdp_accountant``: the CLT mu (Poisson, uniform) and the uniform eps as the cited formula (the CLT is
    asymptotic; compute_eps_poisson's declaration above judges it against the truth), the mu-GDP curve and its
    inverse against the truth."""
    from .. import _gdp_refs as G
    mod = "tensorflow_privacy.privacy.analysis.gdp_accountant."
    return [
        decl(PEER.name, mod + "compute_mu_poisson", __name__ + ".calls:gdp_mu_poisson", G.clt_mu_poisson_epochs,
             _EPOCHS, examples=_EPOCHS_EX, cites=G.BDLS20, against="cited"),
        decl(PEER.name, mod + "compute_mu_uniform", __name__ + ".calls:gdp_mu_uniform", G.clt_mu_uniform_epochs,
             _EPOCHS, examples=_EPOCHS_EX, cites=G.BDLS20 + " (uniform subsampling)", against="cited"),
        decl(PEER.name, mod + "compute_eps_uniform", __name__ + ".calls:gdp_eps_uniform", G.clt_eps_uniform_epochs,
             {**_EPOCHS, "delta": (1e-12, 0.1)}, examples=tuple({**e, "delta": 1e-5} for e in _EPOCHS_EX),
             cites=G.BDLS20 + " (uniform) + DRS22 Cor. 2.13", against="cited"),
    ] + G.gdp_conversion_declarations(PEER.name, mod, __name__)


def tree_zcdp_one_leaf(sigma):
    """1/(2 sigma^2), exactly: the zCDP of one leaf of the tree (the Gaussian mechanism on sensitivity 1; Bun,
    Steinke 2016, arXiv:1605.02065v1, Prop. 1.6)."""
    from fractions import Fraction

    from dpbounds.evaluation.enclosure import Enclosure
    v = 1 / (2 * Fraction(sigma) ** 2)
    return Enclosure(v, v, 130)


tree_zcdp_one_leaf.ref_id = "tensorflow_privacy.tree_zcdp_one_leaf (BS16 Prop. 1.6)"  # type: ignore[attr-defined]


def _tree():
    """A single tree of one leaf (total_steps = 1, max_participation = 1): the sample is in one node, the Gaussian
    mechanism -- where the reference is exact; deeper trees count the sample's nodes by dynamic programming, which
    dpbounds has no reference for."""
    mod = "tensorflow_privacy.privacy.analysis.tree_aggregation_accountant."
    return [
        decl(PEER.name, mod + "compute_rdp_single_tree (one leaf)", __name__ + ".calls:tree_single_rdp",
             "mechanisms.sgm.rdp", {"q": [1.0], "sigma": (0.3, 100.0), "alpha": [1.5, 2, 3.5, 8, 32]},
             examples=({"q": 1.0, "sigma": 1.0, "alpha": 2}, {"q": 1.0, "sigma": 2.0, "alpha": 8}),
             cites="Kairouz et al. 2021, arXiv:2103.00039v2, App. D (one leaf: the Gaussian mechanism)",
             against="cited"),
        decl(PEER.name, mod + "compute_zcdp_single_tree (one leaf)", __name__ + ".calls:tree_single_zcdp",
             tree_zcdp_one_leaf, {"sigma": (0.3, 100.0)}, examples=({"sigma": 1.0}, {"sigma": 0.7}),
             cites="Kairouz et al. 2021, arXiv:2103.00039v2, App. D; BS16 Prop. 1.6", against="cited"),
    ]
