"""The compiled DOP853 stepper of the Filippov solver (``method="dop853-numba"``).

One mode's segment runs inside numba-compiled code: SciPy's DOP853 replicated
operation by operation (:mod:`~nsfric.solvers.dop853_core`), stepping until ``t_end`` or
until a step's guard samples cannot exclude a crossing.  That step is decided inside
the compiled code by the same guard search as on SciPy's stepper, ported operation by
operation (:mod:`~nsfric.solvers.dop853_search`); without a crossing stepping goes on.
The rare step the port leaves to Python (a value that is not finite, a failed root
search) goes back to Python, where
:func:`~nsfric.solvers.guard_search.first_crossing` decides on the step's dense output
(:class:`StepDense`: SciPy's formula, the same numbers) with its diagnostics; without a
crossing the compiled stepping resumes where it stopped.  So the steps, the events and
the numbers are SciPy DOP853's (bit for bit where BLAS sums as NumPy's does: tested).

The core is compiled once per machine (numba ``cache=True``).  A mode's right-hand
side, guards and guard rates -- the very source code generation produced
(:func:`~nsfric.symbolic.codegen.generate`, or restored by
:class:`~nsfric.symbolic.frozen.FrozenModel` from the disk cache), with the returned
list made a tuple -- go into a generated module of the user cache directory
(:func:`~nsfric.symbolic.generated.load_source`), compiled with ``cache=True`` as
functions of :data:`~nsfric.solvers.dop853_core.FIELD_SIGNATURE` and handed to the core
as function pointers (:class:`_Address`).  A mode whose functions numba cannot compile
raises :class:`NotCompilable`, and importing this module without numba ImportError;
the Filippov solver then uses SciPy's DOP853.
"""
from __future__ import annotations

import numpy as np
from numba.core.types.function_type import WrapperAddressProtocol  # no numba: ImportError
from numba.core.typing.typeof import typeof_impl
from numba.experimental.function_type import _get_wrapper_address
from scipy.integrate._ivp.common import validate_tol

from ..memo import Identity, Memo
from ..symbolic.generated import load_source, remembered_once
from . import dop853_core as core
from .dop853_source import NotCompilable, mark_on_disk, mode_source

#: SciPy's message of a step-size underflow (``OdeSolver.TOO_SMALL_STEP``)
TOO_SMALL_STEP = "Required step size is less than spacing between numbers."
#: steps of the compiled loop between returns to Python (the CPU-time budget is
#: checked there)
CHUNK = 256
#: the step buffers' first length (doubled when full, up to :data:`CHUNK` steps at a time):
#: short, a segment between two events often takes two or three steps (the saw-tooth's
#: teeth), and the dense coefficients of 256 steps of 11 states were 158 kB per segment
FIRST_BUFFER = 8
#: decide flagged steps with the compiled guard search (:mod:`~nsfric.solvers.dop853_search`);
#: False: every flagged step goes to the Python search (the same events: tested)
COMPILED_SEARCH = True
#: evaluate :class:`DenseSteps` in compiled code; False: NumPy's vectorised form (the
#: same numbers: tested)
COMPILED_DENSE = True


class _Address(WrapperAddressProtocol):
    """A compiled mode function as a first-class function value, its address looked up
    once (numba looks a dispatcher's up again on every call from Python)."""

    def __init__(self, dispatcher):
        self.addr = _get_wrapper_address(dispatcher, core.FIELD_SIGNATURE)

    def __wrapper_address__(self):
        return self.addr

    def signature(self):
        return core.FIELD_SIGNATURE


@typeof_impl.register(_Address)
def _typeof_address(val, c):
    return core.FIELD  # the type made once (numba builds a new one per call otherwise)


_MODULES = Memo(64, "nsfric.solvers.dop853_numba")
#: the unit roundoff (SciPy's ``EPS`` of ``validate_tol``)
EPS = float(np.finfo(float).eps)


def _entry(dispatcher):
    """The one compiled overload of ``dispatcher`` (declared with its signature), called
    without numba's typing of every argument on each call (about 8 us for :func:`run`'s
    twenty): its callers pass exactly the declared types."""
    (sig,) = dispatcher.signatures
    return dispatcher.overloads[sig].entry_point


_RUN, _INITIAL_STEP, _DENSE_VALUES = _entry(core.run), _entry(core.initial_step), _entry(core.dense_values)
#: :func:`~nsfric.solvers.dop853_core.forward_jacobian` and
#: :func:`~nsfric.solvers.dop853_core.state_scales` on their compiled overloads (the
#: Filippov solver's bookkeeping at each segment and event; C-contiguous float arrays only)
forward_jacobian, state_scales = _entry(core.forward_jacobian), _entry(core.state_scales)


def stepper(d, mode: str, n: int):
    """The compiled module of ``mode`` of the derived model ``d`` with ``n`` states (built
    once per process and mode; numba's disk cache across processes).  Raises
    :class:`NotCompilable`."""
    return remembered_once(_MODULES, mode, d, lambda: _build(d, mode, n), NotCompilable)


def built(d, mode: str):
    """The compiled module of ``mode`` where this process has built it already, else
    None (nothing is compiled)."""
    found, mod = _MODULES.lookup((Identity(d), mode))
    return mod if found and hasattr(mod, "fields") else None


def _build(d, mode, n):
    try:
        guards, gfun = d.guards(mode)
        n_guards = len(guards) if gfun is not None else 0
        source = mode_source(d, mode)
        mod = load_source(source, "dop853")
        mod.n_guards = n_guards
        mod.fields = tuple(_Address(getattr(mod, k)) for k in ("rhs", "guards", "rates"))
        _warm(mod, n)
    except NotCompilable:
        raise
    except Exception as e:  # numba's typing and lowering errors
        raise NotCompilable(f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}") from e
    if core.CACHE:  # a later process takes the compiled stepper without compiling (else the core is
        mark_on_disk(mod, source)  # compiled in every process: its search module's digest is stale)
    return mod


def _warm(mod, n):
    """Compile ``run`` now (a zero-length call), so typing errors surface here."""
    y = np.zeros(n)
    core.run(*mod.fields, np.array([0.0, 1.0]), y, y.copy(), 1.0, 1e-6, 1e-8, np.zeros(1), 0, mod.n_guards, True,
             np.empty((0, 2)), np.empty((0, n)), np.empty((0, 7, n)), np.zeros(2, dtype=np.int64), 0, True, np.zeros(2))


def _horner(F, x, i):
    """Component ``i`` of ``Dop853DenseOutput``'s sum at ``x`` (coefficients ``F``)."""
    v = 0.0
    m = len(F)
    for j in range(m):
        v += F[m - 1 - j][i]
        v *= x if j % 2 == 0 else 1 - x
    return v


class StepDense:
    """The dense output of one DOP853 step: ``scipy.integrate._ivp.rk.Dop853DenseOutput``
    operation by operation (the same numbers), with a fast path for one time (the guard
    search's root and maximum finders call it with scalars)."""

    def __init__(self, t_old, t, y_old, F):
        self.t_old, self.t, self.h = t_old, t, t - t_old
        self.y_old, self.F = y_old, F
        self._F, self._y = F.tolist(), y_old.tolist()

    def __call__(self, t):
        t = np.asarray(t, dtype=float)
        if t.ndim == 0:
            x = float((t - self.t_old) / self.h)
            return np.array([_horner(self._F, x, i) + yi for i, yi in enumerate(self._y)])
        x = ((t - self.t_old) / self.h)[:, None]
        y = np.zeros((len(x), len(self.y_old)))
        for i, f in enumerate(reversed(self.F)):
            y += f
            if i % 2 == 0:
                y *= x
            else:
                y *= 1 - x
        y += self.y_old
        return y.T


class DenseSteps:
    """Dense output of a run of DOP853 steps, as :class:`scipy.integrate.OdeSolution`
    (the step on the left at a breakpoint) with each step's
    ``Dop853DenseOutput`` formula: one compiled call for all the times asked
    (:func:`~nsfric.solvers.dop853_core.dense_values`), or (:data:`COMPILED_DENSE` off, or
    times of more than one axis) that formula vectorised over ``t`` in NumPy -- the same
    numbers (tested)."""

    def __init__(self, ts, t_old, h, y_old, F):
        self.ts = np.ascontiguousarray(ts, dtype=float)
        self.t_old, self.h = np.ascontiguousarray(t_old, dtype=float), np.ascontiguousarray(h, dtype=float)
        self.y_old, self.F = np.ascontiguousarray(y_old, dtype=float), np.ascontiguousarray(F, dtype=float)
        self.n_segments = len(t_old)
        if not (self.ts.ndim == self.t_old.ndim == self.h.ndim == 1 and self.y_old.ndim == 2 and self.F.ndim == 3
                and len(self.h) == len(self.y_old) == len(self.F) == self.n_segments):
            raise ValueError("DenseSteps needs ts, t_old, h (m,), y_old (m, n) and F (m, 7, n)")

    def __call__(self, t):
        t = np.asarray(t, dtype=float)
        if COMPILED_DENSE and t.ndim <= 1:
            flat = np.ascontiguousarray(np.atleast_1d(t))
            out = np.empty((self.y_old.shape[1], flat.size))
            _DENSE_VALUES(self.ts, self.t_old, self.h, self.y_old, self.F, flat, out)
            return out if t.ndim else out[:, 0]
        return self.vectorised(t)

    def vectorised(self, t):
        """The values at ``t`` by the NumPy form of the formula."""
        t = np.asarray(t, dtype=float)
        flat = np.atleast_1d(t)
        seg = np.clip(np.searchsorted(self.ts, flat, side="left") - 1, 0, self.n_segments - 1)
        x = ((flat - self.t_old[seg]) / self.h[seg])[:, None]
        F = self.F[seg]  # (m, 7, n)
        y = np.zeros((len(flat), self.y_old.shape[1]))
        for i in range(F.shape[1]):
            y += F[:, F.shape[1] - 1 - i]
            if i % 2 == 0:
                y *= x
            else:
                y *= 1 - x
        y += self.y_old[seg]
        return y.T if t.ndim else y[0]


def step_dense(T, YO, FF, k):
    """The dense output of stored step ``k``."""
    return StepDense(T[k, 0], T[k, 1], YO[k], FF[k])


def integrate(mod, p, y0, t0, t_end, rtol, atol, n_check, locate, budget=None, watch=None):
    """Run one mode from ``(t0, y0)``: ``(T, YO, FF, n_steps, nfev, hit)``, the steps (``T[k]
    = (t_old, t_new)``, y_old, dense coefficients) up to ``t_end`` or up to the step on
    which a guard crosses, ``hit = (time, guard index)`` (None: ``t_end`` reached).

    Flagged steps are decided by the compiled guard search (:data:`COMPILED_SEARCH`), or
    by ``locate(k, dense, at_start)`` (the Python search of step ``k``: a hit or None)
    where the compiled one leaves the step to it.  Raises RuntimeError with SciPy's
    message on a step-size underflow; ``watch`` (a
    :class:`~nsfric.solvers.watch.FieldWatch`) raises its
    :class:`~nsfric.errors.NonFiniteField` when the field is not finite at the start
    or at every trial of a step (:data:`~nsfric.solvers.dop853_core.NONFINITE_TRIALS`).
    """
    y = np.array(y0, dtype=float)
    if y.ndim != 1:
        raise ValueError(f"y0 must be one state vector, got shape {y.shape}")
    n = y.size
    if not (isinstance(rtol, float) and isinstance(atol, float) and rtol >= 100 * EPS and atol >= 0):
        rtol, atol = validate_tol(rtol, atol, n)  # SciPy's warning and floor on rtol (what passes it is kept)
    p = np.ascontiguousarray(p, dtype=float)
    f = np.empty(n)
    mod.rhs(y, p, f)
    if watch is not None:
        watch.checked(t0, y, f)
    h_abs = _INITIAL_STEP(mod.fields[0], float(t0), y, f, float(t_end), float(rtol), float(atol), p)
    state = np.array([t0, h_abs])
    T, YO, FF = np.empty((FIRST_BUFFER, 2)), np.empty((FIRST_BUFFER, n)), np.empty((FIRST_BUFFER, 7, n))
    counts = np.array([0, 2], dtype=np.int64)
    found = np.zeros(2)
    hit = None
    while True:
        status = _RUN(*mod.fields, state, y, f, float(t_end), float(rtol), float(atol), p, int(n_check), mod.n_guards,
                          counts[0] == 0, T, YO, FF, counts, counts[0] + CHUNK, COMPILED_SEARCH, found)
        if budget is not None:
            budget.check(state[0])
        if status in (core.TOO_SMALL, core.NONFINITE):
            k = int(counts[0])
            try:
                if status == core.TOO_SMALL:
                    raise RuntimeError(TOO_SMALL_STEP)
                if watch is not None:
                    watch.fail(state[0], y, [np.nan])
                raise RuntimeError(f"the right-hand side is not finite beyond t = {state[0]:.17g}")
            except Exception as e:  # the steps taken so far go with it (a stall at a contact end)
                e.steps = (T[:k], YO[:k], FF[:k], k, int(counts[1]))
                raise
        if status == core.EVENT:
            hit = (float(found[0]), int(found[1]))
            break
        if status == core.INSPECT:
            k = int(counts[0]) - 1
            hit = locate(k, step_dense(T, YO, FF, k), k == 0)
            if hit is not None:
                break
        elif status == core.FULL:
            if counts[0] == len(T):
                T, YO, FF = (np.concatenate([a, np.empty_like(a)]) for a in (T, YO, FF))
        else:
            break
    k = int(counts[0])
    return T[:k], YO[:k], FF[:k], k, int(counts[1]), hit
