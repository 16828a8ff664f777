"""Kinematics: the states of a contact and the relative velocities the laws act on.

A kinematics object declares its states and parameters, supplies the arguments of the
laws -- the relative tangential velocity :attr:`~Kinematics.tangential_velocity` (a
scalar or a vector in the tangential plane), the overlap and its rate -- and, given the
contact forces, the rates of its states (:meth:`~Kinematics.rates`).  This is how a
force enters the mechanics; :func:`~nsfric.symbolic.coupling.couple` puts a kinematics
and its laws together.

* :class:`Slider` -- one body sliding on a fixed surface (1D, or in the tangential plane
  with vector velocity), optional spring ``-k x`` and external force: the sliding plates
  and the dry-friction oscillator; along the normal, the normal impact.
* :class:`SlopeBlock` -- a translating block on an inclined plane under gravity
  (Krengel & Matuttis §4).
* :class:`PlanarDiscs` -- two discs in the plane that translate and rotate; contact
  normal from the positions, contact-point velocity with ``omega x r``.
* :class:`PrescribedContact` -- a contact whose relative motion is prescribed in a clock
  ``tau`` (the tangential plane with vector ``xi``; Kuhn et al.'s prescribed movements).
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from .laws import P, m, v

ZERO = sp.Integer(0)


def _tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


class Kinematics:
    """Interface of a kinematics object (see the module docstring).

    Attributes: ``states`` (tuple of symbols), ``params`` (tuple of Param),
    ``tangential_velocity`` (expression or tuple, or None), ``overlap`` and
    ``overlap_rate`` (expressions, or None where no normal law can act).
    """

    states: tuple = ()
    params: tuple = ()
    tangential_velocity = None
    #: the state tied to a sliding surface ``v_t = 0`` when ``v_t`` is not a state itself
    sliding_state = None
    overlap = None
    overlap_rate = None

    def rates(self, F_t, F_n) -> dict:
        """State symbol -> rate, given the tangential law's force ``F_t`` (scalar, tuple
        or 0) and the normal law's force ``F_n`` on the overlap coordinate (or 0)."""
        raise NotImplementedError

    def generalized(self, F_n, q):
        """The normal force's generalized component on ``q``: ``F_n d(overlap)/dq``."""
        return ZERO if self.overlap is None else F_n * sp.diff(self.overlap, q)


@dataclass(frozen=True)
class Slider(Kinematics):
    """A body of ``mass`` sliding on a fixed surface: ``mass dv/dt = F + f_ext - k x``.

    ``velocity``/``position`` are symbols (or tuples of symbols in the tangential plane;
    ``position`` may be None when no spring acts); ``stiffness`` is the spring ``k`` (or
    None), ``external`` the external force (tuple in the plane).  Coupled to a normal
    law, ``position`` is the overlap and ``velocity`` its rate (the normal impact).
    """

    velocity: object = v
    position: object = None
    mass: object = m
    stiffness: object = None
    external: object = 0
    params: tuple = ()

    @property
    def states(self):
        return (_tuple(self.position) if self.position is not None else ()) + _tuple(self.velocity)

    @property
    def tangential_velocity(self):
        return self.velocity

    @property
    def overlap(self):
        return self.position

    @property
    def overlap_rate(self):
        return self.velocity if self.position is not None else None

    def rates(self, F_t, F_n):
        vel, n = _tuple(self.velocity), len(_tuple(self.velocity))
        pos = _tuple(self.position) if self.position is not None else (None,) * n
        F_t = _tuple(F_t) if F_t != 0 else (ZERO,) * n
        ext = _tuple(self.external) if self.external != 0 else (ZERO,) * n
        out = {p: w for p, w in zip(pos, vel) if p is not None}
        for w, p, f, e in zip(vel, pos, F_t, ext):
            spring = ZERO if (self.stiffness is None or p is None) else -self.stiffness * p
            normal = ZERO if p is None else self.generalized(F_n, p)
            out[w] = sp.Add(f, normal, spring, e) / self.mass
        return out


@dataclass(frozen=True)
class SlopeBlock(Kinematics):
    """A translating block on a slope inclined by ``angle`` (Krengel & Matuttis §4).

    ``x`` along the slope (downhill), ``y`` normal to it (``y < 0``: penetration, so the
    overlap is ``-y``), velocities ``vx``, ``vy``; gravity ``g``; ``mass`` may be an
    expression in the parameters.
    """

    x: sp.Symbol
    y: sp.Symbol
    vx: sp.Symbol
    vy: sp.Symbol
    mass: object
    angle: object
    g: object = sp.Rational(981, 100)
    params: tuple = ()

    @property
    def states(self):
        return (self.x, self.y, self.vx, self.vy)

    @property
    def tangential_velocity(self):
        return self.vx

    @property
    def overlap(self):
        return -self.y

    @property
    def overlap_rate(self):
        return -self.vy

    def rates(self, F_t, F_n):
        a, M = self.angle, self.mass
        return {self.x: self.vx, self.y: self.vy, self.vx: self.g * sp.sin(a) + F_t / M,
                self.vy: -self.g * sp.cos(a) + self.generalized(F_n, self.y) / M}


@dataclass(frozen=True)
class PlanarDiscs(Kinematics):
    """Two discs in the plane that translate and rotate (Schäfer et al. §3, Fig 7).

    States per disc ``i``: ``x_i, y_i, vx_i, vy_i, omega_i``; parameters ``m_i, I_i,
    R_i``.  The contact normal points from disc 1 to disc 2, ``n = (r_2 - r_1)/|r_2 -
    r_1|``, the tangent is ``t = e_z x n``; overlap ``xi = R_1 + R_2 - |r_2 - r_1|``.  Both
    forces act at the common contact point ``c = r_1 + l_1 n = r_2 - l_2 n`` with the
    arms ``l_i = R_i - xi/2``, so momentum and angular momentum are conserved exactly;
    the relative tangential velocity of the material points there (``omega x r``) is
    ``v_t = (v_2 - v_1).t - (l_1 omega_1 + l_2 omega_2)``.  The tangential force ``F_t``
    acts on disc 2 along ``t`` (on disc 1 against it), with torques ``-l_i F_t``.

    The lever arm is a convention (DEM codes differ): ``arm_overlap`` (a number or a
    symbol of the model's parameters) is the share of the half overlap taken off the
    radius, ``l_i = R_i - arm_overlap xi/2``.  The default 1 is the common contact point
    above; 0 gives the radius itself, ``l_i = R_i`` (the contact-point velocity and the
    torque then refer to a point inside the other disc, and angular momentum is
    conserved only up to ``O(xi F_t)``).  The same arm serves the contact-point velocity
    and the torque, so the tangential force does work ``F_t v_t`` on the pair whatever
    the arm -- unless ``torque_arm_shift`` (a number or a symbol, default 0) moves the
    torque's arm alone to ``R_i - (arm_overlap + torque_arm_shift) xi/2``: LAMMPS's ``pair
    granular`` takes ``R_i`` for the velocity and ``R_i - xi/2`` for the torque
    (``arm_overlap = 0``, ``torque_arm_shift = 1``), arms that are not work-conjugate.
    """

    params: tuple = ()
    arm_overlap: object = 1
    torque_arm_shift: object = 0

    def __post_init__(self):
        syms = {}
        for i in (1, 2):
            syms[i] = sp.symbols(f"x_{i} y_{i} vx_{i} vy_{i} omega_{i}", real=True)
        object.__setattr__(self, "_s", syms)
        object.__setattr__(self, "_p", sp.symbols("m_1 m_2 I_1 I_2 R_1 R_2", positive=True))
        if not self.params:
            m1, m2, I1, I2, R1, R2 = self._p
            mass, radius = 1.48e-4, 3e-3  # cellulose acetate (Schäfer et al. §2)
            object.__setattr__(self, "params", (
                P(m1, mass, 0, lo_open=True, doc="mass of disc 1", unit="kg"),
                P(m2, mass, 0, lo_open=True, doc="mass of disc 2", unit="kg"),
                P(I1, 0.4 * mass * radius ** 2, 0, lo_open=True, doc="moment of inertia of disc 1", unit="kg m^2"),
                P(I2, 0.4 * mass * radius ** 2, 0, lo_open=True, doc="moment of inertia of disc 2", unit="kg m^2"),
                P(R1, radius, 0, lo_open=True, doc="radius of disc 1", unit="m"),
                P(R2, radius, 0, lo_open=True, doc="radius of disc 2", unit="m")))

    @property
    def sliding_state(self):
        """The state solved from ``v_t = 0`` in a sliding (sticking) mode: ``omega_2``."""
        return self._s[2][4]

    def body(self, i):
        """``(x, y, vx, vy, omega)`` of disc ``i``."""
        return self._s[i]

    @property
    def states(self):
        return self._s[1] + self._s[2]

    def geometry(self):
        """``(n, t, d)``: contact normal, tangent and centre distance."""
        (x1, y1, *_), (x2, y2, *_) = self._s[1], self._s[2]
        d = sp.sqrt((x2 - x1) ** 2 + (y2 - y1) ** 2)
        n = ((x2 - x1) / d, (y2 - y1) / d)
        return n, (-n[1], n[0]), d

    def arms(self):
        """``(l_1, l_2)``: the lever arms ``l_i = R_i - arm_overlap xi/2``."""
        R1, R2 = self._p[4], self._p[5]
        shift = self.arm_overlap * self.overlap / 2
        return R1 - shift, R2 - shift

    def torque_arms(self):
        """``(l_1, l_2)`` of the torques: :meth:`arms` moved by ``torque_arm_shift xi/2``."""
        l1, l2 = self.arms()
        shift = self.torque_arm_shift * self.overlap / 2
        return l1 - shift, l2 - shift

    def _dv(self):
        b1, b2 = self._s[1], self._s[2]
        return (b2[2] - b1[2], b2[3] - b1[3])

    @property
    def overlap(self):
        return self._p[4] + self._p[5] - self.geometry()[2]

    @property
    def overlap_rate(self):
        n, _, _ = self.geometry()
        dv = self._dv()
        return -(dv[0] * n[0] + dv[1] * n[1])

    @property
    def tangential_velocity(self):
        _, t, _ = self.geometry()
        dv = self._dv()
        l1, l2 = self.arms()
        return dv[0] * t[0] + dv[1] * t[1] - (l1 * self._s[1][4] + l2 * self._s[2][4])

    def rates(self, F_t, F_n):
        m1, m2, I1, I2 = self._p[:4]
        _, t, _ = self.geometry()
        l1, l2 = self.torque_arms()
        out = {}
        for i, mass, inertia, sign, arm in ((1, m1, I1, -1, l1), (2, m2, I2, 1, l2)):
            x, y, vx, vy, w = self._s[i]
            out[x], out[y] = vx, vy
            out[vx] = (self.generalized(F_n, x) + sign * F_t * t[0]) / mass
            out[vy] = (self.generalized(F_n, y) + sign * F_t * t[1]) / mass
            out[w] = -arm * F_t / inertia
        return out


tau = sp.Symbol("tau", real=True)


@dataclass(frozen=True)
class PrescribedContact(Kinematics):
    """A contact whose relative motion is prescribed in the clock ``tau`` (``dtau/dt = 1``).

    ``velocity`` is the relative tangential velocity (an expression, or its components
    in a tangential basis) and ``overlap`` the overlap, both expressions in ``tau`` and
    the parameters; the contact forces do not feed back on the motion.  Use
    :meth:`from_3d` for a relative velocity and a normal given in 3D.
    """

    velocity: object
    overlap: object = None
    params: tuple = ()

    @property
    def states(self):
        return (tau,)

    @property
    def tangential_velocity(self):
        return self.velocity

    @property
    def overlap_rate(self):
        return None if self.overlap is None else sp.diff(self.overlap, tau)

    def rates(self, F_t, F_n):
        return {tau: sp.Integer(1)}

    @classmethod
    def from_3d(cls, u, n, t1, overlap=None, params=()):
        """From a 3D relative velocity ``u``, the unit normal ``n`` and a unit tangent
        ``t1`` (all 3-tuples of expressions in ``tau``): the components of ``u`` along
        ``t1`` and ``t2 = n x t1`` (the tangential plane)."""
        U, N, T1 = (sp.Matrix(a) for a in (u, n, t1))
        T2 = N.cross(T1)
        return cls((U.dot(T1), U.dot(T2)), overlap, tuple(params))
