"""The optimal single-order RDP -> DP conversion (ALCKS20 Lemma 1), certified: the public names of
:mod:`dpbounds.evaluation.rdp_conversions`, where they live so that the spec's evaluator strings point at the
evaluation layer (the spec names no module above it)."""

from dpbounds.evaluation.rdp_conversions import (MAX_BITS, delta_enclosure, delta_upper, eps_enclosure, eps_upper,
                                                 opt_delta_backend, opt_eps_backend, r_max_backend, r_max_enclosure,
                                                 r_max_lower)

__all__ = ["MAX_BITS", "delta_enclosure", "delta_upper", "eps_enclosure", "eps_upper", "opt_delta_backend",
           "opt_eps_backend", "r_max_backend", "r_max_enclosure", "r_max_lower"]
