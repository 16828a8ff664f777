"""Reference solvers (event-driven Filippov, Assimulo DAE, closed forms) and the Solution type."""
from .base import REFERENCE_SOLVERS, Problem, ReferenceSolver, get_solver, register
from ..errors import ZenoError
from ..solution import Event, Segment, Solution
from . import filippov, dae, analytic  # noqa: F401  (register)

__all__ = ["REFERENCE_SOLVERS", "Problem", "ReferenceSolver", "get_solver", "register",
           "Event", "Segment", "Solution", "ZenoError"]
