"""One run of a study: a Problem (or a case), a scheme, a step -> a row of errors and work.

A study works on :class:`~nsfric.solvers.base.Problem` objects; a case object is only a
way to make one (``case.problem(law, params, t_end)``).  The reference is a
:class:`~nsfric.solution.Solution` -- given, or solved here by a named reference
solver (``"auto"``: the closed form, ``analytic``, where the model admits one, else the
event-driven ``filippov``).  A discrete run and a reference are the same type, so a
fine discrete run can serve as the reference of a coarser one.

Errors are taken at the discrete run's own rows (no interpolation of the discrete
solution); the reference is evaluated there by its dense output.
"""
from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from ..memo import Identity, Memo
from ..schemes import simulate
from ..solution import Solution
from ..problems import ProblemFactory
from ..solvers.base import Problem, get_solver
from .timing import best_cpu_seconds

#: objects of running studies (cases, problems, references) by token; forked workers
#: inherit them (and their cached models, derivations and references) instead of
#: unpickling fresh copies
_LOCAL: dict = {}
#: the references of running studies, by source object (an Identity: never its bare id)
_REFS = Memo(64, "nsfric.study.runs.references")
#: the (source, law, scheme) whose generated code was compiled outside a timed run
_WARM = Memo(1024, "nsfric.study.runs.warm")


def local_token(obj, kind: str) -> str:
    """Register ``obj`` in :data:`_LOCAL`; the token stands for it in worker tasks."""
    tok = f"local:{kind}:{getattr(obj, 'name', '') or ''}:{id(obj)}"
    _LOCAL[tok] = obj
    return tok


def _resolve(obj):
    """The object behind ``obj`` (itself, or a token of :data:`_LOCAL`).

    This layer does not know the case registry: a case *name* is resolved by the
    package-level API (:func:`nsfric.converge`), which passes the object down.
    """
    if isinstance(obj, str) and obj.startswith("local:"):
        return _LOCAL[obj]
    if isinstance(obj, str):
        raise TypeError(f"case {obj!r}: pass the case object (nsfric.get_case({obj!r})) or a "
                        "Problem, or call nsfric.converge, which resolves names")
    return obj


def problem_of(source: Problem | ProblemFactory, law=None, params=None, t_end=None) -> Problem:
    """The Problem of ``source``: a Problem (``law``/``params`` must not be given; ``t_end``
    shortens or extends its span) or a case object (``case.problem(law, params, t_end)``)."""
    source = _resolve(source)
    if isinstance(source, Problem):
        if (law is not None and law != source.law) or params:
            raise ValueError("law and params belong to the Problem; do not pass them too")
        if t_end is None:
            return source
        return replace(source, t_span=(source.t_span[0], float(t_end)))
    return source.problem(law, params, t_end)


def reference_for(source: Problem | ProblemFactory, law=None, params=None, t_end=None, solver="auto") -> Solution:
    """The (cached) reference solution of a case/law or a Problem.

    ``solver`` is a Solution (returned as it is), ``"auto"`` (closed form where the
    model admits one, else ``filippov``) or a reference solver's name.  Errors are taken
    from its dense output, which every reference solver builds on its own steps (the
    DAE solvers too: :mod:`nsfric.solvers.dense`), whatever its samples.
    """
    if isinstance(solver, str) and solver.startswith("local:"):
        solver = _LOCAL[solver]
    if isinstance(solver, Solution):
        return solver
    source = _resolve(source)
    key = (Identity(source), getattr(source, "name", ""), law, tuple(sorted((params or {}).items())),
           t_end, solver)
    found, sol = _REFS.lookup(key)
    if not found:
        prob = problem_of(source, law, params, t_end)
        names = ["analytic", "filippov"] if solver == "auto" else [solver]
        err = None
        for name in names:
            try:
                sol = get_solver(name).solve(prob)  # its dense output is what counts, not the samples
                break
            except ValueError as e:  # not piecewise affine: no closed form
                err = e
        if sol is None:
            raise err
        _REFS.put(key, sol)
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


def run_one(source: Problem | ProblemFactory, law, scheme, dt, variables=None, times=(), t_end=None, params=None,
            reference="auto", max_steps=None, max_seconds=None, repeat=True) -> dict:
    """One row of a convergence table: ``source`` a case or a Problem, ``reference`` a
    Solution or a solver name (see :func:`reference_for`); ``max_steps`` and
    ``max_seconds`` are the budgets of the discrete run (:func:`~nsfric.schemes.simulate`).

    ``seconds`` is the CPU time of the run measured by
    :func:`~nsfric.study.timing.best_cpu_seconds` (the run repeated, ``timing_runs``
    calls in all, ``timing_cpu`` their total CPU time), not the wall time of one call;
    ``repeat=False``: the CPU time of the one call (``timing_runs = 1``)."""
    prob = problem_of(source, law, params, t_end)
    key = (Identity(_resolve(source)), law, str(scheme))
    if key not in _WARM:  # compile lazily generated code outside the timed run
        T = float(prob.t_span[1])
        simulate(prob, scheme=scheme, dt=min(dt, T / 4), t_end=min(T, 4 * dt), compiled=True)
        _WARM.put(key, True)

    def again():
        return simulate(prob, scheme=scheme, dt=dt, max_steps=max_steps, max_seconds=max_seconds,
                        compiled=True)  # the same numbers, compiled where it can

    res, first = _cpu_timed(again)
    seconds, calls, total = best_cpu_seconds(again, done=[first]) if repeat else (first, 1, first)
    ref = reference_for(source, law, params, t_end, reference)
    row = {"law": res.law, "scheme": res.scheme, "dt": float(dt)}
    errs = discrete_errors(res, ref, variables, times)
    row["error"] = errs.pop("error")
    row.update({"n_rhs": res.n_rhs, "seconds": seconds, "timing_runs": calls, "timing_cpu": total, "n_steps": res.n_steps,
                "n_events": len(res.events)})
    row.update(errs)
    row["reference"] = ref.solver
    return row


def _cpu_timed(call):
    """``call()`` and its CPU time."""
    tic = time.process_time()
    out = call()
    return out, time.process_time() - tic


def phase_problem(prob: Problem, ref: Solution, tau: float) -> Problem:
    """``prob`` started at ``tau`` from the reference state there: the step grid shifted by
    ``tau`` against the events (``tau = 0``: ``prob`` itself, its own initial state)."""
    if tau == 0.0:
        return prob
    t0 = float(prob.t_span[0]) + tau
    return replace(prob, y0=np.asarray(ref(np.array([t0]))[:, 0], dtype=float), t_span=(t0, prob.t_span[1]))


def run_phases(source: Problem | ProblemFactory, law, scheme, dt, variables=None, times=(), t_end=None,
               params=None, reference="auto", max_steps=None, max_seconds=None, phases=1) -> dict:
    """One row of a convergence table over ``phases`` grid phases.

    Phase ``j`` starts at ``tau_j = j dt / phases`` from the reference state there, so the
    switching events fall at ``phases`` evenly spaced positions within a step; each run's
    errors are taken over its own rows in ``(tau_j, t_end]``.  ``error`` (and every
    ``error_*`` column) is the mean over the phases -- the expected error of an event at
    a random position in the step -- and ``error_max`` the largest ``error``.  The work
    columns (``n_rhs``, ``seconds``, ``n_steps``, ``n_events``) are those of the run from
    ``t = 0`` (phase 0), one run over the window.  The phase runs are repeats of it on a
    shifted grid: their CPU times, scaled to its step count, count among the repeats of
    its measured time (:func:`~nsfric.study.timing.best_cpu_seconds`).  ``phases = 1``
    is :func:`run_one`.
    """
    row = run_one(source, law, scheme, dt, variables, times, t_end, params, reference, max_steps, max_seconds,
                  repeat=phases == 1)
    errs = {k: [v] for k, v in row.items() if k.startswith("error")}
    if phases > 1:
        prob = problem_of(source, law, params, t_end)
        ref = reference_for(source, law, params, t_end, reference)
        n0 = row["n_steps"]
        done = [row["seconds"]]
        for j in range(1, phases):
            res, cpu = _cpu_timed(lambda: simulate(phase_problem(prob, ref, j * float(dt) / phases), scheme=scheme,
                                                   dt=dt, max_steps=max_steps, max_seconds=max_seconds,
                                                   compiled=True))
            done.append(cpu * n0 / max(res.n_steps, 1))
            e = discrete_errors(res, ref, variables, times)
            for k in errs:
                errs[k].append(e[k])
        row["seconds"], row["timing_runs"], row["timing_cpu"] = best_cpu_seconds(
            lambda: simulate(prob, scheme=scheme, dt=dt, max_steps=max_steps, max_seconds=max_seconds,
                             compiled=True), done=done)
    for k, vals in errs.items():
        row[k] = float(np.mean(vals))
    row["error_max"] = float(np.max(errs["error"]))
    row["n_phases"] = int(phases)
    return row


def _task(args):
    return run_phases(*args)
