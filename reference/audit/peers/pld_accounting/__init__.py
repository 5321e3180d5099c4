"""pld-accounting 2.0 (``PLD_accounting``): Gaussian random allocation's epsilon upper bound.  At num_steps =
num_selected = 1 the allocation is the plain Gaussian, k epochs its k-fold composition: the q = 1 closed form."""

from dpbounds.testing.declarations import Peer
from dpbounds.testing.domains import Grid
from .._common import Q1_EPS_EXAMPLES, SGM_BATCH, SGM_Q1, decl

#: the k-fold Gaussian searched mostly on a pool of (sigma, k), SGM_BATCH deltas (eps_g) per draw (the calls keep
#: the PLD built per (sigma, k): calls.py), one draw in eight over the continuous spans.  The configurable API's FFT
#: construction grows fast with k / sigma^2 (here: 0.9 s at sigma 1.2, k 20; 6.5 s at k 100; 19 s at k 200; 90 s at
#: sigma 2, k 1000): its steps at most 100 and sigma at least 1; the realization API (GEOM) takes 0.1 s at k 200.
_POOL = {"q": [1.0], "sigma": Grid([1.2, 2.0, 5.0, 20.0], SGM_Q1["sigma"], batch=SGM_BATCH),
         "k": Grid([1, 20, 1000], SGM_Q1["k"], batch=SGM_BATCH)}
_CONFIG = {"q": [1.0], "sigma": Grid([1.2, 2.0, 5.0, 20.0], (1.0, 50.0), batch=SGM_BATCH),
           "k": Grid([1, 10, 50], (1, 100), batch=SGM_BATCH)}
#: eps_g > 0: the package's delta queries validate ``require_positive_real(epsilon)`` (its documented domain)
EPS_G = (1e-9, 20.0)
Q1_EPS, Q1_DELTA = {**_POOL, "delta": SGM_Q1["delta"]}, {**_POOL, "eps_g": EPS_G}
CONFIG_EPS, CONFIG_DELTA = {**_CONFIG, "delta": SGM_Q1["delta"]}, {**_CONFIG, "eps_g": EPS_G}

PEER = Peer(
    "pld_accounting",
    dist="pld-accounting",
    module="PLD_accounting",
    install="not installed; its own venv (docs/peers.md): python3.11 -m venv $DPBOUNDS_PEERS/pld_accounting && "
        "peers/pld_accounting/bin/pip install pld-accounting==2.0 (import name PLD_accounting) ; then --pytho"
        "n pld_accounting=$DPBOUNDS_PEERS/pld_accounting/bin/python",
)


def declarations():
    return [
        decl(PEER.name, "PLD_accounting.gaussian_allocation_epsilon_range (upper)", __name__ + ".calls:epsilon_upper",
             "composition.sgm.eps", SGM_Q1,
             examples=({"q": 1.0, "sigma": 1.0, "k": 1, "delta": 1e-5}, {"q": 1.0, "sigma": 2.0, "k": 10,
                                                                          "delta": 1e-6}, *Q1_EPS_EXAMPLES[:1],
                       *Q1_EPS_EXAMPLES[3:], {"q": 1.0, "sigma": 1.5, "k": 20, "delta": 1e-7},
                       {"q": 1.0, "sigma": 3.0, "k": 200, "delta": 1e-6}, {"q": 1.0, "sigma": 0.6, "k": 3, "delta": 1e-4},
                       {"q": 1.0, "sigma": 10.0, "k": 1000, "delta": 1e-5}),
             cites="Feldman, Shenfeld 2026, arXiv:2602.17284 (ICML 2026; version not stated in the package)",
             against="truth", rate=0.2),
    ] + _configurable() + _realizations() + _subsampling()


def _configurable():
    """The configurable API (PrivacyParams + AllocationSchemeConfig) at the degenerate allocation num_steps =
    num_selected = 1 over k epochs: k-fold Gaussian, exactly sqrt(k)/sigma-GDP (DRS22 Cor. 3.3), so the q = 1
    closed form is the truth."""
    fs = "Feldman, Shenfeld 2026, arXiv:2602.17284 (degenerate allocation = k-fold Gaussian)"
    r = "PLD_accounting.random_allocation_api."
    ex = ({"q": 1.0, "sigma": 2.0, "k": 10, "delta": 1e-6}, {"q": 1.0, "sigma": 1.0, "k": 1, "delta": 1e-5})
    return [
        decl(PEER.name, r + "gaussian_allocation_epsilon_configurable (num_steps = num_selected = 1)",
             __name__ + ".calls:epsilon_configurable", "composition.sgm.eps", CONFIG_EPS, examples=ex, cites=fs,
             against="truth"),
        decl(PEER.name, r + "gaussian_allocation_pld (num_steps = num_selected = 1) [.get_epsilon_for_delta]",
             __name__ + ".calls:epsilon_from_pld", "composition.sgm.eps", CONFIG_EPS, examples=ex[:1], cites=fs,
             against="truth"),
        decl(PEER.name, r + "gaussian_allocation_delta_configurable (num_steps = num_selected = 1)",
             __name__ + ".calls:delta_configurable", "composition.sgm.delta", CONFIG_DELTA,
             examples=({"q": 1.0, "sigma": 2.0, "k": 10, "eps_g": 1.0}, {"q": 1.0, "sigma": 1.0, "k": 1, "eps_g": 0.5}),
             cites=fs, against="truth"),
    ]


def _realizations():
    """The realization-based API (general_allocation_*) fed the Gaussian's own remove and add PLD realizations, and
    the adaptive refinement over gaussian_allocation_pld, at the degenerate allocation num_steps = num_selected = 1
    over k epochs: k-fold Gaussian, exactly sqrt(k)/sigma-GDP (DRS22 Cor. 3.3), so the q = 1 closed form is the
    truth.  general_allocation_pld builds each direction with allocation_directional_pld over
    geometric_allocation_pld_base_remove / _add and joins them with compose_full_pld (surface.json: declared_by)."""
    fs = "Feldman, Shenfeld 2026, arXiv:2602.17284 (degenerate allocation = k-fold Gaussian)"
    r = "PLD_accounting.random_allocation_api."
    a = "PLD_accounting.adaptive_random_allocation.optimize_allocation_epsilon_range"
    ex = ({"q": 1.0, "sigma": 2.0, "k": 10, "delta": 1e-6}, {"q": 1.0, "sigma": 1.0, "k": 1, "delta": 1e-5})
    small = {**SGM_Q1, "k": (1, 100)}   # the adaptive refinement rebuilds the PLD pair until 1e-3 relative
    calls = __name__ + ".calls:"
    return [
        decl(PEER.name, r + "general_allocation_epsilon (Gaussian realizations, num_steps = num_selected = 1)",
             calls + "general_epsilon", "composition.sgm.eps", Q1_EPS, examples=ex, cites=fs, against="truth"),
        decl(PEER.name, r + "general_allocation_delta (Gaussian realizations, num_steps = num_selected = 1)",
             calls + "general_delta", "composition.sgm.delta", Q1_DELTA,
             examples=({"q": 1.0, "sigma": 2.0, "k": 10, "eps_g": 1.0}, {"q": 1.0, "sigma": 1.0, "k": 1, "eps_g": 0.5}),
             cites=fs, against="truth"),
        decl(PEER.name, r + "general_allocation_pld (Gaussian realizations, num_steps = num_selected = 1) "
             "[.get_epsilon_for_delta]", calls + "general_pld_epsilon", "composition.sgm.eps", Q1_EPS,
             examples=ex[:1], cites=fs, against="truth"),
        decl(PEER.name, a + " (pld_builder=gaussian_allocation_pld, num_steps = num_selected = 1) .upper_bound",
             calls + "adaptive_upper", "composition.sgm.eps", small, examples=ex, cites=fs, against="truth", rate=0.2),
        decl(PEER.name, a + " (pld_builder=gaussian_allocation_pld, num_steps = num_selected = 1) .lower_bound",
             calls + "adaptive_lower", "composition.sgm.eps", small, claim="lower", examples=ex, cites=fs,
             against="truth", rate=0.2),
    ]


def _subsampling():
    """subsample_pld on the package's own PLD of the Gaussian mechanism (mechanisms.gaussian_distribution): the Poisson-subsampled Gaussian, whose exact
    eps is composition.sgm.eps (k = 1 and a few steps: where the certified bracket is cheap).  subsample_pld runs
    subsample_pld_realization on each direction, the remove one through calc_pld_dual (surface.json: declared_by)."""
    from .._common import K1_EPS_EXAMPLES
    return [
        decl(PEER.name, "PLD_accounting.subsample_pld.subsample_pld (mechanisms.gaussian_distribution(sigma), q) "
             "[.self_compose(k).get_epsilon_for_delta]", __name__ + ".calls:subsampled_gaussian_epsilon",
             "composition.sgm.eps", {"q": Grid([0.001, 0.01, 0.05, 0.5], (1e-3, 1.0), batch=SGM_BATCH),
                                     "sigma": Grid([0.8, 2.0, 5.0], (0.5, 20.0), batch=SGM_BATCH),
                                     "k": Grid([1, 2, 3], (1, 3), batch=SGM_BATCH), "delta": (1e-10, 0.1)},
             examples=(*K1_EPS_EXAMPLES, {"q": 0.01, "sigma": 1.0, "k": 1, "delta": 1e-5}),
             cites="Feldman, Shenfeld 2026, arXiv:2602.17284, App. C, Algorithms 8-10 (PLD-dual subsampling)",
             against="truth"),
    ]
