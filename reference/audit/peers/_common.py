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
# (DP-SGD searched at q >= 1e-4, the range where the certified PLD bracket of composition.sgm.eps certifies in
# seconds -- issue 27's targets; below it the grid step <= q needs grids beyond 2e5 points and the bracket refuses,
# so a search there would spend minutes on points it then skips; smaller q stay in the explicit examples)
SGM_EPS = {"q": (1e-4, 1.0), "sigma": (0.5, 50.0), "k": (1, 10000), "delta": (1e-12, 0.1)}
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
