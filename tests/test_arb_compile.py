"""The certified evaluator's compiled arb closures (dpbounds.evaluation.interp._compile_arb): ball for ball the generic
interpreter's result, with per-precision caches that never leak between precisions, calls or threads, and
enclosure ends of astronomically small magnitude rounded outward instead of built as huge Fractions."""

from __future__ import annotations

import threading
from fractions import Fraction

import pytest
import sympy as sp
from flint import arb
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dpbounds import spec
from dpbounds.evaluation import evaluate as ev
from dpbounds.evaluation import interp
from dpbounds.evaluation.numeric import arb_prec
from dpbounds.spec.core import Kind

from .strategies import entry_points

CLOSED = [e for e in spec.registry().values()
          if e.kind is not Kind.AGGREGATE and e.optimize is None and e.expr.is_Boolean is not True and not e.evaluator]


def _inputs(entry, pt):
    params = {k: v for k, v in pt.items() if k in entry.params}
    aggs = {k: v for k, v in pt.items() if k in entry.aggregates}
    try:
        return ev.prepare(entry, params, aggregates=aggs)
    except spec.DomainError:
        return None


def _same_ball(a, b) -> bool:
    if a is interp.POS_INF or b is interp.POS_INF:
        return a is b
    if isinstance(a, bool) or a is None:
        return a is b
    return a.mid() == b.mid() and a.rad() == b.rad()


def _run(fn, env, bits):
    try:
        with arb_prec(bits):
            return ("ok", fn(dict(env)))
    except interp.NotCertified as exc:
        return ("not certified", type(exc))


@pytest.mark.parametrize("entry", CLOSED, ids=[e.id for e in CLOSED])
@settings(max_examples=8)
@given(data=st.data(), bits=st.sampled_from([53, 200, 640]))
@pytest.mark.tier("properties")
def test_compiled_arb_is_ball_for_ball_the_generic_interpreter(entry, data, bits):
    """Same arb operations in the same order: identical midpoints and radii (or the same refusal)."""
    inp = _inputs(entry, data.draw(entry_points(entry)))
    assume(inp is not None)
    fast = interp.compile_expr(entry.expr, interp.ArbBackend())
    generic = interp._compile(entry.expr, interp.ArbBackend())
    with arb_prec(bits):
        env = ev._arb_env(inp)
    a, b = _run(fast, env, bits), _run(generic, env, bits)
    assert a[0] == b[0], (a, b)
    if a[0] == "ok":
        assert _same_ball(a[1], b[1]), (a[1], b[1])


@pytest.mark.parametrize("entry", [e for e in CLOSED if e.expr.has(sp.zeta) or
                                   any(not s.free_symbols for s in sp.preorder_traversal(e.expr) if s.args)][:6],
                         ids=lambda e: e.id)
def test_cached_constants_and_zeta_do_not_depend_on_call_order_or_precision(entry):
    """Evaluate at 64 then 300 bits and at 300 bits alone (fresh compile, caches cleared): identical balls.  A
    constant or zeta cached at one precision is never reused at another."""
    inp = _inputs(entry, {k: float(Fraction(v)) for k, v in entry.sample_point().items()})
    assert inp is not None
    fn = interp.compile_expr(entry.expr, interp.ArbBackend())
    with arb_prec(64):
        env64 = ev._arb_env(inp)
    with arb_prec(300):
        env300 = ev._arb_env(inp)
    _run(fn, env64, 64)
    after = _run(fn, env300, 300)
    interp._ZETA_CACHE.clear()
    fresh = _run(interp._compile(entry.expr, interp.ArbBackend()), env300, 300)
    assert after[0] == fresh[0] == "ok"
    assert _same_ball(after[1], fresh[1])


def test_shared_subexpressions_are_memoized_per_call_only():
    """A repeated subexpression is computed once per call, in a memo that belongs to that call: the caller's env
    is not modified, and a second call with other values gets its own (right) values."""
    x, y = sp.symbols("x y", positive=True)
    expr = sp.log(x + y) * sp.sqrt(x + y) + sp.log(x + y)
    # log(x + y) is computed twice without a memo; x + y inside it only once more (too cheap to memoize)
    assert interp._shared_subexpressions(expr) == {sp.log(x + y)}
    fn = interp.compile_expr(expr, interp.ArbBackend())
    with arb_prec(128):
        for xv, yv in [(1, 2), (5, 7), (1, 2)]:
            env = {"x": arb(xv), "y": arb(yv), "__exact__": {}}
            got = fn(env)
            assert set(env) == {"x", "y", "__exact__"}
            s = arb(xv + yv)
            want = s.log() * s.sqrt() + s.log()
            assert got.overlaps(want) and abs(got.mid() - want.mid()) < arb(2) ** -100


def test_compiled_arb_from_several_threads_matches_single_thread():
    """Evaluations at different precisions from several threads: each gets the ball a lone call gives."""
    entry = next(e for e in CLOSED if e.id == "rruv16.thm5_1")
    inp = _inputs(entry, {k: float(Fraction(v)) for k, v in entry.sample_point().items()})
    fn = interp.compile_expr(entry.expr, interp.ArbBackend())
    want = {}
    for bits in (64, 128, 256, 512):
        with arb_prec(bits):
            want[bits] = fn(ev._arb_env(inp))
    bad = []

    def work(bits):
        for _ in range(200):
            with arb_prec(bits):
                v = fn(ev._arb_env(inp))
            if not _same_ball(v, want[bits]):
                bad.append(bits)
    ts = [threading.Thread(target=work, args=(b,)) for b in want]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not bad


@pytest.mark.parametrize("m,e,upper,want", [
    (3, -(1 << 21), False, (0, 0)),                       # positive, tiny, lower end: down to 0
    (3, -(1 << 21), True, (1, -ev._EXP_LIMIT)),           # positive, tiny, upper end: up to 2**-LIMIT
    (-3, -(1 << 21), False, (-1, -ev._EXP_LIMIT)),        # negative, tiny, lower end: down to -2**-LIMIT
    (-3, -(1 << 21), True, (0, 0)),                       # negative, tiny, upper end: up to 0
    (5, -10, True, (5, -10)),                             # ordinary ends are kept exactly
    (0, 12345, False, (0, 0)),
])
def test_tiny_enclosure_ends_are_rounded_outward(m, e, upper, want):
    got = ev._clamp_pair(m, e, upper)
    assert got == want

    def exact(mm, ee):  # 2**-(2**21) is a 2-Mbit integer ratio: fine here, too slow on the hot path
        return Fraction(mm << ee) if ee >= 0 else Fraction(mm, 1 << -ee)
    v, g = exact(m, e), exact(*got)
    assert (g >= v) if upper else (g <= v)
    if abs(e) < 4096:
        assert g == v


def test_huge_enclosure_ends_refuse_to_certify():
    with pytest.raises(ev.MagnitudeOutOfRange):
        ev._clamp_pair(1, ev._EXP_LIMIT, True)


def test_a_value_far_below_the_smallest_float_is_enclosed_soundly():
    """delta(eps=1) of the Gaussian mechanism with rho = 1e-30 is about exp(-1e30/4): no Fraction of it can be
    built, yet the enclosure is returned promptly, contains it, and its float ends bracket it."""
    enc = ev.enclose("conversions.gauss.delta", {"eps_g": "1", "rho": "1e-30"}, rel_tol=1e-15)
    assert enc.lo <= 0 < enc.hi <= Fraction(1, 2 ** 1000)
    assert enc.lower() <= 0.0 and 0.0 < enc.upper() <= 5e-324


@settings(max_examples=300)
@given(m=st.integers(-(1 << 300), 1 << 300), e=st.integers(-1200, 200))
def test_dyadic_fractions_equal_the_normalized_rational(m, e):
    """The gcd-free construction for odd mantissas gives the same (reduced) Fraction, hash included."""
    from dpbounds.evaluation.numeric import dyadic_fraction
    q = dyadic_fraction(m, e)
    want = Fraction(m) * Fraction(2) ** e
    assert q == want and (q.numerator, q.denominator) == (want.numerator, want.denominator)
    assert hash(q) == hash(want)


def _reference_float(q: Fraction, up: bool) -> float:
    """Smallest float >= q (or largest <= q): CPython's int / int is correctly rounded, then one exact step."""
    import math
    import sys
    big = sys.float_info.max
    if q > big:
        return math.inf if up else big
    if q < -big:
        return -big if up else -math.inf
    f = q.numerator / q.denominator
    if up and Fraction(f) < q:
        f = math.nextafter(f, math.inf)
    if not up and Fraction(f) > q:
        f = math.nextafter(f, -math.inf)
    return f


@settings(max_examples=400)
@given(m=st.integers(-(1 << 2000), 1 << 2000), e=st.integers(-3300, 1100), up=st.booleans())
def test_dyadic_to_float_is_the_nearest_float_on_the_asked_side(m, e, up):
    _check_dyadic_to_float(m, e, up)


def _check_dyadic_to_float(m, e, up):
    from dpbounds.evaluation.numeric import dyadic_to_float
    q = Fraction(m) * Fraction(2) ** e
    got = dyadic_to_float(m, e, up)
    assert got == _reference_float(q, up), (m, e, up, got)


@pytest.mark.parametrize("q", [Fraction(1, 3), Fraction(-1, 3), Fraction(2) ** -1074, Fraction(3) * Fraction(2) ** -1076,
                               Fraction(-(2 ** 1024)), Fraction(2 ** 1024 - 2 ** 970), Fraction(2 ** 1024 - 2 ** 971),
                               Fraction(1) + Fraction(2) ** -53, Fraction(1), Fraction(0)])
def test_float_up_down_of_arb_balls_bracket(q):
    from dpbounds.evaluation.numeric import float_down, float_up
    with arb_prec(3000):
        x = arb(q.numerator) / arb(q.denominator)
        lo, hi = float_down(x), float_up(x)
    assert lo == _reference_float(q, False) or Fraction(lo) <= q
    assert hi == _reference_float(q, True) or hi == float("inf") or Fraction(hi) >= q
    assert lo <= hi


@pytest.mark.parametrize("m,e", [(1, -1074), (1, -1075), (3, -1076), (1, -1076), (-1, -1075), (2 ** 53 - 1, 971),
                                 (2 ** 54 - 1, 970), (2 ** 53 + 1, 971), (-(2 ** 54 - 1), 970), (2 ** 1024 - 1, 0),
                                 (2 ** 53 + 1, -53), (-(2 ** 53 + 1), -53), (2 ** 60 + 2 ** 7, -60), (7, -1077)])
@pytest.mark.parametrize("up", [False, True])
def test_dyadic_to_float_edges(m, e, up):
    _check_dyadic_to_float(m, e, up)


@pytest.mark.parametrize("tol,least", [(1e-50, 167), (Fraction(1, 10 ** 53), 177), (1e-12, 40), (0.5, 1)])
def test_first_attempt_has_enough_bits_for_the_asked_width(tol, least):
    """The default first precision covers -log2(rel_tol) (plus guard bits): one evaluation for a 50-digit request."""
    bits = ev._start_bits_for(tol)
    assert bits >= least + 32 and bits >= 64
    e = ev.get("rruv16.thm5_1")
    inp = ev.prepare(e, {"eps_g": "1", "delta_g": "1e-6"}, aggregates={"V": "0.2", "A": "0.1"})
    enc = ev.enclose_inputs(e, inp, rel_tol=tol)
    assert enc.bits == bits and enc.rel_width() <= float(tol)
