"""The audit's laws: each declaration gets the laws of its quantity (derived from its reference and input names)
over the declared domain widened to its documented edges; every declaration of every peer gets some."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

from dpbounds.audit.laws import laws_for, quantity, widened
from dpbounds.testing import Declaration


def _d(reference, inputs, **kw):
    return Declaration(peer="p", function="f", call="m:f", reference=reference, inputs=inputs, **kw)


def test_eps_of_a_composition():
    d = _d("composition.sgm.eps", {"q": (1e-4, 1.0), "sigma": (0.5, 50.0), "k": (1, 10000), "delta": (1e-12, 0.1)})
    assert quantity(d) == "eps"
    assert set(laws_for(d)) == {"terminates", "no_crash", "not_nan", "nonnegative", "nondecreasing:q",
                                "nondecreasing:k", "nonincreasing:sigma", "nonincreasing:delta"}
    w = widened(d.inputs, "eps")
    assert w["delta"] == (0.0, 1.0) and w["q"] == (1e-4, 1.0) and w["k"] == (1, 10000)


def test_delta_rdp_and_tradeoff():
    d = _d("composition.sgm.delta", {"q": [1.0], "sigma": (0.5, 50.0), "k": (1, 100), "eps_g": (0.0, 10.0)})
    assert {"at_most_one", "nonincreasing:eps_g", "nonincreasing:sigma", "nondecreasing:k"} <= set(laws_for(d))
    assert "nondecreasing:q" not in laws_for(d)  # a single q: nothing to compare
    assert widened(d.inputs, "delta")["eps_g"] == (0.0, 1000.0)
    r = _d("mechanisms.sgm.rdp", {"q": (1e-6, 1.0), "sigma": (0.3, 100.0), "alpha": [2, 32]})
    w = widened(r.inputs, "rdp")["alpha"]
    assert "nondecreasing:alpha" in laws_for(r) and min(w) == 1.0 + 1e-9 and 1.0 not in w  # orders are > 1
    t = _d("tradeoff.gdp", {"mu": (1e-3, 20.0), "fpr": (1e-9, 1 - 1e-9)})
    assert {"at_most_one_minus:fpr", "nonincreasing:fpr", "nonincreasing:mu"} <= set(laws_for(t))
    assert widened(t.inputs, "beta")["fpr"] == (0.0, 1.0)


def test_a_mechanism_s_own_eps_is_not_widened_only_the_target():
    def kov15_delta(eps, k, eps_g):
        return None
    d = _d(kov15_delta, {"eps": (0.001, 2.0), "k": (1, 1000), "eps_g": (0.0, 20.0)})
    w = widened(d.inputs, quantity(d))
    assert w["eps"] == (0.001, 2.0) and w["eps_g"] == (0.0, 1000.0)


def test_every_peer_conversion_gets_laws():
    import dpbounds.audit.peers as P
    missing = []
    for m in pkgutil.iter_modules(P.__path__):
        if m.name.startswith("_") or m.name.endswith("_calls"):
            continue
        mod = importlib.import_module(f"dpbounds.audit.peers.{m.name}")
        if not callable(getattr(mod, "declarations", None)):
            continue
        for d in mod.declarations():
            if d.kind == "conversion" and not laws_for(d):
                missing.append(d.function)
    assert not missing, missing


@pytest.mark.tier("slow")
def test_a_search_task_checks_the_laws_and_its_summary_names_the_violation(tmp_path, monkeypatch):
    """A throwaway peer whose eps(rho, delta) goes negative for delta near 1 (opendp #621's shape): the search task
    of ``dpbounds audit --search`` returns its laws, and the peer's search summary names the violated law."""
    import math
    import sys
    (tmp_path / "planted_peer.py").write_text(
        "import math\n"
        "from dpbounds.testing import Declaration\n"
        "PEER = 'planted_peer'\n"
        "def eps(rho, delta):\n"
        "    return rho + 2 * math.sqrt(rho * math.log(1 / delta)) if delta < 0.9 else math.log(1 - delta)\n"
        "def declarations():\n"
        "    return [Declaration(peer=PEER, function='planted_peer.eps', call='planted_peer:eps',\n"
        "                        reference='conversions.cks20', inputs={'rho': (1e-3, 10.0), 'delta': (1e-12, 0.5)})]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    from dpbounds.audit.engine import SearchOptions, search_peer
    from dpbounds.testing.results import PeerResult
    mod = __import__("planted_peer")
    res = PeerResult("planted_peer")
    search_peer(mod, mod.declarations(), SearchOptions(seconds=20), None, res)
    (s,) = res.search
    assert s["laws"]["verdict"] == "inconsistent" and "nonnegative" in s["laws"]["violated"], s["laws"]
    assert "nonincreasing:delta" in s["laws"]["laws"]
    sys.modules.pop("planted_peer", None)


def test_a_composed_mechanism_s_own_parameters_are_not_the_target():
    # delta(eps_g) of k pure eps-DP mechanisms grows with their eps and falls with the target eps_g: a law
    # "non-increasing in eps" here would flag every correct accountant
    def kov15_delta(eps, k, eps_g):
        return None
    laws = laws_for(_d(kov15_delta, {"eps": (0.001, 2.0), "k": (1, 1000), "eps_g": (0.0, 20.0)}))
    assert {"nondecreasing:eps", "nonincreasing:eps_g", "nondecreasing:k"} <= set(laws)
    assert "nonincreasing:eps" not in laws
    # the eps of k (ei, di) mechanisms at total delta k di: up in ei; no law in di (the total delta moves with it)
    def adv_comp_eps(n, ei, di):
        return None
    laws = laws_for(_d(adv_comp_eps, {"n": (1, 100), "ei": (1e-3, 1.0), "di": (1e-9, 1e-3)}))
    assert "nondecreasing:ei" in laws and not any(law.endswith(":di") for law in laws)


def test_an_advantage_and_a_conversion_s_delta_form_have_their_own_laws():
    adv = laws_for(_d("tradeoff.gdp.advantage", {"mu": (1e-3, 20.0)}))
    assert {"at_most_one", "nondecreasing:mu"} <= set(adv) and "nonincreasing:mu" not in adv
    dl = _d("conversions.cks20.delta", {"rho": (1e-4, 10.0), "eps_g": (0.0, 20.0)})
    assert quantity(dl) == "delta" and {"nonincreasing:eps_g", "nondecreasing:rho"} <= set(laws_for(dl))


# ------------------------------------------------------------------------------------------------ filters, odometers
class SumFilter:
    """A correct float basic-composition filter: CONT iff the running float sum stays <= eps_g."""

    def __init__(self, eps_g):
        self.eps_g, self.spent = eps_g, 0.0

    def try_spend(self, eps):
        if self.spent + eps > self.eps_g:
            return False
        self.spent += eps
        return True


class SkipsLargeRounds(SumFilter):
    """Planted: a round above 1 is let through without being charged (a stream HALTs at small costs and runs at
    large ones)."""

    def try_spend(self, eps):
        return True if eps > 1.0 else super().try_spend(eps)


class BudgetInMilli(SumFilter):
    """Planted: a budget below 0.1 is read as thousandths (a larger budget, fewer rounds)."""

    def __init__(self, eps_g):
        super().__init__(eps_g * 1000 if eps_g < 0.1 else eps_g)


class SumOdometer:
    """A correct odometer: the running float sum."""

    def __init__(self):
        self.spent = 0.0

    def step(self, eps):
        self.spent += eps
        return self.spent


class WrappingOdometer(SumOdometer):
    """Planted: reports its spend modulo 1 (drops after enough rounds)."""

    def step(self, eps):
        return super().step(eps) % 1.0


def _stream(kind, call, budget, costs=("eps",), reference=None, inputs=None):
    ref = reference or ("rruv16.thm3_4.filter" if kind == "filter" else "rruv16.thm3_4.odometer")
    dom = inputs or ({"eps_g": (0.01, 10.0)} if kind == "filter" else {"eps": (0.0, 1.0)})
    return Declaration(peer="p", function="p.f", call=call, reference=ref, inputs=dom, kind=kind, budget=budget,
                       costs=costs)


def test_every_filter_and_odometer_declaration_gets_its_stream_laws():
    import dpbounds.audit.peers as P
    seen = 0
    for m in pkgutil.iter_modules(P.__path__):
        if m.name.startswith("_"):
            continue
        mod = importlib.import_module(f"dpbounds.audit.peers.{m.name}")
        for d in getattr(mod, "declarations", lambda: [])():
            if d.kind != "conversion":
                seen += 1
                laws = laws_for(d)
                assert "terminates" in laws and any(law.startswith("non") for law in laws), (d.function, laws)
    assert seen >= 9


def test_the_stream_laws_follow_from_the_spec_entries():
    # each reference listed halts (or reports) a function non-decreasing in its aggregates, and each aggregate is
    # non-decreasing in the per-round costs; a filter's halt is "aggregate > budget parameter"
    import sympy as sp

    from dpbounds.audit.laws import MONOTONE_STREAMS
    from dpbounds.spec import get
    for ref in MONOTONE_STREAMS:
        e = get(ref)
        assert e.monotone and all(v == +1 for v in e.monotone.values()), ref
        if e.halt is not None:
            assert isinstance(e.halt, sp.StrictGreaterThan) and str(e.halt.rhs) in e.params, (ref, e.halt)


def test_stream_laws_pass_a_correct_filter_and_odometer():
    from dpbounds.audit.laws import run_laws
    r = run_laws(_stream("filter", SumFilter, {"eps_g": 1.0}), seconds=120, max_examples=25)
    assert r.verdict == "consistent", r.summary()
    assert {"nonincreasing:eps", "nonincreasing:last_eps", "nondecreasing:eps_g"} <= set(r.judged)
    o = run_laws(_stream("odometer", SumOdometer, {}), seconds=120, max_examples=25)
    assert o.verdict == "consistent" and o.judged["nondecreasing:k"] > 0, o.summary()


def test_stream_laws_find_planted_violations():
    from dpbounds.audit.laws import run_laws
    r = run_laws(_stream("filter", SkipsLargeRounds, {"eps_g": 1.0}), seconds=120, max_examples=25)
    assert r.verdict == "inconsistent" and "nonincreasing:eps" in {v.law for v in r.violations}, r.summary()
    (v,) = [v for v in r.violations if v.law == "nonincreasing:eps"]
    a, b = v.witness["a"], v.witness["b"]
    assert a["eps"] < b["eps"] and v.values[0] < v.values[1]
    # the reproducer binds fn to the stream value and runs: it fails its assertion the way the check said
    assert "stream_value" in v.reproducer
    code = v.reproducer.replace(f"{__name__}:SkipsLargeRounds", "SkipsLargeRounds")
    code = code.replace("fn = partial(stream_value, 'filter', 'SkipsLargeRounds'",
                        "fn = partial(stream_value, 'filter', SkipsLargeRounds")
    with pytest.raises(AssertionError):
        exec(code, {"SkipsLargeRounds": SkipsLargeRounds})
    b = run_laws(_stream("filter", BudgetInMilli, {"eps_g": 1.0}), seconds=120, max_examples=25)
    assert {v.law for v in b.violations} == {"nondecreasing:eps_g"}, b.summary()
    o = run_laws(_stream("odometer", WrappingOdometer, {}), seconds=120, max_examples=25)
    assert "nondecreasing:k" in {v.law for v in o.violations}, o.summary()


def test_a_stream_whose_reference_is_not_known_monotone_gets_no_laws():
    d = _stream("filter", SumFilter, {"eps_g": 1.0}, reference="fz21.thm4_7")
    assert laws_for(d) == []


def test_every_call_takes_its_declarations_fixed_inputs():
    # the laws call the peer with the fixed inputs too (the checks pass them to the reference only): a call that does
    # not take them raises TypeError on every law call, and its laws read 'error'
    import ast

    import dpbounds.audit.peers as P
    from dpbounds.testing.declarations import call_module_file
    bad = []
    for m in pkgutil.iter_modules(P.__path__):
        if m.name.startswith("_"):
            continue
        mod = importlib.import_module(f"dpbounds.audit.peers.{m.name}")
        decls = list(getattr(mod, "declarations", lambda: [])())
        sub = getattr(mod, "declared", None)
        decls += list(getattr(sub, "declarations", lambda: [])())
        for d in decls:
            if d.kind != "conversion" or not d.fixed or not isinstance(d.call, str):
                continue
            func = d.call.partition(":")[2]
            tree = ast.parse(call_module_file(d.call).read_text())
            fn = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == func), None)
            if fn is None:
                continue  # bound another way (an alias or a class): not read here
            names = {a.arg for a in fn.args.args + fn.args.kwonlyargs}
            if fn.args.kwarg is None and not set(d.fixed) <= names:
                bad.append((d.function, sorted(set(d.fixed) - names)))
    assert not bad, bad
