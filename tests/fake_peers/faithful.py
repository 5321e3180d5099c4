"""A faithful float64 CKS20 conversion (the certified value rounded up): every verdict must be exact."""
from tests.fake_peers import fake_audit

PEER = "fake_faithful"


def audit(quick: bool = False):
    return fake_audit(PEER, lambda v: v)
