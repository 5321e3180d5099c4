"""dpbounds.spec -- every bound of the sources, written once, as sympy expressions.

Use :func:`registry` for all entries and :func:`get` for one by id.
"""

from .core import (CANONICAL, SEEDS, DomainError, Kind, Optimize, RefutedConstantWarning, Source, SpecEntry,
                   check_domain, get, parse_exact, registry, select, sym)

__all__ = ["CANONICAL", "SEEDS", "DomainError", "Kind", "Optimize", "RefutedConstantWarning", "Source", "SpecEntry", "check_domain", "get",
           "parse_exact", "registry", "select", "sym"]
