"""prv_accountant 0.2.0 on the Poisson-subsampled Gaussian (its Gaussian and pure-DP paths are the older
``dpbounds.audit.prv_accountant_adapter``)."""

from ._common import SGM_EPS, decl

PEER, DIST, MODULE = "prv_accountant", "prv-accountant", "prv_accountant"


def declarations():
    return [
        decl(PEER, "prv_accountant.PRVAccountant(PoissonSubsampledGaussianMechanism).compute_epsilon [upper]",
             "prv_accountant_calls:epsilon_upper", "composition.sgm.eps", SGM_EPS,
             examples=({"q": 1.0, "sigma": 1.0, "k": 100, "delta": 1e-5}, {"q": 0.01, "sigma": 0.8, "k": 1,
                                                                            "delta": 1e-5}),
             cites="Gopi, Lee, Wutschitz 2021, arXiv:2106.02848v2, Thm 5.5", against="truth"),
        decl(PEER, "prv_accountant.PRVAccountant(PoissonSubsampledGaussianMechanism).compute_delta [upper]",
             "prv_accountant_calls:delta_upper", "composition.sgm.delta",
             {"q": (1e-6, 1.0), "sigma": (0.5, 50.0), "k": (1, 10000), "eps_g": (0.0, 10.0)},
             examples=({"q": 1.0, "sigma": 1.0, "k": 10, "eps_g": 3.0},),
             cites="Gopi, Lee, Wutschitz 2021, Thm 5.5", against="truth"),
    ]


WITNESSES: list = []
