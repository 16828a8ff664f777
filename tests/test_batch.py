"""Batched runs (array-valued params): one Solution with a leading batch axis whose members
equal the per-member runs, by the compiled (numba), the NumPy and the per-member paths."""
import re
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

import nsfric
from nsfric.memo import Memo
from nsfric.errors import BudgetError
from nsfric.schemes import batch_kernel
from nsfric.schemes.batch import BatchField, simulate_batch
from nsfric.symbolic.kernel import load_source

numba = pytest.importorskip("numba")

#: (case, law, scheme, batched parameter, its range, dt, t_end): the laws of sliding-plates,
#: dry-oscillator and slope-block on the traced schemes (one compiled kernel each)
COMBOS = [
    ("sliding-plates", "c-sds", "heun", "v0", (-8.0, 8.0), 1e-2, 6.0),
    ("sliding-plates", "d-sds", "rk4", "v0", (-8.0, 8.0), 1e-2, 6.0),
    ("sliding-plates", "d-sds", "euler", "xi0", (-3.0, 3.0), 5e-2, 6.0),
    ("dry-oscillator", "coulomb", "velocity-verlet", "x0", (-3.0, 3.0), 1e-2, 6.0),
    ("slope-block", "cundall-strack", "symplectic-euler", "vx0", (-0.2, 0.2), 5e-6, 2e-3),
]
IDS = [f"{c[0]}/{c[1]}/{c[2]}" for c in COMBOS]


def run(combo, values, backend=None, **kw):
    case, law, scheme, name, _, dt, t_end = combo
    return simulate_batch(nsfric.get_case(case), law, scheme, dt, t_end, {name: np.asarray(values)},
                          len(values), backend=backend, **kw)


def single(combo, value):
    case, law, scheme, name, _, dt, t_end = combo
    return nsfric.simulate(case, law, scheme, dt, t_end, params={name: float(value)})


def assert_member(sol, i, ref):
    np.testing.assert_allclose(sol.y[:, i, :], ref.y, rtol=1e-12, atol=1e-300)
    m = sol.member(i)
    assert m.modes == ref.modes
    assert m.termination == ref.termination
    assert [s.mode for s in m.segments] == [s.mode for s in ref.segments]


@pytest.fixture(scope="module", params=COMBOS, ids=IDS)
def combo(request):
    """Each combination compiled once for the module (the first batch run compiles)."""
    sol = run(request.param, np.linspace(*request.param[4], 3))
    assert sol.info["backend"] == "numba"
    return request.param


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_members_equal_single_runs(combo, data):
    lo, hi = combo[4]
    values = data.draw(st.lists(st.floats(lo, hi, allow_nan=False), min_size=1, max_size=4), label="values")
    sol = run(combo, values)
    assert sol.info["backend"] == "numba"
    assert sol.y.shape == (len(sol.model.states), len(values), len(sol.t))
    i = data.draw(st.integers(0, len(values) - 1), label="member")
    assert_member(sol, i, single(combo, values[i]))


def test_public_api_shape_and_derived():
    v0 = np.linspace(1, 8, 7)
    sol = nsfric.simulate("sliding-plates", law="c-sds", scheme="heun", dt=1e-2, t_end=1, params={"v0": v0})
    assert sol["v"].shape == (7, 101) and sol.batch == 7
    np.testing.assert_array_equal(sol.params["v0"], v0)
    ref = nsfric.simulate("sliding-plates", law="c-sds", scheme="heun", dt=1e-2, t_end=1, params={"v0": v0[4]})
    np.testing.assert_array_equal(sol["v"][4], ref["v"])
    np.testing.assert_allclose(sol["F_S"][4], ref["F_S"], rtol=1e-14)   # derived, by the row's mode
    np.testing.assert_allclose(sol(0.505)[:, 4], ref(0.505), rtol=1e-14)  # dense: linear between rows
    assert sol.modes[4] == ref.modes
    with pytest.raises(ValueError, match="batched"):
        sol.columns()
    with pytest.raises(ValueError, match="member index"):
        sol.member(7)


@pytest.mark.parametrize("backend", ["numpy", "loop"])
def test_numpy_and_loop_paths_give_the_same_numbers(backend):
    combo = COMBOS[1]  # d-sds: the reset adjustment and exact surface decisions
    values = np.linspace(-8, 8, 9)
    ref = run(combo, values)
    sol = run(combo, values, backend=backend)
    assert sol.info["backend"] == backend
    np.testing.assert_allclose(sol.y, ref.y, rtol=1e-12, atol=1e-300)
    assert sol.modes == ref.modes


def test_numpy_fallback_without_numba(monkeypatch):
    """With numba not importable the auto path is the NumPy one (same numbers)."""
    combo = COMBOS[3]
    values = np.array([-2.5, 0.3, 2.1])
    ref = run(combo, values)
    monkeypatch.setitem(sys.modules, "numba", None)
    sol = run(combo, values)
    assert sol.info["backend"] == "numpy"
    np.testing.assert_allclose(sol.y, ref.y, rtol=1e-12, atol=1e-300)


def test_environment_variable_forces_the_backend(monkeypatch):
    monkeypatch.setenv("NSFRIC_BATCH_BACKEND", "numpy")
    sol = nsfric.simulate("sliding-plates", "c-sds", "euler", 0.1, 1.0, params={"v0": [1.0, 2.0]})
    assert sol.info["backend"] == "numpy"
    monkeypatch.setenv("NSFRIC_BATCH_BACKEND", "fortran")
    with pytest.raises(ValueError, match="backend must be one of"):
        nsfric.simulate("sliding-plates", "c-sds", "euler", 0.1, 1.0, params={"v0": [1.0, 2.0]})


@pytest.mark.parametrize("scheme", ["implicit-euler", "bdf2-pc", "delta-heun"])
def test_untraced_schemes_still_return_a_batch(scheme):
    """Implicit and multistep schemes run member by member; the delta schemes run their
    own compiled loop (nsfric.schemes.delta_kernel, tested in test_delta_kernel.py)."""
    case, law = ("dry-oscillator", "coulomb") if scheme.startswith("delta") else ("sliding-plates", "d-sds")
    name = "x0" if case == "dry-oscillator" else "v0"
    values = np.array([1.5, 3.0])
    sol = nsfric.simulate(case, law, scheme, 0.05, 2.0, params={name: values})
    assert sol.info["backend"] == ("numba" if scheme.startswith("delta") else "loop")  # delta: its own loop
    ref = nsfric.simulate(case, law, scheme, 0.05, 2.0, params={name: values[1]})
    np.testing.assert_allclose(sol.y[:, 1, :], ref.y, rtol=1e-12)
    assert sol.member(1).modes == ref.modes


@pytest.mark.parametrize("backend", ["auto", "numpy"])
def test_diverged_members_keep_nan_rows(backend):
    """A stiff member diverges (explicit Euler on the penalty normal contact, omega dt = 10)
    while the other runs on; its rows equal the per-member run's (NaN after it)."""
    case = nsfric.get_case("slope-block")
    sol = simulate_batch(case, "coulomb", "euler", 1e-3, 0.5, {"Y": np.array([5e3, 5e7])}, 2, backend=backend)
    ref = nsfric.simulate(case, "coulomb", "euler", 1e-3, 0.5, params={"Y": 5e7})
    assert "diverged" in ref.termination
    np.testing.assert_array_equal(sol.y[:, 1, :], ref.y)
    assert sol.member(1).termination == ref.termination
    assert sol.member(1).modes == ref.modes
    assert sol.member(0).termination == "reached t_end"
    assert "1 of 2 members diverged" in sol.termination


def test_bad_batches_are_refused():
    case = nsfric.get_case("sliding-plates")
    with pytest.raises(ValueError, match="'v0'.*1-D"):
        nsfric.simulate(case, "c-sds", "euler", 0.1, 1.0, params={"v0": np.ones((2, 2))})
    with pytest.raises(ValueError, match="one length"):
        nsfric.simulate(case, "c-sds", "euler", 0.1, 1.0, params={"v0": [1, 2], "xi0": [0, 0, 0]})
    with pytest.raises(ValueError, match="parameter 'k' must lie in"):
        nsfric.simulate(case, "c-sds", "euler", 0.1, 1.0, params={"k": [1.0, -1.0]})
    with pytest.raises(ValueError, match="parameter 'k' must lie in"):
        nsfric.simulate(case, "c-sds", "euler", 0.1, 1.0, params={"k": [1.0, np.nan]})
    with pytest.raises(ValueError, match="unknown parameter"):
        nsfric.simulate(case, "c-sds", "euler", 0.1, 1.0, params={"kk": [1.0, 2.0]})
    with pytest.raises(ValueError, match="stages"):
        nsfric.simulate(case, "c-sds", "euler", 0.1, 1.0, params={"v0": [1.0, 2.0]}, stages=True)
    with pytest.raises(ValueError, match="rk4-event.*different rows"):
        nsfric.simulate(case, "c-sds", "rk4-event", 0.1, 1.0, params={"v0": [1.0, 2.0]})
    with pytest.raises(BudgetError):
        nsfric.simulate(case, "c-sds", "euler", 0.1, 1.0, params={"v0": [1.0, 2.0]}, max_steps=5)


def test_the_kernel_is_the_traced_scheme():
    """The generated step is the scheme's own: Heun's two evaluations, the D-SDS reset
    applied to the algebraic state after each constrained evaluation."""
    from nsfric.schemes import get_scheme
    from nsfric.schemes.field import _compiled

    model = nsfric.get_case("sliding-plates").model("d-sds")
    start, body, hist, n_eval = batch_kernel.trace_scheme(get_scheme("heun"), _compiled(model), 6)
    assert n_eval == 2 and not start and not hist
    assert sum("= evaluate(" in line for line in body) == 2
    adjust = [line for line in body if re.fullmatch(r"if M\d+ == [0-9]+:", line.strip())]
    assert len(adjust) == 4  # after each of the 2 evaluations: slip+ and slip- set xi
    with pytest.raises(batch_kernel.Untraceable):
        batch_kernel.trace_scheme(get_scheme("gear5"), _compiled(model), 6)


def test_generated_source_cache_survives_a_corrupt_file(tmp_path, monkeypatch):
    monkeypatch.setenv("NSFRIC_CACHE_DIR", str(tmp_path))
    src = "VALUE = 42\n"
    mod = load_source(src, "cachetest")
    assert mod.VALUE == 42
    path = mod.__file__
    with open(path, "w") as fh:
        fh.write("VALUE = 'corrupt'\n")
    from nsfric.symbolic import generated
    generated._MODULES.clear()
    assert load_source(src, "cachetest").VALUE == 42
    assert open(path).read() == src


def test_batch_field_decides_surfaces_member_by_member():
    """At v = 0 exactly (the dry oscillator's start) each member's mode comes from the
    mode logic: sticking inside the static band, slipping outside it."""
    model = nsfric.get_case("dry-oscillator").model("coulomb")
    vals = model.bind()
    P = np.array([[vals[q.name]] * 2 for q in model.params])
    fld = BatchField(model, P)
    codes = fld.codes(np.array([[0.1, 2.1], [0.0, 0.0]]))
    assert [model.mode_names[c] for c in codes] == ["stick", "slip-"]


@pytest.mark.parametrize("case,law,scheme,dt,t_end", [
    ("sliding-plates", "d-sds", "velocity-verlet", 0.05, 10.0),
    ("slope-block", "coulomb", "heun", 1e-3, 0.5),  # diverges: NaN rows, evaluations counted as before
])
def test_compiled_single_run_is_the_same_run(case, law, scheme, dt, t_end):
    """``compiled=True`` (what ``converge`` uses): rows, modes, segments, evaluations and
    termination of the per-step Python run."""
    from nsfric.schemes import simulate

    prob = nsfric.get_case(case).problem(law, None, t_end)
    a = simulate(prob, scheme=scheme, dt=dt)
    b = simulate(prob, scheme=scheme, dt=dt, compiled=True)
    np.testing.assert_array_equal(a.y, b.y)
    assert (a.modes, a.n_rhs, a.termination) == (b.modes, b.n_rhs, b.termination)
    assert [(s.mode, s.t0, s.t1) for s in a.segments] == [(s.mode, s.t0, s.t1) for s in b.segments]
    from nsfric.schemes.batch import compiled_integrate
    from nsfric.symbolic.derive import param_vector

    n = int(round(t_end / dt))  # the compiled kernel applies (else simulate ran per step)
    assert compiled_integrate(prob.model, param_vector(prob.model, prob.params), nsfric.schemes.get_scheme(scheme),
                              prob.y0, 0.0, dt, n) is not None


def test_compiled_single_run_steps_past_a_corner_per_step():
    """Cundall-Strack on the slope starts at rest on both switching surfaces (a corner the
    kernel leaves to the mode logic): that step runs per step, the kernel goes on from
    there, and the run is the per-step run (what the slope-block figures use)."""
    from nsfric.schemes import get_scheme, simulate
    from nsfric.schemes.batch import compiled_integrate
    from nsfric.schemes.field import DiscreteField

    prob = nsfric.get_case("slope-block").problem("cundall-strack", {"alpha": 15.0}, 2e-3)
    a = simulate(prob, scheme="heun", dt=5e-6)
    b = simulate(prob, scheme="heun", dt=5e-6, compiled=True)
    np.testing.assert_array_equal(a.y, b.y)
    assert (a.modes, a.n_rhs, a.termination) == (b.modes, b.n_rhs, b.termination)
    args = (prob.model, DiscreteField(prob.model, prob.params).p, get_scheme("heun"), prob.y0, 0.0, 5e-6, 400)
    assert compiled_integrate(*args) is None  # no field to take the corner step: per step
    fld = DiscreteField(prob.model, prob.params)
    out = compiled_integrate(*args, fld)
    np.testing.assert_array_equal(out[1], a.y)
    assert out[2]["nfev"] == a.n_rhs and fld.n_rhs == 2  # one Heun step per step: two evaluations


def test_a_kernel_that_does_not_compile_falls_back_to_numpy(monkeypatch):
    """Generated code numba rejects (here: made unparsable) is no crash: the auto path
    runs the NumPy field, and the failure is remembered for the process."""
    monkeypatch.setattr(batch_kernel, "_KERNELS", Memo(64))
    monkeypatch.setattr(batch_kernel, "_FIELDS", Memo(32))
    real = batch_kernel.load_source
    calls = []

    def broken(source, stem="kernel"):
        calls.append(stem)
        return real(source + "\ndef broken(:\n", stem)
    monkeypatch.setattr(batch_kernel, "load_source", broken)
    case = nsfric.get_case("dry-oscillator")
    for _ in range(2):
        sol = simulate_batch(case, "coulomb", "midpoint", 0.05, 2.0, {"x0": np.array([1.0, 2.5])}, 2)
        assert sol.info["backend"] == "numpy"
    assert len(calls) == 1
    with pytest.raises(batch_kernel.Untraceable, match="no compiled kernel"):
        simulate_batch(case, "coulomb", "midpoint", 0.05, 2.0, {"x0": np.array([1.0, 2.5])}, 2, backend="numba")
    ref = nsfric.simulate(case, "coulomb", "midpoint", 0.05, 2.0, params={"x0": 2.5})
    np.testing.assert_array_equal(sol.y[:, 1, :], ref.y)
