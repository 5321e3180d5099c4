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

from dpbounds.audit.peers._common import SGM_EPS, decl
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
    return _grid_declarations() + sgm_declarations() + calibration_declarations()


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
             "composition.sgm.eps", SGM_EPS, examples=({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5},
                                                        {"q": 0.01, "sigma": 1.0, "k": 1, "delta": 1e-5}),
             cites="MTZ19 + CKS20 Prop. 12", against="truth"),
        decl(PEER.name, "dp_accounting.pld.PLDAccountant.get_epsilon", __name__ + ".calls:pld_epsilon",
             "composition.sgm.eps", SGM_EPS, examples=({"q": 0.01, "sigma": 1.0, "k": 1, "delta": 1e-5},
                                                        {"q": 1.0, "sigma": 0.5, "k": 100, "delta": 1e-8}),
             cites="Doroshenko et al. 2022, arXiv:2207.04380v1 (pessimistic connect-the-dots)", against="truth"),
        decl(PEER.name, "dp_accounting.pld.PLDAccountant.get_delta", __name__ + ".calls:pld_delta",
             "composition.sgm.delta", {"q": (1e-6, 1.0), "sigma": (0.5, 50.0), "k": (1, 10000),
                                       "eps_g": (0.0, 10.0)},
             examples=({"q": 1.0, "sigma": 1.0, "k": 10, "eps_g": 3.0},),
             cites="Doroshenko et al. 2022", against="truth"),
    ]
