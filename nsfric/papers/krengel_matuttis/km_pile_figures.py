"""Outputs of ``nsfric run km-pile``: both solvers' runs, their agreement and the figure.

* ``pile-events.csv`` / ``pile-ida.csv`` (+ sidecars with ``summary``): states, centre of
  mass, per contact ``F_n, F_t, |F_t|/(mu F_n), v_t, xi`` and the mode at every sample;
* ``agreement.csv``: the largest state difference of the two solvers at each sample time
  (positions and angles, velocities);
* ``pile.png``: the pile at rest in its box, the discs' centre displacements, the centre
  of mass's distance from its final position (log scale: where it holds still), and per
  contact ``|F_t|/(mu F_n)`` over time with its stuck intervals shaded.
"""
from __future__ import annotations

import os

import numpy as np

from nsfric.io import write_csv_with_sidecar
from nsfric.plotting import figure, save
from nsfric.cases.reference import reference_meta


def agreement(a, b, t_eval) -> dict:
    """Largest state differences of the solutions ``a`` and ``b`` at the times ``t_eval``
    (the first sample at each time: the state before an event there)."""
    ia = np.searchsorted(a.t, t_eval, side="left")
    ib = np.searchsorted(b.t, t_eval, side="left")
    n = a.model.n
    d = np.abs(a.y[:, ia] - b.y[:, ib])
    return {"t": np.asarray(t_eval, float), "max_diff_q": d[:n].max(axis=0), "max_diff_v": d[n:].max(axis=0)}


def _shade_stuck(ax, sol, i):
    """Shade the intervals where contact ``i`` is stuck."""
    stuck = np.array([m[i] == "s" for m in sol.sample_modes])
    edges = np.flatnonzero(np.diff(np.concatenate([[0], stuck.astype(int), [0]])))
    for a, b in zip(edges[::2], edges[1::2]):
        ax.axvspan(1e3 * sol.t[a], 1e3 * sol.t[b - 1], color="tab:green", alpha=0.2, lw=0)


def plot_pile(sol, path):
    """The figure described in the module docstring."""
    import matplotlib.patches as mpatches

    model, v = sol.model, sol.params
    R, W = v["R"], (v["a"] + 1) * v["R"]
    fig, axes = figure(3, 3, figsize=(12, 9))
    ax = axes[0, 0]
    for i in (1, 2, 3):
        ax.add_patch(mpatches.Circle((1e3 * sol[f"x_{i}"][0], 1e3 * sol[f"y_{i}"][0]), 1e3 * R, fill=False,
                                     ls=":", color="0.5"))
        ax.add_patch(mpatches.Circle((1e3 * sol[f"x_{i}"][-1], 1e3 * sol[f"y_{i}"][-1]), 1e3 * R, fill=False))
        ax.plot(1e3 * sol[f"x_{i}"], 1e3 * sol[f"y_{i}"], lw=1)
        ax.text(1e3 * sol[f"x_{i}"][-1], 1e3 * sol[f"y_{i}"][-1], str(i), ha="center", va="center")
    ax.plot(1e3 * np.array([-W, -W, W, W]), 1e3 * np.array([4 * R, 0, 0, 4 * R]), "k", lw=2)
    ax.set_aspect("equal")
    ax.set_title(f"at rest (start dotted; box tilted by {v['beta']:g} deg)", fontsize=9)
    ax.set_xlabel("x [mm]")
    ax.set_ylabel("y [mm]")
    ax = axes[0, 1]
    for i in (1, 2, 3):
        for k, ls in (("x", "-"), ("y", "--")):
            s = sol[f"{k}_{i}"]
            ax.plot(1e3 * sol.t, 1e6 * (s - s[0]), ls, lw=1, label=f"{k}_{i}")
    ax.set_xlabel("t [ms]")
    ax.set_ylabel("centre displacement [um]")
    ax.legend(fontsize=6, ncol=2)
    ax = axes[0, 2]
    x, y = sol["x_com"], sol["y_com"]
    dist = np.hypot(x - x[-1], y - y[-1])
    ax.semilogy(1e3 * sol.t[:-1], np.where(dist[:-1] > 0, dist[:-1], np.nan), lw=1)  # exact zeros not drawn
    ax.axhline(1e-12, color="k", ls=":", lw=1)
    s = sol.summary
    ax.axvspan(1e3 * s["window"][0], 1e3 * s["window"][1], color="0.9")
    ax.set_title(f"com drift over the window (grey): {s['com_drift']:.2g} m", fontsize=9)
    ax.set_xlabel("t [ms]")
    ax.set_ylabel("|com(t) - com(t_end)| [m]")
    t_show = min(sol.t[-1], 2.5 * max(s["settle_time"], 1e-3))
    for i, c in enumerate(model.contacts):
        ax = axes[1 + i // 3, i % 3]
        sel = sol.t <= t_show
        ax.plot(1e3 * sol.t[sel], sol[f"ratio_{c}"][sel], lw=1)
        _shade_stuck(ax, sol, i)
        ax.set_xlim(0, 1e3 * t_show)
        ax.set_ylim(0, 1.1)
        ax.set_title(f"contact {c}: |F_t|/(mu F_n), stuck shaded", fontsize=9)
        if not np.any(sol[f"F_n_{c}"] > 0):
            ax.text(0.5, 0.5, "open throughout", transform=ax.transAxes, ha="center", color="0.4")
        ax.set_xlabel("t [ms]")
    fig.suptitle(f"km-pile: 3 discs, 6 contacts with exact static friction ({sol.solver}); "
                 f"{s['n_events']} events, settled at {1e3 * s['settle_time']:.1f} ms", fontsize=10)
    fig.tight_layout()
    return save(fig, path)


def run(case, out_dir, progress=None, samples=401, early=801) -> dict:
    """Write the outputs listed in the module docstring; ``summary`` of the events run
    gains the solvers' agreement.  Sample times: ``samples`` uniform over the span and
    ``early`` more over its first fifth (where the pile settles)."""
    written, sols = [], {}
    t0, t1 = case.problem().t_span
    t_eval = np.unique(np.concatenate([np.linspace(t0, t1, samples), np.linspace(t0, t0 + (t1 - t0) / 5, early)]))
    for solver in ("events", "ida"):
        if progress:
            progress(f"{case.name}: solver {solver}")
        sols[solver] = case.reference_solution(solver=solver, t_eval=t_eval)
    agree = agreement(sols["events"], sols["ida"], t_eval)
    for solver, sol in sols.items():
        sol.summary["agreement_max_diff"] = float(max(agree["max_diff_q"].max(), agree["max_diff_v"].max()))
        path = os.path.join(out_dir, f"pile-{solver}.csv")
        written += [path, write_csv_with_sidecar(path, sol.columns(), reference_meta(case, "coulomb", sol))]
    path = os.path.join(out_dir, "agreement.csv")
    meta = {"case": case.name, "what": "largest |events - ida| state difference at each sample time",
            "units": {"max_diff_q": "m or rad", "max_diff_v": "m/s or rad/s"}}
    written += [path, write_csv_with_sidecar(path, agree, meta)]
    written.append(plot_pile(sols["events"], os.path.join(out_dir, "pile.png")))
    return {"written": written, "summary": sols["events"].summary}
