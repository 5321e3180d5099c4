"""`dpbounds` subcommands: one module each, with ``add_parser(subparsers)`` and ``run(args) -> int``.

Exit codes: 0 success (findings such as errata are success), 2 bad input (one line on stderr naming the
parameter, value and allowed domain), 1 internal failure.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from dpbounds.spec import DomainError

COMMANDS = ("spec", "eval", "filter", "odometer", "bstar", "check_proofs", "golden", "audit", "report", "bench")
#: modules whose subcommand name differs from the module name: check_proofs -> check-proofs


def parse_assignments(items: list[str] | None, flag: str = "--param") -> dict[str, str]:
    """NAME=VALUE pairs -> dict of strings (values are parsed exactly later, never evaluated)."""
    out: dict[str, str] = {}
    for item in items or []:
        if "=" not in item:
            raise DomainError(flag, item, "NAME=VALUE", "command line")
        k, v = item.split("=", 1)
        k = k.strip()
        if not k.isidentifier():
            raise DomainError(flag, item, "NAME=VALUE with NAME a parameter name", "command line")
        if k in out:
            raise DomainError(k, v, "given once", "command line", "repeated parameter")
        out[k] = v.strip()
    return out


def parse_list(text: str | None, name: str) -> list[str] | None:
    """'0.1,0.2,...' -> ['0.1', '0.2', ...] (exact strings)."""
    if text is None:
        return None
    parts = [p.strip() for p in text.split(",")]
    if not parts or any(p == "" for p in parts):
        raise DomainError(name, text, "a comma-separated list of numbers", "command line")
    return parts


def read_list_file(path: str, name: str) -> list[str]:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise DomainError(name, path, "a readable file", "command line", str(e.strerror)) from None
    vals = [t for line in text.splitlines() for t in line.replace(",", " ").split() if not line.startswith("#")]
    if not vals:
        raise DomainError(name, path, "a file with at least one number", "command line")
    return vals


def jsonable(obj: Any) -> Any:
    """Replace non-finite floats by the strings 'inf' / '-inf' / 'nan' (JSON has no infinities)."""
    if isinstance(obj, float):
        if obj != obj:
            return "nan"
        if obj in (float("inf"), float("-inf")):
            return "inf" if obj > 0 else "-inf"
        return obj
    if isinstance(obj, dict):
        return {k: jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    return obj


def emit_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(jsonable(obj), indent=2, allow_nan=False, default=str) + "\n")
