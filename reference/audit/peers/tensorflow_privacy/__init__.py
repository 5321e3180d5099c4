"""TensorFlow Privacy 0.9.0 analysis, without TensorFlow (``calls._analysis`` loads the
analysis modules as files): ``compute_dp_sgd_privacy`` (RDP), the GDP CLT accountant, tree-aggregation RDP with
restarts, and ``compute_noise``.  Inputs as DP-SGD's (q, sigma, k, delta) with n = 10^6 examples."""

from dpbounds.testing.declarations import Peer
from .._common import Q1_EPS_EXAMPLES, decl

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
_TF = {"q": (1e-4, 1.0), "sigma": (0.5, 50.0), "k": (1, 10000), "delta": (1e-12, 0.1)}


from .. import _sgm_calibration as _C  # noqa: E402


def declarations():
    return [
        decl(PEER.name, "compute_dp_sgd_privacy_lib.compute_dp_sgd_privacy", __name__ + ".calls:dp_sgd_epsilon",
             "composition.sgm.eps", _TF, examples=({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5},
                                                     {"q": 0.01, "sigma": 1.0, "k": 1, "delta": 1e-5},
                                                     *Q1_EPS_EXAMPLES[2:5]),
             cites="Mironov, Talwar, Zhang 2019, arXiv:1908.10530v1 (via dp_accounting RdpAccountant)",
             against="truth"),
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
    ] + _C.calibration_declarations(PEER, "compute_noise_from_budget_lib.compute_noise", __name__ + ".calls:compute_noise_sigma")
