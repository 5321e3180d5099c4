"""The exact worst-case engine: the true privacy of worst-case interactions, certified.

Every eps-DP round is a post-processing of randomized response RR_eps (Kairouz-Oh-Viswanath), and every
(eps, delta)-DP round of (eps, delta)-randomized response (WRRW23 Definition 7, Lemmas 11-12), so these
computations are the yardstick for validity tests:

* :func:`delta_rr` -- exact hockey-stick divergence delta(eps_g) of the composition RR_{eps_1}, ..., RR_{eps_k}
  (heterogeneous, grouped by distinct eps; approximate rounds included), as a certified enclosure (arb, exact ends).
* :func:`adaptive_delta` -- for an adversary choosing (eps, delta) from the history (parameters so far and the
  current privacy loss) and a filter that may stop it, the exact laws of the stopped transcript under both
  neighbouring inputs (dynamic programming over merged states), hence delta(eps_g) of the whole interaction.
* :func:`crossing_probability` -- the probability that the eps-RR privacy-loss path ever exceeds an odometer within
  N rounds (absorbing-boundary DP; float64 with an explicit rounding-error bound, returned as an upper bound), and
  :func:`crossing_probability_mc` -- a seeded Monte Carlo cross-check with a Hoeffding interval.

The privacy loss of an RR_eps output is +eps ("agree") or -eps; P = law under x, Q = law under x'.  For a state with
loss L the pair satisfies P = e^L Q, so its hockey-stick contribution is Q max(0, e^L - e^{eps_g}); a revealing
output of (eps, delta)-RR has loss +oo under x (contributes its whole P mass) and -oo under x' (contributes 0).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Hashable, Optional, Sequence

import numpy as np
from flint import arb

from spec import DomainError, parse_exact

from .numeric import arb_endpoints, arb_prec, fraction_to_arb

PREC = 160


@dataclass(frozen=True)
class Certified:
    """An exact-ended enclosure [lo, hi] of a probability."""

    lo: Fraction
    hi: Fraction

    def upper(self) -> float:
        from .numeric import float_up
        return float_up(self.hi)

    def lower(self) -> float:
        from .numeric import float_down
        return float_down(self.lo)


def _cert(v: arb) -> Certified:
    ends = arb_endpoints(v)
    if ends is None:
        raise ArithmeticError(f"non-finite enclosure {v}")
    return Certified(max(ends[0], Fraction(0)), min(ends[1], Fraction(1)) if ends[1] > 1 else ends[1])


def _parse_list(name: str, vals) -> list[Fraction]:
    out = [parse_exact(f"{name}[{i}]", v, "reference.exact") for i, v in enumerate(vals)]
    for i, v in enumerate(out):
        if v < 0 or (name == "delta" and v >= 1):
            raise DomainError(f"{name}[{i}]", v, "eps_i >= 0" if name == "eps" else "0 <= delta_i < 1",
                              "reference.exact")
    return out


# ------------------------------------------------------------------------------------------------ fixed parameters


def delta_rr(eps_list: Sequence, eps_g, delta_list: Sequence | None = None, max_states: int = 2_000_000) -> Certified:
    """Certified exact delta(eps_g) of the composition of (eps_i, delta_i)-randomized responses."""
    eps = _parse_list("eps", eps_list)
    dl = _parse_list("delta", delta_list) if delta_list is not None else [Fraction(0)] * len(eps)
    if len(dl) != len(eps):
        raise DomainError("delta", f"<{len(dl)} values>", f"the same length as eps ({len(eps)})", "reference.exact")
    eg = parse_exact("eps_g", eps_g, "reference.exact")
    groups: dict[Fraction, int] = {}
    for e in eps:
        groups[e] = groups.get(e, 0) + 1
    items = sorted(groups.items())
    combos = 1
    for _, c in items:
        combos *= c + 1
    if combos > max_states:
        raise DomainError("eps", f"<{len(items)} distinct values>", f"at most {max_states} outcome classes",
                          "reference.exact", "too many distinct per-round epsilons for exact enumeration")
    with arb_prec(PREC):
        keep = arb(1)
        for d in dl:
            keep *= 1 - fraction_to_arb(d)
        reveal = 1 - keep
        ege = fraction_to_arb(eg).exp()
        # per-group distributions of l (number of "disagree" outputs): P_j(l), Q_j(l), loss (c - 2l) eps_j
        per = []
        for e, c in items:
            ea = fraction_to_arb(e)
            z = (1 + ea.exp()) ** c
            rows = []
            for l in range(c + 1):
                b = arb.bin_uiui(c, l)  # a ball for C(c, l) at the working precision (no huge exact integers)
                rows.append(((c - 2 * l) * e, b * (ea * (c - l)).exp() / z, b * (ea * l).exp() / z))
            per.append(rows)
        # convolve group by group, merging equal (exact rational) losses
        dist: dict[Fraction, tuple[arb, arb]] = {Fraction(0): (arb(1), arb(1))}
        for rows in per:
            nd: dict[Fraction, tuple[arb, arb]] = {}
            for L0, (p0, q0) in dist.items():
                for dL, p1, q1 in rows:
                    L = L0 + dL
                    if L in nd:
                        a, b = nd[L]
                        nd[L] = (a + p0 * p1, b + q0 * q1)
                    else:
                        nd[L] = (p0 * p1, q0 * q1)
            dist = nd
        total = arb(0)
        for L, (p, q) in dist.items():
            if L > eg:
                total += p - ege * q
        return _cert(reveal + keep * total)


# ------------------------------------------------------------------------------------------------ adaptive


@dataclass(frozen=True)
class History:
    """What an adversary (and a filter) may see: the parameters chosen so far and the current privacy loss."""

    params: tuple[tuple[Fraction, Fraction], ...]   # (eps_i, delta_i) of the rounds that ran
    loss: Fraction                                   # exact current privacy loss (sum of +-eps_i)
    agree: int                                       # number of "agree" outputs so far

    @property
    def rounds(self) -> int:
        return len(self.params)


Adversary = Callable[[History], Optional[tuple]]
FilterFn = Callable[[History, tuple], bool]


def always_continue(history: History, candidate: tuple) -> bool:
    return True


def filter_from_spec(entry_id: str, **budget) -> FilterFn:
    """A FilterFn backed by :class:`reference.accountants.Filter` (state rebuilt from the history: exact)."""
    from .accountants import Decision, make_filter
    proto = make_filter(entry_id, **budget)
    cache: dict = {}

    def cont(history: History, candidate: tuple) -> bool:
        key = (history.params, candidate)
        if key in cache:
            return cache[key]
        f = make_filter(entry_id, **({**budget, "B": proto.budget["B"]} if "B" in proto.budget and "B" not in budget
                                     else budget))
        for e, d in history.params:
            if f.try_spend(e, d) is not Decision.CONT:
                cache[key] = False
                return False
        r = f.try_spend(candidate[0], candidate[1]) is Decision.CONT
        cache[key] = r
        return r

    return cont


def adaptive_delta(adversary: Adversary, filt: FilterFn, eps_g, max_rounds: int = 200,
                   max_states: int = 200_000) -> Certified:
    """Certified exact delta(eps_g) of the interaction: the adversary picks (eps, delta) rounds of randomized response
    from the history, the filter stops it (HALT ends the interaction), at most ``max_rounds`` rounds."""
    eg = parse_exact("eps_g", eps_g, "reference.exact")
    with arb_prec(PREC):
        ege = fraction_to_arb(eg).exp()
        # state key: (params tuple, loss, agree) -> (P, Q)
        live: dict[tuple, tuple[arb, arb]] = {((), Fraction(0), 0): (arb(1), arb(1))}
        p_inf = arb(0)
        total = arb(0)
        for _ in range(max_rounds + 1):
            nxt: dict[tuple, tuple[arb, arb]] = {}
            for (params, loss, agree), (p, q) in live.items():
                h = History(params, loss, agree)
                cand = adversary(h) if len(params) < max_rounds else None
                if cand is not None:
                    e = parse_exact("eps", cand[0], "adversary")
                    d = parse_exact("delta", cand[1] if len(cand) > 1 else 0, "adversary")
                    cand = (e, d)
                if cand is None or not filt(h, cand):
                    if loss > eg:  # terminal: hockey-stick contribution
                        total += p - ege * q
                    continue
                e, d = cand
                ea = fraction_to_arb(e)
                pa = ea.exp() / (1 + ea.exp())
                keep = 1 - fraction_to_arb(d)
                p_inf += p * fraction_to_arb(d)
                newp = params + (cand,)
                for sgn, pp, qq in ((1, pa, 1 - pa), (-1, 1 - pa, pa)):
                    key = (newp, loss + sgn * e, agree + (sgn > 0))
                    a = p * keep * pp
                    b = q * keep * qq
                    if key in nxt:
                        x, y = nxt[key]
                        nxt[key] = (x + a, y + b)
                    else:
                        nxt[key] = (a, b)
            if not nxt:
                break
            if len(nxt) > max_states:
                raise DomainError("adversary", "<policy>", f"at most {max_states} distinct states", "reference.exact",
                                  "state space too large for exact dynamic programming")
            live = nxt
        else:
            raise ArithmeticError("interaction did not end within max_rounds + 1 steps")
        return _cert(p_inf + total)


# ------------------------------------------------------------------------------------------------ odometers


def crossing_probability(bound: Callable[[int], float], eps: float, N: int) -> float:
    """Upper bound on P_x(exists n <= N : L_n > bound(n)) for the eps-RR privacy-loss path (homogeneous eps).

    ``bound(n)`` must be a LOWER bound (float) on the odometer after n rounds (so crossings are over- rather than
    under-counted).  Loss values (n - 2l) eps are compared through an upward-rounded float.  Probabilities evolve in
    float64: each step is a convex combination (relative error <= 2^-52 per operation on nonnegative terms), so the
    total absolute error on the absorbed mass is at most 4 N 2^-53 (mass <= 1); that amount is added.
    """
    if not (eps > 0 and N >= 1):
        raise DomainError("eps" if not eps > 0 else "N", eps if not eps > 0 else N, "eps > 0, N >= 1", "reference.exact")
    p = math.exp(eps) / (1 + math.exp(eps))
    probs = np.zeros(N + 1)  # index l = number of "disagree" outputs
    probs[0] = 1.0
    absorbed = 0.0
    for n in range(1, N + 1):
        new = np.zeros(N + 1)
        new[: n] += probs[: n] * p
        new[1: n + 1] += probs[: n] * (1 - p)
        probs = new
        ls = np.arange(n + 1)
        loss = (n - 2 * ls) * eps
        loss_hi = np.nextafter(loss, np.inf)
        u = bound(n)
        cross = loss_hi > u
        absorbed += float(probs[: n + 1][cross].sum())
        probs[: n + 1][cross] = 0.0
    return min(1.0, absorbed + 4 * N * 2.0 ** -53)


def crossing_probability_mc(bound: Callable[[int], float], eps: float, N: int, paths: int = 20000,
                            seed: int = 0, conf: float = 1e-6) -> tuple[float, float, float]:
    """Monte Carlo estimate of the crossing probability with a Hoeffding (1 - conf) interval: (est, lo, hi)."""
    rng = np.random.default_rng(seed)
    p = math.exp(eps) / (1 + math.exp(eps))
    u = np.array([bound(n) for n in range(1, N + 1)])
    steps = np.where(rng.random((paths, N)) < p, eps, -eps)
    L = np.cumsum(steps, axis=1)
    crossed = np.any(L > u[None, :], axis=1)
    est = float(crossed.mean())
    w = math.sqrt(math.log(2 / conf) / (2 * paths))
    return est, max(0.0, est - w), min(1.0, est + w)


def odometer_lower_bound_fn(entry_id: str, params: dict, eps: float) -> Callable[[int], float]:
    """n -> a float LOWER bound on the odometer after n homogeneous pure rounds of eps (fast path lower end)."""
    import spec
    from .evaluate import fast_interval
    entry = spec.get(entry_id)
    A1 = float(eps * (math.exp(eps) - 1) / 2)

    def bound(n: int) -> float:
        arrays = {k: float(v) for k, v in params.items()}
        for a in entry.aggregates:
            arrays[a] = {"V": n * eps * eps, "A": n * A1, "D": 0.0, "S": n * eps}.get(a, 0.0)
        lo, _ = fast_interval(entry_id, rounded_inputs=True, **arrays)
        return float(lo)

    return bound


def _bench(quick: bool) -> list[dict]:
    import time
    t0 = time.perf_counter()
    N = 2000 if quick else 10000
    crossing_probability(lambda n: 3.0 * math.sqrt(n) * 0.01 + n * 0.0001, 0.01, N)
    dt = time.perf_counter() - t0
    return [{"bench": "exact engine: odometer crossing DP", "id": f"N={N}", "rate": N / dt, "unit": "rounds/s"}]


BENCHMARKS = [("exact", _bench)]
