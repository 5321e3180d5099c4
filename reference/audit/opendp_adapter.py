"""OpenDP: zCDP -> approximate-DP conversion (make_zCDP_to_approxDP) against CKS20, and its privacy filter
(make_fully_adaptive_composition + make_privacy_filter) against the matching reference filters."""

from __future__ import annotations

import math
from fractions import Fraction

from .common import Comparison, PeerResult, available, classify_decision, classify_upper

PEER = "opendp"
RHOS = ["0.0001", "0.01", "0.1", "1", "10"]
DELTAS = ["1e-10", "1e-6", "0.001"]


def _space(dp):
    return (dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float))


def audit(quick: bool = False) -> PeerResult:
    res = PeerResult(PEER)
    if not available("opendp"):
        res.notes.append("opendp: skipped (not installed; pip install 'dpbounds[audit]')")
        return res
    import opendp.prelude as dp
    dp.enable_features("contrib")
    from dpbounds.accounting.conversions import eps_of
    res.notes.append(f"opendp {getattr(dp, '__version__', '')}: make_zCDP_to_approxDP vs conversions.cks20; "
                     "privacy filters vs fz21.remark4_4 (zCDP) and rruv16.thm3_4.filter (pure DP)")
    space = _space(dp)
    for rho_s in (RHOS[1:4] if quick else RHOS):
        # a Gaussian mechanism with the requested rho; OpenDP's own rho (its map) is the audited input
        m = dp.m.make_gaussian(*space, scale=1.0 / math.sqrt(2 * float(rho_s)))
        rho_peer = m.map(1.0)
        conv = dp.c.make_zCDP_to_approxDP(m)
        profile = conv.map(1.0)
        for d in DELTAS:
            inputs = {"rho": repr(rho_peer), "delta": d}
            try:
                pe = profile.epsilon(float(d))
            except Exception as e:  # noqa: BLE001
                res.comparisons.append(Comparison(PEER, "zCDP->approxDP epsilon(delta)", inputs, "", "", "error",
                                                  str(e)[:160]))
                continue
            enc = eps_of(Fraction(rho_peer), Fraction(d), "cks20")
            verdict, detail = classify_upper(pe, enc.lo, enc.hi)
            if verdict == "unsound":
                g = eps_of(Fraction(rho_peer), Fraction(d), "gauss")
                if Fraction(pe) < g.lo:
                    detail += "; below even the Gaussian mechanism's exact curve: provably unsound"
                else:
                    detail += "; above the Gaussian limit: not proven by CKS20 (may still be valid)"
            res.comparisons.append(Comparison(PEER, "zCDP->approxDP epsilon(delta)", inputs, repr(pe),
                                              f"[{float(enc.lo):.17g}, {float(enc.hi):.17g}]", verdict, detail))
    res.comparisons += _filters(dp, space, quick)
    return res


def _filters(dp, space, quick: bool) -> list[Comparison]:
    from dpbounds.evaluation.evaluate import decide, prepare
    from dpbounds.spec import get
    out = []
    # zCDP filter: rho budget B, Gaussian queries of varying rho; compare each decision with fz21.remark4_4
    streams = [("zcdp", "0.5", ["0.1"] * 7), ("zcdp", "1", ["0.3", "0.25", "0.2", "0.15", "0.1", "0.05", "0.05"]),
               ("pure", "1", ["0.1"] * 12), ("pure", "0.5", ["0.2", "0.2", "0.05", "0.05", "0.01"])]
    for kind, budget, seq in streams:
        measure = dp.zero_concentrated_divergence() if kind == "zcdp" else dp.max_divergence()
        od = dp.c.make_fully_adaptive_composition(*space, measure)
        q = dp.c.make_privacy_filter(od, d_in=1.0, d_out=float(budget))(0.0)
        ref_id = "fz21.remark4_4" if kind == "zcdp" else "rruv16.thm3_4.filter"
        entry = get(ref_id)
        spent_peer: list[str] = []
        mism = 0
        peer_rounds = ref_rounds = None
        for i, p in enumerate(seq):
            if kind == "zcdp":
                meas = dp.m.make_gaussian(*space, scale=1.0 / math.sqrt(2 * float(p)))
            else:
                meas = dp.m.make_laplace(*space, scale=1.0 / float(p))
            peer_value = repr(meas.map(1.0))
            try:
                q(meas)
                peer_cont = True
            except Exception:  # noqa: BLE001 - OpenDP rejects the query
                peer_cont = False
            hist = spent_peer + [peer_value]
            params = {"B": budget} if kind == "zcdp" else {"eps_g": budget}
            inp = prepare(entry, params, **({"rho": hist} if kind == "zcdp" else {"eps": hist}))
            ref_cont = not decide(entry, inp)
            verdict, detail = classify_decision(peer_cont, ref_cont)
            if verdict != "exact":
                mism += 1
                out.append(Comparison(PEER, f"privacy filter ({kind}) vs {ref_id}",
                                      {"budget": budget, "history": ",".join(hist)}, "CONT" if peer_cont else "HALT",
                                      "CONT" if ref_cont else "HALT", verdict,
                                      detail + f" at round {i + 1} (OpenDP's own per-query cost {peer_value})"))
            if peer_cont:
                spent_peer.append(peer_value)
            else:
                peer_rounds = i
                if ref_cont:
                    pass
                break
        if mism == 0:
            out.append(Comparison(PEER, f"privacy filter ({kind}) vs {ref_id}",
                                  {"budget": budget, "queries": ",".join(seq)}, f"{len(spent_peer)} rounds",
                                  "same decisions", "exact", "identical decisions on every round"))
    return out
