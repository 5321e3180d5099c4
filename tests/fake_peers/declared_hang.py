"""A declarative fake peer with two functions: tests.fake_peers.declared's planted under-report, and one whose
calls never return (its search unit must time out alone, as an error row of that function)."""

from dataclasses import replace

from dpbounds.testing import Declaration
from tests.fake_peers import declared

PEER = "fake_hang"
DIST = "dpbounds"
MODULE = "json"


def declarations():
    (d,) = declared.declarations()
    d = replace(d, peer=PEER)
    return [d, Declaration(peer=PEER, function="fake.hang", call="tests.fake_peers.declared_calls:hang",
                           reference="conversions.cks20", inputs={"rho": (1e-8, 100.0), "delta": (1e-300, 0.5)},
                           check="zCDP -> (eps, delta), never answers")]
