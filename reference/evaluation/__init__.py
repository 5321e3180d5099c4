"""dpbounds.evaluation -- the evaluators of the spec.

Layering (each module uses only those above it): ``numeric`` (exact parsing, arb/mpmath contexts) ->
``interp`` (the sympy -> backend interpreter: arb balls, mpmath, numpy intervals) -> ``np_special`` and
``npfast`` (the sound vectorized float64 path) -> ``sequences`` (exact running aggregates) -> ``optimize``
(certified infima over a variable) -> ``evaluate`` (the public entry points: evaluate, enclose, fast_upper).
"""
