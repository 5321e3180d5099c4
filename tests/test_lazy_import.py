"""The pytest plugin (entry point ``pytest11``, loaded by every pytest run where dpbounds is installed) and
``import dpbounds`` import nothing heavy: the package inits are lazy (PEP 562), and every public name still resolves."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("sympy", "numpy", "flint", "mpmath", "hypothesis", "scipy")


def _imported_after(stmt: str) -> list[str]:
    code = (f"{stmt}\nimport json, sys\n"
            f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r} or "
            "m.startswith('dpbounds.'))))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-500:]
    return json.loads(r.stdout.splitlines()[-1])


def test_the_pytest_plugin_imports_nothing_heavy():
    mods = _imported_after("import dpbounds.testing.plugin")
    assert not [m for m in mods if m.split(".")[0] in HEAVY], mods
    assert set(mods) <= {"dpbounds.testing", "dpbounds.testing.plugin"}, mods


def test_the_golden_plugin_imports_nothing_heavy():
    mods = _imported_after("import dpbounds.outputs.golden_plugin")
    assert not [m for m in mods if m.split(".")[0] in HEAVY], mods
    assert set(mods) <= {"dpbounds.outputs", "dpbounds.outputs.golden_plugin"}, mods


def test_import_dpbounds_imports_nothing_heavy():
    mods = _imported_after("import dpbounds")
    assert not [m for m in mods if m.split(".")[0] in HEAVY], mods


def eval_list(text: str) -> list[str]:
    return [x.strip().strip("'") for x in text.strip().strip("[]").split(",")]


def test_every_public_name_resolves_lazily():
    import dpbounds
    import dpbounds.testing
    for name in dpbounds.__all__:
        assert getattr(dpbounds, name) is not None, name
    for name in dpbounds.testing.__all__:
        assert callable(getattr(dpbounds.testing, name)), name
    code = "from dpbounds import *\nprint(sorted(k for k in dir() if not k.startswith('_')))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert set(dpbounds.__all__) - {"__version__"} <= set(eval_list(r.stdout)), r.stderr[-300:]
    assert dpbounds.spec.get("rruv16.thm5_1").id == "rruv16.thm5_1"  # a layer, as an attribute
