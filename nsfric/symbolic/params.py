"""Model parameters: a symbol's name, default value and allowed range.

Kept free of SymPy (a :class:`Param`'s ``symbol`` is any object with a ``name``), so a
model restored from the disk cache of derived numerics (:mod:`nsfric.symbolic.frozen`)
validates its parameters exactly as the symbolic :class:`~nsfric.symbolic.model.HybridModel`
does, without importing SymPy.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Param:
    """A model parameter with its default value and allowed range.

    ``lo``/``hi`` bound the value; ``lo_open``/``hi_open`` make the bound strict.
    """

    symbol: object  # a sympy Symbol (anything with a ``name``)
    default: float
    lo: float = -math.inf
    hi: float = math.inf
    lo_open: bool = False
    hi_open: bool = False
    doc: str = ""
    unit: str = ""

    @property
    def name(self) -> str:
        return self.symbol.name

    def range_text(self) -> str:
        left = "(" if (self.lo_open or self.lo == -math.inf) else "["
        right = ")" if (self.hi_open or self.hi == math.inf) else "]"
        lo = "-inf" if self.lo == -math.inf else f"{self.lo:g}"
        hi = "inf" if self.hi == math.inf else f"{self.hi:g}"
        return f"{left}{lo}, {hi}{right}"

    def validate(self, value) -> float:
        """Return ``value`` as float or raise ValueError naming the parameter and range
        (:func:`nsfric.arguments.number`: text, bools, None, complex and NaN refused)."""
        from ..arguments import number

        return number(value, f"parameter {self.name!r}", self.lo, self.hi, self.lo_open, self.hi_open)


def bind_values(params, overrides: dict | None, model_name: str) -> dict:
    """Validated values of ``params`` (defaults updated by ``overrides``).

    Raises ValueError for an unknown parameter name or a value out of range.
    """
    overrides = dict(overrides or {})
    values = {}
    for p in params:
        values[p.name] = p.validate(overrides.pop(p.name, p.default))
    if overrides:
        raise ValueError(
            f"unknown parameter(s) {sorted(overrides)} for model {model_name!r}; "
            f"allowed: {', '.join(p.name for p in params)}"
        )
    return values


def param_vector(params, values: dict) -> np.ndarray:
    """Parameter values ordered as ``params`` (the ``p`` of every derived function)."""
    return np.array([values[q.name] for q in params], dtype=float)


class ModelLookup:
    """Lookups by name shared by :class:`~nsfric.symbolic.model.HybridModel` and the
    :class:`~nsfric.symbolic.frozen.FrozenModel` restored from the disk cache (both have
    ``name``, ``states``, ``params``, ``regions`` and ``slidings``)."""

    @property
    def state_names(self) -> tuple:
        return tuple(s.name for s in self.states)

    @property
    def param_names(self) -> tuple:
        return tuple(p.name for p in self.params)

    def mode(self, name: str):
        for m in self.regions + self.slidings:
            if m.name == name:
                return m
        raise KeyError(name)

    def is_sliding(self, name: str) -> bool:
        return any(s.name == name for s in self.slidings)

    def sliding_on(self, surface: str):
        """The sliding mode on ``surface`` that its neighbouring regions enter (not a
        ``graze`` mode inside it, :meth:`graze_of`), or ``None``."""
        for s in self.slidings:
            if s.surface == surface and s.kind != "graze":
                return s
        return None

    def graze_of(self, cap: str, region: str):
        """The name of the ``graze`` mode inside the constrained mode ``cap`` towards
        ``region`` (:class:`~nsfric.symbolic.model.Sliding`), or ``None``."""
        for s in self.slidings:
            if s.kind == "graze" and s.plus == cap and s.minus == region:
                return s.name
        return None

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    def param_vector(self, values: dict):
        """Parameter values ordered as ``params`` (the ``p`` of every derived function)."""
        return param_vector(self.params, values)

    def bind(self, overrides: dict | None = None) -> dict:
        """Validated parameter values (defaults updated by ``overrides``).

        Raises ValueError for an unknown parameter name or a value out of range.
        """
        return bind_values(self.params, overrides, self.name)
