"""Evaluate registry entries at extreme-but-valid points; run as a script under resource limits by
tests/test_extreme_values.py (``python -m tests.extreme_points ID ...``).

For each entry: its sample point, then each parameter and aggregate in turn pushed to 1e-1000, 1e-300, 4e9, 1e308
and 1e1000 (the others at the sample point); points outside the entry's domain are skipped (DomainError before
any work).  Each point is evaluated as ``dpbounds eval`` does (:func:`dpbounds.evaluate`, 30 digits); a filter
entry is also run as a filter (its budget at the sample point, one round at the extreme cost).  Every call must
return or raise the documented refusal (DomainError, CertificationError); anything else -- or the process dying
on its memory/CPU limit -- is a failure.  Prints one line per problem and ``checked N`` at the end."""

from __future__ import annotations

import sys
import warnings

EXTREMES = ("1e-1000", "1e-300", "4e9", "1e308", "1e1000")
# an integer parameter takes the extreme integers instead (an exact integer is parsed at any size <= 1e1000)
INT_EXTREMES = ("4000000000", "10" + "0" * 307, "1" + "0" * 1000)


def points(entry):
    base = {k: v for k, v in entry.sample_point().items()}
    yield "sample", base
    for name in list(base):
        ints = base[name].isdigit()
        for x in (INT_EXTREMES if ints else EXTREMES):
            pt = dict(base)
            pt[name] = x
            yield f"{name}={x[:8]}", pt


def main(ids: list[str]) -> int:
    import dpbounds
    from dpbounds import spec
    from dpbounds.evaluation.enclosure import CertificationError
    warnings.simplefilter("ignore")
    ok = (spec.DomainError, CertificationError)
    bad = checked = 0
    for eid in ids:
        e = spec.get(eid)
        for label, pt in points(e):
            checked += 1
            try:
                dpbounds.evaluate(eid, pt, digits=30)
            except ok:
                pass
            except Exception as exc:  # noqa: BLE001 - the point of the script
                bad += 1
                print(f"FAIL {eid} {label}: evaluate raised {type(exc).__name__}: {str(exc)[:200]}", flush=True)
            if e.halt is not None and label == "sample":
                for cost in EXTREMES:
                    checked += 1
                    for kw in ("eps", "rho"):
                        try:
                            f = dpbounds.make_filter(eid, **{k: v for k, v in pt.items() if k in e.params})
                            d = f.try_spend(**{kw: cost})
                        except ok + (TypeError,):
                            continue
                        except Exception as exc:  # noqa: BLE001
                            bad += 1
                            print(f"FAIL {eid} filter {kw}={cost}: {type(exc).__name__}: {str(exc)[:200]}",
                                  flush=True)
                            continue
                        if float(cost) >= 4e9 and d != dpbounds.Decision.HALT:  # budgets of the sample point: ~1
                            bad += 1
                            print(f"FAIL {eid} filter {kw}={cost}: {d} on a round beyond the whole budget", flush=True)
    print(f"checked {checked}", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
