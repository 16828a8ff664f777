"""The rotating block on the slope with one unilateral frictional contact per corner
(Krengel & Matuttis §4 with rotation, eqs 18, 21-22; Table 1): law ``coulomb-corners``
of the case ``slope-block-rotating``.

:class:`BlockCorners` -- the square block of :class:`~nsfric.papers.krengel_matuttis.polygon.RotatingBlock`
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

from nsfric.symbolic import laws as L
from nsfric.papers.krengel_matuttis import systems as S
from nsfric.symbolic.contacts import Body, Contact, ContactModel
from nsfric.symbolic.normal import linear_spring_dashpot

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
                   outputs={**{f"x_t_{i}": X for i, X in zip((1, 2), points)}, "x_h": S.X_H})
        self.add_outputs({f"m_eff_tan_{i}": self.effective_mass(i - 1) for i in (1, 2)})

    def initial_state(self, values: dict) -> np.ndarray:
        """The case's initial state rotated by ``theta0`` about the centre of mass, with
        the deepest corner's penetration ``-(y0 + h0)`` (``y0 <= 0``: pressed in; ``h0
        >= 0``: dropped from that height), ``vx = vx0``, spinning at ``omega0``."""
        from nsfric.symbolic.contacts import contact_quantities

        y = np.zeros(len(self.states))  # a spring model's springs start relaxed
        y[2], y[3], y[5] = values["theta0"], values["vx0"], values["omega0"]
        y[1] = values["y0"] + values["h0"] + max(contact_quantities(self, y, self.param_vector(values))["xi"])
        return y


#: the per-corner spring laws: law name -> the shared-surface law each corner halves
SPRING_LAWS = {"cundall-strack-corners": "cundall-strack",
               "cundall-strack-viscous-corners": "cundall-strack-viscous"}


def corner_spring_law(law: str):
    """The tangential spring law of one corner for ``law`` (:data:`SPRING_LAWS`): the
    shared-surface law's (Cundall-Strack, eqs 19-20, or with the instantaneous damping
    ``-gamma v``) with half its stiffness ``k_t`` and damping ``gamma_t`` (Table 1 with
    eq 21's ``m_eff,tan``), as each corner carries half of the normal law: the flat block
    on both corners with equal springs carries exactly the shared-surface law's force."""
    if law not in SPRING_LAWS:
        raise ValueError(f"law must be one of {sorted(SPRING_LAWS)}, got {law!r}")
    return S.slope_tangential(SPRING_LAWS[law], S.GAMMA_T_ROT / 2, S.K_T / 2)


class BlockCornerSprings(BlockCorners):
    """:class:`BlockCorners` with a Cundall-Strack spring per corner (eqs 19-20, or the
    instantaneous damping ``-gamma v``; :func:`corner_spring_law`) instead of exact
    static friction: law ``cundall-strack-corners`` (``-viscous-corners``).

    The springs ``xi_t_1, xi_t_2`` are states after ``q, v``: each is integrated with
    its corner's ``v_t,i`` while the corner sticks, projected onto ``|F_S| = mu F_n,i``
    while it slips and reset to 0 while its corner is open (lift-off).  Only the
    discrete schemes run it (:mod:`nsfric.schemes.corners`); it has no exact reference.

    Attributes
    ----------
    springs : tuple of sympy.Symbol
    spring_law : TangentialLaw
    spring_exprs : list
        Per corner, :func:`~nsfric.symbolic.contact_expressions.spring_slider_expressions` in
        ``(states, params)`` (8 per corner).
    """

    has_reference = False

    def __init__(self, law: str):
        from nsfric.symbolic import laws as L
        from nsfric.symbolic.contact_expressions import spring_slider_expressions

        super().__init__()
        self.name = f"slope-block-rotating/{law}"
        self.spring_law = corner_spring_law(law)
        self.springs = tuple(sp.Symbol(f"xi_t_{i}", real=True) for i in (1, 2))
        self.states = self.states + self.springs
        self.spring_exprs = []
        for k, xi in enumerate(self.springs):
            sub = {L.xi: xi, L.v: self.tangential_velocities[k], L.F_N: self.forces[k]}
            self.spring_exprs += spring_slider_expressions(self.spring_law, sub)

    def derived(self):
        """The output evaluator, with the spring law's forces."""
        from nsfric.symbolic.corner_forces import SpringOutputs

        return SpringOutputs(self)


@lru_cache(maxsize=16)
def block_corners(law: str = "coulomb-corners") -> BlockCorners:
    """The :class:`BlockCorners` model of ``law`` (built once): exact static friction
    (``coulomb-corners``) or a spring per corner (:data:`SPRING_LAWS`)."""
    return BlockCorners() if law == "coulomb-corners" else BlockCornerSprings(law)
