"""Opacus 1.6.0 accountants, loaded without torch (``calls._opacus``): ``analysis.rdp.compute_rdp`` at
integer and fractional orders and ``get_privacy_spent``, the RDP, PRV and GDP (CLT) accountants, and
``get_noise_multiplier``."""

from dpbounds.testing.declarations import Peer
from .._common import PRV_SPANS, SGM_EPS, SGM_Q1, decl, sgm_domain

PEER = Peer(
    "opacus",
    dist="opacus",
    module="opacus",
    install="not installed; its own venv (docs/peers.md): python3.11 -m venv $DPBOUNDS_PEERS/opacus && $DPBOUNDS_PEERS/op"
        "acus/bin/pip install --no-deps opacus==1.6.0 numpy scipy ; then --python opacus=$DPBOUNDS_PEERS/opacus/b"
        "in/python",
    probe_import=False,
)
_ORDERS = [1.25, 1.5, 1.75, 2, 2.5, 3, 4.5, 8, 10.5, 32, 64, 256]


def declarations():
    return [
        decl(PEER.name, "opacus.accountants.analysis.rdp.compute_rdp", __name__ + ".calls:compute_rdp", "mechanisms.sgm.rdp",
             {"q": (1e-6, 1.0), "sigma": (0.3, 100.0), "alpha": _ORDERS},
             examples=({"q": 0.01, "sigma": 1.0, "alpha": 4.5}, {"q": 0.001, "sigma": 0.8, "alpha": 1.25},
                       {"q": 0.001, "sigma": 0.5, "alpha": 1.25}, {"q": 0.5, "sigma": 2.0, "alpha": 32}),
             cites="Mironov, Talwar, Zhang 2019, arXiv:1908.10530v1, Sec. 3.3 (integer) and 3.4 (fractional)",
             against="cited"),
        decl(PEER.name, "opacus.accountants.analysis.rdp.get_privacy_spent", __name__ + ".calls:get_privacy_spent",
             "conversions.rdp.cks20", {"alpha": (1.01, 1024.0), "R": (0.0, 100.0), "delta": (1e-15, 0.5)},
             examples=({"alpha": 2.0, "R": 1.0, "delta": 1e-5}, {"alpha": 32.0, "R": 4.0, "delta": 1e-5}),
             cites="Balle et al. 2020, arXiv:1905.09982v2, Thm 21 (= CKS20 Prop. 12)", against="cited"),
        decl(PEER.name, "opacus.accountants.RDPAccountant.get_epsilon", __name__ + ".calls:rdp_epsilon",
             "composition.sgm.eps", SGM_EPS, examples=({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5},
                                                        {"q": 0.01, "sigma": 1.0, "k": 1, "delta": 1e-5}),
             cites="Mironov et al. 2019 + Balle et al. 2020 Thm 21", against="truth", rate=10),
        decl(PEER.name, "opacus.accountants.PRVAccountant.get_epsilon", __name__ + ".calls:prv_epsilon",
             "composition.sgm.eps", sgm_domain("delta", **PRV_SPANS),
             examples=({"q": 1.0, "sigma": 1.0, "k": 100, "delta": 1e-5},
                                                        {"q": 0.01, "sigma": 0.8, "k": 1, "delta": 1e-5}),
             cites="Gopi, Lee, Wutschitz 2021, arXiv:2106.02848v2, Thm 5.5 (eps_upper)", against="truth", rate=0.5),
        decl(PEER.name, "opacus.accountants.GaussianAccountant.get_epsilon", __name__ + ".calls:gdp_epsilon",
             "composition.sgm.eps", SGM_EPS, examples=({"q": 0.01, "sigma": 1.0, "k": 1, "delta": 1e-5},
                                                        {"q": 0.1, "sigma": 1.0, "k": 1, "delta": 1e-5}),
             cites="Bu, Dong, Long, Su 2020, arXiv:1911.11607v3, Thm 3 (CLT; asymptotic)", against="truth"),
        decl(PEER.name, "opacus.accountants.analysis.rdp.compute_rdp (q = 1)", __name__ + ".calls:rdp_epsilon",
             "composition.sgm.eps", SGM_Q1, examples=({"q": 1.0, "sigma": 2.0, "k": 100, "delta": 1e-8},),
             cites="Mironov 2017, arXiv:1702.07476v3, Prop. 7 (Gaussian RDP)", against="truth"),
    ] + _calibration() + _gdp() + _more()


def _calibration():
    """get_noise_multiplier (RDP and PRV accountants) against the certified sigma_min: a sigma below it is
    certified insufficient for (eps, delta) after k steps (unsound)."""
    from dpbounds.audit.peers import _sgm_calibration as C
    out = []
    for acc, call in (("rdp", "get_noise_multiplier"), ("prv", "get_noise_multiplier_prv")):
        out += C.calibration_declarations(PEER, f"opacus.accountants.utils.get_noise_multiplier(accountant='{acc}')",
                                          __name__ + f".calls:{call}")
    return out


_CLT = {"q": (1e-4, 1.0), "sigma": (0.5, 50.0), "k": (1, 10000)}
_CLT_EX = ({"q": 0.01, "sigma": 1.0, "k": 1000}, {"q": 0.1, "sigma": 2.0, "k": 100}, {"q": 0.001, "sigma": 0.8, "k": 1})


def _gdp():
    """``analysis.gdp``: the CLT mu of Bu et al. and its eps are judged as the cited formula (the CLT is asymptotic:
    against the truth of DP-SGD it under-reports, which GaussianAccountant.get_epsilon's declaration shows); the
    mu-GDP curve and its inverse are exact, judged against the truth."""
    from .. import _gdp_refs as G
    mod = "opacus.accountants.analysis.gdp."
    eps_ex = tuple({**e, "delta": 1e-5} for e in _CLT_EX)
    return [
        decl(PEER.name, mod + "compute_mu_poisson", __name__ + ".calls:gdp_mu_poisson", G.clt_mu_poisson, _CLT,
             examples=_CLT_EX, cites=G.BDLS20, against="cited"),
        decl(PEER.name, mod + "compute_mu_uniform", __name__ + ".calls:gdp_mu_uniform", G.clt_mu_uniform, _CLT,
             examples=_CLT_EX, cites=G.BDLS20 + " (uniform subsampling)", against="cited"),
        decl(PEER.name, mod + "compute_eps_poisson", __name__ + ".calls:gdp_eps_poisson", G.clt_eps_poisson,
             {**_CLT, "delta": (1e-12, 0.1)}, examples=eps_ex, cites=G.BDLS20 + " + DRS22 Cor. 2.13",
             against="cited"),
        decl(PEER.name, mod + "compute_eps_uniform", __name__ + ".calls:gdp_eps_uniform", G.clt_eps_uniform,
             {**_CLT, "delta": (1e-12, 0.1)}, examples=eps_ex, cites=G.BDLS20 + " (uniform) + DRS22 Cor. 2.13",
             against="cited"),
    ] + G.gdp_conversion_declarations(PEER.name, mod, __name__)


def _more():
    """The PRV's Renyi curve (the same compute_rdp code) and the RDP accountant's get_privacy_spent."""
    return [
        decl(PEER.name, "opacus.accountants.analysis.prv.prvs.PoissonSubsampledGaussianPRV.rdp",
             __name__ + ".calls:prv_rdp", "mechanisms.sgm.rdp",
             {"q": (1e-6, 1.0), "sigma": (0.3, 100.0), "alpha": _ORDERS},
             examples=({"q": 0.01, "sigma": 1.0, "alpha": 8}, {"q": 0.1, "sigma": 2.0, "alpha": 32}),
             cites="Mironov, Talwar, Zhang 2019, arXiv:1908.10530v1, Sec. 3.3 and 3.4", against="cited"),
        decl(PEER.name, "opacus.accountants.rdp.RDPAccountant.get_privacy_spent", __name__ + ".calls:rdp_privacy_spent",
             "composition.sgm.eps", SGM_EPS, examples=({"q": 1.0, "sigma": 2.0, "k": 10, "delta": 1e-6},
                                                        {"q": 0.05, "sigma": 2.0, "k": 1, "delta": 1e-6}),
             cites="Mironov et al. 2019 + Balle et al. 2020 Thm 21", against="truth", rate=10),
    ]
