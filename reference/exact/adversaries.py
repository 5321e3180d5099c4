"""Adversaries for the exact engine: each maps a :class:`dpbounds.exact.worst_case.History` to the next round's (eps, delta)
or None (stop).  They choose privacy parameters *adaptively*, which is what fully adaptive composition allows.

Every adversary here is a deterministic function of the History (parameters so far, exact loss, agree count), as
:func:`dpbounds.exact.worst_case.adaptive_laws` requires for its state merging.  Menus may hold eps values or (eps, delta)
pairs.
"""

from __future__ import annotations

import hashlib
from fractions import Fraction
from typing import Sequence

from flint import arb

from dpbounds.spec import DomainError, parse_exact

from dpbounds.exact.worst_case import History
from dpbounds.evaluation.numeric import arb_prec, fraction_to_arb

_THM = "dpbounds.exact.adversaries"


def _item(m) -> tuple[Fraction, Fraction]:
    if isinstance(m, (tuple, list)):
        e = parse_exact("eps", m[0], _THM)
        d = parse_exact("delta", m[1] if len(m) > 1 else 0, _THM)
    else:
        e, d = parse_exact("eps", m, _THM), Fraction(0)
    if e < 0 or not (0 <= d < 1):
        raise DomainError("menu", m, "eps >= 0 and 0 <= delta < 1", _THM)
    return e, d


def _rounds(k, name="k") -> int:
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise DomainError(name, k, "an integer >= 0", _THM)
    return k


def fixed(seq: Sequence, deltas: Sequence | None = None):
    """Play a fixed (non-adaptive) sequence of eps (and deltas), then stop."""
    eps = [_item(e)[0] for e in seq]
    dl = [_item((0, d))[1] for d in deltas] if deltas is not None else [Fraction(0)] * len(eps)
    if len(dl) != len(eps):
        raise DomainError("deltas", f"<{len(dl)} values>", f"the same length as seq ({len(eps)})", _THM)

    def adv(h: History):
        return (eps[h.rounds], dl[h.rounds]) if h.rounds < len(eps) else None
    return adv


def stop_when(eps, k: int, threshold):
    """Play eps for at most k rounds; stop as soon as the loss is >= ``threshold(rounds)`` (a callable on the round
    count returning an exact number) -- the generic stopping-time adversary."""
    e = _item(eps)
    k = _rounds(k)

    def adv(h: History):
        if h.rounds >= k:
            return None
        if h.rounds > 0 and h.loss >= parse_exact("threshold", threshold(h.rounds), _THM):
            return None
        return e
    return adv


def rruv_algorithm4(eps, C, n: int, delta_g, k: int):
    """RRUV16 Algorithm 4 (stopping-time adversary A_{eps,delta} of Thm 6.1): play (eps, 0) RR each round i = 1..k;
    after round i stop (all later eps = 0) as soon as

        sum_{j<=i} (X_j - eps (e^eps - 1)/(e^eps + 1)) >= C eps sqrt(i log(log(n) / delta_g)),

    X_j = +-eps the privacy loss of round j, so the left side is history.loss - i eps tanh(eps/2).  The comparison is
    decided with arb balls (128 bits, doubled up to 2048); if equality cannot be excluded the adversary stops.
    Domain: eps > 0, C > 0, integer n >= 2 with log(n)/delta_g > 1, delta_g in (0, 1), integer k >= 0.
    """
    e = parse_exact("eps", eps, _THM)
    Cq = parse_exact("C", C, _THM)
    dg = parse_exact("delta_g", delta_g, _THM)
    k = _rounds(k)
    if not e > 0:
        raise DomainError("eps", eps, "eps > 0", "rruv16.alg4")
    if not Cq > 0:
        raise DomainError("C", C, "C > 0", "rruv16.alg4")
    if not 0 < dg < 1:
        raise DomainError("delta_g", delta_g, "0 < delta_g < 1", "rruv16.alg4")
    if isinstance(n, bool) or not isinstance(n, int) or n < 2:
        raise DomainError("n", n, "an integer n >= 2", "rruv16.alg4")
    with arb_prec(64):
        if not arb(n).log() / fraction_to_arb(dg) > 1:
            raise DomainError("delta_g", delta_g, "log(n)/delta_g > 1 (so the log is positive)", "rruv16.alg4")
    cache: dict = {}

    def stop(i: int, loss: Fraction) -> bool:
        key = (i, loss)
        if key in cache:
            return cache[key]
        bits = 128
        while True:
            with arb_prec(bits):
                ea = fraction_to_arb(e)
                lhs = fraction_to_arb(loss) - i * ea * (ea / 2).tanh()
                rhs = fraction_to_arb(Cq) * ea * (i * (arb(n).log() / fraction_to_arb(dg)).log()).sqrt()
                diff = lhs - rhs
                if diff >= 0:
                    r = True
                    break
                if diff < 0:
                    r = False
                    break
            if bits >= 2048:
                r = True
                break
            bits *= 2
        cache[key] = r
        return r

    def adv(h: History):
        i = h.rounds
        if i >= k:
            return None
        if i > 0 and stop(i, h.loss):
            return None
        return (e, Fraction(0))
    return adv


def rruv_algorithm4_paper(n: int, C, delta_g):
    """Algorithm 4 with the parameters of the proof of Thm 6.1: k = n rounds of eps = 1/n."""
    return rruv_algorithm4(Fraction(1, n), C, n, delta_g, n)


def greedy(small, big, threshold, k: int):
    """Spend ``big`` when the current loss is at least ``threshold`` (pushing a lucky path over the edge), else
    ``small``; at most k rounds.  ``small``/``big`` may be eps or (eps, delta)."""
    s, b = _item(small), _item(big)
    t = parse_exact("threshold", threshold, _THM)
    k = _rounds(k)

    def adv(h: History):
        if h.rounds >= k:
            return None
        return b if h.loss >= t else s
    return adv


def loss_ladder(menu: Sequence, thresholds: Sequence, k: int):
    """Greedy with several steps: play menu[j] where j = #{thresholds <= loss} (menu sorted by the caller, usually
    increasing eps), at most k rounds."""
    items = [_item(m) for m in menu]
    ts = [parse_exact("threshold", t, _THM) for t in thresholds]
    if len(items) != len(ts) + 1:
        raise DomainError("menu", f"<{len(items)} items>", "len(thresholds) + 1 items", _THM)
    k = _rounds(k)

    def adv(h: History):
        if h.rounds >= k:
            return None
        return items[sum(1 for t in ts if h.loss >= t)]
    return adv


def random_policy(menu: Sequence, k: int, seed: int = 0, stop_prob: float = 0.0, key: str = "agree"):
    """A seeded pseudo-random policy: the choice is a deterministic hash of (seed, rounds, agree count) -- or of
    (seed, rounds, exact loss, parameter history) with ``key='full'`` -- so it is a function of the History."""
    items = [_item(m) for m in menu]
    if not items:
        raise DomainError("menu", menu, "a non-empty menu", _THM)
    if key not in ("agree", "full"):
        raise DomainError("key", key, "'agree' or 'full'", _THM)
    k = _rounds(k)

    def adv(h: History):
        if h.rounds >= k:
            return None
        if key == "agree":
            s = f"{seed}:{h.rounds}:{h.agree}"
        else:
            s = f"{seed}:{h.rounds}:{h.loss}:{[(str(e), str(d)) for e, d in h.params]}"
        dig = hashlib.sha256(s.encode()).digest()
        if dig[0] / 255 < stop_prob:
            return None
        return items[dig[1] % len(items)]
    return adv
