"""Streaming accountants for the filters proved after the seed papers (spec/later.py).

Public API
----------
* :class:`GDPFilter` (``make_filter("st22.filter", eps_g=..., delta_g=...)``) -- Smith-Thakurta's Gaussian-DP
  filter; ``try_spend_mu(mu)`` for a mu-GDP round (``try_spend(rho=mu^2/2)`` is the same decision).
* :data:`BUILDERS` -- spec id -> builder, the hook :func:`dpbounds.accounting.accountants.make_filter` consults.

Decisions are the generic :class:`~dpbounds.accounting.accountants.Filter`'s (exact sums, certified comparisons); this
module only fixes the budget from the spec's definition and converts the per-round description.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

from dpbounds import spec
from dpbounds.spec import DomainError, parse_exact

from .accountants import Decision, Filter

__all__ = ["BUILDERS", "GDPFilter", "gdp_budget"]


def gdp_budget(eps_g, delta_g) -> Fraction:
    """Return B = mu_g^2/2 for the largest mu_g with delta_gauss(eps_g; mu_g) <= delta_g (certified lower end).

    Source: spec ``st22.filter`` (Smith-Thakurta, arXiv:2210.17520; the budget through DRS19 Corollary 2.13, i.e.
    ``conversions.gauss.delta`` at rho = mu_g^2/2).  The lower end of the certified bracket of B*_gauss: the exact
    Gaussian curve at mu_g = sqrt(2 B) is <= delta_g (decided by arb), so B is never overstated.
    Domain: eps_g > 0, 0 < delta_g < 1.
    """
    from .conversions import b_star
    return b_star(eps_g, delta_g, "gauss").b_star


class GDPFilter(Filter):
    """Smith-Thakurta's GDP filter: CONT while sum mu_t^2 <= mu_g^2 (HALT: the round must not run).

    The interaction it stops is mu_g-GDP, hence (eps_g, delta_g)-DP with mu_g from :func:`gdp_budget`.  Rounds are
    recorded as rho_t = mu_t^2/2 exactly (spec ``st22.filter``: R = sum rho_t, B = mu_g^2/2).
    """

    def try_spend_mu(self, mu) -> Decision:
        """CONT (recorded) or HALT for a mu-GDP round (mu >= 0: float, int, Fraction, Decimal or decimal string)."""
        m = parse_exact(f"mu[{self.rounds}]", mu, self.entry.theorem)
        if m < 0:
            raise DomainError(f"mu[{self.rounds}]", m, "mu_t >= 0", self.entry.theorem)
        return self.try_spend(rho=m * m / 2)


def _gdp_filter(*, save_path=None, conversion: str | None = None, **budget) -> GDPFilter:
    entry_id = "st22.filter"
    if conversion not in (None, "gauss"):
        raise DomainError("conversion", conversion, "none (the budget is the exact Gaussian curve)", entry_id)
    entry = spec.get(entry_id)
    entry.check_values({k: v for k, v in budget.items() if k != "B"}, need=("eps_g", "delta_g"))
    b = gdp_budget(budget["eps_g"], budget["delta_g"])
    budget = dict(budget)
    if "B" in budget:
        given = parse_exact("B", budget["B"], entry_id)
        if given > b:
            raise DomainError("B", given, f"B <= B*_gauss(eps_g, delta_g) >= {float(b):.17g} (certified)", entry_id,
                              "a larger B is not certified to give the stated (eps_g, delta_g)-DP guarantee")
        b = given
    budget["B"] = b
    return GDPFilter(entry_id, budget, save_path=save_path, _meta={"conversion": "gauss (exact: the interaction is "
                                                                              "GDP)"})


#: spec id -> builder(save_path=..., conversion=..., **budget); consulted by accountants.make_filter
BUILDERS: dict[str, Callable[..., Filter]] = {"st22.filter": _gdp_filter}


def build(entry_id: str, *, save_path: str | Path | None = None, conversion: str | None = None,
          **budget: Any) -> Filter | None:
    """The filter for ``entry_id`` if this module builds it, else None."""
    f = BUILDERS.get(entry_id)
    return None if f is None else f(save_path=save_path, conversion=conversion, **budget)
