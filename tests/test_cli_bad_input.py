"""Bad input to the CLI and its manners, run as a user runs them:
``dpbounds ...`` in a subprocess.  Every bad input must give exit status 2 and exactly one line on stderr, quickly
(the generous timeout only turns a hang into a failure, it asserts no speed); special files are never replaced.

No test here points a write at a real device: the old code *replaced* its target (``--out /dev/full`` left a regular
file in /dev), so the devices used are FIFOs and character devices created in tmp_path.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

TIMEOUT = int(os.environ.get("DPBOUNDS_TEST_TIMEOUT", "120"))  # seconds: only so a hang fails the test, not CI

P = ["--param", "eps_g=1", "--param", "delta_g=1e-6"]


def dpbounds(argv: list[str], stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess:
    exe = shutil.which("dpbounds", path=os.path.dirname(sys.executable))
    cmd = [exe] if exe else [sys.executable, "-m", "dpbounds.cli"]
    return subprocess.run(cmd + argv, input=stdin, capture_output=True, text=True, timeout=TIMEOUT, cwd=cwd)


def assert_refused(r: subprocess.CompletedProcess, *needles: str) -> str:
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr[-2000:]
    line = lines[0]
    assert line.startswith("dpbounds: error:") and "Traceback" not in r.stderr, line
    for n in needles:
        assert n in line, (n, line)
    return line


@pytest.fixture
def specials(tmp_path):
    """A FIFO, a character device (root only: mknod), a directory, a symlink and a regular file, in tmp_path."""
    d = {"fifo": tmp_path / "fifo", "dir": tmp_path / "dir", "link": tmp_path / "link", "file": tmp_path / "file.txt"}
    os.mkfifo(d["fifo"])
    d["dir"].mkdir()
    d["file"].write_text("0.1\n")
    d["link"].symlink_to(d["file"])
    try:
        os.mknod(tmp_path / "chr", 0o600 | stat.S_IFCHR, os.makedev(1, 5))  # a /dev/zero twin
        d["chr"] = tmp_path / "chr"
    except (PermissionError, OSError):
        pass
    return d


def _still_special(p: Path, kind: str) -> bool:
    st = os.lstat(p)
    return {"fifo": stat.S_ISFIFO, "chr": stat.S_ISCHR, "dir": stat.S_ISDIR, "link": stat.S_ISLNK}[kind](st.st_mode)


# ---------------------------------------------------------------------------------------------- item 4: outputs
@pytest.mark.parametrize("kind", ["fifo", "chr", "dir", "link"])
@pytest.mark.tier("slow")
def test_output_over_a_special_file_is_refused_and_left_alone(specials, kind):
    if kind not in specials:
        pytest.skip("mknod needs root")
    target = specials[kind]
    for argv in (["spec", "--format", "md", "--out", str(target)],
                 ["check-proofs", "--claim", "rruv16.thm5_1.near_optimal_28_04", "--format", "md", "--out", str(target)]):
        r = dpbounds(argv)
        assert_refused(r, "--out", "refusing to replace")
        assert _still_special(target, kind)
    assert specials["file"].read_text() == "0.1\n"  # the symlink's target untouched


@pytest.mark.parametrize("kind", ["fifo", "chr", "dir"])
@pytest.mark.tier("slow")
def test_filter_state_on_a_special_file_is_refused(specials, kind):
    if kind not in specials:
        pytest.skip("mknod needs root")
    r = dpbounds(["filter", "rruv16.thm5_1", "--budget", "eps_g=1", "--budget", "delta_g=1e-6", "--state",
                  str(specials[kind])], stdin="eps\n0.1\n")
    assert_refused(r, "state", "regular file")
    assert _still_special(specials[kind], kind)


# ---------------------------------------------------------------------------------------------- item 4: inputs
@pytest.mark.parametrize("kind", ["fifo", "chr", "dir"])
@pytest.mark.tier("slow")
def test_eps_file_that_is_not_a_regular_file_is_refused_without_waiting(specials, kind):
    if kind not in specials:
        pytest.skip("mknod needs root")
    r = dpbounds(["eval", "rruv16.thm5_1", *P, "--eps-file", str(specials[kind])])
    assert_refused(r, "--eps-file", "regular file")


def test_dev_zero_as_eps_file_is_refused():
    r = dpbounds(["eval", "rruv16.thm5_1", *P, "--eps-file", "/dev/zero"])  # read only: nothing is written
    assert_refused(r, "--eps-file", "character device")


@pytest.mark.parametrize("content", [b"\x00\x01\x02\xff", "0.1\n".encode("utf-16")], ids=["binary", "utf16"])
@pytest.mark.tier("slow")
def test_binary_eps_file_is_refused(tmp_path, content):
    f = tmp_path / "eps.bin"
    f.write_bytes(content)
    assert_refused(dpbounds(["eval", "rruv16.thm5_1", *P, "--eps-file", str(f)]), "--eps-file")


def test_eps_file_with_too_many_values_is_refused(tmp_path):
    from dpbounds.cli.commands import MAX_LIST_VALUES
    f = tmp_path / "eps.txt"
    f.write_text("0.1\n" * (MAX_LIST_VALUES + 1))
    assert_refused(dpbounds(["eval", "rruv16.thm5_1", *P, "--eps-file", str(f)]), "--eps-file",
                   str(MAX_LIST_VALUES))


@pytest.mark.tier("slow")
def test_eps_file_through_a_symlink_is_read(specials):
    r = dpbounds(["eval", "rruv16.thm5_1", *P, "--eps-file", str(specials["link"])])
    assert r.returncode == 0, r.stderr
    direct = dpbounds(["eval", "rruv16.thm5_1", *P, "--eps", "0.1"])
    assert r.stdout == direct.stdout


# ---------------------------------------------------------------------------------------------- item 6
@pytest.mark.parametrize("argv,param", [
    (["eval", "rruv16.thm5_1", *P, "--eps", "1e-99999"], "eps[0]"),
    (["eval", "rruv16.thm5_1", "--param", "eps_g=1e-99999", "--param", "delta_g=1e-99999",
      "--param", "V=1e99999", "--param", "A=1"], "1e-99999"),
    (["eval", "conversions.kov15.exact", "--param", "k=1000000000", "--param", "eps=0.1", "--param", "eps_g=1"], "k="),
    (["filter", "fz21.thm4_7", "--budget", "eps_g=1e99999", "--budget", "delta_g=1e-6"], "eps_g"),
    (["eval", "rruv16.thm5_1", *P, "--eps", "1e" + "9" * 300], "eps[0]"),
], ids=["eps-1e-99999", "three-huge-params", "kov15-k-1e9", "eps_g-1e99999", "300-digit-exponent"])
@pytest.mark.tier("slow")
def test_short_inputs_that_would_take_minutes_are_refused(argv, param):
    assert_refused(dpbounds(argv, stdin="eps\n0.1\n"), param)


def test_numbers_at_the_documented_exponent_limit_still_work():
    r = dpbounds(["eval", "rruv16.thm5_1", *P, "--eps", "1e-1000"])
    assert r.returncode == 0, r.stderr
    # V = 1e-2000 is negligible: the value equals the one of a zero round up to the digits shown
    assert "0.26707054531881676022536192" in r.stdout


# ---------------------------------------------------------------------------------------------- item 8
def test_digits_5000_is_honoured():
    r = dpbounds(["eval", "rruv16.thm5_1", *P, "--eps", "0.1,0.2", "--digits", "5000"])
    assert r.returncode == 0, r.stderr
    value = r.stdout.split(" = ", 1)[1].splitlines()[0]
    assert len(value.replace(".", "")) == 5000


@pytest.mark.parametrize("argv", [
    ["rruv16.thm5_1", *P, "--eps", "0.1,0.2"],                                              # aggregate A
    ["rruv16.lemma6_4", "--param", "x=0.01", "--param", "delta_g=1e-6", "--eps", "0.1,0.2"],  # A, odometer
    ["conversions.kov15.heterogeneous", "--param", "dhat=1e-6", "--eps", "0.1,0.2"],         # KOV
], ids=["thm5_1", "lemma6_4", "kov15"])
@pytest.mark.tier("slow")
def test_digits_80_with_transcendental_aggregates(argv):
    r = dpbounds(["eval", *argv, "--digits", "80"])
    assert r.returncode == 0, r.stderr
    value = r.stdout.split(" = ", 1)[1].splitlines()[0]
    assert len(value.replace(".", "").lstrip("0")) >= 80


def test_digits_80_agrees_with_an_independent_mpmath_value():
    import mpmath
    ctx = mpmath.MPContext()
    ctx.dps = 120
    eps = [ctx.mpf(1) / 10, ctx.mpf(2) / 10]
    # RRUV16 Thm 5.1 eq. (6) written out independently of the spec: V = sum eps^2, A = sum eps (e^eps - 1) / 2
    V = sum(e ** 2 for e in eps)
    A = sum(e * (ctx.exp(e) - 1) / 2 for e in eps)
    L = ctx.log(10 ** 6)
    val = A + ctx.sqrt((2 * V + 50 * ctx.mpf(1) / (701 * L)) * (ctx.log(701 * V * L / 25 + 1) / 2 + 1) * L)
    r = dpbounds(["eval", "rruv16.thm5_1", *P, "--eps", "0.1,0.2", "--digits", "80"])
    assert r.returncode == 0, r.stderr
    shown = r.stdout.split(" = ", 1)[1].splitlines()[0]
    assert abs(ctx.mpf(shown) - val) <= ctx.mpf(10) ** -78 * abs(val)


def test_infinite_aggregate_gives_an_infinite_bound():
    r = dpbounds(["eval", "rruv16.thm5_1", *P, "--param", "V=inf", "--param", "A=1"])
    assert r.returncode == 0, r.stderr
    assert "= inf" in r.stdout


def test_what_halt_is_refused_clearly():
    r = dpbounds(["eval", "rruv16.thm5_1", *P, "--param", "V=1", "--param", "A=1", "--what", "halt"])
    assert_refused(r, "what", "filter")


def test_bstar_huge_eps_g_is_refused_clearly():
    assert_refused(dpbounds(["bstar", "--eps-g", "1e400", "--delta-g", "1e-6"]), "eps_g", "eps_g <= 10000000000")


# ---------------------------------------------------------------------------------------------- items 9, 10
@pytest.mark.parametrize("argv,needle", [
    (["spec", "--show", ""], "id"),
    (["spec", "--format", "md", "--out", ""], "--out"),
    (["check-proofs", "--format", "md", "--out", ""], "--out"),
    (["audit", "--out", ""], "--out"),
    (["golden", "--out", "", "--bounds", "rruv16.thm5_1", "--grid", "sample"], "--out"),
    (["report", "--out", "", "--section", "section_bstar"], "--out"),
    (["report", "--section", "nonexistent"], "section"),
    (["bench", "--only", "nope"], "only"),
    (["bstar", "--eps-g", "1", "--delta-g", "1e-6", "--digits", "100000"], "--digits"),
    (["bstar", "--eps-g", "1", "--delta-g", "1e-6", "--digits", "-5"], "--digits"),
    (["eval", "rruv16.thm5_1", *P, "--eps", "0.1", "--digits", "5001"], "--digits"),
], ids=lambda x: " ".join(x)[:50] if isinstance(x, list) else None)
@pytest.mark.tier("slow")
def test_garbage_is_refused(tmp_path, argv, needle):
    assert_refused(dpbounds(argv, cwd=tmp_path), needle)
    assert list(tmp_path.iterdir()) == []  # nothing written, not even a fallback file


def _bad_output_paths(tmp_path: Path) -> list[tuple[str, Path]]:
    f = tmp_path / "regular"
    f.write_text("x")
    (tmp_path / "d").mkdir()
    return [("under-a-file", f / "x"), ("a-directory", tmp_path / "d"), ("under-proc", Path("/proc/dpbounds-no/x"))]


@pytest.mark.parametrize("command", ["spec", "check-proofs", "audit", "golden", "report", "filter"])
@pytest.mark.tier("slow")
def test_os_errors_on_output_paths_exit_2(tmp_path, command):
    for label, path in _bad_output_paths(tmp_path):
        if command in ("golden", "report") and label == "a-directory":
            path = tmp_path / "regular"  # for these --out is a directory: a regular file is the bad target
        argv = {"spec": ["spec", "--format", "md", "--out", str(path)],
                "check-proofs": ["check-proofs", "--claim", "rruv16.thm5_1.near_optimal_28_04", "--format", "md",
                                 "--out", str(path)],
                "audit": ["audit", "--peers", "opendp", "--quick", "--out", str(path)],
                "golden": ["golden", "--out", str(path), "--bounds", "rruv16.thm5_1", "--grid", "sample"],
                "report": ["report", "--out", str(path), "--section", "section_bstar", "--quick"],
                "filter": ["filter", "rruv16.thm5_1", "--budget", "eps_g=1", "--budget", "delta_g=1e-6",
                           "--state", str(path)]}[command]
        r = dpbounds(argv, stdin="eps\n0.1\n")
        line = assert_refused(r)
        assert "internal error" not in line and "RuntimeWarning" not in r.stderr, (label, line)
    assert (tmp_path / "regular").read_text() == "x"


@pytest.mark.tier("slow")
def test_unknown_id_gets_a_suggestion():
    line = assert_refused(dpbounds(["eval", "rruv16.thm5_2", *P, "--eps", "0.1"]), "id")
    assert "did you mean" in line and "rruv16.thm5_1" in line
    line = assert_refused(dpbounds(["filter", "rruv16.thm5_l", "--budget", "eps_g=1"], stdin="eps\n0.1\n"), "id")
    assert "did you mean" in line


# ---------------------------------------------------------------------------------------------- issue 16 item 5
def _subcommands():
    from dpbounds.cli import build_parser
    p = build_parser()
    sub = next(a for a in p._actions if a.__class__.__name__ == "_SubParsersAction")
    return sub.choices


def test_every_option_of_every_subcommand_has_help_and_every_subcommand_an_example_epilog():
    for name, sp in _subcommands().items():
        assert sp.epilog and "examples:" in sp.epilog, name
        for a in sp._actions:
            if a.dest == "help":
                continue
            assert a.help and a.help.strip(), (name, a.dest)


def test_epilog_examples_parse():
    """Every example line of every epilog is accepted by the argument parser (an example that drifted from the
    options fails here)."""
    import shlex

    from dpbounds.cli import build_parser
    parser = build_parser()
    n = 0
    for name, sp in _subcommands().items():
        text = sp.epilog.split("examples:", 1)[1].replace("\\\n", " ")
        for line in text.splitlines():
            line = line.split("#", 1)[0].split("|")[-1].split("<")[0].strip()
            if not line.startswith("dpbounds "):
                continue
            parser.parse_args(shlex.split(line)[1:])
            n += 1
    assert n >= 2 * len(_subcommands())


def test_stream_format_is_in_filter_and_odometer_help_and_in_the_usage_page():
    usage = (Path(__file__).resolve().parents[1] / "docs" / "usage.md").read_text()
    assert "eps,delta\n0.1,1e-7" in usage
    for cmd in ("filter", "odometer"):
        r = dpbounds([cmd, "--help"])
        assert r.returncode == 0
        assert "header line naming the" in r.stdout and "eps,delta" in r.stdout.replace(" ", ""), cmd


def test_the_stream_format_example_of_the_help_runs():
    """The example stream shown in --help is accepted by a filter that takes eps and delta (a consumer that did not
    write it)."""
    r = dpbounds(["filter", "wrrw23.thm2", "--budget", "eps_g=10", "--budget", "delta_prime=1e-6", "--budget",
                  "delta_dprime=1e-6"], stdin="eps,delta\n0.1,1e-7\n0.25,0\n")
    assert r.returncode == 0, r.stderr
    assert [ln.split("\t")[:2] for ln in r.stdout.splitlines()] == [["1", "CONT"], ["2", "CONT"]]
