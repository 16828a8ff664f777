"""A tangential law's normal force bound to an expression, without a normal law (issue 23).

A block on a slope of angle ``alpha`` with exact Coulomb friction and ``F_N = m g
cos(alpha)``: ``couple(Slider(...), tangential=coulomb_static(), normal_force=m g
cos(alpha))``.  Sliding down at ``v0`` with ``mu > tan(alpha)`` it decelerates at
``g (mu cos(alpha) - sin(alpha))`` and sticks for good at ``t* = v0 / that``.
"""
import numpy as np
import pytest
import sympy as sp

import nsfric

v, v0 = sp.symbols("v v0", real=True)
m, g, alpha = sp.symbols("m g alpha", positive=True)
P = nsfric.Param
PARAMS = (P(m, 2.0, 0, lo_open=True), P(g, 9.81, 0, lo_open=True), P(alpha, 0.3, 0, np.pi / 2))


def block(**kw):
    slider = nsfric.Slider(v, mass=m, external=m * g * sp.sin(alpha), params=PARAMS)
    return nsfric.couple(slider, tangential=nsfric.coulomb_static(), name="slope-block-coulomb",
                         params=(P(v0, 1.5),), **kw)


def test_the_normal_force_is_an_expression_of_the_parameters():
    model = block(normal_force=m * g * sp.cos(alpha))
    assert "F_N" not in [q.name for q in model.params]
    slip = model.mode("slip+")
    assert sp.simplify(slip.rhs[v] - (g * sp.sin(alpha) - model.params[0].symbol * g * sp.cos(alpha))) == 0


def test_a_block_on_a_slope_sticks_at_the_closed_form_time():
    model = block(normal_force=m * g * sp.cos(alpha))
    prob = nsfric.Problem(model, {q.name: q.default for q in model.params}, [1.5], (0.0, 3.0))
    sol = nsfric.get_solver("filippov").solve(prob)
    mu = prob.params["mu"]
    t_stick = 1.5 / (9.81 * (mu * np.cos(0.3) - np.sin(0.3)))
    stick = [e.t for e in sol.events if e.to_mode == "stick"]
    assert len(stick) == 1 and stick[0] == pytest.approx(t_stick, rel=1e-10)
    assert sol.mode_at(3.0) == "stick" and sol(3.0)[0] == 0.0


def test_bad_bindings_name_the_problem():
    with pytest.raises(ValueError, match="normal_force.*normal law"):
        block(normal=nsfric.linear_spring_dashpot(), normal_force=m * g)
    slider = nsfric.Slider(v, mass=m, params=PARAMS)
    with pytest.raises(ValueError, match="normal_force.*tangential law"):
        nsfric.couple(slider, normal_force=m * g)
    with pytest.raises(ValueError, match="normal_force.*'N_0'"):
        block(normal_force=sp.Symbol("N_0", positive=True))
    with pytest.raises(ValueError, match="normal_force.*negative"):
        block(normal_force=-m * g)
