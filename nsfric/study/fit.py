"""The observed order of convergence: a least-squares slope on log-log axes, or "no order".

Given errors ``e_i`` at steps ``dt_i``, the observed order ``p`` is the least-squares
slope of ``log e`` against ``log dt`` over the *asymptotic range* -- the small-step end
of the ladder, where ``e ~ C dt^p``.  Its standard error is the textbook one of a
straight-line fit with two estimated coefficients,

    ``se(p) = sqrt( sum r_i^2 / (n - 2) / sum (x_i - mean x)^2 )``,

``r_i`` the residuals, ``x_i = log dt_i``.

The automatic range, on the points above the round-off ``floor``, sorted by step:

1. *round-off tail*: at the fine end, points within ``ROUNDOFF_BAND`` of the ``floor``
   where the error no longer decreases (local slope below ``min_order``) or decreases
   markedly slower than at the next larger step (by more than ``tol``) are round-off,
   not truncation error, and are left out;
2. the range starts at the finest remaining step and extends towards larger steps as
   long as every *local slope* ``log(e_{i+1}/e_i) / log(dt_{i+1}/dt_i)`` lies within
   ``tol`` of the slope fitted over the range.  Larger steps beyond it are
   pre-asymptotic and never chosen instead, however many of them agree with each
   other.

A fit is *no order* (``order = nan`` and a ``reason``), never a number, when

* the range holds fewer than ``min_points`` (4) steps -- for the automatic range: the
  local slopes of the finest steps do not agree within ``tol`` over 4 steps;
* the slope is below ``min_order`` (0.5): the error does not decrease with the step;
* the fit is poor: its standard error exceeds ``MAX_REL_STDERR`` (10 %) of the slope.
  (In a range given by the caller the local slopes are not judged one by one --
  scattered but unbiased errors are allowed there and show in the standard error.)
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: a fit whose standard error exceeds this fraction of the order reports no order
MAX_REL_STDERR = 0.1
#: errors that stop decreasing within this factor of the round-off floor are round-off
ROUNDOFF_BAND = 1e3
#: an order is *settled* when the local slopes of its range lie within this of it ...
SETTLED_TOL = 0.1
#: ... and its standard error is at most this
SETTLED_STDERR = 0.05


@dataclass
class OrderFit:
    """An observed order of convergence, or "no order" with the reason.

    Attributes
    ----------
    order : float
        Least-squares slope of ``log error`` against ``log dt``; ``nan`` for no order.
    stderr : float
        Its standard error (``n - 2`` degrees of freedom); ``nan`` for no order.
    dt_min, dt_max : float
        The range of steps fitted (or examined, for no order; ``nan`` if none).
    n_points : int
        Steps in that range.
    automatic : bool
        Whether the range was chosen automatically.
    reason : str
        Empty for an order; for no order why, starting with ``"no order: "``.
    """

    order: float
    stderr: float
    dt_min: float
    dt_max: float
    n_points: int
    automatic: bool = True
    reason: str = ""

    @property
    def ok(self) -> bool:
        """True when the fit gives an order (a finite number)."""
        return not self.reason and math.isfinite(self.order)

    def label(self) -> str:
        """``"p = 2.01 ± 0.03"``, or ``"no order"``."""
        return f"p = {self.order:.2f} ± {self.stderr:.2g}" if self.ok else "no order"

    def as_dict(self) -> dict:
        return {"order": self.order, "order_stderr": self.stderr, "dt_min": self.dt_min,
                "dt_max": self.dt_max, "n_points": self.n_points, "reason": self.reason}


def _linfit(x, y):
    """Least-squares line ``y = a + s x``: the slope ``s`` and its standard error
    (``n - 2`` degrees of freedom; ``nan`` for two points)."""
    n = len(x)
    xm, ym = x.mean(), y.mean()
    sxx = float(np.sum((x - xm) ** 2))
    slope = float(np.sum((x - xm) * (y - ym)) / sxx)
    resid = y - (ym + slope * (x - xm))
    stderr = math.sqrt(float(np.sum(resid ** 2)) / (n - 2) / sxx) if n > 2 else float("nan")
    return slope, stderr


def _local_slopes(x, y):
    return np.diff(y) / np.diff(x)


def _judge(x, y, dts, min_points, min_order, automatic, what):
    """The fit over the points ``x, y`` (log dt, log error), or no order and why."""
    n = len(x)
    rng = (float(dts[0]), float(dts[-1])) if n else (float("nan"),) * 2

    def no(reason):
        return OrderFit(float("nan"), float("nan"), *rng, n, automatic, "no order: " + reason)

    if n < min_points:
        return no(f"{n} step(s) in {what}, at least {min_points} needed")
    s, se = _linfit(x, y)
    if s < min_order:
        return no(f"the error does not decrease with the step in {what} (slope {s:.2f} < {min_order:g})")
    if se > MAX_REL_STDERR * abs(s):
        return no(f"standard error {se:.2g} exceeds {MAX_REL_STDERR:.0%} of the slope {s:.2f} in {what}")
    return OrderFit(s, se, *rng, n, automatic)


def _why_none(dts, errors, floor) -> str:
    """Why no error is usable: the runs that diverged (a non-finite error) and those at
    or below the round-off floor, each with its steps."""
    order = np.argsort(dts, kind="stable")[::-1]
    diverged = [f"{dts[i]:g}" for i in order if not np.isfinite(errors[i])]
    floored = [f"{dts[i]:g}" for i in order if np.isfinite(errors[i]) and errors[i] <= floor]
    parts = []
    if diverged:
        parts.append(("every run" if len(diverged) == len(dts) else "the runs")
                     + f" diverged at dt = {', '.join(diverged)} (error not finite)")
    if floored:
        parts.append(("every error is" if len(floored) == len(dts) else "the error is")
                     + f" at or below the round-off floor {floor:g} at dt = {', '.join(floored)}")
    return "; ".join(parts) or "no step > 0"


def fit_order(dts, errors, fit_range=None, tol=0.3, min_points=4, floor=0.0,
              min_order=0.5) -> OrderFit:
    """Observed order of ``errors`` against ``dts`` over the asymptotic range.

    See the module docstring for the range and the rules that give "no order".

    Parameters
    ----------
    dts, errors : sequences of the same length
        Steps (> 0) and errors; non-finite errors and errors ``<= floor`` are left out.
    fit_range : (dt_min, dt_max), optional
        Fit exactly the steps inside it (default: the automatic asymptotic range).
    tol : float
        Allowed deviation of every local slope from the fitted one.
    min_points : int
        Fewest steps of a range that gives an order (default 4).
    floor : float
        Round-off level of the errors (absolute).
    min_order : float
        Smallest slope that counts as convergence.

    Returns
    -------
    OrderFit
    """
    if min_points < 3:
        raise ValueError(f"min_points must be >= 3 (a standard error needs n - 2 > 0), got {min_points}")
    dts = np.asarray(dts, dtype=float)
    errors = np.asarray(errors, dtype=float)
    if dts.shape != errors.shape:
        raise ValueError(f"dts and errors must have the same length, got {dts.shape} and {errors.shape}")
    ok = np.isfinite(errors) & (errors > floor) & (dts > 0)
    idx = [i for i in np.argsort(dts, kind="stable") if ok[i]]
    if len(dts) and not idx:
        return OrderFit(float("nan"), float("nan"), float("nan"), float("nan"), 0, fit_range is None,
                        "no order: " + _why_none(dts, errors, floor))
    if fit_range is not None:
        lo, hi = sorted(map(float, fit_range))
        idx = [i for i in idx if lo * (1 - 1e-9) <= dts[i] <= hi * (1 + 1e-9)]
        x, y = np.log(dts[idx]), np.log(errors[idx])
        return _judge(x, y, dts[idx], min_points, min_order, False,
                      f"the given range [{lo:.3g}, {hi:.3g}]")
    x, y = np.log(dts[idx]), np.log(errors[idx])
    # 1. round-off tail: near the floor, errors that stop decreasing (or decrease markedly
    #    slower than at the next larger step) at the fine end
    local = _local_slopes(x, y)
    a = 0
    while a + 1 < len(x) and errors[idx[a]] <= ROUNDOFF_BAND * floor and (
            local[a] < min_order or (a + 2 < len(x) and local[a] < local[a + 1] - tol)):
        a += 1
    # 2. from the finest step, the longest run of consistent local slopes
    b = min(a + 2, len(x))
    for end in range(len(x), a + 2, -1):
        s, _ = _linfit(x[a:end], y[a:end])
        if np.all(np.abs(_local_slopes(x[a:end], y[a:end]) - s) <= tol):
            b = end
            break
    what = "the asymptotic range" + (f" (finest {a} step(s) at round-off left out)" if a else "")
    if b - a < min_points <= len(x) - a:
        local = np.array2string(_local_slopes(x[a:], y[a:])[:min_points], precision=2)
        return OrderFit(float("nan"), float("nan"), float(dts[idx[a]]), float(dts[idx[b - 1]]), b - a,
                        True, f"no order: the local slopes from the finest step, {local}, agree within "
                              f"tol = {tol:g} over {b - a} steps only, at least {min_points} needed")
    return _judge(x[a:b], y[a:b], dts[idx[a:b]], min_points, min_order, True, what)


def settled_fit(dts, errors, tol=0.3, floor=0.0, min_points=4) -> OrderFit | None:
    """The order of ``errors`` when the data have settled on one, else ``None``.

    Settled: over the automatic range chosen with the stricter tolerance
    ``min(tol, SETTLED_TOL)`` (every local slope of the range within it of the fitted
    order), at least ``min_points`` steps, a standard error of at most
    :data:`SETTLED_STDERR`, and the finest local slope within half that tolerance of
    the order (slopes that still drift towards the fine end are pre-asymptotic).  A ladder that has not settled is worth extending
    (:func:`nsfric.study.convergence.converge`).
    """
    tol = min(tol, SETTLED_TOL)
    fit = fit_order(dts, errors, None, tol, min_points, floor)
    if not (fit.ok and fit.stderr <= SETTLED_STDERR):
        return None
    dts = np.asarray(dts, dtype=float)
    errors = np.asarray(errors, dtype=float)
    fine = [i for i in np.argsort(dts, kind="stable") if fit.dt_min <= dts[i] and np.isfinite(errors[i])][:2]
    finest = math.log(errors[fine[1]] / errors[fine[0]]) / math.log(dts[fine[1]] / dts[fine[0]])
    return fit if abs(finest - fit.order) <= tol / 2 else None


def slope_scatter(dts, errors, floor=0.0) -> str:
    """The local slopes over the whole ladder in words: ``"the local slopes over the
    whole ladder (dt = a ... b) scatter +-x around m (from lo to hi)"``; empty with fewer
    than two usable steps."""
    dts = np.asarray(dts, dtype=float)
    errors = np.asarray(errors, dtype=float)
    idx = [i for i in np.argsort(dts, kind="stable") if np.isfinite(errors[i]) and errors[i] > floor]
    if len(idx) < 3:
        return ""
    local = _local_slopes(np.log(dts[idx]), np.log(errors[idx]))
    mid = 0.5 * (local.max() + local.min())
    return (f"the local slopes over the whole ladder (dt = {dts[idx[0]]:.3g} ... {dts[idx[-1]]:.3g}) "
            f"scatter \u00b1{0.5 * (local.max() - local.min()):.2f} around {mid:.2f} "
            f"(from {local.min():.2f} to {local.max():.2f})")
