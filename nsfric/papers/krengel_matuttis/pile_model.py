"""A pile of three rotating discs in a box, every contact with exact static friction
(Krengel & Matuttis §3 for several contacts; the exact multi-contact reference ``km-pile``).

:class:`DiscPile` -- discs 1 and 2 on the floor ``y = 0`` between two walls ``x = -+W``,
disc 3 on top of them; rigid 2D discs of mass ``m``, radius ``R`` and moment of inertia
``I = m R^2/2`` (a solid disc per unit depth), states ``x_i, y_i, theta_i`` (``q``) and
``vx_i, vy_i, omega_i`` (``v = dq/dt``).  Six contacts (``CONTACTS``): each bottom disc
with the floor and with its wall, disc 3 with each bottom disc.

A :class:`~nsfric.symbolic.contacts.ContactModel`: the geometry is declared here, and
everything the numerics need is derived from it symbolically
(:meth:`~nsfric.symbolic.contacts.ContactModel.setup`):

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
into one function of ``(y, p)``; :func:`~nsfric.symbolic.contacts.field` assembles a
mode's field from it (re-exported here with the other shared functions).

**Why the walls.**  With the floor and the two disc-disc contacts alone (three discs,
four contacts) the pile with every contact stuck keeps a mechanism: all three discs roll
together (``vx`` equal, bottom discs at ``omega = -vx/R``, the top one at ``+vx/R``)
without deforming any contact, so no dashpot damps it and any horizontal momentum left
makes the pile roll for ever (:func:`stuck_mechanisms` finds it; tested).  The walls'
two contacts lock it: the stuck pile's rigid motions are only the trivial one.
"""
from __future__ import annotations

import numpy as np
import sympy as sp

from nsfric.symbolic.contacts import (OPEN, SLIP_MINUS, SLIP_PLUS, SLIP_SIGN, STICK, Body, Contact,  # noqa: F401 (re-exported)
                       ContactModel, compiled, contact_quantities, dependent_contacts, external_force, field,
                       free_force, mass_vector, mode_arrays, stuck_mechanisms)
from nsfric.symbolic.laws import P, mu
from nsfric.symbolic.normal import linear_spring_dashpot

#: contact names: (name, kind, body i, body j or plane)
CONTACTS = (("1-floor", "plane", 1, "floor"), ("2-floor", "plane", 2, "floor"),
            ("1-wall", "plane", 1, "left"), ("2-wall", "plane", 2, "right"),
            ("3-1", "disc", 1, 3), ("3-2", "disc", 2, 3))

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


class DiscPile(ContactModel):
    """Three rotating discs in a box with six frictional contacts (see the module docstring):
    a :class:`~nsfric.symbolic.contacts.ContactModel`.

    Attributes
    ----------
    states : tuple of Symbol, ``q`` then ``v`` (18)
    params : tuple of Param
    contacts : tuple of str, the contact names
    overlaps, rates, tangential_velocities : tuple of expressions, one per contact
    forces : tuple of expressions, the repulsive normal force ``F_n`` of each contact
    """

    #: the pile is dropped: every contact starts open
    starts_open = True

    def __init__(self):
        bodies = []
        for i in (1, 2, 3):
            q = sp.symbols(f"x_{i} y_{i} theta_{i}", real=True)
            v = sp.symbols(f"vx_{i} vy_{i} omega_{i}", real=True)
            bodies.append(Body(q, v, m, m * R ** 2 / 2))
        self.bodies = tuple(bodies)
        W = (a + 1) * R
        planes = {"floor": ((0, 0), (0, 1)), "left": ((-W, 0), (1, 0)), "right": ((W, 0), (-1, 0))}
        contacts = [plane_contact(name, self.body(i), *planes[j]) if kind == "plane"
                    else disc_contact(name, self.body(i), self.body(j)) for name, kind, i, j in CONTACTS]
        b = sp.pi * beta / 180
        self.setup(name="km-pile/coulomb", reference=REFERENCE, params=_params(), bodies=bodies,
                   contacts=contacts, law=linear_spring_dashpot(end="force", params=()),
                   external=(m * g * sp.sin(b), -m * g * sp.cos(b), 0) * 3, accel_scale=g)

    def external_force(self, values: dict) -> np.ndarray:
        """``f_ext`` evaluated as the pile's reference numbers were first computed (numpy's
        ``radians``; the symbolic ``external`` to rounding, tested)."""
        b = np.radians(values["beta"])
        return np.tile([values["m"] * values["g"] * np.sin(b), -values["m"] * values["g"] * np.cos(b), 0.0], 3)

    def body(self, i: int):
        """``((x, y), (vx, vy, omega))`` of disc ``i``."""
        b = self.bodies[i - 1]
        return b.q[:2], b.v

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


def plane_contact(name, body, p, n, radius=R) -> Contact:
    """Disc ``body = ((x, y), (vx, vy, omega))`` of radius ``radius`` on the plane through
    ``p`` with inner normal ``n``: overlap ``R - (r - p).n``, ``v_t`` of the disc's
    material point at the contact along ``t = (-n_y, n_x)`` (arm ``R - xi/2``)."""
    ri, vi = body
    xi = radius - ((ri[0] - p[0]) * n[0] + (ri[1] - p[1]) * n[1])
    t, arm = (-n[1], n[0]), radius - xi / 2
    return Contact(name, "plane", xi, vi[0] * t[0] + vi[1] * t[1] - arm * vi[2])


def disc_contact(name, body_i, body_j, radius=R) -> Contact:
    """Discs ``i`` and ``j`` of radius ``radius``: overlap ``2R - |r_j - r_i|``, ``v_t``
    of ``j``'s material point relative to ``i``'s along the normal turned by +90 deg
    (arms ``R - xi/2``)."""
    (ri, vi), (rj, vj) = body_i, body_j
    d = sp.sqrt((rj[0] - ri[0]) ** 2 + (rj[1] - ri[1]) ** 2)
    xi = 2 * radius - d
    t, arm = (-(rj[1] - ri[1]) / d, (rj[0] - ri[0]) / d), radius - xi / 2
    return Contact(name, "disc", xi, (vj[0] - vi[0]) * t[0] + (vj[1] - vi[1]) * t[1] - arm * (vi[2] + vj[2]))


def gravity_vector(model: DiscPile, values: dict) -> np.ndarray:
    """Generalized gravity force ``m g (sin beta, -cos beta, 0)`` per disc (the box tilted
    by ``beta``): the model's ``f_ext``."""
    return external_force(model, values)
