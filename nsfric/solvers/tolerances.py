"""Rounding tolerances of the mode logic at an event (:class:`~nsfric.solvers.switching.ModeLogic`).

The time resolution of a located event, and the tolerances within which a guard's value
and rate count as zero (:func:`_group_tolerances`).  They run once or more per event on
a few guards: Python floats, the same operations as NumPy's on the same doubles.
"""
from __future__ import annotations

import numpy as np

#: ``8 eps`` of :func:`resolution`
_EPS8 = 8 * np.finfo(float).eps


def resolution(t):
    """The time resolution of an event located at ``t``: ``8 eps max(1, |t|)`` (its root
    search stops within about 2 ulp of ``max(1, |t|)``)."""
    return _EPS8 * max(1.0, abs(t))


def _group_tolerances(guards, vals, rates, y, t=None, scales=None):
    """Rounding tolerances of guard values and rates over each group of guards of one
    kind: the exit guards of a sliding mode (indicators ``sigma``) and the switching
    functions (``h -> 0``; a sticking contact's end) differ in units.

    An exit guard's value counts as zero within ``1e-12 max(max |values|, max |y|)`` --
    relative to the scale of the state, so an impact at ``v_i = 1e-12`` (every state near
    1e-12) is not rounding.  A switching function's value counts as zero within
    ``1e-12 max(|value|, scale)``, its own ``scale`` the size of the states' terms in it
    (:func:`state_scales`, in its own units; ``max |y|`` where not given): the largest
    state may be of other units -- a spin of 3.75e5 rad/s beside an overlap of 6.5e-8 m
    made a contact at its largest overlap count as ended.  Both are widened by what the
    event's time resolution moves each guard by (``|rate| resolution(t)``, the residue of
    a located root).  A rate counts as zero within ``1e-12 (1 + max |rates|)``.

    The guards are few: the arithmetic runs on Python floats, the same operations as
    NumPy's on the same doubles (``np.max`` and ``np.maximum`` propagating NaN: tested
    against the array form)."""
    vals = np.asarray(vals, dtype=float).tolist()
    rates = np.asarray(rates, dtype=float).tolist()
    scale = float(np.max(np.abs(y))) if np.size(y) else 0.0
    exit_ = _exit_guards(guards)
    own = None if scales is None else np.asarray(scales, dtype=float).tolist()
    n = len(guards)
    tol, rtol = [0.0] * n, [0.0] * n
    for in_group, own_units in ((True, False), (False, own is not None)):
        idx = [i for i in range(n) if exit_[i] is in_group]
        if idx:
            if own_units:
                for i in idx:
                    tol[i] = 1e-12 * _maximum(_maximum(abs(vals[i]), own[i]), 1e-300)
            else:
                tl = 1e-12 * max(_max([abs(vals[i]) for i in idx]), scale, 1e-300)
                for i in idx:
                    tol[i] = tl
            rt = 1e-12 * (1.0 + _max([abs(rates[i]) for i in idx]))
            for i in idx:
                rtol[i] = rt
    res = resolution(0.0 if t is None else t)
    return [tl + abs(r) * res for tl, r in zip(tol, rates)], rtol


def _exit_guards(guards) -> tuple:
    """Which of ``guards`` are exit guards of a sliding mode (label ``exit->...``)."""
    return tuple(str(g.label).startswith("exit->") for g in guards)


def _max(values):
    """``np.max`` of a non-empty list of floats: NaN where one is NaN."""
    out = values[0]
    for v in values:
        if v != v:
            return v
        if v > out:
            out = v
    return out


def _maximum(a, b):
    """``np.maximum`` of two floats: NaN where either is NaN."""
    if a != a:
        return a
    if b != b:
        return b
    return a if a >= b else b
