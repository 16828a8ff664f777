"""Another code's trajectories as the input of :func:`nsfric.study.verify.verify`.

A trajectory table has, besides ``dt`` and the varied case parameters, a time column
``t`` and one column per state of the case's model for the law (its names, e.g. ``xi``,
``v`` for ``sliding-plates``; ``x, y, vx, vy, omega`` for ``sphere-wall``): the rows of
one run are those of one parameter point and one ``dt``, in increasing ``t``.  Each run
becomes one row of the observable table :mod:`nsfric.study.verify_input` reads:

* ``<state>_end`` -- every state at the run's last time, which must be the end time of
  the reference (``t_end``, or the common last time of the runs);
* the case's own observables of a trajectory, where the case defines them
  (:meth:`~nsfric.cases.base.Case.trajectory_observables`; e.g. the impact observables
  at the contact end, found on the rows; an event time such as the first zero of the
  contact point's tangential velocity ``t_vt0``, with an error and an order of its own).

A runner may return such a trajectory instead of observables: ``{"t": times, state:
values, ...}`` (arrays of one length), see :func:`runner_trajectory`.

Besides, the error against time (:func:`trajectory_errors`): per state and law, the largest
deviation of each run from the exact reference evaluated at the run's own times, and its
observed order over the steps.
"""
from __future__ import annotations

import math

import numpy as np

#: the time column of a trajectory table
TIME = "t"


def is_trajectory(cols: dict) -> bool:
    """Whether a table is a trajectory table (it has a :data:`TIME` column)."""
    return TIME in cols


def _runs(cols, params, what):
    """``[(point, dt, row indices)]``: the rows of each run, in their order in the table."""
    runs = {}
    for i in range(len(cols["dt"])):
        key = tuple(float(cols[p][i]) for p in params) + (float(cols["dt"][i]),)
        runs.setdefault(key, []).append(i)
    out = []
    for key, rows in runs.items():
        point = dict(zip(params, key[:-1]))
        t = cols[TIME][rows]
        where = " ".join(f"{k}={v:g}" for k, v in point.items())
        if len(rows) < 2:
            raise ValueError(f"{what}: the run at dt = {key[-1]:g}{' ' + where if where else ''} has {len(rows)} row; "
                             f"a trajectory needs at least 2")
        if not np.all(np.diff(t) > 0):
            j = int(np.argmin(np.diff(t) > 0))
            raise ValueError(f"{what}: t must increase within a run; at dt = {key[-1]:g}{' ' + where if where else ''} "
                             f"row {rows[j + 1] + 2} has t = {t[j + 1]!r} after {t[j]!r}")
        out.append((point, key[-1], rows))
    return out


def trajectory_table(case, law: str, cols: dict, param_names, values_of, t_end=None,
                     what: str = "input") -> tuple:
    """``(observable table, t_end, dropped)`` of a trajectory table ``cols`` (module
    docstring); ``dropped``: ``{observable: why}`` for the case's partial observables
    (:attr:`~nsfric.cases.base.Case.partial_observables`) some runs lack, left out.

    Parameters
    ----------
    case : Case
        The case whose model names the states.
    law : str
        The law whose model's state names the columns must hold.
    cols : dict
        ``{column: float array}`` with ``dt``, :data:`TIME`, the states and the varied
        parameters (``param_names`` picks them).
    values_of : callable
        ``values_of(point) -> dict``: the full bound parameters of a point.
    t_end : float, optional
        The end time every run must reach (to 1e-9 of it); default: the runs' common
        last time.

    Raises
    ------
    ValueError
        For a missing state column, a run with fewer than 2 rows or a time that does not
        increase, or runs that end elsewhere than ``t_end`` (or at different times).
    """
    model = case.numeric_model(law)
    states = list(model.state_names)
    missing = [s for s in states if s not in cols]
    if missing:
        raise ValueError(f"{what}: a trajectory needs a column per state of {case.name!r}/{law} {states}; missing "
                         f"{missing}")
    params = [c for c in cols if c in set(param_names)]
    runs = _runs(cols, params, what)
    ends = [float(cols[TIME][rows[-1]]) for _, _, rows in runs]
    target = float(t_end) if t_end is not None else ends[0]
    for (point, dt, rows), end in zip(runs, ends):
        if not math.isclose(end, target, rel_tol=1e-9, abs_tol=1e-12 * abs(dt)):
            raise ValueError(f"{what}: the run at dt = {dt:g}{' ' + str(point) if point else ''} ends at t = {end!r}, "
                             f"the {'given t_end' if t_end is not None else 'first run'} at {target!r}: every run must "
                             f"end at the reference's end time (give --t-end or cut the runs)")
    partial = set(case.partial_observables)
    found = []
    for point, dt, rows in runs:
        t = cols[TIME][rows]
        Y = np.array([cols[s][rows] for s in states])
        row = {f"{s}_end": float(Y[j, -1]) for j, s in enumerate(states)}
        extra = case.trajectory_observables(law, values_of(point), t - t[0], Y, states)
        row.update({k: float(v) for k, v in extra.items()})
        found.append(row)
    names = sorted(set(found[0]) - partial)
    for (point, dt, _), row in zip(runs, found):
        if sorted(set(row) - partial) != names:
            raise ValueError(f"{what}: the run at dt = {dt:g} gives the observables {sorted(set(row) - partial)}, "
                             f"an earlier run {names} (e.g. the contact did not end within one of them)")
    dropped = {}
    for k in sorted(set().union(*found) & partial):
        lacking = [dt for (_, dt, _), row in zip(runs, found) if k not in row]
        if lacking:
            dropped[k] = (f"left out: not found in the run(s) at dt = {', '.join(f'{d:g}' for d in lacking)} "
                          f"(found in {len(runs) - len(lacking)} of {len(runs)})")
    table: dict = {}
    for (point, dt, _), row in zip(runs, found):
        for k, v in {**point, "dt": dt, **{k: v for k, v in row.items() if k not in dropped}}.items():
            table.setdefault(k, []).append(v)
    return {k: np.asarray(v, dtype=float) for k, v in table.items()}, target, dropped


def trajectory_errors(case, laws, cols, param_names, values_of, t_end, solver="filippov", tol=0.3) -> list:
    """The error against time of every run: per parameter point, law and state the
    largest ``|y_code(t_i) - y_exact(t_i)|`` over the run's rows ``t_i`` (the exact
    reference's dense output; after an event the state after it), per ``dt``, and its
    observed order (:func:`~nsfric.study.verify_limit.order_against`).

    Returns
    -------
    list of dict
        ``{params, law, state, dts, max_errors, order, order_stderr, reason}``.
    """
    from .verify_limit import order_against

    states = list(case.numeric_model(laws[0]).state_names)
    params = [c for c in cols if c in set(param_names)]
    by_point: dict = {}
    for point, dt, rows in _runs(cols, params, "input"):
        by_point.setdefault(tuple(point.items()), []).append((dt, rows))
    out = []
    for key, runs in by_point.items():
        point = dict(key)
        runs.sort()
        values = values_of(point)
        for law in laws:
            sol = case.reference_solution(law, solver=solver, params=values, t_end=t_end)
            t0 = sol.span[0]
            errs = []
            for dt, rows in runs:
                t = cols[TIME][rows]
                ref = sol(np.clip(t - t[0] + t0, *sol.span))
                # from the first step on: the initial row is the input (and a reset the law
                # makes at t0 would count as an error there)
                errs.append([float(np.max(np.abs(cols[s][rows][1:] - ref[j][1:]))) for j, s in enumerate(states)])
            errs = np.array(errs)
            dts = [dt for dt, _ in runs]
            for j, s in enumerate(states):
                fit = order_against(np.array(dts), errs[:, j], 0.0, tol)
                out.append({"params": point, "law": law, "state": s, "dts": dts, "max_errors": errs[:, j].tolist(),
                            "order": float(fit.order) if fit.ok else None,
                            "order_stderr": float(fit.stderr) if fit.ok else None,
                            "reason": "" if fit.ok else fit.reason})
    return out


def error_line(e: dict) -> str:
    """One summary line of a :func:`trajectory_errors` entry."""
    where = " ".join(f"{k}={v:g}" for k, v in e["params"].items())
    order = (f"order {e['order']:.2f} ± {e['order_stderr']:.2g}" if e["order"] is not None
             else f"no order ({e['reason']})")
    return (f"{where + ' ' if where else ''}{e['state']}(t) against {e['law']}: max error "
            f"{e['max_errors'][0]:.3g} at dt = {e['dts'][0]:g}, {order}")


def runner_trajectory(out: dict, what: str, dt: float) -> dict:
    """The columns of one trajectory a runner returned (``{"t": ..., state: ...}``),
    ValueError for ragged or non-finite arrays."""
    n = len(np.ravel(out[TIME]))
    cols = {}
    for k, v in out.items():
        a = np.ravel(np.asarray(v, dtype=float)) if not np.isscalar(v) else None
        if a is None:
            continue
        if len(a) != n:
            raise ValueError(f"{what} returned a trajectory whose {k!r} has {len(a)} values and t {n} at dt = {dt:g}")
        if not np.all(np.isfinite(a)):
            raise ValueError(f"{what} returned a non-finite {k!r} at dt = {dt:g}")
        cols[k] = a
    return cols
