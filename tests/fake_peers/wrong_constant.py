"""CKS20 with a wrong constant (the log(alpha)/(alpha - 1) term counted twice): unsound against the formula it
cites, (a); against the true guarantee of a Gaussian mechanism, (b), it may still be safe."""
from tests.fake_peers import fake_audit

PEER = "fake_wrong_constant"


def audit(quick: bool = False):
    return fake_audit(PEER, lambda v: v, wrong=True)
