"""Shared helpers for the peer declarations (dpbounds side; never imported by a ``*_calls.py``)."""

from __future__ import annotations

from typing import Any

from ._contract import Declaration

# the contract's reference ids (issue 27) and this package's own high-precision references (``_refs``)
CONTRACT_IDS = (
    "mechanisms.sgm.rdp", "mechanisms.laplace.rdp", "mechanisms.laplace.delta", "conversions.rdp.mironov",
    "conversions.rdp.cks20", "conversions.rdp.optimal", "tradeoff.gdp", "tradeoff.dp", "tradeoff.rdp",
    "tradeoff.zcdp", "composition.sgm.delta", "composition.sgm.eps",
)

# the documented domains used by several peers
# DP-SGD (composition.sgm.eps|delta) is searched over a modest set of (q, sigma, k) -- the 36 combinations of
# SGM_POOL, 18 of them q < 1 and k > 1, where the PLD bracket is needed -- with delta (eps_g) over its whole range at
# each.  Why this keeps the search honest: an accountant composes one (q, sigma, k) and reads every delta and eps off
# the result, as its users do, and its answers at one (q, sigma, k) depend on delta (eps) through the code under test
# (the conversion, the discretization, the tails, the search for the optimal order), which the search covers; the pool
# spans the regimes of training runs (sampling rates from 1e-3 to 1, noise 1.2 to 5, one step to 1000) but not eps in
# the hundreds (sigma 0.5-0.8 with q >= 0.05 and 1000 steps: Opacus' RDP takes 7 s a call there).  Why a pool: one
# certified PLD bracket per (q, sigma, k) and grid step answers every delta and eps there
# (dpbounds.evaluation.sgm_quick keeps them), so the search judges many examples per bracket instead of computing one
# per example.  Other (q, sigma, k) -- the explicit examples, which need not be pool points, and every recorded
# witness -- are judged first.
SGM_POOL = {"q": [0.001, 0.01, 0.05, 1.0], "sigma": [1.2, 2.0, 5.0], "k": [1, 20, 1000]}
SGM_EPS = {**SGM_POOL, "delta": (1e-12, 0.1)}
SGM_DELTA = {**SGM_POOL, "eps_g": (0.0, 10.0)}
SGM_Q1 = {"q": [1.0], "sigma": (0.5, 50.0), "k": (1, 1000), "delta": (1e-12, 0.1)}
FPR = (1e-9, 1.0 - 1e-9)


def decl(peer: str, function: str, call: str, reference: Any, inputs: dict[str, Any], *, claim: str = "upper",
         examples: tuple[dict[str, Any], ...] = (), cites: str = "", against: str = "truth", **kw: Any) -> Declaration:
    """One Declaration (the keyword names are the contract's)."""
    return Declaration(peer=peer, function=function, call=call, reference=reference, inputs=inputs, claim=claim,
                       examples=tuple(examples), cites=cites, against=against, **kw)

# explicit (q, sigma, k, delta) examples where the composition.sgm.eps reference is cheap: q = 1 (the closed form
# of sqrt(k)/sigma-GDP, DRS22 Cor. 2.13) at any k, and q < 1 at k = 1 (under a second each; at k = 10 narrowing
# the PLD bracket to a peer value within 1e-8 of the truth takes tens of seconds per point)
Q1_EPS_EXAMPLES = (
    {"q": 1.0, "sigma": 0.5, "k": 1, "delta": 1e-5}, {"q": 1.0, "sigma": 1.0, "k": 1, "delta": 1e-5},
    {"q": 1.0, "sigma": 2.0, "k": 10, "delta": 1e-6}, {"q": 1.0, "sigma": 1.0, "k": 100, "delta": 1e-5},
    {"q": 1.0, "sigma": 5.0, "k": 1000, "delta": 1e-8}, {"q": 1.0, "sigma": 0.8, "k": 50, "delta": 1e-10},
)
K1_EPS_EXAMPLES = (
    {"q": 0.5, "sigma": 1.5, "k": 1, "delta": 1e-5}, {"q": 0.2, "sigma": 0.8, "k": 1, "delta": 1e-7},
    {"q": 0.05, "sigma": 2.0, "k": 1, "delta": 1e-6},
)
