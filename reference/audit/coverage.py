"""Coverage of each audited peer's public accounting surface: which of its public functions and methods returning a
privacy quantity are declared (audited), and why the others are not.

The surface is data in the peer's package, ``reference/audit/peers/<peer>/surface.json``, listed by introspection in the peer's own interpreter
(``tools/surface.py``) and kept with a reason for every entry not declared::

    [{"name": "opacus.accountants.analysis.rdp.compute_rdp", "key": "compute_rdp", "kind": "function",
      "reason": ""}, ...]

``reason`` starts with one of :data:`REASONS` (the rest says what is missing).  Whether an entry is declared is
decided now, from the peer's current declarations (an entry named by a declaration's ``function``: its ``key`` --
``func`` or ``Class.method`` -- with the entry's module or a part of it, :func:`names_entry`; or an entry with a
``declared_by``), so that declaring a function moves it to
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


def _names(function: str) -> list[tuple[str, ...]]:
    """The dotted names a declaration's ``function`` text mentions, as tuples of their parts, argument lists and
    ``[..]`` tags dropped: ``"prv_accountant.PRVAccountant(Mech(q)).compute_epsilon [upper]"`` ->
    ``[("prv_accountant", "PRVAccountant", "compute_epsilon")]``."""
    text = function
    while True:  # drop argument lists, innermost first: Class(Arg(...)).method -> Class.method
        new = re.sub(r"\([^()]*\)", "", text)
        if new == text:
            break
        text = new
    text = re.sub(r"\[[^\]]*\]", "", text)
    out = []
    for tok in re.findall(r"[A-Za-z_][A-Za-z0-9_.]*", text):
        parts = tuple(p for p in tok.split(".") if p)
        if parts:
            out.append(parts)
    return out


def _keys(function: str) -> set[str]:
    """The ``func`` / ``Class.method`` names a declaration's ``function`` text mentions (its names' last one and
    two parts)."""
    out: set[str] = set()
    for parts in _names(function):
        out.add(parts[-1])
        if len(parts) >= 2:
            out.add(".".join(parts[-2:]))
    return out


def _subsequence(short: tuple[str, ...], long: tuple[str, ...]) -> bool:
    it = iter(long)
    return all(p in it for p in short)


def names_entry(parts: tuple[str, ...], entry: dict[str, Any], ambiguous: bool) -> bool:
    """Whether a declaration's dotted name ``parts`` names the surface ``entry``: it ends with the entry's ``key``
    and what it says before the key is the entry's module path or a part of it, in order (a re-export from a parent
    package, ``riskcal.analysis.get_beta_from_rdp`` for ``riskcal.analysis.conversions.get_beta_from_rdp``; a module
    named alone, ``compute_dp_sgd_privacy_lib.compute_dp_sgd_privacy``).  A name without a module part (``+
    make_privacy_filter``) names the entry only when no other entry of the peer has its key (``ambiguous``)."""
    key = tuple(entry["key"].split("."))
    if len(parts) < len(key) or parts[-len(key):] != key:
        return False
    before = parts[:-len(key)]
    if not before:
        return not ambiguous
    module = tuple(entry["name"].split("."))[:-len(key)]
    return _subsequence(before, module)


def coverage(peer: str, functions: Iterable[str]) -> dict[str, Any] | None:
    """``{"public": n, "declared": m, "fraction": m / n, "not_declared": [{"name", "reason"}], "outside": k}`` for
    the peer's accounting surface (entries not 'not a privacy quantity'), given its declarations' ``function``s."""
    data = surface(peer)
    if data is None:
        return None
    names = {parts for f in functions for parts in _names(f)}
    count: dict[str, int] = {}
    for e in data:
        count[e["key"]] = count.get(e["key"], 0) + 1
    public = declared = outside = 0
    missing = []
    for e in data:
        reason = e.get("reason", "")
        is_declared = bool(e.get("declared_by")) or any(names_entry(n, e, count[e["key"]] > 1) for n in names)
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
