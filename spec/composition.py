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
        "outside dropped); their k-fold self-compositions (repeated squaring, direct float convolution with its "
        "proved error bound added outward, tails below 1e-30 moved to +oo / dropped) give the upper and lower end.  "
        "The grid step h is refined until the asked relative width is met (the gap closes like k h^2); "
        "enclose() raises CertificationError below relative width 1e-7 or when the grid would exceed 200,000 "
        "points.  No float fast path and no mpmath value: enclose() is the evaluator.")

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
                  "composition.sgm.one_step_closed_form"),
    example={"q": "0.01", "sigma": "1", "k": "10", "eps_g": "1"},
    evaluator="dpbounds.evaluation.sgm_pld:enclose_delta",
    notes="Returns delta(eps_g), the smallest delta for which k steps of DP-SGD (Poisson sampling rate q, noise "
          "multiplier sigma, clipping norm 1) are (eps_g, delta)-DP under add/remove neighbours.  " + _WHY))

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
                  "composition.sgm.inverse_bracket"),
    example={"q": "0.01", "sigma": "1", "k": "10", "delta": "0.00001"},
    evaluator="dpbounds.evaluation.sgm_pld:enclose_eps",
    notes="Returns eps(delta) = inf{eps >= 0 : composition.sgm.delta(q, sigma, k, eps) <= delta} (0 when delta(0) "
          "<= delta).  delta(.) is nonincreasing, so an eps_u whose certified upper delta is <= delta is >= the "
          "exact value and an eps_l whose certified lower delta is > delta is <= it; both are found by bisection "
          "on the same composed grids (proofs_check composition.sgm.inverse_bracket).  " + _WHY))
