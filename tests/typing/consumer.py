"""A program that uses every name in ``dpbounds.__all__`` as a user would; ``mypy --strict`` must accept it
(tests/test_types.py).  It is type-checked, not run (load_golden's file need not exist)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

import dpbounds

version: str = dpbounds.__version__

# the registry
entries: dict[str, dpbounds.SpecEntry] = dpbounds.registry()
entry: dpbounds.SpecEntry = dpbounds.get("rruv16.thm5_1")
filters: list[dpbounds.SpecEntry] = dpbounds.select(kind=dpbounds.Kind.FILTER, source="RRUV16")
checked: dict[str, Fraction] = entry.check_values({"eps_g": "1", "delta_g": Fraction(1, 10**6)})

# evaluation
ev: dpbounds.Evaluation = dpbounds.evaluate("rruv16.thm5_1", {"eps_g": "1", "delta_g": "1e-6"}, eps=["0.1"] * 20)
value: str = ev.value
ends: tuple[str, str] = ev.enclosure
record: dict[str, Any] = ev.as_dict()
enc: dpbounds.Enclosure = dpbounds.enclose("rruv16.lemma6_4", {"x": "0.01", "delta_g": "1e-6"}, eps=np.full(10, 1e-3))
up: float = enc.upper()
inside: bool = enc.contains(Fraction(1, 2))
V = np.linspace(0, 10, 11)
fu: np.ndarray = dpbounds.fast_upper("rruv16.lemma6_4", x=0.01, delta_g=1e-6, A=V / 2, V=V)
fl: np.ndarray = dpbounds.fast_lower("rruv16.lemma6_4", x=0.01, delta_g=1e-6, A=V / 2, V=V)
lo, hi = dpbounds.fast_interval("rruv16.lemma6_4", x=0.01, delta_g=1e-6, A=V / 2, V=V)

# conversions
e1: dpbounds.Enclosure = dpbounds.eps_of("0.01", "1e-6", "cks20")
d1: dpbounds.Enclosure = dpbounds.delta_of(Fraction(1, 100), 1.0, "bs16")
b: dpbounds.BStar = dpbounds.b_star("1", "1e-6", "cks20")
rho_star: Fraction = b.b_star

# accountants
f: dpbounds.Filter = dpbounds.make_filter("wrrw23.thm2", eps_g="1", delta_prime="1e-6", delta_dprime="0")
d: dpbounds.Decision = f.try_spend(0.05)
may_run: bool = d is dpbounds.Decision.CONT and bool(d)
stat: dpbounds.Enclosure = f.statistic()
state: dict[str, Any] = f.state()
again: dpbounds.Filter = dpbounds.Filter.from_state(state)
o = dpbounds.make_odometer("wrrw23.thm3.mixture", gamma="0.01", delta_prime="1e-6", delta_dprime="1e-6")
if isinstance(o, dpbounds.Odometer):
    bound: float = o.step(0.1)
m = dpbounds.MultiOrderRenyiFilter({2: "1", 4: "2"})
dm: dpbounds.Decision = m.try_spend({2: "0.1", 4: "0.2"})
r = dpbounds.RenyiOdometer("0.5")
rv: Fraction = r.step("0.3")
inf_ = dpbounds.IndividualFilter(5, 2, 1)
active: np.ndarray = inf_.step(np.full(5, 0.3))
iod = dpbounds.IndividualOdometer(5, "0.5")
values: np.ndarray = iod.step(np.full(5, 0.3))
igdp = dpbounds.IndividualGDPFilter(5, "1", "1e-6")
taking_part: np.ndarray = igdp.step(np.full(5, 0.01))
budget_B: Fraction = igdp.B

# DP-SGD calibration (certified enclosures of the smallest sigma / multiplier and of the largest k)
sig: dpbounds.Enclosure = dpbounds.calibrate_sgm("1", "1e-5", "0.01", 1000, relation="add_remove", sampling="poisson",
                                                 rel_tol=1e-3)
mult: dpbounds.Enclosure = dpbounds.calibrate_sgm_schedule("2", "1e-5", "0.01:1:500,0.02:1:300")
ks: dpbounds.Enclosure = dpbounds.calibrate_sgm_steps("1", "1e-5", "0.01", "1.1", relation="substitution")

# golden vectors
records: list[dict[str, Any]] = dpbounds.load_golden("vectors/bounds/rruv16.thm5_1.jsonl")

# errors
try:
    dpbounds.get("no.such.id")
except dpbounds.DomainError as err:
    param: str = err.param
except dpbounds.CertificationError:
    pass
warn_kind: type[Warning] = dpbounds.RefutedConstantWarning

# fast conversions (float64 bounds, scalars or arrays)
eu: float = dpbounds.eps_upper(0.1, 1e-6)
du: float = dpbounds.delta_upper(0.1, 1.0)
bl: float = dpbounds.b_star_lower(1.0, 1e-6)
