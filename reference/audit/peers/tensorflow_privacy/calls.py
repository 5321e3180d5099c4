"""TensorFlow Privacy calls, without TensorFlow (imports only tensorflow_privacy's analysis modules and the
stdlib).  ``tensorflow_privacy/__init__`` imports TensorFlow; the analysis modules used here import only absl,
numpy, scipy and dp_accounting, so they are loaded as files from the installed package.  Install:
``pip install --no-deps tensorflow-privacy==0.9.0 dp-accounting==0.6.0 numpy scipy absl-py attrs mpmath dm-tree``
(tensorflow-privacy pins dp-accounting==0.4.3 and numpy~=1.21, which clash with Python 3.11 wheels; --no-deps)."""

import importlib.util
import os
import sys

_mods: dict = {}


def _analysis(name: str):
    if name not in _mods:
        spec = importlib.util.find_spec("tensorflow_privacy")
        base = os.path.join(list(spec.submodule_search_locations)[0], "privacy", "analysis")
        s = importlib.util.spec_from_file_location(f"_tfp_analysis_{name}", os.path.join(base, name + ".py"))
        mod = importlib.util.module_from_spec(s)
        sys.modules[s.name] = mod
        s.loader.exec_module(mod)
        _mods[name] = mod
    return _mods[name]


class DomainLimit(ValueError):
    """An input this wrapper cannot express through the peer's API (a declared domain limit, not a peer error)."""


def _ratio(q: float) -> tuple[int, int]:
    """(n, batch_size) with batch_size / n == q in float64, as the peer computes its sampling ratio: the simplest
    fraction that rounds to q (q = 2**-13 is 1 / 8192)."""
    from fractions import Fraction
    if not 0 < q <= 1:
        raise DomainLimit(f"q = {q} is not in (0, 1]")
    for lim in (10**6, 10**9, 2**53):
        f = Fraction(q).limit_denominator(lim)
        if f.numerator > 0 and f.numerator / f.denominator == q:
            return f.denominator, f.numerator
    raise DomainLimit(f"q = {q} is no ratio batch_size / n with n <= 2**53")


def _nb(q: float, k: int):
    """(n, batch_size, epochs) with batch_size / n == q and ceil(epochs * n / batch_size) == k steps."""
    import math
    n, b = _ratio(q)
    k = int(k)
    e = k * b / n
    for _ in range(8):  # the peer's steps = ceil(epochs * n / batch_size): nudge epochs by ulps until it is k
        s = math.ceil(e * n / b)
        if s == k:
            return n, b, e
        e = math.nextafter(e, -math.inf if s > k else math.inf)
    raise DomainLimit(f"no float epochs gives exactly {k} steps at n = {n}, batch_size = {b}")


def dp_sgd_epsilon(q: float, sigma: float, k: int, delta: float) -> float:
    """``compute_dp_sgd_privacy(n, batch_size, sigma, epochs, delta)[0]`` at q = batch_size/n, k steps."""
    n, b, e = _nb(q, k)
    return compute_dp_sgd_privacy(n, b, sigma, e, delta)


def gdp_epsilon(q: float, sigma: float, k: int, delta: float) -> float:
    """``gdp_accountant.compute_eps_poisson`` at q = batch_size/n, k steps."""
    n, b, e = _nb(q, k)
    return gdp_eps_poisson(n, b, sigma, e, delta)


def compute_dp_sgd_privacy(n: int, batch_size: int, sigma: float, epochs: float, delta: float) -> float:
    """``compute_dp_sgd_privacy_lib.compute_dp_sgd_privacy(n, batch_size, noise_multiplier, epochs, delta)[0]``
    (Poisson sampling, q = batch_size/n, RDP accountant)."""
    return float(_analysis("compute_dp_sgd_privacy_lib").compute_dp_sgd_privacy(
        int(n), int(batch_size), sigma, epochs, delta)[0])


def gdp_eps_poisson(n: int, batch_size: int, sigma: float, epochs: float, delta: float) -> float:
    """``gdp_accountant.compute_eps_poisson(epoch, noise_multi, n, batch_size, delta)`` (the CLT of Bu et al.)."""
    return float(_analysis("gdp_accountant").compute_eps_poisson(epochs, sigma, int(n), int(batch_size), delta))


def gdp_mu_poisson(n: int, batch_size: int, sigma: float, epochs: float) -> float:
    return float(_analysis("gdp_accountant").compute_mu_poisson(epochs, sigma, int(n), int(batch_size)))


def tree_restart_rdp(q: float, sigma: float, alpha: float, steps: int = 1) -> float:
    """``tree_aggregation_accountant.compute_rdp_tree_restart(noise_multiplier, [steps], alpha)``; with one step per
    restart the tree is one leaf, the Gaussian mechanism (so q must be 1: no sampling)."""
    if float(q) != 1.0:
        raise ValueError("tree aggregation has no sampling: q must be 1")
    return float(_analysis("tree_aggregation_accountant").compute_rdp_tree_restart(sigma, [int(steps)], alpha))


def noise_for_epsilon(n: int, batch_size: int, eps: float, epochs: float, delta: float) -> float:
    """``compute_noise_from_budget_lib.compute_noise(n, batch_size, target_epsilon, epochs, delta, noise_lbd)``."""
    return float(_analysis("compute_noise_from_budget_lib").compute_noise(
        int(n), int(batch_size), eps, epochs, delta, 1e-6))


def compute_noise_sigma(eps_g: float, delta: float, q: float, k: int) -> float:
    """``compute_noise_from_budget_lib.compute_noise(n, batch_size, eps_g, epochs, delta, noise_lbd=0.1)`` at
    q = batch_size/n and k steps: the noise multiplier it calibrates (its progress lines are swallowed)."""
    import contextlib
    import io
    n, b, e = _nb(q, k)
    with contextlib.redirect_stdout(io.StringIO()):
        return float(_analysis("compute_noise_from_budget_lib").compute_noise(n, b, eps_g, e, delta, 0.1))


def _gdp():
    return _analysis("gdp_accountant")


def gdp_mu_uniform(n: int, batch_size: int, epochs: float, sigma: float) -> float:
    """``gdp_accountant.compute_mu_uniform(epochs, sigma, n, batch_size)``."""
    return float(_gdp().compute_mu_uniform(epochs, sigma, int(n), int(batch_size)))


def gdp_eps_uniform(n: int, batch_size: int, epochs: float, sigma: float, delta: float) -> float:
    """``gdp_accountant.compute_eps_uniform(epochs, sigma, n, batch_size, delta)``."""
    return float(_gdp().compute_eps_uniform(epochs, sigma, int(n), int(batch_size), delta))


def gdp_delta_eps_mu(mu: float, eps_g: float) -> float:
    """``gdp_accountant.delta_eps_mu(eps_g, mu)``."""
    return float(_gdp().delta_eps_mu(eps_g, mu))


def gdp_eps_from_mu(mu: float, delta: float) -> float:
    """``gdp_accountant.eps_from_mu(mu, delta)``."""
    return float(_gdp().eps_from_mu(mu, delta))


def tree_single_rdp(q: float, sigma: float, alpha: float) -> float:
    """``compute_rdp_single_tree(sigma, total_steps=1, max_participation=1, min_separation=0, orders=alpha)``: a
    tree of one leaf (q must be 1)."""
    if float(q) != 1.0:
        raise DomainLimit("q must be 1 (a single tree has no sampling)")
    return float(_analysis("tree_aggregation_accountant").compute_rdp_single_tree(sigma, 1, 1, 0, alpha))


def tree_single_zcdp(sigma: float) -> float:
    """``compute_zcdp_single_tree(sigma, total_steps=1, max_participation=1, min_separation=0)``."""
    return float(_analysis("tree_aggregation_accountant").compute_zcdp_single_tree(sigma, 1, 1, 0))


def _function_from_source(rel: str, name: str, namespace: dict):
    """One top-level function of a tensorflow_privacy module whose import needs TensorFlow (which the function
    itself does not use): its source compiled alone and bound to ``namespace`` as its globals (the function object
    is built from its code object, so nothing is exec'd; its defaults must be literals)."""
    import ast
    import types
    spec = importlib.util.find_spec("tensorflow_privacy")
    path = os.path.join(list(spec.submodule_search_locations)[0], *rel.split("/"))
    with open(path, encoding="utf-8") as fh:
        tree = ast.parse(fh.read(), filename=path)
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    module_code = compile(ast.Module(body=[node], type_ignores=[]), path, "exec")
    code = next(c for c in module_code.co_consts if isinstance(c, types.CodeType) and c.co_name == name)
    fn = types.FunctionType(code, namespace, name, tuple(ast.literal_eval(d) for d in node.args.defaults) or None)
    kw = {a.arg: ast.literal_eval(d) for a, d in zip(node.args.kwonlyargs, node.args.kw_defaults) if d is not None}
    if kw:
        fn.__kwdefaults__ = kw
    namespace[name] = fn
    return fn


def dpsgd_noise_multiplier(eps_g: float, delta: float, q: float, k: int) -> float:
    """``logistic_regression.multinomial_logistic.compute_dpsgd_noise_multiplier(n, eps_g, delta, epochs,
    batch_size)`` with batch_size / n = q and ceil(epochs n / batch_size) = k steps (the function's source, loaded
    without the module's TensorFlow imports)."""
    import math
    from typing import Optional

    dp_accounting = _analysis("compute_noise_from_budget_lib").dp_accounting  # as TF Privacy's own modules import it
    if "dpsgd_noise" not in _mods:
        _mods["dpsgd_noise"] = _function_from_source(
            "privacy/logistic_regression/multinomial_logistic.py", "compute_dpsgd_noise_multiplier",
            {"math": math, "dp_accounting": dp_accounting, "Optional": Optional})
    n, b, e = _nb(q, k)
    return float(_mods["dpsgd_noise"](n, eps_g, delta, e, b))
