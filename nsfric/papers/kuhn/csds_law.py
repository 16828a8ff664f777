"""Führer, Brendel & Wolf's continuous spring-dashpot-slider (C-SDS) in 3D, for the
prescribed contact of Kuhn, Suzuki & Daouadji: the 1D law's expressions
(:func:`nsfric.symbolic.tangential.c_sds`, Führer et al. eqs 1, 2, 6-10) generalised
direction-wise, and its exact update over one straight increment.

Direction-wise: the slip direction of eq 8 is ``m = F_S/|F_S|`` with the test force
``F_S = -k xi - gamma v`` (eq 1, component by component).  Along ``m`` the 1D law holds
(``F_S . m = |F_S|``: the branch ``slip+`` while ``|F_S| > F_max``, else ``stick``); across
``m`` the test force vanishes, and the 1D sticking rate ``xi' = v`` (eq 2) holds.  The
vector law that results is eqs 8-10 (``gamma xi' = -(F_max m + k xi)``, checked against
:func:`~nsfric.symbolic.tangential.c_sds_2d` in the tests).  The elongation ``xi`` lives in
the tangent plane and is carried with it (Führer et al. §2: "the displacement vector must
be rotated back into the contact plane every time it is updated").

Sign: Führer's ``F`` is the force on the body that moves with ``v``; Kuhn's tangential
force is its reaction, ``f_t = -F`` (``f_t = k_t xi`` while sticking without damping).
"""
from __future__ import annotations

from functools import lru_cache

import sympy as sp

from nsfric.symbolic.laws import F_max, gamma, k, v, xi
from nsfric.symbolic.tangential import c_sds

#: the increment's length (the clock step), the bounds ``F_max`` at its start and end, and the
#: elongation along the slip direction at its start
h = sp.Symbol("h", positive=True)
b_0, b_1 = sp.symbols("b_0 b_1", nonnegative=True)
x_0 = sp.Symbol("x_0", real=True)


def _branches():
    law = c_sds()
    return law.branches["stick"], law.branches["slip+"]


def test_force_3d(xis, vs):
    """``F_S = -k xi - gamma v`` (eq 1) component by component: the 1D sticking branch's force."""
    stick, _ = _branches()
    return sp.Matrix([stick.F.xreplace({xi: a, v: b}) for a, b in zip(xis, vs)])


def rates_3d(xis, vs):
    """The 3D C-SDS, direction-wise from the 1D law: ``(F_stick, rate_stick, F_slip, rate_slip)``.

    Sticking (``|F_S| <= F_max``): every component follows the 1D sticking branch.
    Sliding: along ``m = F_S/|F_S|`` (eq 8) the 1D branch ``slip+`` with ``xi -> xi . m``
    (force ``F_max m``, rate eq 9), across ``m`` the 1D sticking rate (eq 2).
    """
    stick, slip = _branches()
    xis, vs = sp.Matrix(xis), sp.Matrix(vs)
    F_S = test_force_3d(xis, vs)
    m = F_S / sp.sqrt((F_S.T * F_S)[0, 0])
    F_stick = F_S
    rate_stick = sp.Matrix([sp.simplify(stick.rates[xi].xreplace({xi: a, v: b})) for a, b in zip(xis, vs)])
    xi_m = (xis.T * m)[0, 0]
    along = slip.rates[xi].xreplace({xi: xi_m})
    rate_slip = along * m + rate_stick - (rate_stick.T * m)[0, 0] * m
    return F_stick, rate_stick, slip.F * m, rate_slip


def spring_energy(xis, k_=k):
    """Energy stored in the tangential spring, ``k |xi|^2 / 2`` (the potential of eq 11)."""
    xis = sp.Matrix(xis)
    return k_ * (xis.T * xis)[0, 0] / 2


def dissipation_rate(F, xi_rate, vs, gamma_=gamma):
    """Dissipated power of eq 11, ``gamma |xi'|^2 + (-F) . s`` with the slip velocity
    ``s = v - xi'`` (eq 4): the dashpot and the slider, each ``>= 0``."""
    F, xi_rate, vs = sp.Matrix(F), sp.Matrix(xi_rate), sp.Matrix(vs)
    return gamma_ * (xi_rate.T * xi_rate)[0, 0] - (F.T * (vs - xi_rate))[0, 0]


@lru_cache(maxsize=1)
def slip_increment():
    """The 1D sliding branch (``slip+``, eq 9) solved exactly over one increment of length
    ``h``, the bound growing linearly from ``b_0`` to ``b_1``: ``(x(h), x(h) at gamma -> 0+)``
    from ``x(0) = x_0`` (by :func:`sympy.dsolve`; the limit is the D-SDS's reset, eq 3 with
    ``gamma = 0``).  The rate does not depend on ``v`` (eq 9)."""
    _, slip = _branches()
    tau = sp.Symbol("tau", nonnegative=True)
    x = sp.Function("x")
    rate = slip.rates[xi].xreplace({xi: x(tau), F_max: b_0 + (b_1 - b_0) * tau / h})
    sol = sp.dsolve(sp.Eq(x(tau).diff(tau), rate), x(tau), ics={x(0): x_0}, hint="1st_linear")
    end = sp.simplify(sol.rhs.subs(tau, h))
    return end, sp.limit(end, gamma, 0, "+")
