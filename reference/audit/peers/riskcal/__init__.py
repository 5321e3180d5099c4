"""riskcal 1.5.1: f-DP trade-off curves and attack advantage from GDP, (eps, delta)-DP, RDP, zCDP, and DP-SGD's
curve (via dp_accounting's connect-the-dots PLD).  Trade-off curves are lower claims (a larger type-II error claims
more privacy); advantages are upper claims."""

from dpbounds.testing.declarations import Peer
from .. import _refs
from .._common import FPR, decl

PEER = Peer(
    "riskcal",
    dist="riskcal",
    module="riskcal",
    install="not installed; its own venv (docs/peers.md): python3.11 -m venv $DPBOUNDS_PEERS/riskcal && $DPBOUNDS_PEERS/r"
        "iskcal/bin/pip install riskcal==1.5.1 ; then --python riskcal=$DPBOUNDS_PEERS/riskcal/bin/python",
)
_MU = {"mu": (1e-3, 20.0), "fpr": FPR}


def declarations():
    return [
        decl(PEER.name, "riskcal.analysis.get_beta_from_gdp", __name__ + ".calls:beta_from_gdp", "tradeoff.gdp", _MU,
             claim="lower", examples=({"mu": 5.0, "fpr": 0.9}, {"mu": 10.0, "fpr": 0.9}, {"mu": 1.0, "fpr": 0.5}),
             cites="Dong, Roth, Su 2019, arXiv:1905.02383v3, eq. (6)", against="cited"),
        decl(PEER.name, "riskcal.analysis.get_beta_from_adp", __name__ + ".calls:beta_from_adp", "tradeoff.dp",
             {"eps": (0.0, 20.0), "delta": (0.0, 0.5), "fpr": FPR}, claim="lower",
             examples=({"eps": 1.0, "delta": 1e-3, "fpr": 0.3}, {"eps": 3.0, "delta": 1e-6, "fpr": 0.3}),
             cites="Dong, Roth, Su 2019, arXiv:1905.02383v3, eq. (5)", against="cited"),
        decl(PEER.name, "riskcal.analysis.get_beta_from_rdp", __name__ + ".calls:beta_from_rdp", "tradeoff.rdp",
             {"alpha": (1.01, 256.0), "R": (1e-4, 20.0), "fpr": FPR}, claim="lower",
             examples=({"alpha": 1.5, "R": 5.0, "fpr": 0.7}, {"alpha": 2.0, "R": 5.0, "fpr": 0.7},
                       {"alpha": 2.0, "R": 1.0, "fpr": 0.3}),
             cites="Riess et al. 2026, arXiv:2602.04562 (optimal single-order RDP -> f-DP); Zhu, Dong, Wang 2022, "
                   "arXiv:2106.08567, App. F.1", against="cited"),
        decl(PEER.name, "riskcal.analysis.get_beta_from_zcdp", __name__ + ".calls:beta_from_zcdp", "tradeoff.zcdp",
             {"rho": (1e-4, 10.0), "fpr": FPR}, claim="lower",
             examples=({"rho": 0.5, "fpr": 0.1}, {"rho": 2.0, "fpr": 0.3}),
             cites="Bun, Steinke 2016, arXiv:1605.02065v1; Zhu et al. 2022 App. F.1", against="cited"),
        decl(PEER.name, "riskcal.calibration.dpsgd.get_beta_for_dpsgd", __name__ + ".calls:beta_for_dpsgd",
             _refs.sgm_tradeoff, {"q": [1.0], "sigma": (0.5, 20.0), "k": (1, 1000), "fpr": FPR}, claim="lower",
             examples=({"q": 1.0, "sigma": 0.5, "k": 10, "fpr": 0.1}, {"q": 1.0, "sigma": 1.0, "k": 10, "fpr": 1e-4}),
             cites="Kulynych et al. 2024, arXiv:2407.02191 (riskcal), via dp_accounting's PLD", against="truth"),
    ]
