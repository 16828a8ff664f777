"""Published systems, one module each; see :data:`CASES`."""
from .base import CASES, Case, converge, get_case, register_case, simulate, sweep
from . import sliding_plates, sliding_plates_2d, dry_oscillator, normal_impact  # noqa: F401  (register)
from . import slope_block, slope_block_rotating  # noqa: F401,E402  (register)
from . import kuhn_contact  # noqa: F401,E402  (register)
from . import column_detachment  # noqa: F401,E402  (register)
from . import oblique_impact  # noqa: F401,E402  (register)
from . import km_heap  # noqa: F401,E402  (register)
from . import km_pile  # noqa: F401,E402  (register)

__all__ = ["CASES", "Case", "converge", "get_case", "register_case", "simulate", "sweep"]
