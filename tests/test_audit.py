"""The peer audit: classification is correct, a missing peer is a clear 'skipped', installed peers run cleanly."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dpbounds.audit import common
from dpbounds.audit.run import ADAPTERS, audit_peers


def test_classification_of_claimed_upper_bounds():
    lo, hi = Fraction(2), Fraction(2) + Fraction(1, 10**15)
    assert common.classify_upper(2.0, lo, hi)[0] == "exact"
    assert common.classify_upper(2.5, lo, hi)[0] == "conservative"
    v, detail = common.classify_upper(1.9, lo, hi)
    assert v == "unsound" and "below" in detail
    assert common.classify_decision(True, False)[0] == "unsound"
    assert common.classify_decision(False, True)[0] == "conservative"


@pytest.mark.parametrize("peer", sorted(ADAPTERS))
def test_missing_peer_is_skipped_not_a_crash(peer, monkeypatch):
    import importlib
    mod = importlib.import_module(ADAPTERS[peer])
    monkeypatch.setattr(mod, "available", lambda name: False)
    (res,) = audit_peers([peer], quick=True)
    assert res.comparisons == []
    assert any("skipped" in n for n in res.notes)


def test_unknown_peer_is_a_domain_error():
    from dpbounds import spec
    with pytest.raises(spec.DomainError):
        audit_peers(["nope"])


@pytest.mark.parametrize("peer,module", [("opendp", "opendp"), ("dp_accounting", "dp_accounting")])
def test_installed_peer_runs_without_errors_and_is_never_unsound(peer, module):
    pytest.importorskip(module)
    (res,) = audit_peers([peer], quick=True)
    assert res.comparisons, res.notes
    assert all(c.verdict in ("exact", "conservative") for c in res.comparisons), [c for c in res.comparisons
                                                                                  if c.verdict not in ("exact", "conservative")]
