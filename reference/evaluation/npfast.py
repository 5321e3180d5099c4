"""The fast path's engine: a sympy expression compiled to a straight-line program of float64 *interval* operations,
run over cache-sized chunks with preallocated buffers.

Why a program and not the closure interpreter of :mod:`dpbounds.evaluation.interp`:  on arrays of 10^6 the closure
interpreter spends most of its time allocating temporaries (each a fresh mmap'd block, i.e. page faults) and
streaming them through main memory.  Here the expression is lowered once to a DAG (common subexpressions shared),
scheduled in post-order with buffer reuse after each value's last use, and executed on chunks of
:data:`CHUNK` elements that stay in the CPU cache.  Subexpressions that depend only on scalar inputs are computed
once per call, not once per chunk.

Error model (why ``lo <= exact <= hi`` elementwise), the same contract as :class:`dpbounds.evaluation.interp.NpIntervalBackend`:

* ``+ - * /`` and ``sqrt`` are correctly rounded (IEEE 754, round to nearest).  A correctly rounded ``r`` lies within
  half a grid step of the exact result, and ``|r| 2^-53 >= ulp(r)/2`` (``ulp(r)`` the spacing just above ``|r|``).
  ``down(r) = r - d`` and ``up(r) = r + d`` with ``d = fl(|r| K1) + 2^-1074``, ``K1 = 2^-53 (1 + 2^-20)``: for normal
  ``r``, ``d > ulp(r)/2`` strictly (the product rounds by less than the 2^-20 slack), so the rounded sum is at least
  one grid step outward (strictly past the midpoint: no tie can round it back), which covers the half step of the
  rounding of ``r`` (also at a power of two, where the step towards zero is halved); ``2^-1074`` is the grid step of
  subnormals.  When the value is known to be >= 0 (see ``pos`` below) the cheaper ``fl(r (1 - K1)) - 2^-1074`` (the
  constant rounds to ``1 - 2^-53``: the exact product ``r - r 2^-53`` is at most one downward step below ``r`` and
  at least half a step, strictly past the midpoint unless it is exactly a grid point) and ``r (1 + 2^-52) + 2^-1074``
  are the same bounds specialised to ``|r| = r``.
* ``erfc`` comes from the certified Taylor table of :mod:`dpbounds.evaluation.np_special` (every error term computed with arb
  when the table is built), already rounded outward.
* ``exp``, ``log``, ``log1p``, ``expm1``, ``tanh`` are libm/numpy kernels documented to a few ulps;
  their results are moved :data:`TRANSCENDENTAL_ULPS` = 8 ulps outward (``8 |r| 2^-52 + 8 * 2^-1074``).
* An end that overflows, or any NaN (``inf - inf``, ``0 * inf``, ``log`` of a negative end), is mapped to the safe
  side at the end (``lo`` NaN -> -inf, ``hi`` NaN -> +inf); an overflowed *lower* end ``+inf`` cannot survive the
  outward rounding (``inf - inf`` is NaN), so a finite exact value never gets a lower bound of +inf.
* ``pos`` (a compile-time property of a node) means both computed ends are >= 0 by construction, hence the exact
  value is >= 0 too; then products multiply ends monotonically.  A factor that sympy proves nonnegative but whose
  computed lower end may be negative is clamped at 0 first (valid because the exact value is >= 0); without the
  clamp two negative lower ends would multiply to a positive "lower bound" above the exact value.

Only the operations below are compiled; anything else (``Sum``, ``zeta``, ``floor``, ``binomial``) raises
:class:`Unsupported` and the caller evaluates the entry elementwise with certified arb arithmetic.
"""

from __future__ import annotations

import threading
from fractions import Fraction
from typing import Any, Callable

import numpy as np
import sympy as sp

from dpbounds.evaluation.interp import _difference_of_square_roots, _provably_nonnegative
from dpbounds.evaluation.numeric import float_down, float_up

CHUNK = 32768
TRANSCENDENTAL_ULPS = 8
_U = 2.0 ** -52
_TINY = 2.0 ** -1074
_KU = TRANSCENDENTAL_ULPS * _U
_K1 = 2.0 ** -53 * (1 + 2.0 ** -20)  # one rounding of a basic operation (module docstring)
_KTINY = TRANSCENDENTAL_ULPS * _TINY
_MAX = np.finfo(np.float64).max


class Unsupported(NotImplementedError):
    """The expression uses an operation the vectorized engine does not compile."""


# ----------------------------------------------------------------------------------------------------------------
# Outward rounding, in place.  ``t`` is a scratch buffer of the same shape.
# ----------------------------------------------------------------------------------------------------------------

def _down_any(r, t, k=_K1, tiny=_TINY):
    np.abs(r, out=t)
    t *= k
    t += tiny
    r -= t


def _up_any(r, t, k=_K1, tiny=_TINY):
    np.abs(r, out=t)
    t *= k
    t += tiny
    r += t


def _down_pos(r, t=None, k=_K1, tiny=_TINY):
    """r >= 0 (or NaN): r (1 - k) - tiny, clamped to [0, max float] (the exact value is >= 0 and finite, or +oo,
    for which max float is still a lower bound).  With ``k = K1`` the constant is 1 - 2^-53 and the product is at
    least one grid step below r (module docstring); with ``k = m 2^-52`` (transcendental margins, m >= 1) it is at
    least m steps below, since r k >= m ulp(r) for normal r; ``tiny`` covers subnormal r."""
    r *= 1.0 - k
    r -= tiny
    np.clip(r, 0.0, _MAX, out=r)


def _up_pos(r, k=_U, tiny=_TINY):
    r *= 1.0 + k
    r += tiny


# ----------------------------------------------------------------------------------------------------------------
# The DAG
# ----------------------------------------------------------------------------------------------------------------

class _Node:
    __slots__ = ("op", "args", "data", "pos", "nonneg", "boolean", "idx")

    def __init__(self, op: str, args: tuple, data: Any = None, pos: bool = False, nonneg: bool = False,
                 boolean: bool = False):
        self.op = op
        self.args = args          # child node indices
        self.data = data
        self.pos = pos            # computed ends are >= 0 by construction
        self.nonneg = nonneg      # the exact value is provably >= 0 (sympy, under the canonical assumptions)
        self.boolean = boolean    # value is a pair of masks (certainly true, certainly false)
        self.idx = -1


class Program:
    """A compiled interval program for one sympy expression (thread-safe: buffers are per call)."""

    def __init__(self, expr: sp.Basic, nonneg_symbols: set[str]):
        self.nodes: list[_Node] = []
        self._memo: dict[sp.Basic, int] = {}
        self._nonneg_symbols = set(nonneg_symbols)
        self.root = self._lower(expr)
        del self._memo
        self._schedule()
        self.symbols = sorted({nd.data for nd in self.nodes if nd.op == "sym"})

    # -- scheduling --------------------------------------------------------------------------------------------
    def _schedule(self) -> None:
        """Order the nodes for execution, with each Piecewise branch's *exclusive* subgraph in a skippable segment.

        ``self.order`` is a list of node indices and segment markers ``("seg", pw_node, branch, end_position)``;
        a segment holds the nodes used only by that branch (computed only when some element may take the branch).
        ``self.release_after[p]`` lists the nodes whose last use is at schedule position ``p``.
        """
        nodes = self.nodes
        parents: list[list[int]] = [[] for _ in nodes]
        for i, nd in enumerate(nodes):
            for a in set(nd.args):
                parents[a].append(i)
        visited: set[int] = set()
        order: list[Any] = []

        def reach(i: int) -> list[int]:
            seen, stack = set(), [i]
            while stack:
                x = stack.pop()
                if x in seen or x in visited:
                    continue
                seen.add(x)
                stack.extend(nodes[x].args)
            return sorted(seen)

        def emit(i: int) -> None:
            if i in visited:
                return
            nd = nodes[i]
            if nd.op != "pw":
                for a in nd.args:
                    emit(a)
                visited.add(i)
                order.append(i)
                return
            vals, conds = nd.args[0::2], nd.args[1::2]
            for c in conds:
                emit(c)
            exclusive: list[set[int]] = []
            for v in vals:
                cand = set(reach(v))
                changed = True
                while changed:
                    changed = False
                    for x in list(cand):
                        if any(p not in cand and not (p == i and x == v and vals.count(v) == 1)
                               for p in parents[x]):
                            cand.discard(x)
                            changed = True
                exclusive.append(cand)
            for v, ex in zip(vals, exclusive):  # shared parts of the branches: always computed
                for x in reach(v):
                    if x not in ex:
                        emit(x)
            for j, (v, ex) in enumerate(zip(vals, exclusive)):
                if v in visited:
                    continue
                marker = ["seg", i, j, -1]
                order.append(marker)
                emit(v)
                marker[3] = len(order)
            visited.add(i)
            order.append(i)

        emit(self.root)
        self.order = order
        last: dict[int, int] = {}
        for pos, item in enumerate(order):
            if isinstance(item, list):
                continue
            for a in nodes[item].args:
                last[a] = pos
        last.pop(self.root, None)
        self.release_after = [[] for _ in order]
        for a, pos in last.items():
            self.release_after[pos].append(a)

    # -- lowering ----------------------------------------------------------------------------------------------
    def _add_node(self, nd: _Node) -> int:
        nd.idx = len(self.nodes)
        self.nodes.append(nd)
        return nd.idx

    def _lower(self, e: sp.Basic) -> int:
        got = self._memo.get(e)
        if got is not None:
            return got
        i = self._lower_new(e)
        self._memo[e] = i
        return i

    def _nn(self, e: sp.Basic) -> bool:
        return _provably_nonnegative(e)

    def _lower_new(self, e: sp.Basic) -> int:
        N = self.nodes
        if isinstance(e, sp.Symbol):
            pos = e.name in self._nonneg_symbols
            return self._add_node(_Node("sym", (), e.name, pos=pos, nonneg=pos))
        if e is sp.oo:
            return self._add_node(_Node("const", (), (np.inf, np.inf), pos=True, nonneg=True))
        if e in (sp.zoo, sp.nan, -sp.oo):
            raise Unsupported(f"cannot evaluate {e}")
        if e is sp.true or e is sp.false:
            return self._add_node(_Node("bconst", (), bool(e), boolean=True))
        if isinstance(e, (sp.Rational, sp.Float)) or e is sp.pi or e is sp.E:
            if isinstance(e, sp.Rational):
                q = Fraction(int(e.p), int(e.q))
                lo, hi = float_down(q), float_up(q)
            elif isinstance(e, sp.Float):
                q = Fraction(str(e))  # a decimal literal of the source: its exact decimal value
                lo, hi = float_down(q), float_up(q)
            elif e is sp.pi:
                lo, hi = 3.141592653589793, 3.1415926535897936
            else:
                lo, hi = 2.718281828459045, 2.7182818284590455
            return self._add_node(_Node("const", (), (lo, hi), pos=lo >= 0, nonneg=lo >= 0))
        if isinstance(e, sp.Add):
            exps = [a for a in e.args if isinstance(a, sp.exp)]
            if len(exps) == 1 and sp.Integer(-1) in e.args:  # exp(y) - 1 -> expm1(y): no cancellation
                em1 = sp.exp(exps[0].args[0]) - 1
                y = self._lower(exps[0].args[0])
                m = self._add_node(_Node("expm1", (y,), nonneg=self._nn(em1)))
                if len(e.args) == 2:
                    return m
                rest = [self._lower(a) for a in e.args if a is not exps[0] and a != sp.Integer(-1)]
                args = tuple(rest) + (m,)
                pos = all(N[a].pos for a in args)
                return self._add_node(_Node("add", args, pos=pos, nonneg=pos or self._nn(e)))
            stable = _difference_of_square_roots(e)
            if stable is not None:
                return self._lower(stable)
            # a common numeric factor (2 V + 2 gamma -> 2 (V + gamma)): fewer roundings, and the inner sum is
            # shared with its other occurrences in the DAG
            c, inner = e.as_content_primitive()
            if c.is_Integer and c > 1 and isinstance(inner, sp.Add):
                return self._lower(sp.Mul(c, inner, evaluate=False))
            args = tuple(self._lower(a) for a in e.args)
            pos = all(N[a].pos for a in args)
            return self._add_node(_Node("add", args, pos=pos, nonneg=pos or self._nn(e)))
        if isinstance(e, sp.Mul):
            coeff, rest = e.as_coeff_Mul()
            if coeff == -1:  # negation is exact
                a = self._lower(rest)
                return self._add_node(_Node("neg", (a,)))
            if coeff.is_Number and coeff < 0:  # -(|c| * rest): exact negation of a product that may be monotone
                a = self._lower(-e)
                return self._add_node(_Node("neg", (a,)))
            args = tuple(self._lower(a) for a in e.args)
            flags = [N[a].pos or N[a].nonneg for a in args]
            if all(flags):
                return self._add_node(_Node("mulpos", args, pos=True, nonneg=True))
            return self._add_node(_Node("mul", args, tuple(flags), nonneg=self._nn(e)))
        if isinstance(e, sp.Pow):
            base, ex = e.args
            if base is sp.E:
                return self._add_node(_Node("exp", (self._lower(ex),), pos=True, nonneg=True))
            b = self._lower(base)
            bn = N[b].pos or N[b].nonneg
            if ex.is_Integer:
                n = int(ex)
                if n == 0:
                    return self._lower(sp.Integer(1))
                if n == 1:
                    return b
                even = n % 2 == 0
                if n == -1:  # 1/b: no power node (ipow with exponent 1 would be a copy)
                    return self._add_node(_Node("recip", (b,), pos=bn, nonneg=bn))
                p = self._add_node(_Node("ipow", (b,), abs(n), pos=even or bn, nonneg=even or bn))
                if n > 0:
                    return p
                return self._add_node(_Node("recip", (p,), pos=even or bn, nonneg=even or bn))
            if ex == sp.Rational(1, 2):
                return self._add_node(_Node("sqrt", (b,), pos=True, nonneg=True))
            if ex == sp.Rational(-1, 2):
                s = self._add_node(_Node("sqrt", (b,), pos=True, nonneg=True))
                return self._add_node(_Node("recip", (s,), pos=True, nonneg=True))
            if isinstance(ex, sp.Rational) and ex.q == 2 and ex.p > 0:
                s = self._add_node(_Node("sqrt", (b,), pos=True, nonneg=True))
                p = self._lower(base ** (int(ex.p) // 2))
                return self._add_node(_Node("mulpos", (p, s), pos=True, nonneg=True))
            # general power b**x = exp(x log b)
            return self._lower(sp.exp(ex * sp.log(base, evaluate=False), evaluate=False))
        if isinstance(e, sp.exp):
            return self._add_node(_Node("exp", (self._lower(e.args[0]),), pos=True, nonneg=True))
        if isinstance(e, sp.log):
            if len(e.args) != 1:
                raise Unsupported("two-argument log")
            arg = e.args[0]
            if isinstance(arg, sp.Add) and (sp.Integer(1) in arg.args or (
                    any(isinstance(a, sp.exp) for a in arg.args) and not any(a.is_number for a in arg.args))):
                # log(1 + y) -> log1p(y); log(e^x + z) -> log1p(expm1(x) + z), accurate where the argument is ~1
                y = self._lower(arg - 1)
                return self._add_node(_Node("log1p", (y,), nonneg=N[y].pos or N[y].nonneg))
            return self._add_node(_Node("log", (self._lower(arg),)))
        if isinstance(e, (sp.Max, sp.Min)):
            args = tuple(self._lower(a) for a in e.args)
            if isinstance(e, sp.Max):
                pos = any(N[a].pos for a in args)
                return self._add_node(_Node("max", args, pos=pos, nonneg=pos or self._nn(e)))
            pos = all(N[a].pos for a in args)
            return self._add_node(_Node("min", args, pos=pos, nonneg=pos or self._nn(e)))
        if isinstance(e, sp.Abs):
            return self._add_node(_Node("abs", (self._lower(e.args[0]),), pos=True, nonneg=True))
        if isinstance(e, sp.tanh):
            return self._add_node(_Node("tanh", (self._lower(e.args[0]),)))
        if isinstance(e, sp.zeta) and len(e.args) == 1:  # Riemann zeta: certified per element (arb)
            return self._add_node(_Node("zeta", (self._lower(e.args[0]),)))
        if isinstance(e, (sp.erfc, sp.erf)):
            name = "erfc" if isinstance(e, sp.erfc) else "erf"
            # erfc amplifies the argument's width by ~2x: evaluate the argument in expanded form when that has
            # fewer operations (sqrt(2) * (sqrt(2) a/2 - ...)/2 -> a/2 - ...: exact constants, fewer roundings)
            arg = e.args[0]
            expanded = sp.expand(arg)
            if sp.count_ops(expanded) < sp.count_ops(arg):
                arg = expanded
            return self._add_node(_Node(name, (self._lower(arg),), pos=name == "erfc",
                                        nonneg=name == "erfc"))
        if isinstance(e, sp.Piecewise):
            args: list[int] = []
            for val, cond in e.args:
                args.append(self._lower(val))
                args.append(self._lower(cond))
            vals = args[0::2]
            pos = all(N[a].pos for a in vals)
            return self._add_node(_Node("pw", tuple(args), pos=pos, nonneg=pos or self._nn(e)))
        if isinstance(e, sp.Rel):
            ops = {sp.StrictLessThan: "lt", sp.LessThan: "le", sp.StrictGreaterThan: "gt", sp.GreaterThan: "ge",
                   sp.Eq: "eq", sp.Ne: "ne"}
            op = ops.get(type(e))
            if op is None:
                raise Unsupported(type(e).__name__)
            return self._add_node(_Node(op, (self._lower(e.lhs), self._lower(e.rhs)), boolean=True))
        if isinstance(e, (sp.And, sp.Or)):
            args = tuple(self._lower(a) for a in e.args)
            return self._add_node(_Node("and" if isinstance(e, sp.And) else "or", args, boolean=True))
        if isinstance(e, sp.Not):
            return self._add_node(_Node("not", (self._lower(e.args[0]),), boolean=True))
        raise Unsupported(f"no fast-path rule for {type(e).__name__}")

    # -- execution ---------------------------------------------------------------------------------------------
    def run(self, env: dict[str, tuple[np.ndarray, np.ndarray]], elementwise: Callable | None = None,
            chunk: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(lo, hi) arrays of the broadcast shape of the inputs; NaN ends already mapped to the safe side.

        ``elementwise(name, args)`` evaluates a special function (erfc, erf) on interval arrays; see
        :class:`dpbounds.evaluation.interp.NpIntervalBackend`.
        """
        shape = np.broadcast_shapes(*[np.shape(v[0]) for v in env.values()]) if env else ()
        size = int(np.prod(shape)) if shape else 1
        nodes = self.nodes
        n = len(nodes)
        # which inputs vary (arrays) and which are scalars; scalar subexpressions are hoisted out of the chunk loop
        arr_in: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        scal: list[Any] = [None] * n
        is_arr = [False] * n
        for i, nd in enumerate(nodes):
            if nd.op == "sym":
                lo, hi = env[nd.data]
                if np.ndim(lo) == 0 and np.ndim(hi) == 0:
                    scal[i] = (np.array(lo, dtype=np.float64), np.array(hi, dtype=np.float64))
                else:
                    is_arr[i] = True
                    arr_in[nd.data] = (np.ascontiguousarray(np.broadcast_to(lo, shape)).reshape(-1),
                                       np.ascontiguousarray(np.broadcast_to(hi, shape)).reshape(-1))
            elif nd.args and any(is_arr[a] for a in nd.args):
                is_arr[i] = True
        with np.errstate(all="ignore"):
            # scalar part, once (0-d arrays); ``rpos[i]``: node i's computed ends are >= 0 (known at run time for
            # scalars, derived from the children for arrays), which selects cheaper monotone code paths
            rpos = [False] * n
            for i, nd in enumerate(nodes):
                if not is_arr[i]:
                    if nd.op != "sym":
                        scal[i] = _exec(nd, [scal[a] for a in nd.args], None, elementwise,
                                        _dyn_pos(nd, rpos))
                    if not nd.boolean:
                        rpos[i] = bool(np.all(scal[i][0] >= 0))
                else:
                    rpos[i] = _dyn_pos(nd, rpos)
            cpos = [tuple(rpos[a] for a in nd.args) for nd in nodes]
            out_lo = np.empty(size)
            out_hi = np.empty(size)
            if not is_arr[self.root]:
                lo, hi = scal[self.root]
                out_lo[:] = lo
                out_hi[:] = hi
            else:
                pool: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
                c = min(chunk or CHUNK, size)
                vals: list[Any] = list(scal)
                order, release_after = self.order, self.release_after
                for s in range(0, size, c):
                    m = min(c, size - s)
                    held: dict[int, Any] = {}
                    pos = 0
                    while pos < len(order):
                        i = order[pos]
                        if isinstance(i, list):  # a Piecewise branch segment: skip it if no element can take it
                            _, k, j, end = i
                            if not _branch_needed(nodes[k], j, vals):
                                for q in range(pos + 1, end):
                                    if not isinstance(order[q], list) and is_arr[order[q]]:
                                        vals[order[q]] = None
                                pos = end
                            else:
                                pos += 1
                            continue
                        if is_arr[i]:
                            nd = nodes[i]
                            if nd.op == "sym":
                                lo, hi = arr_in[nd.data]
                                vals[i] = (lo[s:s + m], hi[s:s + m])
                            elif nd.boolean:
                                vals[i] = _exec(nd, [vals[a] for a in nd.args], None, elementwise, False)
                            else:
                                buf = pool.pop() if pool else (np.empty(c), np.empty(c), np.empty(c), np.empty(c))
                                held[i] = buf
                                vals[i] = _exec(nd, [vals[a] for a in nd.args],
                                                (buf[0][:m], buf[1][:m], buf[2][:m], buf[3][:m]), elementwise, rpos[i],
                                                cpos[i])
                        for a in release_after[pos]:
                            b = held.pop(a, None)
                            if b is not None:
                                pool.append(b)
                        pos += 1
                    lo, hi = vals[self.root]
                    if nodes[self.root].boolean:
                        raise Unsupported("a boolean expression has no interval value")
                    out_lo[s:s + m] = lo
                    out_hi[s:s + m] = hi
                    pool.extend(held.values())
            np.copyto(out_lo, -np.inf, where=np.isnan(out_lo))
            np.copyto(out_hi, np.inf, where=np.isnan(out_hi))
        return out_lo.reshape(shape), out_hi.reshape(shape)


# ----------------------------------------------------------------------------------------------------------------
# Operations.  ``out`` is (lo_buffer, hi_buffer, scratch) for array nodes, or None for scalar (0-d) nodes.
# ----------------------------------------------------------------------------------------------------------------

def _bufs(out, like):
    """(lo, hi, scratch, scratch2): the node's buffers, or fresh 0-d/shaped arrays for scalar nodes."""
    if out is not None:
        return out
    sh = np.shape(like)
    return (np.empty(sh), np.empty(sh), np.empty(sh), np.empty(sh))


def _dyn_pos(nd: _Node, rpos: list) -> bool:
    """Whether the computed ends of ``nd`` are >= 0, given which children's are (``rpos``)."""
    op = nd.op
    if nd.boolean:
        return False
    if nd.pos or op in ("sqrt", "exp", "abs", "mulpos", "erfc"):
        return True
    ch = [rpos[a] for a in nd.args]
    if op in ("add", "min"):
        return all(ch)
    if op == "mul":
        return all(c or _NODES_NONNEG(nd, k) for k, c in enumerate(ch))
    if op in ("log1p", "expm1", "recip"):
        return ch[0]
    if op == "ipow":
        return nd.data % 2 == 0 or ch[0]
    if op == "max":
        return any(ch)
    if op == "pw":
        return all(ch[0::2])
    return False


def _NODES_NONNEG(nd: _Node, k: int) -> bool:
    return bool(nd.data and nd.data[k])


def _exec(nd: _Node, a: list, out, elementwise, pos: bool = False, cpos: tuple | None = None):
    """Execute one node; ``pos``: the node's ends are >= 0 (children's permitting), so its exact value is too."""
    op = nd.op
    if op == "mul" and pos:
        op = "mulpos"
    elif op == "add" and pos:
        op = "addpos"
    if op == "const":
        lo, hi = nd.data
        return (np.array(lo), np.array(hi))
    if op == "bconst":
        return (np.array(nd.data), np.array(not nd.data))
    if nd.boolean:
        return _exec_bool(nd, a)
    if op == "pw":
        return _exec_pw(nd, a, out)
    first = a[0][0]
    if op in ("max", "min"):
        shape = np.broadcast_shapes(*[np.shape(x[0]) for x in a])
        lo, hi, _ = _bufs(out, np.empty(shape))[:3]
        f = np.maximum if op == "max" else np.minimum
        f(a[0][0], a[1][0], out=lo)
        f(a[0][1], a[1][1], out=hi)
        for x in a[2:]:
            f(lo, x[0], out=lo)
            f(hi, x[1], out=hi)
        return lo, hi
    if op in ("add", "addpos", "mul", "mulpos"):
        shape = np.broadcast_shapes(*[np.shape(x[0]) for x in a])
        lo, hi, t = _bufs(out, np.empty(shape))[:3]
        if op in ("add", "addpos"):
            return _exec_add(nd, a, lo, hi, t, op == "addpos")
        if op == "mulpos":
            return _exec_mulpos(a, lo, hi, t, cpos)
        return _exec_mul(a, lo, hi, t)
    lo, hi, t = _bufs(out, first)[:3]
    x_lo, x_hi = a[0]
    if op == "neg":
        np.negative(x_hi, out=lo)
        np.negative(x_lo, out=hi)
        return lo, hi
    if op == "sqrt":
        np.maximum(x_lo, 0.0, out=lo)
        np.sqrt(lo, out=lo)
        _down_pos(lo, t)
        np.sqrt(x_hi, out=hi)
        _up_pos(hi)
        return lo, hi
    if op == "exp":
        np.exp(x_lo, out=lo)
        _down_pos(lo, t, _KU, _KTINY)
        np.exp(x_hi, out=hi)
        _up_pos(hi, _KU, _KTINY)
        return lo, hi
    if op == "log":                   # log of a negative end: NaN -> -inf at the end (safe)
        return _increasing_kernel(np.log, x_lo, x_hi, lo, hi, t)
    if op == "log1p":
        return _exec_log1p(nd, x_lo, x_hi, out if out is not None else _bufs(None, first), pos)
    if op == "expm1":                 # expm1 > -1 (and >= 0 where the value is known to be)
        _increasing_kernel(np.expm1, x_lo, x_hi, lo, hi, t)
        np.maximum(lo, 0.0 if (nd.nonneg or pos) else -1.0, out=lo)
        return lo, hi
    if op == "tanh":                  # tanh in [-1, 1]
        _increasing_kernel(np.tanh, x_lo, x_hi, lo, hi, t)
        np.maximum(lo, -1.0, out=lo)
        np.minimum(hi, 1.0, out=hi)
        return lo, hi
    if op == "abs":
        np.abs(x_lo, out=t)
        np.abs(x_hi, out=hi)
        np.minimum(t, hi, out=lo)
        np.maximum(t, hi, out=hi)
        lo[(x_lo <= 0) & (x_hi >= 0)] = 0.0
        return lo, hi
    if op == "ipow":
        return _exec_ipow(nd, x_lo, x_hi, lo, hi, t, pos)
    if op == "recip":
        if cpos and cpos[0]:  # x_lo >= 0: monotone, no straddle (x_lo = 0 gives hi = +inf; lo clipped to max float)
            np.divide(1.0, x_hi, out=lo)
            _down_pos(lo)
            np.divide(1.0, x_lo, out=hi)
            np.abs(hi, out=hi)  # x_lo = -0.0 (it passes ">= 0") gives -inf: the upper end must be +inf
            _up_pos(hi)
            return lo, hi
        np.divide(1.0, x_hi, out=lo)
        _down_any(lo, t)
        np.divide(1.0, x_lo, out=hi)
        _up_any(hi, t)
        straddle = (x_lo <= 0) & (x_hi >= 0)
        if np.any(straddle):
            lo[straddle] = -np.inf
            hi[straddle] = np.inf
        if nd.pos or pos:
            np.maximum(lo, 0.0, out=lo)
        return lo, hi
    if op == "erfc":  # certified table (dpbounds.evaluation.np_special): vectorized, ends rounded outward
        from dpbounds.evaluation.np_special import erfc_interval
        rlo, rhi = erfc_interval(x_lo, x_hi)
        np.copyto(lo, rlo)
        np.copyto(hi, rhi)
        return lo, hi
    if op in ("erf", "zeta"):
        if elementwise is None:
            raise Unsupported(op)
        rlo, rhi = elementwise(op, [(x_lo, x_hi)])
        np.copyto(lo, rlo)
        np.copyto(hi, rhi)
        if op == "erfc":
            np.maximum(lo, 0.0, out=lo)   # erfc > 0; keeps the node's ends >= 0 (pos)
            np.maximum(hi, 0.0, out=hi)
        return lo, hi
    raise Unsupported(op)


_LOG1P_SMALL = 2.0 ** -20


def _log1p_small_end(x, out, t, up: bool):
    """log1p(x) for |x| <= 2^-20 without libm: the cubic x - x^2/2 + x^3/3 and its remainder.

    log1p(x) - (x - x^2/2 + x^3/3) = sum_{k>=4} (-1)^(k+1) x^k / k, of absolute value <= |x|^4 / (4 (1 - |x|))
    <= 0.26 x^4.  In float64 ``c = x*x`` (|err| <= u c), ``c*x/3`` and ``c/2`` (a few u each, all << |x| 2^-19),
    and the sum ``x - c/2 + c x/3`` (two roundings, each <= u |partial sum| <= u |x| (1 + 2^-19)): the total
    rounding error is below 3 u |x|; the bound used is ``4 u |x| + 0.26 x^4 + 2^-1074`` (the x^4 term underflows
    to 0 only where the tiny term covers it).
    """
    np.multiply(x, x, out=t)             # c = x^2
    np.multiply(t, x, out=out)           # c x
    out *= 1.0 / 3.0                     # c x / 3
    t *= 0.5                             # c / 2
    out -= t                             # c x / 3 - c / 2
    out += x                             # x - c/2 + c x/3
    np.abs(x, out=t)
    t *= 4.0 * 2.0 ** -53                # 4 u |x| >= rounding (< 1.1 u |x|) + remainder (<= 0.26 |x|^4 <= 2^-61 |x|)
    t += 2.0 ** -1073                    # subnormal intermediates: at most three half-steps of 2^-1074
    if up:
        out += t
        _up_any(out, t)                  # the rounding of that addition
    else:
        out -= t
        _down_any(out, t)


def _increasing_kernel(f, x_lo, x_hi, lo, hi, t):
    """An increasing libm kernel on [x_lo, x_hi]: each end moved TRANSCENDENTAL_ULPS outward."""
    f(x_lo, out=lo)
    _down_any(lo, t, _KU, _KTINY)
    f(x_hi, out=hi)
    _up_any(hi, t, _KU, _KTINY)
    return lo, hi


def _exec_log1p(nd, x_lo, x_hi, bufs, pos):
    """log1p on [x_lo, x_hi] with one libm call: log1p is increasing and concave, so
    log1p(x_hi) <= log1p(x_lo) + (x_hi - x_lo) / (1 + x_lo)  (mean value theorem, derivative decreasing).
    Each step is rounded outward; 1 + x_lo <= 0 gives q = inf or NaN, i.e. the safe side.
    A chunk whose ends all lie in [-2^-20, 2^-20] uses :func:`_log1p_small_end` at both ends instead (no libm)."""
    lo, hi, t, t2 = bufs
    if np.ndim(x_lo) and x_lo.size and bool((np.abs(x_lo) <= _LOG1P_SMALL).all()) and \
            bool((np.abs(x_hi) <= _LOG1P_SMALL).all()):
        _log1p_small_end(x_lo, lo, t, up=False)
        _log1p_small_end(x_hi, hi, t, up=True)
        if nd.nonneg or pos:
            np.maximum(lo, 0.0, out=lo)
        return lo, hi
    np.add(x_lo, 1.0, out=t)
    _down_pos(t)                       # d <= 1 + x_lo (clamped at 0)
    np.subtract(x_hi, x_lo, out=hi)
    _up_pos(hi)                        # w >= x_hi - x_lo >= 0
    hi /= t
    _up_pos(hi)                        # q >= w / d
    np.log1p(x_lo, out=lo)             # r, within 8 ulps
    if pos:                            # x_lo >= 0: r >= 0
        np.multiply(lo, 1.0 + _KU, out=t)
        t += _KTINY                    # >= r + 8 ulp(r), i.e. >= log1p(x_lo)
        hi += t
        _up_pos(hi)
        _down_pos(lo, None, _KU, _KTINY)
        return lo, hi
    np.copyto(t, lo)
    _up_any(t, t2, _KU, _KTINY)
    hi += t
    _up_any(hi, t2)
    _down_any(lo, t2, _KU, _KTINY)
    if nd.nonneg:
        np.maximum(lo, 0.0, out=lo)
    return lo, hi


def _exec_add(nd, a, lo, hi, t, pos):
    if pos:
        # all ends >= 0: recursive summation of k terms has |error| <= (k-1) u (1+u)^(k-1) sum|x_i| <= ... ;
        # instead of that bound we round after every addition (one cheap pass each), which is simpler to audit
        np.add(a[0][0], a[1][0], out=lo)
        np.add(a[0][1], a[1][1], out=hi)
        for x in a[2:]:
            _down_pos(lo, t)
            _up_pos(hi)
            lo += x[0]
            hi += x[1]
        _down_pos(lo, t)
        _up_pos(hi)
        return lo, hi
    np.add(a[0][0], a[1][0], out=lo)
    np.add(a[0][1], a[1][1], out=hi)
    for x in a[2:]:
        _down_any(lo, t)
        _up_any(hi, t)
        lo += x[0]
        hi += x[1]
    _down_any(lo, t)
    _up_any(hi, t)
    if nd.nonneg:
        np.maximum(lo, 0.0, out=lo)
    return lo, hi


def _exec_mulpos(a, lo, hi, t, cpos=None):
    """Product of factors whose exact values are >= 0: multiply the ends.  A lower end that may be negative
    (``cpos[j]`` false) is clamped at 0 first."""
    for j, (x_lo, x_hi) in enumerate(a):
        clamp = not (cpos and cpos[j])
        if j == 0:
            if clamp:
                np.maximum(x_lo, 0.0, out=lo)
            else:
                np.copyto(lo, x_lo)
            np.copyto(hi, x_hi)
            continue
        if clamp:
            np.maximum(x_lo, 0.0, out=t)
            lo *= t
        else:
            lo *= x_lo
        hi *= x_hi
        _down_pos(lo)
        _up_pos(hi)
    return lo, hi


def _exec_mul(a, lo, hi, t):
    """General product, one factor at a time, rounded outward after each step.

    Array factors come first; a scalar factor of known sign multiplies monotonically (two products), anything
    else takes the hull of the four end products.
    """
    a = sorted(a, key=lambda x: np.ndim(x[0]) == 0)
    np.copyto(lo, a[0][0])
    np.copyto(hi, a[0][1])
    for y_lo, y_hi in a[1:]:
        if np.ndim(y_lo) == 0 and (y_lo >= 0 or y_hi <= 0):
            cl, ch = float(y_lo), float(y_hi)
            if cl >= 0:   # y >= 0: lo*y is smallest at y = cl if lo >= 0, at y = ch if lo < 0
                if cl == ch:
                    lo *= cl
                    hi *= cl
                else:
                    np.minimum(lo * cl, lo * ch, out=lo)
                    np.maximum(hi * cl, hi * ch, out=hi)
            else:         # y <= 0: the ends swap
                if cl == ch:
                    np.multiply(hi, cl, out=t)
                    np.multiply(lo, cl, out=hi)
                    np.copyto(lo, t)
                else:
                    n_lo = np.minimum(hi * cl, hi * ch)
                    np.maximum(lo * cl, lo * ch, out=hi)
                    np.copyto(lo, n_lo)
        else:
            p1 = lo * y_lo
            p2 = lo * y_hi
            p3 = hi * y_lo
            p4 = hi * y_hi
            np.minimum(np.minimum(p1, p2), np.minimum(p3, p4), out=lo)
            np.maximum(np.maximum(p1, p2), np.maximum(p3, p4), out=hi)
        _down_any(lo, t)
        _up_any(hi, t)
    return lo, hi


def _exec_ipow(nd, x_lo, x_hi, lo, hi, t, pos):
    n = nd.data
    if n % 2 == 0 or nd.pos or pos:
        # |x| on [x_lo, x_hi] (or x itself, >= 0), then a monotone product of nonnegative ends
        if n % 2 == 0:
            np.abs(x_lo, out=t)
            np.abs(x_hi, out=hi)
            np.minimum(t, hi, out=lo)
            np.maximum(t, hi, out=hi)
            lo[(x_lo <= 0) & (x_hi >= 0)] = 0.0
        else:
            np.maximum(x_lo, 0.0, out=lo)
            np.copyto(hi, x_hi)
        if n == 2:
            np.multiply(lo, lo, out=lo)
            np.multiply(hi, hi, out=hi)
            _down_pos(lo, t)
            _up_pos(hi)
            return lo, hi
        b_lo = lo.copy()
        b_hi = hi.copy()
        for _ in range(n - 1):
            lo *= b_lo
            hi *= b_hi
            _down_pos(lo, t)
            _up_pos(hi)
        return lo, hi
    # odd power of a value of unknown sign (increasing): p = fl(x*x*...*x) has relative error <= (n-1)u(1+u)^n
    # plus at most (n-1) absolute underflow errors of 2^-1075 each; widen by 2n u |p| + n 2^-1074
    for src, dst, sgn in ((x_lo, lo, -1.0), (x_hi, hi, 1.0)):
        p = np.array(src, dtype=np.float64, copy=True)
        for _ in range(n - 1):
            p *= src
        dst[...] = p + sgn * (np.abs(p) * (2 * n * _U) + n * _TINY)
    return lo, hi


def _branch_needed(nd: _Node, j: int, vals: list) -> bool:
    """Whether some element may take branch ``j`` of the Piecewise node ``nd`` (its conditions are computed)."""
    conds = [vals[c] for c in nd.args[1::2]]
    reach = True
    for t, _f in conds[:j]:
        reach = reach & ~t
    return bool(np.any(reach & ~conds[j][1]))


def _exec_pw(nd, a, out):
    """value = c_1 ? v_1 : (c_2 ? v_2 : ...), per element; an undecided condition takes the hull of the value and
    the rest; no branch certainly true -> NaN -> (-inf, +inf), the safe side.  A skipped branch (None) is never
    selected for any element (see :func:`_branch_needed`)."""
    vals = a[0::2]
    conds = a[1::2]
    shape = np.broadcast_shapes(*[np.shape(x[0]) for x in vals + conds if x is not None])
    lo, hi, _ = _bufs(out, np.empty(shape))[:3]
    lo.fill(np.nan)
    hi.fill(np.nan)
    for v, (t, f) in zip(reversed(vals), reversed(conds)):
        if v is None or not np.any(~f):        # branch never taken here
            continue
        v_lo, v_hi = v
        if np.all(t):
            np.copyto(lo, v_lo)
            np.copyto(hi, v_hi)
            continue
        und = ~(t | f)
        np.copyto(lo, v_lo, where=t)
        np.copyto(hi, v_hi, where=t)
        if np.any(und):
            np.minimum(lo, v_lo, out=lo, where=und)
            np.maximum(hi, v_hi, out=hi, where=und)
    return lo, hi


def _exec_bool(nd, a):
    op = nd.op
    if op in ("lt", "le", "gt", "ge", "eq", "ne"):
        (x_lo, x_hi), (y_lo, y_hi) = a
        if op == "gt":
            (x_lo, x_hi), (y_lo, y_hi) = (y_lo, y_hi), (x_lo, x_hi)
            op = "lt"
        elif op == "ge":
            (x_lo, x_hi), (y_lo, y_hi) = (y_lo, y_hi), (x_lo, x_hi)
            op = "le"
        if op == "lt":
            return (x_hi < y_lo, x_lo >= y_hi)
        if op == "le":
            return (x_hi <= y_lo, x_lo > y_hi)
        t = (x_lo == x_hi) & (y_lo == y_hi) & (x_lo == y_lo)
        f = (x_hi < y_lo) | (y_hi < x_lo)
        return (t, f) if op == "eq" else (f, t)
    if op == "not":
        return (a[0][1], a[0][0])
    t, f = a[0]
    for x_t, x_f in a[1:]:
        if op == "and":
            t, f = t & x_t, f | x_f
        else:
            t, f = t | x_t, f & x_f
    return (t, f)


# ----------------------------------------------------------------------------------------------------------------

_LOCK = threading.Lock()
_PROGRAMS: dict[tuple, Program | Unsupported] = {}


def program_for(key: tuple, expr: sp.Basic, nonneg_symbols: set[str]) -> Program:
    """The cached program for ``key`` (compiled on first use); raises :class:`Unsupported` if not compilable."""
    p = _PROGRAMS.get(key)
    if p is None:
        with _LOCK:
            p = _PROGRAMS.get(key)
            if p is None:
                try:
                    p = Program(expr, nonneg_symbols)
                except Unsupported as exc:
                    p = exc
                _PROGRAMS[key] = p
    if isinstance(p, Unsupported):
        raise p
    return p
