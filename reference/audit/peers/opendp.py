"""OpenDP 0.16.0 where it composes Gaussians (its amplification combinator covers pure/approximate DP only, so
there is no subsampled-Gaussian path): k-fold Gaussian composition under zCDP converted to (eps, delta).  Its
zCDP -> DP conversion and filters are the older ``dpbounds.audit.opendp_adapter``."""

from ._common import SGM_Q1, decl

PEER, DIST, MODULE = "opendp", "opendp", "opendp"


def declarations():
    return [
        decl(PEER, "opendp make_composition([make_gaussian] * k) + make_zCDP_to_approxDP + make_fix_delta",
             "opendp_calls:gaussian_kfold_eps", "composition.sgm.eps", SGM_Q1,
             examples=({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5}, {"q": 1.0, "sigma": 5.0, "k": 1000,
                                                                           "delta": 1e-10}),
             cites="Canonne, Kamath, Steinke 2020, arXiv:2004.00010v5, Prop. 12 (zCDP -> DP)", against="truth"),
    ]


WITNESSES: list = []
