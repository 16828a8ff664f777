"""The reference-solver contract and registry.

A reference solver is a subclass of :class:`ReferenceSolver` implementing one hook,
``_solve(problem) -> Solution``; the base class validates the input, and the registry
makes it selectable by name (``filippov``, ``ida``, ``radau5dae``, ``analytic``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .loop import ModeLoop, loop_options

REFERENCE_SOLVERS: dict = {}


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
        cls = REFERENCE_SOLVERS[name]
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


class ReferenceSolver:
    """Base class: tolerances and validation; subclasses implement ``_solve``.

    Attributes ``name`` and ``supports`` (set of model features: ``"filippov"``,
    ``"constrained"``) are data, read by the registry and the tests.

    Every solver takes the options of the shared mode loop
    (:class:`~nsfric.solvers.loop.ModeLoop`): ``max_events`` (integer >= 1, default
    10000) and ``zeno_window`` (integer >= 2, default 50 events).
    """

    name = "base"
    supports = frozenset()
    default_rtol = 1e-12
    default_atol = 1e-14

    def __init__(self, rtol: float | None = None, atol: float | None = None, **options):
        self.rtol = self.default_rtol if rtol is None else float(rtol)
        self.atol = self.default_atol if atol is None else float(atol)
        if not (0 < self.rtol < 1):
            raise ValueError(f"rtol must lie in (0, 1), got {self.rtol:g}")
        if not (self.atol > 0 and math.isfinite(self.atol)):
            raise ValueError(f"atol must be > 0, got {self.atol:g}")
        self.loop_options = loop_options(options.pop("max_events", None), options.pop("zeno_window", None))
        self.options = options

    def mode_loop(self, logic, problem: Problem) -> ModeLoop:
        """The shared hybrid mode loop of one run, with this solver's event budget and
        Zeno window."""
        return ModeLoop(logic, problem.t_span, label=self.name, **self.loop_options)

    def solve(self, problem: Problem, t_eval=None):
        t0, t1 = map(float, problem.t_span)
        if not (t1 > t0):
            raise ValueError(f"t_end must be > {t0:g}, got {t1:g}")
        y0 = np.asarray(problem.y0, dtype=float)
        if y0.shape != (len(problem.model.states),) or not np.all(np.isfinite(y0)):
            raise ValueError(f"initial state must be {len(problem.model.states)} finite numbers, got {y0}")
        if t_eval is None:
            t_eval = np.linspace(t0, t1, 501)
        t_eval = np.asarray(t_eval, dtype=float)
        if t_eval.ndim != 1 or np.any(np.diff(t_eval) < 0) or t_eval[0] < t0 or t_eval[-1] > t1:
            raise ValueError(f"t_eval must be increasing inside [{t0:g}, {t1:g}]")
        sol = self._solve(problem, t_eval)
        sol.resample(t_eval)
        return sol

    def _solve(self, problem: Problem, t_eval=None):  # pragma: no cover - abstract
        raise NotImplementedError
