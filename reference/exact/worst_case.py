"""The exact worst-case engine: the true privacy of worst-case interactions, certified.

Every eps-DP round is a post-processing of randomized response RR_eps (Kairouz-Oh-Viswanath 2015), and every
(eps, delta)-DP round -- also when the parameters are chosen adaptively -- of (eps, delta)-randomized response
(WRRW23 Definition 7, Lemmas 11-12), so these computations are the yardstick for validity tests.

API (all probabilities are certified unless a name says ``float``/``mc``):

* :func:`delta_rr` ``(eps_list, eps_g, delta_list=None) -> Certified`` -- exact hockey-stick divergence
  delta(eps_g) = max_E P(E) - e^{eps_g} Q(E) of RR_{eps_1} x ... x RR_{eps_k} ((eps_i, delta_i)-RR for approximate
  rounds): exact convolution of the two-point loss laws, equal eps values grouped (a group of c rounds is one
  binomial), losses kept as exact rationals.
* :func:`delta_rr_homogeneous` ``(eps, k, eps_g, delta=0) -> Certified`` -- the same for k equal rounds, written
  directly as KOV's binomial sum (an independent implementation, used to cross-check the convolution).
* :func:`adaptive_laws` ``(adversary, filt, max_rounds) -> InteractionLaw`` -- exact dynamic programming over
  histories: the laws of the stopped transcript under both neighbouring inputs (states with the same parameter
  history, privacy loss and number of "agree" outputs are merged -- exact, see below).
  ``InteractionLaw.delta(eps_g) -> Certified``; :func:`adaptive_delta` ``(adversary, filt, eps_g, max_rounds)``
  is the shorthand.
* :func:`optimal_adversary` ``(menu, filt, eps_g, max_rounds) -> (adversary, Certified)`` -- backward induction
  over the same state space for the delta-maximizing adaptive policy from a finite menu (policy chosen in float64;
  its delta is then computed exactly by :func:`adaptive_delta`, so the returned value is certified for *that*
  adversary and is a certified lower bound on the worst case over the menu).
* :func:`crossing_probability` ``(odometer_fn, eps, N) -> float`` -- a rigorous float64 upper bound on
  P_x(exists n <= N: L_n > u(n)) for the homogeneous eps-RR loss path; :func:`crossing_probability_bounds` gives
  both ends and the explicit rounding-error term; :func:`crossing_probability_adaptive` is the certified (arb)
  version for adaptive/heterogeneous parameters chosen by an adversary from a menu;
  :func:`crossing_probability_mc` is a seeded Monte Carlo cross-check with a Hoeffding or Clopper-Pearson interval.

Conventions.  The privacy loss of an RR_eps output is +eps ("agree": probability e^eps/(1+e^eps) under x,
1/(1+e^eps) under x') or -eps ("disagree").  P is the law under x, Q under x'.  Every non-revealing transcript t
satisfies P(t) = e^{L(t)} Q(t) exactly, so its hockey-stick contribution is Q(t) (e^{L(t)} - e^{eps_g})_+, computed
as Q e^{eps_g} expm1(L - eps_g) (no cancellation: relative accuracy even for tiny deltas).  Hence merging
transcripts with the same loss loses nothing, and only Q needs to be propagated.  A revealing output of
(eps, delta)-RR ("I am x", probability delta under x, 0 under x') contributes its whole P mass; the other revealing
output has P = 0 and contributes nothing.

Certified results are :class:`Certified` (exact rational ends ``lo``/``hi``; ``upper()``/``lower()`` are the
float64 values rounded outward; ``ball()`` an arb ball containing both ends).  Precision: ``prec`` bits of arb
working precision (via :func:`dpbounds.evaluation.numeric.arb_prec`), doubled until the relative width is <= ``rel_tol``
where the routine says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Iterator, Optional, Sequence

import numpy as np
from flint import arb

from dpbounds.spec import DomainError, parse_exact

from dpbounds.evaluation.numeric import arb_endpoints, arb_prec, float_down, float_up, fraction_to_arb, mp_context
from dpbounds import spec
from dpbounds.accounting.accountants import Decision, make_filter
from dpbounds.evaluation.evaluate import fast_interval

PREC = 160
MAX_PREC = 1024
_THM = "dpbounds.exact.worst_case"


# ------------------------------------------------------------------------------------------------ results


@dataclass(frozen=True)
class Certified:
    """An enclosure [lo, hi] (exact rationals) of a probability: the true value lies in it."""

    lo: Fraction
    hi: Fraction

    def upper(self) -> float:
        """The smallest float64 >= hi (safe for an upper bound)."""
        return float_up(self.hi)

    def lower(self) -> float:
        """The largest float64 <= lo (safe for a lower bound)."""
        return float_down(self.lo)

    def ball(self) -> arb:
        """An arb ball containing [lo, hi] (at the caller's current precision)."""
        return fraction_to_arb(self.lo).union(fraction_to_arb(self.hi))

    def contains(self, x) -> bool:
        return self.lo <= Fraction(x) <= self.hi

    @property
    def width(self) -> Fraction:
        return self.hi - self.lo

    def __repr__(self) -> str:
        return f"Certified([{float(self.lo):.17g}, {float(self.hi):.17g}])"


def _cert(v: arb) -> Certified:
    """Certified enclosure of a probability from an arb ball (ends clamped to [0, 1], which is sound)."""
    ends = arb_endpoints(v)
    if ends is None:
        raise ArithmeticError(f"non-finite enclosure {v}")
    lo, hi = ends
    return Certified(min(max(lo, Fraction(0)), Fraction(1)), max(min(hi, Fraction(1)), Fraction(0)))


def _rel_ok(c: Certified, rel_tol: float) -> bool:
    return c.hi == 0 or c.hi - c.lo <= Fraction(rel_tol) * c.hi


def _refine(compute: Callable[[int], Certified], prec: int, rel_tol: Optional[float]) -> Certified:
    """Run ``compute(bits)`` at ``prec`` bits, doubling until the relative width is <= rel_tol (or MAX_PREC)."""
    bits = int(prec)
    while True:
        r = compute(bits)
        if rel_tol is None or _rel_ok(r, rel_tol) or bits >= MAX_PREC:
            return r
        bits *= 2


def _parse_eps(name: str, v) -> Fraction:
    e = parse_exact(name, v, _THM)
    if e < 0:
        raise DomainError(name, v, "eps >= 0", _THM)
    return e


def _parse_delta(name: str, v) -> Fraction:
    d = parse_exact(name, v, _THM)
    if not (0 <= d < 1):
        raise DomainError(name, v, "0 <= delta < 1", _THM)
    return d


def _parse_list(name: str, vals) -> list[Fraction]:
    p = _parse_eps if name == "eps" else _parse_delta
    return [p(f"{name}[{i}]", v) for i, v in enumerate(vals)]


def _excess(L: Fraction, eg: Fraction, ege: arb, cache: dict) -> arb:
    """(e^L - e^{eps_g}) for L > eps_g, as e^{eps_g} expm1(L - eps_g) (a positive ball, relative accuracy)."""
    r = cache.get(L)
    if r is None:
        r = ege * fraction_to_arb(L - eg).expm1()
        cache[L] = r
    return r


# ------------------------------------------------------------------------------------------------ fixed parameters


def delta_rr(eps_list: Sequence, eps_g, delta_list: Sequence | None = None, max_states: int = 2_000_000,
             prec: int = PREC, rel_tol: Optional[float] = 1e-12) -> Certified:
    """Certified exact delta(eps_g) of the composition of (eps_i, delta_i)-randomized responses.

    Source: KOV15 (every (eps, delta)-DP mechanism is a post-processing of (eps, delta)-RR; composition of RRs is the
    worst case for fixed parameters), WRRW23 Def. 7 for the approximate rounds.  delta = 1 - prod(1 - delta_i)
    + prod(1 - delta_i) * delta_pure(eps_g), delta_pure = sum_{L > eps_g} Q(L) (e^L - e^{eps_g}) over the exact loss
    law of the pure part (groups of equal eps convolved as binomials).
    Domain: eps_i >= 0, 0 <= delta_i < 1, eps_g any real; at most ``max_states`` distinct loss values.
    """
    eps = _parse_list("eps", eps_list)
    dl = _parse_list("delta", delta_list) if delta_list is not None else [Fraction(0)] * len(eps)
    if len(dl) != len(eps):
        raise DomainError("delta", f"<{len(dl)} values>", f"the same length as eps ({len(eps)})", _THM)
    eg = parse_exact("eps_g", eps_g, _THM)
    groups: dict[Fraction, int] = {}
    for e in eps:
        if e > 0:  # an eps = 0 round is a point mass at loss 0 under both inputs
            groups[e] = groups.get(e, 0) + 1
    items = sorted(groups.items())
    pure_possible = sum((e * c for e, c in items), Fraction(0)) > eg

    def compute(bits: int) -> Certified:
        with arb_prec(bits):
            keep = arb(1)
            for d in dl:
                keep *= 1 - fraction_to_arb(d)
            total = arb(0)
            if pure_possible:
                dist: dict[Fraction, arb] = {Fraction(0): arb(1)}
                for e, c in items:
                    ea = fraction_to_arb(e)
                    lz = c * ea.exp().log1p()            # log (1 + e^eps)^c
                    rows = []
                    for l in range(c + 1):               # l = number of "disagree" outputs in the group
                        # Q_j(l) = C(c, l) e^{l eps} / (1 + e^eps)^c ; loss (c - 2 l) eps
                        rows.append(((c - 2 * l) * e, arb.bin_uiui(c, l) * (l * ea - lz).exp()))
                    nd: dict[Fraction, arb] = {}
                    for L0, q0 in dist.items():
                        for dL, q1 in rows:
                            L = L0 + dL
                            v = q0 * q1
                            nd[L] = nd[L] + v if L in nd else v
                    if len(nd) > max_states:
                        raise DomainError("eps", f"<{len(items)} distinct values>",
                                          f"at most {max_states} distinct loss values", _THM,
                                          "too many distinct losses for exact enumeration")
                    dist = nd
                ege = fraction_to_arb(eg).exp()
                cache: dict = {}
                for L, q in dist.items():
                    if L > eg:
                        total += q * _excess(L, eg, ege, cache)
            return _cert((1 - keep) + keep * total)

    if not pure_possible and all(d == 0 for d in dl):
        return Certified(Fraction(0), Fraction(0))  # no outcome has loss > eps_g: exactly 0
    return _refine(compute, prec, rel_tol)


def delta_rr_homogeneous(eps, k: int, eps_g, delta=0, prec: int = PREC,
                         rel_tol: Optional[float] = 1e-12) -> Certified:
    """Certified exact delta(eps_g) of k-fold (eps, delta)-RR, by KOV's binomial formula.

    Source: Kairouz-Oh-Viswanath 2015, Thm 3.3 / the optimal-composition sum:
    delta_pure = sum_{l < (k eps - eps_g)/(2 eps)} C(k, l) (e^{(k-l) eps} - e^{eps_g} e^{l eps}) / (1 + e^eps)^k,
    delta = 1 - (1 - delta)^k (1 - delta_pure).  Each term is evaluated as
    C(k, l) e^{(k-l) eps - k log(1+e^eps)} * (-expm1(eps_g - (k - 2l) eps)) (same value, no cancellation).
    Domain: eps >= 0, integer k >= 0, 0 <= delta < 1, eps_g real.
    """
    e = _parse_eps("eps", eps)
    d = _parse_delta("delta", delta)
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise DomainError("k", k, "an integer k >= 0", _THM)
    eg = parse_exact("eps_g", eps_g, _THM)
    if e == 0 or k * e <= eg:
        lmax = 0  # no l satisfies (k - 2l) eps > eps_g
    else:
        t = (k * e - eg) / (2 * e)               # l < t
        lmax = min(k + 1, -((-t.numerator) // t.denominator))  # number of l in [0, k] with l < t
    if lmax == 0 and d == 0:
        return Certified(Fraction(0), Fraction(0))

    def compute(bits: int) -> Certified:
        with arb_prec(bits):
            ea = fraction_to_arb(e)
            ga = fraction_to_arb(eg)
            lz = k * ea.exp().log1p()
            s = arb(0)
            for l in range(lmax):
                s += arb.bin_uiui(k, l) * ((k - l) * ea - lz).exp() * (-(ga - (k - 2 * l) * ea).expm1())
            keep = (1 - fraction_to_arb(d)) ** k
            return _cert(1 - keep * (1 - s))

    return _refine(compute, prec, rel_tol)


# ------------------------------------------------------------------------------------------------ adaptive


@dataclass(frozen=True)
class History:
    """What an adversary (and a filter) sees: the (eps, delta) of the rounds that ran and the current privacy loss.

    Behaves as the sequence of (eps_i, delta_i) tuples (``len``, indexing, iteration), so a filter written as
    ``cont(history: list[tuple], candidate: tuple) -> bool`` works unchanged; ``loss`` (exact, the sum of +-eps_i)
    and ``agree`` (the number of +eps outputs) are the outcomes so far.
    """

    params: tuple[tuple[Fraction, Fraction], ...]
    loss: Fraction
    agree: int

    @property
    def rounds(self) -> int:
        return len(self.params)

    def __len__(self) -> int:
        return len(self.params)

    def __getitem__(self, i):
        return self.params[i]

    def __iter__(self) -> Iterator[tuple[Fraction, Fraction]]:
        return iter(self.params)

    @property
    def V(self) -> Fraction:
        """sum eps_i^2 (exact)."""
        return sum((e * e for e, _ in self.params), Fraction(0))

    @property
    def eps_sum(self) -> Fraction:
        return sum((e for e, _ in self.params), Fraction(0))

    @property
    def delta_sum(self) -> Fraction:
        return sum((d for _, d in self.params), Fraction(0))


Adversary = Callable[[History], Optional[Any]]
FilterFn = Callable[[History, tuple], bool]


def always_continue(history, candidate) -> bool:
    """The filter that never HALTs."""
    return True


def filter_from_spec(entry_id: str, **budget) -> FilterFn:
    """A FilterFn backed by :class:`dpbounds.accounting.accountants.Filter` (state rebuilt from the parameter history: exact)."""
    proto = make_filter(entry_id, **budget)
    kw = {**budget, "B": proto.budget["B"]} if "B" in proto.budget and "B" not in budget else budget
    cache: dict = {}

    def cont(history, candidate: tuple) -> bool:
        params = tuple(history)
        key = (params, tuple(candidate))
        if key in cache:
            return cache[key]
        f = make_filter(entry_id, **kw)
        for e, d in params:
            if f.try_spend(e, d) is not Decision.CONT:
                cache[key] = False
                return False
        r = f.try_spend(candidate[0], candidate[1] if len(candidate) > 1 else 0) is Decision.CONT
        cache[key] = r
        return r

    return cont


class _Parser:
    """Parse and cache an adversary's raw choices: None (stop), eps, or (eps,) / (eps, delta)."""

    def __init__(self):
        self.cache: dict = {}

    def __call__(self, raw) -> Optional[tuple[Fraction, Fraction]]:
        if raw is None:
            return None
        try:
            return self.cache[raw]
        except (KeyError, TypeError):
            pass
        if isinstance(raw, (tuple, list)):
            if not 1 <= len(raw) <= 2:
                raise DomainError("adversary", raw, "None, eps or (eps, delta)", _THM)
            c = (_parse_eps("eps", raw[0]), _parse_delta("delta", raw[1] if len(raw) > 1 else 0))
        else:
            c = (_parse_eps("eps", raw), Fraction(0))
        try:
            self.cache[raw] = c
        except TypeError:
            pass
        return c


class _RR:
    """Cached arb constants of (eps, delta)-RR at the current precision."""

    def __init__(self):
        self.cache: dict = {}

    def __call__(self, e: Fraction, d: Fraction):
        r = self.cache.get((e, d))
        if r is None:
            ea = fraction_to_arb(e)
            ex = ea.exp()
            q_agree = 1 / (1 + ex)           # Q(+eps output) = 1/(1+e^eps); P(+eps) = e^eps/(1+e^eps)
            p_agree = ex * q_agree
            da = fraction_to_arb(d)
            r = (p_agree, 1 - p_agree, q_agree, 1 - q_agree, da, 1 - da)
            self.cache[(e, d)] = r
        return r


@dataclass
class InteractionLaw:
    """The exact laws (under x and x') of the stopped transcript of an adaptive interaction, merged by state.

    ``terminal_q``: loss -> Q-mass of the non-revealing terminal transcripts with that loss (their P-mass is
    e^loss times it).  ``reveal_p``: P-mass of transcripts containing an output that reveals x (Q = 0);
    ``reveal_q``: Q-mass of transcripts revealing x' (P = 0).  ``states`` (when kept): (History, P, Q) per merged
    terminal state.  ``truncated``: True if some state reached ``max_rounds`` while the adversary still wanted a round
    that the filter allowed (the result is then exact for the truncated interaction).
    """

    terminal_q: dict
    reveal_p: arb
    reveal_q: arb
    prec: int
    max_rounds_run: int
    peak_states: int
    truncated: bool
    states: list = field(default_factory=list)

    def delta(self, eps_g, prec: Optional[int] = None) -> Certified:
        """Certified delta(eps_g) = sum_t max(0, P(t) - e^{eps_g} Q(t)) of the stopped transcript."""
        eg = parse_exact("eps_g", eps_g, _THM)
        with arb_prec(prec or self.prec):
            ege = fraction_to_arb(eg).exp()
            total = arb(0)
            cache: dict = {}
            for L, q in self.terminal_q.items():
                if L > eg:
                    total += q * _excess(L, eg, ege, cache)
            return _cert(self.reveal_p + total)

    def total_p(self) -> arb:
        """Total P-mass (an enclosure of 1: a sanity check)."""
        with arb_prec(self.prec):
            return self.reveal_p + sum((fraction_to_arb(L).exp() * q for L, q in self.terminal_q.items()), arb(0))

    def total_q(self) -> arb:
        """Total Q-mass (an enclosure of 1 minus nothing: a sanity check)."""
        with arb_prec(self.prec):
            return self.reveal_q + sum(self.terminal_q.values(), arb(0))


def _forward(adversary: Adversary, filt: FilterFn, max_rounds: int, max_states: int, on_terminal, on_step):
    """Shared forward DP over merged states (param-history id, loss, agree) -> mass (arb).

    Callbacks: ``on_step(h, cand, mass, child_params) -> (mass_plus, mass_minus)`` gives the masses of the two
    non-revealing children (None = absorbed, not followed); ``on_terminal(h, mass)`` records a state that stops.
    Parameter histories are interned so a tuple is built once per distinct history.
    """
    parse = _Parser()
    hist_params: list[tuple] = [()]
    hist_child: dict = {}
    live: dict[tuple, arb] = {(0, Fraction(0), 0): arb(1)}
    peak, rounds_run, truncated = 1, 0, False
    for r in range(max_rounds + 1):
        nxt: dict[tuple, arb] = {}
        for (pid, loss, agree), m in live.items():
            h = History(hist_params[pid], loss, agree)
            cand = parse(adversary(h))
            if cand is not None and not filt(h, cand):
                cand = None
            if cand is not None and r == max_rounds:
                truncated = True
                cand = None
            if cand is None:
                on_terminal(h, m)
                continue
            ck = (pid, cand)
            cid = hist_child.get(ck)
            if cid is None:
                cid = len(hist_params)
                hist_params.append(hist_params[pid] + (cand,))
                hist_child[ck] = cid
            e = cand[0]
            children = on_step(h, cand, m, hist_params[cid])
            for (dl, da), mm in zip(((e, 1), (-e, 0)), children):
                if mm is None:
                    continue
                key = (cid, loss + dl, agree + da)
                nxt[key] = nxt[key] + mm if key in nxt else mm
        if not nxt:
            break
        rounds_run = r + 1
        if len(nxt) > max_states:
            raise DomainError("adversary", "<policy>", f"at most {max_states} distinct states", _THM,
                              "state space too large for exact dynamic programming")
        peak = max(peak, len(nxt))
        live = nxt
    return rounds_run, peak, truncated


def adaptive_laws(adversary: Adversary, filt: FilterFn = always_continue, max_rounds: int = 200,
                  max_states: int = 200_000, prec: int = PREC, keep_states: bool = False) -> InteractionLaw:
    """The exact laws of the stopped transcript of an adaptive interaction (see :class:`InteractionLaw`).

    Each round: the adversary sees the :class:`History` and returns (eps, delta) (or eps, or None to stop); the
    filter ``filt(history, candidate)`` returns True (CONT: the round runs) or False (HALT: the interaction ends);
    the round is (eps, delta)-RR (WRRW23 Def. 7).  At most ``max_rounds`` rounds run.
    Exact DP: states with equal (parameter history, loss, agree count) are merged (the adversary and filter are
    deterministic functions of the History, so the future of merged transcripts is identical; and P = e^L Q per
    transcript, so the hockey-stick divergence is unchanged by merging).  Masses are arb balls at ``prec`` bits.
    Domain: adversary choices eps >= 0, 0 <= delta < 1; at most ``max_states`` live states per round.
    """
    if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 0:
        raise DomainError("max_rounds", max_rounds, "an integer >= 0", _THM)
    with arb_prec(prec):
        rr = _RR()
        term: dict[Fraction, arb] = {}
        acc = {"rp": arb(0), "rq": arb(0)}
        states: list = []

        def on_terminal(h: History, q: arb):
            term[h.loss] = term[h.loss] + q if h.loss in term else q
            if keep_states:
                states.append((h, fraction_to_arb(h.loss).exp() * q, q))

        def on_step(h: History, cand, q: arb, _params):
            e, d = cand
            _, _, qa, qd, da, keep = rr(e, d)
            if d:
                acc["rp"] += fraction_to_arb(h.loss).exp() * q * da   # P-mass of "reveal x" (P = e^L Q)
                acc["rq"] += q * da
            return (q * keep * qa, q * keep * qd)

        run, peak, trunc = _forward(adversary, filt, max_rounds, max_states, on_terminal=on_terminal,
                                    on_step=on_step)
        return InteractionLaw(term, acc["rp"], acc["rq"], prec, run, peak, trunc, states)


def adaptive_delta(adversary: Adversary, filt: FilterFn, eps_g, max_rounds: int = 200,
                   max_states: int = 200_000, prec: int = PREC) -> Certified:
    """Certified exact delta(eps_g) of the whole adaptive interaction (adversary + filter, at most max_rounds).

    Source: WRRW23 Lemma 11 (conditional (eps, delta)-RR is the worst case of each round given the past); the value
    is exact for the given adversary.  Domain: as :func:`adaptive_laws`.
    """
    return adaptive_laws(adversary, filt, max_rounds, max_states, prec).delta(eps_g)


def optimal_adversary(menu: Sequence, filt: FilterFn, eps_g, max_rounds: int, max_states: int = 200_000,
                      prec: int = PREC):
    """(adversary, Certified delta): a delta(eps_g)-maximizing adaptive policy over ``menu`` against ``filt``.

    Backward induction over states (parameter history, loss): value(state) = max( Q-weighted terminal value
    (e^L - e^{eps_g})_+ , max over menu items the filter allows of  delta e^L + (1-delta) (q+ v(+) + q- v(-)) ),
    in float64 (the argmax only); the chosen policy's delta is then computed exactly by :func:`adaptive_delta`, so
    the returned Certified is exact for that adversary and a certified LOWER bound on the worst case over adaptive
    adversaries playing the menu for at most ``max_rounds`` rounds.  The policy depends on (parameters, loss) only;
    during the search the filter sees ``History.agree == -1`` (filters must not depend on the agree count).
    Domain: a finite menu of eps or (eps, delta); state space explored exhaustively (exponential in max_rounds).
    """
    parse = _Parser()
    items = []
    for m in menu:
        c = parse(m)
        if c is not None and c not in items:
            items.append(c)
    eg = parse_exact("eps_g", eps_g, _THM)
    egf = float(eg)
    memo: dict = {}
    policy: dict = {}
    count = [0]

    def value(params: tuple, loss: Fraction) -> float:
        key = (params, loss)
        if key in memo:
            return memo[key]
        count[0] += 1
        if count[0] > max_states:
            raise DomainError("menu", "<menu>", f"at most {max_states} states", _THM, "state space too large")
        Lf = float(loss)
        best = max(0.0, math.exp(Lf) - math.exp(egf)) if Lf > egf else 0.0
        choice = None
        if len(params) < max_rounds:
            h = History(params, loss, -1)
            for c in items:
                if not filt(h, c):
                    continue
                e, d = c
                ef, df = float(e), float(d)
                qa = 1.0 / (1.0 + math.exp(ef))
                np_ = params + (c,)
                v = df * math.exp(Lf) + (1 - df) * (qa * value(np_, loss + e) + (1 - qa) * value(np_, loss - e))
                if v > best * (1 + 1e-12) + 1e-300:
                    best, choice = v, c
        memo[key] = best
        policy[key] = choice
        return best

    value((), Fraction(0))

    def adv(h: History):
        return policy.get((tuple(h.params), h.loss))

    return adv, adaptive_delta(adv, filt, eg, max_rounds, max_states, prec)


# ------------------------------------------------------------------------------------------------ odometers


_U = Fraction(1, 2 ** 53)          # unit roundoff of float64
_ETA = Fraction(1, 2 ** 1074)      # smallest subnormal: absolute error bound of one underflowing operation


_MINUS_INF = "-oo"


def _above(L: Fraction, u) -> bool:
    """L > u for u a Fraction, None (+oo) or _MINUS_INF."""
    if u is None:
        return False
    if u is _MINUS_INF:
        return True
    return L > u


def _threshold_interval(v) -> tuple[Any, Any]:
    """(lo, hi) exact ends of a threshold value; None = +oo, _MINUS_INF = -oo (-inf, or a non-finite arb ball).

    Accepts float/int/Fraction/str (its exact value), +-inf, None (+oo), an arb ball, or a (lo, hi) pair of those.
    """
    if isinstance(v, tuple):
        lo, hi = (_threshold_interval(v[0])[0], _threshold_interval(v[1])[1])
        return lo, hi
    if isinstance(v, arb):
        if v.is_nan():
            raise DomainError("odometer", v, "a number, an arb ball or a (lo, hi) pair", _THM)
        if not v.is_finite():
            return _MINUS_INF, None          # unknown threshold: possibly crossed, never surely crossed
        lo, hi = arb_endpoints(v)
        return lo, hi
    if v is None or (isinstance(v, float) and v == math.inf):
        return None, None
    if isinstance(v, float) and math.isnan(v):
        raise DomainError("odometer", v, "a number (not NaN)", _THM)
    if isinstance(v, float) and v == -math.inf:
        return _MINUS_INF, _MINUS_INF
    q = parse_exact("odometer", v, _THM)
    return q, q


def _count_below(n: int, eps: Fraction, u: Optional[Fraction]) -> int:
    """#{l in [0, n] : (n - 2l) eps > u}  (l = number of disagree outputs; u None = +oo)."""
    if u is None:
        return 0
    if u is _MINUS_INF:
        return n + 1
    t = (n * eps - u) / (2 * eps)       # l < t
    if t <= 0:
        return 0
    return min(n + 1, -((-t.numerator) // t.denominator))


def _crossing_counts(odometer_fn, eps: Fraction, N: int) -> tuple[list[int], list[int]]:
    """Per round n = 1..N: (#l surely crossing, #l possibly crossing) from the threshold's (lo, hi) ends."""
    seq = None if callable(odometer_fn) else odometer_fn
    if seq is not None and len(seq) < N:
        raise DomainError("odometer_fn", f"<{len(seq)} values>", f"a callable or a sequence of >= N = {N} values", _THM)
    sure, poss = [], []
    for n in range(1, N + 1):
        lo, hi = _threshold_interval(seq[n - 1] if seq is not None else odometer_fn(n))
        poss.append(_count_below(n, eps, lo))
        sure.append(_count_below(n, eps, hi))
    return sure, poss


@dataclass(frozen=True)
class CrossingBounds:
    """Rigorous bounds lo <= P_x(exists n <= N: L_n > u(n)) <= hi (float64, rounded outward).

    ``absorbed`` is the exact sum of the float64 masses absorbed by the DP and ``error`` the explicit bound on the
    accumulated rounding error (see :func:`crossing_probability_bounds`).
    """

    lo: float
    hi: float
    absorbed_sure: Fraction = field(repr=False)
    absorbed_possible: Fraction = field(repr=False)
    error: Fraction = field(repr=False)
    N: int = 0
    eps: Fraction = field(default=Fraction(0), repr=False)

    @property
    def error_float(self) -> float:
        """The rounding-error term, rounded up."""
        return float_up(self.error)


def _absorb_dp(counts: list[int], p: float, N: int) -> Fraction:
    """Float64 absorbing-boundary DP; returns the exact sum of the absorbed float masses."""
    q = 1.0 - p                          # exact (Sterbenz: p in [1/2, 1])
    a = np.zeros(N + 2)
    b = np.zeros(N + 2)
    tmp = np.zeros(N + 2)
    a[0] = 1.0
    zlo = 0                               # a[:zlo] == 0 exactly
    absorbed = Fraction(0)
    for n in range(1, N + 1):
        m = n                             # a[0:m] valid (l = 0..n-1)
        np.multiply(a[:m], p, out=b[:m])  # b[l] = a[l] p            (one rounding)
        b[m] = 0.0
        np.multiply(a[:m], q, out=tmp[:m])
        b[1:m + 1] += tmp[:m]             # b[l] += a[l-1] q          (one rounding + one rounding)
        c = counts[n - 1]
        if c > zlo:
            s = math.fsum(b[zlo:c].tolist())  # correctly rounded
            absorbed += Fraction(s)
            b[zlo:c] = 0.0
            zlo = c
        a, b = b, a
        if zlo > n:
            break                         # everything absorbed
    return absorbed


def crossing_probability_bounds(odometer_fn, eps, N: int) -> CrossingBounds:
    """Rigorous [lo, hi] on P_x(exists n <= N : L_n > u(n)) for the homogeneous eps-RR privacy-loss path.

    L_n = (n - 2 l_n) eps with l_n ~ Binomial(n, 1/(1+e^eps)) under x; ``odometer_fn(n)`` (or a sequence, index
    n-1) is the threshold u(n): a float/int/Fraction/decimal string (its exact value), an arb ball or a (lo, hi)
    pair (an enclosure: hi uses its lower end, lo its upper end), or +inf.  The crossing sets are computed exactly
    (rational arithmetic).  Masses evolve in float64 (absorbing-boundary DP over l, O(N^2) flops).

    Rounding-error bound (u = 2^-53, eta = 2^-1074, gamma_2 = 2u/(1-2u), Delta = |p~ - p| certified with arb,
    1 - p~ exact by Sterbenz): per step each entry takes 3 roundings (two products, one sum), so the computed
    vector differs from the exact kernel applied to the previous computed vector by <= (gamma_2 + 2 Delta) m + 2 eta
    per entry-set (m = computed mass <= M = 1/(1 - N gamma_2) + ...); the exact kernel is an L1 contraction and
    absorption only splits the error, so the absorbed total's error is at most the sum of the local errors plus the
    summation errors (math.fsum is correctly rounded: <= u per absorbed sum + eta; the running total is an exact
    Fraction):  err = N ((gamma_2 + 2 Delta) M + 2 (N+2) eta) + u M + N eta.
    Domain: eps > 0, integer N >= 1.
    """
    e = parse_exact("eps", eps, _THM)
    if not e > 0:
        raise DomainError("eps", eps, "eps > 0", _THM)
    if isinstance(N, bool) or not isinstance(N, int) or N < 1:
        raise DomainError("N", N, "an integer N >= 1", _THM)
    sure, poss = _crossing_counts(odometer_fn, e, N)
    with arb_prec(128):
        ea = fraction_to_arb(e)
        p_arb = ea.exp() / (1 + ea.exp())
        p = float_down(p_arb.mid()) if p_arb.mid().is_finite() else 0.5
        p = min(max(p, 0.5), 1.0)
        plo, phi = arb_endpoints(p_arb)
    pf = Fraction(p)
    delta_p = max(abs(pf - plo), abs(phi - pf))
    gamma2 = 2 * _U / (1 - 2 * _U)
    if N * gamma2 >= Fraction(1, 2):
        raise DomainError("N", N, "N * 2^-52 < 1/2", _THM)
    M = 1 / (1 - N * gamma2) + N * 2 * (N + 2) * _ETA * 2
    err = N * ((gamma2 + 2 * delta_p) * M + 2 * (N + 2) * _ETA) + _U * M + N * _ETA
    a_poss = _absorb_dp(poss, p, N)
    a_sure = a_poss if sure == poss else _absorb_dp(sure, p, N)
    hi = min(Fraction(1), a_poss + err)
    lo = max(Fraction(0), a_sure - err)
    return CrossingBounds(float_down(lo), float_up(hi), a_sure, a_poss, err, N, e)


def crossing_probability(odometer_fn, eps, N: int) -> float:
    """A rigorous float64 UPPER bound on P_x(exists n <= N : L_n > u(n)) (see :func:`crossing_probability_bounds`).

    Source: the exact worst case of an odometer with homogeneous pure rounds is the eps-RR loss path (KOV15 / WRRW23
    Lemma 11).  Domain: eps > 0, integer N >= 1; ``odometer_fn(n)`` the threshold after n rounds (a float is taken
    at its exact value: pass a lower bound of the odometer for a safe upper crossing probability).
    """
    return crossing_probability_bounds(odometer_fn, eps, N).hi


def crossing_probability_adaptive(adversary: Adversary, odometer_fn: Callable[[History], Any], max_rounds: int,
                                  filt: FilterFn = always_continue, max_states: int = 200_000,
                                  prec: int = PREC) -> Certified:
    """Certified P_x(exists n : L_n > u(history_n)) when an adversary picks (eps, delta) per round (heterogeneous /
    adaptive parameters from a menu), at most ``max_rounds`` rounds.

    ``odometer_fn(history)`` is the threshold after the rounds in ``history`` (its ``params``/``V``; the loss field
    is the loss *after* the round) in any form accepted by :func:`crossing_probability_bounds`.  A revealing output
    ("I am x", probability delta under x) has loss +oo and counts as a crossing unless the threshold is +oo.
    Exact DP over merged states under x in arb; when thresholds are enclosures the lower end is computed by a second
    pass absorbing only sure crossings.  Domain: as :func:`adaptive_laws`.
    """

    def run(mode_hi: bool) -> tuple[arb, bool]:
        with arb_prec(prec):
            rr = _RR()
            acc = {"abs": arb(0), "ambiguous": False}

            def on_terminal(h, p):
                pass

            def on_step(h: History, cand, p: arb, new_params):
                e, d = cand
                pa, pd, _, _, da, keep = rr(e, d)
                res = []
                for dl, inc, pp in ((e, 1, pa), (-e, 0, pd)):
                    h2 = History(new_params, h.loss + dl, h.agree + inc)
                    lo, hi = _threshold_interval(odometer_fn(h2))
                    possible = _above(h2.loss, lo)
                    sure = _above(h2.loss, hi)
                    if possible != sure:
                        acc["ambiguous"] = True
                    m = p * keep * pp
                    if possible if mode_hi else sure:
                        acc["abs"] += m
                        res.append(None)          # absorbed: the path stops being followed
                    else:
                        res.append(m)
                    if inc and d:
                        # the output revealing x: loss +oo, a crossing unless the threshold is +oo
                        if (lo is not None) != (hi is not None):
                            acc["ambiguous"] = True
                        if (lo is not None) if mode_hi else (hi is not None):
                            acc["abs"] += p * da
                return tuple(res)

            _forward(adversary, filt, max_rounds, max_states, on_terminal=on_terminal, on_step=on_step)
            return acc["abs"], acc["ambiguous"]

    hi_ball, ambiguous = run(True)
    hi_c = _cert(hi_ball)
    if not ambiguous:
        return hi_c
    lo_c = _cert(run(False)[0])
    return Certified(lo_c.lo, hi_c.hi)


def crossing_probability_mc(bound, eps, N: int, paths: int = 20000, seed: int = 0, conf: float = 1e-6,
                            method: str = "hoeffding") -> tuple[float, float, float]:
    """Monte Carlo estimate of the crossing probability with a (1 - conf) interval: (est, lo, hi).

    Seeded (numpy default_rng(seed)); the crossing event is the same exact lattice event as the upper DP of
    :func:`crossing_probability_bounds` (threshold lower ends), simulated through the disagree count.
    ``method``: 'hoeffding' (est +- sqrt(log(2/conf)/(2 paths))) or 'clopper-pearson' (exact binomial interval,
    Beta quantiles by bisection on mpmath's incomplete beta, nudged outward by 1e-12).  Float convenience, not certified (it is statistical).
    """
    e = parse_exact("eps", eps, _THM)
    if not e > 0:
        raise DomainError("eps", eps, "eps > 0", _THM)
    if isinstance(N, bool) or not isinstance(N, int) or N < 1:
        raise DomainError("N", N, "an integer N >= 1", _THM)
    if not (isinstance(paths, int) and paths >= 1):
        raise DomainError("paths", paths, "an integer >= 1", _THM)
    if not (0 < conf < 1):
        raise DomainError("conf", conf, "0 < conf < 1", _THM)
    _, poss = _crossing_counts(bound, e, N)
    c = np.asarray(poss, dtype=np.int64)            # cross at round n iff l_n < c[n-1]
    rng = np.random.default_rng(seed)
    q = 1.0 / (1.0 + math.exp(float(e)))             # P_x(disagree)
    crossed_total = 0
    chunk = max(1, min(paths, 4_000_000 // N))
    done = 0
    while done < paths:
        m = min(chunk, paths - done)
        dis = (rng.random((m, N)) < q).astype(np.int32)
        l = np.cumsum(dis, axis=1)
        crossed_total += int(np.any(l < c[None, :], axis=1).sum())
        done += m
    est = crossed_total / paths
    if method == "hoeffding":
        w = math.sqrt(math.log(2 / conf) / (2 * paths))
        return est, max(0.0, est - w), min(1.0, est + w)
    if method in ("clopper-pearson", "cp"):
        k = crossed_total
        lo = 0.0 if k == 0 else _beta_ppf(conf / 2, k, paths - k + 1)
        hi = 1.0 if k == paths else _beta_ppf(1 - conf / 2, k + 1, paths - k)
        return est, max(0.0, lo - 1e-12), min(1.0, hi + 1e-12)
    raise DomainError("method", method, "'hoeffding' or 'clopper-pearson'", _THM)


def _beta_ppf(q: float, a: float, b: float) -> float:
    """The q-quantile of Beta(a, b) by bisection on mpmath's regularized incomplete beta (private context)."""
    ctx = mp_context(30)
    lo, hi = ctx.mpf(0), ctx.mpf(1)
    for _ in range(80):
        mid = (lo + hi) / 2
        if ctx.betainc(a, b, 0, mid, regularized=True) < q:
            lo = mid
        else:
            hi = mid
    return float((lo + hi) / 2)


def odometer_lower_bound_fn(entry_id: str, params: dict, eps: float) -> Callable[[int], float]:
    """n -> a float LOWER bound on the odometer after n homogeneous pure rounds of eps (fast path lower end)."""
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
