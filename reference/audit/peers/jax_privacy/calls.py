"""jax_privacy accounting calls (imports only jax_privacy and the stdlib).  DP-SGD with Poisson sampling at
q = batch_size/num_samples, with (num_samples, batch_size) the simplest fraction whose float64 quotient is q."""


def _accounting():
    """``jax_privacy.accounting``, imported on first use (it imports jax: seconds), so that a call that needs only
    numpy and scipy (the Monte Carlo estimator) answers without it."""
    from jax_privacy import accounting
    return accounting


class DomainLimit(ValueError):
    """An input this wrapper cannot express through the peer's API (a declared domain limit, not a peer error)."""


def _ratio(q: float) -> tuple[int, int]:
    """(num_samples, batch_size) with batch_size / float(num_samples) == q, as jax_privacy computes its sampling
    probability: the simplest fraction that rounds to q (q = 2**-13 is 1 / 8192)."""
    from fractions import Fraction
    if not 0 < q <= 1:
        raise DomainLimit(f"q = {q} is not in (0, 1]")
    for lim in (10**6, 10**9, 2**53):
        f = Fraction(q).limit_denominator(lim)
        if f.numerator > 0 and f.numerator / float(f.denominator) == q:
            return f.denominator, f.numerator
    raise DomainLimit(f"q = {q} is no ratio batch_size / num_samples with num_samples <= 2**53")


def _params(q: float, sigma: float, delta: float):
    n, b = _ratio(q)
    return _accounting().DpParams(noise_multipliers=sigma, num_samples=n, delta=delta, batch_size=b)


def rdp_epsilon(q: float, sigma: float, k: int, delta: float) -> float:
    """``DpsgdTrainingAccountant(RdpAccountantConfig()).compute_epsilon(k, DpParams(...))``."""
    acc = _accounting().DpsgdTrainingAccountant(_accounting().RdpAccountantConfig())
    return float(acc.compute_epsilon(int(k), _params(q, sigma, delta)))


def pld_epsilon_fresh(q: float, sigma: float, k: int, delta: float) -> float:
    """``DpsgdTrainingAccountant(PldAccountantConfig()).compute_epsilon(k, DpParams(...))``."""
    acc = _accounting().DpsgdTrainingAccountant(_accounting().PldAccountantConfig())
    return float(acc.compute_epsilon(int(k), _params(q, sigma, delta)))


#: the dp_accounting PLDAccountants composed by pld_epsilon, by (relation, discretization, event, count): the last few
_KEPT: dict = {}
_KEEP = 4


def _kept_config():
    """A ``PldAccountantConfig`` (its defaults) whose ``create_accountant()`` is dp_accounting's ``PLDAccountant``
    with the same arguments, except that ``compose(event, count)`` on a fresh accountant takes the composition a
    fresh accountant made before for the same arguments (dp_accounting's compose is deterministic; get_epsilon only
    reads it): jax_privacy's own ``compute_epsilon`` code runs on every call, its one compose of a (q, sigma, k)
    happens once."""
    from jax_privacy.accounting import accountants
    dp_accounting = accountants.dp_accounting  # (the dp_accounting jax_privacy itself imports)
    acc_mod = _accounting()

    class KeptPLDAccountant(dp_accounting.pld.PLDAccountant):
        def __init__(self, *a, **kw):
            super().__init__(*a, **kw)
            self._args = repr((a, sorted(kw.items())))
            self._fresh = True

        def compose(self, event, count=1):
            if not self._fresh:
                return super().compose(event, count)
            self._fresh = False
            key = (self._args, repr(event), int(count))
            done = _KEPT.get(key)
            if done is None:
                super().compose(event, count)
                while len(_KEPT) >= _KEEP:
                    _KEPT.pop(next(iter(_KEPT)))
                _KEPT[key] = done = dict(self.__dict__)
            self.__dict__.update(done)
            return self

    class KeptConfig(acc_mod.PldAccountantConfig):
        def create_accountant(self):
            return KeptPLDAccountant(neighboring_relation=dp_accounting.NeighboringRelation.ADD_OR_REMOVE_ONE,
                                     value_discretization_interval=self.value_discretization_interval)
    return KeptConfig()


def pld_epsilon(q: float, sigma: float, k: int, delta: float) -> float:
    """``DpsgdTrainingAccountant(PldAccountantConfig()).compute_epsilon(k, DpParams(...))``, its composition kept
    per (q, sigma, k) (:func:`_kept_config`; equal to :func:`pld_epsilon_fresh`)."""
    acc = _accounting().DpsgdTrainingAccountant(_kept_config())
    return float(acc.compute_epsilon(int(k), _params(q, sigma, delta)))


def calibrate_noise(q: float, k: int, eps: float, delta: float) -> float:
    """``calibrate_noise_multiplier(target_epsilon, accountant=RDP, batch_sizes, num_updates, num_samples,
    target_delta)``: the sigma jax_privacy calibrates."""
    n, b = _ratio(q)
    return float(_accounting().calibrate_noise_multiplier(
        target_epsilon=eps, accountant=_accounting().DpsgdTrainingAccountant(_accounting().RdpAccountantConfig()), batch_sizes=b,
        num_updates=int(k), num_samples=n, target_delta=delta))


def calibrate_sigma(eps_g: float, delta: float, q: float, k: int, pld: bool = False) -> float:
    """``calibrate_noise_multiplier`` with the RDP (or PLD) training accountant, in calibrate_sgm's argument order."""
    n, b = _ratio(q)
    cfg = _accounting().PldAccountantConfig() if pld else _accounting().RdpAccountantConfig()
    return float(_accounting().calibrate_noise_multiplier(
        target_epsilon=eps_g, accountant=_accounting().DpsgdTrainingAccountant(cfg), batch_sizes=b, num_updates=int(k),
        num_samples=n, target_delta=delta))


def calibrate_sigma_pld(eps_g: float, delta: float, q: float, k: int) -> float:
    return calibrate_sigma(eps_g, delta, q, k, pld=True)


def cached_rdp_epsilon(q: float, sigma: float, k: int, delta: float) -> float:
    """``CachedExperimentAccountant(DpsgdTrainingAccountant(RdpAccountantConfig()), max_num_updates=k,
    num_cached_points=10).compute_epsilon(k, DpParams(...))``: the cache's (documented over-estimated) epsilon."""
    from jax_privacy.accounting import analysis
    acc = analysis.CachedExperimentAccountant(_accounting().DpsgdTrainingAccountant(_accounting().RdpAccountantConfig()),
                                              max_num_updates=int(k), num_cached_points=10)
    return float(acc.compute_epsilon(int(k), _params(q, sigma, delta)))


# ---------------------------------------------------------------------------------------------------- Monte Carlo
# verification


def mc_delta_rr(eps: float, eps_g: float) -> float:
    """``delta_from_epsilon_and_samples(eps_g, [eps, -eps], counts=[e^eps, 1])``: randomized response's exact
    privacy-loss distribution given as weighted samples."""
    import math
    return float(_delta_calculation().delta_from_epsilon_and_samples(eps_g, [eps, -eps],
                                                                     counts=[math.exp(eps), 1.0]))


def _delta_calculation():
    """``jax_privacy.experimental.monte_carlo.delta_calculation`` loaded from its file: it imports only numpy and
    scipy, while importing it as a submodule first imports the jax_privacy package (jax, seconds)."""
    import importlib.util
    import sys
    name = "jax_privacy.experimental.monte_carlo.delta_calculation"
    if name not in sys.modules:
        root = importlib.util.find_spec("jax_privacy")
        path = root.submodule_search_locations[0] + "/experimental/monte_carlo/delta_calculation.py"
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        sys.modules[name] = mod
    return sys.modules[name]
