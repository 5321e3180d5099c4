"""SmartNoise SQL (OpenDP): its privacy odometers ``snsql.sql.odometer.Odometer`` (homogeneous) and
``OdometerHeterogeneous``, which cite Kairouz, Oh and Viswanath (ICML 2015, arXiv:1311.0776v4) Theorems 3.4 / 3.5.

For k rounds of (eps, delta)-DP with tol = delta / 2 (the odometer's choice of delta-tilde):
(a) the formula it cites: KOV15 Thm 3.4/3.5 (registry ``conversions.kov15.heterogeneous`` with dhat = tol) for
    epsilon, and 1 - (1 - delta)^k (1 - tol) for delta;
(b) the truth: at the epsilon the odometer reports, the exact optimal delta of k-fold (eps, delta)-DP,
    1 - (1 - delta)^k (1 - delta_KOV(eps_total)) (KOV15 Thm 3.3, ``conversions.kov15.exact``).
Both are fixed-parameter composition theorems: used as odometers with adaptively chosen parameters they are
unproven (RRUV16), which this adapter does not test.

smartnoise-sql pins an older opendp than the other peers: install it in its own environment and pass that
interpreter with ``dpbounds audit --python smartnoise_sql=/path/to/venv/bin/python``; only JSON crosses over."""

from __future__ import annotations

from fractions import Fraction

from dpbounds.audit.common import Comparison, PeerResult, error_comparison, judge_upper, start_in_own_venv
from dpbounds.testing.declarations import Peer, peer_calls

PEER = Peer("smartnoise_sql", dist="smartnoise-sql")
F_HOM = "snsql.sql.odometer.Odometer(Privacy(eps, delta)).spend(k).spent"
F_HET = "snsql.sql.odometer.OdometerHeterogeneous(Privacy(eps, delta)).spend() x k .spent"
CASES = [("0.1", "1e-6", 50), ("0.5", "1e-5", 10), ("1", "1e-6", 5), ("0.01", "1e-8", 1000), ("0.2", "1e-6", 100),
         ("0.05", "1e-7", 400)]


def audit(quick: bool = False, python: str | None = None) -> PeerResult:
    res = PeerResult(PEER.name, functions=[F_HOM, F_HET])
    if not start_in_own_venv(res, python, "snsql", PEER.dist, "it pins an older opendp"):
        return res
    res.notes.append("k rounds of (eps, delta)-DP, tol = delta/2: (a) KOV15 Thm 3.4/3.5 as cited, (b) the exact "
                     "optimal delta (KOV15 Thm 3.3) at the reported epsilon" + (f"; run in {python}" if python else ""))
    cases = CASES[:3] if quick else CASES
    calls = [[kind, float(e), float(d), k] for kind in ("hom", "het") for e, d, k in cases]
    try:
        answers = peer_calls(python, __name__ + ".calls", [("spent", c) for c in calls], strict=True)
    except Exception as e:  # noqa: BLE001
        return PeerResult(PEER.name, version=res.version, status="error", reason=f"{type(e).__name__}: {str(e)[:200]}")
    for (kind, eps_f, delta_f, k), (pe, pd) in zip(calls, answers):
        res.comparisons += _judge(kind, eps_f, delta_f, k, pe, pd)
    return res


def _judge(kind: str, eps_f: float, delta_f: float, k: int, pe: float, pd: float) -> list[Comparison]:
    from dpbounds.evaluation.evaluate import enclose
    fn = F_HOM if kind == "hom" else F_HET
    eps, delta = Fraction(eps_f), Fraction(delta_f)
    tol = delta / 2 if delta else Fraction(1, 10**15)
    inputs = {"eps": repr(eps_f), "delta": repr(delta_f), "k": str(k), "tol (delta-tilde)": f"{float(tol)!r}"}
    call = (f"o = Odometer(Privacy(epsilon={eps_f!r}, delta={delta_f!r})); o.spend({k})" if kind == "hom" else
            f"o = OdometerHeterogeneous(Privacy(epsilon={eps_f!r}, delta={delta_f!r}))\n"
            f"for _ in range({k}): o.spend()")
    repro = ("from snsql.sql.privacy import Privacy\nfrom snsql.sql.odometer import Odometer, OdometerHeterogeneous\n"
             f"{call}\nprint(o.spent)  # (epsilon, delta)\n"
             "from fractions import Fraction as F; import dpbounds\n"
             f"e = dpbounds.enclose('conversions.kov15.heterogeneous', {{'dhat': F({float(tol)!r})}}, "
             f"eps=[F({eps_f!r})] * {k}); print('KOV15 Thm 3.4 eps', float(e.lo), float(e.hi))\n"
             f"print('KOV15 delta', 1 - (1 - F({delta_f!r})) ** {k} * (1 - F({float(tol)!r})))\n")
    out = []
    try:
        fe = enclose("conversions.kov15.heterogeneous", {"dhat": tol}, eps=[eps] * k, rel_tol=1e-25)
        keep = (1 - delta) ** k
        fd = 1 - keep * (1 - tol)
        pe_q = Fraction(pe)
        dk = enclose("conversions.kov15.exact", {"eps": eps, "k": k, "eps_g": pe_q}, rel_tol=1e-25)
        t_lo, t_hi = 1 - keep * (1 - max(dk.lo, Fraction(0))), 1 - keep * (1 - max(dk.hi, Fraction(0)))
    except Exception as e:  # noqa: BLE001
        return [error_comparison(PEER.name, fn, "k-fold composition", inputs, e, repro)]
    a_e = dict(reference="conversions.kov15.heterogeneous", description="KOV15 Thm 3.4/3.5 epsilon with "
               "delta-tilde = tol (the theorem the odometer cites)")
    out.append(Comparison(PEER.name, fn, "k-fold (eps, delta)-DP: epsilon spent", dict(inputs), peer_value=pe,
                          formula=judge_upper(pe, fe.lo, fe.hi, role="formula", **a_e), reproducer=repro))
    out.append(Comparison(
        PEER.name, fn, "k-fold (eps, delta)-DP: delta spent", {**inputs, "at epsilon": repr(pe)}, peer_value=pd,
        formula=judge_upper(pd, fd, fd, role="formula", reference="KOV15 Thm 3.4 delta",
                            description="1 - (1 - delta)^k (1 - tol), exact rational"),
        truth=judge_upper(pd, t_lo, t_hi, role="truth", reference="conversions.kov15.exact",
                          description="the exact optimal delta of k-fold (eps, delta)-DP at the reported epsilon "
                          "(KOV15 Thm 3.3)"),
        reproducer=repro))
    return out
