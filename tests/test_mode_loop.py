"""The one hybrid mode loop (issue 8 item 3): tangential starts (second-order test of
Piiroinen & Kuznetsov 2008), the event budget, the Zeno window and the no-progress
guard, for every reference solver and the event-aware schemes."""
import os
import signal
from contextlib import contextmanager

import numpy as np
import pytest
import sympy as sp

from nsfric.errors import ZenoError
from nsfric.schemes import SCHEMES, simulate
from nsfric.solvers import Problem, get_solver
from nsfric.solution import Event, Segment
from nsfric.solvers.loop import ModeLoop, loop_options
from nsfric.symbolic.laws import P
from nsfric.symbolic.model import HybridModel, Region

x, v, a = sp.symbols("x v a", real=True)
c, w = sp.Symbol("c", real=True), sp.Symbol("omega", positive=True)
REFERENCES = [("filippov", {"method": m}) for m in ("DOP853", "RK45", "Radau", "BDF", "LSODA")] + \
             [("analytic", {}), ("ida", {}), ("radau5dae", {})]
IDS = [f"{n}-{o['method']}" if o else n for n, o in REFERENCES]


@contextmanager
def deadline(seconds):
    """Fail (instead of hanging CI) when the block spends more than ``seconds`` of CPU
    time: a loop that never ends burns CPU, while time spent waiting for a core that
    other processes hold (the suite runs on every core) does not count.  The wall-clock
    timer stays pytest-timeout's."""
    def expire(signum, frame):
        raise TimeoutError(f"no result within {seconds} s of CPU time: the mode loop hangs")
    old = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


def hump(accel, below=None):
    """x'' = accel on both sides of the surface h = x - c (``below`` overrides the
    field under the surface)."""
    up = {x: v, v: accel}
    return HybridModel("hump", (x, v), (P(c, 0.5),), {"h": x - c},
                       (Region("below", {"h": -1}, below or up, {}, "down"),
                        Region("above", {"h": 1}, up, {}, "up")))


@pytest.mark.parametrize("accel,mode", [(-1, "below"), (1, "above")])
@pytest.mark.parametrize("solver,options", REFERENCES, ids=IDS)
def test_tangential_start_on_the_surface_takes_the_second_order_side(solver, options, accel, mode):
    """x0 = c, v0 = 0: grad h . f = v = 0 on both sides, d2h/dt2 = accel decides."""
    prob = Problem(hump(accel), {"c": 0.5}, np.array([0.5, 0.0]), (0.0, 2.0))
    with deadline(60):
        sol = get_solver(solver, **options).solve(prob)
    assert [s.mode for s in sol.segments] == [mode]
    assert sol.events == []
    err = np.max(np.abs(sol["x"] - (0.5 + accel * sol.t ** 2 / 2)))
    assert err < 1e-12, err


@pytest.mark.parametrize("scheme", ["rk4-event", "heun-event", "velocity-verlet-event", "bdf2-event"])
def test_tangential_start_event_aware_schemes(scheme):
    prob = Problem(hump(-1), {"c": 0.5}, np.array([0.5, 0.0]), (0.0, 2.0))
    with deadline(60):
        res = simulate(prob, scheme=scheme, dt=0.1)
    assert set(res.modes) == {"below"} and res.events == []
    assert np.max(np.abs(res["x"] - (0.5 - res.t ** 2 / 2))) < 1e-12


def oscillator():
    """A frictionless oscillator x'' = -omega^2 x with a (fictitious) surface at v = 0:
    one ``reversal`` event every half period pi/omega."""
    f = {x: v, v: -w ** 2 * x}
    return HybridModel("frictionless", (x, v), (P(w, 1.0, 0, sp.oo, lo_open=True),), {"g": v},
                       (Region("right", {"g": 1}, f, {}, "slip"), Region("left", {"g": -1}, f, {}, "slip")))


@pytest.mark.parametrize("solver,options", REFERENCES[:1] + REFERENCES[5:], ids=IDS[:1] + IDS[5:])
def test_event_budget_stops_and_raising_it_succeeds(solver, options):
    prob = Problem(oscillator(), {"omega": 1.0}, np.array([1.0, 0.0]), (0.0, 20.0))
    with deadline(60), pytest.raises(ZenoError, match="max_events = 3 events"):
        get_solver(solver, max_events=3, **options).solve(prob)
    sol = get_solver(solver, max_events=7, **options).solve(prob)
    assert len(sol.events) == 6  # reversals at k pi, k = 1..6 < 20/pi
    assert np.allclose([e.t for e in sol.events], np.pi * np.arange(1, 7), atol=1e-9, rtol=0)


def test_event_budget_and_zeno_window_of_event_aware_schemes():
    """The Zeno window of a fixed-step scheme counts events within one step: the hump
    of tests/test_filippov_events.py crosses x = c twice, 0.028 apart, inside one step."""
    prob = Problem(hump(-1), {"c": 0.4999}, np.array([0.0, 1.0]), (0.0, 2.0))
    base = SCHEMES["rk4-event"]
    with deadline(60):
        with pytest.raises(ZenoError, match="zeno_window = 2 events"):
            simulate(prob, scheme=base.with_options(zeno_window=2), dt=0.1)
        res = simulate(prob, scheme=base.with_options(zeno_window=3), dt=0.1)
        assert [e["kind"] for e in res.events] == ["up", "down"]
        half = np.sqrt(1 - 2 * 0.4999)
        assert np.allclose([e["t"] for e in res.events], [1 - half, 1 + half], atol=1e-12, rtol=0)
        osc = Problem(oscillator(), {"omega": 1.0}, np.array([1.0, 0.0]), (0.0, 20.0))
        with pytest.raises(ZenoError, match="max_events = 3 events"):
            simulate(osc, scheme=base.with_options(max_events=3), dt=0.1)
        res = simulate(osc, scheme=base.with_options(max_events=6), dt=0.1)
    assert np.allclose([e["t"] for e in res.events], np.pi * np.arange(1, 7), atol=1e-4, rtol=0)


def twisting():
    """The twisting controller x'' = -r1 sign(x) - r2 sign(x'), r1 > r2 > 0 (r2 = r1/10:
    slow convergence, many events): a genuine
    Zeno trajectory (infinitely many crossings before the origin is reached at a finite
    time, the intervals shrinking geometrically).  Scaled (r ~ 1e12, the origin is
    reached after ~2e-5) so that the events come closer than the Zeno resolution
    1e-9 (t_end - t0) while the state is still far from the corner x = v = 0."""
    r1, r2 = 2e12, 0.2e12
    q = lambda sx, sv: Region(f"q{sx:+d}{sv:+d}", {"x": sx, "v": sv},
                              {x: v, v: -r1 * sx - r2 * sv}, {}, "switch")
    return HybridModel("twisting", (x, v), (), {"x": x, "v": v},
                       tuple(q(sx, sv) for sx in (1, -1) for sv in (1, -1)))


@pytest.mark.parametrize("solver,options", REFERENCES[:1] + REFERENCES[5:], ids=IDS[:1] + IDS[5:])
def test_zeno_window_detects_accumulating_events(solver, options):
    prob = Problem(twisting(), {}, np.array([1.0, 0.0]), (0.0, 1.0))
    with deadline(120):
        with pytest.raises(ZenoError, match="zeno_window = 50 events") as wide:
            get_solver(solver, **options).solve(prob)
        with pytest.raises(ZenoError, match="zeno_window = 4 events") as narrow:
            get_solver(solver, zeno_window=4, **options).solve(prob)
    t_wide = float(str(wide.value).split("before t = ")[1].split()[0])
    t_narrow = float(str(narrow.value).split("before t = ")[1].split()[0])
    # a narrower window fires earlier, on the same accumulation (origin at t ~ 2.008e-5)
    assert 1e-5 < t_narrow < t_wide < 3e-5


@pytest.mark.parametrize("solver", ["filippov", "analytic", "ida", "radau5dae", "rk4-event"])
def test_inconsistent_model_stops_without_progress(solver):
    """Both fields leave tangentially (second order) into the *other* region and there
    is no sliding mode: at x = c, v = 0 every decision is contradicted at once.  The
    run must stop with a no-progress diagnosis, never loop or go on in a wrong mode."""
    bad = hump(-1, below={x: v, v: 1})
    prob = Problem(bad, {"c": 0.5}, np.array([0.5, 0.0]), (0.0, 1.0))
    with deadline(60), pytest.raises(ZenoError, match="no progress") as err:
        if solver.endswith("-event"):
            simulate(prob, scheme=solver, dt=0.1)
        else:
            get_solver(solver).solve(prob)
    assert "modes above -> below -> above" in str(err.value)


class _Contradicting:
    """A deliberately inconsistent mode logic: every guard sends the run to the other
    mode at once, and the integrator hook never advances."""

    def start(self, t0, y0):
        return "A", np.asarray(y0, float), [], None

    def switch(self, t, y, mode, guard):
        new = "B" if mode == "A" else "A"
        return new, y, Event(t, "switch", mode, new, tuple(y))


def test_mode_loop_no_progress_guard_stops_a_cycle_at_one_point():
    loop = ModeLoop(_Contradicting(), (0.0, 1.0), label="stub")
    calls = []

    def segment(mode, t, y):
        calls.append(mode)
        return Segment(mode, t, t, None, y.copy(), y.copy()), "guard"
    with deadline(10), pytest.raises(ZenoError, match="stub: no progress.*modes A -> B -> A"):
        loop.run(np.array([0.25, 0.0]), segment)
    assert calls == ["A", "B"]
    # advancing between the switches is progress: the same cycle then runs into the budget
    loop = ModeLoop(_Contradicting(), (0.0, 1.0), max_events=5, label="stub")

    def advancing(mode, t, y):
        return Segment(mode, t, t + 0.01, None, y.copy(), y + 0.01), "guard"
    with pytest.raises(ZenoError, match="more than max_events = 5"):
        loop.run(np.array([0.25, 0.0]), advancing)


@pytest.mark.parametrize("kw,match", [({"max_events": 0}, "max_events must be an integer >= 1"),
                                      ({"max_events": 2.5}, "max_events must be an integer >= 1"),
                                      ({"zeno_window": 1}, "zeno_window must be an integer >= 2"),
                                      ({"zeno_window": True}, "zeno_window must be an integer >= 2")])
def test_bad_loop_options_name_the_option(kw, match):
    with pytest.raises(ValueError, match=match):
        loop_options(**kw)
    for solver in ("filippov", "analytic", "ida", "radau5dae"):
        with pytest.raises(ValueError, match=match):
            get_solver(solver, **kw)
    with pytest.raises(ValueError, match=match):
        SCHEMES["rk4-event"].with_options(**kw)


def test_cli_reference_loop_options(tmp_path, capsys):
    from nsfric.cli import main

    out = str(tmp_path / "osc.csv")
    # the dry oscillator has 3 events (two reversals, then the stick)
    assert main(["reference", "dry-oscillator", "--max-events", "2", "--out", out]) == 1
    assert "max_events = 2" in capsys.readouterr().err and not os.path.exists(out)
    assert main(["reference", "dry-oscillator", "--max-events", "3", "--zeno-window", "2",
                 "--samples", "11", "--out", out]) == 0
    assert "3 events" in capsys.readouterr().out
    for args, msg in [(["--max-events", "0"], "--max-events must be >= 1"),
                      (["--max-events", "many"], "--max-events must be an integer"),
                      (["--zeno-window", "1"], "--zeno-window must be >= 2")]:
        assert main(["reference", "dry-oscillator", *args, "--out", out]) == 2
        assert msg in capsys.readouterr().err


@pytest.mark.parametrize("solver", ["filippov", "ida"])
def test_stiff_dsds_stick_onset_is_not_refused_as_chattering(solver):
    """Issue 12: D-SDS with k = 1e6, gamma = 1e-3 sticks at t = 4.000000123 (where
    v = gamma F_max/(m k) = 1e-9).  One ulp of t there moves the stick-side rate of
    h_minus by k ulp(t) ~ 1e-9 against its terms of 1e-3, so a first-order sign test
    alone flips back to slip- and the loop stalls; the time-resolution tangency sends it
    to the second-order test, which keeps it stuck.  Event time against the analytic
    solver's, the state against it, the stick onset against eq 20."""
    from nsfric.cases import get_case
    case = get_case("sliding-plates")
    kw = dict(law="d-sds", params={"k": 1e6, "gamma": 1e-3}, t_end=5.0)
    with deadline(120):
        sol = case.reference_solution(solver=solver, **kw)
        exact = case.reference_solution(solver="analytic", **kw)
    assert [e.kind for e in sol.events] == ["slip", "stick"]
    t_stick = sol.events[-1].t
    assert abs(t_stick - exact.events[-1].t) < 1e-12
    assert abs(sol.events[-1].y[1] - 1e-9) < 1e-13  # eq 20: v = gamma F_max/(m k)
    if solver == "filippov":
        t = np.linspace(0, 5.0, 501)
        err = max(np.max(np.abs(sol(ti) - exact(ti))) for ti in t)
        assert err < 1e-10, err


def test_a_switching_function_counts_as_zero_in_its_own_units():
    """The rounding tolerance of a switching function's value is the size of the states'
    terms in it (``sum_j |dh/dy_j| |y_j|``), not the largest state: an overlap of
    6.5e-8 m beside a spin of 3.75e5 rad/s is no contact end (it was, within
    ``1e-12 max |y|`` = 3.75e-7; the Chung & Ooi T5 case in tests/test_chung_ooi.py)."""
    from types import SimpleNamespace

    from nsfric.solvers.switching import _group_tolerances, state_scales

    R = 1e-5
    y = np.array([R - 6.5e-8, 0.0, 3.75e5])  # centre height, its velocity, spin

    def h(y, p):  # the overlap and a tangential speed (another unit)
        return np.array([p[0] - y[0], y[1] + p[0] * y[2]])

    scales = state_scales(h, y, (R,))
    assert scales == pytest.approx([y[0], R * y[2]], rel=1e-6)
    guards = [SimpleNamespace(label="h->0"), SimpleNamespace(label="v_t->0")]
    vals, rates = h(y, (R,)), np.zeros(2)
    tol, _ = _group_tolerances(guards, vals, rates, y, 1e-8, scales)
    assert tol[0] == pytest.approx(1e-12 * y[0]) and abs(vals[0]) > tol[0]
    assert tol[1] == pytest.approx(1e-12 * R * y[2])
