"""FZ21 individual privacy accounting, vectorized over n individuals (numpy).

* :class:`IndividualFilter` -- Algorithm 3 / Theorem 4.5: each round, individual i is active iff its own Renyi
  filter F_{alpha,B}(rho_1^(i), ..., rho_t^(i)) says CONT, where earlier rounds in which it was inactive count 0
  (Algorithm 3 resets rho_t^(i) <- rho_t^(i) 1{i active}).  Decisions are sound in float64: the running sums are
  kept as upper bounds (rounded up after every addition), so an individual is never kept active when the exact sum
  would exceed B.
* :class:`IndividualOdometer` -- Algorithm 6 / Corollary 5.3: per-individual restarted Delta-filters,
  O_t^(i) = (m_i + 1) Delta.
* :class:`IndividualGDPFilter` -- Koskela, Tobaben, Honkela (ICLR 2023; spec ``kth23.individual_filter``): the same
  per-individual rule for Gaussian DP: individual i takes part in round t iff its own sum of mu_{i,s}^2 (rounds it
  took part in, plus this one) stays <= mu_g^2.  Sound in float64 the same way: each mu^2 and each running sum is
  an upper bound, mu_g^2 a lower bound.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from dpbounds.spec import DomainError, parse_exact
from dpbounds.spec.core import Exact
from dpbounds.util import show
from dpbounds.accounting import mechanisms as _mech
from dpbounds.accounting.filters import gdp_budget
from dpbounds.evaluation.numeric import float_down, float_up


def _add_up(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Elementwise upper bound of a + b: exact when the float addition was exact (TwoSum error 0), else one ulp up."""
    s = a + b
    bb = s - a
    err = (a - (s - bb)) + (b - bb)
    out: np.ndarray = np.where(err == 0, s, np.nextafter(s, np.inf))
    return out


def _exact_scalar(v: Any) -> Any:
    """A numpy scalar as an exact Python number (a long double's binary value, an int64 as int); others unchanged."""
    if isinstance(v, np.floating):
        return Fraction(*v.as_integer_ratio()) if np.isfinite(v) else float(v)
    if isinstance(v, (np.integer, np.bool_)):
        return int(v)
    if isinstance(v, (np.str_, np.bytes_)):
        return str(v)  # a decimal string, parsed exactly
    return v


def _as_costs(rho: npt.ArrayLike, n: int, name: str = "rho") -> np.ndarray:
    """The costs as float64 upper bounds: float64/32/16 arrays as they are (exact), anything else (decimal strings,
    Fractions, Decimals, big ints, long doubles) each rounded UP -- numpy's round-to-nearest would send a positive
    '1e-400' to 0.0 and let the running sums, hence the CONT decisions, fall below the exact ones."""
    if isinstance(rho, (bytes, bytearray, memoryview, str)):
        raise TypeError(f"{name}: expected real numbers, one per individual, got {type(rho).__name__}")
    if isinstance(rho, (list, tuple)) and any(isinstance(v, (bytes, bytearray, memoryview, bool, np.bool_))
                                              for v in rho):
        raise TypeError(f"{name}: expected real numbers, one per individual, got bytes or bools")
    a = np.asarray(rho)
    if a.dtype.kind in "bcmMS":  # bools, complex, datetimes, bytes: not real numbers (numpy would convert them)
        raise TypeError(f"{name}: expected real numbers, one per individual, got numpy dtype {a.dtype}")
    if a.dtype in (np.float64, np.float32, np.float16) or (a.dtype.kind in "iu" and a.dtype.itemsize <= 4):
        r = a.astype(np.float64)
    else:
        if a.dtype.kind not in "iufOSU" or a.size > 10**8:
            raise DomainError(name, f"<array of dtype {a.dtype}>", "real numbers, one per individual",
                              "dpbounds.accounting.individual")
        from dpbounds.evaluation.numeric import float_up
        flat = [float_up(parse_exact(name, _exact_scalar(v), "dpbounds.accounting.individual")) for v in a.ravel()]
        r = np.array(flat, dtype=np.float64).reshape(a.shape)
    if r.shape != (n,):
        raise DomainError(name, f"<array of shape {r.shape}>", f"one value per individual, shape ({n},)",
                          "dpbounds.accounting.individual")
    bad = ~np.isfinite(r) | (r < 0)
    if np.any(bad):
        i = int(np.flatnonzero(bad)[0])
        raise DomainError(f"{name}[{i}]", float(r[i]), f"{name} >= 0 (finite)", "dpbounds.accounting.individual")
    return r


class IndividualFilter:
    """FZ21 Algorithm 3: per-individual Renyi filters at order alpha with budget B (vectorized)."""

    def __init__(self, n: int, alpha: Exact, B: Exact) -> None:
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise DomainError("n", n, "a positive integer", "fz21.thm4_5")
        self.alpha = parse_exact("alpha", alpha, "fz21.thm4_5")
        B = parse_exact("B", B, "fz21.thm4_5")
        if self.alpha < 1 or B < 0:
            raise DomainError("alpha" if self.alpha < 1 else "B", self.alpha if self.alpha < 1 else B,
                              "alpha >= 1, B >= 0", "fz21.thm4_5")
        self.B = float_down(B)  # comparing with a lower bound of B never keeps a point that exact arithmetic drops
        self.spent_hi = np.zeros(n)  # upper bounds on each individual's (effective) spend
        self.n = n
        self.rounds = 0

    def __repr__(self) -> str:
        return (f"<IndividualFilter fz21.thm4_5(n={self.n}, alpha={show.number(self.alpha)}, B={show.number(self.B)}): "
                f"{show.rounds(self.rounds)}, max spend <= "
                f"{show.number(float(self.spent_hi.max()), rounding='ceiling')}>")

    def step(self, rho: npt.ArrayLike) -> np.ndarray:
        """Given this round's individual costs rho_t^(i), return the active mask and record the spends."""
        return _admit(self, _as_costs(rho, self.n), self.B)

    def step_mechanism(self, mechanism: str, **params: Any) -> np.ndarray:
        """A round of a mechanism, each individual charged its Renyi divergence at the filter's order (rounded up,
        :func:`dpbounds.accounting.mechanisms.rdp_upper`).  Each parameter is a scalar or one value per individual
        (e.g. FZ21's noisy gradient descent: sigma_i = sigma / ||clipped gradient of i||); one certified evaluation
        per distinct parameter combination."""
        cols = {k: np.broadcast_to(np.asarray(v, dtype=object), (self.n,)) for k, v in params.items()}
        memo: dict[tuple[tuple[str, Any], ...], float] = {}
        cost = np.empty(self.n)
        for i in range(self.n):
            key = tuple((k, _exact_scalar(c[i])) for k, c in sorted(cols.items()))
            if key not in memo:
                memo[key] = float_up(_mech.rdp_upper(mechanism, self.alpha, **dict(key)))
            cost[i] = memo[key]
        return _admit(self, cost, self.B)


def _admit(f: Any, cost: np.ndarray, limit: float) -> np.ndarray:
    """One round of an individual filter: the mask of individuals whose candidate spend (an upper bound of the
    exact sum, exact when representable) stays <= ``limit`` (a lower bound of the budget); their spends recorded."""
    cand = _add_up(f.spent_hi, cost)
    active = cand <= limit
    f.spent_hi = np.where(active, cand, f.spent_hi)
    f.rounds += 1
    return active


class IndividualOdometer:
    """FZ21 Algorithm 6: per-individual Renyi odometers with discretization Delta (needs rho_t^(i) <= Delta)."""

    def __init__(self, n: int, Delta: Exact) -> None:
        D = parse_exact("Delta", Delta, "fz21.cor5_3")
        if not D > 0:
            raise DomainError("Delta", D, "Delta > 0", "fz21.cor5_3")
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise DomainError("n", n, "a positive integer", "fz21.cor5_3")
        self.Delta = float_down(D)
        self.Delta_exact = D
        self.n = n
        self.segment_hi = np.zeros(n)
        self.m = np.zeros(n, dtype=np.int64)

    def __repr__(self) -> str:
        return (f"<IndividualOdometer fz21.cor5_3(n={self.n}, Delta={show.number(self.Delta_exact)}): "
                f"max bound <= {show.number(float(self.values().max()), rounding='ceiling')}>")

    def step(self, rho: npt.ArrayLike) -> np.ndarray:
        """Record a round; return each individual's odometer value (m_i + 1) Delta (float64, rounded up)."""
        r = _as_costs(rho, self.n)
        if np.any(r > self.Delta):
            i = int(np.flatnonzero(r > self.Delta)[0])
            raise DomainError(f"rho[{i}]", float(r[i]), "rho <= Delta (Corollary 5.3)", "fz21.cor5_3")
        cand = _add_up(self.segment_hi, r)
        restart = cand > self.Delta  # the individual's Delta-filter HALTs: restart at this round
        self.m = self.m + restart
        self.segment_hi = np.where(restart, r, cand)
        return self.values()

    def values(self) -> np.ndarray:
        """Each individual's odometer value (m_i + 1) Delta, float64 rounded up."""
        out: np.ndarray = np.nextafter((self.m + 1) * float(self.Delta_exact), np.inf)
        return out


_SPLIT = 134217729.0  # 2^27 + 1: Veltkamp's split, for the exact error of a float64 product (Dekker)
_SAFE_LO, _SAFE_HI = 2.0 ** -450, 2.0 ** 450  # where the split's products neither underflow nor overflow


def _square_up(a: np.ndarray) -> np.ndarray:
    """Elementwise upper bound of a^2 (a >= 0): exact when the float product was exact, else one ulp up.

    Dekker's TwoProduct gives the exact error e = a*a - fl(a*a) inside [2^-450, 2^450]; outside (or where it does not
    apply) the product is moved one ulp up, which is an upper bound whatever the rounding of fl(a*a) was."""
    p = a * a
    with np.errstate(over="ignore", invalid="ignore"):
        c = _SPLIT * a
        hi = c - (c - a)
        lo = a - hi
        err = (((hi * hi - p) + hi * lo) + hi * lo) + lo * lo  # exact: a^2 - p (Dekker, each step exact)
    reliable = (a >= _SAFE_LO) & (a <= _SAFE_HI)
    out: np.ndarray = np.where((a == 0) | (reliable & (err <= 0)), p, np.nextafter(p, np.inf))
    return out


class IndividualGDPFilter:
    """Koskela-Tobaben-Honkela: per-individual Gaussian-DP filters with a common budget mu_g (vectorized).

    Source: spec ``kth23.individual_filter`` (ICLR 2023, arXiv:2209.15596; theorem number not verified).  Each round
    ``step(mu)`` takes mu_{i,t} >= 0 per individual (its contribution is mu_{i,t}-GDP with respect to i, e.g. the
    norm of i's clipped gradient over the noise scale) and returns the mask of individuals that take part: i is
    active iff (sum of mu_{i,s}^2 over the rounds it took part in) + mu_{i,t}^2 <= mu_g^2; an inactive individual's
    round counts 0 and it may rejoin later.  The run is then mu_g-GDP with respect to every individual (individual
    GDP), so (eps_g, delta_g)-DP for each.  mu_g^2 = 2 B with B from ``dpbounds.accounting.filters.gdp_budget``
    (the exact Gaussian curve, certified lower end) or a given B <= that.
    Domain: n >= 1, eps_g > 0, 0 < delta_g < 1; mu_{i,t} >= 0 finite.
    """

    def __init__(self, n: int, eps_g: Exact, delta_g: Exact, B: Exact | None = None) -> None:
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise DomainError("n", n, "a positive integer", "kth23.individual_filter")
        self.B: Fraction = gdp_budget(eps_g, delta_g, B, "kth23.individual_filter")
        self.mu_g2 = float_down(2 * self.B)  # a lower bound of mu_g^2: never keeps a point exact arithmetic drops
        self.spent_hi = np.zeros(n)  # upper bounds of each individual's sum of mu^2 over the rounds it took part in
        self.n = n
        self.rounds = 0

    def __repr__(self) -> str:
        return (f"<IndividualGDPFilter kth23.individual_filter(n={self.n}, mu_g^2={show.number(2 * self.B)}): "
                f"{show.rounds(self.rounds)}, max sum mu^2 <= "
                f"{show.number(float(self.spent_hi.max()), rounding='ceiling')}>")

    def step(self, mu: npt.ArrayLike) -> np.ndarray:
        """Given this round's mu_{i,t} per individual, return the active mask and record the active ones' mu^2."""
        return _admit(self, _square_up(_as_costs(mu, self.n, "mu")), self.mu_g2)


def _bench(quick: bool) -> list[dict[str, Any]]:
    import time
    n = 100_000 if quick else 1_000_000
    f = IndividualFilter(n, 2, 10)
    rng = np.random.default_rng(0)
    rho = rng.uniform(0, 0.01, n)
    t0 = time.perf_counter()
    steps = 5 if quick else 20
    for _ in range(steps):
        f.step(rho)
    dt = time.perf_counter() - t0
    return [{"bench": "individual filter (FZ21 Alg. 3)", "id": f"n={n}", "rate": n * steps / dt, "unit": "updates/s"}]


BENCHMARKS = [("individual", _bench)]
