"""Krengel & Matuttis §4: block on a slope with exact static friction (Filippov and
IDA), Cundall-Strack, and the delta-approximated DAE schemes (Table 1, Figs 2-5)."""
import json
import math

import numpy as np
import pytest

import nsfric
from nsfric.papers.krengel_matuttis import slope_block_study as S
from nsfric.cli import main
from nsfric.solvers.crosscheck import disagreement
from nsfric import simulate

CASE = nsfric.get_case("slope-block")
_SOLS = {}


def ref(law="coulomb", solver="filippov", t_end=0.02, samples=2001, **params):
    key = (law, solver, t_end, samples, tuple(sorted(params.items())))
    if key not in _SOLS:
        _SOLS[key] = CASE.reference_solution(law, solver=solver, params=params, t_end=t_end,
                                             samples=samples)
    return _SOLS[key]


def test_table_1_parameters_and_derived_numbers():
    v = CASE.bind()
    assert (v["alpha"], v["l"], v["rho"], v["Y"], v["mu"], v["D"], v["dt"]) == \
        (15.0, 0.01, 5000.0, 5e7, 0.6, 1.5, 5e-6)
    n = CASE.numbers(v)
    assert n["m"] == pytest.approx(0.5) and n["k_t"] == pytest.approx(2 / 7 * 5e7)
    assert n["gamma_t"] == pytest.approx(0.25 * math.sqrt(2 / 7 * 5e7 * 0.5))
    assert n["critical_angle"] == pytest.approx(30.96, abs=0.01)
    assert CASE.model().state_names == ("x", "y", "vx", "vy")
    assert CASE.model("cundall-strack").state_names == ("xi", "x", "y", "vx", "vy")


@pytest.mark.slow
def test_exact_reference_sticks_at_15_degrees_for_one_second():
    """After its stick event the position is constant to 1e-12 m over 1 s; the
    event-driven and the IDA references agree to 1e-9 m."""
    T = 1.05
    sols = {s: ref(solver=s, t_end=T, samples=3001) for s in ("filippov", "ida")}
    for s, sol in sols.items():
        kinds = [e.kind for e in sol.events]
        assert kinds == ["stick"], (s, kinds)
        t_s = sol.events[0].t
        assert t_s < 0.05
        t = np.linspace(t_s, T, 20001)
        t = t[t >= t_s + 1e-9]
        Y = sol(t)
        x = Y[sol.state_names.index("x")]
        assert t[-1] - t[0] >= 1.0
        assert np.max(np.abs(x - x[0])) <= 1e-12, (s, np.ptp(x))
        assert np.max(np.abs(Y[sol.state_names.index("vx")])) <= 1e-12
        lam = sol.derived("lam", t=t)
        assert np.all((lam >= 0) & (lam <= 1))
    d = disagreement(sols["filippov"], sols["ida"])
    assert d["events_match"] and d["event_dt"] < 1e-9
    assert d["states"]["x"] < 1e-9 and d["states"]["y"] < 1e-9, d


def test_exact_references_agree_with_and_without_damping():
    for damping in (1.0, 0.0):
        a, b = ref(damping=damping), ref(solver="ida", damping=damping)
        d = disagreement(a, b)
        assert d["events_match"], damping
        assert d["states"]["x"] < 1e-9 and d["states"]["y"] < 1e-9, d
        # the bilateral normal contact is never pulled: F_n >= 0 along the references
        assert np.min(a["F_n"]) >= -1e-9 * np.max(a["F_n"])
        assert np.max(a["y"]) <= 1e-15
    # undamped: the normal force touches zero every period, so the block stick-slips
    kinds = [e.kind for e in ref(damping=0.0).events]
    assert kinds[:4] == ["stick", "slip", "stick", "slip"] and len(kinds) > 40


@pytest.mark.parametrize("solver", ["filippov", "ida"])
def test_block_slides_with_exact_acceleration_at_35_degrees(solver):
    sol = ref(solver=solver, t_end=0.05, samples=501, alpha=35.0)
    assert not [e for e in sol.events if e.kind == "stick"]
    a_exact = CASE.numbers(sol.params)["slide_acceleration"]
    assert a_exact == pytest.approx(9.81 * (math.sin(math.radians(35)) - 0.6 * math.cos(math.radians(35))))
    t1, t2 = 0.03, 0.05  # the normal oscillation (decay rate 7500/s) has died out
    vx = sol(np.array([t1, t2]))[sol.state_names.index("vx")]
    a = (vx[1] - vx[0]) / (t2 - t1)
    assert abs(a / a_exact - 1) <= 1e-9, a / a_exact - 1
    F = sol.derived("F", t=np.array([t2]))[0]
    assert F == pytest.approx(-0.6 * CASE.numbers(sol.params)["F_n_eq"], rel=1e-9)


def test_cundall_strack_oscillates_about_the_equilibrium():
    """Without tangential damping the CS spring oscillates about x_eq = m g sin a / k_t
    with that amplitude (the block starts at rest with an unstretched spring)."""
    out = S.cs_amplitude(CASE, 15.0, {"gt_ratio": 0.0}, window=(0.01, 0.02))
    A = out["mg_sin_over_kt"]
    assert 0.1 <= out["amplitude_exact"] / A <= 10  # the brief: order of magnitude
    assert out["amplitude_exact"] == pytest.approx(A, rel=1e-3)  # measured: 2e-6
    assert out["mean_exact"] == pytest.approx(A, rel=1e-2)
    assert out["amplitude_heun"] == pytest.approx(out["amplitude_exact"], rel=1e-3)
    assert out["events_exact"] == 0
    # without any damping the normal force touches zero each period: CS stick-slips too,
    # and oscillates about a drifting mean with an amplitude of the same order
    undamped = S.cs_amplitude(CASE, 15.0, {"damping": 0.0}, window=(0.01, 0.02))
    assert undamped["events_exact"] > 10
    assert 0.1 <= undamped["detrended_exact"] / A <= 10, undamped
    assert undamped["detrended_heun"] == pytest.approx(undamped["detrended_exact"], rel=0.2)


def test_cundall_strack_references_agree():
    for params in ({}, {"alpha": 30.0}, {"damping": 0.0}):
        a = ref("cundall-strack", **params)
        b = ref("cundall-strack", solver="ida", **params)
        d = disagreement(a, b)
        assert d["events_match"] and d["states"]["x"] < 1e-9, (params, d)
    # damped CS at 15 deg never reaches the cut-off; at 30 deg it slips before the grip
    assert ref("cundall-strack").events == []
    assert [e.kind for e in ref("cundall-strack", alpha=30.0).events] == ["slip", "stick"]


def test_delta_scheme_drifts_linearly_and_projection_fixes_it():
    res = simulate(CASE, "coulomb", "delta-heun", 5e-6, t_end=0.02)
    assert [e["kind"] for e in res.events] == ["stick"]
    assert abs(res.events[0]["t"] - ref().events[0].t) <= 2 * 5e-6
    x, vx = res["x"], res["vx"]
    i = np.searchsorted(res.t, 0.005)
    # eq 14: the residual velocity is kept (to rounding: 1.0e-20 of 1.5e-5 m/s under 'brake';
    # bit for bit under 'crossing', where eq 9's combination happens to give exactly 0)
    assert np.ptp(vx[i:]) <= 1e-14 * abs(vx[-1])
    assert x[-1] - x[i] == pytest.approx(vx[-1] * (res.t[-1] - res.t[i]), rel=1e-6)
    assert 1e-8 < x[-1] - x[i] < 1e-5
    # the rows carry the scheme's own mode; stuck, the friction force is the static one
    assert set(res.modes[i:]) == {"stick"} and res.modes[1] == "slip+"
    F = res["F"][i:]
    m_g_sin = CASE.numbers(res.params)["m"] * 9.81 * math.sin(math.radians(15))
    assert np.allclose(F, -m_g_sin, rtol=1e-9)
    proj = simulate(CASE, "coulomb", "delta-heun-proj", 5e-6, t_end=0.02)
    assert abs(proj["x"][-1] - proj["x"][i]) <= 1e-18
    assert abs(proj["x"][-1] - ref()(0.02)[0]) <= 1e-10  # the stuck position: O(dt^2)


def test_delta_drift_shrinks_with_dt():
    """Fig 4: the drift (mean over grid phases) falls linearly with the step."""
    values = CASE.bind("coulomb")
    window = (0.005, 0.01)
    for integ in ("heun", "bdf2"):
        means = []
        for dt in (2e-5, 1e-5, 5e-6, 2.5e-6):
            d, stick = S.delta_drifts(CASE, integ, [values], dt, window, n_phases=4)
            assert np.all(np.isfinite(d)) and np.all(stick < 1e-3)
            means.append(float(np.mean(np.abs(d))))
        assert all(a > b for a, b in zip(means, means[1:])), (integ, means)
        slope = np.polyfit(np.log([2e-5, 1e-5, 5e-6, 2.5e-6]), np.log(means), 1)[0]
        assert 0.7 <= slope <= 1.3, (integ, slope, means)


def test_size_sweep_batch_equals_single_runs():
    """Fig 5 runs all sizes in one batch; the batch is the same scheme as `simulate`."""
    window = (0.004, 0.008)
    rows = S.drift_vs_size(CASE, (0.005, 0.02), integrators=("bdf2",), window=window,
                           n_phases=1, with_exact=False)
    for r in rows:
        res = simulate(CASE, "coulomb", "delta-bdf2", 5e-6, t_end=window[1], params={"l": r["l"]})
        assert r["drift"] == pytest.approx(S.drift_of(res.t, res["x"], window), rel=1e-9, abs=1e-18)


def test_cli_reference_simulate_converge(tmp_path, capsys):
    out = tmp_path / "ref.csv"
    assert main(["reference", "slope-block", "--param", "alpha=30", "--param", "damping=0",
                 "--param", "l=0.02", "--t-end", "0.004", "--out", str(out)]) == 0
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["parameters"]["alpha"] == 30 and meta["cross_check"]["max_abs"] < 1e-8
    header = out.read_text().splitlines()[0].split(",")
    assert header[:5] == ["t", "x", "y", "vx", "vy"] and "F_n" in header and "x_h" in header
    sim = tmp_path / "sim.csv"
    assert main(["simulate", "slope-block", "--law", "cundall-strack", "--scheme", "heun",
                 "--dt", "5e-6", "--t-end", "0.002", "--param", "mu=0.5", "--out", str(sim)]) == 0
    assert sim.read_text().splitlines()[0].startswith("t,xi,x,y,vx,vy")
    conv = tmp_path / "conv"
    assert main(["converge", "slope-block", "--scheme", "delta-heun", "--dt", "2e-5", "1e-5", "5e-6",
                 "--t-end", "0.002", "--out", str(conv)]) == 0
    assert (conv / "convergence.csv").exists() and (conv / "convergence.png").exists()
    capsys.readouterr()
    bad = tmp_path / "bad.csv"
    assert main(["reference", "slope-block", "--param", "alpha=95", "--out", str(bad)]) == 2
    assert main(["reference", "slope-block", "--param", "damping=2", "--out", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "alpha" in err and "damping" in err and not bad.exists()


@pytest.mark.slow
def test_run_writes_figures_2_to_5_with_csvs(tmp_path):
    from nsfric.papers.krengel_matuttis.slope_block_figures import run_all

    res = run_all(CASE, str(tmp_path), dts=(5e-6, 2e-5), sizes=(0.01, 0.05), t_series=0.004,
                  windows=((0.003, 0.006), (0.01, 0.02)), n_phases=2, jobs=2)  # its parts on a pool
    names = {p.split("/")[-1] for p in res["written"]}
    for stem in ("fig2-slope-15deg", "fig3-slope-30deg", "fig4-drift-dt", "fig5-drift-size"):
        assert {stem + ".png", stem + ".csv", stem + ".json"} - {"%s.json" % stem} <= names
        assert (tmp_path / (stem + ".json")).exists()
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["fig4"]["exact"]["filippov"]["drift"] == 0.0
    assert all(r["drift"] == 0.0 for r in summary["fig5"]["rows"] if r["integrator"] == "exact")
    # the grip: at 30 deg the damped exact friction sticks before Cundall-Strack settles
    f3 = summary["fig3"]["damping=1"]
    assert f3["exact static friction"]["first_stick"] < 1e-3


def test_drift_figures_compute_through_sweep(monkeypatch):
    """Figs 4-5 are sweeps (scheme x dt, scheme x l) of DriftPoint, whose delta points are
    one batch over the grid phases: the rows are those of the direct batches."""
    import importlib

    sw = importlib.import_module("nsfric.study.sweep")  # (nsfric.study.sweep is also the function)
    calls = []
    real = sw.sweep
    monkeypatch.setattr(sw, "sweep", lambda fn, **kw: calls.append(kw["grid"]) or real(fn, **kw))
    window = (0.004, 0.008)
    rows = S.drift_vs_dt(CASE, (5e-5, 2e-5), window=window, n_phases=2, integrators=("bdf2",))
    assert calls == [{"scheme": ["delta-bdf2", "delta-heun-proj", "heun"], "dt": [5e-5, 2e-5]}]
    assert [(r["scheme"], r["law"], r["dt"]) for r in rows] == [
        ("delta-bdf2", "coulomb", 5e-5), ("delta-bdf2", "coulomb", 2e-5), ("delta-heun-proj", "coulomb", 5e-5),
        ("delta-heun-proj", "coulomb", 2e-5), ("heun", "cundall-strack", 5e-5), ("heun", "cundall-strack", 2e-5)]
    d, _ = S.delta_drifts(CASE, "bdf2", [CASE.bind("coulomb", {"alpha": 15.0})], 2e-5, window, 2)
    assert rows[1]["drift"] == d[0, 0] and rows[1]["max_abs"] == np.max(np.abs(d[0]))
    res = simulate(CASE, "cundall-strack", "heun", 5e-5, t_end=window[1], params={"alpha": 15.0})
    assert rows[4]["drift"] == S.drift_of(res.t, res["x"], window)
    sizes = S.drift_vs_size(CASE, (0.005, 0.02), integrators=("heun",), window=window, n_phases=2,
                            with_exact=False)
    assert calls[1] == {"scheme": ["delta-heun"], "l": [0.005, 0.02]}
    d, stick = S.delta_drifts(CASE, "heun", [CASE.bind("coulomb", {"alpha": 15.0, "l": 0.02})], S.DT_PAPER,
                              window, 2)
    assert sizes[1]["drift"] == d[0, 0] and sizes[1]["stick_time"] == stick[0, 0]
