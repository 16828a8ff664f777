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


from ..symbolic import systems
from .base import Case, register_case

from ..symbolic.systems import m_eff  # noqa: F401  (re-exported)


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
        return systems.normal_impact(law)

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
