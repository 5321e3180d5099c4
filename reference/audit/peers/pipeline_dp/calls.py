"""PipelineDP's side of its audit: imports only pipeline_dp and the standard library (runs in any interpreter)."""

from pipeline_dp import dp_computations as dc


def gaussian_delta(sigma, eps):
    """``dp_computations.gaussian_delta(sigma, eps)``: 'the minimum delta' of the Gaussian(sigma) mechanism."""
    return float(dc.gaussian_delta(sigma, eps))


def gaussian_epsilon(sigma, delta):
    """``dp_computations.gaussian_epsilon(sigma, delta)``: 'the minimum eps' of the Gaussian(sigma) mechanism."""
    return float(dc.gaussian_epsilon(sigma, delta))


def compute_sigma(eps, delta, l2_sensitivity):
    """``dp_computations.compute_sigma(eps, delta, l2_sensitivity)`` (PyDP's Gaussian calibration)."""
    return float(dc.compute_sigma(eps, delta, l2_sensitivity))


def pld_sigmas(total_epsilon, total_delta, k):
    """The noise of each of k Gaussian mechanisms a ``PLDBudgetAccountant(total_epsilon, total_delta)`` returns."""
    from pipeline_dp.aggregate_params import MechanismType
    from pipeline_dp.budget_accounting import PLDBudgetAccountant
    acc = PLDBudgetAccountant(total_epsilon=total_epsilon, total_delta=total_delta)
    specs = [acc.request_budget(MechanismType.GAUSSIAN) for _ in range(int(k))]
    acc.compute_budgets()
    return [float(sp.noise_standard_deviation) for sp in specs]


def equally_split_budget(eps, delta, no_mechanisms):
    """``dp_computations.equally_split_budget``: the (eps, delta) of each mechanism."""
    return [[float(e), float(d)] for e, d in dc.equally_split_budget(eps, delta, int(no_mechanisms))]


def naive_budgets(total_epsilon, total_delta, weights):
    """The (eps, delta) a ``NaiveBudgetAccountant`` gives Gaussian mechanisms of these weights."""
    from pipeline_dp.aggregate_params import MechanismType
    from pipeline_dp.budget_accounting import NaiveBudgetAccountant
    acc = NaiveBudgetAccountant(total_epsilon=total_epsilon, total_delta=total_delta)
    specs = [acc.request_budget(MechanismType.GAUSSIAN, weight=w) for w in weights]
    acc.compute_budgets()
    return [[float(sp.eps), float(sp.delta)] for sp in specs]


def laplace_noise_parameter(sensitivity, eps):
    """``LaplaceMechanism.create_from_epsilon(eps, l1_sensitivity).noise_parameter``: the scale b."""
    return float(dc.LaplaceMechanism.create_from_epsilon(eps, sensitivity).noise_parameter)


def gaussian_noise_parameter(sensitivity, eps, delta):
    """``GaussianMechanism.create_from_epsilon_delta(eps, delta, l2_sensitivity).noise_parameter``: sigma."""
    return float(dc.GaussianMechanism.create_from_epsilon_delta(eps, delta, sensitivity).noise_parameter)


def _params(kind, eps, delta, l0, count_linf=None, sum_linf=None):
    from pipeline_dp.aggregate_params import NoiseKind
    return dc.ScalarNoiseParams(eps=eps, delta=delta, min_value=None, max_value=None,
                                min_sum_per_partition=None if sum_linf is None else -sum_linf,
                                max_sum_per_partition=sum_linf, max_partitions_contributed=int(l0),
                                max_contributions_per_partition=None if count_linf is None else count_linf,
                                noise_kind=NoiseKind.LAPLACE if kind == "laplace" else NoiseKind.GAUSSIAN)


def count_std_laplace(eps, l0, linf):
    """``compute_dp_count_noise_std`` with Laplace noise, l0 partitions, linf contributions per partition."""
    return float(dc.compute_dp_count_noise_std(_params("laplace", eps, 0.0, l0, count_linf=linf)))


def count_std_gaussian(eps, delta, l0, linf):
    """``compute_dp_count_noise_std`` with Gaussian noise."""
    return float(dc.compute_dp_count_noise_std(_params("gaussian", eps, delta, l0, count_linf=linf)))


def sum_std_laplace(eps, l0, linf):
    """``compute_dp_sum_noise_std`` with Laplace noise, sums clipped to [-linf, linf]."""
    return float(dc.compute_dp_sum_noise_std(_params("laplace", eps, 0.0, l0, sum_linf=linf)))


def sum_std_gaussian(eps, delta, l0, linf):
    """``compute_dp_sum_noise_std`` with Gaussian noise, sums clipped to [-linf, linf]."""
    return float(dc.compute_dp_sum_noise_std(_params("gaussian", eps, delta, l0, sum_linf=linf)))
