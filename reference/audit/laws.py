"""The laws every declaration's quantity obeys, checked by the audit with :func:`dpbounds.testing.check_laws` over
the declared domain widened to its documented edges.

What a declaration returns (its *quantity*) is read from its reference (a registry id or the name of a certified
callable) or given by ``Declaration.quantity`` when set; the laws follow from the quantity and the input names:

=========  =======================================================================================================
quantity   laws
=========  =======================================================================================================
eps        >= 0, not NaN; non-increasing in the target delta; non-decreasing in k, q, rho / R / mu (the privacy parameters
           composed or converted) and a sensitivity; non-increasing in sigma (or the noise scale)
delta      in [0, 1], not NaN; non-increasing in the target eps (eps_g); non-decreasing in a composed mechanism's
           own eps and delta; as eps for k, q, sigma, rho
rdp        >= 0, not NaN; non-decreasing in alpha (Van Erven & Harremoes 2014, Thm 3), k, q; non-increasing in sigma
beta       (a trade-off curve at fpr) in [0, 1 - fpr]; non-increasing in fpr; non-increasing in eps, delta, mu,
           rho, R, k, q; non-decreasing in sigma
sigma      (a noise calibration) >= 0, not NaN; non-increasing in eps, delta and rho; non-decreasing in a
           sensitivity
mu, rho    >= 0, not NaN; non-decreasing in k, q, a sensitivity; non-increasing in sigma (or the noise scale)
advantage  (an attack's advantage) in [0, 1]; non-decreasing in k, q, mu; non-increasing in sigma; a Bayes risk
           (``risk``) the reverse
spent      (a budget spent by k charges of x) >= 0; non-decreasing in k and x
remaining  (a budget left after n spends) >= 0; non-increasing in n and in the spend; non-decreasing in the total
mixture    (``log_mixture``: log m(s, V) of a mixture of exp(lambda s - V psi(lambda)), psi >= 0) not NaN;
           non-increasing in V
=========  =======================================================================================================

and, for every quantity, ``terminates`` and ``no_crash``.

A filter or an odometer is checked through one number of a stream (:func:`stream_value`): ``k`` rounds charging
``<cost>`` each, then one round charging ``last_<cost>``, from a fresh object built with the budget inputs.  For a
filter the number is how many rounds it lets run (the rounds before its first HALT, 0 to k + 1); for an odometer
the running value it reports after the last round.  Laws (for the references in :data:`MONOTONE_STREAMS`, each a
non-decreasing function of the per-round costs compared with the budget -- the spec entries' ``halt`` and
``monotone``: basic composition, Rogers, Roth, Ullman, Vadhan, NIPS 2016, arXiv:1605.08294v3, Thm 3.4; the zCDP
filter, Feldman, Zrnic, NeurIPS 2021, arXiv:2008.11193 (an early revision), Remark 4.4):

=========  =======================================================================================================
filter     rounds allowed non-increasing in each cost (a stream that HALTs keeps HALTing when a round's cost
           grows) and in the last round's cost, non-decreasing in the budget
odometer   finite, >= 0; non-decreasing in each cost, in the last round's cost and in k (more rounds never spend
           less)
=========  =======================================================================================================

A float implementation obeys them exactly, not only to a tolerance: IEEE rounding is monotone, so a sum of costs
rounded at each step is non-decreasing in every cost, and comparing it with the budget is monotone in both; a
decision that flips back as a cost grows is no rounding.  The costs searched are positive (a zero-cost round is an
input some filters refuse with an error, which a filter wrapper reports as HALT).

The conversions' monotonicity laws are those of the true quantities (Dong, Roth, Su 2019, arXiv:1905.02383v3,
Sec. 2: a trade-off curve is non-increasing; composition and subsampling can only lose privacy as k and q grow,
Gaussian noise only gain it as sigma grows); an accountant's float output obeys them to within its own stated error
(``rtol``: the relative tolerance per peer, :data:`RTOL`).

The domain: each interval input widened to its documented edges -- delta and fpr to [0, 1], eps to 1000 (past
exp's overflow at 709.78; the target eps of a delta, not a mechanism's eps), alpha down to the float above 1 (and
1 + 1e-9, 1.0001 added to a list of orders: orders are documented > 1, Opacus #49), q up to 1, R and rho down to 0 --
so that the edges where the trackers' bugs live (delta -> 0 and 1, alpha -> 1, q = 1, very large eps) are searched.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from fractions import Fraction
from typing import Any, Mapping

from dpbounds.testing.declarations import Declaration, Remote, resolve_call
from dpbounds.testing.engine import Unjudged
from dpbounds.testing.laws import Forked, LawResult, check_laws

#: examples per law group in the audit (the point laws together, each monotonicity law on its own)
EXAMPLES = 40
#: one call's cap (law ``terminates``)
CALL_SECONDS = 20.0
#: relative tolerance of the monotonicity and range laws per peer: the stated error of an approximate accountant
#: (PRV: eps_error 0.01 on eps ~ 1; PLD discretisation), else float noise
RTOL = {"prv_accountant": 0.02, "opacus": 1e-6, "dp_accounting": 1e-6, "jax_privacy": 1e-6, "opake": 1e-6,
        "fourier_accountant": 1e-3, "pld_accounting": 1e-6, "gdpnum": 1e-6, "riskcal": 1e-6}
DEFAULT_RTOL = 1e-9

_EPS = ("eps", "eps_g", "epsilon", "ei")
_DELTA = ("delta", "delta_g", "di", "slack")
_K = ("k", "n", "k1", "k2", "steps", "T")
_SIGMA = ("sigma", "noise_multiplier", "s1", "s2", "scale", "b")
#: sensitivities: more of one never gives more privacy
_SENS = ("sensitivity", "d_in", "l0", "linf")
_LEVEL = ("rho", "R", "mu", "V")
_Q = ("q", "q1", "q2")

#: the quantity of a reference: registry id prefixes and the names of the certified callables the peers use
_BY_REF = [("composition.sgm.eps", "eps"), ("composition.sgm.delta", "delta"), ("mechanisms.sgm.rdp", "rdp"),
           ("mechanisms.laplace.delta", "delta"), ("mechanisms.laplace.rdp", "rdp"), ("conversions.rdp.optimal.delta", "delta"),
           ("conversions.rdp.cks20.delta", "delta"), ("conversions.rdp.mironov.delta", "delta"), ("conversions.gauss.delta", "delta"),
           ("conversions.", "eps"), ("tradeoff.", "beta")]
_BY_CALLABLE = {"gauss_sigma_min": "sigma", "sigma_min": "sigma", "laplace_scale_min": "sigma", "sgm_tradeoff": "beta", "sgm_mu": "mu",
                "gauss_eps": "eps", "exact_eps": "eps", "cks20_eps": "eps", "cks20_on_orders": "eps", "cks20_optimum": "eps",
                "gauss_eps_of_sigma": "eps", "gauss_eps_two": "eps", "adv_comp_eps": "eps", "kov15_total": "eps",
                "gauss_delta": "delta", "exact_delta": "delta", "kov15_delta": "delta", "kov15_rr": "delta",
                "stitching": "boundary", "gauss_lower": "eps", "substitution_eps": "eps",
                "fixed_size_eps": "eps", "sgm_rdp_k": "rdp",
                "gauss_delta_of_sigma": "delta", "gauss_delta_two": "delta", "kov15_one": "delta",
                "gauss_rdp": "rdp", "zcdp_rdp": "rdp", "gauss_delta_rho": "delta", "min_delta": "delta",
                "substitution_delta": "delta", "remaining_eps": "remaining", "remaining_dl": "remaining",
                "clt_mu_poisson": "mu", "clt_mu_uniform": "mu", "clt_mu_poisson_epochs": "mu",
                "clt_mu_uniform_epochs": "mu", "clt_eps_poisson": "eps", "clt_eps_uniform": "eps",
                "clt_eps_uniform_epochs": "eps", "gdp_eps": "eps", "laplace_eps": "eps", "gauss_rho": "rho",
                "tree_zcdp_one_leaf": "rho", "sigma_of_rho": "sigma", "laplace_std_min": "sigma",
                "gaussian_std_min": "sigma", "laplace_rdp_of_mu": "rdp", "rr_rdp": "rdp",
                "kfold_eps_delta": "delta", "eps_from_err_rates": "eps", "bayes_risk_gdp": "risk",
                "gauss_bayes_risk": "risk", "gauss_beta": "beta", "gauss_advantage": "advantage",
                "sgm_advantage": "advantage", "sgm_sigma_for_advantage": "sigma", "sgm_sigma_for_err_rates": "sigma",
                "kfold_sum": "spent", "schedule_eps": "eps", "schedule_delta": "delta",
                "dp_eps_for_delta": "eps", "pure_pair_delta": "delta", "sgm1_delta_remove": "delta",
                "sgm1_delta_add": "delta", "mc_rr_delta": "delta", "dlap_threshold_eps": "eps",
                "zcdp_advantage": "advantage",
                # a threshold's release probability grows with the noise scale: only its range is a law
                "dlap_threshold_delta": "probability",
                # an inverse noise parameter, a per-query share of a budget: their directions differ from
                # the ones the names suggest (a discrete Laplace parameter is 1/scale): only the sign is a law
                "dlap_parameter_max": "level", "dlap_parameter_pure": "level", "adv_comp_eps_per_query": "level",
                "kov15_remaining": "level",
                "rr_rdp_of_p": "rdp", "rr_eps_of_p": "eps", "laplace_eps_of_b": "eps", "subsampled_rr_rdp": "rdp",
                "pate_gauss_rdp": "rdp", "tcdp_rdp": "rdp", "tradeoff_rdp_at_log": "beta",
                "tradeoff_zcdp_at_log": "beta", "wor_gauss_instance_eps": "eps", "em_counting_delta": "delta", "total_delta": "delta",
                "bb_bound": "boundary", "bb_log_mixture": "log_mixture",
                # the effective epsilon of the bounded-domain Laplace mechanism: its sign only
                "bounded_laplace_eff_eps": "level",
                # tmlt.core's references (reference/audit/peers/tmlt_core): a loss at d_in, a budget left, a
                # release probability (range only), the largest spend a budget takes (sign only)
                "laplace_sum_eps": "eps", "laplace_max_eps": "eps", "pure_eps_at_delta": "eps", "em_eps": "eps",
                "em_zcdp": "rho", "em_sum_eps": "eps", "em_sum_zcdp": "rho", "partition_eps": "eps",
                "partition_delta": "probability", "budget_remaining_eps": "remaining",
                "budget_remaining_delta": "remaining", "accountant_remaining": "remaining",
                "budget_largest_eps": "level"}


def quantity(decl: Declaration) -> str | None:
    """What ``decl`` returns: eps, delta, rdp, beta, sigma, mu, rho, advantage, risk, boundary, log_mixture (a
    mixture supermartingale's log), spent, remaining, probability (in [0, 1], no direction), level (>= 0, no
    direction); None when not known."""
    q = getattr(decl, "quantity", None)
    if q:
        return str(q)
    ref = decl.reference
    if isinstance(ref, str):
        if ref.endswith(".advantage"):  # tradeoff.gdp.advantage, tradeoff.dp.advantage
            return "advantage"
        if ref.startswith("conversions.") and ref.endswith(".delta"):  # a conversion's delta form
            return "delta"
        for prefix, what in _BY_REF:
            if ref.startswith(prefix):
                return what
        return None
    return _BY_CALLABLE.get(getattr(ref, "__name__", ""))


def laws_for(decl: Declaration) -> list[str]:
    """The laws ``decl``'s quantity obeys over its inputs (module docstring); for a filter or an odometer, the laws of
    its stream value over :func:`stream_inputs`; [] for an unknown quantity or a stream whose reference is not in
    :data:`MONOTONE_STREAMS`."""
    if decl.kind != "conversion":
        return _stream_laws(decl)
    what = quantity(decl)
    if what is None:
        return []
    names = list(decl.inputs)
    out = ["terminates", "no_crash", "not_nan"]
    up: list[str] = []     # non-decreasing in
    down: list[str] = []   # non-increasing in
    if what in ("eps", "delta", "rdp", "mu", "rho"):
        out.append("nonnegative")
        if what == "delta":
            out.append("at_most_one")
        up += [n for n in names if n in _K or n in _Q or n in _LEVEL or n in _SENS]
        down += [n for n in names if n in _SIGMA]
        if what == "eps":
            # the target delta (delta_g, else delta) down; a composed mechanism's own eps up.  A per-mechanism
            # delta (di) gets no law: the total delta it is read at may move with it
            target = _target(names, ("delta_g", "delta"))
            down += [n for n in names if n == target]
            up += [n for n in names if n in ("ei",) or (n in _EPS and n != "eps_g")]
            down += [n for n in names if n in ("fpr", "fnr")]  # eps from attack error rates: smaller errors, more
        if what == "delta":
            # the target eps (eps_g, else eps) down; a composed mechanism's own eps and delta up
            target = _target(names, ("eps_g", "eps", "epsilon"))
            down += [n for n in names if n == target]
            up += [n for n in names if (n in _EPS or n in ("delta", "di")) and n != target]
        if what == "rdp":  # in the order, and in a pure-DP level it is the RDP of
            up += [n for n in names if n == "alpha" or n in ("eps",)]
    elif what in ("advantage", "risk"):
        # an attack advantage is in [0, 1] and grows with the privacy loss; a Bayes risk shrinks with it
        out.append("nonnegative")
        out.append("at_most_one")
        more = [n for n in names if n in _K or n in _Q or n in _LEVEL or n in _EPS or n in _DELTA]
        less = [n for n in names if n in _SIGMA]
        up += more if what == "advantage" else less
        down += less if what == "advantage" else more
    elif what == "beta":
        out.append("nonnegative")
        if "fpr" in names:
            out.append("at_most_one_minus:fpr")
            down.append("fpr")
        down += [n for n in names if n in _EPS or n in _DELTA or n in _LEVEL or n in _K or n in _Q]
        up += [n for n in names if n in _SIGMA]
    elif what == "sigma":
        out.append("nonnegative")
        down += [n for n in names if n in _EPS or n in _DELTA or n in _LEVEL or n == "advantage"]
        # more sensitivity, more steps or a larger sampling rate never need less noise
        up += [n for n in names if n in _SENS or n in _K or n in _Q]
    elif what == "remaining":
        # a budget left after n spends: more spends, or larger ones, leave less; a larger total leaves more
        out.append("nonnegative")
        down += [n for n in names if n in _K or n in _EPS or n in _DELTA]
        up += [n for n in names if n in ("total_epsilon", "total_delta")]
    elif what == "spent":
        # a budget spent by k equal charges of x: more charges, or larger ones, spend more
        out.append("nonnegative")
        up += [n for n in names if n in _K or n == "x"]
    elif what == "probability":
        out += ["nonnegative", "at_most_one"]
    elif what == "level":
        out.append("nonnegative")
    elif what == "log_mixture":  # log m(s, V): any sign; each exp(lambda s - V psi(lambda)) falls with V (psi >= 0)
        down += [n for n in names if n == "V"]
    elif what == "boundary":
        out.append("nonnegative")
        down += [n for n in names if n in _DELTA]
        up += [n for n in names if n == "V"]
    mono = [f"nondecreasing:{n}" for n in up if _varies(decl.inputs[n])] + \
        [f"nonincreasing:{n}" for n in down if _varies(decl.inputs[n])]
    # the law in the quantity's own argument first (eps in delta, delta in eps, RDP in alpha, beta in fpr): the one
    # every caller relies on, searched before the composition parameters when calls are slow
    own = {"eps": _DELTA, "delta": _EPS, "rdp": ("alpha",), "beta": ("fpr",), "sigma": _EPS + _DELTA}.get(what, ())
    return out + sorted(mono, key=lambda law: law.partition(":")[2] not in own)


def _target(names: list[str], order: tuple[str, ...]) -> str | None:
    """The first of ``order`` among ``names``: the quantity's own argument."""
    return next((n for n in order if n in names), None)


def _varies(domain: Any) -> bool:
    if isinstance(domain, tuple) and len(domain) == 2:
        return domain[0] < domain[1]
    return len(set(domain)) > 1


#: where an adapter's own wrapper cannot take a documented edge (a parameter it derives from the input): the law
#: domain of that input there, per (peer, the calls module's function)
EDGES = {("prv_accountant", "epsilon_upper"): {"delta": (1e-300, 1.0)}}


def widened(inputs: Mapping[str, Any], what: str | None = None, peer: str = "", call: str = "") -> dict[str, Any]:
    """The declared domain widened to its documented edges (module docstring)."""
    target_eps = ("eps_g" if "eps_g" in inputs else "eps") if what == "delta" else None
    out: dict[str, Any] = {}
    for name, dom in inputs.items():
        if isinstance(dom, tuple) and len(dom) == 2 and not (isinstance(dom[0], int) and isinstance(dom[1], int)):
            lo, hi = float(dom[0]), float(dom[1])
            if (name in ("delta", "delta_g") and what in ("eps", "sigma", "beta", "boundary")) or name == "fpr":
                lo, hi = 0.0, 1.0
            elif name == target_eps:
                lo, hi = min(lo, 0.0), max(hi, 1000.0)
            elif name == "alpha":  # orders are documented > 1: searched down to the float above 1, not at 1
                lo = min(lo, math.nextafter(1.0, 2.0))
            elif name == "q":
                hi = 1.0
            elif name in ("R", "rho"):
                lo = 0.0
            out[name] = (lo, hi)
        elif name == "alpha" and isinstance(dom, (list, tuple)):
            out[name] = sorted({1.0 + 1e-9, 1.0001, *dom})
        else:
            out[name] = dom
    out.update(EDGES.get((peer, call), {}))
    return out


def _ask(remote: Remote, request: dict[str, Any], timeout: float | None) -> tuple[str, Any]:
    """One request to the peer's interpreter as a runner's answer: ("ok", its JSON answer), ("timeout", None) when
    it is over its cap (the peer restarts), ("raise", text) when the peer or its interpreter raised."""
    remote.timeout = timeout
    try:
        r = remote.batch([request])[0]
    except Unjudged:
        return ("timeout", None)
    except RuntimeError as e:
        return ("raise", f"RuntimeError: the peer's interpreter: {e}")
    if "error" in r:
        return ("raise", str(r["error"]))
    return ("ok", r["ok"])


class RemoteRunner:
    """A declaration's ``call`` in the peer's interpreter, as a :func:`check_laws` runner: a call over its cap is
    killed (the peer restarts) and reported as no answer."""

    def __init__(self, python: str, call: str) -> None:
        self.remote = Remote(python, call, timeout=None)
        self.fn = self.remote.function()

    def call(self, inputs: Mapping[str, Any], timeout: float | None) -> tuple[str, Any]:
        status, v = _ask(self.remote, {"op": "call", "inputs": dict(inputs)}, timeout)
        if status != "ok":
            return (status, v)
        if isinstance(v, str) and v in ("inf", "-inf", "nan"):
            v = float(v)
        return ("ok", float(v))

    def close(self) -> None:
        self.remote.close()


def run_laws(decl: Declaration, *, python: str | None = None, seconds: float = 60, seed: int = 0,
             max_examples: int | None = EXAMPLES, call_seconds: float = CALL_SECONDS) -> LawResult | None:
    """Check ``decl``'s laws over its widened domain (None when no law applies).  A declaration that states its own
    call cap (``Declaration.call_seconds``) gets at least that before a call counts against ``terminates``."""
    laws = laws_for(decl)
    if not laws:
        return None
    if getattr(decl, "call_seconds", None) is not None:
        call_seconds = max(call_seconds, float(decl.call_seconds))
    if decl.kind != "conversion":
        return _run_stream_laws(decl, laws, python=python, seconds=seconds, seed=seed, max_examples=max_examples,
                                call_seconds=call_seconds)
    inputs = widened(decl.inputs, quantity(decl), decl.peer, str(decl.call).partition(":")[2])
    rtol = RTOL.get(decl.peer, DEFAULT_RTOL)
    if python:
        runner: Any = RemoteRunner(python, str(decl.call))
    else:
        runner = Forked(resolve_call(decl.call))
    try:
        return check_laws(runner, inputs=inputs, laws=laws, fixed=dict(decl.fixed), seconds=seconds, seed=seed,
                          max_examples=max_examples, call_seconds=call_seconds, rtol=rtol,
                          examples=tuple(decl.examples))
    finally:
        runner.close()


# ------------------------------------------------------------------------------------------------ filters, odometers

#: the references of the filters and odometers whose stream laws hold (module docstring): each decides or reports
#: a non-decreasing function of the per-round costs against its budget
MONOTONE_STREAMS = ("rruv16.thm3_4.filter", "rruv16.thm3_4.odometer", "fz21.remark4_4")
#: the longest stream a stream law builds: k rounds (1 <= k <= STREAM_ROUNDS) and the last one
STREAM_ROUNDS = 16
#: the smallest per-round cost searched for a filter (module docstring: a zero-cost round is not searched)
MIN_COST = 1e-9


def _stream_laws(decl: Declaration) -> list[str]:
    ref = decl.reference if isinstance(decl.reference, str) else getattr(decl.reference, "ref_id", None)
    if ref not in MONOTONE_STREAMS:
        return []
    inputs = stream_inputs(decl)
    costs = list(decl.costs)
    if decl.kind == "filter":
        out = ["terminates", "no_crash"]
        mono = [f"nonincreasing:{c}" for c in costs] + [f"nonincreasing:last_{c}" for c in costs] + \
            [f"nondecreasing:{b}" for b in (decl.budget or {}) if _varies(inputs[b])]
    else:
        out = ["terminates", "no_crash", "not_nan", "finite", "nonnegative"]
        mono = [f"nondecreasing:{c}" for c in costs] + [f"nondecreasing:last_{c}" for c in costs] + ["nondecreasing:k"]
    return out + mono


def stream_inputs(decl: Declaration) -> dict[str, Any]:
    """The domain a filter's or an odometer's stream laws search: each budget parameter over its declared domain
    (else its budget value alone), each cost (``<cost>`` for the k rounds, ``last_<cost>`` for the last one) over
    its declared domain, else (MIN_COST, the largest budget), and ``k`` in 1..STREAM_ROUNDS."""
    budget = {b: float(Fraction(str(v))) for b, v in (decl.budget or {}).items()}
    out: dict[str, Any] = {}
    for b, v in budget.items():
        out[b] = decl.inputs.get(b, [v])
    top = max((float(d[1]) if isinstance(d, tuple) else max(d) for d in out.values()), default=1.0)
    for c in decl.costs:
        dom = decl.inputs.get(c, (MIN_COST, top))
        if decl.kind == "filter" and isinstance(dom, tuple):
            dom = (max(float(dom[0]), MIN_COST), float(dom[1]))
        out[c] = out["last_" + c] = dom
    out["k"] = (1, STREAM_ROUNDS)
    return out


def _stream_rounds(costs: tuple[str, ...], inputs: Mapping[str, Any]) -> tuple[dict[str, Any], list[dict[str, float]]]:
    """(budget, rounds) of a stream point: k rounds of the costs, then one of the last_ costs."""
    k = int(inputs["k"])
    budget = {n: v for n, v in inputs.items() if n != "k" and n not in costs and not n.startswith("last_")}
    rounds = [{c: float(inputs[c]) for c in costs}] * k + [{c: float(inputs["last_" + c]) for c in costs}]
    return budget, rounds


def _stream_number(kind: str, answers: list[Any]) -> float:
    """A filter's decisions -> the rounds before its first HALT; an odometer's running values -> the last one."""
    if kind == "filter":
        n = 0
        for d in answers:
            if not d:
                break
            n += 1
        return float(n)
    v = answers[-1]
    return float(v) if not isinstance(v, str) or v not in ("inf", "-inf", "nan") else float(v)


def stream_value(kind: str, call: Any, costs: tuple[str, ...], **inputs: Any) -> float:
    """The number a stream law judges (module docstring), computed in this interpreter: ``call(**budget)`` fed k
    rounds of the costs and one of the last_ costs -- a filter's rounds before its first HALT, an odometer's value
    after the last round."""
    budget, rounds = _stream_rounds(tuple(costs), inputs)
    obj = resolve_call(call)(**budget)
    answers: list[Any] = []
    for r in rounds:
        if kind == "filter":
            answers.append(bool(obj.try_spend(**r)))
            if not answers[-1]:
                break
        else:
            v = obj.step(**r)
            answers.append(obj.value() if v is None and callable(getattr(obj, "value", None)) else v)
    return _stream_number(kind, answers)


class StreamRunner:
    """A filter's or an odometer's stream value (:func:`stream_value`) as a :func:`check_laws` runner: in a forked
    worker of this interpreter, or (``python``) in the peer's own, one stream per call."""

    def __init__(self, decl: Declaration, python: str | None) -> None:
        self.kind, self.costs = decl.kind, tuple(decl.costs)
        self.remote = Remote(python, str(decl.call), timeout=None) if python else None
        self.local = None if python else Forked(functools.partial(stream_value, self.kind, decl.call, self.costs))
        self.fn = _stream_label(decl)

    def call(self, inputs: Mapping[str, Any], timeout: float | None) -> tuple[str, Any]:
        if self.local is not None:
            return self.local.call(inputs, timeout)
        assert self.remote is not None
        budget, rounds = _stream_rounds(self.costs, inputs)
        status, v = _ask(self.remote, {"op": self.kind, "budget": budget, "rounds": rounds}, timeout)
        return ("ok", _stream_number(self.kind, v)) if status == "ok" else (status, v)

    def close(self) -> None:
        if self.remote is not None:
            self.remote.close()
        if self.local is not None:
            self.local.close()


def _stream_label(decl: Declaration) -> Any:
    """A stand-in named for the declaration's call (the LawResult's function name)."""
    def f(**_: Any) -> None:
        return None
    call = decl.call if isinstance(decl.call, str) else f"{decl.call.__module__}:{decl.call.__qualname__}"
    f.__module__, _, f.__qualname__ = call.partition(":")
    f.__qualname__ += f".<{decl.kind} stream>"  # not importable by that name: the reproducer binds fn itself
    return f


def _stream_header(decl: Declaration) -> str:
    """The reproducer's lines that bind ``fn`` to the stream value of ``decl``."""
    call = decl.call if isinstance(decl.call, str) else f"{decl.call.__module__}:{decl.call.__qualname__}"
    costs = ", ".join(repr(c) for c in decl.costs)
    return ("from functools import partial\nfrom dpbounds.audit.laws import stream_value\n"
            f"# {decl.kind} {call}: k rounds of ({costs}), then one of last_<cost>; "
            + ("the rounds it lets run (before its first HALT)\n" if decl.kind == "filter" else
               "its running value after the last round\n")
            + f"fn = partial(stream_value, {decl.kind!r}, {call!r}, ({costs},))")


def _run_stream_laws(decl: Declaration, laws: list[str], *, python: str | None, seconds: float, seed: int,
                     max_examples: int | None, call_seconds: float) -> LawResult:
    inputs = stream_inputs(decl)
    runner = StreamRunner(decl, python)
    budget = {b: float(Fraction(str(v))) for b, v in (decl.budget or {}).items()}
    top = max(budget.values(), default=1.0)
    cost = {c: min(max(top / 10, _lo(inputs[c])), _hi(inputs[c])) for c in decl.costs}
    example = {**budget, **cost, **{"last_" + c: v for c, v in cost.items()}, "k": 10}
    try:
        r = check_laws(runner, inputs=inputs, laws=laws, seconds=seconds, seed=seed, max_examples=max_examples,
                       call_seconds=call_seconds, rtol=0.0, examples=(example,))
    finally:
        runner.close()
    head = _stream_header(decl)

    def fix(text: str) -> str:  # the second line binds fn (dpbounds.testing.laws' reproducer header)
        lines = text.split("\n")
        return "\n".join(lines[:1] + [head] + lines[2:]) if len(lines) > 1 else text
    return dataclasses.replace(r, violations=tuple(dataclasses.replace(v, reproducer=fix(v.reproducer))
                                                   for v in r.violations))


def _lo(dom: Any) -> float:
    return float(dom[0]) if isinstance(dom, tuple) else float(min(dom))


def _hi(dom: Any) -> float:
    return float(dom[1]) if isinstance(dom, tuple) else float(max(dom))


def laws_json(decl: Declaration, *, python: str | None, seconds: float, seed: int,
              max_examples: int | None = EXAMPLES) -> dict[str, Any] | None:
    """:func:`run_laws` as JSON (the ``laws`` of one search task), never an exception; None when no law applies."""
    try:
        r = run_laws(decl, python=python, seconds=seconds, seed=seed, max_examples=max_examples)
    except Exception as e:  # noqa: BLE001 - the check could not run: an error, never a pass
        return {"function": decl.function, "laws": laws_for(decl), "verdict": "error", "violations": [],
                "examples": 0, "seed": seed, "detail": f"the laws could not be checked: {type(e).__name__}: {e}"[:400]}
    return None if r is None else r.as_json()


def law_rows(decl: Declaration, laws: dict[str, Any]) -> list[Any]:
    """One audit row per violated law (verdict ``law-violation``; the relative gap as ``gap_rel``, for ordering)."""
    from dpbounds.testing.results import Comparison
    from dpbounds.testing.verdicts import VERDICTS, Judgement
    if "law-violation" not in VERDICTS:  # the vocabulary without the class: the violations stay in the summary
        return []
    out = []
    for v in laws.get("violations", []):
        w = v["witness"]
        inputs = {k: repr(x) if not isinstance(x, str) else x for k, x in w.items()} if "a" not in w else \
            {"a": repr(w["a"]), "b": repr(w["b"])}
        vals = v["values"]
        c = Comparison(decl.peer, decl.function, f"law {v['law']} (seed {laws.get('seed', 0)})", inputs,
                       peer_value=vals[0] if len(vals) == 1 and isinstance(vals[0], float) else None,
                       peer_output=", ".join(map(str, vals)), reproducer=v["reproducer"])
        gap = v.get("gap")
        c.truth = Judgement("truth", f"law {v['law']}", LAW_SOURCES.get(v["law"].partition(":")[0], ""),
                            "law-violation", gap_rel=gap if isinstance(gap, float) else None, detail=v["detail"])
        out.append(c)
    return out


#: why each law holds for every correct implementation (the row's reference description)
LAW_SOURCES = {
    "nonincreasing": "monotonicity of the true quantity (DRS19 arXiv:1905.02383v3 Sec. 2; composition and "
                     "post-processing)",
    "nondecreasing": "monotonicity of the true quantity (Van Erven-Harremoes 2014 Thm 3 for Renyi orders; "
                     "composition and subsampling)",
    "nonnegative": "a privacy parameter, a divergence or a probability is >= 0",
    "at_most_one": "delta is a probability",
    "at_most_one_minus": "a trade-off curve satisfies beta(alpha) <= 1 - alpha (DRS19 Def. 2.1, Prop. 2.2)",
    "not_nan": "a number", "finite": "a finite number", "terminates": "an answer within the call cap",
    "no_crash": "an input-validation error or a value, not an arithmetic error", "returns": "a value",
}


def law_summary(results: list[dict[str, Any] | None]) -> dict[str, Any] | None:
    """The ``laws`` of a search summary: the laws, the worst verdict over the seeds, examples, violated laws."""
    rs = [r for r in results if r]
    if not rs:
        return None
    order = ("inconsistent", "error", "incomplete", "consistent")
    return {"laws": rs[0].get("laws", []), "verdict": min((r["verdict"] for r in rs), key=order.index),
            "examples": sum(r.get("examples", 0) for r in rs),
            "violated": sorted({v["law"] for r in rs for v in r.get("violations", [])}),
            "detail": "; ".join(sorted({r["detail"] for r in rs if r.get("detail")}))}
