"""The results of a sweep: the labelled :class:`xarray.Dataset`, its tidy table and the
files ``sweep.csv``, ``sweep.nc`` (netCDF-4, CF-1.10: :mod:`nsfric.cf`) and
``sweep.json``, written all or nothing."""
from __future__ import annotations

import json
import math
import os

import numpy as np

from ..cf import MIXED_UNITS, cf_units, global_attrs
from ..extras import require
from ..io import atomic_files, csv_text, json_text
from ..problems import ProblemFactory

#: units of the solver statistics (counts and relative tolerances are dimensionless)
STAT_UNITS = {"seconds": "s", "rtol": "1"}
#: statistics without a single unit (an absolute tolerance is in each state's unit)
STAT_MIXED = ("atol",)


def _attrs(long_name: str, unit) -> dict:
    """``long_name`` and the CF unit attributes (a comment where no single unit holds)."""
    return {"long_name": long_name, **(cf_units(unit) if unit else {"comment": MIXED_UNITS})}


def _unit(case: ProblemFactory, ev, name):
    ev = getattr(ev, "evaluator", ev)
    if getattr(ev, "case", None) is None:  # a point function: no units known
        return None
    if name in getattr(case, "units", {}):
        return case.units[name]
    if name == "dt":
        return case.unit_of("t")
    for lw in ([ev.law] if ev.law else case.laws):
        model = case.model(lw)
        if name in model.param_names and model.param(name).unit:
            return model.param(name).unit
    return None


def to_dataset(case: ProblemFactory, ev, grid, observables, results, meta):
    """The Dataset of a finished sweep (see :func:`sweep`)."""
    import xarray as xr

    shape = tuple(len(v) for v in grid.values())
    dims = list(grid)
    names = {}  # variable -> (section, key)
    for o in observables:
        names[o] = ("observables", o)
    for o in observables:
        if any(o in r["estimate"] for r in results):
            names[f"error_estimate_{o}"] = ("estimate", o)
    for r in results:
        for k in r["stats"]:
            names.setdefault(k, ("stats", k))
    data = {}
    for var, (section, key) in names.items():
        vals = [r[section].get(key) for r in results]
        if all(isinstance(v, str) or v is None for v in vals):
            arr = np.array(["" if v is None else v for v in vals], dtype=object)
        else:
            arr = np.array([math.nan if v is None else v for v in vals], dtype=float)
            if section == "stats" and np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)) \
                    and key not in ("rtol", "atol"):
                arr = arr.astype(np.int64)
        long_name = {"observables": f"observable {key}", "estimate": f"error estimate of the observable {key}",
                     "stats": f"solver statistic {key}"}[section]
        if arr.dtype == object:  # a label (solver name, termination): no quantity, no unit
            attrs = {"long_name": long_name}
        elif section == "stats":
            attrs = _attrs(long_name, None if key in STAT_MIXED else STAT_UNITS.get(key, "1"))
        else:
            attrs = _attrs(long_name, _unit(case, ev, key))
        data[var] = (dims, arr.reshape(shape), attrs)
    coords = {}
    for name, values in grid.items():
        label = name in ("law", "scheme")
        attrs = {"long_name": name} if label else _attrs(f"grid axis {name}", _unit(case, ev, name))
        coords[name] = (name, np.array(values, dtype=object if label else float), attrs)
    title = f"nsfric sweep: case {meta['case']}" if "case" in meta else f"nsfric sweep: {meta.get('function')}"
    attrs = global_attrs(title, f"nsfric {meta['versions'].get('nsfric', '')}", "nsfric.sweep")
    attrs.update({k: (v if isinstance(v, str) else json.dumps(v, default=_jsonable)) for k, v in meta.items()})
    return xr.Dataset(data, coords=coords, attrs=attrs)


def _jsonable(o):
    if isinstance(o, np.generic):
        return o.item()
    raise TypeError(f"not JSON serialisable: {type(o)}")


def sweep_columns(ds) -> dict:
    """The tidy table of a sweep Dataset: one row per point (the first axis slowest),
    the grid columns, then every variable (observables, estimates, statistics)."""
    dims = list(ds.sizes)
    mesh = np.meshgrid(*[ds[d].values for d in dims], indexing="ij")
    cols = {d: m.ravel() for d, m in zip(dims, mesh)}
    for name, var in ds.data_vars.items():
        v = var.transpose(*dims).values.ravel()
        cols[name] = v.astype(object) if v.dtype.kind in "iuO" else v
    return cols


def write_sweep(ds, out_dir: str) -> list:
    """Write ``sweep.csv`` (tidy), ``sweep.nc`` (netCDF-4) and ``sweep.json``
    (strict JSON: provenance, columns, units) into ``out_dir``, all or nothing."""
    require("netCDF4", "sweep.nc (the netCDF file of a sweep)")
    paths = [os.path.join(out_dir, n) for n in ("sweep.csv", "sweep.nc", "sweep.json")]
    cols = sweep_columns(ds)
    meta = {k: _loads(v) for k, v in ds.attrs.items()}
    meta["columns"] = list(cols)
    meta["units"] = {n: ds[n].attrs["units"] for n in list(ds.coords) + list(ds.data_vars)
                     if "units" in ds[n].attrs}
    with atomic_files(*paths) as (t_csv, t_nc, t_json):
        with open(t_csv, "w") as f:
            f.write(csv_text(cols))
        ds.to_netcdf(t_nc, engine="netcdf4", format="NETCDF4",  # CF: no _FillValue on a coordinate
                     encoding={c: {"_FillValue": None} for c in ds.coords if ds[c].dtype.kind == "f"})
        with open(t_json, "w") as f:
            f.write(json_text(meta))
    return paths


def _loads(v):
    try:
        return json.loads(v)
    except (TypeError, ValueError):
        return v
