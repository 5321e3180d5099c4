"""The reference side of :mod:`dpbounds.testing`: a fast float interval first, the certified arb enclosure only
where the interval cannot decide the verdict.

A peer value ``v`` is judged by :func:`dpbounds.testing.verdicts.judge_upper` / :func:`judge_lower` against the
certified enclosure ``[lo, hi]`` of the reference value.  Most verdicts follow from a float64 interval
``[flo, fhi]`` with ``flo <= lo <= hi <= fhi`` alone (rounded outward, so every shortcut below is a theorem about
the certified verdict, not an approximation of it):

* claim ``upper``: ``v > fhi`` is ``conservative`` (the smallest float >= hi is <= fhi < v); ``v`` more than
  ``ROUNDING_ULPS`` float steps below ``flo`` is ``unsound`` (the float up of lo is >= flo);
* claim ``lower`` (larger claims more privacy): ``v < flo`` is ``conservative``; ``v`` more than
  ``ROUNDING_ULPS`` steps above ``fhi`` is ``unsound``.

Everything else (the exact/conservative border, the rounding band) is decided in arb.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable, Mapping

from dpbounds.testing.engine import Outcome
from dpbounds.testing.verdicts import ROUNDING_ULPS, Judgement, _ordered, judge_lower, judge_upper
from dpbounds.evaluation.enclosure import CertificationError, Enclosure
from dpbounds.spec import DomainError

#: registry ids with a dedicated fast interval in :mod:`dpbounds.accounting.fast_conversions` (an optimized
#: entry has no generic float path): id -> (fast interval, certified enclosure) over the entry's parameters
_FAST_CONVERSIONS: dict[str, tuple[Callable[..., tuple[float, float]], Callable[..., Enclosure]]] = {}


#: relative widths asked of an entry with an opaque certified evaluator (composition.sgm.*, tradeoff.zcdp): each
#: narrower one only while the peer's value lies inside the last enclosure and the judgement is undecided (their
#: cost grows fast with the width)
OPAQUE_WIDTHS = (1e-3, 1e-5, 1e-7)
#: the narrower widths tried next, down to a few ulps (where ``exact`` is decided), each under
#: :data:`REFINE_WORK_LIMIT`: a width whose certification would exceed it leaves the verdict ``undecided``
REFINE_WIDTHS = (1e-9, 1e-11, 1e-13, 1e-15, 2e-16)
#: the work bound of a refinement beyond :data:`OPAQUE_WIDTHS` (pairs of grid points of one PLD convolution,
#: dpbounds.evaluation.sgm_pld.work_limit): it depends only on the point, so the verdict is the same on every machine
REFINE_WORK_LIMIT = 3e8


def _conversion_paths() -> None:
    if _FAST_CONVERSIONS:
        return
    from dpbounds.accounting import conversions as cv
    from dpbounds.accounting import fast_conversions as fc
    _FAST_CONVERSIONS.update({
        "conversions.cks20": (lambda rho, delta: fc.eps_interval(rho, delta, "cks20"),
                              lambda rho, delta: cv.eps_of(rho, delta, "cks20")),
        "conversions.bs16": (lambda rho, delta: fc.eps_interval(rho, delta, "bs16"),
                             lambda rho, delta: cv.eps_of(rho, delta, "bs16")),
        "conversions.cks20.delta": (lambda rho, eps_g: fc.delta_interval(rho, eps_g),
                                    lambda rho, eps_g: cv.delta_of(rho, eps_g, "cks20")),
    })


class Undecided(Exception):
    """The reference could not be evaluated at a point inside the declared domain (certification failed)."""


def _exact_float(x: Any) -> tuple[float, bool]:
    """(float, exact?) of a parameter value (float, int, Fraction, Decimal or decimal string)."""
    if isinstance(x, float):
        return x, True
    q = Fraction(str(x)) if not isinstance(x, (int, Fraction)) else Fraction(x)
    f = float(q)
    return f, Fraction(f) == q


def judge_enclosure(peer: Any, enc: Enclosure, claim: str, name: str, description: str,
                    role: str = "truth") -> Judgement:
    """:func:`judge_upper` / :func:`judge_lower` (the audit's judging, reused) against a certified enclosure.  A
    reference value of +oo is judged as the enclosure [+inf, +inf], which the judgement carries (so that a consumer
    recomputes the verdict from it, as from any other): for an upper claim only +inf is exact, a finite value claims
    a guarantee the reference does not give, and a value that is not a number is the peer's error.  ``role``:
    "truth" (the true guarantee: below it the claim is false) or "formula" (the formula the peer cites: below it, a
    departure)."""
    judge = judge_upper if claim == "upper" else judge_lower
    if enc.pos_inf or enc.lo is None or enc.hi is None:
        return judge(peer, math.inf, math.inf, role=role, reference=name, description=description)
    return judge(peer, enc.lo, enc.hi, role=role, reference=name, description=description)


def relative_margin(peer: float, ref: float, claim: str) -> float:
    """(peer - ref) / |ref| for an upper claim, (ref - peer) / |ref| for a lower one (absolute when ref is 0):
    positive on the sound side."""
    d = (peer - ref) if claim == "upper" else (ref - peer)
    if math.isnan(d):
        return -math.inf
    return d / abs(ref) if ref not in (0.0,) and math.isfinite(ref) else d


class Oracle:
    """The reference value at a point: ``reference`` is a registry id (evaluated at the inputs plus ``fixed``) or a
    callable ``(**inputs) -> Enclosure`` (certified; no fast path)."""

    def __init__(self, reference: str | Callable[..., Enclosure], fixed: Mapping[str, Any] | None = None,
                 claim: str = "upper", role: str = "truth") -> None:
        if claim not in ("upper", "lower"):
            raise DomainError("claim", claim, "'upper' or 'lower'", "dpbounds.testing")
        if role not in ("truth", "formula"):
            raise DomainError("role", role, "'truth' or 'formula'", "dpbounds.testing")
        self.role = role
        self.reference = reference
        self.fixed = dict(fixed or {})
        self.claim = claim
        self.name = reference if isinstance(reference, str) else \
            f"{getattr(reference, '__module__', '?')}.{getattr(reference, '__qualname__', repr(reference))}"
        self._fast: Callable[..., tuple[float, float]] | None = None
        self._unclipped: Callable[..., Enclosure] | None = None
        self._opaque: Callable[..., Enclosure] | None = None
        self._narrow: Callable[..., Enclosure | None] | None = None   # composition.sgm.*: dpbounds.evaluation.sgm_quick
        self._widths: tuple[float, ...] = ()   # a narrowable callable's widths (all under the work bound)
        self._cert: Callable[..., Enclosure]
        if isinstance(reference, str):
            from dpbounds.spec import get
            entry = get(reference)  # DomainError for an unknown id, at construction
            if entry.kind in ("filter", "odometer"):
                raise DomainError("reference", reference, "a registry id of a bound or conversion (this one is a "
                                  f"{entry.kind.value}: check it with check_{entry.kind.value})", "dpbounds.testing")
            self.entry = entry
            self.description = f"{reference}: {entry.title} ({entry.theorem})"
            _conversion_paths()
            if claim == "upper" and "unclipped" in entry.extra:
                from dpbounds.evaluation.evaluate import enclose as _enc
                self._unclipped = lambda **pt: _enc(reference, {k: (Fraction(v) if isinstance(v, float) else v)
                                                                for k, v in pt.items()},
                                                    what="extra.unclipped", rel_tol=1e-24)
            if reference in _FAST_CONVERSIONS:
                self._fast, self._cert = _FAST_CONVERSIONS[reference]
            else:
                from dpbounds.evaluation.evaluate import enclose, fast_interval
                if entry.optimize is None and not entry.evaluator:  # opaque evaluators: no float path
                    def fast(**pt: Any) -> tuple[float, float]:
                        vals = {k: _exact_float(v) for k, v in pt.items()}
                        lo, hi = fast_interval(reference, rounded_inputs=not all(e for _, e in vals.values()),
                                               **{k: f for k, (f, _) in vals.items()})
                        return float(lo), float(hi)
                    self._fast = fast
                if entry.evaluator:  # an opaque certified evaluator: coarse first, narrower where the peer is inside
                    self._opaque = lambda pt, tol: enclose(reference, {k: (Fraction(v) if isinstance(v, float) else v)
                                                                       for k, v in pt.items()}, rel_tol=tol)
                    self._cert = lambda **pt: self._opaque(pt, OPAQUE_WIDTHS[0])
                    from dpbounds.evaluation import sgm_quick
                    if reference in sgm_quick.ENTRIES:  # cheap certified bounds, then cached brackets at the peer
                        self._fast = lambda **pt: sgm_quick.interval(reference, pt)
                        self._narrow = lambda pt, peer, quick=False: sgm_quick.narrowed(reference, pt, peer,
                                                                                         ends=not quick)
                else:
                    self._cert = lambda **pt: enclose(reference, {k: (Fraction(v) if isinstance(v, float) else v)
                                                                  for k, v in pt.items()}, rel_tol=1e-24)
        else:
            if not callable(reference):
                raise DomainError("reference", reference, "a registry id or a callable (**inputs) -> Enclosure",
                                  "dpbounds.testing")
            self.description = f"{self.name} (a certified callable)"
            self._cert = reference
            # a callable that takes rel_tol and lists the narrower widths it can certify (``rel_tols``) is narrowed
            # through them like an opaque evaluator, each under the work bound
            widths = tuple(float(w) for w in getattr(reference, "rel_tols", ()) or ())
            if widths:
                guided = bool(getattr(reference, "near", False))   # it also takes near=, the peer's value
                self._opaque = lambda pt, tol, peer=None: reference(**pt, rel_tol=tol,
                                                                    **({"near": peer} if guided else {}))
                self._widths = widths

    def fast(self, point: Mapping[str, Any]) -> tuple[float, float] | None:
        """A float64 (lo, hi) around the reference value, or None (no fast path, or it could not tell).
        Raises DomainError when the point is outside the reference's domain."""
        if self._fast is None:
            return None
        try:
            lo, hi = self._fast(**{**self.fixed, **point})
        except DomainError:
            raise
        except (ArithmeticError, ValueError, TypeError):
            return None
        lo, hi = float(lo), float(hi)
        if math.isnan(lo) or math.isnan(hi) or lo > hi:
            return None
        return lo, hi

    def enclosure(self, point: Mapping[str, Any]) -> Enclosure:
        """The certified enclosure (DomainError outside the domain; :class:`Undecided` when arb cannot certify)."""
        try:
            enc = self._cert(**{**self.fixed, **point})
        except CertificationError as e:
            raise Undecided(str(e)) from None
        if not isinstance(enc, Enclosure):
            raise TypeError(f"reference {self.name} returned {type(enc).__name__}, not a dpbounds.Enclosure")
        return enc

    def judge(self, peer: float, enc: Enclosure) -> Judgement:
        """The audit's judgement of ``peer`` against the certified enclosure."""
        return judge_enclosure(peer, enc, self.claim, self.name, self.description, self.role)

    def narrowed(self, point: Mapping[str, Any], peer: Any, quick: bool = False) -> Enclosure:
        """The certified enclosure; for an opaque evaluator (no closed form: its width has a price) narrowed through
        :data:`OPAQUE_WIDTHS`, then :data:`REFINE_WIDTHS` under :data:`REFINE_WORK_LIMIT`, while the judgement of
        ``peer`` against it is undecided (the value inside an enclosure wider than a few ulps).  The narrowest it
        certified is returned: the verdict against it is ``undecided`` when no width decided it.  A certified
        callable with a ``rel_tols`` attribute (it takes ``rel_tol=``) is narrowed through those widths instead, every
        one under the work bound; one with ``near = True`` is also given the peer's value (``near=``), to decide
        the points next to it.  ``quick``: for a search's verdict (not a result's enclosure): composition.sgm.eps's
        conservative values get a cheaper enclosure, the verdict the same (dpbounds.evaluation.sgm_quick.narrowed)."""
        if self._narrow is not None:
            try:
                enc = self._narrow({**self.fixed, **point}, peer, quick)
            except CertificationError as e:
                raise Undecided(str(e)) from None
            if enc is not None:
                return enc
        enc = self.enclosure(point)
        if self._opaque is None:
            return enc
        from dpbounds.evaluation.sgm_pld import work_limit
        # beyond OPAQUE_WIDTHS only where the work bound applies (the PLD bracket); elsewhere the cost is unbounded
        ev = str(getattr(getattr(self, "entry", None), "evaluator", ""))
        pld = "sgm_pld" in ev or "sgm_schedule" in ev  # (the PLD bracket, directly or through the schedule evaluator)
        widths = self._widths or OPAQUE_WIDTHS[1:] + (REFINE_WIDTHS if pld else ())
        for i, tol in enumerate(widths):
            if not isinstance(peer, float) or self.judge(peer, enc).verdict != "undecided":
                break
            try:
                if i < len(OPAQUE_WIDTHS) - 1 and not self._widths:
                    enc = self._opaque({**self.fixed, **point}, tol)
                elif self._widths:
                    with work_limit(REFINE_WORK_LIMIT):
                        enc = self._opaque({**self.fixed, **point}, tol, peer)
                else:
                    with work_limit(REFINE_WORK_LIMIT):
                        enc = self._opaque({**self.fixed, **point}, tol)
            except CertificationError:
                break
        return enc

    def verdict(self, point: Mapping[str, Any], peer: float, *, sure_enough: bool = False) -> Outcome:
        """The outcome of one peer value at ``point``: its verdict, margin and (where arb decided) judgement (see
    :func:`classify`; a negative eps: :meth:`negative`)."""
        if self.claim == "upper" and isinstance(peer, float) and peer < 0:
            return self.negative(point, peer)
        return classify(self.claim, peer, self.fast(point), lambda: self.narrowed(point, peer, quick=True), self.judge,
                        sure_enough=sure_enough, role=self.role)

    def negative(self, point: Mapping[str, Any], peer: float) -> Outcome:
        """The verdict on a negative value of an upper claim (see :meth:`certified`)."""
        return classify(self.claim, peer, None, lambda: self.certified(point, peer)[0],
                        lambda v, e: self.certified(point, peer, enc=e)[1], role=self.role)

    def certified(self, point: Mapping[str, Any], peer: Any, description: str | None = None,
                  enc: Enclosure | None = None) -> tuple[Enclosure, Judgement]:
        """The certified enclosure (:meth:`narrowed`) and the judgement of ``peer`` against it.

        A negative value of an upper claim: (eps, delta)-DP with eps < 0 is a true statement about the
        hockey-stick divergence (H_{e^eps} <= delta), stronger than (0, delta), not an under-report by itself.  An
        entry stated clipped at 0 (``Max(0, g)``) with its raw expression in ``extra['unclipped']`` valid for every
        real eps (conversions.rdp.cks20: its dual certificate holds for every gamma = e^eps > 0, proofs_check
        ``conversions.rdp.cks20.via_dual``) judges the value against g.  Any other reference whose enclosure
        reaches 0 (eps = inf{eps >= 0: ...}) cannot tell whether the negative eps holds: :class:`Undecided`, never
        a verdict -- for an eps (the inputs name a delta, no eps): a negative delta, RDP value or anything else
        is false whatever the reference (H_gamma >= 0, D_alpha >= 0), judged as usual.  A reference above 0 judges
        as usual too (for v < 0, H_{e^v} >= H_1 > delta: the claim is false)."""
        desc = description or self.description
        names = set(self.fixed) | set(point)
        eps_valued = "delta" in names and not names & {"eps", "eps_g"}
        if self.claim == "upper" and eps_valued and isinstance(peer, float) and peer < 0:
            false = _negative_eps_false(peer, {**self.fixed, **point}.get("delta"))
            if false is not None:
                enc = Enclosure(Fraction(0), Fraction(0), 0) if enc is None else enc
                j = Judgement("truth", self.name, desc, "unsound", enc.lo, enc.hi, gap_rel=math.inf,
                              gap_ulps=None, detail=false)
                return enc, j
            if self._unclipped is not None:
                if enc is None:
                    try:
                        enc = self._unclipped(**{**self.fixed, **point})
                    except CertificationError as e:
                        raise Undecided(str(e)) from None
                desc += "; a negative eps is judged against the unclipped expression, a bound for every real eps"
                return enc, judge_enclosure(peer, enc, self.claim, self.name, desc, self.role)
            enc = enc or self.narrowed(point, peer)
            if not enc.pos_inf and enc.lo is not None and enc.lo <= 0:
                raise Undecided(f"{self.name} is clipped at eps = 0 here: it cannot judge the negative eps "
                                f"{peer!r} (a hockey-stick claim stronger than (0, delta))")
            return enc, judge_enclosure(peer, enc, self.claim, self.name, desc, self.role)
        enc = enc or self.narrowed(point, peer)
        return enc, judge_enclosure(peer, enc, self.claim, self.name, desc, self.role)


def _negative_eps_false(eps: float, delta: Any) -> str | None:
    """Why an (eps, delta) claim with eps < 0 is false for every pair of distributions, or None when it may hold.

    H_gamma(P || Q) = sup_S P(S) - gamma Q(S) >= 1 - gamma (S the whole space), so (eps, delta)-DP with
    1 - e^eps > delta is impossible: every eps < log(1 - delta), and eps = -inf for every delta < 1."""
    try:
        d = Fraction(str(delta)) if not isinstance(delta, (int, Fraction)) else Fraction(delta)
    except (ValueError, ZeroDivisionError, TypeError):
        return None
    if not 0 <= d < 1:
        return None
    bound = math.log1p(-float(d))  # eps below this (by a safe margin) makes 1 - e^eps > delta
    if eps == -math.inf or eps < bound - 1e-9 * (1 + abs(bound)):
        return (f"eps = {eps!r} < log(1 - delta): H_(e^eps)(P || Q) >= 1 - e^eps > delta for every pair of "
                "distributions, so the claim is false whatever the mechanism")
    return None


def classify(claim: str, peer: Any, iv: tuple[float, float] | None, enclosure: Callable[[], Enclosure],
             judge: Callable[[Any, Enclosure], Judgement], *, sure_enough: bool = False,
             role: str = "truth") -> Outcome:
    """The outcome of one peer value (its verdict, signed margin, and the judgement when arb decided): from the
    float interval ``iv`` when it decides (module docstring), else from ``judge(peer, enclosure())``.  ``sure_enough``: the caller already holds a conservative (or worse) finding, so
    a value the interval proves sound needs no arb to tell exact from conservative.  ``role``: "formula" makes an
    under-report beyond rounding a ``formula-departure`` (the reference is the formula the value cites)."""
    below = "formula-departure" if role == "formula" else "unsound"
    if iv is not None and isinstance(peer, float) and not math.isnan(peer):
        flo, fhi = iv
        m = relative_margin(peer, flo if claim == "upper" else fhi, claim)
        if claim == "upper":
            if peer > fhi:
                return Outcome("conservative", m, peer_value=peer)
            if peer < flo and _ordered(flo) - _ordered(peer) > ROUNDING_ULPS:
                return Outcome(below, m, peer_value=peer)
            if sure_enough and peer >= fhi:
                return Outcome("conservative", m, peer_value=peer)  # sound; exact or conservative is no news
        else:
            if peer < flo:
                return Outcome("conservative", m, peer_value=peer)
            if math.isfinite(peer) and peer > fhi and _ordered(peer) - _ordered(fhi) > ROUNDING_ULPS:
                return Outcome(below, m, peer_value=peer)
            if sure_enough and peer <= flo:
                return Outcome("conservative", m, peer_value=peer)
    enc = enclosure()
    j = judge(peer, enc)
    if enc.pos_inf or enc.lo is None or enc.hi is None or not isinstance(peer, float):
        m = 0.0 if j.verdict in ("exact", "conservative", "undecided") else -math.inf
    else:
        m = relative_margin(peer, float(enc.lo) if claim == "upper" else float(enc.hi), claim)
        if j.verdict in ("unsound", "unsound-rounding", "formula-departure"):
            m = min(m, -1e-300)  # an under-report has a negative margin even where floats round it to 0
    return Outcome(j.verdict, m, peer_value=peer, judgement=j, detail=j.detail)
