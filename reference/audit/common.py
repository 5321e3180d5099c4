"""Shared pieces of the peer audit: availability, comparison records and their classification.

Classification of a peer's claimed privacy parameter against the reference's certified enclosure [lo, hi]
(for a quantity where *smaller claims more privacy*, e.g. an epsilon at fixed delta):

* ``exact``        -- the peer's value lies in the enclosure widened by a relative ``tol`` (float noise);
* ``conservative`` -- the peer's value is above: sound, looser by the reported ratio;
* ``unsound``      -- the peer's value is below the certified lower end: it claims more privacy than the
                      reference proves (the input is the witness);
* ``error``        -- the peer raised; ``skipped`` -- the peer is not installed.
"""

from __future__ import annotations

import importlib.util
from dataclasses import asdict, dataclass, field
from fractions import Fraction


@dataclass
class Comparison:
    peer: str
    check: str
    inputs: dict
    peer_value: str
    reference: str
    verdict: str          # exact | conservative | unsound | error | skipped
    detail: str = ""

    def as_dict(self) -> dict:
        return asdict(self)


def available(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def classify_upper(peer_value: float, lo: Fraction, hi: Fraction, tol: float = 1e-9) -> tuple[str, str]:
    """Classify a peer's claimed upper bound (smaller = more privacy) against the certified [lo, hi]."""
    pv = Fraction(peer_value)
    slack = max(abs(lo), abs(hi)) * Fraction(tol)
    if lo <= pv <= hi:
        return "exact", "inside the certified enclosure"
    if lo - slack <= pv <= hi + slack:
        m = max(abs(lo), abs(hi))
        rel = float(min(abs(pv - lo), abs(pv - hi)) / m) if m else 0.0
        side = "below" if pv < lo else "above"
        return "exact", f"{side} the enclosure by float rounding only (rel. {rel:.1e} <= tol {tol:g})"
    if pv > hi:
        ratio = float(pv / hi) if hi > 0 else float("inf")
        return "conservative", f"looser by a factor {ratio:.6g}"
    ratio = float(pv / lo) if lo > 0 else float("-inf")
    return "unsound", f"below the certified lower end {float(lo):.17g} (ratio {ratio:.6g})"


def classify_decision(peer_cont: bool, ref_cont: bool) -> tuple[str, str]:
    """A peer filter's decision vs the reference filter's certified decision on the same history."""
    if peer_cont == ref_cont:
        return "exact", "same decision"
    if not peer_cont and ref_cont:
        return "conservative", "peer halts where the reference continues"
    return "unsound", "peer continues where the reference halts"


@dataclass
class PeerResult:
    peer: str
    comparisons: list[Comparison] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
