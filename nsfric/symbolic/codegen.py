"""One code-generation entry point: SymPy expressions -> fast numeric functions.

:func:`generate` lambdifies a list of expressions into ``f(y, p) -> ndarray`` with
common-subexpression elimination, the states ``y`` and parameters ``p`` passed at run
time (changing ``mu`` never regenerates code), and caches the result by a hash of the
expressions, the argument symbols and the backend (as PyDy's code generators and
PyBaMM's processed models do).  The generated source is also what the disk cache of
derived numerics stores (:mod:`nsfric.symbolic.numcache`).

Backends: ``"numpy"`` (vectorises over trailing axes of ``y``), ``"math"`` (scalar
only, lower call overhead) and ``"mpmath"`` (arbitrary precision; SymPy's printer).
``"numpy"`` and ``"math"`` print integer powers as products
(:mod:`nsfric.symbolic.printing`), so they and the compiled kernels round alike.

This is the package's only call of :func:`sympy.lambdify` (``tests/test_codegen_single_entry.py``
rejects any other): closed forms, a paper's formulas and symbolic checks ask
:func:`generate` with ``raw=True`` (the expression and arguments as ``lambdify`` takes
them, the function as it returns it) and, where their numbers were produced so,
``cse=False, products=False`` -- the very code ``lambdify(args, expr, backend)`` writes.
Generated functions are kept in a bounded :class:`~nsfric.memo.Memo` keyed by the
expressions, the arguments and the options.
"""
from __future__ import annotations

import sympy as sp

from ..memo import Memo
from .frozen import wrap
from .printing import PRINTERS, printer

BACKENDS = ("numpy", "math", "mpmath")
#: the generated functions, by expressions, arguments, backend and options
MEMO = Memo(1024, "nsfric.symbolic.codegen")


class _Stats:
    """``STATS["hits"]``, ``STATS["misses"]``: the counts of :data:`MEMO`."""

    def __getitem__(self, name):
        if name not in ("hits", "misses"):
            raise KeyError(name)
        return getattr(MEMO, name)


STATS = _Stats()


def _frozen(x):
    """``x`` hashable: sequences as tuples, matrices immutable (SymPy caches each node's
    hash, so hashing is linear in the expression DAG; ``srepr`` writes it out as a tree,
    which took minutes for the two-disc contact's guard rates)."""
    if isinstance(x, sp.MatrixBase):
        return sp.ImmutableMatrix(x)
    if isinstance(x, (list, tuple)):
        return tuple(_frozen(v) for v in x)
    return x


def _key(exprs, args, backend, cse, products, raw) -> tuple:
    """The cache key: the expressions themselves, the arguments, the backend and the options."""
    return _frozen(exprs), _frozen(args), backend, bool(cse), bool(products), bool(raw)


def generate(exprs, args, backend: str = "numpy", *, cse: bool = True, products: bool = True,
             raw: bool = False):
    """Return a cached callable evaluating ``exprs``: ``f(*arg_values) -> ndarray``.

    Parameters
    ----------
    exprs : sequence of sympy expressions
        With ``raw=True``: anything :func:`sympy.lambdify` takes (one expression, a
        list, a matrix).
    args : sequence of sequences of symbols, e.g. ``(states, params)``
        Each argument is unpacked positionally at call time.  With ``raw=True``: the
        arguments as :func:`sympy.lambdify` takes them (a symbol, or a sequence of
        symbols or names, each one positional argument).
    backend : {"numpy", "math", "mpmath"}
    cse : bool
        Common-subexpression elimination (default).  ``False`` writes each expression
        out in full, as ``lambdify`` does by default (the last bits may differ).
    products : bool
        Print integer powers as products (:mod:`nsfric.symbolic.printing`; default for
        ``"numpy"`` and ``"math"``); ``False``: SymPy's own printer of the backend.
        ``"mpmath"`` always prints with SymPy's.
    raw : bool
        Return the generated function as ``lambdify`` returns it (its output as the
        expressions are shaped) instead of wrapped to a float array.

    Returns
    -------
    callable
        Without ``raw``: the result has shape ``(len(exprs),) + broadcast shape of the
        inputs``, and the function carries ``exprs`` and ``args``.

    Raises
    ------
    ValueError
        For an unknown ``backend``, or ``backend="mpmath"`` without ``raw=True``.
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
    if backend == "mpmath" and not raw:
        raise ValueError("backend 'mpmath' returns mpmath numbers: pass raw=True")
    if not raw:
        exprs = [sp.sympify(e) for e in exprs]
    try:
        key = _key(exprs, args, backend, cse, products, raw)
        hash(key)
    except TypeError:  # unhashable expressions or arguments: generated, not remembered
        return _generate(exprs, args, backend, cse, products, raw)
    return MEMO.get(key, lambda: _generate(exprs, args, backend, cse, products, raw))


def _generate(exprs, args, backend, cse, products, raw):
    """The function of :func:`generate` (no memo)."""
    options = {}
    if cse:
        options["cse"] = True
    if products and backend in PRINTERS:
        options["printer"] = printer(backend)
    if raw:
        return sp.lambdify(args, exprs, backend, **options)
    raw = sp.lambdify([list(a) for a in args], exprs, modules=[backend], **options)
    n = len(exprs)
    fn = wrap(raw, backend, n)
    fn.exprs = exprs
    fn.args = args
    fn.__doc__ = (f"Generated ({backend}{', cse' if cse else ''}) from {n} expression(s); arguments "
                  + ", ".join("(" + ", ".join(str(s) for s in a) + ")" for a in args))
    return fn
