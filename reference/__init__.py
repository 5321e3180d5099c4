"""dpbounds -- the reference implementation of privacy filters, privacy odometers and conversions for fully
adaptive composition in differential privacy.

The curated API (everything in ``__all__``)::

    import dpbounds
    r = dpbounds.evaluate("rruv16.thm5_1", {"eps_g": "1", "delta_g": "1e-6"}, eps=["0.1"] * 20)
    f = dpbounds.make_filter("wrrw23.thm2", eps_g="1", delta_prime="1e-6", delta_dprime="0")
    b = dpbounds.b_star("1", "1e-6", "cks20")

Beyond the API, three things a DP library maintainer comes for:

* the **command line** ``dpbounds`` (``dpbounds --help``; ``dpbounds --version``): ``eval`` (one bound, certified;
  a filter's CONT/HALT decision too), ``filter`` / ``odometer`` (a stream of rounds on stdin), ``bstar``,
  ``spec``, ``check-proofs``, ``golden``, ``audit``, ``report`` (everything as one page) and ``bench``;
* the **audit** of installed peer libraries (OpenDP, dp-accounting, autodp, diffprivlib, ...) against the certified
  reference: ``dpbounds audit`` (``pip install 'dpbounds[audit]'``), every verdict with a reproducer; your own
  library through an adapter (``dpbounds audit --adapter mypkg.my_adapter``, :mod:`dpbounds.audit`);
* **golden vectors**: certified values with their enclosures as JSON Lines + CSV + JSON Schemas, for any test suite
  in any language: ``dpbounds golden --out vectors/`` writes them, ``dpbounds golden --check vectors/`` verifies a
  tree without trusting it, and :func:`load_golden` reads one file.

The package is layered, each layer using only those before it:

* :mod:`dpbounds.spec` -- every bound once, as sympy, with domain, kind and source (the single source of truth);
* :mod:`dpbounds.util` -- atomic output, progress lines;
* :mod:`dpbounds.evaluation` -- certified (arb), high-precision (mpmath) and sound fast (numpy) evaluation;
* :mod:`dpbounds.accounting` -- conversions and B*, streaming filters and odometers, individual accounting;
* :mod:`dpbounds.exact` -- the exact worst-case engine and its adaptive adversaries;
* :mod:`dpbounds.audit` -- adapters that run peer libraries against the reference;
* :mod:`dpbounds.proofs_check` -- a verdict per claim of the sources' proofs;
* :mod:`dpbounds.outputs` -- golden vectors, the report, figures, the benchmark;
* :mod:`dpbounds.cli` -- the ``dpbounds`` command.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.2.0"

#: every public name -> the module that defines it, imported on first use (``import dpbounds`` and the pytest plugin
#: cost milliseconds; :func:`__getattr__`)
_WHERE = {
    "DomainError": "dpbounds.spec",
    "Kind": "dpbounds.spec",
    "RefutedConstantWarning": "dpbounds.spec",
    "SpecEntry": "dpbounds.spec",
    "get": "dpbounds.spec",
    "registry": "dpbounds.spec",
    "select": "dpbounds.spec",
    "CertificationError": "dpbounds.evaluation.enclosure",
    "Enclosure": "dpbounds.evaluation.enclosure",
    "Evaluation": "dpbounds.evaluation.evaluate",
    "enclose": "dpbounds.evaluation.evaluate",
    "evaluate": "dpbounds.evaluation.evaluate",
    "fast_interval": "dpbounds.evaluation.evaluate",
    "fast_lower": "dpbounds.evaluation.evaluate",
    "fast_upper": "dpbounds.evaluation.evaluate",
    "BStar": "dpbounds.accounting.conversions",
    "b_star": "dpbounds.accounting.conversions",
    "delta_of": "dpbounds.accounting.conversions",
    "eps_of": "dpbounds.accounting.conversions",
    "b_star_lower": "dpbounds.accounting.fast_conversions",
    "delta_upper": "dpbounds.accounting.fast_conversions",
    "eps_upper": "dpbounds.accounting.fast_conversions",
    "Decision": "dpbounds.accounting.accountants",
    "Filter": "dpbounds.accounting.accountants",
    "MultiOrderRenyiFilter": "dpbounds.accounting.accountants",
    "Odometer": "dpbounds.accounting.accountants",
    "RenyiOdometer": "dpbounds.accounting.accountants",
    "make_filter": "dpbounds.accounting.accountants",
    "make_odometer": "dpbounds.accounting.accountants",
    "IndividualFilter": "dpbounds.accounting.individual",
    "IndividualGDPFilter": "dpbounds.accounting.individual",
    "IndividualOdometer": "dpbounds.accounting.individual",
    "calibrate_sgm": "dpbounds.evaluation.sgm_calibrate",
    "calibrate_sgm_schedule": "dpbounds.evaluation.sgm_calibrate",
    "calibrate_sgm_steps": "dpbounds.evaluation.sgm_calibrate",
    "load_golden": "dpbounds.outputs.golden_load",
}
#: the layers, reachable as attributes (``dpbounds.spec``) as after an eager import
_SUBPACKAGES = ("spec", "util", "evaluation", "accounting", "exact", "testing", "audit", "proofs_check", "outputs", "cli")

if TYPE_CHECKING:  # the same names, eagerly, for type checkers
    from dpbounds.spec import DomainError, Kind, RefutedConstantWarning, SpecEntry, get, registry, select
    from dpbounds.evaluation.enclosure import CertificationError, Enclosure
    from dpbounds.evaluation.evaluate import Evaluation, enclose, evaluate, fast_interval, fast_lower, fast_upper
    from dpbounds.accounting.conversions import BStar, b_star, delta_of, eps_of
    from dpbounds.accounting.fast_conversions import b_star_lower, delta_upper, eps_upper
    from dpbounds.accounting.accountants import (Decision, Filter, MultiOrderRenyiFilter, Odometer, RenyiOdometer,
        make_filter, make_odometer)
    from dpbounds.accounting.individual import IndividualFilter, IndividualGDPFilter, IndividualOdometer
    from dpbounds.evaluation.sgm_calibrate import calibrate_sgm, calibrate_sgm_schedule, calibrate_sgm_steps
    from dpbounds.outputs.golden_load import load_golden


def __getattr__(name: str) -> Any:
    """A public name (or a layer) on first use: import the module that defines it (PEP 562)."""
    import importlib
    if name in _SUBPACKAGES:
        return importlib.import_module(f"dpbounds.{name}")
    mod = _WHERE.get(name)
    if mod is None:
        raise AttributeError(f"module 'dpbounds' has no attribute {name!r}")
    value = getattr(importlib.import_module(mod), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE) | set(_SUBPACKAGES))


__all__ = [
    "__version__",
    # the registry
    "get", "registry", "select", "SpecEntry", "Kind",
    # evaluation
    "evaluate", "enclose", "fast_upper", "fast_lower", "fast_interval", "Evaluation", "Enclosure",
    # conversions
    "eps_of", "delta_of", "b_star", "BStar", "eps_upper", "delta_upper", "b_star_lower",
    # accountants
    "make_filter", "make_odometer", "Decision", "Filter", "Odometer", "MultiOrderRenyiFilter", "RenyiOdometer",
    "IndividualFilter", "IndividualOdometer", "IndividualGDPFilter",
    # DP-SGD calibration
    "calibrate_sgm", "calibrate_sgm_schedule", "calibrate_sgm_steps",
    # golden vectors
    "load_golden",
    # errors
    "DomainError", "CertificationError",
    # warnings
    "RefutedConstantWarning",
]
