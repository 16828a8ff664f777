"""Fixed-step discrete schemes, as DEM codes run them, with the laws' per-step adjustments.

``SCHEMES`` maps a name to a scheme object (attribute ``order``); :func:`simulate` runs
one on a case.  Registered: ``euler``, ``symplectic-euler``, ``velocity-verlet``,
``midpoint``, ``heun``, ``rk4``, ``gear5``, ``bdf2``, ``implicit-euler``, the explicit
predictor-corrector BDFs ``bdf2-pc``, ``bdf5-pc``, for each an event-aware variant
``NAME-event`` that lands a step on every mode transition, and the delta family
``delta-NAME`` (NAME plus the delta approximation of Krengel & Matuttis as its per-step
adjustment).  ``ALIASES`` holds other labels of registered schemes (K-M's
``delta-bdf2`` = ``delta-bdf2-pc``).
"""
from .base import (ALIASES, SCHEMES, STEPPERS, Scheme, get_scheme, get_stepper, register_alias, register_scheme,
                   register_stepper, simulate)
from .field import DiscreteField, FrozenField, partition
from . import rk, partitioned, gear, implicit  # noqa: F401  (register, in this order)
from .rk import ExplicitRK
from .events import EventAware, register_event_variants

_ORDER = ("euler", "symplectic-euler", "velocity-verlet", "midpoint", "heun", "rk4", "gear5",
          "bdf2", "implicit-euler")
_plain = {n: SCHEMES.pop(n) for n in _ORDER}
_plain.update(SCHEMES)  # any other registered scheme after the canonical ones
SCHEMES.clear()
SCHEMES.update(_plain)
register_event_variants()
#: the plain fixed-step schemes of DEM codes, and their event-aware variants
CORE_SCHEMES = _ORDER
EVENT_SCHEMES = tuple(f"{n}-event" for n in _ORDER)
from . import delta  # noqa: E402,F401  (registers the delta-approximation family of Krengel & Matuttis)
from .base import EVENT_VARIANTS  # noqa: E402

EVENT_VARIANTS["auto"] = True  # a scheme registered from now on gets its NAME-event variant

SCHEMES.installed()  # from now on, the first read loads the installed plug-ins (nsfric.schemes)

__all__ = ["SCHEMES", "ALIASES", "register_alias", "CORE_SCHEMES", "EVENT_SCHEMES", "Scheme", "ExplicitRK",
           "EventAware", "get_scheme", "register_scheme", "simulate", "STEPPERS", "register_stepper", "get_stepper", "DiscreteField",
           "FrozenField", "partition"]
