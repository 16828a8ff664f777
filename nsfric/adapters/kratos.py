"""Kratos DEM in-process on the sphere-wall impact (case ``sphere-wall``).

The PyPI wheels ``KratosMultiphysics`` and ``KratosDEMApplication`` run Kratos DEM inside
Python: :func:`run_sphere_wall` writes the impact as Kratos input files (a sphere's
``.mdpa``, a rigid triangle ``RigidFace3D3N`` as the wall, ``Materials.json``) into a
temporary directory, runs a ``DEMAnalysisStage`` on them to the end of the contact and
returns the case's observables; :func:`runner` wraps it as the callable ``(dt, params)
-> observables`` that :func:`nsfric.verify` takes.  ``OMP_NUM_THREADS`` is set to 1 here
while Kratos is first imported, and Kratos's own thread count to 1 after (with its
default threads a 400-step run took 73 s, with one 0.3 s); the variable is then restored; Kratos is imported on first use only, its banner and log kept off the
terminal, and without it a one-line :class:`ImportError` names the extra ``pip install
"nsfric[kratos]"``.

What Kratos computes for a sphere against a rigid face with the constitutive law
``DEM_D_Linear_viscous_Coulomb`` (github.com/KratosMultiphysics/Kratos,
``applications/DEMApplication/custom_constitutive/DEM_D_Linear_viscous_Coulomb_CL.{h,cpp}``):

* stiffnesses (``InitializeContactWithFEM``): ``kn = E* pi 0.31225 R``, ``kt = 4 G* kn/E*``
  with ``1/E* = (1 - nu^2)/E + (1 - nu_w^2)/E_w`` and ``1/G* = (2 - nu)/G + (2 - nu_w)/G_w``;
  against a rigid wall (``E_w`` huge) ``kt/kn = 2 (1 - nu)/(2 - nu)``, so only ``ks_ratio``
  in ``(2/3, 4/3)`` (``nu`` in ``(-1, 1/2)``) is a Kratos material;
* damping (``CalculateViscoDampingForceWithFEM``): ``c_n = 2 DAMPING_GAMMA sqrt(m kn)``,
  ``c_t = 2 DAMPING_GAMMA sqrt(m kt)``: nsfric's ``gamma_n``, ``gamma_t`` (so ``gamma_t =
  gamma_n sqrt(ks_ratio)``).  Kratos sets ``DAMPING_GAMMA`` from
  ``COEFFICIENT_OF_RESTITUTION`` by bisection (``sphere_strategy.py``, to 1e-4); the
  adapter overwrites it with the exact value after the stage's initialisation;
* normal force ``kn xi - c_n v_n`` clamped at zero (``normal_contact_force < 0`` sets it
  to 0): the law ``linear-dashpot-force-end`` of the case;
* tangential force (``CalculateTangentialForceWithNeighbour``): the elastic force
  ``F_e -= kt dx_t`` (incremental), the dashpot ``F_v = -c_t v_t``; when ``|F_e + F_v|``
  exceeds ``mu F_n`` and ``|F_e|`` alone does too, ``F_e`` is scaled to ``mu F_n`` and
  ``F_v`` set to 0; when ``|F_e|`` alone does not, only ``F_v`` is scaled down and
  ``F_e`` keeps growing.  This is not the D-SDS (which ties the spring to the slider
  whenever the total force is capped): it is the cause of the offset :func:`runner`'s
  results show against the case's ``d-sds`` law (docs/validate-your-code.md).  The cap is
  ``F_n`` times Kratos's ``equiv_friction = DYNAMIC_FRICTION + (STATIC_FRICTION -
  DYNAMIC_FRICTION) exp(-FRICTION_DECAY |v_t|)`` of the step's tangential velocity:
  ``mu`` unless ``mu_s`` and ``friction_decay`` are given (:func:`to_kratos_friction`;
  the slip-rule zoo's ``kratos-linear-viscous-coulomb-muv`` is this step).

Time stepping: ``Symplectic_Euler`` (translation and rotation).  The sphere starts
touching the wall (zero overlap); the run stops at the first step with the sphere above
the wall again, traced back along the free flight to zero overlap, where the case
computes its observables (:meth:`~nsfric.cases.sphere_wall.SphereWall.impact_observables`).
"""
from __future__ import annotations

import contextlib
import json
import math
import os
import tempfile
import time

import numpy as np

from ..arguments import number, positive
from ..conventions import Convention
from ._runner import impact_runner, impact_setup

#: the case the adapter runs, and the case law Kratos's linear viscous Coulomb law discretises
CASE = "sphere-wall"
LAW = "d-sds/linear-dashpot-force-end"
#: Kratos constitutive law -> the case law it is measured against
STYLES = {"DEM_D_Linear_viscous_Coulomb": LAW}
#: Kratos's factor of the linear law's stiffness: ``kn = E* pi MODIFIED_RADIUS R``
MODIFIED_RADIUS = 0.31225
#: the wall's Young modulus: rigid (its compliance ``1/E_w`` below 1e-20 of the sphere's)
WALL_YOUNG = 1e30
#: Kratos DEM's ``DEM_D_Linear_viscous_Coulomb`` against a rigid face, as a convention of the
#: case (entry point ``nsfric.conventions``)
CONVENTION = Convention(
    name="kratos-linear-viscous-coulomb", case=CASE, params={"arm_overlap": 2.0}, laws=(LAW,),
    choices={"lever_arm": "R - delta", "coulomb_cap": "elastic force, then the total", "damping": "trimmed to the cap",
             "history_frame": "scalar along a fixed tangent (planar)", "contact_end": "zero normal force"},
    code="Kratos DEM DEM_D_Linear_viscous_Coulomb against a RigidFace3D3N (github.com/KratosMultiphysics/Kratos, "
         "applications/DEMApplication/custom_constitutive/DEM_D_Linear_viscous_Coulomb_CL.{h,cpp})",
    doc="Lever arm R - xi, the contact point on the wall's surface (arm_overlap = 2; measured: the gross-sliding "
        "psi_f converges to it at first order).  Normal force kn xi + c_n v clamped at zero: the contact ends "
        "where the repulsive force vanishes (law TANGENTIAL/linear-dashpot-force-end).  Tangential: an "
        "incremental elastic force and a dashpot c_t v_t, the total capped at mu F_n; the elastic part is "
        "reset to the cap only when it alone exceeds it, else the dashpot is scaled down: not the D-SDS, so "
        "a stick-slip impact converges to another limit (the d-sds law is the nearest nsfric has).  One "
        "DAMPING_GAMMA for both dashpots: gamma_t = gamma_n sqrt(ks_ratio) (translator: "
        "nsfric.adapters.kratos.from_kratos_linear).")
_INSTALL = 'Kratos DEM is not installed: pip install "nsfric[kratos]"'
_modules = None


@contextlib.contextmanager
def _quiet():
    """Kratos's banner and log (written by C++ to the file descriptors 1 and 2) into a
    temporary file; its last lines are returned on error."""
    log = tempfile.TemporaryFile(mode="w+b")
    saved = [os.dup(1), os.dup(2)]
    try:
        for fd in (1, 2):
            os.dup2(log.fileno(), fd)
        yield log
    finally:
        for fd, keep in zip((1, 2), saved):
            os.dup2(keep, fd)
            os.close(keep)


def _tail(log, n=5) -> str:
    log.seek(0)
    return " | ".join(log.read().decode(errors="replace").strip().splitlines()[-n:])


def _kratos():
    """``(KratosMultiphysics, DEMAnalysisStage)``, imported with ``OMP_NUM_THREADS=1``."""
    global _modules
    if _modules is None:
        before = os.environ.get("OMP_NUM_THREADS")
        os.environ["OMP_NUM_THREADS"] = "1"  # before the import: the OpenMP runtime reads it on loading
        try:
            with _quiet():
                import KratosMultiphysics as K
                from KratosMultiphysics.DEMApplication.DEM_analysis_stage import DEMAnalysisStage
                K.Logger.GetDefaultOutput().SetSeverity(K.Logger.Severity.WARNING)
                K.ParallelUtilities.SetNumThreads(1)
        except ImportError as exc:
            raise ImportError(f"{_INSTALL} ({exc})") from None
        finally:  # the process's environment as it was (child processes keep their threads)
            if before is None:
                os.environ.pop("OMP_NUM_THREADS", None)
            else:
                os.environ["OMP_NUM_THREADS"] = before
        _modules = (K, DEMAnalysisStage)
    return _modules


def available() -> str:
    """``""`` when Kratos DEM can run here, otherwise why not (one line)."""
    try:
        _kratos()
    except (ImportError, OSError) as exc:
        return str(exc).splitlines()[0]
    return ""


def from_kratos_linear(young, poisson, density, radius, damping_gamma, friction, wall_young=WALL_YOUNG,
                       wall_poisson=None) -> dict:
    """The case parameters of a Kratos sphere (``YOUNG_MODULUS``, ``POISSON_RATIO``,
    ``PARTICLE_DENSITY``, ``RADIUS``) against a wall (``YOUNG_MODULUS``, ``POISSON_RATIO``;
    default: rigid, the sphere's ratio) with ``DEM_D_Linear_viscous_Coulomb``,
    ``DAMPING_GAMMA`` and ``STATIC_FRICTION = DYNAMIC_FRICTION = friction`` (SI units).

    ``m = 4/3 pi R^3 density``, ``I = 2/5 m R^2``, ``k_n = E* pi 0.31225 R``, ``ks_ratio =
    4 G*/E*``, ``gamma_n = 2 DAMPING_GAMMA sqrt(m k_n)``, ``gamma_t = 2 DAMPING_GAMMA sqrt(m
    k_t)``, ``mu = friction`` (module docstring; the lever arm is left to the convention).

    Raises
    ------
    ValueError
        A value outside its range, naming it.
    """
    young, radius, density = positive(young, "young"), positive(radius, "radius"), positive(density, "density")
    poisson = number(poisson, "poisson", -1.0, 0.5)
    wall_young = positive(wall_young, "wall_young")
    wall_poisson = poisson if wall_poisson is None else number(wall_poisson, "wall_poisson", -1.0, 0.5)
    damping_gamma = number(damping_gamma, "damping_gamma", 0.0)
    friction = number(friction, "friction", 0.0)
    e_star = 1.0 / ((1 - poisson ** 2) / young + (1 - wall_poisson ** 2) / wall_young)
    shear, wall_shear = young / (2 * (1 + poisson)), wall_young / (2 * (1 + wall_poisson))
    g_star = 1.0 / ((2 - poisson) / shear + (2 - wall_poisson) / wall_shear)
    mass = 4.0 / 3.0 * math.pi * radius ** 3 * density
    k_n = e_star * math.pi * MODIFIED_RADIUS * radius
    ks_ratio = 4 * g_star / e_star
    return {"m": mass, "I": 0.4 * mass * radius ** 2, "R": radius, "k_n": k_n, "ks_ratio": ks_ratio,
            "gamma_n": 2 * damping_gamma * math.sqrt(mass * k_n),
            "gamma_t": 2 * damping_gamma * math.sqrt(mass * ks_ratio * k_n), "mu": friction}


def to_kratos_linear(values: dict) -> dict:
    """The Kratos material of bound case parameters ``values`` (the inverse of
    :func:`from_kratos_linear` against the rigid wall): ``young``, ``poisson``,
    ``density``, ``radius``, ``damping_gamma``, ``friction``.

    Raises
    ------
    ValueError
        For parameters no Kratos material has: ``I`` not ``2/5 m R^2``, ``ks_ratio``
        outside ``(2/3, 4/3)``, ``gamma_t`` not ``gamma_n sqrt(ks_ratio)``.
    """
    m, R, ks = values["m"], values["R"], values["ks_ratio"]
    check_sphere(values)
    if not 2 / 3 < ks < 4 / 3:
        raise ValueError(f"ks_ratio must be in (2/3, 4/3) for Kratos's linear law against a rigid wall "
                         f"(kt/kn = 2 (1 - nu)/(2 - nu), nu in (-1, 1/2)), got {ks:g}")
    gamma = values["gamma_n"] / (2 * math.sqrt(m * values["k_n"]))
    expect = values["gamma_n"] * math.sqrt(ks)
    if not math.isclose(values["gamma_t"], expect, rel_tol=1e-9):
        raise ValueError(f"gamma_t must be gamma_n sqrt(ks_ratio) = {expect:.10g} kg/s for Kratos's linear law "
                         f"(one DAMPING_GAMMA for both dashpots), got {values['gamma_t']:.10g}")
    poisson = (2 - 2 * ks) / (2 - ks)
    return sphere_material(values, values["k_n"] / (math.pi * MODIFIED_RADIUS * R), poisson, gamma)


#: the case parameters of Kratos's velocity-dependent friction beyond ``mu`` (the dynamic
#: coefficient), :func:`to_kratos_friction`
FRICTION_PARAMS = ("mu_s", "friction_decay")


def to_kratos_friction(values: dict) -> dict:
    """Kratos's friction variables (a ``Materials.json`` ``Variables`` block) of the case
    parameters ``values``: ``DYNAMIC_FRICTION = mu``, ``STATIC_FRICTION = mu_s`` (default
    ``mu``) and ``FRICTION_DECAY = friction_decay`` [s/m] (default 0), so that Kratos's
    ``equiv_friction`` is ``mu(|v_t|) = mu + (mu_s - mu) exp(-friction_decay |v_t|)``
    (:func:`nsfric.schemes.slip_rules.kratos_friction`).

    Raises
    ------
    ValueError
        A value negative or not finite, naming it (Kratos stops on a negative friction).
    """
    mu = number(values["mu"], "mu", 0.0)
    return {"STATIC_FRICTION": number(values.get("mu_s", mu), "mu_s", 0.0), "DYNAMIC_FRICTION": mu,
            "FRICTION_DECAY": number(values.get("friction_decay", 0.0), "friction_decay", 0.0)}


def from_kratos_friction(variables: dict) -> dict:
    """The case parameters ``mu``, ``mu_s``, ``friction_decay`` of Kratos's friction
    variables ``STATIC_FRICTION``, ``DYNAMIC_FRICTION``, ``FRICTION_DECAY`` (the inverse of
    :func:`to_kratos_friction`; a missing ``STATIC_FRICTION`` is the dynamic one, a
    missing ``FRICTION_DECAY`` 0).

    Raises
    ------
    ValueError
        ``DYNAMIC_FRICTION`` missing, or a value negative or not finite, naming it.
    """
    if "DYNAMIC_FRICTION" not in variables:
        raise ValueError(f"DYNAMIC_FRICTION is missing (Kratos's friction variables: STATIC_FRICTION, "
                         f"DYNAMIC_FRICTION, FRICTION_DECAY; got {sorted(variables)})")
    mu = number(variables["DYNAMIC_FRICTION"], "DYNAMIC_FRICTION", 0.0)
    return {"mu": mu, "mu_s": number(variables.get("STATIC_FRICTION", mu), "STATIC_FRICTION", 0.0),
            "friction_decay": number(variables.get("FRICTION_DECAY", 0.0), "FRICTION_DECAY", 0.0)}


def check_sphere(values: dict):
    """ValueError unless the bound parameters ``values`` are a Kratos sphere's: ``I = 2/5 m R^2``."""
    m, R = values["m"], values["R"]
    if not math.isclose(values["I"], 0.4 * m * R ** 2, rel_tol=1e-12):
        raise ValueError(f"I must be 2/5 m R^2 = {0.4 * m * R ** 2:.6g} kg m^2 for Kratos's sphere, got {values['I']:.6g}")


def sphere_material(values: dict, e_star: float, poisson: float, damping_gamma: float) -> dict:
    """The Kratos material of a sphere with the effective modulus ``e_star`` against the
    rigid wall (``1/E* = (1 - nu^2)/E + (1 - nu^2)/E_w``, solved for ``E``), Poisson's
    ratio ``poisson``, its mass and radius from ``values`` and ``DAMPING_GAMMA``."""
    m, R = values["m"], values["R"]
    young = (1 - poisson ** 2) / (1 / e_star - (1 - poisson ** 2) / WALL_YOUNG)
    return {"young": young, "poisson": poisson, "density": m / (4.0 / 3.0 * math.pi * R ** 3), "radius": R,
            "damping_gamma": damping_gamma, "friction": values["mu"]}


def _files(folder, material, L, law):
    """Write ``swDEM.mdpa`` (the sphere at the origin's height ``R``), ``swDEM_FEM_boundary.mdpa``
    (the wall: a rigid triangle in ``y = 0`` of side ``~3 L``) and ``Materials.json`` (the
    constitutive law ``law`` between them)."""
    R = material["radius"]
    friction = material.get("friction_variables") or to_kratos_friction({"mu": material["friction"]})
    relation = {"COEFFICIENT_OF_RESTITUTION": 0.5, **friction, "ROLLING_FRICTION": 0.0,
                "ROLLING_FRICTION_WITH_WALLS": 0.0, "DEM_DISCONTINUUM_CONSTITUTIVE_LAW_NAME": law}
    mats = {"materials": [
        {"material_name": "sphere", "material_id": 1, "Variables": {
            "PARTICLE_DENSITY": material["density"], "YOUNG_MODULUS": material["young"],
            "POISSON_RATIO": material["poisson"], **friction}},
        {"material_name": "wall", "material_id": 2, "Variables": {
            "YOUNG_MODULUS": WALL_YOUNG, "POISSON_RATIO": material["poisson"], "COMPUTE_WEAR": False, **friction}}],
        "material_relations": [
            {"material_names_list": ["sphere", "sphere"], "material_ids_list": [1, 1], "Variables": relation},
            {"material_names_list": ["sphere", "wall"], "material_ids_list": [1, 2], "Variables": relation}],
        "material_assignation_table": [["SpheresPart", "sphere"], ["RigidFacePart", "wall"]]}
    with open(os.path.join(folder, "Materials.json"), "w") as f:
        json.dump(mats, f)
    r = repr
    sphere = ["Begin ModelPartData", "End ModelPartData", "Begin Properties 1", "End Properties",
              "Begin Nodes", f"1 0.0 {r(R)} 0.0", "End Nodes", "Begin Elements SphericParticle3D", "1 1 1",
              "End Elements", "Begin NodalData RADIUS", f"1 0 {r(R)}", "End NodalData",
              "Begin SubModelPart Parts_sphere", "Begin SubModelPartNodes", "1", "End SubModelPartNodes",
              "Begin SubModelPartElements", "1", "End SubModelPartElements", "End SubModelPart"]
    data = {"LINEAR_VELOCITY [3]": "(0.0, 0.0, 0.0)", "VELOCITY_PERIOD": "0.0", "ANGULAR_VELOCITY [3]": "(0.0, 0.0, 0.0)",
            "ROTATION_CENTER [3]": "(0.0, 0.0, 0.0)", "ANGULAR_VELOCITY_PERIOD": "0.0", "VELOCITY_START_TIME": "0.0",
            "VELOCITY_STOP_TIME": "100.0", "ANGULAR_VELOCITY_START_TIME": "0.0", "ANGULAR_VELOCITY_STOP_TIME": "100.0",
            "FIXED_MESH_OPTION": "0", "RIGID_BODY_MOTION": "1", "FREE_BODY_MOTION": "0", "IS_GHOST": "0",
            "IDENTIFIER": "wall", "TOP": "0", "BOTTOM": "0", "FORCE_INTEGRATION_GROUP": "0"}
    wall = ["Begin ModelPartData", "End ModelPartData", "Begin Properties 2", "End Properties", "Begin Nodes",
            f"2 {r(-L)} 0.0 {r(-2 * L)}", f"3 {r(-L)} 0.0 {r(L)}", f"4 {r(2 * L)} 0.0 {r(L)}", "End Nodes",
            "Begin Conditions RigidFace3D3N", "2 2 2 3 4", "End Conditions", "Begin SubModelPart 1",
            "Begin SubModelPartData", *[f"{k} {v}" for k, v in data.items()], "End SubModelPartData",
            "Begin SubModelPartNodes", "2", "3", "4", "End SubModelPartNodes", "Begin SubModelPartConditions", "2",
            "End SubModelPartConditions", "End SubModelPart"]
    for name, lines in (("swDEM.mdpa", sphere), ("swDEM_FEM_boundary.mdpa", wall)):
        with open(os.path.join(folder, name), "w") as f:
            f.write("\n".join(lines) + "\n")


def _parameters(dt, final_time) -> dict:
    return {"Dimension": 3, "BoundingBoxOption": False, "GravityX": 0.0, "GravityY": 0.0, "GravityZ": 0.0,
            "RotationOption": True, "VirtualMassCoefficient": 1.0, "RollingFrictionOption": False,
            "GlobalDamping": 0.0, "ContactMeshOption": False, "ElementType": "SphericPartDEMElement3D",
            "TranslationalIntegrationScheme": "Symplectic_Euler", "RotationalIntegrationScheme": "Direct_Integration",
            "MaxTimeStep": float(dt), "FinalTime": float(final_time), "NeighbourSearchFrequency": 1,
            "do_print_results_option": False, "problem_name": "sw",
            "solver_settings": {"RemoveBallsInitiallyTouchingWalls": False, "strategy": "sphere_strategy",
                                "material_import_settings": {"materials_filename": "Materials.json"}}}


def run_sphere_wall(params: dict | None, dt: float, style: str = "DEM_D_Linear_viscous_Coulomb") -> dict:
    """The case's observables of one Kratos DEM run of the sphere-wall impact.

    Parameters
    ----------
    params : dict or None
        Case parameters of ``sphere-wall`` (unset ones take the case's defaults; an
        ``arm_overlap`` is ignored: the lever arm is Kratos's own).  They must be a Kratos
        material (:func:`to_kratos_linear`).  ``mu_s`` and ``friction_decay``
        (:data:`FRICTION_PARAMS`) give Kratos's velocity-dependent friction with ``mu`` the
        dynamic coefficient (:func:`to_kratos_friction`; default: constant ``mu``).
    dt : float
        Time step [s], > 0 and below the normal contact duration ``t_n``.
    style : str
        The Kratos constitutive law, one of :data:`STYLES`.

    Returns
    -------
    dict
        The case's observables after the contact (``psi_f``, ``e_n``, ``e_t``,
        ``omega_f``, ``t_n``, ``E_kin_before``, ``E_kin_after``), ``steps`` and the run's
        wall time ``seconds``.
    """
    params = dict(params or {})
    friction = {k: params.pop(k) for k in FRICTION_PARAMS if k in params}

    def material_of(values):
        return {**to_kratos_linear(values), "friction_variables": to_kratos_friction({**values, **friction})}
    return run_wall_impact(CASE, STYLES, style, dt, params, material_of)


def run_wall_impact(case_name: str, styles: dict, style: str, dt: float, params: dict | None, material_of) -> dict:
    """One Kratos DEM run of a sphere-wall impact of the case ``case_name`` (a sphere-wall
    geometry) with the constitutive law ``style`` (a key of ``styles``, the case law it is
    measured against its value); ``material_of(values)`` gives the Kratos material of the
    bound case parameters.  Returns :func:`run_sphere_wall`'s observables."""
    setup = impact_setup(case_name, styles, style, dt, params)
    case, values, dt, max_steps = setup.case, setup.values, setup.dt, setup.max_steps
    material = material_of(values)
    K, Stage = _kratos()
    R, vn = values["R"], values["v_n"]
    vx0 = values["psi_i"] * vn - R * values["omega_i"]
    record = {}

    class SphereWallStage(Stage):
        def GetMainPath(self):
            return folder

        def Initialize(self):
            super().Initialize()
            for node in self.spheres_model_part.Nodes:
                node.SetSolutionStepValue(K.VELOCITY, K.Array3([vx0, -vn, 0.0]))
                node.SetSolutionStepValue(K.ANGULAR_VELOCITY, K.Array3([0.0, 0.0, values["omega_i"]]))
            for props in self.spheres_model_part.Properties:  # the exact damping ratio, not the bisection's
                for sub in props.GetSubProperties():
                    sub.SetValue(DEM_DAMPING_GAMMA, material["damping_gamma"])
            record["steps"] = 0

        def FinalizeSolutionStep(self):
            super().FinalizeSolutionStep()
            record["steps"] += 1
            (node,) = list(self.spheres_model_part.Nodes)
            y, v, w = node.Y, node.GetSolutionStepValue(K.VELOCITY), node.GetSolutionStepValue(K.ANGULAR_VELOCITY)
            record["state"] = (self.time, node.X, y, v[0], v[1], w[2], v[2], w[0], w[1])
            if y < R:
                record["touched"] = True
            elif record.get("touched"):
                record["apart"] = True

        def KeepAdvancingSolutionLoop(self):
            return super().KeepAdvancingSolutionLoop() and not record.get("apart")

    from KratosMultiphysics.DEMApplication import DAMPING_GAMMA as DEM_DAMPING_GAMMA

    start = time.perf_counter()
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="nsfric-kratos-") as folder, _quiet() as log:
        _files(folder, material, L=max(50 * R, 100 * vn * setup.t_n * (1 + abs(values["psi_i"]))), law=style)
        try:
            os.chdir(folder)  # Kratos writes its bookkeeping files beside its input
            SphereWallStage(K.Model(), K.Parameters(json.dumps(_parameters(dt, max_steps * dt)))).Run()
        except Exception as exc:
            raise RuntimeError(f"Kratos failed: {exc} ({_tail(log)})") from None
        finally:
            os.chdir(cwd)
    seconds = time.perf_counter() - start
    if not record.get("apart"):
        raise RuntimeError(f"Kratos: the contact did not end within {max_steps} steps of {dt:g} s")
    t, x, y, vx, vy, w, vz, wx, wy = record["state"]
    if max(abs(vz), abs(wx), abs(wy)) > 1e-9 * (vn + abs(w) * R):
        raise RuntimeError(f"Kratos: the motion left the plane (v_z = {vz:g}, omega_x = {wx:g}, omega_y = {wy:g})")
    s = (y - R) / vy  # free flight back to zero overlap
    names = ["x", "y", "vx", "vy", "omega"]
    out = case.impact_observables(values, np.array([x - s * vx, R, vx, vy, w]), names, t - s)
    out.update(steps=record["steps"], seconds=seconds)
    return out


def runner(style: str = "DEM_D_Linear_viscous_Coulomb"):
    """``(dt, params) -> observables``: :func:`run_sphere_wall` with ``style``, the callable
    :func:`nsfric.verify` takes."""
    return impact_runner(run_sphere_wall, style, STYLES, CASE)
