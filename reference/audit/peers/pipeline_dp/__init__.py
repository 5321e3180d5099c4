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
  total must not be below.

``gaussian_delta`` and ``gaussian_epsilon`` are declarations on the dpbounds.testing engine (today's grid points as
explicit examples, the search between them).  The other four stay hand-written rows (:func:`extra_rows`, run after
the declarations' rows): in each the reference depends on what the peer RETURNS (the calibrated sigma, the split
budgets), not only on its inputs, and a Declaration's reference is a function of the inputs; stating them as
declarations needs a different audited number (e.g. the returned sigma against the certified minimal sigma,
claim="lower"), whose exact/conservative classification differs from today's rows, so it is left for a separate
change."""

from __future__ import annotations

from fractions import Fraction

from dpbounds.audit.common import Comparison, available, judge_upper
from dpbounds.testing.declarations import Peer

PEER = Peer(
    "pipeline_dp",
    dist="pipeline-dp",
    module="pipeline_dp",
    install="not installed; pip install pipeline-dp",
    note="Every reference is the exact Gaussian curve (BW18), so (a) and (b) coincide. gaussian_epsilon bisects to an "
        "absolute width 1e-10 and returns the midpoint, which can lie below the minimum eps; inside PipelineDP it "
        "calibrates Gaussian thresholding, where a smaller eps means more noise (a conservative use of a false claim).",
)
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


BW18 = "Balle, Wang, ICML 2018, arXiv:1805.06530v2, Thm 8"


def exact_delta(sigma, eps):
    """The exact delta(eps) of the Gaussian mechanism (BW18 Thm 8), certified (clamped at 0)."""
    from dpbounds.accounting.conversions import delta_of
    return _clamped(delta_of(_rho(float(sigma)), Fraction(eps), "gauss"))


def exact_eps(sigma, delta):
    """The exact minimum eps at delta of the Gaussian mechanism (BW18), certified (clamped at 0)."""
    from dpbounds.accounting.conversions import eps_of
    return _clamped(eps_of(_rho(float(sigma)), Fraction(delta), "gauss"))


def _clamped(enc):
    from dpbounds.evaluation.enclosure import Enclosure
    return Enclosure(max(enc.lo, Fraction(0)), max(enc.hi, Fraction(0)), enc.bits)


def _grid_declarations() -> list:
    from dpbounds.testing import Declaration
    out = []
    for f, call, ref, given, cases, dom in (
            (F_DELTA, __name__ + ".calls:gaussian_delta", exact_delta, "eps", SIGMA_EPS, (0.01, 20.0)),
            (F_EPS, __name__ + ".calls:gaussian_epsilon", exact_eps, "delta", SIGMA_DELTA, (1e-12, 0.1))):
        what = "delta" if given == "eps" else "eps"
        ex = tuple({"sigma": s, given: x} for s, x in cases)
        for against in ("cited", "truth"):
            out.append(Declaration(peer=PEER.name, function=f, call=call, reference=ref,
                                   inputs={"sigma": (0.3, 100.0), given: dom}, kind="conversion", claim="upper",
                                   examples=ex, cites=BW18, against=against,
                                   check=f"Gaussian mechanism: {what}({given})"))
    return out


def declarations() -> list:
    return _grid_declarations() + _noise_declarations()


def laplace_std_min(eps, l0, linf):
    """sqrt(2) l0 linf / eps: the standard deviation of Lap(b) at the smallest eps-DP scale b = Delta_1/eps with
    Delta_1 = l0 linf (Dwork, McSherry, Nissim, Smith 2006; Var Lap(b) = 2 b^2), in arb."""
    from flint import arb

    from dpbounds.evaluation.enclosure import CertificationError, Enclosure
    from dpbounds.evaluation.numeric import arb_endpoints, arb_prec, fraction_to_arb
    with arb_prec(256):
        v = arb(2).sqrt() * fraction_to_arb(Fraction(l0) * Fraction(linf) / Fraction(eps))
        ends = arb_endpoints(v)
    if ends is None:
        raise CertificationError("pipeline_dp laplace_std_min: not finite")
    return Enclosure(ends[0], ends[1], 130)


def gaussian_std_min(eps, delta, l0, linf):
    """The smallest sigma with which N(0, sigma^2) on L2 sensitivity sqrt(l0) linf is (eps, delta)-DP (BW18 Thm 8,
    refs.gauss_sigma_min); l0 a perfect square, so the sensitivity is rational."""
    import math

    from dpbounds.spec import DomainError
    from .. import _refs
    r = math.isqrt(int(l0))
    if r * r != int(l0) or int(l0) != Fraction(l0):
        raise DomainError("l0", l0, "a perfect square (a rational L2 sensitivity)", "pipeline_dp gaussian_std_min")
    return _refs.gauss_sigma_min(r * Fraction(linf), eps, delta)


laplace_std_min.ref_id = "pipeline_dp.laplace_std_min (DMNS06; sqrt(2) b)"  # type: ignore[attr-defined]
gaussian_std_min.ref_id = "refs.gauss_sigma_min (L2 = sqrt(l0) linf)"  # type: ignore[attr-defined]


def _noise_declarations() -> list:
    """The noise calibrations of dp_computations: the mechanisms' create_from_epsilon(_delta) scale and the count /
    sum noise std (claim: at least the smallest scale that gives the budget)."""
    from .. import _refs
    from .._common import decl
    dc = "pipeline_dp.dp_computations."
    bw18 = "Balle, Wang 2018, arXiv:1805.06530v2, Thm 8 (via PyDP's GaussianMechanism)"
    dmns = "Dwork, McSherry, Nissim, Smith 2006 (b = Delta_1/eps; std sqrt(2) b)"
    lap = {"eps": (1e-3, 20.0), "l0": [1, 2, 3, 10], "linf": (1e-2, 100.0)}
    gau = {"eps": (1e-3, 20.0), "delta": (1e-12, 0.1), "l0": [1, 4, 9], "linf": (1e-2, 100.0)}
    return [
        decl(PEER.name, dc + "LaplaceMechanism.create_from_epsilon [.noise_parameter]",
             __name__ + ".calls:laplace_noise_parameter", _refs.laplace_scale_min,
             {"sensitivity": (1e-3, 1e3), "eps": (1e-3, 50.0)},
             examples=({"sensitivity": 1.0, "eps": 0.1}, {"sensitivity": 3.0, "eps": 0.7}), cites=dmns,
             against="truth"),
        decl(PEER.name, dc + "GaussianMechanism.create_from_epsilon_delta [.noise_parameter]",
             __name__ + ".calls:gaussian_noise_parameter", _refs.gauss_sigma_min,
             {"sensitivity": (1e-2, 1e2), "eps": (1e-3, 20.0), "delta": (1e-12, 0.1)},
             examples=({"sensitivity": 1.0, "eps": 1.0, "delta": 1e-5}, {"sensitivity": 2.0, "eps": 0.1,
                                                                         "delta": 1e-8}),
             cites=bw18, against="truth"),
        decl(PEER.name, dc + "compute_dp_count_noise_std (Laplace)", __name__ + ".calls:count_std_laplace",
             laplace_std_min, lap, examples=({"eps": 1.0, "l0": 1, "linf": 1.0}, {"eps": 0.3, "l0": 3, "linf": 2.0}),
             cites=dmns, against="truth"),
        decl(PEER.name, dc + "compute_dp_count_noise_std (Gaussian)", __name__ + ".calls:count_std_gaussian",
             gaussian_std_min, gau, examples=({"eps": 1.0, "delta": 1e-5, "l0": 1, "linf": 1.0},
                                              {"eps": 0.5, "delta": 1e-6, "l0": 4, "linf": 3.0}),
             cites=bw18, against="truth"),
        decl(PEER.name, dc + "compute_dp_sum_noise_std (Laplace)", __name__ + ".calls:sum_std_laplace",
             laplace_std_min, lap, examples=({"eps": 1.0, "l0": 2, "linf": 5.0},), cites=dmns, against="truth"),
        decl(PEER.name, dc + "compute_dp_sum_noise_std (Gaussian)", __name__ + ".calls:sum_std_gaussian",
             gaussian_std_min, gau, examples=({"eps": 2.0, "delta": 1e-5, "l0": 9, "linf": 0.5},), cites=bw18,
             against="truth"),
    ]


def extra_rows(python: str | None = None) -> list[Comparison]:
    """The calibration and budget-split checks (module docstring: not declarations); with ``python`` the peer's
    answers come from that interpreter (``calls``, only JSON crosses), else from this one."""
    if python is None and not available("pipeline_dp"):
        return []
    calls = ([("compute_sigma", [float(e), float(d), s]) for e, d, s in EPS_DELTA_S]
             + [("pld_sigmas", [float(e), float(d), k]) for e, d, k in PLD]
             + [("equally_split_budget", [e, d, n]) for e, d, n in SPLIT]
             + [("naive_budgets", [e, d, w]) for e, d, w in NAIVE])
    ans = iter(_answers(python, calls))
    return (_sigma(EPS_DELTA_S, ans) + _pld(PLD, ans) + _split(SPLIT, ans) + _naive(NAIVE, ans))


def _answers(python: str | None, calls: list) -> list[dict]:
    """The peer's answer to each (function of calls, args): {"ok": value} or {"error": text}."""
    if python is None:
        from dpbounds.audit.peers.pipeline_dp import calls as pc
        out = []
        for f, args in calls:
            try:
                out.append({"ok": getattr(pc, f)(*args)})
            except Exception as e:  # noqa: BLE001 - the peer raising on valid input is an error row
                out.append({"error": f"{type(e).__name__}: {str(e)[:200]}"})
        return out
    from dpbounds.testing.declarations import peer_calls
    return peer_calls(python, __name__ + ".calls", calls)


def _basic(function: str, what: str, inputs: dict[str, str], eps: float, delta: float, budgets, repro: str):
    """The claimed total (eps, delta) against the exact sums of the returned per-mechanism budgets."""
    rows = []
    for name, claimed, parts in (("eps", eps, [b[0] for b in budgets]), ("delta", delta, [b[1] for b in budgets])):
        total = sum((Fraction(x) for x in parts), Fraction(0))
        rows.append(Comparison(
            PEER.name, function, f"{what}: claimed total {name} vs the sum of the returned budgets", dict(inputs),
            peer_value=claimed,
            formula=judge_upper(claimed, total, total, role="formula", reference="rruv16.thm2_9",
                                description=f"basic composition (RRUV16 Thm 2.9): the exact sum of the returned "
                                f"per-mechanism {name}s"), reproducer=repro))
    return rows


def _split(cases, answers) -> list[Comparison]:
    out = []
    for eps, delta, n in cases:
        inputs = {"eps": repr(eps), "delta": repr(delta), "no_mechanisms": str(n)}
        repro = ("from fractions import Fraction\nfrom pipeline_dp import dp_computations as dc\n"
                 f"b = dc.equally_split_budget({eps!r}, {delta!r}, {n})\n"
                 "print(sum(Fraction(e) for e, _ in b) - Fraction("
                 f"{eps!r}), sum(Fraction(d) for _, d in b) - Fraction({delta!r}))  # > 0: more than the budget\n")
        a = next(answers)
        if "error" in a:
            out.append(Comparison(PEER.name, F_SPLIT, "budget split", inputs, error=a["error"], reproducer=repro))
            continue
        budgets = [(float(e), float(d)) for e, d in a["ok"]]
        out += _basic(F_SPLIT, f"(eps, delta) split into {n}", inputs, eps, delta, budgets, repro)
    return out


def _naive(cases, answers) -> list[Comparison]:
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
        a = next(answers)
        if "error" in a:
            out.append(Comparison(PEER.name, F_NAIVE, "weighted budget split", inputs, error=a["error"], reproducer=repro))
            continue
        budgets = [(float(e), float(d)) for e, d in a["ok"]]
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
    return Comparison(PEER.name, function, check, inputs, peer_value=value,
                      formula=judge_upper(value, lo, hi, role="formula", **j),
                      truth=judge_upper(value, lo, hi, role="truth", **j), reproducer=repro)


def _sigma(cases, answers) -> list[Comparison]:
    from dpbounds.accounting.conversions import delta_of
    out = []
    for eps, d, s in cases:
        inputs = {"eps": eps, "delta": d, "l2_sensitivity": repr(s)}
        repro = (f"from pipeline_dp import dp_computations as dc\n"
                 f"sigma = dc.compute_sigma({float(eps)!r}, {float(d)!r}, {s!r}); print(sigma)\n"
                 "from fractions import Fraction; import dpbounds\n"
                 f"e = dpbounds.delta_of(Fraction({s!r}) ** 2 / (2 * Fraction(sigma) ** 2), '{eps}', 'gauss')\n"
                 f"print(float(e.lo), float(e.hi), 'claimed', {float(d)!r})\n")
        a = next(answers)
        if "error" in a:
            out.append(Comparison(PEER.name, F_SIGMA, "calibrated sigma", inputs, error=a["error"], reproducer=repro))
            continue
        sigma = float(a["ok"])
        inputs["returned sigma"] = repr(sigma)
        out.append(_compare(F_SIGMA, "Gaussian calibration: the claimed delta at eps for the returned sigma",
                            inputs, float(d), delta_of(_rho(sigma, s), Fraction(eps), "gauss"), repro))
    return out


def _pld(cases, answers) -> list[Comparison]:
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
        a = next(answers)
        if "error" in a:
            out.append(Comparison(PEER.name, F_PLD, "k Gaussian mechanisms", inputs, error=a["error"], reproducer=repro))
            continue
        sigmas = set(map(float, a["ok"]))
        rho = sum((_rho(float(sg)) for sg in a["ok"]), Fraction(0))
        inputs["returned sigma"] = ", ".join(repr(sg) for sg in sorted(sigmas))
        out.append(_compare(F_PLD, "k Gaussian mechanisms: the claimed total delta at total eps", inputs, float(d),
                            delta_of(rho, Fraction(eps), "gauss"), repro))
    return out
