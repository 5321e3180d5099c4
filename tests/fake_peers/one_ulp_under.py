"""The faithful value one float64 step lower: an under-report by one ulp, which must be unsound."""
import math

from tests.fake_peers import fake_audit

PEER = "fake_one_ulp_under"


def audit(quick: bool = False):
    return fake_audit(PEER, lambda v: math.nextafter(v, -math.inf))
