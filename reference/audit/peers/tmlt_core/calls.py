"""Tumult Core's side of its audit: imports only tmlt.core and the standard library (runs in the peer's own
interpreter, ``--python tmlt_core=PATH``; only JSON crosses over, exact values as strings)."""

import math
from fractions import Fraction as F


def _meas(kind, p):
    """A round whose exact cost is p: Laplace scale 1/eps (pure DP), Gaussian sigma^2 = 1/(2 rho) (zCDP)."""
    from tmlt.core.domains.numpy_domains import NumpyFloatDomain
    from tmlt.core.measurements.noise_mechanisms import AddGaussianNoise, AddLaplaceNoise
    dom = NumpyFloatDomain()
    return AddLaplaceNoise(dom, scale=1 / F(p)) if kind == "pure" else AddGaussianNoise(dom, 1 / (2 * F(p)))


def zcdp_to_approx(a, b, eps, delta):
    """The largest float rho ``RhoZCDPToApproxDP(AddGaussianNoise).privacy_relation(1, (eps, delta))`` accepts, and
    the next float (refused), by bisection from the bracket [a, b]."""
    from tmlt.core.domains.numpy_domains import NumpyFloatDomain
    from tmlt.core.measurements.converters import RhoZCDPToApproxDP
    from tmlt.core.measurements.noise_mechanisms import AddGaussianNoise
    dom = NumpyFloatDomain()

    def ok(r):
        return bool(RhoZCDPToApproxDP(AddGaussianNoise(dom, 1 / (2 * F(r)))).privacy_relation(
            1, (F(eps), F(delta))))
    a, b = float(a), float(b)
    for _ in range(64):
        if ok(a):
            break
        a /= 2
    for _ in range(64):
        if not ok(b):
            break
        b *= 2
    while math.nextafter(a, math.inf) < b:
        m = (a + b) / 2
        if not a < m < b:
            m = math.nextafter(a, math.inf)
        if ok(m):
            a = m
        else:
            b = m
    return [a, b]


def pure_to_zcdp(eps):
    """``PureDPToRhoZCDP(AddLaplaceNoise(scale 1/eps)).privacy_function(1)``, exact, as a string."""
    from tmlt.core.measurements.converters import PureDPToRhoZCDP
    return str(PureDPToRhoZCDP(_meas("pure", eps)).privacy_function(1))


def compose(kind, costs):
    """``Composition`` of one round per cost: its ``privacy_function(1)``, exact, as a string."""
    from tmlt.core.measurements.composition import Composition
    return str(Composition([_meas(kind, p) for p in costs]).privacy_function(1))


def filter_rounds(kind, budget, costs):
    """``SequentialComposition``'s queryable, one round per cost, until it refuses one: per round [CONT or HALT,
    the round's exact charge]."""
    from tmlt.core.domains.numpy_domains import NumpyFloatDomain
    from tmlt.core.measurements.interactive_measurements import (MakeInteractive, MeasurementQuery,
                                                                 SequentialComposition)
    from tmlt.core.measures import InsufficientBudgetError, PureDP, RhoZCDP
    from tmlt.core.metrics import AbsoluteDifference
    domain = NumpyFloatDomain()
    q = SequentialComposition(domain, AbsoluteDifference(), PureDP() if kind == "pure" else RhoZCDP(), 1,
                              F(budget))(domain.carrier_type(0.0))  # numpy's float64, through tmlt's own domain
    out = []
    for p in costs:
        mm = _meas(kind, p)
        charged = str(mm.privacy_function(1))
        try:
            q(MeasurementQuery(MakeInteractive(mm)))
            out.append(["CONT", charged])
        except InsufficientBudgetError:
            out.append(["HALT", charged])
            break
    return out


# ------------------------------------------------------------------------------------------ the declarations' calls
# Each returns tmlt.core's exact answer as the float64 next to it on its claim's safe side (up for an upper claim,
# down for a lower one), so that an exact answer equal to the reference is never shown below it; a
# privacy relation (a bool) is read as the smallest float d_out it accepts (bisection over the float64 bit patterns,
# every comparison tmlt.core's own, exact).

def _rounded(v, up):
    """tmlt.core's exact value v as the float64 next to it on one side (up or down): a rational exactly; another
    real from 60 digits, the float found only when both ends of the digits' error interval give the same one (else
    ExactNumber.to_float, which leaves a margin of its own)."""
    from tmlt.core.utils.exact_number import ExactNumber
    x = ExactNumber(v)
    if not x.is_finite:
        return math.inf if x > 0 else -math.inf
    e = x.expr

    def side(q):
        f = float(q)
        if up and F(f) < q:
            return math.nextafter(f, math.inf)
        if not up and F(f) > q:
            return math.nextafter(f, -math.inf)
        return f
    if e.is_Rational:
        return side(F(int(e.p), int(e.q)))
    approx = F(str(e.evalf(60)))
    err = abs(approx) * F(1, 10 ** 55)
    a, b = side(approx - err), side(approx + err)
    return a if a == b else x.to_float(round_up=up)


def _up(v):
    return _rounded(v, True)


def _down(v):
    return _rounded(v, False)


def _exact(x):
    """A float d_out as tmlt.core takes it: exact (a Fraction), +inf as the float."""
    return x if math.isinf(x) else F(x)


def _float_of(bits):
    import struct
    return struct.unpack("<d", struct.pack("<q", bits))[0]


def _bits(x):
    import struct
    return struct.unpack("<q", struct.pack("<d", x))[0]


def _smallest_accepted(ok, guess=None):
    """The smallest float64 x >= 0 with ok(x) (ok monotone: refused below, accepted above), +inf when only +inf is
    accepted; ValueError when even +inf is refused.  ``guess`` (a float) only says where to start: the bracket
    around it is widened until ok refuses its low end and accepts its high end, then bisected, so the answer is
    ok's own whatever the guess (a few calls instead of 64 when the guess is near)."""
    if ok(0.0):
        return 0.0
    if not ok(math.inf):
        raise ValueError("the relation refuses every d_out up to +inf")
    lo, hi = 0, 0x7FF0000000000000  # the bit patterns of 0.0 and +inf, ordered as the floats
    if guess is not None and 0 < guess < math.inf:
        g, step = _bits(float(guess)), 1
        while g < hi and not ok(_float_of(g)):  # up until accepted
            lo, g, step = g, min(g + step, hi), 2 * step
        hi, g, step = g, g - 1, 1
        while g > lo and ok(_float_of(g)):  # down until refused
            hi, g, step = g, max(g - step, lo), 2 * step
        lo = max(lo, g)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(_float_of(mid)):
            hi = mid
        else:
            lo = mid
    return _float_of(hi)


def _largest_accepted(ok, top):
    """The largest float64 x in [0, top] with ok(x) (accepted below, refused above), -1.0 when none is."""
    lo, hi = 0, _bits(float(top))
    if not ok(0.0):
        return -1.0
    if ok(_float_of(hi)):
        return _float_of(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(_float_of(mid)):
            lo = mid
        else:
            hi = mid
    return _float_of(lo)


def _laplace(scale):
    from tmlt.core.domains.numpy_domains import NumpyFloatDomain
    from tmlt.core.measurements.noise_mechanisms import AddLaplaceNoise
    return AddLaplaceNoise(NumpyFloatDomain(), scale=F(scale))


def _geometric(scale):
    from tmlt.core.measurements.noise_mechanisms import AddGeometricNoise
    return AddGeometricNoise(alpha=F(scale))


def _function_and_relation(m, d_in, relation):
    """m.privacy_function(d_in) rounded up, or (relation) the smallest float eps m.privacy_relation(d_in, eps)
    accepts."""
    value = m.privacy_function(F(d_in))
    if relation:  # the function's value only as the bisection's starting point
        return _smallest_accepted(lambda x: bool(m.privacy_relation(F(d_in), _exact(x))), _up(value))
    return _up(value)


def geometric_eps(scale, d_in):
    """``AddGeometricNoise(alpha=scale).privacy_function(d_in)``."""
    return _up(_geometric(scale).privacy_function(int(d_in)))


def discrete_gaussian_rho(scale, d_in):
    """``AddDiscreteGaussianNoise(sigma_squared=scale**2).privacy_function(d_in)`` (scale the standard deviation)."""
    from tmlt.core.measurements.noise_mechanisms import AddDiscreteGaussianNoise
    return _up(AddDiscreteGaussianNoise(sigma_squared=F(scale) ** 2).privacy_function(int(d_in)))


def laplace_relation(scale, d_in):
    """The smallest eps ``AddLaplaceNoise(scale).privacy_relation(d_in, eps)`` accepts (``Measurement``'s)."""
    return _function_and_relation(_laplace(scale), d_in, True)


def make_interactive_relation(scale, d_in):
    from tmlt.core.measurements.interactive_measurements import MakeInteractive
    return _function_and_relation(MakeInteractive(_laplace(scale)), d_in, True)


def post_process(scale, d_in, relation=0):
    from tmlt.core.measurements.postprocess import PostProcess
    return _function_and_relation(PostProcess(_laplace(scale), lambda x: 2 * x), d_in, relation)


def non_interactive_post_process(scale, d_in, relation=0):
    from tmlt.core.measurements.interactive_measurements import MakeInteractive
    from tmlt.core.measurements.postprocess import NonInteractivePostProcess
    return _function_and_relation(NonInteractivePostProcess(MakeInteractive(_laplace(scale)), lambda q: q), d_in,
                                  relation)


def derived(scale, d_in, relation=0):
    """A DerivedMeasurement subclass (tmlt.core's documented pattern) wrapping Laplace noise."""
    from tmlt.core.measurements.derived import DerivedMeasurement

    class AddLaplaceNoiseDerived(DerivedMeasurement):
        def __init__(self, scale):
            super().__init__(_laplace(scale))
    return _function_and_relation(AddLaplaceNoiseDerived(scale), d_in, relation)


def decorate_queryable(scale, d_in):
    from tmlt.core.measurements.interactive_measurements import DecorateQueryable, MakeInteractive
    m = DecorateQueryable(MakeInteractive(_laplace(scale)), lambda q: q, lambda a: a)
    return _function_and_relation(m, d_in, False)


def _count_then_geometric(scale):
    from tmlt.core.domains.spark_domains import SparkDataFrameDomain, SparkIntegerColumnDescriptor
    from tmlt.core.measurements.chaining import ChainTM
    from tmlt.core.metrics import SymmetricDifference
    from tmlt.core.transformations.spark_transformations.agg import Count
    count = Count(SparkDataFrameDomain({"a": SparkIntegerColumnDescriptor()}), SymmetricDifference())
    return ChainTM(count, _geometric(scale))


def chain_count_geometric(scale, d_in, relation=0):
    """``ChainTM(Count(.., SymmetricDifference()), AddGeometricNoise(scale))``: a noisy count (no Spark session:
    only the accounting runs)."""
    return _function_and_relation(_count_then_geometric(scale), int(d_in), relation)


def composition_relation(b1, b2, b3, d_in):
    """The smallest eps ``Composition([Laplace b1, b2, b3]).privacy_relation(d_in, eps)`` accepts."""
    from tmlt.core.measurements.composition import Composition
    return _function_and_relation(Composition([_laplace(b) for b in (b1, b2, b3)]), d_in, True)


def parallel_composition(b1, b2, b3, d_in):
    """``ParallelComposition`` of three interactive Laplace measurements on a list of three floats under
    SumOf(AbsoluteDifference()): its privacy_function(d_in)."""
    from tmlt.core.domains.collections import ListDomain
    from tmlt.core.domains.numpy_domains import NumpyFloatDomain
    from tmlt.core.measurements.interactive_measurements import MakeInteractive, ParallelComposition
    from tmlt.core.measures import PureDP
    from tmlt.core.metrics import AbsoluteDifference, SumOf
    m = ParallelComposition(ListDomain(NumpyFloatDomain(), length=3), SumOf(AbsoluteDifference()), PureDP(),
                            [MakeInteractive(_laplace(b)) for b in (b1, b2, b3)])
    return _up(m.privacy_function(F(d_in)))


def pure_to_zcdp_relation(eps):
    """The smallest rho ``PureDPToRhoZCDP(AddLaplaceNoise(scale 1/eps)).privacy_relation(1, rho)`` accepts."""
    from tmlt.core.measurements.converters import PureDPToRhoZCDP
    return _function_and_relation(PureDPToRhoZCDP(_meas("pure", eps)), 1, True)


def pure_to_approx_eps(scale, d_in):
    """The epsilon of ``PureDPToApproxDP(AddLaplaceNoise(scale)).privacy_function(d_in)``."""
    from tmlt.core.measurements.converters import PureDPToApproxDP
    return _up(PureDPToApproxDP(_laplace(scale)).privacy_function(F(d_in))[0])


def pure_to_approx_relation(scale, d_in, delta):
    """The smallest eps ``PureDPToApproxDP(AddLaplaceNoise(scale)).privacy_relation(d_in, (eps, delta))``
    accepts."""
    from tmlt.core.measurements.converters import PureDPToApproxDP
    m = PureDPToApproxDP(_laplace(scale))
    return _smallest_accepted(lambda x: bool(m.privacy_relation(F(d_in), (_exact(x), F(delta)))),
                              _up(m.privacy_function(F(d_in))[0]))


def add_noise_to_series(scale, d_in, gaussian=0):
    """``AddNoiseToSeries(AddGeometricNoise(scale))`` (pure DP, SumOf) or, gaussian,
    ``AddNoiseToSeries(AddDiscreteGaussianNoise(scale**2))`` (zCDP, RootSumOfSquared): privacy_function(d_in)."""
    from tmlt.core.measurements.noise_mechanisms import AddDiscreteGaussianNoise
    from tmlt.core.measurements.pandas_measurements.series import AddNoiseToSeries
    inner = AddDiscreteGaussianNoise(sigma_squared=F(scale) ** 2) if gaussian else _geometric(scale)
    return _up(AddNoiseToSeries(inner).privacy_function(int(d_in)))


def add_noise_to_column(scale, d_in):
    """``AddNoiseToColumn`` of ``AddNoiseToSeries(AddGeometricNoise(scale))`` on an integer column of a Spark
    DataFrame domain (no Spark session: only the accounting runs)."""
    from tmlt.core.domains.spark_domains import SparkDataFrameDomain, SparkIntegerColumnDescriptor
    from tmlt.core.measurements.pandas_measurements.series import AddNoiseToSeries
    from tmlt.core.measurements.spark_measurements import AddNoiseToColumn
    m = AddNoiseToColumn(SparkDataFrameDomain({"a": SparkIntegerColumnDescriptor()}),
                         AddNoiseToSeries(_geometric(scale)), "a")
    return _up(m.privacy_function(int(d_in)))


def _quantile(eps, zcdp, q=0.5):
    from tmlt.core.domains.numpy_domains import NumpyIntegerDomain
    from tmlt.core.domains.pandas_domains import PandasSeriesDomain
    from tmlt.core.measurements.pandas_measurements.series import NoisyQuantile
    from tmlt.core.measures import PureDP, RhoZCDP
    return NoisyQuantile(PandasSeriesDomain(NumpyIntegerDomain()), RhoZCDP() if zcdp else PureDP(), q, 0, 100,
                         F(eps))


def noisy_quantile(eps, d_in, zcdp=0):
    """``NoisyQuantile(.., PureDP() or RhoZCDP(), quantile 0.5, epsilon=eps).privacy_function(d_in)``."""
    return _up(_quantile(eps, zcdp).privacy_function(int(d_in)))


def _aggregate_by_column(eps1, eps2, zcdp):
    from tmlt.core.domains.numpy_domains import NumpyIntegerDomain
    from tmlt.core.domains.pandas_domains import PandasDataFrameDomain, PandasSeriesDomain
    from tmlt.core.measurements.pandas_measurements.dataframe import AggregateByColumn
    dom = PandasDataFrameDomain({"x": PandasSeriesDomain(NumpyIntegerDomain()),
                                 "y": PandasSeriesDomain(NumpyIntegerDomain())})
    return AggregateByColumn(dom, {"x": _quantile(eps1, zcdp, 0.5), "y": _quantile(eps2, zcdp, 0.9)})


def aggregate_by_column(eps1, eps2, d_in, relation=0):
    """``AggregateByColumn`` of two pure-DP NoisyQuantiles (eps1 on x, eps2 on y): privacy_function(d_in), or the
    smallest eps its privacy_relation(d_in, eps) accepts."""
    return _function_and_relation(_aggregate_by_column(eps1, eps2, 0), int(d_in), relation)


def apply_in_pandas(eps1, eps2, d_in):
    """``ApplyInPandas`` on a grouped Spark DataFrame domain, RootSumOfSquared(SymmetricDifference()), of an
    AggregateByColumn of two zCDP NoisyQuantiles: privacy_function(d_in) (no Spark session)."""
    from tmlt.core.domains.spark_domains import (SparkGroupedDataFrameDomain, SparkIntegerColumnDescriptor,
                                                 SparkStringColumnDescriptor)
    from tmlt.core.measurements.spark_measurements import ApplyInPandas
    from tmlt.core.metrics import RootSumOfSquared, SymmetricDifference
    dom = SparkGroupedDataFrameDomain({"g": SparkStringColumnDescriptor(), "x": SparkIntegerColumnDescriptor(),
                                       "y": SparkIntegerColumnDescriptor()}, ["g"])
    m = ApplyInPandas(dom, RootSumOfSquared(SymmetricDifference()), _aggregate_by_column(eps1, eps2, 1))
    return _up(m.privacy_function(int(d_in)))


def _partition_selection(scale, threshold):
    from tmlt.core.domains.spark_domains import SparkDataFrameDomain, SparkStringColumnDescriptor
    from tmlt.core.measurements.spark_measurements import GeometricPartitionSelection
    return GeometricPartitionSelection(SparkDataFrameDomain({"a": SparkStringColumnDescriptor()}),
                                       threshold=int(threshold), alpha=F(scale))


def partition_selection_eps(scale, threshold):
    """The epsilon of ``GeometricPartitionSelection(alpha=scale, threshold).privacy_function(1)``."""
    return _up(_partition_selection(scale, threshold).privacy_function(1)[0])


def partition_selection_delta(scale, threshold):
    """The delta of ``GeometricPartitionSelection(alpha=scale, threshold).privacy_function(1)``."""
    return _up(_partition_selection(scale, threshold).privacy_function(1)[1])


def approx_budget_remaining(total_epsilon, total_delta, eps, delta, which):
    """``ApproxDPBudget((total_epsilon, total_delta)).subtract((eps, delta))``: its epsilon (which 0) or delta
    (which 1), rounded down (a budget left is a lower claim)."""
    from tmlt.core.measures import ApproxDPBudget
    left = ApproxDPBudget((F(total_epsilon), F(total_delta))).subtract((F(eps), F(delta)))
    return _down(left.epsilon if int(which) == 0 else left.delta)


def approx_budget_largest_eps(total_epsilon, total_delta, delta):
    """The largest eps ``ApproxDPBudget((total_epsilon, total_delta)).assert_can_spend_budget((eps, delta))``
    accepts (it raises InsufficientBudgetError to refuse)."""
    from tmlt.core.measures import ApproxDPBudget, InsufficientBudgetError
    b = ApproxDPBudget((F(total_epsilon), F(total_delta)))

    def ok(x):
        try:
            b.assert_can_spend_budget((F(x), F(delta)))
            return True
        except InsufficientBudgetError:
            return False
    return _largest_accepted(ok, 2 * float(total_epsilon) + 1)


def accountant_budget(total_epsilon, eps, n):
    """``PrivacyAccountant.privacy_budget`` after n measurements of Laplace noise of scale 1/eps (each eps-DP at
    d_in 1), the accountant launched on a pure-DP SequentialComposition with budget total_epsilon."""
    from tmlt.core.domains.numpy_domains import NumpyFloatDomain
    from tmlt.core.measurements.interactive_measurements import PrivacyAccountant, SequentialComposition
    from tmlt.core.measures import PureDP
    from tmlt.core.metrics import AbsoluteDifference
    domain = NumpyFloatDomain()
    seq = SequentialComposition(domain, AbsoluteDifference(), PureDP(), 1, F(total_epsilon))
    acc = PrivacyAccountant.launch(seq, domain.carrier_type(0.0))
    for _ in range(int(n)):
        acc.measure(_laplace(1 / F(eps)))
    return _down(acc.privacy_budget)


def noise_scale(d_in, level, zcdp=0):
    """``calculate_noise_scale(d_in, level, PureDP() or RhoZCDP())`` (a noise scale: an upper claim, rounded up)."""
    from tmlt.core.measures import PureDP, RhoZCDP
    from tmlt.core.utils.parameters import calculate_noise_scale
    return _up(calculate_noise_scale(F(d_in), F(level), RhoZCDP() if zcdp else PureDP()))


# one function per declaration (a call receives exactly the declared inputs)
def post_process_relation(scale, d_in):
    return post_process(scale, d_in, 1)


def non_interactive_post_process_relation(scale, d_in):
    return non_interactive_post_process(scale, d_in, 1)


def derived_relation(scale, d_in):
    return derived(scale, d_in, 1)


def chain_count_geometric_relation(scale, d_in):
    return chain_count_geometric(scale, d_in, 1)


def add_noise_to_series_gaussian(scale, d_in):
    return add_noise_to_series(scale, d_in, 1)


def noisy_quantile_zcdp(eps, d_in):
    return noisy_quantile(eps, d_in, 1)


def aggregate_by_column_relation(eps1, eps2, d_in):
    return aggregate_by_column(eps1, eps2, d_in, 1)


def approx_budget_remaining_eps(total_epsilon, total_delta, eps, delta):
    return approx_budget_remaining(total_epsilon, total_delta, eps, delta, 0)


def approx_budget_remaining_delta(total_epsilon, total_delta, eps, delta):
    return approx_budget_remaining(total_epsilon, total_delta, eps, delta, 1)


def noise_scale_zcdp(d_in, rho):
    return noise_scale(d_in, rho, 1)


def noise_scale_pure(d_in, eps):
    return noise_scale(d_in, eps, 0)
