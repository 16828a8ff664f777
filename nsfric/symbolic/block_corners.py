"""The rotating block on the slope with one unilateral frictional contact per corner
(Krengel & Matuttis §4 with rotation, eqs 18, 21-22; Table 1): law ``coulomb-corners``
of the case ``slope-block-rotating``.

:class:`BlockCorners` -- the square block of :class:`~nsfric.symbolic.polygon.RotatingBlock`
(the same states ``x, y, theta, vx, vy, omega``, parameters and Table 1 values, ``I =
m l^2/6``) as a :class:`~nsfric.symbolic.contacts.ContactModel`: one rigid body and two
contacts, its lower corners ``1`` (uphill) and ``2`` (downhill).  Derived from the
geometry of :class:`RotatingBlock`:

* **normal**: corner ``i``'s penetration ``d_i = -(y_c + r_i,y)`` (``r_i`` the corner
  relative to the centre of mass) is the overlap ``xi``; it carries half of Table 1's
  elastic law ``Y A/l`` and half of eq 18's damping, ``F_n = (Y/2) d_i + (gamma_n/2)
  dd_i/dt`` -- RotatingBlock's corner law, so the flat block on both corners carries
  exactly RotatingBlock's normal force.  Unlike RotatingBlock's persistent corners a
  corner here is **unilateral**, with the pile's rule: a closed corner opens where its
  repulsive force ``F_n`` reaches zero (Schäfer's force-end criterion: the dashpot never
  pulls); an open corner closes where both ``d_i`` and ``F_n`` turn positive.
* **tangential**: the contact point is the corner's material point; its velocity along
  the plane ``v_t,i = d/dt (x + r_i,x) = vx - omega r_i,y`` (derived by differentiation,
  ``omega x r``) is each corner's own sliding velocity with its own stick/slip mode and
  exact Coulomb friction ``|F_t,i| <= mu F_n,i``.  Since ``-r_i,y = y_c + d_i``, this is
  RotatingBlock's shared ``v_t = vx + omega y_c`` plus ``omega d_i``: the two models
  differ by the ``omega d`` terms (tested).
* eq 21's reduced tangential mass of corner ``i`` is ``(J_t M^-1 J_t^T)^-1 = (1/m +
  r_i,y^2/I)^-1`` (:meth:`~nsfric.symbolic.contacts.ContactModel.effective_mass`),
  ``0.4 m`` for the flat block touching the plane; eq 22's external force enters as the
  relative acceleration ``J_t M^-1 f + c_t`` the stuck corners' forces cancel.

With both corners stuck the tangential positions of both corner points are fixed, which
locks ``x`` and (for a tilted block, ``x_2 - x_1 = l cos theta``) the rotation: the
stuck block only moves along the normal.  For the exactly flat block the two corners'
``J_t`` rows coincide (the statically indeterminate pair): the multi-contact solver
shares their force by the minimum-norm solution.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import sympy as sp

from . import laws as L
from . import systems as S
from .contacts import Body, Contact, ContactModel
from .normal import linear_spring_dashpot

theta0, omega0, h0 = sp.symbols("theta0 omega0 h0", real=True)
REFERENCE = ("Krengel & Matuttis §4 with rotation, eqs 18, 21-22, Table 1: one contact per corner, "
             "exact static friction; Schäfer et al. eq 2 (normal force, force-end)")


def _params():
    extra = (L.P(h0, 0.0, 0, doc="initial height of the lowest corner above the plane (drop)", unit="m"),
             L.P(theta0, 0.0, -0.5, 0.5, doc="initial rotation (counter-clockwise)", unit="rad"),
             L.P(omega0, 0.0, doc="initial spin", unit="rad/s"))
    return S._slope_params() + extra


class BlockCorners(ContactModel):
    """The rotating square block with one unilateral frictional contact per lower corner
    (see the module docstring).

    Attributes
    ----------
    geometry : RotatingBlock
        The shared geometry (corners, penetrations) of the case's other laws.
    corner_points : tuple of expressions
        ``x + r_i,x``: the tangential coordinate of corner ``i``'s material point.
    """

    #: the stuck corners' rows of ``J_t`` are nearly parallel (they differ by ``l sin theta``):
    #: their forces amplify rounding, so the event-driven steps are projected onto ``J_S v = 0``
    project_steps = True
    #: the states span 1e-8 m (y) to 1e-2 rad/s (omega): the event-driven reference's absolute
    #: tolerance as the case's other references (``reference_atol``)
    default_tolerances = {"events": {"atol": 1e-12}}

    def __init__(self):
        geo = S.SLOPE_ROT
        self.geometry = geo
        q, v = geo.states[:3], geo.states[3:]
        rate = dict(zip(q, v))
        points, contacts = [], []
        for i in (1, 2):
            X = S.x + geo.corner(i)[0]
            v_t = sum(sp.diff(X, s) * rate[s] for s in q)
            points.append(X)
            contacts.append(Contact(str(i), "corner", geo.depth(i)[0], v_t))
        self.corner_points = tuple(points)
        law = linear_spring_dashpot(end="force", k=S.Y / 2, gamma=S.GAMMA_N_ROT / 2, params=())
        a = S.ALPHA
        self.setup(name="slope-block-rotating/coulomb-corners", reference=REFERENCE, params=_params(),
                   bodies=(Body(q, v, S.MASS, S.INERTIA, centre=(S.x, geo.y_c)),), contacts=contacts, law=law,
                   external=(S.MASS * S.G * sp.sin(a), -S.MASS * S.G * sp.cos(a), 0), accel_scale=S.G,
                   outputs={f"x_t_{i}": X for i, X in zip((1, 2), points)})
        self.add_outputs({f"m_eff_tan_{i}": self.effective_mass(i - 1) for i in (1, 2)})

    def initial_state(self, values: dict) -> np.ndarray:
        """The case's initial state rotated by ``theta0`` about the centre of mass, with
        the deepest corner's penetration ``-(y0 + h0)`` (``y0 <= 0``: pressed in; ``h0
        >= 0``: dropped from that height), ``vx = vx0``, spinning at ``omega0``."""
        from .contacts import contact_quantities

        y = np.array([0.0, 0.0, values["theta0"], values["vx0"], 0.0, values["omega0"]])
        y[1] = values["y0"] + values["h0"] + max(contact_quantities(self, y, self.param_vector(values))["xi"])
        return y


@lru_cache(maxsize=None)
def block_corners() -> BlockCorners:
    """The one :class:`BlockCorners` model (built once)."""
    return BlockCorners()
