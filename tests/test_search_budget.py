"""The search's budget: examples, not seconds, decide what is drawn and judged.

* a search ends once its budget is judged (hypothesis draws no further point), and judges the same points as a
  search that went on drawing;
* a :class:`~dpbounds.testing.Grid` input is drawn from its grid values, except in a seeded minority of points where
  every Grid input is drawn from its continuous span at once;
* the audit's budget follows what judging an example costs (its cost class), at most a declaration's own rate, or a
  fixed number of examples (``SearchOptions.examples``).
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, seed, settings
from hypothesis import strategies as st

from dpbounds.audit.engine import RATES, SearchOptions, cost_class
from dpbounds.spec import DomainError
from dpbounds.testing import Declaration, Grid
from dpbounds.testing.engine import Outcome, search
from dpbounds.testing.strategies import points


def _draws(strategy, n, s=0):
    """The first n draws of ``strategy`` at seed s, by the seed alone (as the searches draw: whatever local modules
    the test process imported before, see testing.strategies.isolated_generation)."""
    from dpbounds.testing.strategies import isolated_generation
    out = []

    @seed(s)
    @settings(max_examples=n, database=None)
    @given(strategy)
    def run(x):
        out.append(x)
    with isolated_generation():
        run()
    return out


def test_grid_points_leave_the_grid_together_in_a_minority():
    g = {"q": Grid([0.001, 0.01, 0.05], (1e-4, 1.0)), "k": Grid([1, 20, 1000], (1, 100_000)),
         "delta": (1e-12, 0.1)}
    xs = _draws(points(g), 400)
    on_q = [x["q"] in (0.001, 0.01, 0.05) for x in xs]
    on_k = [x["k"] in (1, 20, 1000) for x in xs]
    off = [x for x, a, b in zip(xs, on_q, on_k) if not (a and b)]
    # a minority (one in eight, as drawn), and not none: the grid's span is reached
    assert 0 < len(off) < len(xs) / 4
    assert any(x["q"] not in (0.001, 0.01, 0.05) for x in off) and any(x["k"] > 1000 for x in off)
    # every point is inside the span; ints stay ints
    assert all(1e-4 <= x["q"] <= 1.0 and 1 <= x["k"] <= 100_000 and isinstance(x["k"], int) for x in xs)
    # the same seed draws the same points
    assert _draws(points(g), 400) == xs


def test_grid_is_a_list_of_its_values_and_checks_its_span():
    g = Grid([1.2, 2.0], (0.5, 10.0))
    assert g == [1.2, 2.0] and list(g) == [1.2, 2.0] and g.span == (0.5, 10.0) and "span" in repr(g)
    for bad in (dict(span=(2.0, 1.0)), dict(span=(1.0,)), dict(span=(0.5, 10.0), share=0.0),
                dict(span=(0.5, 10.0), share=1.0)):
        with pytest.raises(ValueError):
            Grid([1.0], **bad)


def test_a_search_stops_drawing_once_its_budget_is_judged():
    # a strategy that counts its draws: with a budget of 15 the run ends at the 15th judged point, where it used to
    # draw on to its chunk of 100 examples and its target phase (milliseconds of hypothesis' own per draw)
    drawn = []
    strategy = st.floats(0.0, 1.0).map(lambda x: drawn.append(x) or {"x": x})

    def evaluate(p):
        return Outcome("conservative", 1.0 + p["x"], peer_value=p["x"])
    st_ = search(strategy, evaluate, seconds=600, seed=3, max_examples=15)
    assert st_.tried == 15 and st_.stopped == "examples"
    assert len(drawn) <= 15 + 5, len(drawn)  # (a few replays of points hypothesis drew twice)


def test_the_points_judged_do_not_depend_on_the_stop():
    # the same seed and budget judge the same points in the same order (twice here; the stop ends only draws that
    # would not have been judged)
    def run():
        seen = []

        def evaluate(p):
            seen.append(p["x"])
            return Outcome("conservative", 1.0, peer_value=1.0)
        search(points({"x": (1e-6, 1.0)}), evaluate, seconds=600, seed=5, max_examples=40)
        return seen
    a = run()
    assert len(a) == 40 and a == run()


def test_a_found_witness_is_still_shrunk_after_the_budget():
    # an under-report found at the last judged point is shrunk (the stop waits for the shrinking)
    def evaluate(p):
        bad = p["x"] > 0.5
        return Outcome("unsound" if bad else "conservative", -1.0 if bad else 1.0, peer_value=p["x"])
    st_ = search(points({"x": (0.0, 1.0)}), evaluate, seconds=600, seed=1, max_examples=30)
    assert st_.witness is not None and st_.witness_outcome.verdict == "unsound"
    assert 0.5 < st_.witness["x"] <= 1.0


def _decl(ref="composition.sgm.eps", rate=None):
    return Declaration(peer="p", function="f", call="m:f", reference=ref, inputs={"q": [0.01], "sigma": [1.0],
                                                                                  "k": [10], "delta": (1e-9, 0.1)},
                       rate=rate)


def test_the_budget_follows_the_cost_of_an_example():
    assert cost_class(_decl()) == cost_class(_decl("composition.sgm.delta")) == "sgm"
    assert cost_class(_decl("conversions.cks20")) == "closed"
    o = SearchOptions(seconds=60)
    assert o.examples_for("sgm") == 60 * RATES["sgm"] >= 600  # at least 10 examples a second
    assert o.examples_for("opaque") == int(60 * RATES["opaque"])
    # a declaration's own rate lowers it, never raises it
    assert o.examples_for("sgm", 1.5) == 90 and o.examples_for("sgm", 1e6) == 60 * RATES["sgm"]
    # a fixed budget in examples, whatever the cost (the seconds are then only the cap)
    assert SearchOptions(seconds=600, examples=80).examples_for("opaque") == 80


@pytest.mark.parametrize("bad", [0, -1.0, math.inf, math.nan, True, "2"])
def test_a_declaration_rate_is_a_positive_number(bad):
    with pytest.raises(DomainError):
        _decl(rate=bad)


def test_a_small_domain_is_judged_whole_and_then_exhausted():
    # five points and a budget of fifty: each judged once, then the search says its domain is exhausted (hypothesis
    # gives nothing new), not that its budget was judged
    seen = []

    def evaluate(p):
        seen.append(p["x"])
        return Outcome("conservative", 1.0, peer_value=1.0)
    st_ = search(points({"x": [0.1, 0.2, 0.3, 0.4, 0.5]}), evaluate, seconds=600, seed=2, max_examples=50)
    assert sorted(seen) == [0.1, 0.2, 0.3, 0.4, 0.5] and st_.tried == 5 and st_.stopped == "exhausted"
