"""Issue 25, the audit's robustness: a broken, lying or hung adapter (or peer interpreter) is an ``error`` row or a
recomputed verdict, never a crash, a hang or a trusted claim; ``--peers`` / ``--adapter`` as a newcomer uses them.

The broken adapters are written into tmp_path and run with ``dpbounds audit`` in a subprocess whose cwd is tmp_path:
that also checks that an adapter next to the user's package is importable (the console script does not put the
cwd on sys.path by itself)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from fractions import Fraction
from pathlib import Path

import pytest

from dpbounds.testing.results import Comparison, PeerResult, rejudge
from dpbounds.testing.verdicts import Judgement, judge_upper

TIMEOUT = int(os.environ.get("DPBOUNDS_TEST_TIMEOUT", "240"))  # only so a hang fails the test


def dpbounds(argv: list[str], cwd: Path) -> subprocess.CompletedProcess:
    exe = shutil.which("dpbounds", path=os.path.dirname(sys.executable))
    cmd = [exe] if exe else [sys.executable, "-m", "dpbounds.cli"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(cmd + argv, capture_output=True, text=True, timeout=TIMEOUT, cwd=cwd, env=env)


def _lying_comparison(value: float = 0.001) -> Comparison:
    """A peer value 0.001 the adapter itself calls 'exact' against the certified [5, 6]."""
    j = Judgement("formula", "conversions.cks20", "the formula", "exact", Fraction(5), Fraction(6),
                  detail="inside the certified enclosure")
    return Comparison("liar", "liar.eps", "eps", {"rho": "1"}, peer_value=value, formula=j)


ADAPTERS = {
    "mylib/__init__.py": "",
    "mylib/syntax_error.py": "PEER = 'syntax'\ndef audit(quick=False:\n    pass\n",
    "mylib/raises_on_import.py": "raise RuntimeError('boom at import')\n",
    "mylib/returns_none.py": "PEER = 'returns_none'\ndef audit(quick=False):\n    return None\n",
    "mylib/returns_garbage.py": textwrap.dedent("""\
        from dpbounds.audit.common import PeerResult
        PEER = 'returns_garbage'
        def audit(quick=False):
            r = PeerResult(PEER)
            r.comparisons = [object(), 42]
            return r
        """),
    "mylib/liar.py": textwrap.dedent("""\
        from fractions import Fraction
        from dpbounds.audit.common import Comparison, Judgement, PeerResult
        PEER = 'liar'
        def audit(quick=False):
            j = Judgement("formula", "conversions.cks20", "the formula", "exact", Fraction(5), Fraction(6))
            return PeerResult(PEER, version="1.0", comparisons=[
                Comparison(PEER, "liar.eps", "eps", {"rho": "1"}, peer_value=0.001, formula=j)])
        """),
    "mylib/hangs.py": textwrap.dedent("""\
        import os, subprocess, sys, time
        PEER = 'hangs'
        def audit(quick=False):
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(100000)"])
            with open(os.environ["HANG_PIDFILE"], "w") as f:
                f.write(str(child.pid))
            time.sleep(100000)
        """),
}


@pytest.fixture
def mylib(tmp_path):
    for name, text in ADAPTERS.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def _doc(r: subprocess.CompletedProcess) -> dict:
    assert r.returncode in (0, 1, 2), (r.returncode, r.stderr[-2000:])  # 2: something could not be judged
    assert "Traceback" not in r.stderr, r.stderr[-2000:]
    return json.loads(r.stdout)


BROKEN = {"mylib.syntax_error": "SyntaxError", "mylib.raises_on_import": "boom at import",
          "mylib.returns_none": "NoneType, not a PeerResult", "mylib.returns_garbage": "malformed"}


@pytest.mark.tier("slow")
def test_a_broken_adapter_is_an_error_row_never_a_crash(mylib):
    argv = ["audit", "--peers", "none", "--fail-on", "error", "--format", "json"]
    for m in BROKEN:
        argv += ["--adapter", m]
    r = dpbounds(argv, mylib)
    doc = _doc(r)
    assert [p["status"] for p in doc["peers"]] == ["error"] * len(BROKEN), doc["peers"]
    for p, needle in zip(doc["peers"], BROKEN.values()):
        assert needle in p["reason"], p
    assert doc["summary"] == {"adapter-error": len(BROKEN)}  # ours, never the peer's
    assert r.returncode == 2 and doc["exit_status"] == 2  # an adapter that did not run: never a pass (nor exit 0)
    assert len(doc["not_judged"]) == len(BROKEN)


@pytest.mark.parametrize("argv,needle", [(["--adapter", ""], "--adapter="),
                                         (["--adapter", "no_such_pkg.mod"], "no such module"),
                                         (["--peers", ""], "opendp"),
                                         (["--peers", "opendp,,autodp"], "none (only the --adapter modules)"),
                                         (["--timeout", "0"], "--timeout"),
                                         (["--timeout", "nan"], "--timeout")])
def test_bad_audit_arguments_are_exit_2_one_line_naming_the_choices(capsys, argv, needle):
    from dpbounds.cli import main
    rc = main(["audit", "--peers", "none", *argv] if "--peers" not in argv else ["audit", *argv])
    err = capsys.readouterr().err
    assert rc == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dpbounds: error:") and needle in lines[0], err


@pytest.mark.tier("slow")
def test_an_adapters_own_verdict_is_recomputed_from_its_numbers(mylib):
    doc = _doc(dpbounds(["audit", "--peers", "none", "--adapter", "mylib.liar", "--format", "json"], mylib))
    (peer,) = doc["peers"]
    (c,) = peer["comparisons"]
    # below the cited formula's certified [5, 6]: a departure from it (the adapter called it exact)
    assert c["verdict"] == "formula-departure" and c["formula"]["verdict"] == "formula-departure", c
    assert doc["exit_status"] == 1 and len(doc["peers"]) == 1  # --peers none: only the adapter ran


def test_rejudge_recomputes_and_lets_an_adapter_flag_but_never_clear():
    r = rejudge(PeerResult("liar", comparisons=[_lying_comparison()]))
    assert r.comparisons[0].verdict == "formula-departure"
    honest = judge_upper(5.5, Fraction(11, 2), Fraction(11, 2), role="formula", reference="x", description="x")
    stricter = Judgement(**{**honest.__dict__, "verdict": "conservative", "detail": "evidence, not proof"})
    c = Comparison("p", "p.f", "c", {}, peer_value=5.5, formula=stricter)
    assert rejudge(PeerResult("p", comparisons=[c])).comparisons[0].verdict == "conservative"
    bogus = Comparison("p", "p.f", "c", {}, peer_value=5.5,
                       formula=Judgement("formula", "x", "x", "exact"))  # neither enclosure nor decision
    assert rejudge(PeerResult("p", comparisons=[bogus])).comparisons[0].verdict == "adapter-error"
    flipped = Comparison("p", "p.f", "c", {}, peer_output="CONT",
                         formula=Judgement("formula", "x", "x", "exact", decision="HALT"))
    assert rejudge(PeerResult("p", comparisons=[flipped])).comparisons[0].verdict == "formula-departure"


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as f:
            return "\nState:\tZ" in f.read()  # a zombie waiting for init to reap it is dead
    except FileNotFoundError:
        return True


@pytest.mark.tier("slow")
def test_a_hung_adapter_times_out_as_an_error_row_and_its_process_tree_is_killed(mylib):
    pidfile = mylib / "child.pid"
    env_argv = ["audit", "--peers", "none", "--adapter", "mylib.hangs", "--timeout", "20", "--format", "json"]
    exe = shutil.which("dpbounds", path=os.path.dirname(sys.executable))
    cmd = [exe] if exe else [sys.executable, "-m", "dpbounds.cli"]
    r = subprocess.run(cmd + env_argv, capture_output=True, text=True, timeout=TIMEOUT, cwd=mylib,
                       env={**os.environ, "HANG_PIDFILE": str(pidfile)})
    doc = _doc(r)
    (peer,) = doc["peers"]
    assert peer["status"] == "error" and "timed out" in peer["reason"], peer
    pid = int(pidfile.read_text())
    for _ in range(50):  # the kill is synchronous; this only waits for the kernel's bookkeeping
        if _gone(pid):
            break
        time.sleep(0.1)
    assert _gone(pid), f"the adapter's child {pid} is still running"


@pytest.mark.tier("slow")
def test_a_hung_peer_interpreter_times_out_and_its_children_are_killed(tmp_path):
    pidfile = tmp_path / "interp_child.pid"
    fake = tmp_path / "python"
    fake.write_text(f"#!/bin/sh\nsleep 100000 &\necho $! > {pidfile}\nwait\n")
    fake.chmod(0o755)
    r = dpbounds(["audit", "--peers", "tmlt_core", "--python", f"tmlt_core={fake}", "--timeout", "20",
                  "--format", "json"], tmp_path)
    doc = _doc(r)
    (peer,) = doc["peers"]
    assert peer["status"] == "error" and "timed out" in peer["reason"], peer
    pid = int(pidfile.read_text())
    for _ in range(50):
        if _gone(pid):
            break
        time.sleep(0.1)
    assert _gone(pid), f"the peer interpreter's child {pid} is still running"
