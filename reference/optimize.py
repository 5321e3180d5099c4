"""Certified enclosures of infima over the free variable of an :class:`spec.Optimize` entry (CKS20's alpha).

For ``inf_{alpha in (1, oo)} g(alpha)``:

* **upper end** -- any alpha gives a valid upper bound of an infimum: ``hi`` is the certified upper end of
  ``g(alpha_hat)`` at a near-optimal rational ``alpha_hat`` found in floating point (mpmath, private context).
* **lower end** -- a certified lower bound over the *whole* range, in three parts:
  (1, a0] and [aN, oo) by explicit tail bounds proved for the entry (below, per entry), each checked in arb to be
  >= ``hi`` (so the infimum cannot lie there); [a0, aN] by interval branch and bound with the mean-value form
  ``g(I) in g(m) + g'(I)(I - m)`` (derivative from sympy, evaluated in arb), using monotonicity wherever the
  derivative enclosure has a sign.  Pieces whose lower bound exceeds ``hi`` are discarded.

Tail bounds for ``conversions.cks20`` (g(a) = a rho + L/(a-1) + log(1 - 1/a) - log(a)/(a-1), L = log(1/delta)):

* on (1, a0] with a0 - 1 <= L:  log(a)/(a-1) <= 1 (log a <= a - 1) and log(1 - 1/a) = log(a-1) - log a >=
  log(a-1) - log(a0), so g(a) >= rho + L/x + log x - log a0 - 1 with x = a - 1; L/x + log x is decreasing for
  x < L, so the bound is its value at x = a0 - 1.
* on [aN, oo) with aN >= 2: a rho >= aN rho, L/(a-1) >= 0, log(1 - 1/a) >= log(1 - 1/aN) (increasing in a),
  -log(a)/(a-1) >= -log(aN)/(aN - 1) (log(a)/(a-1) is decreasing), so g(a) >= aN rho + log(1 - 1/aN)
  - log(aN)/(aN - 1).

``conversions.cks20.delta`` (the delta form) is enclosed through the eps form: for each alpha,
h(alpha) <= delta iff g(alpha; delta) <= eps, so inf h <= delta iff inf g(.; delta) <= eps; its ends are found by
certified bisection on delta.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import sympy as sp
from flint import arb

from spec import DomainError, get
from spec.core import SpecEntry, sym

from .interp import ArbBackend, MpBackend, NotCertified, compile_expr
from .numeric import arb_endpoints, arb_prec, fraction_to_arb, mp_context

_ARB = ArbBackend()


@lru_cache(maxsize=None)
def _compiled(entry_id: str, what: str):
    e = get(entry_id)
    expr = e.expr if what == "expr" else e.extra[what[6:]]
    a = sym(e.optimize.var)
    return compile_expr(expr, _ARB), compile_expr(sp.diff(expr, a), _ARB), expr


_MP_CACHE: dict = {}


def _compiled_mp(entry_id: str, what: str, ctx):
    """The mpmath closure for an entry, compiled once per (entry, expression); bound to ``ctx`` at call time."""
    from .interp import MpBackend as _Mp
    key = (entry_id, what)
    backend = _MP_CACHE.get(key)
    if backend is None:
        backend = _Mp(ctx)
        fn = compile_expr(_compiled(entry_id, what)[2], backend)
        _MP_CACHE[key] = backend = (backend, fn)
    b, fn = backend
    b.ctx = ctx  # the backend reads its context at call time
    return fn


def _env_arb(inp) -> dict:
    return {k: fraction_to_arb(v) for k, v in inp.params.items()}


def golden_section(f, lo, hi, iterations: int):
    """Shrink [lo, hi] around a minimum of a unimodal f by golden-section search (floats or mpmath numbers).

    A search heuristic only: its result is always re-certified (an upper end by evaluation at a point, a lower end
    by branch and bound)."""
    phi = (5 ** 0.5 - 1) / 2
    c, d = hi - phi * (hi - lo), lo + phi * (hi - lo)
    fc, fd = f(c), f(d)
    for _ in range(iterations):
        if fc < fd:
            hi, d, fd = d, c, fc
            c = hi - phi * (hi - lo)
            fc = f(c)
        else:
            lo, c, fc = c, d, fd
            d = lo + phi * (hi - lo)
            fd = f(d)
    return lo, hi


def _argmin_float(entry: SpecEntry, inp, what: str) -> Fraction:
    """A near-optimal alpha (a rational), by golden-section search on t = log(alpha - 1) in private mpmath."""
    ctx = mp_context(20)
    fn = _compiled_mp(entry.id, what, ctx)
    env = {k: ctx.mpf(v.numerator) / v.denominator for k, v in inp.params.items()}
    var = entry.optimize.var

    def g(t):
        e = dict(env)
        e[var] = 1 + ctx.exp(t)
        try:
            v = fn(e)
            return v if ctx.isfinite(v) else ctx.inf
        except (ValueError, ZeroDivisionError, OverflowError):
            return ctx.inf

    # start near Mironov's optimum 1 + sqrt(L/rho) when the entry has rho and delta, else scan coarsely
    if "rho" in env and "delta" in env and env["rho"] > 0:
        t0 = ctx.log(ctx.sqrt(ctx.log(1 / env["delta"]) / env["rho"]))
        grid = [t0 + ctx.mpf(j) / 2 for j in range(-8, 9)]
    else:
        grid = [ctx.mpf(t) / 4 for t in range(-160, 161)]
    vals = [g(t) for t in grid]
    i = min(range(len(grid)), key=lambda j: vals[j])
    lo, hi = golden_section(g, grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)], 70)
    t = (lo + hi) / 2
    alpha = 1 + ctx.exp(t)
    return Fraction(str(ctx.nstr(alpha, 25)))


def _cks20_tail_bounds(rho: arb, L: arb, alpha_hat: Fraction, hi: arb) -> tuple[Fraction, Fraction]:
    """(a0, aN) such that the proved tail bounds of conversions.cks20 are >= hi on (1, a0] and [aN, oo)."""
    # left tail: x = a0 - 1 = L * 2^-j, j = 0, 1, ...
    a0 = None
    x_max = min(Fraction(1, 2), alpha_hat - 1)
    x = x_max
    for _ in range(400):
        xa = fraction_to_arb(x)
        if xa < L:  # the monotonicity argument needs x <= L
            a0a = 1 + xa
            bound = rho + L / xa + xa.log() - a0a.log() - 1
            if bound > hi:
                a0 = 1 + x
                break
        x = x / 2
    # right tail: aN = max(2, 2 alpha_hat) * 2^j
    aN = None
    a = max(Fraction(2), 2 * alpha_hat)
    for _ in range(400):
        aa = fraction_to_arb(a)
        bound = aa * rho + (1 - 1 / aa).log() - aa.log() / (aa - 1)
        if bound > hi:
            aN = a
            break
        a = a * 2
    if a0 is None or aN is None:
        raise NotCertified("could not certify the tails of the CKS20 infimum")
    return a0, aN


def _bnb(f, df, env: dict, var: str, a0: Fraction, aN: Fraction, hi: Fraction, rel_tol: Fraction,
         max_pieces: int = 20000) -> tuple[Fraction, Fraction]:
    """Certified (lower bound of inf f over [a0, aN], improved upper bound) by mean-value branch and bound.

    Each piece's midpoint value improves the upper bound ``hi`` (any point's value bounds an infimum from
    above); a piece is dropped when its certified lower end is >= hi, and kept as final when it is within
    ``rel_tol`` of hi.
    """
    stack = [(a0, aN)]
    pieces = 0
    finals: list[Fraction] = []
    while stack:
        l, r = stack.pop()
        pieces += 1
        if pieces > max_pieces:
            raise NotCertified("branch and bound budget exhausted")
        I = fraction_to_arb(l).union(fraction_to_arb(r))
        m = (l + r) / 2
        e = dict(env)
        e[var] = fraction_to_arb(m)
        fm = f(e)
        ends_m = arb_endpoints(fm)
        if ends_m is not None and ends_m[1] < hi:
            hi = ends_m[1]
        e[var] = I
        try:
            d = df(e)
        except NotCertified:
            d = None
        low = None
        if d is not None and d > 0:
            e[var] = fraction_to_arb(l)
            low = f(e)
        elif d is not None and d < 0:
            e[var] = fraction_to_arb(r)
            low = f(e)
        elif d is not None:
            low = fm - abs(d) * fraction_to_arb((r - l) / 2)
        lo_end = arb_endpoints(low)[0] if low is not None and arb_endpoints(low) is not None else None
        if lo_end is not None and lo_end >= hi:
            continue
        if lo_end is not None and (hi - lo_end <= abs(hi) * rel_tol or r - l < Fraction(1, 10**80)):
            finals.append(lo_end)
            continue
        stack += [(l, m), (m, r)]
    return (min(finals) if finals else hi), hi


def enclose_optimum(entry: SpecEntry, inp, *, what: str = "expr", rel_tol=1e-30):
    """Certified enclosure of inf over the entry's Optimize variable (see the module docstring)."""
    from .evaluate import CertificationError, Enclosure
    if entry.optimize is None or entry.optimize.mode != "inf":
        raise DomainError("id", entry.id, "an entry with an 'inf' optimization", entry.theorem)
    rel_tol = Fraction(rel_tol) if not isinstance(rel_tol, Fraction) else rel_tol
    if entry.id == "conversions.cks20.delta":
        return _enclose_cks20_delta(inp, rel_tol)
    if entry.id != "conversions.cks20":
        raise CertificationError(f"{entry.id}: no proved tail bounds for its optimization; give "
                                 f"{entry.optimize.var} explicitly for a valid upper bound")
    alpha_hat = None
    if entry.id == "conversions.cks20" and what == "expr":
        from .conversions import _cks20_eps_min_float
        r, d = float(inp.params["rho"]), float(inp.params["delta"])
        if r > 0 and d > 0 and r < 1e300:
            alpha_hat = Fraction(_cks20_eps_min_float(r, d)[1])
    if alpha_hat is None or not alpha_hat > 1:
        alpha_hat = _argmin_float(entry, inp, what)
    f, df, _ = _compiled(entry.id, what)
    var = entry.optimize.var
    bits = 160 + 4 * len(str(rel_tol.denominator))  # ~ 4 bits per requested digit, plus guard bits
    try:
        with arb_prec(bits):
            env = _env_arb(inp)
            e = dict(env)
            e[var] = fraction_to_arb(alpha_hat)
            hi = f(e)
            rho, L = env["rho"], (1 / env["delta"]).log()
            a0, aN = _cks20_tail_bounds(rho, L, alpha_hat, hi)
            lo_end, hi_end = _bnb(f, df, env, var, a0, aN, arb_endpoints(hi)[1], rel_tol)
    except NotCertified as exc:
        raise CertificationError(f"{entry.id}: {exc}") from None
    if lo_end > hi_end:
        lo_end = hi_end
    return Enclosure(lo_end, hi_end, bits)


def _enclose_cks20_delta(inp, rel_tol: Fraction):
    """inf_alpha h(alpha; rho, eps) via the eps form: certified bisection on delta."""
    from .evaluate import Enclosure, Inputs, enclose_inputs
    g_entry = get("conversions.cks20")
    rho, eps = inp.params["rho"], inp.params["eps_g"]

    inner_tol = min(Fraction(1, 10**12), rel_tol / 1000)

    def eps_at(delta: Fraction):
        return enclose_inputs(g_entry, Inputs({"rho": rho, "delta": delta}, {}), rel_tol=inner_tol)

    # bracket in log-space: feasible (eps_cks(delta) <= eps certainly) and infeasible (> eps certainly)
    lo_d, hi_d = Fraction(1, 10**300), Fraction(1)
    if eps_at(lo_d).hi <= eps:
        return Enclosure(Fraction(0), lo_d, 0)
    # hi_d: delta = 1 - tiny is always feasible?  search downward
    cand = Fraction(999999, 1000000)
    if not eps_at(cand).hi <= eps:
        return Enclosure(Fraction(0), Fraction(1), 0)  # the conversion gives nothing better than delta ~ 1
    hi_d = cand
    # invariant: eps_at(lo_d) not certainly <= eps ; eps_at(hi_d).hi <= eps (feasible)
    for _ in range(400):
        if (hi_d - lo_d) <= hi_d * rel_tol:
            break
        mid = _geometric_mid(lo_d, hi_d)
        enc = eps_at(mid)
        if enc.hi <= eps:
            hi_d = mid
        elif enc.lo > eps:
            lo_d = mid
        else:
            break  # eps is inside the enclosure at mid: cannot split further at this precision
    # lo_d is certified infeasible only if eps_at(lo_d).lo > eps; otherwise report [0, hi_d]
    lo_cert = lo_d if eps_at(lo_d).lo > eps else Fraction(0)
    return Enclosure(lo_cert, hi_d, 0)


def _geometric_mid(a: Fraction, b: Fraction) -> Fraction:
    """A rational strictly between a < b: the geometric mean when they are far apart, else the midpoint."""
    import math
    if b / a < 4:
        return (a + b) / 2
    lm = (math.log(a.numerator) - math.log(a.denominator) + math.log(b.numerator) - math.log(b.denominator)) / 2
    m = Fraction(math.exp(lm)) if -700 < lm < 700 else (a + b) / 2
    return m if a < m < b else (a + b) / 2


def value_mp_optimum(entry: SpecEntry, inp, digits: int, what: str = "expr"):
    """(ctx, value) of the optimum from the certified enclosure's midpoint (mpmath private context)."""
    enc = enclose_optimum(entry, inp, what=what, rel_tol=Fraction(1, 10 ** (digits + 2)))
    ctx = mp_context(digits + 10)
    mid = (enc.lo + enc.hi) / 2
    return ctx, ctx.mpf(mid.numerator) / mid.denominator
