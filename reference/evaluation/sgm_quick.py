"""Cheap certified bounds on ``composition.sgm.eps|delta`` (add/remove neighbours, Poisson sampling) and the PLD
brackets of one (q, sigma, k) kept for every eps and delta asked of it: what lets the audit judge DP-SGD accountants
at the speed it judges closed forms, without a single verdict that a certified bound does not decide.

* :func:`rdp_eps_upper` / :func:`rdp_delta_upper` -- upper bounds from the Renyi divergence of the subsampled Gaussian
  at the integer orders :data:`ORDERS`: the binomial expansion of its log-moment (``mechanisms.sgm.rdp``, MTZ19
  Sec. 3.3, in arb), times k (RDP composes additively over product pairs), converted by CKS20 Prop. 12 (= BBGHS20
  Thm 21), valid for both directions because the add direction's divergence is the smaller (MTZ19; proofs_check
  ``mechanisms.sgm.rdp.a_ge_b``).  proofs_check ``composition.sgm.quick.rdp_upper``.
* :func:`one_step_delta_lower` / :func:`one_step_eps_lower` -- lower bounds from one step: forgetting all but the
  first coordinate is a garbling of the k-fold product pair, so H_{e^eps}(P^k || Q^k) >= H_{e^eps}(P || Q) (data
  processing) in both directions, and the one-step value is the closed form in erfc (``sgm_pld.enclose_delta`` at
  k = 1, in arb).  proofs_check ``composition.sgm.quick.one_step_lower``.
* :func:`interval` -- the float interval of the audit's oracle (``dpbounds.testing.oracle``): [one-step lower, RDP
  upper], a function of the point alone.  Where the curve is a closed form (q = 1: sqrt(k)/sigma-GDP; k = 1: one
  step) it is the certified closed form itself (sgm_pld's, in arb): delta at the point, or eps(delta) as two points
  next to a float guess whose certified deltas straddle delta (delta(.) is nonincreasing: proofs_check
  ``composition.sgm.inverse_bracket``) -- two arb evaluations instead of the evaluator's bisection.
* :func:`narrowed` -- the certified enclosure the oracle judges a peer's value against: PLD brackets
  (``sgm_pld.bracket``) on the grid steps :func:`grid_steps` (coarse first), kept in a bounded cache per
  (q, sigma, k, h) so that every delta and eps of one (q, sigma, k) reuses them, each consulted at the peer's value
  first (delta(v) certified above or below delta decides eps <= v or eps >= v: proofs_check
  ``composition.sgm.inverse_bracket``), the first grid that decides the verdict ends the ladder.

The audit's verdicts must not depend on what ran before in the process: the interval depends only on the point, the
ladder always starts at the coarsest grid, and a bracket cached under one work bound
(``sgm_pld.work_limit``) is never served under another.
"""

from __future__ import annotations

import functools
import math
from collections import OrderedDict
from fractions import Fraction
from typing import Any, Mapping

import numpy as np
from flint import arb

from dpbounds.evaluation import sgm_pld as S
from dpbounds.evaluation.enclosure import CertificationError, Enclosure
from dpbounds.evaluation.numeric import arb_prec, float_down, float_up, fraction_to_arb

#: the entries this module bounds (their default options: add/remove neighbours, Poisson sampling)
ENTRIES = ("composition.sgm.eps", "composition.sgm.delta")
#: the integer Renyi orders of the upper bounds (dp_accounting's RDP accountant uses 2..64 and a few beyond)
ORDERS = tuple(range(2, 65)) + (72, 80, 96, 128, 192, 256, 384, 512)
_ORDERS_F = np.array(ORDERS, dtype=np.float64)
#: working precision of the log-moments (the binomial recursion of n <= 512 steps loses well under 30 bits)
_BITS = 128


# ------------------------------------------------------------------------------------------------ RDP upper bounds

@functools.lru_cache(maxsize=256)
def _log_moments(q: Fraction, sigma: Fraction) -> tuple[arb, ...]:
    """arb balls of K(n) = log E_{x ~ N(0, s^2)}[(1 - q + q e^{(2x - 1)/(2 s^2)})^n] at the orders n of ORDERS:
    (n - 1) D_n(P || Q) of one step's remove pair (the larger direction).  q = 1: (n^2 - n)/(2 s^2) exactly."""
    from dpbounds.evaluation.sgm import binomial_log_moment, gaussian_log_moment
    with arb_prec(_BITS):
        if q == 1:
            return tuple(gaussian_log_moment(sigma, Fraction(n)) for n in ORDERS)
        return tuple(binomial_log_moment(q, sigma, n) for n in ORDERS)


def _rdp_k(q: Fraction, sigma: Fraction, k: int) -> list[arb]:
    """k D_n(P || Q) at each order n (arb balls): the order-n Renyi divergence of the k-fold product pair, an upper
    bound for both directions."""
    with arb_prec(_BITS):
        return [K * k / (n - 1) for K, n in zip(_log_moments(q, sigma), ORDERS)]


def rdp_eps_upper(q: Fraction, sigma: Fraction, k: int, delta: Fraction) -> float:
    """A float64 >= composition.sgm.eps(q, sigma, k, delta): min over ORDERS of CKS20 Prop. 12 at k D_n
    (dpbounds.evaluation.rdp_conversions.cks20_eps_enclosure, its float interval with a proved error bound); +inf
    when no order bounds anything."""
    from dpbounds.evaluation.rdp_conversions import cks20_eps_enclosure
    r = np.array([float_up(v) for v in _rdp_k(q, sigma, k)], dtype=np.float64)  # rounded up: the bound grows in R
    enc = cks20_eps_enclosure(_ORDERS_F, r, delta, rel_tol=1.0)
    return math.inf if enc.pos_inf or enc.hi is None else float_up(enc.hi)


def rdp_delta_upper(q: Fraction, sigma: Fraction, k: int, eps: Fraction) -> float:
    """A float64 >= composition.sgm.delta(q, sigma, k, eps): min(1, min over ORDERS of the delta form of CKS20
    Prop. 12, exp((n - 1)(R_n - eps + log(1 - 1/n)) - log n) at R_n = k D_n), in arb."""
    best = 1.0
    with arb_prec(_BITS):
        e = fraction_to_arb(eps)
        for R, n in zip(_rdp_k(q, sigma, k), ORDERS):
            a = arb(n)
            v = ((a - 1) * (R - e + (-1 / a).log1p()) - a.log()).exp()
            if v.is_finite():
                best = min(best, float_up(v))
    return best


# ------------------------------------------------------------------------------------------------ one-step lower bounds

def one_step_delta_lower(q: Fraction, sigma: Fraction, eps: Fraction) -> float:
    """A float64 <= composition.sgm.delta(q, sigma, k, eps) for every k >= 1: the one-step value (closed form in arb,
    sgm_pld.enclose_delta at k = 1), rounded down."""
    enc = S.enclose_delta({"q": q, "sigma": sigma, "k": 1, "eps_g": eps}, 1e-3)
    return float_down(enc.lo)


def _delta1_float(q: float, s: float, e: float) -> float:
    """The one-step delta(e) in float64 (no guarantee: it only picks the point :func:`one_step_eps_lower` certifies)."""
    def ndtr(x: float) -> float:
        return 0.5 * math.erfc(-x / math.sqrt(2))
    E = math.exp(e)
    x = s * s * math.log((E - (1 - q)) / q) + 0.5
    rem = q * (ndtr(-(x - 1) / s) - ndtr(-x / s)) - (E - 1) * ndtr(-x / s)
    t = math.exp(-e) - (1 - q)
    add = 0.0
    if t > 0:
        xa = s * s * math.log(t / q) + 0.5
        c0, c1 = ndtr(xa / s), ndtr((xa - 1) / s)
        add = c0 - E * ((1 - q) * c0 + q * c1)
    return max(rem, add)


def one_step_eps_lower(q: Fraction, sigma: Fraction, delta: Fraction) -> float:
    """A float64 <= composition.sgm.eps(q, sigma, k, delta) for every k >= 1: a point e a little below the one-step
    eps(delta) (found in floats) whose certified one-step delta(e) exceeds delta (then eps_1 >= e, and eps_k >=
    eps_1); 0 when none is certified."""
    qf, sf, d = float(q), float(sigma), float(delta)
    if q >= 1 or not d > 0:
        return 0.0
    a, b = 0.0, 1.0
    try:
        if not _delta1_float(qf, sf, 0.0) > d:
            return 0.0
        while _delta1_float(qf, sf, b) > d:
            a, b = b, 2 * b
            if b > 1e4:
                return 0.0
        for _ in range(50):
            m = (a + b) / 2
            a, b = (m, b) if _delta1_float(qf, sf, m) > d else (a, m)
    except (ArithmeticError, ValueError):
        return 0.0
    e = float_down(Fraction(a) * (1 - Fraction(1, 1000)))
    if e <= 0:
        return 0.0
    try:
        if Fraction(one_step_delta_lower(q, sigma, Fraction(e))) > delta:
            return e
    except CertificationError:
        pass
    return 0.0


# ------------------------------------------------------------------------------------------------ the oracle's hooks

@functools.lru_cache(maxsize=64)
def _parse(entry_id: str, items: tuple) -> tuple[Fraction, Fraction, int, Fraction] | None:
    """(q, sigma, k, x) of a point (x = delta or eps_g), checked against the entry's domain (DomainError outside),
    or None where this module does not apply (other options)."""
    from dpbounds.evaluation.evaluate import prepare
    from dpbounds.spec import get
    entry = get(entry_id)
    p = prepare(entry, dict(items)).params
    if str(p.get("relation", "add_remove")) != "add_remove" or str(p.get("sampling", "poisson")) != "poisson":
        return None
    k = S._steps(p, entry_id)
    q, sigma = Fraction(p["q"]), Fraction(p["sigma"])
    return q, sigma, k, Fraction(p["delta" if entry_id.endswith(".eps") else "eps_g"])


def _point(entry_id: str, params: Mapping[str, Any]):
    items = tuple(sorted((str(n), v if isinstance(v, (str, int, Fraction)) else float(v)) for n, v in params.items()))
    return _parse(entry_id, items)


def _closed(q: Fraction, k: int) -> bool:
    """The curve is a closed form (q = 1, k = 1): the entry's evaluator certifies it at any width."""
    return q == 1 or k == 1


# ------------------------------------------------------------------------------------------------ closed forms

#: the relative distances from a float guess of eps(delta) at which :func:`closed_eps_interval` tries to certify two
#: points straddling it, nearest first
STRADDLE = (2.0 ** -30, 2.0 ** -20, 2.0 ** -10)


def _closed_delta(q: Fraction, sigma: Fraction, k: int, eps: Fraction) -> tuple[Fraction, Fraction] | None:
    """Exact rational ends [lo, hi] around delta(eps) of a closed-form curve (sgm_pld's certified closed forms:
    q = 1 the Gaussian curve at rho = k / (2 sigma^2), k = 1 the one-step hockey stick in arb), or None where it
    was not certified."""
    try:
        if q == 1:
            return S._gauss_delta_ball(sigma, k, eps, 1e-9, ENTRIES[1])
        for bits in (128, 512):
            ends = S._k1_ends(q, sigma, eps, bits)
            if ends is not None:
                return ends
    except (CertificationError, ArithmeticError, ValueError):
        pass
    return None


def _eps_guess(q: float, s: float, k: int, d: float) -> float | None:
    """A float guess of eps(d) of a closed-form curve (no guarantee: it only picks the points certified), None when
    floats cannot tell: the one-step curve at sigma / sqrt(k) for q = 1 (k Gaussian steps are one at
    sigma / sqrt(k))."""
    if q == 1:
        s, k = s / math.sqrt(k), 1
    a, b = 0.0, 1.0
    try:
        while _delta1_float(q, s, b) > d:
            a, b = b, 2 * b
            if b > 1e7:
                return None
        for _ in range(60):
            m = (a + b) / 2
            a, b = (m, b) if _delta1_float(q, s, m) > d else (a, m)
    except (ArithmeticError, ValueError):
        return None
    return b if math.isfinite(b) else None


def closed_eps_interval(q: Fraction, sigma: Fraction, k: int, delta: Fraction) -> tuple[float, float] | None:
    """Floats (lo, hi) with lo <= eps(delta) <= hi of a closed-form curve (q = 1 or k = 1), about 2^-30 wide
    (relative) where floats guess well: e with certified delta(e) > delta is <= eps, e with certified
    delta(e) <= delta is >= eps (delta(.) nonincreasing); (0, 0) when delta(0) <= delta; None when not certified."""
    d0 = _closed_delta(q, sigma, k, Fraction(0))
    if d0 is None:
        return None
    if d0[1] <= delta:
        return 0.0, 0.0
    g = _eps_guess(float(q), float(sigma), k, float(delta))
    if g is None or not g > 0:
        return None
    for r in STRADDLE:
        lo, hi = float_down(Fraction(g) * (1 - Fraction(r))), float_up(Fraction(g) * (1 + Fraction(r)))
        dl, dh = _closed_delta(q, sigma, k, Fraction(lo)), _closed_delta(q, sigma, k, Fraction(hi))
        if dl is not None and dh is not None and dl[0] > delta and dh[1] <= delta:
            return lo, hi
    return None


def closed_delta_interval(q: Fraction, sigma: Fraction, k: int, eps: Fraction) -> tuple[float, float] | None:
    """Floats (lo, hi) around delta(eps) of a closed-form curve (q = 1 or k = 1), or None when not certified."""
    d = _closed_delta(q, sigma, k, eps)
    return None if d is None else (float_down(d[0]), float_up(d[1]))


def interval(entry_id: str, params: Mapping[str, Any]) -> tuple[float, float] | None:
    """Floats (lo, hi) around the value of ``entry_id`` at ``params`` (lo <= value <= hi, certified), from the
    one-step lower bound and the RDP upper bound alone, or the closed form where there is one (a function of the
    point: never of a cache); None where the module does not apply or the closed form was not certified."""
    pt = _point(entry_id, params)
    if pt is None:
        return None
    q, sigma, k, x = pt
    if _closed(q, k):
        return (closed_eps_interval if entry_id.endswith(".eps") else closed_delta_interval)(q, sigma, k, x)
    if entry_id.endswith(".eps"):
        return one_step_eps_lower(q, sigma, x), rdp_eps_upper(q, sigma, k, x)
    return one_step_delta_lower(q, sigma, x), rdp_delta_upper(q, sigma, k, x)


#: the relative widths whose grid steps the ladder tries, coarse to fine (the bracket's width is about 0.75 k h^2,
#: sgm_pld._h_for); each finer grid only where the coarser ones left the verdict undecided
LADDER = (3e-1, 3e-2, 3e-3, 3e-4, 3e-5, 3e-6, 3e-7)
#: the bracket cache: at most this many brackets, and this many grid points over all of them (bounded memory: a
#: bracket holds four grids of at most ``grid_points`` masses and their weights, about 100 bytes a point)
CACHE_BRACKETS = 48
CACHE_POINTS = 1_000_000
_CACHE: "OrderedDict[tuple, S.Bracket | CertificationError]" = OrderedDict()


def grid_steps(q: Fraction, k: int) -> list[Fraction]:
    """The ladder's grid steps h = 1/N for (q, k), distinct, coarse to fine (h <= q: the dominated grid needs it)."""
    return [h for h, _ in _ladder(q, k)]


def _ladder(q: Fraction, k: int) -> list[tuple[Fraction, float]]:
    """(h, the LADDER width it was chosen for) of :func:`grid_steps`."""
    cap = Fraction(1, math.ceil(1 / q))
    out: list[tuple[Fraction, float]] = []
    for w in LADDER:
        h = min(S._h_for(0.75, k, w), cap)
        if not out or h < out[-1][0]:
            out.append((h, w))
    return out


def cached_bracket(q: Fraction, sigma: Fraction, k: int, h: Fraction) -> S.Bracket:
    """sgm_pld.bracket(q, sigma, k, h) (truncations at sgm_pld.TAU: every delta down to 1e-25 or so is read off it),
    from the cache when computed under the same work bound (a refusal -- the work bound, the largest grid -- is kept
    too: it is the same the next time)."""
    key = (q, sigma, k, h, S._WORK_LIMIT[0])
    b = _CACHE.get(key)
    if b is not None:
        _CACHE.move_to_end(key)
        if isinstance(b, CertificationError):
            raise b
        return b
    try:
        b = S.bracket(q, sigma, k, h)
    except CertificationError as e:   # (beyond the work bound or the largest grid: the same answer next time)
        _CACHE[key] = e
        raise
    _CACHE[key] = b
    while len(_CACHE) > CACHE_BRACKETS or (len(_CACHE) > 1 and sum(getattr(x, "grid_points", 0)
                                                                   for x in _CACHE.values()) > CACHE_POINTS):
        _CACHE.popitem(last=False)
    return b


def _decides(lo: float, hi: float, peer: Any) -> bool:
    return isinstance(peer, float) and not math.isnan(peer) and (peer > hi or peer < lo)


def narrowed(entry_id: str, params: Mapping[str, Any], peer: Any, ends: bool = True) -> Enclosure | None:
    """The certified enclosure to judge ``peer`` against (None where the module does not apply: the entry's own
    evaluator then): the brackets of :func:`grid_steps` in turn until one decides the verdict -- eps: delta certified
    <= delta at 2^-30 (relative) below the peer's value makes that point an upper end (conservative), delta certified
    > delta at 2^-30 above it a lower end (an under-report); delta: the peer outside the bracket.  The last bracket
    computed gives the enclosure when none decides (undecided); CertificationError when not even the first could be
    computed (the grid too large, the work bound).  ``ends=False`` (a search's verdict, not a result's enclosure):
    an eps the bracket proves conservative gets the cheaper enclosure of :func:`_quick_ends` -- the same verdict,
    its margin to within about the bracket's width."""
    pt = _point(entry_id, params)
    if pt is None or _closed(pt[0], pt[2]):
        return None      # (a closed form: the entry's evaluator certifies it at any width)
    q, sigma, k, x = pt
    eps_kind = entry_id.endswith(".eps")
    guided = isinstance(peer, float) and math.isfinite(peer) and peer > 0
    last: S.Bracket | None = None
    err: CertificationError | None = None
    width = LADDER[0]
    for h, width in _ladder(q, k):
        try:
            b = cached_bracket(q, sigma, k, h)
        except CertificationError as e:
            err = e
            break
        last = b
        if not eps_kind:
            lo, hi = b.delta(x)
            if _decides(lo, hi, peer):
                break
        elif not guided:
            break           # a value that no width decides (not a positive finite float): the coarsest bracket
        else:
            below = Fraction(peer) * (1 - Fraction(1, 2 ** 30))
            above = Fraction(peer) * (1 + Fraction(1, 2 ** 30))
            if Fraction(b.delta_upper(below)) <= x:        # eps <= below < peer
                if not ends:
                    quick = _quick_ends(b, x, below, width)
                    if quick is not None:
                        return _enc(*quick)
                lo, hi = _eps_ends(b, x, width)
                return _enc(lo, min(hi, below))
            if Fraction(b.delta_lower(above)) > x:         # eps >= above > peer
                lo, hi = _eps_ends(b, x, width)
                return _enc(max(lo, above), hi)
    if last is None:
        raise err or CertificationError(f"{entry_id}: no PLD bracket could be computed")
    enc = _enc(*(_eps_ends(last, x, width) if eps_kind else map(Fraction, last.delta(x))))
    if _finite_float(peer) and enc.lo <= Fraction(peer) <= enc.hi and not enc.rel_width() <= UNDECIDED_WIDTH:
        # no bracket decided, and the narrowest is wider than the entry's first width: not certified here (the
        # point is skipped, as where the entry's own evaluator refuses), rather than an undecided verdict
        raise CertificationError(f"{entry_id}: certified only to relative width {enc.rel_width():.3g} at this point "
                                 f"(work bound or largest grid reached)")
    return enc


#: an undecided verdict is reported against an enclosure at most this wide (relative), the entry's first width
#: (dpbounds.testing.oracle.OPAQUE_WIDTHS[0]); a wider one leaves the point unjudged
UNDECIDED_WIDTH = 1e-3


def _finite_float(peer: Any) -> bool:
    return isinstance(peer, float) and math.isfinite(peer)


#: the finest bisection resolution of an eps enclosure read off a bracket (relative); a bracket of the ladder's
#: width w is read to w / EPS_SHARE (the enclosure is then at most that much wider than the bracket's own: the
#: verdict is decided already, the ends only report it)
EPS_RESOLUTION = 2.0 ** -22
EPS_SHARE = 16


#: :func:`_quick_ends` looks for a certified lower end of eps first at QUICK_SHARE of the bracket's width (at least
#: QUICK_STEP) below the upper end, then QUICK_GROWTH times farther at each try
QUICK_STEP, QUICK_SHARE, QUICK_GROWTH = 2.0 ** -20, 1 / 64, 2


def _quick_ends(b: S.Bracket, delta: Fraction, top: float, width: float) -> tuple[Fraction, Fraction] | None:
    """(lo, top) enclosing eps(delta), given ``top`` with certified upper delta(top) <= delta (so eps <= top): lo the
    first of top (1 - r), r = max(width QUICK_SHARE, QUICK_STEP) times QUICK_GROWTH^i below 1, whose certified lower
    delta exceeds delta (so eps >= lo: delta(.) is nonincreasing, proofs_check ``composition.sgm.inverse_bracket``)
    -- a few evaluations where :func:`_eps_ends` searches both ends to EPS_RESOLUTION, the margin to lo within a
    factor of about QUICK_GROWTH of the bracket's own; None when no such r is found."""
    r = max(width * QUICK_SHARE, QUICK_STEP)
    while r < 1:
        e = float_down(Fraction(top) * (1 - Fraction(r)))
        if Fraction(b.delta_lower(Fraction(e))) > delta:
            return Fraction(e), Fraction(top)
        r *= QUICK_GROWTH
    return None


def _eps_ends(b: S.Bracket, delta: Fraction, width: float = 0.0) -> tuple[Fraction, Fraction]:
    lo, hi = b.eps(delta, resolution=max(EPS_RESOLUTION, width / EPS_SHARE))
    if not math.isfinite(hi):
        raise CertificationError("composition.sgm.eps: the bracket's eps(delta) exceeds 10^6")
    return Fraction(lo), Fraction(hi)


def _enc(lo: float | Fraction, hi: float | Fraction) -> Enclosure:
    return Enclosure(Fraction(lo), Fraction(hi), 53)
