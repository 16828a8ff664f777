"""Tangential laws whose stiffness depends on the normal state (Hertz-Mindlin ``k_ta a``,
``a = sqrt(R_eff delta_n)``): ``mindlin`` (displacement history) and ``mindlin-force``
(force history), the dt -> 0 limits of LAMMPS's ``tangential mindlin`` and
``mindlin/force``, on a sphere hitting a wall with a Hertz normal force.

Checked: two reference solvers agree; an impact that slides throughout gives the
closed form of gross sliding (the same for both laws); in the stick regime the two laws
are different models (their psi_f differ by far more than the solvers' agreement); a law
on the overlap needs a normal law (a clear error otherwise)."""
from __future__ import annotations

import numpy as np
import pytest

import nsfric
from nsfric.cases.sphere_wall import SphereOnWall, SphereWall, gross_sliding_psi_f, omega_i, psi_i, v_n
from nsfric.symbolic import laws as L
from nsfric.symbolic import tangential as T

XI0 = 1e-12  # the contact starts at this overlap: a = 0 at zero overlap makes k_ta a vanish


class HertzMindlinWall(SphereWall):
    name = "hertz-mindlin-wall"
    laws = ("mindlin", "mindlin-force")
    default_law = "mindlin"
    t_end = 1.4e-4
    solver_defaults = {}

    def check_law(self, law):
        law = self.default_law if law is None else law
        if law not in self.laws:
            raise ValueError(f"law must be one of {self.laws}, got {law!r}")
        return law

    def default_solver_options(self, law, solver):
        return {"atol": 1e-15}

    def build(self, law):
        extra = (L.P(psi_i, 1.0, 0), L.P(v_n, 1.0, 0, lo_open=True), L.P(omega_i, 0.0))
        return nsfric.couple(SphereOnWall(), normal=L.get_law("hertz", "normal"),
                             tangential=T.with_normal_magnitude(L.get_law(law)), params=extra,
                             name=f"hertz-mindlin-wall/{law}")

    def y0(self, law, values):
        y = super().y0(law, values)
        y[list(self._model_at_hand(law).state_names).index("y")] -= XI0
        return y

    def default_t_end(self, law, values):
        return self.t_end

    def contact_t_end(self, law, values):
        return self.t_end


PARAMS = {"R_eff": 3e-3, "gamma_t": 0.0}


def _psi_f(law, psi, solver="filippov"):
    case = HertzMindlinWall()
    sol = case.reference_solution(law, solver=solver, params={**PARAMS, "psi_i": psi})
    assert sol.summary, case.why_no_observables(law, sol)
    return sol.summary, case.bind(law, {**PARAMS, "psi_i": psi})


@pytest.mark.parametrize("law", ["mindlin", "mindlin-force"])
def test_two_solvers_agree_and_gross_sliding_is_the_closed_form(law):
    for psi in (0.3, 1.0):
        a, _ = _psi_f(law, psi)
        b, _ = _psi_f(law, psi, "ida")
        assert abs(a["psi_f"] - b["psi_f"]) < 1e-8, (law, psi, a["psi_f"], b["psi_f"])
    big, values = _psi_f(law, 6.0)
    impulse = values["m"] * values["v_n"] * (1 + big["e_n"])  # Hertz: elastic, e_n = 1
    assert big["e_n"] == pytest.approx(1.0, abs=1e-9)
    assert big["psi_f"] == pytest.approx(gross_sliding_psi_f(values, impulse), abs=1e-8)


def test_the_displacement_and_the_force_history_are_different_models():
    a, _ = _psi_f("mindlin", 0.3)
    b, _ = _psi_f("mindlin-force", 0.3)
    assert abs(a["psi_f"] - b["psi_f"]) > 1e-3, (a["psi_f"], b["psi_f"])


def test_a_law_on_the_overlap_needs_a_normal_law():
    slider = nsfric.Slider(L.v, position=L.x, mass=L.m, stiffness=L.k,
                           params=(L.P(L.m, 1.0, 0, lo_open=True), L.P(L.k, 1.0, 0, lo_open=True)))
    with pytest.raises(ValueError, match="depends on the normal overlap delta_n: couple it with a normal law"):
        nsfric.couple(slider, tangential=L.get_law("mindlin"))
