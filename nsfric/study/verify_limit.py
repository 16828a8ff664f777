"""The dt -> 0 limit of another code's observable, and its distance from an exact value.

Given a code's values ``y_i`` of one observable at steps ``h_1 < h_2 < ... < h_n``
(``n >= 3``), the code converges when its successive differences
``Delta_i = y_{i+1} - y_i`` shrink as a power of the step, ``|Delta_i| ~ C h^p``: the
*self-convergence order* ``p`` is the observed order of the differences
(:func:`~nsfric.study.fit.fit_order` on ``|Delta_i| / (1 - (h_i/h_{i+1})^p)`` against
``h_{i+1}``, iterated so that ladders of unequal ratios are handled; for ``n = 3`` the
slope of the two differences, without a standard error).  The limit is Richardson's
extrapolation from the two finest steps,

    ``L = y_1 + (y_1 - y_2) / ((h_2/h_1)^p - 1)``,

and its uncertainty the largest of its distances to the extrapolation from the next
pair ``(y_2, y_3)`` and to Aitken's extrapolation of ``(y_1, y_2, y_3)`` (which takes
the local order of these three steps), and of the distance between Aitken's
extrapolations of ``(y_1, y_2, y_3)`` and ``(y_2, y_3, y_4)`` -- estimates of the
neglected higher-order terms, also of their bias on the fitted ``p`` --, plus the change
of ``L`` over one standard error of ``p``, plus the round-off level of the values; and
at least the change of ``L`` when ``p`` is replaced by the integer within
:data:`ORDER_BIAS` of it (the scheme's order, to which a fit over steps where a
higher-order term still shows is biased: e.g. 0.9967 for an error ``c_1 h + c_2 h^2``
with ``c_2 h/c_1`` of a few 1e-3, which moves ``L`` by more than the spreads).  With
three steps nothing checks the model ``C h^p``: the uncertainty is then at least the
whole correction ``|L - y_1|``.  Values
that do not change with the step (every difference at round-off) have the finest
value as their limit and their spread as its uncertainty.

The order of the code's *error* against an exact value is fitted separately
(:func:`order_against`): both are reported by :mod:`nsfric.study.verify`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .fit import OrderFit, fit_order

#: differences below this fraction of the values' scale are round-off
ROUNDOFF = 1e-12
#: a fitted order within this of an integer ``q``: the uncertainty is at least the
#: change of the limit under the order ``q`` (a higher-order term biases the fit)
ORDER_BIAS = 0.1
#: values without an order converge when their differences fall at least this fast
#: with the step over the whole ladder (least-squares slope, :func:`shrink_slope`)
MIN_SHRINK_SLOPE = 0.5


@dataclass
class Limit:
    """The dt -> 0 limit of a sequence of values.

    Attributes
    ----------
    value, uncertainty : float
        Richardson's extrapolation and its uncertainty (``nan`` when the values do not
        converge).
    order : OrderFit
        The self-convergence order of the successive differences (or "no order" and why).
    constant : bool
        The values do not change with the step (every difference at round-off).
    note : str
        Where the order used is not the self-convergence order, which one and why; for
        values that converge without an order (``shrinking``), how the limit was taken.
    shrinking : bool
        The values converge without an order: their differences fall with the step but
        scatter (:func:`shrink_slope`); the limit is the finest value.
    """

    value: float
    uncertainty: float
    order: OrderFit
    constant: bool = False
    note: str = ""
    shrinking: bool = False

    @property
    def converges(self) -> bool:
        return self.constant or ((self.order.ok or self.shrinking) and math.isfinite(self.value))

    def reason(self) -> str:
        """Why the values do not converge (empty when they do)."""
        return "" if self.converges else self.order.reason


def round_off(values) -> float:
    """The round-off level of ``values``: :data:`ROUNDOFF` times their largest magnitude."""
    scale = float(np.max(np.abs(values))) if len(values) else 0.0
    return ROUNDOFF * scale if scale > 0 else 1e-300


def _two_point_order(h, a):
    """The slope of two differences ``a`` at steps ``h`` (no standard error)."""
    if not (a[0] > 0 and a[1] > 0):
        return OrderFit(math.nan, math.nan, float(h[0]), float(h[1]), 2, True,
                        "no order: a difference of the values is at round-off")
    p = math.log(a[1] / a[0]) / math.log(h[1] / h[0])
    if p < 0.5:
        return OrderFit(p, math.nan, float(h[0]), float(h[1]), 2, True,
                        f"no order: the differences of the values do not decrease with the step (slope {p:.2f} < 0.5)")
    return OrderFit(p, math.nan, float(h[0]), float(h[1]), 2, True)


def self_order(h, y, floor, tol=0.3) -> OrderFit:
    """Self-convergence order of values ``y`` at ascending steps ``h`` (module docstring)."""
    d = np.abs(np.diff(y))
    ratio = h[:-1] / h[1:]
    p = 1.0
    fit = None
    for _ in range(4):  # a fixed point in p: exact at once on a geometric ladder
        norm = d / np.abs(1.0 - ratio ** p)
        fit = robust_fit(h[1:], norm, tol=tol, min_points=3, floor=floor) if len(d) >= 3 \
            else _two_point_order(h[1:], norm)
        if not fit.ok or abs(fit.order - p) < 1e-6:
            break
        p = fit.order
    return fit


def shrink_slope(h, y, floor) -> float:
    """The least-squares slope ``s`` of ``log |Delta_i|`` against ``log h`` (``h``
    ascending, at least four values; differences at round-off count as ``floor``) when
    the differences fall with the step -- ``s >=`` :data:`MIN_SHRINK_SLOPE` and the finest
    difference below half the coarsest --, else ``nan``."""
    d = np.maximum(np.abs(np.diff(y)), floor)
    if len(d) < 3:
        return math.nan
    s = float(np.polyfit(np.log(h[1:]), np.log(d), 1)[0])
    return s if s >= MIN_SHRINK_SLOPE and d[0] < 0.5 * d[-1] else math.nan


def _aitken(y) -> float:
    """Aitken's extrapolation of three values (their own local order): ``nan`` when the
    differences are equal."""
    d1, d2 = y[1] - y[0], y[2] - y[1]
    return float(y[0] - d1 * d1 / (d2 - d1)) if d2 != d1 else math.nan


def robust_fit(dts, errors, tol=0.3, min_points=4, floor=0.0) -> OrderFit:
    """:func:`~nsfric.study.fit.fit_order` over the automatic range; where the local slopes
    of the finest steps scatter too much for it (the grid phase of a switch makes a
    nonsmooth problem's errors erratic), over the whole ladder -- which gives an order
    only when the scatter keeps its standard error within 10 % of it."""
    fit = fit_order(dts, errors, tol=tol, min_points=min_points, floor=floor)
    if fit.ok or "local slopes" not in fit.reason:
        return fit
    whole = fit_order(dts, errors, (min(dts), max(dts)), tol=tol, min_points=min_points, floor=floor)
    if whole.ok:
        return whole
    return OrderFit(fit.order, fit.stderr, fit.dt_min, fit.dt_max, fit.n_points, True,
                    f"{fit.reason}; over the whole ladder: {whole.reason[len('no order: '):]}")


def extrapolate(dts, values, tol=0.3, order: OrderFit | None = None) -> Limit:
    """The dt -> 0 limit of ``values`` at ``dts`` (module docstring).  Where the values'
    differences give no self-convergence order, ``order`` (the order of the error
    against an exact value, when it has one) is used instead, and said so."""
    idx = np.argsort(dts)
    h, y = np.asarray(dts, float)[idx], np.asarray(values, float)[idx]
    floor = round_off(y)
    if np.all(np.abs(np.diff(y)) <= floor):
        spread = float(np.max(np.abs(y - y[0])))
        fit = OrderFit(math.nan, math.nan, float(h[0]), float(h[-1]), len(h), True,
                       "no order: the values do not change with the step")
        return Limit(float(y[0]), max(spread, floor), fit, constant=True)
    fit = self_order(h, y, floor, tol)
    note = ""
    if not fit.ok and order is not None and order.ok:
        note = f"self-convergence {fit.reason}; the order of the error against the exact value is used"
        fit = order
    if not fit.ok:
        slope = shrink_slope(h, y, floor)
        if not math.isfinite(slope):
            return Limit(math.nan, math.nan, fit)
        rho = (h[0] / h[1]) ** slope
        d = np.abs(np.diff(y[:3]))
        u = float(np.max(d)) * rho / (1.0 - rho) + floor
        return Limit(float(y[0]), u, fit, note=(
            f"the differences fall with the step (slope {slope:.2f} over the ladder) but give no order: "
            f"limit = the finest value, uncertainty = the geometric tail of the two finest differences"),
            shrinking=True)
    p = fit.order

    def richardson(i):
        r = (h[i + 1] / h[i]) ** p
        return y[i] + (y[i] - y[i + 1]) / (r - 1.0), r

    limit, r = richardson(0)
    spread = [abs(limit - richardson(1)[0])]
    aitken = [_aitken(y[i:i + 3]) for i in range(min(2, len(y) - 2))]
    spread += [abs(limit - a) for a in aitken[:1]] + [abs(aitken[0] - a) for a in aitken[1:]]
    u = max(x for x in spread if math.isfinite(x)) if any(map(math.isfinite, spread)) else abs(limit - y[0])
    if len(h) == 3:  # nothing checks the model e = C h^p: the whole correction is uncertain
        u = max(u, abs(limit - y[0]))
    if math.isfinite(fit.stderr):  # dL/dp over one standard error of p
        u += abs((y[0] - y[1]) * r * math.log(h[1] / h[0]) / (r - 1.0) ** 2) * fit.stderr
    q = round(p)
    if q >= 1 and abs(p - q) < ORDER_BIAS:  # a fitted order biased off the scheme's integer one
        r_q = (h[1] / h[0]) ** q
        u = max(u, abs(limit - (y[0] + (y[0] - y[1]) / (r_q - 1.0))))
    return Limit(float(limit), float(u + floor), fit, note=note)


def order_against(dts, errors, floor, tol=0.3) -> OrderFit:
    """The observed order of ``|errors|`` against ``dts`` (the code's error against an
    exact value): :func:`~nsfric.study.fit.fit_order` with errors at or below ``floor``
    (the exact value's uncertainty) left out, over at least 3 steps (4 when given), over
    the whole ladder where the automatic range finds the finest slopes scattered
    (:func:`robust_fit`)."""
    return robust_fit(dts, np.abs(errors), tol=tol, min_points=min(4, len(dts)), floor=floor)
