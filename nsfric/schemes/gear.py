"""Gear's fifth-order predictor-corrector (Allen & Tildesley §3.2, Appendix E).

The first-order form, which applies to every model (the C-SDS ``xi`` is not a position
while sliding): the Nordsieck vector ``z = (y, h y', h^2 y''/2!, h^3 y'''/3!,
h^4 y''''/4!)`` is predicted by the Taylor (Pascal) matrix, the field is evaluated once
at the predicted state, and all entries are corrected with
``Delta = h f(y_p) - (h y')_p``: ``z_c = z_p + l Delta`` with Gear's five-value
coefficients ``l = (251/720, 1, 11/12, 1/3, 1/24)`` (Allen & Tildesley Table E.1; the
Nordsieck form of the fourth-step Adams-Moulton corrector), one evaluation per step,
order 5.  The corrected state is an assignment from the predicted state, adjusted by
the law; the Nordsieck vector is (re)started from the exact Taylor coefficients (Lie
derivatives of the mode's field, derived symbolically) at ``t = 0`` and after every
mode change or adjustment (a jump makes the stored derivatives meaningless).
"""
from __future__ import annotations

from math import comb

import numpy as np

from .base import Scheme, register_scheme

_L = np.array([251 / 720, 1.0, 11 / 12, 1 / 3, 1 / 24])
_Q = len(_L)
_P = np.array([[comb(j, i) if j >= i else 0 for j in range(_Q)] for i in range(_Q)], dtype=float)
_FACT = np.array([1.0, 1.0, 2.0, 6.0, 24.0])


class Gear5(Scheme):
    """Gear fifth-order predictor-corrector (five-value Nordsieck, first-order form):
    order 5, one field evaluation per step, multistep (restarted at jumps)."""

    name = "gear5"
    order = 5
    multistep = True
    reference = "Allen & Tildesley, Computer Simulation of Liquids, §3.2 and Appendix E; Gear (1971)"

    def start(self, field, t, u, h):
        mode, D = field.taylor(u, _Q - 1)
        z = np.empty((_Q, len(u)))
        z[0] = u
        powers = h ** np.arange(1, _Q)
        z[1:] = D * (powers / _FACT[1:])[:, None]
        return z, mode

    def step(self, field, t, u, h, hist, record=None):
        if hist is None:
            hist = self.start(field, t, u, h)
        z, mode = hist
        zp = _P @ z
        ev = field.f(zp[0])
        delta = h * ev.k - zp[1]
        zc = zp + np.outer(_L, delta)
        # y_c = (y_p - l0 (h y')_p) + l0 h f(y_p): a regular assignment, adjusted by the law
        y, adjusted = field.apply(zp[0] - _L[0] * zp[1], _L[0] * h, ev)
        if record is not None:
            record.append((t + h, zp[0], 1))
        if adjusted or ev.mode != mode:
            return y, self.start(field, t + h, y, h)
        zc[0] = y
        return y, (zc, mode)

    def rescale(self, hist, ratio):
        z, mode = hist
        return z * (ratio ** np.arange(_Q))[:, None], mode


GEAR5 = register_scheme(Gear5())
