"""Certified calibration of DP-SGD: the smallest noise multiplier, and the largest number of steps, whose certified
epsilon at delta is at most a target.

The curve delta(eps; sigma, k) of composition.sgm.* (and of a schedule) is nonincreasing in sigma (a pair at a
larger sigma is the pair at the smaller one with independent Gaussian noise added: post-processing) and
nondecreasing in k (the k-fold product is a marginal of the (k+1)-fold one).  For a target (eps, delta),

    sigma_min = inf{sigma > 0 : delta(eps; sigma) <= delta} = inf{sigma : eps(delta; sigma) <= eps}

(eps(delta) <= eps iff delta(eps) <= delta: delta(.) is continuous and nonincreasing).  A sigma whose certified
UPPER delta(eps) is <= delta is sufficient (every larger sigma is too: sigma_min <= it); a sigma whose certified
LOWER delta(eps) is > delta is insufficient (sigma_min >= it).  The enclosure [lo, hi] returned has hi certified
sufficient and lo certified insufficient (or lo = 0 when even the smallest sigma tried, 1/5, is sufficient: the
evaluator's box), found by bisection in log sigma, each point decided on the certified bracket of
:mod:`dpbounds.evaluation.sgm_schedule` at the coarsest width that decides it.  The largest k: the same with k
integer and the directions swapped (lo certified sufficient, hi + 1 certified insufficient).
"""

from __future__ import annotations

import math
from fractions import Fraction

from dpbounds.evaluation.enclosure import CertificationError, Enclosure
from dpbounds.spec.core import Exact
from dpbounds.evaluation import sgm_schedule as SS

#: the bracket widths tried in turn to decide one point (the coarse ones are cheap and decide points far from the
#: target; the last is sgm_pld's floor)
_WIDTHS = (3e-2, 3e-3, 3e-4, 3e-5, 3e-6)
#: every q = 1 (the Gaussian curve) or one step (k = 1): the curve is a closed form in arb, cheap at any width
_WIDTHS_CLOSED = _WIDTHS + (1e-8, 1e-10, 1e-12, 1e-14)
#: the narrowest rel_tol asked of a calibration (reached where the curve is a closed form; elsewhere the bracket's floor, some
#: 1e-7 of sigma, ends the bisection with a CertificationError)
MIN_REL_TOL = 1e-12
SIGMA_MIN = Fraction(1, 5)
SIGMA_MAX = Fraction(10**4)
MAX_K = 10**6


def _check(name: str, value, lo, hi, what: str, lo_open=True, hi_open=True) -> Fraction:
    from dpbounds.spec import DomainError, parse_exact
    x = parse_exact(name, value, what)
    if (x <= lo if lo_open else x < lo) or (hi is not None and (x >= hi if hi_open else x > hi)):
        lo_s = "<" if lo_open else "<="
        hi_s = ("<" if hi_open else "<=") + f" {hi}" if hi is not None else ""
        raise DomainError(name, value, f"{lo} {lo_s} {name} {hi_s}".strip(), what)
    return x


def _status(phases, relation: str, sampling: str, eps: Fraction, delta: Fraction) -> int:
    """+1: certified sufficient (upper delta(eps) <= delta); -1: certified insufficient (lower > delta); 0: the
    narrowest bracket tried does not decide."""
    closed = all(q == 1 for q, _, _ in phases) or (len(phases) == 1 and phases[0][2] == 1)
    for w in (_WIDTHS_CLOSED if closed else _WIDTHS):
        try:
            enc = SS.schedule_delta(phases, eps, w, relation, sampling)
        except CertificationError:
            return 0
        if enc.hi is not None and enc.hi <= delta:
            return +1
        if enc.lo > delta:
            return -1
    return 0


def _scaled(phases, m: Fraction):
    return [(q, s * m, k) for q, s, k in phases]


def _dyadic(x: Fraction, bits: int = 56) -> Fraction:
    """A short rational near x (the bracket's arb arguments stay small)."""
    e = math.floor(math.log2(float(x))) if x > 0 else 0
    scale = Fraction(2) ** (bits - e)
    return Fraction(round(x * scale)) / scale


def _calibrate_multiplier(phases, eps: Fraction, delta: Fraction, relation: str, sampling: str, rel_tol: float,
                          what: str, floor: Fraction) -> Enclosure:
    """[lo, hi] of the smallest multiplier m (of every phase's sigma) with delta(eps) <= delta."""
    SS.check_combination(relation, sampling, what)

    def st(m: Fraction) -> int:
        return _status(_scaled(phases, m), relation, sampling, eps, delta)

    lo, hi = None, None         # lo certified insufficient (or the floor), hi certified sufficient
    m = Fraction(1)
    s = st(m)
    if s == 0:
        raise CertificationError(f"{what}: the certified bracket cannot decide the starting point")
    if s > 0:
        hi = m
        while True:
            m2 = m / 2
            if m2 < floor:
                m2 = floor
            s2 = st(m2)
            if s2 < 0:
                lo = m2
                break
            if s2 == 0:
                lo = Fraction(0)    # undecided: fall back to 0 and bisect from there
                break
            hi = m2
            if m2 == floor:
                return Enclosure(Fraction(0), hi, 53)   # even the smallest multiplier tried is sufficient
            m = m2
    else:
        lo = m
        while True:
            m2 = m * 2
            if m2 > SIGMA_MAX:
                raise CertificationError(f"{what}: no multiplier up to {SIGMA_MAX} is certified sufficient")
            s2 = st(m2)
            if s2 > 0:
                hi = m2
                break
            if s2 < 0:
                lo = m2
            m = m2
    stuck = 0
    while hi - lo > Fraction(rel_tol) * hi / 2:
        mid = _dyadic((lo + hi) / 2) if lo > 0 else hi / 2
        if not lo < mid < hi:
            mid = (lo + hi) / 2
        s = st(mid)
        if s > 0:
            hi = mid
        elif s < 0:
            lo = mid
        else:
            # undecided at the midpoint: try the points a quarter in from either end before giving up
            stuck += 1
            a, b = _dyadic(lo + (hi - lo) / 4), _dyadic(hi - (hi - lo) / 4)
            if st(b) > 0:
                hi = b
            elif st(a) < 0:
                lo = a
            else:
                break
    if hi - lo > Fraction(rel_tol) * hi:
        raise CertificationError(f"{what}: sigma_min certified only to [{float(lo):.6g}, {float(hi):.6g}] (relative "
                                 f"width {float((hi - lo) / hi):.2g} > {rel_tol:g}): the curve is too flat there")
    return Enclosure(lo, hi, 53)


def calibrate_sgm(eps: Exact, delta: Exact, q: Exact, k: Exact, *, relation: str = "add_remove",
                  sampling: str = "poisson", rel_tol: float = 1e-3) -> Enclosure:
    """Enclosure [lo, hi] of the smallest noise multiplier sigma for which k steps of DP-SGD (sampling rate q, clip
    norm 1, the relation and sampler given) are (eps, delta)-DP by composition.sgm.delta: hi is certified sufficient
    (its certified upper delta at eps is <= delta, so its certified epsilon is <= eps), lo certified insufficient
    (its certified lower delta at eps is > delta), or 0 when sigma = 1/5 already suffices.  (hi - lo) <= rel_tol hi.
    DomainError on bad input; CertificationError when the bracket cannot decide to that width."""
    what = "calibrate_sgm"
    e = _check("eps", eps, 0, None, what)
    d = _check("delta", delta, 0, 1, what)
    qq = _check("q", q, 0, 1, what, hi_open=False)
    kk = _steps(k, what)
    tol = _tol(rel_tol, what)
    return _calibrate_multiplier([(qq, Fraction(1), kk)], e, d, relation, sampling, tol, what, SIGMA_MIN)


def calibrate_sgm_schedule(eps: Exact, delta: Exact, phases: str, *, relation: str = "add_remove",
                           sampling: str = "poisson", rel_tol: float = 1e-3) -> Enclosure:
    """Enclosure of the smallest common multiplier m of a schedule's noise: with every phase's sigma_i replaced by
    m sigma_i the schedule is (eps, delta)-DP (hi certified sufficient, lo certified insufficient).  Write the
    phases with sigma 1 to calibrate one noise multiplier for all of them."""
    from dpbounds.spec.composition import phases_of
    what = "calibrate_sgm_schedule"
    e = _check("eps", eps, 0, None, what)
    d = _check("delta", delta, 0, 1, what)
    ph = phases_of(phases)
    tol = _tol(rel_tol, what)
    floor = SIGMA_MIN / min(s for _, s, _ in ph)
    return _calibrate_multiplier(ph, e, d, relation, sampling, tol, what, floor)


def calibrate_sgm_steps(eps: Exact, delta: Exact, q: Exact, sigma: Exact, *, relation: str = "add_remove",
                        sampling: str = "poisson", max_k: int = MAX_K) -> Enclosure:
    """Enclosure [lo, hi] of the largest k with k steps (eps, delta)-DP: lo certified sufficient, hi + 1 certified
    insufficient (lo = hi when both are decided; Enclosure(0, 0) when one step is already too many)."""
    what = "calibrate_sgm_steps"
    e = _check("eps", eps, 0, None, what)
    d = _check("delta", delta, 0, 1, what)
    qq = _check("q", q, 0, 1, what, hi_open=False)
    ss = _check("sigma", sigma, SIGMA_MIN, None, what, lo_open=False)
    SS.check_combination(relation, sampling, what)

    def st(k: int) -> int:
        return _status([(qq, ss, k)], relation, sampling, e, d)

    if st(1) < 0:
        return Enclosure(Fraction(0), Fraction(0), 53)
    good, bad = 1, None          # good certified sufficient; bad certified insufficient
    k = 1
    while bad is None:
        k2 = min(2 * k, max_k)
        s = st(k2)
        if s > 0:
            good = k2
            if k2 == max_k:
                raise CertificationError(f"{what}: {max_k} steps are still certified sufficient (the evaluator's box)")
        elif s < 0:
            bad = k2
        elif k2 == max_k:        # undecided at the box's edge: no certified upper end
            raise CertificationError(f"{what}: the bracket cannot decide k = {max_k}")
        k = k2                   # undecided: the curve is near the target there; keep doubling
    hi = bad - 1
    while hi - good > 0:
        mid = (good + hi + 1) // 2
        s = st(mid)
        if s > 0:
            good = mid
        elif s < 0:
            hi = mid - 1
        else:
            break
    return Enclosure(Fraction(good), Fraction(hi), 53)


def _steps(k, what: str) -> int:
    from dpbounds.spec import DomainError, parse_exact
    x = parse_exact("k", k, what)
    if x.denominator != 1 or not 1 <= x <= MAX_K:
        raise DomainError("k", k, f"an integer 1 <= k <= {MAX_K}", what)
    return int(x)


def _tol(rel_tol, what: str) -> float:
    from dpbounds.spec import DomainError
    try:
        t = float(rel_tol)
    except (TypeError, ValueError):
        raise DomainError("rel_tol", rel_tol, f"a number in [{MIN_REL_TOL:g}, 0.5]", what) from None
    if not MIN_REL_TOL <= t <= 0.5:
        raise DomainError("rel_tol", rel_tol, f"a number in [{MIN_REL_TOL:g}, 0.5]", what)
    return t
