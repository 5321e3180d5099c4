"""zCDP -> (eps, delta)-DP conversions and the B* solver, all evaluated from the spec entries.

* :func:`eps_of` (rho, delta) -> Enclosure of the smallest eps the conversion certifies;
* :func:`delta_of` (rho, eps) -> Enclosure of the delta;
* :func:`b_star` (eps_g, delta_g) -> :class:`BStar`: B* = sup{rho >= 0 : the conversion gives (eps_g, delta_g)-DP}.

Conversions: ``bs16`` (Bun-Steinke Prop 1.3, closed form), ``cks20`` (Canonne-Kamath-Steinke Prop 12, certified
infimum over alpha), ``mironov`` (one alpha, given), and ``gauss`` -- the Gaussian mechanism's exact curve, the
limit no general conversion can beat, *not* a valid general conversion (``BStar.valid_conversion`` is False).

B* is never overstated: ``BStar.b_star`` is the lower end of a certified bracket [lo, hi] where lo is certified
feasible and hi certified infeasible (every conversion here is monotone in rho).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import spec
from spec import DomainError, parse_exact

from .evaluate import Enclosure, Inputs, enclose_inputs
from .optimize import _argmin_float, golden_section

CONVERSIONS = ("bs16", "cks20", "mironov", "gauss")
VALID = {"bs16": True, "cks20": True, "mironov": True, "gauss": False}
_TOL = Fraction(1, 10**14)


def _check_conv(conversion: str, allowed=CONVERSIONS) -> None:
    if conversion not in allowed:
        raise DomainError("conversion", conversion, f"one of {', '.join(allowed)}", "reference.conversions")


def _enc(entry_id: str, params: dict, rel_tol=Fraction(1, 10**20)) -> Enclosure:
    e = spec.get(entry_id)
    vals = e.check_values({k: v for k, v in params.items() if k != e.optimize.var} if e.optimize else params)
    if e.optimize is not None and e.optimize.var in params:
        vals[e.optimize.var] = params[e.optimize.var]
    return enclose_inputs(e, Inputs(vals, {}), rel_tol=rel_tol)


def _clamp0(enc: Enclosure) -> Enclosure:
    """eps <= 0 certifies nothing more than eps = 0 (an infimum below 0 only means the bound is vacuous there)."""
    return Enclosure(max(enc.lo, Fraction(0)), max(enc.hi, Fraction(0)), enc.bits)


def eps_of(rho, delta, conversion: str = "cks20", alpha=None, rel_tol=Fraction(1, 10**20)) -> Enclosure:
    """Enclosure of the eps that rho-zCDP gives at delta under the conversion (clamped at 0)."""
    _check_conv(conversion)
    rho = parse_exact("rho", rho, "reference.conversions")
    delta = parse_exact("delta", delta, "reference.conversions")
    if rho < 0:
        raise DomainError("rho", rho, "rho >= 0", "reference.conversions")
    if not 0 < delta < 1:
        raise DomainError("delta", delta, "0 < delta < 1", "reference.conversions")
    if conversion == "bs16":
        return _enc("conversions.bs16", {"rho": rho, "delta": delta}, rel_tol)
    if conversion == "mironov":
        if alpha is None:
            raise DomainError("alpha", None, "alpha > 1 (the Renyi order) for the 'mironov' conversion",
                              "conversions.mironov")
        return _enc("conversions.mironov", {"rho": rho, "delta": delta, "alpha": parse_exact("alpha", alpha)}, rel_tol)
    if conversion == "cks20":
        if rho == 0:
            return Enclosure(Fraction(0), Fraction(0), 0)
        return _clamp0(_enc("conversions.cks20", {"rho": rho, "delta": delta}, rel_tol))
    # gauss: the smallest eps >= 0 with delta_gauss(rho, eps) <= delta (delta_gauss decreases in eps)
    if rho == 0:
        return Enclosure(Fraction(0), Fraction(0), 0)
    return _invert_decreasing(lambda e: _enc("conversions.gauss.delta", {"rho": rho, "eps_g": e}, rel_tol),
                              delta, Fraction(0), rel_tol)


def _invert_decreasing(f, target: Fraction, start: Fraction, rel_tol) -> Enclosure:
    """Enclosure of inf{x >= start : f(x) <= target} for f decreasing in x, by certified bisection."""
    lo = start
    if f(lo).hi <= target:
        return Enclosure(lo, lo, 0)
    hi = max(Fraction(1), lo * 2)
    while not f(hi).hi <= target:
        lo, hi = hi, hi * 2
        if hi > 10**12:
            raise DomainError("delta", target, "a delta the conversion can reach", "reference.conversions")
    tol = Fraction(rel_tol) if Fraction(rel_tol) > _TOL else _TOL
    for _ in range(200):  # invariant: f(lo) not certainly <= target; f(hi).hi <= target
        if hi - lo <= hi * tol:
            break
        mid = (lo + hi) / 2
        enc = f(mid)
        if enc.hi <= target:
            hi = mid
        elif enc.lo > target:
            lo = mid
        else:
            break
    lo_cert = lo if f(lo).lo > target else start
    return Enclosure(lo_cert, hi, 0)


def delta_of(rho, eps, conversion: str = "cks20", alpha=None) -> Enclosure:
    """Enclosure of the delta that rho-zCDP gives at eps under the conversion."""
    _check_conv(conversion)
    rho = parse_exact("rho", rho, "reference.conversions")
    eps = parse_exact("eps", eps, "reference.conversions")
    if rho < 0 or eps < 0:
        raise DomainError("rho" if rho < 0 else "eps", rho if rho < 0 else eps, ">= 0", "reference.conversions")
    if conversion == "gauss":
        if rho == 0:
            return Enclosure(Fraction(0), Fraction(0), 0)
        return _enc("conversions.gauss.delta", {"rho": rho, "eps_g": eps})
    if conversion == "cks20":
        if rho == 0:
            return Enclosure(Fraction(0), Fraction(0), 0)
        return _enc("conversions.cks20.delta", {"rho": rho, "eps_g": eps}, Fraction(1, 10**12))
    # bs16 / mironov: inf{delta : eps_of(rho, delta) <= eps}; eps_of decreases in delta
    if rho == 0:
        return Enclosure(Fraction(0), Fraction(0), 0)

    def ok(d: Fraction) -> bool:
        return eps_of(rho, d, conversion, alpha=alpha, rel_tol=Fraction(1, 10**25)).hi <= eps

    lo, hi = Fraction(1, 10**300), Fraction(999999999, 10**9)
    if ok(lo):
        return Enclosure(Fraction(0), lo, 0)
    if not ok(hi):
        return Enclosure(Fraction(0), Fraction(1), 0)
    for _ in range(300):
        if hi - lo <= hi * _TOL:
            break
        mid = _geo_mid(lo, hi)
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return Enclosure(lo, hi, 0)


def _geo_mid(a: Fraction, b: Fraction) -> Fraction:
    from .optimize import _geometric_mid
    return _geometric_mid(a, b)


@dataclass(frozen=True)
class BStar:
    """B* with its certified bracket; ``b_star`` is the lower end (certified feasible)."""

    b_star: Fraction
    bracket: tuple[Fraction, Fraction]
    conversion: str
    valid_conversion: bool

    def as_dict(self, digits: int = 20) -> dict:
        from .evaluate import decimal_str
        return {"b_star": decimal_str(self.b_star, digits, "floor") if self.b_star else "0",
                "bracket": [decimal_str(self.bracket[0], digits, "floor") if self.bracket[0] else "0",
                            decimal_str(self.bracket[1], digits, "ceiling")],
                "conversion": self.conversion, "valid_conversion": self.valid_conversion}


def b_star(eps_g, delta_g, conversion: str = "cks20", rel_tol=Fraction(1, 10**12)) -> BStar:
    """B*(eps_g, delta_g; conversion) = sup{rho >= 0 : rho-zCDP => (eps_g, delta_g)-DP under the conversion}."""
    _check_conv(conversion, ("bs16", "cks20", "gauss"))
    eps_g = parse_exact("eps_g", eps_g, "reference.conversions.b_star")
    delta_g = parse_exact("delta_g", delta_g, "reference.conversions.b_star")
    if not eps_g > 0:
        raise DomainError("eps_g", eps_g, "eps_g > 0", "reference.conversions.b_star")
    if not 0 < delta_g < 1:
        raise DomainError("delta_g", delta_g, "0 < delta_g < 1", "reference.conversions.b_star")
    if conversion == "bs16":
        enc = _enc("conversions.bs16.b_star", {"eps_g": eps_g, "delta_g": delta_g}, Fraction(1, 10**30))
        return BStar(enc.lo, (enc.lo, enc.hi), "bs16", True)
    if conversion == "cks20":
        feasible = _cks20_feasible_fn(eps_g, delta_g)
        guess = _cks20_b_star_float(eps_g, delta_g)
        if guess is not None:  # certify a tight bracket around the floating-point solution
            for widen in (Fraction(1, 10**13), Fraction(1, 10**10), Fraction(1, 10**6)):
                lo_c, hi_c = guess * (1 - widen), guess * (1 + widen)
                if feasible(lo_c) is True and feasible(hi_c) is False:
                    return BStar(lo_c, (lo_c, hi_c), "cks20", True)
    else:
        def feasible(r: Fraction):
            enc = _enc("conversions.gauss.delta", {"rho": r, "eps_g": eps_g}, Fraction(1, 10**20))
            return True if enc.hi <= delta_g else (False if enc.lo > delta_g else None)
    # start from the BS16 value (a valid lower bound for both) and bracket upward
    bs = _enc("conversions.bs16.b_star", {"eps_g": eps_g, "delta_g": delta_g}, Fraction(1, 10**30)).lo
    lo = bs
    if feasible(lo) is not True:
        lo = Fraction(0)
    hi = max(bs * 2, Fraction(1, 10**30))
    while feasible(hi) is not False:
        lo, hi = hi, hi * 2
        if hi > Fraction(10**12):
            raise DomainError("eps_g", eps_g, "a budget with finite B*", "reference.conversions.b_star")
    for _ in range(300):
        if hi - lo <= hi * Fraction(rel_tol):
            break
        mid = (lo + hi) / 2
        r = feasible(mid)
        if r is True:
            lo = mid
        elif r is False:
            hi = mid
        else:
            break
    return BStar(lo, (lo, hi), conversion, VALID[conversion])


def _cks20_float_fn():
    """CKS20's g(alpha; rho, delta) as a plain-float function, generated from the spec entry by lambdify."""
    global _CKS_FLOAT
    if _CKS_FLOAT is None:
        import sympy as sp
        e = spec.get("conversions.cks20")
        _CKS_FLOAT = sp.lambdify((spec.sym("alpha"), spec.sym("rho"), spec.sym("delta")), e.expr, "math")
    return _CKS_FLOAT


_CKS_FLOAT = None


def _cks20_eps_min_float(r: float, delta: float) -> tuple[float, float]:
    """(min over alpha of g, argmin) in floats: golden section on log(alpha - 1) around Mironov's optimum."""
    g = _cks20_float_fn()
    L = math.log(1 / delta)
    t0 = math.log(math.sqrt(L / r))

    def G(t):
        try:
            return g(1 + math.exp(t), r, delta)
        except (ValueError, OverflowError, ZeroDivisionError):
            return math.inf

    lo_t, hi_t = golden_section(G, t0 - 3, t0 + 3, 80)
    t = (lo_t + hi_t) / 2
    return G(t), 1 + math.exp(t)


def _cks20_b_star_float(eps_g: Fraction, delta_g: Fraction) -> Fraction | None:
    """B*_cks20 in floating point (not certified): bisection in rho on min_alpha g <= eps_g."""
    eg, dg = float(eps_g), float(delta_g)
    if not (dg > 0 and math.isfinite(eg)):
        return None
    L = math.log(1 / dg)
    lo = (math.sqrt(L + eg) - math.sqrt(L)) ** 2  # BS16's B*, feasible for CKS20 too
    if lo <= 0:
        return None
    hi = lo * 2
    n = 0
    while _cks20_eps_min_float(hi, dg)[0] <= eg:
        lo, hi = hi, hi * 2
        n += 1
        if n > 60:
            return None
    for _ in range(70):
        mid = (lo + hi) / 2
        if _cks20_eps_min_float(mid, dg)[0] <= eg:
            lo = mid
        else:
            hi = mid
    return Fraction(lo)


def _cks20_feasible_fn(eps_g: Fraction, delta_g: Fraction):
    """rho -> True (certified: some alpha gives eps <= eps_g), False (certified: inf over alpha > eps_g), or None."""
    entry = spec.get("conversions.cks20")

    def feasible(r: Fraction):
        if r == 0:
            return True
        inp = Inputs({"rho": r, "delta": delta_g}, {})
        a = Fraction(_cks20_eps_min_float(float(r), float(delta_g))[1]) if float(r) > 0 and float(delta_g) > 0 \
            else _argmin_float(entry, inp, "expr")
        up = enclose_inputs(entry, Inputs({"rho": r, "delta": delta_g, "alpha": a}, {}), rel_tol=Fraction(1, 10**25))
        if up.hi <= eps_g:
            return True
        full = enclose_inputs(entry, inp, rel_tol=Fraction(1, 10**16))
        if full.lo > eps_g:
            return False
        return True if full.hi <= eps_g else None

    return feasible
