"""Scalar code from SymPy expressions, for compiled (numba) loops, and a disk cache of it.

:func:`generate` (:mod:`nsfric.symbolic.codegen`) turns expressions into NumPy
functions called once per evaluation.  A compiled step loop instead wants the
expressions as small scalar functions the loop calls (and the compiler inlines):
:func:`function_source` prints a list of expressions exactly as ``generate`` does
(``sympy.cse`` with its defaults, the NumPy printer, the symbols' own names), so the
compiled loop performs the same floating-point operations in the same order.  Nothing
is restated by hand: every line is printed from the derived expressions.

:func:`load_source` (:mod:`nsfric.symbolic.generated`, re-exported here) imports a
generated module from the user cache directory, so numba's ``cache=True`` works.
"""
from __future__ import annotations

import hashlib
import keyword
import os

from .generated import cache_dir, load_source  # noqa: F401  (re-exported)

#: bump when the generated code's shape changes (part of every key)
VERSION = "2"


def _printer():
    from .printing import printer

    # the printer of codegen.generate's NumPy backend, with qualified names for a module file
    return printer("numpy", fully_qualified=True)


def identifier(sym) -> str:
    """The local variable name of a state or parameter symbol (its own name, as lambdify
    prints it); ValueError when the name is no Python identifier."""
    name = str(sym)
    if not name.isidentifier() or keyword.iskeyword(name) or name in ("numpy", "math", "numba"):
        raise ValueError(f"symbol {name!r} cannot be a local variable of generated code")
    return name


def function_source(fname: str, exprs, args) -> str:
    """Source of ``def fname(*args): ... return (e_0, e_1, ...)`` evaluating ``exprs``.

    ``args`` are symbols, passed as scalars under their own names.  The body is what
    :func:`~nsfric.symbolic.codegen.generate` lambdifies for the same expressions
    (``sympy.cse`` with its defaults, the NumPy printer), so a compiled caller performs
    the same floating-point operations in the same order.
    """
    body = block_lines(exprs, args, None, ["_out"], "    ")
    head = f"def {fname}({', '.join(identifier(a) for a in args)}):"
    return "\n".join([head] + body + ["    return _out"]) + "\n"


def block_lines(exprs, args, values, outs, indent="") -> list:
    """The body of :func:`function_source` as lines to paste into a caller: the symbols
    ``args`` bound to the code ``values`` (None: already bound), the common
    subexpressions, then ``outs`` (names, or one name for the whole tuple) assigned."""
    pre, _, lines = hoisted_block_lines(exprs, args, values, outs, (), indent)
    return pre + lines


def hoisted_block_lines(exprs, args, values, outs, invariant, indent=""):
    """:func:`block_lines` with the common subexpressions of the ``invariant`` symbols
    alone taken out: ``(pre, names, lines)``, ``pre`` the binding of ``args`` and those
    subexpressions, ``names`` their symbols, ``lines`` the rest (reading them by name).
    The same code, so the same values: a caller computes ``pre`` once per member."""
    import sympy as sp

    exprs = [sp.sympify(e) for e in exprs]
    printer = _printer()
    subs, reduced = sp.cse(exprs)
    pre = [f"{identifier(a)} = {v}" for a, v in zip(args, values)] if values is not None else []
    known, names, lines = set(invariant), [], []
    for sym, e in subs:
        if known and e.free_symbols <= known:
            known.add(sym)
            names.append(str(sym))
            pre.append(f"{sym} = {printer.doprint(e)}")
        else:
            lines.append(f"{sym} = {printer.doprint(e)}")
    vals = [f"float({printer.doprint(sp.sympify(e))})" for e in reduced]
    if len(outs) == 1 and len(vals) != 1 or outs == ["_out"]:
        lines.append(f"{outs[0]} = ({', '.join(vals)},)")
    else:
        lines += [f"{o} = {v}" for o, v in zip(outs, vals)]
    return [indent + x for x in pre], names, [indent + x for x in lines]


def source_key(*parts) -> str:
    """A content hash of ``parts`` (their ``repr``) and :data:`VERSION`."""
    text = repr((VERSION,) + parts)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


#: the line of a loop template after which its text is the generated module's loop
MARKER = "# ---- loop ----"


def loop_template(name: str, near: str) -> str:
    """The hand-written loop of a generated module: the text after :data:`MARKER` of the
    template file ``name`` in the folder of the module file ``near`` (the part before the
    marker documents it; e.g. ``km_heap_loop.py``, ``corner_kernel_loop.py``)."""
    with open(os.path.join(os.path.dirname(os.path.abspath(near)), name), encoding="utf-8") as fh:
        return fh.read().split(MARKER, 1)[1]
