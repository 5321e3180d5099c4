"""Cost models: refuse, before any work, an evaluation whose cost grows with its inputs beyond a fixed budget.

An entry's certified evaluation costs about (number of certified terms) x (cost of one term at the precision the
digits need).  Two things multiply the terms: a finite ``Sum`` (``conversions.kov15.exact`` sums k + 1 terms,
``conversions.mv16.exact`` (k + 1)(k2 + 1)), and per-round sequences (an aggregate such as A = sum of
eps_i tanh(eps_i/2) costs one certified evaluation per *distinct* value).  The time of one term grows with the
digits asked (measured here, one core: about 22 us at 30 digits, 0.12 ms at 1000, 1.3 ms at 5000 for a distinct
per-round value of rruv16.thm5_1's two aggregates; a Sum term about three times that).  :data:`WORK_BUDGET_US` (30 s of such work) leaves the rest of the 60 s
promise to start-up and rendering; inputs beyond it are a :class:`DomainError` naming the parameter, its value, the
bound the model allows and the theorem -- deterministic, the same on every machine.  Entries whose cost grows with
a parameter's magnitude rather than with a count have explicit caps (:data:`MAGNITUDE_CAPS`).

The command line adds a CPU-time cap behind these models (:mod:`dpbounds.util.limits`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

import sympy as sp

from dpbounds.spec import DomainError
from dpbounds.spec.core import SpecEntry

#: the work one evaluation may do, in microseconds of certified terms (see the module docstring)
WORK_BUDGET_US = 30e6


def term_us(digits: int) -> float:
    """Estimated microseconds of one certified aggregate term at ``digits`` digits (fitted on 30, 1000, 5000)."""
    d = max(int(digits), 1)
    return 22.0 + 0.1 * d + 4e-5 * d * d


def sum_term_us(digits: int) -> float:
    """Estimated microseconds of one term of a spec ``Sum`` at ``digits`` digits (three aggregate terms)."""
    return 3.0 * term_us(digits)


def _count(limits: tuple, values: Mapping[str, Fraction]) -> int | None:
    """The number of terms of one Sum's limits at ``values`` (None when a limit is not a number here)."""
    n = 1
    for _, lo, hi in limits:
        free = lo.free_symbols | hi.free_symbols
        if not {str(s) for s in free} <= set(values):
            return None
        subs = {s: sp.Rational(values[str(s)].numerator, values[str(s)].denominator) for s in free}
        c = (hi - lo + 1).xreplace(subs)
        if not c.is_number:
            return None
        n *= max(int(sp.floor(c)), 0)
    return n


def _sum_terms(expr: sp.Basic, values: Mapping[str, Fraction]) -> tuple[int, str | None]:
    """(terms, parameter): the certified terms of the Sums in ``expr`` (a nested Sum's terms multiply its outer
    Sum's), and the parameter in the costliest Sum's limits."""
    total, name = 0, None
    best = 0
    for s in _top_sums(expr):
        c = _count(s.limits, values)
        if c is None:
            continue
        inner, inner_name = _sum_terms(s.function, values)
        t = c * max(inner, 1)
        total += t
        if t > best:
            best = t
            free = sorted(str(x) for _, lo, hi in s.limits for x in (lo.free_symbols | hi.free_symbols))
            name = free[0] if free else inner_name
    return total, name


def _top_sums(expr: sp.Basic):
    """The Sums of ``expr`` not inside another Sum."""
    if isinstance(expr, sp.Sum):
        yield expr
        return
    for a in expr.args:
        yield from _top_sums(a)


def check_sum_cost(entry: SpecEntry, values: Mapping[str, Fraction], digits: int, what: str = "expr") -> None:
    """DomainError if the entry's Sums at ``values`` would take more than the work budget at ``digits`` digits."""
    try:
        expr = entry.all_exprs().get(what)
    except Exception:  # noqa: BLE001 - an unknown `what` is reported by the evaluator itself
        return
    if expr is None or not expr.has(sp.Sum):
        return
    terms, name = _sum_terms(expr, values)
    per = sum_term_us(digits)
    if terms * per > WORK_BUDGET_US:
        allowed = int(WORK_BUDGET_US // per)
        raise DomainError(name or "k", values.get(name, terms) if name else terms,
                          f"at most {allowed} summed terms at {digits} digits (these inputs give {terms}; fewer "
                          "digits allow more terms)", entry.theorem,
                          "too costly: the certified evaluator sums every term")


def distinct_count(seq: Any) -> int:
    """The number of distinct values of a per-round sequence given as Python values (0 for a numpy array: the
    vectorized path does not evaluate per value)."""
    import numpy as np
    if seq is None or isinstance(seq, np.ndarray) or isinstance(seq, (str, bytes)):
        return 0
    try:
        return len({v if isinstance(v, (str, int, Fraction)) else repr(v) for v in seq})
    except TypeError:
        return 0


def check_rounds_cost(entry: SpecEntry, digits: int, **seqs: Any) -> None:
    """DomainError if the per-round sequences' distinct values, each one certified term of every aggregate at
    ``digits`` digits, would take more than the work budget."""
    if not entry.aggregates:
        return
    n = max((distinct_count(s) for s in seqs.values()), default=0)
    per = term_us(digits) * max(1.0, len(entry.aggregates) / 2)  # (measured on an entry with two aggregates)
    if n * per > WORK_BUDGET_US:
        allowed = int(WORK_BUDGET_US // per)
        name = next((k for k, s in seqs.items() if distinct_count(s) == n), "eps")
        raise DomainError(name, f"<{n} distinct values>", f"at most {allowed} distinct per-round values at {digits} "
                          f"digits (each is one certified term of {', '.join(entry.aggregates)}; fewer digits allow "
                          "more, and float64 numpy arrays take the vectorized path)", entry.theorem,
                          "too costly at these digits")


#: entry id -> (parameter, the largest value whose evaluation stays within the budget, why the cost grows)
MAGNITUDE_CAPS: dict[str, tuple[str, Fraction, str]] = {
    "tradeoff.rdp": ("alpha", Fraction(10) ** 100, "the evaluator's root solves grow with the size of alpha: 1e150 "
                     "took about 1 CPU s, 1e1000 over a minute"),
}


def check_magnitude_caps(entry: SpecEntry, values: Mapping[str, Fraction]) -> None:
    """DomainError for a parameter beyond its entry's cap in :data:`MAGNITUDE_CAPS`."""
    cap = MAGNITUDE_CAPS.get(entry.id)
    if cap is None:
        return
    name, top, why = cap
    v = values.get(name)
    if v is not None and v > top:
        raise DomainError(name, v, f"{name} <= 1e{len(str(top.numerator)) - 1} ({why})", entry.theorem,
                          "too costly: beyond the evaluator's cost model")


def check_cost(entry: SpecEntry, values: Mapping[str, Fraction], digits: int, what: str = "expr",
               **seqs: Any) -> None:
    """Every cost model of the entry at these inputs (see the module docstring)."""
    check_magnitude_caps(entry, values)
    check_sum_cost(entry, values, digits, what)
    check_rounds_cost(entry, digits, **seqs)


def digits_of_tol(rel_tol: Any) -> int:
    """The digits a relative tolerance asks for (about -log10 rel_tol)."""
    try:
        q = Fraction(rel_tol)
    except (TypeError, ValueError):
        return 30
    if q <= 0:
        return 30
    return max(1, int((q.denominator.bit_length() - q.numerator.bit_length()) * 0.30103))


__all__ = ["WORK_BUDGET_US", "check_cost", "check_rounds_cost", "check_sum_cost", "check_magnitude_caps",
           "digits_of_tol"]
