"""A peer whose one function raises on every valid input (as fourier_accountant 0.12.11's one-phase functions do
under numpy 2: ``np.VisibleDeprecationWarning`` is gone): every row is the peer's ``error``, nothing is judged."""
from dpbounds.audit.common import PeerResult
from dpbounds.testing.results import error_comparison

PEER = "fake_always_raises"


def audit(quick: bool = False):
    res = PeerResult(PEER, version="0.0-test", functions=[f"{PEER}.eps_of"])
    for rho in ("0.1", "1"):
        try:
            raise AttributeError("module 'numpy' has no attribute 'VisibleDeprecationWarning'")
        except AttributeError as exc:
            exc.__traceback__ = None  # no frame of the audit's: raised in the peer's code
            res.comparisons.append(error_comparison(PEER, f"{PEER}.eps_of", "zCDP -> (eps, delta)",
                                                    {"rho": rho, "delta": "1e-6"}, exc))
    return res
