"""Published systems, one module each; see :data:`CASES`."""
from .base import CASES, Case, get_case, register_case
from . import sliding_plates, dry_oscillator, normal_impact  # noqa: F401  (register)

__all__ = ["CASES", "Case", "get_case", "register_case"]
