"""Watching a mode's numeric functions while an integrator calls them.

A law's expression can evaluate to NaN or infinity (a plug-in's ``0/0``, the ``log`` of
a negative, ``sp.nan``).  An integrator fed such values rejects its step and shrinks
it, and SciPy's step-size loop never ends when the initial step is already NaN; the
CPU-time budget of :class:`~nsfric.solvers.loop.Budget`, checked between steps, is
never reached.  :class:`FieldWatch` wraps the right-hand side (or a DAE residual) of one
mode:

* a non-finite value at the *first* evaluation (the segment's own start state, not a
  trial point of a step), in :data:`NONFINITE_RUN` consecutive evaluations (every
  trial point of many shrinking steps) or in :data:`NONFINITE_RUN` evaluations since
  the integrator last accepted a step (:meth:`FieldWatch.accepted`; a Newton iteration
  alternating finite and non-finite trials) raises :class:`~nsfric.errors.NonFiniteField`
  naming the law, the mode and the time;
* every :data:`CHECK_EVERY` evaluations the CPU-time budget is checked, so a solve
  stuck inside one step (stiffness, a failing Newton iteration) stops too.

A single non-finite trial value (a trial stage beyond the law's domain, e.g. a negative
Hertz overlap) is left to the integrator, which rejects that step.
"""
from __future__ import annotations

import math

import numpy as np

from ..errors import NonFiniteField

#: consecutive non-finite evaluations that end a run (a DOP853 step makes 12: about
#: 16 rejected trials in a row, the step shrunk by 0.2**16)
NONFINITE_RUN = 200
#: evaluations between two checks of the CPU-time budget (a few ms of work)
CHECK_EVERY = 64

__all__ = ["FieldWatch", "nonfinite_message", "NONFINITE_RUN", "CHECK_EVERY"]


def _finite(values) -> bool:
    try:
        return math.isfinite(sum(values))
    except TypeError:  # a nested or array result
        return bool(np.all(np.isfinite(np.asarray(values, dtype=float))))


def nonfinite_message(solver: str, law: str, what: str, mode, t: float, y, names, values) -> str:
    """One line: which function of which law and mode was not finite, when and where."""
    vals = np.atleast_1d(np.asarray(values, dtype=float))
    bad = ", ".join(f"{v:g}" for v in vals[~np.isfinite(vals)][:3])
    state = ", ".join(f"{n} = {float(v):.6g}" for n, v in zip(names, np.asarray(y, dtype=float)))
    return (f"{solver}: the {what} of law {law!r} is not finite ({bad}) in mode {mode!r} at t = {float(t):.6g}"
            f" ({state}); check the law's expressions (0/0, log or sqrt of a negative, nan) and its parameters")


class FieldWatch:
    """A mode's function ``f(y, p)`` as ``fun(t, y)``, watched (see module docstring).

    Parameters
    ----------
    f : callable ``f(y, p)`` (or ``f(*args)`` with ``args_of(t, y)``)
    p : parameter vector
    budget : :class:`~nsfric.solvers.loop.Budget` or None
    solver, law, mode, names : labels of the message (``names``: the state names)
    what : str, ``"right-hand side"`` or ``"residual"``
    """

    def __init__(self, f, p, budget, solver, law, mode, names, what="right-hand side"):
        self.f, self.p, self.budget = f, p, budget
        self.solver, self.law, self.mode, self.names, self.what = solver, law, mode, names, what
        self.calls = 0
        self.bad_run = 0
        self.bad_since = 0

    def accepted(self):
        """The integrator accepted a step: count the non-finite trials afresh."""
        self.bad_since = 0

    def __call__(self, t, y):
        return self.checked(t, y, self.f(y, self.p))

    def checked(self, t, y, values):
        """``values`` (the function at ``(t, y)``) after the checks."""
        self.calls += 1
        if self.budget is not None and self.calls % CHECK_EVERY == 0:
            self.budget.check(t)
        if _finite(values):
            self.bad_run = 0
            return values
        self.bad_run += 1
        self.bad_since += 1
        if self.calls == 1 or self.bad_run >= NONFINITE_RUN or self.bad_since >= NONFINITE_RUN:
            self.fail(t, y, values)
        return values

    def fail(self, t, y, values):
        raise NonFiniteField(nonfinite_message(self.solver, self.law, self.what, self.mode, t, y, self.names,
                                               values))


class GuardWatch:
    """A mode's guards ``gfun(y, p)`` (``y`` one state or states by column), refusing a
    non-finite value: a NaN guard never changes sign, so its mode would never be left.
    ``t`` (set by the caller: the start of the step being searched) labels the message."""

    def __init__(self, gfun, solver, law, mode, names):
        self.gfun, self.solver, self.law, self.mode, self.names = gfun, solver, law, mode, names
        self.t = math.nan

    def __call__(self, y, p):
        g = self.gfun(y, p)
        self._check(y, np.asarray(g, dtype=float))
        return g

    def one(self, y, p, i: int) -> float:
        """Guard ``i`` alone at one state ``y``, refused where it is not finite.

        The root search of one guard uses no other: at the located contact end (zero
        overlap) another guard may hold ``0 * inf`` (``d sqrt(|delta|)/dt``, Kuwabara-Kono)
        and is never needed there -- the contact end leaves the mode."""
        value = float(np.asarray(self.gfun(y, p), dtype=float)[i])
        self._check(y, np.array([value]))
        return value

    def _check(self, y, values):
        if not np.all(np.isfinite(values)):
            Y = np.asarray(y, dtype=float)
            if Y.ndim == 2:  # the first sample with a bad value
                col = 0
                if values.ndim == 2 and values.shape[1] == Y.shape[1]:
                    col = int(np.argmax((~np.isfinite(values)).any(axis=0)))
                Y = Y[:, col]
            raise NonFiniteField(nonfinite_message(self.solver, self.law, "guards", self.mode, self.t, Y,
                                                   self.names, values))
