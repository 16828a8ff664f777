"""Discrete schemes on the normal impact: the error of ``e_n`` against the exact reference,
Schäfer, Dippel & Wolf (1996) §2 (after eq 5: "An accurate simulation (reproducing the
analytic ``e_n`` with relative errors of the order ``1e-4``) requires a constant time
step ``Delta t ~ t_n/100``"), with their integrator, Gear's fifth-order
predictor-corrector (:mod:`nsfric.schemes.gear`), and the other registered schemes.

**Where the contact starts.**  In a granular simulation a contact begins anywhere inside a
step.  The discrete run starts a free flight of ``phi dt`` before the contact
(``xi0 = -phi v_i dt``); free flight is exact for every scheme, so ``phi`` is the
*phase* of the contact begin inside the step.  The errors are given for each phase of
:data:`PHASES` and as their mean (the expected error of a contact at a random phase)
and maximum.  With ``dt = t_n/k`` the contact end keeps the same phase on every rung
of the ladder, so the errors of one phase follow ``C(phi) dt^p``.

**Where the contact ends in a discrete run** (:func:`discrete_restitution`): the first
step point ``j`` after the largest overlap where ``xi_j <= 0``.  Two readings of
``e_n``, both reported:

* ``cross``: ``v`` linearly interpolated at the crossing of the linearly interpolated
  overlap, ``theta = xi_{j-1}/(xi_{j-1} - xi_j)``, ``v_c = v_{j-1} + theta (v_j -
  v_{j-1})``, ``e_n = -v_c/v_i``;
* ``final``: the velocity after the separation, ``e_n = -v(t_end)/v_i`` (what a
  simulation measures: the free flight after the contact keeps it).

**What limits the schemes.**  The force of eq 2 jumps at ``xi = 0`` (``-gamma_n v`` on
the contact side, 0 outside): a step that straddles the contact begin or end integrates
the wrong field over a fraction of the step, an ``O(dt)`` error of the impulse whatever
the order of the scheme (``gamma_n dt/m_eff ~ 3e-3`` at ``t_n/100``).  Only at phases
where the jump falls on a step point, or with an event-aware scheme (``gear5-event``
lands a step on the switch), is the nominal order seen.  On the Hertz-type laws
``gear5-event`` restarts at the located onset ``xi = 0``, where ``xi^(3/2)`` has no third
derivative: from the Taylor coefficients that exist there, zeros beyond
(:func:`~nsfric.schemes.gear.lower_order_start`).  For Hertz-type laws the force
is continuous at ``xi = 0`` but not smooth (``xi^(3/2)``), which limits the order too.

``nsfric run normal-impact`` writes ``schemes.csv`` (errors per law, scheme, step),
``scheme-orders.csv`` (observed orders by :func:`~nsfric.study.fit.fit_order`, or "no
order" and why) with sidecars, and ``schemes.png``.
"""
from __future__ import annotations

import os

import numpy as np
from matplotlib.ticker import NullFormatter

from nsfric.io import versions, write_csv_with_sidecar
from nsfric.plotting import figure, save
from nsfric.schemes import simulate
from nsfric.study.fit import fit_order

#: the schemes of the study: the paper's Gear predictor-corrector and the other classics
STUDY_SCHEMES = ("euler", "symplectic-euler", "velocity-verlet", "heun", "rk4", "gear5", "bdf2",
                 "gear5-exact-restart", "gear5-event")
#: the laws of the study (contact ending at zero overlap, as eqs 3-4 assume)
STUDY_LAWS = ("linear-dashpot", "hertz", "hertz-damped", "kuwabara-kono", "walton-braun")
#: the ladder of steps: ``dt = t_n/k`` (``t_n`` of the reference at ``v_i``)
LADDER = (25, 50, 100, 200, 400)
#: phases of the contact begin inside a step (fractions of dt)
PHASES = (0.0, 0.25, 0.5, 0.75)
#: the paper's statement: relative error ~1e-4 of e_n at dt = t_n/100 (eq 2, Gear)
PAPER_K, PAPER_ERROR = 100, 1e-4
#: the paper's own step: its ``t_n = 1e-5 s`` (eq 4 with its rounded ``k_n``, ``gamma_n``
#: gives ``9.9985e-6 s``) over 100, so the contact lasts 99.985 steps, not a whole number
PAPER_T_N, PAPER_DT = 1e-5, 1e-7
READINGS = ("cross", "final")


def discrete_restitution(sol, v_i: float) -> dict:
    """``e_n`` of a discrete run by both readings of the module docstring: ``{"cross",
    "final", "t_end_contact"}``.

    Raises
    ------
    ValueError
        If the overlap never became positive, or did not return to ``<= 0`` after its
        largest value before the run's end.
    """
    xi, v, t = sol["xi"], sol["v"], sol.t
    if not np.any(xi > 0):
        raise ValueError("the discrete overlap never became positive: no contact")
    i_max = int(np.nanargmax(xi))
    after = np.nonzero(xi[i_max:] <= 0)[0]
    if len(after) == 0:
        raise ValueError("the discrete overlap did not return to zero before t_end; increase t_end")
    j = i_max + int(after[0])
    theta = xi[j - 1] / (xi[j - 1] - xi[j])
    v_c = v[j - 1] + theta * (v[j] - v[j - 1])
    return {"cross": float(-v_c / v_i), "final": float(-v[-1] / v_i),
            "t_end_contact": float(t[j - 1] + theta * (t[j] - t[j - 1]))}


def reference_restitution(case, law: str, params: dict) -> dict:
    """``e_n`` and ``t_n`` of the exact (event-driven) reference of ``law``."""
    sol = case.reference_solution(law, params=params, samples=2)
    return case.restitution(sol, law)


def errors_at(case, law: str, scheme: str, k: int, ref: dict, v_i: float, phases=PHASES) -> dict:
    """Relative errors of ``e_n`` (both readings) of ``scheme`` at ``dt = t_n/k``, one per
    phase: ``{"cross": array, "final": array}``; NaN where the run failed (an implicit
    step's Newton iteration) or its contact did not end."""
    dt = ref["t_n"] / k
    base = case.bind(law, {"v_i": v_i})
    t_end = case.contact_t_end(law, base) + 2 * dt
    out = {r: [] for r in READINGS}
    for phi in phases:
        try:
            with np.errstate(all="ignore"):
                sol = simulate(case, law, scheme, dt, t_end=t_end, params={"v_i": v_i, "xi0": -phi * v_i * dt})
            e = discrete_restitution(sol, v_i)
        except (ValueError, RuntimeError, ArithmeticError):  # Newton failure, no end
            e = {r: np.nan for r in READINGS}
        for r in READINGS:
            out[r].append(abs(e[r] - ref["e_n"]) / ref["e_n"])
    return {r: np.array(a) for r, a in out.items()}


def scheme_study(case, laws=STUDY_LAWS, schemes=STUDY_SCHEMES, ladder=LADDER, phases=PHASES,
                 v_i: float = 1.0, progress=None) -> tuple:
    """The errors of ``e_n`` per law, scheme and step, and the observed orders.

    Returns
    -------
    (rows, orders) : dict of columns each
        ``rows``: ``law, scheme, k, dt, dt_over_t_n, n_failed`` (phases whose run failed,
        see :func:`errors_at`) and per reading ``err_<reading>_mean``, ``err_<reading>_max``,
        ``err_<reading>_median`` (over the phases that ran) and one column per phase; ``orders``: ``law, scheme,
        reading, order, stderr, n_points, dt_min, dt_max, reason`` from
        :func:`~nsfric.study.fit.fit_order` of the phase-mean errors.
    """
    rows = {c: [] for c in ("law", "scheme", "k", "dt", "dt_over_t_n", "n_failed")}
    for r in READINGS:
        rows.update({f"err_{r}_mean": [], f"err_{r}_max": [], f"err_{r}_median": []})
        rows.update({f"err_{r}_phase_{phi:g}": [] for phi in phases})
    orders = {c: [] for c in ("law", "scheme", "reading", "order", "stderr", "n_points", "dt_min",
                              "dt_max", "reason")}
    for law in laws:
        ref = reference_restitution(case, law, {"v_i": v_i})
        for scheme in schemes:
            if progress:
                progress(f"{case.name}: scheme study, {law}, {scheme}")
            means = {r: [] for r in READINGS}
            for k in ladder:
                err = errors_at(case, law, scheme, k, ref, v_i, phases)
                rows["law"].append(law)
                rows["scheme"].append(scheme)
                rows["k"].append(k)
                rows["dt"].append(ref["t_n"] / k)
                rows["dt_over_t_n"].append(1.0 / k)
                rows["n_failed"].append(int(np.sum(~np.isfinite(err["cross"]))))
                for r in READINGS:
                    good = err[r][np.isfinite(err[r])]
                    rows[f"err_{r}_mean"].append(float(np.mean(good)) if len(good) else np.nan)
                    rows[f"err_{r}_max"].append(float(np.max(good)) if len(good) else np.nan)
                    rows[f"err_{r}_median"].append(float(np.median(good)) if len(good) else np.nan)
                    for phi, e in zip(phases, err[r]):
                        rows[f"err_{r}_phase_{phi:g}"].append(float(e))
                    means[r].append(rows[f"err_{r}_mean"][-1])
            dts = ref["t_n"] / np.asarray(ladder, dtype=float)
            for r in READINGS:
                fit = fit_order(dts, means[r], floor=1e-13)
                if not np.any(np.isfinite(means[r])):
                    fit.reason = "no order: every run failed (see n_failed and errors_at)"
                for key, val in (("law", law), ("scheme", scheme), ("reading", r), ("order", fit.order),
                                 ("stderr", fit.stderr), ("n_points", fit.n_points), ("dt_min", fit.dt_min),
                                 ("dt_max", fit.dt_max), ("reason", fit.reason or "")):
                    orders[key].append(val)
    return {k: np.asarray(v) for k, v in rows.items()}, {k: np.asarray(v) for k, v in orders.items()}


def paper_number(rows, reading: str = "cross") -> dict:
    """The relative error of ``e_n`` by Gear's predictor-corrector at ``dt = t_n/100`` for
    the linear spring-dashpot (eq 2): mean and max over the phases, beside the paper's
    ``1e-4``."""
    sel = (rows["law"] == "linear-dashpot") & (rows["scheme"] == "gear5") & (rows["k"] == PAPER_K)
    if not np.any(sel):
        raise ValueError("the study holds no gear5 run of the linear dashpot at t_n/100")
    i = int(np.nonzero(sel)[0][0])
    return {"paper": PAPER_ERROR, "mean": float(rows[f"err_{reading}_mean"][i]),
            "max": float(rows[f"err_{reading}_max"][i])}


def paper_step_errors(case, scheme: str = "gear5", phases=PHASES, v_i: float = 1.0) -> dict:
    """The relative errors of ``e_n`` of ``scheme`` on the linear spring-dashpot at the
    paper's own step ``dt = 1e-7 s`` (:data:`PAPER_DT`: its ``t_n = 1e-5 s`` over 100),
    one per phase of ``phases``, by both readings (:func:`errors_at`)."""
    ref = reference_restitution(case, "linear-dashpot", {"v_i": v_i})
    err = errors_at(case, "linear-dashpot", scheme, ref["t_n"] / PAPER_DT, ref, v_i, phases)
    return {"scheme": scheme, "dt": PAPER_DT, "t_n_paper": PAPER_T_N, "t_n": ref["t_n"],
            "steps_per_contact": ref["t_n"] / PAPER_DT, "phases": [float(p) for p in phases],
            **{f"err_{r}": [float(e) for e in err[r]] for r in READINGS}}


def plot_schemes(rows, path, laws=STUDY_LAWS, schemes=STUDY_SCHEMES):
    """:func:`schemes_figure` saved to ``path``."""
    return save(schemes_figure(rows, laws, schemes), path)


#: the y label of :func:`schemes_figure`
SCHEMES_YLABEL = "relative error of e_n\n(line: median over phases, open: max)"


def schemes_figure(rows, laws=STUDY_LAWS, schemes=STUDY_SCHEMES):
    """One column of panels per law, one row per reading: the relative error of ``e_n``
    against ``dt/t_n`` for every scheme, the median over the phases of the contact start
    (a line) and their maximum (open markers); the paper's point marked.  Not the mean: a
    degenerate phase (the contact end on a step point, phase 0 at ``dt = t_n/k``) can
    exceed the others by three orders of magnitude and would make the mean its own."""
    fig, axes = figure(len(READINGS), len(laws), figsize=(3.6 * len(laws), 6.6), sharex=True,
                       gridspec_kw={"wspace": 0.3, "hspace": 0.25})
    for a, r in enumerate(READINGS):
        for b, law in enumerate(laws):
            ax = axes[a, b]
            for scheme in schemes:
                sel = (rows["law"] == law) & (rows["scheme"] == scheme)
                x, y, top = rows["dt_over_t_n"][sel], rows[f"err_{r}_median"][sel], rows[f"err_{r}_max"][sel]
                ok = np.isfinite(y) & (y > 0)
                line, = ax.loglog(x[ok], y[ok], "o-" if "event" not in scheme else "s--", ms=3, lw=1, label=scheme)
                up = np.isfinite(top) & (top > 0)
                ax.loglog(x[up], top[up], "o" if "event" not in scheme else "s", ms=4, mfc="none", lw=0,
                          color=line.get_color(), alpha=0.7)
            if law == "linear-dashpot":
                ax.plot(1 / PAPER_K, PAPER_ERROR, "k*", ms=12, label="paper: 1e-4 at t_n/100")
            ax.set_title(f"{law}: e_n {'at the crossing' if r == 'cross' else 'after separation'}",
                         fontsize=8)
            ax.xaxis.set_minor_formatter(NullFormatter())
            if a == len(READINGS) - 1:
                ax.set_xlabel("dt / t_n")
            if b == 0:
                ax.set_ylabel(SCHEMES_YLABEL, fontsize=8)
    # one legend for all panels, outside them: inside a panel it hides curves
    fig.legend(*axes[0, 0].get_legend_handles_labels(), fontsize=7, loc="upper left", bbox_to_anchor=(0.905, 0.88))
    return fig


def write_schemes(case, out_dir, progress=None, **options) -> list:
    """``schemes.csv``, ``scheme-orders.csv`` (+ sidecars) and ``schemes.png``."""
    rows, orders = scheme_study(case, progress=progress, **options)
    meta = {"case": case.name, "study": "discrete schemes on the normal impact: relative error of e_n",
            "reference": "Schäfer, Dippel & Wolf (1996) §2 after eq 5 (1e-4 at t_n/100, Gear)",
            "contact_end": "first step after the largest overlap with xi <= 0; 'cross': v linearly "
                           "interpolated at the overlap's crossing; 'final': v after separation",
            "phases": list(options.get("phases", PHASES)), "v_i": options.get("v_i", 1.0),
            "paper_number": {r: paper_number(rows, r) for r in READINGS}
            if "gear5" in options.get("schemes", STUDY_SCHEMES) else {},
            "paper_step": paper_step_errors(case, phases=options.get("phases", PHASES), v_i=options.get("v_i", 1.0))
            if "linear-dashpot" in options.get("laws", STUDY_LAWS) else {},
            "solver": "filippov (reference e_n)", "versions": versions()}
    csv = os.path.join(out_dir, "schemes.csv")
    csv2 = os.path.join(out_dir, "scheme-orders.csv")
    written = [csv, write_csv_with_sidecar(csv, rows, meta)]
    written += [csv2, write_csv_with_sidecar(csv2, orders, {**meta, "fit": "nsfric.study.fit.fit_order of "
                                                            "the phase-mean errors, floor 1e-13"})]
    written.append(plot_schemes(rows, os.path.join(out_dir, "schemes.png"),
                                options.get("laws", STUDY_LAWS), options.get("schemes", STUDY_SCHEMES)))
    return written
