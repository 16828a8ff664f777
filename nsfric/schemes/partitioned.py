"""Partitioned schemes of DEM codes: semi-implicit (symplectic) Euler and velocity Verlet.

The states split into positions ``Q`` and velocities ``V`` (taken from the model: a
state whose rate, in some region, is another state is a position -- the spring
displacement ``xi`` with ``xi' = v`` while sticking).  Each half of the step is a
regular assignment of some components, adjusted by the law (a constrained evaluation
state sets the algebraic state of the assigned components by the reset map).
"""
from __future__ import annotations

from .base import Scheme, register_scheme


class SymplecticEuler(Scheme):
    """Semi-implicit (symplectic) Euler, velocities first: order 1, symplectic.

    ``V_{n+1} = V_n + h f_V(Q_n, V_n)``, then ``Q_{n+1} = Q_n + h f_Q(Q_n, V_{n+1})``
    (the update of LAMMPS-style codes: forces from the old positions, positions moved
    with the new velocities).
    """

    name = "symplectic-euler"
    order = 1
    symplectic = True
    reference = "Hairer, Lubich & Wanner, Geometric Numerical Integration, Thm VI.3.3"

    def step(self, field, t, u, h, hist, record=None):
        Q, V = field.split
        u1, _, _ = field.assign(u, h, u, V)
        if record is not None:
            record.append((t + h, u1, 1))
        u2, _, _ = field.assign(u1, h, u1, Q)
        return u2, hist


class VelocityVerlet(Scheme):
    """Velocity Verlet (kick-drift-kick): order 2 for position-dependent forces,
    order 1 when forces depend on velocity; symplectic for Hamiltonian forces.

    ``V_{1/2} = V_n + h/2 a_n``; ``Q_{n+1} = Q_n + h f_Q(Q_n, V_{1/2})``;
    ``a_{n+1} = f_V(Q_{n+1}, V_{1/2})``; ``V_{n+1} = V_{1/2} + h/2 a_{n+1}``.  As in DEM
    codes (LAMMPS), the force of the last kick is computed with the half-step velocity
    and reused as the first kick of the next step (first same as last): two field
    evaluations per step.  With a damping force the last kick lags by ``h/2`` in the
    velocity, which costs one order.
    """

    name = "velocity-verlet"
    order = 2
    symplectic = True
    reference = "Swope, Andersen, Berens & Wilson, J. Chem. Phys. 76, 637 (1982); LAMMPS fix nve"

    @property
    def damped_order(self):
        return 1

    def start(self, field, t, u, h):
        return field.f(u)

    def step(self, field, t, u, h, hist, record=None):
        Q, V = field.split
        a = hist if hist is not None else field.f(u)
        u_half, _ = field.apply(u, h / 2, a, V)
        u_drift, _, _ = field.assign(u_half, h, u_half, Q)
        ev = field.f(u_drift)
        u_new, _ = field.apply(u_drift, h / 2, ev, V)
        if record is not None:
            record.append((t + h / 2, u_half, 1))
            record.append((t + h, u_drift, 2))
        return u_new, ev

    def rescale(self, hist, ratio):
        return hist  # the stored force does not depend on the step


SYMPLECTIC_EULER = register_scheme(SymplecticEuler())
VELOCITY_VERLET = register_scheme(VelocityVerlet())
