"""The exact reference of Kuhn, Suzuki & Daouadji's linear-frictional contact: the
continuous law (:mod:`nsfric.papers.kuhn.linear_frictional`) along a prescribed
:class:`~nsfric.papers.kuhn.incremental.Movement`, coupled to it by
``couple(PrescribedContact(...), tangential=...)`` and solved by the registered
``filippov`` solver (elastic inside the friction circle, associated slip on it)."""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from nsfric.solvers import get_solver
from nsfric.solvers.base import Problem
from nsfric.symbolic import PrescribedContact, couple
from nsfric.symbolic.kinematics import tau
from nsfric.symbolic.laws import P, k_n, mu

from nsfric.papers.kuhn.incremental import KuhnContact, Movement, _row, _solution
from nsfric.papers.kuhn.linear_frictional import linear_frictional
from nsfric.papers.kuhn.movement import SHAPES, s_


@lru_cache(maxsize=8)
def contact_model(shape: str):
    """The linear-frictional contact along the movement shape ``shape`` of
    :data:`~nsfric.papers.kuhn.movement.SHAPES` (one model per shape, its numbers are
    parameters): the prescribed rate ``xi'`` and ``f_n = k_n zeta`` with the bound
    ``mu f_n``."""
    rate, zeta = SHAPES[shape]
    rate, zeta = tuple(c.xreplace({s_: tau}) for c in rate), zeta.xreplace({s_: tau})
    bound = mu * k_n * zeta
    shape_params = sorted((rate[0] + rate[1] + zeta).free_symbols - {tau}, key=str)
    kin = PrescribedContact(rate, params=(P(k_n, 1.0, 0, lo_open=True), P(mu, 0.5, 0, lo_open=True),
                                          *(P(q, 0.0) for q in shape_params)))
    return couple(kin, tangential=linear_frictional(bound, bound.diff(tau)), name=f"kuhn-reference ({shape})")


def reference(movement: Movement, contact: KuhnContact, s_eval=None, rtol=1e-12, atol=1e-14,
              max_events=1000):
    """The exact response to ``movement`` (body frame; the rotation does not enter).

    Work: ``W_t' = f . xi'``, ``W_t_irrev' = f . (xi' - f'/k_t)`` (force times slip rate),
    ``W_t_rev = (|f|^2 - |f_0|^2)/(2 k_t)`` (so ``W_t - W_t_rev - W_t_irrev`` measures the
    solve).  Requires ``zeta > 0`` throughout.
    """
    c, mv = contact, movement
    s_eval = np.linspace(0, 1, 201) if s_eval is None else np.asarray(s_eval, float)
    fn = lambda s: c.k_n * mv.zeta(s)
    if min(mv.zeta(x) for x in s_eval) <= 0:
        raise ValueError("reference: the overlap zeta(s) must stay > 0")
    if mv.shape is None:
        raise ValueError("reference: the movement must be one of Movement.straight, circle, figure_eight")
    name, values = mv.shape
    model = contact_model(name)
    p = model.bind({"k_t": c.k_t, "k_n": c.k_n, "mu": c.mu, **{str(q): float(x) for q, x in values.items()}})
    y0 = np.zeros(len(model.states))
    y0[:2] = mv.f_t0
    sol = get_solver("filippov", rtol=rtol, atol=atol, max_events=max_events).solve(Problem(model, p, y0, (0.0, 1.0)))
    Y = np.asarray(sol(s_eval))
    names = model.state_names
    rows, modes = [], []
    for j, s in enumerate(s_eval):
        f2 = Y[[names.index("f_1"), names.index("f_2")], j]
        Wt, Wirr = Y[names.index("W_t"), j], Y[names.index("W_t_irrev"), j]
        f3 = mv.R(s) @ np.array([*f2, 0.0])
        Wrev = (f2 @ f2 - np.dot(mv.f_t0, mv.f_t0)) / (2 * c.k_t)
        rows.append(_row(mv.R(s), f3, fn(s), [fn(s) ** 2 / (2 * c.k_n), Wt, Wrev, Wirr]))
        modes.append(_mode(sol, s))
    out = _solution(rows, modes, s_eval, "kuhn-reference", contact, None)
    switches = [e for e in sol.events if e.from_mode != e.to_mode]
    out.summary["switches"] = len(switches)
    out.summary["switch_at"] = [e.t for e in switches]
    return out


def _mode(sol, s):
    """The mode at ``s`` (at a switch, the one before it, as a segment ends there)."""
    before = [g for g in sol.segments if g.t0 < s]
    return (before[-1] if before else sol.segments[0]).mode
