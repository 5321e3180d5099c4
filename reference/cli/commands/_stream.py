"""Per-round streams for filter/odometer in constant memory: reading (CSV with a header naming columns eps, delta
and/or rho) one row at a time, and writing one output row at a time (text lines, or JSON whose ``rounds`` array is
written element by element, so nothing grows with the number of rounds)."""

from __future__ import annotations

import csv
import json
import sys
from typing import Iterator

from dpbounds.spec import DomainError, parse_exact

ALLOWED = ("eps", "delta", "rho")


def read_rounds(stream=None, allowed: tuple[str, ...] = ALLOWED) -> Iterator[dict[str, str]]:
    """Yield one dict per data row (columns among ``allowed``); malformed rows raise DomainError naming the row.  Lines are read through
    :func:`dpbounds.util.io.bounded_lines` (a line at a time, each bounded: ``/dev/zero`` or a 128 KiB field is a
    DomainError, not a memory exhaustion or a csv error)."""
    from dpbounds.util.io import bounded_lines
    lines = bounded_lines(stream or sys.stdin, "stdin")
    reader = csv.reader(line for line in lines if line.strip() and not line.lstrip().startswith("#"))
    try:
        header = next(reader)
    except StopIteration:
        return
    except csv.Error as e:
        raise DomainError("header", "<line 1>", "a CSV header line", "stream input", str(e)) from None
    header = [h.strip() for h in header]
    if not header or any(h not in allowed for h in header) or len(set(header)) != len(header):
        raise DomainError("header", ",".join(header), f"a CSV header with columns among {', '.join(allowed)}",
                          "stream input")
    for i, row in enumerate(_rows(reader), start=1):
        if len(row) != len(header):
            raise DomainError(f"row {i}", ",".join(row), f"{len(header)} comma-separated values ({','.join(header)})",
                              "stream input")
        rec = {}
        for h, v in zip(header, row):
            v = v.strip()
            parse_exact(f"{h} (row {i})", v, "stream input")  # validate now: the message names the row
            rec[h] = v
        yield rec


def _rows(reader) -> Iterator[list[str]]:
    """The reader's rows, a csv.Error (a field over the csv module's limit, a stray quote) as a DomainError."""
    i = 0
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as e:
            raise DomainError(f"row {i + 1}", "<unreadable>", "comma-separated values", "stream input", str(e)) from None
        i += 1
        yield row


class RowWriter:
    """Writes rows as they come: text lines (``text_of(row)``) or one JSON object ``{**head, "rounds": [...],
    **tail}`` whose array is streamed (the same document a consumer parsed before, built without holding it)."""

    def __init__(self, out, fmt: str, head: dict, text_of) -> None:
        from dpbounds.cli.commands import jsonable
        self._jsonable = jsonable
        self.out, self.fmt, self.text_of, self.n = out, fmt, text_of, 0
        self._closed = False
        if fmt == "json":
            body = json.dumps(jsonable(head), allow_nan=False, default=str)
            out.write(body[:-1] + (", " if head else "") + '"rounds": [')

    def row(self, row: dict) -> None:
        if self.fmt == "json":
            self.out.write(("," if self.n else "") + "\n  " + json.dumps(self._jsonable(row), allow_nan=False,
                                                                         default=str))
        else:
            self.out.write(self.text_of(row) + "\n")
            self.out.flush()  # a caller waits for CONT before running the round
        self.n += 1

    def abort(self, error: BaseException) -> None:
        """End a JSON document begun by __init__ when a later row fails (a bad row, an interrupt): the rounds
        written so far and ``"error": ...``, so stdout is still one complete JSON document (the command then exits
        with the error's status and its one line on stderr).  Text rows need no closing."""
        if self.fmt == "json" and not self._closed:
            msg = " ".join(str(error).split()) or type(error).__name__
            self.close({"error": msg[:2000]})

    def close(self, tail: dict) -> None:
        self._closed = True
        if self.fmt == "json":
            rest = json.dumps(self._jsonable(tail), allow_nan=False, default=str)[1:]
            self.out.write(("\n" if self.n else "") + "]" + (", " + rest if tail else "}") + "\n")
        self.out.flush()
