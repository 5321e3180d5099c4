"""References and domains shared by the peers' DP-SGD calibration, substitution and sampling-without-replacement
declarations: certified callables (**inputs) -> Enclosure on dpbounds.calibrate_sgm and composition.sgm.eps with its
relation and sampling options.

A calibration function returns a noise multiplier it claims is enough for (eps, delta) after k steps: it is judged
as an upper bound on sigma_min, the smallest sigma whose certified epsilon is at most eps -- a sigma below the
certified lower end is certified insufficient (unsound), one above the upper end is sufficient."""

from __future__ import annotations

import functools
from fractions import Fraction

#: calibration: q = 1 (sigma_min in closed form: the Gaussian curve) is searched; q < 1 points are examples
SIGMA_MIN_DOMAIN = {"eps_g": (0.2, 10.0), "delta": (1e-10, 1e-3), "q": [1.0], "k": (1, 1000)}
SIGMA_MIN_EXAMPLES = (
    {"eps_g": 1.0, "delta": 1e-5, "q": 1.0, "k": 10}, {"eps_g": 2.0, "delta": 1e-6, "q": 1.0, "k": 100},
    {"eps_g": 0.5, "delta": 1e-5, "q": 1.0, "k": 1}, {"eps_g": 8.0, "delta": 1e-5, "q": 1.0, "k": 1000},
)
#: subsampled: a small box (a calibration at q < 1 is some ten certified PLD brackets)
SIGMA_MIN_SUB_DOMAIN = {"eps_g": (0.5, 4.0), "delta": (1e-6, 1e-4), "q": [0.05, 0.1], "k": (1, 5)}
SIGMA_MIN_SUB_EXAMPLES = ({"eps_g": 1.0, "delta": 1e-5, "q": 0.1, "k": 1}, {"eps_g": 2.0, "delta": 1e-5, "q": 0.05, "k": 5})
CITES_SIGMA = "dpbounds.calibrate_sgm (certified sigma_min: hi certified sufficient, lo certified insufficient)"
CHECK_SIGMA = "noise multiplier for (eps, delta) after k steps: at least sigma_min"


def calibration_declarations(peer: str, function: str, call: str) -> list:
    """Two declarations of one calibration function: q = 1 (searched; sigma_min in closed form) and q < 1 in a
    small box."""
    from dpbounds.audit.peers._common import decl
    return [decl(peer, function, call, sigma_min, SIGMA_MIN_DOMAIN, examples=SIGMA_MIN_EXAMPLES, cites=CITES_SIGMA,
                 against="truth", check=CHECK_SIGMA + " (q = 1)"),
            decl(peer, function + " [q < 1]", call, sigma_min, SIGMA_MIN_SUB_DOMAIN, examples=SIGMA_MIN_SUB_EXAMPLES,
                 cites=CITES_SIGMA, against="truth", check=CHECK_SIGMA + " (q in {0.05, 0.1}, k <= 5)")]
#: substitution under Poisson sampling, and fixed-size batches (b of n without replacement) under substitution
SUB_DOMAIN = {"q": (0.01, 1.0), "sigma": (0.8, 10.0), "k": (1, 10), "delta": (1e-8, 1e-3)}
SUB_EXAMPLES = ({"q": 1.0, "sigma": 2.0, "k": 10, "delta": 1e-5}, {"q": 0.1, "sigma": 1.0, "k": 1, "delta": 1e-5},
                {"q": 0.5, "sigma": 2.0, "k": 2, "delta": 1e-6}, {"q": 0.01, "sigma": 1.0, "k": 1, "delta": 1e-5})
WOR_DOMAIN = {"b": [10, 50, 100, 500, 1000], "n": [1000], "sigma": (0.8, 10.0), "k": (1, 4), "delta": (1e-8, 1e-3)}
WOR_EXAMPLES = ({"b": 100, "n": 1000, "sigma": 1.0, "k": 1, "delta": 1e-5},
                {"b": 10, "n": 1000, "sigma": 2.0, "k": 2, "delta": 1e-6},
                {"b": 1000, "n": 1000, "sigma": 4.0, "k": 3, "delta": 1e-5})
CITES_SUB = ("dominating pairs under substitution: proofs_check composition.sgm.substitution_poisson / "
             "substitution_fixed_size (dpbounds' own proofs; ZDW22 arXiv:2106.08567v3 composition, BBG18 "
             "arXiv:1807.01647v2 advanced joint convexity)")


@functools.lru_cache(maxsize=32)
def _calibrated(e: Fraction, d: Fraction, q: Fraction, k: int, tol: float):
    from dpbounds.evaluation.sgm_calibrate import calibrate_sgm
    return calibrate_sgm(e, d, q, k, rel_tol=tol)


def sigma_min(eps_g, delta, q, k, rel_tol=None, near=None):
    """Certified enclosure of the smallest sigma with k steps (eps_g, delta)-DP (add/remove, Poisson); ``rel_tol``
    (the audit's narrowing, :attr:`rel_tols`) asks a narrower one.  ``near`` (a peer's sigma inside the enclosure):
    first the points 2^-30 (relative) below and above it are decided -- one certified sufficient is a new upper end,
    one certified insufficient a new lower end (sigma_min lies where the certified status changes, so the enclosure
    stays certified whatever ``near`` is: it only chooses where to look); the narrower rel_tol only if neither is."""
    from dpbounds.evaluation import sgm_calibrate as SC
    from dpbounds.evaluation.enclosure import Enclosure
    first = 1e-5 if float(q) == 1.0 else 1e-3
    e, d, qq, kk = Fraction(eps_g), Fraction(delta), Fraction(q), int(k)
    if near is None:
        return _calibrated(e, d, qq, kk, rel_tol if rel_tol is not None else first)
    enc = _calibrated(e, d, qq, kk, first)
    v = Fraction(near)
    if enc.lo < v < enc.hi:
        below, above = v * (1 - Fraction(1, 2**30)), v * (1 + Fraction(1, 2**30))
        if enc.lo < below and SC._status([(qq, below, kk)], "add_remove", "poisson", e, d) > 0:
            return Enclosure(enc.lo, below, 53)
        if above < enc.hi and SC._status([(qq, above, kk)], "add_remove", "poisson", e, d) < 0:
            return Enclosure(above, enc.hi, 53)
    return _calibrated(e, d, qq, kk, rel_tol if rel_tol is not None else first)


def _eps(params, relation, sampling, rel_tol, near, ids=("composition.sgm.eps", "composition.sgm.delta")):
    """Certified eps(delta) (``rel_tol``: the audit's narrowing).  ``near`` (a peer's eps inside the enclosure): first
    the certified delta at the points 2^-30 (relative) below and above it -- delta(e) <= delta certified makes e an upper
    end of eps(delta), delta(e) > delta certified a lower end (delta(.) is nonincreasing; ``near`` only chooses where
    to look) -- which needs a far coarser bracket than eps itself at the same resolution."""
    from dpbounds.evaluation.enclosure import CertificationError, Enclosure
    from dpbounds.evaluation.evaluate import enclose
    eps_id, delta_id = ids
    opts = {"relation": relation, "sampling": sampling}
    first = enclose(eps_id, {**params, **opts}, rel_tol=1e-4)
    if near is None or rel_tol is None:
        return first if rel_tol is None else enclose(eps_id, {**params, **opts}, rel_tol=rel_tol)
    v = Fraction(near)
    if first.lo is not None and first.hi is not None and first.lo < v < first.hi:
        below, above = v * (1 - Fraction(1, 2**30)), v * (1 + Fraction(1, 2**30))
        curve = {k: x for k, x in params.items() if k != "delta"}
        try:
            for tol in (1e-5, 1e-6, 1e-7):
                d = enclose(delta_id, {**curve, **opts, "eps_g": below}, rel_tol=tol)
                if d.hi is not None and d.hi <= params["delta"]:
                    return Enclosure(first.lo, below, 53)
                d = enclose(delta_id, {**curve, **opts, "eps_g": above}, rel_tol=tol)
                if d.lo > params["delta"]:
                    return Enclosure(above, first.hi, 53)
        except CertificationError:
            pass
    return enclose(eps_id, {**params, **opts}, rel_tol=rel_tol)


def substitution_eps(q, sigma, k, delta, rel_tol=None, near=None):
    """Certified eps(delta) of k steps under substitution with Poisson sampling."""
    return _eps({"q": Fraction(q), "sigma": Fraction(sigma), "k": int(k), "delta": Fraction(delta)},
                "substitution", "poisson", rel_tol, near)


def fixed_size_eps(b, n, sigma, k, delta, rel_tol=None, near=None):
    """Certified eps(delta) of k steps with batches of b of n drawn without replacement, under substitution."""
    return _eps({"q": Fraction(int(b), int(n)), "sigma": Fraction(sigma), "k": int(k), "delta": Fraction(delta)},
                "substitution", "fixed_size", rel_tol, near)


def schedule_eps(q1, s1, k1, q2, s2, k2, delta, rel_tol=None, near=None):
    """Certified eps(delta) of a two-phase schedule (k1 steps at (q1, s1), then k2 at (q2, s2); add/remove,
    Poisson): composition.sgm.schedule.eps."""
    return _eps({"phases": _phases_text(q1, s1, k1, q2, s2, k2), "delta": Fraction(delta)}, "add_remove",
                "poisson", rel_tol, near, ("composition.sgm.schedule.eps", "composition.sgm.schedule.delta"))


def _phases_text(q1, s1, k1, q2, s2, k2) -> str:
    """The phases as exact decimals (the parser reads decimals; binary floats are finite decimals)."""
    from decimal import Decimal
    return ",".join(f"{Decimal(float(q))}:{Decimal(float(s))}:{int(k)}" for q, s, k in ((q1, s1, k1), (q2, s2, k2)))


#: two-phase schedules (the second phase at another rate and noise); q = 1 phases are the Gaussian closed form
SCHEDULE_DOMAIN = {"q1": [0.01, 0.05, 0.1, 1.0], "s1": (0.8, 4.0), "k1": (1, 10), "q2": [0.02, 0.05, 0.1, 1.0],
                   "s2": (0.8, 4.0), "k2": (1, 10), "delta": (1e-8, 1e-3)}
SCHEDULE_EXAMPLES = ({"q1": 1.0, "s1": 2.0, "k1": 3, "q2": 1.0, "s2": 3.0, "k2": 5, "delta": 1e-5},
                     {"q1": 0.01, "s1": 1.0, "k1": 10, "q2": 0.02, "s2": 1.25, "k2": 5, "delta": 1e-5},
                     {"q1": 0.1, "s1": 1.0, "k1": 1, "q2": 0.05, "s2": 2.0, "k2": 2, "delta": 1e-6})
CITES_SCHEDULE = ("composition.sgm.schedule.eps: the product of the phases' dominating pairs (ZDW22 "
                  "arXiv:2106.08567v3; proofs_check composition.sgm.schedule_product)")


sigma_min.ref_id = "refs.sgm_sigma_min"  # type: ignore[attr-defined]
substitution_eps.ref_id = "refs.sgm_substitution_eps"  # type: ignore[attr-defined]
fixed_size_eps.ref_id = "refs.sgm_fixed_size_eps"  # type: ignore[attr-defined]
# the narrower widths the audit asks where a peer's value lies inside the enclosure (dpbounds.testing.oracle): a
# calibration at q < 1 and a subsampled eps stop near 1e-7 (the PLD bracket's floor and the work bound); q = 1 is the
# Gaussian curve in closed form, certified to any of them
sigma_min.rel_tols = (1e-5, 1e-6, 1e-9, 1e-11, 1e-13)  # type: ignore[attr-defined]
sigma_min.near = True  # type: ignore[attr-defined]   (it takes near=, the peer's value)
substitution_eps.rel_tols = (1e-5, 1e-7, 1e-9, 1e-11, 1e-13)  # type: ignore[attr-defined]
fixed_size_eps.rel_tols = substitution_eps.rel_tols  # type: ignore[attr-defined]
substitution_eps.near = fixed_size_eps.near = True  # type: ignore[attr-defined]
schedule_eps.ref_id = "refs.sgm_schedule_eps"  # type: ignore[attr-defined]
schedule_eps.rel_tols = substitution_eps.rel_tols  # type: ignore[attr-defined]
schedule_eps.near = True  # type: ignore[attr-defined]
