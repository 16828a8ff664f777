"""Scalar code from SymPy expressions, for compiled (numba) loops, and a disk cache of it.

:func:`generate` (:mod:`nsfric.symbolic.codegen`) turns expressions into NumPy
functions called once per evaluation.  A compiled step loop instead wants the
expressions as small scalar functions the loop calls (and the compiler inlines):
:func:`function_source` prints a list of expressions exactly as ``generate`` does
(``sympy.cse`` with its defaults, the NumPy printer, the symbols' own names), so the
compiled loop performs the same floating-point operations in the same order.  Nothing
is restated by hand: every line is printed from the derived expressions.

:func:`load_source` writes a generated module to the user cache directory
(``$NSFRIC_CACHE_DIR``, else ``$XDG_CACHE_HOME/nsfric``, else ``~/.cache/nsfric``) under
the hash of its text and imports it, so numba's ``cache=True`` (which keys compiled
code by the source file) lets a second process skip compilation.  Writes are atomic
(a temporary file renamed into place), so concurrent writers are safe, and a file
whose text does not match its hash is rewritten, never trusted.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile

import keyword

#: bump when the generated code's shape changes (part of every key)
VERSION = "2"


def cache_dir() -> str:
    """The directory of generated kernels (created on first use)."""
    from ..io import cache_dir as user_cache

    path = user_cache("kernels")
    os.makedirs(path, exist_ok=True)
    return path


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


_MODULES: dict = {}


def load_source(source: str, stem: str = "kernel"):
    """Import the generated module ``source`` from the cache directory (see module
    docstring); one import per process and text."""
    digest = hashlib.sha256(source.encode()).hexdigest()[:24]
    name = f"nsfric_{stem}_{digest}"
    mod = _MODULES.get(name)
    if mod is not None:
        return mod
    path = os.path.join(cache_dir(), name + ".py")
    try:
        with open(path, encoding="utf-8") as fh:
            ok = fh.read() == source
    except (OSError, UnicodeDecodeError):
        ok = False
    if not ok:  # missing or corrupt: (re)write atomically
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(source)
        os.replace(tmp, path)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    _MODULES[name] = mod
    return mod
