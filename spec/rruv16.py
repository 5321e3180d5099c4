"""RRUV16 -- Rogers, Roth, Ullman, Vadhan, "Privacy Odometers and Filters: Pay-as-you-Go Composition".

Seeds: ``000_6d22f6a3880a066d.txt`` (arXiv text with LaTeX; the reference for every formula here) and
``002_ecc3f503dc6836cc.txt`` (the same paper with formulas stripped; used only to cross-check numbering).
"""

from __future__ import annotations

import sympy as sp

from .core import Kind, Source, SpecEntry, register, sym

SEED = "000_6d22f6a3880a066d.txt"
PAPER = "RRUV16"

eps_g, delta_g, delta_dprime, x = sym("eps_g"), sym("delta_g"), sym("delta_dprime"), sym("x")
V, A, S, V2, A2, S2, LIFT = (sym(n) for n in ("V", "A", "S", "V2", "A2", "S2", "LIFT"))
eps, delta = sym("eps"), sym("delta")

#: the constant of Theorem 5.1, eq. (6): x = eps_g^2 / (28.04 log(1/delta_g))
C_THM5_1 = sp.Rational(2804, 100)
DELTA_SMALL = (delta_g > 0, delta_g < sp.exp(-1))
PURE_ROUNDS = (sp.Eq(delta, 0),)


def src(where: str) -> Source:
    return Source(PAPER, where, SEED)


def thm4_4_bound(Vsum: sp.Expr, xx: sp.Expr, L: sp.Expr) -> sp.Expr:
    """sqrt(2 (V + x)(1 + log(V/x + 1)/2) L): Theorem 4.4 with U_k^2/4 = V (the shape used in 5.1 and 6.4)."""
    return sp.sqrt(2 * (Vsum + xx) * (1 + sp.log(Vsum / xx + 1) / 2) * L)


# ------------------------------------------------------------------------------------------ Thm 3.4
register(SpecEntry(
    id="rruv16.thm3_4.odometer", title="basic composition odometer (pure DP)", kind=Kind.ODOMETER,
    source=src("Theorem 3.4"), params=(), aggregates=("S",), expr=S, per_round_domain=PURE_ROUNDS,
    monotone={"S": +1},
    notes="A valid (sum eps_i, 0) odometer for pure-DP rounds; with delta_i > 0 use the Lemma 3.3 lift "
          "(rruv16.lemma3_3.odometer.thm3_4)."))
register(SpecEntry(
    id="rruv16.thm3_4.filter", title="basic composition filter (pure DP)", kind=Kind.FILTER,
    source=src("Theorem 3.4"), params=("eps_g",), aggregates=("S",), expr=S, halt=S > eps_g,
    domain=(eps_g > 0,), per_round_domain=PURE_ROUNDS, monotone={"S": +1},
    notes="HALT iff the next round would make sum eps_i exceed eps_g."))

# ------------------------------------------------------------------------------------------ Thm 5.1
_x51 = eps_g**2 / (C_THM5_1 * sp.log(1 / delta_g))
_K51 = A + thm4_4_bound(V, _x51, sp.log(1 / delta_g))
register(SpecEntry(
    id="rruv16.thm5_1", title="advanced-composition filter for pure-DP rounds", kind=Kind.FILTER,
    source=src("Theorem 5.1, eq. (6)"), params=("eps_g", "delta_g"), aggregates=("A", "V"),
    expr=_K51, halt=_K51 > eps_g, domain=(eps_g > 0,) + DELTA_SMALL, per_round_domain=PURE_ROUNDS,
    extra={"x": _x51}, monotone={"A": +1, "V": +1},
    proof_claims=("rruv16.thm5_1.statement_vs_proof", "rruv16.thm5_1.near_optimal_28_04"),
    notes="K = sum_j eps_j (e^{eps_j}-1)/2 + sqrt(2 (V + x)(1 + log(V/x + 1)/2) log(1/delta_g)) with "
          "x = eps_g^2/(28.04 log(1/delta_g)); HALT iff K (including the next round) > eps_g. "
          "Rounds must be pure DP; approximate-DP rounds go through rruv16.lemma3_3.filter.thm5_1."))

# ------------------------------------------------------------------------------------------ Lemma 3.3 lifts
_K51_lift = _K51.subs({A: A2, V: V2}, simultaneous=True)
register(SpecEntry(
    id="rruv16.lemma3_3.filter.thm5_1", title="Theorem 5.1 filter lifted to approximate-DP rounds",
    kind=Kind.FILTER, source=src("Lemma 3.3 applied to Theorem 5.1"),
    params=("eps_g", "delta_g", "delta_dprime"), aggregates=("A2", "V2", "LIFT"), expr=_K51_lift,
    halt=sp.Or(_K51_lift > eps_g, LIFT > delta_dprime),
    domain=(eps_g > 0,) + DELTA_SMALL + (delta_dprime > 0,), monotone={"A2": +1, "V2": +1, "LIFT": +1},
    notes="Valid (eps_g, delta_g + delta_dprime) filter: HALT iff the Theorem 5.1 statistic at 2 eps_i exceeds "
          "eps_g, or sum 2 delta_i/(eps_i e^{eps_i}) exceeds delta_dprime. A round with eps_i = 0 < delta_i "
          "makes the lifted sum +oo, hence HALT."))
register(SpecEntry(
    id="rruv16.lemma3_3.filter.thm3_4", title="basic filter lifted to approximate-DP rounds",
    kind=Kind.FILTER, source=src("Lemma 3.3 applied to Theorem 3.4"),
    params=("eps_g", "delta_dprime"), aggregates=("S2", "LIFT"), expr=S2,
    halt=sp.Or(S2 > eps_g, LIFT > delta_dprime), domain=(eps_g > 0, delta_dprime > 0),
    monotone={"S2": +1, "LIFT": +1},
    notes="The pure base filter at 2 eps_i; valid (eps_g, delta_dprime) filter. (Plain basic composition "
          "sum eps_i, sum delta_i of Thm 2.9 needs fixed parameters; for adaptive parameters the lift is what "
          "RRUV16 proves.)"))

# ------------------------------------------------------------------------------------------ Lemma 6.4
_U64 = A + thm4_4_bound(V, x, sp.log(2 / delta_g))
register(SpecEntry(
    id="rruv16.lemma6_4", title="odometer with a fixed tuning parameter x", kind=Kind.ODOMETER,
    source=src("Lemma 6.4"), params=("x", "delta_g"), aggregates=("A", "V"), expr=_U64,
    domain=(x > 0,) + DELTA_SMALL, per_round_domain=PURE_ROUNDS, monotone={"A": +1, "V": +1, "x": 0},
    notes="(u, delta_g) odometer: sum eps_j (e^{eps_j}-1)/2 + sqrt(2 (V + x)(1 + log(V/x + 1)/2) log(2/delta_g))."))
