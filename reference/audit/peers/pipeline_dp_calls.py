"""PipelineDP's side of its audit: imports only pipeline_dp and the standard library (runs in any interpreter)."""

from pipeline_dp import dp_computations as dc


def gaussian_delta(sigma, eps):
    """``dp_computations.gaussian_delta(sigma, eps)``: 'the minimum delta' of the Gaussian(sigma) mechanism."""
    return float(dc.gaussian_delta(sigma, eps))


def gaussian_epsilon(sigma, delta):
    """``dp_computations.gaussian_epsilon(sigma, delta)``: 'the minimum eps' of the Gaussian(sigma) mechanism."""
    return float(dc.gaussian_epsilon(sigma, delta))
