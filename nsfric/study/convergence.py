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
* ``n_rhs`` (right-hand-side evaluations) and ``seconds`` (wall time of the
  integration): the work of the work-precision diagrams.

The observed order is the least-squares slope of ``log error`` against ``log dt`` over
the *asymptotic range* (given as ``(dt_min, dt_max)``, or the automatic small-step range),
with its standard error, or "no order" and why (:mod:`nsfric.study.fit`).
"""
from __future__ import annotations

import math
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from ..schemes import get_scheme, simulate
from .fit import OrderFit, fit_order  # noqa: F401  (re-exported)

#: errors below this (relative to the reference's scale) are treated as round-off
ROUNDOFF = 1e-12


def default_ladder(t_end: float, levels: int = 7, n_min: int = 50) -> list:
    """Geometric ladder ``dt = t_end/(n_min 2^j)``, ``j = 0..levels-1`` (every grid
    ends exactly on ``t_end``)."""
    return [t_end / (n_min * 2 ** j) for j in range(levels)]


# -- one run -----------------------------------------------------------------------------
_REFS: dict = {}


def reference_for(case, law, params=None, t_end=None, solver="auto"):
    """The (cached) reference solution of ``case``/``law``; ``solver="auto"`` takes the
    closed form where the model admits one, else the event-driven Filippov solver."""
    case = _resolve(case)
    key = (id(case), case.name, law, tuple(sorted((params or {}).items())), t_end, solver)
    sol = _REFS.get(key)
    if sol is None:
        names = ["analytic", "filippov"] if solver == "auto" else [solver]
        err = None
        for name in names:
            try:
                sol = case.reference_solution(law, solver=name, params=params, t_end=t_end,
                                              t_eval=np.linspace(0.0, t_end or case.t_end, 3))
                break
            except ValueError as e:  # not piecewise affine: no closed form
                err = e
        if sol is None:
            raise err
        _REFS[key] = sol
    return sol


def discrete_errors(res, ref, variables=None, times=()) -> dict:
    """Errors of a discrete result against a reference at the result's own rows."""
    names = list(res.state_names)
    variables = list(variables or names)
    sel = res.t > res.t[0]
    t = res.t[sel]
    Y = res.y[:, sel]
    R = ref(t)
    out = {}
    worst = 0.0
    for v in variables:
        i = names.index(v)
        e = float(np.max(np.abs(Y[i] - R[i]))) if len(t) else float("nan")
        if not np.all(np.isfinite(Y[i])):
            e = float("inf")
        out[f"error_{v}"] = e
        worst = max(worst, e)
    out["error"] = worst
    for T in times or ():
        j = int(np.argmin(np.abs(t - float(T))))
        d = [abs(Y[names.index(v), j] - R[names.index(v), j]) for v in variables]
        out[f"error_t={float(T):g}"] = float(max(d)) if np.all(np.isfinite(d)) else float("inf")
    return out


def run_one(case, law, scheme, dt, variables=None, times=(), t_end=None, params=None,
            reference="auto") -> dict:
    """One row of a convergence table."""
    case = _resolve(case)
    key = (id(case), law, str(scheme))
    if key not in _WARM:  # compile lazily generated code outside the timed run
        T = float(case.t_end if t_end is None else t_end)
        simulate(case, law, scheme, min(dt, T / 4), t_end=min(T, 4 * dt), params=params)
        _WARM.add(key)
    res = simulate(case, law, scheme, dt, t_end=t_end, params=params)
    ref = reference_for(case, law, params, t_end, reference)
    row = {"law": res.law, "scheme": res.scheme, "dt": float(dt)}
    errs = discrete_errors(res, ref, variables, times)
    row["error"] = errs.pop("error")
    row.update({"n_rhs": res.n_rhs, "seconds": res.seconds, "n_steps": res.n_steps,
                "n_events": len(res.events)})
    row.update(errs)
    row["reference"] = ref.solver
    return row


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


_WARM: set = set()
#: the cases of running studies, by token; forked workers inherit them (and their cached
#: models, derivations and references) instead of unpickling fresh copies
_LOCAL_CASES: dict = {}


def _resolve(case):
    """The case object behind ``case`` (an object, or a token of :data:`_LOCAL_CASES`).

    This layer does not know the case registry: a case *name* is resolved by the
    package-level API (:func:`nsfric.converge`), which passes the object down.
    """
    if isinstance(case, str):
        try:
            return _LOCAL_CASES[case]
        except KeyError:
            raise TypeError(f"case {case!r}: pass the case object (nsfric.get_case({case!r})), "
                            "or call nsfric.converge, which resolves names") from None
    return case


def _task(args):
    return run_one(*args)


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
        return table_columns(self.orders(), list(self.ORDER_COLUMNS) + ["n_points", "damped_order", "reason"])

    def to_dataframe(self):
        """The rows as a pandas DataFrame (pandas is imported only here)."""
        import pandas as pd

        return pd.DataFrame(self.rows, columns=self.row_columns())

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


def converge(case, law=None, schemes=("euler",), dts=None, variables=None, times=(), t_end=None,
             params=None, reference="auto", fit_range=None, tol=0.3, jobs=1, progress=None):
    """Convergence study of ``schemes`` on ``case`` for one law or a list of laws.

    Parameters
    ----------
    case : str or Case
    law : str or sequence of str (default: the case's default law)
    schemes : sequence of scheme names
    dts : sequence of steps (default :func:`default_ladder`)
    variables : states compared (default: all states)
    times : times at which the error is also reported
    fit_range : (dt_min, dt_max) of the order fit (default: automatic)
    jobs : worker processes (1: in this process)
    progress : callable ``(done, total)``, optional

    Returns
    -------
    ConvergenceResult
    """
    case = _resolve(case)
    laws = [case.check_law(law)] if (law is None or isinstance(law, str)) else [case.check_law(x) for x in law]
    if isinstance(schemes, str):
        schemes = [schemes]
    schemes = [get_scheme(s).name for s in schemes]
    if not schemes:
        raise ValueError("no scheme given")
    T = float(case.t_end if t_end is None else t_end)
    dts = default_ladder(T) if dts is None else [float(x) for x in dts]
    if not dts or any(not (x > 0 and math.isfinite(x)) for x in dts):
        raise ValueError(f"every dt must be a number > 0, got {dts}")
    if any(x > T for x in dts):
        raise ValueError(f"dt must not exceed t_end = {T:g}, got {max(dts):g}")
    names = case.model(laws[0]).state_names
    variables = list(variables or names)
    for lw in laws:
        bad = [v for v in variables if v not in case.model(lw).state_names]
        if bad:
            raise ValueError(f"unknown variable(s) {bad}; states of {lw!r}: {list(case.model(lw).state_names)}")
        case.bind(lw, params)  # validate parameters before any run
    times = [float(x) for x in (times or ())]
    if any(not (0 < x <= T) for x in times):
        raise ValueError(f"error times must lie in (0, t_end = {T:g}], got {times}")
    fork = "fork" in __import__("multiprocessing").get_all_start_methods()
    if fork or not (jobs and jobs > 1):
        ref_case = f"local:{case.name}:{id(case)}"
        _LOCAL_CASES[ref_case] = case
    else:
        ref_case = case
    tasks = [(ref_case, lw, s, dt, variables, times, t_end, params, reference)
             for lw in laws for s in schemes for dt in dts]
    for lw in laws:  # once, before any worker is forked (workers inherit the cache)
        reference_for(ref_case, lw, params, t_end, reference)
    rows = []
    if jobs and jobs > 1 and len(tasks) > 1:
        import multiprocessing as mp

        ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else None
        with ProcessPoolExecutor(max_workers=int(jobs), mp_context=ctx) as ex:
            for row in ex.map(_task, tasks):
                rows.append(row)
                if progress:
                    progress(len(rows), len(tasks))
    else:
        for tsk in tasks:
            rows.append(_task(tsk))
            if progress:
                progress(len(rows), len(tasks))
    fits, floors = {}, {}
    for lw in laws:
        ref = reference_for(ref_case, lw, params, t_end, reference)
        scale = float(np.max(np.abs(ref(np.linspace(0.0, T, 201))))) or 1.0
        floors[lw] = ROUNDOFF * scale
        for s in schemes:
            sel = [r for r in rows if r["law"] == lw and r["scheme"] == s]
            fits[(lw, s)] = fit_order([r["dt"] for r in sel], [r["error"] for r in sel],
                                      fit_range, tol, floor=floors[lw])
    meta = {"laws": laws, "schemes": schemes, "dts": dts, "t_end": T, "params": dict(params or {}),
            "reference": reference, "fit_range": fit_range, "tol": tol, "floor": floors}
    meta["unit"] = getattr(case, "unit", "n.u.")
    return ConvergenceResult(case.name, rows, fits, variables, times, meta)
