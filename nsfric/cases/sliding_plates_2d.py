"""Sliding plates in the tangential plane with a turning relative velocity (beyond
Führer et al. §3, which is 1D).

The C-SDS with vector ``xi`` and ``v`` (eqs 1, 8-10) decelerates a plate that slides
with ``v(0) = (v0, 0)`` while a constant external tangential force ``(0, f_ext)``
turns its velocity: the slip direction (eq 8) rotates during sliding, the spring
loads in a turning direction, and the contact finally sticks with the static force
balancing ``f_ext`` (``|f_ext| < F_max``).  No closed form: the reference is the
agreement of the event-driven and DAE solvers, and the energy balance eq 11 integrated
along the trajectory.
"""
from __future__ import annotations

import sympy as sp

from ..symbolic import laws as L
from .base import Case, register_case

f_ext = sp.Symbol("f_ext", real=True)


@register_case
class SlidingPlates2D(Case):
    name = "sliding-plates-2d"
    reference = "Führer, Brendel & Wolf (2024) eqs 1, 8-11, vector form"
    laws = ("c-sds-2d",)
    default_law = "c-sds-2d"
    t_end = 10.0
    initial = {"v_1": "v0"}

    def build(self, law: str):
        v0 = sp.Symbol("v0", real=True)
        F1, F2 = sp.symbols("F_c1 F_c2")
        extra = (
            L.P(L.m, 1.0, 0, lo_open=True, doc="reduced mass", unit="n.u."),
            L.P(v0, 4.0, doc="initial relative velocity along x", unit="n.u."),
            L.P(f_ext, 0.5, doc="external tangential force along y", unit="n.u."),
        )
        outputs = {
            "E_kin": L.m * (L.v_1 ** 2 + L.v_2 ** 2) / 2,
            "E_el": L.k * (L.xi_1 ** 2 + L.xi_2 ** 2) / 2,
        }
        return L.couple(L.c_sds_2d(), f"{self.name}/{law}",
                        {L.v_1: F1 / L.m, L.v_2: (F2 + f_ext) / L.m}, extra, outputs,
                        reference=self.reference)
