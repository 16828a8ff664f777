"""Krengel & Matuttis: the dry-friction oscillator (§3) and the block on the slope (§4,
translating and rotating), coupled to their laws."""
from __future__ import annotations

from functools import lru_cache

import sympy as sp

from nsfric.symbolic import laws as L
from nsfric.symbolic import normal as N
from nsfric.symbolic import tangential as T
from nsfric.symbolic.coupling import couple
from nsfric.symbolic.kinematics import Slider, SlopeBlock
from nsfric.symbolic.systems import effective_mass, system  # noqa: F401  (effective_mass re-exported)
from .polygon import RotatingBlock, omega as RB_OMEGA, theta as RB_THETA


# -- Krengel & Matuttis §3: the dry-friction oscillator, m x'' = F - k x --------------------
def oscillator(mass=0.25, stiffness=1.0) -> Slider:
    """The dry oscillator's kinematics: ``m x'' = F - k x`` (Krengel & Matuttis eq 3)."""
    return Slider(position=L.x, stiffness=L.k, params=(
        L.P(L.m, mass, 0, lo_open=True, doc="mass"),
        L.P(L.k, stiffness, 0, lo_open=True, doc="spring stiffness")))


@system("dry-oscillator", ("coulomb",))
def dry_oscillator(law: str):
    """Linear oscillator with dry Coulomb friction (Krengel & Matuttis §3, eq 3)."""
    x0, v0 = sp.symbols("x0 v0", real=True)
    extra = (L.P(x0, 2.1, doc="initial position"), L.P(v0, 0.0, doc="initial velocity"))
    outputs = {
        "E_kin": L.m * L.v ** 2 / 2,
        "E_el": L.k * L.x ** 2 / 2,
    }
    return couple(oscillator(), tangential=T.coulomb_static(), name=f"dry-oscillator/{law}", params=extra,
                  outputs=outputs, reference="Krengel & Matuttis §3, eqs 3-14, Fig 1")


# -- Krengel & Matuttis §4: block on a slope ------------------------------------------------
G = sp.Rational(981, 100)  #: gravity [m/s^2]
y, vx, vy = sp.symbols("y vx vy", real=True)
x = L.x
alpha, l, rho, Y, kt_ratio, dt = sp.symbols("alpha l rho Y kt_ratio dt", positive=True)
D, damping, gt_ratio = sp.symbols("D damping gt_ratio", nonnegative=True)
y0, vx0 = sp.symbols("y0 vx0", real=True)

MASS = rho * l ** 2                      #: block mass per unit depth [kg/m]
ALPHA = sp.pi * alpha / 180              #: slope angle [rad]
X_H = x * sp.cos(ALPHA) + y * sp.sin(ALPHA)  #: horizontal position of the lower face's centre (Figs 2-3)
GAMMA_N = damping * D * sp.sqrt(Y * MASS)  #: eq 18: normal damping
K_T = kt_ratio * Y                       #: Table 1: k_t = 2/7 Y
GAMMA_T = damping * gt_ratio * sp.sqrt(K_T * MASS)  #: Table 1: gamma_t = 1/4 sqrt(k_t m_eff,tan)
SLOPE_REFERENCE = "Krengel & Matuttis §4, eqs 18-20, Table 1, Figs 2-5"
#: the block's kinematics and its penalty normal law (eq 18 with A = -l y: stiffness Y)
SLOPE = SlopeBlock(x, y, vx, vy, MASS, ALPHA, G)
SLOPE_NORMAL = N.linear_spring_dashpot(k=Y, gamma=GAMMA_N, params=(), persistent=True)
F_NORMAL = -SLOPE_NORMAL.branches["contact"].F.xreplace({L.xi: SLOPE.overlap, L.v: SLOPE.overlap_rate})


def _slope_params():
    P = L.P
    return (
        P(alpha, 15.0, 0, 90, hi_open=True, doc="slope inclination", unit="deg"),
        P(l, 0.01, 0, lo_open=True, doc="block side", unit="m"),
        P(rho, 5000.0, 0, lo_open=True, doc="density", unit="kg/m^3"),
        P(Y, 5e7, 0, lo_open=True, doc="Young's modulus (2D)", unit="kg/(m s^2)"),
        P(L.mu, 0.6, 0, doc="friction coefficient"),
        P(D, 1.5, 0, doc="normal damping prefactor D = gamma (eq 18, Table 1)"),
        P(damping, 1.0, 0, 1, doc="damping on (1) / off (0): normal D and tangential gamma_t"),
        P(kt_ratio, 2 / 7, 0, lo_open=True, doc="k_t / Y (Table 1: 2/7)"),
        P(gt_ratio, 0.25, 0, doc="gamma_t / sqrt(k_t m) (Table 1: 1/4; 0: no tangential damping)"),
        P(dt, 5e-6, 0, 1e-3, lo_open=True, doc="time step of the discrete schemes (Table 1)", unit="s"),
        P(y0, 0.0, hi=0.0, doc="initial normal position (0: touching, no overlap)", unit="m"),
        P(vx0, 0.0, doc="initial tangential velocity", unit="m/s"),
    )


@system("slope-block", ("coulomb", "cundall-strack"))
def slope_block(law: str):
    """Block on an inclined slope (Krengel & Matuttis §4, Table 1), translating only: the
    penalty normal law of eq 18 and, with ``F_N`` its force, exact Coulomb friction or
    the Cundall-Strack spring (eqs 19-20)."""
    if law == "coulomb":
        tangential = T.coulomb_static(params=())
    else:
        tangential = T.cundall_strack(k=K_T, gamma=GAMMA_T, params=())
    outputs = {"x_h": X_H}  # horizontal position of the contact face
    return couple(SLOPE, normal=SLOPE_NORMAL, tangential=tangential, name=f"slope-block/{law}",
                  params=_slope_params(), outputs=outputs, reference=f"{SLOPE_REFERENCE}; {tangential.reference}")


# -- Krengel & Matuttis §4 with rotation: the block rocks on its two lower corners --------
theta, omega = RB_THETA, RB_OMEGA
INERTIA = MASS * l ** 2 / 6              #: moment of inertia of the square per unit depth
SLOPE_ROT_GEOMETRY = RotatingBlock(x, y, vx, vy, MASS, INERTIA, l, ALPHA, corner_law=None)
#: eq 21 for the flat block touching the plane (y = 0, r_perp = l/2): 2/5 m
M_EFF_TAN = sp.cancel(SLOPE_ROT_GEOMETRY.effective_mass().subs(y, 0))  # a rational function: cancel is canonical
GAMMA_N_ROT = damping * D * sp.sqrt(Y * M_EFF_TAN)      #: eq 18 with m_eff,tan of eq 21
GAMMA_T_ROT = damping * gt_ratio * sp.sqrt(K_T * M_EFF_TAN)  #: Table 1 with m_eff,tan of eq 21
#: the normal law each corner carries: half of Y A/l and of eq 18's damping
SLOPE_CORNER_NORMAL = N.linear_spring_dashpot(k=Y / 2, gamma=GAMMA_N_ROT / 2, params=(), persistent=True)
SLOPE_ROT = RotatingBlock(x, y, vx, vy, MASS, INERTIA, l, ALPHA, corner_law=SLOPE_CORNER_NORMAL)


def slope_tangential(law: str, gamma_t, k_t=K_T):
    """The block's tangential law ``law`` (``coulomb``, ``cundall-strack`` with the
    incremental damping of eq 20, ``cundall-strack-viscous`` with ``-gamma_t v``), spring
    stiffness ``k_t`` (Table 1's by default)."""
    if law == "coulomb":
        return T.coulomb_static(params=())
    if law == "cundall-strack":
        return T.cundall_strack(k=k_t, gamma=gamma_t, params=())
    return T.cundall_strack_viscous(k_t, gamma_t, params=())


@system("slope-block-rotating", ("coulomb", "cundall-strack", "cundall-strack-viscous"))
def slope_block_rotating(law: str):
    """Rotating square block on an inclined slope, touching it at its two lower corners
    (Krengel & Matuttis §4 with rotation, eqs 18-22; :class:`~nsfric.papers.krengel_matuttis.polygon.RotatingBlock`):
    per-corner penalty normal law, one sliding surface ``v_t = vx + omega y_c`` shared by
    the two corner contacts, exact Coulomb friction or Cundall-Strack (incremental eq 20
    damping, or the instantaneous ``-gamma_t v``)."""
    tangential = slope_tangential(law, GAMMA_T_ROT)
    kin = SLOPE_ROT
    outputs = {"x_h": X_H,
               "F_n1": kin.corner_force(1), "F_n2": kin.corner_force(2),
               "d_1": kin.depth(1)[0], "d_2": kin.depth(2)[0],
               "v_t": kin.tangential_velocity, "m_eff_tan": kin.effective_mass()}
    return couple(kin, normal=SLOPE_CORNER_NORMAL, tangential=tangential, name=f"slope-block-rotating/{law}",
                  params=_slope_params(), outputs=outputs,
                  reference=f"{SLOPE_REFERENCE}, eqs 21-22 (rotation); {tangential.reference}")


@lru_cache(maxsize=8)
def slope_numbers(name: str = "slope-block") -> dict:
    """Table 1's derived values and the equilibrium quantities of the block ``name``
    (``slope-block`` or ``slope-block-rotating``), as expressions in the parameters.

    Derived from the coulomb model: the rest state's normal position ``y_eq`` solves
    ``dvy/dt = 0`` (``vx = vy = 0``, flat block); ``slide_acceleration`` is ``dvx/dt``
    of the ``slip+`` mode there and the critical angle its root in (0, 90) deg (the
    static-friction limit of the Filippov mode, ``lam = 0``); ``F_t_eq`` is the friction
    force of the static equilibrium (``dvx/dt = 0``; the stuck mode's force for the
    translating block); ``m_eff_tan`` is :func:`effective_mass` of the
    flat block touching the plane (eq 21).
    """
    from nsfric.symbolic.derive import derive

    rot = name == "slope-block-rotating"
    kin = SLOPE_ROT if rot else SLOPE
    d = derive((slope_block_rotating if rot else slope_block)("coulomb"))
    rest = {vx: 0, vy: 0, **({theta: 0, omega: 0} if rot else {})}
    rhs = {s: e.subs(rest) for s, e in zip(d.y, d.modes["slip+"].rhs)}
    (y_eq,) = sp.solve(sp.Eq(rhs[vy], 0), y)
    acc = sp.simplify(rhs[vx].subs(y, y_eq))
    crit = [r for r in sp.solve(acc, alpha) if r.subs(L.mu, 1).evalf() > 0]
    if len(crit) != 1:
        raise ValueError(f"{name}: expected one critical angle in (0, 90) deg, got {crit}")
    F_t = sp.Symbol("F_t", real=True)
    (F_t_eq,) = sp.solve(kin.rates(F_t, 0)[vx], F_t)
    F_n_eq = sp.simplify(d.modes["stick"].outputs["F_n"].subs(rest).subs(y, y_eq))
    return {
        "m": MASS, "I": INERTIA, "m_eff_tan": sp.simplify(effective_mass(kin).subs({y: 0, **rest})),
        "k_n": Y, "k_t": K_T, "gamma_t": GAMMA_T_ROT if rot else GAMMA_T,
        "c_n": GAMMA_N_ROT if rot else GAMMA_N,
        "omega_n": sp.sqrt(Y / MASS), "omega_t": sp.sqrt(K_T / MASS),
        "F_n_eq": F_n_eq, "y_eq": y_eq, "F_t_eq": F_t_eq, "cs_amplitude": -F_t_eq / K_T,
        "slide_acceleration": acc, "critical_angle": crit[0],
    }
