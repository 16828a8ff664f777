"""The compiled guard search of the compiled DOP853 stepper (:mod:`nsfric.solvers.dop853_search`)
finds the events of the Python search (:func:`nsfric.solvers.guard_search.first_crossing`)
bit for bit: on whole references (every event, segment end and state equal with
``np.array_equal``), on random synthetic steps, and its ports of SciPy's ``brentq`` and
bounded Brent minimiser give SciPy's x to the last bit."""
from __future__ import annotations

import hashlib
import math
import os

import numpy as np
import pytest
from scipy.optimize import brentq, minimize_scalar

import nsfric
from nsfric.solvers import filippov
from nsfric.solvers.guard_search import first_crossing

pytest.importorskip("numba")
from numba import njit

from nsfric.solvers import dop853_core as core
from nsfric.solvers import dop853_numba as dn
from nsfric.solvers import dop853_search as search

#: (case, law, options, events at least): the saw-tooth law's edges are events (zeta_0 =
#: 1e-8 m, 185 of them at psi_i = 0.25)
CASES = [("dry-oscillator", None, {}, 3), ("dry-oscillator", None, {"rtol": 1e-4, "atol": 1e-6}, 3),
         ("sliding-plates", "d-sds", {}, 1), ("sliding-plates", "c-sds", {}, 1),
         ("slope-block", "coulomb", {"t_end": 0.05}, 1),
         ("oblique-impact", "saw-tooth", {"params": {"psi_i": 0.25}}, 150)]


def _solve(monkeypatch, compiled, name, law, kw):
    """The reference on the compiled stepper, flagged steps decided by the compiled search
    (``compiled``) or by the Python one; with the number of Python searches."""
    calls = []

    def counted(*a, **k):
        calls.append(a[4])
        return first_crossing(*a, **k)
    monkeypatch.setattr(filippov, "first_crossing", counted)
    monkeypatch.setattr(dn, "COMPILED_SEARCH", compiled)
    sol = nsfric.get_case(name).reference_solution(law, method="dop853-numba", **kw)
    assert sol.tolerances["method"] == "dop853-numba"
    return sol, len(calls)


def _events(sol):
    return [(e.t, e.kind, e.from_mode, e.to_mode, tuple(e.y)) for e in sol.events]


@pytest.mark.parametrize("name,law,kw,n_events", CASES, ids=[f"{c}-{law}-{len(kw)}" for c, law, kw, _ in CASES])
def test_compiled_search_finds_the_python_searchs_events_bit_for_bit(monkeypatch, name, law, kw, n_events):
    got, n_python = _solve(monkeypatch, True, name, law, kw)
    ref, n_flagged = _solve(monkeypatch, False, name, law, kw)
    assert n_python == 0 < n_flagged  # every flagged step decided in compiled code
    assert len(ref.events) >= n_events
    assert _events(got) == _events(ref)
    assert [(s.mode, s.t0, s.t1) for s in got.segments] == [(s.mode, s.t0, s.t1) for s in ref.segments]
    assert all(np.array_equal(a.y1, b.y1) for a, b in zip(got.segments, ref.segments))
    assert np.array_equal(got.t, ref.t) and np.array_equal(got.y, ref.y)
    assert got.stats == ref.stats and got.termination == ref.termination
    t = np.linspace(*ref.t_span, 501)
    assert np.array_equal(got(t), ref(t))


# -- synthetic steps: random dense outputs, two nonlinear guards ----------------------------
@njit(core.FIELD_SIGNATURE)
def _guards_c(y, p, out):
    out[0] = y[0]
    out[1] = y[1] * y[0] - p[0]


@njit(core.FIELD_SIGNATURE)
def _rates_c(y, p, out):
    out[0] = y[1]
    out[1] = y[0] + y[1]


def _guards_py(y, p):
    return np.array([y[0], y[1] * y[0] - p[0]])


def _rates_py(y, p):
    return np.array([y[1], y[0] + y[1]])


def _compiled_first_crossing(dense, p, n_check, at_start, guards=_guards_c):
    G_, R_ = dn._Address(guards), dn._Address(_rates_c)
    n_pts = n_check + 2
    Y, G, R = np.empty((n_pts, 2)), np.empty((n_pts, 2)), np.empty((n_pts, 2))
    args = (dense.t_old, dense.t, dense.h, dense.y_old, dense.F, p)
    core.sample(G_, R_, *args, n_check, Y, G, R)
    hit = np.zeros(2)
    status = search.locate(G_, *args, n_check, 2, at_start, G, R, np.empty(2), np.empty(2), hit)
    return status, (hit[0], int(hit[1]))


def _random_step(rng, hump):
    """A random DOP853 step near the surfaces: coefficients of either sign and many
    scales, or (``hump``) guard 0 a parabola, slightly deformed, peaking just above zero
    mid-step (a hidden excursion between samples; guard 1 then crosses inside it)."""
    t_old = float(rng.choice([0.0, 1.0, 1e3])) + rng.random()
    h = float(10.0 ** rng.uniform(-6, 0))
    F = rng.normal(size=(7, 2)) * 10.0 ** rng.uniform(-4, 0, size=(7, 1))
    y_old = rng.normal(size=2) * 10.0 ** rng.uniform(-4, -1)
    if hump:
        c = 10.0 ** rng.uniform(-3, 0)
        F[:, 0] = c * 1e-5 * rng.normal(size=7)
        F[0, 0], F[1, 0] = 0.0, c  # y_0 = y_old + c x (1 - x) + ...
        y_old[0] = -c / 4 * (1 - 10.0 ** rng.uniform(-3.3, -1.9))  # samples below, the peak above
        # y_1 (guard 0's rate) a constant above |dy_0/dt| <= c/h: the windows are searched
        F[:, 1], y_old[1] = 0.0, 10 * c / h * (1 + rng.random())
    return dn.StepDense(t_old, t_old + h, y_old, F)


def test_locate_equals_first_crossing_on_random_steps():
    """On 500 random DOP853 dense outputs (:func:`_random_step`; steps at t ~ 1e3 and ~ 1,
    2 to 9 samples, at a segment's start or not) the compiled search returns the Python
    search's crossing to the bit; no crossing, sign changes between samples, hidden
    excursions between negative samples and the at-start rules all occur."""
    rng = np.random.default_rng(27)
    p = np.array([0.01])
    kinds = {"none": 0, "sign change": 0, "hidden": 0, "at start": 0}
    for trial in range(500):
        hump = trial % 3 == 2
        dense = _random_step(rng, hump)
        n_check = int(rng.integers(0, 8)) if not hump else 2 * int(rng.integers(0, 4))  # no sample mid-step
        at_start = bool(rng.random() < 0.3)
        want = first_crossing(_guards_py, _rates_py, tuple(p), dense, dense.t_old, dense.t, n_check,
                              at_start=at_start)
        status, hit = _compiled_first_crossing(dense, p, n_check, at_start)
        assert status != search.FALLBACK, trial
        if want is None:
            assert status == search.NO_CROSSING, trial
            kinds["none"] += 1
            continue
        assert status == search.CROSSING and hit == (want[0], want[1]), (trial, hit, want)
        tt = np.linspace(dense.t_old, dense.t, n_check + 2)
        g = _guards_py(dense(tt), p)[want[1]]
        after = np.searchsorted(tt, want[0], side="right")  # the first sample after the root
        kinds["at start" if want[0] == dense.t_old else
              "hidden" if np.all(g[:after + 1] < 0) else "sign change"] += 1
    assert min(kinds.values()) >= 20, kinds


@njit(core.FIELD_SIGNATURE)
def _power_guards_c(y, p, out):
    out[0] = y[0] * (1 + y[0] ** 2) ** 0.5 * (2 + y[1] ** 2) ** -1.0 * 2
    out[1] = y[1] * y[0] - p[0]


def _power_guards_py(y, p):
    return np.array([y[0] * (1 + y[0] ** 2) ** 0.5 * (2 + y[1] ** 2) ** -1.0 * 2, y[1] * y[0] - p[0]])


class _ArrayArithmetic:
    """Guards whose value at one state is taken from a one-column batch: NumPy's array
    arithmetic, as the Python search's samples (NumPy's scalar ``x ** 2``, ``x ** -1.0``,
    ``x ** 0.5`` call the C library's ``pow``, not correctly rounded in ~0.1 % of cases;
    its arrays, like numba, square, divide and take the root)."""

    def __init__(self, g):
        self.g = g

    def __call__(self, y, p):
        return self.g(y, p)

    def one(self, y, p, i):
        return float(np.asarray(self.g(np.asarray(y)[:, None], p), dtype=float)[i, 0])


def test_locate_is_first_crossing_in_numpys_array_arithmetic():
    """Guards with powers: the compiled search is the Python search with its guard values
    in NumPy's array arithmetic, bit for bit, on 200 random steps."""
    rng = np.random.default_rng(7)
    p = np.array([0.01])
    found = 0
    for trial in range(200):
        dense = _random_step(rng, hump=trial % 2 == 1)
        n_check = int(rng.integers(0, 8))
        at_start = bool(rng.random() < 0.3)
        want = first_crossing(_ArrayArithmetic(_power_guards_py), _rates_py, tuple(p), dense, dense.t_old, dense.t,
                              n_check, at_start=at_start)
        status, hit = _compiled_first_crossing(dense, p, n_check, at_start, _power_guards_c)
        assert status == (search.NO_CROSSING if want is None else search.CROSSING), trial
        if want is not None:
            assert hit == (want[0], want[1]), (trial, hit, want)
            found += 1
    assert found >= 50


def test_a_non_finite_guard_is_left_to_the_python_search():
    """A NaN guard value is the Python search's to report (GuardWatch names it)."""
    @njit(core.FIELD_SIGNATURE)
    def nan_guard(y, p, out):
        out[0] = y[0] if y[0] < 0.5 else math.nan

    dense = dn.StepDense(0.0, 1.0, np.array([0.0]), np.vstack([[1.0], np.zeros((6, 1))]))  # y = t
    G_ = dn._Address(nan_guard)
    Y, G, R = np.empty((4, 1)), np.empty((4, 1)), np.empty((4, 1))
    p = np.zeros(1)
    core.sample(G_, G_, 0.0, 1.0, 1.0, dense.y_old, dense.F, p, 2, Y, G, R)
    status = search.locate(G_, 0.0, 1.0, 1.0, dense.y_old, dense.F, p, 2, 1, False, G, R, np.empty(1), np.empty(1),
                           np.zeros(2))
    assert status == search.FALLBACK


# -- the ports of SciPy's scalar searches ---------------------------------------------------
@njit(core.FIELD_SIGNATURE)
def _scalar_c(y, p, out):
    x = y[0]
    out[0] = x * x * x - 2 * x - 5
    out[1] = math.cos(x) - x
    out[2] = (x - 0.7) * (x - 0.7) + 0.1 * math.sin(5 * x)
    out[3] = math.exp(x) - 3 * x
    out[4] = abs(x - 1 / 3)


SCALAR = [lambda x: x * x * x - 2 * x - 5, lambda x: math.cos(x) - x,
          lambda x: (x - 0.7) * (x - 0.7) + 0.1 * math.sin(5 * x), lambda x: math.exp(x) - 3 * x,
          lambda x: abs(x - 1 / 3)]
#: brentq's smallest rtol, first_crossing's
EPS4 = 4 * np.finfo(float).eps
#: the identity dense output: state y = t on the step [0, 1]
IDENTITY = (0.0, 1.0, np.zeros(1), np.vstack([[1.0], np.zeros((6, 1))]), np.zeros(1))


@pytest.mark.parametrize("i,a,b", [(0, 2.0, 3.0), (1, 0.0, 1.0), (1, -1.0, 0.9), (3, 0.0, 1.0), (3, 1.0, 2.0)])
@pytest.mark.parametrize("xtol,rtol", [(2e-12, EPS4), (1e-6, 1e-3), (4e-16, EPS4)])
def test_brentq_port_equals_scipys(i, a, b, xtol, rtol):
    f = SCALAR[i]
    want = brentq(f, a, b, xtol=xtol, rtol=rtol, maxiter=200)
    ok, got = search.brentq(dn._Address(_scalar_c), *IDENTITY, i, a, b, xtol, rtol, 200, np.empty(1), np.empty(5))
    assert ok and got == want, (got, want)


def test_brentq_port_gives_up_where_scipys_does():
    """No convergence in ``maxiter`` iterations, or no sign change: SciPy raises, the port
    says so (the step then goes to the Python search, which raises as before)."""
    with pytest.raises(RuntimeError, match="Failed to converge"):
        brentq(SCALAR[1], 0.0, 1.0, xtol=1e-300, rtol=EPS4, maxiter=3)
    with pytest.raises(ValueError, match="different signs"):
        brentq(SCALAR[1], 0.0, 0.5, xtol=1e-12, rtol=EPS4)
    G = dn._Address(_scalar_c)
    assert not search.brentq(G, *IDENTITY, 1, 0.0, 1.0, 1e-300, EPS4, 3, np.empty(1), np.empty(5))[0]
    assert not search.brentq(G, *IDENTITY, 1, 0.0, 0.5, 1e-12, EPS4, 200, np.empty(1), np.empty(5))[0]
    assert search.brentq(G, *IDENTITY, 1, 0.0, 1.0, 1e-300, EPS4, 200, np.empty(1), np.empty(5))[0]


@pytest.mark.parametrize("i,a,b", [(2, 0.0, 2.0), (2, -3.0, 3.0), (3, 0.0, 2.0), (4, 0.0, 1.0), (1, 0.0, 3.0),
                                   (0, -2.0, 2.0)])
@pytest.mark.parametrize("sign", [1.0, -1.0])
@pytest.mark.parametrize("xatol", [1e-14, 1e-5])
def test_bounded_brent_port_equals_scipys(i, a, b, sign, xatol):
    f = SCALAR[i]
    m = minimize_scalar((lambda s: -f(s)) if sign < 0 else f, bounds=(a, b), method="bounded",
                        options={"xatol": xatol})
    ok, x, fun = search.bounded_minimum(dn._Address(_scalar_c), *IDENTITY, i, sign, a, b, xatol, np.empty(1),
                                        np.empty(5))
    assert ok and (x, fun) == (m.x, m.fun), ((x, fun), (m.x, m.fun))


def test_the_cores_digest_of_the_search_module_is_current():
    """numba caches the core on its own file: a change of the search module must change the
    core's file (its SEARCH_DIGEST), or the core would be loaded stale from the cache."""
    path = os.path.join(os.path.dirname(core.__file__), "dop853_search.py")
    with open(path, "rb") as fh:
        assert hashlib.sha256(fh.read()).hexdigest() == core.SEARCH_DIGEST
    assert core.CACHE


def test_no_on_disk_marker_where_the_core_is_not_cached(monkeypatch):
    """Where the digest is stale the core is compiled in every process: a mode's stepper
    then leaves no marker saying it costs a later process no compilation."""
    from nsfric.memo import Memo

    d = nsfric.get_case("dry-oscillator").problem().model.derived()
    marked = []
    monkeypatch.setattr(dn, "mark_on_disk", lambda mod, source: marked.append(source))
    for cached in (False, True):
        monkeypatch.setattr(dn, "_MODULES", Memo(64))
        monkeypatch.setattr(core, "CACHE", cached)
        marked.clear()
        dn.stepper(d, "slip-", 2)
        assert bool(marked) == cached


def test_a_root_search_dividing_by_zero_follows_ieee_as_scipys_c_code(monkeypatch):
    """SciPy's ``brentq`` is C: a secant step over two equal function values divides by
    zero into an infinity, and the bisection takes over.  The port runs with numba's
    NumPy error model so that it does the same (with Python's, numba raised
    ZeroDivisionError inside the stepper: the sliding plates' D-SDS at v0 = 5, rtol 1e-10,
    failed with "division by zero" in ``nsfric verify``'s looser second solve)."""
    kw = {"params": {"k": 1.0, "gamma": 2.0, "F_max": 1.0, "xi0": 0.0, "v0": 5.0}, "t_end": 3.0, "samples": 2,
          "rtol": 1e-10, "atol": 1e-12}
    got, n_python = _solve(monkeypatch, True, "sliding-plates", "d-sds", kw)
    ref, _ = _solve(monkeypatch, False, "sliding-plates", "d-sds", kw)
    assert n_python == 0
    assert _events(got) == _events(ref) and np.array_equal(got.y, ref.y)
