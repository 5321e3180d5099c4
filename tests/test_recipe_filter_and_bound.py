"""The recipes "Add a bound" and "Add a filter" of docs/CONTRIBUTING.md, followed once each with a throwaway module
in a temporary directory: the bound is picked up by the spec registry (and obeys the laws tests/test_registry.py
checks for every entry), the filter by make_filter, the batched-decision tests' table and the benchmark.

Each runs in a fresh interpreter, so the throwaway entries never reach the registries of the other tests.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# A bound, written as the recipe says: one SpecEntry in the source's spec module (here a throwaway module).  The
# value is advanced composition's eps term for k rounds of eps: sqrt(2 k log(1/delta)) eps + k eps (e^eps - 1).
BOUND = '''
import sympy as sp
from dpbounds.spec.core import Kind, Source, SpecEntry, register, sym

eps, k, delta = sym("eps"), sym("k"), sym("delta")
register(SpecEntry(
    id="rruv16.recipe_throwaway", title="k-fold advanced composition, eps term (throwaway entry of the recipe test)",
    kind=Kind.CONVERSION, source=Source("RRUV16", "Theorem 3.5 (throwaway copy for the recipe test)"),
    params=("eps", "k", "delta"), expr=sp.sqrt(2 * k * sp.log(1 / delta)) * eps + k * eps * (sp.exp(eps) - 1),
    domain=(eps > 0, k >= 1, delta > 0, delta < 1), monotone={}, example={"eps": "0.1", "k": "10", "delta": "1e-6"}))
'''

# A filter, written as the recipe says: its rule as a spec entry (basic composition with a margin: HALT iff
# sum eps_i > eps_g / 2) and one FilterSpec (no builder: the generic Filter states it).
FILTER = '''
from dpbounds.spec.core import Kind, Source, SpecEntry, register, sym
from dpbounds.accounting.registry import FilterSpec, register_filter

S, eps_g = sym("S"), sym("eps_g")
register(SpecEntry(
    id="rruv16.recipe_throwaway.filter", title="HALT iff sum eps_i > eps_g/2 (throwaway entry of the recipe test)",
    kind=Kind.FILTER, source=Source("RRUV16", "Theorem 3.4 (throwaway copy for the recipe test)"),
    params=("eps_g",), aggregates=("S",), expr=S, halt=S > eps_g / 2, domain=(eps_g > 0,), monotone={"S": +1}))
register_filter(FilterSpec("rruv16.recipe_throwaway.filter", "basic", "eps", test_budget={"eps_g": "1"},
                           bench_budget={"eps_g": "1e5"}))
'''


def _run(tmp_path: Path, module: str, source: str, script: str) -> dict:
    (tmp_path / f"{module}.py").write_text(textwrap.dedent(source))
    code = f"import sys; sys.path.insert(0, {str(tmp_path)!r}); sys.path.insert(0, {str(ROOT)!r})\n" + \
        textwrap.dedent(script)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_a_bound_added_by_the_recipe_is_in_the_registry_and_obeys_its_laws(tmp_path):
    out = _run(tmp_path, "throwaway_bound", BOUND, '''
        import json, math
        import dpbounds
        from dpbounds import spec
        import throwaway_bound  # noqa: F401  (the recipe: the source's spec module registers the entry)
        from tests import test_registry as laws
        e = spec.get("rruv16.recipe_throwaway")
        for law in (laws.test_free_symbols_are_declared, laws.test_domain_is_satisfiable_at_sample_point,
                    laws.test_expression_evaluates_to_real_or_infinity, laws.test_entry_is_traceable):
            law(e)
        enc = dpbounds.enclose("rruv16.recipe_throwaway", {"eps": "0.1", "k": "10", "delta": "1e-6"}, rel_tol=1e-12)
        print(json.dumps({"listed": "rruv16.recipe_throwaway" in dpbounds.registry(), "lo": str(enc.lo),
                          "hi": str(enc.hi)}))
    ''')
    assert out["listed"]
    # independent value: mpmath at 50 digits of sqrt(2 k log(1/delta)) eps + k eps (e^eps - 1)
    import mpmath
    from fractions import Fraction
    with mpmath.workdps(50):
        v = mpmath.sqrt(2 * 10 * mpmath.log(10**6)) * mpmath.mpf("0.1") + 10 * mpmath.mpf("0.1") * mpmath.expm1(
            mpmath.mpf("0.1"))
        lo, hi = (mpmath.mpf(Fraction(out[k]).numerator) / Fraction(out[k]).denominator for k in ("lo", "hi"))
        assert lo <= v <= hi and hi - lo <= v * mpmath.mpf("1e-11")


def test_a_filter_added_by_the_recipe_is_built_tested_and_benchmarked(tmp_path):
    out = _run(tmp_path, "throwaway_filter", FILTER, '''
        import json
        from dpbounds.accounting.accountants import make_filter
        from dpbounds.accounting import batch
        import throwaway_filter  # noqa: F401  (the recipe: spec entry + FilterSpec)
        from tests import test_batch_decisions as tb
        f = make_filter("rruv16.recipe_throwaway.filter", eps_g="1")
        k = 0
        while f.try_spend("0.1"):
            k += 1
        rows = batch._bench_stream(True, ids=["rruv16.recipe_throwaway.filter"])
        print(json.dumps({"rounds": k, "in_test_table": "rruv16.recipe_throwaway.filter" in tb.FILTERS,
                          "bench": [(r["id"], r["rate"]) for r in rows]}))
    ''')
    assert out["rounds"] == 5  # 5 x 0.1 = eps_g/2 CONT (not >), the 6th round HALTs
    assert out["in_test_table"]
    assert [i for i, _ in out["bench"]] == ["rruv16.recipe_throwaway.filter"] * 2
    assert all(rate is not None and rate > 0 for _, rate in out["bench"])
