"""Batched draws: a domain whose :class:`~dpbounds.testing.Grid` inputs have ``batch`` above 1 is drawn as batches of
points sharing those inputs (DP-SGD: one (q, sigma, k) composition, several deltas), judged point by point.

* a draw is a :class:`~dpbounds.testing.domains.Batch` of ``batch`` points sharing the Grid inputs (on the grid or
  off it together), the other inputs drawn per point; the same seed draws the same batches;
* a search over them judges its budget in examples (a batch is cut at the budget), counts the distinct shared values
  (``groups``), and an accountant that keeps its composition per shared value composes once per batch -- so N
  examples cost about N / batch compositions, where one-point draws cost about one per example;
* the first draw of each hypothesis run (its simplest: every point of the batch the same) does not end the search as
  "exhausted" (staleness is counted per draw);
* a witness found inside a batch is the failing point itself, shrunk.
"""

from __future__ import annotations

import pytest
from dpbounds.testing import Grid, check_conversion
from dpbounds.testing.domains import Batch
from dpbounds.testing.engine import Outcome, search
from dpbounds.testing.strategies import points
from tests.test_search_budget import _draws

B = 8
DOMAIN = {"q": Grid([0.001, 0.01, 0.05], (1e-4, 1.0), batch=B), "k": Grid([1, 20, 1000], (1, 100_000), batch=B),
          "delta": (1e-12, 0.1)}


def test_a_draw_is_a_batch_of_points_sharing_the_grid_inputs():
    xs = _draws(points(DOMAIN), 200)
    assert all(isinstance(b, Batch) and len(b) == B for b in xs)
    for b in xs:
        assert len({(p["q"], p["k"]) for p in b}) == 1      # one (q, k) per batch
        assert all(list(p) == ["q", "k", "delta"] for p in b)  # the inputs' order, as one-point draws give it
    # deltas vary inside a batch (beyond the first, simplest draw)
    assert sum(len({p["delta"] for p in b}) > 1 for b in xs) > len(xs) / 2
    # off the grid together, in a minority of the batches
    off = [b for b in xs if b[0]["q"] not in (0.001, 0.01, 0.05) or b[0]["k"] not in (1, 20, 1000)]
    assert 0 < len(off) < len(xs) / 4
    assert _draws(points(DOMAIN), 200) == xs


def test_batch_one_draws_points_as_before():
    g = {"q": Grid([0.001, 0.01], (1e-4, 1.0)), "delta": (1e-12, 0.1)}
    xs = _draws(points(g), 50)
    assert all(type(x) is dict for x in xs)


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2"])
def test_a_grid_batch_is_a_positive_integer(bad):
    with pytest.raises(ValueError):
        Grid([1.0], (0.5, 2.0), batch=bad)


class _Keeper:
    """A fake slow accountant: composing a (q, k) is what costs; it keeps its last composition (as the DP-SGD
    wrappers do) and reads delta off it."""

    def __init__(self):
        self.compositions = 0
        self.last = None

    def __call__(self, q, k, delta):
        if self.last != (q, k):
            self.compositions += 1
            self.last = (q, k)
        return 1.0 + delta


def _run(domain, budget, s=0):
    acc = _Keeper()
    seen = []

    def evaluate(p):
        seen.append(dict(p))
        return Outcome("conservative", acc(**p), peer_value=1.0)
    st = search(points(domain), evaluate, seconds=600, seed=s, max_examples=budget, shared=("q", "k"))
    return st, acc, seen


def test_batched_draws_reach_the_budget_with_one_composition_per_batch():
    st, acc, seen = _run(DOMAIN, 160)
    assert st.tried == 160 and st.stopped == "examples"
    heads = {(p["q"], p["k"]) for p in seen}
    assert st.groups == len(heads) <= acc.compositions
    # one composition per batch at most (its points are judged in a row): 160 examples, at most 160 / 8 + a few
    # (a batch whose repeated points hypothesis drew twice)
    assert acc.compositions <= 160 // B + 6, acc.compositions
    # one-point draws of the same domain compose about once per example
    one = {k: (Grid(list(v), v.span) if isinstance(v, Grid) else v) for k, v in DOMAIN.items()}
    st1, acc1, _ = _run(one, 160)
    assert st1.tried == 160 and acc1.compositions > 4 * acc.compositions


def test_the_same_seed_judges_the_same_points_in_batches():
    a = _run(DOMAIN, 120, s=3)[2]
    b = _run(DOMAIN, 120, s=3)[2]
    assert len(a) == 120 and a == b
    assert _run(DOMAIN, 120, s=4)[2] != a


def test_a_witness_inside_a_batch_is_the_failing_point_shrunk():
    def evaluate(p):
        bad = p["delta"] > 0.05
        return Outcome("unsound" if bad else "conservative", -1.0 if bad else 1.0, peer_value=p["delta"])
    st = search(points(DOMAIN), evaluate, seconds=600, seed=1, max_examples=200, shared=("q", "k"))
    assert st.witness_outcome is not None and st.witness_outcome.verdict == "unsound"
    assert isinstance(st.witness, dict) and 0.05 < st.witness["delta"] <= 0.1


def test_check_conversion_reports_the_compositions_it_judged():
    acc = _Keeper()

    def fn(q, k, delta):
        return acc(q, k, delta)

    def reference(q, k, delta):
        from fractions import Fraction

        from dpbounds.evaluation.enclosure import Enclosure
        return Enclosure(Fraction(1), Fraction(1), 53)
    r = check_conversion(fn, reference, inputs=DOMAIN, seconds=600, seed=0, max_examples=64)
    assert r.examples == 64 and 0 < r.groups <= acc.compositions <= 64 // B + 6
    assert r.as_json()["groups"] == r.groups


@pytest.mark.parametrize("point", [{"q": 0.05, "sigma": 2.0, "k": 20, "delta": 1e-6},
                                   {"q": 0.01, "sigma": 2.0, "k": 20, "delta": 3e-9}])
@pytest.mark.parametrize("above", [1e-4, 3e-3, 0.03])
def test_the_searchs_quick_enclosure_of_a_conservative_eps_is_certified_and_judges_the_same(point, above):
    # the search's verdict reads a conservative eps off a cheaper enclosure (sgm_quick.narrowed(ends=False)): it
    # must hold the truth (meet the full enclosure, which sgm_pld's proofs certify), lie below the peer's value, and
    # give the same verdict and nearly the same margin as the full one
    from fractions import Fraction

    from dpbounds.evaluation import sgm_quick
    from dpbounds.testing.oracle import Oracle
    coarse = sgm_quick.narrowed("composition.sgm.eps", point, None)
    tight = sgm_quick.narrowed("composition.sgm.eps", point, float((coarse.lo + coarse.hi) / 2))
    peer = float(tight.hi) * (1 + above)
    assert peer < sgm_quick.interval("composition.sgm.eps", point)[1]  # (the bracket decides it, not the interval)
    full = sgm_quick.narrowed("composition.sgm.eps", point, peer)
    quick = sgm_quick.narrowed("composition.sgm.eps", point, peer, ends=False)
    assert quick.lo <= full.hi and full.lo <= quick.hi        # both hold the truth: they meet
    assert quick.lo <= quick.hi < Fraction(peer)
    o = Oracle("composition.sgm.eps")
    v = o.verdict(point, peer)
    enc, j = o.certified(point, peer)
    assert v.verdict == j.verdict == "conservative"
    assert enc.lo == full.lo and enc.hi == full.hi           # a result's enclosure is the full one
    m_full = (peer - float(full.lo)) / float(full.lo)
    assert m_full <= v.margin <= 2 * m_full + 0.02, (v.margin, m_full)


def test_only_the_peers_that_keep_a_composition_are_searched_in_batches():
    # a batch of one (q, sigma, k) costs one composition only where the calls keep it; an accountant composing on
    # every call is searched one point per draw (more (q, sigma, k) per budget)
    import importlib

    kept = {"dp_accounting": {"pld_epsilon", "pld_delta", "rdp_epsilon", "rdp_delta", "rdp_delta_and_order",
                              "rdp_epsilon_and_order"},
            "prv_accountant": {"delta_upper", "rdp_accountant_epsilon"},
            "riskcal": {"ctd_epsilon", "dpsgd_epsilon_evaluator"},
            "pld_accounting": {"epsilon_configurable", "epsilon_from_pld", "delta_configurable", "general_epsilon",
                               "general_delta", "general_pld_epsilon", "subsampled_gaussian_epsilon"}}
    per_call = {"prv_accountant": {"epsilon_upper", "dpsgd_epsilon_upper", "legacy_epsilon_upper"},
                "autodp": {"epsilon"}, "fourier_accountant": {"epsilon_R", "delta_R"}, "opacus": {"prv_epsilon"}}

    def batch(peer, fn):
        mod = importlib.import_module(f"dpbounds.audit.peers.{peer}")
        (d,) = [d for d in mod.declarations() if str(d.call).endswith(f".calls:{fn}") and
                d.reference in ("composition.sgm.eps", "composition.sgm.delta")]
        return max((v.batch for v in d.inputs.values() if isinstance(v, Grid)), default=1)
    assert all(batch(p, f) == 16 for p, fs in kept.items() for f in fs)
    assert all(batch(p, f) == 1 for p, fs in per_call.items() for f in fs)


def test_a_laws_check_of_a_batched_domain_draws_single_points():
    # the laws compare single points (a value at x, its neighbour in one input): a Grid's batch does not apply
    from dpbounds.testing import check_laws
    xs = _draws(points(DOMAIN, batched=False), 30)
    assert all(type(x) is dict for x in xs)

    def fn(q, k, delta):
        return q * k / delta
    r = check_laws(fn, inputs=DOMAIN, laws=["nonnegative", "nondecreasing:q", "nonincreasing:delta"], seconds=60,
                   max_examples=40)
    assert r.verdict == "consistent" and r.examples > 0, r
