"""The case contract: a published system = mechanics x law(s) x parameters x initial state.

A case builds (and caches) one :class:`~nsfric.symbolic.model.HybridModel` per law,
knows its initial state and default end time, cites its paper, and -- in its module --
reproduces the paper's figures (``run`` returns data, ``plot`` draws it).
"""
from __future__ import annotations

import functools
import math
import numbers
import os

import numpy as np

from ..plugins import GROUPS, LazyRegistry, paper_order
from ..solvers.base import Problem, get_solver


def _add_plugin_case(name, obj, registry):
    """Register a case plug-in: a :class:`Case` subclass (instantiated) or instance whose
    ``name`` is the entry point's name."""
    known = dict.get(registry, name)
    if isinstance(obj, type) and type(known) is obj:  # registered on import: keep that instance
        return
    case = obj() if isinstance(obj, type) else obj
    if not isinstance(case, Case):
        raise TypeError(f"{obj!r} is neither a Case subclass nor a Case")
    if case.name != name:
        raise ValueError(f"the entry point is named {name!r} but the case {case.name!r}")
    registry[name] = case


#: name -> case object: the cases registered in this process (:func:`register_case`),
#: completed by the installed plug-ins of the entry-point group ``nsfric.cases`` -- the
#: papers' cases among them (:mod:`nsfric.papers`); :func:`get_case` loads only the one it
#: names
CASES = LazyRegistry(GROUPS["cases"], _add_plugin_case, order=paper_order)


def register_case(cls):
    """Register a case class under its ``name`` (usable as a class decorator).

    Parameters
    ----------
    cls : type
        A :class:`Case` subclass; one instance is created and stored in :data:`CASES`.

    Returns
    -------
    type
        ``cls`` unchanged.

    Installed packages register cases without importing anything through the
    entry-point group ``nsfric.cases`` (see :mod:`nsfric.plugins`).
    """
    if not (isinstance(cls, type) and issubclass(cls, Case)):
        raise TypeError(f"register_case takes a Case subclass, got {cls!r}")
    CASES[cls.name] = cls()
    return cls


def get_case(name: str):
    """The registered case ``name`` (built-in or plug-in).

    Raises
    ------
    ValueError
        For an unknown name, listing the known ones.
    """
    try:
        return CASES.find(name)  # a built-in's module only: not every case's laws and SciPy
    except KeyError:
        raise ValueError(f"unknown case {name!r}; choose one of {sorted(CASES)}") from None


#: the most samples of one reference trajectory (a CSV of ten columns is then ~2 GB)
MAX_SAMPLES = 10 ** 7
#: the reference solvers that read a model through ``model.derived()`` (event-driven and
#: DAE): they solve the model restored from the disk cache of derived numerics
NUMERIC_SOLVERS = ("filippov", "ida", "radau5dae")


def sample_count(samples) -> int:
    """``samples`` validated: an integer from 2 to :data:`MAX_SAMPLES`."""
    ok = isinstance(samples, numbers.Integral) or (isinstance(samples, float) and samples.is_integer())
    if isinstance(samples, bool) or not ok or not (2 <= samples <= MAX_SAMPLES):
        raise ValueError(f"samples must be an integer from 2 to {MAX_SAMPLES}, got {samples!r}")
    return int(samples)


def _restore_case(cls, state):
    case = cls.__new__(cls)
    case.__dict__.update(state)
    case._models = {}
    return case


class Case:
    """A published system: mechanics x law(s) x parameters x initial state.

    Subclasses set the class attributes and implement ``build(law)``, returning the
    :class:`~nsfric.symbolic.model.HybridModel` of one law; register them with
    :func:`register_case` (or the entry-point group ``nsfric.cases``).

    Attributes
    ----------
    name : str
        Registry name (``nsfric run NAME``).
    reference : str
        Paper, section, equations and figures the case reproduces.
    laws : tuple of str
        The laws the case is built with; ``default_law`` is used when none is given.
    scheme_laws : tuple of str
        Further laws the discrete schemes run (``nsfric.simulate``) that have no exact
        reference, so ``nsfric run`` writes none for them.
    t_end : float
        Default end time.
    unit, units : str, dict
        Unit of the quantities, and of named ones where it differs.
    initial : dict
        Parameters that set the initial state, ``{state name: parameter name}``.
    in_report : bool
        Whether ``nsfric report`` runs the case when no cases are named (default True; a
        case whose run takes many minutes and states no paper claim may leave itself out,
        ``nsfric report --cases NAME`` still runs it).
    """

    name = "case"
    reference = ""
    laws: tuple = ()
    scheme_laws: tuple = ()
    default_law = ""
    t_end = 10.0
    unit = "n.u."
    in_report = True
    #: units of named quantities (states, derived) where they differ from ``unit``
    units: dict = {}
    #: parameters that set the initial state, {name: state symbol name}
    initial = {}
    #: the names of the scalar observables of :meth:`observables` (``nsfric list CASE``)
    observable_names: tuple = ()
    #: observables of :meth:`trajectory_observables` that some runs may lack (an event
    #: that happens at one step and not at another); ``nsfric verify`` leaves such an
    #: observable out, with a note, instead of refusing the input
    partial_observables: tuple = ()

    def __init__(self):
        self._models = {}

    def __reduce__(self):
        """Pickle a registered case by its name (a worker process resolves it from its own
        registry, with its own cached models); any other case by its class and state,
        without the built models."""
        if CASES.get(self.name) is self:
            return get_case, (self.name,)
        return _restore_case, (type(self), {k: v for k, v in self.__dict__.items() if k not in ("_models", "_frozen")})

    #: the case's own exact solver, for a model no registered reference solver solves
    #: (its :meth:`reference_solution` takes it; ``nsfric reference`` uses it); None: the
    #: registered solvers (:data:`~nsfric.solvers.REFERENCE_SOLVERS`)
    exact_solver: str | None = None

    def unit_of(self, quantity: str) -> str:
        return self.units.get(quantity, self.unit)

    def has_reference(self, law: str) -> bool:
        """Whether ``law`` has an exact reference: one of :attr:`laws` (a scheme law does
        not)."""
        return law in self.laws

    def check_law(self, law: str | None) -> str:
        law = self.default_law if law is None else law
        if law not in self.laws and law not in self.scheme_laws:
            raise ValueError(f"unknown law {law!r} for case {self.name!r}; choose one of {list(self.laws)}")
        return law

    def model(self, law: str | None = None):
        law = self.check_law(law)
        if law not in self._models:
            self._models[law] = self.build(law)
        return self._models[law]

    def build(self, law: str):  # pragma: no cover - abstract
        raise NotImplementedError

    def numeric_model(self, law: str | None = None):
        """The model of ``law`` as a reference solver reads it: the symbolic one if this
        process built it already, else a :class:`~nsfric.symbolic.frozen.FrozenModel`
        restored from the disk cache of derived numerics (:mod:`nsfric.symbolic.numcache`:
        no SymPy on a warm machine), which fills the cache on a miss."""
        law = self.check_law(law)
        frozen = self.__dict__.setdefault("_frozen", {})
        if law in self._models and law not in frozen:  # (a restored model stays the one used)
            return self._models[law]
        if law not in frozen:
            from ..symbolic.numcache import class_files, numeric_model, own_case

            frozen[law] = numeric_model(self.name, law, functools.partial(self.model, law), class_files(type(self)),
                                        own=own_case(type(self)))
        return frozen[law]

    def _model_at_hand(self, law: str | None):
        """The symbolic model if built, else the restored one if any, else built now."""
        law = self.check_law(law)
        return self._models.get(law) or self.__dict__.get("_frozen", {}).get(law) or self.model(law)

    def bind(self, law: str | None = None, params: dict | None = None) -> dict:
        return self._model_at_hand(law).bind(params)

    def y0(self, law: str | None, values: dict) -> np.ndarray:
        """The initial state (n,); ``(n, B)`` when initial values are arrays (a batch)."""
        m = self._model_at_hand(law)
        return np.array(np.broadcast_arrays(*[values[self.initial[s]] if s in self.initial else 0.0
                                              for s in m.state_names]), dtype=float)

    def problem(self, law=None, params=None, t_end=None) -> Problem:
        law = self.check_law(law)
        return self._problem(self.model(law), law, params, t_end)

    def scheme_problem(self, law=None, params=None, t_end=None) -> Problem:
        """:meth:`problem` for a discrete scheme: on :meth:`numeric_model` (the schemes'
        generated code then comes from the disk cache too, :mod:`nsfric.schemes.codecache`)
        unless the case builds its problems itself; the same numbers either way."""
        return self.reference_problem(law, params, t_end, "filippov")

    def reference_problem(self, law=None, params=None, t_end=None, solver: str = "filippov") -> Problem:
        """:meth:`problem` for the reference solver ``solver``: for the solvers of
        :data:`NUMERIC_SOLVERS` on :meth:`numeric_model` (the disk cache of derived
        numerics) unless the case builds its problems itself; the same numbers either way."""
        if solver not in NUMERIC_SOLVERS or type(self).problem is not Case.problem:
            return self.problem(law, params, t_end)
        law = self.check_law(law)
        return self._problem(self.numeric_model(law), law, params, t_end)

    def _problem(self, model, law, params, t_end) -> Problem:
        values = self.bind(law, params)
        t_end = self.default_t_end(law, values) if t_end is None else float(t_end)
        if not (math.isfinite(t_end) and t_end > 0):
            raise ValueError(f"t_end must be finite and > 0, got {t_end:g}")
        return Problem(model, values, self.y0(law, values), (0.0, t_end), self.name, law,
                       getattr(self, "closed_form", True))

    def default_t_end(self, law: str, values: dict) -> float:
        """End time when none is given: :attr:`t_end` (cases whose contact time depends
        on the parameters override this)."""
        return self.t_end

    def reference_solution(self, law=None, solver="filippov", params=None, t_end=None,
                           t_eval=None, samples=None, **options):
        """Solve ``law`` on this case with the named reference solver.

        ``t_end`` must be finite and > 0, ``samples`` an integer >= 2 (a uniform grid),
        ``t_eval`` increasing times inside the span; ``options`` go to the solver
        (unknown ones raise ValueError)."""
        prob = self.reference_problem(law, params, t_end, solver)
        options = self.solver_options(prob.law, solver, **options)
        if samples is not None:
            if t_eval is not None:
                raise ValueError("give samples or t_eval, not both")
            t_eval = np.linspace(prob.t_span[0], prob.t_span[1], sample_count(samples))
        sol = get_solver(solver, **options).solve(prob, t_eval=t_eval)
        sol.summary = self.observables(prob.law, sol)
        sol.units = self.solution_units(sol)
        sol.case, sol.law = sol.case or self.name, sol.law or prob.law
        return sol

    def solution_units(self, sol) -> dict:
        """The unit of the time, each state and derived quantity of ``sol`` (a
        Solution of this case: :meth:`~nsfric.solution.Solution.to_xarray` reads them)."""
        return {q: self.unit_of(q) for q in ("t", *sol.state_names, *sol.output_names)}

    def default_solver_options(self, law: str, solver: str) -> dict:
        """Options of the reference solver ``solver`` on ``law`` where the solver's own
        defaults do not reach the case's accuracy (e.g. a tighter ``atol`` for a state
        far below 1); none by default."""
        return {}

    def solver_options(self, law: str, solver: str, **options) -> dict:
        """``options`` for ``solver`` on ``law``, with :meth:`default_solver_options` for
        those not given (absent or None).  Every entry point -- the Python API, the CLI's
        ``reference`` and its cross-check, ``export`` -- solves with these."""
        defaults = self.default_solver_options(self.check_law(law), solver)
        return {**defaults, **{k: v for k, v in options.items() if v is not None or k not in defaults}}

    def why_no_observables(self, law: str, sol) -> str:
        """Why :meth:`observables` gives none for ``sol`` (e.g. the contact did not end
        before ``t_end``), naming the option to change; ``""`` when it gives them."""
        return "" if self.observables(law, sol) else "the case gives no observables for this run"

    def trajectory_observables(self, law: str, values: dict, t, Y, names) -> dict:
        """The case's observables of another code's trajectory (times ``t`` from 0, states
        ``Y`` of shape (len(names), len(t)), parameters ``values``), for ``nsfric verify``;
        none by default (the states at the end time are compared anyway)."""
        return {}

    def observables(self, law: str, sol) -> dict:
        """The case's scalar observables of a reference solution of ``law`` (e.g. a
        restitution coefficient), stored as ``Solution.summary`` and in the sidecars;
        none by default."""
        return {}

    # -- what the case reproduces --------------------------------------------------
    def verdicts(self, out_dir: str) -> list:
        """The published quantities this case reproduces, each compared with nsfric's value
        computed from the outputs ``run`` wrote into ``out_dir``: a list of dicts
        (:mod:`nsfric.cases.verdicts`); none unless declared there."""
        from .verdicts import case_verdicts

        return case_verdicts(self.name, out_dir)

    def captions(self) -> dict:
        """Figure captions ``{file name: what is drawn, the parameters, what to look at}``."""
        from .verdicts import case_captions

        return case_captions(self.name)

    # -- reproduction ----------------------------------------------------------------
    def run(self, out_dir: str, progress=None, jobs=1) -> dict:
        """Reference trajectories of every law (CSV + JSON) and a figure of the states
        and the contact force against time; the laws' references on ``jobs`` local
        processes (the same files as one process).  Cases override this to reproduce
        their paper's figures; the return value lists what was written."""
        from ..plotting import figure, save
        from ..study.execute import map_tasks

        model = self.model(self.default_law)
        panels = list(model.state_names) + [q for q in ("F", "F_n") if q in model.output_names]
        done = (lambda k, n: progress(f"{self.name}: {k}/{n} references")) if progress else None
        got = map_tasks(functools.partial(_write_reference, self, out_dir, tuple(panels)), self.laws, jobs=jobs,
                        progress=done)
        written = [path for paths, _ in got for path in paths]
        curves = {law: curve for law, (_, curve) in zip(self.laws, got)}
        fig, axes = figure(len(panels), 1, sharex=True)
        # one colour and line style per law in every panel (laws may differ in their states,
        # so a panel's own colour cycle would give one law different colours), one legend
        style = {law: {"color": f"C{i % 10}", "ls": ("-", "--", ":")[i // 10 % 3]}
                 for i, law in enumerate(curves)}
        lines = {}
        for ax, q in zip(axes[:, 0], panels):
            for law, curve in curves.items():
                if q in curve:
                    lines[law], = ax.plot(curve["t"], curve[q], lw=1.2, **style[law])
            ax.set_ylabel(f"{q} [{self.unit_of(q)}]")
        axes[-1, 0].set_xlabel(f"t [{self.unit_of('t')}]")
        axes[-1, 0].legend([lines[law] for law in curves if law in lines], [law for law in curves if law in lines],
                           loc="upper center", ncol=2, fontsize=8, frameon=False, bbox_to_anchor=(0.5, -0.3))
        axes[0, 0].set_title(f"{self.name}: exact references ({self.reference})", fontsize=9)
        written.append(save(fig, os.path.join(out_dir, "reference.png")))
        return {"written": written}


def _write_reference(case, out_dir: str, panels: tuple, law: str) -> tuple:
    """Write the reference of ``law`` that :meth:`Case.run` writes (CSV + JSON sidecar)
    into ``out_dir``; ``(paths, curves)`` with the curves of its figure, ``t`` and each of
    ``panels`` the law has (one task of its pool: plain arrays travel back, not the
    solution and its model)."""
    from ..io import write_csv_with_sidecar
    from .reference import reference_meta

    sol = case.reference_solution(law, samples=1001)
    path = os.path.join(out_dir, f"reference-{law.replace('/', '_')}.csv")  # T/N: no folder
    side = write_csv_with_sidecar(path, sol.columns(), reference_meta(case, law, sol))
    names = set(sol.state_names) | set(sol.output_names)
    return [path, side], {"t": sol.t, **{q: sol[q] for q in panels if q in names}}


# -- the package-level study API: case names resolved here, objects passed down ------------
def _case(case):
    return get_case(case) if isinstance(case, str) else case


def simulate(case, law=None, scheme="euler", dt=0.1, t_end=None, params=None, stages=False,
             max_steps=None, max_seconds=None, store="all"):
    """Run a fixed-step discrete (DEM) scheme on a case or a Problem.

    Parameters
    ----------
    case : str, Case or Problem
        A registered case name (see :func:`get_case`), a case object, or a Problem.
    law : str, optional
        The case's law (default: its ``default_law``); not with a Problem.
    scheme : str
        A registered scheme name (``nsfric list``), e.g. ``"euler"``, ``"rk4-event"``.
    dt : float
        Step, > 0.
    t_end : float, optional
        End time (default: the case's).
    params : dict, optional
        Parameter overrides, validated against their ranges.
    stages : bool
        Also record the auxiliary stage states.
    max_steps, max_seconds : optional
        Step and CPU-time budgets (:class:`~nsfric.errors.BudgetError`).
    store : ``"all"``, ``"final"`` or an integer stride
        The rows a batched run (array-valued ``params``) keeps (see
        :func:`nsfric.schemes.simulate`).

    Returns
    -------
    Solution
        A discrete run (:meth:`Solution.from_steps`): the scheme's step rows ``sol.t``,
        ``sol.y`` untouched, its events, and ``sol(t)`` linear between the rows (see
        :func:`nsfric.schemes.simulate`).
    """
    from ..schemes import simulate as _simulate

    case = _case(case)
    sol = _simulate(case, law, scheme, dt, t_end, params, stages, max_steps, max_seconds, store=store)
    if isinstance(case, Case):
        sol.units = case.solution_units(sol)
        if not sol.summary and len(sol.t) > 1:  # a scheme logs no contact end: the case finds it on the rows
            t = np.asarray(sol.t, dtype=float)
            found = case.trajectory_observables(case.check_law(law), sol.params, t - t[0], np.asarray(sol.y),
                                                list(sol.state_names))
            sol.summary = {k: float(v) for k, v in found.items()}
    return sol


def converge(case, law=None, schemes=("euler",), **options):
    """Convergence study of discrete schemes against the case's exact reference.

    Parameters
    ----------
    case : str or Case
        A registered case name or a case object.
    law : str or sequence of str, optional
        The law(s) (default: the case's ``default_law``).
    schemes : sequence of str
        Scheme names.
    **options
        ``dts``, ``variables``, ``times``, ``t_end``, ``params``, ``reference``,
        ``fit_range``, ``tol``, ``jobs``, ``executor``, ``progress``, ``max_steps``,
        ``max_seconds``, ``phases`` (grid phases of the switching events),
        ``ladder_seconds`` (see :func:`nsfric.study.convergence.converge`).

    Returns
    -------
    ConvergenceResult
        Errors per law x scheme x step, and the observed orders (an
        :class:`~nsfric.study.fit.OrderFit` each: a number with its standard error,
        or "no order" and why).
    """
    from ..study.convergence import converge as _converge

    return _converge(_case(case), law, schemes, **options)


def sweep(case, law=None, grid=None, observables=None, **options):
    """Parameter sweep of a case's observables over a grid, locally or on a Dask cluster.

    Parameters
    ----------
    case : str or Case
        A registered case name or a case object (or a point function).
    law : str, optional
        The case's law (default: its ``default_law``), or sweep ``"law"`` as a grid axis.
    grid : dict ``{name: values}``
        Grid axes: model parameters, ``law``, ``scheme``, ``dt``.
    observables : list of str
        Names of the case's ``summary`` observables (e.g. ``e_n``), or ``error`` for
        discrete runs.
    **options
        ``params``, ``solver``, ``options``, ``t_end``, ``estimate``, ``scheme``, ``dt``,
        ``executor``, ``jobs``, ``chunksize``, ``retries``, ``cache_dir``, ``force``,
        ``progress`` (see :func:`nsfric.study.sweep.sweep`).

    Returns
    -------
    xarray.Dataset
        The observables on the grid's labelled dimensions, with error estimates, solver
        statistics and provenance; ``.to_dataframe()`` for a table.
    """
    from ..study.sweep import sweep as _sweep

    return _sweep(_case(case), law, grid, observables, **options)


def verify(case, law=None, convention=None, out=None, beside=False, **options):
    """Measure another code's results against the case's exact reference.

    Parameters
    ----------
    case : str or Case
        A registered case name or a case object.
    law : str or list of str, optional
        The law(s) to test, or ``"auto"`` (every law of the case with an exact reference).
    convention : str or Convention, optional
        A registered convention (:mod:`nsfric.conventions`): its parameters apply to the
        reference, its laws are the default ``law``.
    out : str, optional
        Folder to write ``verify.json``, ``verify.csv`` and ``verify.png`` into (under
        nsfric's manifest rules, :mod:`nsfric.outputs`; ``beside`` as
        ``--beside-existing``).
    **options
        ``input`` (a CSV file or columns) or ``runner`` with ``dts`` (and ``points``),
        ``params``, ``observables``, ``t_end``, ``solver``, ``tol``, ``progress`` (see
        :func:`nsfric.study.verify.verify`).

    Returns
    -------
    VerifyResult
        One point per parameter point and observable: ``exact`` with its uncertainty,
        ``errors`` per dt, ``order``, ``limit``, ``offset``, ``status`` ("converges to
        LAW", "converges to something else: ...", "does not converge"); ``.summary()``,
        ``.to_dict()``, ``.to_dataframe()``.
    """
    from ..conventions import get_convention
    from ..study.verify import verify as _verify

    if isinstance(convention, str):
        convention = get_convention(convention)
    if out is not None:
        from ..io import check_output_path
        from ..outputs import output_folder
        from ..study.verify_result import VERIFY_FILES

        check_output_path(out, "out", "dir", beside=beside, expect=VERIFY_FILES)
        with output_folder(out, "out", beside=beside) as stage:
            result = _verify(_case(case), law, convention=convention, **options)
            result.write(stage)
        return result
    return _verify(_case(case), law, convention=convention, **options)


def split_composed_law(law: str, case: str, tangential, normal, default_normal: str = "linear-dashpot") -> tuple:
    """``(tangential, normal)`` of a case law named ``T`` or ``T/N`` (the normal law
    ``default_normal`` when none is named), each checked against the case's names;
    ValueError naming the case and both lists otherwise."""
    t, _, n = str(law).partition("/")
    n = n or default_normal
    if t not in tangential or n not in normal:
        raise ValueError(f"unknown law {law!r} for case {case!r}: give TANGENTIAL or TANGENTIAL/NORMAL with "
                         f"TANGENTIAL in {list(tangential)} and NORMAL in {list(normal)}")
    return t, n


class ComposedLaws:
    """Mix-in of a :class:`Case` whose laws are a tangential law, optionally with a normal
    one, ``T`` or ``T/N``: the law check, the model by :meth:`build_model` and the solver
    defaults by the tangential part.

    A case sets :attr:`tangential_laws`, :attr:`normal_laws`, :attr:`solver_defaults`
    (``{(tangential, solver): options}``) and ``build_model(law)``.
    """

    tangential_laws: tuple = ()
    normal_laws: tuple = ("linear-dashpot",)
    default_normal = "linear-dashpot"
    solver_defaults: dict = {}

    def split_law(self, law: str) -> tuple:
        """``(tangential, normal)`` of ``law`` (:func:`split_composed_law`)."""
        return split_composed_law(law, self.name, self.tangential_laws, self.normal_laws, self.default_normal)

    def default_solver_options(self, law: str, solver: str) -> dict:
        """:attr:`solver_defaults` of the tangential part of ``law`` with ``solver``."""
        return dict(self.solver_defaults.get((self.split_law(law)[0], solver), {}))

    def check_law(self, law):
        law = self.default_law if law is None else law
        self.split_law(law)
        return law

    def has_reference(self, law: str) -> bool:
        """Every composition ``T/N`` the case builds has an exact reference."""
        try:
            self.split_law(law)
        except ValueError:
            return False
        return True

    def build(self, law: str):
        return self.build_model(law)

