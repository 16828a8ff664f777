"""The ladder of a convergence study that reaches the asymptotic range by itself.

The default ladder (:func:`~nsfric.study.convergence.default_ladder`) is a guess: where a
law x scheme's order has not *settled* on it (:func:`~nsfric.study.fit.settled_fit`),
:func:`extend_ladder` adds the next smaller step ``dt/2`` -- or, where the finest
errors are at the round-off floor, the next larger step ``2 dt`` -- until the order
settles or a limit stops it:

* :data:`LADDER_MAX_ADDED` steps added (local slopes that have not settled after three
  more halvings scatter for a reason of the problem's own);
* none added where the finest three local slopes spread by more than
  :data:`LADDER_WILD` (errors that jump like that show no sign of settling);
* the next step would need more than ``max_steps`` steps (default
  :data:`LADDER_MAX_STEPS`), or the extension more than its CPU-time budget
  (default :data:`LADDER_SECONDS`; a step is estimated at twice the previous one, each
  of its grid phases and timing repeats one run; the steps already added are charged
  with their runs' own CPU time, wherever they ran, so the ladder a study ends with
  does not depend on the machine's load or on the executor).

:func:`ladder_order` then gives the settled order, else the fit with the study's
tolerance, else "no order" with the scatter of the local slopes over the whole ladder
and why the ladder stopped.
"""
from __future__ import annotations

import math

import numpy as np

from .timing import REPEATS
from .fit import ROUNDOFF_BAND, OrderFit, fit_order, settled_fit, slope_scatter

#: default most steps of a step the ladder adds by itself (50 2^12: six halvings of the default ladder)
LADDER_MAX_STEPS = 50 * 2 ** 12
#: default CPU-time budget (s) of the ladder's extension
LADDER_SECONDS = 60.0
#: the coarsest step the ladder adds (at least this many steps over the window)
LADDER_MIN_STEPS = 8
#: most steps the ladder adds to one law x scheme
LADDER_MAX_ADDED = 3
#: no step is added where the finest three local slopes spread by more than this
LADDER_WILD = 1.0


def ladder_order(dts, errors, fit_range, tol, floor, extended, stop) -> OrderFit:
    """The order of one law x scheme: the settled fit of an extended ladder, else the fit
    with ``tol``; for no order the reason, with the scatter over the whole ladder and
    why the ladder stopped (``stop``)."""
    if extended:
        fit = settled_fit(dts, errors, tol, floor)
        if fit is not None:
            return fit
    fit = fit_order(dts, errors, fit_range, tol, floor=floor)
    if fit.ok:
        return fit
    parts = [fit.reason]
    if "local slopes" in fit.reason or "standard error" in fit.reason:
        parts.append(slope_scatter(dts, errors, floor))
    parts.append(stop)
    fit.reason = "; ".join(p for p in parts if p)
    return fit


def _spent(added) -> float:
    """CPU seconds the ladder's added rows cost: each row's best run time
    (:func:`~nsfric.study.timing.best_cpu_seconds`) times its grid phases and timing
    repeats, the same count the estimate of the next step uses."""
    return float(sum(r["seconds"] * (r["n_phases"] + REPEATS) for r in added))


def extend_ladder(rows, laws, schemes, T, floors, tol, max_steps, budget, task, run) -> dict:
    """Add steps to each law x scheme whose order has not settled (module docstring):
    ``dt/2`` below the finest step, or -- where the finest errors are at the round-off
    floor -- ``2 dt`` above the coarsest.  Returns why each unsettled ladder stopped."""
    first_new = len(rows)
    stops, open_ = {}, [(lw, s) for lw in laws for s in schemes]
    added = dict.fromkeys(open_, 0)
    while open_:
        batch, cost, keys = [], 0.0, []
        for lw, s in open_:
            sel = [r for r in rows if r["law"] == lw and r["scheme"] == s]
            dts = np.array([r["dt"] for r in sel])
            err = np.array([r["error"] for r in sel])
            if settled_fit(dts, err, tol, floors[lw]) is not None:
                continue
            ok = np.isfinite(err) & (err > floors[lw])
            idx = np.argsort(dts[ok])[:4]
            local = np.diff(np.log(err[ok][idx])) / np.diff(np.log(dts[ok][idx]))
            if len(local) == 3 and np.ptp(local) > LADDER_WILD:
                stops[(lw, s)] = (f"no step added: the local slopes of the finest steps ({', '.join(f'{x:.2f}' for x in local)}) "
                                  f"spread by more than {LADDER_WILD:g}")
                continue
            if added[(lw, s)] >= LADDER_MAX_ADDED:
                stops[(lw, s)] = (f"the order did not settle with {LADDER_MAX_ADDED} steps added to the ladder "
                                  f"(down to dt = {dts.min():.3g})")
                continue
            fine = int(np.argmin(dts))
            if np.isfinite(err[fine]) and err[fine] <= ROUNDOFF_BAND * floors[lw]:  # at the floor: go coarser
                dt = 2.0 * float(dts.max())
                if T / dt < LADDER_MIN_STEPS:
                    stops[(lw, s)] = (f"the finest errors are at the round-off floor ({floors[lw]:.2g}) and no "
                                      f"larger step is left (dt <= t_end/{LADDER_MIN_STEPS})")
                    continue
            else:
                dt = 0.5 * float(dts.min())
                n = math.ceil(T / dt - 1e-9)
                if n > max_steps:
                    stops[(lw, s)] = (f"the ladder was extended to dt = {dts.min():.3g}; budget reached: the "
                                      f"next step needs {n} steps, more than max_steps = {max_steps}")
                    continue
            per_run = max(r["seconds"] for r in sel) * (max(r["n_phases"] for r in sel) + REPEATS)
            cost += 2.0 * per_run
            if _spent(rows[first_new:]) + cost > budget:
                stops[(lw, s)] = (f"the ladder was extended to dt = {dts.min():.3g}; budget reached: the next step "
                                  f"would exceed ladder_seconds = {budget:g} s")
                continue
            batch.append(task(lw, s, dt))
            keys.append((lw, s))
            added[(lw, s)] += 1
        if batch:
            run(batch)
        open_ = keys
    return stops

