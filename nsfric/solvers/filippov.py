"""Event-driven Filippov integration on SciPy's ``solve_ivp`` steppers.

The mode loop lives outside the integrator: each segment integrates one mode's smooth
field with a SciPy ``OdeSolver`` (``method="auto"`` by default: LSODA for a mode whose
Jacobian is stiff over the time left, DOP853 otherwise; DOP853, RK45, Radau,
BDF, LSODA selectable).  After every accepted step the mode's guards are sampled on the
step's dense output at ``n_check`` interior points, and searched between samples where
the guard rates do not exclude an excursion (:mod:`~nsfric.solvers.guard_search`), so
two crossings inside one step are not missed; the first sign change (negative to non-negative: guards are negative inside
the mode, so restarting exactly on ``h = 0`` cannot re-fire) is located by Brent's
method on the dense output to a few ulps.  At the event the shared
:class:`~nsfric.solvers.switching.ModeLogic` decides crossing, sliding (Filippov,
Krengel & Matuttis eqs 9-13, with exact projection onto the surface) or leaving, and
the shared :class:`~nsfric.solvers.loop.ModeLoop` logs the events and stops
accumulating ones (event budget, Zeno window, no-progress guard) with
:class:`ZenoError`.
"""
from __future__ import annotations

import sys

import numpy as np
from scipy.integrate import BDF, DOP853, LSODA, RK45, Radau, OdeSolution
from scipy.linalg.lapack import dgeev

from .base import ReferenceSolver, register
from ..errors import NonFiniteField
from ..solution import Segment, Solution
from .decisions import CompiledDecisions
from .dop853_source import on_disk
from .guard_search import first_crossing
from .switching import SCALE_STEP, ModeLogic, stalled_at_contact_end
from .watch import FieldWatch, GuardWatch

METHODS = {"DOP853": DOP853, "RK45": RK45, "Radau": Radau, "BDF": BDF, "LSODA": LSODA}
#: the compiled DOP853 (:mod:`~nsfric.solvers.dop853_numba`): SciPy's steps in numba
COMPILED = "dop853-numba"
IMPLICIT = {"Radau", "BDF", "LSODA"}
#: ``method="auto"`` runs a non-stiff mode on :data:`COMPILED` where an earlier process left
#: the mode's compiled stepper on disk (:func:`~nsfric.solvers.dop853_source.on_disk`: no
#: compilation to pay, only numba's import and the cached code's load), once numba is
#: loaded in the process, or once the solve has taken this many SciPy steps: compiling
#: costs a mode about 1 s CPU (the stepper's core once per machine about 10 s), importing
#: numba and loading the cached stepper about 0.4 s CPU, the time of some 5000 SciPy DOP853
#: steps (the same numbers either way: SciPy's steps, tested)
AUTO_COMPILE_STEPS = 5000
#: ``method="auto"``: the stepper of a stiff mode, and the threshold on the stiffness
#: index (:func:`stiffness_index`) above which a mode counts as stiff
STIFF_METHOD = "LSODA"
STIFF_INDEX = 1e3


def stiffness_index(f, y0, p, t0, t_end) -> float:
    """``max |Re lambda| (t_end - t0)``: the decay rate of the fastest damped eigenmode of
    the mode's Jacobian at the segment start, times the time left.

    The Jacobian is the forward-difference one of the derived right-hand side ``f(y,
    p)`` (``n + 1`` evaluations; generating the symbolic Jacobian of a large model
    costs far more than the whole run when the mode is not stiff).  An explicit
    stepper needs about ``index / 6`` stability-limited steps for the rest of the run
    (DOP853's stability region reaches ``|h lambda| ~ 6``); far below that many,
    accuracy sets the step anyway.  Undamped oscillations (purely imaginary
    eigenvalues) give 0: they must be resolved by any stepper.
    """
    y0 = np.asarray(y0, dtype=float)
    f0 = np.asarray(f(y0, p), dtype=float)
    J = np.empty((len(y0), len(y0)))
    for j in range(len(y0)):
        h = 1.5e-8 * max(1.0, abs(y0[j]))
        y = y0.copy()
        y[j] += h
        J[:, j] = (np.asarray(f(y, p), dtype=float) - f0) / h
    if not np.all(np.isfinite(J)):
        return 0.0
    lam = np.linalg.eigvals(J)
    return float(np.max(np.abs(lam.real), initial=0.0) * (t_end - t0))


def choose_method(f, y0, p, t0, t_end, rate=None) -> str:
    """``method="auto"``: :data:`STIFF_METHOD` where :func:`stiffness_index` of the
    mode's right-hand side ``f`` exceeds :data:`STIFF_INDEX`, DOP853 otherwise (the
    compiled one, :data:`COMPILED`, where the mode compiles: decided by the caller).

    ``rate``: the index's rate computed on the compiled right-hand side
    (:func:`compiled_rate`, several times cheaper; None where the mode is not compiled).  Its Jacobian differs from the Python one by rounding
    only, so where it puts the index below :data:`STIFF_INDEX` by the factor
    :data:`SURELY` it decides alone (the same choice); else the index is computed."""
    if rate is not None and rate * (t_end - t0) <= STIFF_INDEX / SURELY:
        return "DOP853"
    return STIFF_METHOD if stiffness_index(f, y0, p, t0, t_end) > STIFF_INDEX else "DOP853"


#: :func:`choose_method`: the margin below :data:`STIFF_INDEX` within which the compiled
#: rate alone decides
SURELY = 10.0


class CompiledModes:
    """The compiled modules of one solve's modes (``modes(mode)``): where this process has
    built a mode's (:func:`~nsfric.solvers.dop853_numba.built`; nothing is compiled
    here), else None; looked up until found, then kept for the solve.  ``core`` is
    :mod:`~nsfric.solvers.dop853_numba` once numba is loaded (nothing here loads it)."""

    def __init__(self, d, p):
        self.d, self.p = d, np.ascontiguousarray(p, dtype=float)
        self.core = self._built = None
        self.mods = {}

    def __call__(self, mode):
        mod = self.mods.get(mode)
        if mod is None:
            if self._built is None:
                if "numba" not in sys.modules:
                    return None
                try:
                    from . import dop853_numba as core
                except Exception:  # its cached core failed to load
                    return None
                self.core, self._built = core, core.built
            mod = self._built(self.d, mode)
            if mod is not None:
                self.mods[mode] = mod
        return mod


def compiled_scales(modes):
    """``scales(mode, y)`` for :class:`~nsfric.solvers.switching.ModeLogic`: the state
    scales of ``mode``'s guards (:func:`~nsfric.solvers.switching.state_scales`, a
    tolerance's scale) by :func:`~nsfric.solvers.dop853_core.state_scales` on the
    compiled guards where ``modes`` (:class:`CompiledModes`) holds the mode, else None."""
    def scales(mode, y):
        mod = modes(mode)
        if mod is None or mod.n_guards == 0:
            return None
        out = np.empty(mod.n_guards)
        modes.core.state_scales(mod.fields[1], np.ascontiguousarray(y, dtype=float), modes.p, SCALE_STEP, out)
        return out
    return scales


def compiled_rate(modes, mode, y0):
    """The rate of :func:`stiffness_index` (``max |Re lambda|``) of ``mode`` at ``y0``, its
    Jacobian by :func:`~nsfric.solvers.dop853_core.forward_jacobian` on the compiled
    right-hand side where ``modes`` (:class:`CompiledModes`) holds the mode, else None
    (also for a Jacobian that is not finite)."""
    mod = modes(mode)
    if mod is None:
        return None
    y0 = np.ascontiguousarray(y0, dtype=float)
    J = np.empty((y0.size, y0.size))
    if not modes.core.forward_jacobian(mod.fields[0], y0, modes.p, J):
        return None
    wr, _, _, _, info = dgeev(J, compute_vl=0, compute_vr=0, overwrite_a=1)  # the eigenvalues' real parts
    return float(np.max(np.abs(wr), initial=0.0)) if info == 0 else None


@register
class FilippovSolver(ReferenceSolver):
    """Event-driven Filippov reference solver (see module docstring).

    Options: ``method`` (default ``"auto"``: per segment, LSODA where the mode is stiff
    by :func:`stiffness_index`, else the compiled DOP853 ``"dop853-numba"`` where numba
    compiles the mode's functions and pays (already compiled on disk, numba loaded, or
    :data:`AUTO_COMPILE_STEPS`), else SciPy's DOP853; or ``"dop853-numba"`` (SciPy's
    DOP853 where the mode does not compile) or one of :data:`METHODS`), ``n_check`` (guard samples per step,
    default 8), and the mode-loop options ``max_events`` (default 10000) and
    ``zeno_window`` (default 50 events) of every reference solver.
    """

    name = "filippov"
    supports = frozenset({"filippov", "constrained", "graze"})
    options_allowed = ("method", "n_check")

    def _solve(self, problem, t_eval=None):
        method = self.options.get("method", "auto")
        if method not in ("auto", COMPILED) and method not in METHODS:
            raise ValueError(f"method must be 'auto', {COMPILED!r} or one of {sorted(METHODS)}, got {method!r}")
        n_check = int(self.options.get("n_check", 8))
        d = problem.model.derived()  # a FrozenModel's from the disk cache, without SymPy
        p = problem.model.param_vector(problem.params)
        modes = CompiledModes(d, p)
        loop = self.mode_loop(ModeLogic(d, p, compiled_scales(modes), CompiledDecisions(d)), problem)
        self._labels = (problem.law or problem.model.name, list(problem.model.state_names))
        t_end = loop.t_end
        stats = {"nfev": 0, "njev": 0, "nlu": 0, "nsteps": 0, "nevents": 0}
        used = []  # steppers in order of first use
        segments, events = loop.run(problem.y0, lambda mode, t, y: self._segment(
            d, p, mode, t, y, t_end, method, n_check, stats, used, modes))
        stats["nevents"] = loop.n_switches
        label = used[0] if len(used) == 1 else f"auto ({', '.join(used)})" if used else method
        return Solution(problem.model, dict(problem.params), self.name, segments, events, stats,
                        {"rtol": self.rtol, "atol": self.atol, "method": label}, (loop.t0, t_end))

    def _segment(self, d, p, mode, t0, y0, t_end, method, n_check, stats, used, modes):
        f = d.rhs(mode)
        p = tuple(np.asarray(p, dtype=float).tolist())  # python floats: cheaper unpacking per call
        law, names = self._labels
        fun = FieldWatch(f, p, self.budget, self.name, law, mode, names)
        guards, gfun = d.guards(mode)
        if gfun is not None:
            gfun = GuardWatch(gfun, self.name, law, mode, names)
            gfun.t = t0
            gfun(np.asarray(y0, dtype=float), p)  # a NaN guard would never fire
        if method == "auto":
            method = choose_method(f, y0, p, t0, t_end, compiled_rate(modes, mode, y0))
            if method == "DOP853" and ("numba" in sys.modules or stats["nsteps"] >= AUTO_COMPILE_STEPS
                                       or on_disk(d, mode)):
                method = COMPILED
        if method == COMPILED:
            mod = compiled_stepper(d, mode, len(y0))
            if mod is not None:
                if method not in used:
                    used.append(method)
                return self._compiled_segment(mod, d, p, mode, t0, y0, t_end, n_check, stats, fun, gfun)
            method = "DOP853"
        if method not in used:
            used.append(method)
        kw = {}
        if method in IMPLICIT:
            J = d.jac(mode)
            kw["jac"] = lambda t, y: J(y, p)
        solver = METHODS[method](fun, t0, y0, t_end, rtol=self.rtol, atol=self.atol, **kw)
        rfun = d.guard_rates(mode)
        ts, interps = [t0], []
        hit = None
        t_hit = None
        while solver.status == "running":
            try:
                msg = solver.step()
                if solver.status == "failed":
                    if fun.bad_since:  # the step shrank away from non-finite trial values
                        fun.fail(solver.t, solver.y, [np.nan])
                    raise RuntimeError(f"{method} failed in mode {mode!r} at t = {solver.t:.17g}: {msg}")
            except (NonFiniteField, RuntimeError):
                i = stalled_at_contact_end(d, p, mode, solver.t, solver.y)
                if i is None:
                    raise
                hit = guards[i]  # the contact end, reached to the event resolution
                break
            stats["nsteps"] += 1
            fun.accepted()
            self.budget.check(solver.t)  # CPU-time budget (max_seconds), also inside a mode
            dense = solver.dense_output()
            if gfun is not None:
                gfun.t = solver.t_old
                found = first_crossing(gfun, rfun, p, dense, solver.t_old, solver.t, n_check,
                                       at_start=len(interps) == 0)
                if found is not None:
                    t_hit, i = found
                    hit = guards[i]
                    if t_hit > ts[-1]:  # a root at the step's start ends the previous step
                        ts.append(t_hit)
                        interps.append(dense)
                    break
            ts.append(solver.t)
            interps.append(dense)
        stats["nfev"] += solver.nfev
        stats["njev"] += solver.njev
        stats["nlu"] += solver.nlu
        if len(interps) == 0:
            seg = Segment(mode, t0, t0, None, y0.copy(), y0.copy())
            return seg, hit
        sol = OdeSolution(ts, interps)
        t1 = ts[-1]
        y1 = sol(t1)
        return Segment(mode, t0, t1, sol, np.asarray(y0, float).copy(), y1), hit

    def _compiled_segment(self, mod, d, p, mode, t0, y0, t_end, n_check, stats, watch, gfun):
        """:meth:`_segment` on the compiled DOP853 (:mod:`~nsfric.solvers.dop853_numba`):
        the same steps, the same guard search on each flagged step -- compiled
        (:mod:`~nsfric.solvers.dop853_search`), or :func:`first_crossing` on the rare step
        the compiled one leaves to Python (``watch``: the
        :class:`~nsfric.solvers.watch.FieldWatch` of the mode's field, ``gfun`` its
        watched guards)."""
        from .dop853_numba import DenseSteps, integrate

        guards, _ = d.guards(mode)
        rfun = d.guard_rates(mode)

        def locate(k, dense, at_start):  # the steps the compiled guard search leaves to Python
            gfun.t = dense.t_old
            return first_crossing(gfun, rfun, p, dense, dense.t_old, dense.t, n_check, at_start=at_start)

        stalled = None
        try:
            T, YO, FF, k, nfev, found = integrate(mod, p, y0, t0, t_end, self.rtol, self.atol, n_check, locate,
                                                  self.budget, watch)
        except (NonFiniteField, RuntimeError) as e:
            T, YO, FF, k, nfev = getattr(e, "steps", (None,) * 5)
            y_last = DenseSteps(np.concatenate([[t0], T[:, 1]]), T[:, 0], T[:, 1] - T[:, 0], YO, FF)(T[-1, 1]) \
                if T is not None and len(T) else np.asarray(y0, dtype=float)
            t_last = T[-1, 1] if T is not None and len(T) else t0
            stalled = None if T is None else stalled_at_contact_end(d, p, mode, t_last, y_last)
            if stalled is None:
                raise
            found = None  # the contact end, reached to the event resolution
        stats["nsteps"] += k
        stats["nfev"] += nfev
        ts = np.concatenate([[t0], T[:, 1]])
        hit = None if stalled is None else guards[stalled]
        if found is not None:
            t_hit, i = found
            hit = guards[i]
            if t_hit > T[-1, 0]:  # a root at the step's start ends the previous step
                ts[-1] = t_hit
            else:
                ts, T, YO, FF = ts[:-1], T[:-1], YO[:-1], FF[:-1]
        if len(T) == 0:
            return Segment(mode, t0, t0, None, y0.copy(), y0.copy()), hit
        sol = DenseSteps(ts, T[:, 0], T[:, 1] - T[:, 0], YO, FF)
        t1 = ts[-1]
        y1 = sol(t1)
        if gfun is not None and hit is None:  # the compiled screen sees no NaN guard: checked at the end too
            gfun.t = t1  # (an event's step had all its samples checked by the search; at the event
            gfun(y1, p)  # itself, e.g. zero overlap, only the guard that fired is needed)
        return Segment(mode, t0, t1, sol, np.asarray(y0, float).copy(), y1), hit


def compiled_stepper(d, mode, n):
    """The compiled DOP853 module of ``mode``, or None (no numba, or its functions do not
    compile: SciPy's DOP853 is used)."""
    try:
        from .dop853_numba import NotCompilable, stepper
    except Exception:  # no numba (ImportError), or its cached core failed to load
        return None
    try:
        return stepper(d, mode, n)
    except NotCompilable:
        return None
