"""Partitioned schemes of DEM codes: semi-implicit (symplectic) Euler and velocity Verlet.

The states split into positions ``Q`` and velocities ``V`` (taken from the model: a
state whose rate, in some region, is another state is a position -- the spring
displacement ``xi`` with ``xi' = v`` while sticking).  Each half of the step is a
regular assignment of some components, adjusted by the law (a constrained evaluation
state sets the algebraic state of the assigned components by the reset map).
"""
from __future__ import annotations

import numpy as np

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


class VelocityVerletLammps(VelocityVerlet):
    """Velocity Verlet with the per-step rule of LAMMPS's ``fix nve/sphere`` and ``pair
    gran/hooke/history`` (``PairGranHookeHistory::compute``): the history is integrated
    with the half-step velocity, then capped and reset at the new positions.

    ``V_{1/2} = V_n + h/2 a_n`` (the velocities; the history is no velocity here);
    ``Q_{n+1} = Q_n + h V_{1/2}`` (``initial_integrate``); the history's trial increment
    ``xi* = xi_n + h xi'(Q_{n+1}, V_{1/2})`` with its sticking rate (the field's
    :meth:`~nsfric.schemes.field.DiscreteField.trial`: LAMMPS's ``shear += vtr dt``, the
    contact-point velocity of the half-step velocities at the new positions); the force
    ``a_{n+1} = f(Q_{n+1}, xi*, V_{1/2})``, capped by the law (a state beyond the cap is
    projected by the reset map), and the history *stored* reset to the cap,
    ``xi_{n+1} = reset(Q_{n+1}, xi*, V_{1/2})`` (LAMMPS: ``shear = -(F_t + meff gammat
    vtr)/kt`` with the capped ``F_t``); ``V_{n+1} = V_{1/2} + h/2 a_{n+1}``
    (``final_integrate``).  The force is reused as the next step's first kick.

    Where it differs from ``velocity-verlet``: that scheme keeps ``xi`` with the
    velocities or positions of the model's split and resets it in the assignment that
    evaluates a constrained state (the drift from ``u_{1/2}``), so its stored ``xi``
    may lie beyond the cap and the reset sees the next step's half-step velocity.
    ``frame``, optional: ``frame(u_old, u_new) -> factor``, the history's frame update
    before the increment, ``xi_n <- factor xi_n`` -- LAMMPS's projection of its
    lab-frame shear vector onto the new tangent plane is ``cos dtheta`` in planar motion
    (``dtheta`` the turn of the normal in the step;
    :func:`nsfric.adapters.lammps.shear_projection`).  The registered scheme has none:
    the scalar history of a model turns with its normal exactly, and the projection's
    ``xi dtheta^2/2`` per step vanishes as ``dt -> 0``.  Not copied: LAMMPS's zero
    tangential force when the history is exactly zero and the dashpot alone exceeds the
    cap (``shrmag == 0``); LAMMPS's contact test (a positive overlap) at the setup force:
    a state on the contact surface heading into it (a sphere starting to touch) gets the
    closed contact's force for the first half kick (docs/schemes.md).
    """

    name = "velocity-verlet-lammps"
    reference = ("LAMMPS fix nve/sphere + pair gran/hooke/history (github.com/lammps/lammps, "
                 "src/GRANULAR/pair_gran_hooke_history.cpp, PairGranHookeHistory::compute)")

    def __init__(self, frame=None, name=None):
        self.frame = frame
        if name is not None:
            self.name = name

    @staticmethod
    def _parts(field):
        if not hasattr(field, "trial"):  # a tracing field: no compiled kernel, per-member steps
            from .trace import Untraceable

            raise Untraceable("velocity-verlet-lammps needs the field's trial rates")
        H = field.histories()
        Q, V = (np.array([i for i in part if i not in H], dtype=int) for part in field.split)
        return Q, V, np.array(H, dtype=int)

    def start(self, field, t, u, h):
        self._parts(field)
        return field.f(u)

    def step(self, field, t, u, h, hist, record=None):
        Q, V, H = self._parts(field)
        a = hist if hist is not None else field.f(u)
        u_half, _ = field.apply(u, h / 2, a, V)
        u_drift = np.array(u_half, dtype=float)
        u_drift[Q] += h * field.trial(u_half).k[Q]
        if len(H):
            if self.frame is not None:
                u_drift[H] *= self.frame(u, u_drift)
            u_drift[H] += h * field.trial(u_drift).k[H]
        ev = field.f(u_drift)
        u_drift = field.return_map(u_drift, ev)
        u_new, _ = field.apply(u_drift, h / 2, ev, V)
        if record is not None:
            record.append((t + h / 2, u_half, 1))
            record.append((t + h, u_drift, 2))
        return u_new, ev


SYMPLECTIC_EULER = register_scheme(SymplecticEuler())
VELOCITY_VERLET = register_scheme(VelocityVerlet())
VELOCITY_VERLET_LAMMPS = register_scheme(VelocityVerletLammps())
