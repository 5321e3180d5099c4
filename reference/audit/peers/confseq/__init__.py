"""confseq (Howard et al.'s own implementation): ``boundaries.poly_stitching_bound`` against ``howard.stitching``
(HRMS21 Theorem 1 with polynomial stitching, the boundary confseq implements), certified.  PyPI has no wheel:
confseq 0.0.11 builds a C++ extension against the Boost headers (its `Peer.install`); in its own venv it runs
with ``--python confseq=PATH`` like every other peer."""

from __future__ import annotations

from typing import Any

from dpbounds.testing.declarations import Peer
from .._common import decl

PEER = Peer(
    "confseq",
    dist="confseq",
    module="confseq",
    install="not installed; PyPI has no wheel for confseq (0.0.11 is a source distribution: a C++ extension that "
        "needs the Boost C++ headers >= 1.70, pybind11, cmake and scikit-build): apt-get install "
        "libboost-dev && pip install pybind11 scikit-build cmake ninja && pip install "
        "--no-build-isolation confseq (in its own venv, then --python confseq=PATH)",
)
#: checked 2026-11-23 with pip download: PyPI has only the sdist confseq-0.0.11.tar.gz, whose
#: src/confseq/uniform_boundaries.h includes boost/math/... and whose CMakeLists.txt needs find_package(Boost 1.70)
HRMS21 = ("Howard, Ramdas, McAuliffe, Sekhon 2021, Ann. Statist. 49(2), arXiv:1810.08240, Thm 1 with polynomial "
          "stitching (the example after it)")


def stitching(V: Any, delta: Any, s: Any, eta: Any) -> Any:
    """HRMS21 Theorem 1 with polynomial stitching at m = v0 = 1 (``howard.stitching``), certified."""
    from .._refs import _TOL
    from dpbounds.evaluation.evaluate import enclose
    return enclose("howard.stitching", {"delta": delta, "v0": 1, "s": s, "eta": eta}, aggregates={"V": V},
                   rel_tol=_TOL)


stitching.ref_id = "howard.stitching"  # type: ignore[attr-defined]


def declarations():
    grid = tuple({"V": v, "delta": a, "s": s, "eta": e} for v in (1.0, 10.0, 1000.0, 1e6) for a in (0.05, 1e-6)
                 for s, e in ((1.4, 2.0), (2.0, 3.0)))
    return [decl(PEER.name, "confseq.boundaries.poly_stitching_bound", __name__ + ".calls:poly_stitching_bound", stitching,
                 {"V": (1.0, 1e12), "delta": (1e-12, 0.5), "s": (1.05, 4.0), "eta": (1.1, 10.0)}, examples=grid,
                 cites=HRMS21, against="cited", check="polynomial stitching boundary u(V)")]
