"""Reading golden vectors back: the one function a consumer's test suite needs (typed; no generation code)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def load_golden(path: str | Path) -> list[dict[str, Any]]:
    """The records of one JSON Lines file of golden vectors, in file order (for consumers' test suites)."""
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]
