"""fourier-accountant 0.12.11 (Koskela, Jalko, Honkela 2020): epsilon and delta of the Poisson-subsampled
Gaussian by FFT of the PLD, remove/add (``_R``) and substitute (``_S``) relations, the library's defaults
nx = 1e6, L = 20.  q = 1 raises OverflowError (log(1 - q)), so the domain stops at q = 0.99."""

from dpbounds.testing.declarations import Peer
from .._common import DISCRETIZED, K1_EPS_EXAMPLES, decl, sgm_domain

PEER = Peer(
    "fourier_accountant",
    dist="fourier-accountant",
    module="fourier_accountant",
    install="not installed; its own venv (docs/peers.md): python3.11 -m venv $DPBOUNDS_PEERS/fourier_accountant && /w"
        "ork/peers/fourier_accountant/bin/pip install fourier-accountant==0.12.11 ; then --python fourier_acc"
        "ountant=$DPBOUNDS_PEERS/fourier_accountant/bin/python",
)


def declarations():
    return [
        decl(PEER.name, "fourier_accountant.get_epsilon_R", __name__ + ".calls:epsilon_R", "composition.sgm.eps",
             sgm_domain("delta", **DISCRETIZED),
             examples=({"q": 0.01, "sigma": 1.0, "k": 1, "delta": 1e-5}, {"q": 0.1, "sigma": 1.0, "k": 1,
                                                                           "delta": 1e-5},
                       {"q": 0.01, "sigma": 0.8, "k": 1, "delta": 1e-6},
                       *K1_EPS_EXAMPLES),
             cites="Koskela, Jalko, Honkela 2020, arXiv:1906.03049v3, Thm 6 (error bound)", against="truth", rate=2),
        decl(PEER.name, "fourier_accountant.get_delta_R", __name__ + ".calls:delta_R", "composition.sgm.delta",
             sgm_domain("eps_g", **DISCRETIZED),
             examples=({"q": 0.01, "sigma": 1.0, "k": 1, "eps_g": 0.5}, {"q": 0.1, "sigma": 1.0, "k": 1,
                                                                          "eps_g": 1.0},
                       {"q": 0.5, "sigma": 1.5, "k": 1, "eps_g": 1.0},
                       {"q": 0.2, "sigma": 0.8, "k": 1, "eps_g": 2.0}),
             cites="Koskela, Jalko, Honkela 2020, arXiv:1906.03049v3, Thm 6", against="truth", rate=2),
    ] + more_declarations() + var_declarations() + em_declarations()


def substitution_delta(q, sigma, k, eps_g):
    """Certified delta(eps_g) of k Poisson-subsampled Gaussian steps under substitution (composition.sgm.delta,
    relation substitution: dpbounds' dominating pair, proofs_check composition.sgm.substitution_poisson)."""
    from fractions import Fraction

    from dpbounds.evaluation.evaluate import enclose
    return enclose("composition.sgm.delta", {"q": Fraction(q), "sigma": Fraction(sigma), "k": int(k),
                                             "eps_g": Fraction(eps_g), "relation": "substitution",
                                             "sampling": "poisson"}, rel_tol=1e-6)


def more_declarations():
    """The substitute relation (``_S``)."""
    from dpbounds.audit.peers import _sgm_calibration as C
    m = __name__ + ".calls:"
    sub_dom = {**C.SUB_DOMAIN, "q": (0.01, 0.99)}
    sub_ex = tuple(e for e in C.SUB_EXAMPLES if e["q"] < 1)
    sub_dex = ({"q": 0.1, "sigma": 1.0, "k": 1, "eps_g": 1.0}, {"q": 0.5, "sigma": 2.0, "k": 2, "eps_g": 0.5})
    sub_ddom = {**{k: v for k, v in sub_dom.items() if k != "delta"}, "eps_g": (0.0, 5.0)}
    kjh = "Koskela, Jalko, Honkela 2020, arXiv:1906.03049v3, Thm 6"
    return [
        decl(PEER.name, "fourier_accountant.get_epsilon_S", m + "epsilon_S", C.substitution_eps, sub_dom,
             examples=sub_ex, cites=kjh + "; " + C.CITES_SUB, against="truth"),
        decl(PEER.name, "fourier_accountant.get_delta_S", m + "delta_S", substitution_delta, sub_ddom,
             examples=sub_dex, cites=kjh + "; " + C.CITES_SUB, against="truth"),
    ]


def em_counting_delta(eps_em, k, eps_g, m, n):
    """The exact delta(eps_g) of k compositions of the experimental module's exponential mechanism pair: P1 =
    (e^{eps m}, e^{eps (n - m)}) and P2 = (e^{eps (m - 1)}, e^{eps (n - m)}), each normalised (a counting query
    over m of n elements whose count drops by one), in the direction the module integrates (the privacy loss
    log(P1/P2) under P1): H_{e^eps_g}(P1^k || P2^k) = sum_j C(k, j) max(0, a^j b^(k-j) - e^eps_g c^j d^(k-j)) with
    P1 = (a, b), P2 = (c, d) -- the hockey-stick divergence of two binomial laws, summed exactly in arb (a term
    whose sign the ball cannot tell adds [0, its upper end])."""
    from fractions import Fraction
    from math import comb

    from flint import arb

    from dpbounds.audit.peers._refs import _enclosure
    from dpbounds.evaluation.enclosure import CertificationError
    from dpbounds.evaluation.numeric import arb_endpoints, arb_prec, fraction_to_arb
    kk, mm, nn = int(k), int(m), int(n)
    with arb_prec(320):
        e = fraction_to_arb(Fraction(eps_em))
        z1 = (e * mm).exp() + (e * (nn - mm)).exp()
        z2 = (e * (mm - 1)).exp() + (e * (nn - mm)).exp()
        la, lb = e * mm - z1.log(), e * (nn - mm) - z1.log()
        lc, ld = e * (mm - 1) - z2.log(), e * (nn - mm) - z2.log()
        g = fraction_to_arb(Fraction(eps_g))
        total, extra = arb(0), Fraction(0)
        for j in range(kk + 1):
            c = arb(comb(kk, j))
            t = c * ((la * j + lb * (kk - j)).exp() - (g + lc * j + ld * (kk - j)).exp())
            if t > 0:
                total += t
            elif not t < 0:
                ends = arb_endpoints(t)
                if ends is None:
                    raise CertificationError("em_counting_delta: a term's ball is not finite")
                extra += max(ends[1], Fraction(0))
        ends = arb_endpoints(total)
    if ends is None:
        raise CertificationError("em_counting_delta: the sum's ball is not finite")
    return _enclosure(max(ends[0], Fraction(0)), min(ends[1] + extra, Fraction(1)))


def var_declarations():
    """The deprecated heterogeneous API (``compute_eps_var`` / ``compute_delta_var``: sigma_t, q_t, k arrays) with one
    phase, against the same references as its replacements.  Under numpy >= 2 each raises AttributeError before
    computing (its first line warns with np.VisibleDeprecationWarning, which numpy 2 removed): an error row."""
    from dpbounds.audit.peers import _sgm_calibration as C
    m = __name__ + ".calls:"
    kjh = "Koskela, Jalko, Honkela 2020, arXiv:1906.03049v3, Thm 6"
    r_eps = {"q": (1e-4, 0.99), "sigma": (0.5, 50.0), "k": (1, 1000), "delta": (1e-12, 0.1)}
    r_delta = {"q": (1e-4, 0.99), "sigma": (0.5, 50.0), "k": (1, 1000), "eps_g": (0.0, 10.0)}
    s_eps = {**C.SUB_DOMAIN, "q": (0.01, 0.99)}
    s_delta = {**{k: v for k, v in s_eps.items() if k != "delta"}, "eps_g": (0.0, 5.0)}
    e_ex = ({"q": 0.1, "sigma": 1.0, "k": 1, "delta": 1e-5},)
    d_ex = ({"q": 0.1, "sigma": 1.0, "k": 1, "eps_g": 1.0},)
    return [
        decl(PEER.name, "fourier_accountant.compute_eps_var.get_epsilon_R (one phase)", m + "epsilon_R_var",
             "composition.sgm.eps", r_eps, examples=e_ex, cites=kjh, against="truth"),
        decl(PEER.name, "fourier_accountant.compute_delta_var.get_delta_R (one phase)", m + "delta_R_var",
             "composition.sgm.delta", r_delta, examples=d_ex, cites=kjh, against="truth"),
        decl(PEER.name, "fourier_accountant.compute_eps_var.get_epsilon_S (one phase)", m + "epsilon_S_var",
             C.substitution_eps, s_eps, examples=e_ex, cites=kjh + "; " + C.CITES_SUB, against="truth"),
        decl(PEER.name, "fourier_accountant.compute_delta_var.get_delta_S (one phase)", m + "delta_S_var",
             substitution_delta, s_delta, examples=d_ex, cites=kjh + "; " + C.CITES_SUB, against="truth"),
    ]


def em_declarations():
    """experimental.exponential_mechanism's get_delta_upper / get_delta_lower (defaults nx = 1e6, L = 20) against
    the exact hockey-stick divergence of its own pair (em_counting_delta)."""
    m = __name__ + ".calls:"
    dom = {"eps_em": (0.01, 1.0), "k": (1, 1000), "eps_g": (0.0, 10.0), "m": [10, 50, 90], "n": [100]}
    ex = ({"eps_em": 0.1, "k": 500, "eps_g": 1.0, "m": 50, "n": 100},
          {"eps_em": 0.5, "k": 10, "eps_g": 0.5, "m": 10, "n": 100},
          {"eps_em": 0.2, "k": 100, "eps_g": 2.0, "m": 50, "n": 100},
          # found by the search: the FFT's floor of about 1e-15 against an exact delta of 1.7e-15 (upper) and 0
          # (lower); and the error term of Thm 10 overflowing at k = 1000 (delta 6e123 upper, -6e123 lower)
          {"eps_em": 0.5, "k": 1000, "eps_g": 0.0, "m": 10, "n": 100},
          {"eps_em": 0.01, "k": 1, "eps_g": 10.0, "m": 10, "n": 100},
          {"eps_em": 0.2, "k": 1000, "eps_g": 2.0, "m": 50, "n": 100})
    cites = ("Koskela, Jalko, Prediger, Honkela 2021, 'Tight differential privacy for discrete-valued mechanisms and "
             "for the subsampled Gaussian mechanism using FFT', AISTATS (arXiv:2006.07134), Thm 10 (error bound)")
    f = "fourier_accountant.experimental.exponential_mechanism."
    return [
        decl(PEER.name, f + "get_delta_upper", m + "em_delta_upper", em_counting_delta, dom, examples=ex,
             cites=cites, against="truth"),
        decl(PEER.name, f + "get_delta_lower", m + "em_delta_lower", em_counting_delta, dom, claim="lower",
             examples=ex, cites=cites, against="truth"),
    ]
