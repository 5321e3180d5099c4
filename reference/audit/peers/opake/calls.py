"""opake-accounting calls (imports only opake and the stdlib).  Its own interpreter (Python 3.13 here):
``--python opake=$DPBOUNDS_PEERS/opake/bin/python``.  opake-accounting alone has no ``opake.accounting.gaussian``
(that façade comes with the torch-based ``opake`` wheel); the calls use the same native PLD constructors the façade
wraps: ``gaussian_pld(sigma, DiscretizationConfig())``, ``poisson_pld(base, q)``, ``Pld.self_compose(k)``, at the
library's default discretization."""

from opake.api.accounting.core import opake_accounting as _n


def _pld(q: float, sigma: float, k: int):
    p = _n.gaussian_pld(sigma, _n.DiscretizationConfig())
    if q < 1.0:
        p = _n.poisson_pld(p, q)
    return p.self_compose(int(k)) if int(k) > 1 else p


def epsilon(q: float, sigma: float, k: int, delta: float) -> float:
    """``poisson_pld(gaussian_pld(sigma), q).self_compose(k).epsilon_at(delta)``."""
    return float(_pld(q, sigma, k).epsilon_at(delta))


def delta(q: float, sigma: float, k: int, eps_g: float) -> float:
    return float(_pld(q, sigma, k).delta_at(eps_g))


def beta(q: float, sigma: float, k: int, fpr: float) -> float:
    """``Pld.beta_at(fpr)``: the type-II error at type-I error fpr (larger claims more privacy)."""
    return float(_pld(q, sigma, k).beta_at(fpr))


def advantage(q: float, sigma: float, k: int) -> float:
    return float(_pld(q, sigma, k).advantage())


def eps_delta_delta(eps: float, delta: float, k: int, eps_g: float) -> float:
    """``eps_delta(eps, delta).pld().delta_at(eps_g)`` (k = 1) or ``.repeated_pld(k).delta_at(eps_g)``."""
    from opake.api.accounting.core.mechanisms._eps_delta import eps_delta
    p = eps_delta(eps, delta)
    pld = p.pld() if int(k) == 1 else p.repeated_pld(int(k))
    return float(pld.delta_at(eps_g))


def composed_delta(eps: float, k: int, eps2: float, k2: int, eps_g: float) -> float:
    """``Composed(left=eps_delta(eps), right=eps_delta(eps2)).pld().delta_at(eps_g)`` (k = k2 = 1)."""
    from opake.api.accounting.core.composition._composed import Composed
    from opake.api.accounting.core.mechanisms._eps_delta import eps_delta
    if int(k) != 1 or int(k2) != 1:
        raise ValueError("this call composes one process of each kind: k = k2 = 1")
    return float(Composed(left=eps_delta(eps), right=eps_delta(eps2)).pld().delta_at(eps_g))


def repeated_delta(eps: float, delta: float, k: int, eps_g: float) -> float:
    """``Repeated(eps_delta(eps, delta), k).pld().delta_at(eps_g)``: the k-fold node's own PLD."""
    from opake.api.accounting.core.composition._repeated import Repeated
    from opake.api.accounting.core.mechanisms._eps_delta import eps_delta
    return float(Repeated(eps_delta(eps, delta), int(k)).pld().delta_at(eps_g))


def cached_delta(eps: float, delta: float, k: int, eps_g: float) -> float:
    """``cached(eps_delta(eps, delta))``: ``CachedProcess.pld()`` (k = 1) or ``CachedProcess.repeated_pld(k)``,
    then ``delta_at(eps_g)``."""
    from opake.api.accounting.core.composition._cached import cached
    from opake.api.accounting.core.mechanisms._eps_delta import eps_delta
    p = cached(eps_delta(eps, delta))
    pld = p.pld() if int(k) == 1 else p.repeated_pld(int(k))
    return float(pld.delta_at(eps_g))
