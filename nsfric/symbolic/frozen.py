"""Derived numerics without SymPy: a model restored from its generated code.

:func:`~nsfric.symbolic.codegen.generate` turns SymPy expressions into Python source
(``lambdify`` with common subexpressions) and wraps the compiled function with
:func:`wrap`.  :mod:`nsfric.symbolic.numcache` stores that source on disk, with the
names it reads from NumPy, ``math`` or the builtins (:func:`namespace_recipe`), so a
later process compiles the very same source (:func:`load_function`) instead of
importing SymPy, building the model and deriving it again: equal code, equal numbers.

:class:`FrozenModel` stands for a :class:`~nsfric.symbolic.model.HybridModel` wherever a
reference solver reads it (names, parameters with their ranges, the modes' sign patterns
and kinds, the sliding modes' neighbours) and :class:`FrozenDerived` for its
:class:`~nsfric.symbolic.derive.DerivedModel` (right-hand sides, Jacobians, guards and
their rates, indicators, resets, outputs).  A function the cache entry lacks, and any
other attribute, comes from the symbolic model, built on first need (SymPy imported
then) and the new function is added to the entry.  Nothing here imports SymPy.
"""
from __future__ import annotations

import builtins
import importlib
import types

import numpy as np

from .params import ModelLookup, Param

#: modules whose attributes generated code may read (nothing else is restored)
MODULES = ("numpy", "math", "builtins")


def sinc(x, _sin=np.sin, _pi=np.pi, _eps=float(np.finfo(float).eps), _sinc=np.sinc):
    """:func:`numpy.sinc` (``sin(pi x)/(pi x)``): on one float its operations without
    NumPy's array machinery, about 10x cheaper and the same number (``pi x``, ``eps`` for
    a zero, NumPy's ``sin``; tested bit for bit); anything else ``numpy.sinc`` itself.
    Generated NumPy code reads it where it reads ``numpy.sinc`` (a switching function
    ``sinc`` is evaluated at every event of a saw-tooth law)."""
    if type(x) is float or type(x) is np.float64:
        y = _pi * x
        if not y:
            y = _eps
        return _sin(y) / y
    return _sinc(x)


#: cheaper stand-ins generated NumPy code reads in place of NumPy's functions (the same
#: numbers): ``{(module, name): function}``
FAST = {("numpy", "sinc"): sinc}


def _use_fast(raw):
    """Bind :data:`FAST`'s stand-ins in the globals of the generated function ``raw``
    (where a name is bound to the very NumPy function)."""
    g = raw.__globals__
    for (module, name), fast in FAST.items():
        if module == "numpy" and g.get(name) is getattr(np, name):
            g[name] = fast


def wrap(raw, backend: str, n: int):
    """The generated function ``raw`` returning a float array of shape ``(n,) + batch``.

    ``backend="math"``: scalars only; ``"numpy"``: outputs mixing scalars and arrays are
    broadcast, and outputs that are all constants (a guard of parameters only, e.g. the
    Filippov exits of a block pushed by a constant force) are broadcast to the batch of
    the inputs, so the shape is ``(n,) + batch`` whatever the expressions hold.  The
    result carries ``raw``, ``backend`` and ``n`` (what the disk cache stores with the
    source)."""
    if backend == "numpy" and getattr(raw, "__globals__", None) is not None:
        _use_fast(raw)
    if backend == "math":
        def fn(*vals, _raw=raw):
            return np.array(_raw(*vals), dtype=float)
    else:
        def fn(*vals, _raw=raw, _n=n):
            out = _raw(*vals)
            try:
                arr = np.array(out, dtype=float)
            except ValueError:  # mixed scalars and arrays: broadcast
                return np.array(np.broadcast_arrays(*out), dtype=float)
            if arr.ndim == 1 and vals and np.ndim(vals[0]) > 1:  # constants on a batch of states
                arr = np.array(np.broadcast_to(arr.reshape((_n,) + (1,) * (np.ndim(vals[0]) - 1)),
                                               (_n,) + _batch(vals)))
            return arr
    fn.raw, fn.backend, fn.n = raw, backend, n
    return fn


def _batch(vals) -> tuple:
    """The batch shape of generated code's arguments: their shapes beyond the first axis,
    broadcast (the states' own where the arguments do not broadcast)."""
    try:
        return np.broadcast_shapes(*(np.shape(v)[1:] for v in vals))
    except ValueError:
        return np.shape(vals[0])[1:]


class Reshaped:
    """``f(y, p)`` reshaped to ``shape`` (a Jacobian from its flat generated entries)."""

    def __init__(self, f, shape):
        self.f, self.shape = f, tuple(shape)

    def __call__(self, y, p):
        return self.f(y, p).reshape(self.shape)


class IterationMatrix(Reshaped):
    """``J(c, y, yp, lam, p)``: the generated ``f([c], y, yp, lam, p)`` reshaped to
    ``shape`` (a DAE residual's iteration matrix ``dF/dY + c dF/dY'``)."""

    def __call__(self, c, y, yp, lam, p):
        return self.f([c], y, yp, lam, p).reshape(self.shape)


def _code_names(code) -> set:
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names |= _code_names(c)
    return names


def namespace_recipe(raw) -> dict | None:
    """``{name: [module, attribute]}`` (or ``["const", value]``) of every global the
    generated function ``raw`` reads, each checked to be that very object; ``None`` when
    one is anything else (a Python callable of an ``implemented_function``): such code
    cannot be restored from its source and is not cached."""
    g = raw.__globals__
    out = {}
    for name in sorted(_code_names(raw.__code__)):
        obj = g[name] if name in g else getattr(builtins, name, None)
        if isinstance(obj, float) and not isinstance(obj, bool):
            out[name] = ["const", obj]
            continue
        if isinstance(obj, types.ModuleType) and obj.__name__ in MODULES:
            out[name] = ["module", obj.__name__]
            continue
        stand_in = [list(key) for key, fast in FAST.items() if fast is obj]
        if stand_in:
            out[name] = stand_in[0]
            continue
        for mod in MODULES:
            if getattr(importlib.import_module(mod), name, None) is obj and obj is not None:
                out[name] = [mod, name]
                break
        else:
            return None
    return out


def compile_function(spec: dict):
    """The function of a stored ``spec`` (``src``, ``name``, ``ns``): the source compiled
    in a namespace holding exactly the recorded globals.

    Raises ValueError (or the compiler's error) for a malformed spec."""
    ns = {"__builtins__": builtins}
    for name, (kind, what) in spec["ns"].items():
        if kind == "const":
            ns[name] = float(what)
        elif kind == "module" and what in MODULES:
            ns[name] = importlib.import_module(what)
        elif kind in MODULES:
            ns[name] = FAST.get((kind, what)) or getattr(importlib.import_module(kind), what)
        else:
            raise ValueError(f"unknown global {name!r}: {kind!r}")
    exec(compile(spec["src"], f"<nsfric-cached-{spec['name']}>", "exec"), ns)
    raw = ns[spec["name"]]
    if not isinstance(raw, types.FunctionType):
        raise ValueError(f"{spec['name']!r} is not a function")
    raw.spec = spec  # its source, for compiled callers (nsfric.solvers.dop853_numba)
    return raw


def load_function(spec: dict):
    """:func:`compile_function` wrapped by :func:`wrap` with the spec's ``backend`` and ``n``."""
    if spec["backend"] not in ("numpy", "math"):
        raise ValueError(f"unknown backend {spec['backend']!r}")
    return wrap(compile_function(spec), spec["backend"], int(spec["n"]))


def region_at(regions, names, values, override: dict | None = None, tol: float = 0.0):
    """Name of the first of ``regions`` (each with ``name`` and ``signs``) whose sign
    pattern holds for the switching ``values`` (ordered as ``names``), with ``override``
    forcing the sign of some switching functions; ``None`` if none does."""
    vals = dict(zip(names, values))
    for r in regions:
        ok = True
        for hname, sgn in r.signs.items():
            if override and hname in override:
                ok &= override[hname] == sgn
            else:
                ok &= sgn * vals[hname] > -tol
        if ok:
            return r.name
    return None


class _Name(str):
    """A state's name standing for its symbol (``.name`` is the string itself)."""

    @property
    def name(self) -> str:
        return str(self)


def model_record(model) -> dict:
    """What :class:`FrozenModel` restores of a :class:`~nsfric.symbolic.model.HybridModel`
    (plain JSON data)."""
    return {
        "name": model.name, "reference": model.reference, "states": list(model.state_names),
        "params": [{"name": q.name, "default": float(q.default), "lo": float(q.lo), "hi": float(q.hi),
                    "lo_open": bool(q.lo_open), "hi_open": bool(q.hi_open), "doc": str(q.doc), "unit": str(q.unit)}
                   for q in model.params],
        "switching": list(model.switching), "output_names": list(model.output_names),
        "regions": [{"name": r.name, "signs": dict(r.signs), "kind": r.kind, "reset": [str(s) for s in r.reset]}
                    for r in model.regions],
        "slidings": [{"name": s.name, "surface": s.surface, "kind": s.kind, "algebraic": str(s.algebraic),
                      "plus": s.plus, "minus": s.minus, "entry_kind": s.entry_kind, "exits": s.exits}
                     for s in model.slidings],
    }


class FrozenModel(ModelLookup):
    """A :class:`~nsfric.symbolic.model.HybridModel` as a reference solver reads it,
    restored from a cache entry (:mod:`nsfric.symbolic.numcache`) without SymPy.

    ``symbolic`` is a callable building the real model (picklable: a pickled FrozenModel
    is the symbolic model in the other process); it is called (once) for anything the
    entry does not hold, an attribute not restored here or a derived function not yet
    cached, unless ``model`` is given.  The entry then gains that function."""

    #: the symbolic model's capabilities (a hybrid model: restored from the cache only as one)
    supports = frozenset({"hybrid"})

    def __init__(self, entry, symbolic, model=None):
        self.entry, self._build, self._model = entry, symbolic, model
        rec = entry.model
        self.name, self.reference = rec["name"], rec["reference"]
        self.states = tuple(_Name(s) for s in rec["states"])
        self.params = tuple(Param(_Name(q.pop("name")), **q) for q in (dict(q) for q in rec["params"]))
        self.output_names = tuple(rec["output_names"])
        self.switching_names = tuple(rec["switching"])
        if model is not None:  # the symbolic model at hand: its own modes (with their fields and outputs)
            self.regions, self.slidings = tuple(model.regions), tuple(model.slidings)
        else:
            self.regions = tuple(types.SimpleNamespace(**r) for r in rec["regions"])
            self.slidings = tuple(types.SimpleNamespace(**s) for s in rec["slidings"])
        self.mode_names = tuple(m.name for m in self.regions + self.slidings)
        self._derived = {}

    @property
    def symbolic(self):
        """The symbolic model (built on first use: imports SymPy)."""
        if self._model is None:
            self._model = self._build()
        return self._model

    def __getattr__(self, name):  # anything not restored: the symbolic model's
        if name.startswith("_") or name in ("entry", "symbolic"):
            raise AttributeError(name)
        return getattr(self.symbolic, name)

    def __reduce__(self):  # a worker process rebuilds the symbolic model
        return _symbolic, (self._build,)

    def derived(self, backend: str = "numpy"):
        if backend != self.entry.backend:
            return self.symbolic.derived(backend)
        if backend not in self._derived:
            self._derived[backend] = FrozenDerived(self)
        return self._derived[backend]


def _symbolic(build):
    return build()


class FrozenDerived:
    """The derived numerics of a :class:`FrozenModel`: each function compiled from the
    cache entry, or derived from the symbolic model and added to the entry (see module
    docstring).  Any other attribute is the symbolic :class:`DerivedModel`'s."""

    def __init__(self, model: FrozenModel):
        self.model, self.entry, self.backend = model, model.entry, model.entry.backend
        self._fns = {}

    def __getattr__(self, name):
        if name.startswith("_") or name in ("model", "entry", "backend"):
            raise AttributeError(name)
        return getattr(self.model.symbolic.derived(self.backend), name)

    @property
    def n(self) -> int:
        """The number of states."""
        return len(self.model.states)

    def _get(self, key: tuple, make):
        """The function stored as ``key`` (a tuple of names), from memory, the entry, or
        ``make(derived)`` on the symbolic derivation (then stored)."""
        if key not in self._fns:
            found, value = self.entry.get(key)
            if not found:
                value = make(self.model.symbolic.derived(self.backend))
                self.entry.put(key, value)
            self._fns[key] = value
        return self._fns[key]

    @property
    def h(self):
        return self._get(("h",), lambda d: d.h)

    def switching_values(self, y, p):
        return self.h[1](y, p)

    def region_at(self, y, p, override: dict | None = None, tol: float = 0.0):
        names, f = self.h
        return region_at(self.model.regions, names, f(y, p), override, tol)


def _cached(name: str):
    def method(self, *key):
        return self._get((name,) + key, lambda d: getattr(d, name)(*key))
    method.__name__ = name
    method.__doc__ = f"``DerivedModel.{name}``, from the cache entry where it holds it."
    return method


#: the derived functions a reference solver asks for, each cached under ``(name, *arguments)``
CACHED = ("rhs", "jac", "guards", "guard_rates", "kink_values", "one_sided", "sigma", "sigma2", "reset",
          "region_reset", "outputs", "residual", "residual_jacobian")
for _name in CACHED:
    setattr(FrozenDerived, _name, _cached(_name))


__all__ = ["CACHED", "FAST", "FrozenDerived", "FrozenModel", "IterationMatrix", "Reshaped", "compile_function", "load_function", "model_record",
           "namespace_recipe", "region_at", "wrap"]
