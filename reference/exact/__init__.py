"""dpbounds.exact -- the exact worst-case engine (``worst_case``: certified composition of randomized response,
adaptive interactions over histories, odometer crossings) and the adaptive adversaries that drive it
(``adversaries``).  Uses :mod:`dpbounds.evaluation` and :mod:`dpbounds.accounting`."""
