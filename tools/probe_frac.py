"""Fractional-order subsampled-Gaussian RDP of opacus / dp_accounting / autodp against the quadrature of the
defining integral (``_truth.sgm_rdp``)."""
import sys, os
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "reference", "audit", "peers"))
import _truth as T  # noqa: E402
import mpmath as mp
from run_peer import run
pts = [(q, s, a) for q in [0.001, 0.01, 0.1, 0.5] for s in [0.5, 0.8, 1.0, 2.0, 5.0]
       for a in [1.25, 1.5, 2.5, 4.5, 10.5, 20.5]]
which = sys.argv[1]
call = {"opacus": "dpbounds.audit.peers.opacus.calls:compute_rdp",
        "dp_accounting": "dpbounds.audit.peers.dp_accounting.calls:rdp_at_order",
        "autodp": "dpbounds.audit.peers.autodp.calls:rdp"}[which]
res = run(which, [(call, {"q": q, "sigma": s, "alpha": a}) for q, s, a in pts])
for (q, s, a), r in zip(pts, res):
    v = r.get("value")
    t = T.sgm_rdp(q, s, a)
    if isinstance(v, float):
        gap = (t - v) / t
        print(which, q, s, a, v, mp.nstr(t, 17), "UNDER" if gap > 0 else "ok", mp.nstr(gap, 3), flush=True)
    else:
        print(which, q, s, a, r)
