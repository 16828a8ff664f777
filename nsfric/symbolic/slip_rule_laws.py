"""The continuous limits (``dt -> 0``) of the production DEM codes' tangential rules that
are not laws of the papers (the slip-rule zoo, :mod:`nsfric.schemes.slip_rules`).

Each law is derived from its code's step, not assumed; the step rules are transcribed in
:mod:`nsfric.schemes.slip_rules` (repository, path and commit of each source there).

* :func:`sds_elastic_test` -- LIGGGHTS ``tangential_model_history.h`` and YADE
  ``ViscoelasticPM.cpp``: the step adds ``v dt`` to the spring, tests the *elastic* part
  ``k |xi|`` against ``mu F_n``, caps the spring there and drops the dashpot, and adds
  the dashpot only while the elastic part is below the cap.  As ``dt -> 0``: the spring
  ``xi' = v`` below the cap; on the cap the spring stays there (its increment
  ``v dt`` is cut each step) as long as ``v`` pushes it outward faster than the cap
  moves, i.e. a constrained sliding mode on ``k |xi| = bound`` with the force
  ``-bound sign(xi)`` -- the spring-slider of
  :func:`~nsfric.symbolic.tangential.spring_dashpot_slider` without dashpot, plus the
  dashpot ``-gamma v`` in its sticking mode only.  The force jumps by ``gamma v`` where
  the spring reaches the cap.  Where the spring would leave the cap (the sticking rate
  ``g`` of the elastic part turns inward: ``v`` falls to the rate at which the cap
  moves) but the jump of the dashpot reverses the decision (with the dashpot on, ``g``
  returns positive at once), the step switches between capped and sticking about every
  other step, ``v`` follows the cap's rate to ``O(dt)`` and the dashpot is on in a
  fixed fraction of the steps (measured: 4/7 on the zoo's impact at 25 deg, mu 0.1,
  e_n 0.5 and 65 deg, mu 0.6, e_n 0.9).  Its limit is the graze mode inside the cap
  (:class:`~nsfric.symbolic.model.Sliding`, kind ``graze``): the spring held, the force
  ``+-bound - lam gamma v`` with ``lam`` in [0, 1] keeping ``g = 0`` (derived from the
  model's fields, the Filippov combination of the cap's and the sticking mode's), left
  where ``lam`` reaches 0 (back to the cap) or 1 (sticking).  On the linear dashpot with
  ``k_t/k_n = m_eff/m`` it is the constant ``(m_eff/m) gamma_n/gamma_t`` (4/7 there).
* :func:`sds_trim` -- Kratos DEM ``DEM_D_Linear_viscous_Coulomb_CL.h``
  (``CalculateTangentialForceWithNeighbour``, four branches): the elastic force is
  incremented by ``-k v dt``; where the total ``|F_e + F_v|`` exceeds ``mu F_n`` and
  ``|F_e|`` alone does, ``F_e`` is capped and ``F_v`` dropped; where ``|F_e|`` alone
  does not, only ``F_v`` is trimmed so that the total is ``mu F_n``, and ``F_e`` keeps
  its increment.  As ``dt -> 0``: the force is ``clip(-k xi - gamma v, -bound, bound)``
  (as C-SDS's), but the spring moves with ``xi' = v`` until its *elastic* part reaches
  the cap, where it is held (constrained sliding, as above).  The force is continuous.
  The Kratos DEM wheel (10.4.4) on the sphere-wall impact converges to it in
  micro-slip (``psi_i = 0.5``, :mod:`nsfric.adapters.kratos_conformance`) and in gross
  sliding; near ``psi_i = 1`` neither the wheel nor the transcribed step converges on
  ``t_n/50 ... t_n/3200``: the law lacks a regime between them (open).

* :func:`sds_clip` -- DIRT ``wall_tangential_force`` (``crates/dirt_wall/src/contact.rs``):
  the spring ``s += v dt`` is capped on its own (``k |s| <= mu F_n``), then the total
  ``-(k s + gamma v)`` is scaled down to ``mu F_n`` where it exceeds it, the spring kept.
  As ``dt -> 0``: :func:`sds_trim`'s trim, but the spring never exceeds its cap: where
  the normal force falls while the contact sticks, the cap ``mu F_n`` shrinks onto the
  spring and holds it (Kratos caps ``F_e`` only where the *total* exceeds the cap, so
  its spring, and ``sds-trim``'s, stays above), and held there the force is the total
  clipped, ``clip(+-bound - gamma v, -bound, bound)`` (the dashpot kept).  Found by
  measurement: DIRT's step converges to ``e_t`` 0.4763 at 45 deg, 1 % above
  :func:`sds_trim`'s 0.4713, and leaves it where the spring reaches the shrinking cap.

* :func:`mindlin_elastic_test` -- LIGGGHTS ``tangential history`` with ``model hertz``
  (``tangential_damping on``, its default; ``src/normal_model_hertz.h`` gives the step
  ``kt = S_t = 8 G* sqrt(R* delta)`` and ``gammat = -2 sqrt(5/6) beta sqrt(S_t m*)``):
  :func:`sds_elastic_test` with the Hertz-Mindlin stiffness ``k_ta a``, ``a = sqrt(R*
  delta)``, on the displacement and the damping ``gamma_t_tsuji delta^(1/4)``.  The
  step's stiffness and damping are evaluated at the step's overlap, so the limit is
  this law with the overlap at each instant.  Without damping (``gamma_t_tsuji = 0``,
  ``e = 1``) it is :func:`~nsfric.symbolic.tangential.mindlin` without damping.
* :func:`mindlin_force_elastic_test` -- YADE ``Law2_ScGeom_MindlinPhys_Mindlin``
  (``pkg/dem/HertzMindlin.cpp``): the elastic shear force is incremented, ``shearElastic
  -= ks v dt`` with ``ks = kso uN^(1/2)`` at the step's overlap; tested alone against
  ``tan(phi) F_n``; beyond, scaled to it and no damping; below, the damping ``cs v``,
  ``cs = 2 betas sqrt(m ks)`` (``ViscoelasticPM``'s structure on a Hertz-Mindlin
  force).  As ``dt -> 0`` the increments are ``dF_e = -k_ta a v dt`` with ``k_ta a = ks``:
  :func:`~nsfric.symbolic.tangential.mindlin_force`'s sticking field (the force does not
  follow the overlap at rest), :func:`sds_elastic_test`'s test, cap and dropped damping
  on ``F_e`` itself, the damping ``gamma_t_tsuji delta^(1/4)`` (``cs``'s ``ks^(1/2)``).
  With YADE's normal force (Hertz, the damping ``cn = 2 betan sqrt(m 3/2 kno
  uN^(1/2))``, clamped at zero) the case law is
  ``mindlin-force-elastic-test/hertz-tsuji-force-end`` of ``chung-ooi``.
* :func:`sds_trim_muv` -- Kratos's rule with its velocity-dependent friction
  (``CalculateTangentialForceWithNeighbour`` of the version taking ``LocalRelVel``): the
  same four branches, the bound ``F_n equiv_friction`` with ``equiv_friction = mu_d + (mu_s
  - mu_d) exp(-c ShearRelVel)`` of the step's own tangential velocity -- the velocity its
  dashpot ``-c_t v_t`` takes, at the state the step starts from.  As ``dt -> 0`` the
  step's velocity is the state's ``v`` and the bound the continuous function ``B(v, F_n) =
  (mu_d + (mu_s - mu_d) exp(-c |v|)) F_n`` of the state; the derivation of
  :func:`sds_trim` uses of its bound only that it is the step's value of a continuous
  function of the state (the trim and the cap are taken against the bound of the same
  step), so the limit is :func:`sds_trim` with ``B`` for the bound: the force
  ``clip(-k xi - gamma v, -B, B)``, the spring held on ``-k xi = +-B`` where its elastic
  part alone reaches the cap -- held there it follows ``B``, which now moves with ``v``
  too (``xi' = -(dB/dt)/k``, ``dB/dt`` with ``-c (mu_s - mu_d) exp(-c |v|) sign(v) v'
  F_n``).  The stick test (the total below the cap, no trim) is against ``mu_s F_n``
  exactly where the contact point's velocity passes zero and against ``mu(|v|) F_n`` off
  it: in these spring laws the contact point does not rest while the spring loads, so
  ``mu_s`` acts at the reversal of ``v`` and for ``|v| << 1/c``, ``mu_d`` for ``|v| >>
  1/c``.  ``B`` has a kink at ``v = 0`` (``|v|``), which the solvers locate.  With
  ``mu_s = mu_d`` or ``c = 0`` the bound is constant (``mu_d F_n``, or ``mu_s F_n``).

* :func:`mindlin_rescale_force_trim` (and ``_muv``) -- Kratos DEM
  ``DEM_D_Hertz_viscous_Coulomb_CL.cpp`` with its damping: the elastic force of
  :func:`~nsfric.symbolic.tangential.mindlin_rescale_force` (its ``minoring_factor``)
  under :func:`sds_trim`'s cap with the damping ``gamma_t_tsuji delta_n^(1/4)``, and a
  reset the linear law never needs on the impact: where the total reaches the cap with
  the elastic part beyond it (unloading, the cap shrinking below ``F_e``, the dashpot
  opposing it), the step cuts ``F_e`` to the cap at once (modes ``cut+``/``cut-``).

Chrono's ``OneStep`` rule has no history; its limit is Schäfer et al.'s eq 15
(:func:`~nsfric.symbolic.tangential.coulomb_viscous` with ``gamma_s = gamma_t``).
LAMMPS ``linear_history`` (and ``linear_history_classic``) and MercuryDPM's sliding
friction converge to the D-SDS.
"""
from __future__ import annotations

from dataclasses import replace

import sympy as sp

from .laws import (Branch, F_N, F_max, LawSliding, P, TangentialLaw, delta_n, delta_n_dot, gamma, k, mu,
                   register_law, spring_outputs, v, with_outputs, xi)
from .normal import real_abs
from .tangential import F_e, R_eff, _mindlin_params, contact_radius, k_ta

#: the static critical force (``mu_s F_n``) and the decay constant of :func:`sds_trim_muv`
F_s, c_decay = sp.symbols("F_s c_decay", nonnegative=True)

ZOO = "nsfric slip-rule zoo: the dt -> 0 limit of"
LIGGGHTS_YADE = (f"{ZOO} LIGGGHTS tangential_model_history.h (CFDEMproject/LIGGGHTS-PUBLIC) and YADE "
                 "ViscoelasticPM.cpp (yade/trunk)")
DIRT = f"{ZOO} DIRT's wall_tangential_force (SueHeir/dirt, crates/dirt_wall/src/contact.rs)"
KRATOS = (f"{ZOO} Kratos DEM DEM_D_Linear_viscous_Coulomb_CL.h (KratosMultiphysics/Kratos, "
          "applications/DEMApplication/custom_constitutive)")


def _params():
    return (P(k, 1.0, 0, lo_open=True, doc="tangential spring stiffness", unit="n.u."),
            P(gamma, 2.0, 0, doc="tangential damping", unit="n.u."),
            P(F_max, 1.0, 0, lo_open=True, doc="critical force mu F_n", unit="n.u."))


def _caps(bound, stick: str, F_plus=None, F_minus=None, state=xi):
    """The spring held at its elastic cap ``-k xi = +-bound`` (or ``F_e = +-bound``):
    constrained slidings of ``state`` on ``e_plus = elastic - bound`` and ``e_minus =
    elastic + bound``, left towards ``stick``; inside each, the graze mode towards
    ``stick`` (``graze+``, ``graze-``: the dashpot on in the fraction ``lam`` of the
    time, where the cap would leave and ``stick`` would return at once)."""
    return {"cap+": LawSliding("e_plus", "constrained", state, None, stick, F=bound if F_plus is None else F_plus,
                               entry_kind="slip"),
            "cap-": LawSliding("e_minus", "constrained", state, stick, None, F=-bound if F_minus is None else F_minus,
                               entry_kind="slip"),
            "graze+": LawSliding("e_plus", "graze", state, "cap+", stick, entry_kind="graze"),
            "graze-": LawSliding("e_minus", "graze", state, "cap-", stick, entry_kind="graze")}


def sds_elastic_test(k=k, gamma=gamma, bound=F_max, params=None) -> TangentialLaw:
    """Spring-slider tested on its elastic part, dashpot while sticking only (the limit of
    LIGGGHTS's and YADE's step; module docstring).

    Sticking (``|k xi| < bound``): ``F = -k xi - gamma v``, ``xi' = v``.  Slipping: the
    spring held at ``-k xi = +-bound`` (constrained), ``F = +-bound`` (no dashpot), left
    when ``v`` no longer pushes the spring beyond the cap -- or, where sticking would
    push it back at once, grazing (``graze+``/``graze-``): held, ``F = +-bound - lam
    gamma v``, ``v`` following the cap.  ``k``, ``gamma``, ``bound`` may be
    expressions; ``params`` default: ``k, gamma, F_max``.
    """
    elastic = -k * xi
    switching = {"e_plus": elastic - bound, "e_minus": elastic + bound}
    branches = {"stick": Branch({"e_plus": -1, "e_minus": 1}, elastic - gamma * v, {xi: v}, "stick")}
    return with_outputs(TangentialLaw("sds-elastic-test", LIGGGHTS_YADE, (xi,), _params() if params is None
                                      else params, switching, branches, _caps(bound, "stick"),
                                      doc=sds_elastic_test.__doc__), spring_outputs(k))


def sds_trim(k=k, gamma=gamma, bound=F_max, params=None) -> TangentialLaw:
    """Total force clipped without resetting the spring, elastic part capped (the limit of
    Kratos DEM's step; module docstring).

    ``F = clip(-k xi - gamma v, -bound, bound)``; ``xi' = v`` while ``|k xi| < bound``
    (modes ``stick`` and ``trim+``/``trim-``: the dashpot trimmed so that ``|F| =
    bound``); the spring held at ``-k xi = +-bound`` beyond (constrained modes
    ``cap+``/``cap-``, ``F = +-bound``).  ``params`` default: ``k, gamma, F_max``.
    """
    F_S = -k * xi - gamma * v
    switching = {"h_plus": F_S - bound, "h_minus": F_S + bound, "e_plus": -k * xi - bound,
                 "e_minus": -k * xi + bound}
    branches = {"stick": Branch({"h_plus": -1, "h_minus": 1}, F_S, {xi: v}, "stick"),
                "trim+": Branch({"h_plus": 1, "e_plus": -1}, bound, {xi: v}, "trim"),
                "trim-": Branch({"h_minus": -1, "e_minus": 1}, -bound, {xi: v}, "trim")}
    slidings = {"cap+": LawSliding("e_plus", "constrained", xi, None, "trim+", F=bound, entry_kind="slip"),
                "cap-": LawSliding("e_minus", "constrained", xi, "trim-", None, F=-bound, entry_kind="slip")}
    return with_outputs(TangentialLaw("sds-trim", KRATOS, (xi,), _params() if params is None else params, switching,
                                      branches, slidings, doc=sds_trim.__doc__), spring_outputs(k))


def _max(a, b):
    """``max(a, b)`` through ``|a - b|`` (a kink the solvers locate)."""
    return (a + b + real_abs(a - b)) / 2


def sds_clip(k=k, gamma=gamma, bound=F_max, params=None) -> TangentialLaw:
    """Spring capped on its own, total force clipped (the limit of DIRT's step; module
    docstring).

    As :func:`sds_trim` (``F = clip(-k xi - gamma v, -bound, bound)`` with ``xi' = v``
    while ``|k xi| < bound``), but the spring is held on the cap ``-k xi = +-bound`` also
    while the total is below it (``sds-trim``'s stick lets ``|k xi|`` exceed ``bound``
    there), and held there the force is the clipped total ``clip(+-bound - gamma v,
    -bound, bound)``: ``max(-bound, bound - gamma max(v, 0))`` on ``cap+`` and
    ``-max(-bound, bound - gamma max(-v, 0))`` on ``cap-``.
    ``params`` default: ``k, gamma, F_max``.
    """
    base = sds_trim(k, gamma, bound, params)
    stick = base.branches["stick"]  # the spring capped while sticking too: |k xi| <= bound everywhere
    branches = {**base.branches, "stick": replace(stick, signs={**stick.signs, "e_plus": -1, "e_minus": 1})}

    def held(sign):  # the dashpot where it opposes the held spring, the total clipped at -+bound
        return sign * _max(-bound, bound - gamma * _max(sign * v, 0))

    slidings = {n: replace(sl, F=held(1 if n == "cap+" else -1)) for n, sl in base.slidings.items()}
    return replace(base, name="sds-clip", reference=DIRT, branches=branches, slidings=slidings, doc=sds_clip.__doc__)


#: LIGGGHTS's tangential damping coefficient: ``gammat = gamma_t_tsuji delta^(1/4)``
gamma_t_tsuji = sp.Symbol("gamma_t_tsuji", nonnegative=True)
LIGGGHTS_HERTZ = (f"{ZOO} LIGGGHTS tangential_model_history.h with normal_model_hertz.h (kt = 8 G* sqrt(R* "
                  "delta), gammat = -2 sqrt(5/6) beta sqrt(kt m*); CFDEMproject/LIGGGHTS-PUBLIC @ 25fc3965)")


def mindlin_elastic_test(R=R_eff, params=None) -> TangentialLaw:
    """LIGGGHTS's Hertz-Mindlin history with its Tsuji-type tangential damping (module
    docstring): :func:`sds_elastic_test` with the stiffness ``k_ta a`` (``a = sqrt(R
    delta_n)``, :func:`~nsfric.symbolic.tangential.contact_radius`), the damping
    ``gamma_t_tsuji delta_n^(1/4)`` and the bound ``mu F_N``.

    Sticking (``k_ta a |xi| < mu F_N``): ``F = -k_ta a xi - gamma_t_tsuji delta_n^(1/4) v``,
    ``xi' = v``; slipping: the elastic part held at the cap, ``F = +-mu F_N`` without
    damping.  ``R``: the effective radius (the parameter ``R_eff`` by default, as
    :func:`~nsfric.symbolic.tangential.mindlin`).  ``params`` default: ``k_ta,
    gamma_t_tsuji, R_eff, mu``.
    """
    if params is None:
        k_param, _, *rest = _mindlin_params(radius=R == R_eff)
        params = (k_param, P(gamma_t_tsuji, 0.0, 0, unit="kg m^-1/4 s^-1",
                             doc="tangential damping coefficient of delta^(1/4) v (LIGGGHTS: -2 sqrt(5/6) beta "
                                 "sqrt(k_ta sqrt(R*) m*))"), *rest)
    damping = gamma_t_tsuji * real_abs(delta_n) ** sp.Rational(1, 4)
    law = sds_elastic_test(k_ta * contact_radius(R), damping, mu * F_N, params)
    return replace(law, name="mindlin-elastic-test", reference=LIGGGHTS_HERTZ, doc=mindlin_elastic_test.__doc__)


YADE_HERTZ = (f"{ZOO} YADE Law2_ScGeom_MindlinPhys_Mindlin (pkg/dem/HertzMindlin.cpp: shearElastic -= ks dt v, "
              "ks = kso uN^(1/2), cs = 2 betas sqrt(mbar ks); Aoxi-git/Cementor @ 8766c063fb9c)")


def mindlin_force_elastic_test(R=R_eff, params=None) -> TangentialLaw:
    """YADE's Hertz-Mindlin shear force (the limit of ``Law2_ScGeom_MindlinPhys_Mindlin``'s
    step, module docstring): the elastic force ``F_e`` integrated with the Mindlin
    stiffness ``k_ta a`` (``a = sqrt(R delta_n)``, as
    :func:`~nsfric.symbolic.tangential.mindlin_force`), tested on its elastic part with
    the damping ``gamma_t_tsuji delta_n^(1/4) v`` while sticking only (as
    :func:`sds_elastic_test`).

    Sticking (``|F_e| < mu F_N``): ``F = F_e - gamma_t_tsuji delta_n^(1/4) v``, ``dF_e/dt =
    -k_ta a v``; slipping: ``F_e`` held at ``+-mu F_N`` (constrained), ``F = +-mu F_N``
    without damping, left when ``v`` no longer pushes it beyond, or grazing (the
    damping on a fraction ``lam``, as :func:`sds_elastic_test`).  YADE's ``ks = kso
    uN^(1/2)`` is ``k_ta a`` with ``k_ta = kso/sqrt(R)``, its ``cs = 2 betas sqrt(m kso)
    uN^(1/4)`` the damping with ``gamma_t_tsuji = 2 betas sqrt(m kso)``.  ``R`` and
    ``params`` (default ``k_ta, gamma_t_tsuji, R_eff, mu``) as :func:`mindlin_elastic_test`.
    """
    if params is None:
        k_param, _, *rest = _mindlin_params(radius=R == R_eff)
        params = (k_param, P(gamma_t_tsuji, 0.0, 0, unit="kg m^-1/4 s^-1",
                             doc="tangential damping coefficient of delta^(1/4) v (YADE: 2 betas sqrt(m kso))"),
                  *rest)
    stiffness = k_ta * contact_radius(R)
    damping = gamma_t_tsuji * real_abs(delta_n) ** sp.Rational(1, 4)
    bound = mu * F_N
    switching = {"e_plus": F_e - bound, "e_minus": F_e + bound}
    branches = {"stick": Branch({"e_plus": -1, "e_minus": 1}, F_e - damping * v, {F_e: -stiffness * v}, "stick")}
    law = TangentialLaw("mindlin-force-elastic-test", YADE_HERTZ, (F_e,), params, switching, branches,
                        _caps(bound, "stick", state=F_e), doc=mindlin_force_elastic_test.__doc__)
    return with_outputs(law, {"F_t_el": F_e, "E_t": F_e ** 2 / (2 * stiffness)})


def decaying_bound(dynamic, static, x):
    """``dynamic + (static - dynamic) exp(-x)`` for ``x >= 0``, written as ``dynamic tanh(x/2)
    (1 + exp(-x)) + static exp(-x)`` (the same function: ``tanh(x/2) (1 + e^-x) = 1 -
    e^-x``): a sum of non-negative terms, so that the model's validation proves the bound
    non-negative (the clipped force's two switching functions never both hold) where the
    difference ``static - dynamic`` has no sign; bounded for large ``x`` (no ``sinh``)."""
    return dynamic * sp.tanh(x / 2) * (1 + sp.exp(-x)) + static * sp.exp(-x)


KRATOS_MUV = (f"{ZOO} Kratos DEM DEM_D_Linear_viscous_Coulomb_CL.h with STATIC_FRICTION, DYNAMIC_FRICTION and "
              "FRICTION_DECAY (KratosMultiphysics/Kratos, applications/DEMApplication/custom_constitutive)")


def sds_trim_muv(k=k, gamma=gamma, bound=F_max, static_bound=F_s, decay=c_decay, params=None) -> TangentialLaw:
    """:func:`sds_trim` with Kratos's velocity-dependent bound (the limit of Kratos DEM's
    step with ``mu_s != mu_d``; module docstring).

    The bound ``bound + (static_bound - bound) exp(-decay |v|)``: the dynamic critical
    force ``bound`` (``mu_d F_n``) for ``|v| >> 1/decay``, the static one ``static_bound``
    (``mu_s F_n``) at ``v = 0``.  ``params`` default: ``k, gamma, F_max, F_s, c_decay``.
    """
    if params is None:
        params = (*_params(), P(F_s, 1.5, 0, doc="static critical force mu_s F_n", unit="n.u."),
                  P(c_decay, 1.0, 0, doc="decay constant of the bound with |v|", unit="n.u."))
    B = decaying_bound(bound, static_bound, decay * real_abs(v))
    base = sds_trim(k, gamma, B, params)
    return replace(base, name="sds-trim-muv", reference=KRATOS_MUV, doc=sds_trim_muv.__doc__)


KRATOS_HERTZ = (f"{ZOO} Kratos DEM DEM_D_Hertz_viscous_Coulomb_CL.cpp (KratosMultiphysics/Kratos @ 03f57bf0edcf, "
                "applications/DEMApplication/custom_constitutive: Kt = 8 G* sqrt(R delta), c_t = 2 DAMPING_GAMMA "
                "sqrt(m Kt), minoring_factor sqrt(delta/delta_old), the four branches)")
#: Kratos's static friction coefficient and the decay of its ``mu(v)`` (s/m), named as the
#: ``sphere-wall`` case's parameters (the same SymPy symbols)
mu_s, friction_decay = sp.symbols("mu_s friction_decay", nonnegative=True)


def mindlin_rescale_force_trim(R=R_eff, params=None, muv: bool = False) -> TangentialLaw:
    """Kratos's Hertz law with its damping (the limit of ``DEM_D_Hertz_viscous_Coulomb``'s
    step, module docstring of :mod:`nsfric.schemes.slip_rule_kratos_hertz`): the elastic
    force of :func:`~nsfric.symbolic.tangential.mindlin_rescale_force` (``dF_e/dt = -k_ta a
    v + F_e min(d delta_n/dt, 0)/(2 delta_n)``, ``a = sqrt(R delta_n)``: the step's ``F_e
    sqrt(delta/delta_old) - Kt v dt`` as ``dt -> 0``) under :func:`sds_trim`'s cap: ``F =
    clip(F_e - gamma_t_tsuji delta_n^(1/4) v, -B, B)`` (the dashpot trimmed), ``F_e`` free
    while ``|F_e| < B`` and held on ``F_e = +-B`` (constrained) where the elastic part alone
    reaches the cap; ``B = mu F_N``, or with ``muv`` Kratos's ``(mu + (mu_s - mu) exp(
    -friction_decay |v|)) F_N`` (:func:`decaying_bound`, as :func:`sds_trim_muv`).

    Why these branches are the step's limit: the step increments ``F_e`` by ``O(dt)`` and
    caps it only where the *total* exceeds ``B`` and ``|F_e| > B`` (same-sign branch with
    ``|F_e| > B``, or opposite signs with ``|F_v| < |F_e|``, whose total exceeds ``B`` only
    if ``|F_e|`` does); elsewhere the total is ``clip(F_e + F_v, -B, B)`` and ``F_e`` keeps
    its increment.  So the step's ``F_e`` follows the free field until it reaches ``+-B``
    while the total is on that side of the cap, and is then cut back to ``+-B`` each step:
    the constrained sliding on ``F_e = +-B``, left when the free field points inside.  The
    damping ``c_t = 2 DAMPING_GAMMA sqrt(m Kt)`` at the step's overlap is
    ``gamma_t_tsuji delta_n^(1/4)`` with ``gamma_t_tsuji = 2 DAMPING_GAMMA sqrt(m k_ta
    sqrt(R))``.  Undamped (``gamma_t_tsuji = 0``) the trim never acts and the law is
    ``mindlin-rescale-force`` with ``gamma_t = 0``.  ``params`` default: ``k_ta,
    gamma_t_tsuji, R_eff, mu`` (and ``mu_s, friction_decay`` with ``muv``).
    """
    if params is None:
        k_param, _, *rest = _mindlin_params(radius=R == R_eff)
        params = (k_param, P(gamma_t_tsuji, 0.0, 0, unit="kg m^-1/4 s^-1",
                             doc="tangential damping coefficient of delta^(1/4) v (Kratos: 2 DAMPING_GAMMA sqrt(m "
                                 "k_ta sqrt(R)))"), *rest)
        if muv:
            params += (P(mu_s, 0.4, 0, doc="static friction coefficient (Kratos's STATIC_FRICTION)"),
                       P(friction_decay, 3.0, 0, doc="decay of mu with |v_t| (Kratos's FRICTION_DECAY)", unit="s/m"))
    bound = decaying_bound(mu * F_N, mu_s * F_N, friction_decay * real_abs(v)) if muv else mu * F_N
    damping = gamma_t_tsuji * real_abs(delta_n) ** sp.Rational(1, 4)
    rate = -k_ta * contact_radius(R) * v + F_e * (delta_n_dot - real_abs(delta_n_dot)) / (4 * real_abs(delta_n))
    F_S = F_e - damping * v
    switching = {"h_plus": F_S - bound, "h_minus": F_S + bound, "e_plus": F_e - bound, "e_minus": F_e + bound,
                 "v_dir": v}
    branches = {"stick": Branch({"h_plus": -1, "h_minus": 1}, F_S, {F_e: rate}, "stick"),
                "trim+": Branch({"h_plus": 1, "e_plus": -1}, bound, {F_e: rate}, "trim"),
                "trim-": Branch({"h_minus": -1, "e_minus": 1}, -bound, {F_e: rate}, "trim"),
                # the total reaches the cap with the elastic part beyond it: F_e cut to the cap at once
                "cut+": Branch({"h_plus": 1, "e_plus": 1, "v_dir": 1}, bound, {F_e: rate}, "slip",
                               reset={F_e: bound}),
                "cut-": Branch({"h_minus": -1, "e_minus": -1, "v_dir": -1}, -bound, {F_e: rate}, "slip",
                               reset={F_e: -bound})}
    slidings = {"cap+": LawSliding("e_plus", "constrained", F_e, None, "trim+", F=bound, entry_kind="slip"),
                "cap-": LawSliding("e_minus", "constrained", F_e, "trim-", None, F=-bound, entry_kind="slip")}
    name = "mindlin-rescale-force-trim" + ("-muv" if muv else "")
    doc = mindlin_rescale_force_trim.__doc__ if not muv else mindlin_rescale_force_trim_muv.__doc__
    law = TangentialLaw(name, KRATOS_HERTZ + (" with STATIC_FRICTION, DYNAMIC_FRICTION and FRICTION_DECAY" if muv
                                              else ""), (F_e,), params, switching, branches, slidings, doc=doc)
    return with_outputs(law, {"F_t_el": F_e, "E_t": F_e ** 2 / (2 * k_ta * contact_radius(R))})


def mindlin_rescale_force_trim_muv(R=R_eff, params=None) -> TangentialLaw:
    """:func:`mindlin_rescale_force_trim` with Kratos's velocity-dependent friction (the
    limit of ``DEM_D_Hertz_viscous_Coulomb`` with ``STATIC_FRICTION != DYNAMIC_FRICTION``):
    the bound ``(mu + (mu_s - mu) exp(-friction_decay |v|)) F_N`` of the state's own
    tangential velocity, as :func:`sds_trim_muv` derives it.  ``params`` default: ``k_ta,
    gamma_t_tsuji, R_eff, mu, mu_s, friction_decay``."""
    return mindlin_rescale_force_trim(R, params, muv=True)


for _law in (sds_elastic_test, sds_trim, sds_clip, sds_trim_muv, mindlin_elastic_test, mindlin_force_elastic_test,
             mindlin_rescale_force_trim, mindlin_rescale_force_trim_muv):
    register_law(_law)
