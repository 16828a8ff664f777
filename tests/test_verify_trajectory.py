"""``nsfric verify`` on another code's trajectories (t and states per step) instead of its
observables: the states at the end time and the case's trajectory observables are
compared (:mod:`nsfric.study.verify_trajectory`).

The other codes are written here as plain functions: the user's semi-implicit Euler +
D-SDS on the sliding plates (as in ``test_verify.py``) and a DEM-style sphere hitting a
wall (symplectic Euler, linear spring-dashpot normal force, D-SDS tangential spring, lever
arm R), each returning its whole trajectory."""
from __future__ import annotations

import math

import numpy as np
import pytest

import nsfric
from nsfric.cli import main
from nsfric.io import csv_text
from test_verify import DTS, T_END, plates

CASE = "sliding-plates"


def plates_trajectory(dt, p):
    """The user's plates code, keeping every step: ``{"t", "xi", "v"}``."""
    k, gamma, f_max, m = p["k"], p["gamma"], p["F_max"], p["m"]
    xi, v = p["xi0"], p["v0"]
    rows = [(0.0, xi, v)]
    n = round(p["t_end"] / dt)
    for i in range(n):
        f = -(k * xi + gamma * v)
        if abs(f) > f_max:
            f = math.copysign(f_max, f)
            xi = (-f - gamma * v) / k
        v += dt * f / m
        xi += dt * v
        rows.append(((i + 1) * dt, xi, v))
    t, xi, v = map(np.array, zip(*rows))
    return {"t": t, "xi": xi, "v": v}


def _csv_columns(runner, params):
    cols = {}
    for dt in DTS:
        tr = runner(dt, dict(params))
        n = len(tr["t"])
        for k, v in {"dt": np.full(n, dt), **tr}.items():
            cols.setdefault(k, []).extend(np.asarray(v).tolist())
    return {k: np.array(v) for k, v in cols.items()}


@pytest.fixture(scope="module")
def plates_params():
    return {**nsfric.get_case(CASE).bind("d-sds", {}), "t_end": T_END}


def test_a_trajectory_gives_the_end_states_of_the_observable_route(plates_params, tmp_path):
    by_obs = nsfric.verify(CASE, "d-sds", runner=plates(), dts=DTS, t_end=T_END, observables=["xi_end", "v_end"])
    by_traj = nsfric.verify(CASE, "d-sds", runner=plates_trajectory, dts=DTS, t_end=T_END)
    assert by_traj.meta["input_kind"] == "trajectory" and by_obs.meta["input_kind"] == "observables"
    assert [p.observable for p in by_traj.points] == ["xi_end", "v_end"]
    for a, b in zip(by_obs.points, by_traj.points):
        assert a.observable == b.observable
        assert np.array_equal(a.values, b.values)  # the same runs, the same numbers
        assert b.status == "converges to d-sds", b.verdict()
        assert abs(b.laws["d-sds"]["order"].order - 1) < 0.03
    # the same trajectories from a CSV file, through the command line; t_end from the rows
    path = tmp_path / "traj.csv"
    path.write_text(csv_text(_csv_columns(plates_trajectory, plates_params)))
    rc = main(["verify", CASE, "--law", "d-sds", "--input", str(path), "--out", str(tmp_path / "v")])
    assert rc == 0
    res = nsfric.verify(CASE, "d-sds", input=str(path))
    assert res.meta["t_end"] == pytest.approx(T_END)
    assert [p.values for p in res.points] == [p.values for p in by_traj.points]


@pytest.mark.parametrize("edit, message", [
    (lambda c: c.pop("v"), "a trajectory needs a column per state of 'sliding-plates'/d-sds ['xi', 'v']; missing ['v']"),
    (lambda c: c["t"].__setitem__(3, c["t"][1]), "t must increase within a run"),
    (lambda c: [a.__setitem__(slice(None), a[c["t"] != T_END]) for a in []] or c.update(
        {k: v[:-1] for k, v in c.items()}), "ends at t ="),
])
def test_bad_trajectories_name_what_is_wrong(plates_params, tmp_path, capsys, edit, message):
    cols = _csv_columns(plates_trajectory, plates_params)
    edit(cols)
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]").replace("(", r"\(")):
        nsfric.verify(CASE, "d-sds", input=cols)
    path = tmp_path / "bad.csv"
    path.write_text(csv_text(cols))
    assert main(["verify", CASE, "--law", "d-sds", "--input", str(path), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "o").exists()


def sphere_code(dt, p):
    """A DEM-style sphere on a wall: symplectic Euler, normal force k_n delta + gamma_n
    delta', D-SDS history (increment, force, cap and reset), lever arm R; the whole run."""
    m, I, R, mu = p["m"], p["I"], p["R"], p["mu"]
    kn, gn, kt, gt = p["k_n"], p["gamma_n"], p["ks_ratio"] * p["k_n"], p["gamma_t"]
    x, y, vx, vy, w, xi = 0.0, R, p["psi_i"] * p["v_n"] - R * p["omega_i"], -p["v_n"], p["omega_i"], 0.0
    rows = [(0.0, xi, x, y, vx, vy, w)]
    for i in range(round(p["t_end"] / dt)):
        delta = R - y
        F = Fn = 0.0
        if delta > 0:
            Fn = kn * delta - gn * vy
            vt = vx + R * w
            xi += vt * dt
            F = -kt * xi - gt * vt
            if abs(F) > mu * abs(Fn):
                F = math.copysign(mu * abs(Fn), F)
                xi = -(F + gt * vt) / kt
        vx, vy, w = vx + dt * F / m, vy + dt * Fn / m, w + dt * R * F / I
        x, y = x + dt * vx, y + dt * vy
        rows.append(((i + 1) * dt, xi, x, y, vx, vy, w))
    return dict(zip(("t", "xi", "x", "y", "vx", "vy", "omega"), map(np.array, zip(*rows))))


def test_a_sphere_codes_trajectory_gives_the_impact_observables():
    case = nsfric.get_case("sphere-wall")
    params = {"arm_overlap": 0.0, "psi_i": 1.0}
    values = case.bind("d-sds", params)
    t_n = case.contact_t_end("d-sds", values) / 2
    dts = [t_n / n for n in (100, 200, 400, 800)]
    t_end = 1.5 * t_n
    dts = [t_end / round(t_end / d) for d in dts]  # every run ends at t_end
    res = nsfric.verify(case, "d-sds", runner=sphere_code, dts=dts, params=params, t_end=t_end,
                        observables=["psi_f", "e_n", "t_n"])
    assert res.meta["input_kind"] == "trajectory"
    by_name = {p.observable: p for p in res.points}
    for name in ("psi_f", "e_n", "t_n"):
        p = by_name[name]
        assert p.status == "converges to d-sds", p.verdict()
        assert abs(p.laws["d-sds"]["order"].order - 1) < 0.1, p.verdict()
    # the contact end is interpolated between the rows: t_n within a step of the exact one
    d = by_name["t_n"].laws["d-sds"]
    assert np.all(np.abs(d["errors"]) < np.array(dts))


def test_the_error_against_time_has_the_schemes_order():
    res = nsfric.verify(CASE, "d-sds", runner=plates_trajectory, dts=DTS, t_end=T_END)
    errs = {e["state"]: e for e in res.meta["trajectory_errors"]}
    assert sorted(errs) == ["v", "xi"]
    for e in errs.values():
        assert e["law"] == "d-sds" and e["dts"] == sorted(DTS)
        assert np.all(np.diff(e["max_errors"]) > 0)  # dts ascending: larger steps, larger errors
        assert e["order"] is not None and abs(e["order"] - 1) < 0.1, e
    assert "xi(t) against d-sds: max error" in res.summary()
    # against the C-SDS, another law, the error does not go to zero
    other = nsfric.verify(CASE, "c-sds", runner=plates_trajectory, dts=DTS, t_end=T_END)
    assert all(e["order"] is None or min(e["max_errors"]) > 1e-2 for e in other.meta["trajectory_errors"])


def _sphere_ladder(psi_i):
    case = nsfric.get_case("sphere-wall")
    params = {"arm_overlap": 0.0, "psi_i": psi_i}
    values = case.bind("d-sds", params)
    t_n = case.contact_t_end("d-sds", values) / 2
    t_end = 1.5 * t_n
    return case, params, t_end, [t_end / round(t_end / (t_n / n)) for n in (100, 200, 400, 800)]


@pytest.mark.parametrize("psi_i", [0.5, 1.0])
def test_the_time_the_contact_point_stops_sliding_is_verified_with_its_order(psi_i):
    """``t_vt0``, the first zero of the contact point's tangential velocity, found on the
    code's rows and bisected on the exact solution's dense output: first order for the
    symplectic-Euler sphere, each error within a step.  At psi_i = 1 the fitted order of
    the differences is 0.9967 (a second-order term): the limit's uncertainty includes its
    change under the order 1 (without it the offset, 3.2e-11 s, was beyond the
    uncertainty, 2.4e-11 s: "converges to something else")."""
    case, params, t_end, dts = _sphere_ladder(psi_i)
    res = nsfric.verify(case, "d-sds", runner=sphere_code, dts=dts, params=params, t_end=t_end)
    p = next(p for p in res.points if p.observable == "t_vt0")
    d = p.laws["d-sds"]
    assert p.status == "converges to d-sds", p.verdict()
    assert abs(d["order"].order - 1) < 0.05, p.verdict()
    assert np.all(np.abs(d["errors"]) < np.array(p.dts))
    # the exact value is where v_t vanishes: the reference's contact-point velocity there
    sol = case.reference_solution("d-sds", params=case.bind("d-sds", params))
    from nsfric.cases.sphere_wall import slip_velocity

    vt = slip_velocity(sol.params, sol(np.array([d["exact"] - 1e-12, d["exact"] + 1e-12])), sol.model.state_names)
    assert vt[0] > 0 > vt[1]


def test_an_event_some_runs_lack_is_left_out_with_a_note():
    """The coarsest run made to slide throughout (its spin rewritten so that ``v_t`` stays
    positive): ``t_vt0`` is left out of the verification, and says why; the rest stands."""
    case, params, t_end, dts = _sphere_ladder(0.5)
    runs = {dt: sphere_code(dt, {**case.bind("d-sds", params), "t_end": t_end}) for dt in dts}
    coarse = runs[max(dts)]
    coarse["omega"] = np.abs(coarse["omega"]) + 10 * abs(coarse["vx"]).max() / case.bind("d-sds", params)["R"]
    cols = {}
    for dt, tr in runs.items():
        for k, v in {"dt": np.full(len(tr["t"]), dt), **tr}.items():
            cols.setdefault(k, []).extend(np.asarray(v).tolist())
    res = nsfric.verify(case, "d-sds", input={k: np.array(v) for k, v in cols.items()}, params=params,
                        t_end=t_end)
    assert "t_vt0" not in {p.observable for p in res.points}
    assert "psi_f" in {p.observable for p in res.points}
    assert f"dt = {max(dts):g}" in res.meta["left_out"]["t_vt0"]
    assert "t_vt0: left out" in res.summary()
