"""OpenDP's side of the OpenDP audit: imports only opendp and the standard library (runs in any interpreter).

The conversion and the filters are fed measurements whose privacy map returns exactly the audited number
(``make_user_measurement``), so the audited input is OpenDP's own rho / eps; with ``scale`` the conversion is
called on ``make_gaussian(scale)`` itself (today's grid rows), whose rho must then be the ``rho`` given."""

try:
    import opendp.prelude as dp
except ImportError:  # an OpenDP release before 0.8 (no prelude): only the conversion below runs (_old_zcdp_eps)
    dp = None
else:
    dp.enable_features("contrib", "honest-but-curious", "floating-point")
    try:
        SPACE = (dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float))
    except TypeError:  # OpenDP before 0.9: atom_domain takes no nan=
        SPACE = (dp.atom_domain(T=float), dp.absolute_distance(T=float))


def _old_zcdp_eps(rho, delta):
    """``make_zCDP_to_approxDP(make_base_gaussian(scale)).map(1.0).epsilon(delta)`` in the API of OpenDP 0.6 and
    0.7, the Gaussian's scale 1/sqrt(2 rho) (its rho-zCDP map: (1/scale)^2 / 2)."""
    if not rho > 0:  # this path's own limit (a scale from rho), not OpenDP's
        raise ValueError(f"rho={rho!r}: the OpenDP < 0.8 path needs rho > 0 (scale 1/sqrt(2 rho))")
    from opendp.combinators import make_zCDP_to_approxDP
    from opendp.measurements import make_base_gaussian
    from opendp.mod import enable_features
    enable_features("contrib", "floating-point")
    scale = (2.0 * float(rho)) ** -0.5
    return float(make_zCDP_to_approxDP(make_base_gaussian(scale)).map(1.0).epsilon(float(delta)))


def _prelude():
    """This path's own limit: the functions below need opendp.prelude (OpenDP >= 0.8)."""
    if dp is None:
        raise ValueError("this call needs OpenDP >= 0.8 (opendp.prelude)")


def _charged(measure, cost):
    """A measurement whose privacy map charges exactly ``cost`` (OpenDP's own number for a real mechanism)."""
    return dp.m.make_user_measurement(*SPACE, measure, lambda x: x, lambda d_in: cost)


def zcdp_to_approxdp_eps(rho, delta, scale=None):
    """``make_zCDP_to_approxDP(m).map(1.0).epsilon(delta)`` for a rho-zCDP measurement m (the Gaussian mechanism
    of that scale when given, and then OpenDP's rho for it must be ``rho``)."""
    if dp is None:
        return _old_zcdp_eps(rho, delta)
    if scale is None:
        try:
            m = _charged(dp.zero_concentrated_divergence(), float(rho))
        except TypeError:  # OpenDP 0.7 / 0.8: measures take T; the Gaussian mechanism of scale 1/sqrt(2 rho)
            base = getattr(dp.m, "make_gaussian", None) or dp.m.make_base_gaussian
            if not rho > 0:
                raise ValueError(f"rho={rho!r}: the OpenDP < 0.9 path needs rho > 0 (scale 1/sqrt(2 rho))")
            try:
                m = base(*SPACE, scale=(2.0 * float(rho)) ** -0.5)
            except TypeError:  # OpenDP 0.7: make_base_gaussian(scale, ...), no domain arguments
                return _old_zcdp_eps(rho, delta)
    else:
        m = dp.m.make_gaussian(*SPACE, scale=float(scale))
        if m.map(1.0) != rho:
            raise ValueError(f"OpenDP's rho for scale {scale!r} is {m.map(1.0)!r}, not {rho!r}")
    return float(dp.c.make_zCDP_to_approxDP(m).map(1.0).epsilon(float(delta)))


class _Filter:
    """``make_fully_adaptive_composition`` + ``make_privacy_filter(d_out=budget)``; ``try_spend`` submits a
    measurement charging that cost and is False iff OpenDP rejects it (HALT)."""

    def __init__(self, measure, budget):
        _prelude()
        self.measure = measure
        od = dp.c.make_fully_adaptive_composition(*SPACE, measure)
        self.q = dp.c.make_privacy_filter(od, d_in=1.0, d_out=float(budget))(0.0)

    def spend(self, cost):
        try:
            self.q(_charged(self.measure, float(cost)))
            return True
        except Exception:  # noqa: BLE001 - OpenDP rejects the query: HALT
            return False


class ZcdpFilter(_Filter):
    def try_spend(self, rho):
        return self.spend(rho)


class PureFilter(_Filter):
    def try_spend(self, eps):
        return self.spend(eps)


def zcdp_filter(B):
    """A zCDP privacy filter with budget rho = B."""
    return ZcdpFilter(dp.zero_concentrated_divergence(), B)


def pure_filter(eps_g):
    """A pure-DP privacy filter with budget eps = eps_g."""
    return PureFilter(dp.max_divergence(), eps_g)


class PureOdometer:
    """``make_fully_adaptive_composition`` over max_divergence, invoked on a dataset: ``step`` submits a
    measurement charging ``eps`` and returns ``OdometerQueryable.privacy_loss(1.0)``, OpenDP's running eps."""

    def __init__(self):
        _prelude()
        self.measure = dp.max_divergence()
        self.q = dp.c.make_fully_adaptive_composition(*SPACE, self.measure)(0.0)

    def step(self, eps):
        self.q(_charged(self.measure, float(eps)))
        return float(self.q.privacy_loss(1.0))


def pure_odometer():
    """A pure-DP privacy odometer (no budget)."""
    return PureOdometer()


# ---------------------------------------------------------------------------------------------------- DP-SGD paths (issue 28)
def gaussian_kfold_eps(q: float, sigma: float, k: int, delta: float) -> float:
    """``make_fix_delta(make_zCDP_to_approxDP(make_composition([make_gaussian(scale=sigma)] * k)), delta)
    .map(1.0)[0]`` (q must be 1)."""
    _prelude()
    if float(q) != 1.0:
        raise ValueError("OpenDP composes plain Gaussians: q must be 1")
    space = dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float)
    m = dp.m.make_gaussian(*space, scale=sigma)
    comp = dp.c.make_composition([m] * int(k))
    return float(dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(comp), delta).map(1.0)[0])


def gaussian_rho(sigma: float) -> float:
    """``make_gaussian(scale=sigma).map(1.0)``: the zCDP rho OpenDP charges (1/(2 sigma^2), rounded up)."""
    _prelude()
    space = dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float)
    return float(dp.m.make_gaussian(*space, scale=sigma).map(1.0))


# ---------------------------------------------------------------------------------------------------- privacy maps
def noise_laplace_map(scale: float, d_in: float) -> float:
    """``make_noise(float scalar, max_divergence(), scale).map(d_in)``: the eps OpenDP charges for Laplace noise."""
    _prelude()
    return float(dp.m.make_noise(*SPACE, dp.max_divergence(), scale=float(scale)).map(float(d_in)))


def noise_gauss_map(scale: float, d_in: float) -> float:
    """``make_noise(float scalar, zero_concentrated_divergence(), scale).map(d_in)``: the rho for Gaussian noise."""
    _prelude()
    return float(dp.m.make_noise(*SPACE, dp.zero_concentrated_divergence(), scale=float(scale)).map(float(d_in)))


def then_noise_laplace_map(scale: float, d_in: float) -> float:
    """``(input_space >> then_noise(max_divergence(), scale)).map(d_in)``."""
    _prelude()
    return float((SPACE >> dp.m.then_noise(dp.max_divergence(), scale=float(scale))).map(float(d_in)))


def then_noise_gauss_map(scale: float, d_in: float) -> float:
    """``(input_space >> then_noise(zero_concentrated_divergence(), scale)).map(d_in)``."""
    _prelude()
    return float((SPACE >> dp.m.then_noise(dp.zero_concentrated_divergence(), scale=float(scale))).map(float(d_in)))


def pure_to_zcdp_rho(eps: float) -> float:
    """``make_pureDP_to_zCDP(m).map(1.0)`` for a measurement m whose map charges exactly eps."""
    _prelude()
    return float(dp.c.make_pureDP_to_zCDP(_charged(dp.max_divergence(), float(eps))).map(1.0))


def profile_delta(rho: float, eps_g: float) -> float:
    """``make_zCDP_to_approxDP(m).map(1.0).delta(eps_g)`` for a rho-zCDP measurement m: the profile's delta."""
    _prelude()
    return float(dp.c.make_zCDP_to_approxDP(_charged(dp.zero_concentrated_divergence(), float(rho))).map(1.0)
                 .delta(float(eps_g)))



# ---------------------------------------------------------------------------------------------------- thresholded
# (stability-based) release of a hashmap of integer counts


def _threshold_measurement(scale: float, c: int, gap: int, then: bool):
    """The discrete Laplace thresholded release of a hashmap of i32 counts under approximate pure DP, threshold
    c + gap (a count >= the threshold is released: the map must bound the chance a new key with count c shows)."""
    _prelude()
    space = (dp.map_domain(dp.atom_domain(T=str), dp.atom_domain(T=dp.i32)),
             dp.l01inf_distance(dp.absolute_distance(T=dp.i32)))
    measure, threshold = dp.approximate(dp.max_divergence()), int(c) + int(gap)
    if then:
        return space >> dp.m.then_noise_threshold(measure, scale=float(scale), threshold=threshold)
    return dp.m.make_noise_threshold(*space, measure, scale=float(scale), threshold=threshold)


def noise_threshold_eps(scale: float, c: int, gap: int) -> float:
    """``make_noise_threshold(map of i32 counts, approximate(max_divergence()), scale, c + gap).map((1, c, c))[0]``:
    the eps charged when one key changes by c."""
    return float(_threshold_measurement(scale, c, gap, False).map((1, int(c), int(c)))[0])


def noise_threshold_delta(scale: float, c: int, gap: int) -> float:
    """The delta of the same map: the chance a key present on one side only is released."""
    return float(_threshold_measurement(scale, c, gap, False).map((1, int(c), int(c)))[1])


def then_noise_threshold_delta(scale: float, c: int, gap: int) -> float:
    """``(space >> then_noise_threshold(approximate(max_divergence()), scale, c + gap)).map((1, c, c))[1]``."""
    return float(_threshold_measurement(scale, c, gap, True).map((1, int(c), int(c)))[1])
