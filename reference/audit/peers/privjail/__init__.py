"""privjail 0.1.2: the budget charges and calibrations of its Gaussian mechanism under each accountant it offers
(approx DP: the classical calibration of Dwork, Roth 2014 Thm 3.22, proved only for eps < 1, with no such check;
zCDP: rho = Delta^2/(2 sigma^2) and BS16 Prop. 1.3; RDP: the exact binomial sum for the subsampled Gaussian at
integer orders and Mironov's Prop. 3 conversion)."""

from dpbounds.spec.papers import paper
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
    ] + _more()


def gauss_rdp(sensitivity, sigma, alpha):
    """alpha Delta^2 / (2 sigma^2), exactly: the Renyi divergence of order alpha of the Gaussian mechanism
    (Mironov 2017, arXiv:1702.07476v3, Prop. 7)."""
    from fractions import Fraction

    from dpbounds.evaluation.enclosure import Enclosure
    v = Fraction(alpha) * Fraction(sensitivity) ** 2 / (2 * Fraction(sigma) ** 2)
    return Enclosure(v, v, 130)


def gauss_rho(sensitivity, sigma):
    """Delta^2 / (2 sigma^2), exactly: the zCDP of the Gaussian mechanism (Bun, Steinke 2016, arXiv:1605.02065v1,
    Prop. 1.6)."""
    from fractions import Fraction

    from dpbounds.evaluation.enclosure import Enclosure
    v = Fraction(sensitivity) ** 2 / (2 * Fraction(sigma) ** 2)
    return Enclosure(v, v, 130)


def sigma_of_rho(sensitivity, rho):
    """Delta / sqrt(2 rho): the smallest sigma with which the Gaussian mechanism is rho-zCDP (BS16 Prop. 1.6), in
    arb."""
    from fractions import Fraction

    from dpbounds.evaluation.enclosure import CertificationError, Enclosure
    from dpbounds.evaluation.numeric import arb_endpoints, arb_prec, fraction_to_arb
    with arb_prec(256):
        ends = arb_endpoints(fraction_to_arb(Fraction(sensitivity)) / (2 * fraction_to_arb(Fraction(rho))).sqrt())
    if ends is None:
        raise CertificationError("privjail sigma_of_rho: not finite")
    return Enclosure(ends[0], ends[1], 130)


gauss_rdp.ref_id = "privjail.gauss_rdp (Mir17 Prop. 7)"  # type: ignore[attr-defined]
gauss_rho.ref_id = "privjail.gauss_rho (BS16 Prop. 1.6)"  # type: ignore[attr-defined]
sigma_of_rho.ref_id = "privjail.sigma_of_rho (BS16 Prop. 1.6)"  # type: ignore[attr-defined]

_BS16 = "Bun, Steinke 2016, arXiv:1605.02065v1, Prop. 1.6"
_MIR = "Mironov 2017, arXiv:1702.07476v3, Prop. 7"


def kfold_sum(x, k):
    """k x, exactly (the float x's exact value): the total k charges of x compose to under basic composition
    (pure and approximate DP: Dwork, Rothblum, Vadhan 2010 / RRUV16 Thm 2.9, delta parts add), zCDP (Bun, Steinke
    2016, arXiv:1605.02065v1, Lemma 2.3) and RDP at one order (Mironov 2017, arXiv:1702.07476v3, Prop. 1)."""
    from fractions import Fraction

    from dpbounds.evaluation.enclosure import Enclosure
    v = int(k) * Fraction(x)
    return Enclosure(v, v, 130)


kfold_sum.ref_id = "privjail.kfold_sum (basic / zCDP / RDP composition: k x)"  # type: ignore[attr-defined]
_SUM = {"x": (1e-4, 1.0), "k": (1, 1000)}
_SUM_EX = ({"x": 0.1, "k": 10}, {"x": 0.3, "k": 3}, {"x": 0.01, "k": 1000})
_SUM_CITE = ("the sum of the charges: RRUV16 arXiv:1605.08294v3 Thm 2.9 (basic composition), BS16 "
             "arXiv:1605.02065v1 Lemma 2.3 (zCDP), Mironov 2017 arXiv:1702.07476v3 Prop. 1 (RDP)")


def _budget_spent():
    """The accountants' running totals (``budget_spent``) after k equal charges, as values: the exact sum."""
    a = "privjail.accountants."
    out = []
    for f, call in (("pure.PureDPAccountant.budget_spent", "pure_spent"),
                    ("approx.ApproxDPAccountant.budget_spent [eps part]", "approx_spent_eps"),
                    ("approx.ApproxDPAccountant.budget_spent [delta part]", "approx_spent_delta"),
                    ("zcdp.zCDPAccountant.budget_spent (k spends)", "zcdp_spent"),
                    ("rdp.RDPAccountant.budget_spent [one order]", "rdp_spent")):
        out.append(decl(PEER.name, a + f, __name__ + ".calls:" + call, kfold_sum, _SUM, examples=_SUM_EX,
                        cites=_SUM_CITE, against="truth", check="the running total after k equal charges"))
    return out


def _more():
    """The Gaussian charges under zCDP and RDP (closed forms), and the accountants' budget decisions as filters
    (basic composition: a spend is refused iff the exact total would exceed the limit)."""
    m = "privjail.mechanism."
    a = "privjail.accountants."
    sig = {"sensitivity": (1e-2, 10.0), "sigma": (0.05, 100.0)}
    return [
        decl(PEER.name, m + "rdp_eps_from_sigma", __name__ + ".calls:rdp_eps_from_sigma", gauss_rdp,
             {**sig, "alpha": [1.5, 2, 3, 8, 32, 256]},
             examples=({"sensitivity": 1.0, "sigma": 1.0, "alpha": 2}, {"sensitivity": 3.0, "sigma": 0.7, "alpha": 32}),
             cites=_MIR, against="cited"),
        decl(PEER.name, m + "rho_from_sigma", __name__ + ".calls:rho_from_sigma", gauss_rho, sig,
             examples=({"sensitivity": 1.0, "sigma": 1.0}, {"sensitivity": 3.0, "sigma": 0.7}), cites=_BS16,
             against="cited"),
        decl(PEER.name, m + "sigma_from_rho", __name__ + ".calls:sigma_from_rho", sigma_of_rho,
             {"sensitivity": (1e-2, 10.0), "rho": (1e-6, 100.0)},
             examples=({"sensitivity": 1.0, "rho": 0.5}, {"sensitivity": 2.0, "rho": 0.01}), cites=_BS16,
             against="cited"),
        decl(PEER.name, m + "resolve_gaussian_params_zcdp (scale -> rho)", __name__ + ".calls:resolve_zcdp_rho",
             gauss_rho, sig, examples=({"sensitivity": 1.0, "sigma": 2.0},), cites=_BS16, against="cited"),
        decl(PEER.name, m + "resolve_gaussian_params_rdp (subsampled)", __name__ + ".calls:resolve_rdp",
             "mechanisms.sgm.rdp", {"q": (1e-4, 1.0), "sigma": (0.3, 100.0), "alpha": [2, 3, 8, 32]},
             examples=({"q": 0.01, "sigma": 1.0, "alpha": 8}, {"q": 1.0, "sigma": 2.0, "alpha": 3}),
             cites="Mironov, Talwar, Zhang 2019, arXiv:1908.10530v1, Thm 9 (integer orders)", against="cited"),
        decl(PEER.name, a + "rdp.RDPSubsamplingAccountant.spend (spend_gaussian on its child; the root's "
             "budget_spent)", __name__ + ".calls:subsampled_spend", "mechanisms.sgm.rdp",
             {"q": (1e-4, 1.0), "sigma": (0.3, 100.0), "alpha": [2, 3, 8, 32]},
             examples=({"q": 0.01, "sigma": 1.0, "alpha": 8}, {"q": 0.1, "sigma": 2.0, "alpha": 3}),
             cites="Mironov, Talwar, Zhang 2019, arXiv:1908.10530v1, Thm 9 (integer orders): the charge the "
                   "subsampling accountant forwards", against="truth"),
        decl(PEER.name, m + "spend_gaussian (zCDPAccountant) + zCDPAccountant.budget_spent",
             __name__ + ".calls:spend_gaussian_zcdp", gauss_rho, sig,
             examples=({"sensitivity": 1.0, "sigma": 1.0}, {"sensitivity": 3.0, "sigma": 0.7}),
             cites=_BS16 + " (the charge one Gaussian release records)", against="truth"),
        decl(PEER.name, a + "pure.PureDPAccountant.spend (budget_limit)", __name__ + ".calls:pure_filter",
             "rruv16.thm3_4.filter", {"eps_g": (0.01, 10.0)}, kind="filter", claim="lower", budget={"eps_g": 1.0},
             costs=("eps",), examples=({"eps_g": 1.0, "spends": [{"eps": 0.1}] * 10},),
             cites="Rogers, Roth, Ullman, Vadhan 2016, arXiv:1605.08294v3, Thm 3.4 (basic composition filter)",
             against="cited"),
        decl(PEER.name, a + "zcdp.zCDPAccountant.spend (budget_limit)", __name__ + ".calls:zcdp_filter",
             "fz21.remark4_4", {"B": (0.01, 10.0)}, kind="filter", claim="lower", budget={"B": 1.0},
             costs=("rho",), examples=({"B": 1.0, "spends": [{"rho": 0.1}] * 10},),
             cites=f"Feldman, Zrnic, NeurIPS 2021, {paper('FZ21').arxiv_ref()}, Remark 4.4 (zCDP filter: "
                   "sum rho <= B)",
             against="cited"),
    ] + _budget_spent()
