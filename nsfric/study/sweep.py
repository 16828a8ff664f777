"""Parameter sweeps: a grid of points -> the case's observables at each, as a labelled
:class:`xarray.Dataset`, from a laptop to a Dask cluster.

A point is one task: a reference solve of the case at the point's parameters, its
``summary`` observables (:meth:`~nsfric.cases.base.Case.observables`, e.g. ``e_n``,
``t_n``, ``xi_max`` of ``normal-impact``) and an *error estimate* of each: the change of
the observable when the solve's tolerances are loosened :data:`ESTIMATE_FACTOR`-fold (a
conservative estimate of the error at the tolerances used).  With ``scheme`` and ``dt``
(fixed or grid axes) a point is a discrete run instead, and its observables are the
errors against the reference (``error``, ``error_<state>``: :func:`~nsfric.study.runs.run_one`).
The grid may also run over ``law``.  Solver statistics (right-hand-side evaluations,
steps, events, tolerances) come with every point.

This layer knows no case registry: it takes a case *object* (or any point function
``f(point) -> {observable: value}``); :func:`nsfric.sweep` resolves case names.  Points
are cached by content hash (:mod:`nsfric.study.cache`), so an interrupted sweep resumes
where it stopped; they run where ``executor`` says (:mod:`nsfric.study.execute`).
"""
from __future__ import annotations

import math
import time
import types
from typing import Callable

import numpy as np

from .. import cache_store
from ..io import versions
from ..problems import ProblemFactory
from .cache import PointCache, content_key, model_hash, source_hash, spec_text, text_key
from .execute import Progress, run_tasks
from .grid import check_grid, points as grid_points
from .results import to_dataset

#: the error estimate compares the solve with one at tolerances this many times looser
ESTIMATE_FACTOR = 100.0
#: the grid names that make a point a discrete run
DISCRETE_AXES = ("scheme", "dt")


class CasePoint:
    """One point of a case's sweep -> ``{"observables", "estimate", "stats"}``.

    Picklable (a registered case travels by name), so it runs in any worker process.
    """

    def __init__(self, case: ProblemFactory, law, params, solver, options, t_end, estimate, scheme, dt):
        self.case, self.law, self.params = case, law, dict(params or {})
        self.solver, self.options, self.t_end = solver, dict(options or {}), t_end
        self.estimate, self.scheme, self.dt = bool(estimate), scheme, dt
        self.versions = versions()

    def split(self, point: dict):
        point = dict(point)
        law = point.pop("law", self.law)
        scheme, dt = point.pop("scheme", self.scheme), point.pop("dt", self.dt)
        return law, scheme, dt, {**self.params, **point}

    def spec(self, point: dict) -> dict:
        """Everything the point's result depends on (validates its parameters against
        their ranges): the case, the law and the model's content, every bound parameter,
        the end time, the solver with its tolerances and options, the scheme and step,
        the error estimate, the versions and nsfric's source."""
        from ..solvers.base import get_solver

        law, scheme, dt, values = self.split(point)
        spec = {"case": self.case.name, "law": law, "model": model_hash(self.case.model(law)),
                "params": self.case.bind(law, values), "t_end": self.t_end, "solver": self.solver,
                "options": dict(self.options), "scheme": scheme, "dt": dt, "estimate": self.estimate,
                "versions": self.versions, "source": source_hash()}
        if self.solver in _reference_solvers():
            s = get_solver(self.solver, **self.options)
            spec["options"] = {"rtol": s.rtol, "atol": s.atol, **self.options}
        return spec

    def key(self, point: dict) -> str:
        """The point's content key: the hash of :meth:`spec`."""
        return content_key(self.spec(point))

    def __call__(self, point: dict) -> dict:
        law, scheme, dt, values = self.split(point)
        if scheme is not None:
            return self.discrete(law, scheme, dt, values)
        sol = self.case.reference_solution(law, solver=self.solver, params=values, t_end=self.t_end,
                                           samples=2, **self.options)
        obs = _numbers(sol.summary)
        self._check_resolved(law, sol, obs, point)
        est = {}
        if self.estimate:
            rtol, atol = sol.tolerances.get("rtol"), sol.tolerances.get("atol")
            loose = {}
            if rtol is not None and atol is not None:
                opts = {**self.options, "rtol": min(rtol * ESTIMATE_FACTOR, 0.1),
                        "atol": atol * ESTIMATE_FACTOR}
                loose = _numbers(self.case.reference_solution(law, solver=self.solver, params=values,
                                                              t_end=self.t_end, samples=2, **opts).summary)
            est = {k: abs(v - loose.get(k, math.nan)) for k, v in obs.items()}
        stats = {"solver": sol.solver, "rtol": sol.tolerances.get("rtol", math.nan),
                 "atol": sol.tolerances.get("atol", math.nan), **{k: int(v) for k, v in sol.stats.items()
                                                                  if isinstance(v, (int, np.integer))},
                 "termination": sol.termination}
        return {"observables": obs, "estimate": est, "stats": stats}

    def _check_resolved(self, law, sol, obs, point):
        """:class:`~nsfric.errors.Unresolved` naming the cause when the solve cannot give
        the observables: an ``atol`` given that is not below the scale a state reaches
        (the solve does not resolve it: its observables are noise), or no observables at
        all (the case says why: e.g. ``t_end`` too short, no impact)."""
        from ..errors import Unresolved

        atol = self.options.get("atol")
        if atol is not None and sol.segments:
            ends = np.abs([[*s.y0, *s.y1] for s in sol.segments]).reshape(len(sol.segments), 2, -1)
            scale = ends.max(axis=(0, 1))
            loose = [(n, x) for n, x in zip(sol.model.state_names, scale) if 0 < x <= atol]
            if loose:
                n, x = loose[0]
                raise Unresolved(f"at {point}: atol = {atol:g} (--atol) is not below the scale of the state "
                                 f"{n} (max |{n}| = {x:g}): the solve does not resolve it; choose a smaller "
                                 f"--atol")
        if not obs:
            why = self.case.why_no_observables(law, sol) if hasattr(self.case, "why_no_observables") else ""
            raise Unresolved(f"at {point}: {why or 'the case gives no observables for this run'}")

    def discrete(self, law, scheme, dt, values) -> dict:
        from .runs import run_one

        row = run_one(self.case, law, scheme, dt, t_end=self.t_end, params=values,
                      reference=self.solver)
        obs = {k: float(v) for k, v in row.items() if k.startswith("error")}
        stats = {k: int(row[k]) for k in ("n_rhs", "n_steps", "n_events")}
        return {"observables": obs, "estimate": {}, "stats": {**stats, "reference": row["reference"]}}


def _reference_solvers():
    from ..solvers.base import REFERENCE_SOLVERS

    return REFERENCE_SOLVERS


class FunctionPoint:
    """A point function ``f(point) -> {name: value}`` as a sweep evaluator: numbers are
    the observables, text values go into per-point text variables (e.g. which solver
    gave the point).  ``f`` may be a function or a picklable callable object; it is
    cached under its ``module.qualname`` (its class's, for an object), its
    ``cache_token`` attribute (change it when what ``f`` computes changes: a model, an
    option) and nsfric's source (:func:`~nsfric.study.cache.source_hash`)."""

    def __init__(self, fn):
        self.fn = fn
        self.versions = versions()

    def spec(self, point: dict) -> dict:
        """The point, the function's name, its ``cache_token`` (or, for a callable
        object without one, its ``repr`` when its class defines one: its state), the
        versions and nsfric's source."""
        token = getattr(self.fn, "cache_token", None)
        if token is None and not isinstance(self.fn, types.FunctionType) and type(self.fn).__repr__ is not object.__repr__:
            token = repr(self.fn)
        return {"function": function_name(self.fn), "token": token, "point": point,
                "versions": self.versions, "source": source_hash()}

    def key(self, point: dict) -> str:
        return content_key(self.spec(point))

    def __call__(self, point: dict) -> dict:
        out = self.fn(dict(point))
        return {"observables": _numbers(out), "estimate": {},
                "stats": {k: v for k, v in out.items() if isinstance(v, str)}}


def function_name(fn) -> str:
    """``module.qualname`` of a function, or of the class of a callable object."""
    return f"{getattr(fn, '__module__', '')}.{getattr(fn, '__qualname__', None) or type(fn).__qualname__}"


class Recording:
    """``evaluator`` whose points may fail: a solver failure (:class:`~nsfric.errors.ZenoError`,
    :class:`~nsfric.errors.BudgetError`, :class:`~nsfric.errors.SolverFailure`) becomes a
    point without observables (NaN) and with the reason in the ``failure`` column."""

    def __init__(self, evaluator):
        self.evaluator, self.versions = evaluator, evaluator.versions

    def spec(self, point: dict) -> dict:
        return self.evaluator.spec(point)

    def key(self, point: dict) -> str:
        return self.evaluator.key(point)

    def __call__(self, point: dict) -> dict:
        from ..errors import BudgetError, SolverFailure, Unresolved, ZenoError

        try:
            result = self.evaluator(point)
        except (ZenoError, BudgetError, SolverFailure, Unresolved) as e:
            return {"observables": {}, "estimate": {},
                    "stats": {"failure": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"}}
        result["stats"]["failure"] = ""
        return result


def _numbers(d: dict) -> dict:
    return {k: float(v) for k, v in d.items() if isinstance(v, (int, float, np.number)) and not isinstance(v, bool)}


def _is_case(obj) -> bool:
    return hasattr(obj, "reference_solution") and hasattr(obj, "check_law")


def _setup(case: ProblemFactory | Callable, law, grid, params, solver, options, t_end, estimate, scheme, dt):
    """The evaluator and the allowed grid names; ValueError for an unknown name."""
    if not _is_case(case):
        if not callable(case):
            raise ValueError(f"sweep takes a case object or a point function, got {case!r}")
        if law is not None or params or scheme is not None or dt is not None:
            raise ValueError("law, params, scheme and dt belong to a case; a point function gets the point only")
        return FunctionPoint(case)
    if "law" in grid and law is not None:
        raise ValueError("give the law either as law= or as a grid axis, not both")
    laws = [case.check_law(lw) for lw in grid.get("law", [law])]
    discrete = any(a in grid for a in DISCRETE_AXES) or scheme is not None or dt is not None
    if discrete:
        from ..schemes import get_scheme

        for s in grid.get("scheme", [scheme]):
            if s is None:
                raise ValueError("a discrete sweep (dt given) needs a scheme: scheme= or a scheme axis")
            get_scheme(s)
        if "dt" not in grid and dt is None:
            raise ValueError("a discrete sweep (scheme given) needs a step: dt= or a dt axis")
        if any(x <= 0 for x in grid.get("dt", [dt])):
            raise ValueError(f"every dt must be > 0, got {grid.get('dt', [dt])}")
    allowed = {"law", "scheme", "dt"} | {p for lw in laws for p in case.model(lw).param_names}
    bad = [n for n in grid if n not in allowed]
    if bad:
        raise ValueError(f"unknown grid name(s) {bad} for case {case.name!r}; choose from {sorted(allowed)}")
    bad = [n for n in (params or {}) if n not in allowed - {"law", "scheme", "dt"}]
    if bad:
        raise ValueError(f"unknown parameter(s) {bad} for case {case.name!r}; choose from "
                         f"{sorted(allowed - {'law', 'scheme', 'dt'})}")
    if solver is None:
        solver = "auto" if discrete else "filippov"
    if not discrete and solver not in _reference_solvers():
        raise ValueError(f"unknown solver {solver!r}; choose one of {sorted(_reference_solvers())}")
    return CasePoint(case, None if "law" in grid else laws[0], params, solver, options, t_end,
                     estimate and not discrete, scheme, dt)


def sweep(case: ProblemFactory | Callable, law=None, grid=None, observables=None, params=None, solver=None, options=None,
          t_end=None, estimate=True, scheme=None, dt=None, executor=None, jobs=1, chunksize=None,
          retries=2, cache_dir=None, force=False, progress=None, on_failure="raise"):
    """Sweep ``case`` over the product of the ``grid`` axes; return a labelled Dataset.

    Parameters
    ----------
    case : case object, or a point function ``f(point: dict) -> dict of numbers``
        (a case *name* is resolved by :func:`nsfric.sweep`).
    law : str, optional
        The law (default: the case's); or sweep it as a grid axis ``"law"``.
    grid : dict ``{name: values}``
        Axes (parameters of the model, ``law``, ``scheme``, ``dt``), in the order of the
        Dataset's dimensions; text axes are parsed by :func:`nsfric.study.grid.parse_grid`.
    observables : list of str
        Names from the case's ``summary`` (reference points) or ``error``,
        ``error_<state>`` (discrete points); unknown names raise ValueError naming the
        ones the case gives.
    params : dict, optional
        Fixed parameter overrides.
    solver, options : reference solver name (default ``filippov``; ``auto`` for the
        references of discrete points) and its options (``rtol``, ``atol``, ...).
    t_end : float, optional
        End time (default: the case's).
    estimate : bool
        Add ``error_estimate_<observable>`` (one more solve per point, see module docstring).
    scheme, dt : fixed scheme and step of discrete points (or grid axes).
    executor : None, a :class:`concurrent.futures.Executor` or a ``distributed.Client``
    jobs : int
        Local worker processes when ``executor`` is None (1: in this process).
    chunksize : int, optional
        Points per task (default: about four tasks per worker).
    retries : int
        Retries of a failed Dask task; on the local pool (``jobs``), how often the
        unfinished points run again after a worker process died (then
        :class:`~nsfric.errors.WorkerDied`).
    cache_dir : str, optional
        Cache folder (default: no cache); ``force`` recomputes every point.
    progress : None, True (a bar on stderr), ``"plain"`` (a line on stderr per tenth of the
        points) or a callable ``(done, total)``
    on_failure : ``"raise"`` (a point's solver failure stops the sweep) or ``"record"``
        (its observables are NaN, the reason is in the ``failure`` variable, and it is not
        cached)

    Returns
    -------
    xarray.Dataset
        Dimensions: the grid axes (coordinates with their values and units); variables:
        the observables, their error estimates, solver statistics; ``attrs``: provenance
        (strings; JSON for structured values).  ``.to_dataframe()`` gives the table.
    """
    from ..arguments import integer, positive

    grid = check_grid(grid)
    jobs, retries = integer(jobs, "jobs", 1), integer(retries, "retries", 0)
    chunksize = None if chunksize is None else integer(chunksize, "chunksize", 1)
    t_end = None if t_end is None else positive(t_end, "t_end")
    dt = None if dt is None else positive(dt, "dt")
    if isinstance(observables, str):
        observables = [observables]
    observables = list(observables or ())
    if not observables:
        raise ValueError("give at least one observable")
    if on_failure not in ("raise", "record"):
        raise ValueError(f"on_failure must be 'raise' or 'record', got {on_failure!r}")
    evaluator = _setup(case, law, grid, params, solver, options, t_end, estimate, scheme, dt)
    if on_failure == "record":
        evaluator = Recording(evaluator)
    pts = grid_points(grid)
    specs = [spec_text(evaluator.spec(p)) for p in pts]  # validates every point before any run
    keys = [text_key(s) for s in specs]
    cache = PointCache(cache_dir) if cache_dir else None
    results = [None] * len(pts)
    if cache is not None and not force:
        cache.want(keys)  # the store's other entries are not held in memory
        results = [cache.load(k, s) for k, s in zip(keys, specs)]
    todo = [(i, p) for i, p in enumerate(pts) if results[i] is None]
    computed, t0 = len(todo), time.perf_counter()
    with Progress(progress, len(pts), getattr(case, "name", "sweep")) as bar:
        bar.advance(len(pts) - len(todo))

        checked = len(todo) < len(pts)  # a cached result has been checked below

        def done(i, result):
            nonlocal checked
            failed = bool(result["stats"].get("failure"))
            if not failed and not checked:  # the first result: check the names
                _check_observables(observables, result, pts[i])
                checked = True
            results[i] = result
            if cache is not None and not failed:
                cache.store(keys[i], result, specs[i])
            bar.advance()

        try:
            if len(todo) < len(pts):
                _check_observables(observables, *next((r, pts[i]) for i, r in enumerate(results) if r))
            run_tasks(evaluator, todo, done, executor, jobs, chunksize, retries)
        finally:  # what was computed is stored, also when the sweep stops early
            if cache is not None:
                cache.close()
    seconds = time.perf_counter() - t0
    meta = _provenance(case, evaluator, grid, observables, computed, seconds)
    if cache_store.notes():  # a cache that could not be written: skipped, said in the sidecar
        meta["cache"] = cache_store.notes()
    return to_dataset(case, evaluator, grid, observables, results, meta)


def _check_observables(observables, result, point):
    known = list(result["observables"])
    bad = [o for o in observables if o not in known]
    if bad:
        raise ValueError(f"unknown observable(s) {bad}; at {point} the case gives {known}")


def _provenance(case: ProblemFactory | Callable, ev, grid, observables, computed, seconds) -> dict:
    meta = {"grid": {k: list(v) for k, v in grid.items()}, "observables": observables,
            "points": int(np.prod([len(v) for v in grid.values()])), "computed_points": computed,
            "seconds": seconds, "versions": ev.versions}
    ev = getattr(ev, "evaluator", ev)
    if isinstance(ev, CasePoint):
        meta.update(case=case.name, reference=case.reference, law=ev.law, params=ev.params,
                    solver=ev.solver, options=ev.options, t_end=ev.t_end, scheme=ev.scheme, dt=ev.dt,
                    estimate=f"|change| at {ESTIMATE_FACTOR:g}x looser rtol, atol" if ev.estimate else "none")
    else:
        meta["function"] = function_name(case)
    return meta
