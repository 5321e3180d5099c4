"""Per-round Renyi costs of mechanisms for the Renyi filters: a DP-SGD step costs
``mechanisms.sgm.rdp`` at the filter's order, a Laplace release ``mechanisms.laplace.rdp``.

:func:`rdp_upper` is the charge: the certified enclosure's UPPER end (an exact dyadic rational, so the filter's sum
is never below the true spend); :func:`rdp_cost` the same as a callable alpha -> charge.  The filters call these
through their ``try_spend_mechanism`` / ``step_mechanism`` methods:

    f = make_filter("fz21.thm4_3", alpha=8, B="0.5")
    f.try_spend_mechanism("mechanisms.sgm.rdp", q="0.01", sigma="1.1")   # one DP-SGD step at f's order

Domain: the mechanism's spec entry (ids ``mechanisms.*.rdp``), with every parameter but ``alpha`` given.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any, Callable

from dpbounds import spec
from dpbounds.spec import DomainError, parse_exact
from dpbounds.spec.core import Exact
from dpbounds.evaluation.evaluate import enclose

#: the charge's relative width: the upper end is at most this far above the exact value
COST_REL_TOL = Fraction(1, 10**12)

_THEOREM = "dpbounds.accounting.mechanisms (a mechanism's RDP curve charged to a Renyi filter)"


def _check_mechanism(mechanism: Any) -> spec.SpecEntry:
    if not isinstance(mechanism, str) or not mechanism.startswith("mechanisms.") or not mechanism.endswith(".rdp"):
        raise DomainError("mechanism", mechanism, "the id of a mechanism's Renyi curve, one of "
                          f"{sorted(i for i in spec.registry() if i.startswith('mechanisms.') and i.endswith('.rdp'))}",
                          _THEOREM)
    return spec.get(mechanism)


@functools.lru_cache(maxsize=4096)  # a pure function of exact inputs: the same charge whatever the call order
def _upper(mechanism: str, alpha: Fraction, params: tuple[tuple[str, Fraction], ...]) -> Fraction:
    enc = enclose(mechanism, {"alpha": alpha, **dict(params)}, rel_tol=COST_REL_TOL)
    if enc.hi is None:
        raise DomainError("mechanism", mechanism, "a finite Renyi divergence", _THEOREM, "the curve is +oo here")
    return enc.hi


def rdp_upper(mechanism: str, alpha: Exact, **params: Exact) -> Fraction:
    """A certified upper bound (exact rational) of the mechanism's Renyi divergence at order ``alpha``: the upper
    end of its enclosure at relative width <= 1e-12.  DomainError for an unknown id or out-of-domain parameters."""
    entry = _check_mechanism(mechanism)
    if "alpha" in params:
        raise DomainError("alpha", params["alpha"], "not a mechanism parameter: the filter's order is used", _THEOREM)
    a = parse_exact("alpha", alpha, entry.theorem)
    exact = tuple(sorted((k, parse_exact(k, v, entry.theorem)) for k, v in params.items()))
    entry.check_values({"alpha": a, **dict(exact)})  # unknown, missing and out-of-domain parameters, named
    return _upper(mechanism, a, exact)


def rdp_cost(mechanism: str, **params: Exact) -> Callable[[Exact], Fraction]:
    """alpha -> :func:`rdp_upper` (mechanism, alpha, **params): the per-round cost curve a Renyi filter charges."""
    _check_mechanism(mechanism)
    return lambda alpha: rdp_upper(mechanism, alpha, **params)


def filter_order(f: Any) -> Fraction:
    """The order alpha of a single-order Renyi filter (its budget's ``alpha``), or DomainError."""
    budget = getattr(f, "budget", None)
    if not isinstance(budget, dict) or "alpha" not in budget:
        raise DomainError("filter", getattr(getattr(f, "entry", None), "id", type(f).__name__),
                          "a Renyi filter at one order (fz21.thm4_3, fz21.thm4_3.rr) or a multi-order Renyi filter",
                          _THEOREM, "a mechanism's cost is its Renyi divergence at the filter's order")
    return budget["alpha"]
