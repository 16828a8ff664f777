"""``nsfric run slip-rule-zoo``: the production DEM codes' tangential rules on one standard
sphere-wall impact, each as its code steps it and as its exact continuous limit.

The standard impact (:data:`STANDARD`): a sphere of radius ``R = 2.5 mm`` and density
``2700 kg/m^3`` (``m = 4/3 pi R^3 rho``, ``I = 2/5 m R^2``) hits a flat rigid wall at
``1 m/s``, ``theta`` from the normal, without spin; normal force ``max(k_n delta +
gamma_n d(delta)/dt, 0)`` with ``k_n = 2e7 N/m`` and ``gamma_n = 2 zeta sqrt(m k_n)``,
``zeta = -ln e_n/sqrt(pi^2 + ln^2 e_n)``, ``e_n = 0.9``; ``k_t = 2/7 k_n``, ``gamma_t =
gamma_n/2``, ``mu = 0.3``; lever arm ``R``.  It is the case ``sphere-wall`` with
``arm_overlap = 0`` and the normal law ``linear-dashpot-force-end``.  A rule with
parameters of its own (:attr:`~nsfric.schemes.slip_rules.SlipRule.params`: Kratos's
``mu(v)`` row, ``mu_s = 0.4`` and ``friction_decay = 3 s/m`` with ``mu`` the dynamic
coefficient) runs, and its limit is solved, with them (:func:`own_params`).

For every rule of :data:`~nsfric.schemes.slip_rules.SLIP_RULES` and angle: the exact
values of its continuous limit (the case law :attr:`SlipRule.limit`, solved by the
event-driven Filippov solver), the code's step on a ladder ``dt = t_n/N`` (``t_n =
pi sqrt(m/k_n)``; :func:`~nsfric.schemes.slip_rule_impact.run_impact`), the observed
order of its error against its own limit, the energy account (:func:`energy_verdict`:
the largest ``(E - E_0)/E_0`` of the mechanical energy along the exact limit and along
the finest step's run, the largest kinetic-energy ratio after/before of the ladder, and
the finest run's work of the elastic and damping parts and the slider's dissipation
``W_elastic``, ``W_damping``, ``E_slip`` in units of the impact energy, until the normal
force vanishes, and ``E_slip_after_force_end``; the same account along the exact limit,
``limit_W_elastic``, ``limit_E_slip``, :func:`~nsfric.cases.slip_rule_energy.exact_energy_account`),
and the offset of its limit from the D-SDS's (what a user who takes the code for
LAMMPS's model sees; ``nan`` for a rule on YADE's Hertz-Mindlin contact, whose row runs
the impact with the Hertz normal force and the Mindlin stiffness YADE derives from the
materials, :mod:`~nsfric.schemes.slip_rule_hertz`, and solves its limit on ``chung-ooi``,
:func:`limit_case`).  Observables: ``e_t = vx_f/vx_i`` (the centre's tangential
restitution), ``e_n``, ``beta = -v_t^f/v_t^i`` (the contact point's), ``omega_R_over_v``,
``KE_ratio``.

Writes ``zoo.csv`` (+ ``.json`` sidecar), ``shared-limits.csv`` (which rules share a
continuous model) and ``zoo.png`` (``e_t`` against ``theta`` and ``beta`` against
``psi = tan theta``, every rule in one panel each).
"""
from __future__ import annotations

import math
import os
from functools import partial

import numpy as np

from ..studies import Study

#: the standard impact (module docstring)
STANDARD = {"R": 2.5e-3, "rho": 2700.0, "k_n": 2e7, "e_n": 0.9, "ks_ratio": 2 / 7, "damping_ratio": 0.5,
            "mu": 0.3, "v": 1.0}
#: the angles of the default run [deg]
ANGLES = tuple(range(5, 90, 10))
#: the step ladder ``dt = t_n/N``
DIVISIONS = (100, 200, 400, 800, 1600, 3200)
#: the exact references' own error (numerically exact: below 1e-9)
EXACT_ERROR = 1e-9
#: an energy gain is flagged above this relative margin (round-off)
ENERGY_MARGIN = 1e-12
#: the slider's account is a first-order sum over the steps: flagged below -1e-6 of the
#: impact energy
SLIP_MARGIN = 1e-6
CASE_LAW = "{}/linear-dashpot-force-end"
#: the references' tolerances: at the case's defaults (``atol = 1e-15``) the Filippov
#: solution of ``sds-trim`` at 45 deg is off by 1.6e-8 in ``psi_f``; at these it agrees
#: with IDA's at the same tolerances to 1e-11 (``tests/test_slip_rules.py``)
TOLERANCES = {"rtol": 1e-13, "atol": 1e-17}


def standard_impact(theta_deg: float, **overrides) -> dict:
    """The parameters of :func:`~nsfric.schemes.slip_rule_impact.run_impact` for the
    standard impact at ``theta_deg``; ``overrides`` replace entries of :data:`STANDARD`
    (ValueError for an unknown name or a value out of range)."""
    unknown = sorted(set(overrides) - set(STANDARD))
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown} of the standard impact; allowed: {sorted(STANDARD)}")
    s = {**STANDARD, **{k: float(v) for k, v in overrides.items()}}
    for name in ("R", "rho", "k_n", "ks_ratio", "v"):
        if not (math.isfinite(s[name]) and s[name] > 0):
            raise ValueError(f"{name} must be > 0, got {s[name]!r}")
    if not 0 < s["e_n"] < 1:
        raise ValueError(f"e_n must be in (0, 1), got {s['e_n']!r}")
    for name in ("mu", "damping_ratio"):
        if not (math.isfinite(s[name]) and s[name] >= 0):
            raise ValueError(f"{name} must be >= 0, got {s[name]!r}")
    if not (math.isfinite(theta_deg) and 0 < theta_deg < 90):
        raise ValueError(f"theta_deg must be in (0, 90), got {theta_deg!r}")
    m = 4 / 3 * math.pi * s["R"] ** 3 * s["rho"]
    ln_e = math.log(s["e_n"])
    gamma_n = 2 * (-ln_e / math.sqrt(math.pi ** 2 + ln_e ** 2)) * math.sqrt(m * s["k_n"])
    return {"m": m, "I": 0.4 * m * s["R"] ** 2, "R": s["R"], "k_n": s["k_n"], "gamma_n": gamma_n,
            "k_t": s["ks_ratio"] * s["k_n"], "gamma_t": s["damping_ratio"] * gamma_n, "mu": s["mu"], "v": s["v"],
            "theta_deg": float(theta_deg)}


def contact_time(p: dict) -> float:
    """``t_n = pi sqrt(m/k_n)``, the ladder's unit."""
    return math.pi * math.sqrt(p["m"] / p["k_n"])


#: the limit laws with Kratos's velocity-dependent friction (parameters ``mu_s``,
#: ``friction_decay`` beside ``mu``)
MUV_LAWS = ("sds-trim-muv", "mindlin-rescale-force-trim-muv")


def case_params(law: str, p: dict) -> dict:
    """The ``sphere-wall`` parameters of the impact ``p`` for the tangential law ``law``
    (for :data:`MUV_LAWS` also ``mu_s``, ``friction_decay`` from ``p``, default a constant
    ``mu``)."""
    th = math.radians(p["theta_deg"])
    out = {"m": p["m"], "I": p["I"], "R": p["R"], "k_n": p["k_n"], "gamma_n": p["gamma_n"], "gamma_t": p["gamma_t"],
           "mu": p["mu"], "psi_i": math.tan(th), "v_n": p["v"] * math.cos(th), "omega_i": 0.0, "arm_overlap": 0.0}
    if law != "coulomb-viscous":
        out["ks_ratio"] = p["k_t"] / p["k_n"]
    if law in MUV_LAWS:  # Kratos's mu(v): mu the dynamic coefficient; without mu_s a constant mu
        out.update(mu_s=p.get("mu_s", p["mu"]), friction_decay=p.get("friction_decay", 0.0))
    return out


#: the limit laws of a Hertz-Mindlin contact (YADE's ``yade-hertz-mindlin``): laws of the
#: case ``chung-ooi`` with YADE's clamped Hertz normal force, :data:`HERTZ_CASE_LAW`
HERTZ_LAWS = ("mindlin-force-elastic-test", "mindlin-rescale-force-trim", "mindlin-rescale-force-trim-muv")
HERTZ_CASE_LAW = "{}/hertz-tsuji-force-end"
#: the reference solver of :data:`HERTZ_LAWS`: the event-driven Filippov loop, as for the
#: linear rows.  It agrees with IDA to 1e-11 in e_t, e_n, beta and omega R/v at 5, 20, 45
#: and 80 deg and at 45 deg, mu 0.6, e_n 0.99 (``tests/test_slip_rule_yade_hertz.py``), in
#: well under a second per impact once compiled.  It stalled where the elastic force, held
#: on the cap, falls with the normal force to the force end, until the derivation resolved
#: the kink of ``mu |F_n|`` that the contact mode's own sign fixes and stopped expanding the
#: overlap ``R - y`` into cancelling powers (:mod:`nsfric.symbolic.mode_fields`)
HERTZ_SOLVER = "filippov"
#: the laws of :data:`HERTZ_LAWS` solved otherwise: Kratos's Hertz limit, whose Filippov
#: solve finds no consistent mode where the trimmed total first meets the cap while
#: sticking (stick -> trim+ -> stick at t = 7.76e-6 s, 20 deg), by Assimulo's Radau5 DAE
#: (Radau5 and IDA agree to 6e-10: ``tests/test_slip_rule_kratos_hertz.py``)
HERTZ_SOLVER_OF = {"mindlin-rescale-force-trim": "radau5dae", "mindlin-rescale-force-trim-muv": "radau5dae"}


def limit_case(law: str, p: dict) -> tuple:
    """``(case, case law, case parameters, default solver)`` of the limit law ``law`` on
    the impact ``p``: ``sphere-wall`` with :data:`CASE_LAW` (:func:`case_params`) and the
    Filippov solver, or for :data:`HERTZ_LAWS` ``chung-ooi`` with :data:`HERTZ_CASE_LAW`,
    YADE's coefficients of the impact (:func:`~nsfric.schemes.slip_rule_hertz.limit_params`)
    and :data:`HERTZ_SOLVER` (:data:`HERTZ_SOLVER_OF` where it names the law)."""
    if law in HERTZ_LAWS:
        from ..schemes.slip_rule_hertz import limit_params

        params = limit_params(p)
        if law in MUV_LAWS:  # Kratos's mu(v) on its Hertz law: mu the dynamic coefficient
            params.update(mu_s=p.get("mu_s", p["mu"]), friction_decay=p.get("friction_decay", 0.0))
        return "chung-ooi", HERTZ_CASE_LAW.format(law), params, HERTZ_SOLVER_OF.get(law, HERTZ_SOLVER)
    return "sphere-wall", CASE_LAW.format(law), case_params(law, p), "filippov"


def mechanical_energy(sol, p: dict, Y, modes):
    """The mechanical energy of the impact ``p`` at the states ``Y`` (rows in the order of
    ``sol``'s states) in ``modes``: kinetic (translation and spin) and the energies the
    laws of ``sol``'s model declare -- the normal spring's ``E_el`` and the tangential
    spring's ``E_t`` (:data:`~nsfric.symbolic.laws.SPRING_OUTPUTS`; zero while the
    contact is open)."""
    s = dict(zip(sol.state_names, Y))
    kinetic = 0.5 * p["m"] * (s["vx"] ** 2 + s["vy"] ** 2) + 0.5 * p["I"] * s["omega"] ** 2
    return kinetic + sol.derived("E_el", y=Y, modes=modes) + sol.derived("E_t", y=Y, modes=modes)


def exact_limit(law: str, p: dict, solver: str | None = None, energy: bool = True, **options) -> dict:
    """The observables of the exact continuous law ``law`` (a tangential law of
    ``sphere-wall``) on the impact ``p``, and with ``energy`` the largest gain of the
    mechanical energy (kinetic, the laws' normal and tangential spring energies,
    :func:`mechanical_energy`) along the reference, relative to the initial energy; ``options`` go to the solver (over
    :data:`TOLERANCES`)."""
    from . import get_case

    name, case_law, params, default_solver = limit_case(law, p)
    solver = solver or default_solver
    sol = get_case(name).reference_solution(case_law, solver=solver, params=params,
                                            samples=4001 if energy else None, **{**TOLERANCES, **options})
    s = sol.summary
    if "psi_f" not in s:
        raise RuntimeError(f"{law} at theta = {p['theta_deg']:g}: the contact did not end ({solver})")
    th = math.radians(p["theta_deg"])
    vn, vx0 = p["v"] * math.cos(th), p["v"] * math.sin(th)
    vt = s["psi_f"] * vn
    out = {"e_t": (vt - p["R"] * s["omega_f"]) / vx0, "e_n": s["e_n"], "beta": -vt / vx0,
           "omega_R_over_v": s["omega_f"] * p["R"] / p["v"], "KE_ratio": s["E_kin_after"] / s["E_kin_before"]}
    if energy:
        E = mechanical_energy(sol, p, np.asarray(sol.y), sol.modes)
        E0 = 0.5 * p["m"] * p["v"] ** 2  # touching, spring relaxed
        out["max_energy_gain"] = float(max(np.max(E - E0) / E0, 0.0))
    return out


def step_ladder(rule: str, p: dict, divisions=DIVISIONS) -> dict:
    """The rule's step on the ladder ``t_n/N``: ``dts`` and the observables per step."""
    from ..schemes.slip_rule_impact import run_impact

    t_n = contact_time(p)
    return {"dts": [t_n / n for n in divisions], "runs": [run_impact(rule, p, t_n / n) for n in divisions]}


def energy_verdict(limit_gain: float, ke_ratios, slip_energy: float) -> str:
    """The findings of the energy account, ``"; "``-joined, or ``"dissipative"``:
    ``"kinetic gain"`` where a run of the step leaves with more kinetic energy than it
    came with; ``"slider creates energy"`` where the slider's account ``E_slip`` of the
    finest run or of the exact limit is negative (the spring's part of the force does more work on the sphere
    than the spring ever stored: the cap's reset put energy into it);
    ``"spring gain"`` where the exact limit's mechanical energy (with the spring's
    ``k_t xi^2/2``) rises above the impact energy (the D-SDS's reset at the contact's
    first instant, where the dashpot alone exceeds the cap)."""
    found = []
    if max(ke_ratios) > 1 + ENERGY_MARGIN:
        found.append("kinetic gain")
    if slip_energy < -SLIP_MARGIN:
        found.append("slider creates energy")
    if limit_gain > EXACT_ERROR:
        found.append("spring gain")
    return "; ".join(found) or "dissipative"


OBSERVABLES = ("e_t", "e_n", "beta", "omega_R_over_v", "KE_ratio")
COLUMNS = ("rule", "code", "limit_law", "theta_deg", *OBSERVABLES, "max_energy_gain", "step_e_t", "step_dt",
           "step_error_e_t", "order_of_step", "order_stderr", "order_note", "step_max_energy_gain",
           "step_max_KE_ratio", "W_elastic", "W_damping", "E_slip", "E_slip_after_force_end", "limit_W_elastic",
           "limit_E_slip", "offset_e_t_to_d_sds", "energy")


def own_params(rule, rule_overrides=None) -> dict:
    """The rule's own parameters (:attr:`~nsfric.schemes.slip_rules.SlipRule.params`: its
    row's values, ``rule_overrides`` replacing them where given; ValueError out of range)."""
    from ..schemes.slip_rule_impact import RULE_PARAMS

    unknown = sorted(set(rule_overrides or {}) - set(RULE_PARAMS))
    if unknown:
        raise ValueError(f"unknown rule parameter(s) {unknown}; allowed: {list(RULE_PARAMS)}")
    out = {k: float((rule_overrides or {}).get(k, v)) for k, v in rule.params.items()}
    for k, v in out.items():
        if not (math.isfinite(v) and v >= 0):
            raise ValueError(f"{k} must be finite and >= 0, got {v!r}")
    return out


def zoo(rules=None, angles=ANGLES, divisions=DIVISIONS, overrides=None, progress=None, rule_overrides=None,
        jobs=1) -> list:
    """One row per rule (default: those :attr:`~nsfric.schemes.slip_rules.SlipRule.in_default_run`)
    and angle (:data:`COLUMNS`; module docstring); each rule with its
    own parameters (:func:`own_params`: Kratos's ``mu_s``, ``friction_decay`` of the
    ``mu(v)`` row, ``rule_overrides`` replacing its values).  The angles are independent:
    ``jobs`` > 1 runs them on that many local processes (the same rows, bit for bit)."""
    from ..schemes.slip_rules import SLIP_RULES, get_slip_rule
    from ..study.execute import map_tasks

    rules = [get_slip_rule(r).name for r in (rules or [n for n, r in SLIP_RULES.items() if r.in_default_run])]
    divisions = sorted({int(n) for n in divisions})
    if len(divisions) < 3 or divisions[0] < 10:
        raise ValueError(f"divisions: give at least 3 different step counts >= 10, got {divisions}")
    own = {r: own_params(get_slip_rule(r), rule_overrides) for r in rules}
    limits = sorted({(get_slip_rule(r).limit, tuple(sorted(own[r].items()))) for r in rules} | {("d-sds", ())})
    angles = [float(theta) for theta in angles]
    done = (lambda k, n: progress(f"slip-rule-zoo: {k}/{n} angles")) if progress else None
    per_angle = map_tasks(partial(_angle_rows, rules=rules, divisions=divisions, overrides=overrides or {},
                                  own=own, limits=limits), angles, jobs=jobs, progress=done)
    return [row for rows in per_angle for row in rows]


def _angle_rows(theta: float, rules, divisions, overrides, own, limits) -> list:
    """The rows of :func:`zoo` at the angle ``theta`` [deg] (one task of its pool)."""
    from ..schemes.slip_rules import get_slip_rule
    from ..study.verify_limit import order_against
    from .slip_rule_energy import exact_energy_account

    p = standard_impact(theta, **overrides)
    exact = {}
    for law, extra in limits:
        q = {**p, **dict(extra)}
        exact[law, extra] = {**exact_limit(law, q),
                             **{f"limit_{k}": v for k, v in exact_energy_account(law, q).items()}}
    rows = []
    for name in rules:
        rule = get_slip_rule(name)
        q = {**p, **own[name]}
        ref, ladder = exact[rule.limit, tuple(sorted(own[name].items()))], step_ladder(name, q, divisions)
        e_t = np.array([r["e_t"] for r in ladder["runs"]])
        fit = order_against(ladder["dts"], e_t - ref["e_t"], EXACT_ERROR)
        ke = [r["KE_ratio"] for r in ladder["runs"]]
        rows.append({"rule": name, "code": rule.code, "limit_law": rule.limit, "theta_deg": theta,
                     **{k: ref[k] for k in OBSERVABLES}, "max_energy_gain": ref["max_energy_gain"],
                     "step_e_t": float(e_t[-1]), "step_dt": ladder["dts"][-1],
                     "step_error_e_t": float(e_t[-1] - ref["e_t"]),
                     "order_of_step": fit.order if fit.ok else math.nan,
                     "order_stderr": fit.stderr if fit.ok else math.nan, "order_note": fit.reason,
                     "step_max_energy_gain": ladder["runs"][-1]["max_energy_gain"], "step_max_KE_ratio": max(ke),
                     **{k: ladder["runs"][-1][k] for k in ("W_elastic", "W_damping", "E_slip",
                                                           "E_slip_after_force_end")},
                     "limit_W_elastic": ref["limit_W_elastic"], "limit_E_slip": ref["limit_E_slip"],
                     "offset_e_t_to_d_sds": ref["e_t"] - exact["d-sds", ()]["e_t"] if rule.contact == "linear"
                     else math.nan,  # a Hertz contact is no linear D-SDS's impact
                     "energy": energy_verdict(ref["max_energy_gain"], ke,
                                              min(ladder["runs"][-1]["E_slip"], ref["limit_E_slip"]))})
    return rows


def shared_limits(rules=None) -> list:
    """``[{"limit_law", "rules"}]``: the rules grouped by their continuous limit."""
    from ..schemes.slip_rules import SLIP_RULES

    groups = {}
    for name in rules or SLIP_RULES:
        groups.setdefault(SLIP_RULES[name].limit, []).append(name)
    return [{"limit_law": law, "rules": " ".join(names), "shared": len(names) > 1} for law, names in groups.items()]


def plot(rows, path: str) -> str:
    """``e_t`` against ``theta``, its difference from the D-SDS's (where the rules part:
    invisible on the first panel's scale) and ``beta`` against ``psi = tan theta``: the
    exact limits (lines, one per rule) and each code's step at the finest ``dt``
    (markers).  One legend below the panels."""
    from ..plotting import figure, save

    fig, axes = figure(1, 3, figsize=(14.0, 4.6))
    ax_e, ax_d, ax_b = axes[0]
    names = list(dict.fromkeys(r["rule"] for r in rows))
    ref = {r["theta_deg"]: r["e_t"] for r in rows if r["limit_law"] == "d-sds"}
    for i, name in enumerate(names):
        rs = sorted((r for r in rows if r["rule"] == name), key=lambda r: r["theta_deg"])
        th = np.array([r["theta_deg"] for r in rs])
        c, ls = f"C{i % 10}", ("-", "--", ":", "-.")[i % 4]
        label = f"{name} -> {rs[0]['limit_law']}"
        ax_e.plot(th, [r["e_t"] for r in rs], color=c, ls=ls, label=label)
        ax_e.plot(th, [r["step_e_t"] for r in rs], color=c, marker="o", ms=3, ls="none")
        if ref and rs[0]["limit_law"] != "coulomb-viscous" and np.isfinite(rs[0]["offset_e_t_to_d_sds"]):
            ax_d.plot(th, [r["e_t"] - ref.get(r["theta_deg"], np.nan) for r in rs], color=c, ls=ls)
            ax_d.plot(th, [r["step_e_t"] - ref.get(r["theta_deg"], np.nan) for r in rs], color=c, marker="o",
                      ms=3, ls="none")
        psi = np.tan(np.radians(th))
        ax_b.plot(psi, [r["beta"] for r in rs], color=c, ls=ls)
    ax_e.set_xlabel("theta [deg]")
    ax_e.set_ylabel("e_t = vx_f/vx_i\n(lines: exact limit; dots: the code's step, finest dt)", fontsize=7)
    ax_d.set_xlabel("theta [deg]")
    ax_d.set_ylabel("e_t - e_t of the D-SDS limit\n(not drawn: coulomb-viscous, far off; YADE's Hertz-Mindlin,\n"
                    "another contact, k_t/k_n 0.80)", fontsize=7)
    ax_d.axhline(0.0, color="0.6", lw=0.6)
    ax_b.set_xlabel("psi = tan theta")
    ax_b.set_xscale("log")
    ax_b.set_ylabel("beta = -v_t^f/v_t^i (exact limit)", fontsize=8)
    fig.legend(*ax_e.get_legend_handles_labels(), fontsize=7, loc="lower center", ncol=4, frameon=False)
    fig.suptitle("The slip-rule zoo: standard sphere-wall impact (nsfric run slip-rule-zoo)", fontsize=9)
    fig.tight_layout(rect=(0, 0.16, 1, 0.95))
    return save(fig, path)


PARAMS = ("theta_deg", "max_division", "mu", "mu_s", "friction_decay")


def run(out_dir: str, progress=None, params=None, jobs=1) -> dict:
    """``nsfric run slip-rule-zoo``: the zoo table, the shared-limit table and the figure
    in ``out_dir``, the angles on ``jobs`` local processes.  ``params``: ``theta_deg``
    (one angle instead of :data:`ANGLES`), ``max_division`` (the finest ``N`` of the ladder, default 3200, at least 400),
    ``mu`` (the dynamic coefficient of the ``mu(v)`` row), and ``mu_s``,
    ``friction_decay`` [s/m] (Kratos's ``mu(v)`` row only; default its own 0.4 and 3)."""
    from ..io import versions, write_csv_with_sidecar
    from ..schemes.slip_rules import SLIP_RULES

    params = dict(params or {})
    finest = float(params.get("max_division", DIVISIONS[-1]))
    divisions = [n for n in DIVISIONS if n <= finest]
    if len(divisions) < 3:
        raise ValueError(f"max_division must be >= {DIVISIONS[2]} (3 steps of the ladder {list(DIVISIONS)}), "
                         f"got {finest:g}")
    angles = (float(params["theta_deg"]),) if "theta_deg" in params else ANGLES
    for a in angles:
        if not (math.isfinite(a) and 0 < a < 90):
            raise ValueError(f"theta_deg must be in (0, 90), got {a:g}")
    overrides = {"mu": params["mu"]} if "mu" in params else {}
    rule_overrides = {k: float(params[k]) for k in ("mu_s", "friction_decay") if k in params}
    standard_impact(angles[0], **overrides)  # bad input fails before any work
    own = {n: own_params(r, rule_overrides) for n, r in SLIP_RULES.items()}
    rows = zoo(angles=angles, divisions=divisions, overrides=overrides, progress=progress,
               rule_overrides=rule_overrides, jobs=jobs)
    csv_path = os.path.join(out_dir, "zoo.csv")
    meta = {"study": "slip-rule-zoo", "standard_impact": {**STANDARD, **overrides}, "divisions": divisions,
            "angles": list(angles), "sources": {n: r.source for n, r in SLIP_RULES.items()},
            "integrators": {n: r.integrator for n, r in SLIP_RULES.items()},
            "rule_params": {n: v for n, v in own.items() if v}, "versions": versions()}
    write_csv_with_sidecar(csv_path, {c: [r[c] for r in rows] for c in COLUMNS}, meta)
    shared = shared_limits()
    shared_path = os.path.join(out_dir, "shared-limits.csv")
    write_csv_with_sidecar(shared_path, {c: [s[c] for s in shared] for c in ("limit_law", "rules", "shared")},
                           {"study": "slip-rule-zoo", "versions": versions()})
    png = plot(rows, os.path.join(out_dir, "zoo.png"))
    summary = [f"{r['rule']:30s} theta={r['theta_deg']:4g}  e_t {r['e_t']:+.6f} (limit {r['limit_law']}), "
               f"step order {r['order_of_step']:.2f}, {r['energy']}" for r in rows]
    summary += [f"shared limit {s['limit_law']}: {s['rules']}" for s in shared if s["shared"]]
    return {"written": [csv_path, os.path.splitext(csv_path)[0] + ".json", shared_path,
                        os.path.splitext(shared_path)[0] + ".json", png], "summary": summary}


#: the study, registered through the entry-point group ``nsfric.studies``
STUDY = Study("slip-rule-zoo", "nsfric.cases.slip_rule_zoo:run",
              "the production DEM codes' tangential rules on the standard sphere-wall impact: step, exact limit, "
              "order, energy", params=PARAMS)
