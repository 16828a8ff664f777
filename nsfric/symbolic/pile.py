"""A pile of three rotating discs in a box, every contact with exact static friction
(Krengel & Matuttis §3 for several contacts; the exact multi-contact reference ``km-pile``).

:class:`DiscPile` -- discs 1 and 2 on the floor ``y = 0`` between two walls ``x = -+W``,
disc 3 on top of them; rigid 2D discs of mass ``m``, radius ``R`` and moment of inertia
``I = m R^2/2`` (a solid disc per unit depth), states ``x_i, y_i, theta_i`` (``q``) and
``vx_i, vy_i, omega_i`` (``v = dq/dt``).  Six contacts (``CONTACTS``): each bottom disc
with the floor and with its wall, disc 3 with each bottom disc.

Everything the numerics need is derived here symbolically from the geometry:

* the overlap ``xi`` of each contact (disc-plane ``R - (r - p).n``, disc-disc
  ``2R - |r_j - r_i|``) and its generalized gradient ``J_n = dxi/dq`` (``dxi/dt = J_n v``);
* the normal force: the repulsive force ``F_n = -F`` of Schäfer's linear spring-dashpot
  (eq 2, :func:`~nsfric.symbolic.normal.linear_spring_dashpot`, ending at zero force) on
  ``(xi, dxi/dt)``, acting along ``-J_n``;
* the relative tangential velocity of the material points at the contact point (arms
  ``l = R - xi/2`` as in :class:`~nsfric.symbolic.kinematics.PlanarDiscs`, ``omega x r``),
  ``v_t = J_t v``, its Jacobian ``J_t = dv_t/dv`` and ``c_t = (dJ_t/dt) v`` (so
  ``dv_t/dt = J_t dv/dt + c_t``).  A tangential force ``F_t`` acts as ``J_t^T F_t``
  (power ``F_t v_t``: momentum and angular momentum are exchanged consistently).

Compiled with the project's code generator (:func:`~nsfric.symbolic.codegen.generate`)
into one function of ``(y, p)``; :func:`field` assembles a mode's field from it.

**Why the walls.**  With the floor and the two disc-disc contacts alone (three discs,
four contacts) the pile with every contact stuck keeps a mechanism: all three discs roll
together (``vx`` equal, bottom discs at ``omega = -vx/R``, the top one at ``+vx/R``)
without deforming any contact, so no dashpot damps it and any horizontal momentum left
makes the pile roll for ever (:func:`stuck_mechanisms` finds it; tested).  The walls'
two contacts lock it: the stuck pile's rigid motions are only the trivial one.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import sympy as sp

from .codegen import generate
from .laws import P, mu
from .model import HybridModel
from .normal import linear_spring_dashpot

#: contact names: (name, kind, body i, body j or plane)
CONTACTS = (("1-floor", "plane", 1, "floor"), ("2-floor", "plane", 2, "floor"),
            ("1-wall", "plane", 1, "left"), ("2-wall", "plane", 2, "right"),
            ("3-1", "disc", 1, 3), ("3-2", "disc", 2, 3))
#: mode characters of one contact
OPEN, STICK, SLIP_PLUS, SLIP_MINUS = "o", "s", "+", "-"
SLIP_SIGN = {SLIP_PLUS: 1.0, SLIP_MINUS: -1.0}

m, R, g, a, k_n, gamma_n = sp.symbols("m R g a k_n gamma_n", positive=True)
beta = sp.Symbol("beta", real=True)
h_1, h_3, s_w, dx_3, w_3 = sp.symbols("h_1 h_3 s_w dx_3 w_3", real=True)
REFERENCE = ("Krengel & Matuttis (2016) §3 (exact static friction as constraints, several contacts); "
             "Schäfer, Dippel & Wolf (1996) eq 2 (normal force)")


def _params():
    return (
        P(k_n, 5e3, 0, lo_open=True, doc="normal stiffness (every contact)", unit="N/m"),
        P(gamma_n, 40.0, 0, doc="normal damping (every contact)", unit="kg/s"),
        P(mu, 0.5, 0, doc="friction coefficient (every contact)"),
        P(m, 0.05, 0, lo_open=True, doc="disc mass", unit="kg"),
        P(R, 0.01, 0, lo_open=True, doc="disc radius", unit="m"),
        P(g, 9.81, 0, doc="gravity", unit="m/s^2"),
        P(beta, 5.0, 0, 30, hi_open=True, doc="tilt of the box (gravity leans towards wall 2)", unit="deg"),
        P(a, 1.2, 1.0, 2.0, lo_open=True, hi_open=True,
          doc="half distance of the bottom discs' centres at the walls, in R (walls at x = -+(a + 1) R)"),
        P(h_1, 1e-5, 0, doc="drop height of the bottom discs (gap to the floor)", unit="m"),
        P(s_w, 2e-4, 0, doc="initial gap between a bottom disc and its wall", unit="m"),
        P(h_3, 2e-4, 0, doc="drop height of disc 3 above touching the bottom discs", unit="m"),
        P(dx_3, 5e-4, doc="initial horizontal offset of disc 3 from the middle", unit="m"),
        P(w_3, 5.0, doc="initial spin of disc 3 (omega_3 at t = 0)", unit="rad/s"),
    )


class DiscPile:
    """Three rotating discs in a box with six frictional contacts (see the module docstring).

    Attributes
    ----------
    states : tuple of Symbol, ``q`` then ``v`` (18)
    params : tuple of Param
    contacts : tuple of str, the contact names
    overlaps, rates, tangential_velocities : tuple of expressions, one per contact
    forces : tuple of expressions, the repulsive normal force ``F_n`` of each contact
    """

    def __init__(self):
        self.law = linear_spring_dashpot(end="force", params=())
        self.name = "km-pile/coulomb"
        self.reference = REFERENCE
        self.params = _params()
        q, v = [], []
        for i in (1, 2, 3):
            q += sp.symbols(f"x_{i} y_{i} theta_{i}", real=True)
            v += sp.symbols(f"vx_{i} vy_{i} omega_{i}", real=True)
        self.q, self.v = tuple(q), tuple(v)
        self.states = self.q + self.v
        self.n = len(self.q)
        self.contacts = tuple(c[0] for c in CONTACTS)
        self.K = len(CONTACTS)
        W = (a + 1) * R
        planes = {"floor": ((0, 0), (0, 1)), "left": ((-W, 0), (1, 0)), "right": ((W, 0), (-1, 0))}
        xis, vts = [], []
        for _, kind, i, j in CONTACTS:
            ri, vi = self.body(i)
            if kind == "plane":
                p, n = planes[j]
                xi = R - ((ri[0] - p[0]) * n[0] + (ri[1] - p[1]) * n[1])
                t, arm = (-n[1], n[0]), R - xi / 2
                vt = vi[0] * t[0] + vi[1] * t[1] - arm * vi[2]
            else:
                rj, vj = self.body(j)
                d = sp.sqrt((rj[0] - ri[0]) ** 2 + (rj[1] - ri[1]) ** 2)
                xi = 2 * R - d
                t, arm = (-(rj[1] - ri[1]) / d, (rj[0] - ri[0]) / d), R - xi / 2
                vt = (vj[0] - vi[0]) * t[0] + (vj[1] - vi[1]) * t[1] - arm * (vi[2] + vj[2])
            xis.append(xi)
            vts.append(vt)
        rate = dict(zip(self.q, self.v))
        self.overlaps = tuple(xis)
        self.J_n = tuple(tuple(sp.diff(xi, s) for s in self.q) for xi in xis)
        self.rates = tuple(sum(J * w for J, w in zip(row, self.v)) for row in self.J_n)
        self.tangential_velocities = tuple(vts)
        self.J_t = tuple(tuple(sp.diff(vt, w) for w in self.v) for vt in vts)
        self.c_t = tuple(sum(sp.diff(vt, s) * rate[s] for s in self.q) for vt in vts)
        F = self.law.branches["contact"].F
        self.forces = tuple(-F.xreplace({self.law.overlap: xi, self.law.rate: r})
                            for xi, r in zip(self.overlaps, self.rates))
        self.mass = (m, m, m * R ** 2 / 2) * 3
        self.output_names = (("E_kin", "x_com", "y_com")
                             + tuple(f"{k}_{c}" for k in ("F_n", "F_t", "ratio", "v_t", "xi")
                                     for c in self.contacts))

    # -- the HybridModel interface Solution and the cases use (the same code, borrowed) --------
    state_names = HybridModel.state_names
    param_names = HybridModel.param_names
    param = HybridModel.param
    bind = HybridModel.bind
    param_vector = HybridModel.param_vector

    def body(self, i: int):
        """``((x, y), (vx, vy, omega))`` of disc ``i``."""
        k = 3 * (i - 1)
        return self.q[k:k + 2], self.v[k:k + 3]

    def derived(self):
        """The output evaluator :class:`~nsfric.solution.Solution` asks for."""
        return _PileOutputs(self)

    # -- initial state ----------------------------------------------------------------------
    def initial_state(self, values: dict) -> np.ndarray:
        """Bottom discs ``h_1`` above the floor and ``s_w`` from their walls, disc 3
        ``h_3`` above touching them, shifted by ``dx_3`` and spinning at ``w_3``;
        at rest otherwise."""
        r, x_b = values["R"], (values["a"] * values["R"] - values["s_w"])
        y_b = r + values["h_1"]
        x3 = values["dx_3"]
        y3 = y_b + np.sqrt(4 * r ** 2 - (x_b - abs(x3)) ** 2) + values["h_3"]
        q = [-x_b, y_b, 0.0, x_b, y_b, 0.0, x3, y3, 0.0]
        v = [0.0] * 8 + [values["w_3"]]
        return np.array(q + v, dtype=float)


@lru_cache(maxsize=None)
def compiled(model: DiscPile):
    """One generated function ``(y, p) -> [xi, F_n, v_t, c_t, J_n (K x n), J_t (K x n)]``."""
    flat = (list(model.overlaps) + list(model.forces) + list(model.tangential_velocities) + list(model.c_t)
            + [e for row in model.J_n for e in row] + [e for row in model.J_t for e in row])
    return generate(flat, (model.states, [p.symbol for p in model.params]), backend="math")


def contact_quantities(model: DiscPile, y, p) -> dict:
    """The compiled contact quantities at ``y``: ``xi, F_n, v_t, c_t`` (K,), ``J_n, J_t`` (K, n)."""
    K, n = model.K, model.n
    out = compiled(model)(y, p)
    return {"xi": out[:K], "F_n": out[K:2 * K], "v_t": out[2 * K:3 * K], "c_t": out[3 * K:4 * K],
            "J_n": out[4 * K:4 * K + K * n].reshape(K, n), "J_t": out[4 * K + K * n:].reshape(K, n)}


def mass_vector(model: DiscPile, values: dict) -> np.ndarray:
    """The diagonal of the mass matrix ``M`` (``m, m, I`` per disc)."""
    sub = {p.symbol: values[p.name] for p in model.params}
    return np.array([float(e.subs(sub)) for e in model.mass])


@lru_cache(maxsize=None)
def mode_arrays(mode: str):
    """``(closed, slip, S)`` of ``mode``: 1.0 where a contact is closed, the sliding sign
    ``s`` (0 where not sliding) and the indices of the stuck contacts."""
    closed = np.array([ch != OPEN for ch in mode], dtype=float)
    slip = np.array([SLIP_SIGN.get(ch, 0.0) for ch in mode])
    return closed, slip, [i for i, ch in enumerate(mode) if ch == STICK]


def free_force(c: dict, mode: str, gravity, mu_value: float):
    """``(f, F_t)``: the generalized force of gravity, of the closed contacts' normal forces
    and of the sliding contacts' Coulomb forces ``F_t = -mu F_n s`` (stuck contacts'
    ``F_t`` zero here), from the contact quantities ``c``."""
    closed, slip, _ = mode_arrays(mode)
    F_n = closed * c["F_n"]
    F_t = -mu_value * F_n * slip
    return gravity - c["J_n"].T @ F_n + c["J_t"].T @ F_t, F_t


def field(model: DiscPile, y, p, Minv, gravity, mode: str, mu_value: float, dependent: bool = False):
    """The field of ``mode`` at ``y``: ``(dy/dt, lam, F_t, c)``.

    ``mode`` has one character per contact: ``o`` open, ``s`` stuck, ``+``/``-`` sliding
    with ``v_t`` of that sign (``F_t = -mu F_n sign(v_t)``).  The stuck contacts' forces
    ``lam`` (``F_t`` there) come from one linear system, ``(J_S M^-1 J_S^T) lam =
    -(J_S M^-1 f + c_S)`` (``dv_t/dt = 0`` on every stuck contact, Krengel & Matuttis
    eq 9 for several contacts); with ``dependent`` (the stuck contacts' rows of ``J_t``
    are linearly dependent, :func:`dependent_contacts`) the minimum-norm least-squares
    solution.  ``c`` are the contact quantities.
    """
    n = model.n
    c = contact_quantities(model, y, p)
    f, F_t = free_force(c, mode, gravity, mu_value)
    S = mode_arrays(mode)[2]
    lam = np.zeros(model.K)
    if S:
        J = c["J_t"][S]
        A = (J * Minv) @ J.T
        rhs = -(J @ (Minv * f) + c["c_t"][S])
        lam_S = np.linalg.lstsq(A, rhs, rcond=1e-12)[0] if dependent else np.linalg.solve(A, rhs)
        lam[S] = lam_S
        F_t[S] = lam_S
        f = f + J.T @ lam_S
    dy = np.concatenate([y[n:], Minv * f])
    return dy, lam, F_t, c


def dependent_contacts(model: DiscPile, y, p, Minv, S) -> list:
    """The stuck contacts ``S`` whose rows of ``J_t`` depend on the others at ``y`` (empty
    when ``J_S M^-1 J_S^T`` is regular): the minimum-norm solution shares their force."""
    if not S:
        return []
    J = contact_quantities(model, y, p)["J_t"][list(S)]
    A = (J * Minv) @ J.T
    if np.linalg.cond(A) < 1e10:
        return []
    s, V = np.linalg.eigh(A)
    null = V[:, s < 1e-10 * s.max()]
    return [S[k] for k in range(len(S)) if np.any(np.abs(null[k]) > 1e-8)]


def gravity_vector(model: DiscPile, values: dict) -> np.ndarray:
    """Generalized gravity force ``m g (sin beta, -cos beta, 0)`` per disc (the box tilted
    by ``beta``)."""
    b = np.radians(values["beta"])
    return np.tile([values["m"] * values["g"] * np.sin(b), -values["m"] * values["g"] * np.cos(b), 0.0], 3)


def stuck_mechanisms(model: DiscPile, y, p, contacts) -> int:
    """Dimension of the rigid motions of the pile with ``contacts`` (indices) stuck and
    their overlaps kept: the null space of ``[J_n; J_t]`` over those contacts at ``y``."""
    c = contact_quantities(model, y, p)
    A = np.vstack([c["J_n"][list(contacts)], c["J_t"][list(contacts)]])
    s = np.linalg.svd(A, compute_uv=False)
    return model.n - int(np.sum(s > 1e-10 * s.max()))


class _PileOutputs:
    """``outputs(mode) -> (names, f(Y, p))``: kinetic energy, centre of mass and per contact
    ``F_n, F_t, |F_t|/(mu F_n), v_t, xi`` (forces zero where the contact is open)."""

    def __init__(self, model: DiscPile):
        self.model = model

    def outputs(self, mode: str):
        model = self.model
        names = list(model.output_names)

        def out(Y, p):
            values = dict(zip(model.param_names, p))
            Minv, grav = 1.0 / mass_vector(model, values), gravity_vector(model, values)
            Y = np.asarray(Y, dtype=float)
            cols = []
            for y in (Y.T if Y.ndim == 2 else [Y]):
                _, _, F_t, c = field(model, y, p, Minv, grav, mode, values["mu"])
                closed = np.array([ch != OPEN for ch in mode])
                F_n = np.where(closed, c["F_n"], 0.0)
                ratio = np.where(F_n > 0, np.abs(F_t) / (values["mu"] * np.where(F_n > 0, F_n, 1.0)), 0.0)
                vel = y[model.n:]
                E = 0.5 * float(np.sum(vel ** 2 / Minv))
                com = (float(np.mean(y[0:9:3])), float(np.mean(y[1:9:3])))
                cols.append(np.concatenate([[E, *com], F_n, F_t, ratio, c["v_t"], c["xi"]]))
            arr = np.array(cols).T
            return arr if Y.ndim == 2 else arr[:, 0]
        return names, out
