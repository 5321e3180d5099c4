import sys, os, math
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "reference", "audit", "peers")); import _truth as T
import mpmath as mp
from run_peer import run
calls=[]; info=[]
for q in [1.0, 0.1, 0.01]:
    for sigma in [0.7, 1.0, 2.0]:
        for alpha in [1.5, 2, 3, 8, 32]:
            calls.append(("dp_accelerator_calls:epsilon_at_order", dict(q=q, sigma=sigma, k=1, alpha=alpha, delta=1e-5)))
            info.append((q,sigma,alpha))
res = run("dp_accelerator", calls)
for (c,k),r,(q,s,a) in zip(calls,res,info):
    v=r.get("value", r)
    R = T.sgm_rdp(q,s,a)
    mir = T.mironov_eps(a,R,1e-5); cks=T.cks20_eps(a,R,1e-5)
    print(k, v, 'R', mp.nstr(R,10), 'mir', mp.nstr(mir,12), 'cks', mp.nstr(cks,12), 'UNSOUND' if isinstance(v,float) and v<cks else '')
