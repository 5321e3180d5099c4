"""Everything foreign runs on a leash: adapters are imported only in a child bounded by --timeout, every call of an
implementation under test is abandoned past its check's time, a child's output is read with a byte cap, an
adapter's result has a size cap, children die with their parent, and ``--python NAME=PATH`` reaches every adapter."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "DPBOUNDS_PROGRESS": "0"}


def _audit(tmp_path: Path, *args: str, timeout: float = 240) -> tuple[subprocess.CompletedProcess, dict | None]:
    out = tmp_path / "audit.json"
    r = subprocess.run([sys.executable, "-m", "dpbounds", "audit", "--format", "json", "--out", str(out), *args],
                       cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=timeout)
    return r, (json.loads(out.read_text()) if out.exists() else None)


def _adapter(tmp_path: Path, name: str, body: str) -> str:
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(body))
    return name


@pytest.mark.parametrize("what", ["exit0", "hang"])
def test_an_adapter_that_exits_or_hangs_at_import_is_an_error_row_within_the_timeout(tmp_path, what):
    stmt = "import sys; sys.exit(0)" if what == "exit0" else "import time; time.sleep(10**6)"
    name = _adapter(tmp_path, f"bad_{what}", f"{stmt}\nPEER = 'bad'\ndef audit(quick=False):\n    return None\n")
    t0 = time.monotonic()
    r, doc = _audit(tmp_path, "--peers", "none", "--adapter", name, "--timeout", "15", timeout=200)
    assert time.monotonic() - t0 < 150
    assert doc is not None, (r.returncode, r.stdout[-500:], r.stderr[-500:])
    (peer,) = doc["peers"]
    assert peer["status"] == "error", peer


def test_an_adapter_returning_too_many_comparisons_is_an_error_row(tmp_path):
    name = _adapter(tmp_path, "huge", """
        from dpbounds.testing.results import Comparison, PeerResult
        PEER = 'huge'
        def audit(quick=False):
            r = PeerResult('huge', version='0')
            r.comparisons = [Comparison('huge', 'f', 'c', {}, error='x') for _ in range(200_000)]
            return r
        """)
    r, doc = _audit(tmp_path, "--peers", "none", "--adapter", name, "--timeout", "200")
    assert doc is not None, r.stderr[-500:]
    (peer,) = doc["peers"]
    assert peer["status"] == "error" and "comparisons" in peer["reason"], peer
    assert not peer["comparisons"]


@pytest.mark.parametrize("flood", ["stderr", pytest.param("stdout", marks=pytest.mark.tier("slow"))])
def test_a_flooding_peer_interpreter_costs_bounded_memory(tmp_path, flood):
    fake = tmp_path / "python"
    cmd = "yes 0123456789abcdef >&2" if flood == "stderr" else "yes 0123456789abcdef | tr -d '\\n'"
    fake.write_text(f"#!/bin/sh\n{cmd}\n")
    fake.chmod(0o755)
    out = tmp_path / "audit.json"
    # the audit's process tree, measured from a parent of its own: the largest resident size any of them reached
    code = textwrap.dedent(f"""
        import resource, subprocess, sys
        r = subprocess.run([sys.executable, "-m", "dpbounds", "audit", "--peers", "opacus", "--python",
                            "opacus={fake}", "--timeout", "20", "--format", "json", "--out", {str(out)!r}],
                           capture_output=True, timeout=240)
        print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
        """)
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=ENV, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr[-800:]
    maxrss_mb = int(r.stdout.split()[-1]) / 1024
    assert maxrss_mb < 600, f"the audit's processes reached {maxrss_mb:.0f} MB"
    (peer,) = json.loads(out.read_text())["peers"]
    assert peer["status"] in ("error", "skipped"), peer


def test_a_child_does_not_outlive_its_parent_killed_with_sigkill(tmp_path):
    pidfile = tmp_path / "adapter.pid"
    _adapter(tmp_path, "sleeper", f"""
        import os, time
        PEER = 'sleeper'
        def audit(quick=False):
            open({str(pidfile)!r}, 'w').write(str(os.getpid()))
            time.sleep(10**6)
        """)
    code = ("import sys; sys.path.insert(0, '.')\n"
            "from dpbounds.audit.run import audit_peers\n"
            "audit_peers(peers=['none'], adapters=['sleeper'], timeout=900)\n")
    parent = subprocess.Popen([sys.executable, "-c", code], cwd=tmp_path, env=ENV, start_new_session=True,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(1200):
            if pidfile.exists() and pidfile.read_text():
                break
            time.sleep(0.1)
        pid = int(pidfile.read_text())
        parent.kill()
        parent.wait()
        for _ in range(100):
            if not _alive(pid):
                break
            time.sleep(0.1)
        assert not _alive(pid), f"the adapter's process {pid} outlived its parent"
    finally:
        try:
            os.killpg(parent.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if pidfile.exists() and pidfile.read_text() and _alive(int(pidfile.read_text())):
            os.kill(int(pidfile.read_text()), signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_python_is_honoured_for_an_adapter_module_whose_peer_has_another_name(tmp_path):
    marker = tmp_path / "used"
    fake = tmp_path / "python"
    fake.write_text(f"#!/bin/sh\ntouch {marker}\nexec {sys.executable} \"$@\"\n")
    fake.chmod(0o755)
    (tmp_path / "other_calls.py").write_text("def one(x):\n    return float(x)\n")
    _adapter(tmp_path, "my_adapter", """
        from dpbounds.testing import Declaration
        PEER, DIST, MODULE = 'otherpeer', 'numpy', 'numpy'
        def declarations():
            return [Declaration(peer='otherpeer', function='other.one', call='other_calls:one',
                                reference='conversions.cks20', inputs={'x': (0.0, 1.0)}, cites='none')]
        """)
    r, doc = _audit(tmp_path, "--peers", "none", "--adapter", "my_adapter", "--python", f"otherpeer={fake}",
                    "--timeout", "120")
    assert doc is not None, r.stderr[-500:]
    assert marker.exists(), "--python otherpeer=PATH was not used for the adapter my_adapter (PEER otherpeer)"


@pytest.mark.parametrize("where", ["conversion", pytest.param("make", marks=pytest.mark.tier("slow")),
                                   "try_spend"])
def test_a_check_returns_within_its_cap_when_the_implementation_hangs(tmp_path, where):
    code = textwrap.dedent(f"""
        import time
        from dpbounds.testing import check_conversion, check_filter
        def hang(*a, **k):
            time.sleep(10**6)
        class F:
            def try_spend(self, eps):
                time.sleep(10**6)
        t0 = time.monotonic()
        if {where!r} == "conversion":
            r = check_conversion(hang, "conversions.cks20.delta", inputs={{"rho": (0.01, 1.0), "eps": (0.1, 5.0)}},
                                 seconds=2)
        else:
            make = hang if {where!r} == "make" else F
            r = check_filter(make, "rruv16.thm3_4.filter", budget={{"eps_g": "1"}}, costs=("eps",), seconds=2)
        print(r.verdict, round(time.monotonic() - t0, 1))
        """)
    t0 = time.monotonic()
    try:
        r = subprocess.run([sys.executable, "-c", code], env=ENV, capture_output=True, text=True, timeout=150)
    except subprocess.TimeoutExpired:
        pytest.fail(f"check_* did not return within 150 s when the implementation hangs in {where}")
    assert r.returncode == 0, r.stderr[-800:]
    assert time.monotonic() - t0 < 150


def test_a_result_with_huge_exact_rationals_crosses_the_process_boundary_losslessly():
    # an enclosure end of 5,000 digits (smartnoise-sql's exact composition) must not hit Python's limit on decimal
    # conversions of integers (4,300 digits) on its way from the adapter's child
    from fractions import Fraction

    from dpbounds.testing.results import Comparison, PeerResult, result_from_wire, to_wire
    from dpbounds.testing.verdicts import judge_upper
    lo = Fraction(10 ** 5000 + 1, 3 * 10 ** 5000)
    j = judge_upper(0.5, lo, lo + Fraction(1, 10 ** 6000), role="truth", reference="x", description="x")
    r = PeerResult("p", comparisons=[Comparison("p", "f", "c", {}, peer_value=0.5, truth=j)])
    back = result_from_wire(json.loads(json.dumps(to_wire(r), allow_nan=False)))
    assert back == r and back.comparisons[0].truth.lo == lo
