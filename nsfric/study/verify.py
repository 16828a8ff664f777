"""Another code's results measured against nsfric's exact reference: ``nsfric verify``.

Input: a table of the code's observables per step ``dt`` (and per parameter point), from
a CSV file or from a ``runner(dt, params)`` callable wrapping any code
(:mod:`nsfric.study.verify_input`) -- or the code's trajectories, turned into such a table
(:mod:`nsfric.study.verify_trajectory`).  For every parameter point, observable and law:

* ``exact``: the case's observable of the exact reference under the same parameters
  (a convention's parameters included), with its uncertainty -- the change of the
  value when the solve is repeated at 100x tighter tolerances (or 100x looser ones when
  the tighter would pass the stepper's round-off limit, :data:`TIGHTEST_RTOL`);
* ``errors`` per dt (code - exact) and their observed ``order``
  (:func:`~nsfric.study.verify_limit.order_against`, "no order" with the reason);
* ``limit``: the code's own dt -> 0 limit with its uncertainty, from its values alone
  (:func:`~nsfric.study.verify_limit.extrapolate`), ``offset = limit - exact`` and its
  uncertainty (the two uncertainties added);
* ``status``: :data:`CONVERGES` (to this law: ``|offset|`` within its uncertainty and the
  values converge), :data:`ELSEWHERE` (``|offset|`` beyond it), :data:`DIVERGES` (the
  values do not converge: no self-convergence order, and their differences do not
  fall with the step).  Values whose differences fall with the step without an order
  (a nonsmooth problem's error changing sign with the grid phase) converge with "no
  order" in the verdict, their limit the finest value
  (:func:`~nsfric.study.verify_limit.extrapolate`).

With several laws a point says which one the code converges to (the law whose offset is
within its uncertainty, the smallest relative to it when several are; else the closest
one, saying that none matches).  A kinetic energy after the run above the one before
(:data:`~nsfric.study.verify_input.ENERGY_COLUMNS`) is flagged.

This layer knows no case or convention registry: it takes a case object (a
:class:`~nsfric.cases.base.Case`) and a convention object
(:class:`~nsfric.conventions.Convention`); :func:`nsfric.verify` resolves names.
"""
from __future__ import annotations

import math

import numpy as np

from .verify_input import group_points, read_table, run_table, split_columns
from .verify_limit import extrapolate, order_against
from .verify_result import VerifyPoint, VerifyResult
from .verify_trajectory import is_trajectory, trajectory_errors, trajectory_table

#: status of a law the code converges to, one it converges away from, and no convergence
CONVERGES = "converges to {law}"
ELSEWHERE = "converges to something else: offset beyond its uncertainty"
DIVERGES = "does not converge"
#: the second solve of the reference is at tolerances this many times tighter (or looser)
ESTIMATE_FACTOR = 100.0
#: below this rtol the second solve is looser instead (DOP853 clamps rtol at 100 eps)
TIGHTEST_RTOL = 1e-13


def laws_of(case, law, convention=None) -> list:
    """The laws to test: ``law`` (a name, a list of names, or ``"auto"``: every law with
    an exact reference), default the convention's laws, else the case's default law."""
    if law is None:
        law = list(convention.laws) if convention is not None and convention.laws else [case.default_law]
    names = [law] if isinstance(law, str) else list(law)
    if not names:
        raise ValueError("law: give at least one law (or 'auto')")
    out = []
    for name in names:
        for lw in (case.laws if name == "auto" else [name]):
            lw = case.check_law(lw)
            if not case.has_reference(lw):
                raise ValueError(f"law {lw!r} of case {case.name!r} has no exact reference; choose from "
                                 f"{list(case.laws)}")
            if lw not in out:
                out.append(lw)
    return out


def fixed_params(case, convention, params) -> dict:
    """The convention's parameters and ``params`` together; ValueError for a convention of
    another case or a parameter given with two values."""
    params = dict(params or {})
    if convention is None:
        return params
    if convention.case != case.name:
        raise ValueError(f"convention {convention.name!r} applies to case {convention.case!r}, not {case.name!r}")
    clash = [k for k, v in params.items() if k in convention.params and float(v) != float(convention.params[k])]
    if clash:
        raise ValueError(f"params: {clash[0]} = {params[clash[0]]!r} contradicts convention {convention.name!r} "
                         f"({clash[0]} = {convention.params[clash[0]]!r}); leave it out or choose another convention")
    return {**convention.params, **params}


def reference_observables(case, law, values, t_end=None, solver="filippov") -> tuple:
    """``(exact, uncertainty, how)``: the case's observables of the exact reference of ``law``
    at the parameters ``values`` -- its summary (:meth:`~nsfric.cases.base.Case.observables`)
    and every state and derived quantity at the end time as ``<name>_end`` -- each with
    the change of its value under a second solve (module docstring); ``nan`` where the
    case's solver takes no tolerances; ``how`` says how the uncertainty was estimated
    (and, where the case gives no summary for this solve, why)."""
    def solve(**opts):
        sol = case.reference_solution(law, solver=solver, params=values, t_end=t_end, samples=2, **opts)
        obs = {k: float(v) for k, v in (sol.summary or {}).items()
               if isinstance(v, (int, float, np.number)) and not isinstance(v, bool)}
        model = sol.model
        for name in (*model.state_names, *getattr(model, "output_names", ())):
            obs.setdefault(f"{name}_end", float(np.asarray(sol[name])[-1]))
        return sol, obs

    sol, first = solve()
    why = ""
    if not sol.summary and hasattr(case, "why_no_observables"):
        why = "; no summary observables: " + case.why_no_observables(law, sol)
    rtol, atol = sol.tolerances.get("rtol"), sol.tolerances.get("atol")
    if rtol is None or atol is None:
        return first, {k: math.nan for k in first}, f"not estimated (solver {sol.solver!r} takes no tolerances){why}"
    tighter = rtol / ESTIMATE_FACTOR >= TIGHTEST_RTOL
    f = 1 / ESTIMATE_FACTOR if tighter else ESTIMATE_FACTOR
    _, second = solve(rtol=min(rtol * f, 0.1), atol=atol * f)
    exact = second if tighter else first
    eps = np.finfo(float).eps
    how = (f"|change| from rtol = {rtol:g} to {min(rtol * f, 0.1):g} (atol {atol:g} to {atol * f:g}); the value is "
           f"the {'tighter' if tighter else 'first'} solve's{why}")
    return exact, {k: max(abs(first[k] - second.get(k, math.nan)), 4 * eps * abs(exact[k])) for k in exact}, how


def _bound(case, laws, fixed, point, t_end):
    """The full parameters of ``point`` (validated against every law's ranges) and the
    end time: what a runner receives."""
    values = {}
    for law in laws:
        values.update(case.bind(law, {**fixed, **point}))
    if t_end is None:
        t_end = case.default_t_end(laws[0], case.bind(laws[0], {**fixed, **point}))
    return {**values, "t_end": float(t_end)}


def verify(case, law=None, input=None, runner=None, dts=None, points=None, convention=None, params=None,
           observables=None, t_end=None, solver="filippov", tol=0.3, progress=None) -> VerifyResult:
    """Measure another code's observables against the exact reference of ``case``.

    Parameters
    ----------
    case : case object
        (a name is resolved by :func:`nsfric.verify`).
    law : str or list of str, optional
        The law(s) to test, or ``"auto"`` (every law of the case with an exact reference);
        default: the convention's laws, else the case's default law.
    input : str, path or mapping of columns, optional
        The code's results: one row per run with ``dt``, varied parameters and
        observables (:mod:`nsfric.study.verify_input`); or its trajectories, a ``t``
        column and one per state, the rows of each run in time order
        (:mod:`nsfric.study.verify_trajectory`: the states at the end time and the
        case's trajectory observables are compared).
    runner : callable ``runner(dt, params) -> dict``, optional
        Instead of ``input``: runs the code at step ``dt`` with the full parameters
        ``params`` (nsfric's names, and ``t_end``) and returns its observables, or its
        trajectory ``{"t": times, state: values, ...}``.
    dts : list of float
        The steps ``runner`` is run at (at least 3 distinct).
    points : list of dict, optional
        Parameter points ``runner`` is run at (default: one, the fixed parameters).
    convention : Convention, optional
        Its ``params`` apply to the reference; its ``laws`` are the default laws.
    params : dict, optional
        Fixed parameters of the case.
    observables : list of str, optional
        The observables compared (default: every observable column / runner output).
    t_end : float, optional
        End time of the reference (default: the case's); runners receive it.
    solver : str
        Reference solver.
    tol : float
        Allowed deviation of the local slopes in the order fits (:func:`~nsfric.study.fit.fit_order`).
    progress : callable ``(text)``, optional

    Returns
    -------
    VerifyResult
        ``.points`` (one :class:`~nsfric.study.verify_result.VerifyPoint` per parameter
        point and observable), ``.summary()``, ``.to_dict()``, ``.to_dataframe()``,
        ``.write(folder)``.
    """
    laws = laws_of(case, law, convention)
    fixed = fixed_params(case, convention, params)
    names = set()
    for lw in laws:
        names |= set(case.bind(lw, fixed))
    bad = sorted(set(fixed) - names)
    if bad:
        raise ValueError(f"params: unknown parameter(s) {bad} for case {case.name!r}; choose from {sorted(names)}")
    if (input is None) == (runner is None):
        raise ValueError("give the code's results as input= (a CSV file or columns) or runner= (with dts=), one of them")
    if isinstance(observables, str):
        observables = [observables]
    if input is not None:
        if dts is not None or points is not None:
            raise ValueError("dts and points belong to runner=; an input table has its own dt and parameter columns")
        cols = read_table(input)
        source = str(input) if isinstance(input, str) else "columns"
    else:
        pts = [dict(p) for p in (points or [{}])]
        for p in pts:
            unknown = sorted(set(p) - names)
            if unknown:
                raise ValueError(f"points: unknown parameter(s) {unknown} for case {case.name!r}")
        cols = run_table(runner, [] if dts is None else dts, pts,
                         lambda p: _bound(case, laws, fixed, p, t_end), observables)
        source = f"runner {getattr(runner, '__module__', '')}.{getattr(runner, '__qualname__', type(runner).__name__)}"
    trajectory = is_trajectory(cols)
    dropped: dict = {}
    if trajectory:  # the runs' states: their observables (and the end time) from the rows
        ref_states = {tuple(case.numeric_model(lw).state_names) for lw in laws}
        if len(ref_states) > 1:
            raise ValueError(f"laws {laws} of case {case.name!r} have different states {sorted(ref_states)}: "
                             f"verify one at a time against a trajectory")
        rows_in = cols
        cols, t_end, dropped = trajectory_table(case, laws[0], cols, names,
                                                lambda p: case.bind(laws[0], {**fixed, **p}), t_end)
        if observables is not None:
            observables = [o for o in observables if o not in dropped]
    pcols, obs, energy = split_columns(cols, names, observables)
    clash = sorted(set(pcols) & set(fixed))
    if clash:
        raise ValueError(f"parameter(s) {clash} are both fixed (params or the convention) and columns of the input")
    groups = group_points(cols, pcols)
    result_points, estimates = [], {}
    for point, rows in groups:
        values = {**fixed, **point}
        for lw in laws:
            case.bind(lw, values)  # the point's values in range, before any solve
        exact = {}
        for lw in laws:
            if progress:
                progress(f"{case.name}/{lw}: reference at {point or 'the fixed parameters'}")
            exact[lw] = reference_observables(case, lw, values, t_end, solver)
        known = set.intersection(*(set(e[0]) for e in exact.values()))
        partial = set(case.partial_observables) if trajectory else set()
        for o in sorted(set(obs) & partial - known):  # an event the code shows and the exact solution has not
            where = f" at {point}" if point else ""
            dropped[o] = f"left out{where}: the exact reference of {', '.join(laws)} has none"
        unknown = [o for o in obs if o not in known and o not in partial]
        if unknown:
            why = "".join(dict.fromkeys(e[2].partition("; no summary")[1] + e[2].partition("; no summary")[2]
                                        for e in exact.values()))
            raise ValueError(f"unknown observable(s) {unknown} for case {case.name!r} (law {', '.join(laws)}"
                             f"{', at ' + str(point) if point else ''}); it gives {sorted(known)}{why}")
        estimates.update({lw: e[2] for lw, e in exact.items()})
        dt = cols["dt"][rows]
        gain = _energy_gain(cols, energy, rows)
        for o in obs:
            if o not in known:
                continue
            y = cols[o][rows]
            result_points.append(judge(point, o, dt, y, {lw: (exact[lw][0][o], exact[lw][1][o]) for lw in laws},
                                       gain, tol))
    traj_errors = []
    if trajectory:
        if progress:
            progress(f"{case.name}: error against time")
        traj_errors = trajectory_errors(case, laws, rows_in, names, lambda p: {**fixed, **p}, t_end, solver, tol)
    meta = {"case": case.name, "laws": laws, "convention": getattr(convention, "name", None),
            "convention_params": dict(getattr(convention, "params", {}) or {}), "params": fixed,
            "t_end": t_end, "solver": solver, "input": source, "observables": obs,
            "energy_columns": energy, "exact_uncertainty": estimates,
            "input_kind": "trajectory" if trajectory else "observables", "trajectory_errors": traj_errors,
            "left_out": dropped}
    return VerifyResult(case.name, laws, result_points, meta)


def _energy_gain(cols, energy, rows) -> list:
    """The steps at which the kinetic energy after exceeds the one before."""
    if not energy:
        return []
    before, after = cols[energy[0]][rows], cols[energy[1]][rows]
    gain = after > before * (1 + 1e-12) + 1e-300
    return [float(d) for d, g in zip(cols["dt"][rows], gain) if g]


def judge(point, observable, dts, values, exact: dict, energy_gain=(), tol=0.3) -> VerifyPoint:
    """One parameter point and observable: the limit of ``values`` at ``dts`` and, per law
    of ``exact`` (``{law: (value, uncertainty)}``), errors, order, offset and status."""
    fits = {lw: order_against(dts, np.asarray(values) - ex, max(u_ex if math.isfinite(u_ex) else 0.0, 1e-300), tol)
            for lw, (ex, u_ex) in exact.items()}
    lim = extrapolate(dts, values, tol, next((f for f in fits.values() if f.ok), None))
    per_law = {}
    for lw, (ex, u_ex) in exact.items():
        errors = np.asarray(values) - ex
        u_ex_ = u_ex if math.isfinite(u_ex) else 0.0
        fit = fits[lw]
        offset = lim.value - ex
        u_off = lim.uncertainty + u_ex_
        if not lim.converges:
            status, why = DIVERGES, lim.reason()
        elif abs(offset) <= u_off:
            status = CONVERGES.format(law=lw)
            why = f"|offset| {abs(offset):.2g} within its uncertainty {u_off:.2g}"
        else:
            status = ELSEWHERE
            why = f"offset {offset:.3g} beyond its uncertainty {u_off:.2g}"
        per_law[lw] = {"exact": ex, "exact_uncertainty": u_ex, "errors": errors.tolist(), "order": fit,
                       "offset": offset, "offset_uncertainty": u_off, "status": status, "why": why}
    return VerifyPoint(dict(point), observable, [float(d) for d in dts], [float(v) for v in values], lim, per_law,
                       list(energy_gain))
