"""Closed-form reference: exact piecewise solutions of piecewise-affine models.

In every mode of the three closed-form cases (sliding plates, dry oscillator, normal
impact) the derived right-hand side is affine, ``y' = A y + b`` (checked: the Jacobian
must not depend on ``y``).  SymPy then gives the mode's solution in closed form,

    y(s) = exp(A s) y_s + int_0^s exp(A r) dr b  =  [exp(M s)]_(n, :) (y_s, 1),
    M = [[A, b], [0, 0]],

with the parameters as exact rationals (``M.exp()`` by Jordan decomposition: the
critically damped sticking phase of the sliding plates, the harmonic half periods of
the dry oscillator, the damped normal oscillation of Schäfer et al. eqs 3-4).  The
switching times are the roots of the (affine) guards along this closed form, bracketed
on a grid finer than the fastest eigenfrequency and refined with mpmath at 40 digits;
the mode decisions at the switches are the shared
:class:`~nsfric.solvers.switching.ModeLogic`.  No numerical integration is involved.
"""
from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp

from ..memo import Identity, Memo
from ..symbolic.codegen import generate
from ..symbolic.derive import derive, param_vector
from .base import ReferenceSolver, register
from ..solution import Segment, Solution
from .switching import ModeLogic

_S = sp.Symbol("s", real=True)


def _rational(x: float):
    return sp.Rational(repr(float(x)))


_FLOWS = Memo(256, "nsfric.solvers.analytic.flows")


def _flow(d, mode, values):
    """Cached closed-form flow of ``mode`` for these parameter values."""
    key = (Identity(d.model), mode, tuple(sorted(values.items())))
    return _FLOWS.get(key, lambda: _ModeFlow(d, mode, values))


class _ModeFlow:
    """Closed-form flow of one affine mode: ``y(s) = Phi(s) (y_s, 1)``."""

    def __init__(self, d, mode, values):
        self.model = d.model
        y = d.y
        subs = {q.symbol: _rational(values[q.name]) for q in d.model.params}
        rhs = sp.Matrix([sp.sympify(e).subs(subs) for e in d.modes[mode].rhs])
        A = rhs.jacobian(y)
        if any(a.free_symbols & set(y) for a in A):
            raise ValueError(f"mode {mode!r} is not affine: no closed form")
        b = rhs.subs({s: 0 for s in y})
        n = len(y)
        M = sp.zeros(n + 1, n + 1)
        M[:n, :n] = A
        M[:n, n] = b
        Phi = sp.simplify((M * _S).exp()[:n, :])
        self.Phi_np = generate(Phi, _S, "numpy", cse=False, products=False, raw=True)
        self.Phi_mp = generate(Phi, _S, "mpmath", cse=False, products=False, raw=True)
        eig = [complex(sp.N(e)) for e in A.eigenvals()] if n else [0]
        self.rate = max([abs(e) for e in eig] + [1e-300])
        gs = d.modes[mode].guards
        self.guards = gs
        self.G = []
        for g in gs:
            e = sp.sympify(g.expr).subs(subs)
            c = [sp.diff(e, s) for s in y]
            if any(ci.free_symbols for ci in c):
                raise ValueError(f"guard {g.label!r} of mode {mode!r} is not affine")
            c0 = e.subs({s: 0 for s in y})
            self.G.append(([mpmath.mpf(sp.N(ci, 50)) for ci in c], mpmath.mpf(sp.N(c0, 50))))

    def state_np(self, y_s, s):
        s = np.atleast_1d(np.asarray(s, dtype=float))
        ya = np.append(y_s, 1.0)
        out = np.empty((len(y_s), s.size))
        for i, si in enumerate(s):
            out[:, i] = np.asarray(self.Phi_np(si), dtype=float) @ ya
        return out

    def state_mp(self, y_s, s):
        P = self.Phi_mp(s)
        ya = [mpmath.mpf(v) for v in y_s] + [mpmath.mpf(1)]
        return [mpmath.fsum(P[i, j] * ya[j] for j in range(len(ya))) for i in range(P.rows)]

    def guard_mp(self, i, y_s, s):
        c, c0 = self.G[i]
        y = self.state_mp(y_s, s)
        return mpmath.fsum(ci * yi for ci, yi in zip(c, y)) + c0


@register
class AnalyticSolver(ReferenceSolver):
    """Closed-form solutions for piecewise-affine models (see module docstring)."""

    name = "analytic"
    supports = frozenset({"filippov", "constrained"})

    def _solve(self, problem, t_eval=None):
        if not problem.closed_form:
            raise ValueError(f"{problem.name or problem.model.name!r} has no practical closed form "
                             "(symbolic matrix exponential too costly); use filippov or ida")
        model = problem.model
        d = derive(model)
        p = param_vector(model, problem.params)
        loop = self.mode_loop(ModeLogic(d, p), problem)
        t0, t_end = loop.t0, loop.t_end
        n_roots = 0

        def segment(mode, t, y):
            nonlocal n_roots
            fl = _flow(d, mode, problem.params)
            s_hit, gi = self._first_root(fl, y, t_end - t)
            n_roots += 1
            s1 = t_end - t if s_hit is None else s_hit
            y1 = np.array([float(v) for v in fl.state_mp(y, mpmath.mpf(s1))])
            dense = (lambda tt, ys=y.copy(): fl.state_np(ys, np.asarray(tt) - t)
                     .reshape((len(ys),) + np.shape(tt)))
            seg = Segment(mode, t, t + s1, dense, y.copy(), y1)
            return seg, (None if s_hit is None else fl.guards[gi])

        with mpmath.workdps(40):
            segments, events = loop.run(problem.y0, segment)
        stats = {"nfev": 0, "njev": 0, "nsteps": len(segments), "nevents": len(events),
                 "nroots": n_roots}
        return Solution(model, dict(problem.params), self.name, segments, events, stats,
                        {"rtol": 0.0, "atol": 0.0, "method": "closed form (sympy expm, mpmath roots)"},
                        (t0, t_end))

    @staticmethod
    def _first_root(fl, y_s, span):
        """Smallest ``s in (0, span]`` where a guard crosses zero upwards, and its index."""
        if not fl.guards:
            return None, None
        n = int(min(2e5, max(400, 20 * span * fl.rate)))
        s = np.linspace(0.0, span, n + 1)
        Y = fl.state_np(y_s, s)
        best = None
        for i, (c, c0) in enumerate(fl.G):
            g = np.array([float(ci) for ci in c]) @ Y + float(c0)
            neg = g < 0
            idx = np.nonzero(neg[:-1] & ~neg[1:])[0]
            if len(idx) == 0:
                continue
            j = idx[0]
            f = lambda x, i=i: fl.guard_mp(i, y_s, x)
            try:
                root = mpmath.findroot(f, (mpmath.mpf(s[j]), mpmath.mpf(s[j + 1])), solver="anderson")
            except (ValueError, ZeroDivisionError):
                root = mpmath.findroot(f, (mpmath.mpf(s[j]), mpmath.mpf(s[j + 1])), solver="bisect")
            root = float(root)
            if best is None or root < best[0]:
                best = (root, i)
        return best if best is not None else (None, None)
