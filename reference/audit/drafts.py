"""``dpbounds audit --issue-drafts DIR``: per finding, a markdown draft a maintainer could paste into the peer's
issue tracker.

A draft states the versions, the input, the peer's value, the certified value (its reference, source and the width
of its enclosure), the relative gap and the finding's class, and ends with a reproducer that imports only the peer:
the audit's calls function (a few lines over the peer's public API, from ``reference/audit/peers/*_calls.py``) is
inlined, and the certified bound is printed as a literal, so the script runs where dpbounds is not installed.
Every file is written atomically (:func:`dpbounds.util.io.atomic_write_text`: never through a symlink, over a device
or a FIFO); ``DIR/README.md`` lists the drafts in the findings' order.
"""

from __future__ import annotations

import json
import platform
import re
from pathlib import Path
from typing import Any, Callable

#: what a finding's class means, in the words of a draft's title
CLASS_TITLES = {
    "claim-false": "claims more privacy than the true guarantee allows",
    "formula-departure": "departs from the formula it cites (the true guarantee is not shown violated)",
    "law-violation": "breaks a law every correct implementation obeys",
    "rounding": "departs from the certified value by float rounding",
    "unproven": "continues where no proven rule allows it",
    "error": "raises on a valid input",
}


def _slug(text: str, n: int = 60) -> str:
    s = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()
    return s[:n].rstrip("-") or "finding"


def _judgement(worst: dict[str, Any]) -> dict[str, Any] | None:
    """The judgement that makes the finding: the truth's when it fails, else the cited formula's."""
    ok = ("exact", "conservative", None)
    for role in ("truth", "formula"):
        j = worst.get(role)
        if j and j.get("verdict") not in ok:
            return j
    return worst.get("truth") or worst.get("formula")


def _claim(j: dict[str, Any], peer_value: Any) -> str:
    """'upper' (smaller claims more privacy) or 'lower' (larger does): stated by the judgement, else read from
    where the peer's value lies."""
    if j.get("claim") in ("upper", "lower"):
        return j["claim"]
    up = j.get("upper")
    if isinstance(peer_value, (int, float)) and isinstance(up, (int, float)) and peer_value > up:
        return "lower"
    return "upper"


def _width(j: dict[str, Any]) -> str:
    enc = j.get("enclosure")
    if not enc:
        return ""
    if "inf" in enc:
        return "no finite upper end"
    from fractions import Fraction
    lo, hi = Fraction(enc[0]), Fraction(enc[1])
    if hi == 0:
        return f"absolute width {float(hi - lo):.3g}"
    return f"relative width {float((hi - lo) / abs(hi)):.3g}"


def _py_literal(v: Any) -> str:
    if isinstance(v, float):
        return repr(v) if v == v and v not in (float("inf"), float("-inf")) else f"float({str(v)!r})"
    return repr(v)


def _args(inputs: dict[str, Any]) -> str:
    """The witness inputs as Python keyword arguments, numbers as the float64 a user passes (exact decimals
    rounded to nearest, as the audit called the peer)."""
    from fractions import Fraction
    out = []
    for k, v in inputs.items():
        try:
            f = float(Fraction(str(v)))
            lit = repr(int(f)) if f.is_integer() and re.fullmatch(r"-?\d+", str(v)) else repr(f)
        except (ValueError, ZeroDivisionError, OverflowError):
            lit = repr(v)
        out.append(f"{k}={lit}")
    return ", ".join(out)


def call_source(call: str) -> tuple[str, str] | None:
    """(the source of the calls module of ``call`` = "<module>:<func>", the function's name), or None when the
    module cannot be found.  The calls modules import only the peer and the standard library."""
    try:
        from dpbounds.testing.declarations import call_module_file
        path = call_module_file(call)
        return path.read_text(encoding="utf-8"), str(call).partition(":")[2]
    except Exception:  # noqa: BLE001 - a hand-written adapter has no calls module: the draft says so
        return None


def find_call(peer: str, function: str) -> str | None:
    """The ``call`` of the declaration of ``peer`` whose function is ``function`` (None: not a declarative peer)."""
    base = function.split(" (")[0]
    try:
        from dpbounds.audit.run import load_adapter
        mod = load_adapter(peer)
        decls = mod.declarations() if callable(getattr(mod, "declarations", None)) else []
    except Exception:  # noqa: BLE001
        return None
    for d in decls:
        if d.function == function and isinstance(d.call, str):
            return d.call
    for d in decls:
        if d.function.split(" (")[0] == base and isinstance(d.call, str):
            return d.call
    return None


def standalone_reproducer(finding: dict[str, Any], call: str | None) -> str:
    """Python that imports only the peer: the calls module inlined, the witness call, and the certified value as
    a literal with the check a sound value passes."""
    w = finding["worst"]
    src = call_source(call) if call else None
    if src is None:
        return ""
    module, func = src
    j = _judgement(w) or {}
    lines = [f"# {finding['peer']} {finding.get('version') or ''}: {finding['function']}".rstrip(),
             "# the wrapper below imports only the peer and the standard library", module.rstrip(), "", ""]
    inputs = dict(w.get("inputs") or {})
    if "witness" in inputs or "history" in inputs:  # a filter / odometer stream: the dpbounds reproducer says it
        return ""
    lines.append(f"value = {func}({_args(inputs)})")
    lines.append("print('peer value:', repr(value))")
    if w.get("error"):
        lines.append(f"# the audit saw: {w['error']}")
        return "\n".join(lines) + "\n"
    if j.get("decision"):
        return "\n".join(lines) + "\n"
    claim = _claim(j, w.get("peer_value"))
    enc = j.get("enclosure") or ["?", "?"]
    ref = j.get("reference", "")
    if claim == "upper":
        bound = j.get("lower")
        if bound is None:
            return "\n".join(lines) + "\n"
        lines += [f"# certified: {ref} lies in [{enc[0]}, {enc[1]}] (dpbounds, arb ball arithmetic);",
                  "# a sound upper bound is never below the float64 just below the lower end:",
                  f"CERTIFIED_LOWER = {_py_literal(bound)}",
                  "print('certified lower end:', CERTIFIED_LOWER)",
                  "print('relative gap:', (CERTIFIED_LOWER - value) / abs(CERTIFIED_LOWER) if CERTIFIED_LOWER else "
                  "CERTIFIED_LOWER - value)",
                  "assert value >= CERTIFIED_LOWER, 'claims more privacy than the certified value allows'"]
    else:
        bound = j.get("upper")
        if bound is None:
            return "\n".join(lines) + "\n"
        lines += [f"# certified: {ref} lies in [{enc[0]}, {enc[1]}] (dpbounds, arb ball arithmetic);",
                  "# a sound value of this (larger-is-more-privacy) quantity is never above the float64 just above "
                  "the upper end:",
                  f"CERTIFIED_UPPER = {_py_literal(bound)}",
                  "print('certified upper end:', CERTIFIED_UPPER)",
                  "print('relative gap:', (value - CERTIFIED_UPPER) / abs(CERTIFIED_UPPER) if CERTIFIED_UPPER else "
                  "value - CERTIFIED_UPPER)",
                  "assert value <= CERTIFIED_UPPER, 'claims more privacy than the certified value allows'"]
    return "\n".join(lines) + "\n"


def draft_markdown(finding: dict[str, Any], *, dpbounds_version: str = "", spec_version: str = "",
                   call: str | None = None) -> str:
    """The draft of one finding (a dict of :func:`dpbounds.audit.run.findings`)."""
    w = finding["worst"]
    cls = finding.get("class") or ""
    j = _judgement(w) or {}
    peer, version = finding["peer"], finding.get("version") or "(version unknown)"
    title = f"`{finding['function']}` {CLASS_TITLES.get(cls, finding['verdict'])}"
    out = [f"# {title}", "",
           f"*Draft written by `dpbounds audit --issue-drafts` (class: {cls or finding['verdict']}, verdict: "
           f"{finding['verdict']}); please check it before filing.*", "",
           "## Versions", "",
           f"- {peer} {version}",
           f"- Python {platform.python_version()} ({platform.system()} {platform.machine()})",
           f"- found by dpbounds {dpbounds_version} (spec {spec_version[:16]})".rstrip(), "",
           "## Input", ""]
    inputs = w.get("inputs") or {}
    out += [f"- `{k}` = `{v}`" for k, v in inputs.items()] or ["- (none)"]
    out += ["", "## What it returns", ""]
    if w.get("error"):
        out += [f"It raises `{w['error']}` on this input, which lies inside its documented domain.", ""]
    else:
        out += [f"`{w.get('peer_output') or w.get('peer_value')!s}`", ""]
    if j:
        out += ["## The certified value", ""]
        desc = j.get("description") or ""
        out.append(f"- reference: `{j.get('reference', '')}`" + (f" -- {desc}" if desc else ""))
        if j.get("enclosure"):
            out.append(f"- certified enclosure: [{j['enclosure'][0]}, {j['enclosure'][1]}] ({_width(j)})")
        if j.get("decision"):
            out.append(f"- certified decision: {j['decision']}")
        gap = (j.get("gap") or {})
        rel = finding.get("relative_gap", gap.get("relative"))
        if rel is not None:
            out.append(f"- relative gap: {rel:.3g}" + (f" ({gap['ulps']} ulp(s))" if gap.get("ulps") and rel < 1e-6
                                                       else ""))
        if j.get("detail"):
            out.append(f"- {j['detail']}")
        out.append("")
        if cls == "formula-departure":
            out += ["This value lies below the formula the function cites; the true privacy guarantee is not "
                    "shown to be violated, but the code does not compute what its documentation says.", ""]
        elif cls == "claim-false":
            out += ["The certified value is a lower bound on the true privacy loss of the mechanism: a smaller "
                    "reported value claims a privacy guarantee that does not hold.", ""]
    n = finding.get("failing")
    if n:
        out += [f"{n} of {finding.get('of', n)} comparisons of this function fail in the audit"
                + (f"; the simplest failing input (shrunk): {json.dumps(finding['shrunk'])}"
                   if finding.get("shrunk") else "") + ".", ""]
    repro = standalone_reproducer(finding, call)
    out += ["## Reproducer", ""]
    if repro:
        out += [f"Runs with only {peer} installed (the certified value is a literal):", "", "```python",
                repro.rstrip(), "```", ""]
    elif w.get("reproducer"):
        out += ["(This check has no standalone form; the dpbounds reproducer recomputes the certified value.)", "",
                "```python", str(w["reproducer"]).rstrip(), "```", ""]
    return "\n".join(out) + "\n"


#: the first line of the index dpbounds writes into an --issue-drafts directory
_INDEX_HEAD = "# Issue drafts\n\nOne draft per finding of `dpbounds audit`"
_LINK = re.compile(r"\]\(([0-9]{3}-[A-Za-z0-9_.-]+\.md)\)")


def owned_drafts(directory: str | Path) -> list[Path] | None:
    """The drafts an earlier ``--issue-drafts`` run wrote into ``directory`` (empty when it is absent or empty), or
    None when something in it was not written by dpbounds: its ``README.md`` must be a regular file that starts
    with dpbounds' index heading and every other entry a regular file that index links to.  Nothing else in a
    directory is ever replaced or removed."""
    import os
    import stat
    d = Path(directory)
    try:
        names = os.listdir(d)
    except FileNotFoundError:
        return []
    except NotADirectoryError:
        return None
    if not names:
        return []
    try:
        st = os.lstat(d / "README.md")
        if not stat.S_ISREG(st.st_mode) or st.st_size > 1 << 22:
            return None
        index = (d / "README.md").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    if not index.startswith(_INDEX_HEAD):
        return None
    listed = set(_LINK.findall(index))
    drafts = []
    for n in names:
        if n == "README.md":
            continue
        if n not in listed or not stat.S_ISREG(os.lstat(d / n).st_mode):
            return None
        drafts.append(d / n)
    return drafts


def check_drafts_target(directory: str | Path) -> None:
    """DomainError unless ``directory`` may receive issue drafts: absent, empty, or written by dpbounds before
    (:func:`owned_drafts`)."""
    from dpbounds.spec import DomainError
    if owned_drafts(directory) is None:
        raise DomainError("--issue-drafts", str(directory), "a new or empty directory, or one an earlier "
                          "--issue-drafts wrote (its README.md links every file present)", "output directory",
                          "it holds files dpbounds did not write: nothing there is replaced")


def write_issue_drafts(doc: dict[str, Any], directory: str | Path,
                       find: Callable[[str, str], str | None] = find_call) -> list[Path]:
    """One draft per finding of the audit document ``doc`` (:func:`dpbounds.audit.run.document`) into
    ``directory`` (created if absent), plus ``README.md`` listing them in the findings' order; returns the paths.
    ``find(peer, function)``: the declaration's ``call`` for the standalone reproducer."""
    import os

    from dpbounds.util.io import atomic_write_text, ensure_output_dir
    check_drafts_target(directory)
    d = ensure_output_dir(directory, "--issue-drafts")
    for old in owned_drafts(d) or []:  # the drafts of an earlier run: ours, replaced by this run's
        os.unlink(old)
    paths: list[Path] = []
    version = doc.get("dpbounds_version", "")
    index = ["# Issue drafts", "", f"One draft per finding of `dpbounds audit` (dpbounds {version}),"
             " in the findings' order: privacy claim false first (by relative gap), then departures from the cited "
             "formula, then rounding, then errors.", ""]
    for i, f in enumerate(doc.get("findings") or [], 1):
        call = f["worst"].get("call") or find(f["peer"], f["function"])
        text = draft_markdown(f, dpbounds_version=str(doc.get("dpbounds_version", "")),
                              spec_version=str(doc.get("spec_version", "")), call=call)
        name = f"{i:03d}-{_slug(f['peer'], 24)}-{_slug(f['function'])}.md"
        atomic_write_text(d / name, text, "--issue-drafts")
        paths.append(d / name)
        gap = f.get("relative_gap")
        index.append(f"{i}. [{f['peer']} `{f['function']}`]({name}): {f.get('class') or f['verdict']}"
                     + (f", relative gap {gap:.3g}" if isinstance(gap, (int, float)) else ""))
    atomic_write_text(d / "README.md", "\n".join(index) + "\n", "--issue-drafts")
    return paths


__all__ = ["draft_markdown", "standalone_reproducer", "write_issue_drafts"]
