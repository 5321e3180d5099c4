"""Coverage of each audited peer's public accounting surface: which of its public functions and methods returning a
privacy quantity are declared (audited), and why the others are not.

The surface is data in the peer's package, ``reference/audit/peers/<peer>/surface.json``, listed by introspection in the peer's own interpreter
(``tools/surface.py``) and kept with a reason for every entry not declared::

    [{"name": "opacus.accountants.analysis.rdp.compute_rdp", "key": "compute_rdp", "kind": "function",
      "reason": ""}, ...]

``reason`` starts with one of :data:`REASONS` (the rest says what is missing).  Whether an entry is declared is
decided now, from the peer's current declarations (an entry's ``key`` -- ``func`` or ``Class.method`` -- named by a
declaration's ``function``, or listed in the entry's ``declared_by``), so that declaring a function moves it to
``declared`` without editing the data.  Entries whose reason is ``not a privacy quantity`` are outside the accounting
surface (a noise distribution's cdf, plotting, an optimizer step)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterable

DIR = Path(__file__).resolve().parent / "peers"
#: the reasons an entry is not declared
REASONS = ("not a privacy quantity", "no reference yet", "needs a model", "covered by")


def surface(peer: str) -> list[dict[str, Any]] | None:
    """The peer's surface data, or None when it has none."""
    f = DIR / peer / "surface.json"
    if not f.is_file():
        return None
    return json.loads(f.read_text())


def _keys(function: str) -> set[str]:
    """The ``func`` / ``Class.method`` names a declaration's ``function`` text mentions."""
    text = function
    while True:  # drop argument lists, innermost first: Class(Arg(...)).method -> Class.method
        new = re.sub(r"\([^()]*\)", "", text)
        if new == text:
            break
        text = new
    text = re.sub(r"\[[^\]]*\]", "", text)
    out: set[str] = set()
    for tok in re.findall(r"[A-Za-z_][A-Za-z0-9_.]*", text):
        parts = [p for p in tok.split(".") if p]
        if parts:
            out.add(parts[-1])
        if len(parts) >= 2:
            out.add(".".join(parts[-2:]))
    return out


def coverage(peer: str, functions: Iterable[str]) -> dict[str, Any] | None:
    """``{"public": n, "declared": m, "fraction": m / n, "not_declared": [{"name", "reason"}], "outside": k}`` for
    the peer's accounting surface (entries not 'not a privacy quantity'), given its declarations' ``function``s."""
    data = surface(peer)
    if data is None:
        return None
    named: set[str] = set()
    for f in functions:
        named |= _keys(f)
    public = declared = outside = 0
    missing = []
    for e in data:
        reason = e.get("reason", "")
        is_declared = e["key"] in named or bool(e.get("declared_by"))
        if not is_declared and reason.startswith("not a privacy quantity"):
            outside += 1
            continue
        public += 1
        if is_declared:
            declared += 1
        else:
            missing.append({"name": e["name"], "reason": reason or "no reference yet"})
    return {"public": public, "declared": declared, "fraction": round(declared / public, 4) if public else None,
            "not_declared": missing, "outside": outside}
