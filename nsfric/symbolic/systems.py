"""Model builders: a registry of cached ``builder(law) -> HybridModel`` functions, one per
mechanical system, and helpers derived from a system's mechanics.

A paper package registers its systems with :func:`system`; the symbolic checks use the
same models (:func:`all_models`, after every paper plug-in's ``systems`` are loaded) without
reaching up to the cases.
"""
from __future__ import annotations

from functools import lru_cache

import sympy as sp

from ..plugins import PAPERS

#: system name -> (builder, laws), filled by :func:`system`
SYSTEMS: dict = {}


def system(name, laws):
    """Register a cached model builder ``builder(law) -> HybridModel`` as ``name``."""
    def deco(fn):
        cached = lru_cache(maxsize=64)(fn)  # a model per law: far more than a system has

        def build(law: str):
            if law not in laws:
                raise ValueError(f"unknown law {law!r} for {name!r}; choose one of {list(laws)}")
            return cached(law)

        build.__doc__ = fn.__doc__
        build.__name__ = fn.__name__
        build.__module__ = fn.__module__
        SYSTEMS[name] = (build, tuple(laws))
        return build
    return deco


def model(name: str, law: str):
    """The model of system ``name`` with ``law`` (every paper plug-in's systems loaded)."""
    if name not in SYSTEMS:
        _load_papers()
    try:
        build, _ = SYSTEMS[name]
    except KeyError:
        raise ValueError(f"unknown system {name!r}; choose one of {sorted(SYSTEMS)}") from None
    return build(law)


def _load_papers():
    for paper in PAPERS.values():
        paper.load("systems")


def all_models():
    """``[(label, model)]`` for every law of every system of every installed paper."""
    _load_papers()
    return [(f"{n}/{law}", b(law)) for n, (b, laws) in SYSTEMS.items() for law in laws]


def effective_mass(kin):
    """Reduced tangential mass of ``kin``'s contact, derived from its mechanics:
    ``1/m_eff,tan = d(dv_t/dt)/dF_t`` (eq 21 for a rigid body: ``1/m + r_perp^2/I``)."""
    F_t = sp.Symbol("F_t", real=True)
    r = kin.rates(F_t, 0)
    vt = kin.tangential_velocity
    return sp.simplify(1 / sum(sp.diff(vt, s) * sp.diff(r[s], F_t) for s in kin.states))
