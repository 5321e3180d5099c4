"""fourier-accountant 0.12.11 (Koskela, Jalko, Honkela 2020): epsilon and delta of the Poisson-subsampled
Gaussian by FFT of the PLD, remove/add (``_R``) and substitute (``_S``) relations, the library's defaults
nx = 1e6, L = 20."""

from ._common import SGM_EPS, decl

PEER, DIST, MODULE = "fourier_accountant", "fourier-accountant", "fourier_accountant"


def declarations():
    return [
        decl(PEER, "fourier_accountant.get_epsilon_R", "fourier_accountant_calls:epsilon_R", "composition.sgm.eps",
             SGM_EPS, examples=({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5},
                                {"q": 0.01, "sigma": 1.0, "k": 1, "delta": 1e-5},
                                {"q": 1.0, "sigma": 2.0, "k": 100, "delta": 1e-6}),
             cites="Koskela, Jalko, Honkela 2020, arXiv:1906.03049v3, Thm 6 (error bound)", against="truth"),
        decl(PEER, "fourier_accountant.get_delta_R", "fourier_accountant_calls:delta_R", "composition.sgm.delta",
             {"q": (1e-6, 1.0), "sigma": (0.5, 50.0), "k": (1, 10000), "eps_g": (0.0, 10.0)},
             examples=({"q": 1.0, "sigma": 1.0, "k": 10, "eps_g": 3.0}, {"q": 0.01, "sigma": 1.0, "k": 1,
                                                                           "eps_g": 0.5}),
             cites="Koskela, Jalko, Honkela 2020, arXiv:1906.03049v3, Thm 6", against="truth"),
    ]


WITNESSES: list = []
