"""Block on an inclined slope, Krengel & Matuttis §4 (Table 1, Figs 2-5).

A square block of side ``l`` and density ``rho`` (2D: mass per unit depth
``m = rho l^2``) on a plane inclined by ``alpha``, placed parallel to the slope without
overlap, ``g = 9.81 m/s^2``.  Coordinates of the block's contact face: ``x`` along the
slope (downhill positive), ``y`` normal to it (positive away from the plane, the overlap
is ``-y``).  **Translation only**: the block stays parallel to the slope, so the
overlap area is ``A = l (-y)`` and the effective tangential mass is ``m`` (eq 21
without the rotational terms).

Normal contact, a penalty spring-dashpot: elastic force ``Y A / l = -Y y`` and the
damping of eq 18, ``-D sqrt(Y m) dA/dt / l = -D sqrt(Y m) vy`` with ``D = gamma`` of
Table 1.  The contact is kept bilateral: for the parameters of the paper the normal
force ``F_n`` never becomes negative (``D = 1.5`` is a damping ratio 0.75; without
damping the block touches ``y = 0`` with ``vy = 0`` once per normal period and
``F_n >= 0`` throughout) -- the tests assert ``F_n >= 0`` along the references.

Tangential contact (laws):

* ``coulomb`` -- dry Coulomb friction with exact static friction (K-M eqs 3-14): a
  Filippov sliding mode on ``g = vx`` with the state-dependent bound ``mu F_n``.  This
  is the paper's "DAE" friction, computed numerically exactly.
* ``cundall-strack`` -- the spring with cut-off of eqs 19-20 (module
  :mod:`nsfric.symbolic.cundall_strack`), ``k_t = 2/7 Y``,
  ``gamma_t = 1/4 sqrt(k_t m_eff,tan)`` (Table 1).

``damping`` (0 or 1, any value in [0, 1] is accepted) switches both the normal damping
``D`` and the tangential ``gamma_t`` on or off ("with and without damping", Figs 2-3);
``gt_ratio = 0`` removes only the tangential damping (the pure Cundall-Strack spring on
a damped normal contact, which oscillates about the equilibrium with amplitude
``m g sin(alpha)/k_t``).
``dt`` is the time step of the discrete schemes (Table 1: 5e-6 s); references ignore it.

Figures (``nsfric run slope-block``): :mod:`nsfric.cases.slope_block_figures`.
"""
from __future__ import annotations

import dataclasses

import sympy as sp

from ..symbolic import laws as L
from ..symbolic.cundall_strack import cundall_strack
from .base import Case, register_case

G = sp.Rational(981, 100)  #: gravity [m/s^2]
y, vx, vy = sp.symbols("y vx vy", real=True)
x = L.x
alpha, l, rho, Y, kt_ratio, dt = sp.symbols("alpha l rho Y kt_ratio dt", positive=True)
D, damping, gt_ratio = sp.symbols("D damping gt_ratio", nonnegative=True)
y0, vx0 = sp.symbols("y0 vx0", real=True)

MASS = rho * l ** 2                      #: block mass per unit depth [kg/m]
ALPHA = sp.pi * alpha / 180              #: slope angle [rad]
F_NORMAL = -Y * y - damping * D * sp.sqrt(Y * MASS) * vy   #: eq 18 with A = -l y
K_T = kt_ratio * Y                       #: Table 1: k_t = 2/7 Y
GAMMA_T = damping * gt_ratio * sp.sqrt(K_T * MASS)  #: Table 1: gamma_t = 1/4 sqrt(k_t m_eff,tan)


def _params():
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


def _coulomb_on_slope() -> L.Law:
    """The exact-static-friction law with ``v -> vx`` and ``F_N -> F_n(y, vy)``."""
    law = L.coulomb_static()
    subs = {L.v: vx, L.F_N: F_NORMAL}
    branches = {k: dataclasses.replace(b, F=sp.sympify(b.F).subs(subs)) for k, b in law.branches.items()}
    slidings = {k: dataclasses.replace(s, algebraic=vx) for k, s in law.slidings.items()}
    return dataclasses.replace(law, params=(), switching={k: e.subs(subs) for k, e in law.switching.items()},
                               branches=branches, slidings=slidings)


@register_case
class SlopeBlock(Case):
    """Block on a slope (Krengel & Matuttis §4); see the module docstring."""

    name = "slope-block"
    reference = "Krengel & Matuttis §4, eqs 18-20, Table 1, Figs 2-5"
    laws = ("coulomb", "cundall-strack")
    default_law = "coulomb"
    t_end = 0.02
    unit = "s"
    initial = {"y": "y0", "vx": "vx0"}
    state_units = {"x": "m", "y": "m", "vx": "m/s", "vy": "m/s", "xi": "m"}
    #: affine in every mode, but SymPy's exact expm of the damped 4x4 system is too costly
    closed_form = False

    def build(self, law: str):
        F_c = sp.Symbol("F_c")
        a = ALPHA
        mechanics = {x: vx, y: vy, vx: G * sp.sin(a) + F_c / MASS, vy: -G * sp.cos(a) + F_NORMAL / MASS}
        if law == "coulomb":
            base = _coulomb_on_slope()
        else:
            base = cundall_strack(velocity=vx, normal_force=F_NORMAL, k=K_T, gamma=GAMMA_T, params=())
        outputs = {
            "F_n": F_NORMAL,
            "x_h": x * sp.cos(a) + y * sp.sin(a),  # horizontal position of the contact face
        }
        return L.couple(base, f"{self.name}/{law}", mechanics, _params(), outputs,
                        reference=f"{self.reference}; {base.reference}")

    # -- numbers the figures and tests use -----------------------------------------
    @staticmethod
    def numbers(values: dict) -> dict:
        """Mass, stiffnesses, frequencies and the equilibrium quantities for ``values``."""
        import math

        m = values["rho"] * values["l"] ** 2
        a = math.radians(values["alpha"])
        g = float(G)
        k_n = values["Y"]
        k_t = values["kt_ratio"] * values["Y"]
        return {
            "m": m, "k_n": k_n, "k_t": k_t,
            "gamma_t": values["damping"] * values["gt_ratio"] * math.sqrt(k_t * m),
            "c_n": values["damping"] * values["D"] * math.sqrt(k_n * m),
            "omega_n": math.sqrt(k_n / m), "omega_t": math.sqrt(k_t / m),
            "F_n_eq": m * g * math.cos(a),
            "y_eq": -m * g * math.cos(a) / k_n,
            "cs_amplitude": m * g * math.sin(a) / k_t,   # m g sin(alpha) / k_t
            "slide_acceleration": g * (math.sin(a) - values["mu"] * math.cos(a)),
            "critical_angle": math.degrees(math.atan(values["mu"])),
        }

    def run(self, out_dir: str, progress=None) -> dict:
        from .slope_block_figures import run_all

        return run_all(self, out_dir, progress)
