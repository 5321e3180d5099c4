"""Hypothesis profiles: `ci` (fast, the default under CI=true) and `dev` (thorough). Select with
HYPOTHESIS_PROFILE=dev."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=25, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("dev", max_examples=400, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_sessionfinish(session, exitstatus):
    """The repository's folders must never be imported under their folder names (only as `dpbounds.…`): a second
    copy of a module (e.g. `proofs_check.core`) would hold its own registries and make tests pass vacuously."""
    import sys

    stray = sorted(m for m in sys.modules if m.split(".")[0] in ("spec", "reference", "proofs_check"))
    if stray:
        session.exitstatus = 1
        sys.stderr.write(f"\nconftest: modules imported under a folder name instead of dpbounds.*: {stray[:5]}\n")
