"""The delta schemes' batch loop in NumPy: every member of a batch stepped at once, the
scheme's own ``step`` on :class:`~nsfric.schemes.delta.DeltaAdjustment` (the fallback of
:func:`~nsfric.schemes.delta.run_batch` where the compiled loop of
:mod:`nsfric.schemes.delta_kernel` does not apply, e.g. without numba)."""
from __future__ import annotations

import numpy as np

from .delta import DeltaAdjustment, side_name
from .stick_rules import enters_stick


def run_numpy(field, U0, h, n_steps, scheme, projection, t0, keep, progress, rule):
    """:func:`~nsfric.schemes.delta.run_batch` on NumPy (call inside ``np.errstate``);
    ``rule`` the code of the stick-entry rule (:mod:`~nsfric.schemes.stick_rules`)."""
    U = np.array(U0, dtype=float)
    n, B = U.shape
    P = field.pieces(U)
    g, lam = P[2], P[3]
    stuck = (g == 0) & (lam >= 0) & (lam <= 1)
    side = side_codes(stuck, g, lam)
    adj = DeltaAdjustment(field, stuck)
    adj.prime(U, P)
    events = [[] for _ in range(B)]
    rows = list(range(0, n_steps + 1, keep))
    if rows[-1] != n_steps:
        rows.append(n_steps)
    Y = np.empty((n, B, len(rows)))
    Y[:, :, 0] = U
    M = np.zeros((B, len(rows)), dtype=np.int8)
    M[:, 0] = side
    r = 1
    alive = np.ones(B, dtype=bool)
    hist = scheme.start(adj, t0, U, h)
    for i in range(n_steps):
        U1, hist = scheme.step(adj, t0 + i * h, U, h, hist)
        P1 = field.pieces(U1)
        g1, lam1 = P1[2], P1[3]
        staged = np.zeros(B, dtype=bool)  # g reached or crossed 0 at a stage inside the step
        for gs in adj.stage_g:
            staged |= g * gs <= 0
        stopped = enters_stick(rule, g * g1 <= 0, staged, g1, P1[4], lam1, h)
        inband = (lam1 >= 0) & (lam1 <= 1)
        enter = ~stuck & stopped & inband & alive      # stopped by the rule, fields push in
        leave = stuck & ~inband & alive                # lam left [0, 1]
        reverse = ~stuck & (g * g1 < 0) & ~inband & alive  # crossing (dynamic friction)
        t1 = t0 + (i + 1) * h
        if np.any(enter | leave | reverse):
            for b in np.nonzero(enter)[0]:
                events[b].append({"t": t1, "kind": "stick", "from": side_name(field, side[b]), "to": "stick"})
            for b in np.nonzero(leave)[0]:
                to = field.sliding.plus if lam1[b] < 0 else field.sliding.minus
                events[b].append({"t": t1, "kind": "slip", "from": "stick", "to": to})
            for b in np.nonzero(reverse)[0]:
                to = field.sliding.plus if g1[b] > 0 else field.sliding.minus
                events[b].append({"t": t1, "kind": "reversal", "from": side_name(field, side[b]), "to": to})
        stuck = (stuck | enter) & ~leave
        side = side_codes(stuck, g1, lam1)
        if projection and np.any(enter):
            U1, hist = _project(field, scheme, U1, hist, enter, B)
            P1 = field.pieces(U1)
            g1 = P1[2]
        U, P, g = U1, P1, g1
        adj.stuck = stuck
        adj.prime(U, P)
        dead = alive & ~np.any(np.isfinite(U), axis=0)
        if rows[r] == i + 1:
            Y[:, :, r] = np.where(alive, U, np.nan)
            M[:, r] = np.where(alive, side, 0)
            r += 1
            if progress and r % 50 == 0:
                progress(r / len(rows))
        if dead.any():  # entirely non-finite: NaN from the next row on
            alive &= ~dead
            if not alive.any():
                Y[:, :, r:] = np.nan
                break
    t = t0 + h * np.array(rows, dtype=float)
    return t, Y, events, M


def _project(field, scheme, U1, hist, enter, B):
    """Velocity projection on entering the stuck state (Hairer & Wanner II p 471): the
    reset map of the sliding mode; a multistep history is projected too (positions
    held, at rest)."""
    U1 = U1.copy()
    U1[:, enter] = field.reset(U1[:, enter], field.P[:, enter] if field.P.shape[1] == B else field.P)

    def held(y):
        y = y.copy()
        y[field.alg, enter] = U1[field.alg, enter]
        for s in field.held:
            y[s, enter] = U1[s, enter]
        return y

    return U1, scheme.map_history(hist, held)


def side_codes(stuck, g, lam):
    """:func:`~nsfric.schemes.delta.delta_side` over a batch (int8)."""
    sg = np.where(g > 0, 1, np.where(g < 0, -1, 0))
    return np.where(stuck, 0, np.where(g == 0, np.where(lam < 0, 1, -1), sg)).astype(np.int8)
