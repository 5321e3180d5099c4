"""Stand-in for ``dpbounds.testing.Declaration`` (owned by the search engine, issue 26) with the same fields and
defaults, so the adapters can be written before the engine lands; at the merge this module re-exports the engine's
class instead."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Declaration:
    peer: str
    function: str
    call: str
    reference: Any
    inputs: dict[str, Any]
    kind: str = "conversion"
    claim: str = "upper"
    fixed: dict[str, Any] = field(default_factory=dict)
    budget: dict[str, Any] | None = None
    costs: tuple[str, ...] = ("eps",)
    examples: tuple[dict[str, Any], ...] = ()
    cites: str = ""
    against: str = "truth"
