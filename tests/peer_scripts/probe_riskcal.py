import sys, os
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import mpmath as mp
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "reference", "audit", "peers")); import _truth as T
from run_peer import run
calls=[]; truth=[]
for mu in [0.1, 0.5, 1, 2, 5, 10]:
    for fpr in [1e-9, 1e-4, 0.01, 0.1, 0.5, 0.9]:
        calls.append(("riskcal_calls:beta_from_gdp", dict(mu=mu, fpr=fpr))); truth.append(T.tradeoff_gdp(mu, fpr))
for e,d in [(0.5,1e-5),(1,1e-3),(3,1e-6)]:
    for fpr in [1e-4, 0.01, 0.3]:
        calls.append(("riskcal_calls:beta_from_adp", dict(eps=e, delta=d, fpr=fpr))); truth.append(T.tradeoff_dp(e,d,fpr))
res = run("riskcal", calls)
for (c,k),r,t in zip(calls,res,truth):
    v=r.get("value"); 
    flag = "UNSOUND" if isinstance(v,float) and v> t else ""
    print(c.split(':')[1], k, v, mp.nstr(t,17), flag)
