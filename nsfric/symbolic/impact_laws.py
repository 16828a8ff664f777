"""Normal and tangential impact laws of Schäfer, Dippel & Wolf (1996), declared in SymPy.

The laws are law objects: the normal laws (eqs 2, 6, 8, 9, 10) in
:mod:`nsfric.symbolic.normal`, the tangential laws (eqs 13-16, 20-22) in
:mod:`nsfric.symbolic.tangential`, collected here by name; couple them with
:func:`~nsfric.symbolic.coupling.couple`.  This module holds the paper's closed-form
statements (eqs 3-5, 7, 18, 19, 24, 25) as functions returning SymPy expressions.

Parameter values of the cellulose-acetate spheres (§2, §3) are in
:data:`CELLULOSE_ACETATE`.
"""
from __future__ import annotations

import sympy as sp

from .laws import gamma_n, k_n
from .normal import (gamma_n_tilde, hertz, hertz_damped, k_1, k_2, k_n_tilde, kuwabara_kono,  # noqa: F401
                     linear_spring_dashpot, s_wb, walton_braun, xi_max)
from .tangential import (F_s, F_s_star, brilliantov_sawtooth, coulomb_static, coulomb_viscous,  # noqa: F401
                         cundall_strack, cundall_strack_cutoff, gamma_s, k_s0, viscous, walton_braun_mindlin,
                         zeta, zeta_0)

# ---------------------------------------------------------------------------
# symbols (paper names)
m_eff = sp.Symbol("m_eff", positive=True)          # reduced mass m1 m2/(m1 + m2)
m_p = sp.Symbol("m", positive=True)                # mass of one sphere
R = sp.Symbol("R", positive=True)                  # sphere radius
I_p = sp.Symbol("I", positive=True)                # moment of inertia of one sphere
v_i = sp.Symbol("v_i", positive=True)              # impact velocity v_n^i
t_n = sp.Symbol("t_n", positive=True)              # normal collision time
v_s = sp.Symbol("v_s", real=True)                  # relative shear velocity
F_n = sp.Symbol("F_n", nonnegative=True)           # (repulsive) normal force magnitude
k_s = sp.Symbol("k_s", positive=True)
c_ratio = sp.Symbol("c", positive=True)            # t_s/t_n, eq 24
vartheta = sp.Symbol("vartheta", positive=True)    # impact angle, Fig 7

#: the cellulose-acetate parameters of Schäfer et al. (§2, §3, §4)
CELLULOSE_ACETATE = {
    "R": 3e-3, "m": 1.48e-4, "m_eff": 7.4e-5,
    "k_n": 7.32e6, "gamma_n": 2.06, "e_n": 0.87, "t_n": 1e-5,
    "k_n_tilde": 9.0e7, "gamma_n_hertz": 0.35, "gamma_n_tilde": 190.0,
    "k_1": 7.32e6, "s": 2e5, "mu": 0.25, "k_s_hkk": 9.43e4,
}


def linear_dashpot():
    """The linear spring-dashpot of eq 2 (:func:`~nsfric.symbolic.normal.linear_spring_dashpot`)."""
    return linear_spring_dashpot()


#: Schäfer et al.'s normal laws (eqs 2, 6, 8, 9, 10) by name
NORMAL_IMPACT_LAWS = {"linear-dashpot": linear_dashpot, "hertz": hertz,
                      "hertz-damped": hertz_damped, "kuwabara-kono": kuwabara_kono,
                      "walton-braun": walton_braun}
#: Schäfer et al.'s tangential laws (eqs 13-16, 20-22) by name; eq 13 solved exactly is
#: the Coulomb law with static friction, eq 16 the Cundall-Strack law without damping
#: (``cundall-strack``: the K-M/D-SDS form that resets the spring at the cut-off;
#: ``cundall-strack-cutoff``: eqs 16-17 as written, ``zeta`` never reset)
TANGENTIAL_IMPACT_LAWS = {"coulomb": coulomb_static, "viscous": viscous, "coulomb-viscous": coulomb_viscous,
                          "cundall-strack": cundall_strack, "cundall-strack-cutoff": cundall_strack_cutoff,
                          "walton-braun-mindlin": walton_braun_mindlin, "brilliantov-sawtooth": brilliantov_sawtooth}


# ---------------------------------------------------------------------------
# statements about the normal laws
def linear_dashpot_duration(k=k_n, g=gamma_n, m=m_eff):
    """Collision time ``t_n = pi (k_n/m_eff - (gamma_n/(2 m_eff))^2)^(-1/2)``, eq 4."""
    return sp.pi * (k / m - (g / (2 * m)) ** 2) ** sp.Rational(-1, 2)


def linear_dashpot_restitution(k=k_n, g=gamma_n, m=m_eff):
    """Normal restitution ``e_n = exp(-gamma_n t_n/(2 m_eff))``, eq 3 (``t_n`` of eq 4)."""
    return sp.exp(-g / (2 * m) * linear_dashpot_duration(k, g, m))


def linear_dashpot_overlap_bound(v0=v_i, k=k_n, g=gamma_n, m=m_eff):
    """Bound on the largest overlap ``xi_max <= v_n^i t_n/pi``, eq 5 (equality if elastic)."""
    return v0 * linear_dashpot_duration(k, g, m) / sp.pi


def hertz_duration(v0=v_i, k=k_n_tilde, m=m_eff):
    """Hertz collision time ``t_n = 3.21 (m_eff/k_n_tilde)^(2/5) v_n^i^(-1/5)``, eq 7."""
    return sp.Rational(321, 100) * (m / k) ** sp.Rational(2, 5) * v0 ** sp.Rational(-1, 5)


def hertz_duration_exact(v0=v_i, k=k_n_tilde, m=m_eff):
    """Hertz collision time with eq 7's constant exact: the energy integral of eq 6.

    ``U = 2/5 k_n_tilde xi^q`` (``q = 5/2``) reaches ``m_eff v_n^i^2/2`` at the largest
    overlap ``xi_m``; ``t_n = 2 int_0^xi_m dxi/sqrt(v_n^i^2 - 2U/m_eff)
    = 2 (xi_m/v_n^i) int_0^1 du/sqrt(1 - u^q)`` and the integral is the Beta function
    ``B(1/q, 1/2)/q``.  Hence ``t_n = C (m_eff/k_n_tilde)^(2/5) v_n^i^(-1/5)`` with
    ``C = 2 (5/4)^(2/5) sqrt(pi) Gamma(7/5)/Gamma(9/10) = 3.2181...`` (:func:`hertz_constant`;
    the symbolic check ``hertz-collision-time`` integrates it with SymPy from the law).
    """
    q = sp.Rational(5, 2)
    xi_m = (q * m * v0 ** 2 / (2 * k)) ** (1 / q)
    integral = sp.gamma(1 / q) * sp.gamma(sp.Rational(1, 2)) / (q * sp.gamma(1 / q + sp.Rational(1, 2)))
    return 2 * xi_m / v0 * integral


def hertz_constant():
    """The exact constant of eq 7: ``t_n (m_eff/k_n_tilde)^(-2/5) v_n^i^(1/5)`` (3.2181...)."""
    scale = (m_eff / k_n_tilde) ** sp.Rational(2, 5) * v_i ** sp.Rational(-1, 5)
    return sp.gammasimp(sp.powsimp(sp.powdenest(hertz_duration_exact() / scale, force=True), force=True))


def walton_braun_restitution(k1=k_1, k2=k_2):
    """Walton-Braun ``e_n = sqrt(k_1/k_2)`` for constant ``k_2``, text after eq 10."""
    return sp.sqrt(k1 / k2)


def walton_braun_restitution_velocity(v0=v_i, k1=k_1, s=s_wb, m=m_eff):
    """``e_n = (s v_n^i (m_eff/k_1)^(1/2) + 1)^(-1/2)`` for ``k_2 = k_1 + s F_n^max``, after eq 10."""
    return (s * v0 * sp.sqrt(m / k1) + 1) ** sp.Rational(-1, 2)


# ---------------------------------------------------------------------------
# statements about the tangential oscillation and brake failure
def tangential_half_period(ks=k_s, m=m_eff, mass=m_p, radius=R, inertia=I_p):
    """Half period of tangential oscillation ``t_s = pi (k_s/m_eff (1 + m R^2/I))^(-1/2)``, eq 18."""
    return sp.pi * (ks / m * (1 + mass * radius ** 2 / inertia)) ** sp.Rational(-1, 2)


def sphere_inertia(mass=m_p, radius=R):
    """Moment of inertia of a uniform sphere ``I = 2/5 m R^2``, eq 19."""
    return sp.Rational(2, 5) * mass * radius ** 2


def tangential_stiffness_for_ratio(tn=t_n, c=c_ratio, m=m_eff):
    """``k_s = 2/7 m_eff (pi/(t_n c))^2`` gives ``t_s/t_n = c`` for spheres, eq 24."""
    return sp.Rational(2, 7) * m * (sp.pi / (tn * c)) ** 2


def brake_failure_velocity(radius=R, angle=vartheta, k=k_n, m=m_eff):
    """Critical velocity of brake failure ``v_bf = 2R/pi cos(theta) sqrt(k_n/m_eff)``, eq 25."""
    return 2 * radius / sp.pi * sp.cos(angle) * sp.sqrt(k / m)
