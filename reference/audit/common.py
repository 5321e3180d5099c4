"""Shared pieces of the peer audit: the adapter protocol, comparison records and their strict classification.

The adapter protocol (also for adapters outside this repository, loaded with ``dpbounds audit --adapter
my_package.my_adapter``): a module with

* ``PEER: str`` -- the peer's name as shown in the audit;
* ``DIST: str`` (optional) -- its distribution name on PyPI, for the version (default: ``PEER``);
* ``audit(quick: bool = False) -> PeerResult`` -- runs the comparisons; it must not raise for a missing peer
  (return a :class:`PeerResult` with ``status="skipped"`` and the reason) and should not raise at all
  (a raising adapter is reported as an ``error`` row, never a crash of the audit).

Each :class:`Comparison` is judged against up to two references, stated separately:

(a) ``formula`` -- the formula or theorem the peer implements or cites: is the code a faithful implementation?
(b) ``truth`` -- the true guarantee, where this project can compute it (the exact privacy curve of the audited
    mechanism, the exact optimum of fixed-parameter composition, the exact engine): is the privacy claim false?

A peer can be wrong against (a) and still safe against (b).  Verdicts for a claimed upper bound (smaller claims
more privacy), against a certified enclosure [lo, hi] of the reference value:

* ``exact``            -- lo <= peer <= the smallest float64 >= hi (inside the enclosure, up to the one upward
                          rounding a sound float64 implementation must make);
* ``conservative``     -- above that: sound, looser by the reported ratio;
* ``unsound-rounding`` -- below lo by at most 4 ulps: an under-report within float rounding -- still unsound;
* ``unsound``          -- below lo by more: it claims more privacy than the reference proves;
  (for a larger-is-more-privacy claim, such as the largest budget a conversion admits, :func:`judge_lower`
  mirrors these: exact from the float64 below lo up to hi, conservative below, unsound above hi);
* ``unproven``         -- (decisions) the peer continues where a *different* theorem's rule halts: not a
                          violation of the peer's own theorem, but nothing in this project proves the round valid;
* ``error``            -- the peer raised on valid input; ``skipped`` -- the peer is not installed.
"""

from __future__ import annotations

import importlib.util
import math
import struct
import sys
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

#: verdicts that mean "the peer claims more privacy than the reference proves"
UNSOUND = ("unsound", "unsound-rounding")
#: every verdict, most severe first
VERDICTS = ("unsound", "unsound-rounding", "unproven", "error", "conservative", "exact", "skipped")
#: an under-report of at most this many ulps is labelled unsound-rounding (still unsound)
ROUNDING_ULPS = 4


def available(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def version_of(dist: str) -> str:
    """The installed version of a distribution, or "" when it is not installed."""
    import importlib.metadata as md
    try:
        return md.version(dist)
    except md.PackageNotFoundError:
        return ""


def _ordered(x: float) -> int:
    """float64 -> integer, monotone in x (adjacent floats differ by 1; -0.0 and 0.0 both map to 0)."""
    (i,) = struct.unpack("<q", struct.pack("<d", x))
    return i if i >= 0 else -(i & 0x7FFFFFFFFFFFFFFF)


def _float_near(q: Fraction) -> float:
    """float(q), or +-inf where q is beyond float64's range (float() of such a Fraction raises OverflowError)."""
    try:
        return float(q)
    except OverflowError:
        return math.inf if q > 0 else -math.inf


def _float_up(q: Fraction) -> float:
    """The smallest float64 >= q (+inf above the range)."""
    f = _float_near(q)
    if not math.isfinite(f):
        return f if f > 0 else -sys.float_info.max
    return f if Fraction(f) >= q else math.nextafter(f, math.inf)


def _float_down(q: Fraction) -> float:
    """The largest float64 <= q (-inf below the range)."""
    f = _float_near(q)
    if not math.isfinite(f):
        return f if f < 0 else sys.float_info.max
    return f if Fraction(f) <= q else math.nextafter(f, -math.inf)


def _dec(q: Fraction, rounding: str) -> str:
    """25 significant digits, rounded outward ('floor' for a lower end, 'ceiling' for an upper end)."""
    from dpbounds.evaluation.evaluate import decimal_str
    return decimal_str(q, 25, rounding)


@dataclass
class Judgement:
    """One reference's verdict on one peer value."""

    role: str                       # "formula" (a) or "truth" (b)
    reference: str                  # spec id or engine, e.g. "conversions.cks20"
    description: str                # what the reference is, in words
    verdict: str
    lo: Fraction | None = None      # certified enclosure of the reference value (None for decisions)
    hi: Fraction | None = None
    decision: str | None = None     # for decisions: the reference's CONT/HALT
    ratio: float | None = None      # peer / reference (conservative or unsound)
    gap_rel: float | None = None    # (lo - peer) / lo when below
    gap_ulps: int | None = None     # float64 steps from the peer's value up to lo when below
    detail: str = ""
    claim: str = "upper"            # "upper" (judge_upper: smaller claims more privacy) or "lower" (judge_lower)

    def as_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"role": self.role, "reference": self.reference, "description": self.description,
                             "verdict": self.verdict}
        if self.lo is not None and self.hi is not None:
            d["enclosure"] = [_dec(self.lo, "floor"), _dec(self.hi, "ceiling")]  # outward: contains [lo, hi]
            d["lower"] = _finite_or_none(_float_down(self.lo))  # null: beyond float64 (the enclosure says where)
            d["upper"] = _finite_or_none(_float_up(self.hi))
        if self.decision is not None:
            d["decision"] = self.decision
        d["ratio"] = _finite_or_none(self.ratio)
        d["gap"] = None if self.gap_rel is None else {"relative": _finite_or_none(self.gap_rel),
                                                      "ulps": self.gap_ulps}
        d["detail"] = self.detail
        return d

    def short(self) -> str:
        if self.decision is not None:
            return self.decision
        if self.lo is None or self.hi is None:
            return ""
        return f"[{_float_near(self.lo):.17g}, {_float_near(self.hi):.17g}]"


def _ratio(a: Fraction, b: Fraction) -> float:
    """a / b as a float, +-inf when it overflows (b > 0); exact until the one rounding."""
    return _float_near(a / b)


def _finite_or_none(x: float | None) -> float | None:
    return x if x is not None and math.isfinite(x) else None


def _gap_text(j: Judgement) -> str:
    """'3 ulp(s), relative 4.1e-16'; only the relative gap beyond 1e-6 (a count of ulps says nothing there)."""
    rel = j.gap_rel if j.gap_rel is not None else math.inf
    return f"{j.gap_ulps} ulp(s), relative {rel:.3g}" if rel < 1e-6 else f"a relative {rel:.3g}"


def judge_upper(peer_value: float, lo: Fraction, hi: Fraction, *, role: str, reference: str,
                description: str) -> Judgement:
    """Strictly classify a peer's claimed upper bound (smaller = more privacy) against the certified [lo, hi].

    No tolerance: a value below ``lo`` is unsound however small the gap (``unsound-rounding`` when it is
    within :data:`ROUNDING_ULPS` float64 steps)."""
    j = Judgement(role, reference, description, "exact", lo, hi)
    if not isinstance(peer_value, float) or math.isnan(peer_value):
        j.verdict, j.detail = "error", f"the peer returned {peer_value!r}, not a number"
        return j
    if peer_value == math.inf:
        j.verdict, j.ratio, j.detail = "conservative", math.inf, "the peer returned +inf (no guarantee claimed)"
        return j
    pv = Fraction(peer_value)
    up = _float_up(hi)
    up_q = Fraction(up) if math.isfinite(up) else None  # None: hi is beyond float64, above every finite value
    if lo <= pv and (up_q is None or pv <= up_q):
        j.detail = ("inside the certified enclosure" if pv <= hi else
                    "the certified upper end rounded up to float64 (the sound float answer)")
        return j
    if up_q is not None and pv > up_q:
        j.verdict = "conservative"
        j.ratio = _ratio(pv, hi) if hi > 0 else math.inf
        above = _ordered(peer_value) - _ordered(up)
        if hi == 0:
            j.detail = "sound (the reference value is 0)"
        elif j.ratio < 1 + 1e-9:
            j.detail = f"sound, {above} ulp(s) above the certified upper end rounded up (relative {j.ratio - 1:.2g})"
        else:
            j.detail = f"sound, looser by a factor {j.ratio:.6g}"
        return j
    ulps = _ordered(_float_up(lo)) - _ordered(peer_value)
    j.gap_ulps = max(ulps, 1)
    j.gap_rel = _ratio(lo - pv, abs(lo)) if lo != 0 else math.inf
    j.ratio = _ratio(pv, lo) if lo > 0 else None
    j.verdict = "unsound-rounding" if j.gap_ulps <= ROUNDING_ULPS else "unsound"
    j.detail = (f"below the certified lower end {_float_near(lo):.17g} by {_gap_text(j)}: claims more privacy than "
                f"{reference} proves")
    return j


def judge_lower(peer_value: float, lo: Fraction, hi: Fraction, *, role: str, reference: str,
                description: str) -> Judgement:
    """Strictly classify a peer's claimed lower bound of a larger-is-more-privacy quantity (e.g. the largest budget
    rho it admits for a target (eps, delta)) against the certified [lo, hi]: the mirror of :func:`judge_upper`.

    ``exact`` from the largest float64 <= lo up to hi; ``conservative`` below; above hi ``unsound`` (or
    ``unsound-rounding`` within :data:`ROUNDING_ULPS` float64 steps): it admits more than the reference proves."""
    j = Judgement(role, reference, description, "exact", lo, hi, claim="lower")
    if not isinstance(peer_value, float) or math.isnan(peer_value) or peer_value == math.inf:
        j.verdict, j.detail = "error", f"the peer returned {peer_value!r}, not a finite number"
        return j
    pv = Fraction(peer_value)
    down = _float_down(lo)
    down_q = Fraction(down) if math.isfinite(down) else None  # None: lo is below float64's range
    if (down_q is None or down_q <= pv) and pv <= hi:
        j.detail = ("inside the certified enclosure" if pv >= lo else
                    "the certified lower end rounded down to float64 (the sound float answer)")
        return j
    if down_q is not None and pv < down_q:
        j.verdict = "conservative"
        j.ratio = _ratio(pv, lo) if lo > 0 else None
        j.detail = (f"sound, smaller by a factor {j.ratio:.6g}" if j.ratio is not None else "sound")
        return j
    ulps = _ordered(peer_value) - _ordered(_float_down(hi))
    j.gap_ulps = max(ulps, 1)
    j.gap_rel = _ratio(pv - hi, abs(hi)) if hi != 0 else math.inf
    j.ratio = _ratio(pv, hi) if hi > 0 else None
    j.verdict = "unsound-rounding" if j.gap_ulps <= ROUNDING_ULPS else "unsound"
    j.detail = f"above the certified upper end {_float_near(hi):.17g} by {_gap_text(j)}: admits more than {reference} proves"
    return j


def judge_decision(peer_cont: bool, ref_cont: bool, *, same_theorem: bool, role: str, reference: str,
                   description: str) -> Judgement:
    """A peer filter's CONT/HALT against the reference filter's certified decision on the same history.

    CONT where the reference proves HALT is ``unsound`` only when the reference rule is the same theorem the
    peer claims; under another theorem it is ``unproven``."""
    ref = "CONT" if ref_cont else "HALT"
    j = Judgement(role, reference, description, "exact", decision=ref)
    if peer_cont == ref_cont:
        j.detail = "same decision"
    elif ref_cont:
        j.verdict, j.detail = "conservative", "the peer halts where the reference continues"
    elif same_theorem:
        j.verdict, j.detail = "unsound", f"the peer continues where {reference} (the theorem it implements) halts"
    else:
        j.verdict = "unproven"
        j.detail = (f"the peer continues where {reference} halts; {reference} is not the theorem the peer cites, "
                    "so this is not a proven violation, but no result here proves the round valid")
    return j


def judge_bound(peer_value: float, bound: Fraction, *, role: str, reference: str, description: str) -> Judgement:
    """A peer's claimed upper bound against a value the claim must not go below (e.g. the exact delta of an
    adaptive interaction found by an adversary): unsound when the bound is above the claim."""
    return judge_upper(peer_value, bound, bound, role=role, reference=reference, description=description)


def rejudge(result: "PeerResult") -> "PeerResult":
    """``result`` with every verdict recomputed from its numbers (an adapter's own verdict is never trusted).

    A numeric judgement is judged again from the peer's value and the certified [lo, hi] in its claim direction
    (:func:`judge_upper` or :func:`judge_lower`), and keeps the adapter's verdict only where that one is more
    severe (an adapter may flag a value, never clear it); a decision judgement keeps its verdict only when it is one of
    :data:`VERDICTS` and agrees with the two decisions it records (the peer's CONT/HALT in ``peer_output``);
    anything else -- a judgement without numbers, a value that is not a float, an unknown verdict -- is an
    ``error``.  Raises TypeError on a malformed result (the caller turns it into an ``error`` row)."""
    if not isinstance(result.comparisons, list) or not all(isinstance(c, Comparison) for c in result.comparisons):
        raise TypeError("comparisons must be a list of Comparison")
    if not isinstance(result.peer, str) or not isinstance(result.version, str):
        raise TypeError("peer and version must be strings")
    result.notes = [str(n) for n in result.notes] if isinstance(result.notes, list) else []
    result.functions = [str(f) for f in result.functions] if isinstance(result.functions, list) else []
    for c in result.comparisons:
        c.inputs = {str(k): str(v) for k, v in c.inputs.items()} if isinstance(c.inputs, dict) else {}
        c.peer, c.function, c.check = str(c.peer), str(c.function), str(c.check)
        c.error = str(c.error) if c.error else ""
        c.peer_output, c.reproducer = str(c.peer_output or ""), str(c.reproducer or "")
        for attr in ("formula", "truth"):
            j = getattr(c, attr)
            if j is not None:
                setattr(c, attr, _rejudged(c, j))
        if not c.error and c.formula is None and c.truth is None:
            c.error = "the adapter returned a comparison with no judgement"
    return result


def _rejudged(c: "Comparison", j: Judgement) -> Judgement:
    if not isinstance(j, Judgement):
        raise TypeError(f"a judgement of {type(j).__name__}, not Judgement")
    role, ref, desc = str(j.role), str(j.reference), str(j.description)
    if j.lo is not None or j.hi is not None:
        lo, hi = j.lo, j.hi
        if not (isinstance(lo, (int, Fraction)) and isinstance(hi, (int, Fraction)) and lo <= hi):
            return Judgement(role, ref, desc, "error", detail=f"the adapter's enclosure [{lo!r}, {hi!r}] is not an "
                             "interval of exact rationals")
        judge = judge_lower if j.claim == "lower" else judge_upper
        new = judge(c.peer_value, Fraction(lo), Fraction(hi), role=role, reference=ref, description=desc)
        if j.verdict in VERDICTS and VERDICTS.index(j.verdict) <= VERDICTS.index(new.verdict):
            # an adapter may flag more severely, never clear; where it agrees, its own words stay
            new.verdict, new.detail = j.verdict, str(j.detail or new.detail)
        return new
    if j.decision in ("CONT", "HALT") and j.verdict in VERDICTS:
        peer = c.peer_output.strip().upper()
        if peer in ("CONT", "HALT"):
            if peer == j.decision and j.verdict != "exact":
                return Judgement(role, ref, desc, "error", decision=j.decision,
                                 detail=f"the adapter called the same decision {peer} {j.verdict!r}")
            if peer != j.decision and j.verdict == "exact":
                return judge_decision(peer == "CONT", j.decision == "CONT", same_theorem=True, role=role,
                                      reference=ref, description=desc)
        return j
    return Judgement(role, ref, desc, "error", detail="the adapter's judgement has neither an enclosure nor a "
                     "decision with a known verdict")


@dataclass
class Comparison:
    """One peer output on one input, judged against (a) the formula it implements and (b) the true guarantee."""

    peer: str
    function: str                   # the peer's function, fully qualified, e.g. "opendp.combinators.make_..."
    check: str                      # what is compared, in words
    inputs: dict[str, str]          # the witness inputs (exact decimal strings)
    peer_value: float | None = None  # the peer's numeric output
    peer_output: str = ""           # the peer's output as text (decisions, messages)
    formula: Judgement | None = None
    truth: Judgement | None = None
    reproducer: str = ""            # a few lines of Python that show the peer's value and the reference's
    error: str = ""                 # the peer's exception, for verdict "error"

    @property
    def verdict(self) -> str:
        """The most severe of the two judgements (``error`` when the peer raised)."""
        if self.error:
            return "error"
        vs = [j.verdict for j in (self.formula, self.truth) if j is not None]
        return min(vs, key=VERDICTS.index) if vs else "error"

    def shown_value(self) -> str:
        if self.error:
            return ""
        return repr(self.peer_value) if self.peer_value is not None else self.peer_output

    def as_json(self) -> dict[str, Any]:
        return {"peer": self.peer, "function": self.function, "check": self.check, "inputs": self.inputs,
                "peer_value": _finite_or_none(self.peer_value) if self.peer_value is not None else None,
                "peer_value_is_inf": self.peer_value == math.inf,
                "peer_output": self.peer_output or (repr(self.peer_value) if self.peer_value is not None else ""),
                "verdict": self.verdict,
                "formula": self.formula.as_json() if self.formula else None,
                "truth": self.truth.as_json() if self.truth else None,
                "error": self.error or None,
                "reproducer": self.reproducer or None}


@dataclass
class PeerResult:
    peer: str
    version: str = ""
    status: str = "ran"             # ran | skipped | error
    reason: str = ""                # why skipped / error
    functions: list[str] = field(default_factory=list)
    comparisons: list[Comparison] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    search: list[dict[str, Any]] = field(default_factory=list)  # dpbounds audit --search: one summary per function

    def skip(self, reason: str) -> "PeerResult":
        self.status, self.reason = "skipped", reason
        self.notes.append(f"{self.peer}: skipped ({reason})")
        return self

    def as_json(self) -> dict[str, Any]:
        counts: dict[str, int] = {}
        for c in self.comparisons:
            counts[c.verdict] = counts.get(c.verdict, 0) + 1
        return {"peer": self.peer, "version": self.version or None, "status": self.status,
                "reason": self.reason or None, "functions": self.functions, "notes": self.notes,
                "counts": counts, "comparisons": [c.as_json() for c in self.comparisons],
                **({"search": self.search} if self.search else {})}


def error_comparison(peer: str, function: str, check: str, inputs: dict[str, str], exc: BaseException,
                     reproducer: str = "") -> Comparison:
    """The row for a peer that raised on valid input."""
    return Comparison(peer, function, check, inputs, error=f"{type(exc).__name__}: {str(exc)[:200]}",
                      reproducer=reproducer)


#: how long a peer's own interpreter may take to answer a probe
PROBE_TIMEOUT_S = 300


def run_probe(python: str | None, source: str, calls: list[Any]) -> list[Any]:
    """The peer's answers to ``calls``, computed by ``source`` (Python defining ``probe(call) -> JSON value``) in
    the interpreter ``python`` (a peer installed in its own environment, for pins that conflict with ours; None:
    this interpreter), always in a subprocess.  Only JSON crosses the boundary: the peer's environment never
    imports dpbounds.  Raises RuntimeError with the peer's stderr tail when the interpreter fails."""
    import json
    import subprocess
    import sys
    python = python or sys.executable
    driver = source + "\nimport json, sys\nprint(json.dumps([probe(c) for c in json.load(sys.stdin)]))\n"
    try:  # its own session, so that a timeout (here, or the audit's --timeout) kills its children too
        proc = subprocess.Popen([python, "-c", driver], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
    except OSError as e:
        raise RuntimeError(f"{python}: {type(e).__name__}: {e}") from None
    _PROBE_GROUPS.add(proc.pid)
    try:
        stdout, stderr = proc.communicate(json.dumps(calls), timeout=PROBE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"{python}: no answer within {PROBE_TIMEOUT_S} s (killed with its children)") from None
    finally:
        _kill_probe_group(proc.pid)
        proc.wait()
    if proc.returncode != 0:
        raise RuntimeError(f"{python} exited {proc.returncode}: {stderr.strip()[-300:]}")
    try:
        return json.loads(stdout.strip().splitlines()[-1])
    except (IndexError, ValueError) as e:
        raise RuntimeError(f"{python} answered no JSON: {stdout.strip()[-200:]!r}") from e


#: process groups of the peer interpreters running now (killed on SIGTERM: see install_group_cleanup)
_PROBE_GROUPS: set[int] = set()


def _kill_probe_group(pgid: int) -> None:
    import os
    import signal
    _PROBE_GROUPS.discard(pgid)
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def install_group_cleanup() -> None:
    """On SIGTERM (the audit's --timeout), kill the process groups of the peer interpreters started by
    :func:`run_probe` (each in a session of its own), then exit."""
    import os
    import signal

    def on_term(signum, frame):  # noqa: ARG001
        for g in list(_PROBE_GROUPS):
            _kill_probe_group(g)
        os._exit(143)
    signal.signal(signal.SIGTERM, on_term)


def probe_version(python: str, module: str, dist: str) -> tuple[bool, str]:
    """(True, version of ``dist``) when ``module`` imports in the interpreter ``python``, else (False, the reason)."""
    src = ("import importlib, importlib.metadata as md\n"
           f"def probe(c):\n    importlib.import_module({module!r})\n    return md.version(c)\n")
    try:
        return True, run_probe(python, src, [dist])[0]
    except RuntimeError as e:
        return False, str(e)


def start_in_own_venv(res: PeerResult, python: str | None, module: str, dist: str, why: str) -> bool:
    """Whether a peer that needs its own environment can be audited -- in ``python`` (``--python PEER=PATH``) or,
    without one, in this interpreter; sets ``res.version``, or marks ``res`` skipped with how to install it."""
    ok, version = probe_version(python, module, dist) if python else (available(module), "not installed")
    if not ok:
        res.skip(f"{version}; pip install {dist} (in its own venv, then --python {res.peer}=PATH: {why})")
        return False
    res.version = version if python else ""
    return True
