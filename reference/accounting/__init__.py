"""dpbounds.accounting -- conversions (eps_of, delta_of, B*), streaming filters and odometers, individual
(per-person) accounting.  Uses :mod:`dpbounds.evaluation` only."""
