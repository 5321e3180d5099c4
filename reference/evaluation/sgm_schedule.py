"""Certified brackets of DP-SGD curves beyond one (q, sigma, k) under add/remove and Poisson sampling: schedules
(phases of different q, sigma, k), the substitution relation and fixed-size batches (sampling without replacement).

Every curve here is the hockey-stick divergence of a product of one-step dominating pairs, evaluated by the same
certified machinery as ``composition.sgm.*`` (:mod:`dpbounds.evaluation.sgm_pld`): each one-step pair is replaced
by a dominating grid pair (upper end) and a dominated one (lower end) on one loss grid of step h, the grid pairs
are composed (self-composition per phase, convolution across phases; every float error added outward), and the
grid is refined until the relative width asked for is met.

The one-step pairs (sigma the noise multiplier, clipping norm 1; proofs in proofs_check composition.sgm.*):

* add_remove, poisson -- remove: ((1 - q) N(0, s^2) + q N(1, s^2), N(0, s^2)), add: its mirror; the curve is the
  larger of the two directions, each composed over every step (exactly composition.sgm.*).
* substitution, poisson -- the symmetric pair P = (1 - q) N(0, s^2) + q N(1, s^2), Q = (1 - q) N(0, s^2) +
  q N(-1, s^2) (composition.sgm.substitution_poisson).
* substitution, fixed_size -- the symmetric pair P* whose loss law above 0 is that of the remove pair at
  sensitivity 2, mirrored below 0, the rest at loss 0 (composition.sgm.substitution_fixed_size).
* add_remove, fixed_size -- refused: a batch of b of n examples needs n fixed, which add/remove changes.

A symmetric pair (Q is P reflected) is discretized on the grid {i h} (origin 0), where the reflection maps grid
to grid: the half-bin masses above the loss 0 are computed in arb and mirrored below it, and the shared grid
constructions of sgm_pld (``step_upper`` / ``step_lower`` with q = 1, whose masses are then the pair's own P- and
Q-masses) give the dominating and dominated grid pairs.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import time
from fractions import Fraction

import numpy as np
from flint import arb

from dpbounds.evaluation import sgm_pld as S
from dpbounds.evaluation.numeric import arb_prec, float_down, float_up

RELATIONS = ("add_remove", "substitution")
SAMPLINGS = ("poisson", "fixed_size")


def check_combination(relation: str, sampling: str, what: str = "composition.sgm") -> None:
    """DomainError for a relation or sampler that is unknown or whose combination is not defined."""
    from dpbounds.spec import DomainError
    if relation not in RELATIONS:
        raise DomainError("relation", relation, "one of 'add_remove', 'substitution'", what)
    if sampling not in SAMPLINGS:
        raise DomainError("sampling", sampling, "one of 'poisson', 'fixed_size'", what)
    if relation == "add_remove" and sampling == "fixed_size":
        raise DomainError("sampling", sampling, "'poisson' under relation='add_remove' (fixed_size needs "
                          "relation='substitution')", what,
                          "batches of b of n examples need n fixed, which adding or removing an example changes: "
                          "sampling without replacement is defined under substitution (BBG18)")


# ------------------------------------------------------------------------------------------------ symmetric pairs

def _phi_tail(x: arb, mean: arb, s: arb) -> tuple[arb, arb]:
    """(P(X <= x), P(X > x)) for X ~ N(mean, s^2), each from erfc on its small side."""
    z = (x - mean) / (s * arb(2).sqrt())
    if z > 0:
        t = z.erfc() / 2
        return 1 - t, t
    f = (-z).erfc() / 2
    return f, 1 - f


def _diff(F: list, T: list, i: int, j: int) -> arb:
    """P(x_i < X <= x_j) from CDFs or tails, whichever is tighter."""
    a, b = T[i] - T[j], F[j] - F[i]
    return a if a.rad() <= b.rad() else b


class _Pair:
    """A symmetric one-step pair on the real line whose loss L(x) = log(p(x)/q(x)) increases in x, described by its
    upper half (L > 0): components (weight, mean) of P and of Q there (Gaussians of one scale s), the inverse loss
    x(l) for l >= 0, and the P- (= Q-) mass at loss exactly 0."""

    def __init__(self, kind: str, q: Fraction, sigma: Fraction):
        self.kind = kind
        qa, sa = S._a(q), S._a(sigma)
        self.q = qa
        if kind == "poisson":
            # P = (1 - q) N(0, s^2) + q N(1, s^2), Q = (1 - q) N(0, s^2) + q N(-1, s^2); L(x) = 0 at x = 0
            self.s = sa
            self.P = [(1 - qa, arb(0)), (qa, arb(1))]
            self.Q = [(1 - qa, arb(0)), (qa, arb(-1))]
            self.x0 = arb(0)
            self.atom = arb(0)
        else:
            # R = ((1 - q) N(0, r^2) + q N(1, r^2), N(0, r^2)), r = s/2 (sensitivity 2 in units of 1); L_R = 0 at 1/2;
            # P* = R above x = 1/2, mirrored about 1/2 below it, the rest at loss 0 (the same in P* and Q*)
            self.s = sa / 2
            self.P = [(1 - qa, arb(0)), (qa, arb(1))]
            self.Q = [(arb(1), arb(0))]
            self.x0 = arb(1) / 2
            _, t = _phi_tail(self.x0, arb(0), self.s)      # P(N(0, r^2) > 1/2)
            self.atom = (1 - qa) * (1 - 2 * t)

    def x_of(self, l: arb) -> arb:
        """The x >= x0 with L(x) = l >= 0."""
        s2 = self.s ** 2
        q = self.q
        if self.kind == "poisson":
            # e^L = ((1-q) + q a y) y / ((1-q) y + q a), y = e^{x/s^2}, a = e^{-1/(2 s^2)}:
            # q a y^2 + (1-q)(1 - e^L) y - q a e^L = 0, the positive root
            a = (-1 / (2 * s2)).exp()
            el = l.exp()
            b = (1 - q) * (1 - el)
            if q == 1:
                y = el.sqrt()
            else:
                y = (-b + (b * b + 4 * q * q * a * a * el).sqrt()) / (2 * q * a)
            return s2 * y.log()
        # L_R(x) = log((1 - q) + q e^{(2x - 1)/(2 r^2)})
        t = l.exp() - (1 - q)
        return s2 * (t / q).log() + arb(1) / 2

    def loss(self, x: arb) -> arb:
        s2 = self.s ** 2
        q = self.q
        if self.kind == "poisson":
            return (((1 - q) + q * ((2 * x - 1) / (2 * s2)).exp()) / ((1 - q) + q * ((-2 * x - 1) / (2 * s2)).exp())).log()
        return ((1 - q) + q * ((2 * x - 1) / (2 * s2)).exp()).log()


def symmetric_step(kind: str, q: Fraction, sigma: Fraction, h: Fraction, z: float | None = None,
                   k: int = 1) -> "S.OneStep":
    """Interval masses of one step of a symmetric pair between the loss boundaries b_j = j h/2, as an sgm_pld
    OneStep with q = 1 (so that its N1 are the pair's P-masses and N0 its Q-masses) and origin 0: the half-bins
    above the loss 0 in arb, those below it their mirror images (P- and Q-masses swapped), the atom at loss 0 in
    the half-bin (-h/2, 0]; window x in [x0, x0 + 1 + s z] above (its mirror below)."""
    z = S._window_z(k) if z is None else z
    with arb_prec(S._BITS):
        pair = _Pair(kind, q, sigma)
        ha = S._a(h) / 2
        hi_x = pair.x0 + 1 + pair.s * S._a(Fraction(z))
        J = math.ceil(float_up(pair.loss(hi_x)) / float(h / 2)) + 2
        if J > S.MAX_GRID:
            from dpbounds.evaluation.enclosure import CertificationError
            raise CertificationError(f"composition.sgm: a one-step grid of step {float(h):.3g} would have {J} points "
                                     f"(> {S.MAX_GRID}); not certified at this width")
        xs = [pair.x0] + [pair.x_of(j * ha) for j in range(1, J + 1)]
        cdf = {}
        for name, comps in (("P", pair.P), ("Q", pair.Q)):
            F, T = [], []
            for x in xs:
                f_tot, t_tot = arb(0), arb(0)
                for w, mean in comps:
                    f, t = _phi_tail(x, mean, pair.s)
                    f_tot += w * f
                    t_tot += w * t
                F.append(f_tot)
                T.append(t_tot)
            cdf[name] = (F, T)
        Pt = [_diff(*cdf["P"], j, j + 1) for j in range(J)]     # top half-bins (b_j, b_{j+1}], j = 0..J-1
        Qt = [_diff(*cdf["Q"], j, j + 1) for j in range(J)]
        P_above, Q_above = cdf["P"][1][J], cdf["Q"][1][J]
        # all half-bins, index i <-> (b_{-J+i}, b_{-J+i+1}]: below 0 the mirror of (b_m, b_{m+1}] is index J-1-m
        N1 = [Qt[J - 1 - i] for i in range(J)] + Pt
        N0 = [Pt[J - 1 - i] for i in range(J)] + Qt
        N1[J - 1] = N1[J - 1] + pair.atom
        N0[J - 1] = N0[J - 1] + pair.atom
        return S.OneStep(h, arb(0), -J, J, _intervals(N0), _intervals(N1), (_ends(P_above), _ends(Q_above)),
                         (_ends(Q_above), _ends(P_above)), arb(1))


def _ends(v: arb) -> tuple[float, float]:
    """(lo, hi) floats enclosing the ball v, lo clipped at 0 (a mass)."""
    return max(0.0, float_down(v)), float_up(v)


def _intervals(vs: list) -> tuple:
    """A list of mass balls as the (lo, hi) float arrays sgm_pld.OneStep holds."""
    ends = [_ends(v) for v in vs]
    return np.array([e[0] for e in ends]), np.array([e[1] for e in ends])


# ------------------------------------------------------------------------------------------------ brackets

def _directions(q: Fraction, relation: str) -> tuple[str, ...]:
    if relation != "add_remove":
        return ("remove",)          # symmetric pair: H(P^k || Q^k) = H(Q^k || P^k)
    return ("remove", "add")


def _phase_grids(q: Fraction, sigma: Fraction, k: int, h: Fraction, relation: str, sampling: str,
                 total_k: int, tau: float) -> dict:
    """direction -> (upper GridPLD, lower GridPLD) of k steps of one phase."""
    if relation == "add_remove":
        step = S.one_step(q, sigma, h, None, total_k)
    else:
        step = symmetric_step("poisson" if sampling == "poisson" else "fixed_size", q, sigma, h, None, total_k)
    out = {}
    for d in _directions(q, relation):
        out[d] = (S.self_compose(S.step_upper(step, d), k, tau), S.self_compose(S.step_lower(step, d), k, tau))
    return out


def _origin(g: "S.GridPLD") -> arb:
    """The exact loss of entry 0 less off h: the grid's origin."""
    return g.loss(0) - g.off * S._a(g.h)


def _with_origin(g: "S.GridPLD", origin: arb) -> "S.GridPLD":
    """g with its origin set to the ball ``origin`` (losses (off + j) h + origin)."""
    return dataclasses.replace(g, cm=0, c=None, shift=origin)


def _convolve_any(a: "S.GridPLD", b: "S.GridPLD", tau: float) -> "S.GridPLD":
    """The convolution of two grids on the same step h whose origins may differ: the sum's origin is the sum of the
    origins (the masses are those of sgm_pld.convolve; only the loss labels move)."""
    oa, ob = _origin(a), _origin(b)
    g = S.convolve(_with_origin(a, oa), _with_origin(b, ob), tau)
    return _with_origin(g, oa + ob)


def _compose_phases(grids: list, tau: float) -> "S.GridPLD":
    compose = getattr(S, "compose", None)
    if compose is not None and len(grids) > 1:
        try:
            return compose([(g, 1) for g in grids], tau)
        except TypeError:   # a different signature: the chain below gives the same bounds
            pass
    out = grids[0]
    for g in grids[1:]:
        out = _convolve_any(out, g, tau)
    return out


def schedule_bracket(phases: tuple, relation: str, sampling: str, h: Fraction, tau: float = S.TAU) -> "S.Bracket":
    """The composed upper and lower grid pairs of every direction over all phases, as an sgm_pld Bracket."""
    t0 = time.perf_counter()
    total_k = sum(k for _, _, k in phases)
    per_dir: dict[str, tuple[list, list]] = {}
    for q, sigma, k in phases:
        for d, (gu, gl) in _phase_grids(q, sigma, k, h, relation, sampling, total_k, tau).items():
            ups, los = per_dir.setdefault(d, ([], []))
            ups.append(gu)
            los.append(gl)
    up, lo = {}, {}
    size = 0
    for d, (ups, los) in per_dir.items():
        gu, gl = _compose_phases(ups, tau), _compose_phases(los, tau)
        size = max(size, gu.m.size, gl.m.size)
        up[d] = (gu, S.weights(gu))
        lo[d] = (gl, S.weights(gl))
    q0, s0, _ = phases[0]
    return S.Bracket(q0, s0, total_k, h, up, lo, time.perf_counter() - t0, size)


@functools.lru_cache(maxsize=8)
def _cached(phases: tuple, relation: str, sampling: str, h: Fraction, limit) -> "S.Bracket":
    return schedule_bracket(phases, relation, sampling, h)


def cached_schedule_bracket(phases: tuple, relation: str, sampling: str, h: Fraction) -> "S.Bracket":
    return _cached(phases, relation, sampling, h, S._WORK_LIMIT[0])


def _refine(phases: tuple, relation: str, sampling: str, rel_tol: float, width_of, what: str):
    """Brackets on finer grids until width_of(bracket) <= rel_tol (sgm_pld's refinement, over the schedule)."""
    from dpbounds.evaluation.enclosure import CertificationError
    if rel_tol < S.MIN_REL_TOL:
        raise CertificationError(f"{what}: the certified PLD bracket is not attempted below relative width "
                                 f"{S.MIN_REL_TOL:g} (asked {rel_tol:.3g}); pass rel_tol >= {S.MIN_REL_TOL:g}")
    qmin = min(q for q, _, _ in phases)
    total_k = sum(k for _, _, k in phases)
    cap = Fraction(1, math.ceil(1 / qmin)) if qmin < 1 else Fraction(1)
    h = min(S._h_for(0.5, total_k, rel_tol), cap)
    best = None
    for _ in range(5):
        b = cached_schedule_bracket(phases, relation, sampling, h)
        w, res = width_of(b)
        if best is None or w < best[0]:
            best = (w, res, b)
        if w <= rel_tol:
            return res, b
        if b.grid_points > S.MAX_GRID:
            break
        f = (0.5 * rel_tol / w) ** (1 / 3) if math.isfinite(w) and w > 0 else 0.25
        h = min(cap, Fraction(1, math.ceil(1 / (float(h) * min(0.5, max(0.25, f))))))
    raise CertificationError(f"{what}: certified only to relative width {best[0]:.3g} > {rel_tol:.3g} "
                             f"(grid step {best[2].h}, {best[2].grid_points} points); ask a wider rel_tol")


# ------------------------------------------------------------------------------------------------ q = 1: GDP

def _gdp_rho(phases, relation: str) -> Fraction:
    """rho = mu^2 / 2 of a schedule whose every q is 1: the product of Gaussian shift pairs (shift 1, or 2 under
    substitution, noise sigma_i) is the shift pair of mu^2 = sum k_i (shift / sigma_i)^2 (the sum of the
    coordinates' log-likelihood ratios is a sufficient statistic; DRS22 Cor. 3.3 / 2.13)."""
    shift2 = 4 if relation == "substitution" else 1
    return sum((Fraction(shift2 * k) / (s * s) for _, s, k in phases), Fraction(0)) / 2


def _gauss_delta(rho: Fraction, eps: Fraction, rel_tol: float) -> tuple[Fraction, Fraction]:
    from dpbounds.evaluation.evaluate import enclose
    enc = enclose("conversions.gauss.delta", {"rho": rho, "eps_g": eps}, rel_tol=Fraction(rel_tol))
    return enc.lo, enc.hi


def _gauss_eps(rho: Fraction, delta: Fraction, rel_tol: float, what: str):
    """eps(delta) of the Gaussian curve at rho by bisection on certified deltas (as sgm_pld's q = 1 path)."""
    fine = min(rel_tol, 1e-6) / 8

    def side(e: Fraction) -> int:
        lo, hi = _gauss_delta(rho, e, fine)
        return -1 if lo > delta else (+1 if hi <= delta else 0)

    return S.eps_by_bisection(side, delta, rel_tol, what, "the Gaussian curve")


# ------------------------------------------------------------------------------------------------ k = 1, substitution
# One step under substitution is the hockey-stick divergence of one pair of Gaussian mixtures on the line with an
# increasing likelihood ratio, so the region where the loss exceeds eps is a half-line {x > x*} and the curve is a
# closed form in erfc, evaluated in arb (no grid):
#   poisson:    P = (1 - q) N(0, s^2) + q N(1, s^2), Q = (1 - q) N(0, s^2) + q N(-1, s^2) (symmetric: one direction);
#               with u = e^{x/s^2}, c = e^{-1/(2 s^2)}, E = e^eps, L(x) = eps is q c u^2 - (1 - q)(E - 1) u - E q c = 0,
#               u* its positive root; delta = q (T(x*, 1) - E T(x*, -1)) - (E - 1)(1 - q) T(x*, 0);
#   fixed_size: for eps >= 0, the pair R = ((1 - q) N(0, s^2) + q N(2, s^2), N(0, s^2)) (P*'s curve there), x* = 1 +
#               (s^2/2) log((E - (1 - q))/q); delta = q (T(x*, 2) - T(x*, 0)) - (E - 1) T(x*, 0);
# T(x, m) = P(N(m, s^2) > x).  proofs_check composition.sgm.substitution_poisson / substitution_fixed_size check the
# grid brackets against the same integrals; the tests check this enclosure against mpmath quadrature.

def _k1_sub_ball(q: Fraction, sigma: Fraction, eps: Fraction, sampling: str, bits: int):
    with arb_prec(bits):
        qa, sa, ea = S._a(q), S._a(sigma), S._a(eps)
        r2 = sa * arb(2).sqrt()
        E = ea.exp()

        def tail(x, mean):
            return ((x - mean) / r2).erfc() / 2

        if sampling == "poisson":
            c = (-1 / (2 * sa ** 2)).exp()
            b = (1 - qa) * (E - 1)
            u = (b + (b * b + 4 * qa * qa * c * c * E).sqrt()) / (2 * qa * c)
            x = sa ** 2 * u.log()
            return qa * (tail(x, 1) - E * tail(x, -1)) - (E - 1) * (1 - qa) * tail(x, 0)
        x = 1 + sa ** 2 * ((E - (1 - qa)) / qa).log() / 2
        return qa * (tail(x, 2) - tail(x, 0)) - (E - 1) * tail(x, 0)


def _k1_sub_ends(q, sigma, eps, sampling, bits):
    from dpbounds.evaluation.numeric import arb_endpoints
    ends = arb_endpoints(_k1_sub_ball(q, sigma, eps, sampling, bits))
    if ends is None:
        return None
    return max(ends[0], Fraction(0)), max(ends[1], Fraction(0))


def _k1_sub_delta(q: Fraction, sigma: Fraction, eps: Fraction, sampling: str, rel_tol: float, what: str):
    from dpbounds.evaluation.enclosure import CertificationError, Enclosure
    bits = 64 + int(-math.log2(max(rel_tol, 1e-300)))
    while bits <= 1 << 14:
        ends = _k1_sub_ends(q, sigma, eps, sampling, bits)
        if ends is not None:
            lo, hi = ends
            if hi == lo or (hi > 0 and hi - lo <= Fraction(rel_tol) * hi):
                return Enclosure(lo, hi, bits)
        bits *= 2
    raise CertificationError(f"{what}: the one-step closed form was not certified to relative width {rel_tol:.3g} "
                             f"at eps = {float(eps):.6g}")


def _k1_sub_eps(q: Fraction, sigma: Fraction, delta: Fraction, sampling: str, rel_tol: float, what: str):
    def side(e: Fraction) -> int:
        bits = 64 + int(-math.log2(max(min(rel_tol, 1e-6) / 8, 1e-300)))
        while bits <= 1 << 13:
            ends = _k1_sub_ends(q, sigma, e, sampling, bits)
            if ends is not None:
                if ends[0] > delta:
                    return -1
                if ends[1] <= delta:
                    return +1
            bits *= 2
        return 0

    return S.eps_by_bisection(side, delta, rel_tol, what, "the one-step curve")


def _k1_substitution(phases, relation: str) -> bool:
    return relation == "substitution" and len(phases) == 1 and phases[0][2] == 1 and phases[0][0] < 1


# ------------------------------------------------------------------------------------------------ curves

def schedule_delta(phases, eps: Fraction, rel_tol: float, relation: str = "add_remove", sampling: str = "poisson",
                   what: str = "composition.sgm.schedule.delta"):
    """Certified enclosure of delta(eps) of a schedule (a list of (q, sigma, k))."""
    from dpbounds.evaluation.enclosure import Enclosure
    check_combination(relation, sampling, what)
    phases = tuple((Fraction(q), Fraction(s), int(k)) for q, s, k in phases)
    eps = Fraction(eps)
    if all(q == 1 for q, _, _ in phases):
        lo, hi = _gauss_delta(_gdp_rho(phases, relation), eps, rel_tol)
        return Enclosure(lo, hi, 53)
    if relation == "add_remove" and len(phases) == 1:
        q, s, k = phases[0]
        return S.enclose_delta({"q": q, "sigma": s, "k": k, "eps_g": eps}, rel_tol)
    if _k1_substitution(phases, relation):
        q, s, _ = phases[0]
        S._k1_tol(float(rel_tol), what)
        return _k1_sub_delta(q, s, eps, sampling, float(rel_tol), what)

    def width(b):
        lo, hi = b.delta(eps)
        return S._rel(lo, hi), (lo, hi)

    (lo, hi), _ = _refine(phases, relation, sampling, float(rel_tol), width, what)
    return S._enclosure(lo, hi)


def schedule_eps(phases, delta: Fraction, rel_tol: float, relation: str = "add_remove", sampling: str = "poisson",
                 what: str = "composition.sgm.schedule.eps"):
    """Certified enclosure of eps(delta) of a schedule."""
    check_combination(relation, sampling, what)
    phases = tuple((Fraction(q), Fraction(s), int(k)) for q, s, k in phases)
    delta = Fraction(delta)
    if all(q == 1 for q, _, _ in phases):
        return _gauss_eps(_gdp_rho(phases, relation), delta, float(rel_tol), what)
    if relation == "add_remove" and len(phases) == 1:
        q, s, k = phases[0]
        return S.enclose_eps({"q": q, "sigma": s, "k": k, "delta": delta}, rel_tol)
    if _k1_substitution(phases, relation):
        q, s, _ = phases[0]
        S._k1_tol(float(rel_tol), what)
        return _k1_sub_eps(q, s, delta, sampling, float(rel_tol), what)

    def width(b):
        lo, hi = b.eps(delta)
        return S._rel(lo, hi), (lo, hi)

    (lo, hi), _ = _refine(phases, relation, sampling, float(rel_tol), width, what)
    return S._enclosure(lo, hi)


# ------------------------------------------------------------------------------------------------ spec evaluators

def _options(params) -> tuple[str, str]:
    return params.get("relation", "add_remove"), params.get("sampling", "poisson")


def enclose_sgm_delta(params, rel_tol: float):
    """composition.sgm.delta with its relation and sampling options."""
    relation, sampling = _options(params)
    k = S._steps(params, "composition.sgm.delta")
    return schedule_delta([(params["q"], params["sigma"], k)], params["eps_g"], rel_tol, relation, sampling,
                          "composition.sgm.delta")


def enclose_sgm_eps(params, rel_tol: float):
    """composition.sgm.eps with its relation and sampling options."""
    relation, sampling = _options(params)
    k = S._steps(params, "composition.sgm.eps")
    return schedule_eps([(params["q"], params["sigma"], k)], params["delta"], rel_tol, relation, sampling,
                        "composition.sgm.eps")


def _phases(params):
    from dpbounds.spec.composition import phases_of
    return phases_of(params["phases"])


def enclose_schedule_delta(params, rel_tol: float):
    relation, sampling = _options(params)
    return schedule_delta(_phases(params), params["eps_g"], rel_tol, relation, sampling)


def enclose_schedule_eps(params, rel_tol: float):
    relation, sampling = _options(params)
    return schedule_eps(_phases(params), params["delta"], rel_tol, relation, sampling)
