"""confseq calls (imports only confseq and the stdlib): Howard et al.'s own C++ boundaries."""

from confseq import boundaries


def poly_stitching_bound(V: float, delta: float, s: float, eta: float) -> float:
    """``boundaries.poly_stitching_bound(V, delta, v_min=1, c=0, s, eta)``: the polynomial stitching boundary u(V)
    (one-sided, sub-Gaussian, with m = v_min = 1)."""
    return float(boundaries.poly_stitching_bound(float(V), float(delta), 1.0, c=0.0, s=float(s), eta=float(eta)))
