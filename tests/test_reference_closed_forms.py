"""Reference solvers against closed forms: every solver within the spec's 1e-10 of the
closed forms (scaled states; at the options of ``conftest.EXACT``, with the measured
errors there), switching times within 1e-10 t_end."""
import math

import mpmath
import numpy as np
import pytest
import sympy as sp

import nsfric
from conftest import CLOSED_FORM_CASES, solve, solve_exact


def _scale(case):
    # errors are measured on O(1) quantities: scale states by their max magnitude
    ref = solve(*case, "analytic")
    return np.max(np.abs(ref.y), axis=1)


@pytest.mark.parametrize("case", CLOSED_FORM_CASES, ids=lambda c: "/".join(c))
@pytest.mark.parametrize("solver", ["filippov", "ida", "radau5dae"])
def test_matches_closed_form(case, solver):
    ref = solve(*case, "analytic")
    sol = solve_exact(*case, solver)
    t = np.unique(ref.t)
    err = np.max(np.abs(sol(t) - ref(t)) / _scale(case)[:, None])
    assert err <= 1e-10, f"{solver} vs closed form: max scaled error {err:.3g}"
    assert [(e.kind, e.to_mode) for e in sol.events] == [(e.kind, e.to_mode) for e in ref.events]
    T = nsfric.get_case(case[0]).t_end
    for a, b in zip(sol.events, ref.events):
        assert abs(a.t - b.t) <= 1e-10 * T, f"switch at {b.t}: {solver} off by {a.t - b.t:.3g}"


def test_csds_stick_time_is_lambert_w():
    """Sliding ends when |F_S| = F_max: 2 (4 - t) = exp(-t/2)  =>  t* = 4 + 2 W0(-e^-2/4)."""
    t = sp.Symbol("t", positive=True)
    roots = sp.solve(sp.Eq(2 * (4 - t), sp.exp(-t / 2)), t)
    exact = min(float(r) for r in roots)
    assert math.isclose(exact, 4 + 2 * float(mpmath.lambertw(-math.exp(-2) / 4)), rel_tol=1e-15)
    for solver in ("analytic", "filippov", "ida"):
        sol = solve("sliding-plates", "c-sds", solver)
        (stick,) = [e for e in sol.events if e.kind == "stick"]
        assert abs(stick.t - exact) < 1e-10, (solver, stick.t - exact)


def test_csds_sliding_phase_closed_form():
    """While sliding: v = 4 - t, xi = 1 - exp(-t/2) (Führer et al. eq 9 with F = -F_max)."""
    ref = solve("sliding-plates", "c-sds", "filippov")
    t = np.linspace(0, 3.9, 50)
    xi, v = ref(t)
    assert np.max(np.abs(v - (4 - t))) < 1e-12
    assert np.max(np.abs(xi - (1 - np.exp(-t / 2)))) < 1e-12


def test_dsds_reset_and_eq20_threshold():
    """D-SDS: xi jumps to xi_D = -(gamma v0 - F_max)/k = -7 at t = 0 (eq 3); sticking
    begins at v = gamma F_max/(m k) = 2 (eq 20), i.e. t = 2."""
    for solver in ("analytic", "filippov", "ida"):
        sol = solve("sliding-plates", "d-sds", solver)
        first, stick = sol.events
        assert first.t == 0 and first.kind == "slip" and first.y == (-7.0, 4.0)
        assert stick.kind == "stick" and abs(stick.t - 2.0) < 1e-10
        assert abs(sol(2.0)[1] - 2.0) < 1e-10
        # while sliding F = -F_max exactly and F_S = -F_max (the constraint)
        sel = (sol.t > 0) & (sol.t < 2)
        assert np.all(np.abs(sol["F_S"][sel] + 1) < 1e-10)


def test_dry_oscillator_half_cycles_closed_form():
    """Half cycles of length pi/omega about x = -+ mu F_N/k; the turning points follow
    x_{n+1} = 2 c_n - x_n; sticking where |x| <= mu F_N / k."""
    c = nsfric.get_case("dry-oscillator")
    p = c.bind()
    omega = math.sqrt(p["k"] / p["m"])
    d = p["mu"] * p["F_N"] / p["k"]
    x, turns = p["x0"], []
    while abs(x) > d:
        centre = d if x > 0 else -d
        x = 2 * centre - x
        turns.append(x)
    sol = solve("dry-oscillator", "coulomb", "filippov")
    assert len(sol.events) == len(turns)
    for i, (e, xt) in enumerate(zip(sol.events, turns)):
        assert abs(e.t - (i + 1) * math.pi / omega) < 1e-10
        assert abs(e.y[0] - xt) < 1e-10
    assert sol.events[-1].kind == "stick" and all(e.kind == "reversal" for e in sol.events[:-1])


def test_normal_impact_restitution_eqs_3_4():
    c = nsfric.get_case("normal-impact")
    for solver in ("analytic", "filippov", "ida"):
        sol = solve("normal-impact", "linear-dashpot", solver)
        got, want = c.restitution(sol), c.restitution_closed_form(sol.params)
        assert abs(got["e_n"] - want["e_n"]) < 1e-9
        assert abs(got["t_n"] - want["t_n"]) < 1e-10 * want["t_n"]
    # the paper's numbers: e_n = 0.87, t_n = 1e-5 s
    assert abs(want["e_n"] - 0.87) < 1e-3 and abs(want["t_n"] - 1e-5) < 1e-8
    # after the contact: no force, no spring energy; kinetic energy e_n^2 of the initial
    sol = solve("normal-impact", "linear-dashpot", "filippov")
    after = sol.t > got["t_n"]
    assert np.all(sol["F_n"][after] == 0) and np.all(sol["E_el"][after] == 0)
    assert abs(sol["E_kin"][-1] / sol["E_kin"][0] - want["e_n"] ** 2) < 1e-9
    # ending at zero force is earlier and less dissipative than at zero overlap
    f = c.restitution(solve("normal-impact", "linear-dashpot-force-end", "filippov"))
    assert f["t_n"] < want["t_n"] and f["e_n"] > want["e_n"]


@pytest.mark.parametrize("solver", ["analytic", "filippov", "ida", "radau5dae"])
def test_dsds_tangential_exit_at_start(solver):
    """v(0) = gamma F_max/(m k) = 2: the reset puts the state on the sliding surface
    exactly where the stick field stops pushing out (eq 20), so the contact sticks at
    once -- every solver must leave sliding at t = 0, not slide on with v < 0."""
    sol = nsfric.get_case("sliding-plates").reference_solution(
        "d-sds", solver=solver, params={"v0": 2.0}, t_end=3.0)
    assert [(e.kind, e.to_mode, e.t) for e in sol.events] == [("slip", "slip-", 0.0), ("stick", "stick", 0.0)]
    assert np.all(sol["v"] > 0)
