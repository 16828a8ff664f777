"""The grid of a parameter sweep: named axes of values, and their text syntax.

One axis is written ``NAME=VALUES`` (``nsfric sweep --grid``), ``VALUES`` one of

* ``V1,V2,...`` -- a list (numbers; words for the ``law`` and ``scheme`` axes);
* ``START:STOP:NUM`` -- ``NUM`` evenly spaced numbers from ``START`` to ``STOP``, both
  included (:func:`numpy.linspace`);
* ``logspace:A:B:NUM`` -- ``NUM`` numbers from ``10**A`` to ``10**B``, evenly spaced in
  the logarithm (:func:`numpy.logspace`: ``A`` and ``B`` are the *exponents*), e.g.
  ``v_i=logspace:-2:2:33`` for 0.01 ... 100.

The points of a grid are the product of its axes, the first axis varying slowest (the
order of the labelled dimensions of the sweep's Dataset and of the rows of its CSV).
A grid holds at most :func:`max_points` points (default :data:`MAX_POINTS`, one
million: at a millisecond or more per point, a quarter of an hour of solver time and a
few hundred MB of results; the environment variable ``NSFRIC_MAX_GRID_POINTS`` raises
it for a cluster); a larger one is refused before any value list is built.
"""
from __future__ import annotations

import itertools
import math
import os

import numpy as np

from ..arguments import number

#: axes whose values are words, not numbers
WORD_AXES = ("law", "scheme")
#: default largest number of points of a grid (see the module docstring)
MAX_POINTS = 10 ** 6


def max_points() -> int:
    """The largest grid allowed: ``$NSFRIC_MAX_GRID_POINTS`` if set (an integer >= 1),
    else :data:`MAX_POINTS`."""
    text = os.environ.get("NSFRIC_MAX_GRID_POINTS", "").strip()
    if not text:
        return MAX_POINTS
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise ValueError(f"NSFRIC_MAX_GRID_POINTS must be an integer >= 1, got {text!r}")
    return n


def _too_many(what: str, n) -> ValueError:
    return ValueError(f"{what} has {n:g} points; a grid may have 1 to {max_points()} points "
                      "(set NSFRIC_MAX_GRID_POINTS to allow more)")


def _number(text: str, name: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise ValueError(f"grid {name}: {text!r} is not a number") from None
    if not math.isfinite(x):
        raise ValueError(f"grid {name}: values must be finite, got {text!r}")
    return x


def _count(text: str, name: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise ValueError(f"grid {name}: NUM must be an integer >= 1, got {text!r}") from None
    if n < 1:
        raise ValueError(f"grid {name}: NUM must be an integer >= 1, got {n}")
    if n > max_points():
        raise _too_many(f"grid {name}", n)
    return n


def parse_values(name: str, text: str) -> list:
    """The values of the axis ``name`` written as ``text`` (see the module docstring)."""
    text = text.strip()
    if not text:
        raise ValueError(f"grid {name}: no values given")
    if name in WORD_AXES:
        return [w.strip() for w in text.split(",")]
    parts = text.split(":")
    if parts[0].strip() == "logspace":
        if len(parts) != 4:
            raise ValueError(f"grid {name}: expected logspace:A:B:NUM, got {text!r}")
        a, b = (_number(p, name) for p in parts[1:3])
        return [float(x) for x in np.logspace(a, b, _count(parts[3], name))]
    if len(parts) == 3:
        a, b = (_number(p, name) for p in parts[:2])
        return [float(x) for x in np.linspace(a, b, _count(parts[2], name))]
    if len(parts) != 1:
        raise ValueError(f"grid {name}: expected V1,V2,..., START:STOP:NUM or logspace:A:B:NUM, got {text!r}")
    return [_number(p, name) for p in text.split(",")]


def parse_axis(item: str) -> tuple:
    """``"NAME=VALUES"`` -> ``(NAME, [values])``."""
    name, sep, text = item.partition("=")
    if not sep or not name.strip():
        raise ValueError(f"--grid expects NAME=VALUES, got {item!r}")
    return name.strip(), parse_values(name.strip(), text)


def parse_grid(items) -> dict:
    """``["v_i=0.1,1", "law=hertz,walton-braun"]`` -> ``{name: values}`` (in order)."""
    grid = {}
    for item in items or ():
        name, values = parse_axis(item)
        if name in grid:
            raise ValueError(f"--grid {name} given more than once")
        grid[name] = values
    return grid


def check_grid(grid: dict) -> dict:
    """``grid`` as ``{name: list of values}``: at least one axis, each non-empty, numbers
    finite (words on the ``law`` and ``scheme`` axes), no value twice on one axis."""
    if not isinstance(grid, dict) or not grid:
        raise ValueError("grid must be a non-empty dict {name: values}")
    out = {}
    for name, values in grid.items():
        if isinstance(values, (str, int, float)) and not isinstance(values, bool):
            values = [values]
        if isinstance(values, np.ndarray) and values.ndim > 1:
            raise ValueError(f"grid {name}: values must be one-dimensional (one axis), got an array of "
                             f"shape {values.shape}; give each axis its own name")
        if isinstance(values, (list, tuple, np.ndarray, range)) and len(values) > max_points():
            raise _too_many(f"grid {name}", len(values))
        values = list(values) if isinstance(values, (list, tuple, np.ndarray, range)) else [values]
        if not values:
            raise ValueError(f"grid {name}: no values given")
        if name in WORD_AXES:
            if not all(isinstance(v, str) and v for v in values):
                raise ValueError(f"grid {name}: values must be names, got {values}")
        else:
            values = [_number(v, name) if isinstance(v, str) else number(v, f"grid {name} (each value)")
                      for v in values]
        if len(set(values)) != len(values):
            dup = sorted({str(v) for v in values if values.count(v) > 1})
            raise ValueError(f"grid {name}: value(s) {', '.join(dup)} given more than once")
        out[str(name)] = values
    total = math.prod(len(v) for v in out.values())
    if total > max_points():
        raise _too_many(f"the grid ({' x '.join(str(len(v)) for v in out.values())})", total)
    return out


def points(grid: dict) -> list:
    """Every point of the grid as a dict ``{name: value}``, the first axis slowest."""
    names = list(grid)
    return [dict(zip(names, combo)) for combo in itertools.product(*grid.values())]
