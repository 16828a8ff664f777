"""The case contract (:class:`Case`), its registry :data:`CASES` and the verdict contract.

The cases themselves are plug-ins (entry-point group ``nsfric.cases``; the papers' cases
live in :mod:`nsfric.papers`): :func:`get_case` loads only the one it names, any full read
of :data:`CASES` all of them, so ``nsfric reference CASE`` loads only that case's laws.
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
