"""dpbounds.spec -- every bound of the sources, written once, as sympy expressions.

Use :func:`registry` for all entries and :func:`get` for one by id.
"""

from .core import (CANONICAL, SEEDS, DomainError, Kind, Optimize, RefutedConstantWarning, Source, SpecEntry,
                   check_domain, get, parse_exact, registry, select, sym)

__all__ = ["CANONICAL", "SEEDS", "DomainError", "Kind", "Optimize", "RefutedConstantWarning", "Source", "SpecEntry",
           "check_domain", "get", "parse_exact", "registry", "select", "sym"]

# The source modules register their entries when imported.  Importing them here, once and in this fixed order, makes
# the registry complete before any use and its order independent of which module a program happens to import first
# (core itself imports none of them: the imports point one way, sources -> core).
from . import aggregates, conversions, fz21, howard, nikolov17, rdp_conversions, rruv16, tradeoff, wrrw23  # noqa: E402,F401,E501
from . import filters  # noqa: E402,F401  (filters built on the seeds' results: after the seeds' entries)
from . import mechanisms  # noqa: E402,F401  (per-round mechanism curves)
from . import composition  # noqa: E402,F401  (k-fold compositions with certified opaque evaluators)
