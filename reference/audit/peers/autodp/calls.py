"""autodp's side of the autodp audit: imports only autodp and the standard library (runs in any interpreter)."""

from autodp import converter


def eps_bbghs(rho, delta):
    """``converter.rdp_to_approxdp`` with the BBGHS improvement, on the zCDP curve alpha -> alpha * rho."""
    return float(converter.rdp_to_approxdp(lambda a: a * rho, BBGHS_conversion=True)(delta))


def eps_classic(rho, delta):
    """``converter.rdp_to_approxdp`` without it (the optimized Mironov conversion)."""
    return float(converter.rdp_to_approxdp(lambda a: a * rho, BBGHS_conversion=False)(delta))


# ------------------------------------------------------------------ the Poisson-subsampled Gaussian (DP-SGD)

def _acct(q: float, sigma: float, k: int):
    from autodp import rdp_acct, rdp_bank
    a = rdp_acct.anaRDPacct()
    a.compose_poisson_subsampled_mechanisms(lambda x: rdp_bank.RDP_gaussian({"sigma": sigma}, x), q, coeff=int(k))
    return a


def rdp(q: float, sigma: float, alpha: float) -> float:
    """``anaRDPacct().compose_poisson_subsampled_mechanisms(RDP_gaussian(sigma), q).evalRDP(alpha)``: its RDP of
    one Poisson-subsampled Gaussian step at order alpha."""
    a = _acct(q, sigma, 1)
    a.build_zeroth_oracle()   # what get_eps does first; evalRDP is a stub returning 0 until then
    a.flag = True
    return float(a.evalRDP(alpha))


def epsilon(q: float, sigma: float, k: int, delta: float) -> float:
    """``anaRDPacct`` composed k times, ``get_eps(delta)``."""
    return float(_acct(q, sigma, k).get_eps(delta))


# ------------------------------------------------------------------ mechanisms, conversions, calibrations


def rdp_gaussian(sigma: float, alpha: float) -> float:
    """``rdp_bank.RDP_gaussian({'sigma': sigma}, alpha)``."""
    from autodp import rdp_bank
    return float(rdp_bank.RDP_gaussian({"sigma": sigma}, alpha))


def rdp_laplace(b: float, alpha: float) -> float:
    """``rdp_bank.RDP_laplace({'b': b}, alpha)``."""
    from autodp import rdp_bank
    return float(rdp_bank.RDP_laplace({"b": b}, alpha))


def rdp_zcdp(rho: float, alpha: float) -> float:
    """``rdp_bank.RDP_zCDP({'rho': rho}, alpha)``."""
    from autodp import rdp_bank
    return float(rdp_bank.RDP_zCDP({"rho": rho}, alpha))


def rdp_linear_interpolation(sigma: float, alpha: float) -> float:
    """``utils.RDP_linear_interpolation(RDP_gaussian(sigma), alpha)``: the convexity upper bound between integer
    orders, of the Gaussian's RDP."""
    from autodp import rdp_bank, utils
    return float(utils.RDP_linear_interpolation(lambda a: rdp_bank.RDP_gaussian({"sigma": sigma}, a), alpha))


def eps_ana_gaussian(sensitivity: float, sigma: float, delta: float) -> float:
    """``dp_bank.get_eps_ana_gaussian(sigma / sensitivity, delta)`` (the analytic Gaussian mechanism)."""
    from autodp import dp_bank
    return float(dp_bank.get_eps_ana_gaussian(sigma / sensitivity, delta))


def eps_gaussian(sensitivity: float, sigma: float, delta: float) -> float:
    """``dp_bank.get_eps_gaussian(sigma / sensitivity, delta)`` (through the Gaussian's RDP)."""
    from autodp import dp_bank
    return float(dp_bank.get_eps_gaussian(sigma / sensitivity, delta))


def eps_rdp(sensitivity: float, sigma: float, delta: float) -> float:
    """``dp_bank.get_eps_rdp(RDP_gaussian(sigma / sensitivity), delta)`` (the generic RDP -> eps)."""
    from autodp import dp_bank, rdp_bank
    s = sigma / sensitivity
    return float(dp_bank.get_eps_rdp(lambda a: rdp_bank.RDP_gaussian({"sigma": s}, a), delta))


def _exact_gaussian(sigma):
    from autodp import mechanism_zoo
    return mechanism_zoo.ExactGaussianMechanism(sigma)


def mech_gaussian_rdp(sigma: float, alpha: float) -> float:
    """``mechanism_zoo.ExactGaussianMechanism(sigma).get_RDP(alpha)`` (``Mechanism.get_RDP``)."""
    return float(_exact_gaussian(sigma).get_RDP(alpha))


def mech_gaussian_eps(sensitivity: float, sigma: float, delta: float) -> float:
    """``mechanism_zoo.ExactGaussianMechanism(sigma / sensitivity).get_eps(delta)`` (``Mechanism.get_eps``)."""
    return float(_exact_gaussian(sigma / sensitivity).get_eps(delta))


def mech_gaussian_delta(sigma: float, eps_g: float) -> float:
    """``mechanism_zoo.ExactGaussianMechanism(sigma).get_approx_delta(eps_g)`` (``Mechanism.get_approx_delta``)."""
    return float(_exact_gaussian(sigma).get_approx_delta(eps_g))


def mech_laplace_rdp(b: float, alpha: float) -> float:
    """``mechanism_zoo.LaplaceMechanism(b).get_RDP(alpha)``."""
    from autodp import mechanism_zoo
    return float(mechanism_zoo.LaplaceMechanism(b).get_RDP(alpha))


def ana_gaussian_sigma(sensitivity: float, eps: float, delta: float) -> float:
    """``calibrator_zoo.ana_gaussian_calibrator()(ExactGaussianMechanism, eps, delta).params['sigma']`` times the
    sensitivity (it calibrates sensitivity 1)."""
    from autodp import calibrator_zoo, mechanism_zoo
    mech = calibrator_zoo.ana_gaussian_calibrator()(mechanism_zoo.ExactGaussianMechanism, eps, delta)
    return float(sensitivity * mech.params["sigma"])


def eps_delta_sigma(sensitivity: float, eps: float, delta: float) -> float:
    """``calibrator_zoo.eps_delta_calibrator()(ExactGaussianMechanism, eps, delta, [0.01, 1000]).params['sigma']``
    times the sensitivity."""
    from autodp import calibrator_zoo, mechanism_zoo
    mech = calibrator_zoo.eps_delta_calibrator()(mechanism_zoo.ExactGaussianMechanism, eps, delta, [0.01, 1000])
    return float(sensitivity * mech.params["sigma"])


def generalized_eps_delta_sigma(sensitivity: float, eps: float, delta: float) -> float:
    """``calibrator_zoo.generalized_eps_delta_calibrator()(ExactGaussianMechanism, eps, delta, [0.01, 1000],
    params={'sigma': None}, para_name='sigma').params['sigma']`` times the sensitivity."""
    from autodp import calibrator_zoo, mechanism_zoo
    cal = calibrator_zoo.generalized_eps_delta_calibrator()
    def make(params, name=None):
        return mechanism_zoo.ExactGaussianMechanism(params["sigma"]) if name is None else \
            mechanism_zoo.ExactGaussianMechanism(params["sigma"], name=name)

    mech = cal(make, eps, delta, [0.01, 1000], params={"sigma": None}, para_name="sigma")
    return float(sensitivity * mech.params["sigma"])


def rdp_mech_sigma(sensitivity: float, eps: float, delta: float) -> float:
    """``privacy_calibrator.RDP_mech(RDP_gaussian, eps, delta, 'sigma', {'sigma': None})['sigma']`` times the
    sensitivity (the smallest sigma its RDP analysis accepts)."""
    # autodp.privacy_calibrator imported first is a circular import (it needs dp_bank, which imports it back):
    # dp_bank first, as autodp's own modules do
    from autodp import dp_bank  # noqa: F401
    from autodp import privacy_calibrator, rdp_bank
    out = privacy_calibrator.RDP_mech(rdp_bank.RDP_gaussian, eps, delta, "sigma", {"sigma": None})
    return float(sensitivity * out["sigma"])


def rdp_to_delta_zcdp(rho: float, eps_g: float) -> float:
    """``converter.rdp_to_delta(lambda a: a * rho)(eps_g)`` (BBGHS conversion)."""
    from autodp import converter
    return float(converter.rdp_to_delta(lambda a: a * rho)(eps_g))


def single_rdp_to_fdp(alpha: float, R: float, fpr: float) -> float:
    """``converter.single_rdp_to_fdp(alpha, R)(fpr)``: the trade-off curve implied by one RDP point."""
    from autodp import converter
    return float(converter.single_rdp_to_fdp(alpha, R)(fpr))


def rdp_to_fdp_zcdp(rho: float, fpr: float) -> float:
    """``converter.rdp_to_fdp(lambda a: a * rho)(fpr)``: the trade-off curve implied by the zCDP curve."""
    from autodp import converter
    return float(converter.rdp_to_fdp(lambda a: a * rho)(fpr))


def composed_rdp(q: float, sigma: float, k: int, alpha: float) -> float:
    """``anaRDPacct`` with ``compose_poisson_subsampled_mechanisms(RDP_gaussian(sigma), q, coeff=k)``,
    ``get_rdp([alpha])[0]``."""
    return float(_acct(q, sigma, k).get_rdp([alpha])[0])


def dp_acct_naive_eps(n: int, ei: float, di: float) -> float:
    """``dp_acct.DP_acct`` updated n times with (ei, di): ``get_eps_delta_naive()[0]`` (its delta is n di)."""
    from autodp import dp_acct
    a = dp_acct.DP_acct()
    for _ in range(int(n)):
        a.update_DPlosses(ei, di)
    return float(a.get_eps_delta_naive()[0])


def dp_acct_eps(n: int, ei: float, di: float) -> float:
    """``dp_acct.DP_acct`` updated n times with (ei, di): ``get_eps(delta)`` at delta the float just below n di
    (the reference's total delta is n di exactly: the float below it never favours the peer)."""
    import math
    from autodp import dp_acct
    a = dp_acct.DP_acct()
    for _ in range(int(n)):
        a.update_DPlosses(ei, di)
    return float(a.get_eps(math.nextafter(int(n) * di, 0.0)))


def dp_acct_min_delta(n: int, ei: float, di: float) -> float:
    """``dp_acct.DP_acct`` updated n times with (ei, di): ``get_minimum_possible_delta()``."""
    from autodp import dp_acct
    a = dp_acct.DP_acct()
    for _ in range(int(n)):
        a.update_DPlosses(ei, di)
    return float(a.get_minimum_possible_delta())


# ------------------------------------------------------------------ pure DP, randomized response, Laplace, PATE, tCDP

def rdp_pure_dp(eps: float, alpha: float) -> float:
    """``rdp_bank.RDP_pureDP({'eps': eps}, alpha)``."""
    from autodp import rdp_bank
    return float(rdp_bank.RDP_pureDP({"eps": eps}, alpha))


def puredp_to_rdp(eps: float, alpha: float) -> float:
    """``converter.puredp_to_rdp(eps)(alpha)``."""
    return float(converter.puredp_to_rdp(eps)(alpha))


def rdp_randresponse(p: float, alpha: float) -> float:
    """``rdp_bank.RDP_randresponse({'p': p}, alpha)``."""
    from autodp import rdp_bank
    return float(rdp_bank.RDP_randresponse({"p": p}, alpha))


def eps_randresp(p: float, delta: float) -> float:
    """``dp_bank.get_eps_randresp(p, delta)`` (through its RDP)."""
    from autodp import dp_bank
    return float(dp_bank.get_eps_randresp(p, delta))


def eps_randresp_optimal(p: float, delta: float) -> float:
    """``dp_bank.get_eps_randresp_optimal(p, delta)``."""
    from autodp import dp_bank
    return float(dp_bank.get_eps_randresp_optimal(p, delta))


def eps_laplace(b: float, delta: float) -> float:
    """``dp_bank.get_eps_laplace(b, delta)`` (through its RDP)."""
    from autodp import dp_bank
    return float(dp_bank.get_eps_laplace(b, delta))


def rdp_subsampled_pure_dp(eps: float, prob: float, alpha: float) -> float:
    """``rdp_bank.RDP_subsampled_pureDP({'eps': eps, 'prob': prob}, alpha)``."""
    from autodp import rdp_bank
    return float(rdp_bank.RDP_subsampled_pureDP({"eps": eps, "prob": prob}, alpha))


def rdp_inde_pate_gaussian(sigma: float, alpha: float) -> float:
    """``rdp_bank.RDP_inde_pate_gaussian({'sigma': sigma}, alpha)``."""
    from autodp import rdp_bank
    return float(rdp_bank.RDP_inde_pate_gaussian({"sigma": sigma}, alpha))


def rdp_truncated_cdp(rho: float, w: float, alpha: float) -> float:
    """``rdp_bank.RDP_truncatedCDP({'rho': rho, 'w': w}, alpha)``."""
    from autodp import rdp_bank
    return float(rdp_bank.RDP_truncatedCDP({"rho": rho, "w": w}, alpha))


def single_rdp_to_fdp_log(alpha: float, R: float, logx: float) -> float:
    """``converter.single_rdp_to_fdp_and_fdp_grad_log(alpha, R)[0](logx)`` is log(1 - f(e^logx)): returned as
    f = -expm1 of it (the trade-off value it encodes)."""
    import math
    return -math.expm1(float(converter.single_rdp_to_fdp_and_fdp_grad_log(alpha, R)[0](logx)))


def rdp_to_fdp_log_zcdp(rho: float, logx: float) -> float:
    """``converter.rdp_to_fdp_and_fdp_grad_log(lambda a: a * rho)[0](logx)`` (log(1 - f)), returned as f."""
    import math
    return -math.expm1(float(converter.rdp_to_fdp_and_fdp_grad_log(lambda a: a * rho)[0](logx)))


def eps_rdp_subsampled_gaussian(prob: float, sigma: float, delta: float) -> float:
    """``dp_bank.get_eps_rdp_subsampled(RDP_gaussian(sigma), delta, prob)`` (sampling without replacement, WBK19)."""
    from autodp import dp_bank, rdp_bank
    return float(dp_bank.get_eps_rdp_subsampled(lambda a: rdp_bank.RDP_gaussian({"sigma": sigma}, a), delta, prob))
