"""dp-accelerator 0.1.0 (Rust): ``compute_epsilon_batch`` -- its subsampled-Gaussian RDP curve pushed through its
RDP -> (eps, delta) conversion (CKS20 Prop. 12: at q = 1 it matches the exact Gaussian RDP pushed through CKS20 to
1e-11), over ``DPSGDAccountant``'s orders (``epsilon_at_order`` runs one order, for probes)."""

from ._common import Q1_EPS_EXAMPLES, SGM_EPS, K1_EPS_EXAMPLES, decl

PEER, DIST, MODULE = "dp_accelerator", "dp-accelerator", "dp_accelerator"
NOT_INSTALLED = ("not installed; its own venv (docs/peers.md): python3.11 -m venv $DPBOUNDS_PEERS/dp_accelerator && "
                 "peers/dp_accelerator/bin/pip install dp-accelerator==0.1.0 ; then --python dp_accelerator=peer"
                 "s/dp_accelerator/bin/python")


def declarations():
    return [
        decl(PEER, "dp_accelerator.DPSGDAccountant.get_epsilon", "dp_accelerator_calls:epsilon",
             "composition.sgm.eps", SGM_EPS, examples=({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5},
                                                        {"q": 0.01, "sigma": 1.0, "k": 1, "delta": 1e-5},
                                                        *Q1_EPS_EXAMPLES, *K1_EPS_EXAMPLES[:2]),
             cites="Mironov, Talwar, Zhang 2019, arXiv:1908.10530v1; CKS20 arXiv:2004.00010v5 Prop. 12",
             against="truth"),
    ]


WITNESSES: list = []
