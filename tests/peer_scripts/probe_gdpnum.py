import sys, os, math
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import mpmath as mp
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "reference", "audit", "peers")); import _truth as T
from run_peer import run
calls=[]; truth=[]
# q = 1: k-fold Gaussian is exactly mu-GDP with mu = sqrt(k)/sigma
for sigma in [0.5, 1, 2, 5]:
    for k in [1, 10, 100]:
        mu = math.sqrt(k)/sigma
        calls.append(("gdpnum_calls:mu_for_dpsgd", dict(q=1.0, sigma=sigma, k=k))); truth.append(mp.sqrt(k)/sigma)
        for d in [1e-5, 1e-8]:
            calls.append(("gdpnum_calls:ctd_epsilon", dict(q=1.0, sigma=sigma, k=k, delta=d))); truth.append(T.gauss_eps(mu, d))
        for fpr in [1e-4, 0.1]:
            calls.append(("gdpnum_calls:ctd_beta", dict(q=1.0, sigma=sigma, k=k, fpr=fpr))); truth.append(-T.tradeoff_gdp(mu, fpr))
res = run("gdpnum", calls)
for (c,k),r,t in zip(calls,res,truth):
    v=r.get("value", r)
    if isinstance(v,float):
        if t < 0: flag = "UNSOUND" if v > -t else ""; t=-t
        else: flag = "UNSOUND" if v < t else ""
    else: flag="ERR"
    print(c.split(':')[1], k, v, mp.nstr(t,17), flag)
