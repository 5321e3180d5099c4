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
