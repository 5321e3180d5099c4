"""Nikolov, CSC2419 (Winter 2017) lecture 5 notes, "Advanced Composition" (scribe: A. Kattis).

Seed: ``001_67d4c89f55229a83.txt`` ("seed line N" below is a line of that file).  Every mechanism in the notes is
pure eps-DP; the only delta is the output delta of Theorem 2.  Natural logarithms throughout.
"""

from __future__ import annotations

import sympy as sp

from .core import Kind, Source, SpecEntry, register, sym

SEED = "001_67d4c89f55229a83.txt"
eps, k, delta, t, alpha, beta = sym("eps"), sym("k"), sym("delta"), sym("t"), sym("alpha"), sym("beta")


def src(where: str) -> Source:
    return Source("Nikolov17", where, SEED)


register(SpecEntry(
    id="nikolov17.thm1", title="simple composition: k eps-DP mechanisms compose to k eps-DP", kind=Kind.COMPOSITION,
    source=src("Theorem 1 (Simple Composition)"), params=("eps", "k"), expr=k * eps, domain=(eps >= 0, k >= 1),
    extra={"delta": sp.Integer(0)}, monotone={"eps": +1, "k": +1}, same_as=("rruv16.thm2_9",),
    notes="Seed line 9: M_1..M_k eps-DP (adaptively chained) => M is k eps-DP.  RRUV16 Theorem 2.9 with eps_i = eps, "
          "delta_i = 0."))

_DOM = (eps >= 0, k >= 1, delta > 0, delta < 1)
register(SpecEntry(
    id="nikolov17.thm2.as_stated", title="advanced composition as stated: sqrt(2k log 1/delta) + k(e^eps - 1)",
    kind=Kind.COMPOSITION, source=src("Theorem 2 (Advanced Composition), statement"), params=("eps", "k", "delta"),
    expr=sp.sqrt(2 * k * sp.log(1 / delta)) + k * (sp.exp(eps) - 1), domain=_DOM, extra={"delta": delta},
    monotone={"eps": +1, "k": +1, "delta": -1}, same_as=("rruv16.thm2_10",),
    proof_claims=("nikolov17.thm2.stated_vs_derived",),
    notes="Seed line 13: 'M(x) is (eps', delta)-DP for all delta and eps' = sqrt(2k log 1/delta) + k(e^eps - 1)'.  "
          "Both terms lack the factor eps that the proof's eq. (6) carries: as_stated = as_derived / eps exactly "
          "(nikolov17.thm2.as_derived), so it exceeds the derived bound iff eps < 1.  As printed it is still a valid "
          "bound (its term k(e^eps - 1) alone is >= k eps, simple composition) but never better than Theorem 1.  "
          "'for all delta' needs delta in (0, 1) for the square root; extra delta = the output delta."))
register(SpecEntry(
    id="nikolov17.thm2.as_derived", title="advanced composition as derived in the proof (eq. (6)): "
    "k eps (e^eps - 1) + eps sqrt(2 k log 1/delta)", kind=Kind.COMPOSITION, source=src("proof of Theorem 2, eq. (6)"),
    params=("eps", "k", "delta"), expr=k * eps * (sp.exp(eps) - 1) + eps * sp.sqrt(2 * k * sp.log(1 / delta)),
    domain=_DOM, extra={"delta": delta}, monotone={"eps": +1, "k": +1, "delta": -1}, same_as=("rruv16.thm2_10",),
    proof_claims=("nikolov17.thm2.stated_vs_derived", "nikolov17.thm7.azuma"),
    notes="Seed line 86-88: Azuma with t = sqrt(2 log 1/delta), alpha = eps, beta = eps(e^eps - 1) gives "
          "P(sum Z_i > k eps(e^eps - 1) + eps sqrt(2 log(1/delta) k)) < delta.  Equal to RRUV16 Theorem 2.10 "
          "(Dwork-Rothblum-Vadhan) with per-round delta = 0 and dhat = delta.  The deviation term eps sqrt(2k log 1/"
          "delta) = t alpha sqrt(k) is the standard Azuma-Hoeffding one (nikolov17.thm7.standard), not Theorem 7 as "
          "written (t sqrt(k alpha) would give sqrt(2 k eps log 1/delta)).  Eq. (6) writes '< delta' where Azuma "
          "gives '<= exp(-t^2/2) = delta'."))
register(SpecEntry(
    id="nikolov17.lemma6", title="D_KL(X||Y) <= eps (e^eps - 1) when D_inf <= eps both ways", kind=Kind.LEMMA,
    source=src("Lemma 6"), params=("eps",), lhs=eps * sp.tanh(eps / 2), expr=eps * (sp.exp(eps) - 1),
    domain=(eps >= 0,), monotone={"eps": +1}, proof_claims=("nikolov17.lemma6",),
    notes="Seed line 46: D_inf(X||Y) <= eps and D_inf(Y||X) <= eps => D_KL(X||Y) <= eps (e^eps - 1) ~ eps^2.  lhs: "
          "the KL divergence of eps-randomized response, eps tanh(eps/2) = eps (e^eps - 1)/(e^eps + 1), the largest "
          "KL divergence between two distributions that are eps-close both ways; the lemma's bound is larger by the "
          "factor e^eps + 1.  This is Dwork-Rothblum-Vadhan's constant; RRUV16 Lemma 4.6 (rruv16.lemma4_6) halves it "
          "and Bun-Steinke (wrrw23.lemma10) gives eps^2/2.  The proof (seed line 48-58) starts from D_KL(X||Y) <= "
          "D_KL(Y||X) + D_KL(X||Y) (Proposition 5) and calls the step sum |q - p| max|log q/p| 'Hoelder with p = 1, "
          "q = infinity'; the chain is sound."))
_AZUMA_DOM = (k >= 1, t > 0, alpha > 0, beta >= 0)
_azuma_written = k * beta + t * sp.sqrt(k * alpha)
_AZUMA_NOTES = ("Seed line 60-62: Z_1..Z_k real with |Z_i| <= alpha and E[Z_i | Z_1..Z_{i-1}] <= beta => "
                "P(sum Z_i > k beta + t sqrt(k alpha)) <= exp(-t^2/2).  expr = the deviation threshold, extra "
                "'probability' = exp(-t^2/2).  As written the deviation t sqrt(k alpha) is wrong whenever alpha != 1 "
                "(proofs_check: a one-step counterexample with alpha = 100); the standard Azuma-Hoeffding deviation is "
                "t alpha sqrt(k) (nikolov17.thm7.standard), which is what the proof of Theorem 2 uses.")
register(SpecEntry(
    id="nikolov17.thm7", title="Azuma as written: P(sum Z_i > k beta + t sqrt(k alpha)) <= exp(-t^2/2)",
    kind=Kind.BOUNDARY, source=src("Theorem 7 (Azuma), eq. (4), as written"), params=("k", "t", "alpha", "beta"),
    expr=_azuma_written, domain=_AZUMA_DOM, extra={"probability": sp.exp(-t**2 / 2)},
    monotone={"k": +1, "t": +1, "alpha": +1, "beta": +1}, proof_claims=("nikolov17.thm7.azuma",),
    notes=_AZUMA_NOTES))
register(SpecEntry(
    id="nikolov17.thm7.as_stated", title="Azuma as written (alias of nikolov17.thm7)",
    kind=Kind.BOUNDARY, source=src("Theorem 7 (Azuma), eq. (4), as written"), params=("k", "t", "alpha", "beta"),
    expr=_azuma_written, domain=_AZUMA_DOM, extra={"probability": sp.exp(-t**2 / 2)},
    monotone={"k": +1, "t": +1, "alpha": +1, "beta": +1}, same_as=("nikolov17.thm7",),
    proof_claims=("nikolov17.thm7.azuma",),
    notes="The same statement as nikolov17.thm7, kept under this id because the proofs_check claim "
          "nikolov17.thm7.azuma names it.  " + _AZUMA_NOTES))
register(SpecEntry(
    id="nikolov17.thm7.standard", title="Azuma-Hoeffding: P(sum Z_i > k beta + t alpha sqrt(k)) <= exp(-t^2/2)",
    kind=Kind.BOUNDARY, source=src("Theorem 7, corrected (Azuma-Hoeffding with range 2 alpha)"),
    params=("k", "t", "alpha", "beta"), expr=k * beta + t * alpha * sp.sqrt(k), domain=_AZUMA_DOM,
    extra={"probability": sp.exp(-t**2 / 2)}, monotone={"k": +1, "t": +1, "alpha": +1, "beta": +1},
    proof_claims=("nikolov17.thm7.azuma",),
    notes="Not in the notes as such: the standard form.  Z_i - E[Z_i | past] lies in an interval of length 2 alpha, so "
          "by Hoeffding's lemma it is alpha^2-sub-Gaussian and P(sum (Z_i - mu_i) > t alpha sqrt(k)) <= exp(-t^2/2); "
          "with mu_i <= beta this gives the bound.  The proof of Theorem 2 uses this form (eq. (6))."))
