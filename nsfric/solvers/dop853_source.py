"""The source of one mode's compiled DOP853 module, and whether it is compiled on disk.

Imports no numba: the Filippov solver asks :func:`on_disk` before it decides to load
numba at all.  :func:`module_source` turns the code generation's right-hand side,
guards and guard rates of a mode into the module the compiled stepper
(:mod:`~nsfric.solvers.dop853_numba`) imports from the kernels cache folder
(:func:`~nsfric.symbolic.generated.load_source`).  Once that module and the stepper's
core are compiled (numba ``cache=True``), :func:`mark_on_disk` leaves a checksummed
entry beside it (:mod:`nsfric.cache_store`), keyed by the module's text, the bytes of
:mod:`~nsfric.solvers.dop853_core` and :mod:`~nsfric.solvers.dop853_search`, the
versions of numba and Python and ``$NUMBA_CACHE_DIR``; :func:`on_disk` reads it, so a later process knows, without
importing numba, that the compiled stepper costs it only numba's import and the cached
code's load, never a compilation.
"""
from __future__ import annotations

import ast
import hashlib
import inspect
import os

from ..memo import Identity, Memo
from ..symbolic.frozen import namespace_recipe

#: the cache entry kind of the on-disk markers
KIND = "dop853-compiled"
#: bump when the marker's specification changes
MARKER_FORMAT = 1


class NotCompilable(Exception):
    """The mode's functions cannot be compiled (no numba, no source, numba refuses)."""


def _spec(fn) -> dict:
    """``{src, name, ns}`` of a generated function (restored or fresh)."""
    raw = getattr(fn, "raw", None)
    spec = getattr(raw, "spec", None)
    if spec is not None:
        return spec
    try:
        src = inspect.getsource(raw)
    except (OSError, TypeError):
        raise NotCompilable("no source") from None
    ns = namespace_recipe(raw)
    if ns is None:
        raise NotCompilable("foreign globals")
    return {"src": src, "name": raw.__name__, "ns": ns}


def _positional_arguments(fdef) -> None:
    """Name the arguments of ``fdef`` by position (``_arg0``, ...): code generation
    names them after SymPy Dummies, numbered in the order a process made them, so the
    same function would otherwise have another text (and another numba cache entry)
    in each process.  Left as they are where a new name is taken."""
    old = [a.arg for a in fdef.args.args]
    new = [f"_arg{i}" for i in range(len(old))]
    names = {n.id for n in ast.walk(fdef) if isinstance(n, ast.Name)} | set(old)
    if fdef.args.vararg or fdef.args.kwarg or fdef.args.kwonlyargs or set(new) & (names - set(old)):
        return
    rename = dict(zip(old, new))
    for a in fdef.args.args:
        a.arg = rename[a.arg]
    for n in ast.walk(fdef):
        if isinstance(n, ast.Name) and n.id in rename:
            n.id = rename[n.id]


def _function(spec: dict, name: str) -> str:
    """The generated function renamed ``name``, its arguments named by position, its
    returned list made a tuple."""
    tree = ast.parse(spec["src"])
    fdefs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == spec["name"]]
    if len(fdefs) != 1:
        raise NotCompilable("unexpected source")
    fdef = fdefs[0]
    fdef.name = name
    fdef.decorator_list = []
    _positional_arguments(fdef)
    last = fdef.body[-1]
    if not (isinstance(last, ast.Return) and isinstance(last.value, ast.List)):
        raise NotCompilable("the function does not return a list")
    last.value = ast.Tuple(elts=last.value.elts, ctx=ast.Load())
    return f"@njit(cache=True, error_model={ERROR_MODEL!r})\n" + ast.unparse(fdef) + "\n"


#: numba's error model of a mode's compiled functions: NumPy's, as the generated NumPy
#: functions evaluate -- a division by zero or the root of a negative number gives inf or
#: nan, which the core reports as a non-finite field (and the solver treats as SciPy's
#: stepper does, e.g. a stall at a contact end where a law's rate has a pole).  Python's
#: model would raise ZeroDivisionError inside a function called through a first-class
#: function type, which numba can only print and ignore.
ERROR_MODEL = "numpy"
#: the signature of a compiled decision quantity ``value(y, p, a, e, out) -> all finite``
#: (:func:`decision_source`): five C-contiguous float arrays, as numba spells it
DECISION_SIGNATURE = "boolean(float64[::1], float64[::1], float64[::1], float64[::1], float64[::1])"


def _globals(specs) -> list:
    """Import lines binding the generated functions' globals (one meaning per name)."""
    seen = {}
    for spec in specs:
        for name, what in spec["ns"].items():
            if seen.setdefault(name, tuple(what)) != tuple(what):
                raise NotCompilable(f"global {name!r} differs between functions")
    lines = []
    for name, (kind, what) in sorted(seen.items()):
        if kind == "const":
            lines.append(f"{name} = {float(what)!r}")
        elif kind == "module":
            lines.append(f"import {what} as {name}")
        elif kind == "builtins":
            continue
        else:
            lines.append(f"from {kind} import {what} as {name}")
    return lines


def _field(kind: str, fname: str | None, n: int) -> str:
    """``kind(y, p, out)`` of :data:`~nsfric.solvers.dop853_core.FIELD_SIGNATURE`,
    calling the generated function ``fname`` (None: nothing)."""
    lines = [f"@njit(FIELD_SIGNATURE, cache=True, error_model={ERROR_MODEL!r})", f"def {kind}(y, p, out):"]
    if fname is None:
        lines.append("    pass")
    else:
        lines.append(f"    r = {fname}(y, p)")
        lines += [f"    out[{i}] = r[{i}]" for i in range(n)]
    return "\n".join(lines) + "\n"


def module_source(f, gfun, rfun) -> str:
    """The generated module of one mode: its right-hand side, guards and guard rates as
    compiled functions ``rhs``, ``guards``, ``rates`` (see module docstring)."""
    parts = ["# nsfric compiled DOP853 stepper: one mode's functions", "from numba import njit",
             "from nsfric.solvers.dop853_core import FIELD_SIGNATURE"]
    specs, fns = [], []
    for kind, fn in (("rhs", f), ("guards", gfun), ("rates", rfun)):
        if fn is None:
            fns.append((kind, None, 0))
            continue
        spec = _spec(fn)
        specs.append(spec)
        fns.append((kind, f"_{kind}_fn", int(fn.n)))
    parts += _globals(specs)
    parts += [_function(spec, fname) for (_, fname, _), spec in zip([x for x in fns if x[1]], specs)]
    parts += [_field(kind, fname, n) for kind, fname, n in fns]
    return "\n\n".join(parts)




def decision_source(fn) -> tuple:
    """The generated module of one decision quantity of the mode logic (an indicator
    ``sigma``, a second derivative ``sigma2``, the guards and their rates, the
    switching functions; each also in its one-sided form, which takes the look-ahead
    ``[dt]`` as third argument), and the exponents of its powers.

    The module holds the code generation's very function ``fn`` (see
    :func:`module_source`) behind ``value(y, p, a, e, out)``, compiled with
    ``cache=True`` to :data:`DECISION_SIGNATURE` (``a`` is passed on where ``fn`` takes
    three arguments, else unused; it returns whether every value is finite).  Each power ``x**k`` becomes ``_npow(x, e[i])`` with
    ``e`` the returned exponents, read at run time: :func:`math.pow`, the C library's
    ``pow`` -- what NumPy's scalar power computes (the mode logic evaluates the NumPy
    function on one state), where numba would multiply for ``x**2`` and LLVM divide for
    ``x**-1.0`` (``pow`` is not correctly rounded: the last bit differs, rarely).  A
    constant exponent would be folded; one read from an argument cannot be.  Raises
    :class:`NotCompilable`."""
    spec = _spec(fn)
    tree = ast.parse(spec["src"])
    fdefs = [x for x in tree.body if isinstance(x, ast.FunctionDef) and x.name == spec["name"]]
    if len(fdefs) != 1 or len(fdefs[0].args.args) not in (2, 3) or "_npow" in spec["src"]:
        raise NotCompilable("unexpected source")
    extra = ", a" if len(fdefs[0].args.args) == 3 else ""
    exponents = []

    class Powers(ast.NodeTransformer):
        def visit_BinOp(self, node):
            self.generic_visit(node)
            if not isinstance(node.op, ast.Pow):
                return node
            k = node.right
            if isinstance(k, ast.UnaryOp) and isinstance(k.op, ast.USub) and isinstance(k.operand, ast.Constant):
                k = ast.Constant(-k.operand.value)
            if isinstance(k, ast.Constant) and isinstance(k.value, (int, float)) and not isinstance(k.value, bool):
                exponents.append(float(k.value))
                k = ast.Subscript(ast.Name("_pow_exponents", ast.Load()), ast.Constant(len(exponents) - 1), ast.Load())
            return ast.Call(ast.Name("_npow", ast.Load()), [node.left, k], [])

    fdef = Powers().visit(fdefs[0])
    fdef.args.args.append(ast.arg("_pow_exponents"))
    src = ast.unparse(ast.fix_missing_locations(fdef)) + "\n"
    body = _function({**spec, "src": src}, "_value_fn")
    n = int(fn.n)
    lines = ["@njit(DECISION_SIGNATURE, cache=True, error_model=%r)" % ERROR_MODEL, "def value(y, p, a, e, out):",
             f"    r = _value_fn(y, p{extra}, e)"] + [f"    out[{i}] = r[{i}]" for i in range(n)]
    lines += ["    for i in range(out.size):", "        if not _math_module.isfinite(out[i]):", "            return False",
              "    return True"]
    npow = ("@njit(inline='always', error_model=%r)\ndef _npow(x, k):\n    return math.pow(x, k)\n" % ERROR_MODEL)
    parts = ["# nsfric compiled decision quantity of the mode logic", "import math as _math_module",
             "from numba import njit", "from nsfric.solvers.dop853_source import DECISION_SIGNATURE"]
    parts += _globals([spec]) + [npow.replace("math.pow", "_math_module.pow"), body, "\n".join(lines) + "\n"]
    return "\n\n".join(parts), tuple(exponents)


def mode_source(d, mode: str) -> str:
    """:func:`module_source` of ``mode`` of the derived model ``d`` (raises
    :class:`NotCompilable`)."""
    f = d.rhs(mode)
    guards, gfun = d.guards(mode)
    rfun = d.guard_rates(mode) if gfun is not None else None
    if gfun is not None and rfun is None:
        raise NotCompilable("guards without rates")
    return module_source(f, gfun, rfun)


def _core_digest() -> str:
    """SHA-256 of the sources of :mod:`~nsfric.solvers.dop853_core` and the guard search
    it calls, :mod:`~nsfric.solvers.dop853_search` (read, not imported: they import
    numba)."""
    digest = hashlib.sha256()
    for name in ("dop853_core.py", "dop853_search.py"):
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), name), "rb") as fh:
            digest.update(fh.read())
    return digest.hexdigest()


def _numba_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("numba")
    except PackageNotFoundError:
        return "none"


def _marker(source: str):
    """``(path, spec)`` of the on-disk marker of the module ``source``."""
    import platform

    from ..symbolic.generated import cache_dir

    digest = hashlib.sha256(source.encode()).hexdigest()
    spec = {"format": MARKER_FORMAT, "module": digest, "core": _core_digest(), "numba": _numba_version(),
            "python": f"{platform.python_implementation()} {platform.python_version()}",
            "numba_cache_dir": os.environ.get("NUMBA_CACHE_DIR", "")}
    return os.path.join(cache_dir(), f"nsfric_dop853_{digest[:24]}.compiled"), spec


def mark_on_disk(mod, source: str) -> bool:
    """Record that the module ``mod`` (imported from ``source``) and the core are
    compiled into numba's disk cache: only where the module sits in the kernels cache
    folder (numba caches beside it; a module of a private folder is gone at exit)."""
    from ..symbolic.generated import cache_dir

    folder = os.path.realpath(cache_dir())
    if os.path.dirname(os.path.realpath(getattr(mod, "__file__", "") or "")) != folder:
        return False
    from .. import cache_store

    path, spec = _marker(source)
    return cache_store.write(path, KIND, spec, {"compiled": True})


_ON_DISK = Memo(64, "nsfric.solvers.dop853_source.on_disk")


def marked(d, mode: str) -> bool:
    """Whether the marker of ``mode`` of ``d`` is on disk and of this setup (read now;
    see module docstring), without importing numba."""
    import importlib.util

    if importlib.util.find_spec("numba") is None:
        return False
    try:
        source = mode_source(d, mode)
    except NotCompilable:
        return False
    return source_marked(source)


def source_marked(source: str) -> bool:
    """Whether the marker of the generated module ``source`` (:func:`mark_on_disk`) is
    on disk and of this setup (read now)."""
    from .. import cache_store

    path, spec = _marker(source)
    return cache_store.read(path, KIND, spec, check=lambda data: data == {"compiled": True}) is not None


def on_disk(d, mode: str) -> bool:
    """:func:`marked`, decided once per process and mode (the Filippov solver's
    ``method="auto"`` asks it at every segment)."""
    return _ON_DISK.get((Identity(d), mode), lambda: marked(d, mode))
