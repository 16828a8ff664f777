"""Figures of a convergence study: error against dt with reference slopes, and
work-precision (error against right-hand-side evaluations and against the CPU time of a
run, measured as :mod:`nsfric.study.timing` says)."""
from __future__ import annotations

import numpy as np

from ..plotting import figure
from .timing import timing_label


def plot_convergence(result, title=None, work=True):
    """Return a matplotlib figure of ``result`` (a ConvergenceResult)."""
    unit = result.meta.get("unit", "n.u.")
    ncols = 3 if work else 1
    fig, axes = figure(1, ncols, figsize=(5.0 * ncols, 4.2))
    ax = axes[0, 0]
    keys = list(result.fits)
    cmap = __import__("matplotlib").colormaps["tab10"]
    markers = "osD^v<>ph*"
    nominal = set()
    e_coarse = []
    for j, (law, scheme) in enumerate(keys):
        dt, err = result.series(law, scheme)
        ok = np.isfinite(err) & (err > 0)
        if not ok.any():
            continue
        fit = result.fits[(law, scheme)]
        lab = f"{law} {scheme}" if len({k[0] for k in keys}) > 1 else scheme
        lab += f" ({fit.label()})" if fit.ok else " (no order)"
        color = cmap(j % 10)
        ls = "--" if scheme.endswith("-event") else "-"
        ax.loglog(dt[ok], err[ok], ls, marker=markers[j % 10], ms=3.5, color=color, label=lab)
        if fit.ok:
            sel = ok & (dt >= fit.dt_min * (1 - 1e-9)) & (dt <= fit.dt_max * (1 + 1e-9))
            ax.loglog(dt[sel], err[sel], "-", lw=4, alpha=0.25, color=color)
        from ..schemes import get_scheme

        nominal.add(get_scheme(scheme).order)
        e_coarse.append(err[ok][np.argmax(dt[ok])])
    all_dt = np.array([r["dt"] for r in result.rows])
    if len(all_dt) and e_coarse:
        d0, d1 = all_dt.max(), all_dt.min()
        anchor = float(np.exp(np.mean(np.log(e_coarse))))
        for p in sorted(nominal)[:4]:
            xs = np.array([d1, d0])
            ax.loglog(xs, anchor * 3 * (xs / d0) ** p, ":", color="0.4", lw=1)
            ax.annotate(f"$\\Delta t^{p}$", (d1, anchor * 3 * (d1 / d0) ** p), fontsize=8,
                        color="0.3", ha="right", va="center")
    ax.set_xlabel(f"Δt [{unit}]")
    ax.set_ylabel(f"max error over {', '.join(result.variables)} [{unit}]")
    ax.set_title(title or f"{result.case}: convergence (shaded: fit range)", fontsize=9)
    ax.legend(fontsize=6.5, loc="lower right", ncol=1 if len(keys) < 10 else 2)
    ax.grid(True, which="major", alpha=0.3)
    if work:
        timing = result.meta.get("timing")
        for ax, col, xl in ((axes[0, 1], "n_rhs", "right-hand-side evaluations"),
                            (axes[0, 2], "seconds", "CPU time per run [s]" if timing else "time per run [s]")):
            for j, (law, scheme) in enumerate(keys):
                _, x = result.series(law, scheme, col)
                _, err = result.series(law, scheme)
                ok = np.isfinite(err) & (err > 0) & (x > 0)
                lab = f"{law} {scheme}" if len({k[0] for k in keys}) > 1 else scheme
                ls = "--" if scheme.endswith("-event") else "-"
                ax.loglog(x[ok], err[ok], ls, marker=markers[j % 10], ms=3.5, color=cmap(j % 10),
                          label=lab)
            ax.set_xlabel(xl)
            ax.set_ylabel(f"max error [{unit}]")
            if col == "seconds" and timing:  # how the time was measured
                ax.set_title(f"work-precision: error vs {timing_label(timing)}", fontsize=8)
            else:
                ax.set_title(f"work-precision: error vs {xl}", fontsize=9)
            ax.grid(True, which="major", alpha=0.3)
    from matplotlib.ticker import NullFormatter

    for a in axes.ravel():
        a.xaxis.set_minor_formatter(NullFormatter())
    fig.tight_layout()
    return fig
