"""Every short input answers or is refused in bounded time and memory: the cost models of
dpbounds.evaluation.cost refuse, before any work, the inputs whose evaluation grows past the budget (one line: the
parameter, its value, the domain the model allows, the theorem); `dpbounds eval`/`bstar` stop at a CPU-time cap
behind them.  Bounded by resource limits on a subprocess (RLIMIT_CPU, RLIMIT_AS), never by a timing assertion."""

from __future__ import annotations

import random
from fractions import Fraction
import subprocess
import sys
import textwrap

import pytest

import dpbounds
from dpbounds.cli import main
from dpbounds.evaluation import cost

#: the promise: 60 s and 1.5 GB (the subprocess dies on either limit, which fails the test)
CPU_S, MEM_MB = 60, 1500

_PRELUDE = f"""
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({MEM_MB} << 20, {MEM_MB} << 20))
resource.setrlimit(resource.RLIMIT_CPU, ({CPU_S}, {CPU_S}))
"""


def limited(argv=None, code=None) -> subprocess.CompletedProcess:
    if argv is not None:
        code = "from dpbounds.cli import main\nsys.exit(main(" + repr(argv) + "))\n"
    return subprocess.run([sys.executable, "-c", _PRELUDE + textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=20 * CPU_S)


def answer_or_one_line(r: subprocess.CompletedProcess) -> str:
    assert r.returncode in (0, 2), (r.returncode, r.stderr[-1500:])
    if r.returncode == 2:
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("dpbounds: error:"), r.stderr[-1500:]
        return lines[0]
    return ""


# ------------------------------------------------------------------ the models refuse before any work (fast)

@pytest.mark.parametrize("entry,params,digits,name", [
    ("conversions.kov15.exact", {"eps": "49999", "k": "49999", "eps_g": "10"}, 5000, "k"),
    ("conversions.kov15.exact", {"eps": "0.1", "k": "20000", "eps_g": "1"}, 3000, "k"),
    ("conversions.mv16.exact", {"eps": "0.1", "k": "2000", "eps2": "0.2", "k2": "2000", "eps_g": "1"}, 30, "k"),
    ("conversions.mv16.exact", {"eps": "0.1", "k": "700", "eps2": "0.2", "k2": "700", "eps_g": "1"}, 30, "k"),
    ("tradeoff.rdp", {"alpha": "1e1000", "R": "1", "fpr": "0.05"}, 30, "alpha"),
    ("tradeoff.rdp", {"alpha": "1e500", "R": "2", "fpr": "0.5"}, 10, "alpha"),
])
def test_a_costly_point_is_refused_naming_its_parameter(entry, params, digits, name):
    with pytest.raises(dpbounds.DomainError) as e:
        dpbounds.evaluate(entry, params, digits=digits)
    assert e.value.param == name and "too costly" in str(e.value), str(e.value)
    with pytest.raises(dpbounds.DomainError):
        dpbounds.enclose(entry, params, rel_tol=Fraction(1, 10 ** (digits + 3)))


def test_within_the_model_the_same_entries_still_answer():
    assert dpbounds.evaluate("conversions.kov15.exact", {"eps": "0.1", "k": "200", "eps_g": "1"}, digits=100)
    assert dpbounds.evaluate("conversions.mv16.exact", {"eps": "0.1", "k": "20", "eps2": "0.2", "k2": "20",
                                                        "eps_g": "1"}, digits=30)
    assert dpbounds.evaluate("tradeoff.rdp", {"alpha": "1e20", "R": "1", "fpr": "0.05"}, digits=20)


def test_many_distinct_rounds_at_many_digits_are_refused_but_not_at_the_default_digits():
    rng = random.Random(3)
    eps = [f"{rng.random() * 1e-4:.12f}" for _ in range(200_000)]
    with pytest.raises(dpbounds.DomainError) as e:
        cost.check_rounds_cost(dpbounds.get("rruv16.thm5_1"), 1000, eps=eps)
    assert e.value.param == "eps"
    cost.check_rounds_cost(dpbounds.get("rruv16.thm5_1"), 30, eps=eps[:100_000])  # well within the budget


def test_the_command_line_stops_at_its_cpu_cap_with_one_line(monkeypatch, capsys):
    """Behind the models: an evaluation the models allow but that runs past the cap is refused, one line."""
    import dpbounds.util.limits as L
    monkeypatch.setattr(L, "CPU_SECONDS", 0.05)
    rc = main(["eval", "conversions.kov15.exact", "--param", "eps=0.1", "--param", "k=3000", "--param", "eps_g=1",
               "--digits", "1000"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "CPU" in err and "k=3000" in err, err


# ------------------------------------------------------------------ the inputs, under the limits (slow)

@pytest.mark.tier("slow")
@pytest.mark.parametrize("argv", [
    ["eval", "tradeoff.rdp", "--param", "alpha=1e1000", "--param", "R=1", "--param", "fpr=0.05"],
    ["eval", "conversions.cks20.delta", "--param", "rho=0.1", "--param", "eps_g=1e308"],
    ["eval", "conversions.cks20.delta", "--param", "rho=3", "--param", "eps_g=1e1000"],
    ["eval", "conversions.mv16.exact", "--param", "eps=0.1", "--param", "k=2000", "--param", "eps2=0.2",
     "--param", "k2=2000", "--param", "eps_g=1"],
    ["eval", "conversions.kov15.exact", "--param", "eps=49999", "--param", "k=49999", "--param", "eps_g=10",
     "--digits", "5000"],
], ids=["rdp-alpha", "cks20-eps1e308", "cks20-eps1e1000", "mv16-k2000", "kov15-digits5000"])
def test_the_reported_slow_inputs_answer_or_refuse_within_the_limits(argv):
    answer_or_one_line(limited(argv))


@pytest.mark.tier("slow")
def test_delta_of_at_a_huge_eps_is_an_enclosure_within_the_limits():
    r = limited(code="import dpbounds\nprint(dpbounds.delta_of('0.1', 1e308))\n")
    assert r.returncode == 0 and "Enclosure" in r.stdout, r.stderr[-1500:]


@pytest.mark.tier("slow")
def test_a_million_line_eps_file_at_1000_digits_is_refused_within_the_limits(tmp_path):
    rng = random.Random(4)
    f = tmp_path / "eps.txt"
    f.write_text("\n".join(f"{rng.random() * 1e-4:.10f}" for _ in range(10**6)))
    line = answer_or_one_line(limited(["eval", "rruv16.thm5_1", "--param", "eps_g=1", "--param", "delta_g=1e-6",
                                       "--eps-file", str(f), "--digits", "1000"]))
    assert "distinct per-round values" in line
