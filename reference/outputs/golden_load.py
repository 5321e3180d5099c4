"""Reading golden vectors back: the one function a consumer's test suite needs (typed; no generation code), and the
bounded, untrusting readers that ``dpbounds golden --check`` shares with it.

Nothing here trusts the file it reads: only a regular file is opened (a symlink, FIFO, device or directory is
refused before a byte is read, so nothing hangs on a FIFO or reads /dev/zero), at most :data:`MAX_FILE_BYTES`;
it must be UTF-8; each line at most :data:`MAX_LINE_CHARS`, nested at most :data:`MAX_DEPTH` deep, with no
repeated key, no NaN/Infinity and no integer longer than :data:`MAX_INT_DIGITS` digits.  Every refusal is a
:class:`GoldenInputError` (a ValueError) with a one-line reason naming the file and line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dpbounds.util.io import unique_keys, read_bytes_bounded
from dpbounds.spec import DomainError

#: the largest golden file read (a --grid dense tree's largest file is a few MiB)
MAX_FILE_BYTES = 256 << 20
#: the longest JSON Lines record (a record with 1000 digits and its enclosure is about 4 KiB)
MAX_LINE_CHARS = 64 << 10
#: JSON nesting of a record (ours is 2; brackets inside strings count too, so leave room)
MAX_DEPTH = 32
#: digits of a JSON integer (ours are digit counts and round numbers)
MAX_INT_DIGITS = 100


class GoldenInputError(ValueError):
    """A golden file or record that cannot be read as one (one-line reason)."""


def read_regular_bytes(path: str | Path, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file ``path`` (not a symlink; at most ``max_bytes``); GoldenInputError otherwise.

    The type is checked with lstat before the file is opened, and again on the open descriptor (O_NOFOLLOW,
    O_NONBLOCK: a file swapped for a link or FIFO in between is refused, never followed or waited on)."""

    try:
        return read_bytes_bounded(path, str(path), max_bytes, follow_symlinks=False)
    except DomainError as e:
        raise GoldenInputError(f"{path}: {e.reason or e.domain}") from None


def decode_text(data: bytes, where: str) -> str:
    """``data`` as UTF-8 text without NUL characters; GoldenInputError otherwise."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise GoldenInputError(f"{where}: invalid UTF-8 at byte {e.start}") from None
    if "\0" in text:
        raise GoldenInputError(f"{where}: a NUL character (a binary file?)")
    return text


def _int(s: str) -> int:
    if len(s.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"an integer of {len(s)} digits")
    return int(s)


def _constant(s: str) -> Any:
    raise ValueError(f"{s} is not JSON")


def parse_json(text: str, where: str, max_chars: int = MAX_LINE_CHARS) -> Any:
    """One JSON document (a record or a manifest), bounded: length, nesting, integers; no repeated key, no NaN."""
    if len(text) > max_chars:
        raise GoldenInputError(f"{where}: {len(text)} characters (at most {max_chars})")
    depth = deepest = 0
    for ch in text:  # before json recurses (a bracket inside a string only over-counts)
        if ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:
                    raise GoldenInputError(f"{where}: JSON nested deeper than {MAX_DEPTH}")
        elif ch in "]}":
            depth -= 1
    try:
        return json.loads(text, object_pairs_hook=unique_keys, parse_int=_int, parse_constant=_constant)
    except (ValueError, RecursionError) as e:
        raise GoldenInputError(f"{where}: not valid JSON ({str(e)[:120]})") from None


def records_of(text: str, where: str) -> list[dict[str, Any]]:
    """The records of a JSON Lines text (blank lines skipped); each must be a JSON object."""
    out = []
    for i, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        rec = parse_json(line, f"{where}:{i}")
        if not isinstance(rec, dict):
            raise GoldenInputError(f"{where}:{i}: not a JSON object")
        out.append(rec)
    return out


def load_golden(path: str | Path) -> list[dict[str, Any]]:
    """The records of one JSON Lines file of golden vectors, in file order (for consumers' test suites).

    The file is read untrustingly (see the module docstring): a symlink, FIFO, device, oversized file, invalid
    UTF-8, an over-long or deeply nested line, a repeated key or a line that is not a JSON object raises
    :class:`GoldenInputError` (a ValueError) naming the file and line.  Generate a tree first with
    ``dpbounds golden --out vectors/`` and verify it with ``dpbounds golden --check vectors/``.  A path that is not
    a str or os.PathLike (an int would be an open file descriptor to the OS) raises TypeError."""
    from dpbounds.util.io import path_arg
    path_arg(path, "path")
    return records_of(decode_text(read_regular_bytes(path), str(path)), str(path))
