"""Google dp_accounting: ``rdp.compute_epsilon`` on zCDP curves against (a) the conversion it implements over the
orders it is given (CKS20 Prop. 12 = Balle et al. 2020 Thm 21, minimized over the same 162 orders) and (b) the
continuous CKS20 optimum; its PLD accountant on k-fold pure eps-DP (binary randomized response, the worst case)
against the exact optimal composition (KOV15 Theorem 3.3), composed as ``compose(event, count)`` and as
``compose(ComposedDpEvent([event] * k))``.

Declarations on the dpbounds.testing engine; the grid the audit has always checked is kept as explicit examples
(run first, one row each), the search covers the documented domain between them.  The audited rho is the float
the peer is given (``Fraction(float(rho))``), as before."""

from __future__ import annotations

from fractions import Fraction

from dpbounds.audit.peers._common import (DISCRETIZED, DISCRETIZED_STEPS, SGM_DELTA, SGM_EPS, batched, decl,
                                          sgm_domain)
from dpbounds.spec.papers import paper
from dpbounds.testing import Declaration
from dpbounds.testing.declarations import Peer

RHOS = ["0.0001", "0.01", "0.1", "1", "10"]
DELTAS = ["1e-10", "1e-6", "0.001"]
F_RDP = "dp_accounting.rdp.rdp_privacy_accountant.compute_epsilon"
F_PLD = "dp_accounting.pld.pld_privacy_accountant.PLDAccountant(REPLACE_ONE).compose + get_delta"
#: the orders the calls pass (calls.ORDERS, restated: this module must not import the peer)
#: (exactly the floats 1 + x / 10.0 the peer computes at)
ORDERS = [Fraction(1 + x / 10.0) for x in range(1, 100)] + [Fraction(a) for a in [*range(12, 64), 128, 256, 512]]
PEER = Peer(
    "dp_accounting",
    dist="dp-accounting",
    module="dp_accounting",
    install="not installed; pip install 'dpbounds[audit]'",
    note=f"compute_epsilon(orders, alpha*rho, delta) with {len(ORDERS)} orders from 1.1 to 512 (the orders of "
        "dp_accounting's own RdpAccountant default grid extended): (a) CKS20 minimized over those orders, (b) the "
        "continuous CKS20 optimum; PLD accountant on k-fold pure DP vs KOV15's exact optimum",
)
#: (noise_parameter, k, eps_g) of today's PLD grid
RR = [("0.5", 10, "1"), ("0.5", 10, "2"), ("0.9", 50, "1"), ("0.2", 4, "2"), ("0.95", 100, "1"),
      ("0.1", 3, "4"), ("0.8", 20, "1.5"), ("0.98", 400, "0.5"), ("0.7", 12, "2"), ("0.9", 100, "2")]
CKS20 = "Canonne, Kamath, Steinke, NeurIPS 2020, arXiv:2004.00010v4, Prop. 12"
KOV15 = f"Kairouz, Oh, Viswanath, ICML 2015, {paper('KOV15').arxiv_ref()}, Thm 3.3"


def _rho(rho) -> Fraction:
    return Fraction(float(rho))  # the curve the peer is given is alpha * float(rho)


def _cks20_at(rho: Fraction, delta: Fraction, alpha: Fraction) -> tuple[Fraction, Fraction]:
    """Certified enclosure of CKS20's eps at one order alpha (clamped at 0), via the spec's expression."""
    from dpbounds.evaluation.evaluate import enclose
    from dpbounds.spec import get
    e = get("conversions.cks20")
    var = e.optimize.var if e.optimize else "alpha"
    enc = enclose("conversions.cks20", {"rho": rho, "delta": delta, var: alpha}, rel_tol=Fraction(1, 10**20))
    return max(enc.lo, Fraction(0)), max(enc.hi, Fraction(0))


def cks20_on_orders(rho, delta):
    """CKS20 Prop. 12 minimized over dp_accounting's 162 orders (what compute_epsilon computes), certified."""
    from dpbounds.evaluation.enclosure import Enclosure
    encs = [_cks20_at(_rho(rho), Fraction(delta), a) for a in ORDERS]
    return Enclosure(min(lo for lo, _ in encs), min(hi for _, hi in encs), 64)


def gauss_lower(rho, delta):
    """The exact epsilon(delta) of the Gaussian mechanism with this rho (Balle, Wang 2018, arXiv:1805.06530v2,
    Thm 8), certified: a rho-zCDP mechanism, so no valid zCDP -> (eps, delta) conversion is below it (the true
    optimal conversion is not computed here; CKS20's optimum over alpha is an upper bound of it, not the truth)."""
    from dpbounds.accounting.conversions import eps_of
    return eps_of(_rho(rho), Fraction(delta), "gauss")


def _rr_eps_enclosure(p: float) -> tuple[Fraction, Fraction]:
    """Rational bounds on the eps of binary randomized response with dp_accounting's noise_parameter p:
    P(truth) = 1 - p/2, so eps = log(2/p - 1) (p is the float the peer was given)."""
    import mpmath
    ctx = mpmath.MPContext()
    ctx.dps = 60
    v = ctx.log(2 / ctx.mpf(Fraction(p).numerator) * Fraction(p).denominator - 1)
    q = Fraction(ctx.nstr(v, 55, min_fixed=-10**6, max_fixed=10**6))
    pad = abs(q) / 10**45 + Fraction(1, 10**60)
    return q - pad, q + pad


def kov15_rr(noise_parameter, k, eps_g):
    """The exact delta of k-fold eps-randomized response (KOV15 Thm 3.3), eps = log(2/p - 1) enclosed."""
    from dpbounds.evaluation.enclosure import Enclosure
    from dpbounds.evaluation.evaluate import enclose
    e_lo, e_hi = _rr_eps_enclosure(float(noise_parameter))
    q = {"k": int(k), "eps_g": Fraction(eps_g)}
    lo = enclose("conversions.kov15.exact", {**q, "eps": e_lo}, rel_tol=Fraction(1, 10**20)).lo
    hi = enclose("conversions.kov15.exact", {**q, "eps": e_hi}, rel_tol=Fraction(1, 10**20)).hi
    return Enclosure(max(lo, Fraction(0)), max(hi, Fraction(0)), 64)  # delta is increasing in eps


def _grid_declarations() -> list[Declaration]:
    out = []
    grid = tuple({"rho": r, "delta": d} for r in RHOS for d in DELTAS)
    gauss = "the Gaussian mechanism at this rho (BW18 Thm 8): below it, no rho-zCDP conversion is valid"
    for ref, cites, against in ((cks20_on_orders, CKS20, "cited"), (gauss_lower, gauss, "truth")):
        out.append(Declaration(peer=PEER.name, function=F_RDP, call=__name__ + ".calls:rdp_eps", reference=ref,
                               inputs={"rho": (1e-6, 100.0), "delta": (1e-15, 0.5)}, kind="conversion",
                               claim="upper", examples=grid, cites=cites, against=against,
                               check="zCDP -> (eps, delta): epsilon(delta)"))
    rr = tuple({"noise_parameter": p, "k": k, "eps_g": g} for p, k, g in RR)
    for call, how in ((__name__ + ".calls:rr_delta_count", "compose(event, count=k)"),
                      (__name__ + ".calls:rr_delta_composed", "compose(ComposedDpEvent([event] * k))")):
        for against in ("cited", "truth"):
            out.append(Declaration(peer=PEER.name, function=F_PLD, call=call, reference=kov15_rr,
                                   inputs={"noise_parameter": (0.01, 0.99), "k": (1, 500), "eps_g": (0.0, 10.0)},
                                   kind="conversion", claim="upper", examples=rr, cites=KOV15, against=against,
                                   check=f"k-fold randomized response (pure eps-DP): delta(eps_g), {how}"))
    return out


def declarations() -> list[Declaration]:
    return (_grid_declarations() + sgm_declarations() + calibration_declarations() + mechanism_declarations()
            + pure_declarations())


def calibration_declarations() -> list[Declaration]:
    """calibrate_dp_mechanism (PLD and RDP accountants) against the certified sigma_min (a sigma below it is
    unsound); PLDAccountant(REPLACE_ONE) on Poisson-sampled Gaussians against composition.sgm.eps under
    substitution; RdpAccountant(REPLACE_ONE) on SampledWithoutReplacementDpEvent against fixed-size batches; both
    accountants composing two phases of different (q, sigma) against composition.sgm.schedule.eps."""
    from dpbounds.audit.peers import _sgm_calibration as C
    out = []
    for acc, call in (("PLDAccountant", "calibrate_pld"), ("RdpAccountant", "calibrate_rdp")):
        out += C.calibration_declarations(PEER, f"dp_accounting.calibrate_dp_mechanism({acc}, PoissonSampled "
                                          "Gaussian x k)", __name__ + f".calls:{call}")
    out.append(decl(PEER, "dp_accounting.pld.PLDAccountant(REPLACE_ONE).get_epsilon (PoissonSampled Gaussian)",
                    __name__ + ".calls:pld_epsilon_replace_one", C.substitution_eps, C.SUB_DOMAIN,
                    examples=C.SUB_EXAMPLES, cites=C.CITES_SUB, against="truth",
                    check="eps(delta) of k steps, one example replaced, Poisson sampling"))
    out.append(decl(PEER, "dp_accounting.rdp.RdpAccountant(REPLACE_ONE).get_epsilon (SampledWithoutReplacement "
                    "Gaussian)", __name__ + ".calls:rdp_epsilon_without_replacement", C.fixed_size_eps,
                    C.WOR_DOMAIN, examples=C.WOR_EXAMPLES, cites=C.CITES_SUB, against="truth",
                    check="eps(delta) of k steps, batches of b of n without replacement, one example replaced"))
    for acc, call in (("PLDAccountant", "pld_schedule_epsilon"), ("RdpAccountant", "rdp_schedule_epsilon")):
        out.append(decl(PEER, f"dp_accounting.{acc}.compose(PoissonSampled Gaussian (q1, s1), k1).compose((q2, s2), "
                        "k2).get_epsilon", __name__ + f".calls:{call}", C.schedule_eps, C.SCHEDULE_DOMAIN,
                        examples=C.SCHEDULE_EXAMPLES, cites=C.CITES_SCHEDULE, against="truth",
                        check="eps(delta) of a two-phase DP-SGD schedule (heterogeneous composition)"))
    return out


# ---------------------------------------------------------------------------------------------------- DP-SGD paths (issue 28)
# dp_accounting 0.6.0 on DP-SGD: RDP and PLD accountants on ``PoissonSampledDpEvent(q, GaussianDpEvent(sigma))``
# and ``compute_epsilon`` at one order.  (Its zCDP conversion and pure-DP PLD are the older
# ``dpbounds.audit.dp_accounting_adapter``.)





def sgm_declarations():  # the DP-SGD / Gaussian-composition paths (issue 28)
    return [
        decl(PEER.name, "dp_accounting.rdp.RdpAccountant(PoissonSampledDpEvent(GaussianDpEvent)) RDP",
             __name__ + ".calls:rdp_at_order", "mechanisms.sgm.rdp",
             {"q": (1e-6, 1.0), "sigma": (0.3, 100.0), "alpha": [1.25, 1.5, 2, 2.5, 3, 4.5, 8, 10.5, 32, 256]},
             examples=({"q": 0.01, "sigma": 1.0, "alpha": 4.5}, {"q": 0.001, "sigma": 0.8, "alpha": 1.25},
                       {"q": 0.1, "sigma": 0.7, "alpha": 10.5}),
             cites="Mironov, Talwar, Zhang 2019, arXiv:1908.10530v1, Sec. 3.3-3.4", against="cited"),
        decl(PEER.name, "dp_accounting.rdp.RdpAccountant.get_epsilon", __name__ + ".calls:rdp_epsilon",
             "composition.sgm.eps", batched(SGM_EPS), examples=({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5},
                                                        {"q": 0.01, "sigma": 1.0, "k": 1, "delta": 1e-5}),
             cites="MTZ19 + CKS20 Prop. 12", against="truth"),
        decl(PEER.name, "dp_accounting.pld.PLDAccountant.get_epsilon", __name__ + ".calls:pld_epsilon",
             "composition.sgm.eps", batched(sgm_domain("delta", DISCRETIZED_STEPS, **DISCRETIZED)),
             examples=({"q": 0.01, "sigma": 1.0, "k": 1, "delta": 1e-5},
                       # many rounds at a large eps (39.9); sigma 0.5 (eps 311)
                       # cost their PLD 48 s and 1.4 GB, the report's peak memory
                       {"q": 1.0, "sigma": 2.0, "k": 100, "delta": 1e-8},
                       # the DP-SGD search's finding: 0.376023 where the truth is
                       # in [0.38073, 0.38078] (prv_accountant's lower bound 0.37972)
                       {"q": 0.001, "sigma": 1.2, "k": 2000, "delta": 1e-12}),
             cites="Doroshenko et al. 2022, arXiv:2207.04380v1 (pessimistic connect-the-dots)", against="truth"),
        decl(PEER.name, "dp_accounting.pld.PLDAccountant.get_delta", __name__ + ".calls:pld_delta",
             "composition.sgm.delta", batched(sgm_domain("eps_g", DISCRETIZED_STEPS, **DISCRETIZED)),
             examples=({"q": 1.0, "sigma": 1.0, "k": 10, "eps_g": 3.0},
                       # the DP-SGD search's finding: 3.7818099e-13 where the certified delta is in
                       # [3.783556e-13, 3.788416e-13] (4.6e-4 low: the tiny-delta under-report of get_epsilon)
                       {"q": 0.05, "sigma": 5.0, "k": 200, "eps_g": 1.0}),
             cites="Doroshenko et al. 2022", against="truth"),
    ]


# ---------------------------------------------------------------------------------------------------- mechanisms


def gauss_delta_two(s1, s2, eps_g):
    """delta(eps_g) of two Gaussian mechanisms composed: the Gaussian curve at rho = 1/(2 s1^2) + 1/(2 s2^2)
    (zCDP composes additively and the composition of Gaussians is a Gaussian of that rho: BS16 Lemma 2.3)."""
    from dpbounds.audit.peers._refs import _enc, _q
    return _enc("conversions.gauss.delta", rho=1 / (2 * _q(s1) ** 2) + 1 / (2 * _q(s2) ** 2), eps_g=eps_g)


def kov15_one(eps, eps_g):
    """The exact delta(eps_g) of one pure eps-DP mechanism (binary randomized response, the worst case):
    conversions.kov15.exact at k = 1 (KOV15 Thm 3.3)."""
    from dpbounds.audit.peers._refs import _enc
    return _enc("conversions.kov15.exact", eps=eps, k=1, eps_g=eps_g)


BW18 = "Balle, Wang 2018, arXiv:1805.06530v2, Thm 8 (the analytic Gaussian mechanism)"
SENS = {"sensitivity": [1.0, 2.0]}


def mechanism_declarations() -> list[Declaration]:
    """The Gaussian and Laplace mechanisms' curves and calibrations, the RDP -> delta conversion and the RDP
    accountant's delta (every reference certified: BW18 for the Gaussian, the Laplace curve's closed form,
    the optimal single-order RDP conversion, composition.sgm.*)."""
    from dpbounds.audit.peers import _refs
    from dpbounds.audit.peers import _sgm_calibration as C
    m = __name__ + ".calls:"
    sig = {**SENS, "eps": (0.01, 20.0), "delta": (1e-12, 0.5)}
    sig_ex = ({"sensitivity": 1.0, "eps": 1.0, "delta": 1e-5}, {"sensitivity": 2.0, "eps": 10.0, "delta": 1e-10},
              {"sensitivity": 1.0, "eps": 0.1, "delta": 1e-6})
    out = [
        decl(PEER.name, "dp_accounting.gaussian_mechanism.get_epsilon_gaussian", m + "get_epsilon_gaussian",
             _refs.gauss_eps_of_sigma, {**SENS, "sigma": (0.05, 100.0), "delta": (1e-12, 0.5)},
             examples=({"sensitivity": 1.0, "sigma": 1.0, "delta": 1e-5},
                       {"sensitivity": 2.0, "sigma": 5.0, "delta": 1e-8}), cites=BW18, against="truth"),
        decl(PEER.name, "dp_accounting.gaussian_mechanism.get_sigma_gaussian", m + "get_sigma_gaussian",
             _refs.gauss_sigma_min, sig, examples=sig_ex, cites=BW18, against="truth"),
        decl(PEER.name, "dp_accounting.pld.accountant.get_smallest_gaussian_noise (num_queries 1)",
             m + "smallest_gaussian_noise", _refs.gauss_sigma_min, sig, examples=sig_ex,
             cites=BW18 + "; PLD search, Doroshenko et al. 2022, arXiv:2207.04380v1", against="truth"),
        decl(PEER.name, "dp_accounting.pld.privacy_loss_mechanism.GaussianPrivacyLoss.from_privacy_guarantee",
             m + "gaussian_from_guarantee", _refs.gauss_sigma_min, sig, examples=sig_ex, cites=BW18,
             against="truth"),
        decl(PEER.name, "dp_accounting.pld.accountant.get_smallest_laplace_noise (num_queries 1, delta 0)",
             m + "smallest_laplace_noise", _refs.laplace_scale_min, {**SENS, "eps": (0.01, 20.0)},
             examples=({"sensitivity": 1.0, "eps": 1.0}, {"sensitivity": 2.0, "eps": 0.3}),
             cites="Dwork, McSherry, Nissim, Smith 2006 (the Laplace mechanism: scale Delta/eps is eps-DP, and no "
                   "smaller scale is)", against="truth"),
        decl(PEER.name, "dp_accounting.pld.privacy_loss_mechanism.LaplacePrivacyLoss.from_privacy_guarantee "
             "(delta 0)", m + "laplace_from_guarantee", _refs.laplace_scale_min, {**SENS, "eps": (0.01, 20.0)},
             examples=({"sensitivity": 1.0, "eps": 1.0}, {"sensitivity": 2.0, "eps": 0.3}),
             cites="Dwork, McSherry, Nissim, Smith 2006", against="truth"),
        decl(PEER.name, "dp_accounting.pld.privacy_loss_mechanism.GaussianPrivacyLoss.get_delta_for_epsilon",
             m + "gaussian_loss_delta", _refs.gauss_delta_of_sigma, {"sigma": (0.05, 100.0), "eps_g": (0.0, 50.0)},
             examples=({"sigma": 1.0, "eps_g": 1.0}, {"sigma": 0.5, "eps_g": 3.0}, {"sigma": 5.0, "eps_g": 0.1}),
             cites=BW18, against="truth"),
        decl(PEER.name, "dp_accounting.pld.privacy_loss_mechanism.LaplacePrivacyLoss.get_delta_for_epsilon",
             m + "laplace_loss_delta", "mechanisms.laplace.delta", {"b": (0.05, 100.0), "eps_g": (0.0, 50.0)},
             examples=({"b": 1.0, "eps_g": 0.5}, {"b": 2.0, "eps_g": 0.1}, {"b": 0.5, "eps_g": 3.0}),
             cites="the Laplace mechanism's privacy profile (BBG18; proofs_check mechanisms.laplace.delta)",
             against="truth"),
        decl(PEER.name, "dp_accounting.pld.privacy_loss_distribution.PrivacyLossDistribution"
             ".get_delta_for_epsilon_for_composed_pld (two Gaussians)", m + "composed_pld_delta", gauss_delta_two,
             {"s1": (0.3, 50.0), "s2": (0.3, 50.0), "eps_g": (0.0, 20.0)},
             examples=({"s1": 1.0, "s2": 2.0, "eps_g": 1.0}, {"s1": 0.5, "s2": 0.5, "eps_g": 3.0}),
             cites="Doroshenko et al. 2022, arXiv:2207.04380v1; the exact curve: BW18 Thm 8 at the summed rho "
                   "(BS16 arXiv:1605.02065v1 Lemma 2.3)", against="truth"),
        decl(PEER.name, "dp_accounting.rdp.rdp_privacy_accountant.compute_delta", m + "compute_delta",
             "conversions.rdp.optimal.delta", {"alpha": (1.001, 256.0), "R": (1e-4, 50.0), "eps_g": (0.0, 50.0)},
             examples=({"alpha": 4.0, "R": 0.5, "eps_g": 1.0}, {"alpha": 32.0, "R": 2.0, "eps_g": 5.0},
                       {"alpha": 1.5, "R": 0.01, "eps_g": 0.1}),
             cites="CKS20 arXiv:2004.00010v4 Prop. 12 and the KL bound delta <= sqrt(1 - e^-R) (its comments); "
                   "against the optimal single-order conversion", against="truth"),
    ]
    out.append(decl(PEER.name, "dp_accounting.pld.privacy_loss_distribution.from_privacy_parameters (delta 0) "
                    ".get_delta_for_epsilon", m + "pure_pld_delta", kov15_one,
                    {"eps": (0.01, 10.0), "eps_g": (0.0, 10.0)},
                    examples=({"eps": 1.0, "eps_g": 0.5}, {"eps": 2.0, "eps_g": 0.1}, {"eps": 0.5, "eps_g": 0.0}),
                    cites=KOV15, against="truth"))
    sgm_delta = batched(SGM_DELTA)  # (the calls keep the composed RdpAccountant per (q, sigma, k))
    for f, c in (("RdpAccountant.get_delta", "rdp_delta"),
                 ("RdpAccountant.get_delta_and_optimal_order", "rdp_delta_and_order")):
        out.append(decl(PEER.name, f"dp_accounting.rdp.rdp_privacy_accountant.{f}", m + c, "composition.sgm.delta",
                        sgm_delta, examples=({"q": 1.0, "sigma": 1.0, "k": 10, "eps_g": 3.0},
                                             {"q": 1.0, "sigma": 2.0, "k": 100, "eps_g": 5.0},
                                             # the search's finding: 0.0 where the truth is 6.55e-1557 (below
                                             # the least float: a delta bound rounds up to 5e-324, not down)
                                             {"q": 0.001, "sigma": 5.0, "k": 1, "eps_g": 10.0}),
                        cites="MTZ19 + CKS20 Prop. 12 (delta form)", against="truth"))
    out.append(decl(PEER.name, "dp_accounting.rdp.rdp_privacy_accountant.RdpAccountant.get_epsilon_and_optimal_order",
                    m + "rdp_epsilon_and_order", "composition.sgm.eps", batched(SGM_EPS),
                    examples=({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5},
                              {"q": 0.01, "sigma": 1.0, "k": 1, "delta": 1e-5}),
                    cites="MTZ19 + CKS20 Prop. 12", against="truth"))
    out += C.calibration_declarations(PEER, "dp_accounting.pld.accountant.get_smallest_subsampled_gaussian_noise",
                                      m + "smallest_subsampled_gaussian_noise")
    return out


def pure_declarations() -> list[Declaration]:
    """Discrete Laplace calibrations, the advanced-composition inverse, the sparse (two-point) PMFs of pure and
    approximate DP and one direction of a mixture of Gaussians: each against its mechanism's exact curve (the
    pure-DP worst case is randomized response: KOV15 Sec. 2 and Thm 3.3; one subsampled-Gaussian direction in
    closed form), certified in ``_refs``."""
    from dpbounds.audit.peers import _refs
    m = __name__ + ".calls:"
    pld = "dp_accounting.pld."
    zdw = "Zhu, Dong, Wang 2022, arXiv:2106.08567v3 (the Poisson-subsampled Gaussian pair), one direction"
    mog = {"q": (1e-4, 1.0), "sigma": (0.3, 50.0), "eps_g": (0.0, 10.0)}
    mog_ex = ({"q": 0.1, "sigma": 1.0, "eps_g": 0.5}, {"q": 0.01, "sigma": 0.8, "eps_g": 0.1},
              {"q": 1.0, "sigma": 2.0, "eps_g": 1.0}, {"q": 0.5, "sigma": 0.5, "eps_g": 3.0})
    return [
        decl(PEER.name, pld + "accountant.get_smallest_discrete_laplace_noise (sensitivity 1)",
             m + "smallest_discrete_laplace_noise", _refs.dlap_parameter_max,
             {"k": (1, 50), "eps": (0.05, 10.0), "delta": (0.0, 0.1)}, claim="lower",
             examples=({"k": 1, "eps": 1.0, "delta": 1e-5}, {"k": 10, "eps": 1.0, "delta": 1e-5},
                       {"k": 3, "eps": 0.5, "delta": 0.0}, {"k": 1, "eps": 5.0, "delta": 1e-3}),
             cites="the discrete Laplace mechanism at sensitivity 1 is binary randomized response at its parameter; "
                   + KOV15, against="truth", check="the largest discrete Laplace parameter for (eps, delta) after k"),
        decl(PEER.name, pld + "privacy_loss_mechanism.DiscreteLaplacePrivacyLoss.from_privacy_guarantee (delta 0)",
             m + "discrete_laplace_from_guarantee", _refs.dlap_parameter_pure,
             {"sensitivity": [1, 2, 3], "eps": (0.01, 20.0), "sampling_prob": (1e-3, 1.0)}, claim="lower",
             examples=({"sensitivity": 1, "eps": 1.0, "sampling_prob": 1.0},
                       {"sensitivity": 2, "eps": 0.5, "sampling_prob": 0.1},
                       {"sensitivity": 1, "eps": 3.0, "sampling_prob": 0.01}),
             cites="the discrete Laplace privacy loss is at most a Delta, attained; Poisson sampling: log(1 - q + q "
                   "e^{a Delta}) (Balle, Barthe, Gaboardi 2018, arXiv:1807.01647v2, Thm 8)", against="truth",
             check="the largest discrete Laplace parameter for pure eps-DP"),
        decl(PEER.name, pld + "accountant.get_smallest_epsilon_from_advanced_composition",
             m + "advanced_composition_per_query", _refs.adv_comp_eps_per_query,
             {"k": (1, 100), "eps_total": (0.1, 10.0), "delta_total": (1e-8, 0.1), "di": (0.0, 1e-6)},
             claim="lower",
             examples=({"k": 10, "eps_total": 1.0, "delta_total": 1e-5, "di": 0.0},
                       {"k": 50, "eps_total": 2.0, "delta_total": 1e-3, "di": 1e-6},
                       {"k": 2, "eps_total": 1.0, "delta_total": 0.01, "di": 1e-6}),
             cites=KOV15 + " (inverted in the per-query eps)", against="truth",
             check="the largest per-query eps whose k-fold composition is (eps_total, delta_total)-DP"),
        decl(PEER.name, pld + "pld_pmf.SparsePLDPmf.get_epsilon_for_delta (from_privacy_parameters((eps, delta0)))",
             m + "sparse_epsilon_for_delta", _refs.dp_eps_for_delta,
             {"eps": (0.01, 10.0), "delta0": [0.0, 1e-6, 1e-3], "delta": (1e-12, 0.5)},
             examples=({"eps": 1.0, "delta0": 0.0, "delta": 1e-3}, {"eps": 2.0, "delta0": 1e-6, "delta": 1e-2},
                       {"eps": 0.5, "delta0": 0.0, "delta": 0.3}),
             cites="KOV15 arXiv:1311.0776v4 Sec. 2 (the (eps, delta0) randomized response dominates)",
             against="truth", check="eps_g(delta) of one (eps, delta0)-DP mechanism"),
        decl(PEER.name, pld + "pld_pmf.SparsePLDPmf.get_delta_for_epsilon_for_composed_pld (two "
             "from_privacy_parameters((eps_i, 0)))", m + "sparse_composed_delta", _refs.pure_pair_delta,
             {"eps1": (0.01, 5.0), "eps2": (0.01, 5.0), "eps_g": (0.0, 10.0)},
             examples=({"eps1": 1.0, "eps2": 0.5, "eps_g": 0.7}, {"eps1": 2.0, "eps2": 2.0, "eps_g": 1.0},
                       {"eps1": 0.3, "eps2": 0.1, "eps_g": 0.0}),
             cites="KOV15 arXiv:1311.0776v4 Sec. 2 (RR_eps1 x RR_eps2 dominates)", against="truth",
             check="delta(eps_g) of two pure-DP mechanisms composed"),
        decl(PEER.name, pld + "privacy_loss_mechanism.MixtureGaussianPrivacyLoss.get_delta_for_epsilon (REMOVE)",
             m + "mog_delta_remove", _refs.sgm1_delta_remove, mog, examples=mog_ex, cites=zdw + " (remove)",
             against="truth", check="delta(eps_g) of one subsampled Gaussian step, remove direction"),
        decl(PEER.name, pld + "privacy_loss_mechanism.MixtureGaussianPrivacyLoss.get_delta_for_epsilon (ADD)",
             m + "mog_delta_add", _refs.sgm1_delta_add, mog, examples=mog_ex, cites=zdw + " (add)",
             against="truth", check="delta(eps_g) of one subsampled Gaussian step, add direction"),
    ]
