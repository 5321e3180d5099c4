"""Adversaries for the exact engine: each maps a :class:`reference.exact.History` to the next round's (eps, delta)
or None (stop).  They choose privacy parameters *adaptively*, which is what fully adaptive composition allows."""

from __future__ import annotations

import hashlib
import math
from fractions import Fraction
from typing import Sequence

from spec import parse_exact

from .exact import History


def fixed(seq: Sequence, deltas: Sequence | None = None):
    """Play a fixed (non-adaptive) sequence."""
    eps = [parse_exact("eps", e) for e in seq]
    dl = [parse_exact("delta", d) for d in deltas] if deltas is not None else [Fraction(0)] * len(eps)

    def adv(h: History):
        return (eps[h.rounds], dl[h.rounds]) if h.rounds < len(eps) else None
    return adv


def rruv_algorithm4(eps, C, n: int, delta_g, k: int):
    """RRUV16 Algorithm 4 (stopping-time adversary): play RR_eps each round; after round i stop (all later eps = 0)
    as soon as sum_j (X_j - eps tanh(eps/2)) >= C eps sqrt(i log(log(n)/delta_g)).

    (X_j = +-eps is the privacy loss of round j, so the sum is history.loss - i eps tanh(eps/2).)
    """
    e = parse_exact("eps", eps)
    ef, Cf, dg = float(e), float(C), float(delta_g)
    mu = ef * math.tanh(ef / 2)
    scale = math.log(math.log(n) / dg)

    def adv(h: History):
        i = h.rounds
        if i >= k:
            return None
        if i > 0 and float(h.loss) - i * mu >= Cf * ef * math.sqrt(i * scale):
            return None
        return (e, Fraction(0))
    return adv


def greedy(small, big, threshold, k: int):
    """Spend ``big`` when the current loss is at least ``threshold`` (pushing a lucky path over the edge), else
    ``small``; at most k rounds."""
    s, b, t = parse_exact("eps", small), parse_exact("eps", big), parse_exact("threshold", threshold)

    def adv(h: History):
        if h.rounds >= k:
            return None
        return (b if h.loss >= t else s, Fraction(0))
    return adv


def random_policy(menu: Sequence, k: int, seed: int = 0, stop_prob: float = 0.0):
    """A seeded pseudo-random policy: the choice is a deterministic hash of (seed, rounds, agree count)."""
    items = [parse_exact("eps", m) for m in menu]

    def adv(h: History):
        if h.rounds >= k:
            return None
        dig = hashlib.sha256(f"{seed}:{h.rounds}:{h.agree}".encode()).digest()
        if dig[0] / 255 < stop_prob:
            return None
        return (items[dig[1] % len(items)], Fraction(0))
    return adv
