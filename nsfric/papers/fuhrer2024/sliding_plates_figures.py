"""Sliding plates: Führer, Brendel & Wolf (2024) Figs 1-4 from the discrete schemes.

Each ``figN_data`` returns the data (dicts of arrays, discrete Solutions), ``plot_figN``
draws it, and :func:`run` writes every figure with the CSV behind it, the order table
and the studies beyond the paper (:mod:`.sliding_plates_study`), next to the exact
reference outputs of :meth:`Case.run`.

* Fig 1 -- ``xi``, ``v``, ``F`` against ``t``: D-SDS with explicit Euler at
  ``dt = 0.1`` and ``1e-3``, C-SDS at ``dt = 0.1`` (and the exact solutions, dashed).
* Fig 2 -- ``Delta E_kin = E_kin^D - E_kin^C`` at ``dt = 0.1`` (Euler).
* Fig 3 -- D-SDS velocity error against the D-SDS closed form for Euler, Heun and RK4,
  multiplied by ``c = 0.1/dt``: the curves for different ``dt`` collapse, so the error
  is first order for all three (the eq 3 adjustments perturb by ``O(dt)``).
* Fig 4 -- D-SDS with the midpoint rule at ``dt = 0.2``, with the auxiliary half-step
  states: they are adjusted by eq 3 (the linear lower envelope of ``xi``) but the
  adjustment never reaches the full states (the parabolic upper envelope), which do
  not converge to the exact solution.
"""
from __future__ import annotations

import os

import numpy as np

from nsfric.io import csv_text, write_text
from nsfric.plotting import figure, save
from nsfric.cases.base import simulate

LAWS = ("d-sds", "c-sds")
FIG3_SCHEMES = ("euler", "heun", "rk4")
FIG3_DTS = (0.1, 0.05, 0.025, 0.0125)
STATE_LABELS = {"xi": "spring displacement ξ", "v": "relative velocity v", "F": "contact force F"}


def exact(case, law, t_end=None, samples=2001, params=None):
    """Closed-form reference of ``law`` sampled on a uniform grid."""
    T = case.t_end if t_end is None else t_end
    return case.reference_solution(law, solver="analytic", params=params, t_end=T,
                                   t_eval=np.linspace(0.0, T, samples))


def _long(series: dict, names=("xi", "v", "F", "F_S", "E_kin", "E_el")) -> dict:
    """Long-format columns (series label, t, quantities, mode) from labelled results."""
    cols = {"series": [], "t": []}
    for n in names:
        cols[n] = []
    cols["mode"] = []
    for label, res in series.items():
        c = res.columns()
        k = len(c["t"])
        cols["series"] += [label] * k
        cols["t"] += list(c["t"])
        for n in names:
            cols[n] += list(c[n])
        cols["mode"] += list(c["mode"])
    return {k: np.asarray(v, dtype=object if k in ("series", "mode") else float) for k, v in cols.items()}


# -- Fig 1 ----------------------------------------------------------------------------------
def fig1_data(case, t_end=None):
    runs = {
        "D-SDS, Δt = 0.1": simulate(case, "d-sds", "euler", 0.1, t_end),
        "D-SDS, Δt = 0.001": simulate(case, "d-sds", "euler", 1e-3, t_end),
        "C-SDS, Δt = 0.1": simulate(case, "c-sds", "euler", 0.1, t_end),
    }
    return {"runs": runs, "exact": {law: exact(case, law, t_end) for law in LAWS}}


#: Fig 1's inset in the force panel (axes fraction: x0, y0, width, height)
INSET = (0.6, 0.1, 0.36, 0.38)


def plot_fig1(data, unit="n.u."):
    fig, axes = figure(3, 1, sharex=True, figsize=(7.0, 7.6))
    styles = {"D-SDS, Δt = 0.1": dict(color="C3", marker=".", ms=4, lw=0.9),
              "D-SDS, Δt = 0.001": dict(color="C2", lw=1.4),
              "C-SDS, Δt = 0.1": dict(color="C0", lw=1.6)}
    for ax, q in zip(axes[:, 0], ("xi", "v", "F")):
        for label, res in data["runs"].items():
            ax.plot(res.t, res[q], label=f"{label} (Euler)", **styles[label])
        for law, sol in data["exact"].items():
            ax.plot(sol.t, sol[q], ":", color="k" if law == "d-sds" else "0.45", lw=1.0,
                    label=f"{law.upper()} exact")
        ax.set_ylabel(f"{STATE_LABELS[q]} [{unit}]")
        ax.grid(alpha=0.3)
    # the stick-slip at dt = 1e-3: amplitude ~ dt, frequency ~ 1/dt (Führer et al. §3.2)
    fine = data["runs"]["D-SDS, Δt = 0.001"]
    # lower right, clear of the C-SDS overshoot (F > 0 for t ~ 4-6) and of the D-SDS curves
    ins = axes[2, 0].inset_axes(INSET)
    sel = fine.t <= 0.03
    ins.plot(fine.t[sel], fine["F"][sel], ".-", color="C2", ms=3, lw=0.8)
    ins.set_title("D-SDS, Δt = 0.001, t ≤ 0.03", fontsize=7)
    ins.set_xlabel(f"t [{unit}]", fontsize=7)
    ins.set_ylabel(f"F [{unit}]", fontsize=7)
    ins.tick_params(labelsize=6)
    axes[-1, 0].set_xlabel(f"t [{unit}]")
    axes[0, 0].legend(fontsize=7, ncol=2)
    axes[0, 0].set_title("Führer et al. Fig 1: sliding plates, explicit Euler "
                         "(m = k = F_max = 1, γ = 2, v(0) = 4)", fontsize=9)
    return fig


# -- Fig 2 ----------------------------------------------------------------------------------
def fig2_data(case, dt=0.1, t_end=None):
    D = simulate(case, "d-sds", "euler", dt, t_end)
    C = simulate(case, "c-sds", "euler", dt, t_end)
    ex = {law: exact(case, law, t_end) for law in LAWS}
    t = D.t
    yD, yC = ex["d-sds"](t), ex["c-sds"](t)
    m = D.params["m"]
    cols = {"t": t, "E_kin_D": D["E_kin"], "E_kin_C": C["E_kin"],
            "dE_kin": D["E_kin"] - C["E_kin"],
            "dE_kin_exact": m * (yD[1] ** 2 - yC[1] ** 2) / 2}
    return {"columns": cols, "dt": dt}


def plot_fig2(data, unit="n.u."):
    c = data["columns"]
    fig, axes = figure(1, 1, figsize=(7.0, 3.4))
    ax = axes[0, 0]
    ax.plot(c["t"], c["dE_kin"], ".-", color="C3", ms=4, lw=0.9,
            label=f"Euler, Δt = {data['dt']:g}")
    ax.plot(c["t"], c["dE_kin_exact"], "--", color="k", lw=0.9, label="exact solutions")
    ax.axhline(0, color="0.6", lw=0.6)
    ax.set_xlabel(f"t [{unit}]")
    ax.set_ylabel(f"ΔE_kin = E_kin^D − E_kin^C [{unit}]")
    ax.set_title("Führer et al. Fig 2: kinetic energy difference D-SDS − C-SDS", fontsize=9)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return fig


# -- Fig 3 ----------------------------------------------------------------------------------
def fig3_data(case, schemes=FIG3_SCHEMES, dts=FIG3_DTS, t_end=None):
    ref = exact(case, "d-sds", t_end)
    out = {}
    for s in schemes:
        for dt in dts:
            r = simulate(case, "d-sds", s, dt, t_end)
            v_ex = ref(r.t)[1]
            c = dts[0] / dt
            out[(s, dt)] = {"t": r.t, "v": r["v"], "v_exact": v_ex, "c": c,
                            "scaled_error": c * (r["v"] - v_ex)}
    return {"curves": out, "schemes": list(schemes), "dts": list(dts)}


def fig3_columns(data) -> dict:
    cols = {k: [] for k in ("scheme", "dt", "c", "t", "v", "v_exact", "scaled_error")}
    for (s, dt), d in data["curves"].items():
        n = len(d["t"])
        cols["scheme"] += [s] * n
        cols["dt"] += [dt] * n
        cols["c"] += [d["c"]] * n
        for k in ("t", "v", "v_exact", "scaled_error"):
            cols[k] += list(d[k])
    return {k: np.asarray(v, dtype=object if k == "scheme" else float) for k, v in cols.items()}


def plot_fig3(data, unit="n.u."):
    n = len(data["schemes"])
    fig, axes = figure(n, 1, sharex=True, figsize=(7.0, 2.5 * n + 0.6))
    for ax, s in zip(axes[:, 0], data["schemes"]):
        for j, dt in enumerate(data["dts"]):
            d = data["curves"][(s, dt)]
            ax.plot(d["t"], d["scaled_error"], lw=1.0, color=f"C{j}",
                    label=f"Δt = {dt:g}, c = {d['c']:g}")
        ax.set_ylabel(f"c (v − v_exact) [{unit}]")
        ax.set_title(f"{s}", fontsize=9, loc="right")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, ncol=2)
    axes[-1, 0].set_xlabel(f"t [{unit}]")
    fig.suptitle("Führer et al. Fig 3: D-SDS velocity error against the closed form, rescaled by "
                 "c = 0.1/Δt (collapse = first order)", fontsize=9)
    fig.tight_layout()
    return fig


# -- Fig 4 ----------------------------------------------------------------------------------
def fig4_data(case, dt=0.2, t_end=None):
    res = simulate(case, "d-sds", "midpoint", dt, t_end, stages=True)
    return {"result": res, "columns": res.columns(stages=True), "exact": exact(case, "d-sds", t_end),
            "dt": dt}


def plot_fig4(data, unit="n.u."):
    c = data["columns"]
    aux = c["stage"] > 0
    fig, axes = figure(3, 1, sharex=True, figsize=(7.0, 7.6))
    for ax, q in zip(axes[:, 0], ("xi", "v", "F")):
        ax.plot(c["t"], c[q], "-", color="0.7", lw=0.7)
        ax.plot(c["t"][~aux], c[q][~aux], "o", color="C0", ms=3.5, label="states u^n (t/Δt integer)")
        ax.plot(c["t"][aux], c[q][aux], "x", color="C3", ms=4,
                label="auxiliary states u_1 (t/Δt half-integer)")
        ax.plot(data["exact"].t, data["exact"][q], "--", color="k", lw=0.9, label="D-SDS exact")
        ax.set_ylabel(f"{STATE_LABELS[q]} [{unit}]")
        ax.grid(alpha=0.3)
    axes[-1, 0].set_xlabel(f"t [{unit}]")
    axes[0, 0].legend(fontsize=7)
    axes[0, 0].set_title(f"Führer et al. Fig 4: D-SDS, midpoint rule, Δt = {data['dt']:g}", fontsize=9)
    return fig


# -- run ------------------------------------------------------------------------------------
def _write_csv(path, cols):
    write_text(path, csv_text(cols))
    return path


def run(case, out_dir, progress=None, jobs=None, quick=False) -> dict:
    """Reference outputs (:meth:`Case.run`), Figs 1-4 with their CSVs, the order table
    and the studies beyond the paper.  ``quick`` shortens the ladders (for tests)."""
    from nsfric.papers.fuhrer2024 import sliding_plates_study as study
    from nsfric.cases.base import Case

    def say(msg):
        if progress:
            progress(f"{case.name}: {msg}")

    result = Case.run(case, out_dir, progress)
    written = list(result["written"])
    unit = case.unit
    say("Fig 1")
    d1 = fig1_data(case)
    written.append(_write_csv(os.path.join(out_dir, "fig1.csv"), _long(d1["runs"])))
    written.append(save(plot_fig1(d1, unit), os.path.join(out_dir, "fig1.png")))
    say("Fig 2")
    d2 = fig2_data(case)
    written.append(_write_csv(os.path.join(out_dir, "fig2.csv"), d2["columns"]))
    written.append(save(plot_fig2(d2, unit), os.path.join(out_dir, "fig2.png")))
    say("Fig 3")
    d3 = fig3_data(case)
    written.append(_write_csv(os.path.join(out_dir, "fig3.csv"), fig3_columns(d3)))
    written.append(save(plot_fig3(d3, unit), os.path.join(out_dir, "fig3.png")))
    say("Fig 4")
    d4 = fig4_data(case)
    written.append(_write_csv(os.path.join(out_dir, "fig4.csv"), d4["columns"]))
    written.append(save(plot_fig4(d4, unit), os.path.join(out_dir, "fig4.png")))
    summary = {"fig1": fig1_summary(d1), "fig4": fig4_summary(d4)}
    written += study.run_studies(case, out_dir, summary, progress=say, jobs=jobs, quick=quick)
    return {"written": written, "summary": summary}


def fig1_summary(d1) -> dict:
    """Numbers behind Fig 1: the first D-SDS step (eq 18) and the stick-slip steps."""
    r = d1["runs"]["D-SDS, Δt = 0.1"]
    sliding = [m != "stick" for m in r.modes]
    switches = int(np.sum(np.diff(np.array(sliding, dtype=int)) != 0))
    p = r.params
    v_stick = p["gamma"] * p["F_max"] / (p["m"] * p["k"])  # eq 20
    last_slide = max((t for t, s in zip(r.t, sliding) if s), default=0.0)
    return {"xi_after_first_step": float(r["xi"][1]), "mode_switches": switches,
            "sliding_steps": int(sum(sliding)), "last_sliding_step_t": float(last_slide),
            "v_at_last_sliding_step": float(r["v"][list(r.t).index(last_slide)]),
            "eq20_threshold": v_stick}


def fig4_summary(d4) -> dict:
    res, ex = d4["result"], d4["exact"]
    err = np.max(np.abs(res["v"][1:] - ex(res.t[1:])[1]))
    sliding = [m != "stick" for m in res.modes]
    last = max((t for t, s in zip(res.t, sliding) if s), default=0.0)
    return {"max_v_error": float(err), "states_violate_coulomb_until": float(last)}
