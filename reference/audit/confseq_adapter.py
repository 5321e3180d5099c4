"""confseq (Howard et al.'s own implementation): ``boundaries.poly_stitching_bound`` against ``howard.stitching``
(HRMS21 Theorem 1, polynomial stitching), certified.  PyPI has no wheel: confseq builds a C++ extension against the
Boost headers (see :data:`NOT_INSTALLED`)."""

from __future__ import annotations

from dpbounds.audit.common import Comparison, PeerResult, available, error_comparison, judge_upper

PEER = "confseq"
DIST = "confseq"
F_STITCH = "confseq.boundaries.poly_stitching_bound"
#: checked 2026-11-23 with pip download: PyPI has only the sdist confseq-0.0.11.tar.gz, whose
#: src/confseq/uniform_boundaries.h includes boost/math/... and whose CMakeLists.txt needs find_package(Boost 1.70)
NOT_INSTALLED = ("not installed; PyPI has no wheel for confseq (0.0.11 is a source distribution: a C++ extension that "
                 "needs the Boost C++ headers >= 1.70, pybind11, cmake and scikit-build): apt-get install "
                 "libboost-dev && pip install pybind11 scikit-build cmake ninja && pip install "
                 "--no-build-isolation confseq")


def audit(quick: bool = False) -> PeerResult:
    res = PeerResult(PEER, functions=[F_STITCH])
    if not available("confseq"):
        return res.skip(NOT_INSTALLED)
    from confseq import boundaries

    from dpbounds.evaluation.evaluate import enclose
    res.notes.append("poly_stitching_bound(v, alpha, v_min, c=0, s, eta) vs howard.stitching")
    for v in ("1", "10", "1000", "1000000"):
        for alpha in ("0.05", "1e-6"):
            for s_, eta in (("1.4", "2"), ("2", "3")):
                inputs = {"V": v, "delta": alpha, "v0": "1", "s": s_, "eta": eta}
                repro = ("from confseq import boundaries\n"
                         f"print(boundaries.poly_stitching_bound({float(v)!r}, {float(alpha)!r}, 1.0, c=0.0, "
                         f"s={float(s_)!r}, eta={float(eta)!r}))\n"
                         "import dpbounds\n"
                         f"e = dpbounds.enclose('howard.stitching', {{'delta': '{alpha}', 'v0': '1', 's': '{s_}', "
                         f"'eta': '{eta}'}}, aggregates={{'V': '{v}'}}); print(float(e.lo), float(e.hi))\n")
                try:
                    pv = float(boundaries.poly_stitching_bound(float(v), float(alpha), 1.0, c=0.0, s=float(s_),
                                                               eta=float(eta)))
                except Exception as e:  # noqa: BLE001
                    res.comparisons.append(error_comparison(PEER, F_STITCH, "stitching boundary", inputs, e, repro))
                    continue
                enc = enclose("howard.stitching", {k: inputs[k] for k in ("delta", "v0", "s", "eta")},
                              aggregates={"V": v}, rel_tol=1e-20)
                res.comparisons.append(Comparison(
                    PEER, F_STITCH, "polynomial stitching boundary u(V)", inputs, peer_value=pv,
                    formula=judge_upper(pv, enc.lo, enc.hi, role="formula", reference="howard.stitching",
                                        description="HRMS21 Theorem 1 with polynomial stitching (the boundary "
                                        "confseq implements), certified"), reproducer=repro))
    return res
