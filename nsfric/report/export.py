"""Reference exports for DEM regression tests (``nsfric export``).

A reference holds its inputs (case, law, parameters, initial state, time span), the
expected values -- the case's observables (``Solution.summary``), the final state, the
event times and the state trajectory on a uniform grid -- each with an absolute
tolerance, and the verified error: the disagreement of the reference solver with an
independent one (``ida`` for ``filippov``).  A tolerance is ``SAFETY`` times the verified
error of that value, at least ``REL_FLOOR`` times the value's scale.

Formats (:func:`write_reference`, read back by :func:`read_reference`):

* ``yaml`` -- laid out like the LAMMPS force-style unit tests
  (``unittest/force-styles/tests/*.yaml``): version, date and a global ``epsilon``, then
  the inputs, then the expected values (``init_state``, ``run_observables``,
  ``run_events``, and ``run_trajectory`` as a block of rows, one sample per line, the
  columns named by ``trajectory_columns``), then ``tolerances``.
* ``csv`` -- one value per row: ``section,name,index,value,tolerance`` (the event-time
  tolerance also on its own row ``tolerance,event_t``, present without events).
* ``lammps-unittest`` -- a test LAMMPS's own force-style test harness runs
  (``oblique-impact`` only; :mod:`nsfric.adapters.lammps_unittest`).
* ``netcdf`` -- one CF-1.10 dataset (:mod:`nsfric.cf`): the trajectory on the time
  coordinate ``t`` (a ``tolerance`` attribute per state), scalar variables
  ``observable_<name>``, events on dimension ``event``, the inputs as attributes;
  ``units`` (``"1"`` with a ``comment`` for a case in normalised units) and
  ``long_name`` on every variable.
"""
from __future__ import annotations

import csv
import datetime
import io
import json
import math

import numpy as np

from ..cf import cf_units, global_attrs, nsfric_unit, time_attrs
from ..extras import require
from ..io import atomic_files, check_output_path, versions

FORMATS = {"csv": (".csv",), "yaml": (".yaml", ".yml"), "netcdf": (".nc",)}
#: formats ``nsfric export`` writes that are not a reference (not read back here)
OTHER_FORMATS = {"lammps-unittest": (".yaml", ".yml")}
SAFETY = 10.0
REL_FLOOR = 1e-12
LAYOUT = "nsfric-reference 1"
#: the most trajectory samples of a reference (its CSV holds one row per value)
MAX_SAMPLES = 10 ** 6


def _tol(err, scale) -> float:
    return float(max(SAFETY * (err or 0.0), REL_FLOOR * (abs(scale) or 1.0)))


def build_reference(case, law=None, params=None, t_end=None, samples=11, solver="filippov") -> dict:
    """Solve ``case``/``law`` with ``solver``, verify it against an independent solver and
    return the reference as a plain dict (see the module docstring)."""
    from ..solvers import get_solver
    from ..errors import CrossCheckFailed
    from ..solvers.crosscheck import disagreement, failure_line, verdict

    law = case.check_law(law)
    if isinstance(samples, bool) or not isinstance(samples, int) or not (2 <= samples <= MAX_SAMPLES):
        raise ValueError(f"samples must be an integer from 2 to {MAX_SAMPLES}, got {samples!r}")
    prob = case.problem(law, params, t_end)
    t = np.linspace(prob.t_span[0], prob.t_span[1], samples)
    other = "ida" if solver != "ida" else "filippov"
    a = get_solver(solver, **case.solver_options(law, solver)).solve(prob, t_eval=t)
    b = get_solver(other, **case.solver_options(law, other)).solve(prob, t_eval=t)
    a.summary, b.summary = case.observables(law, a), case.observables(law, b)
    cross = verdict(a, b, disagreement(a, b, t), t)
    if not cross["passed"]:  # a reference whose tolerances would be derived from a failed check
        raise CrossCheckFailed(failure_line(solver, cross).replace("; tighten --rtol/--atol, or skip it with "
                                                                   "--no-cross-check", ""))
    states = list(a.state_names)
    ya, yb = a(t), b(t)
    obs, obs_tol = {}, {}
    for k, v in a.summary.items():
        if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
            obs[k] = float(v)
            obs_tol[k] = _tol(abs(v - b.summary.get(k, v)), v)
    for i, s in enumerate(states):
        obs[f"final_{s}"] = float(ya[i, -1])
        obs_tol[f"final_{s}"] = _tol(abs(ya[i, -1] - yb[i, -1]), np.max(np.abs(ya[i])))
    events = [{"t": float(e.t), "kind": str(e.kind)} for e in a.events]
    ev_err = cross["event_dt"] if cross["event_dt"] is not None else math.inf
    traj_tol = {s: _tol(cross["states"][s], np.max(np.abs(ya[i]))) for i, s in enumerate(states)}
    return {
        "layout": LAYOUT,
        "nsfric_version": versions()["nsfric"],
        "date_generated": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
        "case": case.name, "law": law, "reference": a.model.reference,
        "solver": solver, "verified_against": other,
        "parameters": {k: float(v) for k, v in prob.params.items()},
        "initial_state": {s: float(y) for s, y in zip(states, prob.y0)},
        "t_span": [float(x) for x in prob.t_span],
        "observables": obs,
        "events": events,
        "trajectory_columns": ["t"] + states,
        "trajectory": [[float(t[j])] + [float(ya[i, j]) for i in range(len(states))] for j in range(len(t))],
        "verified_error": {"states": {k: float(v) for k, v in cross["states"].items()},
                           "max_abs": float(cross["max_abs"]),
                           "event_dt": None if cross["event_dt"] is None else float(cross["event_dt"]),
                           "observables": {k: abs(obs[k] - b.summary[k]) for k in a.summary if k in obs and k in b.summary}},
        "tolerances": {"observables": obs_tol, "trajectory": traj_tol,
                       "event_t": _tol(ev_err if math.isfinite(ev_err) else 0.0, prob.t_span[1])},
        # the units of the time, the states and the observables (final_<state>: the state's)
        "units": {q: case.unit_of(q[len("final_"):] if q.startswith("final_") and q[len("final_"):] in states else q)
                  for q in ["t"] + states + list(obs)},
    }


# -- YAML ---------------------------------------------------------------------------
def _rows_block(rows) -> str:
    return "".join(" ".join(repr(float(x)) for x in r) + "\n" for r in rows)


def to_yaml(ref: dict) -> str:
    import yaml

    doc = {k: ref[k] for k in ("layout", "nsfric_version", "date_generated")}
    doc["epsilon"] = REL_FLOOR
    for k in ("case", "law", "reference", "solver", "verified_against", "parameters", "units", "t_span"):
        doc[k] = ref[k]
    doc["init_state"] = ref["initial_state"]
    doc["run_observables"] = ref["observables"]
    doc["run_events"] = ref["events"]
    doc["trajectory_columns"] = ref["trajectory_columns"]
    doc["run_trajectory"] = _Block(_rows_block(ref["trajectory"]))
    doc["tolerances"] = ref["tolerances"]
    doc["verified_error"] = ref["verified_error"]

    class Dumper(yaml.SafeDumper):
        pass

    Dumper.add_representer(_Block, lambda d, v: d.represent_scalar("tag:yaml.org,2002:str", str(v), style="|"))
    Dumper.add_representer(float, _float_repr)
    return "---\n" + yaml.dump(doc, Dumper=Dumper, sort_keys=False, allow_unicode=True) + "...\n"


class _Block(str):
    """A YAML block scalar (``|``): rows of numbers, as LAMMPS's ``init_forces``."""


def _float_repr(dumper, value):
    if math.isnan(value):
        text = ".nan"
    elif math.isinf(value):
        text = ".inf" if value > 0 else "-.inf"
    else:
        text = repr(float(value))
        if "e" in text and "." not in text.split("e")[0]:  # YAML 1.1 floats need a dot
            m, e = text.split("e")
            text = f"{m}.0e{e}"
    return dumper.represent_scalar("tag:yaml.org,2002:float", text)


def from_yaml(text: str) -> dict:
    import yaml

    doc = yaml.safe_load(text)
    ref = {k: doc[k] for k in ("layout", "nsfric_version", "date_generated", "case", "law", "reference",
                               "solver", "verified_against", "parameters", "units", "t_span",
                               "trajectory_columns", "tolerances", "verified_error")}
    ref["initial_state"] = doc["init_state"]
    ref["observables"] = doc["run_observables"]
    ref["events"] = doc["run_events"]
    ref["trajectory"] = [[float(x) for x in line.split()] for line in doc["run_trajectory"].splitlines() if line.strip()]
    return ref


# -- CSV ----------------------------------------------------------------------------
_META = ("layout", "nsfric_version", "date_generated", "case", "law", "reference", "solver", "verified_against")


def to_csv(ref: dict) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["section", "name", "index", "value", "tolerance"])
    num = lambda x: "" if x is None else repr(float(x))  # noqa: E731
    for k in _META:
        w.writerow(["meta", k, "", ref[k], ""])
    for k, v in ref["units"].items():
        w.writerow(["unit", k, "", v, ""])
    for k, v in ref["parameters"].items():
        w.writerow(["parameter", k, "", num(v), ""])
    for k, v in ref["initial_state"].items():
        w.writerow(["initial_state", k, "", num(v), ""])
    for i, v in enumerate(ref["t_span"]):
        w.writerow(["t_span", "t", i, num(v), ""])
    for k, v in ref["observables"].items():
        w.writerow(["observable", k, "", num(v), num(ref["tolerances"]["observables"][k])])
    # the event-time tolerance on a row of its own: a reference without events keeps it
    w.writerow(["tolerance", "event_t", "", "", num(ref["tolerances"]["event_t"])])
    for i, e in enumerate(ref["events"]):
        w.writerow(["event", e["kind"], i, num(e["t"]), num(ref["tolerances"]["event_t"])])
    cols = ref["trajectory_columns"]
    for j, row in enumerate(ref["trajectory"]):
        for c, v in zip(cols, row):
            w.writerow(["trajectory", c, j, num(v), num(ref["tolerances"]["trajectory"].get(c, 0.0))])
    ve = ref["verified_error"]
    for k, v in ve["states"].items():
        w.writerow(["verified_error", k, "", num(v), ""])
    for k, v in ve["observables"].items():
        w.writerow(["verified_error_observable", k, "", num(v), ""])
    w.writerow(["verified_error", "max_abs", "", num(ve["max_abs"]), ""])
    w.writerow(["verified_error", "event_dt", "", num(ve["event_dt"]), ""])
    return buf.getvalue()


def from_csv(text: str) -> dict:
    ref = {"units": {}, "parameters": {}, "initial_state": {}, "t_span": [], "observables": {}, "events": [],
           "trajectory_columns": [], "trajectory": [],
           "tolerances": {"observables": {}, "trajectory": {}, "event_t": 0.0},
           "verified_error": {"states": {}, "observables": {}}}
    num = lambda x: None if x == "" else float(x)  # noqa: E731
    for r in csv.DictReader(io.StringIO(text)):
        sec, name, value = r["section"], r["name"], r["value"]
        if sec == "meta":
            ref[name] = value
        elif sec == "unit":
            ref["units"][name] = value
        elif sec in ("parameter", "initial_state"):
            ref["parameters" if sec == "parameter" else "initial_state"][name] = float(value)
        elif sec == "t_span":
            ref["t_span"].append(float(value))
        elif sec == "observable":
            ref["observables"][name] = float(value)
            ref["tolerances"]["observables"][name] = float(r["tolerance"])
        elif sec == "tolerance" and name == "event_t":
            ref["tolerances"]["event_t"] = float(r["tolerance"])
        elif sec == "event":
            ref["events"].append({"t": float(value), "kind": name})
            ref["tolerances"]["event_t"] = float(r["tolerance"])
        elif sec == "trajectory":
            j = int(r["index"])
            if name not in ref["trajectory_columns"]:
                ref["trajectory_columns"].append(name)
                ref["tolerances"]["trajectory"][name] = float(r["tolerance"])
            while len(ref["trajectory"]) <= j:
                ref["trajectory"].append([])
            ref["trajectory"][j].append(float(value))
        elif sec == "verified_error_observable":
            ref["verified_error"]["observables"][name] = float(value)
        elif sec == "verified_error":
            if name in ("max_abs", "event_dt"):
                ref["verified_error"][name] = num(value)
            else:
                ref["verified_error"]["states"][name] = float(value)
    ref["tolerances"]["trajectory"].pop("t", None)
    return ref


# -- netCDF -------------------------------------------------------------------------
def _observable_attrs(ref, k) -> dict:
    return {"long_name": f"expected value of the observable {k}",
            **cf_units(ref["units"].get(k)),
            "tolerance": ref["tolerances"]["observables"][k],
            "verified_error": ref["verified_error"]["observables"].get(k, np.nan)}


def to_netcdf(ref: dict, path: str):
    """The reference as one CF-1.10 dataset (:mod:`nsfric.cf`): the time ``t`` a
    coordinate, the states on it, the observables as scalars, the events on dimension
    ``event``; ``units`` and ``long_name`` on every variable; the inputs as attributes."""
    import xarray as xr

    require("netCDF4", "a netCDF reference")
    cols = ref["trajectory_columns"]
    traj = np.array(ref["trajectory"], dtype=float)
    t_unit = ref["units"].get("t")
    coords = {"t": ("t", traj[:, 0], time_attrs(t_unit))}
    data = {c: ("t", traj[:, i], {"long_name": f"state {c} of the reference trajectory",
                                  **cf_units(ref["units"].get(c)),
                                  "tolerance": ref["tolerances"]["trajectory"][c]})
            for i, c in enumerate(cols) if c != "t"}
    for k, v in ref["observables"].items():
        data[f"observable_{k}"] = ((), v, _observable_attrs(ref, k))
    data["event_t"] = ("event", np.array([e["t"] for e in ref["events"]], dtype=float),
                       {"long_name": "time of the event", **cf_units(t_unit),
                        "tolerance": ref["tolerances"]["event_t"]})
    data["event_kind"] = ("event", np.array([e["kind"] for e in ref["events"]], dtype=object),
                          {"long_name": "kind of the event (mode switch)"})
    attrs = global_attrs(f"nsfric reference: case {ref['case']}, law {ref['law']}",
                         f"nsfric {ref['nsfric_version']}: solver {ref['solver']}, verified against "
                         f"{ref['verified_against']}", "nsfric export (nsfric.report.export)")
    attrs["references"] = ref["reference"]
    attrs.update({k: ref[k] for k in _META})
    attrs.update({f"parameter_{k}": v for k, v in ref["parameters"].items()})
    attrs.update({f"initial_{k}": v for k, v in ref["initial_state"].items()})
    attrs["t_span"] = np.array(ref["t_span"])
    attrs["trajectory_columns"] = " ".join(cols)
    attrs["verified_error"] = json.dumps(ref["verified_error"])
    ds = xr.Dataset(data, coords=coords, attrs=attrs)
    encoding = {v: {"_FillValue": None} for v in list(ds.variables) if ds[v].dtype.kind == "f"}
    ds.to_netcdf(path, engine="netcdf4", format="NETCDF4", encoding=encoding)


def from_netcdf(path: str) -> dict:
    import xarray as xr

    require("netCDF4", "reading a netCDF reference")
    with xr.open_dataset(path, engine="netcdf4", decode_timedelta=False) as ds:
        a = ds.attrs
        cols = a["trajectory_columns"].split()
        ref = {k: str(a[k]) for k in _META}
        ref["parameters"] = {k[len("parameter_"):]: float(v) for k, v in a.items() if k.startswith("parameter_")}
        ref["initial_state"] = {k[len("initial_"):]: float(v) for k, v in a.items() if k.startswith("initial_")}
        ref["t_span"] = [float(x) for x in np.atleast_1d(a["t_span"])]
        obs = [v for v in ds.data_vars if v.startswith("observable_")]
        ref["units"] = {c: nsfric_unit(ds[c].attrs) for c in cols}
        ref["units"].update({v[len("observable_"):]: nsfric_unit(ds[v].attrs) for v in obs
                             if "units" in ds[v].attrs})
        ref["trajectory_columns"] = cols
        ref["trajectory"] = np.column_stack([ds[c].values for c in cols]).tolist()
        ref["observables"] = {v[len("observable_"):]: float(ds[v].values) for v in obs}
        ref["events"] = [{"t": float(t), "kind": str(k)} for t, k in zip(ds["event_t"].values, ds["event_kind"].values)]
        ref["tolerances"] = {"observables": {v[len("observable_"):]: float(ds[v].attrs["tolerance"]) for v in obs},
                             "trajectory": {c: float(ds[c].attrs["tolerance"]) for c in cols if c != "t"},
                             "event_t": float(ds["event_t"].attrs["tolerance"])}
        ref["verified_error"] = json.loads(a["verified_error"])
    return ref


def check_format(fmt: str, out: str):
    """Validate ``--format`` and ``--out`` (its suffix) before any computation."""
    known = {**FORMATS, **OTHER_FORMATS}
    if fmt not in known:
        raise ValueError(f"--format must be one of {sorted(known)}, got {fmt!r}")
    if not out.endswith(known[fmt]):
        raise ValueError(f"--out for --format {fmt} must end with {' or '.join(known[fmt])}, got {out!r}")
    if fmt == "netcdf":
        require("netCDF4", "--format netcdf")
    check_output_path(out, "--out", "file")


def write_reference(ref: dict, path: str, fmt: str):
    """Write ``ref`` to ``path`` in ``fmt`` atomically (nothing partial is left)."""
    check_format(fmt, path)
    with atomic_files(path) as (tmp,):
        if fmt == "netcdf":
            to_netcdf(ref, tmp)
        else:
            with open(tmp, "w") as f:
                f.write(to_yaml(ref) if fmt == "yaml" else to_csv(ref))


def read_reference(path: str, fmt: str | None = None) -> dict:
    """Read a reference written by :func:`write_reference` (format from the suffix)."""
    fmt = fmt or next((f for f, sfx in FORMATS.items() if path.endswith(sfx)), None)
    if fmt == "netcdf":
        return from_netcdf(path)
    with open(path) as f:
        text = f.read()
    if fmt == "yaml":
        return from_yaml(text)
    if fmt == "csv":
        return from_csv(text)
    raise ValueError(f"cannot tell the format of {path!r}; give one of {sorted(FORMATS)}")
