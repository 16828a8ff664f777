"""Kratos DEM's Hertz law with its damping, ``DEM_D_Hertz_viscous_Coulomb``, on the slip-rule
zoo's sphere-wall impact: the step (rules ``kratos-hertz-viscous-coulomb`` and, with Kratos's
velocity-dependent friction, ``kratos-hertz-viscous-coulomb-muv``) and the parameters of its
exact limit (laws ``mindlin-rescale-force-trim`` and ``mindlin-rescale-force-trim-muv`` on
``hertz-tsuji-force-end``, case ``chung-ooi``).

Read in ``KratosMultiphysics/Kratos``
``applications/DEMApplication/custom_constitutive/DEM_D_Hertz_viscous_Coulomb_CL.cpp`` @
03f57bf0edcf (the index's stored version; the ``equiv_friction`` of ``LocalRelVel`` as in the
10.4.4 wheel, :func:`~nsfric.schemes.slip_rules.kratos_friction`), ``custom_elements/
spheric_particle.cpp`` (``ComputeBallToRigidFaceContactForceAndMoment``) and the wheel's
``DEMApplication/sphere_strategy.py`` (``ModifySubProperties``, ``GammaForHertzThornton``):

* ``InitializeContactWithFEM`` at the step's overlap ``delta`` (``ini_delta = 0``): ``Kn = 2 E*
  sqrt(R delta)``, ``Kt = 4 G* Kn/E* = 8 G* sqrt(R delta)``; against a rigid face ``E* =
  E/(1 - nu^2)``, ``G* = G/(2 - nu)``, ``R`` the sphere's radius;
* ``CalculateNormalForce``: ``2/3 Kn delta = kno delta^(3/2)`` with ``kno = 4/3 E* sqrt(R)``;
* ``CalculateViscoDampingForceWithFEM``: ``c_n = 2 DAMPING_GAMMA sqrt(m Kn)``, ``c_t = 2
  DAMPING_GAMMA sqrt(m Kt)`` -- both grow as ``delta^(1/4)``: Tsuji's form, not a constant
  ``gamma_t``; for a ``Hertz`` law Kratos sets ``DAMPING_GAMMA`` from
  ``COEFFICIENT_OF_RESTITUTION`` by Thornton et al.'s (2013) fit (``GammaForHertzThornton``,
  YADE's ``betan``: :func:`~nsfric.schemes.slip_rule_hertz.thornton_damping_ratio`);
* the normal force ``kno delta^(3/2) + c_n d(delta)/dt``, zero where negative;
* ``CalculateTangentialForceWithNeighbour``: the stored elastic force first scaled by
  ``sqrt(delta/previous_indentation)`` where the overlap shrank (``minoring_factor``;
  ``previous_indentation = indentation + LocalDeltDisp[2]``, the overlap before the step's
  displacement), then ``F_e -= Kt dx_t``; the viscous force ``-c_t v_t``; the bound ``F_n
  equiv_friction`` and the four branches of the linear law
  (:func:`~nsfric.schemes.slip_rules.kratos_linear_viscous_coulomb`).

YADE's Hertz-Mindlin contact (:mod:`nsfric.schemes.slip_rule_hertz`) has the same normal force,
stiffness and damping (``kno``, ``kso = 8 G* sqrt(R)`` here, ``kso = 8 G* sqrt(R*)`` there,
with ``8 G*/E*`` alike; ``cn``, ``cs`` with Thornton's ratio): the zoo maps the standard
impact onto one Hertz-Mindlin contact for both rows (:func:`~nsfric.schemes.slip_rule_hertz.
with_hertz`, ``DAMPING_GAMMA = betan = betas``), the Kratos material being the one with
that ``kno`` against a rigid face
(:func:`~nsfric.adapters.kratos_chung.kratos_material`).  The rules differ in the
tangential step only: Kratos rescales the elastic force on unloading and trims the
dashpot where YADE drops it.
"""
from __future__ import annotations

import math

from .slip_rules import SlipRule, kratos_branches, register_slip_rule


def kratos_hertz_viscous_coulomb(Fe_old, v_t, Fn, dt, p):
    """Kratos ``DEM_D_Hertz_viscous_Coulomb::CalculateTangentialForceWithNeighbour``:
    ``F_e = F_e^old sqrt(delta/delta_prev) - Kt dx_t`` where ``delta_prev > delta`` (else
    ``F_e^old - Kt dx_t``; ``dx_t = p["disp_t"]``, the contact point's displacement over the
    step, default ``v_t dt``), then the linear law's viscous force, bound ``mu(|v_t|) F_n``
    and four branches (:func:`~nsfric.schemes.slip_rules.kratos_linear_viscous_coulomb`),
    with ``p["k_t"] = Kt`` and ``p["gamma_t"] = c_t`` at the step's overlap ``p["delta"]``
    and the overlap before the step ``p["delta_prev"]``."""
    if p["delta_prev"] > p["delta"]:
        Fe_old = Fe_old * math.sqrt(p["delta"] / p["delta_prev"])
    return kratos_branches(Fe_old - p["k_t"] * p.get("disp_t", v_t * dt), v_t, Fn, p)


SOURCE = ("KratosMultiphysics/Kratos applications/DEMApplication/custom_constitutive/DEM_D_Hertz_viscous_Coulomb_CL.cpp "
          "@ 03f57bf0edcf, InitializeContactWithFEM, CalculateViscoDampingForceWithFEM, "
          "CalculateTangentialForceWithNeighbour; DAMPING_GAMMA: DEMApplication/sphere_strategy.py "
          "GammaForHertzThornton (wheel 10.4.4)")
STICK = ("Hertz-Mindlin on the elastic force (dF_e = -K_t(delta) v dt), rescaled by sqrt(delta/delta_old) while the "
         "overlap shrinks; the total force clipped to mu F_n by trimming the dashpot c_t(delta) v (~delta^(1/4)) "
         "while the elastic part alone is below the cap, as Kratos's linear rule: the force is continuous at slip "
         "onset, the spring keeps loading in micro-slip")
register_slip_rule(SlipRule(
    "kratos-hertz-viscous-coulomb", "Kratos DEM DEM_D_Hertz_viscous_Coulomb (DAMPING_GAMMA from the restitution)",
    SOURCE, "symplectic-euler", "mindlin-rescale-force-trim", "elastic force", kratos_hertz_viscous_coulomb, STICK,
    contact="hertz", in_default_run=False))
register_slip_rule(SlipRule(
    "kratos-hertz-viscous-coulomb-muv", "Kratos DEM DEM_D_Hertz_viscous_Coulomb, mu(v) (STATIC_FRICTION 0.4, "
    "DYNAMIC_FRICTION = mu, FRICTION_DECAY 3 s/m)", SOURCE + ", equiv_friction", "symplectic-euler",
    "mindlin-rescale-force-trim-muv", "elastic force", kratos_hertz_viscous_coulomb,
    STICK + "; the cap mu(|v_t|) F_n of the step's own tangential velocity", {"mu_s": 0.4, "friction_decay": 3.0},
    contact="hertz", in_default_run=False))
