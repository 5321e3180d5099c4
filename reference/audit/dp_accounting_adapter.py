"""Google dp_accounting: rdp.compute_epsilon on the zCDP curve rdp(alpha) = alpha * rho, against CKS20
(its orders grid vs the continuous optimum)."""

from __future__ import annotations

from fractions import Fraction

from .common import Comparison, PeerResult, available, classify_upper

PEER = "dp_accounting"
RHOS = ["0.0001", "0.01", "0.1", "1", "10"]
DELTAS = ["1e-10", "1e-6", "0.001"]


def audit(quick: bool = False) -> PeerResult:
    res = PeerResult(PEER)
    if not available("dp_accounting"):
        res.notes.append("dp_accounting: skipped (not installed; pip install 'dpbounds[audit]')")
        return res
    from dp_accounting.rdp import rdp_privacy_accountant as rdp

    from dpbounds.accounting.conversions import eps_of
    orders = ([1 + x / 10.0 for x in range(1, 100)] + list(range(12, 64)) + [128, 256, 512])
    res.notes.append("dp_accounting: rdp.compute_epsilon(orders, alpha*rho, delta) vs conversions.cks20 (continuous "
                     f"optimum over alpha); {len(orders)} orders from 1.1 to 512")
    for rho_s in (RHOS[1:4] if quick else RHOS):
        rho = float(rho_s)
        for d in DELTAS:
            inputs = {"rho": rho_s, "delta": d}
            try:
                pe, opt_order = rdp.compute_epsilon(orders, [a * rho for a in orders], float(d))
            except Exception as e:  # noqa: BLE001
                res.comparisons.append(Comparison(PEER, "compute_epsilon(zCDP)", inputs, "", "", "error", str(e)[:160]))
                continue
            enc = eps_of(Fraction(rho_s), Fraction(d), "cks20")
            verdict, detail = classify_upper(pe, enc.lo, enc.hi)
            res.comparisons.append(Comparison(PEER, "compute_epsilon(zCDP)", inputs, repr(pe),
                                              f"[{float(enc.lo):.17g}, {float(enc.hi):.17g}]", verdict,
                                              detail + f"; best order {opt_order}"))
    return res
