"""Where the seed texts (the papers as received) are for the tests that compare against them.

Looked up in ``$DPBOUNDS_SEEDS`` if set, else ``<repository>/../shared/seeds`` (beside the clone, in development and
in CI).  Never an absolute machine path.  When they are absent a test skips -- except under ``CI=true`` (``.ci/run``),
where the seeds are part of the checkout's surroundings and their absence is a failure (unless ``.ci/run`` found
none beside the clone and said so: ``DPBOUNDS_SEEDS_OPTIONAL=1``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def seeds_dir() -> Path | None:
    """The seed folder, or None if it does not exist."""
    env = os.environ.get("DPBOUNDS_SEEDS")
    d = Path(env) if env else ROOT.parent / "shared" / "seeds"
    return d if d.is_dir() else None


def require_seeds() -> Path:
    """The seed folder; skip the test when it is absent (fail under CI=true)."""
    d = seeds_dir()
    if d is None:
        msg = "seed texts not found (set DPBOUNDS_SEEDS or place them at <repository>/../shared/seeds)"
        if os.environ.get("CI", "").lower() == "true" and os.environ.get("DPBOUNDS_SEEDS_OPTIONAL") != "1":
            pytest.fail(msg + " -- required under CI=true")
        pytest.skip(msg)
    return d


def seed_text(name: str) -> str:
    """The text of one seed file (skips / fails like :func:`require_seeds` when the folder is absent)."""
    return (require_seeds() / name).read_text(encoding="utf-8")
