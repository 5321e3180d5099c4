"""The DP-SGD wrappers that keep a composition per (q, sigma, k) answer exactly what the peer's documented call
answers: at several deltas (eps) of one composition, read off the kept composition in a row, each value is the same
float as a fresh call's (in the peer's own interpreter, ``$DPBOUNDS_PEERS/<peer>/bin/python``, or this one where
the peer is installed here).  The wrappers that cannot keep one say why in their docstrings (a construction that
reads delta: PRV's delta_error = delta / 1000, the adaptive refinement's truncation) and are not listed.

prv_accountant's declared limit: a point whose PRV grid exceeds ``calls.MAX_GRID`` points raises its DomainLimit
(skipped and counted by the search, never judged), and the explicit examples are all inside it."""

from __future__ import annotations

import importlib.util
import os
import pathlib
import sys

import pytest

from dpbounds.testing.declarations import peer_calls

pytestmark = pytest.mark.tier("peers")

VENVS = pathlib.Path(os.environ.get("DPBOUNDS_PEERS", ".peers"))

#: (peer, the kept call, the fresh call, the target's values, the (q, sigma, k) of the compositions)
KEPT = [
    ("jax_privacy", "pld_epsilon", "pld_epsilon_fresh", [1e-12, 3.3e-7, 0.05], [(0.01, 1.2, 1000), (0.05, 2.0, 20)]),
    ("riskcal", "ctd_epsilon", "ctd_epsilon_fresh", [1e-12, 3.3e-7, 0.05], [(1.0, 2.0, 20), (1.0, 5.0, 200)]),
    ("riskcal", "dpsgd_epsilon_evaluator", "dpsgd_epsilon_evaluator_fresh", [1e-10, 3.3e-7, 0.05],
     [(0.05, 1.2, 20), (1.0, 2.0, 100)]),
    ("prv_accountant", "delta_upper", "delta_upper_fresh", [0.0, 0.7, 3.0], [(0.01, 1.2, 1000), (1.0, 1.0, 10)]),
    ("pld_accounting", "epsilon_configurable", "epsilon_configurable_fresh", [1e-12, 3e-7, 0.05],
     [(1.0, 1.2, 20), (1.0, 5.0, 100)]),
    ("pld_accounting", "delta_configurable", "delta_configurable_fresh", [0.5, 2.0, 7.0], [(1.0, 1.2, 20)]),
    ("pld_accounting", "general_epsilon", "general_epsilon_fresh", [1e-12, 3e-7, 0.05], [(1.0, 1.2, 20)]),
    ("pld_accounting", "general_delta", "general_delta_fresh", [0.5, 2.0, 7.0], [(1.0, 5.0, 100)]),
]


def _python(peer: str) -> str | None:
    mod = {"pld_accounting": "PLD_accounting"}.get(peer, peer)
    if importlib.util.find_spec(mod) is not None:
        return sys.executable
    py = VENVS / peer / "bin" / "python"
    return str(py) if py.exists() else None


@pytest.mark.parametrize("peer,kept,fresh,values,points", KEPT,
                         ids=lambda v: v if isinstance(v, str) else None)
def test_a_kept_composition_answers_what_a_fresh_call_answers(peer, kept, fresh, values, points):
    py = _python(peer)
    if py is None:
        pytest.skip(f"{peer} is not installed here")
    target = "eps_g" if "delta" in kept else "delta"
    # kept: every value of one composition in a row (the second onwards read off the kept one), then the next
    calls = [(kept, [q, s, k, v]) for q, s, k in points for v in values]
    got = peer_calls(py, f"dpbounds.audit.peers.{peer}.calls", calls, strict=True)
    # fresh: each value in a process of its own (nothing kept)
    want = [peer_calls(py, f"dpbounds.audit.peers.{peer}.calls", [(fresh, args)], strict=True)[0]
            for _, args in calls]
    assert got == want, (peer, kept, target, list(zip(calls, got, want)))


def test_dp_accountings_kept_accountant_is_the_composed_one():
    # dp_accounting's PLD wrappers keep PLDAccountant().compose(event, k) per (q, sigma, k) (functools.lru_cache):
    # get_epsilon at several deltas in a row equals a fresh accountant's
    py = _python("dp_accounting")
    if py is None:
        pytest.skip("dp_accounting is not installed here")
    mod = "dpbounds.audit.peers.dp_accounting.calls"
    pts = [[0.01, 1.2, 1000, d] for d in (1e-12, 3.3e-7, 0.05)]
    got = peer_calls(py, mod, [("pld_epsilon", p) for p in pts], strict=True)
    want = [peer_calls(py, mod, [("pld_epsilon", p)], strict=True)[0] for p in pts]
    assert got == want


def test_prv_grid_limit_is_declared_and_the_examples_are_inside_it():
    py = _python("prv_accountant")
    if py is None:
        pytest.skip("prv_accountant is not installed here")
    mod = "dpbounds.audit.peers.prv_accountant.calls"
    (a,) = peer_calls(py, mod, [("delta_upper", [1.0, 2.0, 1000, 1.0])])
    assert a.get("where") == "limit" and "grid" in a["error"], a
    (b,) = peer_calls(py, mod, [("epsilon_upper", [1.0, 2.0, 1000, 1e-12])])
    assert b.get("where") == "limit", b
    import dpbounds.audit.peers.prv_accountant as P
    from dpbounds.audit.engine import effective_declarations
    calls = []
    for d in effective_declarations(P)[0]:
        fn = "" if d is None else str(d.call).rpartition(":")[2]
        if fn not in ("epsilon_upper", "delta_upper", "dpsgd_epsilon_upper", "legacy_epsilon_upper"):
            continue
        calls += [(fn, [e["q"], e["sigma"], e["k"], e.get("delta", e.get("eps_g"))]) for e in d.examples]
    out = peer_calls(py, mod, calls)
    assert calls and all("ok" in r for r in out), [(c, r) for c, r in zip(calls, out) if "ok" not in r]
