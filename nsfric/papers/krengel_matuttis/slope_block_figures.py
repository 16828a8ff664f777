"""Figures of the block on a slope (Krengel & Matuttis Figs 2-5), each with its CSV.

``nsfric run slope-block`` calls :func:`run_all`, which writes

* ``reference-coulomb.csv`` / ``reference-cundall-strack.csv`` (+ JSON): the exact
  references at the Table 1 parameters (Filippov, cross-checked with IDA);
* ``fig2-slope-15deg.png`` / ``.csv``: horizontal and tangential position of a 1 cm
  block at 15 deg, delta-approximated DAE friction (Heun) and Cundall-Strack (Heun),
  with and without damping, with the exact references;
* ``fig3-slope-30deg.png`` / ``.csv``: the same at 30 deg (critical angle 31 deg), grip;
  the rotating block also ``fig2-slope-15deg-rotating-corners`` and
  ``fig3-slope-30deg-rotating-corners`` (``.csv``, ``.png``), one frictional contact per
  corner with and without damping (:mod:`nsfric.papers.krengel_matuttis.slope_block_series`);
* ``fig4-drift-dt.png`` / ``.csv``: drift against the time step (1 cm, 15 deg); the
  rotating block also ``fig4-drift-dt-rotating-corners.csv``, the delta schemes with one
  frictional contact per corner (:mod:`nsfric.papers.krengel_matuttis.slope_block_corners`);
* ``fig4-drift-dt-readings.csv`` (translating block): the drift under each stick-entry
  rule with the BDF history kept or restarted (the readings of Fig 4's claims);
* ``fig5-drift-size.png`` / ``.csv``: drift against the block size (dt = 5e-6 s) for
  delta-Heun, delta-BDF2 and delta-BDF5; the rotating block also
  ``fig5-drift-size-rotating-corners.csv`` (and ``.png``), with one frictional contact per corner;
* ``summary.json``: the drift tables, grip times and the Cundall-Strack amplitude (the
  rotating block also the exact 35 deg slide acceleration, ``slide35``).
"""
from __future__ import annotations

import os
from functools import partial

import numpy as np

from nsfric.io import write_csv_with_sidecar, write_json, versions
from nsfric.plotting import figure, save
from nsfric.papers.krengel_matuttis import slope_block_study as S

DTS = (1e-6, 2e-6, 5e-6, 1e-5, 2e-5, 5e-5)
SIZES = (1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 0.1, 0.2, 0.5, 1.0)
STYLE = {
    "DAE delta-Heun": dict(color="C0", lw=1.2),
    "CS Heun": dict(color="C1", lw=1.2),
    "exact static friction": dict(color="k", lw=1.0, ls="--"),
    "exact CS law": dict(color="C3", lw=1.0, ls=":"),
    "CS viscous Heun": dict(color="C2", lw=1.0, ls="-."),
}
FLOOR = 1e-16  # where exactly-zero drifts are drawn on log axes


def _obj(values):
    return np.array(list(values), dtype=object)


def _title(key):
    if isinstance(key, str):
        return f"damping: {key}"
    return f"{'with' if key else 'without'} damping"


def add_caption(fig, lines):
    """Caption below the axes (Table 1, differences from the paper)."""
    fig.text(0.01, -0.01, "\n".join(lines), fontsize=6.5, va="top", ha="left", wrap=True)


def plot_time_series(data, alpha, fig_no, caption=(), block=""):
    ncol = len(data)
    fig, axes = figure(2, ncol, figsize=(5.0 * ncol, 6.2), sharex=True)
    for j, (key, cur) in enumerate(data.items()):
        for label, s in cur.items():
            if not len(s["t"]):  # no data (a failed reference): named in this panel's legend, not drawn
                axes[0, j].plot([], [], " ", label=f"{label}: no data ({s.get('failed', '')})")
                axes[0, j].legend(fontsize=6)
                continue
            kw = STYLE.get(label, {})
            axes[0, j].plot(s["t"] * 1e3, s["x_h"] * 1e6, label=label, **kw)
            axes[1, j].plot(s["t"] * 1e3, s["x"] * 1e6, label=label, **kw)
        axes[0, j].set_title(_title(key), fontsize=9)
        axes[1, j].set_xlabel("t [ms]")
    axes[0, 0].set_ylabel("horizontal position [µm]")
    axes[1, 0].set_ylabel("tangential position x [µm]")
    axes[0, 0].legend(fontsize=7)
    for ax in axes.ravel():
        ax.grid(True, alpha=0.3)
    fig.suptitle(f"Fig {fig_no} analogue (Krengel & Matuttis){block}: 1 cm block at {alpha:g}°, "
                 "dt = 5e-6 s, Table 1", fontsize=10)
    add_caption(fig, caption)
    return fig


def time_series_columns(data) -> dict:
    cols = {"damping": [], "series": [], "scheme": [], "t": [], "x_h": [], "x": []}
    text = any(isinstance(k, str) for k in data)
    for damping, cur in data.items():
        for label, s in cur.items():
            n = len(s["t"])
            cols["damping"] += [damping] * n
            cols["series"] += [label] * n
            cols["scheme"] += [s["scheme"]] * n
            cols["t"] += list(s["t"])
            cols["x_h"] += list(s["x_h"])
            cols["x"] += list(s["x"])
    out = {k: np.asarray(v, dtype=float) for k, v in cols.items() if k not in ("series", "scheme", "damping")}
    out["damping"] = _obj(cols["damping"]) if text else np.asarray(cols["damping"], dtype=float)
    out["series"], out["scheme"] = _obj(cols["series"]), _obj(cols["scheme"])
    return {k: out[k] for k in ("damping", "series", "scheme", "t", "x_h", "x")}


def _drift_lines(ax, xs, rs, color, label, marker, xname):
    x = np.array(xs)
    plain = np.abs([r["drift"] for r in rs])
    mean = np.array([r["mean_abs"] for r in rs])
    ok = np.isfinite(plain)
    if len(rs) and any(np.isfinite(r["max_abs"]) and r["max_abs"] != abs(r["drift"]) for r in rs):
        lo = np.array([r["min_abs"] for r in rs])
        hi = np.array([r["max_abs"] for r in rs])
        m = np.isfinite(mean)
        ax.loglog(x[m], np.maximum(mean[m], FLOOR), "-", color=color, label=f"{label}: mean over grid phases")
        ax.fill_between(x[m], np.maximum(lo[m], FLOOR), np.maximum(hi[m], FLOOR), color=color, alpha=0.15)
        ax.loglog(x[ok], np.maximum(plain[ok], FLOOR), marker, color=color, ms=4, ls="none",
                  label=f"{label}: run from t = 0")
    else:
        ax.loglog(x[ok], np.maximum(plain[ok], FLOOR), marker + "-", color=color, ms=4, label=label)
    for xv in x[~ok]:  # no data there: named in the legend (no handle), nothing on the data scale
        ax.plot([], [], " ", label=f"{label}: diverged at {xname} = {xv:g} (no point)")


def outside_legend(ax):
    """The legend beside the axes (right): it hides no data; a diverged point is named in
    it, never drawn."""
    ax.legend(fontsize=6.5, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)


def plot_drift_dt(rows, exact, window, caption=(), block=""):
    fig, axes = figure(1, 1, figsize=(7.0, 5.0))
    ax = axes[0, 0]
    marks = "os^vD"
    for k, scheme in enumerate(dict.fromkeys(r["scheme"] for r in rows)):
        rs = [r for r in rows if r["scheme"] == scheme]
        _drift_lines(ax, [r["dt"] for r in rs], rs, f"C{k}", f"{scheme} ({rs[0]['law']})", marks[k % 5],
                     "dt")
    ex = max(abs(v["drift"]) for k, v in exact.items() if k != "cs")
    ax.axhline(max(ex, FLOOR), color="k", ls="--", lw=1,
               label=f"exact static friction (Filippov, IDA): drift {ex:.1g} m")
    if "cs" in exact:
        ax.axhline(max(abs(exact["cs"]["drift"]), FLOOR), color="C4", ls=":", lw=1,
                   label=f"exact CS law (IDA): x(t1) - x(t0) = {exact['cs']['drift']:.2g} m")
    ax.set_xlabel("dt [s]")
    ax.set_ylabel(f"|x({window[1]:g} s) - x({window[0]:g} s)| [m]")
    ax.set_title(f"Fig 4 analogue{block}: drift of a 1 cm block at 15° (zero drawn at 1e-16 m)", fontsize=9)
    outside_legend(ax)
    ax.grid(True, which="both", alpha=0.3)
    add_caption(fig, caption)
    return fig


def plot_drift_size(rows, window, dt, caption=(), block=""):
    fig, axes = figure(1, 1, figsize=(7.0, 5.0))
    ax = axes[0, 0]
    marks = {"heun": "o", "bdf2": "s", "bdf5": "^"}
    for k, integ in enumerate(dict.fromkeys(r["integrator"] for r in rows)):
        rs = [r for r in rows if r["integrator"] == integ]
        if integ == "exact":  # the solvers the rows name (the first that ended at each size)
            d = np.array([abs(r["drift"]) for r in rs])
            solvers = ", ".join(dict.fromkeys(r.get("scheme", "exact (ida)").removeprefix("exact ").strip("()")
                                              for r in rs))
            top = f"max drift {np.nanmax(d):.1g} m" if np.isfinite(d).any() else "no data"
            ax.loglog([r["l"] for r in rs], np.maximum(d, FLOOR), "k--", marker="x", ms=4,
                      label=f"exact static friction ({solvers}): {top}")
            for l in (r["l"] for r, v in zip(rs, d) if not np.isfinite(v)):
                ax.plot([], [], " ", label=f"exact static friction: no data at l = {l:g}")
            continue
        _drift_lines(ax, [r["l"] for r in rs], rs, f"C{k}", f"delta-{integ}", marks.get(integ, "o"), "l")
    ax.set_xlabel("block size l [m]")
    ax.set_ylabel(f"|x({window[1]:g} s) - x({window[0]:g} s)| [m]")
    ax.set_title(f"Fig 5 analogue{block}: drift against particle size, 15°, dt = {dt:g} s (zero at 1e-16 m)",
                 fontsize=9)
    outside_legend(ax)
    ax.grid(True, which="both", alpha=0.3)
    add_caption(fig, caption)
    return fig


def _rows_columns(rows, keys) -> dict:
    out = {}
    for k in keys:
        vals = [r.get(k) for r in rows]
        out[k] = _obj(vals) if any(isinstance(v, str) for v in vals) else np.asarray(vals, dtype=float)
    return out


def run_all(case, out_dir, progress=None, dts=DTS, sizes=SIZES, t_series=0.02,
            windows=(S.WINDOW_1CM, S.WINDOW_SIZES), n_phases=S.N_PHASES, mechanism=None,
            corners_mechanism=None, readings=None, growth=None, jobs=1) -> dict:
    """Write Table 1, the references, Figs 2-5 with their CSVs and ``summary.json`` (see
    module); for the rotating block the files end in ``-rotating``, Figs 2-3 show the
    damping variants one at a time, and ``drift-mechanism.csv`` holds the drift with
    one ingredient changed at a time (both blocks; ``mechanism``: its options, or
    False to skip), ``drift-mechanism-corners.csv`` the same per corner
    (:mod:`nsfric.papers.krengel_matuttis.slope_block_corners_mechanism`; ``corners_mechanism``: its options,
    or False to skip); the translating block also ``fig4-drift-dt-readings.csv``, Fig 4's
    drift under each stick-entry rule and BDF history
    (:mod:`nsfric.papers.krengel_matuttis.slope_block_readings`; ``readings``: its options, or False to skip);
    the rotating block also ``fig4-drift-dt-rotating-rules.csv``, delta-Heun's drift against dt
    under each stick-entry rule (:func:`~nsfric.papers.krengel_matuttis.slope_block_readings.growth_rows`;
    ``growth``: its options, or False to skip).

    ``dts``, ``sizes``, ``t_series`` (end of Figs 2-3), the drift ``windows`` of Figs 4
    and 5 and the number of grid phases can be reduced for quick runs (the tests).  The
    computations behind the files are independent parts, run on ``jobs`` local processes
    (the same files as one process); the files are written here, in one order."""
    w4, w5 = windows
    from nsfric.papers.krengel_matuttis import slope_block_table as T
    from nsfric.study.execute import map_tasks

    rot = bool(getattr(case, "rotating", False))
    suffix, block = ("-rotating", " (rotating block)") if rot else ("", "")
    written, summary = [], {"case": case.name, "reference": case.reference, "versions": versions()}
    meta0 = {"case": case.name, "reference": case.reference, "versions": versions()}
    cols, meta = T.table1(case)
    path = os.path.join(out_dir, "table1.csv")
    write_csv_with_sidecar(path, cols, dict(meta0, **meta))
    written.append(path)
    table = T.caption(case)
    # the independent computations, in this order: name -> (function, keyword arguments)
    parts = {f"reference {law}": (_reference_part, dict(law=law, out_dir=out_dir)) for law in case.laws}
    if rot and mechanism is not False:
        parts["mechanism"] = (_mechanism_part, dict(mechanism or {}))
    variants = S.DAMPING_SEPARATE if rot else S.DAMPING_BOTH
    series = S.SERIES_ROTATING if rot else S.SERIES
    for alpha in (15.0, 30.0):
        parts[f"series {alpha:g}"] = (S.time_series, dict(alpha=alpha, t_end=t_series, variants=variants,
                                                        series=series))
    if rot:  # Figs 2-3 with one frictional contact per corner (nsfric.papers.krengel_matuttis.slope_block_series)
        parts["corner series"] = (_corner_series_part, dict(out_dir=out_dir, table=table, t_end=t_series,
                                                            meta=meta0))
    parts["exact drift"] = (_exact_drift_part, dict(window=w4))
    parts["drift dt"] = (S.drift_vs_dt, dict(dts=dts, window=w4, n_phases=n_phases))
    if rot:  # Fig 4 with one frictional contact per corner (nsfric.schemes.corners)
        parts["corner drift"] = (_corner_drift_part, dict(window=w4))
    if not rot and readings is not False:  # Fig 4 under each stick-entry rule and BDF history
        parts["readings"] = (_readings_part, dict(window=w4, n_phases=n_phases, **(readings or {})))
    if rot and growth is not False:  # "the drift increases with the timestep" under each stick-entry rule
        parts["growth"] = (_growth_part, dict(window=w4, **(growth or {})))
    if rot and corners_mechanism is not False:  # why BDF drifts less than Heun per corner
        parts["corners mechanism"] = (_corners_mechanism_part, dict(out_dir=out_dir, meta=meta0, window=w4,
                                                                    **(corners_mechanism or {})))
    parts["drift size"] = (S.drift_vs_size, dict(sizes=sizes, window=w5, n_phases=n_phases))
    stem5 = os.path.join(out_dir, f"fig5-drift-size{suffix}")
    if rot:  # Fig 5 with one frictional contact per corner (nsfric.papers.krengel_matuttis.slope_block_corners)
        parts["corner size"] = (_corner_size_part, dict(path=stem5 + "-corners.csv", meta=meta0, window=w5))
        parts["slide 35"] = (S.slide_acceleration, dict(alpha=35.0))
    for key, extra in (("gt_ratio 0", {"gt_ratio": 0.0}), ("damping 0", {"damping": 0.0}), ("both", {})):
        parts[f"amplitude {key}"] = (S.cs_amplitude, dict(alpha=15.0, params=extra,
                                                          window=(t_series / 2, t_series)))
    names = list(parts)
    done = (lambda k, n: progress(f"{case.name}: {k}/{n} parts")) if progress else None
    got = dict(zip(names, map_tasks(partial(_run_part, case, parts), names, jobs=jobs, progress=done)))

    written += [got[f"reference {law}"] for law in case.laws]
    mech = []
    if "mechanism" in got:
        mech = got["mechanism"]
        path = os.path.join(out_dir, "drift-mechanism.csv")
        write_csv_with_sidecar(path, _rows_columns(mech, ("block", "variant", "scheme", "drift", "mean_abs",
                                                          "ratio_to_heun")),
                               dict(meta0, alpha=15.0, dt=S.DT_PAPER, options=mechanism or {}))
        written.append(path)
    for alpha, no in ((15.0, 2), (30.0, 3)):
        data = got[f"series {alpha:g}"]
        stem = os.path.join(out_dir, f"fig{no}-slope-{alpha:g}deg{suffix}")
        write_csv_with_sidecar(stem + ".csv", time_series_columns(data),
                               dict(meta0, figure=no, alpha=alpha, dt=S.DT_PAPER, t_end=t_series))
        fig = plot_time_series(data, alpha, no, T.time_series_caption(case, table), block)
        written += [stem + ".csv", save(fig, stem + ".png")]
        summary[f"fig{no}"] = {
            (f"damping={d}" if isinstance(d, str) else f"damping={d:g}"): {
                lab: {"x_end": float(s["x"][-1]), "settle_time": S.settle_time(s["t"], s["x"]),
                      "first_stick": next((tt for k, tt in s["events"] if k == "stick"), None),
                      "events": s["events"][:6], "n_events": len(s["events"])}
                for lab, s in cur.items()}
            for d, cur in data.items()}
    if "corner series" in got:
        written += got["corner series"]["written"]
        summary.update(got["corner series"]["summary"])
    exact, rows4 = got["exact drift"], got["drift dt"]
    stem = os.path.join(out_dir, f"fig4-drift-dt{suffix}")
    write_csv_with_sidecar(stem + ".csv", _rows_columns(rows4, ("scheme", "law", "dt", "drift", "mean_abs", "min_abs", "max_abs", "rate")),
                           dict(meta0, figure=4, alpha=15.0, l=0.01, window=w4, exact=exact, n_phases=n_phases))
    rows_c = ()
    if "corner drift" in got:
        from nsfric.papers.krengel_matuttis.slope_block_corners import COLUMNS

        rows_c = got["corner drift"]
        path = stem + "-corners.csv"
        write_csv_with_sidecar(path, _rows_columns(rows_c, COLUMNS),
                               dict(meta0, figure=4, law="coulomb-corners", alpha=15.0, l=0.01, window=w4))
        written.append(path)
        summary["fig4_corners"] = {"window": w4, "rows": rows_c}
    if "readings" in got:
        from nsfric.papers.krengel_matuttis.slope_block_readings import COLUMNS as RCOLS

        rows_r = got["readings"]
        path = stem + "-readings.csv"
        write_csv_with_sidecar(path, _rows_columns(rows_r, RCOLS),
                               dict(meta0, figure=4, alpha=15.0, l=0.01, window=w4, n_phases=n_phases))
        written.append(path)
        summary["fig4_readings"] = {"window": w4, "rows": rows_r}
    if "growth" in got:
        from nsfric.papers.krengel_matuttis.slope_block_readings import GROWTH_COLUMNS

        rows_g = got["growth"]
        path = stem + "-rules.csv"
        write_csv_with_sidecar(path, _rows_columns(rows_g, GROWTH_COLUMNS),
                               dict(meta0, figure=4, scheme="delta-heun", alpha=15.0, l=0.01, window=w4))
        written.append(path)
        summary["fig4_growth"] = {"window": w4, "rows": rows_g}
    mech_c = []
    if "corners mechanism" in got:
        mech_c, path = got["corners mechanism"]
        written.append(path)
    fig = plot_drift_dt(rows4, exact, w4, T.fig4_caption(case, table, rows4, mech, rows_c)
                        + T.fig4_corners_mechanism_caption(mech_c), block)
    written += [stem + ".csv", save(fig, stem + ".png")]
    rows5 = got["drift size"]
    write_csv_with_sidecar(stem5 + ".csv", _rows_columns(rows5, ("integrator", "l", "drift", "mean_abs", "min_abs", "max_abs", "rate",
                                                    "stick_time", "from_start_abs")),
                           dict(meta0, figure=5, alpha=15.0, dt=S.DT_PAPER, window=w5, n_phases=n_phases))
    rows5c = ()
    if "corner size" in got:
        from nsfric.papers.krengel_matuttis.slope_block_corners import fig5_caption_line

        rows5c = got["corner size"]
        written.append(stem5 + "-corners.csv")
        summary["fig5_corners"] = {"window": w5, "rows": rows5c}
    fig = plot_drift_size(rows5, w5, S.DT_PAPER, T.fig5_caption(case, table, rows5)
                          + (fig5_caption_line(rows5c) if rot else []), block)
    written += [stem5 + ".csv", save(fig, stem5 + ".png")]
    if rot:  # the per-corner rows drawn on their own
        from nsfric.papers.krengel_matuttis.verdicts_rotating import CORNER_SIZE_REASON

        why = f"Why (tested, tests/test_corner_fig5.py): {CORNER_SIZE_REASON}."
        fig = plot_drift_size(rows5c, w5, S.DT_PAPER, [table] + fig5_caption_line(rows5c) + [why],
                              " (rotating block, one contact per corner)")
        written.append(save(fig, stem5 + "-corners.png"))
    summary.update(fig4={"window": w4, "n_phases": n_phases, "exact": exact, "rows": rows4},
                   fig5={"window": w5, "n_phases": n_phases, "rows": rows5}, mechanism=mech)
    if rot:  # above the critical angle: sliding with the exact acceleration
        summary["slide35"] = got["slide 35"]
    summary["cs_amplitude"] = [got[f"amplitude {key}"] for key in ("gt_ratio 0", "damping 0", "both")]
    path = os.path.join(out_dir, "summary.json")
    write_json(path, summary)
    written.append(path)
    return {"written": written, "summary": summary}


def _run_part(case, parts: dict, name: str):
    """``function(case, **options)`` of the part ``name`` of :func:`run_all` (one task of
    its pool)."""
    function, options = parts[name]
    return function(case, **options)


def _reference_part(case, law: str, out_dir: str) -> str:
    """The reference of ``law`` (Filippov, IDA's disagreement in the sidecar) written to
    ``reference-LAW.csv``; its path."""
    from nsfric.cases.reference import reference_meta
    from nsfric.solvers.crosscheck import disagreement

    sol = case.reference_solution(law, samples=2001)
    other = case.reference_solution(law, solver="ida", samples=2001)
    path = os.path.join(out_dir, f"reference-{law}.csv")
    write_csv_with_sidecar(path, sol.columns(), reference_meta(case, law, sol, disagreement(sol, other)))
    return path


def _mechanism_part(case, **options) -> list:
    """The drift with one ingredient changed at a time, both blocks (``drift-mechanism.csv``)."""
    from nsfric.cases.base import get_case
    from nsfric.papers.krengel_matuttis.slope_block_mechanism import mechanism_rows

    return mechanism_rows([get_case("slope-block"), case], **options)


def _corner_series_part(case, out_dir: str, table: str, t_end: float, meta: dict) -> dict:
    """Figs 2-3 with one frictional contact per corner, written; ``{"written", "summary"}``."""
    from nsfric.papers.krengel_matuttis.slope_block_series import write_figures

    return write_figures(case, out_dir, table, t_end=t_end, meta=meta)


def _exact_drift_part(case, window) -> dict:
    """Fig 4's exact drifts: static friction per solver, and Cundall-Strack's (``"cs"``)."""
    exact = S.exact_drift(case, {"alpha": 15.0}, window)
    cs = S.exact(case, "cundall-strack", {"alpha": 15.0}, window[1])
    exact["cs"] = {"drift": S.drift_of(cs.t, cs["x"], window), "solver": cs.solver}
    return exact


def _corner_drift_part(case, window) -> list:
    from nsfric.papers.krengel_matuttis.slope_block_corners import corner_drift_rows

    return corner_drift_rows(case, window=window)


def _readings_part(case, **options) -> list:
    from nsfric.papers.krengel_matuttis.slope_block_readings import reading_rows

    return reading_rows(case, **options)


def _growth_part(case, **options) -> list:
    from nsfric.papers.krengel_matuttis.slope_block_readings import growth_rows

    return growth_rows(case, **options)


def _corners_mechanism_part(case, out_dir: str, meta: dict, **options) -> tuple:
    from nsfric.papers.krengel_matuttis.slope_block_corners_mechanism import write_rows

    return write_rows(case, out_dir, meta, **options)


def _corner_size_part(case, path: str, meta: dict, window) -> list:
    from nsfric.papers.krengel_matuttis.slope_block_corners import write_fig5

    return write_fig5(case, path, meta, window=window)  # its own sizes
