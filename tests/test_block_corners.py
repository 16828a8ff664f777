"""The rotating block with one unilateral frictional contact per corner (law
``coulomb-corners`` of ``slope-block-rotating``, :class:`BlockCorners`): exact static
friction at each corner, corners that lift off, event-driven and IDA references."""
import numpy as np
import pytest
import sympy as sp

import nsfric
from nsfric.solvers.crosscheck import disagreement
from nsfric.papers.krengel_matuttis import systems as S
from nsfric.papers.krengel_matuttis.block_corners import block_corners
from nsfric.symbolic.contacts import ContactModel, external_force
from nsfric.papers.krengel_matuttis.pile_model import DiscPile

CASE = nsfric.get_case("slope-block-rotating")
LAW = "coulomb-corners"
#: a tilted drop: corner 1 touches, corner 2 lands, corner 1 lifts off and lands again
DROP = {"theta0": 0.002}


def solve(solver, t_end, samples=2001, **params):
    return CASE.reference_solution(LAW, solver=solver, params=params, t_end=t_end, samples=samples)


@pytest.fixture(scope="module")
def stick():
    return {s: solve(s, 1.05, 4001) for s in ("filippov", "ida")}


@pytest.fixture(scope="module")
def slide():
    return {s: solve(s, 0.05, 501, alpha=35.0) for s in ("filippov", "ida")}


@pytest.fixture(scope="module")
def drop():
    return {s: solve(s, 0.02, 2001, **DROP) for s in ("filippov", "ida")}


def test_corner_contacts_derived_from_the_rotating_block():
    model, geo = block_corners(), S.SLOPE_ROT
    assert isinstance(model, ContactModel) and isinstance(DiscPile(), ContactModel)
    assert model.state_names == tuple(s.name for s in geo.states)
    assert set(S._slope_params()) <= set(model.params)
    for k, i in enumerate((1, 2)):
        d, dd = geo.depth(i)
        assert sp.simplify(model.overlaps[k] - d) == 0 and sp.simplify(model.rates[k] - dd) == 0
        # the corner's material point slides with the shared surface's v_t plus omega d_i
        assert sp.simplify(model.tangential_velocities[k] - geo.tangential_velocity - S.omega * d) == 0
        # each corner carries RotatingBlock's corner law (its repulsive force)
        assert sp.simplify(model.forces[k] - geo.corner_force(i)) == 0
        # eq 21: (1/m + r_y^2/I)^-1 per corner, 2/5 m for the flat block touching the plane
        r_y = geo.corner(i)[1]
        assert sp.simplify(1 / model.effective_mass(k) - (1 / S.MASS + r_y ** 2 / S.INERTIA)) == 0
        flat = model.effective_mass(k).subs(S.theta, 0)
        assert sp.simplify(flat - S.M_EFF_TAN) == 0
    # the pile's numeric gravity is its symbolic f_ext
    pile = DiscPile()
    v = pile.bind({})
    sub = {p.symbol: v[p.name] for p in pile.params}
    sym = np.array([float(sp.sympify(e).subs(sub)) for e in pile.external])
    assert np.allclose(external_force(pile, v), sym, rtol=1e-15, atol=1e-18)


def _after(sol, t0, n=20001):
    t = np.linspace(t0, sol.t_span[1], n)
    return t, sol(t)


def _derived_at(sol, t, Y):
    """Every derived quantity at ``t`` (states ``Y = sol(t)``) from one evaluation of the
    output functions: ``sol.derived(name, t=t)`` for each name, which evaluates all of
    them per call (about 1 ms per point for this model)."""
    out = sol._outputs(Y, [sol.mode_at(tt) for tt in t])
    return dict(zip(sol.model.output_names, out))


def test_sticks_exactly_at_15_degrees(stick):
    """Both corners stuck from the settling event on; over the last second both corner
    points, x and theta are constant to 1e-12 (m, rad), each friction inside mu F_n."""
    for name, sol in stick.items():
        settle = sol.events[-1]
        assert settle.kind == "stick" and settle.to_mode == "ss" and settle.t < 0.02, name
        late = sol.t > settle.t
        assert all(m == "ss" for m in np.asarray(sol.sample_modes)[late]), name
        t, Y = _after(sol, 0.05)
        D = _derived_at(sol, t, Y)
        assert np.array_equal(D["F_n_1"][-50:], sol.derived("F_n_1", t=t[-50:]))  # the public path
        for q in ("x_t_1", "x_t_2"):
            assert np.ptp(D[q]) <= 1e-12, (name, q)
        for q in ("x", "theta"):
            assert np.ptp(Y[sol.state_names.index(q)]) <= 1e-12, (name, q)
        assert abs(Y[sol.state_names.index("theta"), -1]) > 1e-6  # tilted at rest
        for i in (1, 2):
            assert D[f"F_n_{i}"].min() > 0
            assert D[f"ratio_{i}"].max() < 1
        assert t[-1] - 0.05 >= 1.0


def test_stick_references_agree(stick):
    a, b = stick["filippov"], stick["ida"]
    d = disagreement(a, b)
    assert d["events_match"] and d["event_dt"] < 1e-9, d
    assert max(d["states"][q] for q in ("x", "y", "theta")) < 1e-12, d
    assert d["max_abs"] < 1e-9, d


@pytest.mark.parametrize("solver", ["filippov", "ida"])
def test_slides_with_the_exact_acceleration_at_35_degrees(slide, solver):
    sol = slide[solver]
    assert sol.events == [] and sol.segments[-1].mode == "++"
    a_exact = CASE.numbers(CASE.bind(params={"alpha": 35.0}))["slide_acceleration"]
    t = np.linspace(0.03, 0.05, 201)
    Y = sol(t)
    a = np.polyfit(t, Y[sol.state_names.index("vx")], 1)[0]
    assert a == pytest.approx(a_exact, rel=1e-12), (a, a_exact)
    assert np.ptp(Y[sol.state_names.index("omega")]) < 1e-9  # the rocking has died out
    d = disagreement(slide["filippov"], slide["ida"])
    assert d["max_abs"] < 1e-9, d


def test_agrees_with_the_shared_surface_to_the_omega_d_terms(slide):
    """Both corners sliding at 35 deg: the per-corner model and RotatingBlock (one surface
    v_t = vx + omega y_c) differ only by the omega d_i terms (contact point at the corner,
    d_i deeper than the foot): relative to the rotation, by about max d / (l/2)."""
    sol = slide["filippov"]
    shared = CASE.reference_solution("coulomb", params={"alpha": 35.0}, t_end=0.05, samples=501)
    t = np.linspace(0.0, 0.05, 501)
    A, B = sol(t), shared(t)
    idx = {q: sol.state_names.index(q) for q in ("x", "y", "theta", "omega")}
    assert shared.state_names == sol.state_names
    d_max = max(np.max(sol.derived(f"xi_{i}", t=t)) for i in (1, 2))
    scale = d_max / (CASE.bind()["l"] / 2)  # ~3e-5
    for q in ("theta", "omega"):
        rel = np.max(np.abs(A[idx[q]] - B[idx[q]])) / np.max(np.abs(B[idx[q]]))
        assert 0.1 * scale < rel < 3 * scale, (q, rel, scale)
    for q in ("x", "y"):  # translation: the omega d terms enter at second order
        assert np.max(np.abs(A[idx[q]] - B[idx[q]])) < 1e-3 * scale * np.max(np.abs(B[idx[q]])), q


def test_a_corner_lifts_off_and_lands_again(drop):
    """Dropped tilted: corner 1 touches, corner 2 lands, corner 1 lifts off (its force
    reaches zero) and closes again; both solvers find the same events, at the same times
    to 1e-9 s -- except the last four swaps, slides ending at |dv_t/dt| < 1e-8 m/s^2,
    whose times the velocities' rounding fixes only to ~1e-8 s (1e-7 asserted;
    test_slow_crossings_sit_at_the_rounding_floor) -- and the same states."""
    a, b = drop["filippov"], drop["ida"]
    modes = [e.to_mode for e in a.events]
    assert [e.to_mode for e in b.events] == modes
    i_open = next(k for k, e in enumerate(a.events) if e.kind == "contact-end" and e.to_mode[0] == "o")
    assert a.events[i_open].from_mode[0] != "o"
    assert any(e.kind == "contact-begin" and e.from_mode[0] == "o" and e.to_mode[0] != "o"
               for e in a.events[i_open + 1:])
    assert "oo" in modes  # both corners off the plane: a flight phase
    slow = _slow_crossings(a)
    assert slow == [20, 21, 22, 23]  # the swaps of the rocking's tail, at 7.1 ms and later
    for k, (e, f) in enumerate(zip(a.events, b.events)):
        assert abs(e.t - f.t) < (1e-7 if k in slow else 1e-9), (k, e, f)
    assert a.segments[-1].mode == "ss"
    d = disagreement(a, b)
    assert max(d["states"][q] for q in ("x", "y", "theta")) < 1e-9, d


#: a slide ending with a deceleration below this (m/s^2) ends at the velocities' rounding floor
SLOW = 1e-8


def _slow_crossings(sol):
    """The events that end a slide decelerating at ``|dv_t/dt| < SLOW``: where the
    velocities' rounding (~1e-19 m/s here) moves the crossing by ``1e-19/|dv_t/dt|`` s,
    beyond 1e-9 s (test_slow_crossings_sit_at_the_rounding_floor)."""
    from nsfric.solvers.contacts import PileLogic

    logic = PileLogic(sol.model, sol.params)
    out = []
    for k, (seg, e) in enumerate(zip(sol.segments, sol.events)):
        dy, _, _, c = logic.field(seg.y1, seg.mode)
        dvt = c["J_t"] @ dy[sol.model.n:] + c["c_t"]
        if any(abs(dvt[i]) < SLOW for i, ch in enumerate(seg.mode) if ch in "+-"):
            out.append(k)
    return out


def test_slow_crossings_sit_at_the_rounding_floor():
    """Why the drop's last events cannot agree to 1e-9 s in double precision: after the
    last landing the block rocks on its elastic corners, the corners swapping stick and
    slip every 0.436 ms at omega ~ 1e-12 rad/s and v_t ~ 1e-20 m/s, each slide ending
    with a deceleration 3.5 times smaller than the one before (2e-11 m/s^2 at the last
    stick).  Nudging theta0 by one ulp (4e-19 rad) moves those crossings by about
    1e-19 m/s / |dv_t/dt|: the last by more than 1e-9 s, while every other event stays
    within 1e-10 s."""
    def run(theta0):
        return CASE.reference_solution(LAW, params={"theta0": theta0}, t_end=0.009, samples=11)

    base = run(DROP["theta0"])
    slow = _slow_crossings(base)
    shifts = np.array([[f.t - e.t for e, f in zip(base.events, run(np.nextafter(DROP["theta0"], to)).events)]
                       for to in (0.0, 1.0)])
    fast = [k for k in range(len(base.events)) if k not in slow]
    assert slow and slow[-1] == len(base.events) - 1 and base.events[-1].to_mode == "ss"
    assert np.max(np.abs(shifts[:, fast])) < 1e-10
    assert np.max(np.abs(shifts[:, -1])) > 1e-9


def test_flight_phase_keeps_the_momenta(drop):
    """With both corners open only gravity acts: omega is constant, vx and vy change at
    g sin(alpha) and -g cos(alpha)."""
    sol = drop["filippov"]
    seg = next(s for s in sol.segments if s.mode == "oo")
    t = np.linspace(seg.t0, seg.t1, 50)[1:-1]
    Y = seg(t)
    v = CASE.bind(LAW, params=DROP)
    a = np.radians(v["alpha"])
    g = float(S.G)
    idx = sol.state_names.index
    assert np.ptp(Y[idx("omega")]) <= 1e-12 * np.max(np.abs(Y[idx("omega")]))
    for q, acc in (("vx", g * np.sin(a)), ("vy", -g * np.cos(a))):
        assert np.polyfit(t, Y[idx(q)], 1)[0] == pytest.approx(acc, rel=1e-10), q


@pytest.mark.parametrize("run", ["drop", "stick"])
def test_energy_never_increases(run, request):
    """Kinetic + gravity + the closed corners' elastic energy (Y/4 d^2 each) is
    non-increasing: the dashpots and the sliding friction dissipate, stuck friction does
    no work, a corner opens at zero force."""
    sol = request.getfixturevalue(run)["filippov"]
    t = sol.t[sol.t <= 0.02]
    v = sol.params
    m, Y = v["rho"] * v["l"] ** 2, v["Y"]
    a = np.radians(v["alpha"])
    g = float(S.G)
    E = sol.derived("E_kin", t=t) + m * g * (-np.sin(a) * sol.derived("x_com", t=t) + np.cos(a) * sol.derived("y_com", t=t))
    modes = np.asarray(sol.sample_modes)[: len(t)]
    for k in (0, 1):
        closed = np.array([mo[k] != "o" for mo in modes])
        E = E + np.where(closed, Y / 4 * sol.derived(f"xi_{k + 1}", t=t) ** 2, 0.0)
    assert np.max(np.diff(E)) <= 1e-12 * np.max(np.abs(E)), np.max(np.diff(E))
    assert E[-1] < E[0]


def test_cli_reference_runs_both_solvers(tmp_path):
    import json
    import subprocess
    import sys

    out = tmp_path / "corners.csv"
    r = subprocess.run([sys.executable, "-m", "nsfric.cli", "reference", "slope-block-rotating", "--law", LAW,
                        "--t-end", "0.005", "--samples", "101", "--out", str(out)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["solver"] == "pile-events" and meta["cross_check"]["against"] == "pile-ida"
    assert meta["cross_check"]["events_match"] and meta["cross_check"]["max_abs"] < 1e-9
    assert "x_t_1" in out.read_text().splitlines()[0]


def test_bad_input():
    with pytest.raises(ValueError, match="multi-contact"):
        CASE.reference_solution(LAW, solver="radau5dae", t_end=0.001)
    with pytest.raises(ValueError, match="method"):
        CASE.reference_solution(LAW, solver="filippov", t_end=0.001, method="LSODA")
    with pytest.raises(ValueError, match="theta0"):
        CASE.bind(LAW, params={"theta0": 1.0})
    with pytest.raises(ValueError, match="h0"):
        CASE.bind(LAW, params={"h0": -1e-6})


def test_a_slow_crossing_does_not_continue_its_slide():
    """At 15 deg the sliding corner's v_t crosses zero at 2.615 ms with dv_t/dt ~ -1e-8
    m/s^2, inside the consistency margin: a sliding guard that fired keeps its direction
    only if it strictly turns back, so the mode changes (else it grazes and chatters)."""
    from nsfric.solvers.contacts import CONSISTENT, PileLogic

    sol = solve("filippov", 0.003, 101)
    k = next(k for k, s in enumerate(sol.segments) if s.mode == "s+" and s.t1 > 0.0026)
    y, K = sol.segments[k].y1, sol.model.K
    logic = PileLogic(sol.model, sol.params)
    ok, _, dvt = logic.consistent(y, "s+", [1])
    assert ok and -CONSISTENT * 9.81 < dvt[1] < 0  # the margin alone accepts the continuation
    assert not logic.consistent(y, "s+", [1], crossed={1: "+"})[0]
    assert logic.decide(y, "s+", [K + 1]) == sol.segments[k + 1].mode != "s+"


@pytest.mark.parametrize("model", [block_corners(), DiscPile()], ids=["block-corners", "disc-pile"])
def test_parameter_values_are_sympys_full_substitution_bit_for_bit(model):
    """The masses and gravity at a member's parameters (each expression given only its own
    symbols, for speed) are SymPy's substitution of every parameter, bit for bit."""
    from nsfric.symbolic.contacts import acceleration_scale, mass_vector

    rng = np.random.default_rng(7)
    for _ in range(8):
        v = {p.name: float(p.default) * (1.0 + 0.5 * rng.random()) if p.default else float(rng.random())
             for p in model.params}
        sub = {p.symbol: v[p.name] for p in model.params}
        full = lambda exprs: np.array([float(sp.sympify(e).subs(sub)) for e in exprs])  # noqa: E731
        assert np.array_equal(mass_vector(model, v), full(model.mass))
        if not getattr(model, "external_force", None):
            assert np.array_equal(external_force(model, v), full(model.external))
        assert acceleration_scale(model, v) == full([model.accel_scale])[0]
