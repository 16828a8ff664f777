"""Printers of generated code that round the same in every backend.

An integer power ``x**k`` prints, by SymPy's default, as ``x**k``: NumPy's array power
(SIMD ``pow``, whose last bits depend on the array's length and the CPU), the C
library's ``pow`` in the ``math`` backend, and a product in numba.  Three backends,
three results, differing in the last bit: a batch member's trajectory then depends on
the batch's size, and a compiled kernel cannot reproduce the NumPy run (Krengel &
Matuttis's rotating block, whose eq 21-22 rotational term brings ``y**3``).

:class:`ProductPowers` prints ``x**k`` for ``3 <= |k| <=`` :data:`MAX_PRODUCT` as the
explicit product ``(x*x*...*x)`` (its reciprocal for ``k < 0``), evaluated left to right
by every backend, so NumPy, ``math`` and numba give the same bits.  ``x**2`` keeps
SymPy's printing: NumPy squares, ``pow(x, 2)`` is the correctly rounded square, numba
multiplies -- the same value.  Exponents past :data:`MAX_PRODUCT` and non-integer ones
still print as powers; :func:`pow_exponents` lists those a caller cannot reproduce.
"""
from __future__ import annotations

import sympy as sp
from sympy.printing.numpy import NumPyPrinter
from sympy.printing.pycode import PythonCodePrinter

#: the largest ``|k|`` printed as a product
MAX_PRODUCT = 8


class ProductPowers:
    """Mixin of a SymPy code printer: integer powers as explicit products (module docstring)."""

    def _print_Pow(self, expr, rational=False):
        k = expr.exp
        if k.is_Integer and 3 <= abs(int(k)) <= MAX_PRODUCT:
            base = f"({self._print(expr.base)})" if not expr.base.is_Symbol else self._print(expr.base)
            prod = "(" + "*".join([base] * abs(int(k))) + ")"
            return prod if k > 0 else f"(1/{prod})"
        return super()._print_Pow(expr, rational=rational)


class NumPyProductPrinter(ProductPowers, NumPyPrinter):
    """The printer of ``lambdify(modules="numpy")`` with :class:`ProductPowers`."""


class MathProductPrinter(ProductPowers, PythonCodePrinter):
    """The printer of ``lambdify(modules="math")`` with :class:`ProductPowers`."""


PRINTERS = {"numpy": NumPyProductPrinter, "math": MathProductPrinter}


def printer(backend: str, fully_qualified: bool = False):
    """The printer ``lambdify(modules=[backend])`` would use, with :class:`ProductPowers`."""
    return PRINTERS[backend]({"fully_qualified_modules": fully_qualified, "inline": True,
                              "allow_unknown_functions": True, "user_functions": {}})


def pow_exponents(exprs) -> set:
    """The integer exponents ``k`` (``|k| >= 3``) in ``exprs`` that still print as a power
    (past :data:`MAX_PRODUCT`): the ones whose last bits differ between backends."""
    return {int(p.exp) for e in exprs for p in sp.sympify(e).atoms(sp.Pow)
            if p.exp.is_Integer and abs(int(p.exp)) > MAX_PRODUCT}
