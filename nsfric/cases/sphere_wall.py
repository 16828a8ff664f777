"""A sphere on a flat wall: oblique impact with spin (built-in case ``sphere-wall``).

Not a paper's case: the impact DEM codes run against a rigid wall (LAMMPS ``fix
wall/gran``, Kratos DEM's rigid faces), built here from the public API a plug-in uses
(:mod:`nsfric.symbolic`, :class:`~nsfric.cases.base.Case`).  A sphere of mass ``m``,
moment of inertia ``I`` and radius ``R`` moves in the plane ``(x, y)`` and spins about
``z`` (:class:`SphereOnWall`) above the wall ``y = 0``: overlap ``xi = R - y``, normal
``e_y`` fixed, so the normal motion is the normal impact of the reduced mass ``m`` and
does not feel the tangential force.  The contact point sits at the lever arm ``l = R -
arm_overlap xi/2`` below the centre (``arm_overlap = 1``, the default: midway through the
overlap; 0: the radius, as LAMMPS takes it; 2: the point on the wall's surface, ``R -
xi``, as Kratos DEM takes it -- a convention, :mod:`nsfric.conventions`): its tangential velocity is ``v_t = v_x + l omega``, the
tangential force ``F_t`` along ``x`` gives the torque ``l F_t``, so ``F_t`` does work
``F_t v_t`` whatever the arm.

The sphere starts touching (zero overlap) with normal speed ``v_n``, spin ``omega_i``
and contact-point tangential velocity ``v_t^i = psi_i v_n`` (its centre moves at
``v_x = psi_i v_n - R omega_i``).

Laws ``TANGENTIAL`` (the linear spring-dashpot normal force, ending at zero overlap) or
``TANGENTIAL/linear-dashpot-force-end`` (ending where the repulsive force vanishes, then
free flight to zero overlap: a normal force clamped at zero, as most DEM codes have it):

* ``coulomb`` -- ``F_t = -mu |F_n| sign(v_t)``, sticking solved exactly (Filippov);
* ``cundall-strack`` -- the Cundall-Strack spring ``k_t = ks_ratio k_n`` with the
  incremental dashpot ``gamma_t``, spring reset to the cut-off ``mu |F_n|``
  (:func:`~nsfric.symbolic.tangential.cundall_strack`);
* ``d-sds``, ``c-sds`` -- Führer et al.'s spring-dashpot-sliders, same ``k_t``,
  ``gamma_t`` and slider limit ``mu |F_n|``.

Observables (:meth:`SphereWall.observables`) after the contact: ``psi_f = v_t^f/v_n^i``,
``e_n = v_n^f/v_n^i``, the tangential restitution ``e_t = v_t^f/v_t^i``, the spin
``omega_f``, the contact duration ``t_n`` (first touch to zero overlap), the kinetic
energies (translation and rotation) ``E_kin_before``, ``E_kin_after``, and, where the
contact point's tangential velocity vanishes during the contact, the time ``t_vt0`` it
first does (:func:`first_vt_zero`): the stick event of Coulomb's law, the start of the
slip reversal of the spring laws -- a time any code's trajectory shows, whatever its
modes (``nsfric verify`` compares it).

Closed forms (:func:`normal_closed_form`, :func:`gross_sliding_psi_f`): ``e_n`` and
``t_n`` of the linear dashpot (Schäfer et al. eqs 3-4 with ``m_eff = m``,
:mod:`nsfric.symbolic.impact_laws`; for every tangential law, since the normal motion is
decoupled), and ``psi_f`` of an impact that slides throughout (large ``psi_i``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import sympy as sp

from nsfric.cases.base import Case, ComposedLaws, split_composed_law
from nsfric.symbolic import laws as L
from nsfric.symbolic import slip_rule_laws as Z
from nsfric.symbolic import tangential as T
from nsfric.symbolic.coupling import couple
from nsfric.symbolic.kinematics import Kinematics

REFERENCE = "built-in: sphere on a flat wall, oblique impact with spin (nsfric)"
TANGENTIAL = ("coulomb", "cundall-strack", "d-sds", "c-sds")
#: the continuous limits of the production codes' rules (the slip-rule zoo,
#: :mod:`nsfric.schemes.slip_rules`), same ``k_t``, ``gamma_t`` and bound ``mu |F_n|``
ZOO_TANGENTIAL = ("sds-elastic-test", "sds-trim", "sds-clip", "sds-trim-muv", "coulomb-viscous")
#: the parameters of ``sds-trim-muv``'s velocity-dependent friction ``mu(v) = mu + (mu_s -
#: mu) exp(-friction_decay |v_t|)`` (Kratos's ``STATIC_FRICTION``, ``FRICTION_DECAY``;
#: ``mu`` is the dynamic coefficient)
mu_s, friction_decay = sp.symbols("mu_s friction_decay", nonnegative=True)
NORMAL = ("linear-dashpot", "linear-dashpot-force-end")
psi_i, v_n, omega_i = sp.symbols("psi_i v_n omega_i", real=True)
ks_ratio = sp.Symbol("ks_ratio", positive=True)
arm_overlap = sp.Symbol("arm_overlap", nonnegative=True)
#: sphere defaults: cellulose acetate (Schäfer et al. §2), ``I = 2/5 m R^2``
MASS, RADIUS = 1.48e-4, 3e-3


@dataclass(frozen=True)
class SphereOnWall(Kinematics):
    """A sphere above the wall ``y = 0`` moving in ``(x, y)`` and spinning about ``z``.

    States ``x, y, vx, vy, omega``; parameters ``m, I, R`` and the lever-arm convention
    ``arm_overlap`` (module docstring).  ``v_t = vx + l omega`` with ``l = R -
    arm_overlap xi/2``; the tangential force ``F_t`` along ``x`` and the torque ``l F_t``.
    """

    params: tuple = ()

    def __post_init__(self):
        object.__setattr__(self, "_s", sp.symbols("x y vx vy omega", real=True))
        object.__setattr__(self, "_p", sp.symbols("m I R", positive=True))
        if not self.params:
            m, I, R = self._p
            object.__setattr__(self, "params", (
                L.P(m, MASS, 0, lo_open=True, doc="mass of the sphere (the reduced mass against the wall)",
                    unit="kg"),
                L.P(I, 0.4 * MASS * RADIUS ** 2, 0, lo_open=True, doc="moment of inertia", unit="kg m^2"),
                L.P(R, RADIUS, 0, lo_open=True, doc="radius", unit="m"),
                L.P(arm_overlap, 1.0, 0, 2, doc="lever arm l = R - arm_overlap xi/2: 1 = contact point midway "
                    "through the overlap, 0 = the radius R, 2 = the wall's surface R - xi")))

    @property
    def states(self):
        return self._s

    @property
    def sliding_state(self):
        """The state solved from ``v_t = 0`` in a sticking mode: ``omega``."""
        return self._s[4]

    def arm(self):
        """The lever arm ``l = R - arm_overlap xi/2``."""
        return self._p[2] - arm_overlap * self.overlap / 2

    @property
    def overlap(self):
        return self._p[2] - self._s[1]

    @property
    def overlap_rate(self):
        return -self._s[3]

    @property
    def tangential_velocity(self):
        return self._s[2] + self.arm() * self._s[4]

    def rates(self, F_t, F_n):
        x, y, vx, vy, w = self._s
        m, I, _ = self._p
        return {x: vx, y: vy, vx: F_t / m, vy: self.generalized(F_n, y) / m, w: self.arm() * F_t / I}


def _vt_function():
    """``v_t(x, y, vx, vy, omega, R, arm_overlap)``: the kinematics' contact-point velocity
    (:attr:`SphereOnWall.tangential_velocity`), lambdified once."""
    if _VT_FN:
        return _VT_FN[0]
    from nsfric.symbolic.codegen import generate

    kin = SphereOnWall()
    _VT_FN.append(generate(kin.tangential_velocity, (*kin.states, kin._p[2], arm_overlap), raw=True))
    return _VT_FN[0]


_VT_FN: list = []


def slip_velocity(values: dict, Y, names) -> np.ndarray:
    """The contact point's tangential velocity ``v_t`` of the states ``Y`` (rows named by
    ``names``, one column per time) at the parameters ``values``."""
    s = dict(zip(names, np.asarray(Y, dtype=float)))
    return np.asarray(_vt_function()(*(s[n] for n in ("x", "y", "vx", "vy", "omega")), values["R"],
                                     values["arm_overlap"]), dtype=float) * np.ones_like(s["vx"])


#: ``|v_t| <= VT0_RTOL |v_t^i|`` counts as ``v_t = 0`` in :func:`first_vt_zero` (a law that
#: sticks holds ``v_t`` at zero to rounding)
VT0_RTOL = 1e-12


def first_vt_zero(t, vt) -> float | None:
    """The first time ``v_t`` vanishes on the rows ``(t, vt)``: the first row where it
    has changed sign from the first row's or is zero (to :data:`VT0_RTOL` of it), the
    time interpolated linearly between it and the row before; ``None`` when it does not
    vanish (or ``v_t`` starts at zero: nothing to cross)."""
    vt = np.asarray(vt, dtype=float)
    if vt[0] == 0:
        return None
    hit = np.nonzero(np.sign(vt[0]) * vt <= VT0_RTOL * abs(vt[0]))[0]
    if not len(hit):
        return None
    k = int(hit[0])
    return float(t[k - 1] + vt[k - 1] / (vt[k - 1] - vt[k]) * (t[k] - t[k - 1]))


def split_law(law: str) -> tuple:
    """``(tangential, normal)`` of a case law ``T`` or ``T/N``; ValueError otherwise."""
    return split_composed_law(law, "sphere-wall", TANGENTIAL + ZOO_TANGENTIAL, NORMAL)


def tangential_law(name: str):
    """The tangential law ``name`` with ``k_t = ks_ratio k_n`` and the bound ``mu |F_n|``."""
    k = ks_ratio * L.k_n
    k_param = L.P(ks_ratio, 2 / 7, 0, lo_open=True, doc="k_t/k_n")
    mu = L.P(L.mu, 0.25, 0, doc="friction coefficient")
    gamma = L.P(T.gamma_t, 2 / 7 * 2.06, 0, lo_open=True, doc="tangential damping", unit="kg/s")
    build = {
        "coulomb": lambda: T.coulomb_static(params=(mu,)),
        "cundall-strack": lambda: T.cundall_strack(k, T.gamma_t, (k_param, gamma, mu)),
        "d-sds": lambda: T.spring_dashpot_slider("d-sds", k, T.gamma_t, L.mu * L.F_N, (k_param, gamma, mu)),
        "c-sds": lambda: T.c_sds(k, T.gamma_t, L.mu * L.F_N, (k_param, gamma, mu)),
        "sds-elastic-test": lambda: Z.sds_elastic_test(k, T.gamma_t, L.mu * L.F_N, (k_param, gamma, mu)),
        "sds-trim": lambda: Z.sds_trim(k, T.gamma_t, L.mu * L.F_N, (k_param, gamma, mu)),
        "sds-clip": lambda: Z.sds_clip(k, T.gamma_t, L.mu * L.F_N, (k_param, gamma, mu)),
        "sds-trim-muv": lambda: Z.sds_trim_muv(k, T.gamma_t, L.mu * L.F_N, mu_s * L.F_N, friction_decay, (
            k_param, gamma, L.P(L.mu, 0.25, 0, doc="dynamic friction coefficient (Kratos's DYNAMIC_FRICTION)"),
            L.P(mu_s, 0.4, 0, doc="static friction coefficient (Kratos's STATIC_FRICTION)"),
            L.P(friction_decay, 3.0, 0, doc="decay of mu with |v_t| (Kratos's FRICTION_DECAY)", unit="s/m"))),
        "coulomb-viscous": lambda: T.coulomb_viscous((gamma, mu), T.gamma_t, L.mu * L.F_N),
    }
    return T.with_normal_magnitude(build[name]())


def build_model(law: str):
    """The coupled model of the case law ``law``: :class:`SphereOnWall` x normal x tangential."""
    t, n = split_law(law)
    normal = L.get_law(n, "normal")
    extra = (L.P(psi_i, 1.0, 0, doc="psi_i = v_t^i/v_n^i: initial tangential velocity of the contact point"),
             L.P(v_n, 1.0, 0, lo_open=True, doc="normal impact speed v_n^i", unit="m/s"),
             L.P(omega_i, 0.0, doc="initial spin about z (counter-clockwise positive)", unit="1/s"))
    return couple(SphereOnWall(), normal=normal, tangential=tangential_law(t), name=f"sphere-wall/{law}",
                  params=extra, reference=f"{REFERENCE}; {normal.reference}")


def normal_closed_form(values: dict) -> dict:
    """``e_n`` and ``t_n`` of the linear dashpot with ``m_eff = m`` (Schäfer et al. eqs
    3-4, :mod:`nsfric.symbolic.impact_laws`): the contact ending at zero overlap."""
    from nsfric.symbolic import impact_laws as IL

    subs = {L.k_n: values["k_n"], L.gamma_n: values["gamma_n"], IL.m_eff: values["m"]}
    return {"e_n": float(IL.linear_dashpot_restitution().subs(subs)),
            "t_n": float(IL.linear_dashpot_duration().subs(subs))}


def _normal_motion(values: dict) -> tuple:
    """``(rate, t_star, t_n)`` of the linear dashpot's normal motion ``xi = v_n/w
    e^(-beta t) sin(w t)`` (``beta = gamma_n/(2 m)``, ``w^2 = k_n/m - beta^2``): the overlap
    rate ``rate(t)``, the time ``t*`` where the force ``k_n xi + gamma_n dxi/dt``
    changes sign, and the time ``t_n = pi/w`` of zero overlap."""
    m, k, g, vn = values["m"], values["k_n"], values["gamma_n"], values["v_n"]
    beta = g / (2 * m)
    w = np.sqrt(k / m - beta ** 2)

    def rate(t):
        return vn * np.exp(-beta * t) * (np.cos(w * t) - beta / w * np.sin(w * t))
    return rate, (np.pi - np.arctan2(g * w, k - g * beta)) / w, np.pi / w


def force_end_closed_form(values: dict) -> dict:
    """``e_n`` and ``t_n`` of the linear dashpot ending where the force vanishes (the
    law ``linear-dashpot-force-end``): the separation speed at ``t*`` over ``v_n``, and
    ``t*`` plus the free flight from the overlap ``xi(t*)`` to zero."""
    rate, t_star, t_n = _normal_motion(values)
    xi_star = values["v_n"] * t_n / np.pi * np.exp(-values["gamma_n"] / (2 * values["m"]) * t_star) \
        * np.sin(np.pi * t_star / t_n)
    return {"e_n": float(-rate(t_star) / values["v_n"]), "t_n": float(t_star + xi_star / -rate(t_star))}


def normal_impulse_magnitude(values: dict) -> float:
    """``int |F_n| dt`` over the contact of the linear dashpot ending at zero overlap:
    ``m (v_n + v(t_n) - 2 v(t*))`` from the momentum balance split at the time ``t*``
    where the force changes sign (:func:`_normal_motion`, ``v = dxi/dt``)."""
    rate, t_star, t_n = _normal_motion(values)
    return float(values["m"] * (values["v_n"] + rate(t_n) - 2 * rate(t_star)))


def gross_sliding_psi_f(values: dict, impulse: float) -> float:
    """``psi_f`` of an impact that slides throughout with the lever arm ``R``: the
    tangential impulse ``-mu J`` (``J = int |F_n| dt``) changes ``v_t = v_x + R omega`` by
    ``-mu J (1/m + R^2/I)``."""
    m, I, R = values["m"], values["I"], values["R"]
    return values["psi_i"] - values["mu"] * impulse * (1 / m + R ** 2 / I) / values["v_n"]


class SphereWall(ComposedLaws, Case):
    name = "sphere-wall"
    reference = REFERENCE
    laws = TANGENTIAL + tuple(f"{t}/linear-dashpot-force-end" for t in TANGENTIAL)
    default_law = "d-sds"
    t_end = 2e-5
    units = {q: "m" for q in ("x", "y", "xi", "zeta")}
    units.update({"vx": "m/s", "vy": "m/s", "omega": "1/s", "omega_f": "1/s", "F": "N", "F_n": "N", "t": "s",
                  "t_n": "s", "t_vt0": "s", "E_kin_before": "J", "E_kin_after": "J", "E_el": "J"})
    unit = "n.u."
    observable_names = ("psi_f", "e_n", "e_t", "omega_f", "t_n", "E_kin_before", "E_kin_after", "t_vt0")
    #: observables a trajectory may lack in some runs (``nsfric verify`` leaves them out
    #: of that point with a note): ``v_t`` may vanish at one step and not at another
    #: near the threshold of gross sliding
    partial_observables = ("t_vt0",)
    #: the SDS spring (``xi ~ 1e-7 m``) resolved to 1e-7 of itself, as in ``oblique-impact``
    solver_defaults = {(law, s): {"atol": 1e-15} for law in ("d-sds", "c-sds", "cundall-strack", "sds-elastic-test", "sds-trim",
                                                              "sds-clip", "sds-trim-muv")
                       for s in ("filippov", "ida")}

    tangential_laws, normal_laws = TANGENTIAL + ZOO_TANGENTIAL, NORMAL
    build_model = staticmethod(build_model)

    def y0(self, law, values) -> np.ndarray:
        """Touching (``y = R``), ``vy = -v_n``, spin ``omega_i`` and ``vx = psi_i v_n - R omega_i``."""
        state = {"y": values["R"], "vy": -values["v_n"], "omega": values["omega_i"],
                 "vx": values["psi_i"] * values["v_n"] - values["R"] * values["omega_i"]}
        return np.array([state.get(s, 0.0) for s in self._model_at_hand(law).state_names])

    def contact_t_end(self, law: str, values: dict) -> float:
        """Twice the normal contact duration of the linear dashpot (:func:`normal_closed_form`)."""
        return 2 * normal_closed_form(values)["t_n"]

    def default_t_end(self, law: str, values: dict) -> float:
        return self.contact_t_end(law, values)

    def observables(self, law: str, sol) -> dict:
        """The observables at the contact end (module docstring); ``{}`` where the contact
        did not end before the solution's end."""
        ends = [e for e in sol.events if e.kind == "contact-end"]
        if not ends:
            return {}
        out = self.impact_observables(sol.params, np.asarray(ends[0].y), sol.model.state_names,
                                      ends[0].t - sol.t_span[0])
        t_vt0 = self._exact_vt_zero(sol, ends[0].t)
        return out if t_vt0 is None else {**out, "t_vt0": t_vt0}

    @staticmethod
    def _exact_vt_zero(sol, t_contact_end) -> float | None:
        """:func:`first_vt_zero` of the exact solution before the contact end: bracketed on
        4001 points of the dense output, then bisected to the time resolution of the span
        (a sticking law reaches ``v_t = 0`` and stays, so the predicate, not a sign change,
        is bisected)."""
        t0 = sol.t_span[0]
        names = sol.model.state_names
        t = np.linspace(t0, t_contact_end, 4001)
        vt = slip_velocity(sol.params, sol(t), names)
        if first_vt_zero(t, vt) is None:
            return None
        v0 = vt[0]
        k = int(np.nonzero(np.sign(v0) * vt <= VT0_RTOL * abs(v0))[0][0])

        def zero(tau):
            return np.sign(v0) * slip_velocity(sol.params, sol(np.array([tau])), names)[0] <= VT0_RTOL * abs(v0)
        lo, hi = t[k - 1], t[k]
        for _ in range(80):
            mid = 0.5 * (lo + hi)
            if mid in (lo, hi):
                break
            lo, hi = (lo, mid) if zero(mid) else (mid, hi)
        return float(hi - t0)

    def trajectory_observables(self, law: str, values: dict, t, Y, names) -> dict:
        """The observables of another code's trajectory at its contact end: the first
        return to zero overlap (``y = R``) after the contact, the state interpolated
        linearly between the two rows around it (the velocities do not change in free
        flight); ``{}`` when the trajectory has no contact end."""
        y = np.asarray(Y[list(names).index("y")], dtype=float)
        R = values["R"]
        inside = np.nonzero(y < R)[0]
        if not len(inside):
            return {}
        after = np.nonzero(y[inside[0]:] >= R)[0]
        if not len(after):
            return {}
        j = inside[0] + after[0]
        s = (R - y[j - 1]) / (y[j] - y[j - 1])
        state = Y[:, j - 1] + s * (Y[:, j] - Y[:, j - 1])
        out = self.impact_observables(values, state, names, float(t[j - 1] + s * (t[j] - t[j - 1])))
        t_vt0 = first_vt_zero(t[:j], slip_velocity(values, np.asarray(Y)[:, :j], names))
        return out if t_vt0 is None else {**out, "t_vt0": t_vt0}

    def why_no_observables(self, law: str, sol) -> str:
        return "" if self.observables(law, sol) else "the contact did not end before t_end: give a larger t_end"

    @staticmethod
    def energy(values: dict, s: dict) -> float:
        """Kinetic energy, translation and rotation, of the state ``s`` (by name)."""
        return float(0.5 * values["m"] * (s["vx"] ** 2 + s["vy"] ** 2) + 0.5 * values["I"] * s["omega"] ** 2)

    def impact_observables(self, values, y_end, names, t_end) -> dict:
        """The observables from the state ``y_end`` at the contact end at ``t_end`` (with
        the force-end law, the free flight from there to zero overlap is added to
        ``t_n``; the velocities do not change on it)."""
        s = dict(zip(names, (float(v) for v in y_end)))
        vn, vt_i = values["v_n"], values["psi_i"] * values["v_n"]
        xi = values["R"] - s["y"]
        t_n = t_end + (xi / s["vy"] if xi > 0 and s["vy"] > 0 else 0.0)
        vt = s["vx"] + values["R"] * s["omega"]  # at zero overlap the arm is R
        s0 = {"vx": vt_i - values["R"] * values["omega_i"], "vy": -vn, "omega": values["omega_i"]}
        out = {"psi_f": vt / vn, "e_n": s["vy"] / vn, "e_t": vt / vt_i if vt_i else None, "omega_f": s["omega"],
               "t_n": float(t_n), "E_kin_before": self.energy(values, s0), "E_kin_after": self.energy(values, s)}
        return {k: v for k, v in out.items() if v is not None}  # no e_t without initial slip
