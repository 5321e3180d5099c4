"""Monotonicity laws declared in the spec (``SpecEntry.monotone``), checked with certified enclosures.

For every entry and every declared direction (+1 non-decreasing, -1 non-increasing in that parameter or
aggregate), the certified value at a larger input is not below (resp. above) the value at the smaller input.
A law is only asserted when the two enclosures are disjoint or ordered; ties within the enclosure width pass.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dpbounds import spec
from dpbounds.evaluation import evaluate as ev
from dpbounds.evaluation.interp import NotCertified
from dpbounds.spec.core import CANONICAL, Kind

from .strategies import entry_points

CASES = [(e, name, d) for e in spec.registry().values() if e.kind is not Kind.AGGREGATE and not e.expr.is_Boolean
         and not e.evaluator  # opaque evaluators: their own tests (tests/test_composition_sgm.py)
         for name, d in sorted(e.monotone.items()) if d in (1, -1)]


def _enc(entry, pt):
    params = {k: v for k, v in pt.items() if k in entry.params}
    aggs = {k: v for k, v in pt.items() if k in entry.aggregates}
    return ev.enclose(entry.id, params, aggregates=aggs, rel_tol=1e-12)


@pytest.mark.parametrize("entry,name,direction", CASES, ids=[f"{e.id}:{n}" for e, n, _ in CASES])
@settings(max_examples=10)
@given(data=st.data(), factor=st.floats(1.0001, 100.0))
@pytest.mark.tier("properties")
def test_monotone_in_declared_direction(entry, name, direction, data, factor):
    pt = data.draw(entry_points(entry))
    pt = {k: Fraction(v) for k, v in pt.items()}
    pt2 = dict(pt)
    if CANONICAL.get(name, ({}, ""))[0].get("integer"):
        pt2[name] = pt[name] + max(1, int(pt[name] * Fraction(factor - 1)))
    else:
        pt2[name] = pt[name] * Fraction(factor) if pt[name] != 0 else Fraction(factor) - 1
    try:
        a, b = _enc(entry, pt), _enc(entry, pt2)
    except (spec.DomainError, ev.CertificationError, NotCertified):
        assume(False)
        return
    if direction > 0:
        assert b.pos_inf or (not a.pos_inf and b.hi >= a.lo), (entry.id, name, pt, pt2)
    else:
        assert a.pos_inf or (not b.pos_inf and a.hi >= b.lo), (entry.id, name, pt, pt2)
