"""Input domain forms of a declaration beyond ``(lo, hi)`` and a list of values (no dependency: peer declarations
import it without hypothesis)."""

from __future__ import annotations

from typing import Any, Sequence


class Grid(list):  # type: ignore[type-arg]
    """An input's grid of values (a list: every reader of a list of values reads the grid) and the continuous
    ``span`` (``(lo, hi)``, as :func:`dpbounds.testing.strategies.values` takes it) that
    :func:`dpbounds.testing.strategies.points` draws from instead in a ``share`` of the
    points -- for every Grid input of the point at once, so that the rest of the points stay on the grid, where an
    expensive reference is computed once per grid point and reused.

    ``batch``: the points drawn per draw of the Grid inputs (the other inputs drawn ``batch`` times; the largest
    among a point's Grids applies): an accountant that composes once per value of its Grid inputs (DP-SGD: one
    composition per (q, sigma, k), every delta and eps read off it) answers the ``batch`` points of one draw from
    one composition, as its users read several off one -- the search then judges ``batch`` examples per
    composition instead of about one."""

    def __init__(self, values: Sequence[Any], span: tuple[Any, Any], share: float = 0.125, batch: int = 1) -> None:
        super().__init__(values)
        if not (isinstance(span, tuple) and len(span) == 2 and span[0] <= span[1]):
            raise ValueError(f"a Grid's span is (lo, hi) with lo <= hi, not {span!r}")
        if not 0 < share < 1:
            raise ValueError(f"a Grid's share is in (0, 1), not {share!r}")
        if isinstance(batch, bool) or not isinstance(batch, int) or batch < 1:
            raise ValueError(f"a Grid's batch is a positive integer, not {batch!r}")
        self.span, self.share, self.batch = span, float(share), batch

    def __repr__(self) -> str:
        return f"Grid({list(self)!r}, span={self.span!r}, share={self.share!r}, batch={self.batch!r})"


class Batch(list):  # type: ignore[type-arg]
    """The points of one draw of a domain with batched :class:`Grid` inputs (they share those inputs' values): the
    search judges them one by one, in order, as separate examples."""
