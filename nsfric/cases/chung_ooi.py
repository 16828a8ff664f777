"""Chung & Ooi's benchmark impacts with Hertz-Mindlin contact (built-in case ``chung-ooi``).

Not a paper of nsfric's four: the benchmark of Y. C. Chung and J. Y. Ooi, *Benchmark
tests for verifying discrete element modelling codes at particle impact level*, Granular
Matter 13, 643-656 (2011), as DEM codes define its tests T1-T8 in their test suites:
LIGGGHTS-PFM ``examples/LIGGGHTS/PFM/tests/contact_models/chung/test01`` ... ``test08``
(repository ``ParticulateFlow/LIGGGHTS-PFM``: input scripts ``in.*`` and ``run.config``)
and Kratos ``applications/DEMApplication/tests/DEM3D_chung_ooi_tests`` (repository
``KratosMultiphysics/Kratos``: ``test1_data`` ... ``test4_data`` with the paper's curves,
digitised, in ``paper_data``).  Built from the public API a plug-in uses, on the sphere on a
flat wall of :mod:`nsfric.cases.sphere_wall` (:class:`~nsfric.cases.sphere_wall.SphereOnWall`).

Laws ``TANGENTIAL/NORMAL``: Hertz's elastic normal force ``F_n = k_n_tilde xi^(3/2)``
(``hertz``, :func:`~nsfric.symbolic.normal.hertz`, ``k_n_tilde = 4/3 E* sqrt(R*)``), or
with the damping ``gamma_n_tsuji xi^(1/4) dxi/dt`` whose coefficient LIGGGHTS derives from
the restitution coefficient put in (``hertz-tsuji``, :func:`~nsfric.symbolic.normal.
hertz_tsuji`, :func:`liggghts_damping`; T3), and

* ``mindlin`` -- the Hertz-Mindlin no-slip spring ``k_t = 8 G* a``, ``a = sqrt(R* xi)``,
  on the tangential displacement, capped at ``mu F_n`` (:func:`~nsfric.symbolic.
  tangential.mindlin`: LIGGGHTS's ``tangential history``, LAMMPS's ``tangential
  mindlin``; ``k_ta = 8 G*``);
* ``mindlin-force`` -- the same stiffness on the force increment (:func:`~nsfric.symbolic.
  tangential.mindlin_force`: LIGGGHTS's ``tangential incremental_history``, LAMMPS's
  ``mindlin/force``);
* ``mindlin-elastic-test`` -- LIGGGHTS's ``tangential history`` with ``model hertz``'s
  tangential damping ``gamma_t_tsuji xi^(1/4) v`` (:func:`~nsfric.symbolic.slip_rule_laws.
  mindlin_elastic_test`: the Coulomb test on the elastic part, the damping dropped while
  capped; :func:`liggghts_tangential_damping`), with ``hertz-tsuji``: the damped T4 and T6;
* ``mindlin-force-elastic-test`` -- YADE's ``Law2_ScGeom_MindlinPhys_Mindlin``: the same
  test and damping on the elastic *force* integrated with the Mindlin stiffness
  (:func:`~nsfric.symbolic.slip_rule_laws.mindlin_force_elastic_test`), with
  ``hertz-tsuji-force-end`` (YADE's normal force, clamped at zero): the slip-rule zoo's
  row ``yade-hertz-mindlin`` (:mod:`nsfric.cases.slip_rule_zoo`);
* ``mindlin-rescale-force-trim`` (and ``-muv``) -- Kratos DEM's ``DEM_D_Hertz_viscous_Coulomb``
  with its damping: the elastic force of ``mindlin-rescale-force``, the damping ``gamma_t_tsuji
  xi^(1/4) v`` trimmed to the cap (:func:`~nsfric.symbolic.slip_rule_laws.
  mindlin_rescale_force_trim`), with ``hertz-tsuji-force-end``: the zoo's rows
  ``kratos-hertz-viscous-coulomb`` (``-muv``: Kratos's ``mu(v)``, parameters ``mu_s``,
  ``friction_decay``).

The normal tests (T1-T3, no tangential motion) run ``mindlin``; their definitions' ``mu =
0`` is left at the default (a zero cap would start the contact on the friction surface;
with ``v_t = 0`` the tangential force is zero whatever ``mu``).

The tests' materials give the case parameters through :func:`contact_params` (a rigid
plane: ``E* = E/(1 - nu^2)``, ``G* = G/(2 - nu)``; two equal spheres: half of each, and
``R* = R/2``, ``m* = m/2``).  :data:`TESTS` lists the test points: T1 (two equal spheres,
head-on: exactly the impact of one sphere of mass ``m*`` and radius ``R*`` on a wall), T2
(sphere on a plane), T3 (restitution of LIGGGHTS's damping, ``e`` put in 0.2-1), T4
(oblique, constant speed, incidence angles 5-85 degrees), T5 (constant normal, varied
tangential velocity), T6 (spin, no tangential velocity), each elastic (``e = 1``:
``T4-elastic``, ``T6-elastic``) and with LIGGGHTS's damping for the tests' restitution
(``T4-damped``: ``e = 0.98``, ``T6-damped``: ``e = 0.5``; :func:`liggghts_damped`, law
``mindlin-elastic-test/hertz-tsuji``).  T7 and T8, two spheres (spinning, of two sizes),
are the sibling case ``chung-ooi-spheres`` (:mod:`nsfric.cases.chung_ooi_spheres`: the same
laws on two spheres, :class:`~nsfric.symbolic.kinematics.PlanarDiscs`), written by ``nsfric
run chung-ooi`` beside the others; :data:`SKIPPED` (empty) would name a test not built.

The contact starts at the overlap :data:`XI0` (``a = 0`` at zero overlap makes every
tangential surface start on a corner, as in ``oblique-impact``); the time it takes to
reach it at ``v_n`` is added to the contact duration.  The lever arm is the radius
(``arm_overlap = 0``) by default, as the tests' closed forms take it.

Observables (:meth:`ChungOoi.observables`): those of ``sphere-wall`` and the benchmark's
``e_t_com = v_x^f/v_x^i`` (tangential restitution of the centre), the rebound angle of
the contact point ``atan(v_t^f/v_n^f)`` in degrees, the largest overlap and normal force.
Closed forms: Hertz's elastic impact (:func:`hertz_impact`) and the impact sliding
throughout (:func:`gross_sliding`).  ``nsfric run chung-ooi``:
:mod:`nsfric.cases.chung_ooi_figures`.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import sympy as sp

from nsfric.cases.base import split_composed_law
from nsfric.cases.sphere_wall import SphereOnWall, SphereWall, arm_overlap, omega_i, psi_i, v_n
from nsfric.symbolic import laws as L
from nsfric.symbolic import normal as N
from nsfric.symbolic import slip_rule_laws as SR
from nsfric.symbolic import tangential as T
from nsfric.symbolic.coupling import couple

REFERENCE = ("Chung & Ooi (2011), Granular Matter 13:643-656, tests T1-T6, T7-T8 in chung-ooi-spheres (LIGGGHTS-PFM "
             "examples/LIGGGHTS/PFM/tests/contact_models/chung; Kratos DEM3D_chung_ooi_tests)")
TANGENTIAL = ("mindlin", "mindlin-force", "mindlin-rescale", "mindlin-rescale-force", "mindlin-elastic-test",
              "mindlin-force-elastic-test", "mindlin-rescale-force-trim", "mindlin-rescale-force-trim-muv")
NORMAL = ("hertz", "hertz-tsuji", "hertz-tsuji-force-end")
#: initial overlap [m]: covered in ~1e-12 s against contact times of 1e-8 to 1e-3 s
XI0 = 1e-12
DEG = np.pi / 180


@dataclass(frozen=True)
class Material:
    """An isotropic elastic material: Young's modulus ``E`` [Pa], Poisson's ratio ``nu``,
    density ``rho`` [kg/m^3]."""

    name: str
    E: float
    nu: float
    rho: float


#: the tests' materials (LIGGGHTS-PFM ``chung/test0N/in.*``: their "ref. values")
GLASS = Material("glass", 4.8e10, 0.20, 2800.0)
LIMESTONE = Material("limestone", 2.0e10, 0.25, 2500.0)
AL_ALLOY_T2 = Material("Al alloy", 7.0e10, 0.30, 2699.0)
MG_ALLOY = Material("Mg alloy", 4.0e10, 0.35, 1800.0)
AL_OXIDE = Material("Al oxide", 3.8e11, 0.23, 4000.0)
CAST_IRON = Material("cast iron", 1.0e11, 0.25, 7000.0)
AL_ALLOY = Material("Al alloy", 7.0e10, 0.33, 2700.0)
STEEL = Material("steel", 2.08e11, 0.30, 7850.0)
POLYETHYLENE = Material("polyethylene", 1.0e9, 0.40, 1400.0)
NYLON = Material("nylon", 2.5e9, 0.40, 1000.0)
#: Thornton, Cummins & Cleary (2011), Powder Technol. 210:189 (LIGGGHTS-PFM ``thornton``)
THORNTON = Material("Thornton's", 7.0e10, 0.30, 2650.0)


def liggghts_damping(e: float, params: dict) -> float:
    """The coefficient ``gamma_n_tsuji`` of :func:`~nsfric.symbolic.normal.hertz_tsuji` that
    LIGGGHTS's ``model hertz`` takes for the restitution coefficient ``e`` (its damping
    ``-2 sqrt(5/6) beta sqrt(S_n m*)``, ``S_n = 2 E* sqrt(R* xi)``, ``beta = ln e/sqrt(ln^2 e
    + pi^2)``: LIGGGHTS-PUBLIC ``src/normal_model_hertz.h``), from the case parameters
    ``k_n_tilde = 4/3 E* sqrt(R*)`` and ``m``."""
    if not (0 < e <= 1):
        raise ValueError(f"e must be in (0, 1], got {e!r}")
    beta = np.log(e) / np.hypot(np.log(e), np.pi)
    return float(-2 * np.sqrt(5 / 6) * beta * np.sqrt(1.5 * params["k_n_tilde"] * params["m"]))


def liggghts_tangential_damping(e: float, params: dict) -> float:
    """The coefficient ``gamma_t_tsuji`` of :func:`~nsfric.symbolic.slip_rule_laws.
    mindlin_elastic_test` that LIGGGHTS's ``model hertz`` (``tangential_damping on``, its
    default) takes for the restitution coefficient ``e``: its ``gammat = -2 sqrt(5/6)
    beta sqrt(S_t m*)``, ``S_t = 8 G* sqrt(R* xi) = k_ta sqrt(R) xi^(1/2)`` (LIGGGHTS-PUBLIC
    ``src/normal_model_hertz.h``), from the case parameters ``k_ta``, ``R`` and ``m``."""
    if not (0 < e <= 1):
        raise ValueError(f"e must be in (0, 1], got {e!r}")
    beta = np.log(e) / np.hypot(np.log(e), np.pi)
    return float(-2 * np.sqrt(5 / 6) * beta * np.sqrt(params["k_ta"] * np.sqrt(params["R"]) * params["m"]))


def liggghts_damped(e: float, params: dict) -> dict:
    """The normal and tangential damping coefficients (``gamma_n_tsuji``,
    ``gamma_t_tsuji``) LIGGGHTS's ``model hertz`` takes for the restitution ``e``."""
    return {"gamma_n_tsuji": liggghts_damping(e, params), "gamma_t_tsuji": liggghts_tangential_damping(e, params)}


def moduli(mat: Material, same_material: bool = False) -> tuple:
    """``(E*, G*)`` of a body of ``mat`` against a rigid one (``E* = E/(1 - nu^2)``, ``G* =
    G/(2 - nu)``, ``G = E/(2 (1 + nu))``) or, ``same_material``, against a body of the same
    material (both halved)."""
    E_eff = mat.E / (1 - mat.nu ** 2)
    G_eff = mat.E / (2 * (1 + mat.nu)) / (2 - mat.nu)
    return (E_eff / 2, G_eff / 2) if same_material else (E_eff, G_eff)


def contact_params(mat: Material, R: float, partner: str = "rigid") -> dict:
    """The case parameters ``m, I, R, k_n_tilde, k_ta`` of a sphere of ``mat`` and radius
    ``R`` against ``partner``: ``"rigid"`` a rigid plane (``E* = E/(1 - nu^2)``, ``G* =
    G/(2 - nu)``), ``"wall"`` a plane of the same material (``E*``, ``G*`` halved), or
    ``"sphere"`` an equal sphere in a head-on impact (the relative motion: ``E*`` and ``G*``
    halved, ``m* = m/2``, ``R* = R/2``)."""
    if not (R > 0 and np.isfinite(R)):
        raise ValueError(f"R must be finite and > 0, got {R!r}")
    if partner not in ("rigid", "wall", "sphere"):
        raise ValueError(f"partner must be 'rigid', 'wall' or 'sphere', got {partner!r}")
    m = mat.rho * 4 / 3 * np.pi * R ** 3
    E_eff, G_eff = moduli(mat, same_material=partner != "rigid")
    inertia = 0.4 * m * R ** 2
    if partner == "sphere":
        m, R, inertia = m / 2, R / 2, inertia / 2
    return {"m": m, "I": inertia, "R": R, "k_n_tilde": 4 / 3 * E_eff * np.sqrt(R), "k_ta": 8 * G_eff}


@dataclass(frozen=True)
class Test:
    """One benchmark test: its points are ``params`` with the swept parameters ``sweep``
    (``{name: values}``, one point per value, all the same length) and the abscissa
    ``x`` (label, values) of its figure; ``e`` the restitution coefficient its damping
    was made for (:func:`liggghts_damped`; 1: elastic), the rigid-body closed form's."""

    name: str
    title: str
    material: Material
    params: dict
    sweep: dict
    x: tuple
    source: str
    e: float = 1.0


def _oblique(theta_deg, v):
    """``(psi_i, v_n)`` of an impact at speed ``v`` at ``theta_deg`` from the normal."""
    th = np.asarray(theta_deg, dtype=float) * DEG
    return np.tan(th), v * np.cos(th)


_THETA = np.arange(5.0, 86.0, 5.0)
_VT5 = np.array([0.1, 0.3, 0.45, 0.6, 0.9, 1.2, 1.5, 1.8, 2.25, 2.7, 3.0, 3.75, 4.5, 5.25, 6.0, 7.5, 9.0, 12.0,
                 15.0, 18.0, 21.0])
_OMEGA6 = np.array([0.175, 0.3, 0.42, 0.6, 0.8, 1.0, 1.2, 1.5, 2.0, 2.4, 2.8, 3.0, 3.5, 4.0, 6.0, 8.0, 10.0, 12.0,
                    14.0, 21.0])
_LPFM = "LIGGGHTS-PFM examples/LIGGGHTS/PFM/tests/contact_models/chung/"


def _tests() -> dict:
    out = {}
    for mat, tag in ((GLASS, "glass"), (LIMESTONE, "limestone")):
        out[f"T1-{tag}"] = Test(f"T1-{tag}", f"T1: elastic normal impact of two equal {mat.name} spheres", mat,
                                {**contact_params(mat, 0.01, "sphere"), "v_n": 20.0, "psi_i": 0.0,
                                 "mu": 0.35}, {}, ("", ()), _LPFM + "test01/in.elastic_normal_impact_2_spheres")
    for mat, tag in ((AL_ALLOY_T2, "al-alloy"), (MG_ALLOY, "mg-alloy")):
        out[f"T2-{tag}"] = Test(f"T2-{tag}", f"T2: elastic normal impact of a {mat.name} sphere on a plane", mat,
                                {**contact_params(mat, 0.1), "v_n": 0.2, "psi_i": 0.0}, {}, ("", ()),
                                _LPFM + "test02/in.elastic_normal_impact_sphere_plane")
    e_in = np.array([0.2, 0.4, 0.6, 0.8, 1.0])
    for mat, tag in ((AL_OXIDE, "al-oxide"), (CAST_IRON, "cast-iron")):
        base = contact_params(mat, 0.0025)
        out[f"T3-{tag}"] = Test(
            f"T3-{tag}", f"T3: {mat.name} sphere on a plane at 3.9 m/s, LIGGGHTS's Hertz damping", mat,
            {**base, "v_n": 3.9, "psi_i": 0.0},
            {"gamma_n_tsuji": np.array([liggghts_damping(e, base) for e in e_in])},
            ("restitution coefficient put in", e_in), _LPFM + "test03/in.inelastic_normal_impact_sphere_plane")
    for mat, tag in ((AL_OXIDE, "al-oxide"), (AL_ALLOY, "al-alloy")):
        psi, vn = _oblique(_THETA, 3.9)
        out[f"T4-elastic-{tag}"] = Test(
            f"T4-elastic-{tag}", f"T4 (e = 1): oblique impact of a {mat.name} sphere at 3.9 m/s", mat,
            {**contact_params(mat, 0.0025), "mu": 0.092}, {"psi_i": psi, "v_n": vn},
            ("incident angle [deg]", _THETA), _LPFM + "test04/in.oblique_impact_on_wall")
    for mat, tag in ((AL_OXIDE, "al-oxide"), (AL_ALLOY, "al-alloy")):
        psi, vn = _oblique(_THETA, 3.9)
        base = contact_params(mat, 0.0025)
        out[f"T4-damped-{tag}"] = Test(
            f"T4-damped-{tag}", f"T4 (e = 0.98, LIGGGHTS's damping): oblique impact of a {mat.name} sphere at 3.9 m/s",
            mat, {**base, **liggghts_damped(0.98, base), "mu": 0.092}, {"psi_i": psi, "v_n": vn},
            ("incident angle [deg]", _THETA), _LPFM + "test04/in.oblique_impact_on_wall", 0.98)
    for mat, tag in ((STEEL, "steel"), (POLYETHYLENE, "polyethylene")):
        out[f"T5-{tag}"] = Test(
            f"T5-{tag}", f"T5: {mat.name} sphere, v_n = 5 m/s, varied tangential velocity", mat,
            {**contact_params(mat, 1e-5), "mu": 0.3, "v_n": 5.0}, {"psi_i": _VT5 / 5.0},
            ("normalised incident angle v_t/(mu v_n)", _VT5 / (0.3 * 5.0)), _LPFM + "test05/in.oblique_impact_on_wall")
    for mat, tag in ((AL_ALLOY, "al-alloy"), (NYLON, "nylon")):
        out[f"T6-elastic-{tag}"] = Test(
            f"T6-elastic-{tag}", f"T6 (e = 1): {mat.name} sphere, v_n = 0.2 m/s, varied spin", mat,
            {**contact_params(mat, 0.1), "mu": 0.4, "v_n": 0.2}, {"omega_i": _OMEGA6, "psi_i": 0.1 * _OMEGA6 / 0.2},
            ("normalised incident angle R omega_i/v_n", 0.1 * _OMEGA6 / 0.2), _LPFM + "test06/in.impact_on_wall")
    for mat, tag in ((AL_ALLOY, "al-alloy"), (NYLON, "nylon")):
        base = contact_params(mat, 0.1)
        out[f"T6-damped-{tag}"] = Test(
            f"T6-damped-{tag}", f"T6 (e = 0.5, LIGGGHTS's damping): {mat.name} sphere, v_n = 0.2 m/s, varied spin",
            mat, {**base, **liggghts_damped(0.5, base), "mu": 0.4, "v_n": 0.2},
            {"omega_i": _OMEGA6, "psi_i": 0.1 * _OMEGA6 / 0.2},
            ("normalised incident angle R omega_i/v_n", 0.1 * _OMEGA6 / 0.2), _LPFM + "test06/in.impact_on_wall", 0.5)
    theta = np.array([1.0, 5, 10, 15, 20, 25, 30, 35, 40, 45])
    psi, vn = _oblique(theta, 5.0)
    out["Thornton"] = Test(
        "Thornton", "Thornton et al.: oblique elastic impact of a sphere on a wall of its material at 5 m/s",
        THORNTON, {**contact_params(THORNTON, 0.025, "wall"), "mu": 0.1}, {"psi_i": psi, "v_n": vn},
        ("normalised impact angle tan(theta)/mu", np.tan(theta * DEG) / 0.1),
        "LIGGGHTS-PFM examples/LIGGGHTS/PFM/tests/contact_models/thornton/in.oblique_impact_on_wall")
    return out


#: the test points, by name (:class:`Test`)
TESTS = _tests()
#: the tests not built, and why (none: T7 and T8 are :mod:`nsfric.cases.chung_ooi_spheres`)
SKIPPED: dict = {}


def points(test: Test) -> list:
    """The parameter dicts of the test's points (one per value of its sweep)."""
    n = max((len(v) for v in test.sweep.values()), default=1)
    return [{**test.params, **{k: float(v[i]) for k, v in test.sweep.items()}} for i in range(n)]


def split_law(law: str) -> tuple:
    """``(tangential, normal)`` of a case law ``T`` or ``T/hertz``; ValueError otherwise."""
    return split_composed_law(law, "chung-ooi", TANGENTIAL, NORMAL, default_normal="hertz")


_DEFAULT = contact_params(AL_OXIDE, 0.0025)
_R = sp.Symbol("R", positive=True)  # SphereOnWall's radius


def _kinematics() -> SphereOnWall:
    """The sphere of T4 (Al oxide, R = 2.5 mm) on the wall, lever arm ``R`` by default."""
    m, I, R = sp.symbols("m I R", positive=True)
    return SphereOnWall(params=(
        L.P(m, _DEFAULT["m"], 0, lo_open=True, doc="mass (two spheres: the reduced mass m*)", unit="kg"),
        L.P(I, _DEFAULT["I"], 0, lo_open=True, doc="moment of inertia", unit="kg m^2"),
        L.P(R, _DEFAULT["R"], 0, lo_open=True, doc="radius (two spheres: R*)", unit="m"),
        L.P(arm_overlap, 0.0, 0, 2, doc="lever arm l = R - arm_overlap xi/2 (0: the radius, as the tests' "
            "closed forms)")))


def normal_law(name: str = "hertz", defaults: dict = _DEFAULT):
    """Hertz's law (``hertz``, or ``hertz-tsuji`` with LIGGGHTS's damping form, or
    ``hertz-tsuji-force-end`` with YADE's: the force clamped at zero) with the stiffness
    ``defaults["k_n_tilde"]`` by default (T4's Al oxide sphere on a rigid plane)."""
    law = N.hertz() if name == "hertz" else N.hertz_tsuji("force" if name.endswith("force-end") else "overlap")
    k = L.P(N.k_n_tilde, defaults["k_n_tilde"], 0, lo_open=True, doc="Hertz stiffness 4/3 E* sqrt(R*)",
            unit="N m^-3/2")
    return replace(law, params=(k,) + tuple(p for p in law.params if p.symbol != N.k_n_tilde))


def tangential_law(name: str, radius=_R, defaults: dict = _DEFAULT):
    """The tangential law ``name`` with ``k_ta = 8 G*`` (default ``defaults["k_ta"]``,
    ``mu`` ``defaults["mu"]`` or 0.092) on the contact radius ``a = sqrt(radius xi)``
    (``radius``: the sphere's radius ``R`` by default, an expression of the effective
    radius for two spheres)."""
    mu = L.P(L.mu, defaults.get("mu", 0.092), 0, doc="friction coefficient")
    params = (L.P(T.k_ta, defaults["k_ta"], 0, lo_open=True, unit="N/m^2",
                  doc="tangential stiffness per unit contact radius 8 G*"),
              L.P(T.gamma_t, 0.0, 0, unit="kg/s", doc="tangential damping"), mu)
    liggghts = (params[0], L.P(SR.gamma_t_tsuji, 0.0, 0, unit="kg m^-1/4 s^-1",
                               doc="tangential damping coefficient of delta^(1/4) v (liggghts_tangential_damping)"),
                mu)
    build = {"mindlin": lambda: T.mindlin(radius, params), "mindlin-force": lambda: T.mindlin_force(radius, params),
             "mindlin-rescale": lambda: T.mindlin_rescale(radius, params),
             "mindlin-rescale-force": lambda: T.mindlin_rescale_force(radius, params),
             "mindlin-elastic-test": lambda: SR.mindlin_elastic_test(radius, liggghts),
             "mindlin-force-elastic-test": lambda: SR.mindlin_force_elastic_test(radius, liggghts),
             "mindlin-rescale-force-trim": lambda: SR.mindlin_rescale_force_trim(radius, liggghts),
             "mindlin-rescale-force-trim-muv": lambda: SR.mindlin_rescale_force_trim_muv(radius, liggghts + (
                 L.P(SR.mu_s, 0.4, 0, doc="static friction coefficient (Kratos's STATIC_FRICTION)"),
                 L.P(SR.friction_decay, 3.0, 0, doc="decay of mu with |v_t| (Kratos's FRICTION_DECAY)",
                     unit="s/m")))}
    return T.with_normal_magnitude(build[name]())


def build_model(law: str):
    """The coupled model of ``law``: :class:`~nsfric.cases.sphere_wall.SphereOnWall` x Hertz x tangential."""
    t, n = split_law(law)
    psi, vn = _oblique(45.0, 3.9)
    extra = (L.P(psi_i, float(psi), 0, doc="psi_i = v_t^i/v_n^i: initial tangential velocity of the contact point"),
             L.P(v_n, float(vn), 0, lo_open=True, doc="normal impact speed v_n^i", unit="m/s"),
             L.P(omega_i, 0.0, doc="initial spin about z (counter-clockwise positive)", unit="1/s"))
    normal = normal_law(n)
    return couple(_kinematics(), normal=normal, tangential=tangential_law(t), name=f"chung-ooi/{law}",
                  params=extra, reference=f"{REFERENCE}; {normal.reference}")


def hertz_impact(values: dict) -> dict:
    """Hertz's elastic impact of mass ``m`` at ``v_n``: contact duration ``t_n`` (the
    energy integral, :func:`~nsfric.symbolic.impact_laws.hertz_duration_exact`), largest
    overlap ``xi_max`` (``2/5 k_n_tilde xi_max^(5/2) = m v_n^2/2``) and force
    ``F_n_max = k_n_tilde xi_max^(3/2)``."""
    from nsfric.symbolic import impact_laws as IL

    k, m, v = values["k_n_tilde"], values["m"], values["v_n"]
    xi_max = (1.25 * m * v ** 2 / k) ** 0.4
    t_n = float(IL.hertz_duration_exact(sp.Float(v, 30), sp.Float(k, 30), sp.Float(m, 30)))
    return {"t_n": t_n, "xi_max": xi_max, "F_n_max": k * xi_max ** 1.5}


def gross_sliding(values: dict, e_n: float = 1.0) -> dict:
    """The impact that slides throughout, lever arm ``R``: the tangential impulse is
    ``mu`` times the normal one ``m v_n (1 + e_n)``, so ``v_x``, ``omega`` and the contact
    point's ``v_t`` change by ``-mu (1 + e_n) v_n`` times ``1``, ``m R/I`` and ``1 + m R^2/I``."""
    m, I, R, mu, vn = values["m"], values["I"], values["R"], values["mu"], values["v_n"]
    dv = mu * (1 + e_n) * vn * np.sign(values["psi_i"])
    vx_i = values["psi_i"] * vn - R * values["omega_i"]
    vt_f = values["psi_i"] * vn - dv * (1 + m * R ** 2 / I)
    return {"vx_f": vx_i - dv, "omega_f": values["omega_i"] - dv * m * R / I, "psi_f": vt_f / vn,
            "rebound_angle": float(np.arctan2(vt_f, e_n * vn) / DEG)}


class ChungOoi(SphereWall):
    name = "chung-ooi"
    reference = REFERENCE
    laws = ("mindlin/hertz", "mindlin-force/hertz", "mindlin/hertz-tsuji", "mindlin-elastic-test/hertz-tsuji")
    default_law = "mindlin/hertz"
    default_normal = "hertz"
    t_end = 2e-6
    #: not in ``nsfric report`` unless named: its run cross-checks every point by two
    #: solvers (~7 min of CPU, mostly IDA at sticks) and it states no paper claim
    in_report = False
    observable_names = SphereWall.observable_names + ("e_t_com", "rebound_angle", "xi_max", "F_n_max")
    units = {**SphereWall.units, "rebound_angle": "deg", "xi_max": "m", "F_n_max": "N"}
    solver_defaults = {(law, s): {"atol": 1e-15} for law in TANGENTIAL for s in ("filippov", "ida")}

    tangential_laws, normal_laws = TANGENTIAL, NORMAL
    build_model = staticmethod(build_model)

    def split_law(self, law: str) -> tuple:
        return split_law(law)

    def y0(self, law, values) -> np.ndarray:
        """:meth:`SphereWall.y0` at the overlap :data:`XI0`."""
        y = super().y0(law, values)
        y[list(self._model_at_hand(law).state_names).index("y")] -= XI0
        return y

    def contact_t_end(self, law: str, values: dict) -> float:
        """Twice Hertz's elastic contact duration (:func:`hertz_impact`), four times with
        damping."""
        return (2 if split_law(law)[1] == "hertz" else 4) * hertz_impact(values)["t_n"]

    def observables(self, law: str, sol) -> dict:
        """:meth:`SphereWall.observables` with ``t_n`` from zero overlap (``+ XI0/v_n``),
        and the largest overlap and normal force on the dense output."""
        out = super().observables(law, sol)
        if not out:
            return out
        out["t_n"] += XI0 / sol.params["v_n"]
        end = [e for e in sol.events if e.kind == "contact-end"][0].t
        t = np.linspace(sol.t_span[0], end, 2001)
        xi = sol.params["R"] - sol(t)[list(sol.model.state_names).index("y")]
        k = int(np.argmax(xi))
        t_max, out["xi_max"] = self._peak_overlap(sol, t[max(k - 1, 0)], t[min(k + 1, len(t) - 1)])
        if split_law(law)[1] == "hertz":  # elastic: the largest force at the largest overlap
            out["F_n_max"] = float(sol.derived("F_n", t=[t_max])[0])
        return out

    @staticmethod
    def _peak_overlap(sol, lo, hi) -> tuple:
        """``(t, overlap)`` of the largest overlap on ``[lo, hi]``: where ``vy`` changes
        sign, bisected."""
        names = list(sol.model.state_names)
        iy, ivy = names.index("y"), names.index("vy")
        for _ in range(100):
            mid = 0.5 * (lo + hi)
            if mid in (lo, hi):
                break
            lo, hi = (mid, hi) if sol(np.array([mid]))[ivy, 0] < 0 else (lo, mid)
        return lo, float(sol.params["R"] - sol(np.array([lo]))[iy, 0])

    def impact_observables(self, values, y_end, names, t_end) -> dict:
        """:meth:`SphereWall.impact_observables` with ``e_t_com`` and the rebound angle."""
        out = super().impact_observables(values, y_end, names, t_end)
        s = dict(zip(names, (float(v) for v in y_end)))
        vx_i = values["psi_i"] * values["v_n"] - values["R"] * values["omega_i"]
        if vx_i:
            out["e_t_com"] = s["vx"] / vx_i
        out["rebound_angle"] = float(np.arctan2(out["psi_f"] * values["v_n"], s["vy"]) / DEG)
        return out

    def run(self, out_dir: str, progress=None, params=None, jobs=1, cache_dir=None) -> dict:
        """The tests' figures and CSVs (:mod:`nsfric.cases.chung_ooi_figures`); ``params``:
        ``stride`` (every ``stride``-th point of each sweep, default 1)."""
        from nsfric.cases.chung_ooi_figures import write_all

        return {"written": write_all(self, out_dir, params or {}, progress, jobs=jobs, cache_dir=cache_dir)}
