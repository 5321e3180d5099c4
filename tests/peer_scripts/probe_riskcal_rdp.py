import sys, os
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import mpmath as mp
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "reference", "audit", "peers")); import _truth as T
from run_peer import run
calls=[]; truth=[]
for order in [1.5, 2, 8, 32]:
    for rdp in [0.01, 0.1, 1, 5]:
        for fpr in [1e-6, 1e-3, 0.05, 0.3, 0.7]:
            calls.append(("riskcal_calls:beta_from_rdp", dict(order=order, rdp=rdp, fpr=fpr))); truth.append(T.tradeoff_rdp(order, rdp, fpr))
res = run("riskcal", calls)
n=0
for (c,k),r,t in zip(calls,res,truth):
    v=r.get("value", r)
    flag = "UNSOUND" if isinstance(v,float) and v> t else ""
    if flag: n+=1
    print(c.split(':')[1], k, v, mp.nstr(t,17), flag, mp.nstr((v-t)/t if isinstance(v,float) and t else 0, 3))
print("unsound", n, "of", len(calls))
