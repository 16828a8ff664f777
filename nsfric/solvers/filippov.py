"""Event-driven Filippov integration on SciPy's ``solve_ivp`` steppers.

The mode loop lives outside the integrator: each segment integrates one mode's smooth
field with a SciPy ``OdeSolver`` (DOP853 by default; RK45, Radau, BDF, LSODA
selectable).  After every accepted step the mode's guards are sampled on the step's
dense output at ``n_check`` interior points, so two crossings inside one step are not
missed; the first sign change (negative to non-negative: guards are negative inside
the mode, so restarting exactly on ``h = 0`` cannot re-fire) is located by Brent's
method on the dense output to a few ulps.  At the event the shared
:class:`~nsfric.solvers.switching.ModeLogic` decides crossing, sliding (Filippov,
Krengel & Matuttis eqs 9-13, with exact projection onto the surface) or leaving, and
the shared :class:`~nsfric.solvers.loop.ModeLoop` logs the events and stops
accumulating ones (event budget, Zeno window, no-progress guard) with
:class:`ZenoError`.
"""
from __future__ import annotations

import numpy as np
from scipy.integrate import BDF, DOP853, LSODA, RK45, Radau, OdeSolution
from scipy.optimize import brentq, minimize_scalar

from ..symbolic.derive import derive, param_vector
from .base import ReferenceSolver, register
from ..solution import Segment, Solution
from .switching import ModeLogic

METHODS = {"DOP853": DOP853, "RK45": RK45, "Radau": Radau, "BDF": BDF, "LSODA": LSODA}
IMPLICIT = {"Radau", "BDF", "LSODA"}


@register
class FilippovSolver(ReferenceSolver):
    """Event-driven Filippov reference solver (see module docstring).

    Options: ``method`` (default ``"DOP853"``), ``n_check`` (guard samples per step,
    default 8), and the mode-loop options ``max_events`` (default 10000) and
    ``zeno_window`` (default 50 events) of every reference solver.
    """

    name = "filippov"
    supports = frozenset({"filippov", "constrained"})
    options_allowed = ("method", "n_check")

    def _solve(self, problem, t_eval=None):
        method = self.options.get("method", "DOP853")
        if method not in METHODS:
            raise ValueError(f"method must be one of {sorted(METHODS)}, got {method!r}")
        n_check = int(self.options.get("n_check", 8))
        d = derive(problem.model)
        p = param_vector(problem.model, problem.params)
        loop = self.mode_loop(ModeLogic(d, p), problem)
        t_end = loop.t_end
        stats = {"nfev": 0, "njev": 0, "nlu": 0, "nsteps": 0, "nevents": 0}
        segments, events = loop.run(problem.y0, lambda mode, t, y: self._segment(
            d, p, mode, t, y, t_end, method, n_check, stats))
        stats["nevents"] = loop.n_switches
        return Solution(problem.model, dict(problem.params), self.name, segments, events, stats,
                        {"rtol": self.rtol, "atol": self.atol, "method": method}, (loop.t0, t_end))

    def _segment(self, d, p, mode, t0, y0, t_end, method, n_check, stats):
        f = d.rhs(mode)
        p = tuple(np.asarray(p, dtype=float).tolist())  # python floats: cheaper unpacking per call
        fun = lambda t, y: f(y, p)
        kw = {}
        if method in IMPLICIT:
            J = d.jac(mode)
            kw["jac"] = lambda t, y: J(y, p)
        solver = METHODS[method](fun, t0, y0, t_end, rtol=self.rtol, atol=self.atol, **kw)
        guards, gfun = d.guards(mode)
        ts, interps = [t0], []
        hit = None
        t_hit = None
        while solver.status == "running":
            msg = solver.step()
            if solver.status == "failed":
                raise RuntimeError(f"{method} failed in mode {mode!r} at t = {solver.t:.17g}: {msg}")
            stats["nsteps"] += 1
            self.budget.check(solver.t)  # wall-time budget (max_seconds), also inside a mode
            dense = solver.dense_output()
            if gfun is not None:
                found = self._first_crossing(gfun, p, dense, solver.t_old, solver.t, n_check,
                                             at_start=len(interps) == 0)
                if found is not None:
                    t_hit, i = found
                    hit = guards[i]
                    if t_hit > ts[-1]:  # a root at the step's start ends the previous step
                        ts.append(t_hit)
                        interps.append(dense)
                    break
            ts.append(solver.t)
            interps.append(dense)
        stats["nfev"] += solver.nfev
        stats["njev"] += solver.njev
        stats["nlu"] += solver.nlu
        if len(interps) == 0:
            seg = Segment(mode, t0, t0, None, y0.copy(), y0.copy())
            return seg, hit
        sol = OdeSolution(ts, interps)
        t1 = ts[-1]
        y1 = sol(t1)
        return Segment(mode, t0, t1, sol, np.asarray(y0, float).copy(), y1), hit

    @staticmethod
    def _first_crossing(gfun, p, dense, ta, tb, n_check, at_start=False):
        """First upward zero crossing of any guard inside ``[ta, tb]`` (time, index).

        Guards are sampled at ``n_check`` interior points of the step's dense output;
        where the samples of a negative guard have an interior maximum, the maximum of
        the interpolant is located (bounded Brent) so that a pair of crossings between
        two samples (a short excursion across the surface) is not missed either.

        At the start of a segment a guard that is already non-negative and growing
        fires at once: the field pushes out of the mode it was just put in (a decision
        with no consistent continuation, e.g. chattering), which must not go unseen.
        """
        tt = np.linspace(ta, tb, n_check + 2)
        G = np.atleast_2d(gfun(dense(tt), p))  # (n_guards, n_points)
        best = None
        for i in range(G.shape[0]):
            g = G[i]
            gi = lambda s, i=i: float(gfun(dense(s), p)[i])
            if at_start and g[0] >= 0 and g[1] > g[0]:
                return (ta, i)
            bracket = None
            neg = g < 0
            # a crossing: a strictly negative sample followed by a non-negative one
            idx = np.nonzero(neg[:-1] & ~neg[1:])[0]
            if len(idx):
                bracket = (tt[idx[0]], tt[idx[0] + 1])
            # hidden excursions: interior maxima of negative samples before the bracket
            last = len(g) - 1 if bracket is None else idx[0]
            for j in range(1, last):
                if g[j] >= g[j - 1] and g[j] >= g[j + 1] and g[j] < 0:
                    m = minimize_scalar(lambda s: -gi(s), bounds=(tt[j - 1], tt[j + 1]),
                                        method="bounded", options={"xatol": 1e-14 * max(1.0, abs(tb))})
                    if -m.fun >= 0:
                        bracket = (tt[j - 1], m.x)
                        break
            if bracket is None:
                continue
            a, b = bracket
            if gi(b) == 0.0:
                root = b
            else:
                root = brentq(gi, a, b, xtol=4e-16 * max(1.0, abs(b)), rtol=4 * np.finfo(float).eps,
                              maxiter=200)
            if best is None or root < best[0]:
                best = (root, i)
        return best
