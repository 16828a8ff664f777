"""The input of :func:`nsfric.study.verify.verify`: another code's results as a table.

One row per run: a ``dt`` column, optionally one column per varied case parameter
(nsfric's names, e.g. ``psi_i``), one column per observable (the case's summary names,
e.g. ``psi_f``, ``e_n``, ``t_n``, or a quantity at the end time, ``<name>_end``), and
optionally the kinetic energies before and after (:data:`ENERGY_COLUMNS`).  The table
comes from a CSV file, a mapping of columns (a pandas DataFrame too), or is built by
running a ``runner(dt, params)`` callable.  Every check here runs before any
reference solve: bad input is a ValueError naming the column, the row or the point.
"""
from __future__ import annotations

import csv
import math
import os

import numpy as np

#: the kinetic energy before and after, flagged when it grows (never compared with the
#: reference)
ENERGY_COLUMNS = ("E_kin_before", "E_kin_after")
#: the fewest distinct steps per parameter point: a limit and an order need three
MIN_STEPS = 3


def read_table(source, what: str = "input") -> dict:
    """Columns ``{name: float array}`` of a CSV file (a path) or a mapping of columns.

    Raises ValueError (naming ``what``) for an unreadable or empty file, a missing
    ``dt`` column, a cell that is not a finite number, or ragged columns."""
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        try:
            with open(path, newline="") as f:
                rows = list(csv.reader(f))
        except (OSError, UnicodeDecodeError) as e:
            raise ValueError(f"{what} {path!r}: cannot read it ({getattr(e, 'strerror', None) or e})") from None
        rows = [r for r in rows if any(c.strip() for c in r)]
        if len(rows) < 2:
            raise ValueError(f"{what} {path!r}: no header and data rows (a CSV with a dt column and one row per run)")
        header = [c.strip() for c in rows[0]]
        columns = {}
        for j, name in enumerate(header):
            if not name or name in columns:
                raise ValueError(f"{what} {path!r}: column {j + 1} has {'no' if not name else 'a repeated'} name "
                                 f"{name!r}")
            columns[name] = []
        for i, row in enumerate(rows[1:], start=2):
            if len(row) != len(header):
                raise ValueError(f"{what} {path!r}: row {i} has {len(row)} cells, the header {len(header)}")
            for name, cell in zip(header, row):
                columns[name].append(cell.strip())
        return {name: _numbers(name, cells, f"{what} {path!r}", first_row=2) for name, cells in columns.items()}
    if hasattr(source, "to_dict") and hasattr(source, "columns"):  # a pandas DataFrame
        source = {str(c): list(source[c]) for c in source.columns}
    if not isinstance(source, dict):
        raise ValueError(f"{what} must be a CSV file name or a mapping of columns, got {type(source).__name__}")
    cols = {str(k): _numbers(str(k), list(np.ravel(v)), what, first_row=1) for k, v in source.items()}
    if len({len(c) for c in cols.values()}) > 1:
        raise ValueError(f"{what}: the columns have different lengths")
    return cols


def _numbers(name, cells, what, first_row) -> np.ndarray:
    out = np.empty(len(cells))
    for i, cell in enumerate(cells):
        try:
            x = float(cell)
        except (TypeError, ValueError):
            raise ValueError(f"{what}: column {name!r}, row {i + first_row}: {cell!r} is not a number") from None
        if not math.isfinite(x):
            raise ValueError(f"{what}: column {name!r}, row {i + first_row}: non-finite value {cell!r} "
                             f"(every value must be a finite number)")
        out[i] = x
    return out


def split_columns(cols: dict, param_names, observables=None, what: str = "input"):
    """``(parameter columns, observable columns, energy columns)`` of a table.

    ``dt`` must be present and > 0; a column named like a case parameter is a point
    parameter; the energies of :data:`ENERGY_COLUMNS` are energies; every other column
    is an observable (checked against the case's names later) -- or, with
    ``observables`` given, only those (each must be a column) and the rest is ignored."""
    if "dt" not in cols:
        raise ValueError(f"{what}: no 'dt' column (one row per run: dt, the varied parameters, the observables); "
                         f"the columns are {list(cols)}")
    if not np.all(cols["dt"] > 0):
        i = int(np.argmin(cols["dt"] > 0))
        raise ValueError(f"{what}: dt must be > 0, got {cols['dt'][i]!r} in data row {i + 1}")
    params = [c for c in cols if c in set(param_names)]
    energy = [c for c in ENERGY_COLUMNS if c in cols]
    if len(energy) == 1:
        raise ValueError(f"{what}: give both energy columns {ENERGY_COLUMNS} or neither, got only {energy[0]!r}")
    rest = [c for c in cols if c != "dt" and c not in params and c not in energy]
    if observables is None:
        obs = rest
    else:
        obs = list(dict.fromkeys(observables))
        missing = [o for o in obs if o not in cols]
        if missing:
            raise ValueError(f"observable(s) {missing} are not columns of the {what}; its columns are {list(cols)}")
    if not obs:
        raise ValueError(f"{what}: no observable column (e.g. psi_f, e_n, or a state at the end time, "
                         f"<name>_end); the columns are {list(cols)}")
    return params, obs, energy


def group_points(cols: dict, params: list, what: str = "input") -> list:
    """The parameter points of a table: ``[(point dict, row indices sorted by dt)]``;
    ValueError for fewer than :data:`MIN_STEPS` distinct steps at a point or a step
    given twice there."""
    keys = {}
    n = len(cols["dt"])
    for i in range(n):
        key = tuple(float(cols[p][i]) for p in params)
        keys.setdefault(key, []).append(i)
    out = []
    for key, rows in keys.items():
        point = dict(zip(params, key))
        rows = sorted(rows, key=lambda i: cols["dt"][i])
        dts = [float(cols["dt"][i]) for i in rows]
        where = f" at {_point_text(point)}" if point else ""
        if len(set(dts)) != len(dts):
            dup = sorted({d for d in dts if dts.count(d) > 1})
            raise ValueError(f"{what}: dt = {', '.join(f'{d:g}' for d in dup)} given more than once{where}")
        if len(dts) < MIN_STEPS:
            raise ValueError(f"{what}: {len(dts)} distinct dt{where} ({', '.join(f'{d:g}' for d in dts)}); at least "
                             f"{MIN_STEPS} are needed for a limit and an order")
        out.append((point, rows))
    return out


def _point_text(point: dict) -> str:
    return " ".join(f"{k}={v:g}" for k, v in point.items())


def run_table(runner, dts, points, params_of, observables=None, what: str = "runner") -> dict:
    """The table of ``runner(dt, params)`` over ``points`` x ``dts``: the point's
    parameters, ``dt`` and the numbers the runner returns (``observables`` only, when
    given) -- or, where it returns a trajectory (``{"t": times, state: values, ...}``),
    the trajectory table of its rows (:mod:`nsfric.study.verify_trajectory`).
    ``params_of(point)`` gives the full parameters passed to the runner."""
    if not callable(runner):
        raise ValueError(f"runner must be a callable runner(dt, params) -> dict of observables, got {runner!r}")
    dts = [float(d) for d in dts]
    if any(not (math.isfinite(d) and d > 0) for d in dts):
        raise ValueError(f"dts must be finite and > 0, got {dts}")
    if len(set(dts)) < MIN_STEPS:
        raise ValueError(f"dts: {len(set(dts))} distinct step(s); at least {MIN_STEPS} are needed for a limit and "
                         f"an order")
    from .verify_trajectory import TIME, runner_trajectory

    cols, names = {}, None
    for point in points:
        full = params_of(point)
        for dt in dts:
            out = runner(dt, dict(full))
            if not isinstance(out, dict):
                raise ValueError(f"{what}(dt, params) must return a dict of observables, got {type(out).__name__} "
                                 f"at dt = {dt:g}")
            if TIME in out and not np.isscalar(out[TIME]):  # a trajectory: its rows
                traj = runner_trajectory(out, what, dt)
                if names is None:
                    names = sorted(traj)
                if sorted(traj) != names:
                    raise ValueError(f"{what} returned {sorted(traj)} at dt = {dt:g} but {names} before")
                n = len(traj[TIME])
                for k, v in {**{p: np.full(n, x) for p, x in point.items()}, "dt": np.full(n, dt), **traj}.items():
                    cols.setdefault(k, []).extend(v.tolist())
                continue
            keys = [k for k, v in out.items() if _is_number(v) and (observables is None or k in observables
                                                                    or k in ENERGY_COLUMNS)]
            if names is None:
                names = keys
            if sorted(keys) != sorted(names):
                raise ValueError(f"{what} returned {sorted(keys)} at dt = {dt:g} but {sorted(names)} before")
            row = {**point, "dt": dt, **{k: out[k] for k in names}}
            for k, v in row.items():
                cols.setdefault(k, []).append(v)
    return read_table(cols, what)


def _is_number(v) -> bool:
    return isinstance(v, (int, float, np.number)) and not isinstance(v, (bool, np.bool_))
