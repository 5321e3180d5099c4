"""dp-accelerator 0.1.0 (Rust): ``compute_epsilon_batch`` -- its subsampled-Gaussian RDP curve pushed through its
RDP -> (eps, delta) conversion (CKS20 Prop. 12, matched to 1e-11 at q = 1), over ``DPSGDAccountant``'s orders or a
single order."""

from ._common import SGM_EPS, decl

PEER, DIST, MODULE = "dp_accelerator", "dp-accelerator", "dp_accelerator"


def declarations():
    return [
        decl(PEER, "dp_accelerator.DPSGDAccountant.get_epsilon", "dp_accelerator_calls:epsilon",
             "composition.sgm.eps", SGM_EPS, examples=({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5},
                                                        {"q": 0.01, "sigma": 1.0, "k": 1, "delta": 1e-5}),
             cites="Mironov, Talwar, Zhang 2019, arXiv:1908.10530v1; CKS20 arXiv:2004.00010v5 Prop. 12",
             against="truth"),
        decl(PEER, "dp_accelerator.compute_epsilon_batch (one order)", "dp_accelerator_calls:epsilon_at_order",
             "composition.sgm.eps", {"q": (1e-6, 1.0), "sigma": (0.3, 100.0), "k": (1, 10000),
                                     "alpha": [1.5, 2, 3, 8, 32], "delta": (1e-12, 0.1)},
             examples=({"q": 1.0, "sigma": 0.7, "k": 1, "alpha": 1.5, "delta": 1e-5},
                       {"q": 1.0, "sigma": 1.0, "k": 1, "alpha": 3, "delta": 1e-5}),
             cites="Canonne, Kamath, Steinke 2020, arXiv:2004.00010v5, Prop. 12 at one order", against="truth"),
    ]


WITNESSES: list = []
