"""Linear oscillator with dry Coulomb friction, Krengel & Matuttis §3 (eq 3, Fig 1).

``m x'' = -mu F_N sign(x') - k x`` with ``m = 0.25``, ``k = 1``, ``mu = 0.4``,
``F_N = 1``; at ``x' = 0`` with ``|x| < mu F_N/k`` both fields push into the surface
and the mass sticks exactly (Filippov sliding, eqs 9-14).  Exact solution: half
oscillations of angular frequency ``omega = sqrt(k/m)`` about ``x = -+ mu F_N/k``, each
half period ``pi/omega`` ending with a reversal, until the turning point lies inside
the sticking segment.
"""
from __future__ import annotations

import sympy as sp

from ..symbolic import laws as L
from .base import Case, register_case


@register_case
class DryOscillator(Case):
    name = "dry-oscillator"
    reference = "Krengel & Matuttis §3, eqs 3-14, Fig 1"
    laws = ("coulomb",)
    default_law = "coulomb"
    t_end = 10.0
    initial = {"x": "x0", "v": "v0"}

    def build(self, law: str):
        x0, v0 = sp.symbols("x0 v0", real=True)
        F_c = sp.Symbol("F_c")
        extra = (
            L.P(L.m, 0.25, 0, lo_open=True, doc="mass"),
            L.P(L.k, 1.0, 0, lo_open=True, doc="spring stiffness"),
            L.P(x0, 2.1, doc="initial position"),
            L.P(v0, 0.0, doc="initial velocity"),
        )
        outputs = {
            "E_kin": L.m * L.v ** 2 / 2,
            "E_el": L.k * L.x ** 2 / 2,
        }
        model = L.couple(L.coulomb_static(), f"{self.name}/{law}",
                         {L.x: L.v, L.v: (-L.k * L.x + F_c) / L.m}, extra, outputs,
                         reference=self.reference)
        return model

    def run(self, out_dir: str, progress=None) -> dict:
        """The default reference outputs, then Fig 1 and the delta-approximation study
        (:mod:`nsfric.cases.dry_oscillator_figures`)."""
        from .dry_oscillator_figures import run_figures

        result = super().run(out_dir, progress)
        result["written"] += run_figures(self, out_dir, progress)
        return result
