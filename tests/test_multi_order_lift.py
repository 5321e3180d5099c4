"""Issue 29: the multi-order Renyi filter with CKS20 budgets, the (eps, delta) lift of pure filters, the exact
optimum of heterogeneous pure sequences and the tightness benchmark.  Expected values come from independent
derivations (mpmath from the definitions, brute-force enumeration, exact Fractions)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import mpmath
import pytest

from dpbounds import spec
from dpbounds.accounting.accountants import Decision, make_filter
from dpbounds.spec import DomainError

ORDERS = "2,4,8,16,32,64"


def _count(f, *per_round, cap=100000) -> int:
    n = 0
    while n < cap and f.try_spend(*per_round):
        n += 1
    return n


def _mp_rounds(eps: str, eps_g: str, delta_g: str, orders: str, cks: bool) -> int:
    """max over orders of floor(B/D_alpha(RR_eps)) from the definitions (mpmath, 50 digits)."""
    ctx = mpmath.mp.clone()
    ctx.dps = 50
    alphas = [ctx.mpf(a) for a in orders.split(",")]
    e, k = ctx.mpf(eps), len(alphas)
    p = ctx.exp(e) / (1 + ctx.exp(e))
    best = 0
    for A in alphas:
        D = ctx.log(p ** A * (1 - p) ** (1 - A) + (1 - p) ** A * p ** (1 - A)) / (A - 1)
        logC = (A - 1) * ctx.log(1 - 1 / A) - ctx.log(A) if cks else 0
        B = ctx.mpf(eps_g) - (ctx.log(k / ctx.mpf(delta_g)) + logC) / (A - 1)
        best = max(best, int(ctx.floor(B / D)) if B >= 0 else 0)
    return best


def test_done_when_multi_order_cks20_allows_at_least_400_rounds():
    f = make_filter("lec21.multi_order.cks20", eps_g="1", delta_g="1e-6", orders=ORDERS)
    n = _count(f, "0.01")
    assert n >= 400
    want = _mp_rounds("0.01", "1", "1e-6", ORDERS, cks=True)
    assert want - 1 <= n <= want  # charges rounded up: at most one round early, never late


@pytest.mark.parametrize("eps", ["0.003", "0.05", "0.2"])
def test_cks20_budgets_never_allow_fewer_rounds_than_the_tail_bound_ones(eps):
    a = _count(make_filter("lec21.multi_order.cks20", eps_g="1", delta_g="1e-6", orders=ORDERS), eps)
    b = _count(make_filter("lec21.multi_order", eps_g="1", delta_g="1e-6", orders=ORDERS), eps)
    assert a >= b
    assert a <= _mp_rounds(eps, "1", "1e-6", ORDERS, cks=True)


def test_cks20_component_budget_matches_the_definition():
    from dpbounds.evaluation.evaluate import enclose
    e = enclose("lec21.multi_order.cks20", {"alpha": "8", "eps_g": "1", "delta_g": "1e-6", "k": "4", "R": "0"},
                what="extra.B")
    A = mpmath.mpf(8)
    want = 1 - (mpmath.log(4 / mpmath.mpf("1e-6")) + 7 * mpmath.log(1 - 1 / A) - mpmath.log(A)) / 7
    assert float(e.lo) <= float(want) + 1e-15 and float(want) - 1e-15 <= float(e.hi)


def test_done_when_lift_allows_at_least_480_rounds_of_eps_delta_rounds():
    f = make_filter("kov15.lift", eps_g="1", delta_g="1e-6", delta_dprime="5e-8", base="fz21.thm4_3.rr", alpha="22")
    n = _count(f, "0.01", "1e-10")
    assert n >= 480
    # the pure part alone, at delta' = 1e-6 - 5e-8, allows the same number (the delta side allows 500)
    g = make_filter("fz21.thm4_3.rr", alpha="22", eps_g="1", delta_g=Fraction(95, 10**8))
    assert n == _count(g, "0.01")


def test_lift_halts_on_the_delta_side_exactly_at_delta_dprime():
    f = make_filter("kov15.lift", eps_g="10", delta_g="1e-6", delta_dprime="1e-9", base="fz21.thm4_3.rr", alpha="8")
    assert _count(f, "0.001", "1e-10") == 10          # 10 x 1e-10 = 1e-9 (CONT at equality), the 11th HALTs
    assert f.try_spend("0", "0") is Decision.HALT      # HALT is final


def test_lift_refused_round_is_charged_to_neither_part():
    f = make_filter("kov15.lift", eps_g="1", delta_g="1e-6", delta_dprime="1e-8", base="fz21.thm4_3.rr", alpha="8")
    assert f.try_spend("0.01", "2e-8") is Decision.HALT
    assert f.base.rounds == 0 and f.deltas.rounds == 0


def test_lift_default_base_is_basic_composition():
    f = make_filter("kov15.lift", eps_g="1", delta_g="1e-6", delta_dprime="5e-7")
    assert _count(f, "0.25", "1e-7") == 4              # sum eps = 1 <= eps_g; the 5th exceeds it


@pytest.mark.parametrize("kw", [dict(delta_dprime="1e-6"), dict(delta_dprime="-1e-9"), dict(base="st22.filter"),
                                dict(base="fz21.thm4_3.rr")])
def test_lift_bad_input_is_a_domain_error(kw):
    budget = {"eps_g": "1", "delta_g": "1e-6", "delta_dprime": "5e-8", **kw}
    with pytest.raises(DomainError):
        make_filter("kov15.lift", **budget)


def test_lift_bad_rounds_are_domain_errors():
    f = make_filter("kov15.lift", eps_g="1", delta_g="1e-6", delta_dprime="5e-8", base="fz21.thm4_3.rr", alpha="8")
    for bad in (("0.01", "1"), ("-0.01", "0"), ("0.01", "-1e-9")):
        with pytest.raises(DomainError):
            f.try_spend(*bad)


# ------------------------------------------------------------------------------------------ heterogeneous optimum
def _brute(eps_list, eps_g) -> mpmath.mpf:
    ctx = mpmath.mp.clone()
    ctx.dps = 60
    tot = ctx.mpf(0)
    for signs in product((0, 1), repeat=len(eps_list)):
        P = Q = ctx.mpf(1)
        for e, s in zip(eps_list, signs):
            x = ctx.exp(ctx.mpf(e))
            P *= (x if s == 0 else 1) / (1 + x)
            Q *= (x if s == 1 else 1) / (1 + x)
        tot += max(P - ctx.exp(ctx.mpf(eps_g)) * Q, 0)
    return tot


@pytest.mark.parametrize("seq,eps_g", [(["0.1"] * 5 + ["0.3"] * 3, "0.5"), (["0.05", "0.2", "0.05", "0.7"], "0.3"),
                                       (["0.005", "0.01", "0.02"] * 3, "0.02"), (["1"] * 4, "1")])
def test_engine_and_spec_equal_brute_force(seq, eps_g):
    from dpbounds.evaluation.evaluate import enclose
    from dpbounds.exact.worst_case import delta_rr
    want = _brute(seq, eps_g)
    ctx = mpmath.mp.clone()
    ctx.dps = 60
    tol = ctx.mpf(10) ** -40

    def q(x: Fraction):  # an exact rational at 60 digits
        return ctx.mpf(x.numerator) / x.denominator

    d = delta_rr(seq, eps_g)
    assert q(d.lo) - tol <= want <= q(d.hi) + tol
    vals = sorted(set(seq), key=Fraction)
    if len(vals) <= 2:
        e2 = vals[-1] if len(vals) == 2 else "0"
        s = enclose("conversions.mv16.exact", {"eps": vals[0], "k": str(seq.count(vals[0])), "eps2": e2,
                                               "k2": str(seq.count(e2) if len(vals) == 2 else 0), "eps_g": eps_g})
        assert q(s.lo) - tol <= want <= q(s.hi) + tol


def test_optimum_prefix_is_the_longest_certified_prefix():
    from dpbounds.outputs.compare import rr_optimum_prefix
    seq = ["0.3", "0.1", "0.5", "0.2", "0.4", "0.3", "0.6", "0.1"]
    n = rr_optimum_prefix(seq, "1", "0.05")
    assert all(_brute(seq[:m], "1") <= mpmath.mpf("0.05") for m in range(n + 1))
    assert n == len(seq) or _brute(seq[:n + 1], "1") > mpmath.mpf("0.05")


def test_no_filter_beats_the_optimum_on_a_short_heterogeneous_stream():
    from dpbounds.outputs.compare import rr_optimum_prefix
    seq = ["0.05", "0.2", "0.1"] * 30
    opt = rr_optimum_prefix(seq, "1", "1e-3")
    for fid, kw in (("lec21.multi_order.cks20", {"orders": ORDERS}), ("lec21.multi_order", {"orders": ORDERS})):
        f = make_filter(fid, eps_g="1", delta_g="1e-3", **kw)
        n = 0
        for e in seq:
            if not f.try_spend(e):
                break
            n += 1
        assert n <= opt


def test_proof_verdicts_of_issue_29():
    from dpbounds.proofs_check.core import all_claims, run_claim
    claims = all_claims()
    res = {cid: run_claim(claims[cid]).verdict for cid in ("lec21.multi_order.cks20.partition",
                                                           "conversions.mv16.exact.brute_force", "kov15.lift.coupling")}
    assert res == {"lec21.multi_order.cks20.partition": "proved", "conversions.mv16.exact.brute_force": "verified",
                   "kov15.lift.coupling": "proved"}


def test_golden_streams_of_the_new_filters_follow_their_exact_rules():
    """kov15.lift's delta component halts iff sum delta_i > delta''; lec21.multi_order.cks20's component iff sum rho >
    B(alpha) (mpmath from the definition); each stream stops at its first HALT."""
    import json
    from collections import defaultdict

    from dpbounds.outputs.golden import golden_files
    files = golden_files(bounds=["kov15.lift", "lec21.multi_order.cks20"], grid="default", conversions=False)
    ctx = mpmath.mp.clone()
    ctx.dps = 50
    for fid in ("kov15.lift", "lec21.multi_order.cks20"):
        recs = [json.loads(x) for x in files[f"streams/{fid}.jsonl"].splitlines()]
        assert recs
        by = defaultdict(list)
        for r in recs:
            by[(json.dumps(r["budget"], sort_keys=True), r["stream"])].append(r)
        for recs1 in by.values():
            s = Fraction(0)
            for i, r in enumerate(recs1, 1):
                assert r["round"] == i
                b = r["budget"]
                if fid == "kov15.lift":
                    s += Fraction(r["delta"])
                    want = s > Fraction(b["delta_dprime"])
                else:
                    s += Fraction(r["rho"])
                    A, k = ctx.mpf(b["alpha"]), int(b["k"])
                    B = ctx.mpf(b["eps_g"]) - (ctx.log(k / ctx.mpf(b["delta_g"])) + (A - 1) * ctx.log(1 - 1 / A)
                                               - ctx.log(A)) / (A - 1)
                    gap = ctx.mpf(s.numerator) / s.denominator - B
                    if abs(gap) < ctx.mpf(10) ** -30:
                        continue  # a tie stream's last round: decided by the certified rule, not at 50 digits
                    want = gap > 0
                assert r["halt"] == want, (fid, r["stream"], i)
            assert not any(r["halt"] for r in recs1[:-1])


@pytest.mark.tier("slow")
def test_heterogeneous_benchmark_never_exceeds_the_optimum_and_gdp_reaches_it():
    from dpbounds.outputs.compare import compare_heterogeneous_table
    headers, rows, g_headers, g_rows, note, best = compare_heterogeneous_table(quick=True)
    for row in rows + g_rows:
        opt = int(row[-1])
        assert opt > 0
        for cell in row[1:-1]:
            assert int(cell.split()[0]) <= opt, row
    gdp = g_headers.index("GDP filter (Smith-Thakurta)")
    assert all(int(r[gdp].split()[0]) == int(r[-1]) for r in g_rows)
    assert len(best) == 4 and all(0 < v <= 1 for v in best.values()) and "%" in note


def test_cli_runs_the_lifted_filter(capsys, monkeypatch):
    import io
    import sys

    from dpbounds.cli import main
    monkeypatch.setattr(sys, "stdin", io.StringIO("eps,delta\n0.01,1e-10\n0.01,4e-8\n0.01,1e-8\n"))
    rc = main(["filter", "kov15.lift", "--budget", "eps_g=1", "--budget", "delta_g=1e-6", "--budget",
               "delta_dprime=5e-8", "--budget", "base=fz21.thm4_3.rr", "--budget", "alpha=22"])
    out = capsys.readouterr().out.splitlines()
    assert rc == 0 and [line.split("\t")[1] for line in out] == ["CONT", "CONT", "HALT"]


def test_lift_over_the_zcdp_filter_builds_its_budget_at_delta_prime():
    f = make_filter("kov15.lift", eps_g="1", delta_g="1e-6", delta_dprime="5e-8", base="fz21.thm4_7")
    assert f.base.budget["delta_g"] == Fraction(95, 10**8)
    n = _count(f, "0.01", "1e-10")
    assert n >= 480
    assert n == _count(make_filter("fz21.thm4_7", eps_g="1", delta_g=Fraction(95, 10**8)), "0.01")
