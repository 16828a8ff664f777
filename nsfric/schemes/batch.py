"""Batched runs: one scheme on one case for many parameter sets (and initial states) at once.

``simulate(case, law, scheme, dt, params={"v0": np.linspace(1, 8, 10_000)})`` with
array-valued parameters broadcasts them into a batch of ``B`` members and returns one
:class:`~nsfric.solution.Solution` whose states have a leading batch axis
(``sol["v"].shape == (B, n_steps + 1)``); member ``i`` equals the single run with the
``i``-th values (:meth:`Solution.member`).  Three paths, the first that applies:

* ``numba``: the compiled loop of :mod:`nsfric.schemes.batch_kernel` (the scheme traced
  on the model's generated field), for the explicit Runge-Kutta and partitioned
  schemes; members the kernel cannot finish (a state exactly on a switching surface,
  which needs the mode logic's decision) are rerun per member;
* ``numpy``: the scheme's own ``step`` on :class:`BatchField`, the
  :class:`~nsfric.schemes.field.DiscreteField` vectorised over the members (the same
  generated functions; surface decisions member by member).  A scheme with its own
  vectorised loop (its ``run_batch`` hook, e.g. the delta schemes') runs that instead
  of these two;
* ``loop``: the per-member path, member by member (implicit and multistep schemes).
  Event-aware schemes add rows at each member's own transitions: no batch of them.

The path is chosen by ``backend`` (``"auto"``: numba where it applies and is
installed, else numpy, else loop), or by the environment variable
``NSFRIC_BATCH_BACKEND``; the path taken is ``sol.info["backend"]``.

Which rows are kept is ``store``: ``"all"`` (every step), ``"final"`` (the last row
of each member) or an integer stride ``k`` (rows 0, k, 2k, ... and the last).  With
fewer rows than all, the members run in chunks whose every row fits in
:data:`WORK_BYTES`, and only the rows kept are copied out: memory of the kept rows
plus one chunk, the same numbers as ``"all"`` at those rows.
"""
from __future__ import annotations

import math
import os
import time

import numpy as np

from ..solution import Solution
from ..problems import ProblemFactory
from ..solvers import loop
from ..solvers.loop import Budget
from .batch_field import BatchField, mode_codes
from .field import Diverged, _compiled

BACKENDS = ("auto", "numba", "numpy", "loop")
#: members per compiled call between CPU-time budget checks
CHUNK = 4096
#: the working rows of the members run at once when ``store`` keeps fewer rows (bytes)
WORK_BYTES = 64 * 1024 ** 2
#: what ``store`` may be
STORE_TEXT = "store must be 'all', 'final' or an integer stride >= 1"


def check_store(store):
    """``store`` if it is ``"all"``, ``"final"`` or an integer >= 1; else ValueError
    naming ``store`` and its allowed values."""
    if isinstance(store, str) and store in ("all", "final"):
        return store
    if isinstance(store, (int, np.integer)) and not isinstance(store, (bool, np.bool_)) and store >= 1:
        return int(store)
    raise ValueError(f"{STORE_TEXT}, got {store!r}")


def stored_rows(n_steps: int, store) -> np.ndarray | None:
    """The row indices ``store`` keeps of ``n_steps + 1`` rows (None: all of them)."""
    if store == "all" or store == 1:
        return None
    if store == "final":
        return np.array([n_steps])
    rows = np.arange(0, n_steps + 1, store)
    return rows if rows[-1] == n_steps else np.append(rows, n_steps)


def batch_size(params) -> int | None:
    """The number of members of ``params`` (None when every value is a scalar).

    Array values must be 1-D (or broadcast to one length); ValueError otherwise.
    """
    if not params:
        return None
    arrays = {k: np.asarray(v) for k, v in params.items() if np.ndim(v) > 0}
    if not arrays:
        return None
    for k, a in arrays.items():
        if a.ndim != 1 or a.size == 0:
            raise ValueError(f"parameter {k!r}: a batch takes 1-D arrays of values, got shape {a.shape}")
    try:
        (B,) = np.broadcast_shapes(*(a.shape for a in arrays.values()))
    except ValueError:
        raise ValueError("array-valued params must have one length (or length 1): got "
                         + ", ".join(f"{k}: {a.size}" for k, a in arrays.items())) from None
    return B


def bind_batch(model, params, B) -> dict:
    """Validated values by name: floats, and arrays (B,) for the array-valued ones."""
    scalars = {k: v for k, v in params.items() if np.ndim(v) == 0}
    values = model.bind(scalars)
    for k, v in params.items():
        if np.ndim(v) == 0:
            continue
        if k not in values:
            model.bind({k: 0.0})  # the unknown-parameter error
        q = model.param(k)
        try:
            a = np.broadcast_to(np.asarray(v, dtype=float), (B,))
        except (TypeError, ValueError):
            raise ValueError(f"parameter {k!r} must be numbers in {q.range_text()}") from None
        bad = ~np.isfinite(a)
        for x in (a[bad][:1] if bad.any() else (a.min(), a.max())):
            q.validate(x)  # an interval: its smallest and largest value decide
        values[k] = a
    return values


def member_values(values: dict, i: int) -> dict:
    return {k: (float(v[i]) if np.ndim(v) else v) for k, v in values.items()}


def simulate_batch(case: ProblemFactory, law, scheme, dt, t_end, params, B, max_steps=None, max_seconds=None,
                   backend=None, store="all"):
    """The batched run behind :func:`nsfric.schemes.simulate` (see module docstring)."""
    from .base import check_step_budget, get_scheme, simulate, step_count

    store = check_store(store)
    backend = backend or os.environ.get("NSFRIC_BATCH_BACKEND") or "auto"
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
    from .events import EventAware

    scheme = get_scheme(scheme)
    if isinstance(scheme, EventAware):
        raise ValueError(f"scheme {scheme.name!r} adds rows at the transitions, so its members have "
                         "different rows: no batch; run the members one by one")
    law = case.check_law(law)
    model = (getattr(case, "numeric_model", None) or case.model)(law)  # from the disk cache where it can
    values = bind_batch(model, params, B)
    first = getattr(case, "scheme_problem", case.problem)(law, member_values(values, 0), t_end)  # t_end checked here
    t0, t1 = map(float, first.t_span)
    dt = float(dt)
    if not (dt > 0 and math.isfinite(dt)):
        raise ValueError(f"dt must be > 0, got {dt:g}")
    n_steps = step_count(t1 - t0, dt)
    if n_steps < 1:
        raise ValueError(f"dt = {dt:g} exceeds t_end = {t1:g}: no step fits")
    n = len(model.states)
    rows = stored_rows(n_steps, store)
    work = min(WORK_BYTES, loop.MEMORY_LIMIT // 4)  # the working rows of a chunk of members
    per = B if rows is None else max(1, min(B, work // (8 * n * (n_steps + 1))))
    kept = (n_steps + 1) * B if rows is None else len(rows) * B + (n_steps + 1) * per
    check_step_budget(n_steps, kept, n, dt, max_steps,
                      more="" if store == "final" else
                      ", or keep fewer rows of the batch: store='final' or an integer stride")
    P = np.ascontiguousarray([np.broadcast_to(np.asarray(values[q.name], dtype=float), (B,))
                              for q in model.params])
    U0 = _initial_states(case, law, values, B)
    budget = Budget(max_seconds, f"simulate {scheme.name} (batch of {B})")

    def per_member(i):
        return simulate(case, law, scheme, dt, t1, member_values(values, i), max_seconds=max_seconds)

    tic = time.perf_counter()
    if rows is None:
        Y = np.empty((n, B, n_steps + 1))
        steps = np.full(B, n_steps)
        path, nfev = _run(backend, model, scheme, U0, P, dt, t0, n_steps, Y, steps, budget, per_member)
    else:
        Y, steps, path, nfev = _run_kept(rows, per, backend, model, scheme, U0, P, dt, t0, n_steps, budget,
                                         per_member)
    seconds = time.perf_counter() - tic
    ok = steps == n_steps
    term = "reached t_end" if ok.all() else \
        f"{int((~ok).sum())} of {B} members diverged (first at t = {t0 + steps.min() * dt:.6g})"
    t = t0 + dt * np.arange(n_steps + 1)
    sol = Solution.from_batch(model, values, t if rows is None else t[rows], Y,
                              lambda Y, P: mode_codes(model, Y, P), scheme=scheme.name, dt=dt,
                              t_span=(t0, t1), stats={"nfev": nfev, "seconds": seconds, "nsteps": n_steps},
                              termination=term, steps=steps, case=first.name or model.name, law=law,
                              n_steps=n_steps)
    sol.info["backend"] = path
    sol.info["store"] = store
    return sol


def _run_kept(rows, per, backend, model, scheme, U0, P, h, t0, n_steps, budget, per_member):
    """:func:`_run` over chunks of ``per`` members, keeping the ``rows`` of each:
    ``(Y (n, B, len(rows)), steps, path, nfev)``."""
    n, B = U0.shape
    Y = np.empty((n, B, len(rows)))
    steps = np.full(B, n_steps)
    path, nfev = None, 0
    for b0 in range(0, B, per):
        b1 = min(B, b0 + per)
        W, s = np.empty((n, b1 - b0, n_steps + 1)), steps[b0:b1]  # contiguous, as the kernels take it
        path, nf = _run(backend, model, scheme, np.ascontiguousarray(U0[:, b0:b1]),
                        np.ascontiguousarray(P[:, b0:b1]), h, t0, n_steps, W, s, budget,
                        lambda i, b0=b0: per_member(b0 + i))
        Y[:, b0:b1] = W[:, :, rows]
        nfev += nf
        del W  # freed before the next chunk's rows are allocated
    return Y, steps, path, nfev


def _initial_states(case: ProblemFactory, law, values, B):
    """``U0`` (n, B): the case's initial state of each member (its own ``y0``, called once
    on the arrays where it broadcasts them -- checked on the first member -- else per member)."""
    n = len((getattr(case, "numeric_model", None) or case.model)(law).states)
    try:
        with np.errstate(all="ignore"):
            U0 = np.broadcast_to(np.asarray(case.y0(law, values), dtype=float).reshape(n, -1), (n, B))
        ok = np.array_equal(U0[:, 0], np.asarray(case.y0(law, member_values(values, 0)), dtype=float))
    except (TypeError, ValueError):
        ok = False
    if not ok:
        U0 = np.array([case.y0(law, member_values(values, i)) for i in range(B)], dtype=float).T
    return np.ascontiguousarray(U0)


def _run(backend, model, scheme, U0, P, h, t0, n_steps, Y, steps, budget, per_member):
    from .batch_kernel import Untraceable, kernel, trace_scheme

    B = U0.shape[1]
    own = getattr(scheme, "run_batch", None)
    if own is not None and backend in ("auto", "numba", "numpy"):
        out = own(model, U0, P, h, t0, n_steps, Y, steps, backend)
        if out is not None:  # the scheme's own vectorised loop
            return out
    if backend in ("auto", "numba"):
        try:
            run, _ = kernel(model, scheme)
        except (ImportError, Untraceable):
            if backend == "numba":
                raise
        else:
            status = np.zeros(B, dtype=np.int64)
            nfev = np.zeros(B, dtype=np.int64)
            for b0 in range(0, B, CHUNK):
                budget.check()
                run(U0, P, h, t0, n_steps, Y, status, steps, nfev, b0, min(B, b0 + CHUNK))
            for b in np.nonzero(status)[0]:
                r = per_member(int(b))
                nfev[b] = r.stats.get("nfev", 0)
                _copy_member(r, b, Y, steps)
            return "numba", int(nfev.sum())
    if backend in ("auto", "numba", "numpy"):
        try:
            trace_scheme(scheme, _compiled(model), len(model.params))
        except Untraceable:
            if backend == "numpy":
                raise
        else:
            fld = BatchField(model, P)
            _integrate(fld, scheme, U0, h, t0, n_steps, Y, steps, budget)
            return "numpy", fld.n_rhs
    nfev = 0
    for b in range(B):
        budget.check()
        r = per_member(b)
        nfev += r.stats.get("nfev", 0)
        _copy_member(r, b, Y, steps)
    return "loop", nfev


#: per-step steps a compiled single run may take (states on a surface) before it goes
#: per step altogether
MAX_RESTARTS = 32


def compiled_integrate(model, params, scheme, y0, t0, h, n_steps, field=None):
    """One run by the compiled kernel, as :meth:`Scheme.integrate` returns it plus the
    modes of the rows and ``nfev``; None where the kernel does not apply (no numba, a
    scheme it cannot trace, a member it cannot finish).

    A step the kernel cannot take (a state exactly on a switching surface at a corner,
    where the mode logic decides) is taken by the scheme's own ``step`` on ``field``
    (the run's :class:`DiscreteField`), and the kernel goes on from the new state: the
    same run, for schemes that keep no history between steps (the others, or more than
    :data:`MAX_RESTARTS` such steps: None, the caller runs per step).
    """
    from .batch_kernel import Untraceable, kernel, trace_scheme

    try:
        run, _ = kernel(model, scheme)
    except (ImportError, Untraceable):
        return None
    P = np.ascontiguousarray(np.asarray(params, dtype=float).reshape(-1, 1))
    n = len(y0)
    Y = np.empty((n, 1, n_steps + 1))
    u = np.asarray(y0, dtype=float)
    Y[:, 0, 0] = u
    pos = nf = restarts = 0
    while pos < n_steps:
        sub = Y if pos == 0 else np.empty((n, 1, n_steps - pos + 1))
        status, steps, nfev = (np.zeros(1, dtype=np.int64) for _ in range(3))
        run(np.ascontiguousarray(u.reshape(-1, 1)), P, h, t0, n_steps - pos, sub, status, steps, nfev, 0, 1)
        done, nf = int(steps[0]), nf + int(nfev[0])
        if status[0] == 0:
            Y[:, :, pos + 1:] = sub[:, :, 1:]
            pos += done
            break
        Y[:, :, pos + 1:pos + done + 1] = sub[:, :, 1:done + 1]
        pos += done
        if field is None or restarts == MAX_RESTARTS or trace_scheme(scheme, _compiled(model), P.shape[0])[2]:
            return None
        restarts += 1
        t, n0 = t0 + pos * h, field.n_rhs
        with np.errstate(all="ignore"):
            try:
                u, _ = scheme.step(field, t, Y[:, 0, pos], h, scheme.start(field, t, Y[:, 0, pos], h))
            except Diverged:
                u = np.full(n, np.nan)
        nf += field.n_rhs - n0
        pos += 1
        Y[:, 0, pos] = u
        if not np.all(np.isfinite(u)):
            Y[:, :, pos + 1:] = np.nan
            break
    term = "reached t_end" if pos == n_steps else f"diverged at t = {t0 + (pos - 1) * h + h:.6g}"
    codes, names = mode_codes(model, Y, P)
    modes = [names[c] if c >= 0 else None for c in codes[0].tolist()]
    return (t0 + h * np.arange(n_steps + 1), Y[:, 0, :],
            {"events": [], "termination": term, "steps": pos, "modes": modes, "nfev": nf})


def _copy_member(r, b, Y, steps):
    Y[:, b, :] = r.y
    ok = np.all(np.isfinite(r.y), axis=0)
    steps[b] = Y.shape[2] - 1 if ok.all() else int(np.argmin(ok))


def _integrate(fld, scheme, U0, h, t0, n_steps, Y, steps, budget):
    """:meth:`Scheme.integrate` over a batch: a diverged member keeps NaN rows."""
    U = np.array(U0, dtype=float)
    Y[:, :, 0] = U
    alive = np.ones(U.shape[1], dtype=bool)
    with np.errstate(all="ignore"):
        hist = scheme.start(fld, t0, U, h)
        for i in range(n_steps):
            budget.check()
            fld.diverged[:] = False
            U, hist = scheme.step(fld, t0 + i * h, U, h, hist)
            U[:, fld.diverged] = np.nan
            Y[:, :, i + 1] = U
            dead = alive & ~np.all(np.isfinite(U), axis=0)
            if dead.any():
                steps[dead] = i + 1
                alive &= ~dead
                if not alive.any():
                    break
    for b in np.nonzero(~alive)[0]:
        Y[:, b, steps[b] + 1:] = np.nan


__all__ = ["BACKENDS", "BatchField", "batch_size", "bind_batch", "compiled_integrate", "mode_codes",
           "simulate_batch"]
