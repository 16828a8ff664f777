"""Guard crossings inside one accepted step of a dense-output integrator.

The Filippov solver samples a mode's guards on each step's dense output; a sign change
between samples is an event, located by Brent's method.  A guard can also cross the
surface and come back between two negative samples (a short excursion); the maximum
of the interpolant between them is searched for (bounded Brent).  That search is the expensive part of an exact run, and it is
wasted where a bound proves the excursion impossible: :func:`excursion_bound`
bounds the guard between two samples from its values and its derived rates
``dg/dt = grad g . f`` (:meth:`DerivedModel.guard_rates`) at the samples, with a
curvature bound estimated from the rate differences over the whole step times a
safety factor.  On a plateau (sticking: the rates vanish identically) the bound is
the samples' own mean and every search is skipped.
"""
from __future__ import annotations

import numpy as np
from scipy.optimize import brentq, minimize_scalar

from ..errors import NonFiniteField

__all__ = ["first_crossing", "excursion_bound", "SAFETY"]

#: factor on the curvature estimated from the sampled rates (the step is resolved to
#: the integrator's tolerance, so the rate varies smoothly across its samples)
SAFETY = 4.0


def excursion_bound(tt, g, r, curvature):
    """Upper bound of a guard on each interval ``[tt[k], tt[k+1]]`` between samples.

    With ``|g'| <= R_k = max(|r_k|, |r_{k+1}|) + M h_k / 2`` on the interval
    (``|g''| <= M = curvature``, ``h_k`` its length), ``g`` lies below both lines
    ``g_k + R_k (t - t_k)`` and ``g_{k+1} + R_k (t_{k+1} - t)``, whose meeting point is
    ``(g_k + g_{k+1} + R_k h_k) / 2``.

    Parameters
    ----------
    tt : (n,) sample times; g, r : (..., n) guard values and rates there
    curvature : float or (...,) array, the bound ``M`` on ``|g''|`` over the step

    Returns
    -------
    (..., n - 1) array of upper bounds of ``g`` on the intervals
    """
    h = tt[1:] - tt[:-1]
    a = np.abs(r)
    R = np.maximum(a[..., :-1], a[..., 1:]) + 0.5 * np.asarray(curvature)[..., None] * h
    return 0.5 * (g[..., :-1] + g[..., 1:] + R * h)


def curvature_bound(tt, r):
    """``SAFETY`` times the largest rate difference quotient over the step's samples
    (per row of ``r``): the bound ``M`` on ``|g''|`` used by :func:`excursion_bound`."""
    dr = np.abs(r[..., 1:] - r[..., :-1]) / (tt[1:] - tt[:-1])
    return SAFETY * dr.max(axis=-1)


def _windows(g, ub, last, at_start):
    """Sample index ranges ``(lo, hi)`` to search for a hidden maximum, in time order,
    among the first ``last`` intervals: around an interior maximum ``j`` of the negative
    samples ``(j - 1, j + 1)``, elsewhere single intervals between negative samples;
    each only where the bound ``ub`` of :func:`excursion_bound` is not negative.  The
    first interval of a segment (which starts on the surface, ``g ~ 0``) is searched
    only as part of a window around a maximum, never on its own."""
    k = 0
    while k < last:
        j = k + 1
        if j < last and g[j] < 0 and g[j] >= g[j - 1] and g[j] >= g[j + 1]:
            if ub[k] >= 0 or ub[j] >= 0:
                yield k, j + 1
            k += 2
            continue
        if ub[k] >= 0 and g[k] < 0 and g[j] < 0 and not (at_start and k == 0):
            yield k, j
        k += 1


def _bounds(rfun, Y, p, G, tt):
    """Guard rates at the samples, shape ``(n_guards, n_points)`` (constant rates are
    generated as scalars), and the bounds of every guard on every interval."""
    Rt = np.asarray(rfun(Y, p), dtype=float)
    Rt = np.broadcast_to(Rt.reshape(G.shape[0], -1), G.shape)
    return Rt, excursion_bound(tt, G, Rt, curvature_bound(tt, Rt))


def _root(gi, a, b):
    """The zero of ``gi`` on ``[a, b]`` (``gi(a) < 0 <= gi(b)``) to a few ulps."""
    if gi(b) == 0.0:
        return b
    scale = max(abs(a), abs(b)) or (b - a)
    return brentq(gi, a, b, xtol=4e-16 * scale, rtol=4 * np.finfo(float).eps, maxiter=200)


class _Traced:
    """A guard of the time that keeps the last time it was asked at (``last``)."""

    def __init__(self, f):
        self.f = f

    def __call__(self, s):
        self.last = s
        return self.f(s)


def _one(gfun, y, p, i) -> float:
    """Guard ``i`` at the state ``y`` (the searches along one guard use no other:
    :meth:`~nsfric.solvers.watch.GuardWatch.one` where ``gfun`` is watched)."""
    one = getattr(gfun, "one", None)
    return one(y, p, i) if one is not None else float(gfun(y, p)[i])


def _earlier(best, root, i):
    return (root, i) if best is None or root < best[0] else best


def first_crossing(gfun, rfun, p, dense, ta, tb, n_check, at_start=False):
    """First upward zero crossing of any guard inside ``[ta, tb]``: ``(time, index)``
    or ``None``.

    Guards (``gfun(y, p)``, negative inside the mode) are sampled at ``n_check``
    interior points of the step's dense output ``dense``; on every interval between
    negative samples (before the first sign change) where :func:`excursion_bound`
    with the guard rates ``rfun(y, p)`` does not exclude a crossing, the maximum of
    the interpolant is located (bounded Brent), so that a pair of crossings between
    two samples is not missed -- also next to the step's ends or on a monotone
    background, which a search at the samples' interior maxima alone would miss.

    At the start of a segment a guard that is already non-negative and growing
    (its next sample larger) fires at once: the field pushes out of the mode it was
    just put in (a decision with no consistent continuation, e.g. chattering), which
    must not go unseen -- unless its rate at the start is negative and it dips below
    the surface before that sample: then the crossing after the dip is the event.
    """
    tt = np.linspace(ta, tb, n_check + 2)  # as in the baseline: sample times to the ulp
    Y = dense(tt)
    k = _ended_at_pole(gfun, Y, p)
    if k is not None:
        return _ended_between(gfun, rfun, p, dense, tt, k, n_check, at_start)
    G = np.atleast_2d(gfun(Y, p))  # (n_guards, n_points)
    Rt = UB = None
    best = None
    for i in range(G.shape[0]):
        g = G[i]
        gi = _Traced(lambda s, i=i: _one(gfun, dense(s), p, i))
        if at_start and g[0] >= 0 and g[1] > g[0]:
            if Rt is None:
                Rt, UB = _bounds(rfun, Y, p, G, tt)
            if Rt[i, 0] < 0:  # a dip below the surface inside the first interval?
                m = minimize_scalar(gi, bounds=(tt[0], tt[1]), method="bounded",
                                    options={"xatol": 1e-14 * max(1.0, abs(tb))})
                if m.fun < 0:
                    best = _earlier(best, _root(gi, m.x, tt[1]), i)
                    continue
            return (ta, i)
        bracket = None
        neg = g < 0
        # a crossing: a strictly negative sample followed by a non-negative one
        idx = np.nonzero(neg[:-1] & ~neg[1:])[0]
        if len(idx):
            bracket = (tt[idx[0]], tt[idx[0] + 1])
        # hidden excursions before the bracket, where the rates do not exclude one
        last = len(g) - 1 if bracket is None else idx[0]
        if last > 0:
            if Rt is None:
                Rt, UB = _bounds(rfun, Y, p, G, tt)
            for lo, hi in _windows(g, UB[i], last, at_start):
                m = minimize_scalar(lambda s: -gi(s), bounds=(tt[lo], tt[hi]),
                                    method="bounded", options={"xatol": 1e-14 * max(1.0, abs(tb))})
                if -m.fun >= 0:
                    bracket = (tt[lo], m.x)
                    break
        if bracket is None:
            continue
        try:
            best = _earlier(best, _root(gi, *bracket), i)
        except NonFiniteField:
            if not hasattr(gi, "last"):
                raise
            best = _ended_before(gfun, p, dense, i, gi.last, tt[0], bracket[0], best)
    return best


def _ended_at_pole(gfun, Y, p):
    """The first sample ``k > 0`` of ``Y`` where a guard is not finite while another has
    fired there (finite, ``>= 0``), or None: the contact end of a Hertz-Mindlin law
    sampled exactly at zero overlap, where its stick exit ``F_e (da/dt)/a`` is ``-inf``
    (two spheres: the overlap ``R_1 + R_2 - |r_2 - r_1|`` is resolved to ``1e-16 |r_2 -
    r_1|``, so a step that ends on the contact end has samples at exactly zero)."""
    G = np.atleast_2d(np.asarray(getattr(gfun, "gfun", gfun)(Y, p), dtype=float))
    bad = ~np.isfinite(G)
    if not bad.any():
        return None
    k = int(np.argmax(bad.any(axis=0)))
    fired = np.isfinite(G[:, k]) & (G[:, k] >= 0)
    return k if k > 0 and fired.any() else None


def _ended_between(gfun, rfun, p, dense, tt, k, n_check, at_start):
    """:func:`first_crossing` where the mode has ended by the sample ``k``
    (:func:`_ended_at_pole`): the search on ``[tt[0], tt[k - 1]]``, and the crossings of the
    guards fired at ``k`` on ``[tt[k - 1], tt[k]]``; the earliest."""
    best = first_crossing(gfun, rfun, p, dense, tt[0], tt[k - 1], n_check, at_start) if k > 1 else None
    G = np.asarray(getattr(gfun, "gfun", gfun)(dense(tt[k]), p), dtype=float)
    for j in np.nonzero(np.isfinite(G) & (G >= 0))[0]:
        gj = lambda t, j=int(j): _one(gfun, dense(t), p, j)
        if gj(tt[k - 1]) < 0:  # else it had fired by tt[k - 1]: found by the search before
            best = _earlier(best, _root(gj, tt[k - 1], tt[k]), int(j))
    return best


def _ended_before(gfun, p, dense, i, s, ta, lo, best):
    """Guard ``i`` is not finite at ``s`` inside its bracket (a pole it crosses: the
    stick exit's ``d sqrt(|delta|)/dt`` where a Kuwabara-Kono contact ends): accepted
    only where another guard has fired by ``s`` with a finite value -- the mode ends
    there, before the point guard ``i`` would be needed.  That guard's crossing on
    ``[lo, s]`` (``[ta, s]`` where it is already non-negative at ``lo``, the start of
    guard ``i``'s bracket) joins ``best``; otherwise the NonFiniteField stands."""
    G = np.asarray(getattr(gfun, "gfun", gfun)(dense(s), p), dtype=float)
    ended = [j for j in range(len(G)) if j != i and np.isfinite(G[j]) and G[j] >= 0]
    if not ended:
        gfun(dense(s), p)  # raises, naming guard i's state
        raise NonFiniteField(f"guard {i} is not finite at t = {s:.17g}")
    for j in ended:
        gj = lambda t, j=j: _one(gfun, dense(t), p, j)
        a = lo if gj(lo) < 0 else ta
        if gj(a) < 0:  # else it fired at the step's start: found by its own search
            best = _earlier(best, _root(gj, a, s), j)
    return best
