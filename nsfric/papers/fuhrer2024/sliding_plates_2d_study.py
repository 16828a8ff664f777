"""Führer et al.'s C-SDS statements checked in the tangential plane (``sliding-plates-2d``).

The paper states its energy balance (eq 11), that the C-SDS never creates energy
(§2.2.1) and the sliding force of eqs 8-9 with vectors, but shows them in 1D only.
Along the exact vector reference (event-driven, cross-checked by IDA) this module
evaluates:

* eq 11 pointwise, ``k xi.xi' + gamma xi'.xi' - F.s + F.v = 0`` with ``s = v - xi'``;
* the energy budget ``E(t) - E(0) + W_diss(t) - W_ext(t) = 0`` with the dissipated work
  ``W_diss = int (gamma |xi'|^2 - F.s) dt`` (§2.2.1: its rate is never negative) and the
  work ``W_ext = int f_ext v_2 dt`` of the external force;
* while sliding, ``|F| = F_max`` with ``F`` along ``F_S = -k xi - gamma v`` (eqs 8-9);
* after sticking, the static force balancing ``f_ext``.

Every force and rate is the law's own derived expression (no formula restated).
"""
from __future__ import annotations

import numpy as np

from nsfric.plotting import figure
from nsfric.solvers.crosscheck import disagreement
from nsfric.symbolic.codegen import generate
from nsfric.symbolic.derive import derive, param_vector
from nsfric.symbolic.laws import test_force, v_1, v_2, xi_1, xi_2
from nsfric.papers.fuhrer2024.sliding_plates_study import cumulative_integral


def _local(sol):
    """``times -> (y, xi', outputs, modes)`` of the exact reference, per mode from the
    derived right-hand sides and outputs; the outputs also hold the law's test force
    ``F_S`` (eq 1) as ``F_S_1``, ``F_S_2``."""
    d = derive(sol.model)
    p = param_vector(sol.model, sol.params)
    test = generate([test_force(xi_1, v_1), test_force(xi_2, v_2)], (d.y, d.p))

    def local(t):
        t = np.atleast_1d(t)
        y = sol(t)
        modes = np.array([sol.mode_at(tt) for tt in t])
        rates = np.empty_like(y)
        out = {}
        for mode in set(modes.tolist()):
            sel = modes == mode
            rates[:, sel] = d.rhs(mode)(y[:, sel], p)
            names, f = d.outputs(mode)
            vals = f(y[:, sel], p)
            for i, q in enumerate(names):
                out.setdefault(q, np.empty(len(t)))[sel] = vals[i]
        out["F_S_1"], out["F_S_2"] = test(y, p)
        return y, rates[:2], out, modes

    return local


def balance_data(case, samples: int = 2001) -> dict:
    """The checks of the module docstring on the exact reference: ``columns`` (CSV) and
    ``summary`` (JSON) of ``balance.csv``."""
    sol = case.reference_solution(case.default_law, samples=samples)
    other = case.reference_solution(case.default_law, solver="ida", t_eval=np.unique(sol.t))
    cross = disagreement(sol, other)
    q = sol.params
    k, gamma, F_max, f_ext = (float(q[n]) for n in ("k", "gamma", "F_max", "f_ext"))
    local = _local(sol)
    t = sol.t
    y, xid, out, modes = local(t)
    xi, v = y[:2], y[2:4]
    F = np.array([out["F_1"], out["F_2"]])
    s = v - xid
    r11 = k * np.sum(xi * xid, 0) + gamma * np.sum(xid * xid, 0) - np.sum(F * s, 0) + np.sum(F * v, 0)

    def dissipation(tg):
        yg, xdg, og, _ = local(tg)
        Fg = np.array([og["F_1"], og["F_2"]])
        return gamma * np.sum(xdg * xdg, 0) - np.sum(Fg * (yg[2:4] - xdg), 0)

    W_diss = cumulative_integral(t, dissipation)
    W_ext = cumulative_integral(t, lambda tg: f_ext * local(tg)[0][3])
    E = out["E_kin"] + out["E_el"]
    budget = E - E[0] + W_diss - W_ext
    sliding = np.array([m == "slip" for m in modes])
    F_S = np.array([out["F_S_1"], out["F_S_2"]])                # eq 1, the law's test force
    norm_F = np.hypot(F[0], F[1])
    cross_FS = F[0] * F_S[1] - F[1] * F_S[0]                     # zero when F is along F_S
    slip_residual = np.where(sliding, np.abs(norm_F - F_max) + np.abs(cross_FS) / np.maximum(np.hypot(*F_S), 1e-300), 0)
    kinds = [e.kind for e in sol.events]
    t_stick = next((e.t for e in sol.events if e.kind == "stick"), None)
    cols = {"t": t, "xi_1": xi[0], "xi_2": xi[1], "v_1": v[0], "v_2": v[1], "F_1": F[0], "F_2": F[1],
            "sliding": sliding.astype(float), "residual_eq11": r11, "E": E, "W_diss": W_diss, "W_ext": W_ext,
            "energy_budget": budget, "dissipation_rate": dissipation(t), "residual_eq8_9": slip_residual}
    summary = {
        "events": kinds,
        "t_stick": t_stick,
        "eq11_max_abs_residual": float(np.max(np.abs(r11))),
        "energy_budget_max_abs": float(np.max(np.abs(budget))),
        "min_dissipation_rate": float(np.min(cols["dissipation_rate"])),
        "eq8_9_max_slip_residual": float(np.max(slip_residual)),
        "slip_direction_turn_deg": float(np.degrees(np.ptp(np.unwrap(np.arctan2(F[1][sliding], F[0][sliding])))))
        if sliding.any() else 0.0,
        "static_balance_at_t_end": float(np.hypot(F[0][-1], F[1][-1] + f_ext)),
        "ida_max_abs_difference": cross["max_abs"],
        "ida_events_match": cross["events_match"],
        "ida_event_dt": cross["event_dt"],
    }
    return {"columns": cols, "summary": summary, "params": {n: float(x) for n, x in q.items()}}


def plot_balance(data, unit="n.u."):
    """(left) energy, dissipated and external work and the budget; (right) |F| against
    F_max and the direction of F, sliding shaded."""
    c, s = data["columns"], data["summary"]
    fig, axes = figure(1, 2, figsize=(12.0, 4.2))
    ax = axes[0, 0]
    ax.plot(c["t"], c["E"], label="E_kin + E_el")
    ax.plot(c["t"], c["W_diss"], label="dissipated ∫(γ|ξ'|² − F·s) dt")
    ax.plot(c["t"], c["W_ext"], label="external work ∫ f_ext v₂ dt")
    ax.plot(c["t"], c["E"] - c["E"][0] + c["W_diss"] - c["W_ext"], "k--", label="budget (zero)")
    ax.set_title(f"eq 11 in the plane: max |budget| = {s['energy_budget_max_abs']:.1e}", fontsize=9)
    ax.set_xlabel(f"t [{unit}]")
    ax.set_ylabel(f"energy [{unit}]")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    ax = axes[0, 1]
    sl = c["sliding"] > 0
    ax.plot(c["t"], np.hypot(c["F_1"], c["F_2"]), label="|F|")
    ax.axhline(data["params"]["F_max"], color="k", ls=":", label="F_max")
    ax.fill_between(c["t"], 0, data["params"]["F_max"], where=sl, color="C2", alpha=0.15, label="sliding")
    ax2 = ax.twinx()
    ax2.plot(c["t"], np.degrees(np.arctan2(c["F_2"], c["F_1"])), "C3", lw=1, label="direction of F [deg]")
    ax2.set_ylabel("direction of F [deg]", color="C3")
    ax.set_title(f"eqs 8-9: |F| = F_max along F_S while sliding (residual {s['eq8_9_max_slip_residual']:.1e}); "
                 f"the direction turns {s['slip_direction_turn_deg']:.0f}°", fontsize=9)
    ax.set_xlabel(f"t [{unit}]")
    ax.set_ylabel(f"force [{unit}]")
    ax.legend(fontsize=7, loc="center right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig
