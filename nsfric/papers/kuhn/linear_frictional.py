"""Kuhn, Suzuki & Daouadji's linear-frictional law (eqs 1-2) in rate form, as a
:class:`~nsfric.symbolic.TangentialLaw` of the tangential force ``f = (f_1, f_2)`` in the
body-fixed tangent plane (Kuhn's sign: the force the contact carries, ``F = -f`` on the
moving body).

Elastic inside the friction circle, ``f' = k_t xi'`` (eq 2); on the circle ``|f| = b``
(``b = mu f_n``) associated slip: the elastic rate less its part along ``m = f/|f|`` that
would leave the circle.  The slip mode is the Filippov sliding mode of the surface
``h = |f|^2 - b^2`` between the elastic region and an *overstress* region outside, whose
field differs from the elastic one only along ``m``; on the surface the convex combination
of two fields that differ along ``m`` is the elastic rate corrected along ``m`` so that
``|f| = b`` holds, i.e. associated slip whatever the overstress field's return rate
(taken so that it points back into the circle: ``d|f|/dt = b' - kappa``, ``kappa > 0``
while the contact moves).  The overstress region is never entered.

States: ``f_1, f_2``, the work ``W_t`` (``W_t' = f . xi'``) and the dissipated work
``W_t_irrev`` (``f . (xi' - f'/k_t)``, the force times the slip rate).
"""
from __future__ import annotations

import sympy as sp

from nsfric.symbolic import TangentialLaw
from nsfric.symbolic.laws import LawSliding, P, v_1, v_2

k_t = sp.Symbol("k_t", positive=True)
f_1, f_2, W_t, W_t_irrev = sp.symbols("f_1 f_2 W_t W_t_irrev", real=True)


def linear_frictional(bound, bound_rate) -> TangentialLaw:
    """The law with the friction limit ``bound`` (``mu f_n``) and its time rate
    ``bound_rate``, both expressions (of the prescribed clock, parameters...).

    Parameters
    ----------
    bound, bound_rate : sympy expressions
        ``b = mu f_n > 0`` and ``db/dt``.

    Returns
    -------
    TangentialLaw
        Modes ``elastic``, ``overstress`` (never entered) and ``slip`` (Filippov, on
        ``|f| = b``); velocity argument ``(v_1, v_2)``, the rate of the tangential
        displacement ``xi'``; parameter ``k_t``.
    """
    f, xi_rate = sp.Matrix([f_1, f_2]), sp.Matrix([v_1, v_2])
    m = f / sp.sqrt(f_1 ** 2 + f_2 ** 2)
    elastic = k_t * xi_rate
    consistent = (elastic.T * m)[0, 0] - bound_rate  # the part along m that keeps |f| = b
    kappa = k_t * sp.sqrt(v_1 ** 2 + v_2 ** 2) + sp.Abs(bound_rate)
    overstress = elastic - (consistent + kappa) * m

    def rates(df):
        return {f_1: df[0], f_2: df[1], W_t: (f.T * xi_rate)[0, 0],
                W_t_irrev: (f.T * (xi_rate - df / k_t))[0, 0]}

    force = (-f_1, -f_2)
    branches = {"elastic": ({"h": -1}, force, rates(elastic), "stick"),
                "overstress": ({"h": 1}, force, rates(overstress), "slip")}
    slidings = {"slip": LawSliding("h", "filippov", f_1, "overstress", "elastic", entry_kind="slip")}
    return TangentialLaw("linear-frictional", "Kuhn, Suzuki & Daouadji eqs 1-2", (f_1, f_2, W_t, W_t_irrev),
                         (P(k_t, 1.0, 0, lo_open=True, doc="tangential stiffness k_t"),),
                         {"h": f_1 ** 2 + f_2 ** 2 - bound ** 2}, branches, slidings,
                         doc=linear_frictional.__doc__, velocity=(v_1, v_2))
