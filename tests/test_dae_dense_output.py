"""A DAE Solution's dense output is the solver's own, on every internal step (issue 23).

It interpolated between the samples asked for only: a study, which solved its reference
on 3 samples, measured rk4 on the dry-friction oscillator against a straight line
through them (0.729 at every step; filippov: 0.20, 0.11, 0.055).
"""
import numpy as np
import pytest

from scipy.interpolate import CubicHermiteSpline

import nsfric
from nsfric.cli import main
from nsfric.solvers.dense import StepPolynomials, sample_step

DTS = [0.1, 0.05, 0.025]
FILIPPOV = [0.2012256146090956, 0.11471919686069815, 0.0545177081646685]  # measured on main


@pytest.fixture(scope="module")
def oscillator():
    case = nsfric.get_case("dry-oscillator")
    return case, case.problem(None, None, None)


@pytest.mark.parametrize("solver", ["ida", "radau5dae"])
def test_dense_output_does_not_depend_on_the_samples(oscillator, solver):
    case, prob = oscillator
    t = np.linspace(0.0, case.t_end, 4001)
    exact = nsfric.get_solver("filippov").solve(prob)(t)
    sol = nsfric.get_solver(solver).solve(prob, t_eval=np.linspace(0.0, case.t_end, 3))
    err = np.max(np.abs(sol(t) - exact))
    assert err < 1e-8, err
    assert 0 < sol.stats["dense_error"] < 1e-12  # measured on every step: the solver's own interpolant
    assert "interpolant" in sol.info["dense_output"]


def test_step_polynomials_are_the_solvers_interpolant_of_degree_five():
    """Sampled at the step's Chebyshev-Lobatto points, a quintic is reproduced; a step
    without samples is the cubic Hermite polynomial of its ends."""
    quintic = np.polynomial.Polynomial([0.3, -1.0, 2.0, 0.5, -3.0, 1.7])
    t = np.array([0.0, 0.4, 1.0])

    class Solver:  # the solver's interpolant on its last step
        def interpolate(self, s):
            return np.array([quintic(s), 7.0])

    Y, YD = quintic(t)[None, :], quintic.deriv()(t)[None, :]
    inner = [sample_step(Solver(), t[0], t[1], 1), None]
    dense = StepPolynomials(t, Y, YD, inner)
    s = np.linspace(0.0, 0.4, 101)
    assert np.max(np.abs(dense(s)[0] - quintic(s))) < 1e-14 and dense.error < 1e-14
    s = np.linspace(0.4, 1.0, 101)
    hermite = CubicHermiteSpline(t[1:], Y[0, 1:], YD[0, 1:])
    assert np.max(np.abs(dense(s)[0] - hermite(s))) < 1e-14
    assert dense(0.4).shape == (1,) and dense(np.zeros((2, 3))).shape == (1, 2, 3)


def test_a_study_against_ida_measures_what_one_against_filippov_does():
    # one grid phase: the runs from t = 0 whose errors against filippov are FILIPPOV
    res = nsfric.converge("dry-oscillator", schemes=("rk4",), dts=DTS, reference="ida", phases=1)
    errors = [r["error"] for r in res.rows]
    assert errors == pytest.approx(FILIPPOV, rel=1e-6)
    order = np.polyfit(np.log(DTS), np.log(errors), 1)[0]
    assert order == pytest.approx(1.0, abs=0.1)


def test_the_sweep_cli_against_ida(tmp_path, capsys):
    assert main(["sweep", "dry-oscillator", "--scheme", "rk4", "--solver", "ida", "--grid",
                 "dt=" + ",".join(map(str, DTS)), "--observable", "error", "--no-cache",
                 "--out", str(tmp_path)]) == 0
    rows = np.genfromtxt(tmp_path / "sweep.csv", delimiter=",", names=True, dtype=None, encoding=None)
    assert list(rows["error"]) == pytest.approx(FILIPPOV, rel=1e-6)
