"""OpenDP: ``make_zCDP_to_approxDP`` against (a) CKS20 Proposition 12, the conversion it implements, and (b) the
exact privacy curve of a Gaussian mechanism with that rho (BW18); its fully adaptive privacy filters
(``make_fully_adaptive_composition`` + ``make_privacy_filter``) for zCDP and pure DP against the same rules
(sum of rho <= B: FZ21 Remark 4.4; sum of eps <= eps_g: RRUV16 Theorem 3.4), decision by decision; its pure-DP
privacy odometer (``OdometerQueryable.privacy_loss`` after each query) against RRUV16 Theorem 3.4's running sum of
eps, round by round.

Declarations on the dpbounds.testing engine.  The grid the audit has always checked is kept as explicit examples
(run first, one row each; a filter stream one row per round, as before): the conversion on ``make_gaussian(scale)``
at OpenDP's own rho for that scale, the filters on the costs OpenDP charged for those Gaussian / Laplace
mechanisms.  The search covers the whole documented domain between them, on measurements charging exactly the
searched rho / eps (``calls``)."""

from __future__ import annotations

from fractions import Fraction

from dpbounds.testing import Declaration
from dpbounds.audit.peers._common import SGM_Q1, decl
from dpbounds.spec.papers import paper
from dpbounds.testing.declarations import Peer

PEER = Peer(
    "opendp",
    dist="opendp",
    module="opendp",
    install="not installed; pip install 'dpbounds[audit]'",
    note="make_zCDP_to_approxDP on Gaussian mechanisms: (a) conversions.cks20 at OpenDP's own rho, (b) the Gaussian "
        "mechanism's exact curve (conversions.gauss.delta inverted); privacy filters vs fz21.remark4_4 (zCDP) and "
        "rruv16.thm3_4.filter (pure DP), the rules OpenDP implements; its pure-DP odometer vs rruv16.thm3_4.odometer",
)
F_CONV = "opendp.combinators.make_zCDP_to_approxDP"
F_FILTER = "opendp.combinators.make_fully_adaptive_composition + make_privacy_filter"
F_ODOMETER = "opendp.combinators.make_fully_adaptive_composition + OdometerQueryable.privacy_loss"
#: (scale, OpenDP's rho for make_gaussian(scale)) of today's grid: rho 0.0001, 0.01, 0.1, 1, 10
GAUSSIANS = [(70.71067811865476, 0.0001), (7.0710678118654755, 0.01), (2.23606797749979, 0.09999999999999999),
             (0.7071067811865475, 1.0000000000000002), (0.22360679774997896, 10.000000000000002)]
DELTAS = ["1e-10", "1e-6", "0.001"]
DOMAIN = {"rho": (1e-6, 100.0), "delta": (1e-15, 0.5)}
#: the costs OpenDP charged for today's streams: Gaussians of rho 0.1 x 7 and 0.3, 0.25, ..., 0.05 (zCDP);
#: Laplace mechanisms of eps 0.1 x 12 and 0.2, 0.2, 0.05, 0.05, 0.01 (pure)
ZCDP_STREAMS = [("0.5", [0.09999999999999999] * 7),
                ("1", [0.30000000000000004, 0.25000000000000006, 0.20000000000000004, 0.15, 0.09999999999999999,
                       0.05000000000000001, 0.05000000000000001])]
PURE_STREAMS = [("1", [0.1] * 12), ("0.5", [0.2, 0.2, 0.05, 0.05, 0.01])]
#: the longest stream the filter search feeds OpenDP: its fully adaptive composition re-composes every past charge
#: on each query, so a stream costs time quadratic in its length (measured here, OpenDP 0.16.0, one zCDP filter:
#: 256 rounds 10 s, 512 rounds 38 s, 1024 rounds 163 s); 128 rounds (about 3 s) still reach HALT, the costs being
#: drawn on the budget's scale
FILTER_MAX_ROUNDS = 128


def cks20_eps(rho, delta, scale=None):
    """CKS20 Prop. 12 (the conversion OpenDP implements) at OpenDP's rho, certified infimum."""
    from dpbounds.accounting.conversions import eps_of
    return eps_of(Fraction(rho), Fraction(delta), "cks20")


def gauss_eps(rho, delta, scale=None):
    """The exact epsilon(delta) of a Gaussian mechanism with this rho (BW18 Thm 8), certified."""
    from dpbounds.accounting.conversions import eps_of
    return eps_of(Fraction(rho), Fraction(delta), "gauss")


def _grid_declarations() -> list[Declaration]:
    grid = tuple({"rho": rho, "delta": d, "scale": s} for s, rho in GAUSSIANS for d in DELTAS)
    out = [Declaration(peer=PEER.name, function=F_CONV, call=__name__ + ".calls:zcdp_to_approxdp_eps", reference=ref,
                       inputs=DOMAIN, kind="conversion", claim="upper", examples=grid, cites=cites, against=against,
                       check="zCDP -> (eps, delta): epsilon(delta)")
           for ref, cites, against in (
               (cks20_eps, "Canonne, Kamath, Steinke, NeurIPS 2020, arXiv:2004.00010v4, Prop. 12", "cited"),
               (gauss_eps, "Balle, Wang, ICML 2018, arXiv:1805.06530v2, Thm. 8 (the Gaussian's exact curve)", "truth"))]
    for call, ref, key, cost, streams, kind, cites in (
            (__name__ + ".calls:zcdp_filter", "fz21.remark4_4", "B", "rho", ZCDP_STREAMS, "zcdp",
             f"Feldman, Zrnic, NeurIPS 2021, {paper('FZ21').arxiv_ref()}, Remark 4.4"),
            (__name__ + ".calls:pure_filter", "rruv16.thm3_4.filter", "eps_g", "eps", PURE_STREAMS, "pure",
             f"Rogers, Roth, Ullman, Vadhan, NIPS 2016, {paper('RRUV16').arxiv_ref()}, Thm 3.4")):
        for budget in dict.fromkeys(b for b, _ in streams):
            ex = tuple(tuple({cost: c} for c in seq) for b, seq in streams if b == budget)
            out.append(Declaration(peer=PEER.name, function=F_FILTER, call=call, reference=ref, kind="filter",
                                   inputs={key: (0.01, 10.0)}, budget={key: budget}, costs=(cost,), examples=ex, cites=cites, against="cited",
                                   check=f"privacy filter ({kind})", max_rounds=FILTER_MAX_ROUNDS))
    out.append(Declaration(peer=PEER.name, function=F_ODOMETER, call=__name__ + ".calls:pure_odometer",
                           reference="rruv16.thm3_4.odometer", kind="odometer", budget={}, costs=("eps",),
                           inputs={"eps": (0.0, 1.0)},  # a round's cost, as the odometer search draws it
                           examples=tuple(tuple({"eps": c} for c in seq) for _, seq in PURE_STREAMS),
                           cites=f"Rogers, Roth, Ullman, Vadhan, NIPS 2016, {paper('RRUV16').arxiv_ref()}, Thm 3.4",
                           against="cited", check="privacy odometer (pure)", max_rounds=FILTER_MAX_ROUNDS))
    return out


def declarations() -> list[Declaration]:
    return _grid_declarations() + sgm_declarations() + map_declarations() + threshold_declarations()


def laplace_eps(scale, d_in):
    """d_in / scale, exactly: the privacy loss of Laplace noise of scale b on a query of sensitivity d_in is at
    most d_in/b, attained (Dwork, McSherry, Nissim, Smith 2006)."""
    from dpbounds.evaluation.enclosure import Enclosure
    v = Fraction(d_in) / Fraction(scale)
    return Enclosure(v, v, 130)


def gauss_rho(scale, d_in):
    """d_in^2 / (2 scale^2), exactly: the zCDP of Gaussian noise of scale sigma on sensitivity d_in (Bun, Steinke
    2016, arXiv:1605.02065v1, Prop. 1.6; tight: the Renyi divergence of the two Gaussians is alpha times it)."""
    from dpbounds.evaluation.enclosure import Enclosure
    v = Fraction(d_in) ** 2 / (2 * Fraction(scale) ** 2)
    return Enclosure(v, v, 130)


laplace_eps.ref_id = "opendp.laplace_eps (DMNS06: d_in/b)"  # type: ignore[attr-defined]
gauss_rho.ref_id = "opendp.gauss_rho (BS16 Prop. 1.6)"  # type: ignore[attr-defined]


def map_declarations():
    """The privacy maps of the measurements OpenDP ships: make_noise / then_noise on a float scalar under pure DP
    (Laplace) and zCDP (Gaussian), make_pureDP_to_zCDP's map, and the privacy profile's delta(eps) that
    make_zCDP_to_approxDP returns (its epsilon(delta) is the conversion declared above).  A map is an upper claim:
    the loss it reports must be at least the mechanism's."""
    m = "opendp.measurements."
    noise = {"scale": (1e-3, 1e3), "d_in": (1e-3, 1e3)}
    ex = ({"scale": 2.0, "d_in": 1.0}, {"scale": 3.0, "d_in": 1.0}, {"scale": 0.7, "d_in": 5.0})
    dmns = "Dwork, McSherry, Nissim, Smith 2006 (Laplace: eps = d_in / scale)"
    bs16 = "Bun, Steinke 2016, arXiv:1605.02065v1, Prop. 1.6 (Gaussian: rho = d_in^2 / (2 scale^2))"
    cks = "Canonne, Kamath, Steinke, NeurIPS 2020, arXiv:2004.00010v4, Prop. 12 (delta form)"
    return [
        decl(PEER.name, m + "make_noise(max_divergence) [.map]", __name__ + ".calls:noise_laplace_map", laplace_eps,
             noise, examples=ex, cites=dmns, against="truth", check="Laplace noise: eps of the map at d_in"),
        decl(PEER.name, m + "make_noise(zero_concentrated_divergence) [.map]", __name__ + ".calls:noise_gauss_map",
             gauss_rho, noise, examples=ex, cites=bs16, against="truth", check="Gaussian noise: rho of the map"),
        decl(PEER.name, m + "then_noise(max_divergence) [.map]", __name__ + ".calls:then_noise_laplace_map",
             laplace_eps, noise, examples=ex[:2], cites=dmns, against="truth", check="Laplace noise: eps of the map"),
        decl(PEER.name, m + "then_noise(zero_concentrated_divergence) [.map]",
             __name__ + ".calls:then_noise_gauss_map", gauss_rho, noise, examples=ex[:2], cites=bs16,
             against="truth", check="Gaussian noise: rho of the map"),
        decl(PEER.name, "opendp.combinators.make_pureDP_to_zCDP [.map]", __name__ + ".calls:pure_to_zcdp_rho",
             "conversions.bs16.pure_to_zcdp", {"eps": (1e-4, 20.0)},
             examples=({"eps": 0.7}, {"eps": 1.0}, {"eps": 3.0}),
             cites="Bun, Steinke 2016, arXiv:1605.02065v1, Prop. 1.4 (eps-DP => eps^2/2-zCDP)", against="cited"),
        decl(PEER.name, "opendp.mod.PrivacyProfile.delta (make_zCDP_to_approxDP)", __name__ + ".calls:profile_delta",
             "conversions.cks20.delta", {"rho": (1e-6, 100.0), "eps_g": (0.0, 50.0)},
             examples=({"rho": 0.5, "eps_g": 1.0}, {"rho": 0.01, "eps_g": 0.5}, {"rho": 5.0, "eps_g": 10.0}),
             cites=cks, against="cited"),
    ]


# ---------------------------------------------------------------------------------------------------- DP-SGD paths (issue 28)
# OpenDP 0.16.0 where it composes Gaussians (its amplification combinator covers pure/approximate DP only, so
# there is no subsampled-Gaussian path): k-fold Gaussian composition under zCDP converted to (eps, delta).  Its
# zCDP -> DP conversion and filters are the older ``dpbounds.audit.opendp_adapter``.





def sgm_declarations():  # the DP-SGD / Gaussian-composition paths (issue 28)
    return [
        decl(PEER.name, "opendp make_composition([make_gaussian] * k) + make_zCDP_to_approxDP + make_fix_delta",
             __name__ + ".calls:gaussian_kfold_eps", "composition.sgm.eps", SGM_Q1,
             examples=({"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5}, {"q": 1.0, "sigma": 5.0, "k": 1000,
                                                                           "delta": 1e-10}),
             cites="Canonne, Kamath, Steinke 2020, arXiv:2004.00010v5, Prop. 12 (zCDP -> DP)", against="truth"),
    ]


def dlap_threshold_delta(scale, c, gap):
    """The least delta of the discrete Laplace thresholded release when one key changes by c (d_in = (1, c, c)):
    a key present on one side only, with count c, is released when c + Z >= threshold = c + gap, Z with pmf
    proportional to e^{-|z|/scale}; that event has probability 0 on the other side, so delta >= P(Z >= gap) at
    every eps, and every other pair is a shift by at most c (privacy loss <= c/scale, the map's eps): the map's
    delta is exactly P(Z >= gap) = r^gap/(1 + r) with r = e^{-1/scale} (gap >= 1), 1/(1 + r) at gap 0.  In arb."""
    from flint import arb

    from dpbounds.audit.peers._refs import _arb_enclosure, _q
    from dpbounds.evaluation.numeric import arb_prec, fraction_to_arb
    g = int(_q(gap))
    with arb_prec(256):
        r = (-1 / fraction_to_arb(_q(scale))).exp()
        v = r ** g / (1 + r) if g >= 1 else arb(1) / (1 + r)
        return _arb_enclosure(v, "opendp.dlap_threshold_delta")


def dlap_threshold_eps(scale, c, gap):
    """c / scale, exactly: the discrete Laplace noise's privacy loss when a count moves by c (DMNS06)."""
    return laplace_eps(scale, c)


dlap_threshold_delta.ref_id = "opendp.dlap_threshold_delta"  # type: ignore[attr-defined]
dlap_threshold_eps.ref_id = "opendp.dlap_threshold_eps (DMNS06: c/scale)"  # type: ignore[attr-defined]


def threshold_declarations():
    """The thresholded (stability-based) release of a hashmap of counts, make_noise_threshold / then_noise_threshold
    with discrete Laplace noise: its map at d_in = (l0 1, l1 c, linf c) against the mechanism's exact (eps, delta)
    (the noise's eps c/scale; the delta of a key on one side only, P(Z >= threshold - c))."""
    m = "opendp.measurements."
    dom = {"scale": (0.1, 100.0), "c": (1, 5), "gap": (0, 400)}
    ex = ({"scale": 1.0, "c": 1, "gap": 3}, {"scale": 2.0, "c": 1, "gap": 19}, {"scale": 0.5, "c": 3, "gap": 10},
          {"scale": 10.0, "c": 2, "gap": 0})
    rogers = ("the release rule of OpenDP's proof (a noisy count >= threshold is released); Rogers 2023, "
              "arXiv:2309.09170v2 (the unknown-domain analysis OpenDP cites)")
    return [
        decl(PEER.name, m + "make_noise_threshold(approximate(max_divergence)) [.map eps]",
             __name__ + ".calls:noise_threshold_eps", dlap_threshold_eps, dom,
             examples=ex, cites="Dwork, McSherry, Nissim, Smith 2006 (discrete Laplace: eps = c / scale)",
             against="truth", check="thresholded discrete Laplace: eps of the map at (1, c, c)"),
        decl(PEER.name, m + "make_noise_threshold(approximate(max_divergence)) [.map delta]",
             __name__ + ".calls:noise_threshold_delta", dlap_threshold_delta, dom, examples=ex, cites=rogers,
             against="truth", check="thresholded discrete Laplace: delta of the map at (1, c, c)"),
        decl(PEER.name, m + "then_noise_threshold(approximate(max_divergence)) [.map delta]",
             __name__ + ".calls:then_noise_threshold_delta", dlap_threshold_delta, dom, examples=ex[:2],
             cites=rogers, against="truth", check="thresholded discrete Laplace: delta of the map at (1, c, c)"),
    ]
