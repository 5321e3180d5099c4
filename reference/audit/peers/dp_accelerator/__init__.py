"""dp-accelerator 0.1.0 (Rust): ``compute_epsilon_batch`` -- its subsampled-Gaussian RDP curve pushed through its
RDP -> (eps, delta) conversion (CKS20 Prop. 12: at q = 1 it matches the exact Gaussian RDP pushed through CKS20 to
1e-11), over ``DPSGDAccountant``'s orders (``epsilon_at_order`` runs one order, for probes); and
``DPSGDAccountant.get_rdp_curve``, the public RDP curve it returns, against the subsampled Gaussian's RDP
(Mironov, Talwar, Zhang 2019): it returns alpha q^2 / (2 sigma^2) per step at every order (0.0016 at q 0.01, sigma 1,
alpha 32, where the true RDP is 11.2463: mpmath from the binomial expansion, and dp_accounting, agree)."""

from dpbounds.testing.declarations import Peer
from .. import _refs
from .._common import Q1_EPS_EXAMPLES, SGM_EPS, K1_EPS_EXAMPLES, decl

PEER = Peer(
    "dp_accelerator",
    dist="dp-accelerator",
    module="dp_accelerator",
    install="not installed; its own venv (docs/peers.md): python3.11 -m venv $DPBOUNDS_PEERS/dp_accelerator && "
        "peers/dp_accelerator/bin/pip install dp-accelerator==0.1.0 ; then --python dp_accelerator=peer"
        "s/dp_accelerator/bin/python",
)
#: sampling rates b / 10**6 the public API's (batch, dataset) sizes give exactly
Q_LIST = [1e-4, 1e-3, 0.01, 0.05, 0.1, 0.2, 0.25, 0.5, 1.0]
#: orders of DPSGDAccountant's curve (np.linspace(1.01, 8, 50), 8..63, linspace(65, 512, 10) as int) searched
RDP_ORDERS = [1.01, 8.0, 9.0, 16.0, 32.0, 63.0, 65.0, 114.0, 512.0]


def declarations():
    return [
        decl(PEER.name, "dp_accelerator.DPSGDAccountant.get_epsilon", __name__ + ".calls:epsilon",
             "composition.sgm.eps", SGM_EPS, examples=({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5},
                                                        {"q": 0.01, "sigma": 1.0, "k": 1, "delta": 1e-5},
                                                        *Q1_EPS_EXAMPLES, *K1_EPS_EXAMPLES[:2]),
             cites="Mironov, Talwar, Zhang 2019, arXiv:1908.10530v1; CKS20 arXiv:2004.00010v5 Prop. 12",
             against="truth"),
        decl(PEER.name, "dp_accelerator.DPSGDAccountant.get_rdp_curve", __name__ + ".calls:rdp_curve",
             "mechanisms.sgm.rdp", {"q": [1e-3, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0], "sigma": (0.5, 50.0),
                                    "alpha": RDP_ORDERS},
             examples=({"q": 0.01, "sigma": 1.0, "alpha": 32.0}, {"q": 1.0, "sigma": 1.0, "alpha": 8.0}),
             cites="Mironov, Talwar, Zhang 2019, arXiv:1908.10530v1, Sec. 3.3 (its docstring: RDP(alpha) = "
                   "alpha q^2 / (2 sigma^2) * steps)", against="truth"),
    ] + public_declarations()


def public_declarations():
    """The other public entry points to the same computation: ``get_epsilon_batch`` and the JAX-Privacy-shaped
    ``jax_privacy.compute_epsilon`` / ``compute_rdp_curve`` (batch and dataset sizes: q = b / 10**6)."""
    dom = {**SGM_EPS, "q": Q_LIST}
    ex = ({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5}, {"q": 0.01, "sigma": 1.0, "k": 1, "delta": 1e-5},
          *K1_EPS_EXAMPLES[:2])
    cites = "Mironov, Talwar, Zhang 2019, arXiv:1908.10530v1; CKS20 arXiv:2004.00010v5 Prop. 12"
    out = [decl(PEER.name, f"dp_accelerator.{f}", __name__ + f".calls:{c}", "composition.sgm.eps", dom,
                examples=ex, cites=cites, against="truth")
           for f, c in (("DPSGDAccountant.get_epsilon_batch", "epsilon_batch"),
                        ("jax_privacy.compute_epsilon", "jax_privacy_epsilon"))]
    out.append(decl(PEER.name, "dp_accelerator.jax_privacy.compute_rdp_curve", __name__ + ".calls:jax_privacy_rdp_curve",
                    _refs.sgm_rdp_k, {"q": Q_LIST, "sigma": (0.5, 50.0), "k": (1, 1000), "alpha": RDP_ORDERS},
                    examples=({"q": 0.01, "sigma": 1.0, "k": 1, "alpha": 32.0},
                              {"q": 1.0, "sigma": 1.0, "k": 10, "alpha": 8.0}),
                    cites="Mironov, Talwar, Zhang 2019, arXiv:1908.10530v1, Sec. 3.3; composition: Mironov 2017, "
                          "arXiv:1702.07476v3, Prop. 1", against="truth"))
    return out
