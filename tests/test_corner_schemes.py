"""The discrete schemes on the per-corner rotating block (issue 13; nsfric.schemes.corners):
delta schemes with exact static friction per corner (law ``coulomb-corners``) and
Cundall-Strack per corner (``cundall-strack-corners``, ``-viscous-corners``)."""
import numpy as np
import pytest

import nsfric
from nsfric.cases.base import get_case
from nsfric.study.fit import fit_order
from nsfric.symbolic import laws as L
from nsfric.papers.krengel_matuttis import systems as S
from nsfric.papers.krengel_matuttis.block_corners import block_corners
from nsfric.symbolic.corner_forces import CornerForces

CASE = get_case("slope-block-rotating")
LAW = "coulomb-corners"
DELTA = ("delta-heun", "delta-bdf2", "delta-bdf5")


def run(law=LAW, scheme="delta-heun", dt=1e-5, t_end=0.04, **params):
    return nsfric.simulate(CASE, law=law, scheme=scheme, dt=dt, t_end=t_end, params=params)


def col(sol, name):
    return sol.y[sol.state_names.index(name)]


@pytest.mark.parametrize("scheme", DELTA)
def test_delta_schemes_stick_at_15_degrees_with_a_drift_of_order_dt(scheme):
    """At 15 deg both corners stick after landing and stay stuck; the rotation is constant
    to rounding; the drift over the window is the residual velocity of the step that
    stuck, linear in time and bounded by ``dt`` times the corners' largest friction
    deceleration ``mu F_n/m_eff,tan`` (eq 21): O(dt)."""
    window = (0.02, 0.04)
    model = block_corners(LAW)
    for dt in (2e-5, 1e-5, 5e-6):
        sol = run(scheme=scheme, dt=dt, t_end=window[1], alpha=15.0)
        i0 = int(np.argmin(np.abs(sol.t - window[0])))
        assert set(sol.modes[i0:]) == {"ss"}, (dt, set(sol.modes[i0:]))
        theta, x = col(sol, "theta")[i0:], col(sol, "x")[i0:]
        assert np.ptp(theta) < 1e-14, (dt, np.ptp(theta))
        v = np.diff(x) / dt  # the drift is linear: one residual velocity over the window
        assert np.ptp(v) < 1e-7 * max(np.max(np.abs(v)), 1e-12), (dt, np.ptp(v))
        forces = CornerForces(model, CASE.bind(LAW, params={"alpha": 15.0}))
        brake = forces.exact(sol.y[:, -1], np.ones(2, dtype=bool))[1]["brake"]
        drift = x[-1] - x[0]
        assert abs(drift) <= (window[1] - window[0]) * dt * brake.max(), (dt, drift)


def exact_slide_acceleration(alpha):
    acc = S.slope_numbers("slope-block-rotating")["slide_acceleration"]
    return float(acc.subs({L.mu: CASE.bind(LAW)["mu"], S.alpha: alpha}))


@pytest.mark.parametrize("scheme", DELTA)
def test_slides_with_the_exact_acceleration_at_35_degrees(scheme):
    """At 35 deg both corners slide; once the normal oscillation has died the block
    accelerates at g (sin alpha - mu cos alpha) (the symbolic layer's slide
    acceleration), for every step."""
    a_exact = exact_slide_acceleration(35.0)
    for dt in (2e-5, 1e-5, 5e-6):
        sol = run(scheme=scheme, dt=dt, t_end=0.05, alpha=35.0)
        i0 = int(np.argmin(np.abs(sol.t - 0.04)))
        assert set(sol.modes[i0:]) == {"++"}
        vx = col(sol, "vx")
        a = (vx[-1] - vx[i0]) / (sol.t[-1] - sol.t[i0])
        assert abs(a / a_exact - 1) < 1e-6, (dt, a, a_exact)


@pytest.fixture(scope="module")
def drop_reference():
    return CASE.reference_solution(LAW, solver="filippov", params={"theta0": 0.002}, t_end=0.004, samples=401)


def test_delta_heun_converges_to_the_exact_reference_through_lift_off(drop_reference):
    """Dropped tilted (theta0 = 0.002): corner 1 lifts off, both fly, they land again.
    delta-heun's states at 1.5, 3 and 4 ms converge to the event-driven reference at
    first order (observed order of the error against dt)."""
    tq = np.array([0.0015, 0.003, 0.004])
    R = drop_reference(tq)
    dts = (1e-6, 5e-7, 2.5e-7, 1.25e-7)
    errors = {q: [] for q in ("x", "y", "theta", "omega")}
    for dt in dts:
        sol = run(dt=dt, t_end=0.004, theta0=0.002)
        assert "oo" in sol.modes and any(e.kind == "lift-off" for e in sol.events)
        err = np.abs(sol(tq) - R).max(axis=1)
        for q in errors:
            errors[q].append(err[sol.state_names.index(q)])
    for q, e in errors.items():
        fit = fit_order(dts, e)
        assert 0.8 < fit.order < 1.5, (q, e, fit)
        assert e[-1] < 2e-2 * np.max(np.abs(R[drop_reference.state_names.index(q)])), (q, e)


def _relative(a, b, q):
    A, B = col(a, q), col(b, q)
    return np.max(np.abs(A - B)) / np.max(np.abs(A))


@pytest.mark.parametrize("law", ["cundall-strack", "cundall-strack-viscous"])
def test_cundall_strack_per_corner_differs_from_the_shared_surface_by_the_omega_d_terms(law):
    """On the flat block at 5 deg (both springs inside their bounds) the per-corner springs
    (half k_t, gamma_t each) carry the shared-surface law's force up to the omega d terms
    (the corners' material points lie d_i below the plane line): relative differences of
    the order of max d / (l/2)."""
    shared = run(law, "heun", 1e-5, 0.02, alpha=5.0)
    corners = run(law + "-corners", "heun", 1e-5, 0.02, alpha=5.0)
    assert set(corners.modes[1:]) == {"ss"}
    scale = np.max([corners["xi_1"], corners["xi_2"]]) / (CASE.bind(LAW)["l"] / 2)
    for q in ("x", "theta", "vx", "omega"):
        rel = _relative(shared, corners, q)
        assert 0.01 * scale < rel < 3 * scale, (q, rel, scale)


def test_the_lighter_corner_reaches_its_own_bound_at_15_degrees():
    """At 15 deg the uphill corner (the smaller normal force) reaches its own bound
    mu F_n,1 while landing (it slips), which the shared surface, bounded by
    mu (F_n1 + F_n2), never does: why the two models differ beyond the omega d terms there."""
    corners = run("cundall-strack-corners", "heun", 1e-5, 0.01, alpha=15.0)
    shared = run("cundall-strack", "heun", 1e-5, 0.01, alpha=15.0)
    assert np.max(corners["ratio_1"]) == pytest.approx(1.0, abs=1e-12)
    assert any(m[0] in "+-" for m in corners.modes)
    assert set(shared.modes) == {"stick"}
    assert _relative(shared, corners, "x") > 0.05


def test_an_open_corner_has_a_relaxed_spring():
    """Dropped tilted, Cundall-Strack per corner: while a corner is open its spring is 0
    (lift-off resets it; the first open row still carries the step assigned from the
    closed evaluation states, the reset acts from the next step on, Führer et al. eq 3),
    and it lands and loads its spring again."""
    sol = run("cundall-strack-corners", "heun", 1e-6, 0.004, theta0=0.002)
    for k in (0, 1):
        xi = col(sol, f"xi_t_{k + 1}")
        is_open = np.array([m[k] == "o" for m in sol.modes])
        assert is_open.any() and (~is_open).any()
        held = is_open[1:] & is_open[:-1]  # open at this row and the one before
        assert held.sum() > 100 and np.all(xi[1:][held] == 0.0)
        assert np.any(xi[~is_open] != 0.0)
    assert any(e.kind == "lift-off" for e in sol.events)


def test_bad_input():
    with pytest.raises(ValueError, match="delta scheme"):
        run(scheme="heun", t_end=0.001)
    with pytest.raises(ValueError, match="delta scheme"):
        run(scheme="delta-heun-proj", t_end=0.001)
    with pytest.raises(ValueError, match="explicit plain scheme"):
        run("cundall-strack-corners", "delta-heun", t_end=0.001)
    with pytest.raises(ValueError, match="no exact reference"):
        CASE.reference_solution("cundall-strack-corners", t_end=0.001)
    with pytest.raises(ValueError, match="unknown law"):
        run("coulomb-edges", t_end=0.001)
    with pytest.raises(ValueError, match="stages"):
        nsfric.simulate(CASE, law=LAW, scheme="delta-heun", dt=1e-5, t_end=0.001, stages=True)


def test_per_corner_drift_table():
    """The per-corner Fig 4 rows (nsfric.papers.krengel_matuttis.slope_block_corners): phase 0 is the plain
    run from t = 0 (nsfric.simulate's drift), both corners stuck in the window, every
    phase's drift within O(dt), the ratios to delta-Heun."""
    from nsfric.papers.krengel_matuttis.slope_block_corners import COLUMNS, corner_drift_rows

    window, dt = (0.01, 0.02), 2e-5
    rows = corner_drift_rows(CASE, dts=(dt,), window=window, n_phases=2)
    assert [r["scheme"] for r in rows] == list(DELTA)
    assert all(set(COLUMNS) <= set(r) for r in rows)
    for r in rows:
        sol = run(scheme=r["scheme"], dt=dt, t_end=window[1], alpha=15.0)
        x = col(sol, "x")
        assert r["drift"] == x[-1] - x[int(np.argmin(np.abs(sol.t - window[0])))]
        assert r["both_stuck"]
        assert r["min_abs"] <= r["mean_abs"] <= r["max_abs"] < (window[1] - window[0]) * dt * 20.0
        assert r["ratio_to_heun"] == pytest.approx(r["mean_abs"] / rows[0]["mean_abs"])


def test_cli_simulates_the_per_corner_laws(tmp_path, capsys):
    """``nsfric simulate`` runs both per-corner laws (the spring law is one of the case's
    ``scheme_laws``, listed by ``nsfric list``) and refuses an unknown one.  In-process
    (``nsfric.cli.main``, as ``python -m nsfric.cli`` calls it; the command in a real
    process is tested in test_cli_outputs.py and test_cli_reference.py)."""
    from nsfric.cli import main

    for law, scheme in (("coulomb-corners", "delta-bdf2"), ("cundall-strack-corners", "heun")):
        out = tmp_path / f"{law}.csv"
        assert main(["simulate", "slope-block-rotating", "--law", law, "--scheme", scheme, "--dt", "1e-5",
                     "--t-end", "0.002", "--out", str(out)]) == 0, capsys.readouterr().err
        header = out.read_text().splitlines()[0].split(",")
        assert {"F_t_1", "F_t_2", "mode"} <= set(header)
        assert ("xi_t_1" in header) == (law != "coulomb-corners")
    capsys.readouterr()
    assert main(["list"]) == 0
    assert "schemes only: cundall-strack-corners, cundall-strack-viscous-corners" in capsys.readouterr().out
    assert main(["simulate", "slope-block-rotating", "--law", "cundall-strack-edges", "--scheme", "heun",
                 "--dt", "1e-5", "--out", str(tmp_path / "x.csv")]) != 0
    assert "unknown law 'cundall-strack-edges'" in capsys.readouterr().err
