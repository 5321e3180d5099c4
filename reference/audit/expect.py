"""Findings that must stay found: ``dpbounds audit --witnesses FILE --expect-findings`` (issue 28, CI).

The witness file (``reference/audit/witnesses.json``) holds, besides the search witnesses the engine replays
(``"witnesses"``), the findings of earlier runs (``"findings"``)::

    {"peer": "opacus", "function": "opacus.accountants.GaussianAccountant.get_epsilon",
     "inputs": {"q": "0.01", "sigma": "1.0", "k": "1", "delta": "1e-05"}, "verdict": "unsound",
     "reason": null}

A finding whose peer was audited (not skipped) and which no longer comes out ``unsound`` / ``unsound-rounding`` /
``error`` at the same peer function and inputs has *disappeared*: the run fails unless its ``reason`` says why
(a peer fixed its bug: "fixed in opacus 1.7.0 (PR #123)").  A finding of this run at a peer function the file
does not know is *new*: the run fails too, until it is recorded (``--record-findings``).  Comparisons are by
peer, function and inputs, the inputs as the audit prints them (floats by their shortest repr)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dpbounds.audit.common import PeerResult

#: the verdicts that count as a finding still present
PRESENT = ("unsound", "formula-departure", "law-violation", "unsound-rounding", "error")


def _norm(v: Any) -> str:
    try:
        return repr(float(v))
    except (TypeError, ValueError):
        return str(v)


def finding_key(peer: str, function: str, inputs: dict[str, Any]) -> tuple[str, str, tuple[tuple[str, str], ...]]:
    return peer, function, tuple(sorted((k, _norm(v)) for k, v in inputs.items()))


def _read(path: str) -> dict[str, Any]:
    if not Path(path).exists():
        return {"version": 1, "witnesses": {}}
    from dpbounds.util.io import read_text_bounded
    data = json.loads(read_text_bounded(path, "--witnesses"))
    if not isinstance(data, dict):
        from dpbounds.spec import DomainError
        raise DomainError("--witnesses", path, "a witness file written by dpbounds audit", "dpbounds audit")
    return data


def recorded_findings(path: str) -> list[dict[str, Any]]:
    """The findings recorded in the witness file (``[]`` without any)."""
    fs = _read(path).get("findings", [])
    if not isinstance(fs, list) or not all(isinstance(f, dict) and {"peer", "function", "inputs"} <= set(f)
                                           for f in fs):
        from dpbounds.spec import DomainError
        raise DomainError("--witnesses", path, "findings as a list of {peer, function, inputs, verdict, reason}",
                          "dpbounds audit --expect-findings")
    return fs


def current_findings(results: list[PeerResult]) -> list[dict[str, Any]]:
    """Every comparison of this run with a verdict in :data:`PRESENT`, as finding records (one per peer function
    and inputs)."""
    out: dict[Any, dict[str, Any]] = {}
    for r in results:
        for c in r.comparisons:
            if c.verdict in PRESENT:
                key = finding_key(c.peer, c.function, c.inputs)
                out.setdefault(key, {"peer": c.peer, "function": c.function, "inputs": dict(c.inputs),
                                     "verdict": c.verdict, "version": r.version or None, "reason": None})
    return list(out.values())


def expected_errors(path: str) -> frozenset[tuple[str, str]]:
    """The (peer, function) pairs with a recorded ``error`` finding still expected (no ``reason``)."""
    return frozenset((f["peer"], f["function"]) for f in recorded_findings(path)
                     if f.get("verdict") == "error" and not f.get("reason"))


def check_expected(results: list[PeerResult], path: str) -> list[str]:
    """The problems, one line each: recorded findings that disappeared without a reason, and findings at peer
    functions the file does not know.  Recorded findings of peers skipped in this run are not judged."""
    recorded = recorded_findings(path)
    audited = {r.peer for r in results if r.status != "skipped"}
    now = {finding_key(f["peer"], f["function"], f["inputs"]): f for f in current_findings(results)}
    problems = []
    for f in recorded:
        if f["peer"] not in audited or f.get("reason"):
            continue
        if finding_key(f["peer"], f["function"], f["inputs"]) not in now:
            where = ", ".join(f"{k}={v}" for k, v in f["inputs"].items())
            problems.append(f"finding disappeared: {f['peer']} `{f['function']}` at {where} (was "
                            f"{f.get('verdict', '?')}): record why in {path} (\"reason\": e.g. \"fixed in "
                            f"{f['peer']} <version>\") or find out what changed")
    known_functions = {(f["peer"], f["function"]) for f in recorded}
    for f in now.values():
        if (f["peer"], f["function"]) not in known_functions:
            where = ", ".join(f"{k}={v}" for k, v in f["inputs"].items())
            problems.append(f"new finding: {f['peer']} `{f['function']}` at {where} ({f['verdict']}): record it "
                            f"in {path} (dpbounds audit ... --witnesses {path} --record-findings)")
    return problems


def record_findings(results: list[PeerResult], path: str) -> int:
    """Add this run's findings to the witness file (keeping recorded ones and their reasons); how many were new."""
    from dpbounds.util.io import atomic_write_text
    data = _read(path)
    recorded = recorded_findings(path)
    keys = {finding_key(f["peer"], f["function"], f["inputs"]) for f in recorded}
    new = [f for f in current_findings(results) if finding_key(f["peer"], f["function"], f["inputs"]) not in keys]
    data["findings"] = recorded + new
    data.setdefault("version", 1)
    data.setdefault("witnesses", {})
    atomic_write_text(path, json.dumps(data, indent=1, sort_keys=True) + "\n", "--witnesses")
    return len(new)
