"""Gear's fifth-order predictor-corrector (Allen & Tildesley §3.2, Appendix E).

The first-order form, which applies to every model (the C-SDS ``xi`` is not a position
while sliding): the Nordsieck vector ``z = (y, h y', h^2 y''/2!, h^3 y'''/3!,
h^4 y''''/4!)`` is predicted by the Taylor (Pascal) matrix, the field is evaluated once
at the predicted state, and all entries are corrected with
``Delta = h f(y_p) - (h y')_p``: ``z_c = z_p + l Delta`` with Gear's five-value
coefficients ``l = (251/720, 1, 11/12, 1/3, 1/24)`` (Allen & Tildesley Table E.1; the
Nordsieck form of the fourth-step Adams-Moulton corrector), one evaluation per step,
order 5.  The corrected state is an assignment from the predicted state, adjusted by
the law.

Two registered variants, which differ only in what happens at a mode change (a contact
begins or ends, a slip reverses) or a law's adjustment of the state:

* ``gear5`` -- as DEM codes run it (Allen & Tildesley; Schäfer et al.'s integrator): the
  Nordsieck vector is started once, at ``t = 0``, and carried through every mode change;
  an adjustment replaces its first entry (the state) only.  Its stored derivatives are
  those of the field before the switch, as in any code that does not locate events.
* ``gear5-exact-restart`` -- restarts the Nordsieck vector from the exact Taylor
  coefficients (Lie derivatives of the new mode's field, derived symbolically) after
  every mode change or adjustment.  No DEM code can do this: it shows what the restart,
  not the scheme, contributes (at a switch that falls on a step point it gives the
  nominal order 5).

Both start at ``t = 0`` from the exact Taylor coefficients of the initial mode (in a free
flight before a contact these are the state's own: the velocity, zeros beyond).
"""
from __future__ import annotations

from math import comb

import numpy as np

from .base import Scheme, register_scheme

_L = np.array([251 / 720, 1.0, 11 / 12, 1 / 3, 1 / 24])
_Q = len(_L)
_P = np.array([[comb(j, i) if j >= i else 0 for j in range(_Q)] for i in range(_Q)], dtype=float)
_FACT = np.array([1.0, 1.0, 2.0, 6.0, 24.0])


def lower_order_start(D):
    """The Taylor coefficients ``D[j-1] = u^(j)`` up to the first order that does not exist
    at ``u``, zeros from there on: a lower-order start of the Nordsieck vector, whose
    higher entries the corrector then builds up.  At the onset ``xi = 0`` of a
    Hertz-type contact (Schäfer et al. eqs 6, 8, 9) ``xi^(3/2)`` has no third derivative
    (``xi^(1/2) v`` of eqs 8-9 no second); a field smooth at ``u`` is left as it is."""
    D = np.array(D, dtype=float)
    bad = ~np.all(np.isfinite(D), axis=1)
    if bad.any():
        D[int(np.argmax(bad)):] = 0.0
    return D


class Gear5(Scheme):
    """Gear fifth-order predictor-corrector (five-value Nordsieck, first-order form):
    order 5, one field evaluation per step, multistep, carried through mode changes as DEM
    codes run it (``exact_restart=False``) or restarted from the exact Taylor
    coefficients at every mode change and adjustment (``exact_restart=True``)."""

    order = 5
    multistep = True
    reference = "Allen & Tildesley, Computer Simulation of Liquids, §3.2 and Appendix E; Gear (1971)"

    def __init__(self, exact_restart: bool = False):
        self.exact_restart = bool(exact_restart)
        self.name = "gear5-exact-restart" if self.exact_restart else "gear5"
        self.__doc__ = ("Gear fifth-order predictor-corrector (five-value Nordsieck): order 5, one field "
                        "evaluation per step, multistep; " +
                        ("restarted from the exact Taylor coefficients (symbolic Lie derivatives) at every "
                         "mode change and adjustment -- no DEM code can do this" if self.exact_restart else
                         "carried through every mode change, as DEM codes run it (Allen & Tildesley)") + ".")

    def start(self, field, t, u, h):
        mode, D = field.taylor(u, _Q - 1)
        D = lower_order_start(D)
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
        if self.exact_restart and (adjusted or ev.mode != mode):
            return y, self.start(field, t + h, y, h)
        zc[0] = y
        return y, (zc, ev.mode)

    def rescale(self, hist, ratio):
        z, mode = hist
        return z * (ratio ** np.arange(_Q))[:, None], mode


GEAR5 = register_scheme(Gear5())
GEAR5_EXACT_RESTART = register_scheme(Gear5(exact_restart=True))


# -- BDF in Gear's predictor-corrector form (Krengel & Matuttis §4) ----------------------
#: BDF-k corrector: (a_0..a_{k-1} on y_n..y_{n-k+1}, beta); Hairer, Nørsett & Wanner III.1
BDF = {
    1: ((1.0,), 1.0),
    2: ((4 / 3, -1 / 3), 2 / 3),
    3: ((18 / 11, -9 / 11, 2 / 11), 6 / 11),
    4: ((48 / 25, -36 / 25, 16 / 25, -3 / 25), 12 / 25),
    5: ((300 / 137, -300 / 137, 200 / 137, -75 / 137, 12 / 137), 60 / 137),
}


def extrapolation(k: int) -> np.ndarray:
    """Weights of the degree-``k`` extrapolation ``y_{n+1} ~ sum_j c_j y_{n-j}``, j = 0..k."""
    return np.array([(-1) ** j * comb(k + 1, j + 1) for j in range(k + 1)], dtype=float)


class BDFPredictorCorrector(Scheme):
    """BDF-k in Gear's predictor-corrector form (PE(CE)^c): explicit, order k, one field
    evaluation per correction.

    Predictor: the polynomial extrapolation through the last ``k + 1`` states,
    ``y_p = sum_j c_j y_{n-j}`` (order k); corrector: the BDF-k formula with the slope
    at the predicted state, ``y_{n+1} = sum_j a_j y_{n-j} + beta h f(y_p)``, applied
    ``corrections`` times (each time with the slope at the last corrected state).
    Started by ``k`` classical RK4 steps; the history (previous states, newest first)
    is restarted when an assignment is adjusted by the law (a jump of the state, e.g.
    the D-SDS reset), not at a mode change (the state is continuous there; Krengel &
    Matuttis keep the history across reversals and sticking).  This is *not* the implicit ``bdf2`` (Newton on the corrector to
    convergence, restarted by extrapolated backward Euler): the two agree only as the
    number of corrections grows.
    """

    multistep = True
    reference = ("Krengel & Matuttis §4 ('BDF, Gear predictor-corrector'); "
                 "Hairer, Nørsett & Wanner I §III.1")

    def __init__(self, k: int, corrections: int = 1):
        if k not in BDF:
            raise ValueError(f"k must be one of {sorted(BDF)}, got {k!r}")
        if int(corrections) < 1:
            raise ValueError(f"corrections must be >= 1, got {corrections!r}")
        self.k = k
        self.corrections = int(corrections)
        self.order = k
        self.name = f"bdf{k}-pc"
        self._a, self._beta = BDF[k][0], BDF[k][1]
        self._c = extrapolation(k)
        self.__doc__ = (f"BDF{k} in Gear predictor-corrector form (extrapolation predictor, "
                        f"{self.corrections} correction(s)): explicit, order {k}, multistep "
                        f"(started by RK4).")

    def start(self, field, t, u, h):
        return []

    def step(self, field, t, u, h, hist, record=None):
        from .rk import RK4

        prev = hist if hist is not None else self.start(field, t, u, h)
        if len(prev) < self.k:  # start phase: classical RK4
            u1, _ = RK4.step(field, t, u, h, None, record)
            return u1, [u] + prev
        states = [u] + prev
        pred = sum(cj * yj for cj, yj in zip(self._c, states))
        base = sum(aj * yj for aj, yj in zip(self._a, states))
        u1, ev, adjusted = field.assign(base, self._beta * h, pred)
        if record is not None:
            record.append((t + h, pred, 1))
        for _ in range(self.corrections - 1):
            u1, ev, adj = field.assign(base, self._beta * h, u1)
            adjusted = adjusted or adj
        return u1, (None if adjusted else states[:self.k])

    def map_history(self, hist, fn):
        """The history with ``fn`` applied to every stored state (a projection)."""
        return None if hist is None else [fn(y) for y in hist]


BDF2_PC = register_scheme(BDFPredictorCorrector(2))
BDF5_PC = register_scheme(BDFPredictorCorrector(5))
