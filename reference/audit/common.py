"""The audit's side of the adapter protocol: peer presence and versions, and the peer's own interpreter.

Verdicts and judging live in :mod:`dpbounds.testing.verdicts`, the result model (:class:`Comparison`,
:class:`PeerResult`) in :mod:`dpbounds.testing.results`; they are re-exported here for adapters written against
this module.
"""

from __future__ import annotations

import importlib.util
from typing import Any
from typing import Any

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
    this interpreter), always in a child on the leash (:mod:`dpbounds.testing.proc`: at most
    :data:`PROBE_TIMEOUT_S` seconds, bounded output, killed with its children).  Only JSON crosses the boundary: the
    peer's environment never imports dpbounds.  Raises RuntimeError with the peer's stderr tail when the interpreter
    fails."""
    import sys

    from dpbounds.testing.proc import WATCHDOG, NoAnswer, run_json
    python = python or sys.executable
    driver = WATCHDOG + _PROBE_PRELUDE + source + _PROBE_MAIN
    try:
        answer = run_json([python, "-c", driver], calls, timeout=PROBE_TIMEOUT_S)
    except NoAnswer:
        raise RuntimeError(f"{python}: no answer within {PROBE_TIMEOUT_S} s (killed with its children)") from None
    if not isinstance(answer, dict) or not isinstance(answer.get("ok"), list):
        why = answer.get("error") if isinstance(answer, dict) else answer
        raise RuntimeError(f"{python} exited 1: {str(why)[-300:]}")  # (the probe exits 1 after its error)
    return answer["ok"]


#: a probe's stdout carries only its answer: what the peer prints goes to stderr
_PROBE_PRELUDE = """
import json as _json, os as _os, sys as _sys
_answer = _os.fdopen(_os.dup(1), "w")
_os.dup2(2, 1)
_sys.stdout = _sys.stderr
"""
_PROBE_MAIN = """
try:
    _res = {"ok": [probe(c) for c in _json.loads(_sys.stdin.readline())]}
except BaseException as _e:
    import traceback as _tb
    _res = {"error": "".join(_tb.format_exception_only(type(_e), _e)).strip()[-300:]}
_answer.write(_json.dumps(_res) + "\\n")
_answer.flush()
_sys.exit(1 if "error" in _res else 0)
"""


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
