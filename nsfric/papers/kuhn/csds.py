"""Führer et al.'s C-SDS in 3D along a prescribed movement of Kuhn et al.'s contact: the
incremental rule with its spring elongation carried between increments
(:func:`csds_step`, :func:`run_csds`) and the continuous law, event-driven
(:func:`csds_reference`).  Formulas: :mod:`nsfric.papers.kuhn.csds_law` (lambdified once).

The elongation ``xi`` is a vector in the tangent plane, carried from one increment to the
next with the frame handling of the other rules (:func:`~nsfric.papers.kuhn.incremental.adjust_frame`;
default ``"rotate"``: turned with the pair, twist included, so it stays in the new
tangent plane).  With ``gamma_t = 0`` the C-SDS is the limit of Führer et al.'s law in
which eq 9 relaxes instantly: the D-SDS (eq 3), i.e. add-and-project on the elongation.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import sympy as sp
from scipy.integrate import solve_ivp

from nsfric.symbolic.codegen import generate
from nsfric.papers.kuhn import csds_law as S
from nsfric.symbolic.laws import F_max, gamma, k
from nsfric.papers.kuhn.incremental import KuhnContact, Movement, StepResult, _formulas, _row, _solution, _v, adjust_frame, run_steps


@lru_cache(maxsize=1)
def _csds():
    xs, vs = sp.symbols("xi1:4", real=True), sp.symbols("v1:4", real=True)
    F_stick, rate_stick, F_slip, rate_slip = S.rates_3d(xs, vs)
    end, end0 = S.slip_increment()
    end = sp.collect(sp.expand(end), sp.exp(-S.h * k / gamma))  # exp(-h k/gamma) only: no overflow
    lam = lambda args, e: generate(e, args, "numpy", cse=False, products=False, raw=True)
    rate_s, Fs = sp.symbols("r1:4", real=True), sp.symbols("F1:4", real=True)
    return {
        "F_stick": lam((*xs, *vs, k, gamma), F_stick), "F_slip": lam((*xs, *vs, k, gamma, F_max), F_slip),
        "rate_stick": lam((*xs, *vs, k, gamma), rate_stick),
        "rate_slip": lam((*xs, *vs, k, gamma, F_max), rate_slip),
        "slip_end": lam((S.x_0, S.b_0, S.b_1, S.h, k, gamma), end), "slip_end0": lam((S.b_1, k), end0),
        "energy": lam((*xs, k), S.spring_energy(xs)),
        "dissipation": lam((*Fs, *rate_s, *vs, gamma), S.dissipation_rate(Fs, rate_s, vs)),
    }


def _vec(x):
    return np.asarray(x, dtype=float).reshape(3)


def csds_step(f_t, zeta_start, zeta_end, dxi, n, dtheta_p, dtheta_q, contact: KuhnContact, *, state=None,
              ds=None, gamma_t=0.0, frame="rotate"):
    """One increment of the 3D C-SDS, its elongation carried with the pair.

    Parameters
    ----------
    f_t : (3,) tangential force at the start (Kuhn's sign, ``f_t = -F``)
    zeta_start, zeta_end, dxi, n, dtheta_p, dtheta_q, contact : as :func:`~nsfric.papers.kuhn.incremental.kuhn_step`
    state : (3,) spring elongation ``xi`` at the start; None: ``f_t/k_t`` (the spring carries
        the initial force)
    ds : the increment's length on the movement's clock (``v = Delta_xi/ds``), > 0
    gamma_t : tangential damping ``gamma >= 0`` (Führer et al.'s ``gamma``); 0: the limit
        ``gamma -> 0+`` of the exact increment (the D-SDS reset, eq 3)
    frame : frame handling of ``xi`` (and of ``f_t`` for the work), one of
        :data:`~nsfric.papers.kuhn.incremental.FRAMES`

    The update: the elastic trial ``xi + Delta_xi`` (eq 2); if its test force (eq 1) exceeds
    ``F_max = mu f_n`` at the end, the 1D sliding branch (eq 9) is solved exactly over the
    increment along the trial's slip direction ``m`` (eq 8), with ``F_max`` linear in the
    increment, and the elongation across ``m`` follows the movement (eq 2).  Force: eq 1
    clipped to ``F_max`` (eq 10).  Work: ``Delta W_t`` by the trapezoid rule (Fig 1 line 45),
    ``Delta W_t_rev`` the change of the spring energy ``k_t |xi|^2/2``.
    """
    if not (ds is not None and ds > 0):
        raise ValueError(f"ds must be > 0, got {ds!r}")
    if not gamma_t >= 0:
        raise ValueError(f"gamma_t must be >= 0, got {gamma_t!r}")
    F, c = _csds(), contact
    f0, dxi, n, p, q = (_v(x) for x in (f_t, dxi, n, dtheta_p, dtheta_q))
    xi_prev = f0 / c.k_t if state is None else _v(state)
    xi0, f0 = (adjust_frame(x, n, p, q, frame) for x in (xi_prev, f0))
    E_prev = float(F["energy"](*xi_prev, c.k_t))
    if zeta_end <= 0:
        return StepResult(np.zeros(3), 0.0, 0.0, 0.0, -E_prev, E_prev, mode="open", state=np.zeros(3))
    b0, b1 = c.mu * c.k_n * max(zeta_start, 0.0), c.mu * c.k_n * zeta_end
    vel = dxi / ds
    xi1 = xi0 + _vec(F["rate_stick"](*xi0, *vel, c.k_t, gamma_t)) * ds  # eq 2 over the increment
    F_S = _vec(F["F_stick"](*xi1, *vel, c.k_t, gamma_t))
    mode = "elastic"
    if F_S @ F_S > b1 ** 2:
        mode = "slip"
        m = F_S / np.linalg.norm(F_S)
        x1 = (F["slip_end0"](b1, c.k_t) if gamma_t == 0 else
              F["slip_end"](xi0 @ m, b0, b1, ds, c.k_t, gamma_t))
        xi1 = xi1 - (xi1 @ m) * m + float(x1) * m
        F_S = _vec(F["F_stick"](*xi1, *vel, c.k_t, gamma_t))
        if F_S @ F_S > b1 ** 2:
            F_S = _vec(F["F_slip"](*xi1, *vel, c.k_t, gamma_t, b1))
    f_end = -F_S
    dW_t = float(_formulas()["W_slip"](*dxi, *f0, *f_end))
    dW_rev = float(F["energy"](*xi1, c.k_t)) - E_prev
    return StepResult(f_end, c.k_n * zeta_end, c.k_n * zeta_end ** 2 / 2, dW_t, dW_rev, dW_t - dW_rev,
                      mode=mode, state=xi1)


csds_step.stateful = True
csds_step.scheme = "kuhn-csds"


def run_csds(movement: Movement, contact: KuhnContact, N: int, gamma_t=0.0, frame="rotate"):
    """The 3D C-SDS in ``N`` increments of ``movement`` (:func:`csds_step`)."""
    return run_steps(movement, contact, N, csds_step, gamma_t=gamma_t, frame=frame)


def csds_reference(movement: Movement, contact: KuhnContact, gamma_t, s_eval=None, rtol=1e-12, atol=1e-14,
                   max_events=1000):
    """The continuous 3D C-SDS along ``movement`` (body frame: the elongation turns with the
    pair, the rotation does not enter), ``gamma_t > 0``.

    Sticking ``xi' = v`` while ``|F_S| <= mu f_n``, sliding eq 9 beyond; the field is
    continuous (eq 10), the switches ``|F_S| = mu f_n`` are located by events.  Initial
    elongation ``f_t0/k_t``.  Work ``W_t' = f_t . xi'_movement``, ``W_t_irrev'`` the
    dissipation of eq 11, ``W_t_rev`` the change of ``k_t |xi|^2/2``, so ``W_t - W_t_rev -
    W_t_irrev`` measures the solve.
    """
    if not gamma_t > 0:
        raise ValueError(f"gamma_t must be > 0 (the continuous C-SDS), got {gamma_t!r}")
    F, c, mv = _csds(), contact, movement
    s_eval = np.linspace(0, 1, 201) if s_eval is None else np.asarray(s_eval, float)
    bound = lambda s: c.mu * c.k_n * mv.zeta(s)
    vel = lambda s: np.array([*mv.xi_dot(s), 0.0])
    x3 = lambda y: np.array([y[0], y[1], 0.0])

    def force(s, y, mode):
        args = (*x3(y), *vel(s), c.k_t, gamma_t)
        return _vec(F["F_slip"](*args, bound(s)) if mode == "slip" else F["F_stick"](*args))

    def rhs(mode):
        def g(s, y):
            args = (*x3(y), *vel(s), c.k_t, gamma_t)
            r = _vec(F["rate_slip"](*args, bound(s)) if mode == "slip" else F["rate_stick"](*args))
            Fv = force(s, y, mode)
            return [r[0], r[1], -Fv @ vel(s), float(F["dissipation"](*Fv, *r, *vel(s), gamma_t))]
        return g

    def over(s, y):
        F_S = force(s, y, "stick")
        return F_S @ F_S - bound(s) ** 2

    y = np.array([*(np.asarray(mv.f_t0, float) / c.k_t), 0.0, 0.0])
    s0, segs, mode = 0.0, [], "slip" if over(0.0, y) > 0 else "stick"
    while s0 < 1.0:
        ev = lambda s, y: over(s, y)
        ev.terminal, ev.direction = True, (-1 if mode == "slip" else 1)
        sol = solve_ivp(rhs(mode), (s0, 1.0), y, method="DOP853", rtol=rtol, atol=atol, dense_output=True,
                        events=[ev], first_step=min(1e-9, 1.0 - s0))
        segs.append((s0, float(sol.t[-1]), sol.sol, mode))
        y, s0 = sol.y[:, -1].copy(), float(sol.t[-1])
        mode = "stick" if mode == "slip" else "slip"
        if len(segs) > max_events:
            raise RuntimeError(f"csds_reference: more than {max_events} stick/slip switches")
    rows, modes = [], []
    E0 = float(F["energy"](*x3(np.asarray(mv.f_t0, float) / c.k_t), c.k_t))
    for s in s_eval:
        _, _, dense, mode = next(sg for sg in segs if sg[0] <= s <= sg[1])
        y = dense(s)
        f3 = mv.R(s) @ -force(s, y, mode)
        W_rev = float(F["energy"](*x3(y), c.k_t)) - E0
        rows.append(_row(mv.R(s), f3, c.k_n * mv.zeta(s), [c.k_n * mv.zeta(s) ** 2 / 2, y[2], W_rev, y[3]]))
        modes.append(mode)
    sol = _solution(rows, modes, s_eval, "kuhn-csds-reference", contact, None)
    sol.summary["switches"] = len(segs) - 1
    return sol
