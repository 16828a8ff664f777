"""Column detachment (Schäfer et al. §4): the exact event-driven reference of N grains on a
wall against closed forms (N = 1: eq 3 with m_eff = m), the hard-sphere sequence of binary
collisions (t0/tn >> 1), an independent solve_ivp baseline restarted at events, and
simultaneous switches of symmetric configurations."""
import numpy as np
import pytest
from scipy.integrate import solve_ivp

from nsfric.cases import get_case
from nsfric.papers.schafer1996.column_detachment import binary_collision
from nsfric.papers.schafer1996.column_detachment_figures import detachment_data, spacing
from nsfric.solvers.contact_network import ContactNetworkSolver
from nsfric.papers.schafer1996.column import ColumnModel

CASE = get_case("column-detachment")
VALUES = CASE.bind()
WALL = binary_collision(VALUES, wall=True)
GRAIN = binary_collision(VALUES)


def solve(model, values, y0, t_end=1.0):
    return ContactNetworkSolver().solve(model, values, y0, (0.0, t_end), samples=2)


@pytest.mark.parametrize("N", [1, 21, 2.5, True, "10", None])
def test_N_is_validated(N):
    with pytest.raises(ValueError, match=r"parameter 'N' \(number of grains\) must be an integer in \[2, 20\]"):
        CASE.bind(params={"N": N})


def test_unknown_parameter_and_solver():
    with pytest.raises(ValueError, match="unknown parameter"):
        CASE.bind(params={"mu": 1.0})
    with pytest.raises(ValueError, match="solver 'contacts'"):
        CASE.reference_solution(solver="filippov")


def test_single_grain_on_the_wall_is_eq_3():
    """N = 1: one grain on the wall is the linear dashpot with m_eff = m; e and the contact
    duration equal eqs 3-4 to 1e-12."""
    model = ColumnModel(1)
    values = model.bind({})
    sol = solve(model, values, model.initial_state(values))
    assert sol.termination == "separated"
    assert [e.kind for e in sol.events] == ["contact-end"]
    e = sol.segments[-1].y1[1] / values["v_0"]
    assert abs(e - WALL["e_n"]) < 1e-12 * WALL["e_n"]
    assert abs(sol.events[0].t - WALL["t_n"]) < 1e-12 * WALL["t_n"]


def hard_sphere_column(N, e_wall, e_n, s=1.0, v0=1.0):
    """Final velocities of N point grains (gaps s) on a wall with instantaneous binary
    collisions of restitution e_n (grain-grain) and e_wall: the limit t0/tn -> infinity."""
    x = np.arange(N) * s
    v = np.full(N, -v0)
    for _ in range(100000):
        times = [(x[0] / -v[0], -1)] if v[0] < 0 else []
        times += [((x[i + 1] - x[i]) / (v[i] - v[i + 1]), i) for i in range(N - 1) if v[i] > v[i + 1]]
        if not times:
            return v
        dt, i = min(times)
        x = x + v * dt
        if i < 0:
            x[0], v[0] = 0.0, -e_wall * v[0]
        else:
            c, r = (v[i] + v[i + 1]) / 2, (v[i] - v[i + 1]) / 2
            x[i + 1] = x[i]
            v[i], v[i + 1] = c - e_n * r, c + e_n * r
    raise RuntimeError("no end")


@pytest.mark.parametrize("N", [2, 10])
def test_binary_regime_is_the_hard_sphere_sequence(N):
    """t0/tn = 100: the contacts never overlap in time, so every collision is an isolated
    soft collision with eq 3's e_n (or the wall's) and e_tot equals the sequence of binary
    collisions to 1e-12 (reached: 7e-15 for N = 2, 6e-14 for N = 10) (and is far below e_n, the paper's claim)."""
    sol = CASE.reference_solution(params={"N": N, "s_0": spacing(CASE, 100.0)}, samples=2)
    v_hs = hard_sphere_column(N, WALL["e_n"], GRAIN["e_n"])
    e_hs = v_hs.sum() / N
    assert abs(sol.summary["e_tot"] - e_hs) < 1e-12
    assert np.max(np.abs(sol.segments[-1].y1[N:] - np.sort(v_hs))) < 1e-12
    if N == 10:
        assert sol.summary["e_tot"] < GRAIN["e_n"] / 3


def baseline(N, s_0, wall=True, x0=None, v0=None):
    """An independent route: DOP853 (rtol 1e-13) on the hand-written piecewise-smooth field,
    every overlap an event, restarted at every event with the contact set re-decided by
    the overlap rate."""
    k, g, m, R = (VALUES[q] for q in ("k_n", "gamma_n", "m", "R"))
    x = R + np.arange(N) * (2 * R + s_0) if x0 is None else np.asarray(x0, float)
    v = np.full(N, -1.0) if v0 is None else np.asarray(v0, float)

    def overlaps(y):
        x, v = y[:N], y[N:]
        xi = 2 * R - np.diff(x)
        dxi = -np.diff(v)
        if wall:
            xi, dxi = np.r_[R - x[0], xi], np.r_[-v[0], dxi]
        return xi, dxi

    def rhs(t, y, closed):
        xi, dxi = overlaps(y)
        Fn = np.where(closed, k * xi + g * dxi, 0.0)
        a = np.zeros(N)
        j0 = 1 if wall else 0
        if wall:
            a[0] += Fn[0] / m
        a[:-1] -= Fn[j0:] / m
        a[1:] += Fn[j0:] / m
        return np.r_[y[N:], a]

    y, t = np.r_[x, v], 0.0
    xi, dxi = overlaps(y)
    closed = (xi > 0) | ((xi == 0) & (dxi > 0))
    times = []
    for _ in range(5000):
        evs = []
        for j in range(len(closed)):
            def ev(t, y, closed, j=j):  # solve_ivp passes args to events too
                return overlaps(y)[0][j]
            ev.direction = -1 if closed[j] else 1
            ev.terminal = True
            evs.append(ev)
        r = solve_ivp(rhs, (t, t + 0.1), y, method="DOP853", rtol=1e-13, atol=1e-16, events=evs,
                      args=(closed,))
        hit = [j for j in range(len(closed)) if len(r.t_events[j])]
        if not hit:
            return y[N:], times
        j = hit[0]
        t, y = r.t_events[j][0], r.y_events[j][0]
        times.append(t)
        closed = closed.copy()
        closed[j] = not closed[j]
        if not closed.any() and np.all(overlaps(y)[1] <= 0):
            return y[N:], times
    raise RuntimeError("too many events")


@pytest.mark.parametrize("ratio", [0.05, 0.3, 1.0])
def test_agrees_with_an_independent_baseline(ratio):
    """N = 4 where contacts overlap in time: e_tot, the final velocities and the event times
    of the exact reference agree with the solve_ivp baseline to 1e-10 (velocities, m/s; reached
    2e-12) and 1e-9 of the span (event times; reached 2e-10)."""
    N = 4
    s_0 = spacing(CASE, ratio)
    sol = CASE.reference_solution(params={"N": N, "s_0": s_0}, samples=2)
    v_b, times = baseline(N, s_0)
    assert np.max(np.abs(sol.segments[-1].y1[N:] - v_b)) < 1e-10
    assert abs(sol.summary["e_tot"] - v_b.sum() / N) < 1e-10
    assert len(times) == len(sol.events)
    assert np.max(np.abs(np.array(times) - sol.event_times())) < 1e-9 * sol.t_span[1]


def test_simultaneous_switches_of_a_symmetric_column():
    """Three free grains, the middle one at rest, the outer ones approaching it symmetrically:
    both contacts close in ONE event at t = d/u and open in ONE event; by symmetry the middle
    grain stays at rest and each outer grain meets a fixed obstacle (m_eff = m), so
    e = e_wall and the contact lasts t_wall (eqs 3-4)."""
    model = ColumnModel(3, wall=False)
    values = model.bind({})
    R, d, u = values["R"], 1e-6, 0.7
    y0 = np.array([0.0, 2 * R + d, 4 * R + 2 * d, u, 0.0, -u])
    sol = solve(model, values, y0)
    assert [(e.from_mode, e.to_mode) for e in sol.events] == [("--", "cc"), ("cc", "--")]
    assert abs(sol.events[0].t - d / u) < 1e-12 * d / u
    assert abs(sol.events[1].t - sol.events[0].t - WALL["t_n"]) < 1e-10 * WALL["t_n"]
    v = sol.segments[-1].y1[3:]
    assert np.max(np.abs(v - np.array([-u * WALL["e_n"], 0.0, u * WALL["e_n"]]))) < 1e-11 * u


def test_touching_column_starts_with_every_contact_closed():
    """s_0 = 0: the pair contacts start at zero overlap and zero rate; the decision by the
    first non-vanishing derivative closes them all at t = 0 (no initial event), and the
    run agrees with the baseline (started with the same contact set)."""
    sol = CASE.reference_solution(params={"N": 3, "s_0": 0.0}, samples=2)
    assert sol.segments[0].mode == "ccc"
    v_b, _ = baseline(3, 0.0)
    assert np.max(np.abs(sol.segments[-1].y1[3:] - v_b)) < 1e-10


@pytest.mark.parametrize("N", [10, 20])
def test_recontacts_inside_a_guard_sample(N):
    """t0/tn = 1: contacts close again right after opening (a re-contact within one guard
    sample, from a start on the surface where only rounding decides the sign): the run must
    separate with every open contact at non-positive overlap (the solver checks every
    segment end), without a spurious event in the rounding noise."""
    sol = CASE.reference_solution(params={"N": N, "s_0": spacing(CASE, 1.0)}, samples=2)
    assert sol.termination == "separated"
    assert 0.3 < sol.summary["e_tot"] < 0.5
    assert np.all(np.diff(sol.event_times()) > 0)


def test_two_regimes_and_summary(tmp_path):
    """The paper's claims: e_tot << e_n for t0/tn >> 1, e_tot close to one (above e_n) for
    t0/tn << 1/N; the summary holds e_tot, t0/tn and the binary e_n, t_n."""
    cols = detachment_data(CASE, ratios=[1e-3, 1e2], Ns=(10,))
    e = cols["e_tot N=10"]
    assert e[0] > 0.93 > GRAIN["e_n"] > 0.3 > e[1]
    sol = CASE.reference_solution(params={"s_0": spacing(CASE, 1e-3)}, samples=5)
    s = sol.summary
    assert abs(s["t0_over_tn"] - 1e-3) < 1e-12 and s["N"] == 10
    assert abs(s["e_n"] - 0.87) < 1e-3 and abs(s["t_n"] - 1e-5) < 1e-8
    assert s["e_tot"] == pytest.approx(e[0], abs=1e-12)


def test_run_writes_the_figure_csv_and_sidecars(tmp_path, monkeypatch):
    """``nsfric run column-detachment --jobs 2`` (sweep shortened here) writes the figure,
    its CSV and sidecar, and the default column's reference with ``summary.e_tot``; the
    columns computed on the pool are, bit for bit and in order, this process's."""
    import json

    from nsfric.papers.schafer1996 import column_detachment_figures as figs
    from nsfric.cli import main

    monkeypatch.setattr(figs, "RATIOS", np.array([1e-3, 1e2]))
    monkeypatch.setattr(figs, "FIGURE_N", (2, 3))
    out = tmp_path / "col"
    assert main(["run", "column-detachment", "--jobs", "2", "--out", str(out)]) == 0
    names = sorted(p.name for p in out.iterdir())
    assert names == [".nsfric-manifest.json", "detachment.csv", "detachment.json", "detachment.png",
                     "reference-linear-dashpot.csv", "reference-linear-dashpot.json", "reference.png"]
    side = json.loads((out / "reference-linear-dashpot.json").read_text())
    assert side["summary"]["N"] == 10 and 0.3 < side["summary"]["e_tot"] < 0.5
    rows = (out / "detachment.csv").read_text().splitlines()
    assert rows[0].split(",")[:2] == ["t0_over_tn", "e_tot N=2"] and len(rows) == 3
    for i, ratio in enumerate((1e-3, 1e2)):  # each point as this process computes it
        got = dict(zip(rows[0].split(","), map(float, rows[1 + i].split(","))))
        for N in (2, 3):
            s = CASE.reference_solution(params={"N": N, "s_0": spacing(CASE, ratio, {"N": N})}, samples=2).summary
            assert (got[f"e_tot N={N}"], got[f"events N={N}"]) == (s["e_tot"], s["n_events"])
