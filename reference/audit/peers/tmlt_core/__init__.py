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

* Declarations (the rest of its public accounting surface, ``surface.json``; 40 of its 44 entries declared with
  the above): the noise mechanisms' privacy functions (geometric: d_in/alpha; discrete Gaussian: d_in^2/(2 sigma^2),
  both attained), the wrappers that forward them (PostProcess, NonInteractivePostProcess, DerivedMeasurement,
  MakeInteractive, DecorateQueryable, ChainTM over a count, AddNoiseToSeries, AddNoiseToColumn, ApplyInPandas)
  judged against the wrapped mechanism's exact loss, privacy relations read as the smallest float d_out accepted,
  ParallelComposition, NoisyQuantile and AggregateByColumn against the exponential mechanism's cited eps and
  eps^2/8, GeometricPartitionSelection's (eps, delta) at d_in 1 against the exact release probability,
  ApproxDPBudget, PrivacyAccountant.privacy_budget and calculate_noise_scale.  The Spark-based measurements are
  built on Spark domains without a session: only their accounting runs.  Not declared: SparseVectorPrefixSums (its
  threshold moves with the data; no certified analysis) and three abstract base methods (surface.json says why).

tmlt.core pins numpy 1.26 and sympy 1.12: install it in its own environment and pass that interpreter with
``dpbounds audit --python tmlt_core=/path/to/venv/bin/python``; only JSON crosses over (exact values as strings for
the exact checks; the declarations' calls answer the float next to the exact value on the claim's safe side, so an
exact answer below the reference by less than one ulp is not seen there)."""

from __future__ import annotations

from fractions import Fraction

from dpbounds.testing.results import Comparison, error_comparison
from dpbounds.testing.verdicts import _float_up, judge_decision, judge_lower, judge_upper
from dpbounds.testing.declarations import Peer, peer_calls

_M = "tmlt.core.measurements."
PEER = Peer(
    "tmlt_core", dist="tmlt.core", module="tmlt.core",
    install="not installed; pip install tmlt.core in its own venv, then --python tmlt_core=PATH (it pins numpy 1.26 "
            "and sympy 1.12)",
    note="exact (sympy) accounting; zCDP -> DP: the largest float64 rho RhoZCDPToApproxDP accepts, (a) BS16 Prop 1.3 "
         "inverted, (b) the Gaussian mechanism's exact B*; pure -> zCDP vs BS16 Prop 1.4; Composition vs basic "
         "composition; SequentialQueryable as a filter vs rruv16.thm3_4.filter and fz21.remark4_4; the noise "
         "mechanisms' privacy functions, their wrappers' (forwarded: judged against the wrapped mechanism's exact "
         "loss), privacy relations read as the smallest d_out accepted, the budgets and calculate_noise_scale "
         "(declarations).  RhoZCDPToApproxDP.privacy_relation's docstring says delta is the first element of d_out "
         "and epsilon the second; the code (and ApproxDP) read (epsilon, delta): a documentation slip, the audited "
         "calls pass (epsilon, delta)")
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


def extra_rows(python: str | None = None) -> list[Comparison]:
    """The checks that are no declaration (exact rationals judged as such, the bisected zCDP -> DP relation, the
    sequential queryable's rounds): one batch of calls in tmlt.core's interpreter, one judge per call."""
    calls, judges = plan()
    try:
        answers = peer_calls(python, __name__ + ".calls", [(c[0], c[1:]) for c in calls], strict=True)
    except Exception as e:  # noqa: BLE001 - the batch failed: one row saying so, not a crash
        return [error_comparison(PEER.name, F_CONV, "the exact checks' batch", {}, e)]
    out: list[Comparison] = []
    for call, judge, answer in zip(calls, judges, answers):
        try:
            out += judge(answer)
        except Exception as e:  # noqa: BLE001 - a reference that fails is an error row, not a crash
            fn = {"zcdp_to_approx": F_CONV, "pure_to_zcdp": F_PURE, "compose": F_COMP}.get(call[0], F_FILTER)
            out.append(error_comparison(PEER.name, fn, call[0], {"call": str(call)}, e))
    return out


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


# ------------------------------------------------------------------------------------------------- declarations
# The public accounting surface (surface.json) as declarations on the dpbounds.testing engine: the calls
# (``calls``) build tmlt.core's measurements and return its exact answer as the float next to it on the claim's safe
# side; a privacy relation is read as the smallest float d_out it accepts.  A wrapper that only forwards
# (PostProcess, DerivedMeasurement, MakeInteractive, ...) wraps Laplace or geometric noise and is judged against the
# wrapped mechanism's exact loss: a forwarder that forgot to forward, or forwarded the wrong d_in, is a finding.

def _exact(v: Fraction):
    from dpbounds.evaluation.enclosure import Enclosure
    return Enclosure(v, v, 130)


def _named(ref: str):
    def wrap(fn):
        fn.ref_id = ref  # type: ignore[attr-defined]
        return fn
    return wrap


def _q(v) -> Fraction:
    """An input as an exact rational (a float exactly, a decimal string as written)."""
    return Fraction(v)


@_named("tmlt_core.laplace_eps (DMNS06: d_in/scale; GRS09 geometric: d_in/alpha)")
def laplace_eps(scale, d_in):
    """d_in / scale, exactly: the pure-DP loss of Laplace noise of scale b (or two-sided geometric noise of parameter
    alpha = b, pmf proportional to e^{-|k|/alpha}) on a query moved by d_in: the density ratio e^{(|x - d| - |x|)/b}
    is at most e^{d/b} and equals it for x <= 0 (Dwork, McSherry, Nissim, Smith 2006; Ghosh, Roughgarden,
    Sundararajan 2009 for the geometric, integer d_in)."""
    return _exact(_q(d_in) / _q(scale))


@_named("tmlt_core.gauss_rho (BS16 Prop. 1.6; CKS20 Thm 4 for the discrete Gaussian)")
def gauss_rho(scale, d_in):
    """d_in^2 / (2 scale^2), exactly: the least rho for which Gaussian noise of standard deviation sigma = scale on a
    query moved by d_in is rho-zCDP (Bun, Steinke 2016, arXiv:1605.02065v1, Prop. 1.6: D_alpha = alpha d^2/(2
    sigma^2)).  For the discrete Gaussian N_Z(0, sigma^2) and an integer shift d it is also exact: Canonne, Kamath,
    Steinke 2020 (arXiv:2004.00010v4) Thm 4 gives rho <= d^2/(2 sigma^2), and at the integer order alpha = 2 the
    shifted sum sum_x e^{-(x - m)^2/(2 sigma^2)} has m = 2 mu - nu an integer, so it equals the normalizer and
    D_2 = 2 d^2/(2 sigma^2) exactly: sup_alpha D_alpha/alpha >= d^2/(2 sigma^2)."""
    return _exact(_q(d_in) ** 2 / (2 * _q(scale) ** 2))


@_named("tmlt_core.laplace_sum_eps (basic composition of Laplace, attained)")
def laplace_sum_eps(b1, b2, b3, d_in):
    """d_in (1/b1 + 1/b2 + 1/b3), exactly: three Laplace mechanisms on the same query moved by d_in; the privacy
    loss is the sum of the three (each at most d_in/b_i, all attained at one output: x_i <= 0), so the pure-DP
    epsilon is the sum (RRUV16 Thm 2.9 gives <=; the common output gives =)."""
    return _exact(_q(d_in) * (1 / _q(b1) + 1 / _q(b2) + 1 / _q(b3)))


@_named("tmlt_core.laplace_max_eps (parallel composition of Laplace on SumOf(AbsoluteDifference), attained)")
def laplace_max_eps(b1, b2, b3, d_in):
    """d_in / min(b1, b2, b3), exactly: three Laplace mechanisms on the three parts of a list whose distance
    SumOf(AbsoluteDifference()) is d_in: the parts move by d_i with sum d_i <= d_in and the loss sum d_i/b_i is at
    most d_in/min b_i, attained by moving only the part of the smallest scale."""
    return _exact(_q(d_in) / min(_q(b1), _q(b2), _q(b3)))


@_named("tmlt_core.pure_eps_at_delta (an eps-DP measurement is (eps, delta)-DP for every delta; Laplace eps)")
def pure_eps_at_delta(scale, d_in, delta):
    """d_in / scale at every delta: the converted measurement's (eps, 0)-DP, the definition's inclusion (an eps-DP
    mechanism is (eps, delta)-DP for all delta >= 0) applied to the Laplace mechanism's exact eps; the rule
    PureDPToApproxDP states."""
    return _exact(_q(d_in) / _q(scale))


@_named("tmlt_core.em_eps (MT07 Thm 6, group privacy: eps d_in)")
def em_eps(eps, d_in):
    """eps d_in, exactly: the exponential mechanism with weights exp(eps u / (2 Delta u)) is eps-DP (McSherry,
    Talwar, FOCS 2007, Thm 6); d_in records move u by at most d_in Delta u, hence eps d_in (the formula NoisyQuantile
    states)."""
    return _exact(_q(eps) * _q(d_in))


@_named("tmlt_core.em_zcdp (Cesar, Rogers 2021, arXiv:2004.07223: eps-BR => eps^2/8-zCDP)")
def em_zcdp(eps, d_in):
    """(eps d_in)^2 / 8, exactly: the exponential mechanism is (eps d_in)-bounded-range (Durfee, Rogers, NeurIPS
    2019, arXiv:1905.04273) and an eps-bounded-range mechanism is eps^2/8-zCDP (Cesar, Rogers, ALT 2021,
    arXiv:2004.07223, the bounded-range lemma; the paper tmlt.core cites as Cesar021)."""
    return _exact((_q(eps) * _q(d_in)) ** 2 / 8)


@_named("tmlt_core.em_sum_eps (MT07 Thm 6 per column, RRUV16 Thm 2.9)")
def em_sum_eps(eps1, eps2, d_in):
    """(eps1 + eps2) d_in, exactly: two exponential mechanisms on the same d_in records, basic composition."""
    return _exact((_q(eps1) + _q(eps2)) * _q(d_in))


@_named("tmlt_core.em_sum_zcdp (Cesar-Rogers per column, BS16 Lemma 2.3)")
def em_sum_zcdp(eps1, eps2, d_in):
    """((eps1 d_in)^2 + (eps2 d_in)^2) / 8, exactly: two exponential mechanisms' zCDP (eps^2/8 each), composed (BS16
    Lemma 2.3); on groups under RootSumOfSquared the group distances' squares sum to at most d_in^2."""
    return _exact(((_q(eps1) * _q(d_in)) ** 2 + (_q(eps2) * _q(d_in)) ** 2) / 8)


@_named("tmlt_core.partition_eps (the geometric count's loss at d_in 1)")
def partition_eps(scale, threshold):
    """1 / alpha, exactly: a key's count moves by one record, two-sided geometric noise of parameter alpha."""
    return _exact(1 / _q(scale))


@_named("tmlt_core.partition_delta (a key on one side only, released iff 1 + Z >= threshold)")
def partition_delta(scale, threshold):
    """The least delta at eps = 1/alpha of the thresholded geometric partition selection at d_in = 1, exactly:
    Z two-sided geometric, pmf proportional to p^|z|, p = e^{-1/alpha}; a key present on one side only with count 1
    is released iff 1 + Z >= threshold, probability P(Z >= m), m = threshold - 1, and never on the other side, so
    delta >= P(Z >= m); every other key's count moves by one, its (released or not) output ratio at most e^{1/alpha}.
    P(Z >= m) = p^m / (1 + p) for m >= 1 and 1 - p^{1 - m} / (1 + p) for m <= 0.  In arb."""
    from dpbounds.audit.peers._refs import _arb_enclosure
    from dpbounds.evaluation.numeric import arb_prec, fraction_to_arb
    m = int(_q(threshold)) - 1
    with arb_prec(256):
        p = (-1 / fraction_to_arb(_q(scale))).exp()
        v = p ** m / (1 + p) if m >= 1 else 1 - p ** (1 - m) / (1 + p)
        return _arb_enclosure(v, "tmlt_core.partition_delta")


@_named("tmlt_core.remaining_eps (RRUV16 Thm 2.9: epsilons add)")
def budget_remaining_eps(total_epsilon, total_delta, eps, delta):
    """total_epsilon - eps, exactly: under basic composition (RRUV16 Thm 2.9) a spend of (eps, delta) leaves
    (total_epsilon - eps, total_delta - delta) of an (eps, delta) budget."""
    return _exact(_q(total_epsilon) - _q(eps))


@_named("tmlt_core.remaining_delta (RRUV16 Thm 2.9: deltas add)")
def budget_remaining_delta(total_epsilon, total_delta, eps, delta):
    """total_delta - delta, exactly (basic composition, RRUV16 Thm 2.9)."""
    return _exact(_q(total_delta) - _q(delta))


@_named("tmlt_core.budget_eps (RRUV16 Thm 2.9: a spend fits iff eps <= total and delta <= total)")
def budget_largest_eps(total_epsilon, total_delta, delta):
    """total_epsilon, exactly: the largest eps of a spend (eps, delta <= total_delta) an (eps, delta) budget can
    take under basic composition (RRUV16 Thm 2.9)."""
    return _exact(_q(total_epsilon))


@_named("tmlt_core.accountant_remaining (RRUV16 Thm 2.9: total - n eps)")
def accountant_remaining(total_epsilon, eps, n):
    """total_epsilon - n eps, exactly: n Laplace measurements of scale 1/eps at d_in 1 (each exactly eps-DP) spent
    from a pure-DP budget under basic composition (RRUV16 Thm 2.9)."""
    return _exact(_q(total_epsilon) - int(n) * _q(eps))


@_named("tmlt_core.laplace_scale_min (DMNS06: the least scale is d_in/eps)")
def laplace_scale_min(d_in, eps):
    """d_in / eps, exactly: the least Laplace (or geometric) scale with which a query moved by d_in is eps-DP (the
    loss d_in/b is attained, DMNS06)."""
    return _exact(_q(d_in) / _q(eps))


@_named("tmlt_core.sigma_of_rho (BS16 Prop. 1.6: the least sigma is d_in/sqrt(2 rho))")
def sigma_of_rho(d_in, rho):
    """d_in / sqrt(2 rho): the least standard deviation with which Gaussian (and, at integer d_in, discrete Gaussian)
    noise on a query moved by d_in is rho-zCDP (BS16 Prop. 1.6, tight; see gauss_rho).  In arb."""
    from dpbounds.audit.peers._refs import _arb_enclosure
    from dpbounds.evaluation.numeric import arb_prec, fraction_to_arb
    with arb_prec(256):
        v = fraction_to_arb(_q(d_in)) / (2 * fraction_to_arb(_q(rho))).sqrt()
        return _arb_enclosure(v, "tmlt_core.sigma_of_rho")


#: a real-valued query (AbsoluteDifference on floats), an integer one (geometric noise, counts, SymmetricDifference)
REAL = {"scale": (1e-3, 1e3), "d_in": (1e-3, 1e3)}
REAL_EX = ({"scale": 3.0, "d_in": 1.0}, {"scale": 0.7, "d_in": 5.0}, {"scale": 2.0, "d_in": 0.1})
INT = {"scale": (1e-2, 1e2), "d_in": (1, 100)}
INT_EX = ({"scale": 3.0, "d_in": 1}, {"scale": 0.7, "d_in": 5}, {"scale": 1.5, "d_in": 2})
_DMNS = "Dwork, McSherry, Nissim, Smith, TCC 2006 (Laplace: eps = d_in / scale, attained)"
_GRS = "Ghosh, Roughgarden, Sundararajan, STOC 2009 (two-sided geometric: eps = d_in / alpha, attained)"


#: search examples a second at most (``Declaration.rate``) of the calls that cost tmlt.core tens of milliseconds,
#: so that a search's budget is judged within its cap (``--search 60``: 90 s) rather than cut by it: measured in one
#: full ``--search 60`` audit with one job (load 4-6), examples judged per second of search -- the partition
#: selection's (a Spark-domain measurement built per call, about 40 ms) 10-13, the zCDP relation's (sympy) 22,
#: ApproxDPBudget's spend check 17 -- with room for a busier machine
RATES = {"partition_selection": 6, "pure_to_zcdp_relation": 12, "approx_budget_largest_eps": 10}


def declarations():
    from dpbounds.audit.peers._common import decl
    from dpbounds.spec.papers import paper
    c = __name__ + ".calls:"
    bs16 = f"Bun, Steinke, TCC 2016-B, {paper('BS16').arxiv_ref()}"
    cks = f"Canonne, Kamath, Steinke, NeurIPS 2020, {paper('CKS20').arxiv_ref()}, Thm 4 (tight at integer shifts)"
    rruv = f"Rogers, Roth, Ullman, Vadhan, NIPS 2016, {paper('RRUV16').arxiv_ref()}, Thm 2.9 (basic composition)"
    mt07 = "McSherry, Talwar, FOCS 2007, Thm 6 (the exponential mechanism), with group privacy over d_in records"
    cr21 = ("Cesar, Rogers, ALT 2021, arXiv:2004.07223 (eps-bounded range => eps^2/8-zCDP), with Durfee, Rogers, "
            "NeurIPS 2019, arXiv:1905.04273 (the exponential mechanism is eps-bounded range)")
    n = PEER.name

    def fwd(function, call, ref=laplace_eps, dom=REAL, ex=REAL_EX, cites=_DMNS, check=""):
        """A declaration judged against the wrapped (or the measurement's own) mechanism's exact loss."""
        return decl(n, function, c + call, ref, dom, examples=ex, cites=cites, against="truth", check=check)

    eps_of = "the smallest eps the relation accepts at d_in"
    out = [
        fwd(_M + "noise_mechanisms.AddGeometricNoise.privacy_function", "geometric_eps", dom=INT, ex=INT_EX,
            cites=_GRS, check="geometric noise: eps at d_in"),
        fwd(_M + "noise_mechanisms.AddDiscreteGaussianNoise.privacy_function", "discrete_gaussian_rho", gauss_rho,
            INT, INT_EX, cites=cks, check="discrete Gaussian noise (sigma = scale): rho at d_in"),
        fwd(_M + "base.Measurement.privacy_relation(AddLaplaceNoise)", "laplace_relation", check=eps_of),
        fwd(_M + "interactive_measurements.MakeInteractive(AddLaplaceNoise).privacy_relation",
            "make_interactive_relation", check=eps_of),
        fwd(_M + "postprocess.PostProcess(AddLaplaceNoise).privacy_function", "post_process",
            check="forwarded eps at d_in"),
        fwd(_M + "postprocess.PostProcess(AddLaplaceNoise).privacy_relation", "post_process_relation",
            check=eps_of),
        fwd(_M + "postprocess.NonInteractivePostProcess(MakeInteractive(AddLaplaceNoise)).privacy_function",
            "non_interactive_post_process", check="forwarded eps at d_in"),
        fwd(_M + "postprocess.NonInteractivePostProcess(MakeInteractive(AddLaplaceNoise)).privacy_relation",
            "non_interactive_post_process_relation", check=eps_of),
        fwd(_M + "derived.DerivedMeasurement(AddLaplaceNoise).privacy_function", "derived",
            check="forwarded eps at d_in"),
        fwd(_M + "derived.DerivedMeasurement(AddLaplaceNoise).privacy_relation", "derived_relation", check=eps_of),
        fwd(_M + "interactive_measurements.DecorateQueryable(MakeInteractive(AddLaplaceNoise)).privacy_function",
            "decorate_queryable", check="forwarded eps at d_in"),
        fwd(_M + "chaining.ChainTM(Count, AddGeometricNoise).privacy_function", "chain_count_geometric", dom=INT,
            ex=INT_EX, cites=_GRS + "; a count moves by d_in under SymmetricDifference",
            check="a noisy count: eps at d_in"),
        fwd(_M + "chaining.ChainTM(Count, AddGeometricNoise).privacy_relation", "chain_count_geometric_relation",
            dom=INT, ex=INT_EX, cites=_GRS + "; a count moves by d_in under SymmetricDifference", check=eps_of),
        fwd(_M + "composition.Composition(AddLaplaceNoise x 3).privacy_relation", "composition_relation",
            laplace_sum_eps, {"b1": (1e-2, 1e2), "b2": (1e-2, 1e2), "b3": (1e-2, 1e2), "d_in": (1e-3, 1e3)},
            ({"b1": 1.0, "b2": 2.0, "b3": 3.0, "d_in": 1.0}, {"b1": 0.3, "b2": 0.3, "b3": 7.0, "d_in": 2.5}),
            cites=rruv + "; attained by the Laplace mechanisms", check=eps_of),
        fwd(_M + "interactive_measurements.ParallelComposition(MakeInteractive(AddLaplaceNoise) x 3)"
            ".privacy_function", "parallel_composition", laplace_max_eps,
            {"b1": (1e-2, 1e2), "b2": (1e-2, 1e2), "b3": (1e-2, 1e2), "d_in": (1e-3, 1e3)},
            ({"b1": 1.0, "b2": 2.0, "b3": 3.0, "d_in": 1.0}, {"b1": 5.0, "b2": 0.3, "b3": 7.0, "d_in": 2.5}),
            cites="parallel composition on SumOf(AbsoluteDifference()): the change split over the parts, attained "
                  "on the part of the smallest scale", check="eps at d_in"),
        decl(n, _M + "converters.PureDPToRhoZCDP(AddLaplaceNoise).privacy_relation", c + "pure_to_zcdp_relation",
             "conversions.bs16.pure_to_zcdp", {"eps": (1e-4, 20.0)},
             examples=({"eps": 0.1}, {"eps": 1.0}, {"eps": 0.7}, {"eps": 3.0}),
             cites=f"{bs16}, Prop. 1.4 (eps-DP => eps^2/2-zCDP)", against="cited",
             check="the smallest rho accepted at d_in 1 (eps-DP Laplace)", rate=RATES["pure_to_zcdp_relation"]),
        fwd(_M + "converters.PureDPToApproxDP(AddLaplaceNoise).privacy_function [epsilon]", "pure_to_approx_eps",
            check="epsilon of (epsilon, 0) at d_in"),
        decl(n, _M + "converters.PureDPToApproxDP(AddLaplaceNoise).privacy_relation", c + "pure_to_approx_relation",
             pure_eps_at_delta, {**REAL, "delta": (0.0, 0.5)},
             examples=({"scale": 3.0, "d_in": 1.0, "delta": 1e-6}, {"scale": 0.7, "d_in": 5.0, "delta": 0.0}),
             cites="the definition: eps-DP => (eps, delta)-DP for every delta; " + _DMNS, against="cited",
             check="the smallest eps accepted at (d_in, delta)"),
        fwd(_M + "pandas_measurements.series.AddNoiseToSeries(AddGeometricNoise).privacy_function",
            "add_noise_to_series", dom=INT, ex=INT_EX,
            cites=_GRS + "; SumOf(AbsoluteDifference()): the entries' moves sum to d_in", check="eps at d_in"),
        fwd(_M + "pandas_measurements.series.AddNoiseToSeries(AddDiscreteGaussianNoise).privacy_function",
            "add_noise_to_series_gaussian", gauss_rho, INT, INT_EX,
            cites=cks + "; RootSumOfSquared(AbsoluteDifference()): the moves' squares sum to d_in^2",
            check="rho at d_in"),
        fwd(_M + "spark_measurements.AddNoiseToColumn(AddNoiseToSeries(AddGeometricNoise)).privacy_function",
            "add_noise_to_column", dom=INT, ex=INT_EX, cites=_GRS, check="eps at d_in (no Spark session)"),
        decl(n, _M + "pandas_measurements.series.NoisyQuantile(PureDP).privacy_function", c + "noisy_quantile", em_eps,
             {"eps": (1e-3, 1e2), "d_in": (1, 100)}, examples=({"eps": 0.3, "d_in": 2}, {"eps": 1.0, "d_in": 1}),
             cites=mt07, against="cited", check="the exponential mechanism's eps at d_in"),
        decl(n, _M + "pandas_measurements.series.NoisyQuantile(RhoZCDP).privacy_function", c + "noisy_quantile_zcdp",
             em_zcdp, {"eps": (1e-3, 1e2), "d_in": (1, 100)},
             examples=({"eps": 0.3, "d_in": 2}, {"eps": 1.0, "d_in": 1}), cites=cr21, against="cited",
             check="the exponential mechanism's rho at d_in"),
    ]
    two = {"eps1": (1e-3, 1e2), "eps2": (1e-3, 1e2), "d_in": (1, 100)}
    two_ex = ({"eps1": 0.3, "eps2": 0.2, "d_in": 2}, {"eps1": 1.0, "eps2": 0.05, "d_in": 1})
    out += [
        decl(n, _M + "pandas_measurements.dataframe.AggregateByColumn(NoisyQuantile x 2).privacy_function",
             c + "aggregate_by_column", em_sum_eps, two, examples=two_ex, cites=f"{mt07}; {rruv}", against="cited",
             check="eps at d_in"),
        decl(n, _M + "pandas_measurements.dataframe.AggregateByColumn(NoisyQuantile x 2).privacy_relation",
             c + "aggregate_by_column_relation", em_sum_eps, two, examples=two_ex, cites=f"{mt07}; {rruv}",
             against="cited", check=eps_of),
        decl(n, _M + "spark_measurements.ApplyInPandas(AggregateByColumn(NoisyQuantile x 2)).privacy_function",
             c + "apply_in_pandas", em_sum_zcdp, two, examples=two_ex, cites=f"{cr21}; {bs16}, Lemma 2.3",
             against="cited", check="rho at d_in (RootSumOfSquared, no Spark session)"),
    ]
    part = {"scale": (0.05, 100.0), "threshold": (-5, 400)}
    part_ex = ({"scale": 1.5, "threshold": 5}, {"scale": 1.0, "threshold": 1}, {"scale": 2.0, "threshold": 40},
               {"scale": 0.5, "threshold": -2}, {"scale": 10.0, "threshold": 2})
    sel = _M + "spark_measurements.GeometricPartitionSelection.privacy_function"
    out += [
        decl(n, sel + " [epsilon]", c + "partition_selection_eps", partition_eps, part, examples=part_ex,
             cites=_GRS, against="truth", check="epsilon at d_in 1", rate=RATES["partition_selection"]),
        decl(n, sel + " [delta]", c + "partition_selection_delta", partition_delta, part, examples=part_ex,
             cites="the release rule (a key's noisy count >= threshold is released): P(Z >= threshold - 1) for a "
                   "key on one side only", against="truth", check="delta at d_in 1 (its epsilon 1/alpha)",
             rate=RATES["partition_selection"]),
    ]
    bud = {"total_epsilon": (0.5, 10.0), "total_delta": (1e-6, 0.5), "eps": (0.0, 0.5), "delta": (0.0, 1e-6)}
    bud_ex = ({"total_epsilon": 1.0, "total_delta": 1e-6, "eps": 0.3, "delta": 1e-7},
              {"total_epsilon": 3.0, "total_delta": 0.01, "eps": 0.1, "delta": 0.0})
    m = "tmlt.core.measures.ApproxDPBudget"
    out += [
        decl(n, m + ".subtract [epsilon]", c + "approx_budget_remaining_eps", budget_remaining_eps, bud,
             claim="lower", examples=bud_ex, cites=rruv, against="cited", check="the epsilon left after a spend"),
        decl(n, m + ".subtract [delta]", c + "approx_budget_remaining_delta", budget_remaining_delta, bud,
             claim="lower", examples=bud_ex, cites=rruv, against="cited", check="the delta left after a spend"),
        decl(n, m + ".assert_can_spend_budget", c + "approx_budget_largest_eps", budget_largest_eps,
             {k: bud[k] for k in ("total_epsilon", "total_delta", "delta")}, claim="lower",
             examples=({"total_epsilon": 1.0, "total_delta": 1e-6, "delta": 1e-7},
                       {"total_epsilon": 0.7, "total_delta": 0.01, "delta": 0.0}),
             cites=rruv, against="cited", check="the largest epsilon a spend may take (delta <= total_delta)",
             rate=RATES["approx_budget_largest_eps"]),
        decl(n, _M + "interactive_measurements.PrivacyAccountant.privacy_budget", c + "accountant_budget",
             accountant_remaining, {"total_epsilon": (1.0, 10.0), "eps": (1e-3, 0.09), "n": (1, 10)}, claim="lower",
             # n eps < 1 <= total_epsilon over the whole domain (the float 0.1 is above 1/10: ten of it exceed 1)
             examples=({"total_epsilon": 1.0, "eps": 0.09, "n": 3}, {"total_epsilon": 2.5, "eps": 0.07, "n": 10}),
             cites=rruv, against="cited", check="the pure-DP budget left after n eps-DP measurements"),
        decl(n, "tmlt.core.utils.parameters.calculate_noise_scale(PureDP)", c + "noise_scale_pure",
             laplace_scale_min, {"d_in": (1e-3, 1e3), "eps": (1e-3, 1e2)},
             examples=({"d_in": 1.0, "eps": 0.5}, {"d_in": 3.0, "eps": 0.7}), cites=_DMNS, against="truth",
             check="the Laplace / geometric scale for eps at d_in"),
        decl(n, "tmlt.core.utils.parameters.calculate_noise_scale(RhoZCDP)", c + "noise_scale_zcdp", sigma_of_rho,
             {"d_in": (1e-3, 1e3), "rho": (1e-4, 1e2)},
             examples=({"d_in": 1.0, "rho": 0.5}, {"d_in": 1.0, "rho": 0.3}, {"d_in": 2.0, "rho": 0.01}),
             cites=f"{bs16}, Prop. 1.6 (tight)", against="truth", check="the Gaussian sigma for rho at d_in"),
    ]
    return out
