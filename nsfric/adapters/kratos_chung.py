"""Kratos DEM's Hertz law in-process on Chung & Ooi's sphere-wall tests (case ``chung-ooi``).

:func:`run_chung_ooi` runs the sphere against Kratos's rigid face (the input files and the
stage of :func:`nsfric.adapters.kratos.run_wall_impact`) with the constitutive law
``DEM_D_Hertz_viscous_Coulomb`` (github.com/KratosMultiphysics/Kratos,
``applications/DEMApplication/custom_constitutive/DEM_D_Hertz_viscous_Coulomb_CL.cpp``):

* stiffnesses (``InitializeContactWithFEM``): ``Kn = 2 E* sqrt(R delta)``, ``Kt = 4 G* Kn/E*
  = 8 G* a`` (``a = sqrt(R delta)``), with ``E*`` and ``G*`` as in the linear law; the
  normal force ``2/3 Kn delta = 4/3 E* sqrt(R) delta^(3/2)``: the case's ``k_n_tilde = 4/3
  E* sqrt(R)``, ``k_ta = 8 G*``;
* the elastic tangential force ``F_e -= Kt dx_t``, first multiplied by ``sqrt(delta/
  delta_old)`` = ``a/a_old`` where the overlap shrank (its ``minoring_factor``): LAMMPS's
  ``mindlin_rescale/force``, the law ``mindlin-rescale-force``;
* the cap: the linear law's four branches on ``F_e`` and the dashpot; without damping
  (the tests' elastic spheres: ``DAMPING_GAMMA = 0``) only ``|F_e| > mu F_n -> F_e``
  scaled to the cap remains, the law's reset.

So without damping Kratos's Hertz law is a discretisation of ``mindlin-rescale-force/hertz``
with the lever arm ``R - delta`` (the contact point on the wall's surface, as the linear
law's: ``arm_overlap = 2``; :data:`CONVENTION`).  Time stepping ``Symplectic_Euler``.
"""
from __future__ import annotations

import math

from ..conventions import Convention
from ._runner import impact_runner
from .kratos import available, check_sphere, run_wall_impact, sphere_material  # noqa: F401  (available: what nsfric verify --code asks)

#: the case the adapter runs
CASE = "chung-ooi"
#: Kratos constitutive law -> the case law it discretises (without damping)
STYLES = {"DEM_D_Hertz_viscous_Coulomb": "mindlin-rescale-force/hertz"}
#: Kratos DEM's ``DEM_D_Hertz_viscous_Coulomb`` against a rigid face, as a convention of the
#: case (entry point ``nsfric.conventions``)
CONVENTION = Convention(
    name="kratos-hertz-viscous-coulomb", case=CASE, params={"arm_overlap": 2.0, "gamma_t": 0.0},
    laws=("mindlin-rescale-force/hertz",),
    choices={"lever_arm": "R - delta", "coulomb_cap": "elastic force, then the total",
             "damping": "trimmed to the cap", "history_frame": "scalar along a fixed tangent (planar)",
             "contact_end": "zero overlap"},
    code="Kratos DEM DEM_D_Hertz_viscous_Coulomb against a RigidFace3D3N (github.com/KratosMultiphysics/Kratos, "
         "applications/DEMApplication/custom_constitutive/DEM_D_Hertz_viscous_Coulomb_CL.cpp, "
         "CalculateTangentialForceWithNeighbour)",
    doc="Hertz normal force 2/3 Kn delta (k_n_tilde = 4/3 E* sqrt(R)); tangential: the elastic force incremented "
        "by -Kt dx_t with Kt = 8 G* a, rescaled by sqrt(delta/delta_old) where the overlap shrank (LAMMPS's "
        "mindlin_rescale/force: law mindlin-rescale-force), capped at mu F_n (the linear law's four branches; "
        "without damping, gamma_t = 0, the elastic force is reset to the cap).  Lever arm R - delta "
        "(arm_overlap = 2).  Kratos clamps the normal force at zero; undamped, Hertz's force vanishes at zero "
        "overlap, so the contact ends there.  Translator: nsfric.adapters.kratos_chung.to_kratos_hertz.  Measured with the "
        "wheel: tests/test_verify_kratos_chung.py.")


def to_kratos_hertz(values: dict) -> dict:
    """The Kratos material of bound ``chung-ooi`` parameters ``values`` against the rigid
    wall: ``young``, ``poisson``, ``density``, ``radius``, ``damping_gamma`` (0),
    ``friction``.  ``k_ta/(k_n_tilde/(4/3 sqrt(R))) = 8 G*/E* = 4 (1 - nu)/(2 - nu)`` gives
    Poisson's ratio, ``E* = E/(1 - nu^2)`` the modulus.

    Raises
    ------
    ValueError
        For parameters no Kratos material has (``I`` not ``2/5 m R^2``, ``8 G*/E*``
        outside ``(4/3, 8/3)``) or that the adapter does not translate (``gamma_t`` not 0:
        Kratos's damping is one ``DAMPING_GAMMA`` on ``sqrt(m Kn)``, the case's a constant).
    """
    check_sphere(values)
    if values["gamma_t"] != 0:
        raise ValueError(f"gamma_t must be 0 for the adapter (Kratos's damping is not a constant), got {values['gamma_t']:g}")
    e_star = values["k_n_tilde"] / (4.0 / 3.0 * math.sqrt(values["R"]))
    ratio = values["k_ta"] / e_star  # 8 G*/E* = 4 (1 - nu)/(2 - nu)
    if not 4 / 3 < ratio < 8 / 3:
        raise ValueError(f"k_ta/E* must be in (4/3, 8/3) for Kratos's Hertz law against a rigid wall (8 G*/E* = "
                         f"4 (1 - nu)/(2 - nu), nu in (-1, 1/2)), got {ratio:g}")
    return sphere_material(values, e_star, (4 - 2 * ratio) / (4 - ratio), 0.0)


def kratos_material(p: dict) -> dict:
    """The Kratos material of the slip-rule zoo's Hertz contact of the impact ``p``
    (:func:`~nsfric.schemes.slip_rule_hertz.with_hertz`) against the rigid wall: its exact
    limit's ``chung-ooi`` parameters (:func:`~nsfric.schemes.slip_rule_hertz.limit_params`)
    through :func:`to_kratos_hertz`, with ``DAMPING_GAMMA = betan`` (ValueError where
    ``betas != betan``: Kratos has one ``DAMPING_GAMMA``)."""
    from ..schemes.slip_rule_hertz import limit_params, with_hertz

    q = with_hertz(p)
    if not math.isclose(q["betan"], q["betas"], rel_tol=1e-12):
        raise ValueError(f"betas must equal betan (Kratos's one DAMPING_GAMMA), got {q['betas']!r} and {q['betan']!r}")
    return {**to_kratos_hertz({**limit_params(p), "gamma_t": 0.0}), "damping_gamma": q["betan"]}


def run_chung_ooi(params: dict | None, dt: float, style: str = "DEM_D_Hertz_viscous_Coulomb") -> dict:
    """The case's observables of one Kratos DEM run of a ``chung-ooi`` point.

    Parameters
    ----------
    params : dict or None
        Case parameters of ``chung-ooi`` (a Kratos material, :func:`to_kratos_hertz`;
        ``arm_overlap`` is ignored: Kratos's own).
    dt : float
        Time step [s], > 0 and below the contact duration.
    style : str
        One of :data:`STYLES`.

    Returns
    -------
    dict
        The case's observables at the contact end, ``steps`` and the wall time ``seconds``.
    """
    return run_wall_impact(CASE, STYLES, style, dt, params, to_kratos_hertz)


def runner(style: str = "DEM_D_Hertz_viscous_Coulomb"):
    """``(dt, params) -> observables``: :func:`run_chung_ooi` with ``style``, the callable
    :func:`nsfric.verify` takes."""
    return impact_runner(run_chung_ooi, style, STYLES, CASE)


def run_zoo_hertz(p: dict, dt: float) -> dict:
    """One Kratos DEM run of the slip-rule zoo's Hertz impact ``p`` (the parameters of
    :func:`~nsfric.schemes.slip_rule_impact.run_impact`, with ``mu_s`` and ``friction_decay``
    for Kratos's ``mu(v)``) with ``DEM_D_Hertz_viscous_Coulomb`` *and its damping*: the
    Kratos material of the zoo's Hertz contact
    (:func:`kratos_material`, ``DAMPING_GAMMA`` the
    restitution's Thornton ratio, set exactly after the stage's initialisation), the
    friction variables of :func:`~nsfric.adapters.kratos.to_kratos_friction`; Kratos's own
    lever arm.  Returns :func:`run_chung_ooi`'s observables (the step
    ``kratos-hertz-viscous-coulomb`` with ``arm_overlap = 2`` and ``arm_rotation =
    "quaternion"`` takes the same steps)."""
    from ..schemes.slip_rule_hertz import limit_params
    from .kratos import to_kratos_friction

    material = {**kratos_material(p), "friction_variables": to_kratos_friction(p)}
    lp = limit_params(p)
    params = {k: lp[k] for k in ("m", "I", "R", "k_n_tilde", "k_ta", "mu", "psi_i", "v_n", "omega_i")}
    return run_wall_impact(CASE, STYLES, "DEM_D_Hertz_viscous_Coulomb", dt, params, lambda values: material)
