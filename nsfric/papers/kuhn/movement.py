"""Prescribed movements of a Kuhn-Suzuki-Daouadji contact: the tangential displacement in
the pair's co-rotating tangent plane, the overlap and the rigid rotation of the pair, on a
clock ``s`` in ``[0, 1]`` (see :mod:`nsfric.papers.kuhn.incremental`)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import sympy as sp
from scipy.spatial.transform import Rotation

#: the clock and the shape parameters of the symbolic movements (:attr:`Movement.shape`)
s_, d_1, d_2, radius_, zeta_0, dzeta_, omega, nu = sp.symbols("tau d_1 d_2 r zeta_0 dzeta omega nu", real=True)
#: shape -> (rate ``xi'`` (2-tuple), overlap ``zeta``), expressions in ``s_`` and the shape's parameters
SHAPES = {
    "straight": ((d_1, d_2), zeta_0 + s_ * dzeta_),
    "circle": ((-radius_ * omega * sp.sin(omega * s_), radius_ * omega * sp.cos(omega * s_)), zeta_0 + s_ * dzeta_),
    "figure_eight": ((radius_ * omega * sp.cos(omega * s_), radius_ * omega * sp.cos(2 * omega * s_)),
                     zeta_0 + dzeta_ * sp.sin(nu * s_)),
}


def _v(x):
    return np.asarray(x, dtype=float).reshape(3)


@dataclass
class Movement:
    """A prescribed contact movement on ``s in [0, 1]`` (see the module docstring).

    ``xi(s)``, ``xi_dot(s)``: (2,) body-frame tangential displacement and its rate;
    ``zeta(s)``, ``zeta_dot(s)``: overlap and rate; ``axis``, ``angle``: the pair turns
    rigidly by ``s * angle`` about the unit ``axis`` (space frame); ``f_t0``: (2,) initial
    tangential force in the body frame; ``body``: (3, 3) initial body -> space rotation.
    """

    xi: object
    xi_dot: object
    zeta: object
    zeta_dot: object
    f_t0: tuple = (0.0, 0.0)
    axis: tuple = (1.0, 0.0, 0.0)
    angle: float = 0.0
    body: np.ndarray = field(default_factory=lambda: np.eye(3))
    #: ``(name, {symbol: value})``: the movement as one of :data:`SHAPES` (None: not symbolic)
    shape: tuple = None

    def R(self, s):
        """Body -> space rotation at ``s`` (a scalar: (3, 3); an array of ``s``: (len, 3, 3))."""
        return Rotation.from_rotvec(np.multiply.outer(s, self.angle * _v(self.axis))).as_matrix() @ self.body

    @classmethod
    def straight(cls, dxi, zeta0=1.0, dzeta=0.0, f_t0=(0.0, 0.0), **kw):
        """``xi = s dxi``, ``zeta = zeta0 + s dzeta`` (eq 4 over the whole movement)."""
        d = np.asarray(dxi, float)
        shape = ("straight", {d_1: d[0], d_2: d[1], zeta_0: zeta0, dzeta_: dzeta})
        return cls(lambda s: s * d, lambda s: d, lambda s: zeta0 + s * dzeta, lambda s: dzeta,
                   tuple(f_t0), shape=shape, **kw)

    @classmethod
    def circle(cls, radius, zeta0=1.0, dzeta=0.0, turns=1.0, f_t0=(0.0, 0.0), **kw):
        """``xi = radius (cos 2 pi turns s - 1, sin 2 pi turns s)``, linear overlap."""
        w = 2 * np.pi * turns
        shape = ("circle", {radius_: radius, omega: w, zeta_0: zeta0, dzeta_: dzeta})
        return cls(lambda s: radius * np.array([np.cos(w * s) - 1, np.sin(w * s)]),
                   lambda s: radius * w * np.array([-np.sin(w * s), np.cos(w * s)]),
                   lambda s: zeta0 + s * dzeta, lambda s: dzeta, tuple(f_t0), shape=shape, **kw)

    @classmethod
    def figure_eight(cls, radius, zeta0=1.0, dzeta=0.0, cycles=1.0, turns=1.0, f_t0=(0.0, 0.0), **kw):
        """A figure eight (lemniscate of Gerono) in the tangent plane,
        ``xi = radius (sin w s, sin(2 w s)/2)`` with ``w = 2 pi turns``: both lobes are
        run through, the curvature changes sign at the crossing; the overlap loads and
        unloads, ``zeta = zeta0 + dzeta sin(2 pi cycles s)`` (must stay > 0)."""
        if not zeta0 - abs(dzeta) > 0:
            raise ValueError(f"zeta0 - |dzeta| must be > 0 (contact kept closed), got {zeta0 - abs(dzeta)}")
        w, v = 2 * np.pi * turns, 2 * np.pi * cycles
        shape = ("figure_eight", {radius_: radius, omega: w, zeta_0: zeta0, dzeta_: dzeta, nu: v})
        return cls(lambda s: radius * np.array([np.sin(w * s), np.sin(2 * w * s) / 2]),
                   lambda s: radius * w * np.array([np.cos(w * s), np.cos(2 * w * s)]),
                   lambda s: zeta0 + dzeta * np.sin(v * s), lambda s: dzeta * v * np.cos(v * s),
                   tuple(f_t0), shape=shape, **kw)
