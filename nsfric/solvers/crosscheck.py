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
