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
    return conversion_declarations() + sgm_declarations() + mechanism_declarations() + pure_declarations()


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
             cites="Zhu, Wang 2019 + Mironov 2017 Prop. 3", against="truth", rate=1.5),
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


# ------------------------------------------------------------------ pure DP, randomized response, Laplace

def _arb_ends(v, what: str):
    from dpbounds.evaluation.enclosure import CertificationError
    from dpbounds.evaluation.numeric import arb_endpoints
    ends = arb_endpoints(v)
    if ends is None:
        raise CertificationError(f"{what}: the ball is not finite")
    return ends


def _renyi_two_point(P, Q, A):
    """D_A(P || Q) of two laws on two points, P = (P, 1 - P), Q = (Q, 1 - Q), as an arb ball (A > 1)."""
    t = (A * P.log() + (1 - A) * Q.log()).exp() + (A * (1 - P).log() + (1 - A) * (1 - Q).log()).exp()
    return t.log() / (A - 1)


def _rr_p(p) -> "Fraction":
    from fractions import Fraction
    from dpbounds.spec import DomainError
    v = Fraction(p)
    if not 0 < v < 1:
        raise DomainError("p", p, "0 < p < 1", "randomized response")
    return max(v, 1 - v)   # RR with p and with 1 - p are the same pair, swapped


def rr_rdp_of_p(p, alpha):
    """D_alpha of randomized response that tells the truth with probability p: D_alpha((p, 1-p) || (1-p, p)) =
    log(p^alpha (1-p)^(1-alpha) + (1-p)^alpha p^(1-alpha)) / (alpha - 1) (Mironov 2017, arXiv:1702.07476v3, Table
    II, randomized response), in arb at the binary value of p."""
    from dpbounds.audit.peers._refs import _enclosure
    from dpbounds.evaluation.numeric import arb_prec, fraction_to_arb
    from fractions import Fraction
    P = _rr_p(p)
    with arb_prec(256):
        v = _renyi_two_point(fraction_to_arb(P), 1 - fraction_to_arb(P), fraction_to_arb(Fraction(alpha)))
        return _enclosure(*_arb_ends(v, "rr_rdp_of_p"))


def rr_eps_of_p(p, delta):
    """The exact eps(delta) of randomized response with truth probability p (p >= 1/2 after the swap): its privacy
    loss is +-eps0 = log(p/(1-p)) with probabilities p and 1 - p, so delta(eps) = p - e^eps (1 - p) on [0, eps0]
    and eps(delta) = log((p - delta)/(1 - p)) for delta < 2p - 1, else 0 (the hockey-stick divergence of the two
    laws; KOV15 Thm 3.3 at k = 1), in arb."""
    from fractions import Fraction
    from dpbounds.audit.peers._refs import _enclosure
    from dpbounds.evaluation.numeric import arb_prec, fraction_to_arb
    P, d = _rr_p(p), Fraction(delta)
    if d >= 2 * P - 1:
        return _enclosure(Fraction(0), Fraction(0))
    with arb_prec(256):
        return _enclosure(*_arb_ends(((fraction_to_arb(P - d)) / fraction_to_arb(1 - P)).log(), "rr_eps_of_p"))


def laplace_eps_of_b(b, delta):
    """The exact eps(delta) of the Laplace mechanism with scale b (sensitivity 1): the inverse in eps of
    mechanisms.laplace.delta, delta = 1 - exp((eps - 1/b)/2), i.e. eps = max(0, 1/b + 2 log(1 - delta)), in arb."""
    from fractions import Fraction
    from dpbounds.audit.peers._refs import _enclosure
    from dpbounds.evaluation.numeric import arb_prec, fraction_to_arb
    with arb_prec(256):
        lo, hi = _arb_ends(1 / fraction_to_arb(Fraction(b)) + 2 * (1 - fraction_to_arb(Fraction(delta))).log(),
                           "laplace_eps_of_b")
    return _enclosure(max(lo, Fraction(0)), max(hi, Fraction(0)))


def subsampled_rr_rdp(eps, prob, alpha):
    """The RDP at order alpha of Poisson-subsampled randomized response RR_eps (rate prob, add/remove): the larger of
    D_alpha((1-q) P + q Q || P) and D_alpha(P || (1-q) P + q Q) with P, Q = RR_eps's two output laws.  RR_eps is
    eps-DP, so any RDP bound claimed for every subsampled eps-DP mechanism is at least this (and RR_eps dominates
    every eps-DP pair, so subsampling it is the worst case: Zhu, Dong, Wang 2022, arXiv:2106.08567, dominating pairs
    under Poisson subsampling), in arb."""
    from fractions import Fraction
    from dpbounds.audit.peers._refs import _enclosure
    from dpbounds.evaluation.numeric import arb_prec, fraction_to_arb
    with arb_prec(256):
        E, q, A = (fraction_to_arb(Fraction(x)) for x in (eps, prob, alpha))
        P = E.exp() / (1 + E.exp())          # P = (p, 1 - p), Q = (1 - p, p)
        M = (1 - q) * P + q * (1 - P)
        ends = [_arb_ends(_renyi_two_point(M, P, A), "subsampled_rr_rdp"),
                _arb_ends(_renyi_two_point(P, M, A), "subsampled_rr_rdp")]
    return _enclosure(max(e[0] for e in ends), max(e[1] for e in ends))


def pate_gauss_rdp(sigma, alpha):
    """alpha / sigma^2: the Gaussian mechanism N(0, sigma^2 I) on a vote histogram, where one teacher's change moves
    two counts by one (l2 sensitivity sqrt 2; Papernot et al. 2018, arXiv:1802.08908v1, Prop. 8, data-independent
    GNMax; Mironov 2017, Prop. 7 at sensitivity sqrt 2), exactly."""
    from fractions import Fraction
    from dpbounds.audit.peers._refs import _enclosure
    v = Fraction(alpha) / Fraction(sigma) ** 2
    return _enclosure(v, v)


def tcdp_rdp(rho, w, alpha):
    """rho alpha: the RDP curve of (rho, w)-truncated CDP at every order alpha < w (Bun, Dwork, Rothblum, Steinke
    2018, STOC, Def. 1), exactly; raises DomainError at alpha >= w (the definition bounds nothing there)."""
    from fractions import Fraction
    from dpbounds.audit.peers._refs import _enclosure
    from dpbounds.spec import DomainError
    if not Fraction(alpha) < Fraction(w):
        raise DomainError("alpha", alpha, "alpha < w", "tCDP (BDRS18 Def. 1)")
    v = Fraction(rho) * Fraction(alpha)
    return _enclosure(v, v)


def _tradeoff_at_log(ref_id: str, logx, rel_tol, **params):
    """The registry's trade-off curve ``ref_id`` at fpr = e^logx (non-increasing in fpr: its certified value at the
    two rational ends of e^logx's ball), each end to relative width ``rel_tol``."""
    from fractions import Fraction
    from dpbounds.audit.peers._refs import _enclosure
    from dpbounds.evaluation.evaluate import enclose
    from dpbounds.evaluation.numeric import arb_prec, fraction_to_arb
    with arb_prec(256):
        f_lo, f_hi = _arb_ends(fraction_to_arb(Fraction(logx)).exp(), ref_id)
    lo = enclose(ref_id, {**params, "fpr": min(f_hi, Fraction(1))}, rel_tol=rel_tol).lo
    return _enclosure(lo, enclose(ref_id, {**params, "fpr": f_lo}, rel_tol=rel_tol).hi)


def tradeoff_rdp_at_log(alpha, R, logx):
    """tradeoff.rdp (the best trade-off curve one RDP point (alpha, R) implies) at fpr = e^logx, certified."""
    from dpbounds.audit.peers._refs import _TOL
    return _tradeoff_at_log("tradeoff.rdp", logx, _TOL, alpha=alpha, R=R)


def tradeoff_zcdp_at_log(rho, logx, rel_tol=None):
    """tradeoff.zcdp (the best trade-off curve rho-zCDP implies) at fpr = e^logx, certified (its evaluator certifies
    relative widths down to about 1e-11: :attr:`rel_tols`)."""
    return _tradeoff_at_log("tradeoff.zcdp", logx, rel_tol if rel_tol is not None else 1e-7, rho=rho)


tradeoff_zcdp_at_log.rel_tols = (1e-7, 1e-9)  # type: ignore[attr-defined]


def wor_gauss_instance_eps(prob, sigma, delta, rel_tol=None, near=None):
    """The exact eps(delta) of one concrete mechanism autodp's ``get_eps_rdp_subsampled(RDP_gaussian(sigma), delta,
    prob)`` covers: the sum of a sample drawn without replacement at rate prob of values in [0, 1] plus N(0, sigma^2)
    (replace-one sensitivity 1, the RDP_gaussian it is given), on the datasets all 0 and all 0 but one 1.  Its
    outputs are N(0, s^2) vs (1 - prob) N(0, s^2) + prob N(1, s^2) -- the one-step add/remove pair of the Poisson-
    subsampled Gaussian -- so its eps (both orders of the two datasets) is composition.sgm.eps at q = prob, k = 1;
    any bound autodp gives for every such mechanism is at least it."""
    from fractions import Fraction
    from .._sgm_calibration import _eps
    return _eps({"q": Fraction(prob), "sigma": Fraction(sigma), "k": 1, "delta": Fraction(delta)}, "add_remove",
                "poisson", rel_tol, near)


wor_gauss_instance_eps.rel_tols = (1e-5, 1e-7, 1e-9, 1e-11, 1e-13)  # type: ignore[attr-defined]
wor_gauss_instance_eps.near = True  # type: ignore[attr-defined]   (it takes near=, the peer's value)


def pure_declarations() -> list[Declaration]:
    """Pure DP and randomized response (rdp_bank, converter, dp_bank), the Laplace mechanism's eps, subsampled pure DP,
    PATE's data-independent Gaussian, truncated CDP, the log-coordinate trade-off curves, and subsampling without
    replacement on one concrete Gaussian instance."""
    from .. import _refs
    m = __name__ + ".calls:"
    pure = {"eps": (0.001, 10.0), "alpha": (1.001, 1000.0)}
    pure_ex = ({"eps": 1.0, "alpha": 2.0}, {"eps": 0.1, "alpha": 32.0}, {"eps": 5.0, "alpha": 1.5})
    rr = "Mironov 2017, arXiv:1702.07476v3, Table II (randomized response)"
    sinh = ("Bun, Steinke 2016, arXiv:1605.02065v1, proof of Lemma 1.4 (the sinh form): randomized response's RDP, "
            "the largest of any eps-DP pair (KOV15 dominance)")
    p_rr = {"p": (0.01, 0.99), "delta": (1e-12, 0.5)}
    p_rr_ex = ({"p": 0.7, "delta": 1e-5}, {"p": 0.9, "delta": 1e-8}, {"p": 0.2, "delta": 0.01})
    rr_eps = "randomized response's exact eps(delta) = log((p - delta)/(1 - p)) (KOV15 Thm 3.3 at k = 1)"
    logx = (-30.0, -1e-6)
    return [
        decl(PEER.name, "autodp.rdp_bank.RDP_pureDP", m + "rdp_pure_dp", _refs.rr_rdp, pure, examples=pure_ex,
             cites=sinh, against="truth"),
        decl(PEER.name, "autodp.converter.puredp_to_rdp", m + "puredp_to_rdp", _refs.rr_rdp, pure, examples=pure_ex,
             cites=sinh, against="truth"),
        decl(PEER.name, "autodp.rdp_bank.RDP_randresponse", m + "rdp_randresponse", rr_rdp_of_p,
             {"p": (0.01, 0.99), "alpha": (1.001, 1000.0)},
             examples=({"p": 0.7, "alpha": 2.0}, {"p": 0.55, "alpha": 32.0}, {"p": 0.1, "alpha": 1.5}), cites=rr,
             against="truth"),
        decl(PEER.name, "autodp.dp_bank.get_eps_randresp", m + "eps_randresp", rr_eps_of_p, p_rr, examples=p_rr_ex,
             cites="its RDP (" + rr + ") converted; against " + rr_eps, against="truth"),
        decl(PEER.name, "autodp.dp_bank.get_eps_randresp_optimal", m + "eps_randresp_optimal", rr_eps_of_p, p_rr,
             examples=p_rr_ex, cites=rr_eps, against="truth"),
        decl(PEER.name, "autodp.dp_bank.get_eps_laplace", m + "eps_laplace", laplace_eps_of_b,
             {"b": (0.05, 100.0), "delta": (1e-12, 0.5)},
             examples=({"b": 1.0, "delta": 1e-5}, {"b": 0.2, "delta": 1e-8}, {"b": 10.0, "delta": 0.01}),
             cites="its RDP (" + MIR17 + ", Table II) converted; against the Laplace mechanism's exact curve "
                   "mechanisms.laplace.delta inverted", against="truth"),
        decl(PEER.name, "autodp.rdp_bank.RDP_subsampled_pureDP", m + "rdp_subsampled_pure_dp", subsampled_rr_rdp,
             {"eps": (0.01, 5.0), "prob": (1e-4, 0.99), "alpha": (1.01, 256.0)},
             examples=({"eps": 1.0, "prob": 0.1, "alpha": 2.0}, {"eps": 0.5, "prob": 0.01, "alpha": 32.0},
                       {"eps": 2.0, "prob": 0.5, "alpha": 3.5}),
             cites="Zhu, Wang 2019, arXiv:1807.01647v2 (subsampled pure DP); against Poisson-subsampled randomized "
                   "response (Zhu, Dong, Wang 2022, arXiv:2106.08567, dominating pairs under subsampling)",
             against="truth"),
        decl(PEER.name, "autodp.rdp_bank.RDP_inde_pate_gaussian", m + "rdp_inde_pate_gaussian", pate_gauss_rdp,
             {"sigma": (0.1, 100.0), "alpha": (1.001, 1000.0)},
             examples=({"sigma": 1.0, "alpha": 2.0}, {"sigma": 40.0, "alpha": 32.0}),
             cites="Papernot et al. 2018, arXiv:1802.08908v1, Prop. 8 (data-independent GNMax: alpha/sigma^2)",
             against="cited"),
        decl(PEER.name, "autodp.rdp_bank.RDP_truncatedCDP", m + "rdp_truncated_cdp", tcdp_rdp,
             {"rho": (1e-6, 100.0), "w": (10.5, 1000.0), "alpha": (1.001, 10.0)},
             examples=({"rho": 0.1, "w": 20.0, "alpha": 3.0}, {"rho": 1.0, "w": 11.0, "alpha": 10.0}),
             cites="Bun, Dwork, Rothblum, Steinke 2018, STOC, Def. 1 ((rho, w)-tCDP: RDP <= rho alpha for alpha < w)",
             against="truth"),
        decl(PEER.name, "autodp.converter.single_rdp_to_fdp_and_fdp_grad_log (log(1 - f), as f)",
             m + "single_rdp_to_fdp_log", tradeoff_rdp_at_log, {"alpha": (1.01, 256.0), "R": (1e-4, 20.0),
                                                                "logx": logx}, claim="lower",
             examples=({"alpha": 4.0, "R": 0.5, "logx": -2.302585092994046}, {"alpha": 32.0, "R": 2.0, "logx": -5.0},
                       {"alpha": 1.5, "R": 0.05, "logx": -0.5}),
             cites="Zhu, Dong, Wang 2022, arXiv:2106.08567 (optimal RDP -> f-DP), in log coordinates",
             against="truth"),
        decl(PEER.name, "autodp.converter.rdp_to_fdp_and_fdp_grad_log (zCDP curve; log(1 - f), as f)",
             m + "rdp_to_fdp_log_zcdp", tradeoff_zcdp_at_log, {"rho": (1e-4, 10.0), "logx": logx}, claim="lower",
             examples=({"rho": 0.5, "logx": -2.302585092994046}, {"rho": 0.05, "logx": -0.7}),
             cites="Zhu, Dong, Wang 2022; the best curve rho-zCDP implies, in log coordinates", against="truth"),
        decl(PEER.name, "autodp.dp_bank.get_eps_rdp_subsampled (RDP_gaussian, without replacement)",
             m + "eps_rdp_subsampled_gaussian", wor_gauss_instance_eps,
             {"prob": (1e-3, 0.99), "sigma": (0.5, 20.0), "delta": (1e-10, 0.1)},
             examples=({"prob": 0.1, "sigma": 1.0, "delta": 1e-5}, {"prob": 0.01, "sigma": 2.0, "delta": 1e-6}),
             cites="Wang, Balle, Kasiviswanathan 2019, arXiv:1808.00087v2, Thm 9; against one mechanism it covers "
                   "(composition.sgm.eps at q = prob, k = 1: the pair N(0, s^2), (1 - prob) N(0, s^2) + prob N(1, s^2))",
             against="truth"),
    ]
