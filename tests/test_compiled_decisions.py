"""The mode logic's decision quantities compiled (:mod:`nsfric.solvers.decision_numba`) are
the generated NumPy functions bit for bit, and whole references decided with them are the
references decided without them: every event, segment, state and the dense output equal
(saw-tooth impact with many events, dry oscillator, sliding plates with D-SDS and C-SDS,
a D-SDS impact with sticking).  The per-event tolerances on Python floats are the array
form's; the policy compiles where it pays."""
from __future__ import annotations

import numpy as np
import pytest

import nsfric
from nsfric.solvers import decisions, filippov, switching

pytest.importorskip("numba")
from nsfric.solvers import decision_numba  # noqa: E402
from nsfric.solvers.dop853_source import decision_source  # noqa: E402

#: (case, law, options, events at least)
REFERENCES = [("oblique-impact", "saw-tooth", {"params": {"psi_i": 0.25}}, 150), ("dry-oscillator", None, {}, 3),
              ("sliding-plates", "c-sds", {}, 1), ("sliding-plates", "d-sds", {}, 2),
              ("oblique-impact", "d-sds", {}, 3)]
#: the derived functions of the mode logic's decisions (the others are the stepper's or the outputs')
DECISION_KINDS = ("h", "sigma", "sigma2", "guards", "guard_rates", "one_sided")


def _values(c, y, p, a):
    """The compiled values of the :class:`~nsfric.solvers.decision_numba.Decision` ``c``
    (also where one is not finite) and whether all are finite."""
    out = np.empty(c.n)
    finite = c.entry(np.ascontiguousarray(y, dtype=float), p, a, c.e, out)
    return out, bool(finite)


def _solve(monkeypatch, compiled, name, law, kw):
    """The reference with every decision quantity compiled from its first use
    (``compiled``) or none; the derived model and the number of compiled evaluations."""
    captured, calls = [], []
    orig_solve, orig_call = filippov.FilippovSolver._solve, decision_numba.Decision.__call__

    def spy(self, problem, t_eval=None):
        captured.append(problem.model.derived())
        return orig_solve(self, problem, t_eval)

    def counted(self, y, p, a):
        calls.append(1)
        return orig_call(self, y, p, a)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(filippov.FilippovSolver, "_solve", spy)
        mp.setattr(decision_numba.Decision, "__call__", counted)
        mp.setattr(decisions, "COMPILE_AFTER", 0)
        if not compiled:
            mp.setattr(filippov, "CompiledDecisions", lambda d: None)
        sol = nsfric.get_case(name).reference_solution(law, **kw)
    return sol, captured[0], len(calls)


@pytest.mark.parametrize("name,law,kw,n_events", REFERENCES, ids=[f"{c}-{law}" for c, law, _, _ in REFERENCES])
def test_references_decided_compiled_are_the_interpreted_bit_for_bit(monkeypatch, name, law, kw, n_events):
    got, _, n_compiled = _solve(monkeypatch, True, name, law, kw)
    ref, _, n_none = _solve(monkeypatch, False, name, law, kw)
    assert got.tolerances["method"] == "dop853-numba"
    assert n_none == 0 < n_compiled and len(ref.events) >= n_events
    assert [(e.t, e.kind, e.from_mode, e.to_mode, tuple(e.y)) for e in got.events] == \
        [(e.t, e.kind, e.from_mode, e.to_mode, tuple(e.y)) for e in ref.events]
    assert [(s.mode, s.t0, s.t1) for s in got.segments] == [(s.mode, s.t0, s.t1) for s in ref.segments]
    assert all(np.array_equal(a.y1, b.y1) for a, b in zip(got.segments, ref.segments))
    assert np.array_equal(got.t, ref.t) and np.array_equal(got.y, ref.y) and got.modes == ref.modes
    assert got.stats == ref.stats and got.termination == ref.termination
    assert got.info.get("warnings") == ref.info.get("warnings")
    t = np.linspace(*ref.t_span, 777)
    assert np.array_equal(got(t), ref(t))


@pytest.mark.parametrize("name,law,kw,n_events", REFERENCES, ids=[f"{c}-{law}" for c, law, _, _ in REFERENCES])
def test_each_compiled_decision_quantity_is_the_numpy_function(monkeypatch, name, law, kw, n_events):
    """Every decision quantity the reference evaluated, at every event state and
    look-ahead (the event's resolution, 0, 1e-3): the compiled values are the NumPy
    function's on that state bit for bit (NaN where it is NaN)."""
    sol, d, _ = _solve(monkeypatch, True, name, law, kw)
    p = np.ascontiguousarray(sol.model.param_vector(sol.params), dtype=float)
    n = 0
    for key, v in list(d._fns.items()):
        f = v[1] if isinstance(v, tuple) else v
        if key[0] not in DECISION_KINDS or f is None:
            continue
        c = decision_numba.compiled(d, key, f)
        for e in sol.events:
            y = np.array(e.y)
            for dt in (switching.resolution(e.t), 0.0, 1e-3):
                ref = np.asarray(f(y, p, [dt]) if key[0] == "one_sided" else f(y, p), dtype=float)
                got, finite = _values(c, y, p, np.array([dt]))
                assert finite == bool(np.all(np.isfinite(ref)))  # not finite: the mode logic takes NumPy's
                assert np.array_equal(got, ref, equal_nan=True), (key, e.t, got, ref)
                n += 1
    assert n >= 3 * len(sol.events)


def test_powers_are_the_c_librarys_as_numpys_scalar_power():
    """``x**2`` and ``x**-1.0`` on one NumPy scalar call the C library's ``pow``, which is
    not correctly rounded: it differs from ``x*x`` and ``1/x`` in the last bit on some
    states.  The compiled quantity reads its exponents at run time and calls ``pow``: the
    NumPy function's numbers on those states too."""
    import sympy as sp

    from nsfric.symbolic.codegen import generate

    x, y, k = sp.symbols("x y k")
    f = generate([x ** 2 + y, x ** -1.0 * k, sp.sqrt(x) * y ** 2, x ** 2.5], ([x, y], [k]))
    src, exponents = decision_source(f)
    assert exponents == (2.0, -1.0, 2.0, 2.5) and src.count("_npow(") == 5  # four uses and its definition
    c = decision_numba.compiled(type("D", (), {})(), ("test", "powers"), f)
    rng = np.random.default_rng(11)
    xs = np.concatenate([rng.uniform(0.1, 10.0, 3000), 10.0 ** rng.uniform(-150, 150, 3000)])
    p = np.array([0.7])
    differ = 0
    for xv in xs:
        yv = np.array([xv, 1.0 / 3.0])
        with np.errstate(over="ignore"):
            ref = f(yv, p)
        differ += ref[0] - 1.0 / 3.0 != xv * xv or ref[1] != (1.0 / xv) * 0.7
        assert np.array_equal(_values(c, yv, p, np.zeros(1))[0], ref), xv
    assert differ > 0  # the states where pow and the product differ are among them


def _group_tolerances_arrays(guards, vals, rates, y, t=None, scales=None):
    """The array form of :func:`~nsfric.solvers.switching._group_tolerances` (as it was
    written before it ran on Python floats)."""
    vals, rates = np.asarray(vals, dtype=float), np.asarray(rates, dtype=float)
    scale = float(np.max(np.abs(y))) if np.size(y) else 0.0
    exit_ = np.array([str(g.label).startswith("exit->") for g in guards])
    tol, rtol = np.empty(len(guards)), np.empty(len(guards))
    for grp, own_units in ((exit_, False), (~exit_, scales is not None)):
        if grp.any():
            if own_units:
                tol[grp] = 1e-12 * np.maximum(np.maximum(np.abs(vals[grp]), np.asarray(scales, dtype=float)[grp]),
                                              1e-300)
            else:
                tol[grp] = 1e-12 * max(float(np.max(np.abs(vals[grp]))), scale, 1e-300)
            rtol[grp] = 1e-12 * (1.0 + float(np.max(np.abs(rates[grp]))))
    tol = tol + np.abs(rates) * switching.resolution(0.0 if t is None else t)
    return tol, rtol


def test_group_tolerances_on_python_floats_are_the_array_forms():
    """Random guards of both kinds (exit guards and switching functions), values with
    zeros, NaN and infinities, with and without state scales: the same tolerances bit for
    bit (NaN where the array form gives NaN)."""
    from types import SimpleNamespace

    rng = np.random.default_rng(5)
    special = np.array([0.0, -0.0, np.nan, np.inf, -np.inf, 1e-300, 5e-324])
    for _ in range(3000):
        n = int(rng.integers(1, 5))
        guards = [SimpleNamespace(label=str(rng.choice(["exit->stick", "h->0", "v_t->0"]))) for _ in range(n)]

        def draw(m):
            v = rng.normal(size=m) * 10.0 ** rng.uniform(-15, 15, size=m)
            mask = rng.random(m) < 0.15
            v[mask] = rng.choice(special, size=int(mask.sum()))
            return v
        vals, rates, y = draw(n), draw(n), draw(int(rng.integers(1, 6)))
        scales = None if rng.random() < 0.3 else np.abs(draw(n))
        t = None if rng.random() < 0.2 else float(rng.uniform(-10, 10))
        with np.errstate(invalid="ignore"):
            got = switching._group_tolerances(guards, vals, rates, y, t, scales)
            ref = _group_tolerances_arrays(guards, vals, rates, y, t, scales)
        for a, b in zip(got, ref):
            assert np.array_equal(np.array(a, dtype=float), b, equal_nan=True), (guards, vals, rates, y, t, scales)


def test_the_policy_compiles_where_it_pays(monkeypatch):
    """Not on disk: the NumPy function for the first ``COMPILE_AFTER`` evaluations of a
    quantity, then the compiled one (kept for the solve); on disk: compiled at once."""
    prob = nsfric.get_case("dry-oscillator").problem()
    d = prob.model.derived()
    key = ("guards", next(iter(d.modes)))
    f = d.guards(key[1])[1]
    monkeypatch.setattr(decisions, "COMPILE_AFTER", 3)
    monkeypatch.setattr(decisions, "on_disk", lambda *a: False)
    chooser = decisions.CompiledDecisions(d)
    got = [chooser(key, f) for _ in range(5)]
    assert got[:3] == [None] * 3 and isinstance(got[3], decision_numba.Decision) and got[4] is got[3]
    monkeypatch.setattr(decisions, "on_disk", lambda *a: True)
    assert isinstance(decisions.CompiledDecisions(d)(key, f), decision_numba.Decision)


def test_a_value_that_is_not_finite_comes_from_the_numpy_function_with_its_warning():
    """A compiled quantity that is not finite (a pole) hands over to the NumPy function:
    the same value, and NumPy's warning, which a solve reports (``Solution.info``)."""
    import warnings
    from types import SimpleNamespace

    import sympy as sp

    from nsfric.symbolic.codegen import generate

    x, k = sp.symbols("x k")
    f = generate([k / x], ([x], [k]))
    c = decision_numba.compiled(SimpleNamespace(), ("test", "pole"), f)
    used = []
    logic = switching.ModeLogic(SimpleNamespace(model=None), np.array([2.0]),
                                compiled=lambda key, fn: used.append(key) or c)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert logic._eval(("test", "pole"), f, np.array([4.0]))[0] == 0.5 and not caught
        assert logic._eval(("test", "pole"), f, np.array([0.0]))[0] == np.inf
    assert len(used) == 2 and [w.category for w in caught] == [RuntimeWarning]
