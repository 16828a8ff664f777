"""Normal impact with the linear spring-dashpot, Schäfer, Dippel & Wolf (1996) eqs 2-5.

Relative coordinate: overlap ``xi`` (positive in contact), ``v = dxi/dt`` (positive
approaching), ``m_eff dv/dt = F = -k_n xi - gamma_n v``.  Cellulose-acetate values
(§2): ``k_n = 7.32e6 N/m``, ``gamma_n = 2.06 kg/s``, two spheres of ``m = 1.48e-4 kg``
so ``m_eff = 7.4e-5 kg``; then ``e_n = 0.87`` and ``t_n = 1e-5 s`` by eqs 3-4.

The contact ends when the overlap returns to zero (``end_at_force = 0``, eqs 3-4 hold)
or, optionally, when the repulsive force ``k_n xi + gamma_n v`` vanishes
(``end_at_force = 1``, earlier, with a slightly different ``e_n``).  After the end the
particles separate freely.
"""
from __future__ import annotations

import math
from dataclasses import replace

import sympy as sp

from ..symbolic import laws as L
from .base import Case, register_case

m_eff = sp.Symbol("m_eff", positive=True)


@register_case
class NormalImpact(Case):
    name = "normal-impact"
    reference = "Schäfer, Dippel & Wolf (1996) eqs 2-5"
    laws = ("linear-dashpot", "linear-dashpot-force-end")
    default_law = "linear-dashpot"
    t_end = 2e-5
    initial = {"xi": "xi0", "v": "v_i"}
    unit = "s"
    units = {"xi": "m", "v": "m/s", "F": "N", "F_n": "N", "E_kin": "J", "E_el": "J"}

    def build(self, law: str):
        xi0, v_i = sp.symbols("xi0 v_i", real=True)
        F_c = sp.Symbol("F_c")
        base = L.linear_spring_dashpot()
        extra = (
            L.P(m_eff, 7.4e-5, 0, lo_open=True, doc="reduced mass m/2", unit="kg"),
            L.P(xi0, 0.0, doc="initial overlap", unit="m"),
            L.P(v_i, 1.0, 0, lo_open=True, doc="impact velocity", unit="m/s"),
        )
        switching = None
        if law == "linear-dashpot-force-end":
            switching = {"h": -base.branches["contact"].F}
        model = L.couple(base, f"{self.name}/{law}", {L.xi: L.v, L.v: F_c / m_eff}, extra,
                         {"E_kin": m_eff * L.v ** 2 / 2}, switching=switching,
                         reference=self.reference)
        # per mode: the repulsive normal force F_n = -F and the spring energy exist only
        # in contact (zero in free flight)
        regions = tuple(replace(r, outputs={**r.outputs, "F_n": -r.outputs["F"],
                                            "E_el": L.k_n * L.xi ** 2 / 2 if r.name == "contact" else sp.Integer(0)})
                        for r in model.regions)
        return replace(model, regions=regions)

    @staticmethod
    def restitution_closed_form(values: dict) -> dict:
        """``e_n`` and ``t_n`` by Schäfer et al. eqs 3-4 (contact ending at zero overlap)."""
        beta = values["gamma_n"] / (2 * values["m_eff"])
        omega = math.sqrt(values["k_n"] / values["m_eff"] - beta ** 2)
        t_n = math.pi / omega
        return {"e_n": math.exp(-beta * t_n), "t_n": t_n}

    @staticmethod
    def restitution(sol) -> dict:
        """``e_n = -v_f/v_i`` and ``t_n`` measured at the solution's contact-end event."""
        ends = [e for e in sol.events if e.kind == "contact-end"]
        if not ends:
            raise ValueError("the contact did not end before t_end; increase t_end")
        e = ends[0]
        v_idx = sol.model.state_names.index("v")
        return {"e_n": -e.y[v_idx] / sol.params["v_i"], "t_n": e.t}
