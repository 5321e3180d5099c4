"""Claims behind the cheap certified bounds on composition.sgm.* (dpbounds.evaluation.sgm_quick) that the audit's
oracle uses before the PLD bracket: an RDP upper bound and a one-step lower bound.

Notation as in claims/composition.py: P = (1 - q) N(0, s^2) + q N(1, s^2), Q = N(0, s^2) (the remove pair; add is
(Q, P)); H_t(A || B) = sup_E A(E) - t B(E); D_a the Renyi divergence of order a; K(n) = log E_Q[(dP/dQ)^n] =
(n - 1) D_n(P || Q) (mechanisms.sgm.rdp, its binomial expansion at integer n).
"""

from __future__ import annotations

import random
from fractions import Fraction as F

import sympy as sp

from ..core import Verdict, claim
from .composition import _H, _random_pair
from dpbounds.evaluation import sgm_pld as S
from dpbounds.evaluation import sgm_quick as Q

SRC = ("MTZ19 (Mironov, Talwar, Zhang 2019, arXiv:1908.10530v1, Sec. 3.3: the binomial expansion at integer orders), "
       "CKS20 (Canonne, Kamath, Steinke 2020, arXiv:2004.00010v4) Prop. 12 = BBGHS20 (Balle, Barthe, Gaboardi, Hsu, "
       "Sato 2020, arXiv:1905.09982v2) Thm 21; the additivity over products and the delta form are derived here")
SRC_LOW = "the data-processing inequality for H_t (a garbling never increases it); derived and checked here"
WHY = ("the papers are not among the seed texts: each step is proved here or is an existing claim "
       "(mechanisms.sgm.rdp.a_ge_b, conversions.rdp.cks20.via_dual)")

#: (q, sigma, k, delta, eps) points of the numeric checks against the certified PLD bracket
POINTS = ((F(1, 100), F(1), 100, F(1, 10**5), F(1)), (F(1, 10), F(2), 30, F(1, 10**6), F(1, 2)),
          (F(1, 1000), F(4, 5), 400, F(1, 10**8), F(3, 10)), (F(3, 10), F(3), 10, F(1, 10**3), F(2)))



def _bracketed():
    """Each point of POINTS with the certified PLD bracket's eps(delta) and delta(eps) ends (grid of width ~1e-3)."""
    for q, s, k, delta, eps in POINTS:
        b = S.bracket(q, s, k, min(S._h_for(0.75, k, 1e-3), F(1, -(-q.denominator // q.numerator))))
        yield q, s, k, delta, eps, b.eps(delta), b.delta(eps)


@claim("composition.sgm.quick.rdp_upper", spec_id="composition.sgm.eps",
       statement="For q in (0, 1], sigma > 0, integer k >= 1: composition.sgm.eps(delta) <= min over integer n >= 2 "
                 "of R_n + log(1 - 1/n) - (log delta + log n)/(n - 1) and composition.sgm.delta(eps) <= min(1, min_n "
                 "exp((n - 1)(R_n - eps + log(1 - 1/n)) - log n)), R_n = k K(n)/(n - 1).  Proof: D_n(P^k || Q^k) = "
                 "k D_n(P || Q) (the integrand of exp((n - 1) D_n) factorizes over the coordinates); D_n(Q^k || P^k) = "
                 "k D_n(Q || P) <= k D_n(P || Q) (mechanisms.sgm.rdp.a_ge_b); so both directions' pairs satisfy "
                 "D_n <= R_n and CKS20 Prop. 12 (conversions.rdp.cks20.via_dual) bounds each direction's H_{e^eps} "
                 "by delta at the eps form; the delta form is the same statement solved for delta (the eps form "
                 "decreases strictly and continuously in delta, onto R; where the delta form is >= 1 it holds "
                 "trivially).  Checked: sympy (the factorization and the inversion) and, at four points, both bounds "
                 "at or above the certified PLD bracket's lower end",
       source=SRC, method="sympy + certified PLD brackets", unquoted=WHY)
def rdp_upper() -> Verdict:
    n, R, e, d = sp.symbols("n R e d", positive=True)
    eps_form = R + sp.log(1 - 1 / n) - (sp.log(d) + sp.log(n)) / (n - 1)
    delta_form = sp.exp((n - 1) * (R - e + sp.log(1 - 1 / n)) - sp.log(n))
    inverse = sp.simplify(sp.expand_log(eps_form.subs(d, delta_form), force=True) - e) == 0
    x, y, a, p1, p2, q1, q2 = sp.symbols("x y a p1 p2 q1 q2", positive=True)
    # the product pair's integrand (p1 p2)^a (q1 q2)^(1 - a) is the product of the coordinates' (Fubini)
    fact = sp.simplify(sp.powsimp((p1 * p2) ** a * (q1 * q2) ** (1 - a), force=True)
                       - sp.powsimp(p1 ** a * q1 ** (1 - a) * p2 ** a * q2 ** (1 - a), force=True)) == 0
    rows, ok = [f"delta form inverts the eps form: {inverse}", f"product integrand factorizes: {fact}"], inverse and fact
    for q, s, k, delta, eps, (elo, ehi), (dlo, dhi) in _bracketed():
        ue, ud = Q.rdp_eps_upper(q, s, k, delta), Q.rdp_delta_upper(q, s, k, eps)
        good = ue >= elo and ud >= dlo
        ok &= good
        rows.append(f"q={q}, s={s}, k={k}: eps(delta={delta}) in [{elo:.8g}, {ehi:.8g}], RDP bound {ue:.8g}; "
                    f"delta(eps={eps}) in [{dlo:.6g}, {dhi:.6g}], RDP bound {ud:.6g}")
    return Verdict("verified" if ok else "refuted", "; ".join(rows), "sympy + arb")


@claim("composition.sgm.quick.one_step_lower", spec_id="composition.sgm.eps",
       statement="For every k >= 1 and t >= 0, H_t(A^k || B^k) >= H_t(A || B) for any pair (A, B) (the map keeping "
                 "the first coordinate is a garbling applied to both product laws, and a garbling never increases "
                 "H_t: a test on the first coordinate is a test on the product), in both directions; hence "
                 "composition.sgm.delta(q, s, k, eps) >= its k = 1 value and composition.sgm.eps(q, s, k, delta) >= "
                 "any e whose certified k = 1 delta(e) exceeds delta.  Checked: exactly in rationals on 40 random "
                 "discrete pairs, k = 2 and 3, five t each; and at four points against the certified PLD bracket",
       source=SRC_LOW, method="exact rationals + certified PLD brackets", unquoted=WHY)
def one_step_lower() -> Verdict:
    rng = random.Random(20261128)
    ok, bad = True, 0
    for _ in range(40):
        atoms = _random_pair(rng, rng.randint(2, 4))
        for k in (2, 3):
            for t in (F(0), F(1, 2), F(1), F(3, 2), F(4)):
                if _H(atoms, t, k) < _H(atoms, t, 1):
                    ok, bad = False, bad + 1
    rows = [f"H_t(A^k || B^k) >= H_t(A || B): {400 - bad} of 400 (pair, k, t) cases hold (40 pairs x "
            f"k in (2, 3) x 5 t; both directions are pairs too)"]
    for q, s, k, delta, eps, (elo, ehi), (dlo, dhi) in _bracketed():
        le, ld = Q.one_step_eps_lower(q, s, delta), Q.one_step_delta_lower(q, s, eps)
        good = le <= ehi and ld <= dhi
        ok &= good
        rows.append(f"q={q}, s={s}, k={k}: one-step eps lower {le:.8g} <= bracket [{elo:.8g}, {ehi:.8g}]; "
                    f"one-step delta lower {ld:.6g} <= bracket [{dlo:.6g}, {dhi:.6g}]")
    return Verdict("verified" if ok else "refuted", "; ".join(rows), "exact rationals + arb")
