"""Laws every registry entry obeys: declared symbols, satisfiable domain, evaluable, traceable."""

from __future__ import annotations

import math

import pytest
import sympy as sp

from dpbounds import spec
from dpbounds.spec.core import FAMILIES, SEEDS, Kind, sym

ENTRIES = list(spec.registry().values())
IDS = [e.id for e in ENTRIES]


def _bound_symbols(expr: sp.Basic) -> set[str]:
    """Names bound inside the expression (Sum indices)."""
    out = set()
    for node in sp.preorder_traversal(expr):
        if isinstance(node, sp.Sum):
            out |= {lim[0].name for lim in node.limits}
    return out


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_free_symbols_are_declared(entry):
    declared = set(entry.params) | set(entry.aggregates)
    if entry.optimize is not None:
        declared.add(entry.optimize.var)
    for name, e in entry.all_exprs().items():
        free = {s.name for s in e.free_symbols} - _bound_symbols(e)
        assert free <= declared, f"{entry.id}.{name}: undeclared symbols {free - declared}"
    for rel in entry.domain:
        assert {s.name for s in rel.free_symbols} <= declared, f"{entry.id}: domain uses undeclared symbols"


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_domain_is_satisfiable_at_sample_point(entry):
    pt = entry.sample_point()
    params = {k: v for k, v in pt.items() if k in entry.params or k in entry.text_params}
    vals = entry.check_values(params)  # raises DomainError if the sample point is outside the domain
    assert set(vals) == (set(entry.params) | set(entry.text_params)) - ({entry.optimize.var} if entry.optimize
                                                                         else set())


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
@pytest.mark.tier("properties")
def test_expression_evaluates_to_real_or_infinity(entry):
    pt = entry.sample_point()
    subs = {sym(k): sp.Rational(spec.parse_exact(k, v)) for k, v in pt.items() if k not in entry.text_params}
    if entry.kind is Kind.AGGREGATE:
        subs = {sym(k): sp.Rational(spec.parse_exact(k, v)) for k, v in {"eps": "0.1", "delta": "0", "rho": "0.1"}.items()}
    if entry.evaluator:  # no closed form: its certified evaluator, coarsely
        from dpbounds.evaluation.evaluate import enclose
        enc = enclose(entry.id, {k: v for k, v in pt.items() if k in entry.params or k in entry.text_params},
                      rel_tol=0.05)
        assert enc.lo is not None and enc.hi is not None and 0 <= enc.lo <= enc.hi < math.inf, entry.id
        return
    val = entry.expr.xreplace(subs).doit().evalf(30)
    assert val.is_real or val in (sp.oo,), f"{entry.id}: {val}"
    if val is not sp.oo:
        assert math.isfinite(float(val))


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_entry_is_traceable(entry):
    # the id names its source (the paper key in lower case) or one of the families of results
    assert entry.id.split(".")[0] in {entry.source.paper.lower(), *FAMILIES}, entry.id
    assert entry.source.where, entry.id
    if entry.source.seed:
        assert entry.source.seed in SEEDS.values(), entry.id
    else:
        assert entry.source.citation, f"{entry.id}: a literature result must carry a full citation"
    if entry.kind is Kind.FILTER:
        assert entry.halt is not None, f"{entry.id}: a filter needs its HALT condition"


@pytest.mark.parametrize("entry", [e for e in ENTRIES if e.reconstructed], ids=[e.id for e in ENTRIES if e.reconstructed])
def test_reconstructed_entries_name_their_proof_check(entry):
    assert entry.proof_claims, f"{entry.id} is [R] and must name the proofs_check claim that re-derives it"


def test_unknown_id_raises_domain_error():
    with pytest.raises(spec.DomainError) as ei:
        spec.get("rruv16.no_such_theorem")
    assert "rruv16.no_such_theorem" in str(ei.value)


def test_out_of_domain_delta_names_parameter_value_domain_and_theorem():
    with pytest.raises(spec.DomainError) as ei:
        spec.get("rruv16.thm5_1").check_values({"eps_g": "1", "delta_g": "0.5"})
    msg = str(ei.value)
    assert "delta_g=0.5" in msg and "exp(-1)" in msg and "Theorem 5.1" in msg


@pytest.mark.parametrize("bad", ["nan", "inf", "-inf", "__import__('os').system('true')", "1e", "", "0x10", "1/0"])
def test_malformed_numbers_are_rejected(bad):
    with pytest.raises(spec.DomainError):
        spec.parse_exact("eps_g", bad)


def test_spec_md_is_current():
    from pathlib import Path

    from dpbounds.spec.render import render_markdown
    path = Path(spec.__file__).parent / "SPEC.md"
    assert path.exists(), "run `dpbounds spec --format md --out spec/SPEC.md`"
    assert path.read_text() == render_markdown(), "spec/SPEC.md is stale: run `dpbounds spec --format md --out spec/SPEC.md`"
