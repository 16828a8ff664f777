"""The decision quantities of the mode logic compiled with numba.

At every event :class:`~nsfric.solvers.switching.ModeLogic` evaluates the indicators
``sigma = grad h . f`` of the surface's two regions, their second derivatives
``d2h/dt2`` (Piiroinen & Kuznetsov's tangency test), the switching functions, and the
guards and guard rates of the mode it settles in -- each a function the code generation
made (:func:`~nsfric.symbolic.codegen.generate`, or restored from the disk cache by
:class:`~nsfric.symbolic.frozen.FrozenModel`).  On one state those NumPy functions cost
tens of microseconds (NumPy scalars); here the very same source is compiled by numba
(:func:`~nsfric.solvers.dop853_source.decision_source`, a module of the kernels cache
folder with ``cache=True``, so a later process loads it without compiling) and called
through its one compiled overload, without numba's typing of the arguments: about a
microsecond.  The same operations in the same order on the same doubles give the same
numbers (tested bit for bit against the NumPy functions on the events of several
references).  Importing this module without numba raises ImportError; a function numba
cannot compile raises :class:`~nsfric.solvers.dop853_source.NotCompilable` (the mode
logic then keeps the NumPy function).
"""
from __future__ import annotations

import numpy as np
import numba  # noqa: F401  (no numba: ImportError)

from ..memo import Memo
from ..symbolic.generated import load_source, remembered_once
from .dop853_source import NotCompilable, decision_source, mark_on_disk

_MODULES = Memo(512, "nsfric.solvers.decision_numba")


class Decision:
    """One compiled decision quantity: ``f(y, p, a) -> ndarray`` of its ``n`` values (None
    where one is not finite), with
    ``y``, ``p`` and ``a`` (the look-ahead ``[dt]`` of a one-sided quantity, else any)
    C-contiguous float64 arrays -- the compiled overload takes exactly those; ``e`` the
    exponents of its powers (:func:`~nsfric.solvers.dop853_source.decision_source`)."""

    __slots__ = ("entry", "n", "e")

    def __init__(self, entry, n: int, exponents):
        self.entry, self.n, self.e = entry, n, np.array(exponents, dtype=float)

    def __call__(self, y, p, a):
        """The values, or None where one is not finite (the NumPy function then says why,
        with its warnings: a solve reports them)."""
        out = np.empty(self.n)
        return out if self.entry(y, p, a, self.e, out) else None


def compiled(d, key: tuple, fn) -> Decision:
    """The compiled form of the generated function ``fn``, stored as ``key`` (a tuple of
    names, :data:`~nsfric.symbolic.frozen.CACHED`) of the derived model ``d``: built once
    per process (numba's disk cache across processes).  Raises :class:`NotCompilable`."""
    return remembered_once(_MODULES, key, d, lambda: _build(fn), NotCompilable)


def _build(fn) -> Decision:
    source, exponents = decision_source(fn)
    try:
        mod = load_source(source, "decision")  # compiled on import: its signature is declared
        (sig,) = mod.value.signatures
        entry = mod.value.overloads[sig].entry_point
    except Exception as e:  # numba's typing and lowering errors
        raise NotCompilable(f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}") from e
    mark_on_disk(mod, source)
    return Decision(entry, int(fn.n), exponents)
