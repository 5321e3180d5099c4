"""Verdicts and judging: the vocabulary every check of :mod:`dpbounds.testing` and every row of ``dpbounds audit``
use, and the strict classification of a peer's value against a certified enclosure of a reference.

Each value is judged against up to two references, stated separately:

(a) ``formula`` -- the formula or theorem the peer implements or cites: is the code a faithful implementation?
(b) ``truth`` -- the true guarantee, where this project can compute it (the exact privacy curve of the audited
    mechanism, the exact optimum of fixed-parameter composition, the exact engine): is the privacy claim false?

A peer can be wrong against (a) and still safe against (b).  The verdicts, most severe first, are
:data:`VERDICT_MEANINGS` (the one place they are defined; the CLI help and the docs print it).  For a claimed upper
bound (smaller claims more privacy) against a certified enclosure [lo, hi] of the reference value:

* below ``lo`` by at most :data:`ROUNDING_ULPS` float64 steps: ``unsound-rounding``; by more: ``unsound`` against
  the truth (the privacy claim is false), ``formula-departure`` against the cited formula (the code departs from
  its theorem; the true guarantee is not shown violated);
* above the smallest float64 >= ``hi``: ``conservative`` (sound, decided whatever the width);
* inside ``[lo, hi]`` (up to the one upward rounding a float answer needs): ``exact`` only when the enclosure decides
  it -- every point of it within :data:`EXACT_ULPS` float64 steps of the value, so the value is within that many
  ulps of the certified truth (the row states the count) -- else ``undecided``, with the gap and the width: the
  reference is narrowed first (:meth:`dpbounds.testing.oracle.Oracle.narrowed`), and what no narrowing within its
  work bound decides is never called a pass.

For a larger-is-more-privacy claim (a budget, a type-II error) :func:`judge_lower` mirrors these.

An end of the enclosure may be ``math.inf``: ``hi = +inf`` says the reference has no finite upper bound there (no
guarantee), ``lo = hi = +inf`` that its value is exactly +oo (a voided odometer, a conversion with no guarantee at
that point).  Against an upper claim a value below ``lo`` is still an under-report (every finite value is one when
``lo`` is +inf: it claims a guarantee the reference does not give); a finite value at or above a finite ``lo`` is
``undecided`` (not shown unsound, not shown sound); +inf is sound.
"""

from __future__ import annotations

import math
import struct
import sys
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

#: every verdict, most severe first, with what it means (the CLI help and the docs print this table)
VERDICT_MEANINGS = {
    "unsound": "below the certified true guarantee by more than float rounding: the privacy claim is false",
    "formula-departure": "below the formula the peer cites (beyond float rounding); the true guarantee is not "
                         "shown violated: the code departs from its theorem",
    "law-violation": "the implementation breaks a law every correct one obeys (a curve that increases where it "
                     "must not, a probability above 1, ...), by the reported relative gap",
    "unsound-rounding": "below the certified value by at most 4 float64 steps (ulps): an under-report at the "
                        "scale of float rounding",
    "unproven": "a filter continues where a different theorem's rule halts: no proven violation, no proof either",
    "error": "the peer raised, in its own code, on an input inside its documented domain; or (dpbounds.testing) "
             "the check could not judge: argument names that do not match the reference's parameters, too few "
             "examples judged (the reason names which)",
    "adapter-error": "our side failed: an exception raised in the audit's adapter or wrapper rather than in the "
                     "peer's code, or an audit step that could not run; ours to fix, never charged to the peer",
    "incomplete": "the time cap expired (or a peer call was not answered in time) before the example budget was "
                  "judged: the seed's verdict is not known",
    "undecided": "the value lies inside a certified enclosure too wide to decide it (gap and width reported), and "
                 "no narrowing within the work bound decided it",
    "conservative": "above the certified value: sound, looser by the reported ratio",
    "exact": "within the stated number of ulps (at most 4) of the certified value: sound and tight",
    "skipped": "not run: the peer is not installed (with the reason)",
}
#: every verdict, most severe first
VERDICTS = tuple(VERDICT_MEANINGS)
#: an under-report of at most this many ulps is labelled unsound-rounding (still an under-report)
ROUNDING_ULPS = 4
#: ``exact`` claims the value within this many float64 steps of every point of the certified enclosure
EXACT_ULPS = 4
#: the verdicts that report an under-report (the peer claims more privacy than the reference proves)
UNSOUND = ("unsound", "formula-departure", "law-violation", "unsound-rounding")
#: the privacy claim itself is false
CLAIM_FALSE = ("unsound",)
#: the only verdicts that pass a check
PASS = ("exact", "conservative")
#: verdicts that mean the check could not judge (they fail a gate whatever the findings: exit 2)
NOT_JUDGED = ("adapter-error", "incomplete")


def verdict_table(indent: str = "  ") -> str:
    """:data:`VERDICT_MEANINGS` as aligned text lines (CLI help, docs)."""
    w = max(map(len, VERDICTS))
    return "\n".join(f"{indent}{v:<{w}}  {m}" for v, m in VERDICT_MEANINGS.items())


def severity(verdict: str) -> int:
    """Smaller is worse (the order of :data:`VERDICTS`)."""
    return VERDICTS.index(verdict)


def _ordered(x: float) -> int:
    """float64 -> integer, monotone in x (adjacent floats differ by 1; -0.0 and 0.0 both map to 0)."""
    (i,) = struct.unpack("<q", struct.pack("<d", x))
    return i if i >= 0 else -(i & 0x7FFFFFFFFFFFFFFF)


def _float_near(q: Fraction | float) -> float:
    """float(q), or +-inf where q is beyond float64's range (float() of such a Fraction raises OverflowError)."""
    if isinstance(q, float):
        return q
    try:
        return float(q)
    except OverflowError:
        return math.inf if q > 0 else -math.inf


def _float_up(q: Fraction | float) -> float:
    """The smallest float64 >= q (+inf above the range; an infinite end is itself)."""
    if isinstance(q, float):
        return q
    f = _float_near(q)
    if not math.isfinite(f):
        return f if f > 0 else -sys.float_info.max
    return f if Fraction(f) >= q else math.nextafter(f, math.inf)


def _float_down(q: Fraction | float) -> float:
    """The largest float64 <= q (-inf below the range; an infinite end is itself)."""
    if isinstance(q, float):
        return q
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
    lo: Fraction | float | None = None  # certified enclosure of the reference value (None for decisions); an end
    hi: Fraction | float | None = None  # is an exact rational or math.inf (module docstring)
    decision: str | None = None     # for decisions: the reference's CONT/HALT
    ratio: float | None = None      # peer / reference (conservative or unsound)
    gap_rel: float | None = None    # (lo - peer) / lo when below
    gap_ulps: int | None = None     # float64 steps from the peer's value up to lo when below
    detail: str = ""
    claim: str = "upper"            # "upper" (judge_upper: smaller claims more privacy) or "lower" (judge_lower)
    ulps: int | None = None         # exact: the most float64 steps between the value and any point of [lo, hi]
    width: float | None = None      # undecided: (hi - lo) / max(|lo|, |hi|)
    possible_gap: float | None = None  # undecided: how far the value could lie on the unsound side, relative

    def as_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"role": self.role, "reference": self.reference, "description": self.description,
                             "verdict": self.verdict}
        if self.lo is not None and self.hi is not None:
            # outward: contains [lo, hi]; an infinite end is "inf"
            d["enclosure"] = [_end_text(self.lo, "floor"), _end_text(self.hi, "ceiling")]
            d["lower"] = _finite_or_none(_float_down(self.lo))  # null: beyond float64 (the enclosure says where)
            d["upper"] = _finite_or_none(_float_up(self.hi))
        if self.decision is not None:
            d["decision"] = self.decision
        d["ratio"] = _finite_or_none(self.ratio)
        d["gap"] = None if self.gap_rel is None else {"relative": _finite_or_none(self.gap_rel),
                                                      "ulps": self.gap_ulps}
        d["detail"] = self.detail
        d["claim"] = self.claim
        if self.ulps is not None:
            d["ulps"] = self.ulps
        if self.verdict == "undecided":
            d["width"] = _finite_or_none(self.width)
            d["possible_gap"] = _finite_or_none(self.possible_gap)
        return d

    def short(self) -> str:
        if self.decision is not None:
            return self.decision
        if self.lo is None or self.hi is None:
            return ""
        return f"[{_float_near(self.lo):.17g}, {_float_near(self.hi):.17g}]"


def _end_text(q: Fraction | float, rounding: str) -> str:
    """An enclosure end as text: 25 digits rounded outward, or "inf"."""
    return "inf" if q == math.inf else _dec(Fraction(q), rounding)


def _ratio(a: Fraction, b: Fraction) -> float:
    """a / b as a float, +-inf when it overflows (b > 0); exact until the one rounding."""
    return _float_near(a / b)


def _finite_or_none(x: Any) -> float | None:
    """``x`` when it is a finite float, else None (a peer may return anything: a string, a list, a complex)."""
    return float(x) if isinstance(x, float) and math.isfinite(x) else None


#: the most characters of a peer's non-numeric answer a report shows
REPR_LIMIT = 200


def short_repr(x: Any, limit: int = REPR_LIMIT) -> str:
    """``repr(x)`` cut to ``limit`` characters (a peer may return a million-element list); never raises."""
    try:
        s = repr(x)
    except Exception as e:  # noqa: BLE001 - a foreign object's __repr__ may raise
        s = f"<{type(x).__name__} whose repr raised {type(e).__name__}>"
    return s if len(s) <= limit else s[:limit - 3] + "..."


def _gap_text(j: Judgement) -> str:
    """'3 ulp(s), relative 4.1e-16'; only the relative gap beyond 1e-6 (a count of ulps says nothing there)."""
    rel = j.gap_rel if j.gap_rel is not None else math.inf
    return f"{j.gap_ulps} ulp(s), relative {rel:.3g}" if rel < 1e-6 else f"a relative {rel:.3g}"


def _below(role: str, ulps: int) -> str:
    """The verdict of an under-report of ``ulps`` float64 steps against a reference of this role."""
    if ulps <= ROUNDING_ULPS:
        return "unsound-rounding"
    return "formula-departure" if role == "formula" else "unsound"


def _unbounded(j: Judgement, where: str) -> Judgement:
    """``undecided`` for a value inside an enclosure with an infinite upper end: its width and the possible gap
    are unbounded (null in the JSON)."""
    j.verdict, j.width, j.possible_gap = "undecided", math.inf, math.inf
    j.detail = f"undecided: {where}"
    return j


def _inside(j: Judgement, peer_value: float, lo_f: float, hi_f: float, sound_end: str) -> Judgement:
    """``exact`` when every float64 of the enclosure's rounded ends [lo_f, hi_f] is within :data:`EXACT_ULPS` steps of
    the value, else ``undecided`` with the possible gap and the width."""
    n = max(_ordered(peer_value) - _ordered(lo_f), _ordered(hi_f) - _ordered(peer_value))
    if n <= EXACT_ULPS:
        j.ulps = n
        j.detail = (f"within {n} ulp(s) of the certified value ({sound_end})" if n else
                    f"equal to the certified value rounded to float64 ({sound_end})")
        return j
    lo, hi = j.lo, j.hi
    assert lo is not None and hi is not None
    scale = max(abs(lo), abs(hi))
    pv = Fraction(peer_value)
    j.verdict = "undecided"
    j.width = _ratio(hi - lo, scale) if scale else 0.0
    # the most the value could lie on the wrong side of the truth, relative: below hi (upper) / above lo (lower)
    gap = (hi - pv) if j.claim == "upper" else (pv - lo)
    j.possible_gap = _ratio(max(gap, Fraction(0)), scale) if scale else 0.0
    j.detail = (f"undecided: inside the certified enclosure [{_float_near(lo):.17g}, {_float_near(hi):.17g}] of "
                f"relative width {j.width:.3g} ({n} ulps); the value could be on the unsound side by a relative gap "
                f"of up to {j.possible_gap:.3g}, and no narrower enclosure was certified within the work bound")
    return j


def judge_upper(peer_value: float, lo: Fraction | float, hi: Fraction | float, *, role: str, reference: str,
                description: str) -> Judgement:
    """Strictly classify a peer's claimed upper bound (smaller = more privacy) against the certified [lo, hi].

    No tolerance: a value below ``lo`` is an under-report however small the gap (``unsound-rounding`` within
    :data:`ROUNDING_ULPS` float64 steps; beyond, ``unsound`` against the truth and ``formula-departure`` against a
    cited formula); a value inside the enclosure is ``exact`` only within :data:`EXACT_ULPS` of every point of it,
    else ``undecided``."""
    j = Judgement(role, reference, description, "exact", lo, hi)
    if not isinstance(peer_value, float) or math.isnan(peer_value):
        j.verdict, j.detail = "error", f"the peer returned {short_repr(peer_value)}, not a number"
        return j
    if peer_value == math.inf:
        if lo == math.inf:
            j.detail = "the reference value is +inf (no guarantee), and so is the peer's"
        else:
            j.verdict, j.ratio, j.detail = "conservative", math.inf, "the peer returned +inf (no guarantee claimed)"
        return j
    if lo == math.inf:
        j.verdict = "formula-departure" if role == "formula" else "unsound"
        j.gap_rel, j.ratio = math.inf, 0.0
        j.detail = f"the reference value is +inf (no guarantee); the peer claims one, {peer_value!r}"
        return j
    pv = Fraction(peer_value)
    if hi == math.inf and lo <= pv:
        return _unbounded(j, f"at or above the certified lower end {_float_near(lo):.17g} of a reference with no "
                             "finite upper bound here: not shown unsound, not shown sound")
    up = _float_up(hi)
    up_q = Fraction(up) if math.isfinite(up) else None  # None: hi is beyond float64, above every finite value
    if lo <= pv and (up_q is None or pv <= up_q):
        return _inside(j, peer_value, _float_down(lo), up if math.isfinite(up) else sys.float_info.max,
                       "inside the certified enclosure" if pv <= hi else
                       "the certified upper end rounded up to float64, the sound float answer")
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
    j.verdict = _below(role, j.gap_ulps)
    j.detail = (f"below the certified lower end {_float_near(lo):.17g} by {_gap_text(j)}: claims more privacy than "
                f"{reference} proves" + (" (the formula it cites; the true guarantee is not shown violated)"
                                         if j.verdict == "formula-departure" else ""))
    return j


def judge_lower(peer_value: float, lo: Fraction | float, hi: Fraction | float, *, role: str, reference: str,
                description: str) -> Judgement:
    """Strictly classify a peer's claimed lower bound of a larger-is-more-privacy quantity (e.g. the largest budget
    rho it admits for a target (eps, delta)) against the certified [lo, hi]: the mirror of :func:`judge_upper`.

    ``exact`` from the largest float64 <= lo up to hi; ``conservative`` below; above hi ``unsound`` (or
    ``unsound-rounding`` within :data:`ROUNDING_ULPS` float64 steps): it admits more than the reference proves."""
    j = Judgement(role, reference, description, "exact", lo, hi, claim="lower")
    if isinstance(peer_value, float) and peer_value == math.inf and hi == math.inf:
        if lo == math.inf:
            j.detail = "the reference value is +inf, and so is the peer's"
            return j
        return _unbounded(j, "+inf, inside a certified enclosure with no finite upper end")
    if not isinstance(peer_value, float) or math.isnan(peer_value) or peer_value == math.inf:
        j.verdict, j.detail = "error", f"the peer returned {short_repr(peer_value)}, not a finite number"
        return j
    if lo == math.inf:
        j.verdict, j.detail = "conservative", "sound (the reference value is +inf)"
        return j
    pv = Fraction(peer_value)
    if hi == math.inf and _float_down(lo) <= peer_value:
        return _unbounded(j, f"at or above the certified lower end {_float_near(lo):.17g} of a reference with no "
                             "finite upper bound here: not shown sound, not shown unsound")
    down = _float_down(lo)
    down_q = Fraction(down) if math.isfinite(down) else None  # None: lo is below float64's range
    if (down_q is None or down_q <= pv) and pv <= hi:
        return _inside(j, peer_value, down if math.isfinite(down) else -sys.float_info.max, _float_up(hi),
                       "inside the certified enclosure" if pv >= lo else
                       "the certified lower end rounded down to float64, the sound float answer")
    if down_q is not None and pv < down_q:
        j.verdict = "conservative"
        j.ratio = _ratio(pv, lo) if lo > 0 else None
        j.detail = (f"sound, smaller by a factor {j.ratio:.6g}" if j.ratio is not None else "sound")
        return j
    ulps = _ordered(peer_value) - _ordered(_float_down(hi))
    j.gap_ulps = max(ulps, 1)
    j.gap_rel = _ratio(pv - hi, abs(hi)) if hi != 0 else math.inf
    j.ratio = _ratio(pv, hi) if hi > 0 else None
    j.verdict = _below(role, j.gap_ulps)
    j.detail = (f"above the certified upper end {_float_near(hi):.17g} by {_gap_text(j)}: admits more than "
                f"{reference} proves" + (" (the formula it cites; the true guarantee is not shown violated)"
                                         if j.verdict == "formula-departure" else ""))
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
        j.verdict = "formula-departure" if role == "formula" else "unsound"
        j.detail = f"the peer continues where {reference} (the theorem it implements) halts"
    else:
        j.verdict = "unproven"
        j.detail = (f"the peer continues where {reference} halts; {reference} is not the theorem the peer cites, "
                    "so this is not a proven violation, but no result here proves the round valid")
    return j


def judge_bound(peer_value: float, bound: Fraction, *, role: str, reference: str, description: str) -> Judgement:
    """A peer's claimed upper bound against a value the claim must not go below (e.g. the exact delta of an
    adaptive interaction found by an adversary): unsound when the bound is above the claim."""
    return judge_upper(peer_value, bound, bound, role=role, reference=reference, description=description)
