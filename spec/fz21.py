"""FZ21 -- Feldman, Zrnic, "Individual Privacy Accounting via a Renyi Filter" (NeurIPS 2021).

Seed: ``004_8eb651b0fc92abd6.txt`` (text with LaTeX; line numbers below are the seed's).

Numbering follows the seed, which differs from a loose reading of "Thm 3.1 / Thm 4.3 Renyi filter":
Theorem 1.1 (l. 43, informal) = Theorem 3.1 (l. 178): composition of a FIXED number k of rounds whose
adaptively chosen rho_t satisfy sum rho_t <= B almost surely -- not a filter.  Theorem 4.3 (l. 288) is the
Renyi filter (random stopping time, optional stopping).  Remark 4.4 (l. 316) is the zCDP version, Theorem 4.5
(l. 346) the individual filter (Algorithm 3), Theorem 4.7 (l. 422) the (eps, delta)-DP filter, Proposition 5.2
(l. 506) the Renyi odometer (Algorithm 5), Corollary 5.3 (l. 552) the individual odometer (Algorithm 6),
Example 2.7 (l. 127) the Gaussian individual RDP, Proposition 6.1 (l. 594) private GD.

The per-round Renyi/zCDP parameters rho_t (kappa_t in Remark 4.4, rho_t^(i) for individual i) enter only
through the aggregate R = sum_t rho_t (spec.aggregates), including the round about to run.
"""

from __future__ import annotations

import sympy as sp

from .core import Kind, Source, SpecEntry, register, sym

SEED = "004_8eb651b0fc92abd6.txt"
PAPER = "FZ21"

alpha, rho, delta, B, eps, k = sym("alpha"), sym("rho"), sym("delta"), sym("B"), sym("eps"), sym("k")
eps_g, delta_g, Delta, m, norm, sigma = sym("eps_g"), sym("delta_g"), sym("Delta"), sym("m"), sym("norm"), sym("sigma")
R, V = sym("R"), sym("V")
Lg = sp.log(1 / delta_g)

#: FZ21 Section 4.2 composes *pure* eps_t-DP rounds (l. 384); approximate rounds go through RRUV16 Lemma 3.3.
PURE_ROUNDS = (sp.Eq(delta, 0),)


def src(where: str) -> Source:
    return Source(PAPER, where, SEED)


# ------------------------------------------------------------------------------------------ Fact 2.4
register(SpecEntry(
    id="fz21.fact2_4", title="(alpha, rho)-RDP => (rho + log(1/delta)/(alpha - 1), delta)-DP", kind=Kind.CONVERSION,
    source=src("Fact 2.4 (Mironov 2017, Proposition 3), l. 95"), params=("alpha", "rho", "delta"),
    expr=rho + sp.log(1 / delta) / (alpha - 1), domain=(alpha > 1, rho >= 0, delta > 0, delta < 1),
    extra={"delta": delta}, monotone={"rho": +1, "delta": -1, "alpha": 0}, same_as=("conversions.mironov",),
    proof_claims=("fz21.sec6.odometer_delta",),
    notes="Returns eps for the pair (eps, delta).  The seed states 'for any delta in (0, 1)'; alpha > 1 is implicit "
          "(alpha - 1 is a denominator; the Renyi divergence is defined for alpha in (1, oo), l. 74).  Here rho is the "
          "RDP value at order alpha; for rho-zCDP (= (alpha, alpha rho)-RDP) use conversions.mironov.  Not monotone "
          "in alpha."))

# ------------------------------------------------------------------------------------------ Thm 3.1 / 4.3, Remark 4.4
_renyi_note = ("CONT iff sum_{t<=k} rho_t <= B (the sum including the round about to run); the adaptive composition "
               "stopped by it is (alpha, B)-RDP.  Over several orders a filter may only continue while every order is "
               "within its budget (the intersection of valid filters).  The seed allows alpha >= 1 (alpha = 1 is KL, "
               "defined by continuity, l. 77); its proof divides by alpha - 1, so alpha = 1 is a limit.")
register(SpecEntry(
    id="fz21.thm4_3", title="Renyi privacy filter at one order alpha", kind=Kind.FILTER,
    source=src("Theorem 4.3 (Definition 4.1, Algorithm 2), l. 288-292"), params=("alpha", "B"),
    aggregates=("R",), expr=R, halt=R > B, domain=(alpha >= 1, B >= 0), monotone={"R": +1},
    same_as=("fz21.thm3_1",),
    notes=_renyi_note + "  Seed discrepancy: Definition 4.1 takes rho from 'positive' sequences (S_inf, l. 274), but "
          "Algorithm 3 and the proof of Theorem 4.5 feed zeros (rho_t^(i) <- 0 for inactive points, l. 336, l. 362); "
          "the filter is valid for rho_t >= 0."))
register(SpecEntry(
    id="fz21.thm3_1", title="adaptive RDP composition of k rounds with sum rho_t <= B almost surely", kind=Kind.FILTER,
    source=src("Theorem 3.1, l. 178 (= Theorem 1.1, l. 43)"), params=("alpha", "B"), aggregates=("R",), expr=R,
    halt=R > B, domain=(alpha >= 1, B >= 0), monotone={"R": +1}, same_as=("fz21.thm4_3",),
    notes="Stated for a FIXED number k of rounds with sum_{t<=k} rho_t <= B almost surely (the adaptively chosen "
          "rho_t of eq. (1)); the conclusion is D_alpha^<->(A^(k)(S) || A^(k)(S')) <= B.  As a stopping rule it is "
          "Theorem 4.3 (the filter), which extends it to a random stopping time by optional stopping.  'Fix any "
          "B >= 0, alpha >= 1' (l. 178)."))
register(SpecEntry(
    id="fz21.remark4_4", title="zCDP filter: CONT iff sum kappa_t <= kappa", kind=Kind.FILTER,
    source=src("Remark 4.4, l. 316"), params=("B",), aggregates=("R",), expr=R, halt=R > B, domain=(B >= 0,),
    monotone={"R": +1}, same_as=("wrrw23.thm1",),
    notes="Symbol change: the seed writes kappa_t (per-round zCDP) and kappa (the budget); here they are the per-round "
          "'rho' sequence (aggregate R = sum kappa_t) and B = kappa.  The output is kappa-zCDP (Definition 2.3: "
          "(alpha, alpha kappa)-RDP for all alpha >= 1).  The seed calls 'sum alpha kappa_t <= alpha kappa' the "
          "'halting criterion' (l. 316) although it is the condition to CONTinue.  WRRW23 Theorem 1 with delta = 0 is "
          "the same rule."))

# ------------------------------------------------------------------------------------------ Thm 4.7
register(SpecEntry(
    id="fz21.thm4_7", title="DP filter through zCDP: CONT iff (1/2) sum eps_t^2 <= B*", kind=Kind.FILTER,
    source=src("Theorem 4.7 (general B*), l. 422-424"), params=("eps_g", "delta_g", "B"), aggregates=("V",),
    expr=V / 2, halt=V / 2 > B, domain=(eps_g > 0, delta_g > 0, delta_g < 1, B >= 0), monotone={"V": +1},
    per_round_domain=PURE_ROUNDS,
    proof_claims=("fz21.thm4_7.b_star_minimization", "fz21.sec6.numbers"),
    notes="B (= B*) is the largest B such that B-zCDP implies (eps_g, delta_g)-DP; the caller supplies B = B* from a "
          "VALID zCDP->DP conversion (dpbounds.accounting.conversions.b_star with 'bs16' or 'cks20'; the certified lower end, "
          "never overstated).  The Gaussian mechanism's exact curve (conversions.gauss.delta) is not a valid general "
          "conversion.  Rounds are pure eps_t-DP (eps_t-DP => eps_t^2/2-zCDP, conversions.bs16.pure_to_zcdp).  eps_g "
          "and delta_g enter only through B.  Seed details: Theorem 4.7 says 'largest B > 0' (a B = 0 budget is "
          "allowed here: it halts at the first round with eps_t > 0); Definition 4.6 allows eps_g >= 0 (l. 412) but "
          "eps_g = 0 gives no B > 0; the proof (l. 432) concludes '(alpha, B*)-RDP for all alpha' where "
          "(alpha, alpha B*)-RDP is meant (B*-zCDP, as the next sentence says).  The closed form after the "
          "statement is the largest B for the Fact 2.4 conversion only (fz21.thm4_7.bs16); CKS20 gives a larger, "
          "still valid B*."))
_bstar = (-sp.sqrt(Lg) + sp.sqrt(Lg + eps_g))**2
register(SpecEntry(
    id="fz21.thm4_7.bs16", title="DP filter with the closed-form B* (Fact 2.4 optimized over alpha)",
    kind=Kind.FILTER, source=src("Theorem 4.7, the example after the statement (l. 428) and its proof (l. 434)"),
    params=("eps_g", "delta_g"), aggregates=("V",), expr=V / 2, halt=V / 2 > _bstar,
    domain=(eps_g > 0, delta_g > 0, delta_g < 1), extra={"b_star": _bstar}, monotone={"V": +1},
    per_round_domain=PURE_ROUNDS, same_as=("wrrw23.thm2", "conversions.bs16.b_star"),
    proof_claims=("fz21.thm4_7.b_star_minimization", "fz21.thm4_7.equals_wrrw23_thm2"),
    notes="B* = (-sqrt(log(1/delta_g)) + sqrt(log(1/delta_g) + eps_g))^2 (extra b_star), obtained in the proof by "
          "minimizing alpha B + log(1/delta_g)/(alpha - 1) over alpha (minimum B + 2 sqrt(B log(1/delta_g)) at "
          "alpha = 1 + sqrt(log(1/delta_g)/B)) and solving = eps_g.  Decides exactly like WRRW23 Theorem 2 with "
          "delta' = delta_g, delta'' = 0 (HALT iff sqrt(2 log(1/delta_g) V) + V/2 > eps_g); WRRW23 additionally "
          "admits approximate-DP rounds through delta''.  Same B* as conversions.bs16.b_star."))
register(SpecEntry(
    id="fz21.thm4_7.fixed", title="fixed-parameter consequence: k eps^2/2 + sqrt(2 k log(1/delta)) eps",
    kind=Kind.COMPOSITION, source=src("Theorem 4.7, paragraph after the proof (l. 436-440)"),
    params=("eps", "k", "delta"), expr=k * eps**2 / 2 + sp.sqrt(2 * k * sp.log(1 / delta)) * eps,
    domain=(eps >= 0, k >= 1, delta > 0, delta < 1), extra={"delta": delta},
    monotone={"eps": +1, "k": +1, "delta": -1}, same_as=("conversions.bs16",),
    proof_claims=("fz21.thm4_7.fixed_rate",),
    notes="(k eps^2/2 + sqrt(2k log(1/delta)) eps, delta)-DP for k eps-DP rounds fixed up front: conversions.bs16 at "
          "rho = k eps^2/2.  The seed says 'for all delta > 0' (l. 440); the formula needs delta < 1 for the log to be "
          "positive (and is vacuous for delta >= 1)."))
register(SpecEntry(
    id="fz21.thm4_7.rruv_rate",
    title="the rate FZ21 says RRUV16 exceeds: k eps (e^eps - 1)/2 + sqrt(2k log(1/delta)) eps",
    kind=Kind.COMPOSITION,
    source=src("Theorem 4.7, paragraph after the proof (l. 442; claim about Rogers et al. [28])"),
    params=("eps", "k", "delta"), expr=k * eps * (sp.exp(eps) - 1) / 2 + sp.sqrt(2 * k * sp.log(1 / delta)) * eps,
    domain=(eps >= 0, k >= 1, delta > 0, delta < 1), extra={"delta": delta},
    monotone={"eps": +1, "k": +1, "delta": -1}, proof_claims=("fz21.thm4_7.rruv_rate_claim",),
    notes="Seed wording (l. 442): 'While reading off their exact rate is difficult, since the smallest eps_g for which "
          "the filter continues cannot be easily expressed, their rate is greater than (1/2 k eps (e^eps - 1) + "
          "sqrt(2k log(1/delta)) eps, delta) by a significant constant factor.'  THEOREMS.md drops 'significant'.  "
          "The expression is a LOWER bound on RRUV16 Theorem 5.1's rate (its mean term with x -> 0); it is also a "
          "valid fixed-parameter composition bound, being >= fz21.thm4_7.fixed termwise (e^eps - 1 >= eps)."))

# ------------------------------------------------------------------------------------------ Prop 5.2 / Cor 5.3
_odo_note = ("The seed's Proposition 5.2 writes the bound as k Delta for T_{k-1} <= t < T_k (T_0 = 1), reusing k (the "
             "number of rounds elsewhere) as the restart counter; here m = k - 1 = the number of completed restarts "
             "(filter HALTs) up to and including round t, so O_t = (m + 1) Delta.  Algorithm 5 always runs the round "
             "(a_t is computed before the filter check) and restarts a Delta-budget Renyi filter at the round that "
             "made it halt (T_restart <- t, so rho_t opens the new segment).  Each segment's sum is <= Delta, hence "
             "k segments give (alpha, k Delta)-RDP.  Requires rho_j <= Delta for every j: otherwise a single round "
             "exceeds its segment's budget.  Not a function of a single aggregate: dpbounds.accounting.accountants runs the "
             "algorithm.  Seed glitches: Algorithm 5 initializes O_1 = Delta but the loop sets O_t from O_{t-1}, so "
             "t = 1 reads O_0 (read O_0 = Delta); the recursive T_j (l. 504) needs t > T_{j-1} while Algorithm 5 also "
             "checks the first round of a segment (the two agree when rho_j <= Delta); the statement's 'for all i in "
             "[n]' (l. 508) has no i; the proof calls (a_1..a_t) a post-processing of (a_1..a_{T_{k-1}}), which is "
             "not so (rounds after T_{k-1} add information) -- the bound holds because the current, unfinished "
             "segment [T_{k-1}, t] is the k-th (alpha, Delta)-RDP block of the composition.")
register(SpecEntry(
    id="fz21.prop5_2", title="Renyi privacy odometer (Algorithm 5): (m + 1) Delta", kind=Kind.ODOMETER,
    source=src("Proposition 5.2 / Algorithm 5, l. 472-510"), params=("Delta", "m"), expr=(m + 1) * Delta,
    domain=(Delta > 0, m >= 0), monotone={"Delta": +1, "m": +1},
    proof_claims=("fz21.sec6.odometer_delta",), notes=_odo_note))
register(SpecEntry(
    id="fz21.cor5_3", title="individual Renyi odometer (Algorithm 6): (m_i + 1) Delta", kind=Kind.ODOMETER,
    source=src("Corollary 5.3 / Algorithm 6, l. 520-554"), params=("Delta", "m"), expr=(m + 1) * Delta,
    domain=(Delta > 0, m >= 0), monotone={"Delta": +1, "m": +1}, same_as=("fz21.prop5_2",),
    notes="Algorithm 5 run separately on each individual's rho_t^(i) (eq. (2)): m is individual i's number of "
          "restarts, and the rule per individual is 'restart when that individual's segment sum R^(i) exceeds "
          "Delta'.  Needs rho_j^(i) <= Delta for all j, i.  The odometer values are sensitive (they depend on X_i) "
          "and may be disclosed only to individual i (l. 548).  The seed writes D_a for D_alpha (l. 554)."))

# ------------------------------------------------------------------------------------------ Example 2.7, Thm 4.5
register(SpecEntry(
    id="fz21.example2_7", title="individual RDP of a Gaussian linear query: alpha ||phi(X_i)||^2 / (2 sigma^2)",
    kind=Kind.CONVERSION, source=src("Example 2.7, l. 127-131"), params=("alpha", "norm", "sigma"),
    expr=alpha * norm**2 / (2 * sigma**2), domain=(alpha >= 1, norm >= 0, sigma > 0),
    monotone={"alpha": +1, "norm": +1, "sigma": -1},
    notes="D_alpha^<->(N(mu, sigma^2 I) || N(mu', sigma^2 I)) = alpha ||mu - mu'||^2/(2 sigma^2) with mu - mu' = "
          "phi(X_i); equal for the individual (Definition 2.5) and per-instance (Definition 2.6) notions.  Example "
          "2.8 multiplies by L_i^2 for an L_i-Lipschitz analysis; Section 2.2 uses q_t(X_i) in place of "
          "||phi(X_i)||, and Proposition 6.2's proof uses ||g_t(X_i)|| with noise scale sigma C (see fz21.prop6_1)."))
register(SpecEntry(
    id="fz21.thm4_5", title="individual privacy filter (Algorithm 3): point i active while sum_t rho_t^(i) <= B",
    kind=Kind.FILTER, source=src("Theorem 4.5 / Algorithm 3, l. 326-346"), params=("alpha", "B"), aggregates=("R",),
    expr=R, halt=R > B, domain=(alpha >= 1, B >= 0), monotone={"R": +1}, same_as=("fz21.thm4_3",),
    notes="Applied per individual: R is that individual's sum of rho_t^(i) (eq. (2)) including the candidate round; "
          "a point whose filter would HALT is left out of round t (its rho_t^(i) is set to 0) and may rejoin later "
          "if a smaller cost fits (the filter is re-queried every round).  The whole algorithm is (alpha, B)-RDP.  "
          "Needs the individual notion of Definition 2.5 (not the per-instance Definition 2.6, l. 368-370).  "
          "Proposition 2.9 is the non-adaptive Gaussian case: active iff sum_j q_j(X_i)^2 <= 2 B sigma^2/alpha "
          "(fz21.example2_7 with norm = q_j(X_i))."))

# ------------------------------------------------------------------------------------------ Section 6
register(SpecEntry(
    id="fz21.prop6_1", title="private gradient descent (Algorithm 7): k/(2 sigma^2)-zCDP", kind=Kind.COMPOSITION,
    source=src("Proposition 6.1, l. 594 (and Proposition 6.2, l. 598)"), params=("k", "sigma"),
    expr=k / (2 * sigma**2), domain=(k >= 1, sigma > 0), monotone={"k": +1, "sigma": -1},
    proof_claims=("fz21.sec6.numbers",),
    notes="Returns the zCDP parameter rho; (alpha, alpha rho)-RDP for all alpha >= 1.  Gradients are clipped to norm C "
          "and the noise is N(0, sigma^2 C^2 I), so C cancels.  Proposition 6.2 (Algorithm 8, with a squared-norm "
          "budget B_norm) gives B_norm/(2 sigma^2 C^2)-zCDP, the same value when B_norm = k C^2.  Seed discrepancies: "
          "Algorithm 7/8 write the noise inside the sum, (1/n) sum_i (g_i + N(0, sigma^2 C^2 I)) (l. 573, l. 585), "
          "which read literally adds n independent noises; the proof of Proposition 6.2 (l. 600) writes rho_t^(i) = "
          "alpha ||g_t(X_i)||^2/(2 sigma^2) and B = alpha B_norm/(2 sigma^2), dropping the C^2 of the statement; the "
          "text after Algorithm 8 (l. 590) clips to min(C, B_norm - sum ||g_j||^2) where the algorithm (l. 584) has "
          "sqrt(B_norm - sum ||g_j||^2).  Section 6 settings (delta = 1e-5): Adult eps = 1.0 lists sigma = 613.49, "
          "k = 4000, which is rho ~ 0.005314, the same rho as the eps = 0.5 row (sigma = 433.80, k = 2000; "
          "613.49 ~ 433.80 sqrt 2): it certifies eps ~ 0.50, not 1.0 (BS16 needs sigma ~ 309.9 for eps = 1.0).  "
          "MNIST eps = 0.5 (sigma 130, k 180) and eps = 3.0 (sigma 50, k 875) exceed the stated eps under BS16 "
          "(0.5005, 3.014) but not under CKS20 (0.388, 2.611).  'alpha = 63 approximately optimizes Fact 2.4' "
          "(l. 636): Fact 2.4's optimum for sigma = 170, k = 104 is alpha ~ 81 (eps 0.2897); alpha = 63 gives 0.2990 "
          "<= 0.3.  'Delta = 0.00109 ~ alpha/sigma^2': alpha/sigma^2 = 0.00218, alpha/(2 sigma^2) = 0.00109."))
