"""autodp 0.2.3.1 on DP-SGD: ``anaRDPacct.compose_poisson_subsampled_mechanisms`` with ``RDP_gaussian`` (its RDP
at an order, and its epsilon).  Its RDP -> DP conversion is the older ``dpbounds.audit.autodp_adapter``."""

from ._common import SGM_EPS, decl

PEER, DIST, MODULE = "autodp", "autodp", "autodp"


def declarations():
    return [
        decl(PEER, "autodp.rdp_acct.anaRDPacct.compose_poisson_subsampled_mechanisms + evalRDP", "autodp_calls:rdp",
             "mechanisms.sgm.rdp", {"q": (1e-6, 1.0), "sigma": (0.3, 100.0),
                                    "alpha": [1.5, 2, 2.5, 3, 4.5, 8, 10.5, 32, 64]},
             examples=({"q": 0.01, "sigma": 1.0, "alpha": 4.5}, {"q": 0.1, "sigma": 0.7, "alpha": 10.5},
                       {"q": 0.01, "sigma": 1.0, "alpha": 32}),
             cites="Zhu, Wang 2019, arXiv:1807.01647v2 (Poisson subsampling RDP, Thm 6)", against="truth"),
        decl(PEER, "autodp.rdp_acct.anaRDPacct.get_eps", "autodp_calls:epsilon", "composition.sgm.eps", SGM_EPS,
             examples=({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5}, {"q": 0.01, "sigma": 1.0, "k": 1,
                                                                           "delta": 1e-5}),
             cites="Zhu, Wang 2019 + Mironov 2017 Prop. 3", against="truth"),
    ]


WITNESSES: list = []
