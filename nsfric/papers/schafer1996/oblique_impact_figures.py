"""Figs 3-6 of Schäfer, Dippel & Wolf (1996): oblique impacts of two spheres.

Fig 3: ``psi_f`` against ``psi_i`` and Fig 4: the total restitution ``e`` against
``sin(theta)``, one panel per tangential law with the caption's parameter sets (a:
Coulomb ``mu = 0.15, 0.25, 0.35``; b: viscous ``gamma_s = 1, 3, 20 kg/s``; c: eq 15 with
the same ``gamma_s``; d: Cundall-Strack ``k_s/k_n = 1, 2/7, 1/5``; e: Walton-Braun-Mindlin
``k_s^0/k_n = 1, 2/3, 1/3``; f: saw-tooth ``zeta_0 = 1e-8 m``, and 1e-7 m on the same
points, 1e-9 m too, on the whole curve: every tooth edge is an event, 18 s of CPU at
``psi_i = 0.5``, ~45-60 s at 3, 25,580 events) and two more panels, Führer et al.'s D-SDS and C-SDS with ``k_s/k_n = 2/7``.  Figs
5-6: the Hertz-Kuwabara-Kono normal force (eq 9) with Cundall-Strack ``k_s = 9.43e4 N/m``
(eq 24) at ``v_rel = 0.1, 1, 10 m/s`` (``v_n = v_rel cos(theta)``).

Every point is one exact (event-driven) reference impact of
:class:`~nsfric.papers.schafer1996.oblique_impact.ObliqueImpact` (solver ``filippov``; ``ida`` where
it fails, noted in the sidecar).  ``psi_f`` is ``v_s^f/v_n^i`` (Foerster's convention;
see the case).  ``nsfric run oblique-impact`` writes ``fig3.png``/``fig4.png`` with
``fig3.csv``/``fig4.csv`` (+ ``.json`` sidecars), the same for Figs 5-6.
"""
from __future__ import annotations

import os
import time

import numpy as np

from nsfric.io import versions, write_csv_with_sidecar
from nsfric.plotting import figure, save
from nsfric.study.cache import content_key, model_hash
from nsfric.study.sweep import sweep

#: psi_i grid of the curves (the paper's Fig 3 spans 0-6)
PSI = np.linspace(0.1, 5.0, 30)
#: the saw-tooth's grid: every tooth edge is an event (~zeta^f/zeta_0 of them)
PSI_SAWTOOTH = np.linspace(0.25, 3.0, 10)
#: the grid of ``zeta_0 = 1e-9 m`` (ten times the events of 1e-8 m: 25,580 at psi_i = 3):
#: the whole curve (issue 28: the claim is about the curve, not its first points)
PSI_SAWTOOTH_FINE = PSI_SAWTOOTH
#: the saw-tooth periods of Fig 3f: the paper's and the two it says do not visibly alter the curve
ZETA_0 = (1e-8, 1e-7, 1e-9)
STYLES = (":", "--", "-.")
#: panel -> (law, varied parameter, values, title, psi grids per value)
PANELS = {
    "a": ("coulomb", "mu", (0.15, 0.25, 0.35), "Coulomb, eq 13", None),
    "b": ("viscous", "gamma_s", (1.0, 3.0, 20.0), "viscous, eq 14", None),
    "c": ("coulomb-viscous", "gamma_s", (1.0, 3.0, 20.0), "Coulomb-viscous, eq 15", None),
    "d": ("cundall-strack", "ks_ratio", (1.0, 2 / 7, 1 / 5), "Cundall-Strack, eqs 16-17", None),
    "e": ("walton-braun-mindlin", "ks0_ratio", (1.0, 2 / 3, 1 / 3), "Walton-Braun-Mindlin, eqs 20-21", None),
    "f": ("saw-tooth", "zeta_0", ZETA_0, "saw-tooth, eq 22", (PSI_SAWTOOTH, PSI_SAWTOOTH, PSI_SAWTOOTH_FINE)),
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


# -- the points of the figures: picklable point functions of nsfric.sweep -----------------------
#: the observables of an impact point
KEYS = ("psi_f", "psi_f_over_vnf", "e", "e_s", "e_n", "t_n")


class ImpactPoint:
    """One impact of Figs 3-4 at a sweep point (``psi_i`` and the varied parameter): the
    observables :data:`KEYS` (NaN where every solver failed) and ``how``, the solver that
    gave them or the errors (:func:`impact`).  Picklable: the case travels by name."""

    def __init__(self, case, law, params=None, **options):
        self.case, self.law, self.params, self.options = case, law, dict(params or {}), options

    @property
    def cache_token(self) -> str:
        """Changes with the model's content, the fixed parameters and the options."""
        return content_key({"case": self.case.name, "law": self.law, "model": model_hash(self.case.model(self.law)),
                            "params": self.params, "options": self.options})

    def values(self, point: dict) -> dict:
        return {**self.params, **point}

    def __call__(self, point: dict) -> dict:
        obs, how = impact(self.case, self.law, self.values(point), **self.options)
        out = {**{k: obs.get(k, np.nan) for k in KEYS}, "how": how}
        return out if obs else {**out, "failure": how}  # NaN, and not cached


class HKKPoint(ImpactPoint):
    """An impact of Figs 5-6 at ``(v_rel, psi_i)``: ``v_n = v_rel cos(theta)``."""

    def values(self, point: dict) -> dict:
        psi = point["psi_i"]
        return {**self.params, "psi_i": psi, "v_n": point["v_rel"] / np.sqrt(1 + psi ** 2)}


class BrakePoint(ImpactPoint):
    """A point of Fig 8 at ``(t_n, v_i)``: ``-Delta v_x/v^i`` at ``theta = 87.4 deg`` with
    ``k_n`` and ``gamma_n`` of the defaults divided by ``(t_n/1e-5)^2`` and ``t_n/1e-5``
    (:func:`brake_data`), and ``gamma_n = 0`` where the point has ``dashpot = 0``; ``how``:
    ``filippov``, or the error's type."""

    def values(self, point: dict) -> dict:
        base, scale = self.case.bind(self.law, self.params), point["t_n"] / 1e-5
        gamma = base["gamma_n"] / scale if point.get("dashpot", 1) else 0.0
        return {**self.params, "k_n": base["k_n"] / scale ** 2, "gamma_n": gamma,
                "psi_i": float(np.tan(np.radians(THETA_BF))), "v_n": point["v_i"] * np.cos(np.radians(THETA_BF))}

    def __call__(self, point: dict) -> dict:
        q, v = self.values(point), point["v_i"]
        try:
            sol = self.case.reference_solution(self.law, params=q)
            end = [e for e in sol.events if e.kind == "contact-end"][0]
        except Exception as e:  # noqa: BLE001 - recorded
            return {"ratio": np.nan, "how": type(e).__name__, "failure": type(e).__name__}
        s = dict(zip(sol.model.state_names, end.y))
        dv_f = np.array([s["vx_2"] - s["vx_1"], s["vy_2"] - s["vy_1"]])
        dv_i = np.array([-q["v_n"], q["psi_i"] * q["v_n"]])
        return {"ratio": -float((dv_f - dv_i) @ dv_i) / (v * v), "how": "filippov"}


def _sweep(point, grid, observables, sweep_options) -> tuple:
    """``sweep`` of ``point`` over ``grid`` (one task per point unless ``chunksize`` is
    given); the Dataset and its wall time."""
    t0 = time.perf_counter()
    ds = sweep(point, grid=grid, observables=list(observables), **{"chunksize": 1, **sweep_options})
    return ds, time.perf_counter() - t0


def _known(case, law, params):
    names = set(case.model(law).param_names)
    return {k: v for k, v in params.items() if k in names}


def panels_data(case, params=None, panels=PANELS, progress=None, **sweep_options) -> dict:
    """Columns of Figs 3-4: per panel and parameter value, ``psi_i``, ``sin_theta``,
    ``psi_f``, ``e``; and the notes (failed points) and wall times.

    One :func:`~nsfric.study.sweep.sweep` per panel over (varied parameter x ``psi_i``),
    or per curve where the panel's curves have their own ``psi_i`` grids
    (``sweep_options``: ``jobs``, ``executor``, ``cache_dir``, ... go to it)."""
    cols, notes, wall = {}, {}, {}
    for key, (law, name, values, _, grids) in panels.items():
        opts = {"max_events": 100000} if law == "saw-tooth" else {}
        point = ImpactPoint(case, law, _known(case, law, params or {}), **opts)
        runs = [(list(values), PSI)] if grids is None else [([v], g) for v, g in zip(values, grids)]
        for vals, psis in runs:
            ds, seconds = _sweep(point, {name: vals, "psi_i": psis}, KEYS, sweep_options)
            wall[f"{key} {law} {name}={','.join(f'{v:.4g}' for v in vals)}"] = seconds
            for j, val in enumerate(vals):
                label = f"{key} {law} {name}={val:.4g}"
                cols[f"psi_i {label}"] = np.asarray(psis, dtype=float)
                cols[f"sin_theta {label}"] = cols[f"psi_i {label}"] / np.sqrt(1 + cols[f"psi_i {label}"] ** 2)
                for q in ("psi_f", "psi_f_over_vnf", "e"):
                    cols[f"{q} {label}"] = ds[q].values[j]
                failed = [f"psi_i = {psi:g}: {how}" for psi, how in zip(psis, ds["how"].values[j])
                          if how != "filippov"]
                if failed:
                    notes[label] = failed
                if progress:
                    progress(f"{case.name}: {law} {point.values({name: val})}")
    return {"columns": cols, "notes": notes, "wall_seconds": wall}


def hkk_data(case, params=None, progress=None, psis=PSI, **sweep_options) -> dict:
    """Columns of Figs 5-6: Kuwabara-Kono normal force with Cundall-Strack
    (``k_s = 9.43e4 N/m``) at the relative speeds :data:`V_REL`: one sweep over
    ``v_rel`` x ``psi_i``."""
    law = "cundall-strack/kuwabara-kono"
    ds, seconds = _sweep(HKKPoint(case, law, _known(case, law, params or {})),
                         {"v_rel": list(V_REL), "psi_i": psis}, ("psi_f", "e"), sweep_options)
    cols, notes = {}, {}
    for j, v in enumerate(V_REL):
        label = f"v_rel={v:g}"
        failed = [f"psi_i = {psi:g}: {how}" for psi, how in zip(psis, ds["how"].values[j]) if how != "filippov"]
        if failed:
            notes[label] = failed
        psis = np.asarray(psis, dtype=float)
        cols[f"psi_i {label}"], cols[f"sin_theta {label}"] = psis, psis / np.sqrt(1 + psis ** 2)
        cols[f"psi_f {label}"], cols[f"e {label}"] = ds["psi_f"].values[j], ds["e"].values[j]
    if progress:
        progress(f"{case.name}: {law}")
    return {"columns": cols, "notes": notes, "wall_seconds": {"v_rel x psi_i": seconds}}


#: Fig 8's normal force: with the case's dashpot (eq 2) or without (``gamma_n = 0``)
DASHPOT = {"dashpot": 1, "gamma_n=0": 0}
#: the high-speed branch of Fig 8 is fitted over one decade ``LAMBDA_HIGH <= v^i t_n <= 10
#: LAMBDA_HIGH`` (the curves of the two ``t_n`` are one curve of ``v^i t_n``): 1e-3 m for the
#: read-off by asymptotes (the top decade of the ``t_n = 1e-5 s`` curve), 1e-2 m for the
#: exponent (the brake-failure regime proper, 37-370 ``v_bf``: the top decade of the ``t_n =
#: 1e-4 s`` curve only)
LAMBDA_HIGH = {"asymptotes": 1e-3, "exponent": 1e-2}


def brake_data(case, params=None, speeds=V_BF, progress=None, **sweep_options) -> dict:
    """Fig 8 (brake failure, Schäfer et al. §4): ``-Delta v_x/v^i`` against ``v^i`` at
    ``theta = 87.4 deg`` (Coulomb friction, eq 13) for ``t_n = 1e-5 s`` and ``1e-4 s``
    (``k_n`` divided by 100 and ``gamma_n`` by 10: the same ``e_n``; the paper says only
    "decreasing k_n by a factor of 100"), with the dashpot of eq 2 and without it
    (``gamma_n = 0``, :data:`DASHPOT`).  ``x`` is the direction of the initial relative
    velocity.  Also eq 25's ``v_bf``, the exponent of the high-speed branch (fit over
    ``1e-2 m <= v^i t_n <= 1e-1 m``, :data:`LAMBDA_HIGH`; the paper's ``Delta v_x ~ 1/v^i`` is -2) and the transition read
    off each curve by two rules (:data:`READ_OFF`): where ``-Delta v_x/v^i`` has fallen to
    half its low-speed plateau (:func:`half_plateau_speed`), and where the plateau meets
    the high-speed power law (:func:`asymptote_speed`).  One sweep over ``t_n`` x
    dashpot x ``v^i`` (:class:`BrakePoint`)."""
    from nsfric.symbolic import impact_laws as IL

    law = "coulomb"
    point = BrakePoint(case, law, _known(case, law, params or {}))
    speeds = np.asarray(speeds, dtype=float)
    ds, _ = _sweep(point, {"t_n": list(T_N_BF), "dashpot": list(DASHPOT.values()), "v_i": speeds}, ("ratio",),
                   sweep_options)
    base = case.bind(law, point.params)
    cols, read, eq25, notes = {"v_i": speeds}, {}, {}, {}
    rules = {rule: {model: {} for model in DASHPOT} for rule in READ_OFF}
    slopes = {model: {} for model in DASHPOT}
    for j, t_n in enumerate(T_N_BF):
        for d, model in enumerate(DASHPOT):
            suffix = "" if model == "dashpot" else f" {model}"
            failed = [f"v_i = {v:g}: {how}" for v, how in zip(speeds, ds["how"].values[j, d]) if how != "filippov"]
            if failed:
                notes[f"t_n={t_n:g}{suffix}"] = failed
            ratio = ds["ratio"].values[j, d]
            cols[f"-dv_x/v_i t_n={t_n:g}{suffix}"] = ratio
            for rule, read_off in READ_OFF.items():
                rules[rule][model][f"{t_n:g}"] = read_off(speeds, ratio, LAMBDA_HIGH["asymptotes"] / t_n)
            slopes[model][f"{t_n:g}"] = high_speed_exponent(speeds, ratio, LAMBDA_HIGH["exponent"] / t_n)
        if progress:
            progress(f"{case.name}: Fig 8, t_n = {t_n:g} s")
        read[f"{t_n:g}"] = rules["half plateau"]["dashpot"][f"{t_n:g}"]
        vals = {IL.R: base["R_1"], IL.vartheta: np.radians(THETA_BF), IL.k_n: point.values({"t_n": t_n, "v_i": 1.0})["k_n"],
                IL.m_eff: base["m_1"] * base["m_2"] / (base["m_1"] + base["m_2"])}
        eq25[f"{t_n:g}"] = float(IL.brake_failure_velocity().subs(vals))
    return {"columns": cols, "v_bf_read": read, "v_bf_eq25": eq25, "notes": notes, "v_bf_read_rules": rules,
            "high_speed_exponent": slopes}


def half_plateau_speed(speeds, ratio, v_high=None) -> float:
    """The speed where ``ratio`` first falls below half its value at the lowest speed
    (log-log interpolation between the grid points); NaN if it never does.  ``v_high`` is
    not used (the signature of :data:`READ_OFF`)."""
    v, r = np.asarray(speeds, dtype=float), np.asarray(ratio, dtype=float)
    ok = np.isfinite(r)
    v, r = v[ok], r[ok]
    below = np.nonzero(r < r[0] / 2)[0]
    if len(below) == 0 or below[0] == 0:
        return float("nan")
    i = below[0]
    lv, lr = np.log(v[i - 1:i + 1]), np.log(r[i - 1:i + 1])
    return float(np.exp(np.interp(np.log(r[0] / 2), lr[::-1], lv[::-1])))


def _high_fit(speeds, ratio, v_high):
    v, r = np.asarray(speeds, dtype=float), np.asarray(ratio, dtype=float)
    ok = np.isfinite(r) & (r > 0) & (v >= v_high * (1 - 1e-12)) & (v <= 10 * v_high * (1 + 1e-12))
    if ok.sum() < 3:
        raise ValueError(f"fewer than 3 points at {v_high:g} <= v_i <= {10 * v_high:g} m/s")
    return np.polyfit(np.log(v[ok]), np.log(r[ok]), 1)


def high_speed_exponent(speeds, ratio, v_high) -> float:
    """The exponent ``p`` of ``-Delta v_x/v^i ~ (v^i)^p`` fitted (least squares in
    log-log) over the decade ``v_high <= v^i <= 10 v_high``; NaN with fewer than 3 points."""
    try:
        return float(_high_fit(speeds, ratio, v_high)[0])
    except ValueError:
        return float("nan")


def asymptote_speed(speeds, ratio, v_high) -> float:
    """The speed where the low-speed plateau (``ratio`` at the lowest speed) meets the
    high-speed power law fitted over ``v_high .. 10 v_high`` (:func:`high_speed_exponent`): the
    textbook reading of a crossover in a log-log plot; NaN without a fit."""
    try:
        p, a = _high_fit(speeds, ratio, v_high)
    except ValueError:
        return float("nan")
    r0 = float(np.asarray(ratio, dtype=float)[0])
    return float(np.exp((np.log(r0) - a) / p))


#: the rules that read the transition speed off a curve of Fig 8 (the paper reads it by eye)
READ_OFF = {"half plateau": half_plateau_speed, "asymptotes": asymptote_speed}


def plot_brake(data, path):
    """Fig 8: log-log ``-Delta v_x/v^i`` against ``v^i``, eq 25 and the read-off transitions."""
    cols = data["columns"]
    fig, axes = figure(1, 1, figsize=(6, 4.5))
    ax = axes[0, 0]
    for j, t_n in enumerate(T_N_BF):
        line = ax.loglog(cols["v_i"], cols[f"-dv_x/v_i t_n={t_n:g}"], STYLES[j], marker=".",
                         label=f"t_n = {t_n:g} s")[0]
        if f"-dv_x/v_i t_n={t_n:g} gamma_n=0" in cols:
            ax.loglog(cols["v_i"], cols[f"-dv_x/v_i t_n={t_n:g} gamma_n=0"], STYLES[j], color=line.get_color(),
                      alpha=0.45, lw=2, label=f"t_n = {t_n:g} s, no dashpot (gamma_n = 0)")
        ax.axvline(data["v_bf_eq25"][f"{t_n:g}"], color=line.get_color(), lw=0.8, ls="-",
                   label=f"eq 25: v_bf = {data['v_bf_eq25'][f'{t_n:g}']:.3g} m/s")
        ax.axvline(data["v_bf_read"][f"{t_n:g}"], color=line.get_color(), lw=0.8, ls=":",
                   label=f"read off: {data['v_bf_read'][f'{t_n:g}']:.3g} m/s")
    ax.set_xlabel("v^i [m/s]")
    ax.set_ylabel("-Delta v_x / v^i")
    ax.set_title("Schäfer et al. Fig 8: brake failure at theta = 87.4 deg (Coulomb, eq 13)", fontsize=9)
    ax.legend(fontsize=7)
    return save(fig, path)


def sawtooth_zeta0(cols) -> dict:
    """The saw-tooth's ``psi_f(psi_i)`` for each ``zeta_0`` of :data:`ZETA_0` on the grid of
    1e-8 m (NaN where a period was not computed) and the difference of each from 1e-8 m:
    what the paper says is not visible ("changing zeta_0 to 1e-7 m or 1e-9 m does not
    visibly alter the curve")."""
    label = lambda z: f"f saw-tooth zeta_0={z:.4g}"  # noqa: E731
    psi = np.asarray(cols[f"psi_i {label(ZETA_0[0])}"], float)
    out = {"psi_i": psi}
    for z in ZETA_0:
        x, y = np.asarray(cols[f"psi_i {label(z)}"], float), np.asarray(cols[f"psi_f {label(z)}"], float)
        out[f"psi_f zeta_0={z:g}"] = np.array([y[np.isclose(x, p)][0] if np.any(np.isclose(x, p)) else np.nan
                                               for p in psi])
    for z in ZETA_0[1:]:
        out[f"psi_f zeta_0={z:g} - psi_f zeta_0={ZETA_0[0]:g}"] = out[f"psi_f zeta_0={z:g}"] - out[f"psi_f zeta_0={ZETA_0[0]:g}"]
    return out


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


def write_all(case, out_dir, params=None, progress=None, **sweep_options) -> list:
    """Write Figs 3-6 and 8 (PNG, CSV and sidecar each); return the paths.

    ``sweep_options`` (``jobs``, ``executor``, ``cache_dir``, ...) go to every sweep."""
    params = dict(params or {})
    known = set().union(*(case.model(law).param_names for law in case.laws))
    unknown = sorted(set(params) - known - {"psi_i"})
    if unknown or "psi_i" in params:
        raise ValueError(f"unknown parameter(s) {unknown or ['psi_i']} for the figures of {case.name!r} "
                         f"(psi_i is their axis); allowed: {', '.join(sorted(known - {'psi_i'}))}")
    written = []
    data = panels_data(case, params, progress=progress, **sweep_options)
    for fig, q in (("fig3", "psi_f"), ("fig4", "e")):
        keep = {k: v for k, v in data["columns"].items() if k.split(" ", 1)[0] in ("psi_i", "sin_theta", q)}
        meta = {"figure": f"Schäfer, Dippel & Wolf (1996) {fig.replace('fig', 'Fig ')}",
                "panels": {k: {"law": p[0], "varied": p[1], "values": list(p[2])} for k, p in PANELS.items()},
                "psi_f": "v_s^f / v_n^i (Foerster's convention); psi_f_over_vnf = v_s^f / v_n^f (the paper's print)",
                "failed_points": data["notes"], "wall_seconds": data["wall_seconds"]}
        written += _write(case, out_dir, fig, keep, meta, params)
        written.append(plot_panels(data, os.path.join(out_dir, f"{fig}.png"), q))
    written += _write(case, out_dir, "sawtooth-zeta0", sawtooth_zeta0(data["columns"]),
                      {"figure": "Schäfer, Dippel & Wolf (1996) Fig 3f and the sentence after eq 22",
                       "law": "saw-tooth", "zeta_0": list(ZETA_0),
                       "claim": "changing zeta_0 to 1e-7 m or 1e-9 m does not visibly alter the curve",
                       "psi_f": "v_s^f / v_n^i; NaN where a period was not computed (1e-9 m: psi_i <= 1.17)",
                       "failed_points": data["notes"]}, params)
    hkk = hkk_data(case, params, progress, **sweep_options)
    for fig, q in (("fig5", "psi_f"), ("fig6", "e")):
        keep = {k: v for k, v in hkk["columns"].items() if k.split(" ", 1)[0] in ("psi_i", "sin_theta", q)}
        meta = {"figure": f"Schäfer, Dippel & Wolf (1996) {fig.replace('fig', 'Fig ')}",
                "law": "cundall-strack/kuwabara-kono", "v_rel": list(V_REL),
                "failed_points": hkk["notes"], "wall_seconds": hkk["wall_seconds"]}
        written += _write(case, out_dir, fig, keep, meta, params)
        written.append(plot_hkk(hkk, os.path.join(out_dir, f"{fig}.png"), q))
    bf = brake_data(case, params, progress=progress, **sweep_options)
    meta = {"figure": "Schäfer, Dippel & Wolf (1996) Fig 8", "law": "coulomb", "theta_deg": THETA_BF,
            "t_n": list(T_N_BF), "v_bf_eq25": bf["v_bf_eq25"], "v_bf_read": bf["v_bf_read"],
            "v_bf_paper": {"1e-05": 35.0, "0.0001": 3.5}, "failed_points": bf["notes"],
            "v_bf_read_rules": bf["v_bf_read_rules"], "high_speed_exponent": bf["high_speed_exponent"],
            "high_speed_fit": {k: f"least squares in log-log over {v:g} m <= v_i t_n <= {10 * v:g} m" for k, v in LAMBDA_HIGH.items()},
            "dashpot": "'dashpot': eq 2's gamma_n (divided by t_n/1e-5); 'gamma_n=0': no dashpot"}
    written += _write(case, out_dir, "fig8", bf["columns"], meta, params)
    written.append(plot_brake(bf, os.path.join(out_dir, "fig8.png")))
    return written
