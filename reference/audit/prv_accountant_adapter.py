"""Microsoft prv_accountant (Gopi, Lee, Wutschitz, NeurIPS 2021, arXiv:2106.02848): the upper end of its
error-bounded estimate against the true guarantee of the composition it accounts for.

* k-fold Gaussian mechanism with noise multiplier sigma (sensitivity 1) is exactly mu-GDP with mu = sqrt(k)/sigma,
  i.e. its privacy curve is the Gaussian curve of rho = k / (2 sigma^2) (Balle-Wang 2018): the claimed
  ``eps_upper`` of ``compute_epsilon`` must be >= the certified exact eps(delta) (``conversions.gauss``).
* the same curve read the other way: the claimed ``delta_upper`` of ``compute_delta(eps)`` must be >= the exact
  delta(eps) (``conversions.gauss.delta``); and heterogeneous composition (two Gaussian mechanisms, k1 and k2 times)
  is exactly the Gaussian curve of rho = k1 / (2 sigma1^2) + k2 / (2 sigma2^2) (the privacy losses are independent
  Gaussians, so their sum is Gaussian);
* k-fold pure eps-DP (``PureDPMechanism``, the randomized-response worst case) has the exact delta(eps_g) of KOV15
  Thm 3.3 (``conversions.kov15.exact``): the claimed ``delta_upper`` of ``compute_delta`` must be >= it.

The accountant is documented to return (lower, estimate, upper) with the true value inside: the upper end is the
privacy claim audited here (the estimate is not claimed to be a bound)."""

from __future__ import annotations

from fractions import Fraction

from dpbounds.audit.common import Comparison, PeerResult, available, error_comparison, judge_upper

PEER = "prv_accountant"
DIST = "prv-accountant"
F_EPS = "prv_accountant.PRVAccountant(GaussianMechanism).compute_epsilon [upper]"
F_DELTA = "prv_accountant.PRVAccountant(PureDPMechanism).compute_delta [upper]"
F_GDELTA = "prv_accountant.PRVAccountant(GaussianMechanism).compute_delta [upper]"
F_HET = "prv_accountant.PRVAccountant(GaussianMechanism x 2).compute_epsilon [upper]"
GAUSS_DELTA = [(2.0, 1, "1"), (5.0, 10, "0.5"), (10.0, 100, "2"), (20.0, 1000, "1"), (3.0, 4, "3")]
HETERO = [((2.0, 3), (5.0, 10), "1e-6"), ((1.0, 1), (10.0, 100), "1e-5"), ((4.0, 20), (8.0, 50), "1e-8")]
EPS_ERROR, DELTA_ERROR = 0.01, 1e-10
GAUSS = [(2.0, 1, "1e-6"), (5.0, 10, "1e-6"), (10.0, 100, "1e-5"), (20.0, 1000, "1e-8"), (1.0, 1, "1e-3"),
         (50.0, 1000, "1e-6"), (3.0, 4, "1e-7"), (8.0, 50, "1e-6")]
PURE = [("0.1", 10, "0.5"), ("0.5", 20, "3"), ("1", 5, "2"), ("0.01", 1000, "0.5"), ("0.2", 100, "2"),
        ("0.05", 400, "1")]


def audit(quick: bool = False) -> PeerResult:
    res = PeerResult(PEER, functions=[F_EPS, F_GDELTA, F_HET, F_DELTA])
    if not available("prv_accountant"):
        return res.skip("not installed; pip install prv-accountant")
    res.notes.append(f"PRVAccountant(eps_error={EPS_ERROR}, delta_error={DELTA_ERROR}); the audited value is the "
                     "upper end of the returned (lower, estimate, upper); references: the exact Gaussian curve "
                     "(k-fold Gaussian = sqrt(k)/sigma-GDP) and KOV15's exact k-fold pure-DP delta")
    res.comparisons += _gaussian(GAUSS[:4] if quick else GAUSS)
    res.comparisons += _gaussian_delta(GAUSS_DELTA[:2] if quick else GAUSS_DELTA)
    res.comparisons += _heterogeneous(HETERO[:1] if quick else HETERO)
    res.comparisons += _pure(PURE[:3] if quick else PURE)
    return res


def _gaussian_mix(function: str, check: str, mechs: list[tuple[float, int]], what: str, target: str,
                  inputs: dict[str, str]) -> Comparison:
    """One composition of Gaussian mechanisms (sigma_i, k_i times each): the upper end of compute_epsilon(delta)
    (``what`` = "eps") or compute_delta(eps) ("delta") against the exact Gaussian curve of
    rho = sum k_i / (2 sigma_i^2) (the privacy losses are independent Gaussians, so their sum is Gaussian; BW18)."""
    from prv_accountant import PRVAccountant
    from prv_accountant.privacy_random_variables import GaussianMechanism

    from dpbounds.accounting.conversions import delta_of, eps_of
    sigmas, ks = [m[0] for m in mechs], [m[1] for m in mechs]
    call = "compute_epsilon" if what == "eps" else "compute_delta"
    rho_txt = " + ".join(f"Fraction({k}) / (2 * Fraction({s!r}) ** 2)" for s, k in mechs)
    repro = ("from prv_accountant import PRVAccountant\n"
             "from prv_accountant.privacy_random_variables import GaussianMechanism\n"
             f"acc = PRVAccountant(prvs=[{', '.join(f'GaussianMechanism({s!r})' for s in sigmas)}], "
             f"max_self_compositions={ks}, eps_error={EPS_ERROR!r}, delta_error={DELTA_ERROR!r})\n"
             f"print(acc.{call}({float(target)!r}, {ks}))  # (lower, estimate, upper)\n"
             "# the exact value: the Gaussian curve of rho = sum k / (2 sigma^2)\n"
             "from fractions import Fraction; import dpbounds\n"
             f"e = dpbounds.{what}_of({rho_txt}, '{target}', 'gauss'); print(float(e.lo), float(e.hi))\n")
    try:
        acc = PRVAccountant(prvs=[GaussianMechanism(s) for s in sigmas], max_self_compositions=ks,
                            eps_error=EPS_ERROR, delta_error=DELTA_ERROR)
        lo_p, est, up = (float(x) for x in getattr(acc, call)(float(target), ks))
    except Exception as e:  # noqa: BLE001
        return error_comparison(PEER, function, check, inputs, e, repro)
    rho = sum((Fraction(k) / (2 * Fraction(s) ** 2) for s, k in mechs), Fraction(0))  # the floats given, exactly
    ex = (eps_of if what == "eps" else delta_of)(rho, Fraction(target), "gauss")
    lo, hi = max(ex.lo, Fraction(0)), max(ex.hi, Fraction(0))
    j = dict(reference="conversions.gauss" + ("" if what == "eps" else ".delta"),
             description=f"the exact {what} of the composed Gaussian mechanisms (the Gaussian curve of rho = "
             "sum k_i / (2 sigma_i^2), BW18)")
    inputs["returned (lower, estimate)"] = f"({lo_p!r}, {est!r})"
    return Comparison(PEER, function, check, inputs, peer_value=up,
                      formula=judge_upper(up, lo, hi, role="formula", **j),
                      truth=judge_upper(up, lo, hi, role="truth", **j), reproducer=repro)


def _gaussian(cases) -> list[Comparison]:
    return [_gaussian_mix(F_EPS, "k-fold Gaussian mechanism: epsilon(delta), upper end", [(sigma, k)], "eps", d,
                          {"noise_multiplier": repr(sigma), "k": str(k), "delta": d}) for sigma, k, d in cases]


def _gaussian_delta(cases) -> list[Comparison]:
    return [_gaussian_mix(F_GDELTA, "k-fold Gaussian mechanism: delta(eps), upper end", [(sigma, k)], "delta", eps,
                          {"noise_multiplier": repr(sigma), "k": str(k), "eps": eps}) for sigma, k, eps in cases]


def _heterogeneous(cases) -> list[Comparison]:
    return [_gaussian_mix(F_HET, "k1 + k2 Gaussian mechanisms: epsilon(delta), upper end", [(s1, k1), (s2, k2)],
                          "eps", d, {"noise_multipliers": f"{s1!r}, {s2!r}", "k": f"{k1}, {k2}", "delta": d})
            for (s1, k1), (s2, k2), d in cases]


def _pure(cases) -> list[Comparison]:
    from prv_accountant import PRVAccountant
    from prv_accountant.privacy_random_variables import PureDPMechanism

    from dpbounds.evaluation.evaluate import enclose
    out = []
    for eps_s, k, eps_g in cases:
        eps = float(eps_s)
        inputs = {"eps": eps_s, "k": str(k), "eps_g": eps_g}
        repro = ("from prv_accountant import PRVAccountant\n"
                 "from prv_accountant.privacy_random_variables import PureDPMechanism\n"
                 f"acc = PRVAccountant(prvs=[PureDPMechanism({eps!r})], max_self_compositions=[{k}], "
                 f"eps_error={EPS_ERROR!r}, delta_error={DELTA_ERROR!r})\n"
                 f"print(acc.compute_delta({float(eps_g)!r}, [{k}]))  # (lower, estimate, upper)\n"
                 "from fractions import Fraction; import dpbounds\n"
                 f"e = dpbounds.enclose('conversions.kov15.exact', {{'eps': Fraction({eps!r}), 'k': {k}, "
                 f"'eps_g': '{eps_g}'}})\n"
                 "print(float(e.lo), float(e.hi))\n")
        try:
            acc = PRVAccountant(prvs=[PureDPMechanism(eps)], max_self_compositions=[k], eps_error=EPS_ERROR,
                                delta_error=DELTA_ERROR)
            lo_p, est, up = (float(x) for x in acc.compute_delta(float(eps_g), [k]))
        except Exception as e:  # noqa: BLE001
            out.append(error_comparison(PEER, F_DELTA, "k-fold pure DP: delta(eps_g)", inputs, e, repro))
            continue
        ex = enclose("conversions.kov15.exact", {"eps": Fraction(eps), "k": k, "eps_g": Fraction(eps_g)},
                     rel_tol=Fraction(1, 10**20))
        lo, hi = max(ex.lo, Fraction(0)), max(ex.hi, Fraction(0))
        j = dict(reference="conversions.kov15.exact",
                 description="the exact delta of k-fold eps-DP (KOV15 Thm 3.3)")
        inputs["returned (lower, estimate)"] = f"({lo_p!r}, {est!r})"
        out.append(Comparison(PEER, F_DELTA, "k-fold pure eps-DP: delta(eps_g), upper end", inputs,
                              peer_value=up, formula=judge_upper(up, lo, hi, role="formula", **j),
                              truth=judge_upper(up, lo, hi, role="truth", **j), reproducer=repro))
    return out
