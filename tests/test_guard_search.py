"""The skipped hidden-crossing searches of the Filippov solver (guard_search) never miss a
crossing, and ``method="auto"`` picks a stiff stepper exactly on stiff modes."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import nsfric
from nsfric.solvers import Problem, get_solver, guard_search
from nsfric.solvers.filippov import choose_method, stiffness_index
from nsfric.symbolic.derive import derive, param_vector

from test_filippov_events import _hump_model


def _touching(eps, a, b, ts):
    """State ``(g, g')`` of the guard ``g(t) = eps - a (t - ts)^2 - b (t - ts)^3``: a
    quadratic or cubic trajectory just reaching across the surface ``g = 0`` near ``ts``."""
    def dense(t):
        s = np.asarray(t, dtype=float) - ts
        return np.array([eps - a * s ** 2 - b * s ** 3, -2 * a * s - 3 * b * s ** 2])
    return dense


def _g(y, p):
    return np.array([y[0]])


def _rate(y, p):
    return np.array([y[1]])


@settings(max_examples=300, deadline=None)
@given(width=st.floats(1e-6, 0.02), a=st.floats(0.1, 100.0), cubic=st.floats(-1.0, 1.0),
       where=st.floats(0.05, 0.95), tb=st.floats(0.5, 5.0), n_check=st.integers(2, 12))
def test_excursion_between_samples_is_never_skipped(width, a, cubic, where, tb, n_check):
    """A crossing pair far narrower than the sample spacing inside one step is found."""
    ts = where * tb
    b = cubic * a / tb  # the cubic term bends the hump without removing it on the step
    eps = a * width ** 2
    dense = _touching(eps, a, b, ts)
    s = np.linspace(ts - 3 * width, ts + 3 * width, 20001)
    g = dense(s)[0]
    up = np.nonzero((g[:-1] < 0) & (g[1:] >= 0))[0]
    if len(up) == 0 or dense(0.0)[0] >= 0:
        return  # the cubic term removed the excursion or it starts above the surface
    found = guard_search.first_crossing(_g, _rate, (), dense, 0.0, tb, n_check)
    assert found is not None, "a crossing inside the step was missed"
    assert abs(found[0] - s[up[0]]) <= 2 * (s[1] - s[0])


@settings(max_examples=300, deadline=None)
@given(c=st.lists(st.floats(-10.0, 10.0), min_size=4, max_size=4), n_check=st.integers(2, 12))
def test_rates_bound_the_guard_between_samples(c, n_check):
    """On any cubic ``g`` (rate with an interior extremum included) the bound from the
    samples and rates is above ``g`` on every interval between samples."""
    def dense(t):
        t = np.asarray(t, dtype=float)
        return np.array([c[0] + c[1] * t + c[2] * t ** 2 + c[3] * t ** 3, c[1] + 2 * c[2] * t + 3 * c[3] * t ** 2])
    tt = np.linspace(0.0, 1.0, n_check + 2)
    y = dense(tt)
    ub = guard_search.excursion_bound(tt, y[0], y[1], guard_search.curvature_bound(tt, y[1:2])[0])
    for k in range(n_check + 1):
        gmax = dense(np.linspace(tt[k], tt[k + 1], 201))[0].max()
        assert ub[k] >= gmax - 1e-12 * (1 + abs(gmax))


def test_two_crossings_found_with_random_hump_heights():
    """End to end: the hump model's two crossings at every surface height below the peak."""
    model = _hump_model()
    sol = get_solver("filippov", rtol=1e-3, atol=1e-3)
    for c in (0.3, 0.49, 0.4999, 0.499999):
        s = sol.solve(Problem(model, {"c": c}, np.array([0.0, 1.0]), (0.0, 2.0)))
        half = np.sqrt(1 - 2 * c)
        # a crossing at slope |g'| = 2 half moves by dg / |g'| for a guard evaluated to dg:
        # the dense output near t = 1 gives g to about 1e-14 (measured: 1.06e-12 s at
        # c = 0.499999 on one machine, within 1e-12 s on another)
        atol = 1e-12 + 1e-14 / (2 * half)
        assert np.allclose([e.t for e in s.events], [1 - half, 1 + half], atol=atol, rtol=0)


def test_plateau_searches_are_skipped(monkeypatch):
    """On the sticking plateau of the dry oscillator (guard rates identically zero) and on
    its slip half cycles no bounded search is run; the events stay exact."""
    calls = []
    real = guard_search.minimize_scalar
    monkeypatch.setattr(guard_search, "minimize_scalar", lambda *a, **k: calls.append(1) or real(*a, **k))
    sol = nsfric.get_case("dry-oscillator").reference_solution()
    assert [e.kind for e in sol.events] == ["reversal", "reversal", "stick"]
    assert abs(sol.events[-1].t - 1.5 * np.pi) < 1e-11
    assert sol.segments[-1].mode == "stick" and sol.segments[-1].t1 == 10.0
    assert calls == []


def _jac_of(case, law=None, t_end=None):
    c = nsfric.get_case(case)
    prob = c.problem(law=law or c.default_law, t_end=t_end)
    d = derive(prob.model)
    p = tuple(param_vector(prob.model, prob.params).tolist())
    return d, p, prob


@pytest.mark.parametrize("case,t_end,stiff", [("slope-block", 10.0, True), ("slope-block", 0.02, False),
                                              ("sliding-plates", 1e12, True), ("sliding-plates", 10.0, False),
                                              ("dry-oscillator", 1e12, False)])
def test_auto_method_picks_a_stiff_stepper_on_stiff_modes(case, t_end, stiff):
    d, p, prob = _jac_of(case, t_end=t_end)
    mode = next(iter(d.modes)) if case != "sliding-plates" else "stick"
    f = d.rhs(mode)
    got = choose_method(f, prob.y0, p, prob.t_span[0], prob.t_span[1])
    assert got == ("LSODA" if stiff else "DOP853"), stiffness_index(f, prob.y0, p, *prob.t_span)


def test_auto_method_end_to_end():
    """The default run records the stepper it used: the compiled DOP853 on the non-stiff
    dry oscillator, LSODA on the slope block over 10 s (stiff contact springs)."""
    pytest.importorskip("numba")  # numba loaded: "auto" compiles the non-stiff modes
    assert nsfric.get_case("dry-oscillator").reference_solution().tolerances["method"] == "dop853-numba"
    sb = nsfric.get_case("slope-block").reference_solution(t_end=10.0)
    assert sb.tolerances["method"] == "LSODA"
    assert sb.t_span[1] == 10.0 and sb.segments[-1].t1 == 10.0
    with pytest.raises(ValueError, match="method must be 'auto', 'dop853-numba' or one of"):
        nsfric.get_case("dry-oscillator").reference_solution(method="euler")


@pytest.mark.parametrize("scale", [1e-5, 1e-12, 1.0, 1e3])
def test_crossing_located_to_a_few_ulps_of_its_own_time(scale):
    """The event time is located to a few ulps of itself, also far below 1 s: Schäfer's
    oblique impacts last 1e-5 s, and an edge of the saw-tooth located 4e-16 s late
    (the former absolute ``4e-16 max(1, |t|)``) kept the tooth's force ``mu |F_n| ~ 6 N``
    on for that long, ~1e-10 in ``psi_f`` per edge."""
    root = 0.6180339887498949 * scale  # g = cbrt(t - root): Brent's method creeps up on it

    def dense(t):
        s = np.asarray(t, dtype=float) - root
        return np.array([np.cbrt(s), np.ones_like(s)])
    t, i = guard_search.first_crossing(_g, _rate, (), dense, 0.0, 2 * scale, 3)
    assert i == 0 and abs(t - root) <= 4 * np.spacing(root)
