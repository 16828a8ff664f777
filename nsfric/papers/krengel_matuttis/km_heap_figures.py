"""Figs 6-7 of Krengel & Matuttis §5 with the disc heap (:mod:`nsfric.papers.krengel_matuttis.km_heap`).

* ``fig7.csv`` -- ``method, dt, t, com_drift``: the centre of mass's displacement from
  the start of the observation (``t`` counts from it), for exact static friction at
  dt = 1e-5 and 5e-6 s and Cundall-Strack at 1e-5 s, and exact friction with velocity
  projection (``velocity-projection``) at 1e-5 s; the sidecar holds the parameters and
  :func:`summary`;
* ``fig7.png`` -- ``com_drift`` against ``t`` (log drift axis; a zero drift, e.g. at
  ``t = 0``, has no point on it and is not drawn);
* ``fig6.png`` -- the heap at the end of the observation, exact friction (dt = 5e-6 s)
  and Cundall-Strack side by side, with the normal contact forces as lines between the
  centres (width ~ ``F_n``; stuck contacts of exact friction in red);
* ``heap-final.csv`` -- every disc at the end of every run (and of the deposition);
* ``heap-runs.csv`` -- centre of mass, energies (per unit depth), active and stuck
  contacts and the largest overlap/radius of every run at the recorded times.
"""
from __future__ import annotations

import os

import numpy as np

from nsfric.io import versions, write_csv_with_sidecar
from nsfric.plotting import figure, save
from nsfric.schemes.stick_rules import stick_rule
from nsfric.papers.krengel_matuttis.km_heap import RUNS, heap_runs

#: fraction of the deposition's largest kinetic energy below which the heap counts as settled
SETTLED = 1e-6
#: the drift is also reported at these times after the observation start [s]
REPORT_TIMES = (0.01, 0.05, 0.1, 0.2)


NAMES = {"exact": "exact static friction", "cundall-strack": "Cundall-Strack",
         "velocity-projection": "exact + velocity projection"}


def label(method: str, dt: float) -> str:
    return f"{NAMES[method]}, dt = {dt:g} s"


def drift(run) -> tuple:
    """``(t, com_drift)`` of a run, ``t`` from its start."""
    r = run.rows
    return r["t"] - r["t"][0], np.hypot(r["com_x"] - r["com_x"][0], r["com_y"] - r["com_y"][0])


def settle_time(run, fraction=SETTLED):
    """The last recorded time at which the kinetic energy exceeded ``fraction`` of its
    maximum (None when it still does at the end)."""
    ek = run.rows["E_kin"]
    above = np.nonzero(ek > fraction * np.max(ek))[0]
    if len(above) and above[-1] == len(ek) - 1:
        return None
    return float(run.rows["t"][above[-1] + 1]) if len(above) else 0.0


def heap_slope(discs, X, radius: float) -> dict:
    """The heap's flank angles [deg]: the highest disc top per bin of one mean diameter,
    above two mean diameters over the floor discs, fitted by a line on each side of
    the highest bin (``{"left", "right", "mean"}``; None where a side has < 2 bins)."""
    mobile = np.isfinite(discs.mass)
    x, top = X[mobile, 0], X[mobile, 1] + discs.radius[mobile]
    bins = np.floor(x / (2 * radius)).astype(int)
    ub = np.unique(bins)
    h = np.array([top[bins == k].max() for k in ub])
    xc = (ub + 0.5) * 2 * radius
    ip = int(np.argmax(h))
    out = {}
    for name, side in (("left", xc <= xc[ip]), ("right", xc >= xc[ip])):
        sel = side & (h > 5 * radius)
        out[name] = (float(np.degrees(np.arctan(-np.polyfit(np.abs(xc[sel] - xc[ip]), h[sel], 1)[0])))
                     if sel.sum() >= 2 else None)
    both = [v for v in out.values() if v is not None]
    out["mean"] = float(np.mean(both)) if both else None
    return out


def summary(runs: dict, values: dict) -> dict:
    """Numbers of the runs: final drifts, drift at :data:`REPORT_TIMES`, the ratios Fig 7
    is about, energies, contacts, largest overlap, wall time."""
    dep = runs["deposit"]
    out = {"deposit": {"t": values["t_deposit"], "dt": values["dt_deposit"], "settle_time": settle_time(dep),
                       "E_kin_end": float(dep.rows["E_kin"][-1]), "E_kin_max": float(np.max(dep.rows["E_kin"])),
                       "contacts": int(dep.rows["contacts"][-1]), "seconds": dep.seconds,
                       "slope_deg": heap_slope(runs["discs"], dep.X, values["radius"])},
           "runs": []}
    for method, dt in RUNS:
        run = runs[(method, dt)]
        t, d = drift(run)
        E = run.rows["E_kin"] + run.rows["E_pot"] + run.rows["E_el"]
        out["runs"].append({
            "method": method, "dt": dt, "com_drift_end": float(d[-1]), "t_end": float(t[-1]),
            "com_drift_at": {f"{tt:g}": float(np.interp(tt, t, d)) for tt in REPORT_TIMES if tt <= t[-1]},
            "E_kin_end": float(run.rows["E_kin"][-1]), "E_total_rise_max": float(np.max(E - E[0])),
            "E_total_change": float(E[-1] - E[0]),
            "contacts_end": int(run.rows["contacts"][-1]), "stuck_end": int(run.rows["stuck"][-1]),
            "max_overlap_over_radius": float(np.max(run.rows["max_overlap"])),
            "steps": int(round(t[-1] / dt)), "seconds": run.seconds})
    final = {(r["method"], r["dt"]): r["com_drift_end"] for r in out["runs"]}
    out["ratio_exact_dt"] = _ratio(final[("exact", 1e-5)], final[("exact", 5e-6)])
    out["ratio_exact_over_cs"] = _ratio(final[("exact", 1e-5)], final[("cundall-strack", 1e-5)])
    out["ratio_projection_over_cs"] = _ratio(final[("velocity-projection", 1e-5)], final[("cundall-strack", 1e-5)])
    # the largest rise of the total energy above its start [J/m], with and without the projection
    out["energy_rise"] = {m: {f"{r['dt']:g}": r["E_total_rise_max"] for r in out["runs"] if r["method"] == m}
                          for m in ("exact", "velocity-projection")}
    return out


def _ratio(a, b):
    """``a/b``; None where ``b`` is 0 (a drift of exactly zero)."""
    return a / b if b else None


def write_all(case, out_dir: str, values: dict, progress=None, jobs: int = 1) -> list:
    """Figs 6-7, their CSVs and the runs' CSVs into ``out_dir`` (Fig 7's runs on ``jobs``
    local processes); the paths written."""
    runs = heap_runs(values, progress, jobs=jobs)
    summ = summary(runs, values)
    meta = {"case": case.name, "reference": case.reference, "parameters": values, "summary": summ,
            "stick_rule": stick_rule().name,
            "versions": versions()}
    written = []
    cols = {"method": [], "dt": [], "t": [], "com_drift": []}
    for method, dt in RUNS:
        t, d = drift(runs[(method, dt)])
        cols["method"] += [method] * len(t)
        cols["dt"] += [dt] * len(t)
        cols["t"] += list(t)
        cols["com_drift"] += list(d)
    path = os.path.join(out_dir, "fig7.csv")
    written += [path, write_csv_with_sidecar(path, {k: np.asarray(v) for k, v in cols.items()}, meta)]
    written += _runs_csv(runs, out_dir, meta)
    written.append(_fig7(runs, out_dir, summ))
    written.append(_fig6(runs, out_dir, values))
    return written


def _runs_csv(runs, out_dir, meta) -> list:
    keys = [("deposit", "deposit")] + [((m, dt), "observe") for m, dt in RUNS]
    series, final = {}, {}
    for key, phase in keys:
        run = runs[key]
        method, dt = ("cundall-strack", meta["parameters"]["dt_deposit"]) if key == "deposit" else key
        n = len(run.rows["t"])
        for c, v in (("phase", [phase] * n), ("method", [method] * n), ("dt", [dt] * n)):
            series.setdefault(c, []).extend(v)
        for c, v in run.rows.items():
            series.setdefault(c, []).extend(v)
        nd = run.X.shape[0]
        fixed = ~np.isfinite(runs["discs"].mass)
        for c, v in (("phase", [phase] * nd), ("method", [method] * nd), ("dt", [dt] * nd),
                     ("disc", np.arange(nd)), ("fixed", fixed.astype(int)), ("radius", runs["discs"].radius)):
            final.setdefault(c, []).extend(v)
        for j, c in enumerate(("x", "y", "theta", "vx", "vy", "omega")):
            final.setdefault(c, []).extend(run.X[:, j])
    out = []
    for name, cols in (("heap-runs.csv", series), ("heap-final.csv", final)):
        path = os.path.join(out_dir, name)
        out += [path, write_csv_with_sidecar(path, {k: np.asarray(v) for k, v in cols.items()},
                                             {k: meta[k] for k in ("case", "reference", "parameters", "versions")})]
    return out


def energy_text(summ) -> str:
    """The energy rises of ``summary()["energy_rise"]`` in one line (method: dt = value, ...)."""
    return "; ".join(f"{m} " + ", ".join(f"{dt} s: {v:.2g}" for dt, v in by.items())
                     for m, by in summ["energy_rise"].items())


def _fig7(runs, out_dir, summ) -> str:
    fig, axes = figure(1, 1, figsize=(6.4, 4.2))
    ax = axes[0, 0]
    marks = {("exact", 1e-5): "o", ("exact", 5e-6): "v", ("cundall-strack", 1e-5): "s",
             ("velocity-projection", 1e-5): "D", ("velocity-projection", 5e-6): "d"}
    notes = []
    for (method, dt), mk in marks.items():
        t, d = drift(runs[(method, dt)])
        keep = (d > 0) & (t > 0)                       # no point where the log axes have none
        if not keep.any():
            notes.append(f"{label(method, dt)}: com_drift = 0 throughout (nothing to draw on a log axis)")
            continue
        every = np.unique(np.geomspace(1, keep.sum(), 12).astype(int) - 1)   # even on the log axis
        ax.plot(t[keep], d[keep], marker=mk, markevery=list(every), ms=5,
                label=label(method, dt), ls={"exact": "-", "cundall-strack": "--"}.get(method, ":"))
    if notes:
        ax.text(0.02, 0.98, "\n".join(notes), transform=ax.transAxes, va="top", fontsize=7)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("t since the start of the observation [s]")
    ax.set_ylabel("drift of the centre of mass [m]")
    ax.legend(fontsize=8, loc="upper left" if not notes else "center left")
    ratio = lambda r: "n/a" if r is None else f"{r:.3g}x"  # noqa: E731
    ax.set_title(f"K-M Fig 7 with {runs['discs'].X.shape[0] - runs['n_fixed']} discs, drift at the end: "
                 f"exact/CS (dt 1e-5) {ratio(summ['ratio_exact_over_cs'])}, exact dt 1e-5/5e-6 "
                 f"{ratio(summ['ratio_exact_dt'])}; stick-entry rule '{stick_rule().name}'\n"
                 f"largest rise of the total energy [J/m]: {energy_text(summ)}", fontsize=8)
    return save(fig, os.path.join(out_dir, "fig7.png"))


def _fig6(runs, out_dir, values) -> str:
    from matplotlib.collections import LineCollection
    from matplotlib.patches import Circle

    discs, nf = runs["discs"], runs["n_fixed"]
    keys = (("exact", 5e-6), ("cundall-strack", 1e-5))
    W = 2 * values["radius"] * values["width"]
    top = max(float(np.max(runs[k].X[:, 1] + discs.radius)) for k in keys) + values["radius"]
    fig, axes = figure(2, 1, figsize=(9, 2 * 8 * (top + values["radius"]) / W + 1.6), sharex=True)
    for ax, key in zip(axes[:, 0], keys):
        run = runs[key]
        X, c = run.X, run.contacts
        for i in range(X.shape[0]):
            ax.add_patch(Circle(X[i, :2], discs.radius[i], fc="0.6" if i < nf else "none", ec="k", lw=0.5))
        act = np.nonzero(c["active"] & (c["j"] < X.shape[0]))[0]
        seg = [(X[c["i"][s], :2], X[c["j"][s], :2]) for s in act]
        fmax = max(float(np.max(c["F_n"])), 1e-300)
        col = ["tab:red" if c["stuck"][s] else "tab:blue" for s in act]
        ax.add_collection(LineCollection(seg, linewidths=0.3 + 3 * c["F_n"][act] / fmax, colors=col))
        ax.set_xlim(-W / 2, W / 2)
        ax.set_ylim(-values["radius"], top)
        ax.set_aspect("equal")
        ax.set_title(f"{label(*key)}: end of the observation (lines: contact forces between discs, "
                     "width ~ F_n" + ("; red: stuck, blue: slipping" if key[0] == "exact" else "") + ")", fontsize=8)
        ax.set_ylabel("y [m]")
    axes[-1, 0].set_xlabel("x [m]")
    return save(fig, os.path.join(out_dir, "fig6.png"))
