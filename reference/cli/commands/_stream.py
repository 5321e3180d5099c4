"""Reading per-round streams (CSV with a header naming columns eps, delta and/or rho) for filter/odometer."""

from __future__ import annotations

import csv
import sys
from typing import Iterator

from dpbounds.spec import DomainError, parse_exact

ALLOWED = ("eps", "delta", "rho")


def read_rounds(stream=None) -> Iterator[dict[str, str]]:
    """Yield one dict per data row; malformed rows raise DomainError naming the row."""
    stream = stream or sys.stdin
    reader = csv.reader(line for line in stream if line.strip() and not line.lstrip().startswith("#"))
    try:
        header = next(reader)
    except StopIteration:
        return
    header = [h.strip() for h in header]
    if not header or any(h not in ALLOWED for h in header) or len(set(header)) != len(header):
        raise DomainError("header", ",".join(header), f"a CSV header with columns among {', '.join(ALLOWED)}",
                          "stream input")
    for i, row in enumerate(reader, start=1):
        if len(row) != len(header):
            raise DomainError(f"row {i}", ",".join(row), f"{len(header)} comma-separated values ({','.join(header)})",
                              "stream input")
        rec = {}
        for h, v in zip(header, row):
            v = v.strip()
            parse_exact(f"{h} (row {i})", v, "stream input")  # validate now: the message names the row
            rec[h] = v
        yield rec
