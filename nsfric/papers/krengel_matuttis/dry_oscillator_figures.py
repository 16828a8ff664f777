"""Figures of the dry-friction oscillator (Krengel & Matuttis §3): Fig 1 and the
delta-approximation measured against the exact solution.

``nsfric run dry-oscillator`` calls :func:`run_figures` after the default reference
outputs; it writes

* ``fig1-phase-flow.png`` / ``fig1-trajectories.csv``: the phase flow of both regions
  (arrows of ``f_I`` for ``v > 0`` and ``f_II`` for ``v < 0``, from the derived model),
  the sticking segment ``|x| <= mu F_N/k`` on ``v = 0`` and exact trajectories
  (event-driven Filippov) from several initial states;
* ``delta-convergence.png`` / ``delta-convergence.csv`` / ``delta-orders.csv``: the
  delta-approximated DAE friction (K-M eqs 15-17) on Heun, BDF2 and BDF5, plain and
  with velocity projection: max error over the trajectory against the closed-form
  reference, its observed order (least squares over the asymptotic range, as
  ``nsfric converge``), and the drift while stuck, ``x(t_end) - x(t_a)`` over a window
  in which the exact solution is stuck (its drift is exactly zero).
"""
from __future__ import annotations

import os

import numpy as np

from nsfric.io import write_csv_with_sidecar, versions
from nsfric.plotting import figure, save

INITIAL_STATES = ((2.1, 0.0), (-2.3, 0.0), (0.0, 3.0), (1.2, -2.2), (-0.3, 1.2), (0.2, 0.0))
DELTA_SCHEMES = ("delta-heun", "delta-bdf2", "delta-bdf5",
                 "delta-heun-proj", "delta-bdf2-proj", "delta-bdf5-proj")
DTS = (0.04, 0.02, 0.01, 0.005, 0.0025, 0.00125, 0.000625)
STUCK_WINDOW = (5.0, 10.0)  # the exact solution sticks at 3 pi/2 = 4.712 and stays


def phase_flow(case, progress=None, initial_states=INITIAL_STATES, t_end=10.0):
    """Arrows of both regions, the sticking segment and exact trajectories (data)."""
    from nsfric.symbolic.derive import derive, param_vector

    model = case.model()
    values = case.bind()
    d = derive(model)
    p = param_vector(model, values)
    X, V = np.meshgrid(np.linspace(-2.6, 2.6, 27), np.linspace(-3.6, 3.6, 25))
    Y = np.array([X.ravel(), V.ravel()])
    fI, fII = d.rhs("slip+")(Y, p), d.rhs("slip-")(Y, p)
    F = np.where(Y[1] > 0, fI, fII).reshape(2, *X.shape)
    half = values["mu"] * values["F_N"] / values["k"]
    trajs = []
    for x0, v0 in initial_states:
        if progress:
            progress(f"dry-oscillator: exact trajectory from ({x0:g}, {v0:g})")
        sol = case.reference_solution(params={"x0": x0, "v0": v0}, t_end=t_end, samples=2001)
        trajs.append({"x0": x0, "v0": v0, "t": sol.t, "x": sol["x"], "v": sol["v"],
                      "modes": np.asarray(sol.sample_modes, dtype=object),
                      "events": [(e.kind, e.t, e.y) for e in sol.events]})
    return {"X": X, "V": V, "F": F, "half": half, "upper": Y[1].reshape(X.shape) > 0, "trajectories": trajs}


def plot_phase_flow(data):
    fig, axes = figure(1, 1, figsize=(7.2, 6.4))
    ax = axes[0, 0]
    X, V, F, up = data["X"], data["V"], data["F"], data["upper"]
    norm = np.hypot(F[0], F[1] / 2) + 1e-300
    for sel, color, lab in ((up, "C0", "region I (v > 0): f_I = -k x - mu F_N"),
                            (~up, "C2", "region II (v < 0): f_II = -k x + mu F_N")):
        ax.quiver(X[sel], V[sel], (F[0] / norm)[sel], (F[1] / norm)[sel], color=color, alpha=0.55,
                  angles="xy", scale=38, width=0.0025, label=lab)
    for j, tr in enumerate(data["trajectories"]):
        ax.plot(tr["x"], tr["v"], color="0.15", lw=1.1, label="exact trajectories (Filippov)" if j == 0 else None)
        ax.plot(tr["x0"], tr["v0"], "o", color="0.15", ms=3.5)
        for kind, t, y in tr["events"]:
            if kind == "stick":
                ax.plot(y[0], y[1], "s", color="C3", ms=5, mfc="none")
    h = data["half"]
    ax.plot([-h, h], [0, 0], color="C3", lw=4, solid_capstyle="butt",
            label=f"sticking segment |x| ≤ μF_N/k = {h:g} (Filippov sliding)")
    ax.axhline(0, color="0.5", lw=0.5)
    ax.set_xlabel("x [n.u.]")
    ax.set_ylabel("v = dx/dt [n.u.]")
    ax.set_title("Fig 1 analogue (Krengel & Matuttis): phase flow of m x'' = -μF_N sign(x') - k x,\n"
                 "m = 0.25, k = 1, μ = 0.4, F_N = 1; □ = stick event", fontsize=9)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2)
    ax.set_xlim(-2.7, 2.7)
    ax.set_ylim(-3.8, 3.8)
    return fig


def trajectory_columns(data) -> dict:
    cols = {k: [] for k in ("trajectory", "x0", "v0", "t", "x", "v", "mode")}
    for j, tr in enumerate(data["trajectories"]):
        n = len(tr["t"])
        cols["trajectory"] += [j] * n
        cols["x0"] += [tr["x0"]] * n
        cols["v0"] += [tr["v0"]] * n
        cols["t"] += list(tr["t"])
        cols["x"] += list(tr["x"])
        cols["v"] += list(tr["v"])
        cols["mode"] += list(tr["modes"])
    out = {k: np.asarray(v, dtype=float) for k, v in cols.items() if k != "mode"}
    out["trajectory"] = np.asarray(cols["trajectory"], dtype=object)
    out["mode"] = np.asarray(cols["mode"], dtype=object)
    return out


def delta_study(case, schemes=DELTA_SCHEMES, dts=DTS, window=STUCK_WINDOW, progress=None):
    """Rows ``{scheme, dt, error, error_x, error_v, drift, v_stuck, t_stick, dt_stick}`` and
    the observed orders ``{scheme: OrderFit}`` of the error (closed-form reference)."""
    from nsfric.study.convergence import discrete_errors, fit_order, reference_for
    from nsfric.cases.base import simulate

    ref = reference_for(case, "coulomb", solver="analytic")
    t_stick = [e.t for e in ref.events if e.kind == "stick"][0]
    rows = []
    for scheme in schemes:
        for dt in dts:
            if progress:
                progress(f"dry-oscillator: {scheme}, dt = {dt:g}")
            res = simulate(case, "coulomb", scheme, dt)
            err = discrete_errors(res, ref)
            x, v = res["x"], res["v"]
            i0 = int(np.argmin(np.abs(res.t - window[0])))
            sticks = [e["t"] for e in res.events if e["kind"] == "stick"]
            rows.append({"scheme": scheme, "dt": float(dt), "error": err["error"],
                         "error_x": err["error_x"], "error_v": err["error_v"],
                         "drift": float(x[-1] - x[i0]), "v_stuck": float(v[-1]),
                         "t_stick": sticks[0] if sticks else float("nan"),
                         "dt_stick": (sticks[0] - t_stick) if sticks else float("nan"),
                         "n_rhs": res.n_rhs})
    orders = {}
    for scheme in schemes:
        rs = [r for r in rows if r["scheme"] == scheme]
        orders[scheme] = {"error": fit_order([r["dt"] for r in rs], [r["error"] for r in rs]),
                          "drift": fit_order([r["dt"] for r in rs], [abs(r["drift"]) for r in rs],
                                             floor=1e-14)}
    return rows, orders, ref


def plot_delta(rows, orders, ref, case, window=STUCK_WINDOW, show_dt=0.02):
    from nsfric.cases.base import simulate

    fig, axes = figure(1, 3, figsize=(15.5, 4.6))
    ax = axes[0, 0]
    tt = np.linspace(ref.t_span[0], ref.t_span[1], 2001)
    xr = ref(tt)[ref.state_names.index("x")]
    ax.plot(tt, xr, "k-", lw=1.6, label="exact (closed form)")
    for k, scheme in enumerate(s for s in orders if not s.endswith("-proj")):
        res = simulate(case, "coulomb", scheme, show_dt)
        ax.plot(res.t, res["x"], color=f"C{k}", lw=1, label=f"{scheme}, dt = {show_dt:g}")
    ax.set_xlabel("t [n.u.]")
    ax.set_ylabel("x [n.u.]")
    ax.set_title("trajectories: the delta schemes drift after sticking", fontsize=9)
    ax.legend(fontsize=7)
    ins = ax.inset_axes([0.5, 0.08, 0.45, 0.35])
    ins.plot(tt, xr, "k-", lw=1.4)
    for k, scheme in enumerate(s for s in orders if not s.endswith("-proj")):
        res = simulate(case, "coulomb", scheme, show_dt)
        ins.plot(res.t, res["x"], color=f"C{k}", lw=1)
    ins.set_xlim(4.0, 10.0)
    xs = ref(np.array([6.0]))[0, 0]
    ins.set_ylim(xs - 0.15, xs + 0.15)
    ins.tick_params(labelsize=6)
    for j, (col, title, ylabel) in enumerate((
            ("error", "max error over the trajectory (x, v)", "max |error| [n.u.]"),
            ("drift", f"drift while stuck, x({window[1]:g}) - x({window[0]:g}); exact: 0",
             "|drift| [n.u.]"))):
        ax = axes[0, j + 1]
        for k, scheme in enumerate(orders):
            rs = [r for r in rows if r["scheme"] == scheme]
            dt = np.array([r["dt"] for r in rs])
            y = np.abs([r[col] for r in rs])
            fit = orders[scheme][col]
            lab = scheme + (f" (p = {fit.order:.2f})" if fit.ok else
                            " (≤ 1e-14)" if not np.any(y > 1e-14) else " (no order)")
            ls = "--" if scheme.endswith("-proj") else "-"
            ax.loglog(dt, np.maximum(y, 1e-17), ls, marker="os^"[k % 3], ms=4, color=f"C{k % 3}", label=lab)
        dd = np.array(sorted({r["dt"] for r in rows}))
        ax.loglog(dd, dd * (np.nanmax([r["error"] for r in rows]) / dd.max()), ":", color="0.4", lw=1)
        ax.annotate("Δt¹", (dd[0], dd[0] * np.nanmax([r["error"] for r in rows]) / dd.max()), fontsize=8)
        ax.set_xlabel("Δt [n.u.]")
        ax.set_ylabel(ylabel)
        ax.set_title(title, fontsize=9)
        ax.legend(fontsize=6.5)
        ax.grid(True, which="both", alpha=0.3)
    fig.suptitle("Krengel & Matuttis eqs 15-17: delta-approximated static friction on Heun, BDF2, BDF5 "
                 "(dashed: velocity projected on sticking)", fontsize=10)
    return fig


def run_figures(case, out_dir, progress=None, dts=DTS) -> list:
    """Write Fig 1 and the delta-approximation study (see module docstring)."""
    meta = {"case": case.name, "reference": case.reference, "parameters": case.bind(), "versions": versions()}
    written = []
    data = phase_flow(case, progress)
    path = os.path.join(out_dir, "fig1-trajectories.csv")
    write_csv_with_sidecar(path, trajectory_columns(data),
                           dict(meta, figure=1, initial_states=INITIAL_STATES, solver="filippov"))
    written += [path, save(plot_phase_flow(data), os.path.join(out_dir, "fig1-phase-flow.png"))]
    rows, orders, ref = delta_study(case, dts=dts, progress=progress)
    keys = ("scheme", "dt", "error", "error_x", "error_v", "drift", "v_stuck", "t_stick", "dt_stick", "n_rhs")
    cols = {k: (np.asarray([r[k] for r in rows], dtype=object) if k == "scheme"
                else np.asarray([r[k] for r in rows], dtype=float)) for k in keys}
    path = os.path.join(out_dir, "delta-convergence.csv")
    write_csv_with_sidecar(path, cols, dict(meta, stuck_window=STUCK_WINDOW, reference_solver=ref.solver,
                                            exact_stick_time=[e.t for e in ref.events if e.kind == "stick"]))
    written.append(path)
    ocols = {"scheme": np.asarray(list(orders), dtype=object)}
    for col in ("error", "drift"):
        for key in ("order", "stderr", "dt_min", "dt_max"):
            ocols[f"{col}_{key}"] = np.asarray([getattr(orders[s][col], key) for s in orders], dtype=float)
    for col in ("error", "drift"):  # "no order: why", or empty
        ocols[f"{col}_reason"] = np.asarray([orders[s][col].reason for s in orders], dtype=object)
    path = os.path.join(out_dir, "delta-orders.csv")
    write_csv_with_sidecar(path, ocols, dict(meta, note="least-squares slopes over the automatic "
                                                        "asymptotic range (nsfric.study.convergence)"))
    written.append(path)
    written.append(save(plot_delta(rows, orders, ref, case), os.path.join(out_dir, "delta-convergence.png")))
    return written
