"""What the engine reads of a case: the :class:`ProblemFactory` protocol.

The schemes (:mod:`nsfric.schemes`) and the studies (:mod:`nsfric.study`) work on
:class:`~nsfric.solvers.base.Problem` objects, and on objects that make them for a law
and parameter values -- a case (:class:`nsfric.cases.base.Case`) or a user's object with
the same members.  This protocol declares those members, so that the layers below
``nsfric.cases`` depend on it, not on the case contract above them
(``tests/test_problem_factory.py`` checks that they read nothing else).

This module is on the ground floor: it imports no layer of nsfric.
"""
from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class ProblemFactory(Protocol):
    """Makes the :class:`~nsfric.solvers.base.Problem` of a law and parameter values, and
    names what the results are (``isinstance(obj, ProblemFactory)`` checks the members).

    Attributes
    ----------
    name : str
        The name results are labelled with (a registered case's name).
    reference : str
        Where the system is written down (the sweep's provenance).
    laws : tuple of str
        The laws it makes problems of; :meth:`check_law` takes them.
    default_law : str
        The law used when none is given (``nsfric verify``'s default law).
    t_end : float
        The default end time (a convergence study's span unless one is given).
    unit : str
        The unit of lengths and times where :attr:`units` names none (``"n.u."``).
    units : dict
        Units by quantity name (``{"t": "s", "v": "m/s"}``).
    partial_observables : tuple of str
        Observables of :meth:`trajectory_observables` that some runs may lack (an event
        at one step and not at another); ``nsfric verify`` leaves them out with a note.
    """

    name: str
    reference: str
    laws: tuple
    default_law: str
    t_end: float
    unit: str
    units: dict
    partial_observables: tuple

    def default_t_end(self, law: str, values: dict) -> float:
        """The end time for ``law`` at the bound parameter ``values`` when none is given
        (:attr:`ProblemFactory.t_end`, or one that depends on the parameters, e.g. a contact time)."""

    def check_law(self, law: str | None) -> str:
        """The law ``law`` names (the default law for None); ValueError for an unknown one."""

    def model(self, law: str | None = None):
        """The symbolic model of ``law`` (a :class:`~nsfric.symbolic.model.HybridModel`, or
        another kind declaring its ``supports``): states, parameters, outputs."""

    def numeric_model(self, law: str | None = None):
        """The model of ``law`` as the solvers and schemes read it (restored from a disk
        cache where it can be: no SymPy); the same numbers as :meth:`model`'s."""

    def bind(self, law: str | None = None, params: dict | None = None) -> dict:
        """All parameter values of ``law`` by name: ``params`` checked against their ranges
        (ValueError naming one outside), the defaults for the others."""

    def y0(self, law: str | None, values: dict):
        """The initial state (n,) for bound ``values``; ``(n, B)`` where values are arrays
        of ``B`` members (a batch)."""

    def problem(self, law=None, params=None, t_end=None):
        """The :class:`~nsfric.solvers.base.Problem` of ``law`` with parameter overrides
        ``params``, from time 0 to ``t_end`` (the default end time for None)."""

    def scheme_problem(self, law=None, params=None, t_end=None):
        """:meth:`problem` as the discrete schemes run it (on :meth:`numeric_model`); the
        same numbers."""

    def reference_solution(self, law=None, solver="filippov", params=None, t_end=None, t_eval=None,
                           samples=None, **options):
        """The reference :class:`~nsfric.solution.Solution` of ``law`` by the registered
        solver ``solver`` (``options`` go to it), its ``summary`` the observables."""

    def unit_of(self, quantity: str) -> str:
        """The unit of the state, parameter or time ``quantity`` (:attr:`units`, else
        :attr:`unit`)."""

    def why_no_observables(self, law: str, sol) -> str:
        """Why a solution ``sol`` gives no observables (naming the option to change);
        ``""`` when it gives them."""

    def has_reference(self, law: str) -> bool:
        """Whether nsfric has an exact reference of ``law``: one of :attr:`laws`, or a
        composition of them the case builds (``TANGENTIAL/NORMAL``)."""

    def trajectory_observables(self, law: str, values: dict, t, Y, names) -> dict:
        """The observables of another code's trajectory (times ``t`` from 0, states ``Y``
        (len(names), len(t)) at bound ``values``), for ``nsfric verify``; ``{}`` where the
        case defines none."""


__all__ = ["ProblemFactory"]
