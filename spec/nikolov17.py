"""Nikolov, CSC2419 (Winter 2017) lecture 5 notes, "Advanced Composition" (scribe: A. Kattis).

Seed: ``001_67d4c89f55229a83.txt``.
"""

from __future__ import annotations

import sympy as sp

from .core import Kind, Source, SpecEntry, register, sym

SEED = "001_67d4c89f55229a83.txt"
eps, k, delta, t, a, b = sym("eps"), sym("k"), sym("delta"), sym("t"), sym("a"), sym("b")


def src(where: str) -> Source:
    return Source("Nikolov17", where, SEED)


_DOM = (eps >= 0, k >= 1, delta > 0, delta < 1)
register(SpecEntry(
    id="nikolov17.thm2.as_stated", title="advanced composition as stated: sqrt(2k log 1/delta) + k(e^eps - 1)",
    kind=Kind.COMPOSITION, source=src("Theorem 2 (statement)"), params=("eps", "k", "delta"),
    expr=sp.sqrt(2 * k * sp.log(1 / delta)) + k * (sp.exp(eps) - 1), domain=_DOM,
    same_as=("nikolov17.thm2.as_derived", "rruv16.thm2_10"), proof_claims=("nikolov17.thm2.stated_vs_derived",),
    notes="As printed: eps' = sqrt(2k log 1/delta) + k(e^eps - 1) -- both terms lack the factor eps that the proof "
          "(eq. (6)) carries."))
register(SpecEntry(
    id="nikolov17.thm2.as_derived", title="advanced composition as derived in the proof (eq. (6)): "
    "k eps (e^eps - 1) + eps sqrt(2 k log 1/delta)", kind=Kind.COMPOSITION, source=src("proof of Theorem 2, eq. (6)"),
    params=("eps", "k", "delta"), expr=k * eps * (sp.exp(eps) - 1) + eps * sp.sqrt(2 * k * sp.log(1 / delta)),
    domain=_DOM, same_as=("rruv16.thm2_10",), proof_claims=("nikolov17.thm2.stated_vs_derived",),
    notes="Equal to RRUV16 Theorem 2.10 (Dwork-Rothblum-Vadhan) with per-round delta = 0."))
register(SpecEntry(
    id="nikolov17.lemma6", title="D_KL(X||Y) <= eps (e^eps - 1) when D_inf <= eps both ways", kind=Kind.LEMMA,
    source=src("Lemma 6"), params=("eps",), lhs=eps * sp.tanh(eps / 2), expr=eps * (sp.exp(eps) - 1),
    domain=(eps >= 0,), proof_claims=("nikolov17.lemma6",),
    notes="lhs: the KL divergence of eps-randomized response, eps tanh(eps/2) = eps (e^eps - 1)/(e^eps + 1), the "
          "largest KL divergence between eps-close distributions; the lemma's bound is larger by the factor "
          "(e^eps + 1)."))
register(SpecEntry(
    id="nikolov17.thm7.as_stated", title="Azuma as written: P(sum Z_i > k beta + t sqrt(k alpha)) <= exp(-t^2/2)",
    kind=Kind.BOUNDARY, source=src("Theorem 7 (Azuma), as written"), params=("k", "t", "a", "b"),
    expr=k * b + t * sp.sqrt(k * a), domain=(k >= 1, t > 0, a > 0, b >= 0), extra={"probability": sp.exp(-t**2 / 2)},
    proof_claims=("nikolov17.thm7.azuma",),
    notes="a = alpha (|Z_i| <= alpha), b = beta (conditional means <= beta).  The standard Azuma-Hoeffding "
          "deviation is t alpha sqrt(k), and the proof of Theorem 2 uses it that way (eps sqrt(2 log(1/delta) k)); "
          "t sqrt(k alpha) is a typo (wrong whenever alpha != 1)."))
register(SpecEntry(
    id="nikolov17.thm7.standard", title="Azuma-Hoeffding: P(sum Z_i > k beta + t alpha sqrt(k)) <= exp(-t^2/2)",
    kind=Kind.BOUNDARY, source=Source("Nikolov17", "Theorem 7, corrected (Azuma-Hoeffding with range 2 alpha)", SEED),
    params=("k", "t", "a", "b"), expr=k * b + t * a * sp.sqrt(k), domain=(k >= 1, t > 0, a > 0, b >= 0),
    extra={"probability": sp.exp(-t**2 / 2)}, proof_claims=("nikolov17.thm7.azuma",)))
