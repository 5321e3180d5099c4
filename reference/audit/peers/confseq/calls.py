"""confseq calls (imports only confseq and the stdlib): Howard et al.'s own C++ boundaries."""

from confseq import boundaries


def poly_stitching_bound(V: float, delta: float, s: float, eta: float) -> float:
    """``boundaries.poly_stitching_bound(V, delta, v_min=1, c=0, s, eta)``: the polynomial stitching boundary u(V)
    (one-sided, sub-Gaussian, with m = v_min = 1)."""
    return float(boundaries.poly_stitching_bound(float(V), float(delta), 1.0, c=0.0, s=float(s), eta=float(eta)))


#: alpha_opt of every call below (confseq's default; the declarations' reference uses the same)
ALPHA_OPT = 0.05


def _bound(V, delta, v_opt, g, h, one_sided):
    return float(boundaries.beta_binomial_mixture_bound(float(V), float(delta), float(v_opt), float(g), float(h),
                                                        ALPHA_OPT, bool(one_sided)))


def _log(s, V, v_opt, g, h, one_sided):
    return float(boundaries.beta_binomial_log_mixture(float(s), float(V), float(v_opt), float(g), float(h),
                                                      ALPHA_OPT, bool(one_sided)))


def bb_bound_one(V: float, delta: float, v_opt: float, g: float, h: float, one_sided: int = 1) -> float:
    """``boundaries.beta_binomial_mixture_bound(V, delta, v_opt, g, h, 0.05, True)``."""
    return _bound(V, delta, v_opt, g, h, True)


def bb_bound_two(V: float, delta: float, v_opt: float, g: float, h: float, one_sided: int = 0) -> float:
    """``boundaries.beta_binomial_mixture_bound(V, delta, v_opt, g, h, 0.05, False)``."""
    return _bound(V, delta, v_opt, g, h, False)


def bb_log_one(s: float, V: float, v_opt: float, g: float, h: float, one_sided: int = 1) -> float:
    """``boundaries.beta_binomial_log_mixture(s, V, v_opt, g, h, 0.05, True)``."""
    return _log(s, V, v_opt, g, h, True)


def bb_log_two(s: float, V: float, v_opt: float, g: float, h: float, one_sided: int = 0) -> float:
    """``boundaries.beta_binomial_log_mixture(s, V, v_opt, g, h, 0.05, False)``."""
    return _log(s, V, v_opt, g, h, False)
