"""confseq (Howard et al.'s own implementation): ``boundaries.poly_stitching_bound`` against ``howard.stitching``
(HRMS21 Theorem 1 with polynomial stitching, the boundary confseq implements), certified; the beta-binomial mixture
(HRMS21 Propositions 6 and 7), its log supermartingale and its boundary, against the closed form in arb
(:func:`bb_log_mixture`, :func:`bb_bound`).  PyPI has no wheel:
confseq 0.0.11 builds a C++ extension against the Boost headers (its `Peer.install`); in its own venv it runs
with ``--python confseq=PATH`` like every other peer."""

from __future__ import annotations

from typing import Any

from dpbounds.spec.papers import paper
from dpbounds.testing.declarations import Peer

from .._common import decl

PEER = Peer(
    "confseq",
    dist="confseq",
    module="confseq",
    install="not installed; PyPI has no wheel for confseq (0.0.11 is a source distribution: a C++ extension that "
        "needs the Boost C++ headers >= 1.70, pybind11, cmake and scikit-build): apt-get install "
        "libboost-dev && pip install pybind11 scikit-build cmake ninja && pip install "
        "--no-build-isolation confseq (in its own venv, then --python confseq=PATH)",
)
#: checked 2026-11-23 with pip download: PyPI has only the sdist confseq-0.0.11.tar.gz, whose
#: src/confseq/uniform_boundaries.h includes boost/math/... and whose CMakeLists.txt needs find_package(Boost 1.70)
HRMS21 = ("Howard, Ramdas, McAuliffe, Sekhon 2021, Ann. Statist. 49(2), arXiv:1810.08240, Thm 1 with polynomial "
          "stitching (the example after it)")


def stitching(V: Any, delta: Any, s: Any, eta: Any) -> Any:
    """HRMS21 Theorem 1 with polynomial stitching at m = v0 = 1 (``howard.stitching``), certified."""
    from .._refs import _TOL
    from dpbounds.evaluation.evaluate import enclose
    return enclose("howard.stitching", {"delta": delta, "v0": 1, "s": s, "eta": eta}, aggregates={"V": V},
                   rel_tol=_TOL)


stitching.ref_id = "howard.stitching"  # type: ignore[attr-defined]

#: the beta-binomial mixture's source (the proposition numbers as confseq's README gives them: "beta_binomial
#: (Propositions 6 and 7)", two-sided 6, one-sided 7; spec/howard.py explains that convention)
HRMS21_BB = (f"Howard, Ramdas, McAuliffe, Sekhon, Ann. Statist. 49(2) 2021, {paper('HRMS21').arxiv_ref()}, "
             "Propositions 6 (two-sided) and 7 (one-sided): the beta-binomial mixture for sub-Bernoulli increments "
             "with range (g, h), its tuning r from Sec. 3.5")
#: alpha_opt of every declaration below (confseq's default)
ALPHA_OPT = 0.05


def _bb_tuning(v_opt: Any, g: Any, h: Any, one_sided: bool) -> Any:
    """confseq's r for (v_opt, alpha_opt = ALPHA_OPT), exactly (arb, 256 bits): the normal mixture's optimal rho at
    (v_opt, alpha_opt) -- v_opt / (2 L + log(1 + 2 L)), L = log(1/a) with a = 2 alpha_opt one-sided, alpha_opt
    two-sided -- less g h, at least 1e-3 g h (HRMS21 Sec. 3.5; confseq's ``BetaBinomialMixture::optimal_r``)."""
    from dpbounds.evaluation.enclosure import CertificationError
    from dpbounds.evaluation.numeric import fraction_to_arb
    from .._refs import _q
    a = fraction_to_arb(_q(ALPHA_OPT)) * (2 if one_sided else 1)
    L = (1 / a).log()
    rho = fraction_to_arb(_q(v_opt)) / (2 * L + (1 + 2 * L).log())
    gh = fraction_to_arb(_q(g)) * fraction_to_arb(_q(h))
    low = gh / 1000
    if rho - gh > low:
        return rho - gh
    if rho - gh < low:
        return low
    raise CertificationError("confseq.bb: the tuning r is too close to its floor 1e-3 g h to tell which applies")


def _bb_log_m(s: Any, v: Any, v_opt: Any, g: Any, h: Any, one_sided: bool) -> Any:
    """log m(s, v) of the beta-binomial mixture as an arb ball (256 bits): with r the tuning, x = h/(g + h) one-sided
    (the mixing restricted to lambda >= 0) or 1 two-sided,
    v/(g h) log(g + h) - (v + h s)/(h (g + h)) log g - (v - g s)/(g (g + h)) log h
    + log B_x((r + v - g s)/(g (g + h)), (r + v + h s)/(h (g + h))) - log B_x(r/(g (g + h)), r/(h (g + h)))."""
    from flint import arb

    from dpbounds.evaluation.numeric import fraction_to_arb
    from .._refs import _q
    S, V, G, H = (fraction_to_arb(_q(x)) for x in (s, v, g, h))
    r = _bb_tuning(v_opt, g, h, one_sided)
    x = H / (G + H) if one_sided else arb(1)
    gg, hh = G * (G + H), H * (G + H)
    return (V / (G * H) * (G + H).log() - (V + H * S) / hh * G.log() - (V - G * S) / gg * H.log()
            + x.beta_lower((r + V - G * S) / gg, (r + V + H * S) / hh).log()
            - x.beta_lower(r / gg, r / hh).log())


def bb_log_mixture(s: Any, V: Any, v_opt: Any, g: Any, h: Any, one_sided: Any = 1) -> Any:
    """The beta-binomial mixture's log supermartingale log m(s, V) (HRMS21 Props. 6-7; :func:`_bb_log_m`), in arb at
    256 bits, with confseq's tuning r for (v_opt, ALPHA_OPT); s inside (-(r + V)/h, (r + V)/g)."""
    from dpbounds.evaluation.numeric import arb_prec
    from .._refs import _arb_enclosure
    with arb_prec(256):
        return _arb_enclosure(_bb_log_m(s, V, v_opt, g, h, bool(int(one_sided))), "confseq.bb_log_mixture")


def bb_bound(V: Any, delta: Any, v_opt: Any, g: Any, h: Any, one_sided: Any = 1) -> Any:
    """The beta-binomial mixture boundary at intrinsic time V with crossing probability delta: the least s >= 0 with
    log m(s, V) = log(1/delta) (log m is convex in s -- a log of a mixture of exponentials in s -- and log m(0, V) <= 0,
    since psi_B >= 0: its sublevel set in s >= 0 is one interval), capped at V/g, the largest value S_t can take
    (increments <= h, V_t = g h t); certified (``_refs._sup_below`` on :func:`_bb_log_m`)."""
    from fractions import Fraction

    from dpbounds.evaluation.enclosure import CertificationError
    from dpbounds.evaluation.numeric import arb_prec, fraction_to_arb
    from .._refs import _enclosure, _q, _sup_below
    one = bool(int(one_sided))
    cap = _q(V) / _q(g)
    with arb_prec(256):
        T = fraction_to_arb(1 / _q(delta)).log()
        top = _bb_log_m(cap, V, v_opt, g, h, one)
        if top < T:
            return _enclosure(cap, cap)
        if not top > T:
            raise CertificationError("confseq.bb_bound: log m at the cap V/g is too close to log(1/delta) to tell")
        return _sup_below(lambda s: _bb_log_m(s, V, v_opt, g, h, one) - T, Fraction(0), Fraction(0), cap,
                          "confseq.bb_bound", rel=Fraction(1, 10 ** 30))


bb_log_mixture.ref_id = "confseq.bb_log_mixture (HRMS21 Props. 6-7 in closed form)"  # type: ignore[attr-defined]
bb_log_mixture.cost_class = "opaque"  # type: ignore[attr-defined]  (incomplete beta functions in arb)
bb_bound.ref_id = "confseq.bb_bound (HRMS21 Props. 6-7: log m(s, V) = log(1/delta))"  # type: ignore[attr-defined]
bb_bound.cost_class = "opaque"  # type: ignore[attr-defined]  (a certified root of incomplete beta functions)


def declarations():
    grid = tuple({"V": v, "delta": a, "s": s, "eta": e} for v in (1.0, 10.0, 1000.0, 1e6) for a in (0.05, 1e-6)
                 for s, e in ((1.4, 2.0), (2.0, 3.0)))
    return [decl(PEER.name, "confseq.boundaries.poly_stitching_bound", __name__ + ".calls:poly_stitching_bound", stitching,
                 {"V": (1.0, 1e12), "delta": (1e-12, 0.5), "s": (1.05, 4.0), "eta": (1.1, 10.0)}, examples=grid,
                 cites=HRMS21, against="cited", check="polynomial stitching boundary u(V)")] + bb_declarations()


def bb_declarations():
    """The beta-binomial mixture boundary and log supermartingale, one- and two-sided (confseq's ``is_one_sided``),
    against the closed form with confseq's own tuning r (so a departure is the evaluation's, not the tuning's)."""
    m = __name__ + ".calls:"
    pts = ((1.0, 0.05, 10.0, 0.5, 0.5), (100.0, 1e-6, 100.0, 0.5, 0.5), (1000.0, 0.01, 100.0, 0.2, 0.8),
           (10.0, 0.05, 1000.0, 0.9, 0.1))
    bound_ex = tuple({"V": v, "delta": d, "v_opt": o, "g": g, "h": h} for v, d, o, g, h in pts)
    log_ex = ({"s": 5.0, "V": 100.0, "v_opt": 100.0, "g": 0.5, "h": 0.5},
              {"s": -20.0, "V": 400.0, "v_opt": 50.0, "g": 0.2, "h": 0.8},
              {"s": 40.0, "V": 1000.0, "v_opt": 1000.0, "g": 0.9, "h": 0.3})
    dom = {"V": (0.01, 1e4), "delta": (1e-10, 0.5), "v_opt": (1.0, 1e4), "g": (0.05, 1.0), "h": (0.05, 1.0)}
    ldom = {"s": (-50.0, 50.0), "V": (100.0, 1e4), "v_opt": (1.0, 1e4), "g": (0.2, 1.0), "h": (0.2, 1.0)}
    out = []
    for one, side in ((1, "one-sided"), (0, "two-sided")):
        out.append(decl(PEER.name, f"confseq.boundaries.beta_binomial_mixture_bound ({side})",
                        m + ("bb_bound_one" if one else "bb_bound_two"), bb_bound, dom, fixed={"one_sided": one},
                        examples=bound_ex, cites=HRMS21_BB, against="cited",
                        check=f"beta-binomial mixture boundary u(V), {side}, alpha_opt {ALPHA_OPT}"))
        out.append(decl(PEER.name, f"confseq.boundaries.beta_binomial_log_mixture ({side})",
                        m + ("bb_log_one" if one else "bb_log_two"), bb_log_mixture, ldom, fixed={"one_sided": one},
                        claim="lower", examples=log_ex, cites=HRMS21_BB, against="cited",
                        check=f"log m(s, V) of the beta-binomial mixture, {side} (an always-valid p-value is "
                              "1/m: a larger log m claims more evidence than the mixture gives)"))
    return out
