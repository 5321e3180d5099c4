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
