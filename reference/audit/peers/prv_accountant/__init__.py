"""Microsoft prv_accountant (Gopi, Lee, Wutschitz, NeurIPS 2021, arXiv:2106.02848v3): the upper end of its
error-bounded estimate against the true guarantee of the composition it accounts for.

* k-fold Gaussian mechanism with noise multiplier sigma (sensitivity 1) is exactly mu-GDP with mu = sqrt(k)/sigma,
  i.e. its privacy curve is the Gaussian curve of rho = k / (2 sigma^2) (Balle-Wang 2018): the claimed upper end
  of ``compute_epsilon`` must be >= the certified exact eps(delta), that of ``compute_delta`` >= the exact delta(eps);
  two Gaussian mechanisms (k1 and k2 times) compose exactly to the Gaussian curve of rho = k1 / (2 sigma1^2) +
  k2 / (2 sigma2^2) (the privacy losses are independent Gaussians, so their sum is Gaussian);
* k-fold pure eps-DP (``PureDPMechanism``, the randomized-response worst case) has the exact delta(eps_g) of KOV15
  Thm 3.3 (``conversions.kov15.exact``).

The accountant is documented to return (lower, estimate, upper) with the true value inside: the upper end is the
privacy claim audited.  Declarations on the dpbounds.testing engine; the grid the audit has always checked is kept
as explicit examples (one row each; the formula the accountant computes and the truth are the same curve here).
Its DP-SGD path (issue 28): ``PoissonSubsampledGaussianMechanism``, against ``composition.sgm.eps|delta``."""

from __future__ import annotations

from fractions import Fraction

from dpbounds.testing import Declaration

from dpbounds.testing.declarations import Peer
from .._common import PRV_SPANS, SGM_EPS, batched, decl, sgm_domain
from .._refs import rr_rdp

PEER = Peer(
    "prv_accountant",
    dist="prv-accountant",
    module="prv_accountant",
    install="not installed; pip install prv-accountant",
    note="PRVAccountant(eps_error=0.01, delta_error=1e-10); the audited value is the upper end of the returned "
        "(lower, estimate, upper); references: the exact Gaussian curve (k-fold Gaussian = sqrt(k)/sigma-GDP) and "
        "KOV15's exact k-fold pure-DP delta",
)
CITES = "Gopi, Lee, Wutschitz 2021, arXiv:2106.02848v3, Thm 5.5 (the error bounds of the upper end)"
F_EPS = "prv_accountant.PRVAccountant(GaussianMechanism).compute_epsilon [upper]"
F_DELTA = "prv_accountant.PRVAccountant(PureDPMechanism).compute_delta [upper]"
F_GDELTA = "prv_accountant.PRVAccountant(GaussianMechanism).compute_delta [upper]"
F_HET = "prv_accountant.PRVAccountant(GaussianMechanism x 2).compute_epsilon [upper]"
GAUSS = [(2.0, 1, "1e-6"), (5.0, 10, "1e-6"), (10.0, 100, "1e-5"), (20.0, 1000, "1e-8"), (1.0, 1, "1e-3"),
         (50.0, 1000, "1e-6"), (3.0, 4, "1e-7"), (8.0, 50, "1e-6")]
GAUSS_DELTA = [(2.0, 1, "1"), (5.0, 10, "0.5"), (10.0, 100, "2"), (20.0, 1000, "1"), (3.0, 4, "3")]
HETERO = [((2.0, 3), (5.0, 10), "1e-6"), ((1.0, 1), (10.0, 100), "1e-5"), ((4.0, 20), (8.0, 50), "1e-8")]
PURE = [("0.1", 10, "0.5"), ("0.5", 20, "3"), ("1", 5, "2"), ("0.01", 1000, "0.5"), ("0.2", 100, "2"),
        ("0.05", 400, "1")]


def _clamped(enc):
    from dpbounds.evaluation.enclosure import Enclosure
    return Enclosure(max(enc.lo, Fraction(0)), max(enc.hi, Fraction(0)), enc.bits)


def _rho(*pairs):
    return sum((Fraction(k) / (2 * Fraction(s) ** 2) for s, k in pairs), Fraction(0))  # the floats given, exactly


def gauss_eps(noise_multiplier, k, delta):
    """The exact eps(delta) of k Gaussian mechanisms (the Gaussian curve of rho = k / (2 sigma^2), BW18)."""
    from dpbounds.accounting.conversions import eps_of
    return _clamped(eps_of(_rho((noise_multiplier, k)), Fraction(delta), "gauss"))


def gauss_delta(noise_multiplier, k, eps):
    """The exact delta(eps) of k Gaussian mechanisms (the Gaussian curve of rho = k / (2 sigma^2), BW18)."""
    from dpbounds.accounting.conversions import delta_of
    return _clamped(delta_of(_rho((noise_multiplier, k)), Fraction(eps), "gauss"))


def gauss_eps_two(s1, k1, s2, k2, delta):
    """The exact eps(delta) of k1 + k2 Gaussian mechanisms (the Gaussian curve of rho = sum k_i / (2 sigma_i^2))."""
    from dpbounds.accounting.conversions import eps_of
    return _clamped(eps_of(_rho((s1, k1), (s2, k2)), Fraction(delta), "gauss"))


def kov15_delta(eps, k, eps_g):
    """The exact delta(eps_g) of k-fold eps-DP (KOV15 Thm 3.3, conversions.kov15.exact)."""
    from dpbounds.evaluation.evaluate import enclose
    return _clamped(enclose("conversions.kov15.exact", {"eps": Fraction(eps), "k": k, "eps_g": Fraction(eps_g)},
                            rel_tol=Fraction(1, 10**20)))


def declarations() -> list[Declaration]:
    return grid_declarations() + sgm_declarations() + rdp_declarations() + dpsgd_declarations()


def grid_declarations() -> list[Declaration]:
    spec = [
        (F_EPS, __name__ + ".calls:gaussian_eps", gauss_eps, "k-fold Gaussian mechanism: epsilon(delta), upper end",
         {"noise_multiplier": (0.5, 100.0), "k": (1, 2000), "delta": (1e-12, 0.1)},
         tuple({"noise_multiplier": s, "k": k, "delta": d} for s, k, d in GAUSS)),
        (F_GDELTA, __name__ + ".calls:gaussian_delta", gauss_delta,
         "k-fold Gaussian mechanism: delta(eps), upper end",
         {"noise_multiplier": (0.5, 100.0), "k": (1, 2000), "eps": (0.01, 20.0)},
         tuple({"noise_multiplier": s, "k": k, "eps": e} for s, k, e in GAUSS_DELTA)),
        (F_HET, __name__ + ".calls:heterogeneous_eps", gauss_eps_two,
         "k1 + k2 Gaussian mechanisms: epsilon(delta), upper end",
         {"s1": (0.5, 100.0), "k1": (1, 500), "s2": (0.5, 100.0), "k2": (1, 500), "delta": (1e-12, 0.1)},
         tuple({"s1": s1, "k1": k1, "s2": s2, "k2": k2, "delta": d} for (s1, k1), (s2, k2), d in HETERO)),
        (F_DELTA, __name__ + ".calls:pure_delta", kov15_delta, "k-fold pure eps-DP: delta(eps_g), upper end",
         {"eps": (0.001, 2.0), "k": (1, 1000), "eps_g": (0.0, 20.0)},
         tuple({"eps": float(e), "k": k, "eps_g": g} for e, k, g in PURE)),
    ]
    return [Declaration(peer=PEER.name, function=f, call=call, reference=ref, inputs=dom, kind="conversion",
                        claim="upper", examples=ex, cites=CITES, against=against, check=check)
            for f, call, ref, check, dom, ex in spec for against in ("cited", "truth")]


def sgm_declarations() -> list[Declaration]:
    """The Poisson-subsampled Gaussian (DP-SGD) path."""
    return [
        decl(PEER.name, "prv_accountant.PRVAccountant(PoissonSubsampledGaussianMechanism).compute_epsilon [upper]",
             __name__ + ".calls:epsilon_upper", "composition.sgm.eps",
             sgm_domain("delta", **PRV_SPANS),
             examples=({"q": 1.0, "sigma": 1.0, "k": 100, "delta": 1e-5}, {"q": 0.01, "sigma": 0.8, "k": 1,
                                                                            "delta": 1e-5}),
             cites="Gopi, Lee, Wutschitz 2021, arXiv:2106.02848v2, Thm 5.5", against="truth", rate=0.5),
        decl(PEER.name, "prv_accountant.PRVAccountant(PoissonSubsampledGaussianMechanism).compute_delta [upper]",
             __name__ + ".calls:delta_upper", "composition.sgm.delta",
             batched(sgm_domain("eps_g", **PRV_SPANS)),
             examples=({"q": 1.0, "sigma": 1.0, "k": 10, "eps_g": 3.0},),
             cites="Gopi, Lee, Wutschitz 2021, Thm 5.5", against="truth"),
    ]


# ------------------------------------------------------------------ the PRVs' Renyi curves (``PRV.rdp(alpha)``)

def gauss_rdp(sigma, alpha):
    """alpha / (2 sigma^2): the order-alpha Renyi divergence of N(0, sigma^2) and N(1, sigma^2) (Mironov 2017,
    arXiv:1702.07476v3, Prop. 7), exactly (a rational of the given floats)."""
    from dpbounds.evaluation.enclosure import Enclosure
    v = Fraction(alpha) / (2 * Fraction(sigma) ** 2)
    return Enclosure(v, v, 130)


def laplace_rdp_of_mu(mu, alpha):
    """The Renyi curve of the Laplace PRV ``LaplaceMechanism(mu)`` (privacy loss in [-mu, mu]: scale b = 1/mu per
    unit sensitivity): the registry's mechanisms.laplace.rdp at b = 1/mu (Mironov 2017, Table II), certified."""
    from dpbounds.evaluation.evaluate import enclose
    return enclose("mechanisms.laplace.rdp", {"b": 1 / Fraction(mu), "alpha": Fraction(alpha)},
                   rel_tol=Fraction(1, 10**30))


gauss_rdp.ref_id = "prv_accountant.gauss_rdp (Mir17 Prop. 7)"  # type: ignore[attr-defined]
laplace_rdp_of_mu.ref_id = "mechanisms.laplace.rdp (b = 1/mu)"  # type: ignore[attr-defined]

_ORDERS = [1.01, 1.1, 1.5, 2, 3, 4.5, 8, 16, 32, 64]


def rdp_declarations() -> list[Declaration]:
    """Each PRV's ``rdp(alpha)``: the order-alpha Renyi divergence the library's RDP accountant (and its domain-size
    rule, ``compute_safe_domain_size``) sums; an RDP value is a privacy claim, smaller claims more privacy."""
    mod = "prv_accountant.privacy_random_variables."
    return [
        decl(PEER.name, mod + "GaussianMechanism.rdp", __name__ + ".calls:gaussian_rdp", gauss_rdp,
             {"sigma": (0.3, 100.0), "alpha": _ORDERS},
             examples=({"sigma": 1.0, "alpha": 2}, {"sigma": 0.7, "alpha": 32}, {"sigma": 3.0, "alpha": 1.1}),
             cites="Mironov 2017, arXiv:1702.07476v3, Prop. 7 (alpha/(2 sigma^2))", against="truth"),
        decl(PEER.name, mod + "LaplaceMechanism.rdp", __name__ + ".calls:laplace_rdp", laplace_rdp_of_mu,
             {"mu": (0.01, 10.0), "alpha": _ORDERS},
             examples=({"mu": 1.0, "alpha": 2}, {"mu": 0.1, "alpha": 1.5}, {"mu": 3.0, "alpha": 32}),
             cites="Mironov 2017, arXiv:1702.07476v3, Table II (Laplace)", against="truth"),
        decl(PEER.name, mod + "PoissonSubsampledGaussianMechanism.rdp", __name__ + ".calls:subsampled_gaussian_rdp",
             "mechanisms.sgm.rdp", {"q": (1e-4, 1.0), "sigma": (0.5, 50.0), "alpha": [2, 3, 4, 8, 16, 32, 64]},
             examples=({"q": 0.01, "sigma": 1.0, "alpha": 8}, {"q": 1.0, "sigma": 2.0, "alpha": 3},
                       {"q": 0.1, "sigma": 0.8, "alpha": 32}),
             cites="Mironov, Talwar, Zhang 2019, arXiv:1908.10530v1, Sec. 3.3 (integer orders; TF Privacy's code)",
             against="cited"),
        decl(PEER.name, mod + "PureDPMechanism.rdp", __name__ + ".calls:pure_dp_rdp", rr_rdp,
             {"eps": (0.01, 5.0), "alpha": _ORDERS},
             examples=({"eps": 1.0, "alpha": 1.1}, {"eps": 0.1, "alpha": 2}, {"eps": 1.0, "alpha": 64}),
             cites="the PRV is randomized response RR_eps; its Renyi curve: Mironov 2017, arXiv:1702.07476v3 "
                   "(RR row of the basic mechanisms)", against="truth"),
        decl(PEER.name, mod + "ApproximateDPMechanism.rdp", __name__ + ".calls:approximate_dp_rdp", rr_rdp,
             {"eps": (0.01, 5.0), "alpha": _ORDERS},
             examples=({"eps": 1.0, "alpha": 1.1}, {"eps": 0.5, "alpha": 4.5}),
             cites="documented as the RDP conditioned on a finite privacy loss: the finite part is RR_eps "
                   "(Mironov 2017, arXiv:1702.07476v3)", against="truth"),
    ]


def dpsgd_declarations() -> list[Declaration]:
    """The DP-SGD entry points: ``DPSGDAccountant``, the deprecated ``Accountant``, the ``RDP`` accountant of
    ``other_accountants`` over the subsampled Gaussian PRV, and ``find_noise_multiplier``."""
    from .. import _sgm_calibration as C
    from .._common import K1_EPS_EXAMPLES, Q1_EPS_EXAMPLES
    cites = "Gopi, Lee, Wutschitz 2021, arXiv:2106.02848v3, Thm 5.5 (the upper end)"
    return [
        decl(PEER.name, "prv_accountant.dpsgd.DPSGDAccountant.compute_epsilon [upper]",
             __name__ + ".calls:dpsgd_epsilon_upper", "composition.sgm.eps",
             sgm_domain("delta", **PRV_SPANS),
             examples=(Q1_EPS_EXAMPLES[1], Q1_EPS_EXAMPLES[3], K1_EPS_EXAMPLES[0]), cites=cites, against="truth",
             rate=0.5),
        decl(PEER.name, "prv_accountant.accountant.Accountant.compute_epsilon [upper]",
             __name__ + ".calls:legacy_epsilon_upper", "composition.sgm.eps",
             sgm_domain("delta", **PRV_SPANS),
             examples=(Q1_EPS_EXAMPLES[2], K1_EPS_EXAMPLES[1]), cites=cites, against="truth", rate=0.5),
        decl(PEER.name, "prv_accountant.other_accountants.RDP(PoissonSubsampledGaussianMechanism).compute_epsilon",
             __name__ + ".calls:rdp_accountant_epsilon", "composition.sgm.eps", batched(SGM_EPS),
             examples=(Q1_EPS_EXAMPLES[0], Q1_EPS_EXAMPLES[4], K1_EPS_EXAMPLES[2]),
             cites="Mironov, Talwar, Zhang 2019, arXiv:1908.10530v1 + Mironov 2017 Prop. 3 (TF Privacy's conversion)",
             against="truth"),
    ] + C.calibration_declarations(PEER.name, "prv_accountant.dpsgd.find_noise_multiplier",
                                   __name__ + ".calls:find_noise_multiplier")
