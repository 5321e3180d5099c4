"""Bad input never produces a traceback: the CLI exits 2 with one line naming the parameter, value and
domain; no user string reaches sympify/eval; outputs are written atomically."""

from __future__ import annotations

import ast
import io
import json
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpbounds.cli import main

ROOT = Path(__file__).resolve().parents[1]


def run_cli(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            rc = main(argv)
    finally:
        sys.stdin = old_stdin
    return rc, out.getvalue(), err.getvalue()


BAD_EVAL = [
    (["eval", "rruv16.thm5_1", "--param", "eps_g=1", "--param", "delta_g=0.5", "--eps", "0.1"], "delta_g"),
    (["eval", "rruv16.thm5_1", "--param", "eps_g=-1", "--param", "delta_g=1e-6", "--eps", "0.1"], "eps_g"),
    (["eval", "rruv16.thm5_1", "--param", "eps_g=nan", "--param", "delta_g=1e-6", "--eps", "0.1"], "eps_g"),
    (["eval", "rruv16.thm5_1", "--param", "eps_g=inf", "--param", "delta_g=1e-6", "--eps", "0.1"], "eps_g"),
    (["eval", "rruv16.thm5_1", "--param", "eps_g=1", "--eps", "0.1"], "delta_g"),
    (["eval", "rruv16.thm5_1", "--param", "eps_g=1", "--param", "delta_g=1e-6", "--param", "zz=1", "--eps", "0.1"], "zz"),
    (["eval", "no.such.id", "--param", "eps_g=1"], "id"),
    (["eval", "rruv16.thm5_1", "--param", "eps_g=1", "--param", "delta_g=1e-6", "--eps", "0.1,,0.2"], "--eps"),
    (["eval", "rruv16.thm5_1", "--param", "eps_g=1", "--param", "delta_g=1e-6", "--eps", "0.1,-0.2"], "eps[1]"),
    (["eval", "rruv16.thm5_1", "--param", "eps_g=1", "--param", "delta_g=1e-6", "--eps", "0.1", "--delta", "0,0"], "delta"),
    (["eval", "rruv16.thm5_1", "--param", "eps_g=__import__('os').system('true')", "--param", "delta_g=1e-6",
      "--eps", "0.1"], "eps_g"),
    (["eval", "rruv16.thm5_1", "--param", "eps_g", "--eps", "0.1"], "--param"),
    (["eval", "rruv16.thm5_1", "--param", "eps_g=1", "--param", "delta_g=1e-6", "--eps", "0.1", "--digits", "0"], "digits"),
    (["spec", "--show", "nope"], "id"),
]


@pytest.mark.parametrize("argv,param", BAD_EVAL, ids=[" ".join(a)[:60] for a, _ in BAD_EVAL])
def test_bad_input_exits_2_with_one_line_naming_the_parameter(argv, param):
    rc, out, err = run_cli(argv)
    assert rc == 2, (rc, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert param in lines[0], lines[0]


def test_no_user_string_reaches_sympify_or_eval(monkeypatch):
    import sympy
    calls = []
    real = sympy.sympify

    def spy(*a, **k):
        calls.append(a)
        return real(*a, **k)

    monkeypatch.setattr(sympy, "sympify", spy)
    rc, out, err = run_cli(["eval", "rruv16.thm5_1", "--param", "eps_g=__import__('os').system('touch /tmp/pwn')",
                            "--param", "delta_g=1e-6", "--eps", "0.1"])
    assert rc == 2
    assert not any("__import__" in str(a) for a in calls)
    assert not Path("/tmp/pwn").exists()


def test_reference_and_spec_sources_never_call_eval_or_sympify_on_input():
    """Static check: no eval/exec anywhere; sympify only where marked '# trusted' (literal spec text)."""
    for pkg in ("reference", "spec"):
        for path in (ROOT / pkg).rglob("*.py"):
            tree = ast.parse(path.read_text())
            for node in ast.walk(tree):
                if isinstance(node, ast.Call):
                    name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                    if name in ("eval", "exec"):
                        raise AssertionError(f"{path}:{node.lineno} calls {name}")
                    if name in ("sympify", "parse_expr", "S") and pkg == "reference":
                        line = path.read_text().splitlines()[node.lineno - 1]
                        assert "# trusted" in line, f"{path}:{node.lineno} calls {name} without '# trusted'"


argv_tokens = st.sampled_from(["eval", "spec", "--param", "--eps", "--delta", "--digits", "--format", "json", "text",
                               "rruv16.thm5_1", "rruv16.lemma6_4", "eps_g=1", "delta_g=1e-6", "delta_g=2", "x=0.1",
                               "0.1,0.2", "-1", "nan", "1e400", "", "=", "--show", "--list", "A=0.1", "V=inf",
                               "aggregate.V", "0", "abc"])


@settings(max_examples=60)
@given(st.lists(argv_tokens, min_size=0, max_size=8))
def test_fuzzed_argv_exits_0_or_2_without_traceback(argv):
    rc, out, err = run_cli(argv)
    assert rc in (0, 2), (argv, rc, err)
    assert "Traceback" not in err and "internal error" not in err, (argv, err)


def test_console_script_runs_in_a_subprocess():
    r = subprocess.run([sys.executable, "-m", "dpbounds", "eval", "rruv16.lemma6_4", "--param", "x=0.01",
                        "--param", "delta_g=1e-6", "--eps", "0.1,0.2", "--format", "json"],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    rec = json.loads(r.stdout)
    assert set(rec) >= {"id", "source", "params", "value", "enclosure", "upper", "lower", "digits"}
    lo, hi = (float(x) for x in rec["enclosure"])
    assert rec["lower"] <= lo <= float(rec["value"]) <= hi <= rec["upper"]


def test_atomic_write_leaves_old_file_when_interrupted(tmp_path, monkeypatch):
    from dpbounds.util import io as rio
    target = tmp_path / "f.json"
    rio.atomic_write_text(target, "old")

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(rio.os, "replace", boom)
    from dpbounds.spec import DomainError
    with pytest.raises(DomainError, match="disk full"):  # an OS error on an output is bad input: exit 2
        rio.atomic_write_text(target, "new" * 1000)
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.json"]  # no temp file left behind


BAD_OTHER = [
    (["filter", "wrrw23.thm2", "--budget", "eps_g=1", "--budget", "delta_prime=2", "--budget", "delta_dprime=0"],
     "eps\n0.1\n", "delta_prime"),
    (["filter", "rruv16.thm5_1", "--budget", "eps_g=1", "--budget", "delta_g=0.5"], "eps\n0.1\n", "delta_g"),
    (["filter", "wrrw23.thm2", "--budget", "eps_g=1", "--budget", "delta_prime=1e-6", "--budget", "delta_dprime=0"],
     "eps,delta\n0.1\n", "row 1"),
    (["filter", "wrrw23.thm2", "--budget", "eps_g=1", "--budget", "delta_prime=1e-6", "--budget", "delta_dprime=0"],
     "epsilon\n0.1\n", "header"),
    (["filter", "wrrw23.thm2", "--budget", "eps_g=1", "--budget", "delta_prime=1e-6", "--budget", "delta_dprime=0"],
     "eps\nnan\n", "eps"),
    (["filter", "rruv16.thm5_1", "--budget", "eps_g=1", "--budget", "delta_g=1e-6"], "eps,delta\n0.1,1e-9\n", "delta[0]"),
    (["filter", "fz21.thm4_7", "--budget", "eps_g=1", "--budget", "delta_g=1e-6", "--conversion", "gauss"], "eps\n0.1\n",
     "conversion"),
    (["filter", "wrrw23.thm3.mixture"], "eps\n0.1\n", "id"),
    (["odometer", "wrrw23.thm3.mixture", "--param", "gamma=-1", "--param", "delta_prime=1e-6", "--param",
      "delta_dprime=0"], "eps\n0.1\n", "gamma"),
    (["odometer", "wrrw23.thm3.mixture", "--param", "gamma=0.1", "--param", "delta_prime=1e-6", "--param",
      "delta_dprime=0"], "eps\n-0.1\n", "eps"),
    (["bstar", "--eps-g", "0", "--delta-g", "1e-6"], "", "eps_g"),
    (["bstar", "--eps-g", "1", "--delta-g", "1"], "", "delta_g"),
    (["bstar", "--eps-g", "__import__('os')", "--delta-g", "1e-6"], "", "eps_g"),
    (["golden", "--out", "/tmp/dpbounds-golden-bad", "--bounds", "no.such"], "", "id"),
    (["golden", "--out", "/tmp/dpbounds-golden-bad", "--digits", "2"], "", "digits"),
    (["audit", "--peers", "nope"], "", "--peers"),
    (["check-proofs", "--claim", "nope"], "", "--claim"),
]


@pytest.mark.parametrize("argv,stdin,param", BAD_OTHER, ids=[" ".join(a)[:70] for a, _, _ in BAD_OTHER])
def test_every_subcommand_rejects_bad_input_with_one_line(argv, stdin, param):
    rc, out, err = run_cli(argv, stdin)
    assert rc == 2, (rc, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert param in lines[0], lines[0]


stream_rows = st.lists(st.tuples(st.sampled_from(["0", "0.01", "0.1", "1", "-1", "nan", "1e400", "x", "", "0.5"]),
                                 st.sampled_from(["0", "1e-9", "1", "-0.0", "abc", ""])), max_size=6)


@settings(max_examples=40)
@given(stream_rows, st.sampled_from(["eps,delta", "eps", "delta,eps", "rho", "eps,eps", ""]))
def test_fuzzed_filter_streams_exit_0_or_2(rows, header):
    text = header + "\n" + "".join(f"{a},{b}\n" for a, b in rows)
    rc, out, err = run_cli(["filter", "wrrw23.thm2", "--budget", "eps_g=1", "--budget", "delta_prime=1e-6",
                            "--budget", "delta_dprime=1e-6", "--format", "json"], text)
    assert rc in (0, 2), (text, rc, err)
    assert "Traceback" not in err and "internal error" not in err, err
    if rc == 0:
        json.loads(out)
