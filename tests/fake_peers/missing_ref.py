"""A declarative fake peer naming a reference id this dpbounds does not have (an issue-27 id before it lands): the
audit reports "reference ... not available" for it and still runs the declaration whose reference exists."""

from dpbounds.testing import Declaration

PEER = "fake_missing_ref"
DIST = "dpbounds"
MODULE = "json"


def declarations():
    grid = ({"rho": "0.1", "delta": "1e-6"},)
    common = dict(peer=PEER, function="fake.eps", call="tests.fake_peers.declared_calls:eps",
                  inputs={"rho": (1e-8, 100.0), "delta": (1e-300, 0.5)}, examples=grid, cites="BS16 Prop. 1.3")
    return [Declaration(reference="mechanisms.no_such.id", against="truth", **common),
            Declaration(reference="conversions.cks20", against="cited", **common)]
