"""Interpreters that evaluate spec (sympy) expressions in three arithmetics, generated from the spec itself.

* :class:`ArbBackend`  -- python-flint arb balls: every result is an enclosure of the exact value.
* :class:`MpBackend`   -- mpmath in a private context at any precision (never the global ``mpmath.mp``).
* :class:`NpIntervalBackend` -- numpy float64 *intervals* ``(lo, hi)``, vectorized: every elementary operation
  is rounded outward (see its docstring for the error model), so ``lo <= exact <= hi`` elementwise.

:func:`compile_expr` walks a sympy expression once and returns a closure ``f(env) -> value`` for a backend, so no
formula is ever restated by hand outside ``spec/``.  Relations and booleans evaluate to three-valued logic
(True, False, or None = "cannot decide at this precision") in the interval backends.
"""

from __future__ import annotations

import math
import operator
import threading
from fractions import Fraction
from typing import Any, Callable

import numpy as np
import sympy as sp
from flint import arb, ctx as _flint_ctx
from dpbounds.evaluation.numeric import arb_prec, float_down, float_up
from dpbounds.spec.core import assumed

from dpbounds.evaluation.enclosure import CertificationError

# ------------------------------------------------------------------------------------------------
# Extended reals for arb: python-flint's +inf ball loses its sign under arithmetic, so +oo is a sentinel.
# ------------------------------------------------------------------------------------------------


class _PosInf:
    __slots__ = ()

    def __repr__(self) -> str:
        return "+oo"


POS_INF = _PosInf()


class NotCertified(CertificationError):
    """The interval arithmetic could not produce a finite enclosure (e.g. 0 * oo, log of a ball touching 0).

    A CertificationError: one that escapes to a caller is the documented refusal, never an undocumented type."""


# ------------------------------------------------------------------------------------------------
# Backends
# ------------------------------------------------------------------------------------------------


class ArbBackend:
    """arb balls; +oo as the :data:`POS_INF` sentinel."""

    name = "arb"

    def const(self, q: Fraction):
        return arb(q.numerator) / arb(q.denominator)

    def pi(self):
        return arb.pi()

    def e(self):
        return arb(1).exp()

    def inf(self):
        return POS_INF

    @staticmethod
    def _chk(v):
        if isinstance(v, arb) and not v.is_finite():  # is_finite() is False for NaN balls as well
            raise NotCertified(f"non-finite ball {v}")
        return v

    def add(self, vals):
        if any(v is POS_INF for v in vals):
            return POS_INF
        acc = vals[0]
        for v in vals[1:]:
            acc = acc + v
        return self._chk(acc)

    def mul(self, vals):
        if any(v is POS_INF for v in vals):
            if all(v is POS_INF or v > 0 for v in vals):
                return POS_INF
            raise NotCertified("product of +oo with a factor not certainly positive")
        acc = vals[0]
        for v in vals[1:]:
            acc = acc * v
        return self._chk(acc)

    def neg_pow(self, base, n: int):
        if base is POS_INF:  # 1 / oo^n (n > 0)
            return arb(0)
        return self._chk(1 / self.int_pow(base, n))

    def int_pow(self, base, n: int):
        if base is POS_INF:
            if n > 0:
                return POS_INF
            return arb(0)
        if n % 2 == 0 and n > 0 and not base > 0 and not base < 0:
            base = abs(base)
        return self._chk(base ** n)

    def sqrt(self, x):
        if x is POS_INF:
            return POS_INF
        if x < 0:
            raise NotCertified(f"sqrt of a negative ball {x}")
        if not x >= 0:  # touches zero from below: clip (sqrt is only defined on x >= 0)
            x = x.nonnegative_part()
        return self._chk(x.sqrt())

    def rpow(self, base, expo):
        if base is POS_INF or expo is POS_INF:
            raise NotCertified("general power with +oo")
        if not base > 0:
            raise NotCertified(f"general power of a ball not certainly positive {base}")
        return self._chk((expo * base.log()).exp())

    def exp(self, x):
        if x is POS_INF:
            return POS_INF
        return self._chk(x.exp())

    def log(self, x):
        if x is POS_INF:
            return POS_INF
        if not x > 0:
            raise NotCertified(f"log of a ball not certainly positive {x}")
        return self._chk(x.log())

    def fn(self, name, args):
        if any(a is POS_INF for a in args):
            if name in ("tanh",):
                return arb(1)
            if name == "erfc":
                return arb(0)
            if name in ("log1p", "expm1"):  # increasing and unbounded: +oo at +oo
                return POS_INF
            raise NotCertified(f"{name}(+oo)")
        x = args[0]
        if name == "erfc":
            return self._chk(x.erfc())
        if name == "erf":
            return self._chk(x.erf())
        if name == "tanh":
            return self._chk(x.tanh())
        if name == "zeta":
            return self._chk(_arb_zeta(x))
        if name == "abs":
            return abs(x)
        if name == "floor":
            lo, hi = x.lower().floor(), x.upper().floor()
            if lo == hi or (lo.mid() == hi.mid()):
                return lo
            raise NotCertified("floor of a ball straddling an integer")
        if name == "binomial":
            n, k = args
            return self._chk(arb(int(_exact_int(n))).bin(int(_exact_int(k))) if hasattr(arb, "bin") else
                             arb(math.comb(int(_exact_int(n)), int(_exact_int(k)))))
        if name == "log1p":
            if not x > -1:
                raise NotCertified(f"log1p of a ball not certainly > -1: {x}")
            return self._chk(x.log1p())
        if name == "expm1":
            return self._chk(x.expm1())
        raise NotImplementedError(name)

    def max(self, vals):
        if any(v is POS_INF for v in vals):
            return POS_INF
        acc = vals[0]
        for v in vals[1:]:
            acc = acc.max(v)
        return acc

    def min(self, vals):
        finite = [v for v in vals if v is not POS_INF]
        if not finite:
            return POS_INF
        acc = finite[0]
        for v in finite[1:]:
            acc = acc.min(v)
        return acc

    # three-valued comparisons
    def lt(self, a, b):
        if a is POS_INF:
            return False
        if b is POS_INF:
            return True
        if a < b:
            return True
        if a >= b:
            return False
        return None

    def le(self, a, b):
        if b is POS_INF:
            return True
        if a is POS_INF:
            return False
        if a <= b:
            return True
        if a > b:
            return False
        return None

    def eq(self, a, b):
        if a is POS_INF or b is POS_INF:
            return (a is POS_INF) and (b is POS_INF)
        if a == b and a.is_exact() and b.is_exact():
            return True
        if not a.overlaps(b):
            return False
        return None

    def union(self, a, b):
        if a is POS_INF or b is POS_INF:
            return POS_INF  # the enclosure's upper end is +oo; callers treat it as "possibly infinite"
        return a.union(b)

    def select(self, cond, a_fn, b_fn):
        """cond is True/False/None; None takes the union of both branches."""
        if cond is True:
            return a_fn()
        if cond is False:
            return b_fn()
        return self.union(a_fn(), b_fn())


def _exact_int(v) -> int:
    if isinstance(v, int):
        return v
    if isinstance(v, arb):
        if v.is_exact() and v.is_integer():
            return int(v.unique_fmpz())
        u = v.unique_fmpz()
        if u is not None:
            return int(u)
    raise NotCertified(f"not an exact integer: {v}")


class MpBackend:
    """mpmath at the private context's precision (a high-precision *approximation*, not an enclosure)."""

    name = "mp"

    def __init__(self, ctx):
        self.ctx = ctx

    def const(self, q: Fraction):
        return self.ctx.mpf(q.numerator) / q.denominator

    def pi(self):
        return +self.ctx.pi

    def e(self):
        return +self.ctx.e

    def inf(self):
        return self.ctx.inf

    def add(self, vals):
        return self.ctx.fsum(vals)

    def mul(self, vals):
        acc = vals[0]
        for v in vals[1:]:
            acc = acc * v
        return acc

    def int_pow(self, base, n):
        return base ** n

    def neg_pow(self, base, n):
        return 1 / base ** n

    def sqrt(self, x):
        return self.ctx.sqrt(x)

    def rpow(self, base, expo):
        return self.ctx.power(base, expo)

    def exp(self, x):
        return self.ctx.exp(x)

    def log(self, x):
        return self.ctx.log(x)

    def fn(self, name, args):
        c = self.ctx
        x = args[0]
        table = {"erfc": c.erfc, "erf": c.erf, "tanh": c.tanh, "zeta": c.zeta, "abs": abs, "floor": c.floor,
                 "log1p": c.log1p, "expm1": c.expm1}
        if name == "binomial":
            return c.binomial(args[0], args[1])
        return table[name](x)

    def max(self, vals):
        return max(vals)

    def min(self, vals):
        return min(vals)

    def lt(self, a, b):
        return bool(a < b)

    def le(self, a, b):
        return bool(a <= b)

    def eq(self, a, b):
        return bool(a == b)

    def select(self, cond, a_fn, b_fn):
        return a_fn() if cond else b_fn()


class NpIntervalBackend:
    """Vectorized float64 interval arithmetic: values are pairs ``(lo, hi)`` of numpy arrays.

    Error model (why ``lo <= exact <= hi``):

    * ``+ - * /`` and ``sqrt`` are correctly rounded in IEEE 754, so each result is widened by one ulp outward
      (``np.nextafter``), which covers the rounding whatever its direction.
    * ``exp``, ``log``, ``log1p``, ``tanh``, ``erfc``, ``**`` come from libm/numpy's SIMD kernels, documented to within
      a few ulps; each is widened by :data:`TRANSCENDENTAL_ULPS` = 8 ulps outward.  ``tests/test_reference_fastpath.py``
      checks every closed-form bound against certified arb enclosures on hypothesis-generated inputs.
    * Monotone functions are applied to the interval's ends; non-monotone ones (products with mixed signs,
      even powers) take the hull of the candidate ends.  Any NaN becomes (-inf, +inf): the safe side.
    """

    name = "np"
    TRANSCENDENTAL_ULPS = 8

    def __init__(self, shape=()):
        self.shape = shape

    # -- helpers
    # Outward rounding of a correctly rounded result r: the exact value lies within half an ulp of r, and
    # |r| * 2**-52 >= ulp(r) for normal r (2**-1074 covers zero and subnormals).  Adding that (a monotone, exact
    # scaling followed by a rounded addition) moves r at least one ulp outward -- cheaper than np.nextafter.
    _U = 2.0 ** -52
    _TINY = 2.0 ** -1074

    @classmethod
    def _down(cls, x):
        return x - (np.abs(x) * cls._U + cls._TINY)

    @classmethod
    def _up(cls, x):
        return x + (np.abs(x) * cls._U + cls._TINY)

    def _widen(self, lo, hi, k=None):
        k = self.TRANSCENDENTAL_ULPS if k is None else k
        with np.errstate(over="ignore", invalid="ignore"):
            lo = lo - k * np.abs(np.spacing(lo))
            hi = hi + k * np.abs(np.spacing(hi))
        return lo, hi

    def _clean(self, lo, hi):
        lo = np.where(np.isnan(lo), -np.inf, lo)
        hi = np.where(np.isnan(hi), np.inf, hi)
        return lo, hi

    def const(self, q: Fraction):
        return (np.float64(float_down(q)), np.float64(float_up(q)))

    def pi(self):
        return (np.float64(3.141592653589793), np.float64(3.1415926535897936))

    def e(self):
        return (np.float64(2.718281828459045), np.float64(2.7182818284590455))

    def inf(self):
        return (np.float64(np.inf), np.float64(np.inf))

    def add(self, vals):
        lo, hi = vals[0]
        with np.errstate(invalid="ignore", over="ignore"):
            for a, b in vals[1:]:
                lo = self._down(lo + a)
                hi = self._up(hi + b)
        return lo, hi  # NaNs propagate and are mapped to (-inf, +inf) once, by the caller

    def _mul2(self, x, y):
        a, b = x
        c, d = y
        if np.all(a >= 0) and np.all(c >= 0):  # both factors nonnegative here: ends multiply monotonically
            with np.errstate(invalid="ignore", over="ignore"):
                return np.maximum(self._down(a * c), 0.0), self._up(b * d)
        with np.errstate(invalid="ignore", over="ignore"):
            p = (a * c, a * d, b * c, b * d)
            lo = np.minimum(np.minimum(p[0], p[1]), np.minimum(p[2], p[3]))
            hi = np.maximum(np.maximum(p[0], p[1]), np.maximum(p[2], p[3]))
            return self._down(lo), self._up(hi)

    def mul(self, vals, nonneg=None):
        if nonneg is not None and all(nonneg):
            # every factor is >= 0 on the domain (checked by fast_interval): ends multiply monotonically.  A
            # computed lower end may still be negative (cancellation): clamp it at 0 first (the exact value is
            # >= 0), or two negative lower ends would multiply to a 'lower bound' above the exact product
            lo, hi = vals[0]
            lo = np.maximum(lo, 0.0)
            with np.errstate(invalid="ignore", over="ignore"):
                for a, b in vals[1:]:
                    lo = self._down(lo * np.maximum(a, 0.0))
                    hi = self._up(hi * b)
            return np.maximum(lo, 0.0), hi
        acc = vals[0]
        for v in vals[1:]:
            acc = self._mul2(acc, v)
        return acc

    def _recip(self, x):
        a, b = x
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            straddle = (a <= 0) & (b >= 0)
            lo = np.where(straddle, -np.inf, self._down(1.0 / b))
            hi = np.where(straddle, np.inf, self._up(1.0 / a))
        return self._clean(lo, hi)

    def int_pow(self, base, n):
        a, b = base
        if n == 1:
            return base
        if n == 2 or n % 2 == 0:
            with np.errstate(over="ignore", invalid="ignore"):
                absa, absb = np.abs(a), np.abs(b)
                mn = np.where((a <= 0) & (b >= 0), 0.0, np.minimum(absa, absb))
                mx = np.maximum(absa, absb)
                lo, hi = mn, mx
                plo, phi = (lo, hi)
                # repeated multiplication of nonnegative intervals, rounded outward each time
                for _ in range(n - 1):
                    plo, phi = self._down(plo * lo), self._up(phi * hi)
                plo = np.maximum(plo, 0.0)
            return self._clean(plo, phi)
        acc = base
        for _ in range(n - 1):
            acc = self._mul2(acc, base)
        return acc

    def neg_pow(self, base, n):
        return self._recip(self.int_pow(base, n))

    def sqrt(self, x):
        a, b = x
        with np.errstate(invalid="ignore"):
            lo = self._down(np.sqrt(np.maximum(a, 0.0)))
            hi = self._up(np.sqrt(b))
        lo = np.maximum(lo, 0.0)
        return self._clean(lo, hi)

    def exp(self, x):
        a, b = x
        with np.errstate(over="ignore", under="ignore"):
            lo, hi = self._widen(np.exp(a), np.exp(b))
        return self._clean(np.maximum(lo, 0.0), hi)

    def log(self, x):
        a, b = x
        with np.errstate(divide="ignore", invalid="ignore"):
            lo, hi = self._widen(np.log(a), np.log(b))
        lo = np.where(a <= 0, -np.inf, lo)
        return self._clean(lo, hi)

    def rpow(self, base, expo):
        return self.exp(self.mul([expo, self.log(base)]))

    def fn(self, name, args):
        x = args[0]
        a, b = x
        if name == "tanh":
            lo, hi = self._widen(np.tanh(a), np.tanh(b))
            return self._clean(np.maximum(lo, -1.0), np.minimum(hi, 1.0))
        if name == "log1p":
            with np.errstate(divide="ignore", invalid="ignore"):
                lo, hi = self._widen(np.log1p(a), np.log1p(b))
            lo = np.where(a <= -1, -np.inf, lo)
            return self._clean(lo, hi)
        if name == "expm1":
            with np.errstate(over="ignore"):
                lo, hi = self._widen(np.expm1(a), np.expm1(b))
            return self._clean(np.maximum(lo, -1.0), hi)
        if name == "abs":
            absa, absb = np.abs(a), np.abs(b)
            return (np.where((a <= 0) & (b >= 0), 0.0, np.minimum(absa, absb)), np.maximum(absa, absb))
        if name in ("erfc", "erf", "zeta", "floor", "binomial"):
            return self._elementwise_arb(name, args)
        raise NotImplementedError(name)

    def _elementwise_arb(self, name, args):
        """Rare functions (erfc, zeta, ...): an arb enclosure per element (slow but certified)."""
        arrs = [np.broadcast_arrays(*a) for a in args]
        shape = np.broadcast_shapes(*[x[0].shape for x in arrs])
        lo = np.empty(shape)
        hi = np.empty(shape)
        ab = ArbBackend()
        with arb_prec(80):
            for idx in np.ndindex(shape):
                balls = []
                for (alo, ahi) in arrs:
                    l, h = float(np.broadcast_to(alo, shape)[idx]), float(np.broadcast_to(ahi, shape)[idx])
                    if not (math.isfinite(l) and math.isfinite(h)):
                        balls = None
                        break
                    balls.append(arb(l).union(arb(h)))
                if balls is None:
                    lo[idx], hi[idx] = -np.inf, np.inf
                    continue
                try:
                    v = ab.fn(name, balls)
                    lo[idx], hi[idx] = float_down(v), float_up(v)
                except (NotCertified, ZeroDivisionError):
                    lo[idx], hi[idx] = -np.inf, np.inf
        return lo, hi

    def max(self, vals):
        lo, hi = vals[0]
        for a, b in vals[1:]:
            lo, hi = np.maximum(lo, a), np.maximum(hi, b)
        return lo, hi

    def min(self, vals):
        lo, hi = vals[0]
        for a, b in vals[1:]:
            lo, hi = np.minimum(lo, a), np.minimum(hi, b)
        return lo, hi

    # three-valued comparisons, elementwise: (certainly_true, certainly_false)
    def lt(self, x, y):
        return (x[1] < y[0], x[0] >= y[1])

    def le(self, x, y):
        return (x[1] <= y[0], x[0] > y[1])

    def eq(self, x, y):
        t = (x[0] == x[1]) & (y[0] == y[1]) & (x[0] == y[0])
        f = (x[1] < y[0]) | (y[1] < x[0])
        return (t, f)

    def select(self, cond, a_fn, b_fn):
        t, f = cond
        a = a_fn()
        b = b_fn()
        lo = np.where(t, a[0], np.where(f, b[0], np.minimum(a[0], b[0])))
        hi = np.where(t, a[1], np.where(f, b[1], np.maximum(a[1], b[1])))
        return lo, hi


# ------------------------------------------------------------------------------------------------
# Three-valued logic helpers (scalar: True/False/None; numpy: (t, f) mask pairs)
# ------------------------------------------------------------------------------------------------


def _and(backend, vals):
    if backend.name == "np":
        t = vals[0][0]
        f = vals[0][1]
        for a, b in vals[1:]:
            t = t & a
            f = f | b
        return (t, f)
    if any(v is False for v in vals):
        return False
    if all(v is True for v in vals):
        return True
    return None


def _or(backend, vals):
    if backend.name == "np":
        t = vals[0][0]
        f = vals[0][1]
        for a, b in vals[1:]:
            t = t | a
            f = f & b
        return (t, f)
    if any(v is True for v in vals):
        return True
    if all(v is False for v in vals):
        return False
    return None


def _not(backend, v):
    if backend.name == "np":
        return (v[1], v[0])
    return None if v is None else (not v)


# ------------------------------------------------------------------------------------------------
# The compiler
# ------------------------------------------------------------------------------------------------

Env = dict


def _expm1_argument(e: sp.Basic):
    """y if ``e`` is the two-term sum exp(y) - 1 (evaluated as expm1(y)), else None."""
    if isinstance(e, sp.Add) and len(e.args) == 2 and sp.Integer(-1) in e.args:
        exps = [a for a in e.args if isinstance(a, sp.exp)]
        if len(exps) == 1:
            return exps[0].args[0]
    return None


def _is_one_plus(arg: sp.Basic) -> bool:
    """Whether ``arg`` is a sum 1 + y (so log(arg) is evaluated as log1p(y))."""
    return isinstance(arg, sp.Add) and sp.Integer(1) in arg.args


_IMPLICIT: dict[str, Callable[..., Any]] = {}


def _exact_arguments(args: tuple, env: Env) -> list[Fraction] | None:
    """The arguments as exact rationals when the env carries the exact parameters (``'__exact__'``) and each
    argument is rational there, else None (the evaluator then works from the balls)."""
    exact = env.get("__exact__") if isinstance(env, dict) else None
    if not exact:
        return None
    out = []
    for a in args:
        if not all(s.name in exact for s in a.free_symbols):
            return None
        v = a.xreplace({s: sp.Rational(exact[s.name].numerator, exact[s.name].denominator) for s in a.free_symbols})
        if not v.is_Rational:
            return None
        out.append(Fraction(int(v.p), int(v.q)))
    return out


def _implicit_evaluator(e: sp.Basic) -> Callable[..., Any] | None:
    """The evaluator of a spec function whose class names one in ``dpbounds_eval`` ('module:function'), or None.

    Such a function (e.g. spec.rdp_conversions.rdp_optimal_eps) has no closed form: spec states its definition
    and the named function ``f(backend, args)`` returns a certified arb ball (ArbBackend; raising NotCertified when
    it cannot) or an mpmath value of ``backend.ctx`` (MpBackend); any other backend raises NotImplementedError, so
    the fast path falls back to its per-element arb evaluation.  Resolved lazily: spec never imports reference."""
    path = getattr(type(e), "dpbounds_eval", None)
    if not isinstance(path, str):
        return None
    f = _IMPLICIT.get(path)
    if f is None:
        import importlib
        mod, _, name = path.partition(":")
        f = _IMPLICIT[path] = getattr(importlib.import_module(mod), name)
    return f


def compile_expr(expr: sp.Basic, backend) -> Callable[[Env], Any]:
    """Compile a sympy expression (or boolean) into ``f(env)`` for ``backend``; ``env`` maps symbol names to values.

    For :class:`ArbBackend` the result is :func:`_compile_arb`'s: the same arb operations in the same order (so
    bit-identical balls), with less interpreter overhead and constant subexpressions cached per precision.
    """
    if type(backend) is ArbBackend:
        return _compile_arb(expr, backend)
    return _compile(expr, backend)


_MISSING = object()


_COSTLY = (sp.log, sp.exp, sp.erfc, sp.erf, sp.zeta, sp.tanh, sp.Sum)


def _worth_sharing(node: sp.Basic) -> bool:
    """A memo lookup costs about as much as one cheap arb operation: share only subexpressions with a
    transcendental function (or a non-integer power) or at least four operations."""
    if node.has(*_COSTLY) or any(isinstance(p, sp.Pow) and not p.exp.is_Integer for p in sp.preorder_traversal(node)):
        return True
    return sp.count_ops(node) >= 4


def _shared_subexpressions(expr: sp.Basic) -> frozenset:
    """The compound subexpressions with free symbols that an evaluation would otherwise compute more than once.

    Counted on the DAG: a repeated node is descended into only once, so a subexpression that repeats only because
    its (shared) parent repeats is not itself shared.  Cheap ones are not worth a memo (:func:`_worth_sharing`).
    A subexpression of a bound variable (a Sum's index) is never shared: its value changes within one call."""
    bound: set = set()
    for s in expr.atoms(sp.Sum, sp.Product, sp.Lambda):
        bound |= set(s.variables)
    uses: dict = {}

    def visit(node):
        if not node.args:
            return
        if node in uses:
            uses[node] += 1
            return
        uses[node] = 1
        for a in node.args:
            visit(a)
    visit(expr)
    return frozenset(n for n, c in uses.items()
                     if c > 1 and n.args and n.free_symbols and not (n.free_symbols & bound) and _worth_sharing(n))


def _memoized(f: Callable[[Env], Any], key: int) -> Callable[[Env], Any]:
    """``f`` evaluated at most once per evaluation: the value is kept in ``env['__cse__']`` (a dict the top-level
    closure creates afresh for every call, so nothing outlives one evaluation)."""
    def f_shared(env):
        cache = env["__cse__"]
        v = cache.get(key, _MISSING)
        if v is _MISSING:
            v = f(env)
            cache[key] = v
        return v
    return f_shared


def _compile(expr: sp.Basic, backend, hook=None, shared: frozenset = frozenset()) -> Callable[[Env], Any]:
    """The generic compiler.  ``hook(e, comp)``, when given, may return a closure for a node (its children compiled
    with ``comp``, so through the hook again) or None for the generic rule.  Each subexpression in ``shared`` (see
    :func:`_shared_subexpressions`) is compiled once and evaluated once per call; the caller must then pass an env
    with a fresh ``'__cse__'`` dict on every call."""
    B = backend
    compiled: dict = {}

    def comp(e: sp.Basic) -> Callable[[Env], Any]:
        if not shared:
            return comp_node(e)
        f = compiled.get(e)
        if f is None:
            f = comp_node(e)
            if e in shared:
                f = _memoized(f, len(compiled))
            compiled[e] = f
        return f

    def comp_node(e: sp.Basic) -> Callable[[Env], Any]:
        if hook is not None:
            f = hook(e, comp)
            if f is not None:
                return f
        target = _implicit_evaluator(e)
        if target is not None:  # an implicitly defined spec function (a root, an optimum): its own evaluator
            fs = [comp(a) for a in e.args]
            args = e.args
            return lambda env: target(B, [f(env) for f in fs], _exact_arguments(args, env))
        if isinstance(e, sp.Symbol):
            name = e.name
            return lambda env: env[name]
        if e is sp.oo:
            return lambda env: B.inf()
        if e in (sp.zoo, sp.nan, -sp.oo):
            raise NotImplementedError(f"cannot evaluate {e}")
        if isinstance(e, sp.Rational):
            q = Fraction(int(e.p), int(e.q))

            def f_rat(env, q=q):
                return B.const(q)
            return f_rat
        if isinstance(e, sp.Float):
            # a Float in the spec is a decimal literal of the source (e.g. 0.74): take its exact decimal
            q = Fraction(str(e))
            return lambda env: B.const(q)
        if e is sp.pi:
            return lambda env: B.pi()
        if e is sp.E:
            return lambda env: B.e()
        if e is sp.true:
            return lambda env: True if B.name != "np" else (np.True_, np.False_)
        if e is sp.false:
            return lambda env: False if B.name != "np" else (np.False_, np.True_)
        if isinstance(e, sp.Add):
            # exp(y) - 1 -> expm1(y): avoids the cancellation that would widen float intervals
            y = _expm1_argument(e)
            if y is not None:
                fy = comp(y)
                return lambda env: B.fn("expm1", [fy(env)])
            stable = _difference_of_square_roots(e)
            if stable is not None:  # sqrt(x) - sqrt(y) -> (x - y)/(sqrt(x) + sqrt(y)): no cancellation
                return comp(stable)
            fs = [comp(a) for a in e.args]
            return lambda env: B.add([f(env) for f in fs])
        if isinstance(e, sp.Mul):
            fs = [comp(a) for a in e.args]
            if B.name == "np":
                flags = [_provably_nonnegative(a) for a in e.args]
                if all(flags):
                    return lambda env: B.mul([f(env) for f in fs], nonneg=flags)
            return lambda env: B.mul([f(env) for f in fs])
        if isinstance(e, sp.Pow):
            base, ex = e.args
            if base is sp.E:
                fe = comp(ex)
                return lambda env: B.exp(fe(env))
            fb = comp(base)
            if ex.is_Integer:
                n = int(ex)
                if n > 0:
                    return lambda env: B.int_pow(fb(env), n)
                if n < 0:
                    return lambda env: B.neg_pow(fb(env), -n)
                return lambda env: B.const(Fraction(1))
            if ex == sp.Rational(1, 2):
                return lambda env: B.sqrt(fb(env))
            if ex == sp.Rational(-1, 2):
                return lambda env: B.neg_pow(B.sqrt(fb(env)), 1)
            if isinstance(ex, sp.Rational) and ex.q == 2 and ex.p > 0:
                p = int(ex.p)
                return lambda env: B.mul([B.int_pow(fb(env), p // 2), B.sqrt(fb(env))]) if p > 1 else B.sqrt(fb(env))
            fe = comp(ex)
            return lambda env: B.rpow(fb(env), fe(env))
        if isinstance(e, sp.exp):
            fe = comp(e.args[0])
            return lambda env: B.exp(fe(env))
        if isinstance(e, sp.log):
            if len(e.args) != 1:
                raise NotImplementedError("two-argument log")
            arg = e.args[0]
            if _is_one_plus(arg):  # log(1 + y) -> log1p(y)
                fy = comp(arg - 1)
                return lambda env: B.fn("log1p", [fy(env)])
            fe = comp(arg)
            return lambda env: B.log(fe(env))
        if isinstance(e, (sp.Max, sp.Min)):
            fs = [comp(a) for a in e.args]
            if isinstance(e, sp.Max):
                return lambda env: B.max([f(env) for f in fs])
            return lambda env: B.min([f(env) for f in fs])
        if isinstance(e, sp.Piecewise):
            pieces = [(comp(ex), comp(c)) for ex, c in e.args]

            def f_pw(env, pieces=pieces):
                return _piecewise(B, pieces, 0, env)
            return f_pw
        if isinstance(e, sp.Abs):
            fa = comp(e.args[0])
            return lambda env: B.fn("abs", [fa(env)])
        for cls, nm in ((sp.erfc, "erfc"), (sp.erf, "erf"), (sp.tanh, "tanh"), (sp.zeta, "zeta"),
                        (sp.floor, "floor")):
            if isinstance(e, cls):
                if len(e.args) != 1:
                    raise NotImplementedError(f"{nm} with {len(e.args)} arguments")
                fa = comp(e.args[0])
                return lambda env, nm=nm, fa=fa: B.fn(nm, [fa(env)])
        if isinstance(e, sp.binomial):
            fa, fb2 = comp(e.args[0]), comp(e.args[1])
            return lambda env: B.fn("binomial", [fa(env), fb2(env)])
        if isinstance(e, sp.Sum):
            # sympy merges nested Sums into one with several limits; the first limit is the innermost
            body = comp(e.function)
            lims = [(var.name, comp(lo), comp(hi)) for var, lo, hi in e.limits]

            def f_sum(env):
                terms = []

                def walk(env1, j):
                    if j < 0:
                        terms.append(body(env1))
                        return
                    vname, flo, fhi = lims[j]
                    for i in range(_as_int(B, flo(env1)), _as_int(B, fhi(env1)) + 1):
                        env2 = dict(env1)
                        env2[vname] = B.const(Fraction(i))
                        walk(env2, j - 1)
                walk(env, len(lims) - 1)
                if not terms:
                    return B.const(Fraction(0))
                return B.add(terms)
            return f_sum
        # relations and booleans
        if isinstance(e, sp.Rel) and B.name == "arb":
            exact = _exact_relation(e)
            if exact is not None:
                fa, fb = comp(e.lhs), comp(e.rhs)
                op = type(e)

                def balls(env):
                    a, b = fa(env), fb(env)
                    if op is sp.StrictLessThan:
                        return B.lt(a, b)
                    if op is sp.LessThan:
                        return B.le(a, b)
                    if op is sp.StrictGreaterThan:
                        return B.lt(b, a)
                    if op is sp.GreaterThan:
                        return B.le(b, a)
                    return B.eq(a, b) if op is sp.Eq else _not(B, B.eq(a, b))

                def f_rel(env, exact=exact):
                    # a polynomial relation: the balls usually decide it (and then the exact rational decision,
                    # whose values lie in the balls, is the same); exact arithmetic only when they cannot
                    try:
                        r = balls(env)
                    except NotCertified:
                        r = None
                    if r is True or r is False:
                        return r
                    r = exact(env.get("__exact__"))
                    if r is not None:
                        return r
                    return balls(env)
                return f_rel
        if isinstance(e, sp.StrictLessThan):
            fa, fb = comp(e.lhs), comp(e.rhs)
            return lambda env: B.lt(fa(env), fb(env))
        if isinstance(e, sp.LessThan):
            fa, fb = comp(e.lhs), comp(e.rhs)
            return lambda env: B.le(fa(env), fb(env))
        if isinstance(e, sp.StrictGreaterThan):
            fa, fb = comp(e.lhs), comp(e.rhs)
            return lambda env: B.lt(fb(env), fa(env))
        if isinstance(e, sp.GreaterThan):
            fa, fb = comp(e.lhs), comp(e.rhs)
            return lambda env: B.le(fb(env), fa(env))
        if isinstance(e, sp.Eq):
            fa, fb = comp(e.lhs), comp(e.rhs)
            return lambda env: B.eq(fa(env), fb(env))
        if isinstance(e, sp.Ne):
            fa, fb = comp(e.lhs), comp(e.rhs)
            return lambda env: _not(B, B.eq(fa(env), fb(env)))
        if isinstance(e, sp.And):
            fs = [comp(a) for a in e.args]
            return lambda env: _and(B, [f(env) for f in fs])
        if isinstance(e, sp.Or):
            fs = [comp(a) for a in e.args]
            return lambda env: _or(B, [f(env) for f in fs])
        if isinstance(e, sp.Not):
            fa = comp(e.args[0])
            return lambda env: _not(B, fa(env))
        raise NotImplementedError(f"no interpreter rule for {type(e).__name__}: {e}")

    return comp(expr)


# ------------------------------------------------------------------------------------------------
# The arb fast path: the same operations as ArbBackend on finite balls, with less interpreter overhead
# ------------------------------------------------------------------------------------------------

_ZETA_CACHE: dict = {}
_ZETA_CACHE_MAX = 256


def _arb_zeta(x):
    """``x.zeta()``, memoized on (working precision, the exact midpoint and radius of ``x``).

    arb's zeta of a real ball costs ~60 us at 200 bits, and its argument is a parameter (Howard's stitching
    exponent s) that rarely changes between evaluations.  The ball computed depends only on that key, so a hit
    returns exactly what a fresh call would: results never depend on call order or on other threads (dict get and
    set are atomic under the GIL; a race at worst computes the same ball twice).
    """
    if not x.is_finite():
        return x.zeta()
    m, e = x.mid().man_exp()
    rm, re_ = x.rad().man_exp()
    key = (_flint_ctx.prec, int(m), int(e), int(rm), int(re_))
    v = _ZETA_CACHE.get(key)
    if v is None:
        v = x.zeta()
        if len(_ZETA_CACHE) >= _ZETA_CACHE_MAX:
            _ZETA_CACHE.clear()
        _ZETA_CACHE[key] = v
    return v


def _fin(v):
    if v.is_finite():  # False for NaN balls as well
        return v
    raise NotCertified(f"non-finite ball {v}")


def _int_pow(base, n: int):
    if n % 2 == 0 and not base > 0 and not base < 0:
        base = abs(base)
    return _fin(base ** n)


def _sqrt(x):
    if x < 0:
        raise NotCertified(f"sqrt of a negative ball {x}")
    if not x >= 0:  # touches zero from below: clip (sqrt is only defined on x >= 0)
        x = x.nonnegative_part()
    return _fin(x.sqrt())


def _log(x):
    if not x > 0:
        raise NotCertified(f"log of a ball not certainly positive {x}")
    return _fin(x.log())


def _rpow(base, expo):
    if not base > 0:
        raise NotCertified(f"general power of a ball not certainly positive {base}")
    return _fin((expo * base.log()).exp())


_CONST_CACHE_MAX = 32


def _arb_constant(e: sp.Expr, B) -> Callable[[Env], Any]:
    """A subexpression without free symbols, evaluated once per working precision.

    The cache is keyed on ``flint.ctx.prec`` read at call time (the precision the ball would be computed at), so
    a constant is never reused at another precision; the cached ball is the one a fresh evaluation gives.
    Failures (NotCertified) are not cached.
    """
    inner = _compile(e, B)
    cache: dict[int, Any] = {}

    def f_const(env):
        p = _flint_ctx.prec
        v = cache.get(p)
        if v is None:
            v = inner(env)
            if len(cache) >= _CONST_CACHE_MAX:
                cache.clear()
            cache[p] = v
        return v
    return f_const


def _arb_hook(e: sp.Basic, comp):
    """Fast closures for arb on envs of finite balls (see :func:`_compile_arb`); None = the generic rule."""
    if isinstance(e, sp.Symbol):
        return operator.itemgetter(e.name)
    if not isinstance(e, sp.Expr):
        return None
    if not e.free_symbols:
        return _arb_constant(e, _ARB_FAST_BACKEND)
    if e.has(sp.oo):
        return None  # may produce +oo: the generic rules handle the sentinel
    if isinstance(e, sp.Add):
        if _expm1_argument(e) is not None or _difference_of_square_roots(e) is not None:
            return None  # rewritten by the generic rules (expm1, sqrt(x) - sqrt(y))
        fs = [comp(a) for a in e.args]
        if len(fs) == 2:
            f0, f1 = fs
            return lambda env: _fin(f0(env) + f1(env))
        first, rest = fs[0], tuple(fs[1:])

        def f_add(env):
            acc = first(env)
            for f in rest:
                acc = acc + f(env)
            return _fin(acc)
        return f_add
    if isinstance(e, sp.Mul):
        fs = [comp(a) for a in e.args]
        if len(fs) == 2:
            f0, f1 = fs
            return lambda env: _fin(f0(env) * f1(env))
        first, rest = fs[0], tuple(fs[1:])

        def f_mul(env):
            acc = first(env)
            for f in rest:
                acc = acc * f(env)
            return _fin(acc)
        return f_mul
    if isinstance(e, sp.Pow):
        base, ex = e.args
        if base is sp.E:
            fe = comp(ex)
            return lambda env: _fin(fe(env).exp())
        if ex.is_Integer:
            n = int(ex)
            if n == 0:
                return None
            fb = comp(base)
            if n > 0:
                return lambda env: _int_pow(fb(env), n)
            m = -n
            return lambda env: _fin(1 / _int_pow(fb(env), m))
        fb = comp(base)
        if ex == sp.Rational(1, 2):
            return lambda env: _sqrt(fb(env))
        if ex == sp.Rational(-1, 2):
            return lambda env: _fin(1 / _int_pow(_sqrt(fb(env)), 1))
        if isinstance(ex, sp.Rational) and ex.q == 2 and ex.p > 0:
            h = int(ex.p) // 2

            def f_half(env):
                x = fb(env)
                return _fin(_int_pow(x, h) * _sqrt(x))
            return f_half
        fe = comp(ex)
        return lambda env: _rpow(fb(env), fe(env))
    if isinstance(e, sp.exp):
        fe = comp(e.args[0])
        return lambda env: _fin(fe(env).exp())
    if isinstance(e, sp.log):
        if len(e.args) != 1:
            return None
        arg = e.args[0]
        if _is_one_plus(arg):
            return None  # log1p, by the generic rule
        fe = comp(arg)
        return lambda env: _log(fe(env))
    if isinstance(e, sp.Abs):
        fa = comp(e.args[0])
        return lambda env: abs(fa(env))
    if len(e.args) == 1:
        if isinstance(e, sp.erfc):
            fa = comp(e.args[0])
            return lambda env: _fin(fa(env).erfc())
        if isinstance(e, sp.erf):
            fa = comp(e.args[0])
            return lambda env: _fin(fa(env).erf())
        if isinstance(e, sp.tanh):
            fa = comp(e.args[0])
            return lambda env: _fin(fa(env).tanh())
        if isinstance(e, sp.zeta):
            fa = comp(e.args[0])
            return lambda env: _fin(_arb_zeta(fa(env)))
    return None


_ARB_FAST_BACKEND = ArbBackend()


def _compile_arb(expr: sp.Basic, B: ArbBackend) -> Callable[[Env], Any]:
    """arb closure for ``expr``: ball-for-ball the generic compiler's result, faster.

    When every env value is an arb ball (plus the ``__exact__`` dict), no node without ``oo`` can produce the
    +oo sentinel, so those nodes skip the sentinel tests and the per-call argument lists and run the very same
    arb operations in the same order; constant subexpressions are cached per precision
    (:func:`_arb_constant`), and a subexpression occurring more than once is computed once per call (the same
    operations on the same balls give the same ball, so this too is ball-for-ball the generic result).  Any other
    env (a +oo aggregate, a Python number) goes to the generic closure.
    """
    shared = _shared_subexpressions(expr)
    fast = _compile(expr, B, _arb_hook, shared)
    needs_memo = bool(shared)
    generic: list = []
    lock = threading.Lock()

    def f(env):
        for v in env.values():
            if type(v) is not arb and type(v) is not dict:
                break
        else:
            return fast({**env, "__cse__": {}}) if needs_memo else fast(env)
        if not generic:
            with lock:
                if not generic:
                    generic.append(_compile(expr, B))
        return generic[0](env)
    return f


def _sqrt_like(t: sp.Basic):
    """(sign, radicand) if t = +-c*sqrt(r) with c >= 0 constant (so t = sign*sqrt(c^2 r)), else None."""
    coeff, rest = t.as_coeff_Mul()
    sign = 1
    if coeff.is_negative:
        sign, coeff = -1, -coeff
    factors = sp.Mul.make_args(rest)
    if not factors or not any(isinstance(f, sp.Pow) and f.exp == sp.Rational(1, 2) for f in factors):
        return None
    if not all((isinstance(f, sp.Pow) and f.exp == sp.Rational(1, 2)) or (f.is_number and f.is_positive)
               for f in factors):
        return None
    radicand = sp.expand(coeff**2 * sp.Mul(*[f.base if isinstance(f, sp.Pow) and f.exp == sp.Rational(1, 2)
                                                else f**2 for f in factors]))
    return sign, radicand


def _difference_of_square_roots(e: sp.Add):
    """Rewrite sqrt(x) - sqrt(y) as (x - y)/(sqrt(x) + sqrt(y)) when x - y simplifies to fewer terms.

    An exact identity (x, y >= 0, not both 0), so the enclosures stay certified; it removes the catastrophic
    cancellation of e.g. WRRW23's y* = (sqrt(2L + 2 eps) - sqrt(2L))^2 or FZ21's B* for small eps.
    """
    if len(e.args) != 2:
        return None
    parts = [_sqrt_like(t) for t in e.args]
    if any(p is None for p in parts) or parts[0][0] == parts[1][0]:
        return None
    (s1, r1), (s2, r2) = parts
    pos, neg = (r1, r2) if s1 > 0 else (r2, r1)
    diff = sp.expand(pos - neg)
    if sp.count_ops(diff) >= sp.count_ops(pos) + sp.count_ops(neg):
        return None
    return diff / (sp.sqrt(pos) + sp.sqrt(neg))


def rational_poly(expr: sp.Expr):
    """(names, [(exponents, coefficient)]) if ``expr`` is a polynomial with rational coefficients, else None."""
    syms = sorted(expr.free_symbols, key=lambda x: x.name)
    if not syms or not expr.is_polynomial(*syms):
        return None
    poly = sp.Poly(expr, *syms)
    if not all(c.is_Rational for c in poly.coeffs()):
        return None
    return [x.name for x in syms], [(tuple(m), Fraction(int(c.p), int(c.q))) for m, c in poly.terms()]


def eval_rational_poly(names, terms, values) -> Fraction:
    """Exact value of a polynomial from :func:`rational_poly` at exact values (a mapping name -> Fraction)."""
    v = Fraction(0)
    for mono, c in terms:
        t = c
        for nm, p in zip(names, mono):
            if p:
                t *= values[nm] ** p
        v += t
    return v


def _exact_relation(rel: sp.Basic):
    """For a relation between polynomials with rational coefficients (e.g. V/2 > B, R > B, V < v0), a function
    deciding it exactly on exact rational inputs (``env['__exact__']``), or None if the relation is not of that form.

    Ball arithmetic cannot decide equality of non-dyadic rationals (1/100 vs 1/100); exact arithmetic can, so a
    filter whose budget is met exactly CONTinues as its theorem says ("sum <= B").
    """
    rp = rational_poly(sp.expand(rel.lhs - rel.rhs))
    if rp is None:
        return None
    names, terms = rp
    cmp = {sp.StrictLessThan: operator.lt, sp.LessThan: operator.le, sp.StrictGreaterThan: operator.gt,
           sp.GreaterThan: operator.ge, sp.Eq: operator.eq, sp.Ne: operator.ne}.get(type(rel))
    if cmp is None:
        return lambda exact: None

    def decide(exact):
        if exact is None or any(nm not in exact for nm in names):
            return None
        return cmp(eval_rational_poly(names, terms, exact), 0)

    return decide


def _provably_nonnegative(e: sp.Basic) -> bool:
    """True when ``e`` is >= 0 for all parameter values satisfying the canonical sign assumptions.

    The fast path enforces those assumptions on its inputs (``dpbounds.evaluation.evaluate.fast_interval``), so a product of
    such factors can be bounded from its ends without the four-product hull.
    """
    try:
        return bool(assumed(e).is_nonnegative)
    except Exception:  # noqa: BLE001 - sympy's assumption system may give up: then we do not rely on it
        return False


def _as_int(B, v) -> int:
    if B.name == "arb":
        return _exact_int(v)
    if B.name == "mp":
        return int(v)
    lo, hi = v
    if np.ndim(lo) == 0 and float(lo) == float(hi) and float(lo).is_integer():
        return int(lo)
    raise NotCertified("Sum bounds must be exact scalar integers in the fast path")


def _piecewise(B, pieces, i, env):
    if i == len(pieces):
        raise NotCertified("Piecewise with no branch true")
    f_val, f_cond = pieces[i]
    cond = f_cond(env)
    if B.name != "np":
        if cond is True:
            return f_val(env)
        if cond is False:
            return _piecewise(B, pieces, i + 1, env)
        # undecided: the union of this branch and the rest
        return B.union(f_val(env), _piecewise(B, pieces, i + 1, env))
    t, f = cond
    if np.all(t):
        return f_val(env)
    if np.all(f):
        return _piecewise(B, pieces, i + 1, env)
    return B.select(cond, lambda: f_val(env), lambda: _piecewise(B, pieces, i + 1, env))
