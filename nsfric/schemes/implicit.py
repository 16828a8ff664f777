"""Implicit schemes: backward Euler and BDF2.

Each step is one implicit assignment ``u = base + c h f(u)`` solved by
:meth:`DiscreteField.solve`: Newton on the mode's DAE residual, the mode chosen by an
active set.  For the D-SDS the evaluation state is the new state itself, so a new state
beyond the friction limit is put on the surface by eq 3 *at the new state* -- the
"implicit D-SDS" of Führer et al. §3.3, which removes the stick-slip oscillation but
not the energy created by the reset.
"""
from __future__ import annotations

from .base import Scheme, register_scheme


class ImplicitEuler(Scheme):
    """Implicit (backward) Euler: order 1, L-stable, one implicit stage."""

    name = "implicit-euler"
    order = 1
    implicit = True
    reference = "Hairer & Wanner, Solving ODEs II, §IV.3"

    def step(self, field, t, u, h, hist, record=None):
        u_new, _ = field.solve(u, h, u)
        return u_new, hist


class BDF2(Scheme):
    """Two-step backward differentiation formula: order 2, A-stable, implicit.

    ``u_{n+1} = 4/3 u_n - 1/3 u_{n-1} + 2/3 h f(u_{n+1})``.  Its history is the previous
    state and mode; it is started, and restarted after every mode change or jump of
    the state (a step that put the state onto a constrained surface), by one backward
    Euler step with Richardson extrapolation, ``2 IE(h/2, h/2) - IE(h)`` (local error
    ``O(h^3)``, so a restart does not lower the order).
    """

    name = "bdf2"
    order = 2
    implicit = True
    multistep = True
    reference = "Krengel & Matuttis §4 (BDF2 for DEM with exact friction); Hairer & Wanner §V.1"

    def start_step(self, field, u, h):
        full, _ = field.solve(u, h, u)
        half, _ = field.solve(u, h / 2, u)
        two, mode = field.solve(half, h / 2, half)
        return 2 * two - full, mode

    def step(self, field, t, u, h, hist, record=None):
        if hist is None:
            u_new, mode = self.start_step(field, u, h)
        else:
            u_prev, prev_mode = hist
            u_new, mode = field.solve(4 / 3 * u - 1 / 3 * u_prev, 2 / 3 * h, 2 * u - u_prev)
            if mode != prev_mode:
                return u_new, None
        if field.jumped(mode, u):
            return u_new, None
        return u_new, (u, mode)


IMPLICIT_EULER = register_scheme(ImplicitEuler())
BDF2_SCHEME = register_scheme(BDF2())
