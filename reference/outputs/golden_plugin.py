"""The dpbounds golden-vector pytest plugin (entry point ``pytest11``, next to :mod:`dpbounds.testing.plugin`).

* ``--dpbounds-golden DIR``: a golden tree (``dpbounds golden --out DIR``) for the fixture below; without it the
  records are generated on demand (certified, at the ``sample`` grid) and cached for the session.
* fixture ``dpbounds_golden``: ``dpbounds_golden(kind, id)`` -> the golden records of one file (without
  ``--dpbounds-golden``: the ``sample`` grid, each entry at its sample point, 30 digits), e.g.
  ``dpbounds_golden("filter_stream", "rruv16.thm3_4.filter")``, ``dpbounds_golden("bound", "rruv16.thm5_1")``,
  ``dpbounds_golden("conversion", "cks20.eps_of_delta")``, ``dpbounds_golden("bstar", "cks20")``.

It lives with the golden vectors (outputs/), not with the check engine (testing/), so that no import points up the
layers.  Nothing heavy is imported until a test uses the fixture.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest

#: golden kind -> the folder of its files in a golden tree
FOLDERS = {"bound": "bounds", "filter_stream": "streams", "odometer_stream": "streams", "conversion": "conversions",
           "bstar": "bstar"}


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("dpbounds")
    group.addoption("--dpbounds-golden", default=None,
                    help="a golden tree (dpbounds golden --out DIR) for the dpbounds_golden fixture "
                         "(default: records generated on demand)")


class GoldenRecords:
    """``(kind, id) -> records``: from a golden tree when given, else generated (and cached)."""

    def __init__(self, root: str | None) -> None:
        self.root = Path(root) if root else None
        self.cache: dict[tuple[str, str], list[dict[str, Any]]] = {}

    def __call__(self, kind: str, entry_id: str) -> list[dict[str, Any]]:
        if kind not in FOLDERS:
            raise ValueError(f"dpbounds_golden: kind {kind!r} is not one of {sorted(FOLDERS)}")
        key = (kind, entry_id)
        if key not in self.cache:
            self.cache[key] = self._load(kind, entry_id)
        return self.cache[key]

    def _load(self, kind: str, entry_id: str) -> list[dict[str, Any]]:
        # imported here: the plugin is loaded by every pytest run where dpbounds is installed
        from dpbounds.outputs.golden_load import load_golden
        rel = f"{FOLDERS[kind]}/{entry_id}.jsonl"
        if self.root is not None:
            return [r for r in load_golden(self.root / rel) if r.get("kind") == kind]
        from dpbounds.outputs.golden import golden_files
        if kind in ("conversion", "bstar"):
            files = golden_files(bounds=["conversions.bs16"], grid="sample", digits=30, streams=False,
                                 conversions=True)
        else:
            files = golden_files(bounds=[entry_id], grid="sample", digits=30, streams=kind != "bound",
                                 conversions=False)
        if rel not in files:
            raise KeyError(f"dpbounds_golden: no {kind} records for {entry_id!r} ({rel})")
        return [r for r in map(json.loads, files[rel].splitlines()) if r.get("kind") == kind]


@pytest.fixture(scope="session")
def dpbounds_golden(request: Any) -> Callable[[str, str], list[dict[str, Any]]]:
    """``dpbounds_golden(kind, id)``: the golden records of one kind and id (module docstring)."""
    return GoldenRecords(request.config.getoption("--dpbounds-golden", None))
