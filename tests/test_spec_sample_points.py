"""Every registry entry, whatever its paper: each expression is a real number or +inf at the entry's sample point
(after its own domain check), and each halt rule is a truth value there."""

from __future__ import annotations

import pytest
import sympy as sp

from dpbounds import spec
from dpbounds.spec.core import sym


@pytest.mark.filterwarnings("ignore::dpbounds.spec.RefutedConstantWarning")
@pytest.mark.parametrize("entry_id", sorted(spec.registry()))
@pytest.mark.tier("properties")
def test_every_expression_is_finite_real_or_plus_infinity_at_the_sample_point(entry_id):
    e = spec.get(entry_id)
    if e.evaluator:
        pytest.skip("no closed form: evaluated by its certified evaluator (tests/test_registry.py)")
    pt = e.sample_point()
    e.check_values({k: v for k, v in pt.items() if k in e.params})
    subs = {sym(k): sp.Rational(spec.parse_exact(k, v)) for k, v in pt.items()}
    for name, ex in e.all_exprs().items():
        if name == "halt":
            assert ex.xreplace(subs) in (sp.true, sp.false), (entry_id, name)
            continue
        v = ex.xreplace(subs).doit().evalf(30)
        assert v == sp.oo or (v.is_real and v.is_finite), (entry_id, name, v)
