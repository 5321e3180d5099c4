"""Verdicts and judging: the vocabulary every check of :mod:`dpbounds.testing` and every row of ``dpbounds audit``
use, and the strict classification of a peer's value against a certified enclosure of a reference.

Each value is judged against up to two references, stated separately:

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

import math
import struct
import sys
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

#: verdicts that mean "the peer claims more privacy than the reference proves"
UNSOUND = ("unsound", "unsound-rounding")
#: every verdict, most severe first
VERDICTS = ("unsound", "unsound-rounding", "unproven", "error", "conservative", "exact", "skipped")
#: an under-report of at most this many ulps is labelled unsound-rounding (still unsound)
ROUNDING_ULPS = 4



def severity(verdict: str) -> int:
    """Smaller is worse (the order of :data:`VERDICTS`)."""
    return VERDICTS.index(verdict)


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
