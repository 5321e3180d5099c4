"""Composition of the Poisson-subsampled Gaussian mechanism (DP-SGD's privacy curve; not seeds).

* ``composition.sgm.delta`` -- delta(eps) of k steps: the larger of the two directions' hockey-stick divergences of
  the k-fold products of the dominating pair.
* ``composition.sgm.eps`` -- its inverse, inf{eps >= 0 : delta(eps) <= delta}.

Neither has a closed form: the expressions below state the definitions with two opaque functions
(:class:`kfold_hockey_stick`, :class:`curve_inverse`), and the entries name their certified evaluator
(``SpecEntry.evaluator``): dpbounds.evaluation.sgm_pld brackets the value between a dominating and a dominated grid
discretization of the privacy-loss distribution, every step proved in proofs_check (``composition.sgm.*``).
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from .core import Kind, Source, SpecEntry, register, sym

q, sigma, k, eps_g, delta = sym("q"), sym("sigma"), sym("k"), sym("eps_g"), sym("delta")
_x = sp.Symbol("x", real=True)


class kfold_hockey_stick(sp.Function):  # noqa: N801  (a sympy function: lower-case like sp.erfc)
    """H(gamma, k, p, q) = int_{R^k} (prod_i p(x_i) - gamma prod_i q(x_i))_+ dx_1 ... dx_k: the hockey-stick
    divergence H_gamma(P^k || Q^k) of the k-fold products of the laws with densities p and q (sympy Lambdas).
    Opaque: evaluated only by the entry's certified evaluator."""

    nargs = 4

    def _eval_is_real(self) -> bool:
        return True


class curve_inverse(sp.Function):  # noqa: N801
    """I(f, d) = inf{e >= 0 : f(e) <= d} for a nonincreasing curve f (a sympy Lambda of e).  Opaque."""

    nargs = 2

    def _eval_is_real(self) -> bool:
        return True


_phi0 = sp.exp(-_x**2 / (2 * sigma**2)) / (sigma * sp.sqrt(2 * sp.pi))
_phi1 = sp.exp(-(_x - 1)**2 / (2 * sigma**2)) / (sigma * sp.sqrt(2 * sp.pi))
_mix = (1 - q) * _phi0 + q * _phi1
#: remove: P = (1 - q) N(0, s^2) + q N(1, s^2) vs Q = N(0, s^2); add: the pair swapped
_DELTA = sp.Max(kfold_hockey_stick(sp.exp(eps_g), k, sp.Lambda(_x, _mix), sp.Lambda(_x, _phi0)),
                kfold_hockey_stick(sp.exp(eps_g), k, sp.Lambda(_x, _phi0), sp.Lambda(_x, _mix)))

#: the domain: the theorem's (q in (0, 1], sigma > 0, integer k >= 1) and the evaluator's box (sigma >= 1/5 and
#: k <= 10^6 bound the grid; a limit of the implementation, not of the theorem)
_DOMAIN = (q > 0, q <= 1, sigma > 0, sigma >= sp.Rational(1, 5), k >= 1, k <= 10**6)

_WHY = ("Dominating pairs: for Poisson subsampling with rate q of a mechanism whose pair of output laws is (P1, P0) "
        "under add/remove neighbours, the pair ((1 - q) P0 + q P1, P0) dominates the 'remove' direction and "
        "(P0, (1 - q) P0 + q P1) the 'add' direction, tightly (ZDW22, the Poisson-subsampling dominating-pair "
        "theorem; theorem number not verified); for the Gaussian with sensitivity 1 and noise multiplier sigma, "
        "P1 = N(1, sigma^2), P0 = N(0, sigma^2) (a one-dimensional count query attains it).  Dominance is kept by "
        "products, so k steps are dominated by the k-fold products, and delta(eps) of add/remove neighbours is the "
        "larger of the two directions.  This is the curve dp_accounting's PLD accountant, prv_accountant and "
        "Opacus's PRV accountant approximate (KJH20, KJPH21, DGKKM22).  Evaluation (dpbounds.evaluation.sgm_pld): the "
        "privacy-loss distribution of one step in each direction is replaced by a dominating grid pair (each "
        "loss interval's P- and Q-mass split onto its two grid ends, 'connect the dots' as in DGKKM22; the P-mass "
        "beyond the window at +oo) and by a dominated one (a garbling of the true pair: loss intervals merged, "
        "with fractional splits chosen so that each group's merged loss is its grid loss; Q-masses raised; mass "
        "outside dropped); their k-fold self-compositions (repeated squaring; each convolution the direct float "
        "sum or, for long inputs, a blocked radix-2 FFT with Higham's a-priori error bound (Thm 24.2) per block "
        "pair, so the error is local to the masses involved, the proved error added outward; small tails moved to "
        "+oo / dropped; or, where no search's work bound is in force, in one transform: the grid exponentially "
        "tilted, its k-th power taken in the Fourier domain with an a-priori error bound (Higham Thm 24.2 through "
        "the power, proofs_check composition.sgm.fft_power_error), untilted on a window, Chernoff bounds for the "
        "mass outside it) give the upper "
        "and lower end.  The grid step h is refined until the asked relative width is met (the gap closes like "
        "k h^2); enclose() raises CertificationError below relative width 1e-7 or when the grid would exceed "
        "200,000 points.  k = 1: the closed form in erfc (the loss is monotone in x, so the hockey-stick region is "
        "a half-line), in arb at any width down to 1e-40; q = 1: mu-GDP with mu = sqrt(k)/sigma (DRS22, "
        "Cor. 2.13).  No float fast path and no mpmath value: enclose() is the evaluator.")

#: the neighbouring relation and the sampler (words; the first is the default): see _RELATIONS below
_OPTIONS = {"relation": ("add_remove", "substitution"), "sampling": ("poisson", "fixed_size")}

_RELATIONS = (
    "Options relation and sampling (the default add_remove / poisson is the curve above).  relation=substitution: "
    "one example replaced by another, both clipped to norm 1.  sampling=poisson: each example in a batch "
    "independently with probability q; sampling=fixed_size: batches of b examples drawn without replacement from n, "
    "q = b/n.  (add_remove, fixed_size) is refused: a batch of b of n examples needs n fixed, which adding or "
    "removing an example changes (sampling without replacement is analysed under substitution, BBG18).  "
    "(substitution, poisson): the pair P = (1 - q) N(0, s^2) + q N(1, s^2), Q = (1 - q) N(0, s^2) + q N(-1, s^2) "
    "(symmetric: H(P^k || Q^k) = H(Q^k || P^k)), dominating for every order of the divergence by the Gaussian-shift "
    "trade-off bound (Neyman-Pearson: a set's N(v)-mass is at most Phi(Phi^-1(N(0)-mass) + |v|/s), attained by "
    "half-spaces) -- proofs_check composition.sgm.substitution_poisson; it is not the add/remove pair with "
    "sensitivity 2.  (substitution, fixed_size): with R = ((1 - q) N(0, (s/2)^2) + q N(1, (s/2)^2), N(0, (s/2)^2)) "
    "(the remove pair at sensitivity 2) every one-step divergence of order >= 1 is at most R's (advanced joint "
    "convexity, BBG18, and convexity in the second argument), so the symmetric pair P* = R above the loss 0, "
    "mirrored below it, with the rest of the mass at loss 0, dominates one step at every order and its k-fold "
    "product k steps (ZDW22's composition of dominating pairs) -- proofs_check "
    "composition.sgm.substitution_fixed_size.  Under composition this is larger than the add/remove curve at "
    "sensitivity 2 (max of the two directions after composing), which is not an upper bound: the adversary may "
    "alternate between remove-like and add-like steps (LRKS24).")


#: the dominating pairs of the relation / sampling options (substitution; fixed-size batches)
_RELATION_CLAIMS = ("composition.sgm.substitution_poisson", "composition.sgm.substitution_fixed_size")

register(SpecEntry(
    id="composition.sgm.delta",
    title="delta(eps) of k-fold Poisson-subsampled Gaussian composition (DP-SGD, add/remove, sensitivity 1): "
          "max(H_{e^eps}(P^k || Q^k), H_{e^eps}(Q^k || P^k)), P = (1 - q) N(0, s^2) + q N(1, s^2), Q = N(0, s^2)",
    kind=Kind.COMPOSITION,
    source=Source("ZDW22", "the Poisson-subsampling dominating-pair theorem (add and remove directions) and the "
                  "hockey-stick divergence of product pairs", theorem="the Poisson-subsampling dominating-pair "
                  "theorem"),
    params=("q", "sigma", "k", "eps_g"), expr=_DELTA, domain=_DOMAIN + (eps_g >= 0,),
    monotone={"eps_g": -1, "k": +1, "q": +1, "sigma": -1},
    proof_claims=("composition.sgm.split_dominates", "composition.sgm.garbling_is_dominated",
                  "composition.sgm.grid_value_monotone", "composition.sgm.convolution_error",
                  "composition.sgm.fft_power_error", "composition.sgm.split_numerators",
                  "composition.sgm.lower_split_surplus", "composition.sgm.suffix_sum_value",
                  "composition.sgm.one_step_closed_form") + _RELATION_CLAIMS + ("composition.sgm.calibration_monotone",),
    example={"q": "0.01", "sigma": "1", "k": "10", "eps_g": "1"},
    evaluator="dpbounds.evaluation.sgm_schedule:enclose_sgm_delta", options=_OPTIONS,
    notes="Returns delta(eps_g), the smallest delta for which k steps of DP-SGD (Poisson sampling rate q, noise "
          "multiplier sigma, clipping norm 1) are (eps_g, delta)-DP under add/remove neighbours.  " + _WHY + "  "
          + _RELATIONS))

_e = sp.Symbol("e", real=True)
register(SpecEntry(
    id="composition.sgm.eps",
    title="eps(delta) of k-fold Poisson-subsampled Gaussian composition: inf{eps >= 0 : delta_k(eps) <= delta}",
    kind=Kind.COMPOSITION,
    source=Source("ZDW22", "the Poisson-subsampling dominating-pair theorem, inverted in eps",
                  theorem="the Poisson-subsampling dominating-pair theorem"),
    params=("q", "sigma", "k", "delta"),
    expr=curve_inverse(sp.Lambda(_e, _DELTA.xreplace({eps_g: _e})), delta),
    domain=_DOMAIN + (delta > 0, delta < 1),
    monotone={"delta": -1, "k": +1, "q": +1, "sigma": -1},
    proof_claims=("composition.sgm.split_dominates", "composition.sgm.garbling_is_dominated",
                  "composition.sgm.grid_value_monotone", "composition.sgm.convolution_error",
                  "composition.sgm.fft_power_error", "composition.sgm.split_numerators",
                  "composition.sgm.lower_split_surplus", "composition.sgm.suffix_sum_value",
                  "composition.sgm.inverse_bracket") + _RELATION_CLAIMS,
    example={"q": "0.01", "sigma": "1", "k": "10", "delta": "0.00001"},
    evaluator="dpbounds.evaluation.sgm_schedule:enclose_sgm_eps", options=_OPTIONS,
    notes="Returns eps(delta) = inf{eps >= 0 : composition.sgm.delta(q, sigma, k, eps) <= delta} (0 when delta(0) "
          "<= delta).  delta(.) is nonincreasing, so an eps_u whose certified upper delta is <= delta is >= the "
          "exact value and an eps_l whose certified lower delta is > delta is <= it; both are found by bisection "
          "on the same composed grids (proofs_check composition.sgm.inverse_bracket).  " + _WHY + "  " + _RELATIONS))


# ------------------------------------------------------------------------------------------------ schedules
#: the largest number of phases and of total steps of a schedule (the evaluator's box, as k <= 10^6 above)
MAX_PHASES = 1000
MAX_TOTAL_STEPS = 10**6
_PHASES_DOMAIN = ("comma-separated q:sigma:k triples, e.g. '0.01:1.0:500,0.02:1.2:300' (0 < q <= 1, sigma >= 1/5, "
                  f"integer k >= 1; at most {MAX_PHASES} phases, total k <= {MAX_TOTAL_STEPS})")


def phases_of(text: str) -> list[tuple[Fraction, Fraction, int]]:
    """The phases (q, sigma, k) of a schedule string, parsed strictly (decimal literals or p/q; never eval), or
    DomainError naming the parameter, the value and the domain."""
    from .core import DomainError, parse_exact
    theorem = "composition.sgm.schedule.*: heterogeneous composition of dominating pairs (ZDW22)"
    if not isinstance(text, str) or not text.strip():
        raise DomainError("phases", text, _PHASES_DOMAIN, theorem)
    parts = text.split(",")
    if len(parts) > MAX_PHASES:
        raise DomainError("phases", text, _PHASES_DOMAIN, theorem, f"{len(parts)} phases")
    out = []
    total = 0
    for i, part in enumerate(parts):
        f = part.strip().split(":")
        if len(f) != 3 or not all(x.strip() for x in f):
            raise DomainError("phases", text, _PHASES_DOMAIN, theorem, f"phase {i + 1} {part.strip()!r} is not q:sigma:k")
        try:
            qi = parse_exact("phases", f[0].strip(), theorem)
            si = parse_exact("phases", f[1].strip(), theorem)
        except DomainError:
            raise DomainError("phases", text, _PHASES_DOMAIN, theorem, f"phase {i + 1}: malformed number") from None
        ks = f[2].strip()
        if not (ks.isascii() and ks.isdigit()) or len(ks) > 7:
            raise DomainError("phases", text, _PHASES_DOMAIN, theorem, f"phase {i + 1}: k={ks!r} is not an integer "
                              f"between 1 and {MAX_TOTAL_STEPS}")
        ki = int(ks)
        if not 0 < qi <= 1:
            raise DomainError("phases", text, _PHASES_DOMAIN, theorem, f"phase {i + 1}: q={f[0].strip()} not in (0, 1]")
        if si < Fraction(1, 5):
            raise DomainError("phases", text, _PHASES_DOMAIN, theorem, f"phase {i + 1}: sigma={f[1].strip()} < 1/5")
        if ki < 1:
            raise DomainError("phases", text, _PHASES_DOMAIN, theorem, f"phase {i + 1}: k={ki} < 1")
        total += ki
        if total > MAX_TOTAL_STEPS:
            raise DomainError("phases", text, _PHASES_DOMAIN, theorem, f"total k > {MAX_TOTAL_STEPS}")
        out.append((qi, si, ki))
    return out


def _fmt(x: Fraction) -> str:
    from .core import fraction_to_decimal_str, _is_terminating
    return fraction_to_decimal_str(x) if _is_terminating(x) else f"{x.numerator}/{x.denominator}"


def check_phases(text: str) -> str:
    """The canonical form of a schedule string (exact decimals, no spaces), or DomainError."""
    return ",".join(f"{_fmt(q_)}:{_fmt(s_)}:{k_}" for q_, s_, k_ in phases_of(text))


class sgm_schedule_hockey_stick(sp.Function):  # noqa: N801
    """S(gamma) = max over the directions of H_gamma(prod_i P_i^{k_i} || prod_i Q_i^{k_i}) for the schedule's phases
    (q_i, sigma_i, k_i), (P_i, Q_i) the one-step dominating pair of phase i under the relation and sampler (see
    composition.sgm.*).  Opaque: the schedule is a text parameter; evaluated only by the entry's certified
    evaluator."""

    nargs = 1

    def _eval_is_real(self) -> bool:
        return True


_SCHED_DELTA = sgm_schedule_hockey_stick(sp.exp(eps_g))
_SCHED_WHY = ("A schedule is a list of phases q:sigma:k (k_i steps at sampling rate q_i and noise multiplier sigma_i, "
              "in any order: composition is commutative).  Each step is dominated by its phase's pair (the same "
              "pairs as composition.sgm.*, for the relation and sampler given), and dominating pairs compose "
              "(ZDW22): the schedule's curve is the hockey-stick divergence of the product of all phases' pairs "
              "(add/remove: the larger of the remove and add directions, each composed over every phase).  "
              "Evaluation (dpbounds.evaluation.sgm_schedule): every phase discretized on one loss grid (the same "
              "dominating and dominated grid pairs as composition.sgm.*), self-composed k_i times and the phases "
              "convolved, every error added outward; all q_i = 1: the product of Gaussian pairs is mu-GDP with "
              "mu^2 = sum k_i / sigma_i^2 (times 4 under substitution: sensitivity 2), certified in closed form "
              "(conversions.gauss.delta).  One phase: exactly composition.sgm.*.  " + _RELATIONS)

register(SpecEntry(
    id="composition.sgm.schedule.delta",
    title="delta(eps) of a DP-SGD schedule (phases of k_i Poisson-subsampled Gaussian steps at (q_i, sigma_i)): "
          "the hockey-stick divergence of the product of the phases' dominating pairs",
    kind=Kind.COMPOSITION,
    source=Source("ZDW22", "the Poisson-subsampling dominating-pair theorem and the composition of dominating pairs",
                  theorem="the Poisson-subsampling dominating-pair theorem"),
    params=("eps_g",), expr=_SCHED_DELTA, domain=(eps_g >= 0,),
    monotone={"eps_g": -1},
    proof_claims=("composition.sgm.split_dominates", "composition.sgm.garbling_is_dominated",
                  "composition.sgm.grid_value_monotone", "composition.sgm.convolution_error",
                  "composition.sgm.schedule_product", "composition.sgm.schedule_q1_closed_form") + _RELATION_CLAIMS,
    example={"phases": "0.01:1:5,0.02:1.2:3", "eps_g": "1"},
    evaluator="dpbounds.evaluation.sgm_schedule:enclose_schedule_delta", options=_OPTIONS,
    text_params={"phases": check_phases},
    notes="Returns delta(eps_g) of the whole schedule.  " + _SCHED_WHY))

register(SpecEntry(
    id="composition.sgm.schedule.eps",
    title="eps(delta) of a DP-SGD schedule: inf{eps >= 0 : delta_schedule(eps) <= delta}",
    kind=Kind.COMPOSITION,
    source=Source("ZDW22", "the Poisson-subsampling dominating-pair theorem and the composition of dominating pairs, "
                  "inverted in eps", theorem="the Poisson-subsampling dominating-pair theorem"),
    params=("delta",), expr=curve_inverse(sp.Lambda(_e, _SCHED_DELTA.xreplace({eps_g: _e})), delta),
    domain=(delta > 0, delta < 1),
    monotone={"delta": -1},
    proof_claims=("composition.sgm.split_dominates", "composition.sgm.garbling_is_dominated",
                  "composition.sgm.grid_value_monotone", "composition.sgm.convolution_error",
                  "composition.sgm.inverse_bracket", "composition.sgm.schedule_product",
                  "composition.sgm.schedule_q1_closed_form") + _RELATION_CLAIMS,
    example={"phases": "0.01:1:5,0.02:1.2:3", "delta": "0.00001"},
    evaluator="dpbounds.evaluation.sgm_schedule:enclose_schedule_eps", options=_OPTIONS,
    text_params={"phases": check_phases},
    notes="Returns eps(delta) of the whole schedule (bisection on the same composed grids as the delta entry).  "
          + _SCHED_WHY))
