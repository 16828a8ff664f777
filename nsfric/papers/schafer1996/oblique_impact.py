"""Oblique impact of two cellulose-acetate spheres, Schäfer, Dippel & Wolf (1996) §3, eqs 13-24.

Two equal spheres (``R = 3 mm``, ``m = 1.48e-4 kg``, ``I = 2/5 m R^2``, eq 19) move in
the plane and rotate (:class:`~nsfric.symbolic.kinematics.PlanarDiscs`, full geometry:
overlap and normal from the centres, so the normal turns during the contact).  They
start touching (zero overlap) in the centre-of-mass frame with normal approach speed
``v_n`` and shear velocity ``v_s^i = psi_i v_n`` (parameter ``psi_i = tan(theta)``), spins
zero.  ``v_s`` is the paper's shear velocity of the contact points, surface velocities
``l_i omega_i`` included, with the lever arms ``l_i = R_i - arm_overlap xi/2`` of the
contact-point velocity and the torque: parameter ``arm_overlap`` in ``[0, 1]``, 1
(default) the common contact point midway through the overlap, 0 the radius, as LAMMPS's
``pair gran/*/history`` takes it (a convention of the code, not of the paper; presets in
:mod:`nsfric.papers.schafer1996.conventions`).

Laws: ``TANGENTIAL`` with the linear spring-dashpot normal force (eq 2, ``k_n = 7.32e6
N/m``, ``gamma_n = 2.06 kg/s``, contact ending at zero overlap), or ``TANGENTIAL/NORMAL``
with another of Schäfer's normal laws (e.g. ``cundall-strack/kuwabara-kono``, Figs 5-6).
The tangential laws and their parameters (``mu = 0.25`` unless varied):

* ``coulomb`` -- eq 13, ``F_s = -mu |F_n| sign(v_s)``; the rolling regime is solved
  exactly, as Filippov sticking at ``v_s = 0`` (the paper's time stepping makes ``F_s``
  jump sign there);
* ``viscous`` -- eq 14, ``gamma_s`` [kg/s]; ``coulomb-viscous`` -- eq 15;
* ``cundall-strack`` -- eqs 16-17 as written: ``zeta`` is the whole tangential
  displacement since the contact began, the force is cut off at ``mu |F_n|`` without
  resetting ``zeta``; ``k_s = ks_ratio k_n`` (with a nonlinear normal law: ``k_s``
  itself, default 9.43e4 N/m, eq 24);
* ``walton-braun-mindlin`` -- eqs 20-21, ``k_s^0 = ks0_ratio k_n``, ``F*`` set at each
  reversal of ``v_s``, instantaneous ``F_n``;
* ``saw-tooth`` -- eq 22, ``zeta_0 = 1e-8 m``; its jumps are events;
* ``d-sds``, ``c-sds`` -- Führer et al.'s spring-dashpot-sliders with the same ``k_s``,
  slider limit ``mu |F_n|`` and damping ``gamma_t`` (default ``2/7 gamma_n``: the normal
  oscillation's damping ratio, since the tangential mass of spheres is ``2/7 m_eff``).

The tangential laws see ``|F_n|`` (:func:`~nsfric.symbolic.tangential.with_normal_magnitude`),
as eqs 13, 15 and 16 write it: the dashpot pulls at the end of a contact that ends at
zero overlap.

Observables (:meth:`ObliqueImpact.observables`, in every reference's ``summary``), at the
contact end: ``psi_f = v_s^f/v_n^i`` -- Foerster et al.'s convention, which the paper's
``e_s = psi_f/psi_i`` needs (the paper prints ``psi_f = v_s^f/v_n^f``, reported as
``psi_f_over_vnf``) --, ``e_s = v_s^f/v_s^i``, the total restitution ``e`` (§3: the
square root of the ratio of final to initial kinetic plus rotational energy in the
centre-of-mass frame), ``e_n = v_n^f/v_n^i`` and the contact duration ``t_n``.  Figures
3-6 (and Fig 8, brake failure) are in :mod:`nsfric.papers.schafer1996.oblique_impact_figures`.
"""
from __future__ import annotations

import numpy as np
import sympy as sp

from nsfric.symbolic import laws as L
from nsfric.symbolic import normal as N
from nsfric.symbolic import tangential as T
from nsfric.symbolic.coupling import couple
from nsfric.symbolic.kinematics import PlanarDiscs
from nsfric.cases.base import Case, ComposedLaws, split_composed_law
from nsfric.papers.schafer1996.normal_impact import closed_form

REFERENCE = "Schäfer, Dippel & Wolf (1996) §3, eqs 13-24, Figs 3-6"
TANGENTIAL = ("coulomb", "viscous", "coulomb-viscous", "cundall-strack", "walton-braun-mindlin", "saw-tooth",
              "d-sds", "c-sds")
NORMAL = ("linear-dashpot", "hertz", "hertz-damped", "kuwabara-kono")
#: Hertz-Mindlin laws (stiffness ``k_ta a``, contact radius ``a = sqrt(R_eff xi)``,
#: :func:`~nsfric.symbolic.tangential.mindlin`): beyond the paper, with a Hertz-type
#: normal law only
HERTZ_MINDLIN = ("mindlin", "mindlin-force")
psi_i, v_n = sp.symbols("psi_i v_n", positive=True)
ks_ratio, k_s = sp.symbols("ks_ratio k_s", positive=True)
ks0_ratio = sp.Symbol("ks0_ratio", positive=True)
arm_overlap = sp.Symbol("arm_overlap", nonnegative=True)
torque_arm_shift = sp.Symbol("torque_arm_shift", real=True)
#: the lever arm ``l_i = R_i - arm_overlap xi/2`` of the contact-point velocity and the
#: torque: 1 (default) the common contact point, 0 the radius (a DEM code's convention,
#: e.g. :data:`nsfric.papers.schafer1996.conventions.LAMMPS_GRAN_HOOKE_HISTORY`)
ARM = L.P(arm_overlap, 1.0, 0, 1, doc="lever arm l_i = R_i - arm_overlap xi/2: 1 = contact point midway "
          "through the overlap, 0 = the radius R_i")
#: the torque's arm alone moved to ``R_i - (arm_overlap + torque_arm_shift) xi/2``: 0
#: (default) the same arm as the velocity's; LAMMPS's ``pair granular`` has ``arm_overlap
#: = 0``, ``torque_arm_shift = 1`` (preset ``lammps-granular-linear-history``)
TORQUE_ARM = L.P(torque_arm_shift, 0.0, -1, 1, doc="torque arm R_i - (arm_overlap + torque_arm_shift) xi/2: "
                 "0 = the velocity's arm")
KIN = PlanarDiscs()
#: the kinematics with the lever arm a parameter: the model of a run with
#: ``arm_overlap != 1`` (the default model keeps the arm ``R_i - xi/2`` literal, so its
#: generated code -- and every number of it -- is the one it was before the option)
KIN_ARM = PlanarDiscs(arm_overlap=arm_overlap, torque_arm_shift=torque_arm_shift)
#: initial overlap with a Hertz-type normal law [m] (``1e-12 m`` is covered in ``1e-12 s``
#: at 1 m/s, against contact times of ~5e-5 s)
XI0_HERTZ = 1e-12
MU = L.P(L.mu, 0.25, 0, doc="friction coefficient")
GAMMA_T = L.P(T.gamma_t, 2 / 7 * 2.06, 0, lo_open=True, doc="tangential damping of the SDS", unit="kg/s")


def split_law(law: str) -> tuple:
    """``(tangential, normal)`` of a case law ``T`` or ``T/N``; ValueError otherwise."""
    t, n = split_composed_law(law, "oblique-impact", TANGENTIAL + HERTZ_MINDLIN, NORMAL)
    if t in HERTZ_MINDLIN and n == "linear-dashpot":
        raise ValueError(f"law {law!r}: {t} takes its stiffness from the Hertz contact radius a = sqrt(R_eff xi); "
                         f"give {t}/NORMAL with NORMAL in {list(NORMAL[1:])}")
    return t, n


def tangential_law(name: str, normal: str):
    """The tangential law ``name`` as the case uses it with the normal law ``normal``."""
    if normal == "linear-dashpot":
        k, k_param = ks_ratio * L.k_n, L.P(ks_ratio, 2 / 7, 0, lo_open=True, doc="k_s/k_n")
    else:
        k, k_param = k_s, L.P(k_s, 9.43e4, 0, lo_open=True, doc="tangential stiffness (eq 24)", unit="N/m")
    bound = L.mu * L.F_N
    R_1, R_2 = sp.symbols("R_1 R_2", positive=True)  # PlanarDiscs' radii
    mindlin_params = (L.P(T.k_ta, 2.87e9, 0, lo_open=True, unit="N/m^2", doc="tangential stiffness per unit contact "
                          "radius (LAMMPS mindlin kt = 8 G_eff; 8 G_eff at k_n_tilde = 9e7 N/m^1.5, Poisson's ratio 0.3)"),
                      L.P(T.gamma_t, 0.0, 0, unit="kg/s", doc="tangential damping of the Hertz-Mindlin laws"), MU)
    build = {
        "coulomb": lambda: T.coulomb_static(params=(MU,)),
        "viscous": T.viscous,
        "coulomb-viscous": lambda: T.coulomb_viscous(params=(T.viscous().params[0], MU)),
        "cundall-strack": lambda: T.cundall_strack_cutoff(k, params=(k_param, MU)),
        "walton-braun-mindlin": lambda: T.walton_braun_mindlin(
            ks0_ratio * L.k_n, params=(L.P(ks0_ratio, 2 / 3, 0, lo_open=True, doc="k_s^0/k_n"), MU)),
        "saw-tooth": lambda: T.brilliantov_sawtooth(params=(L.P(T.zeta_0, 1e-8, 0, lo_open=True,
                                                                doc="saw-tooth period", unit="m"), MU)),
        "d-sds": lambda: T.spring_dashpot_slider("d-sds", k, T.gamma_t, bound, (k_param, GAMMA_T, MU)),
        "c-sds": lambda: T.c_sds(k, T.gamma_t, bound, (k_param, GAMMA_T, MU)),
        "mindlin": lambda: T.mindlin(R_1 * R_2 / (R_1 + R_2), mindlin_params),
        "mindlin-force": lambda: T.mindlin_force(R_1 * R_2 / (R_1 + R_2), mindlin_params),
    }
    return T.with_normal_magnitude(build[name]())


def build_model(law: str, arm: bool = False):
    """The coupled model of the case law ``law`` (PlanarDiscs x normal x tangential);
    ``arm``: with the lever arms the parameters ``arm_overlap`` and ``torque_arm_shift``
    (:data:`KIN_ARM`), else ``R_i - xi/2`` (the parameters declared but unused: they must
    then be 1 and 0)."""
    t, n = split_law(law)
    normal = L.get_law(n, "normal")
    extra = (L.P(psi_i, 1.0, 0, doc="psi_i = v_s^i/v_n^i = tan(theta)"),
             L.P(v_n, 1.0, 0, lo_open=True, doc="normal impact speed v_n^i", unit="m/s"), ARM, TORQUE_ARM)
    return couple(KIN_ARM if arm else KIN, normal=normal, tangential=tangential_law(t, n), name=f"oblique-impact/{law}",
                  params=extra, reference=f"{REFERENCE}; {normal.reference}")


class ObliqueImpact(ComposedLaws, Case):
    name = "oblique-impact"
    reference = REFERENCE
    laws = TANGENTIAL + ("cundall-strack/kuwabara-kono", "mindlin/hertz", "mindlin-force/hertz")
    default_law = "coulomb"
    t_end = 2e-5
    units = {q: "m" for q in ("x_1", "y_1", "x_2", "y_2", "xi", "zeta")}
    units.update({q: "m/s" for q in ("vx_1", "vy_1", "vx_2", "vy_2")})
    units.update({"omega_1": "1/s", "omega_2": "1/s", "F": "N", "F_n": "N", "t": "s", "F_s": "N",
                  "F_s_star": "N"})
    unit = "n.u."
    observable_names = ("psi_f", "psi_f_over_vnf", "e_s", "e", "e_n", "t_n")

    #: default options of a reference solver on a tangential law, where the solver's own
    #: defaults do not give the agreement of 1e-9 on ``psi_f`` and ``e``: IDA and
    #: Radau5DAE restart at every saw-tooth edge (~300-2600 of them, ``zeta_0 = 1e-8 m``)
    #: and leave ~1e-12 m/s per restart at ``rtol = 1e-12`` (IDA: 2e-9 in ``psi_f`` at
    #: ``psi_i = 1.5`` and 4e-9 at 3, against 2e-10 at ``rtol = 1e-13``); IDA on
    #: Walton-Braun-Mindlin differs from filippov by 6.3e-9 at ``psi_i = 1.5`` with its
    #: ``atol = 1e-13`` (6.5e-10 at 1e-15, 1.3e-10 at 1e-16); the D-SDS and C-SDS spring
    #: ``xi ~ 1e-7 m`` is resolved to 1e-7 of itself by the default ``atol = 1e-14``
    #: (filippov's C-SDS ``psi_f`` was 1.4e-7 off at ``psi_i = 3``): 1e-15 for both solvers
    solver_defaults = {("saw-tooth", "ida"): {"rtol": 1e-13}, ("saw-tooth", "radau5dae"): {"rtol": 1e-13},
                       ("walton-braun-mindlin", "ida"): {"atol": 1e-16},
                       **{(law, s): {"atol": 1e-15} for law in ("d-sds", "c-sds") for s in ("filippov", "ida")}}

    tangential_laws, normal_laws = TANGENTIAL + HERTZ_MINDLIN, NORMAL
    build_model = staticmethod(build_model)

    def split_law(self, law: str) -> tuple:
        """:func:`split_law` (the Hertz-Mindlin laws need a Hertz-type normal law)."""
        return split_law(law)

    def _problem(self, model, law, params, t_end):
        """:meth:`Case._problem` on the model with the lever arm a parameter where
        ``arm_overlap`` (any member of a batch) is not 1 (:meth:`arm_model`)."""
        arm = (params or {}).get("arm_overlap", 1.0)
        shift = (params or {}).get("torque_arm_shift", 0.0)
        if np.any(np.asarray(arm, dtype=float) != 1.0) or np.any(np.asarray(shift, dtype=float) != 0.0):
            self.bind(law, params)  # the range check first, naming the parameter
            model = self.arm_model(law)
        return super()._problem(model, law, params, t_end)

    def arm_model(self, law: str):
        """The model of ``law`` with the lever arm ``R_i - arm_overlap xi/2`` a parameter
        (:data:`KIN_ARM`), from the disk cache of derived numerics like
        :meth:`~nsfric.cases.base.Case.numeric_model`."""
        law = self.check_law(law)
        models = self.__dict__.setdefault("_arm_models", {})
        if law not in models:
            from functools import partial

            from nsfric.symbolic.numcache import class_files, numeric_model, own_case

            models[law] = numeric_model(self.name, f"{law}@arm_overlap", partial(build_model, law, True),
                                        class_files(type(self)), own=own_case(type(self)))
        return models[law]

    def y0(self, law, values) -> np.ndarray:
        """Touching in the centre-of-mass frame: relative velocity ``(-v_n, psi_i v_n)``
        of disc 2 against disc 1 along ``(n, t)``, spins zero.  The overlap starts at
        zero with the linear dashpot, at :data:`XI0_HERTZ` with the Hertz-type laws
        (their force rate ``~ xi^(-1/2)`` is singular at zero overlap, where every
        tangential surface ``|k zeta| = mu F_n`` would start on a corner)."""
        m1, m2 = values["m_1"], values["m_2"]
        M = m1 + m2
        vs = values["psi_i"] * values["v_n"]
        xi0 = 0.0 if split_law(self.check_law(law))[1] == "linear-dashpot" else XI0_HERTZ
        state = {"x_2": values["R_1"] + values["R_2"] - xi0, "vx_1": m2 / M * values["v_n"], "vx_2": -m1 / M * values["v_n"],
                 "vy_1": -m2 / M * vs, "vy_2": m1 / M * vs}
        return np.array([state.get(s, 0.0) for s in self.model(law).state_names])

    def contact_t_end(self, law: str, values: dict) -> float:
        """Default end time: twice the normal contact duration (eq 4 for the linear
        dashpot, eq 7 with its exact constant for the Hertz-type laws)."""
        n = split_law(law)[1]
        vals = {**values, "m_eff": values["m_1"] * values["m_2"] / (values["m_1"] + values["m_2"]),
                "v_i": values["v_n"]}
        if n == "linear-dashpot":
            return float(2 * closed_form("linear-dashpot t_n", vals))
        return float(2 * closed_form("hertz t_n", vals))

    def default_t_end(self, law: str, values: dict) -> float:
        return self.contact_t_end(law, values)

    # -- observables -------------------------------------------------------------------
    def observables(self, law: str, sol) -> dict:
        """``psi_f``, ``psi_f_over_vnf``, ``e_s``, ``e``, ``e_n``, ``t_n`` at the contact
        end (module docstring); ``{}`` where the contact did not end before the
        solution's end."""
        ends = [e for e in sol.events if e.kind == "contact-end"]
        if not ends:
            return {}
        return self.impact_observables(sol.params, np.asarray(ends[0].y), sol.model.state_names,
                                       ends[0].t - sol.t_span[0])

    @staticmethod
    def relative(values: dict, y, names) -> dict:
        """Normal and shear velocity (``v_n`` positive approaching) and the energy of the
        relative motion (centre-of-mass frame) at the state ``y``."""
        s = dict(zip(names, y))
        dx, dy = s["x_2"] - s["x_1"], s["y_2"] - s["y_1"]
        d = np.hypot(dx, dy)
        n, t = np.array([dx, dy]) / d, np.array([-dy, dx]) / d
        xi = values["R_1"] + values["R_2"] - d
        dv = np.array([s["vx_2"] - s["vx_1"], s["vy_2"] - s["vy_1"]])
        shift = values.get("arm_overlap", 1.0) * xi / 2
        l1, l2 = values["R_1"] - shift, values["R_2"] - shift
        m_eff = values["m_1"] * values["m_2"] / (values["m_1"] + values["m_2"])
        E = 0.5 * m_eff * dv @ dv + 0.5 * values["I_1"] * s["omega_1"] ** 2 + 0.5 * values["I_2"] * s["omega_2"] ** 2
        return {"v_n": float(-dv @ n), "v_s": float(dv @ t - l1 * s["omega_1"] - l2 * s["omega_2"]), "E": float(E)}

    def impact_observables(self, values, y_end, names, t_n) -> dict:
        """The observables from the state ``y_end`` at the contact end (the initial
        energy is ``m_eff (v_n^2 + v_s^2)/2``: the spins start at zero)."""
        v_i, vs_i = values["v_n"], values["psi_i"] * values["v_n"]
        m_eff = values["m_1"] * values["m_2"] / (values["m_1"] + values["m_2"])
        f = self.relative(values, y_end, names)
        return {"psi_f": f["v_s"] / v_i, "psi_f_over_vnf": f["v_s"] / -f["v_n"],
                "e_s": f["v_s"] / vs_i if vs_i else float("nan"),
                "e": float(np.sqrt(f["E"] / (0.5 * m_eff * (v_i ** 2 + vs_i ** 2)))),
                "e_n": -f["v_n"] / v_i, "t_n": float(t_n)}

    def run(self, out_dir: str, progress=None, params=None, jobs=1, cache_dir=None) -> dict:
        """Figures 3-6 and 8 with their CSVs and sidecars
        (:mod:`nsfric.papers.schafer1996.oblique_impact_figures`); ``params`` override the defaults.
        The impacts are parameter sweeps (:func:`nsfric.sweep`) on ``jobs`` local
        processes, their points cached in ``cache_dir`` (default: none)."""
        from nsfric.papers.schafer1996.oblique_impact_figures import write_all

        return {"written": write_all(self, out_dir, params or {}, progress, jobs=jobs, cache_dir=cache_dir)}
