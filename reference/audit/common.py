"""The audit's side of the adapter protocol: peer presence and versions, and the peer's own interpreter.

Verdicts and judging live in :mod:`dpbounds.testing.verdicts`, the result model (:class:`Comparison`,
:class:`PeerResult`) in :mod:`dpbounds.testing.results`; they are re-exported here for adapters written against
this module.
"""

from __future__ import annotations

import importlib.util
from typing import Any

from dpbounds.testing.results import Comparison, PeerResult, error_comparison, rejudge
from dpbounds.testing.verdicts import (ROUNDING_ULPS, UNSOUND, VERDICTS, Judgement, judge_bound, judge_decision,
                                       judge_lower, judge_upper)

__all__ = ["ROUNDING_ULPS", "UNSOUND", "VERDICTS", "Comparison", "Judgement", "PeerResult", "available",
           "error_comparison", "judge_bound", "judge_decision", "judge_lower", "judge_upper", "probe_version",
           "rejudge", "start_in_own_venv", "version_of"]


def available(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def version_of(dist: str) -> str:
    """The installed version of a distribution, or "" when it is not installed."""
    import importlib.metadata as md
    try:
        return md.version(dist)
    except md.PackageNotFoundError:
        return ""


def probe_version(python: str, module: str, dist: str) -> tuple[bool, str]:
    """(True, version of ``dist``) when ``module`` imports in the interpreter ``python``, else (False, the reason)
    (:func:`dpbounds.testing.declarations.peer_version`)."""
    from dpbounds.testing.declarations import peer_version
    return peer_version(python, module, dist)


def start_in_own_venv(res: PeerResult, python: str | None, module: str, dist: str, why: str) -> bool:
    """Whether a peer that needs its own environment can be audited -- in ``python`` (``--python PEER=PATH``) or,
    without one, in this interpreter; sets ``res.version``, or marks ``res`` skipped with how to install it."""
    ok, version = probe_version(python, module, dist) if python else (available(module), "not installed")
    if not ok:
        res.skip(f"{version}; pip install {dist} (in its own venv, then --python {res.peer}=PATH: {why})")
        return False
    res.version = version if python else ""
    return True
