"""High-precision references the contract's registry ids (issue 27) do not cover: Gaussian calibration, the
k-fold (eps, delta) composition, the exact q = 1 DP-SGD curves.  Each is a callable (**inputs) -> Enclosure from
``_truth`` at 60 significant digits, widened by a relative 1e-40 on each side (the derivations' own error is far
below that; this is NOT interval arithmetic -- a certified registry id replaces each one once it exists)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable

from . import _truth

_WIDEN = Fraction(1, 10**40)


def _enclose(ref_id: str) -> Callable[..., Any]:
    fn = _truth.TRUTH[ref_id]

    def reference(**inputs: Any):
        from dpbounds.evaluation.enclosure import Enclosure
        v = Fraction(str(fn(**inputs)))
        w = abs(v) * _WIDEN + Fraction(1, 10**200)
        return Enclosure(lo=v - w, hi=v + w, bits=130)
    reference.__name__ = ref_id.split(".")[-1] if ref_id.startswith("refs.") else ref_id.replace(".", "_")
    reference.__qualname__ = reference.__name__
    reference.ref_id = ref_id  # type: ignore[attr-defined]
    reference.__doc__ = (fn.__doc__ or "").strip().splitlines()[0] if fn.__doc__ else ref_id
    return reference


def enclose_truth(ref_id: str) -> Callable[..., Any]:
    """The interim reference for a registry id of issue 27 not yet in dpbounds (``_truth.TRUTH[ref_id]``), importable
    as ``_refs.<id with dots as underscores>`` (what a reproducer imports)."""
    name = ref_id.replace(".", "_")
    if name not in globals():
        globals()[name] = _enclose(ref_id)
    return globals()[name]


# the interim references, importable by name (reproducers): mechanisms_sgm_rdp, composition_sgm_eps, ...
for _id in _truth.TRUTH:
    if not _id.startswith("refs."):
        enclose_truth(_id)


gauss_sigma_min = _enclose("refs.gauss_sigma_min")
gauss_eps_of_sigma = _enclose("refs.gauss_eps_of_sigma")
laplace_scale_min = _enclose("refs.laplace_scale_min")
adv_comp_eps = _enclose("refs.adv_comp_eps")
sgm_tradeoff = _enclose("refs.sgm_tradeoff")
sgm_mu = _enclose("refs.sgm_mu")
zcdp_eps_cks20 = _enclose("refs.zcdp_eps_cks20")


def ref_id(reference: Any) -> str:
    """The id of a reference: the string itself, or a ``_refs`` callable's ``ref_id``."""
    return reference if isinstance(reference, str) else getattr(reference, "ref_id", repr(reference))
