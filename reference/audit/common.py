"""The audit's side of the adapter protocol: peer presence and versions, and the peer's own interpreter.

Verdicts and judging live in :mod:`dpbounds.testing.verdicts`, the result model (:class:`Comparison`,
:class:`PeerResult`) in :mod:`dpbounds.testing.results`; they are re-exported here for adapters written against
this module.
"""

from __future__ import annotations

import importlib.util

from dpbounds.testing.results import Comparison, PeerResult, error_comparison, rejudge
from dpbounds.testing.verdicts import (ROUNDING_ULPS, UNSOUND, VERDICTS, Judgement, judge_bound, judge_decision,
                                       judge_lower, judge_upper)

__all__ = ["ROUNDING_ULPS", "UNSOUND", "VERDICTS", "Comparison", "Judgement", "PeerResult", "available",
           "error_comparison", "judge_bound", "judge_decision", "judge_lower", "judge_upper", "probe_version",
           "rejudge", "run_probe", "start_in_own_venv", "version_of"]


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


#: how long a peer's own interpreter may take to answer a probe
PROBE_TIMEOUT_S = 300


def run_probe(python: str | None, source: str, calls: list[Any]) -> list[Any]:
    """The peer's answers to ``calls``, computed by ``source`` (Python defining ``probe(call) -> JSON value``) in
    the interpreter ``python`` (a peer installed in its own environment, for pins that conflict with ours; None:
    this interpreter), always in a subprocess.  Only JSON crosses the boundary: the peer's environment never
    imports dpbounds.  Raises RuntimeError with the peer's stderr tail when the interpreter fails."""
    import json
    import subprocess
    import sys
    python = python or sys.executable
    driver = source + "\nimport json, sys\nprint(json.dumps([probe(c) for c in json.load(sys.stdin)]))\n"
    try:  # its own session, so that a timeout (here, or the audit's --timeout) kills its children too
        proc = subprocess.Popen([python, "-c", driver], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
    except OSError as e:
        raise RuntimeError(f"{python}: {type(e).__name__}: {e}") from None
    _PROBE_GROUPS.add(proc.pid)
    try:
        stdout, stderr = proc.communicate(json.dumps(calls), timeout=PROBE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"{python}: no answer within {PROBE_TIMEOUT_S} s (killed with its children)") from None
    finally:
        _kill_probe_group(proc.pid)
        proc.wait()
    if proc.returncode != 0:
        raise RuntimeError(f"{python} exited {proc.returncode}: {stderr.strip()[-300:]}")
    try:
        return json.loads(stdout.strip().splitlines()[-1])
    except (IndexError, ValueError) as e:
        raise RuntimeError(f"{python} answered no JSON: {stdout.strip()[-200:]!r}") from e


#: process groups of the peer interpreters running now (killed on SIGTERM: see install_group_cleanup)
_PROBE_GROUPS: set[int] = set()


def _kill_probe_group(pgid: int) -> None:
    import os
    import signal
    _PROBE_GROUPS.discard(pgid)
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def install_group_cleanup() -> None:
    """On SIGTERM (the audit's --timeout), kill the process groups of the peer interpreters started by
    :func:`run_probe` (each in a session of its own), then exit."""
    import os
    import signal

    def on_term(signum, frame):  # noqa: ARG001
        for g in list(_PROBE_GROUPS):
            _kill_probe_group(g)
        os._exit(143)
    signal.signal(signal.SIGTERM, on_term)


def probe_version(python: str, module: str, dist: str) -> tuple[bool, str]:
    """(True, version of ``dist``) when ``module`` imports in the interpreter ``python``, else (False, the reason)."""
    src = ("import importlib, importlib.metadata as md\n"
           f"def probe(c):\n    importlib.import_module({module!r})\n    return md.version(c)\n")
    try:
        return True, run_probe(python, src, [dist])[0]
    except RuntimeError as e:
        return False, str(e)


def start_in_own_venv(res: PeerResult, python: str | None, module: str, dist: str, why: str) -> bool:
    """Whether a peer that needs its own environment can be audited -- in ``python`` (``--python PEER=PATH``) or,
    without one, in this interpreter; sets ``res.version``, or marks ``res`` skipped with how to install it."""
    ok, version = probe_version(python, module, dist) if python else (available(module), "not installed")
    if not ok:
        res.skip(f"{version}; pip install {dist} (in its own venv, then --python {res.peer}=PATH: {why})")
        return False
    res.version = version if python else ""
    return True
