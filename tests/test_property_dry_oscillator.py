"""Property-based: for any start and friction coefficient, the exact Filippov reference
of the dry-friction oscillator follows the closed-form recurrence of its turning points
(half cycles of pi/omega about -+mu F_N/k, sticking once |x| <= mu F_N/k)."""
import math

import numpy as np
from hypothesis import assume, given, settings, strategies as st

import nsfric

CASE = nsfric.get_case("dry-oscillator")


def turning_points(x0, d):
    x, out = x0, []
    while abs(x) > d:
        x = 2 * (d if x > 0 else -d) - x
        out.append(x)
    return out


@settings(max_examples=25, deadline=None)
@given(x0=st.floats(-4.0, 4.0), mu=st.floats(0.05, 0.8))
def test_turning_points_and_exact_stick(x0, mu):
    p = CASE.bind(params={"x0": x0, "mu": mu})
    d = mu * p["F_N"] / p["k"]
    turns = turning_points(x0, d)
    # stay away from the grazing boundary |x| = d, where the outcome is knife-edge
    assume(all(abs(abs(x) - d) > 1e-6 for x in [x0] + turns))
    omega = math.sqrt(p["k"] / p["m"])
    T = (len(turns) + 1) * math.pi / omega
    sol = CASE.reference_solution(params={"x0": x0, "mu": mu}, t_end=T)
    assert len(sol.events) == len(turns)
    for i, (e, xt) in enumerate(zip(sol.events, turns)):
        assert abs(e.t - (i + 1) * math.pi / omega) < 1e-9
        assert abs(e.y[0] - xt) < 1e-9
    if turns:
        assert sol.events[-1].kind == "stick"
        t = np.linspace(sol.events[-1].t, T, 50)
        x, v = sol(t)
        assert np.all(v == 0) and np.all(x == x[0])
