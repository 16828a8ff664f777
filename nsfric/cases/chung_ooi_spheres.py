"""Chung & Ooi's tests T7 and T8: two spheres in contact (built-in case ``chung-ooi-spheres``).

The two-sphere tests of Chung & Ooi's benchmark (Granular Matter 13, 643-656, 2011), as
LIGGGHTS-PFM defines them (repository ``ParticulateFlow/LIGGGHTS-PFM``,
``examples/LIGGGHTS/PFM/tests/contact_models/chung/test07/in.impact_2_spheres`` and
``run.config`` at commits ``78d7a5f01cba312ee3c19517b12214e462b1c8eb`` and
``02bbd010ecf6d293ef17ae43fb5589ebbc86378e``; ``test08/in.impact_2_spheres`` and
``run.config`` at ``02bbd010ecf6d293ef17ae43fb5589ebbc86378e``); Kratos keeps the paper's
curves digitised (``KratosMultiphysics/Kratos``, ``applications/DEMApplication/tests/
DEM3D_chung_ooi_tests/paper_data_5_to_8/benchmark7_graph2.dat``, commit
``7d0df8ebbd8f6f20ce4642e2796a9b489a7243c1``: the rebound spin equals the initial one) but
no input for them.  A sibling of :mod:`nsfric.cases.chung_ooi` (whose one body on a wall,
:class:`~nsfric.cases.sphere_wall.SphereOnWall`, cannot carry two spins or a second
radius): the same laws on :class:`~nsfric.symbolic.kinematics.PlanarDiscs`, two spheres
(``I_i = 2/5 m_i R_i^2``) that translate and spin in the plane, the contact normal from
their centres (it turns as they slide past each other, as in a DEM code).

LIGGGHTS's 3D set-up maps onto the plane by ``(Y, Z, X) -> (x, y, z)``: its spheres on the
``Z`` axis spinning about ``X`` are the discs here on the ``y`` axis spinning about ``z``,
its ``vy`` and ``omegax`` are ``vx_i`` and ``omega_i``.  Sphere 1 sits above the contact
point (centre ``(0, R_1)``), sphere 2 below (``(0, -R_2)``), overlap :data:`XI0` at the
start; parameters ``v_1``, ``v_2`` (their speeds towards each other) and ``omega_1i``,
``omega_2i`` (their spins).

* **T7** -- two equal spheres (``R = 0.1 m``; Al alloy ``E = 7e10 Pa``, ``nu = 0.33``,
  ``rho = 2700``, and copper ``1.2e11``, ``0.35``, ``8900``), ``v_1 = v_2 = 0.2 m/s``,
  spins ``omega`` and ``-omega`` (``omega`` 0.175-21 rad/s, T6's list).  The two contact
  points then move together: the relative tangential velocity is zero throughout, no
  tangential force acts, and the spheres leave with the spins they came with and no
  tangential velocity -- exactly, by symmetry (:func:`t7_closed_form`), what the benchmark
  checks (a code that adds the surface velocities with the wrong sign sees a slip of
  ``2 R omega``).
* **T8** -- a sphere (``R_1 = 0.1 m``) on a larger one (``R_2 = 5 R_1``, density ``1000``
  times, so ``m_2 = 1.25e5 m_1``), same material (the paper's case B; Al alloy, and nylon
  ``2.5e9``, ``0.4``, ``1000``), ``v_1 = 0.2 m/s``, ``v_2 = 0``, sphere 1 spinning at
  ``omega`` (0.175-21 rad/s), sphere 2 at rest: the contact point slides at ``v_t^i = -R_1
  omega`` (the benchmark's "varying tangential velocities" as LIGGGHTS sets them).

``mu = 0.4``.  Each test elastic (``e = 1``: ``T7-elastic-*``, ``T8-elastic-*``, laws
``mindlin/hertz``, ``mindlin-force/hertz``) and with LIGGGHTS's damping for the
restitution coefficient the scripts put in (``coefficientRestitution 0.5``:
``T7-damped-*``, ``T8-damped-*``, law ``mindlin-elastic-test/hertz-tsuji``,
:func:`~nsfric.cases.chung_ooi.liggghts_damped` at ``m* = m_1 m_2/(m_1 + m_2)`` and ``R* =
R_1 R_2/(R_1 + R_2)``).  Contact parameters (:func:`pair_params`): ``k_n_tilde = 4/3 E*
sqrt(R*)``, ``k_ta = 8 G*`` with ``E* = E/(2 (1 - nu^2))``, ``G* = G/(2 (2 - nu))`` (two
spheres of one material); the Hertz-Mindlin contact radius ``a = sqrt(R* xi)``.  The lever
arm is the radius (``arm_overlap = 0``, ``l_i = R_i - arm_overlap xi/2``), as in
``chung-ooi`` and the tests' closed forms; ``torque_arm_shift`` moves the torque's arm alone
(1: LAMMPS's ``pair granular``, :class:`~nsfric.symbolic.kinematics.PlanarDiscs`).

Observables (:meth:`ChungOoiSpheres.observables`) at the contact end (zero overlap): the
relative normal restitution ``e_n``, ``psi_f = v_t^f/v_n^i`` and ``e_t = v_t^f/v_t^i`` of the
relative tangential velocity of the contact points (sphere 2's against sphere 1's, along
``t = e_z x n``; arms ``R_i`` at zero overlap), the rebound angle ``atan(v_t^f/v_n^f)`` in
degrees, sphere 1's rebound spin ``omega_f`` and tangential centre velocity ``vx_1f``
(what LIGGGHTS's T7 script prints), sphere 2's spin ``omega_2f``, the contact duration
``t_n`` and the kinetic energies.  Closed forms: :func:`t7_closed_form` and the impact that
slides throughout (:func:`gross_sliding`, rigid-body impulses along the initial normal: the
normal's turn during the contact, ``~1e-4`` rad in T8, is what it leaves out -- 1.4e-5 in
``psi_f``, 6.2e-5 in ``vx_1f`` at 21 rad/s, Al alloy; the exact ``e_n`` is 1 + 5.9e-5).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import sympy as sp

from nsfric.cases import chung_ooi as C
from nsfric.cases.base import Case, ComposedLaws, split_composed_law
from nsfric.symbolic import laws as L
from nsfric.symbolic.coupling import couple
from nsfric.symbolic.kinematics import PlanarDiscs

REFERENCE = ("Chung & Ooi (2011), Granular Matter 13:643-656, tests T7 and T8 (LIGGGHTS-PFM "
             "examples/LIGGGHTS/PFM/tests/contact_models/chung/test07, test08)")
LAWS = ("mindlin/hertz", "mindlin-force/hertz", "mindlin-elastic-test/hertz-tsuji")
#: initial overlap [m], as in ``chung-ooi``
XI0 = C.XI0
COPPER = C.Material("copper", 1.2e11, 0.35, 8900.0)
#: speeds towards each other and initial spins about z
v_1, v_2, omega_1i, omega_2i = sp.symbols("v_1 v_2 omega_1i omega_2i", real=True)
arm_overlap = sp.Symbol("arm_overlap", nonnegative=True)
torque_arm_shift = sp.Symbol("torque_arm_shift", real=True)
_M1, _M2, _I1, _I2, _R1, _R2 = sp.symbols("m_1 m_2 I_1 I_2 R_1 R_2", positive=True)  # PlanarDiscs' own


def pair_params(mat: C.Material, R_1: float, R_2: float, density_ratio: float = 1.0) -> dict:
    """Masses, inertias ``2/5 m_i R_i^2``, radii and contact constants ``k_n_tilde = 4/3 E*
    sqrt(R*)``, ``k_ta = 8 G*`` of two spheres of ``mat`` (``E* = E/(2 (1 - nu^2))``, ``G* =
    G/(2 (2 - nu))``, ``R* = R_1 R_2/(R_1 + R_2)``), sphere 2 ``density_ratio`` times denser."""
    for name, val in (("R_1", R_1), ("R_2", R_2), ("density_ratio", density_ratio)):
        if not (np.isfinite(val) and val > 0):
            raise ValueError(f"{name} must be finite and > 0, got {val!r}")
    m = [mat.rho * rho * 4 / 3 * np.pi * R ** 3 for R, rho in ((R_1, 1.0), (R_2, density_ratio))]
    E_eff, G_eff = C.moduli(mat, same_material=True)
    R_eff = R_1 * R_2 / (R_1 + R_2)
    return {"m_1": m[0], "m_2": m[1], "I_1": 0.4 * m[0] * R_1 ** 2, "I_2": 0.4 * m[1] * R_2 ** 2, "R_1": R_1,
            "R_2": R_2, "k_n_tilde": 4 / 3 * E_eff * np.sqrt(R_eff), "k_ta": 8 * G_eff}


def effective(values: dict) -> dict:
    """``m``, ``R`` (the reduced mass ``m*`` and radius ``R*``), ``k_n_tilde``, ``k_ta`` and
    the relative approach speed ``v_n = v_1 + v_2`` of bound parameters ``values``: what
    the one-body functions of :mod:`nsfric.cases.chung_ooi` read."""
    m = values["m_1"] * values["m_2"] / (values["m_1"] + values["m_2"])
    R = values["R_1"] * values["R_2"] / (values["R_1"] + values["R_2"])
    return {"m": m, "R": R, "k_n_tilde": values["k_n_tilde"], "k_ta": values["k_ta"],
            "v_n": values["v_1"] + values["v_2"]}


_OMEGA = C._OMEGA6
_LPFM = C._LPFM


def _tests() -> dict:
    out = {}
    for mat, tag in ((C.AL_ALLOY, "al-alloy"), (COPPER, "copper")):
        base = {**pair_params(mat, 0.1, 0.1), "mu": 0.4, "v_1": 0.2, "v_2": 0.2}
        for e, kind in ((1.0, "elastic"), (0.5, "damped")):
            damp = {} if e == 1 else C.liggghts_damped(e, effective(base))
            out[f"T7-{kind}-{tag}"] = C.Test(
                f"T7-{kind}-{tag}", f"T7 ({'e = 1' if e == 1 else 'e = 0.5, LIGGGHTS damping'}): two equal "
                f"{mat.name} spheres at 0.2 m/s each, spins omega and -omega", mat, {**base, **damp},
                {"omega_1i": _OMEGA, "omega_2i": -_OMEGA}, ("initial spin omega_i [1/s]", _OMEGA),
                _LPFM + "test07/in.impact_2_spheres", e)
    for mat, tag in ((C.AL_ALLOY, "al-alloy"), (C.NYLON, "nylon")):
        base = {**pair_params(mat, 0.1, 0.5, 1000.0), "mu": 0.4, "v_1": 0.2, "v_2": 0.0, "omega_2i": 0.0}
        for e, kind in ((1.0, "elastic"), (0.5, "damped")):
            damp = {} if e == 1 else C.liggghts_damped(e, effective(base))
            out[f"T8-{kind}-{tag}"] = C.Test(
                f"T8-{kind}-{tag}", f"T8 ({'e = 1' if e == 1 else 'e = 0.5, LIGGGHTS damping'}): {mat.name} "
                "sphere (R = 0.1 m, 0.2 m/s, spin omega) on a sphere of 5 R and 1000 times its density", mat,
                {**base, **damp}, {"omega_1i": _OMEGA},
                ("normalised incident angle R_1 omega_i/v_n", 0.1 * _OMEGA / 0.2),
                _LPFM + "test08/in.impact_2_spheres", e)
    return out


#: the test points, by name (:class:`~nsfric.cases.chung_ooi.Test`)
TESTS = _tests()
_DEFAULT = TESTS["T7-elastic-al-alloy"].params


def kinematics() -> PlanarDiscs:
    """Two spheres of T7 (Al alloy, ``R = 0.1 m``), lever arm ``R_i - arm_overlap xi/2`` (the
    torque's moved by ``torque_arm_shift xi/2``: LAMMPS's ``pair granular`` takes ``R_i`` for
    the contact-point velocity and ``R_i - xi/2`` for the torque)."""
    d = _DEFAULT
    docs = {"m": ("mass of sphere {i}", "kg"), "I": ("moment of inertia of sphere {i}", "kg m^2"),
            "R": ("radius of sphere {i}", "m")}
    params = tuple(L.P(sym, d[str(sym)], 0, lo_open=True, doc=docs[str(sym)[0]][0].format(i=str(sym)[-1]),
                       unit=docs[str(sym)[0]][1]) for sym in (_M1, _M2, _I1, _I2, _R1, _R2))
    arm = L.P(arm_overlap, 0.0, 0, 1, doc="lever arm l_i = R_i - arm_overlap xi/2 (0: the radius, as the tests' "
              "closed forms; 1: the common contact point)")
    torque = L.P(torque_arm_shift, 0.0, -1, 1, doc="torque arm R_i - (arm_overlap + torque_arm_shift) xi/2: 0 = the "
                 "velocity's arm; LAMMPS's pair granular: arm_overlap = 0, torque_arm_shift = 1")
    return PlanarDiscs(params=params + (arm, torque), arm_overlap=arm_overlap, torque_arm_shift=torque_arm_shift)


def split_law(law: str) -> tuple:
    """``(tangential, normal)`` of a case law ``T`` or ``T/N``; ValueError otherwise."""
    return split_composed_law(law, "chung-ooi-spheres", C.TANGENTIAL, C.NORMAL, default_normal="hertz")


def build_model(law: str):
    """The coupled model of ``law``: :class:`~nsfric.symbolic.kinematics.PlanarDiscs` x
    Hertz x tangential law on ``a = sqrt(R* xi)``."""
    t, n = split_law(law)
    extra = (L.P(v_1, 0.2, 0, doc="speed of sphere 1 towards sphere 2", unit="m/s"),
             L.P(v_2, 0.2, 0, doc="speed of sphere 2 towards sphere 1", unit="m/s"),
             L.P(omega_1i, 1.0, doc="initial spin of sphere 1 about z", unit="1/s"),
             L.P(omega_2i, -1.0, doc="initial spin of sphere 2 about z", unit="1/s"))
    normal = C.normal_law(n, _DEFAULT)
    tangential = C.tangential_law(t, _R1 * _R2 / (_R1 + _R2), _DEFAULT)
    return couple(kinematics(), normal=normal, tangential=tangential, name=f"chung-ooi-spheres/{law}",
                  params=extra, reference=f"{REFERENCE}; {normal.reference}")


def t7_closed_form(values: dict) -> dict:
    """T7 (equal radii, opposite spins): no slip, no tangential force, so the spins, the
    tangential velocities and ``psi_f`` keep their initial values (``omega_i``, 0, 0);
    elastic: Hertz's impact of ``m*`` at ``v_n`` (:func:`~nsfric.cases.chung_ooi.hertz_impact`)."""
    if values["R_1"] != values["R_2"] or values["omega_1i"] != -values["omega_2i"]:
        raise ValueError("t7_closed_form needs R_1 = R_2 and omega_2i = -omega_1i")
    return {"omega_f": values["omega_1i"], "omega_2f": values["omega_2i"], "vx_1f": 0.0, "psi_f": 0.0,
            "t_n": C.hertz_impact(effective(values))["t_n"]}


def initial_slip(values: dict) -> float:
    """The relative tangential velocity ``v_t^i = -(R_1 omega_1i + R_2 omega_2i)`` of the
    contact points at the start (the centres move along the normal only)."""
    return -(values["R_1"] * values["omega_1i"] + values["R_2"] * values["omega_2i"])


def gross_sliding(values: dict, e_n: float = 1.0) -> dict:
    """The impact that slides throughout, lever arms ``R_i``, rigid-body impulses along
    the initial normal: the normal impulse ``J = m* v_n (1 + e_n)``, the tangential one
    ``mu J`` on sphere 2 against the slip (on sphere 1 along it); sphere ``i``'s spin changes
    by ``-+mu J R_i/I_i`` (:class:`~nsfric.symbolic.kinematics.PlanarDiscs`: the torques
    ``-R_i F_t``), sphere 1's centre by ``mu J/m_1``, the slip by ``mu J (1/m* + R_1^2/I_1 +
    R_2^2/I_2)``."""
    eff = effective(values)
    J = values["mu"] * eff["m"] * eff["v_n"] * (1 + e_n) * np.sign(initial_slip(values))
    vt_f = initial_slip(values) - J * (1 / eff["m"] + values["R_1"] ** 2 / values["I_1"]
                                       + values["R_2"] ** 2 / values["I_2"])
    return {"vx_1f": J / values["m_1"], "omega_f": values["omega_1i"] + J * values["R_1"] / values["I_1"],
            "omega_2f": values["omega_2i"] + J * values["R_2"] / values["I_2"], "psi_f": vt_f / eff["v_n"],
            "rebound_angle": float(np.arctan2(vt_f, e_n * eff["v_n"]) / C.DEG)}


@dataclass
class _Relative:
    v_n: float
    v_t: float


def relative(values: dict, s: dict) -> _Relative:
    """The relative velocities of the contact points at the state ``s`` (by name): ``v_n``
    (positive approaching) and ``v_t`` along ``t = e_z x n``, with the arms ``R_i`` (the
    state at zero overlap)."""
    dx, dy = s["x_2"] - s["x_1"], s["y_2"] - s["y_1"]
    d = np.hypot(dx, dy)
    n, t = np.array([dx, dy]) / d, np.array([-dy, dx]) / d
    dv = np.array([s["vx_2"] - s["vx_1"], s["vy_2"] - s["vy_1"]])
    return _Relative(float(-dv @ n), float(dv @ t - values["R_1"] * s["omega_1"] - values["R_2"] * s["omega_2"]))


class ChungOoiSpheres(ComposedLaws, Case):
    name = "chung-ooi-spheres"
    reference = REFERENCE
    laws = LAWS
    default_law = "mindlin/hertz"
    default_normal = "hertz"
    t_end = 2e-3
    #: not in ``nsfric report`` unless named; its tests are written by ``nsfric run
    #: chung-ooi`` beside T1-T6, and by ``nsfric run chung-ooi-spheres`` alone
    in_report = False
    observable_names = ("psi_f", "e_n", "e_t", "omega_f", "omega_2f", "vx_1f", "rebound_angle", "t_n",
                        "E_kin_before", "E_kin_after")
    units = {q: "m" for q in ("x_1", "y_1", "x_2", "y_2", "xi", "zeta")}
    units.update({q: "m/s" for q in ("vx_1", "vy_1", "vx_2", "vy_2", "vx_1f")})
    units.update({"omega_1": "1/s", "omega_2": "1/s", "omega_f": "1/s", "omega_2f": "1/s", "F": "N", "F_n": "N",
                  "F_e": "N", "F_t_el": "N", "E_el": "J", "E_t": "J",
                  "t": "s", "t_n": "s", "E_kin_before": "J", "E_kin_after": "J", "rebound_angle": "deg"})
    unit = "n.u."
    solver_defaults = {(law, s): {"atol": 1e-15} for law in C.TANGENTIAL for s in ("filippov", "ida")}
    tangential_laws, normal_laws = C.TANGENTIAL, C.NORMAL
    build_model = staticmethod(build_model)

    def y0(self, law, values) -> np.ndarray:
        """Sphere 1 at ``(0, R_1)`` moving down at ``v_1``, sphere 2 at ``(0, XI0 - R_2)``
        moving up at ``v_2``, spins ``omega_1i``, ``omega_2i``."""
        state = {"y_1": values["R_1"], "y_2": XI0 - values["R_2"], "vy_1": -values["v_1"], "vy_2": values["v_2"],
                 "omega_1": values["omega_1i"], "omega_2": values["omega_2i"]}
        return np.array([state.get(s, 0.0) for s in self._model_at_hand(law).state_names])

    def bind(self, law=None, params=None) -> dict:
        """:meth:`Case.bind`, and the spheres must approach: ``v_1 + v_2 > 0``."""
        values = super().bind(law, params)
        approach = np.asarray(values["v_1"], dtype=float) + np.asarray(values["v_2"], dtype=float)
        if not np.all(approach > 0):
            raise ValueError(f"v_1 + v_2 must be > 0 (the spheres approach each other), got {float(approach.min())!r}")
        return values

    def contact_t_end(self, law: str, values: dict) -> float:
        """Twice Hertz's elastic contact duration of ``m*`` at ``v_1 + v_2``, four times
        with damping."""
        return (2 if split_law(law)[1] == "hertz" else 4) * C.hertz_impact(effective(values))["t_n"]

    def default_t_end(self, law: str, values: dict) -> float:
        return self.contact_t_end(law, values)

    @staticmethod
    def energy(values: dict, s: dict) -> float:
        """Kinetic energy, translation and rotation of both spheres, of the state ``s``."""
        return float(sum(0.5 * values[f"m_{i}"] * (s[f"vx_{i}"] ** 2 + s[f"vy_{i}"] ** 2)
                         + 0.5 * values[f"I_{i}"] * s[f"omega_{i}"] ** 2 for i in (1, 2)))

    def observables(self, law: str, sol) -> dict:
        """The observables at the contact end (module docstring); ``{}`` where the contact
        did not end before the solution's end."""
        ends = [e for e in sol.events if e.kind == "contact-end"]
        if not ends:
            return {}
        return self.impact_observables(sol.params, np.asarray(ends[0].y), sol.model.state_names,
                                       ends[0].t - sol.t_span[0] + XI0 / (sol.params["v_1"] + sol.params["v_2"]))

    def why_no_observables(self, law: str, sol) -> str:
        return "" if self.observables(law, sol) else "the contact did not end before t_end: give a larger t_end"

    def impact_observables(self, values, y_end, names, t_n) -> dict:
        """The observables from the state ``y_end`` at the contact end, ``t_n`` after the
        first touch."""
        s = dict(zip(names, (float(v) for v in y_end)))
        s0 = {"vx_1": 0.0, "vy_1": -values["v_1"], "omega_1": values["omega_1i"], "vx_2": 0.0, "vy_2": values["v_2"],
              "omega_2": values["omega_2i"]}
        vn, vt_i = values["v_1"] + values["v_2"], initial_slip(values)
        f = relative(values, s)
        out = {"psi_f": f.v_t / vn, "e_n": -f.v_n / vn, "omega_f": s["omega_1"], "omega_2f": s["omega_2"],
               "vx_1f": s["vx_1"], "rebound_angle": float(np.arctan2(f.v_t, -f.v_n) / C.DEG), "t_n": float(t_n),
               "E_kin_before": self.energy(values, s0), "E_kin_after": self.energy(values, s)}
        if vt_i:
            out["e_t"] = f.v_t / vt_i
        return out

    def run(self, out_dir: str, progress=None, params=None, jobs=1, cache_dir=None) -> dict:
        """T7 and T8's figures and CSVs (:func:`nsfric.cases.chung_ooi_figures.write_spheres`);
        ``params``: ``stride`` as ``nsfric run chung-ooi``."""
        from nsfric.cases.chung_ooi_figures import write_spheres

        return {"written": write_spheres(out_dir, params or {}, progress, jobs=jobs, cache_dir=cache_dir)}
