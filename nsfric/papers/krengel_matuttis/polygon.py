"""Kinematics of a rotating square block on a slope, touching it at its two lower corners
(Krengel & Matuttis §4 with rotation; the contacts of §5, eqs 21-22).

:class:`RotatingBlock` -- a rigid square of side ``l`` (mass ``m``, moment of inertia
``I``) on a plane inclined by ``alpha``, states ``x, y, theta, vx, vy, omega``: ``x``
along the slope (downhill) and ``y`` normal to it locate the centre of the lower face
of the unrotated block (the centre of mass is at height ``y_c = y + l/2`` above the
plane), ``theta`` is the rotation (counter-clockwise).  It touches the plane at its two
lower corners (body coordinates ``(-+l/2, -l/2)``):

* **normal**: each corner ``i`` carries the normal law on its own penetration
  ``d_i = -(y_c + r_i,y)`` and its rate ``dd_i/dt = -(vy + omega r_i,x)`` (``r_i`` the
  corner relative to the centre of mass), the force acting normal to the plane at the
  corner.  With the per-corner law ``F = -(Y/2) d - (gamma_n/2) dd/dt`` the two
  corners of the flat block carry ``Y A/l`` and eq 18's damping (``A = l (d_1 + d_2)/2``);
* **tangential**: one contact per corner, at the corner's foot on the plane.  The
  material points of the block on the plane line all move with the tangential velocity
  ``v_t = vx + omega y_c`` (``omega x r`` with ``r_y = -y_c``), so both corner contacts
  share one sliding surface ``v_t = 0``: they stick and slip together, and the total
  friction force ``F_t`` (bounded by ``mu (F_n1 + F_n2)``) is split between them in
  proportion to their normal forces -- the only split that keeps each corner inside
  its own Coulomb bound ``mu F_ni`` up to the common limit (the two contacts are
  statically indeterminate otherwise).  Its arm about the centre of mass is ``y_c``;
* the reduced tangential mass of the contact (eq 21) is ``(1/m + y_c^2/I)^-1``
  (``r_perp = y_c``), ``0.4 m`` for the flat square touching the plane; in the
  Filippov indicators ``sigma = grad v_t . f`` the relative acceleration of eq 22
  appears as it is (``f_ext/m_eff,tan``).
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from nsfric.symbolic.kinematics import Kinematics

theta, omega = sp.symbols("theta omega", real=True)


@dataclass(frozen=True)
class RotatingBlock(Kinematics):
    """A rotating square block on a slope, in contact at its two lower corners (see module).

    Parameters
    ----------
    x, y, vx, vy : sympy.Symbol
        Position of the lower face's centre of the unrotated block (along / normal to the
        plane) and the velocities of the centre of mass.
    mass, inertia, side, angle : sympy expressions
        ``m``, ``I``, ``l`` and the inclination in radians; ``g`` gravity.
    corner_law : NormalLaw
        The (persistent, one-branch) normal law each corner carries on its penetration.
    """

    x: sp.Symbol
    y: sp.Symbol
    vx: sp.Symbol
    vy: sp.Symbol
    mass: object
    inertia: object
    side: object
    angle: object
    corner_law: object
    g: object = sp.Rational(981, 100)
    params: tuple = ()

    @property
    def states(self):
        return (self.x, self.y, theta, self.vx, self.vy, omega)

    @property
    def sliding_state(self):
        """The state solved from ``v_t = 0`` in the stuck mode: ``vx``."""
        return self.vx

    @property
    def y_c(self):
        """Height of the centre of mass above the plane."""
        return self.y + self.side / 2

    def corner(self, i: int):
        """``r_i = (r_x, r_y)``: corner ``i`` (1: uphill, 2: downhill) relative to the
        centre of mass."""
        u, w = (-1 if i == 1 else 1) * self.side / 2, -self.side / 2
        return (u * sp.cos(theta) - w * sp.sin(theta), u * sp.sin(theta) + w * sp.cos(theta))

    def depth(self, i: int):
        """Penetration ``d_i`` of corner ``i`` and its rate."""
        rx, ry = self.corner(i)
        return -(self.y_c + ry), -(self.vy + omega * rx)

    def corner_force(self, i: int):
        """Repulsive normal force of corner ``i``: minus the corner law's force on ``d_i``."""
        d, dd = self.depth(i)
        law = self.corner_law
        (branch,) = law.branches.values()
        return -branch.F.xreplace({law.overlap: d, law.rate: dd})

    @property
    def overlap(self):
        """``d_1 + d_2``: with a linear corner law its force is the sum of the corners'."""
        return self.depth(1)[0] + self.depth(2)[0]

    @property
    def overlap_rate(self):
        return self.depth(1)[1] + self.depth(2)[1]

    @property
    def tangential_velocity(self):
        return self.vx + omega * self.y_c

    def effective_mass(self):
        """Reduced tangential mass of the contact, eq 21 (one body, ``r_perp = y_c``)."""
        return 1 / (1 / self.mass + self.y_c ** 2 / self.inertia)

    def rates(self, F_t, F_n):
        """Newton-Euler of the block; ``F_n`` (the law on ``d_1 + d_2``) is the sum of the
        corner forces, which act at the corners (their moments need them one by one)."""
        a, m, I = self.angle, self.mass, self.inertia
        F1, F2 = self.corner_force(1), self.corner_force(2)
        torque = self.y_c * F_t + self.corner(1)[0] * F1 + self.corner(2)[0] * F2
        return {self.x: self.vx, self.y: self.vy, theta: omega,
                self.vx: self.g * sp.sin(a) + F_t / m,
                self.vy: -self.g * sp.cos(a) + (F1 + F2) / m,
                omega: torque / I}


def corner_law_is_linear(block: RotatingBlock) -> bool:
    """True when the corner law's force is linear in ``(xi, v)`` (then the law on
    ``d_1 + d_2`` is exactly the sum of the corner forces)."""
    law = block.corner_law
    (branch,) = law.branches.values()
    F, args = sp.expand(branch.F), (law.overlap, law.rate)
    return (all(sp.diff(F, a, b) == 0 for a in args for b in args)
            and F.xreplace({a: 0 for a in args}) == 0)
