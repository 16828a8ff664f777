"""The production DEM codes' tangential rules, one step each, as their sources write them
(the slip-rule zoo).

A :class:`SlipRule` is one code's per-step tangential update ``(history, v_t, F_n, dt)
-> (F_t, history)`` for a contact in a plane with a fixed normal (a sphere on a flat
wall: the history, the tangential velocity ``v_t`` of the contact point and the force
are signed scalars along the wall), the integrator the code runs it in
(:mod:`nsfric.schemes.slip_rule_impact`), and the case law of its continuous limit
(``dt -> 0``, derived in :mod:`nsfric.symbolic.slip_rule_laws`).  Parameters ``p``:
``k_t`` (N/m), ``gamma_t`` (kg/s), ``mu``; the bound is ``mu F_n`` with the normal force
``F_n >= 0`` (clamped at zero as in the standard impact).  Transcribed from (repository,
path, commit read):

* LAMMPS ``lammps/lammps`` ``src/GRANULAR/gran_sub_mod_tangential.cpp`` @ 079d233c5bd8
  (``GranSubModTangentialLinearHistory::calculate_forces`` and
  ``GranSubModTangentialLinearHistoryClassic::calculate_forces``;
  ``GranSubModTangentialLinearNoHistory::calculate_forces``, the same in later versions'
  ``gran_sub_mod_tangential_kernel.h`` ``gran_tangential_linear_nohistory``);
* LIGGGHTS ``CFDEMproject/LIGGGHTS-PUBLIC`` ``src/tangential_model_history.h`` @ 25fc3965f1d8
  (``TangentialModel<TANGENTIAL_HISTORY>::surfacesIntersect``);
* MercuryDPM ``Kernel/Interactions/FrictionForceInteractions/SlidingFrictionInteraction.cc``
  (mirror ``gladk/MercuryDPM`` @ 1192cf179d3a; ``SlidingFrictionInteraction::computeForce``);
* YADE ``pkg/dem/ViscoelasticPM.cpp`` (mirror ``Togekey/yade_trunk`` @ a6084d6c98b1;
  ``Law2_ScGeom_ViscElPhys_Basic``, the version clamping the normal force at zero);
* YADE ``pkg/dem/HertzMindlin.cpp`` (``Aoxi-git/Cementor`` @ 8766c063fb9c and
  ``Togekey/yade_trunk`` @ a6084d6c98b1; ``Law2_ScGeom_MindlinPhys_Mindlin::go``, its
  contact in :mod:`nsfric.schemes.slip_rule_hertz`);
* Kratos ``KratosMultiphysics/Kratos``
  ``applications/DEMApplication/custom_constitutive/DEM_D_Linear_viscous_Coulomb_CL.h``
  @ 016af01bda3b (``CalculateTangentialForceWithNeighbour``) and ``..._CL.cpp`` @ 013f9253599a,
  whose call passes ``LocalRelVel``: the header of that version (the one the Kratos DEM
  10.4.4 wheel runs; read from the index's newest stored copy, its commit not recorded
  there) bounds the force by ``F_n`` times ``equiv_friction = DYNAMIC_FRICTION +
  (STATIC_FRICTION - DYNAMIC_FRICTION) exp(-FRICTION_DECAY ShearRelVel)`` with
  ``ShearRelVel`` the norm of the tangential ``LocalRelVel`` of the same step, the four
  branches unchanged (:func:`kratos_friction`; the 016af01bda3b header's older
  ``STATIC_FRICTION`` test with ``DYNAMIC_FRICTION`` after slip is gone);
* Chrono ``projectchrono/chrono`` ``src/chrono/physics/ChContactSMC.cpp`` @ 2b5757964b28
  (``ChDefaultContactForceTorqueSMC::CalculateForceTorque``, Hooke, ``OneStep``) and
  ``src/chrono_multicore/solver/ChIterativeSolverMulticoreSMC.cpp``
  (``function_CalcContactForces``, Hooke, ``MultiStep``, user coefficients).

In the plane with a fixed normal the history's projection and rotation are the
identity, so LAMMPS's ``linear_history`` and ``linear_history_classic`` take the same
step (they differ only in the order of increment and projection when the normal
turns); MercuryDPM's particle-wall spring takes LAMMPS's step too (with ``mu_s = mu_d``),
except that it skips the tangential update where the normal force is zero.

Rules register by name in :data:`SLIP_RULES` (:func:`register_slip_rule`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

#: name -> :class:`SlipRule`
SLIP_RULES: dict = {}


@dataclass(frozen=True)
class SlipRule:
    """One production code's tangential rule.

    Attributes
    ----------
    name : str
        Registry name (``lammps-linear-history``).
    code : str
        The code and its style (``LAMMPS pair granular tangential linear_history``).
    source : str
        Repository, path, commit and function transcribed.
    integrator : str
        ``"velocity-verlet"`` (LAMMPS ``fix nve/sphere``, LIGGGHTS, MercuryDPM: forces at
        the new positions with the half-step velocities) or ``"symplectic-euler"``
        (Kratos ``Symplectic_Euler``, YADE's leapfrog ``NewtonIntegrator``, Chrono SMC's
        semi-implicit Euler: forces at the old state, velocities, then positions).
    limit : str
        The case law (``sphere-wall``) of its continuous limit.
    history : str
        What the code stores: ``"displacement"`` (``xi``, force ``-k_t xi``),
        ``"elastic force"`` (``F_e``) or ``"none"``.
    step : callable
        ``step(history, v_t, F_n, dt, p) -> (F_t, history)``.
    stick : str
        What a user of the code sees in stick and micro-slip (docs).
    params : dict
        Parameters of the rule's own beyond the standard impact's, with the values its
        row of the zoo takes (``mu_s``, ``friction_decay`` of Kratos's ``mu(v)``); the
        limit law takes them too.
    contact : str
        ``"linear"`` (the standard impact's clamped linear spring-dashpot, ``k_t``,
        ``gamma_t`` constant) or ``"hertz"`` (YADE's Hertz-Mindlin contact,
        :mod:`nsfric.schemes.slip_rule_hertz`: the normal force and, at each step's
        overlap, the ``k_t`` and ``gamma_t`` the step takes).
    in_default_run : bool
        Whether ``nsfric run slip-rule-zoo`` (:func:`nsfric.cases.slip_rule_zoo.zoo`
        without ``rules``) and ``nsfric run slip-rule-energy`` run it; False for rows whose exact limits cost more than a few
        seconds over the angles (Kratos's Hertz rows: about 11 s of CPU each, warm), run by
        name (``zoo(rules=[...])``).
    """

    name: str
    code: str
    source: str
    integrator: str
    limit: str
    history: str
    step: Callable
    stick: str = ""
    params: dict = field(default_factory=dict)
    contact: str = "linear"
    in_default_run: bool = True

    def elastic_force(self, history: float, p: dict) -> float:
        """The spring's part of the force: ``-k_t xi``, ``F_e``, or 0 without history."""
        if self.history == "displacement":
            return -p["k_t"] * history
        return history if self.history == "elastic force" else 0.0

    def elastic_energy(self, history: float, p: dict) -> float:
        """The energy stored in the tangential spring: ``k_t xi^2/2`` or ``F_e^2/(2 k_t)``."""
        if self.history == "displacement":
            return 0.5 * p["k_t"] * history ** 2
        if self.history == "elastic force":
            return 0.5 * history ** 2 / p["k_t"] if p["k_t"] > 0 else 0.0
        return 0.0


def register_slip_rule(rule: SlipRule) -> SlipRule:
    """Add ``rule`` to :data:`SLIP_RULES` (ValueError if its name is taken)."""
    if rule.name in SLIP_RULES:
        raise ValueError(f"slip rule {rule.name!r} is already registered")
    if rule.contact not in ("linear", "hertz"):
        raise ValueError(f"slip rule {rule.name!r}: contact must be 'linear' or 'hertz', got {rule.contact!r}")
    if rule.integrator not in ("velocity-verlet", "symplectic-euler"):
        raise ValueError(f"slip rule {rule.name!r}: integrator must be 'velocity-verlet' or 'symplectic-euler', "
                         f"got {rule.integrator!r}")
    SLIP_RULES[rule.name] = rule
    return rule


def get_slip_rule(name: str) -> SlipRule:
    """The registered rule ``name``; ValueError naming the choices otherwise."""
    if name not in SLIP_RULES:
        raise ValueError(f"unknown slip rule {name!r}; choose one of {sorted(SLIP_RULES)}")
    return SLIP_RULES[name]


def lammps_linear_history(shear, vtr, Fn, dt, p):
    """LAMMPS ``linear_history``: ``shear += vtr dt``; ``fs = -k shear - damp vtr``; if
    ``|fs| > Fscrit``: ``fs`` rescaled to ``Fscrit`` and ``shear = -(fs - fdamp)/k``
    (zero force if ``shear == 0``)."""
    k, damp = p["k_t"], p["gamma_t"]
    Fscrit = Fn * p["mu"]
    shear = shear + dt * vtr
    fdamp = -damp * vtr
    fs = -k * shear + fdamp
    if abs(fs) > Fscrit:
        if shear != 0.0:
            fs = Fscrit / abs(fs) * fs
            shear = -(fs - fdamp) / k
        else:
            fs = 0.0
    return fs, shear


def lammps_linear_nohistory(_none, vtr, Fn, dt, p):
    """LAMMPS ``linear_nohistory`` (classic ``pair gran/hooke``): ``Fscrit = mu Fncrit``,
    ``fsmag = damp vrel``; ``Ft = min(Fscrit, fsmag)/vrel`` (0 where ``vrel == 0``) and
    ``fs = -Ft vtr``: a viscous force capped by Coulomb's, no history."""
    vrel = abs(vtr)
    if vrel == 0.0:
        return 0.0, 0.0
    return -min(p["mu"] * Fn, p["gamma_t"] * vrel) / vrel * vtr, 0.0


def lammps_linear_history_classic(shear, vtr, Fn, dt, p):
    """LAMMPS ``linear_history_classic`` (``pair gran/hooke/history``): increment, then
    ``shrmag`` taken before the projection (the identity here), then as
    :func:`lammps_linear_history`."""
    k, damp = p["k_t"], p["gamma_t"]
    Fscrit = Fn * p["mu"]
    shear = shear + dt * vtr
    shrmag = abs(shear)
    fdamp = -damp * vtr
    fs = -k * shear + fdamp
    magfs = abs(fs)
    if magfs > Fscrit:
        if shrmag != 0.0:
            fs = Fscrit / magfs * fs
            shear = -(fs - fdamp) / k
        else:
            fs = 0.0
    return fs, shear


def liggghts_history(shear, vtr, Fn, dt, p):
    """LIGGGHTS ``tangential_model_history``: ``shear += vtr dt``; the *elastic* force
    ``-kt shear`` tested against ``xmu |Fn|``: beyond, capped (``shear = -Ft/kt``, zero
    force if ``shear == 0``) and no damping; below, the damping ``-gammat vtr`` added."""
    kt = p["k_t"]
    shear = shear + vtr * dt
    Ft = -(kt * shear)
    Ft_shear = kt * abs(shear)
    Ft_friction = p["mu"] * abs(Fn)
    if Ft_shear > Ft_friction:
        if shear != 0.0:
            Ft *= Ft_friction / Ft_shear
            shear = -Ft / kt
        else:
            Ft = 0.0
    else:
        Ft -= p["gamma_t"] * vtr
    return Ft, shear


def mercury_sliding_friction(spring, v_t, Fn, dt, p):
    """MercuryDPM ``SlidingFrictionInteraction::computeForce`` (particle-wall, ``mu_s =
    mu_d = mu``): nothing where ``|F_n| == 0``; ``spring += v_t dt``; ``F = -k spring -
    nu v_t``; if ``F^2 <= (mu_s F_n)^2`` it sticks, else ``F`` is rescaled to ``mu_d |F_n|``
    and ``spring = -(F + nu v_t)/k``."""
    if Fn == 0.0:
        return 0.0, spring
    k, nu, mu = p["k_t"], p["gamma_t"], p["mu"]
    spring = spring + v_t * dt
    F = -k * spring - nu * v_t
    if F * F <= (mu * Fn) ** 2:
        return F, spring
    F *= mu * Fn / math.sqrt(F * F)
    return F, -(F + nu * v_t) / k


def yade_viscoelastic(shear_force, v_t, Fn, dt, p):
    """YADE ``Law2_ScGeom_ViscElPhys_Basic``: the elastic shear force on the sphere
    ``F_e -= ks dt v_t`` (YADE's ``shearForce += ks dt shearVelocity`` acts with a minus
    sign on body 1); if ``F_e^2 > (F_n tan phi)^2`` it is scaled to the limit and the
    viscous part is zero, else ``-cs v_t`` is added."""
    Fe = shear_force - p["k_t"] * dt * v_t
    maxFs = Fn * Fn * p["mu"] ** 2
    if Fe * Fe > maxFs:
        Fe *= math.sqrt(maxFs) / abs(Fe)
        return Fe, Fe
    return Fe - p["gamma_t"] * v_t, Fe


def yade_hertz_mindlin(shear_elastic, v_t, Fn, dt, p):
    """YADE ``Law2_ScGeom_MindlinPhys_Mindlin::go`` (no adhesion), its shear part with
    ``p["k_t"]`` and ``p["gamma_t"]`` YADE's ``ks = kso uN^(1/2)`` and ``cs`` at the step's
    overlap (:func:`~nsfric.schemes.slip_rule_hertz.hertz_contact`) and ``F_n`` the
    damped, clamped normal force: ``shearElastic -= ks dt v_t`` (on the sphere, body 2),
    ``maxFs = F_n tan(phi)``; beyond it ``shearElastic`` scaled to ``maxFs`` and the force
    that alone (``noShearDamp``), else ``shearElastic - cs v_t`` (``cs = 0``: no damping,
    ``useDamping`` false)."""
    Fe = shear_elastic - p["k_t"] * (v_t * dt)
    maxFs = Fn * p["mu"]
    if Fe * Fe > maxFs * maxFs:
        Fe *= maxFs / abs(Fe)
        return Fe, Fe
    return Fe - p["gamma_t"] * v_t, Fe


def kratos_friction(v_t, p):
    """Kratos's ``equiv_friction`` of the step's ``ShearRelVel = |v_t|``: ``DYNAMIC_FRICTION +
    (STATIC_FRICTION - DYNAMIC_FRICTION) exp(-FRICTION_DECAY |v_t|)`` with ``p["mu"]`` the
    dynamic, ``p["mu_s"]`` the static coefficient (default ``mu``: a constant ``mu``, the
    same float) and ``p["friction_decay"]`` (s/m, default 0)."""
    mu = p["mu"]
    return mu + (p.get("mu_s", mu) - mu) * math.exp(-p.get("friction_decay", 0.0) * abs(v_t))


def kratos_linear_viscous_coulomb(Fe_old, v_t, Fn, dt, p):
    """Kratos ``CalculateTangentialForceWithNeighbour``: ``F_e = F_e^old - kt v_t dt``, ``F_v =
    -ct v_t``, the bound ``mu(|v_t|) F_n`` (:func:`kratos_friction`, the ``LocalRelVel`` of
    this step); where ``|F_e + F_v|`` exceeds it: same signs and ``|F_e|`` beyond it ->
    ``F_e`` capped, ``F_v = 0``; same signs otherwise -> ``F_v`` trimmed to the bound minus
    ``|F_e|``; opposite signs and ``|F_v| >= |F_e|`` -> ``F_v`` scaled to the bound plus
    ``|F_e|``; opposite signs otherwise -> ``F_e`` capped, ``F_v = 0``."""
    return kratos_branches(Fe_old - p["k_t"] * v_t * dt, v_t, Fn, p)


def kratos_branches(Fe, v_t, Fn, p):
    """The four branches of Kratos's ``CalculateTangentialForceWithNeighbour`` on the
    incremented elastic force ``Fe`` (:func:`kratos_linear_viscous_coulomb`): ``(F_t,
    F_e)``."""
    Fv = -p["gamma_t"] * v_t
    Fmax = Fn * kratos_friction(v_t, p)
    if abs(Fe + Fv) > Fmax:
        ae, av = abs(Fe), abs(Fv)
        if Fe * Fv >= 0.0:
            if ae > Fmax:
                Fe, Fv = Fe * Fmax / ae, 0.0
            else:
                Fv *= (Fmax - ae) / av
        elif av >= ae:
            Fv *= (Fmax + ae) / av
        else:
            Fe, Fv = Fe * Fmax / ae, 0.0
    return Fe + Fv, Fe


def dirt_wall_tangential(spring, v_t, Fn, dt, p):
    """DIRT ``wall_tangential_force`` (sphere-wall; the zoo's constant ``k_t`` and
    ``gamma_t`` in place of its Mindlin ``8 G* sqrt(R delta)`` and its damping):
    ``s += v_t dt``; the *spring* capped first (``k_t |s| > mu |F_n|``: ``s`` scaled so
    that ``k_t |s| = mu |F_n|``); ``F = -(k_t s + gamma_t v_t)``; the *total* then scaled
    to ``mu |F_n|`` where it exceeds it, the spring kept (no reset to the total's cap)."""
    k, ft_max = p["k_t"], p["mu"] * abs(Fn)
    s = spring + v_t * dt
    if k * abs(s) > ft_max and k * abs(s) > 1e-30:
        s = s * (ft_max / (k * abs(s)))
    F = -(k * s + p["gamma_t"] * v_t)
    if abs(F) > ft_max and abs(F) > 1e-30:
        F = F * (ft_max / abs(F))
    return F, s


def chrono_smc_onestep(_none, v_t, Fn, dt, p):
    """Chrono ``ChDefaultContactForceTorqueSMC`` (Hooke, ``OneStep``): no history,
    ``forceT = min(kt |v_t| dT + gt |v_t|, mu |F_n|)`` against ``v_t`` where ``|v_t| >=
    p["slip_threshold"]`` (``ChSystemSMC``'s default 1e-4 m/s), else none."""
    speed = abs(v_t)
    forceT = min(p["k_t"] * speed * dt + p["gamma_t"] * speed, p["mu"] * abs(Fn))
    if speed >= p.get("slip_threshold", 1e-4):
        return -forceT / speed * v_t, 0.0
    return 0.0, 0.0


def chrono_multicore_multistep(delta_t, v_t, Fn, dt, p):
    """Chrono::Multicore SMC (``function_CalcContactForces``, Hooke, ``MultiStep``, user
    coefficients): ``delta_t += v_t dt`` (stored, projected on the contact plane);
    ``forceT = kt delta_t + gt v_t`` (the force on the sphere ``-forceT``); if ``|forceT|
    > mu |F_n|``: where ``|delta_t| > eps`` (machine epsilon, in metres) ``forceT`` is
    scaled to the cap and ``delta_t = (forceT - gt v_t)/kt``, else ``forceT = 0``."""
    k, g = p["k_t"], p["gamma_t"]
    delta_t = delta_t + v_t * dt
    forceT = k * delta_t + g * v_t
    slide = p["mu"] * abs(Fn)
    if abs(forceT) > slide:
        if abs(delta_t) > 2.220446049250313e-16:
            forceT *= slide / abs(forceT)
            delta_t = (forceT - g * v_t) / k
        else:
            forceT = 0.0
    return -forceT, delta_t


D_SDS_USER = ("D-SDS: stick while |k xi + gamma v| < mu F_n; in micro-slip the spring is reset every step so "
              "that the total force sits on the cap")
register_slip_rule(SlipRule(
    "lammps-linear-history", "LAMMPS pair granular / fix wall/gran, tangential linear_history",
    "lammps/lammps src/GRANULAR/gran_sub_mod_tangential.cpp @ 079d233c5bd8, "
    "GranSubModTangentialLinearHistory::calculate_forces", "velocity-verlet", "d-sds", "displacement",
    lammps_linear_history, D_SDS_USER))
register_slip_rule(SlipRule(
    "lammps-linear-history-classic", "LAMMPS pair gran/hooke/history (tangential linear_history_classic)",
    "lammps/lammps src/GRANULAR/gran_sub_mod_tangential.cpp @ 079d233c5bd8, "
    "GranSubModTangentialLinearHistoryClassic::calculate_forces", "velocity-verlet", "d-sds", "displacement",
    lammps_linear_history_classic, D_SDS_USER + " (LAMMPS's linear_history step in a plane)"))
register_slip_rule(SlipRule(
    "lammps-linear-nohistory", "LAMMPS pair granular / fix wall/gran, tangential linear_nohistory (pair gran/hooke)",
    "lammps/lammps src/GRANULAR/gran_sub_mod_tangential.cpp, GranSubModTangentialLinearNoHistory::calculate_forces",
    "velocity-verlet", "coulomb-viscous", "none", lammps_linear_nohistory,
    "no stick at all: a viscous force min(gamma |v|, mu F_n) along v, as Chrono's OneStep without its spring "
    "term and threshold"))
register_slip_rule(SlipRule(
    "mercurydpm-sliding-friction", "MercuryDPM SlidingFrictionSpecies (mu_s = mu_d)",
    "MercuryDPM Kernel/Interactions/FrictionForceInteractions/SlidingFrictionInteraction.cc (gladk/MercuryDPM "
    "@ 1192cf179d3a), SlidingFrictionInteraction::computeForce", "velocity-verlet", "d-sds", "displacement",
    mercury_sliding_friction, D_SDS_USER + "; the spring is frozen while F_n = 0"))
register_slip_rule(SlipRule(
    "liggghts-history", "LIGGGHTS tangential_model history",
    "CFDEMproject/LIGGGHTS-PUBLIC src/tangential_model_history.h @ 25fc3965f1d8, surfacesIntersect",
    "velocity-verlet", "sds-elastic-test", "displacement", liggghts_history,
    "stick while k|xi| < mu F_n, with the dashpot added (|F| may exceed mu F_n by gamma |v|); at slip onset the "
    "dashpot is dropped: the force jumps by gamma v"))
register_slip_rule(SlipRule(
    "yade-viscoelastic", "YADE ViscElMat / Law2_ScGeom_ViscElPhys_Basic",
    "YADE pkg/dem/ViscoelasticPM.cpp (Togekey/yade_trunk @ a6084d6c98b1), Law2_ScGeom_ViscElPhys_Basic::go",
    "symplectic-euler", "sds-elastic-test", "elastic force", yade_viscoelastic,
    "as LIGGGHTS (same limit); the leapfrog step lags the force by half a step"))
register_slip_rule(SlipRule(
    "yade-hertz-mindlin", "YADE FrictMat / Ip2_FrictMat_FrictMat_MindlinPhys (en = es) / Law2_ScGeom_MindlinPhys_Mindlin",
    "YADE pkg/dem/HertzMindlin.cpp (Aoxi-git/Cementor @ 8766c063fb9c; Togekey/yade_trunk @ a6084d6c98b1), "
    "Ip2_FrictMat_FrictMat_MindlinPhys::go and Law2_ScGeom_MindlinPhys_Mindlin::go; Wall: "
    "pkg/dem/Ig2_Facet_Sphere_ScGeom.cpp, Ig2_Wall_Sphere_ScGeom::go", "symplectic-euler",
    "mindlin-force-elastic-test", "elastic force", yade_hertz_mindlin,
    "Hertz-Mindlin on the elastic force (dF_e = -k_s(delta) v dt), tested on its elastic part as YADE's "
    "ViscoelasticPM: while it loads the damping c_s(delta) v adds to the force (|F| above mu F_n), at slip onset "
    "it is dropped", contact="hertz"))
register_slip_rule(SlipRule(
    "kratos-linear-viscous-coulomb", "Kratos DEM DEM_D_Linear_viscous_Coulomb",
    "KratosMultiphysics/Kratos applications/DEMApplication/custom_constitutive/DEM_D_Linear_viscous_Coulomb_CL.h "
    "@ 016af01bda3b, CalculateTangentialForceWithNeighbour", "symplectic-euler", "sds-trim", "elastic force",
    kratos_linear_viscous_coulomb,
    "the total force is clipped to mu F_n but the spring keeps loading until its elastic part alone reaches the "
    "cap: in micro-slip the spring stores more than the D-SDS's (the Kratos wheel converges to this limit at "
    "psi_i = 0.5; near psi_i = 1 neither it nor this step has a limit yet)"))
register_slip_rule(SlipRule(
    "kratos-linear-viscous-coulomb-muv", "Kratos DEM DEM_D_Linear_viscous_Coulomb, mu(v) (STATIC_FRICTION 0.4, "
    "DYNAMIC_FRICTION = mu, FRICTION_DECAY 3 s/m)",
    "KratosMultiphysics/Kratos applications/DEMApplication/custom_constitutive/DEM_D_Linear_viscous_Coulomb_CL.h "
    "(the version taking LocalRelVel, with ..._CL.cpp @ 013f9253599a), CalculateTangentialForceWithNeighbour, "
    "equiv_friction", "symplectic-euler", "sds-trim-muv", "elastic force", kratos_linear_viscous_coulomb,
    "as Kratos's constant-mu rule, the cap mu(|v_t|) F_n of the step's own tangential velocity: the static "
    "coefficient where the contact point's velocity passes zero and while it is small (|v_t| << 1/FRICTION_DECAY)",
    {"mu_s": 0.4, "friction_decay": 3.0}))
register_slip_rule(SlipRule(
    "dirt-wall-mindlin", "DIRT wall contact, tangential (Mindlin) sliding friction",
    "SueHeir/dirt crates/dirt_wall/src/contact.rs @ 0c342393f598, wall_tangential_force (particle-particle: "
    "crates/dirt_granular/src/contact/force.rs, the same two caps)", "velocity-verlet", "sds-clip", "displacement",
    dirt_wall_tangential,
    "the spring capped on its own, then the total force clipped to mu F_n without touching the spring: as Kratos "
    "in micro-slip (the dashpot trimmed, not the spring reset), but on a shrinking cap the dashpot is kept"))
register_slip_rule(SlipRule(
    "chrono-multicore-multistep", "Chrono::Multicore SMC, Hooke, tangential displacement MultiStep",
    "projectchrono/chrono src/chrono_multicore/solver/ChIterativeSolverMulticoreSMC.cpp, function_CalcContactForces",
    "symplectic-euler", "d-sds", "displacement", chrono_multicore_multistep,
    D_SDS_USER + " (LAMMPS's linear_history step in Chrono's semi-implicit Euler; no force where the history is "
    "below machine epsilon and the dashpot alone exceeds the cap)"))
register_slip_rule(SlipRule(
    "chrono-smc-onestep", "Chrono SMC, Hooke, tangential displacement OneStep",
    "projectchrono/chrono src/chrono/physics/ChContactSMC.cpp @ 2b5757964b28, "
    "ChDefaultContactForceTorqueSMC::CalculateForceTorque", "symplectic-euler", "coulomb-viscous", "none",
    chrono_smc_onestep,
    "no stick at all: a viscous force min(gamma |v|, mu F_n) (the spring term k |v| dt vanishes with dt); "
    "no force below the slip-velocity threshold"))

from . import slip_rule_kratos_hertz as _kratos_hertz  # noqa: E402,F401  (registers Kratos's Hertz rules)
