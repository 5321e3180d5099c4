"""dp_accounting 0.6.0 on DP-SGD: RDP and PLD accountants on ``PoissonSampledDpEvent(q, GaussianDpEvent(sigma))``
and ``compute_epsilon`` at one order.  (Its zCDP conversion and pure-DP PLD are the older
``dpbounds.audit.dp_accounting_adapter``.)"""

from ._common import SGM_EPS, decl

PEER, DIST, MODULE = "dp_accounting", "dp-accounting", "dp_accounting"


def declarations():
    return [
        decl(PEER, "dp_accounting.rdp.RdpAccountant(PoissonSampledDpEvent(GaussianDpEvent)) RDP",
             "dp_accounting_calls:rdp_at_order", "mechanisms.sgm.rdp",
             {"q": (1e-6, 1.0), "sigma": (0.3, 100.0), "alpha": [1.25, 1.5, 2, 2.5, 3, 4.5, 8, 10.5, 32, 256]},
             examples=({"q": 0.01, "sigma": 1.0, "alpha": 4.5}, {"q": 0.001, "sigma": 0.8, "alpha": 1.25},
                       {"q": 0.1, "sigma": 0.7, "alpha": 10.5}),
             cites="Mironov, Talwar, Zhang 2019, arXiv:1908.10530v1, Sec. 3.3-3.4", against="cited"),
        decl(PEER, "dp_accounting.rdp.RdpAccountant.get_epsilon", "dp_accounting_calls:rdp_epsilon",
             "composition.sgm.eps", SGM_EPS, examples=({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5},
                                                        {"q": 0.01, "sigma": 1.0, "k": 1, "delta": 1e-5}),
             cites="MTZ19 + CKS20 Prop. 12", against="truth"),
        decl(PEER, "dp_accounting.pld.PLDAccountant.get_epsilon", "dp_accounting_calls:pld_epsilon",
             "composition.sgm.eps", SGM_EPS, examples=({"q": 0.01, "sigma": 1.0, "k": 1, "delta": 1e-5},
                                                        {"q": 1.0, "sigma": 0.5, "k": 100, "delta": 1e-8}),
             cites="Doroshenko et al. 2022, arXiv:2207.04380v1 (pessimistic connect-the-dots)", against="truth"),
        decl(PEER, "dp_accounting.pld.PLDAccountant.get_delta", "dp_accounting_calls:pld_delta",
             "composition.sgm.delta", {"q": (1e-6, 1.0), "sigma": (0.5, 50.0), "k": (1, 10000),
                                       "eps_g": (0.0, 10.0)},
             examples=({"q": 1.0, "sigma": 1.0, "k": 10, "eps_g": 3.0},),
             cites="Doroshenko et al. 2022", against="truth"),
    ]


WITNESSES: list = []
