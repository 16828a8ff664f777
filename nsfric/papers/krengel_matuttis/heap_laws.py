"""Per-contact laws of a 2D disc heap, Krengel & Matuttis §5 (eqs 18-22), as expressions.

The heap of K-M §5 (1625 polygons from a hopper) is modelled with discs (stated
simplification: a disc's overlap region is a lens whose normal is the line of centres,
so the polygon geometry of K-M ref [7] is not needed).  Every contact joins body 1 and
body 2 (a wall is a body with inverse mass and inverse moment of inertia 0); with ``n``
the unit normal from 1 to 2, ``t`` the tangent (``n`` turned by +90 deg) and
``r_1p``, ``r_2p`` the distances of the contact point from the centres along the normal
(eq 21's projections ``r_perp``; for a disc the contact vector is normal, so ``r_perp``
is its length), the expressions below are what a time step needs per contact, each
built from a registered law -- nothing is restated:

* **eq 21**, the reduced tangential mass, ``m_eff,tan = (1/m_1 + 1/m_2 + r_1p^2/I_1 +
  r_2p^2/I_2)^-1`` (:data:`M_EFF_TAN`, inverse masses as symbols so walls have 0);
* **normal** (Table 1's elastic law and eq 18 adapted to discs): the linear
  spring-dashpot of :func:`~nsfric.symbolic.normal.linear_spring_dashpot` on the overlap
  ``delta = r_1 + r_2 - |x_2 - x_1|`` with ``k_n = Y`` (the block's ``Y A/l`` with
  ``A = l delta``: force per unit depth ``Y delta``) and eq 18's damping
  ``D sqrt(Y m_eff,tan)`` on ``d delta/dt``.  A contact carries force while the overlap
  is positive (the law ending at zero overlap) *and* the repulsive force is positive
  (the same law ending at zero force): no attraction;
* **tangential, exact static friction** (K-M eqs 5-14 per contact): the forces of the
  two regions of :func:`~nsfric.symbolic.tangential.coulomb_static` (``slip+``:
  ``-mu F_n``, ``slip-``: ``+mu F_n``) and, with eq 22's external force ``f_ext = m_eff,tan
  a_t`` (the relative tangential acceleration at the contact without the contact's own
  friction), ``f_I = f_ext + F_slip+``, ``f_II = f_ext + F_slip-`` (eqs 5-6) and the
  multiplier ``lam = f_I/(f_I - f_II)`` (eq 13; the delta approximation of eqs 15-17
  gives exactly this ratio, :mod:`nsfric.schemes.delta`);
* **tangential, Cundall-Strack** (eqs 19-20): :func:`~nsfric.symbolic.tangential.cundall_strack`
  with Table 1's ``k_t = kt_ratio Y`` and ``gamma_t = gt_ratio sqrt(k_t m_eff,tan)``,
  bound ``mu F_n``: the stick force ``F_S = -k_t xi - gamma_t v_t``, its switching
  functions, the slip forces and the projections of ``xi`` onto ``|F_S| = mu F_n``
  (the law's reset, ``h = 0`` solved for ``xi``).

:func:`contact_expressions` returns the three groups with their argument symbols; the
compiled step (:mod:`nsfric.papers.krengel_matuttis.heap_run`) prints them as scalar code.
"""
from __future__ import annotations

from functools import lru_cache

import sympy as sp

from nsfric.symbolic import laws as L
from nsfric.symbolic import normal as N
from nsfric.symbolic import tangential as T
from nsfric.symbolic.contact_expressions import coulomb_expressions, spring_slider_expressions  # noqa: F401  (re-exported)

delta, delta_dot, v_t, f_ext, xi_c, F_n = sp.symbols("delta delta_dot v_t f_ext xi_c F_n", real=True)
minv_1, minv_2, Iinv_1, Iinv_2, r_1p, r_2p = sp.symbols("minv_1 minv_2 Iinv_1 Iinv_2 r_1p r_2p",
                                                        nonnegative=True)
m_eff_tan = sp.Symbol("m_eff_tan", positive=True)
Y, D, mu, kt_ratio, gt_ratio = sp.symbols("Y D mu kt_ratio gt_ratio", nonnegative=True)

#: eq 21: the reduced tangential mass of a contact
M_EFF_TAN = 1 / (minv_1 + minv_2 + r_1p ** 2 * Iinv_1 + r_2p ** 2 * Iinv_2)
#: eq 18: the normal damping with the contact's m_eff,tan
C_N = D * sp.sqrt(Y * m_eff_tan)
#: Table 1: k_t = kt_ratio Y, gamma_t = gt_ratio sqrt(k_t m_eff,tan)
K_T = kt_ratio * Y
GAMMA_T = gt_ratio * sp.sqrt(K_T * m_eff_tan)

REFERENCE = "Krengel & Matuttis §5, eqs 18-22, Table 1, Figs 6-7"


def _on_overlap(e):
    return sp.sympify(e).xreplace({L.xi: delta, L.v: delta_dot})


def normal_expressions():
    """``[h_overlap, h_force, F_n, m_eff_tan, E_el]`` in ``(delta, delta_dot, minv_1,
    minv_2, r_1p, r_2p, Iinv_1, Iinv_2, Y, D)``: the two switching functions (contact
    while both are positive), the repulsive force, eq 21 and the law's elastic energy."""
    by_overlap = N.linear_spring_dashpot("overlap", k=Y, gamma=C_N, params=())
    by_force = N.linear_spring_dashpot("force", k=Y, gamma=C_N, params=())
    F = -_on_overlap(by_overlap.branches["contact"].F)
    exprs = [_on_overlap(by_overlap.switching["h"]), _on_overlap(by_force.switching["h"]), F]
    exprs = [e.xreplace({m_eff_tan: M_EFF_TAN}) for e in exprs] + [M_EFF_TAN]
    exprs.append(_on_overlap(by_overlap.branches["contact"].outputs["E_el"]))
    return exprs, (delta, delta_dot, minv_1, minv_2, r_1p, r_2p, Iinv_1, Iinv_2, Y, D)


def cundall_strack_expressions():
    """``[F_S, xi_rate, h_plus, h_minus, F_plus, F_minus, xi_plus, xi_minus]`` in
    ``(xi_c, v_t, F_n, m_eff_tan, Y, kt_ratio, gt_ratio, mu)``: the stick force and the
    rate of ``xi`` (eqs 19-20 integrated), the switching functions, the slip forces and
    the projections of ``xi`` (``h_plus = 0`` / ``h_minus = 0`` solved for ``xi``)."""
    law = T.cundall_strack(k=K_T, gamma=GAMMA_T, params=())
    out = spring_slider_expressions(law, {L.xi: xi_c, L.v: v_t, L.F_N: F_n, L.mu: mu})
    return out, (xi_c, v_t, F_n, m_eff_tan, Y, kt_ratio, gt_ratio, mu)


@lru_cache(maxsize=1)
def contact_expressions() -> dict:
    """``{"normal": (exprs, args), "coulomb": ..., "cundall_strack": ...}`` (see above)."""
    return {"normal": normal_expressions(), "coulomb": coulomb_expressions(),
            "cundall_strack": cundall_strack_expressions()}


def disc_numbers(radius: float, rho: float) -> dict:
    """Mass per unit depth ``rho pi r^2`` and moment of inertia ``m r^2/2`` of a disc."""
    m = rho * sp.pi * sp.Symbol("r") ** 2
    I = m * sp.Symbol("r") ** 2 / 2
    sub = {sp.Symbol("r"): radius}
    return {"m": float(m.subs(sub)), "I": float(I.subs(sub))}
