"""``nsfric run slip-rule-energy``: the energy account of every production slip rule, along
its exact continuous limit and step by step, over a sweep of the standard impact.

The impact is the slip-rule zoo's (:mod:`nsfric.cases.slip_rule_zoo`): a sphere on a flat
wall, lever arm ``R``, the normal force clamped at zero.  The tangential force ``F_t``
does the work ``W = int F_t v_t dt`` on the sphere (``v_t = v_x + R omega``, so that
``W`` is the change of ``m v_x^2/2 + I omega^2/2``); it splits into the spring's part
``W_elastic = int F_el v_t dt`` (``F_el``: the elastic part of the force the law
declares, its output ``F_t_el``, :data:`~nsfric.symbolic.laws.SPRING_OUTPUTS`: ``-k_t
xi`` for a spring on the displacement ``xi``, as the code's step has it in
:meth:`~nsfric.schemes.slip_rules.SlipRule.elastic_force`; zero for Chrono's
``coulomb-viscous``) and the rest ``W_damping = W - W_elastic`` (dashpot, trimmed or
dropped); the slider dissipates ``E_slip = -W_elastic - E_t(end)`` with the spring
energy the law declares, ``E_t`` (``k_t xi^2/2``), and ``E_t = 0`` before the contact.  A
negative ``E_slip`` is spring energy no work put in (a reset that loads the spring).
Along the exact limit the integrals are Gauss-Legendre quadratures of the dense output
on each smooth piece between the solution's events (:func:`exact_energy_account`); in
the code's step they are the sums of
:func:`~nsfric.schemes.slip_rule_impact.run_impact`.  All in units of the impact
energy ``m v^2/2``.

The sweep (:data:`SWEEP`): the angle ``theta``, ``mu``, ``e_n`` and ``k_t/k_n`` on a
grid, for every rule of the zoo -- YADE's Hertz-Mindlin row
(:mod:`~nsfric.schemes.slip_rule_hertz`) with its Hertz normal force and the elastic
energy ``E_el = 2/5 k_n_tilde delta^(5/2)`` of its law, its spring energy ``E_t = F_e^2/(2
k_ta a)``, its own ``k_t`` from the materials (the ``k_t/k_n`` axis leaves it unchanged)
and ``e_n`` through Thornton's damping ratio.  The certificate (:func:`certificate`), per
rule: over every point, the largest kinetic-energy ratio after/before of the code's step
(at each step of a short ladder), the most negative ``E_slip`` of the step and of the
exact limit, the largest rise of the limit's mechanical energy (with ``E_t``) above the
impact energy, and where each occurs; its verdict ``"no energy gain"`` or what it found.
Where the limit law cannot be solved (the event-driven solver finds no consistent mode,
:class:`~nsfric.errors.ZenoError`; none of the default sweep's points since
``sds-elastic-test`` has its graze mode, the regime where LIGGGHTS's and YADE's step
chatters between capped and sticking), the row says why (``limit_note``) and the
certificate counts and names those points.  Writes ``energy-sweep.csv`` (one row
per rule and point), ``energy-certificate.csv`` (one row per rule) and
``energy-certificate.png`` (``E_slip`` of each rule's limit against ``theta`` for each
``mu``), each with a ``.json`` sidecar.
"""
from __future__ import annotations

import itertools
import math
import os
from functools import partial

import numpy as np

from ..studies import Study
from .slip_rule_zoo import ENERGY_MARGIN, EXACT_ERROR, SLIP_MARGIN, TOLERANCES, contact_time, limit_case, \
    mechanical_energy, standard_impact

#: the sweep of the default run: angle [deg], friction coefficient, normal restitution,
#: stiffness ratio (the standard impact's values among them)
SWEEP = {"theta_deg": (5.0, 25.0, 45.0, 65.0, 85.0), "mu": (0.1, 0.3, 0.6), "e_n": (0.5, 0.9, 0.99),
         "ks_ratio": (0.1, 2 / 7, 1.0)}
#: the ladder of the code's steps ``dt = t_n/N`` at every point
DIVISIONS = (200, 800)
#: Gauss-Legendre nodes per sub-interval and sub-intervals per smooth piece
GAUSS_NODES, GAUSS_PIECES = 8, 32


def _gauss(a: float, b: float):
    """Nodes and weights of :data:`GAUSS_PIECES` x :data:`GAUSS_NODES`-point Gauss-Legendre
    on ``[a, b]``."""
    x, w = np.polynomial.legendre.leggauss(GAUSS_NODES)
    edges = np.linspace(a, b, GAUSS_PIECES + 1)
    half = 0.5 * np.diff(edges)
    mid = 0.5 * (edges[1:] + edges[:-1])
    return (mid[:, None] + half[:, None] * x).ravel(), (half[:, None] * w).ravel()


def exact_energy_account(law: str, p: dict, until: float | None = None) -> dict:
    """``W_elastic``, ``W_damping``, ``E_slip`` (module docstring) along the exact solution
    of the limit law ``law`` (a tangential law of ``sphere-wall``) on the impact ``p``,
    from the first touch to the contact end, in units of the impact energy; also
    ``W_total`` (the change of the tangential kinetic energy) and ``max_energy_gain``
    (the largest rise of the mechanical energy, with ``E_t``, above the impact energy, at
    the quadrature nodes).  ``until``: the account up to this time instead (before the
    contact end)."""
    from . import get_case

    name, case_law, params, solver = limit_case(law, p)
    sol = get_case(name).reference_solution(case_law, solver=solver, params=params, **TOLERANCES)
    ends = [e.t for e in sol.events if e.kind == "contact-end"]
    if not ends:
        raise RuntimeError(f"{law} at theta = {p['theta_deg']:g}: the contact did not end")
    t0, t1 = sol.span[0], ends[0] if until is None else min(float(until), ends[0])
    cuts = sorted({t0, t1, *(e.t for e in sol.events if t0 < e.t < t1)})
    names = list(sol.state_names)
    m, I, R = p["m"], p["I"], p["R"]
    E0 = 0.5 * m * p["v"] ** 2

    W_el, gain, mode = 0.0, 0.0, None
    for a, b in zip(cuts[:-1], cuts[1:]):
        if b <= a:
            continue
        mode = sol.mode_at(0.5 * (a + b))  # the piece's mode, also at its ends
        t, w = _gauss(a, b)
        # the energy also just inside both ends of the piece (a reset's jump is at its start)
        t = np.concatenate([t, [a + 1e-12 * (b - a), b - 1e-12 * (b - a)]])
        Y = sol(t)
        s = dict(zip(names, Y))
        F_el = sol.derived("F_t_el", y=Y, modes=[mode] * len(t))[:-2]  # the law's elastic force
        W_el += float(np.sum(w * F_el * (s["vx"] + R * s["omega"])[:-2]))
        E = mechanical_energy(sol, p, Y, [mode] * len(t))
        gain = max(gain, float(np.max(E - E0)) / E0)
    first, last = (dict(zip(names, sol(np.atleast_1d(t)))) for t in (t0, t1))
    kin_t = {k: 0.5 * m * s["vx"][0] ** 2 + 0.5 * I * s["omega"][0] ** 2 for k, s in (("0", first), ("1", last))}
    E_t_end = float(sol.derived("E_t", y=sol(np.atleast_1d(t1)), modes=[mode])[0]) if mode is not None else 0.0
    W = kin_t["1"] - kin_t["0"]
    return {"W_total": W / E0, "W_elastic": W_el / E0, "W_damping": (W - W_el) / E0,
            "E_slip": (-W_el - E_t_end) / E0, "max_energy_gain": gain}


def _account_or_why(law: str, p: dict) -> dict:
    """:func:`exact_energy_account`, or, where the event-driven solver finds no
    consistent continuation of the limit law (:class:`~nsfric.errors.ZenoError`), ``nan``
    values and the solver's diagnosis in ``note`` (module docstring)."""
    from ..errors import ZenoError

    try:
        return {**exact_energy_account(law, p), "note": ""}
    except ZenoError as e:
        return {k: math.nan for k in ("W_total", "W_elastic", "W_damping", "E_slip", "max_energy_gain")} | {
            "note": f"limit not solved: {str(e)[:160]}..."}


def sweep_points(sweep=None) -> list:
    """The grid of :data:`SWEEP` (or ``sweep``, same keys) as a list of dicts."""
    sweep = {**SWEEP, **(sweep or {})}
    keys = list(SWEEP)
    return [dict(zip(keys, map(float, values))) for values in itertools.product(*(sweep[k] for k in keys))]


COLUMNS = ("rule", "code", "limit_law", "theta_deg", "mu", "e_n", "ks_ratio", "limit_W_elastic",
           "limit_W_damping", "limit_E_slip", "limit_max_energy_gain", "limit_note", "step_dt_over_t_n",
           "step_W_elastic",
           "step_W_damping", "step_E_slip", "step_max_energy_gain", "step_max_KE_ratio")


def energy_sweep(rules=None, sweep=None, divisions=DIVISIONS, progress=None, jobs=1) -> list:
    """One row per rule and sweep point (:data:`COLUMNS`): the exact limit's account and
    the code's step's at the finest of ``divisions`` (its largest kinetic-energy ratio
    over all of them).  The points are independent: ``jobs`` > 1 runs them on that many
    local processes (the same rows, bit for bit)."""
    from ..schemes.slip_rules import SLIP_RULES, get_slip_rule
    from ..study.execute import map_tasks

    # by default the zoo's default rules, YADE's Hertz-Mindlin row too (its limit by the Filippov
    # solver, slip_rule_zoo.HERTZ_SOLVER; its k_t comes from the materials, so the k_t/k_n axis
    # leaves it alone); not Kratos's Hertz rows, whose limit is not found at every angle
    rules = [get_slip_rule(r).name for r in (rules or [n for n, r in SLIP_RULES.items() if r.in_default_run])]
    divisions = sorted({int(n) for n in divisions})
    done = (lambda k, n: progress(f"slip-rule-energy: {k}/{n} points")) if progress else None
    per_point = map_tasks(partial(_point_rows, rules=rules, divisions=divisions), sweep_points(sweep),
                          jobs=jobs, progress=done)
    return [row for rows in per_point for row in rows]


def _point_rows(point: dict, rules, divisions) -> list:
    """The rows of :func:`energy_sweep` at the sweep point ``point`` (one task of its pool)."""
    from ..schemes.slip_rule_impact import run_impact
    from ..schemes.slip_rules import get_slip_rule

    p = standard_impact(point["theta_deg"], mu=point["mu"], e_n=point["e_n"], ks_ratio=point["ks_ratio"])
    own = {r: tuple(sorted(get_slip_rule(r).params.items())) for r in rules}  # Kratos's mu(v) row's
    exact = {(law, extra): _account_or_why(law, {**p, **dict(extra)})
             for law, extra in sorted({(get_slip_rule(r).limit, own[r]) for r in rules})}
    t_n = contact_time(p)
    rows = []
    for name in rules:
        rule = get_slip_rule(name)
        runs = [run_impact(name, {**p, **dict(own[name])}, t_n / n) for n in divisions]
        ex, fine = exact[rule.limit, own[name]], runs[-1]
        rows.append({"rule": name, "code": rule.code, "limit_law": rule.limit, **point,
                     "limit_W_elastic": ex["W_elastic"], "limit_W_damping": ex["W_damping"],
                     "limit_E_slip": ex["E_slip"], "limit_max_energy_gain": ex["max_energy_gain"],
                     "limit_note": ex["note"],
                     "step_dt_over_t_n": 1.0 / divisions[-1], "step_W_elastic": fine["W_elastic"],
                     "step_W_damping": fine["W_damping"], "step_E_slip": fine["E_slip"],
                     "step_max_energy_gain": fine["max_energy_gain"],
                     "step_max_KE_ratio": max(r["KE_ratio"] for r in runs)})
    return rows


def _where(row) -> str:
    return f"theta {row['theta_deg']:g}, mu {row['mu']:g}, e_n {row['e_n']:g}, k_t/k_n {row['ks_ratio']:.3g}"


def certificate(rows) -> list:
    """Per rule, over the sweep: ``max_KE_ratio`` (the step's), ``min_step_E_slip``,
    ``min_limit_E_slip``, ``max_limit_energy_gain``, each with ``where``, and the
    ``verdict``: ``"no energy gain"``, or ``"; "``-joined ``"kinetic gain"`` (a run leaves
    with more kinetic energy than it came with), ``"slider creates energy"`` (the step's
    or the limit's ``E_slip`` below ``-SLIP_MARGIN``), ``"spring gain"`` (the limit's
    mechanical energy above the impact energy by more than its error)."""
    out = []
    for name in dict.fromkeys(r["rule"] for r in rows):
        rs = [r for r in rows if r["rule"] == name]
        solved = [r for r in rs if not r.get("limit_note")] or rs
        ke = max(rs, key=lambda r: r["step_max_KE_ratio"])
        s_step = min(rs, key=lambda r: r["step_E_slip"])
        s_lim = min(solved, key=lambda r: r["limit_E_slip"])
        g_lim = max(solved, key=lambda r: r["limit_max_energy_gain"])
        unsolved = [_where(r) for r in rs if r.get("limit_note")]
        found = []
        if ke["step_max_KE_ratio"] > 1 + ENERGY_MARGIN:
            found.append("kinetic gain")
        if min(s_step["step_E_slip"], s_lim["limit_E_slip"]) < -SLIP_MARGIN:
            found.append("slider creates energy")
        if g_lim["limit_max_energy_gain"] > EXACT_ERROR:
            found.append("spring gain")
        out.append({"rule": name, "code": rs[0]["code"], "limit_law": rs[0]["limit_law"], "points": len(rs),
                    "max_KE_ratio": ke["step_max_KE_ratio"], "where_max_KE_ratio": _where(ke),
                    "min_step_E_slip": s_step["step_E_slip"], "where_min_step_E_slip": _where(s_step),
                    "min_limit_E_slip": s_lim["limit_E_slip"], "where_min_limit_E_slip": _where(s_lim),
                    "max_limit_energy_gain": g_lim["limit_max_energy_gain"],
                    "where_max_limit_energy_gain": _where(g_lim),
                    "limit_unsolved": len(unsolved), "where_limit_unsolved": " | ".join(unsolved),
                    "verdict": "; ".join(found) or "no energy gain"})
        if unsolved:
            out[-1]["verdict"] += f" (the exact limit not solved at {len(unsolved)} of {len(rs)} points)"
    return out


CERTIFICATE_COLUMNS = ("rule", "code", "limit_law", "points", "max_KE_ratio", "where_max_KE_ratio", "min_step_E_slip",
                       "where_min_step_E_slip", "min_limit_E_slip", "where_min_limit_E_slip",
                       "max_limit_energy_gain", "where_max_limit_energy_gain", "limit_unsolved",
                       "where_limit_unsolved", "verdict")


def plot(rows, path: str) -> str:
    """``E_slip`` of each rule's exact limit against ``theta``, one panel per ``mu`` (the
    standard ``e_n`` and ``k_t/k_n`` where the sweep has them, else its first values):
    where a curve goes below zero the slider creates energy; a cross on the zero line
    marks a point where the limit was not solved."""
    from ..plotting import figure, save

    mus = sorted({r["mu"] for r in rows})
    e_n = 0.9 if any(r["e_n"] == 0.9 for r in rows) else rows[0]["e_n"]
    ks = min({r["ks_ratio"] for r in rows}, key=lambda k: abs(k - 2 / 7))
    fig, axes = figure(1, len(mus), figsize=(4.2 * len(mus), 4.0), sharey=True)
    laws = list(dict.fromkeys(r["limit_law"] for r in rows))
    for ax, mu in zip(axes[0], mus):
        for i, law in enumerate(laws):
            rs = sorted({r["theta_deg"]: r for r in rows if r["limit_law"] == law and r["mu"] == mu
                         and r["e_n"] == e_n and r["ks_ratio"] == ks}.values(), key=lambda r: r["theta_deg"])
            ax.plot([r["theta_deg"] for r in rs], [r["limit_E_slip"] for r in rs], marker="osD^v"[i % 5],
                    ms=6 - i, ls=("-", "--", ":", "-.")[i % 4], color=f"C{i}", label=law)
            bad = [r["theta_deg"] for r in rs if r.get("limit_note")]
            ax.plot(bad, [0.0] * len(bad), ls="none", marker="x", ms=9, color=f"C{i}",
                    label=f"{law}: limit not solved" if bad else None)
        ax.axhline(0.0, color="0.5", lw=0.6)
        ax.set_title(f"mu = {mu:g}", fontsize=9)
        ax.set_xlabel("theta [deg]")
    axes[0][0].set_ylabel("E_slip of the exact limit / impact energy\n(< 0: the slider creates energy)", fontsize=8)
    handles = {}
    for ax in axes[0]:
        handles.update(zip(*reversed(ax.get_legend_handles_labels())))
    axes[0][0].legend(list(handles.values()), list(handles), fontsize=7)
    fig.suptitle(f"Slider dissipation along each rule's exact limit (e_n = {e_n:g}, k_t/k_n = {ks:.3g})", fontsize=9)
    fig.tight_layout()
    return save(fig, path)


PARAMS = ("theta_deg", "mu", "e_n", "ks_ratio")


def run(out_dir: str, progress=None, params=None, jobs=1) -> dict:
    """``nsfric run slip-rule-energy``: the sweep (its points on ``jobs`` local
    processes), the certificate and the figure in ``out_dir``.  ``params``: any of :data:`PARAMS` fixes that axis of the sweep to one
    value (ValueError out of range, before any work)."""
    from ..io import versions, write_csv_with_sidecar

    params = dict(params or {})
    sweep = {k: (float(v),) for k, v in params.items()}
    for point in sweep_points(sweep)[:1] + sweep_points(sweep)[-1:]:  # bad input fails before any work
        standard_impact(point["theta_deg"], mu=point["mu"], e_n=point["e_n"], ks_ratio=point["ks_ratio"])
    rows = energy_sweep(sweep=sweep, progress=progress, jobs=jobs)
    cert = certificate(rows)
    meta = {"study": "slip-rule-energy", "sweep": {**SWEEP, **sweep}, "divisions": list(DIVISIONS),
            "gauss": {"nodes": GAUSS_NODES, "pieces_per_smooth_piece": GAUSS_PIECES}, "versions": versions()}
    sweep_path = os.path.join(out_dir, "energy-sweep.csv")
    write_csv_with_sidecar(sweep_path, {c: [r[c] for r in rows] for c in COLUMNS}, meta)
    cert_path = os.path.join(out_dir, "energy-certificate.csv")
    write_csv_with_sidecar(cert_path, {c: [r[c] for r in cert] for c in CERTIFICATE_COLUMNS}, meta)
    png = plot(rows, os.path.join(out_dir, "energy-certificate.png"))
    summary = [f"{c['rule']:30s} {c['verdict']}: max KE ratio {c['max_KE_ratio']:.6f}, min E_slip step "
               f"{c['min_step_E_slip']:.2e} / limit {c['min_limit_E_slip']:.2e} ({c['where_min_limit_E_slip']})"
               for c in cert]
    return {"written": [sweep_path, os.path.splitext(sweep_path)[0] + ".json", cert_path,
                        os.path.splitext(cert_path)[0] + ".json", png], "summary": summary}


#: the study, registered through the entry-point group ``nsfric.studies``
STUDY = Study("slip-rule-energy", "nsfric.cases.slip_rule_energy:run",
              "the energy account of the production slip rules, exact limit and step, over a sweep of angle, mu, "
              "e_n and k_t/k_n, with a certificate per rule", params=PARAMS)
