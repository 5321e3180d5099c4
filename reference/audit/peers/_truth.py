"""Independent high-precision derivations (mpmath) that the peer witnesses are checked against.

Nothing here imports dpbounds or a peer: each value is derived from the defining formula at 60+ digits, so a peer
value below it by more than the stated margin is an under-report whatever dpbounds' own references say.

- Subsampled Gaussian RDP (Mironov, Talwar, Zhang 2019, arXiv:1908.10530v1, Sec. 3, eq. (3)-(4)):
  A_alpha = E_{z~N(0, s^2)} [((1 - q) + q exp((2z - 1)/(2 s^2)))^alpha]; at integer alpha the exact binomial sum
  sum_k C(alpha, k) (1-q)^(alpha-k) q^k exp((k^2 - k)/(2 s^2)) (their Sec. 3.3); at fractional alpha by quadrature
  of the defining integral.  RDP = log(A_alpha)/(alpha - 1).
- Mironov 2017 (arXiv:1702.07476v3, Prop. 3) and Canonne, Kamath, Steinke 2020 (arXiv:2004.00010v5, Prop. 12) /
  Balle et al. 2020 (arXiv:1905.09982v2, Thm 21) RDP -> (eps, delta) conversions.
- Gaussian mechanism's exact curve (Balle, Wang 2018, arXiv:1805.06530v2, Thm 8) = mu-GDP (Dong, Roth, Su 2019,
  arXiv:1905.02383v3, Cor. 2.13); GDP and (eps, delta) trade-off curves (same paper, eq. (6) and Prop. 2.5).
- k-fold optimal composition of (eps0, delta0)-DP (Kairouz, Oh, Viswanath 2015, arXiv:1311.0776v4, Thm 3.3).
- one step of the Poisson-subsampled Gaussian: delta(eps) by direct quadrature of the hockey-stick divergence,
  in both directions (remove and add), the max of the two.
"""

from __future__ import annotations

import mpmath as _mpmath

DPS = 60


class _Private:
    """``mp`` of this module: mpmath's functions on a private 60-digit context, so importing this module never changes
    the caller's ``mpmath.mp`` precision (it once set ``mpmath.mp.dps = 60`` for the whole process)."""

    def __init__(self) -> None:
        self.mp = _mpmath.MPContext()
        self.mp.dps = DPS

    def __getattr__(self, name: str):
        return getattr(self.mp, name)


mp = _Private()


def sgm_log_a_int(q: float, sigma: float, alpha: int) -> mp.mpf:
    """log A_alpha of the Poisson-subsampled Gaussian at an integer order, by the exact binomial sum."""
    c = mp.mp
    q_, s = c.mpf(q), c.mpf(sigma)
    tot = c.fsum(c.binomial(alpha, k) * (1 - q_) ** (alpha - k) * q_ ** k * c.exp((k * k - k) / (2 * s * s))
                 for k in range(alpha + 1))
    return c.log(tot)


def sgm_log_a_quad(q: float, sigma: float, alpha: float) -> mp.mpf:
    """log A_alpha by quadrature of E_{z~N(0,s^2)}[((1-q) + q exp((2z-1)/(2s^2)))^alpha] (any real alpha > 1)."""
    c = mp.mp
    q_, s, a = c.mpf(q), c.mpf(sigma), c.mpf(alpha)

    def f(z):
        dens = c.exp(-z * z / (2 * s * s)) / (s * c.sqrt(2 * c.pi))
        return dens * ((1 - q_) + q_ * c.exp((2 * z - 1) / (2 * s * s))) ** a
    # the integrand's mass sits near z = 0 (the N(0, s^2) bulk) and near z ~ alpha (the tilted component)
    pts = [-c.inf, -40 * s, -10 * s, 0, c.mpf(1) / 2, a / 2, a, a + 10 * s, a + 40 * s, c.inf]
    pts = sorted(set(pts), key=lambda x: x if x not in (c.inf, -c.inf) else (1e300 if x > 0 else -1e300))
    return c.log(c.quad(f, pts, maxdegree=10))


def sgm_rdp(q: float, sigma: float, alpha: float) -> mp.mpf:
    """The subsampled Gaussian's RDP at order alpha (integer orders by the binomial sum, else quadrature)."""
    if float(alpha) == int(alpha):
        la = sgm_log_a_int(q, sigma, int(alpha))
    else:
        la = sgm_log_a_quad(q, sigma, alpha)
    return la / (mp.mpf(alpha) - 1)


def mironov_eps(alpha: float, R: float, delta: float) -> mp.mpf:
    c = mp.mp
    return c.mpf(R) + c.log(1 / c.mpf(delta)) / (c.mpf(alpha) - 1)


def cks20_eps(alpha: float, R: float, delta: float) -> mp.mpf:
    c = mp.mp
    a, d = c.mpf(alpha), c.mpf(delta)
    return max(c.mpf(0), c.mpf(R) + c.log1p(-1 / a) - (c.log(d) + c.log(a)) / (a - 1))


def Phi(x):
    c = mp.mp
    return c.erfc(-c.mpf(x) / c.sqrt(2)) / 2


def Phi_inv(p):
    c = mp.mp
    return c.sqrt(2) * c.erfinv(2 * c.mpf(p) - 1)


def gauss_delta(mu: float, eps: float) -> mp.mpf:
    """delta(eps) of the Gaussian mechanism with sensitivity/sigma = mu (BW18 Thm 8; mu-GDP)."""
    c = mp.mp
    m, e = c.mpf(mu), c.mpf(eps)
    return Phi(-e / m + m / 2) - c.exp(e) * Phi(-e / m - m / 2)


def gauss_eps(mu: float, delta: float) -> mp.mpf:
    """The smallest eps >= 0 with gauss_delta(mu, eps) <= delta (bisection to 1e-40)."""
    c = mp.mp
    if gauss_delta(mu, 0) <= delta:
        return c.mpf(0)
    lo, hi = c.mpf(0), c.mpf(1)
    while gauss_delta(mu, hi) > delta:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if gauss_delta(mu, mid) > delta:
            lo = mid
        else:
            hi = mid
    return hi


def gauss_sigma_min(sensitivity: float, eps: float, delta: float) -> mp.mpf:
    """The smallest sigma with which N(0, sigma^2) on sensitivity Delta is (eps, delta)-DP (BW18 Thm 8)."""
    c = mp.mp
    lo, hi = c.mpf("1e-6"), c.mpf(1)
    while gauss_delta(1 / hi, eps) > delta:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if gauss_delta(1 / mid, eps) > delta:
            lo = mid
        else:
            hi = mid
    return hi * c.mpf(sensitivity)


def tradeoff_gdp(mu: float, fpr: float) -> mp.mpf:
    """G_mu(fpr) = Phi(Phi^{-1}(1 - fpr) - mu) (DRS19 eq. (6))."""
    return Phi(-Phi_inv(mp.mpf(fpr)) - mp.mpf(mu))


def tradeoff_dp(eps: float, delta: float, fpr: float) -> mp.mpf:
    c = mp.mp
    e, d, a = c.mpf(eps), c.mpf(delta), c.mpf(fpr)
    return max(c.mpf(0), 1 - d - c.exp(e) * a, c.exp(-e) * (1 - d - a))


def kov15_delta(eps0: float, delta0: float, k: int, eps_g: float) -> mp.mpf:
    """Exact delta(eps_g) of the k-fold composition of (eps0, delta0)-DP (KOV15 Thm 3.3 via RR dominance):
    1 - (1 - delta0)^k (1 - sum_l max(0, P(l) - e^eps_g Q(l)))."""
    c = mp.mp
    e0, eg = c.mpf(eps0), c.mpf(eps_g)
    z = (1 + c.exp(e0)) ** k
    pure = c.fsum(max(c.mpf(0), c.binomial(k, l) * (c.exp((k - l) * e0) - c.exp(eg + l * e0)) / z)
                  for l in range(k + 1))
    return 1 - (1 - c.mpf(delta0)) ** k * (1 - pure)


def sgm1_delta_remove(q: float, sigma: float, eps: float) -> mp.mpf:
    """delta(eps) of ONE Poisson-subsampled Gaussian step, remove direction: P = (1-q) N(0,s^2) + q N(1,s^2),
    Q = N(0,s^2); P > e^eps Q iff (1-q) + q exp((2z-1)/(2s^2)) > e^eps iff z > z*: the hockey-stick divergence
    in closed form at z*."""
    c = mp.mp
    q_, s, e = c.mpf(q), c.mpf(sigma), c.mpf(eps)
    if not (q_ > 0 and c.exp(e) - (1 - q_) > 0):
        return c.mpf(0)
    zs = s * s * c.log((c.exp(e) - (1 - q_)) / q_) + c.mpf(1) / 2
    return max(c.mpf(0), (1 - q_) * (1 - Phi(zs / s)) + q_ * (1 - Phi((zs - 1) / s)) - c.exp(e) * (1 - Phi(zs / s)))


def sgm1_delta_add(q: float, sigma: float, eps: float) -> mp.mpf:
    """The add direction: P = N(0,s^2), Q = (1-q) N(0,s^2) + q N(1,s^2); P > e^eps Q iff z < z*."""
    c = mp.mp
    q_, s, e = c.mpf(q), c.mpf(sigma), c.mpf(eps)
    t = (c.exp(-e) - (1 - q_)) / q_
    if t <= 0:
        return c.mpf(0)
    zs = s * s * c.log(t) + c.mpf(1) / 2
    return max(c.mpf(0), Phi(zs / s) - c.exp(e) * ((1 - q_) * Phi(zs / s) + q_ * Phi((zs - 1) / s)))


def sgm1_delta(q: float, sigma: float, eps: float) -> mp.mpf:
    """delta(eps) of ONE Poisson-subsampled Gaussian step: the max over remove/add of the hockey-stick divergence
    int max(0, P(z) - e^eps Q(z)) dz, each in closed form at the crossing point."""
    return max(sgm1_delta_remove(q, sigma, eps), sgm1_delta_add(q, sigma, eps))


def eps_from_delta_curve(curve, delta: float, hi: float = 1.0) -> mp.mpf:
    """The smallest eps >= 0 with curve(eps) <= delta for a decreasing curve (bisection)."""
    c = mp.mp
    if curve(0) <= delta:
        return c.mpf(0)
    lo, h = c.mpf(0), c.mpf(hi)
    while curve(h) > delta:
        h *= 2
    for _ in range(120):
        mid = (lo + h) / 2
        if curve(mid) > delta:
            lo = mid
        else:
            h = mid
    return h


def _bin_renyi(alpha, p, q):
    """D_alpha(Bern(p) || Bern(q)) (natural log)."""
    c = mp.mp
    a, p, q = c.mpf(alpha), c.mpf(p), c.mpf(q)
    return c.log(p ** a * q ** (1 - a) + (1 - p) ** a * (1 - q) ** (1 - a)) / (a - 1)


def tradeoff_rdp(alpha: float, R: float, fpr: float) -> mp.mpf:
    """The optimal trade-off curve implied by ONE (order, rdp)-RDP guarantee (both directions): the smallest type-II
    error b such that the test's binary outcome distributions (fpr, 1-fpr) and (1-b, b) satisfy
    D_order <= rdp both ways (data processing; every binary pair is itself a pair of distributions, so the bound is
    attained).  Bisection on b in [0, 1 - fpr], 200 steps."""
    c = mp.mp
    order, a, r = alpha, c.mpf(fpr), c.mpf(R)

    def ok(b):
        if b <= 0:
            return False
        P = (a, 1 - a)  # reject prob under H0 = fpr
        return _bin_renyi(order, a, 1 - b) <= r and _bin_renyi(order, 1 - b, a) <= r
    lo, hi = c.mpf(0), 1 - a
    if ok(lo):
        return lo
    for _ in range(200):
        mid = (lo + hi) / 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return lo


def sgm_eps(q: float, sigma: float, k: int, delta: float) -> mp.mpf:
    """eps(delta) of k Poisson-subsampled Gaussian steps where a closed form or a 1-D quadrature gives it: q = 1
    (k-fold Gaussian = sqrt(k)/sigma-GDP) or k = 1 (``sgm1_delta``).  Other points: ValueError (no truth here)."""
    if float(q) == 1.0:
        return gauss_eps(mp.sqrt(int(k)) / mp.mpf(sigma), delta)
    if int(k) == 1:
        return eps_from_delta_curve(lambda e: sgm1_delta(q, sigma, e), delta)
    raise ValueError("no closed-form truth for q < 1 and k > 1")


def sgm_delta(q: float, sigma: float, k: int, eps_g: float) -> mp.mpf:
    if float(q) == 1.0:
        return gauss_delta(mp.sqrt(int(k)) / mp.mpf(sigma), eps_g)
    if int(k) == 1:
        return sgm1_delta(q, sigma, eps_g)
    raise ValueError("no closed-form truth for q < 1 and k > 1")


def sgm_tradeoff(q: float, sigma: float, k: int, fpr: float) -> mp.mpf:
    """Type-II error at fpr of k-fold Gaussian (q = 1 only: G_{sqrt(k)/sigma})."""
    if float(q) != 1.0:
        raise ValueError("truth only at q = 1")
    return tradeoff_gdp(mp.sqrt(int(k)) / mp.mpf(sigma), fpr)


def sgm_mu(q: float, sigma: float, k: int) -> mp.mpf:
    """The exact GDP mu of k-fold Gaussian (q = 1 only)."""
    if float(q) != 1.0:
        raise ValueError("truth only at q = 1")
    return mp.sqrt(int(k)) / mp.mpf(sigma)


def zcdp_tradeoff(rho: float, fpr: float) -> mp.mpf:
    """The trade-off curve implied by rho-zCDP: the sup over orders of the single-order curves (golden-section
    on log(alpha) over a fine grid, then refined)."""
    f = lambda t: tradeoff_rdp(1 + mp.e ** t, mp.mpf(rho) * (1 + mp.e ** t), fpr)  # noqa: E731
    ts = [mp.mpf(x) / 8 for x in range(-56, 57)]          # alpha - 1 from e^-7 to e^7
    vals = [f(t) for t in ts]
    i = max(range(len(ts)), key=lambda j: vals[j])
    lo, hi = ts[max(i - 1, 0)], ts[min(i + 1, len(ts) - 1)]
    g = (mp.sqrt(5) - 1) / 2
    for _ in range(60):                                   # golden section on the unimodal bracket
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        if f(a) > f(b):
            hi = b
        else:
            lo = a
    return max(vals[i], f((lo + hi) / 2))


def adv_comp_eps(n: int, ei: float, di: float) -> mp.mpf:
    """The smallest eps with n-fold (ei, di)-DP being (eps, n di)-DP (KOV15 Thm 3.3, exact): the truth for an
    advanced-composition claim (eps, n di)."""
    return eps_from_delta_curve(lambda e: kov15_delta(ei, di, int(n), e), int(n) * mp.mpf(di))


def laplace_scale_min(sensitivity: float, eps: float) -> mp.mpf:
    return mp.mpf(sensitivity) / mp.mpf(eps)


def gauss_eps_of_sigma(sensitivity: float, sigma: float, delta: float) -> mp.mpf:
    return gauss_eps(mp.mpf(sensitivity) / mp.mpf(sigma), delta)


def gauss_delta_rho(rho: float, eps_g: float) -> mp.mpf:
    return gauss_delta(mp.sqrt(2 * mp.mpf(rho)), eps_g)


def zcdp_eps_cks20(rho: float, delta: float) -> mp.mpf:
    """inf over alpha > 1 of the CKS20 conversion of (alpha, alpha rho)-RDP (golden section on log(alpha - 1))."""
    f = lambda t: cks20_eps(1 + mp.e ** t, mp.mpf(rho) * (1 + mp.e ** t), delta)  # noqa: E731
    lo, hi = mp.mpf(-20), mp.mpf(20)
    g = (mp.sqrt(5) - 1) / 2
    for _ in range(300):
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        if f(a) < f(b):
            hi = b
        else:
            lo = a
    return f((lo + hi) / 2)


def dp_eps_for_delta(eps: float, delta0: float, delta: float) -> mp.mpf:
    """The smallest eps_g with one (eps, delta0)-DP mechanism ((eps, delta0)-RR, the worst case) being
    (eps_g, delta)-DP: bisection on KOV15's curve at k = 1, delta0 + (1 - delta0) delta_RR(eps_g)."""
    c = mp.mp
    d0 = c.mpf(delta0)
    return eps_from_delta_curve(lambda g: d0 + (1 - d0) * kov15_delta(eps, 0, 1, g), c.mpf(delta))


def pure_pair_delta(eps1: float, eps2: float, eps_g: float) -> mp.mpf:
    """delta(eps_g) of RR_eps1 x RR_eps2 by enumerating the four outcome pairs: sum max(0, P(o) - e^eps_g Q(o))."""
    c = mp.mp
    e1, e2, g = c.mpf(eps1), c.mpf(eps2), c.mpf(eps_g)
    rr = lambda e: ((c.exp(e) / (1 + c.exp(e)), 1 / (1 + c.exp(e))), (1 / (1 + c.exp(e)), c.exp(e) / (1 + c.exp(e))))  # noqa: E731
    (p1, q1), (p2, q2) = rr(e1), rr(e2)
    return c.fsum(max(c.mpf(0), p1[i] * p2[j] - c.exp(g) * q1[i] * q2[j]) for i in (0, 1) for j in (0, 1))


def dlap_parameter_pure(sensitivity: float, eps: float, sampling_prob: float = 1) -> mp.mpf:
    """The largest discrete Laplace parameter a with log(1 - q + q e^{a Delta}) <= eps: bisection on that
    increasing function of a (not its closed-form inverse)."""
    c = mp.mp
    q, D, e = c.mpf(sampling_prob), c.mpf(sensitivity), c.mpf(eps)
    lo, hi = c.mpf(0), c.mpf(1)
    while c.log(1 - q + q * c.exp(hi * D)) <= e:
        hi *= 2
    for _ in range(220):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if c.log(1 - q + q * c.exp(mid * D)) <= e else (lo, mid)
    return lo


def dlap_tail_ge(scale: float, c: int, gap: int) -> mp.mpf:
    """P(Z >= gap) for Z with pmf proportional to e^{-|z|/scale} on the integers (the chance a key with count c
    clears a threshold c + gap; c itself does not enter), by summing the pmf over z >= gap (mpmath nsum) and
    dividing by its total mass (1 + r)/(1 - r), r = e^{-1/scale}."""
    m = mp.mp
    r = m.exp(-1 / m.mpf(scale))
    norm = (1 + r) / (1 - r)
    return m.nsum(lambda z: r ** abs(z), [int(gap), m.inf]) / norm


# reference id (the contract's, or an adapter's own callable name) -> the independent derivation of its truth
TRUTH = {
    "mechanisms.sgm.rdp": sgm_rdp,
    "conversions.rdp.mironov": mironov_eps,
    "conversions.rdp.cks20": cks20_eps,
    "tradeoff.gdp": tradeoff_gdp,
    "tradeoff.dp": tradeoff_dp,
    "tradeoff.rdp": tradeoff_rdp,
    "tradeoff.zcdp": zcdp_tradeoff,
    "composition.sgm.eps": sgm_eps,
    "composition.sgm.delta": sgm_delta,
    "conversions.gauss.delta": gauss_delta_rho,
    "refs.gauss_sigma_min": gauss_sigma_min,
    "refs.gauss_eps_of_sigma": gauss_eps_of_sigma,
    "refs.laplace_scale_min": laplace_scale_min,
    "refs.adv_comp_eps": adv_comp_eps,
    "refs.sgm_tradeoff": sgm_tradeoff,
    "refs.sgm_mu": sgm_mu,
    "refs.zcdp_eps_cks20": zcdp_eps_cks20,
    "refs.sgm1_delta_remove": lambda q, sigma, eps_g: sgm1_delta_remove(q, sigma, eps_g),
    "refs.sgm1_delta_add": lambda q, sigma, eps_g: sgm1_delta_add(q, sigma, eps_g),
    "refs.dp_eps_for_delta": dp_eps_for_delta,
    "refs.pure_pair_delta": pure_pair_delta,
    "refs.dlap_parameter_pure": dlap_parameter_pure,
    "opendp.dlap_threshold_delta": dlap_tail_ge,
}
