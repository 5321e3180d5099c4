"""OpenMined PipelineDP: its Gaussian-mechanism calculus and its PLD budget accountant against the exact Gaussian
curve (Balle and Wang, ICML 2018, arXiv:1805.06530, Thm 8: the exact delta(eps) of N(0, sigma^2) noise on an
L2-sensitivity-s query is the Gaussian curve of rho = s^2 / (2 sigma^2), registry ``conversions.gauss.delta``).

* ``dp_computations.gaussian_delta(sigma, eps)``: "the minimum delta such that the Gaussian(sigma) mechanism is
  (eps, delta)-DP" -- (a) = (b) = the exact curve;
* ``dp_computations.gaussian_epsilon(sigma, delta)``: "the minimum eps" -- the exact inverse (``eps_of(.., 'gauss')``);
* ``dp_computations.compute_sigma(eps, delta, s)`` (PyDP's Gaussian calibration): the returned sigma must make
  the exact delta at eps <= delta; the audited claim is delta;
* ``budget_accounting.PLDBudgetAccountant`` with k Gaussian mechanisms of budget (eps, delta): the k-fold
  composition of the returned noise is exactly sqrt(k) s / sigma-GDP; the claimed delta must be >= its exact delta
  at eps;
* ``dp_computations.equally_split_budget(eps, delta, n)`` and ``budget_accounting.NaiveBudgetAccountant`` (budget
  weights): the pipeline claims the total (eps, delta); under basic composition (RRUV16 Thm 2.9, the rule both
  implement) the returned per-mechanism budgets give the exact sums of the returned floats, which the claimed
  total must not be below."""

from __future__ import annotations

from fractions import Fraction

from dpbounds.audit.common import Comparison, PeerResult, available, error_comparison, judge_upper

PEER = "pipeline_dp"
DIST = "pipeline-dp"
F_DELTA = "pipeline_dp.dp_computations.gaussian_delta"
F_EPS = "pipeline_dp.dp_computations.gaussian_epsilon"
F_SIGMA = "pipeline_dp.dp_computations.compute_sigma"
F_PLD = "pipeline_dp.budget_accounting.PLDBudgetAccountant(GAUSSIAN x k).compute_budgets"
F_SPLIT = "pipeline_dp.dp_computations.equally_split_budget"
F_NAIVE = "pipeline_dp.budget_accounting.NaiveBudgetAccountant(weights).compute_budgets"
SPLIT = [(1.0, 1e-6, 10), (0.3, 1e-5, 7), (1.0, 1e-6, 3), (0.1, 1e-9, 6), (2.0, 1e-7, 49)]
NAIVE = [(1.0, 1e-6, [1, 1, 1]), (0.3, 1e-5, [1] * 7), (0.7, 1e-6, [1, 2, 3])]
SIGMA_EPS = [(1.0, "1"), (0.5, "2"), (3.0, "0.1"), (10.0, "0.01"), (0.8, "3"), (2.0, "0.5")]
SIGMA_DELTA = [(1.0, "1e-5"), (0.5, "1e-6"), (3.0, "1e-3"), (10.0, "1e-8"), (2.0, "1e-10"), (5.0, "1e-6")]
EPS_DELTA_S = [("1", "1e-5", 1.0), ("0.1", "1e-6", 1.0), ("3", "1e-10", 2.0), ("0.5", "1e-3", 1.0)]
PLD = [("1", "1e-6", 10), ("0.5", "1e-5", 3), ("2", "1e-8", 50)]
_DELTA = "the exact delta(eps) of the Gaussian mechanism (BW18 Thm 8), certified"


def audit(quick: bool = False) -> PeerResult:
    res = PeerResult(PEER, functions=[F_DELTA, F_EPS, F_SIGMA, F_PLD, F_SPLIT, F_NAIVE])
    if not available("pipeline_dp"):
        return res.skip("not installed; pip install pipeline-dp")
    res.notes.append("Every reference is the exact Gaussian curve (BW18), so (a) and (b) coincide. gaussian_epsilon "
                     "bisects to an absolute width 1e-10 and returns the midpoint, which can lie below the minimum "
                     "eps; inside PipelineDP it calibrates Gaussian thresholding, where a smaller eps means more "
                     "noise (a conservative use of a false claim).")
    from pipeline_dp import dp_computations as dc
    res.comparisons += _gauss(dc, SIGMA_EPS[:3] if quick else SIGMA_EPS, "delta")
    res.comparisons += _gauss(dc, SIGMA_DELTA[:3] if quick else SIGMA_DELTA, "eps")
    res.comparisons += _sigma(dc, EPS_DELTA_S[:2] if quick else EPS_DELTA_S)
    res.comparisons += _pld(PLD[:1] if quick else PLD)
    res.comparisons += _split(dc, SPLIT[:1] if quick else SPLIT)
    res.comparisons += _naive(NAIVE[1:2] if quick else NAIVE)
    return res


def _basic(function: str, what: str, inputs: dict[str, str], eps: float, delta: float, budgets, repro: str):
    """The claimed total (eps, delta) against the exact sums of the returned per-mechanism budgets."""
    rows = []
    for name, claimed, parts in (("eps", eps, [b[0] for b in budgets]), ("delta", delta, [b[1] for b in budgets])):
        total = sum((Fraction(x) for x in parts), Fraction(0))
        rows.append(Comparison(
            PEER, function, f"{what}: claimed total {name} vs the sum of the returned budgets", dict(inputs),
            peer_value=claimed,
            formula=judge_upper(claimed, total, total, role="formula", reference="rruv16.thm2_9",
                                description=f"basic composition (RRUV16 Thm 2.9): the exact sum of the returned "
                                f"per-mechanism {name}s"), reproducer=repro))
    return rows


def _split(dc, cases) -> list[Comparison]:
    out = []
    for eps, delta, n in cases:
        inputs = {"eps": repr(eps), "delta": repr(delta), "no_mechanisms": str(n)}
        repro = ("from fractions import Fraction\nfrom pipeline_dp import dp_computations as dc\n"
                 f"b = dc.equally_split_budget({eps!r}, {delta!r}, {n})\n"
                 "print(sum(Fraction(e) for e, _ in b) - Fraction("
                 f"{eps!r}), sum(Fraction(d) for _, d in b) - Fraction({delta!r}))  # > 0: more than the budget\n")
        try:
            budgets = [(float(e), float(d)) for e, d in dc.equally_split_budget(eps, delta, n)]
        except Exception as e:  # noqa: BLE001
            out.append(error_comparison(PEER, F_SPLIT, "budget split", inputs, e, repro))
            continue
        out += _basic(F_SPLIT, f"(eps, delta) split into {n}", inputs, eps, delta, budgets, repro)
    return out


def _naive(cases) -> list[Comparison]:
    out = []
    for eps, delta, weights in cases:
        inputs = {"total_epsilon": repr(eps), "total_delta": repr(delta), "weights": ",".join(map(str, weights))}
        repro = ("from fractions import Fraction\nfrom pipeline_dp.budget_accounting import NaiveBudgetAccountant\n"
                 "from pipeline_dp.aggregate_params import MechanismType\n"
                 f"acc = NaiveBudgetAccountant(total_epsilon={eps!r}, total_delta={delta!r})\n"
                 f"specs = [acc.request_budget(MechanismType.GAUSSIAN, weight=w) for w in {weights!r}]\n"
                 "acc.compute_budgets()\n"
                 f"print(sum(Fraction(s.eps) for s in specs) - Fraction({eps!r}), "
                 f"sum(Fraction(s.delta) for s in specs) - Fraction({delta!r}))  # > 0: more than the budget\n")
        try:
            from pipeline_dp.aggregate_params import MechanismType
            from pipeline_dp.budget_accounting import NaiveBudgetAccountant
            acc = NaiveBudgetAccountant(total_epsilon=eps, total_delta=delta)
            specs = [acc.request_budget(MechanismType.GAUSSIAN, weight=w) for w in weights]
            acc.compute_budgets()
            budgets = [(float(sp.eps), float(sp.delta)) for sp in specs]
        except Exception as e:  # noqa: BLE001
            out.append(error_comparison(PEER, F_NAIVE, "weighted budget split", inputs, e, repro))
            continue
        out += _basic(F_NAIVE, f"{len(weights)} Gaussian mechanisms, weights {inputs['weights']}", inputs, eps,
                      delta, budgets, repro)
    return out


def _rho(sigma: float, s: float = 1.0, k: int = 1) -> Fraction:
    """rho of k-fold N(0, sigma^2) on sensitivity s, exact for the floats the peer was given."""
    return k * Fraction(s) ** 2 / (2 * Fraction(sigma) ** 2)


def _compare(function: str, check: str, inputs: dict[str, str], value: float, enc, repro: str,
             reference: str = "conversions.gauss.delta", description: str = _DELTA) -> Comparison:
    lo, hi = max(enc.lo, Fraction(0)), max(enc.hi, Fraction(0))
    j = dict(reference=reference, description=description)
    return Comparison(PEER, function, check, inputs, peer_value=value,
                      formula=judge_upper(value, lo, hi, role="formula", **j),
                      truth=judge_upper(value, lo, hi, role="truth", **j), reproducer=repro)


def _gauss(dc, cases, what: str) -> list[Comparison]:
    """``gaussian_delta(sigma, eps)`` (``what`` = "delta") or ``gaussian_epsilon(sigma, delta)`` ("eps", 'the
    minimum eps') against the certified exact Gaussian curve of rho = 1 / (2 sigma^2)."""
    from dpbounds.accounting.conversions import delta_of, eps_of
    fn, function, given = (("gaussian_delta", F_DELTA, "eps") if what == "delta" else
                           ("gaussian_epsilon", F_EPS, "delta"))
    check = f"Gaussian mechanism: {what}({given})"
    ref = {} if what == "delta" else {"reference": "conversions.gauss", "description": "the exact minimum eps at "
                                      "delta of the Gaussian mechanism (BW18), certified"}
    out = []
    for sigma, x in cases:
        inputs = {"sigma": repr(sigma), given: x}
        repro = (f"from pipeline_dp import dp_computations as dc\n"
                 f"print(dc.{fn}({sigma!r}, {float(x)!r}))" + ("  # 'the minimum eps'" if what == "eps" else "")
                 + "\nfrom fractions import Fraction; import dpbounds\n"
                 f"e = dpbounds.{what}_of(1 / (2 * Fraction({sigma!r}) ** 2), '{x}', 'gauss'); "
                 "print(float(e.lo), float(e.hi))\n")
        try:
            v = float(getattr(dc, fn)(sigma, float(x)))
        except Exception as e:  # noqa: BLE001
            out.append(error_comparison(PEER, function, check, inputs, e, repro))
            continue
        enc = (delta_of if what == "delta" else eps_of)(_rho(sigma), Fraction(x), "gauss")
        out.append(_compare(function, check, inputs, v, enc, repro, **ref))
    return out


def _sigma(dc, cases) -> list[Comparison]:
    from dpbounds.accounting.conversions import delta_of
    out = []
    for eps, d, s in cases:
        inputs = {"eps": eps, "delta": d, "l2_sensitivity": repr(s)}
        repro = (f"from pipeline_dp import dp_computations as dc\n"
                 f"sigma = dc.compute_sigma({float(eps)!r}, {float(d)!r}, {s!r}); print(sigma)\n"
                 "from fractions import Fraction; import dpbounds\n"
                 f"e = dpbounds.delta_of(Fraction({s!r}) ** 2 / (2 * Fraction(sigma) ** 2), '{eps}', 'gauss')\n"
                 f"print(float(e.lo), float(e.hi), 'claimed', {float(d)!r})\n")
        try:
            sigma = float(dc.compute_sigma(float(eps), float(d), s))
        except Exception as e:  # noqa: BLE001
            out.append(error_comparison(PEER, F_SIGMA, "calibrated sigma", inputs, e, repro))
            continue
        inputs["returned sigma"] = repr(sigma)
        out.append(_compare(F_SIGMA, "Gaussian calibration: the claimed delta at eps for the returned sigma",
                            inputs, float(d), delta_of(_rho(sigma, s), Fraction(eps), "gauss"), repro))
    return out


def _pld(cases) -> list[Comparison]:
    from dpbounds.accounting.conversions import delta_of
    out = []
    for eps, d, k in cases:
        inputs = {"total_epsilon": eps, "total_delta": d, "k": str(k)}
        repro = ("from pipeline_dp.budget_accounting import PLDBudgetAccountant\n"
                 "from pipeline_dp.aggregate_params import MechanismType\n"
                 f"acc = PLDBudgetAccountant(total_epsilon={float(eps)!r}, total_delta={float(d)!r})\n"
                 f"specs = [acc.request_budget(MechanismType.GAUSSIAN) for _ in range({k})]\n"
                 "acc.compute_budgets(); sigma = specs[0].noise_standard_deviation; print(sigma)\n"
                 "from fractions import Fraction; import dpbounds\n"
                 f"e = dpbounds.delta_of({k} / (2 * Fraction(sigma) ** 2), '{eps}', 'gauss')\n"
                 f"print(float(e.lo), float(e.hi), 'claimed', {float(d)!r})\n")
        try:
            from pipeline_dp.aggregate_params import MechanismType
            from pipeline_dp.budget_accounting import PLDBudgetAccountant
            acc = PLDBudgetAccountant(total_epsilon=float(eps), total_delta=float(d))
            specs = [acc.request_budget(MechanismType.GAUSSIAN) for _ in range(k)]
            acc.compute_budgets()
            sigmas = {float(sp.noise_standard_deviation) for sp in specs}
        except Exception as e:  # noqa: BLE001
            out.append(error_comparison(PEER, F_PLD, "k Gaussian mechanisms", inputs, e, repro))
            continue
        rho = sum((_rho(float(sp.noise_standard_deviation)) for sp in specs), Fraction(0))
        inputs["returned sigma"] = ", ".join(repr(sg) for sg in sorted(sigmas))
        out.append(_compare(F_PLD, "k Gaussian mechanisms: the claimed total delta at total eps", inputs, float(d),
                            delta_of(rho, Fraction(eps), "gauss"), repro))
    return out
