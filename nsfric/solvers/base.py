"""The reference-solver contract and registry.

A reference solver is a subclass of :class:`ReferenceSolver` implementing one hook,
``_solve(problem) -> Solution``; the base class validates the input, and the registry
makes it selectable by name (``filippov``, ``ida``, ``radau5dae``, ``analytic``, and the
multi-contact ``pile-events``, ``pile-ida``).

Solvers and models meet by capabilities declared as data: a model lists what it offers
in ``model.supports`` (:func:`capabilities`), a solver names the one it ``needs``.  A
model whose kind a solver does not take may name the registered solver that stands in
for it (``model.solver_for(name)``: ``filippov`` on a multi-contact model is
``pile-events``), so a new model kind and its solver need no edit here.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, replace

import numpy as np

from ..errors import BudgetError, SolverFailure, ZenoError
from ..plugins import LazyRegistry
from .loop import Budget, ModeLoop, loop_options

#: options every reference solver takes (the shared mode loop's)
LOOP_OPTIONS = ("max_events", "zeno_window", "max_seconds")

#: the built-in solvers: name -> the module of this package that registers it
BUILTIN_SOLVERS = {"filippov": "filippov", "ida": "dae", "radau5dae": "dae", "analytic": "analytic",
                   "pile-events": "contacts", "pile-ida": "contacts_dae"}


#: name -> solver class; reading it imports every built-in solver's module once (SciPy,
#: SymPy, Assimulo), while :func:`get_solver` imports only the one it names
REFERENCE_SOLVERS: dict = LazyRegistry("nsfric.solvers",
                                       builtins={n: f"{__package__}.{m}" for n, m in BUILTIN_SOLVERS.items()})

#: the capability a model declares when it declares none (``model.supports``): a hybrid
#: model of modes, guards and rates (:class:`~nsfric.symbolic.model.HybridModel`)
HYBRID = frozenset({"hybrid"})


def capabilities(model) -> frozenset:
    """What ``model`` offers the solvers and schemes: its ``supports`` (data, e.g.
    ``{"hybrid"}``, ``{"contacts"}``, ``{"network"}``), :data:`HYBRID` where it declares none."""
    return frozenset(getattr(model, "supports", HYBRID))


def register(cls):
    REFERENCE_SOLVERS[cls.name] = cls
    return cls


def get_solver(name: str, **options):
    """A reference solver by name, configured with ``options``.

    Parameters
    ----------
    name : str
        One of :data:`REFERENCE_SOLVERS` (``filippov``, ``ida``, ``radau5dae``, ``analytic``).
    **options
        ``rtol``, ``atol`` and solver-specific options.

    Returns
    -------
    ReferenceSolver
        Call ``.solve(problem, t_eval)`` for a Solution.
    """
    try:
        cls = REFERENCE_SOLVERS.find(name)
    except KeyError:
        raise ValueError(f"unknown solver {name!r}; choose one of {sorted(REFERENCE_SOLVERS)}") from None
    return cls(**options)


@dataclass
class Problem:
    """What a solver or scheme needs: model, parameter values, initial state, span.

    ``name`` and ``law`` label the results (a case builds problems with its own name);
    ``closed_form = False`` tells the ``analytic`` solver that the model, though
    piecewise affine, has no practical closed form.
    """

    model: object
    params: dict
    y0: np.ndarray
    t_span: tuple
    name: str = ""
    law: str = ""
    closed_form: bool = True


def _restored(problem: Problem) -> Problem:
    """``problem`` with a symbolic model built in this process replaced by its model
    restored from the disk cache of derived numerics
    (:func:`~nsfric.symbolic.numcache.frozen_model`): a user's model is derived once per
    machine, as a case's is."""
    from ..symbolic.numcache import frozen_model

    model = frozen_model(problem.model)
    return problem if model is problem.model else replace(problem, model=model)


class ReferenceSolver:
    """Base class: tolerances and validation; subclasses implement ``_solve``.

    Attributes ``name``, ``needs`` (the capability a model must declare in its
    ``supports`` for this solver to take it, :func:`capabilities`; ``"hybrid"`` by
    default) and ``supports`` (the sliding modes it solves: ``"filippov"``,
    ``"constrained"``) are data, read by the registry and the tests.  A model without
    ``needs`` is handed to the solver it names for this one (:meth:`for_model`).

    Every solver takes the options of the shared mode loop
    (:class:`~nsfric.solvers.loop.ModeLoop`): ``max_events`` (integer >= 1, default
    10000), ``zeno_window`` (integer >= 2, default 50 events) and ``max_seconds``
    (CPU-time budget, default none); its own options are listed, as data, in
    ``options_allowed``.  An unknown option is a ValueError listing the allowed ones.

    :meth:`solve` validates the span and the sample times, turns solver failures into
    :class:`~nsfric.errors.SolverFailure` (one line, saying what to change), refuses a
    non-finite result, and collects library warnings into ``Solution.info["warnings"]``.
    """

    name = "base"
    needs = "hybrid"
    supports = frozenset()
    #: the solver's own options (besides rtol, atol and the mode loop's)
    options_allowed: tuple = ()
    default_rtol = 1e-12
    default_atol = 1e-14

    def __init__(self, rtol: float | None = None, atol: float | None = None, **options):
        #: the tolerances given (a multi-contact solver takes over these, its own defaults otherwise)
        self.given_tolerances = {k: v for k, v in (("rtol", rtol), ("atol", atol)) if v is not None}
        from ..arguments import number, positive

        self.rtol = self.default_rtol if rtol is None else number(rtol, "rtol", 0.0, 1.0, True, True)
        self.atol = self.default_atol if atol is None else positive(atol, "atol")
        unknown = sorted(set(options) - set(self.options_allowed) - set(LOOP_OPTIONS))
        if unknown:
            allowed = sorted(("rtol", "atol") + LOOP_OPTIONS + tuple(self.options_allowed))
            raise ValueError(f"unknown option(s) {', '.join(unknown)} for solver {self.name!r}; "
                             f"allowed: {', '.join(allowed)}")
        self.loop_options = loop_options(*(options.pop(k, None) for k in LOOP_OPTIONS))
        self.options = options
        self.budget = Budget(None, self.name)

    def mode_loop(self, logic, problem: Problem) -> ModeLoop:
        """The shared hybrid mode loop of one run, with this solver's event budget and
        Zeno window."""
        opts = {k: v for k, v in self.loop_options.items() if k != "max_seconds"}
        return ModeLoop(logic, problem.t_span, label=self.name, budget=self.budget, **opts)

    def solve(self, problem: Problem, t_eval=None):
        t0, t1 = map(float, problem.t_span)
        check_span(t0, t1)
        y0 = np.asarray(problem.y0, dtype=float)
        if y0.shape != (len(problem.model.states),) or not np.all(np.isfinite(y0)):
            raise ValueError(f"initial state must be {len(problem.model.states)} finite numbers, got {y0}")
        t_eval = check_t_eval(np.linspace(t0, t1, 501) if t_eval is None else t_eval, t0, t1)
        self.budget = Budget(self.loop_options["max_seconds"], self.name)
        problem = _restored(problem)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                sol = self.for_model(problem.model)._solve(problem, t_eval)
            except ZenoError as e:  # name extreme parameters, the likelier cause
                hint = extreme_hint(problem.params, "")
                if hint:
                    raise ZenoError(f"{str(e).splitlines()[0]}{hint}") from None
                raise
            except (BudgetError, ValueError, SolverFailure):  # already one line saying what to change
                raise
            except Exception as e:  # step-size underflow, IDA/Radau errors, overflow
                raise SolverFailure(failure_message(self.name, e, problem.params)) from None
            sol.resample(t_eval)
            if not np.all(np.isfinite(sol.y)):
                raise SolverFailure(f"{self.name}: the solution left the floating-point range"
                                    f"{extreme_hint(problem.params)}")
        sol.info["warnings"] = sorted({f"{w.category.__name__}: {w.message}" for w in caught})
        return sol

    def _solve(self, problem: Problem, t_eval=None):  # pragma: no cover - abstract
        raise NotImplementedError

    def for_model(self, model) -> "ReferenceSolver":
        """The solver that solves ``model`` under this one's checks: itself where the model
        declares the capability it :attr:`needs`, else the registered solver the model
        names for this one (``model.solver_for(self.name)``, which raises where it names
        none), with the tolerances given and the mode-loop options.  ValueError for a
        model that declares no reference (``has_reference = False``), no way to this
        solver, or options of this solver."""
        supports = capabilities(model)
        if self.needs in supports:
            return self
        check_reference(model)
        hand_off = getattr(model, "solver_for", None)
        if hand_off is None:
            raise ValueError(f"solver {self.name!r} needs a model that supports {self.needs!r}; the model "
                             f"{model.name!r} supports {', '.join(sorted(supports))}")
        cls = REFERENCE_SOLVERS.find(hand_off(self.name))
        if self.options:
            raise ValueError(f"option(s) {', '.join(sorted(self.options))} of solver {self.name!r} do not apply "
                             f"to the model {model.name!r} (solved by {cls.name!r})")
        return cls(**self.given_tolerances, **self.loop_options)


def check_reference(model):
    """ValueError for a model that declares it has no exact reference (``has_reference =
    False``: its laws run in the discrete schemes only)."""
    if not getattr(model, "has_reference", True):
        raise ValueError(f"the model {model.name!r} has no exact reference (its laws run "
                         "in the discrete schemes only); use nsfric.simulate")


def check_span(t0: float, t1: float):
    """ValueError unless ``t_end`` is finite and beyond ``t0`` by a resolvable amount."""
    if not (math.isfinite(t1) and t1 > t0):
        raise ValueError(f"t_end must be finite and > {t0:g}, got {t1:g}")
    if (t1 - t0) <= 64 * np.finfo(float).eps * max(1.0, abs(t0)) or not math.isfinite(t1 - t0):
        raise ValueError(f"t_end - t0 = {t1 - t0:g} is below the time resolution; choose a longer t_end")


def check_t_eval(t_eval, t0: float, t1: float) -> np.ndarray:
    """``t_eval`` as an array: non-empty, finite, strictly increasing, inside ``[t0, t1]``."""
    try:
        t = np.asarray(t_eval, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"t_eval must be numbers, got {t_eval!r}") from None
    if t.ndim != 1 or t.size == 0 or not np.all(np.isfinite(t)) or np.any(np.diff(t) <= 0) \
            or t[0] < t0 or t[-1] > t1:
        raise ValueError(f"t_eval must be a non-empty, finite, strictly increasing sequence inside "
                         f"[{t0:g}, {t1:g}]")
    return t


def extreme_hint(params: dict, fallback="; check the parameters and tolerances (--param, --atol, "
                                         "--rtol)") -> str:
    """``" (parameters m = 1e-300 ...)"``: the parameters far outside the unit range
    (|x| > 1e100 or 0 < |x| < 1e-100), which usually cause a failure; else advice."""
    bad = [f"{k} = {v:g}" for k, v in params.items()
           if isinstance(v, (int, float)) and v != 0 and not (1e-100 <= abs(v) <= 1e100)]
    if bad:
        return f"; check the parameters {', '.join(bad)}"
    return fallback


def failure_message(name: str, e: Exception, params: dict) -> str:
    """One line for a solver's failure, saying what to change."""
    text = str(e).splitlines()[0] if str(e) else type(e).__name__
    return f"{name} failed: {text}{extreme_hint(params)}, or try another --solver/--method"
