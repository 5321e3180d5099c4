"""The report's figures (matplotlib, PNG).  delta = 1e-6 unless a figure says otherwise.

Every curve is computed from the spec through the evaluators (the sound fast path for dense curves, certified
decisions for round counts); nothing is restated here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import numpy as np

DELTA = "1e-6"


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _save(fig, out: Path, name: str) -> str:
    from dpbounds.util.io import atomic_write_bytes
    import io
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight", metadata={"Software": None})
    atomic_write_bytes(out / "figures" / name, buf.getvalue())
    _plt().close(fig)
    return f"figures/{name}"


def fig_lower_order_terms(out: Path) -> tuple[str, str]:
    from dpbounds.evaluation.evaluate import fast_upper
    plt = _plt()
    eps = np.logspace(-3, 0.5, 300)
    zero = np.zeros_like(eps)
    kov = fast_upper("aggregate.KOV", eps=eps, delta=zero)
    rruv = fast_upper("aggregate.A", eps=eps, delta=zero)
    zcdp = fast_upper("aggregate.V", eps=eps, delta=zero) / 2
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    ax.loglog(eps, kov, label=r"advanced composition (KOV15): $\epsilon\,\frac{e^\epsilon-1}{e^\epsilon+1}$")
    ax.loglog(eps, zcdp, "--", label=r"WRRW23 filter: $\epsilon^2/2$")
    ax.loglog(eps, rruv, ":", label=r"RRUV16 Thm 5.1: $\epsilon\,(e^\epsilon-1)/2$")
    ax.set_xlabel(r"per-round $\epsilon$")
    ax.set_ylabel("lower-order term per round")
    ax.legend(fontsize=8)
    ax.set_title("Lower-order terms (WRRW23 Fig. 1a)")
    return _save(fig, out, "fig1a_lower_order_terms.png"), ("WRRW23 Fig. 1a: the per-round lower-order (mean) term "
                                                           "of advanced composition, of the WRRW23 filter and of "
                                                           "RRUV16's filter.")


def _odometer_curves(V: np.ndarray) -> dict[str, np.ndarray]:
    from dpbounds.evaluation.evaluate import fast_upper
    zero = np.zeros_like(V)
    curves = {}
    for eps_g in ("0.5", "1", "2"):
        curves[f"filter odometer, target eps={eps_g}"] = fast_upper(
            "wrrw23.thm3.filter", eps_g=float(eps_g), delta_prime=float(DELTA), delta_dprime=float(DELTA), V=V, D=zero)
    for gamma in ("0.01", "1"):
        curves[f"mixture, gamma={gamma}"] = fast_upper(
            "wrrw23.thm3.mixture", gamma=float(gamma), delta_prime=float(DELTA), delta_dprime=float(DELTA), V=V, D=zero)
    curves["stitched, v0=0.01"] = fast_upper(
        "wrrw23.thm3.stitched", v0=0.01, delta_prime=float(DELTA), delta_dprime=float(DELTA), V=V, D=zero)
    return curves


def _advanced_curve(V: np.ndarray) -> np.ndarray:
    from dpbounds.evaluation.evaluate import fast_upper
    # the WRRW23 Thm 2 statistic sqrt(2 V log(1/delta')) + V/2 is pointwise advanced composition
    return fast_upper("wrrw23.thm2", eps_g=1.0, delta_prime=float(DELTA), delta_dprime=0.0, V=V, D=np.zeros_like(V))


def fig_odometer_families(out: Path) -> tuple[str, str]:
    plt = _plt()
    V = np.logspace(-3, 3, 400)
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for label, y in _odometer_curves(V).items():
        ax.loglog(V, np.where(np.isfinite(y), y, np.nan), label=label)
    ax.loglog(V, _advanced_curve(V), "k--", lw=1, label=r"pointwise advanced composition $\sqrt{2VL}+V/2$")
    ax.set_xlabel(r"intrinsic time $V_n=\sum \epsilon_m^2$")
    ax.set_ylabel("odometer value")
    ax.legend(fontsize=7)
    ax.set_title(r"WRRW23 odometer families ($\delta'=10^{-6}$)")
    return _save(fig, out, "fig2_odometer_families.png"), ("WRRW23 Fig. 2: the filter, mixture and stitched "
                                                          "odometers against pointwise advanced composition.")


def fig_odometers_vs_rruv(out: Path) -> tuple[str, str]:
    from dpbounds.evaluation.evaluate import fast_upper
    plt = _plt()
    eps = 0.01
    k = np.unique(np.logspace(0, 7, 300).astype(np.int64)).astype(float)
    V = k * eps**2
    A = k * fast_upper("aggregate.A", eps=np.array([eps]), delta=np.array([0.0]))[0]
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    curves = _odometer_curves(V)
    for label in ("mixture, gamma=0.01", "stitched, v0=0.01"):
        y = curves[label]
        ax.loglog(V, np.where(np.isfinite(y), y, np.nan), label=f"WRRW23 {label}")
    try:
        y = fast_upper("rruv16.thm6_5", delta_g=float(DELTA), n=1e6, A=A, V=V)
        ax.loglog(V, y, label="RRUV16 Thm 6.5 (n = 10^6)")
    except Exception:  # noqa: BLE001 - draw what exists
        pass
    y = fast_upper("rruv16.lemma6_4", x=0.01, delta_g=float(DELTA), A=A, V=V)
    ax.loglog(V, y, label="RRUV16 Lemma 6.4 (x = 0.01)")
    ax.loglog(V, _advanced_curve(V), "k--", lw=1, label="pointwise advanced composition")
    ax.set_xlabel(r"$V_n$ (homogeneous $\epsilon=0.01$)")
    ax.set_ylabel("odometer value")
    ax.legend(fontsize=7)
    ax.set_title("New odometers vs RRUV16 (WRRW23 Fig. 3)")
    return _save(fig, out, "fig3_odometers_vs_rruv.png"), ("WRRW23 Fig. 3: the new odometers against RRUV16's "
                                                          "(Thm 6.5 / Lemma 6.4) and pointwise advanced composition.")


def fig_filters_rounds(out: Path) -> tuple[str, str]:
    from dpbounds.outputs.compare import filter_lineup, rounds_allowed, rounds_allowed_optimal
    plt = _plt()
    eps_list = ["0.003", "0.01", "0.03", "0.1", "0.3"]
    lineup = filter_lineup("1", DELTA)
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    x = [float(e) for e in eps_list]
    for label, fid, budget in lineup:
        ax.loglog(x, [max(rounds_allowed(fid, budget, e), 0.5) for e in eps_list], "o-", label=label)
    ax.loglog(x, [max(rounds_allowed_optimal(e, "1", DELTA), 0.5) for e in eps_list], "k--",
              label="exact optimum, fixed params (KOV15)")
    ax.set_xlabel(r"per-round $\epsilon$")
    ax.set_ylabel("rounds allowed")
    ax.legend(fontsize=7)
    ax.set_title(r"Filters side by side at $(\epsilon_g,\delta_g)=(1,10^{-6})$")
    return _save(fig, out, "fig_filters_rounds.png"), ("Homogeneous rounds each filter allows at budget "
                                                      "(1, 1e-6), and the exact optimum for fixed parameters.")


def fig_bstar(out: Path) -> tuple[str, str]:
    from dpbounds.accounting.conversions import b_star
    plt = _plt()
    eps_g = np.logspace(-2, 1, 25)
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for conv, style in (("bs16", "-"), ("cks20", "--"), ("gauss", ":")):
        ys = [float(b_star(f"{e:.6g}", DELTA, conv).b_star) for e in eps_g]
        ax.loglog(eps_g, ys, style, label=conv + (" (limit, not a valid conversion)" if conv == "gauss" else ""))
    ax.set_xlabel(r"$\epsilon_g$")
    ax.set_ylabel(r"$B^*$ (zCDP budget)")
    ax.legend(fontsize=8)
    ax.set_title(r"$B^*(\epsilon_g, 10^{-6})$")
    return _save(fig, out, "fig_bstar.png"), ("B* against eps_g: BS16 closed form, CKS20 (certified root), and the "
                                             "Gaussian mechanism's exact curve (the limit).")


def fig_individual(out: Path) -> tuple[str, str]:
    from dpbounds.outputs.examples.private_gd import run_example
    plt = _plt()
    res = run_example()
    fig, axes = plt.subplots(1, 2, figsize=(9.6, 3.8))
    for name, r in res.items():
        steps = np.arange(1, len(r["active"]) + 1)
        axes[0].plot(steps, r["active"], label=name)
        axes[1].plot(steps, r["accuracy"], label=name)
    axes[0].set_xlabel("step")
    axes[0].set_ylabel("active points")
    axes[1].set_xlabel("step")
    axes[1].set_ylabel("accuracy")
    axes[0].legend(fontsize=8)
    fig.suptitle("FZ21: private GD with individual filtering (Alg. 8) vs without (Alg. 7)")
    return _save(fig, out, "fig_individual_filtering.png"), ("FZ21 individual filtering example: active points and "
                                                            "accuracy over steps, same (alpha, B).")


FIGURES: list[Callable[[Path], tuple[str, str]]] = [
    fig_lower_order_terms, fig_odometer_families, fig_odometers_vs_rruv, fig_filters_rounds, fig_bstar,
    fig_individual,
]


def make_figures(out: str | Path) -> list[tuple[str, str]]:
    """Draw every figure into out/figures; a figure that cannot be drawn is reported in its caption."""
    out = Path(out)
    made = []
    for fn in FIGURES:
        try:
            made.append(fn(out))
        except Exception as e:  # noqa: BLE001 - the report shows the failure
            made.append(("", f"{fn.__name__}: FAILED ({type(e).__name__}: {str(e)[:200]})"))
    return made
