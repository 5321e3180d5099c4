"""The report's figures (matplotlib, SVG; no pyplot, so no global figure state).  delta = 1e-6 unless a figure
says otherwise.

Every curve is computed from the spec through the evaluators (the sound fast path for dense curves, certified
decisions for round counts); nothing is restated here.  A figure that illustrates a table of the report is drawn
from that table's own rows (same grid, same numbers): see :func:`fig_filters_rounds`, :func:`fig_bstar`,
:func:`fig_audit`.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Callable

import numpy as np
from dpbounds.accounting.conversions import b_star
from dpbounds.audit.common import UNSOUND
from dpbounds.audit.run import ratio_of
from dpbounds.evaluation.evaluate import fast_upper
from dpbounds.outputs.examples.private_gd import run_example
from dpbounds.util.io import atomic_write_bytes

DELTA = "1e-6"

#: one look for every figure: readable at the report's page width (about 1000 px wide)
RC = {"font.size": 11, "axes.titlesize": 12, "axes.labelsize": 11, "legend.fontsize": 9, "axes.grid": True,
      "grid.alpha": 0.3, "grid.linestyle": "-", "svg.hashsalt": "dpbounds", "svg.fonttype": "path",
      "lines.linewidth": 1.8, "lines.markersize": 5}
WIDTH = 9.6  # inches: 960 px at the SVG's 100 px per inch (matplotlib writes pt; the page scales to its width)


def _style():
    """A context with the report's rc settings (restored on exit)."""
    import matplotlib
    return matplotlib.rc_context(RC)


def _figure(ncols: int = 1, height: float = 4.8):
    from matplotlib.figure import Figure
    fig = Figure(figsize=(WIDTH, height), layout="constrained")
    axes = fig.subplots(1, ncols)
    return fig, axes


def _save(fig, out: Path, name: str) -> str:
    """Write the figure as DIR/figures/NAME.svg (atomically); returns the relative path."""
    buf = io.BytesIO()
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    atomic_write_bytes(out / "figures" / f"{name}.svg", buf.getvalue())
    return f"figures/{name}.svg"


def fig_lower_order_terms(out: Path) -> tuple[str, str]:
    eps = np.logspace(-3, 0.5, 300)
    zero = np.zeros_like(eps)
    kov = fast_upper("aggregate.KOV", eps=eps, delta=zero)
    rruv = fast_upper("aggregate.A", eps=eps, delta=zero)
    zcdp = fast_upper("aggregate.V", eps=eps, delta=zero) / 2
    fig, ax = _figure()
    ax.loglog(eps, kov, label=r"advanced composition (KOV15): $\epsilon\,\frac{e^\epsilon-1}{e^\epsilon+1}$")
    ax.loglog(eps, zcdp, "--", label=r"WRRW23 filter: $\epsilon^2/2$")
    ax.loglog(eps, rruv, ":", label=r"RRUV16 Thm 5.1: $\epsilon\,(e^\epsilon-1)/2$")
    ax.set_xlabel(r"per-round $\epsilon$ (log scale)")
    ax.set_ylabel("lower-order term per round (log scale)")
    ax.legend()
    ax.set_title("Lower-order terms (WRRW23 Fig. 1a)")
    return _save(fig, out, "fig1a_lower_order_terms"), (
        "WRRW23 Fig. 1a: the per-round lower-order (mean) term of advanced composition, of the WRRW23 filter and of "
        "RRUV16's filter, against the per-round epsilon.")


def _odometer_curves(V: np.ndarray) -> dict[str, np.ndarray]:
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
    # the WRRW23 Thm 2 statistic sqrt(2 V log(1/delta')) + V/2 is pointwise advanced composition
    return fast_upper("wrrw23.thm2", eps_g=1.0, delta_prime=float(DELTA), delta_dprime=0.0, V=V, D=np.zeros_like(V))


def fig_odometer_families(out: Path) -> tuple[str, str]:
    V = np.logspace(-3, 3, 400)
    fig, ax = _figure()
    for label, y in _odometer_curves(V).items():
        ax.loglog(V, np.where(np.isfinite(y), y, np.nan), label=label)
    ax.loglog(V, _advanced_curve(V), "k--", lw=1, label=r"pointwise advanced composition $\sqrt{2VL}+V/2$")
    ax.set_xlabel(r"intrinsic time $V_n=\sum \epsilon_m^2$ (log scale)")
    ax.set_ylabel("odometer value (log scale)")
    ax.legend()
    ax.set_title(r"WRRW23 odometer families ($\delta'=\delta''=10^{-6}$)")
    return _save(fig, out, "fig2_odometer_families"), (
        "WRRW23 Fig. 2: the filter, mixture and stitched odometers against pointwise advanced composition "
        "(L = log(1/delta')). A filter odometer is infinite past its target, so its curve ends there.")


def fig_odometers_vs_rruv(out: Path) -> tuple[str, str]:
    eps = 0.01
    k = np.unique(np.logspace(0, 7, 300).astype(np.int64)).astype(float)
    V = k * eps**2
    A = k * fast_upper("aggregate.A", eps=np.array([eps]), delta=np.array([0.0]))[0]
    fig, ax = _figure()
    curves = _odometer_curves(V)
    for label in ("mixture, gamma=0.01", "stitched, v0=0.01"):
        y = curves[label]
        ax.loglog(V, np.where(np.isfinite(y), y, np.nan), label=f"WRRW23 {label}")
    drawn = ""
    try:
        y = fast_upper("rruv16.thm6_5", delta_g=float(DELTA), n=1e6, A=A, V=V)
        ax.loglog(V, y, label="RRUV16 Thm 6.5 (n = 10^6)")
    except Exception as e:  # noqa: BLE001 - draw what exists, and say what is missing
        drawn = f" RRUV16 Thm 6.5 is not drawn ({type(e).__name__})."
    y = fast_upper("rruv16.lemma6_4", x=0.01, delta_g=float(DELTA), A=A, V=V)
    ax.loglog(V, y, label="RRUV16 Lemma 6.4 (x = 0.01)")
    ax.loglog(V, _advanced_curve(V), "k--", lw=1, label="pointwise advanced composition")
    ax.set_xlabel(r"$V_n$, homogeneous $\epsilon=0.01$ (log scale)")
    ax.set_ylabel("odometer value (log scale)")
    ax.legend()
    ax.set_title("New odometers vs RRUV16 (WRRW23 Fig. 3)")
    return _save(fig, out, "fig3_odometers_vs_rruv"), (
        "WRRW23 Fig. 3: the new odometers against RRUV16's (Thm 6.5 / Lemma 6.4) and pointwise advanced "
        "composition, delta = 1e-6." + drawn)


def fig_filters_rounds(out: Path, headers: list[str], rows: list[list[str]], eps_g: str = "1",
                       delta_g: str = DELTA) -> tuple[str, str]:
    """The 'Filters side by side' table as a figure: the same eps grid and the same certified round counts."""
    fig, ax = _figure()
    x = np.array([float(r[0]) for r in rows])
    floor = 0.5
    any_zero = False
    for j, label in enumerate(headers[1:], start=1):
        y = np.array([float(r[j]) for r in rows])
        style = dict(color="k", ls="--", marker="s") if j == len(headers) - 1 else dict(marker="o")
        line, = ax.plot(x, np.where(y > 0, y, np.nan), label=label, **style)
        zero = y == 0
        if zero.any():
            any_zero = True
            # side by side, so that two filters with 0 rounds at the same eps both show
            from matplotlib.transforms import offset_copy
            shift = offset_copy(ax.transData, fig=fig, x=7 * (j - len(headers) / 2), units="points")
            ax.plot(x[zero], np.full(zero.sum(), floor), "v", ms=9, color=line.get_color(), clip_on=False,
                    transform=shift)
    if any_zero:
        ax.plot([], [], "v", color="gray", ms=9, label="0 rounds (no round allowed): drawn on the bottom edge")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(bottom=floor)
    ax.set_xticks(x, [r[0] for r in rows])
    ax.minorticks_off()
    ax.set_xlabel(r"per-round $\epsilon$ (log scale; the table's grid)")
    ax.set_ylabel("rounds allowed (log scale)")
    ax.legend()
    ax.set_title(rf"Filters side by side at $(\epsilon_g,\delta_g)=({eps_g},{delta_g})$")
    return _save(fig, out, "fig_filters_rounds"), (
        f"The table above as a figure: homogeneous pure-DP rounds each filter allows at budget ({eps_g}, {delta_g}) "
        "at the table's per-round epsilons, and the exact optimum for fixed parameters (dashed)."
        + (" A log axis cannot show 0: a downward triangle on the bottom edge marks a filter that allows no round."
           if any_zero else ""))


def fig_bstar(out: Path, table_eps_g: list[str] = ()) -> tuple[str, str]:
    """B* curves; the eps_g of the report's B* table are marked on them."""
    eps_g = np.logspace(-2, 1, 25)
    fig, ax = _figure()
    for conv, style in (("bs16", "-"), ("cks20", "--"), ("gauss", ":")):
        ys = [float(b_star(f"{e:.6g}", DELTA, conv).b_star) for e in eps_g]
        line, = ax.loglog(eps_g, ys, style,
                          label=conv + (" (limit, not a valid conversion)" if conv == "gauss" else ""))
        if table_eps_g:
            ax.loglog([float(e) for e in table_eps_g], [float(b_star(e, DELTA, conv).b_star) for e in table_eps_g],
                      "o", color=line.get_color())
    if table_eps_g:
        ax.plot([], [], "o", color="gray", label="the table's points")
    ax.set_xlabel(r"$\epsilon_g$ (log scale)")
    ax.set_ylabel(r"$B^*$, zCDP budget (log scale)")
    ax.legend()
    ax.set_title(r"$B^*(\epsilon_g, \delta_g = 10^{-6})$")
    return _save(fig, out, "fig_bstar"), (
        "B* against eps_g at delta_g = 1e-6: BS16 closed form, CKS20 (certified root), and the Gaussian mechanism's "
        "exact curve (the limit no general conversion can beat); dots are the table's rows.")


def fig_individual(out: Path) -> tuple[str, str]:
    res = run_example()
    fig, axes = _figure(ncols=2, height=4.2)
    # Algorithm 7 wide and pale underneath, Algorithm 8 dashed on top: where they coincide both stay visible
    styles = ({"lw": 5, "alpha": 0.45, "color": "tab:blue"}, {"lw": 1.8, "ls": "--", "color": "tab:orange"})
    for (name, r), style in zip(res.items(), styles):
        steps = np.arange(1, len(r["active"]) + 1)
        axes[0].plot(steps, r["loss"], label=name, **style)
        axes[1].plot(steps, r["active"], label=name, **style)
        axes[0].plot(steps[-1], r["loss"][-1], "o", color=style["color"], ms=7)
        axes[0].annotate(f"{r['loss'][-1]:.3f}", (steps[-1], r["loss"][-1]), textcoords="offset points",
                         xytext=(-6, 10), ha="right", color=style["color"])
    a7, a8 = res.values()
    axes[0].set_ylabel("training log-loss")
    axes[1].set_ylabel("points still active")
    axes[0].legend()
    axes[0].set_title("training loss (lower is better)")
    axes[1].set_title("active points (Alg. 7: all, for k steps)")
    fig.suptitle(r"FZ21: private GD with individual filtering (Alg. 8) vs without (Alg. 7), same $(\alpha, B)$")
    gain = a7["final_loss"] - a8["final_loss"]
    effect = (f"The two runs coincide for the first k = {a7['steps']} steps (same clipping, same noise); there "
              f"Algorithm 7 has spent its budget and stops (dotted line), while Algorithm 8 keeps training on the "
              f"points whose gradients were small, until each one's own budget is spent, and ends at training "
              f"log-loss {a8['final_loss']:.4f} against {a7['final_loss']:.4f}."
              if gain > 0 else
              f"At these settings Algorithm 8 shows no benefit (final log-loss {a8['final_loss']:.4f} vs "
              f"{a7['final_loss']:.4f}).")
    return _save(fig, out, "fig_individual_filtering"), (
        f"FZ21 individual filtering example (reference/outputs/examples/private_gd.py; n = {a7['n']} "
        f"synthetic points, (alpha, B) = ({a7['alpha']}, {a7['B']:.4g}) for both). {effect} Accuracy does not show "
        f"the effect at these settings: it saturates after a few steps (final accuracy {a7['final_accuracy']:.4f} "
        f"for Algorithm 7, {a8['final_accuracy']:.4f} for Algorithm 8).")


def fig_audit(out: Path, results) -> tuple[str, str] | None:
    """Peer value / reference per peer and function (log scale), unsound in red; None when nothing to draw."""
    pts = [(f"{c.peer}\n{c.function.rsplit('.', 1)[-1]}", ratio_of(c), c.verdict)
           for r in results for c in r.comparisons]
    pts = [p for p in pts if p[1] is not None and p[1] > 0]
    if not pts:
        return None
    cats = list(dict.fromkeys(p[0] for p in pts))
    fig, ax = _figure(height=max(3.0, 0.55 * len(cats) + 1.6))
    rng = np.random.default_rng(0)  # a fixed jitter so that equal ratios stay visible (deterministic)
    for verdict, color, marker in (("exact", "tab:green", "o"), ("conservative", "tab:blue", "o"),
                                   ("unproven", "tab:orange", "D"), ("unsound-rounding", "tab:red", "X"),
                                   ("unsound", "tab:red", "X")):
        sel = [p for p in pts if p[2] == verdict]
        if not sel:
            continue
        yy = [cats.index(p[0]) + rng.uniform(-0.15, 0.15) for p in sel]
        ax.scatter([p[1] for p in sel], yy, c=color, marker=marker, s=50 if verdict in UNSOUND else 28,
                   label=f"{verdict} ({len(sel)})", zorder=3, alpha=0.85)
    ax.axvline(1.0, color="k", lw=1)
    ax.set_xscale("log")
    ax.set_yticks(range(len(cats)), cats)
    ax.invert_yaxis()
    ax.set_xlabel("peer value / reference (log scale; < 1 claims more privacy than the reference proves)")
    ax.legend(loc="best")
    ax.set_title("Audit: each peer's value against this project's certified reference")
    return _save(fig, out, "fig_audit"), (
        "The audit table as a figure: each point is one numeric comparison, the peer's value divided by the "
        "reference ((a) the formula the peer implements, else (b) the true guarantee). Left of the line the peer "
        "under-reports: red crosses are unsound. Decisions (CONT/HALT) have no ratio and are only in the table.")


#: the figures of the 'Figures' section (the others belong to the sections whose tables they draw)
FIGURES: list[Callable[[Path], tuple[str, str]]] = [
    fig_lower_order_terms, fig_odometer_families, fig_odometers_vs_rruv, fig_individual,
]


def draw(fn: Callable, *args) -> tuple[str, str] | None:
    """Draw one figure in the report's style: (file, caption), or None when there is nothing to draw."""
    with _style():
        return fn(*args)


def make_figures(out: str | Path) -> list[tuple[str, str]]:
    """Draw every figure of FIGURES into out/figures; a figure that cannot be drawn is reported in its caption."""
    out = Path(out)
    made = []
    for fn in FIGURES:
        try:
            made.append(draw(fn, out))
        except Exception as e:  # noqa: BLE001 - the report shows the failure
            made.append(("", f"{fn.__name__}: FAILED ({type(e).__name__}: {str(e)[:200]})"))
    return made
