"""Disagreement between two solutions of the same problem (reference cross-checks)."""
from __future__ import annotations

import numpy as np


def disagreement(a, b, t=None) -> dict:
    """Max abs difference per state on ``t`` (default: ``a``'s sample times, each
    evaluated *after* any event at that time), and the event-time differences.

    Returns a dict with ``states`` (name -> max abs diff), ``max_abs``, ``event_dt``
    (max |t_a - t_b| over matched events, ``None`` if the event logs differ in kind).
    """
    t = np.unique(a.t) if t is None else np.asarray(t, dtype=float)
    ya, yb = a(t), b(t)
    diffs = {n: float(np.max(np.abs(ya[i] - yb[i]))) for i, n in enumerate(a.state_names)}
    kinds_a = [(e.kind, e.to_mode) for e in a.events]
    kinds_b = [(e.kind, e.to_mode) for e in b.events]
    if kinds_a == kinds_b:
        event_dt = max([abs(ea.t - eb.t) for ea, eb in zip(a.events, b.events)], default=0.0)
    else:
        event_dt = None
    return {"against": b.solver, "states": diffs, "max_abs": max(diffs.values()),
            "event_dt": event_dt, "events_match": kinds_a == kinds_b}


#: the cross-check's factor: two solutions, each with local errors below ``rtol |y| +
#: atol`` per step, agree to this many times the looser of their tolerances over a run
#: (the global error sums the local ones).  Measured with ``nsfric reference`` on every
#: case and law with a single model at the defaults (samples next to events left out):
#: the largest disagreement is 0.048 of this bound (slope-block-rotating, Cundall-Strack,
#: ``omega``; oblique impacts <= 0.023, dry oscillator 0.019), a margin of 20 against a
#: false failure, while a diverged solve (the issue's 2.8e15) fails by orders of magnitude
CROSS_FACTOR = 1e4


def _tolerances(*sols):
    """The loosest ``rtol`` and ``atol`` the solutions were solved with."""
    rtol = max((s.tolerances.get("rtol", 0.0) or 0.0 for s in sols), default=0.0)
    atol = max((s.tolerances.get("atol", 0.0) or 0.0 for s in sols), default=0.0)
    return float(rtol), float(atol)


def _near_events(t, a, b, event_dt) -> np.ndarray:
    """Which sample times lie within the event-time disagreement of an event of either
    solution (``4 max(event_dt, 8 eps max(1, |t_e|))``; ``event_dt`` None when the event
    logs differ in kind: the resolution alone)."""
    near = np.zeros(len(t), dtype=bool)
    for e in list(a.events) + list(b.events):
        te = float(e.t)
        width = 4 * max(event_dt or 0.0, 8 * np.finfo(float).eps * max(1.0, abs(te)))
        near |= np.abs(t - te) <= width
    return near


def verdict(a, b, cross: dict, t=None) -> dict:
    """Whether the disagreement ``cross`` (:func:`disagreement` of ``a`` and ``b``) is
    within the tolerance the two solves promise.

    Per state ``s`` the tolerance is ``CROSS_FACTOR (rtol scale_s + atol)``, with the
    loosest ``rtol``/``atol`` of the two solves and ``scale_s`` the smaller of the two
    solutions' ``max |s|`` (a diverged solution must not widen its own tolerance).  The
    samples next to an event (within the event-time disagreement, :func:`_near_events`)
    are left out: a state that jumps there differs by the jump.  The state with the
    largest disagreement-to-tolerance ratio is reported.

    Returns ``cross`` extended by ``solver`` (the second solver), ``disagreement`` and
    ``tolerance`` (of that state), ``state``, ``rtol``, ``atol``, ``factor``, ``passed``
    and ``meaningful``: whether the tolerance can tell a right solution from a wrong one
    at all (``factor rtol < 1`` and ``factor atol`` below the largest state scale).
    """
    t = np.unique(a.t) if t is None else np.asarray(t, dtype=float)
    rtol, atol = _tolerances(a, b)
    # a state that jumps at an event (a reset, a force switched on) differs by the jump at
    # a sample between the two solvers' event times: such samples are left out
    near = _near_events(t, a, b, cross.get("event_dt"))
    t_away = t[~near] if np.any(~near) else t
    ya, yb = np.asarray(a(t_away), dtype=float), np.asarray(b(t_away), dtype=float)
    worst, largest = None, 0.0
    for i, name in enumerate(a.state_names):
        scale = min(float(np.max(np.abs(ya[i]))), float(np.max(np.abs(yb[i]))))
        scale = scale if np.isfinite(scale) else 0.0
        largest = max(largest, scale)
        tol = CROSS_FACTOR * (rtol * scale + atol)
        diff = float(np.max(np.abs(ya[i] - yb[i])))
        ratio = diff / tol if tol > 0 else (0.0 if diff == 0 else np.inf)
        if not np.isfinite(diff):
            ratio = np.inf
        if worst is None or ratio > worst[0]:
            worst = (ratio, name, diff, tol)
    ratio, name, diff, tol = worst
    return {**cross, "solver": b.solver, "disagreement": float(diff), "tolerance": float(tol), "state": name,
            "samples_near_events": int(np.count_nonzero(near)),
            "rtol": rtol, "atol": atol, "factor": CROSS_FACTOR, "passed": bool(ratio <= 1.0),
            "meaningful": bool(CROSS_FACTOR * rtol < 1.0 and CROSS_FACTOR * atol < largest)}


def check_rtol(rtol, option="--rtol"):
    """ValueError when ``rtol`` is too loose for a cross-check to verify anything
    (``CROSS_FACTOR rtol >= 1``): checked before solving."""
    if rtol is not None and CROSS_FACTOR * rtol >= 1.0:
        raise ValueError(f"{option} {rtol:g} is too loose for the cross-check, whose tolerance is "
                         f"{CROSS_FACTOR:g} (rtol |y| + atol): choose {option} < {1 / CROSS_FACTOR:g}, "
                         "or skip the check with --no-cross-check")


def meaningless_line(check: dict) -> str:
    """One line for a cross-check that the given ``atol`` makes meaningless."""
    return (f"--atol {check['atol']:g} is too loose for the cross-check: its tolerance {check['factor']:g} atol "
            f"exceeds every state's scale; choose a smaller --atol, or skip the check with --no-cross-check")


def failure_line(solver: str, check: dict) -> str:
    """One line for a failed cross-check: the disagreement, the tolerance, what to do."""
    return (f"cross-check failed: max |{solver} - {check['solver']}| in {check['state']} = "
            f"{check['disagreement']:.3g} exceeds the tolerance {check['tolerance']:.3g} "
            f"({check['factor']:g} (rtol |{check['state']}| + atol) with rtol = {check['rtol']:g}, atol = "
            f"{check['atol']:g}); nothing written; tighten --rtol/--atol, or skip it with --no-cross-check")
