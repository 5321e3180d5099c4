"""The filter registry: one :class:`FilterSpec` per filter :func:`~dpbounds.accounting.accountants.make_filter` builds.

A filter is a spec entry of kind FILTER (its rule, in ``spec/``) and one ``FilterSpec`` (how to build it, which
per-round values it takes, the budgets its tests and its benchmark use, its family).  Every table that lists filters
reads this registry: ``make_filter`` and ``Filter.from_state``, the batched-decision tests, ``dpbounds bench``, the
side-by-side comparison of the report and its figure.

The filters of dpbounds are declared in :mod:`dpbounds.accounting.filters`, which this module loads on the first
lookup (so no caller has to import it first).  A filter defined elsewhere -- a user's, or a test's -- is added with
:func:`register_filter` after its spec entry is registered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from dpbounds import spec
from dpbounds.spec.core import Kind

#: the per-round values a filter's stream of rounds carries (``Filter.try_spend_many`` keywords)
ROUNDS = ("eps", "eps+delta", "rho", "rho+delta")


@dataclass(frozen=True)
class Lineup:
    """A filter's column in the report's 'Filters side by side' table (and its figure)."""

    rank: int                                   # the column's place, left to right
    label: str                                  # the column header
    budget: Callable[[str, str], dict[str, str]]  # (eps_g, delta_g) -> the filter's budget at that total budget


@dataclass(frozen=True)
class FilterSpec:
    """How dpbounds builds, tests and benchmarks one filter (the spec entry ``id`` states its rule).

    * ``family`` -- what the filter accounts in: 'basic', 'advanced', 'renyi', 'zcdp', 'approx-zcdp', 'gdp',
      'multi-order', 'lift', ... (a label for tables; nothing branches on it).
    * ``rounds`` -- the per-round values of its streams (one of :data:`ROUNDS`): what ``try_spend_many`` is fed by
      the batched-decision tests and the benchmark.
    * ``builder(save_path=, conversion=, _lock=, **budget)`` -> the filter; None: the generic
      :class:`~dpbounds.accounting.accountants.Filter` on the spec entry (and no ``conversion`` accepted).
    * ``state_class`` -- the class a saved state is restored as (None: ``Filter``); ``meta`` recorded by a builder
      is accepted on restore only for a filter that has one.
    * ``test_budget``, ``test_size`` -- a budget that a stream of rounds of about ``test_size`` (eps or rho) crosses
      within 3000 rounds: tests/test_batch_decisions.py checks the batched decisions against try_spend there.
      None when the filter is tested elsewhere (``tested_by``: its own per-round quantities, or a budget that
      takes seconds to compute).
    * ``bench_budget`` -- a budget that 1e6 benchmark rounds (eps about 0.005) stay inside: ``dpbounds bench``
      (stream) measures it; None: reported as skipped.
    * ``eps_as_zcdp`` -- for a zCDP filter: the result that lets an (eps, delta)-DP round be charged rho = eps^2/2.
    * ``conversion_delta`` -- for a filter whose B comes from a zCDP -> DP conversion: the budget parameter that is
      the conversion's delta (a restored B is checked against the certified B* again).
    * ``lineup`` -- its column in the report's side-by-side comparison, if it has one.
    """

    id: str
    family: str
    rounds: str
    builder: Callable[..., Any] | None = None
    state_class: type | None = None
    test_budget: Mapping[str, str] | None = None
    test_size: float = 0.01
    tested_by: str = ""
    bench_budget: Mapping[str, str] | None = None
    eps_as_zcdp: str = ""
    conversion_delta: str = ""
    lineup: Lineup | None = None

    def __post_init__(self) -> None:
        if self.rounds not in ROUNDS:
            raise ValueError(f"{self.id}: rounds={self.rounds!r}, not one of {ROUNDS}")
        if self.test_budget is None and not self.tested_by:
            raise ValueError(f"{self.id}: a filter without a test budget names the tests that cover it (tested_by)")


_FILTERS: dict[str, FilterSpec] = {}
_loaded = False


def register_filter(fs: FilterSpec, *, replace: bool = False) -> FilterSpec:
    """Add ``fs`` to the registry (its spec entry must be registered, of kind FILTER); returns it.

    A second registration of the same id is refused unless ``replace`` (a test's throwaway filter may re-register).
    """
    entry = spec.get(fs.id)
    if entry.kind is not Kind.FILTER:
        raise ValueError(f"{fs.id}: a spec entry of kind {entry.kind.value}, not filter")
    if fs.id in _FILTERS and not replace:
        raise ValueError(f"{fs.id}: filter already registered")
    _FILTERS[fs.id] = fs
    return fs


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        from dpbounds.accounting import filters  # noqa: F401  (declares dpbounds' filters into this registry)


def filter_spec(entry_id: str) -> FilterSpec | None:
    """The registered :class:`FilterSpec` of ``entry_id``, or None."""
    _load()
    return _FILTERS.get(entry_id)


def filter_specs() -> dict[str, FilterSpec]:
    """Every registered filter, id -> :class:`FilterSpec`, in registration order."""
    _load()
    return dict(_FILTERS)
