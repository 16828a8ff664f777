"""Which decision quantities of the mode logic run compiled, decided per solve.

:class:`CompiledDecisions` hands :class:`~nsfric.solvers.switching.ModeLogic` the
compiled form (:mod:`~nsfric.solvers.decision_numba`) of a generated function where it
pays, else None (the NumPy function is evaluated): only once numba is loaded in the
process (the compiled stepper loads it; nothing here does), and then where an earlier
process left the function compiled on disk (its marker,
:func:`~nsfric.solvers.dop853_source.source_marked`: loading costs no compilation) or
once the solve has asked for it :data:`COMPILE_AFTER` times.  The two forms give the
same numbers (tested bit for bit), so the choice changes the time only.
"""
from __future__ import annotations

import sys

from ..memo import Identity, Memo
from .dop853_source import NotCompilable

#: evaluations of one decision quantity in one solve after which it is compiled though
#: not on disk: compiling one costs about 0.3-1 s of CPU, the NumPy form on one state
#: 10-70 us, the compiled one about 1 us
COMPILE_AFTER = 2000
_MISSING = object()
_ON_DISK = Memo(512, "nsfric.solvers.decisions.on_disk")


def on_disk(d, key: tuple, fn) -> bool:
    """Whether the compiled decision quantity ``key`` of ``d`` (the function ``fn``) is
    on disk, decided once per process and quantity."""
    def read():
        from .dop853_source import decision_source, source_marked

        try:
            return source_marked(decision_source(fn)[0])
        except NotCompilable:
            return False
    return _ON_DISK.get((Identity(d), key), read)


class CompiledDecisions:
    """``compiled(key, fn)``: the compiled form of ``fn`` (the derived function stored as
    ``key``) for one solve of the derived model ``d``, or None (see module docstring)."""

    def __init__(self, d):
        self.d = d
        self.found, self.calls, self.disk = {}, {}, {}

    def __call__(self, key: tuple, fn):
        c = self.found.get(key, _MISSING)
        if c is not _MISSING:
            return c
        if "numba" not in sys.modules:
            return None
        n = self.calls[key] = self.calls.get(key, 0) + 1
        if n <= COMPILE_AFTER:
            disk = self.disk.get(key)
            if disk is None:
                disk = self.disk[key] = on_disk(self.d, key, fn)
            if not disk:
                return None
        try:
            from . import decision_numba

            c = decision_numba.compiled(self.d, key, fn)
        except (ImportError, NotCompilable):
            c = None
        self.found[key] = c
        return c
