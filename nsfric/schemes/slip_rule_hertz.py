"""YADE's Hertz-Mindlin contact on the slip-rule zoo's sphere-wall impact: the
coefficients its ``Ip2_FrictMat_FrictMat_MindlinPhys`` derives from the materials, the
normal force and the overlap-dependent shear stiffness and damping of
``Law2_ScGeom_MindlinPhys_Mindlin::go`` at a step's overlap, and how the zoo's standard
impact maps onto them.

Read in YADE ``pkg/dem/HertzMindlin.cpp`` with Thornton et al.'s ``en -> betan`` (the
YADE-based ``Aoxi-git/Cementor`` @ 8766c063fb9c; the index's newest stored copy of the
file, its repository not recorded there, adds only ``getVstar``'s velocity-dependent
route; the older mirror ``Togekey/yade_trunk`` @ a6084d6c98b1 has the same step with a
Tsuji route ``alpha`` for ``en`` and the averaged ``G``, ``nu``, equal for one material)
and ``pkg/dem/Ig2_Facet_Sphere_ScGeom.cpp`` (``Ig2_Wall_Sphere_ScGeom::go``), ``pkg/dem/
ScGeom.cpp`` and ``.hpp`` (``rotate``, ``radius1`` the alias of ``refR1``):

* ``Ip2``: ``E* = Ea Eb/((1 - va^2) Eb + (1 - vb^2) Ea)``, ``G* = 1/((2 - va)/Ga + (2 - vb)/Gb)``
  (``G = E/(2 (1 + v))``), ``R* = Da Db/(Da + Db)``; ``kno = 4/3 E* sqrt(R*)``, ``kso = 8
  sqrt(R*) G*``, ``tan(frictionAngle)`` the friction coefficient.  For a ``Wall`` the
  geometry's ``radius1`` is the sphere's radius (``hertzian=False``, the default), so
  ``R* = R/2``: the sphere meets a wall as it meets an equal sphere (and the wall's
  material enters ``E*``, ``G*`` as a second sphere's).
* Damping: none by default (``en``, ``es``, ``betan``, ``betas`` unset: ``betan = betas =
  0``, ``useDamping`` false).  ``en`` given (``es`` unset takes ``en``): ``betan =
  sqrt(1/(1 - (1 + en)^2 exp(alpha(en))) - 1)`` with Thornton et al.'s (2013) polynomial
  ``alpha`` (eqs B6, B7; :func:`thornton_damping_ratio`), ``betas`` the same of ``es``;
  ``betan`` given: ``betas = betan`` unless given.
* ``Law2`` at the overlap ``uN``: ``Fn = kno uN^(3/2)``, ``kn = 3/2 kno uN^(1/2)``, ``ks
  = kso uN^(1/2)``; with damping ``cn = 2 betan sqrt(mbar kn)``, ``cs = 2 betas sqrt(mbar
  ks)`` (``mbar`` the sphere's mass against a fixed wall); the normal force ``Fn + cn
  d(uN)/dt``, zero where that is negative (``normTemp``), and the Coulomb bound
  ``tan(phi)`` times its magnitude; the tangential step
  (:func:`~nsfric.schemes.slip_rules.yade_hertz_mindlin`) with ``ks`` and ``cs``.
  ``scg->rotate`` is the identity here (the normal is fixed and the spin is about the
  wall's plane normal, so ``orthonormal_axis`` and ``twist_axis`` vanish).

Left out, as for every row of the zoo (lever arm ``R``, the contact point's velocity
``v_x + R omega``): YADE's torque arm for a ``Wall`` (the force acts at the sphere's
centre projected onto the wall, ``R - uN``) and the ratcheting factor ``(r1 + r2)/(r1 +
r2 - uN)`` of the translational velocity in ``ScGeom::precompute`` (``noRatch``), both
``O(uN/R)``, a few 1e-3 on the standard impact.
"""
from __future__ import annotations

import math
from functools import lru_cache

#: Thornton, Cummins & Cleary (2013) Table 2 as ``HertzMindlin.cpp`` writes them: ``alpha(e)
#: = e (h1 + e (h2 + ... + e h10))``
THORNTON_H = (-6.918798, -16.41105, 146.8049, -796.4559, 2928.711, -7206.864, 11494.29, -11342.18, 6276.757,
              -1489.915)
#: the Poisson's ratio of the zoo's Hertz row (aluminium alloy, the material of Chung &
#: Ooi's T4 whose density the standard impact has)
POISSON = 0.33
#: the parameters of a Hertz-Mindlin step beyond the zoo's (``kno``, ``kso``: YADE's
#: coefficients; ``betan``, ``betas``: its damping ratios)
HERTZ_PARAMS = ("kno", "kso", "betan", "betas")


def thornton_damping_ratio(e: float) -> float:
    """YADE's damping ratio for the restitution coefficient ``e`` (``Ip2_FrictMat_FrictMat_
    MindlinPhys`` with ``en``/``es``: Thornton et al. 2013 eqs B6, B7; 0 at ``e = 1``).
    ValueError outside ``(0, 1]``."""
    if not (math.isfinite(e) and 0 < e <= 1):
        raise ValueError(f"the restitution coefficient must be in (0, 1], got {e!r}")
    if e == 1.0:
        return 0.0
    alpha = 0.0
    for h in reversed(THORNTON_H):
        alpha = e * (h + alpha)
    return math.sqrt(1.0 / (1.0 - (1.0 + e) ** 2 * math.exp(alpha)) - 1.0)


def ip2_wall(young: float, poisson: float, R: float, en: float | None = None, es: float | None = None) -> dict:
    """``kno``, ``kso``, ``betan``, ``betas`` of YADE's ``Ip2_FrictMat_FrictMat_MindlinPhys``
    for a sphere of radius ``R`` on a ``Wall`` of the same material (``young``, ``poisson``;
    ``R* = R/2``); damping from ``en``/``es`` (none given: no damping, YADE's default)."""
    if not (math.isfinite(young) and young > 0):
        raise ValueError(f"young must be > 0, got {young!r}")
    if not (math.isfinite(poisson) and -1 < poisson < 0.5):
        raise ValueError(f"poisson must be in (-1, 0.5), got {poisson!r}")
    G = young / (2 * (1 + poisson))
    E_eff = young * young / (2 * (1 - poisson ** 2) * young)
    G_eff = 1.0 / (2 * (2 - poisson) / G)
    R_eff = R * R / (R + R)
    en, es = (en, es if es is not None else en) if en is not None else (es, es)
    return {"kno": 4 / 3 * E_eff * math.sqrt(R_eff), "kso": 8 * math.sqrt(R_eff) * G_eff,
            "betan": 0.0 if en is None else thornton_damping_ratio(en),
            "betas": 0.0 if es is None else thornton_damping_ratio(es)}


def restitution_of(p: dict) -> float:
    """The normal restitution coefficient the zoo's impact ``p`` was made for: its linear
    dashpot's ``e_n`` (:func:`~nsfric.symbolic.impact_laws.linear_dashpot_restitution`, the
    law's statement, at ``k_n``, ``gamma_n`` and ``m_eff = m``)."""
    if not p["gamma_n"] < 2 * math.sqrt(p["m"] * p["k_n"]):
        raise ValueError(f"gamma_n = {p['gamma_n']!r} is overdamped (no restitution coefficient)")
    return float(_restitution()(p["k_n"], p["gamma_n"], p["m"]))


@lru_cache(maxsize=1)
def _restitution():
    """:func:`~nsfric.symbolic.impact_laws.linear_dashpot_restitution` as a function of
    ``(k_n, gamma_n, m_eff)`` (generated once)."""
    from ..symbolic import impact_laws as IL
    from ..symbolic.codegen import generate

    return generate(IL.linear_dashpot_restitution(), (IL.k_n, IL.gamma_n, IL.m_eff), "math", cse=False,
                    products=False, raw=True)


def zoo_young(p: dict, poisson: float = POISSON) -> float:
    """The Young's modulus that gives YADE's sphere-wall Hertz contact of the impact ``p``
    the linear standard's contact duration ``t_n = pi sqrt(m/k_n)`` in an elastic head-on
    impact at the impact speed ``v``: the Hertz duration ``C (m/kno)^(2/5) v^(-1/5)``
    (:func:`~nsfric.symbolic.impact_laws.hertz_constant`) solved for ``kno``, then ``E``
    from ``kno = 4/3 E/(2 (1 - nu^2)) sqrt(R/2)``."""
    from ..symbolic.impact_laws import hertz_constant

    C = float(hertz_constant())
    t_n = math.pi * math.sqrt(p["m"] / p["k_n"])
    kno = p["m"] * (C / t_n) ** 2.5 * p["v"] ** -0.5
    return kno * 1.5 * (1 - poisson ** 2) / math.sqrt(p["R"] / 2)


def with_hertz(p: dict) -> dict:
    """``p`` with YADE's Hertz-Mindlin coefficients (:data:`HERTZ_PARAMS`) where it lacks
    them: the zoo's mapping -- ``E`` from :func:`zoo_young` at ``nu = p.get("poisson",
    POISSON)``, ``en = es`` the restitution of the standard's dashpot
    (:func:`restitution_of`; the ``en`` route, ``es`` left to default to ``en``), the
    friction ``tan(phi) = mu``; R, m, v as the standard's."""
    if all(k in p for k in HERTZ_PARAMS):
        return p
    poisson = float(p.get("poisson", POISSON))
    q = ip2_wall(zoo_young(p, poisson), poisson, p["R"], en=restitution_of(p))
    return {**q, **p}


def hertz_contact(p: dict, delta: float, rate: float) -> tuple:
    """``(F_n, k_s, c_s)`` of ``Law2_ScGeom_MindlinPhys_Mindlin::go`` at the overlap
    ``delta > 0`` and its rate ``d(delta)/dt`` (YADE's ``-incidentVn``): the normal force
    ``kno delta^(3/2) + cn rate`` set to zero where negative, the shear stiffness ``kso
    delta^(1/2)`` and the shear damping ``cs`` (``mbar = p["m"]``, the wall fixed)."""
    root = math.sqrt(delta)
    kn, ks = 1.5 * p["kno"] * root, p["kso"] * root
    cn, cs = 2.0 * math.sqrt(p["m"] * kn) * p["betan"], 2.0 * math.sqrt(p["m"] * ks) * p["betas"]
    Fn = p["kno"] * delta * root + cn * rate
    return max(Fn, 0.0), ks, cs


def limit_params(p: dict) -> dict:
    """The ``chung-ooi`` parameters of the exact limit (laws ``mindlin-force-elastic-test``
    and ``hertz-tsuji-force-end``, lever arm ``R``) of YADE's step on the impact ``p``
    (:func:`with_hertz`): ``k_n_tilde = kno``, ``k_ta = kso/sqrt(R)`` (the law's contact
    radius is ``sqrt(R delta)``, YADE's ``ks = kso delta^(1/2)``), ``gamma_n_tsuji = 2 betan
    sqrt(3/2 m kno)`` and ``gamma_t_tsuji = 2 betas sqrt(m kso)`` (YADE's ``cn``, ``cs``
    over ``delta^(1/4)``), ``psi_i``, ``v_n`` of the angle, no spin."""
    q = with_hertz(p)
    th = math.radians(q["theta_deg"])
    return {"m": q["m"], "I": q["I"], "R": q["R"], "k_n_tilde": q["kno"], "k_ta": q["kso"] / math.sqrt(q["R"]),
            "gamma_n_tsuji": 2 * q["betan"] * math.sqrt(1.5 * q["m"] * q["kno"]),
            "gamma_t_tsuji": 2 * q["betas"] * math.sqrt(q["m"] * q["kso"]), "mu": q["mu"],
            "psi_i": math.tan(th), "v_n": q["v"] * math.cos(th), "omega_i": 0.0, "arm_overlap": 0.0}
