"""Column detachment, Schäfer, Dippel & Wolf (1996) §4 (after Luding et al. 1994).

``N`` equal grains (``N`` in [2, 20], default 10; cellulose acetate, ``m = 1.48e-4 kg``,
``R = 3 mm``) on a line, a gap ``s_0`` apart, all moving at ``v_0`` towards a wall that
grain 1 touches at ``t = 0``.  Every contact -- grain 1 with the wall, each neighbouring
pair -- carries the linear spring-dashpot of eq 2 with the normal-impact parameters
(``k_n = 7.32e6 N/m``, ``gamma_n = 2.06 kg/s``: a binary grain-grain collision has
``e_n = 0.87`` and ``t_n = 1e-5 s`` by eqs 3-4 with ``m_eff = m/2``; the grain-wall
collision, ``m_eff = m``, has its own ``e_wall`` and ``t_wall``).  Contacts end at zero
overlap.  The model is :class:`~nsfric.papers.schafer1996.column.ColumnModel`, the exact
event-driven reference :class:`~nsfric.solvers.contact_network.ContactNetworkSolver`
(every contact a switching surface; simultaneous switches allowed); the run stops
when all grains move away from the wall and from each other.

Observable (``summary``): the paper's total restitution of the column,

    e_tot = -sum_i v_i^f / sum_i v_i^i = sum_i v_i^f / (N v_0),

beside ``t0_over_tn`` (``t_0 = s_0/v_0``, the time a grain needs to catch up with a
stopped neighbour, over the binary ``t_n``), ``e_n``, ``t_n``, ``e_wall``, ``t_wall``,
the number of events and the separation time.  The figure (e_tot against ``t_0/t_n``
from 1e-3 to 1e2) is in :mod:`nsfric.papers.schafer1996.column_detachment_figures`.
"""
from __future__ import annotations

import math

import numpy as np

from nsfric.solvers.base import Problem, check_span
from nsfric.solvers.contact_network import ContactNetworkSolver
from nsfric.papers.schafer1996.column import ColumnModel, check_grains
from nsfric.cases.base import Case, sample_count
from nsfric.papers.schafer1996.normal_impact import closed_form as impact_closed_form

N_MIN, N_DEFAULT, N_MAX = 2, 10, 20


def binary_collision(values: dict, wall: bool = False) -> dict:
    """``e_n`` and ``t_n`` of one isolated collision by eqs 3-4: two grains (``m_eff =
    m/2``) or, with ``wall``, a grain on the wall (``m_eff = m``)."""
    m_eff = values["m"] if wall else values["m"] / 2
    v = {"m_eff": m_eff, "k_n": values["k_n"], "gamma_n": values["gamma_n"]}
    return {"e_n": float(impact_closed_form("linear-dashpot e_n", v)),
            "t_n": float(impact_closed_form("linear-dashpot t_n", v))}


class ColumnDetachment(Case):
    """A column of ``N`` grains hitting a wall (see the module docstring)."""

    name = "column-detachment"
    reference = "Schäfer, Dippel & Wolf (1996) §4 (column detachment, after Luding et al. 1994)"
    laws = ("linear-dashpot",)
    default_law = "linear-dashpot"
    #: upper bound of the time span; the reference stops when the column has separated
    t_end = 1.0
    unit = "m"
    observable_names = ("e_tot", "N", "t0_over_tn", "e_n", "t_n", "e_wall", "t_wall", "n_events", "t_separation")
    units = {"t": "s", "E_kin": "J", **{f"v_{i}": "m/s" for i in range(1, N_MAX + 1)},
             **{f"F_n_{c}": "N" for c in ["wall"] + [f"{i}-{i + 1}" for i in range(1, N_MAX)]}}
    closed_form = False
    exact_solver = "contacts"

    def model(self, law: str | None = None, N: int = N_DEFAULT) -> ColumnModel:
        law = self.check_law(law)
        N = check_grains(N, N_MIN, N_MAX)
        key = (law, N)
        if key not in self._models:
            self._models[key] = ColumnModel(N, law)
        return self._models[key]

    def build(self, law: str):
        return self.model(law)

    def bind(self, law: str | None = None, params: dict | None = None) -> dict:
        """Validated values: ``N`` (an integer in [2, 20]) and the model's parameters."""
        params = dict(params or {})
        N = check_grains(params.pop("N", N_DEFAULT), N_MIN, N_MAX)
        return {"N": N, **self.model(law, N).bind(params)}

    def problem(self, law=None, params=None, t_end=None) -> Problem:
        law = self.check_law(law)
        values = self.bind(law, params)
        model = self.model(law, values["N"])
        t_end = self.t_end if t_end is None else float(t_end)
        if not (math.isfinite(t_end) and t_end > 0):
            raise ValueError(f"t_end must be finite and > 0, got {t_end:g}")
        return Problem(model, values, model.initial_state(values), (0.0, t_end), self.name, law, False)

    def reference_solution(self, law=None, solver="contacts", params=None, t_end=None, t_eval=None,
                           samples=1001, **options):
        """The exact event-driven reference (solver ``contacts`` only), resampled on
        ``samples`` times up to the separation; ``summary`` holds the observables."""
        if solver != "contacts":
            raise ValueError(f"case {self.name!r} is solved by the solver 'contacts' (every contact a "
                             f"switching surface), not {solver!r}")
        if t_eval is not None:
            raise ValueError(f"case {self.name!r} takes samples, not t_eval (the span ends at the separation)")
        prob = self.problem(law, params, t_end)
        check_span(*prob.t_span)
        sol = ContactNetworkSolver(**options).solve(prob.model, prob.params, prob.y0, prob.t_span,
                                                    sample_count(samples))
        sol.case, sol.law = self.name, prob.law
        sol.summary = self.observables(prob.law, sol)
        return sol

    def observables(self, law: str, sol) -> dict:
        """``e_tot`` and its context (module docstring); ``{}`` if the column had not
        separated before ``t_end``."""
        if sol.termination != "separated":
            return {}
        values = sol.params
        N = int(values["N"])
        v_f = np.asarray(sol.segments[-1].y1[N:], dtype=float)
        grain = binary_collision(values)
        wall = binary_collision(values, wall=True)
        return {"e_tot": float(v_f.sum() / (N * values["v_0"])), "N": N,
                "t0_over_tn": float(values["s_0"] / values["v_0"] / grain["t_n"]),
                "e_n": grain["e_n"], "t_n": grain["t_n"], "e_wall": wall["e_n"], "t_wall": wall["t_n"],
                "n_events": len(sol.events), "t_separation": float(sol.t_span[1])}

    def run(self, out_dir: str, progress=None, jobs=1) -> dict:
        """The e_tot figure (``detachment.png``, ``detachment.csv`` + sidecar; its points
        on ``jobs`` local processes) and the reference of the default column
        (``reference-linear-dashpot.csv`` + sidecar with ``summary``, ``reference.png``)."""
        from nsfric.papers.schafer1996.column_detachment_figures import run

        return run(self, out_dir, progress, jobs=jobs)
