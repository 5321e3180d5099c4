"""The chunked interval engine of the fast path (dpbounds.evaluation.npfast): on *arrays* (the vectorized path, several
chunks, Piecewise branches skipped per chunk, scalar subexpressions hoisted) every element brackets the certified
arb enclosure of the same point, and matches what the engine gives for that point alone."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dpbounds import spec
from dpbounds.evaluation import evaluate as ev
from dpbounds.evaluation import npfast
from dpbounds.evaluation.interp import NotCertified
from dpbounds.spec.core import Kind
from dpbounds.spec.rdp_conversions import ImplicitFunction

from .strategies import entry_points

VECTOR = [e for e in spec.registry().values()
          if e.kind is not Kind.AGGREGATE and e.optimize is None and e.expr.is_Boolean is not True
          and not e.expr.has(sp.Sum, sp.erf) and not e.evaluator]


def _in_domain(entry, pt) -> bool:
    try:
        entry.check_values({k: v for k, v in pt.items() if k in entry.params})
        return True
    except spec.DomainError:
        return False


@pytest.mark.parametrize("entry", VECTOR, ids=[e.id for e in VECTOR])
@settings(max_examples=6)
@given(data=st.data(), chunk=st.sampled_from([1, 3, 16384]), scalar_params=st.booleans())
@pytest.mark.tier("properties")
def test_array_elements_bracket_their_certified_enclosures(entry, data, chunk, scalar_params):
    """Arrays of ~12 points (aggregates always vary; the other parameters vary or are shared scalars)."""
    base = data.draw(entry_points(entry))
    assume(_in_domain(entry, base))
    pts = []
    # an implicit function's certified value (an optimization per point, at 1e-20) costs seconds to minutes at extreme
    # points (conversions.rdp.optimal.delta at alpha = 245, eps_g = 77: 141 s): fewer points per array there
    for _ in range(4 if entry.expr.has(ImplicitFunction) else 12):
        p = data.draw(entry_points(entry))
        if scalar_params:
            p = {k: (p[k] if k in (set(entry.aggregates) or {sorted(p)[0]}) else base[k]) for k in p}
        if _in_domain(entry, p):
            pts.append(p)
    assume(len(pts) >= 2)
    arrays = {k: np.array([float(p[k]) for p in pts]) for k in pts[0]}
    varying = set(entry.aggregates) or {sorted(arrays)[0]}  # at least one input is an array
    if scalar_params:
        arrays = {k: (v if k in varying else float(base[k])) for k, v in arrays.items()}
    saved = npfast.CHUNK
    npfast.CHUNK = chunk
    try:
        lo, hi = ev.fast_interval(entry.id, **arrays)
    finally:
        npfast.CHUNK = saved
    assert lo.shape == hi.shape == (len(pts),)
    for j, p in enumerate(pts):
        params = {k: v for k, v in p.items() if k in entry.params}
        aggs = {k: v for k, v in p.items() if k in entry.aggregates}
        try:
            enc = ev.enclose(entry.id, params, aggregates=aggs, rel_tol=1e-20)
        except (ev.CertificationError, NotCertified):
            continue
        if enc.pos_inf:
            assert hi[j] == math.inf, (entry.id, p)
            continue
        assert hi[j] >= enc.upper(), (entry.id, p, hi[j], enc.upper())
        assert lo[j] <= enc.lower(), (entry.id, p, lo[j], enc.lower())
        m = max(abs(enc.upper()), abs(enc.lower()))
        # tight in the normal range; near 1e-290 the fast path's intermediate products are subnormal (the optimal
        # conversion's delta of about 3e-290 came out at relative width 6e-12: sound, wider)
        if 1e-250 < m < 1e250 and math.isfinite(hi[j]) and math.isfinite(lo[j]):
            assert hi[j] - lo[j] <= 1e-12 * m, (entry.id, p, lo[j], hi[j])


def _prog(expr, nonneg=()):
    return npfast.Program(expr, set(nonneg))


def test_products_of_provably_nonnegative_factors_with_negative_lower_ends_stay_sound():
    """(1 - e^-x)(1 - e^-y) >= 0 is tiny for tiny x, y; its factors' computed lower ends are negative
    (cancellation).  Multiplying the lower ends would give a positive 'lower bound' above the exact value."""
    x, y = sp.symbols("x y", positive=True)
    expr = (1 - sp.exp(-x)) * (1 - sp.exp(-y))
    xs = np.array([1e-20, 1e-18, 3e-17])
    lo, hi = _prog(expr, {"x", "y"}).run({"x": (xs, xs), "y": (xs, xs)})
    exact = [(-math.expm1(-v)) ** 2 for v in xs]  # ~ v^2, far below 1e-30
    assert np.all(lo <= np.array(exact)) and np.all(hi >= np.array(exact))


def test_overflowing_lower_end_never_becomes_plus_infinity():
    """exp(x)*exp(x) with x = 400 is finite in exact arithmetic (e^800) but overflows float64: the lower bound must
    not be +inf (that would be above the exact value); the upper bound is +inf."""
    x = sp.Symbol("x", positive=True)
    for expr, v in ((sp.exp(x) * sp.exp(x), 400.0), (sp.exp(x) + sp.exp(x + 1), 709.0), (sp.exp(2 * x), 400.0)):
        lo, hi = _prog(expr, {"x"}).run({"x": (np.array([v]), np.array([v]))})
        assert lo[0] < math.inf and hi[0] == math.inf, expr


def test_negative_and_mixed_sign_products_bracket_exact_values():
    x, y = sp.symbols("x y", real=True)
    rng = np.random.default_rng(1)
    xs = rng.uniform(-3, 3, 200)
    ys = rng.uniform(-3, 3, 200)
    from fractions import Fraction
    for expr, f in (
        (x * y, lambda a, b: Fraction(a) * Fraction(b)),
        (-x * y / 3, lambda a, b: -Fraction(a) * Fraction(b) / 3),
        (x**3 - y, lambda a, b: Fraction(a) ** 3 - Fraction(b)),
        (sp.Max(x, y) - sp.Min(x, 2 * y), lambda a, b: max(Fraction(a), Fraction(b)) - min(Fraction(a), 2 * Fraction(b))),
        (sp.Abs(x - y) * x**2, lambda a, b: abs(Fraction(a) - Fraction(b)) * Fraction(a) ** 2),
    ):
        lo, hi = _prog(expr).run({"x": (xs, xs), "y": (ys, ys)}, chunk=7)
        for j in range(len(xs)):
            q = f(float(xs[j]), float(ys[j]))
            assert Fraction(lo[j]) <= q <= Fraction(hi[j]), (expr, xs[j], ys[j])


def test_piecewise_branches_are_selected_per_element_across_chunks():
    """Elements on either side of V = 1 in one array, chunk sizes that put a branch switch inside a chunk and
    chunks that hold a single branch (whose other branch is skipped)."""
    V = sp.Symbol("V", nonnegative=True)
    expr = sp.Piecewise((sp.oo, V > 3), (V**2 + 1, V <= 1), (sp.sqrt(V) + 7, True))
    vs = np.array([0.5, 0.25, 0.75, 2.0, 2.5, 4.0, 1.0, 0.0, 9.0])
    want = [v**2 + 1 if v <= 1 else (math.inf if v > 3 else math.sqrt(v) + 7) for v in vs]
    for chunk in (1, 2, 3, 16384):
        lo, hi = _prog(expr, {"V"}).run({"V": (vs, vs)}, chunk=chunk)
        for j, w in enumerate(want):
            if w == math.inf:
                assert hi[j] == math.inf
            else:
                assert lo[j] <= w <= hi[j] and hi[j] - lo[j] <= 1e-14 * w, (chunk, vs[j], lo[j], hi[j])


def test_scalar_and_array_inputs_give_identical_bounds():
    """Hoisting scalar subexpressions out of the chunk loop changes nothing: the same point evaluated as a scalar
    input and inside an array gives bit-identical bounds."""
    entry = spec.get("rruv16.thm5_1")
    V = np.array([0.1, 0.5, 2.0])
    lo_a, hi_a = ev.fast_interval(entry.id, eps_g=1.0, delta_g=1e-6, A=0.3, V=V)
    for j, v in enumerate(V):
        lo_s, hi_s = ev.fast_interval(entry.id, eps_g=1.0, delta_g=1e-6, A=0.3, V=float(v))
        assert (float(lo_s), float(hi_s)) == (lo_a[j], hi_a[j])


def test_unsupported_operations_fall_back_to_the_elementwise_path():
    s = sp.Symbol("s", positive=True)
    with pytest.raises(npfast.Unsupported):
        npfast.Program(sp.zeta(s) + sp.Sum(s, (sp.Symbol("l", integer=True), 1, 3)), {"s"})


@settings(max_examples=200)
@given(a=st.floats(-1.5, 1e6), w=st.floats(0, 1e3), pos=st.booleans())
def test_log1p_on_wide_intervals_brackets_both_ends(a, w, pos):
    """log1p uses one libm call and the mean value bound log1p(b) <= log1p(a) + (b - a)/(1 + a): on intervals
    [a, b] of any width (including a <= -1, where the upper end must fall back to +inf) the ends are bracketed."""
    from dpbounds.evaluation.numeric import mp_context
    if pos:
        a = abs(a)
    b = a + w
    x = sp.Symbol("x", nonnegative=True) if pos else sp.Symbol("x", real=True)
    lo, hi = _prog(sp.log(1 + x), {"x"} if pos else ()).run({"x": (np.array([a]), np.array([b]))})
    ctx = mp_context(40)
    if b > -1:
        assert hi[0] >= ctx.log1p(ctx.mpf(b)), (a, b, hi[0])
    if a > -1:
        assert lo[0] <= ctx.log1p(ctx.mpf(a)), (a, b, lo[0])
    else:
        assert lo[0] == -math.inf


def _extreme_values(name: str, entry) -> list[float]:
    if name.startswith("delta") or name in ("D", "LIFT"):
        return [1e-300, 1e-30]
    if name.startswith("eps"):
        return [1000.0, 1e-30]
    if name in entry.aggregates or name in ("rho", "V", "v0", "gamma", "u", "x"):
        return [1e12, 1e-30]
    return []


ALL_CLOSED = [e for e in spec.registry().values()
              if e.kind is not Kind.AGGREGATE and e.optimize is None and e.expr.is_Boolean is not True
              and not e.evaluator]
EXTREME_CASES = [(e, k, v) for e in ALL_CLOSED for k in sorted(e.sample_point()) for v in _extreme_values(k, e)]


@pytest.mark.parametrize("entry,name,value", EXTREME_CASES,
                         ids=[f"{e.id}-{k}={v:g}" for e, k, v in EXTREME_CASES])
@pytest.mark.tier("properties")
def test_extreme_inputs_give_the_right_value_or_inf_on_the_right_side(entry, name, value):
    """eps up to 1000, delta down to 1e-300, V up to 1e12 and down to 1e-30 (issue #3): never NaN, never a finite
    number on the wrong side of the certified value; +inf only as an upper end, -inf only as a lower end."""
    pt = {k: float(v) for k, v in entry.sample_point().items()}
    pt[name] = value
    if not _in_domain(entry, pt):
        pytest.skip("outside the entry's domain")
    lo, hi = (float(x) for x in ev.fast_interval(entry.id, **pt))
    assert not (math.isnan(lo) or math.isnan(hi))
    assert lo <= hi and hi != -math.inf
    params = {k: v for k, v in pt.items() if k in entry.params}
    aggs = {k: v for k, v in pt.items() if k in entry.aggregates}
    try:
        enc = ev.enclose(entry.id, params, aggregates=aggs, rel_tol=1e-15)
    except (ev.CertificationError, NotCertified):
        assert lo != math.inf  # a lower end +inf claims the exact value is +oo: only where that is certified
        return
    if enc.pos_inf:
        assert hi == math.inf
        return
    assert lo != math.inf
    assert lo <= enc.lower() and hi >= enc.upper(), (pt, lo, hi, enc.lower(), enc.upper())
    m = max(abs(enc.upper()), abs(enc.lower()))
    if 1e-290 < m < 1e290 and math.isfinite(lo) and math.isfinite(hi):
        assert hi - lo <= 1e-12 * m, (pt, lo, hi)


_TIES = [(1.0, 2.0 ** -53), (1.0, -2.0 ** -54), (1.0, -2.0 ** -53), (2.0 ** 100, 2.0 ** 47), (-1.0, -2.0 ** -53),
         (1.5, 2.0 ** -53), (-(2.0 ** -1000), 2.0 ** -1054), (5e-324, 5e-324), (2.0 ** -1022, -5e-324),
         (1.7976931348623157e308, 1e292), (3.0, -2.0 ** -52)]


@settings(max_examples=300)
@given(a=st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.sampled_from([t[0] for t in _TIES])),
       b=st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.sampled_from([t[1] for t in _TIES])),
       op=st.sampled_from(["add", "mul", "div"]))
def test_outward_rounding_covers_every_correctly_rounded_operation(a, b, op):
    _check_outward_rounding(a, b, op)


def _check_outward_rounding(a, b, op):
    """down/up of a correctly rounded sum, product or quotient bracket the exact rational result (round-half-even
    ties included: 1 + 2^-53 rounds to 1.0, and up(1.0) must reach past it); the positive-only variants too."""
    from fractions import Fraction
    if op == "div" and b == 0:
        return
    with np.errstate(all="ignore"):
        r = {"add": np.add, "mul": np.multiply, "div": np.divide}[op](np.array([a]), np.array([b]))
    if not np.isfinite(r[0]):
        return
    x = {"add": Fraction(a) + Fraction(b), "mul": Fraction(a) * Fraction(b),
         "div": Fraction(a) / Fraction(b) if b else None}[op]
    def brackets(lo_, hi_):  # an infinite end is on the safe side by construction; check the finite ones
        return (lo_ == -math.inf or Fraction(float(lo_)) <= x) and (hi_ == math.inf or x <= Fraction(float(hi_)))
    lo, hi, t = r.copy(), r.copy(), np.empty(1)
    with np.errstate(all="ignore"):
        npfast._down_any(lo, t)
        npfast._up_any(hi, t)
    assert not (np.isnan(lo[0]) or np.isnan(hi[0]))
    assert brackets(lo[0], hi[0]), (a, b, op, r[0], lo[0], hi[0])
    assert lo[0] < r[0] < hi[0]
    if r[0] >= 0 and x >= 0:
        lp, hp = r.copy(), r.copy()
        with np.errstate(all="ignore"):
            npfast._down_pos(lp)
            npfast._up_pos(hp)
        assert brackets(lp[0], hp[0]), (a, b, op, r[0], lp[0], hp[0])


@pytest.mark.parametrize("a,b", _TIES)
def test_tie_cases_round_outward(a, b):
    _check_outward_rounding(a, b, "add")


@settings(max_examples=30)
@given(n=st.sampled_from([0, 1, 5, 32767, 32768, 32769, 70001]), seed=st.integers(0, 2 ** 16))
def test_tight_mask_matches_the_plain_formula(n, seed):
    """The chunked tightness test of the erfc refinement equals the one-line formula, NaN and signs included."""
    rng = np.random.default_rng(seed)
    lo = rng.uniform(-1, 1, n)
    hi = lo + np.abs(lo) * rng.choice([0.0, 5e-13, 2e-12, 1.0], n)
    if n:
        hi[rng.integers(0, n)] = np.nan
    with np.errstate(invalid="ignore"):
        want = (hi - lo) <= ev.LOOSE_REL_WIDTH * np.maximum(np.abs(lo), np.abs(hi))
    assert np.array_equal(ev._tight_mask(lo, hi), want)


@settings(max_examples=60)
@given(data=st.data(), scale=st.sampled_from([2.0 ** -20, 1e-9, 1e-15, 1e-300, 5e-324]))
def test_log1p_small_argument_path_brackets_arb(data, scale):
    """Chunks with every end in [-2^-20, 2^-20] use the cubic with a remainder bound instead of libm log1p."""
    from flint import arb

    from dpbounds.evaluation.numeric import arb_prec
    xs = np.array(data.draw(st.lists(st.floats(-1.0, 1.0), min_size=1, max_size=20))) * scale
    w = np.array(data.draw(st.lists(st.floats(0.0, 1e-3), min_size=xs.size, max_size=xs.size))) * scale
    a = xs
    b = np.minimum(xs + w, scale)
    assert (np.abs(a) <= npfast._LOG1P_SMALL).all() and (np.abs(b) <= npfast._LOG1P_SMALL).all()
    nd = npfast._Node("log1p", (0,))
    bufs = tuple(np.empty(a.size) for _ in range(4))
    lo, hi = npfast._exec_log1p(nd, a, b, bufs, False)
    with arb_prec(300):
        for x, y, l, h in zip(a, b, lo, hi):
            assert arb(float(l)) <= arb(float(x)).log1p(), (x, l)
            assert arb(float(y)).log1p() <= arb(float(h)), (y, h)
            if abs(x) > 1e-290:
                assert (h - l) <= (y - x) * 1.01 + 1e-14 * abs(x), (x, y, l, h)


def test_reciprocal_of_nonnegative_ends_including_signed_zero():
    """The monotone reciprocal path (children known >= 0): a lower end -0.0 or 0.0 gives an upper end +inf, never
    -inf; a zero upper end never gives a lower end +inf."""
    nd = npfast._Node("recip", (0,))
    x_lo = np.array([-0.0, 0.0, 1.0, 0.0, 3.0])
    x_hi = np.array([1.0, 2.0, 2.0, 0.0, np.inf])
    bufs = tuple(np.empty(5) for _ in range(4))
    with np.errstate(all="ignore"):  # as in Program.run
        lo, hi = npfast._exec(nd, [(x_lo, x_hi)], bufs, None, True, (True,))
    assert list(hi[:2]) == [np.inf, np.inf] and hi[3] == np.inf
    assert 0.5 >= lo[2] > 0.49 and 1.0 <= hi[2] < 1.01
    assert lo[3] < np.inf and lo[4] == 0.0 and hi[4] >= 1 / 3
