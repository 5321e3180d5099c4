"""Hypothesis strategies shared by the test suite (composed, named for what they generate).

The domain-wide strategies live in the installed package, :mod:`dpbounds.testing.strategies` (what
``check_conversion`` / ``check_filter`` search with); the ones here are the test suite's narrower choices.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import strategies as st

from dpbounds.testing.strategies import costs, expand, points, streams, values  # noqa: F401  (re-exported)


def log_uniform(lo_exp: float, hi_exp: float) -> st.SearchStrategy[float]:
    """Floats spread evenly in log10 between 10**lo_exp and 10**hi_exp."""
    return st.floats(lo_exp, hi_exp, allow_nan=False, allow_infinity=False).map(lambda e: float(10.0 ** e))


#: per-round epsilon from 1e-12 to 10
eps_values = log_uniform(-12, 1)
#: typical per-round epsilon (1e-4 .. 1)
eps_typical = log_uniform(-4, 0)
#: a delta from 1e-15 to 0.3
delta_values = log_uniform(-15, np.log10(0.3))
#: a delta valid for theorems that need delta < 1/e
delta_small = log_uniform(-15, np.log10(0.36))
#: global epsilon budgets
eps_budget = log_uniform(-2, 1)
#: intrinsic time V from 1e-8 to 1e6
v_values = log_uniform(-8, 6)


def decimal_strings(strategy: st.SearchStrategy[float]) -> st.SearchStrategy[str]:
    """Exact decimal renderings (12 significant digits) of floats drawn from ``strategy``."""
    return strategy.map(lambda x: f"{x:.12g}")


@st.composite
def eps_sequences(draw, max_len: int = 60, eps=eps_typical) -> list[float]:
    """A sequence of per-round epsilons, including repeated values."""
    n = draw(st.integers(1, max_len))
    pool = draw(st.lists(eps, min_size=1, max_size=4))
    return [draw(st.sampled_from(pool)) for _ in range(n)]


@st.composite
def long_eps_arrays(draw, max_len: int = 10_000) -> np.ndarray:
    """A long float64 array of per-round epsilons (up to 1e4 rounds)."""
    n = draw(st.integers(1, max_len))
    seed = draw(st.integers(0, 2**32 - 1))
    lo = draw(st.floats(-6, -1))
    rng = np.random.default_rng(seed)
    return 10.0 ** rng.uniform(lo, lo + 1.0, size=n)


def fractions_of(strategy: st.SearchStrategy[float]) -> st.SearchStrategy[Fraction]:
    return strategy.map(Fraction)


@st.composite
def entry_points(draw, entry, spread: float = 2.0, as_float: bool = True):
    """Points near an entry's sample point: each parameter and aggregate scaled by 10**u, u in [-spread, spread].

    Integer parameters (n, k, l) stay integers.  Returns floats (exact binary values) when ``as_float``.
    The caller filters out-of-domain points (``hypothesis.assume`` on ``entry.check_values``).
    """
    from dpbounds.spec.core import CANONICAL
    pt = {}
    for name, v in sorted(entry.sample_point().items()):
        base = float(Fraction(v))
        if CANONICAL.get(name, ({}, ""))[0].get("integer"):
            pt[name] = int(max(1, round(base * 10 ** draw(st.floats(-1, 1)))))
        elif base == 0:
            pt[name] = 0.0
        else:
            pt[name] = base * 10 ** draw(st.floats(-spread, spread))
    return pt


def budget_streams(eps_g: float = 1.0, max_rounds: int = 4096) -> st.SearchStrategy[list[dict[str, float]]]:
    """Per-round eps streams for a filter of budget ``eps_g``, every shape (see dpbounds.testing.strategies.streams),
    expanded to one dict per round."""
    return streams(("eps",), {"eps": eps_g}, max_rounds).map(expand)


#: hostile scalars for the API: huge and tiny exact numbers, float64's extremes (1e308, subnormals, inf, nan),
#: strings that are and are not numbers
hostile_scalars = st.one_of(
    st.sampled_from([10**5000, -10**5000, 2**63, 10**308, 1e308, -1e308, 5e-324, 2.2e-308, float("inf"),
                     float("-inf"), float("nan"), 0, 0.0, -0.0, "1e1000", "1e-1000", "1e1001", "nan", "inf", "",
                     " 1", "1/0", "0x10", "1_000", "\x00", "9" * 500, Fraction(1, 10**1000)]),
    st.integers(min_value=-10**1200, max_value=10**1200),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.fractions(max_denominator=10**400))
