"""`dpbounds` subcommands: one module each, with ``add_parser(subparsers)`` and ``run(args) -> int``.

Exit codes: 0 success (findings such as errata are success), 2 bad input (one line on stderr naming the
parameter, value and allowed domain), 1 internal failure.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from dpbounds.spec import DomainError

COMMANDS = ("spec", "eval", "filter", "odometer", "bstar", "calibrate", "check_proofs", "golden", "audit", "report", "bench")
#: modules whose subcommand name differs from the module name: check_proofs -> check-proofs


#: the stdin format of `filter` and `odometer`, shown in their --help (and in docs/usage.md)
STREAM_FORMAT = """\
input (stdin): CSV, one line per round, after a header line naming the columns -- any of eps, delta, rho (those
the bound needs; an omitted delta column means delta = 0).  Values are exact decimals (0.1, 1e-7, 1/3); blank
lines and lines starting with '#' are skipped.  A file without the header is refused (exit 2).  Example:
  eps,delta
  0.1,1e-7
  0.25,0
"""


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


#: the most values ``--eps-file``/``--delta-file`` may hold: eval sums them exactly, at a few microseconds per
#: distinct value; a longer stream belongs to ``dpbounds filter``/``odometer`` (streaming) or to the API with
#: float64 arrays (the vectorized path)
MAX_LIST_VALUES = 1_000_000


def _lines(text: str):
    """The lines of ``text`` one at a time (splitlines() would hold every line at once: ~50 bytes each)."""
    pos, n = 0, len(text)
    while pos < n:
        end = text.find("\n", pos)
        end = n if end < 0 else end
        yield text[pos:end]
        pos = end + 1


def read_list_file(path: str, name: str) -> list[str]:
    """The numbers of a text file (separated by commas, blanks or newlines; '#' starts a comment line).

    At most MAX_LIST_VALUES values, read through :func:`dpbounds.util.io.read_text_bounded` (regular files only,
    at most 64 MiB of UTF-8): anything else is a DomainError."""
    from dpbounds.util.io import read_text_bounded
    text = read_text_bounded(path, name)
    vals: list[str] = []
    for line in _lines(text):
        if line.lstrip().startswith("#"):
            continue
        vals.extend(line.replace(",", " ").split())
        if len(vals) > MAX_LIST_VALUES:
            raise DomainError(name, path, f"a file of at most {MAX_LIST_VALUES} values", "command line",
                              "for longer streams use `dpbounds filter`/`odometer` or the API with numpy arrays")
    if not vals:
        raise DomainError(name, path, "a file with at least one number", "command line")
    return vals


def capped(entry_id: str, shown: dict[str, Any], call):
    """``call()`` under the CPU-time cap of :mod:`dpbounds.util.limits`; past it, a DomainError naming the inputs
    (exit 2, one line) instead of an evaluation that runs for minutes."""
    from dpbounds.util.limits import CPU_SECONDS, CostLimitExceeded, cpu_cap
    try:
        with cpu_cap(CPU_SECONDS):
            return call()
    except CostLimitExceeded:
        from dpbounds import spec
        try:
            theorem = spec.get(entry_id).theorem
        except (DomainError, TypeError):
            theorem = entry_id
        value = ", ".join(f"{k}={v}" for k, v in shown.items() if v is not None)
        raise DomainError("inputs", value if len(value) <= 300 else value[:297] + "...",
                          f"inputs evaluated within {CPU_SECONDS:g} CPU seconds (the cost grows with the size of "
                          "the values, the number of rounds and --digits: ask fewer digits or smaller values)",
                          theorem, "too costly: stopped at the CPU time limit") from None


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
