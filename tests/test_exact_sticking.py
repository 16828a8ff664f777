"""Exact static friction (issue 2): after the stick event v == 0 and x constant."""
import numpy as np
import pytest

import nsfric
from nsfric.solvers import ZenoError
from nsfric.symbolic.model import HybridModel
from conftest import solve


@pytest.mark.parametrize("solver", ["filippov", "ida", "radau5dae", "analytic"])
def test_dry_oscillator_sticks_exactly(solver):
    sol = solve("dry-oscillator", "coulomb", solver)
    stick = sol.events[-1]
    assert stick.kind == "stick" and stick.to_mode == "stick"
    assert len(sol.events) == 3  # two half cycles ending in reversals, then the stick
    t = np.linspace(stick.t, sol.t_span[1], 2000)
    x, v = sol(t)
    assert np.all(v == 0.0), np.max(np.abs(v))
    assert np.max(np.abs(x - x[0])) <= 1e-12
    lam = sol.derived("lam", t=t)
    assert np.all((lam >= 0) & (lam <= 1))
    # the static friction force equals the spring force (Krengel & Matuttis eq 14)
    F = sol.derived("F", t=t)
    assert np.max(np.abs(F - sol.params["k"] * x)) < 1e-12


@pytest.mark.parametrize("x0", [0.3, -0.35, 0.0])
def test_starts_stuck_inside_segment(x0):
    c = nsfric.get_case("dry-oscillator")
    sol = c.reference_solution(params={"x0": x0, "v0": 0.0}, t_end=3.0)
    assert [s.mode for s in sol.segments] == ["stick"]
    assert np.all(sol["v"] == 0) and np.all(sol["x"] == x0)


def test_chattering_without_sliding_mode_is_reported_not_hung():
    """Coulomb friction without its Filippov mode has no continuation at v = 0 inside
    the sticking segment: the solver must stop with ZenoError, not hang or go on."""
    good = nsfric.get_case("dry-oscillator").model()
    bad = HybridModel("no-sliding", good.states, good.params, good.switching, good.regions, (),
                      good.common_outputs)
    prob = nsfric.get_case("dry-oscillator").problem(params={"x0": 1.9})
    prob.model = bad
    with pytest.raises(ZenoError, match="no progress|Zeno|chattering"):
        nsfric.get_solver("filippov").solve(prob)
