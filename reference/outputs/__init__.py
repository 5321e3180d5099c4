"""dpbounds.outputs -- what the project writes for people and for other test suites: golden vectors, the
report, its figures and tables, the benchmark.  Uses everything below it (evaluation, accounting, exact,
audit, proofs_check); nothing below imports it."""
