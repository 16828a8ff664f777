"""The exact reference's bookkeeping per event and per segment, made cheap, gives the same
numbers as the plain forms it replaces: NumPy's ``sinc`` in generated code, the compiled
dense output of the compiled DOP853 (segment ends, grids), resampling without a boolean
mask per segment, the stiffness choice from the compiled right-hand side and the compiled
state scales of the guards.  Whole references (dry oscillator, saw-tooth with many
events, sphere-wall and oblique impacts) are equal bit for bit (``t``, ``y``, events,
segments, stats, dense output) with every cheap form on and with every one off."""
from __future__ import annotations

import types

import numpy as np
import pytest

import nsfric
from nsfric.solution import Solution
from nsfric.solvers import filippov, switching
from nsfric.symbolic import frozen

pytest.importorskip("numba")
from nsfric.solvers import dop853_core as core  # noqa: E402
from nsfric.solvers import dop853_numba as dn  # noqa: E402

#: (case, law, options): the saw-tooth's edges are events (185 at psi_i = 0.25)
REFERENCES = [("dry-oscillator", None, {"rtol": 1e-4, "atol": 1e-6}), ("dry-oscillator", None, {}),
              ("oblique-impact", "saw-tooth", {"params": {"psi_i": 0.25}}), ("sphere-wall", "coulomb", {}),
              ("oblique-impact", "d-sds", {})]


def _special_values(rng, n):
    x = rng.normal(size=n) * 10.0 ** rng.uniform(-20, 20, size=n)
    return np.concatenate([x, [0.0, -0.0, np.nan, np.inf, -np.inf, 5e-324, 1e-300, 0.5, 1.0, -2.0, 1e16]])


def test_the_fast_sinc_is_numpys_bit_for_bit():
    rng = np.random.default_rng(7)
    with np.errstate(invalid="ignore"):
        for x in _special_values(rng, 4000):
            for v in (float(x), np.float64(x)):
                got, ref = frozen.sinc(v), np.sinc(v)
                assert type(got) is type(ref) and np.array_equal(got, ref, equal_nan=True), v
                assert np.signbit(got) == np.signbit(ref)
        arr = _special_values(rng, 100)
        assert np.array_equal(frozen.sinc(arr), np.sinc(arr), equal_nan=True)  # arrays: NumPy's own


def test_generated_code_reads_the_fast_sinc_and_stores_numpys():
    """The saw-tooth's switching function ``sinc(zeta/zeta_0)``: fresh code and code
    restored from the disk cache both call :func:`~nsfric.symbolic.frozen.sinc`, and the
    recipe stored with the source still names ``numpy.sinc`` (the cache entry is unchanged)."""
    import sympy as sp

    from nsfric.symbolic.codegen import generate

    x, p = sp.Symbol("x"), sp.Symbol("p")
    f = generate([sp.sinc(sp.pi * x), x], ([x], [p]))
    assert f.raw.__globals__["sinc"] is frozen.sinc
    assert frozen.namespace_recipe(f.raw)["sinc"] == ["numpy", "sinc"]
    restored = frozen.compile_function({"src": "def g(y):\n    return sinc(y)\n", "name": "g",
                                        "ns": {"sinc": ["numpy", "sinc"]}})
    assert restored.__globals__["sinc"] is frozen.sinc
    assert f([0.3], [0.0])[0] == np.sinc(0.3) and f([0.0], [0.0])[0] == 1.0


def _random_steps(rng, m, n):
    h = 10.0 ** rng.uniform(-4, 0, size=m)
    ts = np.concatenate([[rng.uniform(-1, 1)], rng.uniform(-1, 1) + np.cumsum(h)])
    ts[1:] = ts[0] + np.cumsum(h)
    t_old = ts[:-1]
    return dn.DenseSteps(ts, t_old, ts[1:] - t_old, rng.normal(size=(m, n)), rng.normal(size=(m, 7, n)))


def test_compiled_dense_output_equals_the_numpy_form():
    """Random runs of steps: at random times, every breakpoint, times before and after the
    run and NaN, as an array and one at a time."""
    rng = np.random.default_rng(3)
    for m, n in ((1, 1), (5, 3), (40, 11)):
        sol = _random_steps(rng, m, n)
        t = np.concatenate([rng.uniform(sol.ts[0], sol.ts[-1], 300), sol.ts, [sol.ts[0] - 1, sol.ts[-1] + 1, np.nan]])
        assert np.array_equal(sol(t), sol.vectorised(t), equal_nan=True)
        assert np.array_equal(sol(np.sort(t[:50])), sol.vectorised(np.sort(t[:50])))
        for tk in t[::7]:
            got = sol(tk)
            assert got.shape == (n,) and np.array_equal(got, sol.vectorised(tk), equal_nan=True)
        assert sol(np.empty(0)).shape == (n, 0)


def test_resampling_equals_the_masked_form():
    """On a reference with many segments, sample times of every kind (segment starts and
    ends exactly, between, the span's ends): the same times, states and modes as the
    boolean-mask form."""
    sol = nsfric.get_case("oblique-impact").reference_solution("saw-tooth", params={"psi_i": 0.25})
    starts = np.array([s.t0 for s in sol.segments])
    for t_eval in (np.linspace(*sol.t_span, 501), np.unique(np.concatenate([starts[::3], np.linspace(*sol.t_span, 97)])),
                   np.array([sol.t_span[1]]), np.array([sol.t_span[0]]), np.unique(starts)):
        got = sol.resample(t_eval)
        t, y, modes = got.t.copy(), got.y.copy(), list(got.modes)
        ref = sol._resample_any(t_eval)
        assert np.array_equal(t, ref.t) and np.array_equal(y, ref.y) and modes == ref.modes


@pytest.mark.parametrize("case,t_end,stiff", [("slope-block", 10.0, True), ("dry-oscillator", None, False)])
def test_the_compiled_stiffness_rate_gives_the_same_choice(case, t_end, stiff):
    """:func:`~nsfric.solvers.filippov.compiled_rate` is the index's rate to rounding; the
    choice with it is the choice without it, on a stiff and a non-stiff mode; a mode this
    process has not compiled gives no rate (nothing is compiled for it)."""
    c = nsfric.get_case(case)
    prob = c.problem(t_end=t_end)
    d = prob.model.derived()
    p = tuple(prob.model.param_vector(prob.params).tolist())
    mode = next(iter(d.modes))
    f = d.rhs(mode)
    assert filippov.compiled_rate(filippov.CompiledModes(types.SimpleNamespace(), p), mode, prob.y0) is None
    dn.stepper(d, mode, len(prob.y0))
    rate = filippov.compiled_rate(filippov.CompiledModes(d, p), mode, prob.y0)
    index = filippov.stiffness_index(f, prob.y0, p, *prob.t_span)
    assert rate is not None and abs(rate * (prob.t_span[1] - prob.t_span[0]) - index) <= 1e-6 * index
    expected = "LSODA" if stiff else "DOP853"
    assert filippov.choose_method(f, prob.y0, p, *prob.t_span) == expected
    assert filippov.choose_method(f, prob.y0, p, *prob.t_span, rate) == expected
    # a rate the margin does not trust is checked by the index itself
    assert filippov.choose_method(f, prob.y0, p, *prob.t_span, 1e300) == expected


def _plain(monkeypatch, d):
    """Every cheap form off: NumPy's sinc in the model's generated functions, the dense
    output's NumPy form, the masked resampling, the index computed in Python, the state
    scales from the Python guards.  Returns the number of functions that read the sinc."""
    n_sinc = 0
    for fn in list(d._fns.values()):
        for f in (fn if isinstance(fn, tuple) else (fn,)):
            g = getattr(getattr(f, "raw", None), "__globals__", None)
            if g is not None and g.get("sinc") is frozen.sinc:
                monkeypatch.setitem(g, "sinc", np.sinc)
                n_sinc += "sinc" in f.raw.__code__.co_names
    monkeypatch.setattr(dn, "COMPILED_DENSE", False)
    monkeypatch.setattr(Solution, "resample", Solution._resample_any)
    monkeypatch.setattr(filippov, "compiled_rate", lambda *a: None)
    monkeypatch.setattr(filippov, "compiled_scales", lambda *a: None)
    return n_sinc


def _solve(name, law, kw):
    captured = []
    orig = filippov.FilippovSolver._solve

    def spy(self, problem, t_eval=None):
        captured.append(problem.model.derived())
        return orig(self, problem, t_eval)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(filippov.FilippovSolver, "_solve", spy)
        sol = nsfric.get_case(name).reference_solution(law, **kw)
    return sol, captured[0]


@pytest.mark.parametrize("name,law,kw", REFERENCES, ids=[f"{c}-{law}-{len(kw)}" for c, law, kw in REFERENCES])
def test_references_are_the_plain_bookkeepings_bit_for_bit(monkeypatch, name, law, kw):
    got, d = _solve(name, law, kw)
    assert got.tolerances["method"] == "dop853-numba"
    assert (_plain(monkeypatch, d) > 0) == (law == "saw-tooth")
    ref, _ = _solve(name, law, kw)
    assert [(e.t, e.kind, e.from_mode, e.to_mode, tuple(e.y)) for e in got.events] == \
        [(e.t, e.kind, e.from_mode, e.to_mode, tuple(e.y)) for e in ref.events]
    assert [(s.mode, s.t0, s.t1) for s in got.segments] == [(s.mode, s.t0, s.t1) for s in ref.segments]
    assert all(np.array_equal(a.y1, b.y1) for a, b in zip(got.segments, ref.segments))
    assert np.array_equal(got.t, ref.t) and np.array_equal(got.y, ref.y) and got.modes == ref.modes
    assert got.stats == ref.stats and got.termination == ref.termination and got.tolerances == ref.tolerances
    t = np.linspace(*ref.t_span, 777)
    assert np.array_equal(got(t), ref(t))


def test_compiled_state_scales_are_the_python_ones():
    """:func:`~nsfric.solvers.dop853_core.state_scales` on the compiled guards against
    :func:`~nsfric.solvers.switching.state_scales` on the Python ones, at the saw-tooth's
    event states (a state at zero skipped, every term summed); a mode not built by this
    process gives None."""
    sol, d = _solve("oblique-impact", "saw-tooth", {"params": {"psi_i": 0.25}})
    p = sol.model.param_vector(sol.params)
    scales = filippov.compiled_scales(filippov.CompiledModes(d, p))
    assert scales("free", sol.events[0].y) is None or dn.built(d, "free") is not None
    n = 0
    for e in sol.events[::10]:
        mode = e.to_mode
        got = scales(mode, np.array(e.y))
        if got is None:
            continue
        ref = switching.state_scales(d.guards(mode)[1], np.array(e.y), tuple(p))
        assert np.allclose(got, ref, rtol=1e-12, atol=0) and np.all(got > 0), (got, ref)
        n += 1
    assert n >= 5


def test_a_solution_at_times_in_order_equals_it_at_the_same_times_shuffled():
    """``Solution(t)`` evaluates times in order one run per segment (slices) and times in
    any order by masks: the same values, also at the segments' ends."""
    sol = nsfric.get_case("oblique-impact").reference_solution("saw-tooth", params={"psi_i": 0.25})
    t = np.unique(np.concatenate([np.linspace(*sol.t_span, 1001), [s.t0 for s in sol.segments][::2]]))
    perm = np.random.default_rng(5).permutation(t.size)
    got = sol(t)
    shuffled = np.empty_like(got)
    shuffled[:, perm] = sol(t[perm])
    assert np.array_equal(got, shuffled)
    assert np.array_equal(sol(t[7]), got[:, 7]) and np.array_equal(sol(t[-1:]), got[:, -1:])
