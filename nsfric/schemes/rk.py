"""Explicit Runge-Kutta schemes as data, written as Führer et al. Appendix A writes them.

A scheme is its Butcher tableau ``(A, b, c)`` and its order.  To apply a law's
adjustment stage by stage, the step is rewritten as a sequence of *regular
assignments* of auxiliary states,

    u_i = u^n + alpha_i h f(u_{src(i)}),        u_0 = u^n,

followed by a linear combination ``u^{n+1} = sum_i w_i u_i`` (Führer et al. eqs 22-28).
This *assignment form* is used with a field whose adjustment sets states
(``field.stagewise``, :class:`DiscreteField`).
Stage ``j`` of the tableau is the state at which ``k_j`` is evaluated; each ``k_j`` with
``b_j != 0`` enters the combination through the first auxiliary state built from it,
or through an extra auxiliary state ``u^n + aux h k_j`` if no stage uses it, with
weight ``b_j / alpha``.  Each assignment is adjusted by the law
(:meth:`DiscreteField.apply`): when ``u_{src(i)}`` slides on a constrained mode, the
algebraic state of ``u_i`` is set by the reset map (D-SDS eq 3), not integrated.  For
RK4 this gives exactly eqs 22-24 (with ``aux = 1/2``: ``u_4 = u^n + f(u_3) h/2``), for
the midpoint rule eqs 25-26 and for Heun eqs 27-28.  Without adjustments the rewriting
is an identity (tested against the tableau).

A field whose adjustment acts on the *rates* only (``field.stagewise = False``: the
delta approximation of Krengel & Matuttis, :mod:`nsfric.schemes.delta`) is stepped in
the *tableau form* ``k_i = f(u^n + h sum_j a_ij k_j)``,
``u^{n+1} = u^n + (h/D) sum_j (D b_j) k_j`` with ``D`` the common denominator of the
``b_j`` (Heun: ``u^n + h/2 (k_1 + k_2)``; RK4: ``u^n + h/6 (k_1 + 2k_2 + 2k_3 + k_4)``).
The two forms are the same method and differ by rounding only.
"""
from __future__ import annotations

from fractions import Fraction
from math import lcm

import numpy as np

from .base import Scheme, register_scheme


class ExplicitRK(Scheme):
    """Explicit Runge-Kutta scheme given by its tableau (see module docstring).

    Parameters
    ----------
    name : str
    A, b, c : tableau (sequences of numbers or Fractions)
    order : int
    aux : coefficient of an auxiliary state for a slope used by no stage
    reference : str
    """

    def __init__(self, name, A, b, c, order, aux=1, reference="", doc=""):
        self.name = name
        self.A = [[Fraction(x) for x in row] for row in A]
        self.b = [Fraction(x) for x in b]
        self.c = [Fraction(x) for x in c]
        self.order = order
        self.aux = Fraction(aux)
        self.reference = reference
        self.__doc__ = doc or type(self).__doc__
        self.assignments, self.weights = self._rewrite()
        self._alpha = [float(a) for a, _ in self.assignments]
        self._src = [s for _, s in self.assignments]
        self._w = [float(w) for w in self.weights]
        # an assignment that *is* the new state (weight 1, all others 0) is no auxiliary state
        final = [i for i, w in enumerate(self.weights) if w == 1]
        self._final = final[0] if len(final) == 1 and sum(abs(w) for w in self.weights) == 1 else -1
        den = lcm(*(b.denominator for b in self.b))
        self._den = float(den)
        self._nb = [float(b * den) for b in self.b]
        self._a = [[(j, float(a)) for j, a in enumerate(row[:i]) if a != 0] for i, row in enumerate(self.A)]

    @property
    def stages(self) -> int:
        return len(self.b)

    def _rewrite(self):
        """Assignments ``(alpha_i, src_i)`` and combination weights ``w`` (exact)."""
        s = len(self.b)
        assignments = []          # auxiliary states u_1, u_2, ...
        state_of_stage = {0: 0}   # tableau stage j -> index of the state where k_j is evaluated
        first_use = {}            # j -> (state index, alpha) of the first state built from k_j
        for i in range(1, s):
            nz = [(j, a) for j, a in enumerate(self.A[i][:i]) if a != 0]
            if len(nz) > 1:
                raise ValueError(f"{self.name}: stage {i} combines several slopes; "
                                 "it has no assignment form (Führer et al. Appendix A)")
            if not nz:  # the stage state is u^n itself
                state_of_stage[i] = 0
                continue
            j, a = nz[0]
            assignments.append((a, state_of_stage[j]))
            state_of_stage[i] = len(assignments)
            first_use.setdefault(j, (len(assignments), a))
        weights = [Fraction(0)] * (len(assignments) + 1)
        for j, bj in enumerate(self.b):
            if bj == 0:
                continue
            if j not in first_use:
                assignments.append((self.aux, state_of_stage[j]))
                weights.append(Fraction(0))
                first_use[j] = (len(assignments), self.aux)
            k, alpha = first_use[j]
            weights[k] += bj / alpha
        weights[0] = 1 - sum(weights[1:])
        return assignments, weights

    def step(self, field, t, u, h, hist, record=None):
        if not getattr(field, "stagewise", True):
            return self.tableau_step(field, t, u, h, record), hist
        states = [u]
        for i, (alpha, src) in enumerate(zip(self._alpha, self._src)):
            ui, _, _ = field.assign(u, alpha * h, states[src])
            states.append(ui)
            if record is not None and i + 1 != self._final:
                record.append((t + alpha * h, ui, i + 1))
        out = self._w[0] * u
        for w, ui in zip(self._w[1:], states[1:]):
            if w:
                out = out + w * ui
        return out, hist

    def tableau_step(self, field, t, u, h, record=None):
        """One step in the tableau form (see module docstring); the stage states are
        recorded as auxiliary states."""
        ks = []
        for i, row in enumerate(self._a):
            y = u
            for j, a in row:
                y = y + (a * h) * ks[j]
            if record is not None and i:
                record.append((t + float(self.c[i]) * h, y, i))
            ks.append(field.f(y).k)
        acc = None
        for nb, k in zip(self._nb, ks):
            if nb:
                acc = nb * k if acc is None else acc + nb * k
        return u + (h / self._den) * acc

    def butcher_step(self, f, u, h):
        """Plain tableau step ``u + h sum b_j k_j`` (for testing the rewriting)."""
        ks = []
        for i in range(len(self.b)):
            y = u + h * sum((float(a) * k for a, k in zip(self.A[i], ks)), np.zeros_like(u))
            ks.append(f(y))
        return u + h * sum(float(bj) * k for bj, k in zip(self.b, ks))


_H = Fraction(1, 2)

EULER = register_scheme(ExplicitRK(
    "euler", [[0]], [1], [0], 1,
    reference="Führer et al. eq 18 (with the D-SDS adjustment)",
    doc="Explicit (forward) Euler: order 1, one stage, not symplectic."))
MIDPOINT = register_scheme(ExplicitRK(
    "midpoint", [[0, 0], [_H, 0]], [0, 1], [0, _H], 2,
    reference="Führer et al. eqs 25-26",
    doc="Explicit midpoint rule: order 2, two stages; the half-step state only enters "
        "through its slope, so its adjustment is lost (Führer et al. Fig 4)."))
HEUN = register_scheme(ExplicitRK(
    "heun", [[0, 0], [1, 0]], [_H, _H], [0, 1], 2,
    reference="Führer et al. eqs 27-28",
    doc="Heun's method (explicit trapezoidal, predictor-corrector): order 2, two stages."))
RK4 = register_scheme(ExplicitRK(
    "rk4", [[0, 0, 0, 0], [_H, 0, 0, 0], [0, _H, 0, 0], [0, 0, 1, 0]],
    [Fraction(1, 6), Fraction(1, 3), Fraction(1, 3), Fraction(1, 6)], [0, _H, _H, 1], 4, aux=_H,
    reference="Führer et al. eqs 22-24",
    doc="Classical Runge-Kutta: order 4, four stages, in the auxiliary-state form of "
        "Führer et al. eqs 22-24."))
