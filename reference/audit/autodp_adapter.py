"""autodp: RDP -> approximate-DP conversions (converter.rdp_to_approxdp, with and without the BBGHS improvement)
on the zCDP curve, against conversions.cks20 and conversions.bs16."""

from __future__ import annotations

from fractions import Fraction

from .common import Comparison, PeerResult, available, classify_upper

PEER = "autodp"
RHOS = ["0.01", "0.1", "1"]
DELTAS = ["1e-10", "1e-6", "0.001"]


def audit(quick: bool = False) -> PeerResult:
    res = PeerResult(PEER)
    if not available("autodp"):
        res.notes.append("autodp: skipped (not installed; pip install 'dpbounds[audit]')")
        return res
    from autodp import converter

    from dpbounds.accounting.conversions import eps_of
    res.notes.append("autodp: converter.rdp_to_approxdp(alpha -> alpha*rho) with BBGHS_conversion True (vs cks20) "
                     "and False (vs bs16, the optimized Mironov conversion)")
    for rho_s in RHOS:
        rho = float(rho_s)
        for bbghs, conv in ((True, "cks20"), (False, "bs16")):
            try:
                f = converter.rdp_to_approxdp(lambda a, rho=rho: a * rho, BBGHS_conversion=bbghs)
            except Exception as e:  # noqa: BLE001
                res.comparisons.append(Comparison(PEER, f"rdp_to_approxdp(BBGHS={bbghs})", {"rho": rho_s}, "", "",
                                                  "error", str(e)[:160]))
                continue
            for d in DELTAS:
                inputs = {"rho": rho_s, "delta": d}
                try:
                    pe = float(f(float(d)))
                except Exception as e:  # noqa: BLE001
                    res.comparisons.append(Comparison(PEER, f"rdp_to_approxdp(BBGHS={bbghs})", inputs, "", "",
                                                      "error", str(e)[:160]))
                    continue
                enc = eps_of(Fraction(rho_s), Fraction(d), conv)
                verdict, detail = classify_upper(pe, enc.lo, enc.hi, tol=1e-6)
                res.comparisons.append(Comparison(PEER, f"rdp_to_approxdp(BBGHS={bbghs}) vs {conv}", inputs,
                                                  repr(pe), f"[{float(enc.lo):.17g}, {float(enc.hi):.17g}]",
                                                  verdict, detail))
    return res
