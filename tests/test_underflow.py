"""Filters never say CONT where exact arithmetic says HALT, underflow included (issue 20 item 1).

Every filter of the registry is run over fuzzed streams -- per-round values whose float64 value underflows (1e-400,
1e-320 as decimal strings; 1e-200 whose square underflows), eps = 0 rounds, floats and decimal strings mixed -- and
compared with an INDEPENDENT rule: the spec's aggregates summed exactly with sympy Rationals (polynomial terms) or
with mpmath at 100 digits (transcendental terms), and the spec's ``halt`` condition evaluated by sympy on exact
Rationals or by mpmath at 100 and 130 digits (a stream whose verdict differs between the two is discarded).  None of
the accountant's sums, fast paths or arb evaluators is used.  Near-tie streams put a threshold parameter within
1e-15 relative (or exactly at) the statistic of some round.
"""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from sympy.core.evalf import PrecisionExhausted
from hypothesis import Phase, assume, given, settings
from hypothesis import strategies as st

from dpbounds import spec
from dpbounds.accounting.accountants import Decision, Filter, make_filter
from dpbounds.accounting.individual import IndividualFilter
from dpbounds.accounting.registry import filter_specs
from dpbounds.spec.aggregates import AGGREGATES
from dpbounds.spec.core import Kind

#: the filters with their own per-round quantities (mu for the GDP filters, the randomized-response Renyi curve) or
#: slow budgets (R* of the optimal conversion) name the tests that cover them, underflow included
#: (FilterSpec.tested_by); every other filter of the filter registry is fuzzed here
OWN_ROUNDS = {fid for fid, fs in filter_specs().items() if fs.test_budget is None}
FILTER_IDS = sorted(e.id for e in spec.registry().values() if e.kind is Kind.FILTER and e.id not in OWN_ROUNDS)

#: budgets (the threshold parameter, if any, is overwritten by a near tie): the registry's test budget, with a second
#: Renyi order and an explicit B (<= B* where B is derived from B*) where those are exercised
BASE = {fid: dict(fs.test_budget) for fid, fs in filter_specs().items() if fs.test_budget is not None}
BASE.update({
    "fz21.thm3_1": {"alpha": "3/2", "B": "1"}, "fz21.remark4_4": {"B": "1"},
    "fz21.thm4_7": {"eps_g": "1", "delta_g": "1e-6", "B": "1e-3"},
    "wrrw23.thm1.cks20": {"eps_g": "1", "delta_prime": "1e-6", "delta_dprime": "1e-6", "B": "1e-3"},
})
#: tiny global budgets for the entries whose threshold is not a bare parameter (underflow regime)
TINY_EPS_G = ["1e-399", "1e-320", "1.66e-199", "1e-150", "1"]
#: B must stay certified (<= B* at eps_g = 1, delta = 1e-6, about 0.02)
B_CAP = {"fz21.thm4_7": Fraction(1, 100), "wrrw23.thm1.cks20": Fraction(1, 100)}

TINY = ["1e-400", "1e-320", "5e-324", "1e-200", "2.5e-162", "0"]
SMALL = ["1e-10", "0.001", "0.01", "0.1", "0"]
FLOATS = [1e-200, 5e-324, 1e-160, 0.0, 0.01, 2.0 ** -1074, 1e-310]


def _entry(fid):
    return spec.get(fid)


def _round_vars(entry) -> set[str]:
    names = set()
    for a in entry.aggregates:
        names |= {s.name for s in AGGREGATES[a].expr.free_symbols}
    return names


def _pure(entry) -> bool:
    return any({x.name for x in rel.free_symbols} == {"delta"} for rel in entry.per_round_domain) or \
        "delta" not in _round_vars(entry)


def _q(v) -> Fraction:
    return Fraction(v) if isinstance(v, float) else Fraction(v)


def _is_poly(a: str) -> bool:
    return AGGREGATES[a].expr.is_polynomial() and not AGGREGATES[a].expr.has(sp.Piecewise)


def _subs(expr, values: dict):
    """expr with its symbols replaced by name (the spec's symbols carry assumptions); Fractions become Rationals."""
    conv = {k: sp.Rational(v.numerator, v.denominator) if isinstance(v, Fraction) else v for k, v in values.items()}
    return expr.subs({s: conv[s.name] for s in expr.free_symbols if s.name in conv}, simultaneous=True)


def _term_exact(a: str, rnd: dict) -> sp.Rational:
    return _subs(AGGREGATES[a].expr, rnd)


def _term_mp(a: str, rnd: dict, dps: int):
    """The per-round term at dps digits straight from the spec's expression (sympy evalf; LIFT's Piecewise too)."""
    e = _subs(AGGREGATES[a].expr, rnd)
    if e is sp.oo or e == sp.oo:
        return mpmath.inf
    if e == 0:
        return mpmath.mpf(0)
    return mpmath.mpf(sp.Float(e.evalf(dps + 10), dps + 10)._mpf_)


class Undecided(Exception):
    """The reference could not decide a comparison (a tie beyond sympy's adaptive precision)."""


def _relations(entry):
    rels = list(entry.halt.args) if isinstance(entry.halt, sp.Or) else [entry.halt]
    assert all(isinstance(r, sp.StrictGreaterThan) for r in rels), entry.halt
    return rels


def _mp_sign(d) -> int:
    """The sign of a closed-form real d by plain mpmath at 1200 and 1600 digits (they must agree closely)."""
    fn = sp.lambdify([], d, modules="mpmath")
    vals = []
    for dps in (1200, 1600):
        with mpmath.workdps(dps):
            vals.append(fn())
    with mpmath.workdps(1600):
        a, b = vals
        if a == 0 or b == 0 or (a > 0) != (b > 0) or abs(a - b) > abs(a) / 1000:
            raise Undecided(str(d)[:80])
    return 1 if a > 0 else -1


def _halt_reference(entry, budget: dict, aggs_exact: dict, aggs_mp: dict) -> bool:
    """The spec's halt condition on the candidate aggregates, decided independently of the accountant: each
    `lhs > rhs` by the sign of lhs - rhs, exact for Rationals, else by sympy's adaptive evalf (strict: a difference it
    cannot resolve raises instead of returning noise; the threshold (sqrt(eps_g + L) - sqrt(L))^2 cancels badly)."""
    vals = {**budget, **aggs_exact,
            **{a: (sp.oo if v == mpmath.inf else sp.Float(v, 110)) for a, v in aggs_mp.items()}}
    for r in _relations(entry):
        d = _subs(r.lhs - r.rhs, vals)
        if d.is_infinite:
            if d is sp.oo or d == sp.oo:
                return True
            continue
        if d.is_Rational:
            if d > 0:
                return True
            continue
        try:
            v = d.evalf(30, strict=True, maxn=4000)
        except PrecisionExhausted:
            v = _mp_sign(d)
        if v > 0:
            return True
    return False


def _reference_decisions(entry, budget: dict, rounds: list[dict], dps: int) -> list[bool]:
    """HALT (True) / CONT (False) per round by the exact rule; everything after the first HALT is HALT."""
    exact = {a: sp.Integer(0) for a in entry.aggregates if _is_poly(a)}
    with mpmath.workdps(dps + 10):
        approx = {a: mpmath.mpf(0) for a in entry.aggregates if not _is_poly(a)}
    out = []
    for rnd in rounds:
        cand_e = {a: exact[a] + _term_exact(a, rnd) for a in exact}
        with mpmath.workdps(dps + 10):
            cand_m = {a: approx[a] + _term_mp(a, rnd, dps) for a in approx}
        h = _halt_reference(entry, budget, cand_e, cand_m)
        out.append(h)
        if h:
            break
        exact, approx = cand_e, cand_m
    return out + [True] * (len(rounds) - len(out))


def _threshold_relations(entry):
    """(relation, parameter) pairs of the halt condition of the form `aggregate-only expression > parameter`."""
    rels = [entry.halt] if isinstance(entry.halt, sp.core.relational.Relational) else list(entry.halt.args)
    out = []
    for r in rels:
        if isinstance(r, sp.StrictGreaterThan) and isinstance(r.rhs, sp.Symbol) and r.rhs.name in entry.params \
                and {s.name for s in r.lhs.free_symbols} <= set(entry.aggregates):
            out.append((r, r.rhs.name))
    return out


def _make(fid: str, budget: dict):
    if fid in ("fz21.thm4_7", "wrrw23.thm1.cks20"):
        return make_filter(fid, **budget)
    return Filter(fid, budget)


value_str = st.sampled_from(TINY + SMALL)


@st.composite
def streams(draw, fid):
    entry = _entry(fid)
    need = _round_vars(entry)
    pure = _pure(entry)
    n = draw(st.integers(1, 25))
    tiny_regime = draw(st.booleans())
    pool = TINY if tiny_regime else TINY + SMALL
    rounds_in, rounds_q = [], []
    for _ in range(n):
        ri, rq = {}, {}
        for nm in sorted(need | {"delta"}):
            if nm == "delta" and (pure or "delta" not in need):
                continue
            if nm == "delta":
                v = draw(st.sampled_from(["0", "1e-400", "1e-320", "1e-12", "0"]))
            elif draw(st.integers(0, 3)) == 0:
                v = draw(st.sampled_from(FLOATS if not tiny_regime else FLOATS[:3] + [5e-324, 2.0 ** -1074]))
            else:
                v = draw(st.sampled_from(pool))
            ri[nm] = v
            rq[nm] = _q(v)
        rounds_in.append(ri)
        rounds_q.append(rq)
    budget = {k: Fraction(v) for k, v in BASE[fid].items()}
    rels = _threshold_relations(entry)
    if rels and draw(st.integers(0, 4)) > 0:  # a near tie (or an exact tie) at some round
        rel, param = draw(st.sampled_from(rels))
        k = draw(st.integers(1, n))
        cum = {a: sum((_term_exact(a, r) for r in rounds_q[:k]), sp.Integer(0)) for a in entry.aggregates
               if _is_poly(a)}
        if any(not _is_poly(a) for a in rel.lhs.free_symbols for a in [a.name]):
            with mpmath.workdps(60):
                mp = {a.name: sum((_term_mp(a.name, r, 60) for r in rounds_q[:k]), mpmath.mpf(0))
                      for a in rel.lhs.free_symbols if not _is_poly(a.name)}
                val = _subs(rel.lhs, {**cum, **{a: sp.Float(v, 60) if v != mpmath.inf else sp.oo
                                                for a, v in mp.items()}})
                if val.is_infinite:
                    assume(False)
                val = Fraction(str(sp.Float(val, 40)))
        else:
            val = _subs(rel.lhs, cum)
            val = Fraction(int(sp.fraction(val)[0]), int(sp.fraction(val)[1]))
        rel_off = draw(st.sampled_from([Fraction(0), Fraction(1, 10**15), -Fraction(1, 10**15), Fraction(1, 10**16),
                                        -Fraction(3, 10**17)]))
        t = val * (1 + rel_off)
        budget[param] = t
    elif "eps_g" in budget and not rels:
        budget["eps_g"] = Fraction(draw(st.sampled_from(TINY_EPS_G)))
    for p, cap in B_CAP.items():
        if fid == p and budget.get("B", 0) > cap:
            assume(False)
    if fid == "wrrw23.thm1.cks20" or fid == "fz21.thm4_7":
        pass
    dom_ok = all(v > 0 for k, v in budget.items() if k in ("eps_g", "B", "delta_prime", "delta_g")
                 and not (fid in ("wrrw23.thm1.cks20", "fz21.thm4_7") and k == "B")) and \
        all(v >= 0 for v in budget.values())
    assume(dom_ok)
    return rounds_in, rounds_q, budget


@pytest.mark.parametrize("fid", FILTER_IDS)
@settings(phases=[Phase.explicit, Phase.reuse, Phase.generate])  # shrinking sympy is slow
@given(data=st.data())
@pytest.mark.tier("slow")
def test_filter_never_cont_where_exact_rule_halts(fid, data):
    rounds_in, rounds_q, budget = data.draw(streams(fid))
    entry = _entry(fid)
    try:
        ref = _reference_decisions(entry, budget, rounds_q, 110)
    except Undecided:
        assume(False)
    f = _make(fid, budget)
    got = []
    for r in rounds_in:
        got.append(f.try_spend(r.get("eps"), r.get("delta", 0), r.get("rho")) is Decision.HALT)
    # soundness: HALT wherever the exact rule halts (an undecidable comparison may HALT earlier, never later)
    assert all(g for g, r in zip(got, ref) if r), (fid, budget, rounds_in, got, ref)


@pytest.mark.parametrize("fid,budget,value,n,halt_at", [
    ("rruv16.thm3_4.filter", {"eps_g": "1e-399"}, "1e-400", 20, 11),
    ("fz21.thm4_7.bs16", {"eps_g": "1.66e-199", "delta_g": "1e-6"}, 1e-200, 40, 10),
    ("fz21.remark4_4", {"B": "5e-400"}, 1e-200, 40, None),  # rho = eps^2/2 (BS16 Prop 1.4)
    ("fz21.thm4_7", {"eps_g": "1", "delta_g": "1e-6", "B": "5e-400"}, 1e-200, 40, None),
    ("wrrw23.thm1", {"B": "1e-399", "delta_g": "0"}, "1e-400", 40, 11),
])
def test_issue_reproducers_halt_where_exact_arithmetic_halts(fid, budget, value, n, halt_at):
    f = make_filter(fid, **budget)
    key = "rho" if fid == "wrrw23.thm1" else "eps"
    got = [f.try_spend(**{key: value, "delta": 0}) for _ in range(n)]
    if halt_at is None:  # HALT once k eps^2 / 2 > B, with eps the float's exact binary value
        e2 = Fraction(value) ** 2 / 2
        halt_at = next(k for k in range(1, n + 1) if k * e2 > Fraction(budget["B"]))
    first = next(i for i, d in enumerate(got, 1) if d is Decision.HALT)
    assert first == halt_at
    assert all(d is Decision.HALT for d in got[first - 1:])


def test_cli_filter_halts_at_round_11_on_underflowing_decimals():
    stream = "eps\n" + "1e-400\n" * 20
    r = subprocess.run([sys.executable, "-m", "dpbounds", "filter", "rruv16.thm3_4.filter", "--budget",
                        "eps_g=1e-399"], input=stream, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = [ln.split("\t") for ln in r.stdout.splitlines()]
    assert [ln[1] for ln in lines[:10]] == ["CONT"] * 10
    assert lines[10][:2] == ["11", "HALT"]


def test_individual_filter_counts_underflowing_costs():
    # exact: 11 rounds of rho = 1e-400 exceed B = 1e-399, so the individual must be inactive by round 11 (float64
    # bounds may drop it earlier, never later); a zero-cost individual stays active
    f = IndividualFilter(2, 2, "1e-399")
    active = [f.step(["1e-400", "0"]).tolist() for _ in range(12)]
    assert not active[10][0] and not active[11][0]
    assert all(a[1] for a in active)
    g = IndividualFilter(1, 2, "1e-300")
    assert not any(bool(g.step(np.array([Fraction(1, 10**400)], dtype=object))[0]) is False
                   for _ in range(3))  # far below B: stays active
