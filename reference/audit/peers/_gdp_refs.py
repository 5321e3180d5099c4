"""Certified references for the Gaussian-DP accountants (Opacus' ``analysis.gdp``, TF Privacy's ``gdp_accountant``,
riskcal's conversions): the (eps, delta) curve of mu-GDP solved for eps, and the central-limit-theorem mu of Bu,
Dong, Long, Su as a closed form (the formula those libraries compute, judged as the cited formula -- the CLT mu is
an asymptotic approximation, not a guarantee; the truth of DP-SGD is composition.sgm.*).

Each is a callable (**inputs) -> :class:`dpbounds.Enclosure` in arb with exact rational ends."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

BDLS20 = "Bu, Dong, Long, Su 2020, arXiv:1911.11607v3, Thm 3 (CLT)"


def _q(v: Any) -> Fraction:
    return Fraction(v) if isinstance(v, (int, float, Fraction)) else Fraction(str(v))


def _named(ref: str):
    def wrap(fn):
        fn.ref_id = ref  # type: ignore[attr-defined]
        return fn
    return wrap


def _enclosure(lo: Fraction, hi: Fraction):
    from dpbounds.evaluation.enclosure import Enclosure
    return Enclosure(lo=lo, hi=hi, bits=130)


def _eps_of_mu(mu: Fraction, delta: Fraction) -> tuple[Fraction, Fraction]:
    """Certified ends of the smallest eps >= 0 at which mu-GDP is (eps, delta)-DP: the Gaussian curve of rho =
    mu^2/2 (DRS22 Cor. 2.13 = BW18 Thm 8), dpbounds.accounting.conversions.eps_of(..., 'gauss')."""
    from dpbounds.accounting.conversions import eps_of
    e = eps_of(mu * mu / 2, delta, "gauss")
    return max(e.lo, Fraction(0)), max(e.hi, Fraction(0))


@_named("refs.gdp_eps")
def gdp_eps(mu: Any, delta: Any):
    """The smallest eps with which mu-GDP is (eps, delta)-DP (Dong, Roth, Su 2022, arXiv:1905.02383v3, Cor. 2.13),
    certified."""
    return _enclosure(*_eps_of_mu(_q(mu), _q(delta)))


def _mu_ends(q: Any, sigma: Any, k: Any, uniform: bool) -> tuple[Fraction, Fraction]:
    from flint import arb

    from dpbounds.evaluation.numeric import arb_endpoints, arb_prec, fraction_to_arb
    with arb_prec(256):
        p, s, n = fraction_to_arb(_q(q)), fraction_to_arb(_q(sigma)), fraction_to_arb(_q(k))
        e = (1 / (s * s)).exp()
        if uniform:
            phi = lambda x: (1 + (x / arb(2).sqrt()).erf()) / 2  # noqa: E731 - the standard normal cdf
            inner = e * phi(arb(3) / (2 * s)) + 3 * phi(-1 / (2 * s)) - 2
            mu = arb(2).sqrt() * p * (n * inner).sqrt()
        else:
            mu = p * (n * (e - 1)).sqrt()
        ends = arb_endpoints(mu)
    if ends is None:
        from dpbounds.evaluation.enclosure import CertificationError
        raise CertificationError("CLT mu: the ball is not finite")
    return max(ends[0], Fraction(0)), ends[1]


@_named("refs.clt_mu_poisson")
def clt_mu_poisson(q: Any, sigma: Any, k: Any):
    """mu = q sqrt(k (e^{1/sigma^2} - 1)): the CLT mu of k Poisson-subsampled Gaussian steps (BDLS20 Thm 3), in arb."""
    return _enclosure(*_mu_ends(q, sigma, k, uniform=False))


@_named("refs.clt_mu_uniform")
def clt_mu_uniform(q: Any, sigma: Any, k: Any):
    """mu = sqrt(2) q sqrt(k (e^{1/sigma^2} Phi(1.5/sigma) + 3 Phi(-0.5/sigma) - 2)): the CLT mu of k steps with
    uniformly subsampled batches (BDLS20, the uniform-subsampling CLT), in arb."""
    return _enclosure(*_mu_ends(q, sigma, k, uniform=True))


def _clt_eps(q, sigma, k, delta, uniform):
    lo, hi = _mu_ends(q, sigma, k, uniform)
    d = _q(delta)   # eps(delta) of mu-GDP increases with mu: the ends of eps at the ends of mu
    return _enclosure(_eps_of_mu(lo, d)[0] if lo > 0 else Fraction(0), _eps_of_mu(hi, d)[1])


@_named("refs.clt_eps_poisson")
def clt_eps_poisson(q: Any, sigma: Any, k: Any, delta: Any):
    """eps(delta) of clt_mu_poisson-GDP: the formula the GDP (CLT) accountants compute, certified."""
    return _clt_eps(q, sigma, k, delta, uniform=False)


@_named("refs.clt_eps_uniform")
def clt_eps_uniform(q: Any, sigma: Any, k: Any, delta: Any):
    """eps(delta) of clt_mu_uniform-GDP: the formula the GDP (CLT) accountants compute, certified."""
    return _clt_eps(q, sigma, k, delta, uniform=True)


def _qk(n: Any, batch_size: Any, epochs: Any) -> tuple[Fraction, Fraction]:
    """TF Privacy's (n, batch_size, epochs) as the CLT's q = batch_size/n and t = epochs n / batch_size, exactly."""
    n_, b_ = _q(n), _q(batch_size)
    return b_ / n_, _q(epochs) * n_ / b_


@_named("refs.clt_mu_poisson(n, batch_size, epochs)")
def clt_mu_poisson_epochs(n: Any, batch_size: Any, epochs: Any, sigma: Any):
    q, t = _qk(n, batch_size, epochs)
    return _enclosure(*_mu_ends(q, sigma, t, uniform=False))


@_named("refs.clt_mu_uniform(n, batch_size, epochs)")
def clt_mu_uniform_epochs(n: Any, batch_size: Any, epochs: Any, sigma: Any):
    q, t = _qk(n, batch_size, epochs)
    return _enclosure(*_mu_ends(q, sigma, t, uniform=True))


@_named("refs.clt_eps_uniform(n, batch_size, epochs)")
def clt_eps_uniform_epochs(n: Any, batch_size: Any, epochs: Any, sigma: Any, delta: Any):
    q, t = _qk(n, batch_size, epochs)
    return _clt_eps(q, sigma, t, delta, uniform=True)


def gdp_conversion_declarations(peer: str, mod: str, package: str) -> list:
    """The declarations of ``delta_eps_mu`` and ``eps_from_mu`` (mu-GDP -> (eps, delta), DRS22 Cor. 2.13), which
    Opacus and TensorFlow Privacy ship as the same code: ``mod`` is the peer's module prefix, ``package`` the peer
    package whose ``calls`` module runs them."""
    from ._common import decl
    return [
        decl(peer, mod + "delta_eps_mu", package + ".calls:gdp_delta_eps_mu", "conversions.gdp.delta",
             {"mu": (0.1, 10.0), "eps_g": (0.0, 20.0)},
             examples=({"mu": 1.0, "eps_g": 1.0}, {"mu": 3.0, "eps_g": 5.0}, {"mu": 0.5, "eps_g": 0.1}),
             cites="Dong, Roth, Su 2022, arXiv:1905.02383v3, Cor. 2.13", against="truth"),
        decl(peer, mod + "eps_from_mu", package + ".calls:gdp_eps_from_mu", gdp_eps,
             {"mu": (0.1, 10.0), "delta": (1e-12, 0.1)},
             examples=({"mu": 1.0, "delta": 1e-5}, {"mu": 3.0, "delta": 1e-6}, {"mu": 0.5, "delta": 1e-3}),
             cites="Dong, Roth, Su 2022, arXiv:1905.02383v3, Cor. 2.13 (solved for eps by brentq)", against="truth"),
    ]
