"""The case contract: a published system = mechanics x law(s) x parameters x initial state.

A case builds (and caches) one :class:`~nsfric.symbolic.model.HybridModel` per law,
knows its initial state and default end time, cites its paper, and -- in its module --
reproduces the paper's figures (``run`` returns data, ``plot`` draws it).
"""
from __future__ import annotations

import os

import numpy as np

from ..solvers.base import Problem, get_solver

CASES: dict = {}


def register_case(cls):
    CASES[cls.name] = cls()
    return cls


def get_case(name: str):
    try:
        return CASES[name]
    except KeyError:
        raise ValueError(f"unknown case {name!r}; choose one of {sorted(CASES)}") from None


class Case:
    """Base class of the cases; subclasses set the class attributes and ``build``."""

    name = "case"
    reference = ""
    laws: tuple = ()
    default_law = ""
    t_end = 10.0
    unit = "n.u."
    #: units of named quantities (states, derived) where they differ from ``unit``
    units: dict = {}
    #: parameters that set the initial state, {name: state symbol name}
    initial = {}

    def __init__(self):
        self._models = {}

    def unit_of(self, quantity: str) -> str:
        return self.units.get(quantity, self.unit)

    def check_law(self, law: str | None) -> str:
        law = law or self.default_law
        if law not in self.laws:
            raise ValueError(f"unknown law {law!r} for case {self.name!r}; choose one of {list(self.laws)}")
        return law

    def model(self, law: str | None = None):
        law = self.check_law(law)
        if law not in self._models:
            self._models[law] = self.build(law)
        return self._models[law]

    def build(self, law: str):  # pragma: no cover - abstract
        raise NotImplementedError

    def bind(self, law: str | None = None, params: dict | None = None) -> dict:
        return self.model(law).bind(params)

    def y0(self, law: str | None, values: dict) -> np.ndarray:
        m = self.model(law)
        return np.array([values[self.initial[s]] if s in self.initial else 0.0
                         for s in m.state_names])

    def problem(self, law=None, params=None, t_end=None) -> Problem:
        law = self.check_law(law)
        values = self.bind(law, params)
        t_end = self.t_end if t_end is None else float(t_end)
        return Problem(self.model(law), values, self.y0(law, values), (0.0, t_end), self.name, law,
                       getattr(self, "closed_form", True))

    def reference_solution(self, law=None, solver="filippov", params=None, t_end=None,
                           t_eval=None, samples=None, **options):
        """Solve ``law`` on this case with the named reference solver."""
        prob = self.problem(law, params, t_end)
        if t_eval is None and samples is not None:
            t_eval = np.linspace(prob.t_span[0], prob.t_span[1], int(samples))
        return get_solver(solver, **options).solve(prob, t_eval=t_eval)

    # -- reproduction ----------------------------------------------------------------
    def run(self, out_dir: str, progress=None) -> dict:
        """Reference trajectories of every law (CSV + JSON) and a figure of the states
        and the contact force against time.  Cases override this to reproduce their
        paper's figures; the return value lists what was written."""
        from ..io import write_csv_with_sidecar
        from ..plotting import figure, save
        from .reference import reference_meta

        written = []
        sols = {}
        for law in self.laws:
            if progress:
                progress(f"{self.name}: reference for {law}")
            sol = self.reference_solution(law, samples=1001)
            sols[law] = sol
            path = os.path.join(out_dir, f"reference-{law}.csv")
            side = write_csv_with_sidecar(path, sol.columns(), reference_meta(self, law, sol))
            written += [path, side]
        model = self.model(self.default_law)
        panels = list(model.state_names) + [q for q in ("F", "F_n") if q in model.output_names]
        fig, axes = figure(len(panels), 1, sharex=True)
        for ax, q in zip(axes[:, 0], panels):
            for law, sol in sols.items():
                ax.plot(sol.t, sol[q], label=law)
            ax.set_ylabel(f"{q} [{self.unit_of(q)}]")
        axes[-1, 0].set_xlabel(f"t [{self.unit_of('t')}]")
        axes[0, 0].legend()
        axes[0, 0].set_title(f"{self.name}: exact references ({self.reference})", fontsize=9)
        written.append(save(fig, os.path.join(out_dir, "reference.png")))
        return {"written": written}


# -- the package-level study API: case names resolved here, objects passed down ------------
def _case(case):
    return get_case(case) if isinstance(case, str) else case


def simulate(case, law=None, scheme="euler", dt=0.1, t_end=None, params=None, stages=False):
    """Run a discrete scheme on a case (by name or object) or a Problem.

    See :func:`nsfric.schemes.simulate`; this wrapper only resolves a case name.
    """
    from ..schemes import simulate as _simulate

    return _simulate(_case(case), law, scheme, dt, t_end, params, stages)


def converge(case, law=None, schemes=("euler",), **options):
    """Convergence study on a case (by name or object); see :func:`nsfric.study.converge`."""
    from ..study.convergence import converge as _converge

    return _converge(_case(case), law, schemes, **options)
