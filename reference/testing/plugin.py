"""The dpbounds pytest plugin (entry point ``pytest11``; active wherever dpbounds is installed).

* ``--dpbounds-seconds S``: the time cap of each :func:`dpbounds.testing.assert_sound` search when the test does not
  say (default 600).  Only a cap: a search judges its example budget (``max_examples``, default 200), the same
  examples on every machine; one the cap cuts short fails as ``incomplete``.

The golden-vector fixture ``dpbounds_golden`` and ``--dpbounds-golden`` come from the sibling plugin
:mod:`dpbounds.outputs.golden_plugin` (golden vectors are an output, a layer above the check engine).

A failing ``assert_sound`` shows the verdict, the shrunk witness and a runnable reproducer.  Nothing heavy is
imported until a test uses it.
"""

from __future__ import annotations

from typing import Any

import pytest

def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("dpbounds")
    group.addoption("--dpbounds-seconds", type=float, default=None,
                    help="time cap of each dpbounds.testing assert_sound search when the test does not say (600; "
                         "the examples are the check's budget, a search the cap cuts short fails as incomplete)")


def pytest_configure(config: Any) -> None:
    seconds = config.getoption("--dpbounds-seconds", None)
    if seconds is not None:
        if not seconds > 0:
            raise pytest.UsageError(f"--dpbounds-seconds: {seconds} is not a positive number of seconds")
        from dpbounds.testing import declarations
        declarations.DEFAULT_SECONDS = float(seconds)
