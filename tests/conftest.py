"""The suite's tiers and hypothesis profiles.

Tiers: every test belongs to exactly one.  An unmarked test is in the **fast** tier, which `python -m pytest` runs
(the README's test command: every module exercised, minutes on 2 cores).  A test that needs something beyond the
package and its test extras, or that takes more than a few seconds, names its tier with a marker --
``pytestmark = pytest.mark.tier("peers")`` for a whole file, ``@pytest.mark.tier("slow")`` for one test -- and runs
under ``--all-tiers`` (every tier; CI) or ``--tier NAME`` (one tier).  The tiers are the keys of ``TIERS`` below;
"Where tests go" in docs/CONTRIBUTING.md is the rule for choosing.

Hypothesis profiles: ``ci`` (fast, the default) and ``dev`` (thorough); select with HYPOTHESIS_PROFILE=dev.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=25, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("dev", max_examples=400, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

#: every tier, with what puts a test in it (the fast tier is the unmarked default)
TIERS = {
    "fast": "the default: every module exercised on small inputs; the README's test command runs it",
    "slow": "a test of more than a few seconds whose smaller twin is in the fast tier (long streams, wide grids, "
            "whole registries, end-to-end runs of the audit, the report or the golden tree)",
    "properties": "hypothesis searches and sweeps over a whole domain at the full example count",
    "peers": "runs other DP libraries (installed, or in their own interpreters) or the audit's peer adapters",
    "browser": "renders the report in headless Chromium, or runs node on the golden vectors",
    "wheel": "builds the wheel and installs it in a fresh venv; builds the docs site",
    "extreme": "evaluates every registry entry at extreme points under resource limits",
}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("dpbounds tiers")
    group.addoption("--all-tiers", action="store_true", default=False,
                    help="run every tier of the suite (" + ", ".join(TIERS) + "); without it only the fast tier runs")
    group.addoption("--tier", action="append", default=[], metavar="NAME",
                    help="run this tier (repeatable; comma-separated names allowed): " + ", ".join(TIERS))
    group.addoption("--skip-tier", action="append", default=[], metavar="NAME",
                    help="leave this tier out (with --all-tiers: CI runs the fast tier first, then "
                         "--all-tiers --skip-tier fast)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "tier(name): the test's tier, one of " + ", ".join(TIERS)
                            + " (unmarked: fast); see tests/conftest.py")
    config.addinivalue_line("markers", "slow: the same as tier('slow')")


def _names(values: list[str]) -> set[str]:
    names = {n.strip() for v in values for n in v.split(",") if n.strip()}
    unknown = names - set(TIERS)
    if unknown:
        raise pytest.UsageError(f"unknown tier(s) {sorted(unknown)}: the tiers are {', '.join(TIERS)}")
    return names


def selected_tiers(config: pytest.Config) -> set[str]:
    """The tiers this run runs: --all-tiers, or the --tier names, or the fast tier; minus --skip-tier."""
    chosen = set(TIERS) if config.getoption("--all-tiers") else (_names(config.getoption("--tier")) or {"fast"})
    return chosen - _names(config.getoption("--skip-tier"))


def tier_of(item: pytest.Item) -> str:
    """An item's tier: its closest ``tier`` marker (``slow`` counts as tier('slow')), else fast."""
    for mark in item.iter_markers():
        if mark.name == "tier":
            if len(mark.args) != 1 or mark.args[0] not in TIERS:
                raise pytest.UsageError(f"{item.nodeid}: tier{mark.args} -- the tiers are {', '.join(TIERS)}")
            return mark.args[0]
        if mark.name == "slow":
            return "slow"
    return "fast"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    wanted = selected_tiers(config)
    keep, drop = [], []
    for item in items:
        (keep if tier_of(item) in wanted else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def pytest_report_header(config: pytest.Config) -> str:
    wanted = selected_tiers(config)
    rest = [t for t in TIERS if t not in wanted]
    return ("tiers: " + ", ".join(t for t in TIERS if t in wanted)
            + (f" (not run: {', '.join(rest)}; --all-tiers runs every tier)" if rest else ""))


def pytest_sessionfinish(session, exitstatus):
    """The repository's folders must never be imported under their folder names (only as `dpbounds.…`): a second
    copy of a module (e.g. `proofs_check.core`) would hold its own registries and make tests pass vacuously."""
    import sys

    stray = sorted(m for m in sys.modules if m.split(".")[0] in ("spec", "reference", "proofs_check"))
    if stray:
        session.exitstatus = 1
        sys.stderr.write(f"\nconftest: modules imported under a folder name instead of dpbounds.*: {stray[:5]}\n")


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """Every core by default (pytest-xdist, a module's tests on one worker; the fast tier two workers a core):
    `-n 0` or `-p no:xdist` runs the suite in this process, `-n N` on N workers."""
    if config.pluginmanager.hasplugin("xdist") and getattr(config.option, "numprocesses", 0) is None \
            and not hasattr(config, "workerinput"):
        # The fast tier waits much of its time on child processes (peers, the CLI, timeouts): two workers a core
        # overlap those waits at the same CPU time.  The other tiers are CPU-bound: one worker a core.
        fast_only = not config.getoption("--all-tiers") and not config.getoption("--tier")
        config.option.numprocesses = 2 * (os.cpu_count() or 1) if fast_only else "auto"
        if config.option.dist == "no":
            config.option.dist = "loadscope"
