"""Per-round aggregates: every sequence-dependent bound sees the realized (eps_i, delta_i) only through these.

An aggregate named ``X`` is the entry ``aggregate.X`` whose ``expr`` is the *per-round term* written in the
per-round symbols ``eps``/``delta`` (or ``rho``); its value after n rounds is the sum of the term over rounds
1..n.  A term may be ``+oo`` for some rounds (RRUV16 Lemma 3.3's lift when eps_i = 0 < delta_i).
"""

from __future__ import annotations

import sympy as sp

from .core import Kind, Source, SpecEntry, register, sym

eps, delta, rho = sym("eps"), sym("delta"), sym("rho")

_RRUV = "000_6d22f6a3880a066d.txt"
_WRRW = "003_8948d815f0b87bba.txt"
_FZ = "004_8eb651b0fc92abd6.txt"

PER_ROUND = (eps >= 0, delta >= 0, delta < 1)


def _agg(name: str, title: str, term: sp.Expr, source: Source, notes: str = "", params=("eps", "delta")) -> SpecEntry:
    return register(SpecEntry(
        id=f"aggregate.{name}", title=title, kind=Kind.AGGREGATE, source=source, params=tuple(params),
        expr=term, domain=PER_ROUND if "delta" in params else (sym(params[0]) >= 0,), notes=notes,
        monotone={params[0]: +1}))


V = _agg("V", "intrinsic time V_n = sum eps_i^2", eps**2,
         Source("RRUV16", "Theorem 5.1 (sum_j eps_j^2)", _RRUV),
         "WRRW23 writes V_n = sum_{m<=n} eps_m^2 (Thm 2, Thm 3); the same quantity.")
S = _agg("S", "basic composition sum_i eps_i", eps, Source("RRUV16", "Theorem 2.9 / Theorem 3.4", _RRUV))
D = _agg("D", "delta spent sum_i delta_i", delta, Source("RRUV16", "Theorem 2.9; WRRW23 Thm 1-3", _RRUV))
A = _agg("A", "RRUV16 mean-loss sum sum_i eps_i (e^{eps_i} - 1)/2", eps * (sp.exp(eps) - 1) / 2,
         Source("RRUV16", "Lemma 4.6 / Theorem 5.1", _RRUV),
         "The conditional mean of the privacy loss is at most eps_i (e^{eps_i}-1)/2 (Lemma 4.6). "
         "Bun-Steinke's eps_i^2/2 (WRRW23 Lemma 10) is the tighter bound used by WRRW23.")
KOV = _agg("KOV", "KOV15 mean term sum_i eps_i (e^{eps_i} - 1)/(e^{eps_i} + 1)",
           eps * (sp.exp(eps) - 1) / (sp.exp(eps) + 1),
           Source("KOV15", "Theorem 3.5 (heterogeneous advanced composition)"),
           "Equals eps * tanh(eps/2).  WRRW23 (Sec. 3) notes it is <= eps^2/2 with difference O(eps^4).")
# RRUV16 Lemma 3.3: the pure-DP base bound is applied to 2 eps_i; the deltas are charged through
# 2 delta_i / (eps_i e^{eps_i}) (Lemma 2.3's pointwise conversion).  eps_i = 0 < delta_i makes it infinite.
LIFT = _agg("LIFT", "RRUV16 Lemma 3.3 lifted delta sum_i 2 delta_i / (eps_i e^{eps_i})",
            sp.Piecewise((sp.Integer(0), sp.Eq(delta, 0)), (sp.oo, sp.Eq(eps, 0)),
                         (2 * delta / (eps * sp.exp(eps)), True)),
            Source("RRUV16", "Lemma 3.3 with Lemma 2.3", _RRUV),
            "A round with delta_i = 0 contributes 0; a round with eps_i = 0 < delta_i contributes +oo.  Caution: the "
            "constant 2 delta/(eps e^eps) is RRUV16 Lemma 2.3's, which proofs_check refutes "
            "(rruv16.lemma2_3.second_conversion); the lifted bounds implement the paper as stated.")
# The same lift with a DP-to-pointwise constant that proofs_check proves (rruv16.lemma2_3.corrected_conversion):
# P[|L| > 2 eps] <= delta (1 + e^{-2 eps}) / (1 - e^{-eps}) under either draw.
LIFTC = _agg("LIFTC", "corrected lifted delta sum_i delta_i (1 + e^{-2 eps_i}) / (1 - e^{-eps_i})",
             sp.Piecewise((sp.Integer(0), sp.Eq(delta, 0)), (sp.oo, sp.Eq(eps, 0)),
                          (delta * (1 + sp.exp(-2 * eps)) / (1 - sp.exp(-eps)), True)),
             Source("RRUV16", "Lemma 3.3 with Lemma 2.3's second part corrected (dpbounds, proofs_check "
                    "rruv16.lemma2_3.corrected_conversion)", _RRUV),
             "Like LIFT, with the constant of the pointwise conversion proved in proofs_check instead of the refuted "
             "2 delta/(eps e^eps); larger than it for every eps > 0 (by the factor eps (e^{2eps} + 1)/(2 (e^eps - 1)) "
             "> 1).  delta_i = 0 contributes 0; eps_i = 0 < delta_i contributes +oo.")
V2 = _agg("V2", "lifted intrinsic time sum_i (2 eps_i)^2", (2 * eps)**2,
          Source("RRUV16", "Lemma 3.3 (base bound at 2 eps_i)", _RRUV), "Exactly 4 V.")
A2 = _agg("A2", "lifted mean-loss sum sum_i 2 eps_i (e^{2 eps_i} - 1)/2", 2 * eps * (sp.exp(2 * eps) - 1) / 2,
          Source("RRUV16", "Lemma 3.3 (base bound at 2 eps_i)", _RRUV))
S2 = _agg("S2", "lifted basic sum sum_i 2 eps_i", 2 * eps, Source("RRUV16", "Lemma 3.3 with Theorem 3.4", _RRUV))
R = _agg("R", "Renyi / zCDP spend sum_t rho_t", rho, Source("FZ21", "Theorem 4.3 / Remark 4.4", _FZ),
         params=("rho",))

#: name -> entry, for the evaluators
AGGREGATES = {e.id.split(".", 1)[1]: e for e in (V, S, D, A, KOV, LIFT, LIFTC, V2, A2, S2, R)}
