"""Dense output of the DAE solvers: the solver's own interpolant on every internal step.

IDA's interpolant on a step is the BDF polynomial of the step's order ``q <= 5``
(``IDAGetDky``); Radau5's is the collocation polynomial of degree 3 (``CONTR5``).  Both
are available only while the step is the solver's last, so each step is sampled when
the solver reports it: the values at the six Chebyshev-Lobatto points
``theta_j = (1 - cos(j pi/5))/2`` of the step (its two ends are the step points
themselves, the four inner ones come from the solver's interpolant).  A polynomial of
degree <= 5 is fixed by its values there, so :class:`StepPolynomials` (Lagrange form on
those points) *is* the solver's own interpolant, of the order of the method, whatever
sample times were asked for.  One more sample at each step's midpoint measures how well
it is reproduced (:attr:`StepPolynomials.error`, ``Solution.stats["dense_error"]``).
A step the solver cannot interpolate any more (none is known) falls back to the cubic
Hermite polynomial through the step points' ``(y, y')``.
"""
from __future__ import annotations

import numpy as np

#: the sample points of a step, as fractions of it
THETA = (1.0 - np.cos(np.arange(6) * np.pi / 5)) / 2
#: where the reproduction is checked
CHECK = 0.5
#: what ``Solution.info["dense_output"]`` says
DESCRIPTION = ("the solver's own interpolant on every internal step (IDA: the BDF polynomial of the step's "
               "order; Radau5: the collocation polynomial), sampled at 6 points per step; stats['dense_error'] "
               "is its largest deviation from the solver's interpolant at the steps' midpoints")


def lagrange(theta) -> np.ndarray:
    """The Lagrange basis on :data:`THETA` at ``theta`` (shape ``(len(theta), 6)``)."""
    theta = np.asarray(theta, dtype=float)[:, None]
    out = np.ones((theta.shape[0], len(THETA)))
    for j, tj in enumerate(THETA):
        for i, ti in enumerate(THETA):
            if i != j:
                out[:, j] *= (theta[:, 0] - ti) / (tj - ti)
    return out


def sample_step(solver, t0: float, t1: float, n: int):
    """The solver's interpolant on its last step ``[t0, t1]``: the first ``n`` components
    at the inner points of :data:`THETA` (shape ``(n, 4)``) and at :data:`CHECK`
    (shape ``(n,)``), or ``None`` where the solver cannot interpolate there."""
    try:
        Y = [np.asarray(solver.interpolate(t0 + th * (t1 - t0)), dtype=float)[:n]
             for th in (*THETA[1:-1], CHECK)]
    except Exception:  # noqa: BLE001 - outside the solver's last step: the Hermite fallback
        return None
    return np.array(Y[:-1]).T, Y[-1]


def _hermite(y0, d0, y1, d1, h, theta):
    th = np.asarray(theta, dtype=float)
    return (np.multiply.outer(y0, (1 + 2 * th) * (1 - th) ** 2) + np.multiply.outer(h * d0, th * (1 - th) ** 2)
            + np.multiply.outer(y1, th ** 2 * (3 - 2 * th)) + np.multiply.outer(h * d1, th ** 2 * (th - 1)))


class StepPolynomials:
    """The piecewise polynomial of a run of solver steps (see the module docstring).

    Parameters
    ----------
    t : (m + 1,) step times, strictly increasing
    Y, YD : (n, m + 1) states and their derivatives there
    inner : list of ``m`` entries, each :func:`sample_step`'s result for step ``i``
        (from ``t[i]`` to ``t[i + 1]``) or None
    """

    def __init__(self, t, Y, YD, inner):
        self.t = np.asarray(t, dtype=float)
        m = len(self.t) - 1
        self.V = np.empty((m, len(THETA), Y.shape[0]))
        self.error = 0.0
        L = lagrange([CHECK])[0]
        for i in range(m):
            h = self.t[i + 1] - self.t[i]
            if inner[i] is None:
                self.V[i] = _hermite(Y[:, i], YD[:, i], Y[:, i + 1], YD[:, i + 1], h, THETA).T
                continue
            samples, check = inner[i]
            self.V[i, 0], self.V[i, -1], self.V[i, 1:-1] = Y[:, i], Y[:, i + 1], samples.T
            self.error = max(self.error, float(np.max(np.abs(L @ self.V[i] - check))))

    def __call__(self, t):
        t = np.asarray(t, dtype=float)
        flat = t.ravel()
        i = np.clip(np.searchsorted(self.t, flat, side="right") - 1, 0, len(self.t) - 2)
        theta = (flat - self.t[i]) / (self.t[i + 1] - self.t[i])
        # in the offset form V_0 + sum_j L_j (V_j - V_0) (the L_j sum to 1): a state that
        # is constant over a step (a stuck block's x) is returned exactly, not to round-off
        V = self.V[i]
        out = V[:, 0, :].T + np.einsum("kj,kjn->nk", lagrange(theta), V - V[:, :1, :])
        return out.reshape((-1,) + t.shape)


__all__ = ["CHECK", "DESCRIPTION", "THETA", "StepPolynomials", "lagrange", "sample_step"]
