"""Published systems, one module each; see :data:`CASES`.

The case modules are imported on first use (:func:`get_case` imports the one it names,
any read of :data:`CASES` all of them), so ``nsfric reference CASE`` loads only that
case's laws.
"""
import importlib

from .base import CASES, Case, converge, get_case, register_case, simulate, sweep, verify

__all__ = ["CASES", "Case", "converge", "get_case", "register_case", "simulate", "sweep", "verify"]


def __getattr__(name):
    """A module of this package, imported on first use."""
    if not name.startswith("__"):
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{name}":
                raise
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
