"""autodp: ``converter.rdp_to_approxdp`` on zCDP curves, with the BBGHS improvement (against (a) CKS20 Prop. 12,
which is that conversion) and without it (against (a) BS16 Prop. 1.3's optimized Mironov conversion); (b) the
exact curve of a Gaussian mechanism with that rho (any valid conversion of rho-zCDP must be above it); and its
DP-SGD path (issue 28): ``anaRDPacct.compose_poisson_subsampled_mechanisms`` with ``RDP_gaussian`` (its RDP at an
order, and its epsilon).

Declarations on the dpbounds.testing engine; the grid the audit has always checked is kept as explicit examples
(run first, one row each), the search covers the whole documented domain between them."""

from __future__ import annotations

from dpbounds.testing import Declaration

from dpbounds.testing.declarations import Peer
from .._common import SGM_EPS, decl

PEER = Peer(
    "autodp",
    dist="autodp",
    module="autodp",
    install="not installed; pip install 'dpbounds[audit]'",
    note="rdp_to_approxdp(alpha -> alpha * rho): BBGHS_conversion=True vs conversions.cks20, False vs "
        "conversions.bs16; (b) the Gaussian mechanism's exact curve at that rho",
)
F_CONV = "autodp.converter.rdp_to_approxdp"
RHOS = ["0.001", "0.01", "0.1", "1", "5"]
DELTAS = ["1e-10", "1e-6", "0.001"]
DOMAIN = {"rho": (1e-6, 100.0), "delta": (1e-300, 0.5)}


def gauss_eps(rho, delta):
    """The exact epsilon(delta) of a Gaussian mechanism with this rho (BW18 Thm 8): certified."""
    from dpbounds.accounting.conversions import eps_of
    return eps_of(rho, delta, "gauss")


def declarations() -> list[Declaration]:
    return conversion_declarations() + sgm_declarations() + mechanism_declarations()


def conversion_declarations() -> list[Declaration]:
    grid = tuple({"rho": r, "delta": d} for r in RHOS for d in DELTAS)
    out = []
    for call, conv, cites, check in (
            (__name__ + ".calls:eps_bbghs", "cks20", "Canonne, Kamath, Steinke 2020, arXiv:2004.00010v5, Prop. 12",
             "zCDP -> (eps, delta) (BBGHS=True)"),
            (__name__ + ".calls:eps_classic", "bs16", "Bun, Steinke 2016, arXiv:1605.02065v1, Prop. 1.3",
             "zCDP -> (eps, delta) (BBGHS=False)")):
        for against, ref in (("cited", f"conversions.{conv}"), ("truth", gauss_eps)):
            out.append(Declaration(peer=PEER.name, function=F_CONV, call=call, reference=ref, inputs=DOMAIN,
                                   kind="conversion", claim="upper", examples=grid, cites=cites, against=against,
                                   check=check))
    return out


def sgm_declarations() -> list[Declaration]:
    """The Poisson-subsampled Gaussian (DP-SGD) path."""
    return [
        decl(PEER.name, "autodp.rdp_acct.anaRDPacct.compose_poisson_subsampled_mechanisms + evalRDP", __name__ + ".calls:rdp",
             "mechanisms.sgm.rdp", {"q": (1e-6, 1.0), "sigma": (0.3, 100.0),
                                    "alpha": [1.5, 2, 2.5, 3, 4.5, 8, 10.5, 32, 64]},
             examples=({"q": 0.01, "sigma": 1.0, "alpha": 4.5}, {"q": 0.1, "sigma": 0.7, "alpha": 10.5},
                       {"q": 0.01, "sigma": 1.0, "alpha": 32}),
             cites="Zhu, Wang 2019, arXiv:1807.01647v2 (Poisson subsampling RDP, Thm 6)", against="truth"),
        decl(PEER.name, "autodp.rdp_acct.anaRDPacct.get_eps", __name__ + ".calls:epsilon", "composition.sgm.eps", SGM_EPS,
             examples=({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5}, {"q": 0.01, "sigma": 1.0, "k": 1,
                                                                           "delta": 1e-5}),
             cites="Zhu, Wang 2019 + Mironov 2017 Prop. 3", against="truth"),
    ]


# ------------------------------------------------------------------ mechanisms, conversions, calibrations

MIR17 = "Mironov 2017, arXiv:1702.07476v3"
BW18 = "Balle, Wang 2018, arXiv:1805.06530v2, Thm 8 (the analytic Gaussian mechanism)"
SENS = {"sensitivity": [1.0, 2.0]}


def mechanism_declarations() -> list[Declaration]:
    """rdp_bank's Gaussian, Laplace and zCDP RDP, the Mechanism API (get_RDP, get_eps, get_approx_delta) of
    mechanism_zoo's exact Gaussian and Laplace mechanisms, the Gaussian's eps through dp_bank, the calibrators,
    the RDP -> delta and RDP -> trade-off conversions, anaRDPacct.get_rdp, and DP_acct (KOV15)."""
    from .. import _refs
    m = __name__ + ".calls:"
    g_rdp = {"sigma": (0.1, 100.0), "alpha": (1.001, 1000.0)}
    g_rdp_ex = ({"sigma": 1.0, "alpha": 4.0}, {"sigma": 0.5, "alpha": 32.0}, {"sigma": 3.0, "alpha": 1.5})
    l_rdp = {"b": (0.05, 100.0), "alpha": (1.001, 1000.0)}
    l_rdp_ex = ({"b": 1.0, "alpha": 2.0}, {"b": 0.5, "alpha": 32.0}, {"b": 4.0, "alpha": 1.5})
    g_eps = {**SENS, "sigma": (0.2, 100.0), "delta": (1e-12, 0.5)}
    g_eps_ex = ({"sensitivity": 1.0, "sigma": 1.0, "delta": 1e-5}, {"sensitivity": 2.0, "sigma": 5.0, "delta": 1e-8})
    cal = {**SENS, "eps": (0.05, 20.0), "delta": (1e-12, 0.1)}
    cal_ex = ({"sensitivity": 1.0, "eps": 1.0, "delta": 1e-5}, {"sensitivity": 2.0, "eps": 5.0, "delta": 1e-8})
    out = [
        decl(PEER.name, "autodp.rdp_bank.RDP_gaussian", m + "rdp_gaussian", _refs.gauss_rdp, g_rdp,
             examples=g_rdp_ex, cites=MIR17 + ", Prop. 7", against="truth"),
        decl(PEER.name, "autodp.rdp_bank.RDP_laplace", m + "rdp_laplace", "mechanisms.laplace.rdp", l_rdp,
             examples=l_rdp_ex, cites=MIR17 + ", Table II (Laplace)", against="truth"),
        decl(PEER.name, "autodp.rdp_bank.RDP_zCDP", m + "rdp_zcdp", _refs.zcdp_rdp,
             {"rho": (1e-6, 100.0), "alpha": (1.001, 1000.0)},
             examples=({"rho": 0.5, "alpha": 3.0}, {"rho": 0.01, "alpha": 100.0}),
             cites="Bun, Steinke 2016, arXiv:1605.02065v1, Def. 1.1", against="truth"),
        decl(PEER.name, "autodp.utils.RDP_linear_interpolation (of RDP_gaussian)", m + "rdp_linear_interpolation",
             _refs.gauss_rdp, g_rdp, examples=({"sigma": 1.0, "alpha": 2.5}, {"sigma": 0.5, "alpha": 1.5}),
             cites="convexity of (alpha - 1) RDP(alpha) (Van Erven, Harremoes 2014); " + MIR17 + ", Prop. 7",
             against="truth"),
        decl(PEER.name, "autodp.mechanism_zoo.ExactGaussianMechanism(sigma).get_RDP (Mechanism.get_RDP)",
             m + "mech_gaussian_rdp", _refs.gauss_rdp, g_rdp, examples=g_rdp_ex, cites=MIR17 + ", Prop. 7",
             against="truth"),
        decl(PEER.name, "autodp.mechanism_zoo.LaplaceMechanism(b).get_RDP (Mechanism.get_RDP)",
             m + "mech_laplace_rdp", "mechanisms.laplace.rdp", l_rdp, examples=l_rdp_ex,
             cites=MIR17 + ", Table II (Laplace)", against="truth"),
        decl(PEER.name, "autodp.mechanism_zoo.ExactGaussianMechanism(sigma).get_eps (Mechanism.get_eps)",
             m + "mech_gaussian_eps", _refs.gauss_eps_of_sigma, g_eps, examples=g_eps_ex, cites=BW18,
             against="truth"),
        decl(PEER.name, "autodp.mechanism_zoo.ExactGaussianMechanism(sigma).get_approx_delta "
             "(Mechanism.get_approx_delta)", m + "mech_gaussian_delta",
             _refs.gauss_delta_of_sigma, {"sigma": (0.2, 100.0), "eps_g": (0.0, 50.0)},
             examples=({"sigma": 1.0, "eps_g": 1.0}, {"sigma": 0.5, "eps_g": 3.0}), cites=BW18, against="truth"),
        decl(PEER.name, "autodp.dp_bank.get_eps_ana_gaussian", m + "eps_ana_gaussian", _refs.gauss_eps_of_sigma,
             g_eps, examples=g_eps_ex, cites=BW18, against="truth"),
        decl(PEER.name, "autodp.dp_bank.get_eps_gaussian", m + "eps_gaussian", _refs.gauss_eps_of_sigma, g_eps,
             examples=g_eps_ex, cites="its RDP (" + MIR17 + ", Prop. 7) converted; against " + BW18,
             against="truth"),
        decl(PEER.name, "autodp.dp_bank.get_eps_rdp (of RDP_gaussian)", m + "eps_rdp", _refs.gauss_eps_of_sigma,
             g_eps, examples=g_eps_ex, cites="anaRDPacct's RDP -> eps; against " + BW18, against="truth"),
        decl(PEER.name, "autodp.calibrator_zoo.ana_gaussian_calibrator.param_from_eps_delta",
             m + "ana_gaussian_sigma", _refs.gauss_sigma_min, cal, examples=cal_ex, cites=BW18, against="truth"),
        decl(PEER.name, "autodp.calibrator_zoo.eps_delta_calibrator.param_from_eps_delta (ExactGaussianMechanism)",
             m + "eps_delta_sigma", _refs.gauss_sigma_min, cal, examples=cal_ex, cites=BW18, against="truth"),
        decl(PEER.name, "autodp.calibrator_zoo.generalized_eps_delta_calibrator.param_from_eps_delta "
             "(ExactGaussianMechanism)", m + "generalized_eps_delta_sigma", _refs.gauss_sigma_min, cal,
             examples=cal_ex, cites=BW18, against="truth"),
        decl(PEER.name, "autodp.privacy_calibrator.RDP_mech (RDP_gaussian)", m + "rdp_mech_sigma",
             _refs.gauss_sigma_min, cal, examples=cal_ex, cites="its RDP calibration; against " + BW18,
             against="truth"),
        decl(PEER.name, "autodp.converter.rdp_to_delta (zCDP curve)", m + "rdp_to_delta_zcdp",
             _refs.gauss_delta_rho, {"rho": (1e-6, 100.0), "eps_g": (0.0, 50.0)},
             examples=({"rho": 0.5, "eps_g": 1.0}, {"rho": 0.01, "eps_g": 0.5}, {"rho": 5.0, "eps_g": 10.0}),
             cites="CKS20 arXiv:2004.00010v5 Prop. 12 (BBGHS); below the Gaussian curve no conversion is valid",
             against="truth"),
        decl(PEER.name, "autodp.converter.single_rdp_to_fdp", m + "single_rdp_to_fdp", "tradeoff.rdp",
             {"alpha": (1.01, 256.0), "R": (1e-4, 20.0), "fpr": (0.0, 1.0)}, claim="lower",
             examples=({"alpha": 4.0, "R": 0.5, "fpr": 0.1}, {"alpha": 32.0, "R": 2.0, "fpr": 0.01},
                       {"alpha": 1.5, "R": 0.05, "fpr": 0.5}),
             cites="Zhu, Dong, Wang 2022, arXiv:2106.08567 (optimal RDP -> f-DP); the best curve one RDP point "
                   "implies", against="truth"),
        decl(PEER.name, "autodp.converter.rdp_to_fdp (zCDP curve)", m + "rdp_to_fdp_zcdp", "tradeoff.zcdp",
             {"rho": (1e-4, 10.0), "fpr": (0.0, 1.0)}, claim="lower",
             examples=({"rho": 0.5, "fpr": 0.1}, {"rho": 0.05, "fpr": 0.5}),
             cites="Zhu, Dong, Wang 2022; the best curve rho-zCDP implies (sup over orders)", against="truth"),
        decl(PEER.name, "autodp.rdp_acct.anaRDPacct.get_rdp (Poisson-subsampled Gaussian, k steps)",
             m + "composed_rdp", _refs.sgm_rdp_k,
             {"q": (1e-6, 1.0), "sigma": (0.3, 100.0), "k": (1, 1000), "alpha": [2, 3, 4.5, 8, 32, 64]},
             examples=({"q": 0.01, "sigma": 1.0, "k": 10, "alpha": 8}, {"q": 1.0, "sigma": 2.0, "k": 5, "alpha": 3}),
             cites="Zhu, Wang 2019, arXiv:1807.01647v2, Thm 6; composition: " + MIR17 + ", Prop. 1",
             against="truth"),
        decl(PEER.name, "autodp.dp_acct.DP_acct.get_eps_delta_naive (n x (ei, di))", m + "dp_acct_naive_eps",
             _refs.adv_comp_eps, {"n": (1, 200), "ei": (1e-3, 2.0), "di": (1e-10, 1e-3)},
             examples=({"n": 10, "ei": 0.1, "di": 1e-6}, {"n": 50, "ei": 0.5, "di": 1e-4}),
             cites="basic composition; against KOV15 Thm 3.3 (exact, at total delta n di)", against="truth"),
        decl(PEER.name, "autodp.dp_acct.DP_acct.get_eps (n x (ei, di), at delta n di)", m + "dp_acct_eps",
             _refs.adv_comp_eps, {"n": (1, 200), "ei": (1e-3, 2.0), "di": (1e-10, 1e-3)},
             examples=({"n": 10, "ei": 0.1, "di": 1e-6}, {"n": 50, "ei": 0.5, "di": 1e-4},
                       {"n": 100, "ei": 0.1, "di": 1e-5}),
             cites="KOV15 Thm 3.5 (its docstring); against KOV15 Thm 3.3 (exact, at total delta n di)",
             against="truth"),
        decl(PEER.name, "autodp.dp_acct.DP_acct.get_minimum_possible_delta (n x (ei, di))", m + "dp_acct_min_delta",
             min_delta, {"n": (1, 200), "ei": (1e-3, 2.0), "di": (1e-10, 1e-3)},
             examples=({"n": 10, "ei": 0.1, "di": 1e-6}, {"n": 50, "ei": 0.5, "di": 1e-4}),
             cites="KOV15 Thm 3.3: below 1 - prod(1 - delta_i) no finite eps holds", against="truth"),
    ]
    return out


def min_delta(n, ei, di):
    """1 - (1 - di)^n, exactly (the binary value of di): the least delta at which n (ei, di)-DP mechanisms composed
    have a finite eps (KOV15 Thm 3.3)."""
    from fractions import Fraction

    from dpbounds.audit.peers._refs import _enclosure
    v = 1 - (1 - Fraction(di)) ** int(n)
    return _enclosure(v, v)
