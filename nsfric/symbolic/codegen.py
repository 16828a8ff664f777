"""One code-generation entry point: SymPy expressions -> fast numeric functions.

:func:`generate` lambdifies a list of expressions into ``f(y, p) -> ndarray`` with
common-subexpression elimination, the states ``y`` and parameters ``p`` passed at run
time (changing ``mu`` never regenerates code), and caches the result by a hash of the
expressions, the argument symbols and the backend (as PyDy's code generators and
PyBaMM's processed models do).  The generated source is also what the disk cache of
derived numerics stores (:mod:`nsfric.symbolic.numcache`).

Backends: ``"numpy"`` (vectorises over trailing axes of ``y``) and ``"math"`` (scalar
only, lower call overhead).  Both print integer powers as products
(:mod:`nsfric.symbolic.printing`), so they and the compiled kernels round alike.
"""
from __future__ import annotations

import sympy as sp

from .frozen import wrap
from .printing import printer

BACKENDS = ("numpy", "math")
_CACHE: dict = {}
STATS = {"hits": 0, "misses": 0}


def _key(exprs, args, backend) -> tuple:
    """The cache key: the expressions themselves (SymPy caches each node's hash, so
    hashing is linear in the expression DAG; ``srepr`` writes it out as a tree, which
    took minutes for the two-disc contact's guard rates), the arguments and the backend."""
    return tuple(exprs), tuple(tuple(a) for a in args), backend


def generate(exprs, args, backend: str = "numpy"):
    """Return a cached callable ``f(*arg_values) -> ndarray`` evaluating ``exprs``.

    Parameters
    ----------
    exprs : sequence of sympy expressions
    args : sequence of sequences of symbols, e.g. ``(states, params)``; each
        argument is unpacked positionally at call time.
    backend : "numpy" or "math"

    The result has shape ``(len(exprs),) + broadcast shape of the inputs``.
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
    exprs = [sp.sympify(e) for e in exprs]
    key = _key(exprs, args, backend)
    fn = _CACHE.get(key)
    if fn is not None:
        STATS["hits"] += 1
        return fn
    STATS["misses"] += 1
    raw = sp.lambdify([list(a) for a in args], exprs, modules=[backend], cse=True,
                      printer=printer(backend))
    n = len(exprs)
    fn = wrap(raw, backend, n)
    fn.exprs = exprs
    fn.args = args
    fn.__doc__ = (f"Generated ({backend}, cse) from {n} expression(s); arguments "
                  + ", ".join("(" + ", ".join(str(s) for s in a) + ")" for a in args))
    _CACHE[key] = fn
    return fn
