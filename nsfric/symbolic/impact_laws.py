"""Normal and tangential impact laws of Schäfer, Dippel & Wolf (1996), declared in SymPy.

Conventions as in :func:`nsfric.symbolic.laws.linear_spring_dashpot`: ``xi`` is the
overlap (positive in contact), ``v = dxi/dt``, and ``F`` is the force on the relative
coordinate, ``m_eff dv/dt = F`` -- so the paper's repulsive forces appear with a minus
sign (Schäfer et al. write eq 10 with the repulsive sign).  The normal laws are
:class:`~nsfric.symbolic.laws.Law` objects (couple them with
:func:`~nsfric.symbolic.laws.couple` like the linear spring-dashpot of eq 2); the
tangential laws (eqs 13-22) and the paper's closed-form statements (eqs 3-5, 7, 18,
19, 24, 25) are plain functions returning SymPy expressions.

Parameter values of the cellulose-acetate spheres (§2, §3) are in
:data:`CELLULOSE_ACETATE`.
"""
from __future__ import annotations

import sympy as sp

from .laws import Branch, Law, P, gamma_n, k_n, linear_spring_dashpot, mu, v, xi

# ---------------------------------------------------------------------------
# symbols (paper names)
m_eff = sp.Symbol("m_eff", positive=True)          # reduced mass m1 m2/(m1 + m2)
m_p = sp.Symbol("m", positive=True)                # mass of one sphere
R = sp.Symbol("R", positive=True)                  # sphere radius
I_p = sp.Symbol("I", positive=True)                # moment of inertia of one sphere
k_n_tilde = sp.Symbol("k_n_tilde", positive=True)  # Hertz stiffness, eq 6
gamma_n_tilde = sp.Symbol("gamma_n_tilde", positive=True)  # Kuwabara-Kono damping, eq 9
k_1, k_2 = sp.symbols("k_1 k_2", positive=True)    # Walton-Braun loading/unloading, eq 10
s_wb = sp.Symbol("s", positive=True)               # Walton-Braun k_2 = k_1 + s F_n^max
xi_max = sp.Symbol("xi_max", nonnegative=True)     # Walton-Braun history: largest overlap
v_i = sp.Symbol("v_i", positive=True)              # impact velocity v_n^i
t_n = sp.Symbol("t_n", positive=True)              # normal collision time
zeta = sp.Symbol("zeta", real=True)                # tangential displacement, eq 17
v_s = sp.Symbol("v_s", real=True)                  # relative shear velocity
F_n = sp.Symbol("F_n", nonnegative=True)           # (repulsive) normal force magnitude
k_s, gamma_s = sp.symbols("k_s gamma_s", positive=True)
k_s0 = sp.Symbol("k_s0", positive=True)            # initial tangential stiffness, eq 21
F_s, F_s_star = sp.symbols("F_s F_s_star", real=True)
zeta_0 = sp.Symbol("zeta_0", positive=True)        # saw-tooth period, eq 22
c_ratio = sp.Symbol("c", positive=True)            # t_s/t_n, eq 24
vartheta = sp.Symbol("vartheta", positive=True)    # impact angle, Fig 7

#: the cellulose-acetate parameters of Schäfer et al. (§2, §3, §4)
CELLULOSE_ACETATE = {
    "R": 3e-3, "m": 1.48e-4, "m_eff": 7.4e-5,
    "k_n": 7.32e6, "gamma_n": 2.06, "e_n": 0.87, "t_n": 1e-5,
    "k_n_tilde": 9.0e7, "gamma_n_hertz": 0.35, "gamma_n_tilde": 190.0,
    "k_1": 7.32e6, "s": 2e5, "mu": 0.25, "k_s_hkk": 9.43e4,
}


def _contact_law(name, F, params, eqs, doc, states=(), rates=None):
    rates = dict(rates or {})
    branches = {
        "contact": Branch({"h": 1}, F, rates, "contact-begin"),
        "free": Branch({"h": -1}, sp.Integer(0), {s: sp.Integer(0) for s in rates}, "contact-end"),
    }
    return Law(name, f"Schäfer, Dippel & Wolf (1996) {eqs}", tuple(states), params,
               {"h": xi}, branches, doc=doc)


def linear_dashpot() -> Law:
    """Linear spring-dashpot ``F = -k_n xi - gamma_n v``, eq 2 (see :mod:`.laws`)."""
    return linear_spring_dashpot()


def hertz() -> Law:
    """Hertz elastic contact ``F = -k_n_tilde xi^(3/2)``, Schäfer et al. eq 6.

    ``k_n_tilde = 4/3 sqrt(R_eff) E_eff``; for cellulose acetate ``9.0e7 N m^-3/2``.
    """
    F = -k_n_tilde * xi ** sp.Rational(3, 2)
    params = (P(k_n_tilde, 9.0e7, 0, lo_open=True, doc="Hertz stiffness", unit="N m^-3/2"),)
    return _contact_law("hertz", F, params, "eq 6", hertz.__doc__)


def hertz_damped() -> Law:
    """Hertz with ad-hoc linear damping ``F = -k_n_tilde xi^(3/2) - gamma_n v``, eq 8.

    Schäfer et al. use ``gamma_n = 0.35 kg/s`` (``e_n ~ 0.87`` at 0.3-1.2 m/s).
    """
    F = -k_n_tilde * xi ** sp.Rational(3, 2) - gamma_n * v
    params = (P(k_n_tilde, 9.0e7, 0, lo_open=True, doc="Hertz stiffness", unit="N m^-3/2"),
              P(gamma_n, 0.35, 0, doc="linear damping", unit="kg/s"))
    return _contact_law("hertz-damped", F, params, "eq 8", hertz_damped.__doc__)


def kuwabara_kono() -> Law:
    """Viscoelastic Hertz (Kuwabara-Kono, Brilliantov et al.), Schäfer et al. eq 9.

    ``F = -k_n_tilde xi^(3/2) - gamma_n_tilde xi^(1/2) v`` with
    ``gamma_n_tilde = 190 kg m^-1/2 s^-1`` for cellulose acetate.
    """
    F = -k_n_tilde * xi ** sp.Rational(3, 2) - gamma_n_tilde * sp.sqrt(xi) * v
    params = (P(k_n_tilde, 9.0e7, 0, lo_open=True, doc="Hertz stiffness", unit="N m^-3/2"),
              P(gamma_n_tilde, 190.0, 0, doc="viscoelastic damping", unit="kg m^-1/2 s^-1"))
    return _contact_law("kuwabara-kono", F, params, "eq 9", kuwabara_kono.__doc__)


def walton_braun(k2=None) -> Law:
    """Walton-Braun hysteretic spring, Schäfer et al. eq 10.

    Loading (``v >= 0``): ``F = -k_1 xi``; unloading (``v < 0``):
    ``F = -k_2 (xi - xi_0)``, where the unloading line meets the abscissa at
    ``xi_0 = xi_max (1 - k_1/k_2)`` (it starts at the largest force ``k_1 xi_max``).
    The internal state ``xi_max`` follows the overlap while loading and is frozen while
    unloading.  By default ``k_2 = k_1 + s F_n^max`` with ``F_n^max = k_1 xi_max``
    (velocity-dependent ``e_n``); pass ``k2`` (e.g. the symbol ``k_2``) for a constant
    unloading stiffness.  The contact ends where the unloading force vanishes,
    ``h = xi - xi_0 = 0`` (during loading ``h = xi k_1/k_2``, i.e. the overlap).
    """
    K2 = k_1 + s_wb * k_1 * xi_max if k2 is None else sp.sympify(k2)
    xi0 = xi_max * (1 - k_1 / K2)
    h = xi - xi0
    params = [P(k_1, 7.32e6, 0, lo_open=True, doc="loading stiffness", unit="N/m")]
    if k2 is None:
        params.append(P(s_wb, 2e5, 0, doc="k_2 = k_1 + s F_n^max", unit="1/m"))
    branches = {
        "loading": Branch({"h": 1, "g": 1}, -k_1 * xi, {xi_max: v}, "contact-begin"),
        "unloading": Branch({"h": 1, "g": -1}, -K2 * (xi - xi0), {xi_max: sp.Integer(0)}, "unloading"),
        "free": Branch({"h": -1}, sp.Integer(0), {xi_max: sp.Integer(0)}, "contact-end"),
    }
    return Law("walton-braun", "Schäfer, Dippel & Wolf (1996) eq 10", (xi_max,), tuple(params),
               {"h": h, "g": v}, branches, doc=walton_braun.__doc__)


NORMAL_IMPACT_LAWS = {"linear-dashpot": linear_dashpot, "hertz": hertz,
                      "hertz-damped": hertz_damped, "kuwabara-kono": kuwabara_kono,
                      "walton-braun": walton_braun}


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


def walton_braun_restitution(k1=k_1, k2=k_2):
    """Walton-Braun ``e_n = sqrt(k_1/k_2)`` for constant ``k_2``, text after eq 10."""
    return sp.sqrt(k1 / k2)


def walton_braun_restitution_velocity(v0=v_i, k1=k_1, s=s_wb, m=m_eff):
    """``e_n = (s v_n^i (m_eff/k_1)^(1/2) + 1)^(-1/2)`` for ``k_2 = k_1 + s F_n^max``, after eq 10."""
    return (s * v0 * sp.sqrt(m / k1) + 1) ** sp.Rational(-1, 2)


# ---------------------------------------------------------------------------
# tangential laws (force on the relative shear coordinate)
def coulomb(vs=v_s, Fn=F_n, mu_=mu):
    """Dynamic Coulomb friction ``F_s = -mu |F_n| sign(v_s)``, eq 13."""
    return -mu_ * sp.Abs(Fn) * sp.sign(vs)


def viscous(vs=v_s, g=gamma_s):
    """Viscous shear friction ``F_s = -gamma_s v_s``, eq 14."""
    return -g * vs


def coulomb_viscous(vs=v_s, Fn=F_n, g=gamma_s, mu_=mu):
    """``F_s = -min(|gamma_s v_s|, |mu F_n|) sign(v_s)``, eq 15."""
    return -sp.Min(sp.Abs(g * vs), sp.Abs(mu_ * Fn)) * sp.sign(vs)


def cundall_strack(z=zeta, Fn=F_n, ks=k_s, mu_=mu):
    """Tangential spring with Coulomb cut-off ``F_s = -min(|k_s zeta|, |mu F_n|) sign(zeta)``,
    eq 16, with ``zeta = int_{t0}^t v_s dt'`` (eq 17)."""
    return -sp.Min(sp.Abs(ks * z), sp.Abs(mu_ * Fn)) * sp.sign(z)


def walton_braun_tangential_stiffness(Fs=F_s, Fs_star=F_s_star, Fn=F_n, ks0=k_s0, mu_=mu,
                                      initial_direction=True):
    """Mindlin-type variable stiffness of Walton & Braun, eq 21 (used in eq 20,
    ``F_s = F_s' + k_s |zeta - zeta'|``)."""
    if initial_direction:
        return ks0 * (1 - (Fs - Fs_star) / (mu_ * Fn - Fs_star)) ** sp.Rational(1, 3)
    return -ks0 * (1 - (Fs_star - Fs) / (mu_ * Fn + Fs_star)) ** sp.Rational(1, 3)


def brilliantov_sawtooth(z=zeta, Fn=F_n, z0=zeta_0, mu_=mu):
    """Saw-tooth asperity force ``F_s = -mu F_n (zeta/zeta_0 - floor(zeta/zeta_0))``, eq 22."""
    return -mu_ * Fn * (z / z0 - sp.floor(z / z0))


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
