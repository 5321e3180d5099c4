"""dpbounds.testing -- property testing of any accountant against the certified reference.

::

    from dpbounds.testing import check_conversion, check_filter, check_odometer
    r = check_conversion(my_eps, "conversions.cks20", inputs={"rho": (1e-8, 1e4), "delta": (1e-300, 0.5)})
    r = check_filter(MyFilter, "rruv16.thm3_4.filter", budget={"eps_g": "1"}, costs=("eps",), seconds=30)
    r.verdict, r.witness, r.peer_value, r.enclosure, r.examples, r.reproducer

Each check searches the whole declared domain with hypothesis (:mod:`dpbounds.testing.strategies`), judges every
example with the audit's verdicts (:func:`dpbounds.testing.verdicts.judge_upper` / ``judge_lower``; filters
directionally, decision by decision), using the float fast interval first and certified arb only where it cannot
decide, and returns a :class:`CheckResult`: the worst verdict, a shrunk witness and a runnable reproducer.
:class:`Declaration` states a peer function once (what to call, over which domain, against which reference, with
which claim); :func:`run_declaration` runs it.  The pytest plugin (:mod:`dpbounds.testing.plugin`) adds
``--dpbounds-seconds`` for ``assert_sound``; the ``dpbounds_golden`` fixture is :mod:`dpbounds.outputs.golden_plugin`'s.  :func:`check_laws`
(:mod:`dpbounds.testing.laws`) checks laws that need no reference (monotonicity, range, termination).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

#: public name -> the module that defines it, imported on first use (PEP 562): the pytest plugin imports this package
#: at every pytest start and must cost milliseconds
_WHERE = {
    "CheckResult": "dpbounds.testing.results",
    "check_conversion": "dpbounds.testing.checks",
    "check_filter": "dpbounds.testing.checks",
    "check_odometer": "dpbounds.testing.checks",
    "Declaration": "dpbounds.testing.declarations",
    "Grid": "dpbounds.testing.domains",
    "Peer": "dpbounds.testing.declarations",
    "assert_sound": "dpbounds.testing.declarations",
    "run_declaration": "dpbounds.testing.declarations",
    "LawResult": "dpbounds.testing.laws",
    "check_laws": "dpbounds.testing.laws",
}

if TYPE_CHECKING:
    from dpbounds.testing.checks import check_conversion, check_filter, check_odometer
    from dpbounds.testing.declarations import Declaration, Peer, assert_sound, run_declaration
    from dpbounds.testing.domains import Grid
    from dpbounds.testing.laws import LawResult, check_laws
    from dpbounds.testing.results import CheckResult

__all__ = ["CheckResult", "Declaration", "Grid", "Peer", "LawResult", "assert_sound", "check_conversion",
           "check_filter", "check_laws", "check_odometer", "run_declaration"]


def __getattr__(name: str) -> Any:
    mod = _WHERE.get(name)
    if mod is None:
        raise AttributeError(f"module 'dpbounds.testing' has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(mod), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
