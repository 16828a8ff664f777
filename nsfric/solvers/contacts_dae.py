"""DAE reference for a multi-contact model (:class:`~nsfric.symbolic.contacts.ContactModel`:
the pile :class:`~nsfric.papers.krengel_matuttis.pile_model.DiscPile`, the block on its corners
:class:`~nsfric.papers.krengel_matuttis.block_corners.BlockCorners`) on SUNDIALS IDA.

The unknowns are the states ``y = (q, v)`` and one force ``lam_i`` per contact; the
residual of a mode is

    dq/dt - v = 0,
    M dv/dt - f(q, v) - J_t^T lam = 0,
    J_t,i dv/dt + c_t,i = 0        (stuck contact i: dv_t,i/dt = 0),
    lam_i = 0                      (any other contact),

``f`` holding gravity, the normal forces and the sliding contacts' Coulomb forces.  The
stuck contacts' ``v_t = 0`` is differentiated once (the acceleration level, index 1 in
``lam``), so ``lam`` is an algebraic variable the solver finds with the states -- not
the linear system :func:`~nsfric.symbolic.contacts.field` solves for the event-driven
reference.  The guards are IDA state events evaluated with the DAE's own ``lam``; the
decision at an event (complementarity test, projection onto ``J_S v = 0``) is the
shared :class:`~nsfric.solvers.contacts.PileLogic` in the shared
:class:`~nsfric.solvers.loop.ModeLoop`, after which a consistent ``(y, y')`` is set.
"""
from __future__ import annotations

import numpy as np

from nsfric.solution import Solution
from nsfric.symbolic.contacts import contact_quantities, free_force, mode_arrays
from nsfric.solvers.dae import _AssimuloSolver, _assimulo_solvers, _captured_c_stderr, dense_report
from nsfric.solvers.dense import sample_step
from nsfric.solvers.base import register
from nsfric.solvers.contacts import ContactReference, PileOptions


def _problem(logic, loop, mode, t0, y0):
    from assimulo.problem import Implicit_Problem

    n2, K, n = len(y0), logic.K, logic.model.n

    class PileDAE(Implicit_Problem):
        def res(self, t, y, yd, sw):
            q_v, lam = y[:n2], y[n2:]
            c = contact_quantities(logic.model, q_v, logic.p)
            f, _ = free_force(c, self.mode, logic.gravity, logic.mu)
            S = mode_arrays(self.mode)[2]
            r = np.empty(n2 + K)
            r[:n] = yd[:n] - q_v[n:]
            r[n:n2] = yd[n:n2] / logic.Minv - f - c["J_t"].T @ lam
            r[n2:] = lam
            if S:
                r[n2 + np.array(S)] = c["J_t"][S] @ yd[n:n2] + c["c_t"][S]
            return r

        def state_events(self, t, y, yd, sw):
            return logic.guards(y[:n2], self.mode, y[n2:])

        def handle_event(self, solver, event_info):
            info = np.asarray(event_info[0])
            fired = [i for i, s in enumerate(info) if s < 0]
            if not fired:
                return
            ys = np.array(solver.y[:n2], dtype=float)
            new, ys, event = loop.switch(float(solver.t), ys, self.mode, fired)
            if event is None:
                return
            self.mode = new
            solver.y, solver.yd = self.consistent(ys)

        def consistent(self, ys):
            dy, lam, _, _ = logic.field(ys, self.mode)
            return np.concatenate([ys, lam]), np.concatenate([dy, np.zeros(K)])

        def handle_result(self, solver, t, y, yd):
            """Keep every step with the solver's interpolant on it (:func:`sample_step`)."""
            t, last = float(t), (self.records[-1] if self.records else None)
            inner = sample_step(solver, last[0], t, n2) if last and last[3] == self.mode and t > last[0] else None
            self.records.append((t, np.array(y[:n2], dtype=float), np.array(yd[:n2], dtype=float), self.mode, inner))

    prob = PileDAE(None, np.zeros(n2 + K), np.zeros(n2 + K), t0, sw0=[True])
    prob.mode, prob.records = mode, []
    prob.y0, prob.yd0 = prob.consistent(y0)
    prob.algvar = [1.0] * n2 + [0.0] * K
    return prob


class PileIDA(PileOptions):
    """IDA (variable-order BDF) on a multi-contact model's DAE (see the module docstring).

    Options: ``rtol`` (default 1e-11), ``atol`` (default 1e-13), ``maxord`` (default 5),
    ``decision`` (as :class:`~nsfric.solvers.contacts.PileSolver`) and the mode-loop options.
    """

    name = "pile-ida"

    def __init__(self, rtol=1e-11, atol=1e-13, maxord=5, decision="lcp", **loop):
        super().__init__(rtol, atol, loop, decision)
        if maxord not in (1, 2, 3, 4, 5):
            raise ValueError(f"maxord must be an integer in [1, 5], got {maxord!r}")
        self.maxord = int(maxord)

    def solve(self, model, values, y0, t_span, t_eval) -> Solution:
        logic, loop = self.start(model, values, t_span)
        mode, ys = loop.start(np.asarray(y0, dtype=float))
        prob = _problem(logic, loop, mode, float(t_span[0]), ys)
        solver = _assimulo_solvers().IDA(prob)
        solver.suppress_alg = True
        solver.maxord = self.maxord
        solver.verbosity = 50
        solver.rtol = self.rtol
        solver.atol = np.array([self.atol] * len(ys) + [1e3 * self.atol] * logic.K)
        solver.report_continuously = True
        with _captured_c_stderr() as messages:
            solver.simulate(float(t_span[1]))  # every internal step reported: the dense output
        st = solver.statistics
        stats = {"nfev": int(st["nfcns"]), "njev": int(st["njacs"]), "nsteps": int(st["nsteps"]),
                 "nevents": loop.n_switches}
        sol = Solution(model, dict(values), self.name, _AssimuloSolver._segments(
            [(t, np.append(y, 0.0), np.append(yd, 0.0), m, inner) for t, y, yd, m, inner in prob.records]),
            loop.events, stats, {"rtol": self.rtol, "atol": self.atol, "method": "IDA"},
            tuple(map(float, t_span)))
        sol.info["solver_messages"] = messages
        dense_report(sol)
        sol.info["event_counts"] = dict(logic.counts)
        sol.info["decisions"] = dict(logic.lcp_stats)
        sol.resample(np.asarray(t_eval, dtype=float))
        return sol


@register
class ContactIDA(ContactReference):
    """IDA on the DAE of multi-contact models (the cross-check of ``pile-events``)."""

    name = "pile-ida"
    solver = PileIDA
    tolerance_key = "ida"
    options_allowed = ("maxord", "decision")
    default_rtol, default_atol = 1e-11, 1e-13


__all__ = ["PileIDA", "ContactIDA"]
