"""What a new user hit first (issue 25, "rough for a newcomer"): --version, a filter's decision in `eval`, the GDP
filter's mu column, a readable B*, help(dpbounds), and the README's promises (generate vectors before loading them,
DPBOUNDS_SEEDS, rounding a float bound up)."""

from __future__ import annotations

import json
import math
import pydoc
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import dpbounds

PY = sys.executable
ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _cli(args, stdin=""):
    return subprocess.run([PY, "-m", "dpbounds", *args], input=stdin, capture_output=True, text=True, timeout=300)


def test_version_flag():
    r = _cli(["--version"])
    assert r.returncode == 0 and r.stdout.strip() == f"dpbounds {dpbounds.__version__}", r.stdout + r.stderr


def test_help_of_the_package_names_the_cli_the_audit_and_the_golden_vectors():
    text = pydoc.render_doc(dpbounds, renderer=pydoc.plaintext)
    for word in ("command line", "dpbounds audit", "golden vectors", "dpbounds golden --out", "load_golden"):
        assert word in text, word


@pytest.mark.parametrize("eps,decision", [("0.01", "CONT"), ("0.5,0.6", "HALT")])
@pytest.mark.tier("slow")
def test_eval_of_a_filter_prints_its_decision(eps, decision):
    base = ["eval", "rruv16.thm5_1", "--param", "eps_g=1", "--param", "delta_g=1e-6", "--eps", eps]
    r = _cli(base)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("rruv16.thm5_1 = ") and lines[1].startswith(f"  decision: {decision} -- ")
    assert json.loads(_cli(base + ["--format", "json"]).stdout)["decision"] == decision
    # the decision is the filter's own: the same rounds through make_filter
    f = dpbounds.make_filter("rruv16.thm5_1", eps_g="1", delta_g="1e-6")
    got = [f.try_spend(e).value for e in eps.split(",")]
    assert got[-1] == decision


def test_eval_of_a_bound_that_is_not_a_filter_prints_no_decision():
    r = _cli(["eval", "conversions.cks20", "--param", "rho=1", "--param", "delta=1e-6"])
    assert r.returncode == 0 and "decision:" not in r.stdout


@pytest.mark.tier("slow")
def test_the_gdp_filter_reads_mu_as_rho_equal_mu_squared_over_two():
    budget = ["--budget", "eps_g=1", "--budget", "delta_g=1e-6"]
    mus = ["0.05", "0.1", "0.07"] * 6
    by_mu = _cli(["filter", "st22.filter", *budget], "mu\n" + "\n".join(mus) + "\n")
    by_rho = _cli(["filter", "st22.filter", *budget],
                  "rho\n" + "\n".join(str(Fraction(m) ** 2 / 2) for m in mus) + "\n")
    assert by_mu.returncode == 0 and by_mu.stdout == by_rho.stdout, (by_mu.stderr, by_rho.stderr)
    assert "HALT" in by_mu.stdout  # sum mu^2 exceeds the budget's mu_g^2 within these rounds
    refused = _cli(["filter", "rruv16.thm5_1", *budget], "mu\n0.1\n")  # not a GDP filter: no mu column
    assert refused.returncode == 2 and "mu" in refused.stderr
    both = _cli(["filter", "st22.filter", *budget], "mu,rho\n0.1,0.005\n")
    assert both.returncode == 2 and "one of the columns mu and rho" in both.stderr


def test_b_star_reads_as_certified_digits_and_keeps_the_exact_value():
    b = dpbounds.b_star("1", "1e-6", "cks20")
    shown = repr(b.b_star)
    assert len(shown) < 80 and "/" not in shown, shown
    digits = str(b.b_star)
    assert Fraction(digits) <= b.b_star and b.b_star - Fraction(digits) < Fraction(1, 10**20) * b.b_star
    assert type(b.b_star.exact) is Fraction and b.b_star.exact == b.bracket[0]
    assert b.b_star == b.bracket[0] and float(b.b_star) == float(b.bracket[0])
    assert str(b).startswith(f"B*_cks20 >= {digits}")


def test_the_readme_says_to_generate_vectors_before_loading_them():
    line = next(ln for ln in README.splitlines() if "load_golden(" in ln and "vectors/" in ln)
    assert "dpbounds golden --out vectors/" in line


def test_dpbounds_seeds_is_documented_where_contributors_look():
    contributing = (ROOT / "docs" / "CONTRIBUTING.md").read_text(encoding="utf-8")
    for text in (README, contributing):
        assert "DPBOUNDS_SEEDS" in text and "skip" in text
    seeds = (ROOT / "tests" / "seeds.py").read_text(encoding="utf-8")
    assert "DPBOUNDS_SEEDS" in seeds and "shared" in seeds  # what the docs describe is what the tests do


def test_the_audit_tutorials_rounding_helper_runs_and_rounds_up(tmp_path):
    """The audit tutorial's block ("Rounding a float bound up"), run as printed (in a subprocess), then its round_up
    checked on known values."""
    text = (ROOT / "docs" / "tutorials" / "audit.md").read_text(encoding="utf-8")
    block = text[text.index("import math\n\ndef round_up("):]
    block = block[:block.index("```")]
    script = tmp_path / "round_up.py"
    script.write_text("rho, delta = 0.5, 1e-6\n" + block + """
x = 0.1 + 0.2
assert round_up(x) > x and round_up(x, 1) == math.nextafter(x, math.inf)
naive = rho + 2 * math.sqrt(rho * math.log(1 / delta))
assert eps == round_up(naive) > naive
print("ok")
""")
    r = subprocess.run([PY, str(script)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_bench_quick_is_a_small_run():
    """`bench --quick` took 1 min 50 s: its sizes are now small (timings themselves live in `dpbounds bench`)."""
    from dpbounds.outputs import bench
    quick, full = bench._bench_entries(True), bench._bench_entries(False)
    assert len({bench._class_of(e.expr) for e in quick}) == len(quick) < len(full)
    import inspect
    src = inspect.getsource(bench.bench_streaming_memory) + inspect.getsource(bench.bench_fast_path)
    assert "10**4 if quick" in src and "10_000 if quick" in src
