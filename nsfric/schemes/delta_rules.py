"""The per-member rules of the delta approximation (Krengel & Matuttis eqs 9, 12, 15-17)
as pure scalar functions: the single-run path of :class:`~nsfric.schemes.delta.DeltaField`
calls them, and the compiled loop (:mod:`nsfric.schemes.delta_kernel`) compiles their
source, so both take the same decisions with the same arithmetic as the vectorised
NumPy path (:func:`~nsfric.schemes.delta.delta_indicators`,
:meth:`~nsfric.schemes.delta.DeltaField.rates`; tested equal).  No exceptions, no
objects: plain floats, ints and booleans.
"""
from __future__ import annotations

import math

DELTA_FACTOR = 0.9  #: eq 17
STICK, SLIP, REVERSAL = 1, 2, 3  #: event codes of :func:`delta_event`


def ieee_div(a, b):
    """``a / b`` as IEEE 754 (and NumPy) divides: ``±inf`` or NaN for ``b = 0``, no exception."""
    if b == 0.0:
        if a == 0.0 or a != a:
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def delta_lambda_scalar(g, s_plus, s_minus, factor=DELTA_FACTOR):
    """Eq 12 with the indicators of eqs 15-17 for one member: the arithmetic of
    :func:`~nsfric.schemes.delta.delta_indicators` and ``a_I/(a_I + a_II)``, operation
    by operation (tested equal)."""
    d1 = ieee_div(-factor * g, s_plus)
    a1 = ieee_div(g + d1 * s_plus, d1)
    if d1 == 0.0 or not math.isfinite(a1):
        a1 = s_plus
    d2 = ieee_div(-factor * g, s_minus)
    a2 = ieee_div(-(g + d2 * s_minus), d2)
    if d2 == 0.0 or not math.isfinite(a2):
        a2 = -s_minus
    return ieee_div(a1, a1 + a2)


def delta_choice(stuck, g, lam):
    """The rate :meth:`~nsfric.schemes.delta.DeltaField.rates` takes for one member:
    1 ``f_I``, -1 ``f_II``, 0 the convex combination of eq 9 (stuck, or ``g = 0``,
    with ``lam`` in [0, 1])."""
    if stuck or g == 0:
        if lam >= 0 and lam <= 1:
            return 0
        return 1 if lam < 0 else -1
    return 1 if g > 0 else -1


def delta_side(stuck, g, lam):
    """The field a member uses next: 0 stuck, else +1/-1 the side of ``g`` (of ``lam``
    at ``g = 0``); 0 for a non-finite ``g``."""
    if stuck:
        return 0
    if g > 0:
        return 1
    if g < 0:
        return -1
    if g == 0:
        return 1 if lam < 0 else -1
    return 0


def delta_event(stuck, stopped, g, g1, lam1):
    """``(kind, to)`` of the end-of-step decision of one member: ``kind`` 0 (none),
    :data:`STICK` (``stopped`` -- the stick-entry rule's verdict,
    :func:`~nsfric.schemes.stick_rules.enters_stick` -- and ``lam`` in [0, 1]),
    :data:`SLIP` (stuck and ``lam`` left [0, 1]) or :data:`REVERSAL` (a crossing with
    dynamic friction); ``to`` the side entered (+1/-1; 0 for stick)."""
    inband = lam1 >= 0 and lam1 <= 1
    if not stuck and stopped and inband:
        return STICK, 0
    if stuck and not inband:
        return SLIP, (1 if lam1 < 0 else -1)
    if not stuck and g * g1 < 0 and not inband:
        return REVERSAL, (1 if g1 > 0 else -1)
    return 0, 0
