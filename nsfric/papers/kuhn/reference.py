"""The exact reference of Kuhn, Suzuki & Daouadji's linear-frictional contact: the
continuous law along a prescribed :class:`~nsfric.papers.kuhn.incremental.Movement`, solved
event-driven (elastic inside the friction circle, associated slip on it)."""
from __future__ import annotations

import numpy as np
from scipy.integrate import solve_ivp

from nsfric.papers.kuhn.incremental import KuhnContact, Movement, _row, _solution


def reference(movement: Movement, contact: KuhnContact, s_eval=None, rtol=1e-12, atol=1e-14,
              max_events=1000):
    """The exact response to ``movement`` (body frame; the rotation does not enter).

    Elastic ``df = k_t dxi`` while ``|f| < mu f_n``; on the circle, associated slip
    ``df = k_t dxi - lambda m`` with ``m = f/|f|`` and slip rate ``k_t lambda =
    k_t xi'.m - mu f_n'`` while it is positive.  Switches are located by events:
    elastic -> slip when ``|f| = mu f_n``, slip -> elastic when the slip rate vanishes.
    Work: ``W_t' = f . xi'``, ``W_t_irrev' = mu f_n lambda``, ``W_t_rev =
    (|f|^2 - |f_0|^2)/(2 k_t)`` (so ``W_t - W_t_rev - W_t_irrev`` measures the solve).
    Requires ``zeta > 0`` throughout.
    """
    c, mv = contact, movement
    s_eval = np.linspace(0, 1, 201) if s_eval is None else np.asarray(s_eval, float)
    fn = lambda s: c.k_n * mv.zeta(s)
    fn_dot = lambda s: c.k_n * mv.zeta_dot(s)
    if min(mv.zeta(x) for x in s_eval) <= 0:
        raise ValueError("reference: the overlap zeta(s) must stay > 0")

    def slip_rate(s, f):
        m = f / np.linalg.norm(f)
        return c.k_t * mv.xi_dot(s) @ m - c.mu * fn_dot(s)

    def rhs(mode):
        def g(s, y):
            f, xd = y[:2], mv.xi_dot(s)
            df = c.k_t * xd
            diss = 0.0
            if mode == "slip":
                lam = slip_rate(s, f) / c.k_t
                df = df - c.k_t * lam * f / np.linalg.norm(f)
                diss = c.mu * fn(s) * lam
            return [df[0], df[1], f @ xd, diss]
        return g

    def reach(s, y):
        return np.linalg.norm(y[:2]) - c.mu * fn(s)
    reach.terminal, reach.direction = True, 1

    def leave(s, y):
        return slip_rate(s, y[:2])
    leave.terminal, leave.direction = True, -1

    def mode_at(s, f):
        on = np.linalg.norm(f) >= c.mu * fn(s) * (1 - 1e-9) and np.linalg.norm(f) > 0
        return "slip" if on and slip_rate(s, f) >= -1e-9 * c.k_t * np.linalg.norm(mv.xi_dot(s)) else "elastic"

    y = np.array([*mv.f_t0, 0.0, 0.0])
    s0, segs, events, mode = 0.0, [], 0, None
    while s0 < 1.0:
        # after a slip -> elastic switch the force is inside-going: elastic, whatever the
        # round-off of the slip rate there (re-deciding at the switch chatters)
        mode = "elastic" if mode == "slip" else mode_at(s0, y[:2])
        if mode == "slip":
            y[:2] *= c.mu * fn(s0) / np.linalg.norm(y[:2])
        # a small first step: a segment starting on its switching surface (elastic from the
        # limit) must not see the root at its own start inside a long first step
        sol = solve_ivp(rhs(mode), (s0, 1.0), y, method="DOP853", rtol=rtol, atol=atol,
                        dense_output=True, events=[leave] if mode == "slip" else [reach],
                        first_step=min(1e-9, 1.0 - s0))
        s1 = float(sol.t[-1])
        segs.append((s0, s1, sol.sol, mode))
        y, s0 = sol.y[:, -1].copy(), s1
        events += 1
        if events > max_events:
            raise RuntimeError(f"reference: more than {max_events} elastic/slip switches")
    rows, modes = [], []
    for s in s_eval:
        _, _, dense, mode = next(sg for sg in segs if sg[0] <= s <= sg[1])
        f2, Wt, Wirr = dense(s)[:2], dense(s)[2], dense(s)[3]
        f3 = mv.R(s) @ np.array([*f2, 0.0])
        Wrev = (f2 @ f2 - np.dot(mv.f_t0, mv.f_t0)) / (2 * c.k_t)
        rows.append(_row(mv.R(s), f3, fn(s), [fn(s) ** 2 / (2 * c.k_n), Wt, Wrev, Wirr]))
        modes.append(mode)
    sol = _solution(rows, modes, s_eval, "kuhn-reference", contact, None)
    sol.summary["switches"] = len(segs) - 1
    sol.summary["switch_at"] = [sg[1] for sg in segs[:-1]]
    return sol
