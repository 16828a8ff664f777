"""The fixed-step scheme contract, the registry and :func:`simulate`.

A scheme is one small object with data (``name``, ``order``, ``damped_order``,
``stages``, ``implicit``, ``symplectic``) and two hooks:

* ``start(field, t, u, h) -> hist`` -- the scheme's history (multistep schemes, FSAL
  slopes); ``None`` for one-step schemes;
* ``step(field, t, u, h, hist, record) -> (u_new, hist)`` -- one step of size ``h``;
  auxiliary stage states are appended to ``record`` (a list, or ``None``) as
  ``(t, u, label)``.

Every right-hand side evaluation goes through the ``field``
(:class:`~nsfric.schemes.field.DiscreteField`), which applies the law's
per-step adjustments and counts evaluations.  ``rescale(hist, ratio)`` adapts the
history to a new step (``None`` = restart); the event-aware variants use it.  A scheme
family with its own vectorised loop over a batch declares it as the hook ``run_batch``
(:mod:`nsfric.schemes.batch` takes it instead of its generic paths).

:func:`simulate` runs a hybrid model (modes, guards, rates) through the generic
:class:`~nsfric.schemes.field.DiscreteField`; a model of another kind (its ``supports``,
:func:`~nsfric.solvers.base.capabilities`) runs by the step loop registered for its
capability (:func:`register_stepper`, :data:`STEPPERS`), so a new model kind needs no
edit here.
"""
from __future__ import annotations

import importlib
import math
import time
from dataclasses import replace as dc_replace

import numpy as np

from ..solution import Solution
from ..errors import BudgetError
from ..problems import ProblemFactory
from ..plugins import GROUPS, LazyRegistry
from ..solvers.base import Problem, capabilities, check_span
from ..solvers.loop import MEMORY_LIMIT, Budget, check_memory
from .field import DiscreteField, Diverged

def _add_plugin_scheme(name, obj, registry, module):
    """Register a scheme of the entry-point group ``nsfric.schemes`` (an instance, or a
    class or factory returning one) under its own name, which must be the entry point's;
    ``scheme.plugin`` is the module that provides it (``nsfric list`` names it)."""
    scheme = obj if isinstance(obj, Scheme) else obj()
    if not isinstance(scheme, Scheme):
        raise TypeError(f"a scheme plug-in must be a Scheme (or make one), got {type(scheme).__name__}")
    if scheme.name != name:
        raise ValueError(f"the scheme is named {scheme.name!r}, not {name!r}")
    scheme.plugin = module
    register_scheme(scheme)


_add_plugin_scheme.takes_module = True


class _SchemeRegistry(LazyRegistry):
    """:data:`SCHEMES`: loads the entry-point group ``nsfric.schemes`` on its first read
    once the package's own schemes are registered (:meth:`installed`); reads while the
    package registers them load nothing."""

    def __init__(self):
        super().__init__(GROUPS["schemes"], _add_plugin_scheme)
        self._loaded = True  # the package's own schemes first

    def installed(self):
        """The package's schemes are registered: the next read loads the plug-ins."""
        self._loaded = False


SCHEMES: dict = _SchemeRegistry()
#: other names of registered schemes (a label of a paper), resolved by :func:`get_scheme`
ALIASES: dict = {}


#: whether :func:`register_scheme` adds the ``NAME-event`` variant itself (set once the
#: package's own schemes are registered, in their order: a scheme registered from outside
#: gets its variant at once)
EVENT_VARIANTS = {"auto": False}


def register_scheme(scheme):
    """Add ``scheme`` (an instance) to :data:`SCHEMES` under ``scheme.name``.

    A scheme registered from outside the package (an :class:`~nsfric.schemes.rk.ExplicitRK`
    tableau, say) also gets its event-aware variant ``NAME-event``
    (:class:`~nsfric.schemes.events.EventAware`); the compiled batch kernel traces any
    scheme whose ``step`` it can follow.  Returns ``scheme``.
    """
    if not isinstance(getattr(scheme, "name", None), str) or not scheme.name:
        raise ValueError(f"a scheme needs a name (a non-empty string), got {scheme!r}")
    if scheme.name in SCHEMES:
        raise ValueError(f"scheme {scheme.name!r} registered twice")
    SCHEMES[scheme.name] = scheme
    if EVENT_VARIANTS["auto"]:
        from .events import EventAware  # the variants live above the base class

        if not isinstance(scheme, EventAware) and f"{scheme.name}-event" not in SCHEMES:
            register_scheme(EventAware(scheme))
    return scheme


def register_alias(alias, name):
    """Let ``alias`` name the registered scheme ``name`` (the same method, another label)."""
    if alias in SCHEMES or alias in ALIASES:
        raise ValueError(f"scheme name {alias!r} is taken")
    ALIASES[alias] = get_scheme(name).name


def get_scheme(name):
    """The registered scheme ``name`` or alias (a scheme object is returned unchanged)."""
    if not isinstance(name, str):
        return name
    try:
        return SCHEMES[ALIASES.get(name, name)]
    except KeyError:
        raise ValueError(f"unknown scheme {name!r}; choose one of {sorted(SCHEMES)}") from None


#: step loops of the model kinds other than the hybrid model, by the capability of the
#: model they take (:func:`register_stepper`)
STEPPERS: dict = {}
#: the package's own step loops: capability -> the module of this package that registers it
#: (imported when a model of that capability is first simulated)
BUILTIN_STEPPERS = {"contacts": "corners"}


def register_stepper(capability: str):
    """Decorator: register ``fn(prob, scheme, dt, t0, t1, n_steps, stages) -> Solution`` as
    the step loop of :func:`simulate` for models that declare ``capability`` in their
    ``supports`` (ValueError if that capability has one already)."""
    def add(fn):
        if capability in STEPPERS:
            raise ValueError(f"a step loop for capability {capability!r} is already registered "
                             f"({STEPPERS[capability].__module__}); registered twice")
        STEPPERS[capability] = fn
        return fn
    return add


def get_stepper(model):
    """The step loop registered for a capability ``model`` declares (:data:`STEPPERS`, the
    built-in ones imported on first use), or None: the generic hybrid field."""
    for capability in sorted(capabilities(model)):
        if capability not in STEPPERS and capability in BUILTIN_STEPPERS:
            importlib.import_module(f"{__package__}.{BUILTIN_STEPPERS[capability]}")
        if capability in STEPPERS:
            return STEPPERS[capability]
    return None


class Scheme:
    """Base class of the fixed-step schemes (see module docstring).

    Attributes
    ----------
    order : int
        Nominal (classical) order on smooth problems.
    damped_order : int
        Order when forces depend on velocities (differs from ``order`` only for the
        velocity Verlet, whose last kick uses the half-step velocity).
    implicit, symplectic, multistep : bool
    reference : str
        Where the scheme is written down.
    """

    name = "scheme"
    order = 0
    implicit = False
    symplectic = False
    multistep = False
    reference = ""

    @property
    def damped_order(self):
        return self.order

    def start(self, field, t, u, h):
        return None

    def step(self, field, t, u, h, hist, record=None):  # pragma: no cover - abstract
        raise NotImplementedError

    def rescale(self, hist, ratio):
        """History for a step ``ratio`` times the previous one (None: restart)."""
        return None

    def map_history(self, hist, fn):
        """The history with ``fn`` applied to every stored *state* (a projection of a
        multistep history); one-step schemes store none."""
        return hist

    def integrate(self, field, t0, u0, h, n_steps, record=None):
        """Fixed steps ``t_i = t0 + i h``; returns ``(t, Y, info)``.

        ``Y`` has one column per row of the output; ``info`` holds events (none for
        plain schemes) and the termination message.
        """
        n = len(u0)
        Y = np.empty((n, n_steps + 1))
        Y[:, 0] = u0
        u = np.asarray(u0, dtype=float)
        hist = self.start(field, t0, u, h)
        termination = "reached t_end"
        last = n_steps
        with np.errstate(all="ignore"):
            for i in range(n_steps):
                t = t0 + i * h
                k0 = len(record) if record is not None else 0
                try:
                    u, hist = self.step(field, t, u, h, hist, record)
                except Diverged:
                    u = np.full(n, np.nan)
                tag_stages(record, k0, i)
                Y[:, i + 1] = u
                if not np.all(np.isfinite(u)):
                    termination = f"diverged at t = {t + h:.6g}"
                    last = i + 1
                    Y[:, i + 2:] = np.nan
                    break
        t = t0 + h * np.arange(n_steps + 1)
        return t, Y, {"events": [], "termination": termination, "steps": last}

    def run_batch(self, model, U0, P, h, t0, n_steps, Y, steps, backend):
        """The scheme's own vectorised loop over a batch (:mod:`nsfric.schemes.batch`):
        fill ``Y`` (n, B, n_steps + 1) from the initial states ``U0`` (n, B) with the
        parameter vectors ``P`` (p, B), set ``steps`` of the members that diverged, and
        return ``(path, nfev)``; ``backend`` is the one asked for (``auto``, ``numba`` or
        ``numpy``).  None (the default): the batch's generic paths."""
        return None

    def describe(self) -> str:
        doc = (self.__doc__ or "").strip().splitlines()
        return doc[0] if doc else self.name

    def __repr__(self):
        return f"<scheme {self.name} order {self.order}>"


def tag_stages(record, k0, row):
    """Mark the stage states recorded since ``k0`` as belonging to the step from ``row``."""
    if record is not None:
        for j in range(k0, len(record)):
            record[j] = tuple(record[j][:3]) + (row,)


def _safe_mode(field, u):
    if not np.all(np.isfinite(u)):
        return None
    return field.mode(u)


#: the most fixed steps a count is made of (2**53: beyond it ``n dt`` no longer lands on
#: the steps; the memory limit of the step rows refuses far fewer, see
#: :func:`check_step_budget`)
MAX_STEP_COUNT = 2.0 ** 53


def step_count(t_end: float, dt: float) -> int:
    """Number of fixed steps ``n`` with ``n dt <= t_end`` (to rounding); ValueError
    naming ``dt`` beyond :data:`MAX_STEP_COUNT` steps (``dt = 5e-324``)."""
    ratio = t_end / dt
    if not (ratio <= MAX_STEP_COUNT):
        raise ValueError(f"dt = {dt:g} is too small for the span {t_end:g}: {ratio:.3g} steps; dt must be "
                         f">= {t_end / MAX_STEP_COUNT:.3g} (and larger to fit the memory limit)")
    return int(math.floor(ratio * (1 + 1e-12) + 1e-9))


def _budgeted(fn, budget):
    """``fn`` checking the CPU-time budget at every call (every scheme evaluates the
    field through a few methods, so this bounds every scheme's step loop)."""
    def call(*a, **k):
        budget.check()
        return fn(*a, **k)
    return call


def check_step_budget(n_steps: int, n_rows: int, n_columns: int, dt: float, max_steps=None, more=""):
    """Refuse a run before allocating: more than ``max_steps`` steps, or ``n_rows`` rows
    of ``n_columns`` numbers beyond the memory limit (``more``: further advice)."""
    if max_steps is not None and n_steps > max_steps:
        raise BudgetError(f"dt = {dt:g} needs {n_steps} steps, more than max_steps = {max_steps} "
                          "(CLI --max-steps); choose a larger --dt or raise --max-steps")
    dt_min = dt * 8.0 * n_rows * n_columns / MEMORY_LIMIT
    check_memory(8.0 * n_rows * n_columns, f"dt = {dt:g} ({n_steps} steps)",
                 f"choose --dt >= {dt_min:.3g} (or a shorter --t-end){more}")


def simulate(problem: Problem | ProblemFactory, law=None, scheme="euler", dt=0.1, t_end=None, params=None, stages=False,
             max_steps=None, max_seconds=None, compiled=False, store="all"):
    """Run ``scheme`` with fixed step ``dt`` on a problem from its start time.

    Parameters
    ----------
    problem : Problem, or a case object (anything with ``problem(law, params, t_end)``);
        case *names* are resolved by :func:`nsfric.simulate`
    law : str, optional (a case's default law; not with a Problem)
    scheme : str or Scheme
    dt : float > 0
    t_end : float, optional (the case's default end time); the last row is at the
        largest multiple of ``dt`` not beyond ``t_end``
    params : dict, optional, parameter overrides (validated against their ranges)
    stages : bool, record the auxiliary stage states
    max_steps : int, optional, refuse runs of more steps (BudgetError before any work;
        runs whose arrays would exceed the memory limit are refused too)
    max_seconds : float, optional, CPU-time budget (BudgetError once exceeded)
    compiled : bool, run the compiled kernel of :mod:`nsfric.schemes.batch_kernel` where
        it applies (numba installed, a traceable scheme, no stages, no CPU-time budget):
        the same numbers, without the per-step Python
    store : ``"all"``, ``"final"`` or an integer stride ``k`` >= 1
        The rows a batched run keeps: every step, the last row of each member, or every
        k-th row and the last (the same numbers at those rows; memory of the rows kept,
        :mod:`nsfric.schemes.batch`).  A single run keeps every row (``"all"``).

    Returns
    -------
    Solution
        The step points as samples (``sol.t``, ``sol.y``, ``sol.modes``), piecewise
        linear between them (:meth:`~nsfric.solution.Solution.from_steps`).  With
        array-valued ``params`` (a case, not a Problem): one batched Solution whose
        states have a leading batch axis (:mod:`nsfric.schemes.batch`).
    """
    from ..arguments import integer, positive, seconds
    from .batch import batch_size, check_store, simulate_batch

    store = check_store(store)
    dt = positive(dt, "dt")
    t_end = None if t_end is None else positive(t_end, "t_end")
    max_seconds = seconds(max_seconds)
    B = None if isinstance(problem, (Problem, str)) else batch_size(params)
    if B is not None:
        if stages:
            raise ValueError("stages are not recorded for a batched run (array-valued params)")
        return simulate_batch(problem, law, scheme, dt, t_end, params, B, max_steps, max_seconds, store=store)
    if store not in ("all", 1):
        raise ValueError(f"store={store!r} keeps fewer rows of a batched run (array-valued params); a single "
                         "run keeps every row: store='all'")
    scheme = get_scheme(scheme)
    if isinstance(problem, str):
        raise TypeError(f"simulate: pass a Problem or a case object, not the name {problem!r} "
                        "(nsfric.simulate resolves case names)")
    if isinstance(problem, Problem):
        if law is not None or params is not None:
            raise ValueError("simulate: law and params belong to the Problem; do not pass them too")
        prob = problem
        if t_end is not None:
            prob = dc_replace(prob, t_span=(prob.t_span[0], float(t_end)))
    else:
        prob = getattr(problem, "scheme_problem", problem.problem)(law, params, t_end)
    t0, t1 = map(float, prob.t_span)
    check_span(t0, t1)
    if max_steps is not None:
        max_steps = integer(max_steps, "max_steps", 1)
    n_steps = step_count(t1 - t0, dt)
    if n_steps < 1:
        raise ValueError(f"dt = {dt:g} exceeds t_end = {t1:g}: no step fits")
    n = len(prob.model.states)
    rows = (n_steps + 1) * (1 + (getattr(scheme, "stages", 4) if stages else 0))
    check_step_budget(n_steps, rows, 2 * n + len(prob.model.output_names) + 2, dt, max_steps)
    budget = Budget(max_seconds, f"simulate {scheme.name}")
    stepper = get_stepper(prob.model)
    if stepper is not None:  # a model of another kind: its own step loop
        return stepper(prob, scheme, dt, t0, t1, n_steps, stages)
    fld = DiscreteField(prob.model, prob.params)
    for name in ("f", "solve", "taylor"):
        setattr(fld, name, _budgeted(getattr(fld, name), budget))
    record = [] if stages else None
    tic = time.perf_counter()
    out = None
    if compiled and not stages and max_seconds is None:
        from .batch import compiled_integrate
        out = compiled_integrate(prob.model, fld.p, scheme, prob.y0, t0, dt, n_steps, fld)
    if out is None:
        out = scheme.integrate(fld, t0, np.asarray(prob.y0, dtype=float), dt, n_steps, record)
    t, Y, info = out
    fld.n_rhs = info.get("nfev", fld.n_rhs)
    seconds = time.perf_counter() - tic
    modes = info.get("modes") or [_safe_mode(fld, Y[:, j]) for j in range(Y.shape[1])]  # scheme's own if given
    stage_list = [tuple(s[:4]) + (_safe_mode(fld, np.asarray(s[1])),) for s in record or ()]
    return Solution.from_steps(
        prob.model, prob.params, t, Y, modes, scheme=scheme.name, dt=dt, t_span=(t0, t1),
        events=info["events"], termination=info["termination"], stages=stage_list,
        stats={"nfev": fld.n_rhs, "njev": fld.n_jac, "seconds": seconds},
        case=prob.name or prob.model.name, law=prob.law)
