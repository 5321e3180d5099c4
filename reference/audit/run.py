"""Run every peer adapter and gather a table (and JSON records)."""

from __future__ import annotations

import importlib

from .common import Comparison, PeerResult

ADAPTERS = {
    "opendp": "dpbounds.audit.opendp_adapter",
    "dp_accounting": "dpbounds.audit.dp_accounting_adapter",
    "autodp": "dpbounds.audit.autodp_adapter",
    "diffprivlib": "dpbounds.audit.diffprivlib_adapter",
    "confseq": "dpbounds.audit.confseq_adapter",
}


def audit_peers(peers: list[str] | None = None, quick: bool = False) -> list[PeerResult]:
    from dpbounds.spec import DomainError
    chosen = peers or list(ADAPTERS)
    for p in chosen:
        if p not in ADAPTERS:
            raise DomainError("--peers", p, f"a subset of {sorted(ADAPTERS)}", "dpbounds audit")
    results = []
    for p in chosen:
        mod = importlib.import_module(ADAPTERS[p])
        try:
            results.append(mod.audit(quick=quick))
        except Exception as e:  # noqa: BLE001 - a peer that breaks is an 'error' row, never a crash
            r = PeerResult(p)
            r.comparisons.append(Comparison(p, "adapter", {}, "", "", "error", f"{type(e).__name__}: {e}"[:200]))
            results.append(r)
    return results


HEADERS = ["peer", "check", "inputs", "peer value", "reference", "verdict", "detail"]


def rows_of(results: list[PeerResult]) -> list[list[str]]:
    rows = []
    for r in results:
        for c in r.comparisons:
            rows.append([c.peer, c.check, ", ".join(f"{k}={v}" for k, v in c.inputs.items()), c.peer_value,
                         c.reference, c.verdict, c.detail])
    return rows


def run_audit(peers: list[str] | None = None, quick: bool = False):
    results = audit_peers(peers, quick)
    notes = [n for r in results for n in r.notes]
    return HEADERS, rows_of(results), notes


def render_markdown(results: list[PeerResult]) -> str:
    out = ["# dpbounds audit", ""]
    for r in results:
        out += [f"## {r.peer}", ""] + [f"- {n}" for n in r.notes] + [""]
        if r.comparisons:
            out.append("| " + " | ".join(HEADERS[1:]) + " |")
            out.append("|" + "---|" * (len(HEADERS) - 1))
            for row in rows_of([r]):
                out.append("| " + " | ".join(c.replace("|", "\\|") for c in row[1:]) + " |")
            out.append("")
    return "\n".join(out) + "\n"
