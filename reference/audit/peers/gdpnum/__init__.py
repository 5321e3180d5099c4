"""gdpnum 0.1.2: the numeric GDP mu of DP-SGD (fitted to dp_accounting's connect-the-dots PLD, with a 'regret')
and its Opacus-compatible ``CTDAccountant`` (epsilon and type-II error).  At q = 1 the k-fold Gaussian is exactly
sqrt(k)/sigma-GDP, the truth these are held to.  At q = 1, sigma = 0.5, k = 100 (mu = 20) gdpnum itself raises
(``converter._get_mus``: "operands could not be broadcast together with shapes (2716158,) (2,)"; ``get_beta``:
numpy.interp "fp and xp are not of the same length"): its alphas and betas grids differ in length there -- the
peer's fault on a valid input, kept as two ``error`` rows."""

from dpbounds.testing.declarations import Peer
from .. import _refs
from .._common import FPR, SGM_Q1, decl

PEER = Peer(
    "gdpnum",
    dist="gdpnum",
    module="gdpnum",
    install="not installed; its own venv (docs/peers.md): python3.11 -m venv $DPBOUNDS_PEERS/gdpnum && $DPBOUNDS_PEERS/gd"
        "pnum/bin/pip install gdpnum==0.1.2 ; then --python gdpnum=$DPBOUNDS_PEERS/gdpnum/bin/python",
)
_Q1 = {"q": [1.0], "sigma": (0.5, 20.0), "k": (1, 1000)}


def declarations():
    return [
        decl(PEER.name, "gdpnum.dpsgd.get_mu_and_regret_for_dpsgd", __name__ + ".calls:mu_for_dpsgd", _refs.sgm_mu, _Q1,
             examples=({"q": 1.0, "sigma": 0.5, "k": 10}, {"q": 1.0, "sigma": 1.0, "k": 100},
                       {"q": 1.0, "sigma": 0.5, "k": 100}, {"q": 1.0, "sigma": 2.0, "k": 10},
                       {"q": 1.0, "sigma": 1.0, "k": 10}),
             cites="Gomez, Kulynych et al. 2025, arXiv:2503.10945 (SaTML 2026; version not stated in the package)",
             against="truth"),
        decl(PEER.name, "gdpnum.CTDAccountant.get_epsilon", __name__ + ".calls:ctd_epsilon", "composition.sgm.eps", SGM_Q1,
             examples=({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5}, {"q": 1.0, "sigma": 0.5, "k": 100,
                                                                          "delta": 1e-8},
                       {"q": 1.0, "sigma": 2.0, "k": 10, "delta": 1e-6}),
             cites="Doroshenko et al. 2022, arXiv:2207.04380v1 (connect the dots)", against="truth", rate=0.5),
        decl(PEER.name, "gdpnum.CTDAccountant.get_beta", __name__ + ".calls:ctd_beta", _refs.sgm_tradeoff,
             {**_Q1, "fpr": FPR}, claim="lower",
             examples=({"q": 1.0, "sigma": 0.5, "k": 10, "fpr": 0.1}, {"q": 1.0, "sigma": 1.0, "k": 10, "fpr": 1e-4},
                       {"q": 1.0, "sigma": 0.5, "k": 100, "fpr": 0.1},
                       {"q": 1.0, "sigma": 2.0, "k": 10, "fpr": 0.01}),
             cites="DRS19, arXiv:1905.02383v3, Prop. 2.12 (PLD -> trade-off)", against="truth"),
    ] + converter_declarations()


def converter_declarations():
    """``CTDAccountant.get_mu_and_regret`` and ``converter.PLDConverter`` on the PLD CTDAccountant builds for k
    Gaussian steps
    (q = 1: exactly sqrt(k)/sigma-GDP, whose trade-off curve G_mu is symmetric, G_mu^-1 = G_mu: DRS19
    arXiv:1905.02383v3, Sec. 2)."""
    m = __name__ + ".calls:"
    mu_ex = ({"q": 1.0, "sigma": 1.0, "k": 10}, {"q": 1.0, "sigma": 2.0, "k": 100})
    b_ex = ({"q": 1.0, "sigma": 1.0, "k": 10, "fpr": 0.1}, {"q": 1.0, "sigma": 2.0, "k": 10, "fpr": 0.01})
    gm = "Gomez, Kulynych et al. 2025, arXiv:2503.10945; against exactly sqrt(k)/sigma-GDP (DRS19 Cor. 3.3)"
    out = [decl(PEER.name, "gdpnum.dpsgd.CTDAccountant.get_mu_and_regret", m + "ctd_mu", _refs.sgm_mu, _Q1,
                examples=mu_ex, cites=gm, against="truth")]
    for f, c in (("get_mu", "converter_mu"), ("get_mu_and_regret", "converter_mu_and_regret")):
        out.append(decl(PEER.name, f"gdpnum.converter.PLDConverter.{f} (the k-step Gaussian PLD)", m + c, _refs.sgm_mu,
                        _Q1, examples=mu_ex, cites=gm, against="truth"))
    for f, c in (("get_beta", "converter_beta"), ("tradeoff_function", "converter_tradeoff"),
                 ("inverse_tradeoff_function", "converter_inverse_tradeoff")):
        out.append(decl(PEER.name, f"gdpnum.converter.PLDConverter.{f} (the k-step Gaussian PLD)", m + c,
                        _refs.sgm_tradeoff, {**_Q1, "fpr": FPR}, claim="lower", examples=b_ex,
                        cites=gm + "; DRS19 Prop. 2.12 (PLD -> trade-off)", against="truth"))
    return out
