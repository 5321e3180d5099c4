"""Input domain forms of a declaration beyond ``(lo, hi)`` and a list of values (no dependency: peer declarations
import it without hypothesis)."""

from __future__ import annotations

from typing import Any, Sequence


class Grid(list):  # type: ignore[type-arg]
    """An input's grid of values (a list: every reader of a list of values reads the grid) and the continuous
    ``span`` (``(lo, hi)``, as :func:`dpbounds.testing.strategies.values` takes it) that
    :func:`dpbounds.testing.strategies.points` draws from instead in a ``share`` of the
    points -- for every Grid input of the point at once, so that the rest of the points stay on the grid, where an
    expensive reference is computed once per grid point and reused."""

    def __init__(self, values: Sequence[Any], span: tuple[Any, Any], share: float = 0.125) -> None:
        super().__init__(values)
        if not (isinstance(span, tuple) and len(span) == 2 and span[0] <= span[1]):
            raise ValueError(f"a Grid's span is (lo, hi) with lo <= hi, not {span!r}")
        if not 0 < share < 1:
            raise ValueError(f"a Grid's share is in (0, 1), not {share!r}")
        self.span, self.share = span, float(share)

    def __repr__(self) -> str:
        return f"Grid({list(self)!r}, span={self.span!r}, share={self.share!r})"
