"""A declarative fake peer (PEER, DIST, MODULE, declarations()): sound at its grid points, a planted under-report
between them (below rho = 1e-6) that only the search finds."""

from dpbounds.testing import Declaration

PEER = "fake_declared"
DIST = "dpbounds"
MODULE = "json"
NOTE = "BS16 with a shortcut below rho = 1e-6"


def declarations():
    grid = tuple({"rho": r, "delta": d} for r in ("0.01", "0.1", "1") for d in ("1e-10", "1e-6"))
    return [Declaration(peer=PEER, function="fake.eps", call="tests.fake_peers.declared_calls:eps",
                        reference="conversions.cks20", inputs={"rho": (1e-8, 100.0), "delta": (1e-300, 0.5)},
                        examples=grid, cites="Bun, Steinke 2016, arXiv:1605.02065v1, Prop. 1.3", against="cited",
                        check="zCDP -> (eps, delta)")]
