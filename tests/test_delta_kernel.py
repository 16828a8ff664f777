"""The compiled loop of the delta schemes (nsfric.schemes.delta_kernel): every member of a
compiled batch is the NumPy loop's run of that member -- rows, modes, events and
evaluations -- for Heun, BDF2 and BDF5 (predictor-corrector), with and without the
velocity projection, on the dry oscillator and the block on the slope."""
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import nsfric
from nsfric.papers.krengel_matuttis import slope_block_study as S
from nsfric.schemes import delta_kernel
from nsfric.schemes.trace import Untraceable
from nsfric.schemes.delta import (DeltaField, delta_choice, delta_indicators, delta_lambda_scalar, delta_side,
                                  pieces_exprs, run_batch)
from nsfric.symbolic.derive import param_vector

pytest.importorskip("numba")

#: (case, batched parameter, its range, dt, steps, keep)
CASES = {
    "dry-oscillator": ("x0", (-3.0, 3.0), 0.01, 600, 1),
    "slope-block": ("alpha", (5.0, 40.0), 5e-6, 3000, 7),
}
SCHEMES = [(integ, proj) for integ in ("heun", "bdf2", "bdf5") for proj in (False, True)]


def batch(case_name, values):
    """``(field, U0)`` of the members with the batched parameter at ``values``."""
    case = nsfric.get_case(case_name)
    name = CASES[case_name][0]
    model = case.model("coulomb")
    sets = [case.bind("coulomb", {name: float(v)}) for v in values]
    P = np.stack([param_vector(model, s) for s in sets], axis=1)
    U0 = np.stack([case.y0("coulomb", s) for s in sets], axis=1)
    return DeltaField(model, P), U0


def run(case_name, values, integ, proj, backend, corrections=1):
    _, _, dt, n, keep = CASES[case_name]
    f, U0 = batch(case_name, values)
    out = run_batch(f, U0, dt, n, integ, proj, corrections=corrections, keep=keep, backend=backend)
    assert f.backend == backend
    return out, f.n_eval


def assert_same(a, b):
    """Rows (bit for bit, NaN where NaN), modes and events of two runs."""
    (ta, Ya, ea, Ma), (tb, Yb, eb, Mb) = a, b
    np.testing.assert_array_equal(ta, tb)
    np.testing.assert_array_equal(Ya, Yb)  # NaN equals NaN here
    np.testing.assert_array_equal(Ma, Mb)
    assert ea == eb


@pytest.mark.parametrize("case_name", list(CASES))
@pytest.mark.parametrize("integ,proj", SCHEMES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_members_equal_the_numpy_runs(case_name, integ, proj, data):
    lo, hi = CASES[case_name][1]
    values = data.draw(st.lists(st.floats(lo, hi, allow_nan=False), min_size=1, max_size=3), label="values")
    compiled, n_eval = run(case_name, values, integ, proj, "numba")
    i = data.draw(st.integers(0, len(values) - 1), label="member")
    single, n_single = run(case_name, [values[i]], integ, proj, "numpy")  # the per-member path
    t, Y, ev, M = compiled
    assert_same((t, Y[:, i:i + 1], ev[i:i + 1], M[i:i + 1]), single)
    if len(values) == 1:
        assert n_eval == n_single
    numpy_batch, _ = run(case_name, values, integ, proj, "numpy")
    assert_same(compiled, numpy_batch)


def test_events_and_projection_are_exercised():
    """The dry oscillator sticks, slips and reverses; the projection sets the velocity to
    zero on sticking (the members above compare real transitions)."""
    (t, Y, ev, M), _ = run("dry-oscillator", [2.1, -2.5], "bdf2", True, "numba")
    kinds = {e["kind"] for e in ev[0] + ev[1]}
    assert {"stick", "reversal"} <= kinds
    assert set(np.unique(M)) == {-1, 0, 1}
    first = next(e for e in ev[0] if e["kind"] == "stick")
    row = int(round(first["t"] / 0.01))
    assert Y[1, 0, row] == 0.0  # projected: at rest


def test_more_events_than_the_room_reruns_with_more(monkeypatch):
    ref, _ = run("dry-oscillator", [2.1, 2.9], "heun", False, "numba")
    assert max(len(e) for e in ref[2]) > 2
    monkeypatch.setattr(delta_kernel, "EVENT_ROOM", 1)
    again, _ = run("dry-oscillator", [2.1, 2.9], "heun", False, "numba")
    assert_same(again, ref)


def test_corrections_and_a_diverging_member():
    """PE(CE)^3 is traced like PE(CE); BDF5 at 1 mm diverges: its rows are NaN from the
    step after its state became entirely non-finite, the other member goes on."""
    a, _ = run("slope-block", [15.0, 30.0], "bdf2", False, "numba", corrections=3)
    b, _ = run("slope-block", [15.0, 30.0], "bdf2", False, "numpy", corrections=3)
    assert_same(a, b)
    case = nsfric.get_case("slope-block")
    d = {}
    for backend in ("numba", "numpy"):
        f, U0 = batch("slope-block", [15.0, 15.0])
        f.P[1, 0] = 1e-3  # l: 1 mm
        d[backend] = run_batch(f, U0, S.DT_PAPER, 20000, "bdf5", keep=10, backend=backend)
    assert_same(d["numba"], d["numpy"])
    Y = d["numba"][1]
    assert not np.all(np.isfinite(Y[:, 0])) and np.all(np.isfinite(Y[:, 1]))
    assert np.isnan(Y[:, 0, -1]).all()
    del case


def test_a_scheme_that_reads_the_stuck_flags_runs_on_numpy():
    from nsfric.papers.krengel_matuttis.slope_block_mechanism import RestartOnStick

    f, U0 = batch("slope-block", [15.0])
    with pytest.raises(Untraceable, match="field.stuck"):
        run_batch(f, U0, 5e-6, 10, RestartOnStick(2), backend="numba")
    run_batch(f, U0, 5e-6, 10, RestartOnStick(2))
    assert f.backend == "numpy"


def test_without_numba_the_numpy_loop_runs(monkeypatch):
    ref, _ = run("dry-oscillator", [2.1], "heun", False, "numba")
    monkeypatch.setitem(sys.modules, "numba", None)
    f, U0 = batch("dry-oscillator", [2.1])
    out = run_batch(f, U0, 0.01, 600, "heun")
    assert f.backend == "numpy"
    assert_same(out, ref)
    monkeypatch.setenv("NSFRIC_BATCH_BACKEND", "fortran")
    with pytest.raises(ValueError, match="backend must be one of"):
        run_batch(f, U0, 0.01, 10, "heun")


def test_simulate_runs_the_compiled_loop_and_reports_it():
    one = nsfric.simulate("dry-oscillator", "coulomb", "delta-bdf5", 0.01, 6.0, params={"x0": 2.1})
    sol = nsfric.simulate("dry-oscillator", "coulomb", "delta-bdf5", 0.01, 6.0, params={"x0": [2.1, 2.5]})
    assert sol.info["backend"] == "numba"
    np.testing.assert_array_equal(sol.y[:, 0, :], one.y)


@settings(max_examples=200, deadline=None)
@given(g=st.sampled_from([0.0, -0.0, 1.5, -2.0, 1e-310, np.inf, np.nan]),
       s_plus=st.sampled_from([0.0, -0.0, -1.0, 2.0, 1e-320, -np.inf, np.nan]),
       s_minus=st.sampled_from([0.0, 1.0, -3.0, 1e300, np.inf]))
def test_scalar_decisions_are_the_vectorised_ones(g, s_plus, s_minus):
    """Eq 12 with eqs 15-17 for one member (what the compiled loop runs) is the NumPy
    arithmetic, also at g = 0, sigma = 0, underflow and non-finite values."""
    with np.errstate(all="ignore"):
        a1, a2 = delta_indicators(np.array([g]), np.array([s_plus]), np.array([s_minus]))
        lam = (a1 / (a1 + a2))[0]
    got = delta_lambda_scalar(g, s_plus, s_minus)
    assert (np.isnan(lam) and np.isnan(got)) or got == lam
    fp, fm = np.array([[1.0, 1.0], [2.0, 2.0]]), np.array([[3.0, 3.0], [4.0, 4.0]])
    for stuck in (False, True):  # the vectorised rates (a batch of two) against the choice
        with np.errstate(all="ignore"):
            f = DeltaField.rates((fp, fm, np.array([g, g]), np.array([lam, lam])), np.array([stuck, stuck]))
        c = delta_choice(stuck, g, lam)
        want = fp if c == 1 else fm if c == -1 else (1 - lam) * fp + lam * fm
        np.testing.assert_array_equal(f, want)
    from nsfric.schemes.delta_loop import side_codes

    assert side_codes(np.array([False]), np.array([g]), np.array([lam]))[0] == delta_side(False, g, lam)


def test_rotating_block_compiles_and_rounds_like_numpy():
    """The rotating block's pieces have y**3, l**3 and l**4 (eq 21-22's rotational term):
    printed as products (:mod:`nsfric.symbolic.printing`) its delta runs compile, give the
    NumPy loop's bits, and a member alone equals the same member inside a batch."""
    case = nsfric.get_case("slope-block-rotating")
    model = case.model("coulomb")
    v = case.bind("coulomb", {"alpha": 15.0})
    y0 = case.y0("coulomb", v)
    U = np.stack([y0] * 4, axis=1)
    U[1] += np.linspace(0.0, 1e-7, 4)
    runs = {}
    for backend, cols in (("numba", slice(None)), ("numpy", slice(None)), ("single", slice(2, 3))):
        f = DeltaField(model, param_vector(model, v))
        runs[backend] = run_batch(f, U[:, cols], 5e-6, 1500, "bdf2",
                                  backend="numpy" if backend == "single" else backend)
        assert f.backend == ("numpy" if backend == "single" else backend)
    np.testing.assert_array_equal(runs["numba"][1], runs["numpy"][1])
    np.testing.assert_array_equal(runs["numpy"][1][:, 2], runs["single"][1][:, 0])


def test_powers_past_products_stay_on_numpy(monkeypatch):
    """A power the printer leaves as ``pow`` (past MAX_PRODUCT) is refused by the kernel."""
    from nsfric.symbolic import printing

    monkeypatch.setattr(printing, "MAX_PRODUCT", 2)
    from nsfric.schemes.batch_kernel import check_powers

    case = nsfric.get_case("slope-block-rotating")
    model = case.model("coulomb")
    s, d, exprs = pieces_exprs(model)
    with pytest.raises(Untraceable, match=r"integer powers \[-4, 3, 4\]"):
        check_powers(model, exprs)
