"""privjail 0.1.2: the budget charges and calibrations of its Gaussian mechanism under each accountant it offers
(approx DP: the classical calibration of Dwork, Roth 2014 Thm 3.22, proved only for eps < 1, with no such check;
zCDP: rho = Delta^2/(2 sigma^2) and BS16 Prop. 1.3; RDP: the exact binomial sum for the subsampled Gaussian at
integer orders and Mironov's Prop. 3 conversion)."""

from dpbounds.testing.declarations import Peer
from .. import _refs
from .._common import decl

PEER = Peer(
    "privjail",
    dist="privjail",
    module="privjail",
    install="not installed; its own venv (docs/peers.md): python3.11 -m venv $DPBOUNDS_PEERS/privjail && $DPBOUNDS_PEERS/"
        "privjail/bin/pip install privjail==0.1.2 (pins numpy==2.1.3; pulls jax, pandas, sympy) ; then --pyth"
        "on privjail=$DPBOUNDS_PEERS/privjail/bin/python",
)


def declarations():
    return [
        decl(PEER.name, "privjail.mechanism.sigma_from_eps_delta", __name__ + ".calls:sigma_from_eps_delta",
             _refs.gauss_sigma_min, {"sensitivity": [1.0], "eps": (1e-3, 50.0), "delta": (1e-12, 0.5)},
             examples=({"sensitivity": 1.0, "eps": 50.0, "delta": 1e-10},
                       {"sensitivity": 1.0, "eps": 20.0, "delta": 1e-5}, {"sensitivity": 1.0, "eps": 10.0,
                                                                          "delta": 1e-5}),
             cites="Dwork, Roth 2014, The Algorithmic Foundations of DP, Thm 3.22 (eps < 1)", against="truth"),
        decl(PEER.name, "privjail.mechanism.eps_from_sigma_delta", __name__ + ".calls:eps_from_sigma_delta",
             _refs.gauss_eps_of_sigma, {"sensitivity": [1.0], "sigma": (0.05, 100.0), "delta": (1e-12, 0.5)},
             examples=({"sensitivity": 1.0, "sigma": 0.25, "delta": 1e-5}, {"sensitivity": 1.0, "sigma": 0.5,
                                                                            "delta": 1e-5}),
             cites="Dwork, Roth 2014, Thm 3.22 inverted", against="truth"),
        decl(PEER.name, "privjail.mechanism.subsampled_rdp_eps_from_sigma", __name__ + ".calls:subsampled_rdp",
             "mechanisms.sgm.rdp", {"q": (1e-6, 1.0), "sigma": (0.3, 100.0), "alpha": [2, 3, 4, 8, 16, 32, 64, 256]},
             examples=({"q": 0.01, "sigma": 1.0, "alpha": 32}, {"q": 0.5, "sigma": 0.7, "alpha": 8},
                       {"q": 1.0, "sigma": 2.0, "alpha": 4}),
             cites="Mironov, Talwar, Zhang 2019, arXiv:1908.10530v1, Sec. 3.3 (integer alpha)", against="cited"),
        decl(PEER.name, "privjail.accountants.rdp.rdp_to_approx_eps", __name__ + ".calls:rdp_to_approx_eps",
             "conversions.rdp.mironov", {"alpha": (1.01, 1024.0), "R": (0.0, 100.0), "delta": (1e-15, 0.5)},
             examples=({"alpha": 2.0, "R": 1.0, "delta": 1e-5}, {"alpha": 8.0, "R": 0.5, "delta": 1e-6}),
             cites="Mironov 2017, arXiv:1702.07476v3, Prop. 3", against="cited"),
        decl(PEER.name, "privjail.accountants.zcdp.eps_from_rho_delta", __name__ + ".calls:eps_from_rho_delta",
             "conversions.cks20", {"rho": (1e-6, 100.0), "delta": (1e-15, 0.5)},
             examples=({"rho": 0.5, "delta": 1e-5}, {"rho": 0.1, "delta": 1e-6}),
             cites="Bun, Steinke 2016, arXiv:1605.02065v1, Prop. 1.3", against="cited"),  # CKS20 <= BS16
    ]
