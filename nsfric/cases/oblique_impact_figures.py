"""Figs 3-6 of Schäfer, Dippel & Wolf (1996): oblique impacts of two spheres.

Fig 3: ``psi_f`` against ``psi_i`` and Fig 4: the total restitution ``e`` against
``sin(theta)``, one panel per tangential law with the caption's parameter sets (a:
Coulomb ``mu = 0.15, 0.25, 0.35``; b: viscous ``gamma_s = 1, 3, 20 kg/s``; c: eq 15 with
the same ``gamma_s``; d: Cundall-Strack ``k_s/k_n = 1, 2/7, 1/5``; e: Walton-Braun-Mindlin
``k_s^0/k_n = 1, 2/3, 1/3``; f: saw-tooth ``zeta_0 = 1e-8 m``, and 1e-7, 1e-9 m on fewer
points) and two more panels, Führer et al.'s D-SDS and C-SDS with ``k_s/k_n = 2/7``.  Figs
5-6: the Hertz-Kuwabara-Kono normal force (eq 9) with Cundall-Strack ``k_s = 9.43e4 N/m``
(eq 24) at ``v_rel = 0.1, 1, 10 m/s`` (``v_n = v_rel cos(theta)``).

Every point is one exact (event-driven) reference impact of
:class:`~nsfric.cases.oblique_impact.ObliqueImpact` (solver ``filippov``; ``ida`` where
it fails, noted in the sidecar).  ``psi_f`` is ``v_s^f/v_n^i`` (Foerster's convention;
see the case).  ``nsfric run oblique-impact`` writes ``fig3.png``/``fig4.png`` with
``fig3.csv``/``fig4.csv`` (+ ``.json`` sidecars), the same for Figs 5-6.
"""
from __future__ import annotations

import os
import time

import numpy as np

from ..io import versions, write_csv_with_sidecar
from ..plotting import figure, save

#: psi_i grid of the curves (the paper's Fig 3 spans 0-6)
PSI = np.linspace(0.1, 5.0, 30)
#: the saw-tooth's grid: every tooth edge is an event (~zeta^f/zeta_0 of them)
PSI_SAWTOOTH = np.linspace(0.25, 3.0, 10)
STYLES = (":", "--", "-.")
#: panel -> (law, varied parameter, values, title, psi grids per value)
PANELS = {
    "a": ("coulomb", "mu", (0.15, 0.25, 0.35), "Coulomb, eq 13", None),
    "b": ("viscous", "gamma_s", (1.0, 3.0, 20.0), "viscous, eq 14", None),
    "c": ("coulomb-viscous", "gamma_s", (1.0, 3.0, 20.0), "Coulomb-viscous, eq 15", None),
    "d": ("cundall-strack", "ks_ratio", (1.0, 2 / 7, 1 / 5), "Cundall-Strack, eqs 16-17", None),
    "e": ("walton-braun-mindlin", "ks0_ratio", (1.0, 2 / 3, 1 / 3), "Walton-Braun-Mindlin, eqs 20-21", None),
    "f": ("saw-tooth", "zeta_0", (1e-8, 1e-7, 1e-9), "saw-tooth, eq 22",
          (PSI_SAWTOOTH, PSI_SAWTOOTH, np.array([0.25]))),
    "g": ("d-sds", "ks_ratio", (2 / 7,), "D-SDS (Führer et al.)", None),
    "h": ("c-sds", "ks_ratio", (2 / 7,), "C-SDS (Führer et al.)", None),
}
#: Figs 5-6: relative impact speeds [m/s]
V_REL = (0.1, 1.0, 10.0)
#: Fig 8: impact angle [deg], relative speeds [m/s], normal collision times [s]
THETA_BF = 87.4
V_BF = np.logspace(-1, 3, 25)
T_N_BF = (1e-5, 1e-4)


def impact(case, law, params, solvers=("filippov", "ida"), **options):
    """Observables of one impact (``summary``), and the solver that gave them; NaN
    observables and the error where every solver failed."""
    errors = []
    for solver in solvers:
        try:
            sol = case.reference_solution(law, solver=solver, params=params, **options)
            if sol.summary:
                return sol.summary, solver
            errors.append(f"{solver}: the contact did not end")
        except Exception as e:  # noqa: BLE001 - recorded in the sidecar
            errors.append(f"{solver}: {type(e).__name__}: {str(e).splitlines()[0][:200]}")
    return {}, "; ".join(errors)


def sweep(case, law, psis, params, progress=None, **options) -> dict:
    """``psi_f``, ``e``, ``e_s``, ``e_n``, ``t_n`` over ``psis``; failures as NaN with notes."""
    keys = ("psi_f", "psi_f_over_vnf", "e", "e_s", "e_n", "t_n")
    out = {k: np.full(len(psis), np.nan) for k in keys}
    notes = []
    for i, psi in enumerate(psis):
        obs, how = impact(case, law, {**params, "psi_i": float(psi)}, **options)
        for k in keys:
            out[k][i] = obs.get(k, np.nan)
        if how not in ("filippov",):
            notes.append(f"psi_i = {psi:g}: {how}")
    if progress:
        progress(f"{case.name}: {law} {params}")
    out["notes"] = notes
    return out


def _known(case, law, params):
    names = set(case.model(law).param_names)
    return {k: v for k, v in params.items() if k in names}


def panels_data(case, params=None, panels=PANELS, progress=None) -> dict:
    """Columns of Figs 3-4: per panel and parameter value, ``psi_i``, ``sin_theta``,
    ``psi_f``, ``e``; and the notes (failed points) and wall times."""
    cols, notes, wall = {}, {}, {}
    for key, (law, name, values, _, grids) in panels.items():
        for j, val in enumerate(values):
            psis = PSI if grids is None else grids[j]
            label = f"{key} {law} {name}={val:.4g}"
            t0 = time.perf_counter()
            opts = {"max_events": 100000} if law == "saw-tooth" else {}
            res = sweep(case, law, psis, {**_known(case, law, params or {}), name: val}, progress, **opts)
            wall[label] = time.perf_counter() - t0
            cols[f"psi_i {label}"] = psis
            cols[f"sin_theta {label}"] = psis / np.sqrt(1 + psis ** 2)
            for q in ("psi_f", "psi_f_over_vnf", "e"):
                cols[f"{q} {label}"] = res[q]
            if res["notes"]:
                notes[label] = res["notes"]
    return {"columns": cols, "notes": notes, "wall_seconds": wall}


def hkk_data(case, params=None, progress=None, psis=PSI) -> dict:
    """Columns of Figs 5-6: Kuwabara-Kono normal force with Cundall-Strack
    (``k_s = 9.43e4 N/m``) at the relative speeds :data:`V_REL`."""
    law = "cundall-strack/kuwabara-kono"
    cols, notes, wall = {}, {}, {}
    for v in V_REL:
        label = f"v_rel={v:g}"
        t0 = time.perf_counter()
        psi_f, e = np.full(len(psis), np.nan), np.full(len(psis), np.nan)
        for i, psi in enumerate(psis):
            p = {**_known(case, law, params or {}), "psi_i": float(psi), "v_n": v / np.sqrt(1 + psi ** 2)}
            obs, how = impact(case, law, p)
            psi_f[i], e[i] = obs.get("psi_f", np.nan), obs.get("e", np.nan)
            if how != "filippov":
                notes.setdefault(label, []).append(f"psi_i = {psi:g}: {how}")
        if progress:
            progress(f"{case.name}: {law} {label}")
        wall[label] = time.perf_counter() - t0
        cols[f"psi_i {label}"], cols[f"sin_theta {label}"] = psis, psis / np.sqrt(1 + psis ** 2)
        cols[f"psi_f {label}"], cols[f"e {label}"] = psi_f, e
    return {"columns": cols, "notes": notes, "wall_seconds": wall}


def brake_data(case, params=None, speeds=V_BF, progress=None) -> dict:
    """Fig 8 (brake failure, Schäfer et al. §4): ``-Delta v_x/v^i`` against ``v^i`` at
    ``theta = 87.4 deg`` (Coulomb friction, eq 13) for ``t_n = 1e-5 s`` and ``1e-4 s``
    (``k_n`` divided by 100 and ``gamma_n`` by 10: the same ``e_n``).  ``x`` is the
    direction of the initial relative velocity.  Also eq 25's ``v_bf`` and the transition
    read off each curve: the speed where ``-Delta v_x/v^i`` has fallen to half its
    low-speed plateau (hard-sphere regime, ``Delta v_x ~ v^i``), interpolated in log-log
    (:func:`half_plateau_speed`; with the dashpot's velocity-proportional force the
    high-speed branch is not a clean ``1/v^i``, so no asymptote is fitted)."""
    from ..symbolic import impact_laws as IL

    law, psi = "coulomb", float(np.tan(np.radians(THETA_BF)))
    base = case.bind(law, _known(case, law, params or {}))
    cols, read, eq25, notes = {"v_i": np.asarray(speeds, dtype=float)}, {}, {}, {}
    for t_n in T_N_BF:
        scale = t_n / 1e-5
        p = {**_known(case, law, params or {}), "k_n": base["k_n"] / scale ** 2, "gamma_n": base["gamma_n"] / scale,
             "psi_i": psi}
        ratio = np.full(len(speeds), np.nan)
        for i, v in enumerate(speeds):
            q = {**p, "v_n": v * np.cos(np.radians(THETA_BF))}
            try:
                sol = case.reference_solution(law, params=q)
                end = [e for e in sol.events if e.kind == "contact-end"][0]
            except Exception as e:  # noqa: BLE001 - recorded
                notes.setdefault(f"t_n={t_n:g}", []).append(f"v_i = {v:g}: {type(e).__name__}")
                continue
            s = dict(zip(sol.model.state_names, end.y))
            dv_f = np.array([s["vx_2"] - s["vx_1"], s["vy_2"] - s["vy_1"]])
            dv_i = np.array([-q["v_n"], q["psi_i"] * q["v_n"]])
            ratio[i] = -float((dv_f - dv_i) @ dv_i) / (v * v)
        if progress:
            progress(f"{case.name}: Fig 8, t_n = {t_n:g} s")
        cols[f"-dv_x/v_i t_n={t_n:g}"] = ratio
        read[f"{t_n:g}"] = half_plateau_speed(speeds, ratio)
        vals = {IL.R: base["R_1"], IL.vartheta: np.radians(THETA_BF), IL.k_n: p["k_n"],
                IL.m_eff: base["m_1"] * base["m_2"] / (base["m_1"] + base["m_2"])}
        eq25[f"{t_n:g}"] = float(IL.brake_failure_velocity().subs(vals))
    return {"columns": cols, "v_bf_read": read, "v_bf_eq25": eq25, "notes": notes}


def half_plateau_speed(speeds, ratio) -> float:
    """The speed where ``ratio`` first falls below half its value at the lowest speed
    (log-log interpolation between the grid points); NaN if it never does."""
    v, r = np.asarray(speeds, dtype=float), np.asarray(ratio, dtype=float)
    ok = np.isfinite(r)
    v, r = v[ok], r[ok]
    below = np.nonzero(r < r[0] / 2)[0]
    if len(below) == 0 or below[0] == 0:
        return float("nan")
    i = below[0]
    lv, lr = np.log(v[i - 1:i + 1]), np.log(r[i - 1:i + 1])
    return float(np.exp(np.interp(np.log(r[0] / 2), lr[::-1], lv[::-1])))


def plot_brake(data, path):
    """Fig 8: log-log ``-Delta v_x/v^i`` against ``v^i``, eq 25 and the read-off transitions."""
    cols = data["columns"]
    fig, axes = figure(1, 1, figsize=(6, 4.5))
    ax = axes[0, 0]
    for j, t_n in enumerate(T_N_BF):
        line = ax.loglog(cols["v_i"], cols[f"-dv_x/v_i t_n={t_n:g}"], STYLES[j], marker=".",
                         label=f"t_n = {t_n:g} s")[0]
        ax.axvline(data["v_bf_eq25"][f"{t_n:g}"], color=line.get_color(), lw=0.8, ls="-",
                   label=f"eq 25: v_bf = {data['v_bf_eq25'][f'{t_n:g}']:.3g} m/s")
        ax.axvline(data["v_bf_read"][f"{t_n:g}"], color=line.get_color(), lw=0.8, ls=":",
                   label=f"read off: {data['v_bf_read'][f'{t_n:g}']:.3g} m/s")
    ax.set_xlabel("v^i [m/s]")
    ax.set_ylabel("-Delta v_x / v^i")
    ax.set_title("Schäfer et al. Fig 8: brake failure at theta = 87.4 deg (Coulomb, eq 13)", fontsize=9)
    ax.legend(fontsize=7)
    return save(fig, path)


def _labels(cols, prefix):
    return [k[len(prefix) + 1:] for k in cols if k.startswith(prefix + " ")]


def plot_panels(data, path, quantity, panels=PANELS):
    """Fig 3 (``quantity = "psi_f"`` against ``psi_i``) or Fig 4 (``"e"`` against
    ``sin(theta)``), one panel per law."""
    cols = data["columns"]
    fig, axes = figure(2, 4, figsize=(16, 7.5), gridspec_kw={"hspace": 0.35, "wspace": 0.28})
    for ax, (key, (law, name, values, title, _)) in zip(axes.ravel(), panels.items()):
        for j, label in enumerate(lb for lb in _labels(cols, quantity) if lb.startswith(f"{key} ")):
            x = cols[f"psi_i {label}"] if quantity == "psi_f" else cols[f"sin_theta {label}"]
            ax.plot(x, cols[f"{quantity} {label}"], STYLES[j % 3], marker="." if len(x) < 15 else None,
                    label=label.split(" ", 2)[2])
        if quantity == "psi_f":
            ax.axhline(0, color="grey", lw=0.5)
            ax.set_xlabel("psi_i")
            ax.set_ylabel("psi_f = v_s^f / v_n^i")
        else:
            ax.set_xlabel("sin(theta)")
            ax.set_ylabel("e")
        ax.set_title(f"({key}) {title}", fontsize=9)
        ax.legend(fontsize=7)
    fig.suptitle(f"Schäfer, Dippel & Wolf (1996) Fig {3 if quantity == 'psi_f' else 4}: "
                 f"{'psi_f against psi_i' if quantity == 'psi_f' else 'e against sin(theta)'} "
                 "(exact references, linear dashpot eq 2)", fontsize=10)
    return save(fig, path)


def plot_hkk(data, path, quantity):
    """Fig 5 (``psi_f``) or Fig 6 (``e``) for the three relative speeds."""
    cols = data["columns"]
    fig, axes = figure(1, 1, figsize=(6, 4.5))
    ax = axes[0, 0]
    for j, v in enumerate(V_REL):
        label = f"v_rel={v:g}"
        x = cols[f"psi_i {label}"] if quantity == "psi_f" else cols[f"sin_theta {label}"]
        ax.plot(x, cols[f"{quantity} {label}"], STYLES[j], label=f"v_rel = {v:g} m/s")
    if quantity == "psi_f":
        ax.axhline(0, color="grey", lw=0.5)
    ax.set_xlabel("psi_i" if quantity == "psi_f" else "sin(theta)")
    ax.set_ylabel("psi_f = v_s^f / v_n^i" if quantity == "psi_f" else "e")
    ax.set_title(f"Schäfer et al. Fig {5 if quantity == 'psi_f' else 6}: Kuwabara-Kono (eq 9) with "
                 "Cundall-Strack k_s = 9.43e4 N/m", fontsize=9)
    ax.legend(fontsize=8)
    return save(fig, path)


def _write(case, out_dir, stem, cols, meta, params):
    """One CSV + sidecar; curves on shorter grids (the saw-tooth's) padded with NaN."""
    n = max(len(c) for c in cols.values())
    cols = {k: np.concatenate([np.asarray(c, dtype=float), np.full(n - len(c), np.nan)]) for k, c in cols.items()}
    csv = os.path.join(out_dir, f"{stem}.csv")
    side = write_csv_with_sidecar(csv, cols, {"case": case.name, "parameters": params, "solver": "filippov",
                                              "versions": versions(), **meta})
    return [csv, side]


def write_all(case, out_dir, params=None, progress=None) -> list:
    """Write Figs 3-6 (PNG, CSV and sidecar each); return the paths."""
    params = dict(params or {})
    known = set().union(*(case.model(law).param_names for law in case.laws))
    unknown = sorted(set(params) - known - {"psi_i"})
    if unknown or "psi_i" in params:
        raise ValueError(f"unknown parameter(s) {unknown or ['psi_i']} for the figures of {case.name!r} "
                         f"(psi_i is their axis); allowed: {', '.join(sorted(known - {'psi_i'}))}")
    written = []
    data = panels_data(case, params, progress=progress)
    for fig, q in (("fig3", "psi_f"), ("fig4", "e")):
        keep = {k: v for k, v in data["columns"].items() if k.split(" ", 1)[0] in ("psi_i", "sin_theta", q)}
        meta = {"figure": f"Schäfer, Dippel & Wolf (1996) {fig.replace('fig', 'Fig ')}",
                "panels": {k: {"law": p[0], "varied": p[1], "values": list(p[2])} for k, p in PANELS.items()},
                "psi_f": "v_s^f / v_n^i (Foerster's convention); psi_f_over_vnf = v_s^f / v_n^f (the paper's print)",
                "failed_points": data["notes"], "wall_seconds": data["wall_seconds"]}
        written += _write(case, out_dir, fig, keep, meta, params)
        written.append(plot_panels(data, os.path.join(out_dir, f"{fig}.png"), q))
    hkk = hkk_data(case, params, progress)
    for fig, q in (("fig5", "psi_f"), ("fig6", "e")):
        keep = {k: v for k, v in hkk["columns"].items() if k.split(" ", 1)[0] in ("psi_i", "sin_theta", q)}
        meta = {"figure": f"Schäfer, Dippel & Wolf (1996) {fig.replace('fig', 'Fig ')}",
                "law": "cundall-strack/kuwabara-kono", "v_rel": list(V_REL),
                "failed_points": hkk["notes"], "wall_seconds": hkk["wall_seconds"]}
        written += _write(case, out_dir, fig, keep, meta, params)
        written.append(plot_hkk(hkk, os.path.join(out_dir, f"{fig}.png"), q))
    bf = brake_data(case, params, progress=progress)
    meta = {"figure": "Schäfer, Dippel & Wolf (1996) Fig 8", "law": "coulomb", "theta_deg": THETA_BF,
            "t_n": list(T_N_BF), "v_bf_eq25": bf["v_bf_eq25"], "v_bf_read": bf["v_bf_read"],
            "v_bf_paper": {"1e-05": 35.0, "0.0001": 3.5}, "failed_points": bf["notes"]}
    written += _write(case, out_dir, "fig8", bf["columns"], meta, params)
    written.append(plot_brake(bf, os.path.join(out_dir, "fig8.png")))
    return written
