"""Certified trade-off curves (f-DP): the public names of :mod:`dpbounds.evaluation.tradeoff`, where they live so
that the spec's evaluator strings point at the evaluation layer (the spec names no module above it)."""

from dpbounds.evaluation.tradeoff import (beta_enclosure, beta_lower, enclose_zcdp, normal_quantile_upper_backend,
                                          rdp_tradeoff_backend, rdp_tradeoff_ends, zcdp_enclosure, zcdp_tradeoff_ends)

__all__ = ["beta_enclosure", "beta_lower", "enclose_zcdp", "normal_quantile_upper_backend", "rdp_tradeoff_backend",
           "rdp_tradeoff_ends", "zcdp_enclosure", "zcdp_tradeoff_ends"]
