"""Validation of the numbers the public API takes (ground floor: imports no layer).

One place decides what counts as a number, so every entry point (``simulate``,
``converge``, ``sweep``, the solvers, the model parameters) refuses the same values with
the same kind of message: a ValueError naming the argument and its allowed range.

Refused everywhere: ``bool`` (``True`` is not the step 1), text (``"1.5"``: the CLI
parses its text itself), ``None`` where a number is required, complex numbers, NaN and
infinities, arrays of more than one value where one number is expected.
"""
from __future__ import annotations

import math
import numbers

import numpy as np


def _range_text(lo, hi, lo_open, hi_open) -> str:
    left = "(" if (lo_open or lo == -math.inf) else "["
    right = ")" if (hi_open or hi == math.inf) else "]"
    return f"{left}{'-inf' if lo == -math.inf else f'{lo:g}'}, {'inf' if hi == math.inf else f'{hi:g}'}{right}"


def _scalar(value):
    """``value`` as a Python real scalar, or None if it is not a real number."""
    if isinstance(value, (bool, np.bool_, str, bytes)) or value is None:
        return None
    if isinstance(value, np.ndarray):
        if value.ndim != 0 or value.dtype.kind not in "iuf":
            return None
        value = value[()]
    if not isinstance(value, numbers.Real) or isinstance(value, (bool, np.bool_)):
        return None
    return value


def number(value, name: str, lo: float = -math.inf, hi: float = math.inf, lo_open: bool = False,
           hi_open: bool = False) -> float:
    """``value`` as a finite float inside the range, else ValueError naming ``name``.

    Parameters
    ----------
    value : object
        An int, a float or a NumPy real scalar (not a bool, text, None or complex).
    name : str
        How the message names the argument (e.g. ``"dt"``, ``"parameter 'k'"``).
    lo, hi : float
        Bounds; ``lo_open``/``hi_open`` make them strict.

    Returns
    -------
    float
    """
    where = _range_text(lo, hi, lo_open, hi_open)
    x = _scalar(value)
    if x is None:
        raise ValueError(f"{name} must be a number in {where}, got {value!r}")
    x = float(x)
    if not math.isfinite(x) or x < lo or x > hi or (lo_open and x == lo) or (hi_open and x == hi):
        raise ValueError(f"{name} must lie in {where} (finite), got {x:g}")
    return x


def positive(value, name: str) -> float:
    """A finite number > 0 (a step, an end time, a tolerance)."""
    return number(value, name, 0.0, lo_open=True)


def seconds(value, name: str = "max_seconds") -> float | None:
    """A time budget in seconds: ``None`` (the default budget applies), a finite number
    > 0, or ``math.inf`` (no limit)."""
    if value is None:
        return None
    x = _scalar(value)
    if x is not None and float(x) == math.inf:
        return math.inf
    return positive(value, f"{name} (a number > 0, or inf for no limit)")


def integer(value, name: str, lo: int | None = None, hi: int | None = None) -> int:
    """``value`` as an int inside ``[lo, hi]``: an integer, or a float with an integer
    value (``2.0``); not a bool, text or a fraction."""
    x = _scalar(value)
    ok = x is not None and (isinstance(x, numbers.Integral) or (math.isfinite(x) and float(x).is_integer()))
    bounds = f">= {lo}" if hi is None else f"in [{lo}, {hi}]"
    if not ok or (lo is not None and x < lo) or (hi is not None and x > hi):
        raise ValueError(f"{name} must be an integer {bounds}, got {value!r}")
    return int(x)


def numbers_1d(values, name: str, lo: float = -math.inf, lo_open: bool = False, empty: bool = False,
               unique: bool = False) -> list:
    """A flat sequence of finite numbers (each as :func:`number`); a 2-D array, a bare
    number or text is refused (not flattened), so are an empty sequence (unless
    ``empty``) and repeated values (with ``unique``)."""
    if isinstance(values, (str, bytes, dict)) or _scalar(values) is not None or values is None:
        raise ValueError(f"{name} must be a sequence of numbers, got {values!r}")
    if isinstance(values, np.ndarray) and values.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got an array of shape {values.shape}")
    try:
        items = list(values)
    except TypeError:
        raise ValueError(f"{name} must be a sequence of numbers, got {values!r}") from None
    if not items and not empty:
        raise ValueError(f"{name} must not be empty")
    out = [number(v, f"{name} (each value)", lo, lo_open=lo_open) for v in items]
    if unique and len(set(out)) != len(out):
        dup = sorted({f"{v:g}" for v in out if out.count(v) > 1})
        raise ValueError(f"{name}: value(s) {', '.join(dup)} given more than once")
    return out


def step_range(value, name: str = "fit_range") -> tuple:
    """``(lo, hi)``: two finite numbers ``0 < lo < hi`` (a range of steps)."""
    vals = numbers_1d(value, name, 0.0, lo_open=True)
    if len(vals) != 2:
        raise ValueError(f"{name} must be two numbers (dt_min, dt_max), got {value!r}")
    lo, hi = sorted(vals)
    if lo == hi:
        raise ValueError(f"{name} must be a range dt_min < dt_max, got {value!r}")
    return lo, hi
