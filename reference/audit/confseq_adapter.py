"""confseq (Howard et al.'s own implementation): normal_mixture_bound and poly_stitching_bound against the
howard.* spec entries.  confseq needs a C++ build: apt-get install libboost-dev; pip install pybind11
scikit-build cmake ninja; pip install --no-build-isolation confseq."""

from __future__ import annotations

from fractions import Fraction

from .common import Comparison, PeerResult, available, classify_upper

PEER = "confseq"


def audit(quick: bool = False) -> PeerResult:
    res = PeerResult(PEER)
    if not available("confseq"):
        res.notes.append("confseq: skipped (not installed; it builds from source: apt-get install libboost-dev && "
                         "pip install pybind11 && pip install --no-build-isolation confseq)")
        return res
    from confseq import boundaries

    from dpbounds.evaluation.evaluate import enclose
    res.notes.append("confseq: poly_stitching_bound(v, alpha, v_min, c=0, s, eta) vs howard.stitching")
    for v in ("1", "10", "1000", "1000000"):
        for alpha in ("0.05", "1e-6"):
            for s_, eta in (("1.4", "2"), ("2", "3")):
                inputs = {"V": v, "delta": alpha, "v0": "1", "s": s_, "eta": eta}
                try:
                    pv = float(boundaries.poly_stitching_bound(float(v), float(alpha), 1.0, c=0.0, s=float(s_),
                                                               eta=float(eta)))
                except Exception as e:  # noqa: BLE001
                    res.comparisons.append(Comparison(PEER, "poly_stitching_bound", inputs, "", "", "error",
                                                      str(e)[:160]))
                    continue
                enc = enclose("howard.stitching", {k: inputs[k] for k in ("delta", "v0", "s", "eta")},
                              aggregates={"V": v}, rel_tol=1e-20)
                verdict, detail = classify_upper(pv, enc.lo, enc.hi, tol=1e-9)
                res.comparisons.append(Comparison(PEER, "poly_stitching_bound vs howard.stitching", inputs, repr(pv),
                                                  f"[{float(enc.lo):.17g}, {float(enc.hi):.17g}]", verdict, detail))
    return res
