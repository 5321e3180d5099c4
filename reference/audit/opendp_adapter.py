"""OpenDP: ``make_zCDP_to_approxDP`` against (a) CKS20 Proposition 12, the conversion it implements, and (b) the
exact privacy curve of the audited Gaussian mechanism (BW18); its fully adaptive privacy filters
(``make_fully_adaptive_composition`` + ``make_privacy_filter``) for zCDP and pure DP against the same rules
(sum of rho <= B: FZ21 Remark 4.4; sum of eps <= eps_g: RRUV16 Theorem 3.4), decision by decision."""

from __future__ import annotations

import math
from fractions import Fraction

from dpbounds.audit.common import (Comparison, PeerResult, available, error_comparison, judge_decision,
                                   judge_upper)

PEER = "opendp"
DIST = "opendp"
RHOS = ["0.0001", "0.01", "0.1", "1", "10"]
DELTAS = ["1e-10", "1e-6", "0.001"]
F_CONV = "opendp.combinators.make_zCDP_to_approxDP"
F_FILTER = "opendp.combinators.make_fully_adaptive_composition + make_privacy_filter"

_SETUP = ("import opendp.prelude as dp\n"
          "dp.enable_features('contrib')\n"
          "space = dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float)\n")


def _space(dp):
    return (dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float))


def audit(quick: bool = False) -> PeerResult:
    res = PeerResult(PEER, functions=[F_CONV, F_FILTER])
    if not available("opendp"):
        return res.skip("not installed; pip install 'dpbounds[audit]'")
    import opendp.prelude as dp
    dp.enable_features("contrib")
    from dpbounds.accounting.conversions import eps_of
    res.notes.append("make_zCDP_to_approxDP on Gaussian mechanisms: (a) conversions.cks20 at OpenDP's own rho, "
                     "(b) the Gaussian mechanism's exact curve (conversions.gauss.delta inverted); privacy filters "
                     "vs fz21.remark4_4 (zCDP) and rruv16.thm3_4.filter (pure DP), the rules OpenDP implements")
    space = _space(dp)
    for rho_s in (RHOS[1:4] if quick else RHOS):
        scale = 1.0 / math.sqrt(2 * float(rho_s))
        m = dp.m.make_gaussian(*space, scale=scale)
        rho_peer = m.map(1.0)  # OpenDP's own rho for this scale: the audited input
        profile = dp.c.make_zCDP_to_approxDP(m).map(1.0)
        for d in DELTAS:
            inputs = {"rho": repr(rho_peer), "delta": d, "scale": repr(scale)}
            repro = (_SETUP + f"m = dp.m.make_gaussian(*space, scale={scale!r})\n"
                     f"print(dp.c.make_zCDP_to_approxDP(m).map(1.0).epsilon({d}))  # OpenDP's epsilon\n"
                     "import dpbounds; from fractions import Fraction\n"
                     f"e = dpbounds.eps_of(Fraction({rho_peer!r}), '{d}', 'cks20')  # certified CKS20\n"
                     "print(float(e.lo), float(e.hi))\n")
            try:
                pe = float(profile.epsilon(float(d)))
            except Exception as e:  # noqa: BLE001
                res.comparisons.append(error_comparison(PEER, F_CONV, "epsilon(delta)", inputs, e, repro))
                continue
            a = eps_of(Fraction(rho_peer), Fraction(d), "cks20")
            b = eps_of(Fraction(rho_peer), Fraction(d), "gauss")
            res.comparisons.append(Comparison(
                PEER, F_CONV, "zCDP -> (eps, delta): epsilon(delta)", inputs, peer_value=pe,
                formula=judge_upper(pe, a.lo, a.hi, role="formula", reference="conversions.cks20",
                                    description="CKS20 Prop. 12 (the conversion OpenDP implements), certified infimum"),
                truth=judge_upper(pe, b.lo, b.hi, role="truth", reference="conversions.gauss",
                                  description="the audited Gaussian mechanism's exact epsilon(delta) (BW18 Thm 8)"),
                reproducer=repro))
    res.comparisons += _filters(dp, space, quick)
    return res


def _filters(dp, space, quick: bool) -> list[Comparison]:
    from dpbounds.evaluation.evaluate import decide, prepare
    from dpbounds.spec import get
    out = []
    streams = [("zcdp", "0.5", ["0.1"] * 7), ("zcdp", "1", ["0.3", "0.25", "0.2", "0.15", "0.1", "0.05", "0.05"]),
               ("pure", "1", ["0.1"] * 12), ("pure", "0.5", ["0.2", "0.2", "0.05", "0.05", "0.01"])]
    for kind, budget, seq in streams:
        measure = dp.zero_concentrated_divergence() if kind == "zcdp" else dp.max_divergence()
        od = dp.c.make_fully_adaptive_composition(*space, measure)
        q = dp.c.make_privacy_filter(od, d_in=1.0, d_out=float(budget))(0.0)
        ref_id = "fz21.remark4_4" if kind == "zcdp" else "rruv16.thm3_4.filter"
        entry = get(ref_id)
        spent: list[str] = []
        for i, p in enumerate(seq):
            if kind == "zcdp":
                mk = f"dp.m.make_gaussian(*space, scale={1.0 / math.sqrt(2 * float(p))!r})"
                meas = dp.m.make_gaussian(*space, scale=1.0 / math.sqrt(2 * float(p)))
            else:
                mk = f"dp.m.make_laplace(*space, scale={1.0 / float(p)!r})"
                meas = dp.m.make_laplace(*space, scale=1.0 / float(p))
            cost = repr(meas.map(1.0))
            try:
                q(meas)
                peer_cont = True
            except Exception:  # noqa: BLE001 - OpenDP rejects the query: HALT
                peer_cont = False
            hist = spent + [cost]
            params = {"B": budget} if kind == "zcdp" else {"eps_g": budget}
            inp = prepare(entry, params, **({"rho": hist} if kind == "zcdp" else {"eps": hist}))
            ref_cont = not decide(entry, inp)
            repro = (_SETUP + f"od = dp.c.make_fully_adaptive_composition(*space, "
                     f"dp.{'zero_concentrated_divergence' if kind == 'zcdp' else 'max_divergence'}())\n"
                     f"q = dp.c.make_privacy_filter(od, d_in=1.0, d_out={float(budget)!r})(0.0)\n"
                     f"# the costs OpenDP charged so far: {', '.join(spent) or 'none'}; round {i + 1}:\n"
                     f"q({mk})  # raises iff OpenDP halts\n")
            out.append(Comparison(
                PEER, F_FILTER, f"privacy filter ({kind}) round {i + 1}",
                {"budget": budget, "history": ",".join(hist)}, peer_output="CONT" if peer_cont else "HALT",
                formula=judge_decision(peer_cont, ref_cont, same_theorem=True, role="formula", reference=ref_id,
                                       description=f"{ref_id}, certified decision on OpenDP's own per-query costs"),
                reproducer=repro))
            if not peer_cont:
                break
            spent.append(cost)
    return out
