"""autodp: ``converter.rdp_to_approxdp`` on zCDP curves, with the BBGHS improvement (against (a) CKS20 Prop. 12,
which is that conversion) and without it (against (a) BS16 Prop. 1.3's optimized Mironov conversion); (b) the
exact curve of a Gaussian mechanism with that rho (any valid conversion of rho-zCDP must be above it)."""

from __future__ import annotations

from fractions import Fraction

from dpbounds.audit.common import Comparison, PeerResult, available, error_comparison, judge_upper

PEER = "autodp"
DIST = "autodp"
RHOS = ["0.001", "0.01", "0.1", "1", "5"]
DELTAS = ["1e-10", "1e-6", "0.001"]
F_CONV = "autodp.converter.rdp_to_approxdp"


def audit(quick: bool = False) -> PeerResult:
    res = PeerResult(PEER, functions=[F_CONV])
    if not available("autodp"):
        return res.skip("not installed; pip install 'dpbounds[audit]'")
    from autodp import converter

    from dpbounds.accounting.conversions import eps_of
    res.notes.append("rdp_to_approxdp(alpha -> alpha * rho): BBGHS_conversion=True vs conversions.cks20, False vs "
                     "conversions.bs16; (b) the Gaussian mechanism's exact curve at that rho")
    for rho_s in (RHOS[1:4] if quick else RHOS):
        rho = float(rho_s)
        for bbghs, conv in ((True, "cks20"), (False, "bs16")):
            for d in DELTAS:
                inputs = {"rho": rho_s, "delta": d, "BBGHS_conversion": str(bbghs)}
                repro = ("from autodp import converter\n"
                         f"f = converter.rdp_to_approxdp(lambda a: a * {rho!r}, BBGHS_conversion={bbghs})\n"
                         f"print(f({float(d)!r}))  # autodp's epsilon\n"
                         f"import dpbounds; e = dpbounds.eps_of('{rho_s}', '{d}', '{conv}')\n"
                         "print(float(e.lo), float(e.hi))\n")
                try:
                    f = converter.rdp_to_approxdp(lambda a, rho=rho: a * rho, BBGHS_conversion=bbghs)
                    pe = float(f(float(d)))
                except Exception as e:  # noqa: BLE001
                    res.comparisons.append(error_comparison(PEER, F_CONV, "epsilon(delta)", inputs, e, repro))
                    continue
                a = eps_of(Fraction(rho_s), Fraction(d), conv)
                b = eps_of(Fraction(rho_s), Fraction(d), "gauss")
                res.comparisons.append(Comparison(
                    PEER, F_CONV, f"zCDP -> (eps, delta) (BBGHS={bbghs})", inputs, peer_value=pe,
                    formula=judge_upper(pe, a.lo, a.hi, role="formula", reference=f"conversions.{conv}",
                                        description=f"the conversion autodp implements ({conv}), certified"),
                    truth=judge_upper(pe, b.lo, b.hi, role="truth", reference="conversions.gauss",
                                      description="the exact curve of a Gaussian mechanism with this rho (BW18)"),
                    reproducer=repro))
    return res
