"""Google dp_accounting: ``rdp.compute_epsilon`` on zCDP curves against (a) the conversion it implements at the
order it chose (CKS20 Prop. 12 = Balle et al. 2020 Thm 21, at that alpha) and (b) the continuous CKS20 optimum
and the exact Gaussian curve; its PLD accountant on k-fold pure eps-DP against the exact optimal composition
(KOV15 Theorem 3.3)."""

from __future__ import annotations

from fractions import Fraction

from dpbounds.audit.common import Comparison, PeerResult, available, error_comparison, judge_upper

PEER = "dp_accounting"
DIST = "dp-accounting"
RHOS = ["0.0001", "0.01", "0.1", "1", "10"]
DELTAS = ["1e-10", "1e-6", "0.001"]
F_RDP = "dp_accounting.rdp.rdp_privacy_accountant.compute_epsilon"
F_PLD = "dp_accounting.pld.pld_privacy_accountant.PLDAccountant(REPLACE_ONE).compose + get_delta"
ORDERS = [1 + x / 10.0 for x in range(1, 100)] + list(range(12, 64)) + [128, 256, 512]


def audit(quick: bool = False) -> PeerResult:
    res = PeerResult(PEER, functions=[F_RDP, F_PLD])
    if not available("dp_accounting"):
        return res.skip("not installed; pip install 'dpbounds[audit]'")
    from dp_accounting.rdp import rdp_privacy_accountant as rdp

    from dpbounds.accounting.conversions import eps_of
    res.notes.append(f"compute_epsilon(orders, alpha*rho, delta) with {len(ORDERS)} orders from 1.1 to 512 (the "
                     "orders of dp_accounting's own RdpAccountant default grid extended): (a) CKS20 at the order it "
                     "returned, (b) the continuous CKS20 optimum; PLD accountant on k-fold pure DP vs KOV15's "
                     "exact optimum")
    for rho_s in (RHOS[1:4] if quick else RHOS):
        rho = float(rho_s)
        for d in DELTAS:
            inputs = {"rho": rho_s, "delta": d}
            repro = ("from dp_accounting.rdp import rdp_privacy_accountant as rdp\n"
                     f"orders = {ORDERS!r}\n"
                     f"print(rdp.compute_epsilon(orders, [a * {rho!r} for a in orders], {float(d)!r}))\n"
                     "import dpbounds\n"
                     f"e = dpbounds.eps_of('{rho_s}', '{d}', 'cks20'); print(float(e.lo), float(e.hi))\n")
            try:
                pe, order = rdp.compute_epsilon(ORDERS, [a * rho for a in ORDERS], float(d))
                pe = float(pe)
            except Exception as e:  # noqa: BLE001
                res.comparisons.append(error_comparison(PEER, F_RDP, "epsilon(delta)", inputs, e, repro))
                continue
            # the curve the peer was given is alpha * float(rho); its exact rational value is the audited input
            rho_q = Fraction(rho)
            a_id = f"conversions.cks20 at alpha = {order}"
            fa = _cks20_at(rho_q, Fraction(d), Fraction(order))
            b = eps_of(rho_q, Fraction(d), "cks20")
            edge = " (the grid's largest order: the optimum lies beyond the grid)" if order == ORDERS[-1] else ""
            c = Comparison(
                PEER, F_RDP, f"zCDP -> (eps, delta): epsilon(delta), best order {order}{edge}", inputs,
                peer_value=pe,
                formula=judge_upper(pe, fa[0], fa[1], role="formula", reference=a_id,
                                    description="CKS20 Prop. 12 at the order dp_accounting returned (what it computes)"),
                truth=judge_upper(pe, b.lo, b.hi, role="truth", reference="conversions.cks20",
                                  description="the continuous CKS20 optimum over alpha (certified)"),
                reproducer=repro)
            res.comparisons.append(c)
    res.comparisons += _pld(quick)
    return res


def _cks20_at(rho: Fraction, delta: Fraction, alpha: Fraction) -> tuple[Fraction, Fraction]:
    """Certified enclosure of CKS20's eps at one order alpha (clamped at 0), via the spec's expression."""
    from dpbounds.evaluation.evaluate import enclose
    from dpbounds.spec import get
    e = get("conversions.cks20")
    var = e.optimize.var if e.optimize else "alpha"
    enc = enclose("conversions.cks20", {"rho": rho, "delta": delta, var: alpha}, rel_tol=Fraction(1, 10**20))
    return max(enc.lo, Fraction(0)), max(enc.hi, Fraction(0))


def _rr_eps_enclosure(p: float) -> tuple[Fraction, Fraction]:
    """Rational bounds on the eps of binary randomized response with dp_accounting's noise_parameter p:
    P(truth) = 1 - p/2, so eps = log(2/p - 1) (p is the float the peer was given)."""
    import mpmath
    ctx = mpmath.MPContext()
    ctx.dps = 60
    v = ctx.log(2 / ctx.mpf(Fraction(p).numerator) * Fraction(p).denominator - 1)
    q = Fraction(ctx.nstr(v, 55, min_fixed=-10**6, max_fixed=10**6))
    pad = abs(q) / 10**45 + Fraction(1, 10**60)
    return q - pad, q + pad


def _pld(quick: bool) -> list[Comparison]:
    from dp_accounting import dp_event
    from dp_accounting.pld import pld_privacy_accountant as pldacc

    from dpbounds.evaluation.evaluate import enclose
    out = []
    # binary randomized response with noise_parameter p is pure eps-DP with eps = log(2/p - 1), and its k-fold
    # composition is the worst case of k-fold eps-DP (KOV15): its delta(eps_g) is exactly conversions.kov15.exact
    cases = [("0.5", 10, "1"), ("0.5", 10, "2"), ("0.9", 50, "1"), ("0.2", 4, "2"), ("0.95", 100, "1"),
             ("0.1", 3, "4"), ("0.8", 20, "1.5"), ("0.98", 400, "0.5"), ("0.7", 12, "2"), ("0.9", 100, "2")]
    for p_s, k, eps_g in (cases[:6] if quick else cases):
        p = float(p_s)
        e_lo, e_hi = _rr_eps_enclosure(p)
        q = {"k": k, "eps_g": Fraction(eps_g)}
        lo = enclose("conversions.kov15.exact", {**q, "eps": e_lo}, rel_tol=Fraction(1, 10**20)).lo
        hi = enclose("conversions.kov15.exact", {**q, "eps": e_hi}, rel_tol=Fraction(1, 10**20)).hi
        lo, hi = max(lo, Fraction(0)), max(hi, Fraction(0))  # delta is increasing in eps: [lo, hi] holds it
        for how, call in ((f"compose(event, count={k})", f"acc.compose(ev, {k})"),
                          (f"compose(ComposedDpEvent([event] * {k}))",
                           f"acc.compose(dp_event.ComposedDpEvent([ev] * {k}))")):
            inputs = {"noise_parameter": p_s, "num_buckets": "2", "k": str(k), "eps_g": eps_g,
                      "eps": f"{float(e_lo):.17g}", "composed_as": how}
            repro = ("from dp_accounting import dp_event\n"
                     "from dp_accounting.pld import pld_privacy_accountant as pldacc\n"
                     "from dp_accounting.privacy_accountant import NeighboringRelation\n"
                     "acc = pldacc.PLDAccountant(NeighboringRelation.REPLACE_ONE)\n"
                     f"ev = dp_event.RandomizedResponseDpEvent({p!r}, 2)  # pure eps-DP, eps = log(2/p - 1)\n"
                     f"{call}\n"
                     f"print(acc.get_delta({float(eps_g)!r}))  # dp_accounting's delta for {k}-fold composition\n"
                     "# the exact value: k-fold eps-RR (KOV15 Thm 3.3)\n"
                     "import math, dpbounds\n"
                     f"e = dpbounds.enclose('conversions.kov15.exact', {{'eps': math.log(2 / {p!r} - 1), 'k': {k}, "
                     f"'eps_g': '{eps_g}'}})\n"
                     "print(float(e.lo), float(e.hi))\n")
            try:
                from dp_accounting.privacy_accountant import NeighboringRelation
                acc = pldacc.PLDAccountant(NeighboringRelation.REPLACE_ONE)
                ev = dp_event.RandomizedResponseDpEvent(p, 2)
                if how.startswith("compose(event"):
                    acc.compose(ev, k)
                else:
                    acc.compose(dp_event.ComposedDpEvent([ev] * k))
                pd = float(acc.get_delta(float(eps_g)))
            except Exception as e:  # noqa: BLE001
                out.append(error_comparison(PEER, F_PLD, "k-fold randomized response: delta(eps_g)", inputs, e, repro))
                continue
            j = dict(reference="conversions.kov15.exact",
                     description="the exact delta of k-fold eps-randomized response (KOV15 Thm 3.3)")
            out.append(Comparison(
                PEER, F_PLD, f"k-fold randomized response (pure eps-DP): delta(eps_g), {how}", inputs,
                peer_value=pd, formula=judge_upper(pd, lo, hi, role="formula", **j),
                truth=judge_upper(pd, lo, hi, role="truth", **j), reproducer=repro))
    return out
