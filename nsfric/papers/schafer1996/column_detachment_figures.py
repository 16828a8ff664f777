"""The column-detachment figure of Schäfer, Dippel & Wolf (1996) §4: the total restitution
``e_tot`` of a column of ``N`` grains hitting a wall against ``t_0/t_n`` (1e-3 to 1e2).

The paper (after Luding et al. 1994) states two regimes: for ``t_0/t_n >> 1`` the impact
is a long sequence of binary collisions and ``e_tot`` is considerably smaller than the
binary ``e_n``; for ``t_0/t_n << 1/N`` all grains are in contact with each other at the
same time, the column acts as a chain of coupled damped oscillators and ``e_tot`` is
close to one (the *detachment regime*).  Every point is an exact event-driven reference
(:meth:`ColumnDetachment.reference_solution`); the binary ``e_n`` (eq 3), the
grain-wall ``e_wall`` and the marks ``t_0/t_n = 1/N`` are drawn beside the curves.

``nsfric run column-detachment`` writes ``detachment.csv`` (+ ``.json``),
``detachment.png``, the default column's reference ``reference-linear-dashpot.csv``
(+ ``.json`` with ``summary``) and its trajectories ``reference.png``.
"""
from __future__ import annotations

import os
from functools import partial

import numpy as np

from nsfric.io import versions, write_csv_with_sidecar
from nsfric.plotting import figure, save
from nsfric.papers.schafer1996.column_detachment import N_DEFAULT, binary_collision
from nsfric.cases.reference import reference_meta

#: t_0/t_n of the figure
RATIOS = np.logspace(-3, 2, 16)
#: column lengths drawn (the default N = 10 among them)
FIGURE_N = (2, 5, N_DEFAULT, 20)


def spacing(case, ratio: float, params: dict | None = None) -> float:
    """The gap ``s_0 = (t_0/t_n) t_n v_0`` for a ratio ``t_0/t_n`` (``t_n`` binary, eq 4)."""
    values = case.bind(None, params)
    return float(ratio * binary_collision(values)["t_n"] * values["v_0"])


def detachment_data(case, ratios=None, Ns=None, progress=None, jobs=1) -> dict:
    """Columns ``t0_over_tn`` and, per ``N``, ``e_tot N=<N>`` and ``events N=<N>``
    (default: :data:`RATIOS`, :data:`FIGURE_N`); the columns' points are independent
    references, on ``jobs`` local processes (the same values as one process)."""
    from nsfric.study.execute import map_tasks

    ratios = np.asarray(RATIOS if ratios is None else ratios, dtype=float)
    Ns = FIGURE_N if Ns is None else Ns
    points = [(N, float(r)) for N in Ns for r in ratios]
    done = (lambda k, n: progress(f"{case.name}: {k}/{n} columns")) if progress else None
    got = iter(map_tasks(partial(_e_tot, case), points, jobs=jobs, progress=done))
    cols = {"t0_over_tn": ratios}
    for N in Ns:
        e, n = zip(*(next(got) for _ in ratios))
        cols[f"e_tot N={N}"] = np.array(e)
        cols[f"events N={N}"] = np.array(n)
    return cols


def _e_tot(case, point) -> tuple:
    """``(e_tot, n_events)`` of the column of ``N`` grains at ``t0/tn = ratio``, ``point =
    (N, ratio)`` (one task of :func:`detachment_data`'s pool)."""
    N, r = point
    sol = case.reference_solution(params={"N": N, "s_0": spacing(case, r, {"N": N})}, samples=2)
    if "e_tot" not in sol.summary:
        raise ValueError(f"N = {N}, t0/tn = {r:g}: the column did not separate before t_end")
    return sol.summary["e_tot"], sol.summary["n_events"]


def plot_detachment(cols, values, path, Ns):
    """``e_tot`` against ``t_0/t_n`` (log axis), one curve per ``N``; ``e_n``, ``e_wall``
    and ``t_0/t_n = 1/N`` marked."""
    fig, axes = figure(1, 1, figsize=(7.5, 4.6))
    ax = axes[0, 0]
    x = cols["t0_over_tn"]
    for N in Ns:
        line = ax.semilogx(x, cols[f"e_tot N={N}"], "o-", ms=4, label=f"N = {N} (exact reference)")[0]
        ax.axvline(1.0 / N, color=line.get_color(), ls=":", lw=1)
    grain, wall = binary_collision(values), binary_collision(values, wall=True)
    ax.axhline(grain["e_n"], color="k", ls="--", lw=1, label=f"binary e_n = {grain['e_n']:.3f} (eq 3)")
    ax.axhline(wall["e_n"], color="grey", ls="-.", lw=1, label=f"grain-wall e_n = {wall['e_n']:.3f}")
    ax.text(1.5e-3, 0.05, "detachment regime\n(t0/tn << 1/N)", fontsize=8)
    ax.text(3, 0.05, "binary collisions\n(t0/tn >> 1)", fontsize=8)
    ax.set_xlabel("t_0 / t_n   (t_0 = s_0/v_0; dotted: t_0/t_n = 1/N)")
    ax.set_ylabel("e_tot = -sum v_f / sum v_i")
    ax.set_ylim(0, 1.05)
    ax.legend(fontsize=7, loc="center left")
    ax.set_title("Schäfer et al. §4: column of N grains on a wall, linear dashpot (eq 2)", fontsize=9)
    return save(fig, path)


def plot_reference(sol, path):
    """Grain positions (as ``x_i - (2 i - 1) R``: the free space in front of grain ``i``
    summed up to the wall, so that the gaps show) and velocities of one reference run."""
    N = int(sol.params["N"])
    fig, axes = figure(2, 1, sharex=True, figsize=(7.5, 5.5))
    for i in range(N):
        axes[0, 0].plot(sol.t, 1e6 * (sol[f"x_{i + 1}"] - (2 * i + 1) * sol.params["R"]), lw=1)
        axes[1, 0].plot(sol.t, sol[f"v_{i + 1}"], lw=1)
    axes[0, 0].set_ylabel("x_i - (2i - 1) R [um]")
    axes[1, 0].set_ylabel("v_i [m/s]")
    axes[1, 0].set_xlabel("t [s]")
    s = sol.summary
    axes[0, 0].set_title(f"N = {N}, t0/tn = {s['t0_over_tn']:.3g}: e_tot = {s['e_tot']:.4f}, "
                         f"{s['n_events']} events", fontsize=9)
    return save(fig, path)


def run(case, out_dir, progress=None, jobs=1) -> dict:
    """Write the figure, its CSV and sidecar (its columns on ``jobs`` local processes),
    and the default column's reference."""
    written = []
    values = case.bind()
    if progress:
        progress(f"{case.name}: reference of the default column")
    sol = case.reference_solution(samples=1001)
    path = os.path.join(out_dir, "reference-linear-dashpot.csv")
    written += [path, write_csv_with_sidecar(path, sol.columns(), reference_meta(case, "linear-dashpot", sol))]
    written.append(plot_reference(sol, os.path.join(out_dir, "reference.png")))
    cols = detachment_data(case, progress=progress, jobs=jobs)
    csv = os.path.join(out_dir, "detachment.csv")
    meta = {"case": case.name, "figure": "Schäfer, Dippel & Wolf (1996) §4: e_tot against t0/tn",
            "N": list(FIGURE_N), "parameters": {k: v for k, v in values.items() if k not in ("N", "s_0")},
            "binary": binary_collision(values), "wall": binary_collision(values, wall=True),
            "spacing": "s_0 = (t0/tn) t_n v_0", "solver": "contacts (exact modal flows, every contact a "
            "switching surface)", "versions": versions()}
    written += [csv, write_csv_with_sidecar(csv, cols, meta)]
    written.append(plot_detachment(cols, values, os.path.join(out_dir, "detachment.png"), FIGURE_N))
    return {"written": written}
