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
    return conversion_declarations() + sgm_declarations()


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
