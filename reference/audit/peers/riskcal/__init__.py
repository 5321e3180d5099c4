"""riskcal 1.5.1: f-DP trade-off curves and attack advantage from GDP, (eps, delta)-DP, RDP, zCDP, and DP-SGD's
curve (via dp_accounting's connect-the-dots PLD).  Trade-off curves are lower claims (a larger type-II error claims
more privacy); advantages are upper claims."""

from fractions import Fraction

from dpbounds.testing.declarations import Peer
from .. import _refs
from dpbounds.testing.domains import Grid
from .._common import FPR, SGM_BATCH, decl

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
        decl(PEER.name, "riskcal.analysis.get_advantage_from_zcdp", __name__ + ".calls:advantage_from_zcdp",
             zcdp_advantage, {"rho": (1e-4, 3.0)}, examples=({"rho": 0.5}, {"rho": 0.01}, {"rho": 3.0}),
             cites="Bun, Steinke 2016, arXiv:1605.02065v1; Zhu et al. 2022 App. F.1 (the zCDP trade-off curve); "
                   "its advantage at the curve's fixed point", against="cited"),
        decl(PEER.name, "riskcal.analysis.get_advantage_from_zcdp_approx", __name__ + ".calls:advantage_from_zcdp_approx",
             zcdp_advantage, {"rho": (1e-4, 3.0)}, examples=({"rho": 0.5},),
             cites="deprecated; calls get_advantage_from_zcdp", against="cited"),
        decl(PEER.name, "riskcal.calibration.dpsgd.get_beta_for_dpsgd", __name__ + ".calls:beta_for_dpsgd",
             _refs.sgm_tradeoff, {"q": [1.0], "sigma": (0.5, 20.0), "k": (1, 1000), "fpr": FPR}, claim="lower",
             examples=({"q": 1.0, "sigma": 0.5, "k": 10, "fpr": 0.1}, {"q": 1.0, "sigma": 1.0, "k": 10, "fpr": 1e-4}),
             cites="Kulynych et al. 2024, arXiv:2407.02191 (riskcal), via dp_accounting's PLD", against="truth"),
    ] + _more()


# ------------------------------------------------------------------ closed forms the registry has no id for

def _arb_enclosure(x):
    from dpbounds.evaluation.enclosure import CertificationError, Enclosure
    from dpbounds.evaluation.numeric import arb_endpoints
    ends = arb_endpoints(x)
    if ends is None:
        raise CertificationError("riskcal reference: the ball is not finite")
    return Enclosure(ends[0], ends[1], 130)


def eps_from_err_rates(delta, fpr, fnr):
    """The smallest eps >= 0 with which (eps, delta)-DP allows a test with errors (fpr, fnr): the (eps, delta)
    hypothesis-testing region alpha + e^eps beta >= 1 - delta, e^eps alpha + beta >= 1 - delta (Kairouz, Oh,
    Viswanath 2015, arXiv:1311.0776v4, Thm 2.1; DRS22 Prop. 2.5), solved for eps: max(0, log((1 - delta - fpr)/fnr),
    log((1 - delta - fnr)/fpr)), in arb."""
    from flint import arb

    from dpbounds.evaluation.enclosure import CertificationError, Enclosure
    from dpbounds.evaluation.numeric import arb_endpoints, arb_prec, fraction_to_arb
    d, a, b = (fraction_to_arb(Fraction(v)) for v in (delta, fpr, fnr))
    with arb_prec(256):
        ends = [arb_endpoints(((1 - d - a) / b).log()), arb_endpoints(((1 - d - b) / a).log())]
    if any(e is None for e in ends):
        raise CertificationError("riskcal eps_from_err_rates: a log's ball is not finite")
    return Enclosure(max(ends[0][0], ends[1][0], Fraction(0)), max(ends[0][1], ends[1][1], Fraction(0)), 130)


def _phi(x):
    from flint import arb
    return (1 + (x / arb(2).sqrt()).erf()) / 2


def bayes_risk_gdp(mu, prior):
    """The Bayes risk of mu-GDP at a binary prior pi >= 1/2: (1 - pi)(1 - delta_mu(log(pi/(1 - pi)))) with delta_mu
    the mu-GDP privacy curve (Kulynych et al. 2025, arXiv:2507.06969v1, Prop. D.1 / Eq. 35; DRS22 Cor. 2.13), in
    arb.  A larger risk claims more privacy."""
    from flint import arb

    from dpbounds.evaluation.numeric import arb_prec, fraction_to_arb
    from dpbounds.spec import DomainError
    p = Fraction(prior)
    if not Fraction(1, 2) <= p < 1:
        raise DomainError("prior", prior, "[1/2, 1) (the GDP curve at eps >= 0)", "riskcal bayes_risk_gdp")
    with arb_prec(256):
        m, pa = fraction_to_arb(Fraction(mu)), fraction_to_arb(p)
        ee = pa / (1 - pa)
        eps = ee.log()
        delta = _phi(-eps / m + m / 2) - ee * _phi(-eps / m - m / 2)
        return _arb_enclosure((1 - pa) * (1 - delta))


def gauss_beta(sigma, fpr):
    """G_{1/sigma}(fpr): the exact trade-off curve of one Gaussian mechanism N(0, sigma^2) on sensitivity 1 (DRS22,
    arXiv:1905.02383v3, Def. 2.5 and Thm 2.7), the registry's tradeoff.gdp at mu = 1/sigma."""
    from dpbounds.evaluation.evaluate import enclose
    return enclose("tradeoff.gdp", {"mu": 1 / Fraction(sigma), "fpr": Fraction(fpr)}, rel_tol=Fraction(1, 10**30))


def gauss_advantage(sigma):
    """2 Phi(1/(2 sigma)) - 1: the attack advantage of one Gaussian mechanism (tradeoff.gdp.advantage at 1/sigma)."""
    from dpbounds.evaluation.evaluate import enclose
    return enclose("tradeoff.gdp.advantage", {"mu": 1 / Fraction(sigma)}, rel_tol=Fraction(1, 10**30))


def gauss_bayes_risk(sigma, prior):
    """bayes_risk_gdp at mu = 1/sigma: one Gaussian mechanism is exactly (1/sigma)-GDP."""
    return bayes_risk_gdp(1 / Fraction(sigma), prior)


def sgm_advantage(q, sigma, k):
    """The attack advantage of k Gaussian steps at q = 1: 2 Phi(mu/2) - 1 at mu = sqrt(k)/sigma (DRS22 Cor. 3.3),
    increasing in mu: tradeoff.gdp.advantage at the certified ends of mu."""
    from dpbounds.evaluation.enclosure import Enclosure
    from dpbounds.evaluation.evaluate import enclose
    _refs._q_one(q, "riskcal sgm_advantage")
    lo, hi = _refs._mu_ends(sigma, k)
    t = Fraction(1, 10**30)
    return Enclosure(enclose("tradeoff.gdp.advantage", {"mu": lo}, rel_tol=t).lo,
                     enclose("tradeoff.gdp.advantage", {"mu": hi}, rel_tol=t).hi, 130)


#: the calibrations' documented tolerances (riskcal's defaults advantage_tol = beta_tol = 1e-3): the calibrated
#: noise is claimed to reach the target up to them, so sigma_min is taken at the target relaxed by the tolerance
ADVANTAGE_TOL = BETA_TOL = Fraction(1, 1000)


def _sigma_min_q1(k, allowed):
    """sqrt(k)/mu_max with mu_max the largest mu that ``allowed(mu)`` accepts (monotone: True below mu_max),
    bracketed by certified bisection; an undecided comparison ends the bisection with the bracket it has."""
    from flint import arb

    from dpbounds.evaluation.enclosure import Enclosure
    from dpbounds.evaluation.numeric import arb_endpoints, arb_prec, fraction_to_arb
    lo, hi = Fraction(0), Fraction(200)
    for _ in range(100):
        mid = (lo + hi) / 2
        ok = allowed(mid)
        if ok is None:
            break
        lo, hi = (mid, hi) if ok else (lo, mid)
    with arb_prec(256):
        s_lo = arb_endpoints(arb(int(k)).sqrt() / fraction_to_arb(hi))[0]
        s_hi = arb_endpoints(arb(int(k)).sqrt() / fraction_to_arb(lo))[1] if lo > 0 else Fraction(10**9)
    return Enclosure(s_lo, s_hi, 130)


def sgm_sigma_for_advantage(q, k, advantage):
    """The smallest sigma with which k Gaussian steps at q = 1 have advantage at most a + ADVANTAGE_TOL:
    sqrt(k)/mu_a with 2 Phi(mu_a/2) - 1 = a + tol (DRS22 Cor. 3.3), certified bisection on the increasing
    advantage (tradeoff.gdp.advantage)."""
    from dpbounds.evaluation.evaluate import enclose
    _refs._q_one(q, "riskcal sgm_sigma_for_advantage")
    a = Fraction(advantage) + ADVANTAGE_TOL

    def allowed(mu):
        e = enclose("tradeoff.gdp.advantage", {"mu": mu}, rel_tol=Fraction(1, 10**30))
        return True if e.hi <= a else False if e.lo > a else None
    return _sigma_min_q1(k, allowed)


def sgm_sigma_for_err_rates(q, k, fpr, fnr):
    """The smallest sigma with which k Gaussian steps at q = 1 have type-II error at least fnr - BETA_TOL at type-I
    error fpr: sqrt(k)/mu_max with G_mu_max(fpr) = fnr - tol (DRS22 Def. 2.5, Cor. 3.3), certified bisection on the
    decreasing G_mu(fpr) (tradeoff.gdp)."""
    from dpbounds.evaluation.evaluate import enclose
    _refs._q_one(q, "riskcal sgm_sigma_for_err_rates")
    b, f = Fraction(fnr) - BETA_TOL, Fraction(fpr)

    def allowed(mu):
        e = enclose("tradeoff.gdp", {"mu": mu, "fpr": f}, rel_tol=Fraction(1, 10**30))
        return True if e.lo >= b else False if e.hi < b else None
    return _sigma_min_q1(k, allowed)


def zcdp_advantage(rho):
    """The largest advantage 1 - fpr - f(fpr) on rho-zCDP's trade-off curve f (registry tradeoff.zcdp): f is convex
    (the Renyi divergence is jointly quasi-convex, van Erven, Harremoes 2014, arXiv:1206.2459v2, Thm 13, so each
    order's binary-test region is convex, and so is their intersection) and symmetric (each constraint binds both
    directions), so 1 - x - f(x) is concave and takes equal values at x and f(x): its maximum is at the fixed point
    f(x0) = x0, adv = 1 - 2 x0.  x0 by bisection on x in [0, 1/2] at exact rationals, each side decided where
    tradeoff.zcdp's certified enclosure (relative width 1e-9) lies wholly above or below x."""
    from dpbounds.evaluation.enclosure import CertificationError
    from dpbounds.evaluation.evaluate import enclose

    def curve(x):
        for tol in (10 ** 9, 10 ** 7, 10 ** 5):   # the width tradeoff.zcdp certifies depends on the point
            try:
                return enclose("tradeoff.zcdp", {"rho": r, "fpr": x}, rel_tol=Fraction(1, tol))
            except CertificationError:
                continue
        raise CertificationError("riskcal.zcdp_advantage: tradeoff.zcdp not certified to 1e-5 here")
    r = Fraction(rho)
    lo, hi = Fraction(0), Fraction(1, 2)
    for _ in range(60):
        mid = (lo + hi) / 2
        e = curve(mid)
        if e.lo > mid:
            lo = mid
        elif e.hi < mid:
            hi = mid
        else:
            break
    return _refs._enclosure(1 - 2 * hi, 1 - 2 * lo)


for _f, _id in ((eps_from_err_rates, "riskcal.eps_from_err_rates (KOV15 Thm 2.1)"),
                (bayes_risk_gdp, "riskcal.bayes_risk_gdp (Kulynych et al. 2025 Eq. 35)"),
                (gauss_beta, "tradeoff.gdp (mu = 1/sigma)"), (gauss_advantage, "tradeoff.gdp.advantage (mu = 1/sigma)"),
                (gauss_bayes_risk, "riskcal.bayes_risk_gdp (mu = 1/sigma)"),
                (sgm_advantage, "tradeoff.gdp.advantage (q = 1, mu = sqrt(k)/sigma)"),
                (sgm_sigma_for_advantage, "riskcal.sgm_sigma_for_advantage (q = 1, target + 1e-3)"),
                (sgm_sigma_for_err_rates, "riskcal.sgm_sigma_for_err_rates (q = 1, target - 1e-3)"),
                (zcdp_advantage, "riskcal.zcdp_advantage")):
    _f.ref_id = _id  # type: ignore[attr-defined]
zcdp_advantage.cost_class = "opaque"  # type: ignore[attr-defined]  (a bisection on tradeoff.zcdp: seconds)

DRS = "Dong, Roth, Su 2022, arXiv:1905.02383v3"
KUL25 = "Kulynych et al. 2025, arXiv:2507.06969v1, Prop. D.1 / Eq. 35"
_SIG = {"sigma": (0.3, 20.0)}
_Q1K = {"q": [1.0], "sigma": (0.5, 20.0), "k": (1, 1000)}
#: the DP-SGD epsilon searches: a pool of (q, sigma, k), SGM_BATCH deltas per draw (the calls keep the PLD composed
#: per (q, sigma, k)), one draw in eight over the continuous spans; the pool's k at most 200 (a PLD of k = 1000 steps
#: at sigma 1.2 takes over 20 s here)
_CTD_EPS = {"q": [1.0], "sigma": Grid([1.2, 2.0, 5.0], (0.5, 20.0), batch=SGM_BATCH),
            "k": Grid([1, 20, 200], (1, 1000), batch=SGM_BATCH), "delta": (1e-12, 0.1)}
_EVALUATOR_EPS = {"q": Grid([0.01, 0.05, 1.0], (1e-2, 1.0), batch=SGM_BATCH),
                  "sigma": Grid([1.2, 2.0, 5.0], (0.5, 20.0), batch=SGM_BATCH),
                  "k": Grid([1, 20, 100], (1, 100), batch=SGM_BATCH), "delta": (1e-10, 0.1)}
_ADV = {"q": [1.0], "k": (1, 1000), "advantage": (0.01, 0.9)}
_ADV_EX = ({"q": 1.0, "k": 10, "advantage": 0.1}, {"q": 1.0, "k": 100, "advantage": 0.5})
_ERR = {"q": [1.0], "k": (1, 1000), "fpr": (1e-4, 0.5), "fnr": (0.05, 0.95)}
_ERR_EX = ({"q": 1.0, "k": 10, "fpr": 0.1, "fnr": 0.5}, {"q": 1.0, "k": 100, "fpr": 0.01, "fnr": 0.8})
_CAL = DRS + ", Cor. 3.3 (q = 1: sqrt(k)/sigma-GDP), at the target relaxed by riskcal's documented tolerance 1e-3"
_CHK_ADV = "noise multiplier for advantage <= target (+ advantage_tol) after k steps: at least sigma_min"
_CHK_ERR = "noise multiplier for beta(fpr) >= target (- beta_tol) after k steps: at least sigma_min"


def _more():
    """The rest of riskcal's public accounting surface with a reference: advantages, Bayes risks, the error-rate
    conversion, the PLD-based conversions on a Gaussian mechanism's PLD (exactly G_{1/sigma}), the accountant and
    the DP-SGD calibrations at q = 1 (closed forms)."""
    from .. import _sgm_calibration as C
    a = "riskcal.analysis.conversions."
    return [
        decl(PEER.name, a + "get_advantage_from_gdp", __name__ + ".calls:advantage_from_gdp", "tradeoff.gdp.advantage",
             {"mu": (1e-3, 20.0)}, examples=({"mu": 1.0}, {"mu": 0.1}, {"mu": 5.0}),
             cites=DRS + ", Cor. 2.13", against="cited"),
        decl(PEER.name, a + "get_advantage_from_adp", __name__ + ".calls:advantage_from_adp", "tradeoff.dp.advantage",
             {"eps": (0.0, 20.0), "delta": (0.0, 0.5)},
             examples=({"eps": 1.0, "delta": 1e-3}, {"eps": 0.0, "delta": 1e-3}, {"eps": 5.0, "delta": 1e-6}),
             cites=DRS + ", Prop. 2.5", against="cited"),
        decl(PEER.name, a + "get_epsilon_from_err_rates", __name__ + ".calls:epsilon_from_err_rates",
             eps_from_err_rates, {"delta": (0.0, 0.1), "fpr": (1e-6, 0.5), "fnr": (1e-6, 0.999)}, claim="lower",
             examples=({"delta": 0.001, "fpr": 0.001, "fnr": 0.8}, {"delta": 1e-5, "fpr": 0.1, "fnr": 0.2}),
             cites="Kairouz, Oh, Viswanath 2015, arXiv:1311.0776v4, Thm 2.1 (the least eps the errors allow)",
             against="cited"),
        decl(PEER.name, a + "get_bayes_risk_from_gdp", __name__ + ".calls:bayes_risk_from_gdp", bayes_risk_gdp,
             {"mu": (1e-2, 10.0), "prior": (0.5, 0.99)}, claim="lower",
             examples=({"mu": 1.0, "prior": 0.5}, {"mu": 2.0, "prior": 0.9}, {"mu": 0.5, "prior": 0.7}),
             cites=KUL25 + "; " + DRS + ", Cor. 2.13", against="cited"),
        decl(PEER.name, a + "get_beta_from_zcdp_approx", __name__ + ".calls:beta_from_zcdp_approx", "tradeoff.zcdp",
             {"rho": (1e-4, 10.0), "fpr": FPR}, claim="lower", examples=({"rho": 0.5, "fpr": 0.1},),
             cites="Bun, Steinke 2016, arXiv:1605.02065v1; Zhu et al. 2022 App. F.1 (calls get_beta_from_zcdp)",
             against="cited"),
        decl(PEER.name, a + "get_beta_from_pld (Gaussian PLD)", __name__ + ".calls:beta_from_gaussian_pld", gauss_beta,
             {**_SIG, "fpr": FPR}, claim="lower",
             examples=({"sigma": 1.0, "fpr": 0.1}, {"sigma": 0.5, "fpr": 1e-4}, {"sigma": 2.0, "fpr": 0.5}),
             cites=DRS + ", Def. 2.5 (one Gaussian mechanism is exactly G_{1/sigma})", against="truth"),
        decl(PEER.name, "riskcal.analysis._plrv.get_beta (riskcal.analysis.get_beta_from_plrvs on the Gaussian "
             "PLD's PLRVs)", __name__ + ".calls:beta_from_plrvs", gauss_beta, {**_SIG, "fpr": FPR}, claim="lower",
             examples=({"sigma": 1.0, "fpr": 0.1}, {"sigma": 0.5, "fpr": 1e-4}),
             cites=DRS + ", Def. 2.5 (one Gaussian mechanism is exactly G_{1/sigma})", against="truth"),
        decl(PEER.name, a + "get_advantage_from_pld (Gaussian PLD)", __name__ + ".calls:advantage_from_gaussian_pld",
             gauss_advantage, _SIG, examples=({"sigma": 1.0}, {"sigma": 0.5}, {"sigma": 3.0}),
             cites=DRS + ", Cor. 2.13", against="truth"),
        decl(PEER.name, a + "get_bayes_risk_from_pld (Gaussian PLD)", __name__ + ".calls:bayes_risk_from_gaussian_pld",
             gauss_bayes_risk, {**_SIG, "prior": (0.5, 0.99)}, claim="lower",
             examples=({"sigma": 1.0, "prior": 0.5}, {"sigma": 0.5, "prior": 0.9}),
             cites=KUL25, against="truth"),
        decl(PEER.name, "riskcal.accountants.ctd.CTDAccountant.get_beta", __name__ + ".calls:ctd_beta",
             _refs.sgm_tradeoff, {**_Q1K, "fpr": FPR}, claim="lower",
             examples=({"q": 1.0, "sigma": 1.0, "k": 10, "fpr": 0.1}, {"q": 1.0, "sigma": 2.0, "k": 100, "fpr": 0.01}),
             cites="Kulynych et al. 2024, arXiv:2407.02191 (riskcal), via dp_accounting's connect-the-dots PLD",
             against="truth"),
        decl(PEER.name, "riskcal.accountants.ctd.CTDAccountant.get_epsilon", __name__ + ".calls:ctd_epsilon",
             "composition.sgm.eps", _CTD_EPS,
             examples=({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5}, {"q": 1.0, "sigma": 2.0, "k": 100,
                                                                           "delta": 1e-6},
                       # the DP-SGD search's finding: 235.37932 where the certified eps is in [235.39746, 235.39844]
                       # (delta at their eps 1.00859e-12 > 1e-12, mpmath at 60 digits)
                       {"q": 1.0, "sigma": 2.0, "k": 1000, "delta": 1e-12}),
             cites="dp_accounting's connect-the-dots PLD (Doroshenko et al. 2022, arXiv:2207.04380v1)",
             against="truth"),
        decl(PEER.name, "riskcal.accountants.ctd.CTDAccountant.get_advantage", __name__ + ".calls:ctd_advantage",
             sgm_advantage, _Q1K, examples=({"q": 1.0, "sigma": 1.0, "k": 10}, {"q": 1.0, "sigma": 4.0, "k": 4}),
             cites=DRS + ", Cor. 3.3 (q = 1: sqrt(k)/sigma-GDP)", against="truth"),
        decl(PEER.name, "riskcal.calibration.dpsgd.get_advantage_for_dpsgd", __name__ + ".calls:advantage_for_dpsgd",
             sgm_advantage, _Q1K, examples=({"q": 1.0, "sigma": 1.0, "k": 10}, {"q": 1.0, "sigma": 2.0, "k": 1}),
             cites=DRS + ", Cor. 3.3 (q = 1: sqrt(k)/sigma-GDP)", against="truth"),
        decl(PEER.name, "riskcal.calibration.dpsgd.find_noise_multiplier_for_advantage",
             __name__ + ".calls:sigma_for_advantage", sgm_sigma_for_advantage, _ADV, examples=_ADV_EX,
             cites=_CAL, against="truth", check=_CHK_ADV),
        decl(PEER.name, "riskcal.calibration.blackbox.find_noise_multiplier_for_advantage (CTDAccountant)",
             __name__ + ".calls:sigma_for_advantage_blackbox", sgm_sigma_for_advantage,
             {**_ADV, "k": (1, 100)}, examples=_ADV_EX[:1], cites=_CAL, against="truth", check=_CHK_ADV),
        decl(PEER.name, "riskcal.calibration.dpsgd.find_noise_multiplier_for_err_rates",
             __name__ + ".calls:sigma_for_err_rates", sgm_sigma_for_err_rates, _ERR, examples=_ERR_EX,
             cites=_CAL, against="truth", check=_CHK_ERR),
        decl(PEER.name, "riskcal.calibration.dpsgd.create_dpsgd_epsilon_evaluator [evaluator(sigma).epsilon]",
             __name__ + ".calls:dpsgd_epsilon_evaluator", "composition.sgm.eps",
             _EVALUATOR_EPS,
             examples=({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5},
                       # the DP-SGD search's finding: 16.25222932127373 where the certified eps is in
                       # [16.252229690551758, 16.252230167388916] (2.3e-8 low)
                       {"q": 1.0, "sigma": 2.0, "k": 20, "delta": 1e-10}),
             cites="dp_accounting's connect-the-dots PLD (Doroshenko et al. 2022, arXiv:2207.04380v1)",
             against="truth"),
    ] + C.calibration_declarations(PEER.name, "riskcal.calibration.blackbox.find_noise_multiplier_for_epsilon_delta"
                                   "(CTDAccountant)", __name__ + ".calls:sigma_for_epsilon_delta")[:1]
