"""CrossHair symbolic checks of the pure helpers and validators (skipped when crosshair-tool is missing)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("crosshair") is None, reason="crosshair-tool not installed")
def test_crosshair_finds_no_counterexample():
    r = subprocess.run(["crosshair", "check", "--analysis_kind=asserts", "--per_condition_timeout", "3",
                        "--per_path_timeout", "1", str(ROOT / "tests" / "contracts" / "crosshair_targets.py")],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr


def test_contract_targets_hold_on_plain_examples():
    sys.path.insert(0, str(ROOT))
    from tests.contracts import crosshair_targets as t
    t.float_up_is_above(1, 3)
    t.float_down_is_below(-2, 7)
    t.parse_exact_float_is_exact(0.1)
    t.parse_exact_float_is_exact(float("nan"))
    t.parse_exact_string_raises_only_domain_error("1e-3")
    t.parse_exact_string_raises_only_domain_error("__import__")
    t.decimal_rendering_round_trips(-12345, 7)
