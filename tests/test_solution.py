"""One Solution type (issue 8, item 4): a discrete run and a reference solve are the
same type and the same study code takes either; schemes and studies take a Problem."""
import numpy as np
import pytest

import nsfric
from nsfric.schemes import simulate
from nsfric.solution import Solution, StepInterpolant
from nsfric.solvers.base import get_solver
from nsfric.study.convergence import converge
from nsfric.study.runs import discrete_errors

OSC = nsfric.get_case("dry-oscillator")


@pytest.fixture(scope="module")
def prob():
    return OSC.problem("coulomb", t_end=6.0)


@pytest.fixture(scope="module")
def exact(prob):
    return get_solver("analytic").solve(prob, t_eval=np.linspace(0.0, 6.0, 601))


def test_discrete_run_is_a_solution_with_the_current_names(prob, exact):
    res = simulate(prob, scheme="rk4", dt=0.01)
    assert type(res) is type(exact) is Solution
    assert res.scheme == "rk4" and res.dt == 0.01 and exact.scheme is None
    assert res.law == "coulomb" and res.case == OSC.name
    assert res.t.shape == (601,) and res.y.shape == (2, 601) and len(res.modes) == 601
    assert np.array_equal(res["x"], res.y[0]) and res["F"].shape == res.t.shape
    assert res.stats["nfev"] == res.n_rhs == 4 * 600 and res.n_steps == 600 and res.seconds > 0
    assert res.summary == {} and exact.summary == {}
    assert res.termination == exact.termination == "reached t_end"
    # segments are the runs of rows in one mode, and follow the modes of the rows
    assert [s.mode for s in res.segments] == [m for i, m in enumerate(res.modes)
                                             if i == 0 or m != res.modes[i - 1]]
    assert set(res.columns()) == set(exact.columns()) == {"t", "x", "v", "F", "mode", *OSC.model("coulomb").output_names}


def test_dense_evaluation_between_step_points_is_piecewise_linear(prob):
    res = simulate(prob, scheme="heun", dt=0.05)
    assert np.array_equal(res(res.t[:-1]), res.y[:, :-1])  # exact at the step points
    mid = 0.5 * (res.t[:-1] + res.t[1:])
    assert np.allclose(res(mid), 0.5 * (res.y[:, :-1] + res.y[:, 1:]), rtol=0, atol=1e-15)
    # a repeated time (a reset row) gives the later row
    f = StepInterpolant([0.0, 1.0, 1.0, 2.0], np.array([[0.0, 1.0, 5.0, 7.0]]))
    assert f(1.0)[0] == 5.0 and f(0.5)[0] == 0.5 and f(1.5)[0] == 6.0


def test_events_read_by_attribute_and_by_key(prob, exact):
    res = simulate(prob, scheme="rk4-event", dt=0.01)
    for sol in (res, exact):
        assert sol.events and all(e.kind == e["kind"] and e.t == e["t"] and e.to_mode == e["to"]
                                  for e in sol.events)
    assert [e.kind for e in res.events] == [e.kind for e in exact.events]
    assert np.allclose([e.t for e in res.events], [e.t for e in exact.events], atol=1e-6)


def test_study_code_takes_a_discrete_run_or_a_reference_solve(prob, exact):
    """The same errors against the closed form and against a fine discrete run (the
    fine run's own error is far below the coarse one's)."""
    coarse = simulate(prob, scheme="heun-event", dt=0.02)
    fine = simulate(prob, scheme="rk4-event", dt=0.0005)
    e_exact = discrete_errors(coarse, exact)
    e_fine = discrete_errors(coarse, fine)
    assert discrete_errors(fine, exact)["error"] < 1e-8
    assert e_exact["error"] > 1e-5
    assert abs(e_fine["error"] - e_exact["error"]) < 1e-3 * e_exact["error"]
    # and the study engine itself: a Problem and a reference Solution
    dts = [0.04, 0.02, 0.01, 0.005]  # four steps: the fewest an order fit accepts
    by_name = converge(prob, schemes=["heun-event"], dts=dts, reference="analytic")
    by_sol = converge(prob, schemes=["heun-event"], dts=dts, reference=fine)
    assert [r["reference"] for r in by_sol.rows] == ["rk4-event"] * 4
    a, b = by_name.series("coulomb", "heun-event")[1], by_sol.series("coulomb", "heun-event")[1]
    assert np.allclose(a, b, rtol=1e-3) and not np.array_equal(a, b)
    p_name, p_sol = by_name.fits[("coulomb", "heun-event")].order, by_sol.fits[("coulomb", "heun-event")].order
    assert np.isfinite(p_name) and abs(p_name - p_sol) < 0.01


def test_problem_and_case_give_the_same_run(prob):
    a = simulate(prob, scheme="gear5", dt=0.02)
    b = nsfric.simulate(OSC, "coulomb", "gear5", 0.02, t_end=6.0)
    assert np.array_equal(a.y, b.y) and a.modes == b.modes
    ca = converge(prob, schemes=["euler"], dts=[0.1, 0.05])
    cb = nsfric.converge("dry-oscillator", "coulomb", ["euler"], dts=[0.1, 0.05], t_end=6.0)
    assert [r["error"] for r in ca.rows] == [r["error"] for r in cb.rows]


def test_problem_rejects_law_and_params(prob):
    with pytest.raises(ValueError, match="belong to the Problem"):
        simulate(prob, "coulomb", scheme="euler", dt=0.1)
    with pytest.raises(ValueError, match="params belong to the Problem"):
        converge(prob, schemes=["euler"], dts=[0.1], params={"mu": 0.2})
    with pytest.raises(ValueError, match="Problem's law"):
        converge(prob, "other", schemes=["euler"], dts=[0.1])
    with pytest.raises(TypeError, match="Problem"):
        converge("dry-oscillator", schemes=["euler"], dts=[0.1])
