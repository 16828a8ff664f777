"""Reference solvers (event-driven Filippov, Assimulo DAE, closed forms) and the Solution type."""
from .base import REFERENCE_SOLVERS, Problem, ReferenceSolver, get_solver, register
from ..errors import ZenoError
from ..solution import Event, Segment, Solution

_SUBMODULES = ("analytic", "contact_network", "crosscheck", "dae", "filippov", "guard_search", "loop", "contacts",
               "contacts_dae", "contact_modes", "switching")


def __getattr__(name):
    """A submodule, imported on first use: the solvers register when first asked for
    (:data:`REFERENCE_SOLVERS`, :func:`get_solver`), so importing this package loads
    neither SciPy's integrators nor SymPy nor Assimulo."""
    if name in _SUBMODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["REFERENCE_SOLVERS", "Problem", "ReferenceSolver", "get_solver", "register",
           "Event", "Segment", "Solution", "ZenoError"]
