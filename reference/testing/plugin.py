"""The dpbounds pytest plugin (entry point ``pytest11``; active wherever dpbounds is installed).

* ``--dpbounds-seconds S``: the time cap of each :func:`dpbounds.testing.assert_sound` search when the test does not
  say (default 600).  Only a cap: a search judges its example budget (``max_examples``, default 200), the same
  examples on every machine; one the cap cuts short fails as ``incomplete``.
* ``--dpbounds-golden DIR``: a golden tree (``dpbounds golden --out DIR``) for the fixture below; without it the
  records are generated on demand (certified, at the ``sample`` grid) and cached for the session.
* fixture ``dpbounds_golden``: ``dpbounds_golden(kind, id)`` -> the golden records of one file (without
  ``--dpbounds-golden``: the ``sample`` grid, each entry at its sample point, 30 digits), e.g.
  ``dpbounds_golden("filter_stream", "rruv16.thm3_4.filter")``, ``dpbounds_golden("bound", "rruv16.thm5_1")``,
  ``dpbounds_golden("conversion", "cks20.eps_of_delta")``, ``dpbounds_golden("bstar", "cks20")``.

A failing ``assert_sound`` shows the verdict, the shrunk witness and a runnable reproducer.  Nothing heavy is
imported until a test uses it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

#: golden kind -> the folder of its files in a golden tree
FOLDERS = {"bound": "bounds", "filter_stream": "streams", "odometer_stream": "streams", "conversion": "conversions",
           "bstar": "bstar"}


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("dpbounds")
    group.addoption("--dpbounds-seconds", type=float, default=None,
                    help="time cap of each dpbounds.testing assert_sound search when the test does not say (600; "
                         "the examples are the check's budget, a search the cap cuts short fails as incomplete)")
    group.addoption("--dpbounds-golden", default=None,
                    help="a golden tree (dpbounds golden --out DIR) for the dpbounds_golden fixture "
                         "(default: records generated on demand)")


def pytest_configure(config: Any) -> None:
    seconds = config.getoption("--dpbounds-seconds", None)
    if seconds is not None:
        if not seconds > 0:
            raise pytest.UsageError(f"--dpbounds-seconds: {seconds} is not a positive number of seconds")
        from dpbounds.testing import declarations
        declarations.DEFAULT_SECONDS = float(seconds)


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
        from dpbounds.outputs.golden_load import load_golden
        rel = f"{FOLDERS[kind]}/{entry_id}.jsonl"
        if self.root is not None:
            return [r for r in load_golden(self.root / rel) if r.get("kind") == kind]
        import json

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
