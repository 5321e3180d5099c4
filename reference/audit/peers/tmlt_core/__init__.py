"""Tumult Core (``tmlt.core``): its privacy-measure conversions, its composition and its sequential budget
accounting, all in exact sympy arithmetic, against the theorems it cites and the true guarantee.

* ``converters.RhoZCDPToApproxDP(AddGaussianNoise).privacy_relation(1, (eps, delta))`` cites Bun and Steinke
  (TCC 2016, arXiv:1605.02065v1) Proposition 1.3: it accepts a rho-zCDP measurement iff rho is at most the root of
  rho + 2 sqrt(rho log(1/delta)) = eps.  The audited number is the largest float64 rho it accepts (bisection over
  Gaussian measurements, sigma^2 = 1/(2 rho) exactly): (a) ``conversions.bs16.b_star``, (b) the largest rho whose
  Gaussian mechanism is (eps, delta)-DP (BW18 Thm 8, ``b_star(.., 'gauss')``).  Larger admits more.
* ``converters.PureDPToRhoZCDP(AddLaplaceNoise).privacy_function(1)``: (a) BS16 Proposition 1.4, eps^2/2
  (``conversions.bs16.pure_to_zcdp``).
* ``composition.Composition.privacy_function(1)``: pure DP, the sum of eps (RRUV16 Thm 2.9, basic composition;
  (b) for k equal rounds the exact pure-DP epsilon of k-fold eps-DP is k eps: KOV15 Thm 3.3's delta is 0 iff
  eps_g >= k eps); zCDP of Gaussian rounds, the sum of rho (BS16 Lemma 2.3; (b) the composed Gaussians' privacy
  loss is Gaussian with mu^2 = sum mu_i^2, exactly sum rho-zCDP).
* ``interactive_measurements.SequentialComposition`` -> ``SequentialQueryable`` used as a privacy filter with
  adaptively chosen rounds: each round's CONT/HALT against ``rruv16.thm3_4.filter`` (pure DP) and
  ``fz21.remark4_4`` (zCDP), the rules it implements (the budget check ``assert_can_spend_budget``).

tmlt.core pins numpy 1.26 and sympy 1.12: install it in its own environment and pass that interpreter with
``dpbounds audit --python tmlt_core=/path/to/venv/bin/python``; only JSON crosses over (exact values as strings)."""

from __future__ import annotations

from fractions import Fraction

from dpbounds.audit.common import start_in_own_venv
from dpbounds.testing.results import Comparison, PeerResult, error_comparison
from dpbounds.testing.verdicts import _float_up, judge_decision, judge_lower, judge_upper
from dpbounds.testing.declarations import Peer, peer_calls

PEER = Peer("tmlt_core", dist="tmlt.core")
_M = "tmlt.core.measurements."
F_CONV = _M + "converters.RhoZCDPToApproxDP(AddGaussianNoise).privacy_relation"
F_PURE = _M + "converters.PureDPToRhoZCDP(AddLaplaceNoise).privacy_function"
F_COMP = _M + "composition.Composition.privacy_function"
F_FILTER = _M + "interactive_measurements.SequentialComposition -> SequentialQueryable"
#: (eps, delta) targets of the zCDP -> DP relation: short decimals (sympy.solve inside the relation did not return
#: within 120 s at eps = 0.7533844, so the adapter bisects over rho, not over eps)
CONV = [("1", "1e-6"), ("0.5", "1e-5"), ("2", "1e-10"), ("0.1", "1e-6"), ("3", "1e-3"), ("1", "1e-9")]
PURE = ["0.1", "1", "0.5", "2", "0.01"]
COMPOSE = [("pure", ["0.1"] * 10), ("pure", ["0.1", "0.25", "0.05"]), ("zcdp", ["0.1"] * 5),
           ("zcdp", ["0.01", "0.2", "0.125"])]
STREAMS = [("zcdp", "0.5", ["0.1"] * 7), ("zcdp", "1", ["0.3", "0.25", "0.2", "0.15", "0.1", "0.05", "0.05"]),
           ("pure", "1", ["0.1"] * 12), ("pure", "0.5", ["0.2", "0.2", "0.05", "0.05", "0.01"]),
           ("pure", "1", ["1/3"] * 4)]

_IMPORTS = ("from fractions import Fraction as F\n"
            "from tmlt.core.domains.numpy_domains import NumpyFloatDomain\n")


def audit(quick: bool = False, python: str | None = None) -> PeerResult:
    res = PeerResult(PEER.name, functions=[F_CONV, F_PURE, F_COMP, F_FILTER])
    if not start_in_own_venv(res, python, "tmlt.core", PEER.dist, "it pins numpy 1.26 and sympy 1.12"):
        return res
    res.notes.append("exact (sympy) accounting; zCDP -> DP: the largest float64 rho RhoZCDPToApproxDP accepts, (a) "
                     "BS16 Prop 1.3 inverted, (b) the Gaussian mechanism's exact B*; pure -> zCDP vs BS16 Prop 1.4; "
                     "Composition vs basic composition; SequentialQueryable as a filter vs rruv16.thm3_4.filter and "
                     "fz21.remark4_4" + (f"; run in {python}" if python else ""))
    res.notes.append("RhoZCDPToApproxDP.privacy_relation's docstring says delta is the first element of d_out and "
                     "epsilon the second; the code (and ApproxDP) read (epsilon, delta): a documentation slip, the "
                     "audited calls pass (epsilon, delta)")
    calls, judges = plan(quick)
    try:
        answers = peer_calls(python, __name__ + ".calls", [(c[0], c[1:]) for c in calls], strict=True)
    except Exception as e:  # noqa: BLE001
        return PeerResult(PEER.name, version=res.version, status="error", reason=f"{type(e).__name__}: {str(e)[:200]}")
    for call, judge, answer in zip(calls, judges, answers):
        try:
            res.comparisons += judge(answer)
        except Exception as e:  # noqa: BLE001 - a reference that fails is an error row, not a crash
            fn = {"zcdp_to_approx": F_CONV, "pure_to_zcdp": F_PURE, "compose": F_COMP}.get(call[0], F_FILTER)
            res.comparisons.append(error_comparison(PEER.name, fn, call[0], {"call": str(call)}, e))
    return res


def plan(quick: bool = False):
    """(the calls, each [function of ``calls``, *args], one judge per call: answer -> list of Comparison)."""
    from dpbounds.accounting.conversions import b_star
    calls, judges = [], []
    for eps, delta in CONV[:2] if quick else CONV:
        bs = b_star(eps, delta, "bs16")
        lo, hi = bs.bracket
        calls.append(["zcdp_to_approx", float(lo) * (1 - 1e-9), float(hi) * (1 + 1e-9), eps, delta])
        judges.append(lambda a, eps=eps, delta=delta: judge_conversion(eps, delta, a[0], a[1]))
    for eps in PURE[:2] if quick else PURE:
        calls.append(["pure_to_zcdp", eps])
        judges.append(lambda a, eps=eps: judge_pure_to_zcdp(eps, a))
    for kind, costs in COMPOSE[::2] if quick else COMPOSE:
        calls.append(["compose", kind, costs])
        judges.append(lambda a, kind=kind, costs=costs: judge_composition(kind, costs, a))
    for kind, budget, costs in STREAMS[::2] if quick else STREAMS:
        calls.append(["filter_rounds", kind, budget, costs])
        judges.append(lambda a, kind=kind, budget=budget, costs=costs: judge_filter(kind, budget, costs, a))
    return calls, judges


def judge_conversion(eps: str, delta: str, accepted: float, refused: float) -> list[Comparison]:
    """The largest float64 rho that RhoZCDPToApproxDP accepts at (eps, delta) (``refused`` is the next float)."""
    from dpbounds.accounting.conversions import b_star
    inputs = {"eps": eps, "delta": delta, "smallest refused rho": repr(refused)}
    a, b = b_star(eps, delta, "bs16"), b_star(eps, delta, "gauss")
    repro = (_IMPORTS + "from tmlt.core.measurements.noise_mechanisms import AddGaussianNoise\n"
             "from tmlt.core.measurements.converters import RhoZCDPToApproxDP\n"
             "def accepts(rho):  # is the rho-zCDP Gaussian mechanism (eps, delta)-DP, says tmlt.core\n"
             "    g = AddGaussianNoise(NumpyFloatDomain(), 1 / (2 * F(rho)))\n"
             f"    return RhoZCDPToApproxDP(g).privacy_relation(1, (F('{eps}'), F('{delta}')))\n"
             f"print(accepts({accepted!r}), accepts({refused!r}))\n"
             "import dpbounds\n"
             f"print(dpbounds.b_star('{eps}', '{delta}', 'bs16'))  # BS16 Prop 1.3 inverted\n"
             f"print(dpbounds.b_star('{eps}', '{delta}', 'gauss'))  # the Gaussian mechanism's exact B*\n")
    return [Comparison(
        PEER.name, F_CONV, "zCDP -> (eps, delta)-DP: the largest rho accepted (larger admits more)", inputs,
        peer_value=accepted,
        formula=judge_lower(accepted, *a.bracket, role="formula", reference="conversions.bs16.b_star",
                            description="BS16 Prop 1.3 inverted: the root of rho + 2 sqrt(rho log(1/delta)) = eps "
                            "(the proposition tmlt.core cites), certified"),
        truth=judge_lower(accepted, *b.bracket, role="truth", reference="conversions.gauss (B*)",
                          description="the largest rho whose Gaussian mechanism (the audited measurement) is "
                          "(eps, delta)-DP (BW18 Thm 8), certified"),
        reproducer=repro)]


def _exact_upper(q: Fraction, lo: Fraction, hi: Fraction, **kw):
    """judge_upper on the peer's exact rational (as its float rounded up), unsound when the rational is below lo
    even where the float rounding hides it."""
    j = judge_upper(_float_up(q), lo, hi, **kw)
    if q < lo and j.verdict not in ("unsound", "formula-departure", "unsound-rounding"):
        j.verdict, j.gap_ulps, j.gap_rel = "unsound-rounding", 1, float((lo - q) / lo) if lo else None
        j.detail = f"the exact value {q} is below the reference {lo}"
    return j


def judge_pure_to_zcdp(eps: str, answer: str) -> list[Comparison]:
    q, e = Fraction(answer), Fraction(eps)
    ref = e * e / 2
    repro = (_IMPORTS + "from tmlt.core.measurements.noise_mechanisms import AddLaplaceNoise\n"
             "from tmlt.core.measurements.converters import PureDPToRhoZCDP\n"
             f"m = AddLaplaceNoise(NumpyFloatDomain(), scale=1 / F('{eps}'))  # {eps}-DP\n"
             f"print(PureDPToRhoZCDP(m).privacy_function(1), 'vs eps^2/2 =', F('{eps}') ** 2 / 2)\n")
    return [Comparison(
        PEER.name, F_PURE, "eps-DP -> rho-zCDP: rho", {"eps": eps}, peer_value=_float_up(q), peer_output=answer,
        formula=_exact_upper(q, ref, ref, role="formula", reference="conversions.bs16.pure_to_zcdp",
                             description="BS16 Prop 1.4: eps-DP => (eps^2/2)-zCDP, exact rational"),
        reproducer=repro)]


def judge_composition(kind: str, costs: list[str], answer: str) -> list[Comparison]:
    q = Fraction(answer)
    total = sum((Fraction(c) for c in costs), Fraction(0))
    k = len(costs)
    inputs = {"measure": "PureDP" if kind == "pure" else "RhoZCDP", "rounds": ",".join(costs)}
    mk = ("AddLaplaceNoise(NumpyFloatDomain(), scale=1 / F(p))" if kind == "pure" else
          "AddGaussianNoise(NumpyFloatDomain(), 1 / (2 * F(p)))")
    repro = (_IMPORTS + "from tmlt.core.measurements.noise_mechanisms import AddGaussianNoise, AddLaplaceNoise\n"
             "from tmlt.core.measurements.composition import Composition\n"
             f"ms = [{mk} for p in {costs!r}]\n"
             f"print(Composition(ms).privacy_function(1), 'vs the sum', sum(F(p) for p in {costs!r}))\n")
    if kind == "pure":
        a = dict(reference="rruv16.thm2_9", description="RRUV16 Thm 2.9 (basic composition): sum eps_i, exact")
        truth = None
        if len(set(costs)) == 1:
            truth = _exact_upper(q, total, total, role="truth", reference="conversions.kov15.exact",
                                 description=f"the exact pure-DP epsilon of {k}-fold eps-DP: k eps (KOV15 Thm 3.3: "
                                 "the optimal delta is 0 iff eps_g >= k eps)")
    else:
        a = dict(reference="BS16 Lemma 2.3", description="zCDP composition (Bun-Steinke Lemma 2.3): sum rho_i, exact")
        truth = _exact_upper(q, total, total, role="truth", reference="Gaussian composition",
                             description="the composed Gaussian mechanisms' privacy loss is Gaussian with mu^2 = "
                             "sum mu_i^2: exactly (sum rho_i)-zCDP")
    return [Comparison(PEER.name, F_COMP, f"composition of {k} rounds: total {'eps' if kind == 'pure' else 'rho'}",
                       inputs, peer_value=_float_up(q), peer_output=answer,
                       formula=_exact_upper(q, total, total, role="formula", **a), truth=truth, reproducer=repro)]


def judge_filter(kind: str, budget: str, costs: list[str], answer: list) -> list[Comparison]:
    from dpbounds.evaluation.evaluate import decide, prepare
    from dpbounds.spec import get
    ref_id = "fz21.remark4_4" if kind == "zcdp" else "rruv16.thm3_4.filter"
    entry = get(ref_id)
    mk = ("AddLaplaceNoise(NumpyFloatDomain(), scale=1 / F(p))" if kind == "pure" else
          "AddGaussianNoise(NumpyFloatDomain(), 1 / (2 * F(p)))")
    out, spent = [], []
    for i, (decision, charged) in enumerate(answer):
        hist = spent + [charged]
        params = {"B": budget} if kind == "zcdp" else {"eps_g": budget}
        ref_cont = not decide(entry, prepare(entry, params, **({"rho": hist} if kind == "zcdp" else {"eps": hist})))
        repro = (_IMPORTS + "import numpy as np\nfrom tmlt.core.metrics import AbsoluteDifference\n"
                 "from tmlt.core.measures import PureDP, RhoZCDP\n"
                 "from tmlt.core.measurements.noise_mechanisms import AddGaussianNoise, AddLaplaceNoise\n"
                 "from tmlt.core.measurements.interactive_measurements import (MakeInteractive, MeasurementQuery, "
                 "SequentialComposition)\n"
                 f"q = SequentialComposition(NumpyFloatDomain(), AbsoluteDifference(), "
                 f"{'PureDP' if kind == 'pure' else 'RhoZCDP'}(), 1, F('{budget}'))(np.float64(0.0))\n"
                 f"for p in {costs[:i + 1]!r}:  # raises InsufficientBudgetError iff tmlt.core halts\n"
                 f"    q(MeasurementQuery(MakeInteractive({mk})))\n")
        out.append(Comparison(
            PEER.name, F_FILTER, f"sequential budget ({kind}) round {i + 1}", {"budget": budget, "history": ",".join(hist)},
            peer_output=decision,
            formula=judge_decision(decision == "CONT", ref_cont, same_theorem=True, role="formula",
                                   reference=ref_id, description=f"{ref_id}, certified decision on tmlt.core's own "
                                   "exact per-round costs"),
            reproducer=repro))
        spent.append(charged)
    return out
