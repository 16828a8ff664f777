"""Fig 2 of Schäfer, Dippel & Wolf (1996): the normal restitution ``e_n`` against the impact
speed ``v_n^i`` for the linear spring-dashpot (eq 2), Hertz with linear damping (eq 8),
Kuwabara-Kono (eq 9) and Walton-Braun (eq 10), and the Hertz collision time (eq 7).

Every point is an exact (event-driven) reference impact (:meth:`NormalImpact.restitution`,
contact ending at zero overlap), computed by one parameter sweep (:func:`nsfric.sweep`).  Drawn beside them, from the symbolic layer
(:data:`~nsfric.papers.schafer1996.normal_impact.CLOSED_FORMS`): eqs 3-4 for the linear dashpot, the
Walton-Braun ``e_n = (s v (m_eff/k_1)^(1/2) + 1)^(-1/2)``, and eq 7 with its exact
constant ``3.2181...`` against the reference Hertz ``t_n`` in panel (b).

``nsfric run normal-impact`` writes ``fig2.png`` and ``fig2.csv`` (+ ``fig2.json``).
"""
from __future__ import annotations

import os

import numpy as np

from nsfric.io import versions, write_csv_with_sidecar
from nsfric.plotting import figure, save
from nsfric.study.sweep import sweep
from nsfric.papers.schafer1996.normal_impact import closed_form

#: the laws of the paper's Fig 2, with its markers
FIG2_LAWS = {"linear-dashpot": "o", "hertz-damped": "s", "kuwabara-kono": "D", "walton-braun": "^"}
#: impact speeds of Fig 2 [m/s]
FIG2_SPEEDS = np.logspace(-2, 2, 33)


def fig2_data(case, speeds=FIG2_SPEEDS, progress=None, **sweep_options) -> dict:
    """Columns of Fig 2: ``v_n``, the reference ``e_n`` of every law of :data:`FIG2_LAWS`,
    the closed forms (linear dashpot eq 3, Walton-Braun), and the Hertz ``t_n``: reference
    and eq 7 with the exact constant.

    The references are one :func:`~nsfric.study.sweep.sweep` over law x ``v_i``
    (``sweep_options``: ``executor``, ``jobs``, ``cache_dir``, ... go to it)."""
    speeds = np.asarray(speeds, dtype=float)
    laws = list(FIG2_LAWS) + ["hertz"]
    if progress:
        progress(f"{case.name}: Fig 2, {len(laws)} laws x {len(speeds)} speeds")
    ds = sweep(case, grid={"law": laws, "v_i": speeds}, observables=["e_n", "t_n"], estimate=False,
               **sweep_options)
    if ds.e_n.isnull().any() or ds.t_n.isnull().any():
        raise ValueError("Fig 2: a contact did not end before t_end")
    cols = {"v_n": speeds}
    for law in FIG2_LAWS:
        cols[f"e_n {law}"] = ds.e_n.sel(law=law).values
    cols["t_n hertz"] = ds.t_n.sel(law="hertz").values
    ld = {**case.bind("linear-dashpot"), "v_i": speeds}
    cols["e_n linear-dashpot eq 3"] = np.full_like(speeds, closed_form("linear-dashpot e_n", ld))
    cols["e_n walton-braun closed form"] = closed_form("walton-braun e_n", {**case.bind("walton-braun"), "v_i": speeds})
    cols["t_n hertz eq 7 exact"] = closed_form("hertz t_n", {**case.bind("hertz"), "v_i": speeds})
    return cols


def plot_fig2(cols, path):
    """Panel (a): ``e_n`` against ``v_n`` (log); panel (b): Hertz ``t_n`` against ``v_n``."""
    fig, axes = figure(1, 2, figsize=(11, 4.2), gridspec_kw={"wspace": 0.3})
    ax, bx = axes[0, 0], axes[0, 1]
    v = cols["v_n"]
    fine = {"linear-dashpot": cols["e_n linear-dashpot eq 3"], "walton-braun": cols["e_n walton-braun closed form"]}
    for law, marker in FIG2_LAWS.items():
        line = ax.plot(v, cols[f"e_n {law}"], marker, mfc="none", label=f"{law} (exact reference)")[0]
        if law in fine:
            ax.plot(v, fine[law], "-", color=line.get_color(), lw=1,
                    label=f"{law}: {'eq 3' if law == 'linear-dashpot' else 'closed form'}")
    ax.set_xscale("log")
    ax.set_xlabel("v_n^i [m/s]")
    ax.set_ylabel("e_n")
    ax.set_ylim(0, 1.05)
    ax.legend(fontsize=7, loc="lower left")
    ax.set_title("(a) Schäfer et al. Fig 2: e_n against v_n^i", fontsize=9)
    bx.loglog(v, cols["t_n hertz"], "o", mfc="none", label="Hertz eq 6 (exact reference)")
    bx.loglog(v, cols["t_n hertz eq 7 exact"], "-", lw=1, label="eq 7, constant 3.2181")
    bx.axhline(1.88e-5, color="grey", ls=":", lw=1, label="paper: 1.88e-5 s at 100 m/s")
    bx.set_xlabel("v_n^i [m/s]")
    bx.set_ylabel("t_n [s]")
    bx.legend(fontsize=7)
    bx.set_title("(b) Hertz collision time, eq 7", fontsize=9)
    return save(fig, path)


def write_fig2(case, out_dir, progress=None) -> list:
    """Write ``fig2.png``, ``fig2.csv`` and its sidecar; return the paths."""
    cols = fig2_data(case, progress=progress)
    csv = os.path.join(out_dir, "fig2.csv")
    meta = {"case": case.name, "figure": "Schäfer, Dippel & Wolf (1996) Fig 2 and eq 7",
            "laws": list(FIG2_LAWS) + ["hertz"], "end": "zero overlap",
            "parameters": {law: case.bind(law) for law in list(FIG2_LAWS) + ["hertz"]},
            "solver": "filippov", "versions": versions()}
    side = write_csv_with_sidecar(csv, cols, meta)
    return [csv, side, plot_fig2(cols, os.path.join(out_dir, "fig2.png"))]
