"""Sliding plates beyond Führer et al.: order table, order saturation at the stick
transition, energy created by the D-SDS against ``v(0)``, sanity checks eqs 11, 15, 17.

* **Order table** -- every scheme (and its event-aware variant) with both laws on a
  geometric ladder ``dt = 10/(50 * 2^j)``, ``j = 0..5``; the C-SDS error is the max norm over
  ``xi`` and ``v``, the D-SDS error is given for ``v`` (Fig 3's quantity) and ``xi``.
* **Saturation** -- the C-SDS field is continuous but ``min(|F_S|, F_max)`` has a
  kink at the stick transition ``t*``; the step containing ``t*`` integrates a field
  whose derivative jumps inside it and commits a local error ``O(dt^2)`` whatever the
  scheme's order (measured: the one-step error from the exact state across ``t*``
  against the one-step error inside the sliding phase), so the global order of every
  scheme of order >= 2 saturates at 2, with a scatter that depends on where ``t*`` falls
  in the step.  The event-aware variants land a step on ``t*`` and recover the nominal
  order.
* **Energy created** -- the D-SDS reset (eq 3) at ``t = 0`` raises the total energy by
  ``k xi_D^2/2`` (measured as the jump of ``E_kin + E_el`` across the reset event of the
  exact solution); the part converted into kinetic energy by the Euler stick-slip
  (Fig 2's ``max_t Delta E_kin``) is measured too; both are fitted to ``A v0^p``.
* **Sanity checks along the exact C-SDS solution** -- eq 11 (energy balance) pointwise
  and integrated over the run (``E(t) - E(0) + W_diss(t)``, ``W_diss`` by adaptive
  quadrature of ``gamma xi'^2 - F s``), eq 15 (loading rate ``|xi'| <= |v|`` while
  sliding and loading), eq 17 (``|F_S| = gamma |s| + F_max`` while sliding).
"""
from __future__ import annotations

import os

import numpy as np

from nsfric.io import csv_text, json_text, write_text
from nsfric.plotting import figure, save
from nsfric.study.cache import content_key, model_hash
from nsfric.study.convergence import default_ladder, fit_order
from nsfric.study.sweep import sweep
from nsfric.schemes import CORE_SCHEMES, EVENT_SCHEMES
from nsfric.cases.base import converge, simulate
from nsfric.papers.fuhrer2024.checks import eq17_residual, reset_threshold
from nsfric.symbolic.codegen import generate
from nsfric.symbolic.derive import derive, param_vector

V0S = (4.0, 8.0, 16.0, 32.0, 64.0, 128.0)
LEVELS = 6  # dt = 0.2 ... 0.00625
QUICK_SCHEMES = ("euler", "midpoint", "heun", "rk4", "gear5", "heun-event", "rk4-event", "gear5-event")


# -- order table ----------------------------------------------------------------------------
def order_study(case, schemes=None, dts=None, jobs=None, progress=None):
    """Convergence of every scheme with both laws (one study; errors per variable)."""
    schemes = list(schemes or (CORE_SCHEMES + EVENT_SCHEMES))
    dts = dts or default_ladder(case.t_end)
    jobs = jobs if jobs is not None else min(4, os.cpu_count() or 1)

    def prog(done, total):
        if progress:
            progress(f"order table {done}/{total}")

    return converge(case, ["c-sds", "d-sds"], schemes, dts=dts, jobs=jobs, progress=prog)


def order_table(res) -> list:
    """Rows (law, error_on, scheme, order, stderr, range, nominal)."""
    rows = []
    for law, column in (("c-sds", "error"), ("d-sds", "error_v"), ("d-sds", "error_xi")):
        for o in res.orders(column):
            if o["law"] != law:
                continue
            rows.append({"law": law, "error_on": "xi, v" if column == "error" else column[6:],
                         **{k: o[k] for k in ("scheme", "order", "order_stderr", "dt_min", "dt_max",
                                              "n_points", "nominal_order", "damped_order", "reason")}})
    return rows


def _cols(rows):
    from nsfric.study.convergence import table_columns

    return table_columns(rows, list(rows[0]))


# -- saturation -------------------------------------------------------------------------------
def one_step_errors(case, scheme, t_start, dts, law="c-sds"):
    """Error of one step of ``scheme`` from the exact state at ``t_start(dt)``:
    ``|u_1 - u(t_start + dt)|`` (max over the states), one value per ``dt``."""
    ref = case.reference_solution(law, solver="analytic", t_eval=np.linspace(0, case.t_end, 3))
    names = case.model(law).state_names
    out = []
    for dt in dts:
        tn = float(t_start(dt))
        y = ref(tn)
        init = {case.initial[n]: float(y[i]) for i, n in enumerate(names)}
        r = simulate(case, law, scheme, dt, t_end=dt, params=init)
        out.append(float(np.max(np.abs(r.y[:, -1] - ref(tn + dt)))))
    return np.array(out)


def saturation_data(case, dts=None, scheme="rk4", theta=0.4, dt_curve=0.05, h_theta=0.01):
    """Where the order of the C-SDS saturates: the step across the stick transition.

    ``kink``: one-step errors from the exact state at ``t* - theta dt`` (the transition
    at the fraction ``theta`` of the step), ``smooth``: from ``t = 1`` (sliding); both
    fitted on log-log (``O(dt^2)`` against ``O(dt^(p+1))``).  ``theta_scan``: the kink
    error over ``dt^2`` as the transition moves through a step of ``h_theta`` -- its
    sign changes explain the scatter of the global convergence.  ``curves``: the error
    along the trajectory with and without event location.
    """
    dts = np.array(dts or [0.2 / 2 ** j for j in range(7)])
    ref = case.reference_solution("c-sds", solver="analytic", t_eval=np.linspace(0, case.t_end, 3))
    t_star = [e.t for e in ref.events if e.kind == "stick"][0]
    kink = one_step_errors(case, scheme, lambda dt: t_star - theta * dt, dts)
    smooth = one_step_errors(case, scheme, lambda dt: 1.0, dts)
    thetas = np.linspace(0.02, 0.98, 25)
    scan = np.array([one_step_errors(case, scheme, lambda dt, th=th: t_star - th * dt, [h_theta])[0]
                     for th in thetas]) / h_theta ** 2
    curves = {}
    for s in (scheme, f"{scheme}-event"):
        r = simulate(case, "c-sds", s, dt_curve)
        Y = ref(r.t)
        curves[s] = (r.t, np.max(np.abs(r.y - Y), axis=0))
    return {"dts": dts, "kink": kink, "smooth": smooth, "t_star": t_star, "scheme": scheme,
            "theta": theta, "kink_fit": fit_order(dts, kink), "smooth_fit": fit_order(dts, smooth, floor=4 * np.finfo(float).eps),  # a few ulp: round-off
            "thetas": thetas, "theta_scan": scan, "h_theta": h_theta,
            "curves": curves, "dt_curve": dt_curve}


def plot_saturation(sat, res, unit="n.u."):
    fig, axes = figure(1, 3, figsize=(15.0, 4.2))
    ax = axes[0, 0]
    for s, (t, e) in sat["curves"].items():
        ax.semilogy(t[1:], e[1:], label=f"{s}, Δt = {sat['dt_curve']:g}")
    ax.axvline(sat["t_star"], color="k", ls=":", lw=0.8, label=f"stick transition t* = {sat['t_star']:.4f}")
    ax.set_xlabel(f"t [{unit}]")
    ax.set_ylabel(f"max(|ξ − ξ_exact|, |v − v_exact|) [{unit}]")
    ax.set_title("C-SDS: the error is made in the step across t*", fontsize=9)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    ax = axes[0, 1]
    kf, sf = sat["kink_fit"], sat["smooth_fit"]
    ax.loglog(sat["dts"], sat["kink"], "o-",
              label=f"step across t* (t* at θ = {sat['theta']:g} of the step): slope {kf.order:.2f}")
    ax.loglog(sat["dts"], sat["smooth"], "s-", label=f"step inside sliding: slope {sf.order:.2f}")
    ax.set_xlabel(f"Δt [{unit}]")
    ax.set_ylabel(f"one-step error of {sat['scheme']} from the exact state [{unit}]")
    ax.set_title("local error: O(Δt²) across the kink, O(Δt⁵) elsewhere", fontsize=9)
    ax.legend(fontsize=7, loc="lower right")
    ax.grid(alpha=0.3)
    ins = ax.inset_axes([0.15, 0.4, 0.28, 0.22])
    ins.plot(sat["thetas"], sat["theta_scan"], ".-", ms=3, lw=0.8)
    ins.set_xlabel("θ (position of t* in the step)", fontsize=6)
    ins.set_ylabel("error / Δt²", fontsize=6)
    ins.tick_params(labelsize=6)
    ins.set_title(f"Δt = {sat['h_theta']:g}", fontsize=6)
    ax = axes[0, 2]
    for j, s in enumerate(("heun", "rk4", "gear5")):
        for suffix, ls in (("", "-"), ("-event", "--")):
            name = s + suffix
            if ("c-sds", name) not in res.fits:
                continue
            dt, err = res.series("c-sds", name)
            p = res.fit("c-sds", name).order
            ax.loglog(dt, err, ls, marker="o", ms=3, color=f"C{j}", label=f"{name} (p = {p:.2f})")
    ax.set_xlabel(f"Δt [{unit}]")
    ax.set_ylabel(f"max error over ξ, v [{unit}]")
    ax.set_title("C-SDS: plain schemes saturate at 2, event-aware recover", fontsize=9)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


# -- energy created ------------------------------------------------------------------------
class EnergyPoint:
    """The energy created by the D-SDS at ``v0`` (a point function of :func:`nsfric.sweep`):
    the jump of ``E_kin + E_el`` across the reset (eq 3) of the exact solution, the
    largest ``Delta E_kin`` of the Euler runs (D-SDS minus C-SDS, step ``dt``, Fig 2) and
    ``v0 - F_max/gamma``; until ``t = v0 + 8``.  Picklable: the case travels by name."""

    def __init__(self, case, dt):
        self.case, self.dt = case, dt

    @property
    def cache_token(self) -> str:
        return content_key({"case": self.case.name, "dt": self.dt,
                            "models": [model_hash(self.case.model(law)) for law in ("d-sds", "c-sds")]})

    def __call__(self, point: dict) -> dict:
        case, v0, dt = self.case, point["v0"], self.dt
        T = v0 + 8.0
        params = {"v0": v0}
        sol = case.reference_solution("d-sds", solver="analytic", params=params, t_end=T,
                                      t_eval=np.linspace(0.0, T, 3))
        p = sol.params
        resets = [e for e in sol.events if e.kind == "slip" and e.from_mode is None]
        y0 = np.array([p["xi0"], v0])
        y1 = np.array(resets[0].y) if resets else y0
        names, out = derive(sol.model).outputs(sol.segments[0].mode)  # E_kin, E_el: the model's own
        pv = param_vector(sol.model, p)
        E = lambda y: sum(out(y, pv)[names.index(q)] for q in ("E_kin", "E_el"))  # noqa: E731
        D = simulate(case, "d-sds", "euler", dt, T, params)
        C = simulate(case, "c-sds", "euler", dt, T, params)
        return {"E_created_reset": E(y1) - E(y0), "max_dE_kin_euler": float(np.max(D["E_kin"] - C["E_kin"])),
                "v0_minus_threshold": v0 - reset_bound(sol.model, p)}


def reset_bound(model, params: dict) -> float:
    """``v(0)`` beyond which the D-SDS starts with a reset, at the values ``params``:
    the root of the law's own switching function
    (:func:`~nsfric.papers.fuhrer2024.checks.reset_threshold`), evaluated by the one
    code-generation entry point."""
    f = generate([reset_threshold(model)], ([q.symbol for q in model.params],))
    return float(f(param_vector(model, params))[0])


def energy_data(case, v0s=V0S, dt=0.1, **sweep_options):
    """The energy created against ``v0`` (:class:`EnergyPoint`, one sweep over ``v0``;
    ``sweep_options``: ``jobs``, ``executor``, ``cache_dir``, ...) and its power-law fits."""
    names = ("E_created_reset", "max_dE_kin_euler", "v0_minus_threshold")
    ds = sweep(EnergyPoint(case, dt), grid={"v0": list(v0s)}, observables=list(names), **sweep_options)
    rows = [{"v0": v0, **{k: ds[k].values[i] for k in names}} for i, v0 in enumerate(v0s)]
    cols = {k: np.array([r[k] for r in rows]) for k in rows[0]}
    fits = {
        "E_created_reset": fit_order(cols["v0"], cols["E_created_reset"], fit_range=(v0s[0], v0s[-1])),
        "E_created_reset_vs_excess": fit_order(cols["v0_minus_threshold"], cols["E_created_reset"],
                                               fit_range=(min(cols["v0_minus_threshold"]),
                                                          max(cols["v0_minus_threshold"]))),
        "max_dE_kin_euler": fit_order(cols["v0"], cols["max_dE_kin_euler"], fit_range=(v0s[0], v0s[-1])),
    }
    return {"columns": cols, "fits": fits, "dt": dt}


def plot_energy(en, unit="n.u."):
    c, f = en["columns"], en["fits"]
    fig, axes = figure(1, 1, figsize=(6.4, 4.2))
    ax = axes[0, 0]
    ax.loglog(c["v0"], c["E_created_reset"], "o-",
              label=f"energy created by the reset at t = 0 (exact), p = {f['E_created_reset'].order:.3f}"
                    f"\n(p = {f['E_created_reset_vs_excess'].order:.3f} against v(0) − F_max/γ)")
    ax.loglog(c["v0"], c["max_dE_kin_euler"], "s-",
              label=f"max ΔE_kin, Euler Δt = {en['dt']:g}, p = {f['max_dE_kin_euler'].order:.3f}")
    v = c["v0"]
    ax.loglog(v, c["E_created_reset"][0] * (v / v[0]) ** 2, ":", color="0.4", label="∝ v(0)²")
    ax.set_xlabel(f"initial relative velocity v(0) [{unit}]")
    ax.set_ylabel(f"energy [{unit}]")
    ax.set_title("D-SDS: energy created against v(0) (Führer et al. §3.3: quadratic)", fontsize=9)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    return fig


# -- sanity checks eqs 11, 15, 17 along the exact C-SDS --------------------------------------------
def cumulative_integral(t, rate, points: int = 8):
    """``W(t_i) = int_{t_0}^{t_i} rate dt`` on the sample times ``t``: ``points``-point
    Gauss-Legendre on every sample interval.  The samples include the events, so
    ``rate(times) -> values`` is smooth inside each interval and the error is far below
    1e-12."""
    xg, wg = np.polynomial.legendre.leggauss(points)
    mid, half = (t[:-1] + t[1:]) / 2, (t[1:] - t[:-1]) / 2
    g = rate((mid[:, None] + half[:, None] * xg[None, :]).ravel())
    return np.concatenate([[0.0], np.cumsum((g.reshape(-1, points) @ wg) * half)])


def sanity_data(case, samples=4001):
    T = case.t_end
    sol = case.reference_solution("c-sds", solver="analytic", t_eval=np.linspace(0.0, T, samples))
    model = sol.model
    d = derive(model)
    p = param_vector(model, sol.params)
    k, gamma, F_max, m = (sol.params[n] for n in ("k", "gamma", "F_max", "m"))

    def local(t):
        y = sol(np.atleast_1d(t))
        modes = [sol.mode_at(tt) for tt in np.atleast_1d(t)]
        xid = np.empty(y.shape[1])
        out = {q: np.empty(y.shape[1]) for q in ("F", "F_S", "E_kin", "E_el")}
        for mode in set(modes):
            sel = np.array([mm == mode for mm in modes])
            xid[sel] = d.rhs(mode)(y[:, sel], p)[0]
            names, f = d.outputs(mode)
            vals = f(y[:, sel], p)
            for q in out:  # the law's own derived quantities, not restated
                out[q][sel] = vals[names.index(q)]
        return y[0], y[1], xid, out, modes

    t = sol.t
    xi, v, xid, out, modes = local(t)
    F, F_S = out["F"], out["F_S"]
    s = v - xid                                              # eq 4
    r11 = k * xi * xid + gamma * xid ** 2 - F * s + F * v   # eq 11: zero
    sliding = np.abs(F_S) > F_max
    loading = sliding & (xi * xid > 0)
    r17 = np.zeros(len(t))  # eq 17 as the checks state it, on the law's own slip branches
    for mode in {mm for mm, sl in zip(modes, sliding) if sl}:
        sel = sliding & np.array([mm == mode for mm in modes])
        r17[sel] = generate([eq17_residual(model, mode)], (d.y, d.p))(np.array([xi, v])[:, sel], p)[0]

    def dissipation(tg):
        _, vg, xdg, outg, _ = local(tg)
        return gamma * xdg ** 2 - outg["F"] * (vg - xdg)

    W = cumulative_integral(t, dissipation)  # dissipated work int (gamma xi'^2 - F s) dt
    E = out["E_kin"] + out["E_el"]
    budget = E - E[0] + W
    margin15 = np.where(loading, np.abs(v) - np.abs(xid), np.inf)
    cols = {"t": t, "xi": xi, "v": v, "xi_dot": xid, "F": F, "s": s, "residual_eq11": r11,
            "E": E, "W_diss": W, "energy_budget": budget, "loading": loading.astype(float),
            "margin_eq15": np.where(loading, np.abs(v) - np.abs(xid), np.nan), "residual_eq17": r17}
    summary = {
        "eq11_max_abs_residual": float(np.max(np.abs(r11))),
        "eq11_integrated_abs_residual": float(np.trapezoid(np.abs(r11), t)),
        "eq11_integrated_budget_max_abs": float(np.max(np.abs(budget))),
        "eq15_min_margin": float(np.min(margin15)) if loading.any() else None,
        "eq15_loading_time": float(np.sum(np.diff(t)[loading[:-1]])),
        "eq17_max_abs_residual": float(np.max(np.abs(r17))),
        "dissipated_total": float(W[-1]),
    }
    return {"columns": cols, "summary": summary}


def plot_sanity(san, unit="n.u."):
    c = san["columns"]
    fig, axes = figure(1, 2, figsize=(12.0, 4.2))
    ax = axes[0, 0]
    ax.plot(c["t"], c["E"], label="E_kin + E_el")
    ax.plot(c["t"], c["W_diss"], label="dissipated ∫(γ ξ'² − F s) dt")
    ax.plot(c["t"], c["E"] + c["W_diss"], "k--", label="sum (eq 11 integrated: constant)")
    ax.set_xlabel(f"t [{unit}]")
    ax.set_ylabel(f"energy [{unit}]")
    s = san["summary"]
    ax.set_title(f"C-SDS exact: energy balance, max |budget| = {s['eq11_integrated_budget_max_abs']:.1e}",
                 fontsize=9)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    ax = axes[0, 1]
    ld = c["loading"] > 0
    ax.plot(c["t"], np.abs(c["v"]), label="|v|")
    ax.plot(c["t"], np.abs(c["xi_dot"]), label="|ξ'| (loading rate)")
    ax.fill_between(c["t"], 0, np.abs(c["v"]), where=ld, color="C2", alpha=0.15,
                    label="sliding and loading")
    ax.set_xlabel(f"t [{unit}]")
    ax.set_ylabel(f"rate [{unit}]")
    ax.set_title(f"eq 15: |ξ'| ≤ |v| while loading (min margin {s['eq15_min_margin']:.3g})", fontsize=9)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


# -- orchestration ----------------------------------------------------------------------------
def run_studies(case, out_dir, summary, progress=None, jobs=None, quick=False) -> list:
    say = progress or (lambda msg: None)
    unit = case.unit
    written = []
    say("order table")
    dts = default_ladder(case.t_end, levels=4 if quick else LEVELS)
    schemes = QUICK_SCHEMES if quick else None
    res = order_study(case, schemes, dts=dts, jobs=jobs, progress=say)
    paths = res.write(out_dir, plot=False)
    table = order_table(res)
    p = os.path.join(out_dir, "orders.csv")
    write_text(p, csv_text(_cols(table)))
    written += paths
    from nsfric.study.plot import plot_convergence

    for law, sel, name in (("c-sds", CORE_SCHEMES, "convergence-c-sds.png"),
                           ("c-sds", EVENT_SCHEMES, "convergence-c-sds-event.png"),
                           ("d-sds", CORE_SCHEMES, "convergence-d-sds.png")):
        sub = _subset(res, law, sel)
        written.append(save(plot_convergence(sub, f"sliding plates, {law}: {'event-aware' if 'event' in name else 'plain'} schemes"),
                            os.path.join(out_dir, name)))
    say("saturation")
    sat = saturation_data(case, dts=[0.2 / 2 ** j for j in range(4 if quick else 7)])
    written.append(save(plot_saturation(sat, res, unit), os.path.join(out_dir, "saturation.png")))
    cols = {"dt": sat["dts"], "one_step_error_across_t_star": sat["kink"],
            "one_step_error_sliding": sat["smooth"]}
    written.append(_csv(os.path.join(out_dir, "saturation.csv"), cols))
    written.append(_csv(os.path.join(out_dir, "saturation-theta.csv"),
                        {"theta": sat["thetas"], "error_over_dt2": sat["theta_scan"]}))
    say("energy created")
    en = energy_data(case, V0S[:3] if quick else V0S)
    written.append(_csv(os.path.join(out_dir, "energy-created.csv"), en["columns"]))
    written.append(save(plot_energy(en, unit), os.path.join(out_dir, "energy-created.png")))
    say("eqs 11, 15, 17")
    san = sanity_data(case, samples=401 if quick else 2001)
    written.append(_csv(os.path.join(out_dir, "sanity-c-sds.csv"), san["columns"]))
    written.append(save(plot_sanity(san, unit), os.path.join(out_dir, "sanity-c-sds.png")))
    summary.update({
        "orders": table,
        "saturation": {"t_star": sat["t_star"], "scheme": sat["scheme"], "theta": sat["theta"],
                       "one_step_order_across_t_star": sat["kink_fit"].order,
                       "one_step_order_sliding": sat["smooth_fit"].order},
        "energy_created": {k: {"exponent": f.order, "stderr": f.stderr}
                           for k, f in en["fits"].items()},
        "sanity_c_sds": san["summary"],
    })
    p = os.path.join(out_dir, "summary.json")
    write_text(p, json_text(summary))
    written.append(p)
    return written


def _csv(path, cols):
    write_text(path, csv_text(cols))
    return path


def _subset(res, law, schemes):
    from nsfric.study.convergence import ConvergenceResult

    keys = [(law, s) for s in schemes if (law, s) in res.fits]
    rows = [r for r in res.rows if (r["law"], r["scheme"]) in keys]
    fits = {k: (res.fits[k] if law == "c-sds" else res.fit(*k, "error_v")) for k in keys}
    variables = res.variables if law == "c-sds" else ["v"]
    if law != "c-sds":
        rows = [dict(r, error=r["error_v"]) for r in rows]
    return ConvergenceResult(res.case, rows, fits, variables, res.times, res.meta)
