"""A declarative fake peer in its own interpreter whose start and calls are as slow as the environment says
(tests.fake_peers.slow_start_calls): a sound BS16 conversion; one that is slower than its call cap everywhere; one
slow in a corner of its domain, with its own call cap (``Declaration.call_seconds``)."""

from dpbounds.testing import Declaration

PEER = "fake_slow_start"
DIST = "dpbounds"
MODULE = "json"

_CALLS = "tests.fake_peers.slow_start_calls:"
_DOMAIN = {"rho": (1e-8, 100.0), "delta": (1e-300, 0.5)}
_GRID = tuple({"rho": r, "delta": d} for r in ("0.01", "1") for d in ("1e-10", "1e-6"))


def declarations():
    return [Declaration(peer=PEER, function="fake.eps", call=_CALLS + "eps", reference="conversions.cks20",
                        inputs=_DOMAIN, examples=_GRID, check="zCDP -> (eps, delta)"),
            Declaration(peer=PEER, function="fake.slow_eps", call=_CALLS + "slow_eps", reference="conversions.cks20",
                        inputs=_DOMAIN, examples=_GRID[:1], check="zCDP -> (eps, delta), slow", call_seconds=0.5),
            Declaration(peer=PEER, function="fake.slow_above_10", call=_CALLS + "slow_above_10",
                        reference="conversions.cks20", inputs=_DOMAIN, examples=_GRID[:1],
                        check="zCDP -> (eps, delta), slow above rho 10", call_seconds=1.0)]
