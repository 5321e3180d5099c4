"""Claims for the Renyi / zCDP filters whose budget is the optimal single-order RDP -> DP conversion (spec
fz21.thm4_3.optimal, fz21.thm4_3.rr.optimal, fz21.thm4_7.optimal): why the stopped interaction is a pair with
D_alpha <= B in each direction (so the optimal conversion applies), and a validity check that can fail."""

from __future__ import annotations

import itertools
from fractions import Fraction

import sympy as sp
from flint import arb

from dpbounds.evaluation.numeric import arb_endpoints, arb_prec, fraction_to_arb

from ..core import Verdict, claim
from .filters import _validity, rr_filter_exact_report
from dpbounds.accounting.filters import Filter, optimal_budget, rr_rdp_upper
from dpbounds.evaluation.rdp_conversions import _Curve, _delta_ends, _frac_round, _shrunk_feasible

SRC = ("FZ21 Theorem 4.3 and its proof (seed 004_8eb651b0fc92abd6.txt, l. 288-306; Theorem 3.1, l. 178-200); "
       "Asoodeh, Liao, Calmon, Kosut, Sankar, ISIT 2020, arXiv:2001.05990v1, Lemma 1 (conversions.rdp.optimal)")


def _a(q) -> arb:
    return fraction_to_arb(Fraction(q))


def _renyi_arb(P: list[arb], Q: list[arb], a: Fraction) -> arb:
    """exp((a - 1) D_a(P||Q)) = sum_x P(x)^a Q(x)^(1-a) over the support of Q (P << Q checked by the caller)."""
    A = _a(a)
    return sum(((A * p.log()) + (1 - A) * q.log()).exp() for p, q in zip(P, Q) if not p == 0)


def _hockey(P: list[arb], Q: list[arb], gamma: arb) -> arb:
    """E_gamma(P||Q) = sum_x (P(x) - gamma Q(x))_+ (a ball; terms whose sign arb cannot decide are kept as max(0, .)
    through the union with 0)."""
    tot = arb(0)
    for p, q in zip(P, Q):
        t = p - gamma * q
        if t > 0:
            tot += t
        elif not t < 0:
            tot += t.union(arb(0))
    return tot


def _stopped_laws(eps_first: Fraction, eps_second: dict[int, Fraction], charge, budget: Fraction):
    """The exact laws (P, Q) of a two-round adaptive RR interaction stopped by the rule 'CONT iff sum of charges <=
    budget': round 1 is RR(eps_first) (output 1 w.p. e^eps/(1 + e^eps) under P, 1/(1 + e^eps) under Q); round 2 is
    RR(eps_second[o1]) if the filter admits it, else the transcript stops at (o1,).  Returns (P, Q, charges by path)."""
    def rr(e: Fraction, b: int, under_p: bool) -> arb:
        x = _a(e).exp()
        hi = x / (1 + x)
        lo = 1 / (1 + x)
        return (hi if b == 1 else lo) if under_p else (lo if b == 1 else hi)
    P, Q, paths = [], [], []
    c1 = charge(eps_first)
    if c1 > budget:
        return [arb(1)], [arb(1)], [Fraction(0)]  # nothing runs: the empty transcript
    for o1 in (0, 1):
        e2 = eps_second[o1]
        c2 = c1 + charge(e2)
        if c2 <= budget:
            for o2 in (0, 1):
                P.append(rr(eps_first, o1, True) * rr(e2, o2, True))
                Q.append(rr(eps_first, o1, False) * rr(e2, o2, False))
                paths.append(c2)
        else:
            P.append(rr(eps_first, o1, True))
            Q.append(rr(eps_first, o1, False))
            paths.append(c1)
    return P, Q, paths


def stopped_pair_report() -> tuple[bool, list[str]]:
    """Certified: for two-round adaptive RR interactions stopped by the Renyi rule at budget B, D_alpha of the stopped
    transcript pair (both directions, computed exactly from the laws) is <= B, and the largest charge sum over the
    paths, too; and E_Q[(dP/dQ)^alpha] = E_P[(dP/dQ)^(alpha - 1)] on these pairs."""
    ok, rows = True, []
    with arb_prec(256):
        for a, B, e1, e2 in ((Fraction(4), Fraction(1, 2), Fraction(3, 10), {0: Fraction(1, 10), 1: Fraction(9, 10)}),
                             (Fraction(12), Fraction(2, 5), Fraction(1, 5), {0: Fraction(1, 2), 1: Fraction(1, 20)}),
                             (Fraction(3, 2), Fraction(1, 4), Fraction(1, 10), {0: Fraction(2), 1: Fraction(1, 5)})):
            P, Q, paths = _stopped_laws(e1, e2, lambda e: rr_rdp_upper(a, e), B)
            fwd = _renyi_arb(P, Q, a)
            bwd = _renyi_arb(Q, P, a)
            bound = ((_a(a) - 1) * _a(B)).exp()
            A = _a(a)
            alt = sum((p * ((A - 1) * (p.log() - q.log())).exp()) for p, q in zip(P, Q))
            same = bool(abs(alt - fwd) < _a(Fraction(1, 10**60)))
            good = bool(fwd <= bound) and bool(bwd <= bound) and max(paths) <= B and same
            ok &= good
            rows.append(f"alpha={a}, B={B}, eps1={e1}, eps2={e2}: {len(P)} transcripts, max charge sum "
                        f"{float(max(paths)):.6g}, D_alpha fwd {float((fwd.log() / (A - 1)).mid()):.6g}, bwd "
                        f"{float((bwd.log() / (A - 1)).mid()):.6g} <= B: {good}")
    return ok, rows


@claim("fz21.thm4_3.optimal.stopped_pair", spec_id="fz21.thm4_3.optimal",
       statement="If every round's charge rho_t bounds its conditional Renyi divergence of order alpha in both "
                 "directions given the past (FZ21 eq. (1)), the interaction stopped before the first round that would "
                 "make sum rho_t exceed B is a pair (P, Q) of transcript laws with D_alpha(P||Q) <= B and "
                 "D_alpha(Q||P) <= B; hence for B <= R*(alpha, eps_g, delta_g) (the optimal conversion's largest "
                 "budget) it is (eps_g, delta_g)-DP, and R* >= CKS20's budget",
       source=SRC, method="proof steps; arb on exact stopped laws; arb decisions on the certified budget",
       unquoted="FZ21 Theorem 4.3 is quoted from the seed (it states D_alpha^<-> of the stopped output <= B); "
                "combining it with the optimal conversion is argued here")
def stopped_pair() -> Verdict:
    steps = [
        "1. (FZ21 Thm 3.1/4.3, seed l. 190-200, 294-306.)  Fix inputs (S1, S2); transcripts a^(t) ~ S2's law Q.  "
        "Loss^(t) = prod_{j<=t} (p_j/q_j)^alpha with p_j, q_j the round-j conditional likelihoods; M_t = Loss^(t) "
        "e^{-(alpha-1) sum_{j<=t} rho_j}.  rho_t is F_{t-1}-measurable and E_Q[(p_t/q_t)^alpha | F_{t-1}] = e^{(alpha-1)"
        " D_alpha(P_t||Q_t)} <= e^{(alpha-1) rho_t}, so E[M_t | F_{t-1}] <= M_{t-1}: a nonnegative supermartingale.",
        "2. The filter's decision to run round t+1 depends only on (rho_1..rho_{t+1}), which is F_t-measurable, so the "
        "number of rounds T is a stopping time and T <= N.  The stopped transcript a^(T) determines T (the decisions "
        "are a function of it), so its law under S1 is P and under S2 is Q with dP/dQ(a^(T)) = prod_{j<=T} p_j/q_j "
        "(finite rho_j gives P_j << Q_j, hence P << Q).  Optional stopping: E_Q[(dP/dQ)^alpha e^{-(alpha-1) sum_{j<=T} "
        "rho_j}] = E[M_T] <= 1, and sum_{j<=T} rho_j <= B surely, so E_Q[(dP/dQ)^alpha] <= e^{(alpha-1) B}: "
        "D_alpha(P||Q) <= B.  This IS the Renyi divergence of the pair (not only a supermartingale statement), "
        "and E_Q[(dP/dQ)^alpha] = E_P[(dP/dQ)^(alpha-1)].  Swapping S1 and S2 (rho_t bounds both directions) gives "
        "D_alpha(Q||P) <= B.",
        "3. conversions.rdp.optimal (ALCKS20 Lemma 1; proofs_check conversions.rdp.optimal.dual_bound): every pair "
        "with D_alpha(P||Q) <= B has E_{e^eps}(P||Q) <= delta*(alpha, B, e^eps), nondecreasing in B.  With B <= R* "
        "certified by a dual certificate (delta*(alpha, B, e^eps_g) <= delta_g), P(E) <= e^eps_g Q(E) + delta_g for "
        "every event, and by step 2 in the other direction too: (eps_g, delta_g)-DP.",
        "4. fz21.thm4_7.optimal: rho_t-zCDP rounds are (alpha, alpha rho_t)-RDP; the rule sum rho_t <= B is the "
        "order-alpha rule at budget alpha B (FZ21 Remark 4.4), and alpha B <= R* gives the same conclusion."]
    ok1, rows1 = stopped_pair_report()
    rows2, ok2 = [], True
    for a, eg, dg in (("12", "1", "1e-3"), ("22", "1", "1e-6"), ("4", "2", "1e-5")):
        b = optimal_budget("fz21.thm4_3.optimal", a, eg, dg)
        A, E, D = Fraction(a), Fraction(eg), Fraction(dg)
        dhi = _delta_ends(A, b, E, 256)[1]
        cks = E - (sp.log(1 / sp.Rational(D)) + (A - 1) * sp.log(1 - 1 / sp.Rational(A)) - sp.log(sp.Rational(A))) \
            / (A - 1)
        cksf = float(cks.evalf(30))
        good = dhi <= D and float(b) >= cksf
        ok2 &= good
        rows2.append(f"(alpha, eps_g, delta_g) = ({a}, {eg}, {dg}): B = {float(b):.10g}, certified delta*(B) <= "
                     f"{float(dhi):.6g} <= delta_g, CKS20 budget {cksf:.10g}: {good}")
    text = "  ".join(steps) + "  Certified on exact stopped laws: " + "; ".join(rows1) + ".  Budgets: " + \
        "; ".join(rows2)
    return Verdict("proved" if ok1 and ok2 else "inconclusive", text, "proof steps + arb")


# ------------------------------------------------------------------------------------------ validity (can fail)

def _extremal_pair(a: Fraction, R: Fraction, eps: Fraction):
    """A binary pair (P, Q) with D_alpha(P||Q) <= R whose E_{e^eps} is within ~1e-20 of delta*(alpha, R, e^eps) (the
    two-point optimum from dpbounds.evaluation.rdp_conversions, checked feasible in arb)."""
    cur = _Curve(a, R, 60)
    ctx = cur.ctx
    if eps - R <= Fraction(float(ctx.log1p(-1 / cur.a))):  # y = 0 end: P = point mass, Q(A) = e^-R
        q = Fraction(float(ctx.exp(-cur.R))) * (1 + Fraction(1, 2**40))
        return [Fraction(1), Fraction(0)], [q, 1 - q]
    z = cur.z_for(2, ctx.exp(ctx.mpf(eps.numerator) / eps.denominator))
    x_m, y_m = cur.point(z)[:2]
    x, y = _frac_round(ctx, x_m, 150), _frac_round(ctx, y_m, 150)
    with arb_prec(200):
        c = ((_a(a) - 1) * _a(R)).exp()
        xs, q = _shrunk_feasible(a, c, x, y, 150)
    return [q * xs, 1 - q * xs], [q, 1 - q]


def _renyi_upper(P: list[Fraction], Q: list[Fraction], a: Fraction) -> Fraction:
    """A rational >= max(D_alpha(P||Q), D_alpha(Q||P)) of two finite laws (arb, rounded up): the round's charge."""
    with arb_prec(200):
        A = _a(a)
        out = Fraction(0)
        for U, V in ((P, Q), (Q, P)):
            if any(u > 0 and v == 0 for u, v in zip(U, V)):
                return Fraction(10**9)  # infinite divergence: never admitted
            s = _renyi_arb([_a(u) for u in U], [_a(v) for v in V], a)
            out = max(out, arb_endpoints(s.log() / (A - 1))[1])
    return out * (1 + Fraction(1, 2**100)) + Fraction(1, 2**150)


def extremal_report(scale: Fraction = Fraction(1)) -> tuple[bool, list[str]]:
    """(every interaction <= delta_g, rows): one- and two-round interactions in which the analyst proposes, after an
    RR(eps1) warm-up round, the binary pair that is extremal for the optimal conversion at the remaining budget
    (charged its Renyi divergence in both directions, rounded up), against fz21.thm4_3.optimal at (alpha, eps_g,
    delta_g) with the budget multiplied by ``scale`` (11/10: a deliberately 10% too large budget).  The exact delta of
    the stopped transcript pair (both directions) is computed in arb."""
    ok, rows = True, []
    for a, eg, dg, e1 in ((Fraction(12), Fraction(1), Fraction(1, 1000), None),
                          (Fraction(12), Fraction(1), Fraction(1, 1000), Fraction(1, 100)),
                          (Fraction(22), Fraction(1), Fraction(1, 10**6), Fraction(1, 50)),
                          (Fraction(3), Fraction(1, 2), Fraction(1, 100), Fraction(1, 20))):
        B = optimal_budget("fz21.thm4_3.optimal", a, eg, dg) * scale
        f = Filter("fz21.thm4_3.optimal", {"alpha": a, "eps_g": eg, "delta_g": dg, "B": B})
        laws = [([Fraction(1)], [Fraction(1)])]  # (P, Q) of the transcript so far
        spent = Fraction(0)
        if e1 is not None:
            c = rr_rdp_upper(a, e1)
            if f.try_spend(rho=c):
                spent += c
                laws = [("rr", e1)]
        # the analyst's extremal proposal at what is left, the same whatever round 1 showed (a valid adaptive choice)
        left = B - spent
        P2, Q2 = _extremal_pair(a, left * (1 - Fraction(1, 2**60)), eg)
        c2 = _renyi_upper(P2, Q2, a)
        # shrink the proposal until its two-sided charge fits (the reverse direction may be the larger one)
        t = 0
        while not f.try_spend(rho=c2) and t < 40:
            t += 1
            P2, Q2 = _extremal_pair(a, left * (1 - Fraction(1, 2**60)) * (1 - Fraction(t, 200)), eg)
            c2 = _renyi_upper(P2, Q2, a)
        if t >= 40:
            rows.append(f"alpha={a}: no extremal round admitted")
            continue
        with arb_prec(256):
            if laws and laws[0] == ("rr", e1):
                x = _a(e1).exp()
                r1p, r1q = [x / (1 + x), 1 / (1 + x)], [1 / (1 + x), x / (1 + x)]
            else:
                r1p, r1q = [arb(1)], [arb(1)]
            P = [u * _a(v) for u, v in itertools.product(r1p, P2)]
            Q = [u * _a(v) for u, v in itertools.product(r1q, Q2)]
            g = _a(eg).exp()
            ends = [arb_endpoints(_hockey(U, V, g)) for U, V in ((P, Q), (Q, P))]
        good = all(e is not None for e in ends)
        d = max(e[1] for e in ends) if good else Fraction(1)
        good = good and d <= dg
        ok &= good
        rows.append(f"alpha={a}, (eps_g, delta_g)=({eg}, {dg}), B={float(B):.8g}{'' if e1 is None else f', warm-up RR({e1})'}"
                    f": extremal round charged {float(c2):.8g}, exact delta {float(d):.6g} <= delta_g: {good}")
    return ok, rows


@claim("fz21.thm4_3.optimal.validity", spec_id="fz21.thm4_3.rr.optimal",
       statement="Interactions stopped by the optimal-budget Renyi filters are exactly (eps_g, delta_g)-DP: RR streams "
                 "and adaptive adversaries (exact engine) at (1, 1e-3), alpha = 12, and one- and two-round "
                 "interactions whose last round is the optimal conversion's extremal binary pair (where the filter is "
                 "tight); a filter charging eps/2 and a 10% larger budget are both caught",
       source=SRC + "; WRRW23 Lemma 11 (exact engine)", method="exact engine + arb on exact laws",
       unquoted="a certified validity check of a new instantiation, not a quoted statement")
def optimal_validity() -> Verdict:
    ok_e, rows_e = rr_filter_exact_report(entry_id="fz21.thm4_3.rr.optimal")
    bad_e, bad_rows_e = rr_filter_exact_report(broken=True, entry_id="fz21.thm4_3.rr.optimal")
    ok_x, rows_x = extremal_report()
    bad_x, bad_rows_x = extremal_report(Fraction(11, 10))
    return _validity(ok_e and ok_x, not bad_e and not bad_x, rows_e + rows_x, bad_rows_e + bad_rows_x, "",
                     ".  Broken (charge at eps/2; budget x 1.1): ", "exact engine + arb")
