"""dp_accounting's side of its audit: imports only dp_accounting and the standard library (runs in any
interpreter)."""

import functools

import dp_accounting
from dp_accounting import dp_event
from dp_accounting.pld import pld_privacy_accountant as pldacc
from dp_accounting.privacy_accountant import NeighboringRelation
from dp_accounting.rdp import rdp_privacy_accountant as rdp

#: the orders of dp_accounting's own RdpAccountant default grid, extended to 512 (162 orders)
ORDERS = [1 + x / 10.0 for x in range(1, 100)] + list(range(12, 64)) + [128, 256, 512]


def rdp_eps(rho, delta):
    """``rdp.compute_epsilon(ORDERS, [a * rho for a in ORDERS], delta)``: the epsilon (the order it chose is
    dropped) of the zCDP curve alpha -> alpha * rho."""
    return float(rdp.compute_epsilon(ORDERS, [a * rho for a in ORDERS], delta)[0])


def _rr_delta(noise_parameter, k, eps_g, composed):
    acc = pldacc.PLDAccountant(NeighboringRelation.REPLACE_ONE)
    ev = dp_event.RandomizedResponseDpEvent(noise_parameter, 2)
    if composed:
        acc.compose(dp_event.ComposedDpEvent([ev] * int(k)))
    else:
        acc.compose(ev, int(k))
    return float(acc.get_delta(eps_g))


def rr_delta_count(noise_parameter, k, eps_g):
    """``PLDAccountant(REPLACE_ONE).compose(RandomizedResponseDpEvent(p, 2), k).get_delta(eps_g)``."""
    return _rr_delta(noise_parameter, k, eps_g, False)


def rr_delta_composed(noise_parameter, k, eps_g):
    """The same through ``compose(ComposedDpEvent([event] * k))``."""
    return _rr_delta(noise_parameter, k, eps_g, True)


# ---------------------------------------------------------------------------------------------------- DP-SGD paths (issue 28)


def _event(q: float, sigma: float):
    g = dp_accounting.GaussianDpEvent(sigma)
    return g if q >= 1.0 else dp_accounting.PoissonSampledDpEvent(q, g)


def rdp_at_order(q: float, sigma: float, alpha: float) -> float:
    """``RdpAccountant(orders=[alpha]).compose(PoissonSampledDpEvent(q, GaussianDpEvent(sigma)))``: its RDP at
    alpha (read back through ``_rdp``, the accountant's state)."""
    acc = dp_accounting.rdp.RdpAccountant(orders=[float(alpha)])
    acc.compose(_event(q, sigma), 1)
    return float(acc.rdp[0])  # its public ``rdp`` property: the RDP composed, at each order


def rdp_epsilon(q: float, sigma: float, k: int, delta: float) -> float:
    """``RdpAccountant().compose(PoissonSampledDpEvent(q, GaussianDpEvent(sigma)), k).get_epsilon(delta)``."""
    return float(_rdp_acc(q, sigma, k).get_epsilon(delta))


@functools.lru_cache(maxsize=8)
def _pld_acc(q, sigma, k):
    """``PLDAccountant().compose(PoissonSampledDpEvent(q, GaussianDpEvent(sigma)), k)``, kept for the next delta or
    eps asked of the same (q, sigma, k), as its users read several off one composition (get_epsilon and get_delta
    do not change the accountant)."""
    acc = dp_accounting.pld.PLDAccountant()
    acc.compose(_event(q, sigma), int(k))
    return acc


def pld_epsilon(q: float, sigma: float, k: int, delta: float) -> float:
    """``PLDAccountant().compose(PoissonSampledDpEvent(q, GaussianDpEvent(sigma)), k).get_epsilon(delta)``."""
    return float(_pld_acc(q, sigma, k).get_epsilon(delta))


def pld_delta(q: float, sigma: float, k: int, eps_g: float) -> float:
    return float(_pld_acc(q, sigma, k).get_delta(eps_g))


def compute_epsilon(alpha: float, R: float, delta: float) -> float:
    """``rdp_privacy_accountant.compute_epsilon([alpha], [R], delta)[0]`` (CKS20 Prop. 12)."""
    return float(rdp.compute_epsilon([float(alpha)], [R], delta)[0])


def _sgm_steps(q: float, k: int):
    def make(sigma: float):
        return dp_accounting.SelfComposedDpEvent(_event(q, sigma), int(k))
    return make


def calibrate_pld(eps_g: float, delta: float, q: float, k: int) -> float:
    """``dp_accounting.calibrate_dp_mechanism(PLDAccountant, sigma -> SelfComposed(PoissonSampled(q,
    Gaussian(sigma)), k), eps_g, delta)``: the noise multiplier it returns for (eps_g, delta)."""
    return float(dp_accounting.calibrate_dp_mechanism(dp_accounting.pld.PLDAccountant, _sgm_steps(q, k),
                                                      float(eps_g), float(delta)))


def calibrate_rdp(eps_g: float, delta: float, q: float, k: int) -> float:
    """The same with ``RdpAccountant``."""
    return float(dp_accounting.calibrate_dp_mechanism(dp_accounting.rdp.RdpAccountant, _sgm_steps(q, k),
                                                      float(eps_g), float(delta)))


def pld_epsilon_replace_one(q: float, sigma: float, k: int, delta: float) -> float:
    """``PLDAccountant(NeighboringRelation.REPLACE_ONE).compose(PoissonSampledDpEvent(q, GaussianDpEvent(sigma)),
    k).get_epsilon(delta)``."""
    acc = dp_accounting.pld.PLDAccountant(dp_accounting.NeighboringRelation.REPLACE_ONE)
    acc.compose(_event(q, sigma), int(k))
    return float(acc.get_epsilon(delta))


def rdp_epsilon_without_replacement(b: int, n: int, sigma: float, k: int, delta: float) -> float:
    """``RdpAccountant(neighboring_relation=REPLACE_ONE).compose(SampledWithoutReplacementDpEvent(n, b,
    GaussianDpEvent(sigma / 2)), k).get_epsilon(delta)``: sigma is the noise standard deviation over the clip norm;
    dp_accounting's noise multiplier is over the l2-sensitivity (its docstring), which under REPLACE_ONE is twice
    the clip norm -- hence sigma / 2 (exact in binary)."""
    acc = dp_accounting.rdp.RdpAccountant(neighboring_relation=dp_accounting.NeighboringRelation.REPLACE_ONE)
    acc.compose(dp_accounting.SampledWithoutReplacementDpEvent(int(n), int(b),
                                                               dp_accounting.GaussianDpEvent(sigma / 2)), int(k))
    return float(acc.get_epsilon(delta))


def _schedule_epsilon(acc, q1: float, s1: float, k1: int, q2: float, s2: float, k2: int, delta: float) -> float:
    acc.compose(_event(q1, s1), int(k1))
    acc.compose(_event(q2, s2), int(k2))
    return float(acc.get_epsilon(delta))


def pld_schedule_epsilon(q1: float, s1: float, k1: int, q2: float, s2: float, k2: int, delta: float) -> float:
    """``PLDAccountant().compose(PoissonSampledDpEvent(q1, GaussianDpEvent(s1)), k1).compose(
    PoissonSampledDpEvent(q2, GaussianDpEvent(s2)), k2).get_epsilon(delta)``: a two-phase DP-SGD schedule."""
    return _schedule_epsilon(dp_accounting.pld.PLDAccountant(), q1, s1, k1, q2, s2, k2, delta)


def rdp_schedule_epsilon(q1: float, s1: float, k1: int, q2: float, s2: float, k2: int, delta: float) -> float:
    """The same with ``RdpAccountant``."""
    return _schedule_epsilon(dp_accounting.rdp.RdpAccountant(), q1, s1, k1, q2, s2, k2, delta)


# ---------------------------------------------------------------------------------------------------- Gaussian and
# Laplace mechanisms, their calibrations, the RDP -> delta conversion, the RDP accountant's delta


def _params(eps, delta):
    from dp_accounting.pld import common
    return common.DifferentialPrivacyParameters(float(eps), float(delta))


def get_epsilon_gaussian(sensitivity: float, sigma: float, delta: float) -> float:
    """``gaussian_mechanism.get_epsilon_gaussian(sigma / sensitivity, delta)``."""
    from dp_accounting import gaussian_mechanism
    return float(gaussian_mechanism.get_epsilon_gaussian(sigma / sensitivity, delta))


def get_sigma_gaussian(sensitivity: float, eps: float, delta: float) -> float:
    """``sensitivity * gaussian_mechanism.get_sigma_gaussian(eps, delta)`` (it calibrates sensitivity 1)."""
    from dp_accounting import gaussian_mechanism
    return float(sensitivity * gaussian_mechanism.get_sigma_gaussian(eps, delta))


def smallest_gaussian_noise(sensitivity: float, eps: float, delta: float) -> float:
    """``pld.accountant.get_smallest_gaussian_noise((eps, delta), num_queries=1, sensitivity)``."""
    from dp_accounting.pld import accountant
    return float(accountant.get_smallest_gaussian_noise(_params(eps, delta), 1, sensitivity))


def smallest_subsampled_gaussian_noise(eps_g: float, delta: float, q: float, k: int) -> float:
    """``pld.accountant.get_smallest_subsampled_gaussian_noise((eps_g, delta), k, 1, q)``: a noise multiplier."""
    from dp_accounting.pld import accountant
    return float(accountant.get_smallest_subsampled_gaussian_noise(_params(eps_g, delta), int(k), 1, q))


def smallest_laplace_noise(sensitivity: float, eps: float) -> float:
    """``pld.accountant.get_smallest_laplace_noise((eps, 0), num_queries=1, sensitivity)``: pure eps-DP."""
    from dp_accounting.pld import accountant
    return float(accountant.get_smallest_laplace_noise(_params(eps, 0.0), 1, sensitivity))


def gaussian_from_guarantee(sensitivity: float, eps: float, delta: float) -> float:
    """``GaussianPrivacyLoss.from_privacy_guarantee((eps, delta), sensitivity).standard_deviation``."""
    from dp_accounting.pld import privacy_loss_mechanism as plm
    return float(plm.GaussianPrivacyLoss.from_privacy_guarantee(_params(eps, delta), sensitivity).standard_deviation)


def laplace_from_guarantee(sensitivity: float, eps: float) -> float:
    """``LaplacePrivacyLoss.from_privacy_guarantee((eps, 0), sensitivity).parameter``: the scale for pure eps-DP."""
    from dp_accounting.pld import privacy_loss_mechanism as plm
    return float(plm.LaplacePrivacyLoss.from_privacy_guarantee(_params(eps, 0.0), sensitivity).parameter)


def gaussian_loss_delta(sigma: float, eps_g: float) -> float:
    """``GaussianPrivacyLoss(sigma).get_delta_for_epsilon(eps_g)`` (sensitivity 1): the mechanism's exact curve."""
    from dp_accounting.pld import privacy_loss_mechanism as plm
    return float(plm.GaussianPrivacyLoss(sigma).get_delta_for_epsilon(eps_g))


def laplace_loss_delta(b: float, eps_g: float) -> float:
    """``LaplacePrivacyLoss(b).get_delta_for_epsilon(eps_g)`` (sensitivity 1)."""
    from dp_accounting.pld import privacy_loss_mechanism as plm
    return float(plm.LaplacePrivacyLoss(b).get_delta_for_epsilon(eps_g))


def composed_pld_delta(s1: float, s2: float, eps_g: float) -> float:
    """``from_gaussian_mechanism(s1).get_delta_for_epsilon_for_composed_pld(from_gaussian_mechanism(s2), eps_g)``:
    delta of the two Gaussian mechanisms composed (PLDs discretized pessimistically)."""
    from dp_accounting.pld import privacy_loss_distribution as pld
    return float(pld.from_gaussian_mechanism(s1).get_delta_for_epsilon_for_composed_pld(
        pld.from_gaussian_mechanism(s2), eps_g))


def compute_delta(alpha: float, R: float, eps_g: float) -> float:
    """``rdp_privacy_accountant.compute_delta([alpha], [R], eps_g)[0]`` (CKS20 Prop. 12 and the KL bound)."""
    return float(rdp.compute_delta([float(alpha)], [R], eps_g)[0])


@functools.lru_cache(maxsize=8)
def _rdp_acc(q, sigma, k):
    """The composed ``RdpAccountant``, kept like :func:`_pld_acc` (get_epsilon / get_delta read it only)."""
    acc = dp_accounting.rdp.RdpAccountant()
    acc.compose(_event(q, sigma), int(k))
    return acc


def rdp_delta(q: float, sigma: float, k: int, eps_g: float) -> float:
    """``RdpAccountant().compose(PoissonSampledDpEvent(q, GaussianDpEvent(sigma)), k).get_delta(eps_g)``."""
    return float(_rdp_acc(q, sigma, k).get_delta(eps_g))


def rdp_delta_and_order(q: float, sigma: float, k: int, eps_g: float) -> float:
    """The delta of ``get_delta_and_optimal_order(eps_g)``."""
    return float(_rdp_acc(q, sigma, k).get_delta_and_optimal_order(eps_g)[0])


def rdp_epsilon_and_order(q: float, sigma: float, k: int, delta: float) -> float:
    """The epsilon of ``get_epsilon_and_optimal_order(delta)``."""
    return float(_rdp_acc(q, sigma, k).get_epsilon_and_optimal_order(delta)[0])


def pure_pld_delta(eps: float, eps_g: float) -> float:
    """``privacy_loss_distribution.from_privacy_parameters((eps, 0)).get_delta_for_epsilon(eps_g)``: the PLD of a
    pure eps-DP mechanism (randomized response, a sparse PMF), its delta at eps_g."""
    from dp_accounting.pld import privacy_loss_distribution as pld
    return float(pld.from_privacy_parameters(_params(eps, 0.0)).get_delta_for_epsilon(eps_g))


# ---------------------------------------------------------------------------------------------------- discrete
# Laplace, advanced composition inverted, sparse (pure-DP) PMFs, one direction of a mixture of Gaussians


def smallest_discrete_laplace_noise(k: int, eps: float, delta: float) -> float:
    """``pld.accountant.get_smallest_discrete_laplace_noise((eps, delta), num_queries=k, sensitivity=1)``: the
    largest discrete Laplace parameter a (pmf proportional to e^{-a|x|})."""
    from dp_accounting.pld import accountant
    return float(accountant.get_smallest_discrete_laplace_noise(_params(eps, delta), int(k), 1))


def discrete_laplace_from_guarantee(sensitivity: int, eps: float, sampling_prob: float) -> float:
    """``DiscreteLaplacePrivacyLoss.from_privacy_guarantee((eps, 0), sensitivity, sampling_prob).parameter``."""
    from dp_accounting.pld import privacy_loss_mechanism as plm
    return float(plm.DiscreteLaplacePrivacyLoss.from_privacy_guarantee(
        _params(eps, 0.0), sensitivity=int(sensitivity), sampling_prob=sampling_prob).parameter)


def advanced_composition_per_query(k: int, eps_total: float, delta_total: float, di: float):
    """``pld.accountant.get_smallest_epsilon_from_advanced_composition((eps_total, delta_total), k, delta=di)``:
    the per-query eps (None where no eps reaches delta_total)."""
    from dp_accounting.pld import accountant
    v = accountant.get_smallest_epsilon_from_advanced_composition(_params(eps_total, delta_total), int(k), di)
    return None if v is None else float(v)


def sparse_epsilon_for_delta(eps: float, delta0: float, delta: float) -> float:
    """``from_privacy_parameters((eps, delta0)).get_epsilon_for_delta(delta)``: a two-point (sparse) PMF's
    ``SparsePLDPmf.get_epsilon_for_delta``."""
    from dp_accounting.pld import privacy_loss_distribution as pld
    return float(pld.from_privacy_parameters(_params(eps, delta0)).get_epsilon_for_delta(delta))


def sparse_composed_delta(eps1: float, eps2: float, eps_g: float) -> float:
    """``from_privacy_parameters((eps1, 0)).get_delta_for_epsilon_for_composed_pld(from_privacy_parameters((eps2,
    0)), eps_g)``: ``SparsePLDPmf.get_delta_for_epsilon_for_composed_pld`` on two sparse PMFs."""
    from dp_accounting.pld import privacy_loss_distribution as pld
    return float(pld.from_privacy_parameters(_params(eps1, 0.0)).get_delta_for_epsilon_for_composed_pld(
        pld.from_privacy_parameters(_params(eps2, 0.0)), eps_g))


def _mog_delta(q: float, sigma: float, eps_g: float, adjacency: str) -> float:
    from dp_accounting.pld import privacy_loss_mechanism as plm
    loss = plm.MixtureGaussianPrivacyLoss(sigma, [0.0, 1.0], [1.0 - q, q],
                                          adjacency_type=getattr(plm.AdjacencyType, adjacency))
    # the list form: with numpy >= 2.3 the scalar form ends in float() of a one-element array, a TypeError
    return float(loss.get_delta_for_epsilon([eps_g])[0])


def mog_delta_remove(q: float, sigma: float, eps_g: float) -> float:
    """``MixtureGaussianPrivacyLoss(sigma, [0, 1], [1 - q, q], adjacency_type=REMOVE).get_delta_for_epsilon``."""
    return _mog_delta(q, sigma, eps_g, "REMOVE")


def mog_delta_add(q: float, sigma: float, eps_g: float) -> float:
    """``MixtureGaussianPrivacyLoss(sigma, [0, 1], [1 - q, q], adjacency_type=ADD).get_delta_for_epsilon``."""
    return _mog_delta(q, sigma, eps_g, "ADD")
