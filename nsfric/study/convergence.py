"""The convergence-study engine: case x law x scheme x step -> error, observed order, work.

For every combination the discrete trajectory (:func:`~nsfric.schemes.simulate`)
is compared with the reference solution of the same problem (the closed form,
``analytic``, where the model is piecewise affine; otherwise the event-driven
``filippov`` solver) at the scheme's own sample times -- no interpolation of the
discrete solution:

* ``error``: max norm over the trajectory (all rows with ``t > 0``; the initial state
  is given) and over the chosen variables (default: all states);
* ``error_<var>``: the same per variable; ``error_t=<T>``: at the row nearest to each
  chosen time ``T``;
* ``n_rhs`` (right-hand-side evaluations) and ``seconds`` (CPU time of one run, the
  best of >= 3 repeats, repeated until >= 20 ms in all: :mod:`nsfric.study.timing`;
  ``timing_runs`` the calls measured, ``timing_cpu`` their total): the work of the
  work-precision diagrams.

**Grid phases.**  Where a switching event falls within a step sets the error of a
nonsmooth problem: with the ladder's steps halving, the event's position in the step
alternates, and the errors of one grid scatter around ``C dt^p`` (local slopes 1.7, 2.3,
1.7, ... for Heun on the C-SDS plates).  Each step is therefore run from ``phases``
starts ``tau_j = j dt / phases`` (the reference state there; :func:`~nsfric.study.runs.run_phases`):
``error`` and the ``error_*`` columns are the means over the phases (the expected
error of an event at a random position), ``error_max`` the largest, ``n_phases`` their
number.  By default :data:`EVENT_PHASES` (8) where the reference has a switching event
in ``(0, t_end)``, else 1 (a smooth problem: the error does not depend on the phase).

The observed order is the least-squares slope of ``log error`` against ``log dt`` over
the *asymptotic range* (given as ``(dt_min, dt_max)``, or the automatic small-step range),
with its standard error, or "no order" and why (:mod:`nsfric.study.fit`); the order of
the phase maxima (``order_max``) is reported beside it.

**A ladder that reaches the asymptotic range.**  With the default ladder (no ``dts``
and no ``fit_range`` given) a law x scheme whose order has not *settled*
(:func:`~nsfric.study.fit.settled_fit`: local slopes within 0.1 of the fitted order over
at least 4 steps, standard error <= 0.05) gets the next smaller step ``dt/2``, until it
settles or the budget ends it (:mod:`nsfric.study.ladder`): three steps added (none where
the finest three local slopes jump), the next step would need more than ``max_steps``
steps (default 204800) or the extension would exceed ``ladder_seconds`` of CPU time
(default 60 s).  Where the finest errors are at the round-off
floor, the ladder grows towards larger steps instead (down to ``t_end/8``).  The order
is the settled one; otherwise the fit with the study's ``tol``, or "no order" with the
reason (the local slopes' scatter over the whole ladder, the budget, the floor).
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field

import numpy as np

from ..schemes import get_scheme
from ..errors import BudgetError
from ..problems import ProblemFactory
from ..solution import Solution
from ..solvers.base import Problem
from .execute import forks_workers, run_tasks
from .fit import OrderFit, fit_order  # noqa: F401  (re-exported)
from .ladder import LADDER_MAX_STEPS, LADDER_SECONDS, extend_ladder, ladder_order
from .timing import timing_note
from .runs import (_LOCAL, _resolve, _task, discrete_errors, local_token, problem_of,  # noqa: F401
                   reference_for, run_one, run_phases)

#: errors below this (relative to the reference's scale) are treated as round-off
ROUNDOFF = 1e-12
#: grid phases of a problem whose reference has a switching event in the window
EVENT_PHASES = 8
#: most grid phases allowed
MAX_PHASES = 64


def default_ladder(t_end: float, levels: int = 7, n_min: int = 50) -> list:
    """Geometric ladder ``dt = t_end/(n_min 2^j)``, ``j = 0..levels-1`` (every grid
    ends exactly on ``t_end``)."""
    return [t_end / (n_min * 2 ** j) for j in range(levels)]




def table_columns(rows, names) -> dict:
    """Columns from a list of dicts: floats as float arrays; strings and integers as
    object arrays (written verbatim by :func:`nsfric.io.csv_text`)."""
    out = {}
    for c in names:
        vals = [r.get(c, np.nan) for r in rows]
        if all(isinstance(v, (int, np.integer, str)) and not isinstance(v, bool) for v in vals):
            out[c] = np.array([v if isinstance(v, str) else int(v) for v in vals], dtype=object)
        else:
            out[c] = np.array(vals, dtype=float)
    return out



# -- the study ---------------------------------------------------------------------------
@dataclass
class ConvergenceResult:
    """Rows (one per law x scheme x dt) and observed orders (one per law x scheme)."""

    case: str
    rows: list
    fits: dict
    variables: list
    times: list = field(default_factory=list)
    meta: dict = field(default_factory=dict)
    fits_max: dict = field(default_factory=dict)

    ROW_COLUMNS = ("law", "scheme", "dt", "error", "n_rhs", "seconds")
    ORDER_COLUMNS = ("law", "scheme", "order", "order_stderr", "dt_min", "dt_max", "nominal_order")

    def row_columns(self) -> list:
        extra = []
        for r in self.rows:
            extra += [k for k in r if k not in self.ROW_COLUMNS and k not in extra]
        return list(self.ROW_COLUMNS) + extra

    def orders(self, column: str = "error") -> list:
        """One dict per law x scheme: the observed order of ``column`` (``error``, or a
        per-variable ``error_<var>``), its standard error and range, the nominal order,
        and ``reason`` (empty, or ``"no order: ..."`` with ``order = nan``)."""
        out = []
        for (law, scheme) in self.fits:
            fit = self.fit(law, scheme, column)
            s = get_scheme(scheme)
            d = {"law": law, "scheme": scheme, **fit.as_dict(), "nominal_order": s.order,
                 "damped_order": s.damped_order}
            if column != "error":
                d["error_on"] = column
            elif (law, scheme) in self.fits_max:  # the order of the maxima over the phases
                fmax = self.fits_max[(law, scheme)]
                d.update({"n_phases": self.meta.get("phases", {}).get(law, 1), "order_max": fmax.order,
                          "order_max_stderr": fmax.stderr, "reason_max": fmax.reason})
            out.append(d)
        return out

    def fit(self, law, scheme, column: str = "error", fit_range=None) -> OrderFit:
        """Order fit of ``column`` (the stored fit for ``error`` unless a range is given)."""
        if column == "error" and fit_range is None:
            return self.fits[(law, scheme)]
        dt, err = self.series(law, scheme, column)
        return fit_order(dt, err, fit_range if fit_range is not None else self.meta.get("fit_range"),
                         self.meta.get("tol", 0.3), floor=self.meta.get("floor", {}).get(law, 0.0))

    def order_of(self, law, scheme) -> OrderFit:
        return self.fits[(law, scheme)]

    def select(self, law=None, scheme=None) -> list:
        return [r for r in self.rows if (law is None or r["law"] == law)
                and (scheme is None or r["scheme"] == scheme)]

    def series(self, law, scheme, column="error"):
        rows = sorted(self.select(law, scheme), key=lambda r: r["dt"])
        return np.array([r["dt"] for r in rows]), np.array([r[column] for r in rows], dtype=float)

    def columns(self) -> dict:
        """Ordered table columns (text and integer columns as objects, so that a CSV
        keeps integers as integers)."""
        return table_columns(self.rows, self.row_columns())

    def order_columns(self) -> dict:
        extra = ["n_phases", "order_max", "order_max_stderr", "reason_max"] if self.fits_max else []
        return table_columns(self.orders(), list(self.ORDER_COLUMNS) + ["n_points", "damped_order", "reason"] + extra)

    def to_dataframe(self):
        """The rows as a pandas DataFrame (pandas is imported only here)."""
        import pandas as pd

        return pd.DataFrame(self.rows, columns=self.row_columns())

    def to_xarray(self):
        """The study as an :class:`xarray.Dataset` on the dimensions ``law``, ``scheme``
        and ``dt`` (NaN where a combination was not run): the row columns as variables,
        the observed orders (``order``, ``order_stderr``, ``nominal_order``) on ``law``
        and ``scheme``; ``units`` in the attributes where known; the case and the
        study's settings (JSON) as attributes."""
        import json

        import xarray as xr

        ds = xr.Dataset.from_dataframe(self.to_dataframe().set_index(["law", "scheme", "dt"]))
        orders = self.orders_dataframe().set_index(["law", "scheme"])
        for name in ("order", "order_stderr", "nominal_order"):
            ds[name] = xr.DataArray.from_series(orders[name].astype(float)).reindex_like(ds[["law", "scheme"]])
        for name, unit in {"seconds": "s", "n_rhs": "1", "order": "1", "order_stderr": "1", "nominal_order": "1",
                           **self.meta.get("units", {})}.items():
            if name in ds.variables and unit:
                ds[name].attrs["units"] = unit
        ds.attrs = {"case": self.case, "variables": json.dumps(self.variables),
                    **{k: v if isinstance(v, str) else json.dumps(v, default=str) for k, v in self.meta.items()}}
        return ds

    def orders_dataframe(self):
        import pandas as pd

        return pd.DataFrame(self.orders())

    def csv_text(self) -> str:
        from ..io import csv_text

        return csv_text(self.columns())

    def orders_csv_text(self) -> str:
        from ..io import csv_text

        return csv_text(self.order_columns())

    def write(self, out_dir: str, plot: bool = True) -> list:
        """``convergence.csv``, ``orders.csv``, ``convergence.json`` (provenance) and
        ``convergence.png`` in ``out_dir``, written atomically together."""

        from ..io import atomic_files, json_text, versions

        paths = [os.path.join(out_dir, n) for n in ("convergence.csv", "orders.csv", "convergence.json")]
        if plot:
            paths.append(os.path.join(out_dir, "convergence.png"))
        meta = dict(self.meta, case=self.case, variables=self.variables, times=self.times,
                    orders=self.orders(), versions=versions())
        with atomic_files(*paths) as tmps:
            with open(tmps[0], "w") as f:
                f.write(self.csv_text())
            with open(tmps[1], "w") as f:
                f.write(self.orders_csv_text())
            with open(tmps[2], "w") as f:
                f.write(json_text(meta))
            if plot:
                import matplotlib.pyplot as plt

                fig = self.plot()
                fig.savefig(tmps[3], format="png", dpi=130, bbox_inches="tight")
                plt.close(fig)
        return paths

    def plot(self, title=None):
        """Log-log error against dt (with reference slopes) and work-precision panels."""
        from .plot import plot_convergence

        return plot_convergence(self, title)


def converge(case: Problem | ProblemFactory, law=None, schemes=("euler",), dts=None, variables=None, times=(), t_end=None,
             params=None, reference="auto", fit_range=None, tol=0.3, jobs=1, progress=None,
             max_steps=None, max_seconds=None, executor=None, phases=None, ladder_seconds=None):
    """Convergence study of ``schemes`` on ``case`` for one law or a list of laws.

    Parameters
    ----------
    case : Problem, or a case object (a case *name* is resolved by :func:`nsfric.converge`)
    law : str or sequence of str (default: the case's default law; a Problem has its own)
    schemes : sequence of scheme names
    dts : sequence of steps (default :func:`default_ladder`, extended until the order
        settles: module docstring)
    variables : states compared (default: all states)
    times : times at which the error is also reported
    t_end, params : end time and parameter overrides (params: a case only)
    reference : Solution, or the name of a reference solver; ``"auto"`` (default): the
        closed form where the model admits one, else ``filippov``.  A given Solution --
        a reference solve or a fine discrete run -- serves one law.
    fit_range : (dt_min, dt_max) of the order fit (default: automatic)
    jobs : worker processes (1: in this process); a worker that dies is replaced and its
        runs retried (:func:`~nsfric.study.execute.run_tasks`, as for sweeps)
    progress : callable ``(done, total)``, optional
    max_steps : int, optional
        Refuse the study before any work when a step of the ladder needs more steps
        (``BudgetError``); also the budget of every run, and the most steps of a step
        the ladder adds by itself (default :data:`~nsfric.study.ladder.LADDER_MAX_STEPS`).
    max_seconds : float, optional
        Wall-time budget of each discrete run (``BudgetError`` once exceeded).
    executor : optional
        Where the runs go instead of ``jobs`` local processes: a
        :class:`concurrent.futures.Executor` or a Dask ``distributed.Client`` (the case
        and a given reference Solution are then pickled), one run per task.
    phases : int in [1, 64], optional
        Grid phases per step (module docstring; default: :data:`EVENT_PHASES` where the
        reference has a switching event in ``(0, t_end)``, else 1).
    ladder_seconds : float, optional
        Wall-time budget of the ladder's extension (default
        :data:`~nsfric.study.ladder.LADDER_SECONDS`).

    Returns
    -------
    ConvergenceResult
    """
    from ..arguments import integer, numbers_1d, positive, seconds, step_range

    case = _resolve(case)
    if isinstance(case, Problem):
        if law not in (None, case.law) and law != [case.law]:
            raise ValueError(f"law {law!r}: the Problem's law is {case.law!r}")
        if params:
            raise ValueError("params belong to the Problem; do not pass them too")
        laws, T0 = [case.law], case.t_span[1]
    else:
        laws = [case.check_law(law)] if (law is None or isinstance(law, str)) else [case.check_law(x) for x in law]
        T0 = case.t_end
    if isinstance(reference, Solution) and len(laws) > 1:
        raise ValueError("a reference Solution serves one law; pass one law")
    if isinstance(schemes, str):
        schemes = [schemes]
    schemes = [get_scheme(s).name for s in schemes]
    if not schemes:
        raise ValueError("no scheme given")
    t_end = None if t_end is None else positive(t_end, "t_end")
    T = float(T0 if t_end is None else t_end)
    extend = dts is None and fit_range is None
    dts = default_ladder(T) if dts is None else numbers_1d(dts, "dts", 0.0, lo_open=True, unique=True)
    fit_range = None if fit_range is None else step_range(fit_range, "fit_range")
    tol = positive(tol, "tol")
    jobs = integer(jobs, "jobs", 1)
    max_seconds = seconds(max_seconds)
    if any(x > T for x in dts):
        raise ValueError(f"dt must not exceed t_end = {T:g}, got {max(dts):g}")
    models = {lw: problem_of(case, None if isinstance(case, Problem) else lw, params, t_end).model
              for lw in laws}  # validates the parameters before any run
    variables = list(variables or models[laws[0]].state_names)
    for lw in laws:
        bad = [v for v in variables if v not in models[lw].state_names]
        if bad:
            raise ValueError(f"unknown variable(s) {bad}; states of {lw!r}: {list(models[lw].state_names)}")
    if phases is not None:
        phases = integer(phases, "phases", 1, MAX_PHASES)
    ladder_seconds = LADDER_SECONDS if ladder_seconds is None else positive(ladder_seconds, "ladder_seconds")
    if max_steps is not None:
        max_steps = integer(max_steps, "max_steps", 1)
        over = [x for x in dts if math.ceil(T / x - 1e-9) > max_steps]
        if over:
            raise BudgetError(f"dt = {min(over):g} needs {math.ceil(T / min(over) - 1e-9)} steps, more "
                              f"than max_steps = {max_steps}; choose larger steps or raise the budget "
                              f"(--max-steps)")
    times = numbers_1d(times or (), "times", empty=True, unique=True)
    if any(not (0 < x <= T) for x in times):
        raise ValueError(f"error times must lie in (0, t_end = {T:g}], got {times}")
    # tokens of this process's objects only where the workers inherit them (forked, as the
    # local pool decides: after a Dask client started threads here, it does not fork)
    local = executor is None and (forks_workers() or not (jobs and jobs > 1))
    ref_case = local_token(case, "source") if local else case
    ref_given = local_token(reference, "reference") if local and isinstance(reference, Solution) else reference
    key_law = {lw: None if isinstance(case, Problem) else lw for lw in laws}
    refs = {lw: reference_for(ref_case, key_law[lw], params, t_end, ref_given) for lw in laws}  # before any fork
    n_phases = {lw: phases or (EVENT_PHASES if any(0.0 < e.t < T for e in refs[lw].events) else 1) for lw in laws}
    floors = {lw: ROUNDOFF * (float(np.max(np.abs(refs[lw](np.linspace(0.0, T, 201))))) or 1.0) for lw in laws}

    def task(lw, s, dt):
        return (ref_case, key_law[lw], s, dt, variables, times, t_end, params, ref_given, max_steps,
                max_seconds, n_phases[lw])

    rows = []

    def run(batch):
        got = [None] * len(batch)
        done0 = len(rows)

        def collect(i, row):
            got[i] = row
            if progress:
                progress(done0 + sum(r is not None for r in got), done0 + len(batch))

        # the sweep's executors: here, local processes (a dead worker retried) or any executor
        run_tasks(_task, list(enumerate(batch)), collect, executor, jobs if len(batch) > 1 else 1, chunksize=1)
        rows.extend(got)

    run([task(lw, s, dt) for lw in laws for s in schemes for dt in dts])
    stops = extend_ladder(rows, laws, schemes, T, floors, tol, max_steps or LADDER_MAX_STEPS,
                           ladder_seconds, task, run) if extend else {}
    fits, fits_max = {}, {}
    for lw in laws:
        for s in schemes:
            sel = [r for r in rows if r["law"] == lw and r["scheme"] == s]
            dt_s, err = [r["dt"] for r in sel], [r["error"] for r in sel]
            fits[(lw, s)] = ladder_order(dt_s, err, fit_range, tol, floors[lw], extend, stops.get((lw, s), ""))
            fits_max[(lw, s)] = fit_order(dt_s, [r["error_max"] for r in sel], fit_range, tol, floor=floors[lw])
    rows.sort(key=lambda r: (laws.index(r["law"]), schemes.index(r["scheme"]), -r["dt"]))
    meta = {"laws": laws, "schemes": schemes, "dts": dts, "t_end": T, "params": dict(params or {}),
            "reference": reference if isinstance(reference, str) else f"given ({reference.solver})",
            "fit_range": fit_range, "tol": tol, "floor": floors, "phases": n_phases, "timing": timing_note(),
            "ladder": {"extended": extend, "max_steps": max_steps or LADDER_MAX_STEPS if extend else max_steps,
                       "seconds": ladder_seconds if extend else None,
                       "stops": {f"{lw}/{s}": why for (lw, s), why in stops.items()}}}
    meta["unit"] = getattr(case, "unit", "n.u.")
    if hasattr(case, "unit_of"):  # a case (a Problem knows no units)
        meta["units"] = {"dt": case.unit_of("t"), **{f"error_{v}": case.unit_of(v) for v in variables or ()}}
    return ConvergenceResult(case.name or models[laws[0]].name, rows, fits, variables, times, meta, fits_max)

