"""Event location details of the Filippov solver: two crossings inside one step."""
import numpy as np
import sympy as sp

from nsfric.solvers import Problem, get_solver
from nsfric.symbolic.laws import P
from nsfric.symbolic.model import HybridModel, Region

x, v = sp.symbols("x v", real=True)
c = sp.Symbol("c", real=True)


def _hump_model():
    """x'' = -1 from x = 0, v = 1: x(t) = t - t^2/2 peaks at 1/2 (t = 1).  The surface
    x = c just below the peak is crossed twice, 2 sqrt(1 - 2c) apart."""
    rhs = {x: v, v: -1}
    return HybridModel("hump", (x, v), (P(c, 0.4999),), {"h": x - c},
                       (Region("below", {"h": -1}, rhs, {}, "down"),
                        Region("above", {"h": 1}, rhs, {}, "up")))


def test_two_crossings_inside_one_step_are_found():
    model = _hump_model()
    prob = Problem(model, {"c": 0.4999}, np.array([0.0, 1.0]), (0.0, 2.0))
    # loose tolerances: DOP853 is exact on this quadratic, so it takes one or two huge steps
    sol = get_solver("filippov", rtol=1e-3, atol=1e-3).solve(prob)
    assert sol.stats["nsteps"] <= 6
    half = np.sqrt(1 - 2 * 0.4999)  # ~0.01414, far below the sample spacing
    want = [1 - half, 1 + half]
    assert [e.kind for e in sol.events] == ["up", "down"]
    assert np.allclose([e.t for e in sol.events], want, atol=1e-12, rtol=0)
